//! One position looked at closely: what `livingblocks show` and the report's board diagrams
//! draw. The same analysis as a run's (the life verdicts per block, Benson's unconditional
//! territory, the markup's and the estimate's dead stones), kept per stone instead of summed
//! into rows. Pure, like `analyze`: bytes in, a position out.

use crate::analyze::{examine, EstimateFor, Examined, Judged, Options, Replayed};
use crate::go::{Board, Cell, Color, GameKey, Idx, MoveList, Point};
use crate::life::{benson, mp95_traced, BlockVerdict, ColourNet, Life, Mp95Event, Net, Regions};
use crate::score;
use crate::score::RecordInfo;
use crate::sgf::{self, load::Tree, GameInfo};

/// A position with everything a diagram marks.
#[derive(Clone, Debug)]
pub struct Look {
    pub board: Board,
    /// Moves played to reach it (passes included).
    pub moves: u32,
    /// Whether this is the end of the main line.
    pub at_end: bool,
    pub last_stone: Option<(Color, Point)>,
    pub to_move: Color,
    pub info: GameInfo,
    /// The komi, rules and handicap the position is counted under, inferred where the
    /// record does not give them.
    pub record: RecordInfo,
    /// The record's setup and moves up to this position (passes included), as
    /// `move_list` gives them; `None` where it gives none (setup past the root, erasures).
    pub line: Option<MoveList>,
    /// Stones taken by Black and by White up to this position.
    pub captures: [u32; 2],
    /// Every block, in the net's order (point order of the anchors).
    pub blocks: Vec<LookBlock>,
    /// Benson's unconditional territory of Black and of White.
    pub territory: [Vec<Point>; 2],
    /// The shared eyes mp95 ends with as vital (an eye that counts for each block at it),
    /// both colours, in point order.
    pub vital_eyes: Vec<Point>,
    /// Stones the record's TB/TW markup calls dead, when it has markup here.
    pub dead_markup: Option<Vec<Point>>,
    /// Stones the estimate calls dead (it assumes the game is over).
    pub dead_estimate: Vec<Point>,
    /// How the game was finished before counting, from the best dead stones (markup, else
    /// KataGo, else estimate), as a run finishes it; `None` for a record that ends with two
    /// passes, and a position before the end.
    pub finishing: Option<Finishing>,
    /// The count of the end of the record with the best dead stones, after the finishing
    /// where there is one; `None` before the end.
    pub count: Option<CountMarks>,
    /// The whole record's key (games.csv `game_key`), to tell it is the record a run read.
    pub key: Option<GameKey>,
}

/// A count as a Go editor marks it.
#[derive(Clone, Debug)]
pub struct CountMarks {
    /// Whose dead stones: the markup's, else KataGo's where it was asked, else the
    /// estimate's.
    pub source: score::DeadSource,
    /// Each side's territory on the counted board, the points of the dead stones it takes
    /// included, in point order.
    pub territory: [Vec<Point>; 2],
    /// What a Go editor's TB/TW mark for it to count this count (`Decision::marks`): the
    /// territory less teire under territory counting, every dead stone still standing.
    pub marks: [Vec<Point>; 2],
    /// The dead stones still standing on the counted board, in point order.
    pub dead: Vec<Point>,
    /// Every stone the source calls dead, on the board looked at (before any finishing).
    pub called: Vec<Point>,
    /// Each side's points, the terms of the margin; `None` when the rules are unknown.
    pub sides: Option<score::Sides>,
    /// Black − White − komi under `rules`; `None` when they are unknown.
    pub margin: Option<f32>,
    /// The rules counted under, as games.csv names them.
    pub rules: &'static str,
}

/// The moves `score::finish` played, and the margin counted after them.
#[derive(Clone, Debug)]
pub struct Finishing {
    /// The finishing's stones, in order, and why each was played.
    pub moves: Vec<(Color, Point, score::Why)>,
    pub unsure: score::Unsure,
    /// Where it became unsure (`score::Finished::unsure_at`), each point with the colour of
    /// the stone standing there at the end of the record, if any.
    pub unsure_at: Vec<(Option<Color>, Point)>,
    /// Black − White − komi under the rules the record gives or implies; `None` when they
    /// are unknown.
    pub margin: Option<f32>,
    /// The same when the other side (not `Look::to_move`) starts the finishing.
    pub margin_other_start: Option<f32>,
    /// The record's stones the finishing moves capture, in point order: the position
    /// counted lacks them, so a diagram must not show them alive.
    pub captured: Vec<Point>,
    /// The finishing's own stones a later finishing move captures, by their number (place
    /// in `moves`, from 1), in order: drawn apart from those that stand at the count.
    pub moves_captured: Vec<usize>,
}

