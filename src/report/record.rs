//! A position as an SGF record that a Go editor (Sabaki, CGoban, …) opens: the stones as
//! setup, the finishing moves as the line that follows, and at its end the count as TB/TW
//! (territory, the points of the dead stones included), with a comment that gives the count,
//! RE and each method's verdicts.

use std::fmt::Write as _;

use super::drawing::go_name;
use crate::go::{Cell, Color, Point};
use crate::life::Method;
use crate::look::Look;

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
        ("KM", &info.km),
        ("RU", &info.ru),
        ("RE", &info.re),
    ] {
        if !value.is_empty() {
            let _ = write!(s, "{id}[{}]", escape(value));
        }
    }
    for (id, colour) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<Point> = l
            .board
            .points()
            .filter(|&i| l.board.cell(i) == Cell::Stone(colour))
            .map(|i| l.board.point(i))
            .collect();
        if !stones.is_empty() {
            s.push_str(id);
            for p in stones {
                let _ = write!(s, "[{p}]");
            }
        }
    }
    let _ = write!(
        s,
        "PL[{}]C[{}]",
        l.to_move.letter(),
        escape(&root_comment(l, title))
    );
    if let Some(f) = &l.finishing {
        for (c, p, why) in &f.moves {
            let _ = write!(
                s,
                "\n;{}[{p}]C[finishing: {}]",
                c.letter(),
                escape(why.as_str())
            );
        }
    }
    if let Some(count) = &l.count {
        s.push_str("\n;");
        for (id, points) in [("TB", &count.territory[0]), ("TW", &count.territory[1])] {
            if !points.is_empty() {
                s.push_str(id);
                for p in points {
                    let _ = write!(s, "[{p}]");
                }
            }
        }
        let _ = write!(s, "C[{}]", escape(&count_line(l)));
    }
    s.push_str(")\n");
    s
}

/// The count in words: whose dead stones, the rules, the finishing, the margin, RE.
pub fn count_line(l: &Look) -> String {
    let Some(count) = &l.count else {
        return format!("not the end of the record (move {})", l.moves);
    };
    let finished = l.finishing.as_ref().map_or(0, |f| f.moves.len());
    let margin = count.margin.map_or("rules unknown".to_string(), signed);
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

/// A margin as RE writes it: `B+3.5`, `W+0.5`, `0`.
fn signed(m: f32) -> String {
    if m > 0.0 {
        format!("B+{m}")
    } else if m < 0.0 {
        format!("W+{}", -m)
    } else {
        "0".to_string()
    }
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

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r"a]b\c"), r"a\]b\\c");
    }
}
