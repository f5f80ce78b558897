//! A position as an SGF record that a Go editor (Sabaki, CGoban, …) opens and counts as
//! the tool counted it: the record's setup and moves as played (so its prisoners are the
//! game's), the finishing moves as the line that follows, a pass wherever one colour would
//! play twice, two passes, then the count's marks as TB/TW (`Decision::marks`: territory,
//! less teire under territory counting, and every dead stone still standing) with a comment
//! whose terms an editor adds up from the file. HA, KM and RU are the ones counted under,
//! in a form this tool reads back to the same rules and komi.

use std::fmt::Write as _;

use super::drawing::go_name;
use crate::go::rules::{Ruleset, Scoring};
use crate::go::{Cell, Color, Point};
use crate::life::Method;
use crate::look::Look;
use crate::score::Sides;
use crate::sgf::result::result_text;

/// The SGF text of `l`, titled `title` (the file and game it comes from).
pub fn position_sgf(l: &Look, title: &str) -> String {
    let size = l.board.size();
    let mut s = String::from("(;GM[1]FF[4]CA[UTF-8]");
    let _ = write!(
        s,
        "AP[livingblocks:{}]SZ[{size}]",
        env!("CARGO_PKG_VERSION")
    );
    let info = &l.info;
    for (id, value) in [
        ("PB", &info.pb),
        ("PW", &info.pw),
        ("DT", &info.dt),
        ("EV", &info.ev),
        ("PC", &info.pc),
        ("RE", &info.re),
    ] {
        if !value.is_empty() {
            let _ = write!(s, "{id}[{}]", escape(value));
        }
    }
    let rec = &l.record;
    let _ = write!(s, "HA[{}]KM[{}]", rec.handicap, rec.komi);
    if let Some(ru) = ru_name(rec.rules.name) {
        let _ = write!(s, "RU[{ru}]");
    }
    let mut moves = Moves::default();
    match &l.line {
        Some(line) => {
            for (id, colour) in [("AB", Color::Black), ("AW", Color::White)] {
                let stones: Vec<Point> = line
                    .setup
                    .iter()
                    .filter(|&&(c, _)| c == colour)
                    .map(|&(_, p)| p)
                    .collect();
                write_points(&mut s, id, &stones);
            }
            let _ = write!(s, "C[{}]", escape(&root_comment(l, title)));
            for &(c, p) in &line.moves {
                moves.play(&mut s, c, p, "");
            }
        }
        None => {
            // No move list (setup past the root, erasures): the position as setup, and
            // the game's prisoners only in the comment.
            for (id, colour) in [("AB", Color::Black), ("AW", Color::White)] {
                let stones: Vec<Point> = l
                    .board
                    .points()
                    .filter(|&i| l.board.cell(i) == Cell::Stone(colour))
                    .map(|i| l.board.point(i))
                    .collect();
                write_points(&mut s, id, &stones);
            }
            let _ = write!(
                s,
                "PL[{}]C[{}]",
                l.to_move.letter(),
                escape(&root_comment(l, title))
            );
        }
    }
    if let Some(f) = &l.finishing {
        for &(c, p, why) in &f.moves {
            let comment = format!("finishing: {}", why.as_str());
            moves.play(&mut s, c, Some(p), &comment);
        }
    }
    if let Some(count) = &l.count {
        moves.end(&mut s, l.to_move);
        s.push_str("\n;");
        write_points(&mut s, "TB", &count.marks[0]);
        write_points(&mut s, "TW", &count.marks[1]);
        let mut text = count_line(l);
        if let Some(sides) = &count.sides {
            let _ = write!(text, "\n{}", sides_line(sides));
        }
        let _ = write!(s, "C[{}]", escape(&text));
    }
    s.push_str(")\n");
    s
}

/// The moves written so far. A Go editor expects the colours to alternate and ends the
/// game at two passes in a row, while records and the finishing can have one colour play
/// twice (a handicap stone as a move, a missed pass, the side that wins a race moving
/// again): a pass goes between two moves of one colour, and the game ends with passes.
#[derive(Default)]
struct Moves {
    last: Option<Color>,
    /// Passes in a row at the end of what is written.
    passes: u32,
}

