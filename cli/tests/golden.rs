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
    // --- ulid, uuid7, geo (CLI kinds stored as uuid / u64); salting of the native formats.
    (&["encode", "str:event", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "event#g01563E3AB5D3D6764C61EFB99302BD5B\n"),
    (&["encode", "ulid:01arz3ndektsv4rrffq69g5fav"], "g01563E3AB5D3D6764C61EFB99302BD5B\n"),
    (&["encode", "ulid:0IARZ3NDEKTSV4RRFFQ69G5FAV"], "g01563E3AB5D3D6764C61EFB99302BD5B\n"),
    (&["encode", "ulid.desc:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "GFEA9C1C54A2C2989B39E10466CFD42A4\n"),
    (&["encode", "ulid:7ZZZZZZZZZZZZZZZZZZZZZZZZZ"], "gFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\n"),
    (&["encode", "ulid:00000000000000000000000000"], "g00000000000000000000000000000000\n"),
    (&["encode", "--format", "base64", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "g-KNyDfMIpbOBNTytZk9xLk\n"),
    (&["encode", "--format", "decimal", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "001777027686520646174104517696511196507\n"),
    (&["encode", "--format", "binary", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV", "ulid.desc:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "01563e3ab5d3d6764c61efb99302bd5bfea9c1c54a2c2989b39e10466cfd42a4\n"),
    (&["encode", "--json", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "{\"key\":\"g01563E3AB5D3D6764C61EFB99302BD5B\"}\n"),
    (&["encode", "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], "g017F22E279B07CC398C4DC0C0C07398F\n"),
    (&["encode", "uuid7:017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "uuid7.desc:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], "g017F22E279B07CC398C4DC0C0C07398F#GFE80DD1D864F833C673B23F3F3F8C670\n"),
    (&["encode", "--format", "base64", "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], "g-MwXsbakUBDNlCkB2-RtYk\n"),
    (&["encode", "--format", "binary", "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], "017f22e279b07cc398c4dc0c0c07398f\n"),
    (&["encode", "str:places", "geo:37.7749,-122.4194"], "places#u4B71B06D338BE6C6\n"),
    (&["encode", "--bits", "16", "str:places", "geo:37.7749,-122.4194"], "places#u000000004B71B06D\n"),
    (&["encode", "--curve", "hilbert", "--bits", "16", "geo.desc:37.7749,-122.4194"], "UFFFFFFFFB48E4F92\n"),
    (&["encode", "--curve", "morton", "--bits", "5", "geo:42.6,-5.6"], "u00000000000001BF\n"),
    (&["encode", "--curve", "morton", "geo:90,180", "geo:-90,-180"], "uFFFFFFFFFFFFFFFF#u0000000000000000\n"),
    (&["encode", "geo:90,180", "geo:-90,-180", "geo:0,0"], "uAAAAAAAAAAAAAAAA#u0000000000000000#u8000000000000000\n"),
    (&["encode", "--format", "base64", "--bits", "16", "geo:37.7749,-122.4194"], "u-----3hlg5o\n"),
    (&["encode", "--format", "decimal", "--bits", "16", "geo:37.7749,-122.4194"], "00000000001265741933\n"),
    (&["encode", "--format", "decimal", "--bits", "16", "--width", "10", "geo:37.7749,-122.4194"], "1265741933\n"),
    (&["encode", "--format", "binary", "geo:37.7749,-122.4194"], "4b71b06d338be6c6\n"),
    (&["encode", "--salt-buckets", "16", "str:events", "i64:42"], "00#events#l800000000000002A\n"),
    (&["encode", "--salt-buckets", "16", "--salt-mode", "fast", "str:events", "i64:43"], "08#events#l800000000000002B\n"),
    (&["encode", "--salt-buckets", "16", "--salt-mode", "phoenix", "str:events", "i64:42"], "06#events#l800000000000002A\n"),
    (&["encode", "--salt-buckets", "1", "str:events", "i64:42"], "00#events#l800000000000002A\n"),
    (&["encode", "--format", "base64", "--salt-buckets", "16", "str:events", "i64:42"], "0A#events#lV--------1c\n"),
    (&["encode", "--format", "decimal", "--salt-buckets", "16", "str:events", "i64:42"], "0C#events#00000000000000000042\n"),
    (&["encode", "--format", "binary", "--salt-buckets", "16", "str:events", "i64:42"], "016576656e74730001800000000000002a\n"),
    (&["encode", "--format", "binary", "--salt-buckets", "16", "--salt-mode", "phoenix", "str:events", "i64:42"], "056576656e74730001800000000000002a\n"),
    (&["encode", "--json", "--salt-buckets", "4", "str:events", "i64:42"], "{\"key\":\"00#events#l800000000000002A\"}\n"),
    (&["decode", "--schema", "str,ulid", "event#g01563E3AB5D3D6764C61EFB99302BD5B"], "str:event\nulid:01ARZ3NDEKTSV4RRFFQ69G5FAV\n"),
    (&["decode", "--schema", "ulid.desc", "GFEA9C1C54A2C2989B39E10466CFD42A4"], "ulid.desc:01ARZ3NDEKTSV4RRFFQ69G5FAV\n"),
    (&["decode", "--json", "--schema", "str,ulid", "event#g01563E3AB5D3D6764C61EFB99302BD5B"], "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"event\"},{\"type\":\"ulid\",\"dir\":\"asc\",\"value\":\"01ARZ3NDEKTSV4RRFFQ69G5FAV\",\"ts\":\"2016-07-30T23:54:10.259Z\"}]}\n"),
    (&["decode", "--format", "binary", "--schema", "ulid,ulid.desc", "01563e3ab5d3d6764c61efb99302bd5bfea9c1c54a2c2989b39e10466cfd42a4"], "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV\nulid.desc:01ARZ3NDEKTSV4RRFFQ69G5FAV\n"),
    (&["decode", "--format", "decimal", "--schema", "ulid", "001777027686520646174104517696511196507"], "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV\n"),
    (&["decode", "--schema", "uuid7,uuid7.desc", "g017F22E279B07CC398C4DC0C0C07398F#GFE80DD1D864F833C673B23F3F3F8C670"], "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f\nuuid7.desc:017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n"),
    (&["decode", "--json", "--schema", "uuid7", "g017F22E279B07CC398C4DC0C0C07398F"], "{\"components\":[{\"type\":\"uuid7\",\"dir\":\"asc\",\"value\":\"017f22e2-79b0-7cc3-98c4-dc0c0c07398f\",\"ts\":\"2022-02-22T19:22:22.000Z\"}]}\n"),
    (&["decode", "--schema", "uuid", "g017F22E279B07CC398C4DC0C0C07398F"], "uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n"),
    (&["decode", "--bits", "16", "--schema", "str,geo", "places#u000000004B71B06D"], "str:places\ngeo:37.775,-122.42\n"),
    (&["decode", "--json", "--bits", "16", "--schema", "str,geo", "places#u000000004B71B06D"], "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"places\"},{\"type\":\"geo\",\"dir\":\"asc\",\"value\":\"37.775,-122.42\",\"code\":1265741933,\"cell\":{\"min_lat\":37.77374267578125,\"min_lon\":-122.420654296875,\"max_lat\":37.7764892578125,\"max_lon\":-122.4151611328125}}]}\n"),
    (&["decode", "--schema", "str,geo", "places#u4B71B06D338BE6C6"], "str:places\ngeo:37.7749,-122.4194\n"),
    (&["decode", "--curve", "morton", "--bits", "5", "--schema", "geo", "u00000000000001BF"], "geo:42,-6\n"),
    (&["decode", "--json", "--curve", "morton", "--bits", "5", "--schema", "geo.desc", "UFFFFFFFFFFFFFE40"], "{\"components\":[{\"type\":\"geo\",\"dir\":\"desc\",\"value\":\"42,-6\",\"code\":447,\"cell\":{\"min_lat\":39.375,\"min_lon\":-11.25,\"max_lat\":45,\"max_lon\":0}}]}\n"),
    (&["decode", "--format", "binary", "--schema", "geo", "4b71b06d338be6c6"], "geo:37.7749,-122.4194\n"),
    (&["decode", "--salt-buckets", "16", "00#events#l800000000000002A"], "str:events\ni64:42\n"),
    (&["decode", "--salt-buckets", "16", "--salt-mode", "phoenix", "--schema", "str,i64", "06#events#l800000000000002A"], "str:events\ni64:42\n"),
    (&["decode", "--format", "binary", "--salt-buckets", "16", "--schema", "str,i64", "016576656e74730001800000000000002a"], "str:events\ni64:42\n"),
    (&["decode", "--json", "--format", "base64", "--salt-buckets", "16", "--schema", "str,i64", "0A#events#lV--------1c"], "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"events\"},{\"type\":\"i64\",\"dir\":\"asc\",\"value\":42}]}\n"),
    (&["range", "--salt-buckets", "2", "str:events", "--ge", "i64:40"], "00#events#l8000000000000028\n00#events$\n01#events#l8000000000000028\n01#events$\n"),
    (&["range", "--salt-buckets", "3", "--salt-mode", "phoenix", "str:events"], "00#events#\n00#events$\n01#events#\n01#events$\n02#events#\n02#events$\n"),
    (&["range", "--format", "binary", "--salt-buckets", "2", "str:events", "--ge", "i64:40"], "006576656e747300018000000000000028\n006576656e74730002\n016576656e747300018000000000000028\n016576656e74730002\n"),
    (&["range", "--format", "decimal", "--salt-buckets", "2", "str:events", "--lt", "i64:40"], "00#events#\n00#events#00000000000000000039$\n01#events#\n01#events#00000000000000000039$\n"),
    (&["range", "--format", "base64", "--salt-buckets", "2", "str:events", "--eq", "i64:40"], "00#events#lV--------1V\n00#events#lV--------1V$\n01#events#lV--------1V\n01#events#lV--------1V$\n"),
    (&["range", "--json", "--salt-buckets", "2", "str:events", "--ge", "i64:40"], "{\"ranges\":[{\"start\":\"00#events#l8000000000000028\",\"end\":\"00#events$\"},{\"start\":\"01#events#l8000000000000028\",\"end\":\"01#events$\"}]}\n"),
    (&["range", "--json", "--salt-buckets", "2", "--for", "redis", "--table", "ev", "str:events"], "{\"ranges\":[{\"start\":\"00#events#\",\"end\":\"00#events$\"},{\"start\":\"01#events#\",\"end\":\"01#events$\"}],\"for\":\"redis\",\"output\":\"ZRANGE ev [00#events# (00#events$ BYLEX\\nZRANGE ev [01#events# (01#events$ BYLEX\\n\"}\n"),
    (&["range", "--for", "hbase", "--format", "binary", "--salt-buckets", "2"], "scan 't', {STARTROW => \"\\x00\", STOPROW => \"\\x01\"}\nscan 't', {STARTROW => \"\\x01\", STOPROW => \"\\x02\"}\n"),
    (&["range", "--salt-buckets", "1", "str:events"], "00#events#\n00#events$\n"),
    (&["range", "str:event", "--ge", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV"], "event#g01563E3AB5D3D6764C61EFB99302BD5B\nevent$\n"),
    (&["range", "str:event", "--ge", "ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV", "--lt", "uuid7:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"], "event#g01563E3AB5D3D6764C61EFB99302BD5B\nevent#g017F22E279B07CC398C4DC0C0C07398E$\n"),
    (&["range", "--curve", "morton", "--bits", "5", "str:places", "--eq", "geo:42.6,-5.6"], "places#u00000000000001BF\nplaces#u00000000000001BF$\n"),
    (&["range", "--json", "--bits", "16", "str:places", "--bbox", "37.70,-122.52,37.82,-122.35", "--max-ranges", "4"], "{\"ranges\":[{\"start\":\"places#u000000004B71A155\",\"end\":\"places#u000000004B71A196$\"},{\"start\":\"places#u000000004B71AE14\",\"end\":\"places#u000000004B71B455$\"},{\"start\":\"places#u000000004B71B7AA\",\"end\":\"places#u000000004B71B803$\"},{\"start\":\"places#u000000004B71BD54\",\"end\":\"places#u000000004B71BEA9$\"}],\"over_coverage\":0.3295238095238095,\"covered_cells\":2100,\"box_cells\":1408}\n"),
    (&["range", "--json", "--bits", "16", "str:places", "--bbox", "37.70,-122.52,37.82,-122.35", "--max-ranges", "1", "--for", "cql", "--table", "places"], "{\"ranges\":[{\"start\":\"places#u000000004B71A155\",\"end\":\"places#u000000004B71BEA9$\"}],\"over_coverage\":0.812491676654681,\"covered_cells\":7509,\"box_cells\":1408,\"for\":\"cql\",\"output\":\"SELECT * FROM places WHERE pk = ? AND ck >= 'places#u000000004B71A155' AND ck < 'places#u000000004B71BEA9$';\\n\"}\n"),
    (&["range", "--json", "--curve", "morton", "--bits", "1", "--bbox", "-90,-180,90,180"], "{\"ranges\":[{\"start\":\"u0000000000000000\",\"end\":\"u0000000000000003$\"}],\"over_coverage\":0,\"covered_cells\":4,\"box_cells\":4}\n"),
    (&["range", "--json", "--curve", "morton", "--bits", "8", "--format", "binary", "--bbox", "10,170,20,-170", "--max-ranges", "2"], "{\"ranges\":[{\"start\":\"0000000000004054\",\"end\":\"000000000000417b\"},{\"start\":\"000000000000ead4\",\"end\":\"000000000000ebfb\"}],\"over_coverage\":0.5932203389830508,\"covered_cells\":590,\"box_cells\":240}\n"),
    (&["range", "--json", "--bits", "16", "--salt-buckets", "2", "str:places", "--bbox", "37.70,-122.52,37.82,-122.35", "--max-ranges", "2"], "{\"ranges\":[{\"start\":\"00#places#u000000004B71A155\",\"end\":\"00#places#u000000004B71A196$\"},{\"start\":\"00#places#u000000004B71AE14\",\"end\":\"00#places#u000000004B71BEA9$\"},{\"start\":\"01#places#u000000004B71A155\",\"end\":\"01#places#u000000004B71A196$\"},{\"start\":\"01#places#u000000004B71AE14\",\"end\":\"01#places#u000000004B71BEA9$\"}],\"over_coverage\":0.673469387755102,\"covered_cells\":4312,\"box_cells\":1408}\n"),
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
        // Options that decode takes as encode does: the geo grid, the salt.
        let mut shared: Vec<&str> = Vec::new();
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
                "--curve" | "--bits" | "--salt-buckets" | "--salt-mode" => {
                    shared.extend([args[i], args[i + 1]]);
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
        dargs.extend(shared.iter().copied());
        dargs.extend(["--", key]);
        let got = ok(&dargs);
        // Re-encode what decode printed: the same key.
        let mut eargs = vec!["encode", "--format", format];
        if let Some(w) = width {
            eargs.extend(["--width", w]);
        }
        eargs.extend(shared.iter().copied());
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

#[test]
fn bulk_golden_kinds_and_salt() {
    let rows =
        "a\t01arz3ndektsv4rrffq69g5fav\t017f22e2-79b0-7cc3-98c4-dc0c0c07398f\t37.7749,-122.4194\n\
                b\t7ZZZZZZZZZZZZZZZZZZZZZZZZZ\t017F22E2-79B0-7CC3-98C4-DC0C0C07398F\t-90,180\n";
    let schema = ["--bits", "16", "--schema", "str,ulid,uuid7.desc,geo"];
    let keys = ok_with(
        &[&["encode", "--stdin"][..], &schema].concat(),
        rows.as_bytes(),
    );
    assert_eq!(
        keys,
        "a#g01563E3AB5D3D6764C61EFB99302BD5B#GFE80DD1D864F833C673B23F3F3F8C670#u000000004B71B06D\n\
         b#gFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF#GFE80DD1D864F833C673B23F3F3F8C670#u00000000FFFFFFFF\n"
    );
    // Back: canonical text (uppercase ULID, lowercase UUID, the cell's point).
    let back = ok_with(
        &[&["decode", "--stdin"][..], &schema].concat(),
        keys.as_bytes(),
    );
    assert_eq!(
        back,
        "str:a\tulid:01ARZ3NDEKTSV4RRFFQ69G5FAV\tuuid7.desc:017f22e2-79b0-7cc3-98c4-dc0c0c07398f\tgeo:37.775,-122.42\n\
         str:b\tulid:7ZZZZZZZZZZZZZZZZZZZZZZZZZ\tuuid7.desc:017f22e2-79b0-7cc3-98c4-dc0c0c07398f\tgeo:-90,179.997\n"
    );
    let json = ok_with(
        &[&["decode", "--stdin", "--json"][..], &schema].concat(),
        keys.lines().nth(1).unwrap().as_bytes(),
    );
    assert_eq!(
        json,
        "{\"components\":[{\"type\":\"str\",\"dir\":\"asc\",\"value\":\"b\"},\
         {\"type\":\"ulid\",\"dir\":\"asc\",\"value\":\"7ZZZZZZZZZZZZZZZZZZZZZZZZZ\",\"ts\":\"+10889-08-02T05:31:50.655Z\"},\
         {\"type\":\"uuid7\",\"dir\":\"desc\",\"value\":\"017f22e2-79b0-7cc3-98c4-dc0c0c07398f\",\"ts\":\"2022-02-22T19:22:22.000Z\"},\
         {\"type\":\"geo\",\"dir\":\"asc\",\"value\":\"-90,179.997\",\"code\":4294967295,\
         \"cell\":{\"min_lat\":-90,\"min_lon\":179.9945068359375,\"max_lat\":-89.99725341796875,\"max_lon\":180}}]}\n"
    );
    // Salted bulk mode, every native format, there and back.
    for (format, want) in [
        (
            "hex",
            "00#events#l800000000000002A\n08#events#l800000000000002B\n",
        ),
        ("base64", "0A#events#lV--------1c\n03#events#lV--------1g\n"),
        (
            "decimal",
            "0C#events#00000000000000000042\n0A#events#00000000000000000043\n",
        ),
        (
            "binary",
            "016576656e74730001800000000000002a\n086576656e74730001800000000000002b\n",
        ),
    ] {
        let args = [
            "--format",
            format,
            "--salt-buckets",
            "16",
            "--schema",
            "str,i64",
            "--stdin",
        ];
        let keys = ok_with(
            &[&["encode"][..], &args].concat(),
            b"events\t42\nevents\t43\n",
        );
        assert_eq!(keys, want, "{format}");
        // One key at a time gives the same keys.
        assert_eq!(
            ok(&[
                "encode",
                "--format",
                format,
                "--salt-buckets",
                "16",
                "str:events",
                "i64:43"
            ]),
            want.lines().nth(1).unwrap().to_string() + "\n"
        );
        assert_eq!(
            ok_with(&[&["decode"][..], &args].concat(), keys.as_bytes()),
            "str:events\ti64:42\nstr:events\ti64:43\n",
            "{format}"
        );
        let json = ok_with(
            &[&["encode", "--json"][..], &args].concat(),
            b"events\t42\n",
        );
        assert_eq!(
            json,
            format!("{{\"key\":\"{}\"}}\n", want.lines().next().unwrap())
        );
    }
}

#[test]
fn bbox_reports_the_over_coverage_on_stderr() {
    let o = common::run(&[
        "range",
        "--bits",
        "16",
        "str:places",
        "--bbox",
        "37.70,-122.52,37.82,-122.35",
        "--max-ranges",
        "2",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout_str(),
        "places#u000000004B71A155\nplaces#u000000004B71A196$\nplaces#u000000004B71AE14\nplaces#u000000004B71BEA9$\n"
    );
    assert_eq!(
        o.stderr,
        "lexikey range: the box is 1408 cells; 2 ranges cover 4312 cells (over-coverage 67.3%)\n"
    );
    // Every dialect renders each range.
    for (dialect, lines) in [
        ("raw", 4),
        ("hbase", 2),
        ("cql", 2),
        ("rocksdb", 4),
        ("etcd", 4),
        ("redis", 2),
        ("sql", 2),
    ] {
        let o = common::run(&[
            "range",
            "--for",
            dialect,
            "--bits",
            "16",
            "str:places",
            "--bbox",
            "37.70,-122.52,37.82,-122.35",
            "--max-ranges",
            "2",
        ]);
        assert_eq!(o.code, 0, "{dialect}: {}", o.stderr);
        assert_eq!(o.stdout_str().lines().count(), lines, "{dialect}");
        assert!(o.stderr.contains("over-coverage 67.3%"), "{dialect}");
    }
}

#[test]
fn phoenix_salt_mode_matches_the_phoenix_profile() {
    // `--salt-mode phoenix` on a binary key computes the salt byte that
    // `--format phoenix --salt-buckets N` computes for the same bytes (a
    // varbinary column holding them).
    for (comps, n) in [
        (&["str:events", "i64:42"][..], "16"),
        (&["str:a"], "3"),
        (&["u64:18446744073709551615", "str:\u{e9}"], "255"),
        (&["bytes:80ff00"], "7"),
    ] {
        let plain = ok(&[&["encode", "--format", "binary"][..], comps].concat());
        let plain = plain.trim_end();
        let salted = ok(&[
            &[
                "encode",
                "--format",
                "binary",
                "--salt-buckets",
                n,
                "--salt-mode",
                "phoenix",
            ][..],
            comps,
        ]
        .concat());
        let phoenix = ok(&[
            "encode",
            "--format",
            "phoenix",
            "--salt-buckets",
            n,
            &format!("varbinary:{plain}"),
        ]);
        assert_eq!(salted, phoenix, "{comps:?} / {n}");
        assert_eq!(&salted[2..], format!("{plain}\n"));
    }
}

#[test]
fn readme_transcripts_run() {
    // Every `$ lexikey …` line of the README and of the pages under docs/
    // (but alloc and scan, which need a store) is executed; the lines up to
    // the next `$` or the end of the block are its standard output, or its
    // standard error when they start with `lexikey: error: ` (exit 2) or
    // `lexikey range: ` (the --bbox note, exit 0).
    let mut checked = 0;
    for (page, text) in doc_pages() {
        checked += run_transcripts(&page, &text);
    }
    assert!(
        checked >= 67,
        "only {checked} transcripts in the README and docs/"
    );
}

/// The README and every page under docs/, as (path, text), in path order.
fn doc_pages() -> Vec<(String, String)> {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(format!("{root}/docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(format!("{root}/{p}")).unwrap();
            (p, text)
        })
        .collect()
}

/// Runs the `$ lexikey …` transcripts of one page (see
/// `readme_transcripts_run`); returns how many it checked.
fn run_transcripts(page: &str, text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(cmd) = line.strip_prefix("$ lexikey ") else {
            continue;
        };
        let args = shell_words(cmd);
        if matches!(args[0].as_str(), "alloc" | "scan" | "demo") {
            continue;
        }
        let (mut stdout, mut stderr) = (String::new(), String::new());
        for next in &lines[i + 1..] {
            if next.starts_with("$ ") || next.starts_with("```") {
                break;
            }
            let to = if next.starts_with("lexikey: ") || next.starts_with("lexikey range: ") {
                &mut stderr
            } else {
                &mut stdout
            };
            to.push_str(next);
            to.push('\n');
        }
        // From the repository's root, as a reader runs them (file paths).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let o = common::run_in(Some(&root), &args, b"", &[]);
        let want_code = if stderr.starts_with("lexikey: error: ") {
            2
        } else {
            0
        };
        assert_eq!(
            (o.code, o.stdout_str(), o.stderr),
            (want_code, stdout, stderr),
            "{page} line {}: lexikey {cmd}",
            i + 1
        );
        checked += 1;
    }
    checked
}

/// Splits a transcript's command line as a shell would: whitespace, with `"…"`
/// and `'…'` quoting (no escapes inside).
fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in s.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}
