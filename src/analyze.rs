//! The pure per-file function: bytes in, records out. No I/O, no printing, no shared state,
//! so it runs on any thread and the output never depends on scheduling.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::go::{replay, Color, GameKey, Idx, Replay};
use crate::life::{analyze_life, Life, Net};
use crate::row::{
    BigEyeRow, BlockRow, ChainRow, Failure, FileAnalysis, GameRow, PositionStats, ScoreRow,
    SourceScore, Status,
};
use crate::score;
use crate::score::engine::{EngineAnswer, EngineQuery, EngineView};
use crate::score::rules::RecordInfo;
use crate::sgf::{self, load::Tree, GameInfo};

/// Which final positions get the dead-stone estimate: it costs more than everything else
/// per game together.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EstimateFor {
    /// Games the record says were counted (a margin, a draw) or that carry TB/TW markup.
    #[default]
    Counted,
    /// Every replayed game, resignations included.
    All,
    /// None: the estimate columns stay empty.
    Never,
}

impl EstimateFor {
    /// Whether a game gets the estimate (and an engine's judgement): `counted` says the
    /// record was counted or carries markup.
    pub fn selects(self, counted: bool) -> bool {
        match self {
            EstimateFor::All => true,
            EstimateFor::Counted => counted,
            EstimateFor::Never => false,
        }
    }

    pub const ALL: [EstimateFor; 3] = [EstimateFor::Counted, EstimateFor::All, EstimateFor::Never];

    /// The choice as `--estimate` and the manifest name it.
    pub fn name(self) -> &'static str {
        match self {
            EstimateFor::Counted => "counted",
            EstimateFor::All => "all",
            EstimateFor::Never => "never",
        }
    }

    /// What the choice does, in a line.
    pub fn help(self) -> &'static str {
        match self {
            EstimateFor::Counted => {
                "Games the record says were counted (a margin, a draw) or that carry TB/TW markup"
            }
            EstimateFor::All => "Every replayed game, resignations included",
            EstimateFor::Never => "None: the estimate columns stay empty",
        }
    }
}

/// Per-run choices of the analysis.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub estimate: EstimateFor,
}

/// Analyses the bytes of one SGF file with the default options.
pub fn analyze_file(bytes: &[u8]) -> FileAnalysis {
    analyze_file_with(bytes, Options::default())
}

/// Analyses the bytes of one SGF file. A panic anywhere inside becomes an `internal_error`
/// row instead of ending the run.
pub fn analyze_file_with(bytes: &[u8], options: Options) -> FileAnalysis {
    guarded(|| analyze_with(bytes, options, &[]))
}

/// An engine's answers for a file's game trees, by the tree's index in the file (`None`, or
/// past the end: not asked).
pub type Answers = [Option<EngineAnswer>];

/// `analyze_file_with`, with an engine's answers to the questions `engine_queries` asked.
pub fn analyze_file_judged(bytes: &[u8], options: Options, answers: &Answers) -> FileAnalysis {
    guarded(|| analyze_with(bytes, options, answers))
}

/// The question for an engine of each game tree of a file whose final position `options`
/// selects for the estimate, by tree index; `Err` says why a selected one cannot be asked.
/// A panic gives no questions (the analysis reports it).
pub fn engine_queries(bytes: &[u8], options: Options) -> Vec<Option<Result<EngineQuery, String>>> {
    catch_unwind(AssertUnwindSafe(|| {
        let Ok(decoded) = sgf::decode(bytes) else {
            return Vec::new();
        };
        let Ok(loaded) = sgf::load(&decoded.text) else {
            return Vec::new();
        };
        loaded
            .trees
            .iter()
            .map(|t| {
                let Ok(Tree::Go(root)) = &t.tree else {
                    return None;
                };
                let rec = RecordInfo::read(&GameInfo::from_main_line(root));
                let r = replay(root).ok().filter(|r| r.illegal.is_none())?;
                options
                    .estimate
                    .selects(r.has_markup || rec.counted())
                    .then(|| EngineQuery::of(&r.board, r.to_move, &rec, crate::go::move_list(root)))
            })
            .collect()
    }))
    .unwrap_or_default()
}

