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

summable! {
    /// Life totals of one group of games, per colour (index: Black 0, White 1).
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct LifeSums {
        pub games: u64,
        pub blocks: [u64; 2],
        pub stones: [u64; 2],
        pub alive_blocks: PerMethod<[u64; 2]>,
        pub alive_stones: PerMethod<[u64; 2]>,
        pub benson_territory: [u64; 2],
    }
}

summable! {
    /// Blocks against their status at the end of the game (blocks.csv `final`).
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct FinalSums {
        /// Blocks and stones by final status, in `FinalStatus::ALL` order.
        pub blocks: [u64; 3],
        pub stones: [u64; 3],
        /// Per method: blocks and stones that lived to the end (alive or seki) and that the
        /// method proves alive.
        pub proven_blocks: PerMethod<u64>,
        pub proven_stones: PerMethod<u64>,
        /// Per method: blocks it calls alive that died, and their stones.
        pub died: PerMethod<u64>,
        pub died_stones: PerMethod<u64>,
    }
}

impl FinalSums {
    fn add(&mut self, b: &BlockFacts, status: FinalStatus) {
        let k = status as usize;
        self.blocks[k] += 1;
        self.stones[k] += b.stones;
        for m in Method::ALL {
            if b.alive[m] && status.lives() {
                self.proven_blocks[m] += 1;
                self.proven_stones[m] += b.stones;
            }
            let died = b.alive[m] && !status.lives();
            self.died[m] += u64::from(died);
            self.died_stones[m] += if died { b.stones } else { 0 };
        }
    }

    /// Blocks and stones that lived to the end.
    pub fn living(&self) -> (u64, u64) {
        (
            self.blocks[0] + self.blocks[1],
            self.stones[0] + self.stones[1],
        )
    }
}

/// A block a method calls alive that died by the end of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Died {
    pub file: String,
    pub game: String,
    pub colour: String,
    pub anchor: String,
    pub stones: u64,
    pub alive: PerMethod<bool>,
}

summable! {
    /// Margins of one dead-stone source compared with RE.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct SourceSums {
        pub compared: u64,
        pub exact: u64,
        /// Games within one point of RE, the exact ones included.
        pub within_one: u64,
        pub same_winner: u64,
        /// The same three over the scorable games only (no `unscorable` reason).
        pub scorable: u64,
        pub scorable_exact: u64,
        pub scorable_within_one: u64,
        /// The same three over the scorable games whose finish is sure (no `finish_unsure`
        /// flag with the best dead stones).
        pub sure: u64,
        pub sure_exact: u64,
        pub sure_within_one: u64,
        /// Computed − recorded margin, rounded to whole points.
        pub error: BTreeMap<i32, u32>,
        /// `(compared, exact)` by rules, by board size and by era.
        pub by_rules: BTreeMap<Ruleset, (u64, u64)>,
        pub by_size: BTreeMap<u8, (u64, u64)>,
        pub by_era: BTreeMap<Era, (u64, u64)>,
    }
}

impl SourceSums {
    /// Adds a game whose computed margin is `m` and recorded margin `want`.
    fn add(&mut self, m: f64, want: f64, s: &ScoreFacts, r: &ReplayedFacts) {
        let exact = (m - want).abs() < 1e-3;
        let within_one = (m - want).abs() <= 1.0 + 1e-3;
        self.compared += 1;
        self.exact += u64::from(exact);
        self.within_one += u64::from(within_one);
        self.same_winner += u64::from((m > 0.0) == (want > 0.0) || m == want);
        if !s.unscorable {
            self.scorable += 1;
            self.scorable_exact += u64::from(exact);
            self.scorable_within_one += u64::from(within_one);
            if !s.unsure {
                self.sure += 1;
                self.sure_exact += u64::from(exact);
                self.sure_within_one += u64::from(within_one);
            }
        }
        *self.error.entry((m - want).round() as i32).or_default() += 1;
        for e in [
            self.by_rules.entry(r.rules).or_default(),
            self.by_size.entry(r.size).or_default(),
        ] {
            e.0 += 1;
            e.1 += u64::from(exact);
        }
        let e = self.by_era.entry(r.era).or_default();
        e.0 += 1;
        e.1 += u64::from(exact);
    }
}

