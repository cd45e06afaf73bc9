//! The subcommands, one file each; their options are declared in
//! [`crate::args`].

pub mod alloc;
pub mod completions;
pub mod decode;
pub mod demo;
pub mod encode;
pub mod range;
pub mod reverse;
pub mod scan;
