//! Blocks, eyes and the Go net of a position (life-spec §1–3; the paper's Def. 1–6 and 10).
//!
//! A block is a maximal 4-connected set of stones of one colour. An empty point whose every
//! on-board neighbour is a stone of one colour is an eye: an *own eye* when one block owns all
//! those neighbours, a *shared eye* of the 2–4 blocks that do otherwise. For one colour, its
//! blocks (places) and its shared eyes (transitions) form the Go net.

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

/// Blocks and eyes of both colours of one position.
#[derive(Clone, Debug)]
pub struct Net {
    /// Blocks of both colours, in order of their anchors.
    pub blocks: Vec<Block>,
    /// Shared eyes of both colours, in point order.
    pub shared_eyes: Vec<SharedEye>,
    /// For each cell of the board's padded array, the block on it.
    label: Vec<u32>,
}

impl Net {
    /// Finds all blocks, liberties and eyes of a position.
    pub fn build(board: &Board) -> Net {
        let mut label = vec![NO_BLOCK; board.cell_count()];
        let mut blocks: Vec<Block> = Vec::new();
        // Every stone enters the stack at most once.
        let mut stack = vec![0; board.cell_count()];
        // Liberty marks: lib_mark[i] == id + 1 when point i is already counted for block id.
        let mut lib_mark = vec![0u32; board.cell_count()];
        for start in board.points() {
            let Cell::Stone(color) = board.cell(start) else {
                continue;
            };
            if label[start] != NO_BLOCK {
                continue;
            }
            let id = blocks.len() as u32;
            let mut block = Block {
                color,
                anchor: start,
                stones: Vec::new(),
                liberties: 0,
                own_eyes: Vec::new(),
                shared: Vec::new(),
            };
            label[start] = id;
            stack[0] = start;
            let mut top = 1;
            // Without branches on the neighbours' contents, as in Benson's region fill.
            while top > 0 {
                top -= 1;
                let i = stack[top];
                block.stones.push(i);
                for n in board.neighbours(i) {
                    let cell = board.cell(n);
                    let liberty = (cell == Cell::Empty) & (lib_mark[n] != id + 1);
                    lib_mark[n] = if liberty { id + 1 } else { lib_mark[n] };
                    block.liberties += u32::from(liberty);
                    let joins = (cell == Cell::Stone(color)) & (label[n] == NO_BLOCK);
                    label[n] = if joins { id } else { label[n] };
                    stack[top] = n;
                    top += usize::from(joins);
                }
            }
            block.stones.sort_unstable();
            blocks.push(block);
        }

        let mut shared_eyes = Vec::new();
        for p in board.points() {
            if board.cell(p) != Cell::Empty {
                continue;
            }
            let mut color = None;
            let mut around: [u32; 4] = [NO_BLOCK; 4];
            let mut k = 0;
            let mut is_eye = true;
            for n in board.neighbours(p) {
                match board.cell(n) {
                    Cell::Wall => {}
                    Cell::Empty => {
                        is_eye = false;
                        break;
                    }
                    Cell::Stone(c) => {
                        if color.is_some_and(|cc| cc != c) {
                            is_eye = false;
                            break;
                        }
                        color = Some(c);
                        if !around[..k].contains(&label[n]) {
                            around[k] = label[n];
                            k += 1;
                        }
                    }
                }
            }
            let Some(color) = color.filter(|_| is_eye) else {
                continue;
            };
            if k == 1 {
                blocks[around[0] as usize].own_eyes.push(p);
            } else {
                let mut ids: Vec<BlockId> = around[..k].iter().map(|&b| b as BlockId).collect();
                ids.sort_unstable();
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
        Net {
            blocks,
            shared_eyes,
            label,
        }
    }

    /// Per cell of the padded array, the id of the block on it; `u32::MAX` where none is.
    pub fn labels(&self) -> &[u32] {
        &self.label
    }

    /// The block on a cell, if any.
    #[cfg(test)]
    pub fn block_at(&self, i: Idx) -> Option<BlockId> {
        let l = self.label[i];
        (l != NO_BLOCK).then_some(l as BlockId)
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
