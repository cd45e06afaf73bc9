//! Half-open key ranges `[start, end)` and prefix ends.
//!
//! Every range in lexikey is half-open: `start` is inclusive, `end` is
//! exclusive, and either side may be unbounded (`None`), meaning "from the
//! first key of the table" / "to the end of the table". This is what HBase
//! (`STARTROW`/`STOPROW`), RocksDB (`iterate_lower_bound`/`iterate_upper_bound`),
//! etcd (`key`/`range_end`) and FoundationDB use.

use std::fmt;

/// A half-open key range `[start, end)`; `None` on a side means unbounded.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct KeyRange {
    /// Inclusive lower bound; `None` = from the first key.
    pub start: Option<Vec<u8>>,
    /// Exclusive upper bound; `None` = to the last key.
    pub end: Option<Vec<u8>>,
}

/// The range is empty: no key can match (for example `> i64::MAX`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("empty range: no key can match (start >= end)")]
pub struct EmptyRange;

impl KeyRange {
    /// Every key.
    pub const fn all() -> KeyRange {
        KeyRange {
            start: None,
            end: None,
        }
    }

    /// `[start, end)`, refusing an empty range.
    ///
    /// # Errors
    /// [`EmptyRange`] when both sides are bounded and `start >= end`.
    pub fn new(start: Option<Vec<u8>>, end: Option<Vec<u8>>) -> Result<KeyRange, EmptyRange> {
        if let (Some(s), Some(e)) = (&start, &end) {
            if s >= e {
                return Err(EmptyRange);
            }
        }
        Ok(KeyRange { start, end })
    }

    /// The keys that start with `prefix`: `[prefix, prefix_end(prefix))`.
    /// An empty prefix is every key.
    ///
    /// ```
    /// use lexikey::KeyRange;
    /// let r = KeyRange::prefix(b"ab\xFF");
    /// assert_eq!(r.end.as_deref(), Some(&b"ac"[..]));
    /// assert!(r.contains(b"ab\xFF\xFF\x00") && !r.contains(b"ac"));
    /// ```
    pub fn prefix(prefix: &[u8]) -> KeyRange {
        KeyRange {
            start: (!prefix.is_empty()).then(|| prefix.to_vec()),
            end: prefix_end(prefix),
        }
    }

    /// `[start, end]` made half-open: the end becomes the smallest key
    /// greater than `end` (`end + 00`).
    pub fn inclusive(start: Option<Vec<u8>>, end: &[u8]) -> Result<KeyRange, EmptyRange> {
        let mut e = end.to_vec();
        e.push(0);
        KeyRange::new(start, Some(e))
    }

    /// Whether `key` is in the range.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.start.as_deref().is_none_or(|s| key >= s)
            && self.end.as_deref().is_none_or(|e| key < e)
    }

    /// Whether the range holds no key at all.
    pub fn is_empty(&self) -> bool {
        matches!((&self.start, &self.end), (Some(s), Some(e)) if s >= e)
    }
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |s: &Option<Vec<u8>>| match s {
            None => "∞".to_string(),
            Some(k) => crate::escape_key(k),
        };
        write!(f, "[{}, {})", side(&self.start), side(&self.end))
    }
}

pub mod render;

pub use crate::bytes::prefix_end;

/// The smallest **valid UTF-8** string greater than every string that starts
/// with `prefix`: drop trailing U+10FFFF characters, then replace the last
/// character by the next code point (skipping the surrogate gap
/// U+D800–U+DFFF). `None` when no such string exists (empty, or only
/// U+10FFFF).
///
/// A byte-wise prefix end of text can produce invalid UTF-8 (`"é"` is
/// `C3 A9`; `C3 AA` is fine but `"\u{7F}"` → `80` is not a valid string),
/// which PostgreSQL `text` and CQL `text` columns refuse.
///
/// ```
/// use lexikey::range::text_prefix_end;
/// assert_eq!(text_prefix_end("usa#").as_deref(), Some("usa$"));
/// assert_eq!(text_prefix_end("a\u{7F}").as_deref(), Some("a\u{80}"));
/// assert_eq!(text_prefix_end("a\u{D7FF}").as_deref(), Some("a\u{E000}"));
/// assert_eq!(text_prefix_end("b\u{10FFFF}").as_deref(), Some("c"));
/// assert_eq!(text_prefix_end("\u{10FFFF}"), None);
/// ```
pub fn text_prefix_end(prefix: &str) -> Option<String> {
    let mut s = prefix.trim_end_matches(char::MAX).to_string();
    let last = s.pop()?;
    let next = match last as u32 {
        0xD7FF => '\u{E000}',
        c => char::from_u32(c + 1)?,
    };
    s.push(next);
    Some(s)
}

