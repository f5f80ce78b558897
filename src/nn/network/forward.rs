//! The forward pass: a position's input features through the trunk and the policy and value
//! heads, as KataGo's CPU backend computes them, to the heads' raw outputs.
//!
//! Activations are kept point-major (`[point][channel]`, points row by row from the top
//! left), which makes a 1×1 convolution or a dense layer one matrix product, a larger
//! convolution one product with an image-patch matrix, and a transformer's tokens the rows.
//!
//! KataGo puts a smaller board into its 19×19 buffers and masks the rest; here the board is
//! the whole grid, so no point is masked and every mean over the board divides by size².

mod kernels;

use std::collections::HashMap;
use std::sync::Arc;

use crate::nn::model::{
    AttentionBlock, Block, Conv, FfnBlock, GlobalPoolingBlock, Model, NestedBottleneckBlock,
    NormAct, PassHead, PolicyHead, ResidualBlock, RopeTables, TipRmsNorm, TrunkTip, ValueHead,
};
use kernels::matvec;
use ordered_gemm::{Kernel, Mat, Packed};

/// The heads' raw outputs for one position, from the side to move's point of view, before
/// any of KataGo's post-processing (see `output`).
#[derive(Clone, Debug, PartialEq)]
pub struct RawOutput {
    pub size: usize,
    /// Policy logits, `[channel][point]`: channel 0 is the policy, channel 1 (version 12
    /// on) the optimistic policy.
    pub policy: Vec<f32>,
    /// The pass logit of each policy channel.
    pub policy_pass: Vec<f32>,
    /// Win, loss and no-result logits.
    pub value: [f32; 3],
    /// Score mean, score stdev (before softplus), lead, variance of time left and, from
    /// version 9, the short-term errors of value and score (before softplus).
    pub score: Vec<f32>,
    /// Ownership before tanh, one per point.
    pub ownership: Vec<f32>,
}

impl RawOutput {
    pub fn policy_channels(&self) -> usize {
        self.policy_pass.len()
    }
}

/// Reusable buffers for `evaluate`: one per thread, kept between positions so that a
/// position allocates nothing once the buffers have grown to its size. It also names the
/// kernel the products run on; every kernel gives the same bits.
#[derive(Debug)]
pub struct Scratch {
    free: Vec<Vec<f32>>,
    kernel: Kernel,
    /// The keys or values of one attention head, packed for a product.
    packed: Packed,
    /// Rotary tables by attention block (`AttentionBlock::id`) and board size, computed at
    /// the first position of that size.
    rope: HashMap<(usize, usize), Arc<RopeTables>>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::with_kernel(Kernel::fastest())
    }
}

impl Scratch {
    /// Buffers for the fastest kernel this CPU has.
    pub fn new() -> Self {
        Scratch::default()
    }

    /// Buffers for products on `kernel`.
    ///
    /// # Panics
    /// When this CPU does not have the kernel.
    pub fn with_kernel(kernel: Kernel) -> Self {
        assert!(kernel.available(), "{} is not available", kernel.name());
        Scratch {
            free: Vec::new(),
            kernel,
            packed: Packed::default(),
            rope: HashMap::new(),
        }
    }

    /// The rotary tables of block `b` for a `size`×`size` board, if it has any.
    fn rope(&mut self, b: &AttentionBlock, size: usize) -> Option<Arc<RopeTables>> {
        if let Some(t) = self.rope.get(&(b.id, size)) {
            return Some(Arc::clone(t));
        }
        let t = Arc::new(b.rope_tables(size)?);
        self.rope.insert((b.id, size), Arc::clone(&t));
        Some(t)
    }

    /// The kernel the products run on.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// `c = a·b`, or `c += a·b` when `accumulate`: each element summed in `k` order, the
    /// same bits on every CPU.
    fn gemm(&self, a: Mat, b: &Packed, c: &mut [f32], ldc: usize, accumulate: bool) {
        ordered_gemm::gemm(self.kernel, a, b, c, ldc, accumulate);
    }

    /// A buffer of `len` floats; its contents are left over from earlier use. The smallest
    /// free buffer that holds `len` is taken, so that large ones are not grown again and again.
    fn take(&mut self, len: usize) -> Vec<f32> {
        let fits = (0..self.free.len())
            .filter(|&i| self.free[i].capacity() >= len)
            .min_by_key(|&i| self.free[i].capacity());
        let mut v = match fits {
            Some(i) => self.free.swap_remove(i),
            None => self.free.pop().unwrap_or_default(),
        };
        v.resize(len, 0.0);
        v
    }

