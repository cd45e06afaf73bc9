"""The compact ordered integers vi64 / vu64 from Python (hypothesis): key
order is number order in every format, ascending and descending, inside a
composite key; keys decode back to the same int; the (type, value) pair,
the component string and the schema give one key; a non-canonical key is
refused with its offset."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey

FORMATS = ["hex", "base64", "decimal", "binary"]


def near_edges(lo, hi):
    # Numbers around every length boundary of the encoding, and any.
    edges = [0, 1, -1, 119, 120, -120, -121, 247, 248] + [s * (1 << (8 * k)) + d for k in range(1, 8) for s in (1, -1) for d in (-1, 0, 1)]
    return st.one_of(st.sampled_from([e for e in edges if lo <= e <= hi] + [lo, hi]), st.integers(lo, hi))


VALUES = {"vi64": near_edges(-(2**63), 2**63 - 1), "vu64": near_edges(0, 2**64 - 1)}


def cmp(a, b):
    return (a > b) - (a < b)


def raw(key):
    return key.encode() if isinstance(key, str) else key


@pytest.mark.parametrize("ty", list(VALUES))
@given(data=st.data())
def test_order_and_round_trip(ty, data):
    fmt = data.draw(st.sampled_from(FORMATS))
    desc = data.draw(st.booleans())
    a, b = data.draw(VALUES[ty]), data.draw(VALUES[ty])
    spec = f"{ty}.desc" if desc else ty
    schema = lexikey.Schema(f"str,{spec},i64", fmt)
    ka, kb = schema.encode(("p#", a, 7)), schema.encode(("p#", b, 7))
    assert cmp(raw(ka), raw(kb)) == (cmp(b, a) if desc else cmp(a, b))
    assert schema.decode(ka) == ("p#", a, 7)
    assert lexikey.encode([("str", "p#"), (spec, a), ("i64", 7)], fmt) == ka
    assert lexikey.encode(["str:p#", f"{spec}:{a}", "i64:7"], fmt) == ka
    pairs = lexikey.decode(ka, schema=f"str,{spec},i64", format=fmt)
    assert pairs == [("str", "p#"), (spec, a), ("i64", 7)]


def test_small_values_are_one_byte():
    assert lexikey.encode(["vi64:5"]) == "k85"
    assert lexikey.encode([("vu64", 1000)], "binary") == b"\xf9\x03\xe8"
    assert len(lexikey.encode([("vi64", -120)], "binary")) == 1


def test_non_canonical_and_truncated_keys_are_refused_with_offsets():
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode("vF805", schema="vu64")
    assert e.value.offset == 1
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.decode(b"\xf9\x03", schema="vu64", format="binary")
    assert e.value.offset == 2
    with pytest.raises(lexikey.EncodeError):
        lexikey.encode([("vu64", -1)])
