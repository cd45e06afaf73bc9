"""Nullable components (TYPE?, .nulls_last) from Python (hypothesis): None is
the null; key order is value order with the nulls first (or last with
.nulls_last) whatever the direction, in every format, inside a composite key;
keys decode back to None; Schema.encode, encode_many, the (type, value) pair
and the component string give one key; an Arrow null in a nullable column
encodes the null; a None where no null is allowed is an error."""

import pytest
from conftest import size
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey

FORMATS = ["hex", "base64", "decimal", "binary"]

VALUES = {
    "i64": st.integers(-(2**63), 2**63 - 1),
    "str": st.text(max_size=8),
    "vi64": st.integers(-(2**63), 2**63 - 1),
}


def raw(key):
    return key.encode() if isinstance(key, str) else key


def key_order(a, b, desc, last):
    """The order of two cells as keys: the null where the field says, then
    value order, reversed when descending."""
    if a is None or b is None:
        if a is None and b is None:
            return 0
        null_first = -1 if a is None else 1
        return -null_first if last else null_first
    o = (a > b) - (a < b)
    return -o if desc else o


def value_key(ty, v):
    # Strings compare as their UTF-8 bytes, as keys do.
    return v.encode() if ty == "str" else v


@pytest.mark.parametrize("ty", list(VALUES))
@settings(max_examples=size(100, 2000), deadline=None)
@given(data=st.data())
def test_order_and_round_trip(ty, data):
    fmt = data.draw(st.sampled_from(FORMATS))
    desc = data.draw(st.booleans())
    last = data.draw(st.booleans())
    spec = ty + "?" + (".desc" if desc else "") + (".nulls_last" if last else "")
    cell = st.one_of(st.none(), VALUES[ty])
    a, b = data.draw(cell), data.draw(cell)
    schema = lexikey.Schema(f"str,{spec},i64", fmt)
    ka, kb = schema.encode(("p#", a, 7)), schema.encode(("p#", b, 7))
    va = None if a is None else value_key(ty, a)
    vb = None if b is None else value_key(ty, b)
    got = (raw(ka) > raw(kb)) - (raw(ka) < raw(kb))
    assert got == key_order(va, vb, desc, last)
    assert schema.decode(ka) == ("p#", a, 7)
    assert schema.encode_many([("p#", a, 7), ("p#", b, 7)]) == [ka, kb]
    assert schema.decode_many([ka, kb]) == [("p#", a, 7), ("p#", b, 7)]
    assert lexikey.encode([("str", "p#"), (spec, a), ("i64", 7)], fmt) == ka
    if a is None:
        assert lexikey.encode(["str:p#", spec, "i64:7"], fmt) == ka
    pairs = lexikey.decode(ka, schema=f"str,{spec},i64", format=fmt)
    assert pairs == [("str", "p#"), (spec, a), ("i64", 7)]


def test_spelling_and_keys():
    assert lexikey.encode([("str", "age"), ("i64?", None)]) == "age#-"
    assert lexikey.encode([("str", "age"), ("i64?", 5)]) == "age#=l8000000000000005"
    assert lexikey.encode(["str:age", "i64?.nulls_last"]) == "age#_"
    assert lexikey.encode([("i64?.desc", None)], "binary") == b"\x00"
    assert lexikey.Schema("i64?.desc.nulls_last").encode((None,)) == "_"


def test_none_where_no_null_is_allowed_is_an_error():
    with pytest.raises(lexikey.EncodeError):
        lexikey.Schema("str,i64").encode(("a", None))
    with pytest.raises(lexikey.DecodeError) as e:
        lexikey.Schema("str,i64?").decode("a#+")
    assert e.value.offset == 2


def test_null_ranges():
    schema = lexikey.Schema("str,i64?.nulls_last", "hex")
    keys = [schema.encode(("p", v)) for v in (None, -1, 5)]
    assert keys[1] < keys[2] < keys[0]


def test_arrow_null_in_a_nullable_column_encodes_the_null():
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (scripts/test.sh installs it)")
    for fmt in FORMATS:
        schema = lexikey.Schema("str,i64?.desc", fmt)
        table = pa.table({"s": ["a", "b", "c"], "n": pa.array([1, None, 3], pa.int64())})
        want = schema.encode_many([("a", 1), ("b", None), ("c", 3)])
        assert pa.array(schema.encode_arrow(table)).to_pylist() == want
        back = pa.record_batch(schema.decode_arrow(schema.encode_arrow(table)))
        assert back.column(1).to_pylist() == [1, None, 3]
        assert back.schema.field(1).nullable
        # A column without the ? still refuses a null.
        with pytest.raises(Exception):
            lexikey.Schema("str,i64", fmt).encode_arrow(table)
