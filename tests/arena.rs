//! The per-file arena under the allocator the binary uses: analysing files in a scope gives
//! what analysing them without one gives, the arena is used, and no thread gives it up.

use std::path::Path;

use livingblocks::alloc::{arena_stats, scoped, Mimalloc};
use livingblocks::analyze::{analyze_file_with, analyze_unguarded, Options};

#[global_allocator]
static GLOBAL: Mimalloc = Mimalloc;

/// The embedded corpus's files, and inputs that fail on the way (not SGF, truncated,
/// illegal move, another game), each analysed on two threads at once.
#[test]
fn scoped_analyses_equal_plain_ones() {
    let mut inputs: Vec<Vec<u8>> =
        walkdir::WalkDir::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"))
            .sort_by_file_name()
            .into_iter()
            .map(Result::unwrap)
            .filter(|e| e.file_type().is_file())
            .map(|e| std::fs::read(e.path()).unwrap())
            .collect();
    assert!(inputs.len() > 20);
    for broken in [
        &b"\0\x01garbage"[..],
        b"(;SZ[9];B[ee];W[",
        b"(;SZ[9];B[ee];W[ee])",
        b"(;GM[3])(;SZ[5];B[cc])",
        b"(;SZ[9]KM[6.5]RE[B+R];B[ee];W[ec])",
    ] {
        inputs.push(broken.to_vec());
    }
    std::thread::scope(|s| {
        for half in inputs.chunks(inputs.len().div_ceil(2)) {
            s.spawn(move || {
                let mut used = 0;
                for bytes in half {
                    assert_eq!(
                        scoped(|| analyze_file_with(bytes, Options::default())),
                        analyze_unguarded(bytes)
                    );
                    let stats = arena_stats();
                    assert!(stats.held);
                    used = used.max(stats.last_used);
                }
                assert!(used > 0);
            });
        }
    });
    assert_eq!(arena_stats().given_up, 0);
}