/// Why a range could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RangeError {
    /// No key can match (for example `> i64::MAX`, or `>= 5` and `< 3`).
    #[error("empty range: no key can match these predicates")]
    Empty,
    /// A component could not be encoded.
    #[error(transparent)]
    Encode(#[from] crate::EncodeError),
    /// The predicates do not fit together (different types or directions
    /// on the same component, a string prefix on a non-string component),
    /// or the query cannot be asked of these keys.
    #[error("{0}")]
    Mismatch(String),
    /// A component of the fixed prefix cannot be written (interop
    /// profiles): `index` counts from 0.
    #[error("component {}: {reason}", index + 1)]
    Component {
        /// The component's zero-based index in the prefix.
        index: usize,
        /// Why.
        reason: String,
    },
    /// A predicate cannot be used (interop profiles): `index` counts the
    /// predicates from 0; `name` is [`Pred::name`].
    #[error("predicate {} ({name}): {reason}", index + 1)]
    Predicate {
        /// The predicate's zero-based index.
        index: usize,
        /// The predicate's name (`ge`, `prefix`, ...).
        name: &'static str,
        /// Why.
        reason: String,
    },
}

impl From<EmptyRange> for RangeError {
    fn from(_: EmptyRange) -> Self {
        RangeError::Empty
    }
}

/// A key range as (inclusive start, exclusive end), `None` = unbounded.
type Sides = (Option<Vec<u8>>, Option<Vec<u8>>);

/// The keys whose next component is one value: `[lo, hi)`, `None` for
/// −∞ / +∞.
#[derive(Debug, Clone)]
pub(crate) struct Span {
    pub(crate) lo: Option<Vec<u8>>,
    pub(crate) hi: Option<Vec<u8>>,
}

impl Span {
    /// The keys that start with `q`.
    pub(crate) fn prefix(q: Vec<u8>) -> Span {
        Span {
            hi: prefix_end(&q),
            lo: Some(q),
        }
    }

    /// The single key `q` and the keys that continue it with a byte below
    /// `after`: `[q, q ‖ after)`.
    pub(crate) fn upto(q: Vec<u8>, after: u8) -> Span {
        let mut hi = Vec::with_capacity(q.len() + 1);
        hi.extend_from_slice(&q);
        hi.push(after);
        Span {
            hi: Some(hi),
            lo: Some(q),
        }
    }
}

/// The intersection of the key bounds seen so far: the one range
/// intersection of every range builder (native formats and profiles).
#[derive(Debug, Default)]
pub(crate) struct Bounds {
    pub(crate) start: Option<Vec<u8>>,
    pub(crate) end: Option<Vec<u8>>,
    /// Nothing is left (a bound beyond the last key or below the first).
    pub(crate) empty: bool,
}

impl Bounds {
    /// Raises the start to `lo` (`None`: −∞, no change).
    pub(crate) fn raise(&mut self, lo: Option<Vec<u8>>) {
        if let Some(lo) = lo {
            if self.start.as_ref().is_none_or(|s| lo > *s) {
                self.start = Some(lo);
            }
        }
    }

    /// Lowers the end to `hi` (`None`: +∞, no change).
    pub(crate) fn lower(&mut self, hi: Option<Vec<u8>>) {
        if let Some(hi) = hi {
            if self.end.as_ref().is_none_or(|e| hi < *e) {
                self.end = Some(hi);
            }
        }
    }

    /// Raises the start to `hi` (`None`: +∞, nothing is left).
    fn raise_past(&mut self, hi: Option<Vec<u8>>) {
        match hi {
            Some(_) => self.raise(hi),
            None => self.empty = true,
        }
    }

    /// Lowers the end to `lo` (`None`: −∞, nothing is left).
    fn lower_below(&mut self, lo: Option<Vec<u8>>) {
        match lo {
            Some(_) => self.lower(lo),
            None => self.empty = true,
        }
    }

    /// Keeps only the keys in `span`.
    pub(crate) fn within(&mut self, span: Span) {
        self.raise(span.lo);
        self.lower(span.hi);
    }

    /// Applies a comparison (`p`'s operator; its value is ignored) against
    /// the keys of one value; `desc`: the component sorts in descending
    /// value order.
    pub(crate) fn apply<V>(&mut self, p: &Pred<V>, span: Span, desc: bool) {
        match (p, desc) {
            (Pred::Eq(_) | Pred::Prefix(..) | Pred::IsNull(_) | Pred::NotNull(_), _) => {
                self.within(span)
            }
            (Pred::Ge(_), false) | (Pred::Le(_), true) => self.raise(span.lo),
            (Pred::Ge(_), true) | (Pred::Le(_), false) => self.lower(span.hi),
            (Pred::Gt(_), false) | (Pred::Lt(_), true) => self.raise_past(span.hi),
            (Pred::Gt(_), true) | (Pred::Lt(_), false) => self.lower_below(span.lo),
        }
    }

    /// The range, or [`RangeError::Empty`] when no key is left.
    pub(crate) fn finish(self) -> Result<KeyRange, RangeError> {
        let empty = self.empty
            || matches!((&self.start, &self.end), (Some(s), Some(e)) if s >= e)
            || self.end.as_deref() == Some(&[][..]);
        if empty {
            return Err(RangeError::Empty);
        }
        Ok(KeyRange {
            start: self.start,
            end: self.end,
        })
    }
}