/// Runs per-file work, turning a panic into a single `internal_error` row.
fn guarded(work: impl FnOnce() -> FileAnalysis) -> FileAnalysis {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        FileAnalysis::failed(GameRow::failed(
            None,
            Status::InternalError,
            format!("panic: {message}"),
        ))
    })
}

/// `analyze_file` without the panic guard, for fuzzing: a panic here is a bug to find.
pub fn analyze_unguarded(bytes: &[u8]) -> FileAnalysis {
    analyze_with(bytes, Options::default(), &[])
}

fn analyze_with(bytes: &[u8], options: Options, answers: &Answers) -> FileAnalysis {
    let decoded = match sgf::decode(bytes) {
        Ok(d) => d,
        Err(e) => return FileAnalysis::failed(GameRow::of_error(None, &e)),
    };
    let encoding = Some((decoded.encoding, decoded.source));
    let games = match sgf::load(&decoded.text) {
        Ok(loaded) => loaded
            .trees
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut g = match &t.tree {
                    Ok(tree) => {
                        analyze_tree(i, tree, options, answers.get(i).and_then(Option::as_ref))
                    }
                    Err(e) => GameRow::of_error(Some(i), e),
                };
                if let Some(note) = &t.note {
                    g.add_note(note);
                }
                g
            })
            .collect(),
        Err(e) => vec![GameRow::of_error(None, &e)],
    };
    FileAnalysis { encoding, games }
}

fn analyze_tree(
    index: usize,
    tree: &Tree,
    options: Options,
    answer: Option<&EngineAnswer>,
) -> GameRow {
    let root = match tree {
        Tree::Go(root) => root,
        Tree::OtherGame(gm) => {
            return GameRow::failed(
                Some(index),
                Status::Unsupported,
                format!("not a Go game ({gm})"),
            )
        }
    };
    let info = GameInfo::from_main_line(root);
    let record = Some(RecordInfo::read(&info));
    let r = match replay(root) {
        Ok(r) => r,
        Err(e) => {
            return GameRow {
                info,
                record,
                ..GameRow::of_error(Some(index), &e)
            }
        }
    };
    let net = Net::build(&r.board);
    let life = analyze_life(&r.board, &net, r.to_move);
    // The engine's view, with each block's ownership; or why there is none.
    let judged = answer.map(|a| {
        a.as_ref()
            .map_err(String::clone)
            .and_then(|v| v.fits(r.board.size()).map(|()| v))
            .map(|v| (v, score::engine::block_ownership(&r.board, &net, v)))
    });
    let view = judged.as_ref().and_then(|j| j.as_ref().ok());
    let (score, status, playouts) = match (&r.illegal, &record) {
        (None, Some(rec)) => {
            let (row, status, playouts) = score_position(&r, &net, &life, rec, options, view);
            (Some(row), status, playouts)
        }
        _ => (None, None, None),
    };
    let blocks = net
        .blocks
        .iter()
        .zip(&life.blocks)
        .map(|(b, v)| BlockRow {
            colour: b.color,
            anchor: r.board.point(b.anchor),
            stones: b.stones.len() as u32,
            liberties: b.liberties,
            own_eyes: b.own() as u32,
            shared_eyes: b.ngem() as u32,
            verdict: v.clone(),
            final_status: status.as_ref().and_then(|s| s[b.anchor]),
            katago_own: None,
            dead_share: playouts.as_ref().map(|e| e.dead_share(b.anchor)),
        })
        .collect::<Vec<_>>();
    let mut blocks = blocks;
    if let Some((_, own)) = view {
        for (b, &o) in blocks.iter_mut().zip(own) {
            b.katago_own = Some(o);
        }
    }
    let anchor = |b: usize| r.board.point(net.blocks[b].anchor);
    let chains = life
        .chains
        .iter()
        .map(|c| ChainRow {
            colour: c.color,
            anchors: c.blocks.iter().map(|&b| anchor(b)).collect(),
            closed: c.closed,
            word: c.word.clone(),
            grammar: c.grammar,
            mp95_all: c.mp95_all,
            mpfix_all: c.mpfix_all,
        })
        .collect();
    let big_eyes = life
        .big_eyes
        .iter()
        .map(|e| BigEyeRow {
            colour: net.blocks[e.block].color,
            block: anchor(e.block),
            size: e.size as u32,
            shape: e.shape.clone(),
            worth: (e.worth.0 as u32, e.worth.1 as u32),
            classified: e.classified,
        })
        .collect();
    let position = PositionStats {
        moves: r.moves,
        passes: r.passes,
        to_move: Some(r.to_move),
        captures: r.captures,
        suicides: r.suicides,
        ko_retakes: r.ko_retakes,
        setup_stones: r.setup_stones,
        stones: [r.board.count(Color::Black), r.board.count(Color::White)],
        net: [net.totals(Color::Black), net.totals(Color::White)],
        life: life.totals,
    };
    let (status, detail) = match &r.illegal {
        Some(illegal) => (illegal.status(), illegal.to_string()),
        None => (Status::Ok, String::new()),
    };
    let mut row = GameRow {
        game: Some(index),
        status,
        detail,
        size: Some(r.board.size()),
        position: Some(position),
        info,
        record,
        blocks,
        chains,
        big_eyes,
        score,
        key: None,
        duplicate: None,
    };
    if r.illegal.is_none() {
        row.key = crate::go::move_list(root).and_then(|l| GameKey::of(r.board.size(), &l));
    }
    if let Some(Err(why)) = &judged {
        row.add_note(&format!("katago: {why}"));
    }
    for (n, what) in [
        (r.suicides, "suicide"),
        (r.ko_retakes, "immediate ko retake"),
    ] {
        if n > 0 {
            row.add_note(&format!("{n} {what}{}", if n > 1 { "s" } else { "" }));
        }
    }
    row
}

