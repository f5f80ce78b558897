//! A run's outputs as one unit. Everything (tables, report, plots) is written into a hidden
//! folder inside DIR, `.livingblocks-stage.XXXXXX`; then `commit` sets the folder's old
//! outputs aside, renames the new ones into place, and writes `manifest.tsv` last, naming
//! every output with its size and SHA-256. A failure or a signal before the manifest lands
//! puts the old outputs back, so DIR holds one whole run or the other. A folder whose
//! manifest is missing, or does not match its files, is not a complete output (`verify`):
//! `merge` and `report` refuse it and name the file.

use super::FolderError;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::lock::OutputLock;
use super::Manifest;

/// The prefix of a stage folder inside DIR (the walk's rule, which never enters one).
pub use crate::source::STAGE_PREFIX;

/// The manifest's key for an output file: `file:plots/endings.svg`.
pub(super) const FILE_KEY: &str = "file:";

/// Whether `name`, from a manifest or a journal, is a plain relative name: joined to a
/// folder, it stays inside it.
pub fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// `dir/name`, when `name` is plain and no folder on the way down from `dir` is a symbolic
/// link (or not a folder): a path that cannot lead out of `dir`, whatever `dir` holds.
pub fn inside(dir: &Path, name: &str) -> Option<PathBuf> {
    if !is_plain(name) {
        return None;
    }
    let parts: Vec<_> = Path::new(name).components().collect();
    let mut at = dir.to_path_buf();
    for part in &parts[..parts.len() - 1] {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return None,
            // Not there yet: made by the tool, as a folder.
            Err(_) => break,
        }
    }
    Some(dir.join(name))
}

/// Whether anything (a file, a folder, a link, even a dangling one) is at `path`.
fn taken(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// The error of a name that would lead out of its folder.
fn outside(name: &str) -> io::Error {
    io::Error::other(format!(
        "{name}: leads out of the folder (a symbolic link on the way)"
    ))
}

/// The outputs every run writes at the top of DIR beside the tables (`TABLE_FILES`);
/// `plots/` holds the rest.
pub const OUTPUTS: [&str; 5] = [
    "report.md",
    "report.html",
    "summary.csv",
    "not_benson.csv",
    "manifest.tsv",
];

/// The tables, which `report DIR` reads and keeps.
pub const TABLES: [&str; 4] = ["games.csv", "blocks.csv", "chains.csv", "big_eyes.csv"];

/// The files that may hold them: plain or compressed (`TableFormat`).
pub const TABLE_FILES: [&str; 8] = [
    "games.csv",
    "blocks.csv",
    "chains.csv",
    "big_eyes.csv",
    "games.csv.zst",
    "blocks.csv.zst",
    "chains.csv.zst",
    "big_eyes.csv.zst",
];

/// The journal of a commit in progress, in DIR (see `Stage::commit`).
pub const JOURNAL: &str = ".livingblocks-commit";

/// The journal while it is written.
const JOURNAL_TMP: &str = ".livingblocks-commit.tmp";

/// Where a commit sets the old outputs aside, inside its stage folder.
const OLD: &str = ".old";

/// The new manifest inside the stage folder, until it is renamed into place.
const STAGED_MANIFEST: &str = ".manifest.tsv";

/// An environment variable for tests of what SIGKILL leaves: a commit step number, before
/// which the process kills itself with SIGKILL.
pub const KILL_AT_STEP: &str = "LIVINGBLOCKS_KILL_AT_COMMIT_STEP";

/// The same for the recovery of a commit a killed run left: a second fault.
pub const KILL_AT_RECOVERY_STEP: &str = "LIVINGBLOCKS_KILL_AT_RECOVERY_STEP";

/// Why a commit did not happen; the folder holds its old outputs again.
#[derive(Debug)]
pub enum CommitError {
    Io(PathBuf, io::Error),
    /// Stopped by this signal before the manifest landed.
    Stopped(i32),
    /// Stopped at a test's kill point with nothing undone, as SIGKILL leaves it.
    Halted,
}

/// The stage folders of this process. Held locked while one is committed, so that a second
/// signal removes them (`remove_live_stages`) only before a commit or after it, never with
/// the old outputs set aside inside one.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Attempts at removing a stage folder that writers are still filling.
const REMOVE_TRIES: usize = 20;

/// Removes this process's stage folders: what a second signal does before ending the process
/// (which runs no destructor), with `lock::remove_held`.
pub fn remove_live_stages() {
    for p in live().iter() {
        // The run's writers may still add files while the folder is walked, which makes the
        // removal fail with the folder not empty: try again until it is gone.
        for _ in 0..REMOVE_TRIES {
            if std::fs::remove_dir_all(p).is_ok() || !p.exists() {
                break;
            }
        }
    }
}

/// The tables and the manifest, whose temporary files (`NAME.XXXXXX.tmp`) are this tool's.
const OWN: [&str; 5] = [
    "games.csv",
    "blocks.csv",
    "chains.csv",
    "big_eyes.csv",
    "manifest.tsv",
];

/// Finishes or undoes a commit a killed run left half done (`recover`), then removes the
/// temporary tables and stage folders a killed run left in the folder `lock` holds (held, so
/// that no run is writing them).
pub fn remove_stale(lock: &OutputLock) -> Result<Cleanup, FolderError> {
    let dir = lock.dir();
    let recovered = recover(dir).map_err(|source| FolderError::Recovery {
        dir: dir.to_path_buf(),
        source,
    })?;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Cleanup {
            recovered,
            removed: Vec::new(),
        });
    };
    let mut removed: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| {
                (n.ends_with(".tmp") && OWN.iter().any(|own| n.starts_with(&format!("{own}."))))
                    || (n.starts_with(STAGE_PREFIX)
                        && std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
            })
        })
        .filter(|p| {
            if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
                std::fs::remove_dir_all(p).is_ok()
            } else {
                std::fs::remove_file(p).is_ok()
            }
        })
        .collect();
    removed.sort();
    Ok(Cleanup { recovered, removed })
}

