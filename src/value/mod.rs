//! The value model: typed values, their types, directions and schema fields.
//!
//! A [`Value`]'s [`Ord`] is the order of its keys: for two values of the same
//! type, `a.cmp(&b) == encode(a).cmp(&encode(b))` in every format. Values of
//! different tagged types order by their tag (see [`Type::tag`]), as their
//! text keys do.
//!
//! # Float policy
//!
//! Floats order as IEEE-754 `totalOrder` restricted to one NaN:
//! `-inf < -MAX < … < -0.0 < +0.0 < … < +MAX < +inf < NaN`.
//! Every NaN (any sign, any payload) is encoded as the one canonical quiet
//! NaN (`0x7FF8000000000000` for `f64`, `0x7FC00000` for `f32`), so it sorts
//! after `+inf` and decodes to that canonical NaN. `-0.0` and `+0.0` stay
//! distinct keys, with `-0.0` first. Two NaN values compare equal.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

pub mod big_decimal;
pub mod literal;

pub use big_decimal::Dec;

/// The type of a key component.
///
/// The declaration order is the order of the tags, so `Type: Ord` is the
/// order in which text keys of different types sort (except [`Type::Str`],
/// which carries no tag: see [`Type::tag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Type {
    /// `bool`: `false < true`. Tag `b`.
    Bool,
    /// `f64`. Tag `d`.
    F64,
    /// `f32`. Tag `f`.
    F32,
    /// A 128-bit UUID, ordered as a big-endian unsigned integer. Tag `g`.
    Uuid,
    /// `i32`. Tag `i`.
    I32,
    /// `vi64`: an `i64` in 1 to 9 bytes, small magnitudes shortest
    /// (see [`crate::format::compact`]). Tag `k`.
    Vi64,
    /// `i64`. Tag `l`.
    I64,
    /// An arbitrary-precision decimal ([`Dec`]). Tag `n`.
    Dec,
    /// A timestamp: signed milliseconds since 1970-01-01T00:00:00Z. Tag `t`.
    Ts,
    /// `u64`. Tag `u`.
    U64,
    /// `vu64`: a `u64` in 1 to 9 bytes, small values shortest (see
    /// [`crate::format::compact`]). Tag `v`.
    Vu64,
    /// `u32`. Tag `w`.
    U32,
    /// Arbitrary bytes. Tag `x`.
    Bytes,
    /// A UTF-8 string. Untagged in text keys (escaped text).
    Str,
}

impl Type {
    /// Every type of a fixed layout, in tag order: the types schemaless
    /// decoding guesses from their tags. The compact integers
    /// ([`Type::COMPACT`]) are not among them, so that a string written
    /// before they existed (`v10`) still decodes as that string.
    pub const ALL: [Type; 12] = [
        Type::Bool,
        Type::F64,
        Type::F32,
        Type::Uuid,
        Type::I32,
        Type::I64,
        Type::Dec,
        Type::Ts,
        Type::U64,
        Type::U32,
        Type::Bytes,
        Type::Str,
    ];

    /// The compact ordered integers `vi64` and `vu64` (see
    /// [`crate::format::compact`]).
    pub const COMPACT: [Type; 2] = [Type::Vi64, Type::Vu64];

