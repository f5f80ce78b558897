//! The board diagrams of the report and of `show`: which stones each kind marks, and the
//! sentence that says what a diagram shows. The positions are read again from the run's
//! inputs (`Finder`); a run whose inputs are gone gets its report without diagrams, and
//! says so.

use std::fmt::Write as _;

use super::drawing::{cite, go_name, Diagram, Shape};
use super::record::{count_line, position_sgf};
use super::tally::{DeadDiff, Tally};
use crate::go::{Board, Color, Point};
use crate::life::examples::{BILD_6, BILD_9};
use crate::life::{analyze_life, Net};
use crate::look::{look_judged, Look};
use crate::source::Finder;

/// What games.csv says of each game a diagram may be drawn of, by `file` and `game`.
pub type Keys = std::collections::HashMap<(String, String), Drawn>;

/// A game as games.csv has it, for its diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// `game_key`: what a record read again must match to be drawn.
    pub key: String,
    /// The stones KataGo called dead, where the count took them (`score_source` katago): the
    /// diagram counts with them, as the run did.
    pub katago: Option<Vec<Point>>,
}

/// One diagram of the report: its file under `plots/boards/` and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    pub file: String,
    pub caption: String,
    pub svg: String,
    /// The position as SGF, for a Go editor (`sgf::position_sgf`), where it is a game's.
    pub sgf: Option<String>,
}

impl Figure {
    /// The SGF's file name beside the SVG.
    pub fn sgf_file(&self) -> String {
        format!("{}.sgf", self.file.trim_end_matches(".svg"))
    }
}

/// A diagram's title: the game, its players and RE, and the count.
pub fn title(l: &Look, source: &str) -> String {
    let players = match (l.info.pb.as_str(), l.info.pw.as_str()) {
        ("", "") => String::new(),
        (b, w) => format!(" · {b} (B) – {w} (W)"),
    };
    // A line per part: the count and RE apart, so that each fits the board's width.
    format!("{source}{players} · {}", count_line(l).replace("; ", " · "))
}

/// What report.md shows beside its text: the board diagrams by section, and the charts
/// drawn (a chart with nothing to show is left out).
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// The chart files written under `plots/`.
    pub charts: Vec<&'static str>,
    pub not_benson: Vec<Figure>,
    pub dead: Vec<Figure>,
    pub dead_katago: Vec<Figure>,
    pub contradicted: Vec<Figure>,
    pub paper: Vec<Figure>,
    /// Rows the report wanted to draw whose record could not be read back.
    pub missing: Vec<String>,
    /// Whether there were games to draw but no inputs to read them from.
    pub no_inputs: bool,
}

impl Figures {
    pub fn all(&self) -> impl Iterator<Item = &Figure> {
        self.paper
            .iter()
            .chain(&self.not_benson)
            .chain(&self.dead)
            .chain(&self.dead_katago)
            .chain(&self.contradicted)
    }
}

/// What a diagram of life marks: the blocks mp95 (mpfix) calls alive and Benson does not,
/// the stones Benson proves alive, and Benson's unconditional territory.
pub fn life_diagram(l: &Look) -> Diagram {
    let last = l.last_stone.map(|(_, p)| p);
    Diagram::new(l.board.clone(), last)
        .layer(
            Shape::Triangle,
            "alive by mp95, not by Benson",
            l.stones_where(|b| b.verdict.mp95 && !b.verdict.benson),
        )
        .layer(
            Shape::OpenTriangle,
            "alive by mpfix, not by Benson",
            l.stones_where(|b| b.verdict.mpfix && !b.verdict.benson),
        )
        .layer(
            Shape::Dot,
            "alive by Benson (unconditionally)",
            l.stones_where(|b| b.verdict.benson),
        )
        .layer(
            Shape::Unconditional(Color::Black),
            "Black's unconditional territory (Benson)",
            l.territory[0].clone(),
        )
        .layer(
            Shape::Unconditional(Color::White),
            "White's unconditional territory (Benson)",
            l.territory[1].clone(),
        )
        .layer(
            Shape::OwnEye,
            "own eye of a block alive by mp95 or mpfix, not by Benson",
            named_eyes(l, |b| b.own_eyes.clone()),
        )
        .layer(
            Shape::SharedEye,
            "eye it shares with another block",
            named_eyes(l, |b| {
                b.shared_eyes
                    .iter()
                    .filter(|p| !l.vital_eyes.contains(p))
                    .copied()
                    .collect()
            }),
        )
        .layer(
            Shape::VitalEye,
            "shared eye mp95 made vital: it counts for each block at it",
            named_eyes(l, |b| {
                b.shared_eyes
                    .iter()
                    .filter(|p| l.vital_eyes.contains(p))
                    .copied()
                    .collect()
            }),
        )
}

