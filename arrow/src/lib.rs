#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]

mod decode;
mod encode;
mod error;
mod fast;
mod list;
mod mem;
mod read;

pub use decode::{decode_array, decoded_schema};
pub use encode::{encode_arrays, encode_batch, ArrowEncoder};
pub use error::ArrowKeyError;

/// The name of unnamed column `i` (zero-based): `c0`, `c1`, … — the
/// columns of [`encode_arrays`] in errors, and [`decode_array`]'s columns
/// when no names are given.
pub fn default_name(i: usize) -> String {
    format!("c{i}")
}
