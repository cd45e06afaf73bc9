//! Shared machinery of lexikey's fuzz targets.
//!
//! Every target in `fuzz_targets/` is a one-line call into this library, so
//! the properties live in one place and the seed generator
//! (`examples/seed.rs`) writes inputs in exactly the layout the targets read.
//!
//! # Targets and the properties they check
//!
//! | target | input | property |
//! |---|---|---|
//! | `decode_<fmt>` | schema header + arbitrary key bytes | `tuple::decode`, `tuple::decode_reusing` (same result, error and partial output as `decode_into`, over a vector holding stale owned strings), `tuple::DecodeArena::decode` (the same components in order and the same result as `decode_into`, text strings borrowed, twice through one arena), `Format::decode_component` and the scalar decoders never panic; every error's offset lies inside the key; a decoded tuple matches the schema, and its strings are valid UTF-8 (the decoders take ASCII strings with `from_utf8_unchecked`) |
//! | `redecode_<fmt>` | schema header + arbitrary key bytes | whenever a decoder succeeds, encoding its result gives back exactly the input (canonical decode) |
//! | `roundtrip_<fmt>` | two structured tuples of one schema | value → key → value; text keys are UTF-8 without C0 bytes; key order equals tuple order |
//! | `decode_compact` | mode byte (kind, direction, format) + key | the `vi64` / `vu64` decoders never panic, errors lie inside the key, an accepted key (and every prefix `compact::decode_*` reads) re-encodes to itself |
//! | `decode_nulls` | mode byte (type, direction, null order, format) + key | the nullable-component decoders never panic, errors lie inside the key, an accepted key re-encodes to itself, and a key decodes to the null exactly when it is the null marker alone |
//! | `parse_component` | UTF-8 text | `TYPE[.desc]:VALUE` parse → print → parse gives the same component (also UUID and hex syntax) |
//! | `parse_schema` | UTF-8 text | `Field::parse_schema` parse → print → parse is stable |
//! | `parse_ts` | UTF-8 text / 8 bytes | `parse_ts` → `format_ts` → `parse_ts` is stable |
//! | `range_build` | structured prefix, predicates, probe values | `RangeQuery::build` never panics; text bounds are valid UTF-8 without C0 bytes; a probe's key is inside the range exactly when the probe satisfies every predicate |
//! | `decode_fdb_tuple`, `decode_hbase_ordered`, `decode_phoenix` | key bytes (HBase: fields header; Phoenix: table header) | the interop decoders never panic, errors lie inside the key, accepted keys re-encode to themselves, decoded values survive the component syntax (see [`interop`]) |
//! | `parse_fdb_component` | UTF-8 text | `fdb::parse_component` (nested tuples, versionstamps) never panics; what it accepts prints and parses back, packs to a key that unpacks to it, and `pack_with_versionstamp` succeeds exactly with one incomplete versionstamp, its offset pointing at it (see [`interop`]) |
//! | `range_profile` | profile, options, component texts, predicates (see [`layers`]) | `KeySpec::ranges` / `ProfileRange::build` never panic and agree; ranges are non-empty, one per salt bucket (the unsalted range under each salt byte); a single predicate's own key is inside (`eq`, `ge`, `le`, `prefix`) or outside (`gt`, `lt`) |
//! | `parse_kind_component` | grid, width, 16 value bytes, text (see [`layers`]) | `kind::parse_component` / `parse_schema` never panic; columns, values (`Col::write_value` → `parse_value`), whole components and schemas print and parse back; decoded keys write the same text; `write_value` of any `ulid`/`uuid7`/`geo` value refuses it exactly when the kind cannot hold it, else round-trips |
//! | `decode_ulid`, `parse_store_url`, `decode_queue_key`, `decode_salted`, `decode_geo` | text or bytes (see [`decoders`]) | never panic, errors inside the input, accepted inputs re-encode to themselves (see [`decoders`]) |
//!
//! # Input layout
//!
//! Structured inputs are read through [`arbitrary::Unstructured`] by
//! [`Reader`], which only ever takes bytes from the front, so [`Writer`] can
//! produce any input on purpose (the seeds). Missing bytes read as zero.
//!
//! * **field** — one byte: bits 0–3 pick the type (`index % 12` into
//!   [`Type::ALL`]: bool f64 f32 uuid i32 i64 dec ts u64 u32 bytes str;
//!   except 12 = `vi64` and 13 = `vu64`, [`Type::COMPACT`]), bit 7
//!   means descending, bit 6 means "a decimal width byte follows".
//! * **value** — fixed-width types: their big-endian bytes (`bool`: low bit
//!   of one byte; floats: their IEEE bits). `str` / `bytes`: a length byte,
//!   then that many bytes (`str` keeps the longest valid UTF-8 prefix).
//!   `dec`: a sign byte (bit 0), the exponent as 2 bytes big-endian `i16`,
//!   a length byte and that many digit bytes (each `% 10`): the number
//!   `±0.DIGITS × 10^exp` (zero when out of range).
//! * **schema header** (`decode_*`, `redecode_*`) — one byte: bit 7 set
//!   means "no schema" (`None`), otherwise bits 0–2 are the number of
//!   fields (0–7, so the empty schema is included), followed by the fields;
//!   everything after the header is the key.

use std::borrow::Cow;
use std::cmp::Ordering;

use arbitrary::{Arbitrary, Unstructured};
use lexikey::error::DecodeError;
use lexikey::format::{base64, binary, decimal, hex};
use lexikey::range::{RangeError, RangeQuery};
use lexikey::value::literal;
use lexikey::{tuple, Component, Dir, Field, Format, Type, Value};

pub mod decoders;
pub mod interop;
pub mod layers;

/// Schema-header bit: decode without a schema.
pub const NO_SCHEMA: u8 = 0x80;
/// Field-byte bit: descending.
pub const FIELD_DESC: u8 = 0x80;
/// Field-byte bit: a decimal width byte follows.
pub const FIELD_WIDTH: u8 = 0x40;
/// Most components in a roundtrip tuple.
pub const MAX_TUPLE: usize = 5;

// ---------------------------------------------------------------------------
// Reading and writing the input layout
// ---------------------------------------------------------------------------

/// Reads the input layout (see the crate docs) from the front of an
/// [`Unstructured`]. Never fails: missing bytes read as zero.
#[derive(Debug)]
pub struct Reader<'a, 'u> {
    u: &'u mut Unstructured<'a>,
}

impl<'a, 'u> Reader<'a, 'u> {
    /// A reader over `u`.
    pub fn new(u: &'u mut Unstructured<'a>) -> Self {
        Reader { u }
    }

    /// One byte (0 when the input is used up).
    pub fn byte(&mut self) -> u8 {
        self.u.bytes(1).map_or(0, |b| b[0])
    }

