//! The pure per-file function: bytes in, records out. No I/O, no printing, no shared state,
//! so it runs on any thread and the output never depends on scheduling.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::go::{replay_until, Color, GameKey, Idx, KeyLine, Point, Replay};
use crate::life::{analyze_life, Life, Net};
use crate::row::{
    BigEyeRow, BlockRow, ChainRow, Failure, FileAnalysis, GameRow, PositionStats, ScoreRow,
    SourceScore, Status,
};
use crate::score::judgement::{EngineAnswer, EngineQuery, EngineView, NoAnswer};
use crate::score::rules::RecordInfo;
use crate::score::{self, DeadSource, DeadStones, Decision, Ending};
use crate::sgf::{self, load::Tree, EncodingSource, GameInfo};

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
    prepare(bytes).analyze(options, &[])
}

/// An engine's answers for a file's game trees, by the tree's index in the file (`None`, or
/// past the end: not asked).
pub type Answers = [Option<EngineAnswer>];

/// `analyze_file` without the panic guards, for fuzzing: a panic here is a bug to find.
pub fn analyze_unguarded(bytes: &[u8]) -> FileAnalysis {
    prepare_unguarded(bytes).analyze_unguarded(Options::default(), &[])
}

/// One game tree of a file, replayed: what its analysis and an engine's question both start
/// from, so that a file is decoded, parsed and replayed once whatever asks.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The tree's index in its file.
    pub index: usize,
    pub info: GameInfo,
    pub record: RecordInfo,
    pub replay: Replay,
    /// The main line as a list (the game key's and an engine's history); `None` past an
    /// illegal move or where the record has no list.
    moves: Option<crate::go::MoveList>,
    /// Of a record that stops at an illegal move, its main line as written, every point on
    /// the board: no history for an engine, but a key that finds the copy the record was
    /// miswritten from (a stone at a wrong point that later moves run into).
    written: Option<crate::go::MoveList>,
}

impl Replayed {
    /// Replays game `index` of a file up to move `stop` (the whole main line for `None`).
    pub fn of(
        index: usize,
        root: &sgf_parse::SgfNode<sgf_parse::go::Prop>,
        stop: Option<u32>,
    ) -> Result<Replayed, Box<(GameInfo, RecordInfo, crate::go::ReplayError)>> {
        let info = GameInfo::from_main_line(root);
        let record = RecordInfo::read(&info);
        match replay_until(root, stop) {
            Ok(mut replay) => {
                // A replay to the end gathered the list; one stopped early did not.
                let moves = match stop {
                    None => replay.list.take(),
                    Some(_) => replay
                        .illegal
                        .is_none()
                        .then(|| crate::go::move_list(root))
                        .flatten(),
                };
                debug_assert!(
                    replay.illegal.is_some()
                        || stop.is_some()
                        || moves == crate::go::move_list(root),
                    "the replay's move list is move_list's"
                );
                let size = replay.board.size();
                let on_board = |p: &crate::go::Point| p.x < size && p.y < size;
                let written = (replay.illegal.is_some() && stop.is_none())
                    .then(|| crate::go::move_list(root))
                    .flatten()
                    .filter(|l| {
                        l.setup.iter().all(|(_, p)| on_board(p))
                            && l.moves.iter().all(|(_, p)| p.as_ref().is_none_or(on_board))
                    });
                Ok(Replayed {
                    index,
                    info,
                    record,
                    replay,
                    moves,
                    written,
                })
            }
            Err(e) => Err(Box::new((info, record, e))),
        }
    }

    /// The main line as a list (`move_list`): the whole record, also when the replay
    /// stopped early; `None` past an illegal move or where the record has no list.
    pub fn move_list(&self) -> Option<&crate::go::MoveList> {
        self.moves.as_ref()
    }

    /// Whether the final position is selected for the estimate and an engine: the record
    /// was counted or carries markup, or `options` asks for every game.
    pub fn selected(&self, options: Options) -> bool {
        let r = &self.replay;
        r.illegal.is_none()
            && !r.stopped
            && options
                .estimate
                .selects(r.has_markup || self.record.counted())
    }

    /// The question for an engine about the position reached.
    pub fn query(&self) -> Result<EngineQuery, NoAnswer> {
        let r = &self.replay;
        EngineQuery::of(&r.board, r.to_move, &self.record, self.moves.clone())
    }

    /// The whole record's key (games.csv `game_key`): of the moves replayed, or of a record
    /// that stops at an illegal move, of its moves as written.
    pub fn key(&self) -> Option<GameKey> {
        let list = self.moves.as_ref().or(self.written.as_ref())?;
        GameKey::of(self.replay.board.size(), list)
    }

