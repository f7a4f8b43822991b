"""Link failures through build/flux-run: a spine cable fails and returns
during a two-job run. The switches at its ends fail over at once, the
routes are recomputed route_convergence_ms later, both jobs finish, the
losses and retransmissions are reported, and the dead cable carries nothing
while it is down and traffic again once it is back. Without route
recomputation the spine whose only link to the leaf died drops the packets
sent to it until the cable returns; with FabricSwitch::Failover off the
switches keep hashing flows onto the dead cable.

Recovery needs a short ACK timer: with the default ack_timeout (20: 4.29 s)
a lost tail waits 4.29 s of simulated time and the jobs do not finish
within stop_ms; these scenarios use ack_timeout 8 (4.096 us x 2^8 = 1.05 ms).
"""

import copy
import csv

from conftest import run_scenario

DOWN_MS = 1.0
UP_MS = 3.0
CONVERGENCE_MS = 0.2
INTERVAL_US = 50

SPINE_FAILURE = {
    "seed": 1, "stop_ms": 200,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                 "route_convergence_ms": CONVERGENCE_MS},
    "transport": {"ack_timeout": 8},
    "jobs": [
        {"name": "a", "ranks": 4, "hosts": [0, 4, 1, 5], "bytes": 8000000, "iterations": 4},
        {"name": "b", "ranks": 4, "hosts": [2, 6, 3, 7], "bytes": 8000000, "iterations": 4},
    ],
    "faults": [{"link": "spine0<->leaf1", "down_ms": DOWN_MS, "up_ms": UP_MS}],
    "traces": {"interval_us": INTERVAL_US, "rates": False,
               "links": ["spine0->leaf1", "leaf1->spine0"]},
}


def _utilization(out, link):
    """{sample time in us: utilization since the previous sample} of a link."""
    stem = str(out)[:-len(".json")]
    with open(f"{stem}-queues.csv", newline="") as f:
        return {float(row["time_us"]): float(row["utilization"])
                for row in csv.DictReader(f) if row["link"] == link}


def test_spine_link_fails_and_returns_during_two_jobs(flux_run, tmp_path):
    """Both jobs finish every iteration, no queue pair fails, the failure
    cost retransmissions and packets lost at the dead cable (queued at or
    routed to its ports, on the wire) which the results report, the four
    port changes (two ends, down and up) and the two route updates are
    counted; once the routes have converged nothing crosses the dead cable
    in either direction until it returns, and afterwards traffic crosses it
    again in both directions."""
    out, r = run_scenario(flux_run, tmp_path, SPINE_FAILURE, "spine")
    assert r["sim"]["stop_reason"] == "completed"
    for job in r["jobs"]:
        assert job["status"] == "completed" and job["iterations"] == 4
        assert job["error_completions"] == 0
        assert job["retransmissions"] > 0
    # the jobs ran across the failure
    assert min(j["jct_ms"] for j in r["jobs"]) > UP_MS + 1
    net = r["network"]
    assert net["qp_errors"] == 0
    assert net["retransmissions"] > 0
    assert net["link_down_drops"] > 0
    assert net["link_losses"] > 0
    # lossless fabric: every drop is one of the failure's
    assert net["drops"] == net["link_down_drops"] + net["link_losses"]
    assert net["link_state_changes"] == 4
    assert net["route_updates"] == 2
    for link in ("spine0->leaf1", "leaf1->spine0"):
        u = _utilization(out, link)
        before = [v for t, v in u.items() if DOWN_MS * 1e3 - 500 < t <= DOWN_MS * 1e3]
        down = [v for t, v in u.items()
                if (DOWN_MS + CONVERGENCE_MS) * 1e3 + INTERVAL_US <= t <= UP_MS * 1e3]
        after = [v for t, v in u.items()
                 if (UP_MS + CONVERGENCE_MS) * 1e3 + INTERVAL_US <= t <= UP_MS * 1e3 + 1500]
        assert min(before) > 0.3, (link, before)
        assert len(down) >= 30 and max(down) == 0, (link, down)
        assert max(after) > 0.3, (link, after)


