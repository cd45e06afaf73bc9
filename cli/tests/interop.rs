//! The interop profiles on the command line (`--format fdb-tuple`,
//! `hbase-ordered`, `phoenix`): golden outputs from the published vectors in
//! `fixtures/interop/*.tsv` through the built binary (encode and decode),
//! round trips, exact ranges (every key of a sample table checked against
//! the predicates, in-process), and the bad-input rows of the catalogue
//! (exit 2, one line, no panic).

mod common;

use std::ffi::OsString;

use common::{check_error, fails, fails_with, ok, ok_with, run_with};
use lexikey::interop::{fdb, hbase, phoenix};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Fixture plumbing
// ---------------------------------------------------------------------------

/// The data rows of `fixtures/interop/NAME`: tab-separated columns without
/// the comment columns (those starting with `#`), `\xNN` and `\\` unescaped.
fn rows(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/../fixtures/interop/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split('\t')
                .filter(|c| !c.starts_with('#'))
                .map(unescape)
                .collect()
        })
        .collect()
}

fn unescape(s: &str) -> String {
    let mut bytes = Vec::new();
    let mut rest = s.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        match (b, tail) {
            (b'\\', [b'x', h, l, more @ ..]) => {
                let hex = std::str::from_utf8(&[*h, *l]).unwrap().to_string();
                bytes.push(u8::from_str_radix(&hex, 16).unwrap());
                rest = more;
            }
            (b'\\', [b'\\', more @ ..]) => {
                bytes.push(b'\\');
                rest = more;
            }
            _ => {
                bytes.push(b);
                rest = tail;
            }
        }
    }
    String::from_utf8(bytes).expect("fixture text is UTF-8")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    lexikey::value::literal::parse_hex(s).unwrap()
}

/// The lines of an output.
fn lines(s: &str) -> Vec<String> {
    s.lines().map(str::to_string).collect()
}

/// Runs `lexikey ARGS` in-process (arguments may hold any character).
fn run_in(args: &[&str]) -> Result<String, String> {
    let argv: Vec<OsString> = args.iter().map(OsString::from).collect();
    let mut stdin = std::io::Cursor::new(Vec::new());
    let mut out = Vec::new();
    let mut io = lexikey_cli::Io {
        stdin: &mut stdin,
        stdout: &mut out,
    };
    lexikey_cli::run(&argv, &mut io).map_err(|e| format!("{e:#}"))?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

fn must(args: &[&str]) -> String {
    run_in(args).unwrap_or_else(|e| panic!("lexikey {args:?}: {e}"))
}

// ---------------------------------------------------------------------------
// Golden outputs: the help examples and the README's worked examples
// ---------------------------------------------------------------------------

#[test]
fn golden_outputs() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["encode", "--format", "fdb-tuple", "str:hello", "int:5"],
            "0268656c6c6f001505\n",
        ),
        (
            &[
                "encode",
                "--format",
                "fdb-tuple",
                "--json",
                "str:users",
                "int:-5551212",
                "bool:true",
            ],
            "{\"key\":\"0275736572730011ab4b9327\"}\n",
        ),
        (
            &["decode", "--format", "fdb-tuple", "0268656C6C6F001505"],
            "str:hello\nint:5\n",
        ),
        (
            &[
                "decode",
                "--format",
                "fdb-tuple",
                "--json",
                "0500ff0268656c6c6f00001d0901000000000000000021bff800000000000020ffffffff",
            ],
            concat!(
                "{\"components\":[{\"type\":\"nested\",\"dir\":\"asc\",\"value\":[",
                "{\"type\":\"null\",\"dir\":\"asc\",\"value\":null},",
                "{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"hello\"}]},",
                "{\"type\":\"int\",\"dir\":\"asc\",\"value\":18446744073709551616},",
                "{\"type\":\"f64\",\"dir\":\"asc\",\"value\":1.5},",
                "{\"type\":\"f32\",\"dir\":\"asc\",\"value\":\"0x7fffffff\"}]}\n"
            ),
        ),
        (
            &[
                "decode",
                "--format",
                "fdb-tuple",
                "0500ff0268656c6c6f000030ffffffffba5eba11000000005ca1ab1e",
            ],
            "nested:[null:, str:hello]\nuuid:ffffffff-ba5e-ba11-0000-00005ca1ab1e\n",
        ),
        (
            &[
                "encode",
                "--format",
                "hbase-ordered",
                "numeric:1",
                "text:foo",
            ],
            "180234666f6f00\n",
        ),
        (
            &[
                "encode",
                "--format",
                "hbase-ordered",
                "int64.desc:5",
                "numeric:-12.5",
                "blob-copy:00ff",
            ],
            "d37ffffffffffffffa12e69b3800ff\n",
        ),
        (
            &[
                "decode",
                "--format",
                "hbase-ordered",
                "--schema",
                "numeric,text.desc,text",
                "1802fa346100",
            ],
            "numeric:1\ntext.desc\ntext:a\n",
        ),
        (
            &[
                "decode",
                "--format",
                "hbase-ordered",
                "--json",
                "--schema",
                "numeric, float64.desc, text, blob-var",
                "1802ce000fffffffffffff",
            ],
            concat!(
                "{\"components\":[{\"type\":\"numeric\",\"dir\":\"asc\",\"value\":\"1\"},",
                "{\"type\":\"float64\",\"dir\":\"desc\",\"value\":\"inf\"},",
                "{\"type\":\"text\",\"dir\":\"asc\",\"value\":null},",
                "{\"type\":\"blob-var\",\"dir\":\"asc\",\"value\":null}]}\n"
            ),
        ),
        (
            &[
                "encode",
                "--format",
                "phoenix",
                "varchar:a",
                "bigint.desc:1",
            ],
            "61007ffffffffffffffe\n",
        ),
        (
            &[
                "encode",
                "--format",
                "phoenix",
                "--salt-buckets",
                "256",
                "bigint:42",
                "varchar:hello",
            ],
            "f9800000000000002a68656c6c6f\n",
        ),
        (
            &[
                "decode",
                "--format",
                "phoenix",
                "--schema",
                "DATE.DESC,boolean,varchar.desc",
                "7ffffe70cbf961ff019eff",
            ],
            "date.desc:2024-05-01T12:00:00.000Z\nboolean:true\nvarchar.desc:a\n",
        ),
        (
            &[
                "decode",
                "--format",
                "phoenix",
                "--json",
                "--salt-buckets",
                "16",
                "--schema",
                "varchar,varchar.desc,varbinary",
                "01616263",
            ],
            concat!(
                "{\"components\":[{\"type\":\"varchar\",\"dir\":\"asc\",\"value\":\"abc\"},",
                "{\"type\":\"varchar\",\"dir\":\"desc\",\"value\":null},",
                "{\"type\":\"varbinary\",\"dir\":\"asc\",\"value\":null}]}\n"
            ),
        ),
        (
            &["range", "--format", "fdb-tuple", "str:users"],
            "0275736572730000\n02757365727300ff\n",
        ),
        (&["range", "--format", "fdb-tuple"], "00\nff\n"),
        (
            &[
                "range",
                "--format",
                "fdb-tuple",
                "str:users",
                "--ge",
                "int:18",
                "--lt",
                "int:65",
            ],
            "027573657273001512\n027573657273001541\n",
        ),
        (
            &[
                "range",
                "--format",
                "fdb-tuple",
                "str:users",
                "--eq",
                "str:a",
            ],
            "02757365727300026100\n02757365727300026100ff\n",
        ),
        (
            &[
                "range",
                "--format",
                "fdb-tuple",
                "str:users",
                "--prefix",
                "ab",
            ],
            "02757365727300026162\n02757365727300026163\n",
        ),
        (
            &[
                "range",
                "--format",
                "hbase-ordered",
                "text:eu",
                "--ge",
                "int64.desc:100",
            ],
            "34657500d3\n34657500d37fffffffffffff9c\n",
        ),
        (
            &["range", "--format", "hbase-ordered", "numeric:1"],
            "1802\n1803\n",
        ),
        (
            &[
                "range",
                "--format",
                "hbase-ordered",
                "numeric:1",
                "--lt",
                "text:b",
            ],
            "180234\n1802346200\n",
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "varchar:us",
                "--lt",
                "integer:5",
            ],
            "757300\n75730080000005\n",
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "varchar:us",
                "--eq",
                "varchar.desc:x",
            ],
            "75730087ff\n75730088\n",
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "--salt-buckets",
                "2",
                "varchar:us",
            ],
            "007573\n00757301\n017573\n01757301\n",
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "--salt-buckets",
                "2",
                "--json",
                "varchar:us",
                "--gt",
                "integer:5",
            ],
            concat!(
                "{\"ranges\":[{\"start\":\"0075730080000006\",\"end\":\"00757301\"},",
                "{\"start\":\"0175730080000006\",\"end\":\"01757301\"}]}\n"
            ),
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "--for",
                "hbase",
                "--table",
                "T",
                "varchar:us",
                "--ge",
                "integer:5",
            ],
            "scan 'T', {STARTROW => \"us\\x00\\x80\\x00\\x00\\x05\", STOPROW => \"us\\x01\"}\n",
        ),
        // DECIMAL, CHAR(n), BINARY(n).
        (
            &[
                "encode",
                "--format",
                "phoenix",
                "decimal:-1.5",
                "char(3):ab",
            ],
            "3e64336600616220\n",
        ),
        (
            &[
                "decode",
                "--format",
                "phoenix",
                "--schema",
                "decimal,char(3)",
                "3e64336600616220",
            ],
            "decimal:-1.5\nchar(3):ab\n",
        ),
        (
            &[
                "decode",
                "--format",
                "phoenix",
                "--json",
                "--schema",
                "decimal.desc,char(2),binary(2)",
                "3efdccff61200a00",
            ],
            concat!(
                "{\"components\":[{\"type\":\"decimal\",\"dir\":\"desc\",\"value\":\"1.5\"},",
                "{\"type\":\"char(2)\",\"dir\":\"asc\",\"value\":\"a\"},",
                "{\"type\":\"binary(2)\",\"dir\":\"asc\",\"value\":\"0a00\"}]}\n"
            ),
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "varchar:us",
                "--ge",
                "decimal:1.5",
            ],
            "757300c10233\n757301\n",
        ),
        (
            &[
                "range",
                "--format",
                "phoenix",
                "varchar:us",
                "--lt",
                "decimal.desc:0",
            ],
            "75730080\n757301\n",
        ),
    ];
    for (args, want) in cases {
        assert_eq!(ok(args), *want, "lexikey {}", args.join(" "));
    }
}

