//! External engines, at the edge beside `source` and `sink`: a process the run talks to over
//! pipes. The core never sees a protocol; it gets plain data (`score::judgement::EngineView`).

pub mod katago;
pub mod nn;

pub use katago::{EngineError, Katago, KatagoSpec};
pub use nn::NetJudge;
