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
pub mod compact;
pub mod decimal;
pub mod hex;
pub(crate) mod hex_digits;
pub mod list;
pub mod null;
pub mod text;
pub mod typed;

use std::fmt;
use std::str::FromStr;

use crate::error::{DecodeError, EncodeError};
use crate::value::{Component, Field, ParseError, Value};

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
    #[inline(always)]
    pub fn encode_component(self, c: &Component<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        // Nullable and list components: one branch, out of line.
        if c.nulls.is_some() | (c.list != 0) {
            return self.encode_nullable(c, out);
        }
        // The components most keys are made of (ascending strings and
        // full-width `i64`s) without the per-type dispatch of the codecs;
        // the bytes are the codecs' own (the scalar fast paths are tested
        // against them below).
        if !c.dir.is_desc() {
            match (self, &c.value) {
                (Format::Binary, Value::Str(s)) => {
                    binary::put_escaped(s.as_bytes(), false, out);
                    return Ok(());
                }
                (_, Value::Str(s)) => {
                    crate::format::text::escape_into(s.as_bytes(), out);
                    return Ok(());
                }
                (Format::Hex, &Value::I64(v)) => {
                    out.extend_from_slice(&hex::encode_i64(v));
                    return Ok(());
                }
                (Format::Base64, &Value::I64(v)) => {
                    out.extend_from_slice(&base64::encode_i64(v));
                    return Ok(());
                }
                (Format::Decimal, &Value::I64(v)) if c.width.is_none() => {
                    out.extend_from_slice(&decimal::encode_i64(v));
                    return Ok(());
                }
                (Format::Binary, &Value::I64(v)) => {
                    out.extend_from_slice(&binary::encode_i64(v));
                    return Ok(());
                }
                _ => {}
            }
        }
        self.encode_component_general(c, out)
    }

    /// Appends the `dec` component `magnitude × 10^-scale` (negative when
    /// `negative`) in direction `dir`: the bytes [`Format::encode_component`]
    /// writes for `Dec::from_scaled(negative, digits, scale)` (the digits
    /// of `magnitude`), with no [`Dec`](crate::value::big_decimal::Dec)
    /// built and no allocation: the columnar decimals (Arrow's
    /// `Decimal128(p, s)`) straight to their keys. `false` (nothing
    /// written) in the `decimal` format, whose ELEN text is not this
    /// path's.
    ///
    /// ```
    /// use lexikey::{tuple, Component, Dir, Format};
    /// use lexikey::value::big_decimal::Dec;
    /// let mut key = Vec::new();
    /// assert!(Format::Hex.encode_scaled_dec(true, 12345, 2, Dir::Asc, &mut key));
    /// let row = tuple::encode(Format::Hex, &[Component::asc(Dec::parse("-123.45")?)])?;
    /// assert_eq!(key, row);
    /// assert!(!Format::Decimal.encode_scaled_dec(false, 1, 0, Dir::Asc, &mut key));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn encode_scaled_dec(
        self,
        negative: bool,
        magnitude: u128,
        scale: i8,
        dir: crate::Dir,
        out: &mut Vec<u8>,
    ) -> bool {
        use crate::value::big_decimal::Dec;
        let mut buf = [0u8; Dec::SCALED_BINARY_MAX];
        let n = Dec::put_scaled_binary(negative, magnitude, scale, dir.is_desc(), &mut buf);
        let body = &buf[..n];
        match self {
            Format::Hex => text::encode_dec_body::<hex_digits::Hex>(dir, body, out),
            Format::Base64 => text::encode_dec_body::<base64::B64>(dir, body, out),
            Format::Binary => out.extend_from_slice(body),
            Format::Decimal => return false,
        }
        true
    }

    /// [`Format::encode_component`] of a component of a nullable field
    /// (the marker, then the value's bytes as without the `?`, see
    /// [`null`]) or of a list field ([`list`]).
    #[inline(never)]
    fn encode_nullable(self, c: &Component<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let Some(nulls) = c.nulls else {
            return self.encode_component_general(c, out);
        };
        list::check_component(c)?;
        let start = out.len();
        out.push(null::marker(self, nulls, c.is_null()));
        if c.is_null() {
            return Ok(());
        }
        self.encode_component_general(c, out)
            .inspect_err(|_| out.truncate(start))
    }

    /// [`Format::encode_component`] through each format's codec.
    #[inline(never)]
    fn encode_component_general(
        self,
        c: &Component<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        if c.list != 0 || matches!(c.value, Value::List(..)) {
            return list::encode(self, c, out);
        }
        if let Value::Null(ty) = c.value {
            return Err(EncodeError::NotNullable { ty });
        }
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
    #[inline]
    pub fn decode_component<'k>(
        self,
        field: Field,
        input: &'k [u8],
    ) -> Result<Component<'k>, DecodeError> {
        if (field.nulls.is_some() | (field.list != 0)) && self.is_text() {
            return self.decode_nullable_text(field, input);
        }
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

    /// [`Format::decode_component`] of a text part of a nullable field
    /// (the marker, then nothing (a null) or the value as the field without
    /// the `?` reads it, see [`null`]) or of a list field ([`list`]).
    #[inline(never)]
    fn decode_nullable_text(
        self,
        field: Field,
        input: &[u8],
    ) -> Result<Component<'_>, DecodeError> {
        if field.nulls.is_none() {
            return list::decode_text(self, field, input);
        }
        list::check_field(field)?;
        let mut c = if null::read_marker(self, field, input)? {
            if input.len() > 1 {
                return Err(DecodeError::TrailingBytes { offset: 1 });
            }
            Component::asc(Value::Null(field.ty))
        } else {
            self.decode_component(
                Field {
                    nulls: None,
                    ..field
                },
                &input[1..],
            )
            .map_err(|e| e.shift(1))?
        };
        c.dir = field.dir;
        c.nulls = field.nulls;
        c.list = field.list;
        Ok(c)
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

