//! A KataGo network evaluated in-process (`--net FILE`): the file is read here, at the edge
//! (gzip or plain, as KataGo and KaTrain distribute nets, and its SHA-256 for the manifest);
//! the evaluation itself is `crate::nn`, pure computation. One `NetJudge` serves every
//! worker thread; each thread keeps its own buffers.

use std::cell::RefCell;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::EngineError;
use crate::go::rules::Rules;
use crate::nn::{encode, evaluate, KataRules, Kernel, Model, Scratch};
use crate::score::judgement::{katago_rules, EngineAnswer, EngineQuery, EngineView, NoAnswer};

/// A loaded net, shared by the run's threads.
pub struct NetJudge {
    model: Model,
    /// The file's SHA-256, hex: which weights judged, whatever the file is called.
    pub sha256: String,
    /// The code its products run on. Every kernel gives the same bits; the fastest the CPU
    /// has is taken unless `LIVINGBLOCKS_KERNEL` names another.
    kernel: Kernel,
}

/// The environment variable that picks the products' kernel (`portable`, `avx2`, `avx512`):
/// for checking that every kernel gives the same tables, and for timing them.
pub const KERNEL_VAR: &str = "LIVINGBLOCKS_KERNEL";

/// The kernel `LIVINGBLOCKS_KERNEL` names, else the fastest this CPU has; a name that is no
/// kernel, or one this CPU lacks, is a configuration error.
pub fn kernel_from_env() -> Result<Kernel, EngineError> {
    let Some(name) = std::env::var_os(KERNEL_VAR) else {
        return Ok(Kernel::fastest());
    };
    let name = name.to_string_lossy();
    match Kernel::from_name(&name) {
        Some(k) if k.available() => Ok(k),
        found => {
            let names: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
            Err(EngineError::Failed(format!(
                "{KERNEL_VAR}={name}: {} (kernels: {})",
                if found.is_some() {
                    "this CPU does not have it"
                } else {
                    "no such kernel"
                },
                names.join(", ")
            )))
        }
    }
}

thread_local! {
    /// A worker's buffers, kept across positions (allocated outside any per-file arena).
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// The gzip magic number: a `.bin.gz` whatever its name says.
const GZIP: [u8; 2] = [0x1f, 0x8b];

/// Nets are some tens of MB, the largest KataGo publishes some hundreds: a file (or its
/// gzip's content) beyond this is no net, and is refused before it fills the memory.
const MAX_NET_BYTES: u64 = 1 << 30;

/// Which net judges: the one the binary carries, or a file (`--net FILE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetSource {
    Carried,
    File(std::path::PathBuf),
}

/// The net every run judges with unless told otherwise: KataGo's b10c384h6nbttflrs, as KataGo
/// publishes it (nets/README.md gives its source and licence), in the binary itself so that an
/// installed binary needs no file beside it.
const CARRIED: &[u8] = include_bytes!("../../nets/b10c384h6nbttflrs.bin.gz");

/// The carried net's SHA-256: the weights every default run's tables come from.
pub const CARRIED_SHA256: &str = "0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229";

/// The carried net's name and model version, as its header gives them.
pub const CARRIED_NAME: &str = "b10c384h6nbttflrs";
pub const CARRIED_MODEL_VERSION: i32 = 15;

/// A run's net: a file's, read and checked before any work; the carried one, read when a
/// position is first judged, so that a run that judges nothing (no counted game) does not
/// hold its weights.
pub struct RunNet {
    /// Set at once for a file; for the carried net, at the first position judged.
    net: std::sync::OnceLock<NetJudge>,
}

impl RunNet {
    pub fn open(source: &NetSource) -> Result<RunNet, EngineError> {
        kernel_from_env()?;
        let net = std::sync::OnceLock::new();
        if let NetSource::File(path) = source {
            let _ = net.set(NetJudge::load(path)?);
        }
        Ok(RunNet { net })
    }

    fn net(&self) -> &NetJudge {
        self.net.get_or_init(|| {
            NetJudge::carried().expect("the carried net is the pinned one (its unit test)")
        })
    }

    /// The net's answer to `q` (`NetJudge::judge`).
    pub fn judge(&self, q: &EngineQuery) -> EngineAnswer {
        self.net().judge(q)
    }

    /// The net's name, model version and SHA-256, without reading the carried one.
    pub fn describe(&self) -> (String, i32, String) {
        match self.net.get() {
            Some(n) => (n.name().to_string(), n.model_version(), n.sha256.clone()),
            None => (
                CARRIED_NAME.to_string(),
                CARRIED_MODEL_VERSION,
                CARRIED_SHA256.to_string(),
            ),
        }
    }
}

