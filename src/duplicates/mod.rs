//! Copies of one game: records whose stones (`go::KeyLine`) agree, up to the board's
//! symmetries and the colours, move by move, but for a record cut short or a few moves
//! transcribed differently (swapped, miswritten, left out or added). Of each game the most
//! complete record counts (the most moves; of equal ones, the first in input order) and every
//! other copy names it, so each figure of the report counts the game once.
//!
//! Copies are found as Kombilo's signatures find them, and then checked: a record is looked up
//! by its whole key and by the points of each of a few windows of its moves (`WINDOW`), each
//! read the way that gives the least hash, so a copy differing outside one window still meets
//! the other in it; a candidate is then compared move by move (`likeness`). Records shorter
//! than `MIN_MOVES` are matched whole only, and below `MIN_SAME` not at all: a forfeit's few
//! moves say nothing of which game it was.
//!
//! A run and `merge` both feed it the games in input order (`meet`, which answers as far as
//! the games so far tell), then ask for the final answer (`resolve`), so shards resolve as one
//! run does. Of each game long enough to match it keeps about 40 bytes in memory; its stones
//! and file name go to a store on disk (`store`), read back for the candidates a signature
//! finds.

mod store;

use std::collections::HashMap;
use std::io;
use std::path::Path;
use std::sync::Arc;

use crate::go::{GameKey, KeyLine};
use store::{Index, Store};

/// How a game repeats the copy that counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DuplicateKind {
    /// The same moves (up to the board's symmetries and passes).
    Same,
    /// Every move of the shorter record equals the longer's: one record stops earlier.
    Prefix,
    /// The same game with a few moves transcribed differently (swapped, miswritten).
    Variant,
    /// The same game, or a prefix or variant of it, with Black and White exchanged.
    Colours,
}

impl DuplicateKind {
    pub const ALL: [DuplicateKind; 4] = [
        DuplicateKind::Same,
        DuplicateKind::Prefix,
        DuplicateKind::Variant,
        DuplicateKind::Colours,
    ];

    /// The name games.csv `duplicate_kind` writes.
    pub fn as_str(self) -> &'static str {
        match self {
            DuplicateKind::Same => "same",
            DuplicateKind::Prefix => "prefix",
            DuplicateKind::Variant => "variant",
            DuplicateKind::Colours => "colours",
        }
    }
}

/// The copy a game repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub file: Arc<str>,
    pub game: usize,
    pub kind: DuplicateKind,
}

/// Moves a record needs to be matched whole (`same`): below, two records of a forfeit or an
/// abandoned game are alike without being one game.
pub const MIN_SAME: usize = 20;

/// Moves the shorter of two records needs to be a prefix or a variant of the other: fewer
/// moves are an opening many games share.
pub const MIN_MOVES: usize = 50;

/// Moves per signature window; windows start at move `WINDOW` (the first moves are the
/// openings every collection repeats) and the first `WINDOWS` full ones are indexed.
const WINDOW: usize = 16;
const WINDOWS: usize = 7;

/// Games a window's signature lists at most: a window so common says nothing more, and the
/// others of a copy still find it.
const BUCKET: usize = 16;

/// Moves of the shorter record that may be missing from the longer: one in 25, and one more.
fn allowed(compared: usize) -> usize {
    1 + compared / 25
}

/// Missing moves in a row that are still a transcription slip (two pairs miswritten, four
/// moves added); a longer stretch is another game.
const MAX_RUN: usize = 4;

/// Move numbers by which a move may sit off its place in the other record and still be found
/// there: swapped moves, and the moves after some left out or added.
const SHIFT: usize = 8;

/// How two records compare, under the way (`KeyLine::turn`) that makes them most alike.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Likeness {
    pub way: u8,
    /// Moves of the shorter record the longer does not have at the same move number.
    pub differ: usize,
    /// Of those, the moves the longer has at no move number within `SHIFT` either.
    pub missing: usize,
}

