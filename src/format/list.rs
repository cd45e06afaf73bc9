//! List components (`list<TYPE>`): a whole list as one component.
//!
//! A field `list<T>` ([`Field::list`] = 1) holds a [`Value::List`] whose
//! elements are all of type `T`; `list<list<T>>` (depth 2) holds lists of
//! such lists, and so on to [`MAX_LIST_DEPTH`] levels. Lists order
//! elementwise, a list before its extensions (`[1] < [1, 0]`), the empty
//! list first; `.desc` reverses the order of the whole list and `?` /
//! `.nulls_last` make the whole list nullable (the marker of
//! [`crate::format::null`] comes first). Elements are not nullable
//! (`list<i64?>` is a parse error) and take the list's element type only
//! (a homogeneous list, as CockroachDB's arrays and Accumulo's list
//! lexicoders). In the `decimal` format the elements take their type's
//! full width (a width applies to scalar components only). Components of
//! fields that are not lists have exactly the bytes they had before lists
//! existed.
//!
//! | format | ascending list | descending list |
//! |---|---|---|
//! | `binary` | each element: `01` then its ascending `binary` bytes; then `00` | the bitwise NOT of the ascending bytes |
//! | `hex`, `base64` | `a`, each element: `:` then its ascending text (a `str` or `bytes` element ends with `!`); then `.` | `A`, the format's body of the NOT of the ascending text after the tag, then `~` |
//! | `decimal` | as `hex`, without the `a` | as `hex` (body in hex), without the `A` |
//!
//! So `list<i64>` of `[1, 2]` is `a:l8000000000000001:l8000000000000002.`
//! in `hex`, `list<str>` of `["a", "b c"]` is `a:a!:b%20c!.`, the empty
//! list is `a.`, and in `binary` `[1]` is `01 80 00 00 00 00 00 00 01 00`.
//! An element's text is exactly the text of that value as a component of
//! its own (its tag included), and an element that is itself a list is
//! that list's ascending encoding (its `a` included in `hex`/`base64`).
//!
//! **Why the order holds.** Every element encoding is prefix-free: fixed
//! width, self-delimiting (`dec`, `vi64`, `vu64`: their bodies say where
//! they end), or ended by `!` (0x21: `str` and `bytes`, whose texts never
//! hold a `!`: strings escape every byte up to `%`, and hex/base64 bodies
//! use digits and letters). So two lists with equal elements up to some
//! point have equal bytes up to there, and then differ either inside
//! their first unequal elements, which order as those elements (ascending
//! element encodings keep the order; the `!` sorts below every byte of a
//! string or body, so a string before its extensions), or where one list
//! ends and the other goes on: the end marker is below the element marker
//! (`00` < `01`, `.` < `:`), so the shorter list is first. The list
//! encoding is prefix-free in turn, so it nests (a list of lists) and
//! whatever follows it in a tuple is compared only when the lists are
//! equal. A prefix-free encoding's NOT reverses its order, and a body
//! codec keeps the order and prefix-freedom of the bytes it writes (see
//! [`crate::format::compact`]), so descending lists reverse the order;
//! the `~` closes them as it does descending strings.
//!
//! **Text keys.** A list is one `#`-separated part that holds neither `#`
//! nor `$` (tuple splitting and prefix ranges work as before), printable
//! and shell-safe: the markers `:` `.` `!` and the tag letter `a`/`A`. The
//! list tag is not among the tags schemaless decoding guesses
//! ([`crate::Type::from_tag`]), so every string key decodes as before;
//! lists need a schema.
//!
//! **Decoding** is canonical: the tag, the markers, the `!` and the `~`
//! must be exactly where they belong, every element must be its type's
//! canonical encoding, and nothing may follow the list in its part, so
//! `encode(decode(k)) == k`. A truncated or unterminated list, a byte that
//! is neither marker, a bad element and a field nested deeper than
//! [`MAX_LIST_DEPTH`] are errors at the offending byte's offset.
//!
//! ```
//! use lexikey::{tuple, Component, Field, Format, Type, Value};
//! let field = Field::parse("list<i64>")?;
//! let list = Value::list(Type::I64, vec![Value::I64(1), Value::I64(2)]);
//! let key = tuple::encode(Format::Hex, &[Component::of(field, list.clone())])?;
//! assert_eq!(key, b"a:l8000000000000001:l8000000000000002.");
//! let back = tuple::decode(Format::Hex, &key, Some(&[field]))?;
//! assert_eq!(back[0].value, list);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use crate::error::{DecodeError, EncodeError};
use crate::format::text::{self, Body};
use crate::format::{base64, hex_digits::Hex, Format};
use crate::value::{Component, Dir, Field, Type, Value, MAX_LIST_DEPTH};

