"""The scenario schema (scenario/config/scenario.schema.json) is the one
source of the scenario's keys, names and ranges: the runner reads them from
it, jsonschema checks scenarios against it, and the two agree.

Properties checked: the schema is valid JSON Schema (draft 07) and every
key in it has a type and a description; every shipped scenario passes it;
for every numeric key the runner reads, a value just outside the schema's
range is refused by the runner with a message naming that key, and flagged
by jsonschema at the same path; an unknown key and a name outside a key's list are refused by both; the
fuzzer's keys and the manual's table of keys are the schema's; the
shipped scenarios name the schema (for editors); the defaults the schema
states are the runner's (a scenario runs alike with them written out)."""

import copy
import glob
import json
import os
import re
import subprocess

import jsonschema
import pytest

import ns3flux

from conftest import ROOT, SMALL, load_script, strip_wall

SCHEMA_FILE = os.path.join(ROOT, "scenario", "config", "scenario.schema.json")

# A scenario that reads every section: servers, DCQCN and ECN overrides,
# per-rate thresholds, a job with workload-free keys, a CDF tenant, an
# incast tenant, a flow list, faults, traces, the PFC watchdog, seeds.
FULL = {
    "seed": 1,
    "seeds": {"ecmp": 1, "background": 1, "placement": 1},
    "stop_ms": 1000,
    "stall_ms": 5,
    "completion_latency_us": 0,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                 "host_gbps": 100, "fabric_gbps": 100, "link_delay_us": 1, "buffer_mb": 16,
                 "route_convergence_ms": 1,
                 "servers": {"gpus": 2, "nics": 1, "nvlink_gbps": 3600,
                             "nvlink_latency_us": 0.05}},
    "transport": {"mtu_bytes": 4096, "ack_timeout": 20, "retry_cnt": 7,
                  "dcqcn": {"g": 0.0625, "alpha_interval_us": 1, "rate_decrease_interval_us": 4,
                            "rate_increase_interval_us": 300, "byte_counter_bytes": 10000000,
                            "fast_recovery_stages": 5, "ai_mbps": 5, "hai_mbps": 50,
                            "min_rate_mbps": 100, "cnp_interval_us": 4, "window_bdp": 0},
                  "ecn": {"kmin_kb": 400, "kmax_kb": 1600, "pmax": 0.2,
                          "per_rate": [{"gbps": 100, "kmin_kb": 400, "kmax_kb": 1600,
                                        "pmax": 0.2}]}},
    "scheduler": {"policy": "flux", "classes": 3, "control_latency_us": 5, "replan_us": 1000,
                  "hysteresis_us": 50, "max_hold_us": 0, "max_wait_us": 0, "min_share": 0.05,
                  "flows_per_class": 0},
    "jobs": [{"name": "a", "ranks": 4, "bytes": 4000000, "compute_ms": 1, "iterations": 1,
              "start_ms": 0, "chunk_bytes": 0, "buckets": 1, "priority": 3, "channels": 1}],
    "background": [
        {"name": "rpc", "cdf": "websearch", "load": 0.2, "start_ms": 0, "stop_ms": 10,
         "priority": 3},
        {"name": "burst", "pattern": "incast", "senders": [1, 2], "receiver": 0,
         "bytes": 1000, "repeat": 2, "interval_ms": 1},
        {"name": "list", "pattern": "flows",
         "flows": [{"src": 0, "dst": 5, "bytes": 1000, "start_ms": 0, "dport": 100}]},
    ],
    "faults": [{"link": "host0<->leaf0", "loss_rate": 0, "down_ms": 1, "up_ms": 2}],
    "traces": {"interval_us": 10, "links": []},
    "pfc_watchdog": {"detection_ms": 200, "restoration_ms": 200},
}


def _schema():
    with open(SCHEMA_FILE, encoding="utf-8") as f:
        return json.load(f)


def _numeric_keys(node, path=()):
    """(path as a tuple of keys and 0 for array items, the key's schema) of
    every numeric key."""
    for key, sub in node.get("properties", {}).items():
        if sub.get("type") in ("integer", "number") and "enum" not in sub:
            yield path + (key,), sub
        yield from _numeric_keys(sub, path + (key,))
        if isinstance(sub.get("items"), dict):
            yield from _numeric_keys(sub["items"], path + (key, 0))


def _get(data, path):
    for part in path:
        if isinstance(part, int):
            if not isinstance(data, list) or not data:
                return None
            data = data[part]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return None
    return data


def _set(data, path, value):
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def _where(path):
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _entry_for(path):
    """The FULL scenario, with the background entry that has the key first
    (the runner reads a tenant's keys by its kind)."""
    data = copy.deepcopy(FULL)
    if path[0] == "background":
        key = path[2]
        for i, entry in enumerate(data["background"]):
            if key in entry:
                data["background"] = [entry]
                break
    return data


