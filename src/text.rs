//! Shared machinery of the text formats (`hex`, `base64`, `decimal`):
//! string escaping, the tag byte, and the body codecs.
//!
//! # Strings
//!
//! Ascending string components are the string itself with every byte
//! `<= 0x25` (C0 controls, space, `!"#$%`) written as `%` and two UPPERCASE
//! hex digits. `#` (0x23) separates components and `$` (0x24) ends a tuple
//! prefix range; every escape starts with `%` (0x25), which is above both and
//! below every unescaped byte, so string order is key order and no component
//! can contain a separator. Non-ASCII text and DEL pass through.
//!
//! Descending string components are the format's body codec (hex or
//! sortable base64) applied to the bitwise NOT of the UTF-8 bytes, followed
//! by `~`. The NOT reverses byte order; `~` (0x7E) sorts above every body
//! character, so a string sorts *after* every longer string it is a prefix
//! of, as descending order requires. In base64, the unused low bits of the
//! last character are set to one (not zero) for the same reason.
//! Descending keys are printable ASCII: `"ab"` → `9E9D~` (hex).
//!
//! Bytes components are tagged `x` (ascending: the body of the bytes) or `X`
//! (descending: the body of the NOT of the bytes, then `~`).

use std::borrow::Cow;

use crate::error::DecodeError;
use crate::value::{Component, Dir, Field, Type, Value};

/// The component separator of text keys.
pub const SEP: u8 = b'#';
/// The byte just above [`SEP`]: `enc(P) + "$"` ends the range of tuple prefix `P`.
pub const SEP_END: u8 = b'$';
/// The escape byte.
pub const ESC: u8 = b'%';
/// The terminator of descending variable-length components.
pub const DESC_END: u8 = b'~';

pub(crate) const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether byte `b` must be escaped in an ascending string component.
#[inline]
pub(crate) fn needs_escape(b: u8) -> bool {
    b <= ESC
}

/// Appends the escaped form of `s`.
#[inline]
pub(crate) fn escape_into(s: &[u8], out: &mut Vec<u8>) {
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        if needs_escape(b) {
            out.extend_from_slice(&s[start..i]);
            out.extend_from_slice(&[
                ESC,
                UPPER_HEX[(b >> 4) as usize],
                UPPER_HEX[(b & 15) as usize],
            ]);
            start = i + 1;
        }
    }
    out.extend_from_slice(&s[start..]);
}

#[inline]
pub(crate) fn upper_hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes an ascending string component (canonically), borrowing when it
/// holds no escape.
pub(crate) fn unescape(input: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    let s = std::str::from_utf8(input).map_err(|e| DecodeError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    let mut owned: Option<Vec<u8>> = None;
    let mut i = 0;
    let mut start = 0;
    while i < input.len() {
        let b = input[i];
        if b == ESC {
            let h = *input.get(i + 1).ok_or(DecodeError::Truncated {
                offset: input.len(),
                expected: "two hex digits after '%'",
            })?;
            let l = *input.get(i + 2).ok_or(DecodeError::Truncated {
                offset: input.len(),
                expected: "two hex digits after '%'",
            })?;
            let hv = upper_hex_val(h).ok_or(DecodeError::InvalidSymbol {
                offset: i + 1,
                found: h,
                expected: "uppercase hex digit after '%'",
            })?;
            let lv = upper_hex_val(l).ok_or(DecodeError::InvalidSymbol {
                offset: i + 2,
                found: l,
                expected: "uppercase hex digit after '%'",
            })?;
            let v = hv << 4 | lv;
            if !needs_escape(v) {
                return Err(DecodeError::NonCanonical {
                    offset: i,
                    reason: "escape of a byte above 0x25, which is written as itself",
                });
            }
            let o = owned.get_or_insert_with(|| Vec::with_capacity(input.len()));
            o.extend_from_slice(&input[start..i]);
            o.push(v);
            i += 3;
            start = i;
        } else if needs_escape(b) {
            return Err(DecodeError::InvalidSymbol {
                offset: i,
                found: b,
                expected: "a byte above 0x25 or a %XX escape",
            });
        } else {
            i += 1;
        }
    }
    Ok(match owned {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.extend_from_slice(&input[start..]);
            // Escapes only produce ASCII, and the raw input is valid UTF-8,
            // so the result is valid UTF-8 too.
            Cow::Owned(String::from_utf8(o).map_err(|e| DecodeError::InvalidUtf8 {
                offset: e.utf8_error().valid_up_to(),
            })?)
        }
    })
}