/// The `binary` marker before each element.
pub const BIN_ELEM: u8 = 0x01;
/// The `binary` marker that ends a list.
pub const BIN_END: u8 = 0x00;
/// The text marker before each element (`hex`, `base64`, `decimal`).
pub const TEXT_ELEM: u8 = b':';
/// The text marker that ends a list.
pub const TEXT_END: u8 = b'.';
/// The text byte that ends a `str` or `bytes` element.
pub const TEXT_STR_END: u8 = b'!';
/// The tag of an ascending list in `hex` and `base64` (`A` descending).
pub const TAG: u8 = b'a';

/// Whether elements of `ty` end with [`TEXT_STR_END`] in the text formats.
fn terminated(ty: Type) -> bool {
    matches!(ty, Type::Str | Type::Bytes)
}

/// The error of a list component whose value does not fit its field.
fn bad(detail: String) -> EncodeError {
    EncodeError::BadList { detail }
}

/// Checks that `items` are the elements of a list of depth `depth` (≥ 1)
/// over scalar type `ty`.
fn check(ty: Type, depth: u8, items: &[Value<'_>]) -> Result<(), EncodeError> {
    for (i, v) in items.iter().enumerate() {
        match v {
            Value::List(t, inner) if depth > 1 && *t == ty => check(ty, depth - 1, inner)?,
            Value::Null(_) => {
                return Err(bad(format!(
                    "element {i} is a null: list elements are not nullable"
                )))
            }
            v if depth == 1 && !matches!(v, Value::List(..)) && v.ty() == ty => {}
            v => {
                let what = match v {
                    Value::List(t, _) => format!("a list of {t}"),
                    v => format!("a {}", v.ty()),
                };
                let want = Field::asc(ty).list_of(depth - 1);
                return Err(bad(format!("element {i} is {what}, not a {want}")));
            }
        }
    }
    Ok(())
}

/// A view of a scalar value borrowing its strings and bytes (a `dec` is
/// copied: its digits are inline up to 8), so that an element is encoded
/// by the component codecs without copying the list.
fn reborrow<'b>(v: &'b Value<'_>) -> Value<'b> {
    match v {
        Value::Str(s) => Value::Str(Cow::Borrowed(s)),
        Value::Bytes(b) => Value::Bytes(Cow::Borrowed(b)),
        Value::Dec(d) => Value::Dec(d.clone()),
        Value::Bool(x) => Value::Bool(*x),
        Value::F64(x) => Value::F64(*x),
        Value::F32(x) => Value::F32(*x),
        Value::Uuid(x) => Value::Uuid(*x),
        Value::I32(x) => Value::I32(*x),
        Value::Vi64(x) => Value::Vi64(*x),
        Value::I64(x) => Value::I64(*x),
        Value::Ts(x) => Value::Ts(*x),
        Value::U64(x) => Value::U64(*x),
        Value::Vu64(x) => Value::Vu64(*x),
        Value::U32(x) => Value::U32(*x),
        Value::Null(t) => Value::Null(*t),
        Value::List(t, items) => Value::List(*t, items.iter().map(reborrow).collect()),
    }
}

/// Appends the list component `c` (`c.list` ≥ 1, or a [`Value::List`] in
/// a scalar component, which is refused) in `format`, no null marker.
pub(crate) fn encode(
    format: Format,
    c: &Component<'_>,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let depth = c.list;
    let items = match &c.value {
        Value::List(ty, items) if depth > 0 => {
            if depth > MAX_LIST_DEPTH {
                return Err(bad(format!(
                    "lists nest at most {MAX_LIST_DEPTH} levels, this component {depth}"
                )));
            }
            check(*ty, depth, items)?;
            items
        }
        Value::Null(ty) => return Err(EncodeError::NotNullable { ty: *ty }),
        Value::List(ty, _) => {
            return Err(bad(format!(
                "a list of {ty} in a component that is not a list (its field is list<{ty}>)"
            )))
        }
        v => {
            return Err(bad(format!(
                "a {} value in a list component: a list<…> component holds a list",
                v.ty()
            )))
        }
    };
    let start = out.len();
    let r = match format {
        Format::Binary => {
            write_binary(items, out);
            if c.dir.is_desc() {
                out[start..].iter_mut().for_each(|b| *b = !*b);
            }
            Ok(())
        }
        Format::Hex | Format::Base64 | Format::Decimal if !c.dir.is_desc() => {
            if format != Format::Decimal {
                out.push(TAG);
            }
            write_text(format, items, out)
        }
        _ => {
            let mut asc = Vec::new();
            write_text(format, items, &mut asc).map(|()| match format {
                Format::Base64 => {
                    out.push(TAG.to_ascii_uppercase());
                    base64::B64::encode_var(&asc, true, out);
                    out.push(text::DESC_END);
                }
                Format::Hex => {
                    out.push(TAG.to_ascii_uppercase());
                    Hex::encode_var(&asc, true, out);
                    out.push(text::DESC_END);
                }
                _ => {
                    Hex::encode_var(&asc, true, out);
                    out.push(text::DESC_END);
                }
            })
        }
    };
    r.inspect_err(|_| out.truncate(start))
}

/// The ascending `binary` bytes of a checked list's elements.
fn write_binary(items: &[Value<'_>], out: &mut Vec<u8>) {
    for v in items {
        out.push(BIN_ELEM);
        match v {
            Value::List(_, inner) => write_binary(inner, out),
            v => crate::format::binary::encode_component(&Component::asc(reborrow(v)), out),
        }
    }
    out.push(BIN_END);
}

/// The ascending text of a checked list's elements, without its tag.
fn write_text(format: Format, items: &[Value<'_>], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    for v in items {
        out.push(TEXT_ELEM);
        match v {
            Value::List(_, inner) => {
                if format != Format::Decimal {
                    out.push(TAG);
                }
                write_text(format, inner, out)?;
            }
            v => {
                format.encode_component(&Component::asc(reborrow(v)), out)?;
                if terminated(v.ty()) {
                    out.push(TEXT_STR_END);
                }
            }
        }
    }
    out.push(TEXT_END);
    Ok(())
}

/// Refuses a field nested deeper than [`MAX_LIST_DEPTH`] before anything
/// is read (a null marker included): no key is one of its.
pub(crate) fn check_field(field: Field) -> Result<(), DecodeError> {
    if field.list > MAX_LIST_DEPTH {
        return Err(too_deep(field));
    }
    Ok(())
}

/// Refuses a component nested deeper than [`MAX_LIST_DEPTH`] (its null
/// included).
pub(crate) fn check_component(c: &Component<'_>) -> Result<(), EncodeError> {
    if c.list > MAX_LIST_DEPTH {
        return Err(bad(format!(
            "lists nest at most {MAX_LIST_DEPTH} levels, this component {}",
            c.list
        )));
    }
    Ok(())
}

/// The error of a field nested deeper than the limit.
fn too_deep(field: Field) -> DecodeError {
    DecodeError::NonCanonical {
        offset: 0,
        reason: if field.list > MAX_LIST_DEPTH {
            "a list field nests at most 8 levels (MAX_LIST_DEPTH)"
        } else {
            "not a list field"
        },
    }
}

/// Decodes a list component of `field` (`field.list` ≥ 1, no null
/// marker) from the start of a `binary` key; returns it and the bytes
/// used. Errors index `input`.
pub(crate) fn decode_binary(
    field: Field,
    input: &[u8],
) -> Result<(Component<'_>, usize), DecodeError> {
    if field.list == 0 || field.list > MAX_LIST_DEPTH {
        return Err(too_deep(field));
    }
    let (value, used) = read_binary(field.ty, field.list, field.dir, input, 0)?;
    Ok((
        Component {
            value,
            dir: field.dir,
            width: None,
            nulls: None,
            list: field.list,
        },
        used,
    ))
}

/// Reads a list of `depth` over `ty` whose bytes start at `input[pos]`
/// (NOT-ed when `dir` is descending); returns it and where it ends.
fn read_binary(
    ty: Type,
    depth: u8,
    dir: Dir,
    input: &[u8],
    mut pos: usize,
) -> Result<(Value<'_>, usize), DecodeError> {
    let mask = if dir.is_desc() { 0xFF } else { 0 };
    let mut items = Vec::new();
    loop {
        match input.get(pos).map(|b| b ^ mask) {
            Some(BIN_END) => return Ok((Value::List(ty, items.into()), pos + 1)),
            Some(BIN_ELEM) if depth > 1 => {
                let (v, end) = read_binary(ty, depth - 1, dir, input, pos + 1)?;
                items.push(v);
                pos = end;
            }
            Some(BIN_ELEM) => {
                let field = Field {
                    dir,
                    ..Field::asc(ty)
                };
                let (c, used) = crate::format::binary::decode_component(field, &input[pos + 1..])
                    .map_err(|e| e.shift(pos + 1))?;
                items.push(c.value);
                pos += 1 + used;
            }
            None => {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: if dir.is_desc() {
                        "FE (a list element) or FF (the end of a descending list)"
                    } else {
                        "01 (a list element) or 00 (the end of the list)"
                    },
                })
            }
            Some(_) => {
                return Err(DecodeError::InvalidSymbol {
                    offset: pos,
                    found: input[pos],
                    expected: if dir.is_desc() {
                        "FE (a list element) or FF (the end of a descending list)"
                    } else {
                        "01 (a list element) or 00 (the end of the list)"
                    },
                })
            }
        }
    }
}

