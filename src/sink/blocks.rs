//! blocks.csv: one row per block of every analysed final position.

use std::io;
use std::path::Path;

use csv::ByteRecord;

use super::AtomicFile;
use crate::record::FileAnalysis;

/// The columns of blocks.csv, in order.
pub const BLOCK_COLUMNS: &[&str] = &[
    "file",
    "game",
    "colour",
    "anchor",
    "stones",
    "liberties",
    "own_eyes",
    "shared_eyes",
    "virtual_eyes",
    "benson",
    "mp95",
    "mpfix",
    "mp95_eyes",
    "mpfix_eyes",
    "chain",
];

/// Writes blocks.csv row by row.
pub struct BlocksWriter {
    csv: csv::Writer<AtomicFile>,
    row: ByteRecord,
    num: itoa::Buffer,
}

impl BlocksWriter {
    pub fn create(path: &Path) -> io::Result<BlocksWriter> {
        let mut csv = csv::Writer::from_writer(AtomicFile::create(path)?);
        csv.write_record(BLOCK_COLUMNS)?;
        Ok(BlocksWriter {
            csv,
            row: ByteRecord::new(),
            num: itoa::Buffer::new(),
        })
    }

    /// Writes the blocks of every game of one file.
    pub fn write_file(&mut self, file: &str, a: &FileAnalysis) -> io::Result<()> {
        for g in &a.games {
            let Some(game) = g.game else { continue };
            for b in &g.blocks {
                let r = &mut self.row;
                let num = &mut self.num;
                r.clear();
                r.push_field(file.as_bytes());
                r.push_field(num.format(game).as_bytes());
                r.push_field(b.colour.letter().as_bytes());
                r.push_field(b.anchor.to_string().as_bytes());
                for v in [b.stones, b.liberties, b.own_eyes, b.shared_eyes] {
                    r.push_field(num.format(v).as_bytes());
                }
                let v = &b.verdict;
                r.push_field(num.format(v.virtual_eyes).as_bytes());
                for flag in [v.benson, v.mp95, v.mpfix, v.mp95_eyes, v.mpfix_eyes] {
                    r.push_field(if flag { b"1" } else { b"0" });
                }
                r.push_field(v.chain.as_deref().unwrap_or("").as_bytes());
                self.csv.write_byte_record(r)?;
            }
        }
        Ok(())
    }

    /// Flushes and moves the table into place.
    pub fn finish(self) -> io::Result<()> {
        let file = self.csv.into_inner().map_err(|e| e.into_error())?;
        file.commit()
    }
}
