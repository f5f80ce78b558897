//! A Go position: stones on a square board, captures, suicide and simple ko.
//!
//! The board is a padded one-dimensional array (a ring of `Wall` cells around the playing
//! area, as in KataGo's `Board`), so neighbour lookups need no bounds checks. A position has
//! no history beyond the simple-ko point; move order, passes and counters live in `replay`.

use std::fmt;

/// Smallest and largest board sides the tool replays.
pub const MIN_SIZE: u8 = 2;
pub const MAX_SIZE: u8 = 25;

/// A player, or the colour of a stone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The SGF letter for the colour, as in `B[..]` / `W[..]`.
    pub fn letter(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    /// Index for per-colour arrays: Black 0, White 1.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a cell of the padded array holds.
#[derive(Copy, Clone, Debug, Eq)]
pub enum Cell {
    Empty,
    Stone(Color),
    Wall,
}

/// Comparing cells is one byte compare; the derived comparison tested the variant, then the
/// colour, and cells are compared more than anything else in the program.
impl PartialEq for Cell {
    #[inline]
    fn eq(&self, other: &Cell) -> bool {
        self.code() == other.code()
    }
}

impl Cell {
    /// The byte that stores the cell: distinct per value, since it is all that tells the
    /// values apart.
    #[inline]
    fn code(self) -> u8 {
        const _: () = assert!(std::mem::size_of::<Cell>() == 1);
        // SAFETY: `Cell` is one byte (checked above) with no padding, so every value of it is
        // an initialised byte.
        unsafe { std::mem::transmute::<Cell, u8>(self) }
    }

    /// Bit 0 for a black stone, bit 1 for a white one, nothing for the rest: or-ed over a
    /// point's neighbours or a region's border, the colours around it, without a branch.
    #[inline]
    pub fn colour_bits(self) -> u8 {
        u8::from(self == Cell::Stone(Color::Black))
            | u8::from(self == Cell::Stone(Color::White)) << 1
    }
}

/// A point on the board in SGF coordinates: `x` is the column, `y` the row, both 0-based from
/// the top-left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Parses an SGF point such as `dd`; letters `a`–`z` then `A`–`Z`, as FF[4] writes boards
    /// up to 52.
    pub fn from_sgf(s: &str) -> Option<Point> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        Some(Point::new(sgf_coord(b[0])?, sgf_coord(b[1])?))
    }
}

fn sgf_coord(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

fn sgf_letter(v: u8) -> u8 {
    if v < 26 {
        b'a' + v
    } else {
        b'A' + v - 26
    }
}

impl Point {
    /// The SGF form as two bytes, e.g. `dd`, for writers that avoid allocating.
    pub fn sgf_bytes(self) -> [u8; 2] {
        [sgf_letter(self.x), sgf_letter(self.y)]
    }
}

impl fmt::Display for Point {
    /// Writes the SGF form, e.g. `dd`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y] = self.sgf_bytes();
        write!(f, "{}{}", x as char, y as char)
    }
}

/// Whether every on-board neighbour (of a point whose `neighbours` these are) is a stone of
/// `c`: an own eye point, which no random player fills. The one test for `Board` and the
/// playouts' board, which share the padded layout.
#[inline]
pub fn own_eye_point(cells: &[Cell], neighbours: [Idx; 4], c: Color) -> bool {
    neighbours
        .iter()
        .all(|&n| matches!(cells[n], Cell::Wall) || cells[n] == Cell::Stone(c))
}

/// Index of a cell in the padded array.
pub type Idx = usize;

/// The on-board indices of a board in point order. A plain counter that hops over the two
/// wall cells between rows: every pass over a board runs through it, and a nested iterator
/// cost a multiplication and two checks per point.
#[derive(Clone, Debug)]
pub struct Points {
    next: Idx,
    row_end: Idx,
    end: Idx,
    stride: usize,
}

