//! Where results go: the CSV tables, written to a temporary file and renamed when complete,
//! and the run's totals.

pub mod blocks;
pub mod games;
pub mod manifest;
pub mod stats;
pub mod table;

pub use blocks::{BIG_EYE_COLUMNS, BLOCK_COLUMNS, CHAIN_COLUMNS};
pub use manifest::Manifest;
pub use stats::RunStats;
pub use table::Table;

use crate::row::FileAnalysis;

/// The tables of a run, by file name, with their columns.
pub fn tables() -> [(&'static str, Vec<&'static str>); 4] {
    [
        ("games.csv", games::header()),
        ("blocks.csv", BLOCK_COLUMNS.to_vec()),
        ("chains.csv", CHAIN_COLUMNS.to_vec()),
        ("big_eyes.csv", BIG_EYE_COLUMNS.to_vec()),
    ]
}

/// The tables of a run, written together in input order.
pub struct Outputs {
    games: Table,
    blocks: Table,
    chains: Table,
    big_eyes: Table,
    paths: Vec<PathBuf>,
}

impl Outputs {
    /// Creates every table in `dir` (under temporary names until `finish`).
    pub fn create(dir: &Path) -> Result<Outputs, (PathBuf, io::Error)> {
        let mut paths = Vec::new();
        let mut open = |name: &str, columns: &[&str]| {
            let p = dir.join(name);
            paths.push(p.clone());
            Table::create(&p, columns).map_err(|e| (p, e))
        };
        Ok(Outputs {
            games: open("games.csv", &games::header())?,
            blocks: open("blocks.csv", BLOCK_COLUMNS)?,
            chains: open("chains.csv", CHAIN_COLUMNS)?,
            big_eyes: open("big_eyes.csv", BIG_EYE_COLUMNS)?,
            paths,
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

    /// Moves every table into place, then the manifest, and returns their paths.
    pub fn finish(self, manifest: &Manifest) -> io::Result<Vec<PathBuf>> {
        self.games.finish()?;
        self.blocks.finish()?;
        self.chains.finish()?;
        self.big_eyes.finish()?;
        let dir = self.paths[0].parent().unwrap_or(Path::new("."));
        let m = dir.join("manifest.tsv");
        manifest.write(&m)?;
        let mut paths = self.paths;
        paths.push(m);
        Ok(paths)
    }
}

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file that appears under its final name only when `commit` succeeds, so a reader never
/// sees half a table.
pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(dest: &Path) -> io::Result<AtomicFile> {
        let mut name = dest.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}.tmp", std::process::id()));
        let tmp = dest.with_file_name(name);
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            tmp,
            dest: dest.to_path_buf(),
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes, syncs and renames into place.
    pub fn commit(mut self) -> io::Result<()> {
        let out = self.out.take().expect("committed once");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.dest)
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

impl Drop for AtomicFile {
    /// An uncommitted file is removed: a failed or interrupted run leaves no partial table.
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
