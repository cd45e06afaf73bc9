//! Round trips through the built binary: encode → decode for every type ×
//! format × direction, and bulk mode (`--stdin`) equal to per-row mode.

mod common;

use common::{ok, ok_with};

const FORMATS: [&str; 4] = ["hex", "base64", "decimal", "binary"];

/// Values per type, in canonical text form (what decode prints), with
/// edge cases. No tab or newline (those cannot be in bulk TSV rows).
fn values(ty: &str) -> &'static [&'static str] {
    match ty {
        "bool" => &["false", "true"],
        "f64" => &[
            "0.0",
            "-0.0",
            "1.5",
            "-1e300",
            "5e-324",
            "NaN",
            "inf",
            "-inf",
            "-2.2250738585072014e-308",
        ],
        "f32" => &["0.0", "-0.0", "1.5", "1e-45", "NaN", "-inf", "3.4028235e38"],
        "uuid" => &[
            "00000000-0000-0000-0000-000000000000",
            "123e4567-e89b-12d3-a456-426614174000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
        ],
        "i32" => &["-2147483648", "-1", "0", "1", "2147483647"],
        "i64" => &[
            "-9223372036854775808",
            "-1",
            "0",
            "3831868",
            "9223372036854775807",
        ],
        "ts" => &[
            "0000-01-01T00:00:00.000Z",
            "1969-12-31T23:59:59.999Z",
            "1970-01-01T00:00:00.000Z",
            "2024-02-29T23:00:00.001Z",
            "9999-12-31T23:59:59.999Z",
        ],
        "u64" => &["0", "1", "18446744073709551615"],
        "u32" => &["0", "42", "4294967295"],
        "bytes" => &["", "00", "ff", "0001ff", "000000"],
        "str" => &[
            "",
            "a",
            " !\"#$%&",
            "a%20b",
            "--x",
            "-5",
            "~",
            "é",
            "日本",
            "\u{7f}",
            "\u{1}\r",
            "a:b",
            "usa#california",
        ],
        _ => unreachable!(),
    }
}

const TYPES: [&str; 11] = [
    "bool", "f64", "f32", "uuid", "i32", "i64", "ts", "u64", "u32", "bytes", "str",
];

fn supported(format: &str, ty: &str) -> bool {
    !(format == "decimal" && (ty == "f64" || ty == "f32"))
}

#[test]
fn encode_decode_every_type_format_direction() {
    for format in FORMATS {
        for ty in TYPES {
            if !supported(format, ty) {
                continue;
            }
            for dir in ["", ".desc"] {
                let field = format!("{ty}{dir}");
                let mut keys = Vec::new();
                let mut rows = String::new();
                let mut decoded = String::new();
                for v in values(ty) {
                    let comp = format!("{field}:{v}");
                    let key = ok(&["encode", "--format", format, "--", &comp]);
                    let key = key.strip_suffix('\n').unwrap().to_string();
                    // Per-key decode with a schema prints the component back.
                    let back = ok(&["decode", "--format", format, "--schema", &field, "--", &key]);
                    assert_eq!(back, format!("{comp}\n"), "{format}: {comp} -> {key:?}");
                    // JSON decode names type and direction.
                    let json = ok(&[
                        "decode", "--json", "--format", format, "--schema", &field, "--", &key,
                    ]);
                    let want_dir = if dir.is_empty() { "asc" } else { "desc" };
                    assert!(
                        json.starts_with(&format!("{{\"components\":[{{\"type\":\"{ty}\",\"dir\":\"{want_dir}\",\"value\":")),
                        "{json}"
                    );
                    // Tagged formats also decode without a schema (ascending
                    // strings and every tagged type).
                    if matches!(format, "hex" | "base64") && (ty != "str" || dir.is_empty()) {
                        let guessed = ok(&["decode", "--format", format, "--", &key]);
                        assert_eq!(guessed, format!("{comp}\n"), "{format} schemaless: {key:?}");
                    }
                    rows.push_str(v);
                    rows.push('\n');
                    decoded.push_str(&comp);
                    decoded.push('\n');
                    keys.push(key);
                }
                // Bulk mode equals per-row mode, both directions.
                let bulk_keys = ok_with(
                    &["encode", "--format", format, "--schema", &field, "--stdin"],
                    rows.as_bytes(),
                );
                let want_keys: String = keys.iter().map(|k| format!("{k}\n")).collect();
                assert_eq!(bulk_keys, want_keys, "bulk encode {format} {field}");
                let bulk_back = ok_with(
                    &["decode", "--format", format, "--schema", &field, "--stdin"],
                    bulk_keys.as_bytes(),
                );
                assert_eq!(bulk_back, decoded, "bulk decode {format} {field}");
            }
        }
    }
}

