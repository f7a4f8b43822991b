"""A PFC deadlock through build/flux-run: a ring allreduce whose every step
goes two hops clockwise round a ring of five switches (a cyclic buffer
dependency) stalls the fabric; the runner stops it as "stalled" soon after
instead of running to stop_ms, and PFC watchdogs on the switch ports break
the deadlock."""

import json

import pytest

import ns3flux
from conftest import run_scenario


def _ring(**root):
    """The deadlocking scenario, with extra root keys."""
    s = ns3flux.scenario(
        ns3flux.ring(switches=5, hosts_per_switch=1, buffer_mb=1),
        jobs=[ns3flux.job("ring", 5, 20_000_000, 1, hosts=[0, 2, 4, 1, 3])],
        stop_ms=200,
        transport={"cc": "none"},
    )
    s.update(root)
    return s


def test_deadlock_is_reported_as_stalled(flux_run, tmp_path):
    """Without a watchdog the job never finishes: the run stops with
    stop_reason "stalled" stall_ms (10) after the deadlock, long before
    stop_ms, with packets stuck (no drop, no retransmission) and no
    watchdog counters in the results."""
    _, r = run_scenario(flux_run, tmp_path, _ring(), "stalled")
    assert r["sim"]["stop_reason"] == "stalled"
    assert 10 <= r["sim"]["simulated_ms"] < 11
    assert r["jobs"][0]["status"] == "unfinished"
    net = r["network"]
    assert net["drops"] == 0 and net["retransmissions"] == 0
    assert net["pfc_pauses"] > 0
    assert "pfc_watchdog_storms" not in net


def test_stall_window_follows_stall_ms(flux_run, tmp_path):
    """stall_ms sets how long the runner waits; 0 turns the detector off."""
    _, r = run_scenario(flux_run, tmp_path, _ring(stall_ms=3), "short")
    assert r["sim"]["stop_reason"] == "stalled"
    assert 3 <= r["sim"]["simulated_ms"] < 4
    _, r = run_scenario(flux_run, tmp_path, _ring(stall_ms=0, stop_ms=20), "off")
    assert r["sim"]["stop_reason"] == "stop_ms"
    assert r["sim"]["simulated_ms"] == 20


def test_forwarding_watchdog_completes_the_job(flux_run, tmp_path):
    """With watchdogs that forward, the storms are detected and the job
    completes without a drop."""
    wd = {"detection_ms": 1, "restoration_ms": 1, "action": "forward"}
    _, r = run_scenario(flux_run, tmp_path, _ring(pfc_watchdog=wd), "forward")
    assert r["sim"]["stop_reason"] == "completed"
    assert r["jobs"][0]["status"] == "completed"
    net = r["network"]
    assert net["pfc_watchdog_storms"] >= 5, "every ring queue of the cycle"
    assert net["pfc_watchdog_forwarded"] > 0
    assert net["pfc_watchdog_drops"] == 0
    assert net["drops"] == 0


def test_dropping_watchdog_breaks_each_deadlock(flux_run, tmp_path):
    """With watchdogs that drop, each deadlock is broken by discarding the
    stormed queues (counted among the drops) and the run never stalls; the
    go-back-N retransmissions of the whole messages, at line rate without
    congestion control, build the deadlock again and again."""
    wd = {"detection_ms": 1, "restoration_ms": 1}
    s = _ring(pfc_watchdog=wd, stop_ms=40)
    s["transport"]["ack_timeout"] = 10
    _, r = run_scenario(flux_run, tmp_path, s, "drop")
    assert r["sim"]["stop_reason"] == "stop_ms"
    net = r["network"]
    assert net["pfc_watchdog_storms"] >= 5
    assert net["pfc_watchdog_restorations"] >= 5
    assert net["pfc_watchdog_drops"] > 0
    assert net["drops"] >= net["pfc_watchdog_drops"]
    assert net["pfc_watchdog_forwarded"] == 0
    assert net["retransmissions_repair"] > 0, "retransmissions deliver lost data"


@pytest.mark.parametrize("change,field", [
    ({"pfc_watchdog": {"action": "shutdown"}}, "pfc_watchdog.action"),
    ({"pfc_watchdog": {"detection_ms": 0}}, "pfc_watchdog.detection_ms"),
    ({"pfc_watchdog": {"restoration_ms": 500}}, "pfc_watchdog.restoration_ms"),
    ({"pfc_watchdog": {"timeout_ms": 1}}, "pfc_watchdog.timeout_ms"),
    ({"stall_ms": -1}, "stall_ms"),
    ({"topology": {"kind": "ring", "switches": 2}}, "topology.switches"),
])
def test_bad_values_exit_2_naming_the_field(change, field, flux_run, tmp_path):
    """Bad watchdog, stall and ring values are refused with exit status 2
    and one line naming the field; no results file is written."""
    s = _ring()
    s.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(s))
    out = tmp_path / "out.json"
    proc = flux_run(path, "--out", out, "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(f"flux-run: {field}:")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
