//! The estimate's dead stones against a reference's: the markup, or KataGo.

use std::fmt::Write as _;

use super::{figure, pct, SHOWN};
use crate::report::diagrams::Figure;
use crate::report::tally::DeadSums;

/// Points shown per cell of the differing-games table.
const POINTS_SHOWN: usize = 12;

/// A reference for the estimate's dead stones, as the report names it.
pub(super) struct Reference {
    /// In the heading: "estimate against {heading}".
    heading: &'static str,
    /// "In N games {games}".
    games: &'static str,
    /// "the estimate calls exactly {exact} dead".
    exact: &'static str,
    /// "N {are_dead}" of the estimate's, and "of the N {dead}".
    are_dead: &'static str,
    dead: &'static str,
    /// In the table and the diagrams: "dead by {name} only".
    name: &'static str,
}

/// The players' TB/TW marks: the check of the estimate a reader can redo on their own marked
/// games.
pub(super) const MARKUP: Reference = Reference {
    heading: "markup",
    games: "with TB/TW markup",
    exact: "the marked stones",
    are_dead: "are marked dead",
    dead: "marked dead",
    name: "the markup",
};

/// KataGo's ownership: how far the estimate is from the engine Go researchers trust.
pub(super) const KATAGO: Reference = Reference {
    heading: "KataGo",
    games: "that KataGo judged (its ownership gives a block to the opponent: `dead_katago`)",
    exact: "KataGo's dead stones",
    are_dead: "KataGo calls dead",
    dead: "KataGo calls dead",
    name: "KataGo",
};

/// The estimate's dead stones against a reference's, where games have both.
pub(super) fn dead_section(w: &mut String, d: &DeadSums, figures: &[Figure], r: &Reference) {
    if d.games == 0 {
        return;
    }
    let called = d.both + d.estimate_only;
    let marked = d.both + d.reference_only;
    let _ = writeln!(
        w,
        "\n### Dead stones: estimate against {}\n\nIn {} games {} the estimate calls exactly \
         {} dead in {} ({}). Of the {} stones it calls dead, {} {} (precision {}); of the {} \
         {}, it finds {} (recall {}).",
        r.heading,
        d.games,
        r.games,
        r.exact,
        d.exact,
        pct(d.exact, d.games),
        called,
        d.both,
        r.are_dead,
        pct(d.both, called),
        marked,
        r.dead,
        d.both,
        pct(d.both, marked)
    );
    if d.doubtful > 0 {
        let _ = writeln!(
            w,
            "\nIn {} of these games the markup leaves hopeless stones standing: a block in \
             atari whose last liberty no one marked, which the estimate calls dead (games.csv \
             `markup_doubt` names them). Over the other {} games the estimate is exact in {} \
             ({}).",
            d.doubtful,
            d.games - d.doubtful,
            d.exact_undoubted,
            pct(d.exact_undoubted, d.games - d.doubtful)
        );
    }
    differing(w, d, figures, r.name);
}

/// The games where the estimate and its reference differ: diagrams of the largest
/// differences, then a table.
pub(super) fn differing(w: &mut String, d: &DeadSums, figures: &[Figure], reference: &str) {
    if d.differing.is_empty() {
        return;
    }
    if !figures.is_empty() {
        let _ = writeln!(
            w,
            "\nThe {} games where they differ most, on the board:\n",
            figures.len()
        );
        for f in figures {
            figure(w, f);
        }
    }
    let more = if d.differing.len() > SHOWN {
        format!("; the first {SHOWN} here")
    } else {
        String::new()
    };
    let _ = writeln!(
        w,
        "\nThe {} games where they differ{more}:\n\n| file | game | dead by the estimate only \
         | dead by {reference} only |\n|---|---:|---|---|",
        d.differing.len()
    );
    let points = |p: &[String]| {
        let mut s = p
            .iter()
            .take(POINTS_SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        if p.len() > POINTS_SHOWN {
            let _ = write!(s, " … ({} in all)", p.len());
        }
        s
    };
    for g in d.differing.iter().take(SHOWN) {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} |",
            g.file,
            g.game,
            points(&g.estimate_only),
            points(&g.reference_only)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tally::DeadDiff;

    fn sums() -> DeadSums {
        DeadSums {
            games: 4,
            exact: 3,
            both: 9,
            estimate_only: 1,
            reference_only: 2,
            doubtful: 0,
            exact_undoubted: 3,
            differing: vec![DeadDiff {
                file: "a.sgf".into(),
                game: "0".into(),
                estimate_only: vec!["dd".into()],
                reference_only: (0..14)
                    .map(|i| format!("a{}", (b'a' + i) as char))
                    .collect(),
            }],
        }
    }

    #[test]
    fn precision_and_recall_come_from_the_stone_counts() {
        let mut w = String::new();
        dead_section(&mut w, &sums(), &[], &MARKUP);
        assert!(
            w.contains("### Dead stones: estimate against markup"),
            "{w}"
        );
        assert!(
            w.contains("exactly the marked stones dead in 3 (75.0 %)"),
            "{w}"
        );
        assert!(w.contains("(precision 90.0 %)"), "{w}");
        assert!(w.contains("it finds 9 (recall 81.8 %)"), "{w}");
    }

    #[test]
    fn a_long_list_of_points_is_cut_with_its_size() {
        let mut w = String::new();
        differing(&mut w, &sums(), &[], KATAGO.name);
        assert!(w.contains("| dead by KataGo only |"), "{w}");
        assert!(w.contains("| a.sgf | 0 | dd | aa ab"), "{w}");
        assert!(w.contains(" … (14 in all) |"), "{w}");
    }

    #[test]
    fn no_games_in_common_no_section() {
        let mut w = String::new();
        dead_section(&mut w, &DeadSums::default(), &[], &KATAGO);
        assert!(w.is_empty());
    }
}
