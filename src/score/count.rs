//! Counting a final position once its dead stones are known (scoring-spec §2), the way a
//! server counts.
//!
//! Area counting is the plain one: stones plus empty regions bordered by one colour. Territory
//! counting adds what a plain flood fill misses and KGS's Japanese count does not: **teire**,
//! points of a player's territory that the player must fill before the game can end. Once
//! the dame are filled, a block may be left with a single liberty inside its own territory;
//! its owner has to connect there, so that point is no territory. With the server's own dead
//! stones, this count reproduces RE on kgs-6d-2017 where a plain flood fill often does not
//! (docs/scoring.md has the figures).

use super::fast_board::FastBoard;
use crate::go::board::{Board, Cell, Color, Idx};
use crate::life::Net;

/// Neutral regions up to this size are filled point by point, inner points included (a
/// two-point dame gap along the edge); in larger ones only the points touching both colours
/// are dame, so an unfinished game's open areas are not filled in.
const SMALL_NEUTRAL_REGION: usize = 3;

/// What a count found, per colour (index: Black 0, White 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Empty points in regions bordered by one colour only (area counting).
    pub area_territory: [u32; 2],
    /// The same less the teire points (territory counting).
    pub territory: [u32; 2],
    /// Teire points left out of `territory`.
    pub teire: [u32; 2],
    /// Stones left on the board.
    pub stones: [u32; 2],
    /// Stones removed as dead.
    pub dead: [u32; 2],
    /// Empty points that belong to nobody: dame and seki.
    pub neutral: u32,
}

/// Counts `board` with the stones at `dead` removed.
pub fn count(board: &Board, dead: &[Idx]) -> Count {
    let mut b = board.clone();
    let mut removed = [0; 2];
    for &i in dead {
        if let Cell::Stone(c) = b.cell(i) {
            removed[c.index()] += 1;
            let p = b.point(i);
            b.setup(p, None).expect("on-board point");
        }
    }
    Count {
        dead: removed,
        ..tally(
            [b.count(Color::Black), b.count(Color::White)],
            &EmptyRegions::find(&b),
            None,
            || FastBoard::from_board(&b),
        )
    }
}

/// `board` with the stones at `dead` taken off.
fn lifted(board: &Board, dead: &[Idx]) -> Board {
    let mut b = board.clone();
    for &i in dead {
        if matches!(b.cell(i), Cell::Stone(_)) {
            let p = b.point(i);
            b.setup(p, None).expect("on-board point");
        }
    }
    b
}

/// The points each colour's area counts as territory once the stones at `dead` are removed
/// (their points included), in index order: what a count marks TB and TW.
pub fn territory(board: &Board, dead: &[Idx]) -> [Vec<Idx>; 2] {
    let b = lifted(board, dead);
    let regions = EmptyRegions::find(&b);
    let mut out = [Vec::new(), Vec::new()];
    for i in b.points() {
        if b.cell(i) == Cell::Empty {
            if let Some(c) = regions.owner(i) {
                out[c.index()].push(i);
            }
        }
    }
    out
}

/// The teire points `count` leaves out of each colour's territory, with the stones at
/// `dead` removed, in index order: points a territory count's TB/TW must not mark, or an
/// editor counting the marks finds more than the count.
pub fn teire_points(board: &Board, dead: &[Idx]) -> [Vec<Idx>; 2] {
    let b = lifted(board, dead);
    let regions = EmptyRegions::find(&b);
    let mut out = teire(&regions, None, [true; 2], FastBoard::from_board(&b));
    for points in &mut out {
        points.sort_unstable();
    }
    out
}

/// Counts the position as it stands, no stone dead, reusing its net's blocks and areas
/// instead of finding them again.
pub fn count_as_is(board: &Board, net: &Net) -> Count {
    let mut stones = [0; 2];
    for block in &net.blocks {
        stones[block.color.index()] += block.stones.len() as u32;
    }
    let regions = EmptyRegions::from_net(board, net);
    tally(
        stones,
        &regions,
        Some(&short_of_territory(board, net, &regions)),
        || FastBoard::from_net(board, net),
    )
}

