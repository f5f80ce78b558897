//! A commit's journal, and the recovery of a commit a killed process left half done: finished
//! or undone, so that DIR holds one whole run or the other.

use std::io;
use std::path::Path;

use super::*;

/// What a commit in progress is doing, in DIR/`JOURNAL`, written before its first rename.
pub(super) struct Journal {
    /// The stage folder's name inside DIR; the old outputs go to its `OLD` folder.
    pub(super) stage: String,
    /// The new manifest's `SIZE SHA256`: DIR's manifest is that one once the commit is done.
    pub(super) manifest: String,
    pub(super) old: Vec<String>,
    pub(super) new: Vec<String>,
}

impl Journal {
    /// Writes the journal whole, then renames it into place: `next` before each step.
    pub(super) fn write(
        &self,
        out: &Path,
        next: &mut dyn FnMut() -> Result<(), CommitError>,
    ) -> Result<(), CommitError> {
        let text = serde_json::json!({
            "stage": self.stage,
            "manifest": self.manifest,
            "old": self.old,
            "new": self.new,
        })
        .to_string();
        let tmp = out.join(JOURNAL_TMP);
        next()?;
        // Made anew, following no link planted under its name.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| io::Write::write_all(&mut f, text.as_bytes()))
            .map_err(|e| CommitError::Io(tmp.clone(), e))?;
        next()?;
        let j = out.join(JOURNAL);
        std::fs::rename(&tmp, &j).map_err(|e| CommitError::Io(j, e))
    }

    pub(super) fn read(out: &Path) -> io::Result<Option<Journal>> {
        let path = out.join(JOURNAL);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => {
                return Err(io::Error::other(
                    "not a journal this tool wrote (a link or a folder)",
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        }
        let text = std::fs::read_to_string(&path)?;
        let bad = || io::Error::new(io::ErrorKind::InvalidData, "not a commit journal");
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|_| bad())?;
        let text_of = |k: &str| v[k].as_str().map(str::to_string).ok_or_else(bad);
        let names = |k: &str| -> io::Result<Vec<String>> {
            let names = v[k].as_array().ok_or_else(bad)?;
            names
                .iter()
                .map(|n| n.as_str().map(str::to_string).ok_or_else(bad))
                .collect()
        };
        let journal = Journal {
            stage: text_of("stage")?,
            manifest: text_of("manifest")?,
            old: names("old")?,
            new: names("new")?,
        };
        // Names from the file are joined to DIR: none may lead out of it.
        let all_inside = is_plain(&journal.stage)
            && !journal.stage.contains('/')
            && journal.stage.starts_with(STAGE_PREFIX)
            && journal.old.iter().chain(&journal.new).all(|n| is_plain(n));
        if all_inside {
            Ok(Some(journal))
        } else {
            Err(bad())
        }
    }
}

/// What `recover` did with a commit a killed process left half done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// The new manifest had landed: the commit is finished.
    Completed,
    /// It had not: the old outputs are back in place.
    RolledBack,
    /// The journal did not match the folder (its stage was gone: the folder was completed
    /// or cleared by other means since): dropped, with nothing moved.
    Dropped,
}

/// Finishes or undoes the commit a killed process left in `out` (see `Stage::commit`), so
/// that `out` holds the old outputs or the new ones, whole. Call it holding `out`'s lock.
/// Killed itself at any point, it is run again with the same result.
pub fn recover(out: &Path) -> io::Result<Option<Recovery>> {
    recover_steps(out, &kill_point(KILL_AT_RECOVERY_STEP))
}

/// What `die` a commit or a recovery is given outside tests of its own: SIGKILL before the
/// step the environment variable `var` names, if it names one.
pub(super) fn kill_point(var: &str) -> impl Fn(usize) -> bool {
    let at = std::env::var(var)
        .ok()
        .and_then(|s| s.parse::<usize>().ok());
    move |step| {
        if at == Some(step) {
            // SAFETY: kill(2) on this process; SIGKILL cannot be caught or outlived.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
        }
        false
    }
}

