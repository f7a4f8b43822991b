"""The flow-level backend (flux-run --backend flow, ns3flux.run(...,
backend="flow")): agreement with the packet level and with the alpha-beta
model where a fluid must hold, the results it leaves out (backend_limits),
its command line, determinism and delivery.

Differences are (flow - packet) / packet. scripts/flow-validate compares
the two levels on every shipped scenario (doc/flow-validation.rst)."""

import copy
import csv
import json
import math
import os
import re
import subprocess

import pandas as pd
import pytest

import ns3flux
from conftest import ROOT, SMALL, _flux_run_path, load_script, strip_wall

SCENARIOS = os.path.join(ROOT, "examples", "scenarios")

# Wire bytes of a data packet besides its payload: Ethernet with its 802.1Q
# tag, IPv4, UDP, BTH, ICRC, FCS, preamble and inter-frame gap.
HEADERS = 86


def shipped(name):
    with open(os.path.join(SCENARIOS, name + ".json")) as f:
        return json.load(f)


def run_level(flux_run, tmp_path, scenario, name, backend, *args):
    """Run a scenario dict at one level (quiet); returns (results path,
    results dict)."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(scenario))
    out = tmp_path / f"{name}-{backend}-results.json"
    proc = flux_run(path, "--backend", backend, "--out", out, "--quiet", *args)
    assert proc.returncode == 0, proc.stderr
    return out, json.loads(out.read_text())


def both(flux_run, tmp_path, scenario, name, *args):
    """The results of a scenario at packet and at flow level."""
    return (run_level(flux_run, tmp_path, scenario, name, "packet", *args)[1],
            run_level(flux_run, tmp_path, scenario, name, "flow", *args)[1])


def diff(packet, flow):
    return (flow - packet) / packet


def jcts(results):
    return {j["name"]: j["jct_ms"] for j in results["jobs"]}


def ring_allreduce_ms(hops, nbytes, mtu=4096, gbps=100.0, delay_us=1.0):
    """One ring allreduce on an idle fabric whose links all run at gbps,
    rank r sending to rank r + 1 over hops[r] links.

    Each of the 2(N - 1) steps sends one chunk of S/N bytes, ceil(S/N / mtu)
    packets of HEADERS bytes besides the payload, from a queue pair that
    sends its messages one after another at line rate. The chunk reaches
    the next rank its serialisation time after it starts, plus, on a path of
    h links, h propagation delays and the store-and-forward of its first
    packet at each of the h - 1 switches. A rank posts step k + 1 when its
    step-k chunk has arrived. The allreduce ends when the last rank has its
    last chunk: the critical path through the ring (with unequal hops not
    simply 2(N - 1) times the slowest step)."""
    n = len(hops)
    chunk = nbytes // n
    assert chunk * n == nbytes, "S must divide into N equal chunks"
    rate = gbps * 1e9
    wire_s = (chunk + math.ceil(chunk / mtu) * HEADERS) * 8 / rate
    first_s = (min(chunk, mtu) + HEADERS) * 8 / rate
    latency_s = [h * delay_us * 1e-6 + (h - 1) * first_s for h in hops]
    posted = [0.0] * n
    sent = [0.0] * n
    for _ in range(2 * (n - 1)):
        sent = [max(posted[r], sent[r]) + wire_s for r in range(n)]
        posted = [sent[r - 1] + latency_s[r - 1] for r in range(n)]
    return max(posted) * 1e3


# ----------------------------------------------------------------- (a)

# single-job.json with 3 iterations: 8 ranks on hosts 0-7 of a 2-leaf,
# 2-spine non-blocking leaf-spine, 9.8 MB, 2 ms compute.
ALONE = shipped("single-job")
ALONE["jobs"][0].update(iterations=3, hosts=list(range(8)))
del ALONE["jobs"][0]["placement"]
# Ring hops: 2 links under one leaf (host-leaf-host), 4 across the spines
# (ranks 3 -> 4 and 7 -> 0).
ALONE_HOPS = [2, 2, 2, 4, 2, 2, 2, 4]


def test_one_job_alone_matches_the_model_and_the_packet_level(flux_run, tmp_path):
    """One job alone on an idle fabric: the flow-level JCT is the alpha-beta
    model's (iterations x (compute + the ring's critical path)) within
    0.1 % (measured: under 0.001 %; the model's critical path and 14 times
    the slowest step differ by 0.8 %, so 1 % could not tell them apart),
    the packet level's within 1 % of the model (measured 0.22 %: the ACKs,
    90 wire bytes per 4 packets of 4182, take 0.54 % of the links during
    the allreduce, which is 42 % of an iteration), and the two levels within
    1 % of each other, the flow level not slower."""
    job = ALONE["jobs"][0]
    t = ALONE["topology"]
    step_ms = ring_allreduce_ms(ALONE_HOPS, job["bytes"], gbps=t["host_gbps"],
                                delay_us=t["link_delay_us"])
    model = job["iterations"] * (job["compute_ms"] + step_ms)
    packet, flow = both(flux_run, tmp_path, ALONE, "alone")
    p, f = packet["jobs"][0]["jct_ms"], flow["jobs"][0]["jct_ms"]
    assert abs(diff(model, f)) < 0.001, (f, model)
    assert abs(diff(model, p)) < 0.01, (p, model)
    assert -0.01 < diff(p, f) <= 0, (p, f)
    # Every iteration alike at flow level, each the model's.
    per_iter = job["compute_ms"] + step_ms
    assert all(abs(diff(per_iter, x)) < 0.001 for x in flow["jobs"][0]["iteration_ms"])


# ----------------------------------------------------------------- (b)


def test_two_jobs_sharing_one_link_with_dcqcn(flux_run, tmp_path):
    """contended-two-equal (two equal jobs whose rings share the one
    dumbbell link, DCQCN): each job's JCT within 5 % (measured -3.1 and
    +1.9 %: exact fair shares against DCQCN's unequal ones), the mean
    iteration within 5 %, and the worst iteration within 20 % but never
    longer at flow level (measured -13 %: the packet level's worst
    iteration is the first, where DCQCN's rates converge from line rate;
    over seeds 1-6 the JCT differs by up to 5.2 %, the worst iteration by
    up to 18 %)."""
    s = shipped("contended-two-equal")
    del s["traces"]
    packet, flow = both(flux_run, tmp_path, s, "two-equal")
    pj, fj = jcts(packet), jcts(flow)
    for name in pj:
        assert abs(diff(pj[name], fj[name])) < 0.05, (name, pj[name], fj[name])
    iters = lambda r: [x for j in r["jobs"] for x in j["iteration_ms"]]  # noqa: E731
    pi, fi = iters(packet), iters(flow)
    assert abs(diff(sum(pi) / len(pi), sum(fi) / len(fi))) < 0.05
    assert -0.20 < diff(max(pi), max(fi)) <= 0, (max(pi), max(fi))
    # The fluid's fair shares: both jobs alike, every iteration alike.
    assert len(set(fj.values())) == 1 and len(set(fi)) == 1


def test_two_jobs_sharing_one_link_with_pfc_alone(flux_run, tmp_path):
    """The same two jobs without congestion control (PFC alone keeps the
    link full, shared packet by packet): JCT and worst iteration within 3 %
    of the packet level (measured -1.5 % for both jobs, ACKs and pause
    frames sharing the link), the flow level not slower."""
    s = shipped("contended-two-equal")
    del s["traces"]
    s["transport"]["cc"] = "none"
    for j in s["jobs"]:
        j["iterations"] = 5
    packet, flow = both(flux_run, tmp_path, s, "two-equal-pfc")
    assert packet["network"]["pfc_pauses"] > 0  # the link is shared by PFC
    for pj, fj in zip(packet["jobs"], flow["jobs"]):
        assert -0.03 < diff(pj["jct_ms"], fj["jct_ms"]) <= 0, (pj["name"], pj["jct_ms"],
                                                                fj["jct_ms"])
        assert -0.03 < diff(max(pj["iteration_ms"]), max(fj["iteration_ms"])) <= 0


# ----------------------------------------------------------------- (c)

# One 4-rank job per pod pair of a k=4 fat-tree (100 Gb/s everywhere): job
# p01 on pods 0 and 1, p23 on pods 2 and 3, each ring hop from one edge
# switch to an edge switch of the other pod (6 links). Whether two hops of
# a ring meet on an aggregation or core link depends on the ECMP hash of
# the queue pairs' source ports, which the seed draws: with seed 1 p01's
# hops are disjoint and two of p23's meet, with seed 3 likewise.
PODS = {
    "seed": 1,
    "topology": {"kind": "fat-tree", "k": 4, "host_gbps": 100, "fabric_gbps": 100,
                 "link_delay_us": 1},
    "jobs": [
        {"name": "p01", "ranks": 4, "hosts": [0, 4, 2, 6], "bytes": 4000000,
         "compute_ms": 0.5, "iterations": 3},
        {"name": "p23", "ranks": 4, "hosts": [8, 12, 10, 14], "bytes": 4000000,
         "compute_ms": 0.5, "iterations": 3},
    ],
}


@pytest.mark.parametrize("seed", [1, 3])
def test_fat_tree_pod_pairs(flux_run, tmp_path, seed):
    """One job per pod pair on a k=4 fat-tree. The flow level runs on the
    packet level's ECMP paths, so a job whose ring hops get disjoint paths
    takes exactly the alpha-beta model's time at flow level (within 0.1 %)
    and runs alone at packet level too: the two levels agree within 1 %
    (measured 0.2-0.4 %). A job whose hops meet on a link is slower than
    the model at both levels (the packet level by at least half the flow
    level's excess), and DCQCN's loss under contention makes the packet
    level up to 20 % slower (measured 3.5 % with seed 1 and 11 % with
    seed 3), never faster than the fluid by more than 1 %."""
    s = copy.deepcopy(PODS)
    packet, flow = both(flux_run, tmp_path, s, f"pods-{seed}", "--seed", seed)
    pj, fj = jcts(packet), jcts(flow)
    alone = {}
    for j in s["jobs"]:
        step = ring_allreduce_ms([6] * j["ranks"], j["bytes"])
        alone[j["name"]] = j["iterations"] * (j["compute_ms"] + step)
    disjoint = [n for n in fj if abs(diff(alone[n], fj[n])) < 0.001]
    shared = [n for n in fj if n not in disjoint]
    assert disjoint, "no job with disjoint paths: the case no longer tests agreement"
    assert shared, "no job with shared links: the case no longer tests contention"
    for n in disjoint:
        assert abs(diff(pj[n], fj[n])) < 0.01, (n, pj[n], fj[n])
    for n in shared:
        assert fj[n] > alone[n] * 1.01
        assert pj[n] - alone[n] > 0.5 * (fj[n] - alone[n]), (n, pj[n], fj[n], alone[n])
        assert -0.20 < diff(pj[n], fj[n]) < 0.01, (n, pj[n], fj[n])


# ----------------------------------------------------------------- (d)

# The small scenario with a PFC watchdog and traces, so that the packet
# level has every field a flow level leaves out.
LIMITS_CASE = copy.deepcopy(SMALL)
LIMITS_CASE["pfc_watchdog"] = {"detection_ms": 1, "restoration_ms": 1}
LIMITS_CASE["traces"] = {"interval_us": 100, "rates": True, "links": ["leaf0->spine0"]}


def field_paths(obj, prefix=""):
    """Every dotted path of a results dict: "jobs[].jct_ms" for the elements
    of a list, "flows.tenants[].count" for the tenants (keyed by name)."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = prefix + "[]" if prefix == "flows.tenants" else (f"{prefix}.{k}" if prefix else k)
            out.add(p)
            out |= field_paths(v, p)
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, (dict, list)):
                out |= field_paths(v, prefix + "[]")
    return out


