//! The report's scoring sums: margins against RE per source of dead stones, the estimate's
//! dead stones against a reference, and `dead_share`'s calibration.

use super::*;

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

    pub(super) fn add_score(&mut self, g: &GameFacts, s: &ScoreFacts) {
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
}
