//! The game as KataGo's `cpp/game` plays it, for the net's inputs: its rules (`rules`), its
//! board with KataGo's layout (`board`), the ladder reader (`ladder`), the pass-alive areas
//! (`pass_alive`), the history a position is replayed into (`history`), and the input
//! features read from them (`features`).

mod board;
pub mod features;
mod history;
mod ladder;
mod pass_alive;
pub mod rules;
