//! Copies of one game across a collection (issue 51): found however they differ, the most
//! complete counted, and the same answer from shards merged as from one run.

use crate::util::{rows, TestEnv};

/// An SGF game of `n` moves on distinct points (no capture reaches them), turned by `way`
/// (bit 0 mirrors x, bit 1 mirrors y, bit 2 exchanges the colours), moves `swaps` exchanged,
/// move `typo` moved to a point the game never plays (the one its move `n + 5` would take).
fn record(n: usize, seed: u32, way: u8, swaps: &[(usize, usize)], typo: Option<usize>) -> String {
    let mut points: Vec<(u8, u8)> = (0..n as u32)
        .map(|i| {
            let p = (i * 37 + seed) % 361;
            ((p % 19) as u8, (p / 19) as u8)
        })
        .collect();
    for &(a, b) in swaps {
        points.swap(a, b);
    }
    if let Some(t) = typo {
        let p = ((n as u32 + 5) * 37 + seed) % 361;
        points[t] = ((p % 19) as u8, (p / 19) as u8);
    }
    let moves: String = points
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            let x = if way & 1 != 0 { 18 - x } else { x };
            let y = if way & 2 != 0 { 18 - y } else { y };
            let colour = if (i % 2 == 0) == (way & 4 == 0) {
                'B'
            } else {
                'W'
            };
            format!(";{colour}[{}{}]", (b'a' + x) as char, (b'a' + y) as char)
        })
        .collect();
    format!("(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]{moves})")
}

