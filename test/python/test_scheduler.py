"""The scheduling policies seen from flux-run and ns3flux: every policy is
listed and runs, the classes the multi-class policies give the jobs sit
where the background tenants leave room, and the results report what the
scheduler did."""

import copy
import json

import pytest

import ns3flux
from conftest import SMALL, run_scenario, strip_wall

# The four first policies, in this order; every registered policy after them.
FIRST = ["fifo", "cassini", "crux", "flux"]


def _policies(flux_run):
    """The policies flux-run lists (the registry: every policy's own file)."""
    p = flux_run("--list-policies")
    assert p.returncode == 0
    return p.stdout.split()


def test_every_policy_is_listed(flux_run):
    """--list-policies and ns3flux.policies() give the same policies: fifo,
    cassini, crux and flux first, in the documented order, then the others
    (mltcp among them), each once."""
    policies = _policies(flux_run)
    assert policies[:4] == FIRST
    assert "mltcp" in policies[4:]
    assert len(set(policies)) == len(policies)
    assert ns3flux.policies() == policies


def test_policy_keys_are_what_describe_policy_prints(flux_run):
    """ns3flux.policy_keys(name) gives, for every policy, the keys
    --describe-policy prints, in its order, with the same type, default,
    range and attribute; an unknown name raises ValueError."""
    for policy in ns3flux.policies():
        printed = flux_run("--describe-policy", policy).stdout.splitlines()[1:]
        lines = [f"  {k['key']}: {k['type']}, default {k['default']}, {k['range']} "
                 f"({k['attribute']})" for k in ns3flux.policy_keys(policy)]
        assert lines == [line for line in printed if not line.startswith("      ")] or (
            not lines and printed == ['  no keys besides "policy"']), policy
    assert {k["key"] for k in ns3flux.policy_keys("flux")} >= {"hysteresis_us", "granularity"}
    with pytest.raises(ValueError, match="not known"):
        ns3flux.policy_keys("sjf")


def test_every_policy_is_described(flux_run):
    """--describe-policy names each policy's TypeId and lists its scheduler
    keys (the attributes, in snake_case): JobScheduler's classes keys only
    for a policy that gives classes, path_candidates only for one that
    chooses paths; an unknown name exits 2."""
    with_classes = {"flux", "crux"}
    with_paths = {"flux", "crux", "ecmp-aware"}
    for policy in _policies(flux_run):
        p = flux_run("--describe-policy", policy)
        assert p.returncode == 0, policy
        assert p.stdout.startswith(f"{policy} (ns3::"), policy
        classes = "  classes: integer, default 3, [1, 6] (Classes)" in p.stdout
        first = "  background_first: boolean" in p.stdout
        paths = "  path_candidates: integer, default 64, [1, 4096]" in p.stdout
        if policy in with_classes | with_paths | {"fifo", "cassini", "mltcp"}:
            assert classes == first == (policy in with_classes), policy
            assert paths == (policy in with_paths), policy
    assert flux_run("--describe-policy", "fifo").stdout.endswith('  no keys besides "policy"\n')
    flux = flux_run("--describe-policy", "flux").stdout
    assert "  hysteresis_us: time, default " in flux
    assert '  granularity: string, default "step", "step" | "chunk" (PerChunk)' in flux
    assert "  replan_us: time, default 1000, [0, 10000000]" in flux
    mltcp = flux_run("--describe-policy", "mltcp").stdout
    assert "  slope: number, default 1.5, [0, 100] (Slope)" in mltcp
    assert "  intercept: number, default 0.25, [0, 100] (Intercept)" in mltcp
    verbose = flux_run("--list-policies", "--verbose")
    assert verbose.returncode == 0 and "mltcp (ns3::MltcpScheduler)" in verbose.stdout
    bad = flux_run("--describe-policy", "magic")
    assert bad.returncode == 2 and "--describe-policy" in bad.stderr


def test_every_policy_runs_and_reports(flux_run, tmp_path):
    """Each policy runs the small scenario to completion, delivers every
    iteration without a drop, and reports a scheduler section; a job's gate
    wait is positive exactly when its policy held something. Of the shipped
    policies, cassini holds iteration starts and flux ring steps, the others
    never hold, and only flux re-plans and sends messages (a policy added
    beside them is free there)."""
    shipped = {"fifo", "cassini", "crux", "flux", "ecmp-aware", "mltcp"}
    for policy in _policies(flux_run):
        s = copy.deepcopy(SMALL)
        s["scheduler"] = {"policy": policy}
        _, r = run_scenario(flux_run, tmp_path, s, policy)
        assert r["policy"] == policy and r["scheduler"]["policy"] == policy
        assert all(j["status"] == "completed" for j in r["jobs"]), policy
        assert r["network"]["drops"] == 0, policy
        assert all(len(j["iteration_ms"]) == 3 for j in r["jobs"]), policy
        waits = [j["gate_wait_ms"] for j in r["jobs"]]
        held = r["scheduler"]["held"]
        assert (max(waits) > 0) == (held > 0), (policy, waits, held)
        if policy not in shipped:
            continue
        # two jobs that share links: the second waits where the policy holds
        assert (held > 0) == (policy in ("cassini", "flux")), (policy, waits)
        flux = policy == "flux"
        assert (r["scheduler"]["replans"] > 0) == flux, policy
        assert (r["scheduler"]["messages"] > 0) == flux, policy
    assert shipped <= set(_policies(flux_run))


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


