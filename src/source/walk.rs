//! Walks the PATH arguments with walkdir: `.sgf` files in any case, symlinks not followed,
//! every problem met on the way kept as an input of its own so it gets a row.

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
}

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{0}")]
    Walk(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl InputError {
    pub fn status(&self) -> Status {
        Status::IoError
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
            });
        } else {
            for entry in WalkDir::new(root).follow_links(false) {
                match entry {
                    Ok(e) => {
                        if e.file_type().is_file() && is_sgf(e.path()) {
                            inputs.push(Input {
                                name: relative_name(root, e.path()),
                                path: e.into_path(),
                                problem: None,
                            });
                        }
                    }
                    Err(e) => {
                        let path = e.path().unwrap_or(root).to_path_buf();
                        inputs.push(Input {
                            name: relative_name(root, &path),
                            path,
                            problem: Some(e.to_string()),
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

/// Reads an input's bytes.
pub fn read_input(input: &Input) -> Result<Vec<u8>, InputError> {
    if let Some(p) = &input.problem {
        return Err(InputError::Walk(p.clone()));
    }
    Ok(std::fs::read(&input.path)?)
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
        assert_eq!(names, ["a.SGF", "b-x.sgf", "b/c/z.sgf", "b/y.sgf"]);
    }

    #[test]
    fn a_file_argument_is_named_by_its_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("game.sgf");
        std::fs::write(&f, "(;)").unwrap();
        let inputs = collect(&[f]).unwrap();
        assert_eq!(inputs[0].name, "game.sgf");
        assert_eq!(read_input(&inputs[0]).unwrap(), b"(;)");
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
        let names: Vec<_> = collect(&[d.to_path_buf()])
            .unwrap()
            .into_iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, ["real.sgf"]);
    }
}
