//! What lives: each method per colour and ending, the methods against the end of the game,
//! and how sure the estimate is.

use std::fmt::Write as _;

use super::{figure, pct, plot, SHOWN};
use crate::life::Method;
use crate::report::diagrams::Figures;
use crate::report::facts::Ending;
use crate::report::tally::{calibration_bin, Tally};
use crate::score::FinalStatus;

pub(super) fn life_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "## Life\n");
    let _ = writeln!(
        w,
        "Share of blocks and stones each method proves alive at the final position. `benson` \
         is Benson's unconditional life (the criterion); `mp95` the published procedure of \
         Müller-Prove (1995); `mpfix` its fixpoint reading; `_eyes` the variants that also \
         credit big own eyes by the paper's Tab. 2.\n"
    );
    plot(
        w,
        figures,
        "life_blocks",
        "No block at any final position: no plots of life.",
    );
    plot(w, figures, "life_stones", "");
    let _ = writeln!(
        w,
        "| games | method | blocks B | blocks W | stones B | stones W |"
    );
    let _ = writeln!(w, "|---|---|---:|---:|---:|---:|");
    let groups = Ending::ALL
        .into_iter()
        .map(|e| (e.name(), t.life.get(e)))
        .chain([("all", &t.life.all)]);
    for (name, l) in groups {
        if l.games == 0 {
            continue;
        }
        for m in Method::ALL {
            let _ = writeln!(
                w,
                "| {name} ({}) | {} | {} | {} | {} | {} |",
                l.games,
                m.name(),
                pct(l.alive_blocks[m][0], l.blocks[0]),
                pct(l.alive_blocks[m][1], l.blocks[1]),
                pct(l.alive_stones[m][0], l.stones[0]),
                pct(l.alive_stones[m][1], l.stones[1]),
            );
        }
    }
    let _ = writeln!(
        w,
        "\n`rest`: the games not ended by score or resignation (time, forfeit, RE's `other` \
         and `unknown`, no RE).\n\nAgreement of the methods: blocks alive under both (the diagonal: alive under \
         each).\n"
    );
    let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    let _ = writeln!(w, "| | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|{}", "---:|".repeat(Method::ALL.len()));
    for (a, row) in t.agreement.iter() {
        let cells: Vec<String> = row.0.iter().map(u64::to_string).collect();
        let _ = writeln!(w, "| {} | {} |", a.name(), cells.join(" | "));
    }
    let mp95 = t.not_benson_by(Method::Mp95);
    let mpfix = t.not_benson_by(Method::Mpfix);
    let beyond_benson = |m: Method| t.agreement[m][m] - t.agreement[Method::Benson][m];
    let (mp95_eyes, mpfix_eyes) = (
        beyond_benson(Method::Mp95Eyes),
        beyond_benson(Method::MpfixEyes),
    );
    let _ = writeln!(
        w,
        "\n### Alive by the paper, not by Benson\n\n{mp95} blocks are alive by `mp95` and \
         not by Benson; {mpfix} by `mpfix`. Benson's life is unconditional, so a block on \
         this list is one the paper's procedure credits with life it cannot prove. With \
         `mp95` it comes from side effects of failed branches: checking one shared eye, the \
         procedure marks others vital on the way, and when the check fails those marks \
         stay, so a block keeps an eye it has no right to. Most such blocks are alive under \
         any order of visiting the eyes; for some the order decides (docs/findings.md). The \
         fixpoint reading has no such side effects. With the big-eye table, {mp95_eyes} \
         blocks are alive by `mp95_eyes` and not by Benson, {mpfix_eyes} by `mpfix_eyes` \
         (from the agreement table: the diagonal less the `benson` column). The {} of \
         `mp95` and `mpfix` are listed in `not_benson.csv`{}.\n",
        t.not_benson.len(),
        if t.not_benson.len() > SHOWN {
            format!("; the first {SHOWN} here")
        } else {
            String::new()
        }
    );
    if !figures.not_benson.is_empty() {
        let games = t
            .not_benson
            .iter()
            .map(|b| (&b.file, &b.game))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let _ = writeln!(
            w,
            "The first {} of the {games} games with such blocks, on the board:\n",
            figures.not_benson.len()
        );
        for f in &figures.not_benson {
            figure(w, f);
        }
    }
    if !t.not_benson.is_empty() {
        let _ = writeln!(
            w,
            "| file | game | colour | anchor (SGF) | stones | mp95 | mpfix |"
        );
        let _ = writeln!(w, "|---|---:|---|---|---:|---|---|");
        for b in t.not_benson.iter().take(SHOWN) {
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} | {} | {} | {} |",
                b.file, b.game, b.colour, b.anchor, b.stones, b.mp95 as u8, b.mpfix as u8
            );
        }
        let _ = writeln!(w);
    }
}

