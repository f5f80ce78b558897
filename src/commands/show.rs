//! `livingblocks show FILE`: one position drawn with every method's verdict and the dead
//! stones, as text or SVG.

use std::path::Path;
use std::sync::atomic::Ordering;

use livingblocks::analyze::{examine, Judged};
use livingblocks::app::AppError;
use livingblocks::engine::{Judge, NetSource};
use livingblocks::look::{open, Look, EVERY_GAME};
use livingblocks::report::diagrams::{show_diagram, show_text, title as diagram_title};
use livingblocks::report::record::position_sgf;
use livingblocks::row::GameRow;
use livingblocks::source::{Finder, Root};

use crate::cli::ShowArgs;
use crate::progress;

/// Records are read whole; no file a user points at by hand is this big.
const CAP: u64 = 1 << 30;

pub fn run(args: &ShowArgs) -> Result<(), AppError> {
    if (args.katago.katago.is_some() || args.katago.net.is_some()) && args.moves.is_some() {
        return Err(AppError::Usage(
            "--katago and --net judge the final position, as a run does: give no --move"
                .to_string(),
        ));
    }
    for out in [&args.out, &args.sgf].into_iter().flatten() {
        if out.is_dir() {
            return Err(AppError::Usage(format!(
                "{}: a folder where an output file goes; give a file name",
                out.display()
            )));
        }
    }
    let (root, name) = locate(&args.file)?;
    // The record (or the archive holding it) is never written over, whatever name, link or
    // hard link the output is given.
    for out in [&args.out, &args.sgf].into_iter().flatten() {
        if same_file(out, &root) {
            return Err(AppError::Usage(format!(
                "{}: is the record shown ({}); give the drawing a name of its own",
                out.display(),
                root.display()
            )));
        }
    }
    if let (Some(svg), Some(sgf)) = (&args.out, &args.sgf) {
        if svg == sgf || same_file(svg, sgf) {
            return Err(AppError::Usage(format!(
                "{}: given to both --out and --sgf; give each its own file",
                svg.display()
            )));
        }
    }
    if let Some(out) = &args.out {
        let svg = out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if !svg {
            return Err(AppError::Usage(format!(
                "{}: --out draws SVG; give the drawing a name ending in .svg (rsvg-convert, \
                 for one, makes a PNG of it)",
                out.display()
            )));
        }
    }
    let finder = Finder::new(&[Root::arg(&root)], CAP, None);
    let (bytes, game) = finder.game(&name, args.game).ok_or_else(|| {
        AppError::Usage(format!(
            "{}: no game {} there (an archive needs ARCHIVE!MEMBER, as games.csv names it)",
            args.file.display(),
            args.game
        ))
    })?;
    // The game read, parsed and replayed once; the engine asked about its final position;
    // then analysed once, for the drawing and the engine's text alike.
    let g = open(&bytes, game, args.moves)
        .map_err(|e| AppError::Usage(format!("{}: {e}", args.file.display())))?;
    let spec = args.katago.to_spec().map_err(AppError::Usage)?;
    // The carried net judges the final position only: a move shown is not judged.
    let net = args
        .katago
        .net()
        .filter(|n| args.moves.is_none() || *n != NetSource::Carried);
    // Only an engine is waited for: without one, a signal ends `show` at once.
    let cancel = spec.as_ref().map(|_| super::stop_on_signals());
    let stopped = || cancel.as_ref().map_or(0, |c| c.load(Ordering::SeqCst));
    let mut judge = Judge::open(spec.as_ref(), net.as_ref(), &stopped)?;
    let head = head(&mut judge, spec.as_ref().map_or(0, |s| s.visits));
    let answer = match judge.ask(g.query()) {
        Some(t) => Some(judge.answer(t, &stopped)?),
        None => None,
    };
    // An engine's process ends here, before the drawing is written or printed.
    drop(judge);
    let examined = examine(&g, EVERY_GAME, answer.as_ref().map(Judged::Answer));
    let l = Look::of(&examined);
    let judged = head.map(|head| judgement(&examined.row(), &head));
    if let Some(asked) = args.moves.filter(|&m| m > l.moves && !args.quiet) {
        progress::note(&format!(
            "{}: the record has {} moves, not {asked}: this is its end",
            args.file.display(),
            l.moves
        ));
    }
    // The name as a run writes it, and no control character in a title or a terminal.
    let shown = progress::escape_controls(&livingblocks::source::name_of(
        std::os::unix::ffi::OsStrExt::as_bytes(args.file.as_os_str()),
    ));
    let title = format!("{shown} game {}", args.game);
    if let Some(out) = &args.out {
        std::fs::write(out, show_diagram(&l).svg(&diagram_title(&l, &title)))
            .map_err(AppError::write(out))?;
    }
    if let Some(out) = &args.sgf {
        std::fs::write(out, position_sgf(&l, &title)).map_err(AppError::write(out))?;
    }
    let text = args.ascii || (args.out.is_none() && args.sgf.is_none());
    if text {
        progress::print(show_text(&l, &title))?;
    }
    // The judge's own words go with the board's text, or wherever a judge was named.
    let named = args.katago.katago.is_some() || args.katago.net.is_some();
    if let Some(judged) = judged.filter(|_| text || named) {
        progress::print(&judged)?;
    }
    Ok(())
}

