//! KataGo's model file (`.bin`, as found gzipped in `.bin.gz`): a whitespace-separated text
//! description of each layer, its weights written as `@BIN@` followed by little-endian `f32`s.
//! [`Model::parse`] reads the decompressed bytes into a typed description of every layer,
//! checking each shape against its neighbours, so that the forward pass can trust them.
//!
//! The file does not say which board sizes a net was trained for; KataGo asks its nets about
//! boards of up to 19×19 (its default build).

use ordered_gemm::Packed;
use thiserror::Error;

/// Oldest model version read: the first with version 7 input features, the ones
/// `features` writes. Older nets want other inputs.
pub const OLDEST_VERSION: i32 = 8;
/// Newest model version KataGo's reference source describes.
pub const NEWEST_VERSION: i32 = 17;

/// The largest filter read: KataGo's nets use 1×1, 3×3 and 5×5 (the first convolution).
pub const MAX_FILTER: usize = 9;

/// The largest count of channels, heads, blocks or any other dimension read: 16 times the
/// widest KataGo net's trunk, small enough that no product of a few of them overflows.
pub const MAX_DIMENSION: usize = 1 << 14;

/// The largest buffer one evaluation of a 19×19 position may need, in floats (64 MiB): some
/// twenty times what the largest KataGo nets need (an image-patch matrix of a 3×3
/// convolution over 512 channels, 1.7 Mi floats), so that a file whose layers would take
/// gigabytes a thread is refused when read, not when the first position runs out of memory.
pub const MAX_BUFFER_FLOATS: usize = 1 << 24;

/// Why a model file could not be read. `at` names the layer (or part of the header) being
/// read, as the file names it.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ModelError {
    #[error("the model file ends early, inside {at}")]
    Truncated { at: String },
    #[error("{at}: expected {expected}, found {found:?}")]
    Syntax {
        at: String,
        expected: &'static str,
        found: String,
    },
    #[error(
        "model version {0} is not supported (versions {OLDEST_VERSION} to {NEWEST_VERSION} are)"
    )]
    UnsupportedVersion(i32),
    #[error("{at}: unknown block kind {kind:?}")]
    UnknownBlockKind { at: String, kind: String },
    #[error("{at}: unknown activation {kind:?}")]
    UnknownActivation { at: String, kind: String },
    #[error("{at}: wrong size: {detail}")]
    Shape { at: String, detail: String },
    #[error("{at}: a weight is NaN or infinite")]
    NotFinite { at: String },
    #[error("{at}: not supported: {what}")]
    Unsupported { at: String, what: String },
    #[error(
        "{at}: needs a buffer of {floats} floats for a 19×19 position, more than the \
         {MAX_BUFFER_FLOATS} any net this tool reads needs"
    )]
    TooLarge { at: String, floats: usize },
}

impl ModelError {
    /// Whether the bytes are no KataGo model at all (rather than a model this tool does not
    /// read): they break the format's syntax, or end inside its header.
    pub fn not_a_model(&self) -> bool {
        match self {
            ModelError::Syntax { .. } => true,
            ModelError::Truncated { at } => at.starts_with("the model"),
            _ => false,
        }
    }
}

/// A nonlinearity, as named in the file (models before version 11 always use ReLU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    Identity,
    Relu,
    Mish,
    Silu,
}

/// A convolution over the board, zero-padded so the output has the input's size.
#[derive(Debug)]
pub struct Conv {
    pub name: String,
    pub ky: usize,
    pub kx: usize,
    pub cin: usize,
    pub cout: usize,
    /// Row `(y * kx + x) * cin + ic`, column `oc`, as in the file: the layout an
    /// image-patch matrix with channel-last patches multiplies, packed for products.
    pub weights: Packed,
}

/// Batch normalisation at inference, folded into one scale and offset per channel, and the
/// activation after it (the two always come together).
#[derive(Debug)]
pub struct NormAct {
    pub name: String,
    pub scale: Vec<f32>,
    pub bias: Vec<f32>,
    pub act: Activation,
    /// Learnt scales and offsets in the file (its mean and variance are statistics).
    pub(crate) num_parameters: usize,
}

