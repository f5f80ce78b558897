//! The report's totals: one summable `Tally`, filled game by game from `Facts`, whether a run
//! feeds it from its typed rows as it writes them or `report DIR` and `merge` feed it from a
//! folder's tables (`read`). Per-part tallies add up (`Summable`) to the tally of the whole.

use std::collections::BTreeMap;

use super::facts::{
    BigEyeFacts, BlockFacts, ChainFacts, Ending, Era, GameFacts, ReplayedFacts, ScoreFacts,
};
use crate::duplicates::DuplicateKind;
use crate::go::rules::Ruleset;
use crate::life::{Method, PerMethod};
use crate::row::{FileAnalysis, GameRow, Status};
use crate::score::{DeadSource, FinalStatus, PerSource};
use crate::sgf::result::{How, Winner};
use crate::sum::{summable, Same, Summable};

/// The report's name of the game's margin (games.csv `score_source` names its column).
pub const CHOSEN: &str = "chosen";

/// Sums per ending, and over all games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ByEnding<T> {
    pub groups: [T; 3],
    pub all: T,
}

impl<T> ByEnding<T> {
    pub fn get(&self, e: Ending) -> &T {
        &self.groups[e as usize]
    }

    /// The sums of `e` and of all games, to add a game to both.
    fn both(&mut self, e: Ending) -> [&mut T; 2] {
        [&mut self.groups[e as usize], &mut self.all]
    }
}

impl<T: Summable> Summable for ByEnding<T> {
    fn add_all(&mut self, other: &Self) {
        self.groups.add_all(&other.groups);
        self.all.add_all(&other.all);
    }
    fn take_away(&mut self, other: &Self) {
        self.groups.take_away(&other.groups);
        self.all.take_away(&other.all);
    }
    fn is_nothing(&self) -> bool {
        self.groups.is_nothing() && self.all.is_nothing()
    }
}

/// A block some method calls alive and Benson does not.
#[derive(Clone, Debug, PartialEq)]
pub struct NotBenson {
    pub file: String,
    pub game: String,
    pub colour: String,
    pub anchor: String,
    pub stones: u64,
    pub mp95: bool,
    pub mpfix: bool,
}

/// A record whose result its finished count contradicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Contradicted {
    pub file: String,
    pub game: String,
    pub re: String,
    pub rules: String,
    /// The count's margin and where its dead stones came from.
    pub margin: f64,
    pub source: String,
    pub finished_moves: String,
}

/// A record whose RE no area count of its finished board gives.
#[derive(Clone, Debug, PartialEq)]
pub struct NoAreaCount {
    pub file: String,
    pub game: String,
    pub re: String,
    pub rules: String,
    /// The finished count's margins, by area (the rules') and by territory.
    pub area: Option<f64>,
    pub territory: Option<f64>,
}

/// A record whose result contradicts what Benson proves.
#[derive(Clone, Debug, PartialEq)]
pub struct Suspicious {
    pub file: String,
    pub game: String,
    pub re: String,
    pub rules: String,
    pub low: String,
    pub high: String,
}

/// A chain word with its kind: `(word, closed, alive by the grammar)`.
pub type ChainKind = (String, bool, bool);

summable! {
    /// Chains of one kind.
    #[derive(Copy, Clone, Debug, Default, PartialEq)]
    pub struct ChainSums {
        pub chains: u64,
        /// Chains whose every block mp95 (mpfix) calls alive.
        pub mp95_all: u64,
        pub mpfix_all: u64,
    }
}

summable! {
    /// Big eyes of one size and shape.
    #[derive(Copy, Clone, Debug, Default, PartialEq)]
    pub struct EyeSums {
        pub eyes: u64,
        /// The shape's worth in eyes with the owner to move and with the opponent to move.
        pub worth: Same<(u32, u32)>,
        /// Eyes whose shape is in the paper's Tab. 2.
        pub classified: u64,
    }
}

