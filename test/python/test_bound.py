"""The bound and the best schedule (flux-run --bound, ns3flux.bound):
the lower bound holds against every policy at flow level and against the
packet level's fifo, the best is no worse than fifo and is what a run of
its classes gives, a job alone is its own bound and best, the SRPT bound
matches its closed form, the computation is deterministic, and bad input
writes nothing. What is computed: doc/bound.rst."""

import copy
import json
import math
import os

import pytest

import ns3flux
from conftest import ROOT, run_scenario, shipped, strip_wall

SCENARIOS = os.path.join(ROOT, "examples", "scenarios")
# Contended scenarios: two equal jobs, three unequal ones, four jobs and a
# web-search tenant on an oversubscribed leaf-spine.
CONTENDED = ["contended-two-equal", "contended-mixed-ratios", "contended-leaf-spine",
             "contended-eight-jobs", "contended-fat-tree"]
EPS = 1e-6  # ms: the files round times to the nanosecond
HEADERS = 86  # wire bytes per 4096-B packet besides the payload


def compute_bound(flux_run, tmp_path, scenario, name, *args):
    """flux-run --bound on a scenario dict; returns the bound dict."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(scenario))
    out = tmp_path / f"{name}-bound-out.json"
    proc = flux_run(path, "--bound", "--out", out, "--quiet", *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(out.read_text())


def run(flux_run, tmp_path, scenario, name, *args):
    """One run of a scenario dict (quiet); returns the results dict."""
    return run_scenario(flux_run, tmp_path, scenario, name, *args)[1]


def worst_iteration(results):
    return max(ms for job in results["jobs"] for ms in job["iteration_ms"])


@pytest.mark.parametrize("name", CONTENDED)
def test_lower_bound_below_every_run(tmp_path, flux_run, name):
    """The lower bounds on the mean JCT and the worst iteration are at most
    what every policy gives at flow level and at packet level (path-aware
    ones included: the bound holds whatever paths the jobs take), each job's
    own bound is at most its JCT in those runs (and at most its alone JCT),
    and the best schedule is no better than the lower bound nor worse than
    fifo."""
    scenario = shipped(name)
    bound = compute_bound(flux_run, tmp_path, scenario, name)
    lower = bound["lower_bound"]
    assert lower["mean_jct_ms"] == pytest.approx(
        max(lower["mean_job_bound_ms"], lower["srpt_mean_jct_ms"]), abs=EPS)
    alone = {job["name"]: job["alone_jct_ms"] for job in bound["jobs"]}
    assert lower["mean_alone_jct_ms"] == pytest.approx(sum(alone.values()) / len(alone), abs=EPS)
    own = {job["name"]: job["bound_jct_ms"] for job in bound["jobs"]}
    assert lower["mean_job_bound_ms"] == pytest.approx(sum(own.values()) / len(own), abs=EPS)
    assert all(own[n] <= alone[n] + EPS for n in own)
    runs = [(b, p) for p in ns3flux.policies() for b in ("flow", "packet")]
    for backend, policy in runs:
        r = run(flux_run, tmp_path, scenario, f"{name}-{backend}-{policy}", "--backend", backend,
                "--policy", policy)
        jcts = [job["jct_ms"] for job in r["jobs"]]
        assert all(j is not None for j in jcts), (backend, policy)
        what = f"{backend} {policy}"
        assert lower["mean_jct_ms"] <= sum(jcts) / len(jcts) + EPS, what
        assert lower["worst_iteration_ms"] <= worst_iteration(r) + EPS, what
        for job in r["jobs"]:
            assert own[job["name"]] <= job["jct_ms"] + EPS, (what, job["name"])
        if (backend, policy) == ("flow", "fifo"):
            assert bound["fifo"]["mean_jct_ms"] == pytest.approx(sum(jcts) / len(jcts), abs=EPS)
    assert lower["mean_jct_ms"] <= bound["best"]["mean_jct_ms"] + EPS
    assert bound["best"]["mean_jct_ms"] <= bound["fifo"]["mean_jct_ms"] + EPS
    assert lower["worst_iteration_ms"] <= bound["best"]["worst_iteration_ms"] + EPS


def test_a_ring_that_meets_itself_ends_above_the_bound(tmp_path, flux_run):
    """A 4-rank ring on 2 leaves whose every hop crosses the one spine: its
    own flows share the uplinks. At packet level one flow of a pair ends
    first and its receiver starts the next step early, so the job beats its
    fair-shared alone run (1.37 against 1.54 ms); its bound, every flow at
    its path's rate, stays below that run and every other."""
    scenario = {"seed": 1, "stop_ms": 200,
                "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                             "hosts_per_leaf": 2, "host_gbps": 100, "fabric_gbps": 10},
                "jobs": [{"name": "a", "ranks": 4, "placement": "spread", "bytes": 65536,
                          "compute_ms": 0.1, "iterations": 5}]}
    bound = compute_bound(flux_run, tmp_path, scenario, "self")
    (job,) = bound["jobs"]
    lower = bound["lower_bound"]
    assert job["bound_jct_ms"] < 0.9 * job["alone_jct_ms"]  # the ring meets itself
    assert lower["mean_jct_ms"] == pytest.approx(job["bound_jct_ms"], abs=EPS)
    for backend in ("flow", "packet"):
        r = run(flux_run, tmp_path, scenario, f"self-{backend}", "--backend", backend)
        assert lower["mean_jct_ms"] <= r["jobs"][0]["jct_ms"] + EPS, backend
        assert lower["worst_iteration_ms"] <= worst_iteration(r) + EPS, backend
        assert job["bound_iteration_ms"] <= min(r["jobs"][0]["iteration_ms"]) + EPS, backend
    assert r["jobs"][0]["jct_ms"] < job["alone_jct_ms"]  # (what the old bound missed)