// ---------------------------------------------------------------------------
// FoundationDB: fixtures/interop/fdb.tsv
// ---------------------------------------------------------------------------

/// A fixture row's elements: `(` … `)` columns are nested tuples.
fn fdb_elements(cols: &[String]) -> (Vec<fdb::Element>, bool) {
    fn parse(it: &mut std::slice::Iter<'_, String>) -> Vec<fdb::Element> {
        let mut out = Vec::new();
        while let Some(c) = it.next() {
            match c.as_str() {
                "(" => out.push(fdb::Element::Nested(parse(it))),
                ")" => return out,
                t => out.push(fdb::parse_component(t).unwrap()),
            }
        }
        out
    }
    let nested = cols.iter().any(|c| c == "(");
    (parse(&mut cols.iter()), nested)
}

#[test]
fn fdb_golden_vectors_both_ways() {
    let mut checked = 0;
    let mut bulk_in = String::new();
    let mut bulk_want = String::new();
    for row in rows("fdb.tsv") {
        let key = &row[0];
        let comps = &row[1..];
        let (elems, nested) = fdb_elements(comps);
        // decode: one line per element, in format_component's syntax.
        let want: String = elems
            .iter()
            .map(|e| fdb::format_component(e) + "\n")
            .collect();
        assert_eq!(
            ok(&["decode", "--format", "fdb-tuple", key]),
            want,
            "decode {key}"
        );
        if elems.is_empty() || nested {
            continue; // no COMPONENT (encode needs one) / no syntax for nested tuples
        }
        // encode: through arguments unless a value holds U+0000 (not
        // passable as an argument); always through bulk mode.
        if !comps.iter().any(|c| c.contains('\0')) {
            assert_eq!(
                ok(&[&["encode", "--format", "fdb-tuple"][..], &str_refs(comps)].concat()),
                format!("{key}\n"),
                "encode {comps:?}"
            );
        }
        let (types, cells): (Vec<&str>, Vec<&str>) =
            comps.iter().map(|c| c.split_once(':').unwrap()).unzip();
        if cells.iter().all(|c| !c.contains('\t') && !c.contains('\n')) {
            let schema = types.join(",");
            let out = ok_with(
                &[
                    "encode",
                    "--format",
                    "fdb-tuple",
                    "--schema",
                    &schema,
                    "--stdin",
                ],
                format!("{}\n", cells.join("\t")).as_bytes(),
            );
            assert_eq!(out, format!("{key}\n"), "bulk encode {comps:?}");
        }
        // The decoded lines encode back to the key.
        let back = lines(&want);
        assert_eq!(
            must(&[&["encode", "--format", "fdb-tuple"][..], &str_refs(&back)].concat()),
            format!("{key}\n")
        );
        bulk_in.push_str(&format!("{key}\n"));
        bulk_want.push_str(&back.join("\t"));
        bulk_want.push('\n');
        checked += 1;
    }
    assert!(checked >= 60, "{checked}");
    // Bulk decode agrees with one key at a time.
    assert_eq!(
        ok_with(
            &["decode", "--format", "fdb-tuple", "--stdin"],
            bulk_in.as_bytes()
        ),
        bulk_want
    );
    // The empty tuple is the empty key.
    assert_eq!(ok(&["decode", "--format", "fdb-tuple", ""]), "");
}

fn str_refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

// ---------------------------------------------------------------------------
// HBase: fixtures/interop/hbase.tsv
// ---------------------------------------------------------------------------

#[test]
fn hbase_golden_vectors_both_ways() {
    let mut checked = 0;
    for row in rows("hbase.tsv") {
        let (key, comps): (&str, Vec<&str>) = match row[0].as_str() {
            "value" => (&row[2], vec![row[1].as_str()]),
            "struct" => (&row[1], str_refs(&row[3..])),
            "legacy" => {
                check_hbase_legacy(&row[2], &[row[1].as_str()], &[row[3].as_str()]);
                checked += 1;
                continue;
            }
            "lstruct" => {
                let arrow = row.iter().position(|c| c == "->").unwrap();
                check_hbase_legacy(
                    &row[1],
                    &str_refs(&row[2..arrow]),
                    &str_refs(&row[arrow + 1..]),
                );
                checked += 1;
                continue;
            }
            _ => continue, // varint: not a key
        };
        let schema: Vec<String> = comps
            .iter()
            .map(|c| c.split(':').next().unwrap().to_string())
            .collect();
        let schema = schema.join(",");
        // encode: the published bytes.
        assert_eq!(
            ok(&[&["encode", "--format", "hbase-ordered"][..], &comps].concat()),
            format!("{key}\n"),
            "encode {comps:?}"
        );
        // decode: what the library decodes, in component syntax.
        let fields: Vec<hbase::Field> = schema
            .split(',')
            .map(|f| hbase::Field::parse(f).unwrap())
            .collect();
        let values = hbase::decode_struct(&fields, &unhex(key)).unwrap();
        let want: Vec<String> = fields
            .iter()
            .zip(&values)
            .map(|(f, v)| hbase::format_component(*f, v))
            .collect();
        let out = ok(&[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            &schema,
            key,
        ]);
        assert_eq!(lines(&out), want, "decode {key}");
        // The decoded components encode back to the key.
        assert_eq!(
            ok(&[
                &["encode", "--format", "hbase-ordered"][..],
                &str_refs(&want)
            ]
            .concat()),
            format!("{key}\n"),
            "re-encode {want:?}"
        );
        checked += 1;
    }
    assert!(checked >= 290, "{checked}");
}

/// A key of HBase before HBASE-26566: `--hbase-numeric legacy` writes it
/// and reads it back as `read`; the default (current HBase) reads the same
/// or refuses it naming the option.
fn check_hbase_legacy(key: &str, comps: &[&str], read: &[&str]) {
    let legacy = ["--hbase-numeric", "legacy"];
    let args = [&["encode", "--format", "hbase-ordered"][..], &legacy, comps].concat();
    assert_eq!(ok(&args), format!("{key}\n"), "encode {comps:?}");
    let schema: Vec<&str> = comps.iter().map(|c| c.split(':').next().unwrap()).collect();
    let schema = schema.join(",");
    let args = [
        &["decode", "--format", "hbase-ordered", "--schema", &schema][..],
        &legacy,
        &[key],
    ]
    .concat();
    let want: Vec<String> = read.iter().map(|r| r.to_string()).collect();
    assert_eq!(lines(&ok(&args)), want, "decode {key}");
    match run_in(&[
        "decode",
        "--format",
        "hbase-ordered",
        "--schema",
        &schema,
        key,
    ]) {
        Ok(out) => assert_eq!(lines(&out), want, "current decode {key}"),
        Err(e) => assert!(e.contains("--hbase-numeric legacy"), "{key}: {e}"),
    }
}

// ---------------------------------------------------------------------------
// Phoenix: fixtures/interop/phoenix.tsv
// ---------------------------------------------------------------------------

