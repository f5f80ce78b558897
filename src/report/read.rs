//! Feeds a `Tally` from an output folder's tables, for `report DIR` and `merge`. Every column
//! the report reads must be in the table's header: a missing one is an error naming it, never
//! an empty value read as 0.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use super::facts::{thousandths, Ending, Era};
use super::facts::{
    BigEyeFacts, BlockFacts, ChainFacts, GameFacts, Label, ReplayedFacts, ScoreFacts, SourceMargins,
};
use super::tally::Tally;
use super::ReportError;
use crate::duplicates::DuplicateKind;
use crate::go::rules::Ruleset;
use crate::life::{Method, PerMethod};
use crate::row::Status;
use crate::score::{DeadSource, FinalStatus, MarginSource, PerSource};
use crate::sgf::result::{How, Winner};
use crate::sink::{schemas, Field, Kind, TableFormat, TableReader};

/// A table being read, with the columns whose cells are checked against their type.
pub(super) struct Reader {
    csv: csv::Reader<Box<dyn Read>>,
    /// The columns the schema gives a number type.
    numbers: Vec<Col>,
}

/// A table's header: column names to positions and to the types the writer's schema gives
/// them, looked up once per table, not per row. A column the schema does not know cannot be
/// read.
pub(super) struct Columns {
    table: &'static str,
    index: HashMap<String, Col>,
}

impl Columns {
    pub(super) fn new<'a>(table: &'static str, names: impl IntoIterator<Item = &'a str>) -> Self {
        let schema: Vec<Field> = schemas()
            .into_iter()
            .find(|(name, _)| *name == table)
            .map(|(_, fields)| fields)
            .unwrap_or_default();
        let index = names
            .into_iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let field = schema.iter().find(|f| f.name == h)?;
                let col = Col {
                    at: i,
                    kind: field.kind,
                    name: field.name,
                    table,
                };
                Some((h.to_string(), col))
            })
            .collect();
        Columns { table, index }
    }

    fn col(&self, name: &str) -> Result<Col, ReportError> {
        self.index
            .get(name)
            .copied()
            .ok_or_else(|| ReportError::Column {
                table: self.table,
                column: name.to_string(),
            })
    }

    fn cols<const N: usize>(&self, names: [&str; N]) -> Result<[Col; N], ReportError> {
        let mut out = [Col::NONE; N];
        for (o, n) in out.iter_mut().zip(names) {
            *o = self.col(n)?;
        }
        Ok(out)
    }

    fn per_colour(&self, name: &str) -> Result<[Col; 2], ReportError> {
        Ok([
            self.col(&format!("{name}_b"))?,
            self.col(&format!("{name}_w"))?,
        ])
    }
}

/// One column of a table: where it is in the header, the type the schema gives its values,
/// and its name and table, to name a cell that is not of that type. Each reader below reads
/// one type; debug builds check that the schema agrees.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Col {
    at: usize,
    kind: Kind,
    name: &'static str,
    table: &'static str,
}

impl Col {
    /// A placeholder, replaced before use.
    const NONE: Col = Col {
        at: 0,
        kind: Kind::Text,
        name: "",
        table: "",
    };

    fn get(self, row: &csv::StringRecord) -> &str {
        row.get(self.at).unwrap_or("")
    }

    fn text(self, row: &csv::StringRecord) -> String {
        self.get(row).to_string()
    }

    /// The error of a cell that is not what the schema says the column holds.
    fn malformed(self, row: &csv::StringRecord, want: &'static str) -> ReportError {
        ReportError::Cell {
            table: self.table,
            line: row.position().map_or(0, |p| p.line()),
            column: self.name,
            value: self.get(row).chars().take(40).collect(),
            want,
        }
    }

