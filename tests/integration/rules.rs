//! RU as the tool reads it, over every distinct RU of the shared corpora (issue 50: RU was
//! read by substrings, so that words holding "ing" read as Ing rules). Each value has its
//! expected ruleset here: a value the corpora gain, or a reading that changes, fails.

use std::collections::BTreeSet;

use livingblocks::sgf::decode;
use livingblocks::sgf::result::parse_rules;

use crate::util::shared;

/// Every distinct RU of ../shared/corpus, and the ruleset it reads as.
const EXPECTED: [(&str, &str); 18] = [
    ("AGA", "aga"),
    ("Chinese", "chinese"),
    ("chinese", "chinese"),
    // Ikeda's rules count area.
    ("Ikeda's Area Rules III", "chinese"),
    ("Ing", "ing"),
    ("JP", "japanese"),
    ("JPN", "japanese"),
    ("Japanese", "japanese"),
    ("Uchikomi", "japanese"),
    ("Korean", "korean"),
    ("Tromp/Taylor", "nz"),
    // Not rules, or nothing that says how to count: the rules are inferred.
    ("Free handicap placement", "unknown"),
    ("Free placement, W gives komi", "unknown"),
    ("Pair Go", "unknown"),
    ("Pair go", "unknown"),
    ("Relay game", "unknown"),
    ("TT--", "unknown"),
    ("W gives komi", "unknown"),
];

#[test]
fn issue_50_every_ru_of_the_shared_corpora_reads_as_expected() {
    let Some(root) = shared("") else {
        return;
    };
    let mut found = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.unwrap();
        let is_sgf = entry
            .path()
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        if !entry.file_type().is_file() || !is_sgf {
            continue;
        }
        let bytes = std::fs::read(entry.path()).unwrap();
        if let Ok(d) = decode(&bytes) {
            found.extend(ru_values(&d.text));
        }
    }
    let expected: BTreeSet<String> = EXPECTED.iter().map(|(ru, _)| ru.to_string()).collect();
    assert_eq!(
        found, expected,
        "the corpora's RU values and the table differ"
    );
    for (ru, want) in EXPECTED {
        assert_eq!(parse_rules(ru).as_str(), want, "RU[{ru}]");
    }
}

/// The values of every RU property in an SGF text, unescaped.
fn ru_values(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut values = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("RU").map(|k| from + k) {
        from = k + 2;
        if k > 0 && b[k - 1].is_ascii_uppercase() {
            continue;
        }
        let rest = text[from..].trim_start();
        let Some(value) = rest.strip_prefix('[') else {
            continue;
        };
        let (mut v, mut escaped) = (String::new(), false);
        for c in value.chars() {
            match c {
                _ if escaped => {
                    v.push(c);
                    escaped = false;
                }
                '\\' => escaped = true,
                ']' => break,
                _ => v.push(c),
            }
        }
        values.push(v);
    }
    values
}
