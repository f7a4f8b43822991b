"""Servers of several GPUs and NICs, and the rail-optimised fabric, through
flux-run: the shipped rail-optimized scenario runs every job to its end with
its ranks where the placement says; servers of one GPU and one NIC give the
results of no servers; bad server keys, GPU lists and rail shapes exit 2
with one message naming the field."""

import copy
import json

import pytest

import ns3flux
from conftest import run_scenario, shipped, strip_wall


def test_shipped_rail_optimized_scenario_runs(flux_run, tmp_path):
    """Both jobs of examples/scenarios/rail-optimized.json finish their
    iterations; "spread" puts one rank on each server in turn and "packed"
    the next ranks on the GPUs left, server by server; every rank's host is
    its GPU's NIC (8 GPUs, 8 NICs: host = GPU)."""
    scenario = shipped("rail-optimized")
    summary = ns3flux.validate(scenario)
    assert summary["topology"] == "rail-optimized"
    assert (summary["hosts"], summary["gpus"], summary["servers"]) == (32, 32, 4)
    spread, packed = summary["jobs"]
    assert spread["gpus"] == [0, 8, 16, 24, 1, 9, 17, 25]
    assert spread["servers"] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert packed["gpus"] == [2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21]
    assert packed["servers"] == [0] * 6 + [1] * 6 + [2] * 4
    for job in (spread, packed):
        assert job["hosts"] == job["gpus"]
    _, results = run_scenario(flux_run, tmp_path, scenario, "rail")
    assert results["sim"]["stop_reason"] == "completed"
    for job in results["jobs"]:
        assert job["status"] == "completed", job["name"]
        assert job["iterations"] == 3, job["name"]
        assert job["jct_ms"] > 3, job["name"]  # 3 iterations of 1 ms compute
    # the spread ring's rail-0 ranks reach each other through rail 0's leaf
    # of their group, and the other rail group through a spine
    links = set(results["jobs"][0]["links"])
    assert {"host0->rg0-rail0", "rg0-rail0->host8", "host16->rg1-rail0"} <= links, links
    assert any(n.startswith("rg0-rail0->spine") for n in links), links


def test_servers_of_one_gpu_change_nothing(flux_run, tmp_path, small):
    """A scenario with servers of one GPU and one NIC (every host its own
    server) gives exactly the results of the same scenario without them."""
    with_servers = copy.deepcopy(small)
    with_servers["topology"]["servers"] = {"gpus": 1, "nics": 1}
    _, a = run_scenario(flux_run, tmp_path, small, "plain")
    _, b = run_scenario(flux_run, tmp_path, with_servers, "servers")
    assert strip_wall(a) == strip_wall(b)


RAILS = {
    "stop_ms": 10,
    "topology": {"kind": "rail-optimized", "rail_groups": 2, "servers_per_rail_group": 2,
                 "spines": 2, "servers": {"gpus": 4, "nics": 2}},
    "jobs": [{"name": "a", "ranks": 4, "bytes": 100000, "iterations": 1}],
}

