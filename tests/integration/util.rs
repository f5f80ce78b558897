//! Helpers for the end-to-end tests: temporary folders, running the binary, reading CSV.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary folder with input files, and an output folder beside them.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        TestEnv {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn input(&self) -> PathBuf {
        self.dir.path().join("in")
    }

    /// Writes an input file (folders created as needed).
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) {
        let p = self.input().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    /// Runs the binary with arguments, in the temporary folder.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap()
    }

    /// Runs `analyze in --out OUT -j N` and returns games.csv's text.
    pub fn analyze(&self, out: &str, threads: usize) -> String {
        let o = self.run(&["analyze", "in", "--out", out, "-j", &threads.to_string()]);
        assert!(
            o.status.success(),
            "analyze failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        self.output(out, "games.csv")
    }

    /// The text of an output file.
    pub fn output(&self, out: &str, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(out).join(name)).unwrap()
    }
}

/// The rows of a CSV text as maps from column name to value.
pub fn rows(csv_text: &str) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// A folder of the shared corpora (`../shared/corpus/PATH`), or `None` when it is absent
/// (see `skip`): tests that need the large sets skip cleanly without them.
pub fn shared(path: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(path);
    if p.exists() {
        Some(p)
    } else {
        skip(&format!("../shared/corpus/{path} is absent"));
        None
    }
}

/// A test that cannot run here (its caller then returns). Under CI (`CI` set) it fails
/// instead, since CI must run every test. Elsewhere it prints `SKIPPED <test>: <why>` straight
/// to stderr, past the harness's capture, which hides what a passing test prints: `cargo test`
/// shows the line next to the test's `ok` (the build, build.rs, names the missing pieces too).
pub fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "cannot run under CI: {why}"
    );
    // The harness runs each test on a thread named after it.
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map_or(String::new(), |n| format!(" {n}"));
    let _ = writeln!(std::io::stderr(), "SKIPPED{test}: {why}");
}

/// The embedded corpus of the repository.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}
