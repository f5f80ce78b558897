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
use crate::nn::features::{NUM_GLOBAL, NUM_SPATIAL};
use crate::nn::{self, Model, Scratch};
use crate::score::judgement::{EngineAnswer, EngineQuery, NoAnswer};

/// A loaded net, shared by the run's threads.
pub struct NetJudge {
    model: Model,
    /// The file's SHA-256, hex: which weights judged, whatever the file is called.
    pub sha256: String,
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

impl NetJudge {
    /// Reads and checks the net at `path`; every fault (no file, a truncated or corrupt one, a
    /// model version or layer the evaluator does not know) is a configuration error naming it.
    pub fn load(path: &Path) -> Result<NetJudge, EngineError> {
        let failed = |why: String| EngineError::Failed(format!("--net {}: {why}", path.display()));
        let too_large = || {
            failed(format!(
                "larger than {} MiB: not a net",
                MAX_NET_BYTES >> 20
            ))
        };
        let size = std::fs::metadata(path)
            .map_err(|e| failed(e.to_string()))?
            .len();
        if size > MAX_NET_BYTES {
            return Err(too_large());
        }
        let raw = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
        let sha256 = hex(&Sha256::digest(&raw));
        let bytes = if raw.starts_with(&GZIP) {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(raw.as_slice())
                .take(MAX_NET_BYTES + 1)
                .read_to_end(&mut out)
                .map_err(|e| failed(format!("not a readable gzip file: {e}")))?;
            if out.len() as u64 > MAX_NET_BYTES {
                return Err(too_large());
            }
            out
        } else {
            raw
        };
        let model = Model::parse(&bytes).map_err(|e| failed(e.to_string()))?;
        let inputs = (model.num_spatial_inputs(), model.num_global_inputs());
        if inputs != (NUM_SPATIAL, NUM_GLOBAL) {
            return Err(failed(format!(
                "the net reads {} spatial and {} global inputs, not KataGo's {NUM_SPATIAL} and \
                 {NUM_GLOBAL} (input version 7)",
                inputs.0, inputs.1
            )));
        }
        Ok(NetJudge { model, sha256 })
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
            let answer = catch_unwind(AssertUnwindSafe(|| {
                nn::judge(&self.model, q, s.get_or_insert_with(Scratch::default))
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

    #[test]
    fn digests_are_hex() {
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
