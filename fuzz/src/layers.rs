//! The targets of the library layer that every front end calls: the
//! interop range builder ([`check_range_profile`]: `lexikey::frontend::spec::KeySpec`
//! and `lexikey::frontend::profile::ProfileRange`) and the kind-aware component and
//! schema syntax ([`check_parse_kind`]: `lexikey::frontend::native`).
//!
//! # Input layouts
//!
//! Read front to back through [`Reader`] (missing bytes read as zero), so
//! [`seeds`] can write any input on purpose.
//!
//! **`range_profile`**:
//!
//! * a header byte: bits 0–1 the profile (`% 3`: fdb-tuple, hbase-ordered,
//!   phoenix), bit 2 "salt buckets follow" (2 bytes big-endian, `% 260`, so
//!   0 and 257–259 are tried too), bit 3 HBase's legacy numeric codec, bit
//!   4 Phoenix's half-up decimal rounding, bit 5 also a `Prefix` predicate
//!   on a descending string;
//! * a count byte: bits 0–2 the prefix components (at most 5), bits 4–6 the
//!   predicates (at most 4);
//! * each prefix component: a [component](#components);
//! * each predicate: a name byte (`% 7`: `eq ge gt le lt prefix` and an
//!   unknown name), then a component (for `prefix`: a string, its text).
//!
//! <a id="components"></a>**component**: a type byte — bit 7 "raw text"
//! (then the component is a string, verbatim); otherwise bits 0–5 pick the
//! profile's type name, bit 6 appends `.desc` — then a value byte (`% 8`):
//! 0 a string, 1 an `i8` (1 byte), 2 an `i64` (8 bytes), 3 an `f64` (its 8
//! IEEE bytes, printed shortest), 4 bytes as hex (a length byte and the
//! bytes), 5 a UUID (16 bytes), 6 a boolean (1 byte), 7 none (a bare type:
//! null). A string is a length byte and the longest valid UTF-8 prefix of
//! that many bytes.
//!
//! **`parse_kind_component`**: a grid byte (bits 0–1: curve none / Morton
//! / Hilbert / none; bit 2: bits given), a bits byte (any value: the grid
//! may be refused), a width byte (0: none), 16 bytes of a value, then the
//! text (the longest valid UTF-8 prefix of the rest).

use arbitrary::Unstructured;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::native::{self, Col, GeoOpts, Kind};
use lexikey::frontend::profile::{Item, Options, Profile, ProfileRange};
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::interop::fdb;
use lexikey::kinds::geo::Curve;
use lexikey::range::{KeyRange, Pred, PredOp, RangeError};
use lexikey::{tuple, value::literal, Format, Value};

use crate::{Reader, Writer};

/// Header bit: salt buckets follow.
pub const SALT: u8 = 0x04;
/// Header bit: HBase's legacy numeric codec.
pub const LEGACY: u8 = 0x08;
/// Header bit: Phoenix's half-up decimal rounding.
pub const ROUND: u8 = 0x10;
/// Header bit: add a prefix predicate on a descending string.
pub const DESC_PREFIX: u8 = 0x20;
/// Component type bit: raw text.
pub const RAW: u8 = 0x80;
/// Component type bit: `.desc`.
pub const DESC: u8 = 0x40;

/// The profiles by header index.
pub const PROFILES: [Profile; 3] = [Profile::Fdb, Profile::Hbase, Profile::Phoenix];

/// HBase's kinds.
const HBASE_KINDS: &[&str] = &[
    "int8",
    "int16",
    "int32",
    "int64",
    "float32",
    "float64",
    "numeric",
    "text",
    "blob-var",
    "blob-copy",
];

/// Phoenix's types (`char(N)`/`binary(N)` get N from the value byte).
const PHOENIX_TYPES: &[&str] = &[
    "tinyint",
    "smallint",
    "integer",
    "bigint",
    "unsigned_tinyint",
    "unsigned_smallint",
    "unsigned_int",
    "unsigned_long",
    "float",
    "double",
    "unsigned_float",
    "unsigned_double",
    "boolean",
    "date",
    "time",
    "timestamp",
    "unsigned_date",
    "unsigned_time",
    "unsigned_timestamp",
    "varchar",
    "varbinary",
    "decimal",
    "char",
    "binary",
];

