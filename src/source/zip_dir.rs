//! A zip archive's members, read one central-directory entry at a time.
//!
//! Written here rather than taken from the `zip` crate, which this project used before: the
//! crate reads the whole central directory into a map before the first member (half a
//! kilobyte a member: a million-member archive took over 500 MiB) and keys it by name, so
//! of two members with one name the first was lost. Here memory stays flat whatever the
//! archive's size, and every entry is a member. Stored, deflate and bzip2 members are read;
//! others, and encrypted ones, are errors named by the member. Zip64 is read.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};

use super::input::{read_capped, InputError};

/// One entry of the central directory.
#[derive(Debug)]
pub struct ZipEntry {
    /// The member's name as it is stored: UTF-8 when the archive says so (flag or Info-ZIP
    /// Unicode path field), else the raw bytes.
    pub name: Vec<u8>,
    pub is_dir: bool,
    /// A symbolic link, as an archive made on Unix marks it (its mode in the entry's
    /// external attributes): its content is the target's name, not a game.
    pub is_symlink: bool,
    method: u16,
    flags: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    /// Where its local header lies in the file.
    offset: u64,
}

/// An open archive: its central directory, walked in order.
pub struct ZipDir {
    directory: BufReader<File>,
    data: File,
    left: u64,
    /// Bytes found before the archive proper (a self-extractor's stub): offsets are shifted
    /// by it.
    shift: u64,
}

const EOCD: u32 = 0x0605_4b50;
const EOCD64_LOCATOR: u32 = 0x0706_4b50;
const EOCD64: u32 = 0x0606_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const LOCAL: u32 = 0x0403_4b50;

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes"))
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

impl ZipDir {
    /// Finds the central directory of the archive in `file`; `data`, the same file opened
    /// again (not a clone: clones share one offset), reads the members.
    pub fn open(mut file: File, data: File) -> io::Result<ZipDir> {
        let len = file.seek(SeekFrom::End(0))?;
        // The end record: 22 bytes and a comment of up to 64 KiB, at the end of the file.
        let tail_len = len.min(22 + 0xFFFF);
        let mut tail = vec![0u8; tail_len as usize];
        file.seek(SeekFrom::Start(len - tail_len))?;
        file.read_exact(&mut tail)?;
        let at = (0..tail.len().saturating_sub(21))
            .rev()
            .find(|&i| {
                le32(&tail, i) == EOCD && i + 22 + usize::from(le16(&tail, i + 20)) <= tail.len()
            })
            .ok_or_else(|| bad("no end of central directory record"))?;
        let eocd_pos = len - tail_len + at as u64;
        let mut entries = u64::from(le16(&tail, at + 10));
        let mut cd_size = u64::from(le32(&tail, at + 12));
        let mut cd_offset = u64::from(le32(&tail, at + 16));
        let mut end_of_cd = eocd_pos;
        if at >= 20 && le32(&tail, at - 20) == EOCD64_LOCATOR {
            let pos = le64(&tail, at - 20 + 8);
            let mut rec = [0u8; 56];
            file.seek(SeekFrom::Start(pos))?;
            file.read_exact(&mut rec)?;
            if le32(&rec, 0) != EOCD64 {
                return Err(bad("zip64 end record not where its locator says"));
            }
            entries = le64(&rec, 32);
            cd_size = le64(&rec, 40);
            cd_offset = le64(&rec, 48);
            end_of_cd = pos;
        }
        let shift = end_of_cd
            .checked_sub(cd_size)
            .and_then(|start| start.checked_sub(cd_offset))
            .ok_or_else(|| bad("central directory out of the file"))?;
        file.seek(SeekFrom::Start(cd_offset + shift))?;
        Ok(ZipDir {
            directory: BufReader::with_capacity(1 << 16, file),
            data,
            left: entries,
            shift,
        })
    }

    /// The next entry of the central directory, `None` after the last.
    pub fn next_entry(&mut self) -> io::Result<Option<ZipEntry>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let mut h = [0u8; 46];
        self.directory.read_exact(&mut h)?;
        if le32(&h, 0) != CENTRAL {
            return Err(bad("damaged central directory"));
        }
        let flags = le16(&h, 8);
        let name_len = usize::from(le16(&h, 28));
        let mut var = vec![0u8; name_len + usize::from(le16(&h, 30))];
        self.directory.read_exact(&mut var)?;
        io::copy(
            &mut (&mut self.directory).take(u64::from(le16(&h, 32))),
            &mut io::sink(),
        )?;
        let (name, extra) = var.split_at(name_len);
        // Made on Unix (the high byte of "version made by" is 3): the high half of the
        // external attributes is the file's mode.
        let mode = if h[5] == 3 { le32(&h, 38) >> 16 } else { 0 };
        let mut e = ZipEntry {
            name: name.to_vec(),
            is_dir: name.ends_with(b"/") || mode & 0o170_000 == 0o040_000,
            is_symlink: mode & 0o170_000 == 0o120_000,
            method: le16(&h, 10),
            flags,
            crc: le32(&h, 16),
            compressed: u64::from(le32(&h, 20)),
            size: u64::from(le32(&h, 24)),
            offset: u64::from(le32(&h, 42)),
        };
        read_extra(&mut e, extra);
        Ok(Some(e))
    }

    /// The member's bytes, uncompressed, refused past `cap`.
    pub fn read(&mut self, e: &ZipEntry, cap: u64) -> Result<Vec<u8>, InputError> {
        let fail = |why: String| {
            let member = String::from_utf8_lossy(&e.name);
            InputError::Walk(format!("zip member {member}: {why}"))
        };
        if e.flags & 1 != 0 {
            return Err(fail("encrypted".to_string()));
        }
        let mut h = [0u8; 30];
        self.data.seek(SeekFrom::Start(e.offset + self.shift))?;
        self.data.read_exact(&mut h)?;
        if le32(&h, 0) != LOCAL {
            return Err(fail("no local header where the directory says".to_string()));
        }
        let skip = i64::from(le16(&h, 26)) + i64::from(le16(&h, 28));
        self.data.seek(SeekFrom::Current(skip))?;
        let mut raw = BufReader::new(&mut self.data).take(e.compressed);
        let bytes = match e.method {
            0 => read_capped(&mut raw, e.size, cap),
            8 => read_capped(&mut flate2::bufread::DeflateDecoder::new(raw), e.size, cap),
            12 => read_capped(&mut bzip2::bufread::BzDecoder::new(raw), e.size, cap),
            m => {
                return Err(fail(format!(
                    "compression method {m} ({}) not read",
                    method_name(m)
                )))
            }
        }
        .map_err(|err| match err {
            InputError::Io(io) => fail(io.to_string()),
            other => other,
        })?;
        if crc32fast::hash(&bytes) != e.crc {
            return Err(fail("checksum mismatch (damaged member)".to_string()));
        }
        Ok(bytes)
    }
}