    /// The name used in schemas and on the command line (`i64`, `str`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::F64 => "f64",
            Type::F32 => "f32",
            Type::Uuid => "uuid",
            Type::I32 => "i32",
            Type::Vi64 => "vi64",
            Type::I64 => "i64",
            Type::Dec => "dec",
            Type::Ts => "ts",
            Type::U64 => "u64",
            Type::Vu64 => "vu64",
            Type::U32 => "u32",
            Type::Bytes => "bytes",
            Type::Str => "str",
        }
    }

    /// Parses a type name as written by [`Type::name`].
    pub fn from_name(name: &str) -> Option<Type> {
        Type::ALL
            .into_iter()
            .chain(Type::COMPACT)
            .find(|t| t.name() == name)
    }

    /// The tag letter of ascending text keys (`hex` and `base64` formats);
    /// descending keys use the uppercase letter. `None` for [`Type::Str`]:
    /// strings are written as escaped text, untagged, so that
    /// `("population", 3831868)` reads `population#l80000000003A783C`.
    ///
    /// ```
    /// use lexikey::Type;
    /// assert_eq!(Type::I64.tag(), Some(b'l'));
    /// assert_eq!(Type::F64.tag(), Some(b'd'));
    /// assert_eq!(Type::Str.tag(), None);
    /// ```
    pub const fn tag(self) -> Option<u8> {
        Some(match self {
            Type::Bool => b'b',
            Type::F64 => b'd',
            Type::F32 => b'f',
            Type::Uuid => b'g',
            Type::I32 => b'i',
            Type::Vi64 => b'k',
            Type::I64 => b'l',
            Type::Dec => b'n',
            Type::Ts => b't',
            Type::U64 => b'u',
            Type::Vu64 => b'v',
            Type::U32 => b'w',
            Type::Bytes => b'x',
            Type::Str => return None,
        })
    }

    /// The type and direction a text-key tag letter stands for.
    ///
    /// A table lookup, not a `match`: schemaless decoding asks it for the
    /// first byte of every part, strings included, and a `match` compiles
    /// to a jump whose target random words mispredict.
    #[inline]
    pub fn from_tag(tag: u8) -> Option<(Type, Dir)> {
        /// Per byte: `1 + index into Type::ALL`, plus `0x80` for an
        /// uppercase (descending) tag; 0 for a byte that is no tag.
        const TAGS: [u8; 256] = {
            let mut t = [0u8; 256];
            let mut i = 0;
            while i < Type::ALL.len() {
                if let Some(c) = Type::ALL[i].tag() {
                    t[c as usize] = 1 + i as u8;
                    t[c.to_ascii_uppercase() as usize] = 0x81 + i as u8;
                }
                i += 1;
            }
            t
        };
        let e = TAGS[tag as usize];
        let ty = *Type::ALL.get(usize::from(e & 0x7F).checked_sub(1)?)?;
        Some((ty, if e & 0x80 != 0 { Dir::Desc } else { Dir::Asc }))
    }

    /// The number of order bytes of a fixed-width type (`None` for
    /// variable-length [`Type::Str`], [`Type::Bytes`], [`Type::Dec`] and
    /// the compact integers).
    pub const fn fixed_len(self) -> Option<usize> {
        /// Per type, in declaration order; 0 = variable length. A table
        /// rather than a `match`, which compiles to a jump.
        const LEN: [u8; 14] = [1, 8, 4, 16, 4, 0, 8, 0, 8, 8, 0, 4, 0, 0];
        match LEN[self as usize] {
            0 => None,
            n => Some(n as usize),
        }
    }

    /// Whether the type is a signed integer (has a sign slot in `decimal`).
    pub const fn is_signed_int(self) -> bool {
        matches!(self, Type::I32 | Type::I64 | Type::Ts)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The direction of a key component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Dir {
    /// Smaller values give smaller keys.
    #[default]
    Asc,
    /// Larger values give smaller keys ("most recent first").
    Desc,
}

impl Dir {
    /// Whether this is [`Dir::Desc`].
    pub const fn is_desc(self) -> bool {
        matches!(self, Dir::Desc)
    }

    /// Applies the direction to an ascending ordering.
    pub fn apply(self, ord: Ordering) -> Ordering {
        match self {
            Dir::Asc => ord,
            Dir::Desc => ord.reverse(),
        }
    }
}

/// One position of a schema: a type, a direction and, for integers in the
/// `decimal` format, an optional fixed width.
///
/// Written `TYPE[.desc]` (see [`Field::parse`]), e.g. `i64`, `ts.desc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    /// The component's type.
    pub ty: Type,
    /// The component's direction.
    pub dir: Dir,
    /// Decimal width (digits, including the sign slot of signed types);
    /// `None` = the type's full width. Other formats ignore it.
    pub width: Option<u8>,
    /// `Some` for a nullable component (`TYPE?`): where its nulls sort
    /// (see [`crate::format::null`]); `None`: a null is refused.
    pub nulls: Option<Nulls>,
    /// How many levels of list wrap `ty` (`list<…>`, see
    /// [`crate::format::list`]): 0 for a scalar field, 1 for `list<ty>`,
    /// 2 for `list<list<ty>>`, at most [`MAX_LIST_DEPTH`].
    pub list: u8,
}

/// The deepest list nesting a schema may spell and a key may hold:
/// `list<…>` eight levels deep. Deeper is a parse error (schema text), an
/// encode error (a component) and a decode error (a field).
pub const MAX_LIST_DEPTH: u8 = 8;

/// Where the nulls of a nullable component sort in the final key order,
/// whatever its direction (as SQL's `DESC NULLS FIRST` means it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Nulls {
    /// Before every value (the default of `TYPE?`).
    #[default]
    First,
    /// After every value (`TYPE?.nulls_last`).
    Last,
}

impl Field {
    /// An ascending field of type `ty`, full width.
    pub const fn asc(ty: Type) -> Field {
        Field {
            ty,
            dir: Dir::Asc,
            width: None,
            nulls: None,
            list: 0,
        }
    }

