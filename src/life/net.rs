//! Blocks, eyes and the Go net of a position (life-spec §1–3; the paper's Def. 1–6 and 10).
//!
//! A block is a maximal 4-connected set of stones of one colour. An empty point whose every
//! on-board neighbour is a stone of one colour is an eye: an *own eye* when one block owns all
//! those neighbours, a *shared eye* of the 2–4 blocks that do otherwise. For one colour, its
//! blocks (places) and its shared eyes (transitions) form the Go net.
//!
//! The net also keeps the position's *areas* (maximal empty regions) and which blocks of the
//! two colours touch: everything later passes ask of the points (Benson's regions, the count's
//! territory) follows from these, so the board is walked once per block and once per area.

use std::ops::Range;

use smallvec::SmallVec;

use crate::go::{Board, Cell, Color, Idx};

/// Identifies a block within a `Net`: its position in `Net::blocks`.
pub type BlockId = usize;
/// Identifies a shared eye within a `Net`: its position in `Net::shared_eyes`.
pub type EyeId = usize;

const NO_BLOCK: u32 = u32::MAX;

/// A block of stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub color: Color,
    /// The block's first stone in point order; blocks are numbered in this order.
    pub anchor: Idx,
    pub stones: Vec<Idx>,
    pub liberties: u32,
    /// Own eyes (eigA), in point order.
    pub own_eyes: Vec<Idx>,
    /// The shared eyes (gemA) the block touches, in point order.
    pub shared: Vec<EyeId>,
    /// Whether a stone of it is on the edge of the board.
    pub touches_edge: bool,
}

impl Block {
    /// `own(B)`: the number of own eyes.
    pub fn own(&self) -> usize {
        self.own_eyes.len()
    }

    /// `ngem(B)`: the number of shared eyes the block touches.
    pub fn ngem(&self) -> usize {
        self.shared.len()
    }
}

/// A shared eye: an empty point surrounded by stones of 2–4 blocks of one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedEye {
    pub point: Idx,
    pub color: Color,
    /// The distinct blocks around the point, in block order.
    pub blocks: Vec<BlockId>,
}

/// A maximal 4-connected set of empty points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    /// Its first point in point order; areas are numbered in this order.
    pub anchor: Idx,
    pub size: u32,
    /// Bit 0: a black stone borders it; bit 1: a white one does (`Cell::colour_bits`).
    pub border: u8,
    /// Whether any of its points is on the edge of the board.
    pub touches_edge: bool,
    /// The blocks around it, ascending, each with how many of its points are their liberties.
    pub blocks: SmallVec<[(BlockId, u32); 4]>,
    /// Where its points lie in `Net::area_points`.
    points: Range<u32>,
}

/// Blocks and eyes of both colours of one position.
#[derive(Clone, Debug)]
pub struct Net {
    /// Blocks of both colours, in order of their anchors.
    pub blocks: Vec<Block>,
    /// Shared eyes of both colours, in point order.
    pub shared_eyes: Vec<SharedEye>,
    /// Empty regions, in order of their anchors.
    pub areas: Vec<Area>,
    /// The areas' points, area after area, each area's in point order.
    area_points: Vec<Idx>,
    /// Per block, the blocks of the other colour it touches: `contacts[contact_start[b]..
    /// contact_start[b + 1]]`.
    contact_start: Vec<u32>,
    contacts: Vec<u32>,
    /// Per block, the areas it touches, ascending: `touching[touching_start[b]..
    /// touching_start[b + 1]]`.
    touching_start: Vec<u32>,
    touching: Vec<u32>,
}

