"""The API of issue #13 by example: names, return types, value mapping and
errors, with keys from the README and the golden fixtures."""

import datetime
import decimal
import inspect
import subprocess
import uuid

import pytest

import lexikey

UTC = datetime.timezone.utc


def test_readme_keys():
    assert lexikey.encode(["str:population", "i64:3831868"]) == "population#l80000000003A783C"
    assert lexikey.encode(["str:population", ("i64", 3831868)], format="base64") == "population#lV------uT2k"
    assert lexikey.encode(["str:population", "i64:3831868"], "decimal") == "population#00000000000003831868"
    key = lexikey.encode(["str:population", "i64:3831868"], format="binary")
    assert isinstance(key, bytes) and key.hex() == "706f70756c6174696f6e000180000000003a783c"
    assert lexikey.decode("population#l80000000003A783C") == [("str", "population"), ("i64", 3831868)]
    assert lexikey.encode(["str.desc:ab"]) == "9E9D~"
    assert lexikey.encode([("str.desc", "ab")]) == "9E9D~"
    assert lexikey.encode(["dec:10.50"], format="decimal") == "==2105-"
    assert lexikey.encode([("dec", decimal.Decimal("10.50"))], format="decimal") == "==2105-"
    assert lexikey.reverse(1) == 9223372036854775806
    assert lexikey.reverse(lexikey.reverse(42)) == 42


def test_salt_and_width():
    assert lexikey.encode(["str:events", "i64:42"], salt_buckets=16) == "00#events#l800000000000002A"
    assert lexikey.decode("08#events#l800000000000002B", salt_buckets=16) == [("str", "events"), ("i64", 43)]
    assert lexikey.encode([("u64", 389625)], format="decimal", width=7) == "0389625"
    with pytest.raises(lexikey.EncodeError, match="does not fit in 7 decimal digits"):
        lexikey.encode([("u64", 10000000)], format="decimal", width=7)


def test_ranges_and_render():
    start, end = lexikey.range(["str:population"], ge=("i64", 1000000))
    assert (start, end) == ("population#l80000000000F4240", "population$")
    assert lexikey.range(["str:usa", "str:california"]) == ("usa#california#", "usa#california$")
    assert lexikey.range([], lt="i64:-5")[0] is None
    assert lexikey.render(start, end, "hbase", "cities") == (
        "scan 'cities', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}\n"
    )
    assert lexikey.render(start, end, "cql", "cities") == (
        "SELECT * FROM cities WHERE pk = ? AND ck >= 'population#l80000000000F4240' AND ck < 'population$';\n"
    )
    assert lexikey.render(start, end, "rocksdb") == (
        "iterate_lower_bound=population#l80000000000F4240\niterate_upper_bound=population$\n"
    )
    assert lexikey.render(start, end, "etcd") == (
        "etcdctl get 'population#l80000000000F4240' 'population$'\n"
        '{"key":"cG9wdWxhdGlvbiNsODAwMDAwMDAwMDBGNDI0MA==","range_end":"cG9wdWxhdGlvbiQ="}\n'
    )
    assert lexikey.render(start, end, "redis", "cities") == (
        "ZRANGE cities [population#l80000000000F4240 (population$ BYLEX\n"
    )
    assert lexikey.render(start, end, "sql", "cities") == (
        "SELECT k FROM cities WHERE k >= 'population#l80000000000F4240' AND k < 'population$' ORDER BY k;\n"
    )
    r = lexikey.range(["text:eu-west"], format="hbase-ordered", ge="int64.desc:1714521600000")
    assert lexikey.render(*r, "hbase", "metrics") == (
        "scan 'metrics', {STARTROW => \"4eu-west\\x00\\xD3\", "
        "STOPROW => \"4eu-west\\x00\\xD3\\x7F\\xFF\\xFEp\\xCE\\x8C\\x90\"}\n"
    )
    with pytest.raises(lexikey.EncodeError, match="no key can match"):
        lexikey.range([], gt=("i64", 2**63 - 1))
    with pytest.raises(ValueError):
        lexikey.render("a", "b", "mongodb")


