//! serde: `#[derive(Serialize, Deserialize)]` structs and tuples as sortable
//! keys, in every [`Format`] (feature `serde`).
//!
//! [`to_key`] flattens a value into key components, depth first, and
//! encodes them as one tuple key; [`from_key`] reads them back, taking each
//! component's type from the type being deserialized — so no schema is
//! needed, even for `decimal` and `binary` keys. The ordering promise:
//!
//! > `to_key(a).cmp(&to_key(b))` is the order of `a` and `b` as tuples of
//! > their fields — field by field, each ascending unless reversed (by
//! > `dirs` or by [`Desc`]) — which is what `#[derive(PartialOrd, Ord)]`
//! > gives, with floats in lexikey's float order (see [`crate::value`]).
//!
//! ```
//! use lexikey::serde_key::{from_key, to_key, Desc, Ts};
//! use lexikey::Format;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq, PartialOrd)]
//! struct Reading {
//!     sensor: String,
//!     at: Desc<Ts>, // newest first
//!     seq: u32,
//! }
//!
//! let r = Reading { sensor: "t-1".into(), at: Desc(Ts(1_700_000_000_000)), seq: 7 };
//! let key = to_key(&r, Format::Hex, &[])?;
//! assert_eq!(key, b"t-1#T7FFFFE74301A97FF#w00000007");
//! assert_eq!(from_key::<Reading>(&key, Format::Hex, &[])?, r);
//!
//! let later = Reading { at: Desc(Ts(1_700_000_000_001)), ..r };
//! assert!(to_key(&later, Format::Hex, &[])? < key); // newest first
//! assert!(later < Reading { sensor: "t-1".into(), at: Desc(Ts(1_700_000_000_000)), seq: 7 });
//!
//! let key = to_key(&later, Format::Decimal, &[])?;
//! assert_eq!(key, b"t-1#-9999998299999999998#0000000007");
//! assert_eq!(from_key::<Reading>(&key, Format::Decimal, &[])?, later);
//! # Ok::<(), lexikey::serde_key::Error>(())
//! ```
//!
//! # Types
//!
//! | Rust (serde data model) | component | back |
//! |---|---|---|
//! | `bool` | `bool` | |
//! | `i8`, `i16`, `i32` | `i32` (widened) | range-checked: [`Error::OutOfRange`] |
//! | `i64` | `i64` | |
//! | `i128` | `uuid`, sign bit flipped (`v as u128 ^ 1 << 127`) | |
//! | `u8`, `u16`, `u32` | `u32` (widened) | range-checked |
//! | `u64` | `u64` | |
//! | `u128` (and [`Ulid`](crate::kinds::timeid::Ulid)) | `uuid` | |
//! | `f32`, `f64` | `f32`, `f64` (not in `decimal`) | the canonical NaN for any NaN |
//! | `char` | `str` of one character | |
//! | `String`, `&str` | `str` | `&str` borrows from the key when no escape is in it |
//! | bytes (`serialize_bytes`: the [`bytes`] helper, `serde_bytes`) | `bytes` | |
//! | [`Ts`] | `ts` | |
//! | [`Dec`](crate::Dec) | `dec` | |
//! | [`Desc<T>`] | `T`'s components, direction reversed | |
//! | `()`, unit struct | nothing | |
//! | newtype struct | its field | |
//! | struct, tuple, tuple struct, `[T; N]` | each field in order | |
//! | `Option<T>` | `bool` presence flag (`false` = `None`), then `T` if `Some` | |
//! | enum variant | `u32` variant index, then the variant's fields | |
//! | `Vec<T>`, other sequences | per element: `bool` `true` then the element; at the end `false` | |
//!
//! Why these keep the order: `Option`, enums and sequences start with a
//! component that decides between shapes before the shapes differ. `None`
//! (`false`) sorts before every `Some` (`true`), as in Rust; variant
//! indexes sort in declaration order, as derived `Ord` does (so reordering
//! variants changes keys, as it changes `Ord` — appending is safe; variant
//! names are not used, so renaming is safe too); a sequence that ends
//! (`false`) sorts before one that goes on (`true`), which is
//! lexicographic `Vec` order. Two values of one type therefore have equal
//! components up to the first difference, and that component has one type
//! in both keys.
//!
//! Refused with [`Error::Unsupported`]: maps (and `#[serde(flatten)]`,
//! which serializes as a map: a key has no field names, and a `HashMap`
//! has no order), `#[serde(skip_serializing_if)]` (a skipped field would
//! shift the ones after it), and `deserialize_any` (untagged enums,
//! `serde_json::Value`: a key does not say its types). `Vec<u8>` is a
//! sequence of `u32`s unless its field says
//! `#[serde(with = "lexikey::serde_key::bytes")]`; a borrowed `&[u8]`
//! field needs `#[serde(serialize_with = "lexikey::serde_key::bytes::serialize")]`
//! (serde writes `&[u8]` as a sequence but reads it from bytes).
//!
//! # Directions
//!
//! Two ways, which combine:
//! - `dirs`, one [`Dir`] per **top-level field** — each field of the
//!   outermost struct or tuple (every component that field produces takes
//!   its direction), or the whole value when it is not a struct or tuple.
//!   Pass `&[]` for all ascending; otherwise give exactly one per field
//!   ([`Error::Dirs`]).
//! - [`Desc<T>`] anywhere in the type: `T`'s components with their
//!   direction reversed. `Desc<T>: Ord` is `T`'s order reversed, so the
//!   type's derived `Ord` stays the key order.
//!
//! A component is descending when an odd number of these apply to it
//! (`Desc<Desc<T>>` is ascending, like its `Ord`).
//!
//! ```
//! use lexikey::serde_key::{from_key, to_key};
//! use lexikey::{Dir, Format};
//!
//! let dirs = [Dir::Asc, Dir::Desc];
//! let key = to_key(&("usa", 3_831_868_u64), Format::Hex, &dirs)?;
//! assert_eq!(key, b"usa#UFFFFFFFFFFC587C3");
//! let back: (String, u64) = from_key(&key, Format::Hex, &dirs)?;
//! assert_eq!(back, ("usa".to_string(), 3_831_868));
//!
//! // Option: a presence flag; enums: the variant index.
//! #[derive(serde::Serialize)]
//! enum Status { Active, Closed { code: u8 } }
//! assert_eq!(to_key(&(Some(5_u8), None::<u8>), Format::Hex, &[])?, b"b01#w00000005#b00");
//! assert_eq!(to_key(&Status::Closed { code: 3 }, Format::Hex, &[])?, b"w00000001#w00000003");
//! assert_eq!(to_key(&vec![1_u32, 2], Format::Binary, &[])?,
//!            b"\x01\x00\x00\x00\x01\x01\x00\x00\x00\x02\x00");
//! # let _ = Status::Active;
//! # Ok::<(), lexikey::serde_key::Error>(())
//! ```
//!
//! # Errors
//!
//! Decoding errors carry the byte offset in the key ([`Error::offset`]):
//! a component that does not decode ([`Error::Decode`], its own offset),
//! a number that does not fit the field ([`Error::OutOfRange`]), and
//! errors raised by the type's `Deserialize` impl ([`Error::Custom`], at
//! the start of the last component read).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

