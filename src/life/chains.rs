//! Chains and their grammars (chapter 2 of the paper; life-spec §6).
//!
//! A block is *linear* when it has at most two shared eyes; a shared eye is linear when it
//! joins exactly two blocks. A chain is a component of the Go net made of two or more linear
//! blocks joined only by linear shared eyes: a path (open) or a ring (closed). Its word is
//! the digits `min(own(B), 2)` along it. Open chains live, all blocks, iff the word is in
//! G1 = `2 | [12][012]*[12]`; closed chains always live (G2). A component that touches a
//! non-linear block or eye is not a chain: its fate depends on more than the word. A lone
//! block is left out too: its verdict is just `own >= 2`.

use super::colour_net::ColourNet;

/// A chain of one colour's net, blocks in order along it (local block numbers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub blocks: Vec<usize>,
    pub closed: bool,
    pub word: String,
}

impl Chain {
    /// The grammar's verdict: do all blocks of the chain live?
    pub fn grammar_lives(&self) -> bool {
        self.closed || in_g1(&self.word)
    }
}

/// G1 = `2 | [12][012]*[12]`.
pub fn in_g1(word: &str) -> bool {
    let b = word.as_bytes();
    match b {
        [b'2'] => true,
        [first, middle @ .., last] => {
            matches!(first, b'1' | b'2')
                && matches!(last, b'1' | b'2')
                && middle.iter().all(|c| matches!(c, b'0' | b'1' | b'2'))
        }
        _ => false,
    }
}

/// Finds every chain of a colour's net. Chains are listed by their first block, and an open
/// chain is read from the end with the lower block number.
pub fn find_chains(net: &ColourNet) -> Vec<Chain> {
    let n = net.len();
    let mut seen = vec![false; n];
    let mut chains = Vec::new();
    for start in 0..n {
        if seen[start] || net.ngem(start) == 0 {
            continue;
        }
        // The component of `start` in the net.
        let mut comp = vec![start];
        seen[start] = true;
        let mut k = 0;
        while k < comp.len() {
            let b = comp[k];
            k += 1;
            for &e in &net.eyes_of[b] {
                for &o in &net.eyes[e] {
                    if !seen[o] {
                        seen[o] = true;
                        comp.push(o);
                    }
                }
            }
        }
        let linear = comp
            .iter()
            .all(|&b| net.ngem(b) <= 2 && net.eyes_of[b].iter().all(|&e| net.eyes[e].len() == 2));
        if !linear || comp.len() < 2 {
            continue;
        }
        let closed = comp.iter().all(|&b| net.ngem(b) == 2);
        let first = if closed {
            *comp.iter().min().expect("non-empty")
        } else {
            *comp
                .iter()
                .filter(|&&b| net.ngem(b) == 1)
                .min()
                .expect("an open chain has an end")
        };
        let order = walk(net, first, comp.len());
        let word = order
            .iter()
            .map(|&b| char::from(b'0' + net.own[b].min(2) as u8))
            .collect();
        chains.push(Chain {
            blocks: order,
            closed,
            word,
        });
    }
    chains
}

/// The blocks along a path or ring from `first`, following unused eyes.
fn walk(net: &ColourNet, first: usize, len: usize) -> Vec<usize> {
    let mut order = vec![first];
    let mut used_eye = usize::MAX;
    let mut cur = first;
    while order.len() < len {
        let Some((e, next)) = net.eyes_of[cur].iter().find_map(|&e| {
            let other = net.eyes[e].iter().copied().find(|&o| o != cur)?;
            (e != used_eye && !order.contains(&other)).then_some((e, other))
        }) else {
            break;
        };
        used_eye = e;
        order.push(next);
        cur = next;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::life::mpfix;

    #[test]
    fn g1_words() {
        for w in ["2", "11", "12", "21", "101", "1002", "2012"] {
            assert!(in_g1(w), "{w}");
        }
        for w in ["", "0", "1", "01", "10", "020", "102220", "3"] {
            assert!(!in_g1(w), "{w}");
        }
    }

    #[test]
    fn open_chain_word_and_verdict() {
        // 1 - 0 - 2 along eyes (0,1), (1,2).
        let n = ColourNet::new(vec![1, 0, 5], vec![vec![0, 1], vec![1, 2]]);
        let c = find_chains(&n);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].word, "102");
        assert!(!c[0].closed);
        assert!(c[0].grammar_lives());
        assert!(mpfix(&n).iter().all(|&a| a));
    }

    #[test]
    fn bild_9_is_a_closed_chain() {
        let n = ColourNet::new(vec![0, 0], vec![vec![0, 1], vec![0, 1]]);
        let c = find_chains(&n);
        assert_eq!(c.len(), 1);
        assert!(c[0].closed);
        assert_eq!(c[0].word, "00");
        assert!(c[0].grammar_lives());
    }

    #[test]
    fn components_with_a_non_linear_eye_are_not_chains() {
        let n = ColourNet::new(vec![1, 1, 1], vec![vec![0, 1, 2]]);
        assert!(find_chains(&n).is_empty());
        let n = ColourNet::new(vec![1, 0, 1, 1], vec![vec![0, 1], vec![1, 2], vec![1, 3]]);
        assert!(find_chains(&n).is_empty());
    }

    #[test]
    fn a_ring_of_three() {
        let n = ColourNet::new(vec![0, 1, 0], vec![vec![0, 1], vec![1, 2], vec![0, 2]]);
        let c = find_chains(&n);
        assert_eq!(c[0].blocks.len(), 3);
        assert!(c[0].closed);
    }
}
