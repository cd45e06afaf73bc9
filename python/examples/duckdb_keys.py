"""Row keys in SQL: `Schema.encode_arrow` registered as a vectorized DuckDB
function (`create_function(..., type=PythonUDFType.ARROW)`: DuckDB hands
it whole Arrow columns, a few thousand rows at a time, and takes the key
column back), so that `SELECT lexikey_key(metric, ts, host) FROM read_csv(...)` makes the
keys of a CSV file in the query.

    python python/examples/duckdb_keys.py CSV_FILE

The CSV file has a header and the columns metric, ts (an ISO 8601 time with
its zone), host; with no file given, a small one is written and used.
Prints the rows with their keys, in key order.
"""

import os
import sys
import tempfile
from typing import Any

import duckdb
import duckdb.func
import pyarrow as pa

import lexikey

# metric, time (newest first), host: the fields of each key, in order.
SCHEMA = lexikey.Schema("str,ts.desc,str")


def lexikey_key(metric: Any, ts: Any, host: Any) -> Any:
    """The keys of one chunk of rows: DuckDB passes each argument as a
    pyarrow (chunked) array and takes a pyarrow array of the same length
    back."""
    columns = pa.table([metric, ts, host], names=["metric", "ts", "host"])
    return pa.array(SCHEMA.encode_arrow(columns))


def connect() -> duckdb.DuckDBPyConnection:
    """A connection with `lexikey_key(VARCHAR, TIMESTAMPTZ, VARCHAR) ->
    VARCHAR` registered (the hex format: text keys)."""
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.create_function(
        "lexikey_key",
        lexikey_key,
        ["VARCHAR", "TIMESTAMPTZ", "VARCHAR"],
        "VARCHAR",
        type=duckdb.func.PythonUDFType.ARROW,
    )
    return con


def keys_of_csv(path: str) -> list[tuple[Any, ...]]:
    """(key, metric, ts, host) of every row of the CSV file, in key order."""
    con = connect()
    try:
        rows: list[tuple[Any, ...]] = con.execute(
            "SELECT lexikey_key(metric, ts, host) AS key, metric, ts, host "
            "FROM read_csv(?, columns = {'metric': 'VARCHAR', 'ts': 'TIMESTAMPTZ', 'host': 'VARCHAR'}, header = true) "
            "ORDER BY key",
            [path],
        ).fetchall()
        return rows
    finally:
        con.close()


def main(path: str) -> None:
    for row in keys_of_csv(path):
        print(*row, sep="\t")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1])
    else:
        with tempfile.TemporaryDirectory() as d:
            csv = os.path.join(d, "metrics.csv")
            with open(csv, "w") as f:
                f.write("metric,ts,host\n")
                f.write("cpu,2024-05-01T10:00:00Z,web-1\n")
                f.write("cpu,2024-05-01T10:00:01Z,web-2\n")
                f.write("mem,2024-05-01T09:59:59Z,db-1\n")
            main(csv)
