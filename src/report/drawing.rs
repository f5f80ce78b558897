//! Board diagrams as a Go player reads them: SVG for the report and `show --out`, ASCII for
//! terminals and tests. Coordinates run A–T without I, rows counted from the bottom; the SGF
//! point is given beside wherever a text cites one. A diagram is a board and layers of marks,
//! each layer one question (which blocks mp95 calls alive and Benson does not, which stones
//! are dead by whom), so the marked points are exactly the points a table names.

use crate::go::{Board, Cell, Color, Point};

/// How a layer marks its points.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// A red triangle on a stone.
    Triangle,
    /// A green dot on a stone.
    Dot,
    /// A red cross on a stone.
    Cross,
    /// A blue square on a stone.
    Square,
    /// An orange circle on a stone.
    Circle,
    /// An orange triangle's outline on a stone, round where a `Triangle` goes, so that a
    /// stone both mark shows both (and the circle keeps a single meaning in `show`).
    OpenTriangle,
    /// A small square of the owner's colour on an empty point: territory in the count.
    Territory(Color),
    /// A square frame of the owner's colour around a point: Benson's unconditional
    /// territory. A frame, not a square like the count's, since the two differ (the count
    /// also takes what Benson cannot prove) and often fall on one point; it frames a stone
    /// inside too, around its cross, so that a dead stone and the territory it stands in
    /// read together.
    Unconditional(Color),
    /// A faded stone in a dashed ring: a stone of the record the finishing moves capture.
    /// The ring is wider than a numbered stone, so that it shows around a finishing move
    /// played on the point.
    Captured,
    /// A faded numbered stone in the same dashed ring: a finishing move a later one
    /// captures, apart from the numbered stones that stand when the count is made.
    CapturedMove(Color),
    /// A green ring on an empty point: a block's own eye (round the count's square there).
    OwnEye,
    /// A blue ring on an empty point: an eye two blocks or more share.
    SharedEye,
    /// A purple diamond on an empty point: a shared eye that counts for each block at it.
    VitalEye,
    /// A stone of the colour, numbered by its place in the layer: a move played after the
    /// record, in order.
    Numbered(Color),
}

impl Shape {
    /// The name in the SVG's `data-mark`, stable for tests and scripts.
    pub fn id(self) -> &'static str {
        match self {
            Shape::Triangle => "triangle",
            Shape::Dot => "dot",
            Shape::Cross => "cross",
            Shape::Square => "square",
            Shape::Circle => "circle",
            Shape::OpenTriangle => "open-triangle",
            Shape::Territory(Color::Black) => "territory-b",
            Shape::Territory(Color::White) => "territory-w",
            Shape::Unconditional(Color::Black) => "benson-b",
            Shape::Unconditional(Color::White) => "benson-w",
            Shape::Captured => "captured",
            Shape::OwnEye => "own-eye",
            Shape::SharedEye => "shared-eye",
            Shape::VitalEye => "vital-eye",
            Shape::Numbered(Color::Black) => "move-b",
            Shape::Numbered(Color::White) => "move-w",
            Shape::CapturedMove(Color::Black) => "move-b-captured",
            Shape::CapturedMove(Color::White) => "move-w-captured",
        }
    }

    /// Where the mark is drawn in the pile on a point, lowest first: a captured stone's veil,
    /// the eye marks, the marks of a point's area, the marks of a stone, the finishing's
    /// stones on top. Sizes nest so that none hides another: the count's square (4 px from
    /// the centre, 5.7 at its corners) inside an eye ring (6 to 8) and on a diamond whose
    /// tips reach out past it (to 9), a ring inside Benson's frame (from 8.1), a cross
    /// (7.6) inside the frame, the last stone's ring (7.75 to 9.25, drawn over the veil)
    /// round a stone's marks, a numbered stone (10) inside a captured stone's ring (11.5).
    fn depth(self) -> u8 {
        match self {
            Shape::Captured => 0,
            Shape::OwnEye | Shape::SharedEye | Shape::VitalEye => 1,
            Shape::Territory(_) | Shape::Unconditional(_) => 2,
            Shape::Triangle
            | Shape::OpenTriangle
            | Shape::Dot
            | Shape::Cross
            | Shape::Square
            | Shape::Circle => 3,
            Shape::Numbered(_) | Shape::CapturedMove(_) => 4,
        }
    }
}

