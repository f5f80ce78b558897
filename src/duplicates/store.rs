//! What duplicate matching keeps of every game, kept small: each record's stones and file
//! name go to a file that is never named (the run's output folder holds it, so it lives on
//! the disk the user chose for the outputs and goes with the process, however it ends), and
//! the indexes hold 32 bits of each signature. A million games keep about 40 bytes each in
//! memory and 600 on disk.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::go::KeyLine;

/// Bytes gathered before they are written out together.
const FLUSH_AT: usize = 1 << 20;

/// Records written one after the other, read back by where they start. The bytes not yet
/// written (or all of them, where no file could be made or the disk filled) stay in memory.
pub struct Store {
    file: Option<File>,
    /// Bytes in the file: the first `on_disk` of the store.
    on_disk: u64,
    /// The bytes after them.
    tail: Vec<u8>,
}

impl Store {
    /// A store in memory only.
    pub fn memory() -> Store {
        Store {
            file: None,
            on_disk: 0,
            tail: Vec::new(),
        }
    }

    /// A store in an unnamed file in `dir`; in memory where none can be made there.
    pub fn in_folder(dir: &Path) -> Store {
        Store {
            file: tempfile::tempfile_in(dir).ok(),
            ..Store::memory()
        }
    }

    fn len(&self) -> u64 {
        self.on_disk + self.tail.len() as u64
    }

    /// Appends `bytes`; returns where they start.
    fn push(&mut self, bytes: &[u8]) -> u64 {
        let at = self.len();
        self.tail.extend_from_slice(bytes);
        if self.tail.len() >= FLUSH_AT {
            if let Some(f) = &self.file {
                // A failed write (a full disk) leaves the bytes here: the store keeps working
                // in memory.
                if f.write_all_at(&self.tail, self.on_disk).is_ok() {
                    self.on_disk += self.tail.len() as u64;
                    self.tail.clear();
                }
            }
        }
        at
    }

    /// Fills `buf` with the bytes from `at`.
    fn read(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        if at >= self.on_disk {
            let from = (at - self.on_disk) as usize;
            let part = self
                .tail
                .get(from..from + buf.len())
                .ok_or(io::ErrorKind::UnexpectedEof)?;
            buf.copy_from_slice(part);
            return Ok(());
        }
        let file = self.file.as_ref().ok_or(io::ErrorKind::NotFound)?;
        let split = (self.on_disk - at).min(buf.len() as u64) as usize;
        file.read_exact_at(&mut buf[..split], at)?;
        if split < buf.len() {
            let (_, rest) = buf.split_at_mut(split);
            let part = self
                .tail
                .get(..rest.len())
                .ok_or(io::ErrorKind::UnexpectedEof)?;
            rest.copy_from_slice(part);
        }
        Ok(())
    }

    /// Appends a line: its size, setup and moves.
    pub fn push_line(&mut self, line: &KeyLine) -> u64 {
        let mut b = Vec::with_capacity(9 + 2 * (line.setup.len() + line.moves.len()));
        b.push(line.size);
        b.extend_from_slice(&(line.setup.len() as u32).to_le_bytes());
        b.extend_from_slice(&(line.moves.len() as u32).to_le_bytes());
        for &c in line.setup.iter().chain(line.moves.iter()) {
            b.extend_from_slice(&c.to_le_bytes());
        }
        self.push(&b)
    }

    pub fn line(&self, at: u64) -> io::Result<KeyLine> {
        let mut head = [0u8; 9];
        self.read(at, &mut head)?;
        let count = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes")) as usize;
        let (setup, moves) = (count(&head[1..5]), count(&head[5..9]));
        let mut body = vec![0u8; 2 * (setup + moves)];
        self.read(at + 9, &mut body)?;
        let mut points = body
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]));
        Ok(KeyLine {
            size: head[0],
            setup: points.by_ref().take(setup).collect(),
            moves: points.collect(),
        })
    }

    /// Appends a file name.
    pub fn push_name(&mut self, name: &str) -> u64 {
        let mut b = Vec::with_capacity(4 + name.len());
        b.extend_from_slice(&(name.len() as u32).to_le_bytes());
        b.extend_from_slice(name.as_bytes());
        self.push(&b)
    }

    pub fn name(&self, at: u64) -> io::Result<String> {
        let mut head = [0u8; 4];
        self.read(at, &mut head)?;
        let mut body = vec![0u8; u32::from_le_bytes(head) as usize];
        self.read(at + 4, &mut body)?;
        String::from_utf8(body).map_err(|_| io::ErrorKind::InvalidData.into())
    }
}

