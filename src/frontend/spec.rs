//! A whole key layout in one value — format or profile, decimal width,
//! salt, the profiles' options, the geo grid, the longest key — and the
//! one path from components to a key and from predicates to ranges that
//! every front end calls: the `lexikey` command's `encode` and `range`, the
//! Python and the Java bindings. A front end turns its own arguments or
//! values into a [`KeySpec`] and [`Comp`]onents (parsed from
//! `TYPE[.desc]:VALUE` text by [`KeySpec::parse_components`], or built
//! from typed values), and the results and errors into its own idiom.
//!
//! ```
//! use lexikey::frontend::key_format::KeyFormat;
//! use lexikey::range::PredOp;
//! use lexikey::frontend::spec::KeySpec;
//!
//! let spec = KeySpec::new(KeyFormat::parse("hex")?);
//! let comps = spec.parse_components(&["str:population", "i64:3831868"])?;
//! assert_eq!(spec.encode(&comps)?, b"population#l80000000003A783C");
//!
//! let prefix = spec.parse_components(&["str:population"])?;
//! let ranges = spec.ranges(&prefix, vec![spec.parse_pred(PredOp::Ge, "i64:1000000")?])?;
//! assert_eq!(ranges[0].start.as_deref(), Some(&b"population#l80000000000F4240"[..]));
//! assert_eq!(ranges[0].end.as_deref(), Some(&b"population$"[..]));
//!
//! let fdb = KeySpec::new(KeyFormat::parse("fdb-tuple")?);
//! assert_eq!(fdb.encode(&fdb.parse_components(&["str:users", "int:42"])?)?, b"\x02users\x00\x15\x2a");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::frontend::host::{self, Arg, ArgError, ColType};
use crate::frontend::key_format::KeyFormat;
use crate::frontend::layout::{LayoutOption, OptionError};
use crate::frontend::native::{self, Col, GeoOpts, Kind};
use crate::frontend::profile::{self, Item, Options, Profile, ProfileRange, Row};
use crate::interop::{hbase, phoenix};
use crate::range::{Pred, PredOp, RangeError, RangeQuery};
use crate::store::salt::Salter;
use crate::tuple;
use crate::value::literal;
use crate::value::{Component, ParseError};
use crate::{Format, KeyRange};

/// One component of a key: a native component or a profile's item.
#[derive(Debug, Clone, PartialEq)]
pub enum Comp {
    /// A component of the native formats (its kind: [`Col`]).
    Native(Col, Component<'static>),
    /// A component of an interop profile.
    Profile(Item),
}

impl Comp {
    /// A native component of a core type (its [`Col`] is the type's own).
    pub fn native(c: Component<'static>) -> Comp {
        Comp::Native(Col::core(c.field()), c)
    }
}

/// Why a key could not be made: one readable line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(String);

impl SpecError {
    fn new(msg: impl Into<String>) -> SpecError {
        SpecError(msg.into())
    }
}

impl From<ParseError> for SpecError {
    fn from(e: ParseError) -> Self {
        SpecError(e.to_string())
    }
}

impl From<crate::EncodeError> for SpecError {
    fn from(e: crate::EncodeError) -> Self {
        SpecError(e.to_string())
    }
}

impl From<OptionError> for SpecError {
    fn from(e: OptionError) -> Self {
        SpecError(e.to_string())
    }
}

impl From<profile::ProfileError> for SpecError {
    fn from(e: profile::ProfileError) -> Self {
        SpecError(e.to_string())
    }
}

/// A key layout: how components become a key, and predicates ranges.
#[derive(Debug, Clone)]
pub struct KeySpec {
    format: KeyFormat,
    width: Option<u8>,
    salter: Option<Salter>,
    profile: Options,
    geo: GeoOpts,
    max_key_len: usize,
    fields: Option<Vec<crate::Field>>,
    schema: Option<Vec<ColType>>,
    /// Derived from `schema` ([`KeySpec::sync_schema`]): the native
    /// columns' core fields, the profile schema of the decoders.
    schema_fields: Vec<crate::Field>,
    profile_schema: Option<profile::Schema>,
}

impl KeySpec {
    /// The layout of `format` with every option at its default: no width,
    /// no salt, the geo grid of 32 bits per axis on the Hilbert curve, keys
    /// of at most 32,767 bytes (HBase's row-key limit).
    pub fn new(format: KeyFormat) -> KeySpec {
        KeySpec {
            format,
            width: None,
            salter: None,
            profile: Options::default(),
            geo: GeoOpts::new(None, None).expect("the default grid"),
            max_key_len: tuple::HBASE_MAX_KEY_LEN,
            fields: None,
            schema: None,
            schema_fields: Vec::new(),
            profile_schema: None,
        }
    }

    /// The key's schema (native formats): range prefixes and predicates
    /// must then be of their fields' types and directions
    /// ([`RangeQuery::fields`]).
    pub fn with_fields(mut self, fields: Option<Vec<crate::Field>>) -> KeySpec {
        self.fields = fields;
        self
    }

    /// The format.
    pub fn format(&self) -> KeyFormat {
        self.format
    }

    /// The decimal width of integer components (1 to 20; `decimal` only),
    /// applied to every integer component that has none of its own.
    ///
    /// # Errors
    /// A width with another format, or out of range
    /// ([`LayoutOption::Width`]).
    pub fn with_width(mut self, width: Option<u8>) -> Result<KeySpec, OptionError> {
        if let Some(w) = width {
            LayoutOption::Width.check_value(self.format, u32::from(w))?;
        }
        self.width = width;
        self.sync_schema();
        Ok(self)
    }

    /// Salts the keys of a native format (the salter's layout is set to the
    /// format's).
    ///
    /// # Errors
    /// A salter with an interop profile ([`LayoutOption::Salter`]:
    /// Phoenix's salt is [`Options::salt`]).
    pub fn with_salter(mut self, salter: Option<Salter>) -> Result<KeySpec, OptionError> {
        if salter.is_some() {
            LayoutOption::Salter.check(self.format)?;
        }
        self.salter = salter.map(|s| s.for_format(self.format.native()));
        Ok(self)
    }

    /// The options of the interop profile.
    ///
    /// # Errors
    /// Options that the format does not take: a salt other than Phoenix's,
    /// or one outside 1–256 ([`LayoutOption::SaltBuckets`]); a non-default
    /// HBase codec ([`LayoutOption::HbaseNumeric`]) or rounding
    /// ([`LayoutOption::Round`]) with another format.
    pub fn with_profile_options(mut self, opts: Options) -> Result<KeySpec, OptionError> {
        if let Some(n) = opts.salt {
            if self.format.profile() != Some(Profile::Phoenix) {
                return Err(OptionError::NotApplicable {
                    option: LayoutOption::SaltBuckets,
                    format: self.format,
                });
            }
            LayoutOption::SaltBuckets.check_value(self.format, u32::from(n))?;
        }
        if opts.hbase != Default::default() {
            LayoutOption::HbaseNumeric.check(self.format)?;
        }
        if opts.rounding != Default::default() {
            LayoutOption::Round.check(self.format)?;
        }
        self.profile = opts;
        self.sync_schema();
        Ok(self)
    }

    /// The grid of `geo` components.
    pub fn with_geo(mut self, geo: GeoOpts) -> KeySpec {
        self.geo = geo;
        self
    }

    /// The longest key accepted, in bytes.
    pub fn with_max_key_len(mut self, max: usize) -> KeySpec {
        self.max_key_len = max;
        self
    }

    /// The decimal width of integer components.
    pub fn width(&self) -> Option<u8> {
        self.width
    }

    /// The salter of a native format.
    pub fn salter(&self) -> Option<Salter> {
        self.salter
    }

    /// The options of the interop profile.
    pub fn profile_options(&self) -> Options {
        self.profile
    }

    /// The grid of `geo` components.
    pub fn geo(&self) -> &GeoOpts {
        &self.geo
    }

