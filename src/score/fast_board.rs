//! A board for playouts: the same padded array as `go::Board`, plus blocks kept as linked
//! lists with pseudo-liberty counts (the liberty sum and sum of squares tell a block in atari
//! and its last liberty at once), so that the policy's legality, atari and self-atari tests
//! stop walking whole blocks. Moves follow `Board::play` exactly (captures, the simple-ko
//! point), so a playout is the same game it would be on `Board`. The count fills dame on it too
//! (`fill_safely`).

use crate::go::board::{own_eye_point, Board, Cell, Color, Idx, Points};
use crate::life::Net;

/// What a block's liberty sums say of its liberties other than one point (`FastBoard::others`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Others {
    None,
    One(Idx),
    More,
}

/// Whether `libs` pseudo-liberties with index sum `sum` and sum of squares `squares` are all
/// the same point: `libs · squares ≥ sum²`, with equality only when every index is equal.
#[inline]
fn one_point(libs: u64, sum: u64, squares: u64) -> bool {
    libs > 0 && libs * squares == sum * sum
}

pub struct FastBoard {
    size: u8,
    stride: usize,
    cells: Vec<Cell>,
    /// Per stone: its block's head; per head: the block's figures. Indices and counts fit
    /// 16 bits (a 25×25 board has 729 cells), which keeps the board a playout copies small.
    head: Vec<u16>,
    /// Per stone: the next stone of its block (a circular list).
    next: Vec<u16>,
    stones: Vec<u16>,
    /// Pseudo-liberties: (stone, adjacent empty point) pairs, their count, index sum and sum
    /// of squares. On a 25×25 board a point's index is below 729 and a block has at most
    /// 1,248 pairs (each pair takes a stone and an empty point of the 625), so the squares
    /// stay below 2^30 and 32 bits hold them; the products are taken at 64 (`one_point`).
    plib: Vec<u16>,
    lsum: Vec<u32>,
    lsq: Vec<u32>,
    ko: Option<(Idx, Color)>,
    /// The points the last move emptied by capture.
    captured: Vec<Idx>,
    /// Scratch marks for the few walks left, made on the first: the count's fills walk
    /// nothing, and its boards are built and copied for every game.
    mark: Vec<u32>,
    stamp: u32,
}

/// `clone_from` reuses the target's buffers: the playouts and the race reader copy a board
/// for every playout and every node they read, and the copies, not the moves, were what
/// allocated.
impl Clone for FastBoard {
    fn clone(&self) -> FastBoard {
        FastBoard {
            size: self.size,
            stride: self.stride,
            cells: self.cells.clone(),
            head: self.head.clone(),
            next: self.next.clone(),
            stones: self.stones.clone(),
            plib: self.plib.clone(),
            lsum: self.lsum.clone(),
            lsq: self.lsq.clone(),
            ko: self.ko,
            captured: self.captured.clone(),
            mark: self.mark.clone(),
            stamp: self.stamp,
        }
    }

    fn clone_from(&mut self, source: &FastBoard) {
        self.size = source.size;
        self.stride = source.stride;
        self.cells.clone_from(&source.cells);
        self.head.clone_from(&source.head);
        self.next.clone_from(&source.next);
        self.stones.clone_from(&source.stones);
        self.plib.clone_from(&source.plib);
        self.lsum.clone_from(&source.lsum);
        self.lsq.clone_from(&source.lsq);
        self.ko = source.ko;
        self.captured.clone_from(&source.captured);
        self.mark.clone_from(&source.mark);
        self.stamp = source.stamp;
    }
}

