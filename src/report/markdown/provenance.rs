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
    let model = get("katago_model");
    if !model.is_empty() {
        let by = match get("net_sha256").as_str() {
            "" => format!(
                "KataGo {} at {} visits (`--katago`)",
                get("katago_version"),
                get("katago_visits")
            ),
            sha => format!(
                "livingblocks in-process (`--net`; model version {}, file SHA-256 `{sha}`)",
                get("net_model_version")
            ),
        };
        let _ = writeln!(
            w,
            "KataGo's judgement (the `katago_*` columns, `dead_katago`): net `{model}`, \
             evaluated by {by}.\n"
        );
    }
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
