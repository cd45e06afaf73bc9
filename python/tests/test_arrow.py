"""Schema.encode_arrow and Schema.decode_arrow (Arrow columns in, a key
column out, and back) against the row path: on random tables of every
format (hypothesis, conftest's examples per format), encode_arrow gives the
keys encode_many gives of the same rows, or the same error at the same row
and column; the keys decode back to the table (modulo the documented type
mapping). Then each library's own objects (pyarrow, polars, pandas, DuckDB),
the PyCapsule results, bad input, and two threads at once."""

import datetime
import decimal
import math
import re
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Callable, List, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (scripts/test.sh installs it)")

UTC = datetime.timezone.utc
TEXT_FORMATS = {"hex", "base64", "decimal"}


def ints(bits: int, signed: bool = True) -> st.SearchStrategy[int]:
    """Integers of a width, their bounds drawn often."""
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, -1 if signed else 1]))


tricky_text = st.text(alphabet=st.sampled_from(["\x00", "\x01", " ", "#", "$", "%", "a", "~", "\x7f", "é", "\uffff", "😀"]), max_size=6)
texts = st.one_of(st.just(""), st.text(), tricky_text)
binaries = st.one_of(st.just(b""), st.binary(max_size=12), st.lists(st.sampled_from([b"\x00", b"\x01", b"\xff", b"a"]), max_size=5).map(b"".join))


def datetimes(lo: int, hi: int, unit: str) -> st.SearchStrategy[datetime.datetime]:
    """Instants in UTC of years lo..hi, whole units (s: seconds; else
    milliseconds, and now and then a microsecond: not a whole millisecond,
    which both paths refuse)."""
    base = st.datetimes(min_value=datetime.datetime(lo, 1, 1), max_value=datetime.datetime(hi, 12, 31, 23, 59, 59), timezones=st.just(UTC))
    if unit == "s":
        return base.map(lambda d: d.replace(microsecond=0))
    ms = base.map(lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000))
    if unit == "ms":
        return ms
    return st.one_of(ms, ms, ms, base)


