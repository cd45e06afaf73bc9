//! `Schema`: the fields of a key, parsed once, for encoding and decoding
//! many keys. The native formats encode and decode with the core directly
//! (`tuple::encode_into`, `tuple::decode_into`); bulk calls convert the
//! Python values first (GIL held), then encode or decode every row with the
//! GIL released, then build the Python results.

use std::borrow::Cow;

use lexikey::interop::{fdb, hbase, phoenix};
use lexikey::salt::{SaltMode, Salter};
use lexikey::{tuple, Component, DecodeError, Field, Format, Type, Value};
use lexikey_cli::api::KeyOptions;
use lexikey_cli::interop::{self as cli_interop, Decoded, Profile};
use lexikey_cli::kinds::{self, Col, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use crate::bulk;
use crate::conv::{self, Cat};
use crate::errors::{decode_err, encode_err, from_decode, value_err};
use crate::{key_bytes, key_object, Fidelity, Fmt, MAX_KEY_LEN};

/// How keys of a format and schema decode.
#[derive(Debug, Clone)]
pub(crate) enum Decoder {
    Native {
        format: Format,
        cols: Option<Vec<Col>>,
        fields: Option<Vec<Field>>,
        salter: Option<Salter>,
    },
    Profile {
        schema: Option<cli_interop::Schema>,
        /// The `hbase-ordered` numeric codec.
        codec: hbase::Codec,
    },
}

fn native_salter(format: Format, n: Option<u32>) -> PyResult<Option<Salter>> {
    let Some(n) = n else { return Ok(None) };
    if !(1..=255).contains(&n) {
        return Err(value_err(format!(
            "invalid salt_buckets {n}: expected a number from 1 to 255 (the salt is one bucket \
             byte; the phoenix format takes up to 256)"
        )));
    }
    let s = Salter::with_count(n, SaltMode::Fast).map_err(|e| value_err(e.to_string()))?;
    Ok(Some(s.for_format(format)))
}

fn profile_salt(p: Profile, n: Option<u32>) -> PyResult<Option<u16>> {
    let Some(n) = n else { return Ok(None) };
    if p != Profile::Phoenix {
        return Err(value_err(format!(
            "salt_buckets applies only to the phoenix format among the interop profiles, not {}",
            p.name()
        )));
    }
    match u16::try_from(n) {
        Ok(n @ 1..=256) => Ok(Some(n)),
        _ => Err(value_err(format!(
            "invalid salt_buckets {n}: expected a number from 1 to 256 (Phoenix's SALT_BUCKETS)"
        ))),
    }
}

fn check_width(fmt: Fmt, width: Option<u8>) -> PyResult<()> {
    match (fmt, width) {
        (_, None) | (Fmt::Native(Format::Decimal), Some(1..=20)) => Ok(()),
        (Fmt::Native(Format::Decimal), Some(w)) => Err(value_err(format!(
            "invalid width {w}: expected a number of decimal digits from 1 to 20"
        ))),
        (Fmt::Native(f), Some(_)) => Err(value_err(format!(
            "width applies only to the decimal format (the {f} format has fixed widths)"
        ))),
        (Fmt::Profile(p), Some(_)) => Err(value_err(format!(
            "width applies only to the decimal format (the {} profile fixes its own widths)",
            p.name()
        ))),
    }
}

impl Decoder {
    /// `for_schema`: a `Schema` (an `fdb-tuple` schema lists element types).
    pub(crate) fn new(
        fmt: Fmt,
        schema: Option<&str>,
        width: Option<u8>,
        salt_buckets: Option<u32>,
        for_schema: bool,
        codec: hbase::Codec,
    ) -> PyResult<Decoder> {
        check_width(fmt, width)?;
        match fmt {
            Fmt::Native(format) => {
                let cols = match schema {
                    Some(s) => Some(
                        kinds::parse_schema(s, width).map_err(|e| value_err(format!("{e:#}")))?,
                    ),
                    None if matches!(format, Format::Decimal | Format::Binary) => {
                        return Err(value_err(format!(
                            "{format} keys carry no type tags: pass a schema (e.g. schema=\"str,i64\")"
                        )))
                    }
                    None if width.is_some() => {
                        return Err(value_err(
                            "width needs a schema (it applies to the schema's integer fields)"
                                .into(),
                        ))
                    }
                    None => None,
                };
                Ok(Decoder::Native {
                    format,
                    fields: cols.as_deref().map(kinds::fields),
                    cols,
                    salter: native_salter(format, salt_buckets)?,
                })
            }
            Fmt::Profile(p) => {
                let salt = profile_salt(p, salt_buckets)?;
                let schema =
                    match (p, schema) {
                        (Profile::Fdb, Some(_)) if !for_schema => return Err(value_err(
                            "fdb-tuple keys are self-describing (each element has its type code): \
                             decode takes no schema"
                                .into(),
                        )),
                        (Profile::Fdb, None) => None,
                        (_, Some(s)) => Some(
                            cli_interop::parse_schema(p, s, salt)
                                .map_err(|e| value_err(format!("{e:#}")))?,
                        ),
                        (_, None) => {
                            return Err(value_err(format!(
                                "{} keys do not name their fields: pass a schema",
                                p.name()
                            )))
                        }
                    };
                Ok(Decoder::Profile { schema, codec })
            }
        }
    }

    /// Decodes a native key into `out`.
    fn native<'k>(
        format: Format,
        fields: Option<&[Field]>,
        salter: Option<&Salter>,
        key: &'k [u8],
        out: &mut Vec<Component<'k>>,
    ) -> Result<(), DecodeError> {
        if key.len() > MAX_KEY_LEN {
            return Err(DecodeError::TrailingBytes {
                offset: MAX_KEY_LEN,
            });
        }
        match salter {
            None => tuple::decode_into(format, key, fields, out),
            Some(s) => {
                let (_, rest) = s.unsalt(key)?;
                tuple::decode_into(format, rest, fields, out).map_err(|e| e.shift(s.salt_len()))
            }
        }
    }

    fn profile(
        schema: Option<&cli_interop::Schema>,
        codec: hbase::Codec,
        key: &[u8],
    ) -> Result<Decoded, DecodeError> {
        if key.len() > MAX_KEY_LEN {
            return Err(DecodeError::TrailingBytes {
                offset: MAX_KEY_LEN,
            });
        }
        cli_interop::decode_key(schema, key, codec)
    }

    /// The `(type, value)` pairs of a key.
    pub(crate) fn decode_pairs<'py>(
        &self,
        py: Python<'py>,
        key: &[u8],
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        match self {
            Decoder::Native {
                format,
                cols,
                fields,
                salter,
            } => {
                let mut comps = Vec::new();
                Self::native(*format, fields.as_deref(), salter.as_ref(), key, &mut comps)
                    .map_err(|e| from_decode(&e, &show(key)))?;
                comps
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let col = cols.as_ref().and_then(|cols| cols.get(i));
                        let label = match col {
                            Some(col) => col.to_string(),
                            None => c.field().to_string(),
                        };
                        let v = conv::py_col_value(py, col, c).map_err(|e| {
                            self.value_err(py, e, "", key, i, || {
                                native_offset(*format, salter.as_ref(), &comps, i)
                            })
                        })?;
                        conv::pair(py, &label, v)
                    })
                    .collect()
            }
            Decoder::Profile { schema, codec } => {
                let d = Self::profile(schema.as_ref(), *codec, key)
                    .map_err(|e| from_decode(&e, &show(key)))?;
                conv::py_decoded(py, &d, &|i, e| {
                    self.value_err(py, e, "", key, i, || {
                        profile_offset(schema.as_ref(), *codec, &d, i)
                    })
                })
            }
        }
    }

    /// A value of `key` that decodes but is no Python value (a `ts` or
    /// Phoenix date beyond `datetime`'s years 1 to 9999): its `DecodeError`
    /// re-raised naming the value and at the byte offset of its component
    /// (`offset()`; `at`: the message's prefix). Other errors as they are.
    fn value_err(
        &self,
        py: Python<'_>,
        e: PyErr,
        at: &str,
        key: &[u8],
        i: usize,
        offset: impl FnOnce() -> usize,
    ) -> PyErr {
        if !e.is_instance_of::<crate::errors::DecodeError>(py) {
            return e;
        }
        let offset = offset();
        decode_err(
            format!(
                "{at}invalid key {}: value {} at byte {offset}: {}",
                show(key),
                i + 1,
                e.value(py)
            ),
            offset,
        )
    }
}