/// A body codec: how the tagged text formats write bytes.
pub(crate) trait Body {
    /// Appends the body of `bytes` (inverted when `invert`). `ones` fills
    /// unused low bits with ones instead of zeros (descending variable-length).
    fn encode(bytes: &[u8], invert: bool, ones: bool, out: &mut Vec<u8>);
    /// Decodes a whole body into `out`, canonically; offsets relative to `input`.
    fn decode(input: &[u8], invert: bool, ones: bool, out: &mut Vec<u8>)
        -> Result<(), DecodeError>;
    /// The body length of `n` bytes.
    fn encoded_len(n: usize) -> usize;
}

/// Appends a whole component in a tagged text format with body codec `B`.
#[inline]
pub(crate) fn encode_tagged<B: Body>(c: &Component<'_>, out: &mut Vec<u8>) {
    let desc = c.dir.is_desc();
    match &c.value {
        Value::Str(s) => {
            if desc {
                B::encode(s.as_bytes(), true, true, out);
                out.push(DESC_END);
            } else {
                escape_into(s.as_bytes(), out);
            }
        }
        Value::Bytes(b) => {
            out.push(tag_of(Type::Bytes, c.dir));
            if desc {
                B::encode(b, true, true, out);
                out.push(DESC_END);
            } else {
                B::encode(b, false, false, out);
            }
        }
        v => {
            // Fixed-width: order bytes are always present.
            if let Some((buf, n)) = v.order_bytes() {
                out.push(tag_of(v.ty(), c.dir));
                B::encode(&buf[..n], desc, false, out);
            }
        }
    }
}

/// The tag byte of `ty` in direction `dir` (`Str` has none: callers never ask).
#[inline]
pub(crate) fn tag_of(ty: Type, dir: Dir) -> u8 {
    let t = ty.tag().unwrap_or(b'?');
    if dir.is_desc() {
        t.to_ascii_uppercase()
    } else {
        t
    }
}

/// Checks the tag at `input[0]`.
pub(crate) fn expect_tag(field: Field, input: &[u8]) -> Result<(), DecodeError> {
    let want = tag_of(field.ty, field.dir);
    match input.first() {
        None => Err(DecodeError::Truncated {
            offset: 0,
            expected: "a type tag",
        }),
        Some(&t) if t == want => Ok(()),
        Some(&t) => Err(DecodeError::UnexpectedTag {
            offset: 0,
            found: t,
            expected: tag_name(field),
        }),
    }
}

fn tag_name(field: Field) -> &'static str {
    // A static description per (type, direction): small table.
    const ASC: [&str; 11] = [
        "'b' (bool)",
        "'d' (f64)",
        "'f' (f32)",
        "'g' (uuid)",
        "'i' (i32)",
        "'l' (i64)",
        "'t' (ts)",
        "'u' (u64)",
        "'w' (u32)",
        "'x' (bytes)",
        "(none: str)",
    ];
    const DESC: [&str; 11] = [
        "'B' (bool.desc)",
        "'D' (f64.desc)",
        "'F' (f32.desc)",
        "'G' (uuid.desc)",
        "'I' (i32.desc)",
        "'L' (i64.desc)",
        "'T' (ts.desc)",
        "'U' (u64.desc)",
        "'W' (u32.desc)",
        "'X' (bytes.desc)",
        "(none: str.desc)",
    ];
    let i = Type::ALL.iter().position(|t| *t == field.ty).unwrap_or(10);
    if field.dir.is_desc() {
        DESC[i]
    } else {
        ASC[i]
    }
}

