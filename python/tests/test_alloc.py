"""Allocator from Python on real stores: 4 processes x 200 IDs each on
Redis, PostgreSQL and etcd (servers started by scripts/with-stores.sh, which
exports LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL, LEXIKEY_ETCD_URL) and on one
redb file -> 800 unique IDs, every row present with its value."""

import multiprocessing
import os
import subprocess
import uuid

import pytest

import lexikey

PROCS, PER = 4, 200
TOP = 2**64 - 1


def worker(url, table, n, tag):
    a = lexikey.Allocator(url, table)
    return [(a.insert(f"{tag}-{i}".encode()), f"{tag}-{i}".encode()) for i in range(n)]


def check_table(url, table, got, reader=None):
    ids = [i for i, _ in got]
    assert len(ids) == len(set(ids)) == PROCS * PER, "duplicate IDs"
    # Contiguous from the top: no hole, no duplicate.
    assert sorted(ids) == list(range(TOP - PROCS * PER + 1, TOP + 1))
    rows = (reader or lexikey.Allocator(url, table)).scan()
    assert sorted(rows) == sorted(got), "every row present, holding its own value"
    assert [i for i, _ in rows] == sorted(ids), "newest (smallest ID) first"


@pytest.mark.parametrize("store", ["redis", "postgres", "etcd"])
def test_four_processes(store):
    url = os.environ.get(f"LEXIKEY_{store.upper()}_URL")
    if not url:
        pytest.skip(f"LEXIKEY_{store.upper()}_URL is not set: run under scripts/with-stores.sh (scripts/test.sh does)")
    table = f"py-{uuid.uuid4().hex[:12]}"
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(PROCS) as pool:
        results = pool.starmap(worker, [(url, table, PER, f"p{p}") for p in range(PROCS)])
    got = [row for r in results for row in r]
    for r in results:
        mine = [i for i, _ in r]
        assert mine == sorted(mine, reverse=True), "each process sees decreasing IDs"
    check_table(url, table, got)


def redb_worker(url, table, n, tag, barrier, results):
    """One of the processes of test_redb_four_processes: opens the file,
    waits for the others, then inserts `n` rows as fast as it can."""
    try:
        a = lexikey.Allocator(url, table)
        barrier.wait(timeout=60)
        got = [(a.insert(f"{tag}-{i}".encode()), f"{tag}-{i}".encode()) for i in range(n)]
        results.put((tag, "ok", got))
    except BaseException as e:  # reported to the parent, which fails the test
        results.put((tag, "error", f"{type(e).__name__}: {e}"))


def test_redb_four_processes(tmp_path):
    # As `lexikey alloc` on a redb: file shared by 4 processes at once
    # (their writes queue for the file's lock): every insert succeeds, no
    # process gives up with ContentionError, and the 800 IDs are unique.
    # This needs the store's tuning that lexikey_stores::open_allocator
    # applies to redb (the allocator's default 64 attempts are not enough).
    url = f"redb:{tmp_path / 'shared.redb'}"
    table = "events"
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(PROCS), ctx.Queue()
    procs = [
        ctx.Process(target=redb_worker, args=(url, table, PER, f"p{p}", barrier, results))
        for p in range(PROCS)
    ]
    for p in procs:
        p.start()
    try:
        # Bounded: 800 durable commits take a few seconds here.
        outcome = {}
        for _ in procs:
            tag, status, payload = results.get(timeout=240)
            outcome[tag] = (status, payload)
        for p in procs:
            p.join(timeout=60)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join()
    failed = {t: m for t, (s, m) in outcome.items() if s != "ok"}
    assert not failed, f"processes failed: {failed}"
    assert [p.exitcode for p in procs] == [0] * PROCS
    got = [row for _, rows in outcome.values() for row in rows]
    for _, rows in outcome.values():
        mine = [i for i, _ in rows]
        assert len(mine) == PER
        assert mine == sorted(mine, reverse=True), "each process sees decreasing IDs"
    check_table(url, table, got)


def test_redb_one_process(tmp_path):
    url = f"redb:{tmp_path / 'py.redb'}"
    a = lexikey.Allocator(url, "events", guard=True)
    assert a.newest() is None and a.oldest() is None and a.scan() == []
    got = list(zip(a.insert_many([f"v{i}".encode() for i in range(PROCS * PER - 1)]), [f"v{i}".encode() for i in range(PROCS * PER - 1)]))
    got.append((a.insert(b"last"), b"last"))
    check_table(url, "events", got, reader=a)  # redb: one open handle per file
    assert a.oldest() == (TOP, b"v0")
    assert a.newest() == (TOP - PROCS * PER + 1, b"last")
    assert len(a.scan(limit=3)) == 3


