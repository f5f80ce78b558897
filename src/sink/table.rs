//! One CSV table written row by row into an `AtomicFile`, plain or as one zstd stream
//! (`--compress`), with the field formatting every table shares (numbers without
//! allocation, empty for absent, 1/0 flags).
//!
//! Rows are joined by hand and written whole: csv's writer, with its per-field state machine
//! and copies, was a tenth of a whole run (docs/performance.md). The csv crate still decides,
//! field by field,
//! whether a field needs quotes (`csv_core::Writer::should_quote`, the test its writer runs),
//! and a row with such a field is written by `csv::Writer`, so the bytes are the ones it writes.

use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use csv::ByteRecord;

use super::{AtomicFile, ZST};

/// The zstd level of `--compress`: zstd's own default, most of the gain for little of the
/// time (docs/performance.md).
const LEVEL: i32 = 3;

/// Where a table's bytes go: its file, or a zstd stream into it (a name ending in `.zst`),
/// fed whole buffers: a stream call per row cost more than the compression.
enum Out {
    Plain(AtomicFile),
    Zstd(io::BufWriter<zstd::stream::write::Encoder<'static, AtomicFile>>),
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::Plain(f) => f.write(buf),
            Out::Zstd(z) => z.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Plain(f) => f.flush(),
            Out::Zstd(z) => z.flush(),
        }
    }
}

fn compressed(path: &Path) -> bool {
    path.as_os_str().to_string_lossy().ends_with(ZST)
}

/// A table's rows as written, from a plain or a compressed file (by its name, as `Table`
/// writes it).
pub enum TableReader<R: BufRead> {
    Plain(R),
    Zstd(zstd::stream::read::Decoder<'static, R>),
}

impl<R: BufRead> TableReader<R> {
    pub fn new(inner: R, path: &Path) -> io::Result<TableReader<R>> {
        Ok(if compressed(path) {
            TableReader::Zstd(zstd::stream::read::Decoder::with_buffer(inner)?)
        } else {
            TableReader::Plain(inner)
        })
    }

    /// The reader of the file's bytes, where the table's reading left it.
    pub fn into_inner(self) -> R {
        match self {
            TableReader::Plain(r) => r,
            TableReader::Zstd(z) => z.finish(),
        }
    }
}

impl TableReader<io::BufReader<std::fs::File>> {
    pub fn open(path: &Path) -> io::Result<Self> {
        let file = std::fs::File::open(path)?;
        TableReader::new(io::BufReader::with_capacity(1 << 16, file), path)
    }
}

impl<R: BufRead> Read for TableReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            TableReader::Plain(r) => r.read(buf),
            TableReader::Zstd(z) => z.read(buf),
        }
    }
}

pub struct Table {
    out: Out,
    columns: usize,
    /// The row being built: its fields joined by commas.
    line: Vec<u8>,
    /// Where each field of `line` ends.
    ends: Vec<usize>,
    /// Whether a field of the row needs quotes.
    quote: bool,
    rules: csv_core::Writer,
    num: itoa::Buffer,
}

impl Table {
    /// Creates the file (under a temporary name) and writes the header; zstd-compressed
    /// where the name ends in `.zst`.
    pub fn create(path: &Path, columns: &[&str]) -> io::Result<Table> {
        let file = AtomicFile::create(path)?;
        let out = if compressed(path) {
            let z = zstd::stream::write::Encoder::new(file, LEVEL)?;
            Out::Zstd(io::BufWriter::with_capacity(1 << 17, z))
        } else {
            Out::Plain(file)
        };
        let mut t = Table {
            out,
            columns: columns.len(),
            line: Vec::with_capacity(256),
            ends: Vec::with_capacity(columns.len()),
            quote: false,
            rules: csv_core::Writer::new(),
            num: itoa::Buffer::new(),
        };
        for c in columns {
            t.text(c);
        }
        t.end_row()?;
        Ok(t)
    }

    fn field(&mut self, b: &[u8], may_need_quotes: bool) -> &mut Self {
        self.quote |= may_need_quotes && self.rules.should_quote(b);
        push(&mut self.line, &mut self.ends, b);
        self
    }

    pub fn text(&mut self, s: &str) -> &mut Self {
        self.field(s.as_bytes(), true)
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.field(b, true)
    }

    /// A field its caller knows needs no quotes (SGF points, colour letters, chain words),
    /// so it is not scanned.
    pub fn plain(&mut self, b: &[u8]) -> &mut Self {
        debug_assert!(!self.rules.should_quote(b), "{b:?} needs quotes");
        self.field(b, false)
    }

    /// Whether `s` needs quotes: for a field repeated on every row of a file, asked once.
    pub fn needs_quotes(&self, s: &str) -> bool {
        self.rules.should_quote(s.as_bytes())
    }

    /// A field whose need for quotes the caller has asked `needs_quotes` about.
    pub fn checked(&mut self, s: &str, needs_quotes: bool) -> &mut Self {
        self.quote |= needs_quotes;
        self.field(s.as_bytes(), false)
    }

    /// A number. Most numbers in the tables are one digit (a block's eyes, a game's index),
    /// which skip the formatter.
    pub fn num(&mut self, v: impl itoa::Integer + TryInto<u8>) -> &mut Self {
        match v.try_into() {
            Ok(d) if d < 10 => self.byte(b'0' + d),
            _ => {
                push(
                    &mut self.line,
                    &mut self.ends,
                    self.num.format(v).as_bytes(),
                );
                self
            }
        }
    }

    /// A field of one byte that needs no quotes.
    fn byte(&mut self, b: u8) -> &mut Self {
        push(&mut self.line, &mut self.ends, &[b]);
        self
    }