use crate::error::{DecodeError, EncodeError};
use crate::format::text::SEP;
use crate::format::{binary, Format};
use crate::value::{Component, Dir, Field, Type, Value};

/// The newtype-struct name by which the serializers recognize [`Desc`].
/// A newtype of your own with `#[serde(rename = "lexikey::serde_key::Desc")]`
/// is reversed too.
///
/// ```
/// assert_eq!(lexikey::serde_key::DESC_NAME, "lexikey::serde_key::Desc");
/// ```
pub const DESC_NAME: &str = "lexikey::serde_key::Desc";

/// The newtype-struct name by which the serializers recognize [`Ts`]; it
/// must wrap an `i64`.
///
/// ```
/// assert_eq!(lexikey::serde_key::TS_NAME, "lexikey::serde_key::Ts");
/// ```
pub const TS_NAME: &str = "lexikey::serde_key::Ts";

/// The newtype-struct name by which the serializers recognize a
/// [`Dec`](crate::Dec) (it serializes as this newtype around its text, so
/// other serializers see a string and lexikey's see a `dec` component).
///
/// ```
/// use lexikey::serde_key::{from_key, to_key};
/// use lexikey::{Dec, Format};
/// let price: Dec = "10.50".parse()?;
/// let key = to_key(&("book", price.clone()), Format::Decimal, &[])?;
/// assert_eq!(key, b"book#==2105-");
/// assert_eq!(from_key::<(String, Dec)>(&key, Format::Decimal, &[])?.1, price);
/// assert_eq!(lexikey::serde_key::DEC_NAME, "lexikey::serde_key::Dec");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const DEC_NAME: &str = crate::value::big_decimal::SERDE_NAME;

const I128_FLIP: u128 = 1 << 127;

