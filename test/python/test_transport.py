"""The RC transport's timeouts and retries through build/flux-run: no
spurious retransmission on a lossless fabric under a heavy incast, every job
completes under random loss without PFC, and a cut link makes the jobs whose
queue pairs cross it fail cleanly, with the reason in the results."""

import csv
import json

import pytest

from conftest import run_scenario

from ns3flux import fluid

# Wire bytes of one full RoCEv2 packet: 4096 payload, Ethernet + 802.1Q 18,
# IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble and inter-frame gap 20.
WIRE_4K = fluid.WIRE_4K


def _run(flux_run, tmp_path, scenario, name):
    return run_scenario(flux_run, tmp_path, scenario, name)[1]


def _incast(senders, ns3_defaults=None):
    s = {
        "seed": 1,
        "stop_ms": 100,
        "topology": {"kind": "fat-tree", "k": 16, "buffer_mb": 32},
        "background": [{"name": "incast", "pattern": "incast", "receiver": 0,
                        "senders": list(range(1024 - senders, 1024)), "bytes": 65536}],
    }
    if ns3_defaults:
        s["ns3_defaults"] = ns3_defaults
    return s


def test_lossless_1000_to_1_incast_has_no_retransmission(flux_run, tmp_path):
    """1000 senders x 64 KB into one host of a 1024-host fat-tree with PFC and
    the default transport: zero drops, zero retransmissions, zero timeouts,
    and the incast ends within 2 % of the receiver's line-rate ideal."""
    r = _run(flux_run, tmp_path, _incast(1000), "incast")
    net = r["network"]
    assert net["drops"] == 0
    assert net["pfc_pauses"] > 0, "the incast must stress PFC"
    assert net["retransmissions"] == 0
    assert net["timeouts"] == 0
    assert r["flows"]["tenants"]["incast"]["count"] == 1000
    ideal_ms = 1000 * 16 * WIRE_4K * 8 / 100e9 * 1e3
    assert r["sim"]["simulated_ms"] <= ideal_ms * 1.02, (r["sim"]["simulated_ms"], ideal_ms)
    assert r["sim"]["simulated_ms"] >= ideal_ms


def test_short_timer_under_pfc_only_makes_spurious_copies(flux_run, tmp_path):
    """The same incast with a 1 ms timer (shorter than the pauses it sees):
    timeouts fire and every copy they send is spurious (nothing was lost),
    which the results report as such."""
    r = _run(flux_run, tmp_path,
             _incast(1000, {"ns3::RdmaNic::RetransmitTimeout": "1ms"}), "short")
    net = r["network"]
    assert net["drops"] == 0
    assert net["timeouts"] > 0
    assert net["retransmissions"] > 0
    assert net["retransmissions_repair"] == 0
    assert net["retransmissions_spurious"] == net["retransmissions"]
    tenant = r["flows"]["tenants"]["incast"]
    assert tenant["retransmissions"] == net["retransmissions"]


LEAF_SPINE = {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4}


def test_random_loss_without_pfc_every_job_completes(flux_run, tmp_path):
    """PFC off and 1e-3 loss on every link: every iteration of every job and
    every background flow completes; losses are repaired (repairs > 0) and no
    queue pair fails."""
    s = {
        "seed": 1, "stop_ms": 500, "topology": LEAF_SPINE,
        "transport": {"pfc": False, "ack_timeout": 8},
        "jobs": [
            {"name": "a", "ranks": 4, "hosts": [0, 4, 1, 5], "bytes": 8000000,
             "iterations": 3, "compute_ms": 0.2},
            {"name": "b", "ranks": 4, "hosts": [2, 6, 3, 7], "bytes": 4000000, "iterations": 3},
        ],
        "background": [{"name": "rpc", "cdf": "websearch", "load": 0.2, "hosts": [2, 3, 6, 7]}],
        "faults": [{"link": "all", "loss_rate": 0.001}],
    }
    r = _run(flux_run, tmp_path, s, "loss")
    assert r["sim"]["stop_reason"] == "completed"
    assert r["network"]["link_losses"] > 0
    assert r["network"]["qp_errors"] == 0
    for job in r["jobs"]:
        assert job["status"] == "completed"
        assert len(job["iteration_ms"]) == 3
        assert job["retransmissions_repair"] > 0
        assert job["error_completions"] == 0
    tenant = r["flows"]["tenants"]["rpc"]
    assert tenant["count"] == tenant["started"] > 0
    assert tenant["failed"] == 0
    assert r["network"]["retransmissions"] == (
        sum(j["retransmissions"] for j in r["jobs"]) + tenant["retransmissions"])