    /// A number, or an empty field.
    pub fn opt(&mut self, v: Option<u64>) -> &mut Self {
        match v {
            Some(v) => self.num(v),
            None => self.field(b"", false),
        }
    }

    /// `n` empty fields: the columns a row has nothing for.
    pub fn empty(&mut self, n: usize) -> &mut Self {
        for _ in 0..n {
            self.field(b"", false);
        }
        self
    }

    pub fn flag(&mut self, b: bool) -> &mut Self {
        self.byte(b'0' + u8::from(b))
    }

    /// Writes a whole row as it was read from another table.
    /// Rows a table of these columns wrote, copied as they are.
    pub fn copy(&mut self, rows: &mut impl io::Read) -> io::Result<u64> {
        io::copy(rows, &mut self.out)
    }

    pub fn record(&mut self, row: &ByteRecord) -> io::Result<()> {
        for f in row {
            self.field(f, true);
        }
        self.end_row()
    }

    /// Writes the fields pushed since the last row.
    pub fn end_row(&mut self) -> io::Result<()> {
        let fields = self.ends.len();
        let result = if fields != self.columns {
            Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a row of {fields} fields in a table of {}", self.columns),
            ))
        } else if self.quote || (fields == 1 && self.line.is_empty()) {
            // csv writes a lone empty field as `""`, or the row would read as no row.
            self.write_quoted()
        } else {
            self.line.push(b'\n');
            self.out.write_all(&self.line)
        };
        self.line.clear();
        self.ends.clear();
        self.quote = false;
        result
    }

    fn write_quoted(&mut self) -> io::Result<()> {
        let mut start = 0;
        let mut row = ByteRecord::with_capacity(self.line.len(), self.ends.len());
        for &end in &self.ends {
            row.push_field(&self.line[start..end]);
            start = end + 1;
        }
        // Rare (a path with a comma or a quote), so a writer of its own is cheap enough.
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.write_byte_record(&row)?;
        let bytes = csv.into_inner().map_err(|e| e.into_error())?;
        self.out.write_all(&bytes)
    }

    /// Flushes (ends the zstd stream) and moves the table into place.
    pub fn complete(self) -> io::Result<()> {
        match self.out {
            Out::Plain(f) => f.commit(),
            Out::Zstd(z) => z
                .into_inner()
                .map_err(|e| e.into_error())?
                .finish()?
                .commit(),
        }
    }
}

/// Appends a field to a row, after a comma unless it is the first.
fn push(line: &mut Vec<u8>, ends: &mut Vec<usize>, b: &[u8]) {
    if !ends.is_empty() {
        line.push(b',');
    }
    line.extend_from_slice(b);
    ends.push(line.len());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows csv itself writes for the same fields, quotes included.
    fn by_csv(rows: &[Vec<&str>]) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in rows {
            w.write_record(r).unwrap();
        }
        w.into_inner().unwrap()
    }

    #[test]
    fn rows_are_the_bytes_csv_writes() {
        let rows: Vec<Vec<&str>> = vec![
            vec!["file", "game", "note"],
            vec!["a/b.sgf", "0", ""],
            vec!["with, comma.sgf", "1", "plain"],
            vec!["quote\"d.sgf", "2", "line\nbreak"],
            vec!["cr\r.sgf", "3", " spaced "],
            vec!["", "", ""],
            vec!["über/碁.sgf", "12", "x"],
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let mut t = Table::create(&path, &rows[0]).unwrap();
        for (k, r) in rows[1..].iter().enumerate() {
            // Both ways of writing a field that may need quotes.
            if k % 2 == 0 {
                t.text(r[0]);
            } else {
                let q = t.needs_quotes(r[0]);
                t.checked(r[0], q);
            }
            match r[1].parse::<u32>() {
                Ok(n) => t.num(n),
                Err(_) => t.opt(None),
            };
            t.bytes(r[2].as_bytes());
            t.end_row().unwrap();
        }
        t.complete().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), by_csv(&rows));
    }

    #[test]
    fn numbers_and_flags_are_written_as_display_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.csv");
        let mut t = Table::create(&path, &["u8", "u32", "i64", "usize", "flag"]).unwrap();
        let mut expected = String::from("u8,u32,i64,usize,flag\n");
        for (k, v) in [0i64, 1, 9, 10, 99, 255, 256, 65_536, -1, -10]
            .into_iter()
            .enumerate()
        {
            let small = v.clamp(0, 255) as u8;
            let unsigned = v.unsigned_abs() as u32;
            t.num(small)
                .num(unsigned)
                .num(v)
                .num(unsigned as usize)
                .flag(k % 2 == 1);
            t.end_row().unwrap();
            expected += &format!("{small},{unsigned},{v},{unsigned},{}\n", k % 2);
        }
        t.complete().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
    }

    #[test]
    fn a_lone_empty_field_is_quoted_as_csv_quotes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let mut t = Table::create(&path, &["only"]).unwrap();
        t.text("");
        t.end_row().unwrap();
        t.num(7u8);
        t.end_row().unwrap();
        t.complete().unwrap();
        let rows = [vec!["only"], vec![""], vec!["7"]];
        assert_eq!(std::fs::read(&path).unwrap(), by_csv(&rows));
    }

    #[test]
    fn a_row_of_the_wrong_width_is_an_error_and_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let mut t = Table::create(&path, &["a", "b"]).unwrap();
        t.num(1u8);
        assert!(t.end_row().is_err());
        t.num(1u8).flag(true);
        t.end_row().unwrap();
        t.complete().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,1\n");
    }
}