/// One block and the methods' verdicts on it.
#[derive(Clone, Debug)]
pub struct LookBlock {
    pub colour: Color,
    pub anchor: Point,
    pub stones: Vec<Point>,
    pub liberties: u32,
    pub verdict: BlockVerdict,
    /// The points of its own eyes, and of the eyes it shares with other blocks.
    pub own_eyes: Vec<Point>,
    pub shared_eyes: Vec<Point>,
}

/// Why a position cannot be looked at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookError {
    #[error("cannot read the record: {0}")]
    Read(String),
    #[error("no game {asked}: the file holds {games} (numbered from 0)")]
    NoGame { asked: usize, games: usize },
    #[error("game {0} is not a Go game")]
    NotGo(usize),
    #[error("game {game}: {why}")]
    Replay { game: usize, why: String },
}

impl Look {
    /// The stones of every block `keep` selects, in point order.
    pub fn stones_where(&self, keep: impl Fn(&LookBlock) -> bool) -> Vec<Point> {
        let mut v: Vec<Point> = self
            .blocks
            .iter()
            .filter(|b| keep(b))
            .flat_map(|b| b.stones.iter().copied())
            .collect();
        v.sort_unstable();
        v
    }

    /// The block a stone belongs to.
    pub fn block_at(&self, p: Point) -> Option<&LookBlock> {
        self.blocks.iter().find(|b| b.stones.contains(&p))
    }
}

/// Looks at game `game` of an SGF file's bytes after `stop` moves (the final position for
/// `None`, or when the game is shorter).
pub fn look(bytes: &[u8], game: usize, stop: Option<u32>) -> Result<Look, LookError> {
    look_judged(bytes, game, stop, None)
}

/// `look`, with the stones KataGo called dead in the final position (`engine`), as a table
/// of a run with an engine has them: the count takes them where the record has no markup,
/// as the run's did.
pub fn look_judged(
    bytes: &[u8],
    game: usize,
    stop: Option<u32>,
    engine: Option<&[Point]>,
) -> Result<Look, LookError> {
    let g = open(bytes, game, stop)?;
    let examined = examine(&g, EVERY_GAME, engine.map(Judged::Dead));
    Ok(Look::of(&examined))
}

/// What a look analyses: every final position gets the estimate, counted or not, since the
/// user asked for this one.
pub const EVERY_GAME: Options = Options {
    estimate: EstimateFor::All,
};

/// Game `game` of an SGF file's bytes replayed up to move `stop`, the other game trees only
/// parsed; an illegal move is an error, as there is no position to draw past it.
pub fn open(bytes: &[u8], game: usize, stop: Option<u32>) -> Result<Replayed, LookError> {
    let decoded = sgf::decode(bytes).map_err(|e| LookError::Read(e.to_string()))?;
    let loaded = sgf::load(&decoded.text).map_err(|e| LookError::Read(e.to_string()))?;
    let games = loaded.trees.len();
    let tree = loaded
        .trees
        .get(game)
        .ok_or(LookError::NoGame { asked: game, games })?;
    let root = match &tree.tree {
        Ok(Tree::Go(root)) => root,
        Ok(Tree::OtherGame(_)) => return Err(LookError::NotGo(game)),
        Err(e) => return Err(LookError::Read(e.to_string())),
    };
    let g = Replayed::of(game, root, stop).map_err(|failed| LookError::Replay {
        game,
        why: failed.2.to_string(),
    })?;
    if let Some(illegal) = &g.replay.illegal {
        return Err(LookError::Replay {
            game,
            why: illegal.to_string(),
        });
    }
    Ok(g)
}