    /// Checks that the cell is empty or of the column's type.
    fn check(self, row: &csv::StringRecord) -> Result<(), ReportError> {
        let v = self.get(row);
        let ok = match self.kind {
            Kind::Text => true,
            Kind::Int => {
                let digits = v.strip_prefix('-').unwrap_or(v);
                v.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            }
            Kind::Float => v.is_empty() || v.parse::<f64>().is_ok_and(f64::is_finite),
        };
        if ok {
            Ok(())
        } else {
            Err(self.malformed(row, self.kind.described()))
        }
    }

    /// A whole number the writer always writes in the rows read.
    fn num(self, row: &csv::StringRecord) -> Result<u64, ReportError> {
        debug_assert_eq!(
            self.kind,
            Kind::Int,
            "column {} read as a number",
            self.name
        );
        self.get(row)
            .parse()
            .map_err(|_| self.malformed(row, "a whole number"))
    }

    /// A 0/1 flag; empty where the row has no value (read as 0).
    fn flag(self, row: &csv::StringRecord) -> Result<bool, ReportError> {
        debug_assert_eq!(self.kind, Kind::Int, "column {} read as a flag", self.name);
        match self.get(row) {
            "1" => Ok(true),
            "0" | "" => Ok(false),
            _ => Err(self.malformed(row, "0 or 1")),
        }
    }

    /// A 0/1 flag, `None` where empty.
    fn opt_flag(self, row: &csv::StringRecord) -> Result<Option<bool>, ReportError> {
        match self.get(row) {
            "" => Ok(None),
            _ => self.flag(row).map(Some),
        }
    }

    /// A margin, `None` where empty: the tables write f32s, read back here as the typed rows
    /// widen them.
    fn margin(self, row: &csv::StringRecord) -> Result<Option<f64>, ReportError> {
        debug_assert_eq!(
            self.kind,
            Kind::Float,
            "column {} read as a margin",
            self.name
        );
        match self.get(row) {
            "" => Ok(None),
            v => v
                .parse::<f32>()
                .map(|m| Some(f64::from(m)))
                .map_err(|_| self.malformed(row, "a number")),
        }
    }

    fn points(self, row: &csv::StringRecord) -> Vec<String> {
        self.get(row)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }
}

/// Opens `table` in `dir`, plain or compressed as the folder holds it (`TableFormat`).
fn open(dir: &Path, table: &'static str) -> Result<(Reader, Columns), ReportError> {
    let path = dir.join(TableFormat::in_folder(dir).file(table));
    let file = TableReader::open(&path)
        .map_err(|e| ReportError::Read(format!("{}: {e}", path.display())))?;
    let reader: Box<dyn Read> = Box::new(file);
    let mut r = csv::Reader::from_reader(reader);
    let headers = r
        .headers()
        .map_err(|e| ReportError::Read(format!("{}: {e}", path.display())))?;
    let cols = Columns::new(table, headers.iter());
    let numbers = cols
        .index
        .values()
        .filter(|c| c.kind != Kind::Text)
        .copied()
        .collect();
    Ok((Reader { csv: r, numbers }, cols))
}

/// Reads the next row of `table` into `row`; false at the end. A cell that is not of its
/// column's type is an error naming it, whether the report reads that column or not: an
/// edited table is never read as something else.
fn next_row(
    r: &mut Reader,
    row: &mut csv::StringRecord,
    dir: &Path,
    table: &str,
) -> Result<bool, ReportError> {
    let more = r
        .csv
        .read_record(row)
        .map_err(|e| ReportError::Read(format!("{}: {e}", dir.join(table).display())))?;
    if more {
        for c in &r.numbers {
            c.check(row)?;
        }
    }
    Ok(more)
}

