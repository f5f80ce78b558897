//! Finishing a record before counting it (scoring-spec §2).
//!
//! Professional records stop before the dame phase: the neutral points are open and the moves
//! their filling forces are not played. Counting such a position as it stands misses the
//! points those moves take. `finish` plays them the way both players would, deterministically
//! and without looking at RE: the side to move first, then in turn, each side
//! 1. saves a block of its own the last move left in atari (capturing the attacker when it
//!    can, else extending, which inside its own territory is teire), but not a block that
//!    only dead stones hold (`held_by_dead`) nor one whose capture is a snapback
//!    (`snapback`);
//! 2. else captures an opponent block the record left in atari that its owner could not
//!    save (`capture`);
//! 3. else captures dead stones in atari that their owner could now connect to a living
//!    block with their last liberty (`cut_off`): a dame fill opened that way out;
//! 4. else, when the opponent could play on one of the two liberties of a block of its own
//!    and leave it in atari beyond saving, at once or by a ladder, connects first (`defend`),
//!    or, where no move does that, starts taking the dead stones beside it (`approach`),
//!    unless only dead stones hold that block;
//! 5. else fills a dame (`fill`): first one that puts an opponent block in atari (the
//!    opponent must answer, often inside its own territory), then one the opponent would
//!    fill to put a block of its own in atari; never one that leaves its own block with one
//!    liberty or an opponent block that lives with no way to save it;
//! 6. else captures dead stones in atari that keep it from filling a dame (`make_room`);
//! 7. else captures a block called alive that the finishing left in atari beyond saving
//!    (`take_last`): a finish does not end with the side to move able to take it;
//! 8. else passes; two passes in a row end it, unless the dame found again then are new
//!    (the inner points of a neutral region touch both colours once its border is filled):
//!    then the steps go on. A record whose first passes leave open borders is not filled
//!    further (`Finishing::run`).
//!
//! Dead stones stay on the board while this runs, as they do in a game: they take liberties
//! from the walls around them, and a wall short of liberties must capture them or connect
//! (the captures that shortage of liberties forces). Whatever dead stones are left when it
//! ends are removed by the count.

use super::count::EmptyRegions;
use super::fast_board::FastBoard;
use super::OPEN_BORDERS;
use crate::go::board::{Board, Cell, Color, Idx};

/// What made a finish uncertain: the count that follows may differ from the players'.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Unsure {
    /// A move the finishing wanted was a ko retake.
    pub ko: bool,
    /// Neutral points were left that neither side can fill safely (shared liberties).
    pub seki: bool,
    /// A block called alive was left in atari and could not be saved.
    pub race: bool,
    /// The count changes when the other side starts the finishing: a dame one side fills
    /// in sente, which the record does not say who takes (`score::finish_and_count`).
    pub order: bool,
}

impl Finished {
    /// Stones played.
    pub fn moves(&self) -> u32 {
        self.played.len() as u32
    }
}

impl Unsure {
    pub fn any(self) -> bool {
        self.reading() || self.order
    }

    /// Whether the finish is uncertain for what it reads (a ko, a seki, a race), which can
    /// move the count by any amount; the order of the finishing moves moves it by the
    /// points a sente dame decides, and both counts are known.
    pub fn reading(self) -> bool {
        self.ko || self.seki || self.race
    }

    /// The flags set, space-separated, in a fixed order; empty when none is.
    pub fn words(self) -> String {
        let mut out = Vec::new();
        let flags = [
            (self.ko, "ko"),
            (self.seki, "seki"),
            (self.race, "race"),
            (self.order, "order"),
        ];
        for (set, word) in flags {
            if set {
                out.push(word);
            }
        }
        out.join(" ")
    }
}

/// Why the finishing played a move: the step of `finish` that chose it (the module's text).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Saves a block of the mover's left in atari (`save`).
    Save,
    /// Captures a block the record left in atari that its owner could not save (`capture`),
    /// or one the finishing left so (`take_last`).
    Capture,
    /// Captures dead stones whose owner could connect them out (`cut_off`).
    CutOff,
    /// Connects a block of two liberties the opponent could kill (`defend`).
    Defend,
    /// Fills a dame (`fill`).
    Dame,
    /// Captures dead stones that keep the mover from filling a dame (`make_room`).
    MakeRoom,
}

impl Why {
    /// The word `show` prints after the move.
    pub fn as_str(self) -> &'static str {
        match self {
            Why::Save => "save",
            Why::Capture => "capture",
            Why::CutOff => "cut off",
            Why::Defend => "defend",
            Why::Dame => "dame",
            Why::MakeRoom => "make room",
        }
    }
}

/// A finished position.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The position after the finishing moves.
    pub board: Board,
    /// The dead stones still standing on it, in index order.
    pub dead: Vec<Idx>,
    /// Stones each colour captured while finishing (Black's captures first).
    pub captures: [u32; 2],
    /// The stones played, in order (passes left out), and why.
    pub played: Vec<(Color, Idx, Why)>,
    pub unsure: Unsure,
    /// Where the finish became unsure, in the order found: the first stone of each block
    /// called alive that no single move saves or defends (`race`), each ko point it could
    /// not take (`ko`), each neutral point left between blocks in seki (`seki`).
    pub unsure_at: Vec<Idx>,
    /// Neutral points of the finished position that no dame fill reaches: the inner points
    /// of open neutral regions, where the record stopped before the borders were closed.
    pub open: u32,
}

/// What became of a block by the end of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FinalStatus {
    Alive,
    /// Alive without eyes of its own: it shares liberties that neither side can fill.
    Seki,
    Dead,
}

impl FinalStatus {
    pub const ALL: [FinalStatus; 3] = [FinalStatus::Alive, FinalStatus::Seki, FinalStatus::Dead];

    pub fn as_str(self) -> &'static str {
        match self {
            FinalStatus::Alive => "alive",
            FinalStatus::Seki => "seki",
            FinalStatus::Dead => "dead",
        }
    }

    /// Whether the block is on the board when the game is counted.
    pub fn lives(self) -> bool {
        self != FinalStatus::Dead
    }
}

