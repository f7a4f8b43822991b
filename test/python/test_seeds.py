"""One seed per random source: "seeds": {"ecmp", "background", "placement"}
(flux-run --seed-ecmp/--seed-background/--seed-placement, ns3flux.run(seeds=...))
changes that source alone; "seed" still seeds all of them; the results say
which seeds ran and where the jobs' ECMP paths meet."""

import json

import pytest

import ns3flux
from conftest import strip_wall

# Two 4-rank jobs with random placement on a 2:1 leaf-spine with 4 spines
# (paths depend on the ECMP seed) and a web-search tenant.
SCENARIO = {
    "seed": 1,
    "topology": {"kind": "leaf-spine", "leaves": 4, "spines": 4, "hosts_per_leaf": 4,
                 "fabric_gbps": 50},
    "jobs": [
        {"name": "a", "ranks": 4, "placement": "random", "bytes": 2000000, "compute_ms": 0.5,
         "iterations": 2},
        {"name": "b", "ranks": 4, "placement": "random", "bytes": 2000000, "compute_ms": 0.5,
         "iterations": 2},
    ],
    "background": [{"name": "rpc", "cdf": "websearch", "load": 0.3, "stop_ms": 3,
                    "hosts": [12, 13, 14, 15]}],
}


def _run(seeds=None, seed=None, **kw):
    return ns3flux.run(SCENARIO, seeds=seeds, seed=seed, records=True, **kw)


def _arrivals(r):
    """The background flows as they arrived: (src, dst, size, start)."""
    rec = r["records"]["flows"]
    return sorted(zip(rec["src"], rec["dst"], rec["size_bytes"], rec["start_ms"]))


def _paths(r):
    return {j["name"]: j["links"] for j in r["jobs"]}


def _hosts(scenario):
    return [j["hosts"] for j in ns3flux.validate(scenario)["jobs"]]


@pytest.fixture(scope="module")
def base():
    return _run()


def test_results_name_the_seeds_and_the_shared_links(base):
    assert base["seed"] == 1
    assert base["seeds"] == {"ecmp": 1, "background": 1, "placement": 1}
    r = _run(seeds={"background": 7})
    assert r["seeds"] == {"ecmp": 1, "background": 7, "placement": 1}
    # shared_links counts the link directions listed by two or more jobs
    links = [set(j["links"]) for j in base["jobs"]]
    assert all(links)
    assert base["ecmp"]["shared_links"] == len(links[0] & links[1])
    assert base["ecmp"]["job_pairs"] == (1 if links[0] & links[1] else 0)


def test_same_seeds_same_results(base):
    again = _run()
    again.pop("records")
    first = dict(base)
    first.pop("records")
    assert strip_wall(again) == strip_wall(first)
    explicit = _run(seeds={"ecmp": 1, "background": 1, "placement": 1})
    explicit.pop("records")
    assert strip_wall(explicit) == strip_wall(first)


def test_background_seed_moves_arrivals_only(base):
    """Changing only the background seed leaves the jobs' hosts and paths
    identical and changes the background tenant's arrivals."""
    r = _run(seeds={"background": 2})
    assert _paths(r) == _paths(base)
    assert r["ecmp"] == base["ecmp"]
    assert _arrivals(r) != _arrivals(base)


def test_ecmp_seed_moves_paths_only(base):
    """Changing only the ECMP seed leaves the arrivals and the placement
    identical; over a few seeds the paths change."""
    moved = False
    for s in (2, 3, 4, 5):
        r = _run(seeds={"ecmp": s})
        assert _arrivals(r) == _arrivals(base)
        moved |= _paths(r) != _paths(base)
    assert moved


def test_placement_seed_moves_hosts_only():
    assert _hosts(dict(SCENARIO, seeds={"placement": 2})) != _hosts(SCENARIO)
    assert _hosts(dict(SCENARIO, seeds={"ecmp": 2, "background": 2})) == _hosts(SCENARIO)


def test_seed_still_seeds_every_source():
    """--seed N means what it always meant: every source from N."""
    a = _run(seed=2)
    b = _run(seed=2, seeds={"ecmp": 2, "background": 2, "placement": 2})
    for r in (a, b):
        r.pop("records")
    assert strip_wall(a) == strip_wall(b)
    assert a["seeds"] == {"ecmp": 2, "background": 2, "placement": 2}


def test_flux_run_seed_options(tmp_path, flux_run):
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps(SCENARIO))
    out = tmp_path / "r.json"
    p = flux_run(scen, "--quiet", "--out", out, "--seed-background", "3", "--seed-ecmp=4")
    assert p.returncode == 0, p.stderr
    r = json.loads(out.read_text())
    assert r["seeds"] == {"ecmp": 4, "background": 3, "placement": 1}
    py = ns3flux.run(SCENARIO, seeds={"background": 3, "ecmp": 4}, records=False)
    assert strip_wall(py) == strip_wall(r)
    p = flux_run(scen, "--quiet", "--out", tmp_path / "x.json", "--seed-placement", "x1")
    assert p.returncode == 2 and "--seed-placement" in p.stderr
    bad = dict(SCENARIO, seeds={"hashing": 2})
    scen.write_text(json.dumps(bad))
    p = flux_run(scen, "--quiet", "--out", tmp_path / "y.json")
    assert p.returncode == 2 and "seeds.hashing" in p.stderr
    bad = dict(SCENARIO, seeds={"ecmp": 0})
    scen.write_text(json.dumps(bad))
    p = flux_run(scen, "--quiet", "--out", tmp_path / "y.json")
    assert p.returncode == 2 and "seeds.ecmp" in p.stderr
