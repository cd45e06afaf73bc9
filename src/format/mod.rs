//! The four key formats and their per-component codecs.
//!
//! | format | key of `("population", 3831868_i64)` | tagged | notes |
//! |---|---|---|---|
//! | [`Format::Hex`] | `population#l80000000003A783C` | yes | UPPERCASE hex of the order bytes |
//! | [`Format::Base64`] | `population#lV------uT2k` | yes | ASCII-ordered base64, no padding |
//! | [`Format::Decimal`] | `population#00000000000003831868` | no | zero-padded, sign slot, nine's complement |
//! | [`Format::Binary`] | `70 6f … 00 01 80 00 00 00 00 3a 78 3c` | no | big-endian, `00 → 00 FF`, `00 01` terminator |
//!
//! In every format and direction, for values `a`, `b` of one type:
//! `a.cmp(&b) == enc(a).cmp(&enc(b))` (reversed for [`Dir::Desc`](crate::Dir)),
//! and the same holds for whole tuples (see [`crate::tuple`]).

pub mod base64;
pub mod binary;
pub mod decimal;
pub mod hex;

use std::fmt;
use std::str::FromStr;

use crate::error::{DecodeError, EncodeError};
use crate::value::{Component, Field, ParseError};

/// A key format. All four encode every [`Type`](crate::Type), ascending and
/// descending, except that [`Format::Decimal`] refuses floats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Type-tagged UPPERCASE hex: `l80000000003A783C`.
    #[default]
    Hex,
    /// Type-tagged sortable base64: `lV------uT2k`.
    Base64,
    /// Zero-padded fixed-width decimal: `00000000000003831868`.
    Decimal,
    /// Compact binary (bytes, not text).
    Binary,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Hex, Format::Base64, Format::Decimal, Format::Binary];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Hex => "hex",
            Format::Base64 => "base64",
            Format::Decimal => "decimal",
            Format::Binary => "binary",
        }
    }

    /// Whether keys of this format are text (valid UTF-8, no byte below
    /// 0x20, components joined by `#`).
    pub const fn is_text(self) -> bool {
        !matches!(self, Format::Binary)
    }

    /// Appends one component (no separator) to `out`.
    ///
    /// # Errors
    /// [`EncodeError`] when the format cannot hold the value (a float in
    /// `decimal`, a number wider than the decimal width).
    #[inline]
    pub fn encode_component(self, c: &Component<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match self {
            Format::Hex => {
                hex::encode_component(c, out);
                Ok(())
            }
            Format::Base64 => {
                base64::encode_component(c, out);
                Ok(())
            }
            Format::Decimal => decimal::encode_component(c, out),
            Format::Binary => {
                binary::encode_component(c, out);
                Ok(())
            }
        }
    }

    /// Decodes exactly one whole component of type `field` from `input`.
    /// For text formats `input` is one `#`-free part of a key; for binary it
    /// must be one complete component (use [`crate::tuple::decode`] for
    /// whole keys). Offsets in errors are relative to `input`.
    pub fn decode_component<'k>(
        self,
        field: Field,
        input: &'k [u8],
    ) -> Result<Component<'k>, DecodeError> {
        match self {
            Format::Hex => hex::decode_component(field, input),
            Format::Base64 => base64::decode_component(field, input),
            Format::Decimal => decimal::decode_component(field, input),
            Format::Binary => {
                let (c, used) = binary::decode_component(field, input)?;
                if used != input.len() {
                    return Err(DecodeError::TrailingBytes { offset: used });
                }
                Ok(c)
            }
        }
    }

    /// Parses a format name (`hex`, `base64`, `decimal`, `binary`).
    pub fn parse(s: &str) -> Result<Format, ParseError> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                ParseError::new(format!(
                    "unknown format {s:?}: expected one of hex, base64, decimal, binary"
                ))
            })
    }
}

impl FromStr for Format {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::parse(s)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
