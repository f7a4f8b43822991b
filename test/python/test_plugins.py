"""Plugins: a policy built outside the module, as the manual shows it (its
example class and its g++ command), loaded by flux-run --plugin, by
FLUX_PLUGINS and by ns3flux.load_plugin, and runs as a built-in policy;
bad libraries are refused with one line and exit 2."""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, _flux_run_path

SCENARIO = os.path.join(ROOT, "examples", "scenarios", "contended-two-equal.json")

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _manual():
    with open(os.path.join(ROOT, "doc", "flux.rst")) as fh:
        return fh.read()


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """libmy-policy.so: the manual's example policy (Writing a Policy),
    wrapped as its *As a plugin* paragraph says, built with that paragraph's
    command run as written from the project folder."""
    manual = _manual()
    code = re.search(r"Writing a Policy\n~+\n(?:.*\n)*?\.\. code-block:: c\+\+\n\n"
                     r"((?:    .*\n|\n)+)", manual)
    assert code, "the manual's example policy"
    block = re.search(r"\*As a plugin\*(?:.*\n)*?.*builds with::\n\n((?:   .*\n)+)", manual)
    assert block, "the manual's plugin command"
    work = tmp_path_factory.mktemp("plugin")
    body = "\n".join(line[4:] for line in code.group(1).splitlines())
    (work / "my-policy.cc").write_text('#include "ns3/job-scheduler.h"\n\nnamespace ns3\n{\n' +
                                       body + "\n} // namespace ns3\n")
    build = os.path.dirname(_flux_run_path())
    command = " ".join(line.strip().rstrip("\\") for line in block.group(1).splitlines())
    args = [build + "/include" if a == "build/include" else build if a == "build" else
            str(work / a) if a in ("my-policy.cc", "libmy-policy.so") else a
            for a in shlex.split(command)]
    assert args[0] == "g++" and str(work / "libmy-policy.so") in args, args
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return work / "libmy-policy.so"


def _flux_run(*args, env=None):
    return subprocess.run([_flux_run_path(), *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, **(env or {})))


def test_flux_run_lists_describes_and_runs_a_plugin_policy(plugin, tmp_path):
    """--plugin makes the library's policy one like the built-in ones: listed
    after them, its attribute a scheduler key, and run with its effect (job
    j held j x offset at its first gate), at both levels."""
    p = _flux_run("--plugin", plugin, "--list-policies")
    assert p.returncode == 0, p.stderr
    names = p.stdout.split()
    assert names[:4] == ["fifo", "cassini", "crux", "flux"] and names[-1] == "stagger"
    p = _flux_run("--plugin", plugin, "--describe-policy", "stagger")
    assert p.returncode == 0 and "offset_us" in p.stdout, p.stderr
    for backend in ("flow", "packet"):
        out = tmp_path / f"{backend}.json"
        p = _flux_run("--plugin", plugin, SCENARIO, "--policy", "stagger", "--set",
                      "scheduler.offset_us=500", "--backend", backend, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        r = json.loads(out.read_text())
        assert r["policy"] == "stagger"
        assert [j["gate_wait_ms"] for j in r["jobs"]] == pytest.approx([0, 0.5], abs=1e-9)
    # without the plugin the name is unknown, as any misspelt policy
    p = _flux_run(SCENARIO, "--policy", "stagger", "--check")
    assert p.returncode == 2 and "stagger" in p.stderr


def test_flux_plugins_loads_for_every_run(plugin):
    """FLUX_PLUGINS (paths separated by ':') loads libraries before --plugin:
    a script that starts flux-run sees the policy without a new option."""
    p = _flux_run("--list-policies", env={"FLUX_PLUGINS": f":{plugin}:"})
    assert p.returncode == 0, p.stderr
    assert "stagger" in p.stdout.split()
    # the same library again adds nothing, and says so
    p = _flux_run("--plugin", plugin, "--list-policies", env={"FLUX_PLUGINS": str(plugin)})
    assert p.returncode == 0 and p.stdout.split().count("stagger") == 1
    assert "registered no policy nor congestion control" in p.stderr


@pytest.mark.parametrize("case", ["missing", "folder", "not-a-library", "name-taken", "env"])
def test_a_bad_plugin_is_one_line_and_exit_2(plugin, tmp_path, case):
    """A library that cannot be loaded, or registers a name already taken
    (a second copy of one), stops flux-run before anything is written: one
    line naming the option or variable, exit 2, no results file."""
    out = tmp_path / "r.json"
    env = None
    if case == "missing":
        args, expect = ["--plugin", tmp_path / "none.so"], "--plugin: .*none.so: no such file"
    elif case == "folder":
        args, expect = ["--plugin", tmp_path], "--plugin: .*: is a folder, not a shared library"
    elif case == "not-a-library":
        args, expect = ["--plugin", SCENARIO], "--plugin: .*contended-two-equal.json: .*ELF"
    elif case == "name-taken":
        copy = tmp_path / "libcopy.so"
        shutil.copy(plugin, copy)
        args = ["--plugin", plugin, "--plugin", copy]
        expect = '--plugin: .*libcopy.so: registers the policy "stagger", a name already taken'
    else:
        args, expect = [], "FLUX_PLUGINS: .*none.so: no such file"
        env = {"FLUX_PLUGINS": str(tmp_path / "none.so")}
    p = _flux_run(*args, SCENARIO, "--out", out, "--backend", "flow", "--quiet", env=env)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match("flux-run: " + expect, lines[0]), p.stderr
    assert not out.exists()


def test_python_loads_a_plugin_and_sweeps_with_it(plugin, tmp_path):
    """ns3flux.load_plugin returns what the library registered; run() and a
    sweep's spawned workers then run the policy; the cache keys on it; a name
    already taken raises ScenarioError naming load_plugin (in a process of
    its own, so that this one's policies stay the built-in ones)."""
    copy = tmp_path / "libcopy.so"
    shutil.copy(plugin, copy)
    script = tmp_path / "sweep.py"
    script.write_text(
        "import json, sys\n"
        "import ns3flux\n"
        "engine = ns3flux.cache.engine_id()\n"
        f"loaded = ns3flux.load_plugin({str(plugin)!r})\n"
        "assert loaded['policies'] == ['stagger'] and loaded['congestion_controls'] == []\n"
        f"assert ns3flux.loaded_plugins() == [{str(plugin)!r}]\n"
        "assert ns3flux.cache.engine_id() != engine\n"
        "assert ns3flux.load_plugin(loaded['path'])['policies'] == []\n"
        f"s = {SCENARIO!r}\n"
        "r = ns3flux.run(s, policy='stagger', backend='flow')\n"
        "runs = ns3flux.sweep_runs(s, ['stagger'], [1, 2], max_workers=2, cache=False,\n"
        "                          backend='flow')\n"
        "try:\n"
        f"    ns3flux.load_plugin({str(copy)!r})\n"
        "    taken = None\n"
        "except ns3flux.ScenarioError as e:\n"
        "    taken = [e.field, e.problem]\n"
        "print(json.dumps([[j['gate_wait_ms'] for j in r['jobs']],\n"
        "                  [[j['gate_wait_ms'] for j in x.results['jobs']] for x in runs],\n"
        "                  taken]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("FLUX_PLUGINS", None)
    p = subprocess.run(["/usr/bin/python3", str(script)], capture_output=True, text=True,
                       timeout=300, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    alone, swept, taken = json.loads(p.stdout.splitlines()[-1])
    assert alone == pytest.approx([0, 0.1]) and swept == [alone, alone]
    assert taken[0] == "load_plugin" and 'registers the policy "stagger"' in taken[1]
