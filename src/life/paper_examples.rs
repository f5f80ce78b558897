//! The paper's worked examples (Bild 6 and Bild 9), at net level and as board positions, and
//! the edge of the spec: nets where the order of the shared eyes changes mp95's answer.

use super::*;
use crate::go::{Board, Color, Point};
use Mp95Event::{NonVital, Vital, VitalInVorlauf};

// Blocks a..g of Bild 6, and its shared eyes in the order the paper's run visits them.
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const F: usize = 5;
const G: usize = 6;
const ALPHA: usize = 0;
const BETA: usize = 1;
const GAMMA: usize = 2;
const DELTA: usize = 3;
const EPSILON: usize = 4;
const ZETA: usize = 5;

fn bild_6() -> ColourNet {
    ColourNet::new(
        vec![1, 2, 0, 2, 0, 1, 1],
        vec![
            vec![A, B],
            vec![B, C],
            vec![D, F],
            vec![F, G],
            vec![A, B, C],
            vec![B, D, E, F],
        ],
    )
}

#[test]
fn bild_6_net_the_papers_run() {
    let t = mp95_traced(&bild_6());
    assert_eq!(
        t.events,
        [
            VitalInVorlauf(ALPHA),
            VitalInVorlauf(GAMMA),
            VitalInVorlauf(DELTA),
            Vital(EPSILON),
            Vital(BETA),
            NonVital(ZETA),
        ]
    );
    assert_eq!(t.alive, [true, true, true, true, false, true, true]);
    assert_eq!(mpfix(&bild_6()), t.alive);
}

#[test]
fn bild_6_on_a_board() {
    let board = Board::from_ascii(super::examples::BILD_6);
    let net = Net::build(&board);
    // A stone of each block a..g, on the board.
    let at = |x, y| net.block_at(board.idx(Point::new(x, y)).unwrap()).unwrap();
    let named = [
        at(0, 18),
        at(4, 17),
        at(5, 18),
        at(4, 12),
        at(5, 11),
        at(6, 12),
        at(8, 7),
    ];
    let own: Vec<usize> = named.iter().map(|&b| net.blocks[b].own()).collect();
    assert_eq!(own, [1, 2, 0, 2, 0, 1, 1]);
    let ngem: Vec<usize> = named.iter().map(|&b| net.blocks[b].ngem()).collect();
    assert_eq!(ngem, [2, 4, 2, 2, 1, 3, 1]);
    assert_eq!(net.shared_eyes.len(), 6);

    let life = analyze_life(&board, &net, Color::White);
    let verdicts = |f: fn(&BlockVerdict) -> bool| -> Vec<bool> {
        named.iter().map(|&b| f(&life.blocks[b])).collect()
    };
    let expected = [true, true, true, true, false, true, true];
    assert_eq!(verdicts(|v| v.mp95), expected);
    assert_eq!(verdicts(|v| v.mpfix), expected);
    assert_eq!(verdicts(|v| v.benson), expected);

    // In point order the eyes come as δ, γ, ζ, α, β, ε: the Vorlauf makes δ, γ, α vital,
    // then checking β makes ε vital first, as in the paper's run.
    let (cnet, _) = ColourNet::of(&net, Color::Black);
    let t = mp95_traced(&cnet);
    assert_eq!(
        t.events,
        [
            VitalInVorlauf(0),
            VitalInVorlauf(1),
            VitalInVorlauf(3),
            NonVital(2),
            Vital(5),
            Vital(4),
        ]
    );
}

#[test]
fn bild_9_net_two_blocks_two_shared_eyes() {
    let n = ColourNet::new(vec![0, 0], vec![vec![0, 1], vec![0, 1]]);
    let t = mp95_traced(&n);
    assert_eq!(t.alive, [true, true]);
    // No Vorlauf: both blocks are poor. Checking the first eye recurses into the second,
    // whose only poor block is already on the path: the first eye becomes vital inside.
    assert_eq!(t.events, [Vital(0), Vital(1)]);
    assert_eq!(mpfix(&n), [true, true]);
}

#[test]
fn bild_9_on_a_board() {
    let board = Board::from_ascii(super::examples::BILD_9);
    let net = Net::build(&board);
    let life = analyze_life(&board, &net, Color::White);
    assert_eq!(net.blocks.len(), 2);
    for v in &life.blocks {
        assert!(v.mp95 && v.mpfix && v.benson, "{v:?}");
        assert_eq!(v.chain.as_deref(), Some("00"));
    }
    assert_eq!(life.totals[0].chains, 1);
    assert_eq!(life.totals[0].chain_disagreements, 0);
}

/// Five blocks, one own eye among them (block 2), four shared eyes; found by searching random
/// nets over every order of their eyes.
const ORDER_OWN: [usize; 5] = [0, 0, 1, 0, 0];

fn order_net(eyes: &[&[usize]]) -> ColourNet {
    ColourNet::new(
        ORDER_OWN.to_vec(),
        eyes.iter().map(|e| e.to_vec()).collect(),
    )
}

#[test]
fn the_order_of_shared_eyes_changes_mp95() {
    let one = order_net(&[&[2, 3], &[1, 4], &[0, 3], &[0, 3, 4]]);
    let other = order_net(&[&[0, 3, 4], &[0, 3], &[1, 4], &[2, 3]]);
    // The fixpoint reads the same net either way: nobody lives.
    assert_eq!(mpfix(&one), [false; 5]);
    assert_eq!(mpfix(&other), [false; 5]);
    assert_eq!(mp95(&one), [false; 5]);
    // Visiting [0,3,4] first: its check fails, but on the way [2,3] became vital (block 2 has
    // an eye) and then [0,3] from block 0's side; the side effects stay, and blocks 2 and 3
    // end with two effective eyes. Benson would not agree: nothing here is alive.
    assert_eq!(mp95(&other), [false, false, true, true, false]);
}

#[test]
fn a_failed_branch_leaves_a_shared_eye_vital() {
    // Block 1 has one own eye and shares [0,1] with block 0, which has nothing else but a
    // path to block 3 that fails condition J. The second top-level check makes [0,1] vital
    // from inside a branch that then fails; block 1 keeps the eye and "lives".
    let n = ColourNet::new(vec![0, 1, 0, 0], vec![vec![0, 1], vec![0, 2], vec![2, 3]]);
    let t = mp95_traced(&n);
    assert_eq!(t.alive, [false, true, false, false]);
    assert_eq!(
        t.events,
        [
            // check([0,1]): block 0 → [0,2] → block 2 → [2,3]: block 3 has one shared eye.
            NonVital(2),
            NonVital(1),
            NonVital(0),
            // check([0,2]): block 0 → [0,1], now without poor blocks: vital. Block 2 fails.
            Vital(0),
            NonVital(2),
            NonVital(1),
            // check([2,3]): still on the list fixed at the start, visited again.
            NonVital(2),
        ]
    );
    assert_eq!(mpfix(&n), [false; 4]);
}