def test_a_fault_does_not_lift_the_bound_above_a_run(tmp_path, flux_run):
    """A cable down for part of the run that both jobs' hashed paths cross:
    each job alone runs on the whole idle fabric (a fault only takes
    capacity away), so the lower bound stays at most the best schedule, a
    path-aware run that steers one job around the cable, and fifo at both
    levels."""
    scenario = {"seed": 1, "stop_ms": 200,
                "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2,
                             "hosts_per_leaf": 2},
                "transport": {"ack_timeout": 8},
                "jobs": [{"name": n, "ranks": 2, "hosts": h, "bytes": 12500000,
                          "compute_ms": 1, "iterations": 5}
                         for n, h in (("a", [0, 2]), ("b", [1, 3]))],
                "faults": [{"link": "leaf0<->spine0", "down_ms": 2, "up_ms": 6}]}
    bound = compute_bound(flux_run, tmp_path, scenario, "fault", "--policy", "ecmp-aware")
    lower = bound["lower_bound"]["mean_jct_ms"]
    assert lower <= bound["best"]["mean_jct_ms"] + EPS
    assert lower <= bound["policy"]["mean_jct_ms"] + EPS
    for backend in ("flow", "packet"):
        for policy in ("fifo", "ecmp-aware"):
            r = run(flux_run, tmp_path, scenario, f"fault-{backend}-{policy}",
                    "--backend", backend, "--policy", policy)
            jcts = [job["jct_ms"] for job in r["jobs"]]
            assert lower <= sum(jcts) / len(jcts) + EPS, (backend, policy)


def test_best_is_what_its_classes_give(tmp_path, flux_run):
    """The best schedule is real: the scenario run at flow level under fifo
    with the jobs in the reported classes gives the reported mean JCT and
    worst iteration, and the order lists every job once, by class."""
    name = "contended-mixed-ratios"
    scenario = shipped(name)
    bound = compute_bound(flux_run, tmp_path, scenario, name)
    best = bound["best"]
    assert best["schedule"] == "priority" and best["search"] == "every order"
    # the scenario's classes (fair sharing: one class) on hashed and chosen
    # paths, the 3! orders each also on paths chosen in their order (a
    # dumbbell has one path: hashed ones win ties)
    assert best["schedules_tried"] == 2 + 6 * 3
    assert best["mean_jct_ms"] < bound["fifo"]["mean_jct_ms"]
    assert sorted(n for group in best["order"] for n in group) == sorted(best["classes"])
    ranks = [best["classes"][group[0]] for group in best["order"]]
    assert ranks == sorted(ranks, reverse=True)
    again = copy.deepcopy(scenario)
    for job in again["jobs"]:
        job["priority"] = best["classes"][job["name"]]
    r = run(flux_run, tmp_path, again, "best", "--backend", "flow", "--policy", "fifo")
    jcts = [job["jct_ms"] for job in r["jobs"]]
    assert sum(jcts) / len(jcts) == pytest.approx(best["mean_jct_ms"], abs=EPS)
    assert worst_iteration(r) == pytest.approx(best["worst_iteration_ms"], abs=EPS)


