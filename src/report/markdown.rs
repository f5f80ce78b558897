//! report.md: the report's text, from the tally. Sections follow the order a reader asks:
//! what was read, what lives, what the chains and eyes look like, and how the results compare.

use std::fmt::Write as _;

use super::diagrams::{Figure, Figures};
use super::facts::{Ending, Era};
use super::tally::{calibration_bin, DeadSums, SourceSums, Tally};
use crate::life::Method;
use crate::score::{DeadSource, FinalStatus};
use crate::sink::Manifest;

/// Rows of a listing shown in report.md; the rest are in the CSV beside it.
pub const SHOWN: usize = 40;

/// Rows of a frequency table (chain words, eye shapes) shown in report.md.
const TABLE_ROWS: usize = 20;

/// How a frequency table is cut: "All 7 words, the most frequent first" or "The 20 most
/// frequent of 49 words".
fn cut(what: &str, n: usize) -> String {
    if n > TABLE_ROWS {
        format!("The {TABLE_ROWS} most frequent of {n} {what}")
    } else {
        format!("All {n} {what}, the most frequent first")
    }
}

fn pct(a: u64, b: u64) -> String {
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

/// What produced the report: the version, the inputs as given, the options that change the
/// outputs, the totals, and the tables. No date: the same inputs give the same report.
fn provenance(w: &mut String, t: &Tally, manifest: Option<&Manifest>) {
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
        t.files,
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
fn method_section(w: &mut String, figures: &Figures) {
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

/// A plot's link when the report draws it, else `instead` (one line saying why not).
fn plot(w: &mut String, figures: &Figures, name: &str, instead: &str) {
    let file = format!("{name}.svg");
    if figures.charts.contains(&file.as_str()) {
        let _ = writeln!(w, "![{}](plots/{file})\n", name.replace('_', " "));
    } else if !instead.is_empty() {
        let _ = writeln!(w, "{instead}\n");
    }
}

/// A diagram and its sentence.
fn figure(w: &mut String, f: &Figure) {
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

fn corpus_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "## Corpus\n");
    let _ = writeln!(
        w,
        "{} files gave {} rows (one per game, or one per file that yielded no game).\n",
        t.files, t.rows
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
        let _ = writeln!(w, "| {k} | {v} |");
    }
    let _ = writeln!(w, "\n| board size | games |\n|---|---:|");
    let mut sizes: Vec<_> = t.sizes.iter().collect();
    sizes.sort_by_key(|(k, _)| (k.parse::<u32>().unwrap_or(u32::MAX), k.as_str()));
    for (k, v) in sizes {
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
        let _ = writeln!(w, "| {how} | {winner} | {v} |");
    }
    let _ = writeln!(w, "\n| rules | games |\n|---|---:|");
    for (k, v) in &t.rules {
        let _ = writeln!(w, "| {k} | {v} |");
    }
    let _ = writeln!(
        w,
        "\nReplay anomalies: {} suicides, {} immediate ko retakes applied as recorded; {} games \
         with setup stones; {} games stopped at an illegal move.\n",
        t.suicides,
        t.ko_retakes,
        t.setup_games,
        t.status.get("illegal_move").copied().unwrap_or(0)
    );
}

/// How many games repeat an earlier one, and that the figures count each game once.
fn duplicates_line(t: &Tally) -> String {
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
        "{all} games repeat an earlier one, rotated or mirrored or not ({}; games.csv \
         `duplicate_of` names the first copy, `duplicate_kind` says how). The status and \
         encoding tables count them; every other figure of the report counts each game \
         once, at its first copy.",
        kinds.join(", ")
    )
}

fn life_section(w: &mut String, t: &Tally, figures: &Figures) {
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
    let _ = writeln!(
        w,
        "\n### Alive by the paper, not by Benson\n\n{mp95} blocks are alive by `mp95` and \
         not by Benson; {mpfix} by `mpfix`. Benson's life is unconditional, so a block on \
         this list is one the paper's procedure credits with life it cannot prove. With \
         `mp95` it comes from side effects of failed branches: checking one shared eye, the \
         procedure marks others vital on the way, and when the check fails those marks \
         stay, so a block keeps an eye it has no right to. Most such blocks are alive under \
         any order of visiting the eyes; for some the order decides (docs/findings.md). The \
         fixpoint reading has no such side effects. All {} are listed in \
         `not_benson.csv`{}.\n",
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

fn chains_section(w: &mut String, t: &Tally, figures: &Figures) {
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
        cut("words", t.chains.len())
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
         worth in eyes when the owner and when the opponent moves first ({}):\n",
        cut("shape types", t.big_eyes.len()).to_lowercase()
    );
    plot(w, figures, "big_eyes", "No big own eyes: no plot of them.");
    let mut shapes: Vec<_> = t.big_eyes.iter().collect();
    shapes.sort_by(|a, b| b.1.eyes.cmp(&a.1.eyes).then(a.0.cmp(b.0)));
    let _ = writeln!(
        w,
        "| size | shape | eyes | worth (owner first) | worth (opponent first) | in Tab. 2 |"
    );
    let _ = writeln!(w, "|---:|---|---:|---:|---:|---:|");
    for ((size, shape), s) in shapes.into_iter().take(TABLE_ROWS) {
        let _ = writeln!(
            w,
            "| {size} | `{shape}` | {} | {} | {} | {} |",
            s.eyes, s.worth.0, s.worth.1, s.classified
        );
    }
    let _ = writeln!(w);
}

/// Points shown per cell of the differing-games table.
const POINTS_SHOWN: usize = 12;

/// A reference for the estimate's dead stones, as the report names it.
struct Reference {
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
const MARKUP: Reference = Reference {
    heading: "markup",
    games: "with TB/TW markup",
    exact: "the marked stones",
    are_dead: "are marked dead",
    dead: "marked dead",
    name: "the markup",
};

/// KataGo's ownership: how far the estimate is from the engine Go researchers trust.
const KATAGO: Reference = Reference {
    heading: "KataGo",
    games: "that KataGo judged (its ownership gives a block to the opponent: `dead_katago`)",
    exact: "KataGo's dead stones",
    are_dead: "KataGo calls dead",
    dead: "KataGo calls dead",
    name: "KataGo",
};

/// The estimate's dead stones against a reference's, where games have both.
fn dead_section(w: &mut String, d: &DeadSums, figures: &[Figure], r: &Reference) {
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
fn differing(w: &mut String, d: &DeadSums, figures: &[Figure], reference: &str) {
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

fn results_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "## Results\n");
    let _ = writeln!(
        w,
        "RE present in {} games; parsed in {} ({}); {} give a margin or a draw.",
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
         (`none`, a lower bound); with `--katago` also with KataGo's (`katago`: the blocks its \
         ownership gives to the opponent, finished and counted as the others), and KataGo's \
         own lead is compared as it is (`katago lead`, on the grid of margins the komi \
         allows). Margins are Black − White − komi under the game's rules: RU, \
         else inferred from the record's komi, place and event, else territory counting \
         (games.csv `rules_source`); RE is never an input. A record that stops before the \
         players' last moves is finished first: the dame are filled and the moves the filling \
         forces are played (`finished_moves`); one whose borders are still open is \
         `unscorable` and counted apart. {} games carry TB/TW markup.\n",
        t.markup_games
    );
    let _ = writeln!(
        w,
        "The estimate assumes the game is over, so that what random play from the final \
         position settles is what the players settled: {} playouts, seeded by the position, \
         decide which groups die; a group with one small eye, a bent four in the corner \
         waiting to happen, or a block that loses its capturing race whoever moves first is \
         dead too; a stone Benson proves alive is never dead, and a dead group must lie in \
         the opponent's territory once the dead are removed.\n",
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
        "| dead stones | compared | exact | within 1 point (exact included) | same winner | \
         scorable | exact | within 1 point (exact included) | scorable, finish sure | exact | \
         within 1 point (exact included) |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // KataGo's rows only where the run asked KataGo: its dead stones, and its own lead.
    let rows: Vec<(&str, &SourceSums)> = t
        .sources
        .iter()
        .filter(|(src, s)| *src != DeadSource::Katago || s.compared > 0)
        .map(|(src, s)| (src.name(), s))
        .chain((t.katago_lead.compared > 0).then_some(("katago lead", &t.katago_lead)))
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
    let _ = writeln!(
        w,
        "\nExact margins by rules, by board size and by when the game was played:\n"
    );
    let names: Vec<&str> = rows.iter().map(|&(name, _)| name).collect();
    let _ = writeln!(w, "| | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|{}", "---:|".repeat(names.len()));
    let mut keys: Vec<(String, String)> = Vec::new();
    for (_, s) in &rows {
        for k in s.by_rules.keys() {
            keys.push(("rules".into(), k.clone()));
        }
        for k in s.by_size.keys() {
            keys.push(("size".into(), k.clone()));
        }
    }
    keys.sort();
    keys.dedup();
    for (kind, key) in keys {
        let cells: Vec<String> = rows
            .iter()
            .map(|(_, s)| {
                let map = if kind == "rules" {
                    &s.by_rules
                } else {
                    &s.by_size
                };
                map.get(&key)
                    .map_or("–".into(), |(n, e)| format!("{} of {n}", pct(*e, *n)))
            })
            .collect();
        let _ = writeln!(w, "| {kind} {key} | {} |", cells.join(" | "));
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
    dead_section(w, &t.dead, &figures.dead, &MARKUP);
    dead_section(w, &t.dead_katago, &figures.dead_katago, &KATAGO);
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
    let _ = writeln!(
        w,
        "### Suspicious records\n\nGames whose recorded result contradicts what Benson \
         proves: the loser is proven to win, or the margin lies outside the range the proven \
         points allow (with slack for territory counting). {} found.\n",
        t.suspicious.len()
    );
    if !t.suspicious.is_empty() {
        let _ = writeln!(
            w,
            "| file | game | RE | rules | proven margin ≥ | proven margin ≤ |"
        );
        let _ = writeln!(w, "|---|---:|---|---|---:|---:|");
        for s in t.suspicious.iter().take(SHOWN * 5) {
            let _ = writeln!(
                w,
                "| {} | {} | `{}` | {} | {} | {} |",
                s.file, s.game, s.re, s.rules, s.low, s.high
            );
        }
    }
    let _ = writeln!(
        w,
        "\n### Results the count contradicts\n\nGames whose finished count, scorable and sure \
         of itself (no ko, seki or race left open), gives another winner by three points or \
         more, or a margin {} points or more from RE, whichever side starts the finishing: \
         mis-recorded results, truncated \
         records, or positions the count gets wrong; each is worth a look. {} found{}.\n",
        crate::score::FAR_OFF,
        t.contradicted.len(),
        if t.contradicted.len() > SHOWN {
            format!("; the first {SHOWN} here")
        } else {
            String::new()
        }
    );
    if !t.contradicted.is_empty() {
        let _ = writeln!(
            w,
            "| file | game | RE | rules | count | dead stones from | moves finished |"
        );
        let _ = writeln!(w, "|---|---:|---|---|---:|---|---:|");
        for c in t.contradicted.iter().take(SHOWN) {
            let _ = writeln!(
                w,
                "| {} | {} | `{}` | {} | {} | {} | {} |",
                c.file,
                c.game,
                c.re,
                c.rules,
                crate::sink::games::margin_text(c.margin as f32),
                c.source,
                c.finished_moves
            );
        }
        let _ = writeln!(w);
    }
    if !figures.contradicted.is_empty() {
        let _ = writeln!(
            w,
            "The first {} of these records (and of the suspicious ones above), at the end of \
             the record, before finishing:\n",
            figures.contradicted.len()
        );
        for f in &figures.contradicted {
            figure(w, f);
        }
    }
    no_area_count(w, t);
}

/// The games counted by area whose RE no area count of the finished board gives.
fn no_area_count(w: &mut String, t: &Tally) {
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
    let _ = writeln!(
        w,
        "| file | game | RE | rules | count by area | count by territory |"
    );
    let _ = writeln!(w, "|---|---:|---|---|---:|---:|");
    let text =
        |m: Option<f64>| m.map_or(String::new(), |m| crate::sink::games::margin_text(m as f32));
    for c in t.no_area_count.iter().take(SHOWN) {
        let _ = writeln!(
            w,
            "| {} | {} | `{}` | {} | {} | {} |",
            c.file,
            c.game,
            c.re,
            c.rules,
            text(c.area),
            text(c.territory)
        );
    }
    let _ = writeln!(w);
}

/// The life methods against the status of each block at the end of the game.
/// The estimate's `dead_share` held against the blocks a reference judged.
fn calibration_section(w: &mut String, t: &Tally, figures: &Figures) {
    let _ = writeln!(w, "\n## How sure the estimate is\n");
    let _ = writeln!(
        w,
        "blocks.csv `dead_share` is the share of the estimate's playouts in which a block was \
         captured or ended in the opponent's area. Held against the blocks a reference judged \
         (the markup, or KataGo with `--katago`), a calibrated share would see about that \
         share of its blocks dead.\n"
    );
    if t.calibration.iter().all(|&(n, _)| n == 0) {
        let _ = writeln!(
            w,
            "No block here has both a `dead_share` and a reference's verdict (TB/TW markup, \
             or `--katago`): nothing to hold the share against."
        );
        return;
    }
    plot(w, figures, "calibration", "");
    let _ = writeln!(
        w,
        "| dead_share | blocks | dead by the reference |\n|---|---:|---:|"
    );
    for (i, &(n, d)) in t.calibration.iter().enumerate() {
        if n > 0 {
            let _ = writeln!(w, "| {} | {n} | {} |", calibration_bin(i), pct(d, n));
        }
    }
}

fn final_section(w: &mut String, t: &Tally) {
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
        "What became of each block by the end of the game (blocks.csv `final`): dead when the \
         best source of dead stones (the markup, else KataGo's ownership where the run asked \
         KataGo, else the estimate, after finishing the game) \
         calls it dead or the finishing captured it, seki when it shares liberties no one can \
         fill, alive otherwise. {} blocks ({} stones) lived to the end, {} of them in seki; {} \
         died. A method is right about a block it calls alive when the block lived; Benson \
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