/// Zip64 sizes and offset, and the Info-ZIP Unicode path, from the entry's extra field.
fn read_extra(e: &mut ZipEntry, mut extra: &[u8]) {
    while extra.len() >= 4 {
        let (id, len) = (le16(extra, 0), usize::from(le16(extra, 2)));
        let Some(data) = extra.get(4..4 + len) else {
            return;
        };
        match id {
            0x0001 => {
                let mut at = 0;
                for field in [&mut e.size, &mut e.compressed, &mut e.offset] {
                    if *field == u64::from(u32::MAX) && at + 8 <= data.len() {
                        *field = le64(data, at);
                        at += 8;
                    }
                }
            }
            // Only while it still names what the entry's own name says (its CRC).
            0x7075
                if data.len() > 5
                    && e.flags & (1 << 11) == 0
                    && le32(data, 1) == crc32fast::hash(&e.name) =>
            {
                e.name = data[5..].to_vec();
            }
            _ => {}
        }
        extra = &extra[4 + len..];
    }
}

fn method_name(m: u16) -> &'static str {
    match m {
        9 => "deflate64",
        14 => "LZMA",
        93 => "zstd",
        95 => "xz",
        98 => "PPMd",
        99 => "AES-encrypted",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn archive(members: &[(&str, &[u8], zip::CompressionMethod)]) -> tempfile::NamedTempFile {
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for (name, bytes, method) in members {
            let opts = zip::write::SimpleFileOptions::default().compression_method(*method);
            w.start_file(*name, opts).unwrap();
            w.write_all(bytes).unwrap();
        }
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(&w.finish().unwrap().into_inner()).unwrap();
        f
    }

    type Read = Vec<(String, Result<Vec<u8>, String>)>;

    fn all(f: &tempfile::NamedTempFile, cap: u64) -> Read {
        let open = || File::open(f.path()).unwrap();
        let mut z = ZipDir::open(open(), open()).unwrap();
        let mut out = Vec::new();
        while let Some(e) = z.next_entry().unwrap() {
            let bytes = z.read(&e, cap).map_err(|e| e.to_string());
            out.push((String::from_utf8(e.name).unwrap(), bytes));
        }
        out
    }

    #[test]
    fn every_member_in_order_stored_and_deflated() {
        use zip::CompressionMethod::{Deflated, Stored};
        let f = archive(&[
            ("b.sgf", b"(;GM[1])", Deflated),
            ("a/\u{5433}.sgf", b"(;)", Stored),
        ]);
        let got = all(&f, 1 << 20);
        assert_eq!(got[0], ("b.sgf".to_string(), Ok(b"(;GM[1])".to_vec())));
        assert_eq!(got[1], ("a/\u{5433}.sgf".to_string(), Ok(b"(;)".to_vec())));
        let capped = all(&f, 4);
        assert!(
            capped[0].1.as_ref().unwrap_err().contains("cap"),
            "{capped:?}"
        );
    }

    #[test]
    fn a_prefix_before_the_archive_shifts_every_offset() {
        let f = archive(&[("g.sgf", b"(;)", zip::CompressionMethod::Deflated)]);
        let mut shifted = tempfile::NamedTempFile::new().unwrap();
        shifted.write_all(b"#!/bin/sh\nexit 0\n").unwrap();
        shifted
            .write_all(&std::fs::read(f.path()).unwrap())
            .unwrap();
        assert_eq!(all(&shifted, 1 << 20)[0].1, Ok(b"(;)".to_vec()));
    }

    #[test]
    fn damage_is_an_error_not_a_panic() {
        let f = archive(&[("g.sgf", b"(;GM[1]SZ[19])", zip::CompressionMethod::Stored)]);
        let mut bytes = std::fs::read(f.path()).unwrap();
        let at = bytes.windows(5).position(|w| w == b"GM[1]").unwrap();
        bytes[at] = b'X';
        std::fs::write(f.path(), &bytes).unwrap();
        let got = all(&f, 1 << 20);
        assert!(
            got[0].1.as_ref().unwrap_err().contains("checksum"),
            "{got:?}"
        );
        // Cut anywhere in its end record, an archive cannot be opened at all.
        for cut in [10, bytes.len() - 30, bytes.len() - 10] {
            std::fs::write(f.path(), &bytes[..cut]).unwrap();
            let open = || File::open(f.path()).unwrap();
            assert!(ZipDir::open(open(), open()).is_err(), "cut at {cut}");
        }
    }
}
