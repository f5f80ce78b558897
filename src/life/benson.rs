//! Benson's unconditional life (1976; the paper's Def. 14–18; life-spec §5).
//!
//! For a colour c, a *region* is a maximal 4-connected set of points that are not c. A region
//! is *healthy* for an adjacent c-block when every empty point of it is a liberty of that
//! block. Starting from all c-blocks, a region is *vital* for a block while it is healthy for
//! it and all c-blocks around it remain; blocks with fewer than two vital regions are dropped
//! until nothing changes. What remains cannot be captured even if c always passes.

use smallvec::SmallVec;

use super::net::{BlockId, Net};
use crate::go::{Board, Cell, Color, Idx};

/// The regions of one colour: maximal 4-connected sets of points not of that colour.
#[derive(Clone, Debug)]
pub struct Regions {
    pub color: Color,
    pub regions: Vec<Region>,
}

/// A region of non-c points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// How many points it has.
    pub size: usize,
    /// How many of its points are empty.
    pub empty: usize,
    /// Whether it holds stones of the opponent.
    pub has_opponent: bool,
    /// Whether any of its points is on the edge of the board.
    pub touches_edge: bool,
    /// The c-blocks adjacent to it, ascending. Inline up to four: a position has dozens of
    /// regions per colour, and a heap list each was a measurable share of Benson's time.
    pub blocks: SmallVec<[BlockId; 4]>,
    /// The c-blocks for which it is healthy, ascending.
    pub healthy_for: SmallVec<[BlockId; 4]>,
    /// Its points, ascending; kept only where a big own eye may be (one adjacent block, no
    /// opponent stone, off the edge), empty otherwise.
    pub points: SmallVec<[Idx; 4]>,
}

impl Regions {
    pub fn find(board: &Board, net: &Net, c: Color) -> Regions {
        let own = Cell::Stone(c);
        let n = board.cell_count();
        let label = net.labels();
        let mut seen = vec![false; n];
        let mut regions = Vec::new();
        // Every point enters the stack at most once.
        let mut stack = vec![0; n];
        let mut points = Vec::new();
        // Per c-block: the last region that touched it (1-based) and how many of that region's
        // empty points are its liberties; `touched` lists the blocks of the current region.
        let mut last_region = vec![0u32; net.blocks.len()];
        let mut libs = vec![0usize; net.blocks.len()];
        let mut touched: Vec<BlockId> = Vec::new();
        for start in board.points() {
            if seen[start] || board.cell(start) == own {
                continue;
            }
            let (mut empty, mut has_opponent, mut touches_edge) = (0, false, false);
            let region_id = regions.len() as u32 + 1;
            points.clear();
            touched.clear();
            seen[start] = true;
            stack[0] = start;
            let mut top = 1;
            // The fill is written without branches on the neighbours' contents: which of them
            // are pushed or are c-blocks is unpredictable, and mispredictions were most of
            // its time.
            while top > 0 {
                top -= 1;
                let i = stack[top];
                points.push(i);
                let is_empty = board.cell(i) == Cell::Empty;
                empty += usize::from(is_empty);
                has_opponent |= !is_empty;
                // The c-blocks around this point, possibly repeated (at most four).
                let mut around = [0u32; 4];
                let mut k = 0;
                for nb in board.neighbours(i) {
                    let cell = board.cell(nb);
                    let (is_own, is_wall) = (cell == own, cell == Cell::Wall);
                    // A point is on the edge exactly when a neighbour is off the board.
                    touches_edge |= is_wall;
                    let open = !is_own & !is_wall & !seen[nb];
                    seen[nb] |= open;
                    stack[top] = nb;
                    top += usize::from(open);
                    around[k] = label[nb];
                    k += usize::from(is_own);
                }
                for j in 0..k {
                    let b = around[j] as BlockId;
                    if around[..j].contains(&around[j]) {
                        continue;
                    }
                    if last_region[b] != region_id {
                        last_region[b] = region_id;
                        libs[b] = 0;
                        touched.push(b);
                    }
                    libs[b] += usize::from(is_empty);
                }
            }
            touched.sort_unstable();
            let blocks = SmallVec::from_slice(&touched);
            let healthy_for = touched
                .iter()
                .copied()
                .filter(|&b| libs[b] == empty)
                .collect();
            let candidate = blocks.len() == 1 && !has_opponent && !touches_edge;
            let kept = if candidate {
                points.sort_unstable();
                SmallVec::from_slice(&points)
            } else {
                SmallVec::new()
            };
            regions.push(Region {
                size: points.len(),
                empty,
                has_opponent,
                touches_edge,
                blocks,
                healthy_for,
                points: kept,
            });
        }
        Regions { color: c, regions }
    }
}

/// Benson's verdict for one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Benson {
    /// Per block of the net (both colours; only this colour's can be true).
    pub alive: Vec<bool>,
    /// Points of the colour's unconditional territory: regions all of whose c-blocks are
    /// alive and that are vital for at least one of them.
    pub territory: usize,
}

