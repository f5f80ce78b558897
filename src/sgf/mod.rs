//! SGF input: bytes → text (`decode`), text → game trees (`load`, on sgf-parse), and the
//! game-information properties kept raw for the CSV (`info`).

pub mod decode;
pub mod info;
pub mod load;
pub mod result;
pub mod scan;
pub mod tidy;

pub use decode::{decode, DecodeError, Decoded, EncodingSource};
pub use info::GameInfo;
pub use load::{load, LoadError, Loaded, LoadedTree};