    /// A descending field of type `ty`, full width.
    pub const fn desc(ty: Type) -> Field {
        Field {
            ty,
            dir: Dir::Desc,
            width: None,
            nulls: None,
            list: 0,
        }
    }

    /// The same field with a decimal width.
    pub const fn with_width(self, width: u8) -> Field {
        Field {
            width: Some(width),
            ..self
        }
    }

    /// The list of `depth` levels of this field's type (`list<TYPE>` for
    /// 1), in this field's direction and nullability.
    ///
    /// ```
    /// use lexikey::{Field, Type};
    /// assert_eq!(Field::asc(Type::I64).list_of(2), Field::parse("list<list<i64>>")?);
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub const fn list_of(self, depth: u8) -> Field {
        Field {
            list: depth,
            ..self
        }
    }

    /// Whether this is a list field (`list<…>`).
    pub const fn is_list(self) -> bool {
        self.list != 0
    }

    /// The same field, nullable with its nulls where `nulls` says
    /// (`TYPE?`, `TYPE?.nulls_last`).
    pub const fn nullable(self, nulls: Nulls) -> Field {
        Field {
            nulls: Some(nulls),
            ..self
        }
    }

    /// Parses `TYPE[?][.asc|.desc][.nulls_first|.nulls_last]`: `?` makes
    /// the component nullable (nulls first unless `.nulls_last`; the
    /// `.nulls_*` suffix needs the `?`).
    ///
    /// ```
    /// use lexikey::{Field, Nulls, Type};
    /// assert_eq!(Field::parse("ts.desc"), Ok(Field::desc(Type::Ts)));
    /// assert_eq!(Field::parse("i64?"), Ok(Field::asc(Type::I64).nullable(Nulls::First)));
    /// assert_eq!(
    ///     Field::parse("i64?.desc.nulls_last"),
    ///     Ok(Field::desc(Type::I64).nullable(Nulls::Last))
    /// );
    /// assert!(Field::parse("i64.nulls_last").is_err());
    /// assert!(Field::parse("i65").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Field, ParseError> {
        // `list<…>` may hold dots only in its element type; the suffix
        // starts at the first `.` after the last `>`.
        let split = s.rfind('>').map_or(0, |i| i + 1);
        let (name, rest) = match s[split..].find('.') {
            None => (s, None),
            Some(i) => (&s[..split + i], Some(&s[split + i + 1..])),
        };
        let (name, nullable) = match name.strip_suffix('?') {
            Some(n) => (n, true),
            None => (name, false),
        };
        let (dir, nulls) = parse_suffix(s, rest, nullable)?;
        let (ty, list) = parse_type_name(name)?;
        Ok(Field {
            ty,
            dir,
            width: None,
            nulls,
            list,
        })
    }

    /// Parses a comma-separated schema: `str,i64.desc,f64`.
    pub fn parse_schema(s: &str) -> Result<Vec<Field>, ParseError> {
        if s.trim().is_empty() {
            return Err(ParseError::new(
                "empty schema: expected TYPE[.desc],...".into(),
            ));
        }
        s.split(',').map(|f| Field::parse(f.trim())).collect()
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type_name(self.ty, self.list, f)?;
        write_suffix(self.dir, self.nulls, f)
    }
}

/// Reads a type name without its suffix: a scalar type (`i64`) or a list
/// (`list<i64>`, `list<list<str>>`); returns the (innermost) scalar type
/// and the list depth. The one reading of `list<…>` that [`Field::parse`]
/// and the front ends' column parsers share.
///
/// # Errors
/// An unknown type, an unclosed `list<`, a nullable element type
/// (`list<i64?>`: elements are not nullable) or more than
/// [`MAX_LIST_DEPTH`] levels.
pub fn parse_type_name(name: &str) -> Result<(Type, u8), ParseError> {
    let mut inner = name;
    let mut depth = 0u8;
    while let Some(rest) = inner.strip_prefix("list<") {
        let Some(body) = rest.strip_suffix('>') else {
            return Err(ParseError::new(format!(
                "bad list type {name:?}: expected list<TYPE>, e.g. list<i64> or list<list<str>>"
            )));
        };
        if depth == MAX_LIST_DEPTH {
            return Err(ParseError::new(format!(
                "list type {name:?} nests deeper than {MAX_LIST_DEPTH} levels, the limit"
            )));
        }
        depth += 1;
        inner = body.trim();
    }
    if depth > 0 && (inner.contains('?') || inner.contains('.')) {
        return Err(ParseError::new(format!(
            "bad list type {name:?}: list elements are not nullable and take no direction \
             (write list<TYPE>?, list<TYPE>.desc: the '?' and '.desc' apply to the whole list)"
        )));
    }
    let ty = Type::from_name(inner).ok_or_else(|| {
        ParseError::new(format!(
            "unknown type {inner:?}: expected one of str, i64, u64, i32, u32, f64, f32, dec, bool, bytes, ts, uuid"
        ))
    })?;
    Ok((ty, depth))
}

