//! Typed fast paths for composite keys of ascending `str`, `i64` and `f64`
//! components: [`KeyWriter`] appends components, [`KeyReader`] reads them
//! back, with no [`Component`](crate::Component) or
//! [`Value`](crate::Value) in between (so no dispatch on a value enum per
//! component), no allocation when encoding into a reused buffer, and
//! borrowed strings when decoding (unless a text string holds an escape:
//! [`KeyReader::str_in`] then unescapes into a caller's reusable scratch
//! `String` instead of a new one).
//!
//! The bytes are exactly those of [`crate::tuple::encode_into`] with
//! ascending components, in every format:
//!
//! ```
//! use lexikey::format::typed::{KeyReader, KeyWriter};
//! use lexikey::{tuple, Component, Format};
//!
//! let mut key = Vec::new();
//! KeyWriter::new(Format::Hex, &mut key).str("population").i64(3831868);
//! assert_eq!(key, b"population#l80000000003A783C");
//! let same = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3831868_i64)])?;
//! assert_eq!(key, same);
//!
//! let mut r = KeyReader::new(Format::Hex, &key);
//! assert_eq!(r.str()?, "population");
//! assert_eq!(r.i64()?, 3831868);
//! r.finish()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use crate::error::{DecodeError, EncodeError};
use crate::format::text::{self, SEP};
use crate::format::{base64, binary, decimal, hex, Format};
use crate::value::Type;

/// Appends ascending components to a key, separators included.
#[derive(Debug)]
pub struct KeyWriter<'a> {
    format: Format,
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> KeyWriter<'a> {
    /// A writer appending to `out` (which is not cleared).
    #[inline]
    pub fn new(format: Format, out: &'a mut Vec<u8>) -> Self {
        KeyWriter {
            format,
            out,
            first: true,
        }
    }

    #[inline]
    fn sep(&mut self) {
        if !self.first && self.format.is_text() {
            self.out.push(SEP);
        }
        self.first = false;
    }

    /// Appends an ascending string component.
    #[inline]
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.sep();
        match self.format {
            Format::Binary => binary::put_escaped(s.as_bytes(), false, self.out),
            _ => text::escape_into(s.as_bytes(), self.out),
        }
        self
    }

    /// Appends an ascending `i64` component (full width in `decimal`).
    #[inline]
    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.sep();
        match self.format {
            Format::Hex => self.out.extend_from_slice(&hex::encode_i64(v)),
            Format::Base64 => self.out.extend_from_slice(&base64::encode_i64(v)),
            Format::Decimal => self.out.extend_from_slice(&decimal::encode_i64(v)),
            Format::Binary => self.out.extend_from_slice(&binary::encode_i64(v)),
        }
        self
    }

    /// Appends any component (any type, either direction): the general
    /// form of the typed methods, and what [`crate::tuple::encode_into`]
    /// does for each component.
    ///
    /// ```
    /// use lexikey::format::typed::KeyWriter;
    /// use lexikey::{Component, Format};
    /// let mut key = Vec::new();
    /// KeyWriter::new(Format::Hex, &mut key).str("event").push(&Component::desc(1_i64))?;
    /// assert_eq!(key, b"event#L7FFFFFFFFFFFFFFE");
    /// # Ok::<(), lexikey::EncodeError>(())
    /// ```
    ///
    /// # Errors
    /// The component's [`EncodeError`] (a float in `decimal`, a number
    /// wider than its decimal width); nothing is appended then.
    #[inline]
    pub fn push(&mut self, c: &crate::Component<'_>) -> Result<&mut Self, EncodeError> {
        let start = self.out.len();
        let first = self.first;
        self.sep();
        if let Err(e) = self.format.encode_component(c, self.out) {
            self.out.truncate(start);
            self.first = first;
            return Err(e);
        }
        Ok(self)
    }

    /// Appends an ascending `f64` component.
    ///
    /// # Errors
    /// [`EncodeError::Unsupported`] in the `decimal` format (nothing is
    /// appended then).
    #[inline]
    pub fn f64(&mut self, v: f64) -> Result<&mut Self, EncodeError> {
        if self.format == Format::Decimal {
            return Err(EncodeError::Unsupported {
                ty: Type::F64,
                format: "decimal",
                hint: ": use the hex or base64 format for floats",
            });
        }
        self.sep();
        match self.format {
            Format::Hex => self.out.extend_from_slice(&hex::encode_f64(v)),
            Format::Base64 => self.out.extend_from_slice(&base64::encode_f64(v)),
            _ => self.out.extend_from_slice(&binary::encode_f64(v)),
        }
        Ok(self)
    }
}