def covered(path, limits):
    return any(path == lim or path.startswith(lim + ".") or path.startswith(lim + "[]")
               for lim in limits)


# backend_limits entries that name scenario inputs, not results fields
INPUTS = ("scheduler.", "faults[", "transport.")


def test_flow_results_lack_exactly_the_backend_limits(flux_run, tmp_path):
    """Flow results have every field of Contract 1 that a fluid can know
    (jobs[].jct_ms, iteration_ms, phase_ms, flows.count, flows.fct_slowdown,
    sim.*) and lack exactly those in backend_limits: every field the packet
    level has and the flow level not is listed, every listed field is
    absent (and, but for the trace files, present at packet level), and the
    trace CSV files are not written. (Fields of its own may come in
    addition.) Packet results say backend "packet"
    with an empty list."""
    out_p, packet = run_level(flux_run, tmp_path, LIMITS_CASE, "limits", "packet")
    out_f, flow = run_level(flux_run, tmp_path, LIMITS_CASE, "limits", "flow")
    assert packet["backend"] == "packet" and packet["backend_limits"] == []
    assert flow["backend"] == "flow"
    limits = flow["backend_limits"]
    assert isinstance(limits, list) and all(isinstance(x, str) for x in limits)
    assert len(set(limits)) == len(limits)
    for must in ("network.pfc_pauses", "packet_latency_us", "jobs[].retransmissions",
                 "network.ecn_marks", "network.cnps", "network.drops"):
        assert must in limits
    pp, fp = field_paths(packet), field_paths(flow)
    # (The flow level may add fields of its own, such as its rate updates.)
    missing = pp - fp
    assert all(covered(p, limits) for p in missing), sorted(p for p in missing
                                                              if not covered(p, limits))
    for lim in limits:
        assert not any(covered(p, [lim]) for p in fp), lim
        if lim != "traces" and not lim.startswith(INPUTS):
            assert lim in pp, lim
    # the inputs it cannot act on: the congestion control, always
    assert "transport.cc" in limits
    # The contract's fields, with values.
    assert flow["policy"] == packet["policy"] and flow["seed"] == packet["seed"]
    for j in flow["jobs"]:
        assert j["jct_ms"] > 0 and j["status"] == "completed"
        assert len(j["iteration_ms"]) == 3
        assert set(j["phase_ms"]) >= {"count", "p50", "p99", "max"}
        assert j["phase_ms"]["count"] == 3 * 2 * (4 - 1)
    assert flow["flows"]["count"] > 0
    assert set(flow["flows"]["fct_slowdown"]) >= {"p50", "p99", "p999"}
    assert flow["sim"]["simulated_ms"] > 0 and flow["sim"]["events"] > 0
    assert flow["sim"]["wall_s"] >= 0
    # Traces: written at packet level only.
    for suffix in ("-rates.csv", "-queues.csv"):
        assert os.path.exists(str(out_p)[:-5] + suffix)
        assert not os.path.exists(str(out_f)[:-5] + suffix)


