"""The benchmark scripts of bench/ as a user runs them: each --help is the
script's own comment block (no code), an option without its value or a bad
count is refused with one line and exit 2, and a scenario flux-run refuses
ends the benchmark with flux-run's own message and status, nothing left in
the repository."""

import glob
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