def test_interop_keys():
    assert lexikey.encode(["str:users", ("int", 42), "str:alice"], format="fdb-tuple").hex() == (
        "02757365727300152a02616c69636500"
    )
    k = bytes.fromhex("3465752d7765737400d37ffffe70cbf961ff3463707500")
    comps = ["text:eu-west", ("int64.desc", 1714564800000), "text:cpu"]
    assert lexikey.encode(comps, format="hbase-ordered") == k
    assert lexikey.decode(k, "text,int64.desc,text", "hbase-ordered") == [
        ("text", "eu-west"),
        ("int64.desc", 1714564800000),
        ("text", "cpu"),
    ]
    created = datetime.datetime(2024, 5, 1, 12, tzinfo=UTC)
    key = lexikey.encode(["varchar:acme", ("date.desc", created), ("bigint", 7)], format="phoenix", salt_buckets=4)
    assert key.hex() == "0261636d65007ffffe70cbf961ff8000000000000007"
    assert lexikey.decode(key.hex(), "varchar,date.desc,bigint", "phoenix", salt_buckets=4) == [
        ("varchar", "acme"),
        ("date.desc", created),
        ("bigint", 7),
    ]
    key = lexikey.encode(["char(4):ibm", ("decimal.desc", decimal.Decimal("123.45")), ("binary(2)", b"\n")], format="phoenix")
    assert key.hex() == "69626d203dfde7d1ff0a00"
    assert lexikey.decode(key, "char(4),decimal.desc,binary(2)", "phoenix") == [
        ("char(4)", "ibm"),
        ("decimal.desc", decimal.Decimal("123.45")),
        ("binary(2)", b"\n\x00"),
    ]
    # Nulls: None in, None out.
    s = lexikey.Schema("numeric,text", "hbase-ordered")
    assert s.encode((1, None)).hex() == "1802"
    assert s.decode(bytes.fromhex("1802")) == (decimal.Decimal(1), None)


def test_value_mapping_native():
    s = lexikey.Schema("str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,uuid,dec")
    row = (
        "a#b",
        -5,
        2**64 - 1,
        -(2**31),
        2**32 - 1,
        -0.0,
        1.5,
        True,
        b"\x00\xff",
        datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=UTC),
        uuid.UUID("123e4567-e89b-12d3-a456-426614174000"),
        decimal.Decimal("-123456789012345678901234567890.0001"),
    )
    key = s.encode(row)
    assert isinstance(key, str)
    back = s.decode(key)
    assert back == row
    assert [type(v) for v in back] == [type(v) for v in row]
    assert str(back[5]) == "-0.0"
    assert s.decode_many([key, key]) == [row, row]
    assert s.encode_many([row, list(row)]) == [key, key]
    pairs = lexikey.decode(key, schema=s.spec)
    assert [t for t, _ in pairs] == s.fields
    assert lexikey.encode(pairs) == key
    # ts also takes integer milliseconds; other zones are converted to UTC.
    t = lexikey.Schema("ts")
    plus2 = datetime.timezone(datetime.timedelta(hours=2))
    assert t.encode((0,)) == t.encode((datetime.datetime(1970, 1, 1, 2, tzinfo=plus2),)) == "t8000000000000000"
    assert t.decode("t8000000000000000")[0].tzinfo is not None