/// Why a value could not become a key, or a key a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The format could not encode a component (a float in `decimal`).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A component of the key did not decode (offset into the key).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The type has a part with no key encoding (a map, `i128`…). A
    /// property of the type, not of the data: no offset.
    #[error("{what} cannot be part of a key: {hint}")]
    Unsupported {
        /// What was refused.
        what: &'static str,
        /// Why, and what to use instead.
        hint: &'static str,
    },
    /// `dirs` was neither empty nor one direction per top-level field.
    #[error("{found} directions given for {expected} top-level fields: give none (all ascending) or one per field")]
    Dirs {
        /// The number of top-level fields.
        expected: usize,
        /// The length of `dirs`.
        found: usize,
    },
    /// A decoded number that does not fit the Rust field (an `i32`
    /// component read into an `i8`, a variant index past the last variant).
    #[error("value {value} at byte {offset} does not fit {target}")]
    OutOfRange {
        /// Offset of the component in the key.
        offset: usize,
        /// The value decoded.
        value: String,
        /// The Rust type (or enum) it had to fit.
        target: String,
    },
    /// An error raised by a `Serialize` or `Deserialize` impl (a missing
    /// field, an invalid value…).
    #[error("{msg}{}", .offset.map(|o| format!(" (component at byte {o})")).unwrap_or_default())]
    Custom {
        /// The message.
        msg: String,
        /// When decoding: the offset of the last component read.
        offset: Option<usize>,
    },
}

impl Error {
    /// The byte offset in the key that a decoding error points at; `None`
    /// for encoding errors and for problems of the type itself.
    pub fn offset(&self) -> Option<usize> {
        match self {
            Error::Decode(e) => Some(e.offset()),
            Error::OutOfRange { offset, .. } => Some(*offset),
            Error::Custom { offset, .. } => *offset,
            _ => None,
        }
    }

    fn at(self, pos: usize) -> Error {
        match self {
            Error::Custom { msg, offset: None } => Error::Custom {
                msg,
                offset: Some(pos),
            },
            e => e,
        }
    }
}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Custom {
            msg: msg.to_string(),
            offset: None,
        }
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::Custom {
            msg: msg.to_string(),
            offset: None,
        }
    }
}

fn unsupported<T>(what: &'static str, hint: &'static str) -> Result<T, Error> {
    Err(Error::Unsupported { what, hint })
}

const MAP_HINT: &str = "a key has no field names and a map no fixed order; use a struct, a tuple or a sequence of (key, value) pairs (and no #[serde(flatten)])";

/// Encodes `value` as one key in `format`, with `dirs` as described in the
/// [module docs](self#directions).
///
/// # Errors
/// [`Error::Unsupported`] for types with no key encoding, [`Error::Dirs`]
/// for a `dirs` of the wrong length, [`Error::Encode`] when the format
/// cannot hold a component (floats in `decimal`), [`Error::Custom`] from
/// the value's `Serialize` impl.
pub fn to_key<T: Serialize + ?Sized>(
    value: &T,
    format: Format,
    dirs: &[Dir],
) -> Result<Vec<u8>, Error> {
    let components = to_components(value, dirs)?;
    Ok(crate::tuple::encode(format, &components)?.into_vec())
}

/// The key components of `value` (to encode with a prefix of your own,
/// say, via [`crate::tuple::encode`]).
///
/// ```
/// use lexikey::serde_key::{to_components, Desc};
/// use lexikey::{tuple, Component, Format};
/// let mut parts = vec![Component::asc("scores")];
/// parts.extend(to_components(&(Desc(97_u8), "ada"), &[])?);
/// assert_eq!(tuple::encode(Format::Hex, &parts)?, b"scores#WFFFFFF9E#ada");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`to_key`], except [`Error::Encode`].
pub fn to_components<T: Serialize + ?Sized>(
    value: &T,
    dirs: &[Dir],
) -> Result<Vec<Component<'static>>, Error> {
    let mut ser = Serializer::new(dirs);
    value.serialize(&mut ser)?;
    ser.into_components()
}

/// Decodes a key written by [`to_key`] with the same `format` and `dirs`.
/// Component types come from `T`; the key must hold exactly the components
/// `T` reads.
///
/// # Errors
/// [`Error::Decode`] for a component that does not decode, a missing
/// component ([`DecodeError::MissingComponent`]) or bytes left over
/// ([`DecodeError::TrailingBytes`]); [`Error::OutOfRange`] for a number too
/// large for its field; [`Error::Unsupported`], [`Error::Dirs`] and
/// [`Error::Custom`] as for [`to_key`].
pub fn from_key<'k, T: de::Deserialize<'k>>(
    key: &'k [u8],
    format: Format,
    dirs: &[Dir],
) -> Result<T, Error> {
    let mut de = Deserializer::new(key, format, dirs);
    let value = T::deserialize(&mut de).map_err(|e| e.at(de.last_offset))?;
    de.end()?;
    Ok(value)
}

