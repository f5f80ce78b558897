//! Where results go: the CSV tables, written to a temporary file and renamed when complete,
//! and the run's totals.

pub mod blocks;
pub mod error;
pub mod games;
pub mod lock;
pub mod manifest;
pub mod schema;
pub mod stage;
pub mod stats;
pub mod table;

pub use blocks::{BIG_EYE_COLUMNS, BLOCK_COLUMNS, CHAIN_COLUMNS};
pub use error::FolderError;
pub use lock::OutputLock;
pub use manifest::Manifest;
pub use schema::{Field, Kind};
pub use stage::{remove_stale, Cleanup, CommitError, Stage};
pub use stats::RunStats;
pub use table::{Table, TableReader};

use crate::row::FileAnalysis;

/// The tables of a run, by file name, with their columns and the columns' types: the one
/// schema the writers, `merge` and `report` share.
pub fn schemas() -> [(&'static str, Vec<Field>); 4] {
    [
        ("games.csv", games::fields()),
        ("blocks.csv", schema::fields(BLOCK_COLUMNS)),
        ("chains.csv", schema::fields(CHAIN_COLUMNS)),
        ("big_eyes.csv", schema::fields(BIG_EYE_COLUMNS)),
    ]
}

/// The tables of a run, by file name, with their columns.
pub fn tables() -> [(&'static str, Vec<&'static str>); 4] {
    schemas().map(|(name, fields)| (name, schema::names(&fields)))
}

/// How the tables are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum TableFormat {
    /// Plain CSV: `games.csv`.
    #[default]
    Csv,
    /// The same CSV bytes compressed with zstd (`--compress`): `games.csv.zst`.
    CsvZst,
}

impl TableFormat {
    /// The file that holds `table` (a name of `schemas`) in this format.
    pub fn file(self, table: &str) -> String {
        match self {
            TableFormat::Csv => table.to_string(),
            TableFormat::CsvZst => format!("{table}{ZST}"),
        }
    }

    /// The format of the tables a manifest names.
    pub fn named_by(m: &Manifest) -> TableFormat {
        let zst = TableFormat::CsvZst.file("games.csv");
        if m.files().iter().any(|(f, _)| *f == zst) {
            TableFormat::CsvZst
        } else {
            TableFormat::Csv
        }
    }

    /// The format of the tables in `dir`, a folder whose outputs were checked against its
    /// manifest (no file at an output name that it does not name).
    pub fn in_folder(dir: &Path) -> TableFormat {
        if dir.join(TableFormat::CsvZst.file("games.csv")).is_file() {
            TableFormat::CsvZst
        } else {
            TableFormat::Csv
        }
    }
}

/// The suffix of a compressed table.
pub const ZST: &str = ".zst";

/// The tables of a run, written together in input order.
pub struct Outputs {
    games: Table,
    blocks: Table,
    chains: Table,
    big_eyes: Table,
}

impl Outputs {
    /// Creates every table in `dir`, in `format` (under temporary names until `complete`).
    pub fn create(dir: &Path, format: TableFormat) -> Result<Outputs, (PathBuf, io::Error)> {
        let open = |name: &str, columns: &[Field]| {
            let p = dir.join(format.file(name));
            Table::create(&p, &schema::names(columns)).map_err(|e| (p, e))
        };
        Ok(Outputs {
            games: open("games.csv", &games::fields())?,
            blocks: open("blocks.csv", &schema::fields(BLOCK_COLUMNS))?,
            chains: open("chains.csv", &schema::fields(CHAIN_COLUMNS))?,
            big_eyes: open("big_eyes.csv", &schema::fields(BIG_EYE_COLUMNS))?,
        })
    }

    /// Writes the rows of one input file to every table.
    pub fn write_file(
        &mut self,
        file: &str,
        bytes: Option<u64>,
        a: &FileAnalysis,
    ) -> io::Result<()> {
        games::write_rows(&mut self.games, file, bytes, a)?;
        blocks::write_blocks(&mut self.blocks, file, a)?;
        blocks::write_chains(&mut self.chains, file, a)?;
        blocks::write_big_eyes(&mut self.big_eyes, file, a)
    }

    /// Completes every table (in the stage folder they were created in).
    pub fn complete(self) -> io::Result<()> {
        self.games.complete()?;
        self.blocks.complete()?;
        self.chains.complete()?;
        self.big_eyes.complete()
    }
}

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file that appears under its final name only when `commit` succeeds, so a reader never
/// sees half a table. Its temporary name (`games.csv.XXXXXX.tmp`, beside the final one) is
/// random and created exclusively, so runs that share a folder but not a PID space (two
/// containers, both PID 1) never write into the same temporary file.
pub struct AtomicFile {
    dest: PathBuf,
    out: Option<BufWriter<tempfile::NamedTempFile>>,
}

impl AtomicFile {
    pub fn create(dest: &Path) -> io::Result<AtomicFile> {
        let mut prefix = dest.file_name().unwrap_or_default().to_os_string();
        prefix.push(".");
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // As File::create makes a file (the umask decides), not tempfile's private 0600: the
        // tables are for others to read too.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let file = builder.tempfile_in(dir)?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The temporary file's path.
    pub fn temporary(&self) -> &Path {
        self.out.as_ref().expect("not committed").get_ref().path()
    }

    /// Flushes, syncs and renames into place.
    pub fn commit(mut self) -> io::Result<()> {
        let out = self.out.take().expect("committed once");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        file.persist(&self.dest).map(drop).map_err(|e| e.error)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("not committed").flush()
    }
}

// An uncommitted file is removed when dropped (NamedTempFile's Drop): a failed or
// interrupted run leaves no partial table.

#[cfg(test)]
mod tests {
    use super::*;

    /// Two writers of one table, as two runs in one folder would be, never share a temporary
    /// file, whatever their PIDs; the table that lands is wholly one of them.
    #[test]
    fn two_writers_of_one_table_have_files_of_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("games.csv");
        let mut a = AtomicFile::create(&dest).unwrap();
        let mut b = AtomicFile::create(&dest).unwrap();
        assert_ne!(a.temporary(), b.temporary());
        let name = a
            .temporary()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with("games.csv.") && name.ends_with(".tmp"),
            "{name}"
        );
        a.write_all(&b"a\n".repeat(1000)).unwrap();
        b.write_all(&b"b\n".repeat(10)).unwrap();
        a.commit().unwrap();
        b.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"b\n".repeat(10));
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        // Dropped uncommitted: removed.
        let c = AtomicFile::create(&dest).unwrap();
        let tmp = c.temporary().to_path_buf();
        drop(c);
        assert!(!tmp.exists());
    }
}
