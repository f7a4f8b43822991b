"""Running the HPCC simulator's experiments as they are: its topology, flow
and configuration files named by a scenario ("hpcc"), and its FCT file
written beside the results (doc/hpcc-import.rst)."""

import json
import math
import os
import subprocess
import sys
import warnings

import pytest

import ns3flux
from conftest import strip_wall

# Two switches (4 and 5) with two hosts each: 100 Gb/s host links of 1 us,
# a 400 Gb/s switch link of 2 us.
TOPOLOGY = """6 2 5
4 5
0 4 100Gbps 0.001ms 0
1 4 100Gbps 1000ns 0
2 5 100Gbps 1us 0
3 5 100Gbps 0.001ms 0
4 5 400Gbps 2us 0
"""

FLOWS = """6
0 1 3 100 1000 0.0001
0 2 3 100 50000 0.0001
3 1 3 100 200000 0.00012
2 0 2 200 30000 0.00012
1 3 3 100 400000 0.0002
3 2 2 200 7000 0.00025
"""

CONFIG = """ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1
PACKET_PAYLOAD_SIZE {payload}
TOPOLOGY_FILE topology.txt
FLOW_FILE flow.txt
FCT_OUTPUT_FILE fct.txt
SIMULATOR_STOP_TIME 0.05
CC_MODE {mode}
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 20Mb/s
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
L2_ACK_INTERVAL 1
L2_BACK_TO_ZERO 0
HAS_WIN {win}
VAR_WIN {win}
U_TARGET 0.95
MI_THRESH 0
ACK_HIGH_PRIO 0
KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.2 400000000000 0.2
BUFFER_SIZE 16
"""

# The same experiment written by hand as flux scenario keys.
HAND = {
    "stop_ms": 50,
    "hpcc_fct": True,
    "topology": {
        "kind": "links", "nodes": 6, "switch_nodes": [4, 5], "buffer_mb": 16 * 1.048576,
        "links": [{"a": 0, "b": 4, "gbps": 100, "delay_us": 1},
                  {"a": 1, "b": 4, "gbps": 100, "delay_us": 1},
                  {"a": 2, "b": 5, "gbps": 100, "delay_us": 1},
                  {"a": 3, "b": 5, "gbps": 100, "delay_us": 1},
                  {"a": 4, "b": 5, "gbps": 400, "delay_us": 2}]},
    "transport": {
        "mtu_bytes": 1024,
        "ecn": {"per_rate": [{"gbps": 100, "kmin_kb": 400, "kmax_kb": 1600, "pmax": 0.2},
                             {"gbps": 400, "kmin_kb": 1600, "kmax_kb": 6400, "pmax": 0.2}]}},
    "ns3_defaults": {"ns3::RdmaNic::ControlPriority": 3, "ns3::RdmaNic::AckInterval": 1},
    "background": [
        {"name": "hpcc-flows-pg3", "pattern": "flows", "priority": 3, "flows": [
            {"src": 0, "dst": 1, "bytes": 1000, "start_ms": 0.1, "dport": 100},
            {"src": 0, "dst": 2, "bytes": 50000, "start_ms": 0.1, "dport": 100},
            {"src": 3, "dst": 1, "bytes": 200000, "start_ms": 0.12, "dport": 100},
            {"src": 1, "dst": 3, "bytes": 400000, "start_ms": 0.2, "dport": 100}]},
        {"name": "hpcc-flows-pg2", "pattern": "flows", "priority": 2, "flows": [
            {"src": 2, "dst": 0, "bytes": 30000, "start_ms": 0.12, "dport": 200},
            {"src": 3, "dst": 2, "bytes": 7000, "start_ms": 0.25, "dport": 200}]},
    ],
}

DCQCN_HAND = {"g": 0.00390625, "alpha_interval_us": 1, "rate_decrease_interval_us": 4,
              "rate_increase_interval_us": 300, "fast_recovery_stages": 1,
              "clamp_target_rate": False, "ai_mbps": 20, "hai_mbps": 200, "min_rate_mbps": 1000,
              "byte_counter_bytes": 0, "cnp_interval_us": 0}