#[test]
fn phoenix_golden_vectors_both_ways() {
    let mut checked = 0;
    for row in rows("phoenix.tsv") {
        let (schema, salt, key, comps): (String, &str, String, Vec<&str>) = match row[0].as_str() {
            "hash" => {
                // SaltingUtilTest's row key as one VARBINARY column.
                let salted = format!("{:02x}{}", row[4].parse::<u8>().unwrap(), row[1]);
                let comp = format!("varbinary:{}", row[1]);
                let out = ok(&[
                    "encode",
                    "--format",
                    "phoenix",
                    "--salt-buckets",
                    &row[3],
                    &comp,
                ]);
                assert_eq!(out, format!("{salted}\n"));
                checked += 1;
                continue;
            }
            "value" => {
                let (col, _) = phoenix::parse_component(&row[1]).unwrap();
                // As a one-column row key, a DESC variable-width value keeps
                // its trailing FF.
                let trailing =
                    if col.ty.fixed_width().is_none() && col.order == phoenix::SortOrder::Desc {
                        "ff"
                    } else {
                        ""
                    };
                (
                    col.to_string(),
                    "-",
                    format!("{}{trailing}", row[2]),
                    vec![row[1].as_str()],
                )
            }
            "row" if row[2] == "legacy" => continue, // pre-4.4 layout: library only
            "round" => {
                check_phoenix_round(
                    "-",
                    &[row[1].as_str()],
                    &format!(
                        "{}{}",
                        row[3],
                        if row[1].contains(".desc") { "ff" } else { "" }
                    ),
                );
                let e = run_in(&["encode", "--format", "phoenix", &row[1]]).unwrap_err();
                assert!(
                    e.contains(&format!("stores as {};", row[2])) && e.contains("--round"),
                    "{e}"
                );
                let out = ok(&["encode", "--format", "phoenix", "--round", &row[1]]);
                let col = row[1].split(':').next().unwrap();
                let dec = ok(&["decode", "--format", "phoenix", "--schema", col, out.trim()]);
                assert_eq!(
                    dec,
                    format!("{col}:{}\n", row[2]),
                    "decode prints the stored value"
                );
                checked += 1;
                continue;
            }
            "rrow" => {
                check_phoenix_round(&row[2], &str_refs(&row[4..]), &row[3]);
                checked += 1;
                continue;
            }
            "row" => (
                row[1].clone(),
                row[2].as_str(),
                row[3].clone(),
                str_refs(&row[4..]),
            ),
            other => panic!("unknown row kind {other}"),
        };
        let mut salt_args: Vec<&str> = Vec::new();
        if salt != "-" {
            salt_args = vec!["--salt-buckets", salt];
        }
        // encode: the published (or derived) bytes.
        let args = [&["encode", "--format", "phoenix"][..], &salt_args, &comps].concat();
        assert_eq!(ok(&args), format!("{key}\n"), "encode {comps:?}");
        // decode: the fixture's values, then nulls for the missing columns.
        let mut table = phoenix::Table::parse(&schema).unwrap();
        if let Ok(n) = salt.parse() {
            table = table.salted(n);
        }
        let mut want: Vec<(phoenix::Column, phoenix::Value)> = comps
            .iter()
            .map(|c| phoenix::parse_component(c).unwrap())
            .collect();
        for c in &table.columns[want.len()..] {
            want.push((*c, phoenix::Value::Null));
        }
        let args = [
            &["decode", "--format", "phoenix", "--schema", &schema][..],
            &salt_args,
            &[key.as_str()],
        ]
        .concat();
        let out = ok(&args);
        let got: Vec<(phoenix::Column, phoenix::Value)> = out
            .lines()
            .map(|l| phoenix::parse_component(l).unwrap())
            .collect();
        assert_eq!(got, want, "decode {key}");
        // The decoded lines encode back to the key.
        let back = lines(&out);
        let args = [
            &["encode", "--format", "phoenix"][..],
            &salt_args,
            &str_refs(&back),
        ]
        .concat();
        assert_eq!(ok(&args), format!("{key}\n"), "re-encode {back:?}");
        checked += 1;
    }
    assert!(checked >= 130, "{checked}");
}

/// A row with a DECIMAL of more than 38 digits: refused without `--round`;
/// with it, `encode` writes `key` and `range` (the row as a prefix) starts
/// at it.
fn check_phoenix_round(salt: &str, comps: &[&str], key: &str) {
    let salt_args: Vec<&str> = if salt == "-" {
        vec![]
    } else {
        vec!["--salt-buckets", salt]
    };
    let args = [&["encode", "--format", "phoenix"][..], &salt_args, comps].concat();
    let e = run_in(&args).unwrap_err();
    assert!(e.contains("--round") && e.contains("38"), "{e}");
    let args = [
        &["encode", "--format", "phoenix", "--round"][..],
        &salt_args,
        comps,
    ]
    .concat();
    assert_eq!(ok(&args), format!("{key}\n"), "encode --round {comps:?}");
    if salt == "-" {
        let args = [&["range", "--format", "phoenix", "--round"][..], comps].concat();
        let out = ok(&args);
        assert_eq!(out.lines().next(), Some(key), "range --round {comps:?}");
    }
}

// ---------------------------------------------------------------------------
// Malformed keys: every fixture row is exit 2, one line, the byte named
// ---------------------------------------------------------------------------

