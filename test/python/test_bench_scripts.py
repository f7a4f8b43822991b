"""The benchmark scripts of bench/ as a user runs them: each --help is the
script's own comment block (no code), an option without its value or a bad
count is refused with one line and exit 2, and a scenario flux-run refuses
ends the benchmark with flux-run's own message and status, nothing left in
the repository."""

import glob
import json
import os
import subprocess

import pytest

from conftest import ROOT, script_env

SCRIPTS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "bench", "*.sh")))


def _bench(*args, timeout=60):
    return subprocess.run([os.path.join(ROOT, "bench", args[0]), *map(str, args[1:])],
                          capture_output=True, text=True, timeout=timeout, env=script_env())


def _build():
    return script_env()["FLUX_BUILD_DIR"]  # the tests' build


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_is_the_comment_block(script):
    """--help prints the script's leading comment, without the '#' and
    without a line of its code."""
    p = _bench(script, "--help")
    assert p.returncode == 0, p.stderr
    with open(os.path.join(ROOT, "bench", script)) as f:
        lines = f.read().splitlines()[1:]
    block = []
    for line in lines:
        if not line.startswith("#"):
            break
        block.append(line[2:] if line.startswith("# ") else line[1:])
    assert p.stdout.splitlines() == block
    assert "set -euo" not in p.stdout


def _takes_build(script):
    with open(os.path.join(ROOT, "bench", script)) as f:
        return "    -b) " in f.read()


@pytest.mark.parametrize("script", [s for s in SCRIPTS if _takes_build(s)])
def test_an_option_without_its_value_is_named(script):
    """-b (the build folder) as the last word: one line naming it, exit 2,
    no shell error."""
    p = _bench(script, "-b")
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stderr.strip() == f"{script}: -b needs a value (see --help)"


def test_a_refused_scenario_ends_the_benchmark_with_flux_runs_message(tmp_path):
    """run-scenario-bench, run-flow-bench and run-policy-bench pass on
    flux-run's one-line refusal and its status 2; run-policy-bench refuses
    a name that is no policy and a count of 0 before any run; nothing is
    written beside the scenario."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"jobs": [{"name": "a", "ranks": 2, "bytes": 1000, "iterations": 1}]}')
    for script in ("run-scenario-bench.sh", "run-flow-bench.sh", "run-policy-bench.sh"):
        p = _bench(script, "-n", "1", "-b", _build(), bad)
        assert p.returncode == 2, (script, p.stderr)
        assert "flux-run: topology: required" in p.stderr, (script, p.stderr)
    assert sorted(os.listdir(tmp_path)) == ["bad.json"]
    p = _bench("run-policy-bench.sh", "-b", _build(), "--policies", "nosuch")
    assert p.returncode == 2 and "--policies: nosuch is not a policy" in p.stderr
    p = _bench("run-policy-bench.sh", "-n", "0", "-b", _build())
    assert p.returncode == 2 and "-n wants a positive number" in p.stderr


def test_reader_bench_refuses_bad_sizes():
    """workload-reader-bench names a bad size and exits 2 (no crash), and
    leaves no temporary folder."""
    binary = os.path.join(_build(), "bench", "workload-reader-bench")
    if not os.path.exists(binary):
        pytest.skip("no workload-reader-bench in this build")
    for arg, option in (("--runs=0", "--runs"), ("--ranks=0", "--ranks"),
                        ("--aicbRanks=7", "--aicbRanks"), ("--nodes=-5", "--nodes")):
        p = subprocess.run([binary, arg], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, (arg, p.returncode, p.stderr)
        assert p.stderr.startswith(f"workload-reader-bench: {option}:"), (arg, p.stderr)


def test_scaling_ratios_are_medians_over_alternating_pairs(tmp_path):
    """run-scaling.py's fabric part sets each flux run beside the baseline
    run right after it. Here flux costs 0.9x the baseline throughout, but
    the machine slows twice: during the whole first pair and during the
    second pair's flux run. The ratio of the medians would read 1.44x; the
    median over the pairs reads 0.9x."""
    build = tmp_path / "build"
    (build / "bench").mkdir(parents=True)
    (build / "flux-run").write_text("#!/bin/sh\nexit 0\n")
    counter = tmp_path / "count"
    counter.write_text("0")
    # run k of the study (flux, baseline, flux, ...): its CPU time per hop
    cost = [1.44, 1.6, 1.44, 1.0, 0.9, 1.0]
    bench = build / "bench" / "fabric-bench"
    bench.write_text(f"""#!/usr/bin/python3
import sys
k = int(open({str(counter)!r}).read())
open({str(counter)!r}, "w").write(str(k + 1))
mode = [a for a in sys.argv if a.startswith("--mode=")][0][7:]
us = {cost!r}[k]
hops = 1000000
print("mode=%s wall_s=%g packet_hops=%d data_hops=%d us_per_hop=%g cpu_s=%g "
      "cpu_us_per_hop=%g events_per_s=1e6 kb_per_host=1 maxrss_kb=1"
      % (mode, us, hops, hops, us, us, us))
""")
    for f in (build / "flux-run", bench):
        f.chmod(0o755)
    p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "run-scaling.py"),
                        "-n", "3", "-b", str(build), "--parts", "fabric", "--sizes", "16",
                        "--topologies", "fat-tree", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    row = [line for line in p.stdout.splitlines() if line.startswith("| fat-tree k=4 |")]
    assert len(row) == 1, p.stdout
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    # ratio all, ratio data, CPU ratio all / data
    assert cells[4:7] == ["0.90", "0.90", "0.90 / 0.90"], cells


def test_scenario_bench_prints_figures_whole_and_as_the_results_say(tmp_path):
    """run-scenario-bench.sh on a small scenario: its run and median lines
    give every figure as a plain number (no e+06), the events those of
    flux-run's results for the same scenario, and the bytes those its jobs
    moved (2 (N-1) x bytes per iteration of a ring allreduce)."""
    scenario = os.path.join(ROOT, "examples", "scenarios", "single-job.json")
    p = _bench("run-scenario-bench.sh", "-n", "1", "-b", _build(), scenario)
    assert p.returncode == 0, p.stderr
    lines = {line.split(":")[0]: line for line in p.stdout.splitlines()
             if line.startswith(("run:", "median:"))}
    assert set(lines) == {"run", "median"}, p.stdout
    for line in lines.values():
        assert "e+" not in line and "e-" not in line, line
    figures = dict(kv.split("=") for kv in lines["median"].split()[1:])
    out = tmp_path / "r.json"
    r = subprocess.run([os.path.join(_build(), "flux-run"), scenario, "--out", out, "--quiet"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert int(figures["events"]) == res["sim"]["events"]
    with open(scenario) as f:
        job = json.load(f)["jobs"][0]
    assert int(figures["sim_bytes"]) == 2 * (job["ranks"] - 1) * job["bytes"] * job["iterations"]