/// Splits a descending variable-length component into its body, checking
/// the final `~`.
pub(crate) fn strip_desc_end(input: &[u8]) -> Result<&[u8], DecodeError> {
    match input.split_last() {
        Some((&DESC_END, body)) => Ok(body),
        _ => Err(DecodeError::Truncated {
            offset: input.len(),
            expected: "'~' at the end of a descending string/bytes component",
        }),
    }
}

/// Decodes a descending string component: body of NOT(utf8) then `~`.
pub(crate) fn decode_desc_str<B: Body>(input: &[u8]) -> Result<Cow<'static, str>, DecodeError> {
    let body = strip_desc_end(input)?;
    let mut bytes = Vec::with_capacity(body.len());
    B::decode(body, true, true, &mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Cow::Owned(s)),
        Err(e) => {
            // Point at the body character holding the first bad byte.
            let bad = e.utf8_error().valid_up_to();
            let n = B::encoded_len(bad);
            Err(DecodeError::InvalidUtf8 {
                offset: n.min(body.len().saturating_sub(1)),
            })
        }
    }
}

/// Decodes one component of a tagged text format with body codec `B`.
pub(crate) fn decode_tagged<'k, B: Body>(
    field: Field,
    input: &'k [u8],
) -> Result<Component<'k>, DecodeError> {
    let value = match field.ty {
        Type::Str => {
            if field.dir.is_desc() {
                Value::Str(decode_desc_str::<B>(input)?)
            } else {
                Value::Str(unescape(input)?)
            }
        }
        Type::Bytes => {
            expect_tag(field, input)?;
            let mut bytes = Vec::new();
            if field.dir.is_desc() {
                let body = strip_desc_end(&input[1..]).map_err(|e| e.shift(1))?;
                B::decode(body, true, true, &mut bytes).map_err(|e| e.shift(1))?;
            } else {
                B::decode(&input[1..], false, false, &mut bytes).map_err(|e| e.shift(1))?;
            }
            Value::Bytes(Cow::Owned(bytes))
        }
        ty => {
            expect_tag(field, input)?;
            let n = ty.fixed_len().unwrap_or(0);
            let want = B::encoded_len(n);
            let body = &input[1..];
            if body.len() < want {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: "more digits",
                });
            }
            if body.len() > want {
                return Err(DecodeError::TrailingBytes { offset: 1 + want });
            }
            let mut buf = Vec::with_capacity(16);
            B::decode(body, field.dir.is_desc(), false, &mut buf).map_err(|e| e.shift(1))?;
            Value::from_order_bytes(ty, &buf).ok_or(DecodeError::NonCanonical {
                offset: 1,
                reason: non_canonical_reason(ty),
            })?
        }
    };
    Ok(Component {
        value,
        dir: field.dir,
        width: None,
    })
}

pub(crate) fn non_canonical_reason(ty: Type) -> &'static str {
    match ty {
        Type::Bool => "a bool is 0 or 1",
        Type::F64 | Type::F32 => "a NaN other than the canonical NaN",
        _ => "not an encoding of this type",
    }
}

/// Guesses a component's type from its tag (schemaless decoding): a valid
/// tagged value is read as that value, anything else as an ascending string.
pub(crate) fn guess_tagged<'k, B: Body>(input: &'k [u8]) -> Result<Component<'k>, DecodeError> {
    if let Some((ty, dir)) = input.first().and_then(|&t| Type::from_tag(t)) {
        if let Ok(c) = decode_tagged::<B>(
            Field {
                ty,
                dir,
                width: None,
            },
            input,
        ) {
            return Ok(c);
        }
    }
    decode_tagged::<B>(Field::asc(Type::Str), input)
}
