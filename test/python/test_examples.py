"""The C++ examples listed in test/examples-to-run.py (the list ns-3's
./test.py runs in a source tree) run to completion from this build too, with
their arguments, exit 0, and print figures that hold what the example
shows: the ring all-reduce within reach of its bandwidth bound, every incast
flow finished no faster than the line drains a burst and nothing dropped,
one-iteration JCTs equal to their iteration, the distributed example's
digest the same run after run."""

import os
import re
import shlex
import subprocess

import pytest

from conftest import ROOT, _flux_run_path


def _examples():
    ns = {}
    with open(os.path.join(ROOT, "test", "examples-to-run.py")) as f:
        exec(f.read(), ns)
    return [e for e, run, _ in ns["cpp_examples"] if run == "True"]


def test_every_example_is_listed():
    """Every example program of examples/ (flux-run aside, which has its own
    tests) is in the list, so that ./test.py keeps all of them running."""
    listed = {shlex.split(e)[0] for e in _examples()}
    programs = {f[:-3] for f in os.listdir(os.path.join(ROOT, "examples"))
                if f.endswith(".cc") and f != "flux-run.cc"}
    assert listed == programs


def _number(pattern, text):
    m = re.search(pattern, text)
    assert m, f"no match for {pattern!r} in:\n{text}"
    return [float(g) for g in m.groups()]


def _check_ring(out, _):
    # the mean all-reduce takes at least its bandwidth bound, and at most
    # the per-step latencies (alpha) more
    allreduce, = _number(r"allreduce time, mean\s+([\d.]+) ms", out)
    bound, reached = _number(r"bandwidth lower bound\s+([\d.]+) ms \(([\d.]+)% of it", out)
    assert bound <= allreduce <= 1.15 * bound
    assert reached == pytest.approx(100 * bound / allreduce, abs=0.1)
    jct, done, total = _number(r"JCT\s+([\d.]+) ms \((\d+) of (\d+) iterations", out)
    assert done == total == 1 and jct >= allreduce
    assert "drops 0" in out


def _check_incast(out, _):
    done, total = _number(r"flows finished\s+(\d+) of (\d+)", out)
    assert done == total > 0
    lo, med, hi, drain = _number(r"FCT min / median / max\s+([\d.]+) / ([\d.]+) / ([\d.]+) us "
                                 r"\(drain time of a burst ([\d.]+) us\)", out)
    assert lo <= med <= hi and drain <= hi <= 1.5 * drain
    assert re.search(r"switch: PFC pauses [1-9]\d*, ECN marks \d+, drops 0", out)


def _check_multi_tenant(out, _):
    jobs = re.findall(r"job (\w+): JCT\s+([\d.]+) ms, iteration median ([\d.]+) ms, "
                      r"max ([\d.]+) ms", out)
    assert len(jobs) == 2
    for _, jct, median, worst in jobs:
        assert jct == median == worst  # one iteration
    flows = sum(int(n) for n in re.findall(r"RPC flows [<>=]+ 100 KB: (\d+)", out))
    assert flows > 0


def _check_distributed(out, rerun):
    digest = re.search(r"digest: ([0-9a-f]{16})", out)
    assert digest and f"digest: {digest.group(1)}" in rerun()
    assert re.search(r"switches: \d+ packets received, 0 dropped", out)


CHECKS = {"flux-ring-allreduce-example": _check_ring, "flux-incast-example": _check_incast,
          "flux-multi-tenant-example": _check_multi_tenant,
          "flux-distributed-example": _check_distributed}


def test_every_example_has_its_check():
    assert {shlex.split(e)[0] for e in _examples()} == set(CHECKS)


@pytest.mark.parametrize("line", _examples())
def test_example_runs(line):
    argv = shlex.split(line)
    exe = os.path.join(os.path.dirname(_flux_run_path()), "examples", argv[0])
    if not os.access(exe, os.X_OK):
        pytest.fail(f"{exe} was not built")

    def run():
        proc = subprocess.run([exe, *argv[1:]], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    CHECKS[argv[0]](run(), run)