    /// Up to `n` bytes (fewer at the end of the input).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.u.len());
        self.u.bytes(n).unwrap_or(&[])
    }

    /// The rest of the input.
    pub fn rest(&mut self) -> &'a [u8] {
        let n = self.u.len();
        self.take(n)
    }

    fn fixed<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        let s = self.take(N);
        b[..s.len()].copy_from_slice(s);
        b
    }

    /// A schema field.
    pub fn field(&mut self) -> Field {
        let b = self.byte();
        let ty = match b & 0x0F {
            12 => Type::Vi64,
            13 => Type::Vu64,
            i => Type::ALL[usize::from(i) % Type::ALL.len()],
        };
        let dir = if b & FIELD_DESC != 0 {
            Dir::Desc
        } else {
            Dir::Asc
        };
        let width = (b & FIELD_WIDTH != 0).then(|| self.byte());
        Field {
            ty,
            dir,
            width,
            nulls: None,
            list: 0,
        }
    }

    /// A value of type `ty`.
    pub fn value(&mut self, ty: Type) -> Value<'static> {
        match ty {
            Type::Bool => Value::Bool(self.byte() & 1 == 1),
            Type::F64 => Value::F64(f64::from_bits(u64::from_be_bytes(self.fixed()))),
            Type::F32 => Value::F32(f32::from_bits(u32::from_be_bytes(self.fixed()))),
            Type::Uuid => Value::Uuid(u128::from_be_bytes(self.fixed())),
            Type::I32 => Value::I32(i32::from_be_bytes(self.fixed())),
            Type::I64 => Value::I64(i64::from_be_bytes(self.fixed())),
            Type::Ts => Value::Ts(i64::from_be_bytes(self.fixed())),
            Type::U64 => Value::U64(u64::from_be_bytes(self.fixed())),
            Type::Vi64 => Value::Vi64(i64::from_be_bytes(self.fixed())),
            Type::Vu64 => Value::Vu64(u64::from_be_bytes(self.fixed())),
            Type::U32 => Value::U32(u32::from_be_bytes(self.fixed())),
            Type::Bytes => {
                let n = usize::from(self.byte());
                Value::from(self.take(n).to_vec())
            }
            Type::Str => Value::from(self.string()),
            Type::Dec => {
                let neg = self.byte() & 1 == 1;
                let exp = i16::from_be_bytes(self.fixed());
                let n = usize::from(self.byte());
                let digits: String = self
                    .take(n)
                    .iter()
                    .map(|b| char::from(b'0' + b % 10))
                    .collect();
                let text = format!("{}0.{digits}0e{exp}", if neg { "-" } else { "" });
                Value::Dec(text.parse().unwrap_or_default())
            }
        }
    }

    /// A string: a length byte, then the longest valid UTF-8 prefix of that
    /// many bytes.
    pub fn string(&mut self) -> String {
        let n = usize::from(self.byte());
        let b = self.take(n);
        let valid = match std::str::from_utf8(b) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or_default(),
        };
        valid.to_string()
    }

    /// A component of field `f` (its type, direction and width).
    pub fn component(&mut self, f: Field) -> Component<'static> {
        Component {
            value: self.value(f.ty),
            dir: f.dir,
            width: f.width,
            nulls: None,
            list: 0,
        }
    }

    /// A schema header (see the crate docs).
    pub fn schema(&mut self) -> Option<Vec<Field>> {
        let h = self.byte();
        if h & NO_SCHEMA != 0 {
            return None;
        }
        Some((0..h & 7).map(|_| self.field()).collect())
    }
}

/// Writes the input layout: the inverse of [`Reader`], for seeds.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    /// The bytes written so far.
    pub buf: Vec<u8>,
}