def test_an_input_the_fluid_cannot_act_on_is_listed(flux_run, tmp_path):
    """A fault's loss_rate has no effect on a fluid (it loses nothing): the
    results are those without it and backend_limits lists the input by its
    path, so a failure study does not take the flow level's figures for
    ones with losses, and with it the queue-pair failures that losses can
    cause (written, 0 here, without one: a fluid's queue pairs fail only on
    a path cut). Packet level lists nothing."""
    lossy = copy.deepcopy(SMALL)
    lossy["faults"] = [{"link": "leaf0<->spine0", "loss_rate": 0.01}]
    _, clean = run_level(flux_run, tmp_path, SMALL, "clean", "flow")
    _, flow = run_level(flux_run, tmp_path, lossy, "lossy", "flow")
    failures = ["network.qp_errors", "jobs[].error_completions",
                "flows.tenants[].error_completions"]
    assert flow["backend_limits"] == clean["backend_limits"] + ["faults[0].loss_rate"] + failures
    assert clean["network"]["qp_errors"] == 0 and "qp_errors" not in flow["network"]
    assert all(j["error_completions"] == 0 for j in clean["jobs"])
    assert [j["jct_ms"] for j in flow["jobs"]] == [j["jct_ms"] for j in clean["jobs"]]
    _, packet = run_level(flux_run, tmp_path, lossy, "lossy", "packet")
    assert packet["backend_limits"] == [] and packet["network"]["link_losses"] > 0


