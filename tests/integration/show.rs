//! `livingblocks show` and the report's board diagrams: the text a terminal shows, SVG that
//! parses as XML, and marks that are exactly the stones the tables name.

use crate::util::{rows, TestEnv};

/// Black's corner block with two eyes (A9 and C9), White's wall below it, then two moves.
const CORNER: &str = "(;SZ[9]KM[0]PB[Black]PW[White]RE[B+R]AB[ba][da][ab][bb][cb][db][eb][ea]\
    AW[fa][fb][fc][ec][dc][cc][bc][ac];W[hh];B[gg])";

#[test]
fn show_prints_the_board_and_every_verdict() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    let o = env.run(&["show", "in/corner.sgf", "--judge", "estimate"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let expected = "\
in/corner.sgf game 0, Black (B) – White (W), RE B+R
move 2, the end of the record, White to move

    A B C D E F G H J
  9 . X . X X O . . . 9
  8 X X X X X O . . . 8
  7 O O O O O O + . . 7
  6 . . . . . . . . . 6
  5 . . . . + . . . . 5
  4 . . . . . . . . . 4
  3 . . + . . .(x). . 3
  2 . . . . . . . O . 2
  1 . . . . . . . . . 1

X O stones, x o dead by the estimate, # @ alive by mp95 and not by Benson,
(X) the last stone, . an empty point, + an empty star point.
Unconditional territory (Benson): Black 2, White 0 points.

Finished before counting, the dead stones by the estimate: 0 moves.
Counted after them: W+61.

block        stones libs benson mp95 mpfix mp95_eyes mpfix_eyes dead
B B9 (ba)         8    2    yes  yes   yes       yes        yes    -
W F9 (fa)         8    9      -    -     -         -          -    -
B G3 (gg)         1    4      -    -     -         -          -  yes
";
    assert_eq!(text, expected);

    // An earlier move, as SVG: valid XML, every stone drawn, the last stone ringed.
    let o = env.run(&["show", "in/corner.sgf", "--move", "1", "--out", "one.svg"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(env.dir.path().join("one.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
    let stones = doc
        .descendants()
        .filter(|n| n.attribute("data-stone").is_some())
        .count();
    assert_eq!(stones, 17);
    let last: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-mark") == Some("last"))
        .filter_map(|n| n.attribute("data-point"))
        .collect();
    assert_eq!(last, ["hh"]);
    // Benson's territory (A9 and C9) has its own mark, not the count's.
    let benson: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-mark") == Some("benson-b"))
        .filter_map(|n| n.attribute("data-point"))
        .collect();
    assert_eq!(benson, ["aa", "ca"]);

    for (args, why) in [
        (vec!["show", "in/corner.sgf", "--game", "3"], "no game 3"),
        (vec!["show", "in/none.sgf"], "no such file"),
    ] {
        let o = env.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(why), "{args:?}");
    }
}

/// A counted record that stops before the dame are filled (the board of
/// `finish::tests::a_cutting_point_inside_the_wall_costs_a_point_of_territory`): `show`
/// lists the moves the count is made after and the margin they give, which RE confirms.
/// White, starting, would fill the dame itself and spare the teire: one point less for Black.
#[test]
fn show_lists_the_finishing_moves_of_a_counted_record() {
    let env = TestEnv::new();
    env.write(
        "cut.sgf",
        "(;SZ[7]KM[0]RU[Japanese]PL[B]RE[B+14]AB[ea][eb][ec][dd][ed][de][df][cf][bf][af]\
         AW[da][db][ac][bc][cc][cd][ae][be][ce])",
    );
    let o = env.run(&["show", "in/cut.sgf", "--judge", "estimate"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(
            "Finished before counting, the dead stones by the estimate: 2 moves (B D5 dame, W C7 defend), \
             unsure: order.\n\
             Counted after them: B+14; B+13 if White starts the finishing.\n"
        ),
        "{text}"
    );
    // A resigned game is finished and counted as `analyze --estimate all` counts it.
    env.write(
        "cut.sgf",
        "(;SZ[7]KM[0]RU[Chinese]RE[W+R]AB[ea][eb][ec]AW[ba][bb][bc])",
    );
    let o = env.run(&["show", "in/cut.sgf", "--judge", "estimate"]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let o = env.run(&[
        "analyze",
        "in",
        "--out",
        "all",
        "--estimate",
        "all",
        "--judge",
        "estimate",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = env.output("all", "games.csv");
    let row = rows(&games)
        .into_iter()
        .find(|r| r["file"] == "cut.sgf")
        .unwrap();
    assert_eq!(row["finished_moves"], "0", "{text}");
    let margin: f32 = row["margin_estimate"].parse().unwrap();
    let said = if margin > 0.0 {
        format!("B+{margin}")
    } else {
        format!("W+{}", -margin)
    };
    assert!(
        text.contains(&format!("Counted after them: {said}")),
        "{said}: {text}"
    );
}

/// A counted record whose finish leaves a seki: `show` says where, the two liberties that
/// Black's inner stones and White's blocks share (the board of
/// `finish::tests::a_seki_keeps_its_shared_liberties`).
#[test]
fn show_says_where_the_finishing_is_unsure() {
    let env = TestEnv::new();
    env.write(
        "seki.sgf",
        "(;SZ[9]KM[0]RU[Japanese]PL[B]RE[W+13]\
         AB[da][ha][db][fb][hb][dc][ec][fc][gc][hc][dd][fd][hd]\
         AW[aa][ca][ea][fa][ga][ia][ab][bb][cb][ib][ac][cc][ic][ad][bd][cd][ed][gd][id][ae]\
         [ce][de][ee][fe][ge][he][ie][af][bf][cf][df][ef][ff][gf][hf][if][bg][dg][fg][hg][ah]\
         [bh][ch][dh][eh][fh][gh][hh][ih][bi][di][fi][hi])",
    );
    let o = env.run(&["show", "in/seki.sgf"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(
            "Finished before counting, the dead stones by KataGo's net: 0 moves, \
             unsure: seki (at E8, G8).\nCounted after them: W+13.\n"
        ),
        "{text}"
    );
}

#[test]
fn show_reads_an_archive_member_as_games_csv_names_it() {
    let env = TestEnv::new();
    let zip = std::fs::File::create(env.dir.path().join("g.zip")).unwrap();
    let mut z = zip::ZipWriter::new(zip);
    z.start_file("a/corner.sgf", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut z, CORNER.as_bytes()).unwrap();
    z.finish().unwrap();
    let o = env.run(&["show", "g.zip!a/corner.sgf", "--ascii"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("B B9 (ba)         8"));
}

/// The report's diagram of a game with blocks mp95 calls alive and Benson does not marks
/// exactly their stones: as many triangles as not_benson.csv counts stones, on its anchors.
#[test]
fn a_diagram_marks_exactly_the_blocks_the_table_names() {
    let env = TestEnv::new();
    let game = std::fs::read(crate::util::corpus().join("Dosaku/042.sgf")).unwrap();
    env.write("042.sgf", game);
    env.analyze("out", 1);
    let listed = rows(&env.output("out", "not_benson.csv"));
    assert!(!listed.is_empty());
    let svg = env.output("out", "plots/boards/not-benson-1.svg");
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
    let mut marked: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-mark") == Some("triangle"))
        .filter_map(|n| n.attribute("data-point"))
        .collect();
    marked.sort_unstable();
    let stones: usize = listed
        .iter()
        .filter(|r| r["mp95"] == "1")
        .map(|r| r["stones"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(marked.len(), stones);
    for r in &listed {
        assert!(marked.contains(&r["anchor"].as_str()), "{}", r["anchor"]);
    }
    let report = env.output("out", "report.md");
    assert!(report.contains("![not-benson-1](plots/boards/not-benson-1.svg)"));
    assert!(report.contains("`042.sgf` game 0"));
    assert!(
        report.contains("Q7 (pm)"),
        "Go coordinates with the SGF point beside"
    );
    // The paper's examples are drawn whatever the input.
    for f in ["bild-6", "bild-9"] {
        let svg = env.output("out", &format!("plots/boards/{f}.svg"));
        roxmltree::Document::parse(&svg).expect("the SVG is XML");
    }
    // Rebuilt where the inputs are gone: no diagram of a game, and a line saying why.
    std::fs::rename(env.input(), env.dir.path().join("moved")).unwrap();
    let o = env.run(&["report", "out", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!env
        .dir
        .path()
        .join("out/plots/boards/not-benson-1.svg")
        .exists());
    assert!(env.dir.path().join("out/plots/boards/bild-6.svg").exists());
    let report = env.output("out", "report.md");
    assert!(report.contains("No board diagrams of games"));
    assert!(!report.contains("not-benson-1.svg"));
}

/// `show --sgf` writes a record that sgfmill reads (where it is installed) and that the
/// project's own reader replays to the counted position: the markup it writes is the
/// estimate's count, so the run scores the written record as it scored the original.
#[test]
fn show_writes_an_sgf_a_go_editor_and_the_run_read_back() {
    let env = TestEnv::new();
    // Chinese counting: the setup carries no prisoners, and an area count needs none.
    let record = "(;SZ[9]KM[0.5]RU[Chinese]RE[W+9.5]PB[Black]PW[White]\
        AB[da][db][dc][dd][de][df][dg][dh][di]AW[ea][eb][ec][ed][ee][ef][eg][eh][bb]\
        AW[fa][fb][fc][fd][fe][ff][fg][fh][fi];B[])";
    env.write("g.sgf", record);
    let o = env.run(&["show", "in/g.sgf", "--sgf", "in/out.sgf"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "--sgf alone prints nothing");
    let written = std::fs::read_to_string(env.input().join("out.sgf")).unwrap();
    assert!(
        written.contains("TB[") && written.contains("TW["),
        "{written}"
    );
    let games = rows(&env.analyze("out", 1));
    let row = |f: &str| games.iter().find(|r| r["file"] == f).unwrap().clone();
    let (original, back) = (row("g.sgf"), row("out.sgf"));
    assert_eq!(back["has_markup"], "1");
    assert_eq!(back["dead_markup"], original["dead_estimate"]);
    assert_eq!(back["dead_markup"], "bb");
    assert_eq!(back["margin_markup"], original["margin_estimate"]);
    assert_eq!(back["markup_equals_re"], "1");
    let script = "import sys\nfrom sgfmill import sgf\n\
        g = sgf.Sgf_game.from_bytes(open(sys.argv[1], 'rb').read())\n\
        seq = g.get_main_sequence()\n\
        b, w, _ = seq[0].get_setup_stones()\n\
        print(len(b), len(w), len(seq), len(seq[-1].get('TB')), len(seq[-1].get('TW')))\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(env.input().join("out.sgf"))
        .output();
    match out {
        Ok(o) if o.status.success() => {
            // 9 black and 18 white stones; the root, the record's pass, one finishing move,
            // the two passes that end the game, the marks' node;
            // Black's 27 points include bb; White's are the 27 behind its wall (its finishing
            // stone fills ei).
            assert_eq!(String::from_utf8_lossy(&o.stdout), "9 18 6 27 27\n");
        }
        Ok(o) => crate::util::skip(&format!(
            "sgfmill could not read the SGF (pip install sgfmill): python3 says: {}",
            String::from_utf8_lossy(&o.stderr)
                .trim()
                .lines()
                .last()
                .unwrap_or("nothing")
        )),
        Err(e) => crate::util::skip(&format!("python3 cannot run ({e}): no sgfmill check")),
    }
}

/// A count diagram numbers the finishing moves in the order `show` lists them, marks each
/// side's territory, and carries the game, the players and the count as text; blocks mp95
/// calls alive and Benson does not have their shared eyes marked, the vital one apart.
#[test]
fn diagrams_show_the_finish_the_territory_and_the_eyes() {
    let env = TestEnv::new();
    let record = crate::util::corpus().join("Dosaku/042.sgf");
    let record = record.to_str().unwrap();
    let o = env.run(&[
        "show", record, "--out", "d.svg", "--ascii", "--judge", "estimate",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let svg = std::fs::read_to_string(env.dir.path().join("d.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    let listed = text
        .split("by the estimate: ")
        .nth(1)
        .and_then(|t| t.split(" moves (").next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("show lists the finishing moves");
    let numbered = svg.matches(r#"data-mark="move-"#).count();
    assert_eq!(numbered, listed, "{text}");
    // The first move listed is White's at G11 (SGF gi).
    assert!(text.contains("moves (W G11 "), "{text}");
    assert!(
        svg.contains(r#"data-mark="move-w" data-point="gi" data-number="1""#),
        "{svg}"
    );
    assert!(svg.contains(r#"data-mark="territory-w""#));
    assert!(svg.contains(r#"data-mark="vital-eye""#));
    assert!(svg.contains(r#"data-mark="shared-eye""#));
    assert!(svg.contains("Honinbo Dosaku (B) – Sugimura Saburozaemon (W)"));
    assert!(svg.contains("count with the estimate dead stones, japanese rules"));
}

/// Asked for a move past the end, `show` draws the end and says so.
#[test]
fn a_move_past_the_end_is_named() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    let o = env.run(&["show", "in/corner.sgf", "--move", "999"]);
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("the record has 2 moves, not 999: this is its end"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("move 2, the end of the record"));
}

/// With `-q`, as in every command, the note goes and the drawing stays.
#[test]
fn show_q_leaves_the_drawing_and_drops_the_notes() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    let o = env.run(&["show", "in/corner.sgf", "--move", "999", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert!(String::from_utf8_lossy(&o.stdout).contains("move 2, the end of the record"));
    let o = env.run(&["show", "in/corner.sgf", "--quiet", "--out", "b.svg"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert!(env.dir.path().join("b.svg").is_file());
}

/// A folder given to `show` is named as a folder (a usage error, 2), not as a missing file.
#[test]
fn show_given_a_folder_says_it_takes_a_file() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    let o = env.run(&["show", "in"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("in: a folder; show draws one game of one file"),
        "{stderr}"
    );
    assert!(!stderr.contains("no such file"), "{stderr}");
    assert!(o.stdout.is_empty());
}

/// `show --help` describes its own --katago and --net, which judge the one final position
/// shown, not analyze's many positions.
#[test]
fn show_help_describes_its_own_engine_options() {
    let env = TestEnv::new();
    let help = |cmd: &str| String::from_utf8(env.run(&[cmd, "--help"]).stdout).unwrap();
    let (show, analyze) = (help("show"), help("analyze"));
    let analyze_katago = "about every position the estimate selects";
    assert!(analyze.contains(analyze_katago), "{analyze}");
    assert!(!show.contains(analyze_katago), "{show}");
    for words in [
        "about the final position of the game shown",
        "(not with --move)",
        "Judge that final position with a KataGo network",
    ] {
        assert!(show.contains(words), "show --help lacks {words:?}:\n{show}");
    }
}

/// `show` finds any file a run names: a name with bytes that are not UTF-8, or with `!`, as
/// the file system has it or as games.csv writes it.
#[test]
fn show_finds_files_whose_names_need_escaping() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    env.write("x!y.sgf", CORNER);
    let odd = std::ffi::OsStr::from_bytes(b"in/a\xffb.sgf");
    std::fs::write(env.dir.path().join(odd), CORNER).unwrap();
    let games = env.analyze("out", 1);
    let names: Vec<String> = rows(&games).iter().map(|r| r["file"].clone()).collect();
    assert_eq!(names, ["a\\xFFb.sgf", "x\\!y.sgf"]);
    for arg in [
        odd,
        "in/x!y.sgf".as_ref(),
        "in/a\\xFFb.sgf".as_ref(),
        "in/x\\!y.sgf".as_ref(),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .arg("show")
            .arg(arg)
            .current_dir(env.dir.path())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{arg:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("RE B+R"), "{text}");
    }
}

/// `show` never writes over the record it draws: not under its own name, a symbolic link
/// or a hard link to it, nor over the archive it comes from; and not both drawings into one
/// file. Each is a usage error (2), and the record is left as it was.
#[test]
fn show_never_writes_over_its_input() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    let input = env.dir.path().join("in/corner.sgf");
    std::os::unix::fs::symlink(&input, env.dir.path().join("link.sgf")).unwrap();
    std::fs::hard_link(&input, env.dir.path().join("hard.sgf")).unwrap();
    for flag in ["--out", "--sgf"] {
        for out in ["in/corner.sgf", "in/./corner.sgf", "link.sgf", "hard.sgf"] {
            let o = env.run(&["show", "in/corner.sgf", flag, out]);
            assert_eq!(o.status.code(), Some(2), "{flag} {out}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("is the record shown"), "{flag} {out}: {err}");
        }
    }
    let o = env.run(&["show", "in/corner.sgf", "--out", "x.svg", "--sgf", "x.svg"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), CORNER);
    // An archive's member: the archive is the input.
    let zip = env.dir.path().join("in/games.zip");
    {
        let mut w = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        w.start_file("a.sgf", zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut w, CORNER.as_bytes()).unwrap();
        w.finish().unwrap();
    }
    let before = std::fs::read(&zip).unwrap();
    let o = env.run(&["show", "in/games.zip!a.sgf", "--sgf", "in/games.zip"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(&zip).unwrap(), before);
    let o = env.run(&["show", "in/games.zip!a.sgf", "--sgf", "drawn.sgf"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Where `show`'s output cannot go: a folder in the way is a usage error (2), found before
/// any work, as for `analyze --out`; a full disk is a failed write (1), never silence.
#[test]
fn show_says_when_its_output_cannot_be_written() {
    let env = TestEnv::new();
    env.write("corner.sgf", CORNER);
    std::fs::create_dir_all(env.dir.path().join("taken.svg")).unwrap();
    for flag in ["--out", "--sgf"] {
        let o = env.run(&["show", "in/corner.sgf", flag, "taken.svg"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("a folder where an output file goes"));
    }
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["show", "in/corner.sgf"])
        .current_dir(env.dir.path())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("No space left on device"));
    // A drawing is SVG: a name that says otherwise is refused, not filled with SVG.
    for name in ["x.png", "x"] {
        let o = env.run(&["show", "in/corner.sgf", "--out", name]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("ending in .svg"));
        assert!(!env.dir.path().join(name).exists());
    }
    let o = env.run(&["show", "in/corner.sgf", "--out", "X.SVG", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The one scoring decision: for every game of a corpus sample, `show`'s count (its source,
/// margin and finishing) is the run's, with the estimate on every game (resignations
/// finished and counted too) and with an engine's dead stones; no game is skipped.
#[test]
fn shows_count_is_the_runs_count() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    let folders = ["Hayashi_Genbi", "Sekiyama_Sendayu", "Honinbo_Doetsu"];
    for f in folders {
        copy_folder(&corpus.join(f), &env.dir.path().join("in").join(f));
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-katago.py");
    let engine = format!("python3 {} -model net.bin.gz", script.display());
    for (out, more) in [
        ("all", vec!["--judge", "estimate"]),
        ("engine", vec!["--katago", engine.as_str()]),
    ] {
        let mut args = vec!["analyze", "in", "--out", out, "--estimate", "all", "-q"];
        args.extend(more);
        let o = env.run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let games = env.output(out, "games.csv");
        let mut compared = 0;
        let mut resigned = 0;
        for row in rows(&games) {
            assert_eq!(row["status"], "ok", "{}", row["file"]);
            let bytes = std::fs::read(env.dir.path().join("in").join(&row["file"])).unwrap();
            let game: usize = row["game"].parse().unwrap();
            let dead: Vec<livingblocks::go::Point> = row["dead_katago"]
                .split_whitespace()
                .map(|p| livingblocks::go::Point::from_sgf(p).unwrap())
                .collect();
            let engine = (out == "engine").then_some(&dead[..]);
            let l = livingblocks::look::look_judged(&bytes, game, None, engine).unwrap();
            let count = l.count.expect("every replayed game is counted");
            let source = count.source.name();
            let at = format!("{} game {game} ({out})", row["file"]);
            assert_eq!(source, row["final_source"], "{at}");
            let shown = count.margin.map(|m| m.to_string()).unwrap_or_default();
            assert_eq!(shown, row[&format!("margin_{source}")], "{at}");
            let moves = l.finishing.as_ref().map_or(0, |f| f.moves.len());
            assert_eq!(moves.to_string(), row["finished_moves"], "{at}");
            resigned += usize::from(row["how"] == "resign");
            compared += 1;
        }
        assert!(
            compared > 40 && resigned > 10,
            "{compared} games, {resigned} resigned"
        );
    }
}

/// Copies the files of folder `from` into `to`.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// `show --sgf` writes the game an editor can recount: the record's moves (so its prisoners
/// are the game's), the finishing moves, the colours alternating (a pass between two moves
/// of one colour), two passes, HA/KM/RU as counted (inferred here: Japanese rules and a
/// handicap, Chinese rules by the place), and TB/TW that a run counts to the count the
/// closing comment states. Games from the embedded corpus: a handicap game, an even one and
/// a Chinese one, each with captures.
#[test]
fn show_sgf_writes_the_game_its_count_can_be_recounted_from() {
    let env = TestEnv::new();
    let games = ["Dosaku/015.sgf", "Dosaku/035.sgf", "old_chinese/DH10.sgf"];
    for (k, g) in games.iter().enumerate() {
        env.write(
            &format!("o{k}.sgf"),
            std::fs::read(crate::util::corpus().join(g)).unwrap(),
        );
        let (original, out) = (format!("in/o{k}.sgf"), format!("in/w{k}.sgf"));
        let o = env.run(&["show", &original, "--sgf", &out, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let table = rows(&env.analyze("out", 2));
    let row = |f: String| table.iter().find(|r| r["file"] == f).unwrap();
    let taken = |r: &std::collections::HashMap<String, String>| {
        ["captures_b", "captures_w"].map(|c| r[c].parse::<u32>().unwrap())
    };
    for (k, g) in games.iter().enumerate() {
        let text = std::fs::read_to_string(env.input().join(format!("w{k}.sgf"))).unwrap();
        let root = &text[..text.find("\n;").unwrap()];
        for id in ["HA[", "KM[", "RU["] {
            assert!(root.contains(id), "{g}: no {id} in {root}");
        }
        let colours: Vec<char> = text
            .split("\n;")
            .skip(1)
            .filter_map(|node| node.chars().next().filter(|c| *c == 'B' || *c == 'W'))
            .collect();
        assert!(
            colours.windows(2).all(|w| w[0] != w[1]),
            "{g}: one colour plays twice"
        );
        assert!(text.contains("\n;B[]") && text.contains("\n;W[]"), "{g}");
        // The closing comment: "Black 60 (...), White 37 (...): B+23".
        let sides = text.rsplit("\nBlack ").next().unwrap();
        let number = |s: &str| s.split(' ').next().unwrap().parse::<f32>().unwrap();
        let black = number(sides);
        let white = number(sides.split("White ").nth(1).unwrap());
        let (original, back) = (row(format!("o{k}.sgf")), row(format!("w{k}.sgf")));
        assert_eq!(back["has_markup"], "1", "{g}");
        let markup: f32 = back["margin_markup"].parse().unwrap();
        assert_eq!(markup, black - white, "{g}: {sides}");
        assert_eq!(back["margin_markup"], original["margin_estimate"], "{g}");
        // The game's prisoners, and those of the finishing.
        let (before, after) = (taken(original), taken(back));
        assert!(before[0] > 0 && before[1] > 0, "{g}");
        assert!(after[0] >= before[0] && after[1] >= before[1], "{g}");
    }
    let root = |k: usize| {
        let text = std::fs::read_to_string(env.input().join(format!("w{k}.sgf"))).unwrap();
        text[..text.find("\n;").unwrap()].to_string()
    };
    assert!(root(0).contains("HA[2]KM[0]RU[Japanese]"), "{}", root(0));
    assert!(root(2).contains("RU[Chinese]"), "{}", root(2));
}

/// Issue 51 on a real record whose finishing captures the record's stones and its own, and
/// plays 28 where its 21 was taken: every captured stone is marked, the move on a taken
/// move's point is a note, no mark lies under a numbered stone, and every legend line has
/// its mark on the board.
#[test]
fn a_finish_that_captures_is_drawn_without_hiding_anything() {
    let env = TestEnv::new();
    let record = crate::util::corpus().join("Hoensha/A02-3.sgf");
    let o = env.run(&["show", record.to_str().unwrap(), "--out", "d.svg", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(env.dir.path().join("d.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let in_badge = |n: roxmltree::Node| n.ancestors().any(|a| a.attribute("data-badge").is_some());
    // (mark, point) of everything drawn on the board itself.
    let on: Vec<(&str, &str)> = doc
        .descendants()
        .filter(|n| n.attribute("data-at").is_none() && !in_badge(*n))
        .filter_map(|n| Some((n.attribute("data-mark")?, n.attribute("data-point")?)))
        .collect();
    let at = |m: &str| -> Vec<&str> { on.iter().filter(|o| o.0 == m).map(|o| o.1).collect() };
    // White's 21 at P13 (SGF og) is taken and shown faded; Black's 28 there is a note.
    assert_eq!(at("move-w-captured"), ["og"]);
    let notes: Vec<(&str, &str)> = doc
        .descendants()
        .filter(|n| n.attribute("data-at").is_some())
        .map(|n| (n.attribute("data-point").unwrap(), n.text().unwrap()))
        .collect();
    assert_eq!(notes, [("og", "28 at 21")]);
    // The record's white stones the finishing takes at N14 to R14 (mf..qf) among them.
    let captured = at("captured");
    for p in ["mf", "nf", "of", "pf", "qf"] {
        assert!(
            captured.contains(&p),
            "{p} not marked captured: {captured:?}"
        );
    }
    // Benson's territory and the count's have marks of their own.
    assert!(!at("benson-w").is_empty() && !at("territory-w").is_empty());
    // No mark on the board under a numbered stone but a captured stone's ring.
    for &(m, p) in &on {
        if m.starts_with("move-") {
            let under: Vec<&str> = on
                .iter()
                .filter(|o| o.1 == p && o.0 != m && o.0 != "captured")
                .map(|o| o.0)
                .collect();
            assert!(under.is_empty(), "{under:?} under {m} at {p}");
        }
    }
    // Every legend line names a mark the board draws.
    for n in doc.descendants() {
        if let Some(l) = n.attribute("data-legend").filter(|&l| l != "badge") {
            assert!(
                svg.contains(&format!(r#"data-mark="{l}" data-point"#)),
                "{l}"
            );
        }
    }
}
