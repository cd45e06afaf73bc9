//! Key layouts: the options of a call (`{format, schema, saltBuckets,
//! width, hbaseNumeric, round}`) made a [`KeySpec`] by the core's rules,
//! and `Schema`, a layout with its fields parsed once. Rows of JavaScript
//! values become keys through the core's
//! [`RowEncoder`](lexikey::frontend::spec::RowEncoder), keys become values
//! through [`KeySpec::decode`], range queries through [`KeySpec::field`]
//! and [`KeySpec::ranges`]. What is left here is JavaScript's: reading the
//! values, wording errors, picking each decoded integer's type.

use lexikey::frontend::host::{ColType, Want};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::layout::{LayoutOption, OptionError};
use lexikey::frontend::profile::Options;
use lexikey::frontend::spec::{comp_text, range_message, Comp, KeySpec, RowError};
use lexikey::interop::{hbase, phoenix};
use lexikey::range::{Pred, PredOp};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::{tuple, KeyRange};

use crate::conv::{self, Slot};
use crate::errors::{from_decode, Error};
use crate::js::{Js, Kind, Value};

/// The longest key accepted, as the command line's default
/// `--max-key-len` (HBase's row-key limit).
pub(crate) const MAX_KEY_LEN: usize = tuple::HBASE_MAX_KEY_LEN;

/// The options of a call, read from its options object.
#[derive(Debug, Clone, Default)]
pub(crate) struct Opts {
    /// `format` (default `hex`).
    pub(crate) format: Option<String>,
    /// `schema` (`decode`; `range` with the native formats).
    pub(crate) schema: Option<String>,
    /// `width`: decimal digits of integer fields (`decimal` only).
    pub(crate) width: Option<u8>,
    /// `saltBuckets`: the fast salt (native formats) or Phoenix's
    /// `SALT_BUCKETS`.
    pub(crate) salt: Option<u32>,
    /// `hbaseNumeric`: `current` or `legacy` (`hbase-ordered` only).
    pub(crate) hbase_numeric: Option<String>,
    /// `round`: round a Phoenix `DECIMAL` of over 38 digits.
    pub(crate) round: bool,
    /// `types` (`decode`): `[type, value]` pairs instead of values.
    pub(crate) types: bool,
}

/// A property of an options object, if given (`undefined` is absent).
fn prop(js: Js, obj: Value, name: &std::ffi::CStr) -> Result<Option<Value>, Error> {
    let v = js.get(obj, name)?;
    Ok((js.kind(v)? != Kind::Undefined).then_some(v))
}

fn prop_str(js: Js, obj: Value, name: &std::ffi::CStr) -> Result<Option<String>, Error> {
    match prop(js, obj, name)? {
        None => Ok(None),
        Some(v) if js.kind(v)? == Kind::String => Ok(Some(js.string(v)?)),
        Some(v) => Err(Error::Type(format!(
            "option {} is a string, not {}",
            name.to_string_lossy(),
            conv::type_name(js, v)
        ))),
    }
}

fn prop_uint(js: Js, obj: Value, name: &std::ffi::CStr, max: u32) -> Result<Option<u32>, Error> {
    match prop(js, obj, name)? {
        None => Ok(None),
        Some(v) if js.kind(v)? == Kind::Number => {
            let x = js.f64(v)?;
            if x.fract() != 0.0 || !(0.0..=f64::from(max)).contains(&x) {
                return Err(Error::Value(format!(
                    "invalid {} {x}: expected a whole number from 0 to {max}",
                    name.to_string_lossy()
                )));
            }
            Ok(Some(x as u32))
        }
        Some(v) => Err(Error::Type(format!(
            "option {} is a number, not {}",
            name.to_string_lossy(),
            conv::type_name(js, v)
        ))),
    }
}