def test_the_schema_is_valid_json_schema_and_describes_every_key():
    schema = _schema()
    jsonschema.Draft7Validator.check_schema(schema)
    assert ns3flux.schema() == schema, "the compiled-in schema is the file's"
    missing = []

    def walk(node, path):
        for key, sub in node.get("properties", {}).items():
            if "type" not in sub or not sub.get("description"):
                missing.append(path + key)
            walk(sub, path + key + ".")
            if isinstance(sub.get("items"), dict):
                walk(sub["items"], path + key + "[].")

    walk(schema, "")
    assert not missing, f"keys without a type or a description: {missing}"


def test_the_manuals_table_of_keys_is_the_schemas():
    proc = subprocess.run([os.path.join(ROOT, "scripts", "gen-doc-scenario-keys"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_every_shipped_scenario_follows_the_schema():
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "**", "*.json"), recursive=True)
                   + glob.glob(os.path.join(ROOT, "bench", "scenarios", "*.json")))
    checked = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or not ({"topology", "hpcc"} & set(data)):
            continue  # not a scenario (e.g. a communicator-group file)
        assert ns3flux.schema_errors(data) == [], path
        # names the schema for editors, by a path that exists
        assert os.path.samefile(os.path.join(os.path.dirname(path), data["$schema"]),
                                SCHEMA_FILE), path
        checked += 1
    assert checked >= 20


def test_the_full_scenario_is_accepted_by_both():
    assert ns3flux.schema_errors(FULL) == []
    ns3flux.validate(FULL, base_dir=ROOT)


@pytest.mark.parametrize("path,spec", [
    pytest.param(p, s, id=_where(p)) for p, s in _numeric_keys(_schema())
    if _get(FULL, p) is not None or (p[0] == "background" and any(
        _get(e, p[2:]) is not None for e in FULL["background"]))])
def test_the_runner_reads_each_range_from_the_schema(path, spec):
    """Just outside the schema's range: refused by both, naming the key."""
    integer = spec["type"] == "integer"
    outside = []
    if "maximum" in spec:
        outside.append(spec["maximum"] + 1 if integer else spec["maximum"] * 1.5 + 1)
    if "minimum" in spec and spec["minimum"] > 0:
        outside.append(spec["minimum"] - 1 if integer else spec["minimum"] / 2)
    if "minimum" in spec and spec["minimum"] == 0:
        outside.append(-1)
    if "exclusiveMinimum" in spec:
        outside.append(spec["exclusiveMinimum"])
    assert outside, f"{_where(path)}: no bound in the schema"
    for value in outside:
        data = _entry_for(path)
        _set(data, path, value)
        where = _where(path)
        assert where in [p for p, _ in ns3flux.schema_errors(data)], (where, value)
        with pytest.raises(ns3flux.ScenarioError) as err:
            ns3flux.validate(data, base_dir=ROOT)
        assert str(err.value).startswith(where + ":"), (value, str(err.value))


def test_unknown_keys_and_names_are_refused_by_both():
    for path, value, where in [
        (("topology", "leafs"), 2, "topology.leafs"),
        (("jobs", 0, "rank"), 2, "jobs[0].rank"),
        (("transport", "ecn", "kmin"), 2, "transport.ecn.kmin"),
        (("topology", "kind"), "torus", "topology.kind"),
        (("jobs", 0, "placement"), "scattered", "jobs[0].placement"),
        (("pfc_watchdog", "action"), "pause", "pfc_watchdog.action"),
        (("transport", "mtu_bytes"), 1500, "transport.mtu_bytes"),
        (("jobs", 0, "iterations"), "3", "jobs[0].iterations"),
    ]:
        data = copy.deepcopy(FULL)
        _set(data, path, value)
        assert where in [p for p, _ in ns3flux.schema_errors(data)], where
        with pytest.raises(ns3flux.ScenarioError) as err:
            ns3flux.validate(data, base_dir=ROOT)
        assert str(err.value).startswith(where + ":"), str(err.value)


def test_a_name_rule_is_the_schemas_and_both_word_it_alike():
    """The characters a job or tenant name may hold are a schema rule
    (pattern), which schema_errors() and validate() both report, in the same
    words, at the same field."""
    for path, value, words in [
        (("jobs", 0, "name"), "a b", '"a b" may contain only letters, digits'),
        (("jobs", 0, "name"), "", "must not be empty"),
        (("background", 0, "name"), "r/pc", '"r/pc" may contain only letters, digits'),
    ]:
        data = copy.deepcopy(FULL)
        _set(data, path, value)
        where = _where(path)
        errors = dict(ns3flux.schema_errors(data))
        assert errors.get(where, "").startswith(words), (where, errors)
        with pytest.raises(ns3flux.ScenarioError) as err:
            ns3flux.validate(data, base_dir=ROOT)
        assert str(err.value).startswith(f"{where}: {words}"), str(err.value)