#[test]
fn malformed_fixture_keys_are_one_line_errors() {
    let mut checked = 0;
    for row in rows("fdb-malformed.tsv") {
        let msg = fails(&["decode", "--format", "fdb-tuple", &row[0]]);
        assert!(
            msg.contains(&format!("at byte {}", row[2])),
            "{row:?}: {msg}"
        );
        checked += 1;
    }
    for row in rows("hbase-malformed.tsv") {
        let msg = fails(&[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            &row[0],
            &row[1],
        ]);
        if row[2] == "SchemaRequired" {
            assert!(msg.contains("blob-copy"), "{row:?}: {msg}");
        } else {
            assert!(
                msg.contains(&format!("at byte {}", row[3])),
                "{row:?}: {msg}"
            );
        }
        checked += 1;
    }
    for row in rows("phoenix-malformed.tsv") {
        if row[1] == "legacy" {
            continue;
        }
        let mut args = vec!["decode", "--format", "phoenix", "--schema", &row[0]];
        if row[1] != "-" {
            args.extend(["--salt-buckets", &row[1]]);
        }
        args.push(&row[2]);
        let msg = fails(&args);
        if row[3] == "SchemaRequired" {
            assert!(msg.contains("VARBINARY"), "{row:?}: {msg}");
        } else {
            assert!(
                msg.contains(&format!("at byte {}", row[4])),
                "{row:?}: {msg}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 90, "{checked}");
}

/// `(arguments, standard input, a substring the message must contain)`:
/// the interop rows of the bad-input catalogue (`tests/errors.rs`).
const CATALOGUE: &[(&[&str], &str, &str)] = &[
    // --- malformed keys
    (
        &["decode", "--format", "fdb-tuple", "150"],
        "",
        "odd number of digits (3)",
    ),
    (
        &["decode", "--format", "fdb-tuple", "15zz"],
        "",
        "bad digit at character 2",
    ),
    (
        &["decode", "--format", "fdb-tuple", "1500"],
        "",
        "non-canonical encoding at byte 1",
    ),
    (
        &["decode", "--format", "fdb-tuple", "0268656c6c6f"],
        "",
        "end of input at byte 6",
    ),
    (
        &["decode", "--format", "fdb-tuple", "25"],
        "",
        "unexpected tag",
    ),
    (
        &["decode", "--format", "fdb-tuple", "1d08ffffffffffffffff"],
        "",
        "big-integer code for a value that fits 8 bytes",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "int64",
            "2c8000",
        ],
        "",
        "end of input at byte 3",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "int64.desc",
            "2c8000000000000000",
        ],
        "",
        "(0x2C) at byte 0: expected a descending header",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "numeric",
            "1800",
        ],
        "",
        "non-canonical encoding at byte 1",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "text",
            "34666f6f0000",
        ],
        "",
        "trailing bytes at byte 5",
    ),
    (
        &[
            "decode",
            "--format",
            "phoenix",
            "--schema",
            "varchar",
            "--salt-buckets",
            "4",
            "0161",
        ],
        "",
        "expected the salt byte of the rest of the key",
    ),
    (
        &[
            "decode",
            "--format",
            "phoenix",
            "--schema",
            "varchar.desc,varchar",
            "9e9d",
        ],
        "",
        "end of input at byte 2",
    ),
    (
        &[
            "decode", "--format", "phoenix", "--schema", "integer", "8000",
        ],
        "",
        "end of input at byte 2",
    ),
    (
        &["decode", "--format", "phoenix", "--schema", "varchar", ""],
        "",
        "non-canonical encoding at byte 0",
    ),
    (
        &[
            "decode", "--format", "phoenix", "--stdin", "--schema", "varchar",
        ],
        "61\nff\n",
        "line 2: invalid phoenix key \"ff\": invalid UTF-8 at byte 0",
    ),
    (
        &["decode", "--format", "fdb-tuple", "--stdin"],
        "026100\n0x\n",
        "line 2: invalid fdb-tuple key \"0x\"",
    ),
    (
        &["decode", "--format", "fdb-tuple", "02610a00"],
        "",
        "a newline, which the line-oriented text output cannot show: use --json",
    ),
    (
        &["decode", "--format", "fdb-tuple", "--stdin"],
        "02610900\n",
        "a tab, which the line-oriented text output cannot show",
    ),
    (
        &[
            "decode",
            "--format",
            "fdb-tuple",
            "--max-key-len",
            "2",
            "15011502",
        ],
        "",
        "longer than the limit of 2 bytes",
    ),
    // --- schemas and options
    (
        &["decode", "--format", "hbase-ordered", "15"],
        "",
        "pass --schema",
    ),
    (
        &["decode", "--format", "phoenix", "00"],
        "",
        "pass --schema",
    ),
    (
        &["decode", "--format", "fdb-tuple", "--schema", "int", "15"],
        "",
        "self-describing",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "int65",
            "15",
        ],
        "",
        "unknown hbase-ordered type \"int65\"",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--schema",
            "blob-copy,int8",
            "3801",
        ],
        "",
        "only the last field may use it",
    ),
    (
        &[
            "decode",
            "--format",
            "phoenix",
            "--schema",
            "varbinary,varchar",
            "00",
        ],
        "",
        "VARBINARY, which may only be the last",
    ),
    (
        &["decode", "--format", "phoenix", "--schema", "", "00"],
        "",
        "empty schema",
    ),
    (
        &[
            "decode", "--format", "phoenix", "--schema", "decimals", "00",
        ],
        "",
        "unknown phoenix type \"decimals\"",
    ),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "--salt-buckets",
            "0",
            "varchar:a",
        ],
        "",
        "expected a number from 1 to 256",
    ),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "--salt-buckets",
            "257",
            "varchar:a",
        ],
        "",
        "expected a number from 1 to 256",
    ),
    (
        &[
            "encode",
            "--format",
            "hbase-ordered",
            "--salt-buckets",
            "4",
            "text:a",
        ],
        "",
        "--salt-buckets applies only to --format phoenix",
    ),
    (
        // The native formats take --salt-buckets too (1 to 255, one byte).
        &["encode", "--salt-buckets", "256", "str:a"],
        "",
        "expected a number from 1 to 255",
    ),
    (
        &[
            "encode",
            "--format",
            "fdb-tuple",
            "--salt-mode",
            "phoenix",
            "int:1",
        ],
        "",
        "--salt-mode needs --salt-buckets",
    ),
    (
        &["encode", "--format", "phoenix", "--bits", "16", "varchar:a"],
        "",
        "--bits applies to geo components of the native formats",
    ),
    (
        &["encode", "--format", "fdb-tuple", "--width", "3", "int:1"],
        "",
        "--width applies only to --format decimal",
    ),
    (
        &["reverse", "--format", "fdb-tuple", "1"],
        "",
        "applies to encode, decode and range only",
    ),
    (
        &["encode", "--format", "fdb-tupel", "int:1"],
        "",
        "or an interop profile: fdb-tuple, hbase-ordered, phoenix",
    ),
    (&["encode", "--format", "phoenix"], "", "missing COMPONENT"),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "--schema",
            "varchar",
            "varchar:a",
        ],
        "",
        "--schema is for --stdin",
    ),
    (
        &["encode", "--format", "fdb-tuple", "--stdin"],
        "",
        "needs --schema",
    ),
    // --- components that do not parse or encode
    (
        &["encode", "--format", "fdb-tuple", "int.desc:1"],
        "",
        "has no descending order",
    ),
    (
        &["encode", "--format", "fdb-tuple", "nocolon"],
        "",
        "has no ':'",
    ),
    (
        &["encode", "--format", "fdb-tuple", "i32:2147483648"],
        "",
        "out of range",
    ),
    (
        // `nested:[]` is the empty nested tuple (issue 42); a type that is
        // none is still an error.
        &["encode", "--format", "fdb-tuple", "nest:[]"],
        "",
        "unknown fdb-tuple type",
    ),
    (
        &["encode", "--format", "fdb-tuple", "nested:[int:1"],
        "",
        "invalid nested value \"[int:1\": expected [ELEMENT, ...]",
    ),
    (
        &["encode", "--format", "fdb-tuple", "nested:[str:a]b]"],
        "",
        "an unescaped ']' at character 5",
    ),
    (
        &["encode", "--format", "fdb-tuple", "--versionstamp", "str:a", "int:1"],
        "",
        "no incomplete versionstamp in the tuple",
    ),
    (
        &[
            "encode",
            "--format",
            "fdb-tuple",
            "--versionstamp",
            "versionstamp:ffffffffffffffffffff0000",
            "nested:[versionstamp:ffffffffffffffffffff0001]",
        ],
        "",
        "two incomplete versionstamps in one tuple (at byte 0 and byte 14)",
    ),
    (
        &["encode", "--versionstamp", "str:a"],
        "",
        "--versionstamp applies only to --format fdb-tuple",
    ),
    (
        &["encode", "--format", "fdb-tuple", "versionstamp:ffffffffffffffffffff00"],
        "",
        "invalid versionstamp value \"ffffffffffffffffffff00\": expected 24 hex digits",
    ),
    (
        &["encode", "--format", "hbase-ordered", "int64", "text:a"],
        "",
        "component 1 (int64): null in a fixed-width field",
    ),
    (
        &[
            "encode",
            "--format",
            "hbase-ordered",
            "blob-copy:00",
            "text:a",
        ],
        "",
        "only the last field may use it",
    ),
    (
        &[
            "encode",
            "--format",
            "hbase-ordered",
            "numeric:0.99999999999999999999999999999995e2147483647",
        ],
        "",
        "beyond java.math.BigDecimal's range",
    ),
    (
        &["decode", "--format", "hbase-ordered", "--schema", "numeric", "22f16fc8"],
        "",
        "read it with --hbase-numeric legacy",
    ),
    (
        &[
            "decode",
            "--format",
            "hbase-ordered",
            "--hbase-numeric",
            "legacy",
            "--schema",
            "numeric",
            "22f20502",
        ],
        "",
        "without --hbase-numeric legacy",
    ),
    (
        &["encode", "--format", "hbase-ordered", "--hbase-numeric", "old", "numeric:1"],
        "",
        "invalid --hbase-numeric \"old\": expected current",
    ),
    (
        &["encode", "--format", "phoenix", "--hbase-numeric", "legacy", "decimal:1"],
        "",
        "--hbase-numeric applies only to --format hbase-ordered",
    ),
    (
        &["encode", "--format", "hbase-ordered", "--round", "numeric:1"],
        "",
        "--round applies only to --format phoenix",
    ),
    (
        &["encode", "--format", "phoenix", "decimal:99.9999999999999999999999999999999999999"],
        "",
        "more than 38 significant digits (Phoenix's maximum precision): it has 39, which Phoenix rounds half up and stores as 100; --round writes that key",
    ),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "--round",
            "decimal:9.99999999999999999999999999999999999999e123",
        ],
        "",
        "DECIMAL out of range",
    ),
    (
        &["decode", "--format", "phoenix", "--round", "--schema", "decimal", "c202"],
        "",
        "unknown option '--round' for 'decode'",
    ),
    (
        &["encode", "--format", "hbase-ordered", "numeric:abc"],
        "",
        "component \"numeric:abc\"",
    ),
    (
        &["encode", "--format", "hbase-ordered", "blob-copy.desc:0100"],
        "",
        "component 1 (blob-copy.desc:0100)",
    ),
    (
        &["encode", "--format", "phoenix", "integer", "varchar:a"],
        "",
        "a fixed-width primary-key column may not be null",
    ),
    (
        &["encode", "--format", "phoenix", "varchar"],
        "",
        "the primary key may not be entirely null",
    ),
    (
        &["encode", "--format", "phoenix", "tinyint:200"],
        "",
        "out of range (-128 to 127)",
    ),
    (
        &["encode", "--format", "phoenix", "unsigned_int:-1"],
        "",
        "out of range (0 to 2147483647)",
    ),
    (
        &["encode", "--format", "phoenix", "varbinary:00", "varchar:a"],
        "",
        "may only be the last",
    ),
    (
        &["encode", "--format", "phoenix", "char:a"],
        "",
        "phoenix type \"char\" needs its length: char(N)",
    ),
    (
        &["encode", "--format", "phoenix", "char(0):a"],
        "",
        "the length of char(N) is a number from 1 to 32767",
    ),
    (
        &["encode", "--format", "phoenix", "char(2):abc"],
        "",
        "char(2) value \"abc\": longer than the CHAR(n) column's n characters",
    ),
    (
        &["encode", "--format", "phoenix", "binary(1):0102"],
        "",
        "binary(1) value \"0102\": longer than 1 bytes",
    ),
    (
        &["encode", "--format", "phoenix", "decimal:1e124"],
        "",
        "decimal value \"1e124\": DECIMAL out of range",
    ),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "decimal:1.00000000000000000000000000000000000001",
        ],
        "",
        "more than 38 significant digits",
    ),
    (
        &[
            "decode", "--format", "phoenix", "--schema", "decimal", "3e64",
        ],
        "",
        "expected the terminator 66 after a negative DECIMAL",
    ),
    (
        &["encode", "--format", "phoenix", "char(2)", "varchar:a"],
        "",
        "may not be null",
    ),
    (
        &[
            "encode",
            "--format",
            "phoenix",
            "--schema",
            "varchar,integer",
            "--stdin",
        ],
        "a\t1\nb\tx\n",
        "line 2, value 2 (integer)",
    ),
    (
        &[
            "encode",
            "--format",
            "hbase-ordered",
            "--schema",
            "text,int64",
            "--stdin",
        ],
        "a\t1\tb\n",
        "line 1: expected 2 tab-separated values",
    ),
    // --- ranges
    (
        &[
            "range",
            "--format",
            "fdb-tuple",
            "--gt",
            "int:5",
            "--lt",
            "int:5",
        ],
        "",
        "no key can match",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "varchar:a",
            "--ge",
            "integer:1",
            "--lt",
            "bigint:3",
        ],
        "",
        "the predicates are on one component, of type integer",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "varchar:a",
            "--ge",
            "varchar",
        ],
        "",
        "only goes with --eq",
    ),
    (
        &["range", "--format", "phoenix", "--ge", "varbinary.desc:00"],
        "",
        "a DESC VARBINARY takes --eq only",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "varbinary:00",
            "--eq",
            "integer:1",
        ],
        "",
        "no column can follow a VARBINARY column",
    ),
    (
        &["range", "--format", "phoenix", "--eq", "integer"],
        "",
        "never null",
    ),
    (
        &[
            "range",
            "--format",
            "hbase-ordered",
            "blob-copy:00",
            "--eq",
            "int8:1",
        ],
        "",
        "no component can follow a blob-copy component",
    ),
    (
        &[
            "range",
            "--format",
            "hbase-ordered",
            "--ge",
            "text",
            "--lt",
            "text:b",
        ],
        "",
        "only goes with --eq",
    ),
    (
        &[
            "range",
            "--format",
            "hbase-ordered",
            "--prefix",
            "a",
            "--ge",
            "text.desc:b",
        ],
        "",
        "of type text; this one is text.desc",
    ),
    (
        &["range", "--format", "hbase-ordered", "--gt", "int8:127"],
        "",
        "no key can match",
    ),
    (
        &["range", "--format", "fdb-tuple", "--ge", "int:x"],
        "",
        "--ge \"int:x\"",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "--salt-buckets",
            "2",
            "--for",
            "nosuch",
            "varchar:a",
        ],
        "",
        "unknown dialect",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "--schema",
            "varchar",
            "varchar:a",
        ],
        "",
        "--schema applies to range with the native formats", // range --schema: issue [newcomer] 1
    ),
];