def test_errors_and_kinds():
    with pytest.raises(ValueError, match="unknown scheme"):
        lexikey.Allocator("nosuch:x", "t")
    # A port that does not parse is a bad URL naming the part, not a store
    # that failed to open (issue 38).
    with pytest.raises(ValueError, match="the port `notaport` of host `127.0.0.1:notaport` is not a number"):
        lexikey.Allocator("redis://127.0.0.1:notaport", "t")
    with pytest.raises(ValueError, match="the port `99999`"):
        lexikey.Allocator("postgres://u@h:99999/db", "t")
    # An empty table name is refused, saying what is allowed.
    with pytest.raises(lexikey.AllocError, match="the table name is empty: give a name of 1 or more characters") as e:
        lexikey.Allocator("memory:", "")
    assert e.value.kind == "config"
    with pytest.raises(ValueError):
        lexikey.Allocator("memory:", "t", format="fdb-tuple")
    with pytest.raises(TypeError):
        lexikey.Allocator("memory:", "t").insert("text")  # type: ignore[arg-type]
    a = lexikey.Allocator("memory:", "t")
    assert a.insert(bytearray(b"x")) == TOP


def test_start_and_floor(tmp_path):
    # An empty table's first row gets `start`; IDs stop at `floor`
    # (ExhaustedError, nothing written, never a wrap).
    url = f"redb:{tmp_path / 'floor.redb'}"
    a = lexikey.Allocator(url, "jobs", guard=True, start=1002, floor=1000)
    assert a.insert_many([b"a", b"b", b"c"]) == [1002, 1001, 1000]
    with pytest.raises(lexikey.ExhaustedError) as e:
        a.insert(b"d")
    assert e.value.kind == "exhausted"
    assert a.scan() == [(1000, b"c"), (1001, b"b"), (1002, b"a")]
    del a  # redb: one open handle per file
    # `start` applies to an empty table only: later IDs follow the newest
    # row, whatever `start` a client gives; another floor is another floor.
    b = lexikey.Allocator(url, "jobs", guard=True, start=5000, floor=900)
    assert b.insert(b"d") == 999
    assert b.newest() == (999, b"d") and b.oldest() == (1002, b"a")
    del b
    m = lexikey.Allocator("memory:", "jobs", format="decimal", start=7)
    assert m.insert_many([b"x", b"y"]) == [7, 6]


def test_insert_many_is_one_commit_per_batch(tmp_path):
    # Issue 38: 1,000 IDs on redb with its default fsync are one commit
    # (they took 6.9 s as 1,000); at the floor a batch takes what is left
    # and the error's ids list it.
    import time

    a = lexikey.Allocator(f"redb:{tmp_path / 'many.redb'}", "jobs")
    values = [f"v{i}".encode() for i in range(1000)]
    t = time.monotonic()
    ids = a.insert_many(values)
    elapsed = time.monotonic() - t
    assert ids == [2**64 - 1 - i for i in range(1000)]
    assert elapsed < 1.0, elapsed
    assert a.scan(3) == [(ids[-1], b"v999"), (ids[-2], b"v998"), (ids[-3], b"v997")]
    b = lexikey.Allocator("memory:", "jobs", start=1004, floor=1000)
    with pytest.raises(lexikey.ExhaustedError) as e:
        b.insert_many([b"x"] * 8)
    assert list(e.value.ids) == [1004, 1003, 1002, 1001, 1000]


def test_start_and_floor_are_checked():
    for bad in (-1, 2**64, True, 1.5):
        with pytest.raises(ValueError):
            lexikey.Allocator("memory:", "t", start=bad)
        with pytest.raises(ValueError):
            lexikey.Allocator("memory:", "t", floor=bad)
    with pytest.raises(lexikey.AllocError) as e:
        lexikey.Allocator("memory:", "t", start=5, floor=6)
    assert e.value.kind == "config"


def test_a_store_that_does_not_open_is_a_store_error(tmp_path):
    """Exceptions: StoreError (an OSError) when the store cannot be opened."""
    assert issubclass(lexikey.StoreError, OSError)
    with pytest.raises(lexikey.StoreError, match="cannot open store"):
        lexikey.Allocator(f"redb:{tmp_path}/missing/dir/t.redb", "t")
    with pytest.raises(OSError):
        lexikey.Allocator("redis://127.0.0.1:1", "t")