/// One set of marked points, with what the mark means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub shape: Shape,
    pub label: String,
    pub points: Vec<Point>,
    /// The number of each point of a `Numbered` layer (empty otherwise: numbered in order).
    pub numbers: Vec<usize>,
}

impl Layer {
    fn is_numbered(&self) -> bool {
        matches!(self.shape, Shape::Numbered(_) | Shape::CapturedMove(_))
    }

    /// The number of the layer's `k`th point: its own, else its place.
    fn number(&self, k: usize) -> usize {
        self.numbers.get(k).copied().unwrap_or(k + 1)
    }
}

/// A numbered stone played where an earlier numbered stone stood (captured since): drawn
/// as a note, `29 at 8`, since a stone on top would hide the earlier one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MoveNote {
    shape: Shape,
    point: Point,
    number: usize,
    /// The number of the stone drawn on the point.
    at: usize,
}

impl MoveNote {
    fn text(&self) -> String {
        format!("{} at {}", self.number, self.at)
    }
}

/// Where a mark a numbered stone would cover is drawn instead: so far right of and below
/// the point's centre (clear of a two-digit number), at this scale, on a disc of the board's
/// colour of this radius (the scaled marks reach 10.9 × 0.5 from its centre, Benson's white
/// frame the widest).
const BADGE_OFFSET: f64 = 9.5;
const BADGE_SCALE: f64 = 0.5;
const BADGE_RADIUS: f64 = 5.5;
const BADGE_LABEL: &str = "small, beside a numbered stone: the marks of the point it stands on";

/// Notes on a line of the legend.
const NOTES_PER_LINE: usize = 6;

/// A board to draw: the position, its last stone, the marks, and the part to show.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub board: Board,
    pub last: Option<Point>,
    pub layers: Vec<Layer>,
    /// Columns and rows shown, inclusive: `(x0, y0, x1, y1)` in SGF coordinates.
    pub view: (u8, u8, u8, u8),
}

/// A column's letter as Go players write it: A–Z without I (25 columns, the largest board).
pub fn column_letter(x: u8) -> char {
    let c = b'A' + x;
    (if c >= b'I' { c + 1 } else { c }) as char
}

/// A point as Go players write it, `Q16`, with rows counted from the bottom.
pub fn go_name(p: Point, size: u8) -> String {
    format!("{}{}", column_letter(p.x), size - p.y)
}

/// A point as the report cites it: `Q16 (pd)`.
pub fn cite(p: Point, size: u8) -> String {
    format!("{} ({p})", go_name(p, size))
}

impl Diagram {
    /// The whole board, no marks yet.
    pub fn new(board: Board, last: Option<Point>) -> Diagram {
        let s = board.size() - 1;
        Diagram {
            board,
            last,
            layers: Vec::new(),
            view: (0, 0, s, s),
        }
    }

    /// Adds a layer; an empty one is left out (nothing to say).
    pub fn layer(mut self, shape: Shape, label: impl Into<String>, points: Vec<Point>) -> Self {
        if !points.is_empty() {
            self.layers.push(Layer {
                shape,
                label: label.into(),
                points,
                numbers: Vec::new(),
            });
        }
        self
    }

    /// Adds a layer of numbered stones of colour `c`: moves with their numbers.
    pub fn numbered(
        mut self,
        shape: Shape,
        label: impl Into<String>,
        moves: Vec<(Point, usize)>,
    ) -> Self {
        if !moves.is_empty() {
            let (points, numbers) = moves.into_iter().unzip();
            self.layers.push(Layer {
                shape,
                label: label.into(),
                points,
                numbers,
            });
        }
        self
    }

