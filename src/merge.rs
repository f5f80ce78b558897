//! `livingblocks merge`: joins the outputs of `analyze --shard K/N` runs into the tables one
//! run over everything would have written, byte for byte. Inputs are ordered by name and each
//! lives in exactly one shard, so each table is a k-way merge of the shards' rows, grouped by
//! the `file` column. Shards that do not belong together are refused before anything is
//! written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Instant;

use crate::app::{AppError, RunReport};
use crate::duplicates::Duplicates;
use crate::go::{GameKey, KeyLine};
use crate::sink::manifest::MUST_AGREE;
use crate::sink::stage::Digesting;
use crate::sink::{
    stage, tables, FolderError, Manifest, OutputLock, RunStats, Stage, Table, TableFormat,
    TableReader,
};
use crate::source::Shard;
use crate::sum::Summable;

/// Merges shard folders into `out`.
pub fn merge(
    shards: &[PathBuf],
    out: &Path,
    diagrams: usize,
    cancel: &AtomicI32,
) -> Result<RunReport, AppError> {
    crate::app::in_out_folder(out, || merge_into(shards, out, diagrams, cancel))
}

fn merge_into(
    shards: &[PathBuf],
    out: &Path,
    diagrams: usize,
    cancel: &AtomicI32,
) -> Result<RunReport, AppError> {
    let start = Instant::now();
    crate::app::check_out_path(out)?;
    let manifests = check_shards(shards)?;
    // The merged tables are written as the shards' were, plain or compressed.
    let format = TableFormat::named_by(&manifests[0]);
    if let Some((s, _)) = shards
        .iter()
        .zip(&manifests)
        .find(|(_, m)| TableFormat::named_by(m) != format)
    {
        return Err(AppError::Usage(format!(
            "{} and {}: one shard's tables are compressed (--compress) and the other's are \
             not; run them alike",
            shards[0].display(),
            s.display()
        )));
    }
    if let Ok(target) = out.canonicalize() {
        if let Some(s) = shards
            .iter()
            .find(|s| s.canonicalize().is_ok_and(|s| s == target))
        {
            return Err(AppError::Usage(format!(
                "{}: is shard folder {}: merge into a folder of its own",
                out.display(),
                s.display()
            )));
        }
    }
    crate::app::create_out(out)?;
    let lock = OutputLock::acquire(out)?;
    let stale = crate::sink::remove_stale(&lock)?;
    stage::check_out(out)?;
    let write_err = |e: std::io::Error| AppError::write(out)(e);
    let staged = Stage::new(out).map_err(write_err)?;
    for (name, columns) in tables() {
        let path = staged.path().join(format.file(name));
        let mut table = Table::create(&path, &columns).map_err(write_err)?;
        let mut copies = (name == "games.csv").then(|| Copies::of(&columns, staged.path()));
        merge_table(
            shards,
            &manifests,
            &format.file(name),
            &columns,
            &mut table,
            copies.as_mut(),
        )?;
        table.complete().map_err(write_err)?;
        if let Some(c) = copies.filter(|c| c.seen.moved()) {
            crate::sink::games::name_copies(&path, c.seen.resolve()).map_err(write_err)?;
        }
        let signal = cancel.load(Ordering::SeqCst);
        if signal != 0 {
            return Err(AppError::Interrupted(signal));
        }
    }
    let mut stats = RunStats::default();
    for m in &manifests {
        stats.add_all(&m.totals()?);
    }
    let mut merged = manifests[0].clone();
    merged.entries.insert("shard".into(), "all".into());
    // Where the first shard's run was started, seen from the merged folder.
    merged.entries.remove("started_in");
    if let Some(base) = manifests[0].base(&shards[0]) {
        merged.set_base(out, &base);
    }
    merged.set_totals(&stats);
    crate::report::write_from_tables(staged.path(), staged.path(), out, &merged, diagrams)?;
    let outputs = crate::app::commit(staged, merged, false, cancel)?;
    Ok(RunReport {
        stats,
        elapsed: start.elapsed(),
        threads: 1,
        outputs,
        stale,
        engine: None,
        net: None,
    })
}