#[test]
fn shards_merged_name_copies_as_one_run() {
    let env = TestEnv::new();
    // One game in six records: cut short, whole and turned, with two moves swapped, with a
    // miswritten point, with the colours exchanged; and a second whole record. The most
    // complete is `full.sgf`, after the record cut short by name.
    let files = [
        ("wcolours.sgf", record(160, 11, 4, &[], None)),
        ("cut.sgf", record(90, 11, 0, &[], None)),
        ("full.sgf", record(160, 11, 3, &[], None)),
        ("swapped.sgf", record(160, 11, 1, &[(1, 3)], None)),
        ("typo.sgf", record(160, 11, 2, &[], Some(40))),
        ("zcopy.sgf", record(160, 11, 0, &[], None)),
        ("other.sgf", record(160, 5, 0, &[], None)),
        ("short1.sgf", record(1, 11, 0, &[], None)),
        ("short2.sgf", record(1, 11, 0, &[], None)),
        ("empty1.sgf", "(;GM[1]SZ[19]RE[W+F])".to_string()),
        ("empty2.sgf", "(;GM[1]SZ[19]RE[W+F])".to_string()),
    ];
    for (name, text) in &files {
        env.write(name, text);
    }
    let run = |args: &[&str]| {
        env.run_ok(args);
    };
    run(&["analyze", "in", "--out", "all", "-q"]);
    for k in 0..2 {
        let (out, shard) = (format!("s{k}"), format!("{k}/2"));
        run(&["analyze", "in", "--out", &out, "--shard", &shard, "-q"]);
    }
    run(&["merge", "s1", "s0", "--out", "merged"]);
    let games = rows(&env.output("all", "games.csv"));
    let named = |file: &str| {
        let g = games.iter().find(|g| g["file"] == file).unwrap();
        assert_eq!(g["status"], "ok", "{file}");
        (g["duplicate_of"].as_str(), g["duplicate_kind"].as_str())
    };
    assert_eq!(named("full.sgf"), ("", ""));
    assert_eq!(named("cut.sgf"), ("full.sgf", "prefix"));
    assert_eq!(named("swapped.sgf"), ("full.sgf", "variant"));
    assert_eq!(named("typo.sgf"), ("full.sgf", "variant"));
    assert_eq!(named("zcopy.sgf"), ("full.sgf", "same"));
    assert_eq!(named("wcolours.sgf"), ("full.sgf", "colours"));
    for alone in [
        "other.sgf",
        "short1.sgf",
        "short2.sgf",
        "empty1.sgf",
        "empty2.sgf",
    ] {
        assert_eq!(named(alone), ("", ""), "{alone}");
    }
    // The copies are spread over both shards, the counted one in one of them.
    let held = |k: usize| -> Vec<String> {
        rows(&env.output(&format!("s{k}"), "games.csv"))
            .into_iter()
            .map(|g| g["file"].clone())
            .collect()
    };
    let copies = [
        "wcolours.sgf",
        "cut.sgf",
        "full.sgf",
        "swapped.sgf",
        "typo.sgf",
        "zcopy.sgf",
    ];
    for k in 0..2 {
        assert!(
            held(k).iter().any(|f| copies.contains(&f.as_str())),
            "shard {k} holds a copy"
        );
    }
    for name in ["games.csv", "summary.csv", "report.md"] {
        assert!(
            env.output("all", name) == env.output("merged", name),
            "{name} differs"
        );
    }
    // The game counts once in the report: five copies beside it.
    let summary = rows(&env.output("all", "summary.csv"));
    let copies_counted: u64 = summary
        .iter()
        .filter(|r| r["method"].starts_with("duplicate:"))
        .map(|r| r["value"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(copies_counted, 5);
    // The run took the copy cut short, counted when met, out of its figures again: as the
    // report reads them back from the tables.
    let counted = env.output("all", "summary.csv");
    run(&["report", "all", "-q"]);
    assert!(env.output("all", "summary.csv") == counted);
}

/// Black's two blocks of the paper's Bild 9 in a corner, sharing two eyes, and a block around
/// a bent three-point eye; White far from both; then `extra` pairs of moves on the top right
/// edge. Turned by `way` (bit 0 mirrors x, bit 1 mirrors y).
fn chains_record(extra: usize, way: u8) -> String {
    let black = [
        "ba", "ca", "da", "db", "dc", "ab", "ac", "ad", "bd", "cd", "bl", "cl", "dl", "el", "bm",
        "em", "bn", "dn", "en", "bo", "co", "do", "eo", "ka", "kb", "kc", "kd", "ke", "kf",
    ];
    let white = [
        "pp", "pq", "pr", "ps", "qp", "rp", "sp", "mm", "mn", "mo", "nm", "nn", "no", "np", "jj",
        "jk", "jl", "jm", "kj", "lj", "pj", "qj", "rj", "sa", "sb", "sc", "sd", "se", "sf",
    ];
    let turn = |s: &str| {
        let b = s.as_bytes();
        let (mut x, mut y) = (b[0], b[1]);
        if way & 1 != 0 {
            x = b's' - (x - b'a');
        }
        if way & 2 != 0 {
            y = b's' - (y - b'a');
        }
        format!("{}{}", x as char, y as char)
    };
    let moves: String = black
        .iter()
        .zip(&white)
        .take(23 + extra)
        .map(|(b, w)| format!(";B[{}];W[{}]", turn(b), turn(w)))
        .collect();
    format!("(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]{moves})")
}

/// A game alone, and the same game with a copy cut short first by name and a turned copy:
/// the blocks, chains and big eyes of the report are the game's once.
#[test]
fn the_report_counts_a_games_chains_once() {
    let env = TestEnv::new();
    env.write("one/b_full.sgf", chains_record(6, 0));
    env.write("many/a_cut.sgf", chains_record(3, 0));
    env.write("many/b_full.sgf", chains_record(6, 0));
    env.write("many/c_turned.sgf", chains_record(6, 3));
    for set in ["one", "many"] {
        let input = format!("in/{set}");
        let o = env.run(&["analyze", &input, "--out", set, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let games = rows(&env.output("many", "games.csv"));
    let kinds: Vec<_> = games
        .iter()
        .map(|g| {
            (
                g["file"].as_str(),
                g["duplicate_of"].as_str(),
                g["duplicate_kind"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("a_cut.sgf", "b_full.sgf", "prefix"),
            ("b_full.sgf", "", ""),
            ("c_turned.sgf", "b_full.sgf", "same"),
        ]
    );
    let figures = |set: &str| -> Vec<(String, String, String, String)> {
        rows(&env.output(set, "summary.csv"))
            .into_iter()
            .filter(|r| {
                ["blocks", "blocks_alive", "chains", "big_eyes"].contains(&r["measure"].as_str())
            })
            .map(|r| {
                (
                    r["measure"].clone(),
                    r["colour"].clone(),
                    r["method"].clone(),
                    r["value"].clone(),
                )
            })
            .collect()
    };
    let once = figures("one");
    assert!(
        once.iter().any(|(m, _, _, v)| m == "chains" && v != "0"),
        "{once:?}"
    );
    assert!(
        once.iter().any(|(m, _, _, v)| m == "big_eyes" && v != "0"),
        "{once:?}"
    );
    assert_eq!(figures("many"), once);
}

/// The five copies Kombilo finds in pro/games that a match on the first 72 moves missed, each
/// with a transcription difference among those moves.
#[test]
#[ignore = "corpus-sized (seconds in release): cargo test --release --test integration duplicates -- --ignored"]
fn the_five_transcription_copies_of_pro_games_are_found() {
    let Some(pro) = crate::util::shared("pro/games") else {
        return;
    };
    let env = TestEnv::new();
    let o = env.run(&[
        "analyze",
        pro.to_str().unwrap(),
        "--out",
        "out",
        "--estimate",
        "never",
        "-q",
    ]);
    assert!(o.status.code().is_some_and(|c| c == 0 || c == 3));
    let games = rows(&env.output("out", "games.csv"));
    let at = |file: &str| {
        games
            .iter()
            .find(|g| g["file"].ends_with(file))
            .unwrap_or_else(|| panic!("{file} not in games.csv"))
    };
    for (a, b) in [
        ("AlphaGo/LeeSedol/1c.sgf", "AlphaGo/LeeSedol/1.sgf"),
        ("Judan/18/L09.sgf", "Cho_Chikun/1980-01-10.sgf"),
        ("castle/cg034.sgf", "Dosaku/111.sgf"),
        ("NHK/59/43.sgf", "Cho_Chikun/2012-01-09.sgf"),
        ("Hoensha/D15-7.sgf", "Hoensha/D14-2.sgf"),
    ] {
        let (ga, gb) = (at(a), at(b));
        let one = |x: &std::collections::HashMap<String, String>,
                   y: &std::collections::HashMap<String, String>| {
            x["duplicate_of"] == y["file"]
                && x["duplicate_kind"] == "variant"
                && y["duplicate_of"].is_empty()
        };
        assert!(
            one(ga, gb) || one(gb, ga),
            "{a} ~ {b}: {:?} / {:?}",
            (&ga["duplicate_of"], &ga["duplicate_kind"]),
            (&gb["duplicate_of"], &gb["duplicate_kind"])
        );
    }
    // No record without a move, nor one of a handful of moves, repeats another.
    for g in &games {
        let moves: u32 = g["moves"].parse().unwrap_or(0);
        if moves < 20 {
            assert_eq!(g["duplicate_of"], "", "{}", g["file"]);
        }
    }
}

/// A transcription copy with one move written at a point the game never plays, where that
/// stone keeps a capture from happening and a later move then lands on a stone: the copy
/// stops at an illegal move, and is still found as the game it copies, which counts though
/// it comes after it in input order; shards merged name it the same.
#[test]
fn a_copy_that_stops_at_an_illegal_move_is_still_the_game_it_copies() {
    // Black plays aa, White captures it with ba and ab, and White plays aa at move 60; the
    // copy writes White's ab at a point never played, so aa is still Black's at move 60.
    let filler: Vec<(u8, u8)> = (0..400u32)
        .map(|i| {
            let p = (i * 37 + 11) % 361;
            ((p % 19) as u8, (p / 19) as u8)
        })
        .filter(|&(x, y)| x > 2 || y > 2)
        .collect();
    // A point no move of the game takes.
    let never = (0..19u8)
        .flat_map(|y| (0..19u8).map(move |x| (x, y)))
        .find(|p| (p.0 > 2 || p.1 > 2) && !filler[..116].contains(p))
        .unwrap();
    let game = |typo: bool| {
        let mut points = vec![(0, 0), (1, 0), filler[0], if typo { never } else { (0, 1) }];
        points.extend(&filler[1..56]);
        points.push((0, 0));
        points.extend(&filler[56..116]);
        let moves: String = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                let colour = if i % 2 == 0 { 'B' } else { 'W' };
                format!(";{colour}[{}{}]", (b'a' + x) as char, (b'a' + y) as char)
            })
            .collect();
        format!("(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]{moves})")
    };
    let env = TestEnv::new();
    env.write("a_typo.sgf", game(true));
    env.write("b_full.sgf", game(false));
    for args in [
        &["analyze", "in", "--out", "all", "-q"][..],
        &["analyze", "in", "--out", "s0", "--shard", "0/2", "-q"],
        &["analyze", "in", "--out", "s1", "--shard", "1/2", "-q"],
        &["merge", "s0", "s1", "--out", "merged", "-q"],
    ] {
        let o = env.run(args);
        assert!(
            o.status.code().is_some_and(|c| c == 0 || c == 3),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let games = rows(&env.output("all", "games.csv"));
    let at = |file: &str| games.iter().find(|g| g["file"] == file).unwrap();
    let (typo, full) = (at("a_typo.sgf"), at("b_full.sgf"));
    assert_eq!(full["status"], "ok");
    assert_eq!(typo["status"], "illegal_move", "{}", typo["detail"]);
    assert!(typo["detail"].contains("move 60"), "{}", typo["detail"]);
    assert_eq!(
        (
            typo["duplicate_of"].as_str(),
            typo["duplicate_kind"].as_str()
        ),
        ("b_full.sgf", "variant")
    );
    assert_eq!(full["duplicate_of"], "");
    assert_eq!(
        env.output("all", "games.csv"),
        env.output("merged", "games.csv")
    );
}
