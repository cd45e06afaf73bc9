//! The `binary` format: compact, untagged bytes.
//!
//! | type | bytes |
//! |---|---|
//! | `bool` | 1: `00` / `01` |
//! | `i32`, `u32`, `f32` | 4, big-endian order bytes |
//! | `i64`, `u64`, `f64`, `ts` | 8, big-endian order bytes |
//! | `uuid` | 16, big-endian |
//! | `vi64`, `vu64` | 1 to 9 (see [`crate::format::compact`]) |
//! | `str`, `bytes` | the bytes with `00` → `00 FF`, then the terminator `00 01` |
//! | `TYPE?` (nullable) | `00` (null; `02` with `.nulls_last`) or `01` and the value (see [`crate::format::null`]) |
//!
//! Signed integers flip the sign bit; floats use the float transform of
//! [`crate::value::f64_order_bits`]. A string that is a prefix of another
//! ends with `00 01`, where the longer one has `00 FF` or a byte ≥ `01`, so it
//! sorts first. The terminator is `00 01` rather than a bare `00` because
//! lexikey's binary components carry no type code: the next component may
//! start with `00` or `FF`, and with a bare `00` terminator `("a", 0xFF…)`
//! could not be told from an escaped `00`.
//!
//! Descending components are the bitwise NOT of the ascending bytes,
//! terminator included. Every component is prefix-free, so components
//! concatenate into tuple keys without separators, and a descending
//! component still orders correctly when more components follow.
//!
//! ```
//! use lexikey::{Component, Format};
//! let mut key = Vec::new();
//! Format::Binary.encode_component(&Component::asc("a\0b"), &mut key)?;
//! assert_eq!(key, b"a\x00\xFFb\x00\x01");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use std::borrow::Cow;

use crate::bytes::find_byte;
use crate::error::DecodeError;
use crate::format::text::non_canonical_reason;
use crate::value::{Component, Field, Type, Value};

/// Appends `bytes` escaped and terminated, inverted when `invert`: the
/// body of a `binary` `str` or `bytes` component (`00` → `00 FF`, then
/// `00 01`; descending: every byte of that inverted), as
/// [`encode_component`] writes it. Public for the columnar writers
/// (`lexikey-arrow`), which write a column's strings with no
/// [`Component`] per value.
///
/// ```
/// let mut out = Vec::new();
/// lexikey::format::binary::put_escaped(b"a\x00b", false, &mut out);
/// assert_eq!(out, b"a\x00\xFFb\x00\x01");
/// ```
#[inline]
pub fn put_escaped(bytes: &[u8], invert: bool, out: &mut Vec<u8>) {
    if !invert && bytes.len() <= 16 && put_short_clean(bytes, out) {
        return;
    }
    put_escaped_any(bytes, invert, out);
}

/// [`put_escaped`] of any string, out of line (so that the short path
/// inlines into its callers).
#[inline(never)]
fn put_escaped_any(bytes: &[u8], invert: bool, out: &mut Vec<u8>) {
    let start_len = out.len();
    out.reserve(bytes.len() + 2);
    let mut start = 0;
    while let Some(z) = find_byte(bytes, start, 0) {
        out.extend_from_slice(&bytes[start..z]);
        out.extend_from_slice(&[0x00, 0xFF]);
        start = z + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.extend_from_slice(&[0x00, 0x01]);
    if invert {
        for b in &mut out[start_len..] {
            *b = !*b;
        }
    }
}

/// Appends an ascending string of at most 16 bytes with no zero byte (the
/// common case) and its terminator as one fixed-size copy of whole words,
/// cut back to length: no `memcpy` call and no loop whose length varies. `false` (nothing
/// appended): the string holds a zero byte.
#[inline(always)]
fn put_short_clean(s: &[u8], out: &mut Vec<u8>) -> bool {
    use crate::bytes::{gather_short, HIGH, ONES};
    let n = s.len();
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
    // The string's bytes in the low bytes of `lo` (and of `hi` past the
    // eighth), zeros above.
    let (lo, hi) = if n <= 8 {
        (gather_short(s), 0)
    } else {
        (word(&s[..8]), word(&s[n - 8..]) >> (8 * (16 - n)))
    };
    // The zero bytes among the low `k` bytes of `x`: exact, since a false
    // hit needs a borrow from a lower zero byte, and the bytes above `k`
    // (the zeros of the padding) lend to no byte below them.
    let zeros = |x: u64, k: usize| {
        let low = if k >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * k)) - 1
        };
        x.wrapping_sub(ONES) & !x & HIGH & low
    };
    if zeros(lo, n.min(8)) != 0 || (n > 8 && zeros(hi, n - 8) != 0) {
        return false;
    }
    // The string, its terminator's 00 (a padding zero) and 01, appended
    // as one fixed-size copy and cut back to length.
    let mut buf = [0u8; 24];
    buf[..8].copy_from_slice(&lo.to_le_bytes());
    buf[8..16].copy_from_slice(&hi.to_le_bytes());
    buf[n + 1] = 0x01;
    let end = out.len() + n + 2;
    out.extend_from_slice(&buf);
    out.truncate(end);
    true
}