def test_search_beyond_five_jobs_keeps_background_classes_free(tmp_path, flux_run):
    """With more jobs than all orders are tried for, the search takes its
    orders and swaps within the swap budget; the jobs' classes avoid the
    background's and stay below it, consecutive jobs share a class when
    there are more jobs than classes, and the best is no worse than fifo."""
    scenario = shipped("contended-eight-jobs")
    scenario["background"] = [{"name": "rpc", "cdf": "websearch", "load": 0.1,
                               "hosts": [0, 8], "priority": 4}]
    bound = compute_bound(flux_run, tmp_path, scenario, "eight")
    best = bound["best"]
    assert best["search"] == "orders and swaps"
    assert 5 <= best["schedules_tried"] <= 2 * (5 + 200)
    assert best["mean_jct_ms"] <= bound["fifo"]["mean_jct_ms"] + EPS
    if best["schedule"] != "scenario":
        classes = set(best["classes"].values())
        assert classes <= {0, 1, 2, 3}
        assert len(best["order"]) == min(len(classes), 4)
        assert sum(len(group) for group in best["order"]) == 8


def test_with_the_background_in_class_0_the_search_still_chooses_paths(tmp_path, flux_run):
    """A tenant in class 0 leaves no class below it: the search keeps the
    scenario's classes but still tries the chosen paths, so its best is no
    worse than ecmp-aware's flow-level run (it was fifo's, above it)."""
    scenario = shipped("multi-tenant")
    scenario["background"][0]["priority"] = 0
    bound = compute_bound(flux_run, tmp_path, scenario, "class0")
    assert bound["best"]["search"] == "scenario classes only"
    scenario["scheduler"] = {"policy": "ecmp-aware"}
    _, placed = run_scenario(flux_run, tmp_path, scenario, "placed", "--backend", "flow")
    placed_mean = sum(j["jct_ms"] for j in placed["jobs"]) / len(placed["jobs"])
    assert placed_mean < bound["fifo"]["mean_jct_ms"] - EPS
    assert bound["best"]["mean_jct_ms"] <= placed_mean + EPS


def test_job_alone_is_its_own_bound_and_best(tmp_path, flux_run):
    """A scenario of one job: the lower bound, the job's alone JCT, the
    best schedule and the fifo run are one and the same JCT."""
    scenario = shipped("contended-two-equal")
    scenario["jobs"] = scenario["jobs"][1:]
    bound = compute_bound(flux_run, tmp_path, scenario, "alone")
    (job,) = bound["jobs"]
    r = run(flux_run, tmp_path, scenario, "alone-run", "--backend", "flow")
    jct = r["jobs"][0]["jct_ms"]
    assert job["alone_jct_ms"] == pytest.approx(jct, abs=EPS)
    assert bound["lower_bound"]["mean_jct_ms"] == pytest.approx(jct, abs=EPS)
    assert bound["best"]["mean_jct_ms"] == pytest.approx(jct, abs=EPS)
    assert bound["fifo"]["mean_jct_ms"] == pytest.approx(jct, abs=EPS)
    assert bound["best"]["schedules_tried"] == 2  # its class, on hashed and on chosen paths
    assert bound["best"]["search"] == "one job: paths only"  # (not "every order")
    assert bound["lower_bound"]["worst_iteration_ms"] == pytest.approx(
        min(r["jobs"][0]["iteration_ms"]), abs=EPS)


def _wire_bits(nbytes, mtu=4096):
    return 8 * (nbytes + math.ceil(nbytes / mtu) * HEADERS)


