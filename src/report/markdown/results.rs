//! Margins against RE: each source of dead stones, by rules, size and era, and the dead
//! stones against their references.

use std::fmt::Write as _;

use super::dead::{dead_section, KATAGO, MARKUP};
use super::records::records_section;
use super::{pct, plot, SHOWN};
use crate::report::diagrams::Figures;
use crate::report::facts::Era;
use crate::report::tally::{SourceSums, Tally, CHOSEN};
use crate::score::DeadSource;

pub(super) fn results_section(w: &mut String, t: &Tally, figures: &Figures) {
    let rows = accuracy_table(w, t, figures);
    exact_by(w, &rows);
    dead_section(w, &t.dead, &figures.dead, &MARKUP);
    dead_section(w, &t.dead_katago, &figures.dead_katago, &KATAGO);
    resigned_and_proven(w, t);
    records_section(w, t, figures);
}

/// RE as read, how each margin is computed, and each source's margins against RE: the rows
/// of that table, which the table by rules, size and era repeats.
fn accuracy_table<'a>(
    w: &mut String,
    t: &'a Tally,
    figures: &Figures,
) -> Vec<(&'static str, &'a SourceSums)> {
    let _ = writeln!(w, "## Results\n");
    let _ = writeln!(
        w,
        "RE present in {} games; parsed in {} ({}); {} give a margin or a draw. Each game \
         counts once (games.csv rows whose `duplicate_of` is empty), here and in every table \
         below.",
        t.re_present,
        t.re_parsed,
        pct(t.re_parsed, t.re_present),
        t.re_margin
    );
    if !t.re_unparsed.is_empty() {
        let list: Vec<String> = t
            .re_unparsed
            .iter()
            .take(SHOWN)
            .map(|(k, v)| format!("`{k}` ({v})"))
            .collect();
        let _ = writeln!(w, " Not understood, never guessed: {}.", list.join(", "));
    }
    let _ = writeln!(
        w,
        "\nEach final position is scored three ways: with the dead stones the record marks \
         (TB/TW, `markup`), with the project's estimate (`estimate`), and with nothing dead \
         (`none`, a lower bound); where KataGo's net judged (the default judge; `--net`, \
         `--katago`) also with its dead stones (`katago`: the blocks its \
         ownership gives to the opponent, finished and counted as the others), and KataGo's \
         own lead and the final score it expects are compared as they are (`katago lead`, \
         `katago score`, on the grid of margins the komi allows). Margins are Black − White \
         − komi under the game's rules: RU, \
         else inferred from the record's komi, place and event, else territory counting \
         (games.csv `rules_source`); RE is never an input. A record that stops before the \
         players' last moves is finished first: the dame are filled and the moves the filling \
         forces are played (`finished_moves`); one whose borders are still open is \
         `unscorable` and counted apart. {} games carry TB/TW markup.\n\n\
         The game's margin (`chosen`, games.csv `score_source` names its column) is the \
         markup's count where the record marks its dead stones; else, where KataGo's net \
         judged, the count with its dead stones when that lies within {} point of the score \
         the net expects, and that score otherwise (a rule fitted on other games than those \
         it is measured on: livingblocks' docs/judge.md); else the estimate's count.\n",
        t.markup_games,
        crate::score::decision::COUNT_WITHIN
    );
    let _ = writeln!(
        w,
        "The estimate assumes the game is over: up to {} playouts from the final position, \
         seeded by it, decide which groups die, and a stone Benson proves alive never does \
         (livingblocks' docs/scoring.md, *The estimate*, has every rule).\n",
        crate::score::PLAYOUTS
    );
    plot(
        w,
        figures,
        "margin_error",
        "No game gives a margin to compare with: no plot of margin errors.",
    );
    let _ = writeln!(
        w,
        "The columns come in three groups: every game compared with its RE; the scorable \
         ones among them (borders closed once finished); and of those, the ones whose finish \
         is sure (no ko, seki or race left open). \"Within 1 point\" includes the exact \
         ones.\n"
    );
    let _ = writeln!(
        w,
        "| margin | games compared | all: exact | all: within 1 point | all: same winner \
         | scorable | scorable: exact | scorable: within 1 point | finish sure | sure: exact \
         | sure: within 1 point |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // KataGo's rows only where the run asked KataGo: its dead stones, its lead and its score.
    let rows: Vec<(&str, &SourceSums)> = std::iter::once((CHOSEN, &t.chosen))
        .filter(|(_, s)| s.compared > 0)
        .chain(
            t.sources
                .iter()
                .filter(|(src, s)| *src != DeadSource::Katago || s.compared > 0)
                .map(|(src, s)| (src.name(), s)),
        )
        .chain(t.katago_margins())
        .collect();
    for &(name, s) in &rows {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            name,
            s.compared,
            pct(s.exact, s.compared),
            pct(s.within_one, s.compared),
            pct(s.same_winner, s.compared),
            s.scorable,
            pct(s.scorable_exact, s.scorable),
            pct(s.scorable_within_one, s.scorable),
            s.sure,
            pct(s.sure_exact, s.sure),
            pct(s.sure_within_one, s.sure)
        );
    }
    rows
}

