//! The project's own dead-stone estimate (scoring-spec §3, `estimate`).
//!
//! Assumption: the game is over, so what random play from the final position settles is what
//! the players settled. `PLAYOUTS` seeded playouts (fewer when the first already judge every
//! group clearly: `LOOKS`) play under a light policy (see `playout`)
//! until both sides pass; then every point is owned by the stone on it or by the colour
//! around it. Stones are judged by group (blocks sharing a liberty): a group is dead when the
//! opponent ends up owning most of its stones and of the empty regions it touches, or when all
//! its liberties lie in one small eye inside a wall the opponent keeps (`one_small_eye`: what
//! the policy's refusal of self-atari cannot kill), or when it is a bent four in the corner
//! waiting to happen (`bent_four_in_the_corner`: dead by the Japanese ruling, and in practice
//! under every rule set); Benson proves none of it alive; and it would
//! lie in the opponent's territory once the dead are removed (`settle`). A block of a group
//! the playouts keep is dead too when it loses a capturing race whoever moves first (`race`):
//! random play settles races by luck. The seed is a hash of the position, so the estimate is the
//! same on every run and at every thread count.

use super::count::EmptyRegions;
use super::fast_board::FastBoard;
use super::playout::playout;
use super::race::captured_either_way;
use crate::go::board::{Board, Cell, Color, Idx};
use crate::go::random::{Fnv1a, Rng};
use crate::life::big_eyes::shape_worth;

/// Playouts per position: more were no more accurate on kgs-6d-2017 at twice the time, fewer
/// were less accurate (docs/scoring.md has the figures).
pub const PLAYOUTS: u32 = 64;

/// When the estimate looks at the playouts so far: after this many, it stops when every group
/// went one way in at least this share of its points, in percent (`settled`). The later
/// looks ask less, as the counts behind them are larger (docs/scoring.md has what each look
/// changed, and the looser ones tried).
const LOOKS: [(u32, u32); 3] = [(16, 75), (32, 67), (48, 55)];

/// The stones of `board` the estimate calls dead, in index order. `protected[i]` marks the
/// stones that must stay alive (Benson's).
pub fn estimate_dead(board: &Board, to_move: Color, protected: &[bool]) -> Vec<Idx> {
    estimate(board, to_move, protected).dead
}

/// The estimate's verdict and what the playouts behind it did to each stone.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The stones it calls dead, in index order.
    pub dead: Vec<Idx>,
    /// Playouts played.
    pub playouts: u32,
    /// Per point: the playouts at whose end its stone's colour held it (0 for empty points).
    kept: Vec<u32>,
}

impl Estimate {
    /// The share of the playouts in which the stone at `i` was captured or ended in the
    /// opponent's area: how sure the playouts are that it dies.
    pub fn dead_share(&self, i: Idx) -> f32 {
        if self.playouts == 0 {
            return 0.0;
        }
        1.0 - self.kept[i] as f32 / self.playouts as f32
    }
}

/// `estimate_dead`, with the playouts' counts.
pub fn estimate(board: &Board, to_move: Color, protected: &[bool]) -> Estimate {
    let n = board.cell_count();
    let mut black = vec![0u32; n];
    let mut white = vec![0u32; n];
    let mut rng = Rng::new(position_hash(board, to_move));
    let mut empties = Vec::new();
    let mut fast = FastBoard::from_board(board);
    let start_empties: Vec<Idx> = board
        .points()
        .filter(|&i| board.cell(i) == Cell::Empty)
        .collect();
    let mut end = fast.clone();
    let mut played = PLAYOUTS;
    let groups = groups(board, protected);
    for k in 0..PLAYOUTS {
        let look = LOOKS.iter().find(|&&(at, _)| at == k);
        if look.is_some_and(|&(_, share)| settled(&groups, &black, &white, share)) {
            played = k;
            break;
        }
        empties.clear();
        empties.extend_from_slice(&start_empties);
        playout(&fast, &mut end, to_move, &mut rng, &mut empties);
        for i in end.points() {
            match owner(&end, i) {
                Some(Color::Black) => black[i] += 1,
                Some(Color::White) => white[i] += 1,
                None => {}
            }
        }
    }
    let mut dead_blocks = Vec::new();
    for group in &groups {
        let g = group.judged(&black, &white);
        if (g.lost > g.owned && !has_two_eyes(board, &mut fast, g.stones, g.colour))
            || one_small_eye(board, g.stones, g.theirs, played)
            || bent_four_in_the_corner(board, &mut fast, g.stones, g.theirs, played)
        {
            dead_blocks.push((g.colour, g.stones.to_vec()));
        } else {
            lost_races(&mut fast, g.colour, g.stones, &mut dead_blocks);
        }
    }
    let mut dead = revive(board, dead_blocks);
    dead.sort_unstable();
    let kept = (0..n)
        .map(|i| match board.cell(i) {
            Cell::Stone(Color::Black) => black[i],
            Cell::Stone(Color::White) => white[i],
            _ => 0,
        })
        .collect();
    Estimate {
        dead,
        playouts: played,
        kept,
    }
}