/// What a run found and cleared in its output folder before writing.
#[derive(Clone, Debug, Default)]
pub struct Cleanup {
    /// A commit a killed run left half done, finished or undone.
    pub recovered: Option<Recovery>,
    /// Temporary tables and stage folders removed.
    pub removed: Vec<PathBuf>,
}

/// The staged outputs of one run, in a folder removed when dropped.
pub struct Stage {
    out: PathBuf,
    path: PathBuf,
    /// False once the folder is left for `recover` (a test's kill point).
    armed: bool,
}

impl Drop for Stage {
    fn drop(&mut self) {
        // Removed before it leaves the list, and with the list held: a second signal
        // meanwhile waits, and one after finds nothing left to remove.
        let mut live = live();
        if self.armed {
            let _ = std::fs::remove_dir_all(&self.path);
        }
        live.retain(|p| p != &self.path);
    }
}

impl Stage {
    pub fn new(out: &Path) -> io::Result<Stage> {
        // Held while the folder is made, so that a second signal meanwhile waits and then
        // finds it.
        let mut live = live();
        let path = tempfile::Builder::new()
            .prefix(STAGE_PREFIX)
            .tempdir_in(out)?
            .keep();
        live.push(path.clone());
        drop(live);
        Ok(Stage {
            out: out.to_path_buf(),
            path,
            armed: true,
        })
    }

    /// Where the outputs are written before the commit.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the staged files in place of the folder's old outputs (every old output when
    /// `keep_tables` is false; the report's when true) and writes `manifest` last, with an
    /// entry per output. `stopped` is polled between renames: a signal number there, or an
    /// error, puts everything back. Returns the paths written.
    ///
    /// Before the first rename the commit writes its journal (`JOURNAL`): the old outputs it
    /// sets aside, the new ones it places, and the new manifest's checksum. The rename of the
    /// new manifest into place is the one step that commits. A process killed at any point
    /// (SIGKILL runs no clean-up) leaves the journal, and `recover` then completes the commit
    /// or rolls it back, whichever side of that step the kill came.
    pub fn commit(
        self,
        manifest: Manifest,
        keep_tables: bool,
        stopped: &dyn Fn() -> i32,
    ) -> Result<Vec<PathBuf>, CommitError> {
        self.commit_steps(manifest, keep_tables, stopped, &kill_point(KILL_AT_STEP))
    }

