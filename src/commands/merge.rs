//! `livingblocks merge`: shard folders → the tables of one run.

use livingblocks::app::AppError;

use crate::cli::MergeArgs;
use crate::progress;

pub fn run(args: &MergeArgs) -> Result<(), AppError> {
    super::check_out_folder(&args.out)?;
    let report = livingblocks::merge::merge(
        &args.shards,
        &args.out,
        args.diagrams,
        &super::stop_on_signals(),
    )?;
    if !args.quiet {
        progress::merged(&report, args.shards.len());
    }
    Ok(())
}