/// Writes a type name as [`parse_type_name`] reads it: `i64`,
/// `list<list<i64>>`.
pub fn write_type_name(ty: Type, list: u8, f: &mut impl fmt::Write) -> fmt::Result {
    for _ in 0..list {
        f.write_str("list<")?;
    }
    f.write_str(ty.name())?;
    for _ in 0..list {
        f.write_str(">")?;
    }
    Ok(())
}

/// Reads what follows a type name's first `.` (`desc`, `asc.nulls_last`,
/// …) in schema entry `spec`: the direction and, when the name ended in
/// `?` (`nullable`), where the nulls sort. The one reading of the suffix
/// that [`Field::parse`] and the front ends' column parsers share.
///
/// # Errors
/// An unknown word, a direction after a `.nulls_*`, or a `.nulls_*`
/// without the `?`.
pub fn parse_suffix(
    spec: &str,
    rest: Option<&str>,
    nullable: bool,
) -> Result<(Dir, Option<Nulls>), ParseError> {
    if !nullable {
        return match rest {
            None | Some("asc") => Ok((Dir::Asc, None)),
            Some("desc") => Ok((Dir::Desc, None)),
            Some(r) if r.contains("nulls_") => Err(ParseError::new(format!(
                "{r:?} in {spec:?} needs a nullable type: write TYPE?.{r}"
            ))),
            Some(other) => Err(ParseError::new(format!(
                "unknown direction {other:?} in {spec:?}: expected 'asc' or 'desc'"
            ))),
        };
    }
    let mut dir = None;
    let mut nulls = None;
    for word in rest.map(|r| r.split('.')).into_iter().flatten() {
        match word {
            "asc" | "desc" if dir.is_none() && nulls.is_none() => {
                dir = Some(if word == "desc" { Dir::Desc } else { Dir::Asc });
            }
            "nulls_first" | "nulls_last" if nulls.is_none() => {
                nulls = Some(if word == "nulls_last" {
                    Nulls::Last
                } else {
                    Nulls::First
                });
            }
            other => {
                return Err(ParseError::new(format!(
                    "unknown direction {other:?} in {spec:?}: expected 'asc' or 'desc', \
                     then 'nulls_first' or 'nulls_last'"
                )))
            }
        }
    }
    Ok((dir.unwrap_or_default(), Some(nulls.unwrap_or_default())))
}

/// Writes the schema suffix of a direction and nullability: `?` when
/// nullable, `.desc` when descending, `.nulls_last` when the nulls sort
/// last (what [`parse_suffix`] reads back).
pub fn write_suffix(dir: Dir, nulls: Option<Nulls>, f: &mut impl fmt::Write) -> fmt::Result {
    if nulls.is_some() {
        f.write_str("?")?;
    }
    if dir.is_desc() {
        f.write_str(".desc")?;
    }
    if nulls == Some(Nulls::Last) {
        f.write_str(".nulls_last")?;
    }
    Ok(())
}

/// A user-input parse error (component, schema, timestamp, UUID syntax).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(String);

impl ParseError {
    pub(crate) fn new(msg: String) -> Self {
        ParseError(msg)
    }
}