/// Exact margins per source by rules, by board size and by era.
fn exact_by(w: &mut String, rows: &[(&str, &SourceSums)]) {
    let _ = writeln!(
        w,
        "\nExact margins by rules, by board size and by when the game was played:\n"
    );
    let names: Vec<&str> = rows.iter().map(|&(name, _)| name).collect();
    let _ = writeln!(w, "| | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|{}", "---:|".repeat(names.len()));
    /// A row of the table: a ruleset, or a board size.
    #[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Rules(crate::go::rules::Ruleset),
        Size(u8),
    }
    let mut keys: Vec<Key> = Vec::new();
    for (_, s) in rows {
        keys.extend(s.by_rules.keys().copied().map(Key::Rules));
        keys.extend(s.by_size.keys().copied().map(Key::Size));
    }
    keys.sort();
    keys.dedup();
    for key in keys {
        let cells: Vec<String> = rows
            .iter()
            .map(|(_, s)| {
                match &key {
                    Key::Rules(r) => s.by_rules.get(r),
                    Key::Size(n) => s.by_size.get(n),
                }
                .map_or("–".into(), |(n, e)| format!("{} of {n}", pct(*e, *n)))
            })
            .collect();
        let name = match &key {
            Key::Rules(r) => format!("rules {}", r.as_str()),
            Key::Size(n) => format!("size {n}"),
        };
        let _ = writeln!(w, "| {name} | {} |", cells.join(" | "));
    }
    let eras: std::collections::BTreeSet<Era> = rows
        .iter()
        .flat_map(|(_, s)| s.by_era.keys().copied())
        .collect();
    for era in eras {
        let cells: Vec<String> = rows
            .iter()
            .map(|(_, s)| {
                s.by_era
                    .get(&era)
                    .map_or("–".into(), |(n, e)| format!("{} of {n}", pct(*e, *n)))
            })
            .collect();
        let label = match era {
            Era::Unknown => era.name().to_string(),
            _ => format!("played {}", era.name()),
        };
        let _ = writeln!(w, "| {label} | {} |", cells.join(" | "));
    }
}

/// How resigned games' counts and Benson's proven points bear on the results.
fn resigned_and_proven(w: &mut String, t: &Tally) {
    if t.resign_winner.0 > 0 {
        let _ = writeln!(
            w,
            "\nResigned games: the estimate's territory count at the final position favours \
             the recorded winner in {} of {} ({}).",
            t.resign_winner.1,
            t.resign_winner.0,
            pct(t.resign_winner.1, t.resign_winner.0)
        );
    }
    let _ = writeln!(
        w,
        "\nHow much of the result the algorithms explain: Benson proves {} of Black's area \
         points and {} of White's (alive stones and unconditional territory, against each \
         side's area score with the best dead stones available).\n",
        pct(t.proven[0], t.area[0]),
        pct(t.proven[1], t.area[1])
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(compared: u64, exact: u64) -> SourceSums {
        SourceSums {
            compared,
            exact,
            within_one: exact,
            same_winner: compared,
            by_rules: [(crate::go::rules::Ruleset::Japanese, (compared, exact))].into(),
            by_era: [(Era::Unknown, (compared, exact))].into(),
            ..SourceSums::default()
        }
    }

    #[test]
    fn katago_rows_only_where_the_run_asked_katago() {
        let mut t = Tally::default();
        t.sources[DeadSource::Estimate] = sums(10, 7);
        let mut w = String::new();
        let rows = accuracy_table(&mut w, &t, &Figures::default());
        let names: Vec<&str> = rows.iter().map(|r| r.0).collect();
        assert_eq!(names, ["markup", "estimate", "none"]);
        assert!(
            w.contains("| estimate | 10 | 70.0 % | 70.0 % | 100.0 % |"),
            "{w}"
        );

        t.sources[DeadSource::Katago] = sums(10, 8);
        t.katago_lead = sums(10, 9);
        t.katago_score = sums(10, 9);
        let rows = accuracy_table(&mut String::new(), &t, &Figures::default());
        let names: Vec<&str> = rows.iter().map(|r| r.0).collect();
        assert_eq!(
            names,
            [
                "markup",
                "katago",
                "estimate",
                "none",
                "katago lead",
                "katago score"
            ]
        );
    }

    #[test]
    fn exact_margins_by_rules_and_era_per_source() {
        let (a, b) = (sums(10, 7), sums(4, 1));
        let mut w = String::new();
        exact_by(&mut w, &[("estimate", &a), ("katago lead", &b)]);
        assert!(w.contains("| | estimate | katago lead |"), "{w}");
        assert!(
            w.contains("| rules japanese | 70.0 % of 10 | 25.0 % of 4 |"),
            "{w}"
        );
        assert!(
            w.contains(&format!("| {} | 70.0 % of 10", Era::Unknown.name())),
            "{w}"
        );
    }
}
