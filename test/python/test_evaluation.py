"""scripts/run-evaluation.sh runs scenarios under policies and writes the
evaluation's tables and plots."""

import csv
import json
import math
import os
import subprocess

from conftest import load_script, script_env

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO = os.path.join(REPO, "examples", "scenarios", "contended-two-equal.json")
METRICS = ["jct_mean_ms", "gap_share", "gap_share_flow", "worst_iter_ms", "jain", "maxmin",
           "bg_p99", "bg_flows", "pfc_pauses", "latency_p99_us", "gate_wait_ms", "ecn_marks",
           "ecmp_shared_links", "ecmp_job_pairs", "wall_s", "jobs_unfinished",
           "latency_p99_jobs_us", "latency_p99_bg_us"]
COLUMNS = ["scenario", "policy", "seeds"] + [c for m in METRICS for c in (m, m + "_ci95")] + \
    ["jct_ratio", "worst_slowdown_fifo"]


def _evaluate(out, *args, timeout=400):
    proc = subprocess.run(
        [os.path.join(REPO, "scripts", "run-evaluation.sh"), "--no-build", "--out", str(out),
         *args], capture_output=True, text=True, timeout=timeout, env=script_env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc


def _csv(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def test_evaluation_two_equal_jobs_flux_beats_fifo(tmp_path, flux_run):  # noqa: ARG001
    """On two equal jobs whose compute equals their communication, sharing
    the link (fifo) stretches each iteration from 2 to 3 units, interleaving
    keeps it at 2: flux's mean JCT is at least 1.25x better than fifo's (the
    bound is 1.5x). Also: one command writes evaluation.csv (one row per
    policy, the documented columns, fifo's ratio 1), evaluation.md, and the
    JCT, slowdown, fairness, iteration-CDF and timeline plots; a variant of
    flux (flux-no-guard: the fifo guard never acts on two jobs that take
    turns, so it equals flux) gets a row of the variants' table with its
    worst job against fifo; the goals table gives flux's p99 latency over
    fifo's and both policies' pauses; the worst job's p99 is the largest of
    the run's per-job p99s, and the run-wide p99 is at most that (no tenant
    here: every packet is a job's, and a union of samples has no more than
    1 % above the largest of their p99s); the table of the worst job
    against fifo names flux's job run slowest against fifo, the fabric links
    it shares with the other job under each policy and its time held."""
    out = tmp_path / "eval"
    _evaluate(out, "--seeds", "1", "--policies", "fifo flux flux-no-guard", "--scenarios", SCENARIO)
    fields, rows = _csv(out / "evaluation.csv")
    assert fields == COLUMNS
    rows = {r["policy"]: r for r in rows}
    assert sorted(rows) == ["fifo", "flux", "flux-no-guard"]
    assert rows["flux-no-guard"]["jct_mean_ms"] == rows["flux"]["jct_mean_ms"]
    for r in rows.values():
        assert r["scenario"] == "contended-two-equal"
        assert r["seeds"] == "1"
        assert float(r["jobs_unfinished"]) == 0
        assert float(r["jct_mean_ms"]) > 0 and float(r["worst_iter_ms"]) > 0
        assert r["jct_mean_ms_ci95"] == ""  # one seed: no interval
    assert float(rows["fifo"]["jct_ratio"]) == 1.0
    assert float(rows["fifo"]["gate_wait_ms"]) == 0
    speedup = float(rows["flux"]["jct_ratio"])
    assert speedup == float(rows["fifo"]["jct_mean_ms"]) / float(rows["flux"]["jct_mean_ms"])
    assert speedup >= 1.25, f"flux only {speedup:.2f}x better than fifo"

    md = (out / "evaluation.md").read_text()
    assert "## contended-two-equal" in md and "| flux |" in md
    variants = md.split("## flux's variants: the worst job and the tail")[1].split("\n## ")[0]
    worst = float(rows["flux-no-guard"]["worst_slowdown_fifo"])
    assert f"| contended-two-equal | flux-no-guard | {rows['flux']['jct_mean_ms'][:5]}" in variants
    assert f"| {worst:.2f}x |" in variants
    # the goals table sets flux's p99 latency and pauses beside fifo's
    goals = md.split("## flux against its goals")[1].split("\n## ")[0]
    latency = float(rows["flux"]["latency_p99_us"]) / float(rows["fifo"]["latency_p99_us"])
    pauses = [float(rows[p]["pfc_pauses"]) for p in ("flux", "fifo")]
    assert f"| {latency:.2f}x | {pauses[0]:.0f}, {pauses[1]:.0f} |" in goals, goals
    with open(out / "contended-two-equal" / "runs" / "contended-two-equal-fifo-seed1.json") as f:
        fifo_run = json.load(f)
    job_p99 = max(j["packet_latency_us"]["p99"] for j in fifo_run["jobs"])
    assert math.isclose(float(rows["fifo"]["latency_p99_jobs_us"]), job_p99)
    assert float(rows["fifo"]["latency_p99_us"]) <= job_p99
    assert rows["fifo"]["latency_p99_bg_us"] == ""
    # the worst job against fifo: flux's job slowest against fifo, the
    # fabric link directions (between switches) it shares with the other job
    # under each policy's paths, and its time held at its gates
    jobs = {}
    for p in ("fifo", "flux"):
        path = out / "contended-two-equal" / "runs" / f"contended-two-equal-{p}-seed1.json"
        with open(path) as f:
            jobs[p] = {j["name"]: j for j in json.load(f)["jobs"]}
    name = max(jobs["flux"], key=lambda n: jobs["flux"][n]["jct_ms"] / jobs["fifo"][n]["jct_ms"])
    other = next(n for n in jobs["flux"] if n != name)

    def fabric(job):
        return {x for x in job["links"] if not any(e.startswith("host") for e in x.split("->"))}

    shared = [len(fabric(jobs[p][name]) & fabric(jobs[p][other])) for p in ("fifo", "flux")]
    assert shared[1] > 0  # the two rings meet on the one link
    ratio = jobs["flux"][name]["jct_ms"] / jobs["fifo"][name]["jct_ms"]
    held = jobs["flux"][name]["gate_wait_ms"]
    table = md.split("## The worst job against fifo")[1].split("\n## ")[0]
    assert (f"| contended-two-equal | {name} (1) | {ratio:.2f}x | {len(fabric(jobs['flux'][name]))}"
            f" | {other} {shared[0]} | {other} {shared[1]} | {held:.2f} |") in table, table
    assert len(_csv(out / "evaluation-runs.csv")[1]) == 3
    for png in ["jct.png", "job-slowdown-cdf.png", "fairness.png", "iteration-cdf.png",
                "timeline-contended-two-equal.png"]:
        with open(out / "plots" / png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", png

    # redoing one policy keeps the others' runs: the report has both again,
    # fifo's row unchanged and flux's run written anew
    flux_json = out / "contended-two-equal" / "runs" / "contended-two-equal-flux-seed1.json"
    flux_json.write_text("{}")
    _evaluate(out, "--seeds", "1", "--policies", "flux", "--scenarios", SCENARIO)
    again = {r["policy"]: r for r in _csv(out / "evaluation.csv")[1]}
    assert sorted(again) == ["fifo", "flux", "flux-no-guard"]
    assert again["fifo"] == rows["fifo"]
    assert again["flux"]["jct_mean_ms"] == rows["flux"]["jct_mean_ms"]
    assert json.loads(flux_json.read_text())["policy"] == "flux"


def test_evaluation_two_seeds_gap_share_as_defined(tmp_path, flux_run):  # noqa: ARG001
    """Two seeds of one scenario with a background tenant through the real
    script: per run, the gap share is (fifo - policy) / (fifo - best) with
    the same seed's fifo and the bound's best replayed at packet level (or
    fifo itself when the best is the scenario's own classes); the table's
    values are the means over the seeds with a Student-t 95 % interval;
    per job, slowdowns against fifo and against the bound's alone JCT; the
    background is measured on the same flows under every policy."""
    scen = os.path.join(REPO, "examples", "scenarios", "contended-mixed-ratios.json")
    out = tmp_path / "eval"
    _evaluate(out, "--seed-list", "1 2", "--policies", "fifo crux flux", "--scenarios", scen)
    name = "contended-mixed-ratios"
    _, runs = _csv(out / "evaluation-runs.csv")
    assert len(runs) == 6
    by = {(r["policy"], r["seed"]): r for r in runs}
    for (policy, seed), r in by.items():
        bound = json.loads((out / name / "bound" / f"{name}-seed{seed}-bound.json").read_text())
        assert float(r["bound_ms"]) == bound["lower_bound"]["mean_jct_ms"]
        assert float(r["best_flow_ms"]) == bound["best"]["mean_jct_ms"]
        fifo = float(by[("fifo", seed)]["jct_mean_ms"])
        if bound["best"]["schedule"] == "scenario":
            best = fifo
        else:
            replay = json.loads((out / name / "best" / f"{name}-best-seed{seed}.json").read_text())
            assert replay["policy"] == "fifo"
            best = sum(j["jct_ms"] for j in replay["jobs"]) / len(replay["jobs"])
        assert math.isclose(float(r["best_packet_ms"]), best)
        mine = float(r["jct_mean_ms"])
        if fifo - best > 1e-2 * fifo:
            assert math.isclose(float(r["gap_share"]), (fifo - mine) / (fifo - best))
        else:
            assert r["gap_share"] == ""
        # at flow level: the policy's flow run against the bound's fifo and best
        flow = json.loads((out / name / "flow" / f"{name}-{policy}-seed{seed}.json").read_text())
        fjct = sum(j["jct_ms"] for j in flow["jobs"]) / len(flow["jobs"])
        ff, fb = bound["fifo"]["mean_jct_ms"], bound["best"]["mean_jct_ms"]
        if ff - fb > 1e-2 * ff:
            assert math.isclose(float(r["gap_share_flow"]), (ff - fjct) / (ff - fb))
    fields, rows = _csv(out / "evaluation.csv")
    assert fields == COLUMNS
    rows = {r["policy"]: r for r in rows}
    for policy, row in rows.items():
        v = [float(by[(policy, s)]["jct_mean_ms"]) for s in ("1", "2")]
        m = sum(v) / 2
        sd = math.sqrt(sum((x - m) ** 2 for x in v))
        assert math.isclose(float(row["jct_mean_ms"]), m)
        assert math.isclose(float(row["jct_mean_ms_ci95"]), 12.706 * sd / math.sqrt(2))
    assert float(rows["fifo"]["gap_share"]) == 0
    _, jobs = _csv(out / "evaluation-jobs.csv")
    assert len(jobs) == 3 * 2 * 3  # policies x seeds x jobs
    for j in jobs:
        assert float(j["slowdown_vs_alone"]) >= 1.0  # alone (flow level) is a bound
        if j["policy"] == "fifo":
            assert float(j["slowdown_vs_fifo"]) == 1.0
    md = (out / "evaluation.md").read_text()
    for head in ("## Summary: bound, best and gap share", "## ECMP collisions per seed"):
        assert head in md


def test_evaluation_background_common_window(tmp_path, flux_run):  # noqa: ARG001
    """With a background tenant, every policy's background percentile comes
    from the same flows (same count per seed), the tenant's p99 packet
    latency is its own (flows.tenants), not the run's, and the variance runs
    vary one seed at a time."""
    scen = os.path.join(REPO, "examples", "scenarios", "contended-fat-tree.json")
    out = tmp_path / "eval"
    _evaluate(out, "--seed-list", "1 2", "--policies", "fifo flux", "--scenarios", scen,
              "--variance", scen)
    _, runs = _csv(out / "evaluation-runs.csv")
    for seed in ("1", "2"):
        counts = {r["bg_flows"] for r in runs if r["seed"] == seed}
        assert len(counts) == 1 and int(counts.pop()) > 0
    for r in runs:
        run = json.loads((out / "contended-fat-tree" / "runs" /
                          f"contended-fat-tree-{r['policy']}-seed{r['seed']}.json").read_text())
        tenants = [t for n, t in run["flows"]["tenants"].items()
                   if n not in {j["name"] for j in run["jobs"]}]
        assert tenants
        assert math.isclose(float(r["latency_p99_bg_us"]),
                            max(t["packet_latency_us"]["p99"] for t in tenants))
        assert float(r["latency_p99_bg_us"]) != float(r["latency_p99_us"])
    for source in ("ecmp", "background", "placement"):
        files = sorted((out / "variance" / source).glob("*-seed[12].json"))
        assert len(files) == 4
        for f in files:
            seeds = json.loads(f.read_text())["seeds"]
            assert seeds[source] == int(f.name[-6])
            assert all(v == 1 for k, v in seeds.items() if k != source)
    assert "## Variance attribution: contended-fat-tree" in (out / "evaluation.md").read_text()


def _lib(call):
    """The words a function of scripts/lib.sh prints (what the evaluation's
    scripts run)."""
    proc = subprocess.run(["bash", "-c", f'source "{REPO}/scripts/lib.sh"; {call}'],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_every_variant_runs_as_written(tmp_path, flux_run):
    """Every variant of scripts/policy-variants.txt, with the flux-run
    arguments the evaluation's scripts give it (scripts/lib.sh), is a policy
    with scenario keys that flux-run accepts (a mistyped key or value exits
    2 there and would only show as a missing row of the evaluation): each
    runs one iteration of one job to completion, under its policy, with the
    job's JCT the same as under its base policy (one job alone is identical
    under every policy and variant)."""
    variants = _lib("flux_policy_variants")
    assert {"flux-one-class", "flux-class-ecn", "flux-one-class-ecn", "flux-flow-ecn",
            "flux-remaining-work"} <= set(variants)
    scen = os.path.join(REPO, "examples", "scenarios", "single-job.json")

    def run(name, args):
        out = tmp_path / f"{name}.json"
        proc = flux_run(scen, "--quiet", "--out", out, "--set", "jobs.0.iterations=1", *args)
        assert proc.returncode == 0, f"{name}: {proc.stderr[-500:]}"
        return json.loads(out.read_text())

    base = {}
    for name in variants:
        args = _lib(f"flux_policy_args {name}")
        assert args[0] == "--policy" and len(args) > 2, args
        policy = args[1]
        if policy not in base:
            base[policy] = run(policy, ["--policy", policy])["jobs"][0]["jct_ms"]
        r = run(name, args)
        assert r["policy"] == policy
        assert r["jobs"][0]["status"] == "completed"
        assert r["jobs"][0]["jct_ms"] == base[policy], name


def test_ablations_are_parts_of_flux_only():
    """The ablation table's columns are ecmp-aware and the variants of flux
    or fifo: a variant of another policy (here one made up beside them) is
    no part of flux and stays out of it."""
    ev = load_script("flux-evaluate")
    ev.VARIANTS["sjf-comm"] = ("sjf", ["scheduler.metric=comm"])
    row = {"jct_mean_ms": 10.0}
    table = {"s": {p: dict(row) for p in ["fifo", "flux", "ecmp-aware", "sjf-comm"]
                   + list(ev.VARIANTS)}}
    header, body = ev.ablations(table)
    assert "sjf-comm" not in header
    assert "ecmp-aware" in header and "fifo+drr" in header
    assert all(v in header for v, (base, _) in ev.VARIANTS.items() if base == "flux")
    assert len(body) == 1 and len(body[0]) == len(header)


def test_class_timeline_plots_each_jobs_classes_on_whole_ticks():
    """The class-over-time plot draws each job's class changes as steps,
    held to the job's end, on an axis whose ticks are whole classes."""
    import types
    ev = load_script("flux-evaluate")
    figs = []
    ev.save = lambda fig, out_dir, name, written: figs.append((name, fig))
    results = {"jobs": [{"name": "a", "class_timeline": [[0, 2], [1.5, 1]]},
                        {"name": "b", "class_timeline": [[0, 1], [2.0, 2]]}]}
    run = types.SimpleNamespace(scenario="s", policy="flux", seed=1, results=results,
                                job_end={"a": 3.0, "b": 4.0})
    ev.plot_class_timeline([run], "unused", [])
    assert [name for name, _ in figs] == ["class-timeline-s.png"]
    ax = figs[0][1].axes[0]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert list(lines["a"].get_xdata()) == [0, 1.5, 3.0]
    assert list(lines["a"].get_ydata()) == [2, 1, 1]
    assert list(lines["b"].get_xdata()) == [0, 2.0, 4.0]
    figs[0][1].canvas.draw()
    ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_values_that_round_to_zero_print_without_a_sign():
    """A mean or share that rounds to zero prints as 0.00, never -0.00 (a
    gap share of a policy equal to fifo's, over seeds); other signs stay."""
    ev = load_script("flux-evaluate")
    assert ev.fmt(-0.001, "gap_share", 0.0) == "0.00 ± 0.00"
    assert ev.fmt(-0.0, "jct_mean_ms") == "0.00"
    assert ev.fmt(-1.234, "gap_share", 0.5) == "-1.23 ± 0.50"