/// A value whose key components are descending: `Desc<T>` sorts (as
/// `Ord` and as a key) in the reverse order of `T`. Under other serializers
/// it is a plain newtype struct.
///
/// ```
/// use lexikey::serde_key::{to_key, Desc};
/// use lexikey::Format;
/// assert!(Desc(2) < Desc(1));
/// assert!(to_key(&Desc(2_u32), Format::Hex, &[])? < to_key(&Desc(1_u32), Format::Hex, &[])?);
/// assert_eq!(to_key(&Desc("ab"), Format::Hex, &[])?, b"9E9D~");
/// # Ok::<(), lexikey::serde_key::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Desc<T>(pub T);

impl<T: PartialOrd> PartialOrd for Desc<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        other.0.partial_cmp(&self.0)
    }
}

impl<T: Ord> Ord for Desc<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.cmp(&self.0)
    }
}

impl<T: Serialize> Serialize for Desc<T> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(DESC_NAME, &self.0)
    }
}

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for Desc<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Desc<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Desc newtype")
            }
            fn visit_newtype_struct<D: de::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                T::deserialize(d).map(Desc)
            }
        }
        d.deserialize_newtype_struct(DESC_NAME, V(PhantomData))
    }
}

/// A timestamp: milliseconds since the Unix epoch, a `ts` key component
/// (an `i64` would be an `i64` component). Under other serializers it is a
/// plain newtype struct.
///
/// ```
/// use lexikey::serde_key::{to_key, Ts};
/// use lexikey::Format;
/// assert_eq!(to_key(&Ts(1_700_000_000_000), Format::Hex, &[])?, b"t8000018BCFE56800");
/// assert_eq!(to_key(&1_700_000_000_000_i64, Format::Hex, &[])?, b"l8000018BCFE56800");
/// # Ok::<(), lexikey::serde_key::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ts(pub i64);

impl Serialize for Ts {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(TS_NAME, &self.0)
    }
}

impl<'de> de::Deserialize<'de> for Ts {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ts;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a timestamp in milliseconds")
            }
            fn visit_newtype_struct<D: de::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                <i64 as de::Deserialize>::deserialize(d).map(Ts)
            }
        }
        d.deserialize_newtype_struct(TS_NAME, V)
    }
}

/// `#[serde(with = "lexikey::serde_key::bytes")]` for a `Vec<u8>` field:
/// one `bytes` component instead of a sequence of `u32`s.
///
/// ```
/// use lexikey::serde_key::{from_key, to_key};
/// use lexikey::Format;
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Blob(#[serde(with = "lexikey::serde_key::bytes")] Vec<u8>);
/// let key = to_key(&Blob(vec![0, 0xFF]), Format::Binary, &[])?;
/// assert_eq!(key, b"\x00\xFF\xFF\x00\x01");
/// assert_eq!(from_key::<Blob>(&key, Format::Binary, &[])?, Blob(vec![0, 0xFF]));
/// # Ok::<(), lexikey::serde_key::Error>(())
/// ```
pub mod bytes {
    use std::fmt;

    use serde::de::{self, SeqAccess, Visitor};

    /// Serializes the bytes with `serialize_bytes`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<T, S>(v: &T, s: S) -> Result<S::Ok, S::Error>
    where
        T: AsRef<[u8]> + ?Sized,
        S: serde::Serializer,
    {
        s.serialize_bytes(v.as_ref())
    }

    /// Deserializes bytes (also from a sequence of `u8`, as JSON holds them).
    ///
    /// # Errors
    /// The deserializer's.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<u8>, A::Error> {
                let mut v = Vec::new();
                while let Some(b) = a.next_element()? {
                    v.push(b);
                }
                Ok(v)
            }
        }
        d.deserialize_byte_buf(V)
    }
}

/// Where the value being (de)serialized stands: nesting depth, the
/// top-level field and its direction, and the `Desc` parity.
#[derive(Debug, Clone, Copy)]
struct Shape<'d> {
    dirs: &'d [Dir],
    depth: usize,
    top_compound: bool,
    fields: usize,
    field_dir: Dir,
    flip: bool,
    /// A `Ts` (or `Dec`) newtype was entered: the next `i64` is a
    /// timestamp (the next string a decimal).
    mark: Option<Type>,
}

impl<'d> Shape<'d> {
    fn new(dirs: &'d [Dir]) -> Self {
        Shape {
            dirs,
            depth: 0,
            top_compound: false,
            fields: 0,
            field_dir: Dir::Asc,
            flip: false,
            mark: None,
        }
    }

    /// A value that is the whole key (not a struct or tuple) is one field.
    fn single(&mut self) -> Result<(), Error> {
        if self.depth == 0 {
            if self.dirs.len() > 1 {
                return Err(Error::Dirs {
                    expected: 1,
                    found: self.dirs.len(),
                });
            }
            self.field_dir = self.dirs.first().copied().unwrap_or_default();
            self.fields = 1;
        }
        Ok(())
    }

