//! Page cursors: paging through random tables (salted and not, rows
//! inserted and deleted between pages) sees every row present throughout
//! exactly once, in order; damaged, foreign and forged tokens are errors.

use std::collections::{BTreeMap, BTreeSet};

use lexikey::store::alloc::{Allocator, AllocatorConfig};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::MemStore;
use lexikey::{Component, Format, KeyRange};
use lexikey_design::cursor::{scan_cursor, scan_resume, Cursor, CursorError, Fingerprint};
use proptest::prelude::*;

#[path = "../../tests/support/size.rs"]
mod size;

/// A change between pages: insert or delete the row of this logical ID.
#[derive(Debug, Clone)]
enum Op {
    Insert(u16),
    Delete(u16),
}

fn ops() -> impl Strategy<Value = Vec<Vec<Op>>> {
    let op = prop_oneof![
        any::<u16>().prop_map(Op::Insert),
        any::<u16>().prop_map(Op::Delete)
    ];
    prop::collection::vec(prop::collection::vec(op, 0..6), 0..40)
}

/// The key of row `id` without salt: binary, or text (`t#04D2`).
fn logical(id: u16, text: bool) -> Vec<u8> {
    let mut k = b"t#".to_vec();
    if text {
        k.extend_from_slice(format!("{id:04X}").as_bytes());
    } else {
        k.extend_from_slice(&id.to_be_bytes());
    }
    k
}

