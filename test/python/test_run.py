"""ns3flux.run: import, results shape, determinism, agreement with flux-run."""

import json
import os

import ns3flux
from conftest import strip_wall


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
