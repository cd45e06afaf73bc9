"""Row keys as a polars column: `Schema.encode_arrow` takes the frame's
columns as they are (Arrow memory, no Python object per value) and its keys
become a column with `with_columns`; `decode_arrow` gives the values back as
a frame.

    python python/examples/polars_keys.py [ROWS]

Prints the first rows and checks that the keys sort the frame as its
values do (metric, then newest first) and decode back to the values.
"""

import datetime
import sys

import polars as pl

import lexikey

# metric, time (newest first), host: the fields of each key, in order.
SCHEMA = lexikey.Schema("str,ts.desc,str")


def with_keys(df: pl.DataFrame) -> pl.DataFrame:
    """`df` with a `key` column: the key of (metric, ts, host) of each row."""
    keys = SCHEMA.encode_arrow(df.select("metric", "ts", "host"))
    return df.with_columns(key=pl.Series(keys))


def main(n: int) -> None:
    start = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
    df = pl.DataFrame(
        {
            "metric": ["cpu" if i % 3 else "mem" for i in range(n)],
            "ts": [start + datetime.timedelta(seconds=i) for i in range(n)],
            "host": [f"host-{i % 7}" for i in range(n)],
            "value": list(range(n)),
        },
        schema_overrides={"ts": pl.Datetime("ms", "UTC")},
    )
    keyed = with_keys(df).sort("key")
    print(keyed.head(5))
    # Sorted by key = sorted by metric, then by time descending.
    by_values = df.sort(["metric", "ts"], descending=[False, True])
    assert keyed["value"].to_list() == by_values["value"].to_list()
    back = pl.DataFrame(SCHEMA.decode_arrow(keyed["key"], names=["metric", "ts", "host"]))
    assert back.equals(keyed.select("metric", "ts", "host"))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