/// The final status of each stone of `start` (`None` on empty points): dead when `dead`
/// names it or the finish captured it; seki when its block in `end` (the finished position,
/// `end_dead` its dead stones still standing) touches an empty point of no one's territory
/// that neither side can fill without putting its own block in atari; alive otherwise.
pub fn final_status(
    start: &Board,
    dead: &[Idx],
    end: &Board,
    end_dead: &[Idx],
) -> Vec<Option<FinalStatus>> {
    let mut settled = end.clone();
    for &i in end_dead {
        settled.setup(end.point(i), None).expect("on-board point");
    }
    let regions = EmptyRegions::find(&settled);
    let g = FastBoard::from_board(&settled);
    let shared = |p: Idx| {
        settled.cell(p) == Cell::Empty
            && regions.owner(p).is_none()
            && !g.fills_safely(Color::Black, p)
            && !g.fills_safely(Color::White, p)
    };
    let mut seki_heads = Vec::new();
    for p in settled.points().filter(|&p| shared(p)) {
        for n in settled.neighbours(p) {
            if let Cell::Stone(_) = g.cell(n) {
                seki_heads.push(g.head(n));
            }
        }
    }
    let mut is_dead = vec![false; start.cell_count()];
    for &i in dead {
        is_dead[i] = true;
    }
    let mut out = vec![None; start.cell_count()];
    for i in start.points() {
        let Cell::Stone(c) = start.cell(i) else {
            continue;
        };
        out[i] = Some(if is_dead[i] || settled.cell(i) != Cell::Stone(c) {
            FinalStatus::Dead
        } else if seki_heads.contains(&g.head(i)) {
            FinalStatus::Seki
        } else {
            FinalStatus::Alive
        });
    }
    out
}

/// No finish plays more moves than this many per board point: a safety bound, far above what
/// filling a board's dame takes.
const MOVES_PER_POINT: usize = 1;

/// Plays out what the record left open (see the module's text), from `board` with `dead`
/// stones dead and `to_move` to play.
pub fn finish(board: &Board, dead: &[Idx], to_move: Color) -> Finished {
    let n = board.cell_count();
    let mut is_dead = vec![false; n];
    for &i in dead {
        is_dead[i] = true;
    }
    let mut bare = board.clone();
    for &i in dead {
        bare.setup(board.point(i), None).expect("on-board point");
    }
    let regions = EmptyRegions::find(&bare);
    let g = FastBoard::from_board(board);
    // Stones of blocks called alive that the record leaves in atari, but not by dead stones.
    let mut left_in_atari = vec![false; n];
    for i in board.points() {
        if board.cell(i) == Cell::Empty || is_dead[i] || !g.in_atari(i) || left_in_atari[i] {
            continue;
        }
        let stones = g.stones(i);
        let by_dead = stones
            .iter()
            .any(|&s| board.neighbours(s).iter().any(|&nb| is_dead[nb]));
        if !by_dead {
            stones.iter().for_each(|&s| left_in_atari[s] = true);
        }
    }
    let mut f = Finishing {
        start: board,
        open: None,
        regions,
        left_in_atari,
        g,
        is_dead,
        played: Vec::new(),
        doubt: Doubt::default(),
        captures: [0, 0],
    };
    f.run(to_move);
    f.into_finished()
}

/// A finish under way: the position the finishing moves made, what is still dead, and what
/// was played.
struct Finishing<'a> {
    /// The record's final position, where the finish started.
    start: &'a Board,
    /// The empty regions of the position with its dead stones removed: its dame, and who
    /// owns each point. Found again whenever both sides pass (`run`).
    regions: EmptyRegions,
    /// Stones of blocks called alive that the record left in atari (`capture`).
    left_in_atari: Vec<bool>,
    /// Neutral points that no dame fill reached when both sides first passed.
    open: Option<u32>,
    g: FastBoard,
    is_dead: Vec<bool>,
    played: Vec<(Color, Idx, Why)>,
    doubt: Doubt,
    captures: [u32; 2],
}

/// What made a finish under way unsure, and where (`Finished::unsure_at`).
#[derive(Debug, Default, PartialEq, Eq)]
struct Doubt {
    flags: Unsure,
    at: Vec<Idx>,
}

impl Doubt {
    /// A block of `g` at `h`, called alive, that no single move saves or defends.
    fn race(&mut self, g: &FastBoard, h: Idx) {
        self.flags.race = true;
        let first = g.stones(h).into_iter().min().unwrap_or(h);
        self.note(first);
    }

    /// A ko point a saving capture cannot take now.
    fn ko(&mut self, at: Idx) {
        self.flags.ko = true;
        self.note(at);
    }

    fn note(&mut self, at: Idx) {
        if !self.at.contains(&at) {
            self.at.push(at);
        }
    }
}

impl Finishing<'_> {
    /// Steps 1–7 in turn from `side` until both sides pass. Then the dame are found again:
    /// filling the points of a neutral region that touch both colours leaves its inner
    /// points touching both, and a fill there can still force a teire. The steps go on while
    /// that finds new dame, unless the first passes left open borders (`open`): a record
    /// stopped mid-game, whose open areas no filling of the players' can be guessed for.
    fn run(&mut self, mut side: Color) {
        let mut passes = 0;
        // How many stones stood played when the dame were last found.
        let mut found_after = None;
        let limit = MOVES_PER_POINT * usize::from(self.start.size()).pow(2);
        while self.played.len() < limit {
            if passes == 2 {
                if found_after == Some(self.played.len()) {
                    break;
                }
                found_after = Some(self.played.len());
                let regions = EmptyRegions::find(&self.settled());
                let open = *self.open.get_or_insert(regions.kept_count());
                if open >= OPEN_BORDERS || regions.dame == self.regions.dame {
                    break;
                }
                self.regions = regions;
                passes = 0;
            }
            match self.choose(side) {
                Some((i, why)) => {
                    self.play(side, i, why);
                    passes = 0;
                }
                None => {
                    self.g.pass();
                    passes += 1;
                }
            }
            side = side.opponent();
        }
    }

    /// The move of steps 1–7 for `side`, with the step that chose it.
    fn choose(&mut self, side: Color) -> Option<(Idx, Why)> {
        let dame = &self.regions.dame;
        let why = |w: Why| move |i: Idx| (i, w);
        save(&mut self.g, side, &self.is_dead, &mut self.doubt)
            .map(why(Why::Save))
            .or_else(|| capture(&self.g, side, &self.left_in_atari).map(why(Why::Capture)))
            .or_else(|| cut_off(&self.g, side, &self.is_dead).map(why(Why::CutOff)))
            .or_else(|| {
                defend(&mut self.g, side, &self.is_dead, &mut self.doubt).map(why(Why::Defend))
            })
            .or_else(|| fill(&self.g, side, dame, &self.is_dead).map(why(Why::Dame)))
            .or_else(|| make_room(&mut self.g, side, dame, &self.is_dead).map(why(Why::MakeRoom)))
            .or_else(|| take_last(&self.g, side, &self.is_dead).map(why(Why::Capture)))
    }

    /// Plays `side` at `i`. Dead stones it captures are off the board, so no longer dead.
    fn play(&mut self, side: Color, i: Idx, why: Why) {
        self.captures[side.index()] += self.g.play(side, i);
        for &p in self.g.captured() {
            self.is_dead[p] = false;
        }
        self.played.push((side, i, why));
    }

    /// The record's final position with the finishing moves played.
    fn board(&self) -> Board {
        let mut out = self.start.clone();
        for &(c, i, _) in &self.played {
            out.play(c, self.start.point(i))
                .expect("a legal finishing move");
        }
        out
    }

    /// The position now, with the dead stones still standing removed.
    fn settled(&self) -> Board {
        let out = self.board();
        let mut settled = out.clone();
        for i in self.dead(&out) {
            settled.setup(out.point(i), None).expect("on-board point");
        }
        settled
    }

    /// The dead stones still standing on `out`, in index order.
    fn dead(&self, out: &Board) -> Vec<Idx> {
        (0..out.cell_count())
            .filter(|&i| self.is_dead[i] && out.cell(i) != Cell::Empty)
            .collect()
    }

    fn into_finished(mut self) -> Finished {
        let out = self.board();
        let dead = self.dead(&out);
        let seki: Vec<Idx> = self
            .regions
            .dame
            .iter()
            .copied()
            .filter(|&i| self.g.cell(i) == Cell::Empty && self.regions.owner(i).is_none())
            .collect();
        self.doubt.flags.seki = !seki.is_empty();
        seki.into_iter().for_each(|i| self.doubt.note(i));
        let open = self
            .open
            .unwrap_or_else(|| EmptyRegions::find(&self.settled()).kept_count());
        Finished {
            board: out,
            dead,
            captures: self.captures,
            played: self.played,
            unsure: self.doubt.flags,
            unsure_at: self.doubt.at,
            open,
        }
    }
}

