//! An engine's judgement of a final position (KataGo's ownership and score lead) in this
//! project's terms: the question put to it, dead stones, each block's ownership, the lead as
//! a margin. Pure: the engine's client (`crate::engine`) turns the question into its protocol
//! and hands plain numbers back.
//!
//! The game goes to the engine as its moves where the record is a plain move list (the net
//! reads the last moves and the ko from them), else as the stones of the final position with
//! the player to move; always with the record's rules and a komi that already holds the
//! handicap compensation (so the engine adds none of its own). Given stones only, the engine
//! knows nothing of the prisoners taken before, which territory counting scores: `lead` adds
//! them, so the lead is Black − White − komi exactly as `Margins` counts it.

use super::handicap_compensation;
use crate::go::board::{Board, Cell, Color, Idx, Point};
use crate::go::rules::{Rules, Ruleset, Scoring};
use crate::go::MoveList;
use crate::life::Net;
use crate::score::rules::RecordInfo;

/// A final position as an engine is asked about it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineQuery {
    pub size: u8,
    /// Every stone on the board, in point order.
    pub stones: Vec<(Color, Point)>,
    pub to_move: Color,
    pub rules: Rules,
    /// The record's komi plus the handicap compensation its rules give White.
    pub komi: f32,
    /// The game as moves, where the record is a plain move list.
    pub history: Option<MoveList>,
}

/// What an engine said of a position: Black's lead and the score it expects (Black − White −
/// komi, in the engine's own count of the stones it was given) and each point's ownership, +1
/// Black's, −1 White's, row by row from the top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineView {
    /// The points Black is ahead by: what komi would make the game even.
    pub lead: f32,
    /// The final score the net expects if the game were played out (KataGo's `scoreSelfplay`):
    /// on a finished game, its count rather than its balance, so the nearer of the two to RE.
    pub score: f32,
    pub ownership: Vec<f32>,
    /// The engine replayed the moves (and counted their prisoners), not just the stones.
    pub history: bool,
}

/// An engine's answer to one position, or why there is none (the engine's words).
pub type EngineAnswer = Result<EngineView, NoAnswer>;

/// Why a position has no engine judgement: it could not be asked, the engine refused it, or
/// the answer does not fit it. games.csv's `detail` says it after `katago: `.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NoAnswer {
    #[error("board size {0} is larger than {MAX_SIZE}")]
    TooLarge(u8),
    #[error("komi {0} is not a whole or half point within ±150")]
    Komi(f32),
    /// The engine's own words.
    #[error("{0}")]
    Refused(String),
    /// The in-process net cannot encode the position (KataGo's own refusal).
    #[error("the net cannot be asked: {0}")]
    Unencodable(String),
    /// The in-process net's evaluation panicked, with the panic's message.
    #[error("the net's evaluation panicked: {0}")]
    Panicked(String),
    #[error("ownership has {got} points, the board {want}")]
    Misfit { got: usize, want: usize },
    #[error("lead, score or ownership is not a number")]
    NotANumber,
}

/// The largest board an engine is asked about (KataGo's default build).
pub const MAX_SIZE: u8 = 19;

/// KataGo's name of a ruleset, as an engine is asked under it: a translation of names, since
/// KataGo knows Korean rules by theirs. Ing counts area as Chinese does; unknown rules are
/// counted as territory, as the margins are.
pub fn katago_rules(r: Rules) -> &'static str {
    match r.name {
        Ruleset::Japanese | Ruleset::Unknown => "japanese",
        Ruleset::Korean => "korean",
        Ruleset::Chinese | Ruleset::Ing => "chinese",
        Ruleset::Aga => "aga",
        Ruleset::Nz => "new-zealand",
    }
}