/// A dense layer: `out[oc] = Σ in[ic] · weights[ic][oc]`.
#[derive(Debug)]
pub struct MatMul {
    pub name: String,
    pub cin: usize,
    pub cout: usize,
    pub weights: Vec<f32>,
}

#[derive(Debug)]
pub struct Bias {
    pub name: String,
    pub weights: Vec<f32>,
}

/// RMSNorm over the channels of each point, with a learnt gain (transformer blocks).
#[derive(Debug)]
pub struct RmsNorm {
    pub name: String,
    pub epsilon: f32,
    pub weight: Vec<f32>,
}

/// RMSNorm at the trunk's tip: gain and offset, over each point's channels or, when
/// `spatial`, over every channel of every point together.
#[derive(Debug)]
pub struct TipRmsNorm {
    pub name: String,
    pub epsilon: f32,
    pub spatial: bool,
    pub gamma: Vec<f32>,
    pub beta: Vec<f32>,
    pub act: Activation,
}

#[derive(Debug)]
pub struct ResidualBlock {
    pub name: String,
    pub pre: NormAct,
    pub conv1: Conv,
    pub mid: NormAct,
    pub conv2: Conv,
}

#[derive(Debug)]
pub struct GlobalPoolingBlock {
    pub name: String,
    pub pre: NormAct,
    pub regular: Conv,
    pub gpool: Conv,
    pub gpool_norm: NormAct,
    pub gpool_to_bias: MatMul,
    pub mid: NormAct,
    pub conv2: Conv,
}

/// A residual block whose inside is a narrower stack of blocks between two convolutions.
#[derive(Debug)]
pub struct NestedBottleneckBlock {
    pub name: String,
    pub pre: NormAct,
    pub pre_conv: Conv,
    pub blocks: Vec<Block>,
    pub post: NormAct,
    pub post_conv: Conv,
}

/// Rotary position encoding of a transformer attention block.
#[derive(Debug)]
pub enum Rope {
    None,
    /// Learnt frequencies, `[kv_head][pair][x or y]`: the angle of a pair at (x, y) is
    /// `x·fx + y·fy`.
    Learnt(Vec<f32>),
    /// Fixed frequencies from a base: the first half of the pairs turn with y, the rest with x.
    Fixed(f32),
}

#[derive(Debug)]
pub struct AttentionBlock {
    pub name: String,
    pub heads: usize,
    pub kv_heads: usize,
    pub q_dim: usize,
    pub v_dim: usize,
    pub norm: RmsNorm,
    /// The query, key and value projections side by side, `[ic][q | k | v]`: one product
    /// instead of three.
    pub qkv: Packed,
    /// The output projection, `[head · v_dim][channel]`.
    pub out: Packed,
    pub rope: Rope,
    /// Unique among the attention blocks of every net read by the process: the key under
    /// which an evaluation's buffers keep this block's rotary tables.
    pub(crate) id: usize,
}

/// A transformer feed-forward block with a SwiGLU unit: `linear2(silu(linear1 x) · gate x)`.
#[derive(Debug)]
pub struct FfnBlock {
    pub name: String,
    pub hidden: usize,
    pub norm: RmsNorm,
    /// The first layer and the gate side by side, `[ic][linear1 | gate]`.
    pub linear1_gate: Packed,
    pub linear2: Packed,
}

/// A net holds a few dozen blocks: their size in memory does not matter, so no variant is boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Block {
    Residual(ResidualBlock),
    GlobalPooling(GlobalPoolingBlock),
    NestedBottleneck(NestedBottleneckBlock),
    Attention(AttentionBlock),
    Ffn(FfnBlock),
}

#[derive(Debug)]
pub enum TrunkTip {
    BatchNorm(NormAct),
    RmsNorm(TipRmsNorm),
}

#[derive(Debug)]
pub struct Trunk {
    pub name: String,
    pub channels: usize,
    pub initial_conv: Conv,
    pub initial_global: MatMul,
    pub blocks: Vec<Block>,
    pub tip: TrunkTip,
}

