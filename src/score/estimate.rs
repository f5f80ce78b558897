//! The project's own dead-stone estimate (scoring-spec §3, `estimate`).
//!
//! Assumption: the game is over, so what random play from the final position settles is what
//! the players settled. Each of `PLAYOUTS` seeded playouts plays random legal moves, never
//! filling a point whose neighbours are all the mover's own stones, until both sides pass;
//! then every point is owned by the stone on it or by the colour around it. A block is dead
//! when the opponent ends up owning most of its points over all playouts. Blocks Benson
//! proves alive are never dead. The seed is a hash of the position, so the estimate is the
//! same on every run and at every thread count.

use crate::go::board::{Board, Cell, Color, Idx};
use crate::go::random::{is_own_eye_point, Rng};

/// Playouts per position: enough that the verdict of a settled block does not flip between
/// seeds, few enough for a corpus run (see the README for ms per game).
pub const PLAYOUTS: u32 = 32;

/// The stones of `board` the estimate calls dead, in index order. `protected[i]` marks the
/// stones that must stay alive (Benson's).
pub fn estimate_dead(board: &Board, to_move: Color, protected: &[bool]) -> Vec<Idx> {
    let n = board.cell_count();
    let mut black = vec![0u32; n];
    let mut white = vec![0u32; n];
    let mut rng = Rng::new(position_hash(board, to_move));
    let mut empties = Vec::new();
    for _ in 0..PLAYOUTS {
        let end = playout(board, to_move, &mut rng, &mut empties);
        for i in end.points() {
            match owner(&end, i) {
                Some(Color::Black) => black[i] += 1,
                Some(Color::White) => white[i] += 1,
                None => {}
            }
        }
    }
    let mut dead = Vec::new();
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    let mut block = Vec::new();
    for start in board.points() {
        let Cell::Stone(c) = board.cell(start) else {
            continue;
        };
        if seen[start] {
            continue;
        }
        block.clear();
        seen[start] = true;
        stack.push(start);
        while let Some(i) = stack.pop() {
            block.push(i);
            for nb in board.neighbours(i) {
                if board.cell(nb) == Cell::Stone(c) && !seen[nb] {
                    seen[nb] = true;
                    stack.push(nb);
                }
            }
        }
        if block.iter().any(|&i| protected[i]) {
            continue;
        }
        let (own, theirs) = match c {
            Color::Black => (&black, &white),
            Color::White => (&white, &black),
        };
        let own: u32 = block.iter().map(|&i| own[i]).sum();
        let theirs: u32 = block.iter().map(|&i| theirs[i]).sum();
        if theirs > own {
            dead.extend_from_slice(&block);
        }
    }
    dead.sort_unstable();
    dead
}

/// Random play from `start` until both sides pass (or a move cap for cycles).
fn playout(start: &Board, to_move: Color, rng: &mut Rng, empties: &mut Vec<Idx>) -> Board {
    let mut b = start.clone();
    let fill = |b: &Board, empties: &mut Vec<Idx>| {
        empties.clear();
        empties.extend(b.points().filter(|&i| b.cell(i) == Cell::Empty));
    };
    fill(&b, empties);
    let cap = 3 * empties.len() + 50;
    let mut c = to_move;
    let mut passes = 0;
    for _ in 0..cap {
        let mut k = empties.len();
        let mut played = false;
        while k > 0 {
            let j = rng.below(k);
            let i = empties[j];
            if !is_own_eye_point(&b, i, c) && b.is_legal(c, i) {
                let out = b.play_at(c, i);
                if out.captured > 0 || out.suicided > 0 {
                    fill(&b, empties);
                } else {
                    empties.swap_remove(j);
                }
                played = true;
                break;
            }
            k -= 1;
            empties.swap(j, k);
        }
        if played {
            passes = 0;
        } else {
            b.pass();
            passes += 1;
            if passes == 2 {
                break;
            }
        }
        c = c.opponent();
    }
    b
}

/// Who owns a point at the end of a playout: its stone, or the one colour around it.
fn owner(b: &Board, i: Idx) -> Option<Color> {
    match b.cell(i) {
        Cell::Stone(c) => Some(c),
        Cell::Empty => {
            let mut mask = 0u8;
            for nb in b.neighbours(i) {
                if let Cell::Stone(c) = b.cell(nb) {
                    mask |= 1 << c.index();
                }
            }
            match mask {
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => None,
            }
        }
        Cell::Wall => None,
    }
}

/// FNV-1a over the cells and the player to move: the playouts' seed.
fn position_hash(b: &Board, to_move: Color) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u8| {
        h ^= u64::from(v);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(b.size());
    eat(to_move.index() as u8);
    for i in b.points() {
        eat(match b.cell(i) {
            Cell::Empty => 0,
            Cell::Stone(c) => 1 + c.index() as u8,
            Cell::Wall => 3,
        });
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(b: &Board, dead: &[Idx]) -> Vec<String> {
        dead.iter().map(|&i| b.point(i).to_string()).collect()
    }

    #[test]
    fn a_lone_stone_in_territory_is_dead_and_walls_live() {
        let b = Board::from_ascii(
            ".........
             .........
             ..O......
             .........
             XXXXXXXXX
             OOOOOOOOO
             .........
             .........
             .........",
        );
        let none = vec![false; b.cell_count()];
        let dead = estimate_dead(&b, Color::Black, &none);
        assert_eq!(points(&b, &dead), ["cc"]);
    }

    #[test]
    fn protected_blocks_are_never_dead() {
        let b = Board::from_ascii(
            ".........
             .........
             ..O......
             .........
             XXXXXXXXX
             OOOOOOOOO
             .........
             .........
             .........",
        );
        let mut protect = vec![false; b.cell_count()];
        protect[b.idx(crate::go::Point::from_sgf("cc").unwrap()).unwrap()] = true;
        assert!(estimate_dead(&b, Color::Black, &protect).is_empty());
    }

    #[test]
    fn the_estimate_is_deterministic() {
        let b = Board::from_ascii(
            "..O.X....
             .OO.X..O.
             ..OXX....
             OOX..X...
             XX..X..O.
             ...X.....
             ..X...X..
             .........
             ....O....",
        );
        let none = vec![false; b.cell_count()];
        let a = estimate_dead(&b, Color::White, &none);
        assert_eq!(a, estimate_dead(&b, Color::White, &none));
    }
}
