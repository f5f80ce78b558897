//! KataGo's area maps (`Board::calculateArea`, `calculateIndependentLifeArea`): Benson's
//! pass-alive groups and territory, widened by regions a single color surrounds. The net
//! sees the map as two input planes, so this follows KataGo's variant exactly: a region
//! holds the opponent's stones as well as empty points, only its empty points need touch a
//! group for the region to be vital to it unless suicide is legal, and a region bordering a
//! group that is not pass-alive is still counted for the surrounding color when nothing of
//! the opponent's is in it.
//!
//! See <https://senseis.xmp.net/?BensonsAlgorithm>.

use super::board::{opp, Board, Loc, BLACK, EMPTY, WHITE};

/// One maximal connected set of points that are empty or hold `opp(pla)` stones, grown from
/// an empty point.
struct Region {
    points: Vec<Loc>,
    /// Heads of `pla`'s groups that every (relevant) point of the region touches.
    vital_for: Vec<Loc>,
    /// Points not touching `pla`, counted up to two.
    interior: u8,
    has_opp: bool,
    borders_unsafe_group: bool,
}

/// Marks, for `pla`, its pass-alive groups and the regions it owns into `area` (indexed by
/// `Loc`), as KataGo's `calculateAreaForPla` does.
fn mark_for(
    board: &Board,
    pla: u8,
    safe_big: bool,
    unsafe_big: bool,
    suicide: bool,
    area: &mut [u8],
) {
    let other = opp(pla);
    let mut region_of: Vec<Option<usize>> = vec![None; board.cells.len()];
    let mut regions: Vec<Region> = Vec::new();
    let mut any_pla = false;
    for start in board.points() {
        if region_of[start].is_some() {
            continue;
        }
        if board.cells[start] != EMPTY {
            any_pla |= board.cells[start] == pla;
            continue;
        }
        let idx = regions.len();
        let mut vital_for: Vec<Loc> = Vec::new();
        for a in board.adjacent(start) {
            if board.cells[a] == pla && !vital_for.contains(&board.head(a)) {
                vital_for.push(board.head(a));
            }
        }
        let mut region = Region {
            points: vec![start],
            vital_for,
            interior: 0,
            has_opp: false,
            borders_unsafe_group: false,
        };
        region_of[start] = Some(idx);
        let mut i = 0;
        while i < region.points.len() {
            let p = region.points[i];
            i += 1;
            if suicide || board.cells[p] == EMPTY {
                region.vital_for.retain(|&h| board.touches_group(p, h));
            }
            if region.interior < 2 && !board.touches(p, pla) {
                region.interior += 1;
            }
            region.has_opp |= board.cells[p] == other;
            for a in board.adjacent(p) {
                if (board.cells[a] == EMPTY || board.cells[a] == other) && region_of[a].is_none() {
                    region_of[a] = Some(idx);
                    region.points.push(a);
                }
            }
        }
        regions.push(region);
    }

    let heads: Vec<Loc> = board
        .points()
        .filter(|&p| board.cells[p] == pla && board.head(p) == p)
        .collect();
    let mut vital = vec![0i32; board.cells.len()];
    for r in &regions {
        for &h in &r.vital_for {
            vital[h] += 1;
        }
    }
    let mut dead = vec![false; heads.len()];
    loop {
        let mut killed = false;
        for (k, &h) in heads.iter().enumerate() {
            if dead[k] || vital[h] >= 2 {
                continue;
            }
            dead[k] = true;
            killed = true;
            for s in board.group(h) {
                for a in board.adjacent(s) {
                    if let Some(r) = region_of[a] {
                        let r = &mut regions[r];
                        if !r.borders_unsafe_group {
                            r.borders_unsafe_group = true;
                            for &v in &r.vital_for {
                                vital[v] -= 1;
                            }
                        }
                    }
                }
            }
        }
        if !killed {
            break;
        }
    }

    for (k, &h) in heads.iter().enumerate() {
        if !dead[k] {
            for s in board.group(h) {
                area[s] = pla;
            }
        }
    }
    for r in &regions {
        let safe = any_pla && !r.borders_unsafe_group;
        if safe && (r.interior <= 1 || (safe_big && !r.has_opp)) {
            for &p in &r.points {
                area[p] = pla;
            }
        } else if unsafe_big && any_pla && !r.has_opp {
            for &p in &r.points {
                if area[p] == EMPTY {
                    area[p] = pla;
                }
            }
        }
    }
}

/// KataGo's `calculateArea`: black's then white's marks; with `stones_elsewhere`, every
/// point left unmarked takes the color of its stone.
pub(crate) fn area(
    board: &Board,
    stones_elsewhere: bool,
    safe_big: bool,
    unsafe_big: bool,
    suicide: bool,
) -> Vec<u8> {
    let mut area = vec![EMPTY; board.cells.len()];
    mark_for(board, BLACK, safe_big, unsafe_big, suicide, &mut area);
    mark_for(board, WHITE, safe_big, unsafe_big, suicide, &mut area);
    if stones_elsewhere {
        for p in board.points() {
            if area[p] == EMPTY {
                area[p] = board.cells[p];
            }
        }
    }
    area
}

