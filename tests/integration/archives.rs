//! Archives and compressed collections as inputs, built here with the same crates.

use std::io::Write;

use crate::util::{rows, TestEnv};

const A: &str = "(;SZ[9];B[ee];W[cc])";
const B: &str = "(;SZ[9]AB[aa][bb];W[ee])";

fn tar_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, text) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, text.as_bytes()).unwrap();
    }
    b.into_inner().unwrap()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn bz2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in files {
        z.start_file(*name, opts).unwrap();
        z.write_all(text.as_bytes()).unwrap();
    }
    z.finish().unwrap().into_inner()
}

#[test]
fn every_container_kind_is_read_in_place() {
    let env = TestEnv::new();
    let members = [
        ("games/z.sgf", A),
        ("games/a.SGF", B),
        ("notes.txt", "not a game"),
    ];
    env.write("set.zip", zip_of(&members));
    env.write("set.tar", tar_of(&members));
    env.write("set.tar.gz", gz(&tar_of(&members)));
    env.write("set.tar.bz2", bz2(&tar_of(&members)));
    env.write("set.tar.xz", xz(&tar_of(&members)));
    let dump = format!("{A}\n{B}\n{A}");
    env.write("dump.sgf.gz", gz(dump.as_bytes()));
    env.write("dump.sgf.bz2", bz2(dump.as_bytes()));
    env.write("dump.sgf.xz", xz(dump.as_bytes()));
    env.write("plain.sgf", A);

    let games = rows(&env.analyze("out", 2));
    let got: Vec<(String, String, String)> = games
        .iter()
        .map(|r| (r["file"].clone(), r["game"].clone(), r["status"].clone()))
        .collect();
    let ok = |f: &str, g: &str| (f.to_string(), g.to_string(), "ok".to_string());
    let mut expected = Vec::new();
    for dump in ["dump.sgf.bz2", "dump.sgf.gz", "dump.sgf.xz"] {
        for g in ["0", "1", "2"] {
            expected.push(ok(dump, g));
        }
    }
    expected.push(ok("plain.sgf", "0"));
    for set in [
        "set.tar",
        "set.tar.bz2",
        "set.tar.gz",
        "set.tar.xz",
        "set.zip",
    ] {
        // Members in archive order, not sorted.
        expected.push(ok(&format!("{set}!games/z.sgf"), "0"));
        expected.push(ok(&format!("{set}!games/a.SGF"), "0"));
    }
    assert_eq!(got, expected);
    let b = games
        .iter()
        .find(|r| r["file"] == "dump.sgf.xz" && r["game"] == "1")
        .unwrap();
    assert_eq!(b["setup_stones"], "2");
    assert_eq!(b["bytes"], B.len().to_string());
}