/// Decodes a whole text part holding a list component of `field`
/// (`field.list` ≥ 1, no null marker). Errors index `input`.
pub(crate) fn decode_text(
    format: Format,
    field: Field,
    input: &[u8],
) -> Result<Component<'_>, DecodeError> {
    if field.list == 0 || field.list > MAX_LIST_DEPTH {
        return Err(too_deep(field));
    }
    let tagged = format != Format::Decimal;
    let desc = field.dir.is_desc();
    let start = if tagged {
        let want = if desc { TAG.to_ascii_uppercase() } else { TAG };
        match input.first() {
            Some(&t) if t == want => 1,
            Some(&t) => {
                return Err(DecodeError::UnexpectedTag {
                    offset: 0,
                    found: t,
                    expected: if desc {
                        "'A' (list.desc)"
                    } else {
                        "'a' (list)"
                    },
                })
            }
            None => {
                return Err(DecodeError::Truncated {
                    offset: 0,
                    expected: "a type tag",
                })
            }
        }
    } else {
        0
    };
    let value = if desc {
        let body = text::strip_desc_end(&input[start..]).map_err(|e| e.shift(start))?;
        let mut asc = Vec::with_capacity(body.len());
        let decoded = match format {
            Format::Base64 => base64::B64::decode_var(body, true, &mut asc),
            _ => Hex::decode_var(body, true, &mut asc),
        };
        decoded.map_err(|e| e.shift(start))?;
        // Offsets in the decoded text map to the body character holding
        // their first bit.
        let at = |i: usize| {
            start
                + match format {
                    Format::Base64 => base64::B64::encoded_len(i),
                    _ => Hex::encoded_len(i),
                }
                .min(body.len().saturating_sub(1))
        };
        let (v, end) = read_text(format, field.ty, field.list, &asc, 0).map_err(|e| {
            let o = at(e.offset());
            e.with_offset(o)
        })?;
        if end != asc.len() {
            return Err(DecodeError::TrailingBytes { offset: at(end) });
        }
        v.into_owned()
    } else {
        let (v, end) = read_text(format, field.ty, field.list, input, start)?;
        if end != input.len() {
            return Err(DecodeError::TrailingBytes { offset: end });
        }
        v
    };
    Ok(Component {
        value,
        dir: field.dir,
        width: None,
        nulls: None,
        list: field.list,
    })
}

