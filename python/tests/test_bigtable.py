"""Bigtable from Python: lexikey ranges as the official client's RowRange
(PyPI's google-cloud-bigtable), and lexikey.Allocator on a bigtable:// store.

Runs against the Bigtable emulator that scripts/with-stores.sh starts
(LEXIKEY_BIGTABLE_URL, BIGTABLE_EMULATOR_HOST). Without them the tests fail,
never skip: the emulator is the Debian package
google-cloud-cli-bigtable-emulator (scripts/install-stores.sh installs it).
"""

import os
import random
import uuid

import pytest
from google.cloud import bigtable
from google.cloud.bigtable import column_family
from google.cloud.bigtable.row_set import RowRange, RowSet

import lexikey


def env(var: str) -> str:
    value = os.environ.get(var)
    if not value:
        pytest.fail(
            f"{var} is not set: run under scripts/with-stores.sh, which starts the Bigtable "
            "emulator (Debian package google-cloud-cli-bigtable-emulator, installed by "
            "scripts/install-stores.sh)"
        )
    return value


@pytest.fixture(scope="module")
def instance():
    env("BIGTABLE_EMULATOR_HOST")
    url = env("LEXIKEY_BIGTABLE_URL")
    # bigtable://PROJECT/INSTANCE?...: the same instance the adapter uses.
    project, inst = url[len("bigtable://") :].split("?")[0].split("/")
    client = bigtable.Client(project=project, admin=True)
    return client.instance(inst)


def fresh(name: str) -> str:
    return f"{name}_{os.getpid()}_{uuid.uuid4().hex[:8]}"


def new_table(instance, name: str):
    table = instance.table(fresh(name))
    table.create(column_families={"f": column_family.MaxVersionsGCRule(1)})
    return table


def put(table, keys):
    rows = []
    for k in keys:
        row = table.direct_row(as_bytes(k))
        row.set_cell("f", b"v", b"x")
        rows.append(row)
    for status in table.mutate_rows(rows):
        assert status.code == 0, status


def as_bytes(k):
    """A key as the client's bytes: text keys as UTF-8 (the client itself
    encodes a str row key as ASCII, refusing any other character)."""
    return k.encode() if isinstance(k, str) else k


def row_range(start, end):
    """lexikey's (start, end) as a RowRange: start inclusive, end exclusive
    (the client's defaults); None is an unbounded side."""
    return RowRange(
        start_key=None if start is None else as_bytes(start),
        end_key=None if end is None else as_bytes(end),
    )


def scan(table, start, end):
    """The row keys of [start, end) read with the official client."""
    rows = RowSet()
    rows.add_row_range(row_range(start, end))
    return [r.row_key for r in table.read_rows(row_set=rows)]


CITIES = [
    ("New York", 8_804_190),
    ("Los Angeles", 3_898_747),
    ("Chicago", 2_746_388),
    ("Houston", 2_304_580),
    ("Phoenix", 1_608_139),
    ("San Francisco", 873_965),
    ("Boise", 235_684),
]


def test_range_is_a_row_range(instance):
    """The city index of the README and docs/bigtable.md: population >=
    1,000,000, as a RowRange."""
    table = new_table(instance, "cities")
    keys = {
        city: lexikey.encode(["str:population", ("i64", pop), ("str", city)]) for city, pop in CITIES
    }
    put(table, keys.values())
    start, end = lexikey.range(["str:population"], ge=("i64", 1_000_000))
    assert (start, end) == ("population#l80000000000F4240", "population$")
    got = scan(table, start, end)
    want = sorted(as_bytes(keys[c]) for c, pop in CITIES if pop >= 1_000_000)
    assert got == want
    # The same question of the descending index: largest first.
    desc = lexikey.Schema("str,i64.desc,str")
    dkeys = desc.encode_many([("population", pop, city) for city, pop in CITIES])
    put(table, dkeys)
    start, end = desc.range(("population",), ge=1_000_000)
    got = scan(table, start, end)
    assert got == [as_bytes(k) for k in dkeys if desc.decode(k)[1] >= 1_000_000]
    assert [desc.decode(k)[2] for k in got][:2] == ["New York", "Los Angeles"]


