//! `lexikey` for Python: a thin PyO3 binding over the Rust core and the
//! command line's own parsing, so that the key a Python job writes is byte
//! for byte the key the Rust service and the `lexikey` command write.
//!
//! What it promises:
//! - **Same keys.** Component strings (`"i64.desc:5"`) and formats are the
//!   command line's: `encode` and `range` call the library's
//!   [`lexikey::frontend::spec::KeySpec`], the path the `lexikey` command's `encode`
//!   and `range` take too; `(type, value)` pairs become the same component,
//!   exactly (see `conv`). `Schema` encodes and decodes with the core
//!   directly, in bulk, with the GIL released, and is tested against the
//!   single-key path.
//! - **Strict decoding.** Every decoder is the core's canonical one; a bad
//!   key raises `DecodeError` with the byte offset the Rust error carries.
//! - **No panic reaches Python**: every failure is a Python exception.
//!
//! What it does not do: a second codec (there is none in Python), geo
//! grids other than the default (Hilbert, 32 bits per axis). Salted ranges
//! are one range per bucket: `Schema.ranges` returns the list (`range`
//! keeps the contract's single `(start, end)`).

use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::layout::{LayoutOption, OptionError};
use lexikey::frontend::profile::{Options, Profile};
use lexikey::frontend::spec::{comp_text, range_message, Comp, KeySpec};
use lexikey::interop::{hbase, phoenix};
use lexikey::range::render::{render as render_range, Dialect, RenderOptions};
use lexikey::range::{Pred, PredOp};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::KeyRange;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

mod alloc;
mod arrow;
mod bulk;
mod conv;
mod errors;
mod schema;
mod versionstamp;

use errors::{decode_err, encode_err, from_decode, value_err};

/// A Python integer (any `__index__` integer; not a `bool`) as `T`,
/// range-checked; `what` names it in messages (an `EncodeError`).
pub(crate) fn int_arg<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let v = conv::with_arg(obj, |a| match a {
        lexikey::frontend::host::Arg::Bool(_) => None,
        a => lexikey::frontend::host::int_of(a),
    })?
    .ok_or_else(|| {
        encode_err(format!(
            "expected an int for {what}, got {}",
            conv::type_name(obj)
        ))
    })?;
    v.and_then(|v| T::try_from(v).ok()).ok_or_else(|| {
        encode_err(format!(
            "{} is out of range for {what}",
            obj.str().map(|s| s.to_string()).unwrap_or_default()
        ))
    })
}

/// The longest key accepted, as the command line's default `--max-key-len`
/// (HBase's row-key limit).
pub(crate) const MAX_KEY_LEN: usize = lexikey::tuple::HBASE_MAX_KEY_LEN;

/// A key format: one of the native formats or an interop profile (the
/// library's one format name type).
pub(crate) type Fmt = KeyFormat;

/// The format named `name`.
pub(crate) fn parse_fmt(name: &str) -> PyResult<Fmt> {
    KeyFormat::parse(name).map_err(value_err)
}

/// The fidelity options of the interop profiles: the command line's
/// `--hbase-numeric current|legacy` (`hbase-ordered`: the numeric encoding
/// of HBase 2.5.0 and later, or of 2.4.x and older, before HBASE-26566)
/// and `--round` (`phoenix`: a `DECIMAL` of more than 38 significant digits
/// rounded half up, as Phoenix stores it, instead of refused).
#[derive(Debug, Clone, Default)]
pub(crate) struct Fidelity {
    /// The `hbase-ordered` codec.
    pub(crate) codec: hbase::Codec,
    /// The `phoenix` `DECIMAL` rounding.
    pub(crate) rounding: phoenix::DecimalRounding,
}

impl Fidelity {
    /// The options `hbase_numeric` and `round` of a call in format `fmt`,
    /// each refused where the core's rules refuse it.
    pub(crate) fn new(fmt: Fmt, hbase_numeric: Option<&str>, round: bool) -> PyResult<Fidelity> {
        let mut fid = Fidelity::default();
        if let Some(v) = hbase_numeric {
            LayoutOption::HbaseNumeric.check(fmt).map_err(refusal)?;
            let n = lexikey::frontend::layout::hbase_numeric(fmt, v).map_err(|e| {
                value_err(format!(
                    "invalid hbase_numeric {v:?}: expected {}",
                    lexikey::frontend::layout::expected_names(e.option(), |n| format!("{n:?}"))
                ))
            })?;
            fid.codec = hbase::Codec::new(n);
        }
        if round {
            LayoutOption::Round.check(fmt).map_err(refusal)?;
            fid.rounding = phoenix::DecimalRounding::HalfUp;
        }
        Ok(fid)
    }