impl FastBoard {
    pub fn from_board(b: &Board) -> FastBoard {
        let n = b.cell_count();
        let mut f = FastBoard::stones_only(b);
        let mut seen = vec![false; n];
        let mut block = Vec::new();
        for start in b.points() {
            let Cell::Stone(c) = f.cells[start] else {
                continue;
            };
            if seen[start] {
                continue;
            }
            block.clear();
            block.push(start);
            seen[start] = true;
            let mut k = 0;
            while k < block.len() {
                let i = block[k];
                k += 1;
                for nb in f.neighbours(i) {
                    if f.cells[nb] == Cell::Stone(c) && !seen[nb] {
                        seen[nb] = true;
                        block.push(nb);
                    }
                }
            }
            for (k, &s) in block.iter().enumerate() {
                f.head[s] = start as u16;
                f.next[s] = block[(k + 1) % block.len()] as u16;
                for nb in f.neighbours(s) {
                    if f.cells[nb] == Cell::Empty {
                        f.add_lib(start, nb);
                    }
                }
            }
            f.stones[start] = block.len() as u16;
        }
        f
    }

    /// The stones of `b` with no block made yet: what both constructors start from.
    fn stones_only(b: &Board) -> FastBoard {
        let n = b.cell_count();
        FastBoard {
            size: b.size(),
            stride: b.size() as usize + 2,
            cells: b.cells().to_vec(),
            head: vec![0; n],
            next: vec![0; n],
            stones: vec![0; n],
            plib: vec![0; n],
            lsum: vec![0; n],
            lsq: vec![0; n],
            ko: None,
            captured: Vec::new(),
            mark: Vec::new(),
            stamp: 0,
        }
    }

    /// The same board built from the position's net: its blocks are known, so no fill is
    /// needed, and nothing here branches on what a neighbour holds. The blocks' stone lists
    /// run in point order rather than in fill order, which changes no answer the board gives.
    pub fn from_net(b: &Board, net: &Net) -> FastBoard {
        let mut f = FastBoard::stones_only(b);
        for block in &net.blocks {
            let h = block.anchor;
            let stones = &block.stones;
            f.stones[h] = stones.len() as u16;
            let (mut count, mut sum, mut squares) = (0u16, 0u32, 0u32);
            // Each stone points to the next, the last back to the first (no division).
            let after = stones.iter().skip(1).chain(&stones[..1]);
            for (&s, &t) in stones.iter().zip(after) {
                f.head[s] = h as u16;
                f.next[s] = t as u16;
                for nb in f.neighbours(s) {
                    let empty = f.cells[nb] == Cell::Empty;
                    count += u16::from(empty);
                    sum += u32::from(empty) * nb as u32;
                    squares += u32::from(empty) * (nb * nb) as u32;
                }
            }
            f.plib[h] = count;
            f.lsum[h] = sum;
            f.lsq[h] = squares;
        }
        f
    }

    /// The heads of the blocks of `c`: one stone of each block, in point order.
    pub fn heads(&self, c: Color) -> Vec<Idx> {
        // Over the whole padded array, walls included (they hold no stone), which spares
        // the row arithmetic and the bounds checks.
        let stone = Cell::Stone(c);
        self.cells
            .iter()
            .zip(&self.head)
            .enumerate()
            .filter(|&(i, (&cell, &h))| (cell == stone) & (h as usize == i))
            .map(|(i, _)| i)
            .collect()
    }

    pub fn points(&self) -> Points {
        Points::new(self.size)
    }

    pub fn cell(&self, i: Idx) -> Cell {
        self.cells[i]
    }