/// Whether the playouts so far already judge every group clearly: the points of each (its
/// stones and the empty regions it touches) went at least `share` percent its owner's way or
/// the other. The rest of the playouts would not change the verdicts then, and they cost most
/// of a scored game's time (docs/scoring.md has what stopping early changed).
fn settled(groups: &[Group], black: &[u32], white: &[u32], share: u32) -> bool {
    groups.iter().all(|group| {
        let g = group.judged(black, white);
        let all = g.owned + g.lost;
        100 * g.owned >= share * all || 100 * g.lost >= share * all
    })
}

/// A group (blocks sharing a liberty) of no protected stone, and the empty regions it
/// touches: what the playouts' counts are summed over.
struct Group {
    colour: Color,
    stones: Vec<Idx>,
    around: Vec<Idx>,
}

/// A group as the playouts judged it.
struct Judged<'a> {
    colour: Color,
    stones: &'a [Idx],
    /// Playout ends at which its owner, or the opponent, held its points (its stones and the
    /// empty regions it touches), summed over the points.
    owned: u32,
    lost: u32,
    /// Per point, the playout ends the opponent held it at.
    theirs: &'a [u32],
}

impl Group {
    fn judged<'a>(&'a self, black: &'a [u32], white: &'a [u32]) -> Judged<'a> {
        let (own, theirs) = match self.colour {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        let points = || self.stones.iter().chain(&self.around);
        Judged {
            colour: self.colour,
            stones: &self.stones,
            owned: points().map(|&i| own[i]).sum(),
            lost: points().map(|&i| theirs[i]).sum(),
            theirs,
        }
    }
}

/// The groups of no protected stone, in the order of their first stones. Found once: the
/// board does not change while the playouts are looked at.
fn groups(board: &Board, protected: &[bool]) -> Vec<Group> {
    let cells = board.cell_count();
    let (mut seen, mut near) = (vec![false; cells], vec![false; cells]);
    let (mut stones, mut around) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for start in board.points() {
        let Cell::Stone(c) = board.cell(start) else {
            continue;
        };
        if seen[start] {
            continue;
        }
        collect_group(board, start, c, &mut seen, &mut stones);
        if stones.iter().any(|&i| protected[i]) {
            continue;
        }
        surroundings(board, &stones, &mut near, &mut around);
        out.push(Group {
            colour: c,
            stones: stones.clone(),
            around: around.clone(),
        });
    }
    out
}

/// The blocks of a group of `c` the playouts keep alive that lose a capturing race whoever moves
/// first (see `race`): blocks of at most three liberties beside an opponent block.
fn lost_races(fast: &mut FastBoard, c: Color, group: &[Idx], dead: &mut Vec<(Color, Vec<Idx>)>) {
    let (mut heads, mut libs, mut beside) = (Vec::new(), Vec::new(), Vec::new());
    for &g in group {
        let h = fast.head(g);
        if heads.contains(&h) {
            continue;
        }
        heads.push(h);
        fast.liberties(g, 3, &mut libs);
        fast.neighbour_blocks(g, c.opponent(), &mut beside);
        if libs.len() <= 3 && !beside.is_empty() && captured_either_way(fast, g) {
            dead.push((c, fast.stones(g)));
        }
    }
}

/// Whether `group` (of `c`) has two eyes' worth of empty areas that its own colour alone walls
/// in, each held by blocks of two liberties or more with one outside the area: a one-point
/// area counts when it cannot be made a false eye (no diagonal point other than an own stone
/// on the edge, at most one inside), a larger one by the big-eye table with the opponent to
/// move (one eye in a corner, where the bent four has a straight four's counts, or for a
/// shape the table does not list). The playouts' random policy does not answer a move inside
/// an eye shape, so they can lose a large group that has this much eye space, and that
/// misreading costs a count the group's whole area. Areas whose walls have no liberty outside
/// them are left to the playouts: counting them too spared the scattered stones of dead
/// groups inside the opponent's area (docs/scoring.md).
fn has_two_eyes(board: &Board, fast: &mut FastBoard, group: &[Idx], c: Color) -> bool {
    let mut seen = vec![false; board.cell_count()];
    let (mut area, mut libs) = (Vec::new(), Vec::new());
    let mut eyes = 0;
    for &s in group {
        for start in board.neighbours(s) {
            if board.cell(start) != Cell::Empty || seen[start] {
                continue;
            }
            let walled = walled_area(board, start, c, &mut seen, &mut area);
            // More liberties than the area has points: one of them lies outside it.
            let mut held = || {
                area.iter().flat_map(|&p| board.neighbours(p)).all(|n| {
                    board.cell(n) != Cell::Stone(c) || {
                        fast.liberties(n, area.len() + 1, &mut libs);
                        libs.len() >= 2 && libs.iter().any(|l| !area.contains(l))
                    }
                })
            };
            if !walled || !held() {
                continue;
            }
            eyes += match area[..] {
                [p] => usize::from(real_eye(board, p, c)),
                _ if area.iter().any(|&p| in_corner(board, p)) => 1,
                _ => shape_worth(board, &area).map_or(1, |(_, opponent_first)| opponent_first),
            };
            if eyes >= 2 {
                return true;
            }
        }
    }
    false
}

