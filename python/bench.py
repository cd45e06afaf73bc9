"""Schema.encode_many and decode_many in every format, against baselines.

    pip install ./python        # the release build (maturin build --release)
    python python/bench.py [ROWS]

For each format a two-field (str, int) schema of ROWS rows (default
1,000,000): hex, base64, decimal, binary ("str,i64"), fdb-tuple
("str,int"), hbase-ordered ("text,int64"), phoenix ("varchar,bigint"); then
"str,ts" (hex) and a schema with every scalar type (hex, ROWS / 4 rows).
Each line gives rows per second for encode_many and decode_many (the best
of RUNS calls). Baselines in the same run: a straightforward pure-Python
implementation of the hex keys (checked equal first), and FoundationDB's
own `fdb.tuple.pack`/`unpack` (PyPI `foundationdb`, if installed) on the
same rows as the fdb-tuple schema (checked byte-equal first).

encode_many of more than 8,192 rows encodes on a second thread while the
calling thread reads the rows (when there is more than one CPU): its wall
rows/s is what a caller gets; its CPU time counts both threads, so its CPU
rows/s is the work per row, and the two differ by up to 2x.

Then the Arrow path (issue #40; needs pyarrow to build the tables, and is
skipped without it): Schema.encode_arrow on the same rows as Arrow tables
(str, i64) hex and binary and the every-scalar schema, each beside
encode_many of the same rows, decode_arrow of the (str, i64) hex keys
beside decode_many, and encode_arrow in two threads at once against one
(the GIL is released while the keys are made: on two CPUs, two threads
should do nearly twice the rows per second of one).

Targets (issue #27): encode_many >= 4,000,000 rows/s in every format,
fdb-tuple >= 5x fdb.tuple.pack; (issue #13) hex >= 10x the pure-Python
keys. The rows of those targets have two fields: 4 M rows/s is 8 M values
a second, the yardstick the every-scalar row (twelve fields, one of each
type) is held to, hence its values/s column.

The package measured is the installed one: this script's own directory
(python/, which Python puts first on sys.path) is taken off the path, since
python/lexikey/ holds the development build of `scripts/python.sh setup`
(cargo's `test` profile, opt-level 1) when there is one. In the
development venv that build is still the one found (its .pth file names
python/): the path printed says so.
"""

import datetime
import decimal
import os
import sys
import threading
import time
import uuid
from typing import Any, Callable, List, Optional, Sequence, Tuple

_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

import lexikey  # noqa: E402  (after the path fix above)


def python_hex_key(s: str, n: int) -> str:
    """The lexikey hex key of (str, i64), written the obvious way: bytes up to
    0x25 escaped as %XX, '#', then 'l' and the 16 UPPERCASE hex digits of the
    i64 with its sign bit flipped."""
    body = "".join(c if ord(c) > 0x25 else "%%%02X" % ord(c) for c in s)
    return body + "#l%016X" % (n + (1 << 63))


RUNS = 5


def best_of(runs: int, f: Callable[[], object]) -> Tuple[float, float]:
    """The best wall-clock and CPU (this process) seconds of `runs` calls.
    On a shared machine the CPU time is the steadier number."""
    wall = cpu = float("inf")
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        f()
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu


def show(name: str, n: int, t: Tuple[float, float], fields: int = 0) -> None:
    """One line: rows/s wall and CPU; with `fields`, also values (fields)
    per second wall, to set a wide row beside the two-field ones."""
    values = f"   {n * fields / t[0]:>12,.0f} values/s wall" if fields else ""
    print(f"{name:44} {n / t[0]:>12,.0f} rows/s wall   {n / t[1]:>12,.0f} rows/s CPU{values}")


def scalar_rows(n: int) -> List[Tuple[Any, ...]]:
    utc = datetime.timezone.utc
    start = datetime.datetime(2024, 5, 1, tzinfo=utc)
    return [
        (
            f"city {i % 5000}",
            i * 7919 - 4_000_000_000,
            i * 104729,
            i - n // 2,
            i,
            i * 0.25,
            float(i % 1000),
            i % 2 == 0,
            i.to_bytes(4, "big"),
            start + datetime.timedelta(milliseconds=i),
            uuid.UUID(int=i * 2654435761),
            decimal.Decimal(i) / 100,
        )
        for i in range(n)
    ]


SCALARS = "str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,uuid,dec"


def arrow_rows(pa: Any, rows: Sequence[Tuple[Any, ...]], types: Sequence[Any]) -> Any:
    """The rows as an Arrow table of the given column types (columns c0, c1,
    ...; UUIDs as their 16 bytes)."""
    columns = []
    for i, ty in enumerate(types):
        values = [r[i] for r in rows]
        if ty == pa.uuid():
            values = [v.bytes for v in values]
        columns.append(pa.array(values, ty))
    return pa.table(columns, names=[f"c{i}" for i in range(len(types))])


def in_threads(threads: int, f: Callable[[], object]) -> float:
    """Seconds of wall clock for `threads` threads each calling f once."""
    ts = [threading.Thread(target=f) for _ in range(threads)]
    t = time.perf_counter()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    return time.perf_counter() - t


