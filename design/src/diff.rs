//! Whether keys written under one layout still read and sort under another
//! ([`diff`]): the changes between the two specs, the verdict confirmed on
//! keys the real codecs write, a witness when it breaks, and a migration
//! plan.

use std::cmp::Ordering;
use std::fmt::Write as _;

use lexikey::frontend::host::{Arg, ColType, Out, Want};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::KeyRange;

use crate::report::json_str;
use crate::DesignError;

/// A key the old layout writes that the new one does not read back as
/// the same values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeWitness {
    /// The values, one `TYPE:VALUE` text per old column.
    pub values: Vec<String>,
    /// The key the old layout writes for them, escaped
    /// ([`lexikey::escape_key`]).
    pub key: String,
    /// What the new layout makes of it: `read as VALUES` or
    /// `not readable: WHY` (empty when it has too few columns).
    pub new_reading: String,
}

/// Two rows whose keys sort one way in the old layout and the other way
/// (or equal) in the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderWitness {
    /// The row that sorts first in the old layout.
    pub first: Vec<String>,
    /// The row that sorts after it in the old layout.
    pub second: Vec<String>,
    /// `before`, `after` or `equal`: where `first` sorts in the new layout.
    pub new_order: &'static str,
}

/// Where new keys go during a move, and what to read and copy meanwhile.
/// Key bounds are escaped ([`lexikey::escape_key`]); `None` is open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    /// The version tag: the leading component of every new key.
    pub tag: String,
    /// Its bytes, escaped: every new key starts with them (after its salt).
    pub new_prefix: String,
    /// The ranges that hold the new layout's keys.
    pub read_new: Vec<(Option<String>, Option<String>)>,
    /// The ranges that hold the old layout's keys: read both until the
    /// backfill ends.
    pub read_old: Vec<(Option<String>, Option<String>)>,
    /// The ranges to copy (decode old, encode new under the tag, delete).
    pub backfill: Vec<(Option<String>, Option<String>)>,
}

/// The answer of [`diff`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// Whether every key the old layout writes reads back under the new
    /// one as the same values, sorting the same.
    pub compatible: bool,
    /// Why, in one line.
    pub reason: String,
    /// The differences between the two specs, one line each.
    pub changes: Vec<String>,
    /// Old keys checked with the codecs.
    pub keys_checked: usize,
    /// A key the new layout misreads (breaking only).
    pub decode_witness: Option<DecodeWitness>,
    /// Two rows whose order the new layout changes (when there are some).
    pub order_witness: Option<OrderWitness>,
    /// The move to the new layout (breaking only).
    pub migration: Option<Migration>,
}

/// The values tried for each kind of column: the edges of every integer
/// width, the decimal widths' edges, strings around the separators.
fn pool(want: Want) -> Vec<Arg<'static>> {
    match want {
        Want::Int => {
            let mut v: Vec<i64> = vec![
                0,
                1,
                -1,
                2,
                -2,
                9,
                10,
                -10,
                99,
                100,
                127,
                128,
                -128,
                -129,
                255,
                256,
                999,
                1000,
                32_767,
                -32_768,
                65_535,
                65_536,
                i64::from(i32::MAX),
                i64::from(i32::MIN),
                i64::from(u32::MAX),
                1 << 32,
                i64::MAX,
                i64::MIN,
                i64::MAX - 1,
                i64::MIN + 1,
            ];
            let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
            for _ in 0..16 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                v.push((x >> (x % 60)) as i64 * if x & 1 == 0 { 1 } else { -1 });
            }
            v.into_iter().map(Arg::Int).collect()
        }
        Want::Str => [
            "", "a", "b", "ab", "a\u{0}", "a#", "a$", "z", "10", "9", "é", "~",
        ]
        .into_iter()
        .map(Arg::Str)
        .collect(),
        Want::Float => [0.0, 1.5, -1.5, 2.0, -2.0, 1e300, -1e300, 3.25e-7, 1e10]
            .into_iter()
            .chain([f64::INFINITY, f64::NEG_INFINITY])
            .map(Arg::F64)
            .collect(),
        Want::Bool => vec![Arg::Bool(false), Arg::Bool(true)],
        Want::Bytes => {
            const B: [&[u8]; 6] = [b"", b"\x00", b"\x00\x01", b"\x01", b"\xff", b"ab"];
            B.into_iter().map(Arg::Bytes).collect()
        }
        Want::Time => [
            (0, 0),
            (1, 0),
            (-1, 0),
            (1_714_564_800, 5_000_000),
            (-86_400, 1),
        ]
        .into_iter()
        .map(|(secs, nanos)| Arg::Time { secs, nanos })
        .collect(),
        Want::Uuid => [
            0,
            1,
            u128::MAX,
            1 << 64,
            0x0190_0000_0000_7000_8000_0000_0000_0001,
        ]
        .into_iter()
        .map(Arg::Uuid)
        .collect(),
        Want::Decimal => ["0", "1.5", "-2", "1E+3", "-0.001", "12345678901234567890"]
            .into_iter()
            .map(Arg::Decimal)
            .collect(),
        Want::Geo => [(0.0, 0.0), (48.85, 2.35), (-33.9, 151.2), (90.0, 180.0)]
            .into_iter()
            .map(|(a, b)| Arg::Geo(a, b))
            .collect(),
        Want::Null => vec![Arg::Null],
    }
}

