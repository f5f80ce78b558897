//! Records worth a look: results Benson or the count contradicts, results no area count
//! gives.

use std::fmt::Write as _;

use super::{figure, SHOWN};
use crate::report::diagrams::Figures;
use crate::report::tally::Tally;

/// The records worth a look: results Benson or the count contradicts, and results no
/// area count gives.
pub(super) fn records_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(
        w,
        "### Suspicious records\n\nGames whose recorded result contradicts what Benson \
         proves: the loser is proven to win, or the margin lies outside the range the proven \
         points allow (with slack for territory counting). {} found.\n",
        t.suspicious.len()
    );
    if !t.suspicious.is_empty() {
        record_table(
            w,
            &[("proven margin ≥", "---:"), ("proven margin ≤", "---:")],
            t.suspicious
                .iter()
                .take(SHOWN * 5)
                .map(|s| record(&s.file, &s.game, &s.re, &s.rules, [&s.low, &s.high])),
        );
    }
    // What the judge's accuracy supports saying of a contradiction: the net's count seldom
    // misreads a finished position, the estimate's often enough to be the likelier fault.
    let by_estimate = t.contradicted.iter().any(|c| c.source == "estimate");
    let whose = if by_estimate {
        "some of these count with the estimate's dead stones, whose margin equals RE in \
         two thirds of the professional sample's games: such a row is as likely the \
         estimate's misreading as the record's fault (the default judge, KataGo's net, \
         settles most)"
    } else {
        "with the markup's or KataGo's net's dead stones (the net's margin equals RE in 88 % \
         of the professional sample's games, and within a point in 96 %), such a count is \
         seldom the fault: the record more likely is (a mis-recorded result, a truncated \
         record), though a position the net misreads remains possible"
    };
    let _ = writeln!(
        w,
        "\n### Results the count contradicts\n\nGames whose finished count, scorable and sure \
         of itself (no ko, seki or race left open), gives another winner by three points or \
         more, or a margin {} points or more from RE, whichever side starts the finishing; \
         {whose}. Each is worth a look. {} found{}.\n",
        crate::score::FAR_OFF,
        t.contradicted.len(),
        if t.contradicted.len() > SHOWN {
            format!("; the first {SHOWN} here")
        } else {
            String::new()
        }
    );
    if !t.contradicted.is_empty() {
        record_table(
            w,
            &[
                ("count", "---"),
                ("dead stones from", "---"),
                ("moves finished", "---:"),
            ],
            t.contradicted.iter().take(SHOWN).map(|c| {
                let count = crate::sgf::result::result_text(c.margin as f32);
                record(
                    &c.file,
                    &c.game,
                    &c.re,
                    &c.rules,
                    [&count, &c.source, &c.finished_moves],
                )
            }),
        );
        let _ = writeln!(w);
    }
    if !figures.contradicted.is_empty() {
        let _ = writeln!(
            w,
            "The first {} of these records (and of the suspicious ones above), at the end of \
             the record, with the finishing moves the count played numbered on it:\n",
            figures.contradicted.len()
        );
        for f in &figures.contradicted {
            figure(w, f);
        }
    }
    no_area_count(w, t);
}

/// The games counted by area whose RE no area count of the finished board gives.
pub(super) fn no_area_count(w: &mut String, t: &Tally) {
    let n = t.no_area_count.len();
    let _ = writeln!(
        w,
        "\n### Results no area count gives\n\nUnder area counting the two areas and the \
         neutral points make up the board, so Black's lead in area (RE's margin plus komi and \
         the handicap compensation) is a whole number with the parity of the points the areas \
         hold, whatever the dead stones and the finishing; only a seki's neutral point turns \
         it. Games counted by area whose finished count is scorable and sure of its neutral \
         points (no ko, seki or race, no open point): {}; with an RE no area count gives \
         (games.csv `re_no_area_count`): {}{}. Such a result was counted another way, often \
         by territory, or under another komi.\n",
        t.area_checked,
        n,
        if n > SHOWN {
            format!("; the first {SHOWN} here")
        } else {
            String::new()
        }
    );
    if n == 0 {
        return;
    }
    let text =
        |m: Option<f64>| m.map_or(String::new(), |m| crate::sink::games::margin_text(m as f32));
    record_table(
        w,
        &[("count by area", "---:"), ("count by territory", "---:")],
        t.no_area_count.iter().take(SHOWN).map(|c| {
            record(
                &c.file,
                &c.game,
                &c.re,
                &c.rules,
                [&text(c.area), &text(c.territory)],
            )
        }),
    );
    let _ = writeln!(w);
}

