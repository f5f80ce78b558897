//! A diagram as text, for terminals and tests.

use std::fmt::Write as _;

use super::*;

impl Diagram {
    /// The diagram as text: `X` and `O` stones, `.` empty points, `+` star points, the last
    /// stone in parentheses; a stone of a `Cross` layer (dead) in lower case, and a `Triangle`
    /// layer's stones as `#` (Black) and `@` (White). Other layers are in the caption only.
    pub fn ascii(&self) -> String {
        let (x0, y0, x1, y1) = self.view;
        let size = self.board.size();
        let marked = |shape: Shape, p: Point| {
            self.layers
                .iter()
                .any(|l| l.shape == shape && l.points.binary_search(&p).is_ok())
        };
        let stars = self.stars();
        let mut s = String::from("   ");
        for x in x0..=x1 {
            s.push(' ');
            s.push(column_letter(x));
        }
        s.push('\n');
        for y in y0..=y1 {
            let _ = write!(s, "{:>3}", size - y);
            let mut line = String::new();
            for x in x0..=x1 {
                let p = Point::new(x, y);
                let ch = match self.board.at(p) {
                    Cell::Stone(c) if marked(Shape::Cross, p) => {
                        if c == Color::Black {
                            'x'
                        } else {
                            'o'
                        }
                    }
                    Cell::Stone(c) if marked(Shape::Triangle, p) => {
                        if c == Color::Black {
                            '#'
                        } else {
                            '@'
                        }
                    }
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    _ if stars.binary_search(&p).is_ok() => '+',
                    _ => '.',
                };
                let sep = if self.last == Some(p) {
                    '('
                } else if x > x0 && self.last == Some(Point::new(x - 1, y)) {
                    ')'
                } else {
                    ' '
                };
                line.push(sep);
                line.push(ch);
            }
            if self.last == Some(Point::new(x1, y)) {
                line.push(')');
            }
            let _ = writeln!(s, "{line} {}", size - y);
        }
        s
    }
}