/// The games.csv columns the report reads.
pub(super) struct GameCols {
    file: Col,
    game: Col,
    status: Col,
    encoding: Col,
    duplicate: Col,
    size: Col,
    suicides: Col,
    ko_retakes: Col,
    setup_stones: Col,
    rules: Col,
    how: Col,
    winner: Col,
    re: Col,
    re_parsed: Col,
    margin: Col,
    score_source: Col,
    has_markup: Col,
    suspicious: Col,
    unscorable: Col,
    finish_unsure: Col,
    count_contradicts: Col,
    re_no_area_count: Col,
    markup_doubt: Col,
    final_source: Col,
    finished_moves: Col,
    benson_low: Col,
    benson_high: Col,
    dead_markup: Col,
    dead_estimate: Col,
    dead_katago: Col,
    katago_lead: Col,
    katago_score: Col,
    benson_territory: [Col; 2],
    benson_stones: [Col; 2],
    area: [Col; 2],
    dt: Col,
    /// Per source: the margin under the game's rules, territory, area.
    margins: PerSource<[Col; 3]>,
}

impl GameCols {
    pub(super) fn of(c: &Columns) -> Result<GameCols, ReportError> {
        let [file, game, status, encoding, size, suicides, ko_retakes, setup_stones, rules] = c
            .cols([
                "file",
                "game",
                "status",
                "encoding",
                "board_size",
                "suicides",
                "ko_retakes",
                "setup_stones",
                "rules",
            ])?;
        let [how, winner, re, re_parsed, margin, score_source, has_markup, suspicious] =
            c.cols([
                "how",
                "winner",
                "RE",
                "re_parsed",
                "margin",
                "score_source",
                "has_markup",
                "suspicious",
            ])?;
        let [benson_low, benson_high, dead_markup, dead_estimate, unscorable] = c.cols([
            "benson_margin_low",
            "benson_margin_high",
            "dead_markup",
            "dead_estimate",
            "unscorable",
        ])?;
        let [count_contradicts, markup_doubt, final_source, finished_moves, finish_unsure] = c
            .cols([
                "count_contradicts_re",
                "markup_doubt",
                "final_source",
                "finished_moves",
                "finish_unsure",
            ])?;
        let re_no_area_count = c.col("re_no_area_count")?;
        let duplicate = c.col("duplicate_kind")?;
        let dead_katago = c.col("dead_katago")?;
        let katago_lead = c.col("margin_katago_lead")?;
        let katago_score = c.col("margin_katago_score")?;
        let dt = c.col("DT")?;
        let mut margins = PerSource([[Col::NONE; 3]; 4]);
        for s in DeadSource::ALL {
            let n = s.name();
            margins[s] = [
                c.col(&format!("margin_{n}"))?,
                c.col(&format!("margin_{n}_territory"))?,
                c.col(&format!("margin_{n}_area"))?,
            ];
        }
        Ok(GameCols {
            file,
            game,
            status,
            encoding,
            duplicate,
            size,
            suicides,
            ko_retakes,
            setup_stones,
            rules,
            how,
            winner,
            re,
            re_parsed,
            margin,
            score_source,
            has_markup,
            suspicious,
            unscorable,
            finish_unsure,
            count_contradicts,
            re_no_area_count,
            dt,
            markup_doubt,
            final_source,
            finished_moves,
            benson_low,
            benson_high,
            dead_markup,
            dead_estimate,
            dead_katago,
            katago_lead,
            katago_score,
            benson_territory: c.per_colour("benson_territory")?,
            benson_stones: c.per_colour("benson_stones")?,
            area: c.per_colour("area")?,
            margins,
        })
    }

    fn facts(&self, row: &csv::StringRecord) -> Result<GameFacts, ReportError> {
        let size = self.size.get(row);
        let replayed = if size.is_empty() {
            None
        } else {
            Some(self.replayed(row)?)
        };
        Ok(GameFacts {
            file: self.file.text(row),
            game: self.game.text(row),
            status: Status::named(self.status.get(row))
                .ok_or_else(|| self.status.malformed(row, "a status"))?,
            encoding: self.encoding.text(row),
            duplicate: duplicate_kind(self.duplicate.get(row)),
            replayed,
        })
    }