    /// The key without its salt, the salt checked: a salted native layout's
    /// bucket (one byte, or `0A#` in the text formats, [`Salter::unsalt`]),
    /// a salted Phoenix table's salt byte; the key itself when the layout
    /// is not salted. Salted keys sort by this part in the order the
    /// unsalted key would ([`KeySpec::merge_order`]).
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?)
    ///     .with_schema("str")?
    ///     .with_salter(Some(Salter::new(16, SaltMode::Fast)?))?;
    /// assert_eq!(spec.unsalted(b"08#a")?, b"a");
    /// assert!(spec.unsalted(b"07#a").is_err()); // "a" is in bucket 8
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A key shorter than its salt ([`crate::DecodeError::Truncated`]), a
    /// salt that is malformed or not the bucket the rest of the key hashes
    /// to (the errors of [`Salter::unsalt`]; Phoenix:
    /// [`crate::DecodeError::InvalidSymbol`] at offset 0).
    pub fn unsalted<'k>(&self, key: &'k [u8]) -> Result<&'k [u8], crate::DecodeError> {
        if let Some(s) = &self.salter {
            return s.unsalt(key).map(|(_, rest)| rest);
        }
        match (self.format, self.profile.salt) {
            (KeyFormat::Profile(Profile::Phoenix), Some(buckets)) => {
                let (&salt, rest) = key.split_first().ok_or(crate::DecodeError::Truncated {
                    offset: 0,
                    expected: "the salt byte",
                })?;
                if salt != phoenix::salt_byte(rest, buckets) {
                    return Err(crate::DecodeError::InvalidSymbol {
                        offset: 0,
                        found: salt,
                        expected: "the salt byte of the rest of the key",
                    });
                }
                Ok(rest)
            }
            _ => Ok(key),
        }
    }

    /// The order in which to hand out rows read back from the buckets of a
    /// salted table so that they come in the order of their keys without
    /// salt ([`KeySpec::unsalted`]) — the order the keys would have
    /// unsalted; newest first for an upside-down table. `keys` are the rows'
    /// keys as read, in any mix of buckets (one scan after another, or one
    /// read of every bucket's range); the result holds the index of every
    /// key once. The sort is stable: rows of equal unsalted keys keep their
    /// order in `keys`. An unsalted layout sorts by the whole key.
    ///
    /// Reads of each bucket come back sorted, so `keys` is a few sorted
    /// runs, which the sort merges in about `n log(runs)` comparisons.
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?)
    ///     .with_schema("str")?
    ///     .with_salter(Some(Salter::new(16, SaltMode::Fast)?))?;
    /// // As one read of every bucket returns them: bucket 06 ("b") first.
    /// let keys: [&[u8]; 2] = [b"06#b", b"08#a"];
    /// assert_eq!(spec.merge_order(&keys).map_err(|(_, e)| e)?, [1, 0]);
    /// let wrong: [&[u8]; 2] = [b"06#b", b"07#a"]; // "a" is in bucket 8
    /// assert_eq!(spec.merge_order(&wrong).unwrap_err().0, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The index of the first key that is not a key of this salt, with the
    /// error of [`KeySpec::unsalted`].
    pub fn merge_order<K: AsRef<[u8]>>(
        &self,
        keys: &[K],
    ) -> Result<Vec<usize>, (usize, crate::DecodeError)> {
        let unsalted = keys
            .iter()
            .enumerate()
            .map(|(i, k)| self.unsalted(k.as_ref()).map_err(|e| (i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&a, &b| unsalted[a].cmp(unsalted[b]));
        Ok(order)
    }

    /// The longest key accepted.
    pub fn max_key_len(&self) -> usize {
        self.max_key_len
    }

    /// Parses one `TYPE[.desc]:VALUE` component in the format's syntax
    /// (the kinds of [`crate::frontend::native`] for the native formats, the profile's
    /// own otherwise), the width applied; the error is the parser's own.
    ///
    /// # Errors
    /// The component does not parse.
    pub fn parse(&self, text: &str) -> Result<Comp, ParseError> {
        match self.format {
            KeyFormat::Native(_) => {
                let (col, mut c) = native::parse_component(text, &self.geo)?;
                native::apply_width(&mut c, self.width);
                Ok(Comp::Native(col, c))
            }
            KeyFormat::Profile(p) => {
                Ok(Comp::Profile(profile::parse_item(p, text, &self.profile)?))
            }
        }
    }

    /// Parses components, naming the one that does not parse.
    ///
    /// # Errors
    /// The first component that does not parse.
    pub fn parse_components(&self, texts: &[&str]) -> Result<Vec<Comp>, ParseError> {
        texts.iter().map(|t| self.parse_named(t)).collect()
    }

    /// [`KeySpec::parse`], the error naming the component (`component
    /// "i65:1": …`) as [`KeySpec::parse_components`] names it.
    ///
    /// # Errors
    /// The component does not parse.
    pub fn parse_named(&self, text: &str) -> Result<Comp, ParseError> {
        match self.format {
            KeyFormat::Native(_) => self.parse(text).map_err(|e| {
                ParseError::new(format!("component {}: {e}", literal::show_input(text)))
            }),
            KeyFormat::Profile(p) => {
                profile::parse_item_named(p, text, &self.profile).map(Comp::Profile)
            }
        }
    }

    // -----------------------------------------------------------------------
    // Typed values (crate::frontend::host)
    // -----------------------------------------------------------------------

    /// Parses a column type `TYPE[.desc]` in the format's syntax (a native
    /// integer type gets the layout's width).
    ///
    /// # Errors
    /// An unknown type or direction.
    pub fn col_type(&self, spec: &str) -> Result<ColType, ParseError> {
        let mut t = ColType::parse(self.format, spec)?;
        if let ColType::Native(c) = &mut t {
            c.apply_width(self.width);
        }
        Ok(t)
    }

    /// The component of type `ty` holding the host value `arg` (the rules
    /// of [`crate::frontend::host`]): a `(type, value)` pair.
    ///
    /// ```
    /// use lexikey::frontend::host::Arg;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let fdb = KeySpec::new(KeyFormat::parse("fdb-tuple")?);
    /// let c = fdb.typed(&fdb.col_type("int")?, Arg::BigInt { negative: true, magnitude: &[1, 0, 0, 0, 0, 0, 0, 0, 0] })?;
    /// assert_eq!(c.to_string(), "int:-18446744073709551616");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An argument the type does not take, a value out of its range, a
    /// column type of another format.
    pub fn typed(&self, ty: &ColType, arg: Arg<'_>) -> Result<Comp, ArgError> {
        Ok(match (self.format, ty) {
            (KeyFormat::Native(_), ColType::Native(col)) => {
                let value = host::native_value(col, arg, &self.geo)?.into_owned();
                let mut c = Component {
                    value,
                    dir: col.field.dir,
                    width: col.field.width,
                    nulls: col.field.nulls,
                    list: col.field.list,
                };
                if c.width.is_none() {
                    native::apply_width(&mut c, self.width);
                }
                Comp::Native(*col, c)
            }
            (KeyFormat::Profile(Profile::Fdb), ColType::Fdb(t)) => {
                Comp::Profile(Item::Fdb(host::fdb_element(*t, arg)?))
            }
            (KeyFormat::Profile(Profile::Hbase), ColType::Hbase(f)) => {
                Comp::Profile(Item::Hbase(*f, host::hbase_value(*f, arg)?))
            }
            (KeyFormat::Profile(Profile::Phoenix), ColType::Phoenix(c)) => Comp::Profile(
                Item::Phoenix(*c, host::phoenix_value(*c, arg, self.profile.rounding)?),
            ),
            (f, t) => {
                return Err(ArgError::Invalid(format!(
                    "a column type of another format ({t}) in a {f} key"
                )))
            }
        })
    }

    /// [`KeySpec::typed`] with the type given as text: a `(type, value)`
    /// pair as a binding receives it.
    ///
    /// # Errors
    /// A type that does not parse ([`ArgError::Parse`]); as
    /// [`KeySpec::typed`].
    pub fn pair(&self, ty: &str, arg: Arg<'_>) -> Result<Comp, ArgError> {
        self.typed(&self.col_type(ty)?, arg)
    }

    /// Whether a string given where a component is expected is a component
    /// text (`TYPE[.desc]:VALUE`, or a bare type: a null, in the interop
    /// profiles and, nullable, `TYPE?`, in the native formats) rather than
    /// a plain string value: every string holding a `:` is one, so that a
    /// mistyped type (`i65:1`) is an error, never a string (a string value
    /// holding `:` is given with its type).
    pub fn is_component(&self, text: &str) -> bool {
        text.contains(':')
            || match self.format {
                KeyFormat::Native(_) => native::null_col(text).is_some(),
                KeyFormat::Profile(Profile::Fdb) => text == "null",
                KeyFormat::Profile(Profile::Hbase) => hbase::Field::parse(text).is_ok(),
                KeyFormat::Profile(Profile::Phoenix) => phoenix::Column::parse(text).is_ok(),
            }
    }

    /// The type a plain value (no type given) takes in this format: a
    /// string is a `str` (`text`, `varchar`), an integer an `i64` (`int`,
    /// `int64`, `bigint`), a float an `f64` (`double`…), an instant a
    /// `ts` (Phoenix `timestamp`), a decimal a `dec` (`numeric`,
    /// `decimal`), and so on for each format.
    ///
    /// # Errors
    /// [`ArgError::NoPlainType`] for a value the format has no type for
    /// (a null or an instant in some, any [`Arg::Other`]);
    /// [`ArgError::PlainIntOutOfRange`] for an integer beyond `i64` in the
    /// native formats.
    pub fn plain_type(&self, a: Arg<'_>) -> Result<ColType, ArgError> {
        use crate::frontend::host::ArgKind as K;
        let none = || ArgError::NoPlainType {
            kind: a.kind(),
            format: self.format,
        };
        let name = match (self.format, a.kind()) {
            (KeyFormat::Native(_), k) => match (k, a) {
                (_, Arg::BigInt { .. }) => {
                    return Err(ArgError::PlainIntOutOfRange {
                        value: match host::int_text(a) {
                            Some(t) if t.len() > 64 => {
                                format!("{}…({} digits)", &t[..64], t.trim_start_matches('-').len())
                            }
                            t => t.unwrap_or_default(),
                        },
                    })
                }
                (_, Arg::F32(_)) => "f32",
                (K::Str, _) => "str",
                (K::Int, _) => "i64",
                (K::Float, _) => "f64",
                (K::Bool, _) => "bool",
                (K::Bytes, _) => "bytes",
                (K::Time, _) => "ts",
                (K::Uuid, _) => "uuid",
                (K::Decimal, _) => "dec",
                (K::Geo, _) => "geo",
                _ => return Err(none()),
            },
            (KeyFormat::Profile(Profile::Fdb), k) => match (k, a) {
                (_, Arg::F32(_)) => "f32",
                (K::Null, _) => "null",
                (K::Str, _) => "str",
                (K::Int, _) => "int",
                (K::Float, _) => "f64",
                (K::Bool, _) => "bool",
                (K::Bytes, _) => "bytes",
                (K::Uuid, _) => "uuid",
                (K::Versionstamp, _) => "versionstamp",
                _ => return Err(none()),
            },
            (KeyFormat::Profile(Profile::Hbase), k) => match (k, a) {
                (_, Arg::F32(_)) => "float32",
                (K::Str, _) => "text",
                (K::Int, _) => "int64",
                (K::Float, _) => "float64",
                (K::Bytes, _) => "blob-var",
                (K::Decimal, _) => "numeric",
                _ => return Err(none()),
            },
            (KeyFormat::Profile(Profile::Phoenix), k) => match (k, a) {
                (_, Arg::F32(_)) => "float",
                (K::Str, _) => "varchar",
                (K::Int, _) => "bigint",
                (K::Float, _) => "double",
                (K::Bool, _) => "boolean",
                (K::Bytes, _) => "varbinary",
                (K::Time, _) => "timestamp",
                (K::Decimal, _) => "decimal",
                _ => return Err(none()),
            },
        };
        Ok(self.col_type(name)?)
    }

    /// The component of an argument given without a type: a component
    /// text ([`Arg::Component`], or a [`Arg::Str`] that
    /// [`KeySpec::is_component`]) parsed, any other value typed by
    /// [`KeySpec::plain_type`].
    ///
    /// ```
    /// use lexikey::frontend::host::Arg;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?);
    /// let comps = [spec.arg(Arg::Str("population"))?, spec.arg(Arg::Str("i64.desc:5"))?];
    /// assert_eq!(spec.encode(&comps)?, b"population#L7FFFFFFFFFFFFFFA");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A component text that does not parse ([`ArgError::Parse`], named as
    /// [`KeySpec::parse_named`] names it); as [`KeySpec::plain_type`] and
    /// [`KeySpec::typed`].
    pub fn arg(&self, a: Arg<'_>) -> Result<Comp, ArgError> {
        match a {
            Arg::Component(t) => Ok(self.parse_named(t)?),
            Arg::Str(t) if self.is_component(t) => Ok(self.parse_named(t)?),
            _ => self.typed(&self.plain_type(a)?, a),
        }
    }

    /// Sets the schema: the column types of the layout's keys, in the
    /// format's syntax (`str,i64.desc`; `varchar,bigint`; an `fdb-tuple`
    /// schema lists element types), for [`KeySpec::field`],
    /// [`KeySpec::encoder`] and [`KeySpec::decode`]. Native integer
    /// columns get the layout's width; a Phoenix table its salt (set the
    /// profile options first).
    ///
    /// # Errors
    /// A schema that does not parse in the format's syntax.
    pub fn with_schema(mut self, text: &str) -> Result<KeySpec, ParseError> {
        let cols = match self.format {
            KeyFormat::Native(_) => native::parse_schema(text, self.width)?
                .into_iter()
                .map(ColType::Native)
                .collect(),
            KeyFormat::Profile(p) => match profile::parse_schema(p, text, self.profile.salt)? {
                profile::Schema::Fdb(types) => types
                    .iter()
                    .map(|t| ColType::parse(self.format, t))
                    .collect::<Result<_, _>>()?,
                profile::Schema::Hbase(fields) => fields.into_iter().map(ColType::Hbase).collect(),
                profile::Schema::Phoenix(t) => {
                    t.columns.into_iter().map(ColType::Phoenix).collect()
                }
            },
        };
        self.schema = Some(cols);
        self.sync_schema();
        Ok(self)
    }

    /// Brings what is derived from the schema up to date with the width
    /// and the profile options.
    fn sync_schema(&mut self) {
        let Some(cols) = &mut self.schema else {
            return;
        };
        for c in cols.iter_mut() {
            if let ColType::Native(col) = c {
                col.apply_width(self.width);
            }
        }
        self.schema_fields = cols
            .iter()
            .filter_map(|c| match c {
                ColType::Native(col) => Some(col.field),
                _ => None,
            })
            .collect();
        self.profile_schema = match self.format {
            KeyFormat::Native(_) => None,
            KeyFormat::Profile(Profile::Fdb) => Some(profile::Schema::Fdb(
                cols.iter().map(ToString::to_string).collect(),
            )),
            KeyFormat::Profile(Profile::Hbase) => Some(profile::Schema::Hbase(
                cols.iter()
                    .filter_map(|c| match c {
                        ColType::Hbase(f) => Some(*f),
                        _ => None,
                    })
                    .collect(),
            )),
            KeyFormat::Profile(Profile::Phoenix) => {
                let mut t = phoenix::Table::new(
                    cols.iter()
                        .filter_map(|c| match c {
                            ColType::Phoenix(c) => Some(*c),
                            _ => None,
                        })
                        .collect(),
                );
                if let Some(n) = self.profile.salt {
                    t = t.salted(n);
                }
                Some(profile::Schema::Phoenix(t))
            }
        };
    }

    /// The schema's column types.
    pub fn schema(&self) -> Option<&[ColType]> {
        self.schema.as_deref()
    }

    /// The component of the schema's field `i` (zero-based) holding `arg`.
    ///
    /// # Errors
    /// No schema or no field `i`; as [`KeySpec::typed`].
    pub fn field(&self, i: usize, a: Arg<'_>) -> Result<Comp, ArgError> {
        let cols = self.schema.as_deref().unwrap_or_default();
        let ty = cols.get(i).ok_or_else(|| {
            ArgError::Invalid(format!(
                "no field {}: the schema has {} fields",
                i + 1,
                cols.len()
            ))
        })?;
        self.typed(ty, a)
    }

    /// Whether a field of the schema is a list (`list<…>`): a binding
    /// then encodes each row by [`KeySpec::list_field`] and
    /// [`KeySpec::encode`] (a host list is no [`Arg`], which the bulk
    /// [`RowEncoder`] takes).
    pub fn has_list_fields(&self) -> bool {
        self.schema
            .as_deref()
            .unwrap_or_default()
            .iter()
            .any(|c| matches!(c, ColType::Native(col) if col.field.list > 0))
    }

    /// The component of the schema's field `i` holding host value `h`
    /// when that field is a list (`list<…>`) and `h` is no string: a host
    /// list converted element by element ([`host::list_value`]), or the
    /// null of a nullable list. `None` for another field or a string (a
    /// list's text, `[1, 2]`, which [`KeySpec::field`] parses): the binding
    /// then gives [`KeySpec::field`] the value's [`Arg`].
    ///
    /// ```
    /// use lexikey::frontend::host::{Arg, ArgError, HostItem, Want};
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    ///
    /// // A toy host: strings and lists of strings.
    /// #[derive(Clone)]
    /// enum Toy { Str(&'static str), List(Vec<Toy>) }
    /// impl HostItem for Toy {
    ///     type Error = String;
    ///     fn is_null(&self) -> bool { false }
    ///     fn elements(&self) -> Result<Option<Vec<Toy>>, String> {
    ///         Ok(match self { Toy::List(v) => Some(v.clone()), _ => None })
    ///     }
    ///     fn with_arg<R>(&self, _: Want, f: impl FnOnce(Arg<'_>) -> R) -> Result<R, String> {
    ///         Ok(f(match self { Toy::Str(s) => Arg::Str(s), _ => Arg::Other }))
    ///     }
    ///     fn message(&self, e: &ArgError) -> String { e.to_string() }
    ///     fn type_name(&self) -> String { "toy".into() }
    ///     fn error(&self, message: String) -> String { message }
    /// }
    ///
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,list<str>")?;
    /// assert!(spec.has_list_fields());
    /// let list = spec.list_field(1, &Toy::List(vec![Toy::Str("a,b"), Toy::Str("c")])).unwrap()?;
    /// let country = spec.field(0, Arg::Str("usa"))?;
    /// assert_eq!(spec.encode(&[country, list])?, b"usa#a:a,b!:c!.");
    /// assert!(spec.list_field(0, &Toy::Str("usa")).is_none());
    /// assert!(spec.list_field(1, &Toy::Str("[a]")).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`host::list_value`].
    pub fn list_field<H: host::HostItem>(&self, i: usize, h: &H) -> Option<Result<Comp, H::Error>> {
        let col = match self.schema.as_deref().unwrap_or_default().get(i) {
            Some(ColType::Native(col)) if col.field.list > 0 => col,
            _ => return None,
        };
        if !h.is_null()
            && matches!(
                h.with_arg(host::Want::Str, |a| matches!(a, Arg::Str(_))),
                Ok(true)
            )
        {
            return None;
        }
        Some(
            host::list_value(col, h, &self.geo)
                .map(|value| Comp::Native(*col, Component::of(col.field, value))),
        )
    }

    /// The bulk writer of the schema's rows: each row of [`Arg`]s written
    /// straight into a caller's buffer, with no text and no allocation per
    /// row once its buffers have grown.
    ///
    /// # Errors
    /// A layout without a schema.
    pub fn encoder(&self) -> Result<RowEncoder<'_>, SpecError> {
        let cols = self
            .schema
            .as_deref()
            .ok_or_else(|| SpecError::new("a row encoder needs a schema (KeySpec::with_schema)"))?;
        let scratch = match self.format {
            KeyFormat::Native(f) => Scratch::Native(f, Vec::new()),
            KeyFormat::Profile(Profile::Fdb) => {
                Scratch::Fdb(vec![crate::interop::fdb::Element::Null; cols.len()])
            }
            KeyFormat::Profile(Profile::Hbase) => Scratch::Hbase(
                cols.iter()
                    .filter_map(|c| match c {
                        ColType::Hbase(f) => Some(*f),
                        _ => None,
                    })
                    .collect(),
                vec![hbase::Value::Null; cols.len()],
            ),
            KeyFormat::Profile(Profile::Phoenix) => {
                let mut table = phoenix::Table::new(
                    cols.iter()
                        .filter_map(|c| match c {
                            ColType::Phoenix(c) => Some(*c),
                            _ => None,
                        })
                        .collect(),
                );
                if let Some(n) = self.profile.salt {
                    table = table.salted(n);
                }
                Scratch::Phoenix(table, vec![phoenix::Value::Null; cols.len()])
            }
        };
        Ok(RowEncoder {
            spec: self,
            cols,
            scratch,
        })
    }

    /// Parses a predicate: `op`'s value is a component (`eq`, `ge`, `gt`,
    /// `le`, `lt`) or, for [`PredOp::Prefix`], the text of an ascending
    /// string; a component that does not parse is named as the command
    /// line names it (`--ge "i64:x": …`).
    ///
    /// # Errors
    /// A component that does not parse.
    pub fn parse_pred(&self, op: PredOp, text: &str) -> Result<Pred<Comp>, ParseError> {
        let c = match op {
            PredOp::Prefix => return Ok(Pred::Prefix(text.to_string(), crate::Dir::Asc)),
            _ => self.parse(text).map_err(|e| {
                ParseError::new(format!("--{op} {}: {e}", literal::show_input(text)))
            })?,
        };
        // Every operator but Prefix is a comparison.
        Pred::with_op(op, c).ok_or_else(|| ParseError::new(format!("--{op}: not a comparison")))
    }

    /// The predicates of a string prefix `text` on the schema's field `i`
    /// (zero-based), as a binding takes it (Python's `str_prefix=`, Java's
    /// `Predicate.prefix`): the prefix in the field's direction and, on a
    /// nullable `str?` field, a `not-null` of it beside, so that the range
    /// holds its values starting with `text` and never a null
    /// ([`RangeQuery::str_prefix`]). `None` when field `i` is not a `str`
    /// (or there is none).
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,str?.desc")?;
    /// let preds = spec.str_prefix_preds(1, "ab").expect("a str field");
    /// let prefix = spec.parse_components(&["str:name"])?;
    /// let r = &spec.ranges(&prefix, preds)?[0];
    /// assert_eq!((r.start.as_deref(), r.end.as_deref()), (Some(&b"name#=9E9D"[..]), Some(&b"name#=9E9E"[..])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn str_prefix_preds(&self, i: usize, text: &str) -> Option<Vec<Pred<Comp>>> {
        let Ok(Comp::Native(col, c)) = self.field(i, Arg::Str(text)) else {
            return None;
        };
        if c.value.ty() != crate::Type::Str {
            return None;
        }
        let mut preds = Vec::with_capacity(2);
        if c.nulls.is_some() {
            let null = Component {
                value: crate::Value::Null(crate::Type::Str),
                ..c.clone()
            };
            preds.push(Pred::NotNull(Comp::Native(col, null)));
        }
        preds.push(Pred::Prefix(text.to_string(), c.dir));
        Some(preds)
    }

    /// The key of `comps`, salted when the layout is; `name(i)` names
    /// component `i` (zero-based) in messages.
    ///
    /// # Errors
    /// A component of another format, a value the format cannot hold, a
    /// key longer than [`KeySpec::max_key_len`].
    pub fn encode_named(
        &self,
        comps: &[Comp],
        name: impl Fn(usize) -> String,
    ) -> Result<Vec<u8>, SpecError> {
        let key = match self.format {
            KeyFormat::Native(f) => {
                let natives = self.natives(comps)?;
                let key = tuple::encode(f, &natives)
                    .and_then(|k| {
                        let full = k.len() + self.salter.map_or(0, |s| s.salt_len());
                        if full > self.max_key_len {
                            return Err(crate::EncodeError::KeyTooLong {
                                len: full,
                                max: self.max_key_len,
                                largest: tuple::largest_component(f, &natives, &name),
                            });
                        }
                        Ok(k)
                    })
                    .map(crate::Key::into_vec)
                    .map_err(|e| {
                        // Find the culprit for the message.
                        let mut scratch = Vec::new();
                        match natives
                            .iter()
                            .position(|c| f.encode_component(c, &mut scratch).is_err())
                        {
                            Some(i) => SpecError::new(format!("{}: {e}", name(i))),
                            None => SpecError::from(e),
                        }
                    })?;
                match self.salter {
                    Some(s) => s.salted_key(&key),
                    None => key,
                }
            }
            KeyFormat::Profile(p) => {
                let row = self.row(p, comps)?;
                profile::encode_row(&row, &self.profile, name)?
            }
        };
        tuple::check_len(&key, self.max_key_len)?;
        Ok(key)
    }

    /// [`KeySpec::encode_named`], components named by number and their
    /// text (`component 2 (i64:5)`).
    ///
    /// # Errors
    /// As [`KeySpec::encode_named`].
    pub fn encode(&self, comps: &[Comp]) -> Result<Vec<u8>, SpecError> {
        self.encode_named(comps, |i| match comps.get(i) {
            Some(c) => format!("component {} ({})", i + 1, comp_text(c)),
            None => format!("component {}", i + 1),
        })
    }

    /// The `fdb-tuple` key of `comps` for FoundationDB's
    /// `SET_VERSIONSTAMPED_KEY`: exactly one of them (at any depth) an
    /// incomplete versionstamp, the key ending in the 4-byte little-endian
    /// offset of its transaction version
    /// ([`fdb::pack_with_versionstamp`](crate::interop::fdb::pack_with_versionstamp)).
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let fdb = KeySpec::new(KeyFormat::parse("fdb-tuple")?);
    /// let comps = fdb.parse_components(&["str:log", "versionstamp:ffffffffffffffffffff0000"])?;
    /// assert_eq!(
    ///     lexikey::to_hex(&fdb.encode_with_versionstamp(&comps)?),
    ///     "026c6f670033ffffffffffffffffffff000006000000"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A format other than `fdb-tuple`, a component of another format, no
    /// incomplete versionstamp or more than one, a key longer than
    /// [`KeySpec::max_key_len`].
    pub fn encode_with_versionstamp(&self, comps: &[Comp]) -> Result<Vec<u8>, SpecError> {
        if self.format != KeyFormat::Profile(Profile::Fdb) {
            return Err(SpecError::new(format!(
                "a versionstamped key is an fdb-tuple key, not {}",
                self.format
            )));
        }
        let Row::Fdb(elems) = self.row(Profile::Fdb, comps)? else {
            return Err(SpecError::new("an fdb-tuple row of another profile"));
        };
        let mut key = Vec::new();
        crate::interop::fdb::pack_with_versionstamp(&elems, &mut key)
            .map_err(|e| SpecError::new(e.to_string()))?;
        tuple::check_len(&key, self.max_key_len)?;
        Ok(key)
    }

    /// The `fdb-tuple` nested tuple of `items`, each made into a component
    /// by `item(x, depth + 1)`: the way a binding turns a host list into a
    /// nested tuple, `depth` being the list's own level (a list among a
    /// key's components is level 0). A list at level
    /// [`fdb::MAX_DEPTH`](crate::interop::fdb::MAX_DEPTH) is an error, before
    /// its items are looked at, so that every key made decodes (and a list
    /// holding itself ends).
    ///
    /// ```
    /// use lexikey::frontend::host::Arg;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let fdb = KeySpec::new(KeyFormat::parse("fdb-tuple")?);
    /// let inner = fdb.nested(0, [Arg::Int(2), Arg::Null], |a, _| fdb.arg(a))?;
    /// let key = fdb.encode(&[fdb.arg(Arg::Int(1))?, inner, fdb.arg(Arg::Str("x"))?])?;
    /// // fdb.tuple.pack((1, (2, None), "x"))
    /// assert_eq!(lexikey::to_hex(&key), "150105150200ff00027800");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A format other than `fdb-tuple` or a list too deep
    /// ([`ArgError::Invalid`]); an item's component of another profile; the
    /// error of `item`.
    pub fn nested<T, E: From<ArgError>>(
        &self,
        depth: usize,
        items: impl IntoIterator<Item = T>,
        mut item: impl FnMut(T, usize) -> Result<Comp, E>,
    ) -> Result<Comp, E> {
        if self.format != KeyFormat::Profile(Profile::Fdb) {
            return Err(ArgError::Invalid(format!(
                "a list is a nested tuple, which only the fdb-tuple format has (not {})",
                self.format
            ))
            .into());
        }
        crate::interop::fdb::check_depth(depth).map_err(ArgError::from)?;
        let mut elems = Vec::new();
        for x in items {
            match item(x, depth + 1)? {
                Comp::Profile(Item::Fdb(e)) => elems.push(e),
                c => {
                    return Err(ArgError::Invalid(format!(
                        "a nested tuple holds fdb-tuple elements, not {}",
                        comp_text(&c)
                    ))
                    .into())
                }
            }
        }
        Ok(Comp::Profile(Item::Fdb(
            crate::interop::fdb::Element::Nested(elems),
        )))
    }

    /// The key ranges of the keys under `prefix` whose next component
    /// satisfies every predicate: one range, or one per salt bucket
    /// (bucket 0 first).
    ///
    /// # Errors
    /// As [`RangeQuery::build`] and [`ProfileRange::build`]; a component
    /// of another format.
    pub fn ranges(
        &self,
        prefix: &[Comp],
        preds: Vec<Pred<Comp>>,
    ) -> Result<Vec<KeyRange>, RangeError> {
        match self.format {
            KeyFormat::Native(f) => {
                let natives = self
                    .natives(prefix)
                    .map_err(|e| RangeError::Mismatch(e.to_string()))?;
                let mut q = RangeQuery::new(f).prefix(&natives);
                if let Some(fields) = &self.fields {
                    q = q.fields(fields);
                }
                for (i, p) in preds.into_iter().enumerate() {
                    let name = p.name();
                    q = q.pred(p.try_map(|c| match c {
                        Comp::Native(_, c) => Ok(c),
                        Comp::Profile(item) => Err(RangeError::Predicate {
                            index: i,
                            name,
                            reason: format!("a {} value in a {f} range", item.profile()),
                        }),
                    })?);
                }
                let range = q.build()?;
                Ok(match self.salter {
                    Some(s) => s.ranges(&range),
                    None => vec![range],
                })
            }
            KeyFormat::Profile(p) => {
                let items = prefix
                    .iter()
                    .enumerate()
                    .map(|(i, c)| match c {
                        Comp::Profile(item) => Ok(item.clone()),
                        Comp::Native(..) => Err(RangeError::Component {
                            index: i,
                            reason: format!("a native component in a {p} range"),
                        }),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let mut q = ProfileRange::new(p, self.profile).prefix(items);
                for (i, pred) in preds.into_iter().enumerate() {
                    let name = pred.name();
                    q = q.pred(pred.try_map(|c| match c {
                        Comp::Profile(item) => Ok(item),
                        Comp::Native(..) => Err(RangeError::Predicate {
                            index: i,
                            name,
                            reason: format!("a native value in a {p} range"),
                        }),
                    })?);
                }
                q.build()
            }
        }
    }

    fn natives(&self, comps: &[Comp]) -> Result<Vec<Component<'static>>, SpecError> {
        comps
            .iter()
            .enumerate()
            .map(|(i, c)| match c {
                Comp::Native(_, c) => {
                    let mut c = c.clone();
                    if c.width.is_none() {
                        native::apply_width(&mut c, self.width);
                    }
                    Ok(c)
                }
                Comp::Profile(item) => Err(SpecError::new(format!(
                    "component {}: a {} component in a {} key",
                    i + 1,
                    item.profile(),
                    self.format
                ))),
            })
            .collect()
    }

    fn row(&self, p: Profile, comps: &[Comp]) -> Result<Row, SpecError> {
        let items = comps
            .iter()
            .enumerate()
            .map(|(i, c)| match c {
                Comp::Profile(item) => Ok(item.clone()),
                Comp::Native(..) => Err(SpecError::new(format!(
                    "component {}: a native component in a {p} key",
                    i + 1
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Row::from_items(p, items).map_err(|(i, q)| {
            SpecError::new(format!("component {}: a {q} component in a {p} key", i + 1))
        })
    }
}

/// A component as `TYPE[.desc]:VALUE`.
pub fn comp_text(c: &Comp) -> String {
    match c {
        Comp::Native(_, c) => literal::component_to_string(c),
        Comp::Profile(item) => item.to_text(),
    }
}

/// The message of a range error with the components and predicates named
/// by the text they were given as (`prefix[i]`, `preds[i]`), as the
/// command line and the bindings print it.
pub fn range_message(e: &RangeError, prefix: &[&str], preds: &[&str]) -> String {
    match e {
        RangeError::Empty => {
            "no key can match: the predicates leave an empty range (start >= end)".to_string()
        }
        RangeError::Component { index, reason } => format!(
            "component {} ({}): {reason}",
            index + 1,
            prefix.get(*index).unwrap_or(&"?")
        ),
        RangeError::Predicate {
            index,
            name,
            reason,
        } => format!("--{name} {:?}: {reason}", preds.get(*index).unwrap_or(&"?")),
        other => other.to_string(),
    }
}

impl fmt::Display for Comp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&comp_text(self))
    }
}

// ---------------------------------------------------------------------------
// Rows of typed values
// ---------------------------------------------------------------------------

/// Why a row could not be written: the value at fault (its index and
/// column type) or the whole key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{error}", match .index { Some(i) => format!("value {} ({}): ", i + 1, .label), None => String::new() })]
pub struct RowError {
    /// The value at fault (zero-based), if one is.
    pub index: Option<usize>,
    /// Its column type as the schema writes it (empty without an index).
    pub label: String,
    /// What is wrong.
    pub error: ArgError,
}

impl RowError {
    fn at(i: usize, ty: &ColType, error: ArgError) -> RowError {
        RowError {
            index: Some(i),
            label: ty.to_string(),
            error,
        }
    }

    fn key(error: ArgError) -> RowError {
        RowError {
            index: None,
            label: String::new(),
            error,
        }
    }
}

/// The per-profile values reused from row to row.
#[derive(Debug)]
enum Scratch {
    /// The format and the unsalted key of a salted layout.
    Native(Format, Vec<u8>),
    Fdb(Vec<crate::interop::fdb::Element>),
    Hbase(Vec<hbase::Field>, Vec<hbase::Value>),
    Phoenix(phoenix::Table, Vec<phoenix::Value>),
}

/// Writes rows of [`Arg`]s against a [`KeySpec`]'s schema into a caller's
/// buffer ([`KeySpec::encoder`]): the bulk path of every binding. Each
/// value is converted by the rules of [`crate::frontend::host`] and written as the
/// format writes it — the bytes of [`KeySpec::encode`] of the same
/// components — with no text in between and, once the encoder's buffers
/// have grown, no allocation per row (strings are copied into reused
/// buffers for the interop profiles, written from the host's bytes for the
/// native formats).
///
/// ```
/// use lexikey::frontend::host::Arg;
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::spec::KeySpec;
/// let spec = KeySpec::new(KeyFormat::parse("fdb-tuple")?).with_schema("str,int")?;
/// let mut enc = spec.encoder()?;
/// let mut keys = Vec::new();
/// for (name, n) in [("users", 42), ("users", 1 << 40)] {
///     keys.clear();
///     enc.encode(&[Arg::Str(name), Arg::Int(n)], &mut keys)?;
/// }
/// assert_eq!(keys, b"\x02users\x00\x1a\x01\x00\x00\x00\x00\x00");
/// let err = enc.encode(&[Arg::Str("users"), Arg::Bool(true)], &mut keys).unwrap_err();
/// assert_eq!(err.to_string(), "value 2 (int): expected an integer for int");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RowEncoder<'s> {
    spec: &'s KeySpec,
    cols: &'s [ColType],
    scratch: Scratch,
}

impl RowEncoder<'_> {
    /// The number of values a row holds.
    pub fn width(&self) -> usize {
        self.cols.len()
    }

    /// Appends the key of `row` to `out` (salted when the layout is). On
    /// error `out` is as it was.
    ///
    /// # Errors
    /// A row of another length than the schema, a value its column does
    /// not take or the format cannot write, a key longer than
    /// [`KeySpec::max_key_len`].
    pub fn encode(&mut self, row: &[Arg<'_>], out: &mut Vec<u8>) -> Result<(), RowError> {
        self.encode_with(row, out, Self::write)
    }

    /// Appends the key of a row of [`Cell`]s to `out` (salted when the
    /// layout is): [`RowEncoder::encode`] where the caller gives some
    /// values as ready native components — a list field's
    /// [`Value::List`](crate::Value::List) built element by element from a
    /// host's list ([`host::list_element`], [`host::native_value`]), with
    /// no text in between. Each component's field must be its column's.
    /// Native formats only (the interop profiles take [`Arg`]s). On error
    /// `out` is as it was.
    ///
    /// ```
    /// use lexikey::frontend::host::Arg;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::{Cell, KeySpec};
    /// use lexikey::{Component, Field, Type, Value};
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,list<i64>")?;
    /// let mut enc = spec.encoder()?;
    /// let list = Value::list(Type::I64, vec![Value::I64(1), Value::I64(2)]);
    /// let c = Component::of(Field::parse("list<i64>")?, list);
    /// let mut key = Vec::new();
    /// enc.encode_cells(&[Cell::Arg(Arg::Str("a")), Cell::Component(c)], &mut key)?;
    /// assert_eq!(key, b"a#a:l8000000000000001:l8000000000000002.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`RowEncoder::encode`]; a component of another field than its
    /// column's; an interop profile's layout.
    pub fn encode_cells(&mut self, row: &[Cell<'_>], out: &mut Vec<u8>) -> Result<(), RowError> {
        self.encode_with(row, out, |enc, row, out| {
            let (spec, cols) = (enc.spec, enc.cols);
            match &mut enc.scratch {
                Scratch::Native(format, unsalted) => {
                    write_native_row(spec, cols, row, *format, unsalted, out)
                }
                _ => Err(RowError::key(ArgError::Invalid(format!(
                    "a row of native components in {}: the interop profiles take host values",
                    spec.format
                )))),
            }
        })
    }

    /// A row's key by `write`, its length checked; on error `out` is as
    /// it was.
    #[inline(always)]
    fn encode_with<C: NativeCell>(
        &mut self,
        row: &[C],
        out: &mut Vec<u8>,
        write: impl FnOnce(&mut Self, &[C], &mut Vec<u8>) -> Result<(), RowError>,
    ) -> Result<(), RowError> {
        if row.len() != self.cols.len() {
            return Err(RowError::key(ArgError::Invalid(format!(
                "{} values; the schema has {} fields",
                row.len(),
                self.cols.len()
            ))));
        }
        let start = out.len();
        let res = write(self, row, out).and_then(|()| {
            tuple::check_len(&out[start..], self.spec.max_key_len)
                .map_err(|e| RowError::key(self.name_largest(e, row).into()))
        });
        if res.is_err() {
            out.truncate(start);
        }
        res
    }

    /// Appends the key of a row given as text to `out` (salted when the
    /// layout is): `cells[i]` is the value of the schema's field `i` in its
    /// type's syntax, the part after `TYPE:` of a component (what the
    /// command line's `encode --stdin` reads, one tab-separated row a
    /// line). Each value is parsed and written as the format writes it,
    /// with no allocation per row for the native formats once the
    /// encoder's buffers have grown. On error `out` is as it was.
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
    /// let mut enc = spec.encoder()?;
    /// let mut key = Vec::new();
    /// enc.encode_texts(&["population", "3831868"], &mut key)?;
    /// assert_eq!(key, b"population#l80000000003A783C");
    /// let err = enc.encode_texts(&["population", "x"], &mut key).unwrap_err();
    /// assert_eq!(err.index, Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A row of another length than the schema, a value that does not
    /// parse as its column's type or that the format cannot write, a key
    /// longer than [`KeySpec::max_key_len`] (naming the value that
    /// contributes most in the native formats).
    pub fn encode_texts(&mut self, cells: &[&str], out: &mut Vec<u8>) -> Result<(), RowError> {
        if cells.len() != self.cols.len() {
            return Err(RowError::key(ArgError::Invalid(format!(
                "{} values; the schema has {} fields",
                cells.len(),
                self.cols.len()
            ))));
        }
        let start = out.len();
        let res = self.write_texts(cells, out).and_then(|()| {
            tuple::check_len(&out[start..], self.spec.max_key_len)
                .map_err(|e| RowError::key(self.name_largest_text(e, cells).into()))
        });
        if res.is_err() {
            out.truncate(start);
        }
        res
    }

    /// [`RowEncoder::name_largest`] of a row of texts.
    fn name_largest_text(&self, e: crate::EncodeError, cells: &[&str]) -> crate::EncodeError {
        let (
            crate::EncodeError::KeyTooLong {
                len,
                max,
                largest: None,
            },
            Scratch::Native(format, _),
        ) = (&e, &self.scratch)
        else {
            return e;
        };
        // Every value parsed when the key was written.
        let comps: Vec<Component<'_>> = self
            .cols
            .iter()
            .zip(cells)
            .filter_map(|(ty, t)| match ty {
                ColType::Native(col) => col.component(t, &self.spec.geo).ok(),
                _ => None,
            })
            .collect();
        crate::EncodeError::KeyTooLong {
            len: *len,
            max: *max,
            largest: tuple::largest_component(*format, &comps, |i| self.cols[i].to_string()),
        }
    }

    fn write_texts(&mut self, cells: &[&str], out: &mut Vec<u8>) -> Result<(), RowError> {
        let spec = self.spec;
        let cols = self.cols;
        let parse = |i: usize, e: &dyn fmt::Display| {
            RowError::at(i, &cols[i], ArgError::Invalid(e.to_string()))
        };
        match &mut self.scratch {
            Scratch::Native(format, unsalted) => {
                return write_native_row(spec, cols, cells, *format, unsalted, out);
            }
            Scratch::Fdb(elems) => {
                for (i, ((ty, c), slot)) in cols.iter().zip(cells).zip(elems.iter_mut()).enumerate()
                {
                    *slot = crate::interop::fdb::parse_component(&format!("{ty}:{c}"))
                        .map_err(|e| parse(i, &e))?;
                }
            }
            Scratch::Hbase(fields, values) => {
                for (i, ((f, c), slot)) in
                    fields.iter().zip(cells).zip(values.iter_mut()).enumerate()
                {
                    *slot = hbase::parse_value(f.kind, c).map_err(|e| parse(i, &e))?;
                }
            }
            Scratch::Phoenix(table, values) => {
                let rounding = spec.profile.rounding;
                for (i, ((col, c), slot)) in table
                    .columns
                    .iter()
                    .zip(cells)
                    .zip(values.iter_mut())
                    .enumerate()
                {
                    *slot =
                        phoenix::parse_value_with(col.ty, c, rounding).map_err(|e| parse(i, &e))?;
                }
            }
        }
        self.write_profile(out)
    }

    /// Writes the profile values held in the scratch.
    fn write_profile(&mut self, out: &mut Vec<u8>) -> Result<(), RowError> {
        let spec = self.spec;
        match &self.scratch {
            Scratch::Native(..) => Ok(()),
            Scratch::Fdb(elems) => {
                crate::interop::fdb::pack(elems, out);
                Ok(())
            }
            Scratch::Hbase(fields, values) => spec
                .profile
                .hbase
                .encode_struct(fields, values, out)
                .map_err(|e| value_row_error(self.cols, e)),
            Scratch::Phoenix(table, values) => phoenix::encode_row_key(table, values, out)
                .map_err(|e| value_row_error(self.cols, e)),
        }
    }

    /// `e`, a key over the limit, naming the column that contributes most
    /// (native formats; cold path: each field encoded again on its own).
    fn name_largest<C: NativeCell>(
        &mut self,
        e: crate::EncodeError,
        row: &[C],
    ) -> crate::EncodeError {
        let crate::EncodeError::KeyTooLong {
            len,
            max,
            largest: None,
        } = e
        else {
            return e;
        };
        let largest = match &self.scratch {
            Scratch::Native(format, _) => {
                let mut best: Option<crate::KeyPart> = None;
                let mut one = Vec::new();
                for i in 0..self.cols.len().min(row.len()) {
                    one.clear();
                    let (c, r) = (&self.cols[i..=i], &row[i..=i]);
                    let ok = match format {
                        Format::Hex => write_hex(self.spec, c, r, &mut one),
                        Format::Base64 => write_base64(self.spec, c, r, &mut one),
                        Format::Decimal => write_decimal(self.spec, c, r, &mut one),
                        Format::Binary => write_binary(self.spec, c, r, &mut one),
                    };
                    // A text format's separator belongs to the field.
                    let size = one.len() + usize::from(i > 0 && format.is_text());
                    if ok.is_ok() && best.as_ref().is_none_or(|b| size > b.size) {
                        best = Some(crate::KeyPart {
                            index: i,
                            label: self.cols[i].to_string(),
                            size,
                        });
                    }
                }
                best.map(Box::new)
            }
            _ => None,
        };
        crate::EncodeError::KeyTooLong { len, max, largest }
    }

    fn write(&mut self, row: &[Arg<'_>], out: &mut Vec<u8>) -> Result<(), RowError> {
        let spec = self.spec;
        let cols = self.cols;
        match &mut self.scratch {
            Scratch::Native(format, unsalted) => {
                return write_native_row(spec, cols, row, *format, unsalted, out);
            }
            Scratch::Fdb(elems) => {
                for (i, ((ty, a), slot)) in cols.iter().zip(row).zip(elems.iter_mut()).enumerate() {
                    let ColType::Fdb(t) = ty else {
                        return Err(RowError::at(
                            i,
                            ty,
                            ArgError::Invalid("not an fdb-tuple type".into()),
                        ));
                    };
                    host::set_fdb(slot, *t, *a).map_err(|e| RowError::at(i, ty, e))?;
                }
            }
            Scratch::Hbase(fields, values) => {
                for (i, ((f, a), slot)) in fields.iter().zip(row).zip(values.iter_mut()).enumerate()
                {
                    host::set_hbase(slot, *f, *a).map_err(|e| RowError::at(i, &cols[i], e))?;
                }
            }
            Scratch::Phoenix(table, values) => {
                let rounding = spec.profile.rounding;
                for (i, ((c, a), slot)) in table
                    .columns
                    .iter()
                    .zip(row)
                    .zip(values.iter_mut())
                    .enumerate()
                {
                    host::set_phoenix(slot, *c, *a, rounding)
                        .map_err(|e| RowError::at(i, &cols[i], e))?;
                }
            }
        }
        self.write_profile(out)
    }
}

/// One value of a row the native writers take: a host's typed argument
/// ([`RowEncoder::encode`]), the text of a value
/// ([`RowEncoder::encode_texts`]) or a [`Cell`]
/// ([`RowEncoder::encode_cells`]).
trait NativeCell {
    /// The component of this value (the `i`th of the row) in native
    /// column `col` (of type `ty`, for errors).
    fn component(
        &self,
        i: usize,
        ty: &ColType,
        col: &Col,
        geo: &GeoOpts,
    ) -> Result<Component<'_>, RowError>;
}

/// One value of a row for [`RowEncoder::encode_cells`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell<'a> {
    /// A host value, converted as [`RowEncoder::encode`] converts it.
    Arg(Arg<'a>),
    /// A native component made by the caller (its field the column's).
    Component(Component<'a>),
}

impl NativeCell for Cell<'_> {
    #[inline(always)]
    fn component(
        &self,
        i: usize,
        ty: &ColType,
        col: &Col,
        geo: &GeoOpts,
    ) -> Result<Component<'_>, RowError> {
        match self {
            Cell::Arg(a) => a.component(i, ty, col, geo),
            // By value, as the other cells (a `Cow` here cost the row
            // path 34 instructions, cachegrind): the clone shares a list's
            // elements (`value::Items`) and a borrowed string's bytes.
            Cell::Component(c) if c.field() == col.field => Ok(c.clone()),
            Cell::Component(c) => Err(RowError::at(
                i,
                ty,
                ArgError::Invalid(format!(
                    "a component of field {} where the schema has {}",
                    c.field(),
                    col.field
                )),
            )),
        }
    }
}

impl NativeCell for Arg<'_> {
    #[inline(always)]
    fn component(
        &self,
        i: usize,
        ty: &ColType,
        col: &Col,
        geo: &GeoOpts,
    ) -> Result<Component<'_>, RowError> {
        // The plain arguments first, here in the loop: tried inside
        // `native_value` instead (inlined, the general part out of line)
        // the hex row cost about 120 instructions more (callgrind), the
        // `Result` kept through the `map_err` below.
        let plain = match col.kind {
            Kind::Core(t) if col.field.list == 0 => host::plain_value(t, *self),
            _ => None,
        };
        let value = match plain {
            Some(v) => v,
            None => host::native_value(col, *self, geo).map_err(|e| RowError::at(i, ty, e))?,
        };
        Ok(Component {
            value,
            dir: col.field.dir,
            width: col.field.width,
            nulls: col.field.nulls,
            list: col.field.list,
        })
    }
}

