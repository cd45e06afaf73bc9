"""Schema.lint and Schema.plan (issue #43): the same report and lines as
`lexikey lint --json` and `lexikey plan`, from rows of Python values."""

import json
import os
import random
import subprocess

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