summable! {
    /// Everything the report shows.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Tally {
        pub rows: u64,
        pub files: Files,
        pub status: BTreeMap<Status, u64>,
        pub sizes: BTreeMap<u8, u64>,
        /// `(how, winner)` of the games with an RE.
        pub endings: BTreeMap<(How, Winner), u64>,
        pub encodings: BTreeMap<String, u64>,
        pub rules: BTreeMap<Ruleset, u64>,
        pub suicides: u64,
        pub ko_retakes: u64,
        pub setup_games: u64,
        /// Records that repeat the copy of their game that counts, by how: counted here and
        /// nowhere else.
        pub duplicates: BTreeMap<DuplicateKind, u64>,
        pub markup_games: u64,
        pub re_present: u64,
        pub re_parsed: u64,
        pub re_margin: u64,
        /// Raw REs that matched no known form, with their counts.
        pub re_unparsed: BTreeMap<String, u64>,
        pub life: ByEnding<LifeSums>,
        /// `agreement[a][b]`: blocks alive under both methods a and b.
        pub agreement: PerMethod<PerMethod<u64>>,
        pub not_benson: Vec<NotBenson>,
        pub sources: PerSource<SourceSums>,
        /// KataGo's own lead and expected score on the grid of margins (`margin_katago_lead`,
        /// `margin_katago_score`), each counted as a source.
        pub katago_lead: SourceSums,
        pub katago_score: SourceSums,
        /// The game's margin, whichever column `score_source` names (`CHOSEN` in the report).
        pub chosen: SourceSums,
        /// The estimate's dead stones against the markup's, and against KataGo's.
        pub dead: DeadSums,
        pub dead_katago: DeadSums,
        /// Estimate's winner against RE's for resigned games: `(games, agreeing)`.
        pub resign_winner: (u64, u64),
        pub suspicious: Vec<Suspicious>,
        pub contradicted: Vec<Contradicted>,
        /// Games checked for an area count of RE (`re_no_area_count` filled), and those whose RE
        /// is none.
        pub area_checked: u64,
        pub no_area_count: Vec<NoAreaCount>,
        /// Benson-proven points (stones and territory) and area scores, per colour.
        pub proven: [u64; 2],
        pub area: [u64; 2],
        pub chains: BTreeMap<ChainKind, ChainSums>,
        /// By `(size, shape)`.
        pub big_eyes: BTreeMap<(u32, String), EyeSums>,
        /// Blocks against their final status: all, by ending, by era.
        pub finals: FinalSums,
        pub finals_by_ending: BTreeMap<Ending, FinalSums>,
        pub finals_by_era: BTreeMap<Era, FinalSums>,
        pub died: Vec<Died>,
        /// Blocks judged by a reference (markup, KataGo) with the estimate's `dead_share`, by
        /// tenths of it: `(blocks, those the reference calls dead)`.
        pub calibration: [(u64, u64); CALIBRATION_BINS],
        /// Per bin, the sum of those blocks' `dead_share` in thousandths: the share the bin
        /// stated, to set against the share the reference found.
        pub calibration_stated: [u64; CALIBRATION_BINS],
        /// The sum over those blocks of (`dead_share` − dead)², in millionths: the Brier
        /// score's numerator, kept whole so that shards add up exactly.
        pub brier: u64,
    }
}

/// Files, each counted once, even one whose rows two summed tallies share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Files {
    pub count: u64,
    /// The first and last file added.
    first: Option<String>,
    last: Option<String>,
}

impl Files {
    /// Adds a row of `file`; rows come file by file.
    fn add(&mut self, file: &str) {
        if self.last.as_deref() != Some(file) {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(file.to_string());
            }
            self.last = Some(file.to_string());
        }
    }
}

impl Summable for Files {
    fn add_all(&mut self, other: &Self) {
        self.count += other.count;
        if other.first.is_some() && other.first == self.last {
            self.count -= 1;
        }
        if self.first.is_none() {
            self.first.clone_from(&other.first);
        }
        if other.last.is_some() {
            self.last.clone_from(&other.last);
        }
    }
    /// The count only: a game's rows taken away leave its file's rows in place.
    fn take_away(&mut self, other: &Self) {
        self.count -= other.count;
    }
    fn is_nothing(&self) -> bool {
        self.count == 0
    }
}