# ----------------------------------------------------------------- (e)


def test_bad_backend_and_pcap_with_flow_are_refused(flux_run, tmp_path):
    """`--backend bogus` exits 2 with one stderr line naming --backend;
    `--backend flow --pcap DIR` (either order) exits 2 with one line naming
    --pcap. Neither writes a results file or creates the pcap folder."""
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps(SMALL))
    out = tmp_path / "r.json"
    cases = [
        (["--backend", "bogus"], "--backend"),
        (["--backend", "flow", "--pcap", tmp_path / "pcap"], "--pcap"),
        (["--pcap", tmp_path / "pcap", "--backend", "flow"], "--pcap"),
    ]
    for args, field in cases:
        p = flux_run(scen, "--out", out, "--quiet", *args)
        assert p.returncode == 2, (args, p.returncode, p.stderr)
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"flux-run: {field}"), (args, p.stderr)
        assert sorted(os.listdir(tmp_path)) == ["s.json"], (args, os.listdir(tmp_path))
    # from Python the messages name the arguments, before anything runs
    for kwargs, field in [({"backend": "fluid"}, "backend"), ({"backend": None}, "backend"),
                          ({"backend": "flow", "pcap_dir": tmp_path / "pcap"}, "pcap_dir")]:
        with pytest.raises(ns3flux.ScenarioError) as err:
            ns3flux.run(SMALL, **kwargs)
        assert err.value.field == field, str(err.value)
    for backend in ("fluid", None):
        with pytest.raises(ns3flux.ScenarioError, match="^backend: "):
            ns3flux.sweep_runs(SMALL, policies=["fifo"], backend=backend, cache=False)
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


# ----------------------------------------------------------------- (f), (g)


