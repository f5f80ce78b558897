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

use super::input::{is_sgf_name, read_capped, Compression, Container, Input, InputError};
use super::name::name_of;
use super::zip_dir::ZipDir;
use crate::sgf::decode::{splits_as_bytes, HEAD};
use crate::sgf::scan::{ignored_note, TreeScanner, TreeSpan};

/// One input taken out of a container.
#[derive(Debug)]
pub struct Member {
    /// The `file` column: `archive!member`, or the stream's own name.
    pub name: String,
    /// For a game tree of a compressed collection, its number in the stream; `None` for an
    /// archive member (a file of its own, its games numbered from 0).
    pub game: Option<usize>,
    pub bytes: Result<Vec<u8>, InputError>,
    /// For a game tree of a stream: the text ignored around it, as its `detail` notes it.
    pub note: Option<String>,
}

impl Member {
    /// The number of a game found in this member's bytes: its place in the stream for a game
    /// tree of a compressed collection, its place in the member for an archive's file.
    pub fn game_number(&self, in_member: Option<usize>) -> Option<usize> {
        match (in_member, self.game) {
            (Some(i), n) => Some(i + n.unwrap_or(0)),
            (None, n) => n,
        }
    }

    /// Whether this member starts a file of its own: every archive member does; a stream's
    /// trees are one file, counted at its first.
    pub fn starts_file(&self) -> bool {
        self.game.unwrap_or(0) == 0
    }
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
        note: None,
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
        Container::Stream(c) => {
            let plain = c == Compression::None;
            stream_trees(input, decompress(file, c), cap, plain, each)
        }
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

fn zip_members<E>(
    input: &Input,
    file: File,
    cap: u64,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> Result<(), E> {
    let whole = |why: String| Member {
        name: input.name.clone(),
        game: None,
        bytes: Err(InputError::Walk(why)),
        note: None,
    };
    let mut archive = match File::open(&input.path).and_then(|data| ZipDir::open(file, data)) {
        Ok(a) => a,
        Err(e) => return each(whole(format!("not a readable zip archive: {e}"))),
    };
    let mut rows = 0;
    loop {
        let entry = match archive.next_entry() {
            Ok(Some(entry)) => entry,
            Ok(None) => break,
            // A damaged directory: the members read so far keep their rows.
            Err(e) => {
                each(whole(format!(
                    "zip archive damaged after {rows} rows of its members: {e}"
                )))?;
                rows += 1;
                break;
            }
        };
        let member = name_of(entry.name.strip_suffix(b"/").unwrap_or(&entry.name));
        let bytes = if let Some(why) = not_read(&member) {
            Err(InputError::Skipped(why.to_string()))
        } else if !is_sgf_name(&member) {
            continue;
        } else if entry.is_dir {
            Err(InputError::Skipped("a folder".to_string()))
        } else if entry.is_symlink {
            Err(InputError::Skipped(
                "a symbolic link, not followed".to_string(),
            ))
        } else {
            archive.read(&entry, cap)
        };
        rows += 1;
        each(Member {
            name: format!("{}!{member}", input.name),
            game: None,
            bytes,
            note: None,
        })?;
    }
    if rows == 0 {
        return each(no_members(input));
    }
    Ok(())
}

/// Why a member named like an input is not read: an archive inside the archive.
fn not_read(member: &str) -> Option<&'static str> {
    super::input::container_of(member.rsplit('/').next().unwrap_or(member))
        .map(|_| "an archive inside an archive: not read (extract it first)")
}

/// The row of a container that holds no game to read, so that it is not lost without a word.
fn no_members(input: &Input) -> Member {
    Member {
        name: input.name.clone(),
        game: None,
        bytes: Err(InputError::Skipped(
            "no .sgf member in the archive".to_string(),
        )),
        note: None,
    }
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
    let mut rows = 0;
    for entry in archive.entries()? {
        let mut entry = entry?;
        let raw = entry.path_bytes();
        let path = name_of(raw.strip_suffix(b"/").unwrap_or(&raw));
        let kind = entry.header().entry_type();
        let skipped = |why: String| Err(InputError::Skipped(why));
        let bytes = if let Some(why) = not_read(&path) {
            skipped(why.to_string())
        } else if !is_sgf_name(&path) {
            continue;
        } else if kind.is_file() {
            let size = entry.header().size().unwrap_or(0);
            read_capped(&mut entry, size, cap)
        } else if kind.is_hard_link() {
            // The game is stored once, under the name it was linked from.
            let target = entry
                .link_name()
                .ok()
                .flatten()
                .map(|t| t.to_string_lossy().into_owned())
                .unwrap_or_default();
            skipped(format!(
                "a hard link to {target}: the same game, read under that name"
            ))
        } else if kind.is_symlink() {
            skipped("a symbolic link, not followed".to_string())
        } else if kind.is_dir() {
            skipped("a folder".to_string())
        } else {
            skipped("not a regular file".to_string())
        };
        rows += 1;
        if let Err(e) = each(Member {
            name: format!("{}!{path}", input.name),
            game: None,
            bytes,
            note: None,
        }) {
            return Ok(Err(e));
        }
    }
    if rows == 0 {
        return Ok(each(no_members(input)));
    }
    Ok(Ok(()))
}

/// Cuts a stream into its top-level game trees with `sgf::scan`'s scanner, the one that
/// splits a plain file's collection, so the same bytes give the same games either way. Each
/// tree is emitted once the next one is found (or the stream ends), so that the text ignored
/// after the last tree can be noted on it, as in a plain file. A stream whose head is not
/// text cut on its bytes (UTF-16, binary data: `splits_as_bytes`) is read whole, within the
/// cap, as one file: it gives its games, or one row saying it is not text.
///
/// A `plain` file is capped as a whole, as a file read at once is (a compressed stream's cap
/// holds for each tree): one still being written (a self-play dump) is read up to the cap,
/// and what lies past it is a `too_large` row after the trees read before it.
fn stream_trees<E>(
    input: &Input,
    reader: Box<dyn Read>,
    cap: u64,
    plain: bool,
    each: &mut dyn FnMut(Member) -> Result<(), E>,
) -> Result<(), E> {
    let mut reader = reader.take(if plain {
        cap.saturating_add(1)
    } else {
        u64::MAX
    });
    let mut piece = Vec::with_capacity(HEAD);
    let mut failed = (&mut reader)
        .take(HEAD as u64)
        .read_to_end(&mut piece)
        .err();
    if !splits_as_bytes(&piece) {
        let bytes = match failed {
            Some(e) => Err(InputError::Io(e)),
            None => read_capped(&mut io::Cursor::new(piece).chain(reader), 0, cap),
        };
        return each(Member {
            name: input.name.clone(),
            game: None,
            bytes,
            note: None,
        });
    }
    let mut trees = StreamTrees::new(cap);
    let mut game = 0usize;
    let mut held: Option<(Result<Vec<u8>, InputError>, usize)> = None;
    let mut emit = |tree: (Result<Vec<u8>, InputError>, usize), after: Option<usize>| {
        let m = Member {
            name: input.name.clone(),
            game: Some(game),
            bytes: tree.0,
            note: ignored_note(tree.1, after),
        };
        game += 1;
        each(m)
    };
    loop {
        for tree in trees.feed(&piece) {
            if let Some(t) = held.replace(tree) {
                emit(t, None)?;
            }
        }
        if let Some(e) = failed {
            // A corrupt stream: what was read is kept; the rest is one row.
            if let Some(t) = held.take() {
                emit(t, None)?;
            }
            return emit((Err(InputError::Io(e)), 0), None);
        }
        piece.resize(HEAD, 0);
        match read_some(&mut reader, &mut piece) {
            Ok(0) => break,
            Ok(n) => piece.truncate(n),
            Err(e) => {
                piece.clear();
                failed = Some(e);
            }
        }
    }
    if plain && trees.fed as u64 > cap {
        if let Some(t) = held.take() {
            emit(t, None)?;
        }
        let size = trees.fed as u64;
        return emit((Err(InputError::TooLarge { size, cap }), 0), None);
    }
    let (open, after) = trees.end();
    if let Some(tree) = open {
        if let Some(t) = held.replace(tree) {
            emit(t, None)?;
        }
    }
    match held {
        Some(t) => emit(t, Some(after)),
        // No game tree at all: one row for the stream, as for a plain file.
        None => each(Member {
            name: input.name.clone(),
            game: None,
            bytes: Ok(Vec::new()),
            note: None,
        }),
    }
}

/// One `read`, retried when interrupted.
fn read_some(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => return r,
        }
    }
}