    fn replayed(&self, row: &csv::StringRecord) -> Result<ReplayedFacts, ReportError> {
        let score = if self.score_source.get(row).is_empty() {
            None
        } else {
            Some(self.score(row)?)
        };
        Ok(ReplayedFacts {
            size: self
                .size
                .get(row)
                .parse()
                .map_err(|_| self.size.malformed(row, "a board size"))?,
            suicides: self.suicides.num(row)?,
            ko_retakes: self.ko_retakes.num(row)?,
            setup: self.setup_stones.num(row)? > 0,
            rules: Ruleset::named(self.rules.get(row))
                .ok_or_else(|| self.rules.malformed(row, "a ruleset"))?,
            how: How::named(self.how.get(row)).unwrap_or(How::Unknown),
            winner: Winner::named(self.winner.get(row)).unwrap_or(Winner::Unknown),
            re: self.re.text(row),
            re_parsed: self.re_parsed.flag(row)?,
            re_margin: self.margin.margin(row)?,
            era: Era::of(self.dt.get(row)),
            benson_territory: [
                self.benson_territory[0].num(row)?,
                self.benson_territory[1].num(row)?,
            ],
            benson_stones: [
                self.benson_stones[0].num(row)?,
                self.benson_stones[1].num(row)?,
            ],
            score,
        })
    }

    fn score(&self, row: &csv::StringRecord) -> Result<ScoreFacts, ReportError> {
        let mut margins = PerSource::<SourceMargins>::default();
        for (s, [rules, territory, area]) in self.margins.iter() {
            margins[s] = SourceMargins {
                rules: rules.margin(row)?,
                territory: territory.margin(row)?,
                area: area.margin(row)?,
            };
        }
        Ok(ScoreFacts {
            has_markup: self.has_markup.flag(row)?,
            dead_markup: self.dead_markup.points(row),
            dead_estimate: self.dead_estimate.points(row),
            dead_katago: self.dead_katago.points(row),
            katago_lead: self.katago_lead.margin(row)?,
            katago_score: self.katago_score.margin(row)?,
            margin_source: MarginSource::named(self.score_source.get(row))
                .ok_or_else(|| self.score_source.malformed(row, "a margin source"))?,
            margins,
            suspicious: self.suspicious.flag(row)?,
            unscorable: !self.unscorable.get(row).is_empty(),
            unsure: !self.finish_unsure.get(row).is_empty(),
            count_contradicts: self.count_contradicts.flag(row)?,
            re_no_area_count: self.re_no_area_count.opt_flag(row)?,
            markup_doubt: !self.markup_doubt.get(row).is_empty(),
            final_source: DeadSource::named(self.final_source.get(row)),
            finished_moves: self.finished_moves.text(row),
            benson_low: self.benson_low.text(row),
            benson_high: self.benson_high.text(row),
            area: [self.area[0].num(row)?, self.area[1].num(row)?],
        })
    }
}

/// A games.csv `duplicate_kind` cell.
fn duplicate_kind(cell: &str) -> Option<DuplicateKind> {
    DuplicateKind::ALL.into_iter().find(|k| k.as_str() == cell)
}

/// The blocks.csv columns the report reads.
pub(super) struct BlockCols {
    file: Col,
    game: Col,
    colour: Col,
    anchor: Col,
    stones: Col,
    alive: PerMethod<Col>,
    final_status: Col,
    dead_share: Col,
}

impl BlockCols {
    pub(super) fn of(c: &Columns) -> Result<BlockCols, ReportError> {
        let [file, game, colour, anchor, stones] =
            c.cols(["file", "game", "colour", "anchor", "stones"])?;
        let mut alive = PerMethod([Col::NONE; 5]);
        for m in Method::ALL {
            alive[m] = c.col(m.name())?;
        }
        Ok(BlockCols {
            file,
            game,
            colour,
            anchor,
            stones,
            alive,
            final_status: c.col("final")?,
            dead_share: c.col("dead_share")?,
        })
    }
}

/// The chains.csv columns the report reads.
pub(super) struct ChainCols([Col; 7]);