    fn give(&mut self, v: Vec<f32>) {
        self.free.push(v);
    }
}

impl Model {
    /// Evaluates one position on a `size`×`size` board. `spatial` holds the input features
    /// channel-major, `[channel][point]`, and channel 0 (KataGo's "on board") must be 1 at
    /// every point; `global` holds the global features.
    ///
    /// The result depends only on the inputs, not on the thread or on what `scratch` held.
    pub fn evaluate(
        &self,
        spatial: &[f32],
        global: &[f32],
        size: usize,
        scratch: &mut Scratch,
    ) -> RawOutput {
        let n = size * size;
        assert!(size >= 1, "the board has no points");
        assert_eq!(
            spatial.len(),
            self.num_spatial * n,
            "spatial inputs' length"
        );
        assert_eq!(global.len(), self.num_global, "global inputs' length");
        assert!(
            spatial[..n].iter().all(|&v| v == 1.0),
            "channel 0 must be 1 on every point: the board is the whole grid"
        );
        let ev = Eval { size, n };

        let cin = self.num_spatial;
        let mut input = scratch.take(n * cin);
        for c in 0..cin {
            for p in 0..n {
                input[p * cin + c] = spatial[c * n + p];
            }
        }
        let t = &self.trunk;
        let c = t.channels;
        let mut trunk = scratch.take(n * c);
        ev.conv(&t.initial_conv, &input, &mut trunk, false, scratch);
        scratch.give(input);
        let mut global_bias = scratch.take(c);
        matvec(global, &t.initial_global.weights, &mut global_bias);
        add_per_channel(&mut trunk, &global_bias);
        scratch.give(global_bias);

        for block in &t.blocks {
            ev.block(block, &mut trunk, c, scratch);
        }

        let mut tip = scratch.take(n * c);
        match &t.tip {
            TrunkTip::BatchNorm(norm) => ev.norm_act(norm, &trunk, &mut tip),
            TrunkTip::RmsNorm(r) => tip_rms_norm(r, &trunk, &mut tip),
        }
        scratch.give(trunk);

        let (policy, policy_pass) = ev.policy_head(&self.policy, &tip, scratch);
        let (value, score, ownership) = ev.value_head(&self.value, &tip, scratch);
        scratch.give(tip);
        RawOutput {
            size,
            policy,
            policy_pass,
            value,
            score,
            ownership,
        }
    }
}

/// The board being evaluated: `n` points, `size` to a row.
#[derive(Clone, Copy)]
struct Eval {
    size: usize,
    n: usize,
}

impl Eval {
    /// `out = conv(x)`, or `out += conv(x)` when `accumulate`; `x` has `conv.cin` channels.
    fn conv(self, conv: &Conv, x: &[f32], out: &mut [f32], accumulate: bool, s: &mut Scratch) {
        let (n, cin, cout) = (self.n, conv.cin, conv.cout);
        if conv.ky == 1 && conv.kx == 1 {
            s.gemm(
                Mat::rows(x, n, cin, cin),
                &conv.weights,
                out,
                cout,
                accumulate,
            );
            return;
        }
        // Image patches: row p holds the ky×kx neighbourhood of p, zero off the board, in
        // the (y, x, channel) order of the weights' rows.
        let k = conv.ky * conv.kx * cin;
        let mut patches = s.take(n * k);
        let (ry, rx) = (conv.ky / 2, conv.kx / 2);
        let size = self.size;
        for py in 0..size {
            for px in 0..size {
                let row = &mut patches[(py * size + px) * k..][..k];
                for dy in 0..conv.ky {
                    for dx in 0..conv.kx {
                        let dst = &mut row[(dy * conv.kx + dx) * cin..][..cin];
                        let sy = (py + dy).wrapping_sub(ry);
                        let sx = (px + dx).wrapping_sub(rx);
                        if sy < size && sx < size {
                            dst.copy_from_slice(&x[(sy * size + sx) * cin..][..cin]);
                        } else {
                            dst.fill(0.0);
                        }
                    }
                }
            }
        }
        s.gemm(
            Mat::rows(&patches, n, k, k),
            &conv.weights,
            out,
            cout,
            accumulate,
        );
        s.give(patches);
    }

    fn norm_act(self, norm: &NormAct, x: &[f32], out: &mut [f32]) {
        kernels::norm_act(x, &norm.scale, &norm.bias, norm.act, out);
    }