/// Reads every shard's manifest and refuses a set that is not exactly the shards 0..N of one
/// run: a missing or repeated shard, or shards of another version or other options.
fn check_shards(shards: &[PathBuf]) -> Result<Vec<Manifest>, AppError> {
    let bad = AppError::Usage;
    let mut manifests = Vec::new();
    let mut seen: BTreeMap<u32, &PathBuf> = BTreeMap::new();
    let mut n = None;
    for dir in shards {
        // A shard whose files do not match its manifest (cut short, edited, half of another
        // run) is refused before anything is written.
        // A shard whose commit a killed run left half done is finished or undone first,
        // holding its lock, as the next run into it would.
        if dir.join(stage::JOURNAL).exists() {
            let lock = OutputLock::acquire(dir)?;
            crate::sink::remove_stale(&lock)?;
        }
        let m = stage::verify(dir, &|_| true)?;
        stage::names_every_table(dir, &m)?;
        let shard: Shard = m.get("shard").unwrap_or("").parse().map_err(|_| {
            bad(format!(
                "{}: not a shard (run with --shard K/N)",
                dir.display()
            ))
        })?;
        match n {
            None => n = Some(shard.n),
            Some(n) if n != shard.n => {
                return Err(bad(format!(
                    "{}: shard {shard} is from a split into {} shards, not {n}",
                    dir.display(),
                    shard.n
                )))
            }
            _ => {}
        }
        if let Some(other) = seen.insert(shard.k, dir) {
            return Err(bad(format!(
                "shard {shard} given twice: {} and {}",
                other.display(),
                dir.display()
            )));
        }
        if let Some(first) = manifests.first() {
            let first: &Manifest = first;
            if first.get("input_set") != m.get("input_set") {
                return Err(bad(format!(
                    "{}: its inputs are not {}'s ({} against {} inputs and name hash): shards \
                     of different runs, or inputs named differently (a folder given relative \
                     in one shard and absolute in another)",
                    dir.display(),
                    shards[0].display(),
                    m.get("input_set").unwrap_or("none"),
                    first.get("input_set").unwrap_or("none")
                )));
            }
            for key in MUST_AGREE {
                let agree = match *key {
                    "paths" => same_paths(first.get(key), m.get(key)),
                    _ => first.get(key) == m.get(key),
                };
                if !agree {
                    return Err(bad(format!(
                        "{}: {key} is {:?}, but {} has {:?}: shards of different runs",
                        dir.display(),
                        m.get(key).unwrap_or(""),
                        shards[0].display(),
                        first.get(key).unwrap_or("")
                    )));
                }
            }
            let (here, there) = (started_in(dir, &m), started_in(&shards[0], first));
            if reads_relative(&m) && here != there {
                return Err(bad(format!(
                    "{}: its run was started in {}, but {}'s in {}: shards of runs over \
                     different folders that share a name",
                    dir.display(),
                    shown(&here),
                    shards[0].display(),
                    shown(&there)
                )));
            }
        }
        manifests.push(m);
    }
    let n = n.ok_or_else(|| bad("no shard folders given".into()))?;
    let missing: Vec<String> = (0..n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(bad(format!("missing shards: {}", missing.join(", "))));
    }
    Ok(manifests)
}

/// The folder a shard's run was started in (its `started_in`, from the shard folder `dir`),
/// resolved where it is there, so that two spellings of one folder compare equal.
fn started_in(dir: &Path, m: &Manifest) -> Option<PathBuf> {
    let base = m.base(dir)?;
    Some(base.canonicalize().unwrap_or_else(|_| {
        std::path::absolute(&base)
            .unwrap_or(base)
            .components()
            .collect()
    }))
}

fn shown(p: &Option<PathBuf>) -> String {
    p.as_ref()
        .map_or_else(|| "(not recorded)".to_string(), |p| p.display().to_string())
}

/// Whether a run named any input relative to the folder it was started in: then that folder
/// is part of what the shards read.
fn reads_relative(m: &Manifest) -> bool {
    let relative = |p: &str| !p.is_empty() && Path::new(p).is_relative();
    m.get("paths").is_some_and(|p| p.split(' ').any(relative))
        || m.get("files_from").is_some_and(|l| l != "-" && relative(l))
}

