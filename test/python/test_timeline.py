"""flux-run --timeline: the run's timeline as a Chrome trace-event file
(one process per job with a track per rank, the traced links' counters, the
background tenants), its agreement with the results, and the figure
scripts/flux-plot timeline draws of it."""

import collections
import copy
import json
import os
import re
import subprocess
import sys

import pytest

import ns3flux
from conftest import SMALL

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLUX_PLOT = os.path.join(REPO, "scripts", "flux-plot")
sys.path.insert(0, os.path.join(REPO, "scripts"))
import timelineplot  # noqa: E402  (scripts/timelineplot.py)

# Every direction between the leaves and the spines of the small scenario.
UPLINKS = ["leaf0->spine0", "leaf0->spine1", "leaf1->spine0", "leaf1->spine1",
           "spine0->leaf0", "spine0->leaf1", "spine1->leaf0", "spine1->leaf1"]
INTERVAL_US = 10


def _scenario(policy, buckets=1):
    s = copy.deepcopy(SMALL)
    s["scheduler"] = {"policy": policy}
    s["traces"] = {"interval_us": INTERVAL_US, "rates": False, "links": UPLINKS}
    for job in s["jobs"]:
        job["buckets"] = buckets
    return s


def _run(flux_run, folder, policy, name=None, *args, buckets=1):
    """Run the small scenario under a policy with a timeline; (results,
    trace-event document, timeline path)."""
    name = name or policy
    scen = folder / f"{name}.json"
    scen.write_text(json.dumps(_scenario(policy, buckets)))
    out = folder / f"{name}-results.json"
    tl = folder / f"{name}-timeline.json"
    p = flux_run(scen, "--out", out, "--timeline", tl, "--quiet", *args)
    assert p.returncode == 0, p.stderr
    return json.loads(out.read_text()), json.loads(tl.read_text()), tl


@pytest.fixture(scope="module")
def runs(tmp_path_factory, flux_run):
    """The small scenario with its uplinks traced, under flux and fifo."""
    folder = tmp_path_factory.mktemp("timeline")
    return {p: _run(flux_run, folder, p) for p in ("flux", "fifo")}


def _names(trace):
    """{pid: process name}, {(pid, tid): thread name}."""
    procs, threads = {}, {}
    for e in trace["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    return procs, threads


def _spans(trace, job, cat):
    """{rank: [X events of a category]} of a job's rank tracks (all tracks of a rank)."""
    procs, threads = _names(trace)
    out = collections.defaultdict(list)
    for e in trace["traceEvents"]:
        if e["ph"] == "X" and procs[e["pid"]] == f"job {job}" and e["cat"] == cat:
            name = threads[(e["pid"], e["tid"])]
            if name.startswith("rank "):
                out[int(name.split()[1])].append(e)
    return out


def test_the_file_is_valid_trace_event_json(runs):
    """The file is the trace-event JSON Object Format: traceEvents and
    displayTimeUnit; every complete event has ts, dur >= 0, pid, tid and a
    name and category; every pid and tid of a span or instant has its name
    (metadata events); counters name their process; the metadata gives the
    scenario, policy and seed; the jobs' processes, the links and the
    background tenants are there."""
    results, trace, _ = runs["flux"]
    assert trace["displayTimeUnit"] in ("ms", "ns")
    meta = trace["otherData"]
    assert meta["scenario"] == "flux" and meta["policy"] == "flux" and meta["seed"] == "1"
    assert meta["dropped_events"] == 0
    procs, threads = _names(trace)
    kinds = collections.Counter(e["ph"] for e in trace["traceEvents"])
    assert kinds["X"] > 0 and kinds["C"] > 0 and kinds["i"] > 0
    for e in trace["traceEvents"]:
        assert e["ph"] in ("M", "X", "i", "C"), e
        assert isinstance(e["pid"], int) and e["pid"] in procs, e
        if e["ph"] in ("X", "i"):
            assert (e["pid"], e["tid"]) in threads, e
            assert e["ts"] >= 0 and e["name"] and e["cat"], e
        if e["ph"] == "X":
            assert e["dur"] >= 0, e
        if e["ph"] == "C":
            assert e["args"] and all(isinstance(v, (int, float)) for v in e["args"].values()), e
    assert sorted(procs.values()) == ["background", "job a", "job b", "links"]


def test_rank_steps_and_iterations_match_the_results(runs):
    """Every rank of both jobs has one step span per phase the results
    count (2(N-1) steps x iterations), named after its phase, inside its
    collective run; the job's iteration spans last what iteration_ms says."""
    results, trace, _ = runs["fifo"]
    procs, threads = _names(trace)
    for job in results["jobs"]:
        n, iters = 4, len(job["iteration_ms"])
        steps = _spans(trace, job["name"], "step")
        assert sorted(steps) == list(range(n))
        for rank, spans in steps.items():
            assert len(spans) == job["phase_ms"]["count"] == 2 * (n - 1) * iters, (job, rank)
            rs = [e for e in spans if e["name"].startswith("reduce-scatter")]
            assert len(rs) == (n - 1) * iters
        runs_ = _spans(trace, job["name"], "collective")
        assert all(len(v) == iters for v in runs_.values())
        iteration = sorted((e for e in trace["traceEvents"] if e["ph"] == "X"
                            and procs[e["pid"]] == f"job {job['name']}"
                            and e["cat"] == "iteration"), key=lambda e: e["ts"])
        assert [e["dur"] / 1e3 for e in iteration] == pytest.approx(job["iteration_ms"], abs=1e-6)
        compute = _spans(trace, job["name"], "compute")
        assert all(len(v) == iters for v in compute.values())
        assert all(e["dur"] == pytest.approx(1000, abs=1e-3) for v in compute.values() for e in v)


def test_gate_holds_appear_under_flux_and_never_under_fifo(runs):
    """flux holds ring steps at its gates: held spans appear on the ranks,
    and per job their time (summed over steps, averaged over ranks) is the
    results' gate_wait_ms; fifo holds nothing: no held span at all."""
    for policy in ("flux", "fifo"):
        results, trace, _ = runs[policy]
        held = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["cat"] == "gate"]
        if policy == "fifo":
            assert held == []
            continue
        assert held
        for job in results["jobs"]:
            gate = _spans(trace, job["name"], "gate")
            total_ms = sum(e["dur"] for v in gate.values() for e in v) / 1e3 / 4
            assert total_ms == pytest.approx(job["gate_wait_ms"], rel=1e-6, abs=1e-6)
        # the class changes flux made, as a counter of each job's process
        classes = [e for e in trace["traceEvents"] if e["ph"] == "C" and e["name"] == "traffic class"]
        assert len(classes) >= 2


