#!/usr/bin/python3
"""HPCC against DCQCN on the HPCC simulator's own experiment, at reduced
scale: the example fat-tree (16 hosts), WebSearch and FB_Hadoop flows at
30 % and 50 % load, each run under that simulator's run.py settings at
100 Gb/s for HPCC (config-hpcc.txt), DCQCN with a window of one BDP, the
HPCC paper's DCQCN+w (config-dcqcn-win.txt), and DCQCN (config-dcqcn.txt),
and the FCT slowdown by flow size as its analysis script defines it. As
in the paper, incasts (here 15-to-1, 500 KB per sender) add 2 % load.

    examples/hpcc/compare.py [--flux-run build/flux-run] [--flows 1000]
                             [--hadoop-flows N] [--seeds 8] [--bins 4]
                             [--incast 0.02] [--jobs 2] [--work DIR]
                             [--report-only] [--doc]

FB_Hadoop runs as many flows as offer WebSearch's bytes (its mean flow is
about fourteen times smaller), so that both cases span the same time;
every case runs with seeds 1 ... SEEDS. Prints one table per workload and
load, over the flows of every seed: per bin of flows sorted by size (equal
counts), the largest size and the median, p95 and p99 slowdown under HPCC,
DCQCN+w and DCQCN; then the p95 of the shortest bin per seed as a mean
with its 95 % confidence interval, and whether the paper's ordering
HPCC < DCQCN+w < DCQCN holds, judged on the per-seed differences (the
three run the same flows). --doc writes the shortest bin's p95 and
the ordering per case, as a table, into doc/hpcc-import.rst between its
"hpcc-compare" markers; --report-only
reads the FCT files of an earlier run in --work instead of running.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from slowdown import pctl, slowdowns  # noqa: E402
from stats import ci95  # noqa: E402  (scripts/stats.py)

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("make_files", os.path.join(HERE, "make-files.py"))
make_files = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_files)

# the configurations beside this script: HPCC, DCQCN+w, DCQCN
CCS = ("hpcc", "dcqcn-win", "dcqcn")
NAMES = ("HPCC", "DCQCN+w", "DCQCN")
DOC = os.path.join(ROOT, "doc", "hpcc-import.rst")
BEGIN = ".. hpcc-compare begin (written by examples/hpcc/compare.py --doc)"
END = ".. hpcc-compare end"


def run_case(args, cdf, load, flows, seed):
    """Write one case's files, run it under the three configurations and
    return the three FCT files' slowdowns."""
    case = os.path.join(args.work, f"{cdf}-{int(load * 100)}-seed{seed}")
    if args.report_only:
        return [slowdowns(os.path.join(case, f"{cc}-results-fct.txt"), 100) for cc in CCS]
    os.makedirs(case, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(HERE, "make-files.py"), "--cdf", cdf,
                    "--load", str(load), "--flows", str(flows), "--seed", str(seed),
                    "--incast", str(args.incast), "--out", case],
                   check=True, stdout=subprocess.DEVNULL)
    tables = []
    for cc in CCS:
        with open(os.path.join(HERE, f"config-{cc}.txt")) as f, \
                open(os.path.join(case, f"config-{cc}.txt"), "w") as g:
            g.write(f.read())
        scenario = os.path.join(case, f"{cc}.json")
        with open(scenario, "w") as f:
            json.dump({"hpcc": {"config": f"config-{cc}.txt"}}, f)
        out = os.path.join(case, f"{cc}-results.json")
        subprocess.run([args.flux_run, scenario, "--out", out, "--quiet"], check=True,
                       stderr=subprocess.DEVNULL)
        tables.append(slowdowns(out[:-5] + "-fct.txt", 100))
    return tables


