//! The vocabulary every part of `source` shares: an input, why it could not be read, the
//! containers known by their names, and the capped read.

use std::io::Read;
use std::path::PathBuf;

/// One input: a file to read, or a place the walk could not enter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// What the `file` column shows: the path relative to the PATH argument it was found
    /// under, with `/` separators, or the file name when the argument is a file.
    pub name: String,
    pub path: PathBuf,
    pub kind: InputKind,
}

/// What the walk found at an input's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A file to read.
    File,
    /// The walk itself failed here (permission denied, a loop, …).
    Problem(String),
    /// A name the walk reads that is not a file: a symbolic link, a folder.
    Skipped(&'static str),
}

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{0}")]
    Walk(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{size} bytes, over the {cap}-byte cap (--max-file-size)")]
    TooLarge { size: u64, cap: u64 },
    #[error("{0}")]
    Skipped(String),
}

/// Reads at most `cap` bytes, refusing more (`TooLarge`); `size_hint` is what the file
/// system or the archive says, and is checked first so nothing is read in vain.
pub fn read_capped(r: &mut dyn Read, size_hint: u64, cap: u64) -> Result<Vec<u8>, InputError> {
    if size_hint > cap {
        return Err(InputError::TooLarge {
            size: size_hint,
            cap,
        });
    }
    let mut bytes = Vec::with_capacity(size_hint.min(cap) as usize);
    r.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

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

/// Whether a name (of a file or an archive member) is an SGF file's, in any case.
pub fn is_sgf_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".sgf")
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
}