#[test]
fn bad_input_catalogue() {
    for (args, stdin, want) in CATALOGUE {
        let o = run_with(args, stdin.as_bytes());
        check_error(&o, &format!("lexikey {args:?}"));
        assert!(
            o.stderr.contains(want),
            "lexikey {args:?}: expected {want:?} in {:?}",
            o.stderr
        );
    }
    // The bulk rows before a bad one are printed.
    let o = run_with(
        &[
            "decode", "--format", "phoenix", "--stdin", "--schema", "varchar",
        ],
        b"61\nff\n",
    );
    assert_eq!(o.stdout, b"varchar:a\n");
    let o = run_with(
        &[
            "encode",
            "--format",
            "phoenix",
            "--schema",
            "varchar,integer",
            "--stdin",
        ],
        b"a\t1\nb\tx\n",
    );
    assert_eq!(o.stdout, b"610080000001\n");
}

#[test]
fn arbitrary_keys_never_panic_through_the_binary() {
    // A deterministic spread of short keys and schemas: every run ends in
    // exit 0 or in the one-line error contract.
    let schemas: &[(&str, &[&str])] = &[
        ("fdb-tuple", &[]),
        ("hbase-ordered", &["--schema", "numeric,text.desc,blob-var"]),
        (
            "hbase-ordered",
            &["--schema", "float64.desc,blob-copy.desc"],
        ),
        ("phoenix", &["--schema", "varchar.desc,timestamp,varbinary"]),
        (
            "phoenix",
            &["--schema", "boolean.desc,varchar", "--salt-buckets", "3"],
        ),
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut input = String::new();
    for _ in 0..400 {
        let len = (next() % 14) as usize;
        let key: Vec<u8> = (0..len)
            .map(|_| {
                let r = next();
                // Bias towards the bytes the formats care about.
                [0x00, 0xff, 0x01, 0xfe, 0x05, 0xfa, 0x14, 0x15][(r % 8) as usize]
                    .max(if r % 3 == 0 { (r >> 8) as u8 } else { 0 })
            })
            .collect();
        input.push_str(&hex(&key));
        input.push('\n');
    }
    for (profile, extra) in schemas {
        // One key per process for a sample, every key through bulk mode.
        for line in input.lines().take(40) {
            let args = [&["decode", "--format", profile][..], extra, &[line]].concat();
            let o = run_with(&args, b"");
            if o.code != 0 {
                check_error(&o, &format!("{args:?}"));
            }
        }
        let args = [&["decode", "--format", profile, "--stdin"][..], extra].concat();
        let o = run_with(&args, input.as_bytes());
        if o.code != 0 {
            check_error(&o, &format!("{args:?}"));
        }
    }
}

// ---------------------------------------------------------------------------
// Round trips (in-process): encode → decode → encode is the same key
// ---------------------------------------------------------------------------

fn fdb_component() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null:".to_string()),
        proptest::collection::vec(any::<u8>(), 0..6).prop_map(|b| format!("bytes:{}", hex(&b))),
        "[a-z\u{0}\u{e9}\u{1f525}]{0,5}".prop_map(|s| format!("str:{s}")),
        any::<i64>().prop_map(|i| format!("int:{i}")),
        any::<u64>().prop_map(|i| format!("int:{i}")),
        (any::<u128>(), any::<bool>())
            .prop_map(|(i, n)| format!("int:{}{i}", if n { "-" } else { "" })),
        any::<u32>().prop_map(|b| format!("f32:0x{b:08x}")),
        any::<u64>().prop_map(|b| format!("f64:0x{b:016x}")),
        any::<f64>().prop_map(|f| format!("f64:{f:?}")),
        any::<bool>().prop_map(|b| format!("bool:{b}")),
        any::<u128>().prop_map(|u| format!("uuid:{}", uuid_text(u))),
        any::<[u8; 12]>().prop_map(|b| format!("versionstamp:{}", hex(&b))),
    ]
}

fn uuid_text(u: u128) -> String {
    let h = format!("{u:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

fn hbase_component(last: bool) -> impl Strategy<Value = String> {
    let dir = prop_oneof![Just(""), Just(".desc")];
    let value = prop_oneof![
        any::<i8>().prop_map(|v| format!("int8{{}}:{v}")),
        any::<i16>().prop_map(|v| format!("int16{{}}:{v}")),
        any::<i32>().prop_map(|v| format!("int32{{}}:{v}")),
        any::<i64>().prop_map(|v| format!("int64{{}}:{v}")),
        any::<f32>().prop_map(|v| format!("float32{{}}:{v:?}")),
        any::<f64>().prop_map(|v| format!("float64{{}}:{v:?}")),
        (any::<i64>(), -400i32..400).prop_map(|(m, e)| format!("numeric{{}}:{m}e{e}")),
        Just("numeric{}:NaN".to_string()),
        Just("numeric{}:-inf".to_string()),
        Just("numeric{}".to_string()),
        "[a-z\u{e9}\u{7f}]{0,5}".prop_map(|s| format!("text{{}}:{s}")),
        Just("text{}".to_string()),
        proptest::collection::vec(any::<u8>(), 0..8)
            .prop_map(|b| format!("blob-var{{}}:{}", hex(&b))),
        proptest::collection::vec(1u8..=255, 0..8).prop_map(move |b| if last {
            format!("blob-copy{{}}:{}", hex(&b))
        } else {
            format!("blob-var{{}}:{}", hex(&b))
        }),
    ];
    (value, dir).prop_map(|(v, d)| v.replacen("{}", d, 1))
}

fn phoenix_component(last: bool) -> impl Strategy<Value = String> {
    let dir = prop_oneof![Just(""), Just(".desc")];
    let value = prop_oneof![
        any::<i8>().prop_map(|v| format!("tinyint{{}}:{v}")),
        any::<i16>().prop_map(|v| format!("smallint{{}}:{v}")),
        any::<i32>().prop_map(|v| format!("integer{{}}:{v}")),
        any::<i64>().prop_map(|v| format!("bigint{{}}:{v}")),
        (0..=i64::MAX).prop_map(|v| format!("unsigned_long{{}}:{v}")),
        any::<f32>().prop_map(|v| format!("float{{}}:{v:?}")),
        any::<f64>().prop_map(|v| format!("double{{}}:{v:?}")),
        any::<bool>().prop_map(|v| format!("boolean{{}}:{v}")),
        (-62_135_596_800_000i64..253_402_300_799_999).prop_map(|v| format!("date{{}}:{v}")),
        (-62_135_596_800_000i64..253_402_300_799_999).prop_map(|v| format!("timestamp{{}}:{v}")),
        "[a-z\u{e9}\u{ff}]{0,5}".prop_map(|s| format!("varchar{{}}:{s}")),
        Just("varchar{}".to_string()),
        (any::<i64>(), -40i32..40).prop_map(|(m, e)| format!("decimal{{}}:{m}e{e}")),
        Just("decimal{}".to_string()),
        (1u16..4, "[ a-z~]{0,3}").prop_map(|(n, s)| {
            let s: String = s.chars().take(usize::from(n)).collect();
            format!("char({n}){{}}:{s}")
        }),
        (1u16..4, proptest::collection::vec(any::<u8>(), 0..4)).prop_map(|(n, mut b)| {
            b.truncate(usize::from(n));
            format!("binary({n}){{}}:{}", hex(&b))
        }),
        proptest::collection::vec(any::<u8>(), 1..6).prop_map(move |b| if last {
            format!("varbinary{{}}:{}", hex(&b))
        } else {
            format!("varchar{{}}:x{}", hex(&b))
        }),
    ];
    (value, dir).prop_map(|(v, d)| v.replacen("{}", d, 1))
}

/// Encodes, decodes, encodes the decoded lines again: the same key; the
/// bulk decode of the key gives the same components.
fn round_trip(profile: &str, comps: &[String], salt: Option<u16>) -> Result<(), TestCaseError> {
    let salt_text = salt.map(|n| n.to_string());
    let mut base = vec!["--format", profile];
    if let Some(s) = &salt_text {
        base.extend(["--salt-buckets", s]);
    }
    let args = [&["encode"][..], &base, &str_refs(comps)].concat();
    let key = match run_in(&args) {
        Ok(k) => k,
        // Values a profile refuses (an all-null Phoenix key, U+0000 in
        // text, a null fixed-width field, …) must be reported, not encoded.
        Err(e) => {
            prop_assert!(!e.is_empty());
            return Ok(());
        }
    };
    let key = key.trim_end().to_string();
    let mut dec = vec!["decode".to_string(), "--format".into(), profile.into()];
    if let Some(s) = &salt_text {
        dec.extend(["--salt-buckets".into(), s.clone()]);
    }
    if profile != "fdb-tuple" {
        let schema: Vec<&str> = comps.iter().map(|c| c.split(':').next().unwrap()).collect();
        dec.extend(["--schema".into(), schema.join(",")]);
    }
    let mut one = dec.clone();
    one.push(key.clone());
    let out = run_in(&str_refs(&one)).map_err(TestCaseError::fail)?;
    let back = lines(&out);
    let args = [&["encode"][..], &base, &str_refs(&back)].concat();
    let again = run_in(&args).map_err(TestCaseError::fail)?;
    prop_assert_eq!(again.trim_end(), key.as_str(), "{:?} -> {:?}", comps, back);
    // JSON decode works on every key.
    let mut json = dec.clone();
    json.extend(["--json".into(), key.clone()]);
    let j = run_in(&str_refs(&json)).map_err(TestCaseError::fail)?;
    prop_assert!(
        j.starts_with("{\"components\":[") && j.ends_with("]}\n"),
        "{}",
        j
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::size::cases(2_000), ..ProptestConfig::default() })]

    #[test]
    fn fdb_round_trip(comps in proptest::collection::vec(fdb_component(), 1..5)) {
        round_trip("fdb-tuple", &comps, None)?;
    }

    #[test]
    fn hbase_round_trip(
        head in proptest::collection::vec(hbase_component(false), 0..3),
        last in hbase_component(true),
    ) {
        let comps: Vec<String> = head.into_iter().chain([last]).collect();
        round_trip("hbase-ordered", &comps, None)?;
    }

    #[test]
    fn phoenix_round_trip(
        head in proptest::collection::vec(phoenix_component(false), 0..3),
        last in phoenix_component(true),
        salt in prop_oneof![Just(None), (1u16..=256).prop_map(Some)],
    ) {
        let comps: Vec<String> = head.into_iter().chain([last]).collect();
        round_trip("phoenix", &comps, salt)?;
    }
}

