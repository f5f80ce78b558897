//! Archives and compressed collections as inputs, streamed: nothing is extracted to disk.
//!
//! - `.zip`, `.tar`, `.tar.gz`/`.tgz`, `.tar.bz2`, `.tar.xz`: every member ending in `.sgf`
//!   (any case) is an input named `archive!member`, in archive order.
//! - `.sgf.gz`, `.sgf.bz2`, `.sgf.xz`: one collection, often huge (engine self-play dumps),
//!   split into its top-level game trees as it streams, so memory stays flat; each tree is
//!   analysed on its own, numbered by its place in the stream.
//!
//! `--max-file-size` caps every member and every game tree after decompression, so a
//! decompression bomb gives a `too_large` row instead of filling memory.

use std::fs::File;
use std::io::{self, BufReader, Read};

use super::walk::{read_capped, Input, InputError};

/// What kind of container an input is, by its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Container {
    Zip,
    Tar(Compression),
    Stream(Compression),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Bzip2,
    Xz,
}

/// The container an input name stands for, if any. Allocation-free: `merge` asks this of
/// every row it compares.
pub fn container_of(name: &str) -> Option<Container> {
    container_of_bytes(name.as_bytes())
}

/// `container_of` on raw bytes (a CSV field).
pub fn container_of_bytes(n: &[u8]) -> Option<Container> {
    let ends =
        |s: &str| n.len() >= s.len() && n[n.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes());
    Some(if ends(".zip") {
        Container::Zip
    } else if ends(".tar") {
        Container::Tar(Compression::None)
    } else if ends(".tar.gz") || ends(".tgz") {
        Container::Tar(Compression::Gzip)
    } else if ends(".tar.bz2") || ends(".tbz2") {
        Container::Tar(Compression::Bzip2)
    } else if ends(".tar.xz") || ends(".txz") {
        Container::Tar(Compression::Xz)
    } else if ends(".sgf.gz") {
        Container::Stream(Compression::Gzip)
    } else if ends(".sgf.bz2") {
        Container::Stream(Compression::Bzip2)
    } else if ends(".sgf.xz") {
        Container::Stream(Compression::Xz)
    } else {
        return None;
    })
}

/// One input taken out of a container.
#[derive(Debug)]
pub struct Member {
    /// The `file` column: `archive!member`, or the stream's own name.
    pub name: String,
    /// For a game tree of a compressed collection, its number in the stream; `None` for an
    /// archive member (a file of its own, its games numbered from 0).
    pub game: Option<usize>,
    pub bytes: Result<Vec<u8>, InputError>,
}

/// Calls `each` with every member of a container, in order; stops at the first error `each`
/// returns. A container that cannot be opened at all gives one member carrying the error.
pub fn for_each_member<E>(
    input: &Input,
    container: Container,
    cap: u64,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> Result<(), E> {
    let failed = |e: io::Error| Member {
        name: input.name.clone(),
        game: None,
        bytes: Err(InputError::Io(e)),
    };
    let file = match File::open(&input.path) {
        Ok(f) => f,
        Err(e) => return each(failed(e)),
    };
    match container {
        Container::Zip => zip_members(input, file, cap, each),
        Container::Tar(c) => match tar_members(input, decompress(file, c), cap, each) {
            Ok(r) => r,
            Err(e) => each(failed(e)),
        },
        Container::Stream(c) => stream_trees(input, decompress(file, c), cap, each),
    }
}

fn decompress(file: File, c: Compression) -> Box<dyn Read> {
    let file = BufReader::with_capacity(1 << 16, file);
    match c {
        Compression::None => Box::new(file),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(file)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(file)),
        Compression::Xz => Box::new(xz2::bufread::XzDecoder::new_multi_decoder(file)),
    }
}

fn is_sgf_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".sgf")
}

