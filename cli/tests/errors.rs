//! The CLI rows of the bad-input catalogue: every error is exactly one line
//! on stderr (`lexikey: error: …`), exit code 2, never a panic or backtrace,
//! and the message says what is wrong (and where).

mod common;

use std::ffi::OsString;

use common::{check_error, fails, fails_with, run, run_with};

/// `(arguments, standard input, a substring the message must contain)`.
const CATALOGUE: &[(&[&str], &str, &str)] = &[
    // --- interop-profile options given to a native format
    (
        &["encode", "--round", "str:a"],
        "",
        "--round applies only to --format phoenix",
    ),
    (
        &["range", "--hbase-numeric", "legacy", "str:a"],
        "",
        "--hbase-numeric applies only to --format hbase-ordered",
    ),
    (
        &[
            "decode",
            "--hbase-numeric",
            "legacy",
            "--schema",
            "str",
            "a",
        ],
        "",
        "--hbase-numeric applies only to --format hbase-ordered",
    ),
    // --- malformed keys
    // --- dec: malformed ELEN / binary keys, bad decimal input
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "str,dec",
            "price#==2105",
        ],
        "",
        "end of input at byte 12",
    ), // no terminator
    (
        &["decode", "--format", "decimal", "--schema", "dec", "=10-"],
        "",
        "non-canonical encoding at byte 2",
    ), // trailing fraction zero
    (
        &["decode", "--format", "decimal", "--schema", "dec", "=1x-"],
        "",
        "invalid byte 'x' (0x78) at byte 2",
    ),
    (
        &["decode", "--schema", "dec", "n0380011F"],
        "",
        "end of input",
    ), // hex body: last pair byte odd
    (
        &["decode", "--format", "binary", "--schema", "dec", "04"],
        "",
        "invalid byte 0x04 at byte 0",
    ),
    (
        &["encode", "dec:1,5"],
        "",
        "invalid dec value \"1,5\" at byte 1",
    ),
    (&["encode", "dec:NaN"], "", "invalid dec value"),
    (
        &["encode", "dec:1e40000"],
        "",
        "decimal exponent out of range",
    ),
    (
        &[
            "decode",
            "--schema",
            "str,i64",
            "population#l80000000003a783c",
        ],
        "",
        "at byte 23",
    ), // wrong case
    (
        &["decode", "--schema", "i64", "l80000000003A783"],
        "",
        "end of input",
    ), // short
    (
        &["decode", "--schema", "i64", "l80000000003A783C0"],
        "",
        "trailing bytes at byte 17",
    ), // long
    (
        &["decode", "--schema", "i64", "q80000000003A783C"],
        "",
        "unexpected tag 'q'",
    ),
    (
        &["decode", "--schema", "i64", "L80000000003A783C"],
        "",
        "unexpected tag 'L'",
    ), // direction
    (
        &["decode", "--schema", "i64", "d80000000003A783C"],
        "",
        "unexpected tag 'd'",
    ),
    (
        &[
            "decode",
            "--format",
            "base64",
            "--schema",
            "i64",
            "lV------uT2",
        ],
        "",
        "end of input",
    ),
    (
        &[
            "decode",
            "--format",
            "base64",
            "--schema",
            "i64",
            "lV------uT2l",
        ],
        "",
        "byte 11",
    ), // non-zero trailing bits
    (&["decode", "a%2"], "", "end of input"),
    (&["decode", "a%zz"], "", "at byte 2"),
    (&["decode", "a%0a"], "", "at byte 3"), // lowercase escape
    (&["decode", "a%41"], "", "non-canonical"), // escape of a byte that needs none
    (&["decode", "--schema", "str.desc", "9E9D"], "", "'~'"),
    (
        &["decode", "--schema", "f64", "dFFF8000000000001"],
        "",
        "canonical NaN",
    ),
    (&["decode", "--schema", "bool", "b02"], "", "non-canonical"),
    (
        &["decode", "--schema", "str,i64", "population"],
        "",
        "missing component 1",
    ),
    (
        &["decode", "--schema", "i64", "l8000000000000000#x"],
        "",
        "trailing bytes",
    ),
    (
        &["decode", "--format", "decimal", "--schema", "i64", "000"],
        "",
        "end of input",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i64",
            "000000000000000000001",
        ],
        "",
        "trailing bytes",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i64",
            "-9999999999999999999",
        ],
        "",
        "negative zero",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i64",
            "x0000000000000000001",
        ],
        "",
        "sign slot",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i64",
            "0000000000000000000a",
        ],
        "",
        "byte 19",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i64",
            "09999999999999999999",
        ],
        "",
        "out of range",
    ),
    (
        &[
            "decode",
            "--format",
            "decimal",
            "--schema",
            "i32",
            "09999999999",
        ],
        "",
        "out of range",
    ),
    (
        &[
            "decode", "--format", "decimal", "--width", "7", "--schema", "u64", "00000001",
        ],
        "",
        "trailing bytes",
    ),
    (
        &["decode", "--format", "decimal", "--schema", "f64", "00"],
        "",
        "float",
    ),
    (
        &["decode", "--format", "binary", "--schema", "str", "6162"],
        "",
        "end of input",
    ), // no terminator
    (
        &[
            "decode",
            "--format",
            "binary",
            "--schema",
            "i64",
            "800000000000000000",
        ],
        "",
        "trailing bytes at byte 8",
    ),
    (
        &["decode", "--format", "binary", "--schema", "i64", "8000"],
        "",
        "end of input",
    ),
    (
        &[
            "decode", "--format", "binary", "--schema", "str", "61000201",
        ],
        "",
        "byte",
    ), // bad escape
    (
        &["decode", "--format", "binary", "--schema", "i64", "800"],
        "",
        "odd number of digits",
    ),
    (
        &[
            "decode",
            "--format",
            "binary",
            "--schema",
            "i64",
            "80000000000000zz",
        ],
        "",
        "bad digit at character 14",
    ),
    (
        &["decode", "--format", "binary", "--schema", "str", "ff0001"],
        "",
        "UTF-8",
    ),
    (&["decode", "a\u{1}b"], "", "at byte 1"), // raw control byte
    (&["decode", "a b"], "", "at byte 1"),     // raw space (must be %20)
    // --- invalid UTF-8 and other bad bulk input
    (
        &["decode", "--stdin"],
        "population#l80000000003A783C\nab\u{1}\n",
        "line 2",
    ),
    (
        &["encode", "--schema", "str,i64", "--stdin"],
        "a\t1\nb\tx\nc\t3\n",
        "line 2, value 2 (i64)",
    ),
    (
        &["encode", "--schema", "str,i64", "--stdin"],
        "a\t1\nb\n",
        "line 2: expected 2 tab-separated values",
    ),
    (
        &["encode", "--schema", "str,i64", "--stdin"],
        "a\t1\t2\n",
        "line 1: expected 2 tab-separated values (one per schema field), found 3",
    ),
    (
        &["encode", "--schema", "i64", "--stdin"],
        "\n",
        "line 1, value 1 (i64)",
    ),
    (
        &[
            "encode", "--format", "decimal", "--width", "3", "--schema", "i64", "--stdin",
        ],
        "1\n1000\n",
        "line 2, value 1 (i64): value 1000 does not fit in 3 decimal digits",
    ),
    (
        &["decode", "--stdin", "--schema", "str"],
        "a%09b\n",
        "line 1: component 1",
    ), // tab in bulk text output
    (&["decode", "a%0Ab"], "", "newline"),
    (
        &["decode", "--stdin", "--format", "binary", "--schema", "str"],
        "6100\n",
        "line 1: invalid binary key \"6100\": unexpected end of input",
    ),
    (
        &["decode", "--stdin", "--format", "binary", "--schema", "str"],
        "610\n",
        "line 1: invalid binary key",
    ),
    // --- out-of-range numbers and widths
    (
        &["encode", "i64:9223372036854775808"],
        "",
        "invalid i64 value",
    ),
    (
        &["encode", "i64:-9223372036854775809"],
        "",
        "invalid i64 value",
    ),
    (&["encode", "u64:-1"], "", "invalid u64 value"),
    (&["encode", "i32:2147483648"], "", "invalid i32 value"),
    (&["encode", "u32:4294967296"], "", "invalid u32 value"),
    (&["encode", "i64:"], "", "invalid i64 value"),
    (&["encode", "i64: 1"], "", "invalid i64 value"),
    (&["encode", "f64:one"], "", "invalid f64 value"),
    (&["encode", "bool:yes"], "", "invalid bool"),
    (&["encode", "bytes:abc"], "", "odd number"),
    (&["encode", "bytes:zz"], "", "bad digit"),
    (&["encode", "ts:2024-13-01T00:00:00Z"], "", "out of range"),
    (&["encode", "ts:2024-05-01T12:00:00.0001Z"], "", "fraction"),
    (&["encode", "ts:2024-05-01"], "", "invalid ts"),
    (&["encode", "uuid:123"], "", "invalid uuid"),
    (
        &["encode", "--format", "decimal", "--width", "3", "i64:1000"],
        "",
        "does not fit in 3 decimal digits",
    ),
    (
        &["encode", "--format", "decimal", "--width", "3", "i64:-100"],
        "",
        "does not fit",
    ),
    (
        &["encode", "--format", "decimal", "--width", "1", "i64:0"],
        "",
        "width 1 is not valid for i64",
    ),
    (
        &["encode", "--format", "decimal", "--width", "11", "u32:1"],
        "",
        "width 11 is not valid for u32",
    ),
    (
        &["encode", "--format", "decimal", "--width", "0", "i64:1"],
        "",
        "invalid width",
    ),
    (
        &["encode", "--format", "decimal", "--width", "21", "i64:1"],
        "",
        "invalid width",
    ),
    (
        &["encode", "--format", "decimal", "--width", "300", "i64:1"],
        "",
        "invalid width",
    ),
    (
        &["encode", "--format", "decimal", "--width", "-7", "i64:1"],
        "",
        "invalid width",
    ),
    (
        &["encode", "--width", "7", "i64:1"],
        "",
        "--width applies only to --format decimal",
    ),
    (
        &["encode", "--format", "decimal", "f64:1.5"],
        "",
        "cannot encode f64",
    ),
    (&["reverse", "-1"], "", "reverse number needs 0 <= n"),
    (&["reverse", "9223372036854775808"], "", "invalid N"),
    (&["reverse", "abc"], "", "invalid N"),
    (
        &["reverse", "--format", "decimal", "--width", "5", "1"],
        "",
        "does not fit",
    ),
    // --- unknown type, format, flag, command
    (&["encode", "i65:1"], "", "unknown type \"i65\""),
    (&["encode", "str.up:x"], "", "unknown direction"),
    (&["encode", "nocolon"], "", "has no ':'"),
    (&["encode", ":x"], "", "unknown type"),
    (
        &["encode", "--format", "hexx", "i64:1"],
        "",
        "unknown format \"hexx\"",
    ),
    (&["decode", "--format", "HEX", "x"], "", "unknown format"),
    (
        &["encode", "--fromat", "hex", "i64:1"],
        "",
        "unknown option '--fromat' for 'encode'",
    ),
    (&["encode", "-f", "hex", "i64:1"], "", "unknown option '-f'"),
    (&["decode", "--x"], "", "unknown option '--x'"),
    (&["encode", "--json=yes", "i64:1"], "", "takes no value"),
    (&["encode", "--format"], "", "needs a value"),
    (
        &["encode", "--format", "hex", "--format", "hex", "i64:1"],
        "",
        "more than once",
    ),
    (
        &["encode", "--stdin", "--stdin", "--schema", "str"],
        "",
        "more than once",
    ),
    (&["decode", "--schema", "str,i65", "x"], "", "unknown type"),
    (&["decode", "--schema", "", "x"], "", "empty schema"),
    (
        &["decode", "--schema", "str,,i64", "x"],
        "",
        "invalid schema",
    ),
    (&["frobnicate"], "", "unknown command \"frobnicate\""),
    (&["help", "frobnicate"], "", "unknown command"),
    (&["--json"], "", "unknown command"),
    (&[], "", "missing command"),
    // --- missing or extra arguments
    (&["encode"], "", "missing COMPONENT"),
    (&["encode", "--format", "hex"], "", "missing COMPONENT"),
    (&["decode"], "", "missing KEY"),
    (&["decode", "a", "b"], "", "exactly one KEY, got 2"),
    (&["decode", "--format", "decimal", "0"], "", "pass --schema"),
    (&["decode", "--format", "binary", "00"], "", "pass --schema"),
    (
        &["decode", "--format", "decimal", "--width", "7", "0"],
        "",
        "pass --schema",
    ),
    (
        &["decode", "--width", "7", "x"],
        "",
        "--width applies only to --format decimal",
    ),
    (&["decode", "--stdin", "x"], "", "takes no KEY"),
    (&["encode", "--stdin"], "", "needs --schema"),
    (
        &["encode", "--schema", "str", "str:x"],
        "",
        "--schema is for --stdin",
    ),
    (
        &["encode", "--stdin", "--schema", "str", "str:x"],
        "",
        "takes no COMPONENT",
    ),
    // --- key length limits (default: HBase's 32,767-byte row key)
    (
        &["encode", "--max-key-len", "16", "str:population", "i64:1"],
        "",
        "key of 28 bytes is longer than the limit of 16 bytes",
    ),
    (
        &["decode", "--max-key-len", "8", "population"],
        "",
        "key of 10 bytes is longer than the limit of 8 bytes",
    ),
    (
        &[
            "decode",
            "--format",
            "binary",
            "--schema",
            "i64",
            "--max-key-len",
            "4",
            "8000000000000001",
        ],
        "",
        "key of 8 bytes is longer than the limit of 4 bytes",
    ),
    (
        &["encode", "--stdin", "--schema", "str", "--max-key-len", "3"],
        "abc\nabcd\n",
        "line 2: key of 4 bytes is longer than the limit of 3 bytes",
    ),
    // ... naming the component to shorten, its type and its encoded size
    (
        &[
            "encode",
            "--max-key-len",
            "20",
            "str:abcdefghijklmnopqrstuvwxyz",
            "i64:1",
        ],
        "",
        "key of 44 bytes is longer than the limit of 20 bytes; component 1 \
         (str:abcdefghijklmnopqrstuvwxyz) is 26 bytes of it, the most: shorten it",
    ),
    (
        &[
            "encode",
            "--stdin",
            "--schema",
            "str,str",
            "--max-key-len",
            "20",
        ],
        "abc\tabcdefghijklmnopqrstuvwxyz\n",
        "line 1: key of 30 bytes is longer than the limit of 20 bytes; component 2 (str) \
         is 27 bytes of it, the most: shorten it",
    ),
    (
        &[
            "encode",
            "--stdin",
            "--format",
            "binary",
            "--salt-buckets",
            "3",
            "--schema",
            "str,str",
            "--max-key-len",
            "20",
        ],
        "abcdefghijklmnopqrstuvwxyz\tabc\n",
        "line 1: key of 34 bytes is longer than the limit of 20 bytes; component 1 (str) \
         is 28 bytes of it, the most: shorten it",
    ),
    // --- range --splits
    (
        &["range", "--splits", "--for", "cbt"],
        "",
        "--splits needs --salt-buckets N",
    ),
    (
        &["range", "--splits", "--salt-buckets", "4", "--for", "sql"],
        "",
        "split points for sql: only cbt and hbase create pre-split tables",
    ),
    (
        &["range", "--splits", "--salt-buckets", "4"],
        "",
        "split points for raw: only cbt and hbase create pre-split tables",
    ),
    (
        &[
            "range",
            "--splits",
            "--salt-buckets",
            "4",
            "--for",
            "cbt",
            "str:x",
        ],
        "",
        "--splits prints a table's split points: it takes no PREFIX_COMPONENT",
    ),
    (
        &[
            "range",
            "--splits",
            "--salt-buckets",
            "45",
            "--format",
            "binary",
            "--for",
            "cbt",
        ],
        "",
        "a split holds a comma",
    ),
    (
        &[
            "range",
            "--splits",
            "--format",
            "phoenix",
            "--salt-buckets",
            "4",
            "--for",
            "hbase",
        ],
        "",
        "Phoenix splits a SALT_BUCKETS table itself",
    ),
    (
        &["encode", "--max-key-len", "0", "i64:1"],
        "",
        "invalid --max-key-len",
    ),
    (&["reverse"], "", "missing N"),
    (&["reverse", "1", "2"], "", "exactly one N"),
    // --- range
    (
        &["range", "str:population", "--gt", "i64:9223372036854775807"],
        "",
        "no key can match",
    ),
    (
        &["range", "str:population", "--ge", "i64:5", "--lt", "i64:3"],
        "",
        "no key can match",
    ),
    (
        &["range", "str:population", "--lt", "str:"],
        "",
        "no key can match",
    ),
    (
        &["range", "str:population", "--ge", "i64:5", "--lt", "str:x"],
        "",
        "disagree",
    ),
    (
        &["range", "str:population", "--ge", "i64"],
        "",
        "--ge \"i64\"",
    ),
    (&["range", "str:population", "--ge"], "", "needs a value"),
    (&["range", "i65:1"], "", "unknown type"),
    (
        &["range", "--format", "decimal", "str:a", "--ge", "f64:1"],
        "",
        "cannot encode f64",
    ),
    (
        &["range", "--for", "mysql", "str:a"],
        "",
        "--for: unknown dialect \"mysql\"",
    ),
    (
        &["range", "--for", "raw", "--for", "raw", "str:a"],
        "",
        "more than once",
    ),
    // --- ulid, uuid7, geo
    (&["encode", "i65:1"], "", "or ulid, uuid7, geo"),
    (&["encode", "ulid.up:x"], "", "unknown direction"),
    (
        &["decode", "--schema", "str,geo.x", "a"],
        "",
        "unknown direction",
    ),
    (
        &["encode", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAU"],
        "",
        "invalid byte 'U' (0x55) at byte 25",
    ),
    (
        &["encode", "ulid:8ZZZZZZZZZZZZZZZZZZZZZZZZZ"],
        "",
        "invalid byte '8' (0x38) at byte 0",
    ),
    (
        &["encode", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FA"],
        "",
        "end of input at byte 25",
    ),
    (
        &["encode", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAVV"],
        "",
        "trailing bytes at byte 26",
    ),
    (&["encode", "ulid:"], "", "invalid ulid \"\""),
    (
        &["encode", "uuid7:123e4567-e89b-12d3-a456-426614174000"],
        "",
        "version 1, not 7 (use uuid: for other UUIDs)",
    ),
    (
        &["encode", "uuid7:017f22e2-79b0-7cc3-18c4-dc0c0c07398f"],
        "",
        "variant bits 00, not the RFC 9562 variant 10",
    ),
    (&["encode", "uuid7:017f22e2"], "", "invalid uuid7"),
    (
        &[
            "decode",
            "--schema",
            "uuid7",
            "g123E4567E89B12D3A456426614174000",
        ],
        "",
        "is not a UUIDv7: version 1, not 7",
    ),
    (
        &[
            "decode",
            "--format",
            "binary",
            "--schema",
            "str,uuid7",
            "6100014567e89b12d3a456426614174000aa",
        ],
        "",
        "invalid binary key",
    ),
    (
        &["decode", "--stdin", "--schema", "uuid7"],
        "g017F22E279B07CC398C4DC0C0C07398F\ng123E4567E89B12D3A456426614174000\n",
        "line 2: invalid key",
    ),
    (
        &["encode", "geo:91,0"],
        "",
        "latitude 91 is outside [-90, 90]",
    ),
    (&["encode", "geo:-90.5,0"], "", "latitude -90.5 is outside"),
    (
        &["encode", "geo:0,180.01"],
        "",
        "longitude 180.01 is outside [-180, 180]",
    ),
    (&["encode", "geo:NaN,0"], "", "latitude NaN"),
    (&["encode", "geo:0,inf"], "", "longitude inf"),
    (&["encode", "geo:37.7"], "", "expected LAT,LON"),
    (&["encode", "geo:37.7, -122.4"], "", "expected LAT,LON"),
    (&["encode", "geo:1,2,3"], "", "expected LAT,LON"),
    (
        &["encode", "--bits", "0", "geo:0,0"],
        "",
        "invalid --bits \"0\"",
    ),
    (&["encode", "--bits", "33", "geo:0,0"], "", "1 to 32"),
    (
        &["encode", "--curve", "z", "geo:0,0"],
        "",
        "invalid --curve \"z\"",
    ),
    (
        &["encode", "--bits", "16", "str:a"],
        "",
        "--curve and --bits apply to geo components",
    ),
    (
        &["decode", "--curve", "morton", "l8000000000000001"],
        "",
        "--curve and --bits apply",
    ),
    (
        &[
            "decode",
            "--bits",
            "16",
            "--schema",
            "geo",
            "u0000000100000000",
        ],
        "",
        "is not a cell of a 16-bit grid",
    ),
    (
        &["encode", "--format", "decimal", "--width", "5", "geo:1,1"],
        "",
        "does not fit",
    ),
    (
        &["encode", "--stdin", "--schema", "str,geo"],
        "a\t0,0\nb\t0,200\n",
        "line 2, value 2 (geo): invalid geo \"0,200\": longitude 200",
    ),
    // --- range --bbox
    (
        &["range", "--bbox", "1,2,3"],
        "",
        "expected MINLAT,MINLON,MAXLAT,MAXLON",
    ),
    (
        &["range", "--bbox", "1,2,3,x"],
        "",
        "expected MINLAT,MINLON,MAXLAT,MAXLON",
    ),
    (
        &["range", "--bbox", "3,0,1,1"],
        "",
        "empty box: min_lat 3 > max_lat 1",
    ),
    (
        &["range", "--bbox", "0,0,95,1"],
        "",
        "latitude 95 is outside",
    ),
    (
        &["range", "--bbox", "0,0,1,1", "--max-ranges", "0"],
        "",
        "invalid --max-ranges \"0\"",
    ),
    (
        &["range", "--bbox", "0,0,1,1", "--max-ranges", "4097"],
        "",
        "1 to 4096",
    ),
    (
        &["range", "str:a", "--max-ranges", "4"],
        "",
        "--max-ranges applies to --bbox",
    ),
    (
        &["range", "str:a", "--bbox", "0,0,1,1", "--ge", "u64:1"],
        "",
        "it takes no --ge",
    ),
    (
        &["range", "str:a", "--bbox", "0,0,1,1", "--prefix", "x"],
        "",
        "it takes no --prefix",
    ),
    (
        &["range", "--format", "fdb-tuple", "--bbox", "0,0,1,1"],
        "",
        "--bbox applies to geo components of the native formats",
    ),
    // --- --salt-buckets and --salt-mode on the native formats
    (
        &["encode", "--salt-buckets", "0", "str:a"],
        "",
        "invalid --salt-buckets \"0\": expected a number from 1 to 255",
    ),
    (
        &["encode", "--salt-buckets", "256", "str:a"],
        "",
        "expected a number from 1 to 255",
    ),
    (
        &["encode", "--salt-buckets", "-1", "str:a"],
        "",
        "expected a number from 1 to 255",
    ),
    (
        &["range", "--salt-buckets", "x", "str:a"],
        "",
        "expected a number from 1 to 255",
    ),
    (
        &["decode", "--salt-buckets", "256", "00#a"],
        "",
        "expected a number from 1 to 255",
    ),
    (
        &["encode", "--salt-mode", "fast", "str:a"],
        "",
        "--salt-mode needs --salt-buckets N",
    ),
    (
        &["range", "--salt-mode", "phoenix", "str:a"],
        "",
        "--salt-mode needs --salt-buckets N",
    ),
    (
        &[
            "encode",
            "--salt-buckets",
            "4",
            "--salt-mode",
            "murmur",
            "str:a",
        ],
        "",
        "invalid --salt-mode \"murmur\": expected fast (the default) or phoenix",
    ),
    (
        &[
            "range",
            "--format",
            "phoenix",
            "--salt-buckets",
            "4",
            "--salt-mode",
            "fast",
            "varchar:a",
        ],
        "",
        "--salt-mode fast does not apply to --format phoenix",
    ),
    (
        &[
            "range",
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
        &["reverse", "--salt-buckets", "4", "1"],
        "",
        "unknown option '--salt-buckets'",
    ),
    (
        &[
            "decode",
            "--salt-buckets",
            "16",
            "07#events#l800000000000002A",
        ],
        "",
        "the salt at byte 0 is bucket 7, but the key's bucket is 0 (16 buckets, --salt-mode fast)",
    ),
    (
        &[
            "decode",
            "--salt-buckets",
            "16",
            "--salt-mode",
            "phoenix",
            "00#events#l800000000000002A",
        ],
        "",
        "bucket is 6 (16 buckets, --salt-mode phoenix)",
    ),
    (
        &["decode", "--salt-buckets", "16", "0"],
        "",
        "end of input at byte 1",
    ),
    (
        &["decode", "--salt-buckets", "16", "0a#x"],
        "",
        "invalid byte 'a' (0x61) at byte 1",
    ),
    (
        &["decode", "--salt-buckets", "16", "00-x"],
        "",
        "at byte 2: expected '#' after the salt",
    ),
    (
        &[
            "decode",
            "--salt-buckets",
            "16",
            "--schema",
            "str,i64",
            "00#events#l800000000000002a",
        ],
        "",
        "at byte 26",
    ),
    (
        &[
            "decode",
            "--format",
            "binary",
            "--salt-buckets",
            "16",
            "--schema",
            "str,i64",
            "",
        ],
        "",
        "end of input at byte 0",
    ),
    (
        &[
            "decode",
            "--format",
            "binary",
            "--salt-buckets",
            "16",
            "--schema",
            "str,i64",
            "0161000180000000000000",
        ],
        "",
        "end of input at byte 11",
    ),
    (
        &[
            "encode",
            "--salt-buckets",
            "16",
            "--max-key-len",
            "5",
            "str:abc",
        ],
        "",
        "longer than the limit of 5 bytes",
    ),
];

#[test]
fn catalogue() {
    let mut bad = Vec::new();
    for (args, stdin, want) in CATALOGUE {
        let msg = fails_with(args, stdin.as_bytes());
        if !msg.contains(want) {
            bad.push(format!("lexikey {args:?}: message {msg:?} lacks {want:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn bulk_error_stops_after_printing_the_rows_before_it() {
    let o = run_with(
        &["encode", "--schema", "str,i64", "--stdin"],
        b"a\t1\nb\tx\nc\t3\n",
    );
    check_error(&o, "bulk encode");
    assert_eq!(o.stdout, b"a#l8000000000000001\n");
    assert!(o.stderr.contains("line 2"));
    let o = run_with(&["decode", "--stdin"], b"a#l8000000000000001\nq\xffz\nc\n");
    check_error(&o, "bulk decode");
    assert_eq!(o.stdout, b"str:a\ti64:1\n");
    assert!(
        o.stderr.contains("line 2") && o.stderr.contains("invalid UTF-8 at byte 1"),
        "{}",
        o.stderr
    );
}

#[test]
fn invalid_utf8() {
    // Through --stdin, both directions.
    let msg = fails_with(&["encode", "--schema", "str", "--stdin"], b"ok\n\xc3\x28\n");
    assert!(msg.contains("line 2: invalid UTF-8 at byte 0"), "{msg}");
    let msg = fails_with(&["decode", "--stdin"], b"ab\xff\n");
    assert!(
        msg.contains("line 1") && msg.contains("invalid UTF-8 at byte 2"),
        "{msg}"
    );
    let msg = fails_with(&["decode", "--stdin", "--schema", "str.desc"], b"3C~\n");
    assert!(msg.contains("UTF-8"), "{msg}");
    // Through arguments (Unix: raw bytes reach the decoder).
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(b"ab\xffc".to_vec());
        let msg = fails(&[OsString::from("decode"), bad.clone()]);
        assert!(msg.contains("invalid UTF-8 at byte 2"), "{msg}");
        let mut comp = b"str:".to_vec();
        comp.push(0xff);
        let msg = fails(&[OsString::from("encode"), OsString::from_vec(comp)]);
        assert!(msg.contains("not valid UTF-8"), "{msg}");
        let msg = fails(&[OsString::from("encode"), OsString::from("--format"), bad]);
        assert!(msg.contains("not valid UTF-8"), "{msg}");
    }
}

#[test]
fn messages_stay_one_line_whatever_the_input() {
    // User input with newlines and carriage returns is echoed escaped.
    for args in [
        &["encode", "i64:1\n2"][..],
        &["encode", "bad\ncomponent"],
        &["encode", "--format", "he\nx", "i64:1"],
        &["decode", "--schema", "i64", "l\r\n"],
        &["frob\nnicate"],
        &["decode", "--schema", "str", "a\nb"],
    ] {
        fails(args);
    }
    let long = "x".repeat(100_000);
    let msg = fails(&["decode", "--schema", "i64", &long]);
    assert!(msg.len() < 400, "{} bytes", msg.len());
}

#[test]
fn panic_hook_prints_one_line() {
    let o = std::process::Command::new(common::bin())
        .args(["encode", "str:x"])
        .env("LEXIKEY_TEST_PANIC", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.starts_with("lexikey: error: internal error"),
        "{stderr}"
    );
    assert_eq!(stderr.matches('\n').count(), 1, "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
}

#[test]
fn closed_output_pipe_ends_quietly() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::bin())
        .args(["encode", "--schema", "str,i64", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let rows = "row\t1\n".repeat(200_000);
    let _ = stdin.write_all(rows.as_bytes());
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The default limit is HBase's row-key limit: 32,767 bytes pass, 32,768 don't.
#[test]
fn default_key_limit_is_hbase_row_key_limit() {
    let ok = format!("str:{}", "a".repeat(32_767));
    let o = run_with(&["encode", &ok], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let long = format!("str:{}", "a".repeat(32_768));
    let msg = fails_with(&["encode", &long], b"");
    assert!(
        msg.contains("longer than the limit of 32767 bytes"),
        "{msg}"
    );
    let o = run_with(&["encode", "--max-key-len", "65535", &long], b"");
    assert_eq!(o.code, 0);
}

/// No password ever reaches stdout or stderr (issue #18): every row of the
/// catalogue above runs with `LEXIKEY_STORE` holding a URL with a password,
/// and every store command (`alloc`, `scan`, `demo`) fails on URLs with a
/// password in every way a store URL can fail (bad scheme, option, namespace,
/// endpoint, TLS file; a server that refuses; a password with unencoded
/// `/`, `?`, `@`), given by `--store` and by `LEXIKEY_STORE`. With the secure
/// servers of scripts/with-stores.sh, a wrong password and an untrusted CA
/// too.
#[test]
fn no_secret_in_any_output() {
    const SECRET: &str = "S3cretPassw0rd-lexikey";
    let leaks = |o: &common::Out, secret: &str| {
        String::from_utf8_lossy(&o.stdout).contains(secret) || o.stderr.contains(secret)
    };
    let run_env = |args: &[&str], stdin: &[u8], store: &str| {
        common::run_env(args, stdin, &[("LEXIKEY_STORE", store)])
    };
    let mut bad = Vec::new();
    let env_url = format!("postgres://alice:{SECRET}@127.0.0.1:1/db");
    for (args, stdin, _) in CATALOGUE {
        let o = run_env(args, stdin.as_bytes(), &env_url);
        if leaks(&o, SECRET) {
            bad.push(format!("lexikey {args:?}: {}", o.stderr));
        }
    }
    let urls = [
        format!("postgres://alice:{SECRET}@127.0.0.1:1/db"),
        format!("postgresql://alice:{SECRET}@127.0.0.1:1/db?ns=bad/ns"),
        format!("postgres://alice@127.0.0.1:1/db?password={SECRET}&sslmode=bogus"),
        format!(
            "postgres://alice:{SECRET}@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=/nonexistent"
        ),
        format!("postgres://alice:{SECRET}/x?y@127.0.0.1:1/db"),
        format!("postgres://alice:{SECRET}@127.0.0.1:1/db?options=x&options=y"),
        format!("redis://alice:{SECRET}@127.0.0.1:1"),
        format!("redis://:{SECRET}@127.0.0.1:1/x"),
        format!("rediss://:{SECRET}@127.0.0.1:1?cacert=/nonexistent"),
        format!("redis://u:{SECRET}@127.0.0.1:1?cacert=/x"),
        format!("redis://u:{}@127.0.0.1:1", SECRET.replace('-', "%2D")),
        format!("etcd://root:{SECRET}@127.0.0.1:1"),
        format!("etcd+https://root:{SECRET}@127.0.0.1:1?cacert=/nonexistent"),
        format!("etcd+https://root:{SECRET}@127.0.0.1:1?cert=/x"),
        format!("etcd://root:{SECRET}@host"),
        format!("etcd://root:{SECRET}@127.0.0.1:1?what=1"),
        format!("etcd://root:{SECRET}@127.0.0.1:1?cacert=/x"),
        format!("nosuch://u:{SECRET}@x"),
        format!("redis:u:{SECRET}@127.0.0.1:1"),
        format!("memory://u:{SECRET}@x"),
    ];
    for url in &urls {
        for cmd in [
            &["alloc", "--table", "t"][..],
            &["scan", "--table", "t"],
            &["demo"],
        ] {
            let mut args = cmd.to_vec();
            args.extend(["--store", url.as_str()]);
            let o = run_with(&args, b"");
            check_error(&o, &format!("lexikey {cmd:?} --store <{url}>"));
            if leaks(&o, SECRET) || leaks(&o, &SECRET.replace('-', "%2D")) {
                bad.push(format!("lexikey {cmd:?} --store …: {}", o.stderr));
            }
            if cmd[0] != "demo" {
                let o = run_env(cmd, b"", url);
                check_error(&o, &format!("LEXIKEY_STORE=<{url}> lexikey {cmd:?}"));
                if leaks(&o, SECRET) {
                    bad.push(format!("LEXIKEY_STORE=… lexikey {cmd:?}: {}", o.stderr));
                }
            }
        }
    }
    // The secure servers, when scripts/with-stores.sh started them.
    let pw = std::env::var("LEXIKEY_TLS_PASSWORD").unwrap_or_default();
    for var in [
        "LEXIKEY_REDIS_TLS_URL",
        "LEXIKEY_POSTGRES_TLS_URL",
        "LEXIKEY_ETCD_TLS_URL",
    ] {
        let Ok(url) = std::env::var(var) else {
            eprintln!("{var} not set: the secure servers are left out (run through scripts/with-stores.sh)");
            continue;
        };
        assert!(!pw.is_empty() && url.contains(&pw));
        let sep = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{sep}ns=t_cli_{}", std::process::id());
        // It works, from the environment, and prints no password.
        let o = run_env(&["alloc", "--table", "t", "--stats"], b"", &url);
        assert_eq!(o.code, 0, "{var}: {}", o.stderr);
        assert!(!leaks(&o, &pw), "{var}: {}", o.stderr);
        let o = run_env(&["scan", "--table", "t"], b"", &url);
        assert_eq!(o.code, 0, "{var}: {}", o.stderr);
        let wrong = url.replace(&pw, SECRET);
        let mut failing = vec![wrong];
        if let (Ok(ca), Ok(other)) = (
            std::env::var("LEXIKEY_TLS_CA"),
            std::env::var("LEXIKEY_TLS_OTHER_CA"),
        ) {
            failing.push(url.replace(&ca, &other));
        }
        for u in failing {
            for o in [
                run(&["alloc", "--table", "t", "--store", &u]),
                run_env(&["scan", "--table", "t"], b"", &u),
            ] {
                check_error(&o, var);
                if leaks(&o, &pw) || leaks(&o, SECRET) {
                    bad.push(format!("{var}: {}", o.stderr));
                }
            }
        }
    }
    assert!(bad.is_empty(), "secrets shown:\n{}", bad.join("\n"));
}

/// Issue 38: a port that does not parse is a bad URL naming the part (not a
/// store that did not answer), and an empty table name is refused saying
/// what is allowed: exit 2, one line.
#[test]
fn bad_ports_and_empty_table_names_say_what_is_wrong() {
    let msg = fails(&[
        "alloc",
        "--table",
        "t",
        "--store",
        "redis://127.0.0.1:notaport",
    ]);
    assert!(
        msg.contains(
            "the port `notaport` of host `127.0.0.1:notaport` is not a number from 1 to 65535"
        ),
        "{msg}"
    );
    let msg = fails(&["alloc", "--table", "", "--store", "memory:"]);
    assert!(
        msg.contains("the table name is empty: give a name of 1 or more characters"),
        "{msg}"
    );
}