/// A capture of dead stones that lets `side` fill a dame it could not fill safely: a dead
/// opponent block in atari beside a living block of `side` that touches an open dame. The
/// dead stones take that block's liberties, so the dame would leave it in atari; taking them
/// first is what the players do, inside their own area.
fn make_room(g: &mut FastBoard, side: Color, dame: &[Idx], is_dead: &[bool]) -> Option<Idx> {
    let mut mine = Vec::new();
    let mut theirs = Vec::new();
    for &d in dame {
        if g.cell(d) != Cell::Empty {
            continue;
        }
        for n in g.neighbours(d) {
            if g.cell(n) == Cell::Stone(side) && !is_dead[n] && !mine.contains(&g.head(n)) {
                mine.push(g.head(n));
            }
        }
    }
    for h in mine {
        g.neighbour_blocks(h, side.opponent(), &mut theirs);
        for &o in &theirs {
            if is_dead[o] && g.in_atari(o) {
                let l = g.atari_liberty(o);
                if g.is_legal(side, l) {
                    return Some(l);
                }
            }
        }
    }
    None
}

/// Whether `side` may play `l` without its stone standing in atari after: a capture that
/// is not a ko or a snapback.
fn takes_safely(g: &FastBoard, side: Color, l: Idx) -> bool {
    g.is_legal(side, l) && {
        let mut after = g.clone();
        after.play(side, l);
        !after.in_atari(l)
    }
}

/// A move of `side` that captures an opponent block that the record left in atari
/// (`left_in_atari`: stones not called dead, in atari but not by dead stones, which their
/// owner takes when it must) and that is still in atari: its owner could not
/// save it (`save` runs first), so the opponent takes it, as any player would before the
/// game ends. Not when the capturing stone is left in atari: a ko or a snapback, which the
/// players settled otherwise. Blocks that finishing moves put in atari are taken only when
/// nothing else is left to play (`take_last`).
fn capture(g: &FastBoard, side: Color, left_in_atari: &[bool]) -> Option<Idx> {
    g.heads(side.opponent())
        .into_iter()
        .filter(|&h| left_in_atari[h] && g.in_atari(h))
        .map(|h| g.atari_liberty(h))
        .find(|&l| takes_safely(g, side, l))
}

/// A move of `side`, when nothing else is left to play, that captures an opponent block
/// called alive and standing in atari, its owner unable to save it (no `saving_moves`, no
/// `snapback`), the block `save` calls a lost race: a race the finishing
/// moves settled (a `defend` or `approach` move, or a dame that filled a shared liberty),
/// which no game ends with, since the side to move takes it. Ending there instead would
/// count the block as living while the file shows it in atari, and a count of that file
/// from the other side would take it. Not a block beside dead stones of `side` (they come
/// off at the count, and the block then has liberties), nor when the capturing stone is
/// left in atari (a ko or a snapback, which the players settled otherwise).
fn take_last(g: &FastBoard, side: Color, is_dead: &[bool]) -> Option<Idx> {
    let o = side.opponent();
    g.heads(o)
        .into_iter()
        .filter(|&h| {
            !is_dead[h]
                && g.in_atari(h)
                && g.stones(h).into_iter().all(|s| {
                    g.neighbours(s)
                        .into_iter()
                        .all(|n| g.cell(n) != Cell::Stone(side) || !is_dead[n])
                })
                && !snapback(g, h, o)
                && saving_moves(&mut g.clone(), h, o, &mut Doubt::default()).is_empty()
        })
        .map(|h| g.atari_liberty(h))
        .find(|&l| takes_safely(g, side, l))
}

/// A move of `side` that captures a dead opponent block in atari before its owner connects
/// it: its last liberty touches a living block of the owner, and the owner playing there
/// would leave the joined block more than one liberty. The estimate calls such stones dead
/// when their only way out is a dame (`estimate`'s `behind_a_dame`); once that dame is
/// filled they are no longer dead unless taken, and the players take them, inside their
/// own area.
fn cut_off(g: &FastBoard, side: Color, is_dead: &[bool]) -> Option<Idx> {
    let o = side.opponent();
    g.heads(o).into_iter().find_map(|h| {
        if !is_dead[h] || !g.in_atari(h) {
            return None;
        }
        let l = g.atari_liberty(h);
        let joins = g
            .neighbours(l)
            .into_iter()
            .any(|n| g.cell(n) == Cell::Stone(o) && !is_dead[n]);
        if !joins || !g.is_legal(o, l) || !g.is_legal(side, l) {
            return None;
        }
        let mut after = g.clone();
        after.play(o, l);
        (!after.in_atari(l)).then_some(l)
    })
}

/// A move of `side` that saves a block of its own left in atari (none for a block
/// `held_by_dead` or one whose capture is a `snapback`); a block it cannot save makes the
/// finish unsure.
fn save(g: &mut FastBoard, side: Color, is_dead: &[bool], doubt: &mut Doubt) -> Option<Idx> {
    for h in g.heads(side) {
        if is_dead[h] || !g.in_atari(h) || held_by_dead(g, h, side, is_dead) || snapback(g, h, side)
        {
            continue;
        }
        match saving_move(g, h, side, doubt) {
            Some(m) => return Some(m),
            None => doubt.race(g, h),
        }
    }
    None
}