#[test]
fn keys_sort_like_values() {
    // Ascending lists (by value) for ordered types: keys must sort the same
    // way, and reversed for descending.
    let ordered: &[(&str, &[&str])] = &[
        (
            "i64",
            &[
                "-9223372036854775808",
                "-1",
                "0",
                "1",
                "9223372036854775807",
            ],
        ),
        (
            "f64",
            &[
                "-inf", "-1e300", "-0.0", "0.0", "5e-324", "1.5", "inf", "NaN",
            ],
        ),
        ("u32", &["0", "42", "4294967295"]),
        (
            "str",
            &[
                "", "\u{1}", " ", "#", "$", "%", "-", "a", "a\u{1}b", "a#", "ab", "é",
            ],
        ),
        ("bytes", &["", "00", "0000", "0001", "01", "ff"]),
    ];
    for format in FORMATS {
        for (ty, vals) in ordered {
            if !supported(format, ty) {
                continue;
            }
            for dir in ["", ".desc"] {
                let rows: String = vals.iter().map(|v| format!("{v}\n")).collect();
                let out = ok_with(
                    &[
                        "encode",
                        "--format",
                        format,
                        "--schema",
                        &format!("{ty}{dir}"),
                        "--stdin",
                    ],
                    rows.as_bytes(),
                );
                let mut keys: Vec<Vec<u8>> = out
                    .lines()
                    .map(|l| {
                        if format == "binary" {
                            hex(l)
                        } else {
                            l.as_bytes().to_vec()
                        }
                    })
                    .collect();
                if dir == ".desc" {
                    keys.reverse();
                }
                assert!(
                    keys.windows(2).all(|w| w[0] < w[1]),
                    "{format} {ty}{dir}: {out}"
                );
            }
        }
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn composite_bulk_equals_per_row() {
    let rows: &[[&str; 3]] = &[
        ["population", "3831868", "1.5"],
        ["san francisco", "-1", "-0.0"],
        ["", "0", "NaN"],
        ["a#b$c%d", "9223372036854775807", "-inf"],
        ["--x", "-9223372036854775808", "1e300"],
        ["日本", "42", "0.0"],
    ];
    for format in ["hex", "base64", "binary"] {
        for schema in [
            "str,i64,f64",
            "str.desc,i64.desc,f64.desc",
            "str,i64.desc,f64",
        ] {
            let fields: Vec<&str> = schema.split(',').collect();
            let tsv: String = rows.iter().map(|r| format!("{}\n", r.join("\t"))).collect();
            let bulk = ok_with(
                &["encode", "--format", format, "--schema", schema, "--stdin"],
                tsv.as_bytes(),
            );
            let bulk_json = ok_with(
                &[
                    "encode", "--json", "--format", format, "--schema", schema, "--stdin",
                ],
                tsv.as_bytes(),
            );
            let mut per_row = String::new();
            let mut per_row_json = String::new();
            let mut decoded = String::new();
            for r in rows {
                let comps: Vec<String> = fields
                    .iter()
                    .zip(r)
                    .map(|(f, v)| format!("{f}:{v}"))
                    .collect();
                let mut args = vec!["encode", "--format", format, "--"];
                args.extend(comps.iter().map(String::as_str));
                per_row.push_str(&ok(&args));
                args.insert(1, "--json");
                per_row_json.push_str(&ok(&args));
                decoded.push_str(&comps.join("\t"));
                decoded.push('\n');
            }
            assert_eq!(bulk, per_row, "{format} {schema}");
            assert_eq!(bulk_json, per_row_json, "{format} {schema}");
            // Bulk decode equals the per-key decode, tab-joined.
            let back = ok_with(
                &["decode", "--format", format, "--schema", schema, "--stdin"],
                bulk.as_bytes(),
            );
            assert_eq!(back, decoded, "{format} {schema}");
            for (key, want) in bulk.lines().zip(decoded.lines()) {
                let one = ok(&["decode", "--format", format, "--schema", schema, "--", key]);
                assert_eq!(one.trim_end_matches('\n').replace('\n', "\t"), want);
                let one_json = ok(&[
                    "decode", "--json", "--format", format, "--schema", schema, "--", key,
                ]);
                let bulk_json = ok_with(
                    &[
                        "decode", "--json", "--format", format, "--schema", schema, "--stdin",
                    ],
                    format!("{key}\n").as_bytes(),
                );
                assert_eq!(one_json, bulk_json);
            }
        }
    }
}

#[test]
fn bulk_handles_crlf_long_lines_and_no_final_newline() {
    // `\r` is data (part of the last value), not a line ending.
    let out = ok_with(&["encode", "--schema", "str", "--stdin"], b"a\r\nb");
    assert_eq!(out, "a%0D\nb\n");
    // A line longer than the 1 MiB read buffer (and than the default
    // 32,767-byte key limit, raised here).
    let long = "x".repeat(3 << 20);
    let out = ok_with(
        &[
            "encode",
            "--schema",
            "str,i64",
            "--stdin",
            "--max-key-len",
            "4000000",
        ],
        format!("{long}\t1\nshort\t2\n").as_bytes(),
    );
    assert_eq!(
        out,
        format!("{long}#l8000000000000001\nshort#l8000000000000002\n")
    );
    let back = ok_with(
        &["decode", "--stdin", "--max-key-len", "4000000"],
        out.as_bytes(),
    );
    assert_eq!(back, format!("str:{long}\ti64:1\nstr:short\ti64:2\n"));
}

#[test]
fn many_rows_stream() {
    // 200k rows: output is complete and in order (several flushes).
    let n = 200_000;
    let mut tsv = String::new();
    for i in 0..n {
        tsv.push_str(&format!("k{}\t{}\n", i % 97, i as i64 - 100_000));
    }
    let keys = ok_with(
        &["encode", "--schema", "str,i64", "--stdin"],
        tsv.as_bytes(),
    );
    assert_eq!(keys.lines().count(), n);
    let back = ok_with(
        &["decode", "--schema", "str,i64", "--stdin"],
        keys.as_bytes(),
    );
    let want: String = tsv
        .lines()
        .map(|l| {
            let (s, i) = l.split_once('\t').unwrap();
            format!("str:{s}\ti64:{i}\n")
        })
        .collect();
    assert_eq!(back, want);
}

#[test]
fn strings_with_newlines_and_tabs_round_trip_through_json() {
    let key = ok(&["encode", "str:a\nb\tc"]);
    assert_eq!(key, "a%0Ab%09c\n");
    let json = ok(&["decode", "--json", key.trim_end()]);
    assert_eq!(
        json,
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"a\\nb\\tc\"}]}\n"
    );
    // A tab is fine in per-key text output (one component per line).
    assert_eq!(ok(&["decode", "a%09c"]), "str:a\tc\n");
}

#[test]
fn decode_output_is_encode_input() {
    // `lexikey encode $(lexikey decode KEY)` gives KEY back, for a mixed tuple.
    let comps = [
        "str:tenant-1",
        "ts.desc:2024-05-01T12:00:00.000Z",
        "uuid:123e4567-e89b-12d3-a456-426614174000",
        "f64:-0.0",
        "bytes:00ff",
        "bool:true",
    ];
    for format in ["hex", "base64", "binary"] {
        let mut args = vec!["encode", "--format", format];
        args.extend(comps);
        let key = ok(&args);
        let schema = comps
            .iter()
            .map(|c| c.split(':').next().unwrap())
            .collect::<Vec<_>>()
            .join(",");
        let back = ok(&[
            "decode",
            "--format",
            format,
            "--schema",
            &schema,
            key.trim_end(),
        ]);
        assert_eq!(back.lines().collect::<Vec<_>>(), comps);
    }
}
