//! Scores of final positions (scoring-spec §2–4): dead stones from the record's markup or
//! from the estimate, territory and area counts, margins against RE, and the bounds Benson's
//! proven life puts on the result.

#[cfg(test)]
mod boards;
pub mod count;
pub mod decision;
pub mod estimate;
mod fast_board;
pub mod finish;
pub mod judgement;
mod playout;
#[cfg(test)]
mod properties;
mod race;
pub mod rules;

pub use count::{count, count_as_is, teire_points, territory, Count};
pub use decision::{decide, pick, Counted, DeadStones, Decision, Ending, MarginSource, Sides};
pub use estimate::{estimate, estimate_dead, Estimate, PLAYOUTS};
pub use finish::{final_status, finish, FinalStatus, Finished, Unsure, Why};

use crate::go::board::{Board, Cell, Color, Idx, Point};
use crate::go::rules::{HandicapBonus, Rules, Scoring};
use crate::sgf::result::{GameResult, Winner};
pub use rules::RecordInfo;

/// Where a final position's dead stones come from (§3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeadSource {
    /// The record's TB/TW marks.
    Markup,
    /// An engine's ownership (`--katago`): the blocks it gives to the opponent.
    Katago,
    /// The seeded playouts of `estimate_dead`.
    Estimate,
    /// Nothing dead: a lower bound for the side with dead stones inside its area.
    None,
}

impl DeadSource {
    /// Every source, in the order the tables write them; the first present is the best.
    pub const ALL: [DeadSource; 4] = [
        DeadSource::Markup,
        DeadSource::Katago,
        DeadSource::Estimate,
        DeadSource::None,
    ];

    /// The source `name` names.
    pub fn named(name: &str) -> Option<DeadSource> {
        DeadSource::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The source's name in column names and in the report.
    pub fn name(self) -> &'static str {
        match self {
            DeadSource::Markup => "markup",
            DeadSource::Katago => "katago",
            DeadSource::Estimate => "estimate",
            DeadSource::None => "none",
        }
    }
}

/// One value per source of dead stones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PerSource<T>(pub [T; 4]);

impl<T> PerSource<T> {
    /// `(source, value)` in table order.
    pub fn iter(&self) -> impl Iterator<Item = (DeadSource, &T)> {
        DeadSource::ALL.into_iter().zip(&self.0)
    }
}

impl<T> std::ops::Index<DeadSource> for PerSource<T> {
    type Output = T;
    fn index(&self, s: DeadSource) -> &T {
        &self.0[s as usize]
    }
}

impl<T> std::ops::IndexMut<DeadSource> for PerSource<T> {
    fn index_mut(&mut self, s: DeadSource) -> &mut T {
        &mut self.0[s as usize]
    }
}

/// Why a finished position is not counted as the players counted it: the count would be a
/// guess, so comparing it with RE says nothing of the method.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unscorable {
    /// The record stopped before the borders were closed: this many neutral points are
    /// left that no dame fill reaches (`Finished::open`).
    OpenBorders(u32),
    /// The record stops in the opening or the middle game: this many stones stand on a
    /// board of that many points, under a third of it (empty records with a result
    /// included).
    FewStones(u32, u32),
    /// Most stones are called dead (this many of that many): the record is not a finished
    /// game, and the estimate's assumption that it is fails.
    MostlyDead(u32, u32),
}

/// Open points from which a record counts as stopped mid-game: fewer are a seki's or a
/// small gap's (docs/scoring.md has how the two differ against RE).
pub const OPEN_BORDERS: u32 = 4;

impl Unscorable {
    /// Whether a finished position can be counted; `dead` of the `stones` of the position
    /// before finishing were called dead.
    pub fn check(f: &Finished, dead: u32, stones: u32) -> Option<Unscorable> {
        let points = u32::from(f.board.size()).pow(2);
        let standing = f.board.count(Color::Black) + f.board.count(Color::White);
        if 3 * standing < points {
            Some(Unscorable::FewStones(standing, points))
        } else if 5 * dead >= 2 * stones {
            Some(Unscorable::MostlyDead(dead, stones))
        } else if f.open >= OPEN_BORDERS {
            Some(Unscorable::OpenBorders(f.open))
        } else {
            None
        }
    }
}

impl std::fmt::Display for Unscorable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unscorable::OpenBorders(n) => write!(f, "open borders: {n} neutral points"),
            Unscorable::FewStones(s, n) => write!(f, "too few stones: {s} on {n} points"),
            Unscorable::MostlyDead(d, s) => write!(f, "most stones dead: {d} of {s}"),
        }
    }
}