/// Whether `a` and `b` are records of one game: the same board and setup, the shorter record
/// at least `MIN_MOVES` long, each of its moves found in the longer at the same move number
/// or within `SHIFT` of it but for at most `allowed` missing ones, in runs of at most
/// `MAX_RUN`, and its last move found (a record whose end leaves the other's line is another
/// game that shared the opening). Of equally long records, `a` is read as the shorter.
pub fn likeness(a: &KeyLine, b: &KeyLine) -> Option<Likeness> {
    let (m, n) = (a.moves.len(), b.moves.len());
    let a_short = m <= n;
    let (short, long) = if a_short { (m, n) } else { (n, m) };
    if a.size != b.size || a.setup.len() != b.setup.len() || short < MIN_MOVES {
        return None;
    }
    let limit = allowed(short);
    let mut best: Option<Likeness> = None;
    let mut setup = Vec::with_capacity(b.setup.len());
    'ways: for way in 0..16u8 {
        setup.clear();
        setup.extend(b.setup.iter().map(|&c| b.turn(way, c)));
        setup.sort_unstable();
        if setup[..] != a.setup[..] {
            continue;
        }
        // Move `s` of the shorter record against move `l` of the longer.
        let alike = |s: usize, l: usize| {
            let (i, j) = if a_short { (s, l) } else { (l, s) };
            a.moves[i] == b.turn(way, b.moves[j])
        };
        let (mut differ, mut missing, mut run) = (0, 0, 0);
        for s in 0..short {
            if alike(s, s) {
                run = 0;
                continue;
            }
            differ += 1;
            if (s.saturating_sub(SHIFT)..long.min(s + SHIFT + 1)).any(|l| alike(s, l)) {
                run = 0;
                continue;
            }
            missing += 1;
            run += 1;
            // Both only grow: a way already no better than the best is left.
            let worse = best.is_some_and(|l| (missing, differ) >= (l.missing, l.differ));
            if missing > limit || run > MAX_RUN || worse {
                continue 'ways;
            }
        }
        if run > 0 || best.is_some_and(|l| (missing, differ) >= (l.missing, l.differ)) {
            continue;
        }
        best = Some(Likeness {
            way,
            differ,
            missing,
        });
        if differ == 0 {
            break;
        }
    }
    best
}

/// How `copy` repeats `counted`, the copy that counts, found one game with it (directly, or
/// through another copy).
fn kind(counted: (&Met, &KeyLine), copy: (&Met, &KeyLine)) -> DuplicateKind {
    if counted.0.whole == copy.0.whole {
        return DuplicateKind::Same;
    }
    match likeness(counted.1, copy.1) {
        Some(l) if l.way >= 8 => DuplicateKind::Colours,
        Some(l) if l.differ == 0 && counted.1.moves.len() == copy.1.moves.len() => {
            DuplicateKind::Same
        }
        Some(l) if l.differ == 0 => DuplicateKind::Prefix,
        _ => DuplicateKind::Variant,
    }
}

/// A game long enough to match, as met; its stones and file name are in the store.
struct Met {
    whole: u64,
    /// Where its line starts in the store.
    line: u64,
    /// Its file, in `files`.
    file: u32,
    game: u32,
    /// Moves of its line.
    moves: u32,
    /// The first game met of its copies (itself when it repeats none).
    group: u32,
    /// Of a group's first game: the copy that counts so far.
    counted: u32,
    /// Whether its record replayed to the end: a record that stops at an illegal move
    /// counts only where no copy replays.
    replayed: bool,
    /// Whether it counted when met (`meet` answered `None`).
    counted_when_met: bool,
}

impl Met {
    /// What makes a copy the one that counts: it replays, then it has more moves.
    fn completeness(&self) -> (bool, u32) {
        (self.replayed, self.moves)
    }
}

/// The games met so far.
pub struct Duplicates {
    met: Vec<Met>,
    store: Store,
    /// Where each file's name starts in the store, in the order first met.
    files: Vec<u64>,
    /// The last file name given, and its place in `files`.
    file: Option<(Arc<str>, u32)>,
    by_whole: Index,
    by_window: Index,
    /// `zobrist` per board size met.
    points: HashMap<u8, Vec<Box<[u64]>>>,
    /// Whether a group's most complete record is not its first, so that `resolve` answers
    /// otherwise than `meet` did.
    moved: bool,
}

impl Default for Duplicates {
    /// Everything in memory: for tests and small runs.
    fn default() -> Duplicates {
        Duplicates::with_store(Store::memory())
    }
}