summable! {
    /// The estimate's dead stones against the markup's, in games that have both.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct DeadSums {
        pub games: u64,
        /// Games where the two sets are the same.
        pub exact: u64,
        /// Stones both call dead, only the estimate does, only the reference (the markup, or
        /// KataGo) does.
        pub both: u64,
        pub estimate_only: u64,
        pub reference_only: u64,
        /// Games whose markup leaves hopeless blocks standing (games.csv `markup_doubt`), and
        /// the exact matches among the others.
        pub doubtful: u64,
        pub exact_undoubted: u64,
        /// The games where they differ, in table order.
        pub differing: Vec<DeadDiff>,
    }
}

/// One game whose estimate differs from its reference (the markup, or KataGo): the points
/// each alone calls dead.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadDiff {
    pub file: String,
    pub game: String,
    pub estimate_only: Vec<String>,
    pub reference_only: Vec<String>,
}

impl DeadSums {
    /// Adds a game from its estimated and marked dead stones (SGF points).
    fn add(&mut self, file: &str, game: &str, estimate: &[String], markup: &[String], doubt: bool) {
        // Points come by column, then row: string order only up to 26 lines, where the SGF
        // letters turn uppercase. Sorted here, the lookups hold for any board.
        let mut e: Vec<&str> = estimate.iter().map(String::as_str).collect();
        let mut m: Vec<&str> = markup.iter().map(String::as_str).collect();
        e.sort_unstable();
        m.sort_unstable();
        let only = |a: &[&str], b: &[&str]| -> Vec<String> {
            a.iter()
                .filter(|p| b.binary_search(p).is_err())
                .map(|p| p.to_string())
                .collect()
        };
        let (estimate_only, reference_only) = (only(&e, &m), only(&m, &e));
        self.games += 1;
        self.both += (e.len() - estimate_only.len()) as u64;
        self.estimate_only += estimate_only.len() as u64;
        self.reference_only += reference_only.len() as u64;
        self.doubtful += u64::from(doubt);
        if estimate_only.is_empty() && reference_only.is_empty() {
            self.exact += 1;
            self.exact_undoubted += u64::from(!doubt);
        } else {
            self.differing.push(DeadDiff {
                file: file.to_string(),
                game: game.to_string(),
                estimate_only,
                reference_only,
            });
        }
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

/// Bins of `dead_share`, a tenth wide (the last holds 1 too).
pub const CALIBRATION_BINS: usize = 10;

/// A calibration bin as the report and summary.csv name it: `0.3-0.4`.
pub fn calibration_bin(i: usize) -> String {
    format!("{:.1}-{:.1}", i as f64 / 10.0, (i + 1) as f64 / 10.0)
}

/// How well `dead_share` states the chance that a block dies, against a reference's verdicts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Blocks judged.
    pub blocks: u64,
    /// The mean of (share − dead)²: 0 for a share always right and sure, 0.25 for 0.5 always.
    pub brier: f64,
    /// The expected calibration error: the bins' gaps between the share stated and the
    /// share found dead, weighted by their blocks.
    pub error: f64,
    /// The largest such gap of a bin, and the bin.
    pub largest_gap: (f64, usize),
}

impl Tally {
    /// `dead_share`'s calibration, when some block has a share and a reference's verdict.
    pub fn calibration(&self) -> Option<Calibration> {
        let blocks: u64 = self.calibration.iter().map(|b| b.0).sum();
        if blocks == 0 {
            return None;
        }
        let mut error = 0.0;
        let mut largest_gap = (0.0, 0);
        for (i, &(n, dead)) in self.calibration.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let gap = (self.calibration_stated[i] as f64 / 1000.0 - dead as f64).abs();
            error += gap;
            if gap / n as f64 > largest_gap.0 {
                largest_gap = (gap / n as f64, i);
            }
        }
        Some(Calibration {
            blocks,
            brier: self.brier as f64 / 1e6 / blocks as f64,
            error: error / blocks as f64,
            largest_gap,
        })
    }

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