/// The eyes `eyes` gives of each block mp95 or mpfix calls alive and Benson does not: the
/// eyes those verdicts rest on.
fn named_eyes(l: &Look, eyes: impl Fn(&crate::look::LookBlock) -> Vec<Point>) -> Vec<Point> {
    let mut v: Vec<Point> = l
        .blocks
        .iter()
        .filter(|b| (b.verdict.mp95 || b.verdict.mpfix) && !b.verdict.benson)
        .flat_map(eyes)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The dead stones by the markup and by the estimate: crosses where both agree, circles
/// and squares where only one says so. Without markup, the estimate's as crosses.
pub fn dead_diagram(l: &Look) -> Diagram {
    let d = match &l.dead_markup {
        None => {
            let (who, dead) = dead_by(l);
            Diagram::new(l.board.clone(), l.last_stone.map(|(_, p)| p)).layer(
                Shape::Cross,
                format!("dead by {who}"),
                dead,
            )
        }
        Some(m) => against_diagram(l, m, "the markup"),
    };
    finishing_layers(territory_layers(d, l), l)
}

/// Whose dead stones the count took, where the record marks none, and the stones it calls
/// dead: KataGo's net where it judged, else the estimate.
fn dead_by(l: &Look) -> (&'static str, Vec<Point>) {
    match &l.count {
        Some(c) if c.source == crate::score::DeadSource::Katago => {
            ("KataGo's net", c.called.clone())
        }
        _ => ("the estimate", l.dead_estimate.clone()),
    }
}

/// The finishing's stones, numbered in the order played, and the stones they capture.
fn finishing_layers(mut d: Diagram, l: &Look) -> Diagram {
    let Some(f) = &l.finishing else {
        return d;
    };
    d = d.layer(
        Shape::Captured,
        "stone of the record the finishing moves capture",
        f.captured.clone(),
    );
    for c in [Color::Black, Color::White] {
        let whose = if c == Color::Black { "Black" } else { "White" };
        let moves: Vec<(Point, usize)> = f
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.0 == c)
            .map(|(k, m)| (m.1, k + 1))
            .collect();
        let (taken, stand) = moves
            .into_iter()
            .partition(|m| f.moves_captured.contains(&m.1));
        d = d
            .numbered(
                Shape::Numbered(c),
                format!("{whose}'s finishing moves, in order"),
                stand,
            )
            .numbered(
                Shape::CapturedMove(c),
                format!("{whose}'s finishing moves a later one captures"),
                taken,
            );
    }
    d
}

/// Each side's territory in the count (`Look::count`) on the points empty in the diagram.
fn territory_layers(mut d: Diagram, l: &Look) -> Diagram {
    let Some(count) = &l.count else {
        return d;
    };
    for (c, points) in [Color::Black, Color::White]
        .into_iter()
        .zip(&count.territory)
    {
        let empty: Vec<Point> = points
            .iter()
            .filter(|&&p| l.board.at(p) == crate::go::Cell::Empty)
            .copied()
            .collect();
        let whose = if c == Color::Black { "Black" } else { "White" };
        d = d.layer(
            Shape::Territory(c),
            format!("{whose}'s territory in the count"),
            empty,
        );
    }
    d
}

