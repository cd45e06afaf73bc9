#!/usr/bin/env python3
"""Prints the ns/value table of the last `cargo bench --bench formats` run.

Reads target/criterion/**/new/{benchmark,estimates}.json (criterion's own
output), divides each median by the batch size (Throughput::Elements), and
prints, per group and value type: every implementation's ns/value, its ratio
to the naive baseline, to the copy floor and to the best peer
(storekey, memcomparable, fdb_tuple) of the same group and type.

With --min, the fastest sample (per-iteration mean of one sample) replaces
the median: on a shared, noisy machine it is the figure least disturbed by
other processes.

Usage: python3 benches/table.py [--min] [target/criterion]
"""
import json
import os
import sys

MIN = "--min" in sys.argv
PEERS = ("storekey", "storekey_borrowed", "memcomparable", "fdb_tuple")


def load(root):
    rows = {}
    for dirpath, _, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        n = (bench.get("throughput") or {}).get("Elements", 1)
        if MIN:
            with open(os.path.join(dirpath, "sample.json")) as f:
                sample = json.load(f)
            best = min(t / i for t, i in zip(sample["times"], sample["iters"]))
            est = {"median": {"point_estimate": best}}
        ty, _, impl = bench["function_id"].partition("/")
        rows.setdefault(bench["group_id"], {}).setdefault(ty, {})[impl] = (
            est["median"]["point_estimate"] / n
        )
    return rows


def main():
    args = [a for a in sys.argv[1:] if a != "--min"]
    root = args[0] if args else "target/criterion"
    rows = load(root)
    order = ["hex", "b64", "decimal", "binary", "tuple"]
    groups = sorted(rows, key=lambda g: (order.index(g.split("/")[0]) if g.split("/")[0] in order else 9, g))
    print("| group | values | implementation | ns/value | × naive | × copy floor | × best peer |")
    print("|---|---|---|---:|---:|---:|---:|")
    for g in groups:
        for ty in sorted(rows[g]):
            impls = rows[g][ty]
            naive = next((v for k, v in impls.items() if k.startswith("naive")), None)
            floor = impls.get("copy_floor")
            peers = [v for k, v in impls.items() if k in PEERS]
            best = min(peers) if peers else None
            for impl, ns in sorted(impls.items(), key=lambda kv: kv[1]):
                def ratio(base):
                    return f"{ns / base:.2f}" if base else ""
                print(f"| {g} | {ty} | {impl} | {ns:.2f} | {ratio(naive)} | {ratio(floor)} | {ratio(best)} |")


if __name__ == "__main__":
    main()
