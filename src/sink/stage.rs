//! A run's outputs as one unit. Everything (tables, report, plots) is written into a hidden
//! folder inside DIR, `.livingblocks-stage.XXXXXX`; then `commit` sets the folder's old
//! outputs aside, renames the new ones into place, and writes `manifest.tsv` last, naming
//! every output with its size and SHA-256. A failure or a signal before the manifest lands
//! puts the old outputs back, so DIR holds one whole run or the other. A folder whose
//! manifest is missing, or does not match its files, is not a complete output (`verify`):
//! `merge` and `report` refuse it and name the file.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::Manifest;

/// The prefix of a stage folder inside DIR; a killed run's is removed by the next run.
pub const STAGE_PREFIX: &str = ".livingblocks-stage.";

/// The manifest's key for an output file: `file:plots/endings.svg`.
const FILE_KEY: &str = "file:";

/// The outputs every run writes at the top of DIR; `plots/` holds the rest.
pub const OUTPUTS: [&str; 8] = [
    "games.csv",
    "blocks.csv",
    "chains.csv",
    "big_eyes.csv",
    "report.md",
    "summary.csv",
    "not_benson.csv",
    "manifest.tsv",
];

/// The tables, which `report DIR` reads and keeps.
pub const TABLES: [&str; 4] = ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"];

/// Why a commit did not happen; the folder holds its old outputs again.
#[derive(Debug)]
pub enum CommitError {
    Io(PathBuf, io::Error),
    /// Stopped by this signal before the manifest landed.
    Stopped(i32),
}

/// The stage folders of this process. Held locked while one is committed, so that a second
/// signal removes them (`remove_live_stages`) only before a commit or after it, never with
/// the old outputs set aside inside one.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Attempts at removing a stage folder that writers are still filling.
const REMOVE_TRIES: usize = 20;

/// Removes this process's stage folders and the lock files it holds:
/// what a second signal does before ending the process (which runs no destructor).
pub fn remove_live_stages() {
    for p in live().iter() {
        // The run's writers may still add files while the folder is walked, which makes the
        // removal fail with the folder not empty: try again until it is gone.
        for _ in 0..REMOVE_TRIES {
            if std::fs::remove_dir_all(p).is_ok() || !p.exists() {
                break;
            }
        }
    }
    super::lock::remove_held();
}

/// The staged outputs of one run, in a folder removed when dropped.
pub struct Stage {
    out: PathBuf,
    dir: tempfile::TempDir,
}

impl Drop for Stage {
    fn drop(&mut self) {
        // Removed before it leaves the list, and with the list held: a second signal
        // meanwhile waits, and one after finds nothing left to remove.
        let mut live = live();
        let _ = std::fs::remove_dir_all(self.dir.path());
        live.retain(|p| p != self.dir.path());
    }
}

impl Stage {
    pub fn new(out: &Path) -> io::Result<Stage> {
        // Held while the folder is made, so that a second signal meanwhile waits and then
        // finds it.
        let mut live = live();
        let dir = tempfile::Builder::new()
            .prefix(STAGE_PREFIX)
            .tempdir_in(out)?;
        live.push(dir.path().to_path_buf());
        drop(live);
        Ok(Stage {
            out: out.to_path_buf(),
            dir,
        })
    }

    /// Where the outputs are written before the commit.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Puts the staged files in place of the folder's old outputs (every old output when
    /// `keep_tables` is false; the report's when true) and writes `manifest` last, with an
    /// entry per output. `stopped` is polled between renames: a signal number there, or an
    /// error, puts everything back. Returns the paths written.
    pub fn commit(
        self,
        mut manifest: Manifest,
        keep_tables: bool,
        stopped: &dyn Fn() -> i32,
    ) -> Result<Vec<PathBuf>, CommitError> {
        let err = |p: &Path| {
            let p = p.to_path_buf();
            move |e| CommitError::Io(p, e)
        };
        let new = relative_files(self.path()).map_err(err(self.path()))?;
        manifest.entries.retain(|k, _| {
            !k.starts_with(FILE_KEY) || (keep_tables && TABLES.contains(&&k[FILE_KEY.len()..]))
        });
        for f in &new {
            let p = self.path().join(f);
            let (size, sum) = digest(&p).map_err(err(&p))?;
            manifest
                .entries
                .insert(format!("{FILE_KEY}{f}"), format!("{size} {sum}"));
        }
        let staged_manifest = self.path().join(".manifest.tsv");
        manifest
            .write(&staged_manifest)
            .map_err(err(&staged_manifest))?;
        let old = old_outputs(&self.out, keep_tables);
        // No second signal removes the stage while old outputs are set aside in it.
        let held = live();
        let mut moves = Moves {
            done: Vec::new(),
            backup: self.path().join(".old"),
        };
        let result = (|| {
            // The old manifest first: from here until the new one lands the folder reads as
            // incomplete, to any reader.
            for f in &old {
                moves.set_aside(&self.out, f)?;
                check(stopped)?;
            }
            for f in &new {
                moves.place(&self.path().join(f), &self.out.join(f))?;
                check(stopped)?;
            }
            let m = self.out.join("manifest.tsv");
            std::fs::rename(&staged_manifest, &m).map_err(err(&m))
        })();
        if let Err(e) = result {
            moves.undo();
            drop(held);
            return Err(e);
        }
        drop(held);
        let mut written: Vec<PathBuf> = new.iter().map(|f| self.out.join(f)).collect();
        written.push(self.out.join("manifest.tsv"));
        Ok(written)
    }
}