impl Moves {
    /// `c` at `p` (`None`: a pass), after a pass of the other colour when `c` moved last.
    fn play(&mut self, s: &mut String, c: Color, p: Option<Point>, comment: &str) {
        if self.last == Some(c) {
            self.put(s, c.opponent(), None, "");
        }
        self.put(s, c, p, comment);
    }

    /// Passes until two end the game, the first by the colour that did not move last
    /// (`first` when nothing was played).
    fn end(&mut self, s: &mut String, first: Color) {
        while self.passes < 2 {
            let next = self.last.map_or(first, Color::opponent);
            self.put(s, next, None, "");
        }
    }

    /// `;B[pp]`, a pass as `;B[]`, with a comment when there is one.
    fn put(&mut self, s: &mut String, c: Color, p: Option<Point>, comment: &str) {
        let _ = write!(s, "\n;{}[", c.letter());
        if let Some(p) = p {
            let _ = write!(s, "{p}");
        }
        s.push(']');
        if !comment.is_empty() {
            let _ = write!(s, "C[{}]", escape(comment));
        }
        self.last = Some(c);
        self.passes = if p.is_none() { self.passes + 1 } else { 0 };
    }
}

/// A list property (`AB[aa][bb]`), nothing when there are no points.
fn write_points(s: &mut String, id: &str, points: &[Point]) {
    if !points.is_empty() {
        s.push_str(id);
        for p in points {
            let _ = write!(s, "[{p}]");
        }
    }
}

/// RU for a ruleset, one `sgf::result::parse_rules` reads back to it; none for unknown
/// rules (the margin is not counted then).
fn ru_name(r: Ruleset) -> Option<&'static str> {
    match r {
        Ruleset::Japanese => Some("Japanese"),
        Ruleset::Chinese => Some("Chinese"),
        Ruleset::Aga => Some("AGA"),
        Ruleset::Nz => Some("NZ"),
        Ruleset::Ing => Some("Ing"),
        Ruleset::Korean => Some("Korean"),
        Ruleset::Unknown => None,
    }
}

/// The margin's terms as an editor adds them up: territory and prisoners (the game's, the
/// finishing's, the dead stones) and komi under territory counting, stones and territory
/// and komi under area counting.
pub fn sides_line(t: &Sides) -> String {
    let side = |k: usize| -> String {
        let mut terms = match t.scoring {
            Scoring::Territory => {
                format!("territory {} + prisoners {}", t.points[k], t.prisoners[k])
            }
            Scoring::Area => format!("stones and territory {}", t.points[k]),
        };
        let mut total = (t.points[k] + t.prisoners[k]) as f32;
        if k == 1 {
            if t.komi != 0.0 {
                let _ = write!(terms, " + komi {}", t.komi);
                total += t.komi;
            }
            if t.compensation != 0.0 {
                let _ = write!(terms, " + handicap {}", t.compensation);
                total += t.compensation;
            }
        }
        format!("{total} ({terms})")
    };
    format!(
        "Black {}, White {}: {}",
        side(0),
        side(1),
        result_text(t.margin())
    )
}

/// The count in words: whose dead stones, the rules, the finishing, the margin, RE.
pub fn count_line(l: &Look) -> String {
    let Some(count) = &l.count else {
        return format!("not the end of the record (move {})", l.moves);
    };
    let finished = l.finishing.as_ref().map_or(0, |f| f.moves.len());
    let margin = count
        .margin
        .map_or("rules unknown".to_string(), result_text);
    let re = if l.info.re.is_empty() {
        "no RE".to_string()
    } else {
        format!("RE {}", l.info.re)
    };
    format!(
        "count with the {} dead stones, {} rules, {finished} finishing moves: {margin}; {re}",
        count.source.name(),
        count.rules
    )
}

