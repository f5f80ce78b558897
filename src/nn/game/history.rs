//! The replay of a query the way KataGo's analysis engine replays it (`cpp/command/
//! analysis.cpp` with `BoardHistory`, `cpp/game/boardhistory.cpp`), keeping what the
//! net's inputs read: the board, superko bans, passes, komi adjustments and recent boards.
//!
//! What the engine does with a query: setup stones are placed one by one (`setStone`);
//! each move must be on an empty point and must not be a lone stone's suicide, and nothing
//! else is checked (ko and superko violations and multi-stone suicide are played as they
//! come, whatever the rules); a move by the player not expected to move clears the history
//! (and the ko) before it is played; and two passes never start a cleanup phase
//! (`preventCleanupPhase`, on by default): under territory scoring the game just stays at
//! the end of its normal phase, under area scoring it ends.

use super::board::{opp, Board, Loc, BLACK, EMPTY, WHITE};
use super::rules::KataRules;
use crate::go::rules::{HandicapBonus, KoRule, Scoring};

/// How many boards back `recent` keeps, as KataGo does.
const RECENT: usize = 6;

/// A position's stones and the player to move, the key KataGo's ko hash stands for. Under
/// positional superko the player is left out (0).
type Situation = (Vec<u8>, u8);

pub(crate) struct History {
    pub(crate) rules: KataRules,
    pub(crate) komi: f32,
    pub(crate) board: Board,
    /// The player to move.
    pub(crate) next: u8,
    /// Moves since the history was last cleared.
    pub(crate) moves: Vec<(u8, Option<Loc>)>,
    /// The board after each of the last moves, newest first; padded with the board the
    /// history started from.
    recent: [Board; RECENT],
    /// The board the history started from, for counting handicap stones.
    initial: Board,
    /// Situations seen since the history was cleared, for superko and long cycles.
    seen: Vec<Situation>,
    /// Positions in which each player (indexed by color) passed.
    passed_in: [Vec<Vec<u8>>; 3],
    ever_occupied: Vec<bool>,
    pub(crate) consecutive_passes: u32,
    /// Points over komi white gets under territory scoring (one per stone black placed,
    /// minus one per stone white placed) and for the button.
    pub(crate) white_bonus: f32,
    pub(crate) white_handicap_bonus: f32,
    pub(crate) has_button: bool,
    white_has_moved: bool,
    /// The game ended (area scoring) or a long cycle made it a no-result.
    pub(crate) game_finished: bool,
    /// Territory scoring: the normal phase ended and no cleanup phase followed.
    pub(crate) past_normal_phase_end: bool,
    /// Moves since the phase began that the net may see as history.
    pub(crate) valid_turns: usize,
}

impl History {
    pub(crate) fn new(board: Board, next: u8, rules: KataRules, komi: f32) -> History {
        let cells = board.cells.len();
        let mut r = History {
            rules,
            komi,
            recent: std::array::from_fn(|_| board.clone()),
            initial: board.clone(),
            board,
            next,
            moves: Vec::new(),
            seen: Vec::new(),
            passed_in: Default::default(),
            ever_occupied: vec![false; cells],
            consecutive_passes: 0,
            white_bonus: 0.0,
            white_handicap_bonus: 0.0,
            has_button: false,
            white_has_moved: false,
            game_finished: false,
            past_normal_phase_end: false,
            valid_turns: 0,
        };
        r.clear(next);
        r
    }

    /// Starts the history afresh from the current board with `next` to move.
    fn clear(&mut self, next: u8) {
        self.next = next;
        self.moves.clear();
        self.initial = self.board.clone();
        for b in &mut self.recent {
            b.clone_from(&self.board);
        }
        for p in self.board.points() {
            self.ever_occupied[p] = self.board.cells[p] != EMPTY;
        }
        self.seen = vec![self.situation(next)];
        self.passed_in = Default::default();
        self.consecutive_passes = 0;
        self.valid_turns = 0;
        self.white_bonus = 0.0;
        if self.rules.scoring() == Scoring::Territory {
            // Territory is area less the stones each side placed, captured ones included.
            let b = &self.board;
            let placed = |c: u8| (b.count(c) + b.captured[usize::from(c)] as usize) as f32;
            self.white_bonus = placed(BLACK) - placed(WHITE);
        }
        self.white_has_moved = false;
        self.white_handicap_bonus = self.handicap_bonus();
        self.has_button = self.rules.button;
        self.game_finished = false;
        self.past_normal_phase_end = false;
    }

    fn situation(&self, to_move: u8) -> Situation {
        let player = match self.rules.game.ko {
            KoRule::Positional => 0,
            KoRule::Simple | KoRule::Situational => to_move,
        };
        (self.board.position(), player)
    }

    /// The board `ago` moves back (0: now), or the one the history started from.
    pub(crate) fn recent(&self, ago: usize) -> &Board {
        &self.recent[ago]
    }

