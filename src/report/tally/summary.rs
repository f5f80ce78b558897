//! summary.csv's rows from the tally: counts only, which add up across runs.

use super::*;

impl Tally {
    /// summary.csv rows: `(measure, colour, method, value)`, counts only, so that the rows of
    /// several runs add up to those of one run over all their inputs (less the games one run
    /// repeats of another's: each counts its own first copies).
    pub fn summary(&self) -> Vec<(String, String, String, u64)> {
        let mut out = Vec::new();
        let mut push = |m: &str, c: &str, k: &str, v: u64| {
            out.push((m.to_string(), c.to_string(), k.to_string(), v));
        };
        push("rows", "", "", self.rows);
        push("files", "", "", self.files.count);
        for (s, n) in &self.status {
            push("games", "", &format!("status:{}", s.as_str()), *n);
        }
        for (s, n) in &self.sizes {
            push("games", "", &format!("size:{s}"), *n);
        }
        for (k, n) in &self.duplicates {
            push("games", "", &format!("duplicate:{}", k.as_str()), *n);
        }
        for (i, (blocks, dead)) in self.calibration.iter().enumerate() {
            let bin = format!("dead_share:{}", calibration_bin(i));
            push("calibration", "", &format!("{bin}:blocks"), *blocks);
            push("calibration", "", &format!("{bin}:dead"), *dead);
            let stated = self.calibration_stated[i];
            push(
                "calibration",
                "",
                &format!("{bin}:share_sum_thousandths"),
                stated,
            );
        }
        push("calibration", "", "brier_sum_millionths", self.brier);
        for ((how, winner), n) in &self.endings {
            push(
                "games",
                "",
                &format!("ended:{}:{}", how.as_str(), winner.as_str()),
                *n,
            );
        }
        push("re", "", "present", self.re_present);
        push("re", "", "parsed", self.re_parsed);
        push("re", "", "with_margin", self.re_margin);
        push("games", "", "has_markup", self.markup_games);
        let all = &self.life.all;
        for (k, colour) in ["B", "W"].iter().enumerate() {
            push("blocks", colour, "all", all.blocks[k]);
            push("stones", colour, "all", all.stones[k]);
            for m in Method::ALL {
                push("blocks_alive", colour, m.name(), all.alive_blocks[m][k]);
                push("stones_alive", colour, m.name(), all.alive_stones[m][k]);
            }
            push("territory", colour, "benson", all.benson_territory[k]);
            push("proven_points", colour, "benson", self.proven[k]);
            push("area_points", colour, "best_source", self.area[k]);
        }
        for (name, s) in self.margins() {
            let name = &name.replace(' ', "_");
            push("margin_compared", "", name, s.compared);
            push("margin_exact", "", name, s.exact);
            push("margin_within_1", "", name, s.within_one);
            push("winner_agrees", "", name, s.same_winner);
            push("margin_compared_scorable", "", name, s.scorable);
            push("margin_exact_scorable", "", name, s.scorable_exact);
            push("margin_within_1_scorable", "", name, s.scorable_within_one);
            push("margin_compared_sure", "", name, s.sure);
            push("margin_exact_sure", "", name, s.sure_exact);
            push("margin_within_1_sure", "", name, s.sure_within_one);
        }
        for status in FinalStatus::ALL {
            let k = status as usize;
            push("final_blocks", "", status.as_str(), self.finals.blocks[k]);
            push("final_stones", "", status.as_str(), self.finals.stones[k]);
        }
        for m in Method::ALL {
            push(
                "final_living_proven_blocks",
                "",
                m.name(),
                self.finals.proven_blocks[m],
            );
            push(
                "final_living_proven_stones",
                "",
                m.name(),
                self.finals.proven_stones[m],
            );
            push("final_alive_but_died", "", m.name(), self.finals.died[m]);
            push(
                "final_alive_but_died_stones",
                "",
                m.name(),
                self.finals.died_stones[m],
            );
        }
        for (measure, d, reference) in [
            ("dead_vs_markup", &self.dead, "markup"),
            ("dead_vs_katago", &self.dead_katago, "katago"),
        ] {
            push(measure, "", "games", d.games);
            push(measure, "", "exact", d.exact);
            if reference == "markup" {
                push(measure, "", "markup_doubtful", d.doubtful);
                push(measure, "", "exact_undoubted", d.exact_undoubted);
            }
            push(measure, "", "stones_both", d.both);
            push(measure, "", "stones_estimate_only", d.estimate_only);
            push(
                measure,
                "",
                &format!("stones_{reference}_only"),
                d.reference_only,
            );
        }
        push("suspicious", "", "benson", self.suspicious.len() as u64);
        push("re_no_area_count", "", "checked", self.area_checked);
        push(
            "re_no_area_count",
            "",
            "games",
            self.no_area_count.len() as u64,
        );
        push(
            "not_benson_blocks",
            "",
            "mp95",
            self.not_benson_by(Method::Mp95),
        );
        push(
            "not_benson_blocks",
            "",
            "mpfix",
            self.not_benson_by(Method::Mpfix),
        );
        let chains: u64 = self.chains.values().map(|v| v.chains).sum();
        let grammar: u64 = self
            .chains
            .iter()
            .filter(|(k, _)| k.2)
            .map(|(_, v)| v.chains)
            .sum();
        push("chains", "", "all", chains);
        push("chains", "", "grammar", grammar);
        let eyes: u64 = self.big_eyes.values().map(|v| v.eyes).sum();
        let classified: u64 = self.big_eyes.values().map(|v| v.classified).sum();
        push("big_eyes", "", "all", eyes);
        push("big_eyes", "", "classified", classified);
        out
    }
}