impl Look {
    /// The look of an analysed game: its verdicts, dead stones, and the count the decision
    /// made (`Examined::decision`), the same as the game's row.
    pub fn of(ex: &Examined) -> Look {
        let r = &ex.game.replay;
        let board = &r.board;
        let mut l = Look::of_position(board.clone(), &ex.net, &ex.life);
        l.dead_estimate = ex
            .playouts
            .as_ref()
            .map_or_else(Vec::new, |e| points(board, &e.dead));
        l.dead_markup = r
            .has_markup
            .then(|| points(board, &score::markup_dead(board, &r.territory_markup)));
        let rules = ex.game.record.rules;
        if let Some(d) = &ex.decision {
            let (source, c) = d.scored();
            let margin = c.settled.margins.under(rules);
            let standing = c.settled.finished.as_ref().map_or(&c.dead, |f| &f.dead);
            let sides = c.sides(r.captures, &ex.game.record);
            debug_assert_eq!(sides.map(|s| s.margin()), margin, "the sides add up");
            l.count = Some(CountMarks {
                source,
                territory: d.territory(board).map(|t| points(board, &t)),
                marks: d.marks(board, rules.scoring).map(|t| points(board, &t)),
                dead: points(board, standing),
                called: points(board, &c.dead),
                sides,
                margin,
                rules: rules.as_str(),
            });
            l.finishing = c.settled.finished.as_ref().map(|f| {
                let (record_taken, moves_captured) =
                    captured_by(board, f.played.iter().map(|&(c, i, _)| (c, i)));
                Finishing {
                    moves: f
                        .played
                        .iter()
                        .map(|&(c, i, why)| (c, board.point(i), why))
                        .collect(),
                    captured: points(board, &record_taken),
                    moves_captured,
                    unsure: f.unsure,
                    unsure_at: f
                        .unsure_at
                        .iter()
                        .map(|&i| match board.cell(i) {
                            Cell::Stone(c) => (Some(c), board.point(i)),
                            _ => (None, board.point(i)),
                        })
                        .collect(),
                    margin,
                    margin_other_start: c.settled.other_start.and_then(|m| m.under(rules)),
                }
            });
        }
        l.key = ex.game.key();
        l.at_end = !r.stopped;
        l.moves = r.moves;
        l.last_stone = r.last_stone;
        l.to_move = r.to_move;
        l.info = ex.game.info.clone();
        l.record = ex.game.record;
        l.captures = r.captures;
        l.line = ex.game.move_list().map(|list| MoveList {
            setup: list.setup.clone(),
            moves: list.moves.iter().take(r.moves as usize).copied().collect(),
        });
        l
    }
}

impl Look {
    /// A position without a game around it (no moves, no dead stones yet): the verdicts of
    /// `life` on `board` and Benson's territory.
    pub fn of_position(board: Board, net: &Net, life: &Life) -> Look {
        let territory = [Color::Black, Color::White].map(|c| {
            let regions = Regions::find(net, c);
            let alive = benson(net, &regions).alive;
            let filled = fill_regions(&board, c);
            debug_assert_eq!(filled.len(), regions.regions.len());
            let ids: Vec<_> = regions
                .regions
                .iter()
                .zip(&filled)
                .filter(|(reg, _)| reg.unconditional(&alive))
                .flat_map(|(_, pts)| pts.iter().copied())
                .collect();
            points(&board, &ids)
        });
        let blocks = net
            .blocks
            .iter()
            .zip(&life.blocks)
            .map(|(b, v)| LookBlock {
                colour: b.color,
                anchor: board.point(b.anchor),
                stones: points(&board, &b.stones),
                liberties: b.liberties,
                verdict: v.clone(),
                own_eyes: points(&board, &b.own_eyes),
                shared_eyes: {
                    let ids: Vec<Idx> =
                        b.shared.iter().map(|&e| net.shared_eyes[e].point).collect();
                    points(&board, &ids)
                },
            })
            .collect();
        let mut vital = Vec::new();
        for c in [Color::Black, Color::White] {
            let eyes: Vec<Idx> = net
                .shared_eyes_of(c)
                .map(|e| net.shared_eyes[e].point)
                .collect();
            let mut state = vec![false; eyes.len()];
            for event in mp95_traced(&ColourNet::of(net, c).0).events {
                match event {
                    Mp95Event::VitalInVorlauf(e) | Mp95Event::Vital(e) => state[e] = true,
                    Mp95Event::NonVital(e) => state[e] = false,
                }
            }
            vital.extend(eyes.iter().zip(&state).filter(|(_, &v)| v).map(|(&i, _)| i));
        }
        let vital_eyes = points(&board, &vital);
        Look {
            board,
            moves: 0,
            at_end: true,
            last_stone: None,
            to_move: Color::Black,
            info: GameInfo::default(),
            record: RecordInfo::read(&GameInfo::default()),
            line: None,
            captures: [0, 0],
            blocks,
            territory,
            vital_eyes,
            dead_markup: None,
            dead_estimate: Vec::new(),
            finishing: None,
            count: None,
            key: None,
        }
    }
}