def test_close_and_with_let_go_of_the_store(tmp_path):
    """close() and `with` release the store at once: a redb file has one
    open handle per process, so a second Allocator on the same file opens
    only after the first is closed. Calls after close() raise ValueError."""
    url = f"redb:{tmp_path / 'closing.redb'}"
    with lexikey.Allocator(url, "t") as a:
        assert a.insert(b"one") == TOP
    assert "closed" in repr(a)
    with pytest.raises(ValueError, match="is closed"):
        a.insert(b"two")
    for call in (a.newest, a.oldest, a.scan, lambda: a.insert_many([b"x"])):
        with pytest.raises(ValueError, match="is closed"):
            call()
    a.close()  # closing twice is allowed
    b = lexikey.Allocator(url, "t")  # the file's lock was let go
    assert b.insert(b"two") == TOP - 1
    b.close()
    # An exception in the block goes on, and the allocator is closed.
    with pytest.raises(KeyError):
        with lexikey.Allocator(url, "t") as c:
            raise KeyError("x")
    with pytest.raises(ValueError, match="is closed"):
        c.scan()
    assert lexikey.Allocator(url, "t").scan() == [(TOP - 1, b"two"), (TOP, b"one")]


def test_read_only_never_creates_a_store(tmp_path):
    """read_only=True opens existing stores only, as `lexikey scan` does:
    a missing redb file is a StoreError and is not created; an existing
    one is read, and insert is refused."""
    missing = tmp_path / "missing.redb"
    with pytest.raises(lexikey.StoreError):
        lexikey.Allocator(f"redb:{missing}", "t", read_only=True)
    assert not missing.exists()
    url = f"redb:{tmp_path / 'there.redb'}"
    with lexikey.Allocator(url, "t") as w:
        w.insert_many([b"a", b"b"])
    with lexikey.Allocator(url, "t", read_only=True) as r:
        assert r.scan() == [(TOP - 1, b"b"), (TOP, b"a")]
        assert r.newest() == (TOP - 1, b"b")
        with pytest.raises(lexikey.AllocError, match="reading only"):
            r.insert(b"c")
        assert r.scan() == [(TOP - 1, b"b"), (TOP, b"a")]


def test_read_only_creates_no_postgres_table():
    """read_only=True on PostgreSQL: a missing table (ns=) is a StoreError
    naming it and the tables there, and psql then finds no such table; an
    existing table reads (issue 38)."""
    base = os.environ.get("LEXIKEY_POSTGRES_URL")
    if not base:
        pytest.skip("LEXIKEY_POSTGRES_URL is not set: run under scripts/with-stores.sh (scripts/test.sh does)")
    there, missing = (f"py_{w}_{uuid.uuid4().hex[:12]}" for w in ("there", "nosuch"))
    with lexikey.Allocator(f"{base}?ns={there}", "t") as w:
        w.insert(b"x")
    with pytest.raises(lexikey.StoreError) as e:
        lexikey.Allocator(f"{base}?ns={missing}", "t", read_only=True)
    msg = str(e.value)
    assert f'postgres: no table "{missing}" in database "postgres" (schema public): its tables: ' in msg, msg
    assert there in msg and msg.endswith("; reading creates no table (lexikey alloc creates it)"), msg
    tables = subprocess.run(
        ["psql", base, "-Atc", "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert there in tables and missing not in tables
    with lexikey.Allocator(f"{base}?ns={there}", "t", read_only=True) as r:
        assert r.scan() == [(TOP, b"x")]


def test_a_stopped_server_is_a_store_error_not_contention():
    """Redis stopped under a running allocator: insert raises kind "store"
    with Redis's error, not "contention" (which is for races lost to other
    clients); after the restart inserts go on (issue 38)."""
    url = os.environ.get("LEXIKEY_REDIS_URL")
    stores = os.environ.get("LEXIKEY_STORES_DIR")
    if not url or not stores:
        pytest.skip("LEXIKEY_REDIS_URL is not set: run under scripts/with-stores.sh (scripts/test.sh does)")
    redis_dir = os.path.join(stores, "redis")
    a = lexikey.Allocator(f"{url}?timeout_ms=500", f"py-dead-{uuid.uuid4().hex[:12]}")
    first = a.insert(b"before")
    subprocess.run([os.path.join(redis_dir, "stop")], check=True, timeout=60)
    try:
        with pytest.raises(lexikey.AllocError) as e:
            a.insert(b"while down")
        assert not isinstance(e.value, lexikey.ContentionError)
        assert e.value.kind == "store", str(e.value)
        assert str(e.value).startswith("store error: redis: "), str(e.value)
        assert str(e.value).endswith("(gave up after 64 attempts, the store failing)"), str(e.value)
    finally:
        subprocess.run([os.path.join(redis_dir, "start")], check=True, timeout=60)
        subprocess.run([os.path.join(redis_dir, "ready")], check=True, timeout=60)
    assert a.insert(b"after") == first - 1
