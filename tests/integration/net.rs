//! `--net` against KataGo itself: every position of `tests/fixtures/net-fidelity.jsonl`
//! (KataGo 1.18.1's raw answers at one visit, for each net) put to the in-process net, which
//! must give the same lead and score within 0.05 point, each point's ownership within 0.02,
//! and the same dead stones. The nets are not in the repository: `scripts/get-net.sh`
//! fetches them (CI does).

use std::path::{Path, PathBuf};

use livingblocks::engine::nn::KERNEL_VAR;
use livingblocks::engine::NetJudge;
use livingblocks::go::rules::Ruleset;
use livingblocks::go::{Board, Color, MoveList, Point};
use livingblocks::life::Net;
use livingblocks::nn::Kernel;
use livingblocks::score::judgement::{block_ownership, dead, EngineQuery, EngineView};
use serde_json::Value;

use crate::util::skip;

/// The nets the fixture holds answers for: the file's name (without `.bin.gz`) and KataGo's
/// name of the net (its header's).
pub const NETS: [(&str, &str); 2] = [
    ("b10c384h6nbttflrs", "b10c384h6nbttflrs"),
    (
        "g170e-b15c192-s1672170752-d466197061",
        "g170-b15c192-s1672170752-d466197061",
    ),
];

/// The net file named `name`, or a visible skip.
pub fn net_file(name: &str) -> Option<PathBuf> {
    let p = livingblocks::engine::nn::nets_dir().join(format!("{name}.bin.gz"));
    if p.is_file() {
        Some(p)
    } else {
        skip(&format!(
            "{} is absent (scripts/get-net.sh fetches it)",
            p.display()
        ));
        None
    }
}

fn fixture() -> Vec<Value> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/net-fidelity.jsonl");
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A point as GTP writes it (`D4`), on a board of `size`.
fn point(size: u8, gtp: &str) -> Point {
    let column = gtp.as_bytes()[0].to_ascii_uppercase();
    let x = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .iter()
        .position(|&c| c == column)
        .unwrap();
    let row: u8 = gtp[1..].parse().unwrap();
    Point::new(x as u8, size - row)
}

fn color(v: &Value) -> Color {
    match v.as_str().unwrap() {
        "B" | "b" => Color::Black,
        _ => Color::White,
    }
}

/// The fixture's query as the run asks it, and the board it leads to.
fn query(v: &Value) -> (EngineQuery, Board) {
    let size = v["boardXSize"].as_u64().unwrap() as u8;
    let stones = |key: &str| -> Vec<(Color, Option<Point>)> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let p = m[1].as_str().unwrap();
                (color(&m[0]), (p != "pass").then(|| point(size, p)))
            })
            .collect()
    };
    let setup: Vec<(Color, Point)> = stones("initialStones")
        .into_iter()
        .map(|(c, p)| (c, p.unwrap()))
        .collect();
    let moves = stones("moves");
    let mut board = Board::new(size).unwrap();
    for &(c, p) in &setup {
        board.setup(p, Some(c)).unwrap();
    }
    let mut to_move = color(&v["initialPlayer"]);
    for &(c, p) in &moves {
        match p {
            Some(p) => drop(board.play(c, p).unwrap()),
            None => board.pass(),
        }
        to_move = c.opponent();
    }
    let final_stones = board
        .points()
        .filter_map(|i| match board.cell(i) {
            livingblocks::go::Cell::Stone(c) => Some((c, board.point(i))),
            _ => None,
        })
        .collect();
    let rules = match v["rules"].as_str().unwrap() {
        "japanese" => Ruleset::Japanese.rules(),
        "chinese" => Ruleset::Chinese.rules(),
        "korean" => Ruleset::Korean.rules(),
        "aga" => Ruleset::Aga.rules(),
        "new-zealand" => Ruleset::Nz.rules(),
        r => panic!("rules {r}"),
    };
    let q = EngineQuery {
        size,
        stones: final_stones,
        to_move,
        rules,
        komi: v["komi"].as_f64().unwrap() as f32,
        history: (!moves.is_empty()).then_some(MoveList { setup, moves }),
    };
    (q, board)
}

/// KataGo's answer in the fixture, as the run reads it.
fn katago(a: &Value) -> EngineView {
    EngineView {
        lead: a["lead"].as_f64().unwrap() as f32,
        score: a["score"].as_f64().unwrap() as f32,
        ownership: a["ownership"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_f64().unwrap() as f32)
            .collect(),
        history: true,
    }
}

