//! The `livingblocks` binary: arguments → config → run → exit code.

use std::process::ExitCode;

use clap::Parser;
use livingblocks::app::{self, AppError};
use livingblocks::cli::{AnalyzeArgs, Cli, Command};
use livingblocks::progress;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = match cli.command {
        Some(Command::Analyze(args)) => args,
        None => AnalyzeArgs::default(),
    };
    let config = match args.to_config() {
        Ok(c) => c,
        Err(e) => return progress::fail(&AppError::Config(e)),
    };
    let bar = progress::Terminal::new(args.quiet);
    match app::analyze(&config, &bar) {
        Ok(report) => {
            progress::summary(&report);
            ExitCode::SUCCESS
        }
        Err(e) => progress::fail(&e),
    }
}