impl Tally {
    /// Adds one games.csv row.
    pub fn add_game(&mut self, g: &GameFacts) {
        self.rows += 1;
        self.files.add(&g.file);
        *self.status.entry(g.status).or_default() += 1;
        if !g.encoding.is_empty() {
            *self.encodings.entry(g.encoding.clone()).or_default() += 1;
        }
        if let Some(kind) = g.duplicate {
            *self.duplicates.entry(kind).or_default() += 1;
            return;
        }
        let Some(r) = &g.replayed else {
            return;
        };
        *self.sizes.entry(r.size).or_default() += 1;
        self.suicides += r.suicides;
        self.ko_retakes += r.ko_retakes;
        self.setup_games += u64::from(r.setup);
        *self.rules.entry(r.rules).or_default() += 1;
        if !r.re.trim().is_empty() {
            self.re_present += 1;
            *self.endings.entry((r.how, r.winner)).or_default() += 1;
            if r.re_parsed {
                self.re_parsed += 1;
            } else {
                *self.re_unparsed.entry(r.re.clone()).or_default() += 1;
            }
        }
        for l in self.life.both(Ending::of(r.how)) {
            l.games += 1;
            l.benson_territory.add_all(&r.benson_territory);
        }
        if let Some(s) = &r.score {
            self.add_score(g, s);
        }
    }
}

impl Tally {
    /// Adds the rows of one input of a run, as the tables write them.
    pub fn add_file(&mut self, file: &str, a: &FileAnalysis) {
        for g in &a.games {
            self.add_row(file, a, g);
        }
    }

    /// Adds game row `g` of input `file` (analysed as `a`).
    pub fn add_row(&mut self, file: &str, a: &FileAnalysis, g: &GameRow) {
        self.add_game(&GameFacts::of(file, a, g));
        let Some(game) = g.game else { return };
        // A copy's blocks, chains and big eyes are counted with the copy that counts.
        if g.duplicate.is_some() {
            return;
        }
        let ending = Ending::of_row(g);
        let era = Era::of(&g.info.dt);
        let source = g.score.as_ref().and_then(|s| s.final_source());
        for b in &g.blocks {
            self.add_block(ending, era, &BlockFacts::judged(file, game, b, source));
        }
        for c in &g.chains {
            self.add_chain(&ChainFacts::of(c));
        }
        for e in &g.big_eyes {
            self.add_big_eye(&BigEyeFacts::of(e));
        }
    }
}

mod blocks;
mod scores;
mod summary;