/// Whether every opponent stone beside `side`'s block at `h` is dead. Their side gains
/// nothing by capturing it: the capturing stone stands inside `side`'s area as dead as the
/// rest, a prisoner for a prisoner, while saving the block would cost `side` a point of its
/// territory. The players leave such a block as it is, and the dead stones come off at the
/// count.
fn held_by_dead(g: &FastBoard, h: Idx, side: Color, is_dead: &[bool]) -> bool {
    let o = side.opponent();
    g.stones(h).into_iter().all(|s| {
        g.neighbours(s)
            .into_iter()
            .all(|n| g.cell(n) != Cell::Stone(o) || is_dead[n])
    })
}

/// Whether the opponent's capture of `side`'s block at `h`, in atari, is a snapback
/// (`snapped_back`), so the block needs no saving.
fn snapback(g: &FastBoard, h: Idx, side: Color) -> bool {
    let l = g.atari_liberty(h);
    g.is_legal(side.opponent(), l) && snapped_back(g, side.opponent(), l)
}

/// Whether `c` playing at `l` is snapped back: its block there is left in atari and the
/// opponent takes it back at once, more than one stone, so no ko stops it.
fn snapped_back(g: &FastBoard, c: Color, l: Idx) -> bool {
    let mut after = g.clone();
    after.play(c, l);
    if !after.in_atari(l) {
        return false;
    }
    let back = after.atari_liberty(l);
    after.is_legal(c.opponent(), back) && after.play(c.opponent(), back) > 1
}

/// A move of `side` that keeps a block of its own with two liberties from being killed: the
/// opponent could play on one of them without being captured at once (it keeps two
/// liberties, or captures) and leave the block in atari with no way to save it, at once or
/// down a ladder (`killable`). Such a block is short of liberties (a cutting point or a false
/// eye inside the wall, dead stones beside it), and its owner connects first: inside its own
/// area that is teire. The move is the first that leaves no such attack, of the two
/// liberties, then the liberties of the opponent blocks beside the block or beside those
/// liberties that have at most two, or three when they are dead (dead stones whose capture
/// gives it room: a liberty of theirs that the block does not share can be the only
/// defence). It is not
/// played for a block that only dead stones hold (`held_by_dead`): the stones that would
/// chase it stand as dead as those, and its capture costs the owner a prisoner where the
/// connection costs a point. Where no single move defends the block, the first move of
/// taking the dead stones beside it is played (`approach`). A block that no single move
/// defends, held by dead stones or not, makes the finish unsure: where its neighbours are
/// called dead wrongly, that is where the count goes wrong.
fn defend(g: &mut FastBoard, side: Color, is_dead: &[bool], doubt: &mut Doubt) -> Option<Idx> {
    let mut libs = Vec::new();
    for h in g.heads(side) {
        if is_dead[h] {
            continue;
        }
        g.liberties(h, 2, &mut libs);
        if libs.len() != 2 {
            continue;
        }
        let pair = [libs[0], libs[1]];
        if !killable(g, h, side, pair) {
            continue;
        }
        let mut defended = None;
        for x in defences(g, h, side, pair, is_dead) {
            if !g.is_legal(side, x) || g.self_atari(side, x) {
                continue;
            }
            let mut after = g.clone();
            after.play(side, x);
            after.liberties(h, 2, &mut libs);
            if libs.len() > 2
                || (libs.len() == 2 && !killable(&mut after, h, side, [libs[0], libs[1]]))
            {
                defended = Some(x);
                break;
            }
        }
        if held_by_dead(g, h, side, is_dead) {
            if defended.is_none() {
                doubt.race(g, h);
            }
            continue;
        }
        if defended.is_some() {
            return defended;
        }
        // Taking the dead stones settles a race they would win: the count is only as
        // sure as their verdict.
        doubt.race(g, h);
        if let Some(x) = approach(g, h, side, pair, is_dead) {
            return Some(x);
        }
    }
    None
}

/// Where no single move defends `side`'s block at `h` (two liberties, `pair`), the first
/// move of taking the dead opponent stones beside it: a liberty of theirs that the block
/// does not share, legal and no self-atari. Dead stones with more liberties than the block
/// win the race they share with it unless they are taken, and the players take them, one
/// teire at a time, until a single move defends (`defences`): Oza/31/Oza-1983-r2a, Black
/// at H8 and K9 against White's dead stones in the centre, 54 points off RE before, 4 after.
fn approach(
    g: &mut FastBoard,
    h: Idx,
    side: Color,
    pair: [Idx; 2],
    is_dead: &[bool],
) -> Option<Idx> {
    let (mut around, mut libs) = (Vec::new(), Vec::new());
    g.neighbour_blocks(h, side.opponent(), &mut around);
    for o in around.into_iter().filter(|&o| is_dead[o]) {
        g.liberties(o, usize::MAX, &mut libs);
        let first = libs
            .iter()
            .copied()
            .find(|&l| !pair.contains(&l) && g.is_legal(side, l) && !g.self_atari(side, l));
        if first.is_some() {
            return first;
        }
    }
    None
}

/// The moves that may defend `side`'s block at `h`, with two liberties `pair`, in the order
/// tried (see `defend`).
fn defences(g: &mut FastBoard, h: Idx, side: Color, pair: [Idx; 2], is_dead: &[bool]) -> Vec<Idx> {
    let mut out = pair.to_vec();
    let mut blocks = Vec::new();
    g.neighbour_blocks(h, side.opponent(), &mut blocks);
    for x in pair {
        for n in g.neighbours(x) {
            if g.cell(n) == Cell::Stone(side.opponent()) && !blocks.contains(&g.head(n)) {
                blocks.push(g.head(n));
            }
        }
    }
    let mut libs = Vec::new();
    for o in blocks {
        g.liberties(o, 3, &mut libs);
        if libs.len() <= 2 || (libs.len() == 3 && is_dead[o]) {
            for &l in &libs {
                if !out.contains(&l) {
                    out.push(l);
                }
            }
        }
    }
    out
}

/// Whether the opponent, playing on one of the two liberties `pair` of `side`'s block at `h`,
/// leaves it in atari beyond saving without being left in atari itself: no saving move, or
/// every one leaves the block with two liberties that are killable the same way (a ladder),
/// read `LADDER_PLIES` deep and `LADDER_POSITIONS` wide.
fn killable(g: &mut FastBoard, h: Idx, side: Color, pair: [Idx; 2]) -> bool {
    let mut budget = LADDER_POSITIONS;
    killable_within(g, h, side, pair, LADDER_PLIES, &mut budget)
}

/// How many times `killable` follows a saved block that is left with two liberties.
const LADDER_PLIES: u32 = 8;
/// Positions one `killable` question may copy and read: a bound on crafted positions where
/// many saving moves branch at every ply. What it cannot read within it is not killable.
const LADDER_POSITIONS: u32 = 100;

