//! One colour's Go net in the abstract form the life procedures read: places (blocks) with
//! their own-eye counts, and transitions (shared eyes) with the blocks they join. Built from
//! a position, or by hand for the paper's figures.

use super::net::{BlockId, Net};
use crate::go::Color;

/// A colour's Go net with local numbering: blocks `0..own.len()` in order of their first
/// stone, shared eyes `0..eyes.len()` in point order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourNet {
    /// `own(B)` per block (own eyes, plus any virtual eyes credited to it).
    pub own: Vec<usize>,
    /// The blocks at each shared eye, ascending.
    pub eyes: Vec<Vec<usize>>,
    /// The shared eyes of each block, in point order.
    pub eyes_of: Vec<Vec<usize>>,
}

impl ColourNet {
    /// A net from own-eye counts and the blocks of each shared eye (given in point order).
    pub fn new(own: Vec<usize>, eyes: Vec<Vec<usize>>) -> ColourNet {
        let mut eyes_of = vec![Vec::new(); own.len()];
        let eyes: Vec<Vec<usize>> = eyes
            .into_iter()
            .map(|mut bs| {
                bs.sort_unstable();
                bs.dedup();
                bs
            })
            .collect();
        for (e, bs) in eyes.iter().enumerate() {
            for &b in bs {
                eyes_of[b].push(e);
            }
        }
        ColourNet { own, eyes, eyes_of }
    }

    /// The net of one colour of a position, and the global ids of its blocks.
    pub fn of(net: &Net, c: Color) -> (ColourNet, Vec<BlockId>) {
        let ids: Vec<BlockId> = net.blocks_of(c).collect();
        let mut local = vec![usize::MAX; net.blocks.len()];
        for (i, &b) in ids.iter().enumerate() {
            local[b] = i;
        }
        let own = ids.iter().map(|&b| net.blocks[b].own()).collect();
        let eyes = net
            .shared_eyes_of(c)
            .map(|e| {
                net.shared_eyes[e]
                    .blocks
                    .iter()
                    .map(|&b| local[b])
                    .collect()
            })
            .collect();
        (ColourNet::new(own, eyes), ids)
    }

    pub fn len(&self) -> usize {
        self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.own.is_empty()
    }

    /// `ngem(B)`.
    pub fn ngem(&self, b: usize) -> usize {
        self.eyes_of[b].len()
    }

    /// The same net with `extra[b]` more own eyes on each block (virtual eyes of big eyes).
    pub fn with_extra_own(&self, extra: &[usize]) -> ColourNet {
        let mut n = self.clone();
        for (o, e) in n.own.iter_mut().zip(extra) {
            *o += e;
        }
        n
    }
}
