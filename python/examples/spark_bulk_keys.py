"""Row keys for an HBase bulk load, prepared in Spark.

A 1,000,000-row DataFrame of metrics (host, time, value) becomes HBase row
keys `(metric, time descending, host)` — newest first per metric — with
`mapPartitions` + `lexikey.Schema.encode_many` (one schema parse and one
bulk call per partition, the GIL released while the keys are encoded), is
sorted by key (what HBase's bulk-load tools want: HFiles in key order) and
written as Parquet.

    python python/examples/spark_bulk_keys.py OUT_DIR [ROWS]

Runs Spark in local mode (`local[2]`, PySpark from PyPI, Java 17); the
executors run this interpreter, which must import `lexikey`.
"""

import os
import sys
from typing import Iterable, Iterator, Tuple

import lexikey
from pyspark.sql import Row, SparkSession

SCHEMA = "str,ts.desc,str"  # metric, time (newest first), host
START_MS = 1_700_000_000_000


def keys_of_partition(rows: Iterable[Row]) -> Iterator[Tuple[str, str, int, int]]:
    """(key, host, ts, value) for every row of one partition."""
    schema = lexikey.Schema(SCHEMA)
    batch = list(rows)
    keys = schema.encode_many([(r.metric, r.ts, r.host) for r in batch])
    for key, r in zip(keys, batch):
        assert isinstance(key, str)
        yield (key, r.host, r.ts, r.value)


def main(out: str, n: int) -> None:
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
        df = spark.range(n, numPartitions=4).selectExpr(
            "concat('host-', cast(id % 1000 as string)) as host",
            f"{START_MS} + id * 1000 as ts",
            "'cpu' as metric",
            "id as value",
        )
        keyed = df.rdd.mapPartitions(keys_of_partition).toDF(["key", "host", "ts", "value"])
        keyed.sort("key").write.mode("overwrite").parquet(out)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000)
