//! The accuracy report of a run: `report.md` with SVG plots, `summary.csv` (totals that add
//! up across runs), and `not_benson.csv` (every block a method calls alive that Benson does
//! not). All of it comes from one `Tally`: a run fills it from its typed rows as it writes
//! the tables, `livingblocks report DIR` and `merge` from the tables of a folder. The same
//! tables give the same bytes either way.
//!
//! `tally` sums, `facts` and `read` feed it, `charts` chooses what each plot shows, `plot`
//! draws, `markdown` writes the text.

mod charts;
pub mod diagrams;
pub mod drawing;
mod facts;
mod html;
mod markdown;
mod plot;
mod read;
pub mod record;
pub mod tally;

use std::path::Path;

use crate::sink::Manifest;
use crate::source::Finder;

pub use charts::Chart;
pub use facts::Ending;
pub use facts::{BigEyeFacts, BlockFacts, ChainFacts, GameFacts};
pub use tally::Tally;

/// What can go wrong while reporting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("cannot read {0}")]
    Read(String),
    /// A table lacks a column the report reads: written by another version, or edited.
    #[error("{table} has no column {column:?}: not a table this version writes")]
    Column { table: &'static str, column: String },
    /// A cell that is not what its column holds: an edited table.
    #[error("{table} line {line}, column {column}: {value:?} is not {want}")]
    Cell {
        table: &'static str,
        line: u64,
        column: &'static str,
        value: String,
        want: &'static str,
    },
    #[error("cannot write {0}")]
    Write(String),
}

/// How many games of each list get a board diagram, unless asked otherwise.
pub const DIAGRAMS: usize = 6;

/// Writes report.md, summary.csv, not_benson.csv and plots/ into `stage` from the tables in
/// `tables` (the same folder, or the folder the stage belongs to); the diagrams' positions are
/// read again from the inputs `manifest` names, relative paths taken from `manifest`'s
/// `started_in` seen from the output folder `out`.
pub fn write_from_tables(
    tables: &Path,
    stage: &Path,
    out: &Path,
    manifest: &Manifest,
    diagrams: usize,
) -> Result<(), ReportError> {
    let t = Tally::read(tables)?;
    let finder = Finder::new(
        &manifest.roots(out),
        manifest.max_file_size(),
        manifest.base(out).as_deref(),
    );
    write(
        stage,
        &t,
        Some(manifest),
        Some(&finder),
        Some(tables),
        diagrams,
    )
}

/// What games.csv in `tables` says of the games `t` may draw a diagram of (a key per game of
/// the corpus is not needed).
fn drawn(t: &Tally, tables: &Path) -> Result<diagrams::Keys, ReportError> {
    let mut wanted = std::collections::HashSet::new();
    let mut want = |file: &str, game: &str| {
        wanted.insert((file.to_string(), game.to_string()));
    };
    t.not_benson.iter().for_each(|b| want(&b.file, &b.game));
    for d in t.dead.differing.iter().chain(&t.dead_katago.differing) {
        want(&d.file, &d.game);
    }
    t.contradicted.iter().for_each(|c| want(&c.file, &c.game));
    t.suspicious.iter().for_each(|s| want(&s.file, &s.game));
    read::game_keys(tables, &wanted)
}

/// Writes report.md, summary.csv, not_benson.csv and plots/ into `dir` (a run's stage
/// folder) from `t`, with up to `diagrams` board diagrams per list, their positions found
/// through `finder`; `manifest` says what produced the tables. `tables`: the tables `t` is
/// the tally of, where games.csv must be read again for what the diagrams need (each game's
/// key, and KataGo's dead stones); a run without an engine draws its own records with its
/// own dead stones, and passes none.
pub fn write(
    dir: &Path,
    t: &Tally,
    manifest: Option<&Manifest>,
    finder: Option<&Finder>,
    tables: Option<&Path>,
    diagrams: usize,
) -> Result<(), ReportError> {
    let keys = tables.map(|tables| drawn(t, tables)).transpose()?;
    let wrote =
        |p: &Path, e: &dyn std::fmt::Display| ReportError::Write(format!("{}: {e}", p.display()));
    let plots = dir.join("plots");
    std::fs::create_dir_all(&plots).map_err(|e| wrote(&plots, &e))?;
    let boards = plots.join("boards");
    let mut drawn = Vec::new();
    for (name, chart) in charts::charts(t) {
        let p = plots.join(name);
        plot::draw(&p, &chart).map_err(|e| wrote(&p, &e))?;
        drawn.push(name);
    }
    std::fs::create_dir_all(&boards).map_err(|e| wrote(&boards, &e))?;
    let mut figures = diagrams::figures(t, finder, keys.as_ref(), diagrams);
    figures.charts = drawn;
    for f in figures.all() {
        let p = boards.join(&f.file);
        std::fs::write(&p, &f.svg).map_err(|e| wrote(&p, &e))?;
        if let Some(sgf) = &f.sgf {
            let p = boards.join(f.sgf_file());
            std::fs::write(&p, sgf).map_err(|e| wrote(&p, &e))?;
        }
    }
    let summary = dir.join("summary.csv");
    write_summary(t, &summary).map_err(|e| wrote(&summary, &e))?;
    let nb = dir.join("not_benson.csv");
    write_not_benson(t, &nb).map_err(|e| wrote(&nb, &e))?;
    let md = dir.join("report.md");
    let text = markdown::markdown(t, &figures, manifest);
    std::fs::write(&md, &text).map_err(|e| wrote(&md, &e))?;
    // The same text as one page a browser opens anywhere, the plots just written inline.
    let inline = |link: &str| {
        let plot = link.starts_with("plots/") && link.ends_with(".svg") && !link.contains("..");
        plot.then(|| std::fs::read_to_string(dir.join(link)).ok())
            .flatten()
    };
    let page = dir.join("report.html");
    std::fs::write(&page, html::page(&text, inline)).map_err(|e| wrote(&page, &e))?;
    Ok(())
}

fn write_summary(t: &Tally, path: &Path) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_path(path)?;
    w.write_record(["measure", "colour", "method", "value"])?;
    for (m, c, k, v) in t.summary() {
        w.write_record([m, c, k, v.to_string()])?;
    }
    w.flush()?;
    Ok(())
}

fn write_not_benson(t: &Tally, path: &Path) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_path(path)?;
    w.write_record([
        "file", "game", "colour", "anchor", "stones", "mp95", "mpfix",
    ])?;
    for b in &t.not_benson {
        let flag = |x: bool| if x { "1" } else { "0" };
        w.write_record([
            &b.file,
            &b.game,
            &b.colour,
            &b.anchor,
            &b.stones.to_string(),
            flag(b.mp95),
            flag(b.mpfix),
        ])?;
    }
    w.flush()?;
    Ok(())
}
