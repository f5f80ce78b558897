//! Every life verdict for one position, per block and per colour: Benson, mp95, mpfix, the
//! `+eyes` variants, chains and big eyes.

use super::benson::{benson, Regions};
use super::big_eyes::{find_big_eyes, BigEye};
use super::chains::find_chains;
use super::colour_net::ColourNet;
use super::mp95::mp95;
use super::mpfix::mpfix;
use super::net::{BlockId, Net};
use crate::go::{Board, Color};

/// The verdicts on one block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockVerdict {
    pub benson: bool,
    pub mp95: bool,
    pub mpfix: bool,
    pub mp95_eyes: bool,
    pub mpfix_eyes: bool,
    /// Virtual own eyes credited by big eyes.
    pub virtual_eyes: usize,
    /// The word of the chain the block is in.
    pub chain: Option<String>,
}

/// One colour's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LifeTotals {
    pub benson_blocks: u32,
    pub benson_stones: u32,
    pub mp95_blocks: u32,
    pub mpfix_blocks: u32,
    pub mp95_eyes_blocks: u32,
    pub mpfix_eyes_blocks: u32,
    /// Blocks mp95 calls alive that Benson does not.
    pub mp95_not_benson: u32,
    pub mpfix_not_benson: u32,
    pub benson_territory: u32,
    pub chains: u32,
    /// Chains where mp95 or mpfix does not give the grammar's verdict on every block.
    pub chain_disagreements: u32,
    pub big_eyes: u32,
    pub big_eyes_uncredited: u32,
}

/// A chain found in a position, with how each method reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainVerdict {
    pub color: Color,
    /// The blocks along the chain (ids in the position's net).
    pub blocks: Vec<BlockId>,
    pub closed: bool,
    pub word: String,
    /// The grammar's verdict: all blocks live.
    pub grammar: bool,
    /// Whether mp95 / mpfix call every block of the chain alive.
    pub mp95_all: bool,
    pub mpfix_all: bool,
}

/// All verdicts of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Life {
    /// Per block of the net.
    pub blocks: Vec<BlockVerdict>,
    /// Black, White.
    pub totals: [LifeTotals; 2],
    pub chains: Vec<ChainVerdict>,
    /// Credited big own eyes of both colours.
    pub big_eyes: Vec<BigEye>,
}

impl Life {
    /// Per cell of the board's padded array: whether a stone Benson proves alive stands
    /// there (what the dead-stone estimate must spare).
    pub fn benson_alive_points(&self, net: &Net, cells: usize) -> Vec<bool> {
        let mut alive = vec![false; cells];
        for (b, v) in net.blocks.iter().zip(&self.blocks) {
            if v.benson {
                for &i in &b.stones {
                    alive[i] = true;
                }
            }
        }
        alive
    }
}

/// Runs every method on a position. `to_move` decides the worth of big eyes.
pub fn analyze_life(board: &Board, net: &Net, to_move: Color) -> Life {
    let mut life = Life {
        blocks: vec![BlockVerdict::default(); net.blocks.len()],
        ..Life::default()
    };
    for c in [Color::Black, Color::White] {
        let t = &mut life.totals[c.index()];
        let regions = Regions::find(net, c);
        let b = benson(net, &regions);
        t.benson_territory = b.territory as u32;

        let (cnet, ids) = ColourNet::of(net, c);
        let big = find_big_eyes(board, &regions);
        t.big_eyes = big.eyes.len() as u32;
        t.big_eyes_uncredited = big.uncredited as u32;
        let virtual_eyes = big.virtual_eyes(net, |owner| owner == to_move);
        let extra: Vec<usize> = ids.iter().map(|&g| virtual_eyes[g]).collect();
        let v95 = mp95(&cnet);
        let vfix = mpfix(&cnet);
        // Without big eyes the +eyes nets are the same nets.
        let (v95e, vfixe) = if extra.iter().all(|&e| e == 0) {
            (v95.clone(), vfix.clone())
        } else {
            let with_eyes = cnet.with_extra_own(&extra);
            (mp95(&with_eyes), mpfix(&with_eyes))
        };
        for (local, &g) in ids.iter().enumerate() {
            let v = &mut life.blocks[g];
            v.benson = b.alive[g];
            v.mp95 = v95[local];
            v.mpfix = vfix[local];
            v.mp95_eyes = v95e[local];
            v.mpfix_eyes = vfixe[local];
            v.virtual_eyes = extra[local];
            let stones = net.blocks[g].stones.len() as u32;
            t.benson_blocks += u32::from(v.benson);
            t.benson_stones += if v.benson { stones } else { 0 };
            t.mp95_blocks += u32::from(v.mp95);
            t.mpfix_blocks += u32::from(v.mpfix);
            t.mp95_eyes_blocks += u32::from(v.mp95_eyes);
            t.mpfix_eyes_blocks += u32::from(v.mpfix_eyes);
            t.mp95_not_benson += u32::from(v.mp95 && !v.benson);
            t.mpfix_not_benson += u32::from(v.mpfix && !v.benson);
        }
        for chain in find_chains(&cnet) {
            t.chains += 1;
            let lives = chain.grammar_lives();
            let all95 = chain.blocks.iter().all(|&l| v95[l]);
            let allfix = chain.blocks.iter().all(|&l| vfix[l]);
            t.chain_disagreements += u32::from(all95 != lives || allfix != lives);
            for &l in &chain.blocks {
                life.blocks[ids[l]].chain = Some(chain.word.clone());
            }
            life.chains.push(ChainVerdict {
                color: c,
                blocks: chain.blocks.iter().map(|&l| ids[l]).collect(),
                closed: chain.closed,
                grammar: lives,
                mp95_all: all95,
                mpfix_all: allfix,
                word: chain.word,
            });
        }
        life.big_eyes.extend(big.eyes);
    }
    life
}