    /// `commit`, with `die` asked before each step that changes the folder; where it says
    /// true the commit stops as a killed process would, undoing nothing.
    fn commit_steps(
        mut self,
        mut manifest: Manifest,
        keep_tables: bool,
        stopped: &dyn Fn() -> i32,
        die: &dyn Fn(usize) -> bool,
    ) -> Result<Vec<PathBuf>, CommitError> {
        let err = |p: &Path| {
            let p = p.to_path_buf();
            move |e| CommitError::Io(p, e)
        };
        let new = relative_files(self.path()).map_err(err(self.path()))?;
        let old = old_outputs(&self.out, keep_tables);
        // Where each new file goes: inside DIR, and on no file but an old output (set
        // aside first), so that nothing the tool did not write is replaced.
        for f in &new {
            let dest = inside(&self.out, f)
                .ok_or_else(|| CommitError::Io(self.out.join(f), outside(f)))?;
            if taken(&dest) && !old.contains(f) {
                return Err(CommitError::Io(
                    dest,
                    io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        "not written by livingblocks: never replaced",
                    ),
                ));
            }
        }
        manifest.entries.retain(|k, _| {
            !k.starts_with(FILE_KEY) || (keep_tables && TABLE_FILES.contains(&&k[FILE_KEY.len()..]))
        });
        for f in &new {
            let p = self.path().join(f);
            let (size, sum) = digest(&p).map_err(err(&p))?;
            manifest
                .entries
                .insert(format!("{FILE_KEY}{f}"), format!("{size} {sum}"));
        }
        let staged_manifest = self.path().join(STAGED_MANIFEST);
        manifest
            .write(&staged_manifest)
            .map_err(err(&staged_manifest))?;
        let (size, sum) = digest(&staged_manifest).map_err(err(&staged_manifest))?;
        let journal = Journal {
            stage: self
                .path()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            manifest: format!("{size} {sum}"),
            old,
            new,
        };
        // No second signal removes the stage while old outputs are set aside in it.
        let held = live();
        let mut step = 0;
        let mut next = || {
            step += 1;
            if die(step - 1) {
                Err(CommitError::Halted)
            } else {
                Ok(())
            }
        };
        let out = &self.out;
        let stage = &self.path;
        let result = (|| {
            journal.write(out, &mut next)?;
            // The old manifest first: from here until the new one lands the folder reads as
            // incomplete, to any reader.
            for f in &journal.old {
                next()?;
                place(&out.join(f), &stage.join(OLD).join(f))?;
                check(stopped)?;
            }
            for f in &journal.new {
                next()?;
                place(&stage.join(f), &out.join(f))?;
                check(stopped)?;
            }
            next()?;
            let m = out.join("manifest.tsv");
            std::fs::rename(&staged_manifest, &m).map_err(err(&m))?;
            // Committed. What is left is clean-up, which `recover` also does.
            next()?;
            let _ = std::fs::remove_file(out.join(JOURNAL));
            next()
        })();
        match result {
            Err(CommitError::Halted) => {
                self.armed = false;
                Err(CommitError::Halted)
            }
            Err(e) => {
                // Stopped or failed before the manifest landed: back to the old outputs,
                // with the list still held, so that a second signal waits for them.
                let _ = recover_steps(&self.out, &|_| false);
                drop(held);
                Err(e)
            }
            Ok(()) => {
                let mut written: Vec<PathBuf> =
                    journal.new.iter().map(|f| self.out.join(f)).collect();
                written.push(self.out.join("manifest.tsv"));
                Ok(written)
            }
        }
    }
}

fn check(stopped: &dyn Fn() -> i32) -> Result<(), CommitError> {
    match stopped() {
        0 => Ok(()),
        s => Err(CommitError::Stopped(s)),
    }
}

