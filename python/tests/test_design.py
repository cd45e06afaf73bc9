"""Schema.lint and Schema.plan (issue #43): the same report and lines as
`lexikey lint --json` and `lexikey plan`, from rows of Python values."""

import json
import os
import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey
from conftest import REPO, size

LEXIKEY = os.environ.get("LEXIKEY_BIN") or REPO / "target" / "debug" / "lexikey"


@settings(max_examples=size(30, 200))
@given(
    start=st.integers(0, 2**40),
    step=st.integers(1, 10**6),
    n=st.integers(80, 400),
    regions=st.integers(2, 32),
    falling=st.booleans(),
)
def test_monotone_leading_value_is_a_hot_spot(start, step, n, regions, falling):
    s = lexikey.Schema("i64,str")
    rows = [(start + (-i if falling else i) * step, f"u{i % 7}") for i in range(n)]
    r = s.lint(rows, regions=regions)
    assert r["hot_spot"] is True
    assert r["busiest_region_share"] == 1.0
    assert r["direction"] == ("falling" if falling else "rising")
    assert isinstance(r["suggested_salt_buckets"], int)
    assert r["share_after_salting"] < 1.0
    assert set(r["key_bytes"]) == {"p50", "p99", "max"}


@settings(max_examples=size(30, 200))
@given(st.integers(0, 2**32), st.integers(400, 800), st.integers(2, 32))
def test_random_leading_value_is_not(seed, n, regions):
    rng = random.Random(seed)
    values = [rng.getrandbits(64) - 2**63 for _ in range(n)]
    r = lexikey.Schema("i64,str").lint([(v, "x") for v in values], regions=regions)
    assert r["hot_spot"] is False
    assert r["suggested_salt_buckets"] is None
    assert 0.0 <= r["busiest_region_share"] <= 1.0


@settings(max_examples=size(10, 50))
@given(st.sets(st.integers(-(2**40), 2**40), min_size=20, max_size=200), st.integers(1, 16), st.sampled_from(["hbase", "cbt", "phoenix"]))
def test_plan_and_lint_match_the_command_line(values, regions, target):
    values = list(values)
    s = lexikey.Schema("i64,str")
    rows = [(v, "it's") for v in values]
    csv = "".join(f"{v},it's\n" for v in values)
    cli = lambda *a: subprocess.run([str(LEXIKEY), *a, "-"], input=csv.encode(), capture_output=True, check=True).stdout.decode()
    want = cli("plan", "--schema", "i64,str", "--regions", str(regions), "--for", target, "--table", "ev")
    assert s.plan(rows, regions=regions, target=target, table="ev") == want
    assert s.lint(rows, regions=regions) == json.loads(cli("lint", "--schema", "i64,str", "--json", "--regions", str(regions)))


def test_errors():
    s = lexikey.Schema("str")
    for call in (lambda: s.lint([]), lambda: s.plan([("a",), ("b",)], regions=3), lambda: s.plan([("a",)], 2, target="sql")):
        try:
            call()
        except ValueError as e:
            assert "\n" not in str(e)
        else:
            raise AssertionError("no error")


@settings(max_examples=size(25, 200), deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(-(2**63), 2**63 - 1), st.text(max_size=8)),
        min_size=1,
        max_size=300,
    ),
    rising=st.booleans(),
    regions=st.integers(1, 24),
)
def test_arrow_tables_lint_and_plan_as_their_rows(rows, rising, regions):
    """An Arrow table (pyarrow and polars) gives the report and the plan its
    rows give as tuples."""
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    if rising:
        rows = [(i * 1000, s) for i, (_, s) in enumerate(rows)]
    s = lexikey.Schema("i64,str")
    want = s.lint(rows, regions=regions)
    cols = {"n": [r[0] for r in rows], "s": [r[1] for r in rows]}
    table = pa.table({"n": pa.array(cols["n"], pa.int64()), "s": pa.array(cols["s"], pa.string())})
    frame = pl.DataFrame(cols, schema={"n": pl.Int64, "s": pl.String})
    batches = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=7))
    for data in (table, batches, frame):
        assert s.lint(data, regions=regions) == want
    distinct = len({r for r in rows})
    for target in ("hbase", "cbt"):
        try:
            line = s.plan(rows, regions, target)
        except ValueError as e:
            assert distinct < regions, e
            with pytest.raises(ValueError, match="too few"):
                s.plan(frame, regions, target)
            continue
        assert s.plan(table, regions, target) == line
        assert s.plan(frame, regions, target) == line


def test_arrow_lint_errors():
    pa = pytest.importorskip("pyarrow")
    s = lexikey.Schema("i64,str")
    with pytest.raises(lexikey.EncodeError, match="null"):
        s.lint(pa.table({"n": pa.array([1, None], pa.int64()), "s": ["a", "b"]}))
    with pytest.raises(lexikey.EncodeError):
        s.lint(pa.table({"n": ["x", "y"], "s": ["a", "b"]}))
    with pytest.raises(ValueError, match="no rows"):
        s.lint(pa.table({"n": pa.array([], pa.int64()), "s": pa.array([], pa.string())}))