/// The windows' signatures of a line: each window's points, whoever played them, as a sum of
/// a random number per point (Zobrist's hashing), so that swapped moves and exchanged colours
/// keep it; of the eight ways to turn the board, the least sum. `points[way]` holds each
/// point's number turned by `way`.
fn signatures(line: &KeyLine, points: &[Box<[u64]>]) -> Vec<u64> {
    (1..=WINDOWS)
        .take_while(|k| (k + 1) * WINDOW <= line.moves.len())
        .map(|k| {
            let window = &line.moves[k * WINDOW..(k + 1) * WINDOW];
            let least = points
                .iter()
                .map(|z| {
                    window
                        .iter()
                        .fold(0u64, |sum, &c| sum.wrapping_add(z[usize::from(c / 2)]))
                })
                .min()
                .unwrap_or(0);
            least ^ mix(k as u64)
        })
        .collect()
}

/// A number per point of a `size`×`size` board for each of the eight ways to turn it.
fn zobrist(size: u8) -> Vec<Box<[u64]>> {
    let line = KeyLine {
        size,
        setup: Box::new([]),
        moves: Box::new([]),
    };
    let n = u16::from(size) * u16::from(size);
    (0..8u8)
        .map(|way| {
            (0..n)
                .map(|i| mix(u64::from(line.turn(way, i * 2) / 2) ^ u64::from(size) << 32))
                .collect()
        })
        .collect()
}

/// SplitMix64's finaliser: numbers that differ in every bit for neighbouring inputs.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Every game met, with the copy it repeats (`Duplicates::resolve`).
pub type Resolved = io::Result<(Arc<str>, usize, Option<Duplicate>)>;

impl Duplicates {
    /// Keeps the games' stones in an unnamed file in `dir` (the output folder being written),
    /// so that memory stays small however many games a run meets.
    pub fn in_folder(dir: &Path) -> Duplicates {
        Duplicates::with_store(Store::in_folder(dir))
    }

    fn with_store(store: Store) -> Duplicates {
        Duplicates {
            met: Vec::new(),
            store,
            files: Vec::new(),
            file: None,
            by_whole: Index::default(),
            by_window: Index::default(),
            points: HashMap::new(),
            moved: false,
        }
    }

    /// Game `game` of `file`, with key `key` and stones `line`, met after every game before
    /// it in input order (`replayed`: its record replays to the end): the copy that counts
    /// so far of the game it repeats, if any. A record more complete than that copy counts
    /// from now on (`None`); `resolve` then names it for the games met before, and `demoted`
    /// lists the copy it replaces.
    pub fn meet(
        &mut self,
        file: &str,
        game: usize,
        key: &GameKey,
        line: &KeyLine,
        replayed: bool,
    ) -> io::Result<Option<Duplicate>> {
        let moves = line.moves.len();
        if moves < MIN_SAME {
            return Ok(None);
        }
        let signatures = if moves >= MIN_MOVES {
            let points = self
                .points
                .entry(line.size)
                .or_insert_with(|| zobrist(line.size));
            signatures(line, points)
        } else {
            Vec::new()
        };
        let same = self
            .by_whole
            .get(key.whole)
            .find(|&i| self.met[i as usize].whole == key.whole);
        let found = match same {
            Some(i) => Some(i),
            None => self.candidate(line, &signatures)?,
        };
        let file = match &self.file {
            Some((f, k)) if &**f == file => *k,
            _ => {
                let k = self.files.len() as u32;
                self.files.push(self.store.push_name(file));
                self.file = Some((Arc::from(file), k));
                k
            }
        };
        let i = self.met.len() as u32;
        let group = found.map_or(i, |f| self.met[f as usize].group);
        if same.is_none() {
            self.by_whole.add(key.whole, i, usize::MAX);
        }
        for s in signatures {
            self.by_window.add(s, i, BUCKET);
        }
        let at = self.store.push_line(line);
        self.met.push(Met {
            whole: key.whole,
            line: at,
            file,
            game: game as u32,
            moves: moves as u32,
            group,
            counted: i,
            replayed,
            counted_when_met: true,
        });
        if found.is_none() {
            return Ok(None);
        }
        let c = self.met[group as usize].counted;
        if self.met[c as usize].completeness() < self.met[i as usize].completeness() {
            // More complete than the copy that counted: this one counts from now on.
            self.met[group as usize].counted = i;
            self.moved = true;
            return Ok(None);
        }
        self.met[i as usize].counted_when_met = false;
        self.copy(c as usize, i as usize, line).map(Some)
    }