/// The empty area connected to the empty `start`, into `area`; whether no opponent stone
/// borders it.
fn walled_area(
    board: &Board,
    start: Idx,
    c: Color,
    seen: &mut [bool],
    area: &mut Vec<Idx>,
) -> bool {
    area.clear();
    area.push(start);
    seen[start] = true;
    let mut walled = true;
    let mut k = 0;
    while k < area.len() {
        for n in board.neighbours(area[k]) {
            match board.cell(n) {
                Cell::Empty if !seen[n] => {
                    seen[n] = true;
                    area.push(n);
                }
                Cell::Stone(o) if o != c => walled = false,
                _ => {}
            }
        }
        k += 1;
    }
    walled
}

/// The four diagonal points of `i` in the padded array (walls off the board).
fn diagonals(board: &Board, i: Idx) -> [Idx; 4] {
    let s = board.stride();
    [i - s - 1, i - s + 1, i + s - 1, i + s + 1]
}

/// Whether `i` is a corner point (two walls beside it).
fn in_corner(board: &Board, i: Idx) -> bool {
    board
        .neighbours(i)
        .into_iter()
        .filter(|&n| board.cell(n) == Cell::Wall)
        .count()
        >= 2
}

/// Whether `i` is on the edge (a wall beside it).
fn on_edge(board: &Board, i: Idx) -> bool {
    board
        .neighbours(i)
        .into_iter()
        .any(|n| board.cell(n) == Cell::Wall)
}

/// Whether the one-point eye of `c` at `i` stays an eye whatever the opponent plays on its
/// diagonals: on the edge all of them are `c`'s stones, inside all but one.
fn real_eye(board: &Board, i: Idx, c: Color) -> bool {
    let not_own = diagonals(board, i)
        .into_iter()
        .filter(|&d| !matches!(board.cell(d), Cell::Wall) && board.cell(d) != Cell::Stone(c))
        .count();
    not_own <= usize::from(!on_edge(board, i))
}

/// Eye spaces up to this many points (opponent stones inside included) make one eye at most.
const SMALL_EYE: usize = 3;

/// Whether `group` has all its liberties in one space of at most `SMALL_EYE` points walled in
/// by the group alone, and the opponent stones around the group live in nearly every playout.
/// Such a group has one eye and is dead; the playouts miss it because their policy never
/// plays the self-atari inside the eye that kills it (a two-point eye in the corner, a bent
/// three).
fn one_small_eye(board: &Board, group: &[Idx], theirs: &[u32], played: u32) -> bool {
    let Cell::Stone(c) = board.cell(group[0]) else {
        return false;
    };
    let (libs, mut wall) = liberties_and_wall(board, group, c);
    let Some(&first) = libs.first() else {
        return false;
    };
    // The points not of `c` connected to the first liberty, one past the limit at most.
    let mut space = vec![first];
    let mut k = 0;
    while k < space.len() && space.len() <= SMALL_EYE {
        for nb in board.neighbours(space[k]) {
            // An opponent stone is inside the eye when all its liberties are the group's.
            let open = match board.cell(nb) {
                Cell::Empty => true,
                Cell::Stone(o) => {
                    o != c
                        && board
                            .neighbours(nb)
                            .into_iter()
                            .all(|x| board.cell(x) != Cell::Empty || libs.contains(&x))
                }
                Cell::Wall => false,
            };
            if open && !space.contains(&nb) {
                space.push(nb);
            }
        }
        k += 1;
    }
    let one_space = space.len() <= SMALL_EYE && libs.iter().all(|l| space.contains(l));
    let walled_by_group = || {
        space.iter().all(|&i| {
            board
                .neighbours(i)
                .into_iter()
                .all(|nb| board.cell(nb) != Cell::Stone(c) || group.contains(&nb))
        })
    };
    wall.retain(|w| !space.contains(w));
    one_space && strong(&wall, theirs, played) && walled_by_group()
}

