//! The command line end to end: files in a temporary folder → games.csv rows and statuses.

use crate::util::{rows, TestEnv};

const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7]RE[B+R]PB[Black]PW[White];B[ee];W[ce];B[gc];W[cc])";

fn mixed_inputs() -> TestEnv {
    let env = TestEnv::new();
    env.write("good/one.sgf", GAME);
    env.write(
        "good/capture.SGF",
        "(;SZ[9]RE[W+2.5];B[ba];W[aa];B[ab];W[];B[tt])",
    );
    env.write(
        "collection.sgf",
        "(;SZ[9];B[aa])(;SZ[13];B[bb];W[cc])(;SZ[19:13];B[aa])",
    );
    env.write("truncated.sgf", &GAME[..40]);
    env.write("notes.sgf", "This is not a game record.\n");
    env.write("readme.txt", "not walked: wrong extension");
    let (gb, _, unmappable) =
        encoding_rs::GBK.encode("(;CA[gb2312]SZ[19]PB[聂卫平]PW[马晓春]RE[黑中盘胜];B[pd])");
    assert!(!unmappable);
    env.write("chinese.sgf", gb);
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "(;SZ[19]PB[曺薰鉉]PW[李昌鎬];B[dd];W[pp])"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes()),
        )
        .collect();
    env.write("utf16.sgf", utf16);
    env
}

#[test]
fn every_file_gets_rows_with_the_expected_status() {
    let env = mixed_inputs();
    let text = env.analyze("out", 1);
    let rows = rows(&text);
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r["file"].as_str(), r["game"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("chinese.sgf", "0", "ok"),
            ("collection.sgf", "0", "ok"),
            ("collection.sgf", "1", "ok"),
            ("collection.sgf", "2", "unsupported"),
            ("good/capture.SGF", "0", "ok"),
            ("good/one.sgf", "0", "ok"),
            ("notes.sgf", "", "parse_error"),
            ("truncated.sgf", "0", "parse_error"),
            ("utf16.sgf", "0", "ok"),
        ]
    );
    let by_file = |f: &str, g: &str| {
        rows.iter()
            .find(|r| r["file"] == f && r["game"] == g)
            .unwrap()
    };

    let cn = by_file("chinese.sgf", "0");
    assert_eq!(cn["encoding"], "GBK");
    assert_eq!(cn["encoding_source"], "ca");
    assert_eq!(cn["PB"], "聂卫平");
    assert_eq!(cn["RE"], "黑中盘胜");
    assert_eq!((cn["winner"].as_str(), cn["how"].as_str()), ("B", "resign"));
    assert_eq!(
        (cn["komi"].as_str(), cn["komi_source"].as_str()),
        ("0", "default")
    );

    let u16 = by_file("utf16.sgf", "0");
    assert_eq!(u16["encoding"], "UTF-16LE");
    assert_eq!(u16["encoding_source"], "bom");
    assert_eq!(u16["PW"], "李昌鎬");
    assert_eq!(
        (u16["stones_b"].as_str(), u16["stones_w"].as_str()),
        ("1", "1")
    );

    let cap = by_file("good/capture.SGF", "0");
    assert_eq!(cap["moves"], "5");
    assert_eq!(cap["passes"], "2");
    assert_eq!(cap["captures_b"], "1");
    assert_eq!(cap["captures_w"], "0");
    assert_eq!(cap["stones_b"], "2");
    assert_eq!(cap["stones_w"], "0");
    assert_eq!(cap["to_move"], "W");
    assert_eq!(cap["RE"], "W+2.5");
    assert_eq!(
        (
            cap["winner"].as_str(),
            cap["how"].as_str(),
            cap["margin"].as_str()
        ),
        ("W", "score", "2.5")
    );
    assert_eq!(cap["re_parsed"], "1");

    let one = by_file("good/one.sgf", "0");
    assert_eq!(one["board_size"], "9");
    assert_eq!(one["KM"], "7");
    assert_eq!(
        (one["komi"].as_str(), one["komi_source"].as_str()),
        ("7", "KM")
    );
    // No RU and nothing in the record that names other rules: territory counting.
    assert_eq!(
        (
            one["rules"].as_str(),
            one["rules_source"].as_str(),
            one["handicap"].as_str()
        ),
        ("japanese", "default", "0")
    );
    assert_eq!(one["blocks_b"], "2");
    assert_eq!(one["bytes"], GAME.len().to_string());

    assert_eq!(by_file("collection.sgf", "1")["board_size"], "13");
    assert!(by_file("collection.sgf", "2")["detail"].contains("not square"));
    assert!(by_file("truncated.sgf", "0")["detail"].contains("truncated"));
}