fn check(stopped: &dyn Fn() -> i32) -> Result<(), CommitError> {
    match stopped() {
        0 => Ok(()),
        s => Err(CommitError::Stopped(s)),
    }
}

/// The renames of a commit, to undo them.
struct Moves {
    /// (from, to) of each rename done, in order.
    done: Vec<(PathBuf, PathBuf)>,
    backup: PathBuf,
}

impl Moves {
    fn set_aside(&mut self, out: &Path, f: &str) -> Result<(), CommitError> {
        self.place(&out.join(f), &self.backup.join(f))
    }

    fn place(&mut self, from: &Path, to: &Path) -> Result<(), CommitError> {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| CommitError::Io(parent.into(), e))?;
        }
        std::fs::rename(from, to).map_err(|e| CommitError::Io(to.into(), e))?;
        self.done.push((from.to_path_buf(), to.to_path_buf()));
        Ok(())
    }

    /// Undoes every rename, newest first.
    fn undo(&mut self) {
        for (from, to) in self.done.drain(..).rev() {
            let _ = std::fs::rename(&to, &from);
        }
    }
}

/// The outputs of an earlier run in `out` that a commit replaces or removes: the manifest,
/// every file its manifest names, the known outputs, and the SVGs under `plots/`.
fn old_outputs(out: &Path, keep_tables: bool) -> Vec<String> {
    let mut old: Vec<String> = OUTPUTS.iter().map(|s| s.to_string()).collect();
    if let Ok(m) = Manifest::read(&out.join("manifest.tsv")) {
        old.extend(m.files().into_iter().map(|(f, _)| f));
    }
    for sub in ["plots", "plots/boards"] {
        for e in std::fs::read_dir(out.join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".svg") && e.path().is_file() {
                old.push(format!("{sub}/{name}"));
            }
        }
    }
    old.retain(|f| !(keep_tables && TABLES.contains(&f.as_str())));
    old.retain(|f| out.join(f).is_file());
    old.sort();
    old.dedup();
    // The manifest goes first.
    old.sort_by_key(|f| f != "manifest.tsv");
    old
}

