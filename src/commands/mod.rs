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
/// the commit); a second one ends the process at once, leaving a stage folder the next run
/// into the folder removes.
pub fn stop_on_signals() -> Arc<AtomicI32> {
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
    cancel
}
