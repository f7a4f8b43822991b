"""Congestion controls as plug-ins: the registered algorithms are listed
from the registry (flux-run --list-cc, ns3flux.congestion_controls()), their
keys are described (--describe-cc) and checked, and each new algorithm
(TIMELY, DCTCP, Swift) with its published parameters runs N:1 incasts of
long flows on one 100 Gb/s switch to a converged, fair and full link.
scripts/cc-validate prints these measures with the join, leave and burst
experiments (doc/congestion-control.rst)."""

import csv
import json

import pytest

from conftest import run_scenario

import ns3flux
from ns3flux import traces

LINK = "leaf0->host0"


def _incast(cc, n, mb):
    s = {"seed": 1, "stop_ms": 500,
         "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": n + 1},
         "transport": {"cc": cc},
         "background": [{"name": "incast", "pattern": "incast", "receiver": 0,
                         "senders": list(range(1, n + 1)), "bytes": int(mb * 1e6)}],
         "traces": {"interval_us": 10, "rates": False, "links": [LINK]}}
    if cc == "dctcp":
        # step marking, the HPCC simulator's DCTCP setting at 100 Gb/s
        s["transport"]["ecn"] = {"kmin_kb": 300, "kmax_kb": 300, "pmax": 1.0}
    return s


def test_list_cc_is_the_registry(flux_run):
    """--list-cc prints the registered algorithms: dcqcn, hpcc, none, then
    the others by name (dctcp, swift, timely among them), the same list as
    ns3flux.congestion_controls()."""
    p = flux_run("--list-cc")
    assert p.returncode == 0, p.stderr
    names = p.stdout.split()
    assert names[:3] == ["dcqcn", "hpcc", "none"]
    assert names[3:] == sorted(names[3:])
    assert {"dctcp", "swift", "timely"} <= set(names)
    assert names == ns3flux.congestion_controls()


def test_describe_cc_lists_the_keys(flux_run):
    """--describe-cc NAME prints its TypeId and transport.<NAME> keys with
    types and defaults; an unknown name exits 2 naming the option."""
    p = flux_run("--describe-cc", "timely")
    assert p.returncode == 0
    assert "ns3::TimelyCongestionControl" in p.stdout
    assert "t_low_us: time, default 50" in p.stdout
    assert "additive_increase_mbps: rate" in p.stdout
    keys = {k["key"] for k in ns3flux.congestion_control_keys("swift")}
    assert {"base_target_us", "beta", "max_mdf", "fs_min_cwnd"} <= keys
    bad = flux_run("--describe-cc", "reno")
    assert bad.returncode == 2 and "--describe-cc" in bad.stderr
    with pytest.raises(ValueError, match="reno"):
        ns3flux.congestion_control_keys("reno")
    assert ns3flux.congestion_control_keys("none") == []


