//! The interop profiles as whole keys: the component and schema syntax of
//! `fdb-tuple`, `hbase-ordered` and `phoenix`, rows encoded and decoded,
//! and exact ranges — what the `lexikey` command, the Python and the Java
//! bindings share, written once.
//!
//! The byte layouts themselves are [`crate::interop`]'s; this module is the
//! layer above them that a front end calls:
//!
//! - [`Profile`]: the profiles by name (with the native [`Format`](crate::Format)s, every
//!   name a `format` option takes: [`KeyFormat`](super::key_format::KeyFormat)).
//! - [`Item`] / [`Row`]: typed components of a profile, parsed from
//!   `TYPE[.desc]:VALUE` text by [`parse_item`] / [`parse_components`] or
//!   built from values; [`encode_row`] writes the key (Phoenix: salted).
//! - [`Schema`] ([`parse_schema`]) and [`decode_key`]: keys back to
//!   [`Decoded`] values, canonically.
//! - [`ProfileRange`]: the typed range builder (like
//!   [`crate::range::RangeQuery`] for the native formats), taking
//!   [`Pred`]icates on [`Item`]s and returning one [`KeyRange`], or one per
//!   salt bucket for a salted Phoenix table.
//!
//! # Ranges
//!
//! A range holds the keys whose leading components are the prefix and
//! whose next component satisfies every predicate. Every bound is exact (no
//! key outside the answer lies inside the range, no key of the answer
//! outside it):
//!
//! - **fdb-tuple**: with no predicate, FoundationDB's own
//!   `Subspace(prefix).range()`: `[prefix + 00, prefix + FF)`, the tuples
//!   that extend the prefix by at least one element (the prefix tuple
//!   itself is not in it). Predicates compare elements in the tuple layer's
//!   order, which orders types by type code (null < bytes < str < … < int <
//!   f32 < f64 < bool < uuid < versionstamp). `Eq(e)` is `[p+pack(e),
//!   p+pack(e)+FF)`: the tuple `(prefix…, e)` and every tuple extending it.
//! - **hbase-ordered** and **phoenix**: with no predicate, every row whose
//!   leading fields are the prefix, including the row whose remaining
//!   fields are all null (which `Struct` and Phoenix write as the prefix
//!   alone). Comparisons and prefixes never match a null next field, as in
//!   SQL; `Eq` with a null value matches the rows whose next field is null.
//!
//! Salted Phoenix tables: the salt byte hashes the whole row key, so a
//! range is one sub-range per bucket, `[b ‖ start, b ‖ end)` for `b` = 0 …
//! N−1 ([`crate::store::salt::salted_range`]).
//!
//! ```
//! use lexikey::frontend::profile::{parse_item, Options, Profile, ProfileRange};
//! use lexikey::range::Pred;
//!
//! // FoundationDB: users aged 18 to 64, as Subspace(("users",)) keys.
//! let o = Options::default();
//! let fdb = |t| parse_item(Profile::Fdb, t, &o);
//! let r = ProfileRange::new(Profile::Fdb, o)
//!     .prefix(vec![fdb("str:users")?])
//!     .pred(Pred::Ge(fdb("int:18")?))
//!     .pred(Pred::Lt(fdb("int:65")?))
//!     .build()?;
//! assert_eq!(r[0].start.as_deref(), Some(&b"\x02users\x00\x15\x12"[..]));
//! assert_eq!(r[0].end.as_deref(), Some(&b"\x02users\x00\x15\x41"[..]));
//!
//! // HBase OrderedBytes: a descending int64 under a text field.
//! let hb = |t| parse_item(Profile::Hbase, t, &o);
//! let r = ProfileRange::new(Profile::Hbase, o)
//!     .prefix(vec![hb("text:eu")?])
//!     .pred(Pred::Ge(hb("int64.desc:100")?))
//!     .build()?;
//! assert_eq!(lexikey::to_hex(r[0].start.as_deref().unwrap()), "34657500d3");
//! assert_eq!(lexikey::to_hex(r[0].end.as_deref().unwrap()), "34657500d37fffffffffffff9c");
//!
//! // Apache Phoenix, SALT_BUCKETS = 2: one range per bucket.
//! let salted = Options { salt: Some(2), ..Options::default() };
//! let px = |t| parse_item(Profile::Phoenix, t, &salted);
//! let r = ProfileRange::new(Profile::Phoenix, salted)
//!     .prefix(vec![px("varchar:us")?])
//!     .build()?;
//! let hex: Vec<_> = r.iter().map(|r| lexikey::to_hex(r.start.as_deref().unwrap())).collect();
//! assert_eq!(hex, ["007573", "017573"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::interop::{fdb, hbase, phoenix, ValueError};
use crate::range::{prefix_end, Bounds, KeyRange, Pred, RangeError, Span};
use crate::value::ParseError;
use crate::DecodeError;

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

/// An interop profile: the byte layout of keys another system writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The FoundationDB tuple layer (`fdb-tuple`).
    Fdb,
    /// HBase `OrderedBytes` fields in a `Struct` (`hbase-ordered`).
    Hbase,
    /// Apache Phoenix row keys (`phoenix`).
    Phoenix,
}

