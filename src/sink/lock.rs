//! One writer per output folder: a run (or a merge) holds an exclusive lock on
//! `DIR/.livingblocks.lock` while it writes, so a second one into the same folder refuses at
//! once instead of mixing tables. Holding it, the run may also remove the temporary tables a
//! killed run left (SIGKILL runs no clean-up): no live run can own them.

use super::FolderError;
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

/// Attempts at a lock whose file was replaced under it, before giving up.
const LOCK_TRIES: usize = 100;

/// Whether `file` is the file at `path` now (not one removed since it was opened).
fn is_current(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(p), Ok(f)) => p.dev() == f.dev() && p.ino() == f.ino(),
        _ => false,
    }
}

/// Opens (or makes) the lock file, following no link planted under its name. A lock file
/// another user's killed run left is theirs (mode 0644): it is opened for reading, which
/// is all a lock needs, so that the folder is not barred to everyone else until someone
/// removes the file by hand.
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let write = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path);
    match write {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => File::options()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path),
        other => other,
    }
}

/// An output folder held for writing; released (and its lock file removed) when dropped.
pub struct OutputLock {
    path: PathBuf,
    file: Option<File>,
}

impl OutputLock {
    /// The folder held.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// Takes the folder, or says which folder another run holds.
    pub fn acquire(dir: &Path) -> Result<OutputLock, FolderError> {
        let path = dir.join(LOCK_FILE);
        // Held while the file is made, so that a second signal meanwhile waits and then
        // finds it.
        let mut held = held();
        // A run that leaves removes its lock file while it holds it. A run that opened the
        // file just before may lock it just after: a file no longer in the folder, which
        // locks nothing. So the lock taken must be on the file the folder holds now, else it
        // is taken again on the new one.
        for _ in 0..LOCK_TRIES {
            let file = open(&path).map_err(|source| {
                if source.raw_os_error() == Some(libc::ELOOP) {
                    FolderError::Link(path.clone())
                } else {
                    FolderError::CannotWrite {
                        dir: dir.to_path_buf(),
                        source,
                    }
                }
            })?;
            match fs4::FileExt::try_lock(&file) {
                Ok(()) if is_current(&path, &file) => {
                    held.push(path.clone());
                    return Ok(OutputLock {
                        path,
                        file: Some(file),
                    });
                }
                Ok(()) => continue,
                Err(fs4::TryLockError::WouldBlock) => {
                    return Err(FolderError::Busy(dir.to_path_buf()))
                }
                Err(fs4::TryLockError::Error(source)) => {
                    return Err(FolderError::CannotLock {
                        dir: dir.to_path_buf(),
                        source,
                    })
                }
            }
        }
        Err(FolderError::Contended(dir.to_path_buf()))
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
        assert!(second.is_err_and(|e| e.to_string().contains("another livingblocks run")));
        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists());
        assert!(OutputLock::acquire(dir.path()).is_ok());
    }

    /// A run that opened the lock file just before the holder left, and locks it just
    /// after, holds a removed file: it must not count as the folder's lock, beside the run
    /// that made the new one.
    #[test]
    fn a_lock_on_a_removed_lock_file_is_no_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        let first = OutputLock::acquire(dir.path()).unwrap();
        let late = File::options().write(true).open(&path).unwrap();
        drop(first);
        let third = OutputLock::acquire(dir.path()).unwrap();
        // The late run's lock call succeeds on the removed file's own lock...
        assert!(fs4::FileExt::try_lock(&late).is_ok());
        // ...which is not the folder's: it must take the lock again, and is refused.
        assert!(!is_current(&path, &late));
        assert!(is_current(&path, third.file.as_ref().unwrap()));
        assert!(OutputLock::acquire(dir.path()).is_err_and(|e| matches!(e, FolderError::Busy(_))));
    }
}
