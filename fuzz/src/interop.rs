//! The interop profiles' decoders (`lexikey::interop`): targets
//! `decode_fdb_tuple`, `decode_hbase_ordered`, `decode_phoenix`, and the
//! FDB component syntax, `parse_fdb_component`.
//!
//! Each checks, on arbitrary input:
//! - the decoder never panics, and an error's offset lies inside the key;
//! - **canonical decode**: whenever it accepts a key, encoding what it
//!   returned gives back exactly that key;
//! - every decoded value survives the CLI's component syntax:
//!   `parse_component(format_component(v)) == v` (nested FDB tuples
//!   included: `nested:[…]`);
//! - `parse_fdb_component`: any text that `fdb::parse_component` accepts
//!   prints and parses back to the same element, packs to a key that
//!   unpacks to it (the syntax nests no deeper than `unpack` reads), and
//!   `fdb::pack_with_versionstamp` of it succeeds exactly when it holds one
//!   incomplete versionstamp, the appended offset pointing at it;
//! - `decode_hbase_ordered` also decodes every key with
//!   `hbase::Codec::LEGACY` (HBase before HBASE-26566): canonical except
//!   the old encoder's lossy keys of 100^351 and above, which the current
//!   decoder must refuse naming `--hbase-numeric legacy` (or read alike);
//! - `decode_phoenix` also takes every decoded `DECIMAL` through the
//!   rounding path (`--round`): given a 39th digit it is refused by
//!   default naming the value Phoenix stores, and rounds half up to it.
//!
//! # Input layouts
//!
//! * `decode_fdb_tuple` — the whole input is the key.
//! * `parse_fdb_component` — the whole input is the text (not UTF-8: skipped).
//! * `decode_hbase_ordered` — one header byte, bits 0–2 the number of
//!   fields (0–7); then one byte per field: `b & 0x0F` modulo 10 indexes
//!   [`hbase::Kind::ALL`] (int8 int16 int32 int64 float32 float64 numeric
//!   text blob-var blob-copy), bit 7 means descending; then the key.
//! * `decode_phoenix` — one header byte, bits 0–2 the number of columns
//!   (0–7), bit 3 "salted" (a byte follows: `SALT_BUCKETS − 1`, so 1–256),
//!   bit 4 the pre-4.4 layout ([`phoenix::Table::legacy`]); then one byte per
//!   column: `b & 0x1F` modulo 24 picks the type — 0 to 21 index
//!   [`phoenix::Type::ALL`] (… varchar varbinary decimal), 22 is
//!   `CHAR(n)` and 23 `BINARY(n)`, each followed by one byte `n − 1` (so
//!   `n` is 1 to 256) — and bit 7 means DESC; then the key.
//!
//! Missing bytes read as zero, as everywhere in this crate.

use arbitrary::Unstructured;
use lexikey::interop::{fdb, hbase, phoenix};

use crate::{assert_error_located, show, Reader};

/// Field-byte / column-byte bit: descending.
pub const DESC: u8 = 0x80;
/// Phoenix header bit: a salt-buckets byte follows.
pub const SALTED: u8 = 0x08;
/// Phoenix header bit: the pre-4.4 separator layout.
pub const LEGACY: u8 = 0x10;
/// Phoenix column-type index of `CHAR(n)` (after [`phoenix::Type::ALL`]).
pub const PHOENIX_CHAR: usize = phoenix::Type::ALL.len();
/// Phoenix column-type index of `BINARY(n)`.
pub const PHOENIX_BINARY: usize = phoenix::Type::ALL.len() + 1;

// ---------------------------------------------------------------------------
// decode_fdb_tuple
// ---------------------------------------------------------------------------

