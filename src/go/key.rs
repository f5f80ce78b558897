//! A game's identity, whatever the source: a key of its moves that the board's eight
//! symmetries and the order of its setup stones do not change, so the same game found in two
//! collections, rotated or mirrored, gets the same key.
//!
//! Of the eight ways to write a game, the key takes the least in lexical order (setup, then
//! moves, each stone as colour and point in the transformed board's point order; passes
//! left out, as records disagree on them). The least way of a whole game begins with the
//! least way of any of its prefixes, so a record cut short keys its moves the way the longer
//! record keys the same moves.

use super::random::Fnv1a;
use super::{Color, MoveList, Point};

/// Moves of the opening `GameKey::opening` keys: games.csv `opening_key`, to group games by
/// their opening (copies of a game are told by their moves, `crate::duplicates`).
pub const OPENING: usize = 72;

/// What `GameKey::of` returns for a game with stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// The whole game: setup and every move.
    pub whole: u64,
    /// The setup and the first `OPENING` moves; `None` for a shorter game.
    pub opening: Option<u64>,
    /// Moves other than passes.
    pub moves: u32,
}

impl GameKey {
    /// The key of a game on a `size`×`size` board; `None` for one without a stone (nothing
    /// to tell it from any other empty record).
    pub fn of(size: u8, list: &MoveList) -> Option<GameKey> {
        GameKey::with_line(size, list).map(|(key, _)| key)
    }

    /// The key, and the stones it reads (`KeyLine`), which tell copies that differ in a few
    /// moves.
    pub fn with_line(size: u8, list: &MoveList) -> Option<(GameKey, KeyLine)> {
        let setup = &list.setup[..];
        let moves = || list.moves.iter().filter_map(|&(c, p)| Some((c, p?)));
        if setup.is_empty() && moves().next().is_none() {
            return None;
        }
        let sym = least_symmetry(size, setup, moves());
        let mut h = Fnv1a::new();
        h.write_u8(size);
        let mut codes: Vec<u16> = setup.iter().map(|&s| code(size, sym, s)).collect();
        codes.sort_unstable();
        for &c in &codes {
            write16(&mut h, c);
        }
        // Setup and moves must not run into each other.
        write16(&mut h, u16::MAX);
        let mut opening = None;
        let mut line = Vec::with_capacity(list.moves.len());
        for m in moves() {
            if line.len() == OPENING {
                opening = Some(mix(h.finish()));
            }
            let c = code(size, sym, m);
            write16(&mut h, c);
            line.push(c);
        }
        if line.len() == OPENING {
            opening = Some(mix(h.finish()));
        }
        let key = GameKey {
            whole: mix(h.finish()),
            opening,
            moves: line.len() as u32,
        };
        Some((
            key,
            KeyLine {
                size,
                setup: codes.into(),
                moves: line.into(),
            },
        ))
    }
}

/// The stones a `GameKey` reads, turned the way it reads them: each a number, its point's
/// index in row-major order times two, plus one for White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLine {
    pub size: u8,
    /// Setup stones, sorted.
    pub setup: Box<[u16]>,
    /// Moves other than passes, in order.
    pub moves: Box<[u16]>,
}

impl KeyLine {
    /// `c` under `way` (0..16): symmetry `way % 8` (as `transform`), and the colours
    /// exchanged from 8 on.
    pub fn turn(&self, way: u8, c: u16) -> u16 {
        let n = u16::from(self.size);
        let index = c / 2;
        let p = Point::new((index % n) as u8, (index / n) as u8);
        let q = transform(self.size, way % 8, p);
        (u16::from(q.y) * n + u16::from(q.x)) * 2 + ((c & 1) ^ u16::from(way >= 8))
    }

