//! The net's inputs for a position, exactly as KataGo 1.18's analysis engine builds them:
//! input version 7 (`NNInputs::fillRowV7` in `cpp/neuralnet/nninputs.cpp`), used by every
//! model from version 8 on.
//!
//! The analysis engine evaluates the root of a query with its defaults: the history before
//! the root is hidden from the net (`ignorePreRootHistory`), a pass that would end the game
//! is treated as not ending it (`conservativePass`), passing hacks are on, the draw is worth
//! half a win, no playout-doubling advantage, and the net's own symmetry 0 when randomizing
//! is off. `EncodeOptions::ANALYSIS` holds these; `encode` uses it.
//!
//! So with those defaults: the move-history planes and their pass flags are zero, the
//! ladder planes of earlier boards repeat the current one, "a pass ends the phase" can be
//! set only under territory scoring (elsewhere the pass is taken as not ending the game),
//! the area planes exist only under area scoring, and everything about cleanup phases,
//! playout doubling and (for these five rulesets) the button stays zero.
//!
//! Apart from the on-board plane no input depends on the size of the net's input grid, so
//! the planes are laid out for the board alone.

use thiserror::Error;

use super::board::{cell_of, color_of, opp, Board, Loc, EMPTY, NO_LOC};
use super::history::History;
use super::pass_alive::{area, independent_life_area};
use super::rules::KataRules;
use crate::go::rules::{KoRule, Scoring, Tax};
use crate::go::{Color, Point};

/// Spatial planes.
pub const NUM_SPATIAL: usize = 22;
/// Global inputs.
pub const NUM_GLOBAL: usize = 19;

/// Every point of the board (the rest of the net's grid would be zero).
pub const ON_BOARD: usize = 0;
/// Stones of the player to move.
pub const OWN_STONE: usize = 1;
/// Stones of the opponent.
pub const OPP_STONE: usize = 2;
/// Stones whose group has exactly one liberty.
pub const ONE_LIBERTY: usize = 3;
/// Stones whose group has exactly two liberties.
pub const TWO_LIBERTIES: usize = 4;
/// Stones whose group has exactly three liberties.
pub const THREE_LIBERTIES: usize = 5;
/// Points the player to move may not play: the simple-ko point, and superko bans.
pub const KO_BAN: usize = 6;
/// Ko recaptures blocked in a cleanup phase; never set, as the engine prevents cleanup.
pub const KO_RECAPTURE_BLOCKED: usize = 7;
/// Unused by version 7.
pub const UNUSED: usize = 8;
/// Where the last five moves were played, newest first (planes 9 to 13).
pub const PREV_MOVES: usize = 9;
/// Stones the ladder reader says are caught: groups with one liberty that cannot escape,
/// groups with two that the opponent can ladder by moving first.
pub const LADDERED: usize = 14;
/// `LADDERED` one move ago.
pub const LADDERED_PREV: usize = 15;
/// `LADDERED` two moves ago.
pub const LADDERED_PREV2: usize = 16;
/// Moves with which the player to move starts a working ladder on a two-liberty group.
pub const LADDER_ATTACKS: usize = 17;
/// Area of the player to move (area scoring only).
pub const OWN_AREA: usize = 18;
/// Area of the opponent (area scoring only).
pub const OPP_AREA: usize = 19;
/// Stones of the player to move when a second cleanup phase began; never set.
pub const OWN_SECOND_ENCORE_START: usize = 20;
/// Stones of the opponent when a second cleanup phase began; never set.
pub const OPP_SECOND_ENCORE_START: usize = 21;

/// Which of the last five moves were passes, newest first (globals 0 to 4).
pub const G_PREV_PASSES: usize = 0;
/// Komi from the view of the player to move, over 20.
pub const G_KOMI: usize = 5;
/// 1 under positional or situational superko.
pub const G_SUPERKO: usize = 6;
/// 0.5 under positional superko, -0.5 under situational.
pub const G_SUPERKO_KIND: usize = 7;
/// 1 when multi-stone suicide is legal.
pub const G_SUICIDE: usize = 8;
/// 1 under territory scoring.
pub const G_TERRITORY: usize = 9;
/// 1 under a seki or group tax.
pub const G_TAX: usize = 10;
/// 1 under the group tax.
pub const G_TAX_ALL: usize = 11;
/// 1 in a cleanup phase; never set.
pub const G_ENCORE: usize = 12;
/// 1 in the second cleanup phase; never set.
pub const G_ENCORE2: usize = 13;
/// 1 when a pass by the player to move would end the phase.
pub const G_PASS_ENDS_PHASE: usize = 14;
/// 1 when a playout-doubling advantage is given; never set.
pub const G_PDA: usize = 15;
/// Half the playout-doubling advantage; never set.
pub const G_PDA_AMOUNT: usize = 16;
/// 1 while the button is still to be taken.
pub const G_BUTTON: usize = 17;
/// A triangle wave in komi whose period is two points, aligned with the komis at which
/// the game can be drawn (area scoring only).
pub const G_KOMI_WAVE: usize = 18;

