"""scripts/run-evaluation.sh runs scenarios under policies and writes the
evaluation's tables and plots."""

import csv
import os
import subprocess

from conftest import _flux_run_path

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO = os.path.join(REPO, "examples", "scenarios", "contended-two-equal.json")
COLUMNS = ["scenario", "policy", "seeds", "jct_mean_ms", "jct_p99_ms", "iter_p99_ms",
           "phase_p99_ms", "gate_wait_ms", "bg_slowdown_p99", "ecn_marks", "pfc_pauses",
           "wall_s", "jobs_unfinished", "jct_min_ms", "jct_max_ms", "jct_ratio", "iter_ratio"]


def test_evaluation_two_equal_jobs_flux_beats_fifo(tmp_path, flux_run):  # noqa: ARG001
    """On two equal jobs whose compute equals their communication, sharing
    the link (fifo) stretches each iteration from 2 to 3 units, interleaving
    keeps it at 2: flux's mean JCT is at least 1.25x better than fifo's (the
    bound is 1.5x). Also: one command writes evaluation.csv (one row per
    policy, the documented columns, fifo's ratios 1), evaluation.md, and the
    JCT, iteration-CDF and timeline plots."""
    out = tmp_path / "eval"
    env = dict(os.environ, FLUX_BUILD_DIR=os.path.dirname(os.path.abspath(_flux_run_path())), FLUX_JOBS="2")
    proc = subprocess.run(
        [os.path.join(REPO, "scripts", "run-evaluation.sh"), "--seeds", "1", "--no-build",
         "--policies", "fifo flux", "--scenarios", SCENARIO, "--out", str(out)],
        capture_output=True, text=True, timeout=240, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]

    with open(out / "evaluation.csv", newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        rows = {r["policy"]: r for r in reader}
    assert sorted(rows) == ["fifo", "flux"]
    for r in rows.values():
        assert r["scenario"] == "contended-two-equal"
        assert r["seeds"] == "1"
        assert float(r["jobs_unfinished"]) == 0
        assert float(r["jct_mean_ms"]) > 0 and float(r["iter_p99_ms"]) > 0
    assert float(rows["fifo"]["jct_ratio"]) == 1.0
    assert float(rows["fifo"]["gate_wait_ms"]) == 0
    speedup = float(rows["flux"]["jct_ratio"])
    assert speedup == float(rows["fifo"]["jct_mean_ms"]) / float(rows["flux"]["jct_mean_ms"])
    assert speedup >= 1.25, f"flux only {speedup:.2f}x better than fifo"

    md = (out / "evaluation.md").read_text()
    assert "## contended-two-equal" in md and "| flux |" in md
    with open(out / "evaluation-runs.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == 2
    for png in ["jct.png", "iteration-cdf.png", "timeline-contended-two-equal.png"]:
        with open(out / "plots" / png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", png
