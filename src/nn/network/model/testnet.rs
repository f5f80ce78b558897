//! Small model files for tests, written the way KataGo's exporter writes them, with
//! pseudo-random weights and every kind of layer `Model::parse` reads.

/// What to build. `Default` is a valid version 15 net.
pub(crate) struct Spec {
    pub version: i32,
    /// Outputs of the value head's last layer (3 in a valid net).
    pub value_outputs: usize,
    /// Whether the trunk holds a nested bottleneck block of transformer layers.
    pub transformer: bool,
    pub seed: u32,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            version: 15,
            value_outputs: 3,
            transformer: true,
            seed: 1,
        }
    }
}

pub(crate) const SPATIAL: usize = crate::nn::features::NUM_SPATIAL;
pub(crate) const GLOBAL: usize = crate::nn::features::NUM_GLOBAL;
pub(crate) const TRUNK: usize = 8;

struct Writer {
    bytes: Vec<u8>,
    /// Where the text (not the weights) is.
    text: Vec<std::ops::Range<usize>>,
    state: u32,
    version: i32,
}

impl Writer {
    fn line(&mut self, s: impl std::fmt::Display) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(format!("{s}\n").as_bytes());
        self.text.push(start..self.bytes.len());
    }

    fn random(&mut self) -> f32 {
        // xorshift32: reproducible weights in [-0.5, 0.5).
        self.state ^= self.state << 13;
        self.state ^= self.state >> 17;
        self.state ^= self.state << 5;
        (self.state >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    }

    fn floats(&mut self, n: usize, map: impl Fn(f32) -> f32) {
        self.bytes.extend_from_slice(b"@BIN@");
        for _ in 0..n {
            let v = map(self.random());
            self.bytes.extend_from_slice(&v.to_le_bytes());
        }
        self.bytes.push(b'\n');
    }

    fn conv(&mut self, name: &str, k: usize, cin: usize, cout: usize) {
        self.line(format!("{name}\n{k}\n{k}\n{cin}\n{cout}\n1\n1"));
        self.floats(k * k * cin * cout, |v| v);
    }

    fn norm(&mut self, name: &str, c: usize) {
        self.line(format!("{name}\n{c}\n1e-05\n1\n1"));
        self.floats(c, |v| v * 0.2); // mean
        self.floats(c, |v| 1.0 + v); // variance
        self.floats(c, |v| 1.0 + v); // scale
        self.floats(c, |v| v * 0.2); // bias
    }

    fn act(&mut self, name: &str, kind: &str) {
        self.line(name);
        if self.version >= 11 {
            self.line(kind);
        }
    }

    fn matmul(&mut self, name: &str, cin: usize, cout: usize) {
        self.line(format!("{name}\n{cin}\n{cout}"));
        self.floats(cin * cout, |v| v);
    }

    fn bias(&mut self, name: &str, c: usize) {
        self.line(format!("{name}\n{c}"));
        self.floats(c, |v| v * 0.2);
    }

    fn rms(&mut self, name: &str, c: usize) {
        self.line(format!("{name}\n{c}\n1e-06"));
        self.floats(c, |v| 1.0 + v);
    }
}

/// Bytes of a small net: `SPATIAL` spatial and `GLOBAL` global inputs, a trunk of `TRUNK`
/// channels with an ordinary block, a global pooling block and (if asked) a nested
/// bottleneck of one attention and one feed-forward block.
pub(crate) fn tiny_net(spec: &Spec) -> Vec<u8> {
    tiny_net_and_text(spec).0
}