def test_flow_level_is_reproducible(flux_run, tmp_path):
    """Same scenario and seed give the same flow-level results (all but
    sim.wall_s) and the same CSV files; another seed gives others (the
    background tenant's flows), so the equality means something."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, ra = run_level(flux_run, tmp_path / "a", SMALL, "small", "flow")
    b, rb = run_level(flux_run, tmp_path / "b", SMALL, "small", "flow")
    assert strip_wall(ra) == strip_wall(rb)
    for suffix in ("-iterations.csv", "-phases.csv", "-flows.csv"):
        assert open(str(a)[:-5] + suffix).read() == open(str(b)[:-5] + suffix).read()
    _, rc = run_level(flux_run, tmp_path, SMALL, "small", "flow", "--seed", 2)
    assert strip_wall(rc) != strip_wall(ra)


def test_python_flow_backend_matches_flux_run(flux_run, tmp_path):
    """ns3flux.run(..., backend="flow") returns what flux-run --backend flow
    writes (all but sim.wall_s); an unknown backend raises ns3flux's
    ScenarioError naming backend."""
    _, from_file = run_level(flux_run, tmp_path, SMALL, "small", "flow")
    res = ns3flux.run(copy.deepcopy(SMALL), backend="flow", records=False)
    assert res["backend"] == "flow"
    assert strip_wall(res) == strip_wall(from_file)
    with pytest.raises(ns3flux.ScenarioError, match="backend"):
        ns3flux.run(copy.deepcopy(SMALL), backend="bogus")


# ----------------------------------------------------------------- (h)

# Background tenants that stop before the job ends: Poisson flows until
# 3 ms and three 3-to-1 incasts at 0.5, 1.5 and 2.5 ms; the job runs
# beyond 5 ms.
STOPPING = {
    "seed": 1,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
    "jobs": [{"name": "a", "ranks": 4, "placement": "spread", "bytes": 4000000,
              "compute_ms": 1, "iterations": 3}],
    "background": [
        {"name": "rpc", "cdf": "websearch", "load": 0.3, "hosts": [1, 3, 5, 7], "stop_ms": 3},
        {"name": "burst", "pattern": "incast", "senders": [1, 3, 5], "receiver": 7,
         "bytes": 500000, "start_ms": 0.5, "repeat": 3, "interval_ms": 1},
    ],
}


def test_flow_level_delivers_every_background_flow(flux_run, tmp_path):
    """With tenants that stop before the end, every background flow that
    started at flow level finished (count == started, none failed, one CSV
    row each, no FCT below the ideal), and they are the packet level's
    flows: the same sources, destinations, sizes and start times, so both
    levels deliver the same bytes."""
    out_p, packet = run_level(flux_run, tmp_path, STOPPING, "stopping", "packet")
    out_f, flow = run_level(flux_run, tmp_path, STOPPING, "stopping", "flow")
    assert flow["sim"]["simulated_ms"] > 3  # the tenants stopped before the end
    tenants = flow["flows"]["tenants"]
    assert set(tenants) == {"rpc", "burst"}
    for name, t in tenants.items():
        assert t["started"] > 0 and t["count"] == t["started"] and t["failed"] == 0, (name, t)
    assert tenants["burst"]["count"] == 3 * 3

    def rows(out):
        with open(str(out)[:-5] + "-flows.csv", newline="") as f:
            return list(csv.DictReader(f))

    fr = rows(out_f)
    assert len(fr) == sum(t["count"] for t in tenants.values())
    assert min(float(r["slowdown"]) for r in fr) >= 0.999
    key = lambda r: (r["tenant"], r["src"], r["dst"], int(r["size_bytes"]), r["start_ms"])  # noqa: E731
    assert sorted(map(key, fr)) == sorted(map(key, rows(out_p)))
    assert {n: t["started"] for n, t in packet["flows"]["tenants"].items()} == \
        {n: t["started"] for n, t in tenants.items()}


def test_frames_and_sweeps_keep_unknown_counters_missing(small, tmp_path):
    """At flow level the tables show what the fluid cannot know as <NA>,
    never as a zero (PFC pauses, ECN marks, packet latency, the jobs'
    retransmissions), while the packet level keeps its integers; a sweep
    with backend="flow" runs at flow level (its results say so) and is
    cached apart from the packet level's runs of the same scenario."""
    flow = ns3flux.run(small, backend="flow")
    runs = ns3flux.frames.table(flow, "runs").iloc[0]
    for col in ("pfc_pauses", "ecn_marks", "cnps", "drops", "latency_us_count"):
        assert runs[col] is pd.NA, col
    jobs = ns3flux.frames.table(flow, "jobs")
    assert jobs["retransmissions"].isna().all()
    packet = ns3flux.run(small)
    assert ns3flux.frames.table(packet, "runs")["pfc_pauses"].dtype == "int64"
    cache = str(tmp_path / "cache")
    swept = ns3flux.sweep_runs(small, ["fifo"], [1], max_workers=0, cache=cache, backend="flow")
    assert swept[0].results["backend"] == "flow" and not swept[0].cached
    assert strip_wall(swept[0].results) == strip_wall(flow)
    again = ns3flux.sweep_runs(small, ["fifo"], [1], max_workers=0, cache=cache)
    assert again[0].results["backend"] == "packet" and not again[0].cached