/// The predicate names by index (the last is not a predicate).
pub const PRED_NAMES: [&str; 7] = ["eq", "ge", "gt", "le", "lt", "prefix", "between"];

fn type_names(p: Profile) -> &'static [&'static str] {
    match p {
        Profile::Fdb => lexikey::frontend::profile::FDB_TYPES,
        Profile::Hbase => HBASE_KINDS,
        Profile::Phoenix => PHOENIX_TYPES,
    }
}

/// The string type of a profile (what a `prefix` predicate is on).
fn text_type(p: Profile) -> &'static str {
    match p {
        Profile::Fdb => "str",
        Profile::Hbase => "text",
        Profile::Phoenix => "varchar",
    }
}

/// Reads one component text (see the module docs).
fn component_text(r: &mut Reader<'_, '_>, p: Profile) -> String {
    let t = r.byte();
    if t & RAW != 0 {
        return r.string();
    }
    let names = type_names(p);
    let mut ty = names[usize::from(t & 0x3F) % names.len()].to_string();
    let mode = r.byte();
    if ty == "char" || ty == "binary" {
        ty = format!("{ty}({})", 1 + (mode >> 3) % 8);
    }
    if t & DESC != 0 {
        ty.push_str(".desc");
    }
    let value = match mode % 8 {
        0 => r.string(),
        1 => (r.byte() as i8).to_string(),
        2 => i64::from_be_bytes(fixed(r)).to_string(),
        3 => format!("{:?}", f64::from_bits(u64::from_be_bytes(fixed(r)))),
        4 => {
            let n = usize::from(r.byte());
            lexikey::to_hex(r.take(n))
        }
        5 => {
            let mut s = String::new();
            literal::format_uuid(u128::from_be_bytes(fixed(r)), &mut s);
            s
        }
        6 => (r.byte() & 1 == 1).to_string(),
        _ => return ty,
    };
    format!("{ty}:{value}")
}

fn fixed<const N: usize>(r: &mut Reader<'_, '_>) -> [u8; N] {
    let mut b = [0u8; N];
    let s = r.take(N);
    b[..s.len()].copy_from_slice(s);
    b
}

/// One `range_profile` case, as read from its input.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileCase {
    /// The profile.
    pub profile: Profile,
    /// Its options (salt buckets, codec, rounding; maybe refused).
    pub opts: Options,
    /// The prefix component texts.
    pub prefix: Vec<String>,
    /// The predicates: name and text.
    pub preds: Vec<(&'static str, String)>,
}

