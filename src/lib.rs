//! # lexikey — sortable keys for ordered key-value stores
//!
//! Ordered stores (HBase, Bigtable, RocksDB, etcd, FoundationDB, Redis
//! `ZRANGE … BYLEX`, Cassandra `text`/`blob` clustering columns, PostgreSQL
//! `text COLLATE "C"`) compare keys as unsigned bytes. lexikey turns typed
//! values into keys whose byte order is the value order:
//!
//! > for values `a`, `b` of one type, `a.cmp(&b) == encode(a).cmp(&encode(b))`
//! > in every format, reversed for descending components, alone and inside
//! > composite keys — and every key decodes back to the value it came from.
//!
//! ```
//! use lexikey::{tuple, Component, Format};
//! let a = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(389_625_i64)])?;
//! let b = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3_831_868_i64)])?;
//! assert_eq!(b, b"population#l80000000003A783C");
//! assert!(a < b);
//! # Ok::<(), lexikey::EncodeError>(())
//! ```
//!
//! **Building and reading keys**: [`tuple::encode`] / [`tuple::decode`]
//! (`encode` returns a [`Key`], which reads as `[u8]` and, once dropped,
//! leaves its buffer to the thread's next `encode`); in a loop,
//! [`tuple::encode_into`] a reused `Vec<u8>` and [`tuple::decode_into`] a
//! reused `Vec<Component>`, which allocate nothing per key (strings are
//! borrowed from the key unless they hold an escape);
//! [`tuple::decode_reusing`] a `Vec<Component>` that is never
//! cleared allocates nothing per key even for escaped strings (it
//! unescapes them into the strings the vector already holds).
//! [`format::typed::KeyWriter`] / [`KeyReader`](format::typed::KeyReader)
//! write and read ascending `str`/`i64`/`f64` components without building
//! [`Component`]s (and [`KeyWriter::push`](format::typed::KeyWriter::push)
//! takes any component); they produce the same bytes.
//!
//! Formats: [`Format`] ([`format::hex`], [`format::base64`],
//! [`format::decimal`], [`format::binary`]); composite keys: [`mod@tuple`];
//! ranges: [`range`]; value syntax: [`value::literal`]; the store trait: [`store`].
//! The float policy (one canonical NaN after `+inf`; `-0.0 < +0.0`) is in
//! [`value`]; the float transform every format and profile shares, each
//! with its own NaN rule, in [`order`].
//!
//! No `unsafe` except two kinds of audited call, each allowed where it
//! stands (any other is a compile error): calls of the
//! `#[target_feature(enable = "sse2")]` digit functions (hex decode and
//! encode, base64 and decimal encode; their feature is the x86_64
//! baseline, and they take and return plain values), and
//! `str::from_utf8_unchecked` on a string just checked to be ASCII (the
//! decoders' shortcut past `from_utf8`'s byte-by-byte pass).
#![deny(unsafe_code)]

mod bytes;
pub mod error;
#[doc(hidden)]
pub mod fixture;
pub mod format;
pub mod frontend;
pub mod interop;
pub mod key;
pub mod kinds;
pub mod order;
pub mod range;
#[cfg(feature = "serde")]
pub mod serde_key;
pub mod store;
pub mod tuple;
pub mod value;

pub use error::{DecodeError, EncodeError, KeyPart};
pub use format::Format;
pub use key::Key;
pub use range::KeyRange;
pub use store::alloc::{AllocError, Allocator, AllocatorConfig};
pub use value::big_decimal::Dec;
pub use value::{Component, Dir, Field, Nulls, ParseError, Type, Value};

/// The "reverse number" `i64::MAX - n` that Java code writes into HBase row
/// keys for newest-first order (`Long.MAX_VALUE - timestamp`). Reversing is
/// its own inverse. Encode the result as an `i64` in any format.
///
/// # Errors
/// [`EncodeError::ReverseOutOfRange`] for negative `n` (the subtraction
/// would overflow; Java would silently wrap).
///
/// ```
/// assert_eq!(lexikey::reverse(1)?, 9223372036854775806);
/// assert_eq!(lexikey::reverse(lexikey::reverse(42)?)?, 42);
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
pub fn reverse(n: i64) -> Result<i64, EncodeError> {
    if n < 0 {
        return Err(EncodeError::ReverseOutOfRange { n });
    }
    Ok(i64::MAX - n)
}

/// A key as readable text: printable ASCII as itself, `\\` and `"` escaped,
/// other bytes as `\xNN` — the form a 2 a.m. log line wants.
///
/// ```
/// assert_eq!(lexikey::escape_key(b"\x02foo\x00"), r"\x02foo\x00");
/// ```
pub fn escape_key(key: &[u8]) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            0x20..=0x7E => s.push(b as char),
            _ => bytes::push_x_escape(b, &mut s),
        }
    }
    s
}

/// A key as error messages show it: [`escape_key`] of its first 64 bytes
/// in double quotes, `...` before the closing quote when the key is longer.
/// The one spelling every front end's messages use.
///
/// ```
/// assert_eq!(lexikey::show_key(b"pop\x00"), r#""pop\x00""#);
/// assert_eq!(lexikey::show_key(&[b'a'; 70]), format!("\"{}...\"", "a".repeat(64)));
/// ```
pub fn show_key(key: &[u8]) -> String {
    let mut s = String::from("\"");
    s.push_str(&escape_key(&key[..key.len().min(64)]));
    if key.len() > 64 {
        s.push_str("...");
    }
    s.push('"');
    s
}

/// A key as the HBase shell prints it (HBase's `Bytes.toStringBinary`):
/// printable ASCII as itself, every other byte and the backslash as
/// `\xNN` with uppercase digits. [`value::literal::decode_binary_key`] reads it back
/// (when the key has a byte that needs an escape; a key of printable
/// ASCII alone prints as itself).
///
/// ```
/// assert_eq!(lexikey::to_string_binary(b"pop\x00\x01\\"), r"pop\x00\x01\x5C");
/// ```
pub fn to_string_binary(key: &[u8]) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key {
        if (0x20..=0x7E).contains(&b) && b != b'\\' {
            s.push(char::from(b));
        } else {
            bytes::push_x_escape(b, &mut s);
        }
    }
    s
}

/// Keys as lowercase hex (how the CLI prints binary keys; see
/// [`value::literal::push_hex`] and, for the way back, [`value::literal::decode_hex_into`]).
///
/// ```
/// assert_eq!(lexikey::to_hex(b"\x00\xAB"), "00ab");
/// ```
pub fn to_hex(key: &[u8]) -> String {
    let mut s = String::new();
    value::literal::write_hex(key, &mut s);
    s
}

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
struct ReadmeDoctest;

/// The Rust examples of the pages under `docs/`, run as doc tests like the
/// README's (docs/rust.md holds most of them).
#[cfg(doctest)]
mod doc_pages {
    #[doc = include_str!("../docs/allocator.md")]
    struct Allocator;
    #[doc = include_str!("../docs/bigtable.md")]
    struct Bigtable;
    #[doc = include_str!("../docs/cli.md")]
    struct Cli;
    #[doc = include_str!("../docs/interop.md")]
    struct Interop;
    #[doc = include_str!("../docs/rust.md")]
    struct Rust;
    #[doc = include_str!("../docs/stores.md")]
    struct Stores;
    #[doc = include_str!("../docs/testing.md")]
    struct Testing;
}