/// `decode_fdb_tuple`: `fdb::unpack` and `fdb::unpack_lenient` on the input.
pub fn check_fdb_unpack(key: &[u8]) {
    match fdb::unpack(key) {
        Ok(t) => {
            let again = fdb::pack_to_vec(&t);
            assert!(
                again == key,
                "non-canonical fdb::unpack: {} → {t:?} → {}",
                show(key),
                show(&again)
            );
            match fdb::unpack_lenient(key) {
                Ok(l) => assert!(l == t, "unpack_lenient disagrees on {}", show(key)),
                Err(e) => panic!("unpack accepts {} but unpack_lenient fails: {e}", show(key)),
            }
            for e in &t {
                check_fdb_text(e);
            }
        }
        Err(e) => assert_error_located(&e, key, "fdb::unpack"),
    }
    match fdb::unpack_lenient(key) {
        // A lenient key's canonical form decodes to the same elements.
        Ok(t) => {
            let canon = fdb::pack_to_vec(&t);
            match fdb::unpack(&canon) {
                Ok(u) => assert!(
                    u == t,
                    "canonical form of {} decodes differently",
                    show(key)
                ),
                Err(e) => panic!(
                    "unpack_lenient({}) = {t:?} packs to {}, which unpack rejects: {e}",
                    show(key),
                    show(&canon)
                ),
            }
        }
        Err(e) => assert_error_located(&e, key, "fdb::unpack_lenient"),
    }
}

fn check_fdb_text(e: &fdb::Element) {
    let text = fdb::format_component(e);
    match fdb::parse_component(&text) {
        Ok(back) => assert!(back == *e, "{text:?} parses to {back:?}, not {e:?}"),
        Err(err) => panic!("fdb::format_component wrote {text:?}, which does not parse: {err}"),
    }
}

/// The incomplete versionstamps of an element, at any depth.
fn incomplete_stamps(e: &fdb::Element) -> usize {
    match e {
        fdb::Element::Versionstamp(v) => usize::from(!v.is_complete()),
        fdb::Element::Nested(v) => v.iter().map(incomplete_stamps).sum(),
        _ => 0,
    }
}

/// `parse_fdb_component`: the FDB component syntax on arbitrary text.
pub fn check_fdb_component(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(e) = fdb::parse_component(s) else {
        return;
    };
    check_fdb_text(&e);
    let t = std::slice::from_ref(&e);
    let key = fdb::pack_to_vec(t);
    match fdb::unpack(&key) {
        Ok(back) => assert!(
            back == t,
            "{s:?} packs to {}, which unpacks to {back:?}",
            show(&key)
        ),
        Err(err) => panic!(
            "{s:?} parses but its key {} does not unpack: {err}",
            show(&key)
        ),
    }
    let mut out = Vec::new();
    match (
        fdb::pack_with_versionstamp(t, &mut out),
        incomplete_stamps(&e),
    ) {
        (Ok(()), 1) => {
            let (body, offset) = out.split_at(out.len() - 4);
            assert!(
                body == key,
                "pack_with_versionstamp({s:?}) is not pack + 4 bytes"
            );
            let at = u32::from_le_bytes([offset[0], offset[1], offset[2], offset[3]]) as usize;
            assert!(
                at >= 1 && body[at - 1] == fdb::VERSIONSTAMP && body[at..at + 10] == [0xFF; 10],
                "pack_with_versionstamp({s:?}): offset {at} is not the placeholder's"
            );
        }
        (Err(fdb::VersionstampError::Missing), 0) => assert!(out.is_empty()),
        (Err(fdb::VersionstampError::Multiple { first, second }), n) if n >= 2 => {
            assert!(
                out.is_empty()
                    && first < second
                    && key[first] == fdb::VERSIONSTAMP
                    && key[second] == fdb::VERSIONSTAMP
            );
        }
        (r, n) => panic!("pack_with_versionstamp({s:?}) with {n} incomplete versionstamps: {r:?}"),
    }
}

// ---------------------------------------------------------------------------
// decode_hbase_ordered
// ---------------------------------------------------------------------------

/// Splits a `decode_hbase_ordered` input into its fields and key.
pub fn split_hbase_input(data: &[u8]) -> (Vec<hbase::Field>, &[u8]) {
    let mut u = Unstructured::new(data);
    let mut r = Reader::new(&mut u);
    let n = r.byte() & 0x07;
    let fields = (0..n)
        .map(|_| {
            let b = r.byte();
            let kind = hbase::Kind::ALL[usize::from(b & 0x0F) % hbase::Kind::ALL.len()];
            if b & DESC != 0 {
                hbase::Field::desc(kind)
            } else {
                hbase::Field::asc(kind)
            }
        })
        .collect();
    (fields, r.rest())
}

/// The `decode_hbase_ordered` input for `key` under `fields` (at most 7).
pub fn hbase_input(fields: &[hbase::Field], key: &[u8]) -> Vec<u8> {
    let fields = &fields[..fields.len().min(7)];
    let mut out = vec![fields.len() as u8];
    for f in fields {
        let i = hbase::Kind::ALL
            .iter()
            .position(|k| *k == f.kind)
            .unwrap_or(0) as u8;
        out.push(if f.order == hbase::Order::Descending {
            i | DESC
        } else {
            i
        });
    }
    out.extend_from_slice(key);
    out
}