impl NativeCell for &str {
    #[inline(always)]
    fn component(
        &self,
        i: usize,
        ty: &ColType,
        col: &Col,
        geo: &GeoOpts,
    ) -> Result<Component<'_>, RowError> {
        // A nullable field's cell may be the null (`\N`).
        let text: &str = match col.field.nulls {
            None => self,
            Some(_) => match native::nullable_cell(self) {
                Some(t) => t,
                None => {
                    return Ok(Component {
                        value: crate::Value::Null(col.field.ty),
                        dir: col.field.dir,
                        width: col.field.width,
                        nulls: col.field.nulls,
                        list: col.field.list,
                    })
                }
            },
        };
        // The core types parsed here, the other kinds by `Col::parse_value`:
        // through `Col::component`, which the compiler leaves out of line,
        // the hex row of `str,i64,f64` cost about 34 instructions more than
        // the command line's own loop did (callgrind).
        let value = match col.kind {
            Kind::Core(t) if col.field.list == 0 => native::parse_field(t, text),
            _ => col.parse_value(text, geo),
        }
        .map_err(|e| RowError::at(i, ty, e.into()))?;
        Ok(Component {
            value,
            dir: col.field.dir,
            width: col.field.width,
            nulls: col.field.nulls,
            list: col.field.list,
        })
    }
}