def test_without_route_recomputation_the_spine_drops_until_the_cable_returns(flux_run,
                                                                              tmp_path):
    """No route_convergence_ms: leaf 1 fails over at once, but leaf 0 keeps
    hashing flows to leaf 1 onto spine 0, whose only way to leaf 1 is dead:
    spine 0 drops them (no live next hop) for the whole outage, far more than
    with the routes recomputed. The cable returns within the retry budget
    (8 timeouts of 1.05 ms), so the jobs still finish."""
    s = copy.deepcopy(SPINE_FAILURE)
    del s["topology"]["route_convergence_ms"]
    del s["traces"]
    _, r = run_scenario(flux_run, tmp_path, s, "noconv")
    _, converged = run_scenario(flux_run, tmp_path, SPINE_FAILURE, "conv")
    net = r["network"]
    assert net["route_updates"] == 0
    assert net["link_state_changes"] == 4
    assert net["link_down_drops"] > 2 * converged["network"]["link_down_drops"]
    assert net["timeouts"] > 0
    for job in r["jobs"]:
        assert job["status"] == "completed" and job["iterations"] == 4


def test_failover_off_keeps_hashing_onto_the_dead_cable(flux_run, tmp_path):
    """ns3::FabricSwitch::Failover false: no switch acts on the failure and
    both leaves keep sending into the dead cable until it returns: nothing
    is dropped by a switch, every loss is a frame lost on the cable, and
    the cable's sending rate does not fall to zero while it is down."""
    s = copy.deepcopy(SPINE_FAILURE)
    s["ns3_defaults"] = {"ns3::FabricSwitch::Failover": False}
    out, r = run_scenario(flux_run, tmp_path, s, "off")
    net = r["network"]
    assert net["link_state_changes"] == 0
    assert net["link_down_drops"] == 0
    assert net["link_losses"] > 0
    assert net["drops"] == net["link_losses"]
    u = _utilization(out, "leaf1->spine0")
    down = [v for t, v in u.items()
            if (DOWN_MS + CONVERGENCE_MS) * 1e3 + INTERVAL_US <= t <= UP_MS * 1e3]
    assert max(down) > 0.1, down


def test_a_later_failure_leaves_earlier_flows_ideal_fct(flux_run, tmp_path):
    """The ideal FCT of a background flow is taken on the path its packets
    took when it finished: a host link that fails after the flow is over
    leaves its ideal (and its slowdown) as without the failure, at both
    levels (it was 0, and the flow left out of the percentiles, when taken
    after the run)."""
    scenario = {
        "seed": 1, "stop_ms": 100,
        "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4},
        "transport": {"ack_timeout": 8},
        "jobs": [{"name": "a", "ranks": 2, "hosts": [4, 5], "bytes": 1000000,
                  "compute_ms": 1, "iterations": 20}],
        "background": [{"name": "rpc", "cdf": "websearch", "load": 0.1,
                        "hosts": [0, 1, 2, 3, 6, 7], "stop_ms": 10}],
    }
    failing = copy.deepcopy(scenario)
    failing["faults"] = [{"link": "host0<->leaf0", "down_ms": 15}]
    for backend in ("packet", "flow"):
        ideal = {}
        for name, s in (("intact", scenario), ("failing", failing)):
            out, results = run_scenario(flux_run, tmp_path, s, f"{backend}-{name}",
                                        "--backend", backend)
            with open(str(out)[:-len(".json")] + "-flows.csv", newline="") as f:
                ideal[name] = {(r["src"], r["dst"], r["start_ms"]): float(r["ideal_fct_us"])
                               for r in csv.DictReader(f)}
        assert results["jobs"][0]["jct_ms"] > 15, backend  # the link fails during the run
        to_host0 = [k for k in ideal["failing"] if k[1] == "0"]
        assert to_host0, backend
        assert all(ideal["failing"][k] > 0 for k in ideal["failing"]), backend
        assert ideal["failing"] == ideal["intact"], backend


