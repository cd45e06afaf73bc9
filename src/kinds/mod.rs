//! Kinds: values with a meaning of their own, stored as a core type.
//!
//! Each kind is written into keys as an ordinary component (a `u64` code,
//! a `uuid`) in every format, and adds what the plain type does not know:
//!
//! - [`geo`]: Morton and Hilbert codes of (latitude, longitude) and
//!   bounding boxes as code ranges.
//! - [`timeid`]: ULIDs and UUIDv7s, time-ordered IDs with monotonic
//!   generators.
//!
//! Their text syntax (`ulid:…`, `uuid7:…`, `geo:LAT,LON`) is
//! [`crate::frontend::native`]'s.

pub mod geo;
pub mod timeid;