/// The files under `dir`, relative, with `/`, sorted; hidden ones (the stage's own) left out.
fn relative_files(dir: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).min_depth(1) {
        let e = e.map_err(io::Error::other)?;
        let rel = e.path().strip_prefix(dir).unwrap_or(e.path());
        let hidden = rel
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
        if e.file_type().is_file() && !hidden {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    out.sort();
    Ok(out)
}

/// A file's size and SHA-256, as `sha256sum` prints it.
fn digest(path: &Path) -> io::Result<(u64, String)> {
    let mut r = Digesting::new(std::fs::File::open(path)?);
    io::copy(&mut r, &mut io::sink())?;
    Ok(r.finish())
}

/// A reader that takes the size and SHA-256 of what passes through it, so that what a
/// command reads can be held against a manifest's `SIZE SHA256` as it is read, not before.
pub struct Digesting<R> {
    inner: R,
    hash: Sha256,
    size: u64,
}

impl<R: Read> Digesting<R> {
    pub fn new(inner: R) -> Digesting<R> {
        Digesting {
            inner,
            hash: Sha256::new(),
            size: 0,
        }
    }

    /// The size and the hex SHA-256 of the bytes read so far.
    pub fn finish(self) -> (u64, String) {
        let hex = self
            .hash
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>();
        (self.size, hex)
    }
}

impl<R: Read> Read for Digesting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

/// Checks, before any work, that the outputs can go into `dir`: no output's name is taken
/// by a folder, and `plots` is a folder if it is there.
pub fn check_out(dir: &Path) -> Result<(), String> {
    for f in OUTPUTS {
        let p = dir.join(f);
        if p.is_dir() {
            return Err(format!(
                "{}: a folder where an output file goes; remove it or give another --out",
                p.display()
            ));
        }
    }
    for d in ["plots", "plots/boards"] {
        let p = dir.join(d);
        if p.exists() && !p.is_dir() {
            return Err(format!(
                "{}: not a folder, and the plots go there; remove it or give another --out",
                p.display()
            ));
        }
    }
    Ok(())
}

/// Checks that `dir` is a complete output: a manifest naming every file, and each file that
/// `check` selects with the size and checksum the manifest names. Says which file does not
/// match.
pub fn verify(dir: &Path, check: &dyn Fn(&str) -> bool) -> Result<Manifest, String> {
    let path = dir.join("manifest.tsv");
    if !path.is_file() {
        return Err(format!(
            "{}: no manifest.tsv: not a complete output folder (a run or merge writes it last)",
            dir.display()
        ));
    }
    let m = Manifest::read(&path)?;
    let files = m.files();
    if files.is_empty() {
        return Err(format!(
            "{}: manifest.tsv names no files: written by an older livingblocks; run it again",
            dir.display()
        ));
    }
    for (f, expected) in files {
        if !check(&f) {
            continue;
        }
        let p = dir.join(&f);
        let (size, sum) = digest(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if expected != format!("{size} {sum}") {
            return Err(format!(
                "{}: does not match manifest.tsv ({size} bytes; the manifest says {}): \
                 changed after the run, or from another run",
                p.display(),
                expected.split(' ').next().unwrap_or("?")
            ));
        }
    }
    Ok(m)
}

/// Which of `files` no longer match what `m` recorded.
pub fn changed(dir: &Path, m: &Manifest, files: &[&str]) -> Vec<String> {
    m.files()
        .into_iter()
        .filter(|(f, expected)| {
            files.contains(&f.as_str())
                && digest(&dir.join(f)).map(|(n, s)| format!("{n} {s}")).ok()
                    != Some(expected.clone())
        })
        .map(|(f, _)| f)
        .collect()
}

impl Manifest {
    /// The output files the manifest names, with their `SIZE SHA256`.
    pub fn files(&self) -> Vec<(String, String)> {
        self.entries
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix(FILE_KEY)?.to_string(), v.clone())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn stage_run(out: &Path, tag: &str) -> Stage {
        let s = Stage::new(out).unwrap();
        for f in ["games.csv", "report.md", "plots/a.svg"] {
            write(&s.path().join(f), &format!("{tag} {f}"));
        }
        s
    }

    #[test]
    fn a_commit_replaces_the_whole_set_and_names_every_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let none = || 0;
        stage_run(out, "one")
            .commit(Manifest::default(), false, &none)
            .unwrap();
        write(&out.join("plots/old.svg"), "stale");
        let all = |_: &str| true;
        let m = verify(out, &all).unwrap();
        assert_eq!(m.files().len(), 3);
        stage_run(out, "two")
            .commit(Manifest::default(), false, &none)
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("report.md")).unwrap(),
            "two report.md"
        );
        assert!(!out.join("plots/old.svg").exists(), "a stale plot goes");
        verify(out, &all).unwrap();
        // No stage left behind.
        let hidden: Vec<_> = std::fs::read_dir(out)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(STAGE_PREFIX))
            .collect();
        assert!(hidden.is_empty());
        // An edited table is named.
        write(&out.join("games.csv"), "edited");
        let e = verify(out, &all).unwrap_err();
        assert!(e.contains("games.csv: does not match manifest.tsv"), "{e}");
        verify(out, &|f| f != "games.csv").unwrap();
    }

    #[test]
    fn a_signal_during_the_commit_puts_the_old_outputs_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        stage_run(out, "one")
            .commit(Manifest::default(), false, &|| 0)
            .unwrap();
        let calls = std::cell::Cell::new(0);
        // The signal comes after a few renames.
        let stopped = || {
            calls.set(calls.get() + 1);
            if calls.get() > 4 {
                15
            } else {
                0
            }
        };
        let e = stage_run(out, "two").commit(Manifest::default(), false, &stopped);
        assert!(matches!(e, Err(CommitError::Stopped(15))));
        assert_eq!(
            std::fs::read_to_string(out.join("report.md")).unwrap(),
            "one report.md"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("plots/a.svg")).unwrap(),
            "one plots/a.svg"
        );
        verify(out, &|_| true).unwrap();
    }
}
