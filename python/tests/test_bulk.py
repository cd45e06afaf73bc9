"""Schema.encode_many against the one-row paths: the typed bulk path (schemas
of str and i64 fields, rows that are tuples of exact str/int) and the general
path it falls back to, chunk by chunk, give the keys Schema.encode and
lexikey.encode (the command line's own encode) give, and the same errors."""

import collections
import datetime
import decimal
import pickle
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey

FORMATS = ["hex", "base64", "decimal", "binary"]
CHUNK = 8192  # rows per chunk in encode_many (schema.rs)


class Text(str):
    """A str subclass: not the exact type the bulk path reads."""


Pair = collections.namedtuple("Pair", "a b")

texts = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from(["\x00", "\x01", " ", "#", "$", "%", "&", "a", "~", "\x7f", "é", "😀"]), max_size=12),
)
ints = st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from([-1, 0, 1, -(2**63), 2**63 - 1]))
# Values the bulk path leaves to the general one: some encode there (a str
# subclass, a bool is refused as an integer...), some are errors.
odd_str = st.sampled_from([Text("sub"), "\ud800", b"bytes", 5, None])
odd_int = st.sampled_from([True, 2**63, -(2**63) - 1, 1.5, "7", None])


@st.composite
def cases(draw):
    fmt = draw(st.sampled_from(FORMATS))
    fields = draw(st.lists(st.sampled_from(["str", "str.desc", "i64", "i64.desc"]), min_size=1, max_size=3))
    width = draw(st.sampled_from([None, 20, 5])) if fmt == "decimal" else None
    salt = draw(st.sampled_from([None, None, 3]))

    def value(f):
        odd = draw(st.integers(0, 19)) == 0
        if f.startswith("str"):
            return draw(odd_str if odd else texts)
        return draw(odd_int if odd else ints)

    rows = []
    for _ in range(draw(st.integers(0, 6))):
        row = tuple(value(f) for f in fields)
        shape = draw(st.integers(0, 29))
        if shape == 0:
            row = list(row)  # a list row: the general path takes it
        elif shape == 1:
            row = row + ("extra",)  # wrong arity: an error
        rows.append(row)
    return fmt, ",".join(fields), width, salt, rows


def outcome(f):
    try:
        return ("ok", f())
    except (lexikey.EncodeError, TypeError) as e:
        return ("error", type(e))


@given(case=cases(), container=st.sampled_from(["list", "tuple", "iter"]))
def test_encode_many_is_encode_row_by_row(case, container):
    fmt, spec, width, salt, rows = case
    s = lexikey.Schema(spec, fmt, width=width, salt_buckets=salt)
    singles = [outcome(lambda r=r: s.encode(r)) for r in rows]
    given_rows = {"list": list, "tuple": tuple, "iter": iter}[container](rows)
    bulk = outcome(lambda: s.encode_many(given_rows))
    bad = [i for i, (kind, _) in enumerate(singles) if kind == "error"]
    if not bad:
        assert bulk == ("ok", [k for _, k in singles])
    else:
        assert bulk == singles[bad[0]]
        with pytest.raises(singles[bad[0]][1]) as e:
            s.encode_many(list(rows))
        if singles[bad[0]][1] is lexikey.EncodeError:
            assert f"row {bad[0]}" in str(e.value), (str(e.value), bad[0])
    # The command line's encode gives the same keys.
    fields = spec.split(",")
    for (kind, key), row in zip(singles, rows):
        if kind == "ok" and salt is None and isinstance(row, tuple):
            assert lexikey.encode(list(zip(fields, row)), fmt, width=width) == key