/// A row the old layout writes: its values' texts and its key.
struct Row<'a> {
    args: Vec<Arg<'a>>,
    texts: Vec<String>,
    key: Vec<u8>,
}

/// The key of `args` under `spec` (its schema's first `args.len()`
/// columns), or `None` when the layout cannot write them.
fn encode(spec: &KeySpec, args: &[Arg<'_>]) -> Option<Vec<u8>> {
    let comps: Vec<Comp> = args
        .iter()
        .enumerate()
        .map(|(i, a)| spec.field(i, *a).ok())
        .collect::<Option<_>>()?;
    spec.encode(&comps).ok()
}

/// The rows tried: every column through its pool with the others at their
/// first value, then mixed rows from a fixed generator; only those the old
/// layout writes.
fn rows<'p>(old: &KeySpec, pools: &'p [Vec<Arg<'static>>]) -> Vec<Row<'p>> {
    let mut picks: Vec<Vec<usize>> = Vec::new();
    for (c, p) in pools.iter().enumerate() {
        for i in 0..p.len() {
            let mut r = vec![0; pools.len()];
            r[c] = i;
            picks.push(r);
        }
    }
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..64 {
        picks.push(
            pools
                .iter()
                .map(|p| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (x >> 33) as usize % p.len()
                })
                .collect(),
        );
    }
    picks
        .into_iter()
        .filter_map(|pick| {
            let args: Vec<Arg<'p>> = pick.iter().zip(pools).map(|(&i, p)| p[i]).collect();
            let key = encode(old, &args)?;
            let v = old.decode(&key).ok()?;
            Some(Row {
                texts: v.component_texts(),
                args,
                key,
            })
        })
        .collect()
}

/// The schema's columns as `with_schema` reads them back.
fn cols(spec: &KeySpec) -> Vec<ColType> {
    spec.schema().map(<[ColType]>::to_vec).unwrap_or_default()
}

/// The layout's salt, as text (`none`, `16 fast`, `phoenix 4`).
fn salt_text(spec: &KeySpec) -> String {
    match (spec.salter(), spec.profile_options().salt) {
        (Some(s), _) => format!("{} buckets ({})", s.buckets(), s.mode()),
        (None, Some(n)) => format!("{n} buckets (phoenix)"),
        (None, None) => "none".to_string(),
    }
}

/// The differences between the specs, and whether one is a dropped column.
fn changes(old: &KeySpec, new: &KeySpec) -> Vec<String> {
    let mut out = Vec::new();
    if old.format() != new.format() {
        out.push(format!(
            "format changed: {} -> {}",
            old.format().name(),
            new.format().name()
        ));
    }
    let (so, sn) = (salt_text(old), salt_text(new));
    if so != sn {
        out.push(format!("salt changed: {so} -> {sn}"));
    }
    if old.width() != new.width() {
        let w = |w: Option<u8>| w.map_or("none".to_string(), |w| w.to_string());
        out.push(format!(
            "width changed: {} -> {}",
            w(old.width()),
            w(new.width())
        ));
    }
    let (oc, nc) = (cols(old), cols(new));
    for (i, (o, n)) in oc.iter().zip(&nc).enumerate() {
        if o == n {
            continue;
        }
        let dir = |c: &ColType| match c {
            ColType::Native(c) => Some(c.field.dir),
            _ => None,
        };
        let strip = |c: &ColType| c.to_string().trim_end_matches(".desc").to_string();
        if strip(o) == strip(n) && dir(o) != dir(n) {
            out.push(format!("column {} direction changed: {o} -> {n}", i + 1));
        } else {
            out.push(format!("column {} type changed: {o} -> {n}", i + 1));
        }
    }
    if nc.len() > oc.len() {
        let added: Vec<String> = nc[oc.len()..].iter().map(ToString::to_string).collect();
        out.push(format!("trailing column(s) appended: {}", added.join(",")));
    }
    if nc.len() < oc.len() {
        let gone: Vec<String> = oc[nc.len()..].iter().map(ToString::to_string).collect();
        out.push(format!("column(s) dropped: {}", gone.join(",")));
    }
    out
}

/// The new layout restricted to the old one's columns (old keys lack the
/// appended ones), or `None` when it has fewer.
fn new_prefix_spec(old: &KeySpec, new: &KeySpec) -> Result<Option<KeySpec>, DesignError> {
    let (oc, nc) = (cols(old), cols(new));
    if nc.len() < oc.len() {
        return Ok(None);
    }
    if nc.len() == oc.len() {
        return Ok(Some(new.clone()));
    }
    let text: Vec<String> = nc[..oc.len()].iter().map(ToString::to_string).collect();
    new.clone()
        .with_schema(&text.join(","))
        .map(Some)
        .map_err(|e| DesignError::new(format!("new schema: {e}")))
}

/// The values of an old key as the new layout reads them, or why not.
fn reading(new: &KeySpec, key: &[u8]) -> Result<Vec<Out<'static>>, String> {
    let v = new.decode(key).map_err(|e| e.to_string())?;
    (0..v.len())
        .map(|i| {
            v.get(i)
                .map(|o| own(&o))
                .map_err(|e| format!("value {}: {e}", i + 1))
        })
        .collect()
}

