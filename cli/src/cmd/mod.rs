//! The subcommands, one file each; their options are declared in
//! [`crate::args`].

pub(crate) mod alloc;
pub(crate) mod completions;
pub(crate) mod decode;
pub(crate) mod demo;
pub(crate) mod design;
pub(crate) mod encode;
pub(crate) mod range;
pub(crate) mod reverse;
pub(crate) mod scan;