/// Scores the final position with the markup's dead stones, KataGo's (`engine`: its view and
/// each block's ownership), the estimate's, and none; with the final status of every stone
/// under the best source that has dead stones, if any.
fn score_position(
    r: &Replay,
    net: &Net,
    life: &Life,
    rec: &RecordInfo,
    options: Options,
    engine: Option<&(&EngineView, Vec<f32>)>,
) -> (
    ScoreRow,
    Option<Vec<Option<score::FinalStatus>>>,
    Option<score::Estimate>,
) {
    let protected = life.benson_alive_points(net, r.board.cell_count());
    let stones = r.board.count(Color::Black) + r.board.count(Color::White);
    let source = |dead: &[Idx], settled: &score::Settled| {
        let margins = settled.margins;
        let margin = margins.under(rec.rules);
        let mut dead: Vec<_> = dead.iter().map(|&i| r.board.point(i)).collect();
        dead.sort_unstable();
        let f = settled.finished.as_ref();
        let c = &settled.count;
        SourceScore {
            unscorable: f.and_then(|f| score::Unscorable::check(f, dead.len() as u32, stones)),
            dead,
            margin,
            margin_other_start: settled.other_start.map_or(margin, |m| m.under(rec.rules)),
            equals_re: margins.equals_re(rec.rules, rec.result.as_ref()),
            margins,
            area: [0, 1].map(|k| c.stones[k] + c.area_territory[k]),
            finished_moves: f.map_or(0, |f| f.moves()),
            unsure: f.map_or_else(score::Unsure::default, |f| f.unsure),
            open: f.map_or(0, |f| f.open),
        }
    };
    // Two passes at the end: the players ended the game, and a server counted what they
    // left; otherwise the record stopped before the end, and the count comes after finishing.
    let ended = r.trailing_passes >= 2;
    // Each source's score, with the final status of every stone under it when `status`
    // asks for it (only the best source's is kept).
    let finished = |dead: Vec<Idx>, status: bool| {
        let settled = score::settle(&r.board, &dead, r.to_move, r.captures, rec, ended);
        let s = status.then(|| match &settled.finished {
            Some(f) => score::final_status(&r.board, &dead, &f.board, &f.dead),
            None => score::final_status(&r.board, &dead, &r.board, &dead),
        });
        (source(&dead, &settled), s)
    };
    let markup = r
        .has_markup
        .then(|| finished(score::markup_dead(&r.board, &r.territory_markup), true));
    let katago = engine.map(|(_, own)| finished(score::engine::dead(net, own), markup.is_none()));
    let counted = r.has_markup || rec.counted();
    let playouts = options
        .estimate
        .selects(counted)
        .then(|| score::estimate(&r.board, r.to_move, &protected));
    let estimate = playouts
        .as_ref()
        .map(|e| finished(e.dead.clone(), markup.is_none() && katago.is_none()));
    // The final status comes from the best source that has dead stones: markup, KataGo,
    // estimate.
    let (markup, markup_status) = markup.unzip();
    let (katago, katago_status) = katago.unzip();
    let (estimate, estimate_status) = estimate.unzip();
    let status = markup_status
        .or(katago_status)
        .or(estimate_status)
        .flatten();
    let proven = [0, 1].map(|c| life.totals[c].benson_stones + life.totals[c].benson_territory);
    // Stones each side put on the board: those standing plus those the other side took.
    let placed = [
        r.board.count(Color::Black) + r.captures[1],
        r.board.count(Color::White) + r.captures[0],
    ];
    let bounds = score::benson_bounds(proven, r.board.size(), rec.komi, rec.rules, rec.handicap);
    let suspicious = rec
        .result
        .as_ref()
        .is_some_and(|res| score::contradicts_benson(bounds, placed, res, rec.rules));
    let best_dead = markup.as_ref().or(katago.as_ref()).or(estimate.as_ref());
    // Whoever starts the finishing: both counts must contradict RE.
    let count_contradicts = best_dead.is_some_and(|s| {
        s.unscorable.is_none()
            && !s.unsure.reading()
            && rec.result.as_ref().is_some_and(|res| {
                [s.margin, s.margin_other_start]
                    .into_iter()
                    .all(|m| m.is_some_and(|m| score::contradicts_count(m, res)))
            })
    });
    let re_no_area_count = best_dead
        .filter(|s| s.unscorable.is_none() && s.open == 0 && !s.unsure.reading())
        .zip(rec.result.as_ref())
        .and_then(|(s, res)| score::no_area_count(s.area, res, rec.komi, rec.rules, rec.handicap));
    let markup_doubt = match (&markup, &estimate) {
        (Some(m), Some(e)) => hopeless_unmarked(r, net, &m.dead, &e.dead),
        _ => Vec::new(),
    };
    let row = ScoreRow {
        has_markup: r.has_markup,
        markup,
        katago,
        katago_lead: engine.map(|(v, _)| score::engine::lead(v, rec.rules, r.captures)),
        katago_score: engine.map(|(v, _)| score::engine::score(v, rec.rules, r.captures)),
        estimate,
        none: source(
            &[],
            &score::Settled::as_is(score::count_as_is(&r.board, net), r.captures, rec),
        ),
        benson_bounds: bounds,
        suspicious,
        count_contradicts,
        re_no_area_count,
        markup_doubt,
    };
    (row, status, playouts)
}

