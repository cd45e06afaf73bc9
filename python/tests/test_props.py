"""Properties (hypothesis, 2,000 examples each): order, round trip and
canonical decoding for every type in every native format, ascending and
descending, inside composite keys; DecodeError.offset on mutated keys; no
crash on arbitrary input to every decoder."""

import datetime
import decimal
import math
import uuid

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import lexikey

UTC = datetime.timezone.utc
FORMATS = ["hex", "base64", "decimal", "binary"]
TEXT = {"hex": True, "base64": True, "decimal": True, "binary": False}

# Strings that stress escaping: the separator, the escape, bytes below them,
# shared prefixes, non-ASCII.
tricky_text = st.text(alphabet=st.sampled_from(["\x00", "\x01", " ", "!", "#", "$", "%", "&", "a", "b", "~", "\x7f", "é", "\uffff", "😀"]), max_size=6)
texts = st.one_of(st.text(), tricky_text)

millis_datetimes = st.datetimes(
    min_value=datetime.datetime(1, 1, 1), max_value=datetime.datetime(9999, 12, 31, 23, 59, 59), timezones=st.just(UTC)
).map(lambda d: d.replace(microsecond=d.microsecond // 1000 * 1000))

VALUES = {
    "str": texts,
    "i64": st.integers(-(2**63), 2**63 - 1),
    "u64": st.integers(0, 2**64 - 1),
    "i32": st.integers(-(2**31), 2**31 - 1),
    "u32": st.integers(0, 2**32 - 1),
    "f64": st.floats(),
    "f32": st.floats(width=32),
    "bool": st.booleans(),
    "bytes": st.binary(max_size=12) | st.lists(st.sampled_from([b"\x00", b"\x01", b"\xff", b"a"]), max_size=5).map(b"".join),
    "ts": millis_datetimes,
    "uuid": st.uuids(),
    "dec": st.decimals(allow_nan=False, allow_infinity=False),
}


def order_key(ty, v):
    """The value order lexikey keys follow (floats: -0.0 < +0.0, NaN last)."""
    if ty in ("f64", "f32"):
        return (1, 0, 0) if math.isnan(v) else (0, v, math.copysign(1.0, v))
    if ty == "str":
        return v.encode()
    if ty == "uuid":
        return v.int
    return v


def same(ty, a, b):
    if ty in ("f64", "f32"):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b and type(a) is type(b)


def cmp(a, b):
    return (a > b) - (a < b)


def raw(key):
    return key.encode() if isinstance(key, str) else key


def encodable(fmt, ty):
    try:
        lexikey.Schema(ty, fmt)
        next_value = {"str": "a", "f64": 1.0, "f32": 1.0, "bool": True, "bytes": b"a", "ts": 0, "uuid": uuid.UUID(int=1), "dec": 1}.get(ty, 1)
        lexikey.Schema(ty, fmt).encode((next_value,))
        return True
    except lexikey.EncodeError:
        return False


CASES = [(ty, fmt) for ty in VALUES for fmt in FORMATS if encodable(fmt, ty)]


def test_every_type_has_formats():
    # The decimal format refuses floats; every other pair is covered.
    assert {(ty, fmt) for ty in VALUES for fmt in FORMATS} - set(CASES) == {("f64", "decimal"), ("f32", "decimal")}


@pytest.mark.parametrize("ty", list(VALUES))
@given(data=st.data())
def test_order_and_round_trip(ty, data):
    fmt = data.draw(st.sampled_from([f for t, f in CASES if t == ty]))
    desc = data.draw(st.booleans())
    a = data.draw(VALUES[ty])
    b = data.draw(VALUES[ty])
    spec = f"{ty}.desc" if desc else ty
    schema = lexikey.Schema(f"str,{spec},str", fmt)

    def key(v):
        try:
            return schema.encode(("p#", v, "z"))
        except lexikey.EncodeError as e:
            # Decimals beyond the dec type's bounds (exponent within ±32767).
            assert ty == "dec" and "range" in str(e), e
            assume(False)

    ka, kb = key(a), key(b)
    expected = cmp(order_key(ty, a), order_key(ty, b))
    assert cmp(raw(ka), raw(kb)) == (-expected if desc else expected)
    assert isinstance(ka, str) == TEXT[fmt]
    # Round trip, and the (type, value) path gives the same key.
    p, back, z = schema.decode(ka)
    assert (p, z) == ("p#", "z")
    if ty == "dec":
        assert back == a and isinstance(back, decimal.Decimal)
    elif ty == "f32":
        assert same(ty, back, a)
    else:
        assert same(ty, back, a), (back, a)
    assert lexikey.encode([("str", "p#"), (spec, a), ("str", "z")], fmt) == ka
    pairs = lexikey.decode(ka, schema=f"str,{spec},str", format=fmt)
    assert [t for t, _ in pairs] == ["str", spec, "str"]
    assert lexikey.encode(pairs, fmt) == ka


rows = st.tuples(tricky_text, st.integers(-(2**63), 2**63 - 1), texts)


@given(fmt=st.sampled_from(FORMATS), a=rows, b=rows, salt=st.sampled_from([None, 7]))
def test_composite_order(fmt, a, b, salt):
    # Sorting keys sorts the tuples, descending field reversed (salted keys
    # sort within their bucket only).
    s = lexikey.Schema("str,i64.desc,str", fmt)
    ka, kb = s.encode(a), s.encode(b)

    def k(t):
        return (t[0].encode(), -t[1], t[2].encode())

    assert cmp(raw(ka), raw(kb)) == cmp(k(a), k(b))
    assert s.decode_many([ka, kb]) == [a, b]
    assert s.encode_many([a, b]) == [ka, kb]
    if salt:
        salted = lexikey.Schema("str,i64.desc,str", fmt, salt_buckets=salt)
        assert salted.decode(salted.encode(a)) == a


SCHEMAS = ["str", "i64", "u32.desc", "f64", "bool,str", "str.desc,bytes", "ts,uuid", "dec", "dec.desc,str", "str,i64.desc,str"]


def mutate(data, key):
    """A key with one byte replaced, inserted or deleted."""
    b = bytearray(raw(key))
    op = data.draw(st.sampled_from(["replace", "insert", "delete"] if b else ["insert"]))
    if op == "insert":
        i = data.draw(st.integers(0, len(b)))
        b.insert(i, data.draw(st.integers(0, 255)))
    else:
        i = data.draw(st.integers(0, len(b) - 1))
        if op == "replace":
            b[i] = data.draw(st.integers(0, 255).filter(lambda x: x != b[i]))
        else:
            del b[i]
    return bytes(b)


def valid_key(data, fmt, spec):
    s = lexikey.Schema(spec, fmt)
    values = []
    for f in spec.split(","):
        ty = f.split(".")[0]
        if (ty, fmt) not in CASES:
            assume(False)
        values.append(data.draw(VALUES[ty]))
    try:
        return s, s.encode(tuple(values))
    except lexikey.EncodeError:
        assume(False)


@given(data=st.data(), fmt=st.sampled_from(FORMATS), spec=st.sampled_from(SCHEMAS), tagged=st.booleans())
def test_canonical_decode_and_offsets(data, fmt, spec, tagged):
    # Whenever a mutated key decodes, it re-encodes to itself; when it does
    # not, DecodeError.offset points into the key.
    s, key = valid_key(data, fmt, spec)
    bad = mutate(data, key)
    schema = None if tagged and fmt in ("hex", "base64") else spec
    try:
        pairs = lexikey.decode(bad, schema=schema, format=fmt)
    except lexikey.DecodeError as e:
        assert isinstance(e.offset, int) and 0 <= e.offset <= len(bad), (e, e.offset, bad)
        return
    assert raw(lexikey.encode(pairs, fmt)) == bad


@given(i=st.integers(1, 16), c=st.sampled_from("abcdefghijklmnopqrstuvwxyz!#\x7f"), v=VALUES["i64"])
def test_offset_is_the_bad_byte(i, c, v):
    key = lexikey.encode(["str:population", ("i64", v)])
    at = len("population#") + i
    bad = key[:at] + c + key[at + 1 :]
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode(bad, schema="str,i64")
    assert e.value.offset == at


DECODERS = [(None, f) for f in ("hex", "base64")] + [(s, f) for s in SCHEMAS for f in FORMATS] + [
    (None, "fdb-tuple"),
    ("int64.desc,text,numeric", "hbase-ordered"),
    ("blob-var,float64,blob-copy", "hbase-ordered"),
    ("varchar,bigint.desc,decimal", "phoenix"),
    ("char(3),timestamp.desc,varbinary", "phoenix"),
]


@given(data=st.data(), which=st.sampled_from(DECODERS))
def test_no_crash_on_arbitrary_input(data, which):
    schema, fmt = which
    key = data.draw(st.one_of(st.binary(max_size=40), st.text(max_size=40)))
    for call in (
        lambda: lexikey.decode(key, schema=schema, format=fmt),
        lambda: lexikey.Schema(schema, fmt).decode(key) if schema else None,
        lambda: lexikey.Schema(schema, fmt).decode_many([key]) if schema else None,
    ):
        try:
            call()
        except lexikey.DecodeError as e:
            assert isinstance(e.offset, int) and e.offset >= 0