/// Margins, Black − White − komi, both ways of counting.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Margins {
    pub territory: f32,
    pub area: f32,
}

impl Margins {
    /// The margin under the game's rules; `None` when the rules are unknown.
    pub fn under(&self, rules: Rules) -> Option<f32> {
        match rules.scoring? {
            Scoring::Territory => Some(self.territory),
            Scoring::Area => Some(self.area),
        }
    }

    /// Whether RE's margin is this one under the game's rules, or under either way of
    /// counting when the rules are unknown; `None` when RE gives no margin.
    pub fn equals_re(&self, rules: Rules, result: Option<&GameResult>) -> Option<bool> {
        let want = signed_margin(result?)?;
        let same = |m: f32| (m - want).abs() < 1e-3;
        Some(match self.under(rules) {
            Some(m) => same(m),
            None => same(self.territory) || same(self.area),
        })
    }
}

/// Points White receives for Black's handicap of two stones or more (`Rules::handicap_bonus`):
/// Chinese HA, AGA HA − 1.
pub fn handicap_compensation(rules: Rules, handicap: u32) -> f32 {
    match rules.handicap_bonus {
        HandicapBonus::N if handicap >= 2 => handicap as f32,
        HandicapBonus::NMinusOne if handicap >= 2 => (handicap - 1) as f32,
        _ => 0.0,
    }
}

/// Black − White − komi from a count and the prisoners taken during the game.
pub fn margins(c: &Count, captures: [u32; 2], komi: f32, rules: Rules, handicap: u32) -> Margins {
    let black = c.territory[0] + captures[0] + c.dead[1];
    let white = c.territory[1] + captures[1] + c.dead[0];
    let area_black = c.stones[0] + c.area_territory[0];
    let area_white = c.stones[1] + c.area_territory[1];
    Margins {
        territory: black as f32 - white as f32 - komi,
        area: area_black as f32 - area_white as f32 - komi - handicap_compensation(rules, handicap),
    }
}

/// The margins of a count made after `finished` (when the record was finished first), under
/// the record's komi, rules and handicap: the prisoners are those of the game, `taken`, and
/// those of the finishing.
pub fn margins_after(
    c: &Count,
    taken: [u32; 2],
    finished: Option<&Finished>,
    rec: &RecordInfo,
) -> Margins {
    let more = finished.map_or([0, 0], |f| f.captures);
    let captures = [taken[0] + more[0], taken[1] + more[1]];
    margins(c, captures, rec.komi, rec.rules, rec.handicap)
}

/// Finishes `board` (`dead` its dead stones, `to_move` to play) and counts it; `taken` are
/// the stones each side captured in the game. The record does not say who starts the dame
/// phase, and where one side can fill a dame in sente the count depends on it: the finish
/// from the other side is counted too, and when its margin under the record's rules (either
/// margin when they are unknown) differs, the finish is unsure (`Unsure::order`). Returns the
/// finish from `to_move`, its count, and the margins of the other.
pub fn finish_and_count(
    board: &Board,
    dead: &[Idx],
    to_move: Color,
    taken: [u32; 2],
    rec: &RecordInfo,
) -> (Finished, Count, Margins) {
    let finish_from = |first: Color| {
        let f = finish(board, dead, first);
        let c = count(&f.board, &f.dead);
        let m = margins_after(&c, taken, Some(&f), rec);
        (f, c, m)
    };
    let (mut f, c, m) = finish_from(to_move);
    let (_, _, other) = finish_from(to_move.opponent());
    f.unsure.order = match rec.rules.scoring {
        Some(_) => m.under(rec.rules) != other.under(rec.rules),
        None => m != other,
    };
    (f, c, other)
}

/// One source's dead stones taken to a count: `settle`'s result.
pub struct Settled {
    pub count: Count,
    /// The finish from the side to move; `None` when the players ended the game.
    pub finished: Option<Finished>,
    /// The count's margins, and those of the finish from the other side.
    pub margins: Margins,
    pub other_start: Option<Margins>,
}

impl Settled {
    /// A count of the position as it stands, nothing finished.
    pub fn as_is(count: Count, taken: [u32; 2], rec: &RecordInfo) -> Settled {
        Settled {
            margins: margins_after(&count, taken, None, rec),
            count,
            finished: None,
            other_start: None,
        }
    }
}

