//! games.csv: one row per game, and one per file that yielded no game. The table's schema is
//! `COLUMNS`, defined once: each column is its name and the writer of its one field, so the
//! header, the order and the empty fields of a row without a position or a score all come
//! from the same list.

use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use super::schema::{Field, Lines};
use super::table::{Table, TableReader};
use crate::duplicates::Duplicate;
use crate::life::LifeTotals;
use crate::row::{FileAnalysis, GameRow, PositionStats, ScoreRow, SourceScore};
use crate::score::rules::RecordInfo;
use crate::score::DeadSource;
use crate::sgf::result::GameResult;

/// What one games.csv row is written from.
pub struct GameLine<'a> {
    pub file: &'a str,
    pub bytes: Option<u64>,
    pub analysis: &'a FileAnalysis,
    pub game: &'a GameRow,
}

impl GameLine<'_> {
    fn position(&self) -> Option<&PositionStats> {
        self.game.position.as_ref()
    }

    fn record(&self) -> Option<&RecordInfo> {
        self.game.record.as_ref()
    }

    /// RE read, for a game whose record was read (`None` inside: no RE).
    fn result(&self) -> Option<Option<&GameResult>> {
        self.record().map(|r| r.result.as_ref())
    }

    fn source(&self, s: DeadSource) -> Option<&SourceScore> {
        self.game.score.as_ref()?.source(s)
    }
}

/// The lines games.csv is written from.
pub struct Games;

impl Lines for Games {
    type Line<'a> = GameLine<'a>;
}

/// One column of games.csv.
pub type Column = super::schema::Column<Games>;