/// Per colour, the anchors of the blocks with exactly one liberty in their own territory:
/// the only blocks that can need teire. The fills are on dame, never on territory, and
/// capture nothing, so a block's liberties in territory change only when blocks join, to
/// the union of theirs, and no dame stone touches territory (a neutral region never borders
/// a territory region). A block left in atari on a point of its territory is therefore made
/// of blocks among which one had that point as its only territory liberty. Connecting there
/// joins only blocks beside the point, which the connecting block then stands for. A colour
/// with no such block is spared the fills; most professional positions have one of each.
///
/// A block beside a point that no fill takes (`EmptyRegions::kept`) is left out too: every
/// block it joins keeps that liberty, so one in atari has it as its last liberty, which is
/// no territory, and never connects. This spares the fills in 139 more of the first 2,000
/// professional positions (they run in 1,821).
fn short_of_territory(board: &Board, net: &Net, regions: &EmptyRegions) -> [Vec<Idx>; 2] {
    let mut territory_liberties = vec![0u32; net.blocks.len()];
    for area in &net.areas {
        if area.border == 1 || area.border == 2 {
            for &(b, libs) in &area.blocks {
                territory_liberties[b] += libs;
            }
        }
    }
    let mut out = [Vec::new(), Vec::new()];
    for (block, &libs) in net.blocks.iter().zip(&territory_liberties) {
        let open = || {
            block
                .stones
                .iter()
                .any(|&s| board.neighbours(s).iter().any(|&nb| regions.kept(nb)))
        };
        if libs == 1 && !open() {
            out[block.color.index()].push(block.anchor);
        }
    }
    out
}

/// Counts a position whose dead stones are gone, with `stones` of each colour on it;
/// `regions` are its empty regions, `candidates` (per colour, a stone of each block that
/// may need teire; `None`: every block may) say which blocks' teire to look for, and
/// `playout_board` makes the same position as a board the dame fills run on.
fn tally(
    stones: [u32; 2],
    regions: &EmptyRegions,
    candidates: Option<&[Vec<Idx>; 2]>,
    playout_board: impl FnOnce() -> FastBoard,
) -> Count {
    let mut out = Count {
        stones,
        area_territory: regions.territory,
        neutral: regions.neutral,
        ..Count::default()
    };
    let may = may_need_teire(candidates);
    if may != [false; 2] {
        let points = teire(regions, candidates, may, playout_board());
        out.teire = points.each_ref().map(|p| p.len() as u32);
    }
    for c in [Color::Black, Color::White] {
        out.territory[c.index()] = out.area_territory[c.index()] - out.teire[c.index()];
    }
    out
}

/// Per colour, whether the fills must run: unless no block of that colour is a candidate.
fn may_need_teire(candidates: Option<&[Vec<Idx>; 2]>) -> [bool; 2] {
    candidates.map_or([true; 2], |k| k.each_ref().map(|k| !k.is_empty()))
}

/// Empty regions of a position: which colours border each empty point's region, and the
/// dame the count fills.
pub(super) struct EmptyRegions {
    /// Bit 0: Black borders the region; bit 1: White does; bit 2 (`KEPT`): the point is
    /// neutral and no fill takes it.
    border: Vec<u8>,
    /// Empty points in regions bordered by neither or both colours that are filled before
    /// counting, in point order: all points of a region of at most `SMALL_NEUTRAL_REGION`,
    /// and in larger ones those that touch both colours.
    pub(super) dame: Vec<Idx>,
    /// Points in regions bordered by Black only, by White only.
    territory: [u32; 2],
    /// Points in the other regions.
    neutral: u32,
}

/// The `EmptyRegions::border` bit of a neutral point that is not dame.
const KEPT: u8 = 4;

