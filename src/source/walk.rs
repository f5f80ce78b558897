//! Walks the PATH arguments with walkdir: `.sgf` files in any case, symlinks not followed,
//! every problem met on the way kept as an input of its own so it gets a row.

use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::record::Status;

/// One input: a file to read, or a place the walk could not enter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// What the `file` column shows: the path relative to the PATH argument it was found
    /// under, with `/` separators, or the file name when the argument is a file.
    pub name: String,
    pub path: PathBuf,
    /// Set when the walk itself failed here (permission denied, a loop, …).
    pub problem: Option<String>,
    /// Set for a name ending in `.sgf` that is not read: a symbolic link or a folder.
    pub skip: Option<&'static str>,
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
    Skipped(&'static str),
}

impl InputError {
    pub fn status(&self) -> Status {
        match self {
            InputError::TooLarge { .. } => Status::TooLarge,
            InputError::Skipped(_) => Status::Skipped,
            _ => Status::IoError,
        }
    }
}

/// Lists the inputs under each root, sorted by name within the root; roots keep their
/// command-line order. A root that does not exist is an error for the caller to report.
pub fn collect(roots: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut all = Vec::new();
    for root in roots {
        let meta = std::fs::metadata(root).map_err(|e| format!("{}: {e}", root.display()))?;
        let mut inputs = Vec::new();
        if meta.is_file() {
            inputs.push(Input {
                name: root.file_name().map_or_else(
                    || root.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
                path: root.clone(),
                problem: None,
                skip: None,
            });
        } else {
            for entry in WalkDir::new(root).follow_links(false) {
                match entry {
                    Ok(e) => {
                        let kind = e.file_type();
                        // The root itself may be a folder named `x.sgf`: it is walked.
                        if !is_sgf(e.path()) || e.depth() == 0 {
                            continue;
                        }
                        let skip = if kind.is_file() {
                            None
                        } else if kind.is_symlink() {
                            Some("a symbolic link, not followed")
                        } else if kind.is_dir() {
                            Some("a folder (walked, not read)")
                        } else {
                            Some("not a regular file")
                        };
                        inputs.push(Input {
                            name: relative_name(root, e.path()),
                            path: e.into_path(),
                            problem: None,
                            skip,
                        });
                    }
                    Err(e) => {
                        let path = e.path().unwrap_or(root).to_path_buf();
                        inputs.push(Input {
                            name: relative_name(root, &path),
                            path,
                            problem: Some(e.to_string()),
                            skip: None,
                        });
                    }
                }
            }
        }
        inputs.sort_by(|a, b| a.name.cmp(&b.name));
        all.extend(inputs);
    }
    Ok(all)
}

/// Reads an input's bytes, refusing files over `cap` bytes (checked on the bytes read, so a
/// file that grows meanwhile is caught too).
pub fn read_input(input: &Input, cap: u64) -> Result<Vec<u8>, InputError> {
    if let Some(p) = &input.problem {
        return Err(InputError::Walk(p.clone()));
    }
    if let Some(why) = input.skip {
        return Err(InputError::Skipped(why));
    }
    let file = std::fs::File::open(&input.path)?;
    let size = file.metadata()?.len();
    if size > cap {
        return Err(InputError::TooLarge { size, cap });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

fn relative_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<_> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        path.to_string_lossy().into_owned()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_sorted_sgf_only_case_insensitive() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("b/c")).unwrap();
        std::fs::create_dir_all(d.join("folder.sgf")).unwrap();
        for f in ["b/c/z.sgf", "a.SGF", "b/y.sgf", "b-x.sgf", "notes.txt"] {
            std::fs::write(d.join(f), "(;)").unwrap();
        }
        let names: Vec<_> = collect(&[d.to_path_buf()])
            .unwrap()
            .into_iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(
            names,
            ["a.SGF", "b-x.sgf", "b/c/z.sgf", "b/y.sgf", "folder.sgf"]
        );
    }

    #[test]
    fn a_file_argument_is_named_by_its_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("game.sgf");
        std::fs::write(&f, "(;)").unwrap();
        let inputs = collect(&[f]).unwrap();
        assert_eq!(inputs[0].name, "game.sgf");
        assert_eq!(read_input(&inputs[0], 3).unwrap(), b"(;)");
        let e = read_input(&inputs[0], 2).unwrap_err();
        assert_eq!(e.status(), Status::TooLarge);
        // No cap at all must not overflow into a cap of zero.
        assert_eq!(read_input(&inputs[0], u64::MAX).unwrap(), b"(;)");
    }

    #[test]
    fn a_missing_root_is_an_error() {
        assert!(collect(&[PathBuf::from("/no/such/dir")]).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.sgf"), "(;)").unwrap();
        std::os::unix::fs::symlink(d.join("real.sgf"), d.join("link.sgf")).unwrap();
        std::os::unix::fs::symlink(d, d.join("loop")).unwrap();
        let inputs = collect(&[d.to_path_buf()]).unwrap();
        let names: Vec<_> = inputs.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["link.sgf", "real.sgf"]);
        let e = read_input(&inputs[0], u64::MAX).unwrap_err();
        assert_eq!(e.status(), Status::Skipped);
    }
}