def test_schema_errors_lists_the_registered_keys_problems_in_the_runners_words():
    """Keys the schema cannot name (a policy's, a congestion control's,
    ns3_defaults entries) are checked one by one as the runner reads them:
    schema_errors() lists each problem with the message validate() gives
    when it is the only one."""
    cases = {
        "scheduler.fooo": (("scheduler",), {"policy": "flux", "fooo": 1}),
        "transport.timely.t_low_us": (("transport",), {"cc": "timely",
                                                       "timely": {"t_low_us": "x"}}),
        "transport.timely.bogus": (("transport",), {"cc": "timely", "timely": {"bogus": 2}}),
        'ns3_defaults["ns3::Nope::X"]': (("ns3_defaults",), {"ns3::Nope::X": "1"}),
        "scheduler.policy": (("scheduler",), {"policy": "nopolicy", "max_hold_us": 1}),
    }
    for where, (path, value) in cases.items():
        data = copy.deepcopy(SMALL)
        _set(data, path, value)
        with pytest.raises(ns3flux.ScenarioError) as err:
            ns3flux.validate(data, base_dir=ROOT)
        assert str(err.value).startswith(where + ":"), str(err.value)
        assert (where, str(err.value)[len(where) + 2:]) in ns3flux.schema_errors(data)
    everything = copy.deepcopy(SMALL)
    everything["scheduler"] = {"policy": "nopolicy", "fooo": 1}
    everything["transport"] = {"cc": "timely", "timely": {"t_low_us": "x", "bogus": 2}}
    everything["ns3_defaults"] = {"ns3::Nope::X": "1"}
    # values of the wrong type are the schema's to name; the readers never raise
    for section, value in [("scheduler", {"policy": "flux", "granularity": 3}),
                           ("scheduler", {"policy": "flux", "hysteresis_us": [1]}),
                           ("transport", {"cc": "timely", "timely": {"t_low_us": None}}),
                           ("ns3_defaults", {"ns3::RdmaNic::Mtu": {"a": 1}})]:
        data = copy.deepcopy(SMALL)
        data[section] = value
        assert ns3flux.schema_errors(data), (section, value)
    listed = [p for p, _ in ns3flux.schema_errors(everything)]
    assert "scheduler.policy" in listed and "scheduler.fooo" not in listed  # no policy to ask
    assert {"transport.timely.t_low_us", "transport.timely.bogus",
            'ns3_defaults["ns3::Nope::X"]'} <= set(listed)


def test_flux_run_prints_the_schema(flux_run):
    out = flux_run("--schema")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == _schema()


def test_a_scenario_may_name_the_schema():
    data = copy.deepcopy(SMALL)
    data["$schema"] = "../../scenario/config/scenario.schema.json"
    assert ns3flux.schema_errors(data) == []
    ns3flux.validate(data)


def test_the_fuzzer_mutates_the_schemas_keys():
    fuzz = load_script("flux-fuzz")
    keys = set()

    def walk(node):
        for key, sub in node.get("properties", {}).items():
            keys.add(key)
            walk(sub)
            if isinstance(sub.get("items"), dict):
                walk(sub["items"])

    walk(_schema())
    assert keys <= set(fuzz.SCENARIO_KEYS)