/// How far one answer is from another: lead, score, the largest ownership difference, and
/// whether the dead stones are the same.
fn distance(board: &Board, ours: &EngineView, theirs: &EngineView) -> (f32, f32, f32, bool) {
    let net = Net::build(board);
    let dead_of = |v: &EngineView| dead(&net, &block_ownership(board, &net, v));
    let own = ours
        .ownership
        .iter()
        .zip(&theirs.ownership)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    (
        (ours.lead - theirs.lead).abs(),
        (ours.score - theirs.score).abs(),
        own,
        dead_of(ours) == dead_of(theirs),
    )
}

#[test]
fn the_net_answers_as_katago_on_every_fixture_position() {
    let positions = fixture();
    assert!(positions.len() >= 50, "{} positions", positions.len());
    for (file, name) in NETS {
        let Some(file) = net_file(file) else {
            continue;
        };
        let judge = NetJudge::load(&file).unwrap();
        assert_eq!(judge.name(), name);
        let mut worst = (0.0f32, 0.0f32, 0.0f32);
        let mut failures = Vec::new();
        for p in &positions {
            let (q, board) = query(&p["query"]);
            assert_eq!(q.size, board.size());
            let ours = judge.judge(&q).unwrap();
            let theirs = katago(&p["answers"][name]);
            let (lead, score, own, same_dead) = distance(&board, &ours, &theirs);
            worst = (worst.0.max(lead), worst.1.max(score), worst.2.max(own));
            if lead > 0.05 || score > 0.05 || own > 0.02 || !same_dead {
                failures.push(format!(
                    "{}: lead {:+.3} (KataGo {:+.3}), score {:+.3} (KataGo {:+.3}), \
                     ownership off by {own:.3}, same dead stones: {same_dead}",
                    p["name"], ours.lead, theirs.lead, ours.score, theirs.score
                ));
            }
        }
        eprintln!(
            "{name}: {} positions; largest differences: lead {:.4}, score {:.4}, ownership {:.4}",
            positions.len(),
            worst.0,
            worst.1,
            worst.2
        );
        assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
    }
}

