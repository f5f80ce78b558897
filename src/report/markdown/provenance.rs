//! What produced the report, and the methods in plain words.

use std::fmt::Write as _;

use super::figure;
use crate::report::diagrams::Figures;
use crate::report::tally::Tally;
use crate::sink::Manifest;

/// What produced the report: the version, the inputs as given, the options that change the
/// outputs, the totals, and the tables. No date: the same inputs give the same report.
pub(super) fn provenance(w: &mut String, t: &Tally, manifest: Option<&Manifest>) {
    let get = |k: &str| manifest.and_then(|m| m.get(k)).unwrap_or("").to_string();
    let inputs = match (get("paths"), get("files_from")) {
        (p, l) if l.is_empty() => format!("`{p}`"),
        (p, l) if p.is_empty() => format!("the paths listed in `{l}`"),
        (p, l) => format!("`{p}` and the paths listed in `{l}`"),
    };
    let _ = writeln!(
        w,
        "Written by livingblocks {} (table schema {}) from {inputs}: {} files, {} rows, {} \
         games{}. Options that change the outputs: `--estimate {}`, `--max-file-size {}` (bytes){}.\n",
        get("livingblocks"),
        get("schema"),
        t.files.count,
        t.rows,
        get("games"),
        match get("shard").as_str() {
            "all" | "" => String::new(),
            shard => format!(", shard {shard}"),
        },
        get("estimate"),
        get("max_file_size"),
        if manifest.is_none() {
            " (no manifest.tsv found: these settings are unknown)"
        } else {
            ""
        }
    );
    judge(w, &get);
    if !get("edited").is_empty() {
        let _ = writeln!(
            w,
            "The tables were changed after the run (`report --edited`): {}. The figures \
             below are those of the tables as they are now.\n",
            get("edited")
                .split(' ')
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        w,
        "The tables beside this file: `games.csv` (a row per game, or per file that gave no \
         game), `blocks.csv` (a row per block of each final position), `chains.csv`, \
         `big_eyes.csv`, `not_benson.csv` (every block a method calls alive that Benson does \
         not) and `summary.csv` (totals that add up across runs that share no game); `manifest.tsv` records the \
         run. docs/outputs.md describes every column. `livingblocks report DIR` rebuilds \
         this report from the tables, and `livingblocks show FILE --game N` draws any one \
         position.\n"
    );
}

/// The methods in plain words, checked on the paper's own examples.
pub(super) fn method_section(w: &mut String, figures: &Figures) {
    let _ = writeln!(w, "## The methods\n");
    let _ = writeln!(
        w,
        "Every verdict is about a *block* (stones of one colour connected along the lines) at \
         the last position of the record. An empty point all of whose neighbours are one \
         block is that block's *own eye*; one whose neighbours are several blocks of a colour \
         is a *shared eye* of them.\n\n\
         - **Benson** (1976) proves life that holds whatever the opponent plays, even if the \
         owner always passes: a set of blocks lives when each of them has two regions vital to \
         it (every empty point of the region is the block's liberty, and every block around \
         the region is in the set). It never errs, and it is \
         the criterion: a block another method calls alive and Benson does not is a claim \
         it cannot prove.\n\
         - **mp95** is the procedure Müller-Prove (1995) published: a block lives with two \
         effective eyes, own eyes counting at once and a shared eye counting when it is \
         *vital*, which the procedure decides by following the other blocks that share it, \
         one shared eye at a time, in the order it meets them.\n\
         - **mpfix** reads the paper's Definition 11 as a fixpoint: it drops blocks that \
         cannot have two eyes until nothing changes, so no order of visiting matters.\n\
         - The `_eyes` variants also credit a big own eye (two or more points) with the eyes \
         the paper's Tab. 2 gives its shape.\n"
    );
    for f in &figures.paper {
        figure(w, f);
    }
}

/// Who judged: whose dead stones decide what died, which results the count contradicts and
/// (with the record's markup first) each game's margin, and how far that judge is measured
/// to agree with KataGo's b10 and with the dead stones players marked. The figures are
/// docs/judge.md's, each with the command that gives it.
fn judge(w: &mut String, get: &dyn Fn(&str) -> String) {
    let model = get("katago_model");
    let sha = get("net_sha256");
    let carried = sha == crate::engine::nn::CARRIED_SHA256;
    let who = match get("judge").as_str() {
        "katago" => format!(
            "KataGo {} with the net `{model}` at {} visits (`--katago`)",
            get("katago_version"),
            get("katago_visits")
        ),
        "net" if carried => format!(
            "KataGo's net `{model}`, carried in livingblocks and evaluated in-process at one \
             visit (the default judge; model version {}, SHA-256 `{sha}`). It gives KataGo's \
             own answers (the same dead stones in 300 of 300 professional positions); of 596 \
             amateur games whose records mark their dead stones, it calls exactly the marked \
             stones dead in 579 (97.1 %)",
            get("net_model_version")
        ),
        "net" => format!(
            "KataGo's net `{model}`, evaluated in-process at one visit (`--net`; model version \
             {}, file SHA-256 `{sha}`)",
            get("net_model_version")
        ),
        "estimate" => "the built-in estimate alone (`--judge estimate`): its dead stones are \
             b10's on 98.5 % of the blocks of 12,707 professional games and exactly the marked \
             ones in 576 of 596 amateur games; its margin equals RE in 65.7 % of a professional \
             sample where b10's equals it in 87.7 %"
            .to_string(),
        _ => "no one (`--estimate never`): no stone is called dead and no block is given a \
             final status"
            .to_string(),
    };
    let _ = writeln!(
        w,
        "The judge of the final positions: {who}. Its dead stones decide which blocks died and \
         which results the count contradicts; the record's own TB/TW marks, where there are \
         any, come first (livingblocks' docs/judge.md).\n"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_methods_are_checked_on_the_papers_examples() {
        let mut w = String::new();
        method_section(&mut w, &Figures::default());
        assert!(w.contains("Benson"), "{w}");
        assert!(w.contains("mp95") && w.contains("mpfix"), "{w}");
    }

    #[test]
    fn the_provenance_has_no_date() {
        let t = Tally {
            rows: 3,
            ..Tally::default()
        };
        let mut w = String::new();
        provenance(&mut w, &t, None);
        assert!(w.contains("3 rows"), "{w}");
        assert!(!w.contains("2026") && !w.contains("UTC"), "{w}");
    }
}
