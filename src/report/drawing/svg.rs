//! A diagram as an SVG document: the board, its stones and marks, the legend, every mark
//! carrying the point it marks (`data-point`) so that a test reads it back.

use std::fmt::Write as _;

use super::*;

impl Diagram {
    /// The diagram as an SVG document.
    pub fn svg(&self, title: &str) -> String {
        const CELL: u32 = 24;
        const MARGIN: u32 = 28;
        let (x0, y0, x1, y1) = self.view;
        let size = self.board.size();
        let cols = u32::from(x1 - x0) + 1;
        let rows = u32::from(y1 - y0) + 1;
        // The legend names only what the picture shows: a crop leaves layers and the last
        // stone out of view, and a legend line for them would send the reader looking.
        let last = self.last.filter(|&p| self.shows(p));
        let layers: Vec<&Layer> = self
            .layers
            .iter()
            .filter(|l| l.points.iter().any(|&p| self.shows(p)))
            .collect();
        let (hidden, notes) = self.moves_at_moves();
        // A numbered stone covers the point's marks but a captured stone's wider ring; those
        // are drawn small beside the stone instead, nested as they would be on the point.
        let stones: Vec<Point> = layers
            .iter()
            .filter(|l| l.is_numbered())
            .flat_map(|l| {
                l.points
                    .iter()
                    .enumerate()
                    .filter(|&(k, &p)| !hidden.contains(&(p, l.number(k))))
                    .map(|(_, &p)| p)
            })
            .filter(|&p| self.shows(p))
            .collect();
        let badged = last.is_some_and(|p| stones.contains(&p))
            || layers
                .iter()
                .filter(|l| !l.is_numbered() && l.shape != Shape::Captured)
                .any(|l| l.points.iter().any(|p| stones.contains(p)));
        let legend_rows = layers.len() as u32
            + u32::from(last.is_some())
            + u32::from(badged)
            + notes.len() as u32;
        // The title under the legend, a line per ` · `-separated part.
        let title_lines: Vec<&str> = title.split(" · ").filter(|l| !l.is_empty()).collect();
        let legend_rows = legend_rows + title_lines.len() as u32;
        // Wide enough for the longest legend or title line (about 7.5 px a character).
        let longest = layers
            .iter()
            .map(|l| l.label.as_str())
            .chain(badged.then_some(BADGE_LABEL))
            .map(|l| 32 + l.chars().count() as u32 * 15 / 2)
            .chain(title_lines.iter().map(|t| 8 + t.chars().count() as u32 * 7))
            .chain(notes.iter().map(|line| {
                let chars: usize = line.iter().map(|n| n.text().chars().count() + 2).sum();
                8 + chars as u32 * 15 / 2
            }))
            .max()
            .unwrap_or(0);
        let width = (2 * MARGIN + cols * CELL).max(260).max(longest + 8);
        let board_h = 2 * MARGIN + rows * CELL;
        let height = board_h + 20 * legend_rows + 8;
        let cx = |x: u8| MARGIN + CELL / 2 + u32::from(x - x0) * CELL;
        let cy = |y: u8| MARGIN + CELL / 2 + u32::from(y - y0) * CELL;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
        );
        let _ = writeln!(s, "<title>{}</title>", xml_escape(title));
        let _ = writeln!(
            s,
            r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#dcb35c"/>"##,
            MARGIN - 4,
            MARGIN - 4,
            cols * CELL + 8,
            rows * CELL + 8
        );
        // Grid lines stop at the board's edge and run on to the frame where the board goes on.
        let h = CELL / 2;
        for y in y0..=y1 {
            let a = if x0 == 0 { cx(x0) } else { cx(x0) - h };
            let b = if x1 == size - 1 { cx(x1) } else { cx(x1) + h };
            let w = if y == 0 || y == size - 1 { 2 } else { 1 };
            let _ = writeln!(
                s,
                r##"<line x1="{a}" y1="{0}" x2="{b}" y2="{0}" stroke="#000000" stroke-width="{w}"/>"##,
                cy(y)
            );
        }
        for x in x0..=x1 {
            let a = if y0 == 0 { cy(y0) } else { cy(y0) - h };
            let b = if y1 == size - 1 { cy(y1) } else { cy(y1) + h };
            let w = if x == 0 || x == size - 1 { 2 } else { 1 };
            let _ = writeln!(
                s,
                r##"<line x1="{0}" y1="{a}" x2="{0}" y2="{b}" stroke="#000000" stroke-width="{w}"/>"##,
                cx(x)
            );
        }
        for p in self.stars().into_iter().filter(|&p| self.shows(p)) {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="3" fill="#000000"/>"##,
                cx(p.x),
                cy(p.y)
            );
        }
        for x in x0..=x1 {
            for y in [MARGIN - 10, board_h - MARGIN + 18] {
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{y}" font-size="12" text-anchor="middle" fill="#333333">{}</text>"##,
                    cx(x),
                    column_letter(x)
                );
            }
        }
        for y in y0..=y1 {
            for (x, anchor) in [(MARGIN - 8, "end"), (MARGIN + cols * CELL + 8, "start")] {
                let _ = writeln!(
                    s,
                    r##"<text x="{x}" y="{}" font-size="12" text-anchor="{anchor}" fill="#333333">{}</text>"##,
                    cy(y) + 4,
                    size - y
                );
            }
        }
        for p in self.board.points() {
            let pt = self.board.point(p);
            if !self.shows(pt) {
                continue;
            }
            if let Cell::Stone(c) = self.board.cell(p) {
                let (fill, stroke) = match c {
                    Color::Black => ("#111111", "#000000"),
                    Color::White => ("#fafafa", "#000000"),
                };
                let _ = writeln!(
                    s,
                    r#"<circle data-point="{pt}" data-stone="{}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1"/>"#,
                    c.letter(),
                    cx(pt.x),
                    cy(pt.y),
                    CELL / 2 - 1
                );
            }
        }
        // The last stone's ring goes round a stone's marks (a triangle's tips, a cross's
        // ends, 7.6 px out) and over a captured stone's veil.
        let last_ring = last.map(|p| {
            // Beside a numbered stone, on the board's colour: black.
            let ring = if stones.contains(&p) {
                "#000000"
            } else {
                self.contrast(p)
            };
            (
                p,
                format!(
                    r#"<circle data-mark="last" data-point="{p}" cx="{}" cy="{}" r="8.5" fill="none" stroke="{ring}" stroke-width="1.5"/>"#,
                    cx(p.x),
                    cy(p.y)
                ),
            )
        });
        // Every mark, drawn in the order of `Shape::depth` (the legend keeps the layers'
        // order), the last stone's ring right over the captured veils.
        let mut marks: Vec<(u8, Point, bool, String)> = Vec::new();
        if let Some((p, ring)) = last_ring {
            marks.push((Shape::Captured.depth() + 1, p, true, ring));
        }
        for layer in &layers {
            for (k, &p) in layer.points.iter().enumerate() {
                let n = layer.number(k);
                if !self.shows(p) || (layer.is_numbered() && hidden.contains(&(p, n))) {
                    continue;
                }
                let (x, y) = (cx(p.x) as i32, cy(p.y) as i32);
                let movable = !layer.is_numbered() && layer.shape != Shape::Captured;
                let mark = shape_svg(layer.shape, p, x, y, n);
                marks.push((layer.shape.depth(), p, movable, mark));
            }
        }
        marks.sort_by_key(|m| m.0);
        let mut badges: Vec<(Point, String)> = Vec::new();
        for (_, p, movable, mark) in marks {
            if movable && stones.contains(&p) {
                badges.push((p, mark));
            } else {
                let _ = writeln!(s, "{mark}");
            }
        }
        let mut at: Vec<Point> = badges.iter().map(|b| b.0).collect();
        at.sort_unstable();
        at.dedup();
        for p in at {
            let (x, y) = (cx(p.x), cy(p.y));
            let (bx, by) = (f64::from(x) + BADGE_OFFSET, f64::from(y) + BADGE_OFFSET);
            let marks: String = badges
                .iter()
                .filter(|b| b.0 == p)
                .map(|b| b.1.as_str())
                .collect();
            let _ = writeln!(
                s,
                r##"<g data-badge="{p}"><circle cx="{bx}" cy="{by}" r="{BADGE_RADIUS}" fill="#dcb35c" stroke="#555555" stroke-width="0.75"/><g transform="translate({bx} {by}) scale({BADGE_SCALE}) translate(-{x} -{y})">{marks}</g></g>"##
            );
        }
        // The legend: one line per layer, its shape drawn beside its meaning.
        let mut entries = Vec::new();
        let first = board_h as i32 + 6;
        if last.is_some() {
            entries.push((
                format!(
                    r##"<circle cx="14" cy="{first}" r="7" fill="#dcb35c" stroke="#000000" stroke-width="1.5"/>"##
                ),
                "the last stone played",
            ));
        }
        for layer in &layers {
            let ly = first + 20 * entries.len() as i32;
            let elt = shape_svg(layer.shape, Point::new(0, 0), 14, ly, 1)
                .replacen(r#" data-point="aa""#, "", 1)
                .replacen("data-mark=", "data-legend=", 1);
            entries.push((elt, layer.label.as_str()));
        }
        if badged {
            let ly = first + 20 * entries.len() as i32;
            entries.push((
                format!(
                    r##"<circle data-legend="badge" cx="14" cy="{ly}" r="{BADGE_RADIUS}" fill="#dcb35c" stroke="#555555" stroke-width="0.75"/>"##
                ),
                BADGE_LABEL,
            ));
        }
        for (k, (elt, text)) in entries.iter().enumerate() {
            let _ = writeln!(s, "{elt}");
            let _ = writeln!(
                s,
                r##"<text x="32" y="{}" font-size="13" fill="#000000">{}</text>"##,
                first + 20 * k as i32 + 4,
                xml_escape(text)
            );
        }
        // The finishing's moves played where an earlier one stood, as Go books write them.
        for (k, line) in notes.iter().enumerate() {
            let spans: Vec<String> = line
                .iter()
                .map(|n| {
                    format!(
                        r#"<tspan data-mark="{}" data-point="{}" data-number="{}" data-at="{}">{}</tspan>"#,
                        n.shape.id(),
                        n.point,
                        n.number,
                        n.at,
                        n.text()
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                r##"<text data-notes="{k}" x="8" y="{}" font-size="13" fill="#000000">{}</text>"##,
                first + 20 * (entries.len() + k) as i32 + 4,
                spans.join(", ")
            );
        }
        for (k, line) in title_lines.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<text data-title="{k}" x="8" y="{}" font-size="12" fill="#333333">{}</text>"##,
                first + 20 * (entries.len() + notes.len() + k) as i32 + 4,
                xml_escape(line)
            );
        }
        s.push_str("</svg>\n");
        s
    }

    /// The colour that shows on the point: white on a black stone, black elsewhere.
    fn contrast(&self, p: Point) -> &'static str {
        match self.board.at(p) {
            Cell::Stone(Color::Black) => "#ffffff",
            _ => "#000000",
        }
    }
}