/// A native layout's row written to `out`: straight, or into `unsalted`
/// and then salted. The format's writer is chosen once per row, so that
/// each field's is inlined (the code `Format::encode_component` reaches
/// for that format).
#[inline(always)]
fn write_native_row<C: NativeCell>(
    spec: &KeySpec,
    cols: &[ColType],
    row: &[C],
    format: Format,
    unsalted: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<(), RowError> {
    let dst = match spec.salter {
        Some(_) => {
            unsalted.clear();
            &mut *unsalted
        }
        None => &mut *out,
    };
    match format {
        Format::Hex => write_hex(spec, cols, row, dst)?,
        Format::Base64 => write_base64(spec, cols, row, dst)?,
        Format::Decimal => write_decimal(spec, cols, row, dst)?,
        Format::Binary => write_binary(spec, cols, row, dst)?,
    }
    if let Some(s) = &spec.salter {
        s.salted_key_into(unsalted, out);
    }
    Ok(())
}

/// [`write_native`] of one format, its writer inlined into the loop: one
/// function per format and kind of row, each compiled on its own.
macro_rules! native_writer {
    ($name:ident, $text:expr, $put:expr) => {
        #[inline(never)]
        fn $name<C: NativeCell>(
            spec: &KeySpec,
            cols: &[ColType],
            row: &[C],
            dst: &mut Vec<u8>,
        ) -> Result<(), RowError> {
            write_native(spec, cols, row, dst, $text, $put)
        }
    };
}

native_writer!(write_hex, true, |c, o| {
    if c.nulls.is_some() | (c.list != 0) {
        return Format::Hex.encode_component(c, o);
    }
    crate::format::hex::encode_component(c, o);
    Ok(())
});
native_writer!(write_base64, true, |c, o| {
    if c.nulls.is_some() | (c.list != 0) {
        return Format::Base64.encode_component(c, o);
    }
    crate::format::base64::encode_component(c, o);
    Ok(())
});
native_writer!(write_decimal, true, |c, o| {
    if c.nulls.is_some() | (c.list != 0) {
        return Format::Decimal.encode_component(c, o);
    }
    crate::format::decimal::encode_component(c, o)
});
native_writer!(write_binary, false, |c, o| {
    if c.nulls.is_some() | (c.list != 0) {
        return Format::Binary.encode_component(c, o);
    }
    crate::format::binary::encode_component(c, o);
    Ok(())
});

/// The values of `row` against native columns `cols`, each written by
/// `put` (`text`: joined by the separator).
#[inline(always)]
fn write_native<C: NativeCell>(
    spec: &KeySpec,
    cols: &[ColType],
    row: &[C],
    dst: &mut Vec<u8>,
    text: bool,
    put: impl Fn(&Component<'_>, &mut Vec<u8>) -> Result<(), crate::error::EncodeError>,
) -> Result<(), RowError> {
    for (i, (ty, cell)) in cols.iter().zip(row).enumerate() {
        let ColType::Native(col) = ty else {
            return Err(RowError::at(
                i,
                ty,
                ArgError::Invalid("not a native column".into()),
            ));
        };
        let c = cell.component(i, ty, col, &spec.geo)?;
        if i > 0 && text {
            dst.push(crate::format::text::SEP);
        }
        put(&c, dst).map_err(|e| RowError::at(i, ty, e.into()))?;
    }
    Ok(())
}

/// A profile encoder's error as a [`RowError`].
fn value_row_error(cols: &[ColType], e: crate::interop::ValueError) -> RowError {
    use crate::interop::ValueError as V;
    let at = |field: usize, error| match cols.get(field) {
        Some(ty) => RowError::at(field, ty, error),
        None => RowError::key(error),
    };
    match e {
        V::Unencodable { field, reason } => at(field, ArgError::Invalid(reason.to_string())),
        V::TypeMismatch { field, expected } => at(
            field,
            ArgError::Invalid(format!("expected a {expected} value")),
        ),
        other => RowError::key(ArgError::Invalid(other.to_string())),
    }
}

// ---------------------------------------------------------------------------
// Decoding to host-neutral values
// ---------------------------------------------------------------------------

/// The values of a key decoded against a [`KeySpec`] ([`KeySpec::decode`]):
/// each value's type label, its host-neutral [`Out`](crate::frontend::host::Out)
/// value and the byte offset where its component starts.
#[derive(Debug, Clone)]
pub struct KeyValues<'s, 'k> {
    spec: &'s KeySpec,
    decoded: DecodedKey<'k>,
}

#[derive(Debug, Clone)]
enum DecodedKey<'k> {
    Native(Vec<Component<'k>>),
    Profile(profile::Decoded),
}

impl KeySpec {
    /// Decodes a key, canonically (a key the encoder could not have
    /// written is an error), with the schema when there is one: without,
    /// tagged (`hex`, `base64`) and `fdb-tuple` keys are read by their
    /// tags. Salted layouts are unsalted first (error offsets are offsets
    /// into the whole key).
    ///
    /// ```
    /// use lexikey::frontend::host::Out;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,ts")?;
    /// let v = spec.decode(b"event#t8000018F34069E00")?;
    /// assert_eq!((v.len(), v.label(1)), (2, "ts".to_string()));
    /// assert_eq!(v.get(1)?, Out::Time { secs: 1_714_564_800, nanos: 0 });
    /// assert_eq!(v.offset(1), 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The decoder's [`DecodeError`](crate::DecodeError), at the offset of
    /// the byte at fault; a key longer than [`KeySpec::max_key_len`] at
    /// that length.
    pub fn decode<'s, 'k>(
        &'s self,
        key: &'k [u8],
    ) -> Result<KeyValues<'s, 'k>, crate::DecodeError> {
        if key.len() > self.max_key_len {
            return Err(crate::DecodeError::TrailingBytes {
                offset: self.max_key_len,
            });
        }
        let decoded = match self.format {
            KeyFormat::Native(f) => {
                let fields = self.schema.as_ref().map(|_| self.schema_fields.as_slice());
                let mut comps = Vec::with_capacity(fields.map_or(4, <[_]>::len));
                match &self.salter {
                    None => tuple::decode_into(f, key, fields, &mut comps)?,
                    Some(s) => {
                        let (_, rest) = s.unsalt(key)?;
                        tuple::decode_into(f, rest, fields, &mut comps)
                            .map_err(|e| e.shift(s.salt_len()))?;
                    }
                }
                DecodedKey::Native(comps)
            }
            KeyFormat::Profile(_) => DecodedKey::Profile(profile::decode_key(
                self.profile_schema.as_ref(),
                key,
                self.profile.hbase,
            )?),
        };
        Ok(KeyValues {
            spec: self,
            decoded,
        })
    }
}

/// A salted native key whose salt is well formed but not the bucket the
/// rest of the key hashes to ([`KeySpec::decode_into`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongBucket {
    /// The bucket the salt says.
    pub found: u8,
    /// The bucket of the rest of the key.
    pub expected: u8,
    /// The salter's bucket count.
    pub buckets: u8,
    /// The salter's hash.
    pub mode: crate::store::salt::SaltMode,
}

/// Why a native key did not decode ([`KeySpec::decode_into`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The key (or its salt) is malformed.
    #[error("{0}")]
    Decode(#[from] crate::DecodeError),
    /// The rest of the key decodes, but its salt is not its bucket.
    #[error(
        "the salt at byte 0 is bucket {}, but the key's bucket is {} ({} buckets, {})",
        .0.found, .0.expected, .0.buckets, .0.mode
    )]
    WrongBucket(WrongBucket),
}

