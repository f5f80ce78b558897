//! Every file of ../shared/corpus/edge-cases comes out with the status recorded in
//! tests/fixtures/edge_cases_expected.tsv. Skips, with a message, where ../shared is absent.

use std::path::Path;

use crate::util::{rows, shared, TestEnv};

#[test]
fn edge_case_files_keep_their_expected_status() {
    let Some(root) = shared("edge-cases") else {
        return;
    };
    let expected_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/edge_cases_expected.tsv"),
    )
    .unwrap();
    let expected: Vec<&str> = expected_text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();

    let env = TestEnv::new();
    let o = env.run(&["analyze", root.to_str().unwrap(), "--out", "out", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: Vec<String> = rows(&env.output("out", "games.csv"))
        .iter()
        .map(|r| format!("{}\t{}\t{}", r["file"], r["game"], r["status"]))
        .collect();

    let missing: Vec<_> = expected
        .iter()
        .filter(|e| !got.iter().any(|g| g == *e))
        .collect();
    let extra: Vec<_> = got
        .iter()
        .filter(|g| !expected.contains(&g.as_str()))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "statuses changed (see tests/fixtures/README.md)\n expected, not seen: {missing:#?}\n seen, not expected: {extra:#?}"
    );
    assert_eq!(got.len(), expected.len());
    let files: std::collections::BTreeSet<_> = got.iter().map(|g| g.split('\t').next()).collect();
    assert_eq!(files.len(), 444, "every file has a row");
}