/// A decoded value detached from its key (nested and big values as text).
fn own(o: &Out<'_>) -> Out<'static> {
    match o {
        Out::Null => Out::Null,
        Out::Bool(b) => Out::Bool(*b),
        Out::Int(i) => Out::Int(*i),
        Out::U64(u) => Out::U64(*u),
        Out::F64(x) => Out::F64(*x),
        Out::F32(x) => Out::F32(*x),
        Out::Str(s) => Out::Str(s.clone().into_owned().into()),
        Out::Uuid(u) => Out::Uuid(*u),
        Out::Time { secs, nanos } => Out::Time {
            secs: *secs,
            nanos: *nanos,
        },
        Out::Decimal(d) => Out::Decimal(d.clone()),
        Out::Geo(a, b) => Out::Geo(*a, *b),
        other => Out::Decimal(format!("{other:?}")),
    }
}

/// Whether two decoded values are the same value (floats by bits, an `f32`
/// equal to the `f64` it widens to).
fn same(a: &Out<'_>, b: &Out<'_>) -> bool {
    match (a, b) {
        (Out::F64(x), Out::F64(y)) => x.to_bits() == y.to_bits(),
        (Out::F32(x), Out::F32(y)) => x.to_bits() == y.to_bits(),
        (Out::F32(x), Out::F64(y)) | (Out::F64(y), Out::F32(x)) => {
            f64::from(*x).to_bits() == y.to_bits()
        }
        (Out::U64(u), Out::Int(i)) | (Out::Int(i), Out::U64(u)) => i128::from(*u) == i128::from(*i),
        _ => a == b,
    }
}

/// Keys of a layout compared as they sort once unsalted.
fn order(spec: &KeySpec, a: &[u8], b: &[u8]) -> Ordering {
    match (spec.unsalted(a), spec.unsalted(b)) {
        (Ok(x), Ok(y)) => x.cmp(y),
        _ => a.cmp(b),
    }
}

/// Compares two layouts: for every key `old` writes, whether `new` reads
/// it back as the same values and sorts it the same. The changes between
/// the specs say why; the verdict is confirmed on keys the real codecs
/// write for the edge values of every column's type (and mixed rows), so a
/// change the codecs absorb (an appended trailing column, a widening whose
/// bytes match) is compatible and one they do not has a witness key. A
/// breaking change comes with a migration plan.
///
/// ```
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::spec::KeySpec;
/// let hex = || KeySpec::new(KeyFormat::parse("hex").unwrap());
/// let old = hex().with_schema("str,i64")?;
/// let d = lexikey_design::diff(&old, &hex().with_schema("str,i64,str")?)?;
/// assert!(d.compatible);
/// let d = lexikey_design::diff(&old, &hex().with_schema("str,i64.desc")?)?;
/// assert!(!d.compatible);
/// let w = d.order_witness.unwrap();
/// assert_eq!((w.first, w.second), (vec!["str:".into(), "i64:0".into()], vec!["str:".into(), "i64:1".into()]));
/// assert_eq!(d.migration.unwrap().new_prefix, "v2#");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A layout without a schema.
pub fn diff(old: &KeySpec, new: &KeySpec) -> Result<Diff, DesignError> {
    if old.schema().is_none() || new.schema().is_none() {
        return Err(DesignError::new("schema diff needs a schema on both sides"));
    }
    let changes = changes(old, new);
    let pools: Vec<Vec<Arg<'static>>> = cols(old).iter().map(|c| pool(c.want())).collect();
    let rows = rows(old, &pools);
    let reader = new_prefix_spec(old, new)?;
    let mut decode_witness = None;
    for r in &rows {
        let got = match &reader {
            None => Err("the new schema has fewer columns".to_string()),
            Some(n) => reading(n, &r.key),
        };
        let want = reading(old, &r.key);
        let bad = match (&got, &want) {
            (Ok(g), Ok(w)) => g.len() != w.len() || g.iter().zip(w).any(|(a, b)| !same(a, b)),
            _ => true,
        };
        if bad {
            let new_reading = match (&got, &reader) {
                (Ok(g), Some(n)) => {
                    let texts = n
                        .decode(&r.key)
                        .map(|v| v.component_texts().join(" "))
                        .unwrap_or_default();
                    // The texts can agree where the values do not (a ULID
                    // read back as a UUID): name the first such value.
                    let which = match &want {
                        Ok(w) => g.iter().zip(w).position(|(a, b)| !same(a, b)),
                        Err(_) => None,
                    };
                    match (which, &want) {
                        (Some(i), Ok(w)) => format!(
                            "read as {texts} (value {} is {:?}, not {:?})",
                            i + 1,
                            g[i],
                            w[i]
                        ),
                        _ => format!("read as {texts}"),
                    }
                }
                (Err(e), _) => format!("not readable: {e}"),
                (Ok(_), None) => String::new(),
            };
            decode_witness = Some(DecodeWitness {
                values: r.texts.clone(),
                key: lexikey::escape_key(&r.key),
                new_reading,
            });
            break;
        }
    }
    // Order: two rows the old layout sorts one way and the new another.
    let mut order_witness = None;
    if let Some(n) = &reader {
        let new_keys: Vec<Option<Vec<u8>>> = rows.iter().map(|r| encode(n, &r.args)).collect();
        'pairs: for (i, a) in rows.iter().enumerate() {
            for (j, b) in rows.iter().enumerate() {
                let (Some(na), Some(nb)) = (&new_keys[i], &new_keys[j]) else {
                    continue;
                };
                if order(old, &a.key, &b.key) != Ordering::Less {
                    continue;
                }
                let now = order(n, na, nb);
                if now != Ordering::Less {
                    order_witness = Some(OrderWitness {
                        first: a.texts.clone(),
                        second: b.texts.clone(),
                        new_order: if now == Ordering::Equal {
                            "equal"
                        } else {
                            "after"
                        },
                    });
                    break 'pairs;
                }
            }
        }
    }
    let compatible = decode_witness.is_none() && order_witness.is_none();
    let reason = reason(
        compatible,
        &changes,
        rows.len(),
        &decode_witness,
        &order_witness,
    );
    let migration = if compatible {
        None
    } else {
        Some(migration(new, &rows))
    };
    Ok(Diff {
        compatible,
        reason,
        changes,
        keys_checked: rows.len(),
        decode_witness,
        order_witness,
        migration,
    })
}