impl EngineQuery {
    /// The question for `board`, `to_move` to play, reached by `history`, under the record's
    /// komi and rules; an error names what the engine could not be asked.
    pub fn of(
        board: &Board,
        to_move: Color,
        rec: &RecordInfo,
        history: Option<MoveList>,
    ) -> Result<EngineQuery, NoAnswer> {
        let size = board.size();
        if size > MAX_SIZE {
            return Err(NoAnswer::TooLarge(size));
        }
        let komi = rec.komi + handicap_compensation(rec.rules, rec.handicap);
        if (komi * 2.0).fract() != 0.0 || komi.abs() > 150.0 {
            return Err(NoAnswer::Komi(komi));
        }
        let stones = board
            .points()
            .filter_map(|i| match board.cell(i) {
                Cell::Stone(c) => Some((c, board.point(i))),
                _ => None,
            })
            .collect();
        Ok(EngineQuery {
            size,
            stones,
            to_move,
            rules: rec.rules,
            komi,
            history,
        })
    }
}

impl EngineView {
    /// The ownership of `p`, Black positive.
    fn at(&self, size: u8, p: Point) -> f32 {
        let i = usize::from(p.y) * usize::from(size) + usize::from(p.x);
        self.ownership.get(i).copied().unwrap_or(0.0)
    }

    /// Checks that the answer fits a board of `size`.
    pub fn fits(&self, size: u8) -> Result<(), NoAnswer> {
        let want = usize::from(size).pow(2);
        if self.ownership.len() != want {
            return Err(NoAnswer::Misfit {
                got: self.ownership.len(),
                want,
            });
        }
        if !self.lead.is_finite()
            || !self.score.is_finite()
            || self.ownership.iter().any(|o| !o.is_finite())
        {
            return Err(NoAnswer::NotANumber);
        }
        Ok(())
    }
}

/// The engine's lead, Black − White − komi under the record's rules (`counted`).
pub fn lead(view: &EngineView, rules: Rules, captures: [u32; 2]) -> f32 {
    counted(view, view.lead, rules, captures)
}

/// The score the engine expects, Black − White − komi under the record's rules (`counted`).
pub fn score(view: &EngineView, rules: Rules, captures: [u32; 2]) -> f32 {
    counted(view, view.score, rules, captures)
}

/// `points` of the engine's count as `Margins` counts them: territory counting adds the
/// prisoners taken in the game (`captures`: Black's, White's) where the engine was given the
/// stones alone and never saw them taken.
fn counted(view: &EngineView, points: f32, rules: Rules, captures: [u32; 2]) -> f32 {
    match rules.scoring {
        Some(Scoring::Territory) if !view.history => {
            points + captures[0] as f32 - captures[1] as f32
        }
        _ => points,
    }
}

/// `lead` on the grid of margins a count can give: whole points when the komi is whole, half
/// points when it has a half (the nearest; a tie goes to Black).
pub fn on_grid(lead: f32, komi: f32) -> f32 {
    let frac = komi - komi.floor();
    let m = (lead - frac + 0.5).floor() + frac;
    if m == 0.0 {
        0.0
    } else {
        m
    }
}

/// An engine's points (its lead or its score) as a margin of the record: `on_grid` under
/// its komi; none without either.
pub fn record_margin(points: Option<f32>, rec: Option<&RecordInfo>) -> Option<f32> {
    points.zip(rec).map(|(p, r)| on_grid(p, r.komi))
}

/// Each block's mean ownership from its owner's side (+1: surely its owner's, −1: surely the
/// opponent's), in the net's block order.
pub fn block_ownership(board: &Board, net: &Net, view: &EngineView) -> Vec<f32> {
    net.blocks
        .iter()
        .map(|b| {
            let sum: f32 = b
                .stones
                .iter()
                .map(|&i| view.at(board.size(), board.point(i)))
                .sum();
            let mean = sum / b.stones.len() as f32;
            match b.color {
                Color::Black => mean,
                Color::White => -mean,
            }
        })
        .collect()
}