impl EmptyRegions {
    pub(super) fn find(b: &Board) -> EmptyRegions {
        let n = b.cell_count();
        let mut border = vec![0u8; n];
        let mut size = vec![0u32; n];
        let mut seen = vec![false; n];
        let mut region = Vec::new();
        // Every point enters the stack at most once.
        let mut stack = vec![0; n];
        for start in b.points() {
            if seen[start] || b.cell(start) != Cell::Empty {
                continue;
            }
            let mut mask = 0u8;
            region.clear();
            seen[start] = true;
            stack[0] = start;
            let mut top = 1;
            // Without branches on the neighbours' contents, as in Benson's region fill.
            while top > 0 {
                top -= 1;
                let i = stack[top];
                region.push(i);
                for nb in b.neighbours(i) {
                    let cell = b.cell(nb);
                    let open = (cell == Cell::Empty) & !seen[nb];
                    seen[nb] |= open;
                    stack[top] = nb;
                    top += usize::from(open);
                    mask |= cell.colour_bits();
                }
            }
            for &i in &region {
                border[i] = mask;
                size[i] = region.len() as u32;
            }
        }
        let mut out = EmptyRegions {
            border,
            dame: Vec::new(),
            territory: [0; 2],
            neutral: 0,
        };
        for i in b.points() {
            if b.cell(i) != Cell::Empty {
                continue;
            }
            match out.owner(i) {
                Some(c) => out.territory[c.index()] += 1,
                None => {
                    out.neutral += 1;
                    if size[i] as usize <= SMALL_NEUTRAL_REGION || touches_both(b, i) {
                        out.dame.push(i);
                    } else {
                        out.border[i] |= KEPT;
                    }
                }
            }
        }
        out
    }

    /// The regions of a position whose net is built: its areas.
    pub(super) fn from_net(b: &Board, net: &Net) -> EmptyRegions {
        let mut out = EmptyRegions {
            border: vec![0u8; b.cell_count()],
            dame: Vec::new(),
            territory: [0; 2],
            neutral: 0,
        };
        for area in &net.areas {
            let points = net.area_points(area);
            for &i in points {
                out.border[i] = area.border;
            }
            match area.border {
                1 => out.territory[0] += area.size,
                2 => out.territory[1] += area.size,
                _ => {
                    out.neutral += area.size;
                    if area.size as usize <= SMALL_NEUTRAL_REGION {
                        out.dame.extend_from_slice(points);
                    } else {
                        for &i in points {
                            if touches_both(b, i) {
                                out.dame.push(i);
                            } else {
                                out.border[i] |= KEPT;
                            }
                        }
                    }
                }
            }
        }
        // Area by area above; the fills go in point order.
        out.dame.sort_unstable();
        out
    }

    /// Neutral points no fill takes: the inner points of open neutral regions.
    pub(super) fn kept_count(&self) -> u32 {
        self.border.iter().filter(|&&b| b & KEPT != 0).count() as u32
    }

    /// Whether a point is neutral and no fill takes it: it stays empty through the count.
    fn kept(&self, i: Idx) -> bool {
        self.border[i] & KEPT != 0
    }

