//! The model file's parser: KataGo's `.bin` format read layer by layer, every size, flag and
//! weight checked as it is read (`Model::parse`).

use ordered_gemm::{Mat, Packed};

use super::*;
use crate::nn::features::{NUM_GLOBAL, NUM_SPATIAL};

pub(super) struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    version: i32,
    /// How many nested bottleneck blocks enclose the block being read.
    depth: usize,
}

const MAX_NESTING: usize = 8;

impl<'a> Parser<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Parser {
            bytes,
            pos: 0,
            version: 0,
            depth: 0,
        }
    }

    /// The next whitespace-separated word; `at` names what is being read, for errors.
    fn word(&mut self, at: &str) -> Result<&'a str, ModelError> {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(ModelError::Truncated { at: at.to_string() });
        }
        std::str::from_utf8(&self.bytes[start..self.pos]).map_err(|_| ModelError::Syntax {
            at: at.to_string(),
            expected: "text",
            found: "bytes that are not UTF-8".into(),
        })
    }

    fn int(&mut self, at: &str) -> Result<i64, ModelError> {
        let w = self.word(at)?;
        w.parse().map_err(|_| ModelError::Syntax {
            at: at.to_string(),
            expected: "an integer",
            found: shorten(w),
        })
    }

    /// A count that must be at least 1.
    fn count(&mut self, at: &str, what: &str) -> Result<usize, ModelError> {
        let n = self.int(at)?;
        if !(1..=MAX_DIMENSION as i64).contains(&n) {
            return Err(shape(
                at,
                format!("{what} is {n}, not between 1 and {MAX_DIMENSION}"),
            ));
        }
        Ok(n as usize)
    }

    /// A 0 or 1 flag.
    fn flag(&mut self, at: &str) -> Result<bool, ModelError> {
        match self.int(at)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(ModelError::Syntax {
                at: at.to_string(),
                expected: "0 or 1",
                found: n.to_string(),
            }),
        }
    }

    /// A field that this format reserves for later use and must be 0.
    fn reserved(&mut self, at: &str) -> Result<(), ModelError> {
        match self.int(at)? {
            0 => Ok(()),
            n => Err(unsupported(
                at,
                format!("option value {n} where 0 is expected"),
            )),
        }
    }

    fn float(&mut self, at: &str) -> Result<f32, ModelError> {
        let w = self.word(at)?;
        w.parse().map_err(|_| ModelError::Syntax {
            at: at.to_string(),
            expected: "a number",
            found: shorten(w),
        })
    }

    fn double(&mut self, at: &str) -> Result<f64, ModelError> {
        let w = self.word(at)?;
        let x: f64 = w.parse().map_err(|_| ModelError::Syntax {
            at: at.to_string(),
            expected: "a number",
            found: shorten(w),
        })?;
        if !(x > 0.0 && x.is_finite()) {
            return Err(shape(
                at,
                format!("{x} where a positive number is expected"),
            ));
        }
        Ok(x)
    }

    /// `n` binary floats: up to 100 bytes (whitespace) before `@BIN@`, then `4n` bytes.
    fn floats(&mut self, n: usize, at: &str) -> Result<Vec<f32>, ModelError> {
        let limit = (self.pos + 101).min(self.bytes.len());
        let Some(at_sign) = self.bytes[self.pos..limit].iter().position(|&b| b == b'@') else {
            if limit == self.bytes.len() {
                return Err(ModelError::Truncated { at: at.to_string() });
            }
            return Err(ModelError::Syntax {
                at: at.to_string(),
                expected: "@BIN@ before its weights",
                found: shorten(&String::from_utf8_lossy(&self.bytes[self.pos..limit])),
            });
        };
        let start = self.pos + at_sign;
        let marker = &self.bytes[start..(start + 5).min(self.bytes.len())];
        if marker.len() < 5 {
            return Err(ModelError::Truncated { at: at.to_string() });
        }
        if marker != b"@BIN@" {
            return Err(ModelError::Syntax {
                at: at.to_string(),
                expected: "@BIN@ before its weights",
                found: String::from_utf8_lossy(marker).into_owned(),
            });
        }
        let data = start + 5;
        let end = n
            .checked_mul(4)
            .and_then(|len| data.checked_add(len))
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| ModelError::Truncated { at: at.to_string() })?;
        // Subnormal weights (some nets hold many) are read as zero: below 1.2e-38, they
        // cannot change a sum of normal floats, and on x86 every product with one takes a
        // microcode assist, which slows a layer full of them to a crawl.
        let out: Vec<f32> = self.bytes[data..end]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .map(|w| if w.is_subnormal() { 0.0 } else { w })
            .collect();
        if out.iter().any(|x| !x.is_finite()) {
            return Err(ModelError::NotFinite { at: at.to_string() });
        }
        self.pos = end;
        Ok(out)
    }

    pub(super) fn model(mut self) -> Result<Model, ModelError> {
        let name = self.word("the model's name")?.to_string();
        let version = self.int("the model version")?;
        let version = i32::try_from(version).unwrap_or(i32::MAX);
        if !(OLDEST_VERSION..=NEWEST_VERSION).contains(&version) {
            return Err(ModelError::UnsupportedVersion(version));
        }
        self.version = version;
        let num_spatial = self.count("the model header", "the number of spatial inputs")?;
        let num_global = self.count("the model header", "the number of global inputs")?;
        if (num_spatial, num_global) != (NUM_SPATIAL, NUM_GLOBAL) {
            return Err(unsupported(
                "the model header",
                format!(
                    "{num_spatial} spatial and {num_global} global inputs (the features are \
                     KataGo's input version 7: {NUM_SPATIAL} and {NUM_GLOBAL})"
                ),
            ));
        }
        let mut post = PostProcessParams::default();
        if version >= 13 {
            let at = "the model's output scalings";
            post.td_score_multiplier = self.double(at)?;
            post.score_mean_multiplier = self.double(at)?;
            post.score_stdev_multiplier = self.double(at)?;
            post.lead_multiplier = self.double(at)?;
            post.variance_time_multiplier = self.double(at)?;
            post.shortterm_value_error_multiplier = self.double(at)?;
            post.shortterm_score_error_multiplier = self.double(at)?;
        }
        if version >= 15 {
            let at = "the model header";
            let meta = self.int(at)?;
            if meta != 0 {
                // Human-style nets take SGF metadata as a third input.
                return Err(unsupported(at, format!("metadata encoder version {meta}")));
            }
            // The inputs' pass-alive areas as if suicide were legal: the features compute
            // them as KataGo's nets were trained, with suicide illegal, so a net that wants
            // the other is refused rather than fed inputs it was not trained on.
            if self.flag(at)? {
                return Err(unsupported(
                    at,
                    "pass-alive inputs computed as if suicide were legal".into(),
                ));
            }
            for _ in 0..6 {
                self.reserved(at)?;
            }
        }
        let trunk = self.trunk()?;
        let policy = self.policy_head()?;
        let value = self.value_head()?;
        let at = &name;
        if trunk.initial_conv.cin != num_spatial {
            return Err(shape(
                at,
                format!(
                    "{} spatial inputs but the first convolution takes {}",
                    num_spatial, trunk.initial_conv.cin
                ),
            ));
        }
        if trunk.initial_global.cin != num_global {
            return Err(shape(
                at,
                format!(
                    "{} global inputs but the first dense layer takes {}",
                    num_global, trunk.initial_global.cin
                ),
            ));
        }
        expect(at, "policy head input", policy.p1_conv.cin, trunk.channels)?;
        expect(at, "policy head input", policy.g1_conv.cin, trunk.channels)?;
        expect(at, "value head input", value.v1_conv.cin, trunk.channels)?;
        largest_buffer(&trunk, &policy, &value, 19 * 19)?;
        Ok(Model {
            name,
            version,
            num_spatial,
            num_global,
            post,
            trunk,
            policy,
            value,
        })
    }

    fn conv(&mut self) -> Result<Conv, ModelError> {
        let name = self.word("a convolution")?.to_string();
        let ky = self.count(&name, "the filter height")?;
        let kx = self.count(&name, "the filter width")?;
        let cin = self.count(&name, "the input channels")?;
        let cout = self.count(&name, "the output channels")?;
        let dy = self.count(&name, "the dilation")?;
        let dx = self.count(&name, "the dilation")?;
        if ky % 2 == 0 || kx % 2 == 0 {
            return Err(shape(&name, format!("filter {ky}×{kx} is not odd")));
        }
        if ky > MAX_FILTER || kx > MAX_FILTER {
            return Err(unsupported(
                &name,
                format!("filter {ky}×{kx}, larger than {MAX_FILTER}×{MAX_FILTER}"),
            ));
        }
        if dy != 1 || dx != 1 {
            return Err(unsupported(&name, format!("dilation {dy}×{dx}")));
        }
        let len = [kx, cin, cout]
            .iter()
            .try_fold(ky, |a, &b| a.checked_mul(b))
            .ok_or_else(|| shape(&name, format!("{ky}×{kx}×{cin}×{cout} weights")))?;
        let weights = Packed::new(Mat::rows(
            &self.floats(len, &name)?,
            len / cout.max(1),
            cout,
            cout,
        ));
        Ok(Conv {
            name,
            ky,
            kx,
            cin,
            cout,
            weights,
        })
    }

    fn norm(&mut self) -> Result<(String, Vec<f32>, Vec<f32>, usize), ModelError> {
        let name = self.word("a batch norm")?.to_string();
        let c = self.count(&name, "the channels")?;
        let epsilon = self.float(&name)?;
        if !(epsilon > 0.0 && epsilon.is_finite()) {
            return Err(shape(&name, format!("epsilon {epsilon} is not positive")));
        }
        let has_scale = self.flag(&name)?;
        let has_bias = self.flag(&name)?;
        let mean = self.floats(c, &name)?;
        let variance = self.floats(c, &name)?;
        let scale = if has_scale {
            self.floats(c, &name)?
        } else {
            vec![1.0; c]
        };
        let bias = if has_bias {
            self.floats(c, &name)?
        } else {
            vec![0.0; c]
        };
        let merged_scale: Vec<f32> = (0..c)
            .map(|i| scale[i] / (variance[i] + epsilon).sqrt())
            .collect();
        if let Some(i) = (0..c).find(|&i| variance[i] + epsilon <= 0.0) {
            return Err(shape(
                &name,
                format!(
                    "channel {i}'s variance {} plus epsilon {epsilon} is not positive",
                    variance[i]
                ),
            ));
        }
        let merged_bias: Vec<f32> = (0..c)
            .map(|i| bias[i] - merged_scale[i] * mean[i])
            .collect();
        if merged_scale
            .iter()
            .chain(&merged_bias)
            .any(|x| !x.is_finite())
        {
            return Err(ModelError::NotFinite { at: name });
        }
        let params = c * (usize::from(has_scale) + usize::from(has_bias));
        Ok((name, merged_scale, merged_bias, params))
    }

    fn activation(&mut self) -> Result<(String, Activation), ModelError> {
        let name = self.word("an activation")?.to_string();
        if self.version < 11 {
            return Ok((name, Activation::Relu));
        }
        let kind = self.word(&name)?;
        let act = match kind {
            "ACTIVATION_IDENTITY" => Activation::Identity,
            "ACTIVATION_RELU" => Activation::Relu,
            "ACTIVATION_MISH" => Activation::Mish,
            "ACTIVATION_SILU" => Activation::Silu,
            _ => {
                return Err(ModelError::UnknownActivation {
                    at: name,
                    kind: shorten(kind),
                })
            }
        };
        Ok((name, act))
    }

    fn norm_act(&mut self) -> Result<NormAct, ModelError> {
        let (name, scale, bias, num_parameters) = self.norm()?;
        let (_, act) = self.activation()?;
        Ok(NormAct {
            name,
            scale,
            bias,
            act,
            num_parameters,
        })
    }

    fn matmul(&mut self) -> Result<MatMul, ModelError> {
        let name = self.word("a dense layer")?.to_string();
        let cin = self.count(&name, "the input channels")?;
        let cout = self.count(&name, "the output channels")?;
        let weights = self.floats(cin * cout, &name)?;
        Ok(MatMul {
            name,
            cin,
            cout,
            weights,
        })
    }

    fn bias(&mut self) -> Result<Bias, ModelError> {
        let name = self.word("a bias")?.to_string();
        let c = self.count(&name, "the channels")?;
        let weights = self.floats(c, &name)?;
        Ok(Bias { name, weights })
    }

    fn rms_norm(&mut self) -> Result<RmsNorm, ModelError> {
        let name = self.word("an RMS norm")?.to_string();
        let c = self.count(&name, "the channels")?;
        let epsilon = self.float(&name)?;
        if !(epsilon > 0.0 && epsilon <= 1.0) {
            return Err(shape(&name, format!("epsilon {epsilon} is not in (0, 1]")));
        }
        let weight = self.floats(c, &name)?;
        Ok(RmsNorm {
            name,
            epsilon,
            weight,
        })
    }

    fn trunk(&mut self) -> Result<Trunk, ModelError> {
        let name = self.word("the trunk")?.to_string();
        let num_blocks = self.count(&name, "the number of blocks")?;
        let channels = self.count(&name, "the trunk channels")?;
        // Mid, regular, dilated and gpool channel counts: informative only, the layers
        // carry their own.
        for _ in 0..4 {
            self.count(&name, "a channel count")?;
        }
        let mut rms_tip = false;
        if self.version >= 15 {
            rms_tip = match self.int(&name)? {
                0 => false,
                1 => true,
                k => return Err(unsupported(&name, format!("trunk norm kind {k}"))),
            };
            for _ in 0..5 {
                self.reserved(&name)?;
            }
        }
        let initial_conv = self.conv()?;
        expect(
            &name,
            "first convolution output",
            initial_conv.cout,
            channels,
        )?;
        let initial_global = self.matmul()?;
        expect(
            &name,
            "first dense layer output",
            initial_global.cout,
            channels,
        )?;
        let blocks = self.blocks(&name, num_blocks, channels)?;
        let tip = if rms_tip {
            let tip_name = self.word("the trunk's final norm")?.to_string();
            let c = self.count(&tip_name, "the channels")?;
            expect(&tip_name, "channels", c, channels)?;
            let epsilon = self.float(&tip_name)?;
            if !(epsilon > 0.0 && epsilon <= 1.0) {
                return Err(shape(
                    &tip_name,
                    format!("epsilon {epsilon} is not in (0, 1]"),
                ));
            }
            let spatial = self.int(&tip_name)? != 0;
            let groups = self.int(&tip_name)?;
            if groups != 0 {
                return Err(unsupported(
                    &tip_name,
                    format!("channel groups of {groups}"),
                ));
            }
            let gamma = self.floats(c, &tip_name)?;
            let beta = self.floats(c, &tip_name)?;
            let (_, act) = self.activation()?;
            TrunkTip::RmsNorm(TipRmsNorm {
                name: tip_name,
                epsilon,
                spatial,
                gamma,
                beta,
                act,
            })
        } else {
            let tip = self.norm_act()?;
            expect(&tip.name, "channels", tip.channels(), channels)?;
            TrunkTip::BatchNorm(tip)
        };
        Ok(Trunk {
            name,
            channels,
            initial_conv,
            initial_global,
            blocks,
            tip,
        })
    }

    fn blocks(&mut self, at: &str, n: usize, channels: usize) -> Result<Vec<Block>, ModelError> {
        // Not `with_capacity(n)`: `n` comes from the file.
        let mut blocks = Vec::new();
        for _ in 0..n {
            let kind = self.word(at)?;
            let block = match kind {
                "ordinary_block" => Block::Residual(self.residual_block(channels)?),
                "gpool_block" => Block::GlobalPooling(self.gpool_block(channels)?),
                "nested_bottleneck_block" => Block::NestedBottleneck(self.nested_block(channels)?),
                "transformer_attention_block" => Block::Attention(self.attention_block(channels)?),
                "transformer_ffn_block" => Block::Ffn(self.ffn_block(channels)?),
                _ => {
                    return Err(ModelError::UnknownBlockKind {
                        at: at.to_string(),
                        kind: shorten(kind),
                    })
                }
            };
            blocks.push(block);
        }
        Ok(blocks)
    }

    fn residual_block(&mut self, channels: usize) -> Result<ResidualBlock, ModelError> {
        let name = self.word("a residual block")?.to_string();
        let pre = self.norm_act()?;
        let conv1 = self.conv()?;
        let mid = self.norm_act()?;
        let conv2 = self.conv()?;
        expect(&name, "input channels", pre.channels(), channels)?;
        expect(&name, "first convolution input", conv1.cin, channels)?;
        expect(&name, "mid norm channels", mid.channels(), conv1.cout)?;
        expect(&name, "second convolution input", conv2.cin, conv1.cout)?;
        expect(&name, "output channels", conv2.cout, channels)?;
        Ok(ResidualBlock {
            name,
            pre,
            conv1,
            mid,
            conv2,
        })
    }

    fn gpool_block(&mut self, channels: usize) -> Result<GlobalPoolingBlock, ModelError> {
        let name = self.word("a global pooling block")?.to_string();
        let pre = self.norm_act()?;
        let regular = self.conv()?;
        let gpool = self.conv()?;
        let gpool_norm = self.norm_act()?;
        let gpool_to_bias = self.matmul()?;
        let mid = self.norm_act()?;
        let conv2 = self.conv()?;
        expect(&name, "input channels", pre.channels(), channels)?;
        expect(&name, "regular convolution input", regular.cin, channels)?;
        expect(&name, "pooled convolution input", gpool.cin, channels)?;
        expect(
            &name,
            "pooled norm channels",
            gpool_norm.channels(),
            gpool.cout,
        )?;
        expect(
            &name,
            "pooled dense input",
            gpool_to_bias.cin,
            3 * gpool.cout,
        )?;
        expect(
            &name,
            "pooled dense output",
            gpool_to_bias.cout,
            regular.cout,
        )?;
        expect(&name, "mid norm channels", mid.channels(), regular.cout)?;
        expect(&name, "second convolution input", conv2.cin, regular.cout)?;
        expect(&name, "output channels", conv2.cout, channels)?;
        Ok(GlobalPoolingBlock {
            name,
            pre,
            regular,
            gpool,
            gpool_norm,
            gpool_to_bias,
            mid,
            conv2,
        })
    }

    fn nested_block(&mut self, channels: usize) -> Result<NestedBottleneckBlock, ModelError> {
        let name = self.word("a nested bottleneck block")?.to_string();
        // Real nets nest once; a bound keeps a hostile file from exhausting the stack.
        if self.depth >= MAX_NESTING {
            return Err(unsupported(
                &name,
                format!("nesting deeper than {MAX_NESTING}"),
            ));
        }
        let n = self.count(&name, "the number of inner blocks")?;
        let pre = self.norm_act()?;
        let pre_conv = self.conv()?;
        expect(&name, "input channels", pre.channels(), channels)?;
        expect(&name, "first convolution input", pre_conv.cin, channels)?;
        self.depth += 1;
        let blocks = self.blocks(&name, n, pre_conv.cout)?;
        self.depth -= 1;
        let post = self.norm_act()?;
        let post_conv = self.conv()?;
        expect(&name, "post norm channels", post.channels(), pre_conv.cout)?;
        expect(
            &name,
            "last convolution input",
            post_conv.cin,
            pre_conv.cout,
        )?;
        expect(&name, "output channels", post_conv.cout, channels)?;
        Ok(NestedBottleneckBlock {
            name,
            pre,
            pre_conv,
            blocks,
            post,
            post_conv,
        })
    }

    fn attention_block(&mut self, channels: usize) -> Result<AttentionBlock, ModelError> {
        let name = self.word("an attention block")?.to_string();
        let heads = self.count(&name, "the number of heads")?;
        let kv_heads = self.count(&name, "the number of key/value heads")?;
        let q_dim = self.count(&name, "the query head size")?;
        let v_dim = self.count(&name, "the value head size")?;
        let use_rope = self.flag(&name)?;
        let learnt_rope = self.flag(&name)?;
        if heads % kv_heads != 0 {
            return Err(shape(
                &name,
                format!("{heads} heads do not share {kv_heads} key/value heads evenly"),
            ));
        }
        if use_rope && q_dim % 2 != 0 {
            return Err(shape(
                &name,
                format!("odd query head size {q_dim} with RoPE"),
            ));
        }
        let norm = self.rms_norm()?;
        let q = self.matmul()?;
        let k = self.matmul()?;
        let v = self.matmul()?;
        let out = self.matmul()?;
        expect(&name, "norm channels", norm.weight.len(), channels)?;
        for (what, m, cout) in [
            ("query", &q, heads * q_dim),
            ("key", &k, kv_heads * q_dim),
            ("value", &v, kv_heads * v_dim),
        ] {
            expect(&name, what, m.cin, channels)?;
            expect(&name, what, m.cout, cout)?;
        }
        expect(&name, "output projection input", out.cin, heads * v_dim)?;
        expect(&name, "output projection output", out.cout, channels)?;
        let rope = match (use_rope, learnt_rope) {
            (false, _) => Rope::None,
            (true, true) => {
                let at = self.word(&name)?.to_string();
                expect(
                    &at,
                    "key/value heads",
                    self.count(&at, "the heads")?,
                    kv_heads,
                )?;
                expect(&at, "pairs", self.count(&at, "the pairs")?, q_dim / 2)?;
                expect(&at, "coordinates", self.count(&at, "the coordinates")?, 2)?;
                Rope::Learnt(self.floats(kv_heads * (q_dim / 2) * 2, &at)?)
            }
            (true, false) => {
                let at = self.word(&name)?.to_string();
                let theta = self.float(&at)?;
                if !(theta > 0.0 && theta.is_finite()) {
                    return Err(shape(&at, format!("base {theta} is not positive")));
                }
                Rope::Fixed(theta)
            }
        };
        let qkv = side_by_side(&[&q, &k, &v]);
        let out = Packed::new(Mat::rows(&out.weights, out.cin, out.cout, out.cout));
        Ok(AttentionBlock {
            name,
            heads,
            kv_heads,
            q_dim,
            v_dim,
            norm,
            qkv,
            out,
            rope,
            id: {
                static NEXT: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(0);
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
        })
    }

    fn ffn_block(&mut self, channels: usize) -> Result<FfnBlock, ModelError> {
        let name = self.word("a feed-forward block")?.to_string();
        let c = self.count(&name, "the channels")?;
        let hidden = self.count(&name, "the hidden channels")?;
        let swiglu = self.flag(&name)?;
        if !swiglu {
            return Err(unsupported(
                &name,
                "a feed-forward block without SwiGLU".into(),
            ));
        }
        expect(&name, "channels", c, channels)?;
        let norm = self.rms_norm()?;
        let linear1 = self.matmul()?;
        let gate = self.matmul()?;
        let linear2 = self.matmul()?;
        expect(&name, "norm channels", norm.weight.len(), channels)?;
        for m in [&linear1, &gate] {
            expect(&name, "first layer input", m.cin, channels)?;
            expect(&name, "first layer output", m.cout, hidden)?;
        }
        expect(&name, "second layer input", linear2.cin, hidden)?;
        expect(&name, "second layer output", linear2.cout, channels)?;
        Ok(FfnBlock {
            name,
            hidden,
            norm,
            linear1_gate: side_by_side(&[&linear1, &gate]),
            linear2: Packed::new(Mat::rows(
                &linear2.weights,
                linear2.cin,
                linear2.cout,
                linear2.cout,
            )),
        })
    }

    fn policy_head(&mut self) -> Result<PolicyHead, ModelError> {
        let name = self.word("the policy head")?.to_string();
        let channels = match self.version {
            17.. => {
                let c = self.count(&name, "the policy channels")?;
                if c != 2 && c != 4 {
                    return Err(shape(&name, format!("{c} policy channels")));
                }
                for _ in 0..3 {
                    self.reserved(&name)?;
                }
                c
            }
            16 => 4,
            12..=15 => 2,
            _ => 1,
        };
        let p1_conv = self.conv()?;
        let g1_conv = self.conv()?;
        let g1_norm = self.norm_act()?;
        let gpool_to_bias = self.matmul()?;
        let p1_norm = self.norm_act()?;
        let p2_conv = self.conv()?;
        let pass_mul = self.matmul()?;
        expect(
            &name,
            "pooled norm channels",
            g1_norm.channels(),
            g1_conv.cout,
        )?;
        expect(
            &name,
            "pooled dense input",
            gpool_to_bias.cin,
            3 * g1_conv.cout,
        )?;
        expect(
            &name,
            "pooled dense output",
            gpool_to_bias.cout,
            p1_conv.cout,
        )?;
        expect(&name, "norm channels", p1_norm.channels(), p1_conv.cout)?;
        expect(&name, "last convolution input", p2_conv.cin, p1_conv.cout)?;
        expect(&name, "last convolution output", p2_conv.cout, channels)?;
        expect(&name, "pass input", pass_mul.cin, 3 * g1_conv.cout)?;
        let pass = if self.version >= 15 {
            let bias = self.bias()?;
            let (_, act) = self.activation()?;
            let mul2 = self.matmul()?;
            expect(&name, "pass hidden channels", pass_mul.cout, p1_conv.cout)?;
            expect(&name, "pass bias", bias.weights.len(), pass_mul.cout)?;
            expect(&name, "pass second input", mul2.cin, pass_mul.cout)?;
            expect(&name, "pass output", mul2.cout, channels)?;
            PassHead::Mlp {
                mul: pass_mul,
                bias,
                act,
                mul2,
            }
        } else {
            expect(&name, "pass output", pass_mul.cout, channels)?;
            PassHead::Linear(pass_mul)
        };
        Ok(PolicyHead {
            name,
            channels,
            p1_conv,
            g1_conv,
            g1_norm,
            gpool_to_bias,
            p1_norm,
            p2_conv,
            pass,
        })
    }

    fn value_head(&mut self) -> Result<ValueHead, ModelError> {
        let name = self.word("the value head")?.to_string();
        if self.version >= 17 {
            for _ in 0..3 {
                self.reserved(&name)?;
            }
        }
        let v1_conv = self.conv()?;
        let v1_norm = self.norm_act()?;
        let v2_mul = self.matmul()?;
        let v2_bias = self.bias()?;
        let (_, v2_act) = self.activation()?;
        let v3_mul = self.matmul()?;
        let v3_bias = self.bias()?;
        let sv3_mul = self.matmul()?;
        let sv3_bias = self.bias()?;
        let ownership_conv = self.conv()?;
        let scores = if self.version >= 9 { 6 } else { 4 };
        expect(&name, "norm channels", v1_norm.channels(), v1_conv.cout)?;
        expect(&name, "pooled dense input", v2_mul.cin, 3 * v1_conv.cout)?;
        expect(&name, "hidden bias", v2_bias.weights.len(), v2_mul.cout)?;
        expect(&name, "value input", v3_mul.cin, v2_mul.cout)?;
        expect(&name, "value outputs", v3_mul.cout, 3)?;
        expect(&name, "value bias", v3_bias.weights.len(), 3)?;
        expect(&name, "score input", sv3_mul.cin, v2_mul.cout)?;
        expect(&name, "score outputs", sv3_mul.cout, scores)?;
        expect(&name, "score bias", sv3_bias.weights.len(), scores)?;
        expect(&name, "ownership input", ownership_conv.cin, v1_conv.cout)?;
        expect(&name, "ownership output", ownership_conv.cout, 1)?;
        Ok(ValueHead {
            name,
            v1_conv,
            v1_norm,
            v2_mul,
            v2_bias,
            v2_act,
            v3_mul,
            v3_bias,
            sv3_mul,
            sv3_bias,
            ownership_conv,
        })
    }
}

