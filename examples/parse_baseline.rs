//! The speed baseline of issue 5 as its users would run it: sgf-parse alone reading, parsing
//! and walking the main line of every `.sgf` file of a folder, one thread, with the system
//! allocator. The pipeline's one-thread rate is compared against this (`scripts/bench.sh`
//! prints the ratio).
//!
//!   cargo run --release --example parse_baseline -- DIR

mod baseline;

fn main() {
    baseline::run("system");
}