def test_chunks_mixed_and_an_error_in_a_later_chunk():
    s = lexikey.Schema("str,i64.desc,str")
    rows = [(f"r{i % 97}", i * 7919 - 10**9, "x" * (i % 5)) for i in range(3 * CHUNK)]
    # Rows the bulk path does not read itself, in the second chunk: its
    # chunk is encoded by the general path, the others by the bulk one.
    rows[CHUNK + 5] = [Text("sub"), 5, "list row"]
    rows[CHUNK + 6] = Pair("a", -1) + ("z",)
    expected = [s.encode(r) for r in rows]
    assert s.encode_many(rows) == expected
    assert s.encode_many(iter(rows)) == expected
    assert s.encode_many(r for r in rows) == expected
    # The first bad row is named by its index, whichever chunk it is in.
    bad = list(rows)
    bad[2 * CHUNK + 17] = ("a", True, "z")
    bad[2 * CHUNK + 40] = ("a", 2**70, "z")
    with pytest.raises(lexikey.EncodeError, match=f"row {2 * CHUNK + 17}, value 2 \\(i64.desc\\)"):
        s.encode_many(bad)
    with pytest.raises(lexikey.EncodeError, match=f"row {2 * CHUNK + 17}"):
        s.encode_many(iter(bad))


def test_namedtuples_and_tuple_subclasses_are_rows():
    s = lexikey.Schema("str,i64")
    rows = [Pair("city", 5), Pair("a#b", -(2**63)), ("", 2**63 - 1)]
    assert s.encode_many(rows) == [s.encode(tuple(r)) for r in rows]


def test_text_keys_non_ascii_and_binary_keys():
    s = lexikey.Schema("str,i64")
    rows = [("é😀", 1), ("\x00%#", -1), ("a" * 200, 0)]
    keys = s.encode_many(rows)
    assert keys == [s.encode(r) for r in rows]
    assert all(type(k) is str for k in keys)
    assert s.decode_many(keys) == rows
    b = lexikey.Schema("str,i64", "binary")
    bkeys = b.encode_many(rows)
    assert all(type(k) is bytes for k in bkeys)
    assert bkeys == [b.encode(r) for r in rows]


def test_key_over_the_length_limit():
    s = lexikey.Schema("str,i64")
    ok = ("a" * 100, 1)
    long = ("a" * 40000, 1)
    with pytest.raises(lexikey.EncodeError, match="row 1: key of 40018 bytes is longer than the limit of 32767 bytes"):
        s.encode_many([ok, long])


def test_empty_inputs():
    s = lexikey.Schema("str,i64")
    assert s.encode_many([]) == []
    assert s.encode_many(iter([])) == []
    assert s.encode_many(()) == []


def test_first_bad_row_wins_over_a_later_failure():
    s = lexikey.Schema("str,i64", "decimal", width=5)

    def rows():
        yield ("a", 1)
        yield ("b", 10000)  # over 4 digits: an encoding error
        yield ("c", True)  # a conversion error, later
        raise RuntimeError("the source failed")

    with pytest.raises(lexikey.EncodeError, match="row 1, value 2 \\(i64\\)"):
        s.encode_many(rows())
    with pytest.raises(lexikey.EncodeError, match="row 1, value 2 \\(i64\\)"):
        s.encode_many([("a", 1), ("b", 10000), ("c", True)])

    def failing():
        yield ("a", 1)
        raise RuntimeError("the source failed")

    with pytest.raises(RuntimeError, match="the source failed"):
        s.encode_many(failing())


def test_first_bad_row_wins_across_chunks():
    # Chunks overlap (one is encoded while the next is read): an encoding
    # error in one chunk still wins over a conversion error, or the source
    # failing, in the chunk after it; and over nothing before it.
    s = lexikey.Schema("str,i64", "decimal", width=5)
    rows = [("k", i % 9999) for i in range(4 * CHUNK)]
    rows[CHUNK + 3] = ("b", 10000)  # over 4 digits: an encoding error
    rows[2 * CHUNK + 5] = ("c", True)  # a conversion error, in the next chunk
    with pytest.raises(lexikey.EncodeError, match=f"row {CHUNK + 3}, value 2 \\(i64\\)"):
        s.encode_many(rows)

    def source():
        yield from rows[: 2 * CHUNK]
        raise RuntimeError("the source failed")

    with pytest.raises(lexikey.EncodeError, match=f"row {CHUNK + 3}, value 2 \\(i64\\)"):
        s.encode_many(source())
    # Without the encoding error, the later errors in their order.
    rows[CHUNK + 3] = ("b", 1)
    with pytest.raises(lexikey.EncodeError, match=f"row {2 * CHUNK + 5}, value 2 \\(i64\\)"):
        s.encode_many(rows)
    with pytest.raises(RuntimeError, match="the source failed"):
        s.encode_many(source())
    # A source that ends on a chunk boundary, or one row past it.
    for n in (CHUNK, 2 * CHUNK, 2 * CHUNK + 1):
        good = [("k", i % 9999) for i in range(n)]
        expected = [s.encode(r) for r in good]
        assert s.encode_many(iter(good)) == expected
        assert s.encode_many(good) == expected


