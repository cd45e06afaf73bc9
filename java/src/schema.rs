//! A key layout with its fields, parsed once: what `lexikey.Schema` holds
//! (and `Lexikey.decode` builds per call). It is a [`KeySpec`] with a
//! schema: rows of Java values become keys through the core's
//! [`RowEncoder`](lexikey::frontend::spec::RowEncoder), keys become values through
//! [`KeySpec::decode`], range queries through [`KeySpec::field`] and
//! [`KeySpec::ranges`]. What is left here is Java's: reading the wire,
//! wording errors, picking each decoded integer's class.

use std::borrow::Cow;

use lexikey::frontend::host::ColType;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::layout::{LayoutOption, OptionError};
use lexikey::frontend::profile::{Options, Profile};
use lexikey::frontend::spec::{comp_text, range_message, Comp, KeySpec, RowError};
use lexikey::interop::{hbase, phoenix};
use lexikey::range::{Pred, PredOp};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::{tuple, DecodeError, KeyRange};

use crate::conv::{self, IntClass};
use crate::errors::{arg_err, encode_err, Error};
use crate::wire::{Host, Reader, Writer};

/// The longest key accepted, as the command line's default
/// `--max-key-len` (HBase's row-key limit).
pub(crate) const MAX_KEY_LEN: usize = tuple::HBASE_MAX_KEY_LEN;

/// The options of a layout, as `Schema.with*` sets them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Opts {
    /// `withWidth`: decimal digits of integer fields (`decimal` only).
    pub(crate) width: Option<u8>,
    /// `withSaltBuckets`: the fast salt (native formats) or Phoenix's
    /// `SALT_BUCKETS`.
    pub(crate) salt: Option<u32>,
    /// `withHbaseNumeric`: `current` or `legacy` (`hbase-ordered` only).
    pub(crate) hbase_numeric: Option<String>,
    /// `withRound`: round a Phoenix `DECIMAL` of over 38 digits.
    pub(crate) round: bool,
}

/// The key layout of `fmt` with `opts`, each option refused where the
/// core's rules ([`lexikey::frontend::layout`]) refuse it.
pub(crate) fn key_spec(fmt: KeyFormat, opts: &Opts) -> Result<KeySpec, Error> {
    let spec = KeySpec::new(fmt)
        .with_width(opts.width)
        .map_err(refusal)?
        .with_max_key_len(MAX_KEY_LEN);
    let mut po = Options::default();
    if let Some(name) = &opts.hbase_numeric {
        let n = lexikey::frontend::layout::hbase_numeric(fmt, name).map_err(|e| {
            arg_err(format!(
                "invalid hbaseNumeric {name:?}: expected {}",
                lexikey::frontend::layout::expected_names(e.option(), |n| format!("{n:?}"))
            ))
        })?;
        LayoutOption::HbaseNumeric.check(fmt).map_err(refusal)?;
        po.hbase = hbase::Codec::new(n);
    }
    if opts.round {
        LayoutOption::Round.check(fmt).map_err(refusal)?;
        po.rounding = phoenix::DecimalRounding::HalfUp;
    }
    let spec = match fmt {
        KeyFormat::Native(_) => {
            let salter = opts
                .salt
                .map(|n| {
                    let n = LayoutOption::SaltBuckets
                        .check_value(fmt, n)
                        .map_err(refusal)?;
                    Salter::with_count(n, SaltMode::Fast)
                        .map_err(|e| arg_err(format!("invalid saltBuckets {n}: {e}")))
                })
                .transpose()?;
            spec.with_salter(salter)
        }
        KeyFormat::Profile(_) => {
            po.salt = opts
                .salt
                .map(|n| {
                    u16::try_from(n).map_err(|_| {
                        // Beyond any profile's buckets: Phoenix's range.
                        refusal(OptionError::OutOfRange {
                            option: LayoutOption::SaltBuckets,
                            format: KeyFormat::Profile(Profile::Phoenix),
                            value: n,
                        })
                    })
                })
                .transpose()?;
            spec.with_profile_options(po)
        }
    };
    spec.map_err(refusal)
}