fn prop_bool(js: Js, obj: Value, name: &std::ffi::CStr) -> Result<bool, Error> {
    match prop(js, obj, name)? {
        None => Ok(false),
        Some(v) if js.kind(v)? == Kind::Boolean => js.bool(v),
        Some(v) => Err(Error::Type(format!(
            "option {} is a boolean, not {}",
            name.to_string_lossy(),
            conv::type_name(js, v)
        ))),
    }
}

impl Opts {
    /// The options of an options object (`undefined`/`null`: none).
    pub(crate) fn read(js: Js, obj: Value) -> Result<Opts, Error> {
        match js.kind(obj)? {
            Kind::Undefined | Kind::Null => return Ok(Opts::default()),
            Kind::Object => {}
            _ => {
                return Err(Error::Type(format!(
                    "options is an object ({{format, schema, ...}}), not {}",
                    conv::type_name(js, obj)
                )))
            }
        }
        Ok(Opts {
            format: prop_str(js, obj, c"format")?,
            schema: prop_str(js, obj, c"schema")?,
            width: prop_uint(js, obj, c"width", 255)?.map(|w| w as u8),
            salt: prop_uint(js, obj, c"saltBuckets", u32::MAX)?,
            hbase_numeric: prop_str(js, obj, c"hbaseNumeric")?,
            round: prop_bool(js, obj, c"round")?,
            types: prop_bool(js, obj, c"types")?,
        })
    }

    /// The format named by `format` (default `hex`).
    pub(crate) fn key_format(&self) -> Result<KeyFormat, Error> {
        KeyFormat::parse(self.format.as_deref().unwrap_or("hex")).map_err(Error::Value)
    }

    /// The key layout of these options, each refused where the core's
    /// rules ([`lexikey::frontend::layout`]) refuse it.
    pub(crate) fn key_spec(&self) -> Result<KeySpec, Error> {
        let fmt = self.key_format()?;
        let spec = KeySpec::new(fmt)
            .with_width(self.width)
            .map_err(refusal)?
            .with_max_key_len(MAX_KEY_LEN);
        let mut po = Options::default();
        if let Some(name) = &self.hbase_numeric {
            LayoutOption::HbaseNumeric.check(fmt).map_err(refusal)?;
            let n = lexikey::frontend::layout::hbase_numeric(fmt, name).map_err(|e| {
                Error::Value(format!(
                    "invalid hbaseNumeric {name:?}: expected {}",
                    lexikey::frontend::layout::expected_names(e.option(), |n| format!("{n:?}"))
                ))
            })?;
            po.hbase = hbase::Codec::new(n);
        }
        if self.round {
            LayoutOption::Round.check(fmt).map_err(refusal)?;
            po.rounding = phoenix::DecimalRounding::HalfUp;
        }
        let buckets = self
            .salt
            .map(|n| LayoutOption::SaltBuckets.check_value(fmt, n))
            .transpose()
            .map_err(refusal)?;
        let spec = match fmt {
            KeyFormat::Native(_) => {
                let salter = buckets
                    .map(|n| Salter::with_count(n, SaltMode::Fast))
                    .transpose()
                    .map_err(|e| Error::Value(e.to_string()))?;
                spec.with_salter(salter)
            }
            KeyFormat::Profile(_) => {
                po.salt = buckets.and_then(|n| u16::try_from(n).ok());
                spec.with_profile_options(po)
            }
        };
        spec.map_err(refusal)
    }

    /// The layout `decode` reads keys with: the schema when given (refused
    /// where the command line refuses it, required where the keys carry no
    /// tags).
    pub(crate) fn decode_spec(&self) -> Result<KeySpec, Error> {
        let spec = self.key_spec()?;
        let fmt = spec.format();
        LayoutOption::DecodeSchema
            .check_given(fmt, self.schema.is_some())
            .map_err(refusal)?;
        LayoutOption::Width
            .check_decode_needs(fmt, self.width.is_some(), self.schema.is_some())
            .map_err(refusal)?;
        match &self.schema {
            None => Ok(spec),
            Some(s) => spec.with_schema(s).map_err(|e| Error::Value(e.to_string())),
        }
    }
}