def bench_arrow(n: int, rows: Sequence[Tuple[Any, ...]]) -> None:
    """The Arrow rows: encode_arrow / decode_arrow beside encode_many /
    decode_many on the same data, and encode_arrow in two threads."""
    try:
        import pyarrow as pa
    except ImportError:
        print("(pyarrow not installed: no Arrow rows)")
        return
    table = arrow_rows(pa, rows, [pa.string(), pa.int64()])
    scalar = scalar_rows(n // 4)
    scalar_types = [
        pa.string(), pa.int64(), pa.uint64(), pa.int32(), pa.uint32(), pa.float64(), pa.float32(),
        pa.bool_(), pa.binary(), pa.timestamp("ms", tz="UTC"), pa.uuid(), pa.decimal128(38, 2),
    ]  # fmt: skip
    scalar_table = arrow_rows(pa, scalar, scalar_types)
    for fmt, spec, data, t in [
        ("hex", "str,i64", rows, table),
        ("binary", "str,i64", rows, table),
        ("hex", SCALARS, scalar, scalar_table),
    ]:
        s = lexikey.Schema(spec, fmt)
        m = len(data)
        keys = s.encode_many(data)
        assert pa.array(s.encode_arrow(t)).to_pylist() == keys, "encode_arrow == encode_many"
        name = spec if len(spec) < 20 else "every scalar"
        fields = spec.count(",") + 1
        show(f"encode_many {fmt} {name}", m, best_of(RUNS, lambda: s.encode_many(data)), fields)
        show(f"encode_arrow {fmt} {name}", m, best_of(RUNS, lambda: s.encode_arrow(t)), fields)
        if spec == "str,i64" and fmt == "hex":
            arrow_keys = pa.array(s.encode_arrow(t))
            assert pa.table(s.decode_arrow(arrow_keys)).cast(t.schema).equals(t), "decode_arrow(encode_arrow(t)) == t"
            show(f"decode_many {fmt} {name}", m, best_of(RUNS, lambda: s.decode_many(keys)), fields)
            show(f"decode_arrow {fmt} {name}", m, best_of(RUNS, lambda: s.decode_arrow(arrow_keys)), fields)
    s = lexikey.Schema("str,i64")
    one = min(in_threads(1, lambda: s.encode_arrow(table)) for _ in range(RUNS))
    two = min(in_threads(2, lambda: s.encode_arrow(table)) for _ in range(RUNS))
    print(f"encode_arrow hex str,i64, 1 thread   {n / one:>12,.0f} rows/s wall")
    print(f"encode_arrow hex str,i64, 2 threads  {2 * n / two:>12,.0f} rows/s wall ({one * 2 / two:.2f}x one thread)")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rows: List[Tuple[str, int]] = [(f"city {i % 5000}", i * 7919 - 4_000_000_000) for i in range(n)]
    print(f"lexikey {lexikey.__version__} from {os.path.dirname(lexikey.__file__)}")
    print(f"rows: {n:,}; load average {os.getloadavg()[0]:.1f} (1 min); best of {RUNS}")

    hex_schema = lexikey.Schema("str,i64")
    sample = rows[:1000] + [("a#b%c", -(2**63)), ("", 2**63 - 1)]
    assert hex_schema.encode_many(sample) == [python_hex_key(s, v) for s, v in sample]

    cases: List[Tuple[str, str, Sequence[Tuple[Any, ...]]]] = [
        ("hex", "str,i64", rows),
        ("base64", "str,i64", rows),
        ("decimal", "str,i64", rows),
        ("binary", "str,i64", rows),
        ("fdb-tuple", "str,int", rows),
        ("hbase-ordered", "text,int64", rows),
        ("phoenix", "varchar,bigint", rows),
    ]
    ts_rows = [(s, datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=v % 10**9)) for s, v in rows]
    cases.append(("hex", "str,ts", ts_rows))
    cases.append(("hex", SCALARS, scalar_rows(n // 4)))

    fdb_pack: Optional[Tuple[float, float]] = None
    fdb_encode: Optional[Tuple[float, float]] = None
    fdb_unpack: Optional[Tuple[float, float]] = None
    fdb_decode: Optional[Tuple[float, float]] = None
    for fmt, spec, data in cases:
        s = lexikey.Schema(spec, fmt)
        m = len(data)
        enc = best_of(RUNS, lambda: s.encode_many(data))
        keys = s.encode_many(data)
        assert s.decode_many(keys[:1000]) == list(data[:1000]) or spec == SCALARS
        dec = best_of(RUNS, lambda: s.decode_many(keys))
        name = spec if len(spec) < 20 else "every scalar"
        fields = spec.count(",") + 1
        show(f"encode_many {fmt} {name}", m, enc, fields)
        show(f"decode_many {fmt} {name}", m, dec, fields)
        if fmt == "fdb-tuple":
            fdb_encode, fdb_decode = enc, dec
            try:
                import fdb.tuple as ft
            except ImportError:
                print("(fdb.tuple not installed: no FoundationDB baseline)")
                continue
            assert [ft.pack(r) for r in data[:1000]] == keys[:1000]
            fdb_pack = best_of(RUNS, lambda: [ft.pack(r) for r in data])
            fdb_unpack = best_of(RUNS, lambda: [ft.unpack(k) for k in keys])
            show("fdb.tuple.pack (FoundationDB's)", m, fdb_pack)
            show("fdb.tuple.unpack (FoundationDB's)", m, fdb_unpack)

    base = best_of(RUNS, lambda: [python_hex_key(s, v) for s, v in rows])
    ours = best_of(RUNS, lambda: hex_schema.encode_many(rows))
    show("pure-Python hex keys", n, base)
    print(f"hex encode_many vs pure Python: {base[0] / ours[0]:.1f}x wall, {base[1] / ours[1]:.1f}x CPU")
    if fdb_pack and fdb_encode and fdb_unpack and fdb_decode:
        print(
            f"fdb-tuple encode_many vs fdb.tuple.pack: {fdb_pack[0] / fdb_encode[0]:.1f}x wall, "
            f"{fdb_pack[1] / fdb_encode[1]:.1f}x CPU; decode_many vs unpack: "
            f"{fdb_unpack[0] / fdb_decode[0]:.1f}x wall, {fdb_unpack[1] / fdb_decode[1]:.1f}x CPU"
        )
    bench_arrow(n, rows)


if __name__ == "__main__":
    main()