    /// Shows only the part around `focus` (with two lines of room, reaching the edge when it
    /// is near), unless that part is most of the board anyway.
    pub fn crop_to(mut self, focus: &[Point]) -> Self {
        let size = self.board.size();
        let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
            focus.iter().map(|p| p.x).min(),
            focus.iter().map(|p| p.x).max(),
            focus.iter().map(|p| p.y).min(),
            focus.iter().map(|p| p.y).max(),
        ) else {
            return self;
        };
        let low = |v: u8| if v <= 4 { 0 } else { v - 2 };
        let high = |v: u8| if v + 5 >= size { size - 1 } else { v + 2 };
        let (x0, x1, y0, y1) = (low(x0), high(x1), low(y0), high(y1));
        let big = |a: u8, b: u8| u32::from(b - a + 1) * 10 > u32::from(size) * 7;
        if !(big(x0, x1) && big(y0, y1)) {
            self.view = (x0, y0, x1, y1);
        }
        self
    }

    /// The numbered stones shown that stand where a lower number stands: the `(point,
    /// number)` of each, and their notes in lines, by number.
    fn moves_at_moves(&self) -> (Vec<(Point, usize)>, Vec<Vec<MoveNote>>) {
        let mut moves: Vec<(usize, Point, Shape)> = self
            .layers
            .iter()
            .filter(|l| l.is_numbered())
            .flat_map(|l| {
                l.points
                    .iter()
                    .enumerate()
                    .map(move |(k, &p)| (l.number(k), p, l.shape))
            })
            .filter(|&(_, p, _)| self.shows(p))
            .collect();
        moves.sort_unstable_by_key(|m| m.0);
        let mut first: Vec<(Point, usize)> = Vec::new();
        let mut notes = Vec::new();
        for (number, point, shape) in moves {
            match first.iter().find(|f| f.0 == point) {
                Some(&(_, at)) => notes.push(MoveNote {
                    shape,
                    point,
                    number,
                    at,
                }),
                None => first.push((point, number)),
            }
        }
        let hidden = notes.iter().map(|n| (n.point, n.number)).collect();
        let lines = notes
            .chunks(NOTES_PER_LINE)
            .map(<[MoveNote]>::to_vec)
            .collect();
        (hidden, lines)
    }

    /// Whether any of `points` is in the part drawn.
    pub fn shows_any(&self, points: &[Point]) -> bool {
        points.iter().any(|&p| self.shows(p))
    }

    fn shows(&self, p: Point) -> bool {
        let (x0, y0, x1, y1) = self.view;
        (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y)
    }

    /// Star points (hoshi) of the usual board sizes.
    fn stars(&self) -> Vec<Point> {
        let s = self.board.size();
        let edge = match s {
            13.. => 3,
            9..=12 => 2,
            _ => return Vec::new(),
        };
        let mut lines = vec![edge, s - 1 - edge];
        if s % 2 == 1 && s >= 9 {
            lines.push(s / 2);
        }
        let mut v = Vec::new();
        for &x in &lines {
            for &y in &lines {
                // 9×9 and other small boards: the corners and the centre only.
                if s < 13 && (x == s / 2) != (y == s / 2) {
                    continue;
                }
                v.push(Point::new(x, y));
            }
        }
        v.sort_unstable();
        v.dedup();
        v
    }
}