impl ChainCols {
    pub(super) fn of(c: &Columns) -> Result<ChainCols, ReportError> {
        Ok(ChainCols(c.cols([
            "file", "game", "word", "closed", "grammar", "mp95", "mpfix",
        ])?))
    }
}

/// The big_eyes.csv columns the report reads.
pub(super) struct BigEyeCols([Col; 7]);

impl BigEyeCols {
    pub(super) fn of(c: &Columns) -> Result<BigEyeCols, ReportError> {
        Ok(BigEyeCols(c.cols([
            "file",
            "game",
            "eye_size",
            "eye_shape",
            "worth_owner_to_move",
            "worth_opponent_to_move",
            "classified",
        ])?))
    }
}

/// games.csv's `game_key` of the games `wanted` names, by `file` and `game`.
pub(super) fn game_keys(
    dir: &Path,
    wanted: &std::collections::HashSet<(String, String)>,
) -> Result<super::diagrams::Keys, ReportError> {
    let (mut r, c) = open(dir, "games.csv")?;
    let [file, game, key, source, dead] =
        c.cols(["file", "game", "game_key", "final_source", "dead_katago"])?;
    let mut keys = super::diagrams::Keys::new();
    let mut row = csv::StringRecord::new();
    while next_row(&mut r, &mut row, dir, "games.csv")? {
        let id = (file.text(&row), game.text(&row));
        if wanted.contains(&id) {
            // The count took KataGo's dead stones: the diagram's count takes them too.
            let katago =
                (DeadSource::named(source.get(&row)) == Some(DeadSource::Katago)).then(|| {
                    dead.points(&row)
                        .iter()
                        .filter_map(|p| crate::go::Point::from_sgf(p))
                        .collect()
                });
            keys.insert(
                id,
                super::diagrams::Drawn {
                    key: key.text(&row),
                    katago,
                },
            );
        }
    }
    Ok(keys)
}

impl Tally {
    /// The tally of the tables in `dir`.
    pub fn read(dir: &Path) -> Result<Tally, ReportError> {
        let mut t = Tally::default();
        let (mut r, c) = open(dir, "games.csv")?;
        let c = GameCols::of(&c)?;
        let mut row = csv::StringRecord::new();
        // The copies whose chains and big eyes are counted with the copy that counts: few.
        let mut copies = std::collections::HashSet::new();
        while next_row(&mut r, &mut row, dir, "games.csv")? {
            let facts = c.facts(&row)?;
            if facts.duplicate.is_some() {
                copies.insert((facts.file.clone(), facts.game.clone()));
            }
            t.add_game(&facts);
        }
        t.read_blocks(dir)?;
        let copy = |file: Col, game: Col, row: &csv::StringRecord| {
            !copies.is_empty() && copies.contains(&(file.text(row), game.text(row)))
        };
        let (mut r, c) = open(dir, "chains.csv")?;
        let [file, game, word, closed, grammar, mp95, mpfix] = ChainCols::of(&c)?.0;
        while next_row(&mut r, &mut row, dir, "chains.csv")? {
            if copy(file, game, &row) {
                continue;
            }
            t.add_chain(&ChainFacts {
                word: {
                    let w = word.text(&row);
                    w.strip_prefix(crate::sink::blocks::WORD_MARK)
                        .map_or(w.clone(), str::to_string)
                },
                closed: closed.flag(&row)?,
                grammar: grammar.flag(&row)?,
                mp95_all: mp95.flag(&row)?,
                mpfix_all: mpfix.flag(&row)?,
            });
        }
        let (mut r, c) = open(dir, "big_eyes.csv")?;
        let [file, game, size, shape, owner, opponent, classified] = BigEyeCols::of(&c)?.0;
        while next_row(&mut r, &mut row, dir, "big_eyes.csv")? {
            if copy(file, game, &row) {
                continue;
            }
            t.add_big_eye(&BigEyeFacts {
                size: size.num(&row)? as u32,
                shape: shape.text(&row),
                worth: (owner.num(&row)? as u32, opponent.num(&row)? as u32),
                classified: classified.flag(&row)?,
            });
        }
        Ok(t)
    }