/// How the policy head turns its pooled features into the pass logit.
#[derive(Debug)]
pub enum PassHead {
    /// Before version 15: one dense layer.
    Linear(MatMul),
    /// From version 15: dense, bias, activation, dense.
    Mlp {
        mul: MatMul,
        bias: Bias,
        act: Activation,
        mul2: MatMul,
    },
}

#[derive(Debug)]
pub struct PolicyHead {
    pub name: String,
    /// 1; 2 from version 12 (the second channel is the optimistic policy); 4 in version 16.
    pub channels: usize,
    pub p1_conv: Conv,
    pub g1_conv: Conv,
    pub g1_norm: NormAct,
    pub gpool_to_bias: MatMul,
    pub p1_norm: NormAct,
    pub p2_conv: Conv,
    pub pass: PassHead,
}

#[derive(Debug)]
pub struct ValueHead {
    pub name: String,
    pub v1_conv: Conv,
    pub v1_norm: NormAct,
    pub v2_mul: MatMul,
    pub v2_bias: Bias,
    pub v2_act: Activation,
    pub v3_mul: MatMul,
    pub v3_bias: Bias,
    pub sv3_mul: MatMul,
    pub sv3_bias: Bias,
    pub ownership_conv: Conv,
}

/// Scalings of the value head's raw outputs, read from the file from version 13 (older
/// files use KataGo's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostProcessParams {
    pub td_score_multiplier: f64,
    pub score_mean_multiplier: f64,
    pub score_stdev_multiplier: f64,
    pub lead_multiplier: f64,
    pub variance_time_multiplier: f64,
    pub shortterm_value_error_multiplier: f64,
    pub shortterm_score_error_multiplier: f64,
}

impl Default for PostProcessParams {
    fn default() -> Self {
        PostProcessParams {
            td_score_multiplier: 20.0,
            score_mean_multiplier: 20.0,
            score_stdev_multiplier: 20.0,
            lead_multiplier: 20.0,
            variance_time_multiplier: 40.0,
            shortterm_value_error_multiplier: 0.25,
            shortterm_score_error_multiplier: 30.0,
        }
    }
}

/// A parsed net: immutable once read, shared by every thread that evaluates with it.
pub struct Model {
    pub(crate) name: String,
    pub(crate) version: i32,
    pub(crate) num_spatial: usize,
    pub(crate) num_global: usize,
    pub post: PostProcessParams,
    pub trunk: Trunk,
    pub policy: PolicyHead,
    pub value: ValueHead,
}

impl Model {
    /// Reads a model from the uncompressed bytes of a KataGo `.bin` file.
    pub fn parse(bytes: &[u8]) -> Result<Model, ModelError> {
        Parser::new(bytes).model()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn version(&self) -> i32 {
        self.version
    }

    pub fn num_spatial_inputs(&self) -> usize {
        self.num_spatial
    }

    pub fn num_global_inputs(&self) -> usize {
        self.num_global
    }

    /// The number of learnt parameters, counted as KataGo counts them (batch-norm
    /// statistics are not parameters), for messages such as KataGo's "N params".
    pub fn num_parameters(&self) -> usize {
        let t = &self.trunk;
        let mut n = t.initial_conv.weights.len() + t.initial_global.weights.len();
        n += t.blocks.iter().map(Block::num_parameters).sum::<usize>();
        n += match &t.tip {
            TrunkTip::BatchNorm(b) => b.num_parameters,
            TrunkTip::RmsNorm(r) => r.gamma.len() + r.beta.len(),
        };
        let p = &self.policy;
        n += p.p1_conv.weights.len() + p.g1_conv.weights.len() + p.g1_norm.num_parameters;
        n += p.gpool_to_bias.weights.len() + p.p1_norm.num_parameters + p.p2_conv.weights.len();
        n += match &p.pass {
            PassHead::Linear(m) => m.weights.len(),
            PassHead::Mlp {
                mul, bias, mul2, ..
            } => mul.weights.len() + bias.weights.len() + mul2.weights.len(),
        };
        let v = &self.value;
        n += v.v1_conv.weights.len() + v.v1_norm.num_parameters;
        n += v.v2_mul.weights.len() + v.v2_bias.weights.len();
        n += v.v3_mul.weights.len() + v.v3_bias.weights.len();
        n += v.sv3_mul.weights.len() + v.sv3_bias.weights.len() + v.ownership_conv.weights.len();
        n
    }
}

/// A summary: the derived form would print millions of weights.
impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("blocks", &self.trunk.blocks.len())
            .field("channels", &self.trunk.channels)
            .field("parameters", &self.num_parameters())
            .finish()
    }
}

