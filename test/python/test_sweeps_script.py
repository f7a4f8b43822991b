"""scripts/flux-sweeps (run by scripts/run-sweeps.sh): each sweep point runs
the researcher's own scenario file with --set, so that its relative paths
resolve, and changes only what the sweep names."""

import csv
import json
import os
import shutil
import subprocess

from conftest import ROOT, SMALL, script_env

CHAKRA = os.path.join(ROOT, "test", "data", "workloads", "chakra-microbenchmarks", "all_reduce",
                      "16npus_1MB")


def _sweeps(scenario, out):
    proc = subprocess.run(
        ["/usr/bin/python3", os.path.join(ROOT, "scripts", "flux-sweeps"), str(scenario),
         "--seeds", "1", "--policies", "fifo", "--out", str(out),
         "--flux-run", os.path.join(script_env()["FLUX_BUILD_DIR"], "flux-run")],
        capture_output=True, text=True, timeout=600, env=script_env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    with open(out / "sweeps.csv", newline="") as f:
        return proc, list(csv.DictReader(f))


def test_relative_paths_resolve_and_workload_jobs_keep_their_compute(tmp_path):
    """A scenario beside its own CDF file and workload folder (relative
    paths) sweeps from another folder; the load sweep scales the compute of
    the job without a workload file only (a replayed job's compute comes from
    its file: its JCT stays the same at every point where it runs alone), and
    the background sweep the tenant's load."""
    study = tmp_path / "study"
    (study / "cdfs").mkdir(parents=True)
    (study / "cdfs" / "web.cdf").write_text("0 0\n10000 50\n100000 100\n")
    shutil.copytree(CHAKRA, study / "trace")
    scenario = json.loads(json.dumps(SMALL))
    scenario["topology"] = {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 10}
    scenario["jobs"][1] = {"name": "replay", "workload": {"chakra": "trace/all_reduce"},
                           "hosts": list(range(4, 20)), "iterations": 1}
    scenario["background"][0]["cdf"] = "cdfs/web.cdf"
    path = study / "scenario.json"
    path.write_text(json.dumps(scenario))

    proc, rows = _sweeps(path, tmp_path / "out")
    assert {r["sweep"] for r in rows} == {"load", "background", "control-latency"}
    assert not list((tmp_path / "out").glob("*.json"))  # no copies of the scenario
    runs = tmp_path / "out" / "runs"
    load = {float(r["x"]): json.loads((runs / f"scenario-load-{float(r['x']):g}-fifo-seed1.json")
                                      .read_text()) for r in rows if r["sweep"] == "load"}
    jct = {x: {j["name"]: j["jct_ms"] for j in r["jobs"]} for x, r in load.items()}
    # job "a" computes 1 ms per iteration times x: its JCT grows with x
    assert jct[4]["a"] > jct[0.25]["a"] + 3 * (4 - 0.25) * 0.9
    # the replayed job's compute is its trace's: the sweep does not touch it
    assert jct[4]["replay"] < 2 * jct[0.25]["replay"]


def test_a_sweep_without_its_subject_is_skipped_with_a_line(tmp_path):
    """A scenario whose jobs all replay workload files and that has no
    Poisson tenant runs the control-latency sweep only, and says why the
    other two are absent."""
    study = tmp_path / "study"
    study.mkdir()
    shutil.copytree(CHAKRA, study / "trace")
    scenario = {"topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                             "hosts_per_leaf": 8},
                "jobs": [{"name": "replay", "workload": {"chakra": "trace/all_reduce"},
                          "hosts": list(range(16)), "iterations": 1}]}
    path = study / "scenario.json"
    path.write_text(json.dumps(scenario))
    proc, rows = _sweeps(path, tmp_path / "out")
    assert {r["sweep"] for r in rows} == {"control-latency"}
    assert "no load sweep: the scenario has no job without a workload file" in proc.stdout
    assert "no background sweep: the scenario has no Poisson background tenant" in proc.stdout


def test_an_unknown_policy_is_refused_before_any_run(tmp_path):
    """A name that is no policy of flux-run --list-policies (a variant's, or a
    typo) exits 2 naming it and the known ones, before any run starts."""
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(SMALL))
    out = tmp_path / "out"
    proc = subprocess.run(
        ["/usr/bin/python3", os.path.join(ROOT, "scripts", "flux-sweeps"), str(scenario),
         "--seeds", "1", "--policies", "fifo flux-no-guard", "--out", str(out),
         "--flux-run", os.path.join(script_env()["FLUX_BUILD_DIR"], "flux-run")],
        capture_output=True, text=True, timeout=60, env=script_env())
    assert proc.returncode == 2
    assert "--policies: flux-no-guard: not a policy of flux-run --list-policies (fifo " \
        in proc.stderr
    assert not (out / "runs").exists()