/// Hashes a key that is already a hash: its own bits, spread by one multiplication.
#[derive(Default)]
pub struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Map<V> = HashMap<u32, V, BuildHasherDefault<Spread>>;

/// Shards of an index: each grows on its own, so that growing copies one shard at a time
/// and never the whole index.
const SHARDS: usize = 256;

/// Games by a 64-bit signature, held by 32 of its bits (the other 8 pick the shard): the
/// first game of each, and apart the few after it (or of another signature with the same
/// bits). A hit may be another signature's: the caller checks what it finds.
pub struct Index {
    first: Vec<Map<u32>>,
    more: Map<Vec<u32>>,
}

impl Default for Index {
    fn default() -> Index {
        Index {
            first: (0..SHARDS).map(|_| Map::default()).collect(),
            more: Map::default(),
        }
    }
}

/// The shard and the bits an index keeps of `key`.
fn split(key: u64) -> (usize, u32) {
    ((key >> 56) as usize % SHARDS, key as u32)
}

impl Index {
    /// Game `i` under `key`, after every game before it: listed after the first, up to
    /// `cap` games a key.
    pub fn add(&mut self, key: u64, i: u32, cap: usize) {
        let (shard, low) = split(key);
        let first = *self.first[shard].entry(low).or_insert(i);
        if first != i {
            let more = self.more.entry(more_key(key)).or_default();
            if more.len() + 1 < cap && more.last() != Some(&i) {
                more.push(i);
            }
        }
    }

    /// The games listed under `key`, in the order added.
    pub fn get(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let (shard, low) = split(key);
        let first = self.first[shard].get(&low).copied();
        let more = first
            .and_then(|_| self.more.get(&more_key(key)))
            .map_or(&[][..], Vec::as_slice);
        first.into_iter().chain(more.iter().copied())
    }
}

/// The key of `more`: the bits the shard and the first map hold, folded into 32.
fn more_key(key: u64) -> u32 {
    let (shard, low) = split(key);
    low ^ (shard as u32).rotate_left(24)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: u16) -> KeyLine {
        KeyLine {
            size: 19,
            setup: (0..n % 3).collect(),
            moves: (0..n).map(|i| i * 7 % 722).collect(),
        }
    }

    /// Lines and names read back as written, from the file and from the bytes not yet
    /// written alike, across the point where the store writes out.
    #[test]
    fn what_is_pushed_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        for mut store in [Store::memory(), Store::in_folder(dir.path())] {
            let mut at = Vec::new();
            for n in 0..3000u16 {
                at.push((
                    store.push_line(&line(n % 400)),
                    store.push_name(&format!("f{n}.sgf")),
                ));
            }
            assert!(store.file.is_none() || store.on_disk > 0);
            for (n, (l, f)) in at.into_iter().enumerate() {
                assert_eq!(store.line(l).unwrap(), line(n as u16 % 400));
                assert_eq!(store.name(f).unwrap(), format!("f{n}.sgf"));
            }
        }
        // The file is never named in the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// An index lists the first game of a key and up to `cap - 1` after it, in order; keys
    /// that share the 32 bits kept share a list, and the caller tells them apart.
    #[test]
    fn an_index_lists_games_in_order_up_to_its_cap() {
        let mut index = Index::default();
        for i in 0..20 {
            index.add(7, i, 16);
        }
        index.add(8, 100, 16);
        assert_eq!(
            index.get(7).collect::<Vec<_>>(),
            (0..16).collect::<Vec<_>>()
        );
        assert_eq!(index.get(8).collect::<Vec<_>>(), [100]);
        assert_eq!(index.get(9).count(), 0);
        let mut all = Index::default();
        all.add(5, 1, usize::MAX);
        all.add(5 | 1 << 60, 2, usize::MAX);
        assert_eq!(all.get(5).collect::<Vec<_>>(), [1]);
        all.add(5 | 1 << 40, 3, usize::MAX);
        assert_eq!(all.get(5).collect::<Vec<_>>(), [1, 3]);
    }
}
