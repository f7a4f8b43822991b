"""Shared fixtures of the ns3flux tests.

Run with the standalone build's module on the path:

    PYTHONPATH=build/python /usr/bin/python3 -m pytest test/python

flux-run is $FLUX_RUN when set, else $FLUX_BUILD_DIR/flux-run, else found
next to the module's build folder (build/flux-run for build/python).
"""

import copy
import importlib.machinery
import importlib.util
import json
import os
import subprocess

import pytest

import ns3flux

# The small two-tenant scenario of the tests: 8 hosts, two 4-rank jobs of
# 3 iterations and a websearch background tenant between hosts 0 and 4.
SMALL = {
    "seed": 1,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
    "jobs": [
        {"name": "a", "ranks": 4, "placement": "spread", "bytes": 4000000, "compute_ms": 1,
         "iterations": 3},
        {"name": "b", "ranks": 4, "placement": "packed", "bytes": 4000000, "compute_ms": 1,
         "iterations": 3},
    ],
    "background": [{"name": "rpc", "cdf": "websearch", "load": 0.2, "hosts": [0, 4]}],
}


#: The repository's root folder.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_script(name):
    """A script of scripts/ (a Python file without .py) as a module, its
    main() not run."""
    path = os.path.join(ROOT, "scripts", name)
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


@pytest.fixture
def small():
    """A fresh copy of the small scenario dict."""
    return copy.deepcopy(SMALL)


@pytest.fixture
def small_file(tmp_path):
    """The small scenario written to a file."""
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL, indent=2))
    return path


def _flux_run_path():
    env = os.environ.get("FLUX_RUN")
    if env:
        return os.path.abspath(env)
    if os.environ.get("FLUX_BUILD_DIR"):
        return os.path.abspath(os.path.join(os.environ["FLUX_BUILD_DIR"], "flux-run"))
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ns3flux.__file__))))
    return os.path.join(build, "flux-run")


def cmake_entry(build, key):
    """A CMake cache entry's value in a build folder ("" when the cache has
    no such entry, None when there is no cache)."""
    path = os.path.join(build, "CMakeCache.txt")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.rstrip("\n").split("=", 1)[1]
    return ""


def sanitized_build():
    """Whether the tests' flux-run is built with sanitizers
    (scripts/sanitize.sh), whose shadow memory and slower code make its
    memory and time no measure of a normal build's."""
    flags = cmake_entry(os.path.dirname(os.path.abspath(_flux_run_path())), "CMAKE_CXX_FLAGS")
    return bool(flags) and "-fsanitize" in flags


def script_env():
    """The environment for the repository's scripts (run-experiment.sh,
    run-evaluation.sh): the build that holds the tests' flux-run, two runs
    at a time."""
    return dict(os.environ, FLUX_BUILD_DIR=os.path.dirname(os.path.abspath(_flux_run_path())),
                FLUX_JOBS="2")


@pytest.fixture(scope="session")
def flux_run():
    """A function running build/flux-run with arguments; returns the
    CompletedProcess (text output). Its path is the function's .path."""
    path = _flux_run_path()
    if not os.access(path, os.X_OK):
        pytest.fail(f"flux-run not found at {path} (set FLUX_RUN)")

    def call(*args):
        return subprocess.run([path, *map(str, args)], capture_output=True, text=True,
                              timeout=600)

    call.path = path
    return call


def strip_wall(results):
    """A copy of a results dict without sim.wall_s, the one value that is
    not reproducible."""
    out = copy.deepcopy(results)
    out.get("sim", {}).pop("wall_s", None)
    return out


def shipped(name):
    """The scenario dict of examples/scenarios/<name>.json."""
    with open(os.path.join(ROOT, "examples", "scenarios", name + ".json")) as f:
        return json.load(f)


def run_scenario(flux_run, tmp_path, scenario, name, *args):
    """Write a scenario dict to tmp_path/<name>.json, run flux-run on it
    (quiet, with the extra args), require exit 0, and return (results path,
    results dict)."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(scenario))
    out = tmp_path / f"{name}-results.json"
    proc = flux_run(path, "--out", out, "--quiet", *args)
    assert proc.returncode == 0, proc.stderr
    return out, json.loads(out.read_text())