    fn add_score(&mut self, g: &GameFacts, s: &ScoreFacts) {
        let r = g.replayed.as_ref().expect("a scored game was replayed");
        self.markup_games += u64::from(s.has_markup);
        // The estimate ran when its territory margin is there (the margin under the game's
        // rules is absent when the rules are unknown).
        if s.has_markup && s.margins[DeadSource::Estimate].territory.is_some() {
            self.dead.add(
                &g.file,
                &g.game,
                &s.dead_estimate,
                &s.dead_markup,
                s.markup_doubt,
            );
        }
        if s.margins[DeadSource::Katago].territory.is_some()
            && s.margins[DeadSource::Estimate].territory.is_some()
        {
            self.dead_katago
                .add(&g.file, &g.game, &s.dead_estimate, &s.dead_katago, false);
        }
        for k in 0..2 {
            self.proven[k] += r.benson_stones[k] + r.benson_territory[k];
            self.area[k] += s.area[k];
        }
        let recorded = match (r.winner, r.re_margin) {
            (Winner::Black, Some(m)) => Some(m),
            (Winner::White, Some(m)) => Some(-m),
            (Winner::Draw, _) => Some(0.0),
            _ => None,
        };
        if recorded.is_some() {
            self.re_margin += 1;
        }
        if s.suspicious {
            self.suspicious.push(Suspicious {
                file: g.file.clone(),
                game: g.game.clone(),
                re: r.re.clone(),
                rules: r.rules.as_str().to_string(),
                low: s.benson_low.clone(),
                high: s.benson_high.clone(),
            });
        }
        let best = s.final_source.unwrap_or(DeadSource::Estimate);
        if let (true, Some(margin)) = (s.count_contradicts, s.margins[best].rules) {
            self.contradicted.push(Contradicted {
                file: g.file.clone(),
                game: g.game.clone(),
                re: r.re.clone(),
                rules: r.rules.as_str().to_string(),
                margin,
                source: s.final_source.map_or("", |d| d.name()).to_string(),
                finished_moves: s.finished_moves.clone(),
            });
        }
        if let Some(no) = s.re_no_area_count {
            self.area_checked += 1;
            if no {
                self.no_area_count.push(NoAreaCount {
                    file: g.file.clone(),
                    game: g.game.clone(),
                    re: r.re.clone(),
                    rules: r.rules.as_str().to_string(),
                    area: s.margins[best].area,
                    territory: s.margins[best].territory,
                });
            }
        }
        if r.how == How::Resign && matches!(r.winner, Winner::Black | Winner::White) {
            if let Some(m) = s.margins[DeadSource::Estimate].territory {
                self.resign_winner.0 += 1;
                let says = if m > 0.0 {
                    Winner::Black
                } else {
                    Winner::White
                };
                self.resign_winner.1 += u64::from(says == r.winner);
            }
        }
        let Some(want) = recorded else {
            return;
        };
        for source in DeadSource::ALL {
            // The margin under the rules the record gives or implies; RE is never an input.
            if let Some(m) = s.margins[source].rules {
                self.sources[source].add(m, want, s, r);
            }
        }
        if let Some(m) = s.katago_lead {
            self.katago_lead.add(m, want, s, r);
        }
        if let Some(m) = s.katago_score {
            self.katago_score.add(m, want, s, r);
        }
        if let Some(m) = s.margin() {
            self.chosen.add(m, want, s, r);
        }
    }

