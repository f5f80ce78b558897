//! Chains and their grammar's verdicts, and big eyes by shape.

use std::fmt::Write as _;

use super::{cut, plot, TABLE_ROWS};
use crate::report::diagrams::Figures;
use crate::report::tally::Tally;

pub(super) fn chains_section(w: &mut String, t: &Tally, figures: &Figures) {
    let total: u64 = t.chains.values().map(|v| v.chains).sum();
    let alive: u64 = t
        .chains
        .iter()
        .filter(|(k, _)| k.2)
        .map(|(_, v)| v.chains)
        .sum();
    let disagree: u64 = t
        .chains
        .iter()
        .map(|((_, _, g), s)| {
            if *g {
                2 * s.chains - s.mp95_all - s.mpfix_all
            } else {
                s.mp95_all + s.mpfix_all
            }
        })
        .sum();
    let _ = writeln!(
        w,
        "## Chains and big eyes\n\n{total} chains (blocks joined by vital shared eyes, \
         written as the word of their eye counts); the grammars call {alive} of them alive \
         (G1 for open chains, every closed chain). Verdicts of mp95 or mpfix that differ from \
         the grammar's: {disagree}. {}:\n",
        cut("kinds (word, open or closed)", t.chains.len())
    );
    let mut words: Vec<_> = t.chains.iter().collect();
    words.sort_by(|a, b| b.1.chains.cmp(&a.1.chains).then(a.0.cmp(b.0)));
    let _ = writeln!(
        w,
        "| word | closed | grammar: alive | chains | all alive (mp95) | all alive (mpfix) |"
    );
    let _ = writeln!(w, "|---|---|---|---:|---:|---:|");
    let yes = |b: bool| if b { "yes" } else { "no" };
    for ((word, closed, grammar), s) in words.into_iter().take(TABLE_ROWS) {
        let _ = writeln!(
            w,
            "| `{word}` | {} | {} | {} | {} | {} |",
            yes(*closed),
            yes(*grammar),
            s.chains,
            s.mp95_all,
            s.mpfix_all
        );
    }
    let eyes: u64 = t.big_eyes.values().map(|v| v.eyes).sum();
    let _ = writeln!(
        w,
        "\n{eyes} big own eyes (own eyes of two or more points). Shape types, with their \
         worth in eyes when the owner and when the opponent moves first, and how many of \
         the eyes have a shape the paper's Tab. 2 lists (its table of big-eye shapes up to six \
         points with their worth; a shape it does not list, larger ones among them, is \
         counted as worth one eye) ({}):\n",
        cut("shape types", t.big_eyes.len()).to_lowercase()
    );
    plot(w, figures, "big_eyes", "No big own eyes: no plot of them.");
    let mut shapes: Vec<_> = t.big_eyes.iter().collect();
    shapes.sort_by(|a, b| b.1.eyes.cmp(&a.1.eyes).then(a.0.cmp(b.0)));
    let _ = writeln!(
        w,
        "| size | shape | eyes | worth (owner first) | worth (opponent first) | eyes listed in Tab. 2 |"
    );
    let _ = writeln!(w, "|---:|---|---:|---:|---:|---:|");
    for ((size, shape), s) in shapes.into_iter().take(TABLE_ROWS) {
        let _ = writeln!(
            w,
            "| {size} | `{shape}` | {} | {} | {} | {} |",
            s.eyes, s.worth.0 .0, s.worth.0 .1, s.classified
        );
    }
    let _ = writeln!(w);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tally::{ChainSums, EyeSums};
    use crate::sum::Same;

    #[test]
    fn chains_by_frequency_and_eyes_with_their_worth() {
        let mut t = Tally::default();
        let chains = |n, mp95, mpfix| ChainSums {
            chains: n,
            mp95_all: mp95,
            mpfix_all: mpfix,
        };
        t.chains
            .insert(("w00".into(), false, false), chains(1, 1, 0));
        t.chains.insert(("w1".into(), false, true), chains(3, 3, 3));
        t.big_eyes.insert(
            (3, "0-1-1".into()),
            EyeSums {
                eyes: 2,
                worth: Same((2, 1)),
                classified: 2,
            },
        );
        let mut w = String::new();
        chains_section(&mut w, &t, &Figures::default());
        assert!(w.contains("4 chains"), "{w}");
        assert!(w.contains("call 3 of them alive"), "{w}");
        // mp95 calls the grammar's dead chain alive: one disagreement.
        assert!(w.contains("differ from the grammar's: 1."), "{w}");
        assert!(w.find("`w1`").unwrap() < w.find("`w00`").unwrap(), "{w}");
        assert!(w.contains("2 big own eyes"), "{w}");
    }
}
