#!/usr/bin/python3
"""FCT slowdown by flow size from FCT files in the HPCC simulator's format
(flux-run's <results stem>-fct.txt, or that simulator's FCT_OUTPUT_FILE).

    examples/hpcc/slowdown.py FCT.txt [FCT.txt ...] [--bins 4] [--dport 100]

As that simulator's analysis/fct_analysis.py defines it: a flow's slowdown
is fct_ns / ideal_fct_ns, 1 when below 1; flows (of destination port dport,
all with --dport -1) sorted by size and cut into bins of equal counts; per
bin the largest size, the median, p95 and p99 slowdown. One column group per
file.
"""

import argparse


def slowdowns(path, dport):
    rows = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) != 8 or (dport >= 0 and int(w[3]) != dport):
                continue
            fct, ideal = int(w[6]), int(w[7])
            rows.append((int(w[4]), max(1.0, fct / ideal)))
    return sorted(rows)


def pctl(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bins", type=int, default=4)
    ap.add_argument("--dport", type=int, default=100)
    args = ap.parse_args()
    tables = [slowdowns(p, args.dport) for p in args.files]
    print("bin  " + "  ".join(f"{'size<=':>10} {'p50':>6} {'p95':>6} {'p99':>6}" for _ in tables))
    for b in range(args.bins):
        cells = []
        for rows in tables:
            lo, hi = len(rows) * b // args.bins, len(rows) * (b + 1) // args.bins
            part = rows[lo:hi]
            if not part:
                cells.append(f"{'-':>10} {'-':>6} {'-':>6} {'-':>6}")
                continue
            s = [x[1] for x in part]
            cells.append(f"{part[-1][0]:>10} {pctl(s, .5):6.2f} {pctl(s, .95):6.2f} "
                         f"{pctl(s, .99):6.2f}")
        print(f"{b + 1:>3}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