/// Whether two shards' PATHs are the same, however spelled: `corpus`, `corpus/` and
/// `/abs/corpus` (from here) are one folder.
fn same_paths(a: Option<&str>, b: Option<&str>) -> bool {
    let (a, b) = (a.unwrap_or(""), b.unwrap_or(""));
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| {
            let lexical = |p: &str| {
                let p = Path::new(p);
                p.components()
                    .filter(|c| !matches!(c, std::path::Component::CurDir))
                    .collect::<PathBuf>()
            };
            lexical(x) == lexical(y)
                || matches!(
                    (Path::new(x).canonicalize(), Path::new(y).canonicalize()),
                    (Ok(p), Ok(q)) if p == q
                )
        })
}

/// The input a row belongs to: its `file`, or for `archive!member` the archive, whose
/// members keep archive order.
fn input_key(file: &[u8]) -> &[u8] {
    match crate::source::name::member_separator(file) {
        Some(i) if crate::source::container_of_bytes(&file[..i]).is_some() => &file[..i],
        _ => file,
    }
}

/// K-way merge of one table: repeatedly takes the shard whose next input (by the `file`
/// column) comes first, and copies all of that input's rows.
fn merge_table(
    shards: &[PathBuf],
    manifests: &[Manifest],
    name: &str,
    columns: &[&str],
    out: &mut Table,
    mut copies: Option<&mut Copies>,
) -> Result<(), AppError> {
    let read_err = |p: &Path, source: csv::Error| AppError::Table {
        path: p.to_path_buf(),
        source,
    };
    let mut readers = Vec::new();
    let mut heads: Vec<Option<csv::ByteRecord>> = Vec::new();
    let mut holders = Vec::new();
    for (dir, m) in shards.iter().zip(manifests) {
        let path = dir.join(name);
        let file = std::fs::File::open(&path).map_err(|source| FolderError::Read {
            path: path.clone(),
            source,
        })?;
        let bytes = std::io::BufReader::new(Digesting::new(file));
        let table = TableReader::new(bytes, &path).map_err(|source| FolderError::Read {
            path: path.clone(),
            source,
        })?;
        let mut r = csv::Reader::from_reader(table);
        holders.push(m.get("shard").and_then(|s| s.parse::<Shard>().ok()));
        let header: Vec<&[u8]> = r
            .byte_headers()
            .map_err(|e| read_err(&path, e))?
            .iter()
            .collect();
        let expected: Vec<&[u8]> = columns.iter().map(|c| c.as_bytes()).collect();
        if header != expected {
            return Err(AppError::Usage(format!(
                "{}: columns differ from this version's",
                path.display()
            )));
        }
        let mut first = csv::ByteRecord::new();
        let has = r
            .read_byte_record(&mut first)
            .map_err(|e| read_err(&path, e))?;
        heads.push(has.then_some(first));
        readers.push((path, r));
    }
    let write_err = |source: std::io::Error| AppError::Write {
        path: PathBuf::from(name),
        source,
    };
    // The shard whose next input comes first, while any has rows left.
    let next = |heads: &[Option<csv::ByteRecord>]| {
        (0..heads.len())
            .filter(|&i| heads[i].is_some())
            .min_by(|&a, &b| {
                input_key(&heads[a].as_ref().unwrap()[0])
                    .cmp(input_key(&heads[b].as_ref().unwrap()[0]))
            })
    };
    while let Some(i) = next(&heads) {
        let key = input_key(&heads[i].as_ref().unwrap()[0]).to_vec();
        // An input another shard of the split holds: the shards do not partition one list.
        let input = String::from_utf8_lossy(&key);
        if let Some(shard) = holders[i].filter(|s| !s.holds(&input)) {
            return Err(AppError::Usage(format!(
                "{}: shard {shard} has rows of {input}, which is not its input: shards of \
                 different runs, or inputs named differently (a folder given relative in one \
                 shard and absolute in another)",
                shards[i].display()
            )));
        }
        while let Some(rec) = heads[i].take() {
            if input_key(&rec[0]) != &key[..] {
                heads[i] = Some(rec);
                break;
            }
            match copies.as_deref_mut() {
                Some(c) => c.named(&rec).and_then(|named| out.record(&named)),
                None => out.record(&rec),
            }
            .map_err(write_err)?;
            let (path, r) = &mut readers[i];
            let mut next = csv::ByteRecord::new();
            if r.read_byte_record(&mut next)
                .map_err(|e| read_err(path, e))?
            {
                heads[i] = Some(next);
            }
        }
    }
    // What was read must be what each shard's manifest recorded: a shard run again while
    // this merge read it is refused, not mixed in.
    for ((path, r), m) in readers.into_iter().zip(manifests) {
        // Every byte of the file, past the end of a compressed stream too.
        let mut bytes = r.into_inner().into_inner().into_inner();
        std::io::copy(&mut bytes, &mut std::io::sink()).map_err(|source| FolderError::Read {
            path: path.clone(),
            source,
        })?;
        let (size, sum) = bytes.digest();
        let expected = m
            .files()
            .into_iter()
            .find(|(f, _)| f == name)
            .map(|(_, v)| v);
        if expected.as_deref() != Some(format!("{size} {sum}").as_str()) {
            return Err(AppError::Usage(format!(
                "{}: changed while merge read it ({size} bytes read; its manifest.tsv says {}): \
                 merge again once the shard is complete",
                path.display(),
                expected
                    .as_deref()
                    .and_then(|e| e.split(' ').next())
                    .unwrap_or("nothing")
            )));
        }
    }
    Ok(())
}

