//! The output's rows: what one game (or one unreadable file) contributes to the tables, and
//! the `status` vocabulary, including how each layer's errors map onto it (the layers below
//! know nothing of the tables).

use crate::duplicates::Duplicate;
use crate::go::{Color, GameKey, KeyLine, Point};
use crate::go::{IllegalMove, ReplayError};
use crate::life::{BlockVerdict, LifeTotals, NetTotals};
use crate::score::rules::RecordInfo;
use crate::score::{DeadSource, MarginSource, Margins};
use crate::sgf::{DecodeError, EncodingSource, GameInfo, LoadError};
use crate::source::InputError;

/// The outcome of one game or file, as the `status` column writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Ok,
    Skipped,
    IoError,
    TooLarge,
    DecodeError,
    ParseError,
    Unsupported,
    IllegalMove,
    InternalError,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Ok,
        Status::Skipped,
        Status::IoError,
        Status::TooLarge,
        Status::DecodeError,
        Status::ParseError,
        Status::Unsupported,
        Status::IllegalMove,
        Status::InternalError,
    ];

    /// The status a `status` cell names.
    pub fn named(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Skipped => "skipped",
            Status::IoError => "io_error",
            Status::TooLarge => "too_large",
            Status::DecodeError => "decode_error",
            Status::ParseError => "parse_error",
            Status::Unsupported => "unsupported",
            Status::IllegalMove => "illegal_move",
            Status::InternalError => "internal_error",
        }
    }
}

/// An error of a lower layer that becomes a row: its `status` and its message (`detail`).
pub trait Failure: std::fmt::Display {
    fn status(&self) -> Status;
}

impl Failure for InputError {
    fn status(&self) -> Status {
        match self {
            InputError::TooLarge { .. } => Status::TooLarge,
            InputError::Skipped(_) => Status::Skipped,
            InputError::Walk(_) | InputError::Io(_) => Status::IoError,
        }
    }
}

impl Failure for DecodeError {
    fn status(&self) -> Status {
        Status::DecodeError
    }
}

impl Failure for LoadError {
    fn status(&self) -> Status {
        match self {
            LoadError::Parse(_) => Status::ParseError,
            LoadError::TooDeep(_) | LoadError::TooManyNodes(_) => Status::Unsupported,
        }
    }
}

impl Failure for ReplayError {
    fn status(&self) -> Status {
        Status::Unsupported
    }
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl Failure for IllegalMove {
    fn status(&self) -> Status {
        Status::IllegalMove
    }
}

/// Figures of a replayed position, per colour where it matters (index: Black 0, White 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionStats {
    pub moves: u32,
    pub passes: u32,
    pub to_move: Option<Color>,
    pub captures: [u32; 2],
    pub suicides: u32,
    pub ko_retakes: u32,
    pub setup_stones: u32,
    pub stones: [u32; 2],
    pub net: [NetTotals; 2],
    pub life: [LifeTotals; 2],
}

/// One row of blocks.csv, less `file` and `game`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRow {
    pub colour: Color,
    /// The block's first stone in point order.
    pub anchor: Point,
    pub stones: u32,
    pub liberties: u32,
    pub own_eyes: u32,
    pub shared_eyes: u32,
    pub verdict: BlockVerdict,
    /// What became of the block by the end of the game, under the best source of dead
    /// stones the run has (markup, else KataGo, else the finished estimate); `None` without
    /// any.
    pub final_status: Option<crate::score::FinalStatus>,
    /// The block's mean ownership by KataGo, from its owner's side (−1 to 1); `None` without
    /// an answer.
    pub katago_own: Option<f32>,
    /// The share of the estimate's playouts in which the block was captured or ended in the
    /// opponent's area; `None` where the estimate did not run.
    pub dead_share: Option<f32>,
}