    /// games.csv `key_moves`: the setup, `/`, the moves; each stone its SGF point, in lower
    /// case for Black and upper case for White (boards are at most 25 wide).
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(2 * (self.setup.len() + self.moves.len()) + 1);
        let n = u16::from(self.size);
        let push = |s: &mut String, c: u16| {
            let index = c / 2;
            let case = if c & 1 == 1 { b'A' } else { b'a' };
            s.push((case + (index % n) as u8) as char);
            s.push((case + (index / n) as u8) as char);
        };
        self.setup.iter().for_each(|&c| push(&mut s, c));
        s.push('/');
        self.moves.iter().for_each(|&c| push(&mut s, c));
        s
    }

    /// Reads `text` back on a `size`×`size` board; `None` for anything `text` does not write.
    pub fn parse(size: u8, text: &str) -> Option<KeyLine> {
        let (setup, moves) = text.split_once('/')?;
        let stones = |part: &str| -> Option<Box<[u16]>> {
            let b = part.as_bytes();
            if !b.len().is_multiple_of(2) {
                return None;
            }
            b.chunks(2)
                .map(|xy| {
                    let white = xy[0].is_ascii_uppercase();
                    let base = if white { b'A' } else { b'a' };
                    let (x, y) = (xy[0].checked_sub(base)?, xy[1].checked_sub(base)?);
                    (x < size && y < size && xy[1].is_ascii_uppercase() == white).then(|| {
                        (u16::from(y) * u16::from(size) + u16::from(x)) * 2 + u16::from(white)
                    })
                })
                .collect()
        };
        Some(KeyLine {
            size,
            setup: stones(setup)?,
            moves: stones(moves)?,
        })
    }
}

fn write16(h: &mut Fnv1a, v: u16) {
    let [a, b] = v.to_le_bytes();
    h.write_u8(a);
    h.write_u8(b);
}

/// A final mix so that keys differ in every bit (FNV alone leaves the high bits alike).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Symmetry `s` (0..8) of a point: bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps the axes.
fn transform(size: u8, s: u8, p: Point) -> Point {
    let last = size.saturating_sub(1);
    let (mut x, mut y) = (p.x.min(last), p.y.min(last));
    if s & 1 != 0 {
        x = last - x;
    }
    if s & 2 != 0 {
        y = last - y;
    }
    if s & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    Point::new(x, y)
}

/// A stone under symmetry `s`, as one number: its point's index, then its colour.
fn code(size: u8, s: u8, (c, p): (Color, Point)) -> u16 {
    let q = transform(size, s, p);
    let index = u16::from(q.y) * u16::from(size) + u16::from(q.x);
    index * 2 + u16::from(c == Color::White)
}

