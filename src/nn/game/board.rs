//! A board that behaves as KataGo's `Board` (`cpp/game/board.cpp`) down to the order in
//! which it lists a group's stones and liberties. The ladder search visits moves in that
//! order and gives up after a fixed number of nodes, so near that limit its answer, an input
//! of the net, depends on the order; keeping KataGo's representation keeps the answer.
//!
//! Points are indices into a padded array: row `y` (from the top) and column `x` sit at
//! `(x + 1) + (y + 1) * (size + 1)`, and every other cell is a wall. A group is a circular
//! list of its stones through `next`; every stone names the group's `head`, and the head
//! holds the group's stone and liberty counts.

use crate::go::{Color, Point};

/// An index into the padded array.
pub(crate) type Loc = usize;

/// No point: index 0 is always a wall.
pub(crate) const NO_LOC: Loc = 0;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const WALL: u8 = 3;

/// The other player; `BLACK` and `WHITE` are 1 and 2.
pub(crate) fn opp(c: u8) -> u8 {
    c ^ 3
}

pub(crate) fn cell_of(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

pub(crate) fn color_of(c: u8) -> Color {
    if c == BLACK {
        Color::Black
    } else {
        Color::White
    }
}

/// What `undo` needs to take a move back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    loc: Loc,
    pla: u8,
    ko: Loc,
    /// Bit `i` set: the move captured the group in direction `i`.
    captures: u8,
    /// The move removed its own group.
    suicide: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Board {
    pub(crate) size: usize,
    stride: usize,
    pub(crate) cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    /// Liberties of the group, at its head.
    libs: Vec<i16>,
    /// Stones of the group, at its head.
    stones: Vec<i16>,
    /// The point the player to move may not take back a single stone at.
    pub(crate) ko: Loc,
    /// Stones of each color (indexed by `BLACK`, `WHITE`) taken off the board so far.
    pub(crate) captured: [u32; 3],
}

impl Board {
    pub(crate) fn new(size: usize) -> Board {
        let stride = size + 1;
        let len = stride * (size + 2) + 1;
        let mut cells = vec![WALL; len];
        for y in 0..size {
            for x in 0..size {
                cells[(x + 1) + (y + 1) * stride] = EMPTY;
            }
        }
        Board {
            size,
            stride,
            cells,
            head: vec![0; len],
            next: vec![0; len],
            libs: vec![0; len],
            stones: vec![0; len],
            ko: NO_LOC,
            captured: [0; 3],
        }
    }

    pub(crate) fn loc(&self, x: usize, y: usize) -> Loc {
        (x + 1) + (y + 1) * self.stride
    }

    pub(crate) fn loc_of(&self, p: Point) -> Option<Loc> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        (x < self.size && y < self.size).then(|| self.loc(x, y))
    }

    /// The on-board points, row by row from the top-left.
    pub(crate) fn points(&self) -> impl Iterator<Item = Loc> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| self.loc(x, y)))
    }

    /// Up, left, right, down: KataGo's order, which fixes the order of every list below.
    pub(crate) fn adjacent(&self, loc: Loc) -> [Loc; 4] {
        [loc - self.stride, loc - 1, loc + 1, loc + self.stride]
    }

    pub(crate) fn are_adjacent(&self, a: Loc, b: Loc) -> bool {
        a + self.stride == b || a + 1 == b || b + 1 == a || b + self.stride == a
    }

    pub(crate) fn is_stone(&self, loc: Loc) -> bool {
        matches!(self.cells[loc], BLACK | WHITE)
    }

    pub(crate) fn head(&self, loc: Loc) -> Loc {
        usize::from(self.head[loc])
    }

    fn next(&self, loc: Loc) -> Loc {
        usize::from(self.next[loc])
    }

    /// Liberties of the group at `loc` (a stone).
    pub(crate) fn liberties(&self, loc: Loc) -> usize {
        self.libs[self.head(loc)] as usize
    }

    /// Stones of the group at `loc` (a stone).
    pub(crate) fn group_len(&self, loc: Loc) -> usize {
        self.stones[self.head(loc)] as usize
    }

    /// The stones of the group at `loc`, starting there.
    pub(crate) fn group(&self, loc: Loc) -> impl Iterator<Item = Loc> + '_ {
        let mut cur = Some(loc);
        std::iter::from_fn(move || {
            let here = cur?;
            let next = self.next(here);
            cur = (next != loc).then_some(next);
            Some(here)
        })
    }

    pub(crate) fn immediate_liberties(&self, loc: Loc) -> usize {
        self.adjacent(loc)
            .iter()
            .filter(|&&a| self.cells[a] == EMPTY)
            .count()
    }

    pub(crate) fn touches(&self, loc: Loc, color: u8) -> bool {
        self.adjacent(loc).iter().any(|&a| self.cells[a] == color)
    }

    /// Whether `loc` touches a stone of the group whose head is `head`.
    pub(crate) fn touches_group(&self, loc: Loc, head: Loc) -> bool {
        let color = self.cells[head];
        self.adjacent(loc)
            .iter()
            .any(|&a| self.cells[a] == color && self.head(a) == head)
    }

    /// Adds `delta` liberties to each distinct group of `color` next to `loc`.
    fn add_liberties_around(&mut self, loc: Loc, color: u8, delta: i16) {
        let mut seen = [NO_LOC; 4];
        for (i, a) in self.adjacent(loc).into_iter().enumerate() {
            if self.cells[a] == color {
                let h = self.head(a);
                if !seen[..i].contains(&h) {
                    self.libs[h] += delta;
                }
                seen[i] = h;
            }
        }
    }

    /// Whether playing `pla` at the empty `loc` would leave its group without liberties.
    pub(crate) fn is_suicide(&self, loc: Loc, pla: u8) -> bool {
        self.adjacent(loc).iter().all(|&a| match self.cells[a] {
            EMPTY => false,
            c if c == pla => self.liberties(a) == 1,
            c if c == opp(pla) => self.liberties(a) != 1,
            _ => true,
        })
    }

    /// As `is_suicide`, but only the kinds of suicide the rules forbid: a lone stone always,
    /// a larger group unless `multi_stone_legal`.
    pub(crate) fn is_illegal_suicide(&self, loc: Loc, pla: u8, multi_stone_legal: bool) -> bool {
        self.adjacent(loc).iter().all(|&a| match self.cells[a] {
            EMPTY => false,
            c if c == pla => !multi_stone_legal && self.liberties(a) == 1,
            c if c == opp(pla) => self.liberties(a) != 1,
            _ => true,
        })
    }

    /// Legal for the board alone: empty, not the simple-ko point, not forbidden suicide.
    pub(crate) fn is_legal(&self, loc: Loc, pla: u8, multi_stone_legal: bool) -> bool {
        self.cells[loc] == EMPTY
            && loc != self.ko
            && !self.is_illegal_suicide(loc, pla, multi_stone_legal)
    }

    /// A pass: it only lifts the ko ban.
    pub(crate) fn pass(&mut self) {
        self.ko = NO_LOC;
    }

    /// Plays `pla` at the empty `loc`: merges, captures, sets the ko point, and removes the
    /// group again if it has no liberties (suicide), counting its stones as captured.
    pub(crate) fn play(&mut self, loc: Loc, pla: u8) {
        let other = opp(pla);
        self.cells[loc] = pla;
        self.head[loc] = loc as u16;
        self.next[loc] = loc as u16;
        self.stones[loc] = 1;
        self.libs[loc] = self.immediate_liberties(loc) as i16;

        let mut taken = 0;
        let mut ko_candidate = NO_LOC;
        let mut seen = [NO_LOC; 4];
        let mut num_seen = 0;
        for a in self.adjacent(loc) {
            if self.cells[a] == pla {
                if self.head(a) != self.head(loc) {
                    let h = self.head(a);
                    self.libs[h] -= 1;
                    self.merge(a, loc);
                }
            } else if self.cells[a] == other {
                let h = self.head(a);
                if seen[..num_seen].contains(&h) {
                    continue;
                }
                seen[num_seen] = h;
                num_seen += 1;
                self.libs[h] -= 1;
                if self.libs[h] == 0 {
                    taken += self.remove_group(a);
                    ko_candidate = a;
                }
            }
        }

        let h = self.head(loc);
        self.ko = if taken == 1 && self.stones[h] == 1 && self.libs[h] == 1 {
            ko_candidate
        } else {
            NO_LOC
        };
        self.captured[usize::from(other)] += taken;
        if self.libs[h] == 0 {
            let lost = self.remove_group(loc);
            self.captured[usize::from(pla)] += lost;
        }
    }

    /// Joins the groups at `a` and `b`: the larger keeps its head (the one at `a` on a tie),
    /// and the smaller's stones go right after that head.
    fn merge(&mut self, a: Loc, b: Loc) {
        let (mut keep, mut join) = (self.head(a), self.head(b));
        if self.stones[keep] < self.stones[join] {
            std::mem::swap(&mut keep, &mut join);
        }
        self.stones[keep] += self.stones[join];
        let mut gained = 0;
        let mut cur = join;
        loop {
            for n in self.adjacent(cur) {
                if self.cells[n] == EMPTY && !self.touches_group(n, keep) {
                    gained += 1;
                }
            }
            self.head[cur] = keep as u16;
            if self.next(cur) == join {
                break;
            }
            cur = self.next(cur);
        }
        self.libs[keep] += gained;
        self.next[cur] = self.next[keep];
        self.next[keep] = join as u16;
    }

    /// Empties the group at `loc`, giving its neighbours their liberties back. Returns its
    /// size. Leaves the capture counts alone.
    fn remove_group(&mut self, loc: Loc) -> u32 {
        let other = opp(self.cells[loc]);
        let mut removed = 0;
        let mut cur = loc;
        loop {
            self.cells[cur] = EMPTY;
            removed += 1;
            self.add_liberties_around(cur, other, 1);
            cur = self.next(cur);
            if cur == loc {
                break;
            }
        }
        removed
    }

    /// Places a setup stone as KataGo's `setStone` does: it captures like a move, a lone
    /// stone without liberties is not placed, and a stone of the other color is replaced.
    pub(crate) fn set_stone(&mut self, loc: Loc, color: u8) {
        let here = self.cells[loc];
        if here == EMPTY {
            if !self.is_illegal_suicide(loc, color, true) {
                self.play(loc, color);
            }
        } else if here != color {
            let rest: Vec<Loc> = self.group(loc).filter(|&s| s != loc).collect();
            self.remove_group(loc);
            for s in rest {
                self.play(s, here);
            }
            if !self.is_suicide(loc, color) {
                self.play(loc, color);
            }
        }
        self.ko = NO_LOC;
    }

    /// `play`, keeping what `undo` needs.
    pub(crate) fn play_undoable(&mut self, loc: Loc, pla: u8) -> Undo {
        let mut captures = 0;
        for (i, a) in self.adjacent(loc).into_iter().enumerate() {
            if self.cells[a] == opp(pla) && self.liberties(a) == 1 {
                captures |= 1 << i;
            }
        }
        let suicide = captures == 0 && self.is_suicide(loc, pla);
        let undo = Undo {
            loc,
            pla,
            ko: self.ko,
            captures,
            suicide,
        };
        self.play(loc, pla);
        undo
    }

    /// Takes back the last move made with `play_undoable`. Like KataGo's, this restores the
    /// position but not always the order of the groups' lists.
    pub(crate) fn undo(&mut self, u: Undo) {
        self.ko = u.ko;
        let (loc, pla) = (u.loc, u.pla);
        let other = opp(pla);
        for (i, a) in self.adjacent(loc).into_iter().enumerate() {
            if u.captures & (1 << i) != 0 && self.cells[a] == EMPTY {
                self.refill(a, other);
                self.captured[usize::from(other)] -= self.stones[a] as u32;
            }
        }
        if u.suicide {
            self.refill(loc, pla);
            self.captured[usize::from(pla)] -= self.stones[loc] as u32;
        }

        self.cells[loc] = EMPTY;
        self.add_liberties_around(loc, other, 1);
        let h = self.head(loc);
        if self.stones[h] <= 1 {
            return;
        }
        let friends = self
            .adjacent(loc)
            .iter()
            .filter(|&&a| self.cells[a] == pla)
            .count();
        if friends <= 1 {
            // The group stays connected: cut `loc` out of its list.
            let mut h = h;
            if h == loc {
                let new_head = self.next(loc);
                let mut cur = loc;
                loop {
                    self.head[cur] = new_head as u16;
                    cur = self.next(cur);
                    if cur == loc {
                        break;
                    }
                }
                self.libs[new_head] = self.libs[loc];
                self.stones[new_head] = self.stones[loc];
                h = new_head;
            }
            let mut cur = h;
            while self.next(cur) != loc {
                cur = self.next(cur);
            }
            self.next[cur] = self.next[loc];
            let mut delta = 1;
            for a in self.adjacent(loc) {
                if self.cells[a] == EMPTY && !self.touches_group(a, h) {
                    delta -= 1;
                }
            }
            self.libs[h] += delta;
            self.stones[h] -= 1;
        } else {
            // The group may fall apart: rebuild whatever is left of it from each neighbour.
            let mut cur = loc;
            loop {
                self.head[cur] = NO_LOC as u16;
                cur = self.next(cur);
                if cur == loc {
                    break;
                }
            }
            for a in self.adjacent(loc) {
                if self.cells[a] == pla && self.head(a) == NO_LOC {
                    self.rebuild(a, pla);
                }
            }
        }
    }

    /// Fills the empty region at `loc` with one new group of `color` (its captured stones
    /// coming back), with `loc` as head. The group has no liberties yet.
    fn refill(&mut self, loc: Loc, color: u8) {
        self.libs[loc] = 0;
        self.stones[loc] = 0;
        let front = self.refill_from(loc, loc, loc, color);
        self.next[loc] = front as u16;
    }

    /// Adds `loc` and the empty points beyond it, depth first; each new stone points to
    /// `tail`, and the last one added is returned.
    fn refill_from(&mut self, head: Loc, tail: Loc, loc: Loc, color: u8) -> Loc {
        self.cells[loc] = color;
        self.head[loc] = head as u16;
        self.stones[head] += 1;
        self.next[loc] = tail as u16;
        self.add_liberties_around(loc, opp(color), -1);
        let mut last = loc;
        for a in self.adjacent(loc) {
            if self.cells[a] == EMPTY {
                last = self.refill_from(head, last, a, color);
            }
        }
        last
    }

    /// Relinks and recounts the group of `color` at `loc`, whose stones' heads are `NO_LOC`.
    fn rebuild(&mut self, loc: Loc, color: u8) {
        self.libs[loc] = 0;
        self.stones[loc] = 0;
        let front = self.rebuild_from(loc, loc, loc, color);
        self.next[loc] = front as u16;
    }

    fn rebuild_from(&mut self, head: Loc, tail: Loc, loc: Loc, color: u8) -> Loc {
        let around = self.adjacent(loc);
        let new_libs = around
            .iter()
            .filter(|&&a| self.cells[a] == EMPTY && !self.touches_group(a, head))
            .count();
        self.libs[head] += new_libs as i16;
        self.head[loc] = head as u16;
        self.stones[head] += 1;
        self.next[loc] = tail as u16;
        let mut last = loc;
        for a in around {
            if self.cells[a] == color && self.head(a) != head {
                last = self.rebuild_from(head, last, a, color);
            }
        }
        last
    }

    /// Appends the liberties of the group at `loc` to `buf`, in list order, skipping any
    /// already in `buf[from..]`.
    pub(crate) fn push_liberties(&self, loc: Loc, buf: &mut Vec<Loc>, from: usize) {
        for s in self.group(loc) {
            for a in self.adjacent(s) {
                if self.cells[a] == EMPTY && !buf[from..].contains(&a) {
                    buf.push(a);
                }
            }
        }
    }

    /// Appends the points where the group at `loc` would capture a neighbour in atari.
    pub(crate) fn push_captures(&self, loc: Loc, buf: &mut Vec<Loc>, from: usize) {
        let other = opp(self.cells[loc]);
        let mut checked: Vec<Loc> = Vec::new();
        for s in self.group(loc) {
            for a in self.adjacent(s) {
                if self.cells[a] == other && self.liberties(a) == 1 {
                    let h = self.head(a);
                    if !checked.contains(&h) {
                        self.push_liberties(a, buf, from);
                        checked.push(h);
                    }
                }
            }
        }
    }

    /// Whether the group at `loc` touches an enemy group in atari.
    pub(crate) fn can_capture_around(&self, loc: Loc) -> bool {
        let other = opp(self.cells[loc]);
        self.group(loc).any(|s| {
            self.adjacent(s)
                .iter()
                .any(|&a| self.cells[a] == other && self.liberties(a) == 1)
        })
    }

    /// Quick bounds on the liberties `pla` would have after playing at `loc`.
    pub(crate) fn liberty_bounds_after(&self, loc: Loc, pla: u8) -> (usize, usize) {
        let (mut immediate, mut caps, mut cap_stones, mut joined, mut max_joined) = (0, 0, 0, 0, 0);
        for a in self.adjacent(loc) {
            match self.cells[a] {
                EMPTY => immediate += 1,
                c if c == opp(pla) && self.liberties(a) == 1 => {
                    caps += 1;
                    cap_stones += self.group_len(a);
                }
                c if c == pla => {
                    let extra = self.liberties(a) - 1;
                    joined += extra;
                    max_joined = max_joined.max(extra);
                }
                _ => {}
            }
        }
        (
            caps + immediate.max(max_joined),
            immediate + cap_stones + joined,
        )
    }

    /// Liberties `pla` would have after playing at `loc`, counted as KataGo's
    /// `getNumLibertiesAfterPlay` counts them (a captured neighbour adds only its own point
    /// directly), capped at `max`.
    pub(crate) fn liberties_after(&self, loc: Loc, pla: u8, max: usize) -> usize {
        let other = opp(pla);
        let mut libs: Vec<Loc> = Vec::new();
        let mut captured: Vec<Loc> = Vec::new();
        for a in self.adjacent(loc) {
            if self.cells[a] == EMPTY {
                libs.push(a);
            } else if self.cells[a] == other && self.liberties(a) == 1 {
                libs.push(a);
                if !captured.contains(&self.head(a)) {
                    captured.push(self.head(a));
                }
            }
        }
        let would_be_empty = |p: Loc| {
            self.cells[p] == EMPTY || (self.cells[p] == other && captured.contains(&self.head(p)))
        };
        let mut joined: Vec<Loc> = Vec::new();
        for a in self.adjacent(loc) {
            if self.cells[a] != pla || joined.contains(&self.head(a)) {
                continue;
            }
            joined.push(self.head(a));
            for s in self.group(a) {
                for p in self.adjacent(s) {
                    if p != loc && would_be_empty(p) && !libs.contains(&p) {
                        libs.push(p);
                    }
                }
            }
        }
        libs.len().min(max)
    }

    /// Whether `pla` at `loc` would take back a ko: every neighbour is an enemy stone or the
    /// edge, and exactly one neighbour, a lone stone, is in atari.
    pub(crate) fn would_be_ko_capture(&self, loc: Loc, pla: u8) -> bool {
        if self.cells[loc] != EMPTY {
            return false;
        }
        let mut capturable = NO_LOC;
        for a in self.adjacent(loc) {
            match self.cells[a] {
                WALL => {}
                c if c == opp(pla) => {
                    if self.liberties(a) == 1 {
                        if capturable != NO_LOC {
                            return false;
                        }
                        capturable = a;
                    }
                }
                _ => return false,
            }
        }
        capturable != NO_LOC && self.group_len(capturable) == 1
    }

    /// Twice the liberties beyond one and a half that `pla` could connect to at `loc`: the
    /// ladder's tie-break between the attacker's two moves.
    pub(crate) fn connection_liberties_x2(&self, loc: Loc, pla: u8) -> i32 {
        self.adjacent(loc)
            .iter()
            .filter(|&&a| self.cells[a] == pla)
            .map(|&a| self.liberties(a) as i32)
            .filter(|&l| l > 1)
            .map(|l| 2 * l - 3)
            .sum()
    }

    /// The stones on the board, row by row: two positions are the same exactly when these
    /// are equal.
    pub(crate) fn position(&self) -> Vec<u8> {
        self.points().map(|p| self.cells[p]).collect()
    }

    /// Stones of `color` on the board.
    pub(crate) fn count(&self, color: u8) -> usize {
        self.points().filter(|&p| self.cells[p] == color).count()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A board from rows of `X` (black), `O` (white) and `.`, top row first.
    pub(crate) fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                match c {
                    'X' => b.set_stone(b.loc(x, y), BLACK),
                    'O' => b.set_stone(b.loc(x, y), WHITE),
                    _ => {}
                }
            }
        }
        b
    }

    pub(crate) fn ascii(b: &Board) -> Vec<String> {
        (0..b.size)
            .map(|y| {
                (0..b.size)
                    .map(|x| match b.cells[b.loc(x, y)] {
                        BLACK => 'X',
                        WHITE => 'O',
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Every group's list, head, stone count and liberty count agree with a recount.
    pub(crate) fn check(b: &Board) {
        for p in b.points().filter(|&p| b.is_stone(p)) {
            let mut flood = vec![p];
            let mut i = 0;
            while i < flood.len() {
                for a in b.adjacent(flood[i]) {
                    if b.cells[a] == b.cells[p] && !flood.contains(&a) {
                        flood.push(a);
                    }
                }
                i += 1;
            }
            let mut listed: Vec<Loc> = b.group(p).collect();
            let mut libs: Vec<Loc> = Vec::new();
            b.push_liberties(p, &mut libs, 0);
            assert_eq!(b.group_len(p), flood.len());
            assert_eq!(b.liberties(p), libs.len());
            listed.sort();
            flood.sort();
            assert_eq!(listed, flood);
            assert!(flood.iter().all(|&s| b.head(s) == b.head(p)));
        }
    }

    #[test]
    fn a_capture_takes_the_group_off_and_counts_it() {
        let mut b = board(&[
            ". X O .", //
            "X O . .", //
            ". X O .", //
            ". . . .",
        ]);
        b.play(b.loc(2, 1), BLACK);
        assert_eq!(
            ascii(&b),
            [".XO.", "X.X.", ".XO.", "...."].map(String::from)
        );
        assert_eq!(b.captured[usize::from(WHITE)], 1);
        assert_eq!(b.ko, NO_LOC);
        check(&b);
    }

    #[test]
    fn a_ko_bans_the_immediate_recapture() {
        let mut b = board(&[
            ". X O .", //
            "X . X O", //
            ". X O .", //
            ". . . .",
        ]);
        b.play(b.loc(1, 1), WHITE);
        assert_eq!(b.ko, b.loc(2, 1));
        assert!(!b.is_legal(b.loc(2, 1), BLACK, false));
        b.play(b.loc(0, 3), BLACK);
        assert_eq!(b.ko, NO_LOC);
        assert!(b.is_legal(b.loc(2, 1), BLACK, false));
        check(&b);
    }

    #[test]
    fn suicide_is_told_apart_by_group_size() {
        let b = board(&[
            ". X O", //
            "X X O", //
            "O O .",
        ]);
        let corner = b.loc(0, 0);
        assert!(b.is_suicide(corner, BLACK));
        assert!(b.is_illegal_suicide(corner, BLACK, false));
        assert!(!b.is_illegal_suicide(corner, BLACK, true));
        let b = board(&[
            ". O .", //
            "O . .", //
            ". . .",
        ]);
        assert!(b.is_illegal_suicide(b.loc(0, 0), BLACK, true));
    }

    #[test]
    fn a_multi_stone_suicide_empties_its_group() {
        let mut b = board(&[
            ". X O", //
            "X X O", //
            "O O .",
        ]);
        b.play(b.loc(0, 0), BLACK);
        assert_eq!(ascii(&b), ["..O", "..O", "OO."].map(String::from));
        assert_eq!(b.captured[usize::from(BLACK)], 4);
        check(&b);
    }

    #[test]
    fn undo_restores_positions_and_counts() {
        let mut b = board(&[
            ". X O . .", //
            "X O . O .", //
            ". X O X .", //
            "X O X . .", //
            ". X . . .",
        ]);
        let (before, captured) = (b.position(), b.captured);
        let moves = [(2, 1, BLACK), (3, 3, WHITE), (1, 0, WHITE), (0, 0, WHITE)];
        let mut undos = Vec::new();
        for (x, y, c) in moves {
            let l = b.loc(x, y);
            if b.cells[l] == EMPTY {
                undos.push(b.play_undoable(l, c));
                check(&b);
            }
        }
        while let Some(u) = undos.pop() {
            b.undo(u);
            check(&b);
        }
        assert_eq!(b.position(), before);
        assert_eq!(b.captured, captured);
    }

    #[test]
    fn random_games_undo_cleanly() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rand = move |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        for game in 0..40 {
            let mut b = Board::new(5 + game % 5);
            let points: Vec<Loc> = b.points().collect();
            let mut undos = Vec::new();
            let mut snapshots = Vec::new();
            for turn in 0..120 {
                let pla = if turn % 2 == 0 { BLACK } else { WHITE };
                let p = points[rand(points.len())];
                if !b.is_legal(p, pla, game % 2 == 0) {
                    continue;
                }
                snapshots.push((b.position(), b.captured, b.ko));
                undos.push(b.play_undoable(p, pla));
                check(&b);
                if rand(4) == 0 {
                    b.undo(undos.pop().unwrap());
                    let (position, captured, ko) = snapshots.pop().unwrap();
                    assert_eq!((b.position(), b.captured, b.ko), (position, captured, ko));
                    check(&b);
                }
            }
            while let Some(u) = undos.pop() {
                b.undo(u);
                let (position, captured, ko) = snapshots.pop().unwrap();
                assert_eq!((b.position(), b.captured, b.ko), (position, captured, ko));
                check(&b);
            }
        }
    }
}