/// The estimate's dead stones against `reference`'s (`name`: whose): crosses where both
/// agree, circles and squares where only one says so.
fn against_diagram(l: &Look, reference: &[Point], name: &str) -> Diagram {
    let d = Diagram::new(l.board.clone(), l.last_stone.map(|(_, p)| p));
    let e = &l.dead_estimate;
    let both = reference
        .iter()
        .filter(|p| e.contains(p))
        .copied()
        .collect();
    let only_r = reference
        .iter()
        .filter(|p| !e.contains(p))
        .copied()
        .collect();
    let only_e = e
        .iter()
        .filter(|p| !reference.contains(p))
        .copied()
        .collect();
    d.layer(
        Shape::Cross,
        format!("dead by {name} and the estimate"),
        both,
    )
    .layer(Shape::Circle, format!("dead by {name} only"), only_r)
    .layer(Shape::Square, "dead by the estimate only", only_e)
}

/// `show`'s diagram: the life verdicts and the dead stones together.
pub fn show_diagram(l: &Look) -> Diagram {
    let mut d = life_diagram(l);
    d.layers.extend(dead_diagram(l).layers);
    d
}

/// `show`'s text: a heading, the board (dead stones in lower case, blocks mp95 alone calls
/// alive as `#`/`@`), and a line per block that is not a lone stone without verdicts.
pub fn show_text(l: &Look, title: &str) -> String {
    let size = l.board.size();
    let mut s = String::new();
    let who = |c: Color| if c == Color::Black { "Black" } else { "White" };
    let players = match (l.info.pb.as_str(), l.info.pw.as_str()) {
        ("", "") => String::new(),
        (b, w) => format!(", {b} (B) – {w} (W)"),
    };
    let re = if l.info.re.is_empty() {
        String::new()
    } else {
        format!(", RE {}", l.info.re)
    };
    let _ = writeln!(s, "{title}{players}{re}");
    let _ = writeln!(s, "{}, {} to move\n", at_move(l), who(l.to_move));
    let mut d = Diagram::new(l.board.clone(), l.last_stone.map(|(_, p)| p));
    let (dead, by) = match &l.dead_markup {
        Some(m) => (m.clone(), "the markup (TB/TW)"),
        None => {
            let (by, dead) = dead_by(l);
            (dead, by)
        }
    };
    d = d.layer(Shape::Cross, "dead", dead.clone()).layer(
        Shape::Triangle,
        "mp95 only",
        l.stones_where(|b| b.verdict.mp95 && !b.verdict.benson),
    );
    s.push_str(&d.ascii());
    let _ = writeln!(
        s,
        "\nX O stones, x o dead by {by}, # @ alive by mp95 and not by Benson,\n(X) the last \
         stone, . an empty point, + an empty star point.\nUnconditional territory (Benson): Black {}, White {} points.\n",
        l.territory[0].len(),
        l.territory[1].len()
    );
    if let Some(f) = &l.finishing {
        let moves: Vec<String> = f
            .moves
            .iter()
            .map(|&(c, p, why)| format!("{} {} {}", c.letter(), go_name(p, size), why.as_str()))
            .collect();
        let text = |m: Option<f32>| {
            m.map_or("rules unknown".to_string(), |m| match m {
                m if m > 0.0 => format!("B+{m}"),
                m if m < 0.0 => format!("W+{}", -m),
                _ => "a draw".to_string(),
            })
        };
        let mut margin = text(f.margin);
        if f.margin_other_start != f.margin {
            margin += &format!(
                "; {} if {} starts the finishing",
                text(f.margin_other_start),
                who(l.to_move.opponent())
            );
        }
        let at: Vec<String> = f
            .unsure_at
            .iter()
            .map(|&(c, p)| match c {
                Some(c) => format!("{} {}", c.letter(), go_name(p, size)),
                None => go_name(p, size),
            })
            .collect();
        let unsure = match f.unsure.words() {
            w if w.is_empty() => String::new(),
            w if at.is_empty() => format!(", unsure: {w}"),
            w => format!(", unsure: {w} (at {})", at.join(", ")),
        };
        let _ = writeln!(
            s,
            "Finished before counting, the dead stones by {by}: {} moves{}{unsure}.\n\
             Counted after them: {margin}.\n",
            moves.len(),
            if moves.is_empty() {
                String::new()
            } else {
                format!(" ({})", moves.join(", "))
            },
        );
    }
    let _ = writeln!(
        s,
        "{:<12} {:>6} {:>4} {:>6} {:>4} {:>5} {:>9} {:>10} {:>4}",
        "block", "stones", "libs", "benson", "mp95", "mpfix", "mp95_eyes", "mpfix_eyes", "dead"
    );
    let yes = |b: bool| if b { "yes" } else { "-" };
    for b in &l.blocks {
        let v = &b.verdict;
        let is_dead = dead.binary_search(&b.anchor).is_ok();
        let any = v.benson || v.mp95 || v.mpfix || v.mp95_eyes || v.mpfix_eyes || is_dead;
        if b.stones.len() == 1 && !any {
            continue;
        }
        let _ = writeln!(
            s,
            "{:<12} {:>6} {:>4} {:>6} {:>4} {:>5} {:>9} {:>10} {:>4}",
            format!("{} {}", b.colour.letter(), cite(b.anchor, size)),
            b.stones.len(),
            b.liberties,
            yes(v.benson),
            yes(v.mp95),
            yes(v.mpfix),
            yes(v.mp95_eyes),
            yes(v.mpfix_eyes),
            yes(is_dead)
        );
    }
    s
}

