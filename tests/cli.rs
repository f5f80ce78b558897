//! The command line end to end: files in a temporary folder → games.csv rows and statuses.

mod util;

use util::{rows, TestEnv};

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
            ("truncated.sgf", "", "parse_error"),
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

    let one = by_file("good/one.sgf", "0");
    assert_eq!(one["size"], "9");
    assert_eq!(one["KM"], "7");
    assert_eq!(one["blocks_b"], "2");
    assert_eq!(one["bytes"], GAME.len().to_string());

    assert_eq!(by_file("collection.sgf", "1")["size"], "13");
    assert!(by_file("collection.sgf", "2")["detail"].contains("not square"));
    assert!(by_file("truncated.sgf", "")["detail"].contains("truncated"));
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
    let corpus = util::corpus();
    let o = env.run(&["analyze", corpus.to_str().unwrap(), "--out", "out", "-q"]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(env.dir.path().join("out/games.csv")).unwrap();
    let rows = rows(&text);
    assert!(rows.len() > 1500, "{} rows", rows.len());
    assert!(rows.iter().all(|r| r["status"] == "ok"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("games/s"), "summary on stderr: {stderr}");
    assert!(!env.dir.path().join("out/games.csv.tmp").exists());
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let env = TestEnv::new();
    let o = env.run(&["analyze", "no-such-folder", "--out", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-folder"));
    assert!(!env.dir.path().join("out/games.csv").exists());
}

#[test]
fn zero_threads_is_a_usage_error() {
    let env = mixed_inputs();
    let o = env.run(&["analyze", "in", "-j", "0"]);
    assert_eq!(o.status.code(), Some(2));
}