/// `tiny_net`, and where its text lies between the weights.
pub(crate) fn tiny_net_and_text(spec: &Spec) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let v = spec.version;
    let mut w = Writer {
        bytes: Vec::new(),
        text: Vec::new(),
        state: spec.seed.max(1),
        version: v,
    };
    let silu = "ACTIVATION_SILU";
    w.line("tiny-test-net");
    w.line(v);
    w.line(SPATIAL);
    w.line(GLOBAL);
    if v >= 13 {
        w.line("20.0\n20.0\n20.0\n20.0\n40.0\n0.25\n150.0");
    }
    if v >= 15 {
        w.line("0\n0\n0\n0\n0\n0\n0\n0");
    }
    let blocks = if spec.transformer { 3 } else { 2 };
    w.line(format!("trunk\n{blocks}\n{TRUNK}\n6\n6\n4\n4"));
    let rms_tip = v >= 15;
    if v >= 15 {
        w.line(format!("{}\n0\n0\n0\n0\n0", u8::from(rms_tip)));
    }
    w.conv("conv_spatial", 3, SPATIAL, TRUNK);
    w.matmul("linear_global", GLOBAL, TRUNK);

    w.line("ordinary_block\nb0");
    w.norm("b0.norm1", TRUNK);
    w.act("b0.act1", silu);
    w.conv("b0.conv1", 3, TRUNK, 6);
    w.norm("b0.norm2", 6);
    w.act("b0.act2", silu);
    w.conv("b0.conv2", 3, 6, TRUNK);

    w.line("gpool_block\nb1");
    w.norm("b1.norm1", TRUNK);
    w.act("b1.act1", "ACTIVATION_RELU");
    w.conv("b1.conv1a", 3, TRUNK, 6);
    w.conv("b1.conv1b", 3, TRUNK, 4);
    w.norm("b1.norm1b", 4);
    w.act("b1.act1b", "ACTIVATION_RELU");
    w.matmul("b1.linear", 12, 6);
    w.norm("b1.norm2", 6);
    w.act("b1.act2", "ACTIVATION_MISH");
    w.conv("b1.conv2", 5, 6, TRUNK);

    if spec.transformer {
        w.line("nested_bottleneck_block\nb2\n2");
        w.norm("b2.normp", TRUNK);
        w.act("b2.actp", silu);
        w.conv("b2.convp", 1, TRUNK, 6);
        // 2 heads of query size 4 and value size 3, learnt rotary frequencies.
        w.line("transformer_attention_block\nb2.attn\n2\n2\n4\n3\n1\n1");
        w.rms("b2.attn.norm", 6);
        w.matmul("b2.attn.q", 6, 8);
        w.matmul("b2.attn.k", 6, 8);
        w.matmul("b2.attn.v", 6, 6);
        w.matmul("b2.attn.out", 6, 6);
        w.line("b2.attn.rope_freqs\n2\n2\n2");
        w.floats(8, |v| v * 2.0);
        w.line("transformer_ffn_block\nb2.ffn\n6\n5\n1");
        w.rms("b2.ffn.norm", 6);
        w.matmul("b2.ffn.linear1", 6, 5);
        w.matmul("b2.ffn.gate", 6, 5);
        w.matmul("b2.ffn.linear2", 5, 6);
        w.norm("b2.normq", 6);
        w.act("b2.actq", silu);
        w.conv("b2.convq", 1, 6, TRUNK);
    }

    if rms_tip {
        w.line(format!("norm_trunkfinal\n{TRUNK}\n1e-06\n1\n0"));
        w.floats(TRUNK, |v| 1.0 + v);
        w.floats(TRUNK, |v| v * 0.2);
    } else {
        w.norm("norm_trunkfinal", TRUNK);
    }
    w.act("act_trunkfinal", silu);

    let policy_channels = match v {
        16 => 4,
        12.. => 2,
        _ => 1,
    };
    w.line("policyhead");
    w.conv("p1", 1, TRUNK, 4);
    w.conv("g1", 1, TRUNK, 3);
    w.norm("g1.norm", 3);
    w.act("g1.act", silu);
    w.matmul("g1.linear", 9, 4);
    w.norm("p1.norm", 4);
    w.act("p1.act", silu);
    w.conv("p2", 1, 4, policy_channels);
    if v >= 15 {
        w.matmul("pass", 9, 4);
        w.bias("pass.bias", 4);
        w.act("pass.act", silu);
        w.matmul("pass2", 4, policy_channels);
    } else {
        w.matmul("pass", 9, policy_channels);
    }

    let scores = if v >= 9 { 6 } else { 4 };
    w.line("valuehead");
    w.conv("v1", 1, TRUNK, 3);
    w.norm("v1.norm", 3);
    w.act("v1.act", silu);
    w.matmul("v2", 9, 5);
    w.bias("v2.bias", 5);
    w.act("v2.act", silu);
    w.matmul("v3", 5, spec.value_outputs);
    w.bias("v3.bias", spec.value_outputs);
    w.matmul("sv3", 5, scores);
    w.bias("sv3.bias", scores);
    w.conv("vownership", 1, 3, 1);
    (w.bytes, w.text)
}