/// Counts `board` with `dead` as its dead stones, the one way `analyze` and `show` both do:
/// as it stands when the players `ended` the game with two passes (a server counted what
/// they left), else after finishing it from both sides (`finish_and_count`).
pub fn settle(
    board: &Board,
    dead: &[Idx],
    to_move: Color,
    taken: [u32; 2],
    rec: &RecordInfo,
    ended: bool,
) -> Settled {
    if ended {
        return Settled::as_is(count(board, dead), taken, rec);
    }
    let (f, count, other) = finish_and_count(board, dead, to_move, taken, rec);
    Settled {
        margins: margins_after(&count, taken, Some(&f), rec),
        count,
        finished: Some(f),
        other_start: Some(other),
    }
}

/// RE's margin as Black − White: positive when Black won, 0 for a draw.
pub fn signed_margin(r: &GameResult) -> Option<f32> {
    match r.winner {
        Winner::Black => r.margin,
        Winner::White => r.margin.map(|m| -m),
        Winner::Draw => Some(0.0),
        Winner::Nobody | Winner::Unknown => None,
    }
}

/// Stones standing on points the opponent's TB/TW marks: dead by the record (§3, markup).
pub fn markup_dead(board: &Board, markup: &[Vec<Point>; 2]) -> Vec<Idx> {
    let mut dead: Vec<Idx> = Vec::new();
    for (owner, points) in markup.iter().enumerate() {
        for &p in points {
            if let (Some(i), Cell::Stone(c)) = (board.idx(p), board.at(p)) {
                if c.index() != owner {
                    dead.push(i);
                }
            }
        }
    }
    dead.sort_unstable();
    dead.dedup();
    dead
}

/// The range of area margins Benson's proof allows: each side scores at least its
/// unconditionally alive stones and territory, at most the board less the other side's.
pub fn benson_bounds(
    proven: [u32; 2],
    size: u8,
    komi: f32,
    rules: Rules,
    handicap: u32,
) -> (f32, f32) {
    let n = f32::from(size) * f32::from(size);
    let extra = komi + handicap_compensation(rules, handicap);
    let low = 2.0 * proven[0] as f32 - n - extra;
    let high = n - 2.0 * proven[1] as f32 - extra;
    (low, high)
}

/// Whether RE contradicts the Benson bounds: its winner's opponent is proven to win, or its
/// margin lies outside the bounds. Under area counting the bounds hold as they are (one point
/// of slack for komi conventions). Territory counting differs from area counting by the
/// stones each side placed (`placed`, Black and White, handicap and setup included: passes
/// make the difference, not only the move order), less up to two points of teire and seki.
/// Unknown rules contradict only when both ways of counting do.
pub fn contradicts_benson(
    bounds: (f32, f32),
    placed: [u32; 2],
    result: &GameResult,
    rules: Rules,
) -> bool {
    let area = |slack: f32, shift: f32| outside(bounds, slack, shift, result);
    let territory_shift = placed[1] as f32 - placed[0] as f32;
    match rules.scoring {
        Some(Scoring::Area) => area(1.0, 0.0),
        Some(Scoring::Territory) => area(2.0, territory_shift),
        None => area(1.0, 0.0) && area(2.0, territory_shift),
    }
}

/// Counts this far from RE are beyond what finishing and the estimate get wrong in a game
/// they are sure of, almost always (docs/scoring.md has the share).
pub const FAR_OFF: f32 = 10.0;

/// Whether a count contradicts RE: another winner by three points or more, or a margin
/// `FAR_OFF` or more away.
pub fn contradicts_count(margin: f32, result: &GameResult) -> bool {
    let Some(want) = signed_margin(result) else {
        return false;
    };
    let off = (margin - want).abs();
    off >= FAR_OFF || (off >= 3.0 && (margin > 0.0) != (want > 0.0))
}

/// Whether RE cannot be an area count of a finished board whose areas are `area` (Black,
/// White): `None` unless the rules count area and RE gives a margin. The two areas and the
/// neutral points make up the board, so Black's lead in area (RE's margin plus komi and the
/// handicap compensation) is a whole number of the same parity as the points the two areas
/// hold; no finishing changes that but a seki's neutral point. A result that breaks it was
/// counted another way (often by territory) or under another komi.
pub fn no_area_count(
    area: [u32; 2],
    result: &GameResult,
    komi: f32,
    rules: Rules,
    handicap: u32,
) -> Option<bool> {
    if rules.scoring? != Scoring::Area {
        return None;
    }
    let lead = signed_margin(result)? + komi + handicap_compensation(rules, handicap);
    let whole = lead.round();
    let held = i64::from(area[0] + area[1]);
    Some((lead - whole).abs() > 1e-3 || (whole as i64 - held) % 2 != 0)
}