    /// Enters a compound; `top_len` is `Some(n)` for a struct or tuple of
    /// `n` fields, which at depth 0 is the top-level compound.
    fn enter(&mut self, top_len: Option<usize>) -> Result<(), Error> {
        if self.depth == 0 {
            match top_len {
                Some(len) => {
                    if !self.dirs.is_empty() && self.dirs.len() != len {
                        return Err(Error::Dirs {
                            expected: len,
                            found: self.dirs.len(),
                        });
                    }
                    self.top_compound = true;
                }
                None => self.single()?,
            }
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Before each field of a struct or tuple.
    fn element(&mut self) {
        if self.depth == 1 && self.top_compound {
            self.field_dir = self.dirs.get(self.fields).copied().unwrap_or_default();
            self.fields += 1;
        }
    }

    fn dir(&self) -> Dir {
        match (self.field_dir, self.flip) {
            (d, false) => d,
            (Dir::Asc, true) => Dir::Desc,
            (Dir::Desc, true) => Dir::Asc,
        }
    }

    fn finish(&self) -> Result<(), Error> {
        if self.fields == 0 && !self.dirs.is_empty() {
            return Err(Error::Dirs {
                expected: 0,
                found: self.dirs.len(),
            });
        }
        Ok(())
    }

    /// Fails if a `Ts`/`Dec` newtype was entered and nothing consumed it.
    fn no_ts(&mut self) -> Result<(), Error> {
        self.take_ts(Type::Bool).map(drop)
    }

    /// The type to read or write: `Ts` for an `i64` inside a `Ts` newtype,
    /// `Dec` for a string inside a `Dec` newtype.
    fn take_ts(&mut self, ty: Type) -> Result<Type, Error> {
        match (self.mark.take(), ty) {
            (None, ty) => Ok(ty),
            (Some(Type::Ts), Type::I64) => Ok(Type::Ts),
            (Some(Type::Dec), Type::Str) => Ok(Type::Dec),
            (Some(Type::Dec), _) => unsupported(
                "a Dec newtype around a non-string",
                "a newtype named lexikey::serde_key::Dec must wrap the decimal's text",
            ),
            (Some(_), _) => unsupported(
                "a Ts newtype around a non-i64",
                "Ts (or a newtype renamed to lexikey::serde_key::Ts) must wrap an i64",
            ),
        }
    }
}

// ---------------------------------------------------------- serializer --

/// A `serde::Serializer` (implemented for `&mut Serializer`) that collects
/// key components. [`to_key`] and [`to_components`] wrap it.
///
/// ```
/// use lexikey::serde_key::Serializer;
/// use lexikey::{Component, Dir};
/// use serde::Serialize;
/// let mut ser = Serializer::new(&[Dir::Desc]);
/// 7_u8.serialize(&mut ser)?;
/// assert_eq!(ser.into_components()?, vec![Component::desc(7_u32)]);
/// # Ok::<(), lexikey::serde_key::Error>(())
/// ```
#[derive(Debug)]
pub struct Serializer<'d> {
    out: Vec<Component<'static>>,
    shape: Shape<'d>,
}

impl<'d> Serializer<'d> {
    /// A serializer with one direction per top-level field (or none).
    pub fn new(dirs: &'d [Dir]) -> Self {
        Serializer {
            out: Vec::new(),
            shape: Shape::new(dirs),
        }
    }

    /// The components of the value serialized.
    ///
    /// # Errors
    /// [`Error::Dirs`] when directions were given for a value with no
    /// field.
    pub fn into_components(self) -> Result<Vec<Component<'static>>, Error> {
        self.shape.finish()?;
        Ok(self.out)
    }

    fn push(&mut self, ty: Type, value: Value<'static>) -> Result<(), Error> {
        let ty = self.shape.take_ts(ty)?;
        self.shape.single()?;
        let value = match (ty, value) {
            (Type::Ts, Value::I64(v)) => Value::Ts(v),
            (Type::Dec, Value::Str(s)) => {
                Value::Dec(crate::Dec::parse(&s).map_err(<Error as ser::Error>::custom)?)
            }
            (_, v) => v,
        };
        self.out.push(Component {
            value,
            dir: self.shape.dir(),
            width: None,
            nulls: None,
            list: 0,
        });
        Ok(())
    }
}

/// The state of a struct, tuple, sequence or enum variant being
/// serialized by [`Serializer`].
#[derive(Debug)]
pub struct Compound<'a, 'd> {
    ser: &'a mut Serializer<'d>,
    /// A sequence: a `true` flag before each element, `false` at the end.
    seq: bool,
}

