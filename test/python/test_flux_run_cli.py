"""build/flux-run, the command line of Contract 1: exit codes, error
messages, overrides, quiet mode, reproducibility and the results fields."""

import copy
import json
import os
import re
import stat
import subprocess

import pytest

import ns3flux
from conftest import ROOT, SMALL, cmake_entry, script_env, shipped, strip_wall


CSV_SUFFIXES = ("-iterations.csv", "-phases.csv", "-flows.csv")


def _write(path, scenario):
    path.write_text(json.dumps(scenario, indent=2))
    return path


def _listing(folder):
    return sorted(
        os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs
    )


# Each case: (id, change to the small scenario, extra command-line arguments,
# the field the one-line message must name first).
def _unknown_top(s):
    s["colour"] = "blue"


def _unknown_nested(s):
    s["topology"]["spine_count"] = 2


def _unknown_job_key(s):
    s["jobs"][1]["gpu_count"] = 4


def _wrong_type_number(s):
    s["stop_ms"] = "100"


def _wrong_type_integer(s):
    s["jobs"][0]["ranks"] = "4"


def _wrong_type_object(s):
    s["topology"] = ["leaf-spine"]


def _wrong_type_bool(s):
    s["transport"] = {"pfc": "yes"}


def _range_pmax(s):
    s["transport"] = {"ecn": {"pmax": 1.5}}


def _range_seed(s):
    s["seed"] = 0


def _range_load(s):
    s["background"][0]["load"] = 0


def _range_hosts_per_leaf(s):
    s["topology"]["hosts_per_leaf"] = 0


def _range_stop(s):
    s["stop_ms"] = -5


def _too_many_ranks(s):
    s["jobs"][0]["ranks"] = 12


def _host_out_of_range(s):
    del s["jobs"][0]["placement"]
    s["jobs"][0]["hosts"] = [0, 1, 2, 99]


def _bg_host_out_of_range(s):
    s["background"][0]["hosts"] = [0, 8]


def _missing_cdf(s):
    s["background"][0]["cdf"] = "no-such-flow-sizes.cdf"


def _folder_as_cdf(s):
    s["background"][0]["cdf"] = "a-folder"


def _garbage_cdf(s):
    s["background"][0]["cdf"] = "garbage.cdf"


def _unknown_policy_in_file(s):
    s["scheduler"] = {"policy": "no-such-policy"}


def _no_change(s):
    pass


def _fault_on_no_cable(s):
    s["faults"] = [{"link": "leaf0<->spine9", "down_ms": 1}]


def _trace_of_no_link(s):
    s["traces"] = {"links": ["leaf0->spine7"]}


def _too_many_classes(s):
    # the background tenant is in class 3: crux and flux have classes 3..0
    s["scheduler"] = {"policy": "flux", "classes": 5}


def _classes_zero(s):
    s["scheduler"] = {"policy": "crux", "classes": 0}


def _min_share_range(s):
    s["scheduler"] = {"policy": "flux", "min_share": 0.7}


def _granularity(s):
    s["scheduler"] = {"policy": "flux", "granularity": "packet"}


def _latency_negative(s):
    s["scheduler"] = {"policy": "flux", "control_latency_us": -1}


def _factory(value, name="ns3::FabricSwitch::QueueDiscFactory"):
    def change(s):
        s["ns3_defaults"] = {name: value}
    return change


def _unknown_scheduler_key(s):
    s["scheduler"] = {"policy": "flux", "planner": "greedy"}