/// A predicate on the component after a range's fixed prefix: the one
/// predicate type of every range builder — `Pred<Component>` for the
/// native formats ([`RangeQuery`]) and `Pred<profile::Item>` for the
/// interop profiles ([`crate::frontend::profile::ProfileRange`]). Predicates are on
/// values: the builders turn them into key bounds, swapping the sides for a
/// descending component.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred<V> {
    /// The component equals the value (any components may follow it).
    Eq(V),
    /// The component is `>=` the value.
    Ge(V),
    /// The component is `>` the value.
    Gt(V),
    /// The component is `<=` the value.
    Le(V),
    /// The component is `<` the value.
    Lt(V),
    /// The component is a string, of this direction, that starts with the
    /// text.
    Prefix(String, Dir),
    /// The component is null (SQL's `IS NULL`). The value names the
    /// nullable component (for the native formats, its null:
    /// `Component::of(field, Value::Null(ty))`); only its type, direction
    /// and nullability are used.
    IsNull(V),
    /// The component is not null (SQL's `IS NOT NULL`); the value as for
    /// [`Pred::IsNull`].
    NotNull(V),
}

/// The operator of a [`Pred`]: what every front end names a predicate by
/// (the command line's `--ge`, Python's `ge=`, Java's `Predicate.Kind`),
/// handed to [`crate::frontend::spec::KeySpec::parse_pred`] as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PredOp {
    /// [`Pred::Eq`].
    Eq,
    /// [`Pred::Ge`].
    Ge,
    /// [`Pred::Gt`].
    Gt,
    /// [`Pred::Le`].
    Le,
    /// [`Pred::Lt`].
    Lt,
    /// [`Pred::Prefix`].
    Prefix,
    /// [`Pred::IsNull`].
    IsNull,
    /// [`Pred::NotNull`].
    NotNull,
}

impl PredOp {
    /// Every operator, in this order (Java's `Predicate.Kind` ordinals).
    pub const ALL: [PredOp; 8] = [
        PredOp::Eq,
        PredOp::Ge,
        PredOp::Gt,
        PredOp::Le,
        PredOp::Lt,
        PredOp::Prefix,
        PredOp::IsNull,
        PredOp::NotNull,
    ];

    /// The name, as the command line spells its option: `eq`, `ge`, `gt`,
    /// `le`, `lt`, `prefix`, `is-null` or `not-null`.
    pub fn name(self) -> &'static str {
        match self {
            PredOp::Eq => "eq",
            PredOp::Ge => "ge",
            PredOp::Gt => "gt",
            PredOp::Le => "le",
            PredOp::Lt => "lt",
            PredOp::Prefix => "prefix",
            PredOp::IsNull => "is-null",
            PredOp::NotNull => "not-null",
        }
    }

    /// The operator named `name` ([`PredOp::name`]).
    pub fn from_name(name: &str) -> Option<PredOp> {
        PredOp::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl std::fmt::Display for PredOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl<V> Pred<V> {
    /// The predicate's operator.
    pub fn op(&self) -> PredOp {
        match self {
            Pred::Eq(_) => PredOp::Eq,
            Pred::Ge(_) => PredOp::Ge,
            Pred::Gt(_) => PredOp::Gt,
            Pred::Le(_) => PredOp::Le,
            Pred::Lt(_) => PredOp::Lt,
            Pred::Prefix(..) => PredOp::Prefix,
            Pred::IsNull(_) => PredOp::IsNull,
            Pred::NotNull(_) => PredOp::NotNull,
        }
    }

    /// The predicate's name, as the command line spells its option:
    /// `eq`, `ge`, `gt`, `le`, `lt` or `prefix` ([`PredOp::name`]).
    pub fn name(&self) -> &'static str {
        self.op().name()
    }

    /// The predicate `op` with `v` (for [`PredOp::IsNull`] and
    /// [`PredOp::NotNull`], `v` names the component); `None` for
    /// [`PredOp::Prefix`] (whose value is a text, not a `V`).
    pub fn with_op(op: PredOp, v: V) -> Option<Pred<V>> {
        Some(match op {
            PredOp::Eq => Pred::Eq(v),
            PredOp::Ge => Pred::Ge(v),
            PredOp::Gt => Pred::Gt(v),
            PredOp::Le => Pred::Le(v),
            PredOp::Lt => Pred::Lt(v),
            PredOp::Prefix => return None,
            PredOp::IsNull => Pred::IsNull(v),
            PredOp::NotNull => Pred::NotNull(v),
        })
    }

    /// The value compared with, or naming the component of an
    /// `is-null`/`not-null` (`None` for a prefix).
    pub fn value(&self) -> Option<&V> {
        match self {
            Pred::Eq(v)
            | Pred::Ge(v)
            | Pred::Gt(v)
            | Pred::Le(v)
            | Pred::Lt(v)
            | Pred::IsNull(v)
            | Pred::NotNull(v) => Some(v),
            Pred::Prefix(..) => None,
        }
    }

    /// The comparison named `name` (`eq`, `ge`, `gt`, `le`, `lt`) with `v`;
    /// `None` for another name.
    pub fn compare(name: &str, v: V) -> Option<Pred<V>> {
        Pred::with_op(PredOp::from_name(name)?, v)
    }

    /// The same predicate on `f(value)`.
    ///
    /// # Errors
    /// The first error of `f`.
    pub fn try_map<W, E>(self, f: impl FnOnce(V) -> Result<W, E>) -> Result<Pred<W>, E> {
        Ok(match self {
            Pred::Eq(v) => Pred::Eq(f(v)?),
            Pred::Ge(v) => Pred::Ge(f(v)?),
            Pred::Gt(v) => Pred::Gt(f(v)?),
            Pred::Le(v) => Pred::Le(f(v)?),
            Pred::Lt(v) => Pred::Lt(f(v)?),
            Pred::Prefix(t, d) => Pred::Prefix(t, d),
            Pred::IsNull(v) => Pred::IsNull(f(v)?),
            Pred::NotNull(v) => Pred::NotNull(f(v)?),
        })
    }
}