/// `decode_hbase_ordered`: `hbase::decode_struct` under a fuzzed schema,
/// and `hbase::decode_value` of its first field, with the current numeric
/// codec (canonical) and the legacy one ([`check_hbase_legacy`]).
pub fn check_hbase_decode(data: &[u8]) {
    let (schema, key) = split_hbase_input(data);
    check_hbase_legacy(&schema, key);
    match hbase::decode_struct(&schema, key) {
        Ok(values) => {
            assert_eq!(values.len(), schema.len(), "one value per field");
            let mut again = Vec::new();
            if let Err(e) = hbase::encode_struct(&schema, &values, &mut again) {
                panic!(
                    "{} (schema {schema:?}) decodes to {values:?}, which does not encode: {e}",
                    show(key)
                );
            }
            assert!(
                again == key,
                "non-canonical hbase::decode_struct (schema {schema:?}): {} → {values:?} → {}",
                show(key),
                show(&again)
            );
            for (f, v) in schema.iter().zip(&values) {
                let text = hbase::format_component(*f, v);
                match hbase::parse_component(&text) {
                    Ok(back) => assert!(
                        back == (*f, v.clone()),
                        "{text:?} parses to {back:?}, not {:?}",
                        (f, v)
                    ),
                    Err(e) => panic!("hbase::format_component wrote {text:?}: {e}"),
                }
            }
        }
        Err(e) => assert_error_located(&e, key, "hbase::decode_struct"),
    }
    if let Some(&f) = schema.first() {
        match hbase::decode_value(f, key, 0) {
            Ok((v, next)) => {
                assert!(
                    next <= key.len(),
                    "decode_value ends at {next}, past the key"
                );
                let mut again = Vec::new();
                if hbase::encode_value(f, &v, &mut again).is_ok() {
                    assert!(
                        again == key[..next],
                        "non-canonical hbase::decode_value ({f}): {} → {v:?} → {}",
                        show(&key[..next]),
                        show(&again)
                    );
                }
            }
            Err(e) => assert_error_located(&e, key, "hbase::decode_value"),
        }
    }
}

/// `hbase::Codec::LEGACY` (HBase before HBASE-26566) on the same key: it
/// never panics; what it accepts re-encodes to the key, except the old
/// encoder's lossy keys of 100^351 and above, which the current decoder
/// refuses naming `--hbase-numeric legacy` or reads as the same values.
fn check_hbase_legacy(schema: &[hbase::Field], key: &[u8]) {
    let legacy = hbase::Codec::LEGACY;
    match legacy.decode_struct(schema, key) {
        Ok(values) => {
            let mut again = Vec::new();
            if let Err(e) = legacy.encode_struct(schema, &values, &mut again) {
                panic!("legacy: {} → {values:?} does not encode: {e}", show(key));
            }
            if again != key {
                match hbase::decode_struct(schema, key) {
                    Ok(current) => assert!(
                        current == values,
                        "legacy and current read {} differently: {values:?} / {current:?}",
                        show(key)
                    ),
                    Err(e) => assert!(
                        e.to_string().contains("--hbase-numeric legacy"),
                        "legacy reads {} as {values:?} (re-encoded {}); current: {e}",
                        show(key),
                        show(&again)
                    ),
                }
            }
        }
        Err(e) => assert_error_located(&e, key, "hbase::Codec::LEGACY.decode_struct"),
    }
}

// ---------------------------------------------------------------------------
// decode_phoenix
// ---------------------------------------------------------------------------