/// How far komi may be from zero: the board's area plus 20.
const KOMI_CLIP: f32 = 20.0;

/// The net's inputs for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct NetInput {
    pub size: u8,
    pub to_move: Color,
    /// `NUM_SPATIAL` planes of `size * size`, each row by row from the top-left.
    pub spatial: Vec<f32>,
    pub global: Vec<f32>,
    /// The moves KataGo lets the policy choose among: `size * size` points row by row from
    /// the top-left, then pass (always legal). The rules' suicide and ko rules apply here,
    /// unlike to the moves of the query.
    pub legal: Vec<bool>,
}

/// Why KataGo's analysis engine refuses the query.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The board is not 2 to 19 points wide.
    BoardSize,
    /// The point is not on the board.
    OffBoard,
    /// The point holds a stone.
    Occupied,
    /// A lone stone without liberties that captures nothing, under any rules.
    Suicide,
}

/// A stone or move KataGo's analysis engine refuses: it then answers the query with an
/// error and nothing else.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Error)]
#[error("KataGo refuses move {}: {reason:?} at {point:?}", turn.map_or("(setup)".into(), |t| t.to_string()))]
pub struct RefusedMove {
    /// Index in `moves`, or `None` for a setup stone or the board.
    pub turn: Option<usize>,
    pub point: Option<Point>,
    pub reason: Refusal,
}

/// Search settings of the engine that change the net's inputs at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Show the moves that led to the position (`ignorePreRootHistory = false`).
    pub history: bool,
    /// Treat a pass that would end the game as not ending it (`conservativePass`).
    pub conservative_pass: bool,
    /// `enablePassingHacks`: hide the history when a pass would end the game as a loss.
    pub passing_hacks: bool,
    /// Compute pass-alive areas as if multi-stone suicide were legal: a flag in the
    /// header of models of version 15 and later (`preferPassAliveUnderSuicideRules`),
    /// unset in both nets livingblocks uses.
    pub pass_alive_as_if_suicide: bool,
}

impl EncodeOptions {
    /// The analysis engine's defaults.
    pub const ANALYSIS: EncodeOptions = EncodeOptions {
        history: false,
        conservative_pass: true,
        passing_hacks: true,
        pass_alive_as_if_suicide: false,
    };
}

/// The net's inputs for the position KataGo's analysis engine reaches from a query: `setup`
/// are `initialStones`, `moves` the `moves` (`None` a pass), `first_player` the
/// `initialPlayer`. `komi` must be a whole or half number, as KataGo requires.
pub fn encode(
    size: u8,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    first_player: Color,
    rules: &KataRules,
    komi: f32,
) -> Result<NetInput, RefusedMove> {
    encode_with(
        size,
        setup,
        moves,
        first_player,
        rules,
        komi,
        &EncodeOptions::ANALYSIS,
    )
}

/// `encode` with other engine settings.
pub fn encode_with(
    size: u8,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    first_player: Color,
    rules: &KataRules,
    komi: f32,
    options: &EncodeOptions,
) -> Result<NetInput, RefusedMove> {
    let game = replay(size, setup, moves, first_player, rules, komi)?;
    Ok(Encoder::new(&game, options).encode())
}