def write_files(folder, topology=TOPOLOGY, flows=FLOWS, config=None, mode=1, payload=1024,
                win=None):
    """The three files in folder, and a scenario naming the config."""
    if win is None:
        win = 1 if mode == 3 else 0
    (folder / "topology.txt").write_text(topology)
    (folder / "flow.txt").write_text(flows)
    (folder / "config.txt").write_text(
        config if config is not None else CONFIG.format(mode=mode, payload=payload, win=win))
    path = folder / "import.json"
    path.write_text(json.dumps({"hpcc": {"config": "config.txt"}}))
    return path


def read_fct(path):
    rows = []
    for line in path.read_text().splitlines():
        sip, dip, sport, dport, size, start, fct, ideal = line.split()
        rows.append({"sip": sip, "dip": dip, "sport": int(sport), "dport": int(dport),
                     "size": int(size), "start_ns": int(start), "fct_ns": int(fct),
                     "ideal_ns": int(ideal)})
    return rows


@pytest.mark.parametrize("mode,win", [(1, 0), (1, 1), (3, 1)])
def test_import_equals_hand_written(flux_run, tmp_path, mode, win):
    """The importer builds the same topology, transport and flows as the
    same experiment written by hand as flux keys: identical results (all but
    the wall time) and an identical FCT file, under DCQCN, DCQCN with a
    window (HAS_WIN 1: window_bdp 1) and HPCC."""
    imported = write_files(tmp_path, mode=mode, win=win)
    hand = json.loads(json.dumps(HAND))
    if mode == 1:
        hand["transport"]["cc"] = "dcqcn"
        hand["transport"]["dcqcn"] = dict(DCQCN_HAND, **({"window_bdp": 1} if win else {}))
    else:
        hand["transport"]["cc"] = "hpcc"
        hand["ns3_defaults"].update({
            "ns3::HpccCongestionControl::TargetUtilization": 0.95,
            "ns3::HpccCongestionControl::MaxStage": 0,
            "ns3::HpccCongestionControl::AdditiveIncrease": "20000000bps",
            "ns3::HpccCongestionControl::MinRate": "1000000000bps"})
    hand_path = tmp_path / "hand.json"
    hand_path.write_text(json.dumps(hand))
    out = {}
    for name, path in (("import", imported), ("hand", hand_path)):
        res = tmp_path / f"{name}-results.json"
        proc = flux_run(path, "--out", res, "--quiet")
        assert proc.returncode == 0, proc.stderr
        out[name] = (json.loads(res.read_text()), (tmp_path / f"{name}-results-fct.txt").read_text())
    assert strip_wall(out["import"][0]) == strip_wall(out["hand"][0])
    assert out["import"][1] == out["hand"][1]
    assert len(out["import"][1].splitlines()) == 6
    assert out["import"][0]["flows"]["count"] == 6