    /// The key and the stones it reads (games.csv `key_moves`).
    pub fn key_line(&self) -> Option<(GameKey, KeyLine)> {
        let list = self.moves.as_ref().or(self.written.as_ref())?;
        GameKey::with_line(self.replay.board.size(), list)
    }
}

/// A file decoded, parsed and every game tree replayed, before any analysis.
pub struct Prepared {
    encoding: Option<(&'static str, EncodingSource)>,
    /// Each game tree (or a single file-level failure), with the note on text around it.
    games: Vec<(Result<Replayed, GameRow>, Option<String>)>,
}

/// Decodes, parses and replays every game tree of one file's bytes. A panic becomes an
/// `internal_error` row.
pub fn prepare(bytes: &[u8]) -> Prepared {
    guarded(|| prepare_unguarded(bytes), Prepared::failed)
}

fn prepare_unguarded(bytes: &[u8]) -> Prepared {
    let decoded = match sgf::decode(bytes) {
        Ok(d) => d,
        Err(e) => return Prepared::failed(GameRow::of_error(None, &e)),
    };
    let encoding = Some((decoded.encoding, decoded.source));
    let games = match sgf::load(&decoded.text) {
        Ok(loaded) => loaded
            .trees
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let game = match &t.tree {
                    Ok(Tree::Go(root)) => Replayed::of(i, root, None).map_err(|failed| {
                        let (info, record, e) = *failed;
                        GameRow {
                            info,
                            record: Some(record),
                            ..GameRow::of_error(Some(i), &e)
                        }
                    }),
                    Ok(Tree::OtherGame(gm)) => Err(GameRow::failed(
                        Some(i),
                        Status::Unsupported,
                        format!("not a Go game ({gm})"),
                    )),
                    Err(e) => Err(GameRow::of_error(Some(i), e)),
                };
                (game, t.note.clone())
            })
            .collect(),
        Err(e) => vec![(Err(GameRow::of_error(None, &e)), None)],
    };
    Prepared { encoding, games }
}

impl Prepared {
    /// A file that yielded no game (unreadable, say), as one row.
    pub fn failed(row: GameRow) -> Prepared {
        Prepared {
            encoding: None,
            games: vec![(Err(row), None)],
        }
    }

    /// The question for an engine of each game tree whose final position `options` selects,
    /// by tree index; `Err` says why a selected one cannot be asked.
    pub fn queries(&self, options: Options) -> Vec<Option<Result<EngineQuery, NoAnswer>>> {
        self.games
            .iter()
            .map(|(g, _)| {
                let g = g.as_ref().ok()?;
                g.selected(options).then(|| g.query())
            })
            .collect()
    }

    /// Analyses every game with an engine's answers to `queries`. A panic becomes an
    /// `internal_error` row.
    pub fn analyze(self, options: Options, answers: &Answers) -> FileAnalysis {
        guarded(
            || self.analyze_unguarded(options, answers),
            FileAnalysis::failed,
        )
    }

    fn analyze_unguarded(self, options: Options, answers: &Answers) -> FileAnalysis {
        let games = self
            .games
            .into_iter()
            .map(|(game, note)| {
                let mut row = match game {
                    Ok(mut g) => {
                        let answer = answers.get(g.index).and_then(Option::as_ref);
                        // Moved into the row, not copied: `examine` does not read it.
                        let info = std::mem::take(&mut g.info);
                        examine(&g, options, answer.map(Judged::Answer)).row_with(info)
                    }
                    Err(row) => row,
                };
                if let Some(note) = &note {
                    row.add_note(note);
                }
                row
            })
            .collect();
        FileAnalysis {
            encoding: self.encoding,
            games,
        }
    }
}

/// Runs per-file work, turning a panic into what `failed` makes of an `internal_error` row.
fn guarded<T>(work: impl FnOnce() -> T, failed: impl FnOnce(GameRow) -> T) -> T {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        failed(GameRow::failed(
            None,
            Status::InternalError,
            format!("panic: {message}"),
        ))
    })
}

