//! livingblocks: replays folders of SGF game records to their final positions, decides which
//! blocks of stones live (Müller-Prove 1995, Benson 1976), and writes CSV statistics.
//!
//! The layers, from the inside out; each imports only the ones above it:
//! - `go` (board, replay), `sgf` (decode, parse, game info), `life` (the Go net and the life
//!   verdicts), `score` (counting, dead stones): the core, pure, no I/O, no output vocabulary;
//! - `nn`: KataGo's neural networks evaluated in-process (model, input features, forward pass),
//!   pure computation over `score`'s question to an engine;
//! - `source`: walking and reading inputs, archives, shards; `engine`: the client of an
//!   external engine (KataGo) and the loader of a net file, which hand plain data to `score`;
//! - `row`: the output's rows and statuses, and how the core's errors map onto them;
//! - `analyze`: the pure per-file function, bytes → rows;
//! - `sink` (the CSV tables and run totals) and `report` (the tally, report.md, plots);
//! - `app` (the `analyze` run: inputs → parallel analysis → tables in input order) and
//!   `merge` (joining shards); `alloc`, the binary's allocator.
//!
//! The binary (`src/main.rs`) adds what only it uses: the command line (`cli`), one module
//! per subcommand (`commands`), and `progress`, the only code that writes to the terminal.

pub mod alloc;
pub mod analyze;
pub mod app;
pub mod duplicates;
pub mod engine;
pub mod go;
pub mod life;
pub mod look;
pub mod merge;
pub mod nn;
pub mod report;
pub mod row;
pub mod score;
pub mod sgf;
pub mod sink;
pub mod source;
pub mod sum;
