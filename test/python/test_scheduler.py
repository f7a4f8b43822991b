"""The scheduling policies seen from flux-run and ns3flux: every policy is
listed and runs, the classes the multi-class policies give the jobs sit
where the background tenants leave room, and the results report what the
scheduler did."""

import copy

import ns3flux
from conftest import SMALL, run_scenario

POLICIES = ["fifo", "cassini", "crux", "flux"]


def test_every_policy_is_listed(flux_run):
    """--list-policies and ns3flux.policies() give the four policies, in the
    documented order."""
    p = flux_run("--list-policies")
    assert p.returncode == 0
    assert p.stdout.split() == POLICIES
    assert ns3flux.policies() == POLICIES


def test_every_policy_runs_and_reports(flux_run, tmp_path):
    """Each policy runs the small scenario to completion, delivers every
    iteration without a drop, and reports a scheduler section and a gate
    wait per job; only flux re-plans and sends messages."""
    for policy in POLICIES:
        s = copy.deepcopy(SMALL)
        s["scheduler"] = {"policy": policy}
        _, r = run_scenario(flux_run, tmp_path, s, policy)
        assert r["policy"] == policy and r["scheduler"]["policy"] == policy
        assert all(j["status"] == "completed" for j in r["jobs"]), policy
        assert r["network"]["drops"] == 0, policy
        assert all(j["gate_wait_ms"] >= 0 for j in r["jobs"]), policy
        flux = policy == "flux"
        assert (r["scheduler"]["replans"] > 0) == flux, policy
        assert (r["scheduler"]["messages"] > 0) == flux, policy


def test_job_classes_around_the_background(flux_run, tmp_path):
    """With the background tenant in class 3, crux and flux give the jobs
    classes 3, 2, 1 (the top one shared with the tenant flow by flow), or
    2, 1, 0 with background_first; the class precedence puts control first,
    then the tenant's class."""
    for policy in ("crux", "flux"):
        for first, classes, order in ((False, [3, 2, 1], "7 3 2 1"),
                                      (True, [2, 1, 0], "7 3 2 1 0")):
            s = copy.deepcopy(SMALL)
            s["scheduler"] = {"policy": policy, "background_first": first}
            _, r = run_scenario(flux_run, tmp_path, s, f"{policy}-{first}")
            assert r["scheduler"]["classes"] == classes, (policy, first)
            assert r["scheduler"]["order"] == order, (policy, first)
            assert all(j["class"] in classes for j in r["jobs"]), (policy, first)


def test_scenario_chooses_queue_disc_and_arbiter(flux_run, tmp_path):
    """A queue disc and an arbiter chosen in ns3_defaults (object factories,
    checked before the run) are what the fabric runs, whatever the policy:
    fifo over FluxQueueDisc and ClassQpArbiter in a given order completes
    without drops, and flux over the plain PfcPrioQueueDisc too."""
    for policy, qdisc, arbiter in (
        ("fifo", "ns3::FluxQueueDisc[Order=3,2,1|MinShare=0.1|FlowsPerClass=4]",
         "ns3::ClassQpArbiter[Order=3,2,1]"),
        ("flux", "ns3::PfcPrioQueueDisc", "ns3::RoundRobinQpArbiter"),
    ):
        s = copy.deepcopy(SMALL)
        s["scheduler"] = {"policy": policy}
        s["ns3_defaults"] = {"ns3::FabricSwitch::QueueDiscFactory": qdisc,
                             "ns3::RdmaNic::QpArbiter": arbiter}
        _, r = run_scenario(flux_run, tmp_path, s, f"factory-{policy}")
        assert all(j["status"] == "completed" for j in r["jobs"]), policy
        assert r["network"]["drops"] == 0, policy
