"""Schema.merge (issue 38): rows read back from the buckets of a salted
table come out in the order of their keys without the salt (the order of
the same rows' unsalted keys), every row once, equal keys in the order
given; a property over native text and binary salts and Phoenix's, scans
given per bucket (in any order) or as one read of every bucket. Plus its
errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexikey

LAYOUTS = [
    ("str,u64", "hex"),
    ("str,i64.desc", "base64"),
    ("str,u64", "binary"),
    ("varchar,bigint.desc", "phoenix"),
]

rows_st = st.lists(
    st.tuples(st.sampled_from(["", "a", "ab", "b", "comments", "é"]), st.integers(0, 2**31)),
    max_size=60,
)


@given(
    layout=st.sampled_from(LAYOUTS),
    buckets=st.integers(1, 16),
    values=rows_st,
    dups=st.integers(0, 5),
    how=st.sampled_from(["per bucket", "per bucket shuffled", "one read", "iterators"]),
    rnd=st.randoms(use_true_random=False),
)
def test_merge_is_the_order_of_the_unsalted_keys(layout, buckets, values, dups, how, rnd):
    spec, fmt = layout
    if fmt == "phoenix":
        values = [(v or "x", n) for v, n in values]  # Phoenix VARCHAR keys: no empty leading value needed
    values = values + values[:dups]  # some rows twice: equal keys
    salted = lexikey.Schema(spec, fmt, salt_buckets=buckets)
    plain = lexikey.Schema(spec, fmt)
    keys = salted.encode_many(values)
    unsalted = plain.encode_many(values)
    # Row i: (its salted key, i). A store returns each bucket sorted by key;
    # rows of equal keys keep their order of writing (i).
    rows = sorted(((k, i) for i, k in enumerate(keys)), key=lambda r: (as_bytes(r[0]), r[1]))
    # Bucket of a row: its salt (1 byte, or 3 characters of text).
    salt_len = 3 if salted.format in ("hex", "base64", "decimal") else 1
    by_bucket: dict[object, list[tuple[object, int]]] = {}
    for r in rows:
        by_bucket.setdefault(r[0][:salt_len], []).append(r)
    scans = list(by_bucket.values())
    if how == "per bucket shuffled":
        rnd.shuffle(scans)
    if how == "one read":
        merged = salted.merge(rows)
    elif how == "iterators":
        merged = salted.merge(*(iter(s) for s in scans))
    else:
        merged = salted.merge(*scans)
    # All rows kept, each once.
    assert sorted(i for _, i in merged) == list(range(len(values)))
    # In the order of the unsalted keys.
    got = [as_bytes(unsalted[i]) for _, i in merged]
    assert got == sorted(got)
    # Stable: rows of equal keys in the order they were given (one read and
    # in-order buckets: their order of writing, as the store sorted them;
    # equal keys are always in one bucket).
    order_given = [i for s in (scans if how != "one read" else [rows]) for _, i in s]
    position = {i: p for p, i in enumerate(order_given)}
    for (ka, ia), (kb, ib) in zip(merged, merged[1:]):
        if ka == kb:
            assert position[ia] < position[ib]


def as_bytes(k):
    return k.encode() if isinstance(k, str) else k


class Row:
    """A row as google-cloud-bigtable's read_rows gives it."""

    def __init__(self, key):
        self.row_key = key


def test_merge_takes_row_objects_and_any_iterables():
    s = lexikey.Schema("str,u64", salt_buckets=4)
    keys = s.encode_many([("t", n) for n in range(20)])
    rows = [Row(k.encode()) for k in sorted(keys)]
    merged = s.merge(iter(rows))
    assert [s.decode(r.row_key) for r in merged] == [("t", n) for n in range(20)]
    assert all(isinstance(r, Row) for r in merged)
    assert s.merge() == []
    assert s.merge([], []) == []
    # An unsalted schema: the order of the keys.
    plain = lexikey.Schema("str,u64")
    pk = plain.encode_many([("t", n) for n in (3, 1, 2)])
    assert [plain.decode(k)[1] for k, _ in plain.merge([(k, None) for k in pk])] == [1, 2, 3]


def test_merge_errors_name_the_row():
    s = lexikey.Schema("str,u64", salt_buckets=4)
    good = [(k, None) for k in s.encode_many([("t", 1), ("t", 2)])]
    other = lexikey.Schema("str,u64", salt_buckets=7).encode(("t", 5))
    with pytest.raises(lexikey.DecodeError, match=r"^row 1 of argument 1 of merge: key .* is not a key of Schema\("):
        s.merge(good, [good[0], (other, None)])
    with pytest.raises(lexikey.DecodeError, match="row 0 of argument 0 of merge: key t#u.* is not a key of"):
        s.merge([(lexikey.Schema("str,u64").encode(("t", 1)), None)])
    with pytest.raises(TypeError, match=r"^row 0 of argument 0 of merge: a \(key, row\) tuple or an object with a row_key"):
        s.merge([42])
    with pytest.raises(TypeError, match="^argument 0 of merge: an iterable of rows, not int$"):
        s.merge(42)
    with pytest.raises(TypeError, match="^row 0 of argument 0 of merge: a key is str or bytes, not int"):
        s.merge([(5, None)])


def test_bigtable_module_without_the_client_says_what_to_install():
    """google-cloud-bigtable is optional: lexikey imports without it, and
    lexikey.bigtable says how to get it (run where the client cannot be
    imported: a None entry in sys.modules blocks it)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['google.cloud.bigtable'] = None\n"
        "sys.modules['google.cloud.bigtable.row_set'] = None\n"
        "import lexikey\n"
        "assert lexikey.Schema('str', salt_buckets=2).merge([]) == []\n"
        "try:\n"
        "    import lexikey.bigtable\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == (
        "lexikey.bigtable needs Google's Bigtable client, which lexikey does not install: "
        "pip install google-cloud-bigtable"
    )