#[test]
fn output_is_identical_at_one_and_two_threads() {
    let env = mixed_inputs();
    for i in 0..40 {
        env.write(&format!("many/{i:03}.sgf"), GAME);
    }
    let one = env.analyze("j1", 1);
    let two = env.analyze("j2", 2);
    assert_eq!(one, two);
    assert_eq!(rows(&one).len(), 49);
    assert_eq!(
        env.output("j1", "blocks.csv"),
        env.output("j2", "blocks.csv")
    );
}

#[test]
fn blocks_csv_has_a_row_per_block_with_every_verdict() {
    let env = TestEnv::new();
    // Black lives with two eyes in the corner (aa, ca); White has a lone stone.
    env.write(
        "life.sgf",
        "(;SZ[9]AB[ba][da][ab][bb][cb][db][eb][ea]AW[gg];W[ii])",
    );
    env.analyze("out", 1);
    let blocks = rows(&env.output("out", "blocks.csv"));
    let got: Vec<(&str, &str, &str, &str, &str, &str)> = blocks
        .iter()
        .map(|r| {
            (
                r["colour"].as_str(),
                r["anchor"].as_str(),
                r["stones"].as_str(),
                r["own_eyes"].as_str(),
                r["benson"].as_str(),
                r["mpfix"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("B", "ba", "8", "2", "1", "1"),
            ("W", "gg", "1", "0", "0", "0"),
            ("W", "ii", "1", "0", "0", "0"),
        ]
    );
    let games = rows(&env.output("out", "games.csv"));
    assert_eq!(games[0]["benson_blocks_b"], "1");
    assert_eq!(games[0]["benson_stones_b"], "8");
    assert_eq!(games[0]["benson_territory_b"], "2");
    assert_eq!(games[0]["mp95_blocks_b"], "1");
    assert_eq!(games[0]["mpfix_not_benson_b"], "0");
    assert_eq!(games[0]["benson_blocks_w"], "0");
}

#[test]
fn the_embedded_corpus_runs_clean() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    let o = env.run(&[
        "analyze",
        "--judge",
        "estimate",
        corpus.to_str().unwrap(),
        "--out",
        "out",
        "-q",
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(env.dir.path().join("out/games.csv")).unwrap();
    let rows = rows(&text);
    assert!(rows.len() > 1500, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r["status"] == "ok"));
    assert!(!env.dir.path().join("out/games.csv.tmp").exists());
    // -q means quiet in every command: nothing but errors.
    assert_eq!(String::from_utf8_lossy(&o.stderr), "", "analyze -q");
    let o = env.run(&["report", "out", "-q"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stderr), "", "report -q");
    let o = env.run(&["report", "out"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("wrote"));
}

/// merge's summary speaks of what it merged, not of threads or a rate it did not have.
#[test]
fn merge_is_quiet_with_q_and_says_what_it_merged_without() {
    let env = TestEnv::new();
    env.write("a.sgf", "(;SZ[9];B[ee])");
    env.write("b.sgf", "(;SZ[9];B[cc])");
    for k in 0..2 {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        let o = env.run(&["analyze", "in", "--shard", &shard, "--out", &out, "-q"]);
        assert!(o.status.success());
    }
    let o = env.run(&["merge", "s0", "s1", "--out", "m", "-q"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    let o = env.run(&["merge", "s0", "s1", "--out", "m2"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.starts_with("livingblocks: merged 2 shards: 2 files, 2 games"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("threads") && !stderr.contains("games/s"),
        "{stderr}"
    );
}

/// Outside the repository, no PATH means no corpus/: the message says what to do.
#[test]
fn no_arguments_outside_the_repository_say_what_to_give() {
    let env = TestEnv::new();
    let o = env.run(&[]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("livingblocks analyze PATH"), "{stderr}");
    assert!(stderr.contains("--help"), "{stderr}");
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let env = TestEnv::new();
    let o = env.run(&["analyze", "no-such-folder", "--out", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-folder"));
    assert!(!env.dir.path().join("out/games.csv").exists());
}

/// The same mistake, a folder that is not there, gets the same exit code in every command.
#[test]
fn a_missing_folder_is_a_usage_error_in_every_command() {
    let env = TestEnv::new();
    for args in [
        &["analyze", "no-such-folder", "--out", "out"][..],
        &["report", "no-such-folder"],
        &["merge", "no-such-folder", "--out", "out"],
    ] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("no-such-folder"), "{args:?}: {stderr}");
    }
    assert!(!env.dir.path().join("out").exists());
}

/// `-q` means the same in every command (nothing but errors): every command `livingblocks
/// --help` lists takes it, and `generate`, which prints nothing else on stderr, writes the
/// same with it.
#[test]
fn every_command_takes_q() {
    let env = TestEnv::new();
    let help = String::from_utf8(env.run(&["--help"]).stdout).unwrap();
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert_eq!(
        commands,
        ["analyze", "merge", "report", "show", "generate"],
        "{help}"
    );
    for c in commands {
        let o = env.run(&[c, "--help"]);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("-q, --quiet"), "{c} --help:\n{text}");
    }
    let plain = env.run(&["generate", "man"]);
    for q in ["-q", "--quiet"] {
        let o = env.run(&["generate", "man", q]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stderr), "");
        assert_eq!(o.stdout, plain.stdout);
    }
}

/// A negative count is told what the option takes (exit 2), not to write `-- -1` (clap's
/// hint for a value that looks like an option).
#[test]
fn a_negative_count_is_told_what_the_option_takes() {
    let env = mixed_inputs();
    for (args, wanted) in [
        (&["analyze", "in", "--diagrams", "-1"][..], "0 or more"),
        (&["report", "out", "--diagrams", "-1"], "0 or more"),
        (&["merge", "s0", "s1", "--diagrams=-3"], "0 or more"),
        (&["analyze", "in", "-j", "-1"], "1 or more"),
        (&["show", "in/good/one.sgf", "--game", "-1"], "0 or more"),
        (&["show", "in/good/one.sgf", "--move", "-5"], "0 or more"),
    ] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(&format!("a whole number of {wanted} is needed")),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("-- -"), "{args:?}: {stderr}");
    }
    assert!(!env.dir.path().join("reports").exists());
}

/// `--out` naming a file, or a path under one, is refused plainly (exit 2) before any
/// work, in `analyze` and `merge` alike, and the file is left as it was.
#[test]
fn an_output_folder_that_is_a_file_is_named_so() {
    let env = mixed_inputs();
    std::fs::write(env.dir.path().join("taken"), "mine").unwrap();
    for (args, said) in [
        (
            &["analyze", "in", "--out", "taken"][..],
            "taken: a file, not a folder: --out names the folder the outputs go into",
        ),
        (
            &["analyze", "in", "--out", "taken/sub"],
            "taken/sub: taken is a file, not a folder",
        ),
        (
            &["merge", "s0", "s1", "--out", "taken"],
            "taken: a file, not a folder",
        ),
    ] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("os error"), "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read_to_string(env.dir.path().join("taken")).unwrap(),
        "mine"
    );
}

#[test]
fn zero_threads_is_a_usage_error() {
    let env = mixed_inputs();
    let o = env.run(&["analyze", "in", "-j", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn chains_and_big_eyes_have_tables_of_their_own() {
    let env = TestEnv::new();
    // Bild 9 on a 4x4 board: two black blocks joined by two shared corner eyes.
    env.write(
        "bild9.sgf",
        "(;SZ[4]AB[ba][ca][da][db][dc][ab][ac][ad][bd][cd])",
    );
    // A black block around a bent three-point eye in the middle of a 7x7 board.
    env.write(
        "bent.sgf",
        "(;SZ[7]AB[bb][cb][db][eb][bc][ec][bd][dd][ed][be][ce][de][ee]PL[W])",
    );
    env.analyze("out", 1);
    let chains = rows(&env.output("out", "chains.csv"));
    assert_eq!(chains.len(), 1);
    let c = &chains[0];
    assert_eq!(c["file"], "bild9.sgf");
    assert_eq!((c["blocks"].as_str(), c["closed"].as_str()), ("ba ab", "1"));
    assert_eq!(c["word"], "w00");
    assert_eq!(
        (
            c["grammar"].as_str(),
            c["mp95"].as_str(),
            c["mpfix"].as_str()
        ),
        ("1", "1", "1")
    );

    let eyes = rows(&env.output("out", "big_eyes.csv"));
    assert_eq!(eyes.len(), 1);
    let e = &eyes[0];
    assert_eq!(
        (e["file"].as_str(), e["block"].as_str()),
        ("bent.sgf", "bb")
    );
    assert_eq!(
        (e["eye_size"].as_str(), e["eye_shape"].as_str()),
        ("3", "0-0-1-2")
    );
    assert_eq!(
        (
            e["worth_owner_to_move"].as_str(),
            e["worth_opponent_to_move"].as_str()
        ),
        ("2", "1")
    );
    // White to move: the bent three is worth one virtual eye, not enough for the +eyes
    // verdicts on their own.
    let blocks = rows(&env.output("out", "blocks.csv"));
    let bent = blocks.iter().find(|r| r["file"] == "bent.sgf").unwrap();
    assert_eq!(bent["virtual_eyes"], "1");
    assert_eq!(bent["mpfix_eyes"], "0");
}

#[test]
fn three_shards_merged_equal_one_run_byte_for_byte() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    let corpus = corpus.to_str().unwrap();
    let run = |args: &[&str]| {
        env.run_ok(args);
    };
    // The estimate judges: merging is what is checked (net.rs merges judged shards).
    run(&[
        "analyze", "--judge", "estimate", corpus, "--out", "all", "-q",
    ]);
    for k in 0..3 {
        run(&[
            "analyze",
            "--judge",
            "estimate",
            corpus,
            "--out",
            &format!("s{k}"),
            "--shard",
            &format!("{k}/3"),
            "-q",
        ]);
    }
    // Shards given in any order.
    run(&["merge", "s2", "s0", "s1", "--out", "merged"]);
    for name in [
        "games.csv",
        "blocks.csv",
        "chains.csv",
        "big_eyes.csv",
        "manifest.tsv",
        "summary.csv",
        "report.md",
        "not_benson.csv",
        "plots/margin_error.svg",
        "plots/boards/not-benson-1.svg",
    ] {
        let one = env.output("all", name);
        assert!(one.lines().count() > 1, "{name} has rows");
        assert!(one == env.output("merged", name), "{name} differs");
    }
    // summary.csv's rows, files and statuses add up: the shards' rows sum to the whole
    // run's. The other counts do where no game repeats one of another shard; here some do,
    // and the merge counts them once, as the whole run does (compared above).
    let mut sum: std::collections::BTreeMap<(String, String, String), u64> = Default::default();
    for k in 0..3 {
        for r in rows(&env.output(&format!("s{k}"), "summary.csv")) {
            *sum.entry((
                r["measure"].clone(),
                r["colour"].clone(),
                r["method"].clone(),
            ))
            .or_default() += r["value"].parse::<u64>().unwrap();
        }
    }
    let whole = rows(&env.output("all", "summary.csv"));
    assert!(whole.len() > 40);
    let additive = |r: &std::collections::HashMap<String, String>| {
        ["rows", "files"].contains(&r["measure"].as_str()) || r["method"].starts_with("status:")
    };
    let whole: Vec<_> = whole.into_iter().filter(additive).collect();
    assert!(whole.len() >= 3);
    for r in whole {
        let key = (
            r["measure"].clone(),
            r["colour"].clone(),
            r["method"].clone(),
        );
        assert_eq!(
            sum.get(&key).copied().unwrap_or(0),
            r["value"].parse::<u64>().unwrap(),
            "{key:?}"
        );
    }
    // Each shard holds a real part of the games.
    let parts: Vec<usize> = (0..3)
        .map(|k| rows(&env.output(&format!("s{k}"), "games.csv")).len())
        .collect();
    assert!(parts.iter().all(|&n| n > 300), "{parts:?}");
    assert_eq!(
        parts.iter().sum::<usize>(),
        rows(&env.output("all", "games.csv")).len()
    );
}

#[test]
fn merge_refuses_shards_that_do_not_belong_together() {
    let env = mixed_inputs();
    let run = |args: &[&str]| env.run(args);
    for k in 0..3 {
        assert!(run(&[
            "analyze",
            "in",
            "--out",
            &format!("s{k}"),
            "--shard",
            &format!("{k}/3")
        ])
        .status
        .success());
    }
    assert!(run(&[
        "analyze",
        "in",
        "--out",
        "other",
        "--shard",
        "1/3",
        "--max-file-size",
        "1M"
    ])
    .status
    .success());
    assert!(run(&["analyze", "in", "--out", "whole"]).status.success());
    let refused = |args: &[&str], why: &str| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!env.dir.path().join("m/games.csv").exists());
    };
    refused(&["merge", "s0", "s1", "--out", "m"], "missing shards: 2/3");
    refused(
        &["merge", "s0", "s1", "s1", "s2", "--out", "m"],
        "given twice",
    );
    refused(
        &["merge", "s0", "other", "s2", "--out", "m"],
        "max_file_size",
    );
    refused(&["merge", "s0", "s1", "whole", "--out", "m"], "not a shard");
    refused(
        &["merge", "s0", "s1", "in", "--out", "m"],
        "not a complete output folder",
    );
    assert!(run(&["merge", "s0", "s1", "s2", "--out", "m"])
        .status
        .success());
}

#[test]
fn files_from_lists_paths_and_names_rows_by_them() {
    let env = mixed_inputs();
    let list = "in/good/one.sgf\nin/chinese.sgf\n\n";
    std::fs::write(env.dir.path().join("list.txt"), list).unwrap();
    let o = env.run(&["analyze", "--files-from", "list.txt", "--out", "out"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let files: Vec<String> = rows(&env.output("out", "games.csv"))
        .iter()
        .map(|r| r["file"].clone())
        .collect();
    assert_eq!(files, ["in/chinese.sgf", "in/good/one.sgf"]);
}

/// Shards analysed with different `--estimate` choices would merge into tables no single run
/// writes: refused, as is merging into one of the shard folders.
#[test]
fn merge_refuses_mixed_estimates_and_a_shard_folder_as_output() {
    let env = TestEnv::new();
    env.write("a.sgf", "(;SZ[9]KM[6.5]RE[W+0.5];B[ee])");
    env.write("b.sgf", "(;SZ[9]KM[6.5]RE[B+R];B[cc])");
    let analyze = |shard: &str, out: &str, estimate: &str| {
        let o = env.run(&[
            "analyze",
            "in",
            "--shard",
            shard,
            "--out",
            out,
            "--estimate",
            estimate,
            "-q",
        ]);
        assert!(o.status.success());
    };
    analyze("0/2", "s0", "never");
    analyze("1/2", "s1", "counted");
    let o = env.run(&["merge", "s0", "s1", "--out", "m"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("estimate"), "{stderr}");
    assert!(!env.dir.path().join("m").exists());
    analyze("1/2", "s1", "never");
    let o = env.run(&["merge", "s0", "s1", "--out", "s1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is shard folder"));
    assert!(env
        .run(&["merge", "s0", "s1", "--out", "m", "-q"])
        .status
        .success());
}

/// A file on a `--files-from` list that is gone by the time the run reads it is a row with
/// `io_error`, not a refused run (one row, though listed twice, as for any path); the tables get the mode any new file gets (not a temporary
/// file's private one).
#[cfg(unix)]
#[test]
fn a_vanished_listed_file_is_an_io_error_row() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("here.sgf", "(;SZ[9];B[ee])");
    std::fs::write(
        env.dir.path().join("list"),
        "in/here.sgf\nin/gone.sgf\nin/here.sgf\nin/gone.sgf\n",
    )
    .unwrap();
    let o = env.run(&["analyze", "--files-from", "list", "--out", "out", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = env.output("out", "games.csv");
    let got: Vec<(String, String)> = rows(&games)
        .into_iter()
        .map(|r| (r["file"].clone(), r["status"].clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("in/gone.sgf".to_string(), "io_error".to_string()),
            ("in/here.sgf".to_string(), "ok".to_string())
        ]
    );
    // The same mode as a file made by File::create under this process's umask.
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode();
    let plain = env.dir.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    assert_eq!(mode(&env.dir.path().join("out/games.csv")), mode(&plain));
}

/// `-0` reads a `--files-from` list of NUL-terminated entries, as `find -print0` writes it:
/// a name with a newline in it, and one that is not UTF-8, are read like any other. Without
/// `-0` a line that is not UTF-8 is read too (the list was refused whole before).
#[cfg(unix)]
#[test]
fn files_from_with_nul_separators_reads_any_name() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    env.write("plain.sgf", "(;SZ[9];B[ee])");
    env.write("two\nlines.sgf", "(;SZ[9];B[cc])");
    let odd = std::ffi::OsStr::from_bytes(b"in/caf\xe9.sgf");
    std::fs::write(env.dir.path().join(odd), "(;SZ[9];B[gg])").unwrap();
    let mut list = b"in/plain.sgf\0in/two\nlines.sgf\0".to_vec();
    list.extend_from_slice(b"in/caf\xe9.sgf\0");
    std::fs::write(env.dir.path().join("list0"), &list).unwrap();
    let o = env.run(&[
        "analyze",
        "--files-from",
        "list0",
        "-0",
        "--out",
        "out",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: Vec<(String, String)> = rows(&env.output("out", "games.csv"))
        .into_iter()
        .map(|r| (r["file"].clone(), r["status"].clone()))
        .collect();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got.iter().all(|(_, s)| s == "ok"), "{got:?}");
    assert!(got.iter().any(|(f, _)| f == "in/two\nlines.sgf"), "{got:?}");
    // The same list split at newlines: the name with a newline in it is two missing files,
    // the name that is not UTF-8 is read.
    let lines = b"in/plain.sgf\nin/caf\xe9.sgf\n";
    std::fs::write(env.dir.path().join("list"), lines).unwrap();
    let o = env.run(&["analyze", "--files-from", "list", "--out", "out2", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let statuses: Vec<String> = rows(&env.output("out2", "games.csv"))
        .into_iter()
        .map(|r| r["status"].clone())
        .collect();
    assert_eq!(statuses, ["ok", "ok"]);
    // -0 without --files-from is a usage error.
    let o = env.run(&["analyze", "in", "-0", "--out", "out3"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The same game rotated, mirrored or cut short names its first copy in input order, and
/// merged shards name it as one run does.
#[test]
fn duplicates_are_found_rotated_cut_short_and_across_shards() {
    let env = TestEnv::new();
    let letter = |v: u32| char::from(b'a' + v as u8);
    let game = |n: usize, way: fn(u32, u32) -> (u32, u32)| {
        let moves: String = (0..n as u32)
            .map(|i| {
                let p = (i * 37 + 11) % 361;
                let (x, y) = way(p % 19, p / 19);
                let c = if i % 2 == 0 { 'B' } else { 'W' };
                format!(";{c}[{}{}]", letter(x), letter(y))
            })
            .collect();
        format!("(;GM[1]SZ[19]KM[6.5]RE[B+R]{moves})")
    };
    env.write("a.sgf", game(80, |x, y| (x, y)));
    env.write("b.sgf", game(80, |x, y| (18 - y, x)));
    env.write("c.sgf", game(75, |x, y| (x, y)));
    env.write("d.sgf", game(10, |x, y| (x, y)));
    env.write("e.sgf", game(75, |x, y| (18 - x, y)));
    let all = env.analyze("all", 1);
    let named: Vec<(String, String, String)> = rows(&all)
        .iter()
        .map(|r| {
            (
                r["file"].clone(),
                r["duplicate_of"].clone(),
                r["duplicate_kind"].clone(),
            )
        })
        .collect();
    let want = [
        ("a.sgf", "", ""),
        ("b.sgf", "a.sgf", "same"),
        ("c.sgf", "a.sgf", "prefix"),
        ("d.sgf", "", ""),
        ("e.sgf", "a.sgf", "prefix"),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|&(f, d, k)| (f.into(), d.into(), k.into()))
        .collect();
    assert_eq!(named, want);
    let report = env.output("all", "report.md");
    assert!(
        report.contains("3 games repeat another record") && report.contains("1 same, 2 prefix"),
        "{report}"
    );
    for k in 0..2 {
        let o = env.run(&[
            "analyze",
            "in",
            "--shard",
            &format!("{k}/2"),
            "--out",
            &format!("s{k}"),
            "-q",
        ]);
        assert!(o.status.success());
    }
    // Each shard alone names only the copies it holds; the merge names them all.
    let alone: usize = (0..2)
        .map(|k| {
            rows(&env.output(&format!("s{k}"), "games.csv"))
                .iter()
                .filter(|r| !r["duplicate_of"].is_empty())
                .count()
        })
        .sum();
    assert!(alone < 3, "the shards split the copies: {alone}");
    let o = env.run(&["merge", "s0", "s1", "--out", "m", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(env.output("m", "games.csv"), all);
    assert_eq!(env.output("m", "report.md"), report);
}

/// Shards whose inputs are named differently (two folders, given relative to one shard and
/// absolute to the other) do not split one list: merge refuses them instead of mixing
/// names and dropping or doubling inputs.
#[test]
fn merge_refuses_shards_that_name_their_inputs_differently() {
    let env = TestEnv::new();
    for (i, dir) in ["a", "b"].iter().enumerate() {
        for k in 0..6 {
            env.write(
                &format!("{dir}/{k}.sgf"),
                format!(
                    "(;SZ[9];B[{}{}])",
                    (b'a' + k) as char,
                    (b'a' + i as u8) as char
                ),
            );
        }
    }
    let abs = |d: &str| env.input().join(d).to_str().unwrap().to_string();
    let (a, b) = (abs("a"), abs("b"));
    let o = env.run(&[
        "analyze", "in/a", "in/b", "--shard", "0/2", "--out", "s0", "-q",
    ]);
    assert!(o.status.success());
    let o = env.run(&["analyze", &a, &b, "--shard", "1/2", "--out", "s1", "-q"]);
    assert!(o.status.success());
    let o = env.run(&["merge", "s0", "s1", "--out", "m"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("inputs named differently"), "{stderr}");
    assert!(!env.dir.path().join("m/games.csv").exists());
    // Spelled alike, the same folders merge.
    let o = env.run(&[
        "analyze", "in/a", "in/b", "--shard", "1/2", "--out", "s1b", "-q",
    ]);
    assert!(o.status.success());
    let o = env.run(&["merge", "s0", "s1b", "--out", "m2", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&env.output("m2", "games.csv")).len(), 12);
}

/// `--compress`: the tables are zstd streams of the very bytes a plain run writes; `report`
/// rebuilds from them; shards merge into the tables one compressed run writes (copies named
/// again included); shards of both kinds are refused; a folder that changes kind keeps no
/// stale table.
#[test]
fn compressed_tables_hold_the_plain_bytes_and_merge_and_report_read_them() {
    let env = crate::util::env_with_corpus_games(24);
    // The first 100 moves of a game, named to come first: a copy the whole record, met
    // later, takes over from, so that games.csv is named again.
    let whole = std::fs::read_to_string(&crate::util::corpus_games(1)[0]).unwrap();
    let cut = whole.match_indices(";B[").chain(whole.match_indices(";W["));
    let mut starts: Vec<usize> = cut.map(|(i, _)| i).collect();
    starts.sort_unstable();
    assert!(starts.len() > 120, "{} moves", starts.len());
    env.write("0cut.sgf", format!("{})", &whole[..starts[100]]));
    let run = |args: &[&str]| {
        env.run_ok(args);
    };
    let analyze = |out: &str, more: &[&str]| {
        let mut args = vec!["analyze", "in", "--judge", "estimate", "--out", out, "-q"];
        args.extend(more);
        run(&args);
    };
    analyze("plain", &[]);
    analyze("zst", &["--compress"]);
    analyze("s0", &["--compress", "--shard", "0/2"]);
    analyze("s1", &["--compress", "--shard", "1/2"]);
    run(&["merge", "s1", "s0", "--out", "merged", "-q"]);
    let bytes = |out: &str, name: &str| std::fs::read(env.dir.path().join(out).join(name)).unwrap();
    let games = rows(&env.output("plain", "games.csv"));
    assert!(
        games.iter().any(|g| !g["duplicate_of"].is_empty()),
        "a copy is named"
    );
    for table in ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"] {
        let zst = format!("{table}.zst");
        let unpacked = zstd::decode_all(&bytes("zst", &zst)[..]).unwrap();
        assert!(unpacked == bytes("plain", table), "{table}");
        assert!(
            bytes("merged", &zst) == bytes("zst", &zst),
            "merged {table}"
        );
        assert!(!env.dir.path().join("zst").join(table).exists());
    }
    for name in ["report.md", "summary.csv", "not_benson.csv"] {
        assert_eq!(env.output("zst", name), env.output("plain", name), "{name}");
        assert_eq!(
            env.output("merged", name),
            env.output("zst", name),
            "{name}"
        );
    }
    run(&["report", "zst", "-q"]);
    assert_eq!(
        env.output("zst", "report.md"),
        env.output("plain", "report.md")
    );
    // Shards of both kinds.
    analyze("p1", &["--shard", "1/2"]);
    let o = env.run(&["merge", "s0", "p1", "--out", "mixed", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--compress"));
    // The plain folder written again compressed: only the compressed tables are left.
    analyze("plain", &["--compress"]);
    for table in ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"] {
        assert!(
            !env.dir.path().join("plain").join(table).exists(),
            "{table}"
        );
        assert!(bytes("plain", &format!("{table}.zst")) == bytes("zst", &format!("{table}.zst")));
    }
}