impl KeySpec {
    /// Decodes a key of a native format into `comps` (cleared first; no
    /// allocation once it has grown), canonically, with the schema's
    /// fields when there is one. A salted key is unsalted first (error
    /// offsets are offsets into the whole key); when its salt is well
    /// formed but not the key's bucket, the rest of the key is decoded
    /// first, its error the likelier cause, and only then the salt
    /// refused ([`KeyError::WrongBucket`]).
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::frontend::spec::{KeyError, KeySpec};
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?)
    ///     .with_salter(Some(Salter::new(16, SaltMode::Fast)?))?;
    /// let mut comps = Vec::new();
    /// spec.decode_into(b"08#a", &mut comps)?;
    /// assert_eq!(comps.len(), 1);
    /// let Err(KeyError::WrongBucket(w)) = spec.decode_into(b"07#a", &mut comps) else { panic!() };
    /// assert_eq!((w.found, w.expected), (7, 8));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The decoder's error at the offset of the byte at fault; a key
    /// longer than [`KeySpec::max_key_len`] at that length; an interop
    /// profile's key ([`KeySpec::decode`] decodes those).
    #[inline]
    pub fn decode_into<'k>(
        &self,
        key: &'k [u8],
        comps: &mut Vec<Component<'k>>,
    ) -> Result<(), KeyError> {
        comps.clear();
        self.decode_native(key, |f, rest, fields| {
            tuple::decode_into(f, rest, fields, comps)
        })
    }

    /// Decodes a key of a native format as [`KeySpec::decode_into`] does
    /// (same checks, same errors at the same offsets), handing each
    /// component to `f(index, component)` through `arena`
    /// ([`tuple::DecodeArena::decode`]: no allocation per key, escaped
    /// strings included); returns how many components there were. On
    /// error, `f` may have seen the components before the bad one.
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// use lexikey::{tuple, Value};
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
    /// let mut arena = tuple::DecodeArena::new();
    /// let mut seen = Vec::new();
    /// let n = spec.decode_arena(b"san%20francisco#l80000000000CD140", &mut arena, |_, c| {
    ///     seen.push(c.value.into_owned())
    /// })?;
    /// assert_eq!(n, 2);
    /// assert_eq!(seen, [Value::from("san francisco"), Value::I64(840_000)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Those of [`KeySpec::decode_into`].
    #[inline]
    pub fn decode_arena<F>(
        &self,
        key: &[u8],
        arena: &mut tuple::DecodeArena,
        mut f: F,
    ) -> Result<usize, KeyError>
    where
        F: FnMut(usize, Component<'_>),
    {
        let mut n = 0;
        self.decode_native(key, |format, rest, fields| {
            n = arena.decode(format, rest, fields, &mut f)?;
            Ok(())
        })?;
        Ok(n)
    }

    /// The checks and unsalting of [`KeySpec::decode_into`] around
    /// `decode(format, rest, fields)`, the decoding of the key past its
    /// salt (its errors shifted to offsets into the whole key).
    #[inline(always)]
    fn decode_native<'k>(
        &self,
        key: &'k [u8],
        decode: impl FnOnce(Format, &'k [u8], Option<&[crate::Field]>) -> Result<(), crate::DecodeError>,
    ) -> Result<(), KeyError> {
        use crate::DecodeError as E;
        if key.len() > self.max_key_len {
            return Err(E::TrailingBytes {
                offset: self.max_key_len,
            }
            .into());
        }
        let KeyFormat::Native(f) = self.format else {
            return Err(E::NonCanonical {
                offset: 0,
                reason: "an interop profile's key: decode it with KeySpec::decode",
            }
            .into());
        };
        let fields = self.schema.as_ref().map(|_| self.schema_fields.as_slice());
        let Some(s) = &self.salter else {
            return Ok(decode(f, key, fields)?);
        };
        let n = s.salt_len();
        let rest_into =
            |rest: &'k [u8]| decode(f, rest, fields).map_err(|e| KeyError::from(e.shift(n)));
        match s.unsalt(key) {
            Ok((_, rest)) => rest_into(rest),
            Err(E::NonCanonical { .. }) => {
                let rest = &key[n..];
                rest_into(rest)?;
                let found = if s.is_text() {
                    // Two hex digits, checked by unsalt.
                    std::str::from_utf8(&key[..2])
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .unwrap_or(u8::MAX)
                } else {
                    key[0]
                };
                Err(KeyError::WrongBucket(WrongBucket {
                    found,
                    expected: s.bucket(rest),
                    buckets: s.buckets(),
                    mode: s.mode(),
                }))
            }
            Err(e) => Err(e.into()),
        }
    }
}