STRINGS = ["", "a", "a\0", "a\0b", "ab", "a\xff", "b", "\U0010ffff"]


@pytest.mark.parametrize("fmt", ["binary", "hex", "fdb-tuple", "phoenix"])
def test_random_ranges_are_exact(instance, fmt):
    """Random rows and predicates: the rows a RowRange of lexikey's range
    returns are exactly those whose values satisfy the predicate (binary
    keys full of 00 and FF bytes included)."""
    rnd = random.Random(26)
    types = {
        "binary": ("str", "i64", "str.desc"),
        "hex": ("str", "i64.desc", "str"),
        "fdb-tuple": ("str", "int", "str"),
        "phoenix": ("varchar", "bigint.desc", "varchar"),
    }[fmt]
    strings = [s for s in STRINGS if not (fmt == "phoenix" and ("\0" in s or s == ""))]
    ints = [-(2**63), -256, -1, 0, 1, 255, 2**63 - 1]
    rows = set()
    while len(rows) < 60:
        rows.add((rnd.choice(strings), rnd.choice(ints), rnd.choice(strings)))
    rows = sorted(rows)
    table = new_table(instance, fmt.replace("-", "_"))

    def key(row):
        return lexikey.encode([f"{t}:{v}" for t, v in zip(types, row)], fmt)

    keys = {row: key(row) for row in rows}
    put(table, keys.values())
    checked = nonempty = 0
    for _ in range(60):
        src = rnd.choice(rows)
        field = rnd.choice([0, 1])
        prefix = [f"{types[i]}:{src[i]}" for i in range(field)]
        value = rnd.choice(rows)[field] if rnd.random() < 0.5 else (rnd.choice(ints) if field == 1 else rnd.choice(strings))
        op = rnd.choice(["ge", "gt", "le", "lt", "eq"])
        comp = f"{types[field]}:{value}"
        try:
            start, end = lexikey.range(prefix, fmt, **{op: comp})
        except lexikey.EncodeError as e:
            assert "no key can match" in str(e), e
            continue
        test = {
            "ge": lambda v: v >= value,
            "gt": lambda v: v > value,
            "le": lambda v: v <= value,
            "lt": lambda v: v < value,
            "eq": lambda v: v == value,
        }[op]
        want = sorted(
            as_bytes(keys[r]) for r in rows if list(r[:field]) == list(src[:field]) and test(r[field])
        )
        assert scan(table, start, end) == want, (fmt, prefix, op, comp, start, end)
        checked += 1
        nonempty += bool(want)
    assert checked >= 40 and nonempty >= 10, (checked, nonempty)


def test_salted_ranges_are_one_row_set(instance):
    """A salted Phoenix table (SALT_BUCKETS = 4): one range per bucket, all
    of them in one RowSet, read back in key order: exactly the rows asked
    for."""
    events = lexikey.Schema("varchar,bigint.desc,varchar", "phoenix", salt_buckets=4)
    rows = [(t, n, f"e{n}") for t in ["acme", "acme-eu", "beta"] for n in range(0, 300, 7)]
    keys = events.encode_many(rows)
    table = new_table(instance, "salted")
    put(table, keys)
    ranges = events.ranges(("acme",), ge=100)
    assert len(ranges) == 4
    row_set = RowSet()
    for start, end in ranges:
        row_set.add_row_range(row_range(start, end))
    got = [r.row_key for r in table.read_rows(row_set=row_set)]
    assert got == sorted(k for k, r in zip(keys, rows) if r[0] == "acme" and r[1] >= 100)
    assert len(got) == len([n for n in range(0, 300, 7) if n >= 100])