/// Reads ascending components from the front of a key.
///
/// Errors carry offsets into the whole key. After the last component,
/// [`KeyReader::finish`] checks that nothing is left.
#[derive(Debug, Clone)]
pub struct KeyReader<'k> {
    format: Format,
    key: &'k [u8],
    /// Where the next component starts; `None` once a text key has no
    /// further component.
    pos: Option<usize>,
    /// How many components have been read.
    index: usize,
}

impl<'k> KeyReader<'k> {
    /// A reader over `key`.
    #[inline]
    pub fn new(format: Format, key: &'k [u8]) -> Self {
        KeyReader {
            format,
            key,
            pos: Some(0),
            index: 0,
        }
    }

    /// Where the next part of a text key starts.
    #[inline]
    fn text_pos(&self) -> Result<usize, DecodeError> {
        self.pos.ok_or(DecodeError::MissingComponent {
            offset: self.key.len(),
            index: self.index,
        })
    }

    /// Moves past a text part that ends at `end` (a `#` or the key's end).
    #[inline]
    fn advance_past(&mut self, end: usize) {
        self.index += 1;
        self.pos = (end < self.key.len()).then_some(end + 1);
    }

    /// The next `#`-free part of a text key and its offset.
    #[inline]
    fn part(&mut self) -> Result<(&'k [u8], usize), DecodeError> {
        let pos = self.text_pos()?;
        let end = crate::bytes::find_byte(self.key, pos, SEP).unwrap_or(self.key.len());
        self.advance_past(end);
        Ok((&self.key[pos..end], pos))
    }