def shortest_p95(rows, bins):
    part = rows[:max(1, len(rows) // bins)]
    return pctl([x[1] for x in part], .95)


def report(cdf, load, flows, seeds, per_seed, bins):
    lines = [f"{cdf} {int(load * 100)} % load, {flows} flows x {seeds} seeds: "
             + " | ".join(NAMES)]
    pooled = [sorted(r for tables in per_seed for r in tables[i]) for i in range(len(CCS))]
    lines.append("bin  " + "  ".join(f"{'size<=':>9} {'p50':>5} {'p95':>5} {'p99':>5}"
                                     for _ in CCS))
    for b in range(bins):
        cells = []
        for rows in pooled:
            part = rows[len(rows) * b // bins:len(rows) * (b + 1) // bins]
            s = [x[1] for x in part]
            cells.append(f"{part[-1][0]:>9} {pctl(s, .5):5.2f} {pctl(s, .95):5.2f} "
                         f"{pctl(s, .99):5.2f}")
        lines.append(f"{b + 1:>3}  " + "  ".join(cells))
    stats, verdicts = shortest_stats(per_seed, bins)
    lines.append("p95 of the shortest bin, mean over seeds +- 95 % CI: "
                 + " | ".join(f"{n} {m:.2f} +- {h:.2f}" if h is not None else f"{n} {m:.2f}"
                              for n, (m, h, _) in zip(NAMES, stats)))
    lines.append("ordering: " + "; ".join(f"{NAMES[a]} < {NAMES[b]}: {v}"
                                          for (a, b), v in zip(ORDER, verdicts)))
    return lines


ORDER = ((0, 1), (1, 2))


def shortest_stats(per_seed, bins):
    """The p95 of the shortest bin per configuration, as (mean, half-width,
    n) over the seeds, and whether the paper's ordering holds per pair. The
    configurations run the same flows per seed, so an ordering is judged on
    the per-seed differences: "yes" when their 95 % interval lies above
    zero, "yes, within the noise" when only their mean does."""
    p95 = [[shortest_p95(tables[i], bins) for tables in per_seed] for i in range(len(CCS))]
    stats = [ci95(values) for values in p95]
    verdicts = []
    for (a, b) in ORDER:
        m, h, _ = ci95([y - x for x, y in zip(p95[a], p95[b])])
        gap = f"by {m:.2f} ± {h:.2f}" if h is not None else f"by {m:.2f}"
        if m <= 0:
            verdicts.append(f"no ({gap})")
        elif h is None or m - h <= 0:
            verdicts.append(f"yes, within the noise ({gap})")
        else:
            verdicts.append(f"yes ({gap})")
    return stats, verdicts


def doc_table(rows, seeds, bins):
    """The manual's table: per case the p95 of the shortest bin and the
    ordering. rows: (cdf, load, flows, stats, verdicts)."""
    def cell(m, h):
        return f"{m:.2f} ± {h:.2f}" if h is not None else f"{m:.2f}"
    head = ["workload, load", "flows"] + list(NAMES) + [f"{NAMES[a]} < {NAMES[b]}"
                                                    for a, b in ORDER]
    q = lambda cells: ", ".join(f'"{c}"' for c in cells)  # noqa: E731
    lines = [f".. csv-table:: p95 FCT slowdown of the shortest 1/{bins} of the flows "
             f"(mean over {seeds} seeds ± 95 % CI) and the paper's ordering",
             "   :header: " + q(head), ""]
    for cdf, load, flows, stats, verdicts in rows:
        lines.append("   " + q([f"{cdf} {int(load * 100)} %", str(flows)]
                               + [cell(m, h) for m, h, _ in stats] + verdicts))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flux-run", default=os.path.join(ROOT, "build", "flux-run"))
    ap.add_argument("--flows", type=int, default=1000, help="WebSearch flows per case")
    ap.add_argument("--hadoop-flows", type=int, default=None,
                    help="FB_Hadoop flows per case (default: WebSearch's bytes)")
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--bins", type=int, default=4)
    ap.add_argument("--incast", type=float, default=0.02,
                    help="incast load beside the flows, as in the HPCC paper (0: none)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once")
    ap.add_argument("--work", default=None, help="keep the files here (default: a temporary folder)")
    ap.add_argument("--report-only", action="store_true",
                    help="read the FCT files already in --work")
    ap.add_argument("--doc", action="store_true")
    args = ap.parse_args()
    if args.report_only and not args.work:
        ap.error("--report-only needs --work")
    args.work = args.work or tempfile.mkdtemp(prefix="hpcc-compare-")
    os.makedirs(args.work, exist_ok=True)
    hadoop = args.hadoop_flows or round(args.flows * make_files.mean_size(make_files.WEBSEARCH)
                                        / make_files.mean_size(make_files.HADOOP))
    cases = [(cdf, load, args.flows if cdf == "websearch" else hadoop)
             for cdf in ("websearch", "hadoop") for load in (0.3, 0.5)]
    seeds = range(1, args.seeds + 1)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_case, args, cdf, load, flows, seed): (cdf, load, seed)
                   for cdf, load, flows in cases for seed in seeds}
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            cdf, load, seed = futures[fut]
            print(f"[{done}/{len(futures)}] {cdf} {int(load * 100)} % seed {seed}",
                  file=sys.stderr, flush=True)
    out, rows = [], []
    for cdf, load, flows in cases:
        per_seed = [results[(cdf, load, s)] for s in seeds]
        out += report(cdf, load, flows, args.seeds, per_seed, args.bins) + [""]
        rows.append((cdf, load, flows) + shortest_stats(per_seed, args.bins))
    text = "\n".join(out)
    print(text)
    if args.doc:
        with open(DOC) as f:
            doc = f.read()
        i, j = doc.index(BEGIN), doc.index(END)
        command = (f"   examples/hpcc/compare.py --flows {args.flows} --seeds {args.seeds} "
                   f"--bins {args.bins} --incast {args.incast} --doc")
        block = ("\n\n.. sourcecode:: bash\n\n" + command + "\n\n"
                 + "\n".join(doc_table(rows, args.seeds, args.bins)) + "\n\n")
        with open(DOC, "w") as f:
            f.write(doc[:i + len(BEGIN)] + block + doc[j:])


if __name__ == "__main__":
    main()