def test_salted_allocator_read_with_the_client_and_merged(instance):
    """A salted allocator table (4 buckets) read through google-cloud-bigtable:
    lexikey.bigtable.row_set of the schema's ranges reads every bucket in one
    read_rows, in bucket order; Schema.merge puts the rows newest first,
    exactly the allocator's own scan. Read bucket by bucket, the same."""
    import lexikey.bigtable

    table_id = fresh("salted_alloc")
    url = f"{env('LEXIKEY_BIGTABLE_URL')}&ns={table_id}"
    comments = lexikey.Allocator(url, "comments", salt_buckets=4)
    ids = comments.insert_many([f"comment {i}".encode() for i in range(60)])
    assert ids == [2**64 - 1 - i for i in range(60)]
    # Another table's rows in the same Bigtable table are not read.
    lexikey.Allocator(url, "other", salt_buckets=4).insert_many([b"x", b"y"])

    schema = lexikey.Schema("str,u64", salt_buckets=4)
    ranges = schema.ranges(("comments",))
    assert len(ranges) == 4
    table = instance.table(table_id)
    rows = list(table.read_rows(row_set=lexikey.bigtable.row_set(ranges)))
    assert len(rows) == 60
    read_order = [schema.decode(r.row_key)[1] for r in rows]
    assert read_order != sorted(read_order), "bucket order is already id order: the merge is not tested"

    merged = schema.merge(rows)
    got = [(schema.decode(r.row_key)[1], r.cells["f"][b"v"][0].value) for r in merged]
    assert got == comments.scan()
    assert got[0] == (ids[-1], b"comment 59")

    buckets = [list(table.read_rows(row_set=lexikey.bigtable.row_set([r]))) for r in ranges]
    assert sorted(len(b) for b in buckets)[0] > 0
    by_bucket = schema.merge(*buckets)
    assert [r.row_key for r in by_bucket] == [r.row_key for r in merged]
    # (key, row) pairs merge the same way.
    pairs = schema.merge(*([(r.row_key, r) for r in b] for b in reversed(buckets)))
    assert [k for k, _ in pairs] == [r.row_key for r in merged]

    # A schema with another salt is not this table's: the first row whose
    # salt is not its bucket is named.
    with pytest.raises(lexikey.DecodeError, match=r"^row \d+ of argument 0 of merge: key .* is not a key of"):
        lexikey.Schema("str,u64", salt_buckets=5).merge(rows)


def test_row_set_arguments():
    import lexikey.bigtable

    row_set = lexikey.bigtable.row_set([("a", "b"), (None, b"\xff"), (b"c", None)])
    assert [(r.start_key, r.end_key) for r in row_set.row_ranges] == [(b"a", b"b"), (None, b"\xff"), (b"c", None)]
    assert lexikey.bigtable.row_set([]).row_ranges == []
    with pytest.raises(TypeError, match=r"^range 1: a \(start, end\) pair, not 'abc'$"):
        lexikey.bigtable.row_set([("a", "b"), "abc"])
    with pytest.raises(TypeError, match="a range side is str, bytes or None, not int"):
        lexikey.bigtable.row_set([(1, None)])


def test_allocator_on_bigtable(instance):
    """lexikey.Allocator on the emulator: newest first, the rows are Bigtable
    rows the official client reads, their keys the table's range."""
    table_id = fresh("alloc")
    url = f"{env('LEXIKEY_BIGTABLE_URL')}&ns={table_id}"
    comments = lexikey.Allocator(url, "comments")
    first = comments.insert(b"first!")
    second = comments.insert(b"me too")
    assert (first, second) == (18446744073709551615, 18446744073709551614)
    assert comments.newest() == (second, b"me too")
    assert [v for _, v in comments.scan(limit=10)] == [b"me too", b"first!"]
    # The same rows through google-cloud-bigtable, with lexikey's range.
    start, end = lexikey.range(["str:comments"])
    rows = RowSet()
    rows.add_row_range(row_range(start, end))
    got = [(r.row_key, r.cells["f"][b"v"][0].value) for r in instance.table(table_id).read_rows(row_set=rows)]
    assert got == [
        (b"comments#uFFFFFFFFFFFFFFFE", b"me too"),
        (b"comments#uFFFFFFFFFFFFFFFF", b"first!"),
    ]


