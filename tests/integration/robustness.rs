//! Hostile inputs and faults: every input gives a row with a status, nothing crashes, hangs or
//! exhausts memory, and a run that fails or is interrupted leaves no half-written table.
//! Inputs are generated here; nothing big is committed.

use std::process::Command;
use std::time::Duration;

use crate::util::{rows, TestEnv};
use livingblocks::analyze::analyze_file;
use livingblocks::row::{Failure, Status};

fn status_of(rows: &[std::collections::HashMap<String, String>], file: &str) -> Vec<String> {
    rows.iter()
        .filter(|r| r["file"] == file)
        .map(|r| r["status"].clone())
        .collect()
}

#[test]
fn hostile_inputs_each_give_a_row() {
    let env = TestEnv::new();
    let n = 1_000_000;
    env.write(
        "nested.sgf",
        format!("(;SZ[19]{}{})", "(;B[aa]".repeat(n), ")".repeat(n)),
    );
    // 100 MB without writing 100 MB: a sparse file.
    let big = std::fs::File::create(env.input().join("big.sgf")).unwrap();
    big.set_len(100 << 20).unwrap();
    let mut noise = Vec::with_capacity(1 << 16);
    let mut x: u32 = 12345;
    for _ in 0..(1 << 16) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        noise.push((x >> 24) as u8);
    }
    env.write("random.sgf", &noise);
    let text = "(;SZ[9]PB[李昌鎬];B[ee])";
    env.write(
        "utf16le-bom.sgf",
        [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(|u| u.to_le_bytes()))
            .collect::<Vec<u8>>(),
    );
    env.write(
        "utf16be-nobom.sgf",
        text.encode_utf16()
            .flat_map(|u| u.to_be_bytes())
            .collect::<Vec<u8>>(),
    );
    env.write("sz0.sgf", "(;SZ[0];B[aa])");
    env.write("sz52.sgf", "(;SZ[52];B[aa])");
    env.write("sz19x13.sgf", "(;SZ[19:13];B[aa])");
    env.write("offboard.sgf", "(;SZ[9];B[ee];W[zz])");
    env.write(
        "comment.sgf",
        format!("(;SZ[19]C[{}];B[dd])", "x".repeat(10 << 20)),
    );
    env.write("many.sgf", "(;SZ[9];B[ee])".repeat(100_000));
    env.write("empty.sgf", "");
    std::fs::create_dir_all(env.input().join("x.sgf")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(env.input(), env.input().join("loop.sgf")).unwrap();

    let text = env.analyze("out", 2);
    let rows = rows(&text);
    let expect = [
        ("nested.sgf", "unsupported"),
        ("big.sgf", "too_large"),
        ("random.sgf", "decode_error"),
        ("utf16le-bom.sgf", "ok"),
        ("utf16be-nobom.sgf", "ok"),
        ("sz0.sgf", "unsupported"),
        ("sz52.sgf", "unsupported"),
        ("sz19x13.sgf", "unsupported"),
        ("offboard.sgf", "illegal_move"),
        ("comment.sgf", "ok"),
        ("empty.sgf", "parse_error"),
        ("x.sgf", "skipped"),
    ];
    for (file, status) in expect {
        assert_eq!(status_of(&rows, file), [status], "{file}");
    }
    #[cfg(unix)]
    assert_eq!(status_of(&rows, "loop.sgf"), ["skipped"]);
    let many = status_of(&rows, "many.sgf");
    assert_eq!(many.len(), 100_000);
    assert!(many.iter().all(|s| s == "ok"));
}

/// Noise from a 64-bit LCG: the same bytes on every run.
fn lcg_noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 56) as u8
        })
        .collect()
}

