//! Benson's unconditional life (1976; the paper's Def. 14–18; life-spec §5).
//!
//! For a colour c, a *region* is a maximal 4-connected set of points that are not c. A region
//! is *healthy* for an adjacent c-block when every empty point of it is a liberty of that
//! block. Starting from all c-blocks, a region is *vital* for a block while it is healthy for
//! it and all c-blocks around it remain; blocks with fewer than two vital regions are dropped
//! until nothing changes. What remains cannot be captured even if c always passes.

use smallvec::SmallVec;

use super::net::{BlockId, Net};
use crate::go::{Color, Idx};

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
    /// The regions of colour `c`, put together from the net: a region is a connected set
    /// of the net's areas and of the opponent's blocks, since neither areas nor blocks of one
    /// colour touch each other. Walking that graph is much cheaper than walking the points
    /// (docs/performance.md).
    pub fn find(net: &Net, c: Color) -> Regions {
        let (na, nb) = (net.areas.len(), net.blocks.len());
        // Nodes: areas 0..na, then blocks na..na + nb (only the opponent's are visited).
        // Taking unvisited nodes in order of their first points finds each region at its
        // first point, the order a fill over the points would find them in.
        let mut seen = vec![false; na + nb];
        let mut queue: Vec<usize> = Vec::with_capacity(na + nb);
        // Per c-block: the last region that touched it (1-based) and how many of that
        // region's empty points are its liberties; `touched` lists the region's blocks.
        let mut last_region = vec![0u32; nb];
        let mut libs = vec![0u32; nb];
        let mut touched: Vec<BlockId> = Vec::new();
        let mut regions = Vec::new();
        let opponent: Vec<usize> = (0..nb)
            .filter(|&b| net.blocks[b].color != c)
            .map(|b| na + b)
            .collect();
        let (mut next_area, mut next_block) = (0, 0);
        loop {
            // The unvisited node with the first anchor, area or opponent block.
            while next_area < na && seen[next_area] {
                next_area += 1;
            }
            while next_block < opponent.len() && seen[opponent[next_block]] {
                next_block += 1;
            }
            let start = match (next_area < na, next_block < opponent.len()) {
                (false, false) => break,
                (true, false) => next_area,
                (false, true) => opponent[next_block],
                (true, true) => {
                    let block = opponent[next_block];
                    if net.areas[next_area].anchor < net.blocks[block - na].anchor {
                        next_area
                    } else {
                        block
                    }
                }
            };
            let region_id = regions.len() as u32 + 1;
            let (mut size, mut empty) = (0usize, 0usize);
            let (mut has_opponent, mut touches_edge) = (false, false);
            touched.clear();
            let mut touch = |b: BlockId, l: u32, touched: &mut Vec<BlockId>| {
                if last_region[b] != region_id {
                    last_region[b] = region_id;
                    libs[b] = 0;
                    touched.push(b);
                }
                libs[b] += l;
            };
            queue.clear();
            queue.push(start);
            seen[start] = true;
            let mut k = 0;
            while k < queue.len() {
                let x = queue[k];
                k += 1;
                if x < na {
                    let area = &net.areas[x];
                    size += area.size as usize;
                    empty += area.size as usize;
                    touches_edge |= area.touches_edge;
                    for &(b, l) in &area.blocks {
                        if net.blocks[b].color == c {
                            touch(b, l, &mut touched);
                        } else if !seen[na + b] {
                            seen[na + b] = true;
                            queue.push(na + b);
                        }
                    }
                } else {
                    let block = &net.blocks[x - na];
                    size += block.stones.len();
                    has_opponent = true;
                    touches_edge |= block.touches_edge;
                    for b in net.contacts(x - na) {
                        touch(b, 0, &mut touched);
                    }
                    for a in net.touching(x - na) {
                        if !seen[a] {
                            seen[a] = true;
                            queue.push(a);
                        }
                    }
                }
            }
            touched.sort_unstable();
            let blocks = SmallVec::from_slice(&touched);
            let healthy_for = touched
                .iter()
                .copied()
                .filter(|&b| libs[b] as usize == empty)
                .collect();
            // Without opponent stones a region is a single area, its points in point order.
            let candidate = blocks.len() == 1 && !has_opponent && !touches_edge;
            let points = if candidate {
                SmallVec::from_slice(net.area_points(&net.areas[start]))
            } else {
                SmallVec::new()
            };
            regions.push(Region {
                size,
                empty,
                has_opponent,
                touches_edge,
                blocks,
                healthy_for,
                points,
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
    // Only regions healthy for some block can be vital for one.
    let healthy: Vec<&Region> = regions
        .regions
        .iter()
        .filter(|r| !r.healthy_for.is_empty())
        .collect();
    let mut vital_count = vec![0usize; net.blocks.len()];
    loop {
        vital_count.fill(0);
        for &r in &healthy {
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
        .filter(|r| r.unconditional(&alive))
        .map(|r| r.size)
        .sum();
    Benson { alive, territory }
}

impl Region {
    /// Whether the region is unconditional territory under Benson's verdict `alive`: healthy
    /// for one of its colour's blocks, and all of them alive.
    pub fn unconditional(&self, alive: &[bool]) -> bool {
        !self.healthy_for.is_empty()
            && !self.blocks.is_empty()
            && self.blocks.iter().all(|&b| alive[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Board;

    /// Benson's verdict per block of colour c, as the anchors of the living blocks.
    fn alive(board: &str, c: Color) -> (Vec<String>, usize) {
        let b = Board::from_ascii(board);
        let net = Net::build(&b);
        let res = benson(&net, &Regions::find(&net, c));
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