    /// The colour whose territory an empty point is, if one colour alone borders its region.
    pub(super) fn owner(&self, i: Idx) -> Option<Color> {
        match self.border[i] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
}

/// Whether stones of both colours are beside a point.
fn touches_both(b: &Board, i: Idx) -> bool {
    let mut around = 0u8;
    for nb in b.neighbours(i) {
        around |= b.cell(nb).colour_bits();
    }
    around == 3
}

/// The teire points of each colour, in the order found. For each colour `c` in turn, every dame is
/// filled, by `c` where `c` can do so without leaving the filling block in atari, else by
/// the opponent where it can; then each block of `c` left with one liberty in its own
/// territory connects there, and that point is no territory. Connecting can leave the grown
/// block in atari again, so this repeats until nothing changes. The fills run on the playout
/// board, which keeps each block's liberty count: in a finished game the blocks are long,
/// and walking them for every dame was the count's largest cost.
fn teire(
    regions: &EmptyRegions,
    candidates: Option<&[Vec<Idx>; 2]>,
    may: [bool; 2],
    start: FastBoard,
) -> [Vec<Idx>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let colours: Vec<Color> = [Color::Black, Color::White]
        .into_iter()
        .filter(|c| may[c.index()])
        .collect();
    let mut start = Some(start);
    for (k, &c) in colours.iter().enumerate() {
        let mut g = if k + 1 == colours.len() {
            start.take().expect("one board per colour")
        } else {
            start.clone().expect("one board per colour")
        };
        fill_dame(&mut g, &regions.dame, c);
        // Each block once, by its head, in point order. Connecting merges only blocks beside
        // the point played, and the loop goes on with the merged block, so a head whose block
        // has since merged finds a block already looked at, which stops as it stopped before.
        let heads = match candidates {
            Some(k) => {
                let mut heads: Vec<Idx> = k[c.index()].iter().map(|&s| g.head(s)).collect();
                heads.sort_unstable();
                heads.dedup();
                heads
            }
            None => g.heads(c),
        };
        for h in heads {
            let mut s = h;
            while g.in_atari(s) {
                let t = g.atari_liberty(s);
                if regions.owner(t) != Some(c) {
                    break;
                }
                out[c.index()].push(t);
                g.play(c, t);
                s = t;
            }
        }
    }
    out
}

/// Fills the dame for `c`: passes over them in point order, each dame by `c` where it can
/// be filled safely, else by the opponent where it can, until a pass fills nothing. The
/// passes go round the dame still open, and stop once every one of them failed since the
/// last fill: the board has not changed since, so a further pass would fill nothing either.
fn fill_dame(g: &mut FastBoard, dame: &[Idx], c: Color) {
    let mut open = dame.to_vec();
    let (mut k, mut failed) = (0, 0);
    while failed < open.len() {
        let d = open[k];
        if g.fill_safely(c, d) || g.fill_safely(c.opponent(), d) {
            open.remove(k);
            failed = 0;
        } else {
            k += 1;
            failed += 1;
        }
        if k == open.len() {
            k = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx_of(b: &Board, s: &str) -> Idx {
        b.idx(crate::go::Point::from_sgf(s).unwrap()).unwrap()
    }

    fn short_of(b: &Board, net: &Net) -> [Vec<Idx>; 2] {
        short_of_territory(b, net, &EmptyRegions::from_net(b, net))
    }

    /// Counting a position as it stands with its net (areas from the net, fills skipped
    /// where no teire can come) gives what counting it with no dead stone gives.
    #[test]
    fn counting_with_the_net_agrees() {
        let (mut skipped, mut teire) = (0, 0);
        for seed in 0..300u64 {
            let size = [5, 7, 9, 13, 19][seed as usize % 5];
            let moves = seed as usize * 11 % (3 * size as usize * size as usize);
            let (board, _) = crate::go::random::random_position(seed, size, moves);
            let net = Net::build(&board);
            let c = count_as_is(&board, &net);
            assert_eq!(c, count(&board, &[]), "seed {seed}");
            skipped += short_of(&board, &net)
                .iter()
                .filter(|k| k.is_empty())
                .count();
            teire += usize::from(c.teire != [0, 0]);
        }
        // Both branches were taken.
        assert!(
            skipped > 0 && teire > 0,
            "{skipped} skipped, {teire} with teire"
        );
    }

    /// Going round the dame still open stops where full passes over all of them stop, with
    /// the same stones on the board.
    #[test]
    fn filling_round_the_open_dame_ends_as_full_passes_do() {
        let mut refilled = 0;
        for seed in 0..200u64 {
            let size = [7, 9, 13, 19][seed as usize % 4];
            let moves = seed as usize * 13 % (2 * size as usize * size as usize);
            let (board, _) = crate::go::random::random_position(seed, size, moves);
            let regions = EmptyRegions::find(&board);
            for c in [Color::Black, Color::White] {
                let mut round = FastBoard::from_board(&board);
                fill_dame(&mut round, &regions.dame, c);
                let mut passes = FastBoard::from_board(&board);
                for pass in 0.. {
                    let mut changed = false;
                    for &d in &regions.dame {
                        if passes.cell(d) == Cell::Empty
                            && (passes.fill_safely(c, d) || passes.fill_safely(c.opponent(), d))
                        {
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                    refilled += usize::from(pass == 1);
                }
                for i in board.points() {
                    assert_eq!(
                        round.cell(i),
                        passes.cell(i),
                        "seed {seed}, {c:?}, point {i}"
                    );
                }
            }
        }
        // Some positions needed a second pass that filled something.
        assert!(refilled > 0);
    }

    /// Black's block has one liberty in its territory (aa) and one dame (ca), which White
    /// fills: Black must connect at aa. White's block has many territory liberties, so
    /// White's fills are skipped, and the count is the same as with them.
    #[test]
    fn only_a_colour_with_a_block_short_of_territory_liberties_is_filled() {
        let b = Board::from_ascii(
            ".X.O.
             XXXO.
             OOOO.
             .....
             .....",
        );
        let net = Net::build(&b);
        let short = short_of(&b, &net);
        assert!(!short[0].is_empty() && short[1].is_empty());
        let c = count_as_is(&b, &net);
        assert_eq!(c.teire, [1, 0]);
        assert_eq!(c, count(&b, &[]));
    }

    /// Each block has one liberty in its territory (aa for Black, ee for White) and others
    /// in the open middle, on points that touch one colour only: no fill takes those, so
    /// neither block can need teire and no fill runs.
    #[test]
    fn a_block_beside_an_open_point_needs_no_fills() {
        let b = Board::from_ascii(
            ".X...
             XX...
             .....
             ...OO
             ...O.",
        );
        let net = Net::build(&b);
        let regions = EmptyRegions::from_net(&b, &net);
        assert!(regions.kept(idx_of(&b, "ca")) && !regions.kept(idx_of(&b, "aa")));
        assert_eq!(short_of(&b, &net), [Vec::<usize>::new(), Vec::new()]);
        let c = count_as_is(&b, &net);
        assert_eq!(c.teire, [0, 0]);
        assert_eq!(c, count(&b, &[]));
    }

    #[test]
    fn territory_and_area_of_a_split_board() {
        let b = Board::from_ascii(
            "..XO.
             ..XO.
             ..XO.
             ..XO.
             ..XO.",
        );
        let c = count(&b, &[]);
        assert_eq!(c.area_territory, [10, 5]);
        assert_eq!(c.territory, [10, 5]);
        assert_eq!(c.stones, [5, 5]);
        assert_eq!(c.neutral, 0);
    }

    #[test]
    fn dead_stones_are_removed_and_their_points_counted() {
        let b = Board::from_ascii(
            ".O.XO.
             ...XO.
             ...XO.
             ...XO.
             ...XO.
             ...XO.",
        );
        let dead = [idx_of(&b, "ba")];
        let c = count(&b, &dead);
        assert_eq!(c.dead, [0, 1]);
        assert_eq!(c.area_territory, [18, 6]);
        assert_eq!(c.stones, [6, 6]);
    }

    #[test]
    fn dame_and_seki_belong_to_nobody() {
        // The middle column is dame: both colours border it.
        let b = Board::from_ascii(crate::score::boards::TWO_WALLS);
        let c = count(&b, &[]);
        assert_eq!(c.neutral, 5);
        assert_eq!(c.area_territory, [5, 5]);
    }

    #[test]
    fn a_block_left_in_atari_by_the_dame_must_connect() {
        // Black's lone stone at ea touches the dame fa; once White fills it (Black cannot
        // without self-atari), ea is in atari and Black connects at da: teire.
        let b = Board::from_ascii(
            "...X.OO
             ...XXO.
             ....XO.
             ....XO.
             ....XO.
             ....XO.
             ....XO.",
        );
        let c = count(&b, &[]);
        assert_eq!(c.teire, [0, 0], "no dame, no teire");
        let b = Board::from_ascii(
            "..X.X.O
             ..XXOOO
             ...XO..
             ...XO..
             ...XO..
             ...XO..
             ...XO..",
        );
        let c = count(&b, &[]);
        assert_eq!(c.teire, [1, 0]);
        assert_eq!(c.area_territory, [20, 10]);
        assert_eq!(c.territory, [19, 10]);
        assert_eq!(c.neutral, 1);
    }

    #[test]
    fn a_block_already_in_atari_connects_inside_its_territory() {
        // White's stone at ca has one liberty, ba, inside White's corner: White must fill it,
        // and the grown group keeps its eye at ab-ac.
        let b = Board::from_ascii(
            "O.OX..
             .OXX..
             .OX...
             OOX...
             XX....
             ......",
        );
        let c = count(&b, &[]);
        assert_eq!(c.teire, [0, 1]);
        assert_eq!(c.area_territory[1], 3);
        assert_eq!(c.territory[1], 2);
    }
}
