//! One writer per output folder: a run (or a merge) holds an exclusive lock on
//! `DIR/.livingblocks.lock` while it writes, so a second one into the same folder refuses at
//! once instead of mixing tables. Holding it, the run may also remove the temporary tables a
//! killed run left (SIGKILL runs no clean-up): no live run can own them.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The lock's file in an output folder.
pub const LOCK_FILE: &str = ".livingblocks.lock";

/// The lock files this process holds: what a second signal removes before ending the
/// process, which runs no destructor. Registered as soon as the lock is taken, so a signal
/// that comes before the run has a stage folder leaves no lock file either.
static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn held() -> MutexGuard<'static, Vec<PathBuf>> {
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the lock files this process holds (see `HELD`).
pub fn remove_held() {
    for p in held().iter() {
        let _ = std::fs::remove_file(p);
    }
}

/// The tables and the manifest, whose temporary files (`NAME.XXXXXX.tmp`) are this tool's.
const OWN: [&str; 5] = [
    "games.csv",
    "blocks.csv",
    "chains.csv",
    "big_eyes.csv",
    "manifest.tsv",
];

/// An output folder held for writing; released (and its lock file removed) when dropped.
pub struct OutputLock {
    path: PathBuf,
    file: Option<File>,
}

impl OutputLock {
    /// Takes the folder, or says which folder another run holds.
    pub fn acquire(dir: &Path) -> Result<OutputLock, String> {
        let path = dir.join(LOCK_FILE);
        // Held while the file is made, so that a second signal meanwhile waits and then
        // finds it.
        let mut held = held();
        let file =
            File::create(&path).map_err(|e| format!("{}: cannot write: {e}", dir.display()))?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {
                held.push(path.clone());
                Ok(OutputLock {
                    path,
                    file: Some(file),
                })
            }
            Err(fs4::TryLockError::WouldBlock) => Err(format!(
                "{}: another livingblocks run is writing into this folder; wait for it, or \
                 give another --out",
                dir.display()
            )),
            Err(fs4::TryLockError::Error(e)) => Err(format!("{}: cannot lock: {e}", dir.display())),
        }
    }

    /// Removes the temporary tables and stage folders a killed run left in the folder, and
    /// returns them.
    pub fn remove_stale(&self) -> Vec<PathBuf> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut removed: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                name.is_some_and(|n| {
                    (n.ends_with(".tmp") && OWN.iter().any(|own| n.starts_with(&format!("{own}."))))
                        || (n.starts_with(super::stage::STAGE_PREFIX) && p.is_dir())
                })
            })
            .filter(|p| {
                if p.is_dir() {
                    std::fs::remove_dir_all(p).is_ok()
                } else {
                    std::fs::remove_file(p).is_ok()
                }
            })
            .collect();
        removed.sort();
        removed
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still held, so that no other run can have locked it meanwhile; and
        // before it leaves the list, with the list held, so that no second signal comes
        // between.
        let mut held = held();
        let _ = std::fs::remove_file(&self.path);
        held.retain(|p| p != &self.path);
        drop(self.file.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_is_done() {
        let dir = tempfile::tempdir().unwrap();
        let first = OutputLock::acquire(dir.path()).unwrap();
        let second = OutputLock::acquire(dir.path());
        assert!(second.is_err_and(|e| e.contains("another livingblocks run")));
        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists());
        assert!(OutputLock::acquire(dir.path()).is_ok());
    }

    #[test]
    fn stale_temporary_tables_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "games.csv.a1B2c3.tmp",
            "manifest.tsv.x.tmp",
            "mine.tmp",
            "games.csv",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let lock = OutputLock::acquire(dir.path()).unwrap();
        let removed: Vec<String> = lock
            .remove_stale()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(removed, ["games.csv.a1B2c3.tmp", "manifest.tsv.x.tmp"]);
        assert!(dir.path().join("mine.tmp").exists());
        assert!(dir.path().join("games.csv").exists());
    }
}
