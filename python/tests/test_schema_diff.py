"""Schema.diff (issue #43): the same verdict and report as
`lexikey schema diff OLD NEW --json`, and what the verdict promises checked
with the binding's own encode and decode."""

import json
import os
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey
from conftest import REPO, size

LEXIKEY = os.environ.get("LEXIKEY_BIN") or REPO / "target" / "debug" / "lexikey"

TYPES = ["str", "i64", "i32", "u32", "bool"]
FORMATS = ["hex", "base64", "binary"]

col = st.builds(lambda t, d: t + (".desc" if d else ""), st.sampled_from(TYPES), st.booleans())
schema = st.lists(col, min_size=1, max_size=3).map(",".join)
salt = st.sampled_from([None, 4])


def cli(old, new, fo, fn, so, sn):
    args = [str(LEXIKEY), "schema", "diff", old, new, "--json", "--old-format", fo, "--new-format", fn]
    if so:
        args += ["--old-salt-buckets", str(so)]
    if sn:
        args += ["--new-salt-buckets", str(sn)]
    p = subprocess.run(args, capture_output=True, check=True)
    assert p.stderr == b""
    return json.loads(p.stdout)


@settings(max_examples=size(15, 100), deadline=None)
@given(schema, st.one_of(schema, st.just("")), st.sampled_from(FORMATS), st.sampled_from(FORMATS), salt, salt)
def test_same_as_cli(old, new, fo, fn, so, sn):
    new = new or old + ",str"
    d = lexikey.Schema(old, fo, salt_buckets=so).diff(lexikey.Schema(new, fn, salt_buckets=sn))
    assert isinstance(d["compatible"], bool) and isinstance(d["reason"], str)
    assert d == cli(old, new, fo, fn, so, sn)
    assert (d["migration"] is None) == d["compatible"]


VALUES = {
    "str": st.text(max_size=4),
    "i64": st.integers(-(2**63), 2**63 - 1),
    "i32": st.integers(-(2**31), 2**31 - 1),
    "u32": st.integers(0, 2**32 - 1),
    "bool": st.booleans(),
}


@settings(max_examples=size(30, 200), deadline=None)
@given(st.data(), schema, st.sampled_from(FORMATS))
def test_compatible_means_old_keys_read_back(data, old, fmt):
    # Appending a column keeps every old key; flipping one column's
    # direction is breaking, and an old key is indeed misread (or refused).
    cols = old.split(",")
    i = data.draw(st.integers(0, len(cols) - 1))
    flipped = list(cols)
    flipped[i] = cols[i][:-5] if cols[i].endswith(".desc") else cols[i] + ".desc"
    row = tuple(data.draw(VALUES[c.split(".")[0]]) for c in cols)
    a = lexikey.Schema(old, fmt)
    key = a.encode(row)
    assert a.diff(lexikey.Schema(old + ",str", fmt))["compatible"] is True
    assert lexikey.Schema(old, fmt).decode(key) == row
    d = a.diff(lexikey.Schema(",".join(flipped), fmt))
    assert d["compatible"] is False
    try:
        misread = lexikey.Schema(",".join(flipped), fmt).decode(key) != row
    except ValueError:
        misread = True
    assert misread, (old, fmt, row, key)
