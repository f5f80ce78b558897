//! The `livingblocks` binary: arguments → config → run → exit code.
//!
//! Exit codes: 0 the run finished (failed games are rows with a status); 1 writing an output
//! failed, or `--strict` and some row is not `ok`; 2 a usage or configuration error, found
//! before any work; 130 interrupted by Ctrl-C (no output left behind).

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Parser;
use livingblocks::app::{self, AppError, WORKER_PREFIX};
use livingblocks::cli::{AnalyzeArgs, Cli, Command};
use livingblocks::progress;

/// See `livingblocks::alloc` for why mimalloc, and why through this wrapper.
#[global_allocator]
static GLOBAL: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = match cli.command {
        Some(Command::Analyze(args)) => args,
        Some(Command::Merge(m)) => {
            return match livingblocks::merge::merge(&m.shards, &m.out) {
                Ok(report) => {
                    progress::summary(&report);
                    ExitCode::SUCCESS
                }
                Err(e) => progress::fail(&e),
            }
        }
        Some(Command::Report(r)) => {
            return match livingblocks::report::write_from_tables(&r.dir) {
                Ok(paths) => {
                    progress::wrote(&paths);
                    ExitCode::SUCCESS
                }
                Err(e) => progress::fail(&AppError::Output(e.to_string())),
            }
        }
        None => AnalyzeArgs::default(),
    };
    let config = match args.to_config() {
        Ok(c) => c,
        Err(e) => return progress::fail(&AppError::Config(e)),
    };
    quiet_worker_panics();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    // The first Ctrl-C stops the run cleanly; a second one ends it at once.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = progress::Terminal::new(args.quiet);
    match app::analyze(&config, &bar, &cancel) {
        Ok(report) => {
            progress::summary(&report);
            if args.strict && report.stats.failed() > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => progress::fail(&e),
    }
}

/// A panic inside the per-file work is caught and becomes an `internal_error` row with the
/// message; printing it as well would garble the progress display. Other panics print as usual.
fn quiet_worker_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let in_worker = std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with(WORKER_PREFIX));
        if !in_worker {
            default(info);
        }
    }));
}