    /// The copy `c` that game `i` (whose stones are `line`) repeats.
    fn copy(&self, c: usize, i: usize, line: &KeyLine) -> io::Result<Duplicate> {
        let counted = &self.met[c];
        Ok(Duplicate {
            file: Arc::from(self.store.name(self.files[counted.file as usize])?),
            game: counted.game as usize,
            kind: kind(
                (counted, &self.store.line(counted.line)?),
                (&self.met[i], line),
            ),
        })
    }

    /// The game met before that `line` is most like: fewest moves missing, then fewest
    /// different, then the first met.
    fn candidate(&self, line: &KeyLine, signatures: &[u64]) -> io::Result<Option<u32>> {
        let mut seen: Vec<u32> = signatures
            .iter()
            .flat_map(|&s| self.by_window.get(s))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let mut best = None;
        for i in seen {
            let met = &self.met[i as usize];
            if (met.moves as usize).min(line.moves.len()) < MIN_MOVES {
                continue;
            }
            if let Some(l) = likeness(&self.store.line(met.line)?, line) {
                let this = (l.missing, l.differ, i);
                if best.is_none() || Some(this) < best {
                    best = Some(this);
                }
            }
        }
        Ok(best.map(|(_, _, i)| i))
    }

    /// Whether `resolve` names another copy than `meet` did for some game: a more complete
    /// copy of a game came after the one that counted.
    pub fn moved(&self) -> bool {
        self.moved
    }

