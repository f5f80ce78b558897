//! `--katago` against a stand-in engine (`tests/fake-katago.py`, KataGo's JSON protocol with
//! canned answers): the columns, the order of answers, determinism, and every fault the
//! client must survive.

use std::path::Path;
use std::process::Command;

use crate::util::{rows, TestEnv};

/// The stand-in engine's command line, with extra arguments.
fn fake(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-katago.py");
    format!("python3 {} -model net.bin.gz {args}", script.display())
}

/// A 9×9 position: Black's wall on the fifth column, White's on the sixth, a white stone at
/// bc in atari inside Black's side (the fake engine gives it to Black), a counted result.
const GAME: &str = "(;SZ[9]KM[6.5]RU[Japanese]RE[B+3.5]\
    AB[ea][eb][ec][ed][ee][ef][eg][eh][ei][ab][ac][ad][bb][bd]\
    AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][bc]PL[W])";

/// Three inputs: two counted games (komi 6.5 and 0.5, the second with a black stone more
/// at ah, so that it is no copy of the first) and a resignation (not asked).
fn env_with_games() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.sgf", GAME);
    env.write(
        "b.sgf",
        GAME.replace("KM[6.5]", "KM[0.5]")
            .replace("AB[ea]", "AB[ah][ea]"),
    );
    env.write("c.sgf", GAME.replace("RE[B+3.5]", "RE[B+R]"));
    env
}

fn analyze_with(env: &TestEnv, out: &str, cmd: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec!["analyze", "in", "--out", out, "--katago", cmd, "-q"];
    args.extend(more);
    env.run(&args)
}

fn by_file(
    text: &str,
) -> std::collections::HashMap<String, std::collections::HashMap<String, String>> {
    rows(text)
        .into_iter()
        .map(|r| (r["file"].clone(), r))
        .collect()
}