impl Writer {
    /// One byte.
    pub fn byte(&mut self, b: u8) -> &mut Self {
        self.buf.push(b);
        self
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// A field.
    pub fn field(&mut self, f: Field) -> &mut Self {
        let idx = match f.ty {
            Type::Vi64 => 12,
            Type::Vu64 => 13,
            t => Type::ALL.iter().position(|a| *a == t).unwrap_or(0) as u8,
        };
        let mut b = idx;
        if f.dir.is_desc() {
            b |= FIELD_DESC;
        }
        if f.width.is_some() {
            b |= FIELD_WIDTH;
        }
        self.byte(b);
        if let Some(w) = f.width {
            self.byte(w);
        }
        self
    }

    /// A value (strings and bytes longer than 255 bytes are cut: the layout
    /// has a one-byte length).
    pub fn value(&mut self, v: &Value<'_>) -> &mut Self {
        match v {
            Value::Bool(b) => self.byte(u8::from(*b)),
            Value::F64(x) => self.bytes(&x.to_bits().to_be_bytes()),
            Value::F32(x) => self.bytes(&x.to_bits().to_be_bytes()),
            Value::Uuid(x) => self.bytes(&x.to_be_bytes()),
            Value::I32(x) => self.bytes(&x.to_be_bytes()),
            Value::I64(x) | Value::Ts(x) | Value::Vi64(x) => self.bytes(&x.to_be_bytes()),
            Value::U64(x) | Value::Vu64(x) => self.bytes(&x.to_be_bytes()),
            Value::U32(x) => self.bytes(&x.to_be_bytes()),
            Value::Bytes(b) => {
                let b = &b[..b.len().min(255)];
                self.byte(b.len() as u8).bytes(b)
            }
            Value::Str(s) => self.string(s),
            // The fuzz layout has no nulls and no lists: nothing to write.
            Value::Null(_) | Value::List(..) => self,
            Value::Dec(d) => {
                let (digits, exp) = d.parts();
                let digits = &digits.as_bytes()[..digits.len().min(255)];
                self.byte(u8::from(d.is_negative()))
                    .bytes(&(exp as i16).to_be_bytes())
                    .byte(digits.len() as u8)
                    .bytes(digits)
            }
        }
    }

    /// A string (cut at a character boundary to at most 255 bytes).
    pub fn string(&mut self, s: &str) -> &mut Self {
        let mut end = s.len().min(255);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.byte(end as u8).bytes(&s.as_bytes()[..end])
    }

    /// A schema header.
    pub fn schema(&mut self, schema: Option<&[Field]>) -> &mut Self {
        match schema {
            None => self.byte(NO_SCHEMA),
            Some(s) => {
                assert!(s.len() <= 7, "a schema header holds at most 7 fields");
                self.byte(s.len() as u8);
                for &f in s {
                    self.field(f);
                }
                self
            }
        }
    }
}

/// Splits a `decode_*` / `redecode_*` input into its schema and key.
pub fn split_key_input(data: &[u8]) -> (Option<Vec<Field>>, &[u8]) {
    let mut u = Unstructured::new(data);
    let mut r = Reader::new(&mut u);
    let schema = r.schema();
    let key = r.rest();
    (schema, key)
}

/// The `decode_*` / `redecode_*` input for `key` under `schema`.
pub fn key_input(schema: Option<&[Field]>, key: &[u8]) -> Vec<u8> {
    let mut w = Writer::default();
    w.schema(schema).bytes(key);
    w.buf
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/// A key for messages: text as a Rust string literal, binary as escaped bytes.
pub fn show(key: &[u8]) -> String {
    match std::str::from_utf8(key) {
        Ok(s) => format!("{s:?}"),
        Err(_) => format!("b\"{}\"", lexikey::escape_key(key)),
    }
}

/// Tuple order: component by component, each by its key order (reversed
/// when descending); equal when every component is equal.
pub fn tuple_cmp(a: &[Component<'_>], b: &[Component<'_>]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.key_cmp(y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    a.len().cmp(&b.len())
}

/// Components as `TYPE[.desc]:VALUE` text, for messages.
pub fn show_tuple(t: &[Component<'_>]) -> String {
    let parts: Vec<String> = t
        .iter()
        .map(|c| {
            let w = c.width.map(|w| format!("(width {w})")).unwrap_or_default();
            format!("{:?}{w}", literal::component_to_string(c))
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Property 5: a text key is valid UTF-8 and holds no byte below 0x20.
fn assert_text_safe(what: &str, key: &[u8]) {
    assert!(
        std::str::from_utf8(key).is_ok(),
        "{what} {} is not valid UTF-8",
        show(key)
    );
    assert!(
        key.iter().all(|&b| b >= 0x20),
        "{what} {} holds a byte below 0x20",
        show(key)
    );
}

fn assert_error_located(e: &DecodeError, key: &[u8], what: &str) {
    let msg = e.to_string();
    assert!(
        e.offset() <= key.len(),
        "{what}: error offset {} is beyond the end of the {}-byte key {}: {msg}",
        e.offset(),
        key.len(),
        show(key)
    );
}

fn same_values(a: &[Component<'_>], b: &[Component<'_>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.value == y.value && x.dir == y.dir)
}

// ---------------------------------------------------------------------------
// decode_* and redecode_*
// ---------------------------------------------------------------------------

/// `decode_<fmt>`: decoders never panic, errors are located inside the key,
/// and a decoded tuple has the schema's shape.
pub fn check_decode(format: Format, data: &[u8]) {
    let (schema, key) = split_key_input(data);
    match tuple::decode(format, key, schema.as_deref()) {
        Ok(comps) => {
            // Strings that the decoders take as ASCII skip `from_utf8`
            // (`from_utf8_unchecked`): every decoded string must still be
            // valid UTF-8.
            for c in &comps {
                if let Value::Str(s) = &c.value {
                    assert!(
                        std::str::from_utf8(s.as_bytes()).is_ok(),
                        "invalid UTF-8 in a decoded string of {}",
                        show(key)
                    );
                }
            }
            if let Some(s) = &schema {
                assert_eq!(comps.len(), s.len(), "component count != schema length");
                for (c, f) in comps.iter().zip(s) {
                    assert_eq!(
                        (c.value.ty(), c.dir),
                        (f.ty, f.dir),
                        "component type/dir != schema"
                    );
                }
            } else {
                assert!(
                    matches!(format, Format::Hex | Format::Base64),
                    "{format} decoded without a schema"
                );
            }
        }
        Err(e) => assert_error_located(&e, key, "tuple::decode"),
    }
    // `decode_reusing` into a vector that holds owned strings (stale
    // values of other lengths, then its own first result): the same
    // result and error as `decode_into` into an empty vector, and the same
    // partial components on error.
    let mut fresh = Vec::new();
    let expect = tuple::decode_into(format, key, schema.as_deref(), &mut fresh);
    let mut out: Vec<Component<'_>> = (0..4)
        .map(|i| Component::asc(Value::Str(Cow::Owned("stale%".repeat(i)))))
        .collect();
    for round in 0..2 {
        let got = tuple::decode_reusing(format, key, schema.as_deref(), &mut out);
        assert_eq!(
            got,
            expect,
            "decode_reusing (round {round}) on {}",
            show(key)
        );
        assert!(
            same_values(&out, &fresh),
            "decode_reusing (round {round}) on {}: {} != decode_into's {}",
            show(key),
            show_tuple(&out),
            show_tuple(&fresh)
        );
    }
    // `DecodeArena::decode`, twice through one arena (holding the first
    // round's text): `decode_into`'s components in order, its result and
    // error, every ascending text-format string borrowed, and on error no
    // more than the components `decode_into` leaves before the bad one.
    let mut arena = tuple::DecodeArena::new();
    for round in 0..2 {
        let mut seen: Vec<Component<'static>> = Vec::new();
        let got = arena.decode(format, key, schema.as_deref(), |i, c| {
            assert_eq!(i, seen.len(), "DecodeArena::decode index on {}", show(key));
            if let (true, Value::Str(s)) = (format.is_text() && !c.dir.is_desc(), &c.value) {
                assert!(
                    matches!(s, Cow::Borrowed(_)),
                    "DecodeArena::decode gave an owned string on {}",
                    show(key)
                );
            }
            seen.push(c.into_owned());
        });
        assert_eq!(
            got.map(|_| ()),
            expect,
            "DecodeArena::decode (round {round}) on {}",
            show(key)
        );
        let same = if expect.is_ok() {
            same_values(&seen, &fresh)
        } else {
            seen.len() <= fresh.len() && same_values(&seen, &fresh[..seen.len()])
        };
        assert!(
            same,
            "DecodeArena::decode (round {round}) on {}: {} != decode_into's {}",
            show(key),
            show_tuple(&seen),
            show_tuple(&fresh)
        );
    }
    for &f in schema.iter().flatten() {
        if let Err(e) = format.decode_component(f, key) {
            assert_error_located(&e, key, "Format::decode_component");
        }
    }
    let scalar = |r: Result<(), DecodeError>, what: &str| {
        if let Err(e) = r {
            assert_error_located(&e, key, what);
        }
    };
    match format {
        Format::Hex => {
            scalar(hex::decode_i64(key).map(drop), "hex::decode_i64");
            scalar(hex::decode_f64(key).map(drop), "hex::decode_f64");
        }
        Format::Base64 => scalar(base64::decode_i64(key).map(drop), "base64::decode_i64"),
        Format::Decimal => scalar(decimal::decode_i64(key).map(drop), "decimal::decode_i64"),
        Format::Binary => scalar(binary::decode_i64(key).map(drop), "binary::decode_i64"),
    }
}

/// `redecode_<fmt>`: whenever a decoder accepts a key, encoding what it
/// returned gives back exactly that key.
pub fn check_redecode(format: Format, data: &[u8]) {
    let (schema, key) = split_key_input(data);
    if let Ok(comps) = tuple::decode(format, key, schema.as_deref()) {
        let again = tuple::encode(format, &comps).unwrap_or_else(|e| {
            panic!(
                "{format}: {} (schema {schema:?}) decodes to {} which does not encode: {e}",
                show(key),
                show_tuple(&comps)
            )
        });
        assert!(
            again == key,
            "non-canonical decode ({format}, schema {schema:?}): {} decodes to {} which encodes to {}",
            show(key),
            show_tuple(&comps),
            show(&again)
        );
    }
    for &f in schema.iter().flatten() {
        if let Ok(c) = format.decode_component(f, key) {
            let mut again = Vec::new();
            format.encode_component(&c, &mut again).unwrap_or_else(|e| {
                panic!(
                    "{format}: component {} ({f}) does not re-encode: {e}",
                    show(key)
                )
            });
            assert!(
                again == key,
                "non-canonical component decode ({format}, {f}): {} → {} → {}",
                show(key),
                show_tuple(std::slice::from_ref(&c)),
                show(&again)
            );
        }
    }
    let same = |what: &str, again: &[u8]| {
        assert!(
            again == key,
            "non-canonical {what}: {} re-encodes as {}",
            show(key),
            show(again)
        );
    };
    match format {
        Format::Hex => {
            if let Ok(v) = hex::decode_i64(key) {
                same("hex::decode_i64", &hex::encode_i64(v));
            }
            if let Ok(v) = hex::decode_f64(key) {
                same("hex::decode_f64", &hex::encode_f64(v));
            }
        }
        Format::Base64 => {
            if let Ok(v) = base64::decode_i64(key) {
                same("base64::decode_i64", &base64::encode_i64(v));
            }
        }
        Format::Decimal => {
            if let Ok(v) = decimal::decode_i64(key) {
                same("decimal::decode_i64", &decimal::encode_i64(v));
            }
        }
        Format::Binary => {
            if let Ok(v) = binary::decode_i64(key) {
                same("binary::decode_i64", &binary::encode_i64(v));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// roundtrip_*
// ---------------------------------------------------------------------------

/// Two tuples of one schema (1 to [`MAX_TUPLE`] fields); `b` shares any
/// subset of `a`'s components, so shared prefixes are common.
///
/// Layout: count byte (`n = byte % 5 + 1`), `n` fields, `n` values of `a`,
/// then per field a flag byte (bit 0: copy `a`'s component) and, when not
/// copied, a value.
#[derive(Debug, Clone)]
pub struct TuplePair {
    /// The schema.
    pub fields: Vec<Field>,
    /// The first tuple.
    pub a: Vec<Component<'static>>,
    /// The second tuple.
    pub b: Vec<Component<'static>>,
}

impl<'a> Arbitrary<'a> for TuplePair {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut r = Reader::new(u);
        let n = usize::from(r.byte()) % MAX_TUPLE + 1;
        let fields: Vec<Field> = (0..n).map(|_| r.field()).collect();
        let a: Vec<_> = fields.iter().map(|&f| r.component(f)).collect();
        let b = fields
            .iter()
            .zip(&a)
            .map(|(&f, ca)| {
                if r.byte() & 1 == 1 {
                    ca.clone()
                } else {
                    r.component(f)
                }
            })
            .collect();
        Ok(TuplePair { fields, a, b })
    }
}

impl TuplePair {
    /// The input bytes that read back as this pair (a `b` component equal
    /// to `a`'s is written as a copy).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.byte((self.fields.len() - 1) as u8);
        for &f in &self.fields {
            w.field(f);
        }
        for c in &self.a {
            w.value(&c.value);
        }
        for (ca, cb) in self.a.iter().zip(&self.b) {
            if ca.value == cb.value {
                w.byte(1);
            } else {
                w.byte(0).value(&cb.value);
            }
        }
        w.buf
    }
}

/// Whether a decimal encode error is expected for `t`: floats have no
/// decimal form, and a width may be invalid or too narrow for the value.
fn decimal_may_refuse(t: &[Component<'_>]) -> bool {
    t.iter()
        .any(|c| matches!(c.value, Value::F64(_) | Value::F32(_)) || c.width.is_some())
}

/// Encodes `t`, checking text safety and the round trip; `None` when the
/// format refuses the tuple (decimal only).
fn roundtrip_one(format: Format, fields: &[Field], t: &[Component<'static>]) -> Option<Vec<u8>> {
    let key = match tuple::encode(format, t) {
        Ok(k) => k,
        Err(e) => {
            assert!(
                format == Format::Decimal && decimal_may_refuse(t),
                "{format} refused to encode {}: {e}",
                show_tuple(t)
            );
            return None;
        }
    };
    if format.is_text() {
        assert_text_safe("key", &key);
    }
    let back = tuple::decode(format, &key, Some(fields)).unwrap_or_else(|e| {
        panic!(
            "{format}: {} encodes to {} which does not decode: {e}",
            show_tuple(t),
            show(&key)
        )
    });
    assert!(
        same_values(&back, t),
        "{format} round trip: {} → {} → {}",
        show_tuple(t),
        show(&key),
        show_tuple(&back)
    );
    // Tagged text formats decode without a schema when no component is an
    // (untagged) string or a compact integer (schemaless decoding does not
    // guess the compact tags: a string could start with them).
    if matches!(format, Format::Hex | Format::Base64)
        && fields
            .iter()
            .all(|f| f.ty != Type::Str && !Type::COMPACT.contains(&f.ty))
    {
        let guessed = tuple::decode(format, &key, None).unwrap_or_else(|e| {
            panic!(
                "{format}: {} does not decode without a schema: {e}",
                show(&key)
            )
        });
        assert!(
            same_values(&guessed, t),
            "{format} schemaless round trip: {} → {} → {}",
            show_tuple(t),
            show(&key),
            show_tuple(&guessed)
        );
    }
    for c in t {
        check_scalar(format, c);
    }
    Some(key.into_vec())
}

/// The scalar fast paths agree with the component encoder.
fn check_scalar(format: Format, c: &Component<'_>) {
    if c.dir.is_desc() || c.width.is_some() {
        return;
    }
    let mut key = Vec::new();
    if format.encode_component(c, &mut key).is_err() {
        return;
    }
    match (format, &c.value) {
        (Format::Hex, Value::I64(v)) => {
            assert_eq!(hex::encode_i64(*v)[..], key[..], "hex::encode_i64({v})");
            assert_eq!(hex::decode_i64(&key), Ok(*v), "hex::decode_i64");
        }
        (Format::Hex, Value::F64(v)) => {
            assert_eq!(hex::encode_f64(*v)[..], key[..], "hex::encode_f64({v:?})");
            let back = hex::decode_f64(&key).expect("hex::decode_f64");
            assert_eq!(Value::F64(back), Value::F64(*v), "hex::decode_f64");
        }
        (Format::Base64, Value::I64(v)) => {
            assert_eq!(
                base64::encode_i64(*v)[..],
                key[..],
                "base64::encode_i64({v})"
            );
            assert_eq!(base64::decode_i64(&key), Ok(*v), "base64::decode_i64");
        }
        (Format::Base64, Value::F64(v)) => {
            assert_eq!(
                base64::encode_f64(*v)[..],
                key[..],
                "base64::encode_f64({v:?})"
            );
        }
        (Format::Decimal, Value::I64(v)) => {
            assert_eq!(
                decimal::encode_i64(*v)[..],
                key[..],
                "decimal::encode_i64({v})"
            );
            assert_eq!(decimal::decode_i64(&key), Ok(*v), "decimal::decode_i64");
        }
        (Format::Binary, Value::I64(v)) => {
            assert_eq!(
                binary::encode_i64(*v)[..],
                key[..],
                "binary::encode_i64({v})"
            );
            assert_eq!(binary::decode_i64(&key), Ok(*v), "binary::decode_i64");
        }
        (Format::Binary, Value::F64(v)) => {
            assert_eq!(
                binary::encode_f64(*v)[..],
                key[..],
                "binary::encode_f64({v:?})"
            );
        }
        _ => {}
    }
}

/// `roundtrip_<fmt>`: value → key → value for both tuples, and key order
/// equals tuple order.
pub fn check_roundtrip(format: Format, p: &TuplePair) {
    let ka = roundtrip_one(format, &p.fields, &p.a);
    let kb = roundtrip_one(format, &p.fields, &p.b);
    if let (Some(ka), Some(kb)) = (ka, kb) {
        let want = tuple_cmp(&p.a, &p.b);
        assert_eq!(
            ka.cmp(&kb),
            want,
            "{format} order: {} vs {} should be {want:?}, keys {} vs {}",
            show_tuple(&p.a),
            show_tuple(&p.b),
            show(&ka),
            show(&kb)
        );
    }
}

// ---------------------------------------------------------------------------
// Parsers
// ---------------------------------------------------------------------------

/// `parse_component`: `TYPE[.desc]:VALUE` parse → print → parse gives the
/// same component, and printing is stable; the UUID and hex parsers agree
/// with their printers.
pub fn check_parse_component(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = literal::parse_component(s) {
        let printed = literal::component_to_string(&c);
        let again = literal::parse_component(&printed).unwrap_or_else(|e| {
            panic!("{s:?} parses as {c:?} and prints as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(again, c, "{s:?} → {printed:?} → a different component");
        assert_eq!(
            literal::component_to_string(&again),
            printed,
            "printing is not stable"
        );
    }
    if let Ok(u) = literal::parse_uuid(s) {
        let mut printed = String::new();
        literal::format_uuid(u, &mut printed);
        assert!(
            printed.eq_ignore_ascii_case(s),
            "uuid {s:?} prints as {printed:?}"
        );
        assert_eq!(literal::parse_uuid(&printed), Ok(u));
    }
    if let Ok(b) = literal::parse_hex(s) {
        let printed = literal::value_to_string(&Value::from(b.clone()));
        assert!(
            printed.eq_ignore_ascii_case(s),
            "hex {s:?} prints as {printed:?}"
        );
        assert_eq!(literal::parse_hex(&printed), Ok(b));
    }
}

/// `parse_schema`: parse → print → parse is stable (and the other name
/// parsers do not panic).
pub fn check_parse_schema(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Format::parse(s);
    let _ = Type::from_name(s);
    let _ = Field::parse(s);
    if let Ok(fields) = Field::parse_schema(s) {
        assert!(!fields.is_empty(), "{s:?} parses as an empty schema");
        let printed: Vec<String> = fields.iter().map(Field::to_string).collect();
        let printed = printed.join(",");
        let again = Field::parse_schema(&printed).unwrap_or_else(|e| {
            panic!("schema {s:?} prints as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(
            again, fields,
            "schema {s:?} → {printed:?} → different fields"
        );
    }
}

/// `parse_ts`: parse → `format_ts` → parse gives the same instant; and
/// every instant in years 0000–9999 (the documented range) printed by
/// `format_ts` parses back.
pub fn check_parse_ts(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(ms) = literal::parse_ts(s) {
            let mut printed = String::new();
            literal::format_ts(ms, &mut printed);
            assert_eq!(
                literal::parse_ts(&printed),
                Ok(ms),
                "ts {s:?} = {ms} ms prints as {printed:?}, which does not parse back"
            );
        }
    }
    if let Some(b) = data.get(..8) {
        let ms = i64::from_be_bytes(b.try_into().unwrap_or_default());
        let mut printed = String::new();
        literal::format_ts(ms, &mut printed);
        if !printed.starts_with(['+', '-']) {
            assert_eq!(
                literal::parse_ts(&printed),
                Ok(ms),
                "{ms} ms prints as {printed:?}, which does not parse back"
            );
        }
    }
}

/// `decode_dec`: the `dec` decoders on arbitrary input. Byte 0 picks the
/// decoder (bit 0: ELEN text / binary) and the direction (bit 1: mirrored /
/// inverted); the rest is the key. Whatever decodes must re-encode to
/// exactly the bytes used (canonical decode), and its text must parse back
/// to the same number. The whole input as text goes through `Dec::parse`
/// too: parse → print → parse is stable.
pub fn check_decode_dec(data: &[u8]) {
    use lexikey::value::big_decimal::Dec;
    let Some((&mode, key)) = data.split_first() else {
        return;
    };
    let desc = mode & 2 != 0;
    let value = if mode & 1 == 0 {
        Dec::read_elen(key, desc).ok().inspect(|d| {
            let mut again = Vec::new();
            d.write_elen(desc, &mut again);
            assert_eq!(
                again, key,
                "ELEN {key:?} decodes to {d} but re-encodes differently"
            );
        })
    } else {
        Dec::read_binary(key, desc).ok().map(|(d, used)| {
            let mut again = Vec::new();
            d.write_binary(desc, &mut again);
            assert_eq!(
                again,
                &key[..used],
                "binary {key:?} decodes to {d} but re-encodes differently"
            );
            d
        })
    };
    if let Some(d) = value {
        assert_eq!(
            Dec::parse(&d.to_string()).as_ref(),
            Ok(&d),
            "{d} does not parse back"
        );
    }
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(d) = Dec::parse(s) {
            let printed = d.to_string();
            assert_eq!(
                Dec::parse(&printed).as_ref(),
                Ok(&d),
                "{s:?} prints as {printed:?}, which parses differently"
            );
        }
    }
}

/// `decode_compact`: the compact integer decoders (`vi64`, `vu64`) never
/// panic, report errors inside the input, and decode canonically. The
/// first byte picks the kind (bit 0: `vu64`), the direction (bit 1) and
/// the format (bits 2–3, into [`Format::ALL`]); the rest is the key of one
/// component. An accepted key re-encodes to itself; the binary decoders
/// read a prefix whose re-encoding is that prefix.
pub fn check_decode_compact(data: &[u8]) {
    use lexikey::format::compact::{decode_vi64, decode_vu64, encode_vi64, encode_vu64};
    let Some((&mode, key)) = data.split_first() else {
        return;
    };
    let ty = if mode & 1 == 0 {
        Type::Vi64
    } else {
        Type::Vu64
    };
    let desc = mode & 2 != 0;
    let format = Format::ALL[usize::from(mode >> 2 & 3)];
    let field = Field {
        ty,
        dir: if desc { Dir::Desc } else { Dir::Asc },
        width: None,
        nulls: None,
        list: 0,
    };
    match tuple::decode(format, key, Some(&[field])) {
        Ok(comps) => {
            assert_eq!(comps.len(), 1, "one field, one component");
            assert_eq!(comps[0].value.ty(), ty, "decoded type != schema");
            let again = tuple::encode(format, &comps).expect("a compact value encodes");
            assert_eq!(
                &again[..],
                key,
                "{format} {} decodes to {:?} but re-encodes differently",
                show(key),
                comps[0].value
            );
        }
        Err(e) => assert_error_located(&e, key, "decode_compact"),
    }
    match decode_vi64(key, desc) {
        Ok((v, n)) => {
            let (b, m) = encode_vi64(v, desc);
            assert_eq!(&b[..m], &key[..n], "vi64 {} not canonical", show(key));
        }
        Err(e) => assert_error_located(&e, key, "decode_vi64"),
    }
    match decode_vu64(key, desc) {
        Ok((v, n)) => {
            let (b, m) = encode_vu64(v, desc);
            assert_eq!(&b[..m], &key[..n], "vu64 {} not canonical", show(key));
        }
        Err(e) => assert_error_located(&e, key, "decode_vu64"),
    }
}

/// The field of a `decode_nulls` mode byte: bits 0–3 the type (`% 14`
/// into [`Type::ALL`] then [`Type::COMPACT`]), bit 4 descending, bit 5
/// nulls last; bits 6–7 are the format ([`nulls_format`]).
pub fn nulls_field(mode: u8) -> Field {
    let types: Vec<Type> = Type::ALL.into_iter().chain(Type::COMPACT).collect();
    Field {
        ty: types[usize::from(mode & 15) % types.len()],
        dir: if mode & 16 != 0 { Dir::Desc } else { Dir::Asc },
        width: None,
        nulls: Some(if mode & 32 != 0 {
            lexikey::Nulls::Last
        } else {
            lexikey::Nulls::First
        }),
        list: 0,
    }
}

/// The format of a `decode_nulls` mode byte (bits 6–7 into [`Format::ALL`]).
pub fn nulls_format(mode: u8) -> Format {
    Format::ALL[usize::from(mode >> 6)]
}

/// `decode_nulls`: a key of one nullable component (`TYPE?`, see
/// `lexikey::format::null`) never panics the decoders; an error lies
/// inside the key; an accepted key re-encodes to itself (canonical), and
/// it is a null exactly when it is the field's null marker alone. The
/// first byte is the mode ([`nulls_field`], [`nulls_format`]).
pub fn check_decode_nulls(data: &[u8]) {
    let Some((&mode, key)) = data.split_first() else {
        return;
    };
    let field = nulls_field(mode);
    let format = nulls_format(mode);
    let decoded = tuple::decode(format, key, Some(&[field]));
    let mut reused = vec![Component::asc(String::from("stale"))];
    let again = tuple::decode_reusing(format, key, Some(&[field]), &mut reused);
    assert_eq!(
        decoded.as_ref().err(),
        again.as_ref().err(),
        "decode_reusing disagrees on {}",
        show(key)
    );
    match decoded {
        Ok(comps) => {
            assert_eq!(reused, comps, "decode_reusing disagrees on {}", show(key));
            assert_eq!(comps.len(), 1, "one field, one component");
            assert_eq!(comps[0].field(), field, "decoded field != schema");
            let null_marker =
                lexikey::format::null::marker(format, field.nulls.unwrap_or_default(), true);
            assert_eq!(
                comps[0].is_null(),
                key == [null_marker],
                "{format} {} decodes to {:?}",
                show(key),
                comps[0].value
            );
            let again = tuple::encode(format, &comps).expect("a decoded value encodes");
            assert_eq!(
                &again[..],
                key,
                "{format} {} decodes to {:?} but re-encodes differently",
                show(key),
                comps[0].value
            );
        }
        Err(e) => assert_error_located(&e, key, "decode_nulls"),
    }
}

/// The field of a `decode_lists` input's first two bytes: the mode byte's
/// bits 0–3 are the element type (`% 14` into [`Type::ALL`] then
/// [`Type::COMPACT`]), bit 4 descending, bit 5 nullable (nulls first),
/// bits 6–7 the format ([`nulls_format`]); the depth byte `% 9` plus one
/// is the list depth, 1 to 9 (9 is past [`lexikey::value::MAX_LIST_DEPTH`]:
/// every key is refused).
pub fn lists_field(mode: u8, depth: u8) -> Field {
    let types: Vec<Type> = Type::ALL.into_iter().chain(Type::COMPACT).collect();
    Field {
        ty: types[usize::from(mode & 15) % types.len()],
        dir: if mode & 16 != 0 { Dir::Desc } else { Dir::Asc },
        width: None,
        nulls: (mode & 32 != 0).then_some(lexikey::Nulls::First),
        list: 1 + depth % 9,
    }
}

/// `decode_lists`: a key of one list component (`list<…>`, see
/// `lexikey::format::list`) never panics the decoders; an error lies
/// inside the key and is one line; a field nested past the limit refuses
/// every key; an accepted key decodes to a list of the field's type and
/// depth (or the null of a nullable field), agrees with `decode_reusing`,
/// and re-encodes to itself (canonical). The first two bytes are the mode
/// and depth ([`lists_field`]).
pub fn check_decode_lists(data: &[u8]) {
    let [mode, depth, key @ ..] = data else {
        return;
    };
    let field = lists_field(*mode, *depth);
    let format = nulls_format(*mode);
    let decoded = tuple::decode(format, key, Some(&[field]));
    let mut reused = vec![Component::asc(String::from("stale"))];
    let again = tuple::decode_reusing(format, key, Some(&[field]), &mut reused);
    assert_eq!(
        decoded.as_ref().err(),
        again.as_ref().err(),
        "decode_reusing disagrees on {}",
        show(key)
    );
    match decoded {
        Ok(comps) => {
            assert!(
                field.list <= lexikey::value::MAX_LIST_DEPTH,
                "a list field nested {} levels decoded {}",
                field.list,
                show(key)
            );
            assert_eq!(reused, comps, "decode_reusing disagrees on {}", show(key));
            assert_eq!(comps.len(), 1, "one field, one component");
            assert_eq!(comps[0].field(), field, "decoded field != schema");
            fn depth_ok(v: &Value<'_>, ty: Type, depth: u8) -> bool {
                match v {
                    Value::List(t, items) if *t == ty && depth > 0 => items.iter().all(|e| {
                        if depth == 1 {
                            !matches!(e, Value::List(..) | Value::Null(_)) && e.ty() == ty
                        } else {
                            depth_ok(e, ty, depth - 1)
                        }
                    }),
                    _ => false,
                }
            }
            assert!(
                comps[0].is_null() || depth_ok(&comps[0].value, field.ty, field.list),
                "{format} {} decodes to {:?}, not a list of the field",
                show(key),
                comps[0].value
            );
            let again = tuple::encode(format, &comps).expect("a decoded list encodes");
            assert_eq!(
                &again[..],
                key,
                "{format} {} decodes to {:?} but re-encodes differently",
                show(key),
                comps[0].value
            );
        }
        Err(e) => {
            assert_error_located(&e, key, "decode_lists");
            assert!(!e.to_string().contains('\n'), "a two-line error: {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// range_build
// ---------------------------------------------------------------------------

/// One predicate of a [`RangeCase`].
#[derive(Debug, Clone)]
pub enum Pred {
    /// `== c`
    Eq(Component<'static>),
    /// `>= c`
    Ge(Component<'static>),
    /// `> c`
    Gt(Component<'static>),
    /// `<= c`
    Le(Component<'static>),
    /// `< c`
    Lt(Component<'static>),
    /// `between(low, low_inclusive, high, high_inclusive)`
    Between(Component<'static>, bool, Component<'static>, bool),
    /// A string component of this direction starting with the text.
    StrPrefix(String, Dir),
}

impl Pred {
    /// Whether `v` satisfies the predicate (value order, as [`Value: Ord`](Value)).
    pub fn holds(&self, v: &Value<'_>) -> bool {
        match self {
            Pred::Eq(c) => *v == c.value,
            Pred::Ge(c) => *v >= c.value,
            Pred::Gt(c) => *v > c.value,
            Pred::Le(c) => *v <= c.value,
            Pred::Lt(c) => *v < c.value,
            Pred::Between(lo, li, hi, hi_inc) => {
                (if *li { *v >= lo.value } else { *v > lo.value })
                    && (if *hi_inc {
                        *v <= hi.value
                    } else {
                        *v < hi.value
                    })
            }
            Pred::StrPrefix(t, _) => matches!(v, Value::Str(s) if s.starts_with(t.as_str())),
        }
    }

    /// Whether the predicate is on a component of field `f` (so that the
    /// value oracle applies).
    fn is_on(&self, f: Field) -> bool {
        match self {
            Pred::Eq(c) | Pred::Ge(c) | Pred::Gt(c) | Pred::Le(c) | Pred::Lt(c) => c.field() == f,
            Pred::Between(lo, _, hi, _) => lo.field() == f && hi.field() == f,
            Pred::StrPrefix(_, d) => f.ty == Type::Str && *d == f.dir,
        }
    }

    fn kind(&self) -> u8 {
        match self {
            Pred::Eq(_) => 0,
            Pred::Ge(_) => 1,
            Pred::Gt(_) => 2,
            Pred::Le(_) => 3,
            Pred::Lt(_) => 4,
            Pred::Between(..) => 5,
            Pred::StrPrefix(..) => 6,
        }
    }
}

/// A value to test against the range: its key is `prefix + value (+ suffix)`.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The constrained component.
    pub comp: Component<'static>,
    /// A component after it (keys with more components must be handled).
    pub suffix: Option<Component<'static>>,
}

/// A range query and probe values.
///
/// Layout: format byte (`% 4` into [`Format::ALL`]); prefix count byte
/// (`% 4`) and that many field + value pairs; the constrained field;
/// predicate count byte (`% 4`), each a kind byte (`bits 0–2 % 7`: eq ge gt
/// le lt between str_prefix; bit 4/5: between's low/high inclusive; bit 7:
/// the predicate has its own field byte next) and its value(s) — a
/// `str_prefix` reads a string and takes the field's direction; probe count
/// byte (`% 5`), each a value of the field and a flag byte (bit 0: a suffix
/// field + value follows).
#[derive(Debug, Clone)]
pub struct RangeCase {
    /// The key format.
    pub format: Format,
    /// The fixed leading components.
    pub prefix: Vec<Component<'static>>,
    /// The constrained component's field (of the probes, and of the
    /// predicates unless they carry their own).
    pub field: Field,
    /// The predicates.
    pub preds: Vec<Pred>,
    /// Values to test.
    pub probes: Vec<Probe>,
}

impl<'a> Arbitrary<'a> for RangeCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut r = Reader::new(u);
        let format = Format::ALL[usize::from(r.byte()) % 4];
        let np = r.byte() % 4;
        let prefix = (0..np)
            .map(|_| {
                let f = r.field();
                r.component(f)
            })
            .collect();
        let field = r.field();
        let npred = r.byte() % 4;
        let mut preds = Vec::new();
        for _ in 0..npred {
            let k = r.byte();
            let f = if k & 0x80 != 0 { r.field() } else { field };
            preds.push(match (k & 7) % 7 {
                0 => Pred::Eq(r.component(f)),
                1 => Pred::Ge(r.component(f)),
                2 => Pred::Gt(r.component(f)),
                3 => Pred::Le(r.component(f)),
                4 => Pred::Lt(r.component(f)),
                5 => {
                    let lo = r.component(f);
                    let hi = r.component(f);
                    Pred::Between(lo, k & 0x10 != 0, hi, k & 0x20 != 0)
                }
                _ => Pred::StrPrefix(r.string(), f.dir),
            });
        }
        let nprobe = r.byte() % 5;
        let probes = (0..nprobe)
            .map(|_| {
                let comp = r.component(field);
                let suffix = (r.byte() & 1 == 1).then(|| {
                    let f = r.field();
                    r.component(f)
                });
                Probe { comp, suffix }
            })
            .collect();
        Ok(RangeCase {
            format,
            prefix,
            field,
            preds,
            probes,
        })
    }
}

impl RangeCase {
    /// The input bytes that read back as this case.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        let fi = Format::ALL
            .iter()
            .position(|f| *f == self.format)
            .unwrap_or(0);
        w.byte(fi as u8).byte(self.prefix.len() as u8);
        for c in &self.prefix {
            w.field(c.field()).value(&c.value);
        }
        w.field(self.field).byte(self.preds.len() as u8);
        for p in &self.preds {
            let own = match p {
                Pred::Eq(c) | Pred::Ge(c) | Pred::Gt(c) | Pred::Le(c) | Pred::Lt(c) => {
                    (c.field() != self.field).then(|| c.field())
                }
                Pred::Between(lo, ..) => (lo.field() != self.field).then(|| lo.field()),
                Pred::StrPrefix(_, d) => (*d != self.field.dir).then_some(Field {
                    ty: Type::Str,
                    dir: *d,
                    width: None,
                    nulls: None,
                    list: 0,
                }),
            };
            let mut k = p.kind();
            if let Pred::Between(_, li, _, hi) = p {
                k |= if *li { 0x10 } else { 0 } | if *hi { 0x20 } else { 0 };
            }
            if own.is_some() {
                k |= 0x80;
            }
            w.byte(k);
            if let Some(f) = own {
                w.field(f);
            }
            match p {
                Pred::Eq(c) | Pred::Ge(c) | Pred::Gt(c) | Pred::Le(c) | Pred::Lt(c) => {
                    w.value(&c.value);
                }
                Pred::Between(lo, _, hi, _) => {
                    w.value(&lo.value).value(&hi.value);
                }
                Pred::StrPrefix(t, _) => {
                    w.string(t);
                }
            }
        }
        w.byte(self.probes.len() as u8);
        for p in &self.probes {
            w.value(&p.comp.value);
            match &p.suffix {
                None => {
                    w.byte(0);
                }
                Some(s) => {
                    w.byte(1).field(s.field()).value(&s.value);
                }
            }
        }
        w.buf
    }

    /// The query built from this case.
    pub fn query(&self) -> RangeQuery<'_> {
        let mut q = RangeQuery::new(self.format).prefix(&self.prefix);
        for p in &self.preds {
            q = match p.clone() {
                Pred::Eq(c) => q.eq(c),
                Pred::Ge(c) => q.ge(c),
                Pred::Gt(c) => q.gt(c),
                Pred::Le(c) => q.le(c),
                Pred::Lt(c) => q.lt(c),
                Pred::Between(lo, li, hi, hi_inc) => q.between(lo, li, hi, hi_inc),
                Pred::StrPrefix(t, d) => q.str_prefix(&t, d),
            };
        }
        q
    }
}

/// `range_build`: building never panics; text bounds are valid UTF-8 with no
/// C0 byte; and (when every predicate is on the probes' field) a probe's key
/// lies in the range exactly when the probe satisfies every predicate — an
/// empty-range error means no probe does.
pub fn check_range(case: &RangeCase) {
    let result = case.query().build();
    if let Ok(r) = &result {
        let _ = format!("{r:?}");
        if case.format.is_text() {
            for b in [&r.start, &r.end].into_iter().flatten() {
                assert_text_safe("range bound", b);
            }
        }
        if let (Some(s), Some(e)) = (&r.start, &r.end) {
            assert!(s < e, "range {r:?} is empty but was returned");
        }
    }
    let oracle = case.preds.iter().all(|p| p.is_on(case.field));
    if !oracle {
        return;
    }
    for probe in &case.probes {
        let mut t = case.prefix.clone();
        t.push(probe.comp.clone());
        t.extend(probe.suffix.clone());
        let Ok(key) = tuple::encode(case.format, &t) else {
            continue;
        };
        let want = case.preds.iter().all(|p| p.holds(&probe.comp.value));
        let inside = match &result {
            Ok(r) => r.contains(&key),
            Err(RangeError::Empty) => false,
            Err(_) => return,
        };
        assert_eq!(
            inside,
            want,
            "{} range {} for predicates {:?} on {}: key {} of {} is {} the range",
            case.format,
            match &result {
                Ok(r) => format!("{r:?}"),
                Err(e) => format!("error ({e})"),
            },
            case.preds,
            show_tuple(&case.prefix),
            show(&key),
            show_tuple(&t),
            if inside { "inside" } else { "outside" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_fields() -> Vec<Field> {
        vec![
            Field::asc(Type::Str),
            Field::desc(Type::I64),
            Field::asc(Type::U32).with_width(7),
            Field::desc(Type::Bytes),
            Field::asc(Type::F64),
        ]
    }

    #[test]
    fn key_input_reads_back() {
        let s = sample_fields();
        let data = key_input(Some(&s), b"abc#def");
        let (schema, key) = split_key_input(&data);
        assert_eq!(schema.as_deref(), Some(&s[..]));
        assert_eq!(key, b"abc#def");
        let data = key_input(None, b"xyz");
        assert_eq!(split_key_input(&data), (None, &b"xyz"[..]));
        assert_eq!(split_key_input(&[]), (Some(vec![]), &b""[..]));
    }

    #[test]
    fn tuple_pair_reads_back() {
        let a = vec![
            Component::asc("san francisco"),
            Component::desc(-5_i64),
            Component {
                width: Some(7),
                ..Component::asc(389_625_u32)
            },
            Component::desc(vec![0_u8, 255]),
            Component::asc(f64::NEG_INFINITY),
        ];
        let mut b = a.clone();
        b[1] = Component::desc(7_i64);
        let p = TuplePair {
            fields: sample_fields(),
            a,
            b,
        };
        let q = TuplePair::arbitrary_take_rest(Unstructured::new(&p.to_bytes())).unwrap();
        assert_eq!(q.fields, p.fields);
        assert_eq!(q.a, p.a);
        assert_eq!(q.b, p.b);
    }

    #[test]
    fn range_case_reads_back() {
        let f = Field::asc(Type::I64);
        let c = RangeCase {
            format: Format::Base64,
            prefix: vec![Component::asc("population")],
            field: f,
            preds: vec![
                Pred::Ge(Component::asc(1_000_000_i64)),
                Pred::Between(Component::asc(1_i64), true, Component::asc(9_i64), false),
                Pred::StrPrefix("ab".into(), Dir::Desc),
            ],
            probes: vec![
                Probe {
                    comp: Component::asc(5_i64),
                    suffix: Some(Component::asc("x")),
                },
                Probe {
                    comp: Component::asc(2_000_000_i64),
                    suffix: None,
                },
            ],
        };
        let d = RangeCase::arbitrary_take_rest(Unstructured::new(&c.to_bytes())).unwrap();
        assert_eq!(format!("{c:?}"), format!("{d:?}"));
    }
}