/// What an engine made of a final position: its answer, or (read back from a table) the
/// stones it called dead.
#[derive(Clone, Copy, Debug)]
pub enum Judged<'a> {
    Answer(&'a EngineAnswer),
    Dead(&'a [Point]),
}

/// A replayed game analysed: the net and life verdicts of its position, an engine's view,
/// the estimate, and how the final position is counted. `row` writes it as tables do;
/// `look::Look` draws it.
pub struct Examined<'a> {
    pub game: &'a Replayed,
    pub net: Net,
    pub life: Life,
    /// The engine's view with each block's ownership, or why there is none; `None` where
    /// no engine was asked.
    pub engine: Option<Result<(&'a EngineView, Vec<f32>), NoAnswer>>,
    /// The estimate's playouts, where `options` selects the position.
    pub playouts: Option<score::Estimate>,
    /// The count of the final position; `None` before the end of the record or past an
    /// illegal move.
    pub decision: Option<Decision>,
}

/// Analyses a replayed game: life, the engine's judgement (`judged`), the estimate where
/// `options` selects the position, and the count (`score::decide`).
pub fn examine<'a>(
    game: &'a Replayed,
    options: Options,
    judged: Option<Judged<'a>>,
) -> Examined<'a> {
    let r = &game.replay;
    let net = Net::build(&r.board);
    let life = analyze_life(&r.board, &net, r.to_move);
    let engine = match judged {
        Some(Judged::Answer(a)) => Some(
            a.as_ref()
                .map_err(NoAnswer::clone)
                .and_then(|v| v.fits(r.board.size()).map(|()| v))
                .map(|v| (v, score::judgement::block_ownership(&r.board, &net, v))),
        ),
        _ => None,
    };
    let at_end = r.illegal.is_none() && !r.stopped;
    let engine_dead = match judged {
        Some(Judged::Answer(_)) => match &engine {
            Some(Ok((_, own))) => Some(score::judgement::dead(&net, own)),
            _ => None,
        },
        Some(Judged::Dead(points)) => {
            let mut d: Vec<Idx> = points.iter().filter_map(|&p| r.board.idx(p)).collect();
            d.sort_unstable();
            Some(d)
        }
        None => None,
    }
    .filter(|_| at_end);
    let counted = r.has_markup || game.record.counted();
    let playouts = (r.illegal.is_none() && options.estimate.selects(counted)).then(|| {
        let protected = life.benson_alive_points(&net, r.board.cell_count());
        score::estimate(&r.board, r.to_move, &protected)
    });
    let decision = at_end.then(|| {
        let end = Ending {
            board: &r.board,
            to_move: r.to_move,
            captures: r.captures,
            trailing_passes: r.trailing_passes,
            record: &game.record,
        };
        let dead = DeadStones {
            markup: r
                .has_markup
                .then(|| score::markup_dead(&r.board, &r.territory_markup)),
            katago: engine_dead,
            estimate: playouts.as_ref().map(|e| e.dead.clone()),
        };
        score::decide(end, &net, dead)
    });
    Examined {
        game,
        net,
        life,
        engine,
        playouts,
        decision,
    }
}

