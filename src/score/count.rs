//! Counting a final position once its dead stones are known (scoring-spec §2), the way a
//! server counts.
//!
//! Area counting is the plain one: stones plus empty regions bordered by one colour. Territory
//! counting adds what a plain flood fill misses and KGS's Japanese count does not: **teire**,
//! points of a player's territory that the player must fill before the game can end. Once
//! the dame are filled, a block may be left with a single liberty inside its own territory;
//! its owner has to connect there, so that point is no territory. Measured on the 397 counted
//! Japanese games of kgs-6d-2017 with the server's own dead stones: a plain flood fill
//! reproduces RE in 361, this count in 392 (see the README).

use super::playout::FastBoard;
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
        ..tally(&b, &EmptyRegions::find(&b), [true; 2], || {
            FastBoard::from_board(&b)
        })
    }
}

/// Counts the position as it stands, no stone dead, reusing its net's blocks and areas
/// instead of finding them again.
pub fn count_as_is(board: &Board, net: &Net) -> Count {
    tally(
        board,
        &EmptyRegions::from_net(board, net),
        may_need_teire(net),
        || FastBoard::from_net(board, net),
    )
}

/// Per colour, whether any of its blocks has exactly one liberty in its own territory. A
/// colour none of whose blocks has is spared the dame fills, which cannot give it teire:
/// the fills are on dame, never on territory, and capture nothing, so a block's liberties
/// in territory change only when blocks join, to the union of theirs, and no dame stone
/// touches territory (a neutral region never borders a territory region). A block left in
/// atari on a point of its territory is therefore made of blocks among which one had that
/// point as its only territory liberty. Most professional positions need both fills anyway.
fn may_need_teire(net: &Net) -> [bool; 2] {
    let mut territory_liberties = vec![0u32; net.blocks.len()];
    for area in &net.areas {
        if area.border == 1 || area.border == 2 {
            for &(b, libs) in &area.blocks {
                territory_liberties[b] += libs;
            }
        }
    }
    let mut out = [false; 2];
    for (block, &libs) in net.blocks.iter().zip(&territory_liberties) {
        out[block.color.index()] |= libs == 1;
    }
    out
}

/// Counts a position whose dead stones are gone; `regions` are its empty regions, `may`
/// says which colours' teire to look for, and `playout_board` makes the same position as a
/// board the dame fills run on.
fn tally(
    b: &Board,
    regions: &EmptyRegions,
    may: [bool; 2],
    playout_board: impl FnOnce() -> FastBoard,
) -> Count {
    let mut out = Count {
        stones: [b.count(Color::Black), b.count(Color::White)],
        area_territory: regions.territory,
        neutral: regions.neutral,
        ..Count::default()
    };
    if may != [false; 2] {
        out.teire = teire(b, regions, may, playout_board());
    }
    for c in [Color::Black, Color::White] {
        out.territory[c.index()] = out.area_territory[c.index()] - out.teire[c.index()];
    }
    out
}

/// Empty regions of a position: for each empty point, the colours bordering its region and
/// the region's size.
pub(super) struct EmptyRegions {
    /// Bit 0: Black borders the region; bit 1: White does.
    border: Vec<u8>,
    size: Vec<u32>,
    /// Points in regions bordered by Black only, by White only.
    territory: [u32; 2],
    /// Points in the other regions.
    neutral: u32,
}

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
        EmptyRegions::total(border, size, b)
    }

    /// The regions of a position whose net is built: its areas.
    pub(super) fn from_net(b: &Board, net: &Net) -> EmptyRegions {
        let n = b.cell_count();
        let mut out = EmptyRegions {
            border: vec![0u8; n],
            size: vec![0u32; n],
            territory: [0; 2],
            neutral: 0,
        };
        for area in &net.areas {
            for &i in net.area_points(area) {
                out.border[i] = area.border;
                out.size[i] = area.size;
            }
            match area.border {
                1 => out.territory[0] += area.size,
                2 => out.territory[1] += area.size,
                _ => out.neutral += area.size,
            }
        }
        out
    }

    fn total(border: Vec<u8>, size: Vec<u32>, b: &Board) -> EmptyRegions {
        let mut out = EmptyRegions {
            border,
            size,
            territory: [0; 2],
            neutral: 0,
        };
        for i in b.points() {
            if b.cell(i) != Cell::Empty {
                continue;
            }
            match out.owner(i) {
                Some(c) => out.territory[c.index()] += 1,
                None => out.neutral += 1,
            }
        }
        out
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

/// The number of teire points of each colour. For each colour `c` in turn, every dame is filled, by `c`
/// where `c` can do so without leaving the filling block in atari, else by the opponent where
/// it can; then each block of `c` left with one liberty in its own territory connects there,
/// and that point is no territory. Connecting can leave the grown block in atari again, so
/// this repeats until nothing changes. The fills run on the playout board, which keeps each
/// block's liberty count: in a finished game the blocks are long, and walking them for every
/// dame was the count's largest cost.
fn teire(b: &Board, regions: &EmptyRegions, may: [bool; 2], start: FastBoard) -> [u32; 2] {
    // Collected without branches on the points' contents, which are unpredictable.
    let mut dame = vec![0; b.cell_count()];
    let mut k = 0;
    for i in b.points() {
        let mut around = 0u8;
        for nb in b.neighbours(i) {
            around |= b.cell(nb).colour_bits();
        }
        dame[k] = i;
        k += usize::from(
            (b.cell(i) == Cell::Empty)
                & regions.owner(i).is_none()
                & ((around == 3) | (regions.size[i] as usize <= SMALL_NEUTRAL_REGION)),
        );
    }
    dame.truncate(k);
    let mut out = [0; 2];
    let colours = [Color::Black, Color::White]
        .into_iter()
        .filter(|c| may[c.index()]);
    let boards = if may == [true; 2] {
        vec![start.clone(), start]
    } else {
        vec![start]
    };
    for (c, mut g) in colours.zip(boards) {
        loop {
            let mut changed = false;
            for &d in &dame {
                if g.cell(d) == Cell::Empty
                    && (g.fill_safely(c, d) || g.fill_safely(c.opponent(), d))
                {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Each block of c once, by its head. Connecting merges only blocks beside the point
        // played, and the loop goes on with the merged block, so a head whose block has since
        // merged finds a block already looked at, which stops as it stopped before.
        for h in g.heads(c) {
            let mut s = h;
            while g.in_atari(s) {
                let t = g.atari_liberty(s);
                if regions.owner(t) != Some(c) {
                    break;
                }
                out[c.index()] += 1;
                g.play(c, t);
                s = t;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx_of(b: &Board, s: &str) -> Idx {
        b.idx(crate::go::Point::from_sgf(s).unwrap()).unwrap()
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
            skipped += may_need_teire(&net).iter().filter(|&&m| !m).count();
            teire += usize::from(c.teire != [0, 0]);
        }
        // Both branches were taken.
        assert!(
            skipped > 0 && teire > 0,
            "{skipped} skipped, {teire} with teire"
        );
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
        assert_eq!(may_need_teire(&net), [true, false]);
        let c = count_as_is(&b, &net);
        assert_eq!(c.teire, [1, 0]);
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
        let b = Board::from_ascii(
            ".X.O.
             .X.O.
             .X.O.
             .X.O.
             .X.O.",
        );
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
