#!/usr/bin/python3
"""Scaling study of flux: cost per packet-hop, events per second and memory
from 16 to 1024 hosts, on leaf-spine and fat-tree fabrics, against the bare
ns-3 forwarding baseline built at the same size.

    bench/run-scaling.py [-n N] [-b BUILD] [--base BUILD2] [--parts P,...]
                         [--sizes 16,64,256,1024] [--topologies leaf-spine,fat-tree]
                         [--hops HOPS] [--bytes B] [--sweep-bytes B,...]
                         [--sweep-size H] [--out DIR] [--write-scenarios DIR]

Parts (--parts, default fabric,scenario,bytes; htsim on request):

  fabric    build/bench/fabric-bench in flux and baseline mode, alternately,
            N times per size and topology (a permutation of paced flows,
            one flow per link on the fat-tree; about HOPS data packet-hops
            per run). Per size: medians of the wall and CPU time per
            packet-hop, the ratio flux / baseline counting every frame
            (data, ACK, PFC) and counting data packet-hops only (medians over
            the alternating pairs of runs), events per second, peak memory
            and memory per host.
  scenario  build/flux-run on a generated multi-tenant scenario per size and
            topology: 8 training tenants of H/8 ranks each, placed at random,
            each allreducing --bytes once (ring). Wall time, events per
            second, time per packet-hop (every frame, data frames only), peak
            resident memory and memory per host, and the ratio of the time
            per hop to the fabric part's baseline at the same size.
  bytes     the scenario of --sweep-size hosts (fat-tree when that size is
            one, else leaf-spine) with each of --sweep-bytes.
  htsim     fabric-bench on the k = 4 / 8 / 16 fat-trees (16, 128 and 1024
            hosts) beside htsim: flux's CPU time per hop over the bare
            forwarder's, measured here, times the bare forwarder's time per
            hop measured side by side with htsim on one two-core machine
            (HTSIM_REFERENCE), gives flux's time on that machine, which is
            set beside htsim's, per data packet-hop and per packet-hop.
            These three sizes are htsim's measurements: --sizes and
            --topologies do not apply.

With --base BUILD2 the scenario and bytes parts also run the flux-run of
that build (e.g. an older commit), interleaved with BUILD's, check that both
write the same results (wall-time fields aside) and print the speed-up.

Each part ends with a least-squares fit of the cost per hop against
log2(hosts): the growth of the cost per doubling of the fabric.

Raw runs go to DIR (default: a temporary folder) as one JSON line per run
(runs.jsonl); the summary tables go to stdout. The study measures; it exits
0 whatever the figures are (1 when a run fails).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Fabric shapes per host count: leaf-spine (leaves, spines, hosts per leaf,
# buffer MB) and fat-tree arity k (k^3/4 hosts: the nearest to the size).
LEAF_SPINE = {
    16: (4, 2, 4, 16),
    32: (4, 2, 8, 16),
    64: (8, 4, 8, 16),
    128: (8, 4, 16, 16),
    256: (16, 8, 16, 16),
    512: (32, 8, 16, 16),
    1024: (32, 16, 32, 32),
}
FAT_TREE_K = {16: 4, 32: 4, 64: 6, 128: 8, 256: 10, 512: 12, 1024: 16}

# Per fat-tree k: the bare ns-3 forwarder's and htsim's (Broadcom csg-htsim,
# htsim_roce: PFC, no Ethernet/IP headers, an ACK per packet) times, us per
# packet-hop and htsim's per data packet-hop, measured side by side on one
# two-core machine with the permutation traffic of fabric-bench.
HTSIM_REFERENCE = {
    4: {"bare": 0.72, "htsim_hop": 0.32, "htsim_data_hop": 0.65},
    8: {"bare": 1.31, "htsim_hop": 0.62, "htsim_data_hop": 1.25},
    16: {"bare": 2.61, "htsim_hop": 1.93, "htsim_data_hop": 3.86},
}


def shape(topology, size):
    """(hosts, description, fabric-bench options, scenario topology) of a size."""
    if topology == "fat-tree":
        k = FAT_TREE_K[size]
        hosts = k * k * k // 4
        return (hosts, "fat-tree k=%d" % k,
                ["--topology=fat-tree", "--k=%d" % k],
                {"kind": "fat-tree", "k": k, "buffer_mb": 16})
    leaves, spines, per_leaf, buffer_mb = LEAF_SPINE[size]
    hosts = leaves * per_leaf
    return (hosts, "leaf-spine %dx%dx%d" % (leaves, spines, per_leaf),
            ["--topology=leaf-spine", "--leaves=%d" % leaves, "--spines=%d" % spines,
             "--hostsPerLeaf=%d" % per_leaf, "--bufferMb=%g" % buffer_mb],
            {"kind": "leaf-spine", "leaves": leaves, "spines": spines,
             "hosts_per_leaf": per_leaf, "buffer_mb": buffer_mb})


def scenario(topology, size, nbytes, tenants=8):
    """The multi-tenant scenario of a size: tenants x hosts/tenants ranks, random placement."""
    hosts, desc, _, topo = shape(topology, size)
    ranks = hosts // tenants
    topo = dict(topo, host_gbps=100, fabric_gbps=100, link_delay_us=1)
    return {
        "description": "Scale benchmark: a %s fabric (%d hosts, 100 Gb/s links) shared by %d "
                       "training tenants of %d ranks each, placed at random, each allreducing "
                       "%d bytes once (ring). Generated by bench/run-scaling.py."
                       % (desc, hosts, tenants, ranks, nbytes),
        "seed": 1,
        "stop_ms": 1000,
        "topology": topo,
        "transport": {"mtu_bytes": 4096, "cc": "dcqcn", "pfc": True},
        "scheduler": {"policy": "fifo"},
        "jobs": [{"name": "t%d" % i, "ranks": ranks, "placement": "random",
                  "bytes": nbytes, "iterations": 1} for i in range(tenants)],
    }


def run(cmd, env=None):
    """Run a command; return (exit status, stdout, stderr, wall-clock s)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate()
    return proc.returncode, out.decode(), err.decode(), time.monotonic() - t0


