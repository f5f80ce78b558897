//! Where inputs come from: files and folders named on the command line, walked and sorted
//! before any work so that output order never depends on threads.

pub mod archive;
pub mod find;
pub mod input;
pub mod list;
pub mod name;
pub mod shard;
pub mod walk;
mod zip_dir;

pub use archive::{for_each_member, Member};
pub use find::Finder;
pub use input::{
    container_of, container_of_bytes, Compression, Container, Input, InputError, InputKind,
};
pub use list::Inputs;
pub use name::{name_of, unescape};
pub use shard::Shard;
pub use walk::{collect, list_is_nul_terminated, read_input, Root, STAGE_PREFIX};

/// What an input gives to analyse, in output order.
pub enum Unit<'a> {
    /// A plain file (or a problem met on the walk), read by the worker that analyses it.
    File(&'a Input),
    /// Bytes taken out of an archive or a compressed stream.
    Member(Member),
}

/// Plain files larger than this are read a game tree at a time, as compressed collections
/// are: parsed whole, a collection of many small trees takes about 2 KB a tree.
pub const STREAM_ABOVE: u64 = 64 << 10;

/// Whether a plain file is read a game tree at a time: larger than `STREAM_ABOVE`, and not
/// past the cap (a file past it is one `too_large` row, unread).
fn streams(input: &Input, cap: u64) -> bool {
    input.kind == InputKind::File
        && std::fs::metadata(&input.path).is_ok_and(|m| m.len() > STREAM_ABOVE && m.len() <= cap)
}

/// Calls `each` with what `input` gives to analyse: the input itself, or every member of the
/// container it is (a large plain file's game trees count as members); stops at the first
/// error `each` returns.
pub fn for_each_unit<E>(
    input: &Input,
    cap: u64,
    each: &mut dyn FnMut(Unit<'_>) -> Result<(), E>,
) -> Result<(), E> {
    match container_of(&input.name).filter(|_| input.kind == InputKind::File) {
        None if streams(input, cap) => {
            let plain = Container::Stream(Compression::None);
            for_each_member(input, plain, cap, &mut |m| each(Unit::Member(m)))
        }
        None => each(Unit::File(input)),
        Some(container) => for_each_member(input, container, cap, &mut |m| each(Unit::Member(m))),
    }
}
