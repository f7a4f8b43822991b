"""ns3flux.run: import, results shape, determinism, agreement with flux-run."""

import json
import os
import shutil

import pytest

import ns3flux
from conftest import ROOT, strip_wall


def test_import_and_policies(small, flux_run):
    """The package imports, knows its version and lists exactly the
    policies flux-run lists, in its order, each of which runs the same
    scenario to the end under its own name."""
    assert isinstance(ns3flux.__version__, str) and ns3flux.__version__
    assert os.path.isfile(ns3flux._ns3flux.library_path())
    policies = ns3flux.policies()
    assert policies == flux_run("--list-policies").stdout.split()
    for policy in policies:
        r = ns3flux.run(small, policy=policy)
        assert r["policy"] == policy and r["sim"]["stop_reason"] == "completed", policy


def test_run_returns_contract_results(small):
    """A run of the small scenario returns the results of Contract 1: both
    jobs completed with one iteration time per iteration, and records whose
    lengths match the summaries."""
    res = ns3flux.run(small)
    assert res["policy"] == "fifo" and res["seed"] == 1
    for key in ("jobs", "flows", "network", "sim"):
        assert key in res
    assert [j["name"] for j in res["jobs"]] == ["a", "b"]
    for j in res["jobs"]:
        assert j["completed"] is True
        assert len(j["iteration_ms"]) == 3
        assert j["jct_ms"] > 0
        assert j["phase_ms"]["count"] == 3 * 2 * (4 - 1)
    for key in ("drops", "pfc_pauses", "ecn_marks", "cnps", "retransmissions"):
        assert isinstance(res["network"][key], int)
    assert res["sim"]["simulated_ms"] > 0 and res["sim"]["events"] > 0
    assert res["sim"]["stop_reason"] == "completed"
    rec = res["records"]
    assert len(rec["iterations"]["job"]) == 6
    assert len(rec["phases"]["job"]) == sum(j["phase_ms"]["count"] for j in res["jobs"])
    assert len(rec["flows"]["tenant"]) == res["flows"]["count"]
    assert res["flows"]["count"] > 0


def test_records_optional(small):
    """records=False leaves the results exactly as the results file has
    them (no extra key)."""
    res = ns3flux.run(small, records=False)
    assert "records" not in res


def test_repeated_runs_are_identical(small):
    """Same scenario and seed give the same results in one process, also
    with other runs (another seed, another scenario) in between: ns-3's
    global state is reset between runs."""
    first = strip_wall(ns3flux.run(small))
    other = ns3flux.run(small, seed=7)
    ns3flux.run({**small, "jobs": small["jobs"][:1], "background": []})
    second = strip_wall(ns3flux.run(small))
    assert first == second
    assert strip_wall(other) != first  # the seed matters, so equality above means something


def test_path_and_dict_give_the_same(small, small_file):
    """A scenario file and the same scenario as a dict give the same
    results; policy and seed overrides apply to both."""
    a = strip_wall(ns3flux.run(small_file, seed=3))
    b = strip_wall(ns3flux.run(small, seed=3))
    assert a == b and a["seed"] == 3