@pytest.mark.parametrize("scenario", ["contended-fat-tree", "contended-leaf-spine"])
def test_every_policy_ends_at_flow_level(tmp_path, scenario):
    """Under every policy (flux-run --list-policies) a contended scenario
    ends at flow level, within seconds, with every job completed: strict
    classes that leave a lower class only rounding residue on a link must
    stall it, not schedule its end centuries ahead or loop at one instant."""
    import subprocess

    from conftest import _flux_run_path
    policies = ns3flux.policies()
    assert "crux" in policies
    src = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenarios",
                       scenario + ".json")
    for policy in policies:
        out = tmp_path / f"{policy}.json"
        proc = subprocess.run([_flux_run_path(), src, "--backend", "flow", "--policy", policy,
                               "--quiet", "--out", str(out)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, (policy, proc.stderr)
        res = json.loads(out.read_text())
        assert res["sim"]["stop_reason"] == "completed", policy
        assert all(j["status"] == "completed" for j in res["jobs"]), policy


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_checks_made_while_building_refuse_alike(flux_run, tmp_path, backend):
    """What is checked only while the fabric is built (traced links and
    fault links named in the topology) is refused at flow level as at
    packet level, though the flow level samples no traces: exit 2, one line
    naming the field, no results file."""
    base = {"topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
            "jobs": [{"name": "a", "ranks": 2, "bytes": 1000000, "iterations": 1}]}
    cases = {"traces.links[0]": {"traces": {"links": ["leaf0->nowhere"]}},
             "faults[0].link": {"faults": [{"link": "leaf0<->nowhere", "down_ms": 1}]}}
    for field, extra in cases.items():
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(dict(base, **extra)))
        out = tmp_path / "bad-results.json"
        proc = flux_run(path, "--backend", backend, "--out", out, "--quiet")
        assert proc.returncode == 2, (field, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"flux-run: {field}:"), lines
        assert not out.exists()


def test_flow_bench_reports_each_pair_beside_the_medians(flux_run, tmp_path):
    """bench/run-flow-bench.sh gives the speed-up from the medians and of
    every pair of runs side by side, in wall-clock and in CPU time. With two
    runs each, a median is the mean of the two, so each median ratio lies
    between the two pairs' ratios (each its own packet time over its own
    flow time)."""
    scenario = tmp_path / "small.json"
    scenario.write_text(json.dumps(SMALL))
    proc = subprocess.run(
        ["bash", os.path.join(ROOT, "bench", "run-flow-bench.sh"), "-n", "2", "-b",
         os.path.dirname(flux_run.path), str(scenario)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rows = {line.split()[0]: [float(x) for x in line.split()[1:3]]
            for line in lines if line.split()[:1] in (["packet"], ["flow"])}
    assert set(rows) == {"packet", "flow"} and all(c > 0 for _, c in rows.values()), proc.stdout
    median = [line for line in lines if line.startswith("speed-up (packet")]
    pairs = [line for line in lines if line.startswith("speed-up per pair of runs, wall (CPU):")]
    assert len(median) == 1 and len(pairs) == 1, proc.stdout
    ratios = [float(x) for x in re.findall(r"([0-9.]+)x", median[0])]
    each = [float(x) for x in re.findall(r"([0-9.]+)x", pairs[0].split(":")[1])]
    assert len(ratios) == 2 and len(each) == 4 and all(x > 0 for x in each), (median, pairs)
    for ratio, pair in zip(ratios, (each[0::2], each[1::2])):  # wall, then CPU
        assert min(pair) <= ratio * 1.01 + 0.05 and ratio <= max(pair) * 1.01 + 0.05, (pair, ratio)


def test_the_inputs_backend_limits_names_are_real_keys(flux_run):
    """The scenario inputs a policy says the flow level cannot act on
    (scheduler.<key> in backend_limits) are keys the policy accepts: a
    reader can find them in the scenario (flux-run --describe-policy).
    mltcp's rate scaling and flux's queue disc settings are among them."""
    for policy in ns3flux.policies():
        r = ns3flux.run(SMALL, policy=policy, backend="flow")
        named = [f.split(".", 1)[1] for f in r["backend_limits"] if f.startswith("scheduler.")]
        described = flux_run("--describe-policy", policy).stdout
        keys = {line.split(":")[0].strip() for line in described.splitlines()[1:]
                if line.startswith("  ") and not line.startswith("    ")}
        assert set(named) <= keys, (policy, named, sorted(keys))
        if policy == "mltcp":
            assert named  # its rate scaling has no fluid counterpart
        if policy == "flux":  # its ports' queue disc: a fluid has no queues
            assert set(named) == {"max_wait_us", "min_share", "flows_per_class"}, named


def test_flow_validate_compares_the_levels_per_policy(tmp_path, flux_run):  # noqa: ARG001
    """scripts/flow-validate --policies runs a scenario with jobs beside a
    tenant under each policy at both levels: its table gives per policy the
    mean JCT at each level and their difference as the results files give
    them, and counts the job runs that sat in a class below the tenant's
    (crux's classes are static: those below the tenant's class); a name
    that is no policy is refused before any run."""
    scen = tmp_path / "small.json"
    scen.write_text(json.dumps(SMALL))
    out = tmp_path / "out"
    script = os.path.join(ROOT, "scripts", "flow-validate")
    args = [script, "--flux-run", _flux_run_path(), "--scenarios", str(scen),
            "--seeds", "1", "--out", str(out)]
    p = subprocess.run(args + ["--policies", "crux"], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    res = {lv: json.loads((out / f"small-crux-{lv}-seed1.json").read_text())
           for lv in ("packet", "flow")}
    mean = {lv: sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"]) for lv, r in res.items()}
    row = next(line for line in p.stdout.splitlines() if line.startswith("``small``"))
    cells = row.split()
    assert cells[1] == "crux"
    assert cells[2:5] == [f"{mean['packet']:.2f}", "/", f"{mean['flow']:.2f}"]
    assert cells[5] == f"{100 * (mean['flow'] - mean['packet']) / mean['packet']:+.1f}"
    classes = [j["class"] for j in res["packet"]["jobs"]]
    default = ns3flux.schema()["properties"]["background"]["items"]["properties"]["priority"]
    tenant = SMALL["background"][0].get("priority", default["default"])
    below = sum(1 for c in classes if c < tenant)
    assert row.endswith(f"{below} of {len(classes)}")
    bad = subprocess.run(args + ["--policies", "nosuch"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode != 0 and "--policies: nosuch" in bad.stderr
    # The summary table's percentile columns, against the run files read here:
    # nearest-rank iteration p50/p99, phase p99 and background slowdown p50/p99.
    own = {lv: out / f"small-{lv}-seed1" for lv in ("packet", "flow")}

    def nearest(values, q):
        v = sorted(values)
        return v[max(1, math.ceil(q / 100 * len(v))) - 1]

    def figures(stem):
        r = json.loads(stem.with_suffix(".json").read_text())
        iters = [x for j in r["jobs"] for x in j["iteration_ms"]]
        with open(f"{stem}-phases.csv") as f:
            phases = [float(x["duration_ms"]) for x in csv.DictReader(f)]
        with open(f"{stem}-flows.csv") as f:
            slow = [float(x["slowdown"]) for x in csv.DictReader(f)
                    if x["tenant"] == "rpc" and x["slowdown"]]
        return [nearest(iters, 50), nearest(iters, 99), nearest(phases, 99),
                nearest(slow, 50), nearest(slow, 99)]

    fig = {lv: figures(stem) for lv, stem in own.items()}
    want = [f"{100 * (f - p) / p:+.1f}" for p, f in zip(fig["packet"], fig["flow"])]
    fv = load_script("flow-validate")
    runs = {lv: [fv.Run(str(own[lv]) + ".json", 0.0)] for lv in own}
    row = fv.summary_rows([fv.Scenario("small", SMALL, runs)])[0]
    header = fv.SUMMARY_HEADER
    got = [row[header.index("iteration p50 %")], row[header.index("iteration p99 %")],
           row[header.index("phase p99 %")]]
    got += row[header.index("background slowdown p50 / p99 %")].split(" / ")
    assert got == [w if w not in ("+0.0", "-0.0") else "0.0" for w in want], (got, want)


def test_a_job_cut_off_fails_at_flow_level_as_at_packet_level(tmp_path, flux_run):
    """A queue pair whose path stays cut gives up at flow level when its
    retries would at packet level ((retry count + 1) ACK timeouts): the job
    fails with the packet level's reason, the queue pairs in error and the
    messages completed in error, and the run ends at the same time, within
    a microsecond; with the link back in time it completes; without an ACK
    timeout it waits, unfinished, and the reason says why."""
    s = {"stop_ms": 50, "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                                     "hosts_per_leaf": 2},
         "transport": {"ack_timeout": 8},
         "jobs": [{"name": "j", "ranks": 4, "bytes": 1000000, "iterations": 2}],
         "faults": [{"link": "leaf0<->spine0", "down_ms": 0.01}]}

    def run(scenario, backend):
        return run_level(flux_run, tmp_path, scenario, "cut", backend)[1]

    packet, flow = both(flux_run, tmp_path, s, "cut")
    for r in (packet, flow):
        assert r["jobs"][0]["status"] == "failed" and r["sim"]["stop_reason"] == "job_failed", r
    # 0.01 ms + 8 timeouts of 4.096 us x 2^8
    assert abs(flow["sim"]["simulated_ms"] - (0.01 + 8 * 4.096e-3 * 256)) < 1e-3
    assert abs(flow["sim"]["simulated_ms"] - packet["sim"]["simulated_ms"]) < 1e-3
    assert flow["jobs"][0]["reason"] == packet["jobs"][0]["reason"]
    assert flow["network"]["qp_errors"] == packet["network"]["qp_errors"] > 0
    assert flow["jobs"][0]["error_completions"] == packet["jobs"][0]["error_completions"] > 0
    assert flow["jobs"][0]["reason"].startswith("retry count exceeded on the queue pair of rank")
    back = dict(s, faults=[dict(s["faults"][0], up_ms=5)])
    job = run(back, "flow")["jobs"][0]
    assert job["status"] == "completed" and job["reason"] == "", job
    forever = dict(s, transport={"ack_timeout": 0})
    job = run(forever, "flow")["jobs"][0]
    assert job["status"] == "unfinished", job
    assert job["reason"].startswith("at flow level, a message waits on a link that is down")


def test_a_message_or_ack_meeting_a_cut_is_lost_at_both_levels(tmp_path, flux_run):
    """A 100 KB flow whose last bytes are on their way when a link of its
    path goes down (at 9 us) is lost at both levels: without a repair the
    flow fails when the retries would end (8 timeouts of 1.049 ms), within
    20 us of the packet level's time; with the link back at 2 ms it completes
    after the repair at both levels, the flow level at once, the packet
    level at its next timeout (at most one timeout later)."""
    s = {"stop_ms": 20, "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                                     "hosts_per_leaf": 1},
         "transport": {"ack_timeout": 8},
         "background": [{"name": "f", "pattern": "flows",
                         "flows": [{"src": 0, "dst": 1, "bytes": 100000, "start_ms": 0}]}],
         "faults": [{"link": "leaf0<->spine0", "down_ms": 0.009}]}

    def run(scenario, backend):
        out, r = run_level(flux_run, tmp_path, scenario, "cut", backend)
        rows = list(csv.DictReader(open(str(out).replace("-results.json", "-results-flows.csv"))))
        return r, [float(x["fct_us"]) for x in rows]

    cut = {b: run(s, b) for b in ("packet", "flow")}
    for r, fcts in cut.values():
        assert r["flows"]["tenants"]["f"]["failed"] == 1 and fcts == [], r["flows"]
    ends = [r["sim"]["simulated_ms"] for r, _ in cut.values()]
    assert abs(ends[0] - ends[1]) < 0.02 and ends[1] > 8 * 1.048, ends
    repaired = dict(s, faults=[dict(s["faults"][0], up_ms=2)])
    fct = {b: run(repaired, b)[1] for b in ("packet", "flow")}
    assert len(fct["packet"]) == len(fct["flow"]) == 1, fct
    assert 2000 < fct["flow"][0] <= fct["packet"][0] < fct["flow"][0] + 1049, fct


def test_backend_limits_name_the_congestion_control_and_its_keys(flux_run, tmp_path):
    """A fluid's rates are max-min fair shares whatever the congestion
    control: the flow level lists transport.cc and every transport.<cc> key
    the scenario sets among the inputs it cannot act on, and gives the same
    JCTs with and without them."""
    hpcc = copy.deepcopy(SMALL)
    hpcc["transport"] = dict(hpcc.get("transport", {}), cc="hpcc",
                             hpcc={"target_utilization": 0.5})
    _, plain = run_level(flux_run, tmp_path, SMALL, "plain", "flow")
    _, flow = run_level(flux_run, tmp_path, hpcc, "hpcc", "flow")
    assert "transport.cc" in plain["backend_limits"]
    assert [f for f in flow["backend_limits"] if f.startswith("transport.")] == [
        "transport.cc", "transport.hpcc.target_utilization"]
    assert [j["jct_ms"] for j in flow["jobs"]] == [j["jct_ms"] for j in plain["jobs"]]


def test_rate_computations_are_counted_and_their_mean_is_null_without_any(flux_run, tmp_path):
    """sim.rate_updates counts the max-min computations: none for one flow
    alone on its path (flows_per_update, a mean over none, is null, not 0),
    some for two flows that share a link."""
    def flows(*pairs):
        return {"seed": 1, "stop_ms": 10,
                "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                             "hosts_per_leaf": 3},
                "background": [{"name": "f", "pattern": "flows", "flows": [
                    {"src": s, "dst": 0, "bytes": 1_000_000} for s in pairs]}]}
    _, alone = run_level(flux_run, tmp_path, flows(1), "alone", "flow")
    _, shared = run_level(flux_run, tmp_path, flows(1, 2), "shared", "flow")
    assert alone["sim"]["rate_updates"] == 0 and alone["sim"]["flows_per_update"] is None
    assert shared["sim"]["rate_updates"] > 0 and shared["sim"]["flows_per_update"] > 0
