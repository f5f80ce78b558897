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

    /// A number below `n` (n > 0): the draw modulo `n`. The playouts draw one for every
    /// candidate move they try, and a 64-bit division was the costliest instruction of the
    /// estimate, so divisors below `FAST_BELOW` (every board's point count) take the
    /// remainder by multiplication (Lemire, Kaser and Kurz, "Faster Remainder by Direct
    /// Computation", 2019), which gives the same number.
    pub fn below(&mut self, n: usize) -> usize {
        remainder(self.next_u64(), n)
    }
}

/// `x % n`, by multiplication for divisors below `FAST_BELOW`.
fn remainder(x: u64, n: usize) -> usize {
    match RECIPROCALS.get(n) {
        Some(&c) if n > 1 => {
            let low = c.wrapping_mul(u128::from(x));
            let n = n as u128;
            let high = (low >> 64) * n + ((low as u64 as u128 * n) >> 64);
            (high >> 64) as usize
        }
        _ => (x % n as u64) as usize,
    }
}

/// Divisors below this take `Rng::below`'s multiplication.
const FAST_BELOW: usize = 1024;

/// ⌈2¹²⁸ / d⌉ for every divisor d below `FAST_BELOW` (0 and 1 unused): with 128 bits of
/// fraction the remainder is exact for every 64-bit draw.
static RECIPROCALS: [u128; FAST_BELOW] = reciprocals();

const fn reciprocals() -> [u128; FAST_BELOW] {
    let mut t = [0; FAST_BELOW];
    let mut d = 2;
    while d < FAST_BELOW {
        t[d] = u128::MAX / d as u128 + 1;
        d += 1;
    }
    t
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
    fn below_is_the_remainder_of_the_draw() {
        let mut draws = Rng::new(11);
        for n in 1..FAST_BELOW + 3 {
            let mut xs = vec![0, 1, u64::MAX, u64::MAX - 1, n as u64 - 1, n as u64];
            xs.extend((0..200).map(|_| draws.next_u64()));
            xs.extend((1..50).map(|q| q * n as u64 - 1));
            for x in xs {
                assert_eq!(remainder(x, n), (x % n as u64) as usize, "{x} % {n}");
            }
        }
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