#[test]
fn katago_columns_come_from_the_engine() {
    let env = env_with_games();
    let o = analyze_with(&env, "out", &fake(""), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = by_file(&env.output("out", "games.csv"));
    let a = &games["a.sgf"];
    // 14 black stones, 10 white, komi 6.5; territory counting adds no prisoners here.
    assert_eq!(a["katago_lead"], "-2.50");
    assert_eq!(a["margin_katago_lead"], "-2.5");
    // The fake engine expects a score a quarter point above its lead.
    assert_eq!(a["katago_score"], "-2.25");
    assert_eq!(a["margin_katago_score"], "-2.5");
    assert_eq!(a["dead_katago"], "bc");
    assert_eq!(a["final_source"], "katago");
    // The game's margin: the count with the engine's dead stones only near its score.
    let count: f32 = a["margin_katago"].parse().unwrap();
    let near = (count + 2.25).abs() <= livingblocks::score::decision::COUNT_WITHIN;
    let source = if near { "katago" } else { "katago_score" };
    assert_eq!(a["score_source"], source, "count {count}");
    assert_eq!(games["b.sgf"]["katago_lead"], "4.50");
    // Resignations are not asked with `--estimate counted`.
    assert_eq!(games["c.sgf"]["katago_lead"], "");
    assert_eq!(games["c.sgf"]["dead_katago"], "");
    let blocks = rows(&env.output("out", "blocks.csv"));
    let bc = blocks
        .iter()
        .find(|b| b["file"] == "a.sgf" && b["anchor"] == "bc")
        .unwrap();
    assert_eq!(bc["katago_own"], "-1.000");
    assert_eq!(bc["final"], "dead");
    let manifest = env.output("out", "manifest.tsv");
    assert!(
        manifest.contains("katago_version\tfake-1.0\n"),
        "{manifest}"
    );
    assert!(manifest.contains("katago_model\tfake-net\n"));
    assert!(manifest.contains("katago_visits\t1\n"));
    let report = env.output("out", "report.md");
    assert!(report.contains("| katago |"), "{report}");
    assert!(report.contains("| katago lead | 2 |"), "{report}");
    assert!(
        report.contains("### Dead stones: estimate against KataGo\n\nIn 2 games"),
        "{report}"
    );
    let summary = env.output("out", "summary.csv");
    assert!(summary.contains("dead_vs_katago,,games,2\n"), "{summary}");
    // Judged by the estimate alone, the report has no KataGo rows.
    let o = env.run(&[
        "analyze", "in", "--out", "plain", "--judge", "estimate", "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plain = env.output("plain", "report.md");
    assert!(!plain.contains("| katago") && !plain.contains("against KataGo"));
}

#[test]
fn the_same_inputs_give_the_same_tables_at_any_thread_count() {
    let env = env_with_games();
    for (out, j) in [("one", "1"), ("two", "2")] {
        let o = analyze_with(&env, out, &fake(""), &["-j", j]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for t in ["games.csv", "blocks.csv", "summary.csv"] {
        assert_eq!(env.output("one", t), env.output("two", t), "{t}");
    }
}

#[test]
fn an_engine_that_cannot_start_is_exit_2_before_any_output() {
    let env = env_with_games();
    let silent = fake("--silent");
    let garbage = fake("--garbage");
    for (cmd, says, more) in [
        ("/nonexistent/katago analysis", "cannot run", &[][..]),
        ("'unbalanced", "not a command line", &[]),
        (
            silent.as_str(),
            "no answer within 1 s",
            &["--katago-startup", "1"],
        ),
        (garbage.as_str(), "not KataGo's analysis protocol", &[]),
        ("false", "ended", &[]),
    ] {
        let o = analyze_with(&env, "out", cmd, more);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains(says), "{cmd}: {err}");
        assert!(err.contains("--katago"), "{cmd}: {err}");
        assert!(!env.dir.path().join("out/games.csv").exists(), "{cmd}");
    }
}

#[test]
fn an_engine_that_dies_is_restarted_and_nothing_is_lost() {
    let env = env_with_games();
    for i in 0..4 {
        env.write(&format!("more/{i}.sgf"), GAME);
    }
    let o = analyze_with(&env, "calm", &fake(""), &[]);
    assert!(o.status.success());
    let state = env.dir.path().join("deaths");
    let dying = fake(&format!(
        "--die-after 1 --deaths 2 --state {}",
        state.display()
    ));
    let o = env.run(&["analyze", "in", "--out", "dying", "--katago", &dying]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("restarted 2 times"), "{err}");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), "2");
    for t in ["games.csv", "blocks.csv"] {
        assert_eq!(env.output("calm", t), env.output("dying", t), "{t}");
    }
    // One that dies at every start gives up after the restarts.
    let always = fake(&format!(
        "--die-after 1 --deaths 99 --state {}",
        env.dir.path().join("always").display()
    ));
    let o = analyze_with(&env, "never", &always, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("4 times"));
}

#[test]
fn a_refused_position_leaves_its_cells_empty_with_the_reason() {
    let env = env_with_games();
    let o = analyze_with(&env, "out", &fake("--refuse-komi 0.5"), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = by_file(&env.output("out", "games.csv"));
    let b = &games["b.sgf"];
    assert_eq!(b["katago_lead"], "");
    assert_eq!(b["dead_katago"], "");
    assert_eq!(b["score_source"], "estimate");
    assert!(
        b["detail"].contains("katago: komi refused"),
        "{}",
        b["detail"]
    );
    assert_eq!(games["a.sgf"]["katago_lead"], "-2.50");
}

#[test]
fn merge_refuses_shards_of_different_nets() {
    let env = env_with_games();
    for (k, model) in [("0", "net-a"), ("1", "net-b")] {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        let cmd = fake(&format!("--model {model}"));
        let o = analyze_with(&env, &out, &cmd, &["--shard", &shard]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = env.run(&["merge", "s0", "s1", "--out", "merged", "-q"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("katago_model"), "{err}");
}

/// SIGTERM while the engine works: the run exits 143, says so, and the engine is gone with it.
#[test]
fn a_signal_stops_the_engine_too() {
    let env = env_with_games();
    for i in 0..6 {
        env.write(&format!("more/{i}.sgf"), GAME);
    }
    let pids = env.dir.path().join("pids");
    let slow = fake(&format!("--delay 1 --pidfile {}", pids.display()));
    let child = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "in", "--out", "out", "-q", "--katago", &slow])
        .current_dir(env.dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !pids.exists() && started.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143));
    // Even with -q: the one line that says why nothing was written.
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "livingblocks: stopped by SIGTERM; no output written\n"
    );
    let pid: i32 = std::fs::read_to_string(&pids)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    assert!(!alive, "the engine {pid} outlived the run");
    assert!(!env.dir.path().join("out/games.csv").exists());
}

/// A game goes as its moves; a move list the engine refuses is asked again as stones, whose
/// lead then counts the game's prisoners itself (territory counting).
#[test]
fn moves_first_and_stones_when_the_engine_refuses_them() {
    let env = TestEnv::new();
    // White takes Black's corner stone: one prisoner for White.
    env.write(
        "m.sgf",
        "(;SZ[9]KM[6.5]RU[Japanese]RE[W+7.5];B[aa];W[ba];B[ee];W[ab])",
    );
    let o = analyze_with(&env, "moves", &fake(""), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = analyze_with(&env, "stones", &fake("--refuse-moves"), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let moves = by_file(&env.output("moves", "games.csv"));
    let stones = by_file(&env.output("stones", "games.csv"));
    // One black stone, two white, komi 6.5: the engine's own count.
    assert_eq!(moves["m.sgf"]["katago_lead"], "-7.50");
    // The stones alone, and White's prisoner added.
    assert_eq!(stones["m.sgf"]["katago_lead"], "-8.50");
    assert_eq!(moves["m.sgf"]["katago_score"], "-7.25");
    assert_eq!(stones["m.sgf"]["katago_score"], "-8.25");
    assert_eq!(stones["m.sgf"]["detail"], "");
}

/// `show --katago` says what the run writes: the same lead and the same dead stones.
#[test]
fn show_judges_the_final_position_as_the_run_does() {
    let env = env_with_games();
    let o = analyze_with(&env, "out", &fake(""), &[]);
    assert!(o.status.success());
    let games = by_file(&env.output("out", "games.csv"));
    let o = env.run(&["show", "in/a.sgf", "--katago", &fake("")]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lead: f32 = games["a.sgf"]["katago_lead"].parse().unwrap();
    assert!(
        text.contains(&format!("komi {lead:+.2} by its lead")),
        "{text}"
    );
    let score: f32 = games["a.sgf"]["katago_score"].parse().unwrap();
    assert!(
        text.contains(&format!("{score:+.2} by the score")),
        "{text}"
    );
    // bc is B7 on a 9×9 board.
    assert_eq!(games["a.sgf"]["dead_katago"], "bc");
    assert!(text.contains("dead: B7;"), "{text}");
    // The SGF counts with KataGo's dead stones: bc is Black's territory there.
    let o = env.run(&[
        "show",
        "in/a.sgf",
        "--katago",
        &fake(""),
        "--sgf",
        "a-katago.sgf",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sgf = std::fs::read_to_string(env.dir.path().join("a-katago.sgf")).unwrap();
    assert!(sgf.contains("count with the katago dead stones"), "{sgf}");
    let marks = sgf.split(";TB").nth(1).expect("TB on the last node");
    assert!(marks.split("TW").next().unwrap().contains("[bc]"), "{sgf}");
    let o = env.run(&["show", "in/a.sgf", "--move", "0", "--katago", &fake("")]);
    assert_eq!(o.status.code(), Some(2));
}