/// The headline, in the field's words: each method's precision and recall against what
/// became of each block by the end of the game, with the reference named.
pub(super) fn accuracy_section(w: &mut String, t: &Tally) {
    let f = &t.finals;
    let _ = writeln!(
        w,
        "## Accuracy at a glance
"
    );
    if f.blocks.iter().sum::<u64>() == 0 {
        let _ = writeln!(
            w,
            "No game has a source of dead stones, so no block has a final status to measure a \
             method against.\n"
        );
        return;
    }
    let (blocks, stones) = f.living();
    let _ = writeln!(
        w,
        "Each method (Benson's unconditional life; `mp95`, Müller-Prove's procedure as \
         published; `mpfix`, its fixpoint reading; `_eyes`, with big own eyes credited: \
         *The methods* below) against the reference: what became of each block by the end of the game \
         (*Life against the end of the game* below), dead or alive by the record's TB/TW \
         markup where it has some, else by the run's judge named above (with its measured \
         agreement), each game once. A method's *precision* is the share of the \
         blocks it calls alive that lived to the end (alive or in seki); its *recall*, the \
         share of the {blocks} blocks ({stones} stones) that lived that it proves alive. \
         Benson's precision is 100 % by its theorem wherever the reference is right; a block \
         it calls alive that died is a mistake of the reference or of the record.\n"
    );
    let _ = writeln!(
        w,
        "| method | precision (blocks) | recall (blocks) | precision (stones) | recall (stones) | blocks it calls alive | of them died |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|");
    for m in Method::ALL {
        let called = f.proven_blocks[m] + f.died[m];
        let called_stones = f.proven_stones[m] + f.died_stones[m];
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {called} | {} |",
            m.name(),
            pct(f.proven_blocks[m], called),
            pct(f.proven_blocks[m], blocks),
            pct(f.proven_stones[m], called_stones),
            pct(f.proven_stones[m], stones),
            f.died[m]
        );
    }
    let _ = writeln!(w);
}

