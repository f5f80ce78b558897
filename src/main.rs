//! The `livingblocks` binary: arguments → command → exit code. The exit codes are
//! `livingblocks::app::exit`'s, the same for every command (docs/cli.md, *Exit codes*).

mod cli;
mod commands;
mod progress;

use std::process::ExitCode;

use clap::Parser;
use livingblocks::app::{exit, WORKER_PREFIX};

use cli::{Cli, Command};

/// See `livingblocks::alloc` for why mimalloc, and why through this wrapper.
#[global_allocator]
static GLOBAL: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;

fn main() -> ExitCode {
    livingblocks::alloc::configure();
    let cli = Cli::parse();
    quiet_worker_panics();
    let result = match &cli.command {
        Some(Command::Analyze(args)) => commands::analyze::run(args),
        None => commands::analyze::run(&Cli::analyze_defaults()),
        Some(Command::Merge(args)) => commands::merge::run(args).map(|()| true),
        Some(Command::Report(args)) => commands::report::run(args).map(|()| true),
        Some(Command::Show(args)) => commands::show::run(args).map(|()| true),
        Some(Command::Generate(args)) => commands::generate::run(args).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::from(exit::OK),
        Ok(false) => ExitCode::from(exit::STRICT),
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