/// Runs Benson's algorithm for colour `regions.color`.
pub fn benson(net: &Net, regions: &Regions) -> Benson {
    let c = regions.color;
    let mut alive: Vec<bool> = net.blocks.iter().map(|b| b.color == c).collect();
    let is_vital = |r: &Region, alive: &[bool]| r.blocks.iter().all(|&b| alive[b]);
    loop {
        let mut vital_count = vec![0usize; net.blocks.len()];
        for r in &regions.regions {
            if is_vital(r, &alive) {
                for &b in &r.healthy_for {
                    vital_count[b] += 1;
                }
            }
        }
        let mut removed = false;
        for b in net.blocks_of(c) {
            if alive[b] && vital_count[b] < 2 {
                alive[b] = false;
                removed = true;
            }
        }
        if !removed {
            break;
        }
    }
    let territory = regions
        .regions
        .iter()
        .filter(|r| !r.healthy_for.is_empty() && !r.blocks.is_empty() && is_vital(r, &alive))
        .map(|r| r.size)
        .sum();
    Benson { alive, territory }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Benson's verdict per block of colour c, as the anchors of the living blocks.
    fn alive(board: &str, c: Color) -> (Vec<String>, usize) {
        let b = Board::from_ascii(board);
        let net = Net::build(&b);
        let res = benson(&net, &Regions::find(&b, &net, c));
        let names = net
            .blocks_of(c)
            .filter(|&i| res.alive[i])
            .map(|i| b.point(net.blocks[i].anchor).to_string())
            .collect();
        (names, res.territory)
    }

    #[test]
    fn two_single_point_eyes_live() {
        let (a, t) = alive(
            ".X.X.
             XXXXX
             .....
             .....
             .....",
            Color::Black,
        );
        assert_eq!(a, ["ba"]);
        assert_eq!(t, 3);
    }

    #[test]
    fn one_eye_is_not_enough() {
        let (a, _) = alive(
            ".X...
             XX...
             .....
             .....
             .....",
            Color::Black,
        );
        assert!(a.is_empty());
    }

    #[test]
    fn a_two_point_eye_is_one_region() {
        // The two-point eye at aa-ba is healthy (both points are liberties) but it is one
        // region, and da is the other: alive.
        let (a, _) = alive(
            "..X.X
             XXXXX
             .....
             .....
             .....",
            Color::Black,
        );
        assert_eq!(a, ["ca"]);
        // Without the second eye it is one vital region: not alive.
        let (a, _) = alive(
            "..X..
             XXX..
             .....
             .....
             .....",
            Color::Black,
        );
        assert!(a.is_empty());
    }

    #[test]
    fn a_straight_three_eye_is_healthy() {
        // bb-cb-db: every point touches the block. With the own eye at fa: alive.
        let (a, _) = alive(
            "XXXXX.X
             X...XXX
             XXXXX..
             .......
             .......
             .......
             .......",
            Color::Black,
        );
        assert_eq!(a, ["aa"]);
    }

    #[test]
    fn a_big_eye_whose_centre_is_no_liberty_is_not_healthy() {
        // The 3x3 eye's centre cc touches only empty points: the region is not healthy, and
        // the block has one vital region (fa).
        let (a, _) = alive(
            "XXXXX.X
             X...XXX
             X...X..
             X...X..
             XXXXX..
             .......
             .......",
            Color::Black,
        );
        assert!(a.is_empty(), "{a:?}");
    }

    #[test]
    fn shared_eyes_on_the_edge_and_in_the_corner() {
        // Bild 9 on a 4x4 board: two blocks, no own eye, two shared corner eyes: both live.
        let (a, t) = alive(
            ".XXX
             X..X
             X..X
             XXX.",
            Color::Black,
        );
        assert_eq!(a, ["ba", "ab"]);
        assert_eq!(t, 2);
    }

    #[test]
    fn a_big_eye_holding_an_opponent_stone() {
        let (a, t) = alive(
            ".X.X...
             XXXX...
             .O.X...
             XXXX...
             .......
             .......
             .......",
            Color::Black,
        );
        // ac-cc with a white stone at bc: every empty point (ac, cc) is a liberty: healthy.
        assert_eq!(a, ["ba"]);
        assert_eq!(t, 1 + 1 + 3);
    }

    #[test]
    fn seki_is_not_alive() {
        let (b, _) = alive(
            "X.OX.
             XXOX.
             OOOX.
             XXXX.
             .....",
            Color::Black,
        );
        // The black corner pair shares liberty ba with White; White shares it too. The outer
        // black block has no eye at all.
        assert!(b.is_empty(), "{b:?}");
        let (w, _) = alive(
            "X.OX.
             XXOX.
             OOOX.
             XXXX.
             .....",
            Color::White,
        );
        assert!(w.is_empty());
    }

    #[test]
    fn a_second_region_that_touches_a_dead_block_does_not_count() {
        // The block at ba has the eye aa and the point ca, which it shares with the lone
        // stone da. da has no second region, so it is dropped; then ca is no longer vital and
        // the big block has one vital region: a false eye. A version that does not require
        // every block around a vital region to be alive calls ba alive.
        let (a, _) = alive(
            ".X.XO
             XXXO.
             .....
             .....
             .....",
            Color::Black,
        );
        assert!(a.is_empty(), "{a:?}");
        // With da connected to the big block, ca is a real eye.
        let (a, _) = alive(
            ".X.XO
             XXXXO
             ....O
             .....
             .....",
            Color::Black,
        );
        assert_eq!(a, ["ba"]);
    }

    #[test]
    fn territory_counts_dead_stones_inside() {
        let (_, t) = alive(
            ".X.X.
             XXXXX
             .....
             .....
             .....",
            Color::Black,
        );
        assert_eq!(t, 3);
        // Territory includes dead white stones inside a vital region.
        let (_, t) = alive(
            ".X.X.
             XXXX.
             OOX..
             XXX..
             .....",
            Color::Black,
        );
        // Regions vital for the living block: aa, ca, and ac-bc (white stones, no empty point).
        assert_eq!(t, 4);
    }
}