/// A row of a table of records: the game, its RE and rules, and what the table adds.
fn record<const N: usize>(
    file: &str,
    game: &str,
    re: &str,
    rules: &str,
    more: [&str; N],
) -> String {
    format!(
        "| {file} | {game} | `{re}` | {rules} | {} |",
        more.join(" | ")
    )
}

/// A table of records: file, game, RE and rules, then the `more` columns (header, alignment).
fn record_table(w: &mut String, more: &[(&str, &str)], rows: impl Iterator<Item = String>) {
    let names: Vec<&str> = more.iter().map(|m| m.0).collect();
    let aligns: Vec<&str> = more.iter().map(|m| m.1).collect();
    let _ = writeln!(w, "| file | game | RE | rules | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|---:|---|---|{}|", aligns.join("|"));
    for r in rows {
        let _ = writeln!(w, "{r}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tally::{Contradicted, NoAreaCount, Suspicious};

    #[test]
    fn contradicted_records_are_listed_with_their_count() {
        let mut t = Tally::default();
        t.contradicted.push(Contradicted {
            file: "a.sgf".into(),
            game: "0".into(),
            re: "B+R".into(),
            rules: "japanese".into(),
            margin: -12.5,
            source: "estimate".into(),
            finished_moves: "3".into(),
        });
        let mut w = String::new();
        records_section(&mut w, &t, &Figures::default());
        assert!(w.contains("0 found.\n"), "no suspicious record: {w}");
        assert!(!w.contains("proven margin ≥"), "no table of none: {w}");
        assert!(w.contains("Each is worth a look. 1 found."), "{w}");
        assert!(w.contains("as likely the estimate's misreading"), "{w}");
        t.contradicted[0].source = "katago".into();
        let mut net = String::new();
        records_section(&mut net, &t, &Figures::default());
        assert!(net.contains("the record more likely is"), "{net}");
        assert!(
            w.contains(
                "| file | game | RE | rules | count | dead stones from | moves finished |\n\
                 |---|---:|---|---|---|---|---:|\n\
                 | a.sgf | 0 | `B+R` | japanese | W+12.5 | estimate | 3 |\n"
            ),
            "{w}"
        );
    }

    #[test]
    fn suspicious_records_show_the_proven_bounds() {
        let mut t = Tally::default();
        t.suspicious.push(Suspicious {
            file: "c.sgf".into(),
            game: "2".into(),
            re: "W+5".into(),
            rules: "japanese".into(),
            low: "3".into(),
            high: "40".into(),
        });
        let mut w = String::new();
        records_section(&mut w, &t, &Figures::default());
        assert!(
            w.contains("| c.sgf | 2 | `W+5` | japanese | 3 | 40 |\n"),
            "{w}"
        );
    }

    #[test]
    fn results_no_area_count_gives_show_both_counts() {
        let mut t = Tally {
            area_checked: 5,
            ..Tally::default()
        };
        t.no_area_count.push(NoAreaCount {
            file: "b.sgf".into(),
            game: "1".into(),
            re: "W+2".into(),
            rules: "chinese".into(),
            area: Some(-3.0),
            territory: None,
        });
        let mut w = String::new();
        no_area_count(&mut w, &t);
        assert!(
            w.contains("(no ko, seki or race, no open point): 5;"),
            "{w}"
        );
        assert!(w.contains("| b.sgf | 1 | `W+2` | chinese | -3 |  |"), "{w}");
    }
}