/// What may stand where a list element or the list's end is expected.
const MARKERS: &str = "':' (a list element) or '.' (the end of the list)";

/// Reads the ascending text of a list of `depth` over `ty` whose first
/// marker is at `input[pos]` (after the tag); returns it and where it
/// ends.
fn read_text(
    format: Format,
    ty: Type,
    depth: u8,
    input: &[u8],
    mut pos: usize,
) -> Result<(Value<'_>, usize), DecodeError> {
    let mut items = Vec::new();
    loop {
        match input.get(pos) {
            Some(&TEXT_END) => return Ok((Value::List(ty, items.into()), pos + 1)),
            Some(&TEXT_ELEM) => pos += 1,
            Some(&b) => {
                return Err(DecodeError::InvalidSymbol {
                    offset: pos,
                    found: b,
                    expected: MARKERS,
                })
            }
            None => {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: MARKERS,
                })
            }
        }
        if depth > 1 {
            if format != Format::Decimal {
                match input.get(pos) {
                    Some(&TAG) => pos += 1,
                    Some(&t) => {
                        return Err(DecodeError::UnexpectedTag {
                            offset: pos,
                            found: t,
                            expected: "'a' (a list element of a list)",
                        })
                    }
                    None => {
                        return Err(DecodeError::Truncated {
                            offset: input.len(),
                            expected: "'a' (a list element of a list)",
                        })
                    }
                }
            }
            let (v, end) = read_text(format, ty, depth - 1, input, pos)?;
            items.push(v);
            pos = end;
            continue;
        }
        let (end, next) = if terminated(ty) {
            match crate::bytes::find_byte(input, pos, TEXT_STR_END) {
                Some(z) => (z, z + 1),
                None => {
                    return Err(DecodeError::Truncated {
                        offset: input.len(),
                        expected: "'!' ending a str or bytes list element",
                    })
                }
            }
        } else {
            let z = input[pos..]
                .iter()
                .position(|&b| matches!(b, TEXT_ELEM | TEXT_END | TEXT_STR_END))
                .map_or(input.len(), |i| pos + i);
            (z, z)
        };
        let c = format
            .decode_component(Field::asc(ty), &input[pos..end])
            .map_err(|e| e.shift(pos))?;
        items.push(c.value);
        pos = next;
    }
}