impl Points {
    pub fn new(size: u8) -> Points {
        let (n, stride) = (size as usize, size as usize + 2);
        Points {
            next: stride + 1,
            row_end: stride + 1 + n,
            end: n * stride + n + 1,
            stride,
        }
    }
}

impl Iterator for Points {
    type Item = Idx;

    #[inline]
    fn next(&mut self) -> Option<Idx> {
        if self.next == self.row_end {
            self.next += 2;
            self.row_end += self.stride;
        }
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += 1;
        Some(i)
    }
}

/// Why a stone cannot be put on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("point {0} is off the board")]
    OffBoard(Point),
    #[error("point {0} is occupied")]
    Occupied(Point),
}

/// What a legal-or-tolerated move did to the position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayOutcome {
    /// Opponent stones removed.
    pub captured: u32,
    /// Own stones removed because the move left its block without liberties.
    pub suicided: u32,
    /// The move retook a simple ko at once (illegal under every ruleset; applied anyway).
    pub ko_retake: bool,
}

/// A square Go board of side 2 to 25.
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: usize,
    cells: Vec<Cell>,
    /// The point the given colour may not play at once (simple ko), if any.
    ko: Option<(Idx, Color)>,
    /// Scratch space for flood fills: `mark[i] == stamp` means visited in this fill.
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Idx>,
    group: Vec<Idx>,
}

impl Board {
    /// An empty board; `None` when the side is outside 2..=25.
    pub fn new(size: u8) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let stride = size as usize + 2;
        let mut cells = vec![Cell::Wall; stride * stride];
        for y in 0..size {
            for x in 0..size {
                cells[(y as usize + 1) * stride + x as usize + 1] = Cell::Empty;
            }
        }
        Some(Board {
            size,
            stride,
            mark: vec![0; cells.len()],
            cells,
            ko: None,
            stamp: 0,
            stack: Vec::with_capacity(64),
            group: Vec::with_capacity(64),
        })
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of cells in the padded array; indices run below this.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The index of a point, or `None` when it is off the board.
    pub fn idx(&self, p: Point) -> Option<Idx> {
        (p.x < self.size && p.y < self.size)
            .then(|| (p.y as usize + 1) * self.stride + p.x as usize + 1)
    }

    /// The point at an on-board index.
    pub fn point(&self, i: Idx) -> Point {
        Point::new((i % self.stride - 1) as u8, (i / self.stride - 1) as u8)
    }

    pub fn cell(&self, i: Idx) -> Cell {
        self.cells[i]
    }