/// The `DECIMAL` rounding path (`--round`): a decoded value `d`, padded to
/// 38 digits and given a 39th (non-zero) digit from `extra`, is refused by
/// default naming the stored value, and rounds to `d` itself (a 39th digit
/// below 5) or past it in magnitude (5 or more) — or, carried past
/// `10^124`, is refused either way.
fn check_phoenix_rounding(d: &phoenix::Decimal, extra: u8) {
    use phoenix::{DecimalRounding, Type, Value};
    if d.is_zero() {
        return;
    }
    let last = extra % 9 + 1;
    let mut digits: String = d.digits().iter().map(|c| char::from(b'0' + c)).collect();
    while digits.len() < phoenix::MAX_DECIMAL_PRECISION {
        digits.push('0');
    }
    digits.push(char::from(b'0' + last));
    let sign = if d.is_negative() { "-" } else { "" };
    let text = format!("{sign}0.{digits}e{}", d.exponent());
    let refused = phoenix::parse_value(Type::Decimal, &text);
    match phoenix::parse_value_with(Type::Decimal, &text, DecimalRounding::HalfUp) {
        Ok(Value::Decimal(got)) => {
            if last < 5 {
                assert!(got == *d, "{text} rounds to {got}, not {d}");
            } else {
                let past = if d.is_negative() { got < *d } else { got > *d };
                assert!(past, "{text} rounds to {got}, not past {d}");
            }
            match refused {
                Err(e) => assert!(
                    e.to_string().contains(&format!("stores as {got};")),
                    "{text}: {e}"
                ),
                Ok(v) => panic!("{text} (39 digits) parses without rounding: {v:?}"),
            }
            let mut k = Vec::new();
            if let Err(e) = phoenix::encode_value(
                phoenix::Column::asc(Type::Decimal),
                &Value::Decimal(got.clone()),
                &mut k,
            ) {
                panic!("{text} rounds to {got}, which does not encode: {e}");
            }
        }
        Ok(other) => panic!("{text} parses to {other:?}"),
        Err(e) => {
            assert!(refused.is_err(), "{text}: refused only when rounding");
            assert!(e.to_string().contains("range"), "{text}: {e}");
        }
    }
}

/// Splits a `decode_phoenix` input into its table and key.
pub fn split_phoenix_input(data: &[u8]) -> (phoenix::Table, &[u8]) {
    let mut u = Unstructured::new(data);
    let mut r = Reader::new(&mut u);
    let h = r.byte();
    let salt = (h & SALTED != 0).then(|| u16::from(r.byte()) + 1);
    let columns = (0..h & 0x07)
        .map(|_| {
            let b = r.byte();
            let ty = match usize::from(b & 0x1F) % (PHOENIX_BINARY + 1) {
                PHOENIX_CHAR => phoenix::Type::Char(u16::from(r.byte()) + 1),
                PHOENIX_BINARY => phoenix::Type::Binary(u16::from(r.byte()) + 1),
                i => phoenix::Type::ALL[i],
            };
            if b & DESC != 0 {
                phoenix::Column::desc(ty)
            } else {
                phoenix::Column::asc(ty)
            }
        })
        .collect();
    let mut table = phoenix::Table::new(columns);
    if let Some(n) = salt {
        table = table.salted(n);
    }
    if h & LEGACY != 0 {
        table = table.legacy();
    }
    (table, r.rest())
}

/// The `decode_phoenix` input for `key` in `table` (at most 7 columns).
pub fn phoenix_input(table: &phoenix::Table, key: &[u8]) -> Vec<u8> {
    let columns = &table.columns[..table.columns.len().min(7)];
    let mut h = columns.len() as u8;
    if table.salt_buckets.is_some() {
        h |= SALTED;
    }
    if !table.row_key_order_optimizable {
        h |= LEGACY;
    }
    let mut out = vec![h];
    if let Some(n) = table.salt_buckets {
        out.push(n.clamp(1, 256).wrapping_sub(1) as u8);
    }
    for c in columns {
        let (i, width) = match c.ty {
            phoenix::Type::Char(n) => (PHOENIX_CHAR, Some(n)),
            phoenix::Type::Binary(n) => (PHOENIX_BINARY, Some(n)),
            t => (
                phoenix::Type::ALL.iter().position(|a| *a == t).unwrap_or(0),
                None,
            ),
        };
        let i = i as u8;
        out.push(if c.order == phoenix::SortOrder::Desc {
            i | DESC
        } else {
            i
        });
        if let Some(n) = width {
            // Widths over 256 do not fit the layout.
            out.push(n.clamp(1, 256).wrapping_sub(1) as u8);
        }
    }
    out.extend_from_slice(key);
    out
}

