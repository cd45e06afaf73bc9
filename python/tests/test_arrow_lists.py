"""List fields through the Arrow path (hypothesis): a pyarrow pa.list_
(or pa.large_list) column is the value of a list<T> field, so that
Schema.encode_arrow of a table gives the keys Schema.encode_many gives of
the same rows as Python lists, in every native format, ascending and
descending, nullable or not, nested; Schema.decode_arrow gives pa.list_
columns of the element's decoded type back. Then a None element: an error
naming the column, the row and the element."""

import math
from typing import Any, List

import pytest
from conftest import size
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (scripts/test.sh installs it)")

FORMATS = ["hex", "base64", "decimal", "binary"]
TEXT_FORMATS = {"hex", "base64", "decimal"}

# Element types: their values and their Arrow types (as taken, as decoded).
ELEMENTS = {
    "i64": (st.integers(-(2**63), 2**63 - 1), pa.int64()),
    "str": (st.text(max_size=4), pa.string()),
    "bytes": (st.binary(max_size=4), pa.binary()),
    "f64": (st.floats(allow_nan=False), pa.float64()),
    "bool": (st.booleans(), pa.bool_()),
}


def item(t: Any) -> Any:
    """The element field of a decoded list (not nullable)."""
    return pa.field("item", t, nullable=False)


@st.composite
def list_fields(draw: Any, fmt: str) -> Any:
    """A list field: (its schema text, its values' strategy, the Arrow type
    of the column, the decoded Arrow type)."""
    names = [n for n in ELEMENTS if not (fmt == "decimal" and n == "f64")]
    ty = draw(st.sampled_from(names))
    values, arrow = ELEMENTS[ty]
    decoded = arrow
    depth = draw(st.integers(1, 3))
    text = ty
    for _ in range(depth):
        values = st.lists(values, max_size=3)
        large = draw(st.booleans())
        arrow = pa.large_list(pa.field("item", arrow, nullable=False)) if large else pa.list_(arrow)
        decoded = pa.list_(item(decoded))
        text = f"list<{text}>"
    nullable = draw(st.booleans())
    if nullable:
        text += "?"
        values = st.one_of(st.none(), values)
    if draw(st.booleans()):
        text += ".desc"
    if nullable and draw(st.booleans()):
        text += ".nulls_last"
    return text, values, arrow, decoded


SCALARS = [("str", st.text(max_size=4), pa.string()), ("i64.desc", st.integers(-(2**63), 2**63 - 1), pa.int64())]


@st.composite
def tables(draw: Any, fmt: str) -> Any:
    """A schema of one or two list fields and maybe a scalar field, its
    rows, and the pyarrow table of them."""
    fields = [draw(list_fields(fmt)) for _ in range(draw(st.integers(1, 2)))]
    if draw(st.booleans()):
        ty, values, arrow = draw(st.sampled_from(SCALARS))
        fields.insert(draw(st.integers(0, len(fields))), (ty, values, arrow, arrow))
    n = draw(st.integers(0, 5))
    rows = [tuple(draw(f[1]) for f in fields) for _ in range(n)]
    names = [f"c{i}" for i in range(len(fields))]
    table = pa.table({name: pa.array([r[i] for r in rows], type=f[2]) for i, (name, f) in enumerate(zip(names, fields))})
    schema = lexikey.Schema(",".join(f[0] for f in fields), fmt)
    return schema, names, rows, table, [f[3] for f in fields]


def same(a: Any, b: Any) -> bool:
    """Equal values, -0.0 and 0.0 told apart."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=size(100, 1000))
@given(data=st.data())
def test_list_columns_are_encode_many_of_python_lists(fmt: str, data: Any) -> None:
    schema, names, rows, table, decoded_types = data.draw(tables(fmt))
    expected = schema.encode_many(rows)
    keys = schema.encode_arrow(table)
    assert pa.array(keys).to_pylist() == expected
    assert pa.array(keys).type == (pa.string() if fmt in TEXT_FORMATS else pa.binary())
    # Sliced: the keys of the rows sliced.
    if rows:
        assert pa.array(schema.encode_arrow(table.slice(1))).to_pylist() == expected[1:]
    back = pa.table(schema.decode_arrow(keys, names=names))
    assert back.schema.types == decoded_types
    for i, name in enumerate(names):
        assert same(back.column(name).to_pylist(), [r[i] for r in rows]), name


def test_a_none_element_names_the_column_row_and_element() -> None:
    schema = lexikey.Schema("str,list<i64>")
    table = pa.table({"name": ["a", "b"], "n": pa.array([[1], [2, None]], pa.list_(pa.int64()))})
    with pytest.raises(lexikey.EncodeError, match=r'column "n", row 1, value \[2, null\]: element 1 is a null'):
        schema.encode_arrow(table)


def test_a_nullable_list_field_takes_null_lists() -> None:
    schema = lexikey.Schema("list<str>?.nulls_last", "binary")
    column: List[Any] = [["x"], None, []]
    table = pa.table({"l": pa.array(column, pa.list_(pa.string()))})
    assert pa.array(schema.encode_arrow(table)).to_pylist() == schema.encode_many([(v,) for v in column])
    back = pa.table(schema.decode_arrow(schema.encode_arrow(table)))
    assert back.schema.field(0).nullable and back.column(0).to_pylist() == column
