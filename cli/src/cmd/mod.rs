//! The subcommands, one file each.

use anyhow::Result;

use crate::args::{Args, Opt};
use crate::Io;

pub mod alloc;
pub mod decode;
pub mod demo;
pub mod encode;
pub mod range;
pub mod reverse;
pub mod scan;

/// A subcommand's entry point.
pub type RunFn = fn(&Args, &mut Io<'_>) -> Result<()>;

/// The options, help text and entry point of subcommand `name`.
pub fn lookup(name: &str) -> Option<(&'static [Opt], &'static str, RunFn)> {
    Some(match name {
        "encode" => (encode::OPTS, encode::USAGE, encode::run as RunFn),
        "decode" => (decode::OPTS, decode::USAGE, decode::run as RunFn),
        "range" => (range::OPTS, range::USAGE, range::run as RunFn),
        "alloc" => (alloc::OPTS, alloc::USAGE, alloc::run as RunFn),
        "scan" => (scan::OPTS, scan::USAGE, scan::run as RunFn),
        "demo" => (demo::OPTS, demo::USAGE, demo::run as RunFn),
        "reverse" => (reverse::OPTS, reverse::USAGE, reverse::run as RunFn),
        _ => return None,
    })
}

/// The help text of subcommand `name`.
pub fn usage(name: &str) -> Option<&'static str> {
    lookup(name).map(|(_, u, _)| u)
}
