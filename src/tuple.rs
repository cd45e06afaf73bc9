//! Composite keys: tuples of components in one key.
//!
//! **Text formats** join components with `#`; strings are escaped so that no
//! component contains `#` or `$`, and every byte a component can hold sorts
//! above both (see [`crate::text`]). Hence tuple order is byte order, and the
//! keys of every tuple that extends a prefix `P` are exactly the range
//! `[enc(P) + "#", enc(P) + "$")`:
//!
//! ```
//! use lexikey::{tuple, Component, Format};
//! let key = tuple::encode(Format::Hex, &[
//!     Component::asc("usa"), Component::asc("california"), Component::asc("san francisco"),
//! ])?;
//! assert_eq!(key, b"usa#california#san%20francisco");
//! let key = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3831868_i64)])?;
//! assert_eq!(key, b"population#l80000000003A783C");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```
//!
//! **Binary** concatenates components: each one is prefix-free (fixed width,
//! or terminated by `00 01`), so no separator is needed, and the keys that
//! extend `P` are `[enc(P) + 00, prefix_end(enc(P)))` (the key of `P`
//! itself is excluded, as in FoundationDB's `Subspace::range`).

use crate::error::{DecodeError, EncodeError};
use crate::format::{base64, hex, Format};
use crate::text::{SEP, SEP_END};
use crate::value::{Component, Field};

/// HBase's largest row key, in bytes (`Short.MAX_VALUE`): the default limit
/// of the `lexikey` command.
pub const HBASE_MAX_KEY_LEN: usize = 32_767;
/// Cassandra's largest key (partition or clustering component), in bytes
/// (an unsigned 16-bit length).
pub const CASSANDRA_MAX_KEY_LEN: usize = 65_535;

/// Checks a key against a store's length limit, so an over-long key is
/// refused before it reaches the store (where it would fail mid-batch, or be
/// rejected only by some regions).
///
/// # Errors
/// [`EncodeError::KeyTooLong`] when `key.len() > max`.
///
/// ```
/// use lexikey::tuple::{check_len, HBASE_MAX_KEY_LEN};
/// assert!(check_len(&[b'a'; 32_767], HBASE_MAX_KEY_LEN).is_ok());
/// assert!(check_len(&[b'a'; 32_768], HBASE_MAX_KEY_LEN).is_err());
/// ```
#[inline]
pub fn check_len(key: &[u8], max: usize) -> Result<(), EncodeError> {
    if key.len() > max {
        return Err(EncodeError::KeyTooLong {
            len: key.len(),
            max,
        });
    }
    Ok(())
}