impl Examined<'_> {
    /// The game's rows, as the tables write them.
    pub fn row(&self) -> GameRow {
        self.row_with(self.game.info.clone())
    }

    /// `row`, with the game's `info` given.
    fn row_with(&self, info: GameInfo) -> GameRow {
        let (g, r, net, life) = (self.game, &self.game.replay, &self.net, &self.life);
        let view = self.engine.as_ref().and_then(|e| e.as_ref().ok());
        let status = self
            .decision
            .as_ref()
            .and_then(|d| d.final_status(&r.board));
        let blocks = net
            .blocks
            .iter()
            .zip(&life.blocks)
            .enumerate()
            .map(|(k, (b, v))| BlockRow {
                colour: b.color,
                anchor: r.board.point(b.anchor),
                stones: b.stones.len() as u32,
                liberties: b.liberties,
                own_eyes: b.own() as u32,
                shared_eyes: b.ngem() as u32,
                verdict: v.clone(),
                final_status: status.as_ref().and_then(|s| s[b.anchor]),
                katago_own: view.map(|(_, own)| own[k]),
                dead_share: self.playouts.as_ref().map(|e| e.dead_share(b.anchor)),
            })
            .collect();
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
            life: life.totals.clone(),
        };
        let (status, detail) = match &r.illegal {
            Some(illegal) => (illegal.status(), illegal.to_string()),
            None => (Status::Ok, String::new()),
        };
        let (key, line) = g.key_line().unzip();
        let mut row = GameRow {
            game: Some(g.index),
            status,
            detail,
            size: Some(r.board.size()),
            position: Some(position),
            info,
            record: Some(g.record),
            blocks,
            chains,
            big_eyes,
            score: self.decision.as_ref().map(|d| self.score_row(d)),
            key,
            line,
            duplicate: None,
        };
        if let Some(Err(why)) = &self.engine {
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

    /// The final position's scores under each source of dead stones the decision counted.
    fn score_row(&self, decision: &Decision) -> ScoreRow {
        let (r, rec, net, life) = (&self.game.replay, &self.game.record, &self.net, &self.life);
        let stones = r.board.count(Color::Black) + r.board.count(Color::White);
        let source = |s: DeadSource| {
            let c = decision.count(s)?;
            let settled = &c.settled;
            let margins = settled.margins;
            let margin = margins.under(rec.rules);
            let mut dead: Vec<_> = c.dead.iter().map(|&i| r.board.point(i)).collect();
            dead.sort_unstable();
            let f = settled.finished.as_ref();
            let count = &settled.count;
            Some(SourceScore {
                unscorable: f.and_then(|f| score::Unscorable::check(f, dead.len() as u32, stones)),
                dead,
                margin,
                margin_other_start: settled.other_start.map_or(margin, |m| m.under(rec.rules)),
                equals_re: margins.equals_re(rec.rules, rec.result.as_ref()),
                margins,
                area: [0, 1].map(|k| count.stones[k] + count.area_territory[k]),
                finished_moves: f.map_or(0, |f| f.moves()),
                unsure: f.map_or_else(score::Unsure::default, |f| f.unsure),
                open: f.map_or(0, |f| f.open),
            })
        };
        let markup = source(DeadSource::Markup);
        let katago = source(DeadSource::Katago);
        let estimate = source(DeadSource::Estimate);
        let none = source(DeadSource::None).expect("always counted");
        let proven = [0, 1].map(|c| life.totals[c].benson_stones + life.totals[c].benson_territory);
        // Stones each side put on the board: those standing plus those the other side took.
        let placed = [
            r.board.count(Color::Black) + r.captures[1],
            r.board.count(Color::White) + r.captures[0],
        ];
        let bounds =
            score::benson_bounds(proven, r.board.size(), rec.komi, rec.rules, rec.handicap);
        let suspicious = rec
            .result
            .as_ref()
            .is_some_and(|res| score::contradicts_benson(bounds, placed, res, rec.rules));
        let best = decision.best().and_then(|(s, _)| match s {
            DeadSource::Markup => markup.as_ref(),
            DeadSource::Katago => katago.as_ref(),
            DeadSource::Estimate => estimate.as_ref(),
            DeadSource::None => None,
        });
        // Whoever starts the finishing: both counts must contradict RE.
        let count_contradicts = best.is_some_and(|s| {
            s.unscorable.is_none()
                && !s.unsure.reading()
                && rec.result.as_ref().is_some_and(|res| {
                    [s.margin, s.margin_other_start]
                        .into_iter()
                        .all(|m| m.is_some_and(|m| score::contradicts_count(m, res)))
                })
        });
        let re_no_area_count = best
            .filter(|s| s.unscorable.is_none() && s.open == 0 && !s.unsure.reading())
            .zip(rec.result.as_ref())
            .and_then(|(s, res)| {
                score::no_area_count(s.area, res, rec.komi, rec.rules, rec.handicap)
            });
        let markup_doubt = match (&markup, &estimate) {
            (Some(m), Some(e)) => hopeless_unmarked(r, net, &m.dead, &e.dead),
            _ => Vec::new(),
        };
        let view = self.engine.as_ref().and_then(|e| e.as_ref().ok());
        let katago_score = view.map(|(v, _)| score::judgement::score(v, rec.rules, r.captures));
        let scored = decision.scored().0;
        let count = best.and_then(|s| s.margin);
        ScoreRow {
            has_markup: r.has_markup,
            best: scored,
            margin_source: score::pick(scored, count, katago_score),
            markup,
            katago,
            katago_lead: view.map(|(v, _)| score::judgement::lead(v, rec.rules, r.captures)),
            katago_score,
            estimate,
            none,
            benson_bounds: bounds,
            suspicious,
            count_contradicts,
            re_no_area_count,
            markup_doubt,
        }
    }
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
        let a = guarded(
            || panic!("index out of bounds: the len is 3 but the index is 7"),
            FileAnalysis::failed,
        );
        assert_eq!(a.games.len(), 1);
        assert_eq!(a.games[0].status, Status::InternalError);
        assert_eq!(
            a.games[0].detail,
            "panic: index out of bounds: the len is 3 but the index is 7"
        );
        let n = 42;
        let a = guarded(|| panic!("formatted {n}"), FileAnalysis::failed);
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

    /// Issue 49 item 7: one node holding a million `C[x]` (4 MB) took minutes and hundreds
    /// of MB, a note per repeat; it is one game whose detail lists the first few.
    #[test]
    fn a_million_repeated_comments_in_one_node() {
        let bytes = format!("(;GM[1]SZ[9]{};B[ee])", "C[x]".repeat(1_000_000));
        let a = analyze_file(bytes.as_bytes());
        assert_eq!(a.games.len(), 1);
        let g = &a.games[0];
        assert_eq!(g.status, Status::Ok);
        assert_eq!(g.position.as_ref().unwrap().stones, [1, 0]);
        let notes: Vec<&str> = g.detail.split("; ").collect();
        assert_eq!(notes.len(), sgf::tidy::NOTES_MAX + 1, "{}", g.detail);
        assert_eq!(notes[0], "C repeated in node 0 (line 1, column 17)");
        assert_eq!(
            notes[sgf::tidy::NOTES_MAX],
            format!(
                "{} more slips put right, not listed",
                999_999 - sgf::tidy::NOTES_MAX
            )
        );
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
