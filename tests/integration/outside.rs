//! Nothing outside the output folder is ever touched, and a second fault loses nothing:
//! commits killed and their recoveries killed again, names and links that lead out of DIR,
//! files the tool did not write, outputs walked as inputs, shards of other folders, and a
//! lock file another user's killed run left.

use std::process::Command;

use crate::util::{
    env_with_games, killed_at, rows, skip, snapshot, TestEnv, COMMIT, GAME, RECOVERY,
};

/// A re-run over the same inputs (its manifest byte-identical to the one in place) killed at
/// each step of its commit, then the command that recovers it killed at each step of the
/// recovery in turn: the folder ends holding the run, whole and byte-identical, every time.
#[test]
fn a_second_fault_in_a_rerun_over_the_same_inputs_loses_nothing() {
    let env = env_with_games(2);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let before = snapshot(&out);
    let args = ["analyze", "in", "--out", "out", "-j", "1"];
    let mut kills = 0;
    for step in 0.. {
        if !killed_at(&env, &args, COMMIT, step) {
            assert!(step > 10, "a commit has more steps than {step}");
            break;
        }
        for again in 0.. {
            if !killed_at(&env, &["report", "out"], RECOVERY, again) {
                break;
            }
            kills += 1;
        }
        assert_eq!(snapshot(&out), before, "commit killed at {step}");
        assert!(!out.join(".livingblocks-commit").exists());
    }
    assert!(kills > 10, "recoveries killed: {kills}");
}

/// The same through `merge`, which recovers a shard whose re-run was killed: the shard keeps
/// its tables whatever step the recovery is killed at.
#[test]
fn a_shard_killed_in_its_commit_and_again_in_merges_recovery_keeps_its_tables() {
    let env = env_with_games(4);
    for k in 0..2 {
        let (shard, out) = (format!("{k}/2"), format!("s{k}"));
        let o = env.run(&["analyze", "in", "--shard", &shard, "--out", &out, "-j", "1"]);
        assert!(o.status.success());
    }
    let s1 = env.dir.path().join("s1");
    let before = snapshot(&s1);
    let args = ["analyze", "in", "--shard", "1/2", "--out", "s1", "-j", "1"];
    for step in 0.. {
        if !killed_at(&env, &args, COMMIT, step) {
            break;
        }
        for again in 0.. {
            let merge = ["merge", "s0", "s1", "--out", "all"];
            if !killed_at(&env, &merge, RECOVERY, again) {
                break;
            }
        }
        assert_eq!(snapshot(&s1), before, "commit killed at {step}");
        assert_eq!(rows(&env.output("all", "games.csv")).len(), 4);
    }
}

/// A manifest row `file:../x` names a file outside the folder: refused (exit 2), and the file
/// is neither moved nor removed.
#[test]
fn a_manifest_row_outside_the_folder_moves_nothing_there() {
    let env = env_with_games(1);
    env.analyze("out", 1);
    let victim = env.dir.path().join("x");
    std::fs::write(&victim, "the user's").unwrap();
    let m = env.dir.path().join("out/manifest.tsv");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(&m, format!("{text}file:../x\t10 abc\n")).unwrap();
    for args in [
        &["report", "out"][..],
        &["analyze", "in", "--out", "out"][..],
    ] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("\"../x\""));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's");
    }
}

