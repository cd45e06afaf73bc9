//! Properties of the decoders outside the key formats: ULIDs and UUIDv7
//! fields, store URLs, queue keys and queue records, salted keys, geo codes.
//!
//! | target | input | property |
//! |---|---|---|
//! | `decode_ulid` | text / bytes | `Ulid::decode` / `parse_strict` / `parse` never panic, errors lie inside the input; strict accepts exactly what `encode` writes (redecode exact); lenient agrees with strict on the canonical form and ignores case; the first 16 bytes as a `u128` survive `encode` → `parse_strict`, and as a UUIDv7 `uuid7_parts` → `uuid7` |
//! | `parse_store_url` | selector byte, text | `lexikey_stores::parse_url` never panics, errors are fatal; an accepted URL's `connect_url` parses to the same spec, and its `to_url` (password hidden) renders to itself. The same for the text with credentials spliced in (`SCHEME://USER:SECRET@…`, `?password=SECRET`): the secret shows in no error, no `to_url`, `Display` or `Debug`, nor in `open`'s errors (called only where no adapter is reached: no file created, no server dialled), but `connect_url` keeps it |
//! | `decode_queue_key` | prefix byte, width byte, key | `QueueKeys::decode` never panics, errors lie inside the key, an accepted key re-encodes to itself (`key(q, seq)`); `QueueMeta::parse` accepts exactly what `to_bytes` writes |
//! | `decode_salted` | buckets, mode byte, salted key | `Salter::unsalt` never panics, errors lie inside the key; an accepted key re-salts to itself |
//! | `decode_geo` | curve, bits, code (8 bytes) | `Grid::decode` never panics, accepts exactly the codes `<= max_code`; a cell's code is the code; the cell's center encodes back to it |

use lexikey::kinds::geo::{morton_decode, morton_encode, Curve, Grid};
use lexikey::kinds::timeid::{is_uuid7, uuid7, uuid7_parts, uuid7_timestamp, Ulid};
use lexikey::store::queue::{IdWidth, QueueKeys, QueueMeta};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::{Component, Format};

use crate::show;

/// The four formats, picked by a byte.
fn format(b: u8) -> Format {
    Format::ALL[usize::from(b) % Format::ALL.len()]
}

// ---------------------------------------------------------------------------
// decode_ulid
// ---------------------------------------------------------------------------