/// The symmetry under which the game reads least: sorted setup first, then the moves.
/// Symmetries still tied at the end write the game identically.
fn least_symmetry(
    size: u8,
    setup: &[(Color, Point)],
    moves: impl Iterator<Item = (Color, Point)>,
) -> u8 {
    let mut alive: Vec<u8> = (0..8).collect();
    let sorted_setup = |s: u8| {
        let mut v: Vec<u16> = setup.iter().map(|&x| code(size, s, x)).collect();
        v.sort_unstable();
        v
    };
    if !setup.is_empty() {
        let setups: Vec<Vec<u16>> = alive.iter().map(|&s| sorted_setup(s)).collect();
        let least = setups.iter().min().cloned().unwrap_or_default();
        alive = alive
            .into_iter()
            .zip(&setups)
            .filter(|(_, v)| **v == least)
            .map(|(s, _)| s)
            .collect();
    }
    for m in moves {
        if alive.len() == 1 {
            break;
        }
        let least = alive.iter().map(|&s| code(size, s, m)).min().unwrap_or(0);
        alive.retain(|&s| code(size, s, m) == least);
    }
    alive[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(setup: &[(Color, &str)], moves: &[(Color, &str)]) -> MoveList {
        let pt = |s: &str| (!s.is_empty()).then(|| Point::from_sgf(s).unwrap());
        MoveList {
            setup: setup.iter().map(|&(c, s)| (c, pt(s).unwrap())).collect(),
            moves: moves.iter().map(|&(c, s)| (c, pt(s))).collect(),
        }
    }

    fn game<'a>(moves: &[&'a str]) -> Vec<(Color, &'a str)> {
        moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                (
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    m,
                )
            })
            .collect()
    }

    /// The eight ways to write a game of a point list, by mirroring the SGF letters.
    fn all_ways(moves: &[&str]) -> Vec<Vec<String>> {
        let flip = |c: u8| (b's' - (c - b'a')) as char;
        (0..8)
            .map(|s| {
                moves
                    .iter()
                    .map(|m| {
                        let b = m.as_bytes();
                        let (mut x, mut y) = (b[0] as char, b[1] as char);
                        if s & 1 != 0 {
                            x = flip(x as u8);
                        }
                        if s & 2 != 0 {
                            y = flip(y as u8);
                        }
                        if s & 4 != 0 {
                            std::mem::swap(&mut x, &mut y);
                        }
                        format!("{x}{y}")
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn rotated_and_mirrored_games_share_their_key() {
        let moves = ["pd", "dp", "qp", "dd", "fq", "cn", "jp", "qf", "nc", "rd"];
        let keys: Vec<GameKey> = all_ways(&moves)
            .iter()
            .map(|w| {
                let w: Vec<&str> = w.iter().map(String::as_str).collect();
                GameKey::of(19, &list(&[], &game(&w))).unwrap()
            })
            .collect();
        assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
        let other = GameKey::of(19, &list(&[], &game(&["pd", "dp", "qp", "dc"]))).unwrap();
        assert_ne!(other.whole, keys[0].whole);
    }

    #[test]
    fn setup_order_and_passes_do_not_change_the_key() {
        let a = list(
            &[(Color::Black, "dd"), (Color::Black, "pp")],
            &[
                (Color::White, "pd"),
                (Color::Black, ""),
                (Color::White, "dp"),
            ],
        );
        let b = list(
            &[(Color::Black, "pp"), (Color::Black, "dd")],
            &[(Color::White, "pd"), (Color::White, "dp")],
        );
        assert_eq!(GameKey::of(19, &a), GameKey::of(19, &b));
        assert_eq!(GameKey::of(19, &a).unwrap().moves, 2);
        // The colour of a stone is part of the game.
        let c = list(
            &[(Color::White, "dd"), (Color::Black, "pp")],
            &[(Color::White, "pd"), (Color::White, "dp")],
        );
        assert_ne!(GameKey::of(19, &a), GameKey::of(19, &c));
        assert_eq!(GameKey::of(19, &list(&[], &[])), None);
    }

    /// A record cut short keys its first 72 moves as the whole game does, in whichever
    /// symmetry either is written.
    #[test]
    fn a_shorter_record_shares_the_opening_key() {
        let points: Vec<String> = (0..100u32)
            .map(|i| {
                let p = (i * 37 + 11) % 361;
                let (x, y) = ((p % 19) as u8, (p / 19) as u8);
                format!("{}{}", (b'a' + x) as char, (b'a' + y) as char)
            })
            .collect();
        let moves: Vec<&str> = points.iter().map(String::as_str).collect();
        assert!(moves.len() > OPENING + 5);
        let long = GameKey::of(19, &list(&[], &game(&moves))).unwrap();
        let short_way = &all_ways(&moves[..OPENING + 3])[5];
        let short: Vec<&str> = short_way.iter().map(String::as_str).collect();
        let short = GameKey::of(19, &list(&[], &game(&short))).unwrap();
        assert_eq!(long.opening, short.opening);
        assert!(long.opening.is_some());
        assert_ne!(long.whole, short.whole);
        let tiny = GameKey::of(19, &list(&[], &game(&moves[..10]))).unwrap();
        assert_eq!(tiny.opening, None);
    }

    /// games.csv `key_moves` reads back as the line it was written from, and turning a
    /// line's stones by `way` finds them where the turned record has them.
    #[test]
    fn a_line_reads_back_and_turns() {
        let setup = [(Color::Black, "dd"), (Color::Black, "pp")];
        let (key, line) = GameKey::with_line(
            19,
            &list(
                &setup,
                &[
                    (Color::White, "pd"),
                    (Color::White, "dp"),
                    (Color::Black, "qq"),
                ],
            ),
        )
        .unwrap();
        assert_eq!(key.moves, 3);
        let text = line.text();
        assert_eq!(text.len(), 2 * 5 + 1);
        assert_eq!(KeyLine::parse(19, &text), Some(line.clone()));
        assert_eq!(KeyLine::parse(19, "ddpp"), None);
        assert_eq!(KeyLine::parse(9, &text), None);
        for way in 0..16u8 {
            let back = (0..16u8)
                .find(|&w| {
                    line.moves
                        .iter()
                        .all(|&c| line.turn(w, line.turn(way, c)) == c)
                })
                .unwrap();
            assert!(way < 8 || back >= 8, "{way} {back}");
        }
        assert_eq!(line.turn(8, line.moves[0]), line.moves[0] ^ 1);
    }
}