impl Compound<'_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if self.seq {
            self.ser.push(Type::Bool, Value::Bool(true))?;
        } else {
            self.ser.shape.element();
        }
        value.serialize(&mut *self.ser)
    }

    fn close(self) -> Result<(), Error> {
        if self.seq {
            self.ser.push(Type::Bool, Value::Bool(false))?;
        }
        self.ser.shape.leave();
        Ok(())
    }
}

impl<'a, 'd> ser::Serializer for &'a mut Serializer<'d> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'd>;
    type SerializeTuple = Compound<'a, 'd>;
    type SerializeTupleStruct = Compound<'a, 'd>;
    type SerializeTupleVariant = Compound<'a, 'd>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = Compound<'a, 'd>;
    type SerializeStructVariant = Compound<'a, 'd>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.push(Type::Bool, Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.push(Type::I32, Value::I32(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.push(Type::I32, Value::I32(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.push(Type::I32, Value::I32(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.push(Type::I64, Value::I64(v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.push(Type::Uuid, Value::Uuid(v as u128 ^ I128_FLIP))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.push(Type::U32, Value::U32(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.push(Type::U32, Value::U32(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.push(Type::U32, Value::U32(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.push(Type::U64, Value::U64(v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.push(Type::Uuid, Value::Uuid(v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.push(Type::F32, Value::F32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.push(Type::F64, Value::F64(v))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.push(Type::Str, Value::Str(Cow::Owned(v.to_string())))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.push(Type::Str, Value::Str(Cow::Owned(v.to_owned())))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.push(Type::Bytes, Value::Bytes(Cow::Owned(v.to_vec())))
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.push(Type::Bool, Value::Bool(false))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.push(Type::Bool, Value::Bool(true))?;
        self.shape.enter(None)?;
        value.serialize(&mut *self)?;
        self.shape.leave();
        Ok(())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.shape.no_ts()?;
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        self.push(Type::U32, Value::U32(index))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if name == DESC_NAME {
            self.shape.flip = !self.shape.flip;
            value.serialize(&mut *self)?;
            self.shape.flip = !self.shape.flip;
            Ok(())
        } else if name == TS_NAME || name == DEC_NAME {
            self.shape.mark = Some(if name == TS_NAME { Type::Ts } else { Type::Dec });
            value.serialize(&mut *self)?;
            self.shape.no_ts()
        } else {
            value.serialize(self)
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.push(Type::U32, Value::U32(index))?;
        self.shape.enter(None)?;
        value.serialize(&mut *self)?;
        self.shape.leave();
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'd>, Error> {
        self.shape.no_ts()?;
        self.shape.enter(None)?;
        Ok(Compound {
            ser: self,
            seq: true,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'd>, Error> {
        self.shape.no_ts()?;
        self.shape.enter(Some(len))?;
        Ok(Compound {
            ser: self,
            seq: false,
        })
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'd>, Error> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'd>, Error> {
        self.push(Type::U32, Value::U32(index))?;
        self.shape.enter(None)?;
        Ok(Compound {
            ser: self,
            seq: false,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        unsupported("a map", MAP_HINT)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'd>, Error> {
        self.serialize_tuple(len)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'd>, Error> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.field(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.field(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.field(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.field(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

const SKIP_HINT: &str = "#[serde(skip_serializing_if)] would shift the fields after it; key fields are positional (use #[serde(skip)] or an Option)";

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<(), Error> {
        unsupported("a skipped field", SKIP_HINT)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<(), Error> {
        unsupported("a skipped field", SKIP_HINT)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

// -------------------------------------------------------- deserializer --

/// A `serde::Deserializer` (implemented for `&mut Deserializer`) that
/// reads components from a key as the type asks for them. [`from_key`]
/// wraps it.
///
/// ```
/// use lexikey::serde_key::Deserializer;
/// use lexikey::Format;
/// use serde::Deserialize;
/// let mut de = Deserializer::new(b"w00000007", Format::Hex, &[]);
/// assert_eq!(u8::deserialize(&mut de)?, 7);
/// de.end()?;
/// # Ok::<(), lexikey::serde_key::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'k, 'd> {
    key: &'k [u8],
    format: Format,
    shape: Shape<'d>,
    /// Binary: the offset of the next component. Text: the end of the last
    /// part read (a `#` or the end of the key).
    pos: usize,
    /// Components read so far.
    count: usize,
    /// Offset of the last component read (where `Custom` errors point).
    last_offset: usize,
}

impl<'k, 'd> Deserializer<'k, 'd> {
    /// A deserializer over `key`, written in `format` with `dirs`.
    pub fn new(key: &'k [u8], format: Format, dirs: &'d [Dir]) -> Self {
        Deserializer {
            key,
            format,
            shape: Shape::new(dirs),
            pos: 0,
            count: 0,
            last_offset: 0,
        }
    }

    /// Checks that the whole key was read.
    ///
    /// # Errors
    /// [`DecodeError::TrailingBytes`] at the first byte not read;
    /// [`Error::Dirs`] when directions were given for a value with no field.
    pub fn end(&self) -> Result<(), Error> {
        self.shape.finish()?;
        let read_all = if self.format.is_text() && self.count == 0 {
            self.key.is_empty()
        } else {
            self.pos == self.key.len()
        };
        if !read_all {
            return Err(DecodeError::TrailingBytes { offset: self.pos }.into());
        }
        Ok(())
    }

    /// Reads the next component as `ty` in the current direction; returns
    /// it and its offset.
    fn read(&mut self, ty: Type) -> Result<(Value<'k>, usize), Error> {
        let ty = self.shape.take_ts(ty)?;
        self.shape.single()?;
        let field = Field {
            ty,
            dir: self.shape.dir(),
            width: None,
            nulls: None,
            list: 0,
        };
        let missing = DecodeError::MissingComponent {
            offset: self.key.len(),
            index: self.count,
        };
        let (component, start) = if self.format == Format::Binary {
            let start = self.pos;
            if start == self.key.len() {
                return Err(missing.into());
            }
            let (c, used) =
                binary::decode_component(field, &self.key[start..]).map_err(|e| e.shift(start))?;
            self.pos = start + used;
            (c, start)
        } else {
            let start = if self.count == 0 {
                0
            } else if self.pos < self.key.len() {
                self.pos + 1 // past the `#`
            } else {
                return Err(missing.into());
            };
            let end = self.key[start..]
                .iter()
                .position(|&b| b == SEP)
                .map_or(self.key.len(), |i| start + i);
            let c = self
                .format
                .decode_component(field, &self.key[start..end])
                .map_err(|e| e.shift(start))?;
            self.pos = end;
            (c, start)
        };
        self.count += 1;
        self.last_offset = start;
        Ok((component.value, start))
    }

    fn read_i32(&mut self) -> Result<(i32, usize), Error> {
        match self.read(Type::I32)? {
            (Value::I32(v), at) => Ok((v, at)),
            _ => unreachable!("an i32 field decodes to Value::I32"),
        }
    }

    fn read_u32(&mut self) -> Result<(u32, usize), Error> {
        match self.read(Type::U32)? {
            (Value::U32(v), at) => Ok((v, at)),
            _ => unreachable!("a u32 field decodes to Value::U32"),
        }
    }

    fn read_bool(&mut self) -> Result<bool, Error> {
        match self.read(Type::Bool)? {
            (Value::Bool(v), _) => Ok(v),
            _ => unreachable!("a bool field decodes to Value::Bool"),
        }
    }

    fn read_uuid(&mut self) -> Result<u128, Error> {
        match self.read(Type::Uuid)? {
            (Value::Uuid(v), _) => Ok(v),
            _ => unreachable!("a uuid field decodes to Value::Uuid"),
        }
    }

    fn no_ts(&mut self) -> Result<(), Error> {
        self.shape.no_ts()
    }
}

fn narrow<T: TryFrom<W>, W: fmt::Display + Copy>(
    v: W,
    at: usize,
    target: &str,
) -> Result<T, Error> {
    T::try_from(v).map_err(|_| Error::OutOfRange {
        offset: at,
        value: v.to_string(),
        target: target.to_owned(),
    })
}

const ANY_HINT: &str = "a key does not say its types: deserialize into a type with concrete fields (no untagged or internally tagged enums, no serde_json::Value)";

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de, '_> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Error> {
        unsupported("deserialize_any", ANY_HINT)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_bool(self.read_bool()?)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let (x, at) = self.read_i32()?;
        v.visit_i8(narrow(x, at, "i8")?)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let (x, at) = self.read_i32()?;
        v.visit_i16(narrow(x, at, "i16")?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i32(self.read_i32()?.0)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::I64)?.0 {
            Value::I64(x) | Value::Ts(x) => v.visit_i64(x),
            _ => unreachable!("an i64 or ts field decodes to Value::I64 or Value::Ts"),
        }
    }
    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_i128((self.read_uuid()? ^ I128_FLIP) as i128)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let (x, at) = self.read_u32()?;
        v.visit_u8(narrow(x, at, "u8")?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let (x, at) = self.read_u32()?;
        v.visit_u16(narrow(x, at, "u16")?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u32(self.read_u32()?.0)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::U64)?.0 {
            Value::U64(x) => v.visit_u64(x),
            _ => unreachable!("a u64 field decodes to Value::U64"),
        }
    }
    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_u128(self.read_uuid()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::F32)?.0 {
            Value::F32(x) => v.visit_f32(x),
            _ => unreachable!("an f32 field decodes to Value::F32"),
        }
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::F64)?.0 {
            Value::F64(x) => v.visit_f64(x),
            _ => unreachable!("an f64 field decodes to Value::F64"),
        }
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::Str)? {
            (Value::Str(s), at) => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => v.visit_char(c),
                    _ => Err(Error::OutOfRange {
                        offset: at,
                        value: format!("{s:?}"),
                        target: "char (one character)".to_owned(),
                    }),
                }
            }
            _ => unreachable!("a str field decodes to Value::Str"),
        }
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::Str)?.0 {
            Value::Str(Cow::Borrowed(s)) => v.visit_borrowed_str(s),
            Value::Str(Cow::Owned(s)) => v.visit_string(s),
            Value::Dec(d) => v.visit_string(d.to_string()),
            _ => unreachable!("a str field decodes to Value::Str (a Dec newtype's to Value::Dec)"),
        }
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.read(Type::Bytes)?.0 {
            Value::Bytes(Cow::Borrowed(b)) => v.visit_borrowed_bytes(b),
            Value::Bytes(Cow::Owned(b)) => v.visit_byte_buf(b),
            _ => unreachable!("a bytes field decodes to Value::Bytes"),
        }
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.read_bool()? {
            self.shape.enter(None)?;
            let value = v.visit_some(&mut *self)?;
            self.shape.leave();
            Ok(value)
        } else {
            v.visit_none()
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.no_ts()?;
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        if name == DESC_NAME {
            self.shape.flip = !self.shape.flip;
            let value = v.visit_newtype_struct(&mut *self)?;
            self.shape.flip = !self.shape.flip;
            Ok(value)
        } else if name == TS_NAME || name == DEC_NAME {
            self.shape.mark = Some(if name == TS_NAME { Type::Ts } else { Type::Dec });
            let value = v.visit_newtype_struct(&mut *self)?;
            self.no_ts()?;
            Ok(value)
        } else {
            v.visit_newtype_struct(self)
        }
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.no_ts()?;
        self.shape.enter(None)?;
        let mut access = Elements {
            de: &mut *self,
            flags: true,
            left: 0,
        };
        let value = v.visit_seq(&mut access)?;
        if access.flags {
            // The visitor stopped before the end of the sequence.
            return Err(de::Error::custom("sequence not read to its end"));
        }
        self.shape.leave();
        Ok(value)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        self.no_ts()?;
        self.shape.enter(Some(len))?;
        let value = fixed(self, len, v)?;
        self.shape.leave();
        Ok(value)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(len, v)
    }
    fn deserialize_map<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Error> {
        unsupported("a map", MAP_HINT)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_tuple(fields.len(), v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        let (index, at) = self.read_u32()?;
        if index as usize >= variants.len() {
            return Err(Error::OutOfRange {
                offset: at,
                value: index.to_string(),
                target: format!(
                    "a variant index of enum {name} ({} variants)",
                    variants.len()
                ),
            });
        }
        self.shape.enter(None)?;
        let value = v.visit_enum(Variant {
            de: &mut *self,
            index,
        })?;
        self.shape.leave();
        Ok(value)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Error> {
        unsupported(
            "an identifier",
            "keys hold variant indexes, not names, and structs have no field names",
        )
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Error> {
        unsupported("an ignored value", ANY_HINT)
    }
}

/// `len` fields of a struct, tuple or tuple variant.
fn fixed<'de, V: Visitor<'de>>(
    de: &mut Deserializer<'de, '_>,
    len: usize,
    v: V,
) -> Result<V::Value, Error> {
    let mut access = Elements {
        de,
        flags: false,
        left: len,
    };
    let value = v.visit_seq(&mut access)?;
    if access.left != 0 {
        return Err(de::Error::custom(format_args!(
            "{} of {len} fields not read",
            access.left
        )));
    }
    Ok(value)
}

/// The elements of a sequence (`flags`: read a `bool` before each) or of a
/// fixed-length compound (`left` fields still to read).
struct Elements<'a, 'k, 'd> {
    de: &'a mut Deserializer<'k, 'd>,
    flags: bool,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.flags {
            if !self.de.read_bool()? {
                self.flags = false;
                return Ok(None);
            }
        } else {
            if self.left == 0 {
                return Ok(None);
            }
            self.left -= 1;
            self.de.shape.element();
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        (!self.flags).then_some(self.left)
    }
}

/// An enum whose variant index was read.
struct Variant<'a, 'k, 'd> {
    de: &'a mut Deserializer<'k, 'd>,
    index: u32,
}

impl<'a, 'de, 'd> de::EnumAccess<'de> for Variant<'a, 'de, 'd> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let index: de::value::U32Deserializer<Error> = self.index.into_deserializer();
        Ok((seed.deserialize(index)?, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        fixed(self.de, len, v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        fixed(self.de, fields.len(), v)
    }
}