/// Issue 49 item 7: binary data over 64 KiB was read a game tree at a time and gave a row per
/// `(;` found in it. Junk of any seed and size, with `(;` planted in it, or a PNG or a gzip
/// file renamed, is one row saying it is not text; UTF-16 collections and text with junk
/// between its games still give a row per game.
#[test]
fn binary_junk_is_one_row() {
    let env = TestEnv::new();
    let mut junk = Vec::new();
    for seed in [1u64, 7, 12_345, 1 << 40] {
        for len in [1 << 10, (64 << 10) + 1, 200 << 10, 1 << 20] {
            let name = format!("noise-{seed}-{len}.sgf");
            env.write(&name, lcg_noise(seed, len));
            junk.push(name);
        }
    }
    let mut planted = lcg_noise(3, 300 << 10);
    for at in [0, 1000, 70_000, 150_000, 299_000] {
        planted[at..at + 8].copy_from_slice(b"(;B[aa])");
        planted[at + 500..at + 502].copy_from_slice(b"(;");
    }
    env.write("planted.sgf", planted);
    let png = [
        &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..],
        &lcg_noise(4, 100 << 10),
    ]
    .concat();
    env.write("image.sgf", png);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, "(;SZ[9];B[ee])".repeat(1000).as_bytes()).unwrap();
    std::io::Write::write_all(&mut gz, &lcg_noise(5, 100 << 10)).unwrap();
    env.write("packed.sgf", gz.finish().unwrap());
    junk.extend(["planted.sgf", "image.sgf", "packed.sgf"].map(String::from));

    let games = 3000;
    let text = "(;SZ[9]PB[李昌鎬];B[ee])".repeat(games);
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    assert!(be.len() > 64 << 10);
    env.write("utf16le-bom.sgf", le);
    env.write("utf16be.sgf", be);
    let mut mixed = Vec::new();
    for seed in 0..games as u64 {
        mixed.extend_from_slice(b"(;SZ[9];B[ee];W[cc])\n-- next --\n");
        mixed.extend(lcg_noise(seed, 8));
    }
    assert!(mixed.len() > 64 << 10);
    env.write("mixed.sgf", mixed);

    let rows = rows(&env.analyze("out", 2));
    for file in &junk {
        assert_eq!(status_of(&rows, file), ["decode_error"], "{file}");
    }
    for file in ["utf16le-bom.sgf", "utf16be.sgf", "mixed.sgf"] {
        let statuses = status_of(&rows, file);
        assert_eq!(statuses.len(), games, "{file}");
        assert!(statuses.iter().all(|s| s == "ok"), "{file}");
    }
}

#[test]
fn a_file_deleted_during_the_walk_is_an_io_error() {
    let env = TestEnv::new();
    env.write("gone.sgf", "(;SZ[9];B[ee])");
    let inputs =
        livingblocks::source::collect(&[livingblocks::source::Root::arg(env.input())], None)
            .unwrap();
    std::fs::remove_file(env.input().join("gone.sgf")).unwrap();
    let e = livingblocks::source::read_input(&inputs.get(0).unwrap(), u64::MAX).unwrap_err();
    assert_eq!(e.status(), Status::IoError);
}

