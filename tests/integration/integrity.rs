//! The output set as one unit: a manifest naming every output with its size and SHA-256,
//! written last; readers (merge, report) that refuse what does not match; checks of --out
//! before any work; a killed run's stage removed by the next.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::util::{env_with_games, killed_at, rows, snapshot, TestEnv, COMMIT, GAME};

/// Every file under `dir` but the manifest and hidden ones, relative, sorted.
fn outputs(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|f| f != "manifest.tsv" && !f.starts_with('.'))
        .collect();
    v.sort();
    v
}

#[test]
fn the_manifest_names_every_output_with_size_and_checksum() {
    let env = env_with_games(3);
    env.analyze("out", 2);
    let out = env.dir.path().join("out");
    let manifest = env.output("out", "manifest.tsv");
    let listed: Vec<(String, String)> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("file:"))
        .map(|l| {
            let (f, v) = l.split_once('\t').unwrap();
            (f.to_string(), v.to_string())
        })
        .collect();
    let names: Vec<String> = listed.iter().map(|(f, _)| f.clone()).collect();
    assert_eq!(names, outputs(&out), "every output, and nothing else");
    for (f, v) in &listed {
        let bytes = std::fs::read(out.join(f)).unwrap();
        let sum: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(*v, format!("{} {sum}", bytes.len()), "{f}");
    }
}