def test_fct_file_ideal_equals_formula(flux_run, tmp_path):
    """Each line of the FCT file carries that simulator's addresses, ports,
    size and start, an FCT up to the sender's last ACK, and the ideal FCT of
    its formula (base RTT = 2 x delays + one payload per hop; plus size with
    48 header bytes per packet at the slowest rate), worked out by hand for
    a one-switch and a two-switch flow."""
    path = write_files(tmp_path, payload=1024)
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = {(r["sip"], r["dip"]): r for r in read_fct(tmp_path / "r-fct.txt")}
    assert len(rows) == 6
    # node n is 0x0b000001 + (n // 256) << 16 + (n % 256) << 8
    one = rows[("0b000001", "0b000101")]  # node 0 -> node 1, under switch 4
    two = rows[("0b000001", "0b000201")]  # node 0 -> node 2, across the 400G link
    tx100 = 1024 * 8_000_000_000 // 100_000_000_000  # one payload at 100 Gb/s: 81 ns
    tx400 = 1024 * 8_000_000_000 // 400_000_000_000  # at 400 Gb/s: 20 ns
    base1 = 2 * (1000 + 1000) + 2 * tx100
    ideal1 = base1 + (1000 + 1 * 48) * 8_000_000_000 // 100_000_000_000
    base2 = 2 * (1000 + 2000 + 1000) + 2 * tx100 + tx400
    packets = math.ceil(50000 / 1024)
    ideal2 = base2 + (50000 + packets * 48) * 8_000_000_000 // 100_000_000_000
    assert (one["ideal_ns"], two["ideal_ns"]) == (ideal1, ideal2) == (4245, 12370)
    assert (one["size"], one["dport"], one["start_ns"]) == (1000, 100, 100_000)
    assert (two["size"], two["start_ns"]) == (50000, 100_000)
    assert rows[("0b000201", "0b000001")]["dport"] == 200
    # the FCT runs to the last ACK: at least a round trip and the bytes
    assert one["fct_ns"] >= 2 * 2000 + 1000 * 8 // 100
    assert two["fct_ns"] >= 2 * 4000 + 50000 * 8 // 100
    assert all(49152 <= r["sport"] <= 65535 for r in rows.values())


def test_warning_lists_what_is_not_carried_over(flux_run, tmp_path):
    """One warning line lists the parameters without a counterpart (an
    unknown key; a window under DCQCN now has one: DCQCN+w), the payload moved to the nearest
    InfiniBand MTU, the output files not written, and the flows that
    simulator does not run either: after the count of the first line, and
    starting after the end of the run (which are not run here either)."""
    config = CONFIG.format(mode=1, payload=1000, win=1) + "INT_MULTI 4\nMY_KEY 3\nENABLE_TRACE 1\n"
    flows = FLOWS.replace("6\n", "7\n", 1) + "1 2 3 100 5 0.06\n" + "0 1 3 100 5 0.3\n"
    path = write_files(tmp_path, config=config, flows=flows)
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    lines = [l for l in proc.stderr.splitlines() if "warning" in l]
    assert len(lines) == 1, proc.stderr
    w = lines[0]
    assert w.startswith("flux-run: warning: hpcc: ")
    for part in ("PACKET_PAYLOAD_SIZE 1000 -> mtu_bytes 1024",
                 "MY_KEY", "FCT_OUTPUT_FILE", "ENABLE_TRACE", "1 lines of",
                 "1 flows of", "start at or after the end of the run (0.05 s)"):
        assert part in w, (part, w)
    assert "INT_MULTI" not in w  # an HPCC parameter has no effect under DCQCN there either
    assert "HAS_WIN" not in w and "VAR_WIN" not in w
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["flows"]["count"] == 6


