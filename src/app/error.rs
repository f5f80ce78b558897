//! The commands' one error type and their exit codes: the same mistake gets the same code
//! in every command.

use std::path::PathBuf;

use crate::engine::EngineError;
use crate::sink::FolderError;

impl From<EngineError> for AppError {
    /// An engine that cannot be used is a configuration error, found before any output is
    /// committed; a signal while it works stops the command.
    fn from(e: EngineError) -> AppError {
        match e {
            EngineError::Stopped(signal) => AppError::Interrupted(signal),
            e => AppError::Engine(e),
        }
    }
}

/// Why a command (`analyze`, `merge`, `report`, `show`) could not start or finish: the one
/// error type of the commands, each layer's error kept inside, so that the same mistake gets
/// the same exit code in each (`exit_code`).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Bad arguments, or inputs that are not what the command reads (a missing PATH, shards
    /// that do not belong together), found before anything is written.
    #[error("{0}")]
    Usage(String),
    /// An output folder that cannot be used or read back.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// An engine or net that cannot be used.
    #[error(transparent)]
    Engine(EngineError),
    /// Tables that cannot be read, or a report that cannot be written.
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    /// Writing an output failed (a full disk, a read-only folder).
    #[error("{}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Reading a table back failed mid-way.
    #[error("{}: {source}", .path.display())]
    Table { path: PathBuf, source: csv::Error },
    /// Writing to standard output failed.
    #[error("standard output: {0}")]
    Stdout(std::io::Error),
    /// The commit of the outputs failed; nothing of the run landed.
    #[error("{}: {source} (the folder keeps its earlier outputs)", .path.display())]
    Commit {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A test's kill point stopped the commit.
    #[error("stopped at a kill point")]
    Halted,
    /// Stopped by a signal (Ctrl-C's SIGINT, a scheduler's SIGTERM, a hang-up's SIGHUP), given
    /// by number; no output was left behind.
    #[error("stopped by {}; no output written", signal_name(*.0))]
    Interrupted(i32),
}

impl AppError {
    /// The process exit code (docs/cli.md, *Exit codes*): 2 for a usage, configuration or input
    /// error, 1 for a run that failed while working (I/O), 128 + the signal when interrupted.
    pub fn exit_code(&self) -> u8 {
        use crate::report::ReportError;
        match self {
            AppError::Usage(_)
            | AppError::Engine(_)
            | AppError::Report(
                ReportError::Read(_) | ReportError::Column { .. } | ReportError::Cell { .. },
            ) => exit::USAGE,
            AppError::Folder(e) if !e.failed_run() => exit::USAGE,
            AppError::Folder(_)
            | AppError::Report(ReportError::Write(_))
            | AppError::Write { .. }
            | AppError::Table { .. }
            | AppError::Stdout(_)
            | AppError::Commit { .. }
            | AppError::Halted => exit::FAILED,
            AppError::Interrupted(signal) => exit::interrupted(*signal),
        }
    }

    /// A failed write of `path`.
    pub fn write(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> AppError + '_ {
        move |source| AppError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A signal's name, for messages.
pub fn signal_name(signal: i32) -> String {
    match signal {
        1 => "SIGHUP".to_string(),
        2 => "SIGINT (Ctrl-C)".to_string(),
        15 => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    }
}

/// The exit codes of every command, in one place.
pub mod exit {
    /// The command finished; failed games are rows with a status.
    pub const OK: u8 = 0;
    /// The run failed while working: an output could not be written (a full disk), a table
    /// could not be read back. A scheduler may retry it.
    pub const FAILED: u8 = 1;
    /// A usage, configuration or input error, found before any work. Retrying changes
    /// nothing.
    pub const USAGE: u8 = 2;
    /// `analyze --strict`: the run finished and its outputs are committed, and some row is
    /// not `ok`.
    pub const STRICT: u8 = 3;
    /// What each exit code means, for the man page's EXIT STATUS.
    pub const MEANINGS: [(&str, &str); 5] = [
        (
            "0",
            "The command finished; games that failed are rows with a status, not failures of \
             the run.",
        ),
        (
            "1",
            "The run failed while working: writing an output failed (a full disk), or a table \
             could not be read back. The output folder keeps its earlier outputs.",
        ),
        (
            "2",
            "A usage, configuration or input error, found before anything is written.",
        ),
        (
            "3",
            "analyze --strict: the run finished and wrote its outputs, and some row is not ok.",
        ),
        (
            "130, 143, 129",
            "Stopped by SIGINT, SIGTERM or SIGHUP before the outputs were committed: the \
             output folder keeps its earlier outputs.",
        ),
    ];
    /// Stopped by signal `signal`: 128 + its number, as shells report it (130 for Ctrl-C's
    /// SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    pub fn interrupted(signal: i32) -> u8 {
        u8::try_from(128 + signal.clamp(0, 127)).unwrap_or(u8::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scheduler acts on the code: 1 (the run failed while working) may be retried, 2 (a
    /// mistake in what was asked) may not, 3 says the outputs are there but some row is not
    /// `ok`.
    #[test]
    fn each_kind_of_error_has_its_exit_code() {
        let io = || std::io::Error::from(std::io::ErrorKind::StorageFull);
        let dir = PathBuf::from("out");
        let cases = [
            (AppError::Usage("-j 0".into()), exit::USAGE),
            (
                AppError::Folder(FolderError::Busy(dir.clone())),
                exit::USAGE,
            ),
            (
                AppError::Folder(FolderError::NoManifest(dir.clone())),
                exit::USAGE,
            ),
            (
                AppError::Folder(FolderError::Recovery {
                    dir: dir.clone(),
                    source: io(),
                }),
                exit::FAILED,
            ),
            (
                AppError::Engine(EngineError::Failed("no such command".into())),
                exit::USAGE,
            ),
            (AppError::from(EngineError::Stopped(15)), 143),
            (
                AppError::Write {
                    path: dir.clone(),
                    source: io(),
                },
                exit::FAILED,
            ),
            (
                AppError::Commit {
                    path: dir,
                    source: io(),
                },
                exit::FAILED,
            ),
            (AppError::Stdout(io()), exit::FAILED),
            (AppError::Interrupted(2), 130),
        ];
        for (e, code) in cases {
            assert_eq!(e.exit_code(), code, "{e:?}");
        }
        assert_ne!(exit::STRICT, exit::FAILED);
        assert_eq!(exit::MEANINGS.len(), 5);
    }
}
