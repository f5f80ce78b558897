//! Why an output folder cannot be used or read back: the one error type of `sink`, with the
//! operating system's error kept inside.

use std::io;
use std::path::PathBuf;

use super::stage::JOURNAL;

#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("{}: cannot create output folder: {source}", .dir.display())]
    CannotCreate { dir: PathBuf, source: io::Error },
    #[error(
        "{}: a file, not a folder: --out names the folder the outputs go into; give a \
         folder, new or earlier output",
        .0.display()
    )]
    NotAnOutputFolder(PathBuf),
    #[error(
        "{}: {} is a file, not a folder: --out names the folder the outputs go into",
        .out.display(),
        .file.display()
    )]
    UnderAFile { out: PathBuf, file: PathBuf },
    #[error("{}: cannot write: {source}", .dir.display())]
    CannotWrite { dir: PathBuf, source: io::Error },
    #[error("{}: cannot lock: {source}", .dir.display())]
    CannotLock { dir: PathBuf, source: io::Error },
    #[error(
        "{}: another livingblocks run is writing into this folder; wait for it, or give \
         another --out",
        .0.display()
    )]
    Busy(PathBuf),
    #[error(
        "{}: the lock file keeps being replaced: other runs start and end here",
        .0.display()
    )]
    Contended(PathBuf),
    /// A commit a killed run left half done can be neither finished nor undone: the run
    /// fails, the folder is left for a person to look at.
    #[error(
        "{}: cannot finish or undo the commit a killed run left ({source}); see {JOURNAL} there",
        .dir.display()
    )]
    Recovery { dir: PathBuf, source: io::Error },
    #[error(
        "{}: a folder where an output file goes; remove it or give another --out",
        .0.display()
    )]
    FolderInTheWay(PathBuf),
    #[error(
        "{}: not a folder, and the plots go there; remove it or give another --out",
        .0.display()
    )]
    NotAFolder(PathBuf),
    #[error(
        "{}: no manifest.tsv: not a complete output folder (a run or merge writes it last)",
        .0.display()
    )]
    NoManifest(PathBuf),
    #[error(
        "{}: manifest.tsv names no files: written by an older livingblocks; run it again",
        .0.display()
    )]
    NoFiles(PathBuf),
    #[error("{}: {source}", .path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{}: not a manifest line: {line:?}", .path.display())]
    ManifestLine { path: PathBuf, line: String },
    #[error("manifest.tsv: {0} is missing or not a number")]
    ManifestEntry(String),
    /// A file differs from what the manifest recorded of it.
    #[error(
        "{}: does not match manifest.tsv ({size} bytes; the manifest says {expected}): \
         changed after the run, or from another run",
        .path.display()
    )]
    Mismatch {
        path: PathBuf,
        size: u64,
        expected: String,
    },
    /// A symbolic link where the tool reads or writes its own files: it would lead the
    /// writes out of the folder.
    #[error(
        "{}: a symbolic link; livingblocks writes only inside the output folder and follows no \
         link there: remove it or give another --out",
        .0.display()
    )]
    Link(PathBuf),
    /// A file where an output goes that no manifest names: the user's, never overwritten.
    #[error(
        "{}: not written by livingblocks (the folder's manifest.tsv does not name it); it is \
         never overwritten: move it away or give another --out",
        .0.display()
    )]
    NotOurs(PathBuf),
    /// A manifest row that names a file outside the folder (`file:../x`, an absolute path).
    #[error(
        "{}: names {name:?}, which is not a file inside the folder: not a livingblocks manifest",
        .path.display()
    )]
    Outside { path: PathBuf, name: String },
    /// A manifest that leaves out a table the command reads: the table is not the run's.
    #[error(
        "{}: manifest.tsv does not name {table}: its record of the table was removed; run \
         analyze again",
        .dir.display()
    )]
    Unnamed { dir: PathBuf, table: &'static str },
}

impl FolderError {
    /// Whether the command failed while working (exit 1) rather than being given a folder
    /// it cannot use (exit 2).
    pub fn failed_run(&self) -> bool {
        matches!(self, FolderError::Recovery { .. })
    }
}