/// `recover`, with `die` asked before each step that changes the folder (see
/// `Stage::commit_steps`).
pub(super) fn recover_steps(
    out: &Path,
    die: &dyn Fn(usize) -> bool,
) -> io::Result<Option<Recovery>> {
    let _ = std::fs::remove_file(out.join(JOURNAL_TMP));
    let Some(journal) = Journal::read(out)? else {
        return Ok(None);
    };
    let halted = || io::Error::other("halted at a kill point");
    let mut step = 0;
    let mut next = || {
        step += 1;
        if die(step - 1) {
            Err(halted())
        } else {
            Ok(())
        }
    };
    let stage = out.join(&journal.stage);
    // The stage is this commit's own only as a real folder: a link could lead anywhere.
    let stage_here = std::fs::symlink_metadata(&stage).is_ok_and(|m| m.is_dir());
    let recovery = if !stage_here {
        // Nothing to finish or undo with: whatever the folder holds now stands.
        next()?;
        std::fs::remove_file(out.join(JOURNAL))?;
        return Ok(Some(Recovery::Dropped));
    } else if !taken(&stage.join(STAGED_MANIFEST)) {
        // The rename of the staged manifest is the step that commits; its absence decides,
        // not the manifest's checksum, which an old manifest byte-identical to the new one
        // shares.
        Recovery::Completed
    } else if verify(out, &|_| true).is_ok() {
        // A folder whose manifest matches its files is whole (the commit was killed
        // before it set anything aside, or its undoing had put everything back): never
        // undone.
        Recovery::RolledBack
    } else {
        roll_back(out, &stage, &journal, &mut next)?;
        Recovery::RolledBack
    };
    // The journal goes before the stage: without it, the stage is a leftover like any other.
    next()?;
    std::fs::remove_file(out.join(JOURNAL))?;
    next()?;
    std::fs::remove_dir_all(&stage).or_else(|e| match e.kind() {
        io::ErrorKind::NotFound => Ok(()),
        _ => Err(e),
    })?;
    Ok(Some(recovery))
}

impl CommitError {
    fn into_io(self) -> io::Error {
        match self {
            CommitError::Io(p, e) => io::Error::new(e.kind(), format!("{}: {e}", p.display())),
            other => io::Error::other(format!("{other:?}")),
        }
    }
}

/// Undoes a commit killed before its manifest landed: each new file the commit placed (the
/// one its staged manifest records) back into the stage, then each old output back into
/// DIR, the manifest last, so that DIR reads as complete only once all of it is back.
/// Anything else in the way is left for a person: an error, with nothing overwritten.
pub(super) fn roll_back(
    out: &Path,
    stage: &Path,
    journal: &Journal,
    next: &mut dyn FnMut() -> io::Result<()>,
) -> io::Result<()> {
    let staged = Manifest::read(&stage.join(STAGED_MANIFEST)).map_err(io::Error::other)?;
    let recorded: std::collections::BTreeMap<String, String> = staged.files().into_iter().collect();
    for f in journal.new.iter().rev() {
        let (Some(in_stage), Some(placed)) = (inside(stage, f), inside(out, f)) else {
            return Err(outside(f));
        };
        if taken(&in_stage) || !placed.is_file() {
            continue;
        }
        let now = digest(&placed).map(|(size, sum)| format!("{size} {sum}"))?;
        if recorded.get(f) != Some(&now) {
            return Err(io::Error::other(format!(
                "{f}: not the file the commit placed; left as it is"
            )));
        }
        next()?;
        place(&placed, &in_stage).map_err(CommitError::into_io)?;
    }
    let aside = stage.join(OLD);
    for f in journal.old.iter().rev() {
        let (Some(set_aside), Some(dest)) = (inside(&aside, f), inside(out, f)) else {
            return Err(outside(f));
        };
        if !set_aside.is_file() {
            continue;
        }
        if taken(&dest) {
            return Err(io::Error::other(format!(
                "{f}: something took its place while it was set aside; left as it is"
            )));
        }
        next()?;
        place(&set_aside, &dest).map_err(CommitError::into_io)?;
    }
    Ok(())
}

/// The outputs of an earlier run in `out` that a commit replaces or removes: the manifest
/// and every file it names (only those: a file no manifest names is not the tool's). The
/// manifest goes first.
pub(super) fn old_outputs(out: &Path, keep_tables: bool) -> Vec<String> {
    let mut old = vec!["manifest.tsv".to_string()];
    if let Ok(m) = Manifest::read(&out.join("manifest.tsv")) {
        old.extend(m.files().into_iter().map(|(f, _)| f));
    }
    old.retain(|f| !(keep_tables && TABLE_FILES.contains(&f.as_str())));
    old.retain(|f| inside(out, f).is_some_and(|p| p.is_file()));
    old.sort();
    old.dedup();
    // The manifest goes first.
    old.sort_by_key(|f| f != "manifest.tsv");
    old
}

/// The files under `dir`, relative, with `/`, sorted; hidden ones (the stage's own) left out.
pub(super) fn relative_files(dir: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).min_depth(1) {
        let e = e.map_err(io::Error::other)?;
        let rel = e.path().strip_prefix(dir).unwrap_or(e.path());
        let hidden = rel
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
        if e.file_type().is_file() && !hidden {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    out.sort();
    Ok(out)
}