fn root_comment(l: &Look, title: &str) -> String {
    let size = l.board.size();
    let mut c = format!("{title}, after {} moves.\n{}\n", l.moves, count_line(l));
    let named = |points: &[Point]| {
        if points.is_empty() {
            "none".to_string()
        } else {
            let v: Vec<String> = points.iter().map(|&p| go_name(p, size)).collect();
            v.join(" ")
        }
    };
    if let Some(count) = &l.count {
        if let Some(sides) = &count.sides {
            let _ = writeln!(c, "{}", sides_line(sides));
        }
        let _ = writeln!(
            c,
            "Dead in the count, marked TB/TW at the end: {}",
            named(&count.dead)
        );
    }
    if l.line.is_none() {
        let _ = writeln!(
            c,
            "The record's moves are not written (setup past the root): stones taken in the \
             game, Black {}, White {}.",
            l.captures[0], l.captures[1]
        );
    }
    if let Some(m) = &l.dead_markup {
        let _ = writeln!(c, "Dead by the markup: {}", named(m));
    }
    let _ = writeln!(c, "Dead by the estimate: {}", named(&l.dead_estimate));
    let verdicts: Vec<String> = Method::ALL
        .iter()
        .map(|&m| {
            let alive = l.blocks.iter().filter(|b| b.verdict.alive(m)).count();
            format!("{} {alive}", m.name())
        })
        .collect();
    let _ = write!(
        c,
        "Blocks called alive, of {}: {}",
        l.blocks.len(),
        verdicts.join(", ")
    );
    c
}

/// SGF text escapes `]` and `\`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::look::look;

    /// A counted 9×9 record with the last dame open: the SGF holds the position, the
    /// finishing move and the count, and reading it back gives the same stones and marks.
    #[test]
    fn the_sgf_holds_the_position_the_finish_and_the_count() {
        let record = b"(;SZ[9]KM[0.5]RU[Chinese]RE[W+9.5]PB[Black \\] one]\
            AB[da][db][dc][dd][de][df][dg][dh][di]AW[ea][eb][ec][ed][ee][ef][eg][eh][bb]\
            AW[fa][fb][fc][fd][fe][ff][fg][fh][fi];B[])";
        let l = look(record, 0, None).unwrap();
        let sgf = position_sgf(&l, "t.sgf game 0");
        assert!(sgf.starts_with("(;GM[1]FF[4]CA[UTF-8]"), "{sgf}");
        assert!(sgf.contains("PB[Black \\] one]"), "{sgf}");
        assert!(sgf.contains("AB[da][db]"), "{sgf}");
        let f = l
            .finishing
            .as_ref()
            .expect("a finishing move at ei, the last dame");
        assert_eq!(f.moves.len(), 1, "{sgf}");
        assert!(sgf.contains(";W[ei]C[finishing: dame]"), "{sgf}");
        let tree = crate::sgf::load(&sgf).unwrap();
        let Ok(crate::sgf::load::Tree::Go(root)) = &tree.trees[0].tree else {
            panic!("{sgf}")
        };
        let r = crate::go::replay(root).unwrap();
        assert!(r.has_markup);
        let bb = Point::from_sgf("bb").unwrap();
        // White's stone inside Black's side is dead: its point is Black's territory.
        assert!(r.territory_markup[0].contains(&bb), "{sgf}");
        assert_eq!(r.board.count(Color::Black), 9);
        assert_eq!(
            count_line(&l),
            "count with the estimate dead stones, chinese rules, 1 finishing moves: W+9.5; \
             RE W+9.5"
        );
    }

    /// Two moves of one colour get a pass of the other between them; the game ends with two
    /// passes in a row, counting a pass already written, the first by the colour that did
    /// not move last.
    #[test]
    fn passes_keep_the_colours_alternating_and_end_the_game() {
        let (b, w) = (Color::Black, Color::White);
        let p = |s: &str| Some(Point::from_sgf(s).unwrap());
        let mut s = String::new();
        let mut moves = Moves::default();
        moves.play(&mut s, b, p("aa"), "");
        moves.play(&mut s, w, p("bb"), "");
        moves.play(&mut s, w, p("cc"), "finishing: dame");
        moves.play(&mut s, b, None, "");
        moves.end(&mut s, b);
        assert_eq!(
            s,
            "\n;B[aa]\n;W[bb]\n;B[]\n;W[cc]C[finishing: dame]\n;B[]\n;W[]"
        );
        let mut s = String::new();
        let mut moves = Moves::default();
        moves.end(&mut s, w);
        assert_eq!(s, "\n;W[]\n;B[]");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r"a]b\c"), r"a\]b\\c");
    }
}