/// The byte offset of component `i` of a native key that decoded to
/// `comps`: decoding is canonical, so the components before it encode to
/// exactly the bytes before it (then a separator in the text formats),
/// after the salt.
fn native_offset(
    format: Format,
    salter: Option<&Salter>,
    comps: &[Component<'_>],
    i: usize,
) -> usize {
    let mut before = Vec::new();
    // Cannot fail: the components were decoded from a key of this format.
    let _ = tuple::encode_into(format, &comps[..i], &mut before);
    salter.map_or(0, Salter::salt_len) + before.len() + usize::from(i > 0 && format.is_text())
}

/// The byte offset of element `i` of an interop key that decoded to `d`:
/// the key of the elements up to `i` (re-encoded: decoding is canonical)
/// less element `i`'s own bytes. Exact for the values that can fail to
/// convert (Phoenix `DATE`/`TIME`/`TIMESTAMP`: fixed width, no separator).
fn profile_offset(
    schema: Option<&cli_interop::Schema>,
    codec: hbase::Codec,
    d: &Decoded,
    i: usize,
) -> usize {
    let (mut upto, mut own) = (Vec::new(), Vec::new());
    match d {
        Decoded::Fdb(es) => {
            fdb::pack(&es[..i], &mut upto);
            return upto.len();
        }
        Decoded::Hbase(vs) => {
            let (fields, values): (Vec<_>, Vec<_>) = vs[..=i].iter().cloned().unzip();
            let _ = codec.encode_struct(&fields, &values, &mut upto);
            let _ = codec.encode_value(vs[i].0, &vs[i].1, &mut own);
        }
        Decoded::Phoenix(vs) => {
            let Some(cli_interop::Schema::Phoenix(table)) = schema else {
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

fn show(key: &[u8]) -> String {
    let mut s = String::from("\"");
    s.push_str(&lexikey::escape_key(&key[..key.len().min(64)]));
    if key.len() > 64 {
        s.push_str("...");
    }
    s.push('"');
    s
}

/// How rows of a schema encode.
#[derive(Debug, Clone)]
enum Encoder {
    Native {
        format: Format,
        cols: Vec<Col>,
        salter: Option<Salter>,
    },
    Fdb(Vec<String>),
    Hbase(Vec<hbase::Field>),
    Phoenix(phoenix::Table),
}

/// One converted cell of a native row: a string in the arena, or a value.
/// Kept to 16 bytes: a million-row call holds a million cells per field.
enum Cell {
    /// `arena[start..end]`.
    Str(usize, usize),
    I64(i64),
    /// Any other value.
    Val(Box<Value<'static>>),
}

/// A value borrowing from `v` (no copy of bytes).
fn borrow<'a>(v: &'a Value<'static>) -> Value<'a> {
    match v {
        Value::Str(s) => Value::Str(Cow::Borrowed(s)),
        Value::Bytes(b) => Value::Bytes(Cow::Borrowed(b)),
        other => other.clone(),
    }
}

/// The fields of a key for encoding and decoding many keys with one
/// parse: `Schema("str,i64.desc", format="hex")`.
///
/// - `encode(values) -> key` from a tuple of Python values (one per field);
/// - `decode(key) -> tuple` of Python values;
/// - `encode_many(rows) -> list` and `decode_many(keys) -> list[tuple]`:
///   bulk, with the GIL released while the keys are encoded or decoded;
/// - `range(prefix=(), ge=..., lt=..., eq=..., str_prefix=...) -> (start,
///   end)`: `prefix` holds values of the leading fields, the predicates are
///   values of the next field; `ranges(...) -> list[(start, end)]`: the
///   same, one range per salt bucket for a salted schema.
///
/// Keys are `str` for the text formats and `bytes` otherwise, as in
/// `encode`. `width` and `salt_buckets` are the command line's `--width` and
/// `--salt-buckets` (a salted schema has one range per bucket: `ranges`
/// returns them; `range` refuses it); `hbase_numeric` and `round` those of
/// `encode` (`--hbase-numeric`, `--round`). An `fdb-tuple` schema lists
/// element types (`"str,int"`).
///
/// >>> s = lexikey.Schema("str,i64")
/// >>> s.encode(("population", 3831868))
/// 'population#l80000000003A783C'
#[pyclass(frozen, module = "lexikey")]
#[derive(Debug)]
pub(crate) struct Schema {
    spec: String,
    format: String,
    fmt: Fmt,
    width: Option<u8>,
    salt_buckets: Option<u32>,
    dec: Decoder,
    enc: Encoder,
    /// The typed bulk path (schemas of `str` and `i64` fields only).
    bulk: Option<bulk::Bulk>,
    /// `hbase_numeric` and `round`.
    fid: Fidelity,
    labels: Vec<String>,
}

impl Schema {
    fn arity(&self) -> usize {
        self.labels.len()
    }

    fn check_arity(&self, n: usize, what: &str) -> PyResult<()> {
        if n != self.arity() {
            return Err(encode_err(format!(
                "{what} has {n} values; the schema {:?} has {} fields",
                self.spec,
                self.arity()
            )));
        }
        Ok(())
    }

    /// The value texts of a profile row (`None`: null).
    fn profile_texts(&self, row: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Option<String>>> {
        let items = items(row, what)?;
        self.check_arity(items.len(), what)?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let label = &self.labels[i];
                let cat = match &self.enc {
                    Encoder::Fdb(types) => conv::fdb_cat(&types[i]),
                    Encoder::Hbase(fields) => conv::hbase_cat(fields[i].kind),
                    Encoder::Phoenix(t) => conv::phoenix_cat(t.columns[i].ty),
                    Encoder::Native { .. } => Cat::Str,
                };
                conv::cat_text(cat, label, v).map_err(|e| field_err(e, what, i, label))
            })
            .collect()
    }

    /// Encodes a profile row from its value texts.
    fn profile_key(
        enc: &Encoder,
        fid: &Fidelity,
        texts: &[Option<String>],
    ) -> Result<Vec<u8>, String> {
        let mut key = Vec::new();
        match enc {
            Encoder::Fdb(types) => {
                let elems = parse_row(types, texts, fdb::Element::Null, |ty, t| {
                    fdb::parse_component(&format!("{ty}:{t}"))
                })?;
                fdb::pack(&elems, &mut key);
            }
            Encoder::Hbase(fields) => {
                let values = parse_row(fields, texts, hbase::Value::Null, |f, t| {
                    hbase::parse_value(f.kind, t)
                })?;
                fid.codec
                    .encode_struct(fields, &values, &mut key)
                    .map_err(|e| e.to_string())?;
            }
            Encoder::Phoenix(table) => {
                let values = parse_row(&table.columns, texts, phoenix::Value::Null, |c, t| {
                    phoenix::parse_value_with(c.ty, t, fid.rounding)
                })?;
                phoenix::encode_row_key(table, &values, &mut key).map_err(|e| e.to_string())?;
            }
            Encoder::Native { .. } => return Err("internal error: not a profile".into()),
        }
        tuple::check_len(&key, MAX_KEY_LEN).map_err(|e| e.to_string())?;
        Ok(key)
    }

    /// Converts one native row (`r`: its index in a bulk call) into cells,
    /// strings appended to `arena`.
    fn native_cells(
        cols: &[Col],
        row: &Bound<'_, PyAny>,
        r: Option<usize>,
        arena: &mut String,
        cells: &mut Vec<Cell>,
    ) -> PyResult<()> {
        let what = || r.map_or_else(|| "values".to_string(), |r| format!("row {r}"));
        // Tuples (the common case) are read in place; lists and other
        // sequences through a vector.
        let tuple = row.cast::<PyTuple>().ok();
        let other = match tuple {
            Some(_) => Vec::new(),
            None => items(row, &what())?,
        };
        let len = tuple.map_or(other.len(), |t| t.len());
        if len != cols.len() {
            return Err(encode_err(format!(
                "{} has {len} values; the schema has {} fields",
                what(),
                cols.len()
            )));
        }
        for (i, col) in cols.iter().enumerate() {
            let v = match tuple {
                Some(t) => t.get_item(i)?,
                None => other[i].clone(),
            };
            let cell = match col.kind {
                Kind::Core(Type::Str) => match v.cast::<PyString>() {
                    Ok(s) => {
                        let start = arena.len();
                        match conv::utf8(s) {
                            Some(text) => arena.push_str(text),
                            None => {
                                return Err(encode_err(format!(
                                    "{}, value {} ({col}): a str with lone surrogates is not UTF-8",
                                    what(),
                                    i + 1
                                )))
                            }
                        }
                        Cell::Str(start, arena.len())
                    }
                    Err(_) => {
                        return Err(encode_err(format!(
                            "{}, value {} ({col}): expected a str, got {}",
                            what(),
                            i + 1,
                            v.get_type().name()?
                        )))
                    }
                },
                Kind::Core(Type::I64) if v.is_exact_instance_of::<PyInt>() => {
                    match v.extract::<i64>() {
                        Ok(x) => Cell::I64(x),
                        Err(_) => {
                            return Err(encode_err(format!(
                                "{}, value {} ({col}): {} is out of range for i64",
                                what(),
                                i + 1,
                                v.str()?
                            )))
                        }
                    }
                }
                _ => Cell::Val(Box::new(
                    conv::col_value(col, &v)
                        .map_err(|e| field_err(e, &what(), i, &col.to_string()))?,
                )),
            };
            cells.push(cell);
        }
        Ok(())
    }

    /// Encodes native rows of cells into `out` (keys end at `ends`).
    #[allow(clippy::too_many_arguments)]
    fn native_keys(
        base: Option<usize>,
        format: Format,
        cols: &[Col],
        salter: Option<&Salter>,
        arena: &str,
        cells: &[Cell],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), String> {
        let n = cols.len();
        let mut comps: Vec<Component<'_>> = Vec::with_capacity(n);
        let mut unsalted = Vec::new();
        for (r, row) in cells.chunks(n.max(1)).enumerate() {
            comps.clear();
            for (col, cell) in cols.iter().zip(row) {
                let value = match cell {
                    Cell::Str(a, b) => Value::Str(Cow::Borrowed(&arena[*a..*b])),
                    Cell::I64(x) => Value::I64(*x),
                    Cell::Val(v) => borrow(v),
                };
                comps.push(Component {
                    value,
                    dir: col.field.dir,
                    width: col.field.width,
                });
            }
            let start = out.len();
            let res = match salter {
                None => tuple::encode_into(format, &comps, out),
                Some(s) => {
                    unsalted.clear();
                    tuple::encode_into(format, &comps, &mut unsalted)
                        .map(|()| s.salted_key_into(&unsalted, out))
                }
            };
            if let Err(e) = res {
                // Name the component at fault.
                let mut scratch = Vec::new();
                let at = comps
                    .iter()
                    .position(|c| format.encode_component(c, &mut scratch).is_err());
                let row_name = if let Some(b) = base {
                    format!("row {}, ", b + r)
                } else {
                    String::new()
                };
                return Err(match at {
                    Some(i) => format!("{row_name}value {} ({}): {e}", i + 1, cols[i]),
                    None => format!("{row_name}{e}"),
                });
            }
            if out.len() - start > MAX_KEY_LEN {
                return Err(format!(
                    "row {}: key of {} bytes is longer than the limit of {MAX_KEY_LEN} bytes",
                    base.unwrap_or(0) + r,
                    out.len() - start
                ));
            }
            ends.push(out.len());
        }
        Ok(())
    }

    /// The general path of `encode_many` for one chunk of rows (`base`:
    /// the index of its first row): every type, every error message.
    fn native_chunk<'py>(
        &self,
        py: Python<'py>,
        chunk: bulk::Rows<'_, 'py>,
        base: usize,
        keys: &mut bulk::Keys<'py>,
    ) -> PyResult<()> {
        let Encoder::Native {
            format,
            cols,
            salter,
        } = &self.enc
        else {
            return Err(value_err("internal error: not a native schema".into()));
        };
        let (mut arena, mut cells) = (String::new(), Vec::new());
        let mut unread = None;
        for i in 0..chunk.len() {
            let res = chunk.get(i).and_then(|row| {
                Self::native_cells(cols, &row, Some(base + i), &mut arena, &mut cells)
            });
            if let Err(e) = res {
                // The rows before it are encoded first: an error there is
                // the first one (errors name the first bad row).
                cells.truncate(i * cols.len());
                unread = Some(e);
                break;
            }
        }
        let (format, salter) = (*format, *salter);
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        py.detach(|| {
            Self::native_keys(
                Some(base),
                format,
                cols,
                salter.as_ref(),
                &arena,
                &cells,
                &mut out,
                &mut ends,
            )
        })
        .map_err(encode_err)?;
        if let Some(e) = unread {
            return Err(e);
        }
        let mut start = 0;
        for &end in &ends {
            keys.push(key_object(py, self.fmt.is_text(), &out[start..end])?)?;
            start = end;
        }
        Ok(())
    }

    fn key_list<'py>(
        &self,
        py: Python<'py>,
        out: &[u8],
        ends: &[usize],
    ) -> PyResult<Bound<'py, PyList>> {
        let text = self.fmt.is_text();
        let mut start = 0;
        let keys = ends
            .iter()
            .map(|&end| {
                let k = key_object(py, text, &out[start..end]);
                start = end;
                k
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, keys)
    }

    /// Decodes `keys` with the GIL released, then builds their tuples;
    /// `many`: name the bad key's index in the error.
    fn decode_all<'py>(
        &self,
        py: Python<'py>,
        keys: &[Vec<u8>],
        many: bool,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let at = |i: usize| {
            if many {
                format!("key {i}: ")
            } else {
                String::new()
            }
        };
        let bad = |i: usize, e: &DecodeError| {
            decode_err(
                format!("{}invalid key {}: {e}", at(i), show(&keys[i])),
                e.offset(),
            )
        };
        match &self.dec {
            Decoder::Native {
                format,
                fields,
                salter,
                ..
            } => {
                let (format, fields, salter) = (*format, fields.as_deref(), salter.as_ref());
                let all = py
                    .detach(|| {
                        keys.iter()
                            .enumerate()
                            .map(|(i, k)| {
                                let mut comps =
                                    Vec::with_capacity(fields.map_or(4, <[Field]>::len));
                                Decoder::native(format, fields, salter, k, &mut comps)
                                    .map(|()| comps)
                                    .map_err(|e| (i, e))
                            })
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(|(i, e)| bad(i, &e))?;
                all.iter()
                    .enumerate()
                    .map(|(k, comps)| {
                        let values = comps
                            .iter()
                            .enumerate()
                            .map(|(i, c)| {
                                let col = self.cols().and_then(|cs| cs.get(i));
                                conv::py_col_value(py, col, c).map_err(|e| {
                                    self.dec.value_err(py, e, &at(k), &keys[k], i, || {
                                        native_offset(format, salter, comps, i)
                                    })
                                })
                            })
                            .collect::<PyResult<Vec<_>>>()?;
                        PyTuple::new(py, values)
                    })
                    .collect()
            }
            Decoder::Profile { schema, codec } => {
                let (schema, codec) = (schema.as_ref(), *codec);
                let all = py
                    .detach(|| {
                        keys.iter()
                            .enumerate()
                            .map(|(i, k)| Decoder::profile(schema, codec, k).map_err(|e| (i, e)))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .map_err(|(i, e)| bad(i, &e))?;
                all.iter()
                    .enumerate()
                    .map(|(k, d)| {
                        let values = conv::py_decoded_values(py, d, &|i, e| {
                            self.dec.value_err(py, e, &at(k), &keys[k], i, || {
                                profile_offset(schema, codec, d, i)
                            })
                        })?;
                        PyTuple::new(py, values)
                    })
                    .collect()
            }
        }
    }

    /// The native schema's columns.
    fn cols(&self) -> Option<&[Col]> {
        match &self.dec {
            Decoder::Native { cols, .. } => cols.as_deref(),
            Decoder::Profile { .. } => None,
        }
    }

    /// The component text of value `v` of field `i`.
    fn field_text(&self, i: usize, v: &Bound<'_, PyAny>) -> PyResult<String> {
        let Some(label) = self.labels.get(i) else {
            return Err(value_err(format!(
                "the schema {:?} has {} fields: no field {} to compare",
                self.spec,
                self.arity(),
                i + 1
            )));
        };
        match self.fmt {
            Fmt::Native(_) => conv::native_text(label, v),
            Fmt::Profile(p) => conv::profile_text(p, label, v),
        }
        .map_err(|e| field_err(e, "range", i, label))
    }
}

/// The values of a profile row: `null` for `None`, else `parse(field,
/// text)`; errors name the value and its field.
fn parse_row<F: std::fmt::Display, V: Clone>(
    fields: &[F],
    texts: &[Option<String>],
    null: V,
    parse: impl Fn(&F, &str) -> Result<V, lexikey::ParseError>,
) -> Result<Vec<V>, String> {
    fields
        .iter()
        .zip(texts)
        .enumerate()
        .map(|(i, (f, t))| match t {
            None => Ok(null.clone()),
            Some(t) => parse(f, t).map_err(|e| format!("value {} ({f}): {e}", i + 1)),
        })
        .collect()
}

fn items<'py>(row: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = row.cast::<PyTuple>() {
        return Ok(t.iter().collect());
    }
    if let Ok(l) = row.cast::<PyList>() {
        return Ok(l.iter().collect());
    }
    Err(encode_err(format!(
        "{what}: expected a tuple (or list) of values, got {}",
        row.get_type().name()?
    )))
}

fn field_err(e: PyErr, what: &str, i: usize, label: &str) -> PyErr {
    Python::attach(|py| {
        if e.is_instance_of::<crate::errors::EncodeError>(py) {
            encode_err(format!(
                "{what}, value {} ({label}): {}",
                i + 1,
                e.value(py)
            ))
        } else {
            e
        }
    })
}

#[pymethods]
impl Schema {
    #[new]
    #[pyo3(signature = (spec, format = "hex", *, width = None, salt_buckets = None, hbase_numeric = None, round = false))]
    fn new(
        spec: &str,
        format: &str,
        width: Option<u8>,
        salt_buckets: Option<u32>,
        hbase_numeric: Option<&str>,
        round: bool,
    ) -> PyResult<Self> {
        let fmt = Fmt::parse(format)?;
        let fid = Fidelity::new(fmt, hbase_numeric, round)?;
        let dec = Decoder::new(fmt, Some(spec), width, salt_buckets, true, fid.codec)?;
        let (enc, labels) = match (&dec, fmt) {
            (
                Decoder::Native {
                    format,
                    cols: Some(cols),
                    salter,
                    ..
                },
                _,
            ) => (
                Encoder::Native {
                    format: *format,
                    cols: cols.clone(),
                    salter: *salter,
                },
                cols.iter().map(Col::to_string).collect(),
            ),
            (
                Decoder::Profile {
                    schema: Some(s), ..
                },
                _,
            ) => match s {
                cli_interop::Schema::Fdb(types) => (Encoder::Fdb(types.clone()), types.clone()),
                cli_interop::Schema::Hbase(fields) => (
                    Encoder::Hbase(fields.clone()),
                    fields.iter().map(ToString::to_string).collect(),
                ),
                cli_interop::Schema::Phoenix(t) => (
                    Encoder::Phoenix(t.clone()),
                    t.columns.iter().map(ToString::to_string).collect(),
                ),
            },
            _ => return Err(value_err(format!("invalid schema {spec:?}"))),
        };
        let bulk = match &enc {
            Encoder::Native {
                format,
                cols,
                salter,
            } => bulk::Bulk::new(*format, cols, *salter, fmt.is_text()),
            _ => None,
        };
        Ok(Schema {
            spec: spec.to_string(),
            format: format.to_string(),
            fmt,
            width,
            salt_buckets,
            dec,
            enc,
            bulk,
            fid,
            labels,
        })
    }

    /// The schema as given (`"str,i64.desc"`).
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The key format.
    #[getter]
    fn format(&self) -> &str {
        &self.format
    }

    /// The field types as the command line labels them.
    #[getter]
    fn fields(&self) -> Vec<String> {
        self.labels.clone()
    }

    fn __repr__(&self) -> String {
        format!("Schema({:?}, format={:?})", self.spec, self.format)
    }

    /// The key of one row: a tuple holding one Python value per field.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let key = match &self.enc {
            Encoder::Native {
                format,
                cols,
                salter,
            } => {
                let mut arena = String::new();
                let mut cells = Vec::with_capacity(cols.len());
                Self::native_cells(cols, values, None, &mut arena, &mut cells)?;
                let (mut out, mut ends) = (Vec::new(), Vec::new());
                Self::native_keys(
                    None,
                    *format,
                    cols,
                    salter.as_ref(),
                    &arena,
                    &cells,
                    &mut out,
                    &mut ends,
                )
                .map_err(encode_err)?;
                out
            }
            enc => {
                let texts = self.profile_texts(values, "values")?;
                Self::profile_key(enc, &self.fid, &texts).map_err(encode_err)?
            }
        };
        key_object(py, self.fmt.is_text(), &key)
    }

    /// The keys of many rows (an iterable of tuples), in order. The rows
    /// are converted first; the keys are then encoded with the GIL released.
    fn encode_many<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        match &self.enc {
            Encoder::Native { .. } => {
                // In chunks of CHUNK rows: the buffers stay small and are
                // reused (cache-resident, no fresh pages per call), the GIL
                // is released while each chunk is encoded. A list is read
                // in place; other iterables a chunk at a time.
                const CHUNK: usize = 8192;
                let list = rows.cast::<PyList>().ok();
                let mut iter = match list {
                    Some(_) => None,
                    None => Some(rows.try_iter()?),
                };
                // A list's length when the call starts: rows another thread
                // appends meanwhile are not encoded.
                let total = list.map(|l| l.len());
                let mut keys = bulk::Keys::new(py, total)?;
                let mut held: Vec<Bound<'py, PyAny>> = Vec::new();
                let mut bufs = bulk::Buffers::default();
                let mut base = 0usize;
                loop {
                    let chunk = match (list, iter.as_mut()) {
                        (Some(l), _) => {
                            let end = l.len().min(total.unwrap_or(0));
                            bulk::Rows::List(l, base, end.saturating_sub(base).min(CHUNK))
                        }
                        (None, Some(it)) => {
                            held.clear();
                            for row in it.by_ref().take(CHUNK) {
                                match row {
                                    Ok(row) => held.push(row),
                                    Err(e) => {
                                        // The rows before it first (their
                                        // error would be the first one).
                                        self.native_chunk(
                                            py,
                                            bulk::Rows::Held(&held),
                                            base,
                                            &mut keys,
                                        )?;
                                        return Err(e);
                                    }
                                }
                            }
                            bulk::Rows::Held(&held)
                        }
                        (None, None) => break,
                    };
                    let n = chunk.len();
                    if n == 0 {
                        break;
                    }
                    let fast = match &self.bulk {
                        Some(b) => b.chunk(py, chunk, &mut bufs, &mut keys)?,
                        None => false,
                    };
                    if !fast {
                        self.native_chunk(py, chunk, base, &mut keys)?;
                    }
                    base += n;
                }
                keys.finish()
            }
            enc => {
                let rows = rows
                    .try_iter()?
                    .enumerate()
                    .map(|(r, row)| self.profile_texts(&row?, &format!("row {r}")))
                    .collect::<PyResult<Vec<_>>>()?;
                let (out, ends) = py
                    .detach(|| {
                        let mut out = Vec::new();
                        let mut ends = Vec::with_capacity(rows.len());
                        for (r, texts) in rows.iter().enumerate() {
                            let k = Self::profile_key(enc, &self.fid, texts)
                                .map_err(|e| format!("row {r}: {e}"))?;
                            out.extend_from_slice(&k);
                            ends.push(out.len());
                        }
                        Ok::<_, String>((out, ends))
                    })
                    .map_err(encode_err)?;
                self.key_list(py, &out, &ends)
            }
        }
    }

    /// The values of one key, as a tuple.
    fn decode<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let keys = vec![key_bytes(key, self.fmt.is_text())?];
        let mut tuples = self.decode_all(py, &keys, false)?;
        tuples
            .pop()
            .ok_or_else(|| value_err("internal error: no tuple".into()))
    }

    /// The values of many keys (an iterable of keys), as a list of tuples.
    /// The keys are decoded with the GIL released; the first bad key raises
    /// `DecodeError` (its message names the key's index).
    fn decode_many<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let text = self.fmt.is_text();
        let keys = keys
            .try_iter()?
            .map(|k| key_bytes(&k?, text))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, self.decode_all(py, &keys, true)?)
    }
    /// The half-open key range `(start, end)` of the keys whose leading
    /// fields hold `prefix` (a tuple of values) and whose next field
    /// satisfies every predicate given (values of that field;
    /// `str_prefix`: that field is an ascending `str` starting with it).
    /// `None` is an unbounded side. Exactly the command line's `range`.
    #[pyo3(
        signature = (prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None),
        text_signature = "(self, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn range<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(n) = self.salt_buckets {
            return Err(value_err(format!(
                "a schema salted into {n} buckets has one range per bucket: use \
                 Schema.ranges(...), which returns them all, bucket 0 first"
            )));
        }
        let (texts, preds) = self.range_query(prefix, [ge, gt, le, lt, eq], str_prefix)?;
        crate::range_pair(
            py,
            self.fmt,
            &self.key_options(None),
            &self.fid,
            &texts,
            &preds,
        )
    }

    /// The ranges of a query as `range` takes it, as a list of `(start,
    /// end)`: for a salted schema one per salt bucket, bucket 0 first (the
    /// command line's `range --salt-buckets N`: scan them all, or in
    /// parallel, and merge); otherwise the one range of `range`.
    #[pyo3(
        signature = (prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None),
        text_signature = "(self, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn ranges<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (texts, preds) = self.range_query(prefix, [ge, gt, le, lt, eq], str_prefix)?;
        let o = self.key_options(self.salt_buckets);
        let pairs = crate::ranges(&o, &self.fid, &texts, &preds)?
            .iter()
            .map(|r| crate::range_tuple(py, self.fmt, r))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, pairs)
    }
}