/// A range query: fixed leading components (the tuple prefix) and predicates
/// on the next component. With no predicate it is every key that extends
/// the prefix. Several predicates **intersect** (`ge(a).lt(b)` is
/// `a <= x < b`). Predicates are stated on values; the builder knows each
/// component's direction, so `ge` on a descending component becomes an
/// upper key bound.
///
/// Keys with more components after the constrained one are handled: `eq(5)`
/// includes `…#5#anything`, `gt(5)` excludes every key whose component is 5
/// whatever follows.
///
/// ```
/// use lexikey::{range::RangeQuery, Component, Format};
/// let prefix = [Component::asc("population")];
/// let r = RangeQuery::new(Format::Hex).prefix(&prefix).ge(Component::asc(1_000_000_i64)).build()?;
/// assert_eq!(r.start.as_deref(), Some(&b"population#l80000000000F4240"[..]));
/// assert_eq!(r.end.as_deref(), Some(&b"population$"[..]));
/// # Ok::<(), lexikey::range::RangeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct RangeQuery<'a> {
    format: Format,
    prefix: &'a [Component<'a>],
    preds: Vec<Pred<Component<'a>>>,
    fields: Option<&'a [Field]>,
}

use crate::format::Format;
use crate::value::{Component, Dir, Field, Nulls, Type, Value};

impl<'a> RangeQuery<'a> {
    /// A query over keys of `format`, with no prefix and no predicate
    /// (every key).
    pub fn new(format: Format) -> Self {
        RangeQuery {
            format,
            prefix: &[],
            preds: Vec::new(),
            fields: None,
        }
    }

    /// The key's schema: the prefix components and the predicates must
    /// then be of their fields' types and directions, or
    /// [`RangeQuery::build`] refuses the query naming both types. Without
    /// a schema a bound's type is its component's own: `ge(Component::asc(5))`
    /// is `>= 5_i32`, whose keys (tag `i`) are not those of an `i64` field
    /// (tag `l`) — suffix the literals, or give the schema.
    ///
    /// ```
    /// use lexikey::{range::RangeQuery, Component, Field, Format};
    /// let schema = Field::parse_schema("str,i64")?;
    /// let prefix = [Component::asc("population")];
    /// let q = RangeQuery::new(Format::Hex).fields(&schema).prefix(&prefix);
    /// let err = q.clone().ge(Component::asc(1_000_000)).build().unwrap_err();
    /// assert_eq!(err.to_string(), "the ge predicate is an i32 (1000000), but field 2 of the schema is an i64");
    /// assert!(q.ge(Component::asc(1_000_000_i64)).build().is_ok());
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn fields(mut self, fields: &'a [Field]) -> Self {
        self.fields = Some(fields);
        self
    }

