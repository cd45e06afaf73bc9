//! Golden outputs of every command in every mode (format × direction ×
//! JSON), run through the built binary. A changed byte fails.

mod common;

use common::{ok, ok_with};

/// `(arguments, exact stdout)`.
const GOLDEN: &[(&[&str], &str)] = &[
    // --- encode: the grammar's own example, then every format × direction × json.
    (&["encode", "--format", "hex", "str:population", "i64:3831868"], "population#l80000000003A783C\n"),
    (&["encode", "str:population", "i64:3831868"], "population#l80000000003A783C\n"),
    (&["encode", "--format=hex", "str:population", "i64:3831868"], "population#l80000000003A783C\n"),
    (&["encode", "str:population", "i64:3831868", "--format", "hex"], "population#l80000000003A783C\n"),
    (&["encode", "--json", "str:population", "i64:3831868"], "{\"key\":\"population#l80000000003A783C\"}\n"),
    (&["encode", "str.desc:population", "i64.desc:3831868"], "8F908F8A939E8B969091~#L7FFFFFFFFFC587C3\n"),
    (&["encode", "--json", "str.desc:population", "i64.desc:3831868"], "{\"key\":\"8F908F8A939E8B969091~#L7FFFFFFFFFC587C3\"}\n"),
    (&["encode", "--format", "base64", "str:population", "i64:3831868"], "population#lV------uT2k\n"),
    (&["encode", "--format", "base64", "i64:3831868"], "lV------uT2k\n"),
    (&["encode", "--format", "base64", "--json", "str:population", "i64:3831868"], "{\"key\":\"population#lV------uT2k\"}\n"),
    (&["encode", "--format", "base64", "str.desc:population", "i64.desc:3831868"], "Yt1EXdDTXtPFZU~#LUzzzzzz4WwB\n"),
    (&["encode", "--format", "base64", "--json", "str.desc:population", "i64.desc:3831868"], "{\"key\":\"Yt1EXdDTXtPFZU~#LUzzzzzz4WwB\"}\n"),
    (&["encode", "--format", "decimal", "str:population", "i64:3831868"], "population#00000000000003831868\n"),
    (&["encode", "--format", "decimal", "--json", "str:population", "i64:3831868"], "{\"key\":\"population#00000000000003831868\"}\n"),
    (&["encode", "--format", "decimal", "str.desc:population", "i64.desc:3831868"], "8F908F8A939E8B969091~#-9999999999996168131\n"),
    (&["encode", "--format", "decimal", "--json", "str.desc:population", "i64.desc:3831868"], "{\"key\":\"8F908F8A939E8B969091~#-9999999999996168131\"}\n"),
    (&["encode", "--format", "binary", "str:population", "i64:3831868"], "706f70756c6174696f6e000180000000003a783c\n"),
    (&["encode", "--format", "binary", "--json", "str:population", "i64:3831868"], "{\"key\":\"706f70756c6174696f6e000180000000003a783c\"}\n"),
    (&["encode", "--format", "binary", "str.desc:population", "i64.desc:3831868"], "8f908f8a939e8b969091fffe7fffffffffc587c3\n"),
    (&["encode", "--format", "binary", "--json", "str.desc:population", "i64.desc:3831868"], "{\"key\":\"8f908f8a939e8b969091fffe7fffffffffc587c3\"}\n"),
    // --width (decimal only): the design's population example.
    (&["encode", "--format", "decimal", "--width", "7", "u64:389625"], "0389625\n"),
    (&["encode", "--format", "decimal", "--width", "7", "str:population", "u64:389625"], "population#0389625\n"),
    (&["encode", "--format", "decimal", "--width", "7", "i64:-5"], "-999994\n"),
    (&["encode", "--format", "decimal", "--width", "7", "i64.desc:-5"], "0000005\n"),
    // Composite text keys, escaping, every type.
    (&["encode", "str:usa", "str:california", "str:san francisco"], "usa#california#san%20francisco\n"),
    (&["encode", "str:a#b%c$d"], "a%23b%25c%24d\n"),
    (&["encode", "str:"], "\n"),
    (&["encode", "str:a:b"], "a:b\n"),
    (&["encode", "--json", "str:say \"hi\"\\"], "{\"key\":\"say%20%22hi%22\\\\\"}\n"),
    (&["encode", "str:é\u{7f}"], "é\u{7f}\n"),
    (&["encode", "bool:true", "bool.desc:true"], "b01#BFE\n"),
    (&["encode", "f64:1.0", "f64:-0.0", "f64:NaN", "f64:-inf"], "dBFF0000000000000#d7FFFFFFFFFFFFFFF#dFFF8000000000000#d000FFFFFFFFFFFFF\n"),
    (&["encode", "f64.desc:1.0"], "D400FFFFFFFFFFFFF\n"),
    (&["encode", "f32:1.5", "f32.desc:1.5"], "fBFC00000#F403FFFFF\n"),
    (&["encode", "uuid:123e4567-e89b-12d3-a456-426614174000"], "g123E4567E89B12D3A456426614174000\n"),
    (&["encode", "uuid.desc:123E4567-E89B-12D3-A456-426614174000"], "GEDC1BA981764ED2C5BA9BD99EBE8BFFF\n"),
    (&["encode", "i32:-1", "i32.desc:-1"], "i7FFFFFFF#I80000000\n"),
    (&["encode", "i64:-1", "i64.desc:-1"], "l7FFFFFFFFFFFFFFF#L8000000000000000\n"),
    (&["encode", "ts:2024-05-01T12:00:00Z", "ts.desc:2024-05-01T12:00:00Z"], "t8000018F34069E00#T7FFFFE70CBF961FF\n"),
    (&["encode", "ts:1714564800000"], "t8000018F34069E00\n"),
    (&["encode", "u64:42", "u64.desc:42"], "u000000000000002A#UFFFFFFFFFFFFFFD5\n"),
    (&["encode", "u32:42", "u32.desc:42"], "w0000002A#WFFFFFFD5\n"),
    (&["encode", "bytes:00ff", "bytes.desc:00FF"], "x00FF#XFF00~\n"),
    (&["encode", "str.desc:san francisco"], "8C9E91DF998D9E919C968C9C90~\n"),
    (&["encode", "str.desc:"], "~\n"),
    (&["encode", "--format", "base64", "bool:true", "f64:1.0", "u32:42", "bytes:00ff"], "b-F#djz---------#w----9V#x-Ew\n"),
    (&["encode", "--format", "decimal", "bool:true", "i32:-1", "u32:42", "ts:2024-05-01T12:00:00Z"], "1#-9999999998#0000000042#00000001714564800000\n"),
    (&["encode", "--format", "decimal", "uuid:123e4567-e89b-12d3-a456-426614174000"], "024249434048109030647017182301789831168\n"),
    (&["encode", "--format", "binary", "str:", "bytes:00ff", "f64:-inf"], "000100ffff0001000fffffffffffff\n"),
    // Arguments that begin with '-'.
    (&["encode", "i64:-5"], "l7FFFFFFFFFFFFFFB\n"),
    (&["encode", "str:--x"], "--x\n"),
    (&["encode", "--", "str:--x"], "--x\n"),
    (&["encode", "--format", "decimal", "i64:-1"], "-9999999999999999998\n"),
    // --- decode: every format × direction × json.
    (&["decode", "population#l80000000003A783C"], "str:population\ni64:3831868\n"),
    (&["decode", "--schema", "str,i64", "population#l80000000003A783C"], "str:population\ni64:3831868\n"),
    (&["decode", "--json", "population#l80000000003A783C"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"population\"},{\"type\":\"i64\",\"dir\":\"asc\",\"value\":3831868}]}\n"),
    (&["decode", "8F908F8A939E8B969091~#L7FFFFFFFFFC587C3", "--schema", "str.desc,i64.desc"], "str.desc:population\ni64.desc:3831868\n"),
    (&["decode", "--json", "--schema", "str.desc,i64.desc", "8F908F8A939E8B969091~#L7FFFFFFFFFC587C3"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"desc\",\"value\":\"population\"},{\"type\":\"i64\",\"dir\":\"desc\",\"value\":3831868}]}\n"),
    (&["decode", "--format", "base64", "population#lV------uT2k"], "str:population\ni64:3831868\n"),
    (&["decode", "--format", "base64", "--schema", "str.desc,i64.desc", "Yt1EXdDTXtPFZU~#LUzzzzzz4WwB"], "str.desc:population\ni64.desc:3831868\n"),
    (&["decode", "--format", "base64", "--json", "--schema", "str.desc,i64.desc", "Yt1EXdDTXtPFZU~#LUzzzzzz4WwB"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"desc\",\"value\":\"population\"},{\"type\":\"i64\",\"dir\":\"desc\",\"value\":3831868}]}\n"),
    (&["decode", "--format", "decimal", "--schema", "str,i64", "population#00000000000003831868"], "str:population\ni64:3831868\n"),
    (&["decode", "--format", "decimal", "--schema", "str.desc,i64.desc", "8F908F8A939E8B969091~#-9999999999996168131"], "str.desc:population\ni64.desc:3831868\n"),
    (&["decode", "--format", "decimal", "--json", "--schema", "str,i64", "population#00000000000003831868"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"population\"},{\"type\":\"i64\",\"dir\":\"asc\",\"value\":3831868}]}\n"),
    (&["decode", "--format", "decimal", "--width", "7", "--schema", "str,u64", "population#0389625"], "str:population\nu64:389625\n"),
    (&["decode", "--format", "binary", "--schema", "str,i64", "706f70756c6174696f6e000180000000003a783c"], "str:population\ni64:3831868\n"),
    (&["decode", "--format", "binary", "--schema", "str,i64", "706F70756C6174696F6E000180000000003A783C"], "str:population\ni64:3831868\n"),
    (&["decode", "--format", "binary", "--schema", "str.desc,i64.desc", "8f908f8a939e8b969091fffe7fffffffffc587c3"], "str.desc:population\ni64.desc:3831868\n"),
    (&["decode", "--format", "binary", "--json", "--schema", "str.desc,i64.desc", "8f908f8a939e8b969091fffe7fffffffffc587c3"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"desc\",\"value\":\"population\"},{\"type\":\"i64\",\"dir\":\"desc\",\"value\":3831868}]}\n"),
    // Every type's text and JSON value forms.
    (&["decode", "b01#dBFF0000000000000#fBFC00000#g123E4567E89B12D3A456426614174000#i7FFFFFFF#t8000018F34069E00#u000000000000002A#w0000002A#x00FF#usa"],
        "bool:true\nf64:1.0\nf32:1.5\nuuid:123e4567-e89b-12d3-a456-426614174000\ni32:-1\nts:2024-05-01T12:00:00.000Z\nu64:42\nu32:42\nbytes:00ff\nstr:usa\n"),
    (&["decode", "--json", "b01#dBFF0000000000000#fBFC00000#g123E4567E89B12D3A456426614174000#i7FFFFFFF#t8000018F34069E00#u000000000000002A#w0000002A#x00FF#usa"],
        "{\"components\":[{\"type\":\"bool\",\"dir\":\"asc\",\"value\":true},{\"type\":\"f64\",\"dir\":\"asc\",\"value\":1.0},{\"type\":\"f32\",\"dir\":\"asc\",\"value\":1.5},{\"type\":\"uuid\",\"dir\":\"asc\",\"value\":\"123e4567-e89b-12d3-a456-426614174000\"},{\"type\":\"i32\",\"dir\":\"asc\",\"value\":-1},{\"type\":\"ts\",\"dir\":\"asc\",\"value\":\"2024-05-01T12:00:00.000Z\"},{\"type\":\"u64\",\"dir\":\"asc\",\"value\":42},{\"type\":\"u32\",\"dir\":\"asc\",\"value\":42},{\"type\":\"bytes\",\"dir\":\"asc\",\"value\":\"00ff\"},{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"usa\"}]}\n"),
    (&["decode", "--json", "dFFF8000000000000#d000FFFFFFFFFFFFF#d7FFFFFFFFFFFFFFF"],
        "{\"components\":[{\"type\":\"f64\",\"dir\":\"asc\",\"value\":\"NaN\"},{\"type\":\"f64\",\"dir\":\"asc\",\"value\":\"-inf\"},{\"type\":\"f64\",\"dir\":\"asc\",\"value\":-0.0}]}\n"),
    (&["decode", "--json", "a%0A%09%22\\%01"],
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"a\\n\\t\\\"\\\\\\u0001\"}]}\n"),
    (&["decode", "usa#california#san%20francisco"], "str:usa\nstr:california\nstr:san francisco\n"),
    (&["decode", ""], "str:\n"),
    // Keys that begin with '-'.
    (&["decode", "--format", "decimal", "--schema", "i64", "-9999999999999999998"], "i64:-1\n"),
    (&["decode", "--format", "decimal", "--schema", "i64", "--", "-9999999999999999998"], "i64:-1\n"),
    (&["decode", "--", "--x"], "str:--x\n"),
    (&["decode", "--%20x"], "str:-- x\n"),
    // --- range: raw and JSON, every format × direction.
    (&["range", "str:population", "--ge", "i64:1000000"], "population#l80000000000F4240\npopulation$\n"),
    (&["range", "--for", "raw", "str:population", "--ge", "i64:1000000"], "population#l80000000000F4240\npopulation$\n"),
    (&["range", "--json", "str:population", "--ge", "i64:1000000"], "{\"start\":\"population#l80000000000F4240\",\"end\":\"population$\"}\n"),
    (&["range", "str.desc:population", "--ge", "i64.desc:1000000"], "8F908F8A939E8B969091~#\n8F908F8A939E8B969091~#L7FFFFFFFFFF0BDBF$\n"),
    (&["range", "--format", "base64", "str:population", "--ge", "i64:1000000"], "population#lV------EFZ-\npopulation$\n"),
    (&["range", "--format", "base64", "str.desc:population", "--ge", "i64.desc:1000000"], "Yt1EXdDTXtPFZU~#\nYt1EXdDTXtPFZU~#LUzzzzzzkjQw$\n"),
    (&["range", "--format", "decimal", "str:population", "--ge", "i64:1000000"], "population#00000000000001000000\npopulation$\n"),
    (&["range", "--format", "decimal", "--width", "7", "str:population", "--ge", "u64:1000000"], "population#1000000\npopulation$\n"),
    (&["range", "--format", "decimal", "str.desc:population", "--ge", "i64.desc:1000000"], "8F908F8A939E8B969091~#\n8F908F8A939E8B969091~#-9999999999998999999$\n"),
    (&["range", "--format", "binary", "str:population", "--ge", "i64:1000000"], "706f70756c6174696f6e000180000000000f4240\n706f70756c6174696f6e0002\n"),
    (&["range", "--format", "binary", "--json", "str:population", "--ge", "i64:1000000"],
        "{\"start\":\"706f70756c6174696f6e000180000000000f4240\",\"end\":\"706f70756c6174696f6e0002\"}\n"),
    (&["range", "--format", "binary", "str.desc:population", "--ge", "i64.desc:1000000"], "8f908f8a939e8b969091fffe00\n8f908f8a939e8b969091fffe7ffffffffff0bdc0\n"),
    (&["range", "str:population"], "population#\npopulation$\n"),
    (&["range", "str:population", "--ge", "i64:1000000", "--lt", "i64:5000000"], "population#l80000000000F4240\npopulation#l80000000004C4B3F$\n"),
    (&["range", "str:population", "--eq", "i64:-5"], "population#l7FFFFFFFFFFFFFFB\npopulation#l7FFFFFFFFFFFFFFB$\n"),
    (&["range", "str:usa", "--prefix", "san "], "usa#san%20\nusa#san%21\n"),
    (&["range", "--le", "i64:5"], "\nl8000000000000005$\n"),
    (&["range", "--json", "--le", "i64:5"], "{\"start\":null,\"end\":\"l8000000000000005$\"}\n"),
    (&["range"], "\n\n"),
    // --for: every dialect (the renderers' contracts, through the CLI).
    (&["range", "--for", "hbase", "--table", "cities", "str:population", "--ge", "i64:1000000"],
        "scan 'cities', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}\n"),
    (&["range", "--for", "hbase", "--format", "binary", "str:population", "--ge", "i64:1000000"],
        "scan 't', {STARTROW => \"population\\x00\\x01\\x80\\x00\\x00\\x00\\x00\\x0FB@\", STOPROW => \"population\\x00\\x02\"}\n"),
    (&["range", "--for", "cql", "--table", "cities", "str:population", "--ge", "i64:1000000"],
        "SELECT * FROM cities WHERE pk = ? AND ck >= 'population#l80000000000F4240' AND ck < 'population$';\n"),
    (&["range", "--for", "cql", "--format", "binary", "--limit", "5", "--reversed", "str:population", "--ge", "i64:1000000"],
        "SELECT * FROM t WHERE pk = ? AND ck >= 0x706f70756c6174696f6e000180000000000f4240 AND ck < 0x706f70756c6174696f6e0002 ORDER BY ck DESC LIMIT 5;\n"),
    (&["range", "--for", "rocksdb", "str:population", "--ge", "i64:1000000"],
        "iterate_lower_bound=population#l80000000000F4240\niterate_upper_bound=population$\n"),
    (&["range", "--for", "etcd", "str:population", "--ge", "i64:1000000"],
        "etcdctl get 'population#l80000000000F4240' 'population$'\n{\"key\":\"cG9wdWxhdGlvbiNsODAwMDAwMDAwMDBGNDI0MA==\",\"range_end\":\"cG9wdWxhdGlvbiQ=\"}\n"),
    (&["range", "--for", "redis", "--table", "cities", "str:population", "--ge", "i64:1000000"],
        "ZRANGE cities [population#l80000000000F4240 (population$ BYLEX\n"),
    (&["range", "--for", "sql", "--table", "cities", "str:population", "--ge", "i64:1000000"],
        "SELECT k FROM cities WHERE k >= 'population#l80000000000F4240' AND k < 'population$' ORDER BY k;\n"),
    (&["range", "--json", "--for", "redis", "str:population", "--ge", "i64:1000000"],
        "{\"start\":\"population#l80000000000F4240\",\"end\":\"population$\",\"for\":\"redis\",\"output\":\"ZRANGE t [population#l80000000000F4240 (population$ BYLEX\\n\"}\n"),
    // --- reverse.
    (&["reverse", "1"], "9223372036854775806\n"),
    (&["reverse", "2"], "9223372036854775805\n"),
    (&["reverse", "0"], "9223372036854775807\n"),
    (&["reverse", "9223372036854775806"], "1\n"),
    (&["reverse", "--format", "hex", "1"], "lFFFFFFFFFFFFFFFE\n"),
    (&["reverse", "--format", "base64", "1"], "lzzzzzzzzzzs\n"),
    (&["reverse", "--format", "decimal", "1"], "09223372036854775806\n"),
    (&["reverse", "--format", "binary", "1"], "fffffffffffffffe\n"),
    (&["reverse", "--format", "decimal", "--width", "20", "2"], "09223372036854775805\n"),
];

#[test]
fn golden_outputs() {
    let mut failures = Vec::new();
    for (args, want) in GOLDEN {
        let o = common::run(args);
        if o.code != 0 || o.stdout != want.as_bytes() || !o.stderr.is_empty() {
            failures.push(format!(
                "lexikey {args:?}\n  want {want:?}\n  got  {:?} (exit {}, stderr {:?})",
                String::from_utf8_lossy(&o.stdout),
                o.code,
                o.stderr
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn encode_output_decodes_back_to_the_components() {
    // Every golden encode line reads back as its components (decode's output
    // is encode's input syntax).
    for (args, want) in GOLDEN
        .iter()
        .filter(|(a, _)| a[0] == "encode" && !a.contains(&"--json"))
    {
        let mut format = "hex";
        let mut width = None;
        let mut comps = Vec::new();
        let mut i = 1;
        while i < args.len() {
            match args[i] {
                "--format" => {
                    format = args[i + 1];
                    i += 1;
                }
                "--width" => {
                    width = Some(args[i + 1]);
                    i += 1;
                }
                a if a.starts_with("--format=") => format = &a[9..],
                "--" => {}
                a => comps.push(a),
            }
            i += 1;
        }
        let schema: Vec<&str> = comps.iter().map(|c| c.split(':').next().unwrap()).collect();
        let schema = schema.join(",");
        let key = want.trim_end_matches('\n');
        let mut dargs = vec!["decode", "--format", format, "--schema", &schema];
        if let Some(w) = width {
            dargs.extend(["--width", w]);
        }
        dargs.extend(["--", key]);
        let got = ok(&dargs);
        // Re-encode what decode printed: the same key.
        let mut eargs = vec!["encode", "--format", format];
        if let Some(w) = width {
            eargs.extend(["--width", w]);
        }
        eargs.push("--");
        let lines: Vec<&str> = got.lines().collect();
        eargs.extend(lines.iter().copied());
        assert_eq!(ok(&eargs), *want, "{args:?} -> {got:?}");
    }
}

#[test]
fn help_and_version() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["help", "encode"],
        &["encode", "--help"],
        &["decode", "-h"],
        &["range", "--help"],
        &["reverse", "--help"],
        &["alloc", "--help"],
        &["scan", "-h"],
        &["help", "demo"],
    ] {
        let out = ok(args);
        assert!(out.contains("Usage:"), "{args:?}: {out}");
    }
    assert!(ok(&["--version"]).starts_with("lexikey "));
    // The top-level usage states the grammar.
    let usage = ok(&["--help"]);
    for line in [
        "lexikey encode [--format F] [--width N] [--json] COMPONENT...",
        "lexikey encode --schema TYPE[.desc],... --stdin [--format F] [--width N] [--json]",
        "lexikey reverse [--format F] [--width N] N",
    ] {
        assert!(usage.contains(line), "{line}");
    }
}

#[test]
fn bulk_golden() {
    let rows = "population\t3831868\nusa\t-1\n\t0\nsan francisco\t9223372036854775807\n";
    assert_eq!(
        ok_with(&["encode", "--schema", "str,i64", "--stdin"], rows.as_bytes()),
        "population#l80000000003A783C\nusa#l7FFFFFFFFFFFFFFF\n#l8000000000000000\nsan%20francisco#lFFFFFFFFFFFFFFFF\n"
    );
    assert_eq!(
        ok_with(
            &["encode", "--schema", "str,i64", "--stdin", "--json"],
            b"a\t1\n"
        ),
        "{\"key\":\"a#l8000000000000001\"}\n"
    );
    assert_eq!(
        ok_with(
            &["encode", "--schema", "str,i64", "--stdin", "--format", "binary"],
            b"a\t1"
        ),
        "6100018000000000000001\n"
    );
    assert_eq!(
        ok_with(
            &["decode", "--stdin"],
            b"population#l80000000003A783C\nusa#l7FFFFFFFFFFFFFFF\n"
        ),
        "str:population\ti64:3831868\nstr:usa\ti64:-1\n"
    );
    assert_eq!(
        ok_with(&["decode", "--stdin", "--json", "--schema", "str,i64"], b"a#l8000000000000001\n"),
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"a\"},{\"type\":\"i64\",\"dir\":\"asc\",\"value\":1}]}\n"
    );
    assert_eq!(
        ok_with(
            &["decode", "--stdin", "--format", "binary", "--schema", "str,i64"],
            b"6100018000000000000001\n"
        ),
        "str:a\ti64:1\n"
    );
    // Empty input: no output.
    assert_eq!(ok_with(&["encode", "--schema", "str", "--stdin"], b""), "");
    assert_eq!(ok_with(&["decode", "--stdin"], b""), "");
    // An empty line is one row (an empty str for a one-field schema).
    assert_eq!(
        ok_with(&["encode", "--schema", "str", "--stdin"], b"\n\nx\n"),
        "\n\nx\n"
    );
}

#[test]
fn help_examples_run() {
    // Every `lexikey ARGS  ->  OUTPUT` example in the help texts is executed;
    // indented lines under OUTPUT (aligned with it) are its next lines.
    let mut checked = 0;
    for cmd in ["encode", "decode", "range", "reverse"] {
        let help = ok(&["help", cmd]);
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some((lhs, first)) = line.trim_start().split_once("->") else {
                continue;
            };
            let Some(args) = lhs.trim().strip_prefix("lexikey ") else {
                continue;
            };
            let col = line.find("->").unwrap() + 2 + (first.len() - first.trim_start().len());
            let mut want = format!("{}\n", first.trim());
            for next in &lines[i + 1..] {
                let indent = next.len() - next.trim_start().len();
                if next.trim().is_empty() || indent != col || next.contains("->") {
                    break;
                }
                want.push_str(next.trim());
                want.push('\n');
            }
            let args: Vec<&str> = args.split_whitespace().collect();
            assert_eq!(ok(&args), want, "help example: lexikey {}", args.join(" "));
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} examples found");
}
