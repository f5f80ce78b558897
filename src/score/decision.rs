//! How a final position is counted: the one decision `analyze`, `show` and the report's
//! diagrams all read. Which dead stones count (the record's markup, else an engine's, else
//! the estimate's), whether the board is counted as it stands or finished first, and each
//! source's count.

use super::count::teire_points;
use super::{
    count_as_is, final_status, handicap_compensation, settle, territory, DeadSource, FinalStatus,
    Settled,
};
use crate::go::board::{Board, Cell, Color, Idx};
use crate::go::rules::Scoring;
use crate::life::Net;
use crate::score::rules::RecordInfo;

/// A replayed final position and what the record says of it.
#[derive(Copy, Clone)]
pub struct Ending<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    /// Stones taken by Black and by White.
    pub captures: [u32; 2],
    /// Passes after the last stone played.
    pub trailing_passes: u32,
    pub record: &'a RecordInfo,
}

impl Ending<'_> {
    /// Two passes at the end: the players ended the game, and a server counted what they
    /// left; otherwise the record stopped before the end (a resignation, a time loss, a
    /// record cut short), and a count comes only after finishing it.
    pub fn ended(&self) -> bool {
        self.trailing_passes >= 2
    }
}

/// The dead stones each source gives the position, in board order; `None` where the source
/// is not at hand (no markup, no engine answer, no estimate run).
#[derive(Clone, Debug, Default)]
pub struct DeadStones {
    pub markup: Option<Vec<Idx>>,
    pub katago: Option<Vec<Idx>>,
    pub estimate: Option<Vec<Idx>>,
}

impl DeadStones {
    /// The sources at hand, best first: the order `DeadSource::ALL` gives.
    fn at_hand(self) -> impl Iterator<Item = (DeadSource, Vec<Idx>)> {
        [
            (DeadSource::Markup, self.markup),
            (DeadSource::Katago, self.katago),
            (DeadSource::Estimate, self.estimate),
        ]
        .into_iter()
        .filter_map(|(s, d)| Some((s, d?)))
    }
}

/// One source's dead stones taken to a count.
pub struct Counted {
    pub dead: Vec<Idx>,
    pub settled: Settled,
}

impl Counted {
    /// Each side's points in this count under the record's rules, as an editor adds them
    /// up from the count's marks (`Decision::marks`) and the prisoners; `taken` are the
    /// stones each side captured in the game. `None` when the rules are unknown.
    pub fn sides(&self, taken: [u32; 2], rec: &RecordInfo) -> Option<Sides> {
        let scoring = rec.rules.scoring?;
        let c = &self.settled.count;
        let more = self
            .settled
            .finished
            .as_ref()
            .map_or([0, 0], |f| f.captures);
        let (points, prisoners, compensation) = match scoring {
            Scoring::Territory => (
                c.territory,
                [
                    taken[0] + more[0] + c.dead[1],
                    taken[1] + more[1] + c.dead[0],
                ],
                0.0,
            ),
            Scoring::Area => (
                [0, 1].map(|k| c.stones[k] + c.area_territory[k]),
                [0, 0],
                handicap_compensation(rec.rules, rec.handicap),
            ),
        };
        Some(Sides {
            scoring,
            points,
            prisoners,
            komi: rec.komi,
            compensation,
        })
    }
}

/// Each side's points in a count, the terms an editor adds up: what the count's comment
/// states, so that a reader can check it against the file.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sides {
    pub scoring: Scoring,
    /// Territory (territory counting), or stones and territory (area counting), Black's
    /// and White's.
    pub points: [u32; 2],
    /// Under territory counting, the stones each side took in the game and the finishing
    /// and the opponent's dead stones; none under area counting.
    pub prisoners: [u32; 2],
    pub komi: f32,
    /// What White receives for the handicap under area counting.
    pub compensation: f32,
}

impl Sides {
    /// Black − White − komi (− the compensation): the count's margin.
    pub fn margin(&self) -> f32 {
        let side = |k: usize| (self.points[k] + self.prisoners[k]) as f32;
        side(0) - side(1) - self.komi - self.compensation
    }
}

/// A final position counted with every source at hand.
pub struct Decision {
    /// Counted as it stands (the players ended the game), not finished first.
    pub ended: bool,
    /// Each source's count, by `DeadSource` (`None` where it is not at hand); the `None`
    /// source's count is the board as it stands with nothing dead, always present.
    counts: [Option<Counted>; 4],
    /// The best source with dead stones, if any.
    best: Option<DeadSource>,
}

impl Decision {
    /// The count with `source`'s dead stones, where it is at hand.
    pub fn count(&self, source: DeadSource) -> Option<&Counted> {
        self.counts[source as usize].as_ref()
    }

    /// The best source with dead stones (markup, else the engine's, else the estimate's):
    /// the one the blocks' final status, a diagram's count and `show` take.
    pub fn best(&self) -> Option<(DeadSource, &Counted)> {
        self.best
            .map(|s| (s, self.count(s).expect("the best source is counted")))
    }

