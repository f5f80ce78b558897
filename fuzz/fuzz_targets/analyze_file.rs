//! The per-file function on arbitrary bytes: it must return records, never panic (a panic
//! would be caught and reported as `internal_error` in a real run, but it is still a bug),
//! never hang, never blow the stack. Like the tool's workers, it runs on a thread with a
//! large stack.
#![no_main]

use libfuzzer_sys::fuzz_target;
use livingblocks::analyze::analyze_unguarded;

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    let games = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || analyze_unguarded(&data).games.len())
        .expect("spawn")
        .join()
        .expect("no panic");
    assert!(games > 0);
});