#[test]
fn a_decompression_bomb_is_capped() {
    let env = TestEnv::new();
    // 64 MiB of comment that compresses to a few dozen KiB.
    let bomb = format!("{A}(;SZ[9]C[{}];B[aa]){B}", "x".repeat(64 << 20));
    env.write("bomb.sgf.gz", gz(bomb.as_bytes()));
    env.write(
        "bomb.zip",
        zip_of(&[
            ("big.sgf", &bomb[A.len()..bomb.len() - B.len()]),
            ("small.sgf", A),
        ]),
    );
    let o = env.run(&[
        "analyze",
        "in",
        "--out",
        "out",
        "--max-file-size",
        "1M",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = rows(&env.output("out", "games.csv"));
    let got: Vec<(&str, &str, &str)> = games
        .iter()
        .map(|r| (r["file"].as_str(), r["game"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("bomb.sgf.gz", "0", "ok"),
            ("bomb.sgf.gz", "1", "too_large"),
            ("bomb.sgf.gz", "2", "ok"),
            ("bomb.zip!big.sgf", "", "too_large"),
            ("bomb.zip!small.sgf", "0", "ok"),
        ]
    );
}

#[test]
fn a_corrupt_archive_is_a_row() {
    let env = TestEnv::new();
    env.write("broken.zip", b"PK\x03\x04 this is not really a zip");
    let mut tgz = gz(&tar_of(&[("a.sgf", A)]));
    tgz.truncate(tgz.len() / 2);
    env.write("cut.tar.gz", tgz);
    let games = rows(&env.analyze("out", 1));
    assert!(
        games
            .iter()
            .any(|r| r["file"] == "broken.zip" && r["status"] == "io_error"),
        "{games:?}"
    );
    assert!(
        games
            .iter()
            .any(|r| r["file"].starts_with("cut.tar.gz") && r["status"] != "ok"),
        "{games:?}"
    );
}

#[test]
fn shards_with_archives_merge_to_one_run() {
    let env = TestEnv::new();
    let members = [("z.sgf", A), ("a.sgf", B), ("m.sgf", A)];
    for i in 0..6 {
        env.write(&format!("set{i}.zip"), zip_of(&members));
        env.write(&format!("dump{i}.sgf.gz"), gz(format!("{A}{B}").as_bytes()));
        env.write(&format!("plain{i}.sgf"), B);
    }
    // Archives whose names hold a `!` (escaped `\!` in the file column) or a tab: their
    // members stay together, in archive order.
    for name in ["odd!{i}.zip", "odd\t{i}.zip", "odd!{i}.sgf"] {
        for i in 0..2 {
            let name = name.replace("{i}", &i.to_string());
            match name.ends_with(".zip") {
                true => env.write(&name, zip_of(&members)),
                false => env.write(&name, A),
            }
        }
    }
    env.analyze("all", 2);
    for k in 0..2 {
        let o = env.run(&[
            "analyze",
            "in",
            "--out",
            &format!("s{k}"),
            "--shard",
            &format!("{k}/2"),
            "-q",
        ]);
        assert!(o.status.success());
    }
    let o = env.run(&["merge", "s0", "s1", "--out", "merged"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["games.csv", "blocks.csv", "manifest.tsv"] {
        assert!(
            env.output("all", name) == env.output("merged", name),
            "{name} differs"
        );
    }
}

/// One scanner splits plain collections and compressed streams: every input gives the same
/// rows as `x.sgf` and as `x.sgf.gz` (but for the columns that name the file and its bytes).
#[test]
fn plain_and_compressed_collections_give_the_same_rows() {
    let cases: [(&str, &str); 9] = [
        ("two", "(;SZ[9];B[ee])\n(;SZ[9];W[cc])\n"),
        (
            "header",
            "From: someone\nSubject: (a game)\n\n(;SZ[9];B[ee])(;SZ[9];W[dd])",
        ),
        ("stray", "(;SZ[9];B[ee]))\n(;SZ[9];W[cc])\n)\n"),
        (
            "between",
            "(;SZ[9];B[ee])\n-- next --\n(;SZ[9];W[cc]) -- sig",
        ),
        ("broken", "(;SZ[9];B[ee])(;SZ[9];B[bb]C[x]W)(;SZ[9];W[cc])"),
        ("truncated", "(;SZ[9];B[ee])(;SZ[9];B[bb];W["),
        ("all_broken", "(;SZ[9]C)(;SZ[9];W"),
        ("no_tree", "no game here (at all)\n"),
        ("paren_junk", "( not a tree ) (;SZ[9];B[aa]C[(x\\])])"),
    ];
    let env = TestEnv::new();
    for (name, text) in cases {
        env.write(&format!("{name}.sgf"), text);
        env.write(&format!("{name}.sgf.gz"), gz(text.as_bytes()));
    }
    let games = rows(&env.analyze("out", 2));
    let per_file = |file: &str| -> Vec<Vec<(String, String)>> {
        games
            .iter()
            .filter(|r| r["file"] == file)
            .map(|r| {
                let mut cells: Vec<(String, String)> = r
                    .iter()
                    .filter(|(k, _)| {
                        // The compressed copy repeats the plain one's games.
                        ![
                            "file",
                            "bytes",
                            "encoding",
                            "encoding_source",
                            "duplicate_of",
                            "duplicate_of_game",
                            "duplicate_kind",
                        ]
                        .contains(&k.as_str())
                    })
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                cells.sort();
                cells
            })
            .collect()
    };
    for (name, _) in cases {
        let plain = per_file(&format!("{name}.sgf"));
        assert!(!plain.is_empty(), "{name}: no rows");
        assert_eq!(plain, per_file(&format!("{name}.sgf.gz")), "{name}");
    }
    let detail = |file: &str, game: &str| {
        games
            .iter()
            .find(|r| r["file"] == file && r["game"] == game)
            .map(|r| (r["status"].clone(), r["detail"].clone()))
            .unwrap()
    };
    // A stray `)` no longer drops the games after it.
    assert_eq!(
        detail("stray.sgf", "1"),
        (
            "ok".into(),
            "ignored 1 byte before this game tree and 1 byte after it".into()
        )
    );
    assert_eq!(
        detail("header.sgf", "0").1,
        "ignored 27 bytes before this game tree"
    );
    assert_eq!(detail("no_tree.sgf", "").0, "parse_error");
    assert_eq!(detail("all_broken.sgf", "1").0, "parse_error");
}

/// Every `.sgf` name in an archive gets a row, read or not: a hard link says which member
/// holds its game, a symbolic link, a folder and a FIFO are skipped by name, an archive inside
/// the archive is named and not read; an archive with nothing to read, and a FIFO given as a
/// PATH, get a row of their own.
#[test]
fn every_sgf_name_in_an_archive_gets_a_row() {
    let env = TestEnv::new();
    let mut b = tar::Builder::new(Vec::new());
    let entry = |kind: tar::EntryType, size: usize| {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(size as u64);
        h.set_mode(0o644);
        h
    };
    let mut h = entry(tar::EntryType::Regular, A.len());
    b.append_data(&mut h, "g/a.sgf", A.as_bytes()).unwrap();
    for (name, kind) in [
        ("g/hard.sgf", tar::EntryType::Link),
        ("g/soft.sgf", tar::EntryType::Symlink),
    ] {
        let mut h = entry(kind, 0);
        b.append_link(&mut h, name, "g/a.sgf").unwrap();
    }
    for (name, kind) in [
        ("g/folder.sgf/", tar::EntryType::Directory),
        ("g/pipe.sgf", tar::EntryType::Fifo),
    ] {
        let mut h = entry(kind, 0);
        b.append_data(&mut h, name, &[][..]).unwrap();
    }
    let mut h = entry(tar::EntryType::Regular, 2);
    b.append_data(&mut h, "g/inner.zip", &b"PK"[..]).unwrap();
    env.write("set.tar", b.into_inner().unwrap());
    env.write("empty.tar.gz", gz(&tar_of(&[])));
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    z.start_file("g/a.sgf", options).unwrap();
    std::io::Write::write_all(&mut z, A.as_bytes()).unwrap();
    z.add_symlink("g/soft.sgf", "a.sgf", options).unwrap();
    env.write("set.zip", z.finish().unwrap().into_inner());
    #[cfg(unix)]
    {
        let fifo = env.dir.path().join("pipe.sgf");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()));
    }
    let o = env.run(&["analyze", "in", "pipe.sgf", "--out", "out", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got: Vec<(String, String, String)> = rows(&env.output("out", "games.csv"))
        .into_iter()
        .map(|r| (r["file"].clone(), r["status"].clone(), r["detail"].clone()))
        .collect();
    let row = |f: &str| {
        got.iter()
            .find(|(name, _, _)| name.ends_with(f))
            .unwrap_or_else(|| panic!("no row for {f}: {got:?}"))
    };
    assert_eq!(row("set.tar!g/a.sgf").1, "ok");
    let hard = row("set.tar!g/hard.sgf");
    assert_eq!(hard.1, "skipped");
    assert!(hard.2.contains("a hard link to g/a.sgf"), "{hard:?}");
    assert!(row("set.tar!g/soft.sgf").2.contains("symbolic link"));
    assert_eq!(row("set.tar!g/folder.sgf").2, "a folder");
    assert_eq!(row("set.tar!g/pipe.sgf").2, "not a regular file");
    assert!(row("set.tar!g/inner.zip")
        .2
        .contains("an archive inside an archive"));
    assert_eq!(row("empty.tar.gz").2, "no .sgf member in the archive");
    // A zip made on Unix marks a symbolic link by its mode: skipped as in a tar, not read
    // as a game whose text is the target's name.
    assert!(row("set.zip!g/a.sgf").1 == "ok");
    let soft = row("set.zip!g/soft.sgf");
    assert_eq!(
        (soft.1.as_str(), soft.2.as_str()),
        ("skipped", "a symbolic link, not followed")
    );
    #[cfg(unix)]
    assert!(
        got.iter()
            .any(|(f, st, d)| f == "pipe.sgf" && st == "skipped" && d == "not a regular file"),
        "{got:?}"
    );
}