def _refused(flux_run, tmp_path, s, field):
    """Run s; require exit 2, one line starting with field, no results."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(s))
    p = flux_run(path, "--out", tmp_path / "bad-results.json", "--quiet")
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("flux-run: " + field + ":"), p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "bad-results.json").exists()
    return p.stderr


def test_bad_cc_key_exits_2_naming_it(flux_run, tmp_path):
    """A key of transport.<cc> that is unknown, of the wrong type or out of
    range exits 2 with one line naming it, and writes no results."""
    for bad, field in [({"t_lo_us": 40}, "transport.timely.t_lo_us"),
                       ({"beta": "high"}, "transport.timely.beta"),
                       ({"beta": 2}, "transport.timely.beta")]:
        s = _incast("timely", 2, 1)
        s["transport"]["timely"] = bad
        _refused(flux_run, tmp_path, s, field)


@pytest.mark.parametrize("cc, keys, field", [
    ("dcqcn", {"min_rate_mbps": 200000}, "transport.dcqcn"),
    ("timely", {"min_rate_gbps": 200}, "transport.timely.min_rate_gbps"),
    ("hpcc", {"min_rate_mbps": 300000}, "transport.hpcc.min_rate_mbps"),
    ("timely", {"t_low_us": 600}, "transport.timely.t_low_us"),
    ("swift", {"min_cwnd": 100, "max_cwnd": 10}, "transport.swift.min_cwnd"),
    ("swift", {"fs_min_cwnd": 200}, "transport.swift.fs_min_cwnd"),
])
def test_settings_that_switch_the_cc_off_are_refused(flux_run, tmp_path, cc, keys, field):
    """A rate floor above the 100 Gb/s line rate, or an inverted pair of
    thresholds, would leave the algorithm never slowing down (the run would
    equal cc none): the congestion control refuses them
    (RdmaCongestionControl::GetSettingsProblem), naming the key."""
    s = _incast(cc, 2, 1)
    s["transport"][cc] = keys
    _refused(flux_run, tmp_path, s, field)


def test_ns3_defaults_may_not_set_what_a_transport_key_sets(flux_run, tmp_path):
    """A transport.<cc> key and an ns3_defaults entry for the same attribute
    (or ns3_defaults' congestion control factory beside transport.cc) are
    refused naming the ns3_defaults entry; a factory alone chooses the
    congestion control: a fixed 10 Gb/s from each of two senders marks
    nothing where DCQCN, starting at line rate, marks."""
    s = _incast("timely", 2, 1)
    s["transport"]["timely"] = {"beta": 0.5}
    s["ns3_defaults"] = {"ns3::TimelyCongestionControl::Beta": "0.3"}
    _refused(flux_run, tmp_path, s, 'ns3_defaults["ns3::TimelyCongestionControl::Beta"]')
    s = _incast("dcqcn", 2, 1)
    s["transport"]["dcqcn"] = {"min_rate_mbps": 500}
    s["ns3_defaults"] = {"ns3::DcqcnCongestionControl::MinRate": "1Gbps"}
    _refused(flux_run, tmp_path, s, 'ns3_defaults["ns3::DcqcnCongestionControl::MinRate"]')
    factory = "ns3::FixedRateCongestionControl[Rate=10Gb/s]"
    s = _incast("dcqcn", 2, 1)
    s["ns3_defaults"] = {"ns3::RdmaNic::CongestionControl": factory}
    _refused(flux_run, tmp_path, s, 'ns3_defaults["ns3::RdmaNic::CongestionControl"]')
    del s["transport"]["cc"]
    _, fixed = run_scenario(flux_run, tmp_path, s, "fixed")
    del s["ns3_defaults"]
    _, dcqcn = run_scenario(flux_run, tmp_path, s, "dcqcn")
    assert fixed["network"]["ecn_marks"] == 0
    assert dcqcn["network"]["ecn_marks"] > 0


@pytest.mark.parametrize("cc", ["timely", "dctcp", "swift"])
@pytest.mark.parametrize("n", [2, 8, 16])
def test_incast_converges_fair_and_full(flux_run, tmp_path, cc, n):
    """N long flows into one host: over the converged window (30 % to 85 %
    of the run) the bottleneck's utilisation is >= 0.90 (TIMELY at N = 16:
    >= 0.85, its published T_high of 500 us lets the queue reach the PFC
    threshold, and pauses idle the link: the measured 0.86 is reported in
    doc/congestion-control.rst), Jain's index of the flows' throughputs
    (bytes / FCT) is >= 0.95, nothing is dropped and every flow completes."""
    mb = max(10, 100 // n)
    out, r = run_scenario(flux_run, tmp_path, _incast(cc, n, mb), f"{cc}{n}")
    assert r["network"]["drops"] == 0
    assert r["flows"]["count"] == n
    done = r["sim"]["simulated_ms"]
    m = traces.window(traces.load(out), LINK, 0.3 * done * 1e3, 0.85 * done * 1e3)
    assert m["utilization"] >= (0.85 if (cc, n) == ("timely", 16) else 0.90), m
    with open(str(out)[:-5] + "-flows.csv", newline="") as f:
        tput = [float(x["size_bytes"]) / float(x["fct_us"]) for x in csv.DictReader(f)]
    assert traces.jain(tput) >= 0.95, tput


@pytest.mark.parametrize("cc, transport, delay_us", [
    ("dctcp", {}, 1), ("dcqcn", {"dcqcn": {"window_bdp": 1}}, 1), ("swift", {}, 3)])
def test_lone_windowed_flow_reaches_line_rate(flux_run, tmp_path, cc, transport, delay_us):
    """A lone flow whose window is bounded by one BDP (DCTCP's ceiling,
    DCQCN+w with window_bdp 1, Swift's bound) crosses four hops at line
    rate: its FCT is within 0.01 % of the ideal, with the receiver's default
    ACK interval (every fourth packet), whose held-back ACKs the BDP counts.
    (Counting them not: 93.6 % of line rate at MTU 4096. Swift's bound was
    line rate x its 20 us base target, below the 26 us round trip of 3 us
    links: 79 %.)"""
    s = {"seed": 1, "stop_ms": 50,
         "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2,
                      "link_delay_us": delay_us},
         "transport": dict({"cc": cc, "mtu_bytes": 4096}, **transport),
         "background": [{"name": "f", "pattern": "flows",
                         "flows": [{"src": 0, "dst": 2, "bytes": 10_000_000}]}]}
    out, r = run_scenario(flux_run, tmp_path, s, cc)
    with open(str(out)[:-5] + "-flows.csv", newline="") as f:
        (flow,) = list(csv.DictReader(f))
    assert float(flow["fct_us"]) <= 1.0001 * float(flow["ideal_fct_us"]), flow


def test_dctcp_traces_the_rate_it_sends_at(flux_run, tmp_path):
    """Two DCTCP flows into one host share its link by ACK clocking while
    their windows allow line rate each: the rates trace shows what each
    window delivered (about half the link each, in the middle of the run),
    not the pacing rate (the target, at line rate)."""
    s = _incast("dctcp", 2, 20)
    s["traces"]["rates"] = True
    out, r = run_scenario(flux_run, tmp_path, s, "dctcp-rates")
    done_us = r["sim"]["simulated_ms"] * 1e3
    with open(str(out)[:-5] + "-rates.csv", newline="") as f:
        rows = [x for x in csv.DictReader(f)
                if 0.3 * done_us <= float(x["time_us"]) <= 0.7 * done_us]
    by_qp = {}
    for x in rows:
        by_qp.setdefault((x["src"], x["qpn"]), []).append(x)
    assert len(by_qp) == 2, by_qp.keys()
    for samples in by_qp.values():
        rates = sorted(float(x["rate_gbps"]) for x in samples)
        assert 45 <= rates[len(rates) // 2] <= 55, rates
        assert all(float(x["target_gbps"]) > 90 for x in samples)


def test_results_record_the_congestion_control_that_ran(flux_run, tmp_path):
    """The results name the congestion control that ran (transport.cc, --set
    included, or the factory ns3_defaults gives), so that the runs of a
    sweep over congestion controls can be told apart; at flow level, which
    runs none, the name is absent and transport.cc is in backend_limits."""
    base = {"topology": {"kind": "dumbbell", "hosts_per_side": 2},
            "transport": {"cc": "timely", "timely": {"t_low_us": 40}},
            "jobs": [{"name": "a", "ranks": 2, "bytes": 100000, "iterations": 1}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(base))

    def results(*args):
        out = tmp_path / "r.json"
        p = flux_run(path, "--out", out, "--quiet", *args)
        assert p.returncode == 0, p.stderr
        return json.loads(out.read_text())

    assert results()["transport"] == {"cc": "timely"}
    assert results("--set", 'transport.cc="hpcc"')["transport"] == {"cc": "hpcc"}
    flow = results("--backend", "flow")
    assert flow["transport"] == {} and "transport.cc" in flow["backend_limits"]
    own = dict(base, transport={},
               ns3_defaults={"ns3::RdmaNic::CongestionControl":
                             "ns3::FixedRateCongestionControl[Rate=10Gb/s]"})
    path.write_text(json.dumps(own))
    assert results()["transport"] == {"cc": "ns3::FixedRateCongestionControl[Rate=10Gb/s]"}
    assert ns3flux.run(own, records=False)["transport"] == results()["transport"]