def test_cut_link_fails_the_job_that_crosses_it(flux_run, tmp_path):
    """host1's cable is cut at 0.3 ms and never restored. Job a (ranks on
    hosts 0, 4, 1, 5) loses its queue pairs to and from host 1: after
    retry_cnt + 1 timeouts without progress they enter the error state, the
    job is reported failed with the reason, and the run ends cleanly once job
    b (not crossing the cable) has completed."""
    s = {
        "seed": 1, "stop_ms": 1000, "topology": LEAF_SPINE,
        "transport": {"ack_timeout": 8, "retry_cnt": 3},
        "jobs": [
            {"name": "a", "ranks": 4, "hosts": [0, 4, 1, 5], "bytes": 8000000,
             "iterations": 3, "compute_ms": 0.2},
            {"name": "b", "ranks": 2, "hosts": [2, 6], "bytes": 4000000, "iterations": 3},
        ],
        "faults": [{"link": "host1<->leaf0", "down_ms": 0.3}],
    }
    r = _run(flux_run, tmp_path, s, "cut")
    a, b = r["jobs"]
    assert a["status"] == "failed" and not a["completed"]
    assert "retry count exceeded" in a["reason"]
    assert "10.0.0.2" in a["reason"]  # host 1
    assert a["error_completions"] >= 1
    # 4 timeouts (retry_cnt 3 + 1) for each failed queue pair (of 4.096 us x
    # 2^8); the job fails with its first one, the others may be on their way
    assert r["network"]["qp_errors"] >= 1
    assert a["timeouts"] >= 4 * r["network"]["qp_errors"]
    assert b["status"] == "completed" and len(b["iteration_ms"]) == 3
    assert r["network"]["link_losses"] > 0
    assert r["sim"]["stop_reason"] == "job_failed"
    # the run ended when the last queue pair gave up, far before stop_ms
    assert r["sim"]["simulated_ms"] < 0.3 + 4 * 1.05 * 2 + 5


def test_same_seed_same_faults_same_results(flux_run, tmp_path):
    """Random loss is drawn from the scenario's seed: two runs agree."""
    s = {
        "seed": 3, "stop_ms": 500, "topology": LEAF_SPINE,
        "transport": {"pfc": False, "ack_timeout": 8},
        "jobs": [{"name": "a", "ranks": 4, "hosts": [0, 4, 1, 5], "bytes": 2000000,
                  "iterations": 2}],
        "faults": [{"link": "leaf0<->spine0", "loss_rate": 0.01}],
    }
    r1 = _run(flux_run, tmp_path, s, "d1")
    r2 = _run(flux_run, tmp_path, s, "d2")
    r1["sim"].pop("wall_s")
    r2["sim"].pop("wall_s")
    assert r1 == r2
    assert r1["network"]["link_losses"] > 0


@pytest.mark.parametrize("fault, field", [
    ({"link": "host1<->nowhere", "down_ms": 1}, "faults[0].link"),
    ({"link": "host1", "loss_rate": 0.1}, "faults[0].link"),
    ({"link": "all", "down_ms": 1}, "faults[0].down_ms"),
    ({"link": "all", "loss_rate": 1.5}, "faults[0].loss_rate"),
    ({"link": "host1<->leaf0", "down_ms": 2, "up_ms": 1}, "faults[0].up_ms"),
    ({"link": "host1<->leaf0"}, "faults[0]"),
])
def test_bad_faults_exit_2_naming_the_field(flux_run, tmp_path, fault, field):
    s = {"topology": LEAF_SPINE, "faults": [fault],
         "jobs": [{"name": "a", "ranks": 2, "bytes": 1000, "iterations": 1}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(s))
    out = tmp_path / "bad-results.json"
    proc = flux_run(path, "--out", out)
    assert proc.returncode == 2
    assert field in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize("key, value", [("ack_timeout", 32), ("retry_cnt", 8),
                                        ("ack_timeout", -1), ("retry_cnt", "7")])
def test_bad_transport_timer_keys(flux_run, tmp_path, key, value):
    s = {"topology": LEAF_SPINE, "transport": {key: value},
         "jobs": [{"name": "a", "ranks": 2, "bytes": 1000, "iterations": 1}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(s))
    proc = flux_run(path, "--out", tmp_path / "r.json")
    assert proc.returncode == 2
    assert f"transport.{key}" in proc.stderr


@pytest.mark.parametrize("fabric_gbps", [40, 100])
def test_a_lone_flows_fct_is_its_ideal_fct(flux_run, tmp_path, fabric_gbps):
    """The ideal FCT is the FCT alone on the idle fabric: a lone flow's
    packet-level slowdown is 1 up to the NIC's per-packet pacing (0.2 %),
    never below, whatever its size (one short packet, whole packets, a
    short last packet behind a slower fabric hop) and whether the fabric is
    as fast as the hosts or slower."""
    for size in (100, 4096, 4097, 17884, 100000, 1000000):
        scenario = {"topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                                 "hosts_per_leaf": 2, "host_gbps": 100,
                                 "fabric_gbps": fabric_gbps},
                    "background": [{"name": "one", "pattern": "incast", "senders": [0],
                                    "receiver": 2, "bytes": size}]}
        out, _ = run_scenario(flux_run, tmp_path, scenario, f"lone-{size}")
        with open(str(out)[:-5] + "-flows.csv", newline="") as f:
            (row,) = list(csv.DictReader(f))
        assert 1 <= float(row["slowdown"]) <= 1.002, (size, row)


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_the_ideal_fct_keeps_the_lines_sub_nanosecond_pace(flux_run, tmp_path, backend):
    """A lone 40 MB flow without congestion control takes its ideal FCT to
    within a few nanoseconds at 100, 400 and 1600 Gb/s, at both levels:
    the ideal sums frame times in picoseconds, as the line paces them
    (summed after rounding each frame to the nanosecond it came out 0.2 %
    to 4.5 % short at these rates), less a nanosecond per hop and one."""
    for gbps in (100, 400, 1600):
        scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                                 "hosts_per_leaf": 2, "host_gbps": gbps, "buffer_mb": 64},
                    "transport": {"cc": "none"},
                    "background": [{"name": "f", "pattern": "flows", "flows": [
                        {"src": 0, "dst": 1, "bytes": 40960000, "start_ms": 0}]}]}
        out, _ = run_scenario(flux_run, tmp_path, scenario, f"pace-{gbps}", "--backend", backend)
        with open(str(out)[:-5] + "-flows.csv", newline="") as f:
            (row,) = list(csv.DictReader(f))
        fct, ideal = float(row["fct_us"]), float(row["ideal_fct_us"])
        assert ideal <= fct <= ideal + 0.0045, (gbps, row)


