//! One CSV table written row by row into an `AtomicFile`, with the field formatting every
//! table shares (numbers without allocation, empty for absent, 1/0 flags).

use std::io;
use std::path::Path;

use csv::ByteRecord;

use super::AtomicFile;

pub struct Table {
    csv: csv::Writer<AtomicFile>,
    row: ByteRecord,
    num: itoa::Buffer,
}

impl Table {
    /// Creates the file (under a temporary name) and writes the header.
    pub fn create(path: &Path, columns: &[&str]) -> io::Result<Table> {
        let mut csv = csv::Writer::from_writer(AtomicFile::create(path)?);
        csv.write_record(columns)?;
        Ok(Table {
            csv,
            row: ByteRecord::new(),
            num: itoa::Buffer::new(),
        })
    }

    pub fn text(&mut self, s: &str) -> &mut Self {
        self.row.push_field(s.as_bytes());
        self
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.row.push_field(b);
        self
    }

    pub fn num(&mut self, v: impl itoa::Integer) -> &mut Self {
        self.row.push_field(self.num.format(v).as_bytes());
        self
    }

    /// A number, or an empty field.
    pub fn opt(&mut self, v: Option<u64>) -> &mut Self {
        match v {
            Some(v) => self.num(v),
            None => self.text(""),
        }
    }

    /// `n` empty fields: the columns a row has nothing for.
    pub fn empty(&mut self, n: usize) -> &mut Self {
        for _ in 0..n {
            self.row.push_field(b"");
        }
        self
    }

    pub fn flag(&mut self, b: bool) -> &mut Self {
        self.text(if b { "1" } else { "0" })
    }

    /// Writes a whole row as it was read from another table.
    pub fn record(&mut self, row: &ByteRecord) -> io::Result<()> {
        self.csv.write_byte_record(row)?;
        Ok(())
    }

    /// Writes the fields pushed since the last row.
    pub fn end_row(&mut self) -> io::Result<()> {
        self.csv.write_byte_record(&self.row)?;
        self.row.clear();
        Ok(())
    }

    /// Flushes and moves the table into place.
    pub fn finish(self) -> io::Result<()> {
        let file = self.csv.into_inner().map_err(|e| e.into_error())?;
        file.commit()
    }
}