BAD = [
    # (file, its content, what the message must say)
    ("topology.txt", TOPOLOGY.replace("3 5 100Gbps", "9 5 100Gbps"), "topology.txt line 6: node 9"),
    ("topology.txt", TOPOLOGY.replace("3 5 100Gbps", "5 5 100Gbps"), "line 6: a link from node 5 to itself"),
    ("topology.txt", TOPOLOGY.replace("3 5 100Gbps", "3 2 100Gbps"), "line 6: a link between two hosts"),
    ("topology.txt", TOPOLOGY.replace("2 5 100Gbps", "2 5 100Gbs"), "line 5: rate \"100Gbs\""),
    ("topology.txt", TOPOLOGY.replace("2 5 100Gbps 1us", "2 5 100Gbps 1xs"), "line 5: delay \"1xs\""),
    # (a delay without its unit, which ns-3 would read as seconds, or beyond 1 s)
    ("topology.txt", TOPOLOGY.replace("2 5 100Gbps 1us", "2 5 100Gbps 5"), "line 5: delay 5 has no unit"),
    ("topology.txt", TOPOLOGY.replace("2 5 100Gbps 1us", "2 5 100Gbps 1000s"), "line 5: delay 1000s out of range (0 .. 1s)"),
    ("topology.txt", TOPOLOGY.replace("1 4 100Gbps 1000ns 0", "1 4 100Gbps 1000ns"), "line 4: expected 5 columns"),
    ("topology.txt", TOPOLOGY.replace("4 5 400Gbps", "0 4 400Gbps"), "line 7: a second link between nodes 0 and 4"),
    ("topology.txt", TOPOLOGY.replace("6 2 5", "6 2 6"), "line 8: the file ends"),
    ("topology.txt", TOPOLOGY.replace("4 5\n", "4 7\n"), "line 2: switch id 7"),
    ("flow.txt", FLOWS.replace("0 2 3 100 50000", "0 8 3 100 50000"), "flow.txt line 3: destination 8"),
    ("flow.txt", FLOWS.replace("0 2 3 100 50000", "0 4 3 100 50000"), "line 3: destination 4 is a switch"),
    ("flow.txt", FLOWS.replace("0 2 3 100 50000", "0 2 3 100 -50000"), "line 3: negative size -50000"),
    ("flow.txt", FLOWS.replace("0 2 3 100 50000", "0 2 3 100 0"), "line 3: size 0"),
    ("flow.txt", FLOWS.replace("1 3 3 100 400000 0.0002", "1 3 3 100 400000 0.00001"), "line 6: start time 0.00001 s is before"),
    ("flow.txt", FLOWS.replace("0 1 3 100 1000 0.0001", "0 1 3 100 1000 -1"), "line 2: start time -1 s is in the past"),
    ("flow.txt", FLOWS.replace("3 1 3 100 200000", "3 1 3 200000"), "line 4: expected 6 columns"),
    ("flow.txt", FLOWS.replace("0 1 3 100 1000", "1 1 3 100 1000"), "line 2: a flow from host 1 to itself"),
    ("flow.txt", FLOWS.replace("6\n", "9\n", 1), "line 1: announces 9 flows"),
    ("flow.txt", FLOWS.replace("1 3 3 100 400000 0.0002", "1 3 3 100 400000 9"), "line 7: start time 0.00025 s is before"),
    ("flow.txt", FLOWS.replace("0 1 3 100", "0 1 7 100"), "line 2: priority 7"),
    ("config.txt", CONFIG.format(mode=5, payload=1000, win=0), "config.txt line 8: CC_MODE 5"),
    ("config.txt", CONFIG.format(mode=10, payload=1000, win=0), "CC_MODE 10 selects \"hpcc-pint\""),
    ("config.txt", CONFIG.format(mode=1, payload=1000, win=0).replace("RATE_AI 20Mb/s", "RATE_AI fast"), "line 15: RATE_AI \"fast\""),
    ("config.txt", CONFIG.format(mode=1, payload=1000, win=0).replace("2 100000000000 400 400000000000 1600", "1 100000000000 400"), "KMIN_MAP has no entry for the 400 Gb/s links"),
    ("config.txt", CONFIG.format(mode=1, payload=1000, win=0) + "LINK_DOWN 100 0 2\n", "LINK_DOWN: no link between nodes 0 and 2"),
    # (a DCQCN floor above the NICs' rate named transport.dcqcn, not the file)
    ("config.txt", CONFIG.format(mode=1, payload=1000, win=0).replace("MIN_RATE 1000Mb/s", "MIN_RATE 1Tbps"),
     "line 17: MIN_RATE 1000 Gb/s is above a host's line rate, 100 Gb/s (topology line 3)"),
    # (a buffer the fabric refuses: named by its line, not by topology.buffer_mb)
    ("config.txt", CONFIG.format(mode=1, payload=1000, win=0).replace("BUFFER_SIZE 16", "BUFFER_SIZE 1"),
     "config.txt line 28: BUFFER_SIZE 1 (MiB) on the topology, whose longest link is "),
]