/// One row of games.csv, less the file-level columns (`file`, `bytes`, encoding) that the
/// file's `FileAnalysis` carries once for all its games.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// 0-based index of the game tree in its file; `None` for a file-level failure.
    pub game: Option<usize>,
    pub status: Status,
    pub detail: String,
    pub size: Option<u8>,
    /// Present whenever a position was replayed, even one cut short by an illegal move.
    pub position: Option<PositionStats>,
    pub info: GameInfo,
    /// RE, KM, RU, HA read into values; `None` for a file-level failure.
    pub record: Option<RecordInfo>,
    /// The blocks of the final position, in anchor order.
    pub blocks: Vec<BlockRow>,
    pub chains: Vec<ChainRow>,
    pub big_eyes: Vec<BigEyeRow>,
    /// The final position scored; `None` unless the replay reached the end of the record.
    pub score: Option<ScoreRow>,
    /// The game's moves as a key (`GameKey`): of the main line replayed, or of a record that
    /// stops at an illegal move, as written; `None` for a setup past the root, a move off the
    /// board, or a game without a stone.
    pub key: Option<GameKey>,
    /// The stones the key reads, to tell copies that differ in a few moves.
    pub line: Option<KeyLine>,
    /// The copy of this game that counts, when this is another: set by the run (or `merge`),
    /// which sees the games in order.
    pub duplicate: Option<Duplicate>,
}

/// A final position scored with each source of dead stones (scoring-spec §3).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    pub has_markup: bool,
    /// The source of the count (`score::Decision::scored`): the best with dead stones, else
    /// `None` (nothing dead).
    pub best: DeadSource,
    /// Where the game's margin comes from (`score::pick`): games.csv `score_source`.
    pub margin_source: MarginSource,
    /// From TB/TW; `None` without markup.
    pub markup: Option<SourceScore>,
    /// KataGo's dead stones (the blocks its ownership gives away), finished and counted;
    /// `None` without `--katago` or without an answer.
    pub katago: Option<SourceScore>,
    /// Black − White − komi by KataGo's net, under the record's rules and komi: its lead, and
    /// the final score it expects.
    pub katago_lead: Option<f32>,
    pub katago_score: Option<f32>,
    /// `None` where the run did not estimate (see `--estimate`).
    pub estimate: Option<SourceScore>,
    /// Nothing dead: a lower bound for the side with dead stones inside its area.
    pub none: SourceScore,
    /// Area margins Benson's proof allows, low and high.
    pub benson_bounds: (f32, f32),
    /// RE contradicts the Benson bounds.
    pub suspicious: bool,
    /// The finished count, sure of itself, contradicts RE (`score::contradicts_count`).
    pub count_contradicts: bool,
    /// RE is no area count of the finished board (`score::no_area_count`); `None` where that
    /// cannot be told: territory counting, no margin in RE, or a count unsure of its neutral
    /// points (unscorable, open points left, or a ko, seki or race).
    pub re_no_area_count: Option<bool>,
    /// Blocks (by anchor) the markup leaves on the board though they are in atari, their
    /// last liberty marked as no one's territory, and the estimate calls dead: stones the
    /// players left standing, hopeless, so the markup is no ground truth for them.
    pub markup_doubt: Vec<Point>,
}

impl ScoreRow {
    /// The score with `source`'s dead stones, where the run has it.
    pub fn source(&self, source: DeadSource) -> Option<&SourceScore> {
        match source {
            DeadSource::Markup => self.markup.as_ref(),
            DeadSource::Katago => self.katago.as_ref(),
            DeadSource::Estimate => self.estimate.as_ref(),
            DeadSource::None => Some(&self.none),
        }
    }

    /// The best source that has dead stones (markup, KataGo, the estimate), if the run has one:
    /// where the blocks' final status comes from.
    pub fn final_source(&self) -> Option<DeadSource> {
        Some(self.best().0).filter(|&s| s != DeadSource::None)
    }

    /// The source the count takes (`score::Decision::scored`), and its score.
    pub fn best(&self) -> (DeadSource, &SourceScore) {
        (self.best, self.source(self.best).unwrap_or(&self.none))
    }
}