    /// Every game met (`file`, `game`), in the order met, with the copy it repeats: of each
    /// game's copies the most complete counts (one that replays before one that does not,
    /// then the most moves), the first met of equal ones.
    pub fn resolve(&self) -> impl Iterator<Item = Resolved> + '_ {
        let mut name: Option<(u32, Arc<str>)> = None;
        (0..self.met.len()).map(move |i| {
            let m = &self.met[i];
            let file = match &name {
                Some((k, f)) if *k == m.file => f.clone(),
                _ => {
                    let f: Arc<str> = Arc::from(self.store.name(self.files[m.file as usize])?);
                    name = Some((m.file, f.clone()));
                    f
                }
            };
            Ok((file, m.game as usize, self.final_copy(i)?))
        })
    }

    /// The games that counted when met and are copies of a more complete one met later.
    pub fn demoted(&self) -> io::Result<Vec<(Arc<str>, usize, Duplicate)>> {
        let mut out = Vec::new();
        for (i, m) in self.met.iter().enumerate() {
            if !m.counted_when_met {
                continue;
            }
            if let Some(copy) = self.final_copy(i)? {
                let file = Arc::from(self.store.name(self.files[m.file as usize])?);
                out.push((file, m.game as usize, copy));
            }
        }
        Ok(out)
    }

    fn final_copy(&self, i: usize) -> io::Result<Option<Duplicate>> {
        let c = self.met[self.met[i].group as usize].counted as usize;
        if c == i {
            return Ok(None);
        }
        let line = self.store.line(self.met[i].line)?;
        self.copy(c, i, &line).map(Some)
    }

    /// Distinct games met (of those long enough to match).
    pub fn distinct(&self) -> usize {
        self.met
            .iter()
            .enumerate()
            .filter(|(i, m)| m.group == *i as u32)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Color, MoveList, Point};

    /// `n` distinct points of a 19×19 board in an order no game shares, as SGF points.
    fn points(n: usize, seed: u32) -> Vec<String> {
        (0..n as u32)
            .map(|i| {
                let p = (i * 37 + seed) % 361;
                format!(
                    "{}{}",
                    (b'a' + (p % 19) as u8) as char,
                    (b'a' + (p / 19) as u8) as char
                )
            })
            .collect()
    }

    /// A game of `moves` (Black first, alternating), turned by symmetry `way` (as
    /// `KeyLine::turn`, without the colours), its colours exchanged when `swap`.
    fn game(moves: &[String], way: u8, swap: bool) -> (GameKey, KeyLine) {
        let turn = |s: &str| {
            let b = s.as_bytes();
            let (mut x, mut y) = (b[0] - b'a', b[1] - b'a');
            if way & 1 != 0 {
                x = 18 - x;
            }
            if way & 2 != 0 {
                y = 18 - y;
            }
            if way & 4 != 0 {
                std::mem::swap(&mut x, &mut y);
            }
            Point::new(x, y)
        };
        let list = MoveList {
            setup: Vec::new(),
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let black = (i % 2 == 0) != swap;
                    let c = if black { Color::Black } else { Color::White };
                    (c, Some(turn(m)))
                })
                .collect(),
        };
        GameKey::with_line(19, &list).unwrap()
    }

    /// Meets each game in turn as game 0 of its file; then the final answers.
    fn meet_all(games: &[(&str, &[String])]) -> Vec<(String, Option<(String, DuplicateKind)>)> {
        let mut d = Duplicates::default();
        for (i, (file, moves)) in games.iter().enumerate() {
            let (key, line) = game(moves, (i % 8) as u8, false);
            d.meet(file, 0, &key, &line, true).unwrap();
        }
        d.resolve()
            .map(|r| r.unwrap())
            .map(|(f, _, c)| (f.to_string(), c.map(|c| (c.file.to_string(), c.kind))))
            .collect()
    }

    fn copy_of(file: &str, kind: DuplicateKind) -> Option<(String, DuplicateKind)> {
        Some((file.to_string(), kind))
    }

    #[test]
    fn a_rotated_copy_is_the_same_game() {
        let moves = points(120, 11);
        let got = meet_all(&[("a.sgf", &moves), ("b.sgf", &moves)]);
        assert_eq!(got[0].1, None);
        assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Same));
    }

    /// AlphaGo–Lee Sedol 1 in two records: moves 2 and 4 swapped, and a swap late.
    #[test]
    fn swapped_moves_are_a_variant() {
        let moves = points(186, 11);
        let mut other = moves.clone();
        other.swap(1, 3);
        other.swap(179, 181);
        other.swap(180, 182);
        let got = meet_all(&[("a.sgf", &moves), ("b.sgf", &other)]);
        assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Variant));
    }

    /// Moves left out, moves added, two moves written eight moves late (every move between
    /// shifted): the same game, as far as each move of the shorter record is found in the
    /// longer within `SHIFT` move numbers and its missing ones are few and in short runs.
    #[test]
    fn moves_left_out_added_or_moved_are_a_variant() {
        let moves = points(220, 11);
        // Points the game never plays.
        let extra = points(240, 11)[220..].to_vec();
        let insert = |at: usize, n: usize, record: &[String]| {
            let mut r = record.to_vec();
            r.splice(at..at, extra[..n].iter().cloned());
            r
        };
        let mut left_out = moves.clone();
        left_out.drain(100..104);
        let mut moved = moves.clone();
        let pair: Vec<_> = moved.drain(31..33).collect();
        moved.splice(39..39, pair);
        for other in [&left_out, &moved] {
            let got = meet_all(&[("a.sgf", &moves), ("b.sgf", other)]);
            assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Variant));
        }
        // Added to the longer record: it counts.
        let added = insert(60, 4, &moves);
        let got = meet_all(&[("a.sgf", &moves), ("b.sgf", &added)]);
        assert_eq!(got[0].1, copy_of("b.sgf", DuplicateKind::Variant));
        // Four moves of the shorter record missing from the longer, in a row (miswritten or
        // added): a slip; five, another game; ten added to the longer put its later moves
        // beyond `SHIFT`.
        let line = |m: &[String]| game(m, 0, false).1;
        let replaced = |n: usize| {
            let mut r = moves[..200].to_vec();
            r[100..100 + n].clone_from_slice(&extra[..n]);
            r
        };
        let whole = line(&moves);
        for four in [replaced(4), insert(100, 4, &moves[..200])] {
            let l = likeness(&whole, &line(&four)).unwrap();
            assert_eq!((l.missing, l.way), (4, 0));
        }
        assert_eq!(likeness(&whole, &line(&replaced(5))), None);
        assert_eq!(likeness(&whole, &line(&insert(100, 10, &moves))), None);
    }

    /// A miswritten point early (within the first windows) and one later.
    #[test]
    fn a_typo_is_a_variant() {
        let moves = points(200, 11);
        for at in [5, 37, 150] {
            let mut other = moves.clone();
            other[at] = "ss".to_string();
            let got = meet_all(&[("a.sgf", &moves), ("b.sgf", &other)]);
            assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Variant), "{at}");
        }
    }

    /// The shorter record names the longer, which counts, whichever comes first.
    #[test]
    fn a_record_cut_short_is_a_prefix_of_the_longer() {
        let moves = points(200, 11);
        let cut = moves[..91].to_vec();
        let got = meet_all(&[("a.sgf", &cut), ("b.sgf", &moves)]);
        assert_eq!(got[0].1, copy_of("b.sgf", DuplicateKind::Prefix));
        assert_eq!(got[1].1, None);
        let got = meet_all(&[("a.sgf", &moves), ("b.sgf", &cut)]);
        assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Prefix));
        // Cut short and with a swap: the adjourned first part of a game.
        let mut part = cut.clone();
        part.swap(64, 66);
        let got = meet_all(&[("a.sgf", &part), ("b.sgf", &moves)]);
        assert_eq!(got[0].1, copy_of("b.sgf", DuplicateKind::Variant));
    }

    /// Of four copies the one with the most moves counts, the first of equals; `meet` named
    /// the copy that counted so far, so `moved` says the rows must be named again and
    /// `demoted` lists the copy that no longer counts.
    #[test]
    fn the_most_complete_copy_counts() {
        let moves = points(240, 11);
        let (short, mid) = (moves[..100].to_vec(), moves[..180].to_vec());
        let mut d = Duplicates::default();
        for (i, (file, m)) in [
            ("a.sgf", &short),
            ("b.sgf", &moves),
            ("c.sgf", &mid),
            ("d.sgf", &moves),
        ]
        .into_iter()
        .enumerate()
        {
            let (key, line) = game(m, i as u8, false);
            let said = d
                .meet(file, 0, &key, &line, true)
                .unwrap()
                .map(|s| s.file.to_string());
            let so_far = ["", "", "b.sgf", "b.sgf"][i];
            assert_eq!(said.as_deref().unwrap_or(""), so_far, "{file}");
        }
        assert!(d.moved());
        let named: Vec<_> = d
            .resolve()
            .map(|r| r.unwrap().2.map(|c| (c.file.to_string(), c.kind)))
            .collect();
        assert_eq!(
            named,
            [
                copy_of("b.sgf", DuplicateKind::Prefix),
                None,
                copy_of("b.sgf", DuplicateKind::Prefix),
                copy_of("b.sgf", DuplicateKind::Same),
            ]
        );
        assert_eq!(d.distinct(), 1);
        let demoted: Vec<_> = d
            .demoted()
            .unwrap()
            .into_iter()
            .map(|(f, _, c)| (f.to_string(), c.kind))
            .collect();
        assert_eq!(demoted, [("a.sgf".to_string(), DuplicateKind::Prefix)]);
    }

    /// A record that stops at an illegal move counts only where no copy replays: met first
    /// with as many moves, it gives way to the copy that replays.
    #[test]
    fn a_copy_that_replays_counts_over_one_that_does_not() {
        let moves = points(150, 11);
        let mut typo = moves.clone();
        typo[40] = "ss".to_string();
        let mut d = Duplicates::default();
        let (key, line) = game(&typo, 0, false);
        assert_eq!(d.meet("a.sgf", 0, &key, &line, false).unwrap(), None);
        let (key, line) = game(&moves, 0, false);
        assert_eq!(d.meet("b.sgf", 0, &key, &line, true).unwrap(), None);
        assert!(d.moved());
        let named: Vec<_> = d
            .resolve()
            .map(|r| r.unwrap().2.map(|c| (c.file.to_string(), c.kind)))
            .collect();
        assert_eq!(named, [copy_of("b.sgf", DuplicateKind::Variant), None]);
    }

    /// Forfeits with a move or two, short games alike on a handful of moves, and two games
    /// sharing a long opening then parting are no copies.
    #[test]
    fn short_games_and_shared_openings_match_nothing() {
        let moves = points(200, 11);
        let one = moves[..1].to_vec();
        let short = moves[..15].to_vec();
        let got = meet_all(&[
            ("a.sgf", &one),
            ("b.sgf", &one),
            ("c.sgf", &short),
            ("d.sgf", &short),
        ]);
        assert!(got.iter().all(|(_, c)| c.is_none()), "{got:?}");
        // The same 30 moves, whole: a short game repeated.
        let thirty = moves[..30].to_vec();
        let got = meet_all(&[("a.sgf", &thirty), ("b.sgf", &thirty)]);
        assert_eq!(got[1].1, copy_of("a.sgf", DuplicateKind::Same));
        // 30 moves that begin a longer game: too short to be its prefix.
        let got = meet_all(&[("a.sgf", &thirty), ("b.sgf", &moves)]);
        assert_eq!(got[0].1, None);
        // 80 moves shared, then another game: not a variant, however short the other.
        let mut parted = moves[..80].to_vec();
        parted.extend(
            points(120, 5)
                .into_iter()
                .filter(|p| !moves[..80].contains(p)),
        );
        let cut = parted[..86].to_vec();
        for other in [&parted, &cut] {
            let got = meet_all(&[("a.sgf", &moves), ("b.sgf", other)]);
            assert_eq!(got[1].1, None, "{}", other.len());
        }
        assert_eq!(
            likeness(&game(&moves, 0, false).1, &game(&one, 0, false).1),
            None
        );
    }

    #[test]
    fn a_copy_with_the_colours_exchanged_is_its_own_kind() {
        let moves = points(150, 11);
        let mut d = Duplicates::default();
        let (key, line) = game(&moves, 0, false);
        assert_eq!(d.meet("a.sgf", 0, &key, &line, true).unwrap(), None);
        let (key, line) = game(&moves, 3, true);
        let copy = d.meet("b.sgf", 0, &key, &line, true).unwrap().unwrap();
        assert_eq!((&*copy.file, copy.kind), ("a.sgf", DuplicateKind::Colours));
    }

    /// A game and its rotated copy: the report counts the game's chains and big eyes once.
    #[test]
    fn a_rotated_copy_counts_its_chains_once() {
        // Black: the two blocks of the paper's Bild 9 in a corner, sharing two eyes, and a
        // block around a bent three-point eye; White far from both.
        let black = [
            "ba", "ca", "da", "db", "dc", "ab", "ac", "ad", "bd", "cd", "bl", "cl", "dl", "el",
            "bm", "em", "bn", "dn", "en", "bo", "co", "do", "eo",
        ];
        let white = [
            "pp", "pq", "pr", "ps", "qp", "rp", "sp", "mm", "mn", "mo", "nm", "nn", "no", "np",
            "jj", "jk", "jl", "jm", "kj", "lj", "pj", "qj", "rj",
        ];
        let record = |way: u8| {
            let turn = |s: &str| {
                let b = s.as_bytes();
                let (mut x, mut y) = (b[0], b[1]);
                if way & 1 != 0 {
                    x = b's' - (x - b'a');
                }
                if way & 2 != 0 {
                    y = b's' - (y - b'a');
                }
                format!("{}{}", x as char, y as char)
            };
            let moves: String = black
                .iter()
                .zip(&white)
                .map(|(b, w)| format!(";B[{}];W[{}]", turn(b), turn(w)))
                .collect();
            format!("(;GM[1]SZ[19]KM[6.5]RE[B+R]{moves})")
        };
        let mut d = Duplicates::default();
        let mut t = crate::report::Tally::default();
        let mut once = crate::report::Tally::default();
        for (file, way) in [("a.sgf", 0), ("b.sgf", 3)] {
            let mut a = crate::analyze::analyze_file(record(way).as_bytes());
            let g = &mut a.games[0];
            assert!(!g.chains.is_empty() && !g.big_eyes.is_empty(), "{file}");
            let (key, line) = (g.key.unwrap(), g.line.clone().unwrap());
            g.duplicate = d.meet(file, 0, &key, &line, true).unwrap();
            t.add_file(file, &a);
            if way == 0 {
                once.add_file(file, &a);
            }
        }
        assert_eq!(t.duplicates.get(&DuplicateKind::Same), Some(&1));
        assert_eq!(t.chains, once.chains);
        assert_eq!(t.big_eyes, once.big_eyes);
        assert_eq!(t.finals, once.finals);
    }
}