/// The anchors of the blocks the markup keeps that are in atari with their last liberty
/// unmarked (no TB/TW on it) and that the estimate calls dead (`ScoreRow::markup_doubt`).
fn hopeless_unmarked(
    r: &Replay,
    net: &Net,
    markup_dead: &[crate::go::Point],
    estimate_dead: &[crate::go::Point],
) -> Vec<crate::go::Point> {
    let marked = |p: crate::go::Point| r.territory_markup.iter().any(|m| m.contains(&p));
    net.blocks
        .iter()
        .filter(|b| b.liberties == 1)
        .filter_map(|b| {
            let anchor = r.board.point(b.anchor);
            let kept = markup_dead.binary_search(&anchor).is_err();
            let killed = estimate_dead.binary_search(&anchor).is_ok();
            let liberty = b
                .stones
                .iter()
                .flat_map(|&s| r.board.neighbours(s))
                .find(|&n| r.board.cell(n) == crate::go::Cell::Empty)?;
            (kept && killed && !marked(r.board.point(liberty))).then_some(anchor)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_gives_a_record_per_game() {
        let a = analyze_file(b"(;SZ[9];B[ee])(;SZ[19:13])(;GM[3])");
        assert_eq!(a.games.len(), 3);
        let statuses: Vec<_> = a.games.iter().map(|g| g.status).collect();
        assert_eq!(
            statuses,
            [Status::Ok, Status::Unsupported, Status::Unsupported]
        );
        assert_eq!(a.games[0].position.as_ref().unwrap().stones, [1, 0]);
    }

    /// White's stone at ba stands in atari inside Black's corner, its last liberty bb marked
    /// for no one, and the players' markup leaves it on the board: the estimate calls it
    /// dead, and the row says the markup is in doubt there.
    #[test]
    fn hopeless_stones_the_markup_keeps_are_named() {
        let a = analyze_file(b"(;SZ[9]KM[0]RE[B+1]AB[aa][ca][da][db][dc][dd][de][df][dg][dh][di]AW[ba][ea][eb][ec][ed][ee][ef][eg][eh][ei];B[];W[]TB[ab][ac][ad][ae][af][ag][ah][ai][bc][bd][be][bf][bg][bh][bi][cb][cc][cd][ce][cf][cg][ch][ci]TW[fa][fb][fc][fd][fe][ff][fg][fh][fi][ga][gb][gc][gd][ge][gf][gg][gh][gi][ha][hb][hc][hd][he][hf][hg][hh][hi][ia][ib][ic][id][ie][if][ig][ih][ii])");
        let s = a.games[0].score.as_ref().unwrap();
        let ba = crate::go::Point::from_sgf("ba").unwrap();
        assert!(s.markup.as_ref().unwrap().dead.is_empty());
        assert_eq!(s.estimate.as_ref().unwrap().dead, [ba]);
        assert_eq!(s.markup_doubt, [ba]);
    }

    #[test]
    fn a_panic_becomes_an_internal_error_row() {
        let a = guarded(|| panic!("index out of bounds: the len is 3 but the index is 7"));
        assert_eq!(a.games.len(), 1);
        assert_eq!(a.games[0].status, Status::InternalError);
        assert_eq!(
            a.games[0].detail,
            "panic: index out of bounds: the len is 3 but the index is 7"
        );
        let n = 42;
        let a = guarded(|| panic!("formatted {n}"));
        assert_eq!(a.games[0].detail, "panic: formatted 42");
    }

    #[test]
    fn file_level_failures_are_single_rows() {
        // A broken game tree is a game of its own...
        let a = analyze_file(b"(;SZ[9];B[ee];W[");
        assert_eq!(a.games.len(), 1);
        assert_eq!(a.games[0].status, Status::ParseError);
        assert_eq!(a.games[0].game, Some(0));
        // ...a file without one is a row of its own.
        let a = analyze_file(b"no game here (at all)");
        assert_eq!(a.games.len(), 1);
        assert_eq!(a.games[0].status, Status::ParseError);
        assert_eq!(a.games[0].game, None);
        let a = analyze_file(b"\0\x01\x02garbage");
        assert_eq!(a.games[0].status, Status::DecodeError);
    }

    #[test]
    fn illegal_moves_keep_the_position_reached() {
        let a = analyze_file(b"(;SZ[9];B[ee];W[ee])");
        let g = &a.games[0];
        assert_eq!(g.status, Status::IllegalMove);
        assert!(g.detail.starts_with("move 2:"), "{}", g.detail);
        assert_eq!(g.position.as_ref().unwrap().stones, [1, 0]);
    }
}