/// The order bits of an 8-byte fixed-width value.
#[inline]
fn order_u64(v: &Value<'_>) -> Option<u64> {
    match *v {
        Value::I64(v) | Value::Ts(v) => Some((v as u64) ^ (1 << 63)),
        Value::U64(v) => Some(v),
        Value::F64(v) => Some(crate::value::f64_order_bits(v)),
        _ => None,
    }
}

/// Appends one component in the `binary` format.
#[inline]
pub fn encode_component(c: &Component<'_>, out: &mut Vec<u8>) {
    let desc = c.dir.is_desc();
    match &c.value {
        Value::Str(s) => put_escaped(s.as_bytes(), desc, out),
        Value::Bytes(b) => put_escaped(b, desc, out),
        Value::Dec(d) => d.write_binary(desc, out),
        v @ (Value::Vi64(_) | Value::Vu64(_)) => {
            if let Some((b, n)) = crate::format::compact::encode_value(v, desc) {
                out.extend_from_slice(&b[..n]);
            }
        }
        v => {
            if let Some(bits) = order_u64(v) {
                out.extend_from_slice(&(if desc { !bits } else { bits }).to_be_bytes());
            } else if let Some((mut buf, n)) = v.order_bytes() {
                if desc {
                    for b in &mut buf[..n] {
                        *b = !*b;
                    }
                }
                out.extend_from_slice(&buf[..n]);
            }
        }
    }
}

/// Reads an escaped, terminated run starting at `input[0]`; returns the
/// unescaped bytes (borrowed when there was no escape and no inversion)
/// and the number of input bytes used.
fn take_escaped(input: &[u8], invert: bool) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    let m = if invert { 0xFF } else { 0 };
    let zero = m; // the byte that plays "00" after inversion
    let mut owned: Option<Vec<u8>> = if invert { Some(Vec::new()) } else { None };
    let mut start = 0;
    let mut i = 0;
    loop {
        let Some(z) = find_byte(input, i, zero) else {
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "the 00 01 terminator of a string/bytes component",
            });
        };
        let Some(&next) = input.get(z + 1) else {
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "01 (terminator) or FF (escaped 00) after 00",
            });
        };
        match next ^ m {
            0xFF => {
                let o = owned.get_or_insert_with(Vec::new);
                o.extend(input[start..z].iter().map(|b| b ^ m));
                o.push(0);
                i = z + 2;
                start = i;
            }
            0x01 => {
                let value = match owned {
                    None => Cow::Borrowed(&input[..z]),
                    Some(mut o) => {
                        o.extend(input[start..z].iter().map(|b| b ^ m));
                        Cow::Owned(o)
                    }
                };
                return Ok((value, z + 2));
            }
            _ => {
                return Err(DecodeError::InvalidSymbol {
                    offset: z + 1,
                    found: next,
                    expected: if invert {
                        "FE (terminator) or 00 (escaped FF) after FF in a descending component"
                    } else {
                        "01 (terminator) or FF (escaped 00) after 00"
                    },
                })
            }
        }
    }
}

/// Maps an index into unescaped bytes back to the input offset.
fn raw_offset(input: &[u8], invert: bool, unescaped_index: usize) -> usize {
    let zero = if invert { 0xFF } else { 0 };
    let (mut raw, mut seen) = (0, 0);
    while seen < unescaped_index && raw < input.len() {
        raw += if input[raw] == zero { 2 } else { 1 };
        seen += 1;
    }
    raw
}