    /// Adds blocks.csv, each block under its game's ending. Both tables list games in the
    /// same order (a run's input order, which `merge` keeps), so games.csv is read alongside,
    /// a merge join that holds one game at a time instead of a key per game of the corpus.
    fn read_blocks(&mut self, dir: &Path) -> Result<(), ReportError> {
        let (mut games, gc) = open(dir, "games.csv")?;
        let [g_file, g_game, g_how, g_dt, g_dup, g_source] = gc.cols([
            "file",
            "game",
            "how",
            "DT",
            "duplicate_kind",
            "final_source",
        ])?;
        let (mut r, c) = open(dir, "blocks.csv")?;
        let c = BlockCols::of(&c)?;
        let mut key = (String::new(), String::new());
        let (mut ending, mut era, mut repeat, mut reference) =
            (Ending::Other, Era::Unknown, false, false);
        let (mut row, mut game_row) = (csv::StringRecord::new(), csv::StringRecord::new());
        while next_row(&mut r, &mut row, dir, "blocks.csv")? {
            let (file, game) = (c.file.get(&row), c.game.get(&row));
            if key.0 != file || key.1 != game {
                key = (file.to_string(), game.to_string());
                (ending, era, repeat, reference) = loop {
                    if !next_row(&mut games, &mut game_row, dir, "games.csv")? {
                        return Err(ReportError::Read(format!(
                            "{}: game {game} of {file} is not in games.csv, or not in its order",
                            dir.join("blocks.csv").display()
                        )));
                    }
                    if g_file.get(&game_row) == file && g_game.get(&game_row) == game {
                        break (
                            Ending::of(How::named(g_how.get(&game_row)).unwrap_or(How::Unknown)),
                            Era::of(g_dt.get(&game_row)),
                            !g_dup.get(&game_row).is_empty(),
                            matches!(
                                DeadSource::named(g_source.get(&game_row)),
                                Some(DeadSource::Markup | DeadSource::Katago)
                            ),
                        );
                    }
                };
            }
            if repeat {
                continue;
            }
            let mut alive = PerMethod([false; 5]);
            for (a, c) in alive.0.iter_mut().zip(c.alive.0) {
                *a = c.flag(&row)?;
            }
            let facts = BlockFacts {
                file: &key.0,
                game: Label::Text(&key.1),
                white: c.colour.get(&row) == "W",
                anchor: Label::Text(c.anchor.get(&row)),
                stones: c.stones.num(&row)?,
                alive,
                final_status: FinalStatus::ALL
                    .into_iter()
                    .find(|f| f.as_str() == c.final_status.get(&row)),
                dead_share: if reference {
                    thousandths(c.dead_share.get(&row))
                } else {
                    None
                },
            };
            self.add_block(ending, era, &facts);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::tables;

    /// Every column the report reads is in the schema the tables are written with.
    #[test]
    fn every_column_the_report_reads_is_in_the_schema() {
        for (table, columns) in tables() {
            let c = Columns::new(table, columns.iter().copied());
            let found = match table {
                "games.csv" => GameCols::of(&c).map(drop),
                "blocks.csv" => BlockCols::of(&c).map(drop),
                "chains.csv" => ChainCols::of(&c).map(drop),
                "big_eyes.csv" => BigEyeCols::of(&c).map(drop),
                other => panic!("a table the report does not know: {other}"),
            };
            assert_eq!(found, Ok(()), "{table}");
        }
    }

    #[test]
    fn a_missing_column_is_an_error_that_names_it() {
        let header = crate::sink::games::header();
        let c = Columns::new(
            "games.csv",
            header
                .iter()
                .copied()
                .filter(|&n| n != "margin_estimate_area"),
        );
        assert_eq!(
            GameCols::of(&c).map(drop),
            Err(ReportError::Column {
                table: "games.csv",
                column: "margin_estimate_area".into()
            })
        );
    }
}
