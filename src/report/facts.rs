//! What the tally takes from each row of the tables, as one type whichever way it arrives: from
//! a run's typed rows (here) or from a folder's CSV tables (`read`). The typed side formats
//! its values as the tables write them, so both give the same tally.

use crate::duplicates::DuplicateKind;
use crate::go::rules::Ruleset;
use crate::go::{Color, Point};
use crate::life::PerMethod;
use crate::row::{
    BigEyeRow, BlockRow, ChainRow, FileAnalysis, GameRow, PositionStats, SourceScore, Status,
};
use crate::score::{DeadSource, FinalStatus, MarginSource, PerSource};
use crate::sgf::result::{How, Winner};
use crate::sink::games::margin_text;

/// What the tally reads of one games.csv row.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    pub file: String,
    /// As the `game` column writes it (empty for a file-level row).
    pub game: String,
    pub status: Status,
    pub encoding: String,
    /// How the record repeats the copy of its game that counts (games.csv `duplicate_kind`),
    /// if it is not that copy.
    pub duplicate: Option<DuplicateKind>,
    /// `None` for a row without a replayed position (`board_size` empty).
    pub replayed: Option<ReplayedFacts>,
}

/// A game that was replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedFacts {
    pub size: u8,
    pub suicides: u64,
    pub ko_retakes: u64,
    pub setup: bool,
    pub rules: Ruleset,
    /// `Unknown` without an RE.
    pub how: How,
    pub winner: Winner,
    /// The raw RE.
    pub re: String,
    pub re_parsed: bool,
    /// RE's margin, unsigned.
    pub re_margin: Option<f64>,
    /// When it was played (DT).
    pub era: Era,
    pub benson_territory: [u64; 2],
    pub benson_stones: [u64; 2],
    /// `None` where the final position was not scored.
    pub score: Option<ScoreFacts>,
}

/// A scored final position.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreFacts {
    pub has_markup: bool,
    /// SGF points.
    pub dead_markup: Vec<String>,
    pub dead_estimate: Vec<String>,
    pub dead_katago: Vec<String>,
    pub margins: PerSource<SourceMargins>,
    /// KataGo's lead and expected score on the grid of margins (games.csv
    /// `margin_katago_lead`, `margin_katago_score`).
    pub katago_lead: Option<f64>,
    pub katago_score: Option<f64>,
    /// Where the game's margin comes from (games.csv `score_source`).
    pub margin_source: MarginSource,
    pub suspicious: bool,
    /// The count is not the players' (games.csv `unscorable` is filled).
    pub unscorable: bool,
    /// The finish with the best dead stones is uncertain (games.csv `finish_unsure` is
    /// filled).
    pub unsure: bool,
    /// The finished count contradicts RE (games.csv `count_contradicts_re`).
    pub count_contradicts: bool,
    /// RE is no area count of the finished board; `None` where unchecked (games.csv
    /// `re_no_area_count`).
    pub re_no_area_count: Option<bool>,
    /// The markup leaves hopeless blocks standing (games.csv `markup_doubt` is filled).
    pub markup_doubt: bool,
    /// Where the blocks' final status came from (games.csv `final_source`), and
    /// `finished_moves` as written.
    pub final_source: Option<DeadSource>,
    pub finished_moves: String,
    pub benson_low: String,
    pub benson_high: String,
    pub area: [u64; 2],
}

impl ScoreFacts {
    /// The game's margin: the column `margin_source` names.
    pub fn margin(&self) -> Option<f64> {
        match self.margin_source {
            MarginSource::Markup => self.margins[DeadSource::Markup].rules,
            MarginSource::Katago => self.margins[DeadSource::Katago].rules,
            MarginSource::KatagoScore => self.katago_score,
            MarginSource::Estimate => self.margins[DeadSource::Estimate].rules,
            MarginSource::None => self.margins[DeadSource::None].rules,
        }
    }
}

/// A source's margins; all `None` where the run does not have the source.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SourceMargins {
    /// Under the rules the record gives or implies.
    pub rules: Option<f64>,
    pub territory: Option<f64>,
    pub area: Option<f64>,
}

