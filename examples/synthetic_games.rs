//! Synthetic 19×19 collections for the scale bench (docs/performance.md, "A million games"):
//! `COLLECTIONS` files of `GAMES` random legal games each, 150 to 300 moves, resigned, so
//! that no judge is asked and the run measures the walk, the replay, the life analysis,
//! duplicate matching and the tables. One game in a hundred repeats an earlier one turned
//! and with its colours exchanged, so that copies are found as in a real archive. The same
//! arguments write the same bytes.
//!
//!   cargo run --release --example synthetic_games -- DIR COLLECTIONS GAMES

use std::io::Write;

use livingblocks::go::random::{play_random, Rng};
use livingblocks::go::{Board, Cell, Color, Point};

/// Every hundredth game is a copy.
const COPY_EVERY: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, collections, games] = &args[..] else {
        eprintln!("usage: synthetic_games DIR COLLECTIONS GAMES");
        std::process::exit(2);
    };
    let (collections, games): (usize, usize) = match (collections.parse(), games.parse()) {
        (Ok(c), Ok(g)) => (c, g),
        _ => {
            eprintln!("synthetic_games: COLLECTIONS and GAMES are whole numbers");
            std::process::exit(2);
        }
    };
    let dir = std::path::Path::new(dir);
    std::fs::create_dir_all(dir).expect("the output folder");
    let mut rng = Rng::new(1);
    // The moves of the last few games, to copy from.
    let mut recent: Vec<Vec<Point>> = Vec::new();
    for c in 0..collections {
        let mut text = Vec::with_capacity(games * 1700);
        for g in 0..games {
            let n = c * games + g;
            let moves = if n % COPY_EVERY == COPY_EVERY - 1 && !recent.is_empty() {
                let original = &recent[rng.below(recent.len())];
                original
                    .iter()
                    .map(|&p| Point::new(18 - p.x, p.y))
                    .collect()
            } else {
                let length = 150 + rng.below(151);
                random_game(&mut rng, length)
            };
            write_game(
                &mut text,
                n,
                &moves,
                rng.below(2) == 0,
                n % COPY_EVERY == COPY_EVERY - 1,
            );
            if recent.len() == 64 {
                recent.swap_remove(rng.below(64));
            }
            recent.push(moves);
        }
        let path = dir.join(format!("{c:05}.sgf"));
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(&text))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Up to `length` random legal moves from the empty board, no player filling its own eye;
/// fewer where both players run out of moves.
fn random_game(rng: &mut Rng, length: usize) -> Vec<Point> {
    let mut board = Board::new(19).expect("19 is a board size");
    let mut moves = Vec::with_capacity(length);
    let mut c = Color::Black;
    while moves.len() < length {
        let before = board.clone();
        if !play_random(&mut board, c, rng, |b, i| !b.is_own_eye_point(i, c)) {
            break;
        }
        let played = board
            .points()
            .find(|&i| before.cell(i) != board.cell(i) && board.cell(i) == Cell::Stone(c))
            .map(|i| board.point(i))
            .expect("a move puts a stone down");
        moves.push(played);
        c = c.opponent();
    }
    moves
}

/// One game tree: Black plays first; with `swap` the colours of a copy are exchanged (White
/// plays first), as a copy from a source that names the players the other way round.
fn write_game(out: &mut Vec<u8>, n: usize, moves: &[Point], black_wins: bool, swap: bool) {
    let result = if black_wins { "B+R" } else { "W+R" };
    write!(
        out,
        "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Black {n}]PW[White {n}]RE[{result}]"
    )
    .expect("writing to memory");
    let (first, second) = if swap { ("W", "B") } else { ("B", "W") };
    for (k, p) in moves.iter().enumerate() {
        let [x, y] = p.sgf_bytes();
        let colour = if k % 2 == 0 { first } else { second };
        write!(out, ";{colour}[{}{}]", x as char, y as char).expect("writing to memory");
    }
    out.extend_from_slice(b")\n");
}
