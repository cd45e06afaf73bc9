//! [`DecodeArena`]: tuple decoding that allocates nothing per key, escaped
//! strings included.

use std::borrow::Cow;

use super::{decode_binary, decode_text_direct, decode_text_general, guess_into, Parts};
use crate::error::DecodeError;
use crate::format::{text, Format};
use crate::value::{Component, Field, Value};

/// A caller-kept buffer for decoding key after key with no allocation:
/// [`DecodeArena::decode`] hands each component of a key to a callback as
/// a borrowed view — a string that holds no escape borrowed from the key,
/// one that does (`san%20francisco`) unescaped into the arena's buffer.
///
/// With [`decode_into`](super::decode_into), every string that holds an
/// escape becomes a new `String`, freed when the vector is cleared for
/// the next key, and every component is moved into the vector and dropped
/// from it. Here no component is stored: once the buffer has grown to the
/// longest escaped string seen, decoding a text key with a schema, a
/// hex/base64 key without one, or a binary key whose strings hold no
/// `00` byte allocates nothing. Components that the component codecs
/// return owned (a descending string, `bytes` in a text format, `dec`)
/// are owned, as with `decode_into`.
///
/// The components, in order, and the result (the error and its byte
/// offset) are those of [`decode_into`](super::decode_into) into an empty
/// vector. On error, the callback may have seen the components before the
/// bad one (as `decode_into` leaves them in its vector): a caller that
/// must return nothing partial drops what it built.
///
/// ```
/// use lexikey::{tuple, Field, Format, Type, Value};
/// let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
/// let mut arena = tuple::DecodeArena::new();
/// let (mut names, mut total) = (String::new(), 0);
/// for key in [&b"population#l80000000003A783C"[..], b"san%20francisco#l80000000000CD140"] {
///     arena.decode(Format::Hex, key, Some(&schema), |_, c| match c.value {
///         Value::Str(s) => names.push_str(&s), // borrowed from the key or the arena
///         Value::I64(n) => total += n,
///         _ => unreachable!(),
///     })?;
/// }
/// assert_eq!((names.as_str(), total), ("populationsan francisco", 3_831_868 + 840_000));
/// // Errors are `decode_into`'s, at the same byte offset (here the
/// // lowercase `a` at byte 23).
/// let bad = b"population#l80000000003a783c";
/// let e = arena.decode(Format::Hex, bad, Some(&schema), |_, _| ()).unwrap_err();
/// assert_eq!(e.offset(), 23);
/// assert_eq!(Err(e), tuple::decode_into(Format::Hex, bad, Some(&schema), &mut Vec::new()));
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct DecodeArena {
    /// The unescaped string being handed out.
    text: String,
}

impl DecodeArena {
    /// An empty arena (no allocation until the first escaped string).
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes `key` as [`decode_into`](super::decode_into) does, calling
    /// `f(index, component)` for each component in order; returns how
    /// many there were.
    ///
    /// # Errors
    /// [`decode_into`](super::decode_into)'s error for `key`, at the same
    /// offset.
    #[inline]
    pub fn decode<F>(
        &mut self,
        format: Format,
        key: &[u8],
        schema: Option<&[Field]>,
        mut f: F,
    ) -> Result<usize, DecodeError>
    where
        F: FnMut(usize, Component<'_>),
    {
        let mut v = Visit {
            f: &mut f,
            text: &mut self.text,
            n: 0,
        };
        let schema = match (format, schema) {
            (Format::Binary, _) => {
                decode_binary(key, schema, &mut v)?;
                return Ok(v.n);
            }
            (_, None) => {
                guess_into(format, key, &mut v)?;
                return Ok(v.n);
            }
            (_, Some(schema)) => schema,
        };
        if decode_text_direct(format, key, schema, &mut v).is_some() {
            return Ok(v.n);
        }
        // The direct path refused the key (in practice: it does not
        // decode): the general loop says why. Were it to decode, the
        // components not handed out yet follow (the two paths agree on
        // every component, a unit test of `tuple` checks).
        let seen = v.n;
        let mut all = Vec::new();
        decode_text_general(format, key, schema, &mut all)?;
        let n = all.len();
        for (i, c) in all.into_iter().enumerate().skip(seen) {
            f(i, c);
        }
        Ok(n)
    }
}

/// [`DecodeArena::decode`]'s [`Parts`]: each component handed to `f`, a
/// string that needs unescaping unescaped into `text` first.
struct Visit<'a, F> {
    f: &'a mut F,
    text: &'a mut String,
    n: usize,
}

impl<'k, F: FnMut(usize, Component<'_>)> Parts<'k> for Visit<'_, F> {
    #[inline(always)]
    fn put(&mut self, c: Component<'k>) {
        (self.f)(self.n, c);
        self.n += 1;
    }
    #[inline(always)]
    fn put_str(&mut self, s: &'k str, first: usize) -> Option<()> {
        let s = if first == s.len() {
            s
        } else {
            self.text.clear();
            text::unescape_str_into(s, first, self.text).ok()?;
            self.text.as_str()
        };
        (self.f)(self.n, Component::asc(Value::Str(Cow::Borrowed(s))));
        self.n += 1;
        Some(())
    }
}