mod ascii;
mod svg;

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    #[test]
    fn coordinates_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(column_letter(7), 'H');
        assert_eq!(column_letter(8), 'J');
        assert_eq!(column_letter(24), 'Z');
        assert_eq!(go_name(pt("pd"), 19), "Q16");
        assert_eq!(go_name(pt("aa"), 19), "A19");
        assert_eq!(cite(pt("ss"), 19), "T1 (ss)");
        assert_eq!(go_name(pt("ee"), 9), "E5");
    }

    #[test]
    fn ascii_shows_stones_dead_stones_marks_and_the_last_stone() {
        let board = Board::from_ascii(
            "X O . . .
             X O . . .
             . X O . .
             . . . . .
             . . . . .",
        );
        let d = Diagram::new(board, Some(pt("cc")))
            .layer(Shape::Cross, "dead", vec![pt("ba")])
            .layer(Shape::Triangle, "mp95 only", vec![pt("ab")]);
        let expected = "    A B C D E
  5 X o . . . 5
  4 # O . . . 4
  3 . X(O). . 3
  2 . . . . . 2
  1 . . . . . 1
";
        assert_eq!(d.ascii(), expected);
    }

    #[test]
    fn every_size_draws_as_xml_with_its_coordinates() {
        for n in [2u8, 9, 13, 19, 25] {
            let mut board = Board::new(n).unwrap();
            let corner = Point::new(n - 1, n - 1);
            board.setup(corner, Some(Color::White)).unwrap();
            let d = Diagram::new(board, Some(corner)).layer(Shape::Cross, "dead", vec![corner]);
            let svg = d.svg("a board");
            let doc = roxmltree::Document::parse(&svg).expect("valid XML");
            let texts: Vec<&str> = doc.descendants().filter_map(|x| x.text()).collect();
            let last = column_letter(n - 1).to_string();
            assert!(texts.contains(&last.as_str()), "{n}: {last}");
            assert!(texts.contains(&n.to_string().as_str()), "{n}");
            let cropped = d.clone().crop_to(&[corner]).svg("cropped");
            roxmltree::Document::parse(&cropped).expect("valid XML");
        }
        assert_eq!(column_letter(24), 'Z');
    }

    #[test]
    fn star_points_of_the_usual_sizes() {
        let stars = |n| Diagram::new(Board::new(n).unwrap(), None).stars().len();
        assert_eq!(stars(19), 9);
        assert_eq!(stars(13), 9);
        assert_eq!(stars(9), 5);
        assert_eq!(stars(7), 0);
    }

    #[test]
    fn a_crop_keeps_the_focus_with_room_and_snaps_to_near_edges() {
        let d = Diagram::new(Board::new(19).unwrap(), None).crop_to(&[pt("pc"), pt("qd")]);
        assert_eq!(d.view, (13, 0, 18, 5));
        // Spread over the board: the whole board.
        let d = Diagram::new(Board::new(19).unwrap(), None).crop_to(&[pt("cc"), pt("qq")]);
        assert_eq!(d.view, (0, 0, 18, 18));
    }

    #[test]
    fn the_svg_names_every_marked_point_and_every_stone() {
        let board = Board::from_ascii(
            "X O .
             X O .
             . . .",
        );
        let d = Diagram::new(board, Some(pt("ba"))).layer(
            Shape::Triangle,
            "a < b & c",
            vec![pt("aa"), pt("ab")],
        );
        let svg = d.svg("t");
        let marked: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains(r#"data-mark="triangle""#))
            .map(|l| l.split("data-point=\"").nth(1).unwrap().get(..2).unwrap())
            .collect();
        assert_eq!(marked, ["aa", "ab"]);
        assert_eq!(svg.matches("data-stone=").count(), 4);
        assert!(svg.contains("a &lt; b &amp; c"));
    }

    /// The elements of `svg` marked on the board (not in the legend), in document order:
    /// `(data-mark, data-point, the element)`.
    fn marks(doc: &roxmltree::Document) -> Vec<(String, String, roxmltree::NodeId)> {
        doc.descendants()
            .filter(|n| n.attribute("data-at").is_none())
            .filter_map(|n| {
                Some((
                    n.attribute("data-mark")?.to_string(),
                    n.attribute("data-point")?.to_string(),
                    n.id(),
                ))
            })
            .collect()
    }

    fn number(n: roxmltree::Node, a: &str) -> f64 {
        n.attribute(a).unwrap().parse().unwrap()
    }

    /// Issue 51: a finishing move played where an earlier one stood was drawn over it (or
    /// under it), with no note; it is a note, `5 at 2`, and the point keeps the first stone.
    #[test]
    fn a_move_where_an_earlier_move_stood_is_a_note() {
        let d = Diagram::new(Board::new(9).unwrap(), None)
            .numbered(
                Shape::Numbered(Color::White),
                "White's",
                vec![(pt("cc"), 2), (pt("dd"), 4)],
            )
            .numbered(
                Shape::Numbered(Color::Black),
                "Black's",
                vec![(pt("ee"), 1), (pt("cc"), 5)],
            );
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let drawn: Vec<(&str, &str)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("data-point").is_some())
            .filter(|n| n.attribute("data-number").is_some())
            .map(|n| {
                (
                    n.attribute("data-point").unwrap(),
                    n.attribute("data-number").unwrap(),
                )
            })
            .collect();
        assert_eq!(drawn, [("cc", "2"), ("dd", "4"), ("ee", "1")]);
        let notes: Vec<(&str, &str, &str, &str)> = doc
            .descendants()
            .filter(|n| n.attribute("data-at").is_some())
            .map(|n| {
                (
                    n.attribute("data-mark").unwrap(),
                    n.attribute("data-point").unwrap(),
                    n.attribute("data-number").unwrap(),
                    n.text().unwrap(),
                )
            })
            .collect();
        assert_eq!(notes, [("move-b", "cc", "5", "5 at 2")]);
        assert!(
            !svg.contains(r#"data-legend="badge""#),
            "no badge, no legend line"
        );
    }

    /// Issue 51: a crop's legend listed the last stone and layers out of the picture.
    #[test]
    fn the_legend_names_only_what_the_crop_shows() {
        let mut board = Board::new(19).unwrap();
        for p in ["pc", "qd", "cq"] {
            board.setup(pt(p), Some(Color::Black)).unwrap();
        }
        let d = Diagram::new(board, Some(pt("cq")))
            .layer(Shape::Triangle, "near", vec![pt("pc"), pt("qd")])
            .layer(Shape::Cross, "far", vec![pt("cq")])
            .crop_to(&[pt("pc"), pt("qd")]);
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"near"));
        assert!(!texts.contains(&"far"), "{svg}");
        assert!(!texts.contains(&"the last stone played"), "{svg}");
        assert!(!svg.contains(r#"data-legend="cross""#));
        // Uncropped, both are in the picture and in the legend.
        let whole = Diagram {
            view: (0, 0, 18, 18),
            ..d
        }
        .svg("t");
        assert!(whole.contains(">far<") && whole.contains(">the last stone played<"));
    }

    /// Issue 51: the count's squares hid the eyes' marks under them. Eyes are drawn first,
    /// and reach out past the square: a ring's inside clears the square's corners, a
    /// diamond's tips stand out past its sides.
    #[test]
    fn an_eye_mark_shows_around_the_counts_square() {
        for eye in [Shape::OwnEye, Shape::SharedEye, Shape::VitalEye] {
            let d = Diagram::new(Board::new(9).unwrap(), None)
                .layer(Shape::Territory(Color::Black), "count", vec![pt("ee")])
                .layer(eye, "eye", vec![pt("ee")]);
            let svg = d.svg("t");
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let on: Vec<_> = marks(&doc).into_iter().filter(|m| m.1 == "ee").collect();
            let order: Vec<&str> = on.iter().map(|m| m.0.as_str()).collect();
            assert_eq!(
                order,
                [eye.id(), "territory-b"],
                "{eye:?}: drawn under the square"
            );
            let square = doc.get_node(on[1].2).unwrap();
            let half = number(square, "width") / 2.0 + number(square, "stroke-width") / 2.0;
            let corner = half * std::f64::consts::SQRT_2;
            let e = doc.get_node(on[0].2).unwrap();
            if eye == Shape::VitalEye {
                let (cy, top) = (number(square, "y") + number(square, "height") / 2.0, {
                    let pts = e.attribute("points").unwrap();
                    let first = pts.split(' ').next().unwrap();
                    first.split(',').nth(1).unwrap().parse::<f64>().unwrap()
                });
                assert!(
                    cy - top >= half + 4.0,
                    "{eye:?}: tips {} past {half}",
                    cy - top
                );
            } else {
                let inside = number(e, "r") - number(e, "stroke-width") / 2.0;
                assert!(
                    inside > corner,
                    "{eye:?}: ring from {inside}, corners at {corner}"
                );
            }
        }
    }

    /// Issue 51: Benson's territory and a dead stone on one point read together: the frame
    /// goes round the cross, and the count's square (never on a stone) is not its mark.
    #[test]
    fn a_dead_stone_in_benson_territory_shows_its_cross_and_the_frame() {
        for c in [Color::Black, Color::White] {
            let mut board = Board::new(9).unwrap();
            board.setup(pt("ee"), Some(c.opponent())).unwrap();
            let d = Diagram::new(board, None)
                .layer(Shape::Unconditional(c), "benson", vec![pt("ee")])
                .layer(Shape::Cross, "dead", vec![pt("ee")]);
            let svg = d.svg("t");
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let on: Vec<_> = marks(&doc).into_iter().filter(|m| m.1 == "ee").collect();
            let order: Vec<&str> = on.iter().map(|m| m.0.as_str()).collect();
            assert_eq!(order, [Shape::Unconditional(c).id(), "cross"]);
            assert_ne!(Shape::Unconditional(c).id(), Shape::Territory(c).id());
            // The cross's arms run diagonally to 6 px from the centre in x and y (its path
            // starts at x − 6); a butt end reaches half its widest stroke's width past that,
            // over √2. Each of the frame's edges lies beyond.
            let cross = doc.get_node(on[1].2).unwrap();
            let paths: Vec<_> = cross.children().filter(|n| n.is_element()).collect();
            let d = paths[0].attribute("d").unwrap();
            let x = d[1..].split(' ').next().unwrap().parse::<f64>().unwrap() + 6.0;
            let widest = paths
                .iter()
                .map(|p| number(*p, "stroke-width"))
                .fold(0.0, f64::max);
            let cross = 6.0 + widest / 2.0 / std::f64::consts::SQRT_2;
            for r in doc
                .get_node(on[0].2)
                .unwrap()
                .children()
                .filter(|n| n.is_element())
            {
                let inside = x - number(r, "x") - number(r, "stroke-width") / 2.0;
                assert!(
                    inside > cross,
                    "{c:?}: a frame's edge at {inside}, the cross {cross}"
                );
            }
        }
    }

    /// Issue 51: a captured stone's ring shows round a finishing move played on its point.
    #[test]
    fn a_captured_stones_ring_shows_round_a_move_on_it() {
        let mut board = Board::new(9).unwrap();
        board.setup(pt("ee"), Some(Color::White)).unwrap();
        let d = Diagram::new(board, None)
            .layer(Shape::Captured, "captured", vec![pt("ee")])
            .numbered(
                Shape::Numbered(Color::Black),
                "Black's",
                vec![(pt("ee"), 3)],
            );
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let on: Vec<_> = marks(&doc).into_iter().filter(|m| m.1 == "ee").collect();
        let order: Vec<&str> = on.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(order, ["captured", "move-b"]);
        let radius = |id| {
            doc.get_node(id)
                .unwrap()
                .children()
                .filter(|n| n.has_tag_name("circle"))
                .map(|n| {
                    number(n, "r")
                        + n.attribute("stroke-width")
                            .map_or(0.0, |w| w.parse().unwrap())
                            / 2.0
                })
                .fold(0.0, f64::max)
        };
        let ring = doc
            .get_node(on[0].2)
            .unwrap()
            .children()
            .filter(|n| n.attribute("stroke-dasharray").is_some())
            .map(|n| number(n, "r") - number(n, "stroke-width") / 2.0)
            .next()
            .expect("a dashed ring");
        assert!(
            ring > radius(on[1].2),
            "ring from {ring}, the stone to {}",
            radius(on[1].2)
        );
        assert!(svg.contains(r#"data-legend="captured""#));
    }

    /// Issue 51: Benson's territory and the count's shared one `data-mark`. Every shape has
    /// its own.
    #[test]
    fn every_shape_has_its_own_mark() {
        let mut shapes = vec![
            Shape::Triangle,
            Shape::OpenTriangle,
            Shape::Dot,
            Shape::Cross,
            Shape::Square,
            Shape::Circle,
            Shape::Captured,
            Shape::OwnEye,
            Shape::SharedEye,
            Shape::VitalEye,
        ];
        for c in [Color::Black, Color::White] {
            shapes.extend([
                Shape::Territory(c),
                Shape::Unconditional(c),
                Shape::CapturedMove(c),
                Shape::Numbered(c),
            ]);
        }
        let mut ids: Vec<&str> = shapes.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), shapes.len(), "{ids:?}");
    }

    /// Issue 51: a finishing move a later one captures was drawn as a standing stone. It is
    /// faded, with a mark and a legend line of its own, and the move played on its point
    /// afterwards is a note.
    #[test]
    fn a_captured_finishing_move_is_drawn_apart() {
        let d = Diagram::new(Board::new(9).unwrap(), None)
            .numbered(Shape::Numbered(Color::Black), "stand", vec![(pt("dd"), 1)])
            .numbered(
                Shape::CapturedMove(Color::White),
                "taken",
                vec![(pt("ee"), 2)],
            )
            .numbered(Shape::Numbered(Color::Black), "later", vec![(pt("ee"), 3)]);
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let on: Vec<(String, String)> = marks(&doc)
            .into_iter()
            .map(|(mark, point, _)| (mark, point))
            .collect();
        let want = |m: &str, p: &str| (m.to_string(), p.to_string());
        assert_eq!(on, [want("move-b", "dd"), want("move-w-captured", "ee")]);
        let faded = doc
            .descendants()
            .find(|n| n.attribute("data-mark") == Some("move-w-captured"))
            .unwrap();
        assert!(faded
            .descendants()
            .any(|n| n.attribute("opacity").is_some()));
        assert!(svg.contains(r#"data-legend="move-w-captured""#));
        assert!(svg.contains(">3 at 2</tspan>"), "{svg}");
    }

    /// Issue 51: a numbered stone hid the marks of its point (a dead stone's cross, the
    /// count's square on a captured move's point, an eye's ring). They are drawn small beside
    /// it, after it, in the order they pile on a point; a captured stone's ring stays round it.
    #[test]
    fn marks_a_numbered_stone_would_cover_are_drawn_beside_it() {
        let mut board = Board::new(9).unwrap();
        board.setup(pt("cc"), Some(Color::White)).unwrap();
        let d = Diagram::new(board, None)
            .layer(Shape::Cross, "dead", vec![pt("cc")])
            .layer(Shape::Captured, "captured", vec![pt("cc")])
            .layer(Shape::Territory(Color::White), "count", vec![pt("ee")])
            .layer(Shape::SharedEye, "eye", vec![pt("ee")])
            .numbered(Shape::Numbered(Color::Black), "moves", vec![(pt("cc"), 1)])
            .numbered(
                Shape::CapturedMove(Color::Black),
                "taken",
                vec![(pt("ee"), 2)],
            );
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let badge = |p: &str| {
            doc.descendants()
                .find(|n| n.attribute("data-badge") == Some(p))
                .unwrap_or_else(|| panic!("no badge at {p}: {svg}"))
        };
        let inside = |p: &str| -> Vec<String> {
            badge(p)
                .descendants()
                .filter_map(|n| n.attribute("data-mark"))
                .map(str::to_string)
                .collect()
        };
        assert!(
            svg.contains(r#"data-legend="badge""#),
            "the legend names the badges"
        );
        assert_eq!(inside("cc"), ["cross"]);
        assert_eq!(inside("ee"), ["shared-eye", "territory-w"]);
        // Each badge comes after the stone it is beside, and the captured ring before it.
        let order: Vec<(String, String)> = doc
            .descendants()
            .filter_map(|n| {
                let key = n.attribute("data-badge").map(|p| ("badge".to_string(), p));
                let mark = n
                    .attribute("data-mark")
                    .zip(n.attribute("data-point"))
                    .filter(|_| n.ancestors().all(|a| a.attribute("data-badge").is_none()))
                    .map(|(m, p)| (m.to_string(), p));
                key.or(mark).map(|(m, p)| (m, p.to_string()))
            })
            .collect();
        let place = |m: &str, p: &str| {
            order
                .iter()
                .position(|o| o.0 == m && o.1 == p)
                .unwrap_or_else(|| panic!("{m} at {p} not drawn: {order:?}"))
        };
        assert!(place("captured", "cc") < place("move-b", "cc"));
        assert!(place("move-b", "cc") < place("badge", "cc"));
        assert!(place("move-b-captured", "ee") < place("badge", "ee"));
        // The badge is clear of the stone's number: its disc starts past the text's corner.
        let disc = badge("cc")
            .children()
            .find(|n| n.has_tag_name("circle"))
            .unwrap();
        let (bx, by, r) = (number(disc, "cx"), number(disc, "cy"), number(disc, "r"));
        let stone = doc
            .descendants()
            .find(|n| n.attribute("data-mark") == Some("move-b"))
            .and_then(|g| g.children().find(|n| n.has_tag_name("circle")))
            .unwrap();
        let (x, y) = (number(stone, "cx"), number(stone, "cy"));
        // A two-digit number at font size 10 reaches about 5.5 right and 4 down.
        assert!(((bx - x - 5.5).powi(2) + (by - y - 4.0).powi(2)).sqrt() > r);
    }

    /// Issue 51: the last stone's ring lay under a triangle, a captured stone's veil or a
    /// finishing move on its point. It goes round the stone's marks, over the veil, and
    /// beside a numbered stone.
    #[test]
    fn the_last_stones_ring_shows_round_its_marks() {
        let mut board = Board::new(9).unwrap();
        board.setup(pt("ee"), Some(Color::White)).unwrap();
        let d = Diagram::new(board, Some(pt("ee")))
            .layer(Shape::Triangle, "mp95", vec![pt("ee")])
            .layer(Shape::Captured, "captured", vec![pt("ee")]);
        let svg = d.svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let on: Vec<_> = marks(&doc).into_iter().filter(|m| m.1 == "ee").collect();
        let order: Vec<&str> = on.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(order, ["captured", "last", "triangle"]);
        let ring = doc.get_node(on[1].2).unwrap();
        let inside = number(ring, "r") - number(ring, "stroke-width") / 2.0;
        // The triangle's tips are 7 px from the centre, its white edge half a pixel more.
        assert!(inside > 7.5, "the ring from {inside}");

        let svg = d
            .numbered(Shape::Numbered(Color::Black), "moves", vec![(pt("ee"), 1)])
            .svg("t");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let badge = doc
            .descendants()
            .find(|n| n.attribute("data-badge") == Some("ee"))
            .expect("a badge");
        let inside: Vec<&str> = badge
            .descendants()
            .filter_map(|n| n.attribute("data-mark"))
            .collect();
        assert_eq!(inside, ["last", "triangle"]);
    }
}