    /// Sets the fixed leading components.
    pub fn prefix(mut self, prefix: &'a [Component<'a>]) -> Self {
        self.prefix = prefix;
        self
    }

    /// Next component `== c` (any components may follow it).
    pub fn eq(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::Eq(c));
        self
    }

    /// Next component `>= c`.
    pub fn ge(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::Ge(c));
        self
    }

    /// Next component `> c`.
    pub fn gt(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::Gt(c));
        self
    }

    /// Next component `<= c`.
    pub fn le(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::Le(c));
        self
    }

    /// Next component `< c`.
    pub fn lt(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::Lt(c));
        self
    }

    /// Next component between `low` and `high`, each end inclusive or not.
    pub fn between(
        self,
        low: Component<'a>,
        low_inclusive: bool,
        high: Component<'a>,
        high_inclusive: bool,
    ) -> Self {
        let q = if low_inclusive {
            self.ge(low)
        } else {
            self.gt(low)
        };
        if high_inclusive {
            q.le(high)
        } else {
            q.lt(high)
        }
    }

    /// Next component is null (SQL's `IS NULL`): `c` names the nullable
    /// component, as its null.
    ///
    /// ```
    /// use lexikey::{range::RangeQuery, Component, Field, Format, Type, Value};
    /// let age = Field::parse("i64?")?;
    /// let prefix = [Component::asc("person")];
    /// let null = || Component::of(age, Value::Null(Type::I64));
    /// let r = RangeQuery::new(Format::Hex).prefix(&prefix).is_null(null()).build()?;
    /// assert_eq!((r.start.as_deref(), r.end.as_deref()), (Some(&b"person#-"[..]), Some(&b"person#-$"[..])));
    /// let r = RangeQuery::new(Format::Hex).prefix(&prefix).not_null(null()).build()?;
    /// assert_eq!((r.start.as_deref(), r.end.as_deref()), (Some(&b"person#="[..]), Some(&b"person#>"[..])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_null(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::IsNull(c));
        self
    }

    /// Next component is not null (SQL's `IS NOT NULL`); `c` as for
    /// [`RangeQuery::is_null`].
    pub fn not_null(mut self, c: Component<'a>) -> Self {
        self.preds.push(Pred::NotNull(c));
        self
    }

    /// Next component is a string (of direction `dir`) starting with `text`.
    ///
    /// On a nullable `str?` component the prefix selects its present
    /// values that start with `text` (the marker "value follows", then the
    /// prefix; never a null): the component is nullable when the
    /// [`RangeQuery::fields`] say so, or when another predicate on it names
    /// it nullable (`not_null` of a `str?`).
    ///
    /// ```
    /// use lexikey::{range::RangeQuery, Component, Dir, Field, Format, Type, Value};
    /// let name = [Field::parse("str")?, Field::parse("str?")?];
    /// let prefix = [Component::asc("person")];
    /// let r = RangeQuery::new(Format::Hex).prefix(&prefix).fields(&name).str_prefix("ab", Dir::Asc).build()?;
    /// assert_eq!((r.start.as_deref(), r.end.as_deref()), (Some(&b"person#=ab"[..]), Some(&b"person#=ac"[..])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn str_prefix(mut self, text: &str, dir: Dir) -> Self {
        self.preds.push(Pred::Prefix(text.to_string(), dir));
        self
    }

    /// Adds a predicate.
    pub fn pred(mut self, p: Pred<Component<'a>>) -> Self {
        self.preds.push(p);
        self
    }

    /// Computes the half-open key range.
    ///
    /// # Errors
    /// [`RangeError::Empty`] when no key can match; [`RangeError::Encode`];
    /// [`RangeError::Mismatch`] when predicates disagree on the component's
    /// type or direction.
    pub fn build(&self) -> Result<KeyRange, RangeError> {
        if let Some(fields) = self.fields {
            self.check_fields(fields)?;
        }
        let f = self.format;
        let text = f.is_text();
        // X = the prefix's key (plus the separator in text formats): where
        // the next component starts. Encoded once; every bound extends it.
        let mut x = Vec::with_capacity(64);
        crate::tuple::encode_into(f, self.prefix, &mut x)?;
        let plen = x.len();
        if text && !self.prefix.is_empty() {
            x.push(crate::format::text::SEP);
        }
        // Bounds from the predicates; `None` = the prefix's own bound. Every
        // predicate's bounds lie inside the prefix range, so intersecting
        // keys alone is enough.
        let mut b = Bounds::default();
        let mut field: Option<(Type, Dir, Option<Nulls>, u8)> = None;
        let prefix_nulls = self.prefix_nulls();
        for p in &self.preds {
            check_null_operand(p)?;
            let Some(p) = normalize(p) else {
                return Err(RangeError::Empty);
            };
            let (ty, dir, nulls, list) = match &p {
                Pred::Eq(c)
                | Pred::Ge(c)
                | Pred::Gt(c)
                | Pred::Le(c)
                | Pred::Lt(c)
                | Pred::IsNull(c)
                | Pred::NotNull(c) => (c.value.ty(), c.dir, c.nulls, c.list),
                // A string prefix: of a `str` component, not a list.
                Pred::Prefix(_, d) => (Type::Str, *d, prefix_nulls, 0),
            };
            match field {
                None => field = Some((ty, dir, nulls, list)),
                Some(prev) if prev == (ty, dir, nulls, list) => {}
                Some((pt, pd, pn, pl)) => {
                    return Err(RangeError::Mismatch(format!(
                        "predicates disagree on the component: {} vs {}",
                        field_name(pt, pd, pn, pl),
                        field_name(ty, dir, nulls, list),
                    )))
                }
            }
            let (lo, hi) = pred_bounds(f, &p, &x, prefix_nulls)?;
            b.raise(lo);
            b.lower(hi);
            // A comparison on a nullable component: its values only (SQL:
            // a comparison is never true of a null).
            if let (Some(nulls), Pred::Ge(_) | Pred::Gt(_) | Pred::Le(_) | Pred::Lt(_)) =
                (nulls, &p)
            {
                let span = null_span(f, &x, nulls, false);
                b.raise(span.0);
                b.lower(span.1);
            }
        }
        let Bounds { start, end, .. } = b;
        // The prefix's own bounds where no predicate set one.
        let end = match end {
            Some(e) => Some(e),
            None => crate::tuple::extension_end(f, &x[..plen], self.prefix.is_empty()),
        };
        let start = match start {
            Some(s) => Some(s),
            None if x.is_empty() => None,
            None => {
                if !text {
                    // Binary: the key of the prefix itself is not inside.
                    x.push(0);
                }
                Some(x)
            }
        };
        Ok(KeyRange::new(start, end)?)
    }
}