def decimals(places: int, digits: int) -> st.SearchStrategy[decimal.Decimal]:
    """Decimals of `places` places and at most `digits` digits: any of
    them, the extremes, the smallest step, trailing zeros and a negative
    zero."""

    def scaled(m: int) -> decimal.Decimal:
        return decimal.Decimal(f"{m}E-{places}")  # exact (no context rounding)

    bound = scaled(10**digits - 1)
    edges = [bound, bound.copy_negate(), scaled(1), scaled(-1), scaled(0).copy_negate(), scaled(10 ** (digits // 2))]
    return st.one_of(
        # Any of them: an integer of up to `digits` digits, scaled exactly
        # (st.decimals rounds a long bound in the 28-digit default context).
        st.integers(-(10**digits - 1), 10**digits - 1).map(scaled),
        st.sampled_from(edges),
    )


@dataclass(frozen=True)
class Kind:
    """A column: its type in the schema, its Arrow type, the Python values
    encode_many takes for it, and how such a value becomes Arrow's."""

    ty: str
    arrow: Any
    values: st.SearchStrategy[Any]
    to_arrow: Callable[[Any], Any] = lambda v: v
    desc: bool = True  # may be descending

    def array(self, values: List[Any]) -> Any:
        arrow_values = [None if v is None else self.to_arrow(v) for v in values]
        if self.arrow == "dict":
            return pa.array(arrow_values, pa.string()).dictionary_encode()
        return pa.array(arrow_values, self.arrow)


def as_date(d: datetime.datetime) -> datetime.date:
    return d.date()


date_values = st.dates(min_value=datetime.date(1, 1, 1), max_value=datetime.date(9999, 12, 31)).map(
    lambda d: datetime.datetime(d.year, d.month, d.day, tzinfo=UTC)
)
uuid_bytes: Callable[[uuid.UUID], bytes] = lambda u: u.bytes

NATIVE = [
    *(Kind("str", t, texts) for t in [pa.string(), pa.large_string(), pa.string_view(), "dict"]),
    Kind("i64", pa.int64(), ints(64)),
    Kind("i64", pa.int32(), ints(32)),
    Kind("i64", pa.int8(), ints(8)),
    Kind("i64", pa.uint32(), ints(32, False)),
    Kind("i64", pa.uint64(), ints(64, False)),  # past 2**63 - 1: out of range
    Kind("u64", pa.uint64(), ints(64, False)),
    Kind("u64", pa.int64(), ints(64)),  # negative: out of range
    Kind("u64", pa.uint16(), ints(16, False)),
    Kind("i32", pa.int32(), ints(32)),
    Kind("i32", pa.int64(), st.one_of(ints(32), ints(64))),  # past i32: out of range
    Kind("i32", pa.int16(), ints(16)),
    Kind("u32", pa.uint32(), ints(32, False)),
    Kind("u32", pa.uint8(), ints(8, False)),
    Kind("f64", pa.float64(), st.floats()),
    Kind("f64", pa.float32(), st.floats(width=32)),
    Kind("f32", pa.float32(), st.floats(width=32)),
    Kind("bool", pa.bool_(), st.booleans()),
    *(Kind("bytes", t, binaries) for t in [pa.binary(), pa.large_binary(), pa.binary_view()]),
    Kind("bytes", pa.binary(3), st.binary(min_size=3, max_size=3)),
    Kind("ts", pa.timestamp("ms", tz="UTC"), datetimes(1, 9999, "ms")),
    Kind("ts", pa.timestamp("ms"), datetimes(1, 9999, "ms")),
    Kind("ts", pa.timestamp("s", tz="+05:30"), datetimes(1, 9999, "s")),
    Kind("ts", pa.timestamp("us", tz="UTC"), datetimes(1, 9999, "us")),
    Kind("ts", pa.timestamp("ns"), datetimes(1678, 2261, "ns")),
    Kind("ts", pa.date32(), date_values, as_date),
    Kind("ts", pa.date64(), date_values, as_date),
    Kind("uuid", pa.uuid(), st.uuids(), uuid_bytes),
    Kind("uuid", pa.binary(16), st.uuids(), uuid_bytes),
    Kind("dec", pa.decimal128(38, 0), decimals(0, 38)),
    Kind("dec", pa.decimal128(20, 4), decimals(4, 20)),
    Kind("dec", pa.decimal256(60, 10), decimals(10, 60)),
    Kind("dec", pa.decimal128(38, 38), decimals(38, 38)),
    Kind("dec", pa.decimal128(9, 2), decimals(2, 9)),
    Kind("dec", pa.decimal256(76, 0), decimals(0, 76)),
    Kind("dec", pa.int64(), ints(64)),
]
FDB = [
    Kind("str", pa.string(), texts, desc=False),
    Kind("str", "dict", texts, desc=False),
    Kind("int", pa.int64(), ints(64), desc=False),
    Kind("int", pa.uint64(), st.integers(0, 2**63 - 1), desc=False),  # decoded as Int64
    Kind("i32", pa.int32(), ints(32), desc=False),
    Kind("u64", pa.uint64(), ints(64, False), desc=False),
    Kind("bytes", pa.binary(), binaries, desc=False),
    Kind("bool", pa.bool_(), st.booleans(), desc=False),
    Kind("double", pa.float64(), st.floats(), desc=False),
    Kind("float", pa.float32(), st.floats(width=32), desc=False),
    Kind("uuid", pa.uuid(), st.uuids(), uuid_bytes, desc=False),
]
HBASE = [
    Kind("text", pa.string(), texts),
    Kind("int64", pa.int64(), ints(64)),
    Kind("int32", pa.int32(), ints(32)),
    Kind("int32", pa.int64(), st.one_of(ints(32), ints(64))),
    Kind("int8", pa.int8(), ints(8)),
    Kind("float64", pa.float64(), st.floats()),
    Kind("float32", pa.float32(), st.floats(width=32)),
    Kind("numeric", pa.decimal128(30, 6), decimals(6, 30)),
    Kind("numeric", pa.int64(), ints(64)),
    Kind("blob-var", pa.binary(), binaries),
]
PHOENIX = [
    Kind("varchar", pa.string(), texts),
    Kind("bigint", pa.int64(), ints(64)),
    Kind("integer", pa.int32(), ints(32)),
    Kind("integer", pa.int64(), st.one_of(ints(32), ints(64))),
    Kind("double", pa.float64(), st.floats()),
    Kind("boolean", pa.bool_(), st.booleans()),
    Kind("decimal", pa.decimal128(38, 4), decimals(4, 38)),
    # Decoded as Timestamp(ns): the years 1677 to 2262.
    Kind("timestamp", pa.timestamp("ms", tz="UTC"), datetimes(1678, 2261, "ms")),
]
KINDS = {"hex": NATIVE, "base64": NATIVE, "decimal": NATIVE, "binary": NATIVE, "fdb-tuple": FDB, "hbase-ordered": HBASE, "phoenix": PHOENIX}
FORMATS = list(KINDS)


def row_error(e: Exception) -> Optional[int]:
    """The row an error message names."""
    m = re.search(r"\brow (\d+)", str(e))
    return int(m.group(1)) if m else None


def outcome(f: Callable[[], Any]) -> Any:
    try:
        return ("ok", f())
    except lexikey.EncodeError as e:
        return ("error", e)


DECIMAL_TYPES = {"dec", "numeric", "decimal"}


def norm(ty: str, v: Any) -> Any:
    """A value of a field of type `ty` as the input and the decoded
    columns compare: floats with their sign and NaN, instants in UTC,
    UUIDs as their bytes, decimals (decoded as text) by value."""
    if ty.split(".")[0] in DECIMAL_TYPES and isinstance(v, (str, int, decimal.Decimal)) and not isinstance(v, bool):
        return decimal.Decimal(v)
    if isinstance(v, float):
        return ("nan",) if math.isnan(v) else (v, math.copysign(1.0, v))
    if isinstance(v, datetime.datetime):
        return v.astimezone(UTC) if v.tzinfo else v.replace(tzinfo=UTC)
    if isinstance(v, datetime.date):
        return datetime.datetime(v.year, v.month, v.day, tzinfo=UTC)
    if isinstance(v, uuid.UUID):
        return v.bytes
    if isinstance(v, bool):
        return ("bool", v)
    return v


@st.composite
def tables(draw: Any, fmt: str) -> Any:
    """(schema, names, rows, Arrow object, what it is): a random table of
    the format's column kinds, nulls now and then, sliced (a non-zero
    offset) and cut into chunks, as one of the shapes encode_arrow takes."""
    kinds = draw(st.lists(st.sampled_from(KINDS[fmt]), min_size=1, max_size=4))
    fields = [k.ty + (".desc" if k.desc and draw(st.booleans()) else "") for k in kinds]
    if fmt == "decimal":
        width = draw(st.sampled_from([None, 20]))
    else:
        width = None
    salt = draw(st.sampled_from([None, None, 3])) if fmt in ("hex", "binary", "phoenix") else None
    schema = lexikey.Schema(",".join(fields), fmt, width=width, salt_buckets=salt)
    lead = draw(st.integers(0, 3))
    n = draw(st.integers(0, 8))
    null_rate = draw(st.sampled_from([0, 0, 10]))
    columns = []
    for k in kinds:
        col = []
        for _ in range(lead + n):
            if null_rate and draw(st.integers(0, null_rate - 1)) == 0:
                col.append(None)
            else:
                col.append(draw(k.values))
        columns.append(col)
    names = [f"col {i}" for i in range(len(kinds))]
    batch = pa.record_batch([k.array(c) for k, c in zip(kinds, columns)], names=names).slice(lead)
    rows = [tuple(c[lead + r] for c in columns) for r in range(n)]
    shape = draw(st.sampled_from(["batch", "table", "reader", "struct", "column"] if len(kinds) == 1 else ["batch", "table", "reader", "struct"]))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    pieces = [batch.slice(a, b - a) for a, b in zip([0, *cuts], [*cuts, n])]
    if shape == "batch":
        obj: Any = batch
    elif shape == "table":
        obj = pa.Table.from_batches(pieces, batch.schema)
    elif shape == "reader":
        obj = pa.RecordBatchReader.from_batches(batch.schema, pieces)
    elif shape == "struct":
        full = pa.record_batch([k.array(c) for k, c in zip(kinds, columns)], names=names)
        obj = pa.StructArray.from_arrays(full.columns, names=names).slice(lead)
    else:
        obj = pa.chunked_array([p.column(0) for p in pieces], batch.schema.field(0).type) if len(pieces) > 1 else batch.column(0)
    return schema, names, kinds, rows, obj, shape


def check_against_rows(schema: Any, names: List[str], kinds: List[Kind], rows: List[Any], obj: Any) -> None:
    """encode_arrow(obj) is encode_many(rows), or fails at the same row and
    column; its keys decode back to the rows."""
    expected = outcome(lambda: schema.encode_many(rows))
    got = outcome(lambda: schema.encode_arrow(obj))
    if expected[0] == "error":
        assert got[0] == "error", (expected, got)
        assert row_error(got[1]) == row_error(expected[1]), (str(got[1]), str(expected[1]))
        m = re.search(r"value (\d+) \(", str(expected[1]))
        if m and len(names) > 1:
            assert f'column "{names[int(m.group(1)) - 1]}"' in str(got[1]), (str(got[1]), str(expected[1]))
        return
    assert got[0] == "ok", (got, rows)
    keys = got[1]
    assert len(keys) == len(rows)
    assert pa.array(keys).to_pylist() == expected[1]
    assert pa.array(keys).type == (pa.string() if schema.format in TEXT_FORMATS else pa.binary())
    # Decoded back: the rows (modulo the type mapping), named as given.
    decoded = pa.table(schema.decode_arrow(keys, names=names))
    assert decoded.column_names == names
    back = list(zip(*(decoded.column(i).to_pylist() for i in range(len(names))))) if rows else []
    types = schema.fields

    def normed(r: Any) -> Any:
        # Phoenix stores an empty VARCHAR as NULL.
        r = [None if v == "" and schema.format == "phoenix" else v for v in r]
        return tuple(norm(ty, v) for ty, v in zip(types, r))

    assert [normed(r) for r in back] == [normed(r) for r in rows]
    # The row path decodes the same values.
    assert [normed(r) for r in back] == [normed(r) for r in schema.decode_many(expected[1])]


@pytest.mark.parametrize("fmt", FORMATS)
@given(data=st.data())
def test_encode_arrow_is_encode_many(fmt: str, data: Any) -> None:
    schema, names, kinds, rows, obj, _ = data.draw(tables(fmt))
    check_against_rows(schema, names, kinds, rows, obj)


# --- Each library's own objects ------------------------------------------

CITIES = lexikey.Schema("str,i64.desc")
NAMES = ["city", "population"]
CITY_ROWS = [("New York", 8804190), ("Los Angeles", 3898747), ("", -(2**63)), ("Zürich 😀", 2**63 - 1), ("a#b%c", 0)]


def city_keys() -> List[Any]:
    return CITIES.encode_many(CITY_ROWS)


def test_pyarrow_table_round_trip() -> None:
    table = pa.table({"city": [c for c, _ in CITY_ROWS], "population": [p for _, p in CITY_ROWS]})
    keys = CITIES.encode_arrow(table)
    assert pa.array(keys).to_pylist() == city_keys()
    back = pa.table(CITIES.decode_arrow(keys, names=NAMES))
    # The same columns (not null: a native format has no null).
    assert back.schema.types == table.schema.types and not any(f.nullable for f in back.schema)
    assert back.cast(table.schema).equals(table)
    assert pa.record_batch(CITIES.decode_arrow(keys, names=NAMES)).to_pylist() == table.to_pylist()


def test_polars_round_trip() -> None:
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({"city": [c for c, _ in CITY_ROWS], "population": [p for _, p in CITY_ROWS]})
    keys = pl.Series(CITIES.encode_arrow(df))
    assert keys.to_list() == city_keys()
    assert keys.name == "key"
    back = pl.DataFrame(CITIES.decode_arrow(keys, names=NAMES))
    assert back.equals(df)
    # A Series is one column.
    one = lexikey.Schema("str")
    assert pl.Series(one.encode_arrow(df["city"])).to_list() == one.encode_many([(c,) for c, _ in CITY_ROWS])


def test_pandas_round_trip_through_pyarrow() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"city": [c for c, _ in CITY_ROWS], "population": [p for _, p in CITY_ROWS]})
    keys = CITIES.encode_arrow(pa.Table.from_pandas(df, preserve_index=False))
    assert pa.array(keys).to_pylist() == city_keys()
    back = pa.table(CITIES.decode_arrow(keys, names=NAMES)).to_pandas()
    pd.testing.assert_frame_equal(back, df, check_dtype=False)
    assert back["population"].tolist() == df["population"].tolist()


def test_duckdb_round_trip() -> None:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("CREATE TABLE cities (city VARCHAR, population BIGINT)")
    con.executemany("INSERT INTO cities VALUES (?, ?)", CITY_ROWS)
    rel = con.sql("SELECT city, population FROM cities ORDER BY rowid")
    keys = CITIES.encode_arrow(rel)
    assert pa.array(keys).to_pylist() == city_keys()
    decoded = pa.table(CITIES.decode_arrow(keys, names=NAMES))
    back = con.sql("SELECT * FROM decoded").fetchall()
    assert back == CITY_ROWS


def test_polars_alone_without_pyarrow() -> None:
    """pyarrow is no dependency: with its import blocked, polars' frames go
    in and the keys come back as a polars Series."""
    pytest.importorskip("polars")
    code = """
import sys
sys.modules["pyarrow"] = None  # any import of pyarrow fails
import polars as pl
import lexikey
s = lexikey.Schema("str,i64")
df = pl.DataFrame({"a": ["x", "y"], "b": [1, -2]})
keys = pl.Series(s.encode_arrow(df))
assert keys.to_list() == s.encode_many([("x", 1), ("y", -2)]), keys
back = pl.DataFrame(s.decode_arrow(keys, names=["a", "b"]))
assert back.equals(df), back
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


# --- The results: the PyCapsule interface ---------------------------------


def test_results_speak_the_capsule_interface_without_a_copy() -> None:
    keys = CITIES.encode_arrow(pa.table({"c": ["a", "b"], "p": [1, 2]}))
    assert len(keys) == 2
    assert repr(keys) == "<lexikey.ArrowArray Utf8: 2 rows>"
    a, b = pa.array(keys), pa.array(keys)
    # Both imports share the result's buffers: handed over, not copied.
    assert a.buffers()[2].address == b.buffers()[2].address
    assert pa.chunked_array(keys).to_pylist() == a.to_pylist()
    assert pa.field(keys).name == "key" and pa.field(keys).type == pa.string()
    binary = lexikey.Schema("str,i64", "binary").encode_arrow(pa.table({"c": ["a"], "p": [1]}))
    assert pa.array(binary).type == pa.binary()
    # An empty input: an empty key column, and its decode an empty batch.
    empty = CITIES.encode_arrow(pa.table({"c": pa.array([], pa.string()), "p": pa.array([], pa.int64())}))
    assert len(empty) == 0 and pa.array(empty).to_pylist() == []
    decoded = CITIES.decode_arrow(empty)
    assert len(decoded) == 0 and pa.table(decoded).column_names == ["c0", "c1"]
    assert pa.table(decoded).schema.field("c1").type == pa.int64()


def test_decode_of_chunked_keys_keeps_the_chunks() -> None:
    keys = pa.chunked_array([city_keys()[:2], city_keys()[2:]])
    decoded = CITIES.decode_arrow(keys, names=NAMES)
    assert len(decoded) == len(CITY_ROWS)
    assert [tuple(r.values()) for r in pa.table(decoded).to_pylist()] == CITY_ROWS
    with pytest.raises(ValueError, match="2 chunks"):
        pa.record_batch(decoded)
    # A table of one column is a key column too.
    assert pa.table(CITIES.decode_arrow(pa.table({"key": keys}))).num_rows == len(CITY_ROWS)


# --- Bad input ----------------------------------------------------------------


def test_a_null_names_column_and_row() -> None:
    table = pa.table({"city": ["a", "b", None, "d"], "population": [1, 2, 3, 4]})
    with pytest.raises(lexikey.EncodeError, match=r'column "city", row 2, value null'):
        CITIES.encode_arrow(table)
    # Counted across chunks.
    chunked = pa.Table.from_batches(table.to_batches(max_chunksize=1))
    with pytest.raises(lexikey.EncodeError, match=r'column "city", row 2'):
        CITIES.encode_arrow(chunked)


def test_the_first_bad_value_of_a_row_is_the_one_named() -> None:
    """As in encode_many: the first value of the row that does not encode
    (here a time of 1 microsecond past a millisecond), not a null after it."""
    s = lexikey.Schema("ts,str")
    t = datetime.datetime(2000, 1, 1, microsecond=1, tzinfo=UTC)
    with pytest.raises(lexikey.EncodeError, match=r"row 0, value 1 \(ts\)"):
        s.encode_many([(t, None)])
    table = pa.table({"t": pa.array([t], pa.timestamp("us", tz="UTC")), "s": pa.array([None], pa.string())})
    with pytest.raises(lexikey.EncodeError, match=r'column "t", row 0'):
        s.encode_arrow(table)


def test_a_wrong_type_names_the_column() -> None:
    with pytest.raises(lexikey.EncodeError, match=r'column "population".*Float64'):
        CITIES.encode_arrow(pa.table({"city": ["a"], "population": [1.5]}))
    with pytest.raises(lexikey.EncodeError, match="3 columns; the schema has 2 fields"):
        CITIES.encode_arrow(pa.table({"a": ["a"], "b": [1], "c": [2]}))


def test_an_overflowing_value_names_column_row_and_value() -> None:
    table = pa.table({"city": ["a", "b"], "population": pa.array([1, 2**63], pa.uint64())})
    with pytest.raises(lexikey.EncodeError, match=r'column "population", row 1, value 9223372036854775808'):
        CITIES.encode_arrow(table)
    small = lexikey.Schema("i32")
    with pytest.raises(lexikey.EncodeError, match=r"row 0, value 2147483648"):
        small.encode_arrow(pa.array([2**31]))


def test_a_forbidden_byte_names_column_and_row() -> None:
    # A Phoenix VARCHAR key column ends at a zero byte: it cannot hold one,
    # in either path.
    s = lexikey.Schema("varchar,bigint", "phoenix")
    rows = [("ok", 1), ("a\x00b", 2)]
    with pytest.raises(lexikey.EncodeError) as row_path:
        s.encode_many(rows)
    with pytest.raises(lexikey.EncodeError, match=r'column "v", row 1') as arrow_path:
        s.encode_arrow(pa.table({"v": [r[0] for r in rows], "n": [r[1] for r in rows]}))
    assert "row 1" in str(row_path.value)
    assert str(arrow_path.value)


def test_a_python_stream_is_read_and_its_failure_raised() -> None:
    """A reader whose batches come from a Python generator: read with the
    GIL released (pyarrow takes it to run the generator); the generator's
    exception fails the call, nothing is returned."""
    schema = pa.schema([("c", pa.string()), ("p", pa.int64())])

    def batches(fail: bool) -> Any:
        for i in range(3):
            yield pa.record_batch([pa.array([f"c{i}"]), pa.array([i])], schema=schema)
        if fail:
            raise RuntimeError("the source broke")

    keys = CITIES.encode_arrow(pa.RecordBatchReader.from_batches(schema, batches(False)))
    assert pa.array(keys).to_pylist() == CITIES.encode_many([(f"c{i}", i) for i in range(3)])
    with pytest.raises(ValueError, match="the Arrow stream failed: .*the source broke"):
        CITIES.encode_arrow(pa.RecordBatchReader.from_batches(schema, batches(True)))


def test_not_arrow_data_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Arrow data"):
        CITIES.encode_arrow([("a", 1)])
    with pytest.raises(TypeError, match="Arrow data"):
        CITIES.decode_arrow(["key"])


def test_bad_keys_raise_decode_error_with_row_and_offset() -> None:
    keys = city_keys()
    bad = keys[:3] + [keys[3] + "zz"] + keys[4:]
    with pytest.raises(lexikey.DecodeError, match=r"row 3") as e:
        CITIES.decode_arrow(pa.array(bad))
    with pytest.raises(lexikey.DecodeError) as row_path:
        CITIES.decode(bad[3])
    assert e.value.offset == row_path.value.offset  # type: ignore[attr-defined]
    # Counted across chunks.
    with pytest.raises(lexikey.DecodeError, match=r"row 3"):
        CITIES.decode_arrow(pa.chunked_array([bad[:2], bad[2:]]))
    with pytest.raises(lexikey.DecodeError, match=r"row 1, value null"):
        CITIES.decode_arrow(pa.array([keys[0], None]))
    with pytest.raises(ValueError, match="3 names; the schema has 2 fields"):
        CITIES.decode_arrow(pa.array(keys), names=["a", "b", "c"])
    with pytest.raises(lexikey.DecodeError, match="not a batch of 2 columns"):
        CITIES.decode_arrow(pa.table({"a": keys, "b": keys}))


# --- Threads --------------------------------------------------------------


def both_threads(f: Callable[[], Any]) -> List[Any]:
    """What f returns in each of two threads started together."""
    results: List[Any] = [None, None]

    def work(i: int) -> None:
        results[i] = f()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    return results


def test_two_threads_encode_and_decode_at_once() -> None:
    """Both finish with the results of one thread (the GIL is released
    while encoding and decoding; bench.py measures the speed)."""
    n = 200_000
    table = pa.table({"c": [f"city {i % 5000}" for i in range(n)], "p": pa.array(range(n), pa.int64())})
    expected = pa.array(CITIES.encode_arrow(table))
    encoded = both_threads(lambda: pa.array(CITIES.encode_arrow(table)))
    assert all(r is not None and r.equals(expected) for r in encoded)
    decoded = both_threads(lambda: pa.table(CITIES.decode_arrow(expected)))
    assert all(d is not None and d.rename_columns(["c", "p"]).cast(table.schema).equals(table) for d in decoded)


# --- The examples -------------------------------------------------------------

EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str, *args: str) -> str:
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r.stdout


def test_polars_example() -> None:
    """polars_keys.py checks its own keys (sorted as the values, decoded
    back); here it runs."""
    pytest.importorskip("polars")
    out = run_example("polars_keys.py", "5000")
    assert "key" in out


def test_duckdb_example(tmp_path: Any) -> None:
    """SELECT lexikey_key(...) FROM read_csv(...): the keys encode_many makes
    of the same rows, in key order."""
    pytest.importorskip("duckdb")
    rows = [("cpu" if i % 3 else "mem", datetime.datetime(2024, 5, 1, tzinfo=UTC) + datetime.timedelta(seconds=7 * i), f"web-{i % 4}") for i in range(3000)]
    csv = tmp_path / "metrics.csv"
    csv.write_text("metric,ts,host\n" + "".join(f"{m},{t.isoformat()},{h}\n" for m, t, h in rows))
    out = run_example("duckdb_keys.py", str(csv)).splitlines()
    schema = lexikey.Schema("str,ts.desc,str")
    expected = sorted(zip(schema.encode_many(rows), rows))
    assert [line.split("\t")[0] for line in out] == [k for k, _ in expected]
    assert [tuple(line.split("\t")[1:2] + line.split("\t")[3:]) for line in out] == [(m, h) for _, (m, _t, h) in expected]