/// A file the run may not read is an `io_error` row saying why, beside a readable one. Root
/// reads a file whatever its mode, so as root the binary (a copy, where any user may run it)
/// is run as `nobody` (uid and gid 65534, no groups, through util-linux's `setpriv`), from
/// a folder that user may enter and write in; first `cat`, as that user, must fail on the
/// file and read its neighbour, which shows that what is tested is the file's mode.
#[cfg(unix)]
#[test]
fn an_unreadable_file_is_an_io_error() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("secret.sgf", "(;SZ[9];B[ee])");
    env.write("open.sgf", "(;SZ[9];B[cc])");
    let secret = env.input().join("secret.sgf");
    let mode = |p: &std::path::Path, m| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    };
    mode(&secret, 0o000);
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let o = if root {
        const NOBODY: [&str; 4] = ["--reuid=65534", "--regid=65534", "--clear-groups", "--"];
        let dir = env.dir.path();
        mode(dir, 0o755);
        std::fs::create_dir(dir.join("out")).unwrap();
        mode(&dir.join("out"), 0o777);
        let bin = dir.join("livingblocks");
        std::fs::copy(env!("CARGO_BIN_EXE_livingblocks"), &bin).unwrap();
        mode(&bin, 0o755);
        let cat = |file: &str| {
            Command::new("setpriv")
                .args(NOBODY)
                .args(["cat", file])
                .current_dir(dir)
                .output()
        };
        match (cat("in/open.sgf"), cat("in/secret.sgf")) {
            (Ok(readable), Ok(unreadable))
                if readable.status.success() && !unreadable.status.success() => {}
            other => {
                crate::util::skip(&format!(
                    "running as root, and cannot read the files as nobody                      (setpriv --reuid=65534, from util-linux): {other:?}"
                ));
                return;
            }
        }
        Command::new("setpriv")
            .args(NOBODY)
            .args([
                "./livingblocks",
                "analyze",
                "--judge",
                "estimate",
                "in",
                "--out",
                "out",
                "-j",
                "1",
            ])
            .current_dir(dir)
            .output()
            .unwrap()
    } else {
        if std::fs::read(&secret).is_ok() {
            crate::util::skip("this user reads a file of mode 000 (CAP_DAC_OVERRIDE?)");
            return;
        }
        env.run(&[
            "analyze", "--judge", "estimate", "in", "--out", "out", "-j", "1",
        ])
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let games = rows(&env.output("out", "games.csv"));
    let got: Vec<(&str, &str)> = games
        .iter()
        .map(|r| (r["file"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(got, [("open.sgf", "ok"), ("secret.sgf", "io_error")]);
    assert!(games[1]["detail"].contains("ermission denied"), "{games:?}");
    // The run says so on stderr too.
    assert!(stderr.contains("secret.sgf"), "{stderr}");
}

/// The fuzzer's first find: a long line of play (the seed had 5,000 moves; this has 50,000). sgf-parse nests each move as the child
/// of the one before and frees the tree recursively; on a small stack that overflowed. The
/// analysis runs here on a thread with only 1 MiB of stack.
#[test]
fn fuzz_regression_a_long_line_of_play_on_a_small_stack() {
    let mut sgf = String::from("(;SZ[7]C[a single variation of great depth]");
    for i in 0..25_000 {
        sgf.push_str(if i % 2 == 0 {
            ";B[aa];W[ab]"
        } else {
            ";B[];W[]"
        });
    }
    sgf.push(')');
    let games = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || analyze_file(sgf.as_bytes()))
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(games.games.len(), 1);
    assert_eq!(games.games[0].status, Status::IllegalMove);
}

#[test]
fn an_output_folder_that_cannot_be_created_is_a_usage_error() {
    let env = TestEnv::new();
    env.write("a.sgf", "(;SZ[9];B[ee])");
    std::fs::write(env.dir.path().join("plain-file"), "").unwrap();
    let o = env.run(&[
        "analyze",
        "--judge",
        "estimate",
        "in",
        "--out",
        "plain-file/out",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("plain-file/out"), "{stderr}");
    assert!(!stderr.contains("games/s"), "no run summary: {stderr}");
}

#[cfg(unix)]
#[test]
fn a_write_error_mid_run_exits_1_without_a_success_summary() {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    // A file-size limit makes writes fail with EFBIG, as a full disk makes them fail with
    // ENOSPC; SIGXFSZ is ignored so the write returns the error instead of killing us.
    let o = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 200; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_livingblocks"))
        .args([
            "analyze",
            "--judge",
            "estimate",
            corpus.to_str().unwrap(),
            "--out",
            "out",
            "-q",
        ])
        .current_dir(env.dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("wrote"), "{stderr}");
    assert!(
        !env.dir.path().join("out").exists(),
        "no table left behind, nor the folder the run made"
    );
}

/// Enough work to be interrupted: the embedded corpus, four times over.
fn busy_env() -> TestEnv {
    let env = TestEnv::new();
    let corpus = crate::util::corpus();
    let inputs =
        livingblocks::source::collect(&[livingblocks::source::Root::arg(corpus)], None).unwrap();
    for copy in 0..4 {
        for input in &inputs {
            let bytes = std::fs::read(&input.path).unwrap();
            env.write(&format!("{copy}/{}", input.name), bytes);
        }
    }
    env
}

/// Starts `analyze in --out OUT -j 1 -q` in the background, its stderr captured: a run to
/// send signals to.
#[cfg(unix)]
fn spawn_quiet_run(env: &TestEnv, out: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args([
            "analyze", "--judge", "estimate", "in", "--out", out, "-j", "1", "-q",
        ])
        .current_dir(env.dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Two runs into one folder: the second refuses at once (a lock), the first finishes whole.
/// A temporary table a killed run left is removed by the next run, which says so.
#[cfg(unix)]
#[test]
fn one_writer_per_output_folder_and_stale_temporaries_go() {
    let env = busy_env();
    std::fs::create_dir_all(env.dir.path().join("out")).unwrap();
    let stale = env.dir.path().join("out/games.csv.Zq81xK.tmp");
    std::fs::write(&stale, "half a table").unwrap();
    // Without the estimate: the run need only last until the second one tries.
    let first = Command::new(env!("CARGO_BIN_EXE_livingblocks"))
        .args([
            "analyze",
            "--judge",
            "estimate",
            "in",
            "--out",
            "out",
            "-j",
            "1",
            "--estimate",
            "never",
        ])
        .current_dir(env.dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let second = env.run(&["analyze", "--judge", "estimate", "in", "--out", "out", "-q"]);
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("another livingblocks run"), "{stderr}");
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success());
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains("games.csv.Zq81xK.tmp, a temporary table a killed run"),
        "{stderr}"
    );
    assert!(!stale.exists());
    let mut left: Vec<String> = std::fs::read_dir(env.dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') || n.ends_with(".tmp"))
        .collect();
    left.sort();
    assert!(left.is_empty(), "no lock or temporary file left: {left:?}");
}

/// Ctrl-C, a scheduler's SIGTERM (Slurm, Kubernetes) and SIGHUP all stop a run cleanly:
/// exit 128 + the signal (130, 143, 129), no table and no temporary file left, and no folder
/// where the run made one.
#[cfg(unix)]
#[test]
fn signals_stop_with_their_code_and_leave_no_table() {
    let env = busy_env();
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let out_dir = format!("out-{signal}");
        let child = spawn_quiet_run(&env, &out_dir);
        std::thread::sleep(Duration::from_millis(700));
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let started = std::time::Instant::now();
        let out = child.wait_with_output().unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "stops promptly"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "SIG{signal}: {stderr}");
        assert!(stderr.contains("no output written"), "{stderr}");
        assert!(
            !env.dir.path().join(&out_dir).exists(),
            "SIG{signal}: the folder the run made is gone with it"
        );
    }
    // A folder that was there before the run stays, empty as it was.
    std::fs::create_dir(env.dir.path().join("mine")).unwrap();
    let child = spawn_quiet_run(&env, "mine");
    std::thread::sleep(Duration::from_millis(700));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(130));
    let left: Vec<_> = std::fs::read_dir(env.dir.path().join("mine"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "no table left behind: {left:?}");
}

/// A second signal ends the run at once, and still leaves nothing behind: its stage folder is
/// removed before the process ends.
#[cfg(unix)]
#[test]
fn a_second_signal_ends_the_run_at_once_and_leaves_nothing() {
    let env = busy_env();
    let child = spawn_quiet_run(&env, "out");
    std::thread::sleep(Duration::from_millis(700));
    for _ in 0..2 {
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert!(
        !env.dir.path().join("out").exists(),
        "nothing left behind, the folder the run made included"
    );
}

/// Two signals at any moment of a run's start, before or after it has taken the folder's lock
/// and made its stage folder, leave nothing behind: a lock taken before the stage exists is
/// removed too.
#[cfg(unix)]
#[test]
fn two_early_signals_leave_nothing_whenever_they_come() {
    let env = busy_env();
    for (k, delay) in [0u64, 2, 5, 10, 20, 40, 80].into_iter().enumerate() {
        let out = format!("out{k}");
        let child = spawn_quiet_run(&env, &out);
        std::thread::sleep(Duration::from_millis(delay));
        for _ in 0..2 {
            Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap();
        }
        child.wait_with_output().unwrap();
        let left: Vec<_> = std::fs::read_dir(env.dir.path().join(&out))
            .map(|d| d.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "after {delay} ms: {left:?}");
    }
}

#[test]
fn strict_turns_failed_rows_into_exit_3() {
    let env = TestEnv::new();
    env.write("good.sgf", "(;SZ[9];B[ee])");
    env.write("bad.sgf", "(;SZ[9];B[ee]");
    let o = env.run(&["analyze", "--judge", "estimate", "in", "--out", "a"]);
    assert_eq!(o.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.lines().any(|l| l.ends_with("bad.sgf (game 0): parse_error: not SGF: truncated: the file ends inside a game tree (unexpected end of data (truncated?))")), "{stderr}");
    let o = env.run(&[
        "analyze", "--judge", "estimate", "in", "--out", "b", "--strict", "-q",
    ]);
    // Not 1, a failed run a scheduler would retry: the outputs are there, complete.
    assert_eq!(o.status.code(), Some(3));
    assert!(env.dir.path().join("b/manifest.tsv").is_file());
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("bad.sgf:"),
        "quiet"
    );
}

/// Warnings and the summary never end a run: a full stderr (`2>/dev/full`) or a closed one
/// (`2>&1 | head -1`) still gives the outputs and exit 0 (they panicked the run, exit 101).
#[cfg(unix)]
#[test]
fn a_full_or_closed_stderr_does_not_end_the_run() {
    let env = TestEnv::new();
    env.write("good.sgf", "(;SZ[9];B[ee])");
    env.write("bad.sgf", "(;SZ[9];B[ee]");
    let bin = env!("CARGO_BIN_EXE_livingblocks");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(bin)
        .args(["analyze", "--judge", "estimate", "in", "--out", "full"])
        .current_dir(env.dir.path())
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(o.code(), Some(0));
    assert!(env.dir.path().join("full/games.csv").exists());
    let mut child = Command::new(bin)
        .args(["analyze", "--judge", "estimate", "in", "--out", "closed"])
        .current_dir(env.dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(env.dir.path().join("closed/games.csv").exists());
}

/// Control characters in a message (from SGF text or a file name) are escaped on stderr.
#[test]
fn control_characters_reach_stderr_escaped() {
    let env = TestEnv::new();
    env.write("bell\x07.sgf", "(;SZ[9];B[ee];W[ee])");
    let o = env.run(&["analyze", "--judge", "estimate", "in", "--out", "out"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains('\x07'), "{stderr:?}");
    assert!(
        stderr.contains("bell\\u{7}.sgf (game 0): illegal_move"),
        "{stderr:?}"
    );
}

/// `-j` far past any machine is refused before any work, not thousands of threads spawned.
#[test]
fn an_absurd_thread_count_is_refused() {
    let env = TestEnv::new();
    env.write("good.sgf", "(;SZ[9];B[ee])");
    let o = env.run(&[
        "analyze", "--judge", "estimate", "in", "--out", "out", "-j", "100000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most 1024"));
    assert!(!env.dir.path().join("out").exists());
}

/// Text that is mostly brackets and property letters (300 KiB) parses into many broken game
/// trees, binary noise into one row; no `detail` cell grows past 1 KiB and a count of what was
/// left out, so that readers with a cell limit (Python's csv: 128 KiB) read the table.
#[test]
fn details_stay_short_whatever_the_input() {
    let env = TestEnv::new();
    let mut seed: u64 = 8;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let alphabet = b"();[]ABWCabcdefghij\\ \n";
    let text: Vec<u8> = (0..300 << 10)
        .map(|_| alphabet[next() % alphabet.len()])
        .collect();
    let noise: Vec<u8> = (0..300 << 10).map(|_| next() as u8).collect();
    env.write("text.sgf", text);
    env.write("noise.sgf", noise);
    let o = env.run(&["analyze", "--judge", "estimate", "in", "--out", "out", "-q"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games = env.output("out", "games.csv");
    let rows = crate::util::rows(&games);
    let longest = rows.iter().map(|r| r["detail"].len()).max().unwrap();
    assert!(
        longest <= livingblocks::row::DETAIL_MAX + 40,
        "a detail of {longest} bytes"
    );
    assert!(rows.iter().any(|r| r["detail"].ends_with("more bytes)")));
    assert!(rows.iter().any(|r| r["file"] == "noise.sgf"));
    assert!(rows.iter().any(|r| r["file"] == "text.sgf"));
}