/// The one-line reason of a verdict.
fn reason(
    compatible: bool,
    changes: &[String],
    keys: usize,
    dw: &Option<DecodeWitness>,
    ow: &Option<OrderWitness>,
) -> String {
    let what = if changes.is_empty() {
        "no change".to_string()
    } else {
        changes.join("; ")
    };
    if compatible {
        return format!(
            "{what}: every one of the {keys} old keys checked reads back under the new schema as the same values and sorts the same"
        );
    }
    let mut s = what;
    if let Some(w) = dw {
        let _ = write!(
            s,
            ": the old key \"{}\" ({}) is {} under the new schema",
            w.key,
            w.values.join(" "),
            if w.new_reading.is_empty() {
                "not read back"
            } else {
                &w.new_reading
            }
        );
    }
    if let Some(w) = ow {
        let _ = write!(
            s,
            "{}{} sorts before {} in the old layout, {} it in the new",
            if dw.is_some() { "; " } else { ": " },
            w.first.join(" "),
            w.second.join(" "),
            w.new_order
        );
    }
    s
}

/// The version tag and the ranges of a move to `new`: new keys lead with
/// `str:vN`, the first N from 2 that no tried old key starts with.
fn migration(new: &KeySpec, rows: &[Row<'_>]) -> Migration {
    let tag_of = |n: u32| -> (String, Vec<u8>) {
        let text = format!("v{n}");
        let bytes = match new.format() {
            // The bytes every key that leads with the tag starts with: the
            // common prefix of tagged keys with unlike second components.
            KeyFormat::Native(_) => {
                let plain = KeySpec::new(new.format());
                let tagged = |second: &str| {
                    plain
                        .parse_components(&[&format!("str:{text}"), second])
                        .ok()
                        .and_then(|c| plain.encode(&c).ok())
                };
                ["str:a", "str:\u{7f}", "i64:0", "bool:true", "bytes:ff"]
                    .into_iter()
                    .map(tagged)
                    .reduce(|a, b| match (a, b) {
                        (Some(a), Some(b)) => {
                            let n = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                            Some(a[..n].to_vec())
                        }
                        _ => None,
                    })
                    .flatten()
                    .unwrap_or_else(|| format!("{text}/").into_bytes())
            }
            KeyFormat::Profile(_) => format!("{text}/").into_bytes(),
        };
        (format!("str:{text}"), bytes)
    };
    let (tag, prefix) = (2..)
        .map(tag_of)
        .find(|(_, p)| !rows.iter().any(|r| r.key.starts_with(p)))
        .expect("a tag no finite set of keys starts with");
    let esc = |b: &Option<Vec<u8>>| b.as_deref().map(lexikey::escape_key);
    let logical = KeyRange::prefix(&prefix);
    let read_new: Vec<(Option<String>, Option<String>)> = match new.salter() {
        Some(s) => s
            .ranges(&logical)
            .iter()
            .map(|r| (esc(&r.start), esc(&r.end)))
            .collect(),
        None => vec![(esc(&logical.start), esc(&logical.end))],
    };
    let read_old = vec![(None, esc(&logical.start)), (esc(&logical.end), None)];
    Migration {
        tag,
        new_prefix: lexikey::escape_key(&prefix),
        read_new,
        backfill: read_old.clone(),
        read_old,
    }
}

/// Appends a list of ranges as JSON.
fn json_ranges(rs: &[(Option<String>, Option<String>)], out: &mut String) {
    out.push('[');
    for (i, (s, e)) in rs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"start\":");
        match s {
            Some(s) => json_str(s, out),
            None => out.push_str("null"),
        }
        out.push_str(",\"end\":");
        match e {
            Some(e) => json_str(e, out),
            None => out.push_str("null"),
        }
        out.push('}');
    }
    out.push(']');
}

