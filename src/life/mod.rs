//! Life at the final position (life-spec.md): the Go net of Müller-Prove (1995), the
//! published procedure (`mp95`) and its fixpoint reading (`mpfix`), Benson's unconditional
//! life, chains with their grammars, and big own eyes.

pub mod benson;
pub mod colour_net;
pub mod mp95;
pub mod mpfix;
pub mod net;

pub use benson::{benson, Benson, Region, Regions};
pub use colour_net::ColourNet;
pub use mp95::mp95;
pub use mpfix::mpfix;
pub use net::{Block, BlockId, EyeId, Net, NetTotals, SharedEye};