fn replay(
    size: u8,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    first_player: Color,
    rules: &KataRules,
    komi: f32,
) -> Result<History, RefusedMove> {
    let refuse = |turn, point, reason| RefusedMove {
        turn,
        point,
        reason,
    };
    if !(2..=19).contains(&size) {
        return Err(refuse(None, None, Refusal::BoardSize));
    }
    let mut board = Board::new(usize::from(size));
    let mut placed = Vec::with_capacity(setup.len());
    for &(c, p) in setup {
        let loc = board
            .loc_of(p)
            .ok_or(refuse(None, Some(p), Refusal::OffBoard))?;
        placed.push((loc, cell_of(c)));
    }
    for (loc, c) in placed {
        board.set_stone(loc, c);
    }
    let mut plays = Vec::with_capacity(moves.len());
    for (turn, &(c, p)) in moves.iter().enumerate() {
        let loc = match p {
            None => None,
            Some(p) => Some(board.loc_of(p).ok_or(refuse(
                Some(turn),
                Some(p),
                Refusal::OffBoard,
            ))?),
        };
        plays.push((cell_of(c), loc));
    }
    // The engine checks only that a move is on an empty point and is not a lone stone's
    // suicide; ko, superko and multi-stone suicide are played as they come.
    let mut game = History::new(board, cell_of(first_player), *rules, komi);
    for (turn, (pla, loc)) in plays.into_iter().enumerate() {
        if let Some(l) = loc {
            let reason = if game.board.cells[l] != EMPTY {
                Some(Refusal::Occupied)
            } else if game.board.is_illegal_suicide(l, pla, true) {
                Some(Refusal::Suicide)
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(refuse(Some(turn), moves[turn].1, reason));
            }
        }
        game.play(pla, loc);
    }
    Ok(game)
}

struct Encoder<'a> {
    game: &'a History,
    options: &'a EncodeOptions,
    pla: u8,
    spatial: Vec<f32>,
    global: Vec<f32>,
}