BAD = [
    ("unknown-key", _unknown_top, [], "colour"),
    ("unknown-nested-key", _unknown_nested, [], "topology.spine_count"),
    ("unknown-job-key", _unknown_job_key, [], "jobs[1].gpu_count"),
    ("wrong-type-number", _wrong_type_number, [], "stop_ms"),
    ("wrong-type-integer", _wrong_type_integer, [], "jobs[0].ranks"),
    ("wrong-type-object", _wrong_type_object, [], "topology"),
    ("wrong-type-bool", _wrong_type_bool, [], "transport.pfc"),
    ("out-of-range-pmax", _range_pmax, [], "transport.ecn.pmax"),
    ("out-of-range-seed", _range_seed, [], "seed"),
    ("out-of-range-load", _range_load, [], "background[0].load"),
    ("out-of-range-hosts-per-leaf", _range_hosts_per_leaf, [], "topology.hosts_per_leaf"),
    ("out-of-range-stop", _range_stop, [], "stop_ms"),
    ("more-ranks-than-hosts", _too_many_ranks, [], "jobs[0].ranks"),
    ("job-host-out-of-range", _host_out_of_range, [], "jobs[0].hosts"),
    ("background-host-out-of-range", _bg_host_out_of_range, [], "background[0].hosts"),
    ("missing-cdf-file", _missing_cdf, [], "background[0].cdf"),
    ("folder-as-cdf-file", _folder_as_cdf, [], "background[0].cdf"),
    ("malformed-cdf-file", _garbage_cdf, [], "background[0].cdf"),
    ("unknown-policy-in-file", _unknown_policy_in_file, [], "scheduler.policy"),
    ("unknown-policy-option", _no_change, ["--policy", "no-such-policy"], "scheduler.policy"),
    ("classes-beyond-free", _too_many_classes, [], "scheduler.classes"),
    ("classes-beyond-free-option", _too_many_classes, ["--policy", "crux"], "scheduler.classes"),
    ("classes-zero", _classes_zero, [], "scheduler.classes"),
    ("min-share-out-of-range", _min_share_range, [], "scheduler.min_share"),
    ("granularity-unknown", _granularity, [], "scheduler.granularity"),
    ("latency-negative", _latency_negative, [], "scheduler.control_latency_us"),
    ("unknown-scheduler-key", _unknown_scheduler_key, [], "scheduler.planner"),
    ("factory-unknown-type", _factory("ns3::NoSuchQueueDisc"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-wrong-base", _factory("ns3::RoundRobinQpArbiter"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-unknown-attribute", _factory("ns3::FluxQueueDisc[Colour=red]"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-bad-value", _factory("ns3::FluxQueueDisc[MinShare=lots]"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-bad-order", _factory("ns3::FluxQueueDisc[Order=3,3,9]"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-bad-arbiter-order", _factory("ns3::ClassQpArbiter[Order=3;2]", "ns3::RdmaNic::QpArbiter"),
     [], 'ns3_defaults["ns3::RdmaNic::QpArbiter"]'),
    ("factory-spaces", _factory("ns3::FluxQueueDisc[Order=7 3]"),
     [], 'ns3_defaults["ns3::FabricSwitch::QueueDiscFactory"]'),
    ("factory-other-attribute", _factory("ns3::Node", "ns3::Node::Id"),
     [], 'ns3_defaults["ns3::Node::Id"]'),
    ("fault-on-no-cable", _fault_on_no_cable, [], "faults[0].link"),
    ("trace-of-no-link", _trace_of_no_link, [], "traces.links[0]"),
    ("seed-not-a-number", _no_change, ["--seed", "abc"], "--seed"),
    ("seed-negative", _no_change, ["--seed", "-3"], "--seed"),
    ("seed-fraction", _no_change, ["--seed", "1.5"], "--seed"),
    ("seed-zero", _no_change, ["--seed", "0"], "seed"),
    ("seed-too-large", _no_change, ["--seed", "99999999999"], "seed"),
    ("seed-without-value", _no_change, ["--seed"], "--seed"),
    ("unknown-option", _no_change, ["--speed", "1"], "--speed"),
    ("set-without-equals", _no_change, ["--set", "stop_ms"], "--set"),
    ("set-empty-part", _no_change, ["--set", "topology..kind=ring"], "--set"),
    ("set-index-beyond", _no_change, ["--set", "jobs.5.iterations=2"], "--set jobs.5.iterations"),
    ("set-through-a-number", _no_change, ["--set", "seed.x=2"], "--set seed.x"),
    ("set-wrong-type", _no_change, ["--set", "jobs.0.iterations=many"], "jobs[0].iterations"),
    ("set-unclosed-bracket", _no_change, ["--set", "jobs[0.iterations=5"], "--set"),
    ("set-doubled-bracket", _no_change, ["--set", "jobs[0]].iterations=5"], "--set"),
    ("set-name-in-brackets", _no_change, ["--set", "jobs[first].iterations=5"], "--set"),
    ("set-unknown-key", _no_change, ["--set", "scheduler.planner=greedy"], "scheduler.planner"),
]


@pytest.mark.parametrize("change,args,field", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
@pytest.mark.parametrize("out_option", [False, True], ids=["default-out", "with-out"])
def test_bad_input_exit_2_one_line_no_results(tmp_path, flux_run, change, args, field,
                                              out_option):
    """Every kind of bad input (unknown key, wrong type, out-of-range value,
    more ranks than hosts, host index out of range, unreadable or malformed
    CDF file, unknown policy, bad --seed, unknown option) makes flux-run exit
    with status 2, print exactly one stderr line `flux-run: <field>...` that
    names the offending field, print nothing on stdout, and write no file at
    all: neither the results file (default path or --out) nor a CSV file."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "a-folder").mkdir()
    (work / "garbage.cdf").write_text("this is not a CDF\n")
    scenario = copy.deepcopy(SMALL)
    change(scenario)
    path = _write(work / "scen.json", scenario)
    before = _listing(work)
    out = work / "out" / "res.json"
    (work / "out").mkdir()
    cmd = [path] + (["--out", out] if out_option else []) + args
    p = flux_run(*cmd)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"flux-run: {field}"), (field, lines[0])
    assert p.stdout == ""
    assert _listing(work) == before, "flux-run wrote files on a bad input"


@pytest.mark.parametrize("change,args,field", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_check_refuses_what_a_run_refuses(tmp_path, flux_run, change, args, field):
    """--check refuses every bad input above with the run's line, those that
    only the build finds (a fault's or a trace's link) included, and writes
    nothing; it said "valid" to them and the run then exited 2."""
    scenario = copy.deepcopy(SMALL)
    (tmp_path / "garbage.cdf").write_text("this is not a CDF\n")
    (tmp_path / "a-folder").mkdir()
    change(scenario)
    path = _write(tmp_path / "scen.json", scenario)
    before = _listing(tmp_path)
    p = flux_run(path, "--check", *args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stderr.splitlines()[0].startswith(f"flux-run: {field}"), p.stderr
    assert len(p.stderr.splitlines()) == 1 and p.stdout == ""
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_each_tenant_records_when_its_arrivals_ended(backend, tmp_path, flux_run):
    """flows.tenants.NAME.arrivals_end_ms: a tenant without stop_ms stops
    with the last job, whose end (start_ms + JCT) it records, and so starts
    fewer flows under a policy that ends the jobs sooner; one with stop_ms
    records that; an incast, a tenant still arriving when the run ends, and
    one that would have begun after the jobs ended, record null."""
    scenario = shipped("contended-leaf-spine")
    starts = {j["name"]: j.get("start_ms", 0) for j in scenario["jobs"]}
    scenario["background"] += [
        {"name": "fixed", "cdf": "websearch", "load": 0.05, "hosts": [0, 1], "stop_ms": 5},
        {"name": "late", "cdf": "websearch", "load": 0.05, "hosts": [2, 3], "stop_ms": 10000},
        {"name": "burst", "pattern": "incast", "senders": [4, 5], "receiver": 6,
         "bytes": 10000, "start_ms": 1},
        {"name": "after", "cdf": "websearch", "load": 0.05, "hosts": [0, 1], "start_ms": 300}]
    ended = {}
    for policy in ("fifo", "flux"):
        out = tmp_path / f"{policy}.json"
        p = flux_run(_write(tmp_path / "s.json", scenario), "--policy", policy,
                     "--backend", backend, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        r = json.loads(out.read_text())
        tenants = r["flows"]["tenants"]
        last = max(starts[j["name"]] + j["jct_ms"] for j in r["jobs"])
        assert tenants["rpc"]["arrivals_end_ms"] == pytest.approx(last, abs=1e-6)
        assert tenants["fixed"]["arrivals_end_ms"] == 5
        assert tenants["late"]["arrivals_end_ms"] is None
        assert tenants["burst"]["arrivals_end_ms"] is None
        assert tenants["after"]["arrivals_end_ms"] is None and tenants["after"]["started"] == 0
        ended[policy] = (last, tenants["rpc"]["started"])
    assert (ended["flux"][0] < ended["fifo"][0]) == (ended["flux"][1] < ended["fifo"][1])


def test_another_kinds_topology_key_is_warned_of_as_ignored(tmp_path, flux_run):
    """A key that shapes another kind of topology ("k" on a leaf-spine) is
    ignored with one warning naming it and the kinds that have it; a
    "links" topology's keys on another kind are refused."""
    s = copy.deepcopy(SMALL)
    s["topology"]["k"] = 4
    p = flux_run(_write(tmp_path / "k.json", s), "--check")
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines() == [
        'flux-run: warning: topology.k: only a "fat-tree" topology has it; ignored']
    s["topology"]["nodes"] = 4
    p = flux_run(_write(tmp_path / "nodes.json", s), "--check")
    assert p.returncode == 2
    assert p.stderr == 'flux-run: topology.nodes: only a "links" topology has it\n'


def test_tenants_that_overload_a_host_are_warned_of(tmp_path, flux_run):
    """Two tenants at 0.6 on the same hosts at once offer each host 1.2 of
    its link: flux-run warns once, naming the host and the load, and still
    runs; at 0.5 each, or one after the other, it does not warn."""
    def two(load, second_start=0):
        s = copy.deepcopy(SMALL)
        s["jobs"] = []
        s["stop_ms"] = 2
        s["background"] = [{"name": f"t{k}", "cdf": "websearch", "load": load,
                            "hosts": [0, 1, 4, 5], "start_ms": k * second_start,
                            "stop_ms": 1 + k * second_start} for k in (0, 1)]
        return _write(tmp_path / f"two-{load}-{second_start}.json", s)
    p = flux_run(two(0.6), "--check")
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines() == ["flux-run: warning: background: the tenants offer host 0 "
                                     "1.2 of its link at once: their flows pile up until "
                                     "stop_ms, and the run slows and takes more memory as the "
                                     "backlog grows"]
    for path in (two(0.5), two(0.6, second_start=1)):
        p = flux_run(path, "--check")
        assert p.returncode == 0 and p.stderr == "", p.stderr


def test_output_paths_are_checked_before_the_run(tmp_path, flux_run):
    """Every file a run writes (the results and the CSV files beside them,
    the timeline) is checked before the run: one that would be the
    scenario file, a folder, or a file that is not a regular one (a pipe:
    renaming onto it would replace it) is refused with exit 2 and one line
    naming --out or --timeline and the path; nothing is written and the
    scenario and the pipe stay as they were."""
    work = tmp_path / "w"
    work.mkdir()
    text = json.dumps(SMALL)
    (work / "r-flows.csv").write_text(text)  # a scenario named like a CSV file
    (work / "z-phases.csv").mkdir()
    os.mkfifo(work / "pipe")
    scen = _write(work / "s.json", SMALL)
    cases = [
        ([work / "r-flows.csv", "--out", work / "r.json"], "--out",
         f'"{work / "r-flows.csv"}" would overwrite the scenario file'),
        ([scen, "--out", work / "z.json"], "--out", f'"{work / "z-phases.csv"}" is a folder'),
        ([scen, "--out", work / "pipe"], "--out", f'"{work / "pipe"}" is not a regular file'),
        ([scen, "--out", work / "t.json", "--timeline", work / "pipe"], "--timeline",
         f'"{work / "pipe"}" is not a regular file'),
    ]
    before = _listing(work)
    for args, field, problem in cases:
        p = flux_run(*args, "--quiet")
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.splitlines() == [f"flux-run: {field}: {problem}"], p.stderr
        assert _listing(work) == before
    assert (work / "r-flows.csv").read_text() == text
    assert stat.S_ISFIFO(os.stat(work / "pipe").st_mode)


def test_an_option_given_twice_takes_its_last_value(tmp_path, flux_run):
    """An option given twice counts once, with its last value, as ns-3's
    CommandLine does (so a wrapper's defaults can be overridden): the seed
    and the policy written are the last ones given, and only the last --out
    is written."""
    path = _write(tmp_path / "scen.json", SMALL)
    p = flux_run(path, "--seed", "1", "--policy", "flux", "--out", tmp_path / "a.json",
                 "--seed=3", "--policy", "fifo", "--out", tmp_path / "b.json", "--quiet")
    assert p.returncode == 0, p.stderr
    r = json.loads((tmp_path / "b.json").read_text())
    assert (r["seed"], r["policy"]) == (3, "fifo")
    assert not (tmp_path / "a.json").exists()


def test_missing_scenario_file(tmp_path, flux_run):
    """A scenario path that does not exist is a bad input too: exit 2, one
    line naming the path, no results file."""
    missing = tmp_path / "nothing-here.json"
    p = flux_run(missing)
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and str(missing) in lines[0], p.stderr
    assert os.listdir(tmp_path) == []


def test_good_run_has_every_contract_field(small_file, tmp_path, flux_run):
    """A good run exits 0 and writes the results file (--out) with every
    field of Contract 1, with the documented types and consistent values
    (one iteration time per iteration, 2(N-1) phases per iteration, every
    job completed), and the three CSV files beside it."""
    out = tmp_path / "res.json"
    p = flux_run(small_file, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    r = json.loads(out.read_text())
    num = (int, float)
    assert isinstance(r["policy"], str) and r["policy"] == "fifo"
    assert isinstance(r["seed"], int) and r["seed"] == 1
    assert [j["name"] for j in r["jobs"]] == [j["name"] for j in SMALL["jobs"]]
    for j, cfg in zip(r["jobs"], SMALL["jobs"]):
        assert isinstance(j["jct_ms"], num) and j["jct_ms"] > 0
        assert len(j["iteration_ms"]) == cfg["iterations"]
        assert all(isinstance(x, num) and x > 0 for x in j["iteration_ms"])
        # JCT covers the iterations, which run back to back.
        assert j["jct_ms"] == pytest.approx(sum(j["iteration_ms"]), rel=1e-6)
        ph = j["phase_ms"]
        assert set(ph) >= {"count", "p50", "p99", "max"}
        assert ph["count"] == cfg["iterations"] * 2 * (cfg["ranks"] - 1)
        assert 0 < ph["p50"] <= ph["p99"] <= ph["max"]
    fl = r["flows"]
    assert isinstance(fl["count"], int) and fl["count"] > 0
    sd = fl["fct_slowdown"]
    assert set(sd) >= {"p50", "p99", "p999"}
    assert 0 < sd["p50"] <= sd["p99"] <= sd["p999"]
    for key in ("drops", "pfc_pauses", "ecn_marks", "cnps", "retransmissions"):
        assert isinstance(r["network"][key], int) and r["network"][key] >= 0
    for key in ("simulated_ms", "wall_s", "events"):
        assert isinstance(r["sim"][key], num)
    assert r["sim"]["simulated_ms"] >= max(j["jct_ms"] for j in r["jobs"])
    assert r["sim"]["events"] > 0
    for suffix in CSV_SUFFIXES:
        assert (tmp_path / ("res" + suffix)).stat().st_size > 0


def test_default_results_path(tmp_path, flux_run):
    """Without --out the results go next to the scenario as
    <stem>-results.json (with its CSV files)."""
    path = _write(tmp_path / "scen.json", SMALL)
    p = flux_run(path, "--quiet")
    assert p.returncode == 0, p.stderr
    assert json.loads((tmp_path / "scen-results.json").read_text())["policy"] == "fifo"
    for suffix in CSV_SUFFIXES:
        assert (tmp_path / ("scen-results" + suffix)).exists()


def test_list_policies(flux_run):
    """--list-policies prints the available policies, one non-empty name per
    line, fifo among them, the same list as ns3flux.policies(), and exits 0."""
    p = flux_run("--list-policies")
    assert p.returncode == 0, p.stderr
    names = p.stdout.splitlines()
    assert names and all(n and n == n.strip() for n in names)
    assert "fifo" in names and len(set(names)) == len(names)
    assert names == ns3flux.policies()


def _policies(flux_run):
    p = flux_run("--list-policies")
    assert p.returncode == 0
    return p.stdout.split()


def test_policy_override(tmp_path, flux_run):
    """--policy NAME replaces scheduler.policy before validation: a scenario
    naming an unknown policy runs under every listed policy given with
    --policy, and the results report that policy."""
    scenario = copy.deepcopy(SMALL)
    scenario["scheduler"] = {"policy": "no-such-policy"}
    path = _write(tmp_path / "scen.json", scenario)
    for name in _policies(flux_run):
        out = tmp_path / f"res-{name}.json"
        p = flux_run(path, "--policy", name, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        assert json.loads(out.read_text())["policy"] == name


def test_set_equals_the_same_key_in_the_file(tmp_path, flux_run):
    """--set KEY=VALUE (dotted path; VALUE as JSON, else a string) gives the
    same results as a scenario file with that value: a number in a job, a
    boolean in a new scheduler object, a string in ns3_defaults."""
    sets = ["jobs.0.iterations=1", "scheduler.policy=flux", "scheduler.path_placement=false",
            "ns3_defaults.ns3::FabricSwitch::QueueDiscFactory=ns3::FluxQueueDisc"]
    edited = copy.deepcopy(SMALL)
    edited["jobs"][0]["iterations"] = 1
    edited["scheduler"] = {"policy": "flux", "path_placement": False}
    edited["ns3_defaults"] = {"ns3::FabricSwitch::QueueDiscFactory": "ns3::FluxQueueDisc"}
    base = _write(tmp_path / "scen.json", SMALL)
    runs = {}
    for key, args in {"set": [base] + [a for kv in sets for a in ("--set", kv)],
                      "file": [_write(tmp_path / "edited.json", edited)]}.items():
        out = tmp_path / f"{key}.json"
        p = flux_run(*args, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        runs[key] = strip_wall(json.loads(out.read_text()))
    assert runs["set"] == runs["file"]
    assert runs["set"]["policy"] == "flux"
    assert len(runs["set"]["jobs"][0]["iteration_ms"]) == 1


def test_set_takes_the_key_as_the_messages_name_it(tmp_path, flux_run):
    """A bad value given with --set is refused naming the field as
    "jobs[0].iterations"; that spelling, pasted back into --set, sets the
    same key as the dotted "jobs.0.iterations" (identical results)."""
    base = _write(tmp_path / "scen.json", SMALL)
    p = flux_run(base, "--set", "jobs[0].iterations=0", "--out", tmp_path / "bad.json")
    assert p.returncode == 2
    assert "jobs[0].iterations" in p.stderr
    assert not (tmp_path / "bad.json").exists()
    runs = {}
    for key in ("jobs[0].iterations", "jobs.0.iterations"):
        out = tmp_path / f"{len(runs)}.json"
        p = flux_run(base, "--set", f"{key}=1", "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        runs[key] = strip_wall(json.loads(out.read_text()))
    assert runs["jobs[0].iterations"] == runs["jobs.0.iterations"]
    assert len(runs["jobs.0.iterations"]["jobs"][0]["iteration_ms"]) == 1


def test_seed_override(tmp_path, flux_run):
    """--seed N replaces the scenario's seed: the results report N, equal the
    results of a scenario file that says seed N, and differ from the
    scenario's own seed's results (the seed drives ECMP hashing and the
    background arrivals)."""
    path = _write(tmp_path / "scen.json", SMALL)  # seed 1
    seven = copy.deepcopy(SMALL)
    seven["seed"] = 7
    path7 = _write(tmp_path / "scen7.json", seven)
    runs = {}
    for key, args in {"file1": [path], "opt7": [path, "--seed", "7"], "file7": [path7]}.items():
        out = tmp_path / f"{key}.json"
        p = flux_run(*args, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        runs[key] = strip_wall(json.loads(out.read_text()))
    assert runs["opt7"]["seed"] == 7
    assert runs["opt7"] == runs["file7"]
    assert runs["file1"]["seed"] == 1
    assert runs["opt7"]["flows"] != runs["file1"]["flows"] or \
        runs["opt7"]["jobs"] != runs["file1"]["jobs"]


def test_quiet_prints_nothing_on_stderr(small_file, tmp_path, flux_run):
    """--quiet leaves stderr (and stdout) empty on a good run, while the same
    run without it reports on stderr where the results went."""
    p = flux_run(small_file, "--out", tmp_path / "q.json", "--quiet")
    assert p.returncode == 0
    assert p.stderr == "" and p.stdout == ""
    p = flux_run(small_file, "--out", tmp_path / "loud.json")
    assert p.returncode == 0
    assert "loud.json" in p.stderr


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_summary_shows_each_job_and_tenant_as_the_results_say(backend, tmp_path, flux_run):
    """Without --quiet, a run ends with a summary on stdout: one line per job
    with its status, iterations and JCT as the results file gives them, one
    per background tenant with its flows, and the fabric's counters only
    where the backend knows them (none at flow level)."""
    scenario = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "scenarios",
                            "multi-tenant.json")
    out = tmp_path / "r.json"
    p = flux_run(scenario, "--out", out, "--backend", backend, "--set", "stop_ms=30")
    assert p.returncode == 0, p.stderr
    r = json.loads(out.read_text())
    lines = p.stdout.splitlines()
    assert lines[0].startswith(f"policy fifo, seed 1, {backend} level: ")
    rows = {line.split()[0]: line.split() for line in lines[1:] if line.startswith("  ")}
    for job in r["jobs"]:
        row = rows[job["name"]]
        assert row[1] == job["status"]
        assert int(row[2]) == len(job["iteration_ms"])
        if job["status"] == "completed":
            assert float(row[3]) == pytest.approx(job["jct_ms"], abs=6e-4)
    for name, tenant in r["flows"]["tenants"].items():
        assert int(rows[name][1]) == tenant["started"]
        assert int(rows[name][3]) == tenant["failed"]
        assert float(rows[name][4]) == pytest.approx(tenant["fct_slowdown"]["p50"], abs=0.006)
    fabric = [line for line in lines if line.startswith("fabric: ")]
    if backend == "packet":
        assert fabric and f"{r['network']['pfc_pauses']} PFC pauses" in fabric[0]
    else:
        assert not fabric


@pytest.mark.parametrize("policy,backend,loss", [("mltcp", "flow", False), ("flux", "flow", False),
                                                 ("fifo", "flow", False), ("fifo", "flow", True),
                                                 ("mltcp", "packet", False),
                                                 ("fifo", "packet", True)])
def test_summary_says_which_settings_have_no_effect(policy, backend, loss, small_file, tmp_path,
                                                    flux_run):
    """The summary names the policy's settings and the faults' losses that
    the level has no counterpart for, exactly the scheduler.*, faults[] and
    transport.* entries of the results' backend_limits (mltcp's rate
    scaling, a loss_rate and the congestion control at flow level), in one
    line after the first; none where there are none."""
    out = tmp_path / "r.json"
    extra = (["--set", 'faults=[{"link": "leaf0<->spine0", "loss_rate": 0.01}]',
              "--set", "transport.ack_timeout=8"] if loss else [])
    p = flux_run(small_file, "--out", out, "--backend", backend, "--policy", policy, *extra)
    assert p.returncode == 0, p.stderr
    limits = [f for f in json.loads(out.read_text())["backend_limits"]
              if f.startswith(("scheduler.", "faults[", "transport."))]
    assert ("faults[0].loss_rate" in limits) == (loss and backend == "flow")
    said = [line for line in p.stdout.splitlines() if "no effect at this level" in line]
    if not limits:
        assert said == [], p.stdout
        return
    assert p.stdout.splitlines()[1] == ("  no effect at this level (backend_limits): "
                                        + ", ".join(limits))
    assert backend == "flow"


def test_summary_counts_the_watchdogs_storms(tmp_path, flux_run):
    """With PFC watchdogs, the summary's fabric line gives their storms as
    the results do (pfc-deadlock-ring: the watchdogs break its deadlock).
    The ring's pauses are named by its switches' kind, as its links are."""
    scenario = os.path.join(ROOT, "examples", "scenarios", "pfc-deadlock-ring.json")
    out = tmp_path / "r.json"
    p = flux_run(scenario, "--out", out)
    assert p.returncode == 0, p.stderr
    net = json.loads(out.read_text())["network"]
    assert set(net["pfc_pauses_by_tier"]) <= {"host->ring", "ring->ring"}, net
    assert sum(net["pfc_pauses_by_tier"].values()) == net["pfc_pauses"] > 0
    storms = net["pfc_watchdog_storms"]
    fabric = [line for line in p.stdout.splitlines() if line.startswith("fabric: ")]
    assert storms > 0 and f", {storms} PFC watchdog storms," in fabric[0], fabric


def test_a_rerun_leaves_no_companion_of_the_run_before(small_file, tmp_path, flux_run):
    """Results written over an earlier run's take its companion files that
    this run does not write (trace CSV files) away: every <stem>-* file
    beside the results is the new run's."""
    out = tmp_path / "r.json"
    p = flux_run(small_file, "--out", out, "--quiet", "--set", "traces.interval_us=100",
                 "--set", 'traces.links=["leaf0->spine0"]')
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "r-rates.csv").exists() and (tmp_path / "r-queues.csv").exists()
    p = flux_run(small_file, "--out", out, "--quiet")
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in tmp_path.iterdir() if f.name.startswith("r")) == [
        "r-flows.csv", "r-iterations.csv", "r-phases.csv", "r.json"]


def test_same_seed_same_results(small_file, tmp_path, flux_run):
    """Two runs of the same scenario and seed give identical results files
    apart from sim.wall_s, and byte-identical CSV files."""
    outs = []
    for k in range(2):
        out = tmp_path / f"run{k}.json"
        p = flux_run(small_file, "--out", out, "--quiet", "--seed", "3")
        assert p.returncode == 0, p.stderr
        outs.append(out)
    a, b = (json.loads(o.read_text()) for o in outs)
    assert "wall_s" in a["sim"] and "wall_s" in b["sim"]
    assert strip_wall(a) == strip_wall(b)
    for suffix in CSV_SUFFIXES:
        assert (tmp_path / ("run0" + suffix)).read_bytes() == \
            (tmp_path / ("run1" + suffix)).read_bytes()


def _tcmalloc_found(exe):
    """Whether the build of flux-run exe found tcmalloc to link (None: exe
    is not in a standalone build folder)."""
    library = cmake_entry(os.path.dirname(exe), "FLUX_TCMALLOC_LIBRARY")
    return None if library is None else library.endswith((".so", ".so.4"))


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_allocator_changes_no_result(backend, tmp_path, flux_run):
    """flux-run is linked with tcmalloc exactly when its build found it,
    and what it writes is what the same scenario gives in this Python
    process, which allocates with the C library: no result depends on the
    allocator (two contending jobs, each backend)."""
    exe = flux_run.path
    found = _tcmalloc_found(exe)
    if found is None:
        pytest.skip("flux-run is not in a standalone build folder")
    linked = subprocess.run(["ldd", exe], capture_output=True, text=True, check=True).stdout
    assert ("libtcmalloc_minimal" in linked) == found, linked
    scenario = shipped("contended-two-equal")
    path = tmp_path / "two.json"
    path.write_text(json.dumps(scenario))
    out = tmp_path / "out.json"
    proc = flux_run(path, "--backend", backend, "--out", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    with open(out) as f:
        from_file = json.load(f)
    here = ns3flux.run(path, backend=backend)
    assert strip_wall({k: v for k, v in here.items() if k != "records"}) == strip_wall(from_file)


def _run_counting_faults(exe, args, env):
    """Run exe with args and env; return (exit status, minor page faults)."""
    proc = subprocess.Popen([exe, *map(str, args)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.returncode == 0, stderr
    return usage.ru_minflt


def test_huge_pages_cut_page_faults_not_results(tmp_path, flux_run):
    """At flow level flux-run backs its heap with transparent huge pages:
    on the 1024-host bench it takes at most half the page faults it takes
    with FLUX_HUGE_PAGES=0 (a count, not a time), and writes the same
    results."""
    exe = flux_run.path
    if not _tcmalloc_found(exe):
        pytest.skip("flux-run is not linked with tcmalloc")
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            mode = f.read()
    except OSError:
        pytest.skip("no transparent huge pages in this kernel")
    if "[madvise]" not in mode:
        # ("never": none to be had; "always": the run without the mark
        # gets them too)
        pytest.skip("transparent huge pages are not given on request here")
    scenario = os.path.join(ROOT, "bench", "scenarios", "fat-tree-1024-8-tenants.json")
    faults = {}
    for huge in ("0", "1"):
        env = dict(os.environ, FLUX_HUGE_PAGES=huge)
        out = tmp_path / f"huge-{huge}.json"
        faults[huge] = _run_counting_faults(
            exe, [scenario, "--backend", "flow", "--quiet", "--out", out], env)
    assert faults["1"] * 2 <= faults["0"], faults
    with open(tmp_path / "huge-0.json") as a, open(tmp_path / "huge-1.json") as b:
        assert strip_wall(json.load(a)) == strip_wall(json.load(b))


def test_help_lists_every_option_the_parser_takes(flux_run):
    """--help (and ns-3's spelling, --PrintHelp) prints the usage on stdout
    with exit 0, naming every option flux-run's parser accepts."""
    source = open(os.path.join(ROOT, "examples", "flux-run.cc")).read()
    options = set(re.findall(r'arg == "(--[a-z-]+)"', source)) - {"--help", "--PrintHelp"}
    assert len(options) > 15
    outs = []
    for spelling in ("--help", "-h", "--PrintHelp"):
        p = flux_run(spelling)
        assert p.returncode == 0 and p.stderr == "", (spelling, p.stderr)
        outs.append(p.stdout)
    assert outs[0] == outs[1] == outs[2]
    missing = [o for o in sorted(options) if o not in outs[0]]
    assert not missing, missing


def test_version_names_the_release_and_the_results_record_it(small_file, tmp_path, flux_run):
    """--version prints `flux-run <release> (ns-3 <release>)` with exit 0:
    flux's release is the VERSION file's, ns-3's the one the build found
    (the ns-3 CMake package of the standalone build). A run records both
    in sim.flux_version and sim.ns3_version, the same at either level."""
    p = flux_run("--version")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    release = open(os.path.join(ROOT, "VERSION")).read().strip()
    m = re.fullmatch(r"flux-run (\S+) \(ns-3 (3\.\d+)(\.\d+)?\)\n", p.stdout)
    assert m, p.stdout
    assert m.group(1) == release
    ns3 = m.group(2) + (m.group(3) or "")
    # the version file of the ns-3 CMake package the build found
    package = cmake_entry(script_env()["FLUX_BUILD_DIR"], "ns3_DIR")
    with open(os.path.join(package, "ns3ConfigVersion.cmake")) as f:
        assert re.search(r'set\(PACKAGE_VERSION "%s"\)' % re.escape(ns3), f.read())
    for backend in ("packet", "flow"):
        out = tmp_path / ("res-%s.json" % backend)
        p = flux_run(small_file, "--out", out, "--quiet", "--backend", backend)
        assert p.returncode == 0, p.stderr
        sim = json.loads(out.read_text())["sim"]
        assert (sim["flux_version"], sim["ns3_version"]) == (release, ns3)
        assert sim["plugins"] == []  # (none loaded: test_plugins.py loads some)


@pytest.mark.parametrize("args, message", [
    (["--policy", "fluxx", "--check"],
     'scheduler.policy: "fluxx" is not a known policy (did you mean "flux"?; known: fifo, '),
    (["--set", "transport.cc=dcqnc", "--check"],
     'transport.cc: "dcqnc" is not known (did you mean "dcqcn"?; known: dcqcn, '),
    (["--set", "topology.kind=fat_tree", "--check"],
     'topology.kind: "fat_tree" is not known (did you mean "fat-tree"?; known: '),
    (["--set", "jobs.0.placement=randm", "--check"],
     'jobs[0].placement: "randm" is not known (did you mean "random"?; known: '),
    (["--set", "jobs.0.placement=anywhere", "--check"],
     'jobs[0].placement: "anywhere" is not known (known: packed, spread, random)'),
    (["--describe-policy", "crx"],
     '--describe-policy: "crx" is not a known policy (did you mean "crux"?; see '
     "--list-policies)"),
    (["--describe-cc", "hpc"],
     '--describe-cc: "hpc" is not a known congestion control (did you mean "hpcc"?; see '
     "--list-cc)"),
    (["--describe-cc", "reno"],
     '--describe-cc: "reno" is not a known congestion control (see --list-cc)'),
])
def test_a_misspelt_name_gets_the_nearest_known_one(flux_run, args, message):
    """A name that is none of the known ones is refused with them; one
    within two edits of a known name also suggests it, one further does
    not. ns3flux's own lookups do the same."""
    scenario = [] if args[0].startswith("--describe") else [
        os.path.join(ROOT, "examples", "scenarios", "single-job.json")]
    p = flux_run(*scenario, *args)
    assert p.returncode == 2
    assert p.stderr.startswith("flux-run: " + message), p.stderr
    with pytest.raises(ValueError, match=r"policy 'crx' is not known \(did you mean 'crux'\?"):
        ns3flux.policy_keys("crx")
    with pytest.raises(ValueError, match=r"control 'reno' is not known \(known: dcqcn"):
        ns3flux.congestion_control_keys("reno")