/// The empty points beside `group` (of colour `c`) and the opponent stones beside it.
fn liberties_and_wall(board: &Board, group: &[Idx], c: Color) -> (Vec<Idx>, Vec<Idx>) {
    let (mut libs, mut wall) = (Vec::new(), Vec::new());
    for &g in group {
        for nb in board.neighbours(g) {
            match board.cell(nb) {
                Cell::Empty if !libs.contains(&nb) => libs.push(nb),
                Cell::Stone(o) if o != c && !wall.contains(&nb) => wall.push(nb),
                _ => {}
            }
        }
    }
    (libs, wall)
}

/// Whether the opponent stones `wall` live in nearly every one of the `played` playouts.
fn strong(wall: &[Idx], theirs: &[u32], played: u32) -> bool {
    let alive: u32 = wall.iter().map(|&w| theirs[w]).sum();
    !wall.is_empty() && 10 * alive >= 9 * played * wall.len() as u32
}

/// Whether `group` is a bent four in the corner waiting to happen: its only two liberties
/// are those of a three-stone opponent block inside it, and once the opponent fills either
/// one and the group captures, the four points left empty are the bent four in the corner.
/// The group cannot fill a liberty without being captured, so the opponent picks the moment
/// for a ko the group cannot win: Japanese rules call the group dead outright, and under
/// area rules the opponent removes every ko threat first at no cost (kgs-6d-2017 marks it
/// dead under both). The playouts see a seki.
fn bent_four_in_the_corner(
    board: &Board,
    fast: &mut FastBoard,
    group: &[Idx],
    theirs: &[u32],
    played: u32,
) -> bool {
    let Cell::Stone(c) = board.cell(group[0]) else {
        return false;
    };
    let (libs, mut wall) = liberties_and_wall(board, group, c);
    let [p, q] = libs[..] else {
        return false;
    };
    let mut inside_libs = Vec::new();
    for a in fast.neighbours(p) {
        if fast.cell(a) != Cell::Stone(c.opponent()) {
            continue;
        }
        fast.liberties(a, 2, &mut inside_libs);
        let inside = fast.stones(a);
        let enclosed = inside.iter().all(|&s| {
            fast.neighbours(s).into_iter().all(|n| match fast.cell(n) {
                Cell::Stone(o) if o == c => group.contains(&n),
                _ => true,
            })
        });
        if inside.len() != 3 || inside_libs.len() != 2 || !inside_libs.contains(&q) || !enclosed {
            continue;
        }
        wall.retain(|w| !inside.contains(w));
        return strong(&wall, theirs, played)
            && [p, q].into_iter().any(|x| {
                let mut space = inside.clone();
                space.push(x);
                corner_bent_four(fast, &space)
            });
    }
    false
}

/// Whether the four points `space` are the bent four in the corner: the corner point, both
/// its neighbours, and the next point along one edge.
fn corner_bent_four(b: &FastBoard, space: &[Idx]) -> bool {
    let on_board = |i: Idx| {
        b.neighbours(i)
            .into_iter()
            .filter(move |&n| b.cell(n) != Cell::Wall)
    };
    space.iter().any(|&k| {
        let arms: Vec<Idx> = on_board(k).collect();
        arms.len() == 2
            && arms.iter().all(|a| space.contains(a))
            && space.iter().any(|&f| {
                f != k
                    && !arms.contains(&f)
                    && arms.iter().any(|&a| b.neighbours(a).contains(&f))
                    && on_board(f).count() == 3
            })
    })
}

/// Revives dead blocks that would not lie in the opponent's territory: with every dead block
/// removed, each dead stone's empty region must be bordered by the opponent alone, as it is
/// when a server counts, or be so but for one dame on its edge (`behind_a_dame`). Reviving
/// one block can change another's region, so this repeats.
fn revive(board: &Board, mut blocks: Vec<(Color, Vec<Idx>)>) -> Vec<Idx> {
    loop {
        let mut b = board.clone();
        for (_, stones) in &blocks {
            for &i in stones {
                let p = b.point(i);
                b.setup(p, None).expect("on-board point");
            }
        }
        let regions = EmptyRegions::find(&b);
        let before = blocks.len();
        blocks.retain(|(c, stones)| {
            regions.owner(stones[0]) == Some(c.opponent()) || behind_a_dame(board, &b, stones, *c)
        });
        if blocks.len() == before {
            return blocks.into_iter().flat_map(|(_, s)| s).collect();
        }
    }
}

