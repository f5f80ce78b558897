//! The game itself: points, the board with its rules, and the replay of a record.

pub mod board;
pub mod key;
pub mod random;
pub mod replay;
pub mod rules;

pub use board::{Board, Cell, Color, Idx, PlayError, PlayOutcome, Point, Points};
pub use key::{GameKey, KeyLine};
pub use replay::{move_list, replay, replay_until, IllegalMove, MoveList, Replay, ReplayError};