@pytest.mark.parametrize(
    "spec, value, match",
    [
        ("ts", datetime.datetime(2024, 1, 1), "naive"),
        ("ts", datetime.datetime(2024, 1, 1, 0, 0, 0, 1, tzinfo=UTC), "whole milliseconds"),
        ("dec", 0.1, "not an exact decimal"),
        ("dec", decimal.Decimal("NaN"), "dec"),
        ("i64", 2**63, "out of range for i64"),
        ("u64", -1, "out of range for u64"),
        ("i32", 2**31, "out of range for i32"),
        ("u32", 2**32, "out of range for u32"),
        ("i64", True, "expected an int"),
        ("i64", "5", "expected an int"),
        ("str", 5, "expected a str"),
        ("bool", 1, "expected a bool"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", "uuid.UUID"),
        ("bytes", "00", "expected bytes"),
    ],
)
def test_refused_values(spec, value, match):
    with pytest.raises(lexikey.EncodeError, match=match):
        lexikey.Schema(spec).encode((value,))
    with pytest.raises(lexikey.EncodeError, match=match):
        lexikey.encode([(spec, value)])


def test_errors():
    assert issubclass(lexikey.DecodeError, ValueError)
    assert issubclass(lexikey.EncodeError, ValueError)
    assert issubclass(lexikey.AllocError, RuntimeError)
    assert issubclass(lexikey.ContentionError, lexikey.AllocError)
    assert issubclass(lexikey.ExhaustedError, lexikey.AllocError)
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode("population#l80000000003a783C", schema="str,i64")
    assert e.value.offset == 23
    assert "UPPERCASE hex digit" in str(e.value)
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode(bytes.fromhex("61620002" "61"), schema="str", format="binary")
    assert e.value.offset == 3
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode("6162000261", schema="str", format="binary")
    assert e.value.offset == 3
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.Schema("str,i64").decode_many(["a#l8000000000000000", "a#l80"])
    assert e.value.offset == 5 and str(e.value).startswith("key 1:")
    with pytest.raises(lexikey.EncodeError, match="i65"):
        lexikey.encode(["i65:1"])
    with pytest.raises(lexikey.EncodeError, match="not a number in range for i32"):
        lexikey.encode(["i32:3000000000"])
    with pytest.raises(ValueError, match="octal"):
        lexikey.encode(["i64:1"], format="octal")
    with pytest.raises(ValueError, match="schema"):
        lexikey.decode(b"\x00", format="binary")
    with pytest.raises(lexikey.EncodeError, match="decimal format cannot encode f64"):
        lexikey.encode([("f64", 1.5)], format="decimal")
    with pytest.raises(lexikey.EncodeError):
        lexikey.reverse(-1)


def test_signatures():
    # The contract of issue #13: names, parameters, defaults.
    def params(f):
        return [(p.name, p.default) for p in inspect.signature(f).parameters.values() if p.kind != p.KEYWORD_ONLY]

    e = inspect.Parameter.empty
    assert params(lexikey.encode) == [("components", e), ("format", "hex")]
    assert params(lexikey.decode) == [("key", e), ("schema", None), ("format", "hex")]
    assert params(lexikey.range) == [
        ("components", e), ("format", "hex"), ("ge", None), ("gt", None), ("le", None),
        ("lt", None), ("eq", None), ("str_prefix", None),
    ]
    assert params(lexikey.render) == [("start", e), ("end", e), ("target", e), ("table", None)]
    assert params(lexikey.reverse) == [("n", e)]
    assert params(lexikey.Schema.range)[1:] == [
        ("prefix", ()), ("ge", None), ("gt", None), ("le", None), ("lt", None), ("eq", None),
        ("str_prefix", None),
    ]
    assert params(lexikey.Allocator.scan)[1:] == [("limit", None)]
    for name in ["encode", "decode", "range", "render", "reverse", "Schema", "Allocator"]:
        assert getattr(lexikey, name).__doc__, name
    assert "Schema" in lexikey.__doc__


def test_schema_range():
    s = lexikey.Schema("str,i64,str")
    assert s.range(("population",), ge=1000000) == ("population#l80000000000F4240", "population$")
    assert s.range(("population",), ge=1000000) == lexikey.range(["str:population"], ge="i64:1000000")
    assert s.range() == (None, None) or s.range()[0] is None
    assert s.range(("population", 5), str_prefix="New") == lexikey.range(
        ["str:population", "i64:5"], str_prefix="New"
    )
    d = lexikey.Schema("str,ts.desc")
    t = datetime.datetime(2024, 5, 1, tzinfo=UTC)
    assert d.range(("events",), ge=t) == lexikey.range(["str:events"], ge="ts.desc:2024-05-01T00:00:00Z")
    f = lexikey.Schema("str,int", "fdb-tuple")
    assert f.range(("users",), ge=18, lt=65) == (
        bytes.fromhex("027573657273001512"),
        bytes.fromhex("027573657273001541"),
    )


def test_kinds():
    key = lexikey.encode(["str:event", "ulid:01arz3ndektsv4rrffq69g5fav"])
    assert key == "event#g01563E3AB5D3D6764C61EFB99302BD5B"
    assert lexikey.decode(key, schema="str,ulid") == [("str", "event"), ("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV")]
    u7 = uuid.UUID("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
    k7 = lexikey.encode([("uuid7.desc", u7)])
    assert k7 == "GFE80DD1D864F833C673B23F3F3F8C670"
    assert lexikey.decode(k7, "uuid7.desc") == [("uuid7.desc", u7)]
    with pytest.raises(lexikey.EncodeError, match="version 1, not 7"):
        lexikey.encode([("uuid7", uuid.UUID("123e4567-e89b-12d3-a456-426614174000"))])
    g = lexikey.Schema("str,geo")
    k = g.encode(("places", (37.7749, -122.4194)))
    assert lexikey.decode(k, "str,geo") == [("str", "places"), ("geo", g.decode(k)[1])]


def test_fdb_values():
    t = [("null", None), ("bytes", b"\x00"), ("str", "F\u00d4O\x00bar"), ("int", -(2**2000)),
         ("f32", 1.5), ("f64", float("nan")), ("bool", True), ("uuid", uuid.UUID(int=7)),
         ("versionstamp", bytes(range(12)))]
    key = lexikey.encode(t, format="fdb-tuple")
    back = lexikey.decode(key, format="fdb-tuple")
    assert [x for x, _ in back] == [x for x, _ in t]
    assert lexikey.encode(back, format="fdb-tuple") == key
    nested = bytes.fromhex("0515010000")
    assert lexikey.decode(nested, format="fdb-tuple") == [("nested", [("int", 1)]), ("null", None)]
    assert lexikey.decode(bytes.fromhex("05150100ff00"), format="fdb-tuple") == [("nested", [("int", 1), ("null", None)])]


def test_timestamps_outside_datetime():
    # A key may hold any i64 of milliseconds; datetime holds years 1-9999:
    # beyond, decoding raises DecodeError (found by test_canonical_decode_and_offsets).
    for ms in (-62135596800000, 253402300799999):
        key = lexikey.encode([("ts", ms)])
        assert lexikey.decode(key)[0][1] == datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(milliseconds=ms)
    for key in ("t0000000000000000", "tFFFFFFFFFFFFFFFF", lexikey.encode([("ts", 253402300800000)])):
        with pytest.raises(lexikey.DecodeError, match="outside datetime's range"):
            lexikey.decode(key)
        with pytest.raises(lexikey.DecodeError):
            lexikey.Schema("ts").decode_many([key])


def lexikey_binary():
    """The command-line binary of this workspace (cargo build puts it in
    target/debug), or LEXIKEY_BIN."""
    import os
    import shutil

    from conftest import REPO

    for cand in (os.environ.get("LEXIKEY_BIN"), REPO / "target" / "debug" / "lexikey", shutil.which("lexikey")):
        if cand and os.path.exists(cand):
            return str(cand)
    return None


@pytest.mark.parametrize("fmt", ["hex", "decimal", "binary"])
def test_salted_schema_ranges(fmt):
    s = lexikey.Schema("str,i64.desc", fmt, salt_buckets=4)
    with pytest.raises(ValueError, match="one range per bucket: use Schema.ranges"):
        s.range(("metric",), ge=10)
    ranges = s.ranges(("metric",), ge=10, lt=20)
    assert len(ranges) == 4
    # Bucket b's range holds exactly the matching keys salted into b.
    for v in range(0, 40):
        for name in ("metric", "metri", "metricA"):
            key = s.encode((name, v))
            inside = [i for i, (a, b) in enumerate(ranges) if a <= key < b]
            if name == "metric" and 10 <= v < 20:
                assert len(inside) == 1, (name, v)
            else:
                assert inside == [], (name, v)
    # An unsalted schema: the one range of range(), in a list.
    u = lexikey.Schema("str,i64.desc", fmt)
    assert u.ranges(("metric",), ge=10) == [u.range(("metric",), ge=10)]
    # The command line prints the same ranges (raw: two lines per bucket,
    # binary keys as hex).
    exe = lexikey_binary()
    if exe is None:
        pytest.skip("the lexikey binary is not built (cargo build -p lexikey-cli)")
    out = subprocess.run(
        [exe, "range", f"--format={fmt}", "--salt-buckets=4", "--ge=i64.desc:10", "--lt=i64.desc:20", "--", "str:metric"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout.splitlines()
    flat = [k if isinstance(k, str) else k.hex() for r in ranges for k in r]
    assert flat == out


@pytest.mark.parametrize("fmt", ["hex", "base64", "decimal", "binary"])
@pytest.mark.parametrize("salt", [None, 5])
def test_decode_error_offset_of_a_value_python_cannot_hold(fmt, salt):
    # A ts beyond datetime's years 1 to 9999 decodes in Rust but is no
    # Python value: DecodeError at the byte offset of its component, which
    # is where that component's own encoding starts in the key.
    for ts in ("9223372036854775807", "-9223372036854775808"):
        comps = ["str:a#b", "i64.desc:-5", f"ts:{ts}"]
        key = lexikey.encode(comps, fmt, salt_buckets=salt)
        alone = lexikey.encode([comps[2]], fmt)
        s = lexikey.Schema("str,i64.desc,ts", fmt, salt_buckets=salt)
        for call in (
            lambda: lexikey.decode(key, s.spec, fmt, salt_buckets=salt),
            lambda: s.decode(key),
            lambda: s.decode_many([s.encode(("x", 1, 0)), key]),
        ):
            with pytest.raises(lexikey.DecodeError, match="value 3 at byte .*outside datetime's range") as e:
                call()
            assert e.value.offset > 0
            assert key[e.value.offset :] == alone, (fmt, salt, e.value.offset)
    with pytest.raises(lexikey.DecodeError, match="^key 1: invalid key"):
        s.decode_many([s.encode(("x", 1, 0)), key])


def test_decode_error_offset_uuid7_and_phoenix_dates():
    key = lexikey.encode(["str:ab", "uuid:123e4567-e89b-12d3-a456-426614174000"])
    with pytest.raises(lexikey.DecodeError, match="not a UUIDv7") as e:
        lexikey.decode(key, "str,uuid7")
    assert e.value.offset == 3 and key[3:] == lexikey.encode(["uuid:123e4567-e89b-12d3-a456-426614174000"])
    # Phoenix: the salt byte, VARCHAR 'abc', its 00 separator, then the DATE.
    key = lexikey.encode(["varchar:abc", "date:9223372036854775807", "bigint:5"], "phoenix", salt_buckets=3)
    s = lexikey.Schema("varchar,date,bigint", "phoenix", salt_buckets=3)
    for call in (lambda: s.decode(key), lambda: lexikey.decode(key, s.spec, "phoenix", salt_buckets=3)):
        with pytest.raises(lexikey.DecodeError, match="value 2 at byte 5") as e:
            call()
        assert e.value.offset == 5 and key[5:13] == bytes.fromhex("ffffffffffffffff")


def test_range_with_a_schema_refuses_another_type():
    # Without a schema a bound's type is its own: an i32 bound selects i32 keys.
    start, end = lexikey.range(["str:population"], ge=("i32", 1000000))
    assert start <= "population#l8000000000000005" < end
    with pytest.raises(lexikey.EncodeError, match="the ge predicate is an i32 .*field 2 of the schema is an i64"):
        lexikey.range(["str:population"], ge=("i32", 1000000), schema="str,i64")
    assert lexikey.range(["str:population"], ge=("i64", 1000000), schema="str,i64") == (
        "population#l80000000000F4240",
        "population$",
    )
    with pytest.raises(ValueError, match="native formats"):
        lexikey.range(["varchar:a"], format="phoenix", schema="varchar")


def test_plain_values_at_the_top_level():
    import datetime
    import decimal
    import uuid as uuidmod

    assert lexikey.encode(["population", 3831868]) == "population#l80000000003A783C"
    assert lexikey.encode(["population", 3831868]) == lexikey.encode(["str:population", ("i64", 3831868)])
    when = datetime.datetime(2024, 5, 1, 12, tzinfo=datetime.timezone.utc)
    u = uuidmod.UUID("123e4567-e89b-12d3-a456-426614174000")
    plain = lexikey.encode(["a", 1.5, True, b"\x00\xff", when, u, decimal.Decimal("10.50")])
    pairs = lexikey.encode(
        [("str", "a"), ("f64", 1.5), ("bool", True), ("bytes", b"\x00\xff"), ("ts", when), ("uuid", u), ("dec", decimal.Decimal("10.50"))]
    )
    assert plain == pairs
    # Past i64: a clear error naming the way out.
    with pytest.raises(lexikey.EncodeError, match=r"out of range for i64.*\(\"u64\", n\)"):
        lexikey.encode([2**63])
    assert lexikey.encode([("u64", 2**63)]) == "u8000000000000000"
    # A str holding ':' is a component (a typo is an error); a str value holding ':' is a pair.
    assert lexikey.encode(["i64:5"]) == lexikey.encode([5])
    assert lexikey.decode(lexikey.encode([("str", "i64:5")])) == [("str", "i64:5")]
    with pytest.raises(lexikey.EncodeError, match="i65"):
        lexikey.encode(["i65:5"])
    # Profiles take plain values in their own types.
    assert lexikey.encode(["users", 42], format="fdb-tuple") == b"\x02users\x00\x15\x2a"
    assert lexikey.encode(["a", 1], format="phoenix") == lexikey.encode(["varchar:a", "bigint:1"], format="phoenix")
    # Ranges too.
    assert lexikey.range(["population"], ge=1000000) == ("population#l80000000000F4240", "population$")


def test_decode_with_a_format_as_schema_names_the_fix():
    with pytest.raises(ValueError, match=r'"hex" is a key format, not a schema; write decode\(key, format="hex"\)'):
        lexikey.decode("population#l80000000003A783C", "hex")


class _Index:
    """An integer type that is not int (as numpy.int64 is not)."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


def test_index_integers_are_ints():
    s = lexikey.Schema("str,i64")
    assert s.encode(("a", _Index(5))) == s.encode(("a", 5))
    assert s.encode_many([("a", _Index(5))]) == [s.encode(("a", 5))]
    assert lexikey.encode([("i64", _Index(-3))]) == lexikey.encode([("i64", -3)])
    with pytest.raises(lexikey.EncodeError, match="out of range for i32"):
        lexikey.Schema("i32").encode((_Index(2**40),))
    try:
        import numpy as np
    except ImportError:  # numpy is optional; the __index__ class above covers the rule
        return
    assert s.encode(("a", np.int64(5))) == s.encode(("a", 5))
    assert s.encode_many([("a", np.int32(7))]) == [s.encode(("a", 7))]


def test_binary_keys_in_every_form():
    key = lexikey.encode(["str:population", "i64:5"], format="binary")
    want = lexikey.decode(key, "str,i64", format="binary")
    start, _ = lexikey.range(["str:population"], format="binary", eq=("i64", 5))
    shown = lexikey.render(start, None, "hbase", "t").split('"')[1]
    for form in ["0x" + key.hex(), "0X" + key.hex().upper(), shown, key.hex()]:
        assert lexikey.decode(form, "str,i64", format="binary") == want, form
    with pytest.raises(lexikey.DecodeError, match="neither printable ASCII") as e:
        lexikey.decode("ab\\x0", "str", format="binary")
    assert e.value.offset == 2