def in_threads(n, f):
    """The results of `f()` called once in each of `n` threads at once."""
    import threading

    results = []
    threads = [threading.Thread(target=lambda: results.append(f())) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_overlapped_chunks_from_threads_and_reentrant_rows():
    # Each big call has its own encode thread: calls from several Python
    # threads at once, and a call made by the rows of another call (a
    # generator that encodes as it yields), give the one-thread keys.
    s = lexikey.Schema("str,i64,uuid")
    rows = [(f"k{i % 89}", i * 7919 - 10**9, uuid.UUID(int=i * 2654435761)) for i in range(3 * CHUNK + 11)]
    expected = [s.encode(r) for r in rows]
    inner = lexikey.Schema("str,i64")
    inner_rows = [("x", i) for i in range(2 * CHUNK + 3)]
    inner_expected = [inner.encode(r) for r in inner_rows]
    inner_seen = []

    def reentrant():
        for i, r in enumerate(rows):
            if i % (CHUNK // 2) == 0:
                inner_seen.append(inner.encode_many(inner_rows) == inner_expected)
            yield r

    assert s.encode_many(reentrant()) == expected
    assert inner_seen and all(inner_seen)

    assert in_threads(4, lambda: s.encode_many(rows) == expected) == [True] * 4


_TRACKED_SCRIPT = """
import gc, sys, threading
import lexikey

CHUNK = int(sys.argv[1])
s = lexikey.Schema("str,i64")
rows = [("k", i) for i in range(3 * CHUNK + 7)]
# Made before the collector starts: under its contention 123,000 encode
# calls took most of the test's time (25 s of CI).
expected = [s.encode(r) for r in rows]
stop = threading.Event()
# Counts, not a list: a list of results grows to len(rows) in a long run,
# and then the collector finds it (a list of bools) and reports it.
state = {"seen": 0, "bad": 0}

def collector():
    # Another thread looks at every list while encode_many releases the
    # GIL between chunks: no list with an empty slot is ever visible.
    while not stop.is_set():
        for o in gc.get_objects():
            if type(o) is list and len(o) == len(rows) and o is not rows and o is not expected:
                state["seen"] += 1
                if not all(isinstance(k, str) for k in o):
                    state["bad"] += 1

t = threading.Thread(target=collector)
t.start()
try:
    for _ in range(5):
        keys = s.encode_many(rows)
        assert gc.is_tracked(keys), "the result list is not tracked"
        assert keys == expected, "keys differ from encode"
finally:
    stop.set()
    t.join()
assert state["bad"] == 0, "a list with an empty slot was visible"
print(state["seen"])
"""


def test_result_list_is_tracked_and_complete():
    # The result list is made at its length, untracked by the garbage
    # collector while it has empty slots; the caller gets it tracked.
    # Run in a fresh interpreter: the collector thread walks every object
    # (gc.get_objects), which in this test session's heap (pyarrow,
    # pyspark, hypothesis) took 43 s of CI time; a bare interpreter's heap
    # is what the check needs.
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run(
        [sys.executable, "-c", _TRACKED_SCRIPT, str(CHUNK)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr


class _DateTime(datetime.datetime):
    """A datetime subclass: takes the general path (its fields could be properties)."""


@given(
    st.integers(min_value=-62_135_596_800_000, max_value=253_402_300_799_999),
    st.integers(min_value=-23 * 60, max_value=23 * 60),
)
def test_utc_datetimes_read_by_fields_equal_the_general_path(ms, offset_min):
    """A datetime in timezone.utc is read from its fields (python/src/conv.rs,
    datetime_us); the same instant in another zone, a subclass, or integer
    milliseconds must give the same key, and the key decodes to the instant."""
    utc = datetime.timezone.utc
    when = datetime.datetime(1970, 1, 1, tzinfo=utc) + datetime.timedelta(milliseconds=ms)
    zone = datetime.timezone(datetime.timedelta(minutes=offset_min))
    s = lexikey.Schema("ts")
    key = s.encode((ms,))
    assert s.encode((when,)) == key
    try:
        zoned = when.astimezone(zone)
    except OverflowError:  # the zone's wall clock is past year 9999 (or before 1)
        zoned = when
    assert s.encode_many([(when,), (zoned,)]) == [key, key]
    sub = _DateTime(when.year, when.month, when.day, when.hour, when.minute, when.second, when.microsecond, tzinfo=utc)
    assert s.encode((sub,)) == key
    assert s.decode(key) == (when,)
    assert s.decode(key)[0].tzinfo is utc


class _Bytes(bytes):
    """A bytes subclass: takes the general path."""


class _Decimal(decimal.Decimal):
    """A Decimal subclass: takes the isinstance path."""


class _UUID(uuid.UUID):
    """A UUID subclass: takes the isinstance path."""


_UTC = datetime.timezone.utc
scalar_values = {
    "bool": st.booleans(),
    "bytes": st.binary(max_size=12),
    "uuid": st.integers(0, 2**128 - 1).map(lambda v: uuid.UUID(int=v)),
    "dec": st.decimals(allow_nan=False, allow_infinity=False).filter(lambda d: abs(d.adjusted()) < 300),
    # ts holds milliseconds: years 1 to 9999, to the millisecond.
    "ts": st.integers(0, 315_537_897_599_999).map(
        lambda ms: datetime.datetime(1, 1, 1, tzinfo=_UTC) + datetime.timedelta(milliseconds=ms)
    ),
}


def _general(v):
    """The same value as an object the exact-type readers do not take."""
    if isinstance(v, bytes):
        return _Bytes(v)
    if isinstance(v, decimal.Decimal):
        return _Decimal(v)
    if isinstance(v, uuid.UUID):
        return _UUID(int=v.int)
    if isinstance(v, datetime.datetime):
        return v.astimezone(datetime.timezone(datetime.timedelta(hours=-3), "x")) if 4 <= v.year <= 9998 else _DateTime(
            v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, tzinfo=_UTC
        )
    return v  # a bool: no subclass; the list row below takes the general path


@given(
    st.lists(st.sampled_from(sorted(scalar_values)), min_size=1, max_size=4).flatmap(
        lambda ts: st.tuples(st.just(ts), st.tuples(*[scalar_values[t] for t in ts]), st.lists(st.booleans(), min_size=len(ts), max_size=len(ts)))
    ),
    st.sampled_from(FORMATS),
)
def test_exact_type_readers_equal_the_general_path(case, fmt):
    """Exact bool, bytes, UUID, Decimal and UTC datetime values are read
    without isinstance checks (python/src/bulk.rs read_exact, conv.rs
    with_arg; a datetime from its memory): the key must be the one their
    subclasses, other zones and list rows (the general path) give, and
    decode gives exact standard-library objects back."""
    types, row, desc = case
    spec = ",".join(t + (".desc" if d else "") for t, d in zip(types, desc))
    s = lexikey.Schema(spec, fmt)
    general = tuple(_general(v) for v in row)

    def result(r):
        try:
            return ("ok", s.encode_many([r])[0])
        except lexikey.EncodeError as e:
            return ("error", str(e))

    # Every path gives the same key, or (what a format cannot write) the
    # same error.
    results = [result(r) for r in (row, list(row), general, list(general))]
    assert results == [results[0]] * 4, results
    if results[0][0] == "error":
        return
    key = results[0][1]
    assert s.encode(row) == key
    assert lexikey.encode(list(zip(spec.split(","), row)), fmt) == key
    back = s.decode(key)
    assert len(back) == len(row)
    for v, b in zip(row, back):
        assert type(b) is type(v) and b == v, (v, b)
        if isinstance(v, uuid.UUID):
            # Made without UUID.__init__ (conv.rs make_uuid): as it makes one.
            assert b.is_safe is uuid.SafeUUID.unknown
            assert hash(b) == hash(v) and str(b) == str(v) and b.int == v.int
            assert pickle.loads(pickle.dumps(b)) == v
        if isinstance(v, datetime.datetime):
            assert b.tzinfo is _UTC
    # fold changes no instant in timezone.utc.
    folded = tuple(v.replace(fold=1) if isinstance(v, datetime.datetime) else v for v in row)
    assert s.encode(folded) == key


def test_decode_many_leaves_the_garbage_collector_as_it_was():
    """decode_many holds the collector off while it makes its objects
    (schema.rs GcPause): enabled or disabled before, it is the same after,
    also when a key is bad; decoded rows of untracked values are untracked
    (tuples of str/int), rows holding a UUID stay tracked."""
    import gc

    s = lexikey.Schema("str,i64,uuid")
    rows = [(f"k{i}", i, uuid.UUID(int=i)) for i in range(5000)]
    keys = s.encode_many(rows)
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            assert s.decode_many(keys) == rows
            assert gc.isenabled() is enabled
            with pytest.raises(lexikey.DecodeError, match="key 4000: "):
                s.decode_many(keys[:4000] + ["bad"] + keys[4000:])
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    plain = lexikey.Schema("str,i64")
    out = plain.decode_many(plain.encode_many([(r[0], r[1]) for r in rows]))
    assert out == [(r[0], r[1]) for r in rows]
    assert not any(gc.is_tracked(t) for t in out)
    assert all(gc.is_tracked(t) for t in s.decode_many(keys[:10]))


@pytest.mark.parametrize("chunk_gap", [0, 5000, 13000])
def test_decode_many_first_bad_key_wins(chunk_gap):
    """A key that decodes to a value Python cannot hold (a ts past year
    9999) and a key that does not decode at all: whichever comes first is
    the error, in one chunk or across chunks (decode_all, 4,096 keys per
    chunk)."""
    s = lexikey.Schema("str,ts")
    good = s.encode(("a", 0))
    beyond = s.encode(("a", 253_402_300_800_000))  # 10000-01-01T00:00:00Z
    bad = good[:-1] + "!"
    for first, second, want in [(beyond, bad, "outside datetime's range"), (bad, beyond, "invalid key")]:
        keys = [good] * 3 + [first] + [good] * (6 + chunk_gap) + [second]
        with pytest.raises(lexikey.DecodeError, match="^key 3: ") as e:
            s.decode_many(keys)
        assert want in str(e.value)


def test_decode_many_in_chunks():
    """Keys decoded chunk by chunk (decode_all, 4,096 keys per chunk, the
    GIL released for each): the tuples in order, the first bad key in a
    late chunk named; from several threads at once too."""
    s = lexikey.Schema("str,i64,uuid,ts")
    t0 = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
    rows = [
        (f"k{i % 97}", i * 7919 - 10**9, uuid.UUID(int=i * 2654435761), t0 + datetime.timedelta(milliseconds=i))
        for i in range(5 * 4096 + 17)
    ]
    keys = s.encode_many(rows)
    assert s.decode_many(keys) == rows
    assert s.decode_many(iter(keys)) == rows
    bad = list(keys)
    bad[3 * 4096 + 9] = keys[0][:-1] + "!"
    bad[4 * 4096 + 1] = "nonsense"
    with pytest.raises(lexikey.DecodeError, match=f"^key {3 * 4096 + 9}: invalid key"):
        s.decode_many(bad)
    assert in_threads(3, lambda: s.decode_many(keys) == rows) == [True] * 3