/// A layout option refused by the core's rules, in Java's spelling (the
/// `Schema.with*` option, the formats by name; the width and a profile's
/// salt buckets in the core's words).
fn refusal(e: OptionError) -> Error {
    use LayoutOption as O;
    let only = |o: O| {
        o.formats()
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>()
            .join("|")
    };
    arg_err(match e {
        OptionError::NotApplicable {
            option: O::HbaseNumeric,
            format,
        } => format!(
            "hbaseNumeric applies only to the {} format, not {format}",
            only(O::HbaseNumeric)
        ),
        OptionError::NotApplicable {
            option: O::Round,
            format,
        } => format!(
            "round applies only to the {} format (a DECIMAL of more than 38 digits), not {format}",
            only(O::Round)
        ),
        OptionError::OutOfRange {
            option: O::SaltBuckets,
            format: KeyFormat::Native(_),
            value,
        } => format!("invalid saltBuckets {value}: {e}"),
        OptionError::NotApplicable {
            option: O::DecodeSchema,
            format,
        } => format!(
            "{format} keys are self-describing (each element has its type code): decode takes \
             no schema (pass null)"
        ),
        OptionError::Missing {
            format: KeyFormat::Native(f),
            ..
        } => format!("{f} keys carry no type tags: pass a schema (e.g. \"str,i64\")"),
        OptionError::Missing {
            format: KeyFormat::Profile(p),
            ..
        } => format!("{p} keys do not name their fields: pass a schema"),
        _ => e.to_string(),
    })
}

/// The operator of the wire's code (`Predicate.Kind` ordinal, the order
/// of [`PredOp::ALL`]).
pub(crate) fn pred_op(code: u8) -> Option<PredOp> {
    PredOp::ALL.get(usize::from(code)).copied()
}

/// A layout: how rows encode and keys decode.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The schema as given (`None`: keys read by their own tags).
    text: Option<String>,
    /// The layout, with the schema when there is one.
    spec: KeySpec,
    /// Whether keys are salted (one range per bucket).
    salted: bool,
    /// The fields' labels, as the command line writes them.
    labels: Vec<String>,
    /// The Java class of each field's integers.
    classes: Vec<IntClass>,
    /// Which fields are HBase numerics ([`conv::numeric_arg`]).
    numeric: Vec<bool>,
}

impl Schema {
    /// The layout of `Schema.of(text, fmt)` with its options.
    pub(crate) fn new(fmt: KeyFormat, text: &str, opts: Opts) -> Result<Schema, Error> {
        let salted = opts.salt.is_some();
        let spec = key_spec(fmt, &opts)?
            .with_schema(text)
            .map_err(|e| arg_err(e.to_string()))?;
        Ok(Schema::of(spec, Some(text), salted))
    }

    /// The layout `Lexikey.decode` reads keys with: the format's defaults
    /// and the schema, when given (refused where the command line refuses
    /// it, required where the keys carry no tags).
    pub(crate) fn decoder(base: &KeySpec, schema: Option<&str>) -> Result<Schema, Error> {
        let fmt = base.format();
        LayoutOption::DecodeSchema
            .check_given(fmt, schema.is_some())
            .map_err(refusal)?;
        match schema {
            None => Ok(Schema::of(base.clone(), None, false)),
            Some(s) => {
                let spec = base
                    .clone()
                    .with_schema(s)
                    .map_err(|e| arg_err(e.to_string()))?;
                Ok(Schema::of(spec, Some(s), false))
            }
        }
    }