/// KataGo's `calculateIndependentLifeArea`, for the seki and group taxes: the area of
/// `area(.., true, true, true, ..)`, less every region of it that touches a neutral point or
/// holds its owner's stone in atari (a seki). Also returns white's independent regions
/// minus black's.
pub(crate) fn independent_life_area(
    board: &Board,
    keep_territories: bool,
    keep_stones: bool,
    suicide: bool,
) -> (Vec<u8>, i32) {
    let basic = area(board, true, true, true, suicide);
    let mut seki = vec![false; board.cells.len()];
    let flood = |from: Loc, mark: &mut Vec<bool>, hit: &dyn Fn(Loc, &[bool]) -> bool| {
        let mut queue = vec![from];
        mark[from] = true;
        let mut i = 0;
        while i < queue.len() {
            for a in board.adjacent(queue[i]) {
                if hit(a, mark) {
                    mark[a] = true;
                    queue.push(a);
                }
            }
            i += 1;
        }
    };
    for p in board.points() {
        if basic[p] == EMPTY || seki[p] {
            continue;
        }
        let in_atari = board.cells[p] == basic[p] && board.liberties(p) == 1;
        let by_dame = board
            .adjacent(p)
            .iter()
            .any(|&a| board.cells[a] == EMPTY && basic[a] == EMPTY);
        if in_atari || by_dame {
            let owner = basic[p];
            flood(p, &mut seki, &|a, m| basic[a] == owner && !m[a]);
        }
    }

    let mut result = vec![EMPTY; board.cells.len()];
    let mut done = vec![false; board.cells.len()];
    let mut white_minus_black = 0;
    for p in board.points() {
        if basic[p] == EMPTY || seki[p] || done[p] {
            continue;
        }
        let owner = basic[p];
        white_minus_black += if owner == WHITE { 1 } else { -1 };
        flood(p, &mut done, &|a, m| basic[a] == owner && !m[a]);
    }
    for p in board.points() {
        if done[p] {
            result[p] = basic[p];
        }
        let stone = basic[p] != EMPTY && basic[p] == board.cells[p];
        let territory = basic[p] != EMPTY && basic[p] != board.cells[p];
        if (keep_territories && territory) || (keep_stones && stone) {
            result[p] = basic[p];
        }
    }
    (result, white_minus_black)
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::board;
    use super::*;

    fn ascii(b: &Board, area: &[u8]) -> Vec<String> {
        (0..b.size)
            .map(|y| {
                (0..b.size)
                    .map(|x| match area[b.loc(x, y)] {
                        BLACK => 'x',
                        WHITE => 'o',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    fn pass_alive(rows: &[&str], suicide: bool) -> Vec<String> {
        let b = board(rows);
        ascii(&b, &area(&b, false, false, false, suicide))
    }

    #[test]
    fn two_eyes_are_pass_alive() {
        let rows = [
            ". X . X O . .", //
            "X X X X O . .", //
            "O O O O O . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .",
        ];
        assert_eq!(
            pass_alive(&rows, false),
            ["xxxx...", "xxxx...", ".......", ".......", ".......", ".......", "......."]
                .map(String::from)
        );
    }

    #[test]
    fn one_eye_is_not() {
        let rows = [
            ". . X O . . .", //
            "X X X O . . .", //
            "O O O O . . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .",
        ];
        assert!(pass_alive(&rows, false).concat().chars().all(|c| c == '.'));
    }

    #[test]
    fn a_dead_stone_inside_an_eye_is_the_owners_area() {
        let rows = [
            ". X O . X O .", //
            "X X X X X O .", //
            "O O O O O O .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .",
        ];
        assert_eq!(pass_alive(&rows, false)[0], "xxxxx..");
    }

    #[test]
    fn the_suicide_rule_changes_what_is_vital() {
        // The eye around c3 holds a white stone that touches no black stone: it is vital
        // only when suicide is illegal, when only empty points must touch the group.
        let rows = [
            "X X X X X . X", //
            "X X . X X X X", //
            "X . O . X O O", //
            "X X . X X O .", //
            "X X X X X O .", //
            "O O O O O O .", //
            ". . . . . . .",
        ];
        let without = pass_alive(&rows, false);
        assert_eq!(
            without[..3],
            ["xxxxxxx", "xxxxxxx", "xxxxx.."].map(String::from)
        );
        assert!(pass_alive(&rows, true).concat().chars().all(|c| c == '.'));
    }

    #[test]
    fn seki_liberties_are_nobodys_area() {
        let b = board(&[
            "X . O", //
            "X . O", //
            "X O O",
        ]);
        let a = area(&b, true, true, true, false);
        assert_eq!(ascii(&b, &a), ["x.o", "x.o", "xoo"].map(String::from));
        let (life, count) = independent_life_area(&b, false, false, false);
        assert!(ascii(&b, &life).concat().chars().all(|c| c == '.'));
        assert_eq!(count, 0);
    }

    #[test]
    fn independent_life_counts_regions_per_color() {
        let b = board(&[
            ". X O . .", //
            "X X O . .", //
            ". X O . .", //
            "X X O . .", //
            ". X O . .",
        ]);
        let (life, count) = independent_life_area(&b, false, false, false);
        assert_eq!(ascii(&b, &life), ["xxooo"; 5].map(String::from));
        assert_eq!(count, 0);
        let b = board(&[
            ". X O . .", //
            "X X O . .", //
            ". X . O .", //
            "X X O . .", //
            ". X O . .",
        ]);
        let (life, _) = independent_life_area(&b, false, true, false);
        assert_eq!(ascii(&b, &life)[0], ".xo..");
    }
}
