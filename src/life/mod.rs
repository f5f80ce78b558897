//! Life at the final position (life-spec.md): the Go net of Müller-Prove (1995), the
//! published procedure (`mp95`) and its fixpoint reading (`mpfix`), Benson's unconditional
//! life, chains with their grammars, and big own eyes.

pub mod benson;
pub mod big_eyes;
pub mod chains;
pub mod colour_net;
pub mod examples;
pub mod method;
pub mod mp95;
pub mod mpfix;
pub mod net;
#[cfg(test)]
mod paper_examples;
pub mod position;
#[cfg(test)]
pub(crate) mod properties;

pub use benson::{benson, Benson, Region, Regions};
pub use big_eyes::{find_big_eyes, BigEye, BigEyes};
pub use chains::{find_chains, in_g1, Chain};
pub use colour_net::ColourNet;
pub use method::{Method, PerMethod};
pub use mp95::{mp95, mp95_traced, Mp95Event, Mp95Trace};
pub use mpfix::mpfix;
pub use net::{Area, Block, BlockId, EyeId, Net, NetTotals, SharedEye};
pub use position::{analyze_life, BlockVerdict, ChainVerdict, Life, LifeTotals};
