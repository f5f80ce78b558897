//! `livingblocks analyze` (and the binary with no command): walk, analyse, write the tables
//! and the report. SIGINT (Ctrl-C), SIGTERM (what Slurm and Kubernetes send) and SIGHUP stop
//! the run cleanly, exit 128 + the signal; a second signal ends it at once.

use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use livingblocks::app::{self, exit, AppError};

use crate::cli::{AnalyzeArgs, DEFAULT_PATH};
use crate::progress;

/// The signals that ask a run to stop.
const STOPPING: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Runs the analysis; `Ok(true)` when every row is `ok`, or some is not and `--strict` was not
/// given.
pub fn run(args: &AnalyzeArgs) -> Result<bool, AppError> {
    let default = Path::new(DEFAULT_PATH);
    if args.files_from.is_none() && args.paths == [default] && !default.exists() {
        return Err(AppError::Config(format!(
            "no {DEFAULT_PATH}/ folder here: with no PATH, livingblocks analyses the embedded \
             corpus of its repository, so run it there, or give SGF files or folders to analyse \
             (livingblocks analyze PATH ...; see livingblocks --help)"
        )));
    }
    let config = args.to_config().map_err(AppError::Config)?;
    let cancel = Arc::new(AtomicI32::new(0));
    for signal in STOPPING {
        let flag = Arc::clone(&cancel);
        // SAFETY: the action only touches an atomic and, on a second signal, calls _exit:
        // both async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(signal, move || {
                if flag
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    signal_hook::low_level::exit(i32::from(exit::interrupted(signal)));
                }
            })
        };
    }
    let bar = progress::Terminal::new(args.quiet);
    let report = app::analyze(&config, &bar, &cancel)?;
    if !args.quiet {
        progress::summary(&report);
    }
    Ok(!(args.strict && report.stats.failed() > 0))
}
