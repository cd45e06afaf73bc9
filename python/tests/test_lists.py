"""List components (list<TYPE>) from Python (hypothesis): with a schema field
list<T>, a Python list is the value; key order is the lists' order
(elementwise, a list before its extensions, the empty list first), reversed
by .desc, with None where a nullable list's nulls sort, in every format,
inside a composite key, nested; keys decode back to Python lists; a list
without a schema, a bad element and a None element are EncodeErrors."""

import pytest
from conftest import size
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey

FORMATS = ["hex", "base64", "decimal", "binary"]

ELEMENTS = {
    "i64": st.integers(-(2**63), 2**63 - 1),
    "str": st.text(max_size=4),
    "bool": st.booleans(),
}


def raw(key):
    return key.encode() if isinstance(key, str) else key


def sort_key(v):
    """A list as keys order it: strings as their UTF-8 bytes."""
    if isinstance(v, list):
        return [sort_key(x) for x in v]
    return v.encode() if isinstance(v, str) else v


def lists(ty, depth):
    elem = ELEMENTS[ty] if depth == 1 else lists(ty, depth - 1)
    return st.lists(elem, max_size=4)


def related(data, ty, depth, a):
    """A list that shares a prefix with a, often."""
    how = data.draw(st.integers(0, 3))
    elem = ELEMENTS[ty] if depth == 1 else lists(ty, depth - 1)
    if how == 0:
        return a[: data.draw(st.integers(0, len(a)))]
    if how == 1:
        return a + [data.draw(elem)]
    if how == 2 and a:
        i = data.draw(st.integers(0, len(a) - 1))
        return a[:i] + [data.draw(elem)] + a[i + 1 :]
    return data.draw(lists(ty, depth))


def cmp(x, y):
    return (x > y) - (x < y)


@pytest.mark.parametrize("ty", list(ELEMENTS))
@settings(max_examples=size(100, 2000), deadline=None)
@given(data=st.data())
def test_order_and_round_trip(ty, data):
    fmt = data.draw(st.sampled_from(FORMATS))
    depth = data.draw(st.integers(1, 2))
    desc = data.draw(st.booleans())
    nullable = data.draw(st.booleans())
    spec = "list<" * depth + ty + ">" * depth + ("?" if nullable else "") + (".desc" if desc else "")
    a = data.draw(lists(ty, depth))
    b = related(data, ty, depth, a)
    if nullable and data.draw(st.booleans()):
        b = None
    schema = lexikey.Schema(f"str,{spec},i64", fmt)
    ka, kb = schema.encode(("p#", a, 7)), schema.encode(("p#", b, 7))
    if b is None:
        want = 1  # nulls first, whatever the direction
    else:
        want = cmp(sort_key(a), sort_key(b))
        if desc:
            want = -want
    assert cmp(raw(ka), raw(kb)) == want, (spec, fmt, a, b)
    assert schema.decode(ka) == ("p#", a, 7)
    assert schema.decode(kb) == ("p#", b, 7)
    assert schema.encode_many([("p#", a, 7), ("p#", b, 7)]) == [ka, kb]


def test_layout_and_syntax():
    s = lexikey.Schema("list<i64>")
    assert s.encode(([1, 2],)) == "a:l8000000000000001:l8000000000000002."
    assert s.encode(([],)) == "a."
    assert lexikey.encode(["list<i64>:[1,2]"]) == s.encode(([1, 2],))
    assert lexikey.Schema("list<list<str>>", "binary").decode(b"\x01\x01a\x00\x01\x00\x00") == (
        [["a"]],
    )
    assert lexikey.Schema("str,list<str>").encode(("usa", ["a,b", "c"])) == "usa#a:a,b!:c!."


def test_bad_input():
    s = lexikey.Schema("list<i64>")
    for bad, says in [
        (([1, "x"],), "element 1"),
        (([None],), "element 0"),
        ((5,), "takes a list"),
    ]:
        with pytest.raises(lexikey.EncodeError, match=says):
            s.encode(bad)
    with pytest.raises(lexikey.EncodeError, match="list<TYPE>"):
        lexikey.encode([[1, 2]], "hex")
    with pytest.raises(lexikey.DecodeError, match="byte 19"):
        s.decode("a:l8000000000000001")
    with pytest.raises(ValueError, match="not nullable"):
        lexikey.Schema("list<i64?>")


@settings(max_examples=size(100, 1000), deadline=None)
@given(data=st.data())
def test_ranges_on_a_list_field_hold_exactly_the_matching_lists(data):
    """Schema.range(prefix, ge=/gt=/le=/lt=/eq= a Python list) on a list
    field: the keys inside are exactly those of the rows under the prefix
    whose list compares so (elementwise, shorter first), either direction."""
    ty = data.draw(st.sampled_from(["i64", "str"]))
    fmt = data.draw(st.sampled_from(FORMATS))
    desc = data.draw(st.booleans())
    schema = lexikey.Schema(f"str,list<{ty}>{'.desc' if desc else ''},i64", fmt)
    bound = data.draw(lists(ty, 1))
    op = data.draw(st.sampled_from(["ge", "gt", "le", "lt", "eq"]))
    try:
        start, end = schema.range(("p",), **{op: bound})
    except lexikey.EncodeError:
        start = end = None  # no key can match
    want = {"ge": (0, 1), "gt": (1,), "le": (-1, 0), "lt": (-1,), "eq": (0,)}[op]
    for _ in range(8):
        name = data.draw(st.sampled_from(["p", "o", "q"]))
        v = related(data, ty, 1, bound)
        key = raw(schema.encode((name, v, 1)))
        inside = start is not None and raw(start) <= key < raw(end)
        assert inside == (name == "p" and cmp(sort_key(v), sort_key(bound)) in want), (op, bound, v, desc, fmt)
