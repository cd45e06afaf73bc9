#!/usr/bin/env python3
"""Prints the ns/value table of the last `cargo bench --bench formats` run.

Reads criterion's own output (target/criterion/**/new/{benchmark,estimates,
sample}.json) and divides by the batch size (Throughput::Elements). For
every group and value type it prints each implementation's median ns/value
(criterion's estimate) and its fastest sample (the best of the samples: on a
shared, noisy machine the figure least disturbed by other processes), and
the ratios to the naive baseline, to the copy floor and to the best peer
(storekey, memcomparable, foundationdb-tuple) of the same group and type.

Ratios come from the medians, or with --min from the fastest samples.

Usage: python3 benches/table.py [--min] [target/criterion]
"""
import json
import os
import sys

PEERS = ("storekey", "storekey_borrowed", "memcomparable", "fdb_tuple")
ORDER = ["hex", "b64", "decimal", "binary", "tuple"]


def load(root):
    rows = {}
    for dirpath, _, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        with open(os.path.join(dirpath, "sample.json")) as f:
            sample = json.load(f)
        n = (bench.get("throughput") or {}).get("Elements", 1)
        best = min(t / i for t, i in zip(sample["times"], sample["iters"]))
        ty, _, impl = bench["function_id"].partition("/")
        rows.setdefault(bench["group_id"], {}).setdefault(ty, {})[impl] = (
            est["median"]["point_estimate"] / n,
            best / n,
        )
    return rows


def group_key(g):
    head = g.split("/")[0]
    return (ORDER.index(head) if head in ORDER else len(ORDER), g)


def main():
    args = [a for a in sys.argv[1:] if a != "--min"]
    use_min = "--min" in sys.argv
    root = args[0] if args else "target/criterion"
    rows = load(root)
    col = 1 if use_min else 0
    print("| group | values | implementation | median ns/value | fastest ns/value "
          "| × naive | × copy floor | × best peer |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for g in sorted(rows, key=group_key):
        for ty in sorted(rows[g]):
            impls = rows[g][ty]
            naive = next((v[col] for k, v in impls.items() if k.startswith("naive")), None)
            floor = impls["copy_floor"][col] if "copy_floor" in impls else None
            peers = [v[col] for k, v in impls.items() if k in PEERS]
            best = min(peers) if peers else None
            for impl, v in sorted(impls.items(), key=lambda kv: kv[1][col]):
                x = v[col]

                def ratio(base):
                    return f"{x / base:.2f}" if base else ""

                print(f"| {g} | {ty} | {impl} | {v[0]:.2f} | {v[1]:.2f} "
                      f"| {ratio(naive)} | {ratio(floor)} | {ratio(best)} |")
    basis = "fastest samples" if use_min else "medians"
    print(f"\nRatios from the {basis}.")


if __name__ == "__main__":
    main()
