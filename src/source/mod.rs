//! Where inputs come from: files and folders named on the command line, walked and sorted
//! before any work so that output order never depends on threads.

pub mod walk;

pub mod archive;
pub mod shard;

pub use archive::{container_of, container_of_bytes, for_each_member, Container, Member};
pub use shard::Shard;
pub use walk::{collect, read_input, read_list, Input, InputError, Root};
