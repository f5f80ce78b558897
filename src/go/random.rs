//! Random legal positions from seeded playouts, for property tests and benchmarks.
//!
//! Players alternate random legal moves (no suicide, no immediate ko retake) and never fill a
//! point all of whose neighbours are their own stones, so groups with eyes survive and the
//! positions look like ends of games rather than noise.

use super::board::{Board, Cell, Color, Idx};

/// A small, fast, seeded generator (xorshift64*); the same seed gives the same position on
/// every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Whether every on-board neighbour of an empty point is a stone of `c`.
pub fn is_own_eye_point(board: &Board, i: Idx, c: Color) -> bool {
    board
        .neighbours(i)
        .iter()
        .all(|&n| matches!(board.cell(n), Cell::Wall) || board.cell(n) == Cell::Stone(c))
}

/// Plays `c` at a random legal point (no suicide, no ko retake) chosen by `allow`; returns
/// false when there is none.
pub fn play_random(
    board: &mut Board,
    c: Color,
    rng: &mut Rng,
    allow: impl Fn(&Board, Idx) -> bool,
) -> bool {
    let mut empties: Vec<Idx> = board
        .points()
        .filter(|&i| board.cell(i) == Cell::Empty && allow(board, i))
        .collect();
    while !empties.is_empty() {
        let k = rng.below(empties.len());
        let i = empties.swap_remove(k);
        let p = board.point(i);
        let mut trial = board.clone();
        match trial.play(c, p) {
            Ok(out) if out.suicided == 0 && !out.ko_retake => {
                *board = trial;
                return true;
            }
            _ => {}
        }
    }
    false
}

/// A position after a playout of up to `moves` moves from an empty board of side `size`;
/// returns it with the player to move.
pub fn random_position(seed: u64, size: u8, moves: usize) -> (Board, Color) {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(size).expect("size 2..=25");
    let mut c = Color::Black;
    let mut passes = 0;
    for _ in 0..moves {
        let played = play_random(&mut board, c, &mut rng, |b, i| !is_own_eye_point(b, i, c));
        passes = if played { 0 } else { passes + 1 };
        if !played {
            board.pass();
        }
        c = c.opponent();
        if passes >= 2 {
            break;
        }
    }
    (board, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_position() {
        let (a, ca) = random_position(7, 9, 150);
        let (b, cb) = random_position(7, 9, 150);
        assert_eq!(a, b);
        assert_eq!(ca, cb);
        let (c, _) = random_position(8, 9, 150);
        assert_ne!(a, c);
    }

    #[test]
    fn playouts_end_with_eyes_and_no_dead_shape() {
        let (b, _) = random_position(1, 9, 400);
        // A finished playout leaves every empty point an own-eye point of one colour.
        let empties: Vec<_> = b.points().filter(|&i| b.cell(i) == Cell::Empty).collect();
        assert!(!empties.is_empty());
        assert!(empties.iter().all(
            |&i| is_own_eye_point(&b, i, Color::Black) || is_own_eye_point(&b, i, Color::White)
        ));
    }
}