/// Dense layers with the same input, their outputs concatenated: `[ic][m0 | m1 | …]`.
fn side_by_side(layers: &[&MatMul]) -> Packed {
    let cin = layers[0].cin;
    let total: usize = layers.iter().map(|m| m.cout).sum();
    let mut out = Vec::with_capacity(cin * total);
    for ic in 0..cin {
        for m in layers {
            out.extend_from_slice(&m.weights[ic * m.cout..(ic + 1) * m.cout]);
        }
    }
    Packed::new(Mat::rows(&out, cin, total, total))
}

/// Refuses a net one of whose layers would need a buffer above `MAX_BUFFER_FLOATS` for a
/// board of `n` points (each count is at most `MAX_DIMENSION`, so no product overflows).
pub(super) fn largest_buffer(
    trunk: &Trunk,
    policy: &PolicyHead,
    value: &ValueHead,
    n: usize,
) -> Result<(), ModelError> {
    let check = |at: &str, floats: usize| {
        if floats > MAX_BUFFER_FLOATS {
            Err(ModelError::TooLarge {
                at: at.to_string(),
                floats,
            })
        } else {
            Ok(())
        }
    };
    let conv = |c: &Conv| {
        check(&c.name, n * c.ky * c.kx * c.cin)?;
        check(&c.name, n * c.cout)
    };
    fn blocks(
        list: &[Block],
        conv: &dyn Fn(&Conv) -> Result<(), ModelError>,
        check: &dyn Fn(&str, usize) -> Result<(), ModelError>,
        n: usize,
    ) -> Result<(), ModelError> {
        for b in list {
            match b {
                Block::Residual(r) => [&r.conv1, &r.conv2].into_iter().try_for_each(conv)?,
                Block::GlobalPooling(g) => [&g.regular, &g.gpool, &g.conv2]
                    .into_iter()
                    .try_for_each(conv)?,
                Block::NestedBottleneck(nb) => {
                    [&nb.pre_conv, &nb.post_conv]
                        .into_iter()
                        .try_for_each(conv)?;
                    blocks(&nb.blocks, conv, check, n)?;
                }
                Block::Attention(a) => {
                    check(&a.name, n * a.qkv.cols())?;
                    check(&a.name, n * n)?;
                    check(&a.name, n * a.heads * a.v_dim)?;
                }
                Block::Ffn(f) => check(&f.name, n * f.linear1_gate.cols())?,
            }
        }
        Ok(())
    }
    conv(&trunk.initial_conv)?;
    check("the trunk", n * trunk.channels)?;
    blocks(&trunk.blocks, &conv, &check, n)?;
    [&policy.p1_conv, &policy.g1_conv, &policy.p2_conv]
        .into_iter()
        .try_for_each(conv)?;
    [&value.v1_conv, &value.ownership_conv]
        .into_iter()
        .try_for_each(conv)
}

fn expect(at: &str, what: &str, found: usize, expected: usize) -> Result<(), ModelError> {
    if found == expected {
        Ok(())
    } else {
        Err(shape(at, format!("{what} is {found}, expected {expected}")))
    }
}

fn shape(at: &str, detail: String) -> ModelError {
    ModelError::Shape {
        at: at.to_string(),
        detail,
    }
}

fn unsupported(at: &str, what: String) -> ModelError {
    ModelError::Unsupported {
        at: at.to_string(),
        what,
    }
}

fn shorten(s: &str) -> String {
    s.chars().take(40).collect()
}