    /// The best count: the best source's, else the board as it stands with nothing dead.
    pub fn scored(&self) -> (DeadSource, &Counted) {
        self.best().unwrap_or_else(|| {
            let none = self.count(DeadSource::None).expect("always counted");
            (DeadSource::None, none)
        })
    }

    /// What became of every stone of `board` under the best source with dead stones.
    pub fn final_status(&self, board: &Board) -> Option<Vec<Option<FinalStatus>>> {
        let (_, c) = self.best()?;
        Some(match &c.settled.finished {
            Some(f) => final_status(board, &c.dead, &f.board, &f.dead),
            None => final_status(board, &c.dead, board, &c.dead),
        })
    }

    /// Each side's territory in the best count, the points of the dead stones it takes
    /// included, on `board` (the position before any finishing).
    pub fn territory(&self, board: &Board) -> [Vec<Idx>; 2] {
        let (_, c) = self.scored();
        match &c.settled.finished {
            Some(f) => territory(&f.board, &f.dead),
            None => territory(board, &c.dead),
        }
    }
}

impl Decision {
    /// The points a Go editor's TB/TW must mark for it to count the best count from the
    /// file, on the board counted (after any finishing), in index order: each side's
    /// territory, less its teire points under territory `scoring` (the count leaves them
    /// out), and every dead stone still standing marked for its opponent, so that the
    /// editor removes it even where it stands in no one's area.
    pub fn marks(&self, board: &Board, scoring: Option<Scoring>) -> [Vec<Idx>; 2] {
        let (_, c) = self.scored();
        let (b, dead) = match &c.settled.finished {
            Some(f) => (&f.board, &f.dead[..]),
            None => (board, &c.dead[..]),
        };
        let mut marks = territory(b, dead);
        if scoring == Some(Scoring::Territory) {
            let teire = teire_points(b, dead);
            for (m, t) in marks.iter_mut().zip(&teire) {
                m.retain(|i| !t.contains(i));
            }
        }
        for &i in dead {
            if let Cell::Stone(colour) = b.cell(i) {
                let theirs = &mut marks[colour.opponent().index()];
                if !theirs.contains(&i) {
                    theirs.push(i);
                }
            }
        }
        for m in &mut marks {
            m.sort_unstable();
        }
        marks
    }
}

/// Where a game's margin comes from: games.csv's `score_source`, which names the column it is
/// read from (`margin_<name>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarginSource {
    /// The count with the record's TB/TW marks.
    Markup,
    /// The count with the judge's dead stones, where it lies near the score the judge expects.
    Katago,
    /// The final score the judge expects, on the grid of margins (`margin_katago_score`).
    KatagoScore,
    /// The count with the estimate's dead stones.
    Estimate,
    /// The board as it stands, nothing dead.
    None,
}

impl MarginSource {
    pub const ALL: [MarginSource; 5] = [
        MarginSource::Markup,
        MarginSource::Katago,
        MarginSource::KatagoScore,
        MarginSource::Estimate,
        MarginSource::None,
    ];

    /// The source's name: the margin column's suffix.
    pub fn name(self) -> &'static str {
        match self {
            MarginSource::Markup => "markup",
            MarginSource::Katago => "katago",
            MarginSource::KatagoScore => "katago_score",
            MarginSource::Estimate => "estimate",
            MarginSource::None => "none",
        }
    }

    pub fn named(name: &str) -> Option<MarginSource> {
        MarginSource::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The margin a count with `dead`'s stones gives.
    fn of(dead: DeadSource) -> MarginSource {
        match dead {
            DeadSource::Markup => MarginSource::Markup,
            DeadSource::Katago => MarginSource::Katago,
            DeadSource::Estimate => MarginSource::Estimate,
            DeadSource::None => MarginSource::None,
        }
    }
}

/// How far (in points) a judge's count may lie from the final score it expects and still be
/// the game's margin. A count within it is the score made exact by the board; a count beyond
/// it took a finish the judge does not expect, and the score is nearer. Fitted on
/// `tests/fixtures/pro-held-back.txt`, never on the games it is reported on
/// (`scripts/fit-margin-rule.py`, docs/judge.md).
pub const COUNT_WITHIN: f32 = 0.6;

/// The game's margin: the record's own count where it marks its dead stones; else, where a
/// judge answered, its count when that lies within `COUNT_WITHIN` of the score it expects
/// and that score otherwise; else the count with the best dead stones at hand. `best` is the
/// best source of dead stones, `count` its margin and `score` the judge's expected score
/// (Black − White − komi under the record's rules). RE is never an input.
pub fn pick(best: DeadSource, count: Option<f32>, score: Option<f32>) -> MarginSource {
    match (best, count, score) {
        (DeadSource::Katago, Some(c), Some(s)) if (c - s).abs() > COUNT_WITHIN => {
            MarginSource::KatagoScore
        }
        (DeadSource::Katago, None, Some(_)) => MarginSource::KatagoScore,
        _ => MarginSource::of(best),
    }
}