/// A layout option refused by the core's rules, in JavaScript's spelling
/// (the option's name, the formats by name).
pub(crate) fn refusal(e: OptionError) -> Error {
    use LayoutOption as O;
    let only = |o: O| {
        o.formats()
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join("|")
    };
    Error::Value(match e {
        OptionError::NotApplicable {
            option: O::HbaseNumeric,
            format,
        } => format!(
            "hbaseNumeric applies only to the {} format, not {format}",
            only(O::HbaseNumeric)
        ),
        OptionError::NotApplicable {
            option: O::SaltBuckets,
            format,
        } => format!(
            "saltBuckets applies only to the {} formats, not {format}",
            only(O::SaltBuckets)
        ),
        OptionError::NotApplicable {
            option: O::DecodeSchema,
            format,
        } => format!(
            "{format} keys are self-describing (each element has its type code): decode takes \
             no schema"
        ),
        OptionError::Missing {
            format: KeyFormat::Native(f),
            ..
        } => format!("{f} keys carry no type tags: pass a schema (e.g. {{schema: \"str,i64\"}})"),
        OptionError::Missing {
            format: KeyFormat::Profile(p),
            ..
        } => format!("{p} keys do not name their fields: pass a schema"),
        _ => e.to_string(),
    })
}

/// A key as JavaScript holds it: a `string` for the text formats, a
/// `Buffer` otherwise.
pub(crate) fn key_value(js: Js, fmt: KeyFormat, key: &[u8]) -> Result<Value, Error> {
    if fmt.is_text() {
        js.str(key)
    } else {
        js.buffer(key)
    }
}

/// The bytes of a key argument into `buf`: a `Buffer`/`Uint8Array` as it
/// is; a `string` as its UTF-8 for the text formats, or as hex (either
/// case), `0x…` hex or HBase's `Bytes.toStringBinary` form for the binary
/// formats, as the command line takes binary keys.
pub(crate) fn key_bytes(js: Js, fmt: KeyFormat, v: Value, buf: &mut Vec<u8>) -> Result<(), Error> {
    match js.kind(v)? {
        Kind::String => {
            js.str_into(v, buf)?;
            if !fmt.is_text() {
                let b = lexikey::value::literal::binary_key_from_text(buf)
                    .map_err(|e| Error::Decode(e.to_string(), e.offset()))?;
                *buf = b;
            }
            Ok(())
        }
        Kind::Object => match js.bytes(v)? {
            Some(b) => {
                buf.clear();
                buf.extend_from_slice(b);
                Ok(())
            }
            None => Err(Error::Type(format!(
                "a key is a string or a Buffer, not {}",
                conv::type_name(js, v)
            ))),
        },
        _ => Err(Error::Type(format!(
            "a key is a string or a Buffer, not {}",
            conv::type_name(js, v)
        ))),
    }
}

/// The values of a decoded key as a JavaScript array (`labels`: the
/// schema's, else each value's own; `typed`: `[type, value]` pairs).
pub(crate) fn decode_key(
    js: Js,
    spec: &KeySpec,
    key: &[u8],
    small: Option<&[bool]>,
    typed: bool,
    at: &dyn Fn() -> String,
) -> Result<Value, Error> {
    let values = spec
        .decode(key)
        .map_err(|e| prefix(at(), from_decode(&e, &lexikey::show_key(key))))?;
    let arr = js.array(values.len())?;
    for i in 0..values.len() {
        let v = values.get(i).map_err(|e| {
            let (msg, offset) = values.value_error(key, i, e);
            Error::Decode(format!("{}{msg}", at()), offset)
        })?;
        let (is_small, label) = match small.and_then(|s| s.get(i)) {
            Some(&s) if !typed => (s, String::new()),
            _ => {
                let l = values.label(i);
                (conv::small_int(&l), l)
            }
        };
        let value = conv::out(js, &v, is_small, typed)?;
        let item = if typed {
            conv::pair(js, &label, value)?
        } else {
            value
        };
        js.set_element(arr, i as u32, item)?;
    }
    Ok(arr)
}