/// One blocks.csv row. It borrows and formats nothing: a run adds millions of blocks, and only
/// those on the not-Benson list are ever named.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockFacts<'a> {
    pub file: &'a str,
    pub game: Label<'a>,
    pub white: bool,
    pub anchor: Label<'a>,
    pub stones: u64,
    pub alive: PerMethod<bool>,
    /// blocks.csv `final`: `None` where the game has no source of dead stones.
    pub final_status: Option<FinalStatus>,
    /// blocks.csv `dead_share` in thousandths, where `final` comes from a reference (the
    /// markup or KataGo, games.csv `final_source`) that the estimate can be held against.
    pub dead_share: Option<u16>,
}

/// A `dead_share` cell in thousandths.
pub fn thousandths(cell: &str) -> Option<u16> {
    cell.parse::<f64>()
        .ok()
        .map(|v| (v * 1000.0).round() as u16)
}

/// A cell of a table as the report shows it: a typed value, formatted only when shown, or the
/// text read from a table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Label<'a> {
    Number(usize),
    Point(Point),
    Text(&'a str),
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Label::Number(n) => write!(f, "{n}"),
            Label::Point(p) => write!(f, "{p}"),
            Label::Text(t) => f.write_str(t),
        }
    }
}

/// One chains.csv row.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainFacts {
    pub word: String,
    pub closed: bool,
    pub grammar: bool,
    pub mp95_all: bool,
    pub mpfix_all: bool,
}

/// One big_eyes.csv row.
#[derive(Clone, Debug, PartialEq)]
pub struct BigEyeFacts {
    pub size: u32,
    pub shape: String,
    pub worth: (u32, u32),
    pub classified: bool,
}

/// A margin as it reads back from its table: the f32 the writer formatted, widened.
fn widen(m: f32) -> f64 {
    f64::from(m)
}

fn points(s: Option<&SourceScore>) -> Vec<String> {
    s.map_or(Vec::new(), |s| {
        s.dead.iter().map(|p| p.to_string()).collect()
    })
}

impl GameFacts {
    /// The facts of one game of a run, as its games.csv row states them.
    pub fn of(file: &str, a: &FileAnalysis, g: &GameRow) -> GameFacts {
        GameFacts {
            file: file.to_string(),
            game: g.game.map_or(String::new(), |i| i.to_string()),
            status: g.status,
            encoding: a.encoding.map_or("", |e| e.0).to_string(),
            duplicate: g.duplicate.as_ref().map(|d| d.kind),
            replayed: g.size.map(|size| replayed(size, g)),
        }
    }
}

fn replayed(size: u8, g: &GameRow) -> ReplayedFacts {
    let none = PositionStats::default();
    let p = g.position.as_ref().unwrap_or(&none);
    let result = g.record.as_ref().map(|r| r.result.as_ref());
    let engine_margin =
        |m: Option<f32>| crate::score::judgement::record_margin(m, g.record.as_ref()).map(widen);
    ReplayedFacts {
        size,
        suicides: p.suicides.into(),
        ko_retakes: p.ko_retakes.into(),
        setup: p.setup_stones > 0,
        rules: g.record.as_ref().map_or(Ruleset::Unknown, |r| r.rules.name),
        how: result.flatten().map_or(How::Unknown, |r| r.how),
        winner: result.flatten().map_or(Winner::Unknown, |r| r.winner),
        re: g.info.re.clone(),
        re_parsed: result.flatten().is_some_and(|r| r.parsed),
        re_margin: result.flatten().and_then(|r| r.margin).map(widen),
        era: Era::of(&g.info.dt),
        benson_territory: [0, 1].map(|c| p.life[c].benson_territory.into()),
        benson_stones: [0, 1].map(|c| p.life[c].benson_stones.into()),
        score: g.score.as_ref().map(|s| ScoreFacts {
            has_markup: s.has_markup,
            dead_markup: points(s.markup.as_ref()),
            dead_estimate: points(s.estimate.as_ref()),
            dead_katago: points(s.katago.as_ref()),
            katago_lead: engine_margin(s.katago_lead),
            katago_score: engine_margin(s.katago_score),
            margin_source: s.margin_source,
            margins: PerSource(DeadSource::ALL.map(|k| {
                s.source(k)
                    .map_or(SourceMargins::default(), |m| SourceMargins {
                        rules: m.margin.map(widen),
                        territory: Some(widen(m.margins.territory)),
                        area: Some(widen(m.margins.area)),
                    })
            })),
            suspicious: s.suspicious,
            unscorable: s.best().1.unscorable.is_some(),
            unsure: s.best().1.unsure.any(),
            count_contradicts: s.count_contradicts,
            re_no_area_count: s.re_no_area_count,
            markup_doubt: !s.markup_doubt.is_empty(),
            final_source: s.final_source(),
            finished_moves: s.best().1.finished_moves.to_string(),
            benson_low: margin_text(s.benson_bounds.0),
            benson_high: margin_text(s.benson_bounds.1),
            area: s.best().1.area.map(u64::from),
        }),
    }
}

