//! A run's inputs, held compactly: one string of names and four words an input, instead of a
//! name and a path apiece, so that a walk of a million files stays small. An [`Input`] is
//! made from its entry when it is used.

use std::cmp::Ordering;
use std::path::PathBuf;

use super::input::{Input, InputKind};
use super::name::{path_of_bytes, unescape};

/// Where the inputs of one PATH (or of a `--files-from` list) lie and how they are named.
#[derive(Debug)]
struct Place {
    path: PathBuf,
    /// Whether an input's path is `path` joined with its name (a folder's inputs; a list's,
    /// whose `path` is empty); otherwise the place is one input, read at `path` itself.
    folder: bool,
    /// What every name of the place starts with: the PATH as given when there are several,
    /// or, for a single input, its whole name.
    name: Option<String>,
}

/// One input: its name's part after its place's (`names[start..start + len]`), its place,
/// what it is.
#[derive(Clone, Copy, Debug)]
struct Entry {
    start: u32,
    len: u32,
    place: u32,
    kind: u32,
}

/// `InputKind` in a word: 0 a file, 1 + i the skip reason `skips[i]`, `PROBLEM | i` the
/// walk's problem `problems[i]`.
const PROBLEM: u32 = 1 << 31;

/// The inputs in output order.
#[derive(Debug, Default)]
pub struct Inputs {
    places: Vec<Place>,
    names: String,
    entries: Vec<Entry>,
    problems: Vec<String>,
    /// The few reasons inputs are skipped for, each once.
    skips: Vec<&'static str>,
}

impl Inputs {
    /// Starts a place; the inputs pushed after it belong to it. Gives its number.
    pub(super) fn place(&mut self, path: PathBuf, folder: bool, name: Option<String>) -> u32 {
        self.places.push(Place { path, folder, name });
        (self.places.len() - 1) as u32
    }

    /// Adds an input of the last place, named `rel` after the place's name (`""`: the place
    /// itself). Fails once the names outgrow what an entry can address (4 GiB).
    pub(super) fn push(&mut self, rel: &str, kind: InputKind) -> Result<(), String> {
        let place = self.places.len().checked_sub(1).expect("a place first") as u32;
        self.push_at(place, rel, kind)
    }

    /// Adds an input of place `place`.
    pub(super) fn push_at(&mut self, place: u32, rel: &str, kind: InputKind) -> Result<(), String> {
        let kind = match kind {
            InputKind::File => 0,
            InputKind::Skipped(why) => {
                let i = match self.skips.iter().position(|s| *s == why) {
                    Some(i) => i,
                    None => {
                        self.skips.push(why);
                        self.skips.len() - 1
                    }
                };
                1 + i as u32
            }
            InputKind::Problem(p) => {
                self.problems.push(p);
                PROBLEM | (self.problems.len() - 1) as u32
            }
        };
        let too_many = || "too many inputs: their names pass 4 GiB".to_string();
        let start = u32::try_from(self.names.len()).map_err(|_| too_many())?;
        let len = u32::try_from(rel.len()).map_err(|_| too_many())?;
        start.checked_add(len).ok_or_else(too_many)?;
        self.names.push_str(rel);
        self.entries.push(Entry {
            start,
            len,
            place,
            kind,
        });
        Ok(())
    }

    /// The entry's name in parts: its place's, then its own.
    fn parts(&self, e: &Entry) -> (&str, &str) {
        let rel = &self.names[e.start as usize..(e.start + e.len) as usize];
        match &self.places[e.place as usize].name {
            None => ("", rel),
            Some(p) if rel.is_empty() => (p.as_str(), ""),
            Some(p) => (p.trim_end_matches('/'), rel),
        }
    }

    fn name_of(&self, e: &Entry) -> String {
        match self.parts(e) {
            ("", rel) => rel.to_string(),
            (p, "") => p.to_string(),
            (p, rel) => format!("{p}/{rel}"),
        }
    }

    /// Compares two entries' names as strings, without building them.
    fn cmp_names(&self, a: &Entry, b: &Entry) -> Ordering {
        let bytes = |e: &Entry| {
            let (p, rel) = self.parts(e);
            let sep: &[u8] = if p.is_empty() || rel.is_empty() {
                b""
            } else {
                b"/"
            };
            p.bytes().chain(sep.iter().copied()).chain(rel.bytes())
        };
        bytes(a).cmp(bytes(b))
    }

