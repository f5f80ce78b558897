//! Invariants of counting and estimating on random positions (proptest):
//! - every point is a stone, territory of one side, or neutral;
//! - teire only ever removes territory points, and territory plus teire is the area count;
//! - swapping the colours swaps the count;
//! - the estimate never kills a protected stone, and kills whole blocks;
//! - the race reader never reads a Benson-alive block as captured: no sequence of legal
//!   moves captures one, so a reader that found such a capture would be playing wrong Go;
//! - finishing keeps every Benson-alive stone, and swapping the colours swaps what it
//!   plays;
//! - the final status calls no Benson-alive stone dead;
//! - every area count is one `no_area_count` accepts, and a point more or less is not.

use proptest::prelude::*;

use super::fast_board::FastBoard;
use super::race::captured_either_way;
use super::*;
use crate::go::rules::Ruleset;
use crate::go::{Board, Cell, Color, Idx};
use crate::life::properties::{position, sizes};
use crate::life::{analyze_life, Net};

fn swapped(b: &Board) -> Board {
    let mut s = b.clone();
    for i in b.points() {
        let p = b.point(i);
        let cell = match b.cell(i) {
            Cell::Stone(c) => Some(c.opponent()),
            _ => None,
        };
        s.setup(p, cell).unwrap();
    }
    s
}

/// Some stones of the position, chosen by the seed's bits.
fn some_stones(b: &Board, seed: u64) -> Vec<Idx> {
    b.points()
        .filter(|&i| matches!(b.cell(i), Cell::Stone(_)))
        .enumerate()
        .filter(|(k, _)| (seed >> (k % 64)) & 1 == 1 && k % 5 == 0)
        .map(|(_, i)| i)
        .collect()
}

/// A random position, its net, and the points of its Benson-alive blocks.
fn with_benson(seed: u64, size: u8) -> (Board, Color, Net, Vec<bool>) {
    let (board, to_move) = position(seed, size);
    let net = Net::build(&board);
    let life = analyze_life(&board, &net, to_move);
    let protected = life.benson_alive_points(&net, board.cell_count());
    (board, to_move, net, protected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_point_is_counted_once(seed in any::<u64>(), size in sizes()) {
        let (board, _) = position(seed, size);
        let dead = some_stones(&board, seed);
        let c = count(&board, &dead);
        let n = u32::from(size) * u32::from(size);
        prop_assert_eq!(
            c.stones[0] + c.stones[1] + c.area_territory[0] + c.area_territory[1] + c.neutral,
            n
        );
        prop_assert_eq!(c.dead[0] + c.dead[1], dead.len() as u32);
        for k in 0..2 {
            prop_assert_eq!(c.territory[k] + c.teire[k], c.area_territory[k]);
        }
    }

    #[test]
    fn counting_is_colour_symmetric(seed in any::<u64>(), size in sizes()) {
        let (board, _) = position(seed, size);
        let a = count(&board, &[]);
        let b = count(&swapped(&board), &[]);
        prop_assert_eq!(a.area_territory, [b.area_territory[1], b.area_territory[0]]);
        prop_assert_eq!(a.stones, [b.stones[1], b.stones[0]]);
        prop_assert_eq!(a.neutral, b.neutral);
        prop_assert_eq!(a.teire, [b.teire[1], b.teire[0]]);
    }

    #[test]
    fn an_area_count_is_never_taken_for_another(
        seed in any::<u64>(),
        size in sizes(),
        komi in prop::sample::select(vec![0.0f32, 0.5, 5.5, 6.5, 7.5, 8.0]),
        handicap in 0u32..5,
    ) {
        let (board, _) = position(seed, size);
        let c = count(&board, &some_stones(&board, seed));
        let area = [0, 1].map(|k| c.stones[k] + c.area_territory[k]);
        let m = margins(&c, [0, 0], komi, Ruleset::Chinese.rules(), handicap).area;
        let re = |m: f32| match m {
            m if m > 0.0 => crate::sgf::result::parse_result(&format!("B+{m}")),
            m if m < 0.0 => crate::sgf::result::parse_result(&format!("W+{}", -m)),
            _ => crate::sgf::result::parse_result("0"),
        };
        let no = |m: f32| no_area_count(area, &re(m), komi, Ruleset::Chinese.rules(), handicap);
        prop_assert_eq!(no(m), Some(false), "the count's own margin {}", m);
        prop_assert_eq!(no(m + 1.0), Some(true));
        prop_assert_eq!(no(m - 1.0), Some(true));
    }

    #[test]
    fn the_estimate_spares_benson_and_kills_whole_blocks(seed in any::<u64>(), size in sizes()) {
        let (board, to_move, net, protected) = with_benson(seed, size);
        let dead = estimate_dead(&board, to_move, &protected);
        for b in &net.blocks {
            let killed = b.stones.iter().filter(|i| dead.contains(i)).count();
            prop_assert!(killed == 0 || killed == b.stones.len(), "part of a block killed");
        }
        for &i in &dead {
            prop_assert!(!protected[i], "Benson-alive stone at {} killed", board.point(i));
        }
    }

    #[test]
    fn the_reader_never_captures_a_benson_alive_block(seed in any::<u64>(), size in sizes()) {
        let (board, _, net, protected) = with_benson(seed, size);
        let fast = FastBoard::from_board(&board);
        for b in net.blocks.iter().filter(|b| protected[b.anchor]) {
            prop_assert!(
                !captured_either_way(&fast, b.anchor),
                "Benson-alive block at {} read as captured",
                board.point(b.anchor)
            );
        }
    }

    #[test]
    fn finishing_keeps_benson_alive_stones_and_is_colour_symmetric(
        seed in any::<u64>(),
        size in sizes(),
    ) {
        let (board, to_move, _, protected) = with_benson(seed, size);
        let dead = estimate_dead(&board, to_move, &protected);
        let f = finish(&board, &dead, to_move);
        for i in board.points().filter(|&i| protected[i]) {
            prop_assert_eq!(f.board.cell(i), board.cell(i), "Benson-alive {} lost", board.point(i));
        }
        let status = final_status(&board, &dead, &f.board, &f.dead);
        for i in board.points().filter(|&i| protected[i]) {
            prop_assert_ne!(status[i], Some(FinalStatus::Dead), "{}", board.point(i));
        }
        let g = finish(&swapped(&board), &dead, to_move.opponent());
        prop_assert_eq!(f.moves(), g.moves());
        prop_assert_eq!(f.captures, [g.captures[1], g.captures[0]]);
        prop_assert_eq!(f.unsure, g.unsure);
        prop_assert_eq!(f.board.to_ascii(), swapped(&g.board).to_ascii());
    }
}