BAD = [
    ("topology.servers", lambda s: s["topology"].pop("servers"), "required by"),
    ("topology.servers.nics", lambda s: s["topology"]["servers"].update(nics=8), "at most gpus"),
    ("topology.servers.gpus", lambda s: s["topology"]["servers"].update(gpus=0), None),
    ("topology.servers.nvlink_gbps",
     lambda s: s["topology"]["servers"].update(nvlink_gbps=-1), None),
    ("topology.servers.nvlink_latency_us",
     lambda s: s["topology"]["servers"].update(nvlink_latency_us="fast"), None),
    ("topology.servers.gpu", lambda s: s["topology"]["servers"].update(gpu=2), "unknown key"),
    ("topology.servers.nics",
     lambda s: s["topology"].update(kind="leaf-spine", leaves=1, spines=0, hosts_per_leaf=3),
     "not a multiple of 2"),
    ("topology.rail_groups", lambda s: s["topology"].update(rail_groups=0), None),
    ("topology.servers_per_rail_group",
     lambda s: s["topology"].update(servers_per_rail_group=1.5), None),
    ("topology.spines", lambda s: s["topology"].update(spines=0), "at least 1"),
    ("jobs[0].ranks", lambda s: s["jobs"][0].update(ranks=17), "has 16 GPUs"),
    ("jobs[0].hosts", lambda s: s["jobs"][0].update(hosts=[0, 1, 2, 3]), "\"gpus\""),
    ("jobs[0].gpus[1]", lambda s: s["jobs"][0].update(gpus=[0, 16, 1, 2]), "out of range"),
    ("jobs[1].gpus[0]", lambda s: s["jobs"].append(
        {"name": "b", "ranks": 2, "bytes": 1000, "iterations": 1, "gpus": [3, 9]}) or
     s["jobs"][0].update(gpus=[0, 1, 2, 3]), "two jobs may not share a GPU"),
    ("jobs[1].ranks", lambda s: s["jobs"].append(
        {"name": "b", "ranks": 13, "bytes": 100000, "iterations": 1}), "12 of 16 GPUs are free"),
]


@pytest.mark.parametrize("field,change,words", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_servers_name_the_field(flux_run, tmp_path, field, change, words):
    """Bad server keys, GPU lists and rail shapes: exit 2 and one line that
    starts with the field."""
    s = copy.deepcopy(RAILS)
    change(s)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(s))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line, line
    assert line.startswith(f"flux-run: {field}"), line
    if words:
        assert words in line, line


def test_python_builders_make_valid_rail_scenarios():
    """ns3flux.rail_optimized() and ns3flux.servers() build topologies the
    parser accepts, with the hosts and GPUs their arguments give."""
    topo = ns3flux.rail_optimized(rail_groups=2, servers_per_rail_group=3, spines=2, gpus=8,
                                  nics=4, nvlink_gbps=2400, host_gbps=200)
    assert topo["servers"] == {"gpus": 8, "nics": 4, "nvlink_gbps": 2400}
    scenario = ns3flux.scenario(topo, [ns3flux.job("a", 16, 1_000_000, 1, placement="spread")])
    summary = ns3flux.validate(scenario)
    assert (summary["hosts"], summary["servers"], summary["gpus"]) == (24, 6, 48)
    assert summary["jobs"][0]["servers"] == [0, 1, 2, 3, 4, 5] * 2 + [0, 1, 2, 3]
    leaf = ns3flux.leaf_spine(leaves=2, hosts_per_leaf=4)
    leaf["servers"] = ns3flux.servers(gpus=2, nics=1)
    summary = ns3flux.validate(ns3flux.scenario(leaf, [ns3flux.job("a", 4, 1000, 1)]))
    assert summary["jobs"][0]["hosts"] == [0, 0, 1, 1]


SHARED_NIC = {
    "stop_ms": 50,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2,
                 "servers": {"gpus": 2, "nics": 1}},
    "jobs": [{"name": "a", "ranks": 4, "bytes": 2_000_000, "iterations": 2}],
}


def test_gpus_sharing_a_nic(flux_run, tmp_path):
    """Two GPUs per NIC: "packed" puts ranks 0, 1 on host 0 and 2, 3 on
    host 1; both backends complete the job (the two GPUs of a NIC talk over
    their server's GPU interconnect; the levels compared:
    test_flow_collectives.py)."""
    summary = ns3flux.validate(SHARED_NIC)
    assert summary["jobs"][0]["hosts"] == [0, 0, 1, 1]
    _, results = run_scenario(flux_run, tmp_path, SHARED_NIC, "shared")
    assert results["jobs"][0]["status"] == "completed"
    _, results = run_scenario(flux_run, tmp_path, SHARED_NIC, "flow", "--backend", "flow")
    assert results["jobs"][0]["status"] == "completed"
