//! livingblocks: replays folders of SGF game records to their final positions, decides which
//! blocks of stones live (Müller-Prove 1995, Benson 1976), and writes CSV statistics.
//!
//! The layers, from the outside in: `source` (walk and read), `sgf` (decode, parse, game
//! info), `go` (board and replay), `life` (the Go net and the life verdicts), `analyze` (the
//! pure per-file function), `sink` (CSV and totals), `app` (orchestration). Only `progress`
//! touches the terminal.

pub mod alloc;
pub mod analyze;
pub mod app;
pub mod cli;
pub mod go;
pub mod life;
pub mod merge;
pub mod progress;
pub mod report;
pub mod row;
pub mod score;
pub mod sgf;
pub mod sink;
pub mod source;
