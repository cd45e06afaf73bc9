"""fdb-tuple keys against FoundationDB's own Python bindings (PyPI
`foundationdb`: `fdb.tuple.pack`/`unpack` need no server, no client library
and no `fdb.api_version` call), byte for byte, both ways, on hypothesis
tuples of ints of any size, strings, bytes, floats, bools, UUIDs and nulls.

One documented binding quirk: Python's `fdb.tuple` writes exactly
±(2**64 - 1) with the big-integer codes (`1d 08 ff…`, `0b f7 00…`) where Java
and lexikey write `1c ff…` / `0c 00…`; lexikey's canonical decoder refuses
the Python form (docs/interop.md, "What is covered, and what is not"). Those two
values are checked for exactly that difference."""

import math
import struct
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey

fdb_tuple = pytest.importorskip("fdb.tuple", reason="PyPI foundationdb is not installed (scripts/test.sh installs it)")

QUIRK = {2**64 - 1, -(2**64 - 1)}
BIG = 2 ** (8 * 255) - 1  # the tuple layer's largest magnitude

ints = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-BIG, BIG),
    st.sampled_from([0, 1, -1, 255, 256, -255, -256, 2**63 - 1, -(2**63), 2**64, -(2**64), 2**64 - 2]),
)
floats = st.floats(allow_nan=False) | st.sampled_from([float("nan"), -0.0, float("inf"), float("-inf")])
singles = st.floats(width=32, allow_nan=False).map(fdb_tuple.SingleFloat)
elements = st.one_of(
    st.none(), st.binary(max_size=10), st.text(max_size=10), ints, floats, singles, st.booleans(), st.uuids()
)
tuples = st.lists(elements, max_size=6).map(tuple)


def pair(e):
    if e is None:
        return ("null", None)
    if isinstance(e, bool):
        return ("bool", e)
    if isinstance(e, int):
        return ("int", e)
    if isinstance(e, float):
        return ("f64", e)
    if isinstance(e, fdb_tuple.SingleFloat):
        return ("f32", e.value)
    if isinstance(e, bytes):
        return ("bytes", e)
    if isinstance(e, str):
        return ("str", e)
    if isinstance(e, uuid.UUID):
        return ("uuid", e)
    raise AssertionError(e)


def same(a, b):
    """Tuple elements equal, floats by their bits (NaN, -0.0)."""
    if isinstance(a, fdb_tuple.SingleFloat):
        a = a.value
        return isinstance(b, float) and (struct.pack(">f", a) == struct.pack(">f", b) or math.isnan(a) and math.isnan(b))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, float) and isinstance(b, float) and struct.pack(">d", a) == struct.pack(">d", b)
    return a == b and type(a) is type(b)


@given(t=tuples)
def test_pack_is_byte_exact_both_ways(t):
    ours = lexikey.encode([pair(e) for e in t], format="fdb-tuple")
    theirs = fdb_tuple.pack(t)
    if any(isinstance(e, int) and not isinstance(e, bool) and e in QUIRK for e in t):
        # Python's big-integer form of ±(2**64-1): unpack reads ours, and
        # lexikey refuses theirs as non-canonical.
        assert fdb_tuple.unpack(ours) == t
        with pytest.raises(lexikey.DecodeError):
            lexikey.decode(theirs, format="fdb-tuple")
        return
    assert ours == theirs
    # Their key decodes here to the same elements, and back to the same key.
    pairs = lexikey.decode(theirs, format="fdb-tuple")
    assert len(pairs) == len(t)
    for (label, v), e in zip(pairs, t):
        assert label == pair(e)[0]
        assert same(e, v), (e, v)
    assert lexikey.encode(pairs, format="fdb-tuple") == theirs
    # Our key unpacks there to the same tuple.
    back = fdb_tuple.unpack(ours)
    assert len(back) == len(t)
    for a, b in zip(t, back):
        if isinstance(b, fdb_tuple.SingleFloat):
            assert isinstance(a, fdb_tuple.SingleFloat) and same(a, b.value)
        else:
            assert same(a, b), (a, b)


@given(t=st.lists(st.one_of(elements, st.lists(elements, max_size=3).map(tuple)), max_size=4).map(tuple))
def test_unpack_agrees_on_nested_tuples(t):
    # Nested tuples have no component syntax; decoding agrees with unpack.
    key = fdb_tuple.pack(t)
    if any(isinstance(e, int) and not isinstance(e, bool) and e in QUIRK for e in str_flat(t)):
        return
    pairs = lexikey.decode(key, format="fdb-tuple")

    def check(pairs, t):
        assert len(pairs) == len(t)
        for (label, v), e in zip(pairs, t):
            if isinstance(e, tuple):
                assert label == "nested"
                check(v, e)
            else:
                assert label == pair(e)[0] and same(e, v)

    check(pairs, t)


def str_flat(t):
    for e in t:
        if isinstance(e, tuple):
            yield from str_flat(e)
        else:
            yield e


def test_readme_vector():
    key = fdb_tuple.pack(("users", 42, "alice"))
    assert lexikey.encode(["str:users", "int:42", "str:alice"], format="fdb-tuple") == key
    assert lexikey.Schema("str,int,str", "fdb-tuple").decode(key) == ("users", 42, "alice")