fn killable_within(
    g: &mut FastBoard,
    h: Idx,
    side: Color,
    pair: [Idx; 2],
    depth: u32,
    budget: &mut u32,
) -> bool {
    let o = side.opponent();
    (0..2).any(|k| {
        let (x, y) = (pair[k], pair[1 - k]);
        // Extending on the other liberty to three liberties or more saves the block: read
        // without copying the board.
        if *budget == 0
            || !g.is_legal(o, x)
            || g.self_atari(o, x)
            || g.liberties_if_played(side, y, x, 3) >= 3
        {
            return false;
        }
        *budget -= 1;
        let mut after = g.clone();
        after.play(o, x);
        if after.cell(h) != Cell::Stone(side) || !after.in_atari(h) {
            return false;
        }
        let saves = saving_moves(&mut after, h, side, &mut Doubt::default());
        saves.is_empty()
            || depth > 0
                && saves.iter().all(|&s| {
                    let mut saved = after.clone();
                    saved.play(side, s);
                    let mut libs = Vec::new();
                    saved.liberties(h, 2, &mut libs);
                    libs.len() < 2
                        || (libs.len() == 2
                            && killable_within(
                                &mut saved,
                                h,
                                side,
                                [libs[0], libs[1]],
                                depth - 1,
                                budget,
                            ))
                })
    })
}

/// Every move that may save `side`'s block at `h`, in atari, in the order tried: captures of
/// the opponent blocks beside it in atari, then the extension where that leaves it more than
/// one liberty; none that is `snapped_back`. A capture that is a ko retake met before any of
/// them makes the finish unsure.
fn saving_moves(g: &mut FastBoard, h: Idx, side: Color, doubt: &mut Doubt) -> Vec<Idx> {
    let mut around = Vec::new();
    let mut out = Vec::new();
    g.neighbour_blocks(h, side.opponent(), &mut around);
    for &o in &around {
        if g.in_atari(o) {
            let l = g.atari_liberty(o);
            if !g.is_legal(side, l) {
                if out.is_empty() {
                    doubt.ko(l);
                }
            } else if !snapped_back(g, side, l) && !out.contains(&l) {
                out.push(l);
            }
        }
    }
    let l = g.atari_liberty(h);
    if g.is_legal(side, l)
        && !g.self_atari(side, l)
        && !snapped_back(g, side, l)
        && !out.contains(&l)
    {
        out.push(l);
    }
    out
}

/// The first of `saving_moves`.
fn saving_move(g: &mut FastBoard, h: Idx, side: Color, doubt: &mut Doubt) -> Option<Idx> {
    saving_moves(g, h, side, doubt).first().copied()
}

/// A dame `side` can fill safely: first one that puts a living opponent block in atari (the
/// answer is often teire), then one the opponent would fill to put a block of `side` in
/// atari (taking it first spares that answer), else the first in point order. A fill that leaves a living opponent block in atari with no way
/// to save it is no dame: the players agreed that block lives, so the point is one of its
/// last liberties (a seki or a race settled), not a point to fill.
fn fill(g: &FastBoard, side: Color, dame: &[Idx], is_dead: &[bool]) -> Option<Idx> {
    let mut first = None;
    let mut blocking = None;
    for &d in dame {
        if g.cell(d) != Cell::Empty || !g.fills_safely(side, d) {
            continue;
        }
        let mut forced: Vec<Idx> = g.ataris_by(side, d).filter(|&h| !is_dead[h]).collect();
        if forced.is_empty() {
            first = first.or(Some(d));
            if blocking.is_none()
                && g.fills_safely(side.opponent(), d)
                && g.ataris_by(side.opponent(), d).any(|h| !is_dead[h])
            {
                blocking = Some(d);
            }
            continue;
        }
        let mut after = g.clone();
        after.play(side, d);
        let mut ignored = Doubt::default();
        forced.retain(|&h| after.in_atari(h));
        let savable = forced.iter().all(|&h| {
            let mut one = after.clone();
            saving_move(&mut one, h, side.opponent(), &mut ignored).is_some()
        });
        if savable {
            return Some(d);
        }
    }
    blocking.or(first)
}

/// A 7×7 corner where Black filling the dame at dc leaves White's pair da-db short of
/// liberties: the position of the finishing tests here and of `score`'s.
#[cfg(test)]
pub(super) const CUTTING_POINT_CORNER: &str = "...OX..
                                               ...OX..
                                               OOO.X..
                                               ..OXX..
                                               OOOX...
                                               XXXX...
                                               .......";

