//! The arithmetic the forward pass is made of: matrix products (`ordered-gemm`, each element
//! summed in one order on every CPU), and element-wise loops written so that the compiler vectorises them (no reductions that
//! would need reassociation, no calls into libm in the hot loops).

use crate::nn::model::Activation;

/// `out[oc] = Σ_ic x[ic] · w[ic][oc]` for the small dense layers (global inputs, pooled
/// features), summed in `ic` order.
pub(crate) fn matvec(x: &[f32], w: &[f32], out: &mut [f32]) {
    let cout = out.len();
    assert_eq!(w.len(), x.len() * cout);
    out.fill(0.0);
    for (xi, row) in x.iter().zip(w.chunks_exact(cout)) {
        for (o, wi) in out.iter_mut().zip(row) {
            *o += xi * wi;
        }
    }
}

const LOG2E: f32 = std::f32::consts::LOG2_E;
/// ln 2 in two parts, the first with few enough bits that `n · LN2_HI` is exact.
const LN2_HI: f32 = 355.0 / 512.0;
const LN2_LO: f32 = -2.121_944_4e-4;
/// 1.5 · 2^23: adding it rounds a float of magnitude below 2^22 to an integer.
const ROUND: f32 = 12_582_912.0;

/// e^x to within 2e-7 relative for x in [-87, 88] (smaller x give about 1e-38, larger ones
/// about 1.6e38): Cephes' polynomial after reducing x by a multiple of ln 2. Plain
/// arithmetic only, so that loops calling it vectorise; libm's `expf` does not.
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    let x = x.clamp(-87.0, 88.0);
    let t = x * LOG2E + ROUND;
    let n = t - ROUND;
    let r = x - n * LN2_HI - n * LN2_LO;
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * (r * r) + r + 1.0;
    // n lies in [-126, 127]: 2^n is a normal float, built from its exponent bits.
    let n = (t.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    e * f32::from_bits(((n + 127) as u32) << 23)
}

#[inline(always)]
fn silu(x: f32) -> f32 {
    x / (1.0 + exp(-x))
}

/// Mish as KataGo computes it; rare (no current net uses it), so libm is fine here.
fn mish(x: f32) -> f32 {
    let softplus = if x < 20.0 { x.exp().ln_1p() } else { x };
    x * softplus.tanh()
}

#[inline(always)]
fn activate_portable(x: &mut [f32], act: Activation) {
    match act {
        Activation::Identity => {}
        Activation::Relu => x.iter_mut().for_each(|v| *v = v.max(0.0)),
        Activation::Silu => x.iter_mut().for_each(|v| *v = silu(*v)),
        Activation::Mish => x.iter_mut().for_each(|v| *v = mish(*v)),
    }
}

/// `Σ x`, in eight interleaved partial sums so that it vectorises; the order of the
/// additions is fixed, whatever the vector width.
#[inline(always)]
fn sum8(x: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut acc = [0.0f32; 8];
    let chunks = x.chunks_exact(8);
    let rest = chunks.remainder();
    for ch in chunks {
        for i in 0..8 {
            acc[i] += f(ch[i]);
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &v in rest {
        s += f(v);
    }
    s
}

/// Defines `pub(crate) fn $name` for the baseline CPU and, on x86-64, for AVX2 and AVX-512,
/// picked at run time, since builds may not assume more than the baseline. All versions
/// perform the same operations in the same order (Rust never fuses `a * b + c` into an FMA
/// by itself), so their results are the same bit for bit.
macro_rules! dispatch {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$doc])*
        pub(crate) fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn portable($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f")]
                unsafe fn avx512($($arg: $ty),*) {
                    portable($($arg),*)
                }
                if std::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the CPU has just been found to support AVX-512F.
                    return unsafe { avx512($($arg),*) };
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) {
                    portable($($arg),*)
                }
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has just been found to support AVX2.
                    return unsafe { avx2($($arg),*) };
                }
            }
            portable($($arg),*)
        }
    };
}

dispatch! {
    /// Applies `act` to every element.
    fn activate(x: &mut [f32], act: Activation) {
        activate_portable(x, act)
    }
}