/// Appends a list of strings as JSON.
fn json_list(v: &[String], out: &mut String) {
    out.push('[');
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_str(s, out);
    }
    out.push(']');
}

/// A range as text: `[start, end)`, `-` for an open end.
fn range_text((s, e): &(Option<String>, Option<String>)) -> String {
    let b = |x: &Option<String>| x.as_ref().map_or("-".to_string(), |k| format!("\"{k}\""));
    format!("[{}, {})", b(s), b(e))
}

impl Diff {
    /// One JSON object (no newline): `compatible`, `reason`, `changes`,
    /// `keys_checked`, `decode_witness` (`{values, key, new_reading}` or
    /// null), `order_witness` (`{first, second, new_order}` or null),
    /// `migration` (`{tag, new_prefix, read_new, read_old, backfill}`,
    /// ranges as `{start, end}` with null for an open end, or null).
    pub fn to_json(&self) -> String {
        let mut o = String::new();
        let _ = write!(o, "{{\"compatible\":{},\"reason\":", self.compatible);
        json_str(&self.reason, &mut o);
        o.push_str(",\"changes\":");
        json_list(&self.changes, &mut o);
        let _ = write!(
            o,
            ",\"keys_checked\":{},\"decode_witness\":",
            self.keys_checked
        );
        match &self.decode_witness {
            None => o.push_str("null"),
            Some(w) => {
                o.push_str("{\"values\":");
                json_list(&w.values, &mut o);
                o.push_str(",\"key\":");
                json_str(&w.key, &mut o);
                o.push_str(",\"new_reading\":");
                json_str(&w.new_reading, &mut o);
                o.push('}');
            }
        }
        o.push_str(",\"order_witness\":");
        match &self.order_witness {
            None => o.push_str("null"),
            Some(w) => {
                o.push_str("{\"first\":");
                json_list(&w.first, &mut o);
                o.push_str(",\"second\":");
                json_list(&w.second, &mut o);
                o.push_str(",\"new_order\":");
                json_str(w.new_order, &mut o);
                o.push('}');
            }
        }
        o.push_str(",\"migration\":");
        match &self.migration {
            None => o.push_str("null"),
            Some(m) => {
                o.push_str("{\"tag\":");
                json_str(&m.tag, &mut o);
                o.push_str(",\"new_prefix\":");
                json_str(&m.new_prefix, &mut o);
                o.push_str(",\"read_new\":");
                json_ranges(&m.read_new, &mut o);
                o.push_str(",\"read_old\":");
                json_ranges(&m.read_old, &mut o);
                o.push_str(",\"backfill\":");
                json_ranges(&m.backfill, &mut o);
                o.push('}');
            }
        }
        o.push('}');
        o
    }