    /// Adds one block of a game that ended as `ending`, played in `era`.
    pub fn add_block(&mut self, ending: Ending, era: Era, b: &BlockFacts) {
        if let (Some(share), Some(status)) = (b.dead_share, b.final_status) {
            let i = usize::from(share / 100).min(CALIBRATION_BINS - 1);
            let dead = !status.lives();
            self.calibration[i].0 += 1;
            self.calibration[i].1 += u64::from(dead);
            self.calibration_stated[i] += u64::from(share);
            let miss = i64::from(share) - if dead { 1000 } else { 0 };
            self.brier += (miss * miss) as u64;
        }
        if let Some(status) = b.final_status {
            self.finals.add(b, status);
            self.finals_by_ending
                .entry(ending)
                .or_default()
                .add(b, status);
            self.finals_by_era.entry(era).or_default().add(b, status);
            if !status.lives() && Method::ALL.into_iter().any(|m| b.alive[m]) {
                self.died.push(Died {
                    file: b.file.to_string(),
                    game: b.game.to_string(),
                    colour: if b.white { "W" } else { "B" }.to_string(),
                    anchor: b.anchor.to_string(),
                    stones: b.stones,
                    alive: b.alive,
                });
            }
        }
        let colour = usize::from(b.white);
        for l in self.life.both(ending) {
            l.blocks[colour] += 1;
            l.stones[colour] += b.stones;
            for m in Method::ALL {
                if b.alive[m] {
                    l.alive_blocks[m][colour] += 1;
                    l.alive_stones[m][colour] += b.stones;
                }
            }
        }
        for a in Method::ALL {
            for c in Method::ALL {
                self.agreement[a][c] += u64::from(b.alive[a] && b.alive[c]);
            }
        }
        let (mp95, mpfix) = (b.alive[Method::Mp95], b.alive[Method::Mpfix]);
        if (mp95 || mpfix) && !b.alive[Method::Benson] {
            self.not_benson.push(NotBenson {
                file: b.file.to_string(),
                game: b.game.to_string(),
                colour: if b.white { "W" } else { "B" }.to_string(),
                anchor: b.anchor.to_string(),
                stones: b.stones,
                mp95,
                mpfix,
            });
        }
    }

    pub fn add_chain(&mut self, c: &ChainFacts) {
        let e = self
            .chains
            .entry((c.word.clone(), c.closed, c.grammar))
            .or_default();
        e.chains += 1;
        e.mp95_all += u64::from(c.mp95_all);
        e.mpfix_all += u64::from(c.mpfix_all);
    }

    pub fn add_big_eye(&mut self, e: &BigEyeFacts) {
        let s = self
            .big_eyes
            .entry((e.size, e.shape.clone()))
            .or_insert_with(|| EyeSums {
                worth: Same(e.worth),
                ..EyeSums::default()
            });
        s.eyes += 1;
        s.classified += u64::from(e.classified);
    }

    /// KataGo's own margins, its lead and its score, as the report names them, where the run
    /// asked KataGo.
    pub fn katago_margins(&self) -> impl Iterator<Item = (&'static str, &SourceSums)> {
        [
            ("katago lead", &self.katago_lead),
            ("katago score", &self.katago_score),
        ]
        .into_iter()
        .filter(|(_, s)| s.compared > 0)
    }

    /// Every source of dead stones by its name, then KataGo's own margins where the run asked
    /// KataGo: what the margin rows of the report, the chart and summary.csv go through.
    pub fn margins(&self) -> impl Iterator<Item = (&'static str, &SourceSums)> {
        std::iter::once((CHOSEN, &self.chosen))
            .chain(self.sources.iter().map(|(src, s)| (src.name(), s)))
            .chain(self.katago_margins())
    }

    /// Blocks on the not-Benson list that `m` (mp95 or mpfix) calls alive.
    pub fn not_benson_by(&self, m: Method) -> u64 {
        self.not_benson
            .iter()
            .filter(|b| match m {
                Method::Mp95 => b.mp95,
                Method::Mpfix => b.mpfix,
                _ => false,
            })
            .count() as u64
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

mod summary;

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