def _srpt_mean(jobs, n):
    """Mean flow time of preemptive SRPT; jobs: (release, work)."""
    pending = sorted(jobs)
    ready, t, total = [], 0.0, 0.0
    while pending or ready:
        if not ready:
            t = max(t, pending[0][0])
        while pending and pending[0][0] <= t:
            release, work = pending.pop(0)
            ready.append([work, release])
        ready.sort()
        nxt = pending[0][0] if pending else math.inf
        if t + ready[0][0] <= nxt:
            t += ready[0][0]
            total += t - ready.pop(0)[1]
        else:
            ready[0][0] -= nxt - t
            t = nxt
    return total / n


def test_srpt_bound_matches_its_closed_form(tmp_path, flux_run):
    """On the dumbbell every 2-rank ring sends 2 x bytes/2 per iteration
    each way over the one fabric link (payload plus 86 B per 4096-B
    packet): the SRPT bound is the mean flow time of preemptive SRPT of
    those bits at 100 Gb/s, released at the jobs' start times (within a
    nanosecond per message: the flow level ends a message on the
    nanosecond, and the bound takes the bits the flow level carried)."""
    scenario = shipped("contended-eight-jobs")
    bound = compute_bound(flux_run, tmp_path, scenario, "eight")
    work = [(job["start_ms"], job["iterations"] * 2 * _wire_bits(job["bytes"] // 2) / 1e8)
            for job in scenario["jobs"]]  # ms at 100 Gb/s
    expected = _srpt_mean(work, len(work))
    messages = sum(job["iterations"] * 2 for job in scenario["jobs"])
    assert bound["lower_bound"]["srpt_mean_jct_ms"] == pytest.approx(expected,
                                                                     abs=messages * 1e-6)
    assert bound["lower_bound"]["srpt_mean_jct_ms"] >= expected - EPS
    assert bound["lower_bound"]["srpt_link"] in ("left->right", "right->left")


def test_deterministic_and_same_from_python(tmp_path, flux_run):
    """Two computations of the same scenario give the same bound file but
    for sim.wall_s, and ns3flux.bound() returns the same dict; a policy's
    gap share is 0 for fifo itself and 1 for the best's mean JCT."""
    name = "contended-two-equal"
    path = os.path.join(SCENARIOS, name + ".json")
    outs = []
    for i in range(2):
        out = tmp_path / f"b{i}.json"
        proc = flux_run(path, "--bound", "--out", out, "--quiet")
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(out.read_text()))
    assert strip_wall(outs[0]) == strip_wall(outs[1])
    from_python = ns3flux.bound(path)
    assert strip_wall(from_python) == strip_wall(outs[0])
    bound = outs[0]
    assert bound["policy"] == {"name": "fifo", "mean_jct_ms": bound["fifo"]["mean_jct_ms"],
                               "worst_iteration_ms": bound["fifo"]["worst_iteration_ms"],
                               "gap_share": 0.0}
    fifo = {"jobs": [{"name": j["name"], "jct_ms": bound["fifo"]["mean_jct_ms"]}
                     for j in bound["jobs"]]}
    best = {"jobs": [{"name": j["name"], "jct_ms": bound["best"]["mean_jct_ms"]}
                     for j in bound["jobs"]]}
    assert ns3flux.gap_share(fifo, bound) == pytest.approx(0.0, abs=1e-12)
    # fifo's mean summed in another order is no gain: exactly 0, never -0.00
    jcts = {"x": 0.1, "y": 0.2, "z": 0.3}
    other_order = {"jobs": [{"name": n} for n in jcts], "best": {"mean_jct_ms": 0.1},
                   "fifo": {"mean_jct_ms": (0.3 + 0.2 + 0.1) / 3}}
    same = {"jobs": [{"name": n, "jct_ms": v} for n, v in jcts.items()]}
    assert sum(jcts.values()) / 3 != other_order["fifo"]["mean_jct_ms"]
    assert ns3flux.gap_share(same, other_order) == 0.0
    assert ns3flux.gap_share(best, bound) == pytest.approx(1.0)
    assert ns3flux.gap_share(best, bound, fifo=best) is None
    unfinished = {"jobs": [{"name": "a", "jct_ms": None}, {"name": "b", "jct_ms": 1.0}]}
    assert ns3flux.gap_share(unfinished, bound) is None
    with pytest.raises(ValueError):
        ns3flux.gap_share({"jobs": [{"name": "x", "jct_ms": 1.0}]}, bound)
    # a packet-level run against the bound's flow-level fifo mixes models
    packet = dict(best, backend="packet")
    with pytest.raises(ValueError, match="fifo="):
        ns3flux.gap_share(packet, bound)
    assert ns3flux.gap_share(packet, bound, fifo=dict(fifo, backend="packet")) == \
        pytest.approx(1.0)
    # a run of another seed than the bound's (or the fifo run's) is refused
    seed = bound["seed"]
    with pytest.raises(ValueError, match="seed"):
        ns3flux.gap_share(dict(best, seed=seed + 1), bound)
    with pytest.raises(ValueError, match="seed"):
        ns3flux.gap_share(dict(best, seed=seed), bound, fifo=dict(fifo, seed=seed + 1))
    assert ns3flux.gap_share(dict(best, seed=seed), bound) == pytest.approx(1.0)
    # what is not a results or a bound dict is named, not a bare KeyError
    with pytest.raises(ValueError, match="^results: expected a results dict"):
        ns3flux.gap_share({}, bound)
    with pytest.raises(ValueError, match="^bound: expected a bound dict .* without 'best'"):
        ns3flux.gap_share(best, {"jobs": bound["jobs"]})
    with pytest.raises(ValueError, match="^fifo: expected a results dict"):
        ns3flux.gap_share(best, bound, fifo=[])


def test_progress_counts_the_runs_it_reports(capsys):
    """ns3flux.bound's progress reports every flow-level run in order: each
    job alone (done 1..J of J), then the schedules searched, whose count
    never exceeds the total it gives (the search's most: with eight jobs it
    stops before) and ends at the bound's schedules_tried; progress=True
    prints one line per run in the same words as flux-run."""
    path = os.path.join(SCENARIOS, "contended-eight-jobs.json")
    calls = []
    bound = ns3flux.bound(path, progress=lambda *report: calls.append(report))
    stages = [c[0] for c in calls]
    jobs = len(bound["jobs"])
    assert stages[:jobs] == ["alone"] * jobs
    assert [c[1:3] for c in calls[:jobs]] == [(i + 1, jobs) for i in range(jobs)]
    schedules = [c for c in calls if c[0] == "schedule"]
    assert [c[1] for c in schedules] == list(range(1, len(schedules) + 1))
    assert schedules[-1][1] == bound["best"]["schedules_tried"]
    assert all(c[1] <= c[2] for c in schedules)
    assert schedules[-1][2] > schedules[-1][1]  # the search stopped before its most
    assert schedules[-1][3] == pytest.approx(bound["best"]["mean_jct_ms"])
    capsys.readouterr()
    ns3flux.bound(path, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == len(calls)
    assert lines[0] == f"ns3flux: bound: alone 1/{jobs}"
    _, done, most, best_ms = schedules[-1]
    assert [line for line in lines if " schedule " in line][-1] == \
        f"ns3flux: bound: schedule {done} of at most {most}, best mean JCT {best_ms:.3f} ms"


def test_seed_and_policy_combine_with_bound(tmp_path, flux_run):
    """--seed and --policy act on the bound as on a run: the seed is
    recorded and the policy's own flow-level run is reported with its share
    of the fifo -> best gap; the default file is <stem>-bound.json."""
    scenario_path = tmp_path / "two.json"
    scenario_path.write_text(json.dumps(shipped("contended-two-equal")))
    proc = flux_run(scenario_path, "--bound", "--seed", "3", "--policy", "crux")
    assert proc.returncode == 0, proc.stderr
    assert "bound written to" in proc.stderr
    bound = json.loads((tmp_path / "two-bound.json").read_text())
    assert bound["seed"] == 3
    r = run(flux_run, tmp_path, shipped("contended-two-equal"), "crux", "--backend", "flow",
            "--policy", "crux", "--seed", "3")
    mean = sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"])
    assert bound["policy"]["name"] == "crux"
    assert bound["policy"]["mean_jct_ms"] == pytest.approx(mean, abs=EPS)
    share = ns3flux.gap_share(r, bound)
    assert bound["policy"]["gap_share"] == pytest.approx(share, abs=1e-6)
    assert not (tmp_path / "two-results.json").exists()
    # a per-source seed is recorded too, and gap_share refuses a run of another
    assert bound["seeds"] == {"ecmp": 3, "background": 3, "placement": 3}
    other = compute_bound(flux_run, tmp_path, shipped("contended-two-equal"), "ecmp2",
                          "--seed", "3", "--seed-ecmp", "2")
    assert other["seeds"] == {"ecmp": 2, "background": 3, "placement": 3}
    with pytest.raises(ValueError, match="ecmp seed is 3 but the bound's 2"):
        ns3flux.gap_share(r, other)


def test_summary_shows_the_bound_as_its_file_says(tmp_path, flux_run):
    """Without --quiet, --bound ends with a summary on stdout: one line per
    job alone and one per schedule (lower bound, best found, fifo, the
    policy) whose figures and gap shares are the bound file's; with --quiet,
    nothing."""
    scenario_path = tmp_path / "mixed.json"
    scenario_path.write_text(json.dumps(shipped("contended-mixed-ratios")))
    out = tmp_path / "b.json"
    proc = flux_run(scenario_path, "--bound", "--policy", "flux", "--out", out)
    assert proc.returncode == 0, proc.stderr
    bound = json.loads(out.read_text())
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"bound, seed 1, flow level: {bound['sim']['runs']} runs in ")
    rows = {}
    for line in lines[1:]:
        if line.startswith("  "):
            cells = line.split("  ")
            cells = [c.strip() for c in cells if c.strip()]
            rows[cells[0]] = cells[1:]
    for job in bound["jobs"]:
        assert [float(x) for x in rows[job["name"]]] == pytest.approx(
            [job["start_ms"], job["alone_jct_ms"], job["alone_best_iteration_ms"],
             job["alone_worst_iteration_ms"], job["bound_jct_ms"]], abs=6e-4)
    lower = bound["lower_bound"]
    assert [float(x) for x in rows["lower bound"][:2]] == pytest.approx(
        [lower["mean_jct_ms"], lower["worst_iteration_ms"]], abs=6e-4)
    for label, outcome in [("best found", bound["best"]), ("fifo", bound["fifo"]),
                           ("flux", bound["policy"])]:
        mean, worst, share = rows[label]
        assert float(mean) == pytest.approx(outcome["mean_jct_ms"], abs=6e-4)
        assert float(worst) == pytest.approx(outcome["worst_iteration_ms"], abs=6e-4)
    assert rows["best found"][2] == "1.00" and rows["fifo"][2] == "0.00"
    assert float(rows["flux"][2]) == pytest.approx(bound["policy"]["gap_share"], abs=0.006)
    order = " > ".join(" = ".join(group) for group in bound["best"]["order"])
    assert any(line.startswith("best schedule: ") and order in line for line in lines)
    quiet = flux_run(scenario_path, "--bound", "--out", tmp_path / "q.json", "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""


def _no_jobs(s):
    s["jobs"] = []
    s["background"] = [{"name": "rpc", "cdf": "websearch", "load": 0.2, "hosts": [0, 2]}]


def _unknown_key(s):
    s["jobs"][0]["gpu_count"] = 8


BAD = [
    ("unknown-key", _unknown_key, [], 2, "jobs[0].gpu_count"),
    ("no-jobs", _no_jobs, [], 2, "jobs"),
    ("pcap", None, ["--pcap", "caps"], 2, "--pcap"),
    ("packet-backend", None, ["--backend", "packet"], 2, "--backend"),
    ("unfinished-alone", lambda s: s.update(stop_ms=5), [], 1, "does not complete alone"),
]


@pytest.mark.parametrize("change,args,status,field", [c[1:] for c in BAD],
                         ids=[c[0] for c in BAD])
def test_bad_input_writes_nothing(tmp_path, flux_run, change, args, status, field):
    """A bad scenario or option exits 2, and a job that cannot complete even
    alone before stop_ms exits 1, each with one line on stderr naming the
    problem, and no bound file (nor anything else) is written."""
    scenario = shipped("contended-two-equal")
    if change:
        change(scenario)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario))
    before = sorted(os.listdir(tmp_path))
    proc = flux_run(path, "--bound", *args)
    assert proc.returncode == status, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("flux-run: ") and field in lines[0], lines
    assert sorted(os.listdir(tmp_path)) == before
    if not args:
        with pytest.raises(ns3flux.ScenarioError if status == 2 else ns3flux.RunError):
            ns3flux.bound(scenario)