/// A typed value: the input of an encoder and the output of a decoder.
///
/// Strings and bytes are [`Cow`]s so that decoding can borrow from the key
/// when no unescaping is needed. `Value<'static>` owns its data.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Value<'a> {
    /// A boolean.
    Bool(bool),
    /// A 64-bit float (see the float policy in the module docs).
    F64(f64),
    /// A 32-bit float.
    F32(f32),
    /// A UUID as a big-endian 128-bit integer.
    Uuid(u128),
    /// A 32-bit signed integer.
    I32(i32),
    /// A compact 64-bit signed integer (`vi64`).
    Vi64(i64),
    /// A 64-bit signed integer.
    I64(i64),
    /// An arbitrary-precision decimal.
    Dec(Dec),
    /// Milliseconds since the Unix epoch.
    Ts(i64),
    /// A 64-bit unsigned integer.
    U64(u64),
    /// A compact 64-bit unsigned integer (`vu64`).
    Vu64(u64),
    /// A 32-bit unsigned integer.
    U32(u32),
    /// Bytes.
    Bytes(Cow<'a, [u8]>),
    /// A string.
    Str(Cow<'a, str>),
    /// The null of a nullable component of this type (see
    /// [`crate::format::null`]). It orders before every value of its type
    /// here; [`Component::key_cmp`] puts it where the component's
    /// [`Nulls`] says.
    Null(Type),
    /// A list (the value of a `list<…>` component, see
    /// [`crate::format::list`]): its elements, all of the scalar type
    /// given first (the innermost one: a `list<list<i64>>` is a
    /// `List(Type::I64, …)` of `List(Type::I64, …)`s). The component's
    /// [`Component::list`] says how deep it nests. Lists order
    /// elementwise, a list before its extensions, the empty list first.
    List(Type, Items<'a>),
}

/// The elements of a [`Value::List`]: a shared `Vec<Value>` (it derefs
/// to one, and converts from and into one without copying the elements;
/// a clone shares them).
///
/// A `Vec<Value>` inside `Value` would make `Value`'s drop recursive, and
/// a recursive drop is never inlined: every `Value` and [`Component`]
/// dropped on the scalar paths (an `i64`, a string) would pay a call and
/// a dispatch for the list variant it is not (a hex `i64` component took
/// 90 instructions instead of 58 before lists, measured with cachegrind;
/// 76 with this type). Behind an `Arc` the list arm of that drop is a
/// count and a call out of line.
///
/// ```
/// use lexikey::{Type, Value};
/// let list = Value::list(Type::I64, vec![Value::I64(1), Value::I64(2)]);
/// let Value::List(_, items) = &list else { unreachable!() };
/// assert_eq!(items.len(), 2);
/// assert_eq!(items[1], Value::I64(2));
/// ```
#[derive(Default, Clone)]
pub struct Items<'a>(std::sync::Arc<Vec<Value<'a>>>);

impl<'a> Items<'a> {
    /// The elements, as a `Vec` (copied only when a clone shares them).
    pub fn into_vec(self) -> Vec<Value<'a>> {
        std::sync::Arc::unwrap_or_clone(self.0)
    }

    /// The elements to change (copied first when a clone shares them).
    pub fn make_mut(&mut self) -> &mut Vec<Value<'a>> {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl<'a> std::ops::Deref for Items<'a> {
    type Target = Vec<Value<'a>>;
    fn deref(&self) -> &Vec<Value<'a>> {
        &self.0
    }
}

impl<'a> From<Vec<Value<'a>>> for Items<'a> {
    fn from(v: Vec<Value<'a>>) -> Self {
        Items(std::sync::Arc::new(v))
    }
}

impl<'a> From<Items<'a>> for Vec<Value<'a>> {
    fn from(items: Items<'a>) -> Self {
        items.into_vec()
    }
}

impl<'a> FromIterator<Value<'a>> for Items<'a> {
    fn from_iter<I: IntoIterator<Item = Value<'a>>>(iter: I) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<'a> IntoIterator for Items<'a> {
    type Item = Value<'a>;
    type IntoIter = std::vec::IntoIter<Value<'a>>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'s, 'a> IntoIterator for &'s Items<'a> {
    type Item = &'s Value<'a>;
    type IntoIter = std::slice::Iter<'s, Value<'a>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for Items<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl Ord for Items<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl PartialOrd for Items<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Items<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Items<'_> {}

#[cfg(feature = "serde")]
impl serde::Serialize for Items<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de, 'a> serde::Deserialize<'de> for Items<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Value<'a>>::deserialize(d).map(Into::into)
    }
}

impl<'a> Value<'a> {
    /// The list of `items`, all of scalar type `ty` (or lists of it):
    /// `Value::List(ty, items.into())`.
    ///
    /// ```
    /// use lexikey::{Type, Value};
    /// let v = Value::list(Type::I64, vec![Value::I64(1)]);
    /// assert!(matches!(&v, Value::List(Type::I64, items) if items.len() == 1));
    /// ```
    pub fn list(ty: Type, items: Vec<Value<'a>>) -> Value<'a> {
        Value::List(ty, items.into())
    }
}

impl Value<'_> {
    /// The value's type.
    pub fn ty(&self) -> Type {
        match self {
            Value::Bool(_) => Type::Bool,
            Value::F64(_) => Type::F64,
            Value::F32(_) => Type::F32,
            Value::Uuid(_) => Type::Uuid,
            Value::I32(_) => Type::I32,
            Value::Vi64(_) => Type::Vi64,
            Value::I64(_) => Type::I64,
            Value::Dec(_) => Type::Dec,
            Value::Ts(_) => Type::Ts,
            Value::U64(_) => Type::U64,
            Value::Vu64(_) => Type::Vu64,
            Value::U32(_) => Type::U32,
            Value::Bytes(_) => Type::Bytes,
            Value::Str(_) => Type::Str,
            Value::Null(t) | Value::List(t, _) => *t,
        }
    }