def test_a_low_background_leaves_the_jobs_the_classes_it_leaves(flux_run, tmp_path):
    """With the tenant in class 1, crux and flux take the two classes left
    (1, 0) rather than refuse the default three; with background_first,
    the one (0); asked for three explicitly, they refuse naming
    scheduler.classes, and with the tenant in class 0 and background_first
    they say that the class they need is not free."""
    for policy in ("crux", "flux"):
        for first, classes in ((False, [1, 0]), (True, [0])):
            s = copy.deepcopy(SMALL)
            s["background"][0]["priority"] = 1
            s["scheduler"] = {"policy": policy, "background_first": first}
            _, r = run_scenario(flux_run, tmp_path, s, f"low-{policy}-{first}")
            assert r["scheduler"]["classes"] == classes, (policy, first)
        s["scheduler"] = {"policy": policy, "classes": 3}
        path = tmp_path / "asked.json"
        path.write_text(json.dumps(s))
        proc = flux_run(path, "--out", tmp_path / "asked-results.json", "--quiet")
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("flux-run: scheduler.classes: "), proc.stderr
        s["background"][0]["priority"] = 0
        s["scheduler"] = {"policy": policy, "background_first": True}
        path.write_text(json.dumps(s))
        proc = flux_run(path, "--out", tmp_path / "asked-results.json", "--quiet")
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(
            f'flux-run: scheduler.classes: policy "{policy}": needs 1 class, but none is free below '
            "the lowest class of the background tenants"), proc.stderr
        assert proc.stderr.rstrip().endswith("(raise the background's priority)"), proc.stderr


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


def test_scheduler_keys_map_to_attributes(flux_run, tmp_path):
    """Every scheduler key is an attribute of a policy: snake_case of its
    name, times with a unit suffix; values are checked by the attribute's
    checker and a bad one exits 2 naming the key, before anything is
    written. A key of another policy is checked too, then ignored."""
    def run(scheduler, name):
        s = copy.deepcopy(SMALL)
        s["scheduler"] = scheduler
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(s))
        out = tmp_path / f"{name}-results.json"
        p = flux_run(path, "--out", out, "--quiet")
        return p, out

    bad = [
        ({"policy": "flux", "measurement_weight": 2}, "scheduler.measurement_weight: must be in [0, 1]"),
        ({"policy": "mltcp", "slope": -1}, "scheduler.slope: must be in [0, 100], got -1"),
        ({"policy": "mltcp", "slope": "steep"}, "scheduler.slope: expected a number"),
        ({"policy": "cassini", "slots": 1}, "scheduler.slots: must be at least 2, got 1"),
        ({"policy": "flux", "hysteresis_ms": -1}, "scheduler.hysteresis_ms: must not be negative"),
        ({"policy": "flux", "hysteresis_ms": 1e5}, "scheduler.hysteresis_ms: must be at most 10000"),
        ({"policy": "flux", "hysteresis_us": 1, "hysteresis_ns": 1},
         "sets the same attribute as"),
        ({"policy": "mltcp", "slop": 1}, 'scheduler.slop: unknown key (did you mean "slope"?)'),
        ({"policy": "fifo", "slope": -1}, "scheduler.slope: must be in [0, 100]"),
    ]
    for i, (scheduler, message) in enumerate(bad):
        p, out = run(scheduler, f"bad{i}")
        assert p.returncode == 2, (scheduler, p.stderr)
        assert message in p.stderr, (scheduler, p.stderr)
        assert not out.exists()
    # accepted: another unit, and a key of mltcp under fifo (ignored by fifo)
    for i, scheduler in enumerate([{"policy": "flux", "hysteresis_ms": 0.05, "replan_ms": 2},
                                   {"policy": "fifo", "slope": 3, "max_hold_us": 10}]):
        p, out = run(scheduler, f"good{i}")
        assert p.returncode == 0, (scheduler, p.stderr)
        assert json.loads(out.read_text())["policy"] == scheduler["policy"]


def test_results_record_the_scheduler_keys_taken_and_ignored(flux_run, tmp_path, small_file):
    """The results' scheduler section records the scenario's scheduler keys
    the policy took, with their values as written (--set included), and the
    keys it ignored: another policy's, and JobScheduler's own where they do
    not apply; a key the policy ignores changes none of its results."""
    sets = ["--set", "scheduler.hysteresis_us=0", "--set", "scheduler.classes=2",
            "--set", "scheduler.granularity=chunk"]
    outs = {}
    for policy, extra in (("flux", sets), ("fifo", sets), ("fifo", [])):
        out = tmp_path / f"{policy}-{len(extra)}.json"
        p = flux_run(small_file, "--policy", policy, *extra, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        outs[(policy, len(extra))] = json.loads(out.read_text())
    flux = outs[("flux", 6)]["scheduler"]
    assert flux["settings"] == {"hysteresis_us": 0, "classes": 2, "granularity": "chunk"}
    assert flux["ignored"] == []
    fifo = outs[("fifo", 6)]["scheduler"]
    assert fifo["settings"] == {}
    assert sorted(fifo["ignored"]) == ["classes", "granularity", "hysteresis_us"]
    plain = outs[("fifo", 0)]
    assert plain["scheduler"]["settings"] == {} and plain["scheduler"]["ignored"] == []
    assert strip_wall(dict(outs[("fifo", 6)], scheduler=None)) == \
        strip_wall(dict(plain, scheduler=None))
