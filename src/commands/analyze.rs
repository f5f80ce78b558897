//! `livingblocks analyze` (and the binary with no command): walk, analyse, write the tables
//! and the report. SIGINT (Ctrl-C), SIGTERM (what Slurm and Kubernetes send) and SIGHUP stop
//! the run cleanly, exit 128 + the signal; a second signal ends it at once.

use std::path::Path;

use livingblocks::app::{self, AppError};

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
    super::check_out_folder(&config.out)?;
    if let Some(asked) = args.threads.filter(|&n| n > config.threads && !args.quiet) {
        progress::note(&format!(
            "-j {asked}: {} cores are free for this run; using {} threads",
            config.threads, config.threads
        ));
    }
    let cancel = super::stop_on_signals();
    let bar = progress::Terminal::new(args.quiet);
    let report = app::analyze(&config, &bar, &cancel)?;
    if !args.quiet {
        progress::summary(&report);
    }
    Ok(!(args.strict && report.stats.failed() > 0))
}