def run_measured(cmd, env=None):
    """Run with /usr/bin/time for the child's own peak RSS and CPU time."""
    timed = ["/usr/bin/time", "-f", "rusage user=%U sys=%S maxrss_kb=%M"] + cmd
    rc, out, err, wall = run(timed, env)
    usage = {}
    for line in err.splitlines():
        if line.startswith("rusage "):
            for kv in line.split()[1:]:
                k, v = kv.split("=")
                usage[k] = float(v)
    return rc, out, err, wall, usage


def kv_line(text, prefix=""):
    """Parse the last 'key=value ...' line that starts with prefix."""
    found = {}
    for line in text.splitlines():
        if line.startswith(prefix) and "=" in line:
            found = {}
            for tok in line[len(prefix):].split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    try:
                        found[k] = float(v)
                    except ValueError:
                        found[k] = v
    return found


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def fit_log2(points):
    """Least squares y = a + b log2(x); returns (a, b, r2)."""
    pts = [(math.log2(x), y) for x, y in points if y == y and x > 0]
    if len(pts) < 2:
        return float("nan"), float("nan"), float("nan")
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
    b = sxy / sxx if sxx > 0 else float("nan")
    a = my - b * mx
    ss_tot = sum((p[1] - my) ** 2 for p in pts)
    ss_res = sum((p[1] - a - b * p[0]) ** 2 for p in pts)
    r2 = 1 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return a, b, r2


def print_fit(label, points):
    a, b, r2 = fit_log2(points)
    print("fit: %s = %.3f + %.3f x log2(hosts) (R^2 %.2f): %+.3f per doubling"
          % (label, a, b, r2, b))