impl<'k> KeyValues<'_, 'k> {
    /// The decoded values of an interop profile's key (`None` for a
    /// native format's).
    pub fn profile_values(&self) -> Option<&profile::Decoded> {
        match &self.decoded {
            DecodedKey::Profile(d) => Some(d),
            DecodedKey::Native(_) => None,
        }
    }

    /// The components of a native format's key (`None` for an interop
    /// profile's).
    pub fn components(&self) -> Option<&[Component<'k>]> {
        match &self.decoded {
            DecodedKey::Native(c) => Some(c),
            DecodedKey::Profile(_) => None,
        }
    }
}

impl KeyValues<'_, '_> {
    /// The number of values.
    pub fn len(&self) -> usize {
        match &self.decoded {
            DecodedKey::Native(c) => c.len(),
            DecodedKey::Profile(profile::Decoded::Fdb(es)) => es.len(),
            DecodedKey::Profile(profile::Decoded::Hbase(vs)) => vs.len(),
            DecodedKey::Profile(profile::Decoded::Phoenix(vs)) => vs.len(),
        }
    }

    /// Whether the key holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn col(&self, i: usize) -> Option<&Col> {
        match self.spec.schema.as_deref()?.get(i)? {
            ColType::Native(c) => Some(c),
            _ => None,
        }
    }

    /// The type label of value `i` as the command line labels it (the
    /// schema's column, `i64.desc`, `ulid`; `int`, `str`, `nested` for a
    /// tuple element; `char(4)`, `text`).
    ///
    /// # Panics
    /// `i` out of range.
    pub fn label(&self, i: usize) -> String {
        match &self.decoded {
            DecodedKey::Native(c) => match self.col(i) {
                Some(col) => col.to_string(),
                None => c[i].field().to_string(),
            },
            DecodedKey::Profile(profile::Decoded::Fdb(es)) => host::fdb_label(&es[i]).to_string(),
            DecodedKey::Profile(profile::Decoded::Hbase(vs)) => vs[i].0.to_string(),
            DecodedKey::Profile(profile::Decoded::Phoenix(vs)) => vs[i].0.to_string(),
        }
    }

    /// Value `i`, host-neutral.
    ///
    /// # Errors
    /// A value of a native kind its encoder could not have written (a
    /// `uuid7` that is not a version 7, a `geo` code outside the grid):
    /// the kind's message (see [`KeyValues::offset`] for where it is).
    ///
    /// # Panics
    /// `i` out of range.
    pub fn get(&self, i: usize) -> Result<host::Out<'_>, ParseError> {
        Ok(match &self.decoded {
            DecodedKey::Native(c) => host::native_out(self.col(i), &c[i].value, &self.spec.geo)?,
            DecodedKey::Profile(profile::Decoded::Fdb(es)) => host::fdb_out(&es[i]),
            DecodedKey::Profile(profile::Decoded::Hbase(vs)) => host::hbase_out(&vs[i].1),
            DecodedKey::Profile(profile::Decoded::Phoenix(vs)) => host::phoenix_out(&vs[i].1),
        })
    }

    /// The message and offset every front end reports when value `i` of
    /// `key` (this decoded key) cannot be given back: `invalid key KEY:
    /// value N at byte OFFSET: ERROR`, `N` counted from 1 and `OFFSET`
    /// from [`KeyValues::offset`].
    ///
    /// # Panics
    /// `i` out of range.
    pub fn value_error(&self, key: &[u8], i: usize, error: impl fmt::Display) -> (String, usize) {
        let offset = self.offset(i);
        let msg = format!(
            "invalid key {}: value {} at byte {offset}: {error}",
            crate::show_key(key),
            i + 1
        );
        (msg, offset)
    }

    /// The components in the format's `TYPE[.desc]:VALUE` syntax (what
    /// [`KeySpec::parse_components`] reads back).
    pub fn component_texts(&self) -> Vec<String> {
        match &self.decoded {
            DecodedKey::Native(c) => c.iter().map(literal::component_to_string).collect(),
            DecodedKey::Profile(d) => profile::component_texts(d),
        }
    }

    /// The byte offset in the key where value `i`'s component starts
    /// (after the salt and any separator): decoding is canonical, so the
    /// components before it encode to exactly the bytes before it. For an
    /// interop key, the key of the values up to `i` less value `i`'s own
    /// bytes (exact for the fixed-width values).
    ///
    /// # Panics
    /// `i` out of range.
    pub fn offset(&self, i: usize) -> usize {
        use crate::interop::fdb;
        let spec = self.spec;
        match &self.decoded {
            DecodedKey::Native(comps) => {
                let f = spec.format.native();
                let mut before = Vec::new();
                // Cannot fail: the components were decoded from a key of
                // this format.
                let _ = tuple::encode_into(f, &comps[..i], &mut before);
                spec.salter.as_ref().map_or(0, Salter::salt_len)
                    + before.len()
                    + usize::from(i > 0 && f.is_text())
            }
            DecodedKey::Profile(d) => {
                let (mut upto, mut own) = (Vec::new(), Vec::new());
                match d {
                    profile::Decoded::Fdb(es) => {
                        fdb::pack(&es[..i], &mut upto);
                        return upto.len();
                    }
                    profile::Decoded::Hbase(vs) => {
                        let (fields, values): (Vec<_>, Vec<_>) = vs[..=i].iter().cloned().unzip();
                        let codec = spec.profile.hbase;
                        let _ = codec.encode_struct(&fields, &values, &mut upto);
                        let _ = codec.encode_value(vs[i].0, &vs[i].1, &mut own);
                    }
                    profile::Decoded::Phoenix(vs) => {
                        let Some(profile::Schema::Phoenix(table)) = &spec.profile_schema else {
                            return 0;
                        };
                        let mut table = table.clone();
                        table.columns.truncate(i + 1);
                        let values: Vec<_> = vs[..=i].iter().map(|(_, v)| v.clone()).collect();
                        let _ = phoenix::encode_row_key(&table, &values, &mut upto);
                        let _ = phoenix::encode_value(vs[i].0, &vs[i].1, &mut own);
                    }
                }
                upto.len().saturating_sub(own.len())
            }
        }
    }
}