def _write_defaults(data, node, path, added):
    """Write into data every key whose schema states a default and that data
    leaves out, inside the objects data has (an object left out keeps its
    meaning); added maps each written key's field to (its object, the key)."""
    if isinstance(data, dict) and isinstance(node.get("properties"), dict):
        variants = node.get("x-variants", {})
        other = {k for kind, keys in variants.items() if kind not in data for k in keys}
        for key, sub in node["properties"].items():
            where = f"{path}.{key}" if path else key
            if key in data:
                _write_defaults(data[key], sub, where, added)
            elif "default" in sub and key not in other:
                data[key] = copy.deepcopy(sub["default"])
                added[where] = (data, key)
    elif isinstance(data, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(data):
            _write_defaults(item, node["items"], f"{path}[{i}]", added)


def _run_with_defaults(data, backend):
    """(results of data, results of data with the schema's defaults written
    out, the fields written). A default that the scenario's other keys
    exclude (placement beside a job's hosts, compute beside a replayed
    workload) is refused by the runner naming it: it is taken out again,
    in every entry alike."""
    folder = os.path.join(ROOT, "examples", "scenarios")
    plain = strip_wall(ns3flux.run(data, base_dir=folder, backend=backend, records=False))
    full = copy.deepcopy(data)
    added = {}
    _write_defaults(full, _schema(), "", added)
    for _ in range(len(added) + 1):
        try:
            return plain, strip_wall(ns3flux.run(full, base_dir=folder, backend=backend,
                                                 records=False)), sorted(added)
        except ns3flux.ScenarioError as err:
            field = str(err).split(": ", 1)[0]
            assert field in added, f"refused, not for a written default: {err}"
            kind = re.sub(r"\[\d+\]", "[]", field)
            for where in [w for w in added if re.sub(r"\[\d+\]", "[]", w) == kind]:
                obj, key = added.pop(where)
                del obj[key]
    raise AssertionError("defaults still refused")


def _shipped_without_hpcc():
    """The shipped scenarios' names, but those importing an HPCC
    configuration (which supplies its own defaults: its stop time)."""
    names = []
    for path in glob.glob(os.path.join(ROOT, "examples", "scenarios", "*.json")):
        with open(path, encoding="utf-8") as f:
            if "hpcc" not in json.load(f):
                names.append(os.path.basename(path)[:-5])
    return sorted(names)


DEFAULTS_SCENARIOS = _shipped_without_hpcc()


# Scenarios that leave out all they may, with every optional object
# present and empty, so that the defaults inside them are written too.
BARE_JOB = {"name": "a", "ranks": 4, "bytes": 2000000, "iterations": 2}
BARE = {
    "bare-leaf-spine": {
        "topology": {"kind": "leaf-spine", "servers": {}},
        "transport": {"dcqcn": {}, "ecn": {}},
        "traces": {}, "pfc_watchdog": {},
        "jobs": [BARE_JOB],
        "background": [{"name": "rpc", "cdf": "websearch", "load": 0.3},
                       {"name": "burst", "pattern": "incast", "senders": [9, 10, 11],
                        "receiver": 8, "bytes": 200000}],
    },
    "bare-fat-tree": {"topology": {"kind": "fat-tree"}, "jobs": [BARE_JOB]},
    "bare-dumbbell": {"topology": {"kind": "dumbbell"}, "jobs": [BARE_JOB]},
    "bare-ring": {"topology": {"kind": "ring"}, "jobs": [BARE_JOB]},
    "bare-rail-optimized": {
        "topology": {"kind": "rail-optimized", "servers": {"nics": 2, "gpus": 2}},
        "jobs": [BARE_JOB],
    },
}


@pytest.mark.parametrize("name", DEFAULTS_SCENARIOS + sorted(BARE))
@pytest.mark.filterwarnings("ignore:topology.*topology has it; ignored")  # (every kind's defaults)
def test_the_schemas_defaults_are_the_runners(name):
    """Every default the schema states (and so the manual's table of keys)
    is the one the runner takes: a scenario with all of them written out
    gives the same results as without, at flow level (the whole run) and at
    packet level (until half a millisecond after the last start): every
    shipped scenario, and bare ones that leave out all they may."""
    if name in BARE:
        data = copy.deepcopy(BARE[name])
    else:
        with open(os.path.join(ROOT, "examples", "scenarios", name + ".json"),
                  encoding="utf-8") as f:
            data = json.load(f)
    plain, full, added = _run_with_defaults(data, "flow")
    assert added, "no default written"
    assert full == plain, added
    starts = [e.get("start_ms", 0) for e in data.get("jobs", []) + data.get("background", [])]
    starts.append(data.get("pfc_watchdog", {}).get("detection_ms", 0))
    data["stop_ms"] = max(starts) + 0.5
    plain, full, added = _run_with_defaults(data, "packet")
    assert full == plain, added


def test_schema_errors_reads_what_validate_reads(tmp_path):
    """schema_errors() takes what validate() takes: a file's path, tuples
    and NumPy values as their JSON (they are not schema errors)."""
    import numpy as np

    data = json.loads(json.dumps(FULL))
    data["jobs"][0]["bytes"] = np.int64(data["jobs"][0].get("bytes", 1000000))
    data["jobs"][0]["iterations"] = np.int32(2)
    if "hosts" in data["jobs"][0]:
        data["jobs"][0]["hosts"] = tuple(data["jobs"][0]["hosts"])
    assert ns3flux.schema_errors(data) == []
    path = tmp_path / "s.json"
    path.write_text(json.dumps(FULL))
    assert ns3flux.schema_errors(str(path)) == []
    data["jobs"][0]["bytes"] = float("nan")
    assert ns3flux.schema_errors(data) == [("jobs[0].bytes", "expected a finite number, got nan")]
