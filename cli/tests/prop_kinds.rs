//! Properties of the command line's kinds (`ulid`, `uuid7`, `geo`) and of
//! salted keys and ranges, run in-process through `lexikey_cli::run`:
//! round trips through encode and decode (canonical text back), the key of
//! a kind equals the key of the core type it is stored as, key order is
//! value order, and a salted range's N physical ranges hold exactly the
//! salted keys of the values the predicate selects.

use std::ffi::OsString;

use lexikey::kinds::geo::{Curve, Grid};
use lexikey::kinds::timeid::{uuid7, Ulid};
use lexikey::value::literal::{format_ts, format_uuid};
use proptest::prelude::*;

const FORMATS: [&str; 4] = ["hex", "base64", "decimal", "binary"];

/// Runs the CLI in-process: stdout, or the error's message.
fn run(args: &[String], stdin: &[u8]) -> Result<String, String> {
    let argv: Vec<OsString> = args.iter().map(OsString::from).collect();
    let mut input: &[u8] = stdin;
    let mut out = Vec::new();
    let r = lexikey_cli::run(
        &argv,
        &mut lexikey_cli::Io {
            stdin: &mut input,
            stdout: &mut out,
        },
    );
    match r {
        Ok(()) => Ok(String::from_utf8(out).expect("UTF-8 output")),
        Err(e) => Err(format!("{e:#}")),
    }
}

fn ok(args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run(&args, b"").unwrap_or_else(|e| panic!("lexikey {args:?}: {e}"))
}

fn ok_with(args: &[&str], stdin: &[u8]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run(&args, stdin).unwrap_or_else(|e| panic!("lexikey {args:?}: {e}"))
}

/// The key bytes of one output line (binary keys are printed as hex).
fn key_bytes(format: &str, line: &str) -> Vec<u8> {
    if format == "binary" {
        (0..line.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
            .collect()
    } else {
        line.as_bytes().to_vec()
    }
}

fn dir() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(""), Just(".desc")]
}

fn u128_edgy() -> impl Strategy<Value = u128> {
    prop_oneof![
        Just(0u128),
        Just(u128::MAX),
        Just(1u128),
        Just(1u128 << 127),
        any::<u128>(),
        any::<u128>(),
    ]
}

/// The lenient spellings of a ULID the spec allows: any case, `I`/`L` for
/// `1`, `O` for `0`.
fn spell(canonical: &str, choices: &[u8]) -> String {
    canonical
        .chars()
        .zip(choices.iter().cycle())
        .map(|(c, &k)| match (c, k % 4) {
            ('1', 1) => 'I',
            ('1', 2) => 'l',
            ('0', 1) => 'O',
            ('0', 2) => 'o',
            (c, 3) => c.to_ascii_lowercase(),
            (c, _) => c,
        })
        .collect()
}