impl Profile {
    /// The profiles' names, for messages.
    pub const NAMES: &'static str = "fdb-tuple, hbase-ordered, phoenix";

    /// The profile named `name`.
    pub fn parse(name: &str) -> Option<Profile> {
        match name {
            "fdb-tuple" => Some(Profile::Fdb),
            "hbase-ordered" => Some(Profile::Hbase),
            "phoenix" => Some(Profile::Phoenix),
            _ => None,
        }
    }

    /// The profile's name (`fdb-tuple`, `hbase-ordered`, `phoenix`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Fdb => "fdb-tuple",
            Profile::Hbase => "hbase-ordered",
            Profile::Phoenix => "phoenix",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of an interop profile.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Phoenix's `SALT_BUCKETS` (1 to 256; Phoenix only).
    pub salt: Option<u16>,
    /// The numeric encoding of `hbase-ordered` (HBase 2.5.0 and later by
    /// default, or 2.4.x and older).
    pub hbase: hbase::Codec,
    /// `phoenix`: round a DECIMAL of more than 38 digits as Phoenix does
    /// (default: refuse it).
    pub rounding: phoenix::DecimalRounding,
}

/// Why a profile key could not be written: one readable line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProfileError(String);

impl ProfileError {
    fn new(msg: String) -> ProfileError {
        ProfileError(msg)
    }
}

impl From<ParseError> for ProfileError {
    fn from(e: ParseError) -> Self {
        ProfileError(e.to_string())
    }
}

// ---------------------------------------------------------------------------
// Components and schemas
// ---------------------------------------------------------------------------

/// One typed component of a profile: a tuple element, or a field or column
/// with its value.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A FoundationDB tuple element.
    Fdb(fdb::Element),
    /// An HBase `Struct` field and its value.
    Hbase(hbase::Field, hbase::Value),
    /// A Phoenix primary-key column and its value.
    Phoenix(phoenix::Column, phoenix::Value),
}

impl Item {
    /// The profile the item belongs to.
    pub fn profile(&self) -> Profile {
        match self {
            Item::Fdb(_) => Profile::Fdb,
            Item::Hbase(..) => Profile::Hbase,
            Item::Phoenix(..) => Profile::Phoenix,
        }
    }

    /// The item as `TYPE[.desc]:VALUE` in its profile's syntax (what
    /// [`parse_item`] reads back; a bare type is null).
    pub fn to_text(&self) -> String {
        match self {
            Item::Fdb(e) => fdb::format_component(e),
            Item::Hbase(f, v) => hbase::format_component(*f, v),
            Item::Phoenix(c, v) => phoenix::format_component(*c, v),
        }
    }
}

/// Parses one `TYPE[.desc]:VALUE` component in `profile`'s syntax.
///
/// # Errors
/// The profile's parse error.
pub fn parse_item(profile: Profile, text: &str, opts: &Options) -> Result<Item, ParseError> {
    Ok(match profile {
        Profile::Fdb => Item::Fdb(fdb::parse_component(text)?),
        Profile::Hbase => {
            let (f, v) = hbase::parse_component(text)?;
            Item::Hbase(f, v)
        }
        Profile::Phoenix => {
            let (c, v) = phoenix::parse_component_with(text, opts.rounding)?;
            Item::Phoenix(c, v)
        }
    })
}

/// Components of one key, typed in a profile's model.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    /// Tuple elements.
    Fdb(Vec<fdb::Element>),
    /// Struct fields and their values.
    Hbase(Vec<hbase::Field>, Vec<hbase::Value>),
    /// Primary-key columns and their values.
    Phoenix(Vec<phoenix::Column>, Vec<phoenix::Value>),
}

impl Row {
    /// The row of `items`, all of `profile`.
    ///
    /// # Errors
    /// `(index, profile)` of the first item of another profile.
    pub fn from_items(profile: Profile, items: Vec<Item>) -> Result<Row, (usize, Profile)> {
        let mut row = match profile {
            Profile::Fdb => Row::Fdb(Vec::with_capacity(items.len())),
            Profile::Hbase => Row::Hbase(Vec::new(), Vec::new()),
            Profile::Phoenix => Row::Phoenix(Vec::new(), Vec::new()),
        };
        for (i, item) in items.into_iter().enumerate() {
            match (&mut row, item) {
                (Row::Fdb(es), Item::Fdb(e)) => es.push(e),
                (Row::Hbase(fs, vs), Item::Hbase(f, v)) => {
                    fs.push(f);
                    vs.push(v);
                }
                (Row::Phoenix(cs, vs), Item::Phoenix(c, v)) => {
                    cs.push(c);
                    vs.push(v);
                }
                (_, other) => return Err((i, other.profile())),
            }
        }
        Ok(row)
    }

    /// The number of components.
    pub fn len(&self) -> usize {
        match self {
            Row::Fdb(es) => es.len(),
            Row::Hbase(fs, _) => fs.len(),
            Row::Phoenix(cs, _) => cs.len(),
        }
    }

