//! Invariants on random legal positions and random nets (proptest):
//! - `mpfix ⊆ benson` (the paper's theorem 3.4, for the fixpoint reading);
//! - Benson-alive stones survive any attack while their owner passes;
//! - on every chain, the grammar's verdict is mpfix's;
//! - the net's areas and liberties, and Benson's regions put together from the net, are
//!   what a plain flood fill over the points finds.

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

/// The maximal 4-connected sets of on-board points for which `inside` holds, in order of
/// their first points, each in point order: the plain fill the net's shortcuts must agree
/// with.
fn fill(board: &Board, inside: impl Fn(Cell) -> bool) -> Vec<Vec<Idx>> {
    let mut seen = vec![false; board.cell_count()];
    let mut sets = Vec::new();
    for start in board.points() {
        if seen[start] || !inside(board.cell(start)) {
            continue;
        }
        seen[start] = true;
        let mut set = vec![start];
        let mut k = 0;
        while k < set.len() {
            for nb in board.neighbours(set[k]) {
                if !seen[nb] && board.cell(nb) != Cell::Wall && inside(board.cell(nb)) {
                    seen[nb] = true;
                    set.push(nb);
                }
            }
            k += 1;
        }
        set.sort_unstable();
        sets.push(set);
    }
    sets
}

/// The blocks next to any point of `set`, ascending.
fn blocks_around(board: &Board, net: &Net, set: &[Idx], c: Color) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = (0..net.blocks.len())
        .filter(|&b| net.blocks[b].color == c)
        .filter(|&b| {
            net.blocks[b]
                .stones
                .iter()
                .any(|&s| board.neighbours(s).iter().any(|n| set.contains(n)))
        })
        .collect();
    out.sort_unstable();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn areas_and_liberties_are_a_fill_over_the_points(seed in any::<u64>(), size in sizes()) {
        let (board, _) = position(seed, size);
        let net = Net::build(&board);
        let areas = fill(&board, |c| c == Cell::Empty);
        prop_assert_eq!(net.areas.len(), areas.len());
        let mut liberties = vec![0u32; net.blocks.len()];
        for (area, points) in net.areas.iter().zip(&areas) {
            prop_assert_eq!(net.area_points(area), &points[..]);
            prop_assert_eq!(area.anchor, points[0]);
            for &(b, libs) in &area.blocks {
                let next_to = |&&i: &&Idx| {
                    board.neighbours(i).iter().any(|n| net.blocks[b].stones.contains(n))
                };
                prop_assert_eq!(libs as usize, points.iter().filter(next_to).count());
                liberties[b] += libs;
            }
            let mut blocks: Vec<BlockId> = area.blocks.iter().map(|&(b, _)| b).collect();
            blocks.extend(blocks_around(&board, &net, points, Color::Black));
            blocks.extend(blocks_around(&board, &net, points, Color::White));
            blocks.sort_unstable();
            blocks.dedup();
            prop_assert_eq!(blocks.len(), area.blocks.len(), "an area's blocks are all there");
        }
        for (b, block) in net.blocks.iter().enumerate() {
            prop_assert_eq!(block.liberties, liberties[b]);
        }
    }

    #[test]
    fn benson_regions_are_a_fill_over_the_points(seed in any::<u64>(), size in sizes()) {
        let (board, _) = position(seed, size);
        let net = Net::build(&board);
        for c in [Color::Black, Color::White] {
            let found = Regions::find(&net, c).regions;
            let filled = fill(&board, |cell| cell != Cell::Stone(c));
            prop_assert_eq!(found.len(), filled.len());
            for (r, points) in found.iter().zip(&filled) {
                let empty: Vec<Idx> =
                    points.iter().copied().filter(|&i| board.cell(i) == Cell::Empty).collect();
                let blocks = blocks_around(&board, &net, points, c);
                let healthy: Vec<BlockId> = blocks
                    .iter()
                    .copied()
                    .filter(|&b| {
                        empty.iter().all(|&e| {
                            board.neighbours(e).iter().any(|n| net.blocks[b].stones.contains(n))
                        })
                    })
                    .collect();
                let edge = points.iter().any(|&i| {
                    board.neighbours(i).iter().any(|&n| board.cell(n) == Cell::Wall)
                });
                prop_assert_eq!(r.size, points.len());
                prop_assert_eq!(r.empty, empty.len());
                prop_assert_eq!(r.has_opponent, empty.len() < points.len());
                prop_assert_eq!(r.touches_edge, edge);
                prop_assert_eq!(&r.blocks[..], &blocks[..]);
                prop_assert_eq!(&r.healthy_for[..], &healthy[..]);
                let candidate = blocks.len() == 1 && !r.has_opponent && !edge;
                let kept: &[Idx] = if candidate { points } else { &[] };
                prop_assert_eq!(&r.points[..], kept);
            }
        }
    }

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
            let b = benson(&net, &Regions::find(&net, defender));
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