/// Reads one page of `page` rows from `ranges` as a salted reader does:
/// up to `page` keys of each range, merged by the key without its salt.
fn read_page(
    store: &BTreeMap<Vec<u8>, ()>,
    ranges: &[KeyRange],
    salt_len: usize,
    page: usize,
) -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = ranges
        .iter()
        .flat_map(|r| {
            store
                .keys()
                .filter(|k| r.contains(k))
                .take(page)
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect();
    keys.sort_by(|a, b| a[salt_len..].cmp(&b[salt_len..]));
    keys.truncate(page);
    keys
}

proptest! {
    // 96 cases at CI size, 1,000 at the full size (LEXIKEY_TEST_SIZE=full).
    #![proptest_config(ProptestConfig::with_cases(size::pick(96, 1_000)))]

    /// Any table, salted into 0 (none) to 5 buckets, read page by page
    /// through tokens (signed or not) with rows inserted and deleted between
    /// pages: the rows seen rise strictly (no row twice, the merge in
    /// order), and every row present throughout is seen.
    #[test]
    fn pages_see_every_row_once_in_order(
        initial in prop::collection::btree_set(any::<u16>(), 0..60),
        buckets in 0u8..6,
        page in 1usize..9,
        changes in ops(),
        secret in prop::option::of(prop::collection::vec(any::<u8>(), 0..20)),
        text in any::<bool>(),
    ) {
        let format = if text { Format::Hex } else { Format::Binary };
        let salter = (buckets > 0).then(|| Salter::new(buckets, SaltMode::Fast).unwrap().for_format(format));
        let logical = |id| logical(id, text);
        let salt_len = salter.as_ref().map_or(0, |s| s.salt_len());
        let physical = |id: u16| match &salter {
            Some(s) => s.salted_key(&logical(id)),
            None => logical(id),
        };
        let whole = KeyRange { start: Some(b"t#".to_vec()), end: Some(b"t$".to_vec()) };
        let ranges: Vec<KeyRange> = match &salter {
            Some(s) => (0..s.buckets()).map(|b| s.bucket_range(b, &whole)).collect(),
            None => vec![whole],
        };
        let fp = Fingerprint::of(format!("test table, {buckets} buckets").as_bytes());
        let mut store: BTreeMap<Vec<u8>, ()> = initial.iter().map(|&id| (physical(id), ())).collect();
        let mut throughout: BTreeSet<u16> = initial.clone();
        let mut token = Cursor::new(fp, ranges.clone()).to_token(secret.as_deref());
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut changes = changes.into_iter();
        loop {
            let cursor = Cursor::resume(&token, fp, &ranges, secret.as_deref()).unwrap();
            let rows = read_page(&store, &cursor.next_ranges(text), salt_len, page);
            seen.extend(rows.iter().map(|k| k[salt_len..].to_vec()));
            if rows.len() < page {
                break;
            }
            let next = cursor.advance(rows.last().unwrap(), salt_len).unwrap();
            token = next.to_token(secret.as_deref());
            for op in changes.next().unwrap_or_default() {
                match op {
                    Op::Insert(id) => {
                        store.insert(physical(id), ());
                    }
                    Op::Delete(id) => {
                        store.remove(&physical(id));
                        throughout.remove(&id);
                    }
                }
            }
        }
        prop_assert!(seen.windows(2).all(|w| w[0] < w[1]), "not strictly rising: {seen:?}");
        let seen: BTreeSet<Vec<u8>> = seen.into_iter().collect();
        for id in throughout {
            prop_assert!(seen.contains(&logical(id)), "row {id} never seen");
        }
    }

    /// An upside-down table (salted or not) read with `scan_after` from
    /// `scan_resume` of the last page's `scan_cursor` token, rows inserted
    /// and deleted between pages: every row present throughout is seen
    /// once, newest first.
    #[test]
    fn table_scan_pages_see_every_row_once(
        n in 0u64..40,
        buckets in 0u8..5,
        format in prop_oneof![Just(Format::Hex), Just(Format::Decimal), Just(Format::Binary)],
        page in 1usize..7,
        changes in prop::collection::vec(prop::collection::vec((any::<bool>(), any::<u16>()), 0..4), 0..30),
    ) {
        let mut config = AllocatorConfig::new(format, &[Component::asc("t")]).with_start(1_000);
        if buckets > 0 {
            config = config.with_salt(Salter::new(buckets, SaltMode::Fast).unwrap().for_format(format));
        }
        let alloc = Allocator::new(MemStore::new(), config).unwrap();
        let mut throughout: BTreeSet<u64> = (0..n).map(|_| alloc.insert(b"v").unwrap()).collect();
        let mut live: Vec<u64> = throughout.iter().copied().collect();
        let mut after = None;
        let mut seen = Vec::new();
        let mut changes = changes.into_iter();
        loop {
            let rows = alloc.scan_after(after, page).unwrap();
            seen.extend(rows.iter().map(|r| r.0));
            let Some(&(last, _)) = rows.last() else { break };
            if rows.len() < page {
                break;
            }
            let token = scan_cursor(&alloc, last).unwrap().to_token(None);
            for (insert, pick) in changes.next().unwrap_or_default() {
                if insert {
                    live.push(alloc.insert(b"w").unwrap());
                } else if !live.is_empty() {
                    let id = live.swap_remove(usize::from(pick) % live.len());
                    alloc.delete(id).unwrap();
                    throughout.remove(&id);
                }
            }
            after = scan_resume(&alloc, &token, None).unwrap();
            prop_assert_eq!(after, Some(last));
        }
        prop_assert!(seen.windows(2).all(|w| w[0] < w[1]), "not strictly rising: {seen:?}");
        let seen: BTreeSet<u64> = seen.into_iter().collect();
        prop_assert!(throughout.is_subset(&seen), "missed {:?}", throughout.difference(&seen).collect::<Vec<_>>());
    }

    /// Any change to a token's bytes (one byte changed, bytes cut off or
    /// added) is an error, signed or not; never a panic, never a cursor.
    #[test]
    fn damaged_tokens_are_errors(
        keys in prop::collection::vec(prop::collection::vec(any::<u8>(), 1..12), 1..5),
        secret in prop::option::of(prop::collection::vec(any::<u8>(), 0..20)),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
        cut in 1usize..8,
        extra in prop::collection::vec(any::<u8>(), 1..4),
    ) {
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let fp = Fingerprint::of(b"s");
        let ranges: Vec<KeyRange> = keys.iter().map(|k| KeyRange { start: Some(k.clone()), end: None }).collect();
        let cursor = Cursor::new(fp, ranges.clone()).advance(&[keys[0].clone(), vec![7]].concat(), 0).unwrap();
        let token = cursor.to_token(secret.as_deref());
        prop_assert_eq!(Cursor::resume(&token, fp, &ranges, secret.as_deref()), Ok(cursor));
        let bytes = b64.decode(&token).unwrap();
        let mut flipped = bytes.clone();
        let i = at.index(bytes.len());
        flipped[i] ^= flip;
        let cut_off = &bytes[..bytes.len().saturating_sub(cut)];
        let longer = [bytes.clone(), extra].concat();
        for bad in [flipped, cut_off.to_vec(), longer] {
            prop_assert!(Cursor::from_token(&b64.encode(bad), fp, secret.as_deref()).is_err());
        }
        // Not base64url: the offset of the first bad character.
        let mut text = token.clone();
        text.insert(i.min(text.len()), '=');
        prop_assert_eq!(
            Cursor::from_token(&text, fp, secret.as_deref()),
            Err(CursorError::Base64(i.min(token.len())))
        );
    }

    /// A token is refused by another schema, by other ranges, and, when
    /// the reader holds a secret, unless made with that secret.
    #[test]
    fn foreign_and_forged_tokens_are_errors(
        key in prop::collection::vec(any::<u8>(), 1..12),
        secret in prop::collection::vec(any::<u8>(), 0..20),
        other in prop::collection::vec(any::<u8>(), 0..20),
    ) {
        let fp = Fingerprint::of(b"schema a");
        let ranges = vec![KeyRange { start: None, end: None }];
        let cursor = Cursor::new(fp, ranges.clone()).advance(&key, 0).unwrap();
        let fp_b = Fingerprint::of(b"schema b");
        prop_assert_eq!(
            Cursor::from_token(&cursor.to_token(None), fp_b, None),
            Err(CursorError::OtherSchema { token: fp, schema: fp_b })
        );
        let narrower = vec![KeyRange { start: Some(vec![]), end: None }];
        prop_assert_eq!(Cursor::resume(&cursor.to_token(None), fp, &narrower, None), Err(CursorError::OtherRange));
        // A client without the secret can only make an unsigned token.
        prop_assert_eq!(Cursor::from_token(&cursor.to_token(None), fp, Some(&secret)), Err(CursorError::Unsigned));
        prop_assert_eq!(Cursor::from_token(&cursor.to_token(Some(&secret)), fp, None), Err(CursorError::NeedSecret));
        if other != secret {
            prop_assert_eq!(Cursor::from_token(&cursor.to_token(Some(&other)), fp, Some(&secret)), Err(CursorError::Forged));
        }
    }
}

/// A token from the format's description, checked both ways: the bytes
/// were written out by hand from the layout in the module docs (version 1,
/// unsigned, fingerprint of "v", one range [a, b) read up to "a1").
#[test]
fn token_golden_vector() {
    let fp = Fingerprint::of(b"v");
    let range = KeyRange {
        start: Some(b"a".to_vec()),
        end: Some(b"b".to_vec()),
    };
    let cursor = Cursor::new(fp, vec![range.clone()])
        .advance(b"a1", 0)
        .unwrap();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/cursor/v1.txt"
    ))
    .unwrap();
    let mut lines = golden.lines().filter(|l| !l.starts_with('#'));
    let body_hex = lines.next().unwrap();
    let token = lines.next().unwrap();
    let mut body: Vec<u8> = (0..body_hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&body_hex[i..i + 2], 16).unwrap())
        .collect();
    // The check: SHA-256 of the body, first 4 bytes (sha2 is the reference).
    use sha2::Digest as _;
    let check = sha2::Sha256::digest(&body);
    body.extend_from_slice(&check[..4]);
    use base64::Engine as _;
    assert_eq!(
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&body),
        token
    );
    assert_eq!(cursor.to_token(None), token);
    assert_eq!(Cursor::resume(token, fp, &[range], None), Ok(cursor));
}

