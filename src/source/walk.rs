//! Walks the PATH arguments with walkdir: `.sgf` files in any case, symlinks not followed,
//! every problem met on the way kept as an input of its own so it gets a row.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use walkdir::WalkDir;

use super::input::{container_of, read_capped, Input, InputError, InputKind};
use super::list::Inputs;
use super::name::{name_of, path_of_bytes};

/// A place to take inputs from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// A PATH argument: its inputs are named relative to it (or by its file name).
    Path(PathBuf),
    /// A `--files-from` list (`-`: standard input), one path per line or, with `nul`, per
    /// NUL-terminated entry; its inputs are named by the paths as listed. It is read as the
    /// walk goes, never held whole.
    List { from: String, nul: bool },
}

impl Root {
    /// A PATH argument.
    pub fn arg(path: impl Into<PathBuf>) -> Root {
        Root::Path(path.into())
    }
}

/// Lists the inputs under each root, sorted by name over all roots (ties keep root order), so
/// that a run over everything and the merge of its shards put every row in the same place. A
/// root that does not exist is an error for the caller to report.
///
/// Every input gets one name, and a name reads back to one path (`name`): with one PATH,
/// names are relative to it (or its file name); with several (PATHs and `--files-from`
/// entries together), each name starts with its PATH as given, so `A/x` and `B/x` stay
/// apart. A path given twice, or a file under two PATHs, is read once. The walk leaves out
/// the run's output folder `out` and the tool's stage folders: outputs are never inputs.
pub fn collect(roots: &[Root], out: Option<&Path>) -> Result<Inputs, String> {
    LISTING.store(true, Ordering::SeqCst);
    let inputs = collect_from(roots, false, None, out);
    LISTING.store(false, Ordering::SeqCst);
    inputs
}

/// Set while `collect` gathers a run's inputs: the run has written nothing yet, so a signal
/// that asks it to stop may end it at once, even while it waits on a `--files-from` list
/// that a pipe has not finished writing.
pub static LISTING: AtomicBool = AtomicBool::new(false);

/// `collect`, leaving out roots that are not there (to find a run's inputs again later).
/// Relative paths (roots, a list, its entries) are taken from `base`, the folder the run
/// was started in, when given: the inputs are the run's, and named as the run named them,
/// wherever this is called from.
pub fn collect_existing(roots: &[Root], base: Option<&Path>) -> Inputs {
    collect_from(roots, true, base, None).unwrap_or_default()
}

fn collect_from(
    roots: &[Root],
    skip_missing: bool,
    base: Option<&Path>,
    out: Option<&Path>,
) -> Result<Inputs, String> {
    use std::os::unix::fs::MetadataExt;
    let mut walk = Walk {
        // A list names its entries by themselves, and may name a file twice.
        several: roots.len() > 1 || roots.iter().any(|r| matches!(r, Root::List { .. })),
        skip_missing,
        all: Inputs::default(),
        roots_seen: HashSet::new(),
        missing_seen: HashSet::new(),
        listed_place: None,
        base: base.map(Path::to_path_buf),
        out: out
            .and_then(|o| std::fs::metadata(o).ok())
            .map(|m| (m.dev(), m.ino())),
    };
    for root in roots {
        match root {
            Root::Path(path) => walk.add(path, None)?,
            Root::List { from, nul } => match for_each_listed(
                &walk.resolve(Path::new(from)).to_string_lossy(),
                *nul,
                &mut |entry| walk.add(&path_of_bytes(entry), Some(name_of(entry))),
            ) {
                Err(ListError::Unreadable(_)) if skip_missing => {}
                Err(ListError::Unreadable(e) | ListError::Entry(e)) => return Err(e),
                Ok(()) => {}
            },
        }
    }
    if walk.several {
        walk.all.keep_first_of_each_file();
    }
    walk.all.sort();
    Ok(walk.all)
}

/// The state of one collection over all roots.
struct Walk {
    several: bool,
    skip_missing: bool,
    all: Inputs,
    /// Folders (and PATHs) already walked, by canonical path.
    roots_seen: HashSet<PathBuf>,
    /// Listed paths that are not there, each given one row.
    missing_seen: HashSet<PathBuf>,
    /// Listed entries that are not folders share one place, named by their own names: a
    /// list of a million files costs no more than a walk of them.
    listed_place: Option<u32>,
    /// Where relative paths are taken from, if not the current folder.
    base: Option<PathBuf>,
    /// The output folder (device and inode, whatever path leads to it), not walked.
    out: Option<(u64, u64)>,
}