/// The game trees of a stream fed in chunks: only the tree under way is held, and one that
/// passes the cap is dropped as it grows and reported `too_large` when it ends.
struct StreamTrees {
    scanner: TreeScanner,
    cap: u64,
    /// The bytes from offset `held_from` to `fed`.
    held: Vec<u8>,
    held_from: usize,
    fed: usize,
    /// The start of the tree under way once it passed the cap.
    oversized: Option<usize>,
    spans: Vec<TreeSpan>,
}

/// A tree's bytes (or why not), and the bytes ignored before it.
type StreamTree = (Result<Vec<u8>, InputError>, usize);

impl StreamTrees {
    fn new(cap: u64) -> StreamTrees {
        StreamTrees {
            scanner: TreeScanner::new(),
            cap,
            held: Vec::new(),
            held_from: 0,
            fed: 0,
            oversized: None,
            spans: Vec::new(),
        }
    }

    fn tree(&mut self, span: &TreeSpan) -> StreamTree {
        let size = (span.end - span.start) as u64;
        let bytes = if self.oversized == Some(span.start) || size > self.cap {
            self.oversized = None;
            Err(InputError::TooLarge {
                size,
                cap: self.cap,
            })
        } else {
            let from = span.start - self.held_from;
            Ok(self.held[from..span.end - self.held_from].to_vec())
        };
        (bytes, span.ignored_before)
    }