    /// Applies one block to `x`, a stack of `c` channels, in place.
    fn block(self, block: &Block, x: &mut [f32], c: usize, s: &mut Scratch) {
        match block {
            Block::Residual(b) => self.residual(b, x, c, s),
            Block::GlobalPooling(b) => self.gpool_block(b, x, c, s),
            Block::NestedBottleneck(b) => self.nested(b, x, c, s),
            Block::Attention(b) => self.attention(b, x, c, s),
            Block::Ffn(b) => self.ffn(b, x, c, s),
        }
    }

    fn residual(self, b: &ResidualBlock, x: &mut [f32], c: usize, s: &mut Scratch) {
        let n = self.n;
        let mid = b.conv1.cout;
        let mut t = s.take(n * c);
        self.norm_act(&b.pre, x, &mut t);
        let mut m = s.take(n * mid);
        self.conv(&b.conv1, &t, &mut m, false, s);
        t.resize(n * mid, 0.0);
        self.norm_act(&b.mid, &m, &mut t);
        self.conv(&b.conv2, &t, x, true, s);
        s.give(m);
        s.give(t);
    }

    fn gpool_block(self, b: &GlobalPoolingBlock, x: &mut [f32], c: usize, s: &mut Scratch) {
        let n = self.n;
        let (cr, cg) = (b.regular.cout, b.gpool.cout);
        let mut t = s.take(n * c);
        self.norm_act(&b.pre, x, &mut t);
        let mut r = s.take(n * cr);
        self.conv(&b.regular, &t, &mut r, false, s);
        let mut g = s.take(n * cg);
        self.conv(&b.gpool, &t, &mut g, false, s);
        let mut g2 = s.take(n * cg);
        self.norm_act(&b.gpool_norm, &g, &mut g2);
        let mut pooled = s.take(3 * cg);
        self.pool(&g2, cg, &mut pooled);
        let mut bias = s.take(cr);
        matvec(&pooled, &b.gpool_to_bias.weights, &mut bias);
        add_per_channel(&mut r, &bias);
        t.resize(n * cr, 0.0);
        self.norm_act(&b.mid, &r, &mut t);
        self.conv(&b.conv2, &t, x, true, s);
        for v in [t, r, g, g2, pooled, bias] {
            s.give(v);
        }
    }

    fn nested(self, b: &NestedBottleneckBlock, x: &mut [f32], c: usize, s: &mut Scratch) {
        let n = self.n;
        let mid = b.pre_conv.cout;
        let mut t = s.take(n * c);
        self.norm_act(&b.pre, x, &mut t);
        let mut m = s.take(n * mid);
        self.conv(&b.pre_conv, &t, &mut m, false, s);
        for inner in &b.blocks {
            self.block(inner, &mut m, mid, s);
        }
        t.resize(n * mid, 0.0);
        self.norm_act(&b.post, &m, &mut t);
        self.conv(&b.post_conv, &t, x, true, s);
        s.give(m);
        s.give(t);
    }

    fn attention(self, b: &AttentionBlock, x: &mut [f32], c: usize, s: &mut Scratch) {
        let n = self.n;
        let (hq, hk, dq, dv) = (b.heads, b.kv_heads, b.q_dim, b.v_dim);
        let (wq, wk, wv) = (hq * dq, hk * dq, hk * dv);
        let w = wq + wk + wv;
        let mut normed = s.take(n * c);
        kernels::rms_norm(x, &b.norm.weight, b.norm.epsilon, &mut normed);
        let mut qkv = s.take(n * w);
        s.gemm(Mat::rows(&normed, n, c, c), &b.qkv, &mut qkv, w, false);
        s.give(normed);

        if let Some(tables) = s.rope(b, self.size) {
            let pairs = dq / 2;
            for (p, row) in qkv.chunks_exact_mut(w).enumerate() {
                let at = p * hk * pairs;
                let cos = &tables.cos[at..at + hk * pairs];
                let sin = &tables.sin[at..at + hk * pairs];
                let (q, rest) = row.split_at_mut(wq);
                rotate(q, hq, hk, dq, cos, sin);
                rotate(&mut rest[..wk], hk, hk, dq, cos, sin);
            }
        }

        let scale = 1.0 / (dq as f32).sqrt();
        let mut scores = s.take(n * n);
        let mut attended = s.take(n * hq * dv);
        let group = hq / hk;
        for h in 0..hq {
            let kvh = h / group;
            // scores = Q_h · K_kvhᵀ, each row a query point over all key points.
            let mut packed = std::mem::take(&mut s.packed);
            packed.pack(Mat::transposed(&qkv[wq + kvh * dq..], dq, n, w));
            s.gemm(
                Mat::rows(&qkv[h * dq..], n, dq, w),
                &packed,
                &mut scores,
                n,
                false,
            );
            kernels::softmax_rows(&mut scores, n, scale);
            packed.pack(Mat::rows(&qkv[wq + wk + kvh * dv..], n, dv, w));
            s.gemm(
                Mat::rows(&scores, n, n, n),
                &packed,
                &mut attended[h * dv..],
                hq * dv,
                false,
            );
            s.packed = packed;
        }
        s.gemm(
            Mat::rows(&attended, n, hq * dv, hq * dv),
            &b.out,
            x,
            c,
            true,
        );
        for v in [qkv, scores, attended] {
            s.give(v);
        }
    }

