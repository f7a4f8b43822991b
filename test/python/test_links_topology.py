"""A fabric given cable by cable (topology kind "links") and flows given one
by one (background pattern "flows"): the scenario keys the HPCC simulator's
files are imported as, checked like every other key."""

import json

import pytest

BASE = {
    "stop_ms": 5,
    "topology": {"kind": "links", "nodes": 5, "switch_nodes": [3, 4],
                 "links": [{"a": 0, "b": 3}, {"a": 1, "b": 3}, {"a": 2, "b": 4},
                           {"a": 3, "b": 4, "gbps": 400, "delay_us": 2}]},
    "background": [{"name": "f", "pattern": "flows", "flows": [
        {"src": 0, "dst": 2, "bytes": 20000, "start_ms": 0.01},
        {"src": 1, "dst": 2, "bytes": 20000, "start_ms": 0.01}]}],
}


# a job over the three hosts
JOB = {"name": "j", "ranks": 3, "bytes": 100000, "iterations": 1}


def run(flux_run, tmp_path, scenario):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    return flux_run(path, "--out", tmp_path / "r.json", "--quiet")


def test_links_topology_runs_its_flows(flux_run, tmp_path):
    """Hosts are the nodes that are not switches, in id order; both flows
    finish, and the busiest links are named after the nodes (host<i>,
    sw<id>)."""
    proc = run(flux_run, tmp_path, BASE)
    assert proc.returncode == 0, proc.stderr
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["flows"]["count"] == 2
    names = {l["link"] for l in r["network"]["busiest_links"]}
    assert "sw4->host2" in names


BAD = [
    ("topology.links[1].b", lambda s: s["topology"]["links"][1].update(b=9), "node 9 is not a node"),
    ("topology.links[1].b", lambda s: s["topology"]["links"][1].update(b=1), "to itself"),
    ("topology.links[1].b", lambda s: s["topology"]["links"][1].update(b=0), "joins two hosts"),
    ("topology.links[4]", lambda s: s["topology"]["links"][3].update(a=4, b=3) or
     s["topology"]["links"].append({"a": 3, "b": 4}), "the first is topology.links[3]"),
    ("topology.links", lambda s: s["topology"]["links"].pop(2), "host node 2 has no cable"),
    ("topology.switch_nodes[1]", lambda s: s["topology"].update(switch_nodes=[3, 3]), "listed twice"),
    ("topology.links[4]", lambda s: s["topology"]["links"].append({"a": 0, "b": 4}), "second cable"),
    ("background[0].flows[1].start_ms",
     lambda s: s["background"][0]["flows"][1].update(start_ms=0.001), "is before the previous"),
    ("background[0].flows[0].dst", lambda s: s["background"][0]["flows"][0].update(dst=0), "is the sender"),
    ("background[0].flows[0].bytes", lambda s: s["background"][0]["flows"][0].update(bytes=0), None),
    ("background[0].flows[0].dst",
     lambda s: s["topology"]["links"].pop(3), "no path from host 0 to host 2"),
    ("background[0].senders", lambda s: s["background"][0].update(senders=[0]), "lists its flows"),
    # between the two parts of a fabric cut in two, only a flows list was refused
    ("jobs[0].placement", lambda s: s["topology"]["links"].pop(3) and s.update(
        jobs=[JOB], background=[]),
     "no path between host 0 and host 2"),
    ("jobs[0].hosts", lambda s: s["topology"]["links"].pop(3) and s.update(
        jobs=[dict(JOB, ranks=2, hosts=[1, 2])], background=[]), "no path between host 1 and host 2"),
    ("background[0].hosts", lambda s: s["topology"]["links"].pop(3) and s.update(
        background=[{"name": "w", "cdf": "websearch", "load": 0.1}]),
     "no path between host 0 and host 2"),
    ("background[0].senders", lambda s: s["topology"]["links"].pop(3) and s.update(
        background=[{"name": "i", "pattern": "incast", "senders": [0, 1], "receiver": 2,
                     "bytes": 1000}]), "no path between host 2 and host 0"),
    ("topology.nodes", lambda s: s["topology"].update(kind="leaf-spine"), "only a \"links\" topology"),
]


@pytest.mark.parametrize("field,change,words", BAD, ids=[b[0] + str(i) for i, b in enumerate(BAD)])
def test_bad_links_or_flows_name_the_field(flux_run, tmp_path, field, change, words):
    """A bad cable or flow, or traffic between parts of the fabric that no
    cable joins: exit 2 and one message naming its field."""
    s = json.loads(json.dumps(BASE))
    change(s)
    proc = run(flux_run, tmp_path, s)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert line.startswith(f"flux-run: {field}"), line
    if words:
        assert words in line, line