/// The prefix of the folders the tool stages its outputs in (inside an output folder; a
/// killed run's is removed by the next run): a walk never enters one.
pub const STAGE_PREFIX: &str = ".livingblocks-stage.";

/// Whether a folder met in a walk is the run's own: its output folder `out` (device and
/// inode) or a stage.
fn is_own(e: &walkdir::DirEntry, out: Option<(u64, u64)>) -> bool {
    use std::os::unix::fs::MetadataExt;
    e.depth() > 0
        && e.file_type().is_dir()
        && (e
            .file_name()
            .as_encoded_bytes()
            .starts_with(STAGE_PREFIX.as_bytes())
            || out.is_some_and(|out| e.metadata().is_ok_and(|m| (m.dev(), m.ino()) == out)))
}

impl Walk {
    /// Where `path` is: itself, or from `base` when it is relative.
    fn resolve(&self, path: &Path) -> PathBuf {
        match &self.base {
            Some(base) if path.is_relative() => base.join(path),
            _ => path.to_path_buf(),
        }
    }

    /// Adds the inputs at `given`: a PATH argument, or a listed path named `listed`. Names
    /// come from `given`; the files are read where it resolves.
    fn add(&mut self, given: &Path, listed: Option<String>) -> Result<(), String> {
        let resolved = self.resolve(given);
        let path = resolved.as_path();
        let all = &mut self.all;
        let meta = std::fs::metadata(path);
        // A folder given twice is walked once (files given twice are read once, after).
        let folder = meta.as_ref().is_ok_and(|m| m.is_dir());
        if self.several
            && (folder || listed.is_none())
            && !self
                .roots_seen
                .insert(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
        {
            return Ok(());
        }
        if let (Some(listed), false) = (&listed, folder) {
            if meta.is_err() && !self.missing_seen.insert(path.to_path_buf()) {
                return Ok(());
            }
            let place = *self
                .listed_place
                .get_or_insert_with(|| all.place(PathBuf::new(), true, None));
            let kind = match &meta {
                Ok(m) if m.is_file() => InputKind::File,
                Ok(_) => InputKind::Skipped("not a regular file"),
                // A listed file that is not there (any more) is an input like any other,
                // and gets its io_error row.
                Err(e) => InputKind::Problem(format!("{}: {e}", path.display())),
            };
            return all.push_at(place, listed, kind);
        }
        let meta = match meta {
            Ok(meta) => meta,
            // A PATH argument that is not there is a usage error.
            Err(_) if self.skip_missing => return Ok(()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let prefix = match listed {
            Some(listed) => Some(listed),
            None if self.several => Some(path_name(given)),
            None => None,
        };
        if !meta.is_dir() {
            let (name, kind) = if meta.is_file() {
                let name = prefix.unwrap_or_else(|| {
                    given
                        .file_name()
                        .map_or_else(|| path_name(given), |n| name_of(n.as_encoded_bytes()))
                });
                (name, InputKind::File)
            } else {
                // A FIFO, a socket, a device given as a PATH: named, not read.
                let name = prefix.unwrap_or_else(|| path_name(given));
                (name, InputKind::Skipped("not a regular file"))
            };
            all.place(path.to_path_buf(), false, Some(name));
            return all.push("", kind);
        }
        all.place(path.to_path_buf(), true, prefix);
        let out = self.out;
        let walker = WalkDir::new(path).follow_links(false).into_iter();
        for entry in walker.filter_entry(|e| !is_own(e, out)) {
            match entry {
                Ok(e) => {
                    let kind = e.file_type();
                    // The root itself may be a folder named `x.sgf`: it is walked.
                    if !is_input_name(e.path()) || e.depth() == 0 {
                        continue;
                    }
                    let kind = if kind.is_file() {
                        InputKind::File
                    } else if kind.is_symlink() {
                        InputKind::Skipped("a symbolic link, not followed")
                    } else if kind.is_dir() {
                        InputKind::Skipped("a folder (walked, not read)")
                    } else {
                        InputKind::Skipped("not a regular file")
                    };
                    all.push(&relative_name(path, e.path()), kind)?;
                }
                Err(e) => {
                    let at = e.path().unwrap_or(path);
                    all.push(&relative_name(path, at), InputKind::Problem(e.to_string()))?;
                }
            }
        }
        Ok(())
    }
}

/// A path as given, as a name: `./in/` is `in`; components escaped by `name_of`.
fn path_name(path: &Path) -> String {
    use std::path::Component;
    let mut parts = Vec::new();
    let mut absolute = false;
    for c in path.components() {
        match c {
            Component::RootDir => absolute = true,
            Component::CurDir => {}
            Component::ParentDir => parts.push("..".to_string()),
            Component::Normal(_) | Component::Prefix(_) => {
                parts.push(name_of(c.as_os_str().as_encoded_bytes()))
            }
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// Why a `--files-from` list could not be read: it could not be opened, or it failed (or
/// an entry's walk failed) part of the way.
enum ListError {
    Unreadable(String),
    Entry(String),
}

/// Calls `each` with every entry of a `--files-from` list, read as a stream: one path per
/// line, or, with `nul`, per NUL-terminated entry (what `find -print0` writes: any name,
/// newlines included); `-` reads standard input. Blank entries are skipped. An entry is the
/// path's bytes as they are, so names that are not UTF-8 are read too.
fn for_each_listed(
    from: &str,
    nul: bool,
    each: &mut dyn FnMut(&[u8]) -> Result<(), String>,
) -> Result<(), ListError> {
    use std::io::BufRead;
    let failed = |e: std::io::Error| {
        let name = if from == "-" { "standard input" } else { from };
        format!("{name}: {e}")
    };
    let mut reader: Box<dyn BufRead> = if from == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(from).map_err(|e| ListError::Unreadable(failed(e)))?;
        Box::new(std::io::BufReader::with_capacity(1 << 16, file))
    };
    let end = if nul { b'\0' } else { b'\n' };
    let mut entry = Vec::new();
    loop {
        entry.clear();
        if reader
            .read_until(end, &mut entry)
            .map_err(|e| ListError::Entry(failed(e)))?
            == 0
        {
            return Ok(());
        }
        let mut e = entry.strip_suffix(&[end]).unwrap_or(&entry);
        if !nul {
            e = e.strip_suffix(b"\r").unwrap_or(e);
        }
        if !e.iter().all(u8::is_ascii_whitespace) {
            each(e).map_err(ListError::Entry)?;
        }
    }
}

/// Whether a `--files-from` list holds NUL-terminated entries (`-0`): a path never holds a
/// NUL byte, so a list that does was written that way.
pub fn list_is_nul_terminated(from: &str) -> bool {
    use std::io::Read;
    let Ok(mut file) = std::fs::File::open(from) else {
        return false;
    };
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut chunk) {
            Ok(0) | Err(_) => return false,
            Ok(n) if memchr::memchr(0, &chunk[..n]).is_some() => return true,
            Ok(_) => {}
        }
    }
}

/// Reads an input's bytes, refusing files over `cap` bytes (checked on the bytes read, so a
/// file that grows meanwhile is caught too).
pub fn read_input(input: &Input, cap: u64) -> Result<Vec<u8>, InputError> {
    match &input.kind {
        InputKind::File => {}
        InputKind::Problem(p) => return Err(InputError::Walk(p.clone())),
        InputKind::Skipped(why) => return Err(InputError::Skipped(why.to_string())),
    }
    let mut file = std::fs::File::open(&input.path)?;
    let size = file.metadata()?.len();
    read_capped(&mut file, size, cap)
}

/// `.sgf` files, and the archives and compressed collections `archive` reads.
fn is_input_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.to_ascii_lowercase().ends_with(".sgf") || container_of(&name).is_some()
}

fn relative_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<_> = rel
        .components()
        .map(|c| name_of(c.as_os_str().as_encoded_bytes()))
        .collect();
    if parts.is_empty() {
        path_name(path)
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_across_roots_and_listed_paths_keep_their_form() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("one")).unwrap();
        std::fs::create_dir_all(d.join("two")).unwrap();
        std::fs::write(d.join("one/b.sgf"), "(;)").unwrap();
        std::fs::write(d.join("two/a.sgf"), "(;)").unwrap();
        let names: Vec<_> = collect(&[Root::arg(d.join("one"))], None)
            .unwrap()
            .iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, ["b.sgf"], "one PATH: names relative to it");
        let list = d.join("list.txt");
        let one = d.join("one/b.sgf").display().to_string();
        std::fs::write(&list, format!("{one}\n\n")).unwrap();
        let from = list.to_str().unwrap().to_string();
        let inputs = collect(
            &[Root::List {
                from: from.clone(),
                nul: false,
            }],
            None,
        )
        .unwrap();
        assert_eq!(inputs.get(0).unwrap().name, one);
        assert!(!list_is_nul_terminated(&from));
        // A NUL-terminated list (`find -print0`) names any file, a newline in it included.
        let odd = d.join("two/new\nline.sgf");
        std::fs::write(&odd, "(;)").unwrap();
        let odd = odd.display().to_string();
        std::fs::write(&list, format!("{one}\0{odd}\0")).unwrap();
        assert!(list_is_nul_terminated(&from));
        let names: Vec<_> = collect(&[Root::List { from, nul: true }], None)
            .unwrap()
            .iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, [one, odd]);
    }

    /// Several PATHs: each name starts with its PATH as given, so equal relative names stay
    /// apart; a PATH given twice, or a file under two PATHs, is read once.
    #[test]
    fn every_input_has_one_name_and_every_name_one_input() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in ["A/x/g.sgf", "B/x/g.sgf", "A/x/sub/h.sgf"] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "(;)").unwrap();
        }
        let at = |p: &str| Root::arg(d.join(p));
        let names = |roots: &[Root]| -> Vec<String> {
            let base = format!("{}/", path_name(d));
            collect(roots, None)
                .unwrap()
                .iter()
                .map(|i| i.name.replacen(&base, "", 1))
                .collect()
        };
        assert_eq!(
            names(&[at("A/x"), at("B/x")]),
            ["A/x/g.sgf", "A/x/sub/h.sgf", "B/x/g.sgf"]
        );
        assert_eq!(
            names(&[at("A/x"), at("A/x/")]),
            ["A/x/g.sgf", "A/x/sub/h.sgf"]
        );
        assert_eq!(
            names(&[at("A/x"), at("A/x/sub")]),
            ["A/x/g.sgf", "A/x/sub/h.sgf"],
            "h.sgf once, under the first PATH"
        );
    }

    #[test]
    fn a_path_as_given_is_named_by_its_components() {
        assert_eq!(path_name(Path::new("./in/")), "in");
        assert_eq!(path_name(Path::new("/abs/in")), "/abs/in");
        assert_eq!(path_name(Path::new(".")), ".");
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_stay_apart() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        for b in [&b"a\xff.sgf"[..], b"a\xfe.sgf", b"x.zip!y.sgf"] {
            std::fs::write(dir.path().join(std::ffi::OsStr::from_bytes(b)), "(;)").unwrap();
        }
        let names: Vec<_> = collect(&[Root::arg(dir.path())], None)
            .unwrap()
            .iter()
            .map(|i| i.name)
            .collect();
        assert_eq!(names, ["a\\xFE.sgf", "a\\xFF.sgf", "x.zip\\!y.sgf"]);
    }

    #[test]
    fn walks_sorted_sgf_only_case_insensitive() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("b/c")).unwrap();
        std::fs::create_dir_all(d.join("folder.sgf")).unwrap();
        for f in ["b/c/z.sgf", "a.SGF", "b/y.sgf", "b-x.sgf", "notes.txt"] {
            std::fs::write(d.join(f), "(;)").unwrap();
        }
        let names: Vec<_> = collect(&[Root::arg(d)], None)
            .unwrap()
            .iter()
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
        let input = collect(&[Root::arg(f)], None).unwrap().get(0).unwrap();
        assert_eq!(input.name, "game.sgf");
        assert_eq!(read_input(&input, 3).unwrap(), b"(;)");
        let e = read_input(&input, 2).unwrap_err();
        assert!(matches!(e, InputError::TooLarge { .. }), "{e:?}");
        // No cap at all must not overflow into a cap of zero.
        assert_eq!(read_input(&input, u64::MAX).unwrap(), b"(;)");
    }

    #[test]
    fn a_missing_root_is_an_error() {
        assert!(collect(&[Root::arg("/no/such/dir")], None).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.sgf"), "(;)").unwrap();
        std::os::unix::fs::symlink(d.join("real.sgf"), d.join("link.sgf")).unwrap();
        std::os::unix::fs::symlink(d, d.join("loop")).unwrap();
        let inputs: Vec<_> = collect(&[Root::arg(d)], None).unwrap().iter().collect();
        let names: Vec<_> = inputs.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["link.sgf", "real.sgf"]);
        let e = read_input(&inputs[0], u64::MAX).unwrap_err();
        assert!(matches!(e, InputError::Skipped(_)), "{e:?}");
    }
}