    /// The key layout of a call in format `fmt` with these options, the
    /// decimal `width` and `salt_buckets` (native formats: the fast salt;
    /// `phoenix`: its `SALT_BUCKETS`), each refused where it does not
    /// apply.
    pub(crate) fn spec(
        &self,
        fmt: Fmt,
        width: Option<u8>,
        salt_buckets: Option<u32>,
    ) -> PyResult<KeySpec> {
        let spec = KeySpec::new(fmt)
            .with_width(width)
            .map_err(refusal)?
            .with_max_key_len(MAX_KEY_LEN);
        let buckets = salt_buckets
            .map(|n| LayoutOption::SaltBuckets.check_value(fmt, n))
            .transpose()
            .map_err(refusal)?;
        let spec = match fmt {
            Fmt::Native(_) => {
                let salter = buckets
                    .map(|n| Salter::with_count(n, SaltMode::Fast))
                    .transpose()
                    .map_err(|e| value_err(e.to_string()))?;
                spec.with_salter(salter)
            }
            Fmt::Profile(_) => spec.with_profile_options(Options {
                salt: buckets.and_then(|n| u16::try_from(n).ok()),
                hbase: self.codec,
                rounding: self.rounding,
            }),
        };
        spec.map_err(refusal)
    }
}

/// A layout option refused by the core's rules ([`lexikey::frontend::layout`]), in
/// Python's spelling: the keyword argument (`width`), the formats by name.
pub(crate) fn refusal(e: OptionError) -> PyErr {
    use LayoutOption as O;
    // The format an option applies to, among the profiles when `profiles`.
    let only = |o: O, profiles: bool| {
        o.formats()
            .iter()
            .filter(|f| !profiles || f.profile().is_some())
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join("|")
    };
    value_err(match e {
        OptionError::NotApplicable { option, format } => match option {
            O::Width if format.profile().is_none() => format!(
                "width applies only to the {} format (the {format} format has fixed widths)",
                only(option, false)
            ),
            O::Width => format!(
                "width applies only to the {} format (the {format} profile fixes its own widths)",
                only(option, false)
            ),
            O::HbaseNumeric => format!(
                "hbase_numeric applies only to the {} format, not {format}",
                only(option, false)
            ),
            O::Round => format!(
                "round applies only to the {} format (a DECIMAL of more than 38 digits), not \
                 {format}",
                only(option, false)
            ),
            O::SaltBuckets => format!(
                "salt_buckets applies only to the {} format among the interop profiles, not \
                 {format}",
                only(option, true)
            ),
            O::RangeSchema => format!(
                "schema applies to range with the native formats; {format} components name \
                 their own types"
            ),
            O::DecodeSchema => format!(
                "{format} keys are self-describing (each element has its type code): decode \
                 takes no schema"
            ),
            _ => e.to_string(),
        },
        OptionError::Needs {
            option: O::Width,
            needs: O::DecodeSchema,
            ..
        } => "width needs a schema (it applies to the schema's integer fields)".to_string(),
        OptionError::Needs { .. } | OptionError::UnknownName { .. } => e.to_string(),
        OptionError::Missing { format, .. } => match format {
            Fmt::Native(f) => {
                format!("{f} keys carry no type tags: pass a schema (e.g. schema=\"str,i64\")")
            }
            Fmt::Profile(p) => format!("{p} keys do not name their fields: pass a schema"),
        },
        OptionError::OutOfRange {
            option,
            format,
            value,
        } => {
            let r = option.values(format).unwrap_or(0..=0);
            let (lo, hi) = (r.start(), r.end());
            match (option, format) {
                (O::Width, _) => format!(
                    "invalid width {value}: expected a number of decimal digits from {lo} to {hi}"
                ),
                (O::SaltBuckets, Fmt::Native(_)) => {
                    let phoenix = O::SaltBuckets
                        .profiles()
                        .filter_map(|p| O::SaltBuckets.values(Fmt::Profile(p)))
                        .map(|r| *r.end())
                        .max()
                        .unwrap_or_default();
                    format!(
                        "invalid salt_buckets {value}: expected a number from {lo} to {hi} (the \
                         salt is one bucket byte; the phoenix format takes up to {phoenix})"
                    )
                }
                (O::SaltBuckets, Fmt::Profile(_)) => format!(
                    "invalid salt_buckets {value}: expected a number from {lo} to {hi} \
                     (Phoenix's SALT_BUCKETS)"
                ),
                _ => e.to_string(),
            }
        }
    })
}