    /// Plays a move: one on an empty point that is not a lone stone's suicide, the only
    /// moves the engine accepts.
    pub(crate) fn play(&mut self, pla: u8, loc: Option<Loc>) {
        if pla != self.next {
            self.board.ko = super::board::NO_LOC;
            self.clear(pla);
        }
        if self.game_finished || self.past_normal_phase_end {
            self.valid_turns = self.valid_turns.min(1);
        }
        self.game_finished = false;
        self.past_normal_phase_end = false;

        let mut repeated_pass = false;
        match loc {
            Some(_) => self.consecutive_passes = 0,
            None if self.has_button => {
                self.has_button = false;
                self.white_bonus += if pla == WHITE { 0.5 } else { -0.5 };
                self.consecutive_passes = 0;
                self.passed_in = Default::default();
                self.seen.clear();
            }
            None => {
                // Under simple ko a pass lifts every repetition ban, and a player passing
                // again in the same position ends the phase.
                if self.rules.game.ko == KoRule::Simple {
                    self.seen.clear();
                }
                let here = self.board.position();
                self.consecutive_passes += 1;
                let passed = &mut self.passed_in[usize::from(pla)];
                repeated_pass = self.rules.game.ko == KoRule::Simple && passed.contains(&here);
                passed.push(here);
            }
        }

        match loc {
            Some(l) => self.board.play(l, pla),
            None => self.board.pass(),
        }
        self.recent.rotate_right(1);
        self.recent[0].clone_from(&self.board);
        self.seen.push(self.situation(opp(pla)));
        self.moves.push((pla, loc));
        self.valid_turns += 1;
        self.next = opp(pla);
        if let Some(l) = loc {
            self.ever_occupied[l] = true;
            if self.rules.scoring() == Scoring::Territory {
                self.white_bonus += if pla == BLACK { 1.0 } else { -1.0 };
            }
            if pla == WHITE {
                self.white_has_moved = true;
            }
        }
        if !self.white_has_moved
            && pla == BLACK
            && self.rules.game.handicap_bonus != HandicapBonus::Zero
        {
            self.white_handicap_bonus = self.handicap_bonus();
        }

        if self.consecutive_passes >= 2 || repeated_pass {
            match self.rules.scoring() {
                Scoring::Area => {
                    if self.has_button {
                        self.has_button = false;
                        self.white_bonus += if self.next == WHITE { 0.5 } else { -0.5 };
                    }
                    self.game_finished = true;
                }
                Scoring::Territory => {
                    self.past_normal_phase_end = true;
                    self.valid_turns = self.valid_turns.min(1);
                }
            }
        }
        if loc.is_some() && self.rules.game.ko == KoRule::Simple {
            let now = &self.seen[self.seen.len() - 1];
            if self.seen.iter().filter(|s| *s == now).count() >= 3 {
                self.game_finished = true;
            }
        }
    }

    /// KataGo's handicap count: black stones on the starting board (if it has no white
    /// ones) plus black's opening moves before white's first real move, when more than one.
    fn handicap_bonus(&self) -> f32 {
        let mut black_moves = 0;
        for (i, &(pla, loc)) in self.moves.iter().enumerate() {
            if pla != BLACK {
                if self.moves.get(i + 1).is_some_and(|&(p, _)| p != BLACK) {
                    black_moves = 0;
                    break;
                }
                if loc.is_none() {
                    continue;
                }
                break;
            }
            if loc.is_some() {
                black_moves += 1;
            }
        }
        let stones = if self.initial.count(WHITE) != 0 {
            0
        } else {
            match self.initial.count(BLACK) + black_moves {
                n if n <= 1 => 0,
                n => n,
            }
        };
        match self.rules.game.handicap_bonus {
            HandicapBonus::Zero => 0.0,
            HandicapBonus::N => stones as f32,
            HandicapBonus::NMinusOne => stones.saturating_sub(1) as f32,
        }
    }

    /// Komi from the view of `pla`: positive is good for `pla`. Draws count half a win, so
    /// there is no draw adjustment.
    pub(crate) fn self_komi(&self, pla: u8) -> f32 {
        let white = self.white_bonus + self.white_handicap_bonus + self.komi;
        if pla == WHITE {
            white
        } else {
            -white
        }
    }

    /// Whether a pass now would end the phase: it would be the second in a row, or under
    /// simple ko the player to move already passed in this very position.
    pub(crate) fn pass_would_end_phase(&self) -> bool {
        self.consecutive_passes + 1 >= 2 || self.pass_repeats()
    }

    fn pass_repeats(&self) -> bool {
        self.rules.game.ko == KoRule::Simple
            && self.passed_in[usize::from(self.next)].contains(&self.board.position())
    }

    /// Under area scoring the end of the phase is the end of the game.
    pub(crate) fn pass_would_end_game(&self) -> bool {
        self.pass_would_end_phase() && self.rules.scoring() == Scoring::Area
    }

