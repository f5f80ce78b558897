//! The speed baseline of issue 5 with the binary's allocator (mimalloc): the stricter
//! comparison, since mimalloc alone makes sgf-parse about half again as fast.
//!
//!   cargo run --release --example parse_baseline_mimalloc -- DIR

mod baseline;

#[global_allocator]
static GLOBAL: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;

fn main() {
    baseline::run("mimalloc");
}
