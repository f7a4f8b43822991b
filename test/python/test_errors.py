"""Bad scenarios raise ScenarioError naming the field, with flux-run's
message, and leave the interpreter able to run again."""

import json
import math
import re
import time

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
    # (an unknown policy's keys are unknown too: the policy is named)
    ({"scheduler": {"policy": "no-such-policy", "quantum_us": 5}}, "scheduler.policy"),
    ({"topology.colour": "blue"}, "topology.colour"),
    ({"transport.cc": "reno"}, "transport.cc"),
    ({"transport.cc": "hpcc", "topology.host_gbps": 20}, "transport.cc"),
    # HPCC chosen as an ns-3 default reads the same telemetry
    ({"ns3_defaults": {"ns3::RdmaNic::CongestionControl": "ns3::HpccCongestionControl"},
      "topology.fabric_gbps": 30}, "ns3_defaults.ns3::RdmaNic::CongestionControl"),
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


def test_bad_arguments_name_themselves():
    """run()'s flags and the progress of run() and sweep() of the wrong kind
    are a TypeError naming the argument, before anything runs (not the
    bindings' list of signatures)."""
    for kwargs, name in (({"records": "no"}, "records"), ({"quiet": 2}, "quiet"),
                         ({"progress": "yes"}, "progress")):
        with pytest.raises(TypeError, match=f"^{name}: "):
            ns3flux.run(SMALL, cache=False, **kwargs)
    with pytest.raises(TypeError, match="^progress: "):
        ns3flux.sweep_runs(SMALL, policies=["fifo"], max_workers=0, cache=False, progress="yes")


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


# Values the simulation cannot represent: (change, field, start of the problem)
UNREPRESENTABLE = [
    # 2^64 ms: used to abort inside ns-3's Time attribute (status 134)
    ({"jobs[0].compute_ms": 18446744073709551616}, "jobs[0].compute_ms", "must be at most"),
    ({"stop_ms": -1}, "stop_ms", "must be positive"),
    # below 1 ns a time is 0, which these keys read as "none" or "off"
    ({"jobs[0].compute_ms": 1e-7}, "jobs[0].compute_ms", "must be 0 or at least 1 ns"),
    ({"completion_latency_us": 1e-4}, "completion_latency_us", "must be 0 or at least 1 ns"),
    ({"scheduler": {"policy": "flux", "max_hold_us": 4e-4}}, "scheduler.max_hold_us",
     "must be 0 or at least 1 ns"),
    ({"scheduler": {"policy": "flux", "control_latency_ns": 0.5}},
     "scheduler.control_latency_ns", "must be 0 or at least 1 ns"),
    ({"jobs[0].start_ms": 1e-300 * -1}, "jobs[0].start_ms", "must not be negative"),
    ({"topology.leaves": 2**64 + 1}, "topology.leaves", "must be at most 65535"),
    ({"topology.leaves": 1.5}, "topology.leaves", "expected an integer"),
    ({"topology.host_gbps": 1e6}, "topology.host_gbps", "must be at most 10000"),
    ({"jobs[0].bytes": 4 * 10**18}, "jobs[0].bytes", "the job would move"),
    ({"seed": 2**32 - 1}, "seed", "must be at most 4294944442"),
    ({"ns3_defaults": {"ns3::RdmaNic::RetransmitTimeout": "1e400s"}},
     'ns3_defaults["ns3::RdmaNic::RetransmitTimeout"]', '"1e400s" is not a valid value'),
    # (2^32 - 1 wrapped the 32-bit frame lengths: the run came out faster)
    ({"ns3_defaults": {"ns3::PfcNetDevice::WireOverhead": "4294967295"}},
     'ns3_defaults["ns3::PfcNetDevice::WireOverhead"]', '"4294967295" is not a valid value'),
]


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_the_largest_seeds_run(tmp_path, flux_run, backend):
    """The largest seed the schema allows, for every source (ns-3's
    MRG32k3a streams take seeds below 4294944443; 4294944443 used to abort),
    runs a scenario with a websearch tenant and random placement to the end,
    at both levels; one more is refused naming the field."""
    top = ns3flux.schema()["properties"]["seed"]["maximum"]
    s = ns3flux.variant(SMALL, {"seed": top, "jobs[0].placement": "random"})
    s["seeds"] = {"ecmp": top, "background": top, "placement": top}
    path = tmp_path / "top.json"
    path.write_text(json.dumps(s))
    out = tmp_path / "r.json"
    proc = flux_run(path, "--out", out, "--quiet", "--backend", backend)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["sim"]["stop_reason"] == "completed"
    for option in ("--seed", "--seed-ecmp", "--seed-background", "--seed-placement"):
        proc = flux_run(path, "--out", out, "--quiet", option, str(top + 1))
        assert proc.returncode == 2, (option, proc.stderr)
        assert f"must be at most {top}, got {top + 1}" in proc.stderr, proc.stderr