impl ProfileCase {
    /// Reads a case (never fails).
    pub fn read(data: &[u8]) -> ProfileCase {
        let mut u = Unstructured::new(data);
        let mut r = Reader::new(&mut u);
        let h = r.byte();
        let profile = PROFILES[usize::from(h & 3) % 3];
        let salt = (h & SALT != 0).then(|| u16::from_be_bytes(fixed(&mut r)) % 260);
        let opts = Options {
            salt,
            hbase: if h & LEGACY != 0 {
                lexikey::interop::hbase::Codec::LEGACY
            } else {
                Default::default()
            },
            rounding: if h & ROUND != 0 {
                lexikey::interop::phoenix::DecimalRounding::HalfUp
            } else {
                Default::default()
            },
        };
        let n = r.byte();
        let prefix = (0..(n & 7).min(5))
            .map(|_| component_text(&mut r, profile))
            .collect();
        let mut preds: Vec<(&'static str, String)> = (0..((n >> 4) & 7).min(4))
            .map(|_| {
                let name = PRED_NAMES[usize::from(r.byte()) % PRED_NAMES.len()];
                let text = if name == "prefix" {
                    r.string()
                } else {
                    component_text(&mut r, profile)
                };
                (name, text)
            })
            .collect();
        if h & DESC_PREFIX != 0 {
            // Marked for check_range_profile: a prefix on a descending string.
            preds.push(("prefix.desc", r.string()));
        }
        ProfileCase {
            profile,
            opts,
            prefix,
            preds,
        }
    }
}

/// Writes a `range_profile` input of raw-text components (for seeds).
pub fn profile_input(
    profile: Profile,
    salt: Option<u16>,
    prefix: &[&str],
    preds: &[(&str, &str)],
) -> Vec<u8> {
    let mut w = Writer::default();
    let p = PROFILES.iter().position(|&q| q == profile).unwrap_or(0) as u8;
    w.byte(p | if salt.is_some() { SALT } else { 0 });
    if let Some(n) = salt {
        w.bytes(&n.to_be_bytes());
    }
    w.byte(prefix.len().min(5) as u8 | (preds.len().min(4) as u8) << 4);
    for c in prefix.iter().take(5) {
        w.byte(RAW).string(c);
    }
    for (name, text) in preds.iter().take(4) {
        let i = PRED_NAMES.iter().position(|n| n == name).unwrap_or(0) as u8;
        w.byte(i);
        if *name == "prefix" {
            w.string(text);
        } else {
            w.byte(RAW).string(text);
        }
    }
    w.buf
}

/// Whether an item is a null that the range builders treat apart (HBase
/// and Phoenix nulls; FoundationDB's null is an element like any other).
fn is_sql_null(item: &Item) -> bool {
    match item {
        Item::Fdb(_) => false,
        Item::Hbase(_, v) => matches!(v, lexikey::interop::hbase::Value::Null),
        Item::Phoenix(_, v) => v.is_null(),
    }
}

/// `range_profile`: building an interop range from arbitrary components
/// and predicates never panics, through [`KeySpec`] and
/// [`ProfileRange::build`] alike, and both give the same answer. Every
/// range returned is non-empty (`start < end`); a salted Phoenix table
/// gets one range per bucket, bucket `b`'s range being the unsalted range
/// under salt byte `b` ([`lexikey::store::salt::salted_range`]). With one
/// comparison on a value that can be written, the key of
/// `(prefix…, value)` is inside the ranges for `eq`, `ge`, `le` and
/// outside for `gt`, `lt`; with one `prefix`, the key of
/// `(prefix…, text)` is inside.
pub fn check_range_profile(data: &[u8]) {
    let case = ProfileCase::read(data);
    let p = case.profile;
    let direct = |opts: Options, prefix: &[Comp], preds: &[Pred<Comp>]| {
        let items = prefix
            .iter()
            .filter_map(|c| match c {
                Comp::Profile(i) => Some(i.clone()),
                Comp::Native(..) => None,
            })
            .collect();
        let mut q = ProfileRange::new(p, opts).prefix(items);
        for pred in preds {
            if let Ok(pred) = pred.clone().try_map(|c| match c {
                Comp::Profile(i) => Ok(i),
                Comp::Native(..) => Err(()),
            }) {
                q = q.pred(pred);
            }
        }
        q.build()
    };
    let spec = match KeySpec::new(KeyFormat::Profile(p)).with_profile_options(case.opts) {
        Ok(s) => s,
        Err(_) => {
            // Refused options: the builder refuses them too, or they are
            // options it ignores (a codec or rounding of another profile).
            let _ = direct(case.opts, &[], &[]);
            return;
        }
    };
    let texts: Vec<&str> = case.prefix.iter().map(String::as_str).collect();
    let Ok(prefix) = spec.parse_components(&texts) else {
        for t in &texts {
            let _ = spec.parse(t);
        }
        return;
    };
    let mut preds = Vec::new();
    for (name, text) in &case.preds {
        if *name == "prefix.desc" {
            preds.push(Pred::Prefix(text.clone(), lexikey::Dir::Desc));
        } else if let Some(Ok(pred)) = PredOp::from_name(name).map(|op| spec.parse_pred(op, text)) {
            preds.push(pred);
        }
    }
    let result = spec.ranges(&prefix, preds.clone());
    assert_eq!(
        direct(case.opts, &prefix, &preds),
        result,
        "{p}: KeySpec::ranges and ProfileRange::build differ on {case:?}"
    );
    if let Err(e) = &result {
        let _ = lexikey::frontend::spec::range_message(e, &texts, &[]);
    }
    if let Ok(ranges) = &result {
        check_ranges(&case, ranges);
        if let Some(n) = case.opts.salt {
            let unsalted = Options {
                salt: None,
                ..case.opts
            };
            let logical = match direct(unsalted, &prefix, &preds).as_deref() {
                Ok([one]) => one.clone(),
                other => panic!(
                    "{p}: salted ranges {ranges:?} but the unsalted build gives {other:?} ({case:?})"
                ),
            };
            assert_eq!(
                ranges.len(),
                usize::from(n),
                "one range per bucket: {case:?}"
            );
            for (b, r) in ranges.iter().enumerate() {
                assert_eq!(
                    *r,
                    lexikey::store::salt::salted_range(&[b as u8], &logical),
                    "bucket {b} of {case:?}"
                );
            }
        }
    }
    check_probe(&spec, &case, &prefix, &preds, &result);
}

fn check_ranges(case: &ProfileCase, ranges: &[KeyRange]) {
    assert!(!ranges.is_empty(), "no range and no error: {case:?}");
    for r in ranges {
        if let (Some(s), Some(e)) = (&r.start, &r.end) {
            assert!(s < e, "empty range {r:?} returned for {case:?}");
        }
    }
}

/// The membership property of a single predicate (see
/// [`check_range_profile`]).
fn check_probe(
    spec: &KeySpec,
    case: &ProfileCase,
    prefix: &[Comp],
    preds: &[Pred<Comp>],
    result: &Result<Vec<KeyRange>, RangeError>,
) {
    let [pred] = preds else {
        return;
    };
    let (value, want) = match pred {
        Pred::Prefix(text, d) => {
            if d.is_desc() {
                return;
            }
            let Ok(c) = spec.parse(&format!("{}:{text}", text_type(case.profile))) else {
                return;
            };
            (c, true)
        }
        Pred::Eq(c) | Pred::Ge(c) | Pred::Le(c) => (c.clone(), true),
        Pred::Gt(c) | Pred::Lt(c) => (c.clone(), false),
        // The profiles refuse is-null / not-null (a native `TYPE?` only).
        Pred::IsNull(_) | Pred::NotNull(_) => return,
    };
    if let Comp::Profile(item) = &value {
        if is_sql_null(item) {
            return;
        }
    }
    let mut comps = prefix.to_vec();
    comps.push(value.clone());
    let Ok(key) = spec.encode(&comps) else {
        return;
    };
    let inside = match result {
        Ok(ranges) => ranges.iter().any(|r| r.contains(&key)),
        Err(RangeError::Empty) => false,
        Err(_) => return,
    };
    assert_eq!(
        inside,
        want,
        "{}: the key {} of {comps:?} is {} the ranges {result:?} of {pred:?} ({case:?})",
        case.profile,
        crate::show(&key),
        if inside { "inside" } else { "outside" },
    );
}

/// `parse_kind_component`: [`native::parse_component`] and
/// [`native::parse_schema`] never panic on any text and grid; a parsed
/// component's column prints and parses back; its value, written by
/// [`Col::write_value`], parses back to the same value, and so does the
/// value decoded from its key; a parsed schema prints and parses back. For
/// every kind, [`Col::write_value`] of an arbitrary stored value either
/// refuses it (a UUID that is not a v7 for `uuid7`, a code outside the grid
/// for `geo`) or writes text that parses back to it.
pub fn check_parse_kind(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut r = Reader::new(&mut u);
    let g = r.byte();
    let curve = match g & 3 {
        1 => Some(Curve::Morton),
        2 => Some(Curve::Hilbert),
        _ => None,
    };
    let bits_byte = r.byte();
    let bits = (g & 4 != 0).then_some(bits_byte);
    let width = match r.byte() {
        0 => None,
        w => Some(w),
    };
    let raw = u128::from_be_bytes(fixed(&mut r));
    let rest = r.rest();
    let text = match std::str::from_utf8(rest) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
    };
    let Ok(geo) = GeoOpts::new(curve, bits) else {
        assert!(
            bits.is_some_and(|b| !(1..=32).contains(&b)),
            "grid {curve:?} {bits:?} refused"
        );
        return;
    };
    let _ = geo.check_used(native::is_geo_component(text));
    let _ = native::parse_point(text, "geo");
    let _ = native::parse_bbox(text);