def test_a_flow_that_ends_while_its_route_is_broken_keeps_an_ideal_fct(flux_run, tmp_path):
    """Between the failure of leaf0<->spine0 and leaf1<->spine1 and the
    routes' recomputation no path joins leaf0 and leaf1; a flow that ends
    then (its last packets already past the break) takes its ideal FCT on
    the intact fabric, positive, with a slowdown of at least 1, and stays
    in the percentiles (its ideal was 0 and its slowdown empty)."""
    scenario = {
        "seed": 1, "stop_ms": 40,
        "topology": {"kind": "leaf-spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 4,
                     "fabric_gbps": 50, "route_convergence_ms": 2},
        "transport": {"ack_timeout": 8},
        "background": [{"name": "ws", "cdf": "websearch", "load": 0.7, "stop_ms": 10}],
        "faults": [{"link": "leaf0<->spine0", "down_ms": 2, "up_ms": 12},
                   {"link": "leaf1<->spine1", "down_ms": 4, "up_ms": 14}],
    }
    for backend in ("packet", "flow"):
        out, results = run_scenario(flux_run, tmp_path, scenario, f"broken-{backend}",
                                    "--backend", backend)
        with open(str(out)[:-len(".json")] + "-flows.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == results["flows"]["count"] > 500, backend
        assert all(float(r["ideal_fct_us"]) > 0 and float(r["slowdown"]) >= 1
                   for r in rows), backend


def test_overlapping_downs_keep_the_cable_down_until_the_last_ends(flux_run, tmp_path):
    """Two entries take one cable down, the second (named from its other end)
    over [1.5, 6] ms: the first entry's return at 3 ms leaves it down, and it
    comes back at 6 ms. The cable changes state twice per end (down once, up
    once), and nothing crosses it between 3 ms and 6 ms."""
    s = copy.deepcopy(SPINE_FAILURE)
    s["faults"].append({"link": "leaf1<->spine0", "down_ms": 1.5, "up_ms": 6.0})
    out, r = run_scenario(flux_run, tmp_path, s, "overlap")
    assert r["network"]["link_state_changes"] == 4
    for link in ("spine0->leaf1", "leaf1->spine0"):
        u = _utilization(out, link)
        held = [v for t, v in u.items() if (UP_MS + CONVERGENCE_MS) * 1e3 + INTERVAL_US <= t <= 6000]
        back = [v for t, v in u.items() if 6000 + CONVERGENCE_MS * 1e3 + INTERVAL_US <= t <= 7500]
        assert len(held) >= 40 and max(held) == 0, (link, held)
        assert max(back) > 0.3, (link, back)
        # a sample counts at most the interval's capacity
        assert max(u.values()) <= 1.0


def test_a_later_zero_loss_rate_clears_an_earlier_one(flux_run, tmp_path):
    """faults: 5 % loss on every link, then 0 on every link: the later entry
    replaces the rate, so nothing is lost and the results equal those of
    the scenario without faults (5 % alone loses frames)."""
    s = copy.deepcopy(SPINE_FAILURE)
    del s["traces"]
    s["faults"] = [{"link": "all", "loss_rate": 0.05}]
    _, lossy = run_scenario(flux_run, tmp_path, s, "lossy")
    assert lossy["network"]["link_losses"] > 0
    s["faults"].append({"link": "all", "loss_rate": 0})
    _, cleared = run_scenario(flux_run, tmp_path, s, "cleared")
    del s["faults"]
    _, clean = run_scenario(flux_run, tmp_path, s, "clean")
    assert cleared["network"]["link_losses"] == 0
    assert [j["jct_ms"] for j in cleared["jobs"]] == [j["jct_ms"] for j in clean["jobs"]]