/// Black's dead stones fc-fe in White's area, in atari at ec; ec's neighbour dc is a dame
/// between Black's wall and White's (7×7, `finish`'s test and `estimate`'s).
#[cfg(test)]
pub(super) const BEHIND_A_DAME: &str = "..XOOO.
                                        ..XOOOO
                                        ..X..XO
                                        ..XOOXO
                                        ..XOOXO
                                        ..XOOOO
                                        ..XO.O.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::count;

    fn at(b: &Board, s: &str) -> Idx {
        b.idx(crate::go::Point::from_sgf(s).unwrap()).unwrap()
    }

    /// Stones the finish added: `(colour, point)` in point order.
    fn added(before: &Board, f: &Finished) -> Vec<(Color, String)> {
        let mut out: Vec<(Color, String)> = before
            .points()
            .filter_map(|i| match (before.cell(i), f.board.cell(i)) {
                (Cell::Empty, Cell::Stone(c)) => Some((c, before.point(i).to_string())),
                _ => None,
            })
            .collect();
        out.sort_by(|a, b| a.1.cmp(&b.1));
        out
    }

    /// The finishing moves of `f`, played from `b`: colour, point and step, in order.
    fn played(b: &Board, f: &Finished) -> Vec<(Color, String, Why)> {
        f.played
            .iter()
            .map(|&(c, i, w)| (c, b.point(i).to_string(), w))
            .collect()
    }

    /// Area and territory points of each colour: stones plus territory, and territory.
    fn scores(b: &Board, dead: &[Idx]) -> ([u32; 2], [u32; 2]) {
        let c = count(b, dead);
        (
            [0, 1].map(|k| c.stones[k] + c.area_territory[k]),
            c.territory,
        )
    }

    /// Black's three dead stones fc-fe sit in White's area, in atari at ec. Their only way
    /// out is the dame dc beside Black's wall: once Black fills it, Black at ec would join
    /// them to the wall, so White takes them first, inside its own area.
    #[test]
    fn dead_stones_a_dame_fill_would_connect_are_taken_first() {
        let b = Board::from_ascii(BEHIND_A_DAME);
        let dead = [at(&b, "fc"), at(&b, "fd"), at(&b, "fe")];
        let f = finish(&b, &dead, Color::Black);
        assert_eq!(
            played(&b, &f),
            [
                (Color::Black, "dc".to_string(), Why::Dame),
                (Color::White, "ec".to_string(), Why::CutOff)
            ]
        );
        assert!(f.dead.is_empty());
        assert_eq!(f.captures, [0, 3]);
        let (_, territory_before) = scores(&b, &dead);
        let (_, territory_after) = scores(&f.board, &f.dead);
        // Counted as the record left it, their points reach Black's wall through the dame
        // and are no one's; taken, they are White's.
        assert_eq!(
            territory_after,
            [territory_before[0], territory_before[1] + 3]
        );
        // With the dame filled before the finish, White takes them at once.
        let mut filled = b.clone();
        filled
            .play(Color::Black, crate::go::Point::from_sgf("dc").unwrap())
            .unwrap();
        let f = finish(&filled, &dead, Color::White);
        assert_eq!(
            played(&filled, &f).first(),
            Some(&(Color::White, "ec".to_string(), Why::CutOff))
        );
    }

    /// Black fills the dame at dc; White's pair da-db is left with two liberties, ca and cb,
    /// and Black at cb would have two liberties of its own and leave the pair in atari with
    /// no escape: White must connect at ca first, inside its own corner. Territory counting
    /// loses White that point; area counting is unchanged.
    #[test]
    fn a_cutting_point_inside_the_wall_costs_a_point_of_territory() {
        let b = Board::from_ascii(CUTTING_POINT_CORNER);
        let f = finish(&b, &[], Color::Black);
        assert_eq!(
            added(&b, &f),
            [
                (Color::White, "ca".to_string()),
                (Color::Black, "dc".to_string())
            ]
        );
        assert_eq!((f.moves(), f.unsure), (2, Unsure::default()));
        // Black's dame first, then White's connection, each with the step that chose it.
        let whys: Vec<(Color, Why)> = f.played.iter().map(|&(c, _, w)| (c, w)).collect();
        assert_eq!(
            whys,
            [(Color::Black, Why::Dame), (Color::White, Why::Defend)]
        );
        let (area_before, territory_before) = scores(&b, &[]);
        let (area_after, territory_after) = scores(&f.board, &f.dead);
        assert_eq!(territory_after[1], territory_before[1] - 1);
        assert_eq!(territory_after[0], territory_before[0]);
        // The dame went to Black: one area point more, the teire changes White's nothing.
        assert_eq!(area_after, [area_before[0] + 1, area_before[1]]);
    }

    /// Black's block A2-E4 has two liberties, A1 and C3, both liberties of White's dead
    /// stones B1-D2 too, which have a third, C1. White at C3 would leave it in atari with no
    /// way out, and Black filling either of its own liberties is self-atari; C1, a liberty
    /// of the dead stones, leaves them two that White cannot fill without being captured.
    /// Black spends that point inside its own territory, whoever starts (the corner of
    /// Takagawa/Tak-0481, where the finish had said `race` and counted no teire).
    #[test]
    fn a_block_short_of_liberties_takes_one_from_the_dead_stones_beside_it() {
        let b = Board::from_ascii(DEAD_STONES_CORNER);
        for f in corner_finishes(&b, &[(Color::Black, "ci", Why::Defend)]) {
            assert_eq!(f.unsure, Unsure::default());
        }
    }

    /// Black's block A2-E4 beside White's dead stones B1-D2 in Black's corner
    /// (Takagawa/Tak-0481's shape).
    const DEAD_STONES_CORNER: &str = ".........
             .........
             OOOOOOOOO
             OOO.OO.OO
             OXXOOOO.O
             OXXXXOOOO
             XX.XOOXXX
             XOOOXOX.X
             .O.XXXXX.";

    /// Finishes `b`, with White's stones B1-D2 dead, from either side: each plays `moves`
    /// and costs Black a point of territory per move.
    fn corner_finishes(b: &Board, moves: &[(Color, &str, Why)]) -> Vec<Finished> {
        let dead: Vec<Idx> = ["bi", "bh", "ch", "dh"].iter().map(|p| at(b, p)).collect();
        let (_, before) = scores(b, &dead);
        let want: Vec<(Color, String, Why)> = moves
            .iter()
            .map(|&(c, p, w)| (c, p.to_string(), w))
            .collect();
        [Color::Black, Color::White]
            .into_iter()
            .map(|first| {
                let f = finish(b, &dead, first);
                assert_eq!(played(b, &f), want, "{first:?} first");
                let (_, after) = scores(&f.board, &f.dead);
                assert_eq!(after, [before[0] - moves.len() as u32, before[1]]);
                f
            })
            .collect()
    }

    /// The same corner with D1 open: White's dead stones have four liberties, and no single
    /// move defends Black's block (C1 is self-atari now). Black takes them a move at a
    /// time, D1 first, then C1 once they are down to three, two points of its territory;
    /// the finish says `race`, at the block, since its life hung on the dead stones.
    #[test]
    fn dead_stones_that_would_win_the_race_are_taken_a_move_at_a_time() {
        let b = Board::from_ascii(&DEAD_STONES_CORNER.replacen(".O.XXXXX.", ".O..XXXX.", 1));
        let moves = [
            (Color::Black, "di", Why::Defend),
            (Color::Black, "ci", Why::Defend),
        ];
        for f in corner_finishes(&b, &moves) {
            // The count is only as sure as the dead stones' verdict: Black's block had lost
            // the race unless it took them.
            assert_eq!(f.unsure.words(), "race");
            assert_eq!(f.unsure_at, [at(&b, "be")]);
        }
    }

    /// A neutral region of four points between the walls, D8 E8 E7 E6: its inner point E8
    /// touches Black's stones only until the points around it are filled, and is a dame
    /// then. The finish looks for dame again once both sides pass, so E8 is filled either
    /// way. White filling it leaves Black's three stones at the top with one liberty, and
    /// Black must connect at F9, inside its own area: a draw at komi 0 where counting E8 as
    /// no one's gave Black a point. When White starts, Black gets to E8 first and keeps the
    /// point. Area counting is the same either way.
    #[test]
    fn the_inner_point_of_a_neutral_region_is_a_dame_once_its_border_is_filled() {
        let b = Board::from_ascii(
            ".OXXX.X..
             O.O..X.X.
             .O.O.X.X.
             OO.O.XX..
             .OO.OX.X.
             OOOOOXXXX
             ....OX...
             ....OX...
             ....OX...",
        );
        let moves = |f: &Finished| played(&b, f);
        let dame = |c: Color, p: &str| (c, p.to_string(), Why::Dame);
        let (black, white) = (Color::Black, Color::White);
        let f = finish(&b, &[], black);
        assert_eq!(
            moves(&f),
            [
                dame(black, "db"),
                dame(white, "ec"),
                dame(black, "ed"),
                dame(white, "eb"),
                (black, "fa".to_string(), Why::Save),
            ]
        );
        assert_eq!(scores(&f.board, &f.dead), ([41, 40], [19, 19]));
        let g = finish(&b, &[], white);
        assert_eq!(
            moves(&g),
            [
                dame(white, "db"),
                dame(black, "ec"),
                dame(white, "ed"),
                dame(black, "eb"),
            ]
        );
        assert_eq!(scores(&g.board, &g.dead), ([41, 40], [20, 19]));
        assert_eq!((f.unsure, g.unsure), (Unsure::default(), Unsure::default()));
    }

    /// White's stone at bb has two liberties. Black at bc leaves it in atari, and White's one
    /// way out, cb, gives it two liberties again; Black at db then leaves no way out at all
    /// (White ca is self-atari): a ladder. One ply of reading calls the stone safe; the
    /// ladder read calls it killable, and White, to move, connects first. When the black
    /// stones beside it are dead, White does not: Black's chasing stones would stand in
    /// White's area as dead as the rest, and the capture would cost White a prisoner where
    /// the connection costs a point of territory.
    #[test]
    fn a_block_caught_in_a_ladder_is_defended() {
        let b = Board::from_ascii(
            ".X.....
             XO.....
             ..X....
             .......
             .......
             .......
             .......",
        );
        let g = FastBoard::from_board(&b);
        let bb = at(&b, "bb");
        let pair = [at(&b, "cb"), at(&b, "bc")];
        let read = |depth: u32, mut budget: u32| {
            killable_within(&mut g.clone(), bb, Color::White, pair, depth, &mut budget)
        };
        assert!(!read(0, 10));
        assert!(read(1, 10));
        // With no positions left to read, nothing is proven killable.
        assert!(!read(1, 0));
        assert!(killable(&mut g.clone(), bb, Color::White, pair));
        let f = finish(&b, &[], Color::White);
        let (c, i, why) = f.played[0];
        assert_eq!((c, why), (Color::White, Why::Defend));
        assert!(pair.contains(&i), "{}", b.point(i));
        let mut is_dead = vec![false; b.cell_count()];
        let mut g = FastBoard::from_board(&b);
        let mut doubt = Doubt::default();
        assert!(defend(&mut g, Color::White, &is_dead, &mut doubt).is_some());
        is_dead[at(&b, "ba")] = true;
        is_dead[at(&b, "ab")] = true;
        assert_eq!(defend(&mut g, Color::White, &is_dead, &mut doubt), None);
        assert_eq!(doubt, Doubt::default());
    }

    /// The record stops with White's stone at cb in atari inside Black's wall, and the
    /// estimate did not call it dead. Black takes it whoever moves first: White cannot save
    /// it (extending at ca is self-atari), so the finish says the race was lost.
    #[test]
    fn a_block_the_record_leaves_in_atari_is_captured() {
        let b = Board::from_ascii(
            ".X.XO..
             .XOXO..
             .XXXO..
             ..XO...
             ..XO...
             ..XO...
             ..XO...",
        );
        for first in [Color::Black, Color::White] {
            let f = finish(&b, &[], first);
            assert_eq!(f.captures, [1, 0], "{first:?} first");
            assert_eq!(f.board.cell(at(&b, "cb")), Cell::Empty);
            assert_eq!(f.board.cell(at(&b, "ca")), Cell::Stone(Color::Black));
            assert_eq!(f.unsure.race, first == Color::White);
            let race_at = if f.unsure.race {
                vec![at(&b, "cb")]
            } else {
                Vec::new()
            };
            assert_eq!(f.unsure_at, race_at);
        }
    }

    /// White's stone at cc is in atari, but only dead black stones hold it, and Black's
    /// capture at cd would be a ko: the capturing stone would stand in atari among White's
    /// stones. The players leave such a stone as it is (the dead stones come off at the
    /// count), so the finish adds no teire at cd and White keeps that point of territory.
    #[test]
    fn a_stone_held_only_by_dead_stones_in_a_ko_shape_needs_no_teire() {
        let b = Board::from_ascii(
            "....OX.
             ..XXOX.
             .XOXOX.
             .O.OOX.
             ..O.OX.
             OOOOOX.
             XXXXXX.",
        );
        let dead = ["cb", "db", "bc", "dc"].map(|p| at(&b, p));
        for first in [Color::Black, Color::White] {
            let f = finish(&b, &dead, first);
            assert_eq!(f.moves(), 0, "{first:?} first");
            assert_eq!(f.unsure, Unsure::default());
            let c = count(&f.board, &f.dead);
            assert_eq!(c.teire, [0, 0]);
            // The 12 empty points of White's corner, cd among them, and the 4 dead stones'.
            assert_eq!(c.territory[1], 12 + 4);
        }
    }

    /// White's corner point ba looks like an eye, but the stone at aa shares it with the dame
    /// at ab: once Black fills ab, aa is in atari and White connects at ba, a point of
    /// territory lost. White filling ab first keeps it. Territory counting: 7 or 8 points for
    /// White; area counting: the dame's point to whoever fills it, the teire changes nothing.
    #[test]
    fn a_false_eye_behind_a_dame_costs_a_point_of_territory() {
        let b = Board::from_ascii(
            "O.O..OX
             .OO..OX
             XO...OX
             XOOOOOX
             XXXXXXX
             .......
             .......",
        );
        let moves = |f: &Finished| played(&b, f);
        let black = finish(&b, &[], Color::Black);
        assert_eq!(
            moves(&black),
            [
                (Color::Black, "ab".to_string(), Why::Dame),
                (Color::White, "ba".to_string(), Why::Save),
            ]
        );
        let white = finish(&b, &[], Color::White);
        assert_eq!(moves(&white), [(Color::White, "ab".to_string(), Why::Dame)]);
        let (area_black, territory_black) = scores(&black.board, &black.dead);
        let (area_white, territory_white) = scores(&white.board, &white.dead);
        assert_eq!((territory_black[1], territory_white[1]), (7, 8));
        assert_eq!(territory_black[0], territory_white[0]);
        assert_eq!(area_black[0], area_white[0] + 1);
        assert_eq!(area_black[1] + 1, area_white[1]);
    }

    /// Black's stone at cb is in atari inside Black's corner, and only the dead White stones
    /// ca, bb and cc hold it. White taking it at db would gain a prisoner and give one: the
    /// capturing stone is as dead as the rest. Black does not spend a point of territory
    /// to connect at db, whoever starts.
    #[test]
    fn a_stone_held_only_by_dead_stones_needs_no_teire() {
        let b = Board::from_ascii(
            "..O.XO.
             .OX.XO.
             ..O.XO.
             XXXXXO.
             OOOOOO.
             .......
             .......",
        );
        let dead = ["ca", "bb", "cc"].map(|p| at(&b, p));
        for first in [Color::Black, Color::White] {
            let f = finish(&b, &dead, first);
            assert_eq!(f.moves(), 0, "{first:?} first");
            assert_eq!(f.unsure, Unsure::default());
            let c = count(&f.board, &f.dead);
            // The 8 empty points of Black's corner, db among them, and the 3 dead stones'.
            assert_eq!(c.territory[0], 8 + 3);
            assert_eq!(c.teire, [0, 0]);
        }
    }

    /// Black's stone at ee is in atari, held by White's living wall (ed, de) and by the dead
    /// pair fe-ff, which is in atari too. White capturing at ef would leave three stones in
    /// atari that Black takes back at ee: a snapback. So Black does not take the dead pair
    /// at ef, inside its own area, as it would to save a stone really in danger.
    #[test]
    fn a_snapback_is_neither_saved_from_nor_played() {
        let snap = "....OX...
                    ....OX...
                    ....OX...
                    OOOOOX...
                    OOOOXOX..
                    XXXX.OX..
                    ....XX...
                    .........
                    .........";
        let b = Board::from_ascii(snap);
        let dead = ["fe", "ff"].map(|p| at(&b, p));
        for first in [Color::Black, Color::White] {
            let f = finish(&b, &dead, first);
            assert_eq!(f.moves(), 0, "{first:?} first");
            assert_eq!(f.board.cell(at(&b, "ee")), Cell::Stone(Color::Black));
            let c = count(&f.board, &f.dead);
            assert_eq!(c.teire, [0, 0]);
        }
        // Without Black's stone at df the capturing stones keep a second liberty there:
        // no snapback, and the stone at ee must be saved.
        let open = Board::from_ascii(&snap.replacen("XXXX.OX", "XXX..OX", 1));
        let mut g = FastBoard::from_board(&open);
        assert!(!snapback(&g, at(&open, "ee"), Color::Black));
        // Nor does a capture that is snapped back save a block: White's pair, in atari
        // too, is saved by taking ee only where df is open.
        let mut ignored = Doubt::default();
        let fe = at(&b, "fe");
        assert_eq!(
            saving_move(&mut g, fe, Color::White, &mut ignored),
            Some(at(&b, "ef"))
        );
        let mut g = FastBoard::from_board(&b);
        assert_eq!(saving_move(&mut g, fe, Color::White, &mut ignored), None);
        assert!(snapback(
            &FastBoard::from_board(&b),
            at(&b, "ee"),
            Color::Black
        ));
    }

    /// The black stone at cb stands dead inside White's corner and takes a liberty of White's
    /// pair ba-bb, so White cannot fill the dame at aa without putting the pair in atari.
    /// White captures the dead stone first (inside its own area), and then the dame can go.
    #[test]
    fn dead_stones_short_of_liberties_are_captured_to_make_room() {
        let b = Board::from_ascii(
            ".O..O..
             XOXO...
             .XOO...
             .XXO...
             XXOO...
             ..XO...
             ..XO...",
        );
        let dead = [at(&b, "cb")];
        let f = finish(&b, &dead, Color::White);
        assert_eq!(f.captures, [0, 1]);
        assert!(f.dead.is_empty());
        assert!(added(&b, &f).contains(&(Color::White, "ca".to_string())));
        assert_eq!(f.board.cell(at(&b, "cb")), Cell::Empty);
        let status = final_status(&b, &dead, &f.board, &f.dead);
        assert_eq!(status[at(&b, "cb")], Some(FinalStatus::Dead));
        assert_eq!(status[at(&b, "ba")], Some(FinalStatus::Alive));
    }

    /// The two shared liberties of a seki (eb, gb) stay empty: neither side can fill one
    /// without putting its own block in atari. The finish says so.
    #[test]
    fn a_seki_keeps_its_shared_liberties() {
        let b = Board::from_ascii(crate::score::boards::EDGE_SEKI);
        let f = finish(&b, &[], Color::Black);
        assert_eq!(f.moves(), 0);
        assert!(f.unsure.seki && !f.unsure.race && !f.unsure.ko);
        assert_eq!(f.unsure.words(), "seki");
        assert_eq!(f.unsure_at, [at(&b, "eb"), at(&b, "gb")]);
        let c = count(&f.board, &f.dead);
        assert_eq!(c.neutral, 2);
        // The shared liberties are no one's under either counting, and no teire is due.
        assert_eq!(c.area_territory, [0, 13]);
        assert_eq!((c.territory, c.teire), ([0, 13], [0, 0]));
        // Both blocks beside the shared liberties are in seki; the outer wall is alive.
        let status = final_status(&b, &[], &f.board, &f.dead);
        assert_eq!(status[at(&b, "da")], Some(FinalStatus::Seki));
        assert_eq!(status[at(&b, "ea")], Some(FinalStatus::Seki));
        assert_eq!(status[at(&b, "aa")], Some(FinalStatus::Alive));
        assert_eq!(status[at(&b, "ba")], None);
    }

    /// A race on the top edge between Black's ba-bb-cb (liberties aa and ca) and White's
    /// da-db (ca and ea), each inside the other's wall. Whoever starts, the finish does not
    /// end with a block counted alive in atari and the side to move able to take it: the
    /// side that wins the race takes the other's block at ca, and a count of the finished
    /// board (or of the record `show --sgf` writes) stands.
    #[test]
    fn a_race_the_finishing_decides_ends_with_the_capture() {
        let b = Board::from_ascii(
            ".X.O.X.
             OXXOXX.
             OOOXX..
             ..OX...
             ..OX...
             ..OX...
             ..OX...",
        );
        for (first, taken) in [(Color::Black, [2, 0]), (Color::White, [0, 3])] {
            let f = finish(&b, &[], first);
            let moves = played(&b, &f);
            assert!(
                moves.iter().any(|m| m.0 == first && m.1 == "ca"),
                "{first:?} first: {moves:?}"
            );
            assert_eq!(f.captures, taken, "{first:?} first: {moves:?}");
            let g = FastBoard::from_board(&f.board);
            for c in [Color::Black, Color::White] {
                for h in g.heads(c) {
                    assert!(!g.in_atari(h), "{first:?} first: {}", f.board.point(h));
                }
            }
        }
    }

    /// Open borders are left open and counted: no fill reaches the middle of an open area.
    #[test]
    fn open_borders_are_measured_not_filled() {
        let b = Board::from_ascii(
            "..X......
             ..X......
             ..X......
             ..X......
             ..X......
             ......O..
             ......O..
             ......O..
             ......O..",
        );
        let f = finish(&b, &[], Color::White);
        assert_eq!(f.moves(), 0);
        assert!(f.open > 30, "{}", f.open);
    }
}