/// Whether the dead stones of `c` (`stones` of `board`, removed from `b` with the other dead
/// stones) lie in the opponent's area but for one dame: their empty region, grown from their
/// points, meets the opponent's stones, and the only points where it touches a stone of `c`
/// are one point that touches the opponent too and not the dead stones. The record stops
/// before the dame are filled, so a dead group whose way out runs through an empty point to
/// an open dame is still in the opponent's area: its owner needs two moves to connect it,
/// the opponent one to cut it off (Hoensha/D18-7: White's seven stones at E18-K18 behind the
/// dame E16). Once the dame is filled the opponent takes the stones (`finish`'s `cut_off`).
/// Only for a group of two stones or more with at most two liberties on `board`, short of
/// them as a cut-off group is: a lone stone behind a dame is as often the owner's cutting
/// stone, still connected in the players' count, and a group with more liberties, or eyes,
/// that the playouts kill and that reaches its own side is a fight they misread as often as
/// not (docs/scoring.md has the figures). Not for a dame beside the stones either, which
/// their owner connects in one move.
fn behind_a_dame(board: &Board, b: &Board, stones: &[Idx], c: Color) -> bool {
    if stones.len() < 2 || !short_of_liberties(board, stones) {
        return false;
    }
    let touches = |i: Idx, colour: Color| {
        b.neighbours(i)
            .into_iter()
            .any(|n| b.cell(n) == Cell::Stone(colour))
    };
    let mut seen = vec![false; b.cell_count()];
    let mut todo = Vec::new();
    for &s in stones {
        if touches(s, c) {
            return false;
        }
        seen[s] = true;
        todo.push(s);
    }
    let beside_the_stones = |i: Idx| b.neighbours(i).into_iter().any(|n| stones.contains(&n));
    let (mut opponent, mut dame) = (false, false);
    while let Some(i) = todo.pop() {
        for n in b.neighbours(i) {
            match b.cell(n) {
                Cell::Stone(o) => opponent |= o != c,
                Cell::Empty if !seen[n] => {
                    seen[n] = true;
                    if !touches(n, c) {
                        todo.push(n);
                    } else if touches(n, c.opponent()) && !beside_the_stones(n) && !dame {
                        dame = true;
                    } else {
                        return false;
                    }
                }
                _ => {}
            }
        }
    }
    opponent && dame
}

/// Whether the group of `stones` has at most two liberties (`behind_a_dame`).
fn short_of_liberties(board: &Board, stones: &[Idx]) -> bool {
    let mut libs: Vec<Idx> = stones
        .iter()
        .flat_map(|&s| board.neighbours(s))
        .filter(|&n| board.cell(n) == Cell::Empty)
        .collect();
    libs.sort_unstable();
    libs.dedup();
    libs.len() <= 2
}

/// The stones of `c` reachable from `start` through own stones and through single empty
/// points: blocks that share a liberty live or die together far more often than not.
fn collect_group(board: &Board, start: Idx, c: Color, seen: &mut [bool], group: &mut Vec<Idx>) {
    group.clear();
    seen[start] = true;
    group.push(start);
    let mut k = 0;
    while k < group.len() {
        let i = group[k];
        k += 1;
        for nb in board.neighbours(i) {
            let (step, len) = match board.cell(nb) {
                Cell::Stone(o) if o == c => ([nb; 4], 1),
                Cell::Empty => (board.neighbours(nb), 4),
                _ => ([nb; 4], 0),
            };
            for &f in &step[..len] {
                if board.cell(f) == Cell::Stone(c) && !seen[f] {
                    seen[f] = true;
                    group.push(f);
                }
            }
        }
    }
}

/// The empty regions a group touches: where its eyes would be, or the opponent's territory
/// it sits in. Whole regions, not the points within a few steps: as accurate as the widest
/// neighbourhood tried, and simpler (docs/scoring.md).
fn surroundings(board: &Board, group: &[Idx], near: &mut [bool], around: &mut Vec<Idx>) {
    for &i in around.iter() {
        near[i] = false;
    }
    around.clear();
    for &i in group {
        for n in board.neighbours(i) {
            if board.cell(n) == Cell::Empty && !near[n] {
                near[n] = true;
                around.push(n);
            }
        }
    }
    let mut k = 0;
    while k < around.len() {
        for n in board.neighbours(around[k]) {
            if board.cell(n) == Cell::Empty && !near[n] {
                near[n] = true;
                around.push(n);
            }
        }
        k += 1;
    }
}