/// A key as the Python object a format returns: `str` for the text formats,
/// `bytes` otherwise.
pub(crate) fn key_object<'py>(
    py: Python<'py>,
    text: bool,
    key: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    if text {
        conv::str_of_utf8(py, key)
    } else {
        Ok(PyBytes::new(py, key).into_any())
    }
}

/// The bytes of a key argument: `bytes`/`bytearray` as they are; a `str` as
/// its UTF-8 for the text formats, or as hex (either case) for the binary
/// formats, as the command line takes binary keys.
pub(crate) fn key_bytes(obj: &Bound<'_, PyAny>, text: bool) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    let Ok(s) = obj.cast::<PyString>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a key is str or bytes, not {}",
            obj.get_type().name()?
        )));
    };
    let s = match s.to_cow() {
        Ok(s) => s,
        Err(_) => {
            // Lone surrogates: find the first, as a UTF-8 byte offset.
            let lossy = s.to_string_lossy();
            let at = lossy.find('\u{FFFD}').unwrap_or(0);
            return Err(decode_err(
                format!("invalid key: not UTF-8 (a lone surrogate) at byte {at}"),
                at,
            ));
        }
    };
    if text {
        return Ok(s.as_bytes().to_vec());
    }
    // Binary keys given as hex, 0x hex or the Bytes.toStringBinary form.
    lexikey::value::literal::binary_key_from_text(s.as_bytes())
        .map_err(|e| decode_err(e.to_string(), e.offset()))
}

/// The component of one item of a `components` list: a component string
/// (`"i64.desc:5"`, or a profile's bare type: a null), a `(type, value)`
/// pair, or a plain value typed by the format's rule
/// ([`KeySpec::plain_type`]).
pub(crate) fn component(spec: &KeySpec, item: &Bound<'_, PyAny>) -> PyResult<Comp> {
    component_at(spec, item, 0)
}

/// [`component`] at nesting level `depth`: in the `fdb-tuple` format a
/// `list` (or the pair `("nested", list)` that `decode` gives) is a nested
/// tuple of components ([`KeySpec::nested`] bounds the depth), a 2-`tuple`
/// still a `(type, value)` pair.
fn component_at(spec: &KeySpec, item: &Bound<'_, PyAny>, depth: usize) -> PyResult<Comp> {
    let fdb = spec.format() == Fmt::Profile(Profile::Fdb);
    // ("nested", [...]), as decode gives a nested tuple back: the list.
    let nested_pair = item
        .cast::<PyTuple>()
        .ok()
        .filter(|t| fdb && t.len() == 2)
        .and_then(|t| {
            let label = t.get_item(0).ok()?;
            let value = t.get_item(1).ok()?;
            (label.cast::<PyString>().ok()?.to_cow().ok()? == "nested"
                && value.is_instance_of::<PyList>())
            .then_some(value)
        });
    let item = nested_pair.as_ref().unwrap_or(item);
    if let Ok(list) = item.cast::<PyList>() {
        if !fdb && matches!(spec.format(), Fmt::Native(_)) {
            return Err(encode_err(
                lexikey::frontend::host::LIST_NEEDS_SCHEMA.to_string(),
            ));
        }
        if fdb {
            /// An item's error, or the core's about the list.
            struct Fail(PyErr);
            impl From<lexikey::frontend::host::ArgError> for Fail {
                fn from(e: lexikey::frontend::host::ArgError) -> Fail {
                    Fail(encode_err(e.to_string()))
                }
            }
            return spec
                .nested(depth, list.iter(), |x, d| {
                    component_at(spec, &x, d).map_err(Fail)
                })
                .map_err(|f| f.0);
        }
    }
    if let Ok(s) = item.cast::<PyString>() {
        let text = s.to_cow()?;
        if spec.is_component(&text) {
            return spec
                .parse_named(&text)
                .map_err(|e| encode_err(e.to_string()));
        }
    }
    if let Some(pair) = item.cast::<PyTuple>().ok().filter(|t| t.len() == 2) {
        let ty = pair.get_item(0)?;
        let ty = ty
            .cast::<PyString>()
            .map_err(|_| encode_err("the type of a (type, value) pair is a str".into()))?
            .to_cow()?
            .to_string();
        let v = pair.get_item(1)?;
        return conv::with_arg(&v, |a| spec.pair(&ty, a))
            .map_err(|e| pair_err(&ty, e))?
            .map_err(|e| pair_err(&ty, encode_err(conv::arg_message(&e, &v))));
    }
    // A plain value: its type by the format's rule.
    let res = conv::with_arg(item, |a| {
        spec.plain_type(a)
            .map(|ty| (ty.to_string(), spec.typed(&ty, a)))
    })?;
    match res {
        Ok((_, Ok(c))) => Ok(c),
        Ok((ty, Err(e))) => Err(pair_err(&ty, encode_err(conv::arg_message(&e, item)))),
        Err(e) => Err(encode_err(conv::arg_message(&e, item))),
    }
}