#[test]
fn report_refuses_changed_tables_unless_told_they_were_edited() {
    let env = env_with_games(2);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let before = env.output("out", "report.md");
    // Filtered alike: every table keeps its header only.
    for t in ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"] {
        let text = env.output("out", t);
        std::fs::write(out.join(t), format!("{}\n", text.lines().next().unwrap())).unwrap();
    }
    let o = env.run(&["report", "out", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("blocks.csv: does not match manifest.tsv"),
        "{stderr}"
    );
    assert!(stderr.contains("--edited"), "{stderr}");
    assert_eq!(env.output("out", "report.md"), before, "nothing written");

    let o = env.run(&["report", "out", "--edited", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = env.output("out", "report.md");
    assert!(report.contains("changed after the run"), "{report}");
    assert!(report.contains("`blocks.csv`, `games.csv`"), "{report}");
    assert!(report.contains("0 files gave 0 rows"));
    // The manifest now names the new report, and still the tables as the run wrote them.
    let o = env.run(&["report", "out", "--edited", "-q"]);
    assert!(o.status.success());
    let o = env.run(&["report", "out", "-q"]);
    assert_eq!(o.status.code(), Some(2), "the edit stays visible");
}

#[test]
fn merge_refuses_a_shard_whose_tables_do_not_match_its_manifest() {
    let env = env_with_games(8);
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
    // Cut short at a line boundary: still a valid CSV, no longer the shard's table.
    let games = env.dir.path().join("s1/games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&games, format!("{}\n", cut[..cut.len() - 1].join("\n"))).unwrap();
    let o = env.run(&["merge", "s0", "s1", "--out", "merged", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("s1/games.csv: does not match"), "{stderr}");
    assert!(!env.dir.path().join("merged/games.csv").exists());
    // The same shards, PATHs spelled differently, merge.
    let o = env.run(&["analyze", "./in/", "--shard", "1/2", "--out", "s1", "-q"]);
    assert!(o.status.success());
    let o = env.run(&["merge", "s0", "s1", "--out", "merged", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&env.output("merged", "games.csv")).len(), 8);
}

/// A `plots` file or a `manifest.tsv` folder in --out is found before any work: exit 2, and
/// the earlier outputs stay as they were.
#[test]
fn an_unusable_output_folder_is_refused_before_any_work() {
    let env = env_with_games(1);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let games = env.output("out", "games.csv");
    env.write("g9.sgf", "(;SZ[9];B[ee])");
    std::fs::remove_dir_all(out.join("plots")).unwrap();
    std::fs::write(out.join("plots"), "not a folder").unwrap();
    let o = env.run(&["analyze", "in", "--out", "out", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("plots: not a folder"));
    assert_eq!(env.output("out", "games.csv"), games);
    std::fs::remove_file(out.join("plots")).unwrap();
    std::fs::remove_file(out.join("manifest.tsv")).unwrap();
    std::fs::create_dir(out.join("manifest.tsv")).unwrap();
    let o = env.run(&["analyze", "in", "--out", "out", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("manifest.tsv: a folder"));
    assert_eq!(env.output("out", "games.csv"), games);
}

/// What a SIGKILLed run leaves (its stage folder) is removed by the next run into the
/// folder, which says so.
#[test]
fn a_killed_runs_stage_is_removed_by_the_next_run() {
    let env = env_with_games(1);
    let stage = env.dir.path().join("out/.livingblocks-stage.Ab12Cd");
    std::fs::create_dir_all(stage.join("plots")).unwrap();
    std::fs::write(stage.join("games.csv"), "half").unwrap();
    let o = env.run(&["analyze", "in", "--out", "out"]);
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(".livingblocks-stage.Ab12Cd, the unfinished outputs of a killed run"),
        "{stderr}"
    );
    assert!(!stage.exists());
}

/// Every input gets exactly one row and one name: equal names under two PATHs stay apart, a
/// PATH given twice is read once, and a plain file named like an archive member says so.
#[test]
fn every_input_has_one_row_and_one_name() {
    let env = TestEnv::new();
    for f in ["A/x/g.sgf", "B/x/g.sgf", "A/odd.zip!y.sgf"] {
        env.write(f, GAME);
    }
    let names = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", "out", "-q"]);
        let o = env.run(&all);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        rows(&env.output("out", "games.csv"))
            .into_iter()
            .map(|r| r["file"].clone())
            .collect()
    };
    assert_eq!(
        names(&["in/A/x", "in/B/x"]),
        ["in/A/x/g.sgf", "in/B/x/g.sgf"]
    );
    assert_eq!(names(&["in/A/x", "in/A/x/"]), ["in/A/x/g.sgf"]);
    assert_eq!(names(&["in/A"]), ["odd.zip\\!y.sgf", "x/g.sgf"]);
}

/// A zip keeps every entry, even two of one name (an archive appended to): each is a row,
/// in archive order.
#[test]
fn two_zip_members_of_one_name_are_two_rows() {
    use std::io::Write;
    let env = TestEnv::new();
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for game in ["(;SZ[9];B[ee])", "(;SZ[9];B[cc];W[gg])"] {
        // The writer refuses a name twice; the second entry is renamed in the bytes after.
        let name = if game.len() < 16 { "g.sgf" } else { "h.sgf" };
        z.start_file(name, opts).unwrap();
        z.write_all(game.as_bytes()).unwrap();
    }
    let mut bytes = z.finish().unwrap().into_inner();
    for at in (0..bytes.len() - 5).rev() {
        if &bytes[at..at + 5] == b"h.sgf" {
            bytes[at] = b'g';
        }
    }
    env.write("set.zip", bytes);
    let games = rows(&env.analyze("out", 1));
    let got: Vec<_> = games
        .iter()
        .map(|r| (r["file"].as_str(), r["moves"].as_str()))
        .collect();
    assert_eq!(got, [("set.zip!g.sgf", "1"), ("set.zip!g.sgf", "2")]);
}

/// Peak resident memory of a run of the binary, in KiB: its `VmHWM`, read every few
/// milliseconds until it exits. (The kernel's own account, `ru_maxrss`, would include the
/// memory of this test process, which the child's `exec` inherits.) The last reading may
/// miss the run's final milliseconds, never what a walk or a batch builds up.
#[cfg(target_os = "linux")]
fn peak_kib(env: &TestEnv, args: &[&str]) -> u64 {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(args)
        .current_dir(env.dir.path())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        let hwm = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        });
        peak = peak.max(hwm.unwrap_or(0));
        if let Some(exit) = child.try_wait().unwrap() {
            assert!(exit.success());
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Memory does not grow with the number of inputs: a zip of 300,000 members (the zip crate
/// held its whole directory: 170 MiB) and a folder of 400,000 files (a name and a path per
/// file: 80 MiB) both stay under 64 MiB at two threads; a list of those files, whose names
/// are held for the sort, under 80 MiB.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "corpus-sized (a minute): cargo test -- --ignored; CI runs it"]
fn memory_stays_flat_over_hundreds_of_thousands_of_inputs() {
    use std::io::Write;
    let game = "(;GM[1]SZ[9]KM[6.5]RE[B+R];B[ee];W[cc])";
    let env = TestEnv::new();
    let mut z = zip::ZipWriter::new(std::io::BufWriter::new(
        std::fs::File::create(env.dir.path().join("many.zip")).unwrap(),
    ));
    let opts = zip::write::SimpleFileOptions::default();
    for i in 0..300_000 {
        z.start_file(format!("d{:03}/g{i:06}.sgf", i / 1000), opts)
            .unwrap();
        z.write_all(game.as_bytes()).unwrap();
    }
    z.finish().unwrap().flush().unwrap();
    let zip_peak = peak_kib(
        &env,
        &["analyze", "many.zip", "--out", "z", "-j", "2", "-q"],
    );
    let games = std::fs::read_to_string(env.dir.path().join("z/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 300_001);

    // Hard links, a file per folder (a file takes some 65,000 links at most).
    for d in 0..400 {
        let dir = env.dir.path().join(format!("many/d{d:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        let first = dir.join("g0000.sgf");
        std::fs::write(&first, game).unwrap();
        for f in 1..1000 {
            std::fs::hard_link(&first, dir.join(format!("g{f:04}.sgf"))).unwrap();
        }
    }
    let files_peak = peak_kib(&env, &["analyze", "many", "--out", "f", "-j", "2", "-q"]);
    let games = std::fs::read_to_string(env.dir.path().join("f/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 400_001);
    assert!(
        zip_peak < 64 << 10 && files_peak < 64 << 10,
        "peak RSS: zip {zip_peak} KiB, folder {files_peak} KiB"
    );
    // The same files listed, by absolute path: the list is streamed, not held whole (it
    // took 200 MiB); the names themselves, sorted before the first row, remain.
    let list: String = games
        .lines()
        .skip(1)
        .map(|l| {
            let name = l.split(',').next().unwrap();
            format!("{}\n", env.dir.path().join("many").join(name).display())
        })
        .collect();
    std::fs::write(env.dir.path().join("list"), list).unwrap();
    let listed_peak = peak_kib(
        &env,
        &[
            "analyze",
            "--files-from",
            "list",
            "--out",
            "l",
            "-j",
            "2",
            "-q",
        ],
    );
    let listed = std::fs::read_to_string(env.dir.path().join("l/games.csv")).unwrap();
    assert_eq!(listed.lines().count(), 400_001);
    assert!(listed_peak < 80 << 10, "peak RSS: list {listed_peak} KiB");
}

/// Threads beyond the cores only wait, each holding memory: `-j` is cut to the cores the
/// run may use, and says so.
#[test]
fn threads_beyond_the_cores_are_not_started() {
    let env = TestEnv::new();
    env.write("good.sgf", "(;SZ[9];B[ee])");
    let o = env.run(&["analyze", "in", "--out", "out", "-j", "1024"]);
    assert_eq!(o.status.code(), Some(0));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let stderr = String::from_utf8_lossy(&o.stderr);
    if cores < 1024 {
        assert!(
            stderr.contains(&format!("-j 1024: {cores} cores are free for this run")),
            "{stderr}"
        );
    }
    assert!(stderr.contains(&format!("{cores} threads")), "{stderr}");
}

/// A `--files-from` list read from standard input is gone after the run: `report` does not
/// read standard input again (it would hang, or eat what is piped to it), and says that it
/// draws no game from it.
#[test]
fn report_does_not_read_a_list_that_was_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let env = TestEnv::new();
    env.write("a.sgf", "(;SZ[9]KM[0]RE[B+R];B[ee];W[ce];B[dd])");
    let mut run = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args([
            "analyze",
            "--files-from",
            "/dev/stdin",
            "--out",
            "out",
            "-q",
        ])
        .current_dir(env.dir.path())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    run.stdin.take().unwrap().write_all(b"in/a.sgf\n").unwrap();
    assert!(run.wait().unwrap().success());
    // Standard input stays open and holds data: a report that read it would wait for ever.
    let mut report = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["report", "out", "-q"])
        .current_dir(env.dir.path())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = report.stdin.take().unwrap();
    stdin.write_all(b"in/a.sgf\n").unwrap();
    let status = exit_within(&mut report, 60, "report read standard input");
    drop(stdin);
    assert!(status.success());
    assert_eq!(env.output("out", "games.csv").lines().count(), 2);
}

/// SIGTERM while a `--files-from -` list is still being written ends the run at once
/// (143, nothing written), instead of waiting for the list to end.
#[test]
fn sigterm_while_the_list_is_read_ends_the_run() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let env = TestEnv::new();
    env.write("a.sgf", "(;SZ[9];B[ee])");
    let mut run = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "--files-from", "-", "--out", "out", "-q"])
        .current_dir(env.dir.path())
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut list = run.stdin.take().unwrap();
    list.write_all(b"in/a.sgf\n").unwrap();
    list.flush().unwrap();
    // The list stays open: the run is reading it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(run.id() as i32, libc::SIGTERM) };
    let status = exit_within(&mut run, 30, "SIGTERM waited for the list to end");
    drop(list);
    assert_eq!(status.code(), Some(143));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut run.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    assert!(!env.dir.path().join("out/games.csv").exists());
}

/// A plain collection of many game trees is read a tree at a time, as a compressed one is:
/// memory stays flat whatever the number of trees (parsed whole, 200,000 trees took
/// 360 MB), and the rows are those of the same collection compressed.
#[test]
fn a_plain_collection_of_many_trees_is_streamed() {
    let env = TestEnv::new();
    let tree = "(;SZ[9];B[ee];W[cc])";
    env.write("many.sgf", tree.repeat(200_000));
    // No game is counted: the carried net is never read.
    let peak = peak_kib(&env, &["analyze", "in", "--out", "out", "-q"]);
    assert!(peak < 64 << 10, "peak RSS {peak} KiB");
    let games = env.output("out", "games.csv");
    assert_eq!(games.lines().count(), 200_001);
    // The same collection gzipped gives the same rows, names and sizes aside.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, tree.repeat(3).as_bytes()).unwrap();
    let small = TestEnv::new();
    small.write("few.sgf.gz", gz.finish().unwrap());
    let padding = format!(";C[{}]", "x".repeat(70_000));
    let big_tree = tree.replace(";W[cc])", &format!(";W[cc]{padding})"));
    small.write("few.sgf", format!("{big_tree}{tree}{tree}"));
    let rows = rows(&small.analyze("out", 1));
    assert_eq!(rows.len(), 6);
    let moves: Vec<&str> = rows.iter().map(|r| r["moves"].as_str()).collect();
    assert_eq!(moves, ["2", "2", "2", "2", "2", "2"]);
    let games: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["file"].as_str(), r["game"].as_str()))
        .collect();
    assert_eq!(
        games,
        [
            ("few.sgf", "0"),
            ("few.sgf", "1"),
            ("few.sgf", "2"),
            ("few.sgf.gz", "0"),
            ("few.sgf.gz", "1"),
            ("few.sgf.gz", "2")
        ]
    );
}

/// The child's exit status, once it ends within `secs`; killed, and the test failed with
/// `why`, if it does not.
fn exit_within(child: &mut std::process::Child, secs: u64, why: &str) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("{why}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// SIGKILL at every step of `analyze`'s commit: the next command (here `report`) finds the
/// folder holding the earlier run's outputs or the new run's, whole, and says which.
#[test]
fn sigkill_at_any_step_of_a_runs_commit_leaves_the_old_or_the_new_outputs() {
    let env = env_with_games(1);
    env.analyze("old", 1);
    let old = snapshot(&env.dir.path().join("old"));
    env.write("g1.sgf", "(;SZ[9]KM[0]RE[W+R];B[cc];W[gg])");
    env.analyze("new", 1);
    let new = snapshot(&env.dir.path().join("new"));
    let tables = |set: &[(String, Vec<u8>)]| -> Vec<(String, Vec<u8>)> {
        set.iter()
            .filter(|(f, _)| f.ends_with(".csv") && f != "summary.csv" && f != "not_benson.csv")
            .cloned()
            .collect()
    };
    let (mut rolled_back, mut completed) = (0, 0);
    for step in 0.. {
        let out = env.dir.path().join("out");
        let _ = std::fs::remove_dir_all(&out);
        copy_dir(&env.dir.path().join("old"), &out);
        if !killed_at(
            &env,
            &["analyze", "in", "--out", "out", "-j", "1"],
            COMMIT,
            step,
        ) {
            assert!(step > 20, "a commit has more steps than {step}");
            break;
        }
        let o = env.run(&["report", "out"]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "killed at step {step}: {stderr}");
        let now = tables(&snapshot(&out));
        if now == tables(&old) {
            rolled_back += 1;
        } else {
            assert_eq!(
                now,
                tables(&new),
                "killed at step {step}: neither old nor new"
            );
            completed += 1;
        }
        if stderr.contains("commit a killed run had left half done") {
            assert!(
                stderr.contains(if now == tables(&old) {
                    "undid"
                } else {
                    "finished"
                }),
                "{stderr}"
            );
        }
    }
    assert!(
        rolled_back > 10 && completed >= 2,
        "{rolled_back} {completed}"
    );
}

/// SIGKILL at every step of `report`'s commit: the folder is never refused afterwards, and
/// its tables are the run's.
#[test]
fn sigkill_at_any_step_of_reports_commit_leaves_a_readable_folder() {
    let env = env_with_games(2);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let before = snapshot(&out);
    for step in 0.. {
        if !killed_at(&env, &["report", "out"], COMMIT, step) {
            assert!(step > 10, "a commit has more steps than {step}");
            break;
        }
        let o = env.run(&["report", "out"]);
        assert!(
            o.status.success(),
            "killed at step {step}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(snapshot(&out), before, "killed at step {step}");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let target = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A shard whose run was killed in its commit is finished or rolled back by `merge`, which
/// then merges it like any other.
#[test]
fn merge_clears_a_shard_whose_commit_was_killed() {
    let env = env_with_games(4);
    for k in 0..2 {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        let o = env.run(&["analyze", "in", "--shard", &shard, "--out", &out, "-j", "1"]);
        assert!(o.status.success());
    }
    // Shard 1 run again and killed after a few renames of its commit.
    assert!(killed_at(
        &env,
        &["analyze", "in", "--shard", "1/2", "--out", "s1", "-j", "1"],
        COMMIT,
        6
    ));
    assert!(env.dir.path().join("s1/.livingblocks-commit").exists());
    let o = env.run(&["merge", "s0", "s1", "--out", "all"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&env.output("all", "games.csv")).len(), 4);
    assert!(!env.dir.path().join("s1/.livingblocks-commit").exists());
}
