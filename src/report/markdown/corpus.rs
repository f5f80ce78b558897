//! What was read: files, statuses, sizes, encodings, rules, endings, duplicates.

use std::fmt::Write as _;

use super::plot;
use crate::report::diagrams::Figures;
use crate::report::tally::Tally;
use crate::row::Status;

pub(super) fn corpus_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "## Corpus\n");
    let _ = writeln!(
        w,
        "{} files gave {} rows (one per game, or one per file that yielded no game).\n",
        t.files.count, t.rows
    );
    let _ = writeln!(w, "{}\n", duplicates_line(t));
    plot(
        w,
        figures,
        "statuses",
        "Every row has the same status: no plot of statuses.",
    );
    let _ = writeln!(w, "| status | rows |\n|---|---:|");
    for (k, v) in &t.status {
        let _ = writeln!(w, "| {} | {v} |", k.as_str());
    }
    let _ = writeln!(w, "\n| board size | games |\n|---|---:|");
    for (k, v) in &t.sizes {
        let _ = writeln!(w, "| {k}×{k} | {v} |");
    }
    let _ = writeln!(w, "\n| encoding | rows |\n|---|---:|");
    for (k, v) in &t.encodings {
        let _ = writeln!(w, "| {k} | {v} |");
    }
    let _ = writeln!(w, "\nHow the games ended (RE, parsed):\n");
    plot(
        w,
        figures,
        "endings",
        "No game has an RE: no plot of endings.",
    );
    let _ = writeln!(w, "| how | winner | games |\n|---|---|---:|");
    for ((how, winner), v) in &t.endings {
        let _ = writeln!(w, "| {} | {} | {v} |", how.as_str(), winner.as_str());
    }
    let games: u64 = t.sizes.values().sum();
    let _ = writeln!(
        w,
        "\n`other`: no winner (void, unfinished, adjourned); `unknown`: a winner without how \
         or by how much (`B+`), or none given (`?`). {} games have no RE.",
        games - t.re_present
    );
    let _ = writeln!(w, "\n| rules | games |\n|---|---:|");
    for (k, v) in &t.rules {
        let _ = writeln!(w, "| {} | {v} |", k.as_str());
    }
    let _ = writeln!(
        w,
        "\nReplay anomalies: {} suicides, {} immediate ko retakes applied as recorded; {} games \
         with setup stones; {} games stopped at an illegal move.\n",
        t.suicides,
        t.ko_retakes,
        t.setup_games,
        t.status.get(&Status::IllegalMove).copied().unwrap_or(0)
    );
}

/// How many records repeat another of their game, and that the figures count each game once.
pub(super) fn duplicates_line(t: &Tally) -> String {
    let all: u64 = t.duplicates.values().sum();
    if all == 0 {
        return "No game repeats another (games.csv `duplicate_of` is empty).".to_string();
    }
    let kinds: Vec<String> = t
        .duplicates
        .iter()
        .map(|(k, n)| format!("{n} {}", k.as_str()))
        .collect();
    format!(
        "{all} games repeat another record of their game, rotated or mirrored or not ({}; \
         games.csv `duplicate_of` names the copy that counts, the most complete, \
         `duplicate_kind` says how). The status and encoding tables count them; every other \
         figure of the report counts each game once, at the copy that counts.",
        kinds.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duplicates::DuplicateKind;

    #[test]
    fn the_corpus_tables_list_what_was_read() {
        let t = Tally {
            rows: 5,
            status: [(Status::Ok, 4), (Status::ParseError, 1)].into(),
            sizes: [(9, 1), (19, 3)].into(),
            ..Tally::default()
        };
        let mut w = String::new();
        corpus_section(&mut w, &t, &Figures::default());
        assert!(w.contains("| ok | 4 |\n| parse_error | 1 |"), "{w}");
        // Sizes by number, not as text: 9 before 19.
        assert!(w.contains("| 9×9 | 1 |\n| 19×19 | 3 |"), "{w}");
        assert!(w.contains("Every row has the same status: no plot of statuses."));
    }

    #[test]
    fn duplicates_are_counted_once_and_said_so() {
        let mut t = Tally::default();
        assert!(duplicates_line(&t).starts_with("No game repeats another"));
        t.duplicates.insert(DuplicateKind::Same, 2);
        let line = duplicates_line(&t);
        assert!(line.starts_with("2 games repeat another record"), "{line}");
        assert!(line.contains(DuplicateKind::Same.as_str()), "{line}");
    }
}
