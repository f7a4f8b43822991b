#!/usr/bin/env python3
"""Compare two flux-run results files and their CSVs, all but wall time.

    compare-results.py A.json B.json

The results JSON must be equal field by field except sim.wall_s (wall time)
and sim.events (the event count: a run split over MPI processes executes
extra events of its own, to hand frames and notices over); every CSV written
beside A.json must exist beside B.json with the same bytes. Prints
"IDENTICAL" or the first differences, and exits 0 or 1.
"""
import glob
import json
import os
import sys

IGNORED = {("sim", "wall_s"), ("sim", "events")}


def load(path):
    with open(path) as f:
        data = json.load(f)
    for section, key in IGNORED:
        data.get(section, {}).pop(key, None)
    return data


def diff(x, y, path=""):
    if type(x) is not type(y):
        return [f"{path}: {x!r} != {y!r}"]
    if isinstance(x, dict):
        out = []
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append(f"{path}.{k}: only in one")
            else:
                out += diff(x[k], y[k], f"{path}.{k}")
        return out
    if isinstance(x, list):
        out = [] if len(x) == len(y) else [f"{path}: {len(x)} items != {len(y)}"]
        for i, (p, q) in enumerate(zip(x, y)):
            out += diff(p, q, f"{path}[{i}]")
        return out
    return [] if x == y else [f"{path}: {x!r} != {y!r}"]


def main():
    a, b = sys.argv[1], sys.argv[2]
    out = diff(load(a), load(b))
    stem_a, stem_b = a[: -len(".json")], b[: -len(".json")]
    for csv_a in sorted(glob.glob(stem_a + "-*.csv")):
        csv_b = stem_b + csv_a[len(stem_a):]
        if not os.path.exists(csv_b):
            out.append(f"{os.path.basename(csv_b)}: missing")
        elif open(csv_a, "rb").read() != open(csv_b, "rb").read():
            out.append(f"{os.path.basename(csv_a)} and {os.path.basename(csv_b)} differ")
    if out:
        print(f"{len(out)} differences between {a} and {b}:")
        print("\n".join(out[:20]))
        return 1
    print("IDENTICAL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