    /// Whether the row has no component.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Parses `TYPE[.desc]:VALUE` components in `profile`'s syntax, each an
/// [`Item`].
///
/// # Errors
/// The first component that does not parse, named.
pub fn parse_items(
    profile: Profile,
    texts: &[&str],
    opts: &Options,
) -> Result<Vec<Item>, ParseError> {
    texts
        .iter()
        .map(|t| parse_item_named(profile, t, opts))
        .collect()
}

/// [`parse_item`], the error naming the component (`component "…": …`)
/// unless the parser's message quotes it already.
///
/// # Errors
/// The component does not parse.
pub fn parse_item_named(profile: Profile, text: &str, opts: &Options) -> Result<Item, ParseError> {
    parse_item(profile, text, opts).map_err(|e| {
        let quoted = format!("{text:?}");
        if e.to_string().contains(&quoted) {
            e
        } else {
            ParseError::new(format!("component {quoted}: {e}"))
        }
    })
}

/// Parses `TYPE[.desc]:VALUE` components in `profile`'s syntax as a
/// [`Row`].
///
/// # Errors
/// The first component that does not parse, named.
pub fn parse_components(
    profile: Profile,
    texts: &[&str],
    opts: &Options,
) -> Result<Row, ParseError> {
    let items = parse_items(profile, texts, opts)?;
    // Every item is of `profile`: parse_item made it so.
    Row::from_items(profile, items)
        .map_err(|(i, p)| ParseError::new(format!("component {}: a {p} component", i + 1)))
}

/// The `fdb-tuple` type names a bulk schema may use.
pub const FDB_TYPES: &[&str] = &[
    "null",
    "bytes",
    "str",
    "int",
    "i64",
    "u64",
    "i32",
    "u32",
    "f32",
    "float",
    "f64",
    "double",
    "bool",
    "uuid",
    "versionstamp",
];

/// A schema in a profile's syntax: what its keys hold, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Schema {
    /// `fdb-tuple` element types (for bulk input only: keys are
    /// self-describing).
    Fdb(Vec<String>),
    /// `hbase-ordered` fields.
    Hbase(Vec<hbase::Field>),
    /// A Phoenix table (columns and salt).
    Phoenix(phoenix::Table),
}

impl Schema {
    /// The number of fields.
    pub fn len(&self) -> usize {
        match self {
            Schema::Fdb(t) => t.len(),
            Schema::Hbase(f) => f.len(),
            Schema::Phoenix(t) => t.columns.len(),
        }
    }

    /// Whether the schema has no field.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of field `i` (zero-based) as the schema writes it.
    ///
    /// # Panics
    /// `i` out of range.
    pub fn field_name(&self, i: usize) -> String {
        match self {
            Schema::Fdb(t) => t[i].clone(),
            Schema::Hbase(f) => f[i].to_string(),
            Schema::Phoenix(t) => t.columns[i].to_string(),
        }
    }
}

/// Parses a comma-separated schema (spaces around names are ignored);
/// `salt`: Phoenix's `SALT_BUCKETS`.
///
/// # Errors
/// An empty schema, an unknown type, a `.desc` in `fdb-tuple`, a blob-copy
/// (HBase) or VARBINARY (Phoenix) field that is not the last.
pub fn parse_schema(profile: Profile, text: &str, salt: Option<u16>) -> Result<Schema, ParseError> {
    let ctx = |e: &dyn fmt::Display| ParseError::new(format!("invalid schema {text:?}: {e}"));
    if text.trim().is_empty() {
        return Err(ctx(&"empty schema: expected TYPE[.desc],..."));
    }
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    Ok(match profile {
        Profile::Fdb => {
            let mut types = Vec::new();
            for n in names {
                if n.ends_with(".desc") || n.ends_with(".asc") {
                    return Err(ctx(&format!(
                        "{n:?}: the FoundationDB tuple layer has no sort direction"
                    )));
                }
                if !FDB_TYPES.contains(&n) {
                    return Err(ctx(&format!(
                        "unknown fdb-tuple type {n:?}: expected one of {}",
                        FDB_TYPES.join(", ")
                    )));
                }
                types.push(n.to_string());
            }
            Schema::Fdb(types)
        }
        Profile::Hbase => {
            let fields = names
                .iter()
                .map(|n| hbase::Field::parse(n))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| ctx(&e))?;
            check_hbase_fields(&fields).map_err(|e| ctx(&e))?;
            Schema::Hbase(fields)
        }
        Profile::Phoenix => {
            let mut table = phoenix::Table::parse(text).map_err(|e| ctx(&e))?;
            check_phoenix_columns(&table.columns).map_err(|e| ctx(&e))?;
            if let Some(n) = salt {
                table = table.salted(n);
            }
            Schema::Phoenix(table)
        }
    })
}