/// Who owns a point at the end of a playout: its stone, or the one colour around it.
fn owner(b: &FastBoard, i: Idx) -> Option<Color> {
    match b.cell(i) {
        Cell::Stone(c) => Some(c),
        Cell::Empty => {
            let mask = b
                .neighbours(i)
                .iter()
                .fold(0, |m, &nb| m | b.cell(nb).colour_bits());
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
    let mut h = Fnv1a::new();
    let mut eat = |v: u8| h.write_u8(v);
    eat(b.size());
    eat(to_move.index() as u8);
    for i in b.points() {
        eat(match b.cell(i) {
            Cell::Empty => 0,
            Cell::Stone(c) => 1 + c.index() as u8,
            Cell::Wall => 3,
        });
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first playouts settle a position when each group's points went three to one
    /// either way; a group split evenly keeps the playouts going.
    #[test]
    fn early_playouts_settle_only_clear_positions() {
        let b = Board::from_ascii(crate::score::boards::TWO_WALLS);
        let none = vec![false; b.cell_count()];
        let n = b.cell_count();
        let (mut black, mut white) = (vec![0; n], vec![0; n]);
        for i in b.points() {
            let x = b.point(i).x;
            if x < 2 {
                black[i] = LOOKS[0].0;
            } else if x > 2 {
                white[i] = LOOKS[0].0;
            } else {
                black[i] = LOOKS[0].0 / 2;
                white[i] = LOOKS[0].0 / 2;
            }
        }
        assert!(settled(&groups(&b, &none), &black, &white, 75));
        // Black's wall lost in half the playouts: not clear.
        for i in b.points().filter(|&i| b.point(i).x == 1) {
            black[i] = LOOKS[0].0 / 2;
            white[i] = LOOKS[0].0 / 2;
        }
        for i in b.points().filter(|&i| b.point(i).x == 0) {
            black[i] = 0;
            white[i] = LOOKS[0].0;
        }
        assert!(!settled(&groups(&b, &none), &black, &white, 75));
        // Protected stones are not judged.
        let all = vec![true; n];
        assert!(settled(&groups(&b, &all), &black, &white, 75));
    }

    /// Two walls across a 9×9 board, and a white stone alone in Black's part.
    const LONE_STONE: &str = ".........
                              .........
                              ..O......
                              .........
                              XXXXXXXXX
                              OOOOOOOOO
                              .........
                              .........
                              .........";

    fn points(b: &Board, dead: &[Idx]) -> Vec<String> {
        dead.iter().map(|&i| b.point(i).to_string()).collect()
    }

    #[test]
    fn a_lone_stone_in_territory_is_dead_and_walls_live() {
        let b = Board::from_ascii(LONE_STONE);
        let none = vec![false; b.cell_count()];
        let dead = estimate_dead(&b, Color::Black, &none);
        assert_eq!(points(&b, &dead), ["cc"]);
    }

    #[test]
    fn protected_blocks_are_never_dead() {
        let b = Board::from_ascii(LONE_STONE);
        let mut protect = vec![false; b.cell_count()];
        protect[b.idx(crate::go::Point::from_sgf("cc").unwrap()).unwrap()] = true;
        assert!(estimate_dead(&b, Color::Black, &protect).is_empty());
    }

    /// A 7×7 board whose top two rows are `top` and whose other five are White's living
    /// wall, with eyes.
    fn in_white_wall(top: &str) -> Board {
        Board::from_ascii(&format!(
            "{top}\nOOOOOOO\n.O.O.O.\nOOOOOOO\n.O.O.O.\nOOOOOOO"
        ))
    }

    /// Black's corner group has one two-point eye inside White's living wall.
    const ONE_EYE: &str = "..XO.O.
                           XXXO.O.";

    /// The playouts' policy never plays the self-atari that kills the group; the
    /// one-small-eye rule does.
    #[test]
    fn a_group_with_one_two_point_eye_is_dead() {
        let b = in_white_wall(ONE_EYE);
        let none = vec![false; b.cell_count()];
        let dead = estimate_dead(&b, Color::Black, &none);
        assert_eq!(points(&b, &dead), ["ca", "ab", "bb", "cb"]);
    }

    /// Dead stones whose region reaches Black's wall only through one dame stay dead; a lone
    /// stone there does not, nor a group of three liberties, nor a group whose region
    /// touches the wall elsewhere too.
    #[test]
    fn dead_stones_behind_one_dame_stay_dead() {
        let b = Board::from_ascii(crate::score::finish::BEHIND_A_DAME);
        let three = group(&b, &["fc", "fd", "fe"]);
        let mut kept = revive(&b, vec![(Color::Black, three.clone())]);
        kept.sort_unstable();
        assert_eq!(kept, three);
        let dead = estimate_dead(&b, Color::Black, &vec![false; b.cell_count()]);
        assert_eq!(points(&b, &dead), ["fc", "fd", "fe"]);
        // A lone dead stone at fc, White's stones below it.
        let mut lone = b.clone();
        for p in ["fd", "fe"] {
            let p = crate::go::Point::from_sgf(p).unwrap();
            lone.setup(p, Some(Color::White)).unwrap();
        }
        assert!(revive(&lone, vec![(Color::Black, group(&lone, &["fc"]))]).is_empty());
        // Three liberties, ec, ed and ee: the way out is the same, the group no longer short.
        let mut roomy = b.clone();
        for p in ["ed", "ee"] {
            roomy
                .setup(crate::go::Point::from_sgf(p).unwrap(), None)
                .unwrap();
        }
        assert!(revive(&roomy, vec![(Color::Black, three.clone())]).is_empty());
        // Two ways out: dc and ed, the latter opened to Black's wall through dd and cd.
        let mut open = b.clone();
        for p in ["dd", "ed"] {
            open.setup(crate::go::Point::from_sgf(p).unwrap(), None)
                .unwrap();
        }
        assert!(revive(&open, vec![(Color::Black, three)]).is_empty());
    }

    fn group(b: &Board, stones: &[&str]) -> Vec<Idx> {
        stones
            .iter()
            .map(|p| b.idx(crate::go::Point::from_sgf(p).unwrap()).unwrap())
            .collect()
    }

    fn at(b: &Board, p: &str) -> Idx {
        b.idx(crate::go::Point::from_sgf(p).unwrap()).unwrap()
    }

    /// `has_two_eyes` of all Black's stones on `b`.
    fn black_has_two_eyes(b: &Board) -> bool {
        let black: Vec<Idx> = b
            .points()
            .filter(|&i| b.cell(i) == Cell::Stone(Color::Black))
            .collect();
        has_two_eyes(b, &mut FastBoard::from_board(b), &black, Color::Black)
    }

    /// Two one-point eyes inside Black's wall are two eyes; cut the wall beside one of
    /// them with White's stones on two of its diagonals and it is a false eye, held by a
    /// stone in atari: one eye.
    #[test]
    fn two_real_eyes_and_a_false_one() {
        let two = Board::from_ascii(
            ".OOOOOOO.
             .OXXXXXO.
             .OX.X.XO.
             .OXXXXXO.
             .OOOOOOO.
             .........
             .........
             .........
             .........",
        );
        assert!(real_eye(&two, at(&two, "dc"), Color::Black));
        assert!(black_has_two_eyes(&two));
        let false_eye = Board::from_ascii(
            ".OOOOOOO.
             .OXXXOOO.
             .OX.X.XO.
             .OXXXOOO.
             .OOOOOOO.
             .........
             .........
             .........
             .........",
        );
        assert!(real_eye(&false_eye, at(&false_eye, "dc"), Color::Black));
        assert!(!real_eye(&false_eye, at(&false_eye, "fc"), Color::Black));
        assert!(!black_has_two_eyes(&false_eye));
    }

    /// A straight four is two eyes by the big-eye table whoever moves; a one-point eye on the
    /// edge with an empty diagonal is not an eye yet.
    #[test]
    fn a_straight_four_is_two_eyes_and_an_open_edge_point_none() {
        let four = Board::from_ascii(
            ".........
             .XXXXXX..
             .X....X..
             .XXXXXX..
             .........
             .........
             .........
             .........
             .........",
        );
        assert!(black_has_two_eyes(&four));
        // Walled in by White, the ring's only liberties are the area: left to the playouts.
        let closed = Board::from_ascii(
            "OOOOOOOO.
             OXXXXXXO.
             OX....XO.
             OXXXXXXO.
             OOOOOOOO.
             .........
             .........
             .........
             .........",
        );
        assert!(!black_has_two_eyes(&closed));
        let edge = Board::from_ascii(
            "X.XO.
             .XXO.
             XXOO.
             OOO..
             .....",
        );
        assert!(!real_eye(&edge, at(&edge, "ba"), Color::Black));
        assert!(!black_has_two_eyes(&edge));
    }

    /// Along the edge a straight four is two eyes too; the same shape bent into the corner
    /// (the bent four) has the same counts in the big-eye table and is one eye at most.
    #[test]
    fn a_straight_four_on_the_edge_and_a_bent_four_in_the_corner() {
        let straight = Board::from_ascii(
            "X....X.
             XXXXXX.
             .......
             OOOOOOO
             .......
             .......
             .......",
        );
        assert!(black_has_two_eyes(&straight));
        let bent = Board::from_ascii(
            "...X...
             .XXX...
             XX.....
             .......
             OOOOOOO
             .......
             .......",
        );
        assert!(!black_has_two_eyes(&bent));
    }

    #[test]
    fn two_separate_eyes_are_not_one_small_eye() {
        let b = in_white_wall(
            ".X.XO.O
             XXXXO.O",
        );
        let white_everywhere = vec![PLAYOUTS; b.cell_count()];
        let two_eyes = group(&b, &["ba", "da", "ab", "bb", "cb", "db"]);
        assert!(!one_small_eye(&b, &two_eyes, &white_everywhere, PLAYOUTS));
        let one_eye = in_white_wall(ONE_EYE);
        let g = group(&one_eye, &["ca", "ab", "bb", "cb"]);
        assert!(one_small_eye(&one_eye, &g, &white_everywhere, PLAYOUTS));
        // With a weak wall (White's stones lost in half the playouts) nothing is concluded.
        let half = vec![PLAYOUTS / 2; b.cell_count()];
        assert!(!one_small_eye(&one_eye, &g, &half, PLAYOUTS));
    }

    /// Black's corner group shares its two liberties with one white stone inside White's
    /// living wall: a false seki. Neither side may fill a liberty without self-atari, so
    /// before passing White sacrifices a second stone there, Black captures, and White kills
    /// the group by the throw-in the capture leaves room for.
    const FALSE_SEKI: &str = ".O.XO.O
                              XXXXO.O";

    #[test]
    fn playouts_break_a_false_seki_by_sacrifice() {
        let b = in_white_wall(FALSE_SEKI);
        let start = FastBoard::from_board(&b);
        let corner = b.idx(crate::go::Point::from_sgf("da").unwrap()).unwrap();
        let empties: Vec<Idx> = b.points().filter(|&i| b.cell(i) == Cell::Empty).collect();
        let mut black_kept = 0;
        let mut end = start.clone();
        for seed in 0..16 {
            let mut rng = Rng::new(seed);
            let mut e = empties.clone();
            playout(&start, &mut end, Color::Black, &mut rng, &mut e);
            black_kept += u32::from(end.cell(corner) == Cell::Stone(Color::Black));
        }
        // Without the sacrifice the group stands at the end of every playout.
        assert!(black_kept <= 2, "Black's group stood in {black_kept} of 16");
    }

    /// 2017-04-11-12's top right corner (kgs-6d-2017): Black's group and White's three
    /// stones share their two liberties. White filling gb and Black capturing the four stones
    /// at eb leaves ea, fa, ga and gb empty: the bent four in the corner. Black may fill
    /// neither liberty. The markup calls Black dead, under Chinese rules.
    #[test]
    fn a_bent_four_in_the_corner_is_dead() {
        let b = Board::from_ascii(
            "O.OXOOO
             OOOX.X.
             O.OXXXX
             OOOXOXO
             O.OOOOO
             OOOOOOO
             .O.O.O.",
        );
        let none = vec![false; b.cell_count()];
        let dead = estimate_dead(&b, Color::Black, &none);
        assert_eq!(
            points(&b, &dead),
            ["da", "db", "fb", "dc", "ec", "fc", "gc", "dd", "fd"]
        );
        // The rule decides it: the playouts alone keep the seki.
        let mut fast = FastBoard::from_board(&b);
        let everywhere = vec![PLAYOUTS; b.cell_count()];
        assert!(bent_four_in_the_corner(
            &b,
            &mut fast,
            &dead,
            &everywhere,
            PLAYOUTS
        ));
        let empties: Vec<Idx> = b.points().filter(|&i| b.cell(i) == Cell::Empty).collect();
        let mut end = fast.clone();
        let kept = (0..16)
            .filter(|&seed| {
                playout(
                    &fast,
                    &mut end,
                    Color::Black,
                    &mut Rng::new(seed),
                    &mut empties.clone(),
                );
                end.cell(dead[0]) == Cell::Stone(Color::Black)
            })
            .count();
        assert_eq!(kept, 16);
    }

    /// The same shape away from the corner is a seki: once White fills a liberty and Black
    /// captures, the bent four on the edge has two vital points.
    #[test]
    fn the_same_shape_on_the_edge_is_a_seki() {
        let b = Board::from_ascii(crate::score::boards::EDGE_SEKI);
        let none = vec![false; b.cell_count()];
        assert!(estimate_dead(&b, Color::Black, &none).is_empty());
        let mut fast = FastBoard::from_board(&b);
        let black = group(
            &b,
            &[
                "da", "db", "dc", "dd", "ec", "fb", "fc", "fd", "gc", "ha", "hb", "hc", "hd",
            ],
        );
        let everywhere = vec![PLAYOUTS; b.cell_count()];
        assert!(!bent_four_in_the_corner(
            &b,
            &mut fast,
            &black,
            &everywhere,
            PLAYOUTS
        ));
    }

    #[test]
    fn the_corner_bent_four_shape() {
        let b = Board::from_ascii(
            ".....
             .....
             .....
             .....
             .....",
        );
        let f = FastBoard::from_board(&b);
        let shape = |s: &[&str]| corner_bent_four(&f, &group(&b, s));
        assert!(shape(&["ca", "da", "ea", "eb"]));
        assert!(shape(&["aa", "ba", "ab", "ac"]));
        // Bent at the second line, a straight four, and the square four are no such shape.
        assert!(!shape(&["ca", "da", "ea", "cb"]));
        assert!(!shape(&["ba", "ca", "da", "ea"]));
        assert!(!shape(&["da", "ea", "db", "eb"]));
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