/// Where the position stands in its game, for a caption: "move 212, the end of the record".
pub fn at_move(l: &Look) -> String {
    if l.at_end {
        format!("move {}, the end of the record", l.moves)
    } else {
        format!("after move {}", l.moves)
    }
}

fn points_cited(points: &[Point], size: u8) -> String {
    let mut v: Vec<String> = points.iter().take(4).map(|&p| cite(p, size)).collect();
    if points.len() > 4 {
        v.push(format!("{} more", points.len() - 4));
    }
    v.join(", ")
}

/// Diagrams of the `n` games where the estimate's dead stones differ most from a
/// reference's; `(prefix, name, title)`: the files' prefix, the reference as captions and
/// legends name it, the diagrams' title. The reference's dead stones are the estimate's,
/// less those the estimate alone calls dead, and those the reference alone calls dead: the
/// record is read again, the reference (markup or engine) is not asked again.
fn dead_figures(
    differing: &[DeadDiff],
    n: usize,
    get: &mut dyn FnMut(&str, &str) -> Option<Look>,
    (prefix, name, title): (&str, &str, &str),
) -> Vec<Figure> {
    let mut differing: Vec<_> = differing.iter().collect();
    differing.sort_by_key(|d| std::cmp::Reverse(d.estimate_only.len() + d.reference_only.len()));
    let sgf =
        |v: &[String]| -> Vec<Point> { v.iter().filter_map(|p| Point::from_sgf(p)).collect() };
    let mut figures = Vec::new();
    for d in differing.into_iter().take(n) {
        let Some(l) = get(&d.file, &d.game) else {
            continue;
        };
        let estimate_only = sgf(&d.estimate_only);
        let mut reference: Vec<Point> = l
            .dead_estimate
            .iter()
            .filter(|p| !estimate_only.contains(p))
            .copied()
            .chain(sgf(&d.reference_only))
            .collect();
        reference.sort_unstable();
        let k = figures.len() + 1;
        // A glyph is named only where the diagram draws it.
        let glyph = |n: usize, what: &str| {
            if n == 0 {
                String::new()
            } else {
                format!(" ({what})")
            }
        };
        let both = reference.iter().any(|p| l.dead_estimate.contains(p));
        figures.push(Figure {
            file: format!("{prefix}-{k}.svg"),
            caption: format!(
                "`{}` game {}, {}: {name} alone calls {} stone{} dead{}, the estimate alone \
                 {}{}{}.",
                d.file,
                d.game,
                at_move(&l),
                d.reference_only.len(),
                if d.reference_only.len() == 1 { "" } else { "s" },
                glyph(d.reference_only.len(), "orange circles"),
                d.estimate_only.len(),
                glyph(d.estimate_only.len(), "blue squares"),
                if both {
                    "; red crosses: dead by both"
                } else {
                    ""
                }
            ),
            svg: against_diagram(&l, &reference, name)
                .svg(&format!("{} game {}: dead stones, {title}", d.file, d.game)),
            sgf: Some(position_sgf(&l, &format!("{} game {}", d.file, d.game))),
        });
    }
    figures
}

