//! DIR/manifest.tsv: what produced a run's tables (version, schema, options, shard) and its
//! totals. `merge` reads it to refuse shards that do not belong together, and writes the
//! merged one, which equals the manifest of a single run over everything.

use super::FolderError;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use super::{AtomicFile, RunStats};
use crate::row::Status;
use crate::source::name::{name_of, path_of_bytes, unescape};
use crate::source::Root;

/// Bumped whenever a table's columns or their meaning change.
pub const SCHEMA: u32 = 11;

/// The manifest's key for the folder a run was started in, relative to its output folder.
const STARTED_IN: &str = "started_in";

/// The path that leads from folder `from` to `to`, both absolute and canonical: `..` for the
/// parent, `.` for the folder itself.
fn relative_to(from: &Path, to: &Path) -> std::path::PathBuf {
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = std::path::PathBuf::new();
    for _ in common..a.len() {
        rel.push("..");
    }
    for c in &b[common..] {
        rel.push(c);
    }
    if rel.as_os_str().is_empty() {
        rel.push(".");
    }
    rel
}

/// The keys that must agree between shards of one run.
pub const MUST_AGREE: &[&str] = &[
    "livingblocks",
    "schema",
    "max_file_size",
    "estimate",
    "judge",
    "paths",
    "files_from",
    "input_set",
    "katago_version",
    "katago_model",
    "katago_visits",
    "net_model_version",
    "net_sha256",
];

/// The `input_set` entry: how many inputs a run was given (before any split into shards) and
/// a hash of their names in order, so that `merge` can tell shards that split one list from
/// shards that name their inputs differently.
pub fn input_set(names: impl Iterator<Item = impl AsRef<str>>) -> String {
    let mut h = crate::go::random::Fnv1a::new();
    let mut n = 0u64;
    for name in names {
        n += 1;
        for &b in name.as_ref().as_bytes() {
            h.write_u8(b);
        }
        h.write_u8(b'\n');
    }
    format!("{n} {:016x}", h.finish())
}

/// The manifest as ordered key → value pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub entries: BTreeMap<String, String>,
}

impl Manifest {
    /// The manifest of a run: its settings and totals.
    pub fn of_run(
        settings: &[(&str, String)],
        shard: Option<String>,
        stats: &RunStats,
    ) -> Manifest {
        let mut entries = BTreeMap::new();
        entries.insert("livingblocks".into(), env!("CARGO_PKG_VERSION").into());
        entries.insert("schema".into(), SCHEMA.to_string());
        for (k, v) in settings {
            entries.insert((*k).into(), v.clone());
        }
        entries.insert("shard".into(), shard.unwrap_or_else(|| "all".into()));
        let mut m = Manifest { entries };
        m.set_totals(stats);
        m
    }

    /// Writes the totals (`files`, `rows`, `games`, `status_*`).
    pub fn set_totals(&mut self, s: &RunStats) {
        self.entries.retain(|k, _| !k.starts_with("status_"));
        self.entries.insert("files".into(), s.files.to_string());
        self.entries.insert("rows".into(), s.rows.to_string());
        self.entries.insert("games".into(), s.games.to_string());
        for st in Status::ALL {
            self.entries
                .insert(format!("status_{}", st.as_str()), s.count(st).to_string());
        }
    }

    /// The totals back as run statistics (bytes are not kept).
    pub fn totals(&self) -> Result<RunStats, FolderError> {
        let num = |k: &str| -> Result<u64, FolderError> {
            self.get(k)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| FolderError::ManifestEntry(k.to_string()))
        };
        let mut s = RunStats {
            files: num("files")?,
            rows: num("rows")?,
            games: num("games")?,
            ..RunStats::default()
        };
        for st in Status::ALL {
            let n = num(&format!("status_{}", st.as_str()))?;
            if n > 0 {
                s.by_status.insert(st, n);
            }
        }
        Ok(s)
    }

    /// The places the run read, as `analyze` was given them: the PATHs (split at spaces,
    /// so a PATH with a space in it is tried whole as well) and the `--files-from` list when
    /// it is a file that is still there. A list that was a stream (standard input, a pipe,
    /// `/dev/stdin`) is gone: it is not read again. Relative paths are taken from `started_in`,
    /// seen from the output folder `dir`.
    pub fn roots(&self, dir: &Path) -> Vec<Root> {
        let at = |p: &str| match self.base(dir) {
            Some(base) => base.join(p),
            None => std::path::PathBuf::from(p),
        };
        let mut roots = Vec::new();
        if let Some(paths) = self.get("paths").filter(|p| !p.is_empty()) {
            if at(paths).exists() {
                roots.push(Root::arg(paths));
            } else {
                roots.extend(paths.split(' ').map(Root::arg));
            }
        }
        if let Some(list) = self
            .get("files_from")
            .filter(|l| !l.is_empty() && *l != "-")
            .filter(|l| std::fs::metadata(at(l)).is_ok_and(|m| m.is_file()))
        {
            roots.push(Root::List {
                from: list.to_string(),
                nul: crate::source::list_is_nul_terminated(&at(list).to_string_lossy()),
            });
        }
        roots
    }

    /// The folder the run was started in, from which its relative input paths are taken:
    /// `started_in`, which is relative to the output folder `dir`.
    pub fn base(&self, dir: &Path) -> Option<std::path::PathBuf> {
        self.get(STARTED_IN)
            .filter(|c| !c.is_empty())
            .map(|c| dir.join(path_of_bytes(&unescape(c))))
    }

    /// Records `started_in` for an output folder `dir`: where `base` (the folder the run was
    /// started in) is from `dir`. Relative, so that a folder of outputs and its inputs moved
    /// together (a clone of a repository) still name the same place.
    pub fn set_base(&mut self, dir: &Path, base: &Path) {
        if let (Ok(dir), Ok(base)) = (dir.canonicalize(), base.canonicalize()) {
            let rel = relative_to(&dir, &base);
            // Escaped as the tables escape names: exact for a folder whose name is not UTF-8.
            self.entries.insert(
                STARTED_IN.to_string(),
                name_of(rel.as_os_str().as_encoded_bytes()),
            );
        }
    }

    /// The run's `--max-file-size`, in bytes.
    pub fn max_file_size(&self) -> u64 {
        self.get("max_file_size")
            .and_then(|v| v.parse().ok())
            .unwrap_or(u64::MAX)
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.get(key).map(String::as_str)
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        let mut f = AtomicFile::create(path)?;
        writeln!(f, "key\tvalue")?;
        for (k, v) in &self.entries {
            writeln!(f, "{k}\t{}", v.replace(['\t', '\n'], " "))?;
        }
        f.commit()
    }

    pub fn read(path: &Path) -> Result<Manifest, FolderError> {
        let text = std::fs::read_to_string(path).map_err(|source| FolderError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let mut entries = BTreeMap::new();
        for line in text.lines().skip(1) {
            let (k, v) = line
                .split_once('\t')
                .ok_or_else(|| FolderError::ManifestLine {
                    path: path.to_path_buf(),
                    line: line.to_string(),
                })?;
            // A file row is joined to the folder and may be moved or removed: none leads out.
            if let Some(name) = k.strip_prefix(super::stage::FILE_KEY) {
                if !super::stage::is_plain(name) {
                    return Err(FolderError::Outside {
                        path: path.to_path_buf(),
                        name: name.to_string(),
                    });
                }
            }
            entries.insert(k.to_string(), v.to_string());
        }
        Ok(Manifest { entries })
    }
}