impl NetJudge {
    /// The net `source` names, read and checked (`load`, `carried`).
    pub fn of(source: &NetSource) -> Result<NetJudge, EngineError> {
        match source {
            NetSource::Carried => NetJudge::carried(),
            NetSource::File(path) => NetJudge::load(path),
        }
    }

    /// The net the binary carries, its SHA-256 checked against the pinned one.
    pub fn carried() -> Result<NetJudge, EngineError> {
        let net = NetJudge::read(CARRIED.to_vec(), |why| {
            EngineError::Failed(format!("the carried net {CARRIED_NAME}: {why}"))
        })?;
        if net.sha256 != CARRIED_SHA256 {
            return Err(EngineError::Failed(format!(
                "the carried net {CARRIED_NAME} has SHA-256 {}, not {CARRIED_SHA256}",
                net.sha256
            )));
        }
        Ok(net)
    }

    /// Reads and checks the net at `path`; every fault (no file, a truncated or corrupt one, a
    /// model version or layer the evaluator does not know) is a configuration error naming it.
    ///
    /// Only a regular file is opened: a FIFO would block `open` until a writer came, and a
    /// device such as `/dev/zero` never ends. What is read is capped at `MAX_NET_BYTES`
    /// whatever size the file claims.
    pub fn load(path: &Path) -> Result<NetJudge, EngineError> {
        let failed = |why: String| EngineError::Failed(format!("--net {}: {why}", path.display()));
        let not_regular =
            || failed("not a regular file (a net is a file, not a FIFO, device or folder)".into());
        let meta = std::fs::metadata(path).map_err(|e| failed(e.to_string()))?;
        if !meta.is_file() {
            return Err(not_regular());
        }
        if meta.len() > MAX_NET_BYTES {
            return Err(failed(too_large()));
        }
        // Non-blocking, in case the path was replaced by a FIFO since it was looked at.
        let file = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path)
                .map_err(|e| failed(e.to_string()))?
        };
        if !file
            .metadata()
            .map_err(|e| failed(e.to_string()))?
            .is_file()
        {
            return Err(not_regular());
        }
        let mut raw = Vec::new();
        file.take(MAX_NET_BYTES + 1)
            .read_to_end(&mut raw)
            .map_err(|e| failed(e.to_string()))?;
        if raw.len() as u64 > MAX_NET_BYTES {
            return Err(failed(too_large()));
        }
        NetJudge::read(raw, failed)
    }

    /// A net from the bytes of its file (gzip or plain); `failed` names where they came from.
    fn read(raw: Vec<u8>, failed: impl Fn(String) -> EngineError) -> Result<NetJudge, EngineError> {
        let sha256 = hex(&Sha256::digest(&raw));
        let bytes = if raw.starts_with(&GZIP) {
            let mut out = Vec::new();
            // Every member, as gzip and zcat read a file of several.
            flate2::read::MultiGzDecoder::new(raw.as_slice())
                .take(MAX_NET_BYTES + 1)
                .read_to_end(&mut out)
                .map_err(|e| failed(format!("not a readable gzip file: {e}")))?;
            if out.len() as u64 > MAX_NET_BYTES {
                return Err(failed(too_large()));
            }
            out
        } else {
            raw
        };
        let model = Model::parse(&bytes).map_err(|e| {
            failed(if e.not_a_model() {
                format!("not a KataGo net ({e})")
            } else {
                e.to_string()
            })
        })?;
        Ok(NetJudge {
            model,
            sha256,
            kernel: kernel_from_env()?,
        })
    }

    /// The same net, its products run on `kernel`.
    ///
    /// # Panics
    /// When this CPU does not have the kernel.
    pub fn with_kernel(self, kernel: Kernel) -> NetJudge {
        assert!(kernel.available(), "{} is not available", kernel.name());
        NetJudge { kernel, ..self }
    }

    /// The code the net's products run on.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The net's name, as its file header gives it (KataGo's `internalName`).
    pub fn name(&self) -> &str {
        self.model.name()
    }

    /// The model version of the file format (what layers and outputs the net has).
    pub fn model_version(&self) -> i32 {
        self.model.version()
    }

    /// The net's answer to `q`, as KataGo's analysis engine gives it at one visit.
    /// A panic is the position's answer, as any failure of one game is its row's.
    pub fn judge(&self, q: &EngineQuery) -> EngineAnswer {
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            if s.as_ref().map(Scratch::kernel) != Some(self.kernel) {
                *s = Some(Scratch::with_kernel(self.kernel));
            }
            let answer = catch_unwind(AssertUnwindSafe(|| {
                judge(&self.model, q, s.as_mut().expect("set just above"))
            }));
            answer.unwrap_or_else(|panic| {
                *s = None;
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|m| m.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(NoAnswer::Panicked(why))
            })
        })
    }
}