dispatch! {
    /// `out = act(x · scale + bias)` per channel, for points of `scale.len()` channels.
    fn norm_act(x: &[f32], scale: &[f32], bias: &[f32], act: Activation, out: &mut [f32]) {
        let c = scale.len();
        assert_eq!(x.len(), out.len());
        for (xr, or) in x.chunks_exact(c).zip(out.chunks_exact_mut(c)) {
            for i in 0..c {
                or[i] = xr[i] * scale[i] + bias[i];
            }
            activate_portable(or, act);
        }
    }
}

dispatch! {
    /// RMSNorm of each point over its channels: `out = x / √(mean x² + ε) · weight`.
    fn rms_norm(x: &[f32], weight: &[f32], epsilon: f32, out: &mut [f32]) {
        let c = weight.len();
        for (xr, or) in x.chunks_exact(c).zip(out.chunks_exact_mut(c)) {
            let inv = 1.0 / (sum8(xr, |v| v * v) / c as f32 + epsilon).sqrt();
            for i in 0..c {
                or[i] = xr[i] * inv * weight[i];
            }
        }
    }
}

dispatch! {
    /// Softmax of each row of `n` attention scores, the scores first multiplied by `scale`
    /// (> 0; applied after taking the maximum, which it does not move).
    fn softmax_rows(scores: &mut [f32], n: usize, scale: f32) {
        for row in scores.chunks_exact_mut(n) {
            // `a > b ? a : b` rather than `f32::max`, whose NaN rule does not vectorise.
            let bigger = |a: f32, b: f32| if a > b { a } else { b };
            let mut acc = [f32::NEG_INFINITY; 8];
            let chunks = row.chunks_exact(8);
            let rest = chunks.remainder();
            for ch in chunks {
                for i in 0..8 {
                    acc[i] = bigger(ch[i], acc[i]);
                }
            }
            let max = acc.iter().chain(rest).fold(f32::NEG_INFINITY, |m, &v| bigger(v, m));
            for v in row.iter_mut() {
                *v = exp((*v - max) * scale);
            }
            let inv = 1.0 / sum8(row, |v| v);
            for v in row.iter_mut() {
                *v *= inv;
            }
        }
    }
}

dispatch! {
    /// SwiGLU: `out[p][j] = silu(h[p][j]) · h[p][hidden + j]`, `h` holding both halves of
    /// each point.
    fn swiglu(h: &[f32], hidden: usize, out: &mut [f32]) {
        for (hr, or) in h.chunks_exact(2 * hidden).zip(out.chunks_exact_mut(hidden)) {
            let (a, g) = hr.split_at(hidden);
            for j in 0..hidden {
                or[j] = silu(a[j]) * g[j];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_within_2e7_relative() {
        let mut worst = 0.0f64;
        let mut x = -87.0f32;
        while x <= 88.0 {
            let want = (x as f64).exp();
            let got = exp(x) as f64;
            worst = worst.max(((got - want) / want).abs());
            x += 0.000_37;
        }
        assert!(worst < 2e-7, "worst relative error {worst}");
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(-1000.0) < 1e-37 && exp(-1000.0) >= 0.0);
        assert!(exp(1000.0).is_finite());
    }

    #[test]
    fn silu_matches_its_definition() {
        for &x in &[-100.0f32, -20.0, -3.5, -0.1, 0.0, 0.2, 1.0, 7.0, 50.0] {
            let want = x as f64 / (1.0 + (-(x as f64)).exp());
            assert!(
                (silu(x) as f64 - want).abs() <= 1e-6 * want.abs().max(1e-30),
                "{x}"
            );
        }
    }

    #[test]
    fn rms_norm_of_a_point() {
        let x = [3.0f32, -4.0, 0.0, 0.0];
        let mut out = [0.0f32; 4];
        rms_norm(&x, &[1.0, 2.0, 1.0, 1.0], 0.0, &mut out);
        // mean square 25/4: rms 2.5.
        assert_eq!(out, [1.2, -3.2, 0.0, 0.0]);
    }

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let mut row: Vec<f32> = (0..19).map(|i| i as f32 * 0.6 - 4.0).collect();
        softmax_rows(&mut row, 19, 0.5);
        let sum: f32 = row.iter().sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert!(row.windows(2).all(|w| w[0] < w[1]));
        let want = (-0.3f64).exp();
        assert!(((row[17] / row[18]) as f64 - want).abs() < 1e-6);
    }
}