fn prefix(at: String, e: Error) -> Error {
    match e {
        Error::Decode(m, o) if !at.is_empty() => Error::Decode(format!("{at}{m}"), o),
        e => e,
    }
}

/// A range as the object `{start, end}` (`null`: unbounded).
pub(crate) fn range_object(js: Js, fmt: KeyFormat, r: &KeyRange) -> Result<Value, Error> {
    let o = js.object()?;
    let side = |k: Option<&[u8]>| match k {
        None => js.null(),
        Some(k) => key_value(js, fmt, k),
    };
    js.set(o, c"start", side(r.start.as_deref())?)?;
    js.set(o, c"end", side(r.end.as_deref())?)?;
    Ok(o)
}

/// A layout with its schema: what `new Schema(spec, format, options)`
/// holds.
#[derive(Debug)]
pub(crate) struct Schema {
    /// The schema as given.
    text: String,
    /// The layout, with the schema.
    spec: KeySpec,
    /// Whether keys are salted (one range per bucket).
    salted: bool,
    /// What each field takes.
    wants: Vec<Want>,
    /// Whether each field's decoded integers are numbers.
    small: Vec<bool>,
    /// The fields' labels, as the command line writes them.
    labels: Vec<String>,
}

impl Schema {
    /// The layout of `new Schema(text, format, options)`.
    pub(crate) fn new(text: &str, opts: &Opts) -> Result<Schema, Error> {
        let spec = opts
            .key_spec()?
            .with_schema(text)
            .map_err(|e| Error::Value(e.to_string()))?;
        let cols: &[ColType] = spec.schema().unwrap_or_default();
        let labels: Vec<String> = cols.iter().map(ToString::to_string).collect();
        Ok(Schema {
            text: text.to_string(),
            salted: opts.salt.is_some(),
            wants: cols.iter().map(ColType::want).collect(),
            // A list's elements are numbers when its element type's are.
            small: cols
                .iter()
                .map(|c| conv::small_int(&c.value_label()))
                .collect(),
            labels,
            spec,
        })
    }

    /// The format.
    pub(crate) fn format(&self) -> KeyFormat {
        self.spec.format()
    }

    /// The fields' labels, as the command line writes them.
    pub(crate) fn labels(&self) -> &[String] {
        &self.labels
    }

    fn label(&self, i: usize) -> &str {
        self.labels.get(i).map_or("?", String::as_str)
    }

    fn row_err(&self, js: Js, what: &str, e: &RowError, row: Value) -> Error {
        match e.index {
            Some(i) => {
                let v = js.element(row, i as u32).unwrap_or(std::ptr::null_mut());
                Error::Encode(format!(
                    "{what}, value {} ({}): {}",
                    i + 1,
                    self.label(i),
                    conv::message(js, &e.error, v)
                ))
            }
            None => Error::Encode(format!("{what}: {}", e.error)),
        }
    }

