"""python/examples/spark_bulk_keys.py runs (PySpark local[2]) and writes
its rows sorted by key, each key the lexikey key of its row (the key
Schema.encode_many makes of it): 1,000,000 rows at LEXIKEY_TEST_SIZE=full,
50,000 at ci (conftest.size), in both of its modes (mapInArrow +
encode_arrow, and mapPartitions + encode_many), both in one Spark session
(`--mode both`: one JVM start, not two)."""

import datetime
import os
import pathlib
import subprocess
import sys

import pytest

import lexikey
from conftest import size

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "spark_bulk_keys.py"


def test_spark_bulk_keys(tmp_path):
    pytest.importorskip("pyspark", reason="pyspark is not installed (scripts/test.sh installs it)")
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (scripts/test.sh installs it)")
    n = size(50_000, 1_000_000)
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1")
    r = subprocess.run(
        [sys.executable, str(EXAMPLE), str(tmp_path), str(n), "--mode", "both"],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    for mode in ("arrow", "rows"):
        check_output(pq, tmp_path / mode, n)


def check_output(pq, out, n):
    """The rows Spark wrote to `out`: `n`, sorted by key, newest first,
    each key encode_many's of its row."""
    keys, hosts, tss, values = [], [], [], []
    # Spark writes the sorted output as part files in key order.
    for f in sorted(out.glob("part-*.parquet")):
        t = pq.read_table(f)
        keys += t.column("key").to_pylist()
        hosts += t.column("host").to_pylist()
        tss += t.column("ts").to_pylist()
        values += t.column("value").to_pylist()
    assert len(keys) == n
    assert all(a < b for a, b in zip(keys, keys[1:])), "sorted by key, no duplicate"
    # Newest first: the time column descends along the keys.
    assert all(a > b for a, b in zip(tss, tss[1:]))
    schema = lexikey.Schema("str,ts.desc,str")
    for i in range(0, n, max(1, n // 10) - 9):
        metric, ts, host = schema.decode(keys[i])
        assert (metric, host) == ("cpu", hosts[i])
        assert int(ts.timestamp() * 1000) == tss[i]
    assert sorted(values) == list(range(n))
    # Every key is the one encode_many makes of its row.
    utc = datetime.timezone.utc
    rows = [("cpu", datetime.datetime.fromtimestamp(ms / 1000, utc), host) for ms, host in zip(tss, hosts)]
    assert keys == schema.encode_many(rows)