#[cfg(test)]
mod tests {
    //! The scalar fast paths (`encode_i64`, `decode_i64`, …) against the
    //! general component codecs, on valid keys and on mutated ones.
    use super::*;
    use crate::value::Type;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Valid keys, then each with one byte replaced, one byte dropped, one
    /// byte added.
    fn variants(key: &[u8], rng: &mut Rng) -> Vec<Vec<u8>> {
        let mut out = vec![key.to_vec()];
        let interesting = [
            b'0', b'9', b'A', b'F', b'G', b'a', b'-', b'_', b'z', b'l', b'd', 0, 0xFF,
        ];
        for i in 0..key.len() {
            let mut k = key.to_vec();
            k[i] = interesting[(rng.next() % interesting.len() as u64) as usize];
            out.push(k);
            let mut k = key.to_vec();
            k[i] = rng.next() as u8;
            out.push(k);
        }
        out.push(key[..key.len().saturating_sub(1)].to_vec());
        let mut k = key.to_vec();
        k.push(b'0');
        out.push(k);
        out
    }

    fn generic(format: Format, ty: Type, key: &[u8]) -> Result<Value<'_>, DecodeError> {
        format
            .decode_component(Field::asc(ty), key)
            .map(|c| c.value)
    }

    fn same_f64(a: &Result<f64, DecodeError>, b: &Result<Value<'_>, DecodeError>) -> bool {
        match (a, b) {
            (Ok(x), Ok(Value::F64(y))) => x.to_bits() == y.to_bits(),
            (Err(_), Err(_)) => true,
            _ => false,
        }
    }

    #[test]
    fn scalar_fast_paths_agree_with_component_codecs() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for round in 0..3_000 {
            let r = rng.next();
            let i = match round % 4 {
                0 => r as i64,
                1 => (r >> (r % 64)) as i64,
                2 => -((r >> (r % 64)) as i64),
                _ => [i64::MIN, i64::MAX, 0, -1, 1][round / 4 % 5],
            };
            let f = match round % 3 {
                0 => f64::from_bits(r),
                1 => i as f64 / 7.0,
                _ => [
                    0.0,
                    -0.0,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NAN,
                    5e-324,
                ][round / 3 % 6],
            };
            let mut key = Vec::new();
            for (format, ik, fk) in [
                (
                    Format::Hex,
                    hex::encode_i64(i).to_vec(),
                    Some(hex::encode_f64(f).to_vec()),
                ),
                (
                    Format::Base64,
                    base64::encode_i64(i).to_vec(),
                    Some(base64::encode_f64(f).to_vec()),
                ),
                (Format::Decimal, decimal::encode_i64(i).to_vec(), None),
                (
                    Format::Binary,
                    binary::encode_i64(i).to_vec(),
                    Some(binary::encode_f64(f).to_vec()),
                ),
            ] {
                key.clear();
                format
                    .encode_component(&Component::asc(i), &mut key)
                    .unwrap();
                assert_eq!(ik, key, "{format} encode_i64({i})");
                for k in variants(&ik, &mut rng) {
                    let fast = match format {
                        Format::Hex => hex::decode_i64(&k),
                        Format::Base64 => base64::decode_i64(&k),
                        Format::Decimal => decimal::decode_i64(&k),
                        Format::Binary => binary::decode_i64(&k),
                    };
                    let slow = generic(format, Type::I64, &k);
                    match (&fast, &slow) {
                        (Ok(a), Ok(Value::I64(b))) => assert_eq!(a, b, "{format} {k:?}"),
                        (Err(a), Err(b)) => {
                            if matches!(format, Format::Base64 | Format::Decimal) {
                                assert_eq!(a, b, "{format} {k:?}");
                            }
                        }
                        _ => panic!("{format} {k:?}: fast {fast:?}, general {slow:?}"),
                    }
                }
                let Some(fk) = fk else { continue };
                key.clear();
                format
                    .encode_component(&Component::asc(f), &mut key)
                    .unwrap();
                assert_eq!(fk, key, "{format} encode_f64({f})");
                for k in variants(&fk, &mut rng) {
                    let fast = match format {
                        Format::Hex => hex::decode_f64(&k),
                        Format::Base64 => base64::decode_f64(&k),
                        _ => binary::decode_f64(&k),
                    };
                    let slow = generic(format, Type::F64, &k);
                    assert!(
                        same_f64(&fast, &slow),
                        "{format} {k:?}: fast {fast:?}, general {slow:?}"
                    );
                }
            }
        }
    }
}
