//! `livingblocks report DIR`: the report of an output folder, rebuilt from its tables.

use livingblocks::app::AppError;

use crate::cli::ReportArgs;
use crate::progress;

pub fn run(args: &ReportArgs) -> Result<(), AppError> {
    if !args.dir.is_dir() {
        return Err(AppError::Usage(format!(
            "{}: no such folder (give the output folder of `analyze` or `merge`)",
            args.dir.display()
        )));
    }
    let rebuilt = livingblocks::app::rebuild_report(
        &args.dir,
        args.diagrams,
        args.edited,
        &super::stop_on_signals(),
    )?;
    if !args.quiet {
        progress::note(&format!(
            "the report of {} rebuilt from its tables",
            args.dir.display()
        ));
        progress::cleared(&rebuilt.stale);
        progress::wrote(&rebuilt.outputs);
    }
    Ok(())
}