impl<'a> Encoder<'a> {
    fn new(game: &'a History, options: &'a EncodeOptions) -> Encoder<'a> {
        let n = game.board.size;
        Encoder {
            game,
            options,
            pla: game.next,
            spatial: vec![0.0; NUM_SPATIAL * n * n],
            global: vec![0.0; NUM_GLOBAL],
        }
    }

    fn set(&mut self, plane: usize, loc: Loc) {
        let b = &self.game.board;
        let n = b.size;
        let (x, y) = (loc % (n + 1) - 1, loc / (n + 1) - 1);
        self.spatial[plane * n * n + y * n + x] = 1.0;
    }

    fn encode(mut self) -> NetInput {
        let game = self.game;
        let board = &game.board;
        let pla = self.pla;

        for p in board.points() {
            self.set(ON_BOARD, p);
            let c = board.cells[p];
            if c == EMPTY {
                continue;
            }
            self.set(if c == pla { OWN_STONE } else { OPP_STONE }, p);
            match board.liberties(p) {
                1 => self.set(ONE_LIBERTY, p),
                2 => self.set(TWO_LIBERTIES, p),
                3 => self.set(THREE_LIBERTIES, p),
                _ => {}
            }
        }

        if board.ko != NO_LOC {
            self.set(KO_BAN, board.ko);
        }
        let superko = game.superko_bans();
        for p in board.points() {
            if superko[p] {
                self.set(KO_BAN, p);
            }
        }
        let mut legal: Vec<bool> = board
            .points()
            .map(|p| board.is_legal(p, pla, game.rules.game.suicide) && !superko[p])
            .collect();
        legal.push(true);

        // A pass that would end the game is treated as not ending it: the net is then
        // shown no history and not told that a pass ends the phase.
        let would_not_win = self.area();
        let pass_end_hidden = game.pass_would_end_game()
            && (self.options.conservative_pass
                || game.friendly_pass_suppressed()
                || (self.options.passing_hacks && would_not_win));
        let history = self.history(pass_end_hidden);
        self.ladders(history);
        self.globals(pass_end_hidden);
        NetInput {
            size: board.size as u8,
            to_move: color_of(pla),
            spatial: self.spatial,
            global: self.global,
            legal,
        }
    }

    /// Sets the area planes where the rules have them, and says whether ending the game now
    /// would not be a win for the player to move.
    fn area(&mut self) -> bool {
        let game = self.game;
        let rules = &game.rules;
        let board = &game.board;
        let suicide = rules.game.suicide || self.options.pass_alive_as_if_suicide;
        // Territory scoring has area inputs only in the second cleanup phase, which the
        // engine never enters.
        let (map, tax) = match (rules.scoring(), rules.game.tax) {
            (Scoring::Territory, _) => return false,
            (Scoring::Area, Tax::None) => (area(board, true, true, true, suicide), 0),
            (Scoring::Area, tax) => {
                let (map, white_minus_black) = independent_life_area(board, false, true, suicide);
                let per_region = if tax == Tax::All { 2 } else { 0 };
                let sign = if self.pla == cell_of(Color::White) {
                    -1
                } else {
                    1
                };
                (map, sign * per_region * white_minus_black)
            }
        };
        let mut score = tax;
        for p in board.points() {
            if map[p] == self.pla {
                self.set(OWN_AREA, p);
                score += 1;
            } else if map[p] == opp(self.pla) {
                self.set(OPP_AREA, p);
                score -= 1;
            }
        }
        score as f32 + game.self_komi(self.pla) <= 0.0
    }

    /// Sets the move-history planes and globals; returns how many moves back they reach.
    fn history(&mut self, pass_end_hidden: bool) -> usize {
        let game = self.game;
        let mut reach = if pass_end_hidden {
            0
        } else if game.game_finished || game.past_normal_phase_end {
            1
        } else {
            5
        };
        if !self.options.history {
            reach = 0;
        }
        reach = reach.min(game.valid_turns);

        let mut shown = 0;
        for (ago, &(mover, loc)) in game.moves.iter().rev().take(reach).enumerate() {
            let expected = if ago % 2 == 0 {
                opp(self.pla)
            } else {
                self.pla
            };
            if mover != expected {
                break;
            }
            match loc {
                None => self.global[G_PREV_PASSES + ago] = 1.0,
                Some(l) => self.set(PREV_MOVES + ago, l),
            }
            shown = ago + 1;
        }
        shown
    }

    /// Ladder planes for the board now, one move ago and two moves ago. Where the history
    /// does not reach that far KataGo reads the current board again; the planes are copied.
    fn ladders(&mut self, history: usize) {
        let game = self.game;
        let opp_stone = opp(self.pla);
        let board = &game.board;
        for_each_laddered(board, |loc, attacks| {
            self.set(LADDERED, loc);
            if board.cells[loc] == opp_stone && board.liberties(loc) > 1 {
                for &a in attacks {
                    self.set(LADDER_ATTACKS, a);
                }
            }
        });
        if history >= 1 {
            for_each_laddered(game.recent(1), |loc, _| self.set(LADDERED_PREV, loc));
        } else {
            self.copy_plane(LADDERED, LADDERED_PREV);
        }
        if history >= 2 {
            for_each_laddered(game.recent(2), |loc, _| self.set(LADDERED_PREV2, loc));
        } else {
            self.copy_plane(LADDERED_PREV, LADDERED_PREV2);
        }
    }

    fn copy_plane(&mut self, from: usize, to: usize) {
        let n = self.game.board.size * self.game.board.size;
        self.spatial.copy_within(from * n..(from + 1) * n, to * n);
    }

    fn globals(&mut self, pass_end_hidden: bool) {
        let game = self.game;
        let rules = &game.rules;
        let n = game.board.size;

        let area = (n * n) as f32;
        let komi = game
            .self_komi(self.pla)
            .clamp(-area - KOMI_CLIP, area + KOMI_CLIP);
        self.global[G_KOMI] = komi / 20.0;

        match rules.game.ko {
            KoRule::Simple => {}
            KoRule::Positional => {
                self.global[G_SUPERKO] = 1.0;
                self.global[G_SUPERKO_KIND] = 0.5;
            }
            KoRule::Situational => {
                self.global[G_SUPERKO] = 1.0;
                self.global[G_SUPERKO_KIND] = -0.5;
            }
        }
        if rules.game.suicide {
            self.global[G_SUICIDE] = 1.0;
        }
        if rules.scoring() == Scoring::Territory {
            self.global[G_TERRITORY] = 1.0;
        }
        if rules.game.tax != Tax::None {
            self.global[G_TAX] = 1.0;
        }
        if rules.game.tax == Tax::All {
            self.global[G_TAX_ALL] = 1.0;
        }
        if !pass_end_hidden && game.pass_would_end_phase() {
            self.global[G_PASS_ENDS_PHASE] = 1.0;
        }
        if game.has_button {
            self.global[G_BUTTON] = 1.0;
        }
        if rules.scoring() == Scoring::Area {
            self.global[G_KOMI_WAVE] = komi_wave(komi, n * n);
        }
    }
}