/// The line that names the judge above its words; `None` for the estimate, which has none.
fn head(judge: &mut Judge, visits: u32) -> Option<String> {
    if let Some(engine) = judge.engine() {
        return Some(format!(
            "KataGo {} ({}, {visits} visits)",
            engine.version, engine.model
        ));
    }
    let (name, version, _) = judge.net()?.describe();
    Some(format!(
        "KataGo net {name} (model version {version}, in-process)"
    ))
}

/// The judgement of a game, as `analyze --katago` or `--net` writes it in games.csv, as
/// text under `head`.
fn judgement(row: &GameRow, head: &str) -> String {
    let Some(s) = &row.score else {
        return format!("{head}: no final position to judge\n");
    };
    let (Some(lead), Some(score), Some(k)) = (s.katago_lead, s.katago_score, &s.katago) else {
        return format!("{head}: no answer ({})\n", row.detail);
    };
    let komi = row.record.as_ref().map_or(0.0, |r| r.komi);
    let size = row.size.unwrap_or(19);
    let dead: Vec<String> = k.dead.iter().map(|&p| go_point(size, p)).collect();
    let margin = |m: Option<f32>| m.map_or("rules unknown".to_string(), |m| format!("{m:+}"));
    format!(
        "{head}: Black − White − komi {lead:+.2} by its lead (as a count {}), {score:+.2} by \
         the score it expects (as a count {}); dead: {}; counted with these dead stones after \
         finishing: {}\n",
        livingblocks::score::judgement::on_grid(lead, komi),
        livingblocks::score::judgement::on_grid(score, komi),
        if dead.is_empty() {
            "none".to_string()
        } else {
            dead.join(" ")
        },
        margin(k.margin)
    )
}

/// Whether `a` and `b` are one file (the same device and inode: links and other names of it
/// included); false where either is not there.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// A point as Go players name it (`D4`).
fn go_point(size: u8, p: livingblocks::go::Point) -> String {
    livingblocks::report::drawing::go_name(p, size)
}

/// The file to walk and the name a run gives the record: `FILE` itself, or for
/// `ARCHIVE!MEMBER` the archive and that name. FILE may also be written as games.csv writes
/// names (`\xNN`, `\\`, `\!`).
fn locate(file: &Path) -> Result<(std::path::PathBuf, String), AppError> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let name_of =
        |p: &Path| livingblocks::source::name_of(p.file_name().unwrap_or(p.as_os_str()).as_bytes());
    let unescaped = |text: &str| {
        std::path::PathBuf::from(std::ffi::OsString::from_vec(
            livingblocks::source::unescape(text),
        ))
    };
    let text = file.to_string_lossy();
    if file.is_dir() {
        return Err(AppError::Usage(format!(
            "{}: a folder; show draws one game of one file: give an SGF file (or \
             ARCHIVE!MEMBER) as games.csv names it",
            file.display()
        )));
    }
    for path in [file.to_path_buf(), unescaped(&text)] {
        if path.is_file() {
            let name = name_of(&path);
            return Ok((path, name));
        }
    }
    for (i, _) in text.match_indices('!') {
        // An escaped `!` is part of a name.
        let escaped = text[..i].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1;
        if escaped {
            continue;
        }
        for archive in [Path::new(&text[..i]).to_path_buf(), unescaped(&text[..i])] {
            if archive.is_file() {
                let name = format!("{}{}", name_of(&archive), &text[i..]);
                return Ok((archive, name));
            }
        }
    }
    Err(AppError::Usage(format!("{}: no such file", file.display())))
}