/// The error of a `(type, value)` pair, naming it.
fn pair_err(ty: &str, e: PyErr) -> PyErr {
    Python::attach(|py| {
        if e.is_instance_of::<errors::EncodeError>(py) {
            encode_err(format!("component ({ty:?}, ...): {}", e.value(py)))
        } else {
            e
        }
    })
}

/// The components of a `components` list.
pub(crate) fn components(spec: &KeySpec, items: &Bound<'_, PyAny>) -> PyResult<Vec<Comp>> {
    if items.is_instance_of::<PyString>() {
        return Err(encode_err(
            "components is a list of components, not one string: write [\"str:a\"]".into(),
        ));
    }
    items
        .try_iter()?
        .map(|item| component(spec, &item?))
        .collect()
}

/// Encodes a tuple of components into one key.
///
/// `components` is a list whose items are component strings as the
/// command line takes them (`"str:population"`, `"i64.desc:5"`,
/// `"dec:10.50"`) or `(type, value)` pairs with Python values
/// (`("i64", 5)`, `("str.desc", "ab")`, `("ts", datetime(...,
/// tzinfo=timezone.utc))`). Returns `str` for the text formats (`hex`,
/// `base64`, `decimal`) and `bytes` for `binary`, `fdb-tuple`,
/// `hbase-ordered` and `phoenix` (each with its own component types, as on
/// the command line). `salt_buckets` and `width` are the command line's
/// `--salt-buckets` and `--width`; `hbase_numeric="legacy"`
/// (`hbase-ordered`: the numeric encoding of HBase 2.4.x and older) and
/// `round=True` (`phoenix`: a `DECIMAL` of more than 38 digits rounded as
/// Phoenix stores it) are `--hbase-numeric` and `--round`. An empty list is
/// the empty key (except for `phoenix`, whose row keys are never empty).
///
/// >>> lexikey.encode(["str:population", ("i64", 3831868)])
/// 'population#l80000000003A783C'
///
/// Raises `EncodeError` for a component or value that cannot be encoded and
/// `ValueError` for an unknown format.
#[pyfunction]
#[pyo3(signature = (components, format = "hex", *, salt_buckets = None, width = None, hbase_numeric = None, round = false))]
fn encode<'py>(
    py: Python<'py>,
    components: &Bound<'py, PyAny>,
    format: &str,
    salt_buckets: Option<u32>,
    width: Option<u8>,
    hbase_numeric: Option<&str>,
    round: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let fmt = parse_fmt(format)?;
    let fid = Fidelity::new(fmt, hbase_numeric, round)?;
    let spec = fid.spec(fmt, width, salt_buckets)?;
    let comps = self::components(&spec, components)?;
    if comps.is_empty() && salt_buckets.is_none() && fmt != Fmt::Profile(Profile::Phoenix) {
        // The empty tuple: the empty key (the command line needs a COMPONENT;
        // fdb.tuple.pack(()) is b"" too). A Phoenix row key is never empty.
        return key_object(py, fmt.is_text(), b"");
    }
    let key = spec.encode(&comps).map_err(|e| encode_err(e.to_string()))?;
    key_object(py, fmt.is_text(), &key)
}

