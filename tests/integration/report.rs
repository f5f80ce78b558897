//! The report: written by every run, rebuilt by `livingblocks report DIR` byte for byte, and
//! the scoring columns it reads.

use std::path::Path;

use crate::util::{rows, TestEnv};

/// A counted 9×9 game with TB/TW markup: Black's lone stone at `gc` is dead in White's area.
const COUNTED: &str = "(;GM[1]FF[4]SZ[9]KM[0.5]RU[Japanese]RE[W+4.5]\
    ;B[da];W[ea];B[db];W[eb];B[dc];W[ec];B[dd];W[ed];B[de];W[ee];B[df];W[ef];B[dg];W[eg]\
    ;B[dh];W[eh];B[di];W[ei];B[gc];W[]\
    ;B[]TB[aa][ba][ca][ab][bb][cb][ac][bc][cc][ad][bd][cd][ae][be][ce][af][bf][cf][ag][bg][cg][ah][bh][ch][ai][bi][ci]\
    TW[fa][ga][ha][ia][fb][gb][hb][ib][fc][gc][hc][ic][fd][gd][hd][id][fe][ge][he][ie][ff][gf][hf][if][fg][gg][hg][ig][fh][gh][hh][ih][fi][gi][hi][ii])";

#[test]
fn every_run_writes_the_report_and_report_rebuilds_it() {
    let env = TestEnv::new();
    env.write("counted.sgf", COUNTED);
    env.write("resigned.sgf", "(;SZ[9]RE[B+R];B[ee];W[cc];B[gg])");
    let games = rows(&env.analyze("out", 2));
    let counted = &games[0];
    assert_eq!(counted["has_markup"], "1");
    assert_eq!(counted["dead_markup"], "gc");
    assert_eq!(counted["dead_estimate"], "gc");
    // White 36 points + 1 prisoner, Black 27, komi 0.5: W+10.5, not the W+4.5 recorded.
    assert_eq!(counted["margin_markup"], "-10.5");
    assert_eq!(counted["markup_equals_re"], "0");
    assert_eq!(counted["margin_markup_area"], "-9.5");
    let resigned = &games[1];
    assert_eq!(resigned["has_markup"], "0");
    assert_eq!(
        resigned["dead_estimate"], "",
        "no estimate for a resignation by default"
    );
    assert_eq!(resigned["score_source"], "none");
    let report = env.output("out", "report.md");
    for section in [
        "## Corpus",
        "## Life",
        "## Chains and big eyes",
        "## Results",
    ] {
        assert!(report.contains(section), "{section}");
    }
    // Both rows are ok: a one-bar plot of statuses would say nothing, and is left out.
    assert!(!env.dir.path().join("out/plots/statuses.svg").exists());
    assert!(report.contains("Every row has the same status: no plot of statuses."));
    assert!(!env.dir.path().join("out/plots/big_eyes.svg").exists());
    assert!(report.contains("No big own eyes: no plot of them."));
    for plot in ["endings", "life_blocks", "life_stones", "margin_error"] {
        let svg = env.output("out", &format!("plots/{plot}.svg"));
        assert!(svg.starts_with("<svg"), "{plot}");
        assert!(
            report.contains(&format!("plots/{plot}.svg")),
            "{plot} linked"
        );
    }
    let before: Vec<String> = ["report.md", "summary.csv", "not_benson.csv"]
        .iter()
        .map(|f| env.output("out", f))
        .collect();
    let paper = env.output("out", "plots/boards/bild-6.svg");
    std::fs::remove_file(env.dir.path().join("out/report.md")).unwrap();
    std::fs::remove_file(env.dir.path().join("out/plots/boards/bild-6.svg")).unwrap();
    let o = env.run(&["report", "out"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (f, b) in ["report.md", "summary.csv", "not_benson.csv"]
        .iter()
        .zip(before)
    {
        assert_eq!(env.output("out", f), b, "{f}");
    }
    assert_eq!(env.output("out", "plots/boards/bild-6.svg"), paper);
}

#[test]
fn the_estimate_flag_chooses_the_games() {
    let env = TestEnv::new();
    env.write("resigned.sgf", "(;SZ[9]RE[B+R];B[ee];W[cc];B[gg])");
    for (flag, filled) in [("all", true), ("never", false), ("counted", false)] {
        let o = env.run(&["analyze", "in", "--out", flag, "--estimate", flag, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let g = &rows(&env.output(flag, "games.csv"))[0];
        assert_eq!(!g["margin_estimate_territory"].is_empty(), filled, "{flag}");
    }
    let o = env.run(&["analyze", "in", "--out", "x", "--estimate", "sometimes"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn report_of_a_folder_without_tables_is_an_error() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.dir.path().join("empty")).unwrap();
    let o = env.run(&["report", "empty"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no manifest.tsv"));
}

/// The report reads blocks.csv alongside games.csv, one game at a time: a block whose game
/// games.csv does not list (in the same order) is an error, not a block counted under no
/// ending.
#[test]
fn report_refuses_blocks_of_games_games_csv_lacks() {
    let env = TestEnv::new();
    env.write("counted.sgf", COUNTED);
    env.analyze("out", 1);
    let games = env.output("out", "games.csv");
    let header = games.lines().next().unwrap();
    std::fs::write(env.dir.path().join("out/games.csv"), format!("{header}\n")).unwrap();
    let o = env.run(&["report", "out", "--edited"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not in games.csv"), "{err}");
}

/// An edited table whose cell is not of its column's type is refused, naming the table, the
/// line and the column, whether the report reads that column or not; never read as 0.
#[test]
fn report_names_a_malformed_cell() {
    let env = TestEnv::new();
    env.write("counted.sgf", COUNTED);
    env.analyze("out", 1);
    let path = env.dir.path().join("out/games.csv");
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header = r.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    for (column, bad) in [
        ("stones_b", "abc"),
        ("margin_none", "W+3"),
        ("suspicious", "yes"),
    ] {
        let at = header.iter().position(|h| h == column).unwrap();
        let mut w = csv::Writer::from_path(&path).unwrap();
        w.write_record(&header).unwrap();
        for row in &rows {
            let cells: Vec<&str> = row
                .iter()
                .enumerate()
                .map(|(i, v)| if i == at { bad } else { v })
                .collect();
            w.write_record(&cells).unwrap();
        }
        w.flush().unwrap();
        let o = env.run(&["report", "out", "--edited"]);
        assert_eq!(o.status.code(), Some(2), "{column}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "games.csv line 2, column {column}: \"{bad}\" is not"
            )),
            "{err}"
        );
    }
}

/// `report` from another folder takes the manifest's relative inputs from where the run
/// was started, not from where it is, even where records of the same names lie; and a record
/// replaced since the run is not drawn, which the report says.
#[test]
fn report_elsewhere_reads_the_runs_own_records() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    let read = |p: &str| std::fs::read(corpus.join(p)).unwrap();
    env.write("g.sgf", read("Dosaku/042.sgf"));
    let drawn = || {
        env.dir
            .path()
            .join("out/plots/boards/not-benson-1.svg")
            .exists()
    };
    let o = env.run(&["analyze", "in", "--out", "out", "-q"]);
    assert!(o.status.success());
    assert!(drawn());
    let elsewhere = env.dir.path().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("in")).unwrap();
    std::fs::write(elsewhere.join("in/g.sgf"), read("Honinbo_Chihaku/1.sgf")).unwrap();
    let report_from_elsewhere = || {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .args(["report", "../out", "-q"])
            .current_dir(&elsewhere)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        env.output("out", "report.md")
    };
    let report = report_from_elsewhere();
    assert!(!report.contains("not the record the run read"), "{report}");
    assert!(drawn());
    // The run's own input replaced by another record of the same name: not drawn.
    env.write("g.sgf", read("Honinbo_Chihaku/1.sgf"));
    let report = report_from_elsewhere();
    assert!(
        report.contains("g.sgf (game 0: not the record the run read)"),
        "{report}"
    );
    assert!(!drawn());
}

/// The examples of `report --help` work as written on the folder of a run: the first as it
/// is, the second after filtering games.csv and blocks.csv alike (here: keeping one game).
#[test]
fn the_examples_of_report_help_work() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    for (i, p) in ["Dosaku/042.sgf", "Honinbo_Chihaku/1.sgf"]
        .iter()
        .enumerate()
    {
        env.write(&format!("g{i}.sgf"), std::fs::read(corpus.join(p)).unwrap());
    }
    let o = env.run(&["analyze", "in", "--out", "reports", "-q"]);
    assert!(o.status.success());
    let help = String::from_utf8(env.run(&["report", "--help"]).stdout).unwrap();
    let examples: Vec<Vec<String>> = help
        .lines()
        .filter_map(|l| l.trim().strip_prefix("livingblocks "))
        .map(|l| {
            let args = l.split('#').next().unwrap();
            args.split_whitespace().map(str::to_string).collect()
        })
        .collect();
    assert_eq!(examples.len(), 2, "{help}");
    let run_example = |k: usize| {
        let args: Vec<&str> = examples[k].iter().map(String::as_str).collect();
        let o = env.run(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run_example(0);
    for table in ["games.csv", "blocks.csv"] {
        let path = env.dir.path().join("reports").join(table);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<&str> = text
            .lines()
            .enumerate()
            .filter(|(i, l)| *i == 0 || l.starts_with("g0.sgf"))
            .map(|(_, l)| l)
            .collect();
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    }
    run_example(1);
    let report = env.output("reports", "report.md");
    assert!(
        report.contains("changed after the run (`report --edited`): `blocks.csv`, `games.csv`"),
        "{report}"
    );
}

/// A run given absolute paths records no starting folder: its outputs do not depend on where
/// it was started (a cluster's merge equals one run from anywhere).
#[test]
fn absolute_inputs_record_no_starting_folder() {
    let env = TestEnv::new();
    env.write("g.sgf", "(;SZ[9]KM[0]RE[B+1];B[cc];W[gg])");
    let abs = env.input();
    let o = env.run(&["analyze", abs.to_str().unwrap(), "--out", "out", "-q"]);
    assert!(o.status.success());
    assert!(!env.output("out", "manifest.tsv").contains("started_in"));
    let o = env.run(&["analyze", "in", "--out", "out", "-q"]);
    assert!(o.status.success());
    assert!(env
        .output("out", "manifest.tsv")
        .contains("started_in\t..\n"));
}

/// Headless Chromium, if this machine has it (`.ci/run` installs Debian's package).
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// report.html opens in a browser as report.md reads: every table and every figure of
/// report.md is in the page Chromium builds from it, with the script that sorts the tables,
/// and it asks the network for nothing (Chromium's own calls home aside). A phone-sized
/// screenshot is left in the test's output folder.
#[test]
fn the_html_report_opens_in_a_browser_with_every_table_and_figure_and_no_network() {
    let Some(browser) = chromium() else {
        crate::util::skip("no headless Chromium (apt-get install chromium)");
        return;
    };
    let env = crate::util::env_with_games(40);
    let o = env.run(&["analyze", "in", "--out", "out", "--judge", "estimate", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = env.output("out", "report.md");
    let page = env.dir.path().join("out/report.html");
    let tables = md.lines().filter(|l| l.starts_with("|---")).count();
    let figures = md.matches("](plots/").count();
    assert!(
        tables > 10 && figures > 3,
        "{tables} tables, {figures} figures"
    );
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-html");
    std::fs::create_dir_all(&shots).unwrap();
    let net_log = env.dir.path().join("net.json");
    let quiet = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--no-first-run",
    ];
    let url = format!("file://{}", page.display());
    let dom = std::process::Command::new(browser)
        .args(quiet)
        .arg(format!("--log-net-log={}", net_log.display()))
        .args(["--dump-dom", &url])
        .output()
        .unwrap();
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(dom.matches("<table").count(), tables, "tables");
    assert_eq!(dom.matches("<svg").count(), figures, "figures");
    assert!(
        !dom.contains("not available)"),
        "a plot missing from the page"
    );
    assert!(
        dom.contains("querySelectorAll('table')"),
        "the sorting script"
    );
    // Every address the browser asked for: the file itself, or Chromium's own services.
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&net_log).unwrap()).unwrap();
    let mut asked = Vec::new();
    fn urls(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x.as_str()) {
                        ("url" | "original_url", Some(u)) => out.push(u.to_string()),
                        _ => urls(x, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| urls(x, out)),
            _ => {}
        }
    }
    urls(&log["events"], &mut asked);
    let own = ["google.com/", "googleapis.com/", "gvt1.com/"];
    let fetched: Vec<&String> = asked
        .iter()
        .filter(|u| u.starts_with("http"))
        .filter(|u| {
            !own.iter()
                .any(|o| u.split('?').next().unwrap_or("").contains(o))
        })
        .collect();
    assert!(
        fetched.is_empty(),
        "the page asked the network for {fetched:?}"
    );
    let shot = shots.join("phone.png");
    let o = std::process::Command::new(browser)
        .args(quiet)
        .arg(format!("--screenshot={}", shot.display()))
        .args(["--window-size=412,2400", &url])
        .output()
        .unwrap();
    assert!(
        o.status.success() && shot.is_file(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    eprintln!("report.html on a phone-sized screen: {}", shot.display());
}