fn zip_members<E>(
    input: &Input,
    file: File,
    cap: u64,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> Result<(), E> {
    let mut archive = match zip::ZipArchive::new(BufReader::new(file)) {
        Ok(a) => a,
        Err(e) => {
            return each(Member {
                name: input.name.clone(),
                game: None,
                bytes: Err(InputError::Walk(format!("not a readable zip archive: {e}"))),
            })
        }
    };
    for i in 0..archive.len() {
        let (name, bytes) = match archive.by_index(i) {
            Ok(mut m) => {
                if m.is_dir() || !is_sgf_name(m.name()) {
                    continue;
                }
                let name = format!("{}!{}", input.name, m.name());
                let size = m.size();
                (name, read_capped(&mut m, size, cap))
            }
            Err(e) => (
                format!("{}!#{i}", input.name),
                Err(InputError::Walk(format!("zip member {i}: {e}"))),
            ),
        };
        each(Member {
            name,
            game: None,
            bytes,
        })?;
    }
    Ok(())
}

/// Tar members in order. An error in the archive's structure ends the walk with a row for
/// the archive (outer `Err`), after the members read so far.
fn tar_members<E>(
    input: &Input,
    reader: Box<dyn Read>,
    cap: u64,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> io::Result<Result<(), E>> {
    let mut archive = tar::Archive::new(reader);
    for entry in archive.entries()? {
        let mut entry = entry?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path()?.to_string_lossy().into_owned();
        if !is_sgf_name(&path) {
            continue;
        }
        let size = entry.header().size().unwrap_or(0);
        let bytes = read_capped(&mut entry, size, cap);
        if let Err(e) = each(Member {
            name: format!("{}!{path}", input.name),
            game: None,
            bytes,
        }) {
            return Ok(Err(e));
        }
    }
    Ok(Ok(()))
}

/// Splits a stream into top-level game trees, `(` … matching `)`, skipping property values
/// (with `\]` escapes) and anything between trees.
fn stream_trees<E>(
    input: &Input,
    mut reader: Box<dyn Read>,
    cap: u64,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> Result<(), E> {
    let mut splitter = TreeSplitter::default();
    let mut chunk = vec![0u8; 1 << 16];
    let mut game = 0usize;
    let mut emit = |bytes: Result<Vec<u8>, InputError>, game: &mut usize| {
        let m = Member {
            name: input.name.clone(),
            game: Some(*game),
            bytes,
        };
        *game += 1;
        each(m)
    };
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                // A corrupt stream: what was read is kept; the rest is one row.
                return emit(Err(InputError::Io(e)), &mut game);
            }
        };
        for tree in splitter.feed(&chunk[..n], cap) {
            emit(tree, &mut game)?;
        }
    }
    if let Some(rest) = splitter.finish() {
        emit(Ok(rest), &mut game)?;
    }
    if game == 0 {
        emit(Ok(Vec::new()), &mut game)?;
    }
    Ok(())
}

/// Incremental splitter of a collection into top-level game trees.
#[derive(Default)]
struct TreeSplitter {
    current: Vec<u8>,
    depth: usize,
    in_value: bool,
    escaped: bool,
    /// The current tree passed the cap: its bytes are dropped until it closes.
    oversized: u64,
}

impl TreeSplitter {
    fn feed(&mut self, bytes: &[u8], cap: u64) -> Vec<Result<Vec<u8>, InputError>> {
        let mut done = Vec::new();
        for &b in bytes {
            if self.depth == 0 && b != b'(' {
                continue;
            }
            if self.oversized > 0 {
                self.oversized += 1;
            } else {
                self.current.push(b);
                if self.current.len() as u64 > cap {
                    self.oversized = self.current.len() as u64;
                    self.current = Vec::new();
                }
            }
            if self.in_value {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b']' {
                    self.in_value = false;
                }
                continue;
            }
            match b {
                b'[' => self.in_value = true,
                b'(' => self.depth += 1,
                b')' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        if self.oversized > 0 {
                            done.push(Err(InputError::TooLarge {
                                size: self.oversized,
                                cap,
                            }));
                            self.oversized = 0;
                        } else {
                            done.push(Ok(std::mem::take(&mut self.current)));
                        }
                    }
                }
                _ => {}
            }
        }
        done
    }

    /// A tree left open at the end of the stream (truncated), if any.
    fn finish(self) -> Option<Vec<u8>> {
        (self.depth > 0 && self.oversized == 0).then_some(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_by_name() {
        assert_eq!(container_of("a.ZIP"), Some(Container::Zip));
        assert_eq!(
            container_of("a.tgz"),
            Some(Container::Tar(Compression::Gzip))
        );
        assert_eq!(
            container_of("a.tar.xz"),
            Some(Container::Tar(Compression::Xz))
        );
        assert_eq!(
            container_of("selfplay.sgf.bz2"),
            Some(Container::Stream(Compression::Bzip2))
        );
        assert_eq!(container_of("a.gz"), None);
        assert_eq!(container_of("a.sgf"), None);
    }

    #[test]
    fn the_splitter_finds_trees_across_chunks() {
        let text = b"junk (;C[a ) b \\] c];B[aa])\n(;B[bb](;W[cc])(;W[dd]))(;B[";
        let mut s = TreeSplitter::default();
        let mut trees = Vec::new();
        for chunk in text.chunks(3) {
            trees.extend(s.feed(chunk, 1000).into_iter().map(|t| t.unwrap()));
        }
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[0], b"(;C[a ) b \\] c];B[aa])");
        assert_eq!(trees[1], b"(;B[bb](;W[cc])(;W[dd]))");
        assert_eq!(s.finish().unwrap(), b"(;B[");
    }

    #[test]
    fn an_oversized_tree_is_dropped_and_reported() {
        let mut s = TreeSplitter::default();
        let out = s.feed(b"(;C[0123456789])(;B[aa])", 8);
        assert!(matches!(
            out[0],
            Err(InputError::TooLarge { size: 16, cap: 8 })
        ));
        assert_eq!(out[1].as_ref().unwrap(), b"(;B[aa])");
    }
}