/// The fingerprints of fixtures/cursor/fingerprints.tsv (spellings written
/// out by hand, SHA-256 by Python's hashlib), checked both ways: each
/// layout spells as the fixture writes it, and each spelling hashes to the
/// fixture's fingerprint. A change of the spelling (or of a name in it)
/// fails here: it would break every cursor already handed out.
#[test]
fn fingerprints_are_golden() {
    use lexikey::frontend::key_format::KeyFormat;
    use lexikey::frontend::native::GeoOpts;
    use lexikey::frontend::profile::Options;
    use lexikey::interop::hbase::{Codec, NumericEncoding};
    use lexikey::kinds::geo::Curve;
    use lexikey_design::cursor::{layout_spelling, spec_fingerprint, table_spelling};

    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/cursor/fingerprints.tsv"
    ))
    .unwrap();
    let mut kinds = BTreeSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let c: Vec<&str> = line.split('\t').collect();
        let [kind, format, width, buckets, mode, numeric, geo, spelling, fp] = c[..] else {
            panic!("9 columns: {line}");
        };
        let buckets: Option<u32> = (buckets != "-").then(|| buckets.parse().unwrap());
        let mode = SaltMode::from_name(mode);
        let got = match kind {
            "layout" => {
                let format = KeyFormat::parse(format).unwrap();
                let (curve, bits) = geo.split_once('/').unwrap();
                let mut spec = lexikey::frontend::spec::KeySpec::new(format)
                    .with_width((width != "-").then(|| width.parse().unwrap()))
                    .unwrap()
                    .with_geo(
                        GeoOpts::new(Curve::from_name(curve), Some(bits.parse().unwrap())).unwrap(),
                    );
                let codec = Codec::new(NumericEncoding::from_name(numeric).unwrap());
                match format {
                    KeyFormat::Native(_) => {
                        let salter = buckets.map(|n| Salter::with_count(n, mode.unwrap()).unwrap());
                        spec = spec.with_salter(salter).unwrap();
                    }
                    KeyFormat::Profile(_) => {
                        let opts = Options {
                            salt: buckets.map(|n| u16::try_from(n).unwrap()),
                            hbase: codec,
                            ..Options::default()
                        };
                        spec = spec.with_profile_options(opts).unwrap();
                    }
                }
                // The schema and the key length limit are not in it.
                let with_schema = spec.clone().with_max_key_len(9).with_schema(match format {
                    KeyFormat::Native(_) => "str,i64.desc",
                    KeyFormat::Profile(p) if p.name() == "fdb-tuple" => "str,int",
                    KeyFormat::Profile(p) if p.name() == "phoenix" => "varchar,bigint",
                    KeyFormat::Profile(_) => "string,int64",
                });
                let with_schema = with_schema.unwrap();
                assert_eq!(spec_fingerprint(&with_schema), spec_fingerprint(&spec));
                assert_eq!(spec_fingerprint(&spec).to_string(), fp, "{line}");
                layout_spelling(&spec)
            }
            "table" => {
                let format = Format::parse(format).unwrap();
                let salter = buckets.map(|n| Salter::with_count(n, mode.unwrap()).unwrap());
                table_spelling(format, salter.as_ref())
            }
            _ => panic!("kind {kind}"),
        };
        assert_eq!(got, spelling, "{line}");
        assert_eq!(
            Fingerprint::of(spelling.as_bytes()).to_string(),
            fp,
            "{line}"
        );
        kinds.insert(kind);
    }
    assert_eq!(kinds.len(), 2);
}