/// The report's diagrams: the paper's examples, and for each list the first `n` games
/// (the largest disagreements first for the dead stones).
pub fn figures(t: &Tally, finder: Option<&Finder>, keys: Option<&Keys>, n: usize) -> Figures {
    let mut f = Figures {
        paper: paper_figures(),
        ..Figures::default()
    };
    let Some(finder) = finder.filter(|f| !f.is_empty()) else {
        f.no_inputs = !(t.not_benson.is_empty()
            && t.dead.differing.is_empty()
            && t.dead_katago.differing.is_empty()
            && t.contradicted.is_empty()
            && t.suspicious.is_empty());
        return f;
    };
    let mut get = |file: &str, game: &str| -> Option<Look> {
        let g: usize = game.parse().ok()?;
        let expected = keys.and_then(|k| k.get(&(file.to_string(), game.to_string())));
        let katago = expected.and_then(|d| d.katago.as_deref());
        let found = finder
            .game(file, g)
            .and_then(|(bytes, k)| look_judged(&bytes, k, None, katago).ok());
        // A record found under the name, but not the one the run read (another folder's,
        // or changed since): no diagram of it.
        let other = found.as_ref().zip(expected).is_some_and(|(l, want)| {
            !want.key.is_empty()
                && l.key.map(|k| format!("{:016x}", k.whole)).as_ref() != Some(&want.key)
        });
        if other {
            f.missing
                .push(format!("{file} (game {game}: not the record the run read)"));
            return None;
        }
        if found.is_none() {
            f.missing.push(format!("{file} (game {game})"));
        }
        found
    };
    let mut games: Vec<(&str, &str)> = Vec::new();
    for b in &t.not_benson {
        if !games.contains(&(&b.file, &b.game)) {
            games.push((&b.file, &b.game));
        }
    }
    let mut not_benson = Vec::new();
    for (file, game) in games.into_iter().take(n) {
        let Some(l) = get(file, game) else { continue };
        let size = l.board.size();
        let marked = l.stones_where(|b| b.verdict.mp95 && !b.verdict.benson);
        let anchors: Vec<Point> = l
            .blocks
            .iter()
            .filter(|b| (b.verdict.mp95 || b.verdict.mpfix) && !b.verdict.benson)
            .map(|b| b.anchor)
            .collect();
        let d = life_diagram(&l).crop_to(&marked);
        let k = not_benson.len() + 1;
        not_benson.push(Figure {
            file: format!("not-benson-{k}.svg"),
            caption: format!(
                "`{file}` game {game}, {}: {} at {} (red triangles) mp95 calls alive and \
                 Benson does not{}{}.",
                at_move(&l),
                if anchors.len() == 1 {
                    "the block".to_string()
                } else {
                    format!("the {} blocks", anchors.len())
                },
                points_cited(&anchors, size),
                // The caption, like the legend, names only what the crop shows.
                match l.stones_where(|b| b.verdict.benson) {
                    alive if d.shows_any(&alive) => {
                        "; green dots mark the stones Benson proves alive"
                    }
                    alive if alive.is_empty() => "; Benson proves no stone alive here",
                    _ => "",
                },
                if l.territory.iter().any(|t| d.shows_any(t)) {
                    ", square frames Benson's unconditional territory"
                } else {
                    ""
                }
            ),
            svg: d.svg(&format!("{file} game {game}: alive by mp95, not by Benson")),
            sgf: Some(position_sgf(&l, &format!("{file} game {game}"))),
        });
    }
    f.not_benson = not_benson;

    f.dead = dead_figures(
        &t.dead.differing,
        n,
        &mut get,
        ("dead", "the markup", "markup against estimate"),
    );
    f.dead_katago = dead_figures(
        &t.dead_katago.differing,
        n,
        &mut get,
        ("dead-katago", "KataGo", "KataGo against the estimate"),
    );

    let mut contradicted = Vec::new();
    let records = t
        .contradicted
        .iter()
        .map(|c| {
            (
                &c.file,
                &c.game,
                format!(
                    "RE `{}`, the count {}",
                    c.re,
                    crate::sgf::result::result_text(c.margin as f32)
                ),
            )
        })
        .chain(t.suspicious.iter().map(|s| {
            (
                &s.file,
                &s.game,
                format!(
                    "RE `{}`, outside what Benson proves ({} to {})",
                    s.re, s.low, s.high
                ),
            )
        }));
    for (file, game, what) in records.take(n) {
        let Some(l) = get(file, game) else { continue };
        let k = contradicted.len() + 1;
        contradicted.push(Figure {
            file: format!("contradicted-{k}.svg"),
            caption: format!(
                "`{file}` game {game}, {}: {what}; red crosses: the stones {} calls dead.",
                at_move(&l),
                dead_by(&l).0
            ),
            svg: dead_diagram(&l).svg(&title(&l, &format!("{file} game {game}"))),
            sgf: Some(position_sgf(&l, &format!("{file} game {game}"))),
        });
    }
    f.contradicted = contradicted;
    f
}