fn check_hbase_fields(fields: &[hbase::Field]) -> Result<(), String> {
    let n = fields.len();
    if let Some(i) = fields[..n.saturating_sub(1)]
        .iter()
        .position(|f| f.kind == hbase::Kind::BlobCopy)
    {
        return Err(format!(
            "field {} is blob-copy, which runs to the end of the key: only the last field may use it",
            i + 1
        ));
    }
    Ok(())
}

fn check_phoenix_columns(columns: &[phoenix::Column]) -> Result<(), String> {
    let n = columns.len();
    if let Some(i) = columns[..n.saturating_sub(1)]
        .iter()
        .position(|c| c.ty == phoenix::Type::Varbinary)
    {
        return Err(format!(
            "column {} is VARBINARY, which may only be the last primary-key column",
            i + 1
        ));
    }
    Ok(())
}

/// The message of a value the profile cannot encode; `name(i)` names
/// component `i` (zero-based).
fn value_error(e: ValueError, name: impl Fn(usize) -> String) -> String {
    match e {
        ValueError::Unencodable { field, reason } => format!("{}: {reason}", name(field)),
        ValueError::TypeMismatch { field, expected } => {
            format!("{}: expected a {expected} value", name(field))
        }
        ValueError::Schema { reason } => reason.to_string(),
    }
}

/// Encodes a row as its profile writes it (Phoenix: with the salt byte
/// when `opts.salt` is set); `name(i)` names component `i` (zero-based) in
/// messages.
///
/// ```
/// use lexikey::frontend::profile::{encode_row, parse_components, Options, Profile};
/// let o = Options::default();
/// let row = parse_components(Profile::Phoenix, &["varchar:a", "bigint.desc:1"], &o)?;
/// let key = encode_row(&row, &o, |i| format!("component {}", i + 1))?;
/// assert_eq!(lexikey::to_hex(&key), "61007ffffffffffffffe");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A value the profile cannot write, a blob-copy or VARBINARY component
/// that is not the last.
pub fn encode_row(
    row: &Row,
    opts: &Options,
    name: impl Fn(usize) -> String,
) -> Result<Vec<u8>, ProfileError> {
    let mut key = Vec::new();
    encode_row_into(row, opts, name, &mut key)?;
    Ok(key)
}

/// [`encode_row`] appending to `key`.
///
/// # Errors
/// As [`encode_row`]; `key` may then hold part of the key.
pub fn encode_row_into(
    row: &Row,
    opts: &Options,
    name: impl Fn(usize) -> String,
    key: &mut Vec<u8>,
) -> Result<(), ProfileError> {
    match row {
        Row::Fdb(elems) => fdb::pack(elems, key),
        Row::Hbase(fields, values) => {
            check_hbase_fields(fields).map_err(ProfileError::new)?;
            (opts.hbase)
                .encode_struct(fields, values, key)
                .map_err(|e| ProfileError::new(value_error(e, name)))?;
        }
        Row::Phoenix(columns, values) => {
            check_phoenix_columns(columns).map_err(ProfileError::new)?;
            let mut table = phoenix::Table::new(columns.clone());
            if let Some(n) = opts.salt {
                table = table.salted(n);
            }
            phoenix::encode_row_key(&table, values, key)
                .map_err(|e| ProfileError::new(value_error(e, name)))?;
        }
    }
    Ok(())
}

/// Parses one bulk row: the value texts (without `TYPE:`) of the schema's
/// fields, in order. Messages name the line (`lineno`), the value and its
/// field.
///
/// # Errors
/// The first value that does not parse.
pub fn parse_cells(
    schema: &Schema,
    cells: &[&str],
    lineno: u64,
    opts: &Options,
) -> Result<Row, ParseError> {
    let at = |i: usize, e: &dyn fmt::Display| {
        ParseError::new(format!(
            "line {lineno}, value {} ({}): {e}",
            i + 1,
            schema.field_name(i)
        ))
    };
    Ok(match schema {
        Schema::Fdb(types) => Row::Fdb(
            types
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (ty, c))| {
                    fdb::parse_component(&format!("{ty}:{c}")).map_err(|e| at(i, &e))
                })
                .collect::<Result<_, _>>()?,
        ),
        Schema::Hbase(fields) => Row::Hbase(
            fields.clone(),
            fields
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (f, c))| hbase::parse_value(f.kind, c).map_err(|e| at(i, &e)))
                .collect::<Result<_, _>>()?,
        ),
        Schema::Phoenix(table) => Row::Phoenix(
            table.columns.clone(),
            table
                .columns
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (col, c))| {
                    phoenix::parse_value_with(col.ty, c, opts.rounding).map_err(|e| at(i, &e))
                })
                .collect::<Result<_, _>>()?,
        ),
    })
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// A decoded key.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoded {
    /// Tuple elements.
    Fdb(Vec<fdb::Element>),
    /// One value per struct field (null after the end of the key).
    Hbase(Vec<(hbase::Field, hbase::Value)>),
    /// One value per primary-key column (null after the end of the key).
    Phoenix(Vec<(phoenix::Column, phoenix::Value)>),
}

