//! The speed baseline of issue 5, shared by the two baseline examples: sgf-parse alone
//! reading, parsing and walking the main line of every `.sgf` file of a folder, one thread.

use std::time::Instant;

/// Runs the baseline on the folder given as the first argument and prints the rate.
pub fn run(allocator: &str) {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus/pro/games".into());
    let mut paths: Vec<_> = walkdir::WalkDir::new(&dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "sgf"))
        .map(|e| e.into_path())
        .collect();
    paths.sort();
    let start = Instant::now();
    let (mut games, mut moves, mut unreadable) = (0usize, 0usize, 0usize);
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            unreadable += 1;
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let Ok(trees) = sgf_parse::parse(&text) else {
            unreadable += 1;
            continue;
        };
        for root in trees.iter().filter_map(|t| t.as_go_node().ok()) {
            games += 1;
            moves += root
                .main_variation()
                .filter(|n| n.get_move().is_some())
                .count();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} files, {games} games, {moves} moves, {unreadable} unparsed in {secs:.2} s ({allocator} allocator): {:.0} games/s",
        paths.len(),
        games as f64 / secs
    );
}