/// Decodes one component of type `field` from the start of `input`;
/// returns it and the number of bytes used.
#[inline]
pub fn decode_component(field: Field, input: &[u8]) -> Result<(Component<'_>, usize), DecodeError> {
    if field.nulls.is_some() | (field.list != 0) {
        return decode_nullable(field, input);
    }
    let desc = field.dir.is_desc();
    let (value, used) = match field.ty {
        Type::Bytes => {
            let (b, used) = take_escaped(input, desc)?;
            (Value::Bytes(b), used)
        }
        Type::Str => {
            let (b, used) = take_escaped(input, desc)?;
            let s = match b {
                Cow::Borrowed(b) => {
                    Cow::Borrowed(crate::bytes::utf8(b).map_err(|e| DecodeError::InvalidUtf8 {
                        offset: e.valid_up_to(),
                    })?)
                }
                Cow::Owned(o) => {
                    Cow::Owned(String::from_utf8(o).map_err(|e| DecodeError::InvalidUtf8 {
                        offset: raw_offset(input, desc, e.utf8_error().valid_up_to()),
                    })?)
                }
            };
            (Value::Str(s), used)
        }
        Type::Dec => {
            let (d, used) = crate::value::big_decimal::Dec::read_binary(input, desc)?;
            (Value::Dec(d), used)
        }
        ty @ (Type::Vi64 | Type::Vu64) => crate::format::compact::decode_value(ty, input, desc)?,
        ty => {
            let n = ty.fixed_len().unwrap_or(0);
            let Some(raw) = input.get(..n) else {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: "the rest of a fixed-width value",
                });
            };
            let v = if let Ok(raw) = <[u8; 8]>::try_from(raw) {
                let bits = u64::from_be_bytes(raw);
                crate::format::text::value_from_u64(ty, if desc { !bits } else { bits })
            } else {
                let mut buf = [0u8; 16];
                buf[..n].copy_from_slice(raw);
                if desc {
                    for b in &mut buf[..n] {
                        *b = !*b;
                    }
                }
                Value::from_order_bytes(ty, &buf[..n])
            };
            let v = v.ok_or(DecodeError::NonCanonical {
                offset: 0,
                reason: non_canonical_reason(ty),
            })?;
            (v, n)
        }
    };
    Ok((
        Component {
            value,
            dir: field.dir,
            width: None,
            nulls: None,
            list: 0,
        },
        used,
    ))
}

/// [`decode_component`] of a nullable field (the marker, then nothing
/// (a null) or the value as the field without the `?` reads it, see
/// [`crate::format::null`]) or of a list field ([`crate::format::list`]).
#[inline(never)]
fn decode_nullable(field: Field, input: &[u8]) -> Result<(Component<'_>, usize), DecodeError> {
    if field.nulls.is_none() {
        return crate::format::list::decode_binary(field, input);
    }
    crate::format::list::check_field(field)?;
    let null = crate::format::null::read_marker(crate::Format::Binary, field, input)?;
    let (mut c, used) = if null {
        (Component::asc(Value::Null(field.ty)), 0)
    } else {
        decode_component(
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
    Ok((c, used + 1))
}

/// The 8-byte `binary` key of an `i64`. No allocation.
///
/// ```
/// assert_eq!(lexikey::format::binary::encode_i64(1), [0x80, 0, 0, 0, 0, 0, 0, 1]);
/// ```
#[inline]
pub fn encode_i64(v: i64) -> [u8; 8] {
    ((v as u64) ^ (1 << 63)).to_be_bytes()
}

/// Decodes an 8-byte `binary` `i64`.
#[inline]
pub fn decode_i64(key: &[u8]) -> Result<i64, DecodeError> {
    match <[u8; 8]>::try_from(key) {
        Ok(b) => Ok((u64::from_be_bytes(b) ^ (1 << 63)) as i64),
        Err(_) if key.len() < 8 => Err(DecodeError::Truncated {
            offset: key.len(),
            expected: "8 bytes",
        }),
        Err(_) => Err(DecodeError::TrailingBytes { offset: 8 }),
    }
}

/// The 8-byte `binary` key of an `f64`.
#[inline]
pub fn encode_f64(v: f64) -> [u8; 8] {
    crate::value::f64_order_bits(v).to_be_bytes()
}

/// Decodes an 8-byte `binary` `f64`.
#[inline]
pub fn decode_f64(key: &[u8]) -> Result<f64, DecodeError> {
    match <[u8; 8]>::try_from(key) {
        Ok(b) => crate::value::f64_from_order_bits(u64::from_be_bytes(b)).ok_or(
            DecodeError::NonCanonical {
                offset: 0,
                reason: non_canonical_reason(Type::F64),
            },
        ),
        Err(_) if key.len() < 8 => Err(DecodeError::Truncated {
            offset: key.len(),
            expected: "8 bytes",
        }),
        Err(_) => Err(DecodeError::TrailingBytes { offset: 8 }),
    }
}

#[cfg(test)]
mod tests {
    /// The escaping by its definition, byte by byte.
    fn reference(s: &[u8], invert: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for &b in s {
            out.push(b);
            if b == 0 {
                out.push(0xFF);
            }
        }
        out.extend_from_slice(&[0x00, 0x01]);
        if invert {
            out.iter_mut().for_each(|b| *b = !*b);
        }
        out
    }

    #[test]
    fn put_escaped_is_its_definition_at_every_length_and_zero_position() {
        for n in 0..=20usize {
            let base: Vec<u8> = (0..n).map(|i| [0x01, 0x80, 0xFF, 0x7F][i % 4]).collect();
            let mut cases = vec![base.clone()];
            for z in 0..n {
                let mut s = base.clone();
                s[z] = 0;
                cases.push(s);
            }
            for s in cases {
                for invert in [false, true] {
                    let mut out = vec![0xAA];
                    super::put_escaped(&s, invert, &mut out);
                    assert_eq!(out[0], 0xAA);
                    assert_eq!(out[1..], reference(&s, invert)[..], "{s:?} {invert}");
                }
            }
        }
    }
}