proptest! {
    #[test]
    fn ulid_round_trip_and_order(
        a in u128_edgy(),
        b in u128_edgy(),
        format in prop::sample::select(&FORMATS[..]),
        d in dir(),
        choices in prop::collection::vec(any::<u8>(), 1..8),
    ) {
        let text = Ulid(a).encode();
        let input = spell(&text, &choices);
        let key = ok(&["encode", "--format", format, &format!("ulid{d}:{input}")]);
        // The key of the same 128 bits as a uuid.
        let mut h = String::new();
        format_uuid(a, &mut h);
        prop_assert_eq!(&key, &ok(&["encode", "--format", format, &format!("uuid{d}:{h}")]));
        // Back: the canonical ULID.
        let back = ok(&["decode", "--format", format, "--schema", &format!("ulid{d}"), "--", key.trim_end()]);
        prop_assert_eq!(back, format!("ulid{d}:{text}\n"));
        // Order: key order is ID order (reversed for .desc).
        let kb = ok(&["encode", "--format", format, &format!("ulid{d}:{}", Ulid(b).encode())]);
        let (ka, kb) = (key_bytes(format, key.trim_end()), key_bytes(format, kb.trim_end()));
        let want = if d.is_empty() { a.cmp(&b) } else { b.cmp(&a) };
        prop_assert_eq!(ka.cmp(&kb), want);
    }

    #[test]
    fn uuid7_round_trip_and_order(
        ms in prop_oneof![Just(0i64), Just((1i64 << 48) - 1), 0i64..(1i64 << 48)],
        ra in 0u16..0x1000,
        rb in 0u64..(1u64 << 62),
        other in u128_edgy(),
        format in prop::sample::select(&FORMATS[..]),
        d in dir(),
        upper in any::<bool>(),
    ) {
        let u = uuid7(ms, ra, rb).unwrap();
        let mut h = String::new();
        format_uuid(u, &mut h);
        let input = if upper { h.to_ascii_uppercase() } else { h.clone() };
        let key = ok(&["encode", "--format", format, &format!("uuid7{d}:{input}")]);
        prop_assert_eq!(&key, &ok(&["encode", "--format", format, &format!("uuid{d}:{h}")]));
        let schema = format!("uuid7{d}");
        let back = ok(&["decode", "--format", format, "--schema", &schema, "--", key.trim_end()]);
        prop_assert_eq!(back, format!("uuid7{d}:{h}\n"));
        let json = ok(&["decode", "--json", "--format", format, "--schema", &schema, "--", key.trim_end()]);
        let mut ts = String::new();
        format_ts(ms, &mut ts);
        prop_assert!(json.contains(&format!("\"value\":\"{h}\",\"ts\":\"{ts}\"")), "{}", json);
        // Any other 128 bits: a uuid7 only when version 7 and variant 10.
        let mut o = String::new();
        format_uuid(other, &mut o);
        let r = run(&["encode".into(), format!("uuid7:{o}")], b"");
        prop_assert_eq!(r.is_ok(), lexikey::kinds::timeid::is_uuid7(other), "{:?}", r);
        if lexikey::kinds::timeid::is_uuid7(other) {
            let ko = key_bytes(format, ok(&["encode", "--format", format, &format!("uuid7{d}:{o}")]).trim_end());
            let ku = key_bytes(format, key.trim_end());
            let want = if d.is_empty() { u.cmp(&other) } else { other.cmp(&u) };
            prop_assert_eq!(ku.cmp(&ko), want);
        }
    }

    #[test]
    fn geo_round_trip(
        lat in prop_oneof![Just(-90.0f64), Just(90.0), Just(0.0), -90.0f64..=90.0],
        lon in prop_oneof![Just(-180.0f64), Just(180.0), Just(0.0), -180.0f64..=180.0],
        morton in any::<bool>(),
        bits in prop_oneof![Just(1u8), Just(32u8), 1u8..=32],
        format in prop::sample::select(&FORMATS[..]),
        d in dir(),
    ) {
        let curve = if morton { "morton" } else { "hilbert" };
        let b = bits.to_string();
        let key = ok(&["encode", "--format", format, "--curve", curve, "--bits", &b, &format!("geo{d}:{lat},{lon}")]);
        // The key of the library's code as a u64.
        let grid = Grid::new(if morton { Curve::Morton } else { Curve::Hilbert }, bits).unwrap();
        let code = grid.encode(lat, lon).unwrap();
        prop_assert_eq!(&key, &ok(&["encode", "--format", format, &format!("u64{d}:{code}")]));
        // Decoded: a point of the same cell, which encodes back to the key.
        let schema = format!("geo{d}");
        let back = ok(&["decode", "--format", format, "--curve", curve, "--bits", &b, "--schema", &schema, "--", key.trim_end()]);
        let point = back.trim_end().strip_prefix(&format!("geo{d}:")).unwrap().to_string();
        let again = ok(&["encode", "--format", format, "--curve", curve, "--bits", &b, &format!("geo{d}:{point}")]);
        prop_assert_eq!(&again, &key, "{}", point);
        let (plat, plon) = point.split_once(',').unwrap();
        let cell = grid.bounds(code).unwrap();
        let (plat, plon): (f64, f64) = (plat.parse().unwrap(), plon.parse().unwrap());
        prop_assert!(cell.min_lat <= plat && plat <= cell.max_lat && cell.min_lon <= plon && plon <= cell.max_lon);
    }

    #[test]
    fn bbox_ranges_hold_every_point_of_the_box(
        lat0 in -90.0f64..=90.0,
        dlat in 0.0f64..20.0,
        lon0 in -180.0f64..=180.0,
        dlon in 0.0f64..40.0,
        morton in any::<bool>(),
        bits in 1u8..=24,
        max in 1usize..=16,
        points in prop::collection::vec((0.0f64..=1.0, 0.0f64..=1.0), 1..20),
        format in prop::sample::select(&FORMATS[..]),
    ) {
        let lat1 = (lat0 + dlat).min(90.0);
        // May cross the antimeridian: lon1 < lon0 then.
        let mut lon1 = lon0 + dlon;
        if lon1 > 180.0 {
            lon1 -= 360.0;
        }
        let curve = if morton { "morton" } else { "hilbert" };
        let b = bits.to_string();
        let bbox = format!("{lat0},{lon0},{lat1},{lon1}");
        let out = ok(&["range", "--format", format, "--curve", curve, "--bits", &b, "--bbox", &bbox,
            "--max-ranges", &max.to_string(), "str:p"]);
        let lines: Vec<&str> = out.lines().collect();
        prop_assert!(lines.len().is_multiple_of(2) && !lines.is_empty() && lines.len() / 2 <= max);
        let ranges: Vec<(Vec<u8>, Vec<u8>)> = lines
            .chunks(2)
            .map(|p| (key_bytes(format, p[0]), key_bytes(format, p[1])))
            .collect();
        for (fy, fx) in points {
            let lat = lat0 + (lat1 - lat0) * fy;
            let lon = if lon1 >= lon0 {
                lon0 + (lon1 - lon0) * fx
            } else {
                let w = 360.0 - (lon0 - lon1);
                let l = lon0 + w * fx;
                if l > 180.0 { l - 360.0 } else { l }
            };
            let key = ok(&["encode", "--format", format, "--curve", curve, "--bits", &b, "str:p", &format!("geo:{lat},{lon}")]);
            let k = key_bytes(format, key.trim_end());
            prop_assert!(
                ranges.iter().any(|(s, e)| s <= &k && &k < e),
                "point {},{} (key {}) outside every range of {}", lat, lon, key.trim_end(), bbox
            );
        }
    }

    #[test]
    fn salted_ranges_hold_exactly_the_selected_keys(
        rows in prop::collection::vec(
            (prop::sample::select(&["p", "p#", "p ", "q", "", "p%"][..]), prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0i64), -5i64..5, -5i64..5]),
            1..24,
        ),
        op in prop::sample::select(&["ge", "gt", "le", "lt", "eq", "none"][..]),
        bound in prop_oneof![Just(i64::MIN), Just(i64::MAX), -6i64..6],
        n in prop_oneof![Just(1u32), Just(255u32), 1u32..=8],
        phoenix in any::<bool>(),
        format in prop::sample::select(&FORMATS[..]),
    ) {
        let mode = if phoenix { "phoenix" } else { "fast" };
        let nn = n.to_string();
        let salt = ["--salt-buckets", nn.as_str(), "--salt-mode", mode];
        let stdin: String = rows.iter().map(|(s, x)| format!("{s}\t{x}\n")).collect();
        let keys = ok_with(
            &[&["encode", "--stdin", "--schema", "str,i64", "--format", format][..], &salt].concat(),
            stdin.as_bytes(),
        );
        let mut args = vec!["range", "--format", format];
        args.extend(salt);
        args.push("str:p");
        let b = format!("i64:{bound}");
        if op != "none" {
            args.push(match op {
                "ge" => "--ge",
                "gt" => "--gt",
                "le" => "--le",
                "lt" => "--lt",
                _ => "--eq",
            });
            args.push(&b);
        }
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = match run(&args, b"") {
            Ok(o) => o,
            // An empty logical range (e.g. nothing is > i64::MAX) is refused.
            Err(e) => {
                prop_assert!(e.contains("no key can match"), "{}", e);
                return Ok(());
            }
        };
        let lines: Vec<&str> = out.lines().collect();
        prop_assert_eq!(lines.len(), 2 * n as usize, "one range per bucket");
        let ranges: Vec<(Vec<u8>, Option<Vec<u8>>)> = lines
            .chunks(2)
            .map(|p| (key_bytes(format, p[0]), (!p[1].is_empty()).then(|| key_bytes(format, p[1]))))
            .collect();
        for ((s, x), key) in rows.iter().zip(keys.lines()) {
            let k = key_bytes(format, key);
            let selected = *s == "p"
                && match op {
                    "ge" => *x >= bound,
                    "gt" => *x > bound,
                    "le" => *x <= bound,
                    "lt" => *x < bound,
                    "eq" => *x == bound,
                    _ => true,
                };
            let inside: Vec<usize> = ranges
                .iter()
                .enumerate()
                .filter(|(_, (st, e))| st <= &k && e.as_ref().is_none_or(|e| &k < e))
                .map(|(i, _)| i)
                .collect();
            prop_assert_eq!(!inside.is_empty(), selected, "{:?} {:?}: key {} in ranges {:?}", s, x, key, inside);
            if selected {
                // In the range of its own bucket only, bucket i being range i.
                let bucket = if format == "binary" {
                    k[0] as usize
                } else {
                    usize::from_str_radix(std::str::from_utf8(&k[..2]).unwrap(), 16).unwrap()
                };
                prop_assert_eq!(inside, vec![bucket]);
            }
        }
    }

    #[test]
    fn arbitrary_keys_never_panic_and_what_decodes_reencodes(
        noise in prop::collection::vec(any::<u8>(), 0..48),
        id in u128_edgy(),
        lat in -90.0f64..=90.0,
        lon in -180.0f64..=180.0,
        mutate in prop::option::of((any::<prop::sample::Index>(), prop::sample::select(&b"0123456789ABCDEFabfgGuU#%$~-\x00\xff"[..]))),
        arbitrary in prop::bool::weighted(0.2),
        format in prop::sample::select(&FORMATS[..]),
        schema in prop::sample::select(&["ulid", "uuid7.desc", "geo", "str,ulid.desc,geo.desc", "uuid7,i64"][..]),
        salt in prop::sample::select(&["", "1", "3", "255"][..]),
        morton in any::<bool>(),
        bits in 1u8..=32,
    ) {
        let b = bits.to_string();
        let curve = if morton { "morton" } else { "hilbert" };
        let geo = schema.contains("geo");
        let mut opts: Vec<&str> = vec!["--format", format];
        if geo {
            opts.extend(["--curve", curve, "--bits", &b]);
        }
        if !salt.is_empty() {
            opts.extend(["--salt-buckets", salt]);
        }
        // A valid key of the schema (IDs made v7 where needed), mutated, or noise.
        let mut key = if arbitrary {
            noise
        } else {
            let v7 = (id & !(0xF << 76) & !(0b11 << 62)) | (7 << 76) | (0b10 << 62);
            let comps: Vec<String> = schema
                .split(',')
                .map(|f| {
                    let ty = f.split('.').next().unwrap();
                    let v = match ty {
                        "ulid" => Ulid(id).encode(),
                        "uuid7" => {
                            let mut h = String::new();
                            format_uuid(v7, &mut h);
                            h
                        }
                        "geo" => format!("{lat},{lon}"),
                        "i64" => (id as i64).to_string(),
                        _ => "a b".to_string(),
                    };
                    format!("{f}:{v}")
                })
                .collect();
            let mut args: Vec<&str> = vec!["encode"];
            args.extend(&opts);
            args.push("--");
            args.extend(comps.iter().map(String::as_str));
            key_bytes(format, ok(&args).trim_end())
        };
        if let Some((at, byte)) = mutate {
            if !key.is_empty() {
                let i = at.index(key.len());
                key[i] = byte;
            }
        }
        let text = if format == "binary" {
            key.iter().map(|x| format!("{x:02x}")).collect::<String>()
        } else {
            String::from_utf8_lossy(&key).into_owned()
        };
        let mut args: Vec<String> = ["decode", "--schema", schema].iter().chain(&opts).map(|s| s.to_string()).collect();
        args.extend(["--".to_string(), text.clone()]);
        if let Ok(out) = run(&args, b"") {
            let mut enc: Vec<String> = ["encode"].iter().chain(&opts).map(|s| s.to_string()).collect();
            enc.push("--".into());
            enc.extend(out.lines().map(String::from));
            let again = run(&enc, b"").unwrap_or_else(|e| panic!("{enc:?}: {e}"));
            prop_assert_eq!(again.trim_end(), text.as_str());
        } else {
            prop_assert!(arbitrary || mutate.is_some(), "a valid key did not decode: {}", text);
        }
    }
}
