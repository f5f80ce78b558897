//! `livingblocks analyze` (and the binary with no command): walk, analyse, write the tables
//! and the report. Ctrl-C stops the run cleanly; a second one ends it at once.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use livingblocks::app::{self, exit, AppError};

use crate::cli::{AnalyzeArgs, DEFAULT_PATH};
use crate::progress;

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
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(exit::INTERRUPTED));
        }
    });
    let bar = progress::Terminal::new(args.quiet);
    let report = app::analyze(&config, &bar, &cancel)?;
    if !args.quiet {
        progress::summary(&report);
    }
    Ok(!(args.strict && report.stats.failed() > 0))
}