impl RangeQuery<'_> {
    /// Where the nulls of the component a [`Pred::Prefix`] constrains
    /// sort, `None` when it is not nullable: the field's, when the fields
    /// name a `str` there; else the first other predicate's that names a
    /// `str` component (`--not-null str? --prefix ab`); else not nullable.
    fn prefix_nulls(&self) -> Option<Nulls> {
        if let Some(f) = self.fields.and_then(|fs| fs.get(self.prefix.len())) {
            return if f.ty == Type::Str && f.list == 0 {
                f.nulls
            } else {
                None
            };
        }
        self.preds
            .iter()
            .filter_map(Pred::value)
            .find(|c| c.value.ty() == Type::Str && c.list == 0)
            .and_then(|c| c.nulls)
    }

    /// Refuses a prefix component or a predicate whose type or direction
    /// is not its field's.
    fn check_fields(&self, fields: &[Field]) -> Result<(), RangeError> {
        let name = field_name;
        let article = |t: &str| {
            if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            }
        };
        let field_name = |i: usize| {
            let f = &fields[i];
            let n = name(f.ty, f.dir, f.nulls, f.list);
            format!("field {} of the schema is {} {n}", i + 1, article(&n))
        };
        for (i, c) in self.prefix.iter().enumerate() {
            let Some(f) = fields.get(i) else {
                return Err(RangeError::Mismatch(format!(
                    "the prefix has {} components, but the schema has {} fields",
                    self.prefix.len(),
                    fields.len()
                )));
            };
            if (c.value.ty(), c.dir, c.nulls, c.list) != (f.ty, f.dir, f.nulls, f.list) {
                let n = name(c.value.ty(), c.dir, c.nulls, c.list);
                return Err(RangeError::Mismatch(format!(
                    "component {} is {} {n} ({}), but {}",
                    i + 1,
                    article(&n),
                    crate::value::literal::show_input(&crate::value::literal::value_to_string(
                        &c.value
                    )),
                    field_name(i)
                )));
            }
        }
        let next = self.prefix.len();
        for p in &self.preds {
            let Some(f) = fields.get(next) else {
                return Err(RangeError::Mismatch(format!(
                    "the schema has {} fields: no field after the prefix for the {} predicate",
                    fields.len(),
                    p.name()
                )));
            };
            let (ty, dir, nulls, list, shown) = match p {
                // A prefix is a str's (not a list's), nullable or not as its
                // field is.
                Pred::Prefix(t, d) => (
                    Type::Str,
                    *d,
                    f.nulls.filter(|_| f.ty == Type::Str && f.list == 0),
                    0,
                    t.clone(),
                ),
                Pred::Eq(c)
                | Pred::Ge(c)
                | Pred::Gt(c)
                | Pred::Le(c)
                | Pred::Lt(c)
                | Pred::IsNull(c)
                | Pred::NotNull(c) => (
                    c.value.ty(),
                    c.dir,
                    c.nulls,
                    c.list,
                    if c.is_null() {
                        "null".to_string()
                    } else {
                        crate::value::literal::value_to_string(&c.value)
                    },
                ),
            };
            if (ty, dir, nulls, list) != (f.ty, f.dir, f.nulls, f.list) {
                let n = name(ty, dir, nulls, list);
                return Err(RangeError::Mismatch(format!(
                    "the {} predicate is {} {n} ({}), but {}",
                    p.name(),
                    article(&n),
                    if shown.len() > 64 {
                        crate::value::literal::show_input(&shown)
                    } else {
                        shown
                    },
                    field_name(next)
                )));
            }
        }
        Ok(())
    }
}

/// A field's name as a schema writes it (`i64?.desc`), for messages.
fn field_name(ty: Type, dir: Dir, nulls: Option<Nulls>, list: u8) -> String {
    Field {
        ty,
        dir,
        width: None,
        nulls,
        list,
    }
    .to_string()
}

