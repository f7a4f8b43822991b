"""Bad scenarios raise ScenarioError naming the field, with flux-run's
message, and leave the interpreter able to run again."""

import json
import math

import pytest

import ns3flux
from conftest import SMALL, strip_wall

BAD = [
    # (change to the small scenario, field the message must name)
    ({"jobs[1].ranks": 12}, "jobs[1].ranks"),
    ({"topology.leaves": "two"}, "topology.leaves"),
    ({"topology.kind": "torus"}, "topology.kind"),
    ({"jobs[0].iterations": 0}, "jobs[0].iterations"),
    ({"background[0].load": 1.5}, "background[0].load"),
    ({"scheduler.policy": "no-such-policy"}, "scheduler.policy"),
    ({"topology.colour": "blue"}, "topology.colour"),
    ({"transport.cc": "reno"}, "transport.cc"),
    ({"transport.cc": "hpcc", "topology.host_gbps": 20}, "transport.cc"),
]


@pytest.mark.parametrize("change,field", BAD, ids=[f for _, f in BAD])
def test_bad_scenario_names_the_field(change, field, tmp_path, flux_run):
    """The exception names the offending field and its message is the one
    flux-run prints (after "flux-run: ") for the same scenario, which it
    refuses with exit status 2."""
    bad = ns3flux.variant(SMALL, change)
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.run(bad)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.field == field
    assert str(err) == f"{err.field}: {err.problem}"

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = flux_run(path, "--out", tmp_path / "out.json", "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"flux-run: {err}"

    with pytest.raises(ns3flux.ScenarioError) as again:
        ns3flux.validate(bad)
    assert str(again.value) == str(err)


def test_bad_file_messages_match_flux_run(tmp_path, flux_run):
    """A missing file, a JSON syntax error and a duplicate key are reported
    as flux-run reports them."""
    missing = tmp_path / "missing.json"
    syntax = tmp_path / "syntax.json"
    syntax.write_text('{"seed": 1,\n "topology": {"kind": "leaf-spine",}}\n')
    dup = tmp_path / "dup.json"
    dup.write_text('{"seed": 1, "seed": 2, "topology": {"kind": "leaf-spine"}}')
    for path in (missing, syntax, dup):
        with pytest.raises(ns3flux.ScenarioError) as info:
            ns3flux.run(path)
        proc = flux_run(path, "--quiet")
        assert proc.returncode == 2
        assert proc.stderr.strip() == f"flux-run: {info.value}"
    assert info.value.field == "seed"


@pytest.mark.parametrize("value", [math.nan, math.inf, object()])
def test_unwritable_values_name_the_field(value):
    """Values JSON cannot hold are refused before the runner, naming the
    field."""
    bad = ns3flux.variant(SMALL, {"jobs[0].compute_ms": 1})
    bad["jobs"][0]["compute_ms"] = value
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.run(bad)
    assert info.value.field == "jobs[0].compute_ms"


def test_not_a_scenario():
    """Something that is neither a dict nor a path is a TypeError."""
    with pytest.raises(TypeError):
        ns3flux.run(["not", "a", "scenario"])


def test_runs_fine_after_errors(small):
    """After refused scenarios the process runs scenarios as before."""
    before = strip_wall(ns3flux.run(small, records=False))
    for change, _ in BAD:
        with pytest.raises(ns3flux.ScenarioError):
            ns3flux.run(ns3flux.variant(SMALL, change))
    assert strip_wall(ns3flux.run(small, records=False)) == before


def test_errors_pickle():
    """The exceptions survive pickling (they cross process boundaries in
    sweeps)."""
    import pickle

    e = pickle.loads(pickle.dumps(ns3flux.ScenarioError("jobs[0].ranks", "too many")))
    assert (e.field, e.problem, str(e)) == ("jobs[0].ranks", "too many", "jobs[0].ranks: too many")
    r = pickle.loads(pickle.dumps(ns3flux.RunError("run failed: x")))
    assert str(r) == "run failed: x"