/// How a game ended, as the report groups games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    Score,
    Resign,
    /// Time, forfeit, other endings, an unknown ending and no RE at all.
    Other,
}

impl Ending {
    pub const ALL: [Ending; 3] = [Ending::Score, Ending::Resign, Ending::Other];

    /// The group of an ending.
    pub fn of(how: How) -> Ending {
        match how {
            How::Score => Ending::Score,
            How::Resign => Ending::Resign,
            _ => Ending::Other,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ending::Score => "score",
            Ending::Resign => "resign",
            // Not "other": RE's `how` has an `other` of its own, a part of this group.
            Ending::Other => "rest",
        }
    }

    /// The group as a legend or a row label says it.
    pub fn label(self) -> &'static str {
        match self {
            Ending::Score => "ended by score",
            Ending::Resign => "ended by resignation",
            Ending::Other => "ended otherwise",
        }
    }
}

/// When a game was played, by the first four-digit year of DT, as the report groups games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Era {
    Before1900,
    To1949,
    To1989,
    To2009,
    Since2010,
    Unknown,
}

impl Era {
    pub fn of(dt: &str) -> Era {
        match crate::score::rules::year(dt) {
            None => Era::Unknown,
            Some(y) if y < 1900 => Era::Before1900,
            Some(y) if y < 1950 => Era::To1949,
            Some(y) if y < 1990 => Era::To1989,
            Some(y) if y < 2010 => Era::To2009,
            Some(_) => Era::Since2010,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Era::Before1900 => "before 1900",
            Era::To1949 => "1900–1949",
            Era::To1989 => "1950–1989",
            Era::To2009 => "1990–2009",
            Era::Since2010 => "2010 on",
            Era::Unknown => "no date",
        }
    }
}

impl Ending {
    /// How the game of a typed row ended.
    pub fn of_row(g: &GameRow) -> Ending {
        g.record
            .as_ref()
            .and_then(|r| r.result)
            .map_or(Ending::Other, |res| Ending::of(res.how))
    }
}

impl<'a> BlockFacts<'a> {
    /// A block of a game whose final status comes from `source`.
    pub fn judged(
        file: &'a str,
        game: usize,
        b: &BlockRow,
        source: Option<DeadSource>,
    ) -> BlockFacts<'a> {
        let reference = matches!(source, Some(DeadSource::Markup | DeadSource::Katago));
        BlockFacts {
            // As the table writes it, so that a run and its tables tally alike.
            dead_share: b
                .dead_share
                .filter(|_| reference)
                .and_then(|s| thousandths(&crate::sink::games::fixed(s, 3))),
            ..BlockFacts::of(file, game, b)
        }
    }

    pub fn of(file: &'a str, game: usize, b: &BlockRow) -> BlockFacts<'a> {
        BlockFacts {
            file,
            game: Label::Number(game),
            white: b.colour == Color::White,
            anchor: Label::Point(b.anchor),
            stones: b.stones.into(),
            alive: PerMethod::from_fn(|m| b.verdict.alive(m)),
            final_status: b.final_status,
            dead_share: None,
        }
    }
}

impl ChainFacts {
    pub fn of(c: &ChainRow) -> ChainFacts {
        ChainFacts {
            word: c.word.clone(),
            closed: c.closed,
            grammar: c.grammar,
            mp95_all: c.mp95_all,
            mpfix_all: c.mpfix_all,
        }
    }
}

impl BigEyeFacts {
    pub fn of(e: &BigEyeRow) -> BigEyeFacts {
        BigEyeFacts {
            size: e.size,
            shape: e.shape.clone(),
            worth: e.worth,
            classified: e.classified,
        }
    }
}
