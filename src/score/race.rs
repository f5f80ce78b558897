//! A capture reader for blocks short of liberties at the end of a game. The playouts settle
//! what random play settles, but a capturing race between blocks of two or three liberties
//! is won by exact order (who fills which liberty, and when a throw-in shortens the other
//! side), and random play gets that order wrong about as often as right. The reader plays
//! it out: a block is dead when its owner has no move, passing included, after which the
//! opponent cannot capture it. Whatever the reader cannot prove within its budget is left to
//! the playouts.

use super::fast_board::FastBoard;
use crate::go::board::{Cell, Color, Idx};

/// A block with this many liberties is out of the reader's reach: it counts as safe.
const SAFE: usize = 4;
/// Plies per question: a race of three liberties each, with a throw-in, fits.
const DEPTH: u32 = 12;
/// Positions visited per question; past it the answer is "not proven".
const NODES: u32 = 500;

/// Whether the block of the stone at `t` is captured whoever moves first.
pub fn captured_either_way(b: &FastBoard, t: Idx) -> bool {
    let Cell::Stone(owner) = b.cell(t) else {
        return false;
    };
    let mut r = Reader {
        owner,
        nodes: NODES,
        spare: Vec::new(),
    };
    !r.defend(&mut b.clone(), t, DEPTH)
}

struct Reader {
    /// The colour of the block read.
    owner: Color,
    nodes: u32,
    /// Boards to copy a position into before a move, one per ply in use, reused so that a
    /// node costs a copy and no allocation.
    spare: Vec<FastBoard>,
}

impl Reader {
    /// A copy of `b` in a spare board.
    fn copy(&mut self, b: &FastBoard) -> FastBoard {
        match self.spare.pop() {
            Some(mut next) => {
                next.clone_from(b);
                next
            }
            None => b.clone(),
        }
    }

    /// Whether the attacker, to move, captures the block of `t`.
    fn attack(&mut self, b: &mut FastBoard, t: Idx, depth: u32) -> bool {
        let a = self.owner.opponent();
        let mut libs = Vec::with_capacity(SAFE + 1);
        b.liberties(t, SAFE, &mut libs);
        if libs.len() == 1 {
            return b.is_legal(a, libs[0]);
        }
        if libs.len() >= SAFE || depth == 0 || self.nodes == 0 {
            return false;
        }
        let mut moves = libs;
        // The attacker's blocks beside the target that are short of liberties too:
        // lengthen them, by extending or by taking a block of the owner's in atari.
        self.race_moves(b, t, 2, &mut moves);
        dedup(&mut moves);
        for m in moves {
            if !b.is_legal(a, m) || self.nodes == 0 {
                continue;
            }
            self.nodes -= 1;
            let mut next = self.copy(b);
            next.play(a, m);
            let held = self.defend(&mut next, t, depth - 1);
            self.spare.push(next);
            if !held {
                return true;
            }
        }
        false
    }

    /// Whether the owner, to move, keeps the block of `t` from capture.
    fn defend(&mut self, b: &mut FastBoard, t: Idx, depth: u32) -> bool {
        if b.cell(t) != Cell::Stone(self.owner) {
            return false;
        }
        let mut libs = Vec::with_capacity(SAFE + 1);
        b.liberties(t, SAFE, &mut libs);
        if libs.len() >= SAFE || depth == 0 || self.nodes == 0 {
            return true;
        }
        let have = libs.len();
        let mut moves = libs;
        // Shorten or take the attacker's blocks beside the target that are short of
        // liberties themselves (the race), and save the owner's blocks in atari beside them.
        self.race_moves(b, t, SAFE - 1, &mut moves);
        dedup(&mut moves);
        let mut after = Vec::new();
        for m in moves {
            if !b.is_legal(self.owner, m) || self.nodes == 0 {
                continue;
            }
            self.nodes -= 1;
            let extends = b
                .neighbours(m)
                .into_iter()
                .any(|n| b.cell(n) == Cell::Stone(self.owner) && b.head(n) == b.head(t));
            let mut next = self.copy(b);
            let took = next.play(self.owner, m);
            // An extension that gains no liberty only shortens the target.
            if extends && took == 0 {
                next.liberties(t, have, &mut after);
                if after.len() <= have {
                    self.spare.push(next);
                    continue;
                }
            }
            let taken = self.attack(&mut next, t, depth - 1);
            self.spare.push(next);
            if !taken {
                return true;
            }
        }
        self.nodes = self.nodes.saturating_sub(1);
        b.pass();
        !self.attack(b, t, depth - 1)
    }