/// Decodes `key` (canonically: keys the Java side or FoundationDB bindings
/// could not have written are errors). `None` or an `fdb-tuple` schema
/// reads a tuple (keys are self-describing).
///
/// ```
/// use lexikey::frontend::profile::{component_texts, decode_key, parse_schema, Profile};
/// let schema = parse_schema(Profile::Hbase, "numeric,text", None)?;
/// let key = [0x18, 0x02, 0x34, b'f', b'o', b'o', 0x00];
/// let d = decode_key(Some(&schema), &key, Default::default())?;
/// assert_eq!(component_texts(&d), ["numeric:1", "text:foo"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The decoder's error, with the offset of the byte at fault.
pub fn decode_key(
    schema: Option<&Schema>,
    key: &[u8],
    codec: hbase::Codec,
) -> Result<Decoded, DecodeError> {
    Ok(match schema {
        None | Some(Schema::Fdb(_)) => Decoded::Fdb(fdb::unpack(key)?),
        Some(Schema::Hbase(fields)) => {
            let values = codec.decode_struct(fields, key)?;
            Decoded::Hbase(fields.iter().copied().zip(values).collect())
        }
        Some(Schema::Phoenix(table)) => {
            let values = phoenix::decode_row_key(table, key)?;
            Decoded::Phoenix(table.columns.iter().copied().zip(values).collect())
        }
    })
}

/// The components of a decoded key in the profile's `TYPE[.desc]:VALUE`
/// syntax (what [`parse_components`] reads back; a bare type is null).
pub fn component_texts(d: &Decoded) -> Vec<String> {
    match d {
        Decoded::Fdb(es) => es.iter().map(fdb::format_component).collect(),
        Decoded::Hbase(vs) => vs
            .iter()
            .map(|(f, v)| hbase::format_component(*f, v))
            .collect(),
        Decoded::Phoenix(vs) => vs
            .iter()
            .map(|(c, v)| phoenix::format_component(*c, v))
            .collect(),
    }
}

