//! Scores and dead stones against ground truth: the server's TB/TW marks of kgs-6d-2017 and
//! the 54 OGS positions with their dead stones. Skips, with a message, where ../shared is
//! absent. The figures are printed (run with `--nocapture` to see them) and in docs/scoring.md.

use std::collections::BTreeSet;

use livingblocks::go::{Board, Color, Point};
use livingblocks::life::{analyze_life, Net};
use livingblocks::score::estimate_dead;

use crate::util::{rows, shared, TestEnv};

#[test]
fn kgs_markup_reproduces_re_and_the_estimate_finds_the_dead() {
    let Some(kgs) = shared("scored/kgs-6d-2017") else {
        return;
    };
    let env = TestEnv::new();
    let out = env.dir.path().join("out");
    // The estimate judges: its dead stones are what this test measures.
    let run = env.run(&[
        "analyze",
        "--judge",
        "estimate",
        kgs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let games = rows(&std::fs::read_to_string(out.join("games.csv")).unwrap());
    assert_eq!(games.len(), 596);
    let (mut counted, mut markup_ok, mut marked, mut exact) = (0, 0, 0, 0);
    for g in &games {
        assert_eq!(g["status"], "ok", "{}", g["file"]);
        if g["markup_equals_re"].is_empty() {
            continue;
        }
        counted += 1;
        markup_ok += usize::from(g["markup_equals_re"] == "1");
    }
    for g in games.iter().filter(|g| g["has_markup"] == "1") {
        marked += 1;
        exact += usize::from(g["dead_markup"] == g["dead_estimate"]);
    }
    eprintln!("kgs: markup margin = RE in {markup_ok}/{counted}; estimate exact {exact}/{marked}");
    assert_eq!(counted, 573);
    // The server's own count reproduces RE in 571; ours must reach 99 %.
    assert!(markup_ok * 100 >= counted * 99, "{markup_ok}/{counted}");
    // Measured 576/596; a floor, so that a change that loses accuracy fails.
    assert!(exact >= 576, "estimate exact in {exact}/{marked}");
    // The report states the same comparison, each game once: one game of the set is
    // another's copy under other players' names.
    let copies: Vec<_> = games
        .iter()
        .filter(|g| !g["duplicate_of"].is_empty())
        .collect();
    assert_eq!(copies.len(), 1);
    assert_eq!(copies[0]["duplicate_kind"], "same");
    let unique = |g: &&std::collections::HashMap<String, String>| g["duplicate_of"].is_empty();
    let marked = games
        .iter()
        .filter(unique)
        .filter(|g| g["has_markup"] == "1")
        .count();
    let exact = games
        .iter()
        .filter(unique)
        .filter(|g| g["has_markup"] == "1" && g["dead_markup"] == g["dead_estimate"])
        .count();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    for (key, value) in [("games", marked), ("exact", exact)] {
        let row = format!("dead_vs_markup,,{key},{value}\n");
        assert!(summary.contains(&row), "summary.csv lacks {row:?}");
    }
    // The games whose markup leaves hopeless stones standing are named, and the estimate is
    // measured over the others too (docs/scoring.md lists them).
    let doubtful = games
        .iter()
        .filter(|g| !g["markup_doubt"].is_empty())
        .count();
    let exact_undoubted = games
        .iter()
        .filter(|g| g["has_markup"] == "1" && g["markup_doubt"].is_empty())
        .filter(|g| g["dead_markup"] == g["dead_estimate"])
        .count();
    eprintln!(
        "kgs: markup in doubt in {doubtful}; estimate exact in {exact_undoubted} of the others"
    );
    assert_eq!(doubtful, 12);
    assert!(exact_undoubted >= 576, "{exact_undoubted}");
    // The server counted the area games itself: each RE is an area count of its board.
    let checked: Vec<_> = games
        .iter()
        .filter(|g| !g["re_no_area_count"].is_empty())
        .collect();
    let no_area = checked
        .iter()
        .filter(|g| g["re_no_area_count"] == "1")
        .count();
    eprintln!(
        "kgs: RE checked as an area count in {}, none in {no_area}",
        checked.len()
    );
    assert!(checked.len() >= 170, "{}", checked.len());
    assert_eq!(no_area, 0);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let line = format!("In {marked} games with TB/TW markup the estimate calls exactly the marked stones dead in {exact} (");
    assert!(report.contains(&line), "report.md lacks {line:?}");
}

/// An OGS test position: the board, the player to move, and the stones to remove.
fn read_ogs(text: &str) -> (Board, Color, BTreeSet<Point>) {
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut header = |key: &str| -> i32 {
        let l = lines.next().unwrap();
        let (k, v) = l.split_once(' ').unwrap();
        assert_eq!(k, key);
        v.trim().parse().unwrap()
    };
    let (h, w, to_move) = (header("height"), header("width"), header("player_to_move"));
    assert_eq!(h, w, "square boards only");
    let grid: Vec<Vec<i32>> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(grid.len(), 2 * h as usize);
    let mut board = Board::new(h as u8).unwrap();
    let mut dead = BTreeSet::new();
    let (stones, marks) = grid.split_at(h as usize);
    for (y, (row, mark_row)) in stones.iter().zip(marks).enumerate() {
        for (x, (&v, &mark)) in row.iter().zip(mark_row).enumerate() {
            let p = Point::new(x as u8, y as u8);
            let stone = match v {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ => None,
            };
            board.setup(p, stone).unwrap();
            if stone.is_some() && mark == 1 {
                dead.insert(p);
            }
        }
    }
    let to_move = if to_move == -1 {
        Color::White
    } else {
        Color::Black
    };
    (board, to_move, dead)
}

#[test]
fn ogs_positions_dead_stones() {
    let Some(root) = shared("scored/ogs-score-estimator/test_games") else {
        return;
    };
    let mut files: Vec<_> = walkdir::WalkDir::new(&root)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 54);
    let (mut exact, mut tp, mut fp, mut fneg) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    for f in &files {
        let (board, to_move, truth) = read_ogs(&std::fs::read_to_string(f).unwrap());
        let net = Net::build(&board);
        let life = analyze_life(&board, &net, to_move);
        let protected = life.benson_alive_points(&net, board.cell_count());
        let found: BTreeSet<Point> = estimate_dead(&board, to_move, &protected)
            .into_iter()
            .map(|i| board.point(i))
            .collect();
        for p in &found {
            let i = board.idx(*p).unwrap();
            assert!(!protected[i], "{}: killed Benson-alive {p}", f.display());
        }
        tp += found.intersection(&truth).count();
        fp += found.difference(&truth).count();
        fneg += truth.difference(&found).count();
        if found == truth {
            exact += 1;
        } else {
            misses.push(format!(
                "{} {:?} {:?}",
                f.strip_prefix(&root).unwrap().display(),
                found
                    .difference(&truth)
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>(),
                truth
                    .difference(&found)
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "ogs: exact {exact}/54, stone precision {:.3}, recall {:.3}; missed {misses:?}",
        tp as f64 / (tp + fp).max(1) as f64,
        tp as f64 / (tp + fneg).max(1) as f64
    );
    // Measured 52/54 (GNU Go's `final_status_list dead`: 51): a floor.
    assert!(exact >= 50, "exact {exact}/54");
}

/// The fixed sample of 300 counted professional games (tests/fixtures/pro-score-sample.txt,
/// drawn by scripts/score-sample.py): the finished count under the rules the record gives
/// against RE. Measured 197/300 exact, 251 within one point; floors, so that a change that
/// loses accuracy fails (docs/scoring.md compares them with GNU Go).
#[test]
fn the_professional_sample_is_counted_after_finishing() {
    let Some(pro) = shared("pro/games") else {
        return;
    };
    // The estimate judges: its figures, with the net's labels below.
    let games = analyze_sample(&pro, &["--judge", "estimate"]);
    assert_eq!(games.len(), 300);
    let (mut exact, mut within, mut scorable, mut finished) = (0, 0, 0, 0);
    let (mut sure, mut sure_exact, mut sure_within) = (0, 0, 0);
    for g in &games {
        let sign = if g["winner"] == "B" { 1.0 } else { -1.0 };
        let want: f64 = sign * g["margin"].parse::<f64>().unwrap();
        let got: f64 = g["margin_estimate"].parse().unwrap();
        exact += usize::from((got - want).abs() < 1e-3);
        within += usize::from((got - want).abs() <= 1.0 + 1e-3);
        scorable += usize::from(g["unscorable"].is_empty());
        if g["unscorable"].is_empty() && g["finish_unsure"].is_empty() {
            sure += 1;
            sure_exact += usize::from((got - want).abs() < 1e-3);
            sure_within += usize::from((got - want).abs() <= 1.0 + 1e-3);
        }
        finished += usize::from(g["finished_moves"] != "0");
        // The rules come from the record: every game has them.
        assert_ne!(g["rules_source"], "", "{}", g["file"]);
    }
    eprintln!("pro sample: exact {exact}/300, within 1 {within}/300, scorable {scorable}, finished {finished}");
    eprintln!("pro sample, scorable and sure: {sure}, exact {sure_exact}, within 1 {sure_within}");
    // Measured 203 sure, 159 exact (taking a block the finishing left in atari makes the two
    // finishing orders of Oteai/1963/174 differ: unsure), 94 % within one point (96.0 % over
    // the 8,225 sure counts of pro/games): the counts the tool is sure of are within a point
    // of RE in 94 % or more.
    assert!(
        sure >= 190 && sure_exact >= 159,
        "{sure} sure, {sure_exact} exact"
    );
    assert!(
        sure_within * 100 >= sure * 94,
        "{sure_within} of {sure} within one point"
    );
    assert!(exact >= 197, "exact {exact}/300");
    assert!(within >= 253, "within one point {within}/300");
    assert!(finished >= 280, "finished {finished}/300");
    estimate_against_katago_labels(&games, &pro);
}

/// The estimate's dead stones against KataGo's for the same games, from the labels in
/// tests/fixtures/katago-sample.tsv (no engine needed). Measured: the same dead set in 252
/// of 300, 148 stones KataGo alone calls dead; a floor for the estimate's progress.
fn estimate_against_katago_labels(
    games: &[std::collections::HashMap<String, String>],
    pro: &std::path::Path,
) {
    let labels = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/katago-sample.tsv"),
    )
    .unwrap();
    let katago: std::collections::HashMap<String, BTreeSet<&str>> = labels
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let mut f = l.split('\t');
            let file = pro.join(f.next().unwrap()).display().to_string();
            let dead = f.nth(1).unwrap_or("").split_whitespace().collect();
            (file, dead)
        })
        .collect();
    assert_eq!(katago.len(), 300);
    let (mut same, mut stones_katago_only) = (0, 0);
    for g in games {
        let k = &katago[&g["file"]];
        let e: BTreeSet<&str> = g["dead_estimate"].split_whitespace().collect();
        same += usize::from(&e == k);
        stones_katago_only += k.difference(&e).count();
    }
    eprintln!("pro sample against KataGo: the same dead set in {same}/300, {stones_katago_only} stones dead by KataGo only");
    assert!(same >= 252, "the same dead set as KataGo in {same}/300");
}

/// The default judge, KataGo's carried net, on the fixed professional sample: the game's
/// margin (the column `score_source` names) against RE. Measured 264/300 (docs/judge.md:
/// 263 by the fit script, which reads `katago_score` rounded to two places); the rule was
/// fitted on tests/fixtures/pro-held-back.txt, never on these games.
#[test]
#[ignore = "corpus-sized: 300 positions through the net (minutes in a debug build); CI runs it"]
fn the_default_judges_margin_matches_the_professional_sample() {
    let Some(pro) = shared("pro/games") else {
        return;
    };
    let games = analyze_sample(&pro, &[]);
    assert_eq!(games.len(), 300);
    let (mut exact, mut within) = (0, 0);
    for g in &games {
        let sign = if g["winner"] == "B" { 1.0 } else { -1.0 };
        let want: f64 = sign * g["margin"].parse::<f64>().unwrap();
        let column = format!("margin_{}", g["score_source"]);
        let got: f64 = g[&column].parse().unwrap();
        exact += usize::from((got - want).abs() < 1e-3);
        within += usize::from((got - want).abs() <= 1.0 + 1e-3);
    }
    eprintln!("pro sample, the default judge: exact {exact}/300, within 1 {within}/300");
    assert!(exact >= 263, "exact {exact}/300");
    assert!(within >= 287, "within one point {within}/300");
}

/// The default judge on kgs-6d-2017, whose records mark their dead stones: the net's dead
/// set is the markup's in 579 of 596 (docs/judge.md); a floor.
#[test]
#[ignore = "corpus-sized: 596 positions through the net (minutes in a debug build); CI runs it"]
fn the_default_judge_finds_the_dead_stones_players_marked() {
    let Some(kgs) = shared("scored/kgs-6d-2017") else {
        return;
    };
    let env = TestEnv::new();
    let out = env.dir.path().join("out");
    let run = env.run(&[
        "analyze",
        kgs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let games = rows(&std::fs::read_to_string(out.join("games.csv")).unwrap());
    let marked: Vec<_> = games.iter().filter(|g| g["has_markup"] == "1").collect();
    assert_eq!(marked.len(), 596);
    let exact = marked
        .iter()
        .filter(|g| g["dead_markup"] == g["dead_katago"])
        .count();
    eprintln!("kgs: the default judge's dead set = the markup's in {exact}/596");
    assert!(exact >= 579, "exact in {exact}/596");
    // The markup counts where the record has it: the game's margin is the players' count.
    assert!(marked.iter().all(|g| g["score_source"] == "markup"));
}

/// games.csv of `analyze` over tests/fixtures/pro-score-sample.txt's games under `pro`, with
/// `extra` options.
fn analyze_sample(
    pro: &std::path::Path,
    extra: &[&str],
) -> Vec<std::collections::HashMap<String, String>> {
    let env = TestEnv::new();
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/pro-score-sample.txt"),
    )
    .unwrap();
    let list: String = sample
        .lines()
        .map(|f| format!("{}\n", pro.join(f).display()))
        .collect();
    env.write("sample.txt", list);
    let out = env.dir.path().join("out");
    let list_path = env.input().join("sample.txt");
    let mut args = vec!["analyze"];
    args.extend(extra);
    args.extend([
        "--files-from",
        list_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let run = env.run(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    rows(&std::fs::read_to_string(out.join("games.csv")).unwrap())
}