    /// Reads an ascending string component (borrowed unless a text
    /// component holds an escape).
    ///
    /// # Errors
    /// The component's [`DecodeError`], or [`DecodeError::MissingComponent`].
    #[inline]
    pub fn str(&mut self) -> Result<Cow<'k, str>, DecodeError> {
        if self.format == Format::Binary {
            let pos = self.binary_pos()?;
            let (c, used) =
                binary::decode_component(crate::Field::asc(Type::Str), &self.key[pos..])
                    .map_err(|e| e.shift(pos))?;
            self.pos = Some(pos + used);
            return match c.value {
                crate::Value::Str(s) => Ok(s),
                _ => Err(DecodeError::SchemaRequired { offset: pos }),
            };
        }
        let pos = self.text_pos()?;
        let (s, end) = text::decode_str_part(self.key, pos)?;
        self.advance_past(end);
        Ok(s)
    }

    /// Reads an ascending string component like [`KeyReader::str`], but
    /// never allocates: a string without escapes is borrowed from the key,
    /// and one with escapes is unescaped into `scratch` (cleared first), so
    /// a caller that reuses `scratch` across keys decodes every key without
    /// an allocation once `scratch` has grown to the longest string. (In
    /// the `binary` format, a string holding a `00` byte is still unescaped
    /// into a new `String`, which then replaces `scratch`.)
    ///
    /// ```
    /// use lexikey::format::typed::{KeyReader, KeyWriter};
    /// use lexikey::Format;
    /// let mut key = Vec::new();
    /// KeyWriter::new(Format::Hex, &mut key).str("san francisco").i64(7);
    /// let mut scratch = String::new();
    /// let mut r = KeyReader::new(Format::Hex, &key);
    /// assert_eq!(r.str_in(&mut scratch)?, "san francisco");
    /// assert_eq!(r.i64()?, 7);
    /// r.finish()?;
    /// # Ok::<(), lexikey::DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`KeyReader::str`].
    #[inline]
    pub fn str_in<'s>(&mut self, scratch: &'s mut String) -> Result<&'s str, DecodeError>
    where
        'k: 's,
    {
        if self.format == Format::Binary {
            return Ok(match self.str()? {
                Cow::Borrowed(s) => s,
                Cow::Owned(o) => {
                    *scratch = o;
                    scratch
                }
            });
        }
        let pos = self.text_pos()?;
        let (first, end) = text::str_part(self.key, pos);
        let part = &self.key[pos..end];
        let s = crate::bytes::utf8(part).map_err(|e| DecodeError::InvalidUtf8 {
            offset: pos + e.valid_up_to(),
        })?;
        self.advance_past(end);
        if first == end {
            return Ok(s);
        }
        scratch.clear();
        match text::unescape_str_into(s, first - pos, scratch) {
            Ok(()) => Ok(scratch),
            Err(()) => Err(text::unescape_error(part).shift(pos)),
        }
    }

    /// Reads an ascending `i64` component (full width in `decimal`).
    ///
    /// # Errors
    /// The component's [`DecodeError`], or [`DecodeError::MissingComponent`].
    #[inline(always)]
    pub fn i64(&mut self) -> Result<i64, DecodeError> {
        let (part, pos) = self.fixed(8)?;
        match self.format {
            Format::Hex => hex::decode_i64(part),
            Format::Base64 => base64::decode_i64(part),
            Format::Decimal => decimal::decode_i64(part),
            Format::Binary => binary::decode_i64(part),
        }
        .map_err(|e| e.shift(pos))
    }

    /// Reads an ascending `f64` component.
    ///
    /// # Errors
    /// The component's [`DecodeError`], [`DecodeError::MissingComponent`],
    /// or [`DecodeError::UnexpectedTag`] in the `decimal` format, which
    /// holds no floats.
    #[inline]
    pub fn f64(&mut self) -> Result<f64, DecodeError> {
        let (part, pos) = self.fixed(8)?;
        match self.format {
            Format::Hex => hex::decode_f64(part),
            Format::Base64 => base64::decode_f64(part),
            Format::Binary => binary::decode_f64(part),
            Format::Decimal => Err(DecodeError::UnexpectedTag {
                offset: 0,
                found: part.first().copied().unwrap_or(0),
                expected: "no float: the decimal format does not hold floats",
            }),
        }
        .map_err(|e| e.shift(pos))
    }

    /// The next fixed-width component: a text part, or `n` binary bytes.
    #[inline(always)]
    fn fixed(&mut self, n: usize) -> Result<(&'k [u8], usize), DecodeError> {
        if self.format != Format::Binary {
            // Text: the key of an `i64`/`f64` has a fixed width, so the
            // separator, if any, is right after it.
            let w = match self.format {
                Format::Hex => 17,
                Format::Base64 => 12,
                _ => 20,
            };
            if let Some(pos) = self.pos {
                let rest = &self.key[pos..];
                if rest.len() == w || rest.get(w) == Some(&SEP) {
                    self.advance_past(pos + w);
                    return Ok((&rest[..w], pos));
                }
            }
            return self.part();
        }
        let pos = self.binary_pos()?;
        let end = (pos + n).min(self.key.len());
        self.pos = Some(end);
        Ok((&self.key[pos..end], pos))
    }

    #[inline]
    fn binary_pos(&mut self) -> Result<usize, DecodeError> {
        match self.pos {
            Some(p) if p < self.key.len() || self.index == 0 => {
                self.index += 1;
                Ok(p)
            }
            _ => Err(DecodeError::MissingComponent {
                offset: self.key.len(),
                index: self.index,
            }),
        }
    }

    /// Checks that every component has been read.
    ///
    /// # Errors
    /// [`DecodeError::TrailingBytes`] at the first unread byte.
    #[inline]
    pub fn finish(self) -> Result<(), DecodeError> {
        match self.pos {
            Some(p) if p < self.key.len() || (self.format.is_text() && p > 0) => {
                // In text keys a separator was consumed: a component follows.
                Err(DecodeError::TrailingBytes {
                    offset: p.saturating_sub(usize::from(self.format.is_text())),
                })
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuple;
    use crate::{Component, Field};

    const STRS: [&str; 7] = [
        "",
        "a",
        "san francisco",
        "a#b$c%d",
        "\0\x01\u{7f}",
        "Zürich",
        "x",
    ];
    const I64S: [i64; 6] = [i64::MIN, -1, 0, 1, 3_831_868, i64::MAX];
    const F64S: [f64; 6] = [f64::NEG_INFINITY, -0.0, 0.0, 5e-324, 1.5, f64::NAN];

    #[test]
    fn writer_matches_tuple_encode_and_reader_reads_it_back() {
        for format in Format::ALL {
            for s in STRS {
                for i in I64S {
                    let mut key = Vec::new();
                    KeyWriter::new(format, &mut key).str(s).str(s).i64(i);
                    let c = [Component::asc(s), Component::asc(s), Component::asc(i)];
                    assert_eq!(
                        key,
                        tuple::encode(format, &c).unwrap(),
                        "{format} {s:?} {i}"
                    );
                    let (mut s1, mut s2) = (String::new(), String::new());
                    let mut r = KeyReader::new(format, &key);
                    assert_eq!(r.str_in(&mut s1).unwrap(), s);
                    assert_eq!(r.str_in(&mut s2).unwrap(), s);
                    assert_eq!(r.i64().unwrap(), i);
                    r.finish().unwrap();
                    let mut r = KeyReader::new(format, &key);
                    assert_eq!(r.str().unwrap(), s);
                    assert_eq!(r.str().unwrap(), s);
                    assert_eq!(r.i64().unwrap(), i);
                    r.clone().finish().unwrap();
                    // One component too many.
                    assert!(r.i64().is_err(), "{format} {s:?}");
                    // One too few.
                    let mut r = KeyReader::new(format, &key);
                    r.str().unwrap();
                    r.str().unwrap();
                    assert!(r.finish().is_err(), "{format} {s:?} {i}");
                }
                if format == Format::Decimal {
                    continue;
                }
                for f in F64S {
                    let mut key = Vec::new();
                    KeyWriter::new(format, &mut key)
                        .i64(-1)
                        .f64(f)
                        .unwrap()
                        .str(s);
                    let c = [Component::asc(-1_i64), Component::asc(f), Component::asc(s)];
                    assert_eq!(key, tuple::encode(format, &c).unwrap(), "{format} {f}");
                    let mut r = KeyReader::new(format, &key);
                    assert_eq!(r.i64().unwrap(), -1);
                    let back = r.f64().unwrap();
                    assert!(back.to_bits() == f.to_bits() || (back.is_nan() && f.is_nan()));
                    assert_eq!(r.str().unwrap(), s);
                    r.finish().unwrap();
                }
            }
        }
    }

    #[test]
    fn reader_agrees_with_tuple_decode_on_mutated_keys() {
        let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
        for format in Format::ALL {
            for s in STRS {
                let mut key = Vec::new();
                KeyWriter::new(format, &mut key).str(s).i64(42);
                for i in 0..=key.len() {
                    for b in [0u8, b'#', b'%', b'0', b'l', 0xFF] {
                        let mut k = key.clone();
                        if i < k.len() {
                            k[i] = b;
                        } else {
                            k.push(b);
                        }
                        let general = tuple::decode(format, &k, Some(&schema));
                        let mut r = KeyReader::new(format, &k);
                        let typed = (|| {
                            let s = r.str()?;
                            let i = r.i64()?;
                            r.clone().finish()?;
                            Ok::<_, DecodeError>((s, i))
                        })();
                        match (&general, &typed) {
                            (Ok(g), Ok((s, i))) => {
                                assert_eq!(g[0].value, crate::Value::Str(s.clone()));
                                assert_eq!(g[1].value, crate::Value::I64(*i));
                            }
                            (Err(_), Err(_)) => {}
                            _ => panic!("{format} {k:?}: general {general:?}, typed {typed:?}"),
                        }
                        // `str_in` reads exactly what `str` reads, errors included.
                        let mut scratch = String::from("stale");
                        let mut a = KeyReader::new(format, &k);
                        let mut b = KeyReader::new(format, &k);
                        let x = a.str().map(|s| s.into_owned());
                        let y = b.str_in(&mut scratch).map(str::to_owned);
                        assert_eq!(x, y, "{format} {k:?}");
                        if x.is_ok() {
                            assert_eq!(a.i64(), b.i64(), "{format} {k:?}");
                            assert_eq!(a.finish(), b.finish(), "{format} {k:?}");
                        }
                    }
                }
            }
        }
    }
}