/// Refuses a null where a value is compared (`--ge i64?`: no value is
/// greater than a null; ask with `is-null`), and an `is-null`/`not-null`
/// whose component is not nullable or not a null.
fn check_null_operand(p: &Pred<Component<'_>>) -> Result<(), RangeError> {
    match p {
        Pred::IsNull(c) | Pred::NotNull(c) if c.nulls.is_none() => Err(RangeError::Mismatch(format!(
            "the {} predicate needs a nullable component ({}?), not {}",
            p.name(),
            c.value.ty(),
            c.field()
        ))),
        Pred::IsNull(c) | Pred::NotNull(c) if !c.is_null() => Err(RangeError::Mismatch(format!(
            "the {} predicate names its component by its null ({}), not a value",
            p.name(),
            c.field()
        ))),
        Pred::Ge(c) | Pred::Gt(c) | Pred::Le(c) | Pred::Lt(c) if c.is_null() => {
            Err(RangeError::Mismatch(format!(
                "the {} predicate compares with a null ({}): no value is ordered against a null; use is-null or not-null",
                p.name(),
                c.field()
            )))
        }
        _ => Ok(()),
    }
}

/// The keys whose nullable component (at `x`, nulls where `nulls` says)
/// is null (`null`) or holds a value: the keys that continue `x` with that
/// marker (see [`crate::format::null`]).
fn null_span(f: Format, x: &[u8], nulls: Nulls, null: bool) -> Sides {
    let mut at = Vec::with_capacity(x.len() + 2);
    at.extend_from_slice(x);
    at.push(crate::format::null::marker(f, nulls, null));
    let end = if null && f.is_text() {
        // The null is the whole part: the key ends or a separator follows.
        let mut e = at.clone();
        e.push(crate::format::text::SEP_END);
        Some(e)
    } else {
        // The marker is never FF, so this is the marker plus one.
        prefix_end(&at)
    };
    (Some(at), end)
}

/// The key bounds of one predicate on the component that starts at `x`
/// (`prefix_nulls`: where a [`Pred::Prefix`]'s component, when nullable,
/// sorts its nulls); `None` on a side = the prefix's own bound there.
fn pred_bounds(
    f: Format,
    p: &Pred<Component<'_>>,
    x: &[u8],
    prefix_nulls: Option<Nulls>,
) -> Result<Sides, RangeError> {
    let c = match p {
        Pred::Prefix(text, dir) => {
            // A nullable str: its present values, after the marker "value
            // follows" (the same for nulls first and last).
            let mut at = x.to_vec();
            if let Some(nulls) = prefix_nulls {
                at.push(crate::format::null::marker(f, nulls, false));
            }
            let (lo, hi) = str_prefix_bounds(f, &at, text, *dir);
            // An empty prefix adds nothing: the prefix's own start (in
            // binary, just above the bare prefix key).
            return Ok((lo.filter(|lo| lo.len() > x.len()), hi));
        }
        Pred::IsNull(c) | Pred::NotNull(c) => {
            let nulls = c.nulls.unwrap_or_default();
            return Ok(null_span(f, x, nulls, matches!(p, Pred::IsNull(_))));
        }
        Pred::Eq(c) | Pred::Ge(c) | Pred::Gt(c) | Pred::Le(c) | Pred::Lt(c) => c,
    };
    let mut at = Vec::with_capacity(x.len() + 24);
    at.extend_from_slice(x);
    f.encode_component(c, &mut at)?;
    // The end of the keys whose component is exactly c (with or without
    // more components after it). None: beyond the last key.
    let at_end = |at: &[u8]| {
        if f.is_text() {
            let mut e = Vec::with_capacity(at.len() + 1);
            e.extend_from_slice(at);
            e.push(crate::format::text::SEP_END);
            Some(e)
        } else {
            prefix_end(at)
        }
    };
    // Value predicates become key-order bounds; a descending component
    // swaps the sides.
    Ok(match (p, c.dir.is_desc()) {
        (Pred::Eq(_), _) => {
            let e = at_end(&at);
            (Some(at), e)
        }
        (Pred::Ge(_), false) | (Pred::Le(_), true) => (Some(at), None),
        (Pred::Gt(_), false) | (Pred::Lt(_), true) => match at_end(&at) {
            Some(e) => (Some(e), None),
            None => return Err(RangeError::Empty),
        },
        (Pred::Le(_), false) | (Pred::Ge(_), true) => (None, at_end(&at)),
        (Pred::Lt(_), false) | (Pred::Gt(_), true) => (None, Some(at)),
        (Pred::Prefix(..) | Pred::IsNull(_) | Pred::NotNull(_), _) => {
            unreachable!("returned above")
        }
    })
}

