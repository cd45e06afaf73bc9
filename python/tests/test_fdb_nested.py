"""fdb-tuple nested tuples (a Python list among the components) and
versionstamps (lexikey.Versionstamp, lexikey.pack_with_versionstamp) against
FoundationDB's own Python bindings (PyPI foundationdb), byte for byte, both
ways, on hypothesis tuples holding None, nested tuples and complete and
incomplete versionstamps (2,000 of them at the full size, conftest.py).

fdb.tuple.Versionstamp.to_bytes looks up fdb.impl.Value for an isinstance
check, and importing fdb.impl needs the client library (libfdb_c), which
packing never calls: a stand-in class takes its place when it is absent."""

import types
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey
from conftest import REPO

fdb = pytest.importorskip("fdb", reason="PyPI foundationdb is not installed (scripts/test.sh installs it)")
fdb_tuple = pytest.importorskip("fdb.tuple")
if not hasattr(fdb, "impl"):
    fdb.impl = types.SimpleNamespace(Value=type("Value", (), {}))

FV = fdb_tuple.Versionstamp
QUIRK = {2**64 - 1, -(2**64 - 1)}  # Python's big-integer form: test_fdb.py

ints = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 255, 2**63, -(2**64)])).filter(
    lambda i: i not in QUIRK
)
tr_versions = st.binary(min_size=10, max_size=10).filter(lambda b: b != b"\xff" * 10)
stamps = st.one_of(
    st.builds(FV, tr_versions, st.integers(0, 65535)),
    st.builds(lambda u: FV(None, u), st.integers(0, 65535)),
)
leaves = st.one_of(
    st.none(),
    st.binary(max_size=8),
    st.text(alphabet=st.sampled_from("ab\x00,[]\\ :é"), max_size=8),
    ints,
    st.floats(allow_nan=False),
    st.booleans(),
    st.uuids(),
    stamps,
)
elements = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=12)
tuples = st.lists(elements, max_size=5).map(tuple)


def ours(e):
    """A tuple element as a lexikey component: a list for a nested tuple."""
    if isinstance(e, tuple):
        return [ours(x) for x in e]
    if isinstance(e, FV):
        return lexikey.Versionstamp(e.tr_version, e.user_version)
    if isinstance(e, str) and (":" in e or e == "null"):
        return ("str", e)  # a plain str holding ':' is a component string
    return e


def incomplete(t):
    return sum(incomplete(e) if isinstance(e, tuple) else isinstance(e, FV) and not e.is_complete() for e in t)


def check_pairs(pairs, t):
    """decode's pairs are the tuple's elements: ("nested", [pairs]) for a
    nested tuple, ("versionstamp", lexikey.Versionstamp) for a versionstamp."""
    assert len(pairs) == len(t)
    for (label, v), e in zip(pairs, t):
        if isinstance(e, tuple):
            assert label == "nested"
            check_pairs(v, e)
        elif isinstance(e, FV):
            assert label == "versionstamp" and isinstance(v, lexikey.Versionstamp)
            assert (v.tr_version, v.user_version, v.is_complete()) == (e.tr_version, e.user_version, e.is_complete())
            assert v.to_bytes() == e.to_bytes()
        elif isinstance(e, float):
            assert label == "f64" and (v == e or (v != v and e != e))
        else:
            assert v == e and type(v) is type(e), (label, v, e)


@given(t=tuples)
def test_nested_and_versionstamps_byte_exact_both_ways(t):
    comps = [ours(e) for e in t]
    n = incomplete(t)
    if n == 0:
        theirs = fdb_tuple.pack(t)
        assert lexikey.encode(comps, "fdb-tuple") == theirs
        pairs = lexikey.decode(theirs, format="fdb-tuple")
        check_pairs(pairs, t)
        assert lexikey.encode(pairs, "fdb-tuple") == theirs
        assert fdb_tuple.unpack(lexikey.encode(comps, "fdb-tuple")) == fdb_tuple.unpack(theirs)
        with pytest.raises(ValueError):
            fdb_tuple.pack_with_versionstamp(t)
        with pytest.raises(lexikey.EncodeError, match="no incomplete versionstamp"):
            lexikey.pack_with_versionstamp(comps)
    elif n == 1:
        theirs = fdb_tuple.pack_with_versionstamp(t)
        assert lexikey.pack_with_versionstamp(comps) == theirs
        # The key without its offset decodes to the tuple (the placeholder
        # an incomplete Versionstamp again), which packs back.
        pairs = lexikey.decode(theirs[:-4], format="fdb-tuple")
        check_pairs(pairs, t)
        assert lexikey.pack_with_versionstamp(pairs) == theirs
    else:
        with pytest.raises(ValueError, match="Multiple incomplete"):
            fdb_tuple.pack_with_versionstamp(t)
        with pytest.raises(lexikey.EncodeError, match="two incomplete versionstamps in one tuple"):
            lexikey.pack_with_versionstamp(comps)