    /// Every cell of the padded array, walls included, by index.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    pub fn at(&self, p: Point) -> Cell {
        self.idx(p).map_or(Cell::Wall, |i| self.cells[i])
    }

    /// The distance between vertically adjacent cells of the padded array.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The four orthogonal neighbours of a cell (some may be walls).
    #[inline]
    pub fn neighbours(&self, i: Idx) -> [Idx; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    /// Whether every on-board neighbour of `i` is a stone of `c` (see `own_eye_point`).
    pub fn is_own_eye_point(&self, i: Idx, c: Color) -> bool {
        own_eye_point(&self.cells, self.neighbours(i), c)
    }

    /// On-board indices in SGF point order (row-major from the top-left).
    pub fn points(&self) -> Points {
        Points::new(self.size)
    }

    /// Number of stones of a colour on the board.
    pub fn count(&self, c: Color) -> u32 {
        self.cells.iter().filter(|&&x| x == Cell::Stone(c)).count() as u32
    }

    /// Puts a stone or clears a point without captures (SGF setup: AB, AW, AE). Clears the ko.
    pub fn setup(&mut self, p: Point, cell: Option<Color>) -> Result<(), PlayError> {
        let i = self.idx(p).ok_or(PlayError::OffBoard(p))?;
        self.cells[i] = cell.map_or(Cell::Empty, Cell::Stone);
        self.ko = None;
        Ok(())
    }

    /// A pass: only forgets the ko.
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays a stone with captures. Suicide is applied (the block is removed) and an immediate
    /// ko retake is applied too: records hold such moves, and the replay notes them.
    pub fn play(&mut self, c: Color, p: Point) -> Result<PlayOutcome, PlayError> {
        let i = self.idx(p).ok_or(PlayError::OffBoard(p))?;
        if self.cells[i] != Cell::Empty {
            return Err(PlayError::Occupied(p));
        }
        let mut out = PlayOutcome {
            ko_retake: self.ko == Some((i, c)),
            ..PlayOutcome::default()
        };
        self.cells[i] = Cell::Stone(c);
        let opp = Cell::Stone(c.opponent());
        let mut last_captured = None;
        for n in self.neighbours(i) {
            if self.cells[n] == opp && !self.has_liberty(n) {
                let removed = self.remove_group();
                if removed == 1 {
                    last_captured = Some(n);
                }
                out.captured += removed;
            }
        }
        if !self.has_liberty(i) {
            out.suicided = self.remove_group();
        }
        // Simple ko: a single stone captured exactly one stone and stands alone in atari.
        self.ko = None;
        if out.captured == 1 && out.suicided == 0 {
            if let Some(k) = last_captured {
                let alone = self
                    .neighbours(i)
                    .iter()
                    .all(|&n| self.cells[n] != Cell::Stone(c));
                let libs = self
                    .neighbours(i)
                    .iter()
                    .filter(|&&n| self.cells[n] == Cell::Empty)
                    .count();
                if alone && libs == 1 {
                    self.ko = Some((k, c.opponent()));
                }
            }
        }
        Ok(out)
    }

    /// Distinct liberties of the block at `start`, counted up to `limit` (the count stops
    /// there: callers ask "at least two?", and a full count walks the whole block). The
    /// walking reference the playout board's liberty counts are tested against.
    #[cfg(test)]
    pub fn liberties_upto(&mut self, start: Idx, limit: u32) -> u32 {
        let colour = self.cells[start];
        self.next_stamp();
        self.stack.clear();
        self.stack.push(start);
        self.mark[start] = self.stamp;
        let mut libs = 0;
        while let Some(i) = self.stack.pop() {
            for n in self.neighbours(i) {
                if self.mark[n] == self.stamp {
                    continue;
                }
                let cell = self.cells[n];
                if cell == Cell::Empty {
                    self.mark[n] = self.stamp;
                    libs += 1;
                    if libs >= limit {
                        return libs;
                    }
                } else if cell == colour {
                    self.mark[n] = self.stamp;
                    self.stack.push(n);
                }
            }
        }
        libs
    }

    /// Flood-fills the block at `start` into `self.group` and says whether it has a liberty.
    /// Stops early at the first liberty, so `group` is complete only when it returns false.
    #[inline]
    fn has_liberty(&mut self, start: Idx) -> bool {
        // Most blocks a move touches have a liberty beside the stone asked about: one test,
        // mostly true, instead of a fill whose first steps branch unpredictably. Inlined, so
        // that only the fill is a call.
        let beside = self
            .neighbours(start)
            .iter()
            .fold(false, |any, &n| any | (self.cells[n] == Cell::Empty));
        beside || self.fill_finds_liberty(start)
    }

    /// The fill behind `has_liberty`.
    #[inline(never)]
    fn fill_finds_liberty(&mut self, start: Idx) -> bool {
        let colour = self.cells[start];
        self.next_stamp();
        self.group.clear();
        self.stack.clear();
        self.stack.push(start);
        self.mark[start] = self.stamp;
        while let Some(i) = self.stack.pop() {
            self.group.push(i);
            for n in self.neighbours(i) {
                let cell = self.cells[n];
                if cell == Cell::Empty {
                    return true;
                }
                if cell == colour && self.mark[n] != self.stamp {
                    self.mark[n] = self.stamp;
                    self.stack.push(n);
                }
            }
        }
        false
    }

    /// Removes the stones collected by the last `has_liberty` that returned false.
    fn remove_group(&mut self) -> u32 {
        for &g in &self.group {
            self.cells[g] = Cell::Empty;
        }
        self.group.len() as u32
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// The board as ASCII rows: `X` black, `O` white, `.` empty.
    pub fn to_ascii(&self) -> String {
        let mut s = String::new();
        for y in 0..self.size {
            for x in 0..self.size {
                s.push(match self.at(Point::new(x, y)) {
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// Builds a board from ASCII rows (`X`/`#` black, `O` white, anything else empty);
    /// whitespace inside a row is ignored. For tests and debugging.
    pub fn from_ascii(text: &str) -> Board {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len() as u8;
        let mut b = Board::new(size).expect("ASCII board of side 2..=25");
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows.len(), "ASCII board must be square");
            for (x, ch) in row.iter().enumerate() {
                let cell = match ch {
                    'X' | '#' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                b.setup(Point::new(x as u8, y as u8), cell).unwrap();
            }
        }
        b
    }
}

/// Two boards are equal when they hold the same stones and the same ko; scratch space aside.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.cells == other.cells && self.ko == other.ko
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.to_ascii())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    fn ascii(s: &str) -> String {
        Board::from_ascii(s).to_ascii()
    }

    #[test]
    fn points_run_in_sgf_order_over_the_board_only() {
        for size in [2u8, 9, 19, 25] {
            let b = Board::new(size).unwrap();
            let got: Vec<Point> = b.points().map(|i| b.point(i)).collect();
            let want: Vec<Point> = (0..size)
                .flat_map(|y| (0..size).map(move |x| Point::new(x, y)))
                .collect();
            assert_eq!(got, want, "size {size}");
        }
    }

    #[test]
    fn points_round_trip_through_sgf() {
        assert_eq!(pt("dd"), Point::new(3, 3));
        assert_eq!(pt("aA"), Point::new(0, 26));
        assert_eq!(Point::new(3, 15).to_string(), "dp");
        assert_eq!(Point::from_sgf("d"), None);
        assert_eq!(Point::from_sgf("d1"), None);
    }

    #[test]
    fn sizes_outside_two_to_twenty_five_are_refused() {
        assert!(Board::new(1).is_none());
        assert!(Board::new(26).is_none());
        assert!(Board::new(2).is_some());
        assert!(Board::new(25).is_some());
    }

    #[test]
    fn single_stone_capture_in_the_middle() {
        let mut b = Board::from_ascii(
            ".....
             ..X..
             .XO..
             ..X..
             .....",
        );
        let out = b.play(Color::Black, pt("dc")).unwrap();
        assert_eq!(out.captured, 1);
        assert_eq!(b.at(pt("cc")), Cell::Empty);
        assert_eq!(b.count(Color::White), 0);
    }

    #[test]
    fn multi_stone_capture_at_the_edge() {
        let mut b2 = Board::from_ascii(
            ".OOX.
             .XX..
             .....
             .....
             .....",
        );
        let out = b2.play(Color::Black, pt("aa")).unwrap();
        assert_eq!(out.captured, 2);
        assert_eq!(b2.count(Color::White), 0);
    }

    #[test]
    fn corner_capture() {
        let mut b = Board::from_ascii(
            "OX...
             .....
             .....
             .....
             .....",
        );
        let out = b.play(Color::Black, pt("ab")).unwrap();
        assert_eq!(out.captured, 1);
        assert_eq!(
            b.to_ascii(),
            ascii(
                ".X...
                 X....
                 .....
                 .....
                 ....."
            )
        );
    }

    #[test]
    fn captures_several_blocks_at_once() {
        let mut b = Board::from_ascii(
            ".XOX.
             XO.OX
             .XOX.
             ..X..
             .....",
        );
        // The empty point is the last liberty of four white stones: one move takes all.
        let out = b.play(Color::Black, pt("cb")).unwrap();
        assert_eq!(out.captured, 4);
        assert_eq!(out.suicided, 0);
        assert_eq!(b.count(Color::White), 0);
    }

    #[test]
    fn suicide_removes_the_block_and_is_reported() {
        let mut b = Board::from_ascii(
            ".O...
             OO...
             .....
             .....
             .....",
        );
        let out = b.play(Color::Black, pt("aa")).unwrap();
        assert_eq!(out.suicided, 1);
        assert_eq!(out.captured, 0);
        assert_eq!(b.at(pt("aa")), Cell::Empty);

        // A multi-stone suicide: Black fills its own last liberty.
        let mut b = Board::from_ascii(
            "X.O..
             OO...
             .....
             .....
             .....",
        );
        let out = b.play(Color::Black, pt("ba")).unwrap();
        assert_eq!(out.suicided, 2);
        assert_eq!(b.count(Color::Black), 0);
    }

    #[test]
    fn capture_comes_before_the_suicide_check() {
        // Black plays where it has no liberty but captures the two white stones first.
        let mut b2 = Board::from_ascii(
            ".OX..
             OX...
             X....
             .....
             .....",
        );
        let out = b2.play(Color::Black, pt("aa")).unwrap();
        assert_eq!(out.captured, 2);
        assert_eq!(out.suicided, 0);
        assert_eq!(b2.at(pt("aa")), Cell::Stone(Color::Black));
    }

    #[test]
    fn ko_retake_is_applied_and_noted() {
        let mut b = Board::from_ascii(
            ".XO..
             X.XO.
             .XO..
             .....
             .....",
        );
        // White captures at bb, making a ko; Black retaking at cb at once is noted.
        let out = b.play(Color::White, pt("bb")).unwrap();
        assert_eq!(out.captured, 1);
        let retake = b.play(Color::Black, pt("cb")).unwrap();
        assert!(retake.ko_retake);
        assert_eq!(retake.captured, 1);
    }

    #[test]
    fn ko_is_forgotten_after_a_pass_or_elsewhere_move() {
        let ko_board = ".XO..
             X.XO.
             .XO..
             .....
             .....";
        let mut b = Board::from_ascii(ko_board);
        b.play(Color::White, pt("bb")).unwrap();
        b.pass();
        assert!(!b.play(Color::Black, pt("cb")).unwrap().ko_retake);

        let mut b = Board::from_ascii(ko_board);
        b.play(Color::White, pt("bb")).unwrap();
        b.play(Color::Black, pt("ee")).unwrap();
        b.play(Color::White, pt("ed")).unwrap();
        assert!(!b.play(Color::Black, pt("cb")).unwrap().ko_retake);
    }

    #[test]
    fn capturing_two_stones_makes_no_ko() {
        let mut b = Board::from_ascii(
            ".XOO.
             X.XXO
             .XOO.
             .....
             .....",
        );
        let out = b.play(Color::White, pt("bb")).unwrap();
        assert_eq!(out.captured, 2);
        assert!(!b.play(Color::Black, pt("cb")).unwrap().ko_retake);
    }

    #[test]
    fn occupied_and_off_board_moves_are_errors() {
        let mut b = Board::from_ascii(
            "X..
             ...
             ...",
        );
        assert_eq!(
            b.play(Color::White, pt("aa")),
            Err(PlayError::Occupied(pt("aa")))
        );
        assert_eq!(
            b.play(Color::White, pt("dd")),
            Err(PlayError::OffBoard(pt("dd")))
        );
    }

    #[test]
    fn setup_removal_with_ae() {
        let mut b = Board::from_ascii(
            "XO.
             ...
             ...",
        );
        b.setup(pt("aa"), None).unwrap();
        assert_eq!(b.at(pt("aa")), Cell::Empty);
        assert_eq!(b.count(Color::White), 1);
    }
}