@pytest.mark.parametrize("change,field,problem", UNREPRESENTABLE,
                         ids=[f for _, f, _ in UNREPRESENTABLE])
def test_unrepresentable_values_exit_2(change, field, problem, tmp_path, flux_run):
    """Values beyond what ns-3 and the counters can hold are refused naming
    the field, by flux-run (status 2, one line, no file) and ns3flux.run
    (ScenarioError with the same message)."""
    bad = ns3flux.variant(SMALL, {k: v for k, v in change.items() if k != "ns3_defaults"})
    if "ns3_defaults" in change:
        bad["ns3_defaults"] = change["ns3_defaults"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = flux_run(path, "--out", tmp_path / "out.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith(f"flux-run: {field}: {problem}"), proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.run(bad)
    assert info.value.field == field
    assert proc.stderr.strip() == f"flux-run: {info.value}"


# Attributes FabricTopologyHelper sets from the scenario's keys: a default
# would be overwritten without a word, so it is refused naming the key.
HELPER_OWN = [
    ("ns3::SwitchMmu::BufferSize", "1000", "topology.buffer_mb"),
    ("ns3::SwitchMmu::EcnKmin", "1000", "transport.ecn"),
    ("ns3::PfcNetDevice::DataRate", "25Gbps", "topology.host_gbps and topology.fabric_gbps"),
    ("ns3::PfcNetDevice::Mtu", "4200", "transport.mtu_bytes"),
    ("ns3::PfcChannel::Delay", "5us", "topology.link_delay_us"),
    ("ns3::FabricSwitch::EcmpSeed", "7", "seeds.ecmp"),
]


@pytest.mark.parametrize("attribute,value,key", HELPER_OWN, ids=[a for a, _, _ in HELPER_OWN])
@pytest.mark.parametrize("mode", [["--backend", "packet"], ["--backend", "flow"], ["--check"]])
def test_ns3_defaults_of_what_the_fabric_helper_sets_are_refused(
        tmp_path, flux_run, attribute, value, key, mode):
    """An ns3_defaults entry for an attribute the fabric's helper sets
    itself (FabricTopologyHelper::GetOwnSetter) used to be accepted and
    then overwritten: it is refused at both levels and by --check, naming
    the entry and the scenario key that sets it, with no file written."""
    bad = json.loads(json.dumps(SMALL))
    bad["ns3_defaults"] = {attribute: value}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = flux_run(path, "--out", tmp_path / "out.json", "--quiet", *mode)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith(
        f'flux-run: ns3_defaults["{attribute}"]: the fabric is built with this attribute '
        f"from the scenario's {key} (FabricTopologyHelper::"), proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_ns3_defaults_of_what_the_fabric_helper_leaves_alone_run(tmp_path, flux_run):
    """The refusal above is of the helper's own attributes only: the pause
    quanta of the same devices is taken."""
    s = json.loads(json.dumps(SMALL))
    s["ns3_defaults"] = {"ns3::PfcNetDevice::PauseQuanta": "1000"}
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(s))
    proc = flux_run(path, "--out", tmp_path / "out.json", "--quiet")
    assert proc.returncode == 0, proc.stderr


def test_numbers_beyond_double_name_the_field(tmp_path, flux_run):
    """1e400 in the file (beyond double) names its key; NaN is not JSON."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps(SMALL).replace('"compute_ms": 1', '"compute_ms": 1e400', 1))
    proc = flux_run(path, "--quiet")
    assert proc.returncode == 2
    assert proc.stderr == (
        "flux-run: jobs[0].compute_ms: the number 1e400 is too large to represent\n")
    path.write_text(json.dumps(SMALL).replace('"compute_ms": 1', '"compute_ms": NaN', 1))
    proc = flux_run(path, "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"flux-run: {path}: line 1, column ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.json"]


def test_key_with_a_control_character_is_escaped_in_the_path(tmp_path, flux_run):
    """A key holding DEL (which JSON strings may hold as it is) is named in a
    bracketed path with DEL escaped, so that the one-line message shows it."""
    doc = json.loads(json.dumps(SMALL))
    doc["jobs"][0]["iterati\x7fns"] = doc["jobs"][0].pop("iterations")
    path = tmp_path / "del.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    proc = flux_run(path, "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.startswith('flux-run: jobs[0]["iterati\\u007fns"]: unknown key'), \
        proc.stderr
    assert "\x7f" not in proc.stderr


def test_memory_estimate_refuses_before_building(tmp_path, flux_run, monkeypatch):
    """A scenario whose estimated memory exceeds what is available
    (FLUX_MEMORY_LIMIT_MB here) exits 2 with one message giving both
    figures, quickly (nothing is built) and without a results file; through
    ns3flux.run it is a ScenarioError with the same message."""
    big = ns3flux.variant(SMALL, {"topology": {"kind": "fat-tree", "k": 16, "buffer_mb": 1000}})
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big))
    monkeypatch.setenv("FLUX_MEMORY_LIMIT_MB", "30")
    t0 = time.monotonic()
    proc = flux_run(path, "--out", tmp_path / "out.json", "--quiet")
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 2
    m = re.fullmatch(
        r"flux-run: topology: the scenario needs an estimated (\d+) MB of memory \((\d+) MB "
        r"for the fabric: 1024 hosts, 320 switches, 3072 cables\), more than the 30 MB "
        r"available \(FLUX_MEMORY_LIMIT_MB\)\n", proc.stderr)
    assert m and int(m.group(1)) >= int(m.group(2)) > 30, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.json"]
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.run(big)
    assert info.value.field == "topology"
    assert proc.stderr.strip() == f"flux-run: {info.value}"
    # the same scenario runs when the memory is there
    monkeypatch.setenv("FLUX_MEMORY_LIMIT_MB", "2000")
    ok = ns3flux.run(ns3flux.variant(big, {"stop_ms": 0.05}), records=False)
    assert ok["sim"]["stop_reason"] == "stop_ms"


def test_deep_nesting_is_refused(tmp_path):
    """Nesting deeper than 64 levels is a ScenarioError naming where, from a
    dict as from a file."""
    deep = inner = {}
    for _ in range(80):
        inner["x"] = {}
        inner = inner["x"]
    bad = ns3flux.variant(SMALL, {"description": "d"})
    bad["description"] = deep
    with pytest.raises(ns3flux.ScenarioError) as info:
        ns3flux.run(bad)
    assert info.value.field == "description" + ".x" * 63
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ns3flux.ScenarioError) as again:
        ns3flux.run(path)
    assert str(again.value) == str(info.value)


def test_a_buffer_too_small_for_its_headroom_names_buffer_mb(tmp_path, flux_run):
    """A switch buffer that the PFC headroom of fast, long links does not
    leave a shared pool in is refused naming topology.buffer_mb, the key to
    change (it named "topology"), with the delay in microseconds."""
    scenario = {"topology": {"kind": "leaf-spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 4,
                             "host_gbps": 400, "fabric_gbps": 100, "link_delay_us": 10,
                             "buffer_mb": 12},
                "jobs": [{"name": "a", "ranks": 2, "bytes": 100000, "iterations": 1}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    p = flux_run(path, "--check")
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("flux-run: topology.buffer_mb: switch buffer size: "), p.stderr
    assert "link delay 10 us" in p.stderr and p.stderr.count("\n") == 1, p.stderr
    scenario["topology"]["buffer_mb"] = 64
    path.write_text(json.dumps(scenario))
    assert flux_run(path, "--check").returncode == 0