impl Net {
    /// Finds all blocks, liberties, areas and eyes of a position.
    ///
    /// One scan in point order joins each point with its left and upper neighbour when both
    /// hold the same (union-find); a second numbers the sets in order of their first points,
    /// a third lists each block's stones and each area's points. This replaced a flood fill
    /// per block; the areas it adds spare Benson and the count fills of their own.
    pub fn build(board: &Board) -> Net {
        let n = board.cell_count();
        let stride = board.stride();
        let mut parent: Vec<u32> = vec![0; n];
        // How many sets of stones and of empty points there are, for the lists' capacities.
        let mut sets = [0usize; 2];
        for i in board.points() {
            let c = board.cell(i);
            let kind = usize::from(c == Cell::Empty);
            let mut r = i as u32;
            if board.cell(i - 1) == c {
                r = root(&mut parent, i - 1);
            }
            if board.cell(i - stride) == c {
                let up = root(&mut parent, i - stride);
                // Joined to the left already and the upper set is another: merge the two.
                if up != r && r != i as u32 {
                    let (lo, hi) = (up.min(r), up.max(r));
                    parent[hi as usize] = lo;
                    r = lo;
                    sets[kind] -= 1;
                } else {
                    r = up;
                }
            }
            sets[kind] += usize::from(r == i as u32);
            parent[i] = r;
        }

        // Blocks and areas numbered in order of their first points, with their sizes:
        // `number` is the block or area on each point, `label` the block alone.
        let mut label = vec![NO_BLOCK; n];
        let mut number = vec![NO_BLOCK; n];
        let mut blocks: Vec<Block> = Vec::with_capacity(sets[0]);
        let mut areas: Vec<Area> = Vec::with_capacity(sets[1]);
        let mut block_size: Vec<u32> = Vec::with_capacity(sets[0]);
        // A parent always lies before its child in point order, and a set's root is its
        // first point: in point order, each point's parent is numbered already, with the
        // number of its set, and a root starts a new set.
        for i in board.points() {
            let cell = board.cell(i);
            let up = parent[i] as usize;
            if up != i {
                number[i] = number[up];
            } else if let Cell::Stone(color) = cell {
                number[i] = blocks.len() as u32;
                blocks.push(Block {
                    color,
                    anchor: i,
                    stones: Vec::new(),
                    liberties: 0,
                    own_eyes: Vec::new(),
                    shared: Vec::new(),
                    touches_edge: false,
                });
                block_size.push(0);
            } else {
                number[i] = areas.len() as u32;
                areas.push(Area {
                    anchor: i,
                    size: 0,
                    border: 0,
                    touches_edge: false,
                    blocks: SmallVec::new(),
                    points: 0..0,
                });
            }
            let k = number[i];
            if cell == Cell::Empty {
                areas[k as usize].size += 1;
            } else {
                label[i] = k;
                block_size[k as usize] += 1;
            }
        }

        for (block, &size) in blocks.iter_mut().zip(&block_size) {
            block.stones = Vec::with_capacity(size as usize);
        }
        let mut next = 0u32;
        for area in &mut areas {
            area.points = next..next;
            next += area.size;
        }
        let mut area_points = vec![0; next as usize];
        // Blocks of different colours in touch, each pair once as (lower id, higher id);
        // `met` is the matrix of pairs already listed.
        let blocks_len = blocks.len();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut met = vec![0u64; (blocks_len * blocks_len).div_ceil(64)];
        for i in board.points() {
            let cell = board.cell(i);
            if cell == Cell::Empty {
                let area = &mut areas[number[i] as usize];
                area_points[area.points.end as usize] = i;
                area.points.end += 1;
                continue;
            }
            let b = label[i];
            blocks[b as usize].stones.push(i);
            for nb in [i + 1, i + stride] {
                let other = board.cell(nb);
                if other != cell && other != Cell::Empty && other != Cell::Wall {
                    let o = label[nb];
                    let (x, y) = (b.min(o), b.max(o));
                    let bit = x as usize * blocks_len + y as usize;
                    if met[bit / 64] & 1 << (bit % 64) == 0 {
                        met[bit / 64] |= 1 << (bit % 64);
                        pairs.push((x, y));
                    }
                }
            }
        }

        // The points of the first and last rows and columns.
        let (side, first) = (board.size() as usize, stride + 1);
        let edge = (0..side).flat_map(|k| {
            [
                first + k,
                first + (side - 1) * stride + k,
                first + k * stride,
                first + k * stride + side - 1,
            ]
        });
        for i in edge {
            if board.cell(i) == Cell::Empty {
                areas[number[i] as usize].touches_edge = true;
            } else {
                blocks[label[i] as usize].touches_edge = true;
            }
        }

        find_liberties(board, &label, &mut blocks, &mut areas, &area_points);

        let mut shared_eyes = Vec::new();
        // An eye is an area of one point bordered by one colour; areas come in point order.
        for area in &areas {
            let color = match area.border {
                1 if area.size == 1 => Color::Black,
                2 if area.size == 1 => Color::White,
                _ => continue,
            };
            let p = area.anchor;
            if let [(b, _)] = area.blocks[..] {
                blocks[b].own_eyes.push(p);
            } else {
                let ids: Vec<BlockId> = area.blocks.iter().map(|&(b, _)| b).collect();
                let eye = shared_eyes.len();
                for &b in &ids {
                    blocks[b].shared.push(eye);
                }
                shared_eyes.push(SharedEye {
                    point: p,
                    color,
                    blocks: ids,
                });
            }
        }

        let (contact_start, contacts) = csr(
            blocks.len(),
            pairs.iter().flat_map(|&(x, y)| [(x, y), (y, x)]),
        );
        let (touching_start, touching) = csr(
            blocks.len(),
            areas
                .iter()
                .enumerate()
                .flat_map(|(a, area)| area.blocks.iter().map(move |&(b, _)| (b as u32, a as u32))),
        );
        Net {
            blocks,
            shared_eyes,
            areas,
            area_points,
            contact_start,
            contacts,
            touching_start,
            touching,
        }
    }