fn outside(bounds: (f32, f32), slack: f32, shift: f32, result: &GameResult) -> bool {
    let (low, high) = (bounds.0 + shift - slack, bounds.1 + shift + slack);
    let beaten = match result.winner {
        Winner::Black => high < 0.0,
        Winner::White => low > 0.0,
        _ => false,
    };
    beaten || signed_margin(result).is_some_and(|m| m < low || m > high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Ruleset;
    use crate::sgf::result::parse_result;

    const JAPANESE: Rules = Ruleset::Japanese.rules();
    const CHINESE: Rules = Ruleset::Chinese.rules();
    const UNKNOWN: Rules = Ruleset::Unknown.rules();

    #[test]
    fn margins_count_prisoners_dead_stones_and_komi() {
        let c = Count {
            area_territory: [30, 20],
            territory: [29, 20],
            teire: [1, 0],
            stones: [40, 41],
            dead: [2, 3],
            neutral: 4,
        };
        let m = margins(&c, [5, 6], 6.5, JAPANESE, 0);
        // Black 29 + 5 + 3 = 37, White 20 + 6 + 2 = 28.
        assert_eq!(m.territory, 2.5);
        // Black 40 + 30 = 70, White 41 + 20 = 61.
        assert_eq!(m.area, 2.5);
        let m = margins(&c, [5, 6], 0.5, CHINESE, 4);
        assert_eq!(m.area, 70.0 - 61.0 - 0.5 - 4.0);
        let m = margins(&c, [5, 6], 0.5, Ruleset::Aga.rules(), 4);
        assert_eq!(m.area, 70.0 - 61.0 - 0.5 - 3.0);
    }

    #[test]
    fn re_is_compared_under_the_rules() {
        let m = Margins {
            territory: 2.5,
            area: 3.5,
        };
        let b25 = parse_result("B+2.5");
        assert_eq!(m.equals_re(JAPANESE, Some(&b25)), Some(true));
        assert_eq!(m.equals_re(CHINESE, Some(&b25)), Some(false));
        assert_eq!(
            m.equals_re(UNKNOWN, Some(&parse_result("B+3.5"))),
            Some(true)
        );
        assert_eq!(m.equals_re(JAPANESE, Some(&parse_result("W+R"))), None);
        assert_eq!(m.equals_re(JAPANESE, None), None);
        assert_eq!(m.under(UNKNOWN), None);
    }

    /// On a 19×19 board with no neutral point the areas hold 361 points, so Black's lead
    /// in area is odd: with komi 7.5, B+1.5 and W+0.5 are area counts, W+1.5 and B+2 are not
    /// (the second is no whole number of points from komi); a seki's neutral point turns the
    /// parity, and territory counting has no such rule.
    #[test]
    fn an_area_count_has_the_parity_of_the_points_counted() {
        let no = |area, re: &str, rules| no_area_count(area, &parse_result(re), 7.5, rules, 0);
        let full = [185, 176];
        assert_eq!(no(full, "B+1.5", CHINESE), Some(false));
        assert_eq!(no(full, "W+0.5", CHINESE), Some(false));
        assert_eq!(no(full, "W+1.5", CHINESE), Some(true));
        assert_eq!(no(full, "B+2", CHINESE), Some(true));
        assert_eq!(no([184, 176], "W+1.5", CHINESE), Some(false));
        assert_eq!(no(full, "W+1.5", JAPANESE), None);
        assert_eq!(no(full, "W+R", CHINESE), None);
        // Chinese handicap compensation: White gets a point per stone.
        let handicap = |re: &str| no_area_count(full, &parse_result(re), 0.5, CHINESE, 2);
        assert_eq!(handicap("B+0.5"), Some(false));
        assert_eq!(handicap("B+1.5"), Some(true));
    }

    #[test]
    fn markup_kills_stones_on_the_opponents_marks() {
        let b = Board::from_ascii(
            "X.O
             .XO
             ..O",
        );
        let p = |s: &str| Point::from_sgf(s).unwrap();
        let markup = [vec![p("aa"), p("ba"), p("ca")], vec![p("bb"), p("ab")]];
        let dead: Vec<String> = markup_dead(&b, &markup)
            .iter()
            .map(|&i| b.point(i).to_string())
            .collect();
        assert_eq!(dead, ["ca", "bb"]);
    }

    #[test]
    fn benson_bounds_flag_impossible_results() {
        // Black proves 200 points of 361: at least 200 − 161 − 6.5 = 32.5 ahead.
        let bounds = benson_bounds([200, 50], 19, 6.5, CHINESE, 0);
        assert_eq!(bounds, (32.5, 254.5));
        let even = [150, 150];
        assert!(contradicts_benson(
            bounds,
            even,
            &parse_result("W+R"),
            CHINESE
        ));
        assert!(contradicts_benson(
            bounds,
            even,
            &parse_result("B+10.5"),
            CHINESE
        ));
        assert!(!contradicts_benson(
            bounds,
            even,
            &parse_result("B+40.5"),
            CHINESE
        ));
        assert!(!contradicts_benson(
            bounds,
            even,
            &parse_result("B+30.5"),
            JAPANESE
        ));
        // White placed 40 stones more (Black passed): territory counting gives Black 40 more.
        let whole = benson_bounds([198, 163], 19, 6.5, JAPANESE, 0);
        assert_eq!(whole, (28.5, 28.5));
        let b685 = parse_result("B+68.5");
        assert!(!contradicts_benson(whole, [195, 235], &b685, JAPANESE));
        assert!(contradicts_benson(whole, [195, 235], &b685, CHINESE));
        assert!(!contradicts_benson(whole, [195, 235], &b685, UNKNOWN));
    }

    #[test]
    fn records_stopped_mid_game_are_unscorable() {
        let half = Board::from_ascii(
            "XXXXOOOO.
             XXXXOOOO.
             .........
             .........
             .........
             .........
             .........
             .........
             .........",
        );
        let f = |board: &Board, open: u32| Finished {
            board: board.clone(),
            dead: Vec::new(),
            captures: [0, 0],
            played: Vec::new(),
            unsure: Unsure::default(),
            unsure_at: Vec::new(),
            open,
        };
        // 16 stones on 81 points: under a third.
        assert_eq!(
            Unscorable::check(&f(&half, 0), 0, 16),
            Some(Unscorable::FewStones(16, 81))
        );
        let full = Board::from_ascii(
            "XXXXOOOO.
             XXXXOOOO.
             XXXXOOOO.
             XXXXOOOO.
             XXXXOOOO.
             XXXXOOOO.
             XXXXOOOO.
             .........
             .........",
        );
        assert_eq!(Unscorable::check(&f(&full, 0), 0, 56), None);
        assert_eq!(
            Unscorable::check(&f(&full, 0), 28, 56),
            Some(Unscorable::MostlyDead(28, 56))
        );
        assert_eq!(
            Unscorable::check(&f(&full, OPEN_BORDERS), 0, 56),
            Some(Unscorable::OpenBorders(OPEN_BORDERS))
        );
        assert_eq!(
            Unscorable::OpenBorders(7).to_string(),
            "open borders: 7 neutral points"
        );
    }

    fn record(rules: Rules) -> RecordInfo {
        RecordInfo {
            result: None,
            komi: 6.5,
            komi_source: crate::score::rules::KomiSource::Km,
            komi_in_stones: false,
            rules,
            rules_source: crate::score::rules::RulesSource::Ru,
            handicap: 0,
        }
    }

    /// The cutting-point corner of `finish`'s tests: Black filling the dame at dc leaves
    /// White's pair short of liberties and forces White's teire at ca; White filling dc first
    /// needs none. Who starts decides a point of territory, and the record does not say.
    #[test]
    fn a_dame_filled_in_sente_makes_the_order_unsure() {
        let b = Board::from_ascii(finish::CUTTING_POINT_CORNER);
        let rec = record(JAPANESE);
        let (f, c, other) = finish_and_count(&b, &[], Color::Black, [0, 0], &rec);
        assert!(f.unsure.order && !f.unsure.reading());
        assert_eq!(f.unsure.words(), "order");
        assert_eq!(c.territory, count(&f.board, &f.dead).territory);
        // Black first takes the dame and White pays the teire: a point more for Black.
        let m = margins_after(&c, [0, 0], Some(&f), &rec);
        assert_eq!(m.territory - other.territory, 1.0);
        let (f, _, _) = finish_and_count(&b, &[], Color::White, [0, 0], &record(JAPANESE));
        assert!(f.unsure.order);
    }

    /// Seven dame between two walls force nothing: territory counting gives the same count
    /// whoever starts; area counting gives the starter the odd dame.
    #[test]
    fn plain_dame_leave_the_territory_count_sure() {
        let b = Board::from_ascii(
            "..O.X..
             ..O.X..
             ..O.X..
             ..O.X..
             ..O.X..
             ..O.X..
             ..O.X..",
        );
        for first in [Color::Black, Color::White] {
            let (f, _, _) = finish_and_count(&b, &[], first, [0, 0], &record(JAPANESE));
            assert_eq!((f.moves(), f.unsure), (7, Unsure::default()), "{first:?}");
            let (f, _, _) = finish_and_count(&b, &[], first, [0, 0], &record(CHINESE));
            assert!(f.unsure.order, "{first:?}");
        }
    }
}
