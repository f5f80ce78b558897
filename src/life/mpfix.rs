//! `mpfix`: Definition 11 of Müller-Prove (1995) read as an order-independent fixpoint
//! (life-spec §4b). Start with every block; a shared eye counts for its blocks only while all
//! of them remain; drop every block with fewer than two effective eyes; repeat until stable.
//! What remains is the greatest fixpoint, the living set.

use super::colour_net::ColourNet;

/// Which blocks live.
pub fn mpfix(net: &ColourNet) -> Vec<bool> {
    let mut alive = vec![true; net.len()];
    loop {
        let counting: Vec<bool> = net
            .eyes
            .iter()
            .map(|bs| bs.iter().all(|&b| alive[b]))
            .collect();
        let mut removed = false;
        for (b, a) in alive.iter_mut().enumerate() {
            if !*a {
                continue;
            }
            let eff = net.own[b] + net.eyes_of[b].iter().filter(|&&e| counting[e]).count();
            if eff < 2 {
                *a = false;
                removed = true;
            }
        }
        if !removed {
            return alive;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_blocks_need_two_own_eyes() {
        let n = ColourNet::new(vec![0, 1, 2, 3], vec![]);
        assert_eq!(mpfix(&n), [false, false, true, true]);
    }

    #[test]
    fn removal_cascades_along_a_chain() {
        // 1 - 0 - 1: the middle block lives only while both neighbours do, and they only
        // with it: all live. 0 - 1 - 1: the first end falls; the middle keeps its own eye and
        // the eye it shares with the last, which lives on that shared eye.
        let n = ColourNet::new(vec![1, 0, 1], vec![vec![0, 1], vec![1, 2]]);
        assert_eq!(mpfix(&n), [true, true, true]);
        let n = ColourNet::new(vec![0, 1, 1], vec![vec![0, 1], vec![1, 2]]);
        assert_eq!(mpfix(&n), [false, true, true]);
        // 0 - 0 - 1: the cascade reaches the last block.
        let n = ColourNet::new(vec![0, 0, 1], vec![vec![0, 1], vec![1, 2]]);
        assert_eq!(mpfix(&n), [false, false, false]);
    }
}
