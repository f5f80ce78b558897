//! One module per subcommand. Each takes its parsed arguments and returns what it did or an
//! `AppError`, whose `exit_code` `main` turns into the process's status: the same mistake
//! gets the same code in every command.

pub mod analyze;
pub mod generate;
pub mod merge;
pub mod report;
pub mod show;

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use livingblocks::app::exit;

/// The signals that ask a command to stop: Ctrl-C's SIGINT, the SIGTERM Slurm and Kubernetes
/// send, a hang-up's SIGHUP.
const STOPPING: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Makes the first stopping signal a request (its number in the flag, which `analyze`,
/// `merge` and `report` poll, and which puts the folder's old outputs back if it comes during
/// the commit); a second one ends the process at once, after removing its stage folders.
pub fn stop_on_signals() -> Arc<AtomicI32> {
    let cancel = Arc::new(AtomicI32::new(0));
    let flag = Arc::clone(&cancel);
    // Handled on a thread of its own, not in the signal handler, so that the second signal
    // may remove files before the process ends.
    if let Ok(mut signals) = signal_hook::iterator::Signals::new(STOPPING) {
        std::thread::spawn(move || {
            for signal in signals.forever() {
                // Still listing the inputs: nothing written yet, nothing to put back.
                if livingblocks::source::walk::LISTING.load(Ordering::SeqCst) {
                    let stopped = livingblocks::app::AppError::Interrupted(signal);
                    crate::progress::note(&stopped.to_string());
                    std::process::exit(i32::from(exit::interrupted(signal)));
                }
                if flag
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    livingblocks::sink::stage::remove_live_stages();
                    livingblocks::sink::lock::remove_held();
                    livingblocks::app::remove_made();
                    std::process::exit(i32::from(exit::interrupted(signal)));
                }
            }
        });
    }
    cancel
}
