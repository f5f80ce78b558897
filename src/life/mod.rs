//! Life at the final position (life-spec.md): the Go net of Müller-Prove (1995).

pub mod net;

pub use net::{Block, BlockId, EyeId, Net, NetTotals, SharedEye};