    fn of(spec: KeySpec, text: Option<&str>, salted: bool) -> Schema {
        let labels: Vec<String> = spec
            .schema()
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect();
        // A list's elements take the class of its element type.
        let classes = spec
            .schema()
            .unwrap_or_default()
            .iter()
            .map(|c| IntClass::of_label(&c.value_label()))
            .collect();
        let numeric = spec
            .schema()
            .unwrap_or_default()
            .iter()
            .map(|c| matches!(c, ColType::Hbase(f) if f.kind == hbase::Kind::Numeric))
            .collect();
        Schema {
            text: text.map(str::to_string),
            spec,
            salted,
            labels,
            classes,
            numeric,
        }
    }

    /// The [`Arg`](lexikey::frontend::host::Arg) of field `i` holding `h`.
    fn arg<'a>(&self, i: usize, h: &Host<'a>) -> lexikey::frontend::host::Arg<'a> {
        if self.numeric.get(i).copied().unwrap_or(false) {
            conv::numeric_arg(h)
        } else {
            conv::arg(h)
        }
    }

    /// The format.
    pub(crate) fn format(&self) -> KeyFormat {
        self.spec.format()
    }

    /// The layout, with the schema when there is one.
    pub(crate) fn spec(&self) -> &KeySpec {
        &self.spec
    }

    /// The field labels, as the command line writes them.
    pub(crate) fn labels(&self) -> &[String] {
        &self.labels
    }

    fn label(&self, i: usize) -> &str {
        self.labels.get(i).map_or("?", String::as_str)
    }

    /// The error of a value that does not convert, worded for Java.
    fn value_err(
        &self,
        what: &str,
        i: usize,
        e: &lexikey::frontend::host::ArgError,
        h: &Host<'_>,
    ) -> Error {
        encode_err(format!(
            "{what}, value {} ({}): {}",
            i + 1,
            self.label(i),
            conv::message(e, h)
        ))
    }

    fn row_err(&self, what: &str, e: &RowError, row: &[Host<'_>]) -> Error {
        match (e.index, e.index.and_then(|i| row.get(i))) {
            (Some(i), Some(h)) => self.value_err(what, i, &e.error, h),
            _ => encode_err(format!("{what}: {}", e.error)),
        }
    }

    /// Encodes `rows` rows read from `r`, appending the keys to `out` and
    /// their ends to `ends` (`base`: the index of the first row in
    /// messages; `None`: one row, named `values`).
    pub(crate) fn encode_rows(
        &self,
        r: &mut Reader<'_>,
        rows: usize,
        base: Option<usize>,
        out: &mut Vec<u8>,
        ends: &mut Vec<i32>,
    ) -> Result<(), Error> {
        let what = |i: usize| match base {
            Some(b) => format!("row {}", b + i),
            None => "values".to_string(),
        };
        // A List is no Arg: rows with list fields are made component by
        // component ([`Schema::encode_list_row`]).
        let lists = self.spec.has_list_fields();
        let mut enc = self.spec.encoder().map_err(|e| arg_err(e.to_string()))?;
        let width = enc.width();
        let (mut hosts, mut args) = (Vec::with_capacity(width), Vec::with_capacity(width));
        for i in 0..rows {
            let n = r.row_len()?;
            if n != width {
                return Err(encode_err(format!(
                    "{} has {n} values; the schema {:?} has {width} fields",
                    what(i),
                    self.text.as_deref().unwrap_or("")
                )));
            }
            hosts.clear();
            args.clear();
            for j in 0..n {
                let h = r.cell()?;
                args.push(self.arg(j, &h));
                hosts.push(h);
            }
            if lists {
                self.encode_list_row(&hosts, &what(i), out)?;
            } else {
                enc.encode(&args, out)
                    .map_err(|e| self.row_err(&what(i), &e, &hosts))?;
            }
            ends.push(i32::try_from(out.len()).map_err(|_| {
                encode_err("the keys of one call exceed 2 GiB: encode fewer rows per call")
            })?);
        }
        if !r.at_end() {
            return Err(Error::State(
                "lexikey: value buffer longer than its rows".into(),
            ));
        }
        Ok(())
    }

    /// Appends the key of `row`, a row of a schema with list fields
    /// (`list<T>`), to `out`: its components made one at a time, a `List`
    /// converted element by element ([`KeySpec::list_field`]), then the
    /// key ([`KeySpec::encode_named`]).
    fn encode_list_row(
        &self,
        row: &[Host<'_>],
        what: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let comps = row
            .iter()
            .enumerate()
            .map(|(j, h)| self.field(j, h, what))
            .collect::<Result<Vec<_>, _>>()?;
        let key = self
            .spec
            .encode_named(&comps, |j| format!("value {} ({})", j + 1, self.label(j)))
            .map_err(|e| encode_err(format!("{what}: {e}")))?;
        out.extend_from_slice(&key);
        Ok(())
    }

    /// The component of field `i` holding `h`: a `List` (or the null) of a
    /// list field element by element, any other value by its `Arg`; errors
    /// name `what` and the field.
    fn field(&self, i: usize, h: &Host<'_>, what: &str) -> Result<Comp, Error> {
        match self.spec.list_field(i, h) {
            Some(c) => c.map_err(|e| match e {
                Error::Encode(m) => {
                    encode_err(format!("{what}, value {} ({}): {m}", i + 1, self.label(i)))
                }
                e => e,
            }),
            None => self
                .spec
                .field(i, self.arg(i, h))
                .map_err(|e| self.value_err(what, i, &e, h)),
        }
    }

    /// The ranges of the keys whose leading fields hold `prefix` and whose
    /// next field satisfies every predicate: one per salt bucket when
    /// `all_buckets`, else the one range (a salted schema is refused).
    pub(crate) fn ranges(
        &self,
        prefix: &[Host<'_>],
        preds: &[(PredOp, Host<'_>)],
        all_buckets: bool,
    ) -> Result<Vec<KeyRange>, Error> {
        if self.salted && !all_buckets {
            return Err(arg_err(
                "a salted schema has one range per bucket: use Schema.ranges(...), which returns \
                 them all, bucket 0 first",
            ));
        }
        let field = |i: usize, h: &Host<'_>, what: &str| self.field(i, h, what);
        let comps = prefix
            .iter()
            .enumerate()
            .map(|(i, h)| field(i, h, "prefix"))
            .collect::<Result<Vec<_>, _>>()?;
        let next = prefix.len();
        let mut parsed = Vec::with_capacity(preds.len());
        let mut texts = Vec::with_capacity(preds.len());
        for (kind, h) in preds {
            let what = format!("predicate {}", kind.name());
            if *kind == PredOp::Prefix {
                let Host::Str(s) = *h else {
                    return Err(encode_err(format!(
                        "{what}: expected a String, got {}",
                        h.java_type()
                    )));
                };
                // A str field's direction, and on a nullable str? its
                // values; another field: an ascending str, as before.
                let prefix = self
                    .spec
                    .str_prefix_preds(next, s)
                    .unwrap_or_else(|| vec![Pred::Prefix(s.to_string(), lexikey::Dir::Asc)]);
                for p in prefix {
                    texts.push(p.value().map_or_else(|| s.to_string(), comp_text));
                    parsed.push(p);
                }
                continue;
            }
            let c = field(next, h, &what)?;
            texts.push(comp_text(&c));
            parsed.extend(Pred::with_op(*kind, c));
        }
        let prefix_texts: Vec<String> = comps.iter().map(comp_text).collect();
        let refs: Vec<&str> = prefix_texts.iter().map(String::as_str).collect();
        let pred_refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.spec
            .ranges(&comps, parsed)
            .map_err(|e| encode_err(range_message(&e, &refs, &pred_refs)))
    }

    /// Decodes a key and writes its values as a row; `at`: the message's
    /// prefix (`key N: ` in bulk calls).
    pub(crate) fn decode(
        &self,
        key: &[u8],
        at: &dyn Fn() -> String,
        w: &mut Writer,
    ) -> Result<(), Error> {
        let bad = |e: &DecodeError| {
            Error::Decode(
                format!("{}invalid key {}: {e}", at(), lexikey::show_key(key)),
                e.offset(),
            )
        };
        let values = self.spec.decode(key).map_err(|e| bad(&e))?;
        w.row(values.len());
        for i in 0..values.len() {
            let out = values.get(i).map_err(|e| {
                let (msg, offset) = values.value_error(key, i, e);
                Error::Decode(format!("{}{msg}", at()), offset)
            })?;
            let class = match self.classes.get(i) {
                Some(c) => *c,
                None => IntClass::of_label(&values.label(i)),
            };
            conv::write_out(w, class, &out);
        }
        Ok(())
    }
}

/// The bytes of a key given to a decoder: a `byte[]` as it is; a `String`
/// as its UTF-8 for the text formats, or as hex (either case), `0x…` hex or
/// HBase's `Bytes.toStringBinary` form for the binary formats, as the
/// command line takes binary keys.
pub(crate) fn key_bytes<'k>(
    fmt: KeyFormat,
    given_as_text: bool,
    raw: &'k [u8],
) -> Result<Cow<'k, [u8]>, Error> {
    if !given_as_text || fmt.is_text() {
        return Ok(Cow::Borrowed(raw));
    }
    lexikey::value::literal::binary_key_from_text(raw)
        .map(Cow::Owned)
        .map_err(|e| Error::Decode(e.to_string(), e.offset()))
}

/// Encodes the components given to `Lexikey.encodeText`/`encodeBytes` (a
/// row of cells in `buf`), appending the key to `out`.
pub(crate) fn encode_plain(spec: &KeySpec, buf: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    let cells = Reader::new(buf).row()?;
    if cells.is_empty() && spec.format() != KeyFormat::Profile(Profile::Phoenix) {
        // The empty tuple: the empty key (fdb.tuple.pack(()) is b"" too). A
        // Phoenix row key is never empty.
        return Ok(());
    }
    let comps = plain_comps(spec, &cells)?;
    out.extend_from_slice(&spec.encode(&comps).map_err(|e| encode_err(e.to_string()))?);
    Ok(())
}

/// The components of plain values and component strings, each error
/// naming its component.
fn plain_comps(spec: &KeySpec, cells: &[Host<'_>]) -> Result<Vec<Comp>, Error> {
    cells
        .iter()
        .enumerate()
        .map(|(i, h)| {
            conv::plain(spec, h).map_err(|e| match h {
                // A component string: the core's parser names it.
                Host::Str(s) if spec.is_component(s) => encode_err(e.to_string()),
                _ => encode_err(format!(
                    "component {} ({}): {}",
                    i + 1,
                    conv::describe(h),
                    conv::message(&e, h)
                )),
            })
        })
        .collect()
}

/// `Lexikey.packWithVersionstamp`: the `fdb-tuple` key of plain values
/// and component strings holding one incomplete versionstamp, its offset
/// appended ([`KeySpec::encode_with_versionstamp`]).
pub(crate) fn pack_with_versionstamp(spec: &KeySpec, buf: &[u8]) -> Result<Vec<u8>, Error> {
    let cells = Reader::new(buf).row()?;
    let comps = plain_comps(spec, &cells)?;
    spec.encode_with_versionstamp(&comps)
        .map_err(|e| encode_err(e.to_string()))
}

/// Encodes component strings as the command line's `encode` does: each
/// parsed by the core ([`KeySpec::parse_components`]).
pub(crate) fn encode_texts(spec: &KeySpec, buf: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    let cells = Reader::new(buf).row()?;
    let texts = cells
        .iter()
        .map(|h| match *h {
            Host::Str(s) => Ok(s),
            _ => Err(Error::State(
                "lexikey: a component that is not a string".into(),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let comps = spec
        .parse_components(&texts)
        .map_err(|e| encode_err(e.to_string()))?;
    out.extend_from_slice(&spec.encode(&comps).map_err(|e| encode_err(e.to_string()))?);
    Ok(())
}