def test_iteration_holds_under_cassini(flux_run, tmp_path):
    """cassini holds iteration starts: held spans on the jobs' iterations
    track, each inside its iteration and before its compute; with the
    ranks' held steps they make up the results' gate_wait_ms."""
    results, trace, _ = _run(flux_run, tmp_path, "cassini")
    procs, threads = _names(trace)
    assert any(j["gate_wait_ms"] > 0 for j in results["jobs"])
    for job in results["jobs"]:
        own = [e for e in trace["traceEvents"] if e["ph"] == "X"
               and procs[e["pid"]] == f"job {job['name']}"
               and threads[(e["pid"], e["tid"])] == "iterations"]
        held = [e for e in own if e["cat"] == "gate"]
        iters = [e for e in own if e["cat"] == "iteration"]
        for h in held:
            assert any(i["ts"] == h["ts"] and h["dur"] <= i["dur"] for i in iters), h
        ranks = _spans(trace, job["name"], "gate")
        total_ms = (sum(e["dur"] for e in held)
                    + sum(e["dur"] for v in ranks.values() for e in v) / 4) / 1e3
        assert total_ms == pytest.approx(job["gate_wait_ms"], rel=1e-6, abs=1e-6)
        if held:
            compute = _spans(trace, job["name"], "compute")[0]
            assert {round(h["ts"] + h["dur"], 3) for h in held} <= {c["ts"] for c in compute}


def test_spans_on_a_track_nest(runs, flux_run, tmp_path):
    """On every track, two spans either follow one another or one lies
    inside the other, as viewers need; with gradient buckets, whose
    allreduces run beside the compute, the compute goes to a second track
    of the rank ("rank 0 (2)") and every step is still there."""
    results, bucketed, _ = _run(flux_run, tmp_path, "fifo", "buckets", buckets=3)
    for trace in (runs["flux"][1], runs["fifo"][1], bucketed):
        tracks = collections.defaultdict(list)
        for e in trace["traceEvents"]:
            if e["ph"] == "X":
                tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
        for spans in tracks.values():
            spans.sort(key=lambda s: (s[0], -s[1]))
            open_ends = []
            for start, end in spans:
                while open_ends and open_ends[-1] <= start + 1e-9:
                    open_ends.pop()
                assert not open_ends or end <= open_ends[-1] + 1e-9, (start, end)
                open_ends.append(end)
    _, threads = _names(bucketed)
    assert "rank 0 (2)" in threads.values()
    for job in results["jobs"]:
        steps = _spans(bucketed, job["name"], "step")
        assert all(len(v) == job["phase_ms"]["count"] for v in steps.values())
        runs_ = _spans(bucketed, job["name"], "collective")
        assert all(len(v) == 3 * len(job["iteration_ms"]) for v in runs_.values())