impl Block {
    fn num_parameters(&self) -> usize {
        match self {
            Block::Residual(b) => {
                b.pre.num_parameters
                    + b.conv1.weights.len()
                    + b.mid.num_parameters
                    + b.conv2.weights.len()
            }
            Block::GlobalPooling(b) => {
                b.pre.num_parameters
                    + b.regular.weights.len()
                    + b.gpool.weights.len()
                    + b.gpool_norm.num_parameters
                    + b.gpool_to_bias.weights.len()
                    + b.mid.num_parameters
                    + b.conv2.weights.len()
            }
            Block::NestedBottleneck(b) => {
                b.pre.num_parameters
                    + b.pre_conv.weights.len()
                    + b.blocks.iter().map(Block::num_parameters).sum::<usize>()
                    + b.post.num_parameters
                    + b.post_conv.weights.len()
            }
            Block::Attention(b) => {
                let rope = match &b.rope {
                    Rope::Learnt(f) => f.len(),
                    _ => 0,
                };
                b.norm.weight.len() + b.qkv.len() + b.out.len() + rope
            }
            Block::Ffn(b) => b.norm.weight.len() + b.linear1_gate.len() + b.linear2.len(),
        }
    }
}

/// Cosines and sines of the rotary encoding for one board size, `[point][kv_head][pair]`.
#[derive(Debug)]
pub(crate) struct RopeTables {
    pub cos: Vec<f32>,
    pub sin: Vec<f32>,
}

impl AttentionBlock {
    /// The rotary tables for a `size`×`size` board, if the block turns its queries and keys
    /// (`forward::Scratch` keeps them per block and size).
    pub(crate) fn rope_tables(&self, size: usize) -> Option<RopeTables> {
        if matches!(self.rope, Rope::None) {
            return None;
        }
        Some(self.compute_rope_tables(size))
    }

    fn compute_rope_tables(&self, size: usize) -> RopeTables {
        let pairs = self.q_dim / 2;
        let per_point = self.kv_heads * pairs;
        let mut cos = vec![0.0f32; size * size * per_point];
        let mut sin = vec![0.0f32; size * size * per_point];
        for y in 0..size {
            for x in 0..size {
                let point = y * size + x;
                for h in 0..self.kv_heads {
                    for p in 0..pairs {
                        let angle = match &self.rope {
                            Rope::Learnt(f) => {
                                let i = (h * pairs + p) * 2;
                                x as f32 * f[i] + y as f32 * f[i + 1]
                            }
                            Rope::Fixed(theta) => {
                                // Python's `1 / theta^(arange(0, d/2, 2) / (d/2))`, one
                                // set for y then the same for x.
                                let half = pairs / 2;
                                let (q, coord) = if p < half { (p, y) } else { (p - half, x) };
                                let freq = 1.0 / theta.powf((2 * q) as f32 / pairs as f32);
                                coord as f32 * freq
                            }
                            Rope::None => 0.0,
                        };
                        let i = point * per_point + h * pairs + p;
                        cos[i] = angle.cos();
                        sin[i] = angle.sin();
                    }
                }
            }
        }
        RopeTables { cos, sin }
    }
}

impl NormAct {
    fn channels(&self) -> usize {
        self.scale.len()
    }
}

mod parse;
#[cfg(test)]
use parse::largest_buffer;
use parse::Parser;
#[cfg(test)]
pub(crate) mod testnet;

#[cfg(test)]
mod tests;