/// games.csv's duplicate columns, named again in merged order: the copy of a game that
/// counts may sit in another shard, and the merged table must name it as one run would. Rows
/// are named as the games before them tell (`Duplicates::meet`), then, where a later copy
/// turns out the most complete, the table is written again (`name_copies`), as a run does.
struct Copies {
    /// file, game, game_key, opening_key, moves, passes, board_size, key_moves, status; then
    /// the three columns written.
    read: [usize; 9],
    write: [usize; 3],
    seen: Duplicates,
}

impl Copies {
    /// Keeps what it matches in an unnamed file in `dir`, the merge's stage.
    fn of(columns: &[&str], dir: &std::path::Path) -> Copies {
        let at = |name: &str| {
            columns
                .iter()
                .position(|c| *c == name)
                .expect("games.csv has the duplicate columns")
        };
        Copies {
            read: [
                "file",
                "game",
                "game_key",
                "opening_key",
                "moves",
                "passes",
                "board_size",
                "key_moves",
                "status",
            ]
            .map(at),
            write: crate::sink::games::DUPLICATE_COLUMNS.map(at),
            seen: Duplicates::in_folder(dir),
        }
    }

    /// `row` with its duplicate columns as this merge's order gives them so far.
    fn named(&mut self, row: &csv::ByteRecord) -> std::io::Result<csv::ByteRecord> {
        let text = |i: usize| std::str::from_utf8(row.get(i).unwrap_or(b"")).unwrap_or("");
        let [file, game, whole, opening, moves, passes, size, line, status] = self.read.map(text);
        let hex = |s: &str| u64::from_str_radix(s, 16).ok();
        let key = hex(whole).map(|whole| GameKey {
            whole,
            opening: hex(opening),
            moves: moves
                .parse::<u32>()
                .unwrap_or(0)
                .saturating_sub(passes.parse::<u32>().unwrap_or(0)),
        });
        let line = size
            .parse::<u8>()
            .ok()
            .and_then(|n| KeyLine::parse(n, line));
        let replayed = status != crate::row::Status::IllegalMove.as_str();
        let found = match (key, line, game.parse::<usize>()) {
            (Some(key), Some(line), Ok(game)) => {
                self.seen.meet(file, game, &key, &line, replayed)?
            }
            _ => None,
        };
        Ok(crate::sink::games::naming(row, &self.write, found.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_other_spellings_are_the_same_run() {
        let here = std::env::current_dir().unwrap();
        let abs = here.join("src");
        let abs = abs.to_str().unwrap();
        assert!(same_paths(Some("src"), Some("src/")));
        assert!(same_paths(Some("./src"), Some("src")));
        assert!(same_paths(Some("src"), Some(abs)));
        assert!(same_paths(Some("a b"), Some("a/ ./b")));
        assert!(!same_paths(Some("src"), Some("tests")));
        assert!(!same_paths(Some("src"), Some("src tests")));
    }

    fn chain_header() -> Vec<&'static str> {
        crate::sink::schema::names(&crate::sink::schema::fields(crate::sink::CHAIN_COLUMNS))
    }

    /// Writes chains.csv with `rows` (a `file` each) into `dir`, and a manifest that says
    /// `recorded` is its content and `shard` its shard.
    fn shard_table(dir: &Path, shard: &str, rows: &[&str], recorded: &str) -> Manifest {
        let mut text = chain_header().join(",") + "\n";
        for r in rows {
            text += &format!("{r},0,B,aa,1,w0,1,1,1\n");
        }
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("chains.csv"), &text).unwrap();
        let mut d = Digesting::new(recorded.as_bytes());
        std::io::copy(&mut d, &mut std::io::sink()).unwrap();
        let (size, sum) = d.digest();
        let mut m = Manifest::default();
        m.entries.insert("shard".into(), shard.into());
        m.entries
            .insert("file:chains.csv".into(), format!("{size} {sum}"));
        m
    }

    fn names_of(k: u32) -> Vec<String> {
        let shard = Shard { k, n: 2 };
        (0..50)
            .map(|i| format!("g{i}.sgf"))
            .filter(|n| shard.holds(n))
            .take(2)
            .collect()
    }

    /// merge holds what it reads against each shard's manifest and each row's input against
    /// the shard that holds it.
    #[test]
    fn a_table_that_changed_or_holds_another_shards_inputs_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (names_of(0), names_of(1));
        let table = |rows: &[&String]| {
            let mut t = chain_header().join(",") + "\n";
            for r in rows {
                t += &format!("{r},0,B,aa,1,w0,1,1,1\n");
            }
            t
        };
        let dirs = [tmp.path().join("s0"), tmp.path().join("s1")];
        let run = |manifests: &[Manifest]| {
            let out = tmp.path().join("out.csv");
            let mut t = Table::create(&out, &chain_header()).unwrap();
            merge_table(
                &dirs,
                manifests,
                "chains.csv",
                &chain_header(),
                &mut t,
                None,
            )
        };
        let rows_a: Vec<&str> = a.iter().map(String::as_str).collect();
        let rows_b: Vec<&str> = b.iter().map(String::as_str).collect();
        let m0 = shard_table(
            &dirs[0],
            "0/2",
            &rows_a,
            &table(&a.iter().collect::<Vec<_>>()),
        );
        let m1 = shard_table(
            &dirs[1],
            "1/2",
            &rows_b,
            &table(&b.iter().collect::<Vec<_>>()),
        );
        assert_eq!(
            run(&[m0.clone(), m1.clone()]).map_err(|e| e.to_string()),
            Ok(())
        );
        // Shard 1 written again after its manifest: what merge reads is not what it says.
        let m1_old = shard_table(&dirs[1], "1/2", &rows_b[..1], &table(&[&b[0], &b[1]]));
        let e = run(&[m0.clone(), m1_old]).unwrap_err().to_string();
        assert!(e.contains("changed while merge read it"), "{e}");
        // Shard 1 holding one of shard 0's inputs.
        let mixed = [b[0].as_str(), a[1].as_str()];
        let m1 = shard_table(&dirs[1], "1/2", &mixed, &table(&[&b[0], &a[1]]));
        let e = run(&[m0, m1]).unwrap_err().to_string();
        assert!(e.contains("which is not its input"), "{e}");
    }

    #[test]
    fn archive_members_group_under_their_archive() {
        assert_eq!(input_key(b"set.zip!games/z.sgf"), b"set.zip");
        assert_eq!(input_key(b"set.tar.gz!a.sgf"), b"set.tar.gz");
        assert_eq!(input_key(b"odd!name.sgf"), b"odd!name.sgf");
        assert_eq!(input_key(b"dump.sgf.xz"), b"dump.sgf.xz");
    }
}
