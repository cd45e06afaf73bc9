"""Salted allocator from Python (issue 28): Allocator(..., salt_buckets=N)
spreads the rows over N buckets with the same IDs, order and reads as
without salt; the table remembers N and refuses another; bad arguments are
ValueErrors. On memory:, redb: and, under scripts/with-stores.sh, Redis,
PostgreSQL and etcd (4 processes x 100 IDs each)."""

import multiprocessing
import os
import uuid

import pytest

import lexikey

TOP = 2**64 - 1


def test_same_ids_and_reads_as_unsalted(tmp_path):
    for n in (1, 4, 16):
        url = f"redb:{tmp_path / f'db{n}.redb'}"
        plain = lexikey.Allocator(url, "plain")
        salted = lexikey.Allocator(url, "salted", salt_buckets=n)
        for i in range(50):
            v = f"row {i}".encode()
            assert salted.insert(v) == plain.insert(v) == TOP - i
        assert salted.scan() == plain.scan()
        assert salted.scan(7) == plain.scan(7)
        assert salted.newest() == plain.newest() == (TOP - 49, b"row 49")
        assert salted.oldest() == plain.oldest() == (TOP, b"row 0")
        assert salted.insert_many([b"a", b"b"]) == [TOP - 50, TOP - 51]


def test_another_salt_is_refused(tmp_path):
    url = f"redb:{tmp_path / 'db.redb'}"
    a = lexikey.Allocator(url, "t", salt_buckets=8, salt_mode="phoenix")
    a.insert(b"first")
    for kwargs, opened in [
        ({"salt_buckets": 4, "salt_mode": "phoenix"}, "with 4 salt buckets (phoenix hash)"),
        ({"salt_buckets": 8}, "with 8 salt buckets (fast hash)"),
    ]:
        with pytest.raises(lexikey.AllocError) as e:
            lexikey.Allocator(url, "t", **kwargs)
        assert str(e.value) == (
            "the table is salted with 8 buckets (phoenix hash), as its salt record t#!salt says, "
            f"but was opened {opened}: open it with 8 salt buckets and the phoenix hash "
            "(every client of a table must use the same salt)"
        )
    unsalted = lexikey.Allocator(url, "t")
    with pytest.raises(lexikey.AllocError, match="but was opened without salt"):
        unsalted.insert(b"x")
    with pytest.raises(lexikey.AllocError, match="but was opened without salt"):
        unsalted.scan()
    # An unsalted table refuses salt.
    plain = lexikey.Allocator(url, "u")
    plain.insert(b"row")
    with pytest.raises(lexikey.AllocError, match="already holds keys written without salt"):
        lexikey.Allocator(url, "u", salt_buckets=2)
    assert a.scan() == [(TOP, b"first")]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"salt_buckets": 256}, "256 is out of range for salt_buckets (0 to 255; 0: no salt)"),
        ({"salt_buckets": -1}, "-1 is out of range for salt_buckets"),
        ({"salt_buckets": True}, "salt_buckets"),
        ({"salt_buckets": 4, "salt_mode": "slow"}, 'invalid salt_mode "slow": expected "fast"'),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        lexikey.Allocator("memory:", "t", **kwargs)
    assert message in str(e.value)


def test_zero_buckets_is_no_salt():
    a = lexikey.Allocator("memory:", "t", salt_buckets=0)
    assert a.insert(b"x") == TOP


def worker(url, table, n, tag):
    a = lexikey.Allocator(url, table, salt_buckets=16)
    return [(a.insert(f"{tag}-{i}".encode()), f"{tag}-{i}".encode()) for i in range(n)]


@pytest.mark.parametrize("store", ["redis", "postgres", "etcd"])
def test_four_processes_salted(store):
    url = os.environ.get(f"LEXIKEY_{store.upper()}_URL")
    if not url:
        pytest.skip(f"LEXIKEY_{store.upper()}_URL is not set: run under scripts/with-stores.sh (scripts/test.sh does)")
    table = f"pysalt-{uuid.uuid4().hex[:12]}"
    procs, per = 4, 100
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(procs) as pool:
        results = pool.starmap(worker, [(url, table, per, f"p{p}") for p in range(procs)])
    got = [row for r in results for row in r]
    ids = [i for i, _ in got]
    assert sorted(ids) == list(range(TOP - procs * per + 1, TOP + 1)), "unique, contiguous"
    rows = lexikey.Allocator(url, table, salt_buckets=16).scan()
    assert rows == sorted(got), "every row present, newest (smallest ID) first"


def test_a_reader_takes_the_salt_from_the_record(tmp_path):
    """read_only=True without salt_buckets reads a salted table as its salt
    record says (count and hash), newest first; a count given that is not
    the record's stays an error (issue 38)."""
    url = f"redb:{tmp_path / 'db.redb'}"
    with lexikey.Allocator(url, "t", salt_buckets=8, salt_mode="phoenix") as w:
        w.insert_many([b"a", b"b", b"c"])
    want = [(TOP - 2, b"c"), (TOP - 1, b"b"), (TOP, b"a")]
    with lexikey.Allocator(url, "t", read_only=True) as r:
        assert r.scan() == want
        assert r.newest() == (TOP - 2, b"c")
    with lexikey.Allocator(url, "t", read_only=True, salt_buckets=8, salt_mode="phoenix") as r:
        assert r.scan() == want
    with pytest.raises(lexikey.AllocError) as e:
        lexikey.Allocator(url, "t", read_only=True, salt_buckets=4)
    assert str(e.value).startswith(
        "the table is salted with 8 buckets (phoenix hash), as its salt record t#!salt says, "
        "but was opened with 4 salt buckets (fast hash)"
    )
