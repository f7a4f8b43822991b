"""Sweeps: serial, local processes and Dask give the same table; the cache
serves repeated sweeps."""

import os

import pandas as pd

import pytest

import ns3flux
from conftest import SMALL

SEEDS = [1, 2]


def scenarios():
    return {"small": SMALL, "one-job": ns3flux.variant(SMALL, {"jobs[1].iterations": 1})}


def comparable(df):
    return df.drop(columns=[c for c in ("wall_s",) if c in df.columns])


@pytest.fixture(scope="module")
def serial():
    """The runs table of the sweep run one after the other in this process."""
    return ns3flux.sweep(scenarios(), seeds=SEEDS, table="runs", max_workers=0, cache=False)


def test_serial_sweep_shape(serial):
    """One row per scenario x policy x seed, in that order, with the
    policies of ns3flux.policies() and the seeds asked for."""
    policies = ns3flux.policies()
    assert len(serial) == 2 * len(policies) * len(SEEDS)
    assert serial[["scenario", "policy", "seed"]].values.tolist() == [
        [s, p, seed] for s in ("small", "one-job") for p in policies for seed in SEEDS]
    assert (serial["stop_reason"] == "completed").all()


def test_local_processes_equal_serial(serial):
    """Two local worker processes give the serial sweep's table."""
    df = ns3flux.sweep(scenarios(), seeds=SEEDS, table="runs", max_workers=2, cache=False)
    pd.testing.assert_frame_equal(comparable(df), comparable(serial), check_exact=True)


def test_dask_local_cluster_equals_serial(serial):
    """A Dask LocalCluster of 2 worker processes gives the serial sweep's
    table, and so do its per-job and per-flow tables."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        df = ns3flux.sweep(scenarios(), seeds=SEEDS, table="runs", client=client, cache=False)
        jobs = ns3flux.sweep(scenarios(), seeds=SEEDS, table="jobs", client=client, cache=False)
    pd.testing.assert_frame_equal(comparable(df), comparable(serial), check_exact=True)
    expected = ns3flux.sweep(scenarios(), seeds=SEEDS, table="jobs", max_workers=0, cache=False)
    pd.testing.assert_frame_equal(jobs, expected, check_exact=True)


def test_sweep_cache(tmp_path):
    """A repeated sweep is served from the cache (no run, same values,
    same wall_s); a new seed runs only the new runs."""
    cache = ns3flux.Cache(tmp_path / "cache")
    first = ns3flux.sweep_runs(SMALL, seeds=[1], max_workers=0, cache=cache)
    assert not any(r.cached for r in first)
    again = ns3flux.sweep_runs(SMALL, seeds=[1], max_workers=0, cache=cache)
    assert all(r.cached for r in again)
    assert [r.results for r in again] == [r.results for r in first]
    more = ns3flux.sweep_runs(SMALL, seeds=[1, 5], max_workers=0, cache=cache)
    assert [r.cached for r in more] == [True, False] * len(ns3flux.policies())


def test_progress_function_is_called_per_run(tmp_path):
    """sweep(progress=f) calls f(done, total) at the start and after each
    run; cached runs count as done from the start."""
    cache = ns3flux.Cache(tmp_path / "cache")
    calls = []
    ns3flux.sweep_runs(SMALL, policies=["fifo"], seeds=[1], max_workers=0, cache=cache)
    ns3flux.sweep_runs(SMALL, policies=["fifo"], seeds=[1, 2, 3], max_workers=0, cache=cache,
                       progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_sweep_validates_first():
    """A bad scenario anywhere in a sweep raises ScenarioError before any
    run."""
    bad = ns3flux.variant(SMALL, {"jobs[1].ranks": 12})
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.sweep({"good": SMALL, "bad": bad}, max_workers=0, cache=False)
    assert info.value.field == "jobs[1].ranks"


def test_bad_sweep_arguments_raise_naming_them():
    """An empty seed or policy list, or a negative or non-integral
    max_workers, raises ValueError naming the argument before any run."""
    for kwargs, name in (({"seeds": []}, "seeds"), ({"policies": []}, "policies"),
                         ({"max_workers": -1}, "max_workers"),
                         ({"max_workers": 1.5}, "max_workers")):
        with pytest.raises(ValueError, match=name):
            ns3flux.sweep_runs(SMALL, **kwargs, cache=False)


def test_a_scenario_without_topology_is_one_scenario():
    """A scenario dict is told from a {label: scenario} dict by its keys:
    an HPCC import ({"hpcc": ...}, no "topology") sweeps as one scenario,
    as run() and validate() take it."""
    config = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hpcc",
                          "config-hpcc.txt")
    s = {"hpcc": {"config": os.path.abspath(config)}, "stop_ms": 2001}
    runs = ns3flux.sweep_runs(s, policies=["fifo"], seeds=[1], max_workers=0, cache=False)
    assert [(r.scenario, r.policy, r.seed) for r in runs] == [("0", "fifo", 1)]
    assert runs[0].results["flows"]["count"] > 0


def test_plain_script_sweeps_in_processes(tmp_path):
    """A script that sweeps at its top level, without
    ``if __name__ == "__main__":``, runs its sweep in worker processes, and
    its own code runs once: the workers do not run the script again."""
    import json
    import os
    import subprocess
    import sys

    script = tmp_path / "plain.py"
    script.write_text(
        "import json, sys\n"
        "import ns3flux\n"
        "print('top level', flush=True)\n"
        f"s = json.loads({json.dumps(json.dumps(SMALL))})\n"
        "runs = ns3flux.sweep_runs(s, ['fifo'], [1, 2], max_workers=2, cache=False)\n"
        "print(json.dumps([r.results['sim']['stop_reason'] for r in runs]))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run(["/usr/bin/python3", str(script)], capture_output=True, text=True,
                       timeout=300, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert lines.count("top level") == 1
    assert json.loads(lines[-1]) == ["completed", "completed"]


def test_labels_named_like_scenario_keys_label_scenarios():
    """{label: scenario} is told from a scenario by its values, so labels
    named like scenario keys ("faults", "hpcc", "seed") label scenarios."""
    runs = ns3flux.sweep_runs({"faults": SMALL, "hpcc": SMALL, "seed": SMALL}, policies=["fifo"],
                              seeds=[1], max_workers=0, cache=False, backend="flow")
    assert [r.scenario for r in runs] == ["faults", "hpcc", "seed"]
    assert runs[0].results["jobs"] == runs[1].results["jobs"]


def test_an_interrupted_sweep_keeps_the_runs_it_finished(tmp_path, monkeypatch):
    """A sweep stopped part of the way (Ctrl-C, a failed run) stores the
    runs that finished, so running it again simulates only the rest."""
    import importlib

    sweep_module = importlib.import_module("ns3flux.sweep")  # (ns3flux.sweep is the function)

    real = sweep_module.run_task
    calls = []

    def second_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sweep_module, "run_task", second_fails)
    cache = ns3flux.Cache(tmp_path / "cache")
    with pytest.raises(KeyboardInterrupt):
        ns3flux.sweep_runs(SMALL, policies=["fifo"], seeds=[1, 2, 3], max_workers=0,
                           cache=cache, backend="flow")
    assert len(cache) == 1
    monkeypatch.setattr(sweep_module, "run_task", real)
    runs = ns3flux.sweep_runs(SMALL, policies=["fifo"], seeds=[1, 2, 3], max_workers=0,
                              cache=cache, backend="flow")
    assert [r.cached for r in runs] == [True, False, False]
