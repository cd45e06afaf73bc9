"""Allocator("slatedb:s3://…") on moto's S3, which scripts/with-stores.sh
starts (LEXIKEY_SLATEDB_S3_URL, and AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY
that moto takes). Without them the tests fail: run under
scripts/with-stores.sh (scripts/test.sh does). Issue 41."""

import multiprocessing
import os
import uuid

import pytest

import lexikey

TOP = 2**64 - 1


def s3_url(tag):
    """The base URL with a prefix of its own: one prefix is one database."""
    base = os.environ.get("LEXIKEY_SLATEDB_S3_URL")
    assert base, "LEXIKEY_SLATEDB_S3_URL is not set: run under scripts/with-stores.sh"
    location, query = base.split("?", 1)
    return f"{location}/py-{tag}-{uuid.uuid4().hex[:12]}?{query}"


def worker(url, n, tag):
    with lexikey.Allocator(url, "events") as a:
        return [(a.insert(f"{tag}-{i}".encode()), f"{tag}-{i}".encode()) for i in range(n)]


def test_processes_take_the_lease_in_turn():
    """2 processes x 50 on one S3 path: they queue for the writer lease;
    IDs unique and contiguous from the top, each process's newest first,
    every row holding its value, read back newest first."""
    url = s3_url("procs")
    procs, per = 2, 50
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(procs) as pool:
        results = pool.starmap(worker, [(url, per, f"p{p}") for p in range(procs)])
    got = [row for r in results for row in r]
    for r in results:
        mine = [i for i, _ in r]
        assert mine == sorted(mine, reverse=True)
    ids = sorted(i for i, _ in got)
    assert ids == list(range(TOP - procs * per + 1, TOP + 1))
    with lexikey.Allocator(url, "events") as a:
        rows = a.scan()
        assert rows == sorted(got)
        assert a.newest() == rows[0]


def test_a_missing_bucket_is_a_store_error_saying_what_to_do():
    url = s3_url("nobucket").replace("s3://lexikey/", "s3://no-such-bucket-lexikey/", 1)
    with pytest.raises(lexikey.StoreError, match=r"bucket `no-such-bucket-lexikey` does not exist .*aws s3 mb"):
        lexikey.Allocator(url, "events")
