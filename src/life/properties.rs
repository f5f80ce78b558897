//! Invariants on random legal positions and random nets (proptest):
//! - `mpfix ⊆ benson` (the paper's theorem 3.4, for the fixpoint reading);
//! - Benson-alive stones survive any attack while their owner passes;
//! - on every chain, the grammar's verdict is mpfix's.

use proptest::prelude::*;

use super::*;
use crate::go::random::{play_random, random_position, Rng};
use crate::go::{Board, Cell, Color, Idx};

/// Board sides for random positions (also the scoring properties').
pub(crate) fn sizes() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![5u8, 7, 9, 13])
}

pub(crate) fn position(seed: u64, size: u8) -> (Board, Color) {
    // Between a half-filled board and a finished playout.
    let moves =
        (size as usize * size as usize) / 2 + (seed as usize % (2 * size as usize * size as usize));
    random_position(seed, size, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mpfix_is_within_benson(seed in any::<u64>(), size in sizes()) {
        let (board, to_move) = position(seed, size);
        let net = Net::build(&board);
        let life = analyze_life(&board, &net, to_move);
        for (b, v) in life.blocks.iter().enumerate() {
            prop_assert!(!v.mpfix || v.benson, "block {b} mpfix-alive, not Benson-alive:{board:?}");
        }
    }

    #[test]
    fn benson_alive_stones_survive_attack(seed in any::<u64>(), size in sizes()) {
        let (mut board, _) = position(seed, size);
        let net = Net::build(&board);
        for defender in [Color::Black, Color::White] {
            let b = benson(&net, &Regions::find(&board, &net, defender));
            let alive: Vec<Idx> = net
                .blocks
                .iter()
                .enumerate()
                .filter(|(i, _)| b.alive[*i])
                .flat_map(|(_, blk)| blk.stones.clone())
                .collect();
            let mut attacked = board.clone();
            let mut rng = Rng::new(seed ^ 0xA77AC);
            let attacker = defender.opponent();
            for _ in 0..4 * size as usize * size as usize {
                // The defender passes; the attacker plays anywhere legal, own eyes included.
                attacked.pass();
                if !play_random(&mut attacked, attacker, &mut rng, |_, _| true) {
                    break;
                }
                for &s in &alive {
                    prop_assert_eq!(
                        attacked.cell(s),
                        Cell::Stone(defender),
                        "Benson-alive stone at {} captured:{:?}", attacked.point(s), attacked
                    );
                }
            }
        }
        board.pass();
    }

    #[test]
    fn chains_in_positions_follow_the_grammar(seed in any::<u64>(), size in sizes()) {
        let (board, _) = position(seed, size);
        let net = Net::build(&board);
        for c in [Color::Black, Color::White] {
            let (cnet, _) = ColourNet::of(&net, c);
            let fix = mpfix(&cnet);
            for chain in find_chains(&cnet) {
                let all = chain.blocks.iter().all(|&b| fix[b]);
                prop_assert_eq!(chain.grammar_lives(), all, "chain {:?}", chain);
            }
        }
    }

    #[test]
    fn random_chains_follow_the_grammar(
        own in prop::collection::vec(0usize..4, 2..9),
        closed in any::<bool>(),
    ) {
        let n = own.len();
        let mut eyes: Vec<Vec<usize>> = (0..n - 1).map(|i| vec![i, i + 1]).collect();
        if closed {
            eyes.push(vec![0, n - 1]);
        }
        let net = ColourNet::new(own.clone(), eyes);
        let chains = find_chains(&net);
        prop_assert_eq!(chains.len(), 1);
        let chain = &chains[0];
        prop_assert_eq!(chain.closed, closed);
        prop_assert_eq!(chain.blocks.len(), n);
        let all = mpfix(&net).iter().all(|&a| a);
        prop_assert_eq!(chain.grammar_lives(), all, "word {}", chain.word);
    }
}

#[test]
fn random_positions_are_not_trivial() {
    // The properties above say something only if the positions hold living groups.
    let mut with_life = 0;
    for seed in 0..50 {
        let (board, to_move) = position(seed, 9);
        let net = Net::build(&board);
        let life = analyze_life(&board, &net, to_move);
        with_life += usize::from(life.blocks.iter().any(|v| v.benson));
    }
    assert!(
        with_life > 25,
        "{with_life} of 50 positions have a Benson-alive block"
    );
}
