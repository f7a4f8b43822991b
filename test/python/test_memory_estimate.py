"""The memory estimate flux-run checks before a run against the peak
resident memory of the same run, measured here: for fabrics from 1 024 to
32 768 hosts (one 2-rank job, 0.01 ms), the estimate is within -5 % and
+25 % of the measured peak (it errs on the large side)."""

import json
import re
import subprocess

import pytest

from conftest import _flux_run_path, sanitized_build

TOPOLOGIES = [
    {"kind": "leaf-spine", "leaves": 64, "spines": 32, "hosts_per_leaf": 64},
    {"kind": "fat-tree", "k": 16},
    {"kind": "dumbbell", "hosts_per_side": 16384},
    {"kind": "leaf-spine", "leaves": 128, "spines": 16, "hosts_per_leaf": 16},
]


def _peak_mb(cmd, env=None):
    """Run cmd in a child that reports its own peak resident memory."""
    code = ("import resource, subprocess, sys;"
            "p = subprocess.run(sys.argv[1:]);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
            "sys.exit(p.returncode)")
    p = subprocess.run(["/usr/bin/python3", "-c", code, *cmd], capture_output=True, text=True,
                       timeout=300, env=env)
    assert p.returncode == 0, p.stderr
    return int(p.stdout.split()[-1]) / 1024 * 1.024 * 1.024  # KiB -> MB


@pytest.mark.parametrize("topology", TOPOLOGIES, ids=lambda t: t["kind"])
def test_estimate_within_measured_peak(tmp_path, topology):
    import os

    if sanitized_build():
        pytest.skip("a sanitizer's shadow memory is not in the estimate")

    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({
        "stop_ms": 0.01, "topology": dict(topology, buffer_mb=100000),
        "jobs": [{"name": "j", "ranks": 2, "bytes": 1000, "iterations": 1}]}))
    flux_run = _flux_run_path()
    # the estimate: what flux-run refuses a 1 MB limit with
    p = subprocess.run([flux_run, scenario, "--quiet"], capture_output=True, text=True,
                       env=dict(os.environ, FLUX_MEMORY_LIMIT_MB="1"), timeout=60)
    assert p.returncode == 2
    estimate = float(re.search(r"needs an estimated (\d+) MB", p.stderr).group(1))
    measured = _peak_mb([flux_run, str(scenario), "--out", str(tmp_path / "r.json"), "--quiet"],
                        env=dict(os.environ, FLUX_MEMORY_LIMIT_MB="0"))
    print(f"{topology}: estimate {estimate} MB, measured {measured:.1f} MB")
    assert 0.95 * measured <= estimate <= 1.25 * measured


def test_the_flow_level_is_not_charged_for_switch_buffers(tmp_path):
    """An incast that fills a deep switch buffer at packet level holds no
    frame at flow level: under a limit the packet level's estimate exceeds
    (its switch buffers named), --check and the run at flow level pass."""
    import os

    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({
        "stop_ms": 5, "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                                   "hosts_per_leaf": 17, "buffer_mb": 1000},
        "background": [{"name": "in", "pattern": "incast", "receiver": 0,
                        "senders": list(range(1, 17)), "bytes": 100_000_000}]}))
    flux_run = _flux_run_path()
    env = dict(os.environ, FLUX_MEMORY_LIMIT_MB="100")
    p = subprocess.run([flux_run, scenario, "--check"], capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.returncode == 2 and "topology.buffer_mb" in p.stderr, p.stderr
    for args in (["--check"], ["--out", tmp_path / "r.json", "--quiet"]):
        p = subprocess.run([flux_run, scenario, "--backend", "flow", *args], capture_output=True,
                           text=True, env=env, timeout=60)
        assert p.returncode == 0, p.stderr