pub use blocks::{Died, FinalSums, LifeSums};
pub use scores::{calibration_bin, Calibration, DeadDiff, DeadSums, SourceSums, CALIBRATION_BINS};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::analyze_file;
    use crate::report::facts::{Label, SourceMargins};
    use crate::row::FileAnalysis;

    fn block(stones: u64, alive: &[Method]) -> BlockFacts<'static> {
        BlockFacts {
            file: "a.sgf",
            game: Label::Number(0),
            white: false,
            anchor: Label::Text("aa"),
            stones,
            alive: PerMethod::from_fn(|m| alive.contains(&m)),
            final_status: None,
            dead_share: None,
        }
    }

    /// A block whose final status is known.
    fn ended(stones: u64, alive: &[Method], status: FinalStatus) -> BlockFacts<'static> {
        BlockFacts {
            final_status: Some(status),
            ..block(stones, alive)
        }
    }

    /// A block with a reference's verdict counts in the bin of its dead share; one without
    /// counts nowhere there.
    #[test]
    fn dead_shares_bin_by_tenths_against_the_reference() {
        let mut t = Tally::default();
        for (share, status) in [
            (Some(650), FinalStatus::Dead),
            (Some(699), FinalStatus::Alive),
            (Some(1000), FinalStatus::Dead),
            (None, FinalStatus::Dead),
        ] {
            let b = BlockFacts {
                dead_share: share,
                ..ended(3, &[], status)
            };
            t.add_block(Ending::Score, Era::To2009, &b);
        }
        assert_eq!(t.calibration[6], (2, 1));
        // Shares 0.65 (dead), 0.699 (alive) and 1.0 (dead): (0.35² + 0.699² + 0²) / 3.
        let c = t.calibration().unwrap();
        assert_eq!(c.blocks, 3);
        assert!(
            (c.brier - (0.35f64.powi(2) + 0.699f64.powi(2)) / 3.0).abs() < 1e-9,
            "{c:?}"
        );
        // Bin 0.6-0.7 states 1.349 dead of 2 and finds 1; bin 0.9-1.0 states 1 and finds 1.
        assert!((c.error - 0.349 / 3.0).abs() < 1e-9, "{c:?}");
        assert!((c.largest_gap.0 - 0.349 / 2.0).abs() < 1e-9, "{c:?}");
        assert_eq!(c.largest_gap.1, 6);
        assert_eq!(t.calibration[9], (1, 1));
        assert_eq!(t.calibration.iter().map(|b| b.0).sum::<u64>(), 3);
        assert_eq!(calibration_bin(6), "0.6-0.7");
    }

    #[test]
    fn blocks_count_against_their_final_status() {
        use FinalStatus::*;
        let mut t = Tally::default();
        t.add_block(
            Ending::Score,
            Era::To1989,
            &ended(4, &[Method::Benson, Method::Mp95], Alive),
        );
        t.add_block(Ending::Score, Era::To1989, &ended(2, &[Method::Mp95], Dead));
        t.add_block(Ending::Resign, Era::Since2010, &ended(3, &[], Seki));
        t.add_block(Ending::Resign, Era::Since2010, &block(5, &[Method::Benson]));
        assert_eq!(t.finals.blocks, [1, 1, 1]);
        assert_eq!(t.finals.living(), (2, 7));
        assert_eq!(t.finals.proven_blocks[Method::Benson], 1);
        assert_eq!(t.finals.proven_stones[Method::Mp95], 4);
        assert_eq!(t.finals.died[Method::Mp95], 1);
        assert_eq!(t.finals.died[Method::Benson], 0);
        assert_eq!(t.finals.died_stones[Method::Benson], 0);
        assert!(t.finals.died_stones[Method::Mp95] > 0);
        assert_eq!(t.died.len(), 1);
        assert_eq!(t.finals_by_era[&Era::Since2010].blocks, [0, 1, 0]);
        assert_eq!(t.finals_by_ending[&Ending::Score].living(), (1, 4));
        // A block without a final status counts nowhere here.
        assert_eq!(t.finals_by_ending[&Ending::Resign].blocks, [0, 1, 0]);
    }

    fn game(file: &str, how: How, winner: Winner, margin: Option<f64>) -> GameFacts {
        GameFacts {
            file: file.into(),
            game: "0".into(),
            status: Status::Ok,
            encoding: "UTF-8".into(),
            duplicate: None,
            replayed: Some(super::super::facts::ReplayedFacts {
                size: 19,
                suicides: 0,
                ko_retakes: 1,
                setup: false,
                rules: Ruleset::Japanese,
                how,
                winner,
                re: format!("{}+R", winner.as_str()),
                re_parsed: true,
                re_margin: margin,
                era: Era::To2009,
                benson_territory: [3, 0],
                benson_stones: [10, 0],
                score: None,
            }),
        }
    }

    /// Margins of a scored game: the markup and the estimate as given, nothing dead at 0.
    fn scored(file: &str, margin: f64, markup: f64, estimate: f64) -> GameFacts {
        let mut g = game(file, How::Score, Winner::Black, Some(margin));
        let at = |m: f64| SourceMargins {
            rules: Some(m),
            territory: Some(m),
            area: Some(m + 1.0),
        };
        g.replayed.as_mut().unwrap().score = Some(ScoreFacts {
            has_markup: true,
            dead_markup: vec!["aa".into(), "ba".into()],
            dead_estimate: vec!["ba".into(), "aa".into()],
            dead_katago: Vec::new(),
            katago_lead: None,
            katago_score: None,
            margin_source: crate::score::MarginSource::Markup,
            margins: PerSource([
                at(markup),
                SourceMargins {
                    rules: None,
                    territory: None,
                    area: None,
                },
                at(estimate),
                at(0.0),
            ]),
            suspicious: false,
            unscorable: file.starts_with('u'),
            unsure: file.starts_with('s'),
            count_contradicts: false,
            re_no_area_count: None,
            markup_doubt: false,
            final_source: Some(DeadSource::Markup),
            finished_moves: "0".into(),
            benson_low: "-10".into(),
            benson_high: "20".into(),
            area: [50, 40],
        });
        g
    }

    #[test]
    fn blocks_count_under_their_ending_and_under_all() {
        let mut t = Tally::default();
        t.add_block(
            Ending::Score,
            Era::Unknown,
            &block(4, &[Method::Benson, Method::Mpfix]),
        );
        t.add_block(Ending::Resign, Era::Unknown, &block(2, &[Method::Mp95]));
        let score = t.life.get(Ending::Score);
        assert_eq!((score.blocks, score.stones), ([1, 0], [4, 0]));
        assert_eq!(score.alive_stones[Method::Benson], [4, 0]);
        assert_eq!(score.alive_blocks[Method::Mp95], [0, 0]);
        assert_eq!(t.life.all.blocks, [2, 0]);
        assert_eq!(t.life.all.alive_blocks[Method::Mp95], [1, 0]);
        assert_eq!(t.agreement[Method::Benson][Method::Mpfix], 1);
        assert_eq!(t.agreement[Method::Mp95][Method::Mp95], 1);
        // Alive by mp95, not by Benson: listed.
        assert_eq!(t.not_benson.len(), 1);
        assert_eq!(t.not_benson_by(Method::Mp95), 1);
        assert_eq!(t.not_benson_by(Method::Mpfix), 0);
    }

    #[test]
    fn margins_compare_with_re_per_source() {
        let mut t = Tally::default();
        t.add_game(&scored("a.sgf", 2.5, 2.5, 3.5));
        t.add_game(&scored("b.sgf", 2.5, 2.5, 9.5));
        let markup = &t.sources[DeadSource::Markup];
        assert_eq!(
            (markup.compared, markup.exact, markup.within_one),
            (2, 2, 2)
        );
        let estimate = &t.sources[DeadSource::Estimate];
        assert_eq!((estimate.exact, estimate.within_one), (0, 1));
        assert_eq!(estimate.error.get(&1), Some(&1));
        assert_eq!(estimate.error.get(&7), Some(&1));
        // No game is unscorable: the scorable figures are the same.
        assert_eq!((estimate.scorable, estimate.scorable_exact), (2, 0));
        assert_eq!(estimate.scorable_within_one, 1);
        // Nothing dead gives B+0: the wrong winner, two points off.
        assert_eq!(t.sources[DeadSource::None].same_winner, 0);
        assert_eq!(t.re_margin, 2);
        // Same dead stones in another order: exact.
        assert_eq!((t.dead.games, t.dead.exact, t.dead.both), (2, 2, 4));
        assert_eq!(t.area, [100, 80]);
        assert_eq!(t.proven, [26, 0]);
        // An unscorable game counts among all compared, not among the scorable.
        t.add_game(&scored("u.sgf", 2.5, 2.5, 2.5));
        let estimate = &t.sources[DeadSource::Estimate];
        assert_eq!(
            (estimate.compared, estimate.exact, estimate.scorable),
            (3, 1, 2)
        );
        // A scorable game whose finish is unsure counts among the scorable, not the sure.
        assert_eq!((estimate.sure, estimate.sure_exact), (2, 0));
        t.add_game(&scored("s.sgf", 2.5, 2.5, 2.5));
        let estimate = &t.sources[DeadSource::Estimate];
        assert_eq!((estimate.scorable, estimate.scorable_exact), (3, 1));
        assert_eq!(
            (estimate.sure, estimate.sure_exact, estimate.sure_within_one),
            (2, 0, 1)
        );
        // All four were played in the same era: compared and exact are those of all.
        assert_eq!(estimate.by_era.get(&Era::To2009), Some(&(4, 2)));
        assert_eq!(estimate.by_era.len(), 1);
    }

    #[test]
    fn games_count_by_status_ending_and_file() {
        let mut t = Tally::default();
        t.add_game(&game("a.sgf", How::Resign, Winner::White, None));
        let mut second = game("a.sgf", How::Unknown, Winner::Unknown, None);
        second.game = "1".into();
        t.add_game(&second);
        t.add_game(&GameFacts {
            file: "b.sgf".into(),
            game: String::new(),
            status: Status::ParseError,
            encoding: String::new(),
            duplicate: None,
            replayed: None,
        });
        assert_eq!((t.rows, t.files.count), (3, 2));
        assert_eq!(t.status.get(&Status::Ok), Some(&2));
        assert_eq!(t.status.get(&Status::ParseError), Some(&1));
        assert_eq!(t.encodings.get("UTF-8"), Some(&2));
        assert_eq!(t.life.get(Ending::Resign).games, 1);
        assert_eq!(t.life.get(Ending::Other).games, 1);
        assert_eq!(t.life.all.benson_territory, [6, 0]);
        assert_eq!(t.ko_retakes, 2);
        assert_eq!(t.sizes.get(&19), Some(&2));
    }

    /// A later copy of a game is a row of its status, and counts nowhere else.
    #[test]
    fn a_duplicate_counts_once() {
        let mut t = Tally::default();
        t.add_game(&scored("a.sgf", 2.5, 2.5, 3.5));
        let mut copy = scored("b.sgf", 2.5, 2.5, 3.5);
        copy.duplicate = Some(DuplicateKind::Prefix);
        t.add_game(&copy);
        assert_eq!((t.rows, t.files.count), (2, 2));
        assert_eq!(t.status.get(&Status::Ok), Some(&2));
        assert_eq!(t.duplicates.get(&DuplicateKind::Prefix), Some(&1));
        assert_eq!(t.sizes.get(&19), Some(&1));
        let mut once = Tally::default();
        once.add_game(&scored("a.sgf", 2.5, 2.5, 3.5));
        assert_eq!(t.sources, once.sources);
        assert_eq!(t.life.all.games, 1);
    }

    /// Tallies of consecutive parts add up to the tally of the whole, a file split between
    /// two parts counted once.
    #[test]
    fn parts_add_up_to_the_whole() {
        let games = [
            scored("a.sgf", 2.5, 2.5, 3.5),
            game("a.sgf", How::Resign, Winner::Black, None),
            game("b.sgf", How::Time, Winner::White, None),
            scored("c.sgf", 0.5, 1.5, 0.5),
        ];
        let mut whole = Tally::default();
        for g in &games {
            whole.add_game(g);
            whole.add_block(
                Ending::Score,
                Era::To2009,
                &ended(3, &[Method::Mp95], FinalStatus::Dead),
            );
        }
        whole.add_chain(&ChainFacts {
            word: "2".into(),
            closed: false,
            grammar: true,
            mp95_all: true,
            mpfix_all: true,
        });
        for split in 0..=games.len() {
            let (mut a, mut b) = (Tally::default(), Tally::default());
            for (k, g) in games.iter().enumerate() {
                let part = if k < split { &mut a } else { &mut b };
                part.add_game(g);
                part.add_block(
                    Ending::Score,
                    Era::To2009,
                    &ended(3, &[Method::Mp95], FinalStatus::Dead),
                );
            }
            b.add_chain(&ChainFacts {
                word: "2".into(),
                closed: false,
                grammar: true,
                mp95_all: true,
                mpfix_all: true,
            });
            a.add_all(&b);
            assert_eq!(a, whole, "split at {split}");
        }
        assert_eq!(whole.files.count, 3);
    }

    /// A run's typed rows and the tables written from them give the same tally.
    #[test]
    fn typed_rows_and_their_tables_tally_alike() {
        let files: [(&str, &[u8]); 3] = [
            (
                "a.sgf",
                b"(;SZ[9]KM[6.5]RE[W+0.5]RU[Japanese];B[ee];W[gc];B[gg];TB[aa]TW[ii])",
            ),
            ("b.sgf", b"(;SZ[9];B[ee];W["),
            (
                "c.sgf",
                b"(;SZ[9]RE[B+R];B[cc];W[dc];B[cd];W[dd];B[bd])(;GM[3])",
            ),
        ];
        let dir = tempfile::tempdir().unwrap();
        let mut out =
            crate::sink::Outputs::create(dir.path(), crate::sink::TableFormat::Csv).unwrap();
        let mut typed = Tally::default();
        for (name, bytes) in files {
            let a: FileAnalysis = analyze_file(bytes);
            out.write_file(name, Some(bytes.len() as u64), &a).unwrap();
            typed.add_file(name, &a);
        }
        out.complete().unwrap();
        let read = Tally::read(dir.path()).unwrap();
        assert_eq!(read, typed);
        assert_eq!(typed.rows, 4);
        assert_eq!(typed.sources[DeadSource::Markup].compared, 1);
    }
}