/// Rewrites a strict bound on a fixed-width value as an inclusive bound on
/// its neighbour (`> 5` → `>= 6`), so that a range with no value in it is
/// detected as empty (`> i64::MAX`, `> 5 and < 6`) and bounds read as real
/// keys. `None`: no value satisfies the predicate (`< ""` too).
fn normalize<'a>(p: &Pred<Component<'a>>) -> Option<Pred<Component<'a>>> {
    let with = |c: &Component<'a>, v: Value<'static>| Component {
        value: v,
        ..c.clone()
    };
    // A list of a fixed-width type is no fixed-width value: its strict
    // bounds stay strict.
    let fixed = |c: &Component<'_>| c.list == 0 && c.value.ty().fixed_len().is_some();
    Some(match p {
        Pred::Gt(c) if fixed(c) => Pred::Ge(with(c, step(&c.value, true)?)),
        Pred::Lt(c) if fixed(c) => Pred::Le(with(c, step(&c.value, false)?)),
        Pred::Lt(c) if matches!(&c.value, Value::Str(s) if s.is_empty()) => return None,
        Pred::Lt(c) if matches!(&c.value, Value::Bytes(b) if b.is_empty()) => return None,
        other => other.clone(),
    })
}

/// The next (`up`) or previous value of a fixed-width type in key order;
/// `None` past the end. Floats: the neighbour in the float order; above
/// `+inf` is the canonical NaN, and nothing is above NaN or below `-inf`.
fn step(v: &Value<'_>, up: bool) -> Option<Value<'static>> {
    let ty = v.ty();
    match (v, up) {
        (Value::F64(x), true) if *x == f64::INFINITY => return Some(Value::F64(f64::NAN)),
        (Value::F32(x), true) if *x == f32::INFINITY => return Some(Value::F32(f32::NAN)),
        (Value::F64(x), false) if x.is_nan() => return Some(Value::F64(f64::INFINITY)),
        (Value::F32(x), false) if x.is_nan() => return Some(Value::F32(f32::INFINITY)),
        _ => {}
    }
    let (mut buf, n) = v.order_bytes()?;
    let bytes = &mut buf[..n];
    // Big-endian increment / decrement with carry.
    let mut i = n;
    loop {
        if i == 0 {
            return None;
        }
        i -= 1;
        let (b, carry) = if up {
            bytes[i].overflowing_add(1)
        } else {
            bytes[i].overflowing_sub(1)
        };
        bytes[i] = b;
        if !carry {
            break;
        }
    }
    Value::from_order_bytes(ty, bytes)
}

/// Bounds of the keys whose next component (starting at `x`) is a string of
/// direction `dir` that starts with `text`. The end is `None` when it would
/// be unbounded (the caller substitutes the prefix's end).
fn str_prefix_bounds(
    f: Format,
    x: &[u8],
    text: &str,
    dir: Dir,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    use crate::format::text::Body;
    let mut lo = x.to_vec();
    match (f, dir) {
        (Format::Binary, Dir::Asc) => {
            // Escaped bytes without the terminator.
            crate::format::binary::encode_component(&Component::asc(text), &mut lo);
            lo.truncate(lo.len() - 2);
        }
        (Format::Binary, Dir::Desc) => {
            crate::format::binary::encode_component(&Component::desc(text), &mut lo);
            lo.truncate(lo.len() - 2);
        }
        (_, Dir::Asc) => crate::format::text::escape_into(text.as_bytes(), &mut lo),
        (Format::Base64, Dir::Desc) => {
            // Zero-padded body: the smallest body of any string starting
            // with `text`; the largest has the unused bits set, so the end
            // is the prefix end of that one.
            let mut hi = x.to_vec();
            crate::format::base64::B64::encode(text.as_bytes(), true, false, &mut lo);
            crate::format::base64::B64::encode(text.as_bytes(), true, true, &mut hi);
            let end = text_or_byte_end(f, &hi);
            return (Some(lo), end);
        }
        (_, Dir::Desc) => {
            crate::format::hex_digits::Hex::encode(text.as_bytes(), true, true, &mut lo)
        }
    }
    let end = text_or_byte_end(f, &lo);
    ((!lo.is_empty()).then_some(lo), end)
}

/// The prefix end of a key: by code point for text formats (the result stays
/// valid UTF-8), by byte for binary.
fn text_or_byte_end(f: Format, key: &[u8]) -> Option<Vec<u8>> {
    if f.is_text() {
        // Text keys built by lexikey are valid UTF-8.
        std::str::from_utf8(key)
            .ok()
            .and_then(text_prefix_end)
            .map(String::into_bytes)
    } else {
        prefix_end(key)
    }
}

#[cfg(test)]
mod pred_op_tests {
    use super::{Pred, PredOp};

    #[test]
    fn operators_round_trip_their_names() {
        for op in PredOp::ALL {
            assert_eq!(PredOp::from_name(op.name()), Some(op));
            assert_eq!(op.to_string(), op.name());
            match Pred::with_op(op, 1) {
                Some(p) => assert_eq!(p.op(), op),
                None => assert_eq!(op, PredOp::Prefix),
            }
        }
        assert_eq!(PredOp::from_name("ne"), None);
        assert_eq!(Pred::compare("lt", 2), Some(Pred::Lt(2)));
        assert_eq!(
            Pred::<u8>::Prefix("a".into(), crate::Dir::Asc).name(),
            "prefix"
        );
    }
}
