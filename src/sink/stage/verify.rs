//! An output folder checked: that it is one (`check_out`), that its manifest names every table
//! and every file with its size and SHA-256 (`verify`), and which files changed since.

use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::*;

/// A file's size and SHA-256, as `sha256sum` prints it.
pub(super) fn digest(path: &Path) -> io::Result<(u64, String)> {
    let mut r = Digesting::new(std::fs::File::open(path)?);
    io::copy(&mut r, &mut io::sink())?;
    Ok(r.digest())
}

/// A reader that takes the size and SHA-256 of what passes through it, so that what a
/// command reads can be held against a manifest's `SIZE SHA256` as it is read, not before.
pub struct Digesting<R> {
    inner: R,
    hash: Sha256,
    size: u64,
}

impl<R: Read> Digesting<R> {
    pub fn new(inner: R) -> Digesting<R> {
        Digesting {
            inner,
            hash: Sha256::new(),
            size: 0,
        }
    }

    /// The size and the hex SHA-256 of the bytes read so far.
    pub fn digest(self) -> (u64, String) {
        let hex = self
            .hash
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>();
        (self.size, hex)
    }
}

impl<R: Read> Read for Digesting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

/// Checks, before any work (after a killed run's commit is finished or undone), that the
/// outputs can go into `dir` and touch nothing else there: `plots` and `plots/boards` are
/// real folders if they are there, and every file at an output's name (the top-level
/// outputs, the SVG and SGF files under `plots/`) is one the folder's manifest names, not a
/// link, not a folder, not a file of the user's.
pub fn check_out(dir: &Path) -> Result<(), FolderError> {
    let meta = |p: &Path| std::fs::symlink_metadata(p).ok();
    for d in ["plots", "plots/boards"] {
        let p = dir.join(d);
        match meta(&p) {
            Some(m) if m.file_type().is_symlink() => return Err(FolderError::Link(p)),
            Some(m) if !m.is_dir() => return Err(FolderError::NotAFolder(p)),
            _ => {}
        }
    }
    let manifest = dir.join("manifest.tsv");
    let named: std::collections::BTreeSet<String> = match meta(&manifest) {
        None => Default::default(),
        Some(m) if m.file_type().is_symlink() => return Err(FolderError::Link(manifest)),
        Some(m) if m.is_dir() => return Err(FolderError::FolderInTheWay(manifest)),
        Some(_) => {
            let m = Manifest::read(&manifest)?;
            if m.get("livingblocks").is_none() {
                return Err(FolderError::NotOurs(manifest));
            }
            m.files().into_iter().map(|(f, _)| f).collect()
        }
    };
    let mut names: Vec<String> = TABLE_FILES
        .iter()
        .chain(&OUTPUTS)
        .filter(|f| **f != "manifest.tsv")
        .map(|f| f.to_string())
        .collect();
    for sub in ["plots", "plots/boards"] {
        for e in std::fs::read_dir(dir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".svg") || name.ends_with(".sgf") {
                names.push(format!("{sub}/{name}"));
            }
        }
    }
    for f in names {
        let p = dir.join(&f);
        match meta(&p) {
            None => {}
            Some(m) if m.file_type().is_symlink() => return Err(FolderError::Link(p)),
            Some(m) if m.is_dir() => return Err(FolderError::FolderInTheWay(p)),
            Some(_) if !named.contains(&f) => return Err(FolderError::NotOurs(p)),
            Some(_) => {}
        }
    }
    Ok(())
}

/// Checks that a verified manifest names every table: a command that reads the tables
/// takes none the manifest does not vouch for.
pub fn names_every_table(dir: &Path, m: &Manifest) -> Result<(), FolderError> {
    let named = m.files();
    let format = crate::sink::TableFormat::named_by(m);
    match TABLES
        .iter()
        .find(|t| !named.iter().any(|(f, _)| *f == format.file(t)))
    {
        Some(table) => Err(FolderError::Unnamed {
            dir: dir.to_path_buf(),
            table,
        }),
        None => Ok(()),
    }
}

/// Checks that `dir` is a complete output: a manifest naming every file, and each file that
/// `check` selects with the size and checksum the manifest names. Says which file does not
/// match.
pub fn verify(dir: &Path, check: &dyn Fn(&str) -> bool) -> Result<Manifest, FolderError> {
    let path = dir.join("manifest.tsv");
    if !path.is_file() {
        return Err(FolderError::NoManifest(dir.to_path_buf()));
    }
    let m = Manifest::read(&path)?;
    let files = m.files();
    if files.is_empty() {
        return Err(FolderError::NoFiles(dir.to_path_buf()));
    }
    for (f, expected) in files {
        if !check(&f) {
            continue;
        }
        let p = dir.join(&f);
        let (size, sum) = digest(&p).map_err(|source| FolderError::Read {
            path: p.clone(),
            source,
        })?;
        if expected != format!("{size} {sum}") {
            return Err(FolderError::Mismatch {
                path: p,
                size,
                expected: expected.split(' ').next().unwrap_or("?").to_string(),
            });
        }
    }
    Ok(m)
}

/// Which of `files` no longer match what `m` recorded.
pub fn changed(dir: &Path, m: &Manifest, files: &[&str]) -> Vec<String> {
    m.files()
        .into_iter()
        .filter(|(f, expected)| {
            files.contains(&f.as_str())
                && digest(&dir.join(f)).map(|(n, s)| format!("{n} {s}")).ok()
                    != Some(expected.clone())
        })
        .map(|(f, _)| f)
        .collect()
}

impl Manifest {
    /// The output files the manifest names, with their `SIZE SHA256`.
    pub fn files(&self) -> Vec<(String, String)> {
        self.entries
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix(FILE_KEY)?.to_string(), v.clone())))
            .collect()
    }
}
