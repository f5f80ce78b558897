//! The playout policy of the dead-stone estimate: random play with the few rules that keep
//! settled shapes settled (capture what the last move left in atari, save what it put in
//! atari, never fill an own eye, no self-atari but a small sacrifice before passing), on the
//! `FastBoard`.

use super::fast_board::FastBoard;
use crate::go::board::{Cell, Color, Idx};
use crate::go::random::Rng;

/// Play from `start`, whose empty points `empties` lists, on `b` (its buffers reused from
/// playout to playout) until both sides pass (or a move cap for cycles). The policy is random
/// with four rules that keep settled shapes settled: capture a block the last move left in
/// atari, else save an own block it put in atari when extending gives two liberties, never
/// fill a point all of whose neighbours are the mover's own stones, and never play into atari
/// without capturing (so seki stays seki, and a
/// living group does not fill its own liberties) unless nothing else is left but a small
/// sacrifice (see `random_move`).
pub(super) fn playout(
    start: &FastBoard,
    b: &mut FastBoard,
    to_move: Color,
    rng: &mut Rng,
    empties: &mut Vec<Idx>,
) {
    b.clone_from(start);
    let cap = 3 * empties.len() + 50;
    let mut c = to_move;
    let mut passes = 0;
    let mut last: Option<Idx> = None;
    let mut sacrifices = SACRIFICES;
    for _ in 0..cap {
        let choice = match last
            .and_then(|l| capture_at(b, c, l))
            .or_else(|| last.and_then(|l| escape_at(b, c, l)))
        {
            Some(i) => empties.iter().position(|&e| e == i).map(|j| (i, j)),
            None => random_move(b, c, rng, empties, &mut sacrifices),
        };
        match choice {
            Some((i, j)) => {
                b.play(c, i);
                empties.swap_remove(j);
                empties.extend_from_slice(b.captured());
                last = Some(i);
                passes = 0;
            }
            None => {
                b.pass();
                last = None;
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
        }
        c = c.opponent();
    }
}

/// The liberty that captures the block of the stone at `last`, if that block is in atari.
fn capture_at(b: &FastBoard, c: Color, last: Idx) -> Option<Idx> {
    if b.cell(last) != Cell::Stone(c.opponent()) || !b.in_atari(last) {
        return None;
    }
    let lib = b.atari_liberty(last);
    b.is_legal(c, lib).then_some(lib)
}

/// The liberty that saves a block of `c` the last move put in atari, when extending there
/// gives it two liberties.
fn escape_at(b: &mut FastBoard, c: Color, last: Idx) -> Option<Idx> {
    for n in b.neighbours(last) {
        if b.cell(n) == Cell::Stone(c) && b.in_atari(n) {
            let lib = b.atari_liberty(n);
            if b.is_legal(c, lib) && !b.self_atari(c, lib) {
                return Some(lib);
            }
        }
    }
    None
}

/// A random legal move that fills no own eye and makes no self-atari, with its place in
/// `empties`. When there is none, a small sacrifice that puts a block of three or more
/// stones in atari (`FastBoard::small_sacrifice`), before passing: the throw-in that kills a
/// group whose eye space would be too small once it captures, and that the ban on self-atari
/// otherwise leaves standing as a false seki. Only then, so that it never replaces a
/// settling move.
fn random_move(
    b: &mut FastBoard,
    c: Color,
    rng: &mut Rng,
    empties: &mut [Idx],
    sacrifices: &mut u32,
) -> Option<(Idx, usize)> {
    let mut sacrifice = None;
    let mut k = empties.len();
    while k > 0 {
        let j = rng.below(k);
        let i = empties[j];
        if !b.is_own_eye_point(i, c) && b.is_legal(c, i) {
            if !b.self_atari(c, i) {
                return Some((i, j));
            }
            if *sacrifices > 0
                && sacrifice.is_none()
                && b.small_sacrifice(c, i, SACRIFICE, ATARI_TARGET)
            {
                sacrifice = Some(i);
            }
        }
        k -= 1;
        empties.swap(j, k);
    }
    let i = sacrifice?;
    *sacrifices -= 1;
    empties.iter().position(|&e| e == i).map(|j| (i, j))
}

/// The largest block a sacrifice may make, and the smallest block it must put in atari: the
/// most accurate of the sizes tried on kgs-6d-2017 (docs/scoring.md has the figures).
const SACRIFICE: u32 = 2;
const ATARI_TARGET: u32 = 3;

/// Sacrifices per playout: some positions send stones in and capture them back without end,
/// and unlimited sacrifices ran those playouts to their move cap for no gain in accuracy.
const SACRIFICES: u32 = 4;