def test_contract_examples():
    assert lexikey.encode([1, [2, None], "x"], "fdb-tuple") == fdb_tuple.pack((1, (2, None), "x"))
    # A 2-tuple stays a (type, value) pair.
    assert lexikey.encode([("int", 1), ["x", ("f32", 1.5)]], "fdb-tuple") == fdb_tuple.pack(
        (1, ("x", fdb_tuple.SingleFloat(1.5)))
    )
    assert lexikey.decode(fdb_tuple.pack((1, (2, None), "x")), format="fdb-tuple") == [
        ("int", 1),
        ("nested", [("int", 2), ("null", None)]),
        ("str", "x"),
    ]
    v = lexikey.Versionstamp(None)
    assert (v.tr_version, v.user_version, v.is_complete()) == (None, 0, False)
    assert lexikey.pack_with_versionstamp(["events", lexikey.Versionstamp(None, 7)]) == (
        fdb_tuple.pack_with_versionstamp(("events", FV(user_version=7)))
    )
    c = lexikey.Versionstamp(bytes(range(10)), 657)
    assert c.to_bytes() == FV(bytes(range(10)), 657).to_bytes() == bytes(range(10)) + b"\x02\x91"
    assert lexikey.encode([c], "fdb-tuple") == fdb_tuple.pack((FV(bytes(range(10)), 657),))
    assert lexikey.decode(lexikey.encode([c], "fdb-tuple"), format="fdb-tuple") == [("versionstamp", c)]
    # Ten 0xff bytes are the placeholder: incomplete, as fdb.tuple decodes it.
    assert lexikey.Versionstamp(b"\xff" * 10, 3) == lexikey.Versionstamp(None, 3)


@given(
    a=st.tuples(st.one_of(st.none(), tr_versions), st.integers(0, 65535)),
    b=st.tuples(st.one_of(st.none(), tr_versions), st.integers(0, 65535)),
)
def test_versionstamp_order_equality_hash(a, b):
    va, vb = lexikey.Versionstamp(*a), lexikey.Versionstamp(*b)
    ka, kb = lexikey.encode([va], "fdb-tuple"), lexikey.encode([vb], "fdb-tuple")
    assert (va < vb) == (ka < kb) and (va == vb) == (ka == kb) and (va <= vb) == (ka <= kb)
    assert va != FV(*a) and (va == vb) <= (hash(va) == hash(vb))
    assert eval(repr(va), {"lexikey": lexikey}) == va


def test_versionstamp_errors():
    with pytest.raises(ValueError, match="tr_version is 10 bytes, not 9"):
        lexikey.Versionstamp(b"\x00" * 9)
    with pytest.raises(ValueError, match="user_version 65536 is out of range"):
        lexikey.Versionstamp(None, 65536)
    with pytest.raises(TypeError, match="tr_version is bytes or None, not str"):
        lexikey.Versionstamp("0" * 10)
    with pytest.raises(lexikey.EncodeError, match="expected 24 hex digits"):
        lexikey.encode([("versionstamp", b"\x00" * 11)], "fdb-tuple")
    with pytest.raises(lexikey.EncodeError, match=r"at byte 0 and byte 14"):
        lexikey.pack_with_versionstamp([lexikey.Versionstamp(None), [lexikey.Versionstamp(None, 1)]])
    with pytest.raises(lexikey.EncodeError, match="a plain versionstamp has no hex type"):
        lexikey.encode([lexikey.Versionstamp(None)])


def test_depth_limit():
    def nest(n):
        c = [1]
        for _ in range(n - 1):
            c = [c]
        return c

    key = lexikey.encode([nest(100)], "fdb-tuple")
    assert key == fdb_tuple.pack((fdb_tuple.unpack(key)[0],))
    assert lexikey.decode(key, format="fdb-tuple")[0][0] == "nested"
    with pytest.raises(lexikey.EncodeError, match="nested deeper than 100 levels"):
        lexikey.encode([nest(101)], "fdb-tuple")
    loop = []
    loop.append(loop)
    with pytest.raises(lexikey.EncodeError, match="nested deeper than 100 levels"):
        lexikey.encode([loop], "fdb-tuple")
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode(b"\x05" * 101 + b"\x00" * 101, format="fdb-tuple")
    assert e.value.offset == 100


def rows(name):
    for line in (REPO / "fixtures" / "interop" / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        yield [c.replace("\\\\", "\\") for c in line.split("\t") if not c.startswith("#")]


def test_versionstamp_fixtures_both_ways():
    checked = 0
    for fn, key, *comps in rows("fdb-versionstamp.tsv"):
        key = bytes.fromhex(key)
        if fn == "pack":
            assert lexikey.encode(comps, "fdb-tuple") == key
            pairs = lexikey.decode(key, format="fdb-tuple")
            assert lexikey.encode(pairs, "fdb-tuple") == key
        else:
            assert lexikey.pack_with_versionstamp(comps) == key
            pairs = lexikey.decode(key[:-4], format="fdb-tuple")
            assert lexikey.pack_with_versionstamp(pairs) == key
        checked += 1
    assert checked >= 12