/// The settings a record's rules are put to KataGo under: those of the ruleset
/// `katago_rules` names, so that the net and an engine are asked the same question.
fn kata_rules(rules: Rules) -> KataRules {
    KataRules::from_name(katago_rules(rules))
        .expect("katago_rules names a ruleset from_name knows (tested)")
}

/// The net's judgement of `q`, in the terms `--katago` answers in. The position is put to the
/// net as KataGo's analysis engine puts it when `--katago` asks: the game's moves where the
/// record is a plain move list, else (or where KataGo would refuse the moves) the final
/// stones; symmetry 0, as with `nnRandomize=false`. The answers are KataGo's at one visit:
/// its lead, expected score and ownership, Black's side.
fn judge(model: &Model, q: &EngineQuery, scratch: &mut Scratch) -> EngineAnswer {
    let rules = kata_rules(q.rules);
    let as_moves = q.history.as_ref().and_then(|h| {
        let first = h.moves.first().map_or(q.to_move, |&(c, _)| c);
        encode(q.size, &h.setup, &h.moves, first, &rules, q.komi).ok()
    });
    let history = as_moves.is_some();
    let input = match as_moves {
        Some(input) => input,
        None => encode(q.size, &q.stones, &[], q.to_move, &rules, q.komi)
            .map_err(|e| NoAnswer::Unencodable(e.to_string()))?,
    };
    let a = evaluate(model, &input, &rules, scratch);
    Ok(EngineView {
        lead: -a.white_lead,
        score: -a.white_score_mean,
        ownership: a.ownership_white.iter().map(|o| -o).collect(),
        history,
    })
}

fn too_large() -> String {
    format!("larger than {} MiB: not a net", MAX_NET_BYTES >> 20)
}

/// Where `scripts/get-net.sh` puts nets: `$LIVINGBLOCKS_NETS`, else
/// `~/.cache/livingblocks/nets`.
pub fn nets_dir() -> std::path::PathBuf {
    match std::env::var_os("LIVINGBLOCKS_NETS") {
        Some(d) => d.into(),
        None => std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
            .join(".cache/livingblocks/nets"),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_carried_net_is_the_pinned_one() {
        let lazy = RunNet::open(&NetSource::Carried).unwrap();
        let described = lazy.describe();
        let net = NetJudge::carried().unwrap();
        assert_eq!(net.sha256, CARRIED_SHA256);
        assert_eq!(net.name(), CARRIED_NAME);
        assert_eq!(net.model_version(), CARRIED_MODEL_VERSION);
        assert_eq!(
            described,
            (
                net.name().to_string(),
                net.model_version(),
                net.sha256.clone()
            )
        );
    }

    fn load_bytes(bytes: &[u8]) -> Result<NetJudge, EngineError> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("net.bin.gz");
        std::fs::write(&p, bytes).unwrap();
        NetJudge::load(&p)
    }

    #[test]
    fn a_missing_or_broken_file_is_named() {
        let Err(EngineError::Failed(m)) = NetJudge::load(Path::new("/nonexistent/net.bin.gz"))
        else {
            panic!("a missing file loaded");
        };
        assert!(m.contains("/nonexistent/net.bin.gz"), "{m}");
        let Err(EngineError::Failed(m)) = load_bytes(&[0x1f, 0x8b, 8, 0, 1, 2]) else {
            panic!("a broken gzip loaded");
        };
        assert!(m.contains("gzip"), "{m}");
        assert!(load_bytes(b"not a net at all\n").is_err());
    }

    /// Each ruleset as it is put to KataGo: Ing as Chinese, unknown rules as Japanese.
    #[test]
    fn a_records_rules_are_put_to_the_net_as_to_katago() {
        use crate::go::rules::Ruleset;
        let named = |n| KataRules::from_name(n).unwrap();
        for (r, kata) in [
            (Ruleset::Japanese, "japanese"),
            (Ruleset::Korean, "korean"),
            (Ruleset::Unknown, "japanese"),
            (Ruleset::Chinese, "chinese"),
            (Ruleset::Ing, "chinese"),
            (Ruleset::Aga, "aga"),
            (Ruleset::Nz, "new-zealand"),
        ] {
            assert_eq!(kata_rules(r.rules()), named(kata), "{r:?}");
        }
    }

    #[test]
    fn digests_are_hex() {
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