/// Calls `f` with each component's text of [`component_texts`] (its
/// index, the text), written into `buf` — for `phoenix` with no
/// allocation but for timestamps and binary values.
///
/// # Errors
/// The first error of `f`.
///
/// ```
/// use lexikey::frontend::profile::{decode_key, for_each_component_text, parse_schema, Profile};
/// let schema = parse_schema(Profile::Phoenix, "varchar,bigint", None)?;
/// let key = b"a\x00\x80\x00\x00\x00\x00\x00\x00\x05";
/// let d = decode_key(Some(&schema), key, Default::default())?;
/// let mut texts = Vec::new();
/// for_each_component_text(&d, &mut String::new(), |i, t| {
///     texts.push(format!("{i} {t}"));
///     Ok::<(), ()>(())
/// }).unwrap();
/// assert_eq!(texts, ["0 varchar:a", "1 bigint:5"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn for_each_component_text<E>(
    d: &Decoded,
    buf: &mut String,
    mut f: impl FnMut(usize, &str) -> Result<(), E>,
) -> Result<(), E> {
    match d {
        Decoded::Phoenix(vs) => {
            for (i, (c, v)) in vs.iter().enumerate() {
                buf.clear();
                phoenix::write_component(*c, v, buf);
                f(i, buf)?;
            }
            Ok(())
        }
        _ => {
            for (i, t) in component_texts(d).iter().enumerate() {
                f(i, t)?;
            }
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------
// Ranges
// ---------------------------------------------------------------------------

/// A range query over a profile's keys: fixed leading components and
/// [`Pred`]icates on the next one (several intersect). See the [module
/// docs](self) for what each profile's bounds mean.
#[derive(Debug, Clone)]
pub struct ProfileRange {
    profile: Profile,
    opts: Options,
    prefix: Vec<Item>,
    preds: Vec<Pred<Item>>,
}

impl ProfileRange {
    /// A query over `profile`'s keys with no prefix and no predicate.
    pub fn new(profile: Profile, opts: Options) -> ProfileRange {
        ProfileRange {
            profile,
            opts,
            prefix: Vec::new(),
            preds: Vec::new(),
        }
    }

    /// Sets the fixed leading components.
    pub fn prefix(mut self, items: Vec<Item>) -> ProfileRange {
        self.prefix = items;
        self
    }

    /// Adds a predicate on the next component.
    pub fn pred(mut self, p: Pred<Item>) -> ProfileRange {
        self.preds.push(p);
        self
    }

    /// The key ranges: one, or one per bucket (bucket 0 first) for a
    /// salted Phoenix table.
    ///
    /// # Errors
    /// [`RangeError::Component`] for a prefix component that cannot be
    /// written, [`RangeError::Predicate`] for a predicate that cannot be
    /// used (another type than the others, a null compared, ...),
    /// [`RangeError::Mismatch`] for a query these keys cannot answer,
    /// [`RangeError::Empty`] when no key can match.
    pub fn build(&self) -> Result<Vec<KeyRange>, RangeError> {
        if let Some(n) = self.opts.salt {
            if self.profile != Profile::Phoenix {
                return Err(RangeError::Mismatch(format!(
                    "salt buckets apply only to phoenix among the profiles, not {}",
                    self.profile
                )));
            }
            if n == 0 || n > 256 {
                return Err(RangeError::Mismatch(format!(
                    "invalid salt buckets {n}: expected 1 to 256 (Phoenix's SALT_BUCKETS)"
                )));
            }
        }
        let row = Row::from_items(self.profile, self.prefix.clone()).map_err(|(i, p)| {
            RangeError::Component {
                index: i,
                reason: format!("a {p} component in a {} range", self.profile),
            }
        })?;
        for (i, p) in self.preds.iter().enumerate() {
            if let Some(item) = p.value().filter(|v| v.profile() != self.profile) {
                return Err(RangeError::Predicate {
                    index: i,
                    name: p.name(),
                    reason: format!("a {} value in a {} range", item.profile(), self.profile),
                });
            }
            if let Pred::IsNull(_) | Pred::NotNull(_) = p {
                return Err(RangeError::Predicate {
                    index: i,
                    name: p.name(),
                    reason: format!(
                        "{} applies to a nullable component of the native formats (TYPE?), not to a {} range",
                        p.name(),
                        self.profile
                    ),
                });
            }
            if let Pred::Prefix(_, d) = p {
                if d.is_desc() {
                    return Err(RangeError::Predicate {
                        index: i,
                        name: p.name(),
                        reason: "a prefix applies to an ascending text".to_string(),
                    });
                }
            }
        }
        let range = match &row {
            Row::Fdb(prefix) => fdb_range(prefix, &self.preds)?,
            Row::Hbase(fields, values) => {
                hbase_range(fields, values, &self.preds, self.opts.hbase)?
            }
            Row::Phoenix(columns, values) => phoenix_range(columns, values, &self.preds)?,
        };
        Ok(match self.opts.salt {
            None => vec![range],
            // n <= 256 (checked above): every bucket is a byte.
            Some(n) => (0..n)
                .map(|b| crate::store::salt::salted_range(&[b as u8], &range))
                .collect(),
        })
    }
}

fn cat(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(a.len() + b.len());
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    v
}

fn pred_error(i: usize, p: &Pred<Item>, reason: impl fmt::Display) -> RangeError {
    RangeError::Predicate {
        index: i,
        name: p.name(),
        reason: reason.to_string(),
    }
}

/// A profile's [`ValueError`] for component `i` as a [`RangeError`].
fn component_error(i: usize, e: ValueError) -> RangeError {
    match e {
        ValueError::Unencodable { reason, .. } => RangeError::Component {
            index: i,
            reason: reason.to_string(),
        },
        ValueError::TypeMismatch { expected, .. } => RangeError::Component {
            index: i,
            reason: format!("expected a {expected} value"),
        },
        ValueError::Schema { reason } => RangeError::Mismatch(reason.to_string()),
    }
}

/// A profile's [`ValueError`] for predicate `i` as a [`RangeError`].
fn predicate_value_error(i: usize, p: &Pred<Item>, e: ValueError) -> RangeError {
    match e {
        ValueError::Unencodable { reason, .. } => pred_error(i, p, reason),
        ValueError::TypeMismatch { expected, .. } => {
            pred_error(i, p, format!("expected a {expected} value"))
        }
        ValueError::Schema { reason } => RangeError::Mismatch(reason.to_string()),
    }
}

fn fdb_range(prefix: &[fdb::Element], preds: &[Pred<Item>]) -> Result<KeyRange, RangeError> {
    let p = fdb::pack_to_vec(prefix);
    // Subspace(prefix).range(): every tuple extending the prefix.
    let mut b = Bounds {
        start: Some(cat(&p, &[0x00])),
        end: Some(cat(&p, &[0xFF])),
        empty: false,
    };
    for pred in preds {
        match pred {
            Pred::Prefix(s, _) => {
                let mut q = p.clone();
                fdb::pack(&[fdb::Element::String(s.to_string())], &mut q);
                q.pop(); // the string's 00 terminator: longer strings continue
                b.within(Span::prefix(q));
            }
            cmp => {
                let Some(Item::Fdb(e)) = cmp.value() else {
                    unreachable!("checked by build: fdb-tuple items only")
                };
                let mut q = p.clone();
                fdb::pack(std::slice::from_ref(e), &mut q);
                // Type codes are below FF and an element's bytes never
                // continue with FF where another element of the same value
                // starts: [q, q ‖ FF) is exactly the tuples (prefix…, e, …).
                b.apply(cmp, Span::upto(q, 0xFF), false);
            }
        }
    }
    b.finish()
}

/// Checks that every predicate is on the same field, returning it.
fn same_field<F: PartialEq + fmt::Display + Copy>(
    seen: &mut Option<F>,
    f: F,
    i: usize,
    p: &Pred<Item>,
) -> Result<(), RangeError> {
    match seen {
        None => *seen = Some(f),
        Some(s) if *s == f => {}
        Some(s) => {
            return Err(pred_error(
                i,
                p,
                format!("the predicates are on one component, of type {s}; this one is {f}"),
            ))
        }
    }
    Ok(())
}

fn hbase_range(
    fields: &[hbase::Field],
    values: &[hbase::Value],
    preds: &[Pred<Item>],
    codec: hbase::Codec,
) -> Result<KeyRange, RangeError> {
    use hbase::{Field, Kind, Order, Value};
    check_hbase_fields(fields).map_err(RangeError::Mismatch)?;
    let mut p = Vec::new();
    for (i, (f, v)) in fields.iter().zip(values).enumerate() {
        codec
            .encode_value(*f, v, &mut p)
            .map_err(|e| component_error(i, e))?;
    }
    // The row whose remaining fields are all null: Struct omits trailing nulls.
    let mut row = Vec::new();
    codec
        .encode_struct(fields, values, &mut row)
        .map_err(|e| match e {
            ValueError::Unencodable { field, .. } | ValueError::TypeMismatch { field, .. } => {
                component_error(field, e)
            }
            other => component_error(0, other),
        })?;
    if fields.last().is_some_and(|f| f.kind == Kind::BlobCopy) {
        if !preds.is_empty() {
            return Err(RangeError::Mismatch(
                "no component can follow a blob-copy component: it runs to the end of the key"
                    .to_string(),
            ));
        }
        return Ok(KeyRange::new(
            (!row.is_empty()).then(|| row.clone()),
            Some(cat(&row, &[0])),
        )?);
    }
    // A descending null sorts last: the row without it is not next to the
    // rows that write it, so the range then starts at the written prefix.
    let trailing_desc_null = values
        .iter()
        .zip(fields)
        .rev()
        .take_while(|(v, _)| matches!(v, Value::Null))
        .any(|(_, f)| f.order == Order::Descending);
    let start = if trailing_desc_null { p.clone() } else { row };
    let region_start = (!start.is_empty()).then_some(start);
    let mut b = Bounds {
        start: region_start.clone(),
        end: prefix_end(&p),
        empty: false,
    };
    let mut field: Option<Field> = None;
    let mut compares = false;
    for (i, pred) in preds.iter().enumerate() {
        match pred {
            Pred::Prefix(s, _) => {
                same_field(&mut field, Field::asc(Kind::Text), i, pred)?;
                if s.contains('\0') {
                    return Err(pred_error(i, pred, "HBase text may not contain U+0000"));
                }
                compares = true;
                let mut q = cat(&p, &[hbase::TEXT]);
                q.extend_from_slice(s.as_bytes());
                b.within(Span::prefix(q));
            }
            cmp => {
                let Some(Item::Hbase(f, v)) = cmp.value() else {
                    unreachable!("checked by build: hbase-ordered items only")
                };
                let (f, v) = (*f, v);
                same_field(&mut field, f, i, pred)?;
                let desc = f.order == Order::Descending;
                let span = if matches!(v, Value::Null) {
                    if !f.kind.is_nullable() {
                        return Err(pred_error(i, pred, "a fixed-width field is never null"));
                    }
                    if !matches!(cmp, Pred::Eq(_)) {
                        return Err(pred_error(
                            i,
                            pred,
                            "a null (a bare type) only goes with --eq: comparisons never match null",
                        ));
                    }
                    if desc {
                        Span::prefix(cat(&p, &[!hbase::NULL]))
                    } else {
                        Span {
                            lo: region_start.clone(),
                            hi: Some(cat(&p, &[hbase::NULL + 1])),
                        }
                    }
                } else {
                    compares |= !matches!(cmp, Pred::Eq(_));
                    let mut q = p.clone();
                    codec
                        .encode_value(f, v, &mut q)
                        .map_err(|e| predicate_value_error(i, pred, e))?;
                    if f.kind == Kind::BlobCopy && !desc {
                        // Runs to the end of the key: longer blobs are other values.
                        Span::upto(q, 0x00)
                    } else {
                        Span::prefix(q)
                    }
                };
                b.apply(cmp, span, desc);
            }
        }
    }
    if let Some(f) = field.filter(|_| compares) {
        // Comparisons match the non-null values of the field's kind only:
        // the keys whose next header is one of the kind's (not a written
        // null, not the row written as the prefix alone).
        let (lo, hi) = match f.kind {
            Kind::Numeric => (hbase::NEG_INF, hbase::NAN),
            k => (k.header(), k.header()),
        };
        let (lo, hi) = match f.order {
            Order::Ascending => (lo, hi),
            Order::Descending => (!hi, !lo),
        };
        b.within(Span {
            lo: Some(cat(&p, &[lo])),
            hi: Some(cat(&p, &[hi + 1])),
        });
    }
    b.finish()
}

fn phoenix_range(
    columns: &[phoenix::Column],
    values: &[phoenix::Value],
    preds: &[Pred<Item>],
) -> Result<KeyRange, RangeError> {
    use phoenix::{Column, SortOrder, Type};
    check_phoenix_columns(columns).map_err(RangeError::Mismatch)?;
    let var = |c: &Column| c.ty.fixed_width().is_none();
    // The prefix as written when more columns follow: each variable-width
    // value ends with its separator (FF after a non-null DESC value).
    let mut p = Vec::new();
    for (i, (c, v)) in columns.iter().zip(values).enumerate() {
        if v.is_null() {
            if !var(c) {
                return Err(RangeError::Component {
                    index: i,
                    reason: "a fixed-width primary-key column may not be null".to_string(),
                });
            }
        } else {
            phoenix::encode_value(*c, v, &mut p).map_err(|e| component_error(i, e))?;
        }
        if var(c) && c.ty != Type::Varbinary {
            let desc_sep = c.order == SortOrder::Desc && !v.is_null();
            p.push(if desc_sep {
                phoenix::DESC_SEPARATOR
            } else {
                phoenix::SEPARATOR
            });
        }
    }
    // The row whose remaining columns are all null (trailing nulls dropped).
    let row =
        if values.iter().all(phoenix::Value::is_null) {
            Vec::new()
        } else {
            let mut row = Vec::new();
            phoenix::encode_row_key(&phoenix::Table::new(columns.to_vec()), values, &mut row)
                .map_err(|e| match e {
                    ValueError::Unencodable { field, .. }
                    | ValueError::TypeMismatch { field, .. } => component_error(field, e),
                    other => component_error(0, other),
                })?;
            row
        };
    if columns.last().is_some_and(|c| c.ty == Type::Varbinary) {
        if !preds.is_empty() {
            return Err(RangeError::Mismatch(
                "no column can follow a VARBINARY column: it may only be the last".to_string(),
            ));
        }
        return Ok(KeyRange::new(
            (!row.is_empty()).then(|| row.clone()),
            Some(cat(&row, &[0])),
        )?);
    }
    let region_start = (!row.is_empty()).then_some(row);
    let mut b = Bounds {
        start: region_start.clone(),
        end: prefix_end(&p),
        empty: false,
    };
    let mut column: Option<Column> = None;
    let mut compares = false;
    for (i, pred) in preds.iter().enumerate() {
        match pred {
            Pred::Prefix(s, _) => {
                same_field(&mut column, Column::asc(Type::Varchar), i, pred)?;
                if s.contains('\0') {
                    return Err(pred_error(
                        i,
                        pred,
                        "a Phoenix VARCHAR may not contain U+0000",
                    ));
                }
                compares = true;
                b.within(Span::prefix(cat(&p, s.as_bytes())));
            }
            cmp => {
                let Some(Item::Phoenix(c, v)) = cmp.value() else {
                    unreachable!("checked by build: phoenix items only")
                };
                let c = *c;
                same_field(&mut column, c, i, pred)?;
                let desc = c.order == SortOrder::Desc;
                let null_after = if c.ty == Type::Varbinary { 0x00 } else { 0x01 };
                let span = if v.is_null() {
                    if !var(&c) {
                        return Err(pred_error(
                            i,
                            pred,
                            "a fixed-width primary-key column is never null",
                        ));
                    }
                    if !matches!(cmp, Pred::Eq(_)) {
                        return Err(pred_error(
                            i,
                            pred,
                            "a null (a bare type or an empty value) only goes with --eq: \
                             comparisons never match null",
                        ));
                    }
                    // Null is written empty, then a 00 separator (or nothing).
                    Span {
                        lo: region_start.clone(),
                        hi: Some(cat(&p, &[null_after])),
                    }
                } else {
                    compares |= !matches!(cmp, Pred::Eq(_));
                    let mut q = p.clone();
                    phoenix::encode_value(c, v, &mut q)
                        .map_err(|e| predicate_value_error(i, pred, e))?;
                    match (c.ty, desc) {
                        // A DECIMAL is delimited like a VARCHAR: 00 (or the end of
                        // the key) after an ASC value, FF after a DESC one; neither
                        // byte occurs inside its bytes.
                        (Type::Varchar | Type::Decimal, false) => Span::upto(q, 0x01),
                        (Type::Varbinary, false) => Span::upto(q, 0x00),
                        (Type::Varbinary, true) => {
                            if !matches!(cmp, Pred::Eq(_)) {
                                return Err(pred_error(
                                    i,
                                    pred,
                                    "a DESC VARBINARY takes --eq only: its trailing FF is also an \
                                     inverted 00, so Phoenix's own key order is not the value order",
                                ));
                            }
                            q.push(phoenix::DESC_SEPARATOR);
                            Span::upto(q, 0x00)
                        }
                        (Type::Varchar | Type::Decimal, true) => {
                            q.push(phoenix::DESC_SEPARATOR);
                            Span::prefix(q)
                        }
                        _ => Span::prefix(q),
                    }
                };
                b.apply(cmp, span, desc);
            }
        }
    }
    if let Some(c) = column.filter(|_| compares) {
        // Comparisons never match null (written empty, then 00 or nothing);
        // a fixed-width value always follows the whole prefix.
        b.raise(Some(match c.ty {
            Type::Varchar | Type::Decimal => cat(&p, &[0x01]),
            Type::Varbinary => cat(&p, &[0x00]),
            _ => p.clone(),
        }));
    }
    b.finish()
}