/// The dashed ring round a captured stone, wider than a stone.
fn captured_ring(x: i32, y: i32) -> String {
    format!(
        r##"<circle cx="{x}" cy="{y}" r="11.5" fill="none" stroke="#333333" stroke-width="1.5" stroke-dasharray="3 2"/>"##
    )
}

/// One mark as an SVG element; `n` numbers a `Numbered` stone.
fn shape_svg(shape: Shape, p: Point, x: i32, y: i32, n: usize) -> String {
    let id = shape.id();
    match shape {
        Shape::Triangle => format!(
            r##"<polygon data-mark="{id}" data-point="{p}" points="{},{} {},{} {},{}" fill="#d62728" stroke="#ffffff" stroke-width="1"/>"##,
            x,
            y - 7,
            x - 7,
            y + 5,
            x + 7,
            y + 5
        ),
        Shape::Dot => format!(
            r##"<circle data-mark="{id}" data-point="{p}" cx="{x}" cy="{y}" r="4" fill="#2ca02c" stroke="#ffffff" stroke-width="1"/>"##
        ),
        Shape::Cross => {
            let d = format!(
                "M{} {}L{} {}M{} {}L{} {}",
                x - 6,
                y - 6,
                x + 6,
                y + 6,
                x - 6,
                y + 6,
                x + 6,
                y - 6
            );
            // On a white edge, so that it reads on a black stone and on a red triangle too.
            format!(
                r##"<g data-mark="{id}" data-point="{p}"><path d="{d}" stroke="#ffffff" stroke-width="4.5"/><path d="{d}" stroke="#d62728" stroke-width="3"/></g>"##
            )
        }
        Shape::Square => format!(
            r##"<rect data-mark="{id}" data-point="{p}" x="{}" y="{}" width="10" height="10" fill="none" stroke="#1f77b4" stroke-width="3"/>"##,
            x - 5,
            y - 5
        ),
        Shape::OpenTriangle => format!(
            // `Triangle`'s shape, 1.6 times as large about its centroid (y + 1).
            r##"<polygon data-mark="{id}" data-point="{p}" points="{x},{} {},{} {},{}" fill="none" stroke="#ff7f0e" stroke-width="2"/>"##,
            f64::from(y) - 11.8,
            f64::from(x) - 11.2,
            f64::from(y) + 7.4,
            f64::from(x) + 11.2,
            f64::from(y) + 7.4
        ),
        Shape::Circle => format!(
            r##"<circle data-mark="{id}" data-point="{p}" cx="{x}" cy="{y}" r="6" fill="none" stroke="#ff7f0e" stroke-width="3"/>"##
        ),
        Shape::Territory(c) => {
            let fill = if c == Color::Black {
                "#111111"
            } else {
                "#fafafa"
            };
            format!(
                r##"<rect data-mark="{id}" data-point="{p}" x="{}" y="{}" width="7" height="7" fill="{fill}" stroke="#000000" stroke-width="1"/>"##,
                f64::from(x) - 3.5,
                f64::from(y) - 3.5
            )
        }
        Shape::Unconditional(c) => {
            // White's frame is edged in black on both sides, to show on the board, on a black
            // stone and on the legend's white alike, and to differ from Black's there.
            let (x, y) = (f64::from(x), f64::from(y));
            let frame = |half: f64, colour: &str, width: f64| {
                format!(
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="{width}"/>"##,
                    x - half,
                    y - half,
                    2.0 * half,
                    2.0 * half
                )
            };
            let rects = if c == Color::Black {
                frame(9.0, "#111111", 1.5)
            } else {
                [
                    frame(10.5, "#111111", 0.8),
                    frame(8.5, "#111111", 0.8),
                    frame(9.5, "#fafafa", 1.2),
                ]
                .concat()
            };
            format!(r##"<g data-mark="{id}" data-point="{p}">{rects}</g>"##)
        }
        Shape::Captured => format!(
            r##"<g data-mark="{id}" data-point="{p}"><circle cx="{x}" cy="{y}" r="11" fill="#dcb35c" opacity="0.45"/>{}</g>"##,
            captured_ring(x, y)
        ),
        Shape::OwnEye => format!(
            r##"<circle data-mark="{id}" data-point="{p}" cx="{x}" cy="{y}" r="7" fill="none" stroke="#2ca02c" stroke-width="2"/>"##
        ),
        Shape::SharedEye => format!(
            r##"<circle data-mark="{id}" data-point="{p}" cx="{x}" cy="{y}" r="7" fill="none" stroke="#1f77b4" stroke-width="2"/>"##
        ),
        Shape::VitalEye => format!(
            r##"<polygon data-mark="{id}" data-point="{p}" points="{},{} {},{} {},{} {},{}" fill="#9467bd" stroke="#ffffff" stroke-width="1"/>"##,
            x,
            y - 9,
            x + 9,
            y,
            x,
            y + 9,
            x - 9,
            y
        ),
        Shape::Numbered(c) | Shape::CapturedMove(c) => {
            let (fill, ink) = if c == Color::Black {
                ("#111111", "#ffffff")
            } else {
                ("#fafafa", "#000000")
            };
            let stone = format!(
                r##"<circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#000000" stroke-width="1"/><text x="{x}" y="{}" font-size="10" text-anchor="middle" fill="{ink}">{n}</text>"##,
                y + 4
            );
            let stone = if matches!(shape, Shape::CapturedMove(_)) {
                // On the board's colour, so that the grid does not show through.
                format!(
                    r##"<circle cx="{x}" cy="{y}" r="10" fill="#dcb35c"/><g opacity="0.5">{stone}</g>{}"##,
                    captured_ring(x, y)
                )
            } else {
                stone
            };
            format!(r##"<g data-mark="{id}" data-point="{p}" data-number="{n}">{stone}</g>"##)
        }
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