    /// The verdict, the changes, the witnesses and the migration plan as
    /// lines of text.
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{}",
            if self.compatible {
                "compatible"
            } else {
                "breaking"
            }
        );
        let _ = writeln!(o, "reason: {}", self.reason);
        for c in &self.changes {
            let _ = writeln!(o, "change: {c}");
        }
        let _ = writeln!(o, "keys checked: {}", self.keys_checked);
        if let Some(w) = &self.decode_witness {
            let _ = writeln!(
                o,
                "witness key: \"{}\" ({}): {}",
                w.key,
                w.values.join(" "),
                w.new_reading
            );
        }
        if let Some(w) = &self.order_witness {
            let _ = writeln!(
                o,
                "witness order: {} before {} in the old layout, {} in the new",
                w.first.join(" "),
                w.second.join(" "),
                w.new_order
            );
        }
        if let Some(m) = &self.migration {
            let _ = writeln!(
                o,
                "migration: write new keys under the version tag {} (prefix \"{}\")",
                m.tag, m.new_prefix
            );
            for r in &m.read_new {
                let _ = writeln!(o, "  read new layout: {}", range_text(r));
            }
            for r in &m.read_old {
                let _ = writeln!(o, "  read old layout: {}", range_text(r));
            }
            for r in &m.backfill {
                let _ = writeln!(
                    o,
                    "  backfill: {} (decode with the old schema, write with the new, delete)",
                    range_text(r)
                );
            }
        }
        o
    }
}