/// The life methods against the status of each block at the end of the game.
pub(super) fn final_section(w: &mut String, t: &Tally) {
    let f = &t.finals;
    let _ = writeln!(w, "\n## Life against the end of the game\n");
    if f.blocks.iter().sum::<u64>() == 0 {
        let _ = writeln!(
            w,
            "No game has a source of dead stones (TB/TW markup, KataGo, or the estimate), so no block \
             has a final status."
        );
        return;
    }
    let (blocks, stones) = f.living();
    let _ = writeln!(
        w,
        "What became of each block by the end of the game (blocks.csv `final`), in the games \
         given one (those with TB/TW markup, or judged: by default only the games whose RE is \
         a count), each game once (the blocks of games.csv rows whose `duplicate_of` is \
         empty): dead when the best source of dead stones (the markup, else the run's judge: \
         KataGo's net by default, which knows nothing of Benson, or the estimate with \
         `--judge estimate`; after finishing the game) \
         calls it dead or the finishing captured it, seki when it shares liberties no one can \
         fill, alive otherwise. In these games {} blocks ({} stones) lived to the end, {} of \
         them in seki; {} died. A method is right about a block it calls alive when the block lived; Benson \
         and mpfix should never call a block alive that died, and mp95's count is a result \
         about the paper.\n",
        blocks,
        stones,
        f.blocks[FinalStatus::Seki as usize],
        f.blocks[FinalStatus::Dead as usize]
    );
    let _ = writeln!(
        w,
        "| method | living blocks it proves alive | living stones | blocks it calls alive that died |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|");
    for m in Method::ALL {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} |",
            m.name(),
            pct(f.proven_blocks[m], blocks),
            pct(f.proven_stones[m], stones),
            f.died[m]
        );
    }
    let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    let _ = writeln!(
        w,
        "\nLiving blocks each method proves alive, and (after the slash) blocks it calls alive \
         that died, by how the game ended and by when it was played:\n"
    );
    let _ = writeln!(w, "| games | living blocks | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|---:|{}", "---:|".repeat(names.len()));
    let rows = t
        .finals_by_ending
        .iter()
        .map(|(e, s)| (e.label().to_string(), s))
        .chain(
            t.finals_by_era
                .iter()
                .map(|(e, s)| (e.name().to_string(), s)),
        );
    for (label, s) in rows {
        let (living, _) = s.living();
        let cells: Vec<String> = Method::ALL
            .iter()
            .map(|&m| format!("{} / {}", pct(s.proven_blocks[m], living), s.died[m]))
            .collect();
        let _ = writeln!(w, "| {label} | {living} | {} |", cells.join(" | "));
    }
    if !t.died.is_empty() {
        let _ = writeln!(
            w,
            "\nBlocks a method calls alive that died ({}; the first {} shown):\n",
            t.died.len(),
            SHOWN.min(t.died.len())
        );
        let _ = writeln!(w, "| file | game | colour | anchor | stones | alive by |");
        let _ = writeln!(w, "|---|---:|---|---|---:|---|");
        for d in t.died.iter().take(SHOWN) {
            let by: Vec<&str> = Method::ALL
                .iter()
                .filter(|&&m| d.alive[m])
                .map(|m| m.name())
                .collect();
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} | {} | {} |",
                d.file,
                d.game,
                d.colour,
                d.anchor,
                d.stones,
                by.join(", ")
            );
        }
    }
}

/// The estimate's `dead_share` held against the blocks a reference judged.
pub(super) fn calibration_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "\n## How sure the estimate is\n");
    let _ = writeln!(
        w,
        "blocks.csv `dead_share` is the share of the estimate's playouts in which a block was \
         captured or ended in the opponent's area. Held against the blocks a reference judged \
         (the markup, or KataGo's net, the default judge), a calibrated share would see about that \
         share of its blocks dead.\n"
    );
    if t.calibration.iter().all(|&(n, _)| n == 0) {
        let _ = writeln!(
            w,
            "No block here has both a `dead_share` and a reference's verdict (TB/TW markup, \
             or KataGo's net): nothing to hold the share against."
        );
        return;
    }
    plot(w, figures, "calibration", "");
    let _ = writeln!(
        w,
        "| dead_share | blocks | mean share | dead by the reference |\n|---|---:|---:|---:|"
    );
    for (i, &(n, d)) in t.calibration.iter().enumerate() {
        if n > 0 {
            let mean = t.calibration_stated[i] as f64 / 1000.0 / n as f64;
            let _ = writeln!(
                w,
                "| {} | {n} | {mean:.3} | {} |",
                calibration_bin(i),
                pct(d, n)
            );
        }
    }
    if let Some(c) = t.calibration() {
        let _ = writeln!(
            w,
            "\nOver these {} blocks the Brier score (the mean of (share − dead)², 0 for a \
             share always right and sure, 0.25 for 0.5 everywhere) is {:.3}, and the \
             calibration error (the gap between the share stated and the share found dead, \
             averaged over the blocks by tenths) is {:.3}; the largest gap, {:.2}, is in \
             {}. The share ranks blocks from safe to lost; read it as a probability only as \
             far as these gaps allow.",
            c.blocks,
            c.brier,
            c.error,
            c.largest_gap.0,
            calibration_bin(c.largest_gap.1)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_final_statuses_the_section_says_why() {
        let mut w = String::new();
        final_section(&mut w, &Tally::default());
        assert!(w.contains("so no block has a final status"), "{w}");
    }

    #[test]
    fn living_blocks_include_seki() {
        let mut t = Tally::default();
        t.finals.blocks = [5, 1, 2];
        t.finals.stones = [20, 4, 6];
        let mut w = String::new();
        final_section(&mut w, &t);
        assert!(
            w.contains(
                "In these games 6 blocks (24 stones) lived to the end, 1 of them in seki; 2 died."
            ),
            "{w}"
        );
    }
}
