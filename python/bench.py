"""Schema("str,i64").encode_many of 1,000,000 (str, int) rows against a
straightforward pure-Python implementation of the same hex keys.

    pip install ./python        # the release build (maturin build --release)
    python python/bench.py [ROWS]

Prints which `lexikey` it measures, rows per second for both and the ratio;
the keys are checked equal first. Targets (issue #13): >= 2,000,000 rows/s
and >= 10x the baseline.

The package measured is the installed one: this script's own directory
(python/, which Python puts first on sys.path) is taken off the path, since
python/lexikey/ holds the development build of `scripts/python.sh setup`
(cargo's `test` profile, opt-level 1) when there is one. In the
development venv that build is still the one found (its .pth file names
python/): the path printed says so.
"""

import os
import sys
import time
from typing import Callable, List, Tuple

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


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rows: List[Tuple[str, int]] = [(f"city {i % 5000}", i * 7919 - 4_000_000_000) for i in range(n)]
    schema = lexikey.Schema("str,i64")
    sample = rows[:1000] + [("a#b%c", -(2**63)), ("", 2**63 - 1)]
    assert schema.encode_many(sample) == [python_hex_key(s, v) for s, v in sample]

    def show(name: str, t: Tuple[float, float]) -> None:
        print(f"{name:28} {n / t[0]:>12,.0f} rows/s wall ({t[0]:.3f} s)   {n / t[1]:>12,.0f} rows/s CPU ({t[1]:.3f} s)")

    # The same number of runs for both: the best of RUNS.
    ours = best_of(RUNS, lambda: schema.encode_many(rows))
    base = best_of(RUNS, lambda: [python_hex_key(s, v) for s, v in rows])
    print(f"lexikey {lexikey.__version__} from {os.path.dirname(lexikey.__file__)}")
    print(f"rows: {n:,}; load average {os.getloadavg()[0]:.1f} (1 min)")
    show("lexikey Schema.encode_many", ours)
    show("pure-Python hex keys", base)
    print(f"speed-up: {base[0] / ours[0]:.1f}x wall, {base[1] / ours[1]:.1f}x CPU")
    keys = schema.encode_many(rows)
    show("lexikey Schema.decode_many", best_of(RUNS, lambda: schema.decode_many(keys)))


if __name__ == "__main__":
    main()