/// A score under one set of dead stones.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceScore {
    /// Dead stones in point order.
    pub dead: Vec<Point>,
    pub margins: Margins,
    /// Under the game's rules; `None` when they are unknown.
    pub margin: Option<f32>,
    /// The same when the other side starts the finishing (`Unsure::order`); `margin` when
    /// nothing was finished.
    pub margin_other_start: Option<f32>,
    /// `None` when RE has no margin.
    pub equals_re: Option<bool>,
    /// Each side's area score (stones and territory) under this source.
    pub area: [u32; 2],
    /// Stones the finishing played before counting (0 for `none`, which counts as it stands).
    pub finished_moves: u32,
    /// What made the finishing uncertain.
    pub unsure: crate::score::Unsure,
    /// Neutral points the finishing left open (`Finished::open`).
    pub open: u32,
    /// Why this count is not the players' (`None`: it is scorable).
    pub unscorable: Option<crate::score::Unscorable>,
}

/// One row of chains.csv, less `file` and `game`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRow {
    pub colour: Color,
    /// Anchors of the blocks along the chain.
    pub anchors: Vec<Point>,
    pub closed: bool,
    pub word: String,
    pub grammar: bool,
    pub mp95_all: bool,
    pub mpfix_all: bool,
}

/// One row of big_eyes.csv, less `file` and `game`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigEyeRow {
    pub colour: Color,
    /// Anchor of the block that owns the eye.
    pub block: Point,
    pub size: u32,
    pub shape: String,
    /// Worth with the owner to move, and with the opponent to move.
    pub worth: (u32, u32),
    pub classified: bool,
}

impl GameRow {
    /// A row for a game (`Some(index)`) or a file (`None`) that could not be analysed.
    pub fn failed(game: Option<usize>, status: Status, detail: impl Into<String>) -> GameRow {
        GameRow {
            game,
            status,
            detail: detail.into(),
            size: None,
            position: None,
            info: GameInfo::default(),
            record: None,
            blocks: Vec::new(),
            chains: Vec::new(),
            big_eyes: Vec::new(),
            score: None,
            key: None,
            line: None,
            duplicate: None,
        }
    }
}

/// The longest `detail` a table cell or a warning holds: standard CSV readers refuse larger
/// cells (Python's csv stops at 128 KiB), and no reader learns more from a longer one.
pub const DETAIL_MAX: usize = 1024;

/// `detail` as tables and warnings give it: at most `DETAIL_MAX` bytes (cut at a character's
/// edge), then how many bytes were left out.
pub fn bounded_detail(detail: &str) -> std::borrow::Cow<'_, str> {
    if detail.len() <= DETAIL_MAX {
        return std::borrow::Cow::Borrowed(detail);
    }
    let mut cut = DETAIL_MAX;
    while !detail.is_char_boundary(cut) {
        cut -= 1;
    }
    std::borrow::Cow::Owned(format!(
        "{} … ({} more bytes)",
        &detail[..cut],
        detail.len() - cut
    ))
}

impl GameRow {
    /// Appends a note to `detail`, `; `-separated.
    pub fn add_note(&mut self, note: &str) {
        if !self.detail.is_empty() {
            self.detail.push_str("; ");
        }
        self.detail.push_str(note);
    }

    /// The row of a lower layer's error.
    pub fn of_error(game: Option<usize>, e: &impl Failure) -> GameRow {
        GameRow::failed(game, e.status(), e.to_string())
    }
}

/// Everything learned from one file's bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct FileAnalysis {
    pub encoding: Option<(&'static str, EncodingSource)>,
    /// One record per game, or a single file-level failure.
    pub games: Vec<GameRow>,
}

impl FileAnalysis {
    /// A file that yielded no game, as one row.
    pub fn failed(row: GameRow) -> FileAnalysis {
        FileAnalysis {
            encoding: None,
            games: vec![row],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_detail_is_cut_and_says_how_much_is_left_out() {
        assert_eq!(bounded_detail("short"), "short");
        let long = "é".repeat(1000);
        let cut = bounded_detail(&long);
        assert!(cut.len() < DETAIL_MAX + 40, "{}", cut.len());
        assert!(cut.ends_with(" … (976 more bytes)"), "{cut}");
        assert!(long.starts_with(cut.split(" … ").next().unwrap()));
    }
}