    fn ffn(self, b: &FfnBlock, x: &mut [f32], c: usize, s: &mut Scratch) {
        let n = self.n;
        let hidden = b.hidden;
        let mut normed = s.take(n * c);
        kernels::rms_norm(x, &b.norm.weight, b.norm.epsilon, &mut normed);
        let mut both = s.take(n * 2 * hidden);
        s.gemm(
            Mat::rows(&normed, n, c, c),
            &b.linear1_gate,
            &mut both,
            2 * hidden,
            false,
        );
        let mut h = s.take(n * hidden);
        kernels::swiglu(&both, hidden, &mut h);
        s.gemm(Mat::rows(&h, n, hidden, hidden), &b.linear2, x, c, true);
        for v in [normed, both, h] {
            s.give(v);
        }
    }

    /// KataGo's global pooling of `c` channels: the mean, the mean scaled by board width
    /// ((√points − 14)/10) and the maximum.
    fn pool(self, x: &[f32], c: usize, out: &mut [f32]) {
        let (sum, max) = out[..2 * c].split_at_mut(c);
        sum.fill(0.0);
        max.fill(f32::NEG_INFINITY);
        for row in x.chunks_exact(c) {
            for i in 0..c {
                sum[i] += row[i];
                max[i] = max[i].max(row[i]);
            }
        }
        let count = self.n as f32;
        let width = count.sqrt() - 14.0;
        for i in 0..c {
            let mean = out[i] / count;
            let m = out[c + i];
            out[i] = mean;
            out[c + i] = mean * width * 0.1;
            out[2 * c + i] = m;
        }
    }

    /// The value head's pooling: the mean, and the mean scaled by a linear and a quadratic
    /// function of board width.
    fn value_pool(self, x: &[f32], c: usize, out: &mut [f32]) {
        let sum = &mut out[..c];
        sum.fill(0.0);
        for row in x.chunks_exact(c) {
            for i in 0..c {
                sum[i] += row[i];
            }
        }
        let count = self.n as f32;
        let width = count.sqrt() - 14.0;
        for i in 0..c {
            let mean = out[i] / count;
            out[i] = mean;
            out[c + i] = mean * width * 0.1;
            out[2 * c + i] = mean * (width * width * 0.01 - 0.1);
        }
    }

    fn policy_head(self, h: &PolicyHead, trunk: &[f32], s: &mut Scratch) -> (Vec<f32>, Vec<f32>) {
        let n = self.n;
        let (cp, cg) = (h.p1_conv.cout, h.g1_conv.cout);
        let mut p1 = s.take(n * cp);
        self.conv(&h.p1_conv, trunk, &mut p1, false, s);
        let mut g1 = s.take(n * cg);
        self.conv(&h.g1_conv, trunk, &mut g1, false, s);
        let mut g2 = s.take(n * cg);
        self.norm_act(&h.g1_norm, &g1, &mut g2);
        let mut pooled = s.take(3 * cg);
        self.pool(&g2, cg, &mut pooled);
        let mut bias = s.take(cp);
        matvec(&pooled, &h.gpool_to_bias.weights, &mut bias);
        add_per_channel(&mut p1, &bias);
        let mut p2 = s.take(n * cp);
        self.norm_act(&h.p1_norm, &p1, &mut p2);
        let channels = h.channels;
        let mut logits = s.take(n * channels);
        self.conv(&h.p2_conv, &p2, &mut logits, false, s);
        let mut policy = vec![0.0f32; n * channels];
        for p in 0..n {
            for ch in 0..channels {
                policy[ch * n + p] = logits[p * channels + ch];
            }
        }
        let mut pass = vec![0.0f32; channels];
        match &h.pass {
            PassHead::Linear(m) => matvec(&pooled, &m.weights, &mut pass),
            PassHead::Mlp {
                mul,
                bias: b,
                act,
                mul2,
            } => {
                let mut hidden = vec![0.0f32; mul.cout];
                matvec(&pooled, &mul.weights, &mut hidden);
                for (v, bi) in hidden.iter_mut().zip(&b.weights) {
                    *v += bi;
                }
                kernels::activate(&mut hidden, *act);
                matvec(&hidden, &mul2.weights, &mut pass);
            }
        }
        for v in [p1, g1, g2, pooled, bias, p2, logits] {
            s.give(v);
        }
        (policy, pass)
    }

