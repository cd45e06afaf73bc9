#!/usr/bin/env python3
"""Prints the slowest parts of a test run or a build.

    scripts/slowest.py JUNIT_XML [N]
        the slowest tests of a cargo-nextest JUnit report
        (target/nextest/<profile>/junit.xml)
    scripts/slowest.py --cargo-timings CARGO_TIMING_HTML [N]
        the slowest compile units of `cargo build --timings`
        (target/cargo-timings/cargo-timing.html)

One line per test or unit, slowest first (N lines, default 15), and the
total. scripts/test.sh prints the slowest tests after the Rust tests, so
that they name themselves on every run; scripts/lib.sh's lexikey_build the
slowest units when LEXIKEY_BUILD_TIMINGS=1 (.ci/run).
"""

import json
import re
import sys
import xml.etree.ElementTree as ET


def junit(path: str, n: int) -> int:
    root = ET.parse(path).getroot()
    cases = [
        (float(c.get("time", "0")), c.get("classname", "?"), c.get("name", "?"))
        for c in root.iter("testcase")
    ]
    cases.sort(reverse=True)
    total = sum(t for t, _, _ in cases)
    print(f"slowest {min(n, len(cases))} of {len(cases)} tests ({total:.0f} s of test time in all):")
    for t, binary, name in cases[:n]:
        print(f"  {t:7.1f} s  {binary}  {name}")
    return 0


def cargo_timings(path: str, n: int) -> int:
    with open(path, encoding="utf-8") as f:
        html = f.read()
    m = re.search(r"const UNIT_DATA = (\[.*?\n\]);", html, re.S)
    if not m:
        print(f"slowest.py: no UNIT_DATA in {path}", file=sys.stderr)
        return 2
    units = json.loads(m.group(1))
    rows = sorted(
        ((u["duration"], f'{u["name"]} {u["version"]}{u["target"]}') for u in units), reverse=True
    )
    total = sum(d for d, _ in rows)
    end = max((u["start"] + u["duration"] for u in units), default=0)
    print(
        f"slowest {min(n, len(rows))} of {len(rows)} compile units "
        f"({total:.0f} s of compile time in all, {end:.0f} s wall):"
    )
    for d, name in rows[:n]:
        print(f"  {d:7.1f} s  {name}")
    return 0


def main() -> int:
    args = sys.argv[1:]
    mode = junit
    if args and args[0] == "--cargo-timings":
        mode = cargo_timings
        args = args[1:]
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n = int(args[1]) if len(args) > 1 else 15
    try:
        return mode(args[0], n)
    except (OSError, ET.ParseError, ValueError, KeyError) as e:
        print(f"slowest.py: cannot read {args[0]}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