/// The stones of the blocks the engine gives to the opponent (mean ownership below zero
/// from the owner's side), in index order.
pub fn dead(net: &Net, own: &[f32]) -> Vec<Idx> {
    let mut dead: Vec<Idx> = net
        .blocks
        .iter()
        .zip(own)
        .filter(|(_, &o)| o < 0.0)
        .flat_map(|(b, _)| b.stones.iter().copied())
        .collect();
    dead.sort_unstable();
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf::GameInfo;

    fn record(km: &str, ru: &str, ha: &str) -> RecordInfo {
        RecordInfo::read(&GameInfo {
            km: km.into(),
            ru: ru.into(),
            ha: ha.into(),
            ..GameInfo::default()
        })
    }

    #[test]
    fn leads_fall_on_the_komis_grid() {
        assert_eq!(on_grid(3.2, 6.5), 3.5);
        assert_eq!(on_grid(2.9, 6.5), 2.5);
        assert_eq!(on_grid(-0.4, 6.5), -0.5);
        assert_eq!(on_grid(3.4, 6.0), 3.0);
        assert_eq!(on_grid(3.6, 0.0), 4.0);
        assert_eq!(on_grid(-0.3, 0.0), 0.0);
        assert_eq!(on_grid(-7.0, 7.5), -6.5);
    }

    #[test]
    fn territory_counting_adds_the_prisoners() {
        let mut view = EngineView {
            lead: 2.0,
            score: 1.5,
            ownership: Vec::new(),
            history: false,
        };
        assert_eq!(lead(&view, Ruleset::Japanese.rules(), [5, 2]), 5.0);
        assert_eq!(score(&view, Ruleset::Japanese.rules(), [5, 2]), 4.5);
        assert_eq!(lead(&view, Ruleset::Chinese.rules(), [5, 2]), 2.0);
        assert_eq!(score(&view, Ruleset::Chinese.rules(), [5, 2]), 1.5);
        view.history = true;
        assert_eq!(lead(&view, Ruleset::Japanese.rules(), [5, 2]), 2.0);
        assert_eq!(score(&view, Ruleset::Japanese.rules(), [5, 2]), 1.5);
    }

    #[test]
    fn the_komi_holds_the_handicap_compensation() {
        let board = Board::new(9).unwrap();
        let q =
            EngineQuery::of(&board, Color::White, &record("0.5", "Chinese", "3"), None).unwrap();
        assert_eq!(q.komi, 3.5);
        let q =
            EngineQuery::of(&board, Color::White, &record("0.5", "Japanese", "3"), None).unwrap();
        assert_eq!(q.komi, 0.5);
        assert!(
            EngineQuery::of(&board, Color::Black, &record("5.75", "Japanese", ""), None).is_err()
        );
    }

    /// A 5×5 board: Black's wall on the third column, a white stone inside Black's side. The
    /// engine gives the white stone to Black; it is dead, Black's blocks are not.
    #[test]
    fn blocks_the_engine_gives_away_are_dead() {
        let board = Board::from_ascii(
            ". . X . .
             . O X . .
             . . X . .
             . . X O .
             . . X . .",
        );
        let net = Net::build(&board);
        let mut ownership = vec![0.0; 25];
        for y in 0..5 {
            for x in 0..5 {
                ownership[y * 5 + x] = if x <= 2 { 0.9 } else { -0.8 };
            }
        }
        let mut view = EngineView {
            lead: 1.0,
            score: 1.0,
            ownership,
            history: false,
        };
        view.fits(5).unwrap();
        assert!(view.fits(9).is_err());
        view.score = f32::NAN;
        assert!(view.fits(5).is_err());
        view.score = 1.0;
        let own = block_ownership(&board, &net, &view);
        let dead = dead(&net, &own);
        let b1 = board.idx(Point::new(1, 1)).unwrap();
        assert_eq!(dead, [b1]);
        let white_outside = net
            .blocks
            .iter()
            .position(|b| b.stones.contains(&board.idx(Point::new(3, 3)).unwrap()))
            .unwrap();
        assert!((own[white_outside] - 0.8).abs() < 1e-6);
    }
}
