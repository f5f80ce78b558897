//! Seeded randomness: the generator and the hash that seeds the estimate's playouts and puts
//! inputs in shards, and random legal positions from seeded playouts, for property tests and
//! benchmarks.
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

/// FNV-1a, 64 bits: simple and fixed forever (shards of old runs must still merge, and the
/// estimate's seeds stay the same), good enough to spread names and positions evenly.
#[derive(Copy, Clone, Debug)]
pub struct Fnv1a(u64);

impl Fnv1a {
    pub fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    pub fn write_u8(&mut self, b: u8) {
        self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

/// The FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::new();
    for &b in bytes {
        h.write_u8(b);
    }
    h.finish()
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
        let played = play_random(&mut board, c, &mut rng, |b, i| !b.is_own_eye_point(i, c));
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
        assert!(empties
            .iter()
            .all(|&i| b.is_own_eye_point(i, Color::Black) || b.is_own_eye_point(i, Color::White)));
    }
}