    fn feed(&mut self, bytes: &[u8]) -> Vec<StreamTree> {
        self.held.extend_from_slice(bytes);
        self.fed += bytes.len();
        let mut spans = std::mem::take(&mut self.spans);
        self.scanner.feed(bytes, &mut spans);
        let done = spans.drain(..).map(|s| self.tree(&s)).collect();
        self.spans = spans;
        // Keep only what the tree under way needs; drop it all once it is over the cap.
        let keep_from = match self.scanner.pending_from() {
            Some(start) if (self.fed - start) as u64 > self.cap => {
                self.oversized = Some(start);
                self.fed
            }
            Some(start) if self.oversized != Some(start) => start,
            _ => self.fed,
        };
        self.held.drain(..keep_from - self.held_from);
        self.held_from = keep_from;
        done
    }

    /// The tree left open at the end of the stream (truncated), if any, and the bytes
    /// ignored after the last tree.
    fn end(mut self) -> (Option<StreamTree>, usize) {
        let scanner = std::mem::take(&mut self.scanner);
        let (open, after) = scanner.end();
        (open.map(|span| self.tree(&span)), after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_splitter_finds_trees_across_chunks() {
        let text = b"junk (;C[a ) b \\] c];B[aa])\n(;B[bb](;W[cc])(;W[dd]))(;B[";
        let mut s = StreamTrees::new(1000);
        let mut trees = Vec::new();
        for chunk in text.chunks(3) {
            trees.extend(s.feed(chunk).into_iter().map(|t| (t.0.unwrap(), t.1)));
        }
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[0], (b"(;C[a ) b \\] c];B[aa])".to_vec(), 4));
        assert_eq!(trees[1], (b"(;B[bb](;W[cc])(;W[dd]))".to_vec(), 0));
        let (open, after) = s.end();
        assert_eq!(open.unwrap().0.unwrap(), b"(;B[");
        assert_eq!(after, 0);
    }

    #[test]
    fn an_oversized_tree_is_dropped_and_reported() {
        for size in [1, 3, 100] {
            let mut s = StreamTrees::new(8);
            let mut out = Vec::new();
            for chunk in b"(;C[0123456789])(;B[aa])(;C[0123456789".chunks(size) {
                out.extend(s.feed(chunk));
            }
            assert!(matches!(
                out[0].0,
                Err(InputError::TooLarge { size: 16, cap: 8 })
            ));
            assert_eq!(out[1].0.as_ref().unwrap(), b"(;B[aa])");
            assert!(s.held.len() <= 16, "held {} bytes", s.held.len());
            // A tree that never closes and is over the cap still gets its row.
            let open = s.end().0.unwrap();
            assert!(matches!(
                open.0,
                Err(InputError::TooLarge { size: 14, cap: 8 })
            ));
        }
    }

    /// A reader that never ends: `text` again and again, counting the bytes it gave.
    struct Endless {
        text: Vec<u8>,
        at: usize,
        served: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.text[self.at % self.text.len()];
                self.at += 1;
            }
            let ordering = std::sync::atomic::Ordering::SeqCst;
            self.served.fetch_add(buf.len(), ordering);
            Ok(buf.len())
        }
    }

    /// A row of a stream: its game number, and its bytes or why not.
    type Row = (Option<usize>, Result<Vec<u8>, String>);

    /// The rows a stream gives, and how many bytes were read of it.
    fn stream_rows(text: &[u8], cap: u64, plain: bool) -> (Vec<Row>, usize) {
        let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let reader = Endless {
            text: text.to_vec(),
            at: 0,
            served: served.clone(),
        };
        let input = Input {
            name: "selfplay.sgf".to_string(),
            path: "selfplay.sgf".into(),
            kind: super::super::InputKind::File,
        };
        let mut rows = Vec::new();
        let _: Result<(), ()> = stream_trees(&input, Box::new(reader), cap, plain, &mut |m| {
            rows.push((m.game, m.bytes.map_err(|e| e.to_string())));
            Ok(())
        });
        (rows, served.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// Issue 49 item 7: a plain file still being written was read for as long as it grew.
    /// It is read up to the cap: the trees before it, then a `too_large` row.
    #[test]
    fn a_plain_stream_that_never_ends_stops_at_the_cap() {
        let tree = b"(;B[aa])\n";
        for cap in [1000u64, 200_000] {
            let (rows, served) = stream_rows(tree, cap, true);
            assert_eq!(served as u64, cap + 1);
            let whole = (cap + 1) as usize / tree.len();
            assert_eq!(rows.len(), whole + 1, "cap {cap}");
            for (k, row) in rows[..whole].iter().enumerate() {
                assert_eq!(*row, (Some(k), Ok(b"(;B[aa])".to_vec())), "cap {cap}");
            }
            let over = format!(
                "{} bytes, over the {cap}-byte cap (--max-file-size)",
                cap + 1
            );
            assert_eq!(rows[whole], (Some(whole), Err(over)), "cap {cap}");
        }
    }

    /// Endless binary data is read whole up to the cap, as one file, and is `too_large`.
    #[test]
    fn endless_binary_data_stops_at_the_cap() {
        let noise: Vec<u8> = (0..=255u8).rev().collect();
        let cap = 300_000;
        let (rows, served) = stream_rows(&noise, cap, true);
        assert_eq!(served as u64, cap + 1);
        let over = format!(
            "{} bytes, over the {cap}-byte cap (--max-file-size)",
            cap + 1
        );
        assert_eq!(rows, [(None, Err(over))]);
    }

    /// A central directory damaged half-way: the members before the damage keep their rows,
    /// and the archive gets one saying where it broke.
    #[test]
    fn a_damaged_zip_directory_keeps_the_rows_before_it() {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for name in ["a.sgf", "b.sgf", "c.sgf"] {
            w.start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(b"(;)").unwrap();
        }
        let mut bytes = w.finish().unwrap().into_inner();
        // The third directory entry's signature.
        let at = (bytes.windows(4).enumerate())
            .filter(|(_, s)| *s == b"PK\x01\x02")
            .nth(2)
            .unwrap()
            .0;
        bytes[at] = b'X';
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("set.zip");
        std::fs::write(&path, bytes).unwrap();
        let input = Input {
            name: "set.zip".to_string(),
            path,
            kind: super::super::InputKind::File,
        };
        let mut rows = Vec::new();
        let _: Result<(), ()> = for_each_member(&input, Container::Zip, 1 << 20, &mut |m| {
            rows.push((m.name, m.bytes.map_err(|e| e.to_string())));
            Ok(())
        });
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(rows[0], ("set.zip!a.sgf".to_string(), Ok(b"(;)".to_vec())));
        assert_eq!(rows[1].0, "set.zip!b.sgf");
        assert_eq!(rows[2].0, "set.zip");
        let why = rows[2].1.as_ref().unwrap_err();
        assert!(why.contains("damaged after 2 rows"), "{why}");
    }
}
