#!/usr/bin/python3
"""HPCC against DCQCN on the HPCC simulator's own experiment, at reduced
scale: the example fat-tree (16 hosts), WebSearch and FB_Hadoop flows at
30 % and 50 % load, each run under that simulator's run.py settings at
100 Gb/s for HPCC (config-hpcc.txt), DCQCN with a window of one BDP, the
HPCC paper's DCQCN+w (config-dcqcn-win.txt), and DCQCN (config-dcqcn.txt),
and the FCT slowdown by flow size as its analysis script defines it. As
in the paper, incasts (here 15-to-1, 500 KB per sender) add 2 % load.

    examples/hpcc/compare.py [--flux-run build/flux-run] [--flows 300] [--seed 1]
                             [--bins 4] [--incast 0.02] [--work DIR]

Prints one table per workload and load: per bin of flows sorted by size
(equal counts), the largest size and the median, p95 and p99 slowdown under
HPCC, DCQCN+w and DCQCN.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from slowdown import pctl, slowdowns  # noqa: E402

# the configurations beside this script: HPCC, DCQCN+w, DCQCN
CCS = ("hpcc", "dcqcn-win", "dcqcn")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flux-run", default=os.path.join(ROOT, "build", "flux-run"))
    ap.add_argument("--flows", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bins", type=int, default=4)
    ap.add_argument("--incast", type=float, default=0.02,
                    help="incast load beside the flows, as in the HPCC paper (0: none)")
    ap.add_argument("--work", default=None, help="keep the files here (default: a temporary folder)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="hpcc-compare-")
    os.makedirs(work, exist_ok=True)
    for cdf in ("websearch", "hadoop"):
        for load in (0.3, 0.5):
            case = os.path.join(work, f"{cdf}-{int(load * 100)}")
            os.makedirs(case, exist_ok=True)
            subprocess.run([sys.executable, os.path.join(HERE, "make-files.py"), "--cdf", cdf,
                            "--load", str(load), "--flows", str(args.flows),
                            "--seed", str(args.seed), "--incast", str(args.incast),
                            "--out", case], check=True)
            tables = []
            for cc in CCS:
                config = os.path.join(case, f"config-{cc}.txt")
                with open(os.path.join(HERE, f"config-{cc}.txt")) as f, open(config, "w") as g:
                    g.write(f.read())
                scenario = os.path.join(case, f"{cc}.json")
                with open(scenario, "w") as f:
                    json.dump({"hpcc": {"config": f"config-{cc}.txt"}}, f)
                out = os.path.join(case, f"{cc}-results.json")
                subprocess.run([args.flux_run, scenario, "--out", out, "--quiet"], check=True,
                               stderr=subprocess.DEVNULL)
                tables.append(slowdowns(out[:-5] + "-fct.txt", 100))
            print(f"{cdf} {int(load * 100)} % load, {args.flows} flows: HPCC | DCQCN+w | DCQCN")
            print("bin  " + "  ".join(f"{'size<=':>9} {'p50':>5} {'p95':>5} {'p99':>5}"
                                      for _ in tables))
            for b in range(args.bins):
                cells = []
                for rows in tables:
                    part = rows[len(rows) * b // args.bins:len(rows) * (b + 1) // args.bins]
                    s = [x[1] for x in part]
                    cells.append(f"{part[-1][0]:>9} {pctl(s, .5):5.2f} {pctl(s, .95):5.2f} "
                                 f"{pctl(s, .99):5.2f}")
                print(f"{b + 1:>3}  " + "  ".join(cells))
            print()


if __name__ == "__main__":
    main()
