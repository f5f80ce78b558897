//! The judges at the edge beside `source` and `sink`: KataGo's engine, a process the run talks
//! to over pipes, and KataGo's nets read from a file or carried in the binary and evaluated
//! in-process, both behind one interface (`Judge`). The core never sees a protocol or a file;
//! it gets plain data (`score::judgement::EngineView`).

pub mod judge;
pub mod katago;
pub mod nn;

pub use judge::{Judge, Ticket};

pub use katago::{EngineError, Katago, KatagoSpec};
pub use nn::{NetJudge, NetSource};