    /// Encodes rows (`rows`: an array of arrays, or `None` and `one`: a
    /// single row), appending each key to `out` and calling `done` after
    /// each with the keys' bytes so far.
    pub(crate) fn encode_rows(
        &self,
        js: Js,
        rows: &[Value],
        single: bool,
        mut done: impl FnMut(&[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // An array is no Arg: rows with list fields are made component by
        // component ([`Schema::encode_list_row`]).
        let lists = self.spec.has_list_fields();
        let mut list_slot = Slot::default();
        let mut enc = self
            .spec
            .encoder()
            .map_err(|e| Error::Value(e.to_string()))?;
        let width = enc.width();
        let mut slots: Vec<Slot> = (0..width).map(|_| Slot::default()).collect();
        let mut store: Vec<lexikey::frontend::host::Arg<'static>> = Vec::with_capacity(width);
        let mut out = Vec::with_capacity(64);
        for (r, &row) in rows.iter().enumerate() {
            let what = || {
                if single {
                    "values".to_string()
                } else {
                    format!("row {r}")
                }
            };
            let n = js.array_len(row)?.ok_or_else(|| {
                Error::Type(format!(
                    "{} is an array of values, not {}",
                    what(),
                    conv::type_name(js, row)
                ))
            })? as usize;
            if n != width {
                return Err(Error::Encode(format!(
                    "{} has {n} values; the schema {:?} has {width} fields",
                    what(),
                    self.text
                )));
            }
            if lists {
                out.clear();
                self.encode_list_row(js, row, n, &what(), &mut list_slot, &mut out)?;
                done(&out)?;
                continue;
            }
            let mut args = reuse(std::mem::take(&mut store));
            for (j, slot) in slots.iter_mut().enumerate() {
                let v = js.element(row, j as u32)?;
                args.push(conv::arg(js, v, self.wants.get(j).copied(), slot)?);
            }
            out.clear();
            let res = enc.encode(&args, &mut out);
            store = reuse(args);
            res.map_err(|e| self.row_err(js, &what(), &e, row))?;
            done(&out)?;
        }
        Ok(())
    }

    /// Appends the key of `row` (`n` values), a row of a schema with list
    /// fields (`list<T>`), to `out`: its components made one at a time, an
    /// array converted element by element ([`KeySpec::list_field`]), then
    /// the key ([`KeySpec::encode_named`]).
    fn encode_list_row(
        &self,
        js: Js,
        row: Value,
        n: usize,
        what: &str,
        slot: &mut Slot,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let comps = (0..n)
            .map(|i| self.field(js, i, js.element(row, i as u32)?, what, slot))
            .collect::<Result<Vec<_>, _>>()?;
        let key = self
            .spec
            .encode_named(&comps, |i| format!("value {} ({})", i + 1, self.label(i)))
            .map_err(|e| Error::Encode(format!("{what}: {e}")))?;
        out.extend_from_slice(&key);
        Ok(())
    }

    /// The component of field `i` holding `v`: an array (or `null`) of a
    /// list field element by element, any other value by its `Arg`; errors
    /// name `what` and the field.
    fn field(
        &self,
        js: Js,
        i: usize,
        v: Value,
        what: &str,
        slot: &mut Slot,
    ) -> Result<Comp, Error> {
        if let Some(c) = self.spec.list_field(i, &conv::JsItem { js, v }) {
            return c.map_err(|e| match e {
                Error::Encode(m) => {
                    Error::Encode(format!("{what}, value {} ({}): {m}", i + 1, self.label(i)))
                }
                e => e,
            });
        }
        let a = conv::arg(js, v, self.wants.get(i).copied(), slot)?;
        self.spec.field(i, a).map_err(|e| {
            Error::Encode(format!(
                "{what}, value {} ({}): {}",
                i + 1,
                self.label(i),
                conv::message(js, &e, v)
            ))
        })
    }

    /// Decodes a key into an array of values (`at`: the message's prefix).
    pub(crate) fn decode(
        &self,
        js: Js,
        key: &[u8],
        at: &dyn Fn() -> String,
    ) -> Result<Value, Error> {
        decode_key(js, &self.spec, key, Some(&self.small), false, at)
    }

    /// The ranges of the keys whose leading fields hold `prefix` and whose
    /// next field satisfies every predicate of `pred` (`{ge, gt, le, lt,
    /// eq, prefix}`): one per salt bucket when `all_buckets`, else the
    /// one range (a salted schema is refused).
    pub(crate) fn ranges(
        &self,
        js: Js,
        prefix: Value,
        pred: Value,
        all_buckets: bool,
    ) -> Result<Vec<KeyRange>, Error> {
        if self.salted && !all_buckets {
            return Err(Error::Value(
                "a salted schema has one range per bucket: use schema.ranges(...), which returns \
                 them all, bucket 0 first"
                    .into(),
            ));
        }
        let mut slot = Slot::default();
        let mut field = |i: usize, v: Value, what: &str| self.field(js, i, v, what, &mut slot);
        let n = match js.kind(prefix)? {
            Kind::Undefined | Kind::Null => 0,
            _ => js.array_len(prefix)?.ok_or_else(|| {
                Error::Type(format!(
                    "the prefix is an array of values, not {}",
                    conv::type_name(js, prefix)
                ))
            })?,
        };
        let mut comps = Vec::with_capacity(n as usize);
        for i in 0..n {
            comps.push(field(i as usize, js.element(prefix, i)?, "prefix")?);
        }
        let next = n as usize;
        let mut parsed = Vec::new();
        let mut texts = Vec::new();
        if !matches!(js.kind(pred)?, Kind::Undefined | Kind::Null) {
            if js.kind(pred)? != Kind::Object {
                return Err(Error::Type(format!(
                    "the predicate is an object ({{ge, gt, le, lt, eq, prefix, isNull, notNull}}), not {}",
                    conv::type_name(js, pred)
                )));
            }
            for op in PredOp::ALL {
                let name = match op {
                    PredOp::Eq => c"eq",
                    PredOp::Ge => c"ge",
                    PredOp::Gt => c"gt",
                    PredOp::Le => c"le",
                    PredOp::Lt => c"lt",
                    PredOp::Prefix => c"prefix",
                    PredOp::IsNull => c"isNull",
                    PredOp::NotNull => c"notNull",
                };
                let v = js.get(pred, name)?;
                if js.kind(v)? == Kind::Undefined {
                    continue;
                }
                let what = format!("predicate {}", op.name());
                if op == PredOp::Prefix {
                    if js.kind(v)? != Kind::String {
                        return Err(Error::Encode(format!(
                            "{what}: expected a string, got {}",
                            conv::type_name(js, v)
                        )));
                    }
                    let s = js.string(v)?;
                    // A str field's direction, and on a nullable str? its
                    // values; another field: an ascending str, as before.
                    let preds = self
                        .spec
                        .str_prefix_preds(next, &s)
                        .unwrap_or_else(|| vec![Pred::Prefix(s.clone(), lexikey::Dir::Asc)]);
                    for p in preds {
                        texts.push(p.value().map_or_else(|| s.clone(), comp_text));
                        parsed.push(p);
                    }
                    continue;
                }
                if matches!(op, PredOp::IsNull | PredOp::NotNull) {
                    // `isNull: true`: the field, nullable, named by its null.
                    if js.kind(v)? != Kind::Boolean {
                        return Err(Error::Type(format!(
                            "predicate {}: expected true or false, got {}",
                            if op == PredOp::IsNull {
                                "isNull"
                            } else {
                                "notNull"
                            },
                            conv::type_name(js, v)
                        )));
                    }
                    if js.bool(v)? {
                        let c = field(next, js.null()?, &what)?;
                        texts.push(comp_text(&c));
                        parsed.extend(Pred::with_op(op, c));
                    }
                    continue;
                }
                let c = field(next, v, &what)?;
                texts.push(comp_text(&c));
                parsed.extend(Pred::with_op(op, c));
            }
        }
        let prefix_texts: Vec<String> = comps.iter().map(comp_text).collect();
        let refs: Vec<&str> = prefix_texts.iter().map(String::as_str).collect();
        let pred_refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.spec
            .ranges(&comps, parsed)
            .map_err(|e| Error::Encode(range_message(&e, &refs, &pred_refs)))
    }
}

/// An empty vector of another lifetime's `Arg`s on the same allocation
/// (no allocation per row: the collect reuses it in place).
fn reuse<'b>(
    mut v: Vec<lexikey::frontend::host::Arg<'_>>,
) -> Vec<lexikey::frontend::host::Arg<'b>> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the vector is empty"))
        .collect()
}