    /// The liberties of the attacker's blocks beside the target that have at most `most`
    /// liberties, and the last liberty of each of the owner's blocks in atari beside those:
    /// the points where the race between them is fought, for either side.
    fn race_moves(&self, b: &mut FastBoard, t: Idx, most: usize, moves: &mut Vec<Idx>) {
        let (mut theirs, mut libs, mut mine) = (Vec::new(), Vec::new(), Vec::new());
        b.neighbour_blocks(t, self.owner.opponent(), &mut theirs);
        for &o in &theirs {
            b.liberties(o, most, &mut libs);
            if libs.len() > most {
                continue;
            }
            moves.extend_from_slice(&libs);
            b.neighbour_blocks(o, self.owner, &mut mine);
            for &m in &mine {
                if b.in_atari(m) {
                    moves.push(b.atari_liberty(m));
                }
            }
        }
    }
}

/// Drops repeated moves, keeping the first of each.
fn dedup(moves: &mut Vec<Idx>) {
    let mut k = 0;
    for j in 0..moves.len() {
        if !moves[..k].contains(&moves[j]) {
            moves[k] = moves[j];
            k += 1;
        }
    }
    moves.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;
    use crate::go::Point;

    fn at(b: &Board, p: &str) -> Idx {
        b.idx(Point::from_sgf(p).unwrap()).unwrap()
    }

    /// White's three stones in the corner have two liberties, one shared with Black's
    /// stone at ab. Black filling either liberty leaves White no move that saves them, and
    /// White filling one is self-atari.
    #[test]
    fn a_corner_race_the_defender_loses_even_moving_first() {
        let b = Board::from_ascii(
            ".O.XXXO
             XOOXXOO
             .XXXXO.
             XXXOOOO
             XXXXXO.
             .......
             .......",
        );
        let f = FastBoard::from_board(&b);
        assert!(captured_either_way(&f, at(&b, "ba")));
    }

    /// Black's corner block has two liberties (a two-point eye) and races White's blocks
    /// of three: it loses even moving first, and White's block beside it lives.
    #[test]
    fn the_block_short_of_liberties_loses_the_race() {
        let b = Board::from_ascii(
            "..XO...
             XXXOOOO
             OOOXXXX
             .......
             .......
             .......
             .......",
        );
        let f = FastBoard::from_board(&b);
        assert!(captured_either_way(&f, at(&b, "ca")));
        assert!(!captured_either_way(&f, at(&b, "da")));
    }

    /// A block in atari that its owner can connect to a living block is not dead.
    #[test]
    fn a_block_that_can_connect_out_is_not_dead() {
        let b = Board::from_ascii(
            ".......
             ..XO...
             .XO.O..
             ..XO...
             .......
             .......
             .......",
        );
        let f = FastBoard::from_board(&b);
        assert!(!captured_either_way(&f, at(&b, "cc")));
    }

    /// OGS's `seki_one_false_eye`: Black's two stones and White's block share both
    /// liberties, and neither side may fill one. The wall around is loose, but taking it
    /// is no part of the race.
    #[test]
    fn a_seki_with_one_false_eye_is_not_dead() {
        let b = Board::from_ascii(
            ".X.OX....
             OXOOX....
             .OOX.....
             OOX.X....
             XX.X.....
             .........
             .........
             .........
             .........",
        );
        let f = FastBoard::from_board(&b);
        assert!(!captured_either_way(&f, at(&b, "ba")));
    }
}