#[test]
fn round_trips_through_the_binary() {
    // A few hand-picked rows per profile through the real binary, encode →
    // decode → encode, also in bulk mode.
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "fdb-tuple",
            &[],
            &[
                "str:F\u{d4}O",
                "int:-18446744073709551616",
                "f32:-0.0",
                "uuid:00000000-0000-0000-0000-000000000001",
            ],
        ),
        (
            "hbase-ordered",
            &[],
            &[
                "numeric.desc:-1.5e-300",
                "text.desc:",
                "float64:NaN",
                "blob-copy.desc:ff01",
            ],
        ),
        (
            "phoenix",
            &["--salt-buckets", "7"],
            &[
                "varchar.desc:zz",
                "timestamp.desc:2024-05-01T12:00:00.123456789Z",
                "varchar",
                "varbinary.desc:00ff",
            ],
        ),
    ];
    for (profile, extra, comps) in cases {
        let key = ok(&[&["encode", "--format", profile][..], extra, comps].concat());
        let key = key.trim_end();
        let mut schema_args: Vec<String> = Vec::new();
        if *profile != "fdb-tuple" {
            let schema: Vec<&str> = comps.iter().map(|c| c.split(':').next().unwrap()).collect();
            schema_args = vec!["--schema".into(), schema.join(",")];
        }
        let dec = [
            &["decode", "--format", profile][..],
            extra,
            &str_refs(&schema_args),
            &[key],
        ]
        .concat();
        let out = ok(&dec);
        let back = lines(&out);
        assert_eq!(back.len(), comps.len(), "{out}");
        let again = ok(&[
            &["encode", "--format", profile][..],
            extra,
            &str_refs(&back),
        ]
        .concat());
        assert_eq!(again.trim_end(), key, "{profile}: {comps:?} -> {back:?}");
        let bulk = ok_with(
            &[
                &["decode", "--format", profile, "--stdin"][..],
                extra,
                &str_refs(&schema_args),
            ]
            .concat(),
            format!("{key}\n{}\n", key.to_uppercase()).as_bytes(),
        );
        let row = back.join("\t");
        assert_eq!(bulk, format!("{row}\n{row}\n"));
    }
}

// ---------------------------------------------------------------------------
// Exact ranges (in-process): every key of a sample table is inside the
// printed range exactly when its row satisfies the query
// ---------------------------------------------------------------------------

/// A printed range: start and end, `None` when unbounded.
type Printed = (Option<Vec<u8>>, Option<Vec<u8>>);

/// The ranges printed by `range` (raw output, pairs of lines).
fn printed_ranges(out: &str) -> Vec<Printed> {
    let side = |l: &str| (!l.is_empty()).then(|| unhex(l));
    let ls: Vec<&str> = out.lines().collect();
    assert!(ls.len().is_multiple_of(2), "{out:?}");
    ls.chunks(2).map(|p| (side(p[0]), side(p[1]))).collect()
}

fn inside(ranges: &[Printed], key: &[u8]) -> bool {
    ranges
        .iter()
        .any(|(s, e)| s.as_deref().is_none_or(|s| key >= s) && e.as_deref().is_none_or(|e| key < e))
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
}

const OPS: [Op; 5] = [Op::Eq, Op::Ge, Op::Gt, Op::Le, Op::Lt];

impl Op {
    fn flag(self) -> &'static str {
        match self {
            Op::Eq => "--eq",
            Op::Ge => "--ge",
            Op::Gt => "--gt",
            Op::Le => "--le",
            Op::Lt => "--lt",
        }
    }

    fn holds(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Op::Eq => o == Equal,
            Op::Ge => o != Less,
            Op::Gt => o == Greater,
            Op::Le => o != Greater,
            Op::Lt => o == Less,
        }
    }
}

/// Runs every query of `queries` (predicate lists) under `prefix` and checks
/// each key: `expect(key index, query)` says whether it belongs.
fn check_queries(
    base: &[&str],
    prefix: &[&str],
    queries: &[Vec<(Op, String)>],
    keys: &[Vec<u8>],
    expect: impl Fn(usize, &[(Op, String)]) -> bool,
) -> usize {
    let mut checked = 0;
    for q in queries {
        let mut args: Vec<&str> = [&["range"][..], base, prefix].concat();
        for (op, c) in q {
            args.push(op.flag());
            args.push(c);
        }
        let out = match run_in(&args) {
            Ok(o) => o,
            Err(e) if e.contains("no key can match") => {
                for (i, k) in keys.iter().enumerate() {
                    assert!(!expect(i, q), "{args:?}: empty, but {} matches", hex(k));
                }
                continue;
            }
            Err(e) => panic!("{args:?}: {e}"),
        };
        let ranges = printed_ranges(&out);
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(
                inside(&ranges, k),
                expect(i, q),
                "{args:?} -> {out:?}: key {}",
                hex(k)
            );
            checked += 1;
        }
    }
    checked
}

/// Single predicates on every operand, and pairs of bounds.
fn queries_over(operands: &[String]) -> Vec<Vec<(Op, String)>> {
    let mut qs = vec![vec![]];
    for w in operands {
        for op in OPS {
            qs.push(vec![(op, w.clone())]);
        }
    }
    for (i, a) in operands.iter().enumerate().step_by(3) {
        for b in operands.iter().skip(i).step_by(4) {
            qs.push(vec![(Op::Ge, a.clone()), (Op::Lt, b.clone())]);
            qs.push(vec![(Op::Gt, a.clone()), (Op::Le, b.clone())]);
        }
    }
    qs
}