    /// Whether the search would not let a pass end the game, rules being lenient about
    /// dead stones left on the board.
    pub(crate) fn friendly_pass_suppressed(&self) -> bool {
        self.rules.friendly_pass_ok
            && self.rules.scoring() == Scoring::Area
            && self.consecutive_passes + 1 == 2
            && !self.pass_repeats()
    }

    /// Points where the player to move may not play because the position would repeat
    /// (positional or situational superko), beyond the simple-ko point. Only the last move
    /// sets them, so none are banned before the first move.
    pub(crate) fn superko_bans(&self) -> Vec<bool> {
        let b = &self.board;
        let mut banned = vec![false; b.cells.len()];
        if self.rules.game.ko == KoRule::Simple || self.moves.is_empty() {
            return banned;
        }
        let pla = self.next;
        for p in b.points() {
            if b.cells[p] != EMPTY
                || (!self.ever_occupied[p] && !b.is_suicide(p, pla))
                || b.is_illegal_suicide(p, pla, self.rules.game.suicide)
                || p == b.ko
            {
                continue;
            }
            let mut after = b.clone();
            after.play(p, pla);
            let player = if self.rules.game.ko == KoRule::Positional {
                0
            } else {
                opp(pla)
            };
            let key = (after.position(), player);
            banned[p] = self.seen.contains(&key);
        }
        banned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::Rules;

    /// Rules no query of this tool sets, reached only through the library: AGA's with the
    /// button, and with each handicap bonus.
    fn aga(button: bool, bonus: HandicapBonus) -> KataRules {
        let aga = KataRules::from_name("aga").unwrap();
        KataRules {
            button,
            game: Rules {
                handicap_bonus: bonus,
                ..aga.game
            },
            ..aga
        }
    }

    #[test]
    fn the_first_pass_takes_the_button_and_half_a_point() {
        let mut r = History::new(Board::new(9), BLACK, aga(true, HandicapBonus::Zero), 7.0);
        assert_eq!(r.self_komi(WHITE), 7.0);
        assert!(r.has_button);
        r.play(BLACK, None);
        // Black took the button: half a point to Black, and the pass ends nothing.
        assert!(!r.has_button);
        assert_eq!(r.self_komi(WHITE), 6.5);
        assert_eq!(r.consecutive_passes, 0);
        r.play(WHITE, None);
        r.play(BLACK, None);
        assert!(
            r.game_finished,
            "two passes after the button end an area game"
        );
        assert_eq!(r.self_komi(WHITE), 6.5, "the button is taken once");
    }

    #[test]
    fn white_passing_first_takes_the_button_and_its_half_point() {
        let mut r = History::new(Board::new(9), BLACK, aga(true, HandicapBonus::Zero), 7.0);
        let e5 = r.board.loc(4, 4);
        r.play(BLACK, Some(e5));
        assert!(r.has_button);
        // White passes first: the button and its half point are White's; two more passes
        // end the game.
        r.play(WHITE, None);
        assert_eq!(r.self_komi(WHITE), 7.5);
        r.play(BLACK, None);
        r.play(WHITE, None);
        assert!(r.game_finished);
    }

    #[test]
    fn handicap_stones_earn_white_n_or_n_minus_one() {
        let mut board = Board::new(9);
        for (x, y) in [(2, 2), (6, 6), (2, 6), (6, 2)] {
            let l = board.loc(x, y);
            board.play(l, BLACK);
        }
        for (bonus, want) in [
            (HandicapBonus::Zero, 0.5),
            (HandicapBonus::N, 4.5),
            (HandicapBonus::NMinusOne, 3.5),
        ] {
            let r = History::new(board.clone(), WHITE, aga(false, bonus), 0.5);
            assert_eq!(r.self_komi(WHITE), want, "{bonus:?}");
        }
        // One black stone is no handicap.
        let mut one = Board::new(9);
        let l = one.loc(4, 4);
        one.play(l, BLACK);
        let r = History::new(one, WHITE, aga(false, HandicapBonus::N), 0.5);
        assert_eq!(r.self_komi(WHITE), 0.5);
    }

    #[test]
    fn black_opening_moves_while_white_passes_count_as_handicap() {
        let mut r = History::new(Board::new(9), BLACK, aga(false, HandicapBonus::N), 0.5);
        let points = [(2, 2), (6, 6), (2, 6)];
        for (i, (x, y)) in points.into_iter().enumerate() {
            let l = r.board.loc(x, y);
            r.play(BLACK, Some(l));
            if i + 1 < points.len() {
                r.play(WHITE, None);
            }
        }
        assert_eq!(r.self_komi(WHITE), 3.5);
        // White's first real move ends the count: Black's later stones add nothing.
        let w = r.board.loc(4, 4);
        r.play(WHITE, Some(w));
        let b = r.board.loc(6, 2);
        r.play(BLACK, Some(b));
        assert_eq!(r.self_komi(WHITE), 3.5);
    }
}
