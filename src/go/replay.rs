//! Replays a game's main line to its final position.
//!
//! Records are not always legal games: they hold suicides (legal under New Zealand and Ing
//! rules), ko retakes typed in by hand, setup stones in the middle of a game, and passes
//! written as `B[]` or `B[tt]`. The replay applies what can be applied and notes it; a move
//! onto an occupied point or off the board stops it.

use sgf_parse::go::{Move, Prop};
use sgf_parse::SgfNode;

use super::board::{Board, Color, PlayError, Point, MAX_SIZE, MIN_SIZE};

/// The final position of a main line, with what happened on the way.
#[derive(Clone, Debug)]
pub struct Replay {
    pub board: Board,
    /// B and W properties on the main line, passes included (all of them, even past an
    /// illegal move).
    pub moves: u32,
    pub passes: u32,
    /// Passes at the end of the main line, after its last stone: two or more mean the
    /// players ended the game by passing.
    pub trailing_passes: u32,
    /// The player to move after the last move; a PL property overrides.
    pub to_move: Color,
    /// Stones taken by Black and by White; stones lost by suicide count for the opponent.
    pub captures: [u32; 2],
    /// Moves that removed their own block.
    pub suicides: u32,
    /// Moves that retook a simple ko at once.
    pub ko_retakes: u32,
    /// AB/AW stones placed anywhere on the main line.
    pub setup_stones: u32,
    /// Where the replay stopped early, if it did.
    pub illegal: Option<IllegalMove>,
    /// TB and TW points (Black's, White's territory) marked on the nodes after the last stone
    /// played: the counting a server or editor recorded. Markup before a later move is stale.
    pub territory_markup: [Vec<Point>; 2],
    /// Whether TB or TW appeared after the last stone played.
    pub has_markup: bool,
    /// The last stone played, if any (what a diagram rings).
    pub last_stone: Option<(Color, Point)>,
    /// Whether `replay_until` stopped with moves of the main line left.
    pub stopped: bool,
    /// The main line as `move_list` gives it, gathered while replaying (one pass over the
    /// record, not two); `None` where `move_list` gives none, or the replay stopped early.
    pub list: Option<MoveList>,
}

/// A move the replay could not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based number of the move among the main line's B/W properties (0 for setup).
    pub number: u32,
    pub reason: String,
}

/// A game the replay does not handle at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("board {0}x{1} is not square")]
    NotSquare(u8, u8),
    #[error("board size {0} is outside {MIN_SIZE}..={MAX_SIZE}")]
    Size(u8),
    #[error("invalid SZ[{0}]")]
    BadSize(String),
}

/// The board side a root node asks for: `SZ`, else 19.
pub fn board_size(root: &SgfNode<Prop>) -> Result<u8, ReplayError> {
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) if w != h => return Err(ReplayError::NotSquare(*w, *h)),
            Prop::SZ((n, _)) => {
                return if (MIN_SIZE..=MAX_SIZE).contains(n) {
                    Ok(*n)
                } else {
                    Err(ReplayError::Size(*n))
                }
            }
            Prop::Invalid(id, values) if id == "SZ" => {
                return Err(ReplayError::BadSize(values.join(",")))
            }
            _ => {}
        }
    }
    Ok(19)
}

