#!/usr/bin/env python3
"""Prints the slowest tests of a cargo-nextest JUnit report.

    scripts/slowest.py target/nextest/default/junit.xml [N]

One line per test, slowest first: seconds, binary, test name (N lines,
default 15). scripts/test.sh runs it after the Rust tests, so that the
slowest tests name themselves on every run.
"""

import sys
import xml.etree.ElementTree as ET


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"slowest.py: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
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


if __name__ == "__main__":
    sys.exit(main())