    /// An owned copy.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Bool(v) => Value::Bool(v),
            Value::F64(v) => Value::F64(v),
            Value::F32(v) => Value::F32(v),
            Value::Uuid(v) => Value::Uuid(v),
            Value::I32(v) => Value::I32(v),
            Value::Vi64(v) => Value::Vi64(v),
            Value::I64(v) => Value::I64(v),
            Value::Dec(v) => Value::Dec(v),
            Value::Ts(v) => Value::Ts(v),
            Value::U64(v) => Value::U64(v),
            Value::Vu64(v) => Value::Vu64(v),
            Value::U32(v) => Value::U32(v),
            Value::Bytes(v) => Value::Bytes(Cow::Owned(v.into_owned())),
            Value::Str(v) => Value::Str(Cow::Owned(v.into_owned())),
            Value::Null(t) => Value::Null(t),
            Value::List(t, items) => {
                Value::List(t, items.into_iter().map(Value::into_owned).collect())
            }
        }
    }

    /// The big-endian order bytes of a fixed-width value (the transformed
    /// bits that every format writes): sign bit flipped for signed integers,
    /// the float transform for floats. Returns the buffer and the length used;
    /// `None` for strings and bytes.
    #[inline]
    pub fn order_bytes(&self) -> Option<([u8; 16], usize)> {
        let mut buf = [0u8; 16];
        let n = match *self {
            Value::Bool(b) => {
                buf[0] = b as u8;
                1
            }
            Value::F64(v) => put(&mut buf, &f64_order_bits(v).to_be_bytes()),
            Value::F32(v) => put(&mut buf, &f32_order_bits(v).to_be_bytes()),
            Value::Uuid(v) => put(&mut buf, &v.to_be_bytes()),
            Value::I32(v) => put(&mut buf, &((v as u32) ^ 0x8000_0000).to_be_bytes()),
            Value::I64(v) | Value::Ts(v) => put(
                &mut buf,
                &((v as u64) ^ 0x8000_0000_0000_0000).to_be_bytes(),
            ),
            Value::U64(v) => put(&mut buf, &v.to_be_bytes()),
            Value::U32(v) => put(&mut buf, &v.to_be_bytes()),
            Value::Dec(_)
            | Value::Bytes(_)
            | Value::Str(_)
            | Value::Vi64(_)
            | Value::Vu64(_)
            | Value::Null(_)
            | Value::List(..) => return None,
        };
        Some((buf, n))
    }

    /// The inverse of [`Value::order_bytes`] for fixed-width type `ty`.
    /// `bytes` must be exactly `ty.fixed_len()` long. Returns `None` when the
    /// bytes are not canonical: a bool byte other than 0/1, or a NaN other
    /// than the canonical one.
    pub fn from_order_bytes(ty: Type, bytes: &[u8]) -> Option<Value<'static>> {
        fn arr<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
            b.try_into().ok()
        }
        Some(match ty {
            Type::Bool => match arr::<1>(bytes)? {
                [0] => Value::Bool(false),
                [1] => Value::Bool(true),
                _ => return None,
            },
            Type::F64 => Value::F64(f64_from_order_bits(u64::from_be_bytes(arr(bytes)?))?),
            Type::F32 => Value::F32(f32_from_order_bits(u32::from_be_bytes(arr(bytes)?))?),
            Type::Uuid => Value::Uuid(u128::from_be_bytes(arr(bytes)?)),
            Type::I32 => Value::I32((u32::from_be_bytes(arr(bytes)?) ^ 0x8000_0000) as i32),
            Type::I64 => {
                Value::I64((u64::from_be_bytes(arr(bytes)?) ^ 0x8000_0000_0000_0000) as i64)
            }
            Type::Ts => Value::Ts((u64::from_be_bytes(arr(bytes)?) ^ 0x8000_0000_0000_0000) as i64),
            Type::U64 => Value::U64(u64::from_be_bytes(arr(bytes)?)),
            Type::U32 => Value::U32(u32::from_be_bytes(arr(bytes)?)),
            Type::Dec | Type::Bytes | Type::Str | Type::Vi64 | Type::Vu64 => return None,
        })
    }
}