def fabric_part(args, log, topologies=None, sizes=None):
    """fabric-bench in both modes per topology and size (default: the arguments')."""
    topologies = topologies or args.topologies
    sizes = sizes or args.sizes
    print("\n## fabric-bench: flux vs bare ns-3 forwarding at the same size\n")
    bench = os.path.join(args.build, "bench", "fabric-bench")
    results = {}
    print("| topology | hosts | flux us/hop (all / data) | baseline us/hop | ratio all | ratio data "
          "| CPU ratio all / data | flux events/s | flux KB/host | baseline KB/host |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for topology in topologies:
        for size in sizes:
            hosts, desc, opts, _ = shape(topology, size)
            hops_per_flow = 6 if topology == "fat-tree" else 4
            packets = max(50, int(args.hops / (hosts * hops_per_flow)))
            runs = {"flux": [], "baseline": []}
            for i in range(args.n):
                for mode in ("flux", "baseline"):
                    cmd = [bench, "--mode=" + mode, "--packets=%d" % packets] + opts
                    rc, out, err, wall = run(cmd)
                    if rc != 0:
                        sys.exit("run-scaling: %s failed: %s" % (" ".join(cmd), err.strip()))
                    m = kv_line(out, "mode=" + mode + " ")
                    m["data_us_per_hop"] = m["wall_s"] * 1e6 / m["data_hops"]
                    m["cpu_data_us_per_hop"] = m["cpu_s"] * 1e6 / m["data_hops"]
                    runs[mode].append(m)
                    log.write(json.dumps({"part": "fabric", "topology": topology, "hosts": hosts,
                                          "mode": mode, "run": i, **m}) + "\n")
                    log.flush()
            f = {k: median([r[k] for r in runs["flux"]]) for k in runs["flux"][0]
                 if isinstance(runs["flux"][0][k], float)}
            b = {k: median([r[k] for r in runs["baseline"]]) for k in runs["baseline"][0]
                 if isinstance(runs["baseline"][0][k], float)}
            # Each ratio is the median over the alternating pairs (a flux run
            # over the baseline run right after it): a machine whose speed
            # drifts during the study moves both runs of a pair alike.
            def pairs(num, den):
                return median([fr[num] / br[den]
                               for fr, br in zip(runs["flux"], runs["baseline"])])
            res = {
                "hosts": hosts, "desc": desc, "flux": f, "baseline": b,
                "ratio_all": pairs("us_per_hop", "us_per_hop"),
                "ratio_data": pairs("data_us_per_hop", "us_per_hop"),
                "cpu_ratio_all": pairs("cpu_us_per_hop", "cpu_us_per_hop"),
                "cpu_ratio_data": pairs("cpu_data_us_per_hop", "cpu_us_per_hop"),
            }
            results[(topology, size)] = res
            print("| %s | %d | %.3f / %.3f | %.3f | %.2f | %.2f | %.2f / %.2f | %.0f k | %.1f | %.1f |"
                  % (desc, hosts, f["us_per_hop"], f["data_us_per_hop"], b["us_per_hop"],
                     res["ratio_all"], res["ratio_data"], res["cpu_ratio_all"],
                     res["cpu_ratio_data"], f["events_per_s"] / 1e3, f["kb_per_host"],
                     b["kb_per_host"]))
            sys.stdout.flush()
    for topology in topologies:
        pts = [(r["hosts"], r) for (t, _), r in results.items() if t == topology]
        if len(pts) < 2:
            continue
        print_fit(topology + " flux CPU us/hop", [(h, r["flux"]["cpu_us_per_hop"]) for h, r in pts])
        print_fit(topology + " baseline CPU us/hop",
                  [(h, r["baseline"]["cpu_us_per_hop"]) for h, r in pts])
        print_fit(topology + " CPU ratio (all frames)", [(h, r["cpu_ratio_all"]) for h, r in pts])
        print_fit(topology + " wall ratio (all frames)", [(h, r["ratio_all"]) for h, r in pts])
    return results


def htsim_part(args, log):
    """flux beside htsim on the reference machine, through the bare forwarder."""
    sizes = {4: 16, 8: 128, 16: 1024}
    fabric = fabric_part(args, log, ["fat-tree"], [sizes[k] for k in sorted(HTSIM_REFERENCE)])
    print("\n## flux beside htsim (us per hop on the reference machine: flux / bare here "
          "x the bare forwarder there)\n")
    print("| fat-tree | hosts | flux/bare per data hop | flux per data hop | htsim per data hop "
          "| flux/htsim (data) | flux per hop | htsim per hop | flux/htsim (all frames) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    worst = 0.0
    for k in sorted(HTSIM_REFERENCE):
        ref = HTSIM_REFERENCE[k]
        r = fabric[("fat-tree", sizes[k])]
        data = r["cpu_ratio_data"] * ref["bare"]
        hop = r["cpu_ratio_all"] * ref["bare"]
        worst = max(worst, data / ref["htsim_data_hop"])
        print("| k=%d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
              % (k, r["hosts"], r["cpu_ratio_data"], data, ref["htsim_data_hop"],
                 data / ref["htsim_data_hop"], hop, ref["htsim_hop"], hop / ref["htsim_hop"]))
    print("\nlargest flux/htsim per data packet-hop: %.2f" % worst)


def flux_run(build, path, out_json, log, meta):
    exe = os.path.join(build, "flux-run")
    env = dict(os.environ, FLUX_TIMING="1")
    rc, out, err, wall, usage = run_measured([exe, path, "--out", out_json, "--quiet"], env)
    if rc != 0:
        sys.exit("run-scaling: %s %s failed: %s" % (exe, path, err.strip()))
    t = kv_line(err, "flux-run: timing ")
    with open(out_json) as fh:
        res = json.load(fh)
    m = {
        "wall_s": wall, "run_s": t.get("run_s"), "build_s": t.get("build_s"),
        "cpu_s": usage.get("user", 0) + usage.get("sys", 0),
        "maxrss_kb": usage.get("maxrss_kb"), "events": res["sim"]["events"],
        "sim_ms": res["sim"]["simulated_ms"], "frames": t.get("frames"),
        "data_frames": t.get("data_frames"),
        # CPU time of Simulator::Run() (older builds: of the process minus building)
        "run_cpu_s": t.get("run_cpu_s", usage.get("user", 0) + usage.get("sys", 0)
                           - t.get("build_s", 0)),
    }
    if m["frames"]:
        m["us_per_hop"] = m["run_s"] * 1e6 / m["frames"]
        m["data_us_per_hop"] = m["run_s"] * 1e6 / m["data_frames"]
        m["cpu_us_per_hop"] = m["run_cpu_s"] * 1e6 / m["frames"]
    m["events_per_s"] = m["events"] / m["run_s"] if m["run_s"] else float("nan")
    log.write(json.dumps(dict(meta, **m)) + "\n")
    log.flush()
    return m, res


def strip_wall(obj):
    if isinstance(obj, dict):
        return {k: strip_wall(v) for k, v in obj.items() if k != "wall_s"}
    if isinstance(obj, list):
        return [strip_wall(v) for v in obj]
    return obj


def base_rss_kb(build, workdir):
    """Peak RSS of flux-run on the smallest scenario: libraries and type system."""
    sc = scenario("leaf-spine", 16, 64 * 1024)
    sc["stop_ms"] = 0.001
    path = os.path.join(workdir, "base-rss.json")
    with open(path, "w") as fh:
        json.dump(sc, fh)
    exe = os.path.join(build, "flux-run")
    rc, out, err, wall, usage = run_measured(
        [exe, path, "--out", os.path.join(workdir, "base-rss-results.json"), "--quiet"])
    return usage.get("maxrss_kb", 0)


def scenario_rows(args, cases, log, fabric, workdir, title):
    """Run flux-run on each (label, topology, size, bytes) case; print one row each."""
    builds = [("new", args.build)] + ([("base", args.base)] if args.base else [])
    base_rss = {tag: base_rss_kb(b, workdir) for tag, b in builds}
    print("\n## %s\n" % title)
    head = ("| case | hosts | events | sim ms | wall s | run s | events/s | us/hop all | "
            "us/hop data | CPU us/hop | ratio to baseline (CPU) | peak MB | KB/host |")
    sep = "| --- " * 13 + "|"
    if args.base:
        head += " base run s | speed-up (run, CPU) | same results |"
        sep += " --- | --- | --- |"
    print(head)
    print(sep)
    rows = []
    for label, topology, size, nbytes in cases:
        hosts = shape(topology, size)[0]
        sc = scenario(topology, size, nbytes)
        path = os.path.join(workdir, "scale-%s-%d-%d.json" % (topology, hosts, nbytes))
        with open(path, "w") as fh:
            json.dump(sc, fh, indent=1)
        ms = {tag: [] for tag, _ in builds}
        results = {}
        for i in range(args.n):
            for tag, build in builds:
                meta = {"part": "scenario", "case": label, "topology": topology, "hosts": hosts,
                        "bytes": nbytes, "build": tag, "run": i}
                m, res = flux_run(build, path, os.path.join(workdir, "res-%s.json" % tag), log, meta)
                ms[tag].append(m)
                results[tag] = strip_wall(res)
        med = {k: median([m[k] for m in ms["new"]]) for k in ms["new"][0]
               if isinstance(ms["new"][0][k], (int, float))}
        base_hop = fabric.get((topology, size), {}).get("baseline", {}).get("cpu_us_per_hop")
        ratio = med["cpu_us_per_hop"] / base_hop if base_hop else float("nan")
        kb_host = (med["maxrss_kb"] - base_rss["new"]) / hosts
        row = ("| %s | %d | %.2f M | %.2f | %.1f | %.1f | %.0f k | %.3f | %.3f | %.3f | %s | %.0f | %.1f |"
               % (label, hosts, med["events"] / 1e6, med["sim_ms"], med["wall_s"], med["run_s"],
                  med["events_per_s"] / 1e3, med["us_per_hop"], med["data_us_per_hop"],
                  med["cpu_us_per_hop"], "%.2f" % ratio if ratio == ratio else "-",
                  med["maxrss_kb"] / 1024, kb_host))
        if args.base:
            bmed = {k: median([m[k] for m in ms["base"]]) for k in ("run_s", "run_cpu_s")}
            same = results["new"] == results["base"]
            row += " %.1f | %.2fx, %.2fx | %s |" % (
                bmed["run_s"], bmed["run_s"] / med["run_s"], bmed["run_cpu_s"] / med["run_cpu_s"],
                "yes" if same else "NO")
        print(row)
        sys.stdout.flush()
        rows.append((hosts, med, kb_host))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=3, help="runs per measurement (medians)")
    ap.add_argument("-b", "--build", default=os.environ.get("FLUX_BUILD",
                                                            os.path.join(HERE, "..", "build")))
    ap.add_argument("--base", help="another build folder to compare flux-run with")
    ap.add_argument("--parts", default="fabric,scenario,bytes",
                    help="fabric, scenario, bytes, htsim (comma-separated)")
    ap.add_argument("--sizes", default="16,64,256,1024")
    ap.add_argument("--topologies", default="leaf-spine,fat-tree")
    ap.add_argument("--hops", type=float, default=2e6,
                    help="fabric part: data packet-hops per run (sets the packets per flow)")
    ap.add_argument("--bytes", type=int, default=2000000, help="scenario part: bytes per tenant")
    ap.add_argument("--sweep-bytes", default="500000,2000000,8000000")
    ap.add_argument("--sweep-size", type=int, default=256)
    ap.add_argument("--out", help="folder for the raw runs (default: a temporary one)")
    ap.add_argument("--write-scenarios", metavar="DIR",
                    help="only write the generated scenarios into DIR and exit")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("-n: at least 1 run per measurement")
    for b in ([] if args.write_scenarios else [args.build] + ([args.base] if args.base else [])):
        if not os.access(os.path.join(b, "flux-run"), os.X_OK):
            ap.error(f"-b/--base: no flux-run in {b} (build first)")
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.topologies = args.topologies.split(",")
    parts = args.parts.split(",")
    for s in args.sizes:
        if s not in LEAF_SPINE:
            ap.error("--sizes: known sizes are %s" % ",".join(map(str, sorted(LEAF_SPINE))))
    for t in args.topologies:
        if t not in ("leaf-spine", "fat-tree"):
            ap.error("--topologies: leaf-spine and/or fat-tree")
    for p in parts:
        if p not in ("fabric", "scenario", "bytes", "htsim"):
            ap.error("--parts: fabric, scenario, bytes and/or htsim (got %s)" % p)

    if args.write_scenarios:
        os.makedirs(args.write_scenarios, exist_ok=True)
        for topology in args.topologies:
            for size in args.sizes:
                hosts = shape(topology, size)[0]
                path = os.path.join(args.write_scenarios,
                                    "scale-%s-%d.json" % (topology, hosts))
                with open(path, "w") as fh:
                    json.dump(scenario(topology, size, args.bytes), fh, indent=2)
                    fh.write("\n")
                print(path)
        return 0

    workdir = args.out or tempfile.mkdtemp(prefix="flux-scaling-")
    os.makedirs(workdir, exist_ok=True)
    print("run-scaling: build %s%s, %d runs per figure, raw runs in %s/runs.jsonl"
          % (args.build, (" vs base " + args.base) if args.base else "", args.n, workdir))
    with open(os.path.join(workdir, "runs.jsonl"), "a") as log:
        fabric = fabric_part(args, log) if "fabric" in parts else {}
        if "htsim" in parts:
            htsim_part(args, log)
        if "scenario" in parts:
            cases = [("%s %d" % (t, shape(t, s)[0]), t, s, args.bytes)
                     for t in args.topologies for s in args.sizes]
            rows = scenario_rows(args, cases, log, fabric, workdir,
                                 "flux-run: 8 tenants, random placement, %d bytes each"
                                 % args.bytes)
            by_topo = {}
            for (label, t, s, _), (hosts, med, kb) in zip(cases, rows):
                by_topo.setdefault(t, []).append((hosts, med))
            for t, pts in by_topo.items():
                if len(pts) >= 2:
                    print_fit(t + " flux-run CPU us/hop", [(h, m["cpu_us_per_hop"]) for h, m in pts])
                    print_fit(t + " flux-run wall us/hop", [(h, m["us_per_hop"]) for h, m in pts])
        if "bytes" in parts:
            t = "fat-tree" if args.sweep_size in (16, 1024) else "leaf-spine"
            cases = [("%d bytes" % int(b), t, args.sweep_size, int(b))
                     for b in args.sweep_bytes.split(",")]
            scenario_rows(args, cases, log, fabric, workdir,
                          "bytes sweep: %s %d hosts" % (t, shape(t, args.sweep_size)[0]))
    if not args.out:
        print("\n(raw runs: %s)" % os.path.join(workdir, "runs.jsonl"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