/// The paper's examples on a board, with every method's verdict.
fn paper_figures() -> Vec<Figure> {
    [
        (
            "bild-6.svg",
            BILD_6,
            "The paper's Bild 6: seven Black blocks sharing six eyes. mp95, mpfix and Benson \
             agree: every block lives (green dots) but the lone stone at F8, which has no eye \
             of its own and a single shared eye.",
        ),
        (
            "bild-9.svg",
            BILD_9,
            "The paper's Bild 9: two blocks with no eye of their own share two eyes; each \
             eye is vital for both, so both live, by mp95, mpfix and Benson alike.",
        ),
    ]
    .into_iter()
    .map(|(file, text, caption)| {
        let board = Board::from_ascii(text);
        let net = Net::build(&board);
        let life = analyze_life(&board, &net, Color::White);
        let l = Look::of_position(board, &net, &life);
        let stones = l.stones_where(|_| true);
        Figure {
            file: file.to_string(),
            caption: caption.to_string(),
            svg: life_diagram(&l)
                .crop_to(&stones)
                .svg(&caption[..caption.find(':').unwrap_or(0)]),
            sgf: None,
        }
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_examples_are_drawn_with_their_verdicts() {
        let figs = paper_figures();
        assert_eq!(figs.len(), 2);
        // Bild 6: every stone but the lone one at F8 alive by Benson.
        let board = Board::from_ascii(BILD_6);
        let stones = board.count(Color::Black) as usize;
        let dots = figs[0].svg.matches(r#"data-mark="dot""#).count();
        assert_eq!(dots, stones - 1);
        assert!(!figs[0].svg.contains(r#"data-mark="dot" data-point="fl""#));
        assert_eq!(figs[0].svg.matches(r#"data-mark="triangle""#).count(), 0);
        assert_eq!(figs[1].svg.matches(r#"data-mark="dot""#).count(), 10);
        // Issue 51: the caption named the paper's letter for that block, which the diagram
        // does not draw; it names the point.
        assert!(figs[0].caption.contains("the lone stone at F8"));
        assert!(!figs[0].caption.contains("block e"));
    }
}