#[inline]
fn put(buf: &mut [u8; 16], src: &[u8]) -> usize {
    buf[..src.len()].copy_from_slice(src);
    src.len()
}

/// The canonical NaN of `f32`.
pub use crate::order::CANONICAL_NAN_F32;
/// The canonical NaN of `f64`, the only NaN a key holds.
pub use crate::order::CANONICAL_NAN_F64;

use crate::order::NanRule;

/// The order-preserving bits of an `f64`: sign clear → flip the sign bit;
/// sign set → flip all bits. Every NaN maps to the canonical NaN first
/// ([`crate::order::f64_to_order`] with [`NanRule::Canonical`]).
///
/// ```
/// use lexikey::value::f64_order_bits;
/// assert_eq!(f64_order_bits(1.0), 0xBFF0_0000_0000_0000);
/// assert_eq!(f64_order_bits(-1.0), 0x400F_FFFF_FFFF_FFFF);
/// assert!(f64_order_bits(-0.0) < f64_order_bits(0.0));
/// assert!(f64_order_bits(f64::INFINITY) < f64_order_bits(f64::NAN));
/// ```
#[inline(always)]
pub fn f64_order_bits(v: f64) -> u64 {
    crate::order::f64_to_order(v, NanRule::Canonical)
}

/// Inverse of [`f64_order_bits`]; `None` for a non-canonical NaN.
#[inline(always)]
pub fn f64_from_order_bits(b: u64) -> Option<f64> {
    crate::order::f64_from_order(b, NanRule::Canonical)
}

/// The order-preserving bits of an `f32` (see [`f64_order_bits`]).
#[inline(always)]
pub fn f32_order_bits(v: f32) -> u32 {
    crate::order::f32_to_order(v, NanRule::Canonical)
}

/// Inverse of [`f32_order_bits`]; `None` for a non-canonical NaN.
#[inline(always)]
pub fn f32_from_order_bits(b: u32) -> Option<f32> {
    crate::order::f32_from_order(b, NanRule::Canonical)
}

impl Ord for Value<'_> {
    /// Key order: by type (tag order) first, then by value; floats by the
    /// float policy (canonical NaN last, `-0.0 < +0.0`); a null before
    /// every value of its type; lists elementwise (a list before its
    /// extensions), before every scalar.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::F64(a), Value::F64(b)) => f64_order_bits(*a).cmp(&f64_order_bits(*b)),
            (Value::F32(a), Value::F32(b)) => f32_order_bits(*a).cmp(&f32_order_bits(*b)),
            (Value::Uuid(a), Value::Uuid(b)) => a.cmp(b),
            (Value::I32(a), Value::I32(b)) => a.cmp(b),
            (Value::I64(a), Value::I64(b))
            | (Value::Ts(a), Value::Ts(b))
            | (Value::Vi64(a), Value::Vi64(b)) => a.cmp(b),
            (Value::Dec(a), Value::Dec(b)) => a.cmp(b),
            (Value::U64(a), Value::U64(b)) | (Value::Vu64(a), Value::Vu64(b)) => a.cmp(b),
            (Value::U32(a), Value::U32(b)) => a.cmp(b),
            (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
            (Value::Str(a), Value::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Value::Null(a), Value::Null(b)) => a.cmp(b),
            (Value::Null(a), b) => a.cmp(&b.ty()).then(Ordering::Less),
            (a, Value::Null(b)) => a.ty().cmp(b).then(Ordering::Greater),
            (Value::List(ta, a), Value::List(tb, b)) => ta.cmp(tb).then_with(|| a.cmp(b)),
            // A list's tag (`a`) is below every scalar's.
            (Value::List(..), _) => Ordering::Less,
            (_, Value::List(..)) => Ordering::Greater,
            (a, b) => a.ty().cmp(&b.ty()),
        }
    }
}

impl PartialOrd for Value<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value<'_> {
    /// Equality as keys: all NaNs are equal; `-0.0 != +0.0`.
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value<'_> {}

macro_rules! from_impl {
    ($t:ty, $v:ident) => {
        impl From<$t> for Value<'static> {
            fn from(v: $t) -> Self {
                Value::$v(v)
            }
        }
    };
}
from_impl!(bool, Bool);
from_impl!(f64, F64);
from_impl!(f32, F32);
from_impl!(i32, I32);
from_impl!(i64, I64);
from_impl!(u64, U64);
from_impl!(u32, U32);
from_impl!(Dec, Dec);

impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Str(Cow::Borrowed(v))
    }
}

