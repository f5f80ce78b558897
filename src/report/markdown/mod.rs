//! report.md: the report's text, from the tally. Sections follow the order a reader asks:
//! what was read, what lives, what the chains and eyes look like, and how the results compare.

use std::fmt::Write as _;

mod chains;
mod corpus;
mod dead;
mod life;
mod provenance;
mod records;
mod results;

use super::diagrams::{Figure, Figures};
use super::tally::Tally;
use crate::sink::Manifest;
use chains::chains_section;
use corpus::corpus_section;
use life::{accuracy_section, calibration_section, final_section, life_section};
use provenance::{method_section, provenance};
use results::results_section;

/// Rows of a listing shown in report.md; the rest are in the CSV beside it.
pub const SHOWN: usize = 40;

/// Rows of a frequency table (chain words, eye shapes) shown in report.md.
pub(super) const TABLE_ROWS: usize = 20;

/// How a frequency table is cut: "All 7 words, the most frequent first" or "The 20 most
/// frequent of 49 words".
pub(super) fn cut(what: &str, n: usize) -> String {
    if n > TABLE_ROWS {
        format!("The {TABLE_ROWS} most frequent of {n} {what}")
    } else {
        format!("All {n} {what}, the most frequent first")
    }
}

pub(super) fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "–".to_string()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / b as f64)
    }
}

/// The text of report.md: `figures` are the board diagrams written beside it, `manifest`
/// what produced the tables.
pub fn markdown(t: &Tally, figures: &Figures, manifest: Option<&Manifest>) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "# livingblocks report\n");
    provenance(w, t, manifest);
    accuracy_section(w, t);
    method_section(w, figures);
    corpus_section(w, t, figures);
    life_section(w, t, figures);
    chains_section(w, t, figures);
    results_section(w, t, figures);
    final_section(w, t);
    calibration_section(w, t, figures);
    if figures.no_inputs {
        let _ = writeln!(
            w,
            "\nNo board diagrams of games: they are drawn from the records themselves, read \
             again from the inputs `manifest.tsv` names, and none of those is readable from \
             here (run `livingblocks report DIR` where the inputs are; a `--files-from` list \
             read from standard input or a pipe cannot be read again)."
        );
    }
    if !figures.missing.is_empty() {
        let _ = writeln!(
            w,
            "\nNot drawn: {} record{} the report wanted a diagram of could not be read again \
             from the inputs the manifest names ({}{}).",
            figures.missing.len(),
            if figures.missing.len() == 1 { "" } else { "s" },
            figures
                .missing
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if figures.missing.len() > 3 {
                ", …"
            } else {
                ""
            }
        );
    }
    s
}

/// A plot's link when the report draws it, else `instead` (one line saying why not).
pub(super) fn plot(w: &mut String, figures: &Figures, name: &str, instead: &str) {
    let file = format!("{name}.svg");
    if figures.charts.contains(&file.as_str()) {
        let _ = writeln!(w, "![{}](plots/{file})\n", name.replace('_', " "));
    } else if !instead.is_empty() {
        let _ = writeln!(w, "{instead}\n");
    }
}

/// A diagram and its sentence.
pub(super) fn figure(w: &mut String, f: &Figure) {
    let _ = writeln!(
        w,
        "![{}](plots/boards/{})\n",
        f.file.trim_end_matches(".svg"),
        f.file
    );
    match &f.sgf {
        Some(_) => {
            let _ = writeln!(
                w,
                "{} [SGF](plots/boards/{}) for a Go editor.\n",
                f.caption,
                f.sgf_file()
            );
        }
        None => {
            let _ = writeln!(w, "{}\n", f.caption);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_of_nothing_are_a_dash() {
        assert_eq!(pct(1, 3), "33.3 %");
        assert_eq!(pct(0, 0), "–");
    }

    #[test]
    fn long_tables_say_they_are_cut() {
        assert_eq!(cut("words", 7), "All 7 words, the most frequent first");
        assert_eq!(cut("words", 49), "The 20 most frequent of 49 words");
    }

    #[test]
    fn the_sections_come_in_the_order_a_reader_asks() {
        let md = markdown(&Tally::default(), &Figures::default(), None);
        let at = |h: &str| md.find(h).unwrap_or_else(|| panic!("no {h:?} in\n{md}"));
        let order = [
            "# livingblocks report",
            "## Accuracy at a glance",
            "## Corpus",
            "## Chains and big eyes",
            "## Results",
            "### Suspicious records",
            "## Life against the end of the game",
            "## How sure the estimate is",
        ];
        for pair in order.windows(2) {
            assert!(at(pair[0]) < at(pair[1]), "{} before {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn a_missing_plot_is_a_line_saying_why() {
        let mut w = String::new();
        plot(
            &mut w,
            &Figures::default(),
            "statuses",
            "No plot of statuses.",
        );
        assert_eq!(w, "No plot of statuses.\n\n");
        let figures = Figures {
            charts: vec!["statuses.svg"],
            ..Figures::default()
        };
        let mut w = String::new();
        plot(&mut w, &figures, "statuses", "No plot of statuses.");
        assert!(w.contains("(plots/statuses.svg)"), "{w}");
    }
}
