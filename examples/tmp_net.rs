#[global_allocator]
static G: livingblocks::alloc::Mimalloc = livingblocks::alloc::Mimalloc;
use livingblocks::go::{replay, Color};
use livingblocks::life::{analyze_life, benson, Net, Regions};
use livingblocks::score::count_as_is;
use livingblocks::sgf::{self, load::Tree};
use std::time::Instant;
fn main() {
    let list = std::fs::read_to_string("/tmp/pro2k8.txt").unwrap();
    let mut boards = Vec::new();
    for p in list.lines().take(1000) {
        let bytes = std::fs::read(p).unwrap();
        let d = sgf::decode(&bytes).unwrap();
        for t in sgf::load(&d.text).unwrap().trees.into_iter().flatten() {
            if let Tree::Go(root) = &t {
                if let Ok(r) = replay(root) {
                    boards.push(r.board);
                }
            }
        }
    }
    let nets: Vec<_> = boards.iter().map(Net::build).collect();
    let what = std::env::args().nth(1).unwrap_or("net".into());
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let t = Instant::now();
    let mut s = 0usize;
    for _ in 0..reps {
        for (b, n) in boards.iter().zip(&nets) {
            s += match what.as_str() {
                "net" => Net::build(b).blocks.len(),
                "benson" => [Color::Black, Color::White]
                    .map(|c| benson(n, &Regions::find(n, c)).territory)
                    .iter()
                    .sum(),
                "life" => analyze_life(b, n, Color::Black).blocks.len(),
                "count" => count_as_is(b, n).territory[0] as usize,
                "replay" => 0,
                _ => 0,
            };
        }
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{what}: {} positions, {:.2} us each ({s})",
        boards.len(),
        e / (reps * boards.len()) as f64 * 1e6
    );
}