def test_link_utilisation_agrees_with_the_results(runs):
    """A traced link's utilisation counter lies in [0, 1.05] (a sample
    counts the frames that began in its interval), is written with at most
    nine significant digits (not 0.9407280000000001), and its mean over the
    run is the link's bytes / (rate x time) of the results' busiest links
    within 3 %."""
    results, trace, path = runs["flux"]
    written = re.findall(r'"utilization":([-0-9.eE+]+)', path.read_text())
    assert written and all(len(re.sub(r"[-.+]|e.*|^0*", "", w, flags=re.I)) <= 9
                           for w in written), max(written, key=len)
    busiest = {b["link"]: b["utilization"] for b in results["network"]["busiest_links"]}
    sim_us = results["sim"]["simulated_ms"] * 1e3
    checked = 0
    for link in UPLINKS:
        u = [e["args"]["utilization"] for e in trace["traceEvents"]
             if e["ph"] == "C" and e["name"] == f"{link} utilization"]
        assert u and all(0 <= x <= 1.05 for x in u), link
        queue = [e for e in trace["traceEvents"] if e["ph"] == "C" and e["name"] == f"{link} queue"]
        assert len(queue) == len(u) + 1  # (the first sample, at 0, has no interval behind it)
        if busiest.get(link, 0) > 0.05:
            mean = sum(u) * INTERVAL_US / sim_us
            assert mean == pytest.approx(busiest[link], rel=0.03), link
            checked += 1
    assert checked >= 1


def test_same_seed_gives_the_same_file(runs, flux_run, tmp_path):
    """Two runs of the same scenario and seed write byte-identical timelines."""
    _, _, first = runs["flux"]
    _, _, again = _run(flux_run, tmp_path, "flux")
    assert again.read_bytes() == first.read_bytes()


def test_bad_timeline_path_exits_2_and_writes_nothing(flux_run, tmp_path):
    """A timeline in a folder that does not exist, a folder, the results
    file itself or a file written beside it (a CSV file, the HPCC FCT
    file): exit 2 with one line naming --timeline, before running; no
    results and no timeline are written."""
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps(_scenario("fifo")))
    out = tmp_path / "s-results.json"
    companions = [tmp_path / f"s-results-{name}" for name in
                  ("iterations.csv", "phases.csv", "flows.csv", "fct.txt", "rates.csv",
                   "queues.csv")]
    # (a name too long for the file system: only making the file finds it)
    for bad in [tmp_path / "missing" / "t.json", tmp_path, out, tmp_path / ("x" * 300)] + companions:
        p = flux_run(scen, "--out", out, "--timeline", bad, "--quiet")
        assert p.returncode == 2, p.stderr
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("flux-run: --timeline:"), p.stderr
        assert sorted(os.listdir(tmp_path)) == ["s.json"]
    p = flux_run(scen, "--bound", "--timeline", tmp_path / "t.json", "--quiet")
    assert p.returncode == 2 and "--timeline" in p.stderr
    # ns3flux.run alike (the same check, from the scenario library),
    # naming its argument, before the run
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.run(_scenario("fifo"), timeline=tmp_path / ("x" * 300), cache=False)
    assert err.value.field == "timeline" and "cannot write" in err.value.problem
    # (the writer renames a plain file onto its path: never onto a device)
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.run(_scenario("fifo"), timeline="/dev/null", cache=False)
    assert err.value.problem == '"/dev/null" is not a regular file'
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


def test_flow_backend_timeline_has_the_jobs(flux_run, tmp_path):
    """Under the flow backend the jobs' tracks are there as under packets
    (steps per rank as the results count); the traced links, which it
    does not sample, have no (empty) process."""
    results, trace, _ = _run(flux_run, tmp_path, "flux", "flow", "--backend", "flow")
    procs, _ = _names(trace)
    assert "links" not in procs.values()
    for job in results["jobs"]:
        steps = _spans(trace, job["name"], "step")
        assert all(len(v) == job["phase_ms"]["count"] for v in steps.values())


def test_ns3flux_run_writes_the_same_file(runs, tmp_path):
    """ns3flux.run(scenario file, timeline=...) writes the file flux-run
    writes for the same scenario file and seed; a timeline in a missing
    folder is a ScenarioError naming "timeline", raised before running."""
    _, _, first = runs["flux"]
    scen = tmp_path / "flux.json"
    scen.write_text(json.dumps(_scenario("flux")))
    tl = tmp_path / "py-timeline.json"
    ns3flux.run(str(scen), timeline=tl, records=False)
    assert tl.read_bytes() == first.read_bytes()
    with pytest.raises(ns3flux.ScenarioError) as e:
        ns3flux.run(str(scen), timeline=tmp_path / "missing" / "t.json")
    assert e.value.field == "timeline"