#[test]
fn a_wrong_net_file_stops_the_run_before_any_work() {
    let env = crate::util::TestEnv::new();
    env.write("a.sgf", "(;SZ[9]KM[6.5]RE[B+0.5];B[ee];W[cc])");
    std::fs::write(env.input().join("net.bin.gz"), b"\x1f\x8b\x08\x00garbage").unwrap();
    std::fs::write(env.input().join("net.bin"), b"not a KataGo net\n").unwrap();
    for net in ["in/net.bin.gz", "in/net.bin", "in/absent.bin.gz"] {
        let o = env.run(&["analyze", "in/a.sgf", "--out", "out", "--net", net, "-q"]);
        assert_eq!(o.status.code(), Some(2), "{net}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(net), "{net}: {err}");
        assert!(!env.dir.path().join("out/games.csv").exists());
    }
}

#[test]
fn net_and_katago_together_or_without_positions_are_usage_errors() {
    let env = crate::util::TestEnv::new();
    env.write("a.sgf", "(;SZ[9]KM[6.5]RE[B+0.5];B[ee];W[cc])");
    let o = env.run(&[
        "analyze", "in", "--out", "out", "--net", "n.bin.gz", "--katago", "katago",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = env.run(&[
        "analyze",
        "in",
        "--out",
        "out",
        "--net",
        "n.bin.gz",
        "--estimate",
        "never",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--estimate never"));
}

/// `--net` with the b10 net over the 300 games of `pro-score-sample.txt`, against KataGo's
/// own answers for them (`tests/fixtures/katago-sample.tsv`): the same dead stones and the
/// same lead (within 0.05, both written to two decimals) nearly everywhere, and KataGo's
/// accuracy against RE.
#[test]
#[ignore = "corpus-sized: 300 positions through the net"]
fn the_net_judges_the_pro_sample_as_katago() {
    let (Some(pro), Some(net)) = (crate::util::shared("pro/games"), net_file(NETS[0].0)) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let env = crate::util::TestEnv::new();
    let sample = std::fs::read_to_string(root.join("tests/fixtures/pro-score-sample.txt")).unwrap();
    let list: String = sample
        .lines()
        .map(|f| format!("{}\n", pro.join(f).display()))
        .collect();
    env.write("list", list);
    let net = net.display().to_string();
    let o = env.run(&[
        "analyze",
        "--files-from",
        "in/list",
        "--out",
        "out",
        "--net",
        &net,
        "--diagrams",
        "0",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = crate::util::rows(&env.output("out", "games.csv"));
    assert_eq!(games.len(), 300);
    let labels = std::fs::read_to_string(root.join("tests/fixtures/katago-sample.tsv")).unwrap();
    let katago: std::collections::HashMap<String, (f32, &str)> = labels
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let file = pro.join(f[0]).display().to_string();
            (
                file,
                (f[1].parse().unwrap(), f.get(2).copied().unwrap_or("")),
            )
        })
        .collect();
    let (mut same_dead, mut same_lead) = (0, 0);
    let (mut exact, mut within) = (0, 0);
    for g in &games {
        let (lead, dead) = katago[&g["file"]];
        same_dead += usize::from(g["dead_katago"] == dead);
        let ours: f32 = g["katago_lead"].parse().unwrap();
        same_lead += usize::from((ours - lead).abs() <= 0.05);
        // The count rule of docs/scoring.md: the count with the net's dead stones where it
        // lies within 0.6 of the score the net expects, else that score as a count.
        let num = |c: &str| g[c].parse::<f32>().ok();
        let best = match (num("margin_katago"), num("katago_score")) {
            (Some(m), Some(s)) if (m - s).abs() < 0.6 => Some(m),
            _ => num("margin_katago_score"),
        };
        let sign = if g["winner"] == "B" { 1.0 } else { -1.0 };
        if let (Some(b), Some(re)) = (best, num("margin")) {
            exact += usize::from((b - sign * re).abs() < 1e-3);
            within += usize::from((b - sign * re).abs() <= 1.0 + 1e-3);
        }
    }
    eprintln!(
        "pro sample, --net against KataGo: the same dead stones in {same_dead}/300, the lead \
         within 0.05 in {same_lead}/300; the count rule = RE in {exact}/300, within 1 in {within}/300"
    );
    assert!(same_dead >= 299, "the same dead stones in {same_dead}/300");
    assert!(same_lead >= 297, "the lead within 0.05 in {same_lead}/300");
    assert!(exact >= 264, "= RE in {exact}/300");
    assert!(within >= 287, "within 1 in {within}/300");
}

#[test]
fn net_tables_are_the_same_at_any_thread_count_and_name_the_net() {
    let Some(net) = net_file(NETS[0].0) else {
        return;
    };
    let net = net.display().to_string();
    let env = crate::util::env_with_corpus_games(6);
    for (out, j) in [("one", "1"), ("two", "2")] {
        let o = env.run(&["analyze", "in", "--out", out, "--net", &net, "-j", j, "-q"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for t in ["games.csv", "blocks.csv", "summary.csv", "report.md"] {
        assert_eq!(env.output("one", t), env.output("two", t), "{t}");
    }
    let games = crate::util::rows(&env.output("one", "games.csv"));
    assert!(games.iter().any(|g| !g["katago_lead"].is_empty()));
    let manifest = env.output("one", "manifest.tsv");
    assert!(
        manifest.contains("katago_model\tb10c384h6nbttflrs\n"),
        "{manifest}"
    );
    assert!(manifest.contains("net_model_version\t15\n"), "{manifest}");
    assert!(manifest.contains("net_sha256\t"), "{manifest}");
    assert!(env
        .output("one", "report.md")
        .contains("net `b10c384h6nbttflrs`"));
}

#[test]
fn merge_refuses_shards_judged_by_different_nets() {
    let (Some(b10), Some(b15)) = (net_file(NETS[0].0), net_file(NETS[1].0)) else {
        return;
    };
    let env = crate::util::env_with_corpus_games(6);
    for (k, net) in [("0", &b10), ("1", &b15)] {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        let net = net.display().to_string();
        let o = env.run(&[
            "analyze", "in", "--shard", &shard, "--out", &out, "--net", &net, "-q",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = env.run(&["merge", "s0", "s1", "--out", "merged", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("katago_model"));
}

#[test]
fn show_judges_with_the_net() {
    let Some(net) = net_file(NETS[1].0) else {
        return;
    };
    let env = crate::util::env_with_corpus_games(6);
    let mut files: Vec<_> = std::fs::read_dir(env.input())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let file = files[0].display().to_string();
    let o = env.run(&["show", &file, "--net", &net.display().to_string()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("KataGo net g170-b15c192-s1672170752-d466197061 (model version 8"),
        "{text}"
    );
    assert!(text.contains("by its lead"), "{text}");
}

/// The default run judges with the carried net, with nothing fetched: the same tables at one
/// and two threads, shards merged equal to one run, each game's margin read from the column
/// `score_source` names, and shards judged by the estimate refused beside the net's.
#[test]
fn the_carried_net_judges_by_default_and_merges_like_one_run() {
    let env = crate::util::env_with_corpus_games(6);
    let run = |args: &[&str]| {
        env.run_ok(args);
    };
    run(&["analyze", "in", "--out", "one", "-j", "1", "-q"]);
    run(&["analyze", "in", "--out", "two", "-j", "2", "-q"]);
    for k in 0..2 {
        let (shard, out) = (format!("{k}/2"), format!("s{k}"));
        run(&["analyze", "in", "--shard", &shard, "--out", &out, "-q"]);
    }
    run(&["merge", "s1", "s0", "--out", "merged", "-q"]);
    for t in ["games.csv", "blocks.csv", "summary.csv", "report.md"] {
        assert_eq!(env.output("one", t), env.output("two", t), "{t}");
        assert_eq!(env.output("one", t), env.output("merged", t), "{t}");
    }
    let manifest = env.output("one", "manifest.tsv");
    assert!(manifest.contains("judge\tnet\n"), "{manifest}");
    assert!(
        manifest.contains(&format!(
            "net_sha256\t{}\n",
            livingblocks::engine::nn::CARRIED_SHA256
        )),
        "{manifest}"
    );
    let games = crate::util::rows(&env.output("one", "games.csv"));
    let counted: Vec<_> = games
        .iter()
        .filter(|g| !g["katago_score"].is_empty())
        .collect();
    assert!(!counted.is_empty());
    for g in counted {
        let source = &g["score_source"];
        assert!(
            ["katago", "katago_score"].contains(&source.as_str()),
            "{source}"
        );
        let count: f32 = g["margin_katago"].parse().unwrap();
        let score: f32 = g["katago_score"].parse().unwrap();
        let near = (count - score).abs() <= livingblocks::score::decision::COUNT_WITHIN;
        assert_eq!(
            source == "katago",
            near,
            "{}: {count} against {score}",
            g["file"]
        );
    }
    run(&[
        "analyze", "in", "--shard", "1/2", "--out", "e1", "--judge", "estimate", "-q",
    ]);
    let o = env.run(&["merge", "s0", "e1", "--out", "mixed", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("judge"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The numbers do not follow the CPU: every kernel this CPU has gives the carried net's answers
/// bit for bit (the fixture's small boards and its first 19×19 position), the portable one
/// (scalar fused multiply-adds, which any CPU has) included.
#[test]
fn every_kernel_gives_the_same_bits() {
    let positions = fixture();
    let small = positions.iter().filter(|p| p["query"]["boardXSize"] != 19);
    let full = positions.iter().filter(|p| p["query"]["boardXSize"] == 19);
    let picked: Vec<&Value> = small.chain(full.take(1)).collect();
    assert_eq!(picked.len(), 4);
    let answers = |kernel: Kernel| -> Vec<String> {
        let judge = NetJudge::carried().unwrap().with_kernel(kernel);
        assert_eq!(judge.kernel(), kernel);
        picked
            .iter()
            .map(|p| format!("{:?}", judge.judge(&query(&p["query"]).0).unwrap()))
            .collect()
    };
    let want = answers(Kernel::Portable);
    let others: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| k.available() && *k != Kernel::Portable)
        .collect();
    eprintln!(
        "kernels compared with the portable one: {:?}",
        others.iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    for k in others {
        assert_eq!(answers(k), want, "{}", k.name());
    }
}

/// The same, end to end: a run on the portable kernel writes the tables a run on the fastest
/// writes, byte for byte; a kernel that is not one, or that the CPU lacks, is refused before
/// any work.
#[test]
fn a_run_on_the_portable_kernel_writes_the_same_tables() {
    let env = crate::util::env_with_corpus_games(1);
    let run = |out: &str, vars: &[(&str, &str)]| {
        let o = env.run_with(&["analyze", "in", "--out", out, "-q"], vars);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("fast", &[]);
    run("portable", &[(KERNEL_VAR, "portable")]);
    for t in ["games.csv", "blocks.csv", "summary.csv", "manifest.tsv"] {
        assert_eq!(env.output("fast", t), env.output("portable", t), "{t}");
    }
    let games = crate::util::rows(&env.output("portable", "games.csv"));
    assert!(!games[0]["katago_lead"].is_empty(), "the game was judged");
    for bad in ["sse9", "AVX2"] {
        let o = env.run_with(
            &["analyze", "in", "--out", "bad", "-q"],
            &[(KERNEL_VAR, bad)],
        );
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(KERNEL_VAR));
        assert!(!env
            .input()
            .parent()
            .unwrap()
            .join("bad")
            .join("games.csv")
            .exists());
    }
}

/// The carried net's file, unpacked.
fn carried_net_bytes() -> Vec<u8> {
    use std::io::Read;
    let gz =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/b10c384h6nbttflrs.bin.gz"))
            .unwrap();
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// `bytes` with the first `from` (which must be there) replaced by `to`.
fn edited(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{from:?} is in the net"));
    [&bytes[..at], to.as_bytes(), &bytes[at + from.len()..]].concat()
}

/// Hostile net files are refused with exit 2 and one line, before the output folder is
/// touched: a file whose first convolution asks for a 1001×1001 filter (which would need
/// gigabytes a position), one whose header asks for inputs computed as if suicide were legal,
/// a text file, `/dev/zero` (which claims to be empty and never ends), a folder, and a FIFO
/// (whose open would block until a writer came: it is never opened).
#[test]
fn hostile_net_files_are_refused_before_any_work() {
    let env = crate::util::TestEnv::new();
    env.write("a.sgf", "(;SZ[19]KM[6.5]RE[B+0.5];B[pd];W[dd])");
    let net = carried_net_bytes();
    let dir = env.dir.path();
    std::fs::write(
        dir.join("filter.bin"),
        edited(&net, "conv_spatial\n3\n3\n", "conv_spatial\n1001\n1001\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("suicide.bin"),
        edited(&net, "150.0\n0\n0\n", "150.0\n0\n1\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("readme.bin"),
        "# livingblocks\n\nReplays SGF files.\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("folder.bin")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("fifo.bin").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let cases = [
        ("filter.bin", "filter 1001×1001, larger than 9×9"),
        ("suicide.bin", "as if suicide were legal"),
        ("readme.bin", "not a KataGo net"),
        ("/dev/zero", "not a regular file"),
        ("folder.bin", "not a regular file"),
        ("fifo.bin", "not a regular file"),
    ];
    for (file, says) in cases {
        for command in [
            &["analyze", "in", "--out", "out", "-q"][..],
            &["show", "in/a.sgf"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--net", file]);
            let start = std::time::Instant::now();
            let o = env.run(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{file} {command:?}: {err}");
            assert!(err.contains(says), "{file}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{file}: {err}");
            assert!(
                start.elapsed().as_secs() < 30,
                "{file}: refused only after a while"
            );
            assert!(
                !dir.join("out").exists(),
                "{file}: the output folder was made"
            );
        }
    }
}

/// A net written as two gzip members (as `cat a.gz b.gz` makes) is read whole, as gzip and
/// zcat read it, and judges as the carried net does.
#[test]
fn a_net_in_two_gzip_members_is_read_whole() {
    use std::io::Write;
    let net = carried_net_bytes();
    let mut file = Vec::new();
    for half in [&net[..net.len() / 2], &net[net.len() / 2..]] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(half).unwrap();
        file.extend(gz.finish().unwrap());
    }
    let env = crate::util::env_with_corpus_games(1);
    std::fs::write(env.dir.path().join("two.bin.gz"), file).unwrap();
    for (out, extra) in [("carried", &[][..]), ("two", &["--net", "two.bin.gz"][..])] {
        let mut args = vec!["analyze", "in", "--out", out, "-q"];
        args.extend(extra);
        let o = env.run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let lead =
        |out: &str| crate::util::rows(&env.output(out, "games.csv"))[0]["katago_lead"].clone();
    assert!(!lead("two").is_empty());
    assert_eq!(lead("two"), lead("carried"));
}