def test_matches_flux_run(small_file, tmp_path, flux_run):
    """ns3flux.run returns what flux-run writes for the same scenario: the
    results file as a dict (all but sim.wall_s), and records equal to its
    CSV files."""
    out = tmp_path / "out.json"
    proc = flux_run(small_file, "--out", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    with open(out) as f:
        from_file = json.load(f)
    loaded = ns3flux.load_results(out)
    res = ns3flux.run(small_file)
    assert strip_wall({k: v for k, v in res.items() if k != "records"}) == strip_wall(from_file)
    assert list(res) == list(loaded)  # same key order, records last
    assert res["records"] == loaded["records"]


def test_builders_make_the_same_scenario(small):
    """The builder functions produce the scenario dict written by hand, and
    validate() resolves the placements: "spread" puts consecutive ranks
    under different leaves, "packed" takes the lowest free hosts."""
    built = ns3flux.scenario(
        ns3flux.leaf_spine(leaves=2, spines=2, hosts_per_leaf=4),
        jobs=[
            ns3flux.job("a", 4, 4000000, 3, placement="spread", compute_ms=1),
            ns3flux.job("b", 4, 4000000, 3, placement="packed", compute_ms=1),
        ],
        background=[ns3flux.cdf_tenant("rpc", "websearch", 0.2, hosts=[0, 4])],
        seed=1,
    )
    assert json.dumps(built, sort_keys=True) == json.dumps(small, sort_keys=True)
    summary = ns3flux.validate(built)
    assert summary["hosts"] == 8 and summary["hosts_per_leaf"] == 4
    a, b = summary["jobs"]
    assert [h // 4 for h in a["hosts"]] == [0, 1, 0, 1]
    assert sorted(b["hosts"]) == sorted(set(range(8)) - set(a["hosts"]))


def test_variant_and_numpy_values(small):
    """variant() replaces fields by path without touching the original, and
    NumPy numbers are accepted wherever numbers are."""
    import numpy as np

    v = ns3flux.variant(small, {"jobs[0].bytes": np.int64(2000000),
                                "topology.fabric_gbps": np.float64(50.0)}, seed=np.int32(4))
    assert small["jobs"][0]["bytes"] == 4000000 and "fabric_gbps" not in small["topology"]
    assert v["jobs"][0]["bytes"] == 2000000 and type(v["jobs"][0]["bytes"]) is int
    assert v["topology"]["fabric_gbps"] == 50.0 and v["seed"] == 4
    assert ns3flux.validate(v)["seed"] == 4


def test_variant_takes_the_paths_flux_run_set_takes(small, tmp_path, flux_run):
    """variant() takes a field path in both spellings flux-run --set takes
    ("jobs[0].iterations" and "jobs.0.iterations"), with the same result as
    --set gives; a name where a list needs an index is a KeyError."""
    out = {}
    for path in ("jobs[0].iterations", "jobs.0.iterations"):
        v = ns3flux.variant(small, {path: 2})
        assert v["jobs"][0]["iterations"] == 2 and small["jobs"][0]["iterations"] == 3
        scen = tmp_path / "s.json"
        scen.write_text(json.dumps(small))
        proc = flux_run(scen, "--check", "--set", f"{path}=2")
        assert proc.returncode == 0, proc.stderr
        out[path] = v
    assert out["jobs[0].iterations"] == out["jobs.0.iterations"]
    with pytest.raises(KeyError):
        ns3flux.variant(small, {"jobs.first.iterations": 2})
    # the field of an error message for a key in brackets is a path too
    bad = ns3flux.variant(small, {"ns3_defaults.ns3::RdmaNic::AckInterval": "x"})
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.validate(bad)
    assert err.value.field == 'ns3_defaults["ns3::RdmaNic::AckInterval"]'
    fixed = ns3flux.variant(bad, {err.value.field: 64})
    assert fixed["ns3_defaults"] == {"ns3::RdmaNic::AckInterval": 64}
    ns3flux.validate(fixed)
    assert ns3flux.variant({"a": [{}]}, {'a[0]["0"]': 1}) == {"a": [{"0": 1}]}


def test_cache(small, tmp_path):
    """With a cache, the second run of the same scenario (keys in another
    order) is served from it, identical; another seed is not."""
    cache = ns3flux.Cache(tmp_path / "cache")
    first = ns3flux.run(small, cache=cache)
    assert len(cache) == 1
    reordered = dict(reversed(list(small.items())))
    again = ns3flux.run(reordered, cache=cache)
    assert again == first  # including sim.wall_s: not run again
    ns3flux.run(small, seed=2, cache=cache)
    assert len(cache) == 2


def test_cache_sees_edited_input_files(tmp_path):
    """A cached run is served only while every file the scenario reads is
    unchanged: an AICB workload file, a Chakra trace's rank files and a CDF
    file edited between two runs give a new run, with the new file's
    result."""
    aicb = tmp_path / "model.txt"
    line = "DATA\n1\nl -1 100 NONE 0 100 NONE 0 100 ALLREDUCE {} 100\n"
    aicb.write_text(line.format(1000000))
    scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
                "jobs": [{"name": "a", "workload": {"aicb": "model.txt"}, "ranks": 8,
                          "iterations": 1}]}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    cache = ns3flux.Cache(tmp_path / "cache")
    small = ns3flux.run(str(path), cache=cache, backend="flow")
    aicb.write_text(line.format(8000000))
    large = ns3flux.run(str(path), cache=cache, backend="flow")
    assert len(cache) == 2
    assert large["jobs"][0]["jct_ms"] > 4 * small["jobs"][0]["jct_ms"]
    assert large == ns3flux.run(str(path), backend="flow") | {"sim": large["sim"]}

    # a Chakra trace: every rank's file counts
    chakra = os.path.join(ROOT, "test", "data", "workloads", "chakra-microbenchmarks",
                          "all_reduce", "16npus_1MB")
    shutil.copytree(chakra, tmp_path / "trace")
    scenario["jobs"] = [{"name": "c", "workload": {"chakra": "trace/all_reduce"},
                         "hosts": list(range(8)), "iterations": 1}]
    key = cache.key(scenario, str(tmp_path))
    rank = tmp_path / "trace" / "all_reduce.15.et"
    rank.write_bytes(rank.read_bytes() + b"\0")
    assert cache.key(scenario, str(tmp_path)) != key


def test_packet_latency_per_job_and_tenant():
    """Each job and tenant has the latency of the data packets it received:
    a 4-rank ring allreducing 3 packets per rank per step sends
    2 x (4 - 1) steps x 4 ranks x 3 packets per iteration, a flows tenant
    ceil(bytes / MTU) packets per flow (PFC loses none); their counts add
    up to the run's, and each one's percentiles lie within the run's. At
    flow level, which has no packets, the fields are absent and listed in
    backend_limits."""
    mtu = 4096
    scenario = {
        "topology": {"kind": "dumbbell", "hosts_per_side": 3},
        "transport": {"mtu_bytes": mtu},
        "jobs": [{"name": "ring", "ranks": 4, "hosts": [0, 1, 3, 4],
                  "bytes": 4 * 3 * mtu, "compute_ms": 0.01, "iterations": 2}],
        "background": [{"name": "bulk", "pattern": "flows", "flows": [
            {"src": 2, "dst": 5, "bytes": 10 * mtu + 1, "start_ms": 0},
            {"src": 5, "dst": 2, "bytes": 3 * mtu, "start_ms": 0.01}]}],
    }
    r = ns3flux.run(scenario)
    job = r["jobs"][0]["packet_latency_us"]
    tenant = r["flows"]["tenants"]["bulk"]["packet_latency_us"]
    assert r["network"]["retransmissions"] == 0
    assert job["count"] == 2 * 2 * (4 - 1) * 4 * 3
    assert tenant["count"] == 11 + 3
    run = r["packet_latency_us"]
    assert run["count"] == job["count"] + tenant["count"]
    for own in (job, tenant):
        assert 0 < own["p50"] <= own["p99"] <= own["p999"] <= own["max"] <= run["max"]
    assert max(job["max"], tenant["max"]) == run["max"]
    frames = ns3flux.frames
    assert frames.jobs(r)["latency_us_p99"].tolist() == [job["p99"]]
    assert frames.tenants(r)["latency_us_max"].tolist() == [tenant["max"]]

    fluid = ns3flux.run(scenario, backend="flow")
    assert "packet_latency_us" not in fluid["jobs"][0]
    assert "packet_latency_us" not in fluid["flows"]["tenants"]["bulk"]
    for field in ("jobs[].packet_latency_us", "flows.tenants[].packet_latency_us"):
        assert field in fluid["backend_limits"]