def test_link_delays_round_to_the_nearest_nanosecond(flux_run, tmp_path):
    """link_delay_us is rounded to the nearest nanosecond, not truncated
    (1.005 µs is 1005 ns, not 1004 as 1.005 × 1000 is in binary): a
    one-packet flow over two hops takes 2 ns more per 0.001 µs of delay."""
    fct = {}
    for delay in (1.004, 1.005, 1.006):
        scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                                 "hosts_per_leaf": 2, "link_delay_us": delay},
                    "background": [{"name": "f", "pattern": "flows", "flows": [
                        {"src": 0, "dst": 1, "bytes": 4096, "start_ms": 0}]}]}
        out, _ = run_scenario(flux_run, tmp_path, scenario, f"delay-{delay}")
        with open(str(out)[:-5] + "-flows.csv", newline="") as f:
            (row,) = list(csv.DictReader(f))
        fct[delay] = round(float(row["fct_us"]) * 1000)
    assert fct[1.005] - fct[1.004] == 2 and fct[1.006] - fct[1.005] == 2, fct


@pytest.mark.parametrize("changes,warned", [
    ({"transport": {"pfc": False}}, "transport.pfc false"),
    ({"faults": [{"link": "all", "loss_rate": 0.001}]}, "faults[0].loss_rate"),
    ({"faults": [{"link": "leaf0<->spine0", "down_ms": 1}]}, "faults[0].down_ms"),
    ({"pfc_watchdog": {}}, "pfc_watchdog (action drop)"),
    ({"transport": {"pfc": False, "ack_timeout": 0}}, "transport.pfc false"),
    ({"transport": {"pfc": False, "ack_timeout": 8}}, None),
    ({"transport": {"pfc": False},
      "ns3_defaults": {"ns3::RdmaNic::RetransmitTimeout": "1ms"}}, None),
    ({"pfc_watchdog": {"action": "forward"}}, None),
    ({}, None),
])
def test_a_lossy_fabric_with_a_long_timer_is_warned_of(flux_run, tmp_path, changes, warned):
    """Where the packet level can lose frames (PFC off, a lossy or failing
    link, a watchdog that drops), a lost tail waits for the ACK timer: with
    NCCL's default (4.29 s) or none, flux-run warns once, naming the cause
    and the timer; a timer of 10 ms or less, or RetransmitTimeout, is not
    warned of, nor is a lossless fabric, nor a run at flow level, which
    loses nothing. The scenario stays valid."""
    s = {"seed": 1, "stop_ms": 50, "topology": LEAF_SPINE,
         "jobs": [{"name": "a", "ranks": 4, "bytes": 1000000, "iterations": 1}], **changes}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(s))
    proc = flux_run(path, "--check", "--backend", "flow")
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr
    proc = flux_run(path, "--check")
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "warning" in line]
    if warned is None:
        assert lines == [], proc.stderr
        return
    assert len(lines) == 1, proc.stderr
    t = s.get("transport", {}).get("ack_timeout", 20)
    after = ("(no timer) never sends" if t == 0
             else f"sends a lost tail again only after {4.096e-3 * 2 ** t:.2f} ms")
    assert lines[0] == (f"flux-run: warning: {warned} can lose frames at packet level, and "
                        f"transport.ack_timeout {t} {after}"
                        + (" a lost tail again" if t == 0 else "")
                        + ": set it near the round trip (8: 1.05 ms)"), lines[0]