/// Decodes a key into a list of `(type, value)` pairs.
///
/// `key` is `str` or `bytes` (a binary key may also be given as hex text,
/// as on the command line). `schema` (`"str,i64.desc"`) is needed for
/// `decimal`, `binary`, `hbase-ordered` and `phoenix` keys; without it,
/// `hex` and `base64` keys are read by their tags and `fdb-tuple` keys are
/// self-describing. Types are labelled as the command line labels them
/// (`"i64"`, `"str.desc"`, `"int"`, `"char(4)"`). `hbase_numeric="legacy"`
/// reads `hbase-ordered` numerics as HBase 2.4.x and older wrote them
/// (`--hbase-numeric legacy`).
///
/// >>> lexikey.decode("population#l80000000003A783C")
/// [('str', 'population'), ('i64', 3831868)]
///
/// Raises `DecodeError` (with `.offset`) for a key that does not decode and
/// `ValueError` for a bad format or schema.
#[pyfunction]
#[pyo3(signature = (key, schema = None, format = "hex", *, salt_buckets = None, width = None, hbase_numeric = None))]
fn decode<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    schema: Option<&str>,
    format: &str,
    salt_buckets: Option<u32>,
    width: Option<u8>,
    hbase_numeric: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let fmt = parse_fmt(format)?;
    let fid = Fidelity::new(fmt, hbase_numeric, false)?;
    let spec = schema::decode_spec(fmt, &fid, schema, width, salt_buckets, false).map_err(|e| {
        match schema.filter(|s| KeyFormat::parse(s).is_ok()) {
            // decode(key, "hex"): the second argument is the schema.
            Some(s) => value_err(format!(
                "invalid schema {s:?}: {s:?} is a key format, not a schema; write \
                 decode(key, format={s:?}) (or decode(key, \"TYPE,...\", format={s:?}))"
            )),
            None => e,
        }
    })?;
    let bytes = key_bytes(key, fmt.is_text())?;
    let values = spec
        .decode(&bytes)
        .map_err(|e| from_decode(&e, &lexikey::show_key(&bytes)))?;
    PyList::new(
        py,
        schema::py_values(py, &values, &bytes, &String::new, true)?,
    )
}

fn side<'py>(py: Python<'py>, text: bool, k: Option<&[u8]>) -> PyResult<Bound<'py, PyAny>> {
    match k {
        None => Ok(py.None().into_bound(py)),
        Some(k) => key_object(py, text, k),
    }
}

/// The predicates of a range call (`ge`, `gt`, `le`, `lt`, `eq`, and
/// any more named ones, then `str_prefix`, in that order), each value made
/// a component by `comp`.
pub(crate) fn predicates<const N: usize>(
    named: [(PredOp, Option<&Bound<'_, PyAny>>); N],
    str_prefix: Option<&str>,
    comp: impl Fn(&Bound<'_, PyAny>) -> PyResult<Comp>,
) -> PyResult<Vec<Pred<Comp>>> {
    let mut preds = Vec::new();
    for (op, v) in named {
        if let Some(v) = v {
            let c = comp(v)?;
            preds.extend(Pred::with_op(op, c));
        }
    }
    if let Some(p) = str_prefix {
        preds.push(Pred::Prefix(p.to_string(), lexikey::Dir::Asc));
    }
    Ok(preds)
}

/// The ranges of `lexikey range` for a prefix and predicates (one, or
/// one per salt bucket); errors name the components by their text.
pub(crate) fn ranges(
    spec: &KeySpec,
    prefix: Vec<Comp>,
    preds: Vec<Pred<Comp>>,
) -> PyResult<Vec<KeyRange>> {
    let refs: Vec<String> = prefix.iter().map(comp_text).collect();
    let texts: Vec<String> = preds
        .iter()
        .map(|p| match p {
            Pred::Prefix(s, _) => s.clone(),
            p => p.value().map(comp_text).unwrap_or_default(),
        })
        .collect();
    spec.ranges(&prefix, preds).map_err(|e| {
        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        encode_err(range_message(&e, &refs, &texts))
    })
}

/// A range as the Python pair `(start, end)`.
pub(crate) fn range_tuple<'py>(
    py: Python<'py>,
    fmt: Fmt,
    r: &KeyRange,
) -> PyResult<Bound<'py, PyTuple>> {
    let text = fmt.is_text();
    PyTuple::new(
        py,
        [
            side(py, text, r.start.as_deref())?,
            side(py, text, r.end.as_deref())?,
        ],
    )
}

pub(crate) fn range_pair<'py>(
    py: Python<'py>,
    spec: &KeySpec,
    prefix: Vec<Comp>,
    preds: Vec<Pred<Comp>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let fmt = spec.format();
    let ranges = ranges(spec, prefix, preds)?;
    let [r] = ranges.as_slice() else {
        return Err(value_err(
            "a salted table has one range per bucket: use the command line's range --salt-buckets"
                .into(),
        ));
    };
    range_tuple(py, fmt, r)
}