@pytest.mark.parametrize("name,content,expected", BAD, ids=[f"{b[0]}:{b[2][:40]}" for b in BAD])
def test_bad_input_exits_2_naming_file_and_line(flux_run, tmp_path, name, content, expected):
    """A bad line in an imported file: exit 2, one message naming the
    scenario field, the file and the line, and nothing written."""
    path = write_files(tmp_path)
    (tmp_path / name).write_text(content)
    before = sorted(os.listdir(tmp_path))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    field = {"topology.txt": "hpcc.topology", "flow.txt": "hpcc.flows", "config.txt": "hpcc.config"}
    assert lines[0].startswith(f"flux-run: {field[name]}: "), lines[0]
    assert expected in lines[0], lines[0]
    assert sorted(os.listdir(tmp_path)) == before


def test_a_missing_file_names_the_folders_looked_in(flux_run, tmp_path):
    """A TOPOLOGY_FILE that is nowhere: the message lists the folders
    searched as the user would write them, "." for the working folder
    (run from the scenario's folder), never an empty name."""
    path = write_files(tmp_path)
    (tmp_path / "config.txt").write_text(
        (tmp_path / "config.txt").read_text().replace("TOPOLOGY_FILE topology.txt",
                                                      "TOPOLOGY_FILE nothere.txt"))
    proc = subprocess.run([flux_run.path, path.name, "--out", "r.json", "--quiet"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith("TOPOLOGY_FILE nothere.txt: no such file (looked in ., "
                                        "its parent)"), proc.stderr
    sub = tmp_path / "study"
    sub.mkdir()
    (sub / "s.json").write_text(json.dumps({"hpcc": {"config": "../config.txt"}}))
    proc = flux_run(sub / "s.json", "--quiet")
    assert proc.returncode == 2
    assert f"(looked in {tmp_path}, its parent and {sub})" in proc.stderr, proc.stderr


@pytest.mark.parametrize("key,field,problem", [
    ('"', 'hpcc["\\""]', "unknown key"),
    ("a.b", 'hpcc["a.b"]', "unknown key"),
    ("", 'hpcc[""]', "unknown key"),
    ("flows", "hpcc.flows", "expected a file name"),
])
def test_bad_hpcc_key_is_named_as_a_path(flux_run, tmp_path, key, field, problem):
    """A bad key of "hpcc" is named by a path that leads to it: a key that
    would make the path ambiguous is written as a JSON string in brackets,
    as everywhere else in the scenario."""
    path = write_files(tmp_path)
    path.write_text(json.dumps({"hpcc": {"config": "config.txt", key: 3 if key == "flows" else "x"}}))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith(f"flux-run: {field}: {problem}"), proc.stderr
    assert not (tmp_path / "r.json").exists()


def test_python_run_records_and_errors(tmp_path):
    """ns3flux.run takes the same scenario: the FCT rows as records (and
    ns3flux.hpcc.fct_text gives the file flux-run writes), the warning as a
    Python warning, and a bad file as a ScenarioError naming the field."""
    path = write_files(tmp_path, payload=1000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = ns3flux.run(path)
    assert any("PACKET_PAYLOAD_SIZE 1000" in str(w.message) for w in caught)
    text = ns3flux.hpcc.fct_text(r)
    assert len(text.splitlines()) == 6 and text.split()[0] == "0b000001"
    (tmp_path / "flow.txt").write_text(FLOWS.replace("0 2 3 100 50000", "0 2 3 100 -1"))
    with pytest.raises(ns3flux.ScenarioError) as e:
        ns3flux.run(path)
    assert "hpcc.flows" in str(e.value) and "line 3" in str(e.value)


def test_scenario_keys_override_the_files(flux_run, tmp_path):
    """The scenario's own keys go on top of the files': a stop_ms of its own
    and a job on the imported hosts run beside the flows."""
    path = write_files(tmp_path)
    scenario = {"hpcc": {"config": "config.txt"}, "stop_ms": 20,
                "jobs": [{"name": "j", "ranks": 2, "hosts": [1, 2], "bytes": 100000,
                          "iterations": 1}]}
    path.write_text(json.dumps(scenario))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["jobs"][0]["name"] == "j" and len(r["jobs"][0]["iteration_ms"]) == 1
    assert r["flows"]["count"] == 6


@pytest.mark.parametrize("topology", [
    {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 4},
    {"kind": "links"},
    {"nodes": 6},
])
def test_the_import_gives_the_topology(flux_run, tmp_path, topology):
    """The topology file is the scenario's topology: a scenario with "hpcc"
    that gives another kind (or a "links" topology's own nodes) is told so,
    naming the key it wrote; its other topology keys apply (buffer_mb)."""
    path = write_files(tmp_path)
    path.write_text(json.dumps({"hpcc": {"config": "config.txt"}, "topology": topology}))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    key = next(iter(topology))
    assert proc.stderr.startswith(f"flux-run: topology.{key}: the HPCC import gives the topology "
                                  f"({tmp_path / 'topology.txt'}, a \"links\" topology)"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    path.write_text(json.dumps({"hpcc": {"config": "config.txt"}, "topology": {"buffer_mb": 20}}))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr


def test_shipped_example(flux_run, tmp_path):
    """The shipped example (a k = 4 fat-tree, 300 WebSearch flows, HPCC)
    runs to completion with one FCT line per flow, every slowdown >= 1 as
    that simulator's analysis script clips it."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    scenario = os.path.join(root, "examples", "scenarios", "hpcc-import-fat-tree.json")
    proc = flux_run(scenario, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = read_fct(tmp_path / "r-fct.txt")
    assert len(rows) == 300
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["sim"]["stop_reason"] == "completed" and r["network"]["drops"] == 0
    assert all(r["ideal_ns"] > 0 for r in rows)


def short_flow_p95(flux_run, folder, configs):
    """p95 slowdown of the shortest quarter of the flows (as that simulator's
    analysis script defines the slowdown), per configuration file."""
    p95 = {}
    for cc, config in configs.items():
        scenario = folder / f"{cc}.json"
        scenario.write_text(json.dumps({"hpcc": {"config": config}}))
        proc = flux_run(scenario, "--out", folder / f"{cc}-r.json", "--quiet")
        assert proc.returncode == 0, proc.stderr
        rows = sorted(read_fct(folder / f"{cc}-r-fct.txt"), key=lambda r: r["size"])
        short = sorted(max(1.0, r["fct_ns"] / r["ideal_ns"]) for r in rows[:len(rows) // 4])
        p95[cc] = short[int(len(short) * 0.95)]
    return p95


HPCC_EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "examples", "hpcc")


def test_hpcc_shortens_the_tail_of_short_flows(flux_run, tmp_path):
    """On the shipped example (WebSearch at 30 % load on the k = 4 fat-tree,
    that simulator's run.py settings at 100 Gb/s), the p95 slowdown of the
    shortest quarter of the flows is lower under HPCC than under DCQCN with
    a window of one BDP (HAS_WIN 1, VAR_WIN 1: the paper's DCQCN+w), by a
    quarter at least, as in the HPCC paper's FCT comparison. (DCQCN+w against
    DCQCN at 30 % is within the noise of the seeds: doc/hpcc-import.rst.)"""
    p95 = short_flow_p95(flux_run, tmp_path, {
        cc: os.path.join(HPCC_EXAMPLE, f"config-{cc}.txt") for cc in ("hpcc", "dcqcn-win")})
    assert p95["hpcc"] < 0.75 * p95["dcqcn-win"], p95


def test_the_window_shortens_the_tail_at_high_load(flux_run, tmp_path):
    """FB_Hadoop at 50 % load with the paper's 2 % of incasts (3 000 flows,
    seed 3, written by examples/hpcc/make-files.py): at p95 of the shortest
    quarter of the flows HPCC is below DCQCN+w, and DCQCN+w below DCQCN,
    the paper's ordering: the window keeps the incasts' queues short. Without
    the window DCQCN+w would equal DCQCN."""
    subprocess.run([sys.executable, os.path.join(HPCC_EXAMPLE, "make-files.py"), "--cdf",
                    "hadoop", "--load", "0.5", "--flows", "3000", "--seed", "3", "--incast",
                    "0.02", "--out", str(tmp_path)], check=True, stdout=subprocess.DEVNULL)
    configs = {}
    for cc in ("hpcc", "dcqcn-win", "dcqcn"):
        configs[cc] = tmp_path / f"config-{cc}.txt"
        configs[cc].write_text(open(os.path.join(HPCC_EXAMPLE, f"config-{cc}.txt")).read())
    p95 = short_flow_p95(flux_run, tmp_path, {cc: str(c) for cc, c in configs.items()})
    assert p95["hpcc"] < p95["dcqcn-win"] < p95["dcqcn"], p95


def test_link_down_moves_routes_at_once(flux_run, tmp_path):
    """LINK_DOWN t a b takes the link between a and b down at 2 s + t us and
    the routes move at once (as that simulator recomputes them): a flow
    across it finishes over the other path. A LINK_DOWN after the end of
    the run is not run, and the warning says so."""
    topology = TOPOLOGY.replace("6 2 5\n4 5\n", "7 3 7\n4 5 6\n") + \
        "4 6 400Gbps 1us 0\n6 5 400Gbps 1us 0\n"
    flows = "1\n0 2 3 100 2000000 2.0\n"
    config = CONFIG.format(mode=1, payload=1024, win=0).replace(
        "SIMULATOR_STOP_TIME 0.05", "SIMULATOR_STOP_TIME 2.05") + "LINK_DOWN 20 4 5\n"
    path = write_files(tmp_path, topology=topology, flows=flows, config=config)
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["flows"]["count"] == 1 and r["sim"]["stop_reason"] == "completed"
    assert r["network"]["link_state_changes"] >= 1 and r["network"]["route_updates"] >= 1
    late = config.replace("LINK_DOWN 20 4 5", "LINK_DOWN 90000 4 5")
    path = write_files(tmp_path, topology=topology, flows=flows, config=late)
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "LINK_DOWN at 2.09 s" in proc.stderr
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["network"]["link_state_changes"] == 0


def test_no_flow_to_run_names_the_flow_file(flux_run, tmp_path):
    """A flow file whose flows all start after the end of the run, in a
    scenario without jobs: exit 2 naming the flow file."""
    path = write_files(tmp_path, flows="1\n0 1 3 100 1000 9\n")
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.startswith("flux-run: hpcc.flows: ") and "no flow to run" in proc.stderr


def test_a_buffer_the_fabric_refuses_names_where_it_came_from(flux_run, tmp_path):
    """A switch buffer too small for the PFC headroom of the imported links:
    with no BUFFER_SIZE the topology file is named (its links need more than
    the default buffer), and its longest link's line, as a link too long is
    as likely the mistake as a buffer too small; a buffer_mb the scenario gives itself is named as
    topology.buffer_mb, as without the import."""
    config = CONFIG.format(mode=1, payload=1000, win=0).replace("BUFFER_SIZE 16\n", "")
    path = write_files(tmp_path, config=config,
                       topology=TOPOLOGY.replace("2 5 100Gbps 1us", "2 5 100Gbps 100ms"))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(
        f"flux-run: hpcc.topology: {tmp_path / 'topology.txt'} (with the default switch buffer: "
        f"no BUFFER_SIZE in hpcc.config), whose longest link is {tmp_path / 'topology.txt'} "
        "line 5 (100000 us): switch buffer size: switch sw5"), proc.stderr
    path = write_files(tmp_path)
    path.write_text(json.dumps({"hpcc": {"config": "config.txt"}, "topology": {"buffer_mb": 1}}))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("flux-run: topology.buffer_mb: switch buffer size"), proc.stderr
