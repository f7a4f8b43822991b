"""The C++ examples listed in test/examples-to-run.py (the list ns-3's
./test.py runs in a source tree) run to completion from this build too, with
their arguments, exit 0 and print their summary."""

import os
import shlex
import subprocess

import pytest

from conftest import _flux_run_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


@pytest.mark.parametrize("line", _examples())
def test_example_runs(line):
    argv = shlex.split(line)
    exe = os.path.join(os.path.dirname(_flux_run_path()), "examples", argv[0])
    if not os.access(exe, os.X_OK):
        pytest.fail(f"{exe} was not built")
    proc = subprocess.run([exe, *argv[1:]], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip(), "the example printed nothing"
