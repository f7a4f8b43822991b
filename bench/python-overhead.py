#!/usr/bin/python3
"""What calling the simulator through Python costs, compared to flux-run.

    /usr/bin/python3 bench/python-overhead.py [--build build] [--scenario FILE]
                                              [--reps 7] [--json OUT.json]

Runs the same scenario alternately through build/flux-run (a new process
each time: start-up, library loading, the run, writing the results and CSV
files) and through ns3flux.run() in this process (the run and the conversion
of the results to Python, records included), after one warm-up run of each.
The order alternates each repetition so that drifts of the machine's load
hit both alike. Reports median wall-clock times and

    overhead = median(ns3flux.run) / median(flux-run) - 1

the same ratio of CPU time (flux-run: the child's user+system time;
ns3flux.run: this process's), which the load of a shared machine disturbs
far less than wall-clock time, and, as a finer view, each path's wall time
beyond the simulation itself (results' sim.wall_s, measured inside the
runner): the process or binding cost on its own. The default scenario is
the test scenario scaled to a few seconds per run. This is a measurement,
not a test: it passes or fails nothing (the target is an overhead below
2 %). Run it on an idle machine for meaningful wall-clock numbers.
"""

import argparse
import atexit
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DEFAULT_SCENARIO = {
    "seed": 1,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
    "jobs": [
        {"name": "a", "ranks": 4, "placement": "spread", "bytes": 16000000, "compute_ms": 1,
         "iterations": 6},
        {"name": "b", "ranks": 4, "placement": "packed", "bytes": 16000000, "compute_ms": 1,
         "iterations": 6},
    ],
    "background": [{"name": "rpc", "cdf": "websearch", "load": 0.2, "hosts": [0, 4]}],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="standalone build folder (default: build)")
    ap.add_argument("--scenario", help="scenario file (default: the scaled test scenario)")
    ap.add_argument("--reps", type=int, default=7, help="timed runs of each kind (default 7)")
    ap.add_argument("--json", help="also write the measurements to this file")
    args = ap.parse_args()
    if args.reps < 1:
        ap.error("--reps: at least 1")
    if not os.access(os.path.join(args.build, "flux-run"), os.X_OK):
        ap.error(f"--build: no flux-run in {args.build} (build first)")

    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import ns3flux

    flux_run = os.path.join(build, "flux-run")
    tmp = tempfile.mkdtemp(prefix="flux-bench-")
    atexit.register(shutil.rmtree, tmp, True)
    if args.scenario:
        scenario = os.path.abspath(args.scenario)
    else:
        scenario = os.path.join(tmp, "scenario.json")
        with open(scenario, "w") as f:
            json.dump(DEFAULT_SCENARIO, f, indent=2)
    out = os.path.join(tmp, "results.json")

    def children_cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def cli():
        c0 = children_cpu()
        t0 = time.perf_counter()
        proc = subprocess.run([flux_run, scenario, "--out", out, "--quiet"],
                              capture_output=True, text=True)
        wall = time.perf_counter() - t0
        cpu = children_cpu() - c0
        if proc.returncode != 0:
            sys.exit(f"flux-run failed ({proc.returncode}): {proc.stderr.strip()}")
        with open(out) as f:
            return wall, cpu, json.load(f)["sim"]["wall_s"]

    def py():
        c0 = time.process_time()
        t0 = time.perf_counter()
        res = ns3flux.run(scenario)
        wall = time.perf_counter() - t0
        return wall, time.process_time() - c0, res["sim"]["wall_s"]

    cli()
    py()
    times = {"flux-run": [], "ns3flux.run": []}
    cpus = {"flux-run": [], "ns3flux.run": []}
    inner = {"flux-run": [], "ns3flux.run": []}
    for rep in range(args.reps):
        order = [("flux-run", cli), ("ns3flux.run", py)]
        if rep % 2:
            order.reverse()
        for name, fn in order:
            wall, cpu, sim_wall = fn()
            times[name].append(wall)
            cpus[name].append(cpu)
            inner[name].append(sim_wall)
        print(f"rep {rep + 1}/{args.reps}: flux-run {times['flux-run'][-1]:.3f} s, "
              f"ns3flux.run {times['ns3flux.run'][-1]:.3f} s", file=sys.stderr)

    med = {k: statistics.median(v) for k, v in times.items()}
    extra = {k: statistics.median([w - s for w, s in zip(times[k], inner[k])]) for k in times}
    overhead = med["ns3flux.run"] / med["flux-run"] - 1
    med_cpu = {k: statistics.median(v) for k, v in cpus.items()}
    overhead_cpu = med_cpu["ns3flux.run"] / med_cpu["flux-run"] - 1
    report = {
        "scenario": args.scenario or "default (test scenario scaled)",
        "reps": args.reps,
        "median_wall_s": med,
        "median_beyond_simulation_s": extra,
        "overhead": overhead,
        "median_cpu_s": med_cpu,
        "overhead_cpu": overhead_cpu,
        "wall_s": times,
        "cpu_s": cpus,
        "sim_wall_s": inner,
        "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
    }
    print(f"scenario: {report['scenario']}, {args.reps} runs each, "
          f"simulation ~{statistics.median(inner['flux-run']):.2f} s")
    print(f"  flux-run     median wall {med['flux-run']:.3f} s "
          f"(beyond the simulation: {extra['flux-run'] * 1e3:.1f} ms)")
    print(f"  ns3flux.run  median wall {med['ns3flux.run']:.3f} s "
          f"(beyond the simulation: {extra['ns3flux.run'] * 1e3:.1f} ms)")
    print(f"  overhead of ns3flux.run over flux-run: {overhead * 100:+.2f} % of wall time "
          f"(target < 2 %), {overhead_cpu * 100:+.2f} % of CPU time "
          f"(flux-run {med_cpu['flux-run']:.3f} s, ns3flux.run {med_cpu['ns3flux.run']:.3f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