/// See the module docs. The whole input is the text (or bytes) to parse.
pub fn check_decode_ulid(data: &[u8]) {
    // Strict, on bytes: accepts exactly what encode writes.
    match Ulid::decode(data) {
        Ok(id) => assert_eq!(
            id.encode().as_bytes(),
            data,
            "strict decode of {} is not canonical",
            show(data)
        ),
        Err(e) => assert!(e.offset() <= data.len(), "{e} outside {}", show(data)),
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let strict = Ulid::parse_strict(s);
        assert_eq!(
            strict.as_ref().ok(),
            Ulid::decode(data).as_ref().ok(),
            "parse_strict and decode disagree on {s:?}"
        );
        match Ulid::parse(s) {
            Ok(id) => {
                if let Ok(sid) = strict {
                    assert_eq!(sid, id, "strict and lenient disagree on {s:?}");
                }
                // The canonical form parses to the same ID both ways.
                let canonical = id.encode();
                assert_eq!(Ulid::parse_strict(&canonical), Ok(id), "{s:?}");
                assert_eq!(Ulid::parse(&canonical), Ok(id), "{s:?}");
                // Case does not matter to the lenient parser.
                assert_eq!(Ulid::parse(&s.to_ascii_uppercase()), Ok(id), "{s:?}");
                assert_eq!(Ulid::parse(&s.to_ascii_lowercase()), Ok(id), "{s:?}");
                // A non-canonical text is refused by the strict parser.
                if s != canonical {
                    assert!(Ulid::parse_strict(s).is_err(), "{s:?} != {canonical:?}");
                }
            }
            Err(e) => {
                assert!(e.offset() <= s.len(), "{e} outside {s:?}");
                assert!(
                    strict.is_err(),
                    "strict accepts {s:?}, lenient refuses it: {e}"
                );
            }
        }
    }
    // The first 16 bytes as an ID: encode → parse_strict.
    if let Some(b) = data.get(..16) {
        let u = u128::from_be_bytes(b.try_into().unwrap_or_default());
        let id = Ulid(u);
        assert_eq!(Ulid::parse_strict(&id.encode()), Ok(id));
        assert_eq!(&id.to_bytes()[..], id.encode().as_bytes());
        // UUIDv7 fields.
        match uuid7_parts(u) {
            Some((ms, a, r)) => {
                assert!(is_uuid7(u));
                assert_eq!(uuid7_timestamp(u), Some(ms));
                assert_eq!(uuid7(ms, a, r).ok(), Some(u), "uuid7 fields of {u:032x}");
            }
            None => {
                assert!(!is_uuid7(u));
                assert_eq!(uuid7_timestamp(u), None);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// parse_store_url
// ---------------------------------------------------------------------------

/// The password spliced into store URLs: it must never show.
const SECRET: &str = "FuzzS3cret-pw";

/// Where [`SECRET`] goes, picked by a byte: `(prefix, suffix)` around the
/// fuzzed text.
const CREDENTIAL_SHAPES: &[(&str, &str)] = &[
    ("redis://u:FuzzS3cret-pw@", ""),
    ("rediss://:FuzzS3cret-pw@", ""),
    ("postgres://alice:FuzzS3cret-pw@", ""),
    ("postgresql://alice@", "?password=FuzzS3cret-pw"),
    ("etcd://root:FuzzS3cret-pw@", ""),
    ("etcd+https://root:FuzzS3cret-pw@", ""),
    ("redis:u:FuzzS3cret-pw@", ""),
    ("postgres://a:FuzzS3cret-pw@h:1/db?", ""),
    ("bigtable://u:FuzzS3cret-pw@", ""),
    ("bigtable://p/i?password=FuzzS3cret-pw&", ""),
];

/// See the module docs. The whole input is a URL (when it is UTF-8); the
/// first byte also picks a credential shape for the rest.
pub fn check_parse_store_url(data: &[u8]) {
    let Ok(url) = std::str::from_utf8(data) else {
        return;
    };
    check_store_url(url, None);
    if let Some((&pick, rest)) = data.split_first() {
        if let Ok(rest) = std::str::from_utf8(rest) {
            let (pre, post) = CREDENTIAL_SHAPES[pick as usize % CREDENTIAL_SHAPES.len()];
            // Text that holds the secret itself may legitimately show it.
            if !rest.contains(SECRET) {
                check_store_url(&format!("{pre}{rest}{post}"), Some(SECRET));
            }
        }
    }
}

/// The properties of one URL; `secret`: a password it holds, which must not
/// show anywhere but in `connect_url`.
fn check_store_url(url: &str, secret: Option<&str>) {
    let hidden = |what: &str, text: &str| {
        if let Some(s) = secret {
            assert!(
                !text.contains(s),
                "{url:?}: {what} shows the secret: {text:?}"
            );
        }
    };
    hidden("redact_url", &lexikey_stores::redact_url(url));
    match lexikey_stores::parse_url(url) {
        Ok(spec) => {
            let connect = spec.connect_url();
            match lexikey_stores::parse_url(&connect) {
                Ok(again) => {
                    assert_eq!(again, spec, "{url:?} → {connect:?} parses differently");
                    assert_eq!(
                        again.connect_url(),
                        connect,
                        "{url:?}: connect_url not stable"
                    );
                }
                Err(e) => panic!("{url:?} → a connect_url that does not parse: {e}"),
            }
            let shown = spec.to_url();
            hidden("to_url", &shown);
            hidden("Display", &spec.to_string());
            hidden("Debug", &format!("{spec:?}"));
            if let Ok(again) = lexikey_stores::parse_url(&shown) {
                assert_eq!(again.to_url(), shown, "{url:?}: to_url not stable");
            }
        }
        Err(e) => {
            assert!(!e.retryable, "{url:?}: a parse error must be fatal: {e}");
            hidden("the error", &e.to_string());
            hidden("the error's Debug", &format!("{e:?}"));
        }
    }
    // `open` is I/O once the URL's adapter is compiled in (the workspace's
    // test build turns the store features on in this crate too): it would
    // create `redb:` files and connect to servers. Its errors are checked
    // where it cannot reach an adapter: a URL that does not parse, the
    // memory store, a store this build lacks.
    let io_free = match lexikey_stores::parse_url(url) {
        Err(_) => true,
        Ok(spec) => spec
            .feature()
            .is_none_or(|f| !lexikey_stores::compiled_stores().contains(&f)),
    };
    if io_free {
        if let Err(e) = lexikey_stores::open(url) {
            hidden("open's error", &e.to_string());
        }
    }
}

// ---------------------------------------------------------------------------
// decode_queue_key
// ---------------------------------------------------------------------------

/// The queue prefix picked by a byte (bits 2–3).
fn queue_prefix(b: u8) -> Vec<Component<'static>> {
    match (b >> 2) & 3 {
        0 => vec![],
        1 => vec![Component::asc("queue")],
        2 => vec![Component::asc("tenant a"), Component::desc(7u32)],
        _ => vec![Component::desc("q#")],
    }
}

/// See the module docs. Byte 0: format (bits 0–1), prefix (bits 2–3),
/// `u64` ids (bit 4); the rest is the key, and also a [`QueueMeta`] record.
pub fn check_decode_queue(data: &[u8]) {
    let (head, key) = data.split_first().unwrap_or((&0, &[]));
    let width = if head & 0x10 != 0 {
        IdWidth::U64
    } else {
        IdWidth::U32
    };
    let prefix = queue_prefix(*head);
    let Ok(q) = QueueKeys::new(format(*head), &prefix, width) else {
        return; // the prefix does not encode in this format
    };
    match q.decode(key) {
        Ok((id, seq)) => {
            assert!(id <= width.max(), "id {id} wider than {width:?}");
            let again = q.key(id, seq).expect("a decoded queue key re-encodes");
            assert_eq!(again, key, "queue key {} is not canonical", show(key));
        }
        Err(e) => assert!(e.offset() <= key.len(), "{e} outside {}", show(key)),
    }
    if let Some(m) = QueueMeta::parse(key) {
        assert!(m.first <= m.next);
        assert_eq!(
            m.to_bytes(),
            key,
            "queue meta {} is not canonical",
            show(key)
        );
    }
}

// ---------------------------------------------------------------------------
// decode_salted
// ---------------------------------------------------------------------------

/// The salter of a `decode_salted` input: `buckets` (1–255), Phoenix hash
/// when bit 0 of `flags` is set, text (hex) layout when bit 1 is.
fn salter(buckets: u8, flags: u8) -> Salter {
    let mode = if flags & 1 != 0 {
        SaltMode::Phoenix
    } else {
        SaltMode::Fast
    };
    let fmt = if flags & 2 != 0 {
        Format::Hex
    } else {
        Format::Binary
    };
    Salter::new(buckets, mode)
        .expect("1..=255 buckets")
        .for_format(fmt)
}

/// See the module docs. Byte 0: buckets (0 → 1); byte 1: Phoenix hash
/// (bit 0), text layout (bit 1); the rest is the salted key.
pub fn check_unsalt(data: &[u8]) {
    let buckets = data.first().copied().unwrap_or(1).max(1);
    let flags = data.get(1).copied().unwrap_or(0);
    let key = data.get(2..).unwrap_or_default();
    let salter = salter(buckets, flags);
    match salter.unsalt(key) {
        Ok((bucket, rest)) => {
            assert!(bucket < buckets);
            assert_eq!(salter.bucket(rest), bucket);
            assert_eq!(
                salter.salted_key(rest),
                key,
                "salted key {} is not canonical",
                show(key)
            );
        }
        Err(e) => assert!(e.offset() <= key.len(), "{e} outside {}", show(key)),
    }
}

// ---------------------------------------------------------------------------
// decode_geo
// ---------------------------------------------------------------------------

/// See the module docs. Byte 0: Hilbert (bit 7), bits per axis (bits 0–5,
/// so 0 and 33–63 test the error); bytes 1–8: the code, big-endian.
pub fn check_decode_geo(data: &[u8]) {
    let head = data.first().copied().unwrap_or(0);
    let mut code = [0u8; 8];
    for (d, s) in code.iter_mut().zip(data.iter().skip(1)) {
        *d = *s;
    }
    let code = u64::from_be_bytes(code);
    let curve = if head & 0x80 != 0 {
        Curve::Hilbert
    } else {
        Curve::Morton
    };
    let (x, y) = morton_decode(code);
    assert_eq!(morton_encode(x, y), code);
    let Ok(grid) = Grid::new(curve, head & 0x3F) else {
        return;
    };
    // Fold the code into range half of the time, so that both sides of
    // the check are reached.
    let code = if data.len() > 9 && data[9] & 1 != 0 {
        code & grid.max_code()
    } else {
        code
    };
    match grid.decode(code) {
        Ok(cell) => {
            assert!(code <= grid.max_code());
            assert!(u64::from(cell.x) < grid.side() && u64::from(cell.y) < grid.side());
            assert_eq!(grid.code(cell), code, "{curve:?} {} bits", grid.bits());
            let (lat, lon) = grid.center(code).expect("a decodable code has a center");
            assert_eq!(
                grid.encode(lat, lon).ok(),
                Some(code),
                "{curve:?} {} bits: the center of {code} is in another cell",
                grid.bits()
            );
        }
        Err(_) => assert!(code > grid.max_code(), "{curve:?}: code {code} refused"),
    }
}

// ---------------------------------------------------------------------------
// Seeds
// ---------------------------------------------------------------------------

/// Seed inputs of the targets above, `(target, input)`, written in the
/// layouts they read (`examples/seed.rs` stores them).
pub fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    for s in [
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "01arz3ndektsv4rrffq69g5fav",
        "0IARZ3NDEKTSV4RRFFQ69G5FAV",
        "0lARZ3NDEKTSV4RRFFQ69G5FAo",
        "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "01ARZ3NDEKTSV4RRFFQ69G5FAU",
        "00000000000000000000000000",
        "01ARZ3NDEK",
    ] {
        out.push(("decode_ulid", s.as_bytes().to_vec()));
    }
    let v7 = uuid7(1_645_557_742_000, 0xCC3, 0x18C4_DC0C_0C07_398F).expect("a UUIDv7");
    out.push(("decode_ulid", v7.to_be_bytes().to_vec()));
    out.push(("decode_ulid", (v7 ^ 1 << 78).to_be_bytes().to_vec()));

    for url in [
        "memory:",
        "memory://?ns=a",
        "redb:/tmp/lexikey.redb?ns=comments&fsync=false",
        "redb:db?processes=many&fsync=on",
        "rocksdb:/var/lib/lexikey?ns=q",
        "redis://127.0.0.1:6379/0?ns=jobs&timeout_ms=250&protocol=resp3",
        "postgres://postgres@127.0.0.1:5433/postgres?ns=t&sslmode=disable",
        "postgresql://u@h:1/db?application_name=x=y",
        "etcd://127.0.0.1:2379,127.0.0.1:22379?ns=ids&timeout_ms=+10",
        "etcd://[::1]:2379",
        "bigtable://lexikey/test?ns=events&family=f&emulator=127.0.0.1:8086",
        "bigtable://example.com:proj-1/inst_2?app_profile=batch&timeout_ms=+10&ns=_t.1",
        "bigtable://p/i?family=-x&emulator=h",
        "redb:/tmp/x?ns=a&ns=b",
        "nosuch:x",
    ] {
        out.push(("parse_store_url", url.as_bytes().to_vec()));
    }

    for head in 0u8..32 {
        let width = if head & 0x10 != 0 {
            IdWidth::U64
        } else {
            IdWidth::U32
        };
        if let Ok(q) = QueueKeys::new(format(head), &queue_prefix(head), width) {
            for (id, seq) in [(7, 1), (0, u64::MAX), (width.max(), 0)] {
                if let Ok(key) = q.key(id, seq) {
                    out.push(("decode_queue_key", [&[head][..], &key].concat()));
                }
            }
        }
    }
    out.push(("decode_queue_key", b"\x003 7".to_vec()));
    out.push(("decode_queue_key", b"\x0003 7".to_vec()));

    for buckets in [1u8, 7, 16, 255] {
        for flags in 0u8..4 {
            let s = salter(buckets, flags);
            for key in [&b""[..], b"comments#uFFFFFFFFFFFFFFFE", b"\x00\xFF"] {
                let salted = s.salted_key(key);
                out.push(("decode_salted", [&[buckets, flags][..], &salted].concat()));
            }
        }
    }

    for (curve, bits) in [(0u8, 5u8), (0x80, 16), (0x80, 32), (0, 32), (0x80, 1)] {
        let c = if curve != 0 {
            Curve::Hilbert
        } else {
            Curve::Morton
        };
        let grid = Grid::new(c, bits).expect("bits");
        let code = grid.encode(37.7749, -122.4194).expect("a place");
        let mut input = vec![curve | bits];
        input.extend_from_slice(&code.to_be_bytes());
        input.push(0);
        out.push(("decode_geo", input));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed passes its own check (the properties hold on the seeds).
    #[test]
    fn seeds_pass() {
        for (target, data) in seeds() {
            match target {
                "decode_ulid" => check_decode_ulid(&data),
                "parse_store_url" => check_parse_store_url(&data),
                "decode_queue_key" => check_decode_queue(&data),
                "decode_salted" => check_unsalt(&data),
                "decode_geo" => check_decode_geo(&data),
                other => panic!("unknown target {other}"),
            }
        }
    }
}