/// The start of a version 15 net whose trunk is `depth` nested bottleneck blocks, one inside
/// the other around an ordinary block, and nothing after the trunk's blocks.
pub(crate) fn nested_net(depth: usize) -> Vec<u8> {
    let mut w = Writer {
        bytes: Vec::new(),
        text: Vec::new(),
        state: 1,
        version: 15,
    };
    w.line(format!("nested-test-net\n15\n{SPATIAL}\n{GLOBAL}"));
    w.line("20.0\n20.0\n20.0\n20.0\n40.0\n0.25\n150.0\n0\n0\n0\n0\n0\n0\n0\n0");
    w.line(format!("trunk\n1\n{TRUNK}\n4\n4\n4\n4\n0\n0\n0\n0\n0\n0"));
    w.conv("conv_spatial", 3, SPATIAL, TRUNK);
    w.matmul("linear_global", GLOBAL, TRUNK);
    for level in 0..depth {
        w.line(format!("nested_bottleneck_block\nn{level}\n1"));
        w.norm(&format!("n{level}.normp"), TRUNK);
        w.act(&format!("n{level}.actp"), "ACTIVATION_SILU");
        w.conv(&format!("n{level}.convp"), 1, TRUNK, TRUNK);
    }
    w.line("ordinary_block\nb0");
    w.norm("b0.norm1", TRUNK);
    w.act("b0.act1", "ACTIVATION_SILU");
    w.conv("b0.conv1", 3, TRUNK, TRUNK);
    w.norm("b0.norm2", TRUNK);
    w.act("b0.act2", "ACTIVATION_SILU");
    w.conv("b0.conv2", 3, TRUNK, TRUNK);
    for level in (0..depth).rev() {
        w.norm(&format!("n{level}.normq"), TRUNK);
        w.act(&format!("n{level}.actq"), "ACTIVATION_SILU");
        w.conv(&format!("n{level}.convq"), 1, TRUNK, TRUNK);
    }
    w.bytes
}

/// The uncompressed bytes of a real net in `engine::nn::nets_dir()` (`$LIVINGBLOCKS_NETS`, by
/// default `~/.cache/livingblocks/nets`), or `None` when it is not there: the test then skips,
/// as tests/integration/util.rs's `skip` does (a failure under CI, elsewhere a `SKIPPED` line).
pub(crate) fn real_net(file: &str) -> Option<Vec<u8>> {
    use std::io::{Read, Write};
    let path = crate::engine::nn::nets_dir().join(file);
    let Ok(f) = std::fs::File::open(&path) else {
        let why = format!(
            "{} is absent (scripts/get-net.sh fetches it)",
            path.display()
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "cannot run under CI: {why}"
        );
        // Straight to stderr: the harness hides what a passing test prints.
        let test = std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .map_or(String::new(), |n| format!(" {n}"));
        let _ = writeln!(std::io::stderr(), "SKIPPED{test}: {why}");
        return None;
    };
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(f)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(bytes)
}

pub(crate) const B10: &str = "b10c384h6nbttflrs.bin.gz";
pub(crate) const B15: &str = "g170e-b15c192-s1672170752-d466197061.bin.gz";