    /// Puts the inputs in name order; ties keep the order they were pushed in.
    pub(super) fn sort(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        // Names pushed earlier start earlier: that breaks ties as a stable sort would,
        // without a stable sort's buffer.
        entries.sort_unstable_by(|a, b| self.cmp_names(a, b).then(a.start.cmp(&b.start)));
        self.entries = entries;
    }

    /// Keeps the inputs whose name `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.retain(|e| keep(&self.name_of(e)));
        self.entries = entries;
    }

    /// Keeps one input of each file: a file found under two PATHs (`d` and `d/sub`), or
    /// listed twice, is read once, under the first. Files are told apart by their canonical
    /// paths: their hashes are sorted, and only files whose hashes meet are compared by path.
    pub(super) fn keep_first_of_each_file(&mut self) {
        use std::hash::{Hash, Hasher};
        let canonical = |e: &Entry| {
            let path = self.input(e).path;
            path.canonicalize().unwrap_or(path)
        };
        let mut keys: Vec<(u64, u32)> = (self.entries.iter().enumerate())
            .filter(|(_, e)| e.kind == 0)
            .map(|(i, e)| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                canonical(e).hash(&mut h);
                (h.finish(), i as u32)
            })
            .collect();
        keys.sort_unstable();
        let mut dropped = vec![false; self.entries.len()];
        for same_hash in keys.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            let mut kept: Vec<PathBuf> = Vec::new();
            for &(_, i) in same_hash {
                let path = canonical(&self.entries[i as usize]);
                if kept.contains(&path) {
                    dropped[i as usize] = true;
                } else {
                    kept.push(path);
                }
            }
        }
        let mut i = 0;
        self.entries.retain(|_| {
            i += 1;
            !dropped[i - 1]
        });
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`-th input in order.
    pub fn get(&self, i: usize) -> Option<Input> {
        self.entries.get(i).map(|e| self.input(e))
    }

    /// The inputs in order.
    pub fn iter(&self) -> impl Iterator<Item = Input> + '_ {
        self.entries.iter().map(|e| self.input(e))
    }

    /// The inputs whose name `matches` accepts, in order.
    pub fn named<'a>(
        &'a self,
        mut matches: impl FnMut(&str) -> bool + 'a,
    ) -> impl Iterator<Item = Input> + 'a {
        self.entries
            .iter()
            .filter(move |e| matches(&self.name_of(e)))
            .map(|e| self.input(e))
    }

    fn input(&self, e: &Entry) -> Input {
        let place = &self.places[e.place as usize];
        let rel = &self.names[e.start as usize..(e.start + e.len) as usize];
        let path = if place.folder && !rel.is_empty() {
            place.path.join(path_of_bytes(&unescape(rel)))
        } else {
            place.path.clone()
        };
        let kind = match e.kind {
            0 => InputKind::File,
            k if k & PROBLEM != 0 => {
                InputKind::Problem(self.problems[(k & !PROBLEM) as usize].clone())
            }
            k => InputKind::Skipped(self.skips[(k - 1) as usize]),
        };
        Input {
            name: self.name_of(e),
            path,
            kind,
        }
    }
}

impl<'a> IntoIterator for &'a Inputs {
    type Item = Input;
    type IntoIter = Box<dyn Iterator<Item = Input> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_sort_by_their_whole_names() {
        let mut inputs = Inputs::default();
        inputs.place(PathBuf::from("b"), true, Some("b".into()));
        inputs.push("z.sgf", InputKind::File).unwrap();
        inputs.place(PathBuf::from("a-b"), true, Some("a-b".into()));
        inputs
            .push("y.sgf", InputKind::Problem("gone".into()))
            .unwrap();
        inputs.place(PathBuf::from("a"), true, Some("a/".into()));
        inputs
            .push("x.sgf", InputKind::Skipped("not a regular file"))
            .unwrap();
        inputs.place(PathBuf::from("c.sgf"), false, Some("c.sgf".into()));
        inputs.push("", InputKind::File).unwrap();
        inputs.sort();
        let all: Vec<_> = inputs.iter().collect();
        let names: Vec<_> = all.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["a-b/y.sgf", "a/x.sgf", "b/z.sgf", "c.sgf"]);
        assert_eq!(all[0].kind, InputKind::Problem("gone".into()));
        assert_eq!(all[1].path, PathBuf::from("a/x.sgf"));
        assert_eq!(all[1].kind, InputKind::Skipped("not a regular file"));
        assert_eq!(all[3].path, PathBuf::from("c.sgf"));
        inputs.retain(|n| n.starts_with('a'));
        assert_eq!(inputs.len(), 2);
    }
}