/// Renames `from` to `to`, making `to`'s folder first.
fn place(from: &Path, to: &Path) -> Result<(), CommitError> {
    if let Some(parent) = to.parent() {
        make_folder(parent).map_err(|e| CommitError::Io(parent.into(), e))?;
    }
    std::fs::rename(from, to).map_err(|e| CommitError::Io(to.into(), e))
}

/// Makes `dir` and its missing parents, each with the permissions of the folder it is made
/// in rather than the umask's: `plots/` of a shared output folder (mode 777) is shared too,
/// so another user's run can replace the diagrams in it, and a private stage stays private.
fn make_folder(dir: &Path) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut existing = dir;
    while std::fs::symlink_metadata(existing).is_err() {
        missing.push(existing);
        match existing.parent() {
            Some(p) if !p.as_os_str().is_empty() => existing = p,
            _ => {
                existing = Path::new(".");
                break;
            }
        }
    }
    let permissions = std::fs::metadata(existing)?.permissions();
    for d in missing.into_iter().rev() {
        match std::fs::create_dir(d) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => std::fs::set_permissions(d, permissions.clone())?,
        }
    }
    Ok(())
}

mod recovery;

use recovery::{kill_point, old_outputs, recover_steps, relative_files, Journal};
pub use recovery::{recover, Recovery};

mod verify;