    if let Ok((col, c)) = native::parse_component(text, &geo) {
        check_kind_component(text, &geo, col, &c.value);
    }
    if let Ok(cols) = native::parse_schema(text, width) {
        assert!(!cols.is_empty(), "{text:?} parses as an empty schema");
        let printed: Vec<String> = cols.iter().map(Col::to_string).collect();
        let printed = printed.join(",");
        let again = native::parse_schema(&printed, width).unwrap_or_else(|e| {
            panic!("schema {text:?} prints as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(again, cols, "schema {text:?} → {printed:?} → other columns");
        for c in &cols {
            assert_eq!(c.field.ty, c.kind.core(), "{c:?}");
        }
    }
    for kind in [Kind::Ulid, Kind::Uuid7, Kind::Geo] {
        let col = Col::parse(kind.name()).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        let v = match kind {
            Kind::Geo => Value::U64(raw as u64),
            _ => Value::Uuid(raw),
        };
        let mut s = String::new();
        match col.write_value(&v, &geo, &mut s) {
            Ok(()) => {
                let back = col.parse_value(&s, &geo).unwrap_or_else(|e| {
                    panic!("{kind:?} {v:?} writes as {s:?}, which does not parse: {e}")
                });
                assert_eq!(back, v, "{kind:?} {v:?} → {s:?} → another value");
            }
            Err(_) => match kind {
                Kind::Uuid7 => assert!(
                    !lexikey::kinds::timeid::is_uuid7(raw),
                    "v7 {raw:#x} refused"
                ),
                Kind::Geo => assert!(
                    raw as u64 > geo.grid.max_code(),
                    "code {} of {:?} refused",
                    raw as u64,
                    geo.grid
                ),
                _ => panic!("{kind:?} {v:?} refused"),
            },
        }
    }
}

/// The properties of one parsed `TYPE[.desc]:VALUE` component.
fn check_kind_component(text: &str, geo: &GeoOpts, col: Col, v: &Value<'_>) {
    let name = col.to_string();
    assert_eq!(
        Col::parse(&name).ok(),
        Some(col),
        "{text:?}: column {col:?} prints as {name:?}"
    );
    assert_eq!(
        v.ty(),
        col.field.ty,
        "{text:?}: value {v:?} of column {col:?}"
    );
    // A null is spelled by the bare nullable type (`i64?`), never as a
    // value literal: that spelling must read back as the same null.
    if let Value::Null(_) = v {
        assert!(col.field.nulls.is_some(), "{text:?}: a null in {name}");
        let (col2, c2) = native::parse_component(&name, geo).unwrap_or_else(|e| {
            panic!("{text:?}: the null prints as {name:?}, which does not parse: {e}")
        });
        assert_eq!((col2, &c2.value), (col, v), "{text:?} → {name:?}");
        return;
    }
    let mut s = String::new();
    col.write_value(v, geo, &mut s)
        .unwrap_or_else(|e| panic!("{text:?} parses as {v:?}, which {name} does not write: {e}"));
    let back = col
        .parse_value(&s, geo)
        .unwrap_or_else(|e| panic!("{text:?} → {v:?} writes as {s:?}, which does not parse: {e}"));
    assert_eq!(&back, v, "{text:?} → {s:?} → another value");
    let printed = format!("{name}:{s}");
    let (col2, c2) = native::parse_component(&printed, geo)
        .unwrap_or_else(|e| panic!("{text:?} prints as {printed:?}, which does not parse: {e}"));
    assert_eq!((col2, &c2.value), (col, v), "{text:?} → {printed:?}");
    // The key decodes to the same value, which writes the same text.
    let comp = lexikey::Component {
        value: v.clone(),
        dir: col.field.dir,
        width: None,
        nulls: None,
        list: 0,
    };
    for format in [Format::Hex, Format::Binary] {
        let Ok(key) = tuple::encode(format, std::slice::from_ref(&comp)) else {
            continue;
        };
        let fields = [comp.field()];
        let decoded = tuple::decode(format, &key, Some(&fields[..])).unwrap_or_else(|e| {
            panic!(
                "{text:?}: {format} key {} does not decode: {e}",
                crate::show(&key)
            )
        });
        let mut again = String::new();
        col.write_value(&decoded[0].value, geo, &mut again)
            .unwrap_or_else(|e| panic!("{text:?}: decoded {:?} does not write: {e}", decoded[0]));
        assert_eq!(again, s, "{text:?}: {format} key decodes to other text");
    }
    let _ = fdb::parse_component(text);
}

/// Seeds of the two targets, in the layouts they read.
pub fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    type Case = (
        Profile,
        Option<u16>,
        &'static [&'static str],
        &'static [(&'static str, &'static str)],
    );
    let cases: &[Case] = &[
        (
            Profile::Fdb,
            None,
            &["str:users"],
            &[("ge", "int:18"), ("lt", "int:65")],
        ),
        (Profile::Fdb, None, &["str:a", "null"], &[("prefix", "ab")]),
        (
            Profile::Hbase,
            None,
            &["text:eu"],
            &[("ge", "int64.desc:100")],
        ),
        (
            Profile::Hbase,
            None,
            &["text:eu", "numeric"],
            &[("eq", "numeric:NaN")],
        ),
        (
            Profile::Hbase,
            None,
            &["text:eu"],
            &[("le", "float64:-0.0")],
        ),
        (Profile::Phoenix, Some(2), &["varchar:us"], &[]),
        (
            Profile::Phoenix,
            Some(256),
            &["varchar:us"],
            &[("gt", "bigint.desc:5")],
        ),
        (
            Profile::Phoenix,
            None,
            &["varchar:", "char(3):ab"],
            &[("prefix", "x")],
        ),
        (
            Profile::Phoenix,
            None,
            &["decimal.desc:1.5"],
            &[("ge", "varchar:a"), ("lt", "varchar:b")],
        ),
        (Profile::Phoenix, Some(3), &[], &[("eq", "varbinary:00ff")]),
    ];
    for (p, salt, prefix, preds) in cases {
        out.push(("range_profile", profile_input(*p, *salt, prefix, preds)));
    }
    for text in [
        "geo:37.7749,-122.4194",
        "ulid.desc:01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        "i64.desc:-5",
        "str,ulid.desc,geo",
        "ts:2024-05-01T12:00:00.5+02:00",
        "dec:-12.50",
        "bytes:00aB",
    ] {
        for (g, bits) in [(0u8, 0u8), (4 | 1, 16), (4 | 2, 1), (4, 33)] {
            let mut w = Writer::default();
            w.byte(g)
                .byte(bits)
                .byte(0)
                .bytes(&[0x42; 16])
                .bytes(text.as_bytes());
            out.push(("parse_kind_component", w.buf));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_input_reads_back() {
        let data = profile_input(
            Profile::Phoenix,
            Some(7),
            &["varchar:us", "bigint.desc:5"],
            &[("ge", "integer:1"), ("prefix", "ab")],
        );
        let c = ProfileCase::read(&data);
        assert_eq!(c.profile, Profile::Phoenix);
        assert_eq!(c.opts.salt, Some(7));
        assert_eq!(c.prefix, ["varchar:us", "bigint.desc:5"]);
        assert_eq!(
            c.preds,
            [
                ("ge", "integer:1".to_string()),
                ("prefix", "ab".to_string())
            ]
        );
    }

    #[test]
    fn seeds_pass() {
        for (target, data) in seeds() {
            match target {
                "range_profile" => check_range_profile(&data),
                _ => check_parse_kind(&data),
            }
        }
    }
}