impl From<String> for Value<'static> {
    fn from(v: String) -> Self {
        Value::Str(Cow::Owned(v))
    }
}

impl<'a> From<&'a [u8]> for Value<'a> {
    fn from(v: &'a [u8]) -> Self {
        Value::Bytes(Cow::Borrowed(v))
    }
}

impl From<Vec<u8>> for Value<'static> {
    fn from(v: Vec<u8>) -> Self {
        Value::Bytes(Cow::Owned(v))
    }
}

/// A value with the direction (and decimal width) it is encoded with: one
/// component of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component<'a> {
    /// The value.
    pub value: Value<'a>,
    /// Its direction.
    pub dir: Dir,
    /// Decimal width, as in [`Field::width`].
    pub width: Option<u8>,
    /// Nullability, as in [`Field::nulls`]: `Some` for a component of a
    /// nullable field, null ([`Value::Null`]) or not.
    pub nulls: Option<Nulls>,
    /// List depth, as in [`Field::list`]: 0 for a scalar, 1 for a
    /// [`Value::List`] of scalars, 2 for a list of lists, ….
    pub list: u8,
}

impl<'a> Component<'a> {
    /// An ascending component.
    pub fn asc(value: impl Into<Value<'a>>) -> Self {
        Component {
            value: value.into(),
            dir: Dir::Asc,
            width: None,
            nulls: None,
            list: 0,
        }
    }

    /// A descending component.
    pub fn desc(value: impl Into<Value<'a>>) -> Self {
        Component {
            value: value.into(),
            dir: Dir::Desc,
            width: None,
            nulls: None,
            list: 0,
        }
    }

    /// The component of `field` (its direction, width and nullability)
    /// holding `value`.
    ///
    /// ```
    /// use lexikey::{tuple, Component, Field, Format, Type, Value};
    /// let field = Field::parse("i64?.desc")?;
    /// let key = tuple::encode(Format::Hex, &[Component::of(field, Value::Null(Type::I64))])?;
    /// assert_eq!(key, b"-");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(field: Field, value: impl Into<Value<'a>>) -> Self {
        Component {
            value: value.into(),
            dir: field.dir,
            width: field.width,
            nulls: field.nulls,
            list: field.list,
        }
    }

    /// Whether the value is a null ([`Value::Null`]).
    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null(_))
    }

    /// The schema field this component fits.
    pub fn field(&self) -> Field {
        Field {
            ty: self.value.ty(),
            dir: self.dir,
            width: self.width,
            nulls: self.nulls,
            list: self.list,
        }
    }

    /// An owned copy.
    pub fn into_owned(self) -> Component<'static> {
        Component {
            value: self.value.into_owned(),
            dir: self.dir,
            width: self.width,
            nulls: self.nulls,
            list: self.list,
        }
    }

    /// Compares two components as their keys compare: the value order,
    /// reversed when the component is descending; a null before (after,
    /// with [`Nulls::Last`]) every value, whatever the direction.
    pub fn key_cmp(&self, other: &Self) -> Ordering {
        match (&self.value, &other.value) {
            (Value::Null(_), Value::Null(_)) => self.value.cmp(&other.value),
            (Value::Null(_), _) | (_, Value::Null(_)) => {
                let null_first = if self.is_null() {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                match self.nulls.or(other.nulls) {
                    Some(Nulls::Last) => null_first.reverse(),
                    _ => null_first,
                }
            }
            _ => self.dir.apply(self.value.cmp(&other.value)),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn from_tag_reads_every_tag_and_nothing_else() {
        use super::{Dir, Type};
        for b in 0..=255u8 {
            let want = Type::ALL.into_iter().find_map(|t| {
                let tag = t.tag()?;
                if b == tag {
                    Some((t, Dir::Asc))
                } else if b == tag.to_ascii_uppercase() {
                    Some((t, Dir::Desc))
                } else {
                    None
                }
            });
            assert_eq!(Type::from_tag(b), want, "{b:#x}");
        }
    }

    #[test]
    fn fixed_len_table_is_each_types_width() {
        use super::Type;
        for t in Type::ALL.into_iter().chain(Type::COMPACT) {
            let want = match t {
                Type::Bool => Some(1),
                Type::I32 | Type::U32 | Type::F32 => Some(4),
                Type::I64 | Type::U64 | Type::F64 | Type::Ts => Some(8),
                Type::Uuid => Some(16),
                Type::Dec | Type::Bytes | Type::Str | Type::Vi64 | Type::Vu64 => None,
            };
            assert_eq!(t.fixed_len(), want, "{t}");
        }
    }
}