impl Schema {
    fn key_options(&self, salt_buckets: Option<u32>) -> KeyOptions {
        KeyOptions {
            format: self.format.clone(),
            width: self.width,
            salt_buckets,
        }
    }

    /// The component texts of a range query: the prefix values, and the
    /// predicates `ge`, `gt`, `le`, `lt`, `eq` (in that order) and
    /// `str_prefix` on the next field.
    #[allow(clippy::type_complexity)]
    fn range_query(
        &self,
        prefix: Option<&Bound<'_, PyAny>>,
        [ge, gt, le, lt, eq]: [Option<&Bound<'_, PyAny>>; 5],
        str_prefix: Option<&str>,
    ) -> PyResult<(Vec<String>, Vec<(&'static str, String)>)> {
        let prefix_values = match prefix {
            None => Vec::new(),
            Some(p) => items(p, "prefix")?,
        };
        let texts = prefix_values
            .iter()
            .enumerate()
            .map(|(i, v)| self.field_text(i, v))
            .collect::<PyResult<Vec<_>>>()?;
        let next = prefix_values.len();
        let preds = crate::predicates(
            self.fmt,
            [("ge", ge), ("gt", gt), ("le", le), ("lt", lt), ("eq", eq)],
            str_prefix,
            |_, v| self.field_text(next, v),
        )?;
        Ok((texts, preds))
    }
}