/// Counts the position with each source's dead stones, the one way every command does:
/// as it stands where the players ended the game, else after finishing it
/// (`settle`); and with nothing dead, as it stands.
pub fn decide(end: Ending, net: &Net, dead: DeadStones) -> Decision {
    let rec = end.record;
    let ended = end.ended();
    let mut counts: [Option<Counted>; 4] = Default::default();
    let mut best = None;
    for (source, dead) in dead.at_hand() {
        let settled = settle(end.board, &dead, end.to_move, end.captures, rec, ended);
        best.get_or_insert(source);
        counts[source as usize] = Some(Counted { dead, settled });
    }
    counts[DeadSource::None as usize] = Some(Counted {
        dead: Vec::new(),
        settled: Settled::as_is(count_as_is(end.board, net), end.captures, rec),
    });
    Decision {
        ended,
        counts,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Ruleset;

    fn record(re: &str) -> RecordInfo {
        let info = crate::sgf::GameInfo {
            re: re.to_string(),
            km: "0".to_string(),
            ru: "Chinese".to_string(),
            ..Default::default()
        };
        RecordInfo::read(&info)
    }

    /// Black's wall on the e line, White's on the f line; a White stone stands dead in
    /// Black's area.
    fn board() -> Board {
        Board::from_ascii(
            ".......XO
             ..O....XO
             .......XO
             .......XO
             .......XO
             .......XO
             .......XO
             .......XO
             .......XO",
        )
    }

    #[test]
    fn the_markup_outranks_the_engine_and_the_estimate() {
        let b = board();
        let rec = record("B+47");
        assert_eq!(rec.rules, Ruleset::Chinese.rules());
        let net = Net::build(&b);
        let white = b.idx(crate::go::Point::from_sgf("cb").unwrap()).unwrap();
        let end = Ending {
            board: &b,
            to_move: Color::Black,
            captures: [0, 0],
            trailing_passes: 2,
            record: &rec,
        };
        let d = decide(
            end,
            &net,
            DeadStones {
                markup: Some(vec![white]),
                katago: Some(Vec::new()),
                estimate: Some(Vec::new()),
            },
        );
        assert!(d.ended);
        let (source, best) = d.best().unwrap();
        assert_eq!(source, DeadSource::Markup);
        assert_eq!(best.dead, [white]);
        assert!(
            best.settled.finished.is_none(),
            "ended games are not finished"
        );
        // Black: 8 columns of 9 with the dead stone's point; White: its 9 stones.
        assert_eq!(
            best.settled.margins.under(Ruleset::Chinese.rules()),
            Some(72.0 - 9.0)
        );
        assert!(d.count(DeadSource::Katago).unwrap().dead.is_empty());
        let none = d.count(DeadSource::None).unwrap();
        assert!(none.dead.is_empty());
        assert_eq!(d.territory(&b)[0].len(), 63);
    }

    #[test]
    fn without_two_passes_the_position_is_finished_first() {
        let b = board();
        let rec = record("W+R");
        let net = Net::build(&b);
        let end = Ending {
            board: &b,
            to_move: Color::White,
            captures: [0, 0],
            trailing_passes: 1,
            record: &rec,
        };
        let d = decide(
            end,
            &net,
            DeadStones {
                estimate: Some(Vec::new()),
                ..DeadStones::default()
            },
        );
        assert!(!d.ended);
        let (source, c) = d.best().unwrap();
        assert_eq!(source, DeadSource::Estimate);
        assert!(c.settled.finished.is_some());
        assert!(d.final_status(&b).is_some());
        let bare = decide(end, &net, DeadStones::default());
        assert!(bare.best().is_none());
        assert_eq!(bare.scored().0, DeadSource::None);
        assert!(bare.final_status(&b).is_none());
    }

    #[test]
    fn a_judges_count_stands_only_near_the_score_it_expects() {
        let k = DeadSource::Katago;
        assert_eq!(pick(k, Some(-3.5), Some(-3.1)), MarginSource::Katago);
        assert_eq!(pick(k, Some(-3.5), Some(-2.4)), MarginSource::KatagoScore);
        assert_eq!(pick(k, None, Some(2.0)), MarginSource::KatagoScore);
        // The record's own count and the estimate's are never weighed against a score.
        assert_eq!(
            pick(DeadSource::Markup, Some(1.0), Some(9.0)),
            MarginSource::Markup
        );
        assert_eq!(
            pick(DeadSource::Estimate, Some(1.0), None),
            MarginSource::Estimate
        );
        assert_eq!(pick(DeadSource::None, None, None), MarginSource::None);
        for s in MarginSource::ALL {
            assert_eq!(MarginSource::named(s.name()), Some(s));
        }
    }
}