/// The main line as a move list, the way an engine replays a game: the root's setup stones
/// (point order) and every move after them (`None`: a pass). `None` where that is no true
/// account of the game: setup stones or erasures past the root, or an unreadable move.
pub fn move_list(root: &SgfNode<Prop>) -> Option<MoveList> {
    let size = board_size(root).ok()?;
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    for (n, node) in root.main_variation().enumerate() {
        for prop in node.properties() {
            match prop {
                Prop::AB(ps) | Prop::AW(ps) if n == 0 => {
                    let c = if matches!(prop, Prop::AB(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    setup.extend(ps.iter().map(|p| (c, Point::new(p.x, p.y))));
                }
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) => return None,
                Prop::B(mv) | Prop::W(mv) => {
                    let c = if matches!(prop, Prop::B(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    moves.push((
                        c,
                        match *mv {
                            Move::Pass => None,
                            Move::Move(p) if p.x == 19 && p.y == 19 && size <= 19 => None,
                            Move::Move(p) => Some(Point::new(p.x, p.y)),
                        },
                    ));
                }
                Prop::Invalid(id, _) if matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "AE") => {
                    return None
                }
                _ => {}
            }
        }
    }
    setup.sort_unstable_by_key(|&(_, p)| p);
    Some(MoveList { setup, moves })
}

/// A game as its moves: see `move_list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveList {
    pub setup: Vec<(Color, Point)>,
    pub moves: Vec<(Color, Option<Point>)>,
}

/// Moves a list is made room for at first.
const MOVES_EXPECTED: usize = 320;

/// Replays the main line from `root`.
pub fn replay(root: &SgfNode<Prop>) -> Result<Replay, ReplayError> {
    replay_until(root, None)
}

/// Replays the main line up to the node that holds move `stop` (all of it for `None`): the
/// position a user asks to look at.
pub fn replay_until(root: &SgfNode<Prop>, stop: Option<u32>) -> Result<Replay, ReplayError> {
    let size = board_size(root)?;
    let board = Board::new(size).ok_or(ReplayError::Size(size))?;
    let mut r = Replay {
        board,
        moves: 0,
        passes: 0,
        trailing_passes: 0,
        to_move: Color::Black,
        captures: [0; 2],
        suicides: 0,
        ko_retakes: 0,
        setup_stones: 0,
        illegal: None,
        territory_markup: [Vec::new(), Vec::new()],
        has_markup: false,
        last_stone: None,
        stopped: false,
        list: Some(MoveList {
            setup: Vec::new(),
            // A professional game's length, so that most lists never grow.
            moves: Vec::with_capacity(MOVES_EXPECTED),
        }),
    };
    if root
        .properties()
        .any(|p| matches!(p, Prop::HA(n) if *n >= 2))
    {
        r.to_move = Color::White;
    }
    for (n, node) in root.main_variation().enumerate() {
        let plays = || {
            node.properties().any(|p| match p {
                Prop::B(_) | Prop::W(_) => true,
                Prop::Invalid(id, _) => id == "B" || id == "W",
                _ => false,
            })
        };
        if stop.is_some_and(|m| r.moves >= m) && plays() {
            r.stopped = true;
            r.list = None;
            break;
        }

        if r.illegal.is_some() {
            // Past an illegal move, only count the record's moves.
            r.moves += node
                .properties()
                .filter(|p| matches!(p, Prop::B(_) | Prop::W(_)))
                .count() as u32;
        } else if let Err(illegal) = r.apply_node(node, n == 0) {
            r.illegal = Some(illegal);
            r.list = None;
        }
    }
    if let Some(list) = &mut r.list {
        list.setup.sort_unstable_by_key(|&(_, p)| p);
    }
    Ok(r)
}

impl Replay {
    /// Applies one node: setup first, then PL, then moves (FF[4] forbids mixing them, but
    /// records do it, and this order is the one editors show).
    fn apply_node(&mut self, node: &SgfNode<Prop>, root: bool) -> Result<(), IllegalMove> {
        // Most nodes are a move and nothing else: they skip the setup, markup and PL passes.
        if !matches!(node.properties[..], [Prop::B(_) | Prop::W(_)]) {
            self.apply_setup(node, root)?;
        }
        self.apply_moves(node)
    }

    /// Setup stones, territory markup and PL of a node, in that order; `root`: the node is
    /// the root, the one place a move list takes setup from.
    fn apply_setup(&mut self, node: &SgfNode<Prop>, root: bool) -> Result<(), IllegalMove> {
        for prop in node.properties() {
            let (points, colour) = match prop {
                Prop::AB(ps) => (ps, Some(Color::Black)),
                Prop::AW(ps) => (ps, Some(Color::White)),
                Prop::AE(ps) => (ps, None),
                Prop::Invalid(id, values) if matches!(id.as_str(), "AB" | "AW" | "AE") => {
                    return Err(IllegalMove {
                        number: self.moves,
                        reason: format!("invalid setup {id}[{}]", values.join("][")),
                    })
                }
                _ => continue,
            };
            // sgf-parse keeps the points in a HashSet, whose order changes from run to run.
            // Setup never captures, so order does not matter to the position, but it decides
            // which bad point an error names: taken in point order, it is the same every run.
            let mut points: Vec<Point> = points.iter().map(|p| Point::new(p.x, p.y)).collect();
            points.sort_unstable();
            match (colour, &mut self.list) {
                (Some(c), Some(list)) if root => list.setup.extend(points.iter().map(|&p| (c, p))),
                _ => self.list = None,
            }
            for p in points {
                self.board.setup(p, colour).map_err(|e| IllegalMove {
                    number: self.moves,
                    reason: format!("setup: {e}"),
                })?;
                if colour.is_some() {
                    self.setup_stones += 1;
                }
            }
        }
        for prop in node.properties() {
            let (slot, points) = match prop {
                Prop::TB(ps) => (0, ps),
                Prop::TW(ps) => (1, ps),
                _ => continue,
            };
            self.has_markup = true;
            let marks = &mut self.territory_markup[slot];
            marks.extend(points.iter().map(|p| Point::new(p.x, p.y)));
            marks.sort_unstable();
            marks.dedup();
        }
        for prop in node.properties() {
            if let Prop::PL(c) = prop {
                self.to_move = match c {
                    sgf_parse::Color::Black => Color::Black,
                    sgf_parse::Color::White => Color::White,
                };
            }
        }
        Ok(())
    }

    /// The moves of a node.
    fn apply_moves(&mut self, node: &SgfNode<Prop>) -> Result<(), IllegalMove> {
        for prop in node.properties() {
            let (colour, mv) = match prop {
                Prop::B(mv) => (Color::Black, Some(*mv)),
                Prop::W(mv) => (Color::White, Some(*mv)),
                Prop::Invalid(id, _) if id == "B" => (Color::Black, None),
                Prop::Invalid(id, _) if id == "W" => (Color::White, None),
                _ => continue,
            };
            self.moves += 1;
            let number = self.moves;
            if let (Some(list), Some(mv)) = (&mut self.list, mv) {
                list.moves.push((
                    colour,
                    match mv {
                        Move::Pass => None,
                        Move::Move(p) if p.x == 19 && p.y == 19 && self.board.size() <= 19 => None,
                        Move::Move(p) => Some(Point::new(p.x, p.y)),
                    },
                ));
            }
            let illegal = |reason: String| IllegalMove { number, reason };
            match mv {
                None => {
                    return Err(illegal(format!(
                        "move {number}: {} has an invalid value",
                        colour.letter()
                    )))
                }
                Some(Move::Pass) => self.pass(colour),
                Some(Move::Move(p)) if p.x == 19 && p.y == 19 && self.board.size() <= 19 => {
                    self.pass(colour)
                }
                Some(Move::Move(p)) => {
                    let p = Point::new(p.x, p.y);
                    let out = self.board.play(colour, p).map_err(|e| {
                        illegal(match e {
                            PlayError::OffBoard(_) | PlayError::Occupied(_) => {
                                format!("move {number}: {} {e}", colour.letter())
                            }
                        })
                    })?;
                    if self.has_markup {
                        self.territory_markup = [Vec::new(), Vec::new()];
                        self.has_markup = false;
                    }
                    self.captures[colour.index()] += out.captured;
                    self.captures[colour.opponent().index()] += out.suicided;
                    self.suicides += u32::from(out.suicided > 0);
                    self.ko_retakes += u32::from(out.ko_retake);
                    self.to_move = colour.opponent();
                    self.trailing_passes = 0;
                    self.last_stone = Some((colour, p));
                }
            }
        }
        Ok(())
    }

    fn pass(&mut self, colour: Color) {
        self.board.pass();
        self.passes += 1;
        self.trailing_passes += 1;
        self.to_move = colour.opponent();
    }
}

#[cfg(test)]
mod tests {

    /// The point a bad setup names is the same on every run (sgf-parse's point set is a
    /// HashSet, iterated in a new order each time).
    #[test]
    fn a_bad_setup_names_the_same_point_every_time() {
        let reasons: std::collections::BTreeSet<String> = (0..20)
            .map(|_| {
                crate::analyze::analyze_file(b"(;SZ[9]AB[aa:zz];B[ee])").games[0]
                    .detail
                    .clone()
            })
            .collect();
        assert_eq!(reasons.len(), 1, "{reasons:?}");
    }

    use super::*;
    use crate::go::board::Cell;

    fn run(sgf: &str) -> Result<Replay, ReplayError> {
        let root = sgf_parse::go::parse(sgf).unwrap().remove(0);
        replay(&root)
    }

    fn pt(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    #[test]
    fn territory_markup_is_kept_only_after_the_last_stone() {
        let r = run("(;SZ[9];B[aa]TB[bb];W[cc];B[]TB[dd][ee];W[]TW[ff])").unwrap();
        assert!(r.has_markup);
        assert_eq!(r.territory_markup[0], [pt("dd"), pt("ee")]);
        assert_eq!(r.territory_markup[1], [pt("ff")]);
        let r = run("(;SZ[9];B[aa]TB[bb];W[cc])").unwrap();
        assert!(!r.has_markup);
        assert!(r.territory_markup[0].is_empty());
    }

    #[test]
    fn a_replay_can_stop_at_a_move() {
        let sgf = "(;SZ[9]AB[ii];B[aa];W[bb];B[cc]C[x];W[dd])";
        let root = sgf_parse::go::parse(sgf).unwrap().remove(0);
        let r = replay_until(&root, Some(2)).unwrap();
        assert_eq!(r.moves, 2);
        assert!(r.stopped);
        assert_eq!(r.last_stone, Some((Color::White, pt("bb"))));
        assert_eq!(r.to_move, Color::Black);
        let r = replay_until(&root, Some(0)).unwrap();
        assert_eq!((r.moves, r.last_stone), (0, None));
        assert_eq!(
            r.board.count(Color::Black),
            1,
            "the setup before move 1 is kept"
        );
        let r = replay(&root).unwrap();
        assert!(!r.stopped);
        assert_eq!(r.last_stone, Some((Color::White, pt("dd"))));
    }

    #[test]
    fn passes_both_ways_count_as_moves() {
        let r = run("(;SZ[19];B[dd];W[];B[tt];W[pp])").unwrap();
        assert_eq!(r.moves, 4);
        assert_eq!(r.passes, 2);
        assert_eq!(r.board.count(Color::Black), 1);
        assert_eq!(r.board.count(Color::White), 1);
        assert_eq!(r.to_move, Color::Black);
    }

    #[test]
    fn tt_is_a_point_on_large_boards() {
        let r = run("(;SZ[21];B[tt])").unwrap();
        assert_eq!(r.passes, 0);
        assert_eq!(r.board.at(pt("tt")), Cell::Stone(Color::Black));
    }

    #[test]
    fn captures_are_counted_per_player() {
        let r = run("(;SZ[9];B[ba];W[aa];B[ab])").unwrap();
        assert_eq!(r.captures, [1, 0]);
        assert_eq!(r.board.at(pt("aa")), Cell::Empty);
    }

    #[test]
    fn suicide_is_applied_and_noted() {
        let r = run("(;SZ[9];B[ba];W[ee];B[ab];W[aa])").unwrap();
        assert_eq!(r.suicides, 1);
        assert_eq!(r.captures, [1, 0]);
        assert_eq!(r.board.at(pt("aa")), Cell::Empty);
        assert!(r.illegal.is_none());
    }

    #[test]
    fn ko_retake_is_applied_and_noted() {
        let r = run("(;SZ[9]AB[ba][ab][bc][cb]AW[ca][db][cc];W[bb];B[cb])").unwrap();
        assert_eq!(r.ko_retakes, 1);
        assert_eq!(r.captures, [1, 1]);
    }

    #[test]
    fn setup_in_any_node_and_ae() {
        let r = run("(;SZ[9]AB[aa][bb];W[cc];AE[aa]AW[dd];B[ee])").unwrap();
        assert_eq!(r.board.at(pt("aa")), Cell::Empty);
        assert_eq!(r.board.at(pt("dd")), Cell::Stone(Color::White));
        assert_eq!(r.setup_stones, 3);
        assert_eq!(r.moves, 2);
    }

    #[test]
    fn occupied_point_stops_the_replay() {
        let r = run("(;SZ[9];B[aa];W[bb];B[aa];W[cc])").unwrap();
        let illegal = r.illegal.unwrap();
        assert_eq!(illegal.number, 3);
        assert!(illegal.reason.contains("occupied"), "{}", illegal.reason);
        assert_eq!(r.moves, 4);
        assert_eq!(r.board.count(Color::White), 1);
    }

    #[test]
    fn off_board_move_stops_the_replay() {
        let r = run("(;SZ[9];B[aa];W[jj])").unwrap();
        assert_eq!(r.illegal.unwrap().number, 2);
    }

    #[test]
    fn handicap_and_pl_decide_who_moves() {
        assert_eq!(run("(;HA[2]AB[dd][pp])").unwrap().to_move, Color::White);
        assert_eq!(run("(;AB[dd]PL[W])").unwrap().to_move, Color::White);
        assert_eq!(run("(;B[dd];W[pp];PL[W])").unwrap().to_move, Color::White);
        assert_eq!(run("(;B[dd])").unwrap().to_move, Color::White);
    }

    #[test]
    fn sizes_the_tool_does_not_replay() {
        assert_eq!(
            run("(;SZ[19:13])").unwrap_err(),
            ReplayError::NotSquare(19, 13)
        );
        assert_eq!(run("(;SZ[52])").unwrap_err(), ReplayError::Size(52));
        assert_eq!(run("(;SZ[1])").unwrap_err(), ReplayError::Size(1));
        assert_eq!(run("(;SZ[0])").unwrap_err(), ReplayError::Size(0));
        assert_eq!(run("(;SZ[13])").unwrap().board.size(), 13);
        assert_eq!(run("(;GM[1])").unwrap().board.size(), 19);
    }

    #[test]
    fn only_the_main_line_is_replayed() {
        let r = run("(;SZ[9];B[aa](;W[bb];B[cc])(;W[dd]))").unwrap();
        assert_eq!(r.moves, 3);
        assert_eq!(r.board.at(pt("dd")), Cell::Empty);
    }
}