/// The stones `moves` take off `board` when played on it: the record's, by index in
/// index order, and the moves' own, by number (from 1) in order.
fn captured_by(board: &Board, moves: impl Iterator<Item = (Color, Idx)>) -> (Vec<Idx>, Vec<usize>) {
    let mut b = board.clone();
    // The number of the move whose stone stands on each point, 0 for the record's.
    let mut by = vec![0usize; b.cells().len()];
    let (mut record, mut own) = (Vec::new(), Vec::new());
    for (k, (c, i)) in moves.enumerate() {
        let before = b.cells().to_vec();
        if b.play(c, b.point(i)).is_err() {
            // The finishing played these on a copy of this board, so none fails; were one
            // to, what it and the moves after it capture is unknown.
            break;
        }
        for j in b
            .points()
            .filter(|&j| matches!(before[j], Cell::Stone(_)) && b.cell(j) == Cell::Empty)
        {
            match by[j] {
                0 => record.push(j),
                n => own.push(n),
            }
        }
        by[i] = k + 1;
    }
    record.sort_unstable();
    record.dedup();
    own.sort_unstable();
    (record, own)
}

/// Board indices as points, in point order.
fn points(board: &Board, ids: &[Idx]) -> Vec<Point> {
    let mut v: Vec<Point> = ids.iter().map(|&i| board.point(i)).collect();
    v.sort_unstable();
    v
}

/// The regions of colour `c` (connected sets of points without a c stone) with their
/// points, found in the order `Regions::find` finds them: by their first point.
fn fill_regions(board: &Board, c: Color) -> Vec<Vec<Idx>> {
    let mut seen = vec![false; board.cell_count()];
    let mut all = Vec::new();
    let open = |i: Idx| match board.cell(i) {
        Cell::Empty => true,
        Cell::Stone(s) => s != c,
        _ => false,
    };
    for start in board.points() {
        if seen[start] || !open(start) {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut k = 0;
        while k < region.len() {
            for n in board.neighbours(region[k]) {
                if !seen[n] && open(n) {
                    seen[n] = true;
                    region.push(n);
                }
            }
            k += 1;
        }
        all.push(region);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_names_the_verdicts_and_the_territory() {
        // One Black block with two eyes in the corner (aa, ca); then White ff, Black gg.
        let sgf = b"(;SZ[9]KM[0]AB[ba][da][ab][bb][cb][db][eb][ea];W[ff];B[gg])";
        let pt = |s| Point::from_sgf(s).unwrap();
        let l = look(sgf, 0, None).unwrap();
        assert!(l.at_end);
        assert_eq!(l.moves, 2);
        assert_eq!(l.last_stone, Some((Color::Black, pt("gg"))));
        assert_eq!(l.territory[0], [pt("aa"), pt("ca")]);
        assert!(l.territory[1].is_empty());
        let corner = l.block_at(pt("ea")).unwrap();
        assert_eq!(corner.stones.len(), 8);
        assert!(corner.verdict.benson && corner.verdict.mp95 && corner.verdict.mpfix);
        assert!(!l.block_at(pt("ff")).unwrap().verdict.benson);
        assert_eq!(l.stones_where(|b| b.verdict.benson).len(), 8);
        assert!(l.dead_markup.is_none());

        let earlier = look(sgf, 0, Some(1)).unwrap();
        assert!(!earlier.at_end);
        assert_eq!(earlier.board.count(Color::Black), 8);
        assert_eq!(earlier.last_stone, Some((Color::White, pt("ff"))));
        assert_eq!(
            look(sgf, 3, None).unwrap_err(),
            LookError::NoGame { asked: 3, games: 1 }
        );
    }

    /// Issue 51: a diagram drew the stones the finishing captures as living stones. The
    /// record's stones taken are named by point, the finishing's own by their number.
    #[test]
    fn the_finishings_captures_are_the_records_and_its_own() {
        let pt = |s| Point::from_sgf(s).unwrap();
        let mut board = Board::new(9).unwrap();
        for (p, c) in [
            ("aa", Color::White),
            ("ba", Color::Black),
            ("hh", Color::Black),
            ("ig", Color::Black),
        ] {
            board.setup(pt(p), Some(c)).unwrap();
        }
        let at = |s| board.idx(pt(s)).unwrap();
        // Black takes aa; White's 2 at ih is taken by Black's 3 at ii.
        let moves = [
            (Color::Black, at("ab")),
            (Color::White, at("ih")),
            (Color::Black, at("ii")),
        ];
        let (record, own) = captured_by(&board, moves.into_iter());
        assert_eq!(record, [at("aa")]);
        assert_eq!(own, [2]);
    }
}