/// A games.csv column (`schema::col!` for `GameLine`).
macro_rules! col {
    ($($t:tt)*) => {
        super::schema::col!(Games, GameLine<'_>; $($t)*)
    };
}

/// A count of the position, empty without one.
fn pos(t: &mut Table, g: &GameLine<'_>, f: fn(&PositionStats) -> u32) {
    t.opt(g.position().map(|p| u64::from(f(p))));
}

/// A life figure summed over both colours.
fn both(t: &mut Table, g: &GameLine<'_>, f: fn(&LifeTotals) -> u32) {
    t.opt(
        g.position()
            .map(|p| u64::from(f(&p.life[0]) + f(&p.life[1]))),
    );
}

/// A margin, empty when absent.
fn margin(t: &mut Table, m: Option<f32>) {
    t.text(&m.map_or(String::new(), margin_text));
}

/// The columns of one source of dead stones: `dead_*`, `margin_*`, `margin_*_territory`,
/// `margin_*_area`, `*_equals_re`.
fn dead(t: &mut Table, g: &GameLine<'_>, s: DeadSource) {
    let Some(s) = g.source(s) else {
        t.text("");
        return;
    };
    let mut dead = String::with_capacity(3 * s.dead.len());
    for p in &s.dead {
        if !dead.is_empty() {
            dead.push(' ');
        }
        let [x, y] = p.sgf_bytes();
        dead.push(x as char);
        dead.push(y as char);
    }
    t.text(&dead);
}

/// KataGo's own points (its lead or its score), two decimals, as the engine gave them.
fn katago_points(t: &mut Table, g: &GameLine<'_>, points: fn(&ScoreRow) -> Option<f32>) {
    let p = g.game.score.as_ref().and_then(points);
    t.text(&p.map_or(String::new(), |p| fixed(p, 2)));
}

/// The same on the grid of margins a count can give under the record's komi.
fn katago_margin(t: &mut Table, g: &GameLine<'_>, points: fn(&ScoreRow) -> Option<f32>) {
    let p = g.game.score.as_ref().and_then(points);
    margin(t, crate::score::judgement::record_margin(p, g.record()));
}

fn source_margin(t: &mut Table, g: &GameLine<'_>, s: DeadSource) {
    margin(t, g.source(s).and_then(|s| s.margin));
}

fn source_territory(t: &mut Table, g: &GameLine<'_>, s: DeadSource) {
    margin(t, g.source(s).map(|s| s.margins.territory));
}

fn source_area(t: &mut Table, g: &GameLine<'_>, s: DeadSource) {
    margin(t, g.source(s).map(|s| s.margins.area));
}

fn equals_re(t: &mut Table, g: &GameLine<'_>, s: DeadSource) {
    match g.source(s).and_then(|s| s.equals_re) {
        Some(b) => t.flag(b),
        None => t.text(""),
    };
}

/// The columns of games.csv, in order. Names are part of the interface: keep them.
pub const COLUMNS: &[Column] = &[
    col!("file": Text, |t, g| t.text(g.file)),
    col!("game": Int, |t, g| t.opt(g.game.game.map(|v| v as u64))),
    col!("status": Text, |t, g| t.text(g.game.status.as_str())),
    col!("detail": Text, |t, g| t.text(&crate::row::bounded_detail(&g.game.detail))),
    col!("encoding": Text, |t, g| t
        .text(g.analysis.encoding.map_or("", |e| e.0))),
    col!("encoding_source": Text, |t, g| t
        .text(g.analysis.encoding.map_or("", |e| e.1.as_str()))),
    col!("bytes": Int, |t, g| t.opt(g.bytes)),
    col!("board_size": Int, |t, g| t.opt(g.game.size.map(u64::from))),
    col!("moves": Int, |t, g| pos(t, g, |p| p.moves)),
    col!("passes": Int, |t, g| pos(t, g, |p| p.passes)),
    col!("to_move": Text, |t, g| t.text(
        g.position()
            .and_then(|p| p.to_move)
            .map_or("", |c| c.letter())
    )),
    col!("captures_b": Int, |t, g| pos(t, g, |p| p.captures[0])),
    col!("captures_w": Int, |t, g| pos(t, g, |p| p.captures[1])),
    col!("suicides": Int, |t, g| pos(t, g, |p| p.suicides)),
    col!("ko_retakes": Int, |t, g| pos(t, g, |p| p.ko_retakes)),
    col!("setup_stones": Int, |t, g| pos(t, g, |p| p.setup_stones)),
    col!("stones_b": Int, |t, g| pos(t, g, |p| p.stones[0])),
    col!("stones_w": Int, |t, g| pos(t, g, |p| p.stones[1])),
    col!("blocks_b": Int, |t, g| pos(t, g, |p| p.net[0].blocks)),
    col!("blocks_w": Int, |t, g| pos(t, g, |p| p.net[1].blocks)),
    col!("own_eyes_b": Int, |t, g| pos(t, g, |p| p.net[0].own_eyes)),
    col!("own_eyes_w": Int, |t, g| pos(t, g, |p| p.net[1].own_eyes)),
    col!("shared_eyes_b": Int, |t, g| pos(t, g, |p| p.net[0].shared_eyes)),
    col!("shared_eyes_w": Int, |t, g| pos(t, g, |p| p.net[1].shared_eyes)),
    col!("benson_blocks_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .benson_blocks)),
    col!("benson_blocks_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .benson_blocks)),
    col!("benson_stones_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .benson_stones)),
    col!("benson_stones_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .benson_stones)),
    col!("mp95_blocks_b": Int, |t, g| pos(t, g, |p| p.life[0].mp95_blocks)),
    col!("mp95_blocks_w": Int, |t, g| pos(t, g, |p| p.life[1].mp95_blocks)),
    col!("mpfix_blocks_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .mpfix_blocks)),
    col!("mpfix_blocks_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .mpfix_blocks)),
    col!("mp95_eyes_blocks_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .mp95_eyes_blocks)),
    col!("mp95_eyes_blocks_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .mp95_eyes_blocks)),
    col!("mpfix_eyes_blocks_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .mpfix_eyes_blocks)),
    col!("mpfix_eyes_blocks_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .mpfix_eyes_blocks)),
    col!("mp95_not_benson_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .mp95_not_benson)),
    col!("mp95_not_benson_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .mp95_not_benson)),
    col!("mpfix_not_benson_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .mpfix_not_benson)),
    col!("mpfix_not_benson_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .mpfix_not_benson)),
    col!("benson_territory_b": Int, |t, g| pos(t, g, |p| p.life[0]
        .benson_territory)),
    col!("benson_territory_w": Int, |t, g| pos(t, g, |p| p.life[1]
        .benson_territory)),
    col!("chains": Int, |t, g| both(t, g, |l| l.chains)),
    col!("chain_disagreements": Int, |t, g| both(t, g, |l| l
        .chain_disagreements)),
    col!("big_eyes": Int, |t, g| both(t, g, |l| l.big_eyes)),
    col!("big_eyes_uncredited": Int, |t, g| both(t, g, |l| l
        .big_eyes_uncredited)),
    col!("winner": Text, |t, g| t.text(match g.result() {
        None => "",
        Some(None) => "unknown",
        Some(Some(r)) => r.winner.as_str(),
    })),
    col!("how": Text, |t, g| t.text(match g.result() {
        None => "",
        Some(None) => "unknown",
        Some(Some(r)) => r.how.as_str(),
    })),
    col!("margin": Float, |t, g| t.text(
        &g.result()
            .flatten()
            .and_then(|r| r.margin)
            .map_or(String::new(), |m| m.to_string())
    )),
    col!("re_parsed": Int, |t, g| match g.result().flatten() {
        Some(r) => t.flag(r.parsed),
        None => t.text(""),
    }),
    col!("komi": Float, |t, g| t.text(
        &g.record().map_or(String::new(), |r| r.komi.to_string())
    )),
    col!("komi_source": Text, |t, g| t
        .text(g.record().map_or("", |r| r.komi_source.as_str()))),
    col!("komi_stones": Int, |t, g| match g.record() {
        Some(r) => t.flag(r.komi_in_stones),
        None => t.text(""),
    }),
    col!("rules": Text, |t, g| t
        .text(g.record().map_or("", |r| r.rules.as_str()))),
    col!("rules_source": Text, |t, g| t
        .text(g.record().map_or("", |r| r.rules_source.as_str()))),
    col!("handicap": Int, |t, g| t
        .opt(g.record().map(|r| u64::from(r.handicap)))),
    col!("has_markup": Int, |t, g| match &g.game.score {
        Some(s) => t.flag(s.has_markup),
        None => t.text(""),
    }),
    col!("dead_markup": Text, dead, DeadSource::Markup),
    col!("margin_markup": Float, source_margin, DeadSource::Markup),
    col!("margin_markup_territory": Float,
        source_territory,
        DeadSource::Markup
    ),
    col!("margin_markup_area": Float, source_area, DeadSource::Markup),
    col!("markup_equals_re": Int, equals_re, DeadSource::Markup),
    col!("dead_estimate": Text, dead, DeadSource::Estimate),
    col!("margin_estimate": Float, source_margin, DeadSource::Estimate),
    col!("margin_estimate_territory": Float,
        source_territory,
        DeadSource::Estimate
    ),
    col!("margin_estimate_area": Float, source_area, DeadSource::Estimate),
    col!("estimate_equals_re": Int, equals_re, DeadSource::Estimate),
    col!("margin_none": Float, source_margin, DeadSource::None),
    col!("margin_none_territory": Float, source_territory, DeadSource::None),
    col!("margin_none_area": Float, source_area, DeadSource::None),
    col!("dead_katago": Text, dead, DeadSource::Katago),
    col!("margin_katago": Float, source_margin, DeadSource::Katago),
    col!("margin_katago_territory": Float,
        source_territory,
        DeadSource::Katago
    ),
    col!("margin_katago_area": Float, source_area, DeadSource::Katago),
    col!("katago_equals_re": Int, equals_re, DeadSource::Katago),
    col!("katago_lead": Float, katago_points, |s: &ScoreRow| s.katago_lead),
    col!("margin_katago_lead": Float, katago_margin, |s: &ScoreRow| s.katago_lead),
    col!("katago_score": Float, katago_points, |s: &ScoreRow| s.katago_score),
    col!("margin_katago_score": Float, katago_margin, |s: &ScoreRow| s.katago_score),
    col!("benson_margin_low": Float, |t, g| margin(
        t,
        g.game.score.as_ref().map(|s| s.benson_bounds.0)
    )),
    col!("benson_margin_high": Float, |t, g| margin(
        t,
        g.game.score.as_ref().map(|s| s.benson_bounds.1)
    )),
    col!("suspicious": Int, |t, g| match &g.game.score {
        Some(s) => t.flag(s.suspicious),
        None => t.text(""),
    }),
    col!("markup_doubt": Text, |t, g| t.text(
        &g.game.score.as_ref().map_or(String::new(), |s| s
            .markup_doubt
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" "))
    )),
    col!("count_contradicts_re": Int, |t, g| match &g.game.score {
        Some(s) => t.flag(s.count_contradicts),
        None => t.text(""),
    }),
    col!("re_no_area_count": Int,
        |t, g| match g.game.score.as_ref().and_then(|s| s.re_no_area_count) {
            Some(b) => t.flag(b),
            None => t.text(""),
        }
    ),
    col!("score_source": Text, |t, g| t.text(
        g.game.score.as_ref().map_or("", |s| s.margin_source.name())
    )),
    col!("final_source": Text, |t, g| t.text(
        g.game
            .score
            .as_ref()
            .and_then(|s| s.final_source())
            .map_or("", |s| s.name())
    )),
    col!("finished_moves": Int, |t, g| t.opt(
        g.game
            .score
            .as_ref()
            .map(|s| u64::from(s.best().1.finished_moves))
    )),
    col!("finish_unsure": Text, |t, g| t.text(
        &g.game
            .score
            .as_ref()
            .map_or(String::new(), |s| s.best().1.unsure.words())
    )),
    col!("open_points": Int, |t, g| t.opt(
        g.game.score.as_ref().map(|s| u64::from(s.best().1.open))
    )),
    col!("unscorable": Text, |t, g| t.text(
        &g.game
            .score
            .as_ref()
            .and_then(|s| s.best().1.unscorable)
            .map_or(String::new(), |u| u.to_string())
    )),
    col!("area_b": Int, |t, g| t.opt(
        g.game.score.as_ref().map(|s| u64::from(s.best().1.area[0]))
    )),
    col!("area_w": Int, |t, g| t.opt(
        g.game.score.as_ref().map(|s| u64::from(s.best().1.area[1]))
    )),
    col!("game_key": Text, |t, g| t.text(
        &g.game
            .key
            .map_or(String::new(), |k| format!("{:016x}", k.whole))
    )),
    col!("opening_key": Text, |t, g| t.text(
        &g.game
            .key
            .and_then(|k| k.opening)
            .map_or(String::new(), |o| format!("{o:016x}"))
    )),
    col!("key_moves": Text, |t, g| t.plain(
        g.game
            .line
            .as_ref()
            .map_or(String::new(), |l| l.text())
            .as_bytes()
    )),
    col!("duplicate_of": Text, |t, g| t
        .text(g.game.duplicate.as_ref().map_or("", |d| &*d.file))),
    col!("duplicate_of_game": Int, |t, g| t
        .opt(g.game.duplicate.as_ref().map(|d| d.game as u64))),
    col!("duplicate_kind": Text, |t, g| t.text(
        g.game.duplicate.as_ref().map_or("", |d| d.kind.as_str())
    )),
    col!("RE": Text, |t, g| t.text(&g.game.info.re)),
    col!("KM": Text, |t, g| t.text(&g.game.info.km)),
    col!("RU": Text, |t, g| t.text(&g.game.info.ru)),
    col!("HA": Text, |t, g| t.text(&g.game.info.ha)),
    col!("DT": Text, |t, g| t.text(&g.game.info.dt)),
    col!("PB": Text, |t, g| t.text(&g.game.info.pb)),
    col!("PW": Text, |t, g| t.text(&g.game.info.pw)),
    col!("EV": Text, |t, g| t.text(&g.game.info.ev)),
    col!("PC": Text, |t, g| t.text(&g.game.info.pc)),
];

/// The header of games.csv.
pub fn header() -> Vec<&'static str> {
    super::schema::names(&fields())
}

/// The columns of games.csv with their types.
pub fn fields() -> Vec<Field> {
    super::schema::fields(COLUMNS)
}

/// Writes the games.csv rows of one file.
pub fn write_rows(
    t: &mut Table,
    file: &str,
    bytes: Option<u64>,
    analysis: &FileAnalysis,
) -> io::Result<()> {
    for game in &analysis.games {
        let line = GameLine {
            file,
            bytes,
            analysis,
            game,
        };
        super::schema::write_row(t, COLUMNS, &line)?;
    }
    Ok(())
}

/// An engine's figure with `places` decimals (its last digits are noise), no negative zero.
pub fn fixed(v: f32, places: usize) -> String {
    let s = format!("{v:.places$}");
    if s.starts_with('-') && s[1..].bytes().all(|b| b == b'0' || b == b'.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A margin as the CSV writes it: shortest form, no negative zero.
pub fn margin_text(m: f32) -> String {
    if m == 0.0 {
        "0".to_string()
    } else {
        m.to_string()
    }
}

/// The games.csv columns that name the copy a game repeats.
pub const DUPLICATE_COLUMNS: [&str; 3] = ["duplicate_of", "duplicate_of_game", "duplicate_kind"];

/// `row` with its duplicate columns (at `write`, as `DUPLICATE_COLUMNS`) naming `copy`, or
/// empty; every other cell as it was.
pub fn naming(
    row: &csv::ByteRecord,
    write: &[usize; 3],
    copy: Option<&Duplicate>,
) -> csv::ByteRecord {
    let cells: [Vec<u8>; 3] = match copy {
        Some(d) => [
            d.file.as_bytes().to_vec(),
            d.game.to_string().into_bytes(),
            d.kind.as_str().as_bytes().to_vec(),
        ],
        None => Default::default(),
    };
    let mut out = csv::ByteRecord::with_capacity(row.as_slice().len(), row.len());
    for (i, field) in row.iter().enumerate() {
        match write.iter().position(|&w| w == i) {
            Some(k) => out.push_field(&cells[k]),
            None => out.push_field(field),
        }
    }
    out
}

/// Writes games.csv at `path` again with the duplicate columns `copies` gives the games they
/// name (`Duplicates::resolve`: by `file` and `game`, in the table's order); every other
/// cell as it was. A run and `merge` both end with it, so their tables agree byte for byte.
pub fn name_copies(
    path: &Path,
    copies: impl IntoIterator<Item = io::Result<(Arc<str>, usize, Option<Duplicate>)>>,
) -> io::Result<()> {
    let names = super::schema::names(&fields());
    let at = |name: &str| {
        names
            .iter()
            .position(|c| *c == name)
            .expect("games.csv has the column")
    };
    let (file, game) = (at("file"), at("game"));
    let write = DUPLICATE_COLUMNS.map(at);
    // The rows are parsed to find the games named again; every other row is copied from a
    // second reader of the file, byte for byte (of the CSV, where the file is compressed).
    let mut r = csv::Reader::from_reader(TableReader::open(path)?);
    let mut raw = io::BufReader::new(TableReader::open(path)?);
    let skip = |raw: &mut io::BufReader<_>, n: u64| -> io::Result<()> {
        if io::copy(&mut raw.take(n), &mut io::sink())? != n {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    };
    r.byte_headers().map_err(io::Error::other)?;
    let mut at = r.position().byte();
    // The header, which `Table::create` writes.
    skip(&mut raw, at)?;
    let mut out = Table::create(path, &names)?;
    let mut row = csv::ByteRecord::new();
    let mut copies = copies.into_iter();
    let mut next = copies.next().transpose()?;
    let mut num = itoa::Buffer::new();
    while r.read_byte_record(&mut row).map_err(io::Error::other)? {
        let end = r.position().byte();
        let length = end - at;
        at = end;
        let is_next = next.as_ref().is_some_and(|(f, g, _)| {
            row.get(file) == Some(f.as_bytes()) && row.get(game) == Some(num.format(*g).as_bytes())
        });
        let named = if is_next {
            std::mem::replace(&mut next, copies.next().transpose()?)
        } else {
            None
        };
        let Some((_, _, copy)) = named else {
            if out.copy(&mut (&mut raw).take(length))? != length {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            continue;
        };
        skip(&mut raw, length)?;
        out.record(&naming(&row, &write, copy.as_ref()))?;
    }
    if next.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: a game met is not in its order", path.display()),
        ));
    }
    out.complete()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column writes exactly one field, whatever the row holds: a table of the
    /// schema's width accepts a file-level failure and a fully scored game alike.
    #[test]
    fn every_column_writes_one_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let mut t = Table::create(&path, &header()).unwrap();
        let scored =
            crate::analyze::analyze_file(b"(;SZ[9]KM[6.5]RE[W+0.5];B[ee];W[gc];B[gg]TB[aa]TW[ii])");
        assert!(scored.games[0].score.is_some());
        let failed = crate::analyze::analyze_file(b"(;SZ[9];B[ee];W[");
        assert!(failed.games[0].position.is_none());
        write_rows(&mut t, "a.sgf", Some(10), &scored).unwrap();
        write_rows(&mut t, "b.sgf", None, &failed).unwrap();
        t.complete().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(r.headers().unwrap().len(), COLUMNS.len());
        assert_eq!(r.records().count(), 2);
    }

    #[test]
    fn column_names_are_unique() {
        let mut names = header();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COLUMNS.len());
    }
}