def test_plot_rows_up_to_a_time_are_those_drawn(runs, tmp_path):
    """flux-plot timeline --to-ms T --data writes the rows it draws up to T:
    no span starts at or after T or ends after it, no link sample lies
    after it, end_ms is T; times are whole nanoseconds (no float noise)."""
    _, trace, tl = runs["flux"]
    data = tmp_path / "rows.json"
    p = subprocess.run([sys.executable, FLUX_PLOT, "timeline", tl, "-o", tmp_path / "f.png",
                        "--to-ms", "2.5", "--data", data], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    rows = json.loads(data.read_text())
    assert rows == json.loads(json.dumps(timelineplot.clip(timelineplot.rows(trace), 2.5)))
    assert rows["end_ms"] == 2.5
    spans = [s for r in rows["ranks"] for s in r["spans"]]
    assert spans and all(s[0] < 2.5 and s[1] <= 2.5 for s in spans)
    assert all(t <= 2.5 for link in rows["links"] for t in link["t_ms"])
    assert all(len(repr(float(t)).split(".")[1]) <= 6 for s in spans for t in s[:2])


def test_plot_rows_are_the_timeline(runs, tmp_path):
    """flux-plot timeline draws a PNG and, with --data, the rows it drew:
    the first --ranks ranks of each job with their step spans (as many as
    the results' phases), held spans under flux, and one utilisation row
    per traced link whose mean matches the counters."""
    results, trace, tl = runs["flux"]
    png, data = tmp_path / "fig.png", tmp_path / "rows.json"
    p = subprocess.run([sys.executable, FLUX_PLOT, "timeline", tl, "-o", png, "--ranks", "2",
                        "--data", data], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(png)] and png.read_bytes()[:4] == b"\x89PNG"
    rows = json.loads(data.read_text())
    assert rows == json.loads(json.dumps(timelineplot.rows(trace, max_ranks=2)))
    assert [(r["job"], r["rank"]) for r in rows["ranks"]] == [("a", 0), ("a", 1), ("b", 0),
                                                              ("b", 1)]
    assert rows["ranks_per_job"] == {"a": 4, "b": 4}
    # the figure says which ranks it leaves out
    figs = []
    close = timelineplot.plt.close
    timelineplot.plt.close = lambda f=None: figs.append(f) if hasattr(f, "axes") else close(f)
    try:
        timelineplot.plot(rows, tmp_path / "again.png")
        whole = timelineplot.rows(trace, max_ranks=4)
        timelineplot.plot(whole, tmp_path / "whole.png")
    finally:
        timelineplot.plt.close = close
    assert figs[0].axes[0].get_ylabel() == "ranks shown: a 2 of 4, b 2 of 4 (--ranks N for more)"
    assert figs[1].axes[0].get_ylabel() == ""
    for f in figs:
        close(f)
    count = {j["name"]: j["phase_ms"]["count"] for j in results["jobs"]}
    for r in rows["ranks"]:
        assert sum(s[2] == "step" for s in r["spans"]) == count[r["job"]]
    assert any(s[2] == "gate" for r in rows["ranks"] for s in r["spans"])
    assert sorted(link["link"] for link in rows["links"]) == sorted(UPLINKS)
    for args, option in ((["--job", "nope"], "--job"), (["--dpi", "0"], "--dpi"),
                         (["--dpi", "100000"], "--dpi"), (["--to-ms", "-1"], "--to-ms")):
        bad = subprocess.run([sys.executable, FLUX_PLOT, "timeline", tl, "-o",
                              tmp_path / "bad.png", *args],
                             capture_output=True, text=True, timeout=300)
        assert bad.returncode == 2 and bad.stderr.startswith(f"flux-plot: {option}"), bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "bad.png").exists()


def test_tenant_flows_in_flight_end_at_zero(flux_run, tmp_path):
    """A background tenant's flows in flight end at 0 when every flow
    finished, a flow that ends in the last, partial interval included
    (multi-tenant, flow level)."""
    out, tl = tmp_path / "mt.json", tmp_path / "mt-timeline.json"
    p = flux_run(os.path.join(REPO, "examples", "scenarios", "multi-tenant.json"), "--out", out,
                 "--timeline", tl, "--backend", "flow", "--quiet")
    assert p.returncode == 0, p.stderr
    tenants = json.loads(out.read_text())["flows"]["tenants"]
    samples = collections.defaultdict(list)
    for e in json.loads(tl.read_text())["traceEvents"]:
        if e["ph"] == "C" and e["name"].endswith(" flows in flight"):
            samples[e["name"].split()[0]].append((e["ts"], e["args"]["flows"]))
    assert set(samples) == set(tenants)
    for name, tenant in tenants.items():
        assert tenant["count"] == tenant["started"] > 0
        flying = sorted(samples[name])
        assert flying[-1][1] == 0 and max(n for _, n in flying) >= 1, (name, flying[-3:])
