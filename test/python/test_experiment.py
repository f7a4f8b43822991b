"""scripts/run-experiment.sh, the study a researcher runs on a scenario of
their own: with --bound its policy table measures every policy against the
bound's best schedule."""

import csv
import json
import math
import os
import re
import subprocess

from conftest import script_env

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO = os.path.join(REPO, "examples", "scenarios", "contended-mixed-ratios.json")
NAME = "contended-mixed-ratios"


def _experiment(out, *args):
    proc = subprocess.run(
        [os.path.join(REPO, "scripts", "run-experiment.sh"), "--no-deps", "--no-build",
         "--no-plots", "--scenario", SCENARIO, "--seed-list", "1", "--policies", "fifo flux",
         "--out", str(out), *args], capture_output=True, text=True, timeout=300, env=script_env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc


def _mean_jct(path):
    jobs = json.loads(path.read_text())["jobs"]
    return sum(j["jct_ms"] for j in jobs) / len(jobs)


def test_bound_adds_each_policys_gap_share(tmp_path, flux_run):  # noqa: ARG001
    """With --bound the study runs the bound, the flow-level runs and the
    best schedule's replay beside its runs, and its policy table (printed
    and policies.csv) gives each policy's share of the fifo -> best gap as
    (fifo - policy) / (fifo - best) of the files it ran (fifo: 0), and the
    lower bound; without --bound it runs none of them and shows no share."""
    plain = _experiment(tmp_path / "plain")
    assert "gap share" not in plain.stdout
    assert not (tmp_path / "plain" / "bound").exists()

    out = tmp_path / "bounded"
    proc = _experiment(out, "--bound")
    bound = json.loads((out / "bound" / f"{NAME}-seed1-bound.json").read_text())
    fifo = _mean_jct(out / "runs" / f"{NAME}-fifo-seed1.json")
    flux = _mean_jct(out / "runs" / f"{NAME}-flux-seed1.json")
    assert bound["best"]["schedule"] != "scenario"  # a replay exists to measure against
    best = _mean_jct(out / "best" / f"{NAME}-best-seed1.json")
    assert fifo - best > 1e-2 * fifo
    with open(out / "policies.csv", newline="") as f:
        rows = {r["policy"]: r for r in csv.DictReader(f)}
    assert float(rows["fifo"]["gap_share"]) == 0
    assert math.isclose(float(rows["flux"]["gap_share"]), (fifo - flux) / (fifo - best))
    policies = proc.stdout[proc.stdout.index("== policies"):]
    header = next(line for line in policies.splitlines() if line.startswith("policy "))
    assert "gap share" in header and "gap share (flow)" in header
    flux_row = next(line for line in policies.splitlines() if line.startswith("flux "))
    assert f"{(fifo - flux) / (fifo - best):.2f}" in flux_row
    assert f"{bound['lower_bound']['mean_jct_ms']:.2f}" in policies


def test_a_bad_seed_list_is_refused_before_any_run(tmp_path):
    """--seed-list takes positive integers separated by spaces: a comma, an
    empty list or a zero is refused naming the option, before any run (a
    list such as "1,2" ran one failing run as --seed 1,2)."""
    for bad in ("1,2", "", "0", "1 x"):
        out = tmp_path / "out"
        proc = subprocess.run(
            [os.path.join(REPO, "scripts", "run-experiment.sh"), "--no-deps", "--no-build",
             "--scenario", SCENARIO, "--seed-list", bad, "--out", str(out)],
            capture_output=True, text=True, timeout=60, env=script_env())
        assert proc.returncode != 0, bad
        assert "--seed-list: expected positive integers" in proc.stdout + proc.stderr, bad
        assert not out.exists(), bad


def test_a_bad_scenario_is_refused_once_before_any_run(tmp_path):
    """A scenario the runner refuses ends the study before any run: exit 2,
    flux-run's one line naming the field, printed once (not once per policy
    and seed), and no output folder."""
    scen = json.loads(open(SCENARIO).read())
    scen["jobs"][0]["iteratons"] = 3
    bad = tmp_path / "typo.json"
    bad.write_text(json.dumps(scen))
    out = tmp_path / "out"
    proc = subprocess.run(
        [os.path.join(REPO, "scripts", "run-experiment.sh"), "--no-deps", "--no-build",
         "--no-plots", "--scenario", str(bad), "--seed-list", "1 2", "--policies", "fifo flux",
         "--out", str(out)], capture_output=True, text=True, timeout=60, env=script_env())
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stderr.count("jobs[0].iteratons") == 1, proc.stderr
    assert not out.exists()


def test_check_validates_without_running_or_writing(tmp_path, flux_run):
    """flux-run --check prints its verdict and the memory estimate it checked,
    and writes nothing for a valid scenario (with its overrides applied), and
    refuses a bad one as a run would: exit 2, the field named."""
    p = flux_run(SCENARIO, "--check", "--policy", "flux", "--seed", "3")
    assert p.returncode == 0, p.stderr
    first, memory = p.stdout.strip().splitlines()
    assert first.endswith("valid (policy flux, seed 3, 6 hosts, 3 job(s), 0 tenant(s))")
    # the estimate printed is the one the memory check compares: a limit
    # 10 % below it refuses the scenario, one 10 % above passes it
    m = re.match(r"\s*memory: an estimated ([\d.]+) MB of the ", memory)
    assert m, memory
    mb = float(m.group(1))
    for limit, code in ((mb * 0.9, 2), (mb * 1.1, 0)):
        env = dict(os.environ, FLUX_MEMORY_LIMIT_MB=str(limit))
        q = subprocess.run([flux_run.path, SCENARIO, "--check", "--policy", "flux"], env=env,
                           capture_output=True, text=True, timeout=600)
        assert q.returncode == code, (limit, q.stderr)
    assert f"an estimated {m.group(1)} MB" in q.stdout and "(FLUX_MEMORY_LIMIT_MB)" in q.stdout
    assert not os.path.exists(SCENARIO.replace(".json", "-results.json"))
    p = flux_run(SCENARIO, "--check", "--set", "jobs[0].ranks=99")
    assert p.returncode == 2 and p.stderr.startswith("flux-run: jobs[0].ranks"), p.stderr