def test_read_only_creates_no_table_or_family(instance):
    """read_only=True creates nothing (issue 38): a missing table, a wrong
    project or instance, a family the table lacks are StoreErrors naming
    what is missing, and afterwards the official client lists no new table
    and no new family; the existing table still reads."""
    base = env("LEXIKEY_BIGTABLE_URL")
    project, inst = base[len("bigtable://") :].split("?")[0].split("/")
    table_id = fresh("there")
    url = f"{base}&ns={table_id}"
    with lexikey.Allocator(url, "c") as w:
        w.insert(b"x")
    missing = fresh("nosuch")
    with pytest.raises(lexikey.StoreError) as e:
        lexikey.Allocator(f"{base}&ns={missing}", "c", read_only=True)
    msg = str(e.value)
    assert f'no table "{missing}" in projects/{project}/instances/{inst}' in msg, msg
    assert table_id in msg and "reading creates no table" in msg, msg
    for p, i in [("wrong-project", inst), (project, "wrong-inst")]:
        wrong = url.replace(f"bigtable://{project}/{inst}", f"bigtable://{p}/{i}", 1)
        with pytest.raises(lexikey.StoreError, match=r"it has no tables \(a wrong project or instance\?\)"):
            lexikey.Allocator(wrong, "c", read_only=True)
        assert list(bigtable.Client(project=p, admin=True).instance(i).list_tables()) == []
    with pytest.raises(lexikey.StoreError, match='has no column family "g" \\(family=\\): its families: f;'):
        lexikey.Allocator(f"{url}&family=g", "c", read_only=True)
    names = [t.table_id for t in instance.list_tables()]
    assert table_id in names and missing not in names
    assert set(instance.table(table_id).list_column_families()) == {"f"}
    with lexikey.Allocator(url, "c", read_only=True) as r:
        assert r.scan() == [(2**64 - 1, b"x")]


def test_salted_read_without_salt_buckets():
    """A reader of a salted Bigtable table needs no salt_buckets: the salt
    record names them (issue 38); a wrong count is refused."""
    url = f"{env('LEXIKEY_BIGTABLE_URL')}&ns={fresh('salted')}"
    with lexikey.Allocator(url, "s", salt_buckets=4) as w:
        w.insert_many([b"a", b"b", b"c"])
    with lexikey.Allocator(url, "s", read_only=True) as r:
        assert [v for _, v in r.scan()] == [b"c", b"b", b"a"]
    with pytest.raises(lexikey.AllocError, match="salted with 4 buckets"):
        lexikey.Allocator(url, "s", read_only=True, salt_buckets=8)


def test_store_errors_name_the_emulator():
    with pytest.raises(lexikey.StoreError) as e:
        lexikey.Allocator("bigtable://p/i?emulator=127.0.0.1:1&timeout_ms=2000", "t")
    assert "(is the Bigtable emulator running at 127.0.0.1:1?)" in str(e.value)


@pytest.mark.parametrize("i", [0, 1])
def test_readme_bigtable_example(tmp_path, i):
    """docs/bigtable.md's Python examples (a range as a RowRange; a salted
    table read with row_set and merge), run as written (on the emulator:
    BIGTABLE_EMULATOR_HOST)."""
    from conftest import REPO

    env("BIGTABLE_EMULATOR_HOST")
    text = (REPO / "docs" / "bigtable.md").read_text()
    blocks = [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]
    assert len(blocks) == 2
    os.chdir(tmp_path)
    for _ in range(2):  # idempotent: a reader may run it twice
        exec(compile(blocks[i], f"docs/bigtable.md block {i + 1}", "exec"), {})