    /// The points of an area, in point order.
    pub fn area_points(&self, area: &Area) -> &[Idx] {
        &self.area_points[area.points.start as usize..area.points.end as usize]
    }

    /// The areas a block touches, ascending.
    pub fn touching(&self, b: BlockId) -> impl Iterator<Item = usize> + '_ {
        let range = self.touching_start[b] as usize..self.touching_start[b + 1] as usize;
        self.touching[range].iter().map(|&a| a as usize)
    }

    /// The blocks of the other colour a block touches, in no particular order.
    pub fn contacts(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let range = self.contact_start[b] as usize..self.contact_start[b + 1] as usize;
        self.contacts[range].iter().map(|&o| o as BlockId)
    }

    /// The block on a cell, if any.
    #[cfg(test)]
    pub fn block_at(&self, i: Idx) -> Option<BlockId> {
        self.blocks
            .iter()
            .position(|b| b.stones.binary_search(&i).is_ok())
    }

    /// Ids of one colour's blocks, in order.
    pub fn blocks_of(&self, c: Color) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.blocks.len()).filter(move |&b| self.blocks[b].color == c)
    }

    /// Ids of one colour's shared eyes, in point order.
    pub fn shared_eyes_of(&self, c: Color) -> impl Iterator<Item = EyeId> + '_ {
        (0..self.shared_eyes.len()).filter(move |&e| self.shared_eyes[e].color == c)
    }

    /// Per-colour totals for the games table.
    pub fn totals(&self, c: Color) -> NetTotals {
        let mut t = NetTotals::default();
        for b in self.blocks_of(c) {
            t.blocks += 1;
            t.own_eyes += self.blocks[b].own() as u32;
        }
        t.shared_eyes = self.shared_eyes_of(c).count() as u32;
        t
    }
}

/// A relation as lists per key (compressed rows): for keys `0..keys`, where `key`'s values
/// lie in the second vector, in the order the pairs come.
fn csr(keys: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; keys + 1];
    for (k, _) in pairs.clone() {
        start[k as usize + 1] += 1;
    }
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut values = vec![0u32; start[keys] as usize];
    for (k, v) in pairs {
        values[fill[k as usize] as usize] = v;
        fill[k as usize] += 1;
    }
    (start, values)
}

/// The root of `i`'s set, halving the path on the way.
fn root(parent: &mut [u32], mut i: usize) -> u32 {
    while parent[i] as usize != i {
        parent[i] = parent[parent[i] as usize];
        i = parent[i] as usize;
    }
    i as u32
}

