//! The replay agrees with an independent board implementation on real games: for every game
//! of ../shared/corpus/pro/games, the final stones of each colour equal those that sgfmill
//! (PyPI) gives, and both stop at the same move where a record is illegal. The reference runs
//! from tests/reference/sgfmill_final.py. Skips, with a message, where ../shared is absent.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use livingblocks::go::{replay, Cell, Color, Point};
use livingblocks::sgf::{self, load::Tree};
use livingblocks::source;
use rayon::prelude::*;

/// What one side says about a file: `ok <black> <white>`, or `illegal <n>`, or `error`.
fn ours(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let text = sgf::decode(&bytes).unwrap().text.into_owned();
    let loaded = match sgf::load(&text) {
        Ok(l) => l,
        Err(e) => return format!("error\t{e}"),
    };
    let Some(Ok(Tree::Go(root))) = loaded.trees.first().map(|t| &t.tree) else {
        return "error\tnot a Go game".to_string();
    };
    let r = match replay(root) {
        Ok(r) => r,
        Err(e) => return format!("error\t{e}"),
    };
    if let Some(illegal) = r.illegal {
        return format!("illegal\t{}", illegal.number);
    }
    let mut stones: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let n = r.board.size();
    for y in 0..n {
        for x in 0..n {
            if let Cell::Stone(c) = r.board.at(Point::new(x, y)) {
                stones[c.index()].push(Point::new(x, y).to_string());
            }
        }
    }
    for s in &mut stones {
        s.sort();
    }
    format!(
        "ok\t{}\t{}",
        stones[Color::Black.index()].join(" "),
        stones[Color::White.index()].join(" ")
    )
}

#[test]
#[ignore = "corpus-sized (minutes): cargo test -- --ignored; CI runs it"]
fn final_positions_equal_sgfmill_on_every_pro_game() {
    let Some(root) = crate::util::shared("pro/games") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/sgfmill_final.py");
    // sgfmill replays in the background while this side replays in parallel.
    let reference = std::thread::spawn({
        let root = root.clone();
        move || Command::new("python3").arg(&script).arg(&root).output()
    });
    let inputs = source::collect(&[source::Root::arg(root)], None).unwrap();
    let inputs: Vec<_> = inputs.iter().collect();
    let mine: Vec<String> = inputs.par_iter().map(|i| ours(&i.path)).collect();
    let out = match reference.join().unwrap() {
        Ok(out) if out.status.success() => out,
        other => {
            let why = match other {
                Ok(out) => String::from_utf8_lossy(&out.stderr)
                    .trim()
                    .lines()
                    .last()
                    .unwrap_or("nothing")
                    .to_string(),
                Err(e) => e.to_string(),
            };
            crate::util::skip(&format!(
                "the sgfmill reference could not run (pip install sgfmill): {why}"
            ));
            return;
        }
    };
    let reference: BTreeMap<String, String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (file, rest) = l.split_once('\t').unwrap();
            (file.to_string(), rest.to_string())
        })
        .collect();
    assert_eq!(
        inputs.len(),
        reference.len(),
        "both sides see the same files"
    );
    let mut mismatches = Vec::new();
    for (input, mine) in inputs.iter().zip(&mine) {
        let theirs = &reference[&input.name];
        if mine != theirs {
            mismatches.push(format!(
                "{}\n  ours:    {mine}\n  sgfmill: {theirs}",
                input.name
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} games differ from sgfmill, first ones:\n{}",
        mismatches.len(),
        inputs.len(),
        mismatches[..mismatches.len().min(5)].join("\n")
    );
    eprintln!("{} games: final positions equal sgfmill's", inputs.len());
}