/// The half-open key range `(start, end)` of a query: the keys whose
/// leading components are `components` and whose next component satisfies
/// every predicate given (`ge`, `gt`, `le`, `lt`, `eq`: components as in
/// `encode`; `str_prefix`: the next component is an ascending `str`
/// starting with it; `is_null` / `not_null`: the next component, of the
/// nullable type given (`"i64?"`, `"str?.desc.nulls_last"`: the command
/// line's `--is-null TYPE?`), is null / holds a value). `None` is an
/// unbounded side. Exactly the command
/// line's `lexikey range`; `width`, `hbase_numeric` and `round` as in
/// `encode`. `schema` (`"str,i64"`, native formats) makes a component or
/// predicate of another type than its field an `EncodeError` naming both
/// types (without it, a bound's type is its own: `("i32", 5)` selects i32
/// keys, not the keys of an i64 field).
///
/// >>> lexikey.range(["str:population"], ge=("i64", 1000000))
/// ('population#l80000000000F4240', 'population$')
///
/// Raises `EncodeError` when a component does not encode or no key can
/// match.
#[pyfunction]
#[pyo3(signature = (components, format = "hex", ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None, *, width = None, hbase_numeric = None, round = false, schema = None, is_null = None, not_null = None))]
#[allow(clippy::too_many_arguments)]
fn range<'py>(
    py: Python<'py>,
    components: &Bound<'py, PyAny>,
    format: &str,
    ge: Option<&Bound<'py, PyAny>>,
    gt: Option<&Bound<'py, PyAny>>,
    le: Option<&Bound<'py, PyAny>>,
    lt: Option<&Bound<'py, PyAny>>,
    eq: Option<&Bound<'py, PyAny>>,
    str_prefix: Option<&str>,
    width: Option<u8>,
    hbase_numeric: Option<&str>,
    round: bool,
    schema: Option<&str>,
    is_null: Option<&Bound<'py, PyAny>>,
    not_null: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let fmt = parse_fmt(format)?;
    let fid = Fidelity::new(fmt, hbase_numeric, round)?;
    let mut spec = fid.spec(fmt, width, None)?;
    if let Some(s) = schema {
        LayoutOption::RangeSchema.check(fmt).map_err(refusal)?;
        let cols = lexikey::frontend::native::parse_schema(s, width)
            .map_err(|e| value_err(e.to_string()))?;
        spec = spec.with_fields(Some(lexikey::frontend::native::fields(&cols)));
    }
    let prefix = self::components(&spec, components)?;
    let preds = predicates(
        [
            (PredOp::Ge, ge),
            (PredOp::Gt, gt),
            (PredOp::Le, le),
            (PredOp::Lt, lt),
            (PredOp::Eq, eq),
            (PredOp::IsNull, is_null),
            (PredOp::NotNull, not_null),
        ],
        str_prefix,
        |v| component(&spec, v),
    )?;
    range_pair(py, &spec, prefix, preds)
}

/// Renders the range `[start, end)` in a store's syntax: `target` is
/// `hbase`, `cbt`, `cql`, `rocksdb`, `etcd`, `redis`, `sql` (or `raw`), exactly the
/// text of the command line's `range --for TARGET [--table TABLE]`.
/// `str` bounds are text keys, `bytes` bounds binary keys; `None` is an
/// unbounded side.
///
/// >>> print(lexikey.render('population#l80000000000F4240', 'population$', 'hbase', 'cities'), end='')
/// scan 'cities', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}
///
/// Raises `ValueError` for an unknown target, an empty range or a bad name.
#[pyfunction]
#[pyo3(signature = (start, end, target, table = None))]
fn render(
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    target: &str,
    table: Option<&str>,
) -> PyResult<String> {
    let is_bytes = |o: Option<&Bound<'_, PyAny>>| {
        o.is_some_and(|o| o.is_instance_of::<PyBytes>() || o.is_instance_of::<PyByteArray>())
    };
    let text = !(is_bytes(start) || is_bytes(end));
    let bound = |o: Option<&Bound<'_, PyAny>>| -> PyResult<Option<Vec<u8>>> {
        o.filter(|o| !o.is_none())
            .map(|o| {
                if o.is_instance_of::<PyString>() {
                    Ok(o.cast::<PyString>()?.to_cow()?.as_bytes().to_vec())
                } else {
                    key_bytes(o, false)
                }
            })
            .transpose()
    };
    let dialect = Dialect::parse(target).map_err(|e| value_err(format!("{e}")))?;
    let mut opts = RenderOptions::new().text(text);
    if let Some(t) = table {
        opts = opts.table(t);
    }
    let r = KeyRange {
        start: bound(start)?,
        end: bound(end)?,
    };
    render_range(dialect, &r, &opts).map_err(|e| value_err(format!("{e}")))
}