/// Gives each area its border and the blocks around it, and each block its liberties: the
/// points of each area next to it. `label` holds the blocks.
fn find_liberties(
    board: &Board,
    label: &[u32],
    blocks: &mut [Block],
    areas: &mut [Area],
    area_points: &[Idx],
) {
    // Per block: the last area that touched it and how many of that area's points are its
    // liberties; `touched` lists the blocks of the current area.
    let mut last_area = vec![u32::MAX; blocks.len()];
    let mut libs = vec![0u32; blocks.len()];
    let mut touched: Vec<u32> = Vec::new();
    for (id, area) in areas.iter_mut().enumerate() {
        let id = id as u32;
        touched.clear();
        let mut border = 0u8;
        for &i in &area_points[area.points.start as usize..area.points.end as usize] {
            // The blocks around this point, possibly repeated (at most four).
            let mut around = [NO_BLOCK; 4];
            let mut k = 0;
            for nb in board.neighbours(i) {
                border |= board.cell(nb).colour_bits();
                around[k] = label[nb];
                k += usize::from(label[nb] != NO_BLOCK);
            }
            for j in 0..k {
                let b = around[j];
                if around[..j].contains(&b) {
                    continue;
                }
                if last_area[b as usize] != id {
                    last_area[b as usize] = id;
                    libs[b as usize] = 0;
                    touched.push(b);
                }
                libs[b as usize] += 1;
            }
        }
        touched.sort_unstable();
        for &b in &touched {
            blocks[b as usize].liberties += libs[b as usize];
        }
        area.border = border;
        area.blocks = touched
            .iter()
            .map(|&b| (b as BlockId, libs[b as usize]))
            .collect();
    }
}

/// Counts of one colour's part of the net.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct NetTotals {
    pub blocks: u32,
    /// Own eyes summed over the colour's blocks.
    pub own_eyes: u32,
    /// Shared eyes, each counted once.
    pub shared_eyes: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Point;

    fn net(s: &str) -> (Board, Net) {
        let b = Board::from_ascii(s);
        let n = Net::build(&b);
        (b, n)
    }

    #[test]
    fn blocks_liberties_and_anchors() {
        let (b, n) = net("XX...
             X..O.
             ...OO
             .....
             .....");
        assert_eq!(n.blocks.len(), 2);
        assert_eq!(b.point(n.blocks[0].anchor), Point::new(0, 0));
        assert_eq!(n.blocks[0].stones.len(), 3);
        assert_eq!(n.blocks[0].liberties, 3);
        assert_eq!(b.point(n.blocks[1].anchor), Point::new(3, 1));
        assert_eq!(n.blocks[1].liberties, 6);
    }

    #[test]
    fn own_and_shared_eyes() {
        let (b, n) = net(".X.X.
             XXOX.
             .....
             .....
             .....");
        // aa is an own eye of {ba, ab, bb}; ca touches a white stone and ea an empty point.
        assert_eq!(n.blocks[0].own_eyes, vec![b.idx(Point::new(0, 0)).unwrap()]);
        assert!(n.shared_eyes.is_empty());

        let (b, n) = net("X.X..
             .X...
             X....
             .....
             .....");
        // ba is shared by aa, ca, bb; ab by aa, bb, ac.
        assert_eq!(n.shared_eyes.len(), 2);
        assert_eq!(n.shared_eyes[0].point, b.idx(Point::new(1, 0)).unwrap());
        assert_eq!(n.shared_eyes[0].blocks, vec![0, 1, 2]);
        assert_eq!(n.shared_eyes[1].blocks, vec![0, 2, 3]);
        let t = n.totals(Color::Black);
        assert_eq!((t.blocks, t.own_eyes, t.shared_eyes), (4, 0, 2));
        assert_eq!(n.blocks[0].ngem(), 2);
    }

    #[test]
    fn white_eyes_are_counted_apart() {
        let (_, n) = net(".O.O.
             OOOOO
             XXXXX
             .X.X.
             X.X.X");
        let w = n.totals(Color::White);
        let bl = n.totals(Color::Black);
        assert_eq!((w.blocks, w.own_eyes, w.shared_eyes), (1, 3, 0));
        // Black: the big block and three lone stones on the edge share ad, cd, ed, be, de.
        assert_eq!(bl.blocks, 4);
        assert_eq!(bl.own_eyes, 0);
        assert_eq!(bl.shared_eyes, 5);
    }
}
