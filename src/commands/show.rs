//! `livingblocks show FILE`: one position drawn with every method's verdict and the dead
//! stones, as text or SVG.

use std::path::Path;

use livingblocks::analyze::{analyze_file_judged, engine_queries, EstimateFor, Options};
use livingblocks::app::AppError;
use livingblocks::engine::{Katago, NetJudge};
use livingblocks::go::Point;
use livingblocks::look::look_judged;
use livingblocks::report::diagrams::{show_diagram, show_text, title as diagram_title};
use livingblocks::report::sgf::position_sgf;
use livingblocks::score::engine::{EngineAnswer, EngineQuery};
use livingblocks::source::{Finder, Root};

use crate::cli::ShowArgs;
use crate::progress;

/// Records are read whole; no file a user points at by hand is this big.
const CAP: u64 = 1 << 30;

pub fn run(args: &ShowArgs) -> Result<(), AppError> {
    if (args.katago.katago.is_some() || args.katago.net.is_some()) && args.moves.is_some() {
        return Err(AppError::Config(
            "--katago and --net judge the final position, as a run does: give no --move"
                .to_string(),
        ));
    }
    for out in [&args.out, &args.sgf].into_iter().flatten() {
        if out.is_dir() {
            return Err(AppError::Config(format!(
                "{}: a folder where an output file goes; give a file name",
                out.display()
            )));
        }
    }
    let (root, name) = locate(&args.file)?;
    let finder = Finder::new(&[Root::arg(&root)], CAP, None);
    let (bytes, game) = finder.game(&name, args.game).ok_or_else(|| {
        AppError::Config(format!(
            "{}: no game {} there (an archive needs ARCHIVE!MEMBER, as games.csv names it)",
            args.file.display(),
            args.game
        ))
    })?;
    let judged = match (
        args.katago.to_spec().map_err(AppError::Config)?,
        &args.katago.net,
    ) {
        (Some(spec), _) => Some(katago_judgement(&bytes, game, &spec)?),
        (None, Some(net)) => Some(net_judgement(&bytes, game, net)?),
        (None, None) => None,
    };
    let dead = judged.as_ref().and_then(|(_, dead)| dead.as_deref());
    let l = look_judged(&bytes, game, args.moves, dead)
        .map_err(|e| AppError::Config(format!("{}: {e}", args.file.display())))?;
    if let Some(asked) = args.moves.filter(|&m| m > l.moves) {
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
            .map_err(|e| AppError::Output(format!("{}: {e}", out.display())))?;
    }
    if let Some(out) = &args.sgf {
        std::fs::write(out, position_sgf(&l, &title))
            .map_err(|e| AppError::Output(format!("{}: {e}", out.display())))?;
    }
    if args.ascii || (args.out.is_none() && args.sgf.is_none()) {
        progress::print(show_text(&l, &title))?;
    }
    if let Some((text, _)) = &judged {
        progress::print(text)?;
    }
    Ok(())
}

/// What KataGo makes of the final position, as `analyze --katago` writes it in games.csv,
/// and its dead stones where it answered.
fn katago_judgement(
    bytes: &[u8],
    game: usize,
    spec: &livingblocks::engine::KatagoSpec,
) -> Result<(String, Option<Vec<Point>>), AppError> {
    let cancel = super::stop_on_signals();
    let stopped = || cancel.load(std::sync::atomic::Ordering::SeqCst);
    let mut engine = Katago::start(spec, &stopped)?;
    let head = format!(
        "KataGo {} ({}, {} visits)",
        engine.version, engine.model, spec.visits
    );
    judgement(bytes, game, &head, |q| {
        let id = engine.submit(q);
        Ok(engine.wait(id, &stopped)?)
    })
}

/// What a KataGo net evaluated in-process makes of the final position, as `analyze --net`
/// writes it in games.csv.
fn net_judgement(
    bytes: &[u8],
    game: usize,
    file: &Path,
) -> Result<(String, Option<Vec<Point>>), AppError> {
    let net = NetJudge::load(file)?;
    let head = format!(
        "KataGo net {} (model version {}, in-process)",
        net.name(),
        net.model_version()
    );
    judgement(bytes, game, &head, |q| Ok(net.judge(q)))
}

/// The judgement of game `game` of the file by `ask`, as text (under `head`) and its dead
/// stones.
fn judgement(
    bytes: &[u8],
    game: usize,
    head: &str,
    mut ask: impl FnMut(&EngineQuery) -> Result<EngineAnswer, AppError>,
) -> Result<(String, Option<Vec<Point>>), AppError> {
    // Every final position is asked, counted or not: the user asked for this one.
    let options = Options {
        estimate: EstimateFor::All,
    };
    let mut answers = Vec::new();
    for q in engine_queries(bytes, options) {
        answers.push(match q {
            Some(Ok(q)) if answers.len() == game => Some(ask(&q)?),
            Some(Err(why)) => Some(Err(why)),
            _ => None,
        });
    }
    let a = analyze_file_judged(bytes, options, &answers);
    let Some(s) = a.games.get(game).and_then(|g| g.score.as_ref()) else {
        return Ok((format!("{head}: no final position to judge\n"), None));
    };
    let (Some(lead), Some(score), Some(k)) = (s.katago_lead, s.katago_score, &s.katago) else {
        let why = a.games[game].detail.clone();
        return Ok((format!("{head}: no answer ({why})\n"), None));
    };
    let komi = a.games[game].record.as_ref().map_or(0.0, |r| r.komi);
    let size = a.games[game].size.unwrap_or(19);
    let dead: Vec<String> = k.dead.iter().map(|&p| go_point(size, p)).collect();
    let margin = |m: Option<f32>| m.map_or("rules unknown".to_string(), |m| format!("{m:+}"));
    let text = format!(
        "{head}: Black − White − komi {lead:+.2} by its lead (as a count {}), {score:+.2} by \
         the score it expects (as a count {}); dead: {}; counted with these dead stones after \
         finishing: {}\n",
        livingblocks::score::engine::on_grid(lead, komi),
        livingblocks::score::engine::on_grid(score, komi),
        if dead.is_empty() {
            "none".to_string()
        } else {
            dead.join(" ")
        },
        margin(k.margin)
    );
    Ok((text, Some(k.dead.clone())))
}

/// A point as Go players name it (`D4`).
fn go_point(size: u8, p: Point) -> String {
    livingblocks::report::board::go_name(p, size)
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
            livingblocks::source::list::unescape(text),
        ))
    };
    let text = file.to_string_lossy();
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
    Err(AppError::Config(format!(
        "{}: no such file",
        file.display()
    )))
}
