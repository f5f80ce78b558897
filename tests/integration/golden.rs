//! The committed reports/ are a golden test: the default analysis of corpus/ (what
//! `cargo run --release` runs) must reproduce every file in it byte for byte, so a change that
//! moves any figure shows in review. After an intended change, run `cargo run --release` and
//! commit reports/ with it.

use std::path::Path;
use std::process::Command;

use crate::util::TestEnv;

/// Every file under `dir`, as paths relative to it, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_default_run_reproduces_the_committed_reports() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let env = TestEnv::new();
    let out = env.dir.path().join("reports");
    // As `cargo run --release` runs it: the default PATH (`corpus`, relative, as the manifest
    // records it) from the repository; only the output folder differs.
    let o = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "--out"])
        .arg(&out)
        .args(["-q", "-j", "2"])
        .current_dir(repo)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let committed = repo.join("reports");
    // reports/bench holds the bench script's figures, not the default run's.
    let expected: Vec<String> = files(&committed)
        .into_iter()
        .filter(|f| !f.starts_with("bench/"))
        .collect();
    assert_eq!(files(&out), expected, "the files of a run");
    // `started_in` leads from each folder to the repository, by its own path.
    let started_in = |dir: &std::path::Path| {
        let m = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
        let rel = m
            .lines()
            .find_map(|l| l.strip_prefix("started_in\t"))
            .unwrap()
            .to_string();
        dir.join(rel).canonicalize().unwrap()
    };
    assert_eq!(started_in(&committed), repo.canonicalize().unwrap());
    assert_eq!(started_in(&out), repo.canonicalize().unwrap());
    let without_started_in = |bytes: Vec<u8>| -> Vec<u8> {
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| !l.starts_with("started_in\t"))
            .flat_map(|l| [l, "\n"])
            .collect::<String>()
            .into_bytes()
    };
    for f in &expected {
        let (mut a, mut b) = (
            std::fs::read(committed.join(f)).unwrap(),
            std::fs::read(out.join(f)).unwrap(),
        );
        if f == "manifest.tsv" {
            (a, b) = (without_started_in(a), without_started_in(b));
        }
        if a != b {
            let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(a.lines().count().min(b.lines().count()));
            panic!(
                "reports/{f} differs from the run's, first at line {}:\n  committed: {}\n  run:       {}\n\
                 (after an intended change: cargo run --release, and commit reports/)",
                line + 1,
                a.lines().nth(line).unwrap_or("<end>"),
                b.lines().nth(line).unwrap_or("<end>")
            );
        }
    }
}
