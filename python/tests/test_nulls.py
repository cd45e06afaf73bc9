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


def _cli_range(exe, fmt, schema_text, args):
    """The command line's range as (start, end) keys: text as printed,
    binary from its hex lines; an empty line is an unbounded side."""
    import subprocess

    out = subprocess.run(
        [exe, "range", f"--format={fmt}", f"--schema={schema_text}", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout.split("\n")[:2]
    return tuple(None if s == "" else bytes.fromhex(s) if fmt == "binary" else s for s in out)


@settings(max_examples=size(60, 1000), deadline=None)
@given(data=st.data())
def test_is_null_and_not_null_ranges_select_exactly_the_null_rows(data):
    """Schema.range(is_null=True) / (not_null=True): among random rows with
    nulls, the keys inside [start, end) are exactly those of the rows under
    the prefix whose field is null / holds a value, ascending and
    descending, nulls first and last, under a prefix or as the first field;
    lexikey.range with the type and the command line give the same bytes."""
    from test_api import lexikey_binary

    ty = data.draw(st.sampled_from(["i64", "str"]))
    fmt = data.draw(st.sampled_from(FORMATS))
    desc, last = data.draw(st.booleans()), data.draw(st.booleans())
    spec = ty + "?" + (".desc" if desc else "") + (".nulls_last" if last else "")
    lead = data.draw(st.booleans())
    pred = data.draw(st.sampled_from(["is_null", "not_null"]))
    cell = st.one_of(st.none(), VALUES[ty])
    if lead:
        fields = f"str,{spec},i64"
        names = st.sampled_from(["p", "p#", "o", "q", "", "p\x00"])
        rows = data.draw(st.lists(st.tuples(names, cell, st.integers(-3, 3)), max_size=12))
        prefix = ("p",)
    else:
        fields = f"{spec},i64"
        rows = data.draw(st.lists(st.tuples(cell, st.integers(-3, 3)), max_size=12))
        prefix = ()
    schema = lexikey.Schema(fields, fmt)
    start, end = schema.range(prefix, **{pred: True})
    for row in rows:
        key = raw(schema.encode(row))
        inside = (start is None or raw(start) <= key) and (end is None or key < raw(end))
        under = row[: len(prefix)] == prefix
        null = row[len(prefix)] is None
        assert inside == (under and null == (pred == "is_null")), (row, start, end)
    assert schema.ranges(prefix, **{pred: True}) == [(start, end)]
    comps = [("str", p) for p in prefix]
    assert lexikey.range(comps, fmt, **{pred: spec}) == (start, end)
    assert lexikey.range(comps, fmt, **{pred: (spec, None)}) == (start, end)
    exe = lexikey_binary()
    if exe is None:
        pytest.skip("the lexikey binary is not built (cargo build -p lexikey-cli)")
    flag = "--is-null" if pred == "is_null" else "--not-null"
    args = [f"{flag}={spec}", "--", *(f"str:{p}" for p in prefix)]
    assert _cli_range(exe, fmt, fields, args) == (start, end)


def test_is_null_on_a_field_without_the_question_mark_is_an_error():
    with pytest.raises(lexikey.EncodeError):
        lexikey.Schema("str,i64").range(("a",), is_null=True)
    with pytest.raises(lexikey.EncodeError):
        lexikey.Schema("str,i64?").range(("a",), is_null=True, not_null=True)
    with pytest.raises(lexikey.EncodeError, match="nullable"):
        lexikey.range(["str:a"], is_null="i64")


@settings(max_examples=size(40, 500), deadline=None)
@given(data=st.data())
def test_str_prefix_on_a_nullable_str_selects_its_values_never_a_null(data):
    """Schema.range(str_prefix=...) on a str? field: the keys inside the range
    are exactly those of the rows under the prefix whose value is present and
    starts with the text, ascending and descending, nulls first and last; the
    command line's range --schema ... --prefix gives the same bytes."""
    from test_api import lexikey_binary

    fmt = data.draw(st.sampled_from(FORMATS))
    desc, last = data.draw(st.booleans()), data.draw(st.booleans())
    spec = "str?" + (".desc" if desc else "") + (".nulls_last" if last else "")
    fields = f"str,{spec},i64"
    alphabet = st.sampled_from(["a", "b", "%", "#", "\x00", "é", "\\", "N"])
    text = data.draw(st.text(alphabet, max_size=3))
    cell = st.one_of(st.none(), st.text(alphabet, max_size=5))
    names = st.sampled_from(["p", "p#", "o", "q"])
    rows = data.draw(st.lists(st.tuples(names, cell, st.integers(-3, 3)), max_size=12))
    schema = lexikey.Schema(fields, fmt)
    start, end = schema.range(("p",), str_prefix=text)
    for row in rows:
        key = raw(schema.encode(row))
        inside = raw(start) <= key and (end is None or key < raw(end))
        assert inside == (row[0] == "p" and row[1] is not None and row[1].startswith(text)), (row, start, end)
    exe = lexikey_binary()
    if exe is None:
        pytest.skip("the lexikey binary is not built (cargo build -p lexikey-cli)")
    if "\x00" not in text:
        assert _cli_range(exe, fmt, fields, [f"--prefix={text}", "--", "str:p"]) == (start, end)