/// Calls `f` on every stone of a group the ladder reader calls caught, with the attacking
/// moves that catch it when it has two liberties (KataGo's `iterLadders`). Groups are read
/// once each, on one scratch copy of the board, in row order.
fn for_each_laddered(board: &Board, mut f: impl FnMut(Loc, &[Loc])) {
    let mut scratch = board.clone();
    let mut solved: Vec<(Loc, bool)> = Vec::new();
    let (mut moves, mut attacks) = (Vec::new(), Vec::new());
    for p in board.points() {
        if !board.is_stone(p) {
            continue;
        }
        let libs = board.liberties(p);
        if libs != 1 && libs != 2 {
            continue;
        }
        let head = board.head(p);
        if let Some(&(_, caught)) = solved.iter().find(|(h, _)| *h == head) {
            if caught {
                f(p, &[]);
            }
            continue;
        }
        attacks.clear();
        let caught = if libs == 1 {
            scratch.ladder_caught(p, true, &mut moves)
        } else {
            scratch.ladder_caught_attacked_first(p, &mut moves, &mut attacks)
        };
        solved.push((head, caught));
        if caught {
            f(p, &attacks);
        }
    }
}

/// The komi wave: how far `komi` is past the last komi at which the game could be drawn
/// (those of the board area's parity), rising for half a point, falling for one, rising
/// for the last half.
fn komi_wave(komi: f32, area: usize) -> f32 {
    let floor = if area.is_multiple_of(2) {
        (komi / 2.0).floor() * 2.0
    } else {
        ((komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn pt(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Setup stones from rows of `X` (black), `O` (white) and `.`, top row first.
    fn setup(rows: &[&str]) -> (u8, Vec<(Color, Point)>) {
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                match c {
                    'X' => stones.push((B, pt(x as u8, y as u8))),
                    'O' => stones.push((W, pt(x as u8, y as u8))),
                    _ => {}
                }
            }
        }
        (rows.len() as u8, stones)
    }

    fn rules(name: &str) -> KataRules {
        KataRules::from_name(name).unwrap()
    }

    /// A plane as rows of `1` and `.`.
    fn plane(input: &NetInput, plane: usize) -> Vec<String> {
        let n = usize::from(input.size);
        let values = &input.spatial[plane * n * n..(plane + 1) * n * n];
        values
            .chunks(n)
            .map(|row| {
                row.iter()
                    .map(|&v| if v == 1.0 { '1' } else { '.' })
                    .collect()
            })
            .collect()
    }

    fn rows(expected: &[&str]) -> Vec<String> {
        expected.iter().map(|r| r.replace(' ', "")).collect()
    }

    fn encode_rows(
        rows: &[&str],
        moves: &[(Color, Option<Point>)],
        first: Color,
        name: &str,
        komi: f32,
    ) -> Result<NetInput, RefusedMove> {
        let (size, stones) = setup(rows);
        encode(size, &stones, moves, first, &rules(name), komi)
    }

    #[test]
    fn stones_and_liberties_are_seen_from_the_player_to_move() {
        let input = encode_rows(
            &[
                ". X O . .", //
                "X O O . .", //
                ". X . . .", //
                ". . . . .", //
                ". . . . .",
            ],
            &[],
            W,
            "chinese",
            7.5,
        )
        .unwrap();
        assert_eq!(input.to_move, W);
        assert_eq!(plane(&input, ON_BOARD), rows(&["11111"; 5]));
        assert_eq!(
            plane(&input, OWN_STONE),
            rows(&["..1..", ".11..", ".....", ".....", "....."])
        );
        assert_eq!(
            plane(&input, OPP_STONE),
            rows(&[".1...", "1....", ".1...", ".....", "....."])
        );
        assert_eq!(
            plane(&input, ONE_LIBERTY),
            rows(&[".1...", ".....", ".....", ".....", "....."])
        );
        assert_eq!(
            plane(&input, TWO_LIBERTIES),
            rows(&[".....", "1....", ".....", ".....", "....."])
        );
        assert_eq!(
            plane(&input, THREE_LIBERTIES),
            rows(&["..1..", ".11..", ".1...", ".....", "....."])
        );
    }

    #[test]
    fn a_capture_empties_the_point_and_a_ko_bans_the_recapture() {
        let board = [
            ". X O . .", //
            "X . X O .", //
            ". X O . .", //
            ". . . . .", //
            ". . . . .",
        ];
        let input = encode_rows(&board, &[(W, Some(pt(1, 1)))], W, "japanese", 6.5).unwrap();
        assert_eq!(input.to_move, B);
        assert_eq!(
            plane(&input, OWN_STONE),
            rows(&[".1...", "1....", ".1...", ".....", "....."])
        );
        assert_eq!(
            plane(&input, KO_BAN),
            rows(&[".....", "..1..", ".....", ".....", "....."])
        );
        let later = [
            (W, Some(pt(1, 1))),
            (B, Some(pt(4, 4))),
            (W, Some(pt(4, 3))),
        ];
        let input = encode_rows(&board, &later, W, "japanese", 6.5).unwrap();
        assert!(plane(&input, KO_BAN).concat().chars().all(|c| c == '.'));
    }

    #[test]
    fn situational_superko_bans_a_return_to_an_earlier_position() {
        // White takes the ko and both pass: retaking would bring back the starting position
        // with white to move. Simple ko allows it, situational superko does not.
        let board = [
            ". X O . .", //
            "X . X O .", //
            ". X O . .", //
            ". . . . .", //
            ". . . . .",
        ];
        let moves = [(W, Some(pt(1, 1))), (B, None), (W, None)];
        let aga = encode_rows(&board, &moves, W, "aga", 7.5).unwrap();
        assert_eq!(
            plane(&aga, KO_BAN),
            rows(&[".....", "..1..", ".....", ".....", "....."])
        );
        let chinese = encode_rows(&board, &moves, W, "chinese", 7.5).unwrap();
        assert!(plane(&chinese, KO_BAN).concat().chars().all(|c| c == '.'));
    }

    fn empty(plane_rows: &[String]) -> bool {
        plane_rows.concat().chars().all(|c| c == '.')
    }

    /// White's centre stone with two liberties; black filling either one starts a ladder.
    const TWO_LIBERTIES_CENTRE: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . X O . . . .",
        ". . . . . X . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];

    fn mark(points: &[(usize, usize)]) -> Vec<String> {
        (0..9)
            .map(|y| {
                (0..9)
                    .map(|x| if points.contains(&(x, y)) { '1' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn ladder_planes_show_caught_groups_and_the_moves_that_catch_them() {
        let input = encode_rows(&TWO_LIBERTIES_CENTRE, &[], B, "japanese", 6.5).unwrap();
        assert_eq!(plane(&input, LADDERED), mark(&[(4, 4)]));
        // Without history the earlier boards are the current one.
        assert_eq!(plane(&input, LADDERED_PREV), mark(&[(4, 4)]));
        assert_eq!(plane(&input, LADDERED_PREV2), mark(&[(4, 4)]));
        assert_eq!(plane(&input, LADDER_ATTACKS), mark(&[(5, 4), (4, 5)]));

        // A white stone on the lower left breaks the ladder that runs there.
        let mut broken = TWO_LIBERTIES_CENTRE;
        broken[7] = ". O . . . . . . .";
        let input = encode_rows(&broken, &[], B, "japanese", 6.5).unwrap();
        assert_eq!(plane(&input, LADDERED), mark(&[(4, 4)]));
        assert_eq!(plane(&input, LADDER_ATTACKS), mark(&[(4, 5)]));

        // With white to move the group is white's own: still caught, but no attacks.
        let input = encode_rows(&broken, &[], W, "japanese", 6.5).unwrap();
        assert_eq!(plane(&input, LADDERED), mark(&[(4, 4)]));
        assert!(empty(&plane(&input, LADDER_ATTACKS)));

        // Both ladders broken: nothing is caught.
        broken[1] = ". . . . . . . O .";
        let input = encode_rows(&broken, &[], B, "japanese", 6.5).unwrap();
        assert!(empty(&plane(&input, LADDERED)));
    }

    #[test]
    fn a_pass_alive_group_owns_the_enemy_stone_in_its_eye() {
        let alive = [
            ". X O . X O .", //
            "X X X X X O .", //
            "O O O O O O .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .", //
            ". . . . . . .",
        ];
        let input = encode_rows(&alive, &[], B, "chinese", 7.5).unwrap();
        let own = [
            "11111..", "11111..", ".......", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(plane(&input, OWN_AREA), rows(&own));
        let opp = [
            ".....11", ".....11", "1111111", "1111111", "1111111", "1111111", "1111111",
        ];
        assert_eq!(plane(&input, OPP_AREA), rows(&opp));

        // One eye only: not pass-alive, so the white stone counts as white's and the point
        // next to it as nobody's.
        let mut one_eye = alive;
        one_eye[0] = "X X O . X O .";
        let input = encode_rows(&one_eye, &[], B, "chinese", 7.5).unwrap();
        assert_eq!(plane(&input, OWN_AREA)[0], "11..1..");
        assert_eq!(plane(&input, OPP_AREA)[0], "..1..11");

        // Territory scoring has no area inputs before the cleanup phases.
        let input = encode_rows(&alive, &[], B, "japanese", 6.5).unwrap();
        assert!(empty(&plane(&input, OWN_AREA)) && empty(&plane(&input, OPP_AREA)));
    }

    #[test]
    fn seki_liberties_belong_to_nobody() {
        let seki = [
            "X . O", //
            "X . O", //
            "X O O",
        ];
        let input = encode_rows(&seki, &[], B, "chinese", 7.5).unwrap();
        assert_eq!(plane(&input, OWN_AREA), rows(&["1..", "1..", "1.."]));
        assert_eq!(plane(&input, OPP_AREA), rows(&["..1", "..1", ".11"]));
    }

    #[test]
    fn globals_tell_the_rules_and_komi() {
        let japanese = encode(19, &[], &[], B, &rules("japanese"), 7.5).unwrap();
        let chinese = encode(19, &[], &[], B, &rules("chinese"), 7.5).unwrap();
        let mut expected = vec![0.0; NUM_GLOBAL];
        expected[G_KOMI] = -7.5 / 20.0;
        expected[G_TERRITORY] = 1.0;
        expected[G_TAX] = 1.0;
        assert_eq!(japanese.global, expected);
        let mut expected = vec![0.0; NUM_GLOBAL];
        expected[G_KOMI] = -7.5 / 20.0;
        expected[G_KOMI_WAVE] = -0.5;
        assert_eq!(chinese.global, expected);

        let white = encode(19, &[], &[(B, Some(pt(3, 3)))], B, &rules("chinese"), 7.5).unwrap();
        assert_eq!(white.to_move, W);
        assert_eq!(white.global[G_KOMI], 7.5 / 20.0);
        assert_eq!(white.global[G_KOMI_WAVE], 0.5);

        let nz = encode(19, &[], &[], B, &rules("new-zealand"), 7.0).unwrap();
        assert_eq!(nz.global[G_SUPERKO], 1.0);
        assert_eq!(nz.global[G_SUPERKO_KIND], -0.5);
        assert_eq!(nz.global[G_SUICIDE], 1.0);
        assert_eq!(nz.global[G_KOMI_WAVE], 0.0);
    }

    #[test]
    fn komi_waves_with_the_parity_of_the_board() {
        // 19x19 has an odd area: draws need an odd komi.
        let wave = |k| komi_wave(k, 361);
        assert_eq!(
            [wave(7.0), wave(7.5), wave(8.0), wave(8.5)],
            [0.0, 0.5, 0.0, -0.5]
        );
        let even = |k| komi_wave(k, 4);
        assert_eq!(
            [even(0.0), even(0.5), even(1.0), even(1.5)],
            [0.0, 0.5, 0.0, -0.5]
        );
        let clipped = encode(2, &[], &[], W, &rules("chinese"), 100.0).unwrap();
        assert_eq!(clipped.global[G_KOMI], 24.0 / 20.0);
    }

    #[test]
    fn territory_komi_counts_the_stones_each_side_placed() {
        let handicap = [
            ". . . . .", //
            ". X . . .", //
            ". . . . .", //
            ". . . X .", //
            ". . X . .",
        ];
        let japanese = encode_rows(&handicap, &[], W, "japanese", 0.5).unwrap();
        assert_eq!(japanese.global[G_KOMI], 3.5 / 20.0);
        let chinese = encode_rows(&handicap, &[], W, "chinese", 0.5).unwrap();
        assert_eq!(chinese.global[G_KOMI], 0.5 / 20.0);
        let moves = [(W, Some(pt(0, 0))), (B, Some(pt(4, 0))), (W, None)];
        let later = encode_rows(&handicap, &moves, W, "japanese", 0.5).unwrap();
        assert_eq!(later.global[G_KOMI], -3.5 / 20.0);
    }

    #[test]
    fn a_pass_ends_the_phase_only_where_the_engine_says_so() {
        let moves = [(B, Some(pt(2, 2))), (W, None)];
        let japanese = encode(9, &[], &moves, B, &rules("japanese"), 6.5).unwrap();
        assert_eq!(japanese.global[G_PASS_ENDS_PHASE], 1.0);
        let chinese = encode(9, &[], &moves, B, &rules("chinese"), 7.5).unwrap();
        assert_eq!(chinese.global[G_PASS_ENDS_PHASE], 0.0);
        let strict = KataRules {
            friendly_pass_ok: false,
            ..rules("chinese")
        };
        let options = EncodeOptions {
            conservative_pass: false,
            ..EncodeOptions::ANALYSIS
        };
        let ended = encode_with(9, &[], &moves, B, &strict, 7.5, &options).unwrap();
        assert_eq!(ended.global[G_PASS_ENDS_PHASE], 1.0);
        let none = encode(9, &[], &moves[..1], B, &rules("japanese"), 6.5).unwrap();
        assert_eq!(none.global[G_PASS_ENDS_PHASE], 0.0);
    }

    #[test]
    fn history_is_hidden_unless_asked_for() {
        let moves = [
            (B, Some(pt(2, 2))),
            (W, Some(pt(6, 6))),
            (B, None),
            (W, Some(pt(6, 2))),
        ];
        let input = encode(9, &[], &moves, B, &rules("japanese"), 6.5).unwrap();
        for p in PREV_MOVES..PREV_MOVES + 5 {
            assert!(empty(&plane(&input, p)));
        }
        assert!(input.global[..5].iter().all(|&g| g == 0.0));

        let options = EncodeOptions {
            history: true,
            ..EncodeOptions::ANALYSIS
        };
        let input = encode_with(9, &[], &moves, B, &rules("japanese"), 6.5, &options).unwrap();
        assert_eq!(plane(&input, PREV_MOVES), mark(&[(6, 2)]));
        assert_eq!(input.global[G_PREV_PASSES + 1], 1.0);
        assert_eq!(plane(&input, PREV_MOVES + 2), mark(&[(6, 6)]));
        assert_eq!(plane(&input, PREV_MOVES + 3), mark(&[(2, 2)]));
        assert!(empty(&plane(&input, PREV_MOVES + 4)));
        assert_eq!(input.global[..5], [0.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_move_out_of_turn_restarts_the_history_and_lifts_the_ko() {
        let board = [
            ". X O . .", //
            "X . X O .", //
            ". X O . .", //
            ". . . . .", //
            ". . . . .",
        ];
        let moves = [(W, Some(pt(1, 1))), (W, Some(pt(4, 4)))];
        let input = encode_rows(&board, &moves, W, "japanese", 6.5).unwrap();
        assert_eq!(input.to_move, B);
        assert!(empty(&plane(&input, KO_BAN)));
    }

    #[test]
    fn the_engine_refuses_occupied_points_and_lone_suicides_only() {
        let occupied = [(B, Some(pt(0, 0))), (W, Some(pt(0, 0)))];
        let err = encode(9, &[], &occupied, B, &rules("chinese"), 7.5).unwrap_err();
        assert_eq!((err.turn, err.reason), (Some(1), Refusal::Occupied));

        let corner = [
            ". O .", //
            "O . .", //
            ". . .",
        ];
        for name in ["japanese", "new-zealand"] {
            let err = encode_rows(&corner, &[(B, Some(pt(0, 0)))], B, name, 7.0).unwrap_err();
            assert_eq!(
                (err.turn, err.point, err.reason),
                (Some(0), Some(pt(0, 0)), Refusal::Suicide)
            );
        }

        // A group's suicide is played out, under any rules: the engine does not check it.
        let group = [
            ". X O", //
            "X X O", //
            "O O .",
        ];
        for name in ["new-zealand", "japanese"] {
            let input = encode_rows(&group, &[(B, Some(pt(0, 0)))], B, name, 7.0).unwrap();
            assert!(empty(&plane(&input, OPP_STONE)));
        }
        // A ko recapture is played out too.
        let ko = [
            ". X O . .", //
            "X . X O .", //
            ". X O . .", //
            ". . . . .", //
            ". . . . .",
        ];
        let retake = [(W, Some(pt(1, 1))), (B, Some(pt(2, 1)))];
        assert!(encode_rows(&ko, &retake, W, "japanese", 6.5).is_ok());

        let err = encode(9, &[(B, pt(9, 0))], &[], B, &rules("chinese"), 7.5).unwrap_err();
        assert_eq!((err.turn, err.reason), (None, Refusal::OffBoard));
        let err = encode(20, &[], &[], B, &rules("chinese"), 7.5).unwrap_err();
        assert_eq!(err.reason, Refusal::BoardSize);
    }
}