    #[inline]
    pub fn neighbours(&self, i: Idx) -> [Idx; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    fn add_lib(&mut self, h: Idx, l: Idx) {
        self.plib[h] += 1;
        self.lsum[h] += l as u32;
        self.lsq[h] += (l * l) as u32;
    }

    fn remove_lib(&mut self, h: Idx, l: Idx) {
        self.plib[h] -= 1;
        self.lsum[h] -= l as u32;
        self.lsq[h] -= (l * l) as u32;
    }

    fn head_of(&self, i: Idx) -> Idx {
        self.head[i] as usize
    }

    /// Whether the block of the stone at `i` has exactly one liberty.
    pub fn in_atari(&self, i: Idx) -> bool {
        let h = self.head_of(i);
        one_point(
            u64::from(self.plib[h]),
            u64::from(self.lsum[h]),
            u64::from(self.lsq[h]),
        )
    }

    /// The one liberty of a block in atari.
    pub fn atari_liberty(&self, i: Idx) -> Idx {
        let h = self.head_of(i);
        (self.lsum[h] / u32::from(self.plib[h])) as usize
    }

    /// Whether `c` may play at `i`: no suicide, no immediate ko retake.
    pub fn is_legal(&self, c: Color, i: Idx) -> bool {
        if self.cells[i] != Cell::Empty || self.ko == Some((i, c)) {
            return false;
        }
        self.neighbours(i).into_iter().any(|n| match self.cells[n] {
            Cell::Empty => true,
            Cell::Wall => false,
            Cell::Stone(o) => (o == c) != self.in_atari(n),
        })
    }

    /// Whether every on-board neighbour of `i` is a stone of `c`.
    pub fn is_own_eye_point(&self, i: Idx, c: Color) -> bool {
        own_eye_point(&self.cells, self.neighbours(i), c)
    }

    /// Whether `c` at the empty `i` would leave its block with one liberty and capture
    /// nothing.
    pub fn self_atari(&self, c: Color, i: Idx) -> bool {
        if self.two_liberties_if_played(c, i) {
            return false;
        }
        !self
            .neighbours(i)
            .into_iter()
            .any(|n| self.cells[n] == Cell::Stone(c.opponent()) && self.in_atari(n))
    }

    /// Whether `c` at the empty `i` makes a block of at most `most` stones and leaves a
    /// neighbouring opponent block of at least `target` stones with one liberty. Read off the
    /// liberty sums: a neighbour block loses `i` once for each side it touches `i` on.
    pub fn small_sacrifice(&self, c: Color, i: Idx, most: u32, target: u32) -> bool {
        let nb = self.neighbours(i);
        let mut heads = [usize::MAX; 4];
        let mut size = 1;
        let mut ataris = false;
        for (k, &n) in nb.iter().enumerate() {
            let Cell::Stone(o) = self.cells[n] else {
                continue;
            };
            let h = self.head_of(n);
            if heads.contains(&h) {
                continue;
            }
            heads[k] = h;
            if o == c {
                size += u32::from(self.stones[h]);
                continue;
            }
            ataris |= u32::from(self.stones[h]) >= target
                && matches!(self.others(h, o, i), Others::One(_));
        }
        size <= most && ataris
    }

    /// Whether the block a stone of `c` at the empty `i` would make has two liberties or
    /// more, before captures. Read off the liberty sums (`others`), so no block is walked.
    fn two_liberties_if_played(&self, c: Color, i: Idx) -> bool {
        let nb = self.neighbours(i);
        let mut one = None;
        let mut heads = [usize::MAX; 4];
        for (k, &n) in nb.iter().enumerate() {
            let liberty = match self.cells[n] {
                Cell::Empty => n,
                Cell::Stone(o) if o == c => {
                    let h = self.head_of(n);
                    if heads.contains(&h) {
                        continue;
                    }
                    heads[k] = h;
                    match self.others(h, c, i) {
                        Others::None => continue,
                        Others::One(l) => l,
                        Others::More => return true,
                    }
                }
                _ => continue,
            };
            match one {
                Some(l) if l != liberty => return true,
                _ => one = Some(liberty),
            }
        }
        false
    }

    /// The liberties other than the empty `i` of the block of colour `c` with head `h`
    /// beside it: the block's liberty sums less its pairs with `i` (one per side it touches
    /// `i` on) name none, exactly one, or more.
    fn others(&self, h: Idx, c: Color, i: Idx) -> Others {
        let sides = self
            .neighbours(i)
            .iter()
            .filter(|&&m| self.cells[m] == Cell::Stone(c) && self.head_of(m) == h)
            .count() as u64;
        let libs = u64::from(self.plib[h]) - sides;
        let sum = u64::from(self.lsum[h]) - sides * i as u64;
        let squares = u64::from(self.lsq[h]) - sides * (i * i) as u64;
        if libs == 0 {
            Others::None
        } else if one_point(libs, sum, squares) {
            Others::One((sum / libs) as usize)
        } else {
            Others::More
        }
    }

    /// Calls `f` with each neighbour of each stone of the block of `i` (a point once per
    /// stone beside it) until `f` returns false.
    fn each_neighbour(&mut self, i: Idx, mut f: impl FnMut(&mut FastBoard, Idx) -> bool) {
        let h = self.head_of(i);
        let mut s = h;
        loop {
            for m in self.neighbours(s) {
                if !f(self, m) {
                    return;
                }
            }
            s = self.next[s] as usize;
            if s == h {
                return;
            }
        }
    }

    /// The liberties of the block of the stone at `i`, stopping once there are more than
    /// `limit`: what the race reader counts.
    pub fn liberties(&mut self, i: Idx, limit: usize, out: &mut Vec<Idx>) {
        out.clear();
        let stamp = self.next_stamp();
        self.each_neighbour(i, |b, m| {
            if b.cells[m] == Cell::Empty && b.mark[m] != stamp {
                b.mark[m] = stamp;
                out.push(m);
            }
            out.len() <= limit
        });
    }

    /// How many liberties, up to `limit`, the block `c` at the empty `i` would make has, not
    /// counting `i` and `except`, before captures: a lower bound once `except` is filled too,
    /// since captures only add liberties.
    pub fn liberties_if_played(&mut self, c: Color, i: Idx, except: Idx, limit: usize) -> usize {
        let stamp = self.next_stamp();
        self.mark[i] = stamp;
        self.mark[except] = stamp;
        let mut count = 0;
        for n in self.neighbours(i) {
            match self.cells[n] {
                Cell::Empty if self.mark[n] != stamp => {
                    self.mark[n] = stamp;
                    count += 1;
                }
                Cell::Stone(o) if o == c => {
                    self.each_neighbour(n, |b, m| {
                        if b.cells[m] == Cell::Empty && b.mark[m] != stamp {
                            b.mark[m] = stamp;
                            count += 1;
                        }
                        count < limit
                    });
                }
                _ => {}
            }
            if count >= limit {
                return limit;
            }
        }
        count
    }

    /// The head of the block of the stone at `i`: the same for every stone of the block.
    pub fn head(&self, i: Idx) -> Idx {
        self.head_of(i)
    }

    /// The stones of the block of the stone at `i`.
    pub fn stones(&self, i: Idx) -> Vec<Idx> {
        let mut out = Vec::with_capacity(self.stones[self.head_of(i)] as usize);
        let mut s = i;
        loop {
            out.push(s);
            s = self.next[s] as usize;
            if s == i {
                return out;
            }
        }
    }

    /// One stone of each block of `c` beside the block of the stone at `i`.
    pub fn neighbour_blocks(&mut self, i: Idx, c: Color, out: &mut Vec<Idx>) {
        out.clear();
        let stamp = self.next_stamp();
        self.each_neighbour(i, |b, m| {
            if b.cells[m] == Cell::Stone(c) {
                let hm = b.head_of(m);
                if b.mark[hm] != stamp {
                    b.mark[hm] = stamp;
                    out.push(hm);
                }
            }
            true
        });
    }

    /// A fresh mark for a walk.
    fn next_stamp(&mut self) -> u32 {
        if self.mark.is_empty() {
            self.mark = vec![0; self.cells.len()];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Plays `c` at the empty `i` if that captures nothing and leaves the block it joins with
    /// two liberties; otherwise leaves the board as it was. This is how the count fills dame.
    pub fn fill_safely(&mut self, c: Color, i: Idx) -> bool {
        let ok = self.fills_safely(c, i);
        if ok {
            self.play(c, i);
        }
        ok
    }

    /// Whether `c` may fill the empty `i` as a dame: the block it makes keeps two liberties
    /// and it captures nothing (`fill_safely` without playing).
    pub fn fills_safely(&self, c: Color, i: Idx) -> bool {
        self.two_liberties_if_played(c, i)
            && !self
                .neighbours(i)
                .into_iter()
                .any(|n| self.cells[n] == Cell::Stone(c.opponent()) && self.in_atari(n))
    }

    /// The heads of the opponent blocks beside the empty `i` that `c` there would leave with
    /// one liberty, read off the liberty sums.
    pub fn ataris_by(&self, c: Color, i: Idx) -> impl Iterator<Item = Idx> + '_ {
        let o = c.opponent();
        let mut heads = [usize::MAX; 4];
        for (k, n) in self.neighbours(i).into_iter().enumerate() {
            if self.cells[n] == Cell::Stone(o) {
                let h = self.head_of(n);
                if !heads.contains(&h) && matches!(self.others(h, o, i), Others::One(_)) {
                    heads[k] = h;
                }
            }
        }
        heads.into_iter().filter(|&h| h != usize::MAX)
    }

    /// The points the last move emptied by capture.
    pub fn captured(&self) -> &[Idx] {
        &self.captured
    }

    /// Plays a legal move as `Board::play` does; returns the stones captured.
    pub fn play(&mut self, c: Color, i: Idx) -> u32 {
        self.captured.clear();
        self.cells[i] = Cell::Stone(c);
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.stones[i] = 1;
        self.plib[i] = 0;
        self.lsum[i] = 0;
        self.lsq[i] = 0;
        for n in self.neighbours(i) {
            match self.cells[n] {
                Cell::Empty => self.add_lib(i, n),
                Cell::Stone(_) => {
                    let h = self.head_of(n);
                    self.remove_lib(h, i);
                }
                Cell::Wall => {}
            }
        }
        for n in self.neighbours(i) {
            if self.cells[n] == Cell::Stone(c) {
                let (a, b) = (self.head_of(i), self.head_of(n));
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let opp = Cell::Stone(c.opponent());
        let mut captured = 0;
        let mut last_captured = None;
        for n in self.neighbours(i) {
            if self.cells[n] == opp && self.plib[self.head_of(n)] == 0 {
                let removed = self.remove_block(self.head_of(n));
                if removed == 1 {
                    last_captured = Some(n);
                }
                captured += removed;
            }
        }
        self.ko = None;
        if captured == 1 {
            if let Some(k) = last_captured {
                let nb = self.neighbours(i);
                let alone = nb.iter().all(|&n| self.cells[n] != Cell::Stone(c));
                let libs = nb.iter().filter(|&&n| self.cells[n] == Cell::Empty).count();
                if alone && libs == 1 {
                    self.ko = Some((k, c.opponent()));
                }
            }
        }
        captured
    }

    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Joins two blocks, the smaller relabelled into the larger.
    fn merge(&mut self, a: Idx, b: Idx) {
        let (big, small) = if self.stones[a] >= self.stones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        self.plib[big] += self.plib[small];
        self.lsum[big] += self.lsum[small];
        self.lsq[big] += self.lsq[small];
    }

    /// Removes a captured block; its points become liberties of the blocks around.
    fn remove_block(&mut self, h: Idx) -> u32 {
        let mut s = h;
        loop {
            self.cells[s] = Cell::Empty;
            self.captured.push(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        let mut n = 0;
        loop {
            n += 1;
            for m in self.neighbours(s) {
                if let Cell::Stone(_) = self.cells[m] {
                    let hm = self.head_of(m);
                    self.add_lib(hm, s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::random::random_position;

    /// What `Board::play` says of `c` at `i`: `None` when illegal (suicide, ko retake),
    /// else whether the move is a self-atari, and the stones it captures.
    fn by_playing(board: &Board, c: Color, i: Idx) -> Option<(bool, u32)> {
        let mut trial = board.clone();
        let out = trial.play(c, board.point(i)).ok()?;
        (out.suicided == 0 && !out.ko_retake).then(|| {
            (
                out.captured == 0 && trial.liberties_upto(i, 2) == 1,
                out.captured,
            )
        })
    }

    /// `liberties_if_played` counts what putting the stone (and an opponent stone on the
    /// excepted point) on a copy of `Board` and walking the block gives, up to the limit.
    #[test]
    fn liberties_if_played_agrees_with_walking_the_block() {
        for seed in 0..20u64 {
            let (board, _) = random_position(seed, 9, 45);
            let empty: Vec<Idx> = board
                .points()
                .filter(|&i| board.cell(i) == Cell::Empty)
                .collect();
            let mut fast = FastBoard::from_board(&board);
            for c in [Color::Black, Color::White] {
                for &i in &empty {
                    for &e in empty.iter().filter(|&&e| e != i).take(12) {
                        let mut trial = board.clone();
                        trial.setup(board.point(i), Some(c)).unwrap();
                        trial.setup(board.point(e), Some(c.opponent())).unwrap();
                        let walked = trial.liberties_upto(i, 3).min(3) as usize;
                        assert_eq!(fast.liberties_if_played(c, i, e, 3), walked, "seed {seed}");
                    }
                }
            }
        }
    }

    /// `fill_safely` says what putting the stone on a copy of `Board` and walking the blocks
    /// says: the block it joins keeps two liberties and no opponent block beside it loses its
    /// last one.
    #[test]
    fn fill_safely_agrees_with_walking_the_blocks() {
        for seed in 0..40u64 {
            let (board, _) = random_position(seed, 9, 50);
            let points: Vec<Idx> = board.points().collect();
            for c in [Color::Black, Color::White] {
                for &i in points.iter().filter(|&&i| board.cell(i) == Cell::Empty) {
                    let mut trial = board.clone();
                    trial.setup(board.point(i), Some(c)).unwrap();
                    let walked = trial.liberties_upto(i, 2) >= 2
                        && trial.neighbours(i).into_iter().all(|n| {
                            trial.cell(n) != Cell::Stone(c.opponent())
                                || trial.liberties_upto(n, 1) > 0
                        });
                    let mut fast = FastBoard::from_board(&board);
                    assert_eq!(fast.fill_safely(c, i), walked, "seed {seed}");
                    let after = if walked { &trial } else { &board };
                    for p in board.points() {
                        assert_eq!(fast.cell(p), after.cell(p), "seed {seed}");
                    }
                }
            }
        }
    }

    /// The stones of the block at `i`, by a fill.
    fn block_size(b: &Board, i: Idx) -> u32 {
        let mut seen = vec![i];
        let mut k = 0;
        while k < seen.len() {
            for n in b.neighbours(seen[k]) {
                if b.cell(n) == b.cell(i) && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            k += 1;
        }
        seen.len() as u32
    }

    /// `small_sacrifice` says what putting the stone on a copy of `Board` and filling its
    /// block and the opponent blocks beside it says.
    #[test]
    fn small_sacrifice_agrees_with_walking_the_blocks() {
        for seed in 0..40u64 {
            let (board, _) = random_position(seed, 9, 20 + seed as usize * 2);
            let fast = FastBoard::from_board(&board);
            let empty: Vec<Idx> = board
                .points()
                .filter(|&i| board.cell(i) == Cell::Empty)
                .collect();
            for c in [Color::Black, Color::White] {
                for &i in &empty {
                    let mut trial = board.clone();
                    trial.setup(board.point(i), Some(c)).unwrap();
                    for (most, target) in [(1, 1), (2, 3), (3, 2)] {
                        let ataris = trial.neighbours(i).into_iter().any(|n| {
                            trial.cell(n) == Cell::Stone(c.opponent())
                                && block_size(&trial, n) >= target
                                && trial.clone().liberties_upto(n, 2) == 1
                        });
                        let walked = block_size(&trial, i) <= most && ataris;
                        assert_eq!(
                            fast.small_sacrifice(c, i, most, target),
                            walked,
                            "seed {seed} at {}",
                            board.point(i)
                        );
                    }
                }
            }
        }
    }

    /// Built from the net, the board holds the same blocks, heads and liberty sums as built by
    /// filling, and the same stones on each block's list.
    #[test]
    fn from_net_matches_from_board() {
        for seed in 0..60u64 {
            let size = [5, 9, 13, 19][seed as usize % 4];
            let (board, _) = random_position(seed, size, seed as usize * 7 % 300);
            let net = Net::build(&board);
            let (a, b) = (
                FastBoard::from_board(&board),
                FastBoard::from_net(&board, &net),
            );
            assert_eq!(a.cells, b.cells);
            for i in board.points() {
                if let Cell::Stone(_) = board.cell(i) {
                    let h = a.head_of(i);
                    assert_eq!(h, b.head_of(i), "seed {seed}");
                    assert_eq!(
                        (a.stones[h], a.plib[h], a.lsum[h], a.lsq[h]),
                        (b.stones[h], b.plib[h], b.lsum[h], b.lsq[h]),
                        "seed {seed}"
                    );
                    let walk = |f: &FastBoard| {
                        let mut on = vec![f.head_of(i)];
                        while f.next[*on.last().unwrap()] as usize != on[0] {
                            on.push(f.next[*on.last().unwrap()] as usize);
                        }
                        on.sort_unstable();
                        on
                    };
                    assert_eq!(walk(&a), walk(&b), "seed {seed}");
                }
            }
            for c in [Color::Black, Color::White] {
                let heads: Vec<Idx> = net.blocks_of(c).map(|id| net.blocks[id].anchor).collect();
                assert_eq!(b.heads(c), heads, "seed {seed}");
            }
        }
    }

    /// The block walks the race reader uses agree with `Board`: liberties (all of them, or
    /// one past the limit), the block's stones, and one head per neighbouring block.
    #[test]
    fn block_walks_match_board() {
        for seed in 0..40u64 {
            let size = [5, 9, 13, 19][seed as usize % 4];
            let (mut board, _) = random_position(seed, size, seed as usize * 7 % 300);
            let mut fast = FastBoard::from_board(&board);
            let (mut libs, mut beside) = (Vec::new(), Vec::new());
            for i in board.points() {
                let Cell::Stone(c) = board.cell(i) else {
                    continue;
                };
                let all = board.liberties_upto(i, 400) as usize;
                fast.liberties(i, 400, &mut libs);
                assert_eq!(libs.len(), all, "seed {seed}");
                fast.liberties(i, 1, &mut libs);
                assert_eq!(libs.len(), all.min(2), "seed {seed}");
                let stones = fast.stones(i);
                assert!(stones.iter().all(|&s| fast.head(s) == fast.head(i)));
                assert_eq!(
                    stones.len() as u32,
                    u32::from(fast.stones[fast.head(i)]),
                    "seed {seed}"
                );
                fast.neighbour_blocks(i, c.opponent(), &mut beside);
                let mut heads: Vec<Idx> = stones
                    .iter()
                    .flat_map(|&s| board.neighbours(s))
                    .filter(|&n| board.cell(n) == Cell::Stone(c.opponent()))
                    .map(|n| fast.head(n))
                    .collect();
                heads.sort_unstable();
                heads.dedup();
                beside.sort_unstable();
                assert_eq!(beside, heads, "seed {seed}");
            }
        }
    }

    /// Plays the same random legal moves on both boards and compares them after each one,
    /// `Board::play` on a copy deciding legality and self-atari.
    #[test]
    fn follows_board_exactly() {
        for seed in 0..40u64 {
            let (mut board, mut c) = random_position(seed, 9, 30);
            let mut fast = FastBoard::from_board(&board);
            let mut rng = crate::go::random::Rng::new(seed);
            for _ in 0..200 {
                let mut legal = Vec::new();
                let points: Vec<Idx> = board.points().collect();
                for i in points {
                    if board.cell(i) == Cell::Empty {
                        let played = by_playing(&board, c, i);
                        assert_eq!(fast.is_legal(c, i), played.is_some(), "seed {seed}");
                        if let Some((self_atari, _)) = played {
                            assert_eq!(fast.self_atari(c, i), self_atari, "seed {seed}");
                            legal.push(i);
                        }
                    } else if let Cell::Stone(_) = board.cell(i) {
                        assert_eq!(fast.in_atari(i), board.liberties_upto(i, 2) == 1);
                    }
                }
                if legal.is_empty() {
                    board.pass();
                    fast.pass();
                } else {
                    let i = legal[rng.below(legal.len())];
                    let out = board.play(c, board.point(i)).unwrap();
                    assert_eq!(fast.play(c, i), out.captured);
                }
                for i in board.points() {
                    assert_eq!(fast.cell(i), board.cell(i), "seed {seed}");
                }
                c = c.opponent();
            }
        }
    }
}