/// Encodes a tuple into a new key.
///
/// # Errors
/// The first component's [`EncodeError`], if any.
pub fn encode(format: Format, components: &[Component<'_>]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(16 * components.len());
    encode_into(format, components, &mut out)?;
    Ok(out)
}

/// Appends the key of a tuple to `out` (which is not cleared). On error,
/// `out` is truncated back to its length on entry.
#[inline]
pub fn encode_into(
    format: Format,
    components: &[Component<'_>],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let start = out.len();
    for (i, c) in components.iter().enumerate() {
        if i > 0 && format.is_text() {
            out.push(SEP);
        }
        if let Err(e) = format.encode_component(c, out) {
            out.truncate(start);
            return Err(e);
        }
    }
    Ok(())
}

/// The half-open range `[start, end)` holding the keys of every tuple that
/// extends `prefix` by one or more components. `end` is `None` when the
/// range is unbounded above (a binary prefix of only `FF` bytes, or an empty
/// binary prefix).
///
/// ```
/// use lexikey::{tuple, Component, Format};
/// let (start, end) = tuple::prefix_range(Format::Hex, &[Component::asc("usa")])?;
/// assert_eq!(start, b"usa#");
/// assert_eq!(end.as_deref(), Some(&b"usa$"[..]));
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
pub fn prefix_range(
    format: Format,
    prefix: &[Component<'_>],
) -> Result<(Vec<u8>, Option<Vec<u8>>), EncodeError> {
    let mut start = encode(format, prefix)?;
    let end = extension_end(format, &start, prefix.is_empty());
    if !prefix.is_empty() {
        // Text: the separator; binary: just above the key of P itself,
        // which is not an extension of P.
        start.push(if format.is_text() { SEP } else { 0 });
    }
    Ok((start, end))
}

/// The exclusive end of the keys that extend a prefix whose key is `enc`
/// (`empty`: the prefix has no component); `None` = unbounded.
pub(crate) fn extension_end(format: Format, enc: &[u8], empty: bool) -> Option<Vec<u8>> {
    if format.is_text() {
        (!empty).then(|| {
            let mut e = Vec::with_capacity(enc.len() + 1);
            e.extend_from_slice(enc);
            e.push(SEP_END);
            e
        })
    } else {
        crate::range::prefix_end(enc)
    }
}

/// Decodes a key into its components.
///
/// With a schema, the key must hold exactly one component per field, each
/// canonical. Without one (`None`), only the tagged text formats (`hex`,
/// `base64`) can decode: each `#`-separated part that is a valid tagged value
/// is read as that value, any other part as an ascending string — pass a
/// schema to read descending strings or to have a malformed tagged part
/// reported as an error.
///
/// # Errors
/// A [`DecodeError`] whose offset indexes `key`:
/// [`DecodeError::MissingComponent`] / [`DecodeError::TrailingBytes`] when the
/// component count differs from the schema, [`DecodeError::SchemaRequired`]
/// for `decimal` and `binary` keys without a schema, and each component's own
/// errors.
///
/// ```
/// use lexikey::{tuple, Field, Format, Type, Value};
/// let parts = tuple::decode(Format::Hex, b"population#l80000000003A783C", None)?;
/// assert_eq!(parts[0].value, Value::from("population"));
/// assert_eq!(parts[1].value, Value::I64(3831868));
/// let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
/// assert!(tuple::decode(Format::Hex, b"population#l80000000003a783c", Some(&schema)).is_err());
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
pub fn decode<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
) -> Result<Vec<Component<'k>>, DecodeError> {
    let mut out = Vec::with_capacity(schema.map_or(4, <[Field]>::len));
    decode_into(format, key, schema, &mut out)?;
    Ok(out)
}

/// Like [`decode`], appending to `out` (so a caller can reuse the vector).
pub fn decode_into<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
    out: &mut Vec<Component<'k>>,
) -> Result<(), DecodeError> {
    if format == Format::Binary {
        let schema = schema.ok_or(DecodeError::SchemaRequired { offset: 0 })?;
        let mut pos = 0;
        for (index, &field) in schema.iter().enumerate() {
            if pos == key.len() && index > 0 {
                return Err(DecodeError::MissingComponent { offset: pos, index });
            }
            let (c, used) = crate::format::binary::decode_component(field, &key[pos..])
                .map_err(|e| e.shift(pos))?;
            out.push(c);
            pos += used;
        }
        if pos != key.len() {
            return Err(DecodeError::TrailingBytes { offset: pos });
        }
        return Ok(());
    }
    let mut pos: usize = 0;
    let mut index = 0;
    for part in key.split(|&b| b == SEP) {
        let c = match schema {
            Some(s) => {
                let Some(&field) = s.get(index) else {
                    return Err(DecodeError::TrailingBytes {
                        offset: pos.saturating_sub(1),
                    });
                };
                format.decode_component(field, part)
            }
            None => match format {
                Format::Hex => hex::guess_component(part),
                Format::Base64 => base64::guess_component(part),
                _ => Err(DecodeError::SchemaRequired { offset: 0 }),
            },
        }
        .map_err(|e| e.shift(pos))?;
        out.push(c);
        pos += part.len() + 1;
        index += 1;
    }
    if let Some(s) = schema {
        if index < s.len() {
            return Err(DecodeError::MissingComponent {
                offset: key.len(),
                index,
            });
        }
    }
    Ok(())
}

/// An appending key builder that reuses its buffer.
///
/// ```
/// use lexikey::{tuple::KeyBuilder, Component, Format};
/// let mut kb = KeyBuilder::new(Format::Hex);
/// kb.push(&Component::asc("population"))?.push(&Component::asc(3831868_i64))?;
/// assert_eq!(kb.as_bytes(), b"population#l80000000003A783C");
/// kb.clear();
/// kb.push(&Component::desc(1_i64))?;
/// assert_eq!(kb.as_bytes(), b"L7FFFFFFFFFFFFFFE");
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyBuilder {
    format: Format,
    buf: Vec<u8>,
    count: usize,
}

impl KeyBuilder {
    /// An empty builder for `format`.
    pub fn new(format: Format) -> Self {
        KeyBuilder {
            format,
            buf: Vec::new(),
            count: 0,
        }
    }

    /// Appends a component.
    ///
    /// # Errors
    /// The component's [`EncodeError`]; the key is left unchanged.
    pub fn push(&mut self, c: &Component<'_>) -> Result<&mut Self, EncodeError> {
        let start = self.buf.len();
        if self.count > 0 && self.format.is_text() {
            self.buf.push(SEP);
        }
        if let Err(e) = self.format.encode_component(c, &mut self.buf) {
            self.buf.truncate(start);
            return Err(e);
        }
        self.count += 1;
        Ok(self)
    }

    /// The key so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Empties the key, keeping the allocation.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.count = 0;
    }

    /// Takes the key.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}