#[test]
fn fdb_ranges_are_exact() {
    let values: Vec<String> = [
        "null:",
        "bytes:",
        "bytes:00",
        "bytes:0000",
        "bytes:00ff",
        "bytes:01",
        "str:",
        "str:a",
        "str:a\u{0}",
        "str:a\u{0}b",
        "str:ab",
        "str:b",
        "int:-18446744073709551616",
        "int:-256",
        "int:-1",
        "int:0",
        "int:1",
        "int:255",
        "int:256",
        "int:18446744073709551615",
        "int:18446744073709551616",
        "f32:-inf",
        "f32:-0.0",
        "f32:0.0",
        "f32:NaN",
        "f64:-1.5",
        "f64:1.5",
        "bool:false",
        "bool:true",
        "uuid:00000000-0000-0000-0000-000000000000",
        "versionstamp:000000000000000000000001",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let elems: Vec<fdb::Element> = values
        .iter()
        .map(|v| fdb::parse_component(v).unwrap())
        .collect();
    let prefixes: Vec<Vec<&str>> = vec![vec![], vec!["str:a"], vec!["str:a", "int:1"]];
    let others = [vec!["str:b"], vec!["str:a", "int:2"], vec!["str:a\u{0}"]];
    let suffixes: Vec<Vec<fdb::Element>> = vec![
        vec![],
        vec![fdb::Element::from(7_i64)],
        vec![fdb::Element::Null],
        vec![fdb::Element::from("z")],
    ];
    // The sample table: (prefix, next, suffix) rows under each prefix and
    // the others, plus the prefix tuples themselves.
    let mut rows: Vec<Vec<fdb::Element>> = Vec::new();
    for p in prefixes.iter().chain(&others) {
        let p: Vec<fdb::Element> = p.iter().map(|c| fdb::parse_component(c).unwrap()).collect();
        rows.push(p.clone());
        for e in &elems {
            for s in &suffixes {
                rows.push(p.iter().chain([e]).chain(s).cloned().collect());
            }
        }
    }
    let keys: Vec<Vec<u8>> = rows.iter().map(|r| fdb::pack_to_vec(r)).collect();
    let mut queries = queries_over(&values);
    for s in ["", "a", "a\u{0}", "b"] {
        queries.push(vec![]);
        let last = queries.len() - 1;
        queries[last] = vec![(Op::Eq, format!("prefix:{s}"))];
    }
    let mut checked = 0;
    for prefix in &prefixes {
        let pe: Vec<fdb::Element> = prefix
            .iter()
            .map(|c| fdb::parse_component(c).unwrap())
            .collect();
        for q in &queries {
            // --prefix rides along as a fake predicate.
            let (preds, prefix_arg): (Vec<(Op, String)>, Option<String>) = match q.first() {
                Some((_, p)) if p.starts_with("prefix:") => (vec![], Some(p[7..].to_string())),
                _ => (q.clone(), None),
            };
            let mut base = vec!["--format", "fdb-tuple"];
            if let Some(s) = &prefix_arg {
                base.extend(["--prefix", s.as_str()]);
            }
            checked += check_queries(&base, prefix, &[preds], &keys, |i, preds| {
                let r = &rows[i];
                if r.len() <= pe.len() || r[..pe.len()] != pe[..] {
                    return false;
                }
                let next = &r[pe.len()];
                if let Some(s) = &prefix_arg {
                    return matches!(next, fdb::Element::String(t) if t.starts_with(s.as_str()));
                }
                preds
                    .iter()
                    .all(|(op, w)| op.holds(next.cmp(&fdb::parse_component(w).unwrap())))
            });
        }
    }
    eprintln!("fdb-tuple: {checked} key checks");
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn hbase_ranges_are_exact() {
    use hbase::{Field, Value};
    // Next-field kinds, each with values in ascending order (blob-var: one
    // length, so HBase's own order exception does not apply).
    let kinds: &[(&str, &[&str])] = &[
        (
            "int64",
            &[
                "-9223372036854775808",
                "-1",
                "0",
                "5",
                "9223372036854775807",
            ],
        ),
        ("float64", &["-inf", "-0.0", "0.0", "2.5", "inf", "NaN"]),
        (
            "numeric",
            &[
                "-inf", "-1e300", "-12.5", "-0.01", "0", "0.5", "1", "100", "1e300", "inf", "NaN",
            ],
        ),
        ("text", &["", "a", "ab", "b", "\u{e9}"]),
        ("blob-var", &["0000", "00ff", "0100", "ffff"]),
        ("blob-copy", &["", "00", "0000", "01", "ff"]),
    ];
    let prefixes: &[&[&str]] = &[
        &[],
        &["text:a"],
        &["text:a", "numeric"],
        &["text:a", "numeric.desc"],
        &["int32.desc:7"],
    ];
    let mut checked = 0;
    for (kind, vals) in kinds {
        for dir in ["", ".desc"] {
            let field = Field::parse(&format!("{kind}{dir}")).unwrap();
            let vals: Vec<&str> = vals
                .iter()
                .copied()
                // Descending blob-copy values may not hold 00.
                .filter(|v| !(*kind == "blob-copy" && dir == ".desc" && v.contains("00")))
                .collect();
            let mut operands: Vec<String> = vals.iter().map(|v| format!("{field}:{v}")).collect();
            if field.kind.is_nullable() {
                operands.push(field.to_string()); // null, for --eq
            }
            for prefix in prefixes {
                let (pf, pv): (Vec<Field>, Vec<Value>) = prefix
                    .iter()
                    .map(|c| hbase::parse_component(c).unwrap())
                    .unzip();
                // The table: prefix fields, the next field, then a text
                // field (unless the next is blob-copy, which is last).
                let mut schema = pf.clone();
                schema.push(field);
                let tail = *kind != "blob-copy";
                if tail {
                    schema.push(Field::asc(hbase::Kind::Text));
                }
                let other_prefixes: Vec<Vec<Value>> = {
                    let mut o = vec![pv.clone()];
                    if let Some(first) = pv.first() {
                        let mut x = pv.clone();
                        x[0] = match first {
                            Value::Text(_) => Value::from("b"),
                            _ => Value::Int32(8),
                        };
                        o.push(x);
                    }
                    o
                };
                let mut next_vals: Vec<Value> = vals
                    .iter()
                    .map(|v| hbase::parse_value(field.kind, v).unwrap())
                    .collect();
                if field.kind.is_nullable() {
                    next_vals.push(Value::Null);
                }
                let mut rows: Vec<Vec<Value>> = Vec::new();
                for p in &other_prefixes {
                    for v in &next_vals {
                        let mut r = p.clone();
                        r.push(v.clone());
                        if tail {
                            for t in [Value::Null, Value::from("z")] {
                                let mut rt = r.clone();
                                rt.push(t);
                                rows.push(rt);
                            }
                        } else {
                            rows.push(r);
                        }
                    }
                }
                let mut keyed: Vec<(Vec<Value>, Vec<u8>)> = Vec::new();
                for r in rows {
                    let mut k = Vec::new();
                    if hbase::encode_struct(&schema, &r, &mut k).is_ok() {
                        keyed.push((r, k));
                    }
                }
                let keys: Vec<Vec<u8>> = keyed.iter().map(|(_, k)| k.clone()).collect();
                let npre = pf.len();
                let mut queries = queries_over(&operands);
                // A null operand (a bare type) only goes with --eq.
                queries.retain(|q| q.iter().all(|(op, w)| w.contains(':') || *op == Op::Eq));
                // The documented exceptions: the row written as the prefix
                // alone is not next to a descending null.
                let desc_null_prefix = pv
                    .iter()
                    .zip(&pf)
                    .rev()
                    .take_while(|(v, _)| matches!(v, Value::Null))
                    .any(|(_, f)| f.order == hbase::Order::Descending);
                checked += check_queries(
                    &["--format", "hbase-ordered"],
                    prefix,
                    &queries,
                    &keys,
                    |i, q| {
                        let r = &keyed[i].0;
                        if r[..npre] != pv[..] {
                            return false;
                        }
                        let next = &r[npre];
                        let rest_null = r[npre..].iter().all(|v| matches!(v, Value::Null));
                        if q.is_empty() {
                            return !(desc_null_prefix && rest_null);
                        }
                        q.iter().all(|(op, w)| {
                            let (_, w) = hbase::parse_component(w).unwrap();
                            match (&w, next) {
                                (Value::Null, Value::Null) => {
                                    // --eq KIND.desc (null) leaves out the
                                    // row written as the prefix alone.
                                    !(rest_null
                                        && (desc_null_prefix
                                            || field.order == hbase::Order::Descending))
                                }
                                (Value::Null, _) => false,
                                (_, Value::Null) => false,
                                _ => op.holds(next.cmp(&w)),
                            }
                        })
                    },
                );
            }
        }
    }
    // --prefix on an ascending text.
    let keys: Vec<Vec<u8>> = ["", "a", "ab", "abc", "b"]
        .iter()
        .map(|s| {
            let mut k = Vec::new();
            let schema = [Field::asc(hbase::Kind::Int8), Field::asc(hbase::Kind::Text)];
            hbase::encode_struct(&schema, &[Value::Int8(1), Value::from(*s)], &mut k).unwrap();
            k
        })
        .collect();
    let out = must(&[
        "range",
        "--format",
        "hbase-ordered",
        "int8:1",
        "--prefix",
        "ab",
    ]);
    let r = printed_ranges(&out);
    let got: Vec<bool> = keys.iter().map(|k| inside(&r, k)).collect();
    assert_eq!(got, [false, false, true, true, false]);
    eprintln!("hbase: {checked} key checks");
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn phoenix_ranges_are_exact() {
    use phoenix::{Column, Table, Value};
    let kinds: &[(&str, &[&str])] = &[
        ("integer", &["-2147483648", "-1", "0", "7", "2147483647"]),
        ("unsigned_int", &["0", "1", "2147483647"]),
        ("double", &["-inf", "-0.0", "0.0", "1.5", "inf", "NaN"]),
        ("boolean", &["false", "true"]),
        (
            "timestamp",
            &[
                "1969-12-31T23:59:59.999999999Z",
                "1970-01-01T00:00:00Z",
                "1970-01-01T00:00:00.000000001Z",
                "2024-05-01T12:00:00.5Z",
            ],
        ),
        ("varchar", &["a", "a b", "ab", "abc", "b", "\u{e9}"]),
        ("varbinary", &["00", "0000", "0001", "01", "ff"]),
        (
            "decimal",
            &[
                "-1.2345678901234567890123456789012345678",
                "-1.5",
                "-1",
                "-0.01",
                "0",
                "0.01",
                "1",
                "1.5",
                "100",
            ],
        ),
        ("char(2)", &["", "\u{1}", "a", "a\u{1}", "ab", "b"]),
        ("binary(2)", &["00", "0001", "01", "ff", "ffff"]),
    ];
    let prefixes: &[&[&str]] = &[
        &[],
        &["varchar:us"],
        &["varchar.desc:us"],
        &["varchar:us", "varchar"],
        &["varchar.desc:us", "varchar.desc"],
        &["integer.desc:5"],
    ];
    let mut checked = 0;
    for (ty, vals) in kinds {
        for dir in ["", ".desc"] {
            let col = Column::parse(&format!("{ty}{dir}")).unwrap();
            let var = col.ty.fixed_width().is_none();
            let mut operands: Vec<String> = vals.iter().map(|v| format!("{col}:{v}")).collect();
            if var {
                operands.push(col.to_string());
            }
            let eq_only = col.ty == phoenix::Type::Varbinary && dir == ".desc";
            for prefix in prefixes {
                let (pc, pv): (Vec<Column>, Vec<Value>) = prefix
                    .iter()
                    .map(|c| phoenix::parse_component(c).unwrap())
                    .unzip();
                let mut columns = pc.clone();
                columns.push(col);
                let tail = col.ty != phoenix::Type::Varbinary;
                if tail {
                    columns.push(Column::asc(phoenix::Type::Varchar));
                }
                let table = Table::new(columns);
                let mut prefix_vals = vec![pv.clone()];
                if let Some(first) = pv.first() {
                    let mut x = pv.clone();
                    x[0] = match first {
                        Value::Varchar(_) => Value::from("ut"),
                        _ => Value::Int(6),
                    };
                    prefix_vals.push(x);
                    let mut y = pv.clone();
                    if let Value::Varchar(_) = first {
                        y[0] = Value::from("u");
                        prefix_vals.push(y);
                    }
                }
                let mut next_vals: Vec<Value> = vals
                    .iter()
                    .map(|v| phoenix::parse_value(col.ty, v).unwrap())
                    .collect();
                if var {
                    next_vals.push(Value::Null);
                }
                let mut keyed: Vec<(Vec<Value>, Vec<u8>)> = Vec::new();
                for p in &prefix_vals {
                    for v in &next_vals {
                        let tails: Vec<Option<Value>> = if tail {
                            vec![None, Some(Value::from("z"))]
                        } else {
                            vec![None]
                        };
                        for t in tails {
                            let mut r = p.clone();
                            r.push(v.clone());
                            r.extend(t);
                            let mut k = Vec::new();
                            if phoenix::encode_row_key(&table, &r, &mut k).is_ok() {
                                while r.len() < table.columns.len() {
                                    r.push(Value::Null);
                                }
                                keyed.push((r, k));
                            }
                        }
                    }
                }
                let keys: Vec<Vec<u8>> = keyed.iter().map(|(_, k)| k.clone()).collect();
                let npre = pc.len();
                let mut queries = queries_over(&operands);
                queries.retain(|q| q.iter().all(|(op, w)| w.contains(':') || *op == Op::Eq));
                if eq_only {
                    queries.retain(|q| q.iter().all(|(op, _)| *op == Op::Eq));
                }
                checked +=
                    check_queries(&["--format", "phoenix"], prefix, &queries, &keys, |i, q| {
                        let r = &keyed[i].0;
                        if r[..npre] != pv[..] {
                            return false;
                        }
                        let next = &r[npre];
                        q.iter().all(|(op, w)| {
                            let (_, w) = phoenix::parse_component(w).unwrap();
                            match (w.is_null(), next.is_null()) {
                                (true, n) => n,
                                (false, true) => false,
                                _ => op.holds(next.cmp(&w)),
                            }
                        })
                    });
                // --prefix on an ascending varchar.
                if col.ty == phoenix::Type::Varchar && dir.is_empty() {
                    for s in ["", "a", "ab", "\u{e9}"] {
                        let mut args = vec!["range", "--format", "phoenix"];
                        args.extend_from_slice(prefix);
                        args.extend(["--prefix", s]);
                        let r = printed_ranges(&must(&args));
                        for (row, k) in &keyed {
                            let want = row[..npre] == pv[..]
                                && matches!(&row[npre], Value::Varchar(t) if t.starts_with(s));
                            assert_eq!(inside(&r, k), want, "{args:?}: {}", hex(k));
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("phoenix: {checked} key checks");
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn phoenix_salted_ranges_are_the_unsalted_range_in_every_bucket() {
    use phoenix::{Table, Value};
    let table = Table::parse("varchar,integer,varchar").unwrap();
    for buckets in [1u16, 2, 3, 16, 256] {
        let salted = table.clone().salted(buckets);
        let b = buckets.to_string();
        for (prefix, preds) in [
            (vec!["varchar:us"], vec![]),
            (
                vec!["varchar:us"],
                vec!["--ge", "integer:3", "--lt", "integer:9"],
            ),
            (vec![], vec!["--lt", "varchar:v"]),
            (vec![], vec![]),
        ] {
            let args = [
                &["range", "--format", "phoenix", "--salt-buckets", &b][..],
                &prefix,
                &preds,
            ]
            .concat();
            let out = must(&args);
            let ranges = printed_ranges(&out);
            assert_eq!(ranges.len(), usize::from(buckets), "{args:?}");
            let unsalted = printed_ranges(&must(
                &[&["range", "--format", "phoenix"][..], &prefix, &preds].concat(),
            ));
            for country in ["ur", "us", "ut"] {
                for n in 0..12 {
                    for city in ["", "x"] {
                        let row = [Value::from(country), Value::Int(n), Value::from(city)];
                        let mut k = Vec::new();
                        phoenix::encode_row_key(&salted, &row, &mut k).unwrap();
                        assert_eq!(
                            inside(&ranges, &k),
                            inside(&unsalted, &k[1..]),
                            "{args:?}: {}",
                            hex(&k)
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn salted_range_renders_one_scan_per_bucket() {
    let out = ok(&[
        "range",
        "--format",
        "phoenix",
        "--salt-buckets",
        "3",
        "--for",
        "hbase",
        "--table",
        "EVENTS",
        "--limit",
        "10",
        "varchar:us",
    ]);
    assert_eq!(
        out,
        concat!(
            "scan 'EVENTS', {STARTROW => \"\\x00us\", STOPROW => \"\\x00us\\x01\", LIMIT => 10}\n",
            "scan 'EVENTS', {STARTROW => \"\\x01us\", STOPROW => \"\\x01us\\x01\", LIMIT => 10}\n",
            "scan 'EVENTS', {STARTROW => \"\\x02us\", STOPROW => \"\\x02us\\x01\", LIMIT => 10}\n",
        )
    );
    // The last bucket of 256 runs to the end of the table.
    let out = ok(&["range", "--format", "phoenix", "--salt-buckets", "256"]);
    let ls: Vec<&str> = out.lines().collect();
    assert_eq!(ls.len(), 512);
    assert_eq!(&ls[..2], ["00", "01"]);
    assert_eq!(&ls[510..], ["ff", ""]);
    let json = ok(&[
        "range",
        "--format",
        "phoenix",
        "--salt-buckets",
        "2",
        "--for",
        "rocksdb",
        "--json",
        "varchar:a",
    ]);
    assert_eq!(
        json,
        concat!(
            "{\"ranges\":[{\"start\":\"0061\",\"end\":\"006101\"},{\"start\":\"0161\",",
            "\"end\":\"016101\"}],\"for\":\"rocksdb\",\"output\":\"iterate_lower_bound=0x0061\\n",
            "iterate_upper_bound=0x006101\\niterate_lower_bound=0x0161\\n",
            "iterate_upper_bound=0x016101\\n\"}\n"
        )
    );
}

#[test]
fn help_texts_name_the_profiles() {
    for cmd in ["encode", "decode", "range"] {
        let help = ok(&["help", cmd]);
        for word in [
            "fdb-tuple",
            "hbase-ordered",
            "phoenix",
            "--salt-buckets",
            "--hbase-numeric",
        ] {
            assert!(help.contains(word), "help {cmd}: {word}");
        }
        assert_eq!(
            help.contains("--round"),
            cmd != "decode",
            "help {cmd}: --round"
        );
        assert_eq!(
            help.contains("HBASE-26566"),
            cmd != "range",
            "help {cmd}: HBASE-26566"
        );
    }
    let _ = fails(&[
        "encode",
        "--format",
        "phoenix",
        "--salt-buckets",
        "x",
        "varchar:a",
    ]);
    let _ = fails_with(&["decode", "--format", "fdb-tuple", "--stdin"], b"zz\n");
}

/// fixtures/interop/fdb-versionstamp.tsv (keys of the official Python
/// bindings' `pack` and `pack_with_versionstamp`) through the binary: the
/// components encode to the key (`--versionstamp` for `vpack`), and the key
/// (without the offset) decodes to the components.
#[test]
fn fdb_versionstamp_vectors_through_the_binary() {
    let rows = rows("fdb-versionstamp.tsv");
    assert!(rows.len() >= 12);
    for row in &rows {
        let (key, comps) = (&row[1], str_refs(&row[2..]));
        let mut args = vec!["encode", "--format", "fdb-tuple"];
        if row[0] == "vpack" {
            args.push("--versionstamp");
        }
        assert_eq!(
            must(&[&args[..], &comps].concat()),
            format!("{key}\n"),
            "{row:?}"
        );
        let body = if row[0] == "vpack" {
            &key[..key.len() - 8]
        } else {
            &key[..]
        };
        let want: String = row[2..].iter().map(|c| format!("{c}\n")).collect();
        assert_eq!(
            must(&["decode", "--format", "fdb-tuple", body]),
            want,
            "{row:?}"
        );
    }
}

/// The nested rows of fixtures/interop/fdb.tsv (whose `(` … `)` columns
/// had no component syntax) encode through the binary from what decode
/// prints for them.
#[test]
fn fdb_nested_vectors_encode_through_the_binary() {
    let mut checked = 0;
    for row in rows("fdb.tsv") {
        let (elems, nested) = fdb_elements(&row[1..]);
        if !nested {
            continue;
        }
        let printed = must(&["decode", "--format", "fdb-tuple", &row[0]]);
        let comps: Vec<&str> = printed.lines().collect();
        assert_eq!(comps.len(), elems.len());
        let mut args = vec!["encode", "--format", "fdb-tuple"];
        args.extend(&comps);
        assert_eq!(must(&args), format!("{}\n", row[0]), "{comps:?}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked} nested vectors");
}