/// The reverse number `9223372036854775807 - n` (Java's `Long.MAX_VALUE -
/// n`) that existing HBase tables hold for newest-first order; its own
/// inverse. Raises `EncodeError` unless `0 <= n <= 2**63 - 1`.
///
/// >>> lexikey.reverse(1)
/// 9223372036854775806
#[pyfunction]
fn reverse(n: &Bound<'_, PyAny>) -> PyResult<i64> {
    let v = int_arg::<i64>(n, "reverse (0 to 9223372036854775807)")?;
    lexikey::reverse(v).map_err(|e| encode_err(e.to_string()))
}

/// lexikey: sortable row keys for ordered key-value stores (HBase,
/// Bigtable, Cassandra clustering keys, RocksDB, etcd, Redis sorted sets,
/// PostgreSQL) — the Rust library, from Python, byte for byte.
///
/// encode(a) < encode(b) as bytes exactly when a < b as values, for every
/// type and format, ascending and descending, alone or in composite keys;
/// every key decodes back to its values.
///
/// - encode(components, format="hex") -> str | bytes
/// - decode(key, schema=None, format="hex") -> list[(type, value)]
/// - Schema("str,i64.desc", format="hex"): encode / decode / encode_many /
///   decode_many (bulk, GIL released) / range / ranges (one per salt bucket)
/// - Schema.encode_arrow(data) / decode_arrow(keys): whole Arrow columns
///   (pyarrow, polars, pandas, DuckDB: the Arrow PyCapsule interface) in,
///   an `ArrowArray` out, the GIL released
/// - range(components, ge=..., lt=...) -> (start, end);
///   render(start, end, "hbase", "table") -> the store's syntax
/// - reverse(n) -> 9223372036854775807 - n
/// - Allocator(store_url, table, start=..., floor=...): decreasing row IDs
///   for upside-down tables
/// - hbase_numeric="legacy" (hbase-ordered keys of HBase 2.4) and round=True
///   (Phoenix DECIMALs of over 38 digits): the command line's
///   --hbase-numeric and --round
/// - DecodeError (.offset), EncodeError: ValueError; AllocError
///   (.kind, .ids; ContentionError, ExhaustedError): RuntimeError
///
/// Formats: hex (default), base64, decimal (text: str keys), binary,
/// fdb-tuple, hbase-ordered, phoenix (bytes keys). Types: str, i64, u64,
/// i32, u32, f64, f32, bool, bytes, ts (datetime), uuid (uuid.UUID), dec
/// (decimal.Decimal), and ulid, uuid7, geo; `.desc` for descending.
#[pymodule(name = "lexikey")]
fn lexikey_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(range, m)?)?;
    m.add_function(wrap_pyfunction!(render, m)?)?;
    m.add_function(wrap_pyfunction!(reverse, m)?)?;
    m.add_class::<schema::Schema>()?;
    m.add_class::<arrow::ArrowArray>()?;
    m.add_class::<alloc::Allocator>()?;
    m.add_class::<versionstamp::Versionstamp>()?;
    m.add_function(wrap_pyfunction!(versionstamp::pack_with_versionstamp, m)?)?;
    m.add("DecodeError", py.get_type::<errors::DecodeError>())?;
    m.add("EncodeError", py.get_type::<errors::EncodeError>())?;
    m.add("AllocError", py.get_type::<errors::AllocError>())?;
    m.add("ContentionError", py.get_type::<errors::ContentionError>())?;
    m.add("ExhaustedError", py.get_type::<errors::ExhaustedError>())?;
    m.add("StoreError", py.get_type::<errors::StoreError>())?;
    Ok(())
}