/// `decode_phoenix`: `phoenix::decode_row_key` of a fuzzed table.
pub fn check_phoenix_decode(data: &[u8]) {
    let (table, key) = split_phoenix_input(data);
    match phoenix::decode_row_key(&table, key) {
        Ok(values) => {
            assert_eq!(values.len(), table.columns.len(), "one value per column");
            let mut again = Vec::new();
            if let Err(e) = phoenix::encode_row_key(&table, &values, &mut again) {
                panic!(
                    "{} (table {table:?}) decodes to {values:?}, which does not encode: {e}",
                    show(key)
                );
            }
            assert!(
                again == key,
                "non-canonical phoenix::decode_row_key (table {table:?}): {} → {values:?} → {}",
                show(key),
                show(&again)
            );
            for (c, v) in table.columns.iter().zip(&values) {
                if let phoenix::Value::Decimal(d) = v {
                    check_phoenix_rounding(d, key.last().copied().unwrap_or(0));
                }
                let text = phoenix::format_component(*c, v);
                match phoenix::parse_component(&text) {
                    Ok(back) => assert!(
                        back == (*c, v.clone()),
                        "{text:?} parses to {back:?}, not {:?}",
                        (c, v)
                    ),
                    Err(e) => panic!("phoenix::format_component wrote {text:?}: {e}"),
                }
            }
        }
        Err(e) => assert_error_located(&e, key, "phoenix::decode_row_key"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_paths_hold_on_their_edges() {
        // Old HBase keys of 1E+702 and 1E+1000, and a current key the old
        // encoder never wrote.
        let f = [hbase::Field::asc(hbase::Kind::Numeric)];
        for key in [
            "22f16fc8",
            "22f170010101010101010101010101010101010100",
            "22f20502",
        ] {
            let k: Vec<u8> = (0..key.len() / 2)
                .map(|i| u8::from_str_radix(&key[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            check_hbase_decode(&hbase_input(&f, &k));
        }
        // Rounding down, up, and up past 10^124.
        for (text, extra) in [
            ("1.5", 3),
            ("-2.5", 8),
            ("9.9999999999999999999999999999999999999e123", 8),
        ] {
            check_phoenix_rounding(&text.parse().unwrap(), extra);
        }
    }

    #[test]
    fn inputs_read_back() {
        let fields = [
            hbase::Field::asc(hbase::Kind::Numeric),
            hbase::Field::desc(hbase::Kind::BlobCopy),
        ];
        let data = hbase_input(&fields, b"\x18\x02");
        assert_eq!(
            split_hbase_input(&data),
            (fields.to_vec(), &b"\x18\x02"[..])
        );
        let table = phoenix::Table::parse("varchar.desc,bigint")
            .unwrap()
            .salted(256)
            .legacy();
        let data = phoenix_input(&table, b"\x00a");
        assert_eq!(split_phoenix_input(&data), (table, &b"\x00a"[..]));
        let table = phoenix::Table::parse("unsigned_timestamp").unwrap();
        let data = phoenix_input(&table, b"");
        assert_eq!(split_phoenix_input(&data), (table, &b""[..]));
        let table = phoenix::Table::parse("decimal.desc,char(3),binary(256).desc").unwrap();
        let data = phoenix_input(&table, b"\x3e");
        assert_eq!(split_phoenix_input(&data), (table, &b"\x3e"[..]));
    }

    #[test]
    fn published_vectors_pass() {
        check_fdb_unpack(b"\x02F\xc3\x94O\x00\xffbar\x00\x11\xabK\x93");
        check_fdb_unpack(b"\x1d\x08\xff\xff\xff\xff\xff\xff\xff\xff");
        let fields = [
            hbase::Field::asc(hbase::Kind::Numeric),
            hbase::Field::asc(hbase::Kind::Text),
        ];
        check_hbase_decode(&hbase_input(&fields, b"\x18\x02\x34foo\x00"));
        let table = phoenix::Table::parse("varchar,bigint.desc").unwrap();
        check_phoenix_decode(&phoenix_input(
            &table,
            b"a\x00\x7f\xff\xff\xff\xff\xff\xff\xfe",
        ));
        let table = phoenix::Table::parse("decimal,char(3).desc,binary(2)").unwrap();
        check_phoenix_decode(&phoenix_input(
            &table,
            b"\x3e\x64\x33\x66\x00\x9e\x9d\xdf\x01\x00",
        ));
        for data in [&b""[..], b"\xff", b"\x0f\xff\xff\xff"] {
            check_fdb_unpack(data);
            check_hbase_decode(data);
            check_phoenix_decode(data);
        }
    }
}