    fn value_head(
        self,
        h: &ValueHead,
        trunk: &[f32],
        s: &mut Scratch,
    ) -> ([f32; 3], Vec<f32>, Vec<f32>) {
        let n = self.n;
        let cv = h.v1_conv.cout;
        let mut v1 = s.take(n * cv);
        self.conv(&h.v1_conv, trunk, &mut v1, false, s);
        let mut v1a = s.take(n * cv);
        self.norm_act(&h.v1_norm, &v1, &mut v1a);
        let mut pooled = s.take(3 * cv);
        self.value_pool(&v1a, cv, &mut pooled);
        let mut v2 = vec![0.0f32; h.v2_mul.cout];
        matvec(&pooled, &h.v2_mul.weights, &mut v2);
        for (v, b) in v2.iter_mut().zip(&h.v2_bias.weights) {
            *v += b;
        }
        kernels::activate(&mut v2, h.v2_act);
        let mut value = [0.0f32; 3];
        matvec(&v2, &h.v3_mul.weights, &mut value);
        for (v, b) in value.iter_mut().zip(&h.v3_bias.weights) {
            *v += b;
        }
        let mut score = vec![0.0f32; h.sv3_mul.cout];
        matvec(&v2, &h.sv3_mul.weights, &mut score);
        for (v, b) in score.iter_mut().zip(&h.sv3_bias.weights) {
            *v += b;
        }
        let mut ownership = vec![0.0f32; n];
        self.conv(&h.ownership_conv, &v1a, &mut ownership, false, s);
        for v in [v1, v1a, pooled] {
            s.give(v);
        }
        (value, score, ownership)
    }
}

/// The trunk's final RMSNorm, its gain, offset and activation.
fn tip_rms_norm(r: &TipRmsNorm, x: &[f32], out: &mut [f32]) {
    let c = r.gamma.len();
    let scale = |sum_squares: f64, count: usize| {
        1.0 / ((sum_squares / count as f64) as f32 + r.epsilon).sqrt()
    };
    // Spatial: one scale for the whole board, from every channel of every point.
    let whole = r.spatial.then(|| {
        scale(
            x.iter().map(|&v| f64::from(v) * f64::from(v)).sum(),
            x.len(),
        )
    });
    for (xr, or) in x.chunks_exact(c).zip(out.chunks_exact_mut(c)) {
        let inv = whole
            .unwrap_or_else(|| scale(xr.iter().map(|&v| f64::from(v) * f64::from(v)).sum(), c));
        for i in 0..c {
            or[i] = xr[i] * inv * r.gamma[i] + r.beta[i];
        }
    }
    kernels::activate(out, r.act);
}

/// Adds `bias[c]` to channel `c` of every point.
fn add_per_channel(x: &mut [f32], bias: &[f32]) {
    for row in x.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v += b;
        }
    }
}

/// Rotary encoding of one point's heads: each head's channel pairs (2i, 2i+1) turned by
/// the angle whose cosine and sine the tables give for the head's key/value group.
fn rotate(x: &mut [f32], heads: usize, kv_heads: usize, dim: usize, cos: &[f32], sin: &[f32]) {
    let pairs = dim / 2;
    for h in 0..heads {
        let kvh = h * kv_heads / heads;
        let (c, s) = (&cos[kvh * pairs..][..pairs], &sin[kvh * pairs..][..pairs]);
        let head = &mut x[h * dim..][..dim];
        for (i, pair) in head.chunks_exact_mut(2).enumerate() {
            let (x0, x1) = (pair[0], pair[1]);
            pair[0] = x0 * c[i] - x1 * s[i];
            pair[1] = x0 * s[i] + x1 * c[i];
        }
    }
}

#[cfg(test)]
mod tests;
