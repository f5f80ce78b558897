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
        self.run_with(args, &[])
    }

    /// `run`, which must succeed (else the test fails with the command's stderr).
    pub fn run_ok(&self, args: &[&str]) -> Output {
        let o = self.run(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o
    }

    /// `run`, with environment variables set.
    pub fn run_with(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .args(args)
            .envs(vars.iter().copied())
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

/// A small game, counted and complete, for tests of the output folder.
pub const GAME: &str = "(;SZ[9]KM[0]RE[B+1];B[cc];W[gg];B[cg];W[gc])";

/// A folder of `n` copies of `GAME` as inputs, `g0.sgf`, `g1.sgf`, ...
pub fn env_with_games(n: usize) -> TestEnv {
    let env = TestEnv::new();
    for k in 0..n {
        env.write(&format!("g{k}.sgf"), GAME);
    }
    env
}

/// Each file under `dir` (hidden ones left out) with its bytes.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_string_lossy();
            (rel.into_owned(), std::fs::read(e.path()).unwrap())
        })
        .filter(|(f, _)| !f.starts_with('.'))
        .collect();
    files.sort();
    files
}

/// The kill point of a commit, and of the recovery of one a killed run left.
pub const COMMIT: &str = "LIVINGBLOCKS_KILL_AT_COMMIT_STEP";
pub const RECOVERY: &str = "LIVINGBLOCKS_KILL_AT_RECOVERY_STEP";

/// Runs the binary with the kill point `var` at `step`: true if it was killed there (false:
/// it has fewer steps, and ended normally).
pub fn killed_at(env: &TestEnv, args: &[&str], var: &str, step: usize) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let o = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(args)
        .current_dir(env.dir.path())
        .env(var, step.to_string())
        .output()
        .unwrap();
    match o.status.signal() {
        Some(9) => true,
        _ => {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            false
        }
    }
}

/// The first `n` games of Shusaku in the embedded corpus (sorted by name), copied into a
/// test folder.
pub fn env_with_corpus_games(n: usize) -> TestEnv {
    let env = TestEnv::new();
    for f in corpus_games(n) {
        env.write(
            f.file_name().unwrap().to_str().unwrap(),
            std::fs::read(&f).unwrap(),
        );
    }
    env
}

/// The paths of those games.
pub fn corpus_games(n: usize) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(corpus().join("Shusaku"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.truncate(n);
    files
}
