"""Row keys for an HBase bulk load, prepared in Spark.

A 1,000,000-row DataFrame of metrics (host, time, value) becomes HBase row
keys `(metric, time descending, host)` — newest first per metric — is
sorted by key (what HBase's bulk-load tools want: HFiles in key order) and
written as Parquet. The keys are made, one schema parse per partition, by
either of:

- `arrow` (the default): `mapInArrow` hands each partition's Arrow record
  batches straight to `lexikey.Schema.encode_arrow` (columns in, a key
  column out: no Python object per value, the GIL released);
- `rows`: `mapPartitions` + `lexikey.Schema.encode_many`, every row a
  Python tuple (pickled from the JVM and back): the way before Arrow, kept
  for the benchmark.

    python python/examples/spark_bulk_keys.py OUT_DIR [ROWS] [--mode arrow|rows|both]

`--mode both` runs the two, one after the other in one Spark session,
into OUT_DIR/arrow and OUT_DIR/rows.

Runs Spark in local mode (`local[2]`, PySpark from PyPI, Java 17); the
executors run this interpreter, which must import `lexikey` (and pyarrow,
which PySpark's Arrow support needs).
"""

import argparse
import os
import sys
import time
from typing import Iterable, Iterator, Tuple

import pyarrow as pa
from pyspark.sql import Row, SparkSession

import lexikey

SCHEMA = "str,ts.desc,str"  # metric, time (newest first), host
START_MS = 1_700_000_000_000
OUT_SCHEMA = "key string, host string, ts long, value long"


def keys_of_batches(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """mapInArrow: (key, host, ts, value) for every batch of one partition.
    `ts` is milliseconds since 1970 (a long): read as a UTC timestamp."""
    schema = lexikey.Schema(SCHEMA)
    for b in batches:
        ts = b.column("ts").cast(pa.timestamp("ms", tz="UTC"))
        fields = pa.record_batch([b.column("metric"), ts, b.column("host")], names=["metric", "ts", "host"])
        keys = pa.array(schema.encode_arrow(fields))
        yield pa.record_batch(
            [keys, b.column("host"), b.column("ts"), b.column("value")], names=["key", "host", "ts", "value"]
        )


def keys_of_partition(rows: Iterable[Row]) -> Iterator[Tuple[str, str, int, int]]:
    """mapPartitions: (key, host, ts, value) for every row of one partition."""
    schema = lexikey.Schema(SCHEMA)
    batch = list(rows)
    keys = schema.encode_many([(r.metric, r.ts, r.host) for r in batch])
    for key, r in zip(keys, batch):
        assert isinstance(key, str)
        yield (key, r.host, r.ts, r.value)


def main(out: str, n: int, mode: str) -> None:
    modes = ["arrow", "rows"] if mode == "both" else [mode]
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("lexikey bulk keys")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for m in modes:
            t = time.perf_counter()
            df = spark.range(n, numPartitions=4).selectExpr(
                "concat('host-', cast(id % 1000 as string)) as host",
                f"{START_MS} + id * 1000 as ts",
                "'cpu' as metric",
                "id as value",
            )
            if m == "arrow":
                keyed = df.mapInArrow(keys_of_batches, OUT_SCHEMA)
            else:
                keyed = df.rdd.mapPartitions(keys_of_partition).toDF(["key", "host", "ts", "value"])
            dest = os.path.join(out, m) if len(modes) > 1 else out
            keyed.sort("key").write.mode("overwrite").parquet(dest)
            secs = time.perf_counter() - t
            print(f"{m}: {n:,} rows in {secs:.1f} s ({n / secs:,.0f} rows/s)")
    finally:
        spark.stop()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description="Row keys for an HBase bulk load, in Spark.")
    p.add_argument("out", help="the Parquet directory written")
    p.add_argument("rows", nargs="?", type=int, default=1_000_000)
    p.add_argument("--mode", choices=["arrow", "rows", "both"], default="arrow")
    a = p.parse_args()
    main(a.out, a.rows, a.mode)