use verify::digest;
pub use verify::{changed, check_out, names_every_table, verify, Digesting};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_made_in_a_shared_folder_are_shared_and_in_a_private_one_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        for (name, m) in [("shared", 0o777), ("private", 0o700)] {
            let base = dir.path().join(name);
            std::fs::create_dir(&base).unwrap();
            std::fs::set_permissions(&base, std::fs::Permissions::from_mode(m)).unwrap();
            let from = dir.path().join(format!("{name}.svg"));
            std::fs::write(&from, "x").unwrap();
            place(&from, &base.join("plots/boards/a.svg")).unwrap();
            assert_eq!(mode(&base.join("plots")), m, "{name}");
            assert_eq!(mode(&base.join("plots/boards")), m, "{name}");
            assert_eq!(
                std::fs::read(base.join("plots/boards/a.svg")).unwrap(),
                b"x"
            );
        }
    }

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn stage_run(out: &Path, tag: &str) -> Stage {
        let s = Stage::new(out).unwrap();
        for f in ["games.csv", "report.md", "plots/a.svg"] {
            write(&s.path().join(f), &format!("{tag} {f}"));
        }
        s
    }

    #[test]
    fn a_commit_replaces_the_whole_set_and_names_every_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let none = || 0;
        stage_run(out, "one")
            .commit(Manifest::default(), false, &none)
            .unwrap();
        let all = |_: &str| true;
        let m = verify(out, &all).unwrap();
        assert_eq!(m.files().len(), 3);
        let second = stage_run(out, "two");
        write(&second.path().join("plots/boards/b.svg"), "two b");
        std::fs::remove_file(second.path().join("plots/a.svg")).unwrap();
        second.commit(Manifest::default(), false, &none).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("report.md")).unwrap(),
            "two report.md"
        );
        assert!(
            !out.join("plots/a.svg").exists(),
            "an old plot the new run lacks goes"
        );
        verify(out, &all).unwrap();
        // No stage left behind.
        let hidden: Vec<_> = std::fs::read_dir(out)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(STAGE_PREFIX))
            .collect();
        assert!(hidden.is_empty());
        // An edited table is named.
        write(&out.join("games.csv"), "edited");
        let e = verify(out, &all).unwrap_err();
        assert!(matches!(&e, FolderError::Mismatch { path, .. } if path.ends_with("games.csv")));
        assert!(
            e.to_string()
                .contains("games.csv: does not match manifest.tsv"),
            "{e}"
        );
        verify(out, &|f| f != "games.csv").unwrap();
    }

    #[test]
    fn a_signal_during_the_commit_puts_the_old_outputs_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        stage_run(out, "one")
            .commit(Manifest::default(), false, &|| 0)
            .unwrap();
        let calls = std::cell::Cell::new(0);
        // The signal comes after a few renames.
        let stopped = || {
            calls.set(calls.get() + 1);
            if calls.get() > 4 {
                15
            } else {
                0
            }
        };
        let e = stage_run(out, "two").commit(Manifest::default(), false, &stopped);
        assert!(matches!(e, Err(CommitError::Stopped(15))));
        assert_eq!(
            std::fs::read_to_string(out.join("report.md")).unwrap(),
            "one report.md"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("plots/a.svg")).unwrap(),
            "one plots/a.svg"
        );
        verify(out, &|_| true).unwrap();
    }

    /// Every file in `dir` but the stage's own, with its text.
    fn files(dir: &Path) -> std::collections::BTreeMap<String, String> {
        relative_files(dir)
            .unwrap()
            .into_iter()
            .map(|f| {
                let text = std::fs::read_to_string(dir.join(&f)).unwrap();
                (f, text)
            })
            .collect()
    }

    /// A folder after a first run, and what it holds then and after a second run (`second`).
    fn old_and_new(out: &Path, second: fn(&Path) -> Stage) -> [Files; 2] {
        let none = || 0;
        stage_run(out, "one")
            .commit(Manifest::default(), false, &none)
            .unwrap();
        let old = files(out);
        let copy = tempfile::tempdir().unwrap();
        for (f, text) in &old {
            write(&copy.path().join(f), text);
        }
        second(copy.path())
            .commit(Manifest::default(), false, &none)
            .unwrap();
        [old, files(copy.path())]
    }

    type Files = std::collections::BTreeMap<String, String>;

    /// A second run whose outputs differ from the first's in names as well as in contents.
    fn second_run(out: &Path) -> Stage {
        let s = stage_run(out, "two");
        write(&s.path().join("plots/boards/b.svg"), "two b");
        std::fs::remove_file(s.path().join("plots/a.svg")).unwrap();
        s
    }

    /// A second run over the same inputs: its outputs, and so its manifest, byte-identical
    /// to the first's.
    fn same_run(out: &Path) -> Stage {
        stage_run(out, "one")
    }

    /// SIGKILL at each step of the commit, then at each step of the recovery, again and
    /// again: once recovered, the folder verifies and holds the old outputs or the new
    /// ones, whole. Returns how many kills left each.
    fn kill_everywhere(second: fn(&Path) -> Stage) -> [usize; 2] {
        let probe = tempfile::tempdir().unwrap();
        let [old, new] = old_and_new(probe.path(), second);
        let mut outcomes = [0, 0];
        for kill in 0.. {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path();
            old_and_new(out, second);
            let halted =
                second(out).commit_steps(Manifest::default(), false, &|| 0, &|step| step == kill);
            if halted.is_ok() {
                assert!(kill > 10, "a commit has more steps than {kill}");
                break;
            }
            assert!(matches!(halted, Err(CommitError::Halted)));
            // The recovery killed at each of its steps in turn, each time with what the
            // killed one before it left, then run whole.
            for again in 0.. {
                match recover_steps(out, &|step| step == again) {
                    Ok(_) => break,
                    Err(e) => assert!(e.to_string().contains("kill point"), "{e}"),
                }
            }
            assert_eq!(recover(out).unwrap(), None, "nothing is left to recover");
            // What the next run clears: a stage a kill before the journal left.
            remove_stale(&super::super::OutputLock::acquire(out).unwrap()).unwrap();
            verify(out, &|_| true).unwrap_or_else(|e| panic!("killed at {kill}: {e}"));
            let now = files(out);
            let i = [&old, &new]
                .iter()
                .position(|set| **set == now)
                .unwrap_or_else(|| panic!("killed at step {kill}: {now:?}"));
            outcomes[i] += 1;
            let leftovers: Vec<_> = std::fs::read_dir(out)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".livingblocks"))
                .collect();
            assert!(leftovers.is_empty(), "killed at {kill}: {leftovers:?}");
        }
        outcomes
    }

    #[test]
    fn a_kill_at_any_step_of_a_commit_or_its_recovery_leaves_old_or_new() {
        let outcomes = kill_everywhere(second_run);
        // Kills before the manifest's rename roll back; kills after it complete.
        assert!(outcomes[0] > 5 && outcomes[1] >= 2, "{outcomes:?}");
    }

    /// A re-run over the same inputs writes a manifest byte-identical to the old one: the
    /// recovery must not take "the manifest in place is the new one" for "the commit
    /// landed" after its own undoing put the old one back, and delete the stage that still
    /// holds the old tables.
    #[test]
    fn a_second_fault_with_byte_identical_outputs_loses_nothing() {
        let probe = tempfile::tempdir().unwrap();
        let [old, new] = old_and_new(probe.path(), same_run);
        assert_eq!(old, new);
        assert_eq!(
            std::fs::read(probe.path().join("manifest.tsv")).unwrap(),
            {
                let again = tempfile::tempdir().unwrap();
                old_and_new(again.path(), same_run);
                std::fs::read(again.path().join("manifest.tsv")).unwrap()
            },
            "the two manifests are byte-identical"
        );
        let outcomes = kill_everywhere(same_run);
        assert!(outcomes[0] > 5, "{outcomes:?}");
    }

    /// The journal and stage of a commit killed part way, moved out of the folder's way.
    fn halted_commit(out: &Path, kill: usize) -> (String, PathBuf) {
        let halted =
            second_run(out).commit_steps(Manifest::default(), false, &|| 0, &|s| s == kill);
        assert!(matches!(halted, Err(CommitError::Halted)));
        let journal = std::fs::read_to_string(out.join(JOURNAL)).unwrap();
        let stage = Journal::read(out).unwrap().unwrap().stage;
        (journal, out.join(stage))
    }

    /// A journal a killed run left, found after the folder was completed by other means: it
    /// must never undo a folder that verifies.
    #[test]
    fn a_stale_journal_never_undoes_a_folder_that_verifies() {
        // Its stage gone (cleared by a livingblocks without journals, which then committed
        // a whole run): dropped, nothing moved.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        old_and_new(out, second_run);
        let (journal, stage) = halted_commit(out, 6);
        std::fs::remove_dir_all(&stage).unwrap();
        std::fs::remove_file(out.join(JOURNAL)).unwrap();
        // The folder put right by other means: the old outputs back, as a whole run.
        for f in ["games.csv", "report.md", "plots/a.svg"] {
            let _ = std::fs::remove_file(out.join(f));
        }
        stage_run(out, "three")
            .commit(Manifest::default(), false, &|| 0)
            .unwrap();
        let whole = files(out);
        std::fs::write(out.join(JOURNAL), &journal).unwrap();
        assert_eq!(recover(out).unwrap(), Some(Recovery::Dropped));
        assert_eq!(files(out), whole);
        verify(out, &|_| true).unwrap();

        // Its stage still there, with the old outputs set aside in it, but the folder
        // committed whole since: nothing moved, the folder stands.
        for kill in [4, 6, 8] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path();
            old_and_new(out, second_run);
            let (journal, stage) = halted_commit(out, kill);
            let kept = out.join(".kept");
            std::fs::rename(&stage, &kept).unwrap();
            std::fs::remove_file(out.join(JOURNAL)).unwrap();
            for f in ["manifest.tsv", "games.csv", "report.md", "plots/a.svg"] {
                let _ = std::fs::remove_file(out.join(f));
            }
            let _ = std::fs::remove_dir_all(out.join("plots"));
            stage_run(out, "three")
                .commit(Manifest::default(), false, &|| 0)
                .unwrap();
            let whole = files(out);
            std::fs::rename(&kept, &stage).unwrap();
            std::fs::write(out.join(JOURNAL), &journal).unwrap();
            recover(out).unwrap();
            assert_eq!(files(out), whole, "killed at {kill}");
            verify(out, &|_| true).unwrap();
        }
    }

    /// A manifest row or a journal name that leads out of DIR, directly or through a link:
    /// nothing outside is moved or removed.
    #[test]
    fn names_that_lead_out_of_the_folder_touch_nothing_outside() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        let elsewhere = root.path().join("elsewhere");
        write(&elsewhere.join("a.svg"), "elsewhere's own");
        write(&root.path().join("x"), "the user's");
        std::fs::create_dir(&out).unwrap();
        stage_run(&out, "one")
            .commit(Manifest::default(), false, &|| 0)
            .unwrap();
        // `file:../x` in the manifest.
        let m = out.join("manifest.tsv");
        let text = std::fs::read_to_string(&m).unwrap();
        std::fs::write(&m, format!("{text}file:../x\t9 abc\n")).unwrap();
        assert!(matches!(
            check_out(&out),
            Err(FolderError::Outside { name, .. }) if name == "../x"
        ));
        assert!(!old_outputs(&out, false).iter().any(|f| f.contains("..")));
        std::fs::write(&m, &text).unwrap();
        // `plots` a link out of the folder: refused, and a journal naming a file under it
        // moves nothing there.
        std::fs::remove_dir_all(out.join("plots")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("plots")).unwrap();
        assert!(matches!(check_out(&out), Err(FolderError::Link(p)) if p.ends_with("plots")));
        assert_eq!(inside(&out, "plots/a.svg"), None);
        let stage = out.join(".livingblocks-stage.planted");
        std::fs::create_dir_all(&stage).unwrap();
        stage_run(root.path(), "one")
            .commit(Manifest::default(), false, &|| 0)
            .unwrap();
        std::fs::copy(
            root.path().join("manifest.tsv"),
            stage.join(STAGED_MANIFEST),
        )
        .unwrap();
        let journal = serde_json::json!({
            "stage": ".livingblocks-stage.planted",
            "manifest": "1 x",
            "old": [],
            "new": ["plots/a.svg"],
        });
        std::fs::write(out.join(JOURNAL), journal.to_string()).unwrap();
        assert!(recover(&out).is_err());
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("a.svg")).unwrap(),
            "elsewhere's own"
        );
        assert_eq!(
            std::fs::read_to_string(root.path().join("x")).unwrap(),
            "the user's"
        );
    }

    /// Files the tool did not write, at the names of its outputs, are never replaced: the
    /// folder is refused before any work, naming the file. Files it did write pass.
    #[test]
    fn a_folder_holding_the_users_own_files_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        write(&out.join("notes.txt"), "mine");
        check_out(out).unwrap();
        write(&out.join("games.csv"), "my own table");
        assert!(matches!(check_out(out), Err(FolderError::NotOurs(p)) if p.ends_with("games.csv")));
        std::fs::remove_file(out.join("games.csv")).unwrap();
        let mut ours = Manifest::default();
        ours.entries.insert("livingblocks".into(), "0".into());
        stage_run(out, "one").commit(ours, false, &|| 0).unwrap();
        check_out(out).unwrap();
        write(&out.join("plots/boards/mine.svg"), "my drawing");
        assert!(matches!(check_out(out), Err(FolderError::NotOurs(p)) if p.ends_with("mine.svg")));
        std::fs::remove_file(out.join("plots/boards/mine.svg")).unwrap();
        // A manifest.tsv that is not the tool's.
        std::fs::write(out.join("manifest.tsv"), "key\tvalue\nmine\t1\n").unwrap();
        assert!(
            matches!(check_out(out), Err(FolderError::NotOurs(p)) if p.ends_with("manifest.tsv"))
        );
    }

    #[test]
    fn a_journal_that_leads_out_of_the_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let journal = serde_json::json!({
            "stage": ".livingblocks-stage.x",
            "manifest": "1 x",
            "old": ["../elsewhere"],
            "new": [],
        });
        std::fs::write(dir.path().join(JOURNAL), journal.to_string()).unwrap();
        assert!(recover(dir.path()).is_err());
    }

    #[test]
    fn stale_temporary_tables_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "games.csv.a1B2c3.tmp",
            "manifest.tsv.x.tmp",
            "mine.tmp",
            "games.csv",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let lock = OutputLock::acquire(dir.path()).unwrap();
        let removed: Vec<String> = remove_stale(&lock)
            .unwrap()
            .removed
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(removed, ["games.csv.a1B2c3.tmp", "manifest.tsv.x.tmp"]);
        assert!(dir.path().join("mine.tmp").exists());
        assert!(dir.path().join("games.csv").exists());
    }
}