/// A lock file that is a symbolic link: refused, its target never truncated.
#[test]
fn a_linked_lock_file_is_refused_and_its_target_untouched() {
    let env = env_with_games(1);
    let victim = env.dir.path().join("precious");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::create_dir(env.dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(&victim, env.dir.path().join("out/.livingblocks.lock")).unwrap();
    let o = env.run(&["analyze", "in", "--out", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a symbolic link"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

/// `plots` (or a table) a symbolic link out of the folder: refused before any work, and what
/// it points to untouched.
#[test]
fn linked_outputs_are_refused_and_what_they_point_to_untouched() {
    let env = env_with_games(1);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let elsewhere = env.dir.path().join("elsewhere");
    std::fs::rename(out.join("plots"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("plots")).unwrap();
    let there = snapshot(&elsewhere);
    for args in [
        &["report", "out"][..],
        &["analyze", "in", "--out", "out"][..],
    ] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("plots: a symbolic link"));
        assert_eq!(snapshot(&elsewhere), there);
    }
    std::fs::remove_file(out.join("plots")).unwrap();
    std::fs::rename(&elsewhere, out.join("plots")).unwrap();
    let table = env.dir.path().join("mine.csv");
    std::fs::rename(out.join("chains.csv"), &table).unwrap();
    std::os::unix::fs::symlink(&table, out.join("chains.csv")).unwrap();
    let kept = std::fs::read(&table).unwrap();
    let o = env.run(&["analyze", "in", "--out", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&table).unwrap(), kept);
}

/// `--out mine` holding the user's own `games.csv` (or a drawing under `plots/`): refused
/// with exit 2 before any work, naming the file, which is left as it was.
#[test]
fn an_out_folder_holding_the_users_own_files_is_refused_before_any_work() {
    let env = env_with_games(1);
    let mine = env.dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("games.csv"), "my own table").unwrap();
    let o = env.run(&["analyze", "in", "--out", "mine"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("mine/games.csv: not written by livingblocks"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("games.csv")).unwrap(),
        "my own table"
    );
    let left: Vec<_> = std::fs::read_dir(&mine).unwrap().collect();
    assert_eq!(left.len(), 1, "nothing written beside it");
    // An earlier run's folder, with a drawing of the user's added under plots/.
    std::fs::remove_file(mine.join("games.csv")).unwrap();
    env.analyze("mine", 1);
    std::fs::write(mine.join("plots/endings-mine.svg"), "<svg/>").unwrap();
    let o = env.run(&["analyze", "in", "--out", "mine"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(mine.join("plots/endings-mine.svg").exists());
}

/// `cd games && livingblocks analyze .` twice: the second run reads neither the first run's
/// outputs (its SGF drawings among them) nor a stage folder.
#[test]
fn outputs_are_never_inputs() {
    let env = env_with_games(3);
    let run = |out: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .args(["analyze", ".", "--out", out, "-q"])
            .current_dir(env.input())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(env.input().join(out).join("games.csv")).unwrap()
    };
    let first = run("reports");
    std::fs::create_dir_all(env.input().join("reports/plots/boards")).unwrap();
    let stage = env.input().join(".livingblocks-stage.x1y2z3");
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::write(stage.join("g9.sgf"), GAME).unwrap();
    let mut manifest = std::fs::read_to_string(env.input().join("reports/manifest.tsv")).unwrap();
    let drawing = env.input().join("reports/plots/boards/drawn.sgf");
    std::fs::write(&drawing, GAME).unwrap();
    let digest = {
        use sha2::{Digest, Sha256};
        let sum = Sha256::digest(GAME.as_bytes());
        sum.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    manifest.push_str(&format!(
        "file:plots/boards/drawn.sgf\t{} {digest}\n",
        GAME.len()
    ));
    std::fs::write(env.input().join("reports/manifest.tsv"), manifest).unwrap();
    let second = run("reports");
    assert_eq!(rows(&second).len(), 3, "{second}");
    assert_eq!(first, second);
    // Given as another path to the same folder, it is still the output folder.
    let third = run("./reports/../reports");
    assert_eq!(rows(&third).len(), 3, "{third}");
}

/// Shards run from two different folders that share the inputs' relative name: merge
/// refuses them (exit 2), naming where each was started.
#[test]
fn merge_refuses_shards_of_two_folders_that_share_a_name() {
    let env = TestEnv::new();
    for (side, result) in [("a", "B+1"), ("b", "W+1")] {
        let games = env.dir.path().join(side).join("games");
        std::fs::create_dir_all(&games).unwrap();
        for k in 0..2 {
            let game = GAME.replace("B+1", result);
            std::fs::write(games.join(format!("g{k}.sgf")), game).unwrap();
        }
    }
    for (side, shard) in [("a", "0/2"), ("b", "1/2")] {
        let o = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
            .args(["analyze", "games", "--shard", shard, "--out", "s", "-q"])
            .current_dir(env.dir.path().join(side))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = env.run(&["merge", "a/s", "b/s", "--out", "all"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("started in"), "{stderr}");
    assert!(!env.dir.path().join("all/games.csv").exists());
}

/// A run started in a folder whose name is not UTF-8 records it exactly: `started_in` leads
/// back to that very folder.
#[test]
fn started_in_is_kept_exact_for_a_folder_whose_name_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    let odd = env.dir.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(odd.join("in")).unwrap();
    std::fs::write(odd.join("in/g.sgf"), GAME).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "in", "--out", "../out", "-q"])
        .current_dir(&odd)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = env.dir.path().join("out");
    let m = livingblocks::sink::Manifest::read(&out.join("manifest.tsv")).unwrap();
    assert_eq!(
        m.base(&out).unwrap().canonicalize().unwrap(),
        odd.canonicalize().unwrap()
    );
}

/// With the manifest's games.csv row removed and games.csv edited, `report` refuses (exit
/// 2, `--edited` or not) and writes nothing: a manifest must name every table it reads.
#[test]
fn report_refuses_a_manifest_that_leaves_out_a_table() {
    let env = env_with_games(2);
    env.analyze("out", 1);
    let out = env.dir.path().join("out");
    let m = out.join("manifest.tsv");
    let text: String = std::fs::read_to_string(&m)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("file:games.csv\t"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&m, &text).unwrap();
    let games = env.output("out", "games.csv");
    let first_row = games.lines().nth(1).unwrap();
    std::fs::write(out.join("games.csv"), format!("{games}{first_row}\n")).unwrap();
    let before = snapshot(&out);
    for args in [&["report", "out"][..], &["report", "out", "--edited"][..]] {
        let o = env.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("does not name games.csv"));
        assert_eq!(snapshot(&out), before);
    }
}

/// In a shared folder (mode 777) where root's run was SIGKILLed, leaving its 0644 lock file
/// and its stage, another user's run goes ahead: the lock needs no write access.
#[test]
fn another_users_run_goes_ahead_after_a_killed_run_left_its_lock() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || Command::new("setpriv").arg("--help").output().is_err() {
        skip("needs root and setpriv to run as another user");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let env = env_with_games(2);
    let everyone = std::fs::Permissions::from_mode(0o777);
    for p in [env.dir.path(), &env.input()] {
        std::fs::set_permissions(p, everyone.clone()).unwrap();
    }
    let out = env.dir.path().join("shared");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, everyone).unwrap();
    let lock = out.join(".livingblocks.lock");
    std::fs::write(&lock, "").unwrap();
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).unwrap();
    let o = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "in", "--out", "shared", "-q"])
        .current_dir(env.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&env.output("shared", "games.csv")).len(), 2);
    assert!(!lock.exists(), "the lock file is cleared");
}

/// In a shared folder (mode 777) that root's run filled, another user's run replaces every
/// output, the plots in `plots/` too: the folders a run makes take the shared folder's mode.
#[test]
fn another_users_run_replaces_the_plots_of_roots_run_in_a_shared_folder() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || Command::new("setpriv").arg("--help").output().is_err() {
        skip("needs root and setpriv to run as another user");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let env = env_with_games(2);
    let everyone = std::fs::Permissions::from_mode(0o777);
    for p in [env.dir.path(), &env.input()] {
        std::fs::set_permissions(p, everyone.clone()).unwrap();
    }
    let out = env.dir.path().join("shared");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, everyone).unwrap();
    env.analyze("shared", 1);
    assert!(out.join("plots").is_dir(), "the run draws plots");
    let o = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_livingblocks"))
        .args(["analyze", "in", "--out", "shared", "-q"])
        .current_dir(env.dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    use std::os::unix::fs::MetadataExt;
    let owner = |p: &std::path::Path| std::fs::metadata(p).unwrap().uid();
    assert_eq!(owner(&out.join("games.csv")), 65534);
    for entry in std::fs::read_dir(out.join("plots")).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            assert_eq!(owner(&p), 65534, "{}", p.display());
        }
    }
}
