"""The flux policy and the path-aware baselines, each test stating its
property: path control puts two rings that share a leaf on different
spines; flux serves shorter transfers first without making any job slower
than fair sharing; a held run goes within two control latencies of the end
of the run it waited for (release on completion) and only waits while a job
ahead is sending on the link it needs (work conservation); crux gives jobs
of equal GPU intensity one class; one job alone runs identically under every
policy; flux's class changes show in jobs[].class_timeline."""

import csv

import pytest

import ns3flux
from conftest import run_scenario, shipped

LATENCY_MS = 0.005  # scheduler.control_latency_us default
EPS = 1e-6


def run(flux_run, tmp_path, scenario, name, *args):
    """One quiet run of a scenario dict; returns (results, phases CSV path)."""
    out, results = run_scenario(flux_run, tmp_path, scenario, name, *args)
    return results, tmp_path / f"{out.stem}-phases.csv"


def comm_intervals(phases_csv):
    """job -> iteration -> [first step start, last step end], ms."""
    out = {}
    with open(phases_csv) as f:
        for row in csv.DictReader(f):
            start = float(row["start_ms"])
            end = start + float(row["duration_ms"])
            span = out.setdefault(row["job"], {}).setdefault(int(row["iteration"]), [start, end])
            span[0] = min(span[0], start)
            span[1] = max(span[1], end)
    return out


def leaf_pair(seed_collides):
    """Two 2-rank jobs, one rank under each of two leaves, two spines."""
    return {
        "seed": seed_collides,
        "stop_ms": 200,
        "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
        "jobs": [
            {"name": "a", "ranks": 2, "hosts": [0, 2], "bytes": 4000000, "compute_ms": 0.5,
             "iterations": 3},
            {"name": "b", "ranks": 2, "hosts": [1, 3], "bytes": 4000000, "compute_ms": 0.5,
             "iterations": 3},
        ],
    }


def uplinks(job):
    return {link for link in job["links"] if "->spine" in link}


def test_path_control_spreads_rings_over_spines(tmp_path, flux_run):
    """On a seed where the hash puts both rings on one spine (fifo shares an
    uplink), ecmp-aware, crux and flux give them disjoint uplinks, and the
    shared uplink no longer halves their rate: mean JCT 1.25x better or more."""
    for seed in range(1, 40):
        fifo, _ = run(flux_run, tmp_path, leaf_pair(seed), f"fifo-{seed}", "--backend", "flow")
        a, b = fifo["jobs"]
        if uplinks(a) & uplinks(b):
            break
    else:
        pytest.fail("no seed in 1..39 hashes both rings onto one uplink")
    mean_fifo = sum(j["jct_ms"] for j in fifo["jobs"]) / 2
    for policy in ("ecmp-aware", "crux", "flux"):
        for backend in ("flow", "packet"):
            r, _ = run(flux_run, tmp_path, leaf_pair(seed), f"{policy}-{backend}",
                       "--policy", policy, "--backend", backend)
            a, b = r["jobs"]
            assert not uplinks(a) & uplinks(b), (policy, backend, a["links"], b["links"])
            assert r["scheduler"]["paths_moved"] >= 1, (policy, backend)
            if backend == "flow":
                mean = sum(j["jct_ms"] for j in r["jobs"]) / 2
                assert mean_fifo / mean >= 1.25, (policy, mean, mean_fifo)


def test_ecmp_aware_by_class_lets_the_first_class_choose_first(tmp_path, flux_run):
    """ecmp-aware places jobs by bytes (the larger first; ties by index),
    or with by_class by class first: the first chooser keeps its hashed
    path and the other moves. On a seed where the hash puts both rings on
    one uplink, job a (first by bytes) keeps its uplinks by default, and
    job b keeps its own when it has the higher class and by_class is set."""
    for seed in range(1, 40):
        fifo, _ = run(flux_run, tmp_path, leaf_pair(seed), f"fifo-{seed}", "--backend", "flow")
        if uplinks(fifo["jobs"][0]) & uplinks(fifo["jobs"][1]):
            break
    else:
        pytest.fail("no seed in 1..39 hashes both rings onto one uplink")
    hashed = [uplinks(j) for j in fifo["jobs"]]
    scenario = leaf_pair(seed)
    scenario["jobs"][1]["priority"] = 4
    scenario["jobs"][0]["priority"] = 2
    for by_class, keeper in ((False, 0), (True, 1)):
        scenario["scheduler"] = {"policy": "ecmp-aware", "by_class": by_class}
        r, _ = run(flux_run, tmp_path, scenario, f"bc{by_class}", "--backend", "flow")
        placed = [uplinks(j) for j in r["jobs"]]
        assert not placed[0] & placed[1], placed
        assert placed[keeper] == hashed[keeper], (by_class, placed, hashed)
        assert placed[1 - keeper] != hashed[1 - keeper], (by_class, placed, hashed)


def one_link(sizes):
    """Jobs of 2 ranks across a dumbbell's one fabric link, all starting at
    once, one iteration each."""
    return {
        "stop_ms": 200,
        "topology": {"kind": "dumbbell", "hosts_per_side": len(sizes)},
        "jobs": [{"name": f"j{i}", "ranks": 2, "hosts": [i, len(sizes) + i], "bytes": b,
                  "compute_ms": 0.1, "iterations": 1} for i, b in enumerate(sizes)],
    }


@pytest.mark.parametrize("backend", ["flow", "packet"])
def test_shortest_first_and_nobody_slower_than_fair_sharing(tmp_path, flux_run, backend):
    """Three transfers of 1, 2 and 4 MB that start together on one link:
    flux ends them shortest first, its mean JCT beats fifo's (fair sharing)
    by 1.2x or more, and no job ends later than under fifo (the Fair
    Sojourn Protocol's guarantee), but for two control latencies per
    hand-over and 5 % at flow level (turns lose the overlap of the steps'
    fixed hop latencies that sharing has) and 10 % at packet level (a
    preempted DCQCN flow takes a while to regain its rate)."""
    scenario = one_link([4000000, 1000000, 2000000])
    flux, _ = run(flux_run, tmp_path, scenario, "flux", "--policy", "flux", "--backend", backend)
    fifo, _ = run(flux_run, tmp_path, scenario, "fifo", "--backend", backend)
    ends = {j["name"]: j["jct_ms"] for j in flux["jobs"]}
    assert ends["j1"] < ends["j2"] < ends["j0"], ends
    mean = lambda r: sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"])
    assert mean(fifo) / mean(flux) >= 1.2, (mean(fifo), mean(flux))
    for f, g in zip(flux["jobs"], fifo["jobs"]):
        limit = g["jct_ms"] * 1.1 if backend == "packet" else \
            g["jct_ms"] * 1.05 + 2 * 2 * LATENCY_MS
        assert f["jct_ms"] <= limit, (f["name"], f["jct_ms"], g["jct_ms"])


def test_remaining_work_orders_runs_by_what_they_have_left(tmp_path, flux_run):
    """At flow level on one link: j0 (40 MB) starts, j1 (20 MB) arrives
    and is served first, holding j0; j2 (30 MB) arrives while j1 runs. The Fair
    Sojourn order (the default) serves j0 next, since fair sharing would
    have drained j0's backlog while j0 was held; with remaining_work the
    controller orders by the work left at the rate alone, which the gates'
    step reports keep (j0 has sent little of its 40 MB), so j2 goes before
    j0. Either way j1 ends first and every job before fifo's last end, and the
    shorter-first order gives the lower mean JCT."""
    scenario = one_link([40000000, 20000000, 30000000])
    for job, start in zip(scenario["jobs"], (0, 0.5, 1.5)):
        job["start_ms"] = start
    out = {}
    for name, args in (("fifo", ["--policy", "fifo"]), ("fsp", ["--policy", "flux"]),
                       ("rw", ["--policy", "flux", "--set", "scheduler.remaining_work=true"])):
        out[name], _ = run(flux_run, tmp_path, scenario, name, "--backend", "flow", *args)
    ends = {k: {j["name"]: j["jct_ms"] + s for j, s in zip(r["jobs"], (0, 0.5, 1.5))}
            for k, r in out.items()}
    assert ends["fsp"]["j1"] < ends["fsp"]["j0"] < ends["fsp"]["j2"], ends["fsp"]
    assert ends["rw"]["j1"] < ends["rw"]["j2"] < ends["rw"]["j0"], ends["rw"]
    last = max(ends["fifo"].values())
    assert max(ends["rw"].values()) <= last * 1.05 and max(ends["fsp"].values()) <= last * 1.05
    mean = {k: sum(j["jct_ms"] for j in r["jobs"]) / 3 for k, r in out.items()}
    assert mean["rw"] < mean["fsp"] < mean["fifo"], mean
    # the gates report the runs' steps: more control messages than without
    assert out["rw"]["scheduler"]["messages"] > out["fsp"]["scheduler"]["messages"]


@pytest.mark.parametrize("name", ["contended-mixed-ratios", "contended-eight-jobs",
                                  "contended-two-equal"])
def test_release_on_completion_and_work_conservation(tmp_path, flux_run, name):
    """At flow level, a run of a job that is held starts within two control
    latencies (gate -> controller -> gate) of the end of another job's run,
    and while it is held, some other job that shares its link is
    communicating, but for gaps of at most two control latencies: the link
    it needs never idles while it waits. Runs are held (the check bites)."""
    scenario = shipped(name)
    r, phases = run(flux_run, tmp_path, scenario, name, "--policy", "flux", "--backend", "flow")
    assert r["scheduler"]["held"] > 0
    compute = {j["name"]: j.get("compute_ms", 0) for j in scenario["jobs"]}
    runs = comm_intervals(phases)
    slack = 2 * LATENCY_MS + 1e-4
    held = 0
    for job, its in runs.items():
        others = sorted(span for other, o in runs.items() if other != job for span in o.values())
        for k in sorted(its)[1:]:
            ready = its[k - 1][1] + compute[job]
            start = its[k][0]
            if start <= ready + slack:
                continue
            held += 1
            ended = [e for _, e in others if e <= start + EPS]
            assert ended and start - max(ended) <= slack, (job, k, start)
            # cover [ready, start] with the other jobs' runs
            t = ready
            for s, e in others:
                if e <= t or s > start:
                    continue
                assert s - t <= slack, (job, k, "link idle from", t, "to", s)
                t = max(t, e)
            assert start - t <= slack, (job, k, "link idle from", t, "to", start)
    assert held > 0


@pytest.mark.parametrize("seed", [1, 5])
def test_jobs_that_start_together_take_turns_from_the_first_run(tmp_path, flux_run, seed):
    """Two equal jobs on one link whose runs start at the same instant
    (packet level): the one behind waits for the controller's answer to its
    start instead of going on the wire in a lower class, so its first step
    goes only after the other's run has ended (within two control
    latencies), no packet is ECN-marked or paused, and the mean JCT is
    within 3 % of cassini's (whose fixed shift needs no messages)."""
    scenario = shipped("contended-two-equal")
    scenario["seed"] = seed
    r, phases = run(flux_run, tmp_path, scenario, f"s{seed}", "--policy", "flux")
    runs = comm_intervals(phases)
    first, second = sorted((runs["a"][0], runs["b"][0]))
    assert first[1] - EPS <= second[0] <= first[1] + 2 * LATENCY_MS + 1e-3, (first, second)
    assert r["network"]["ecn_marks"] == 0 and r["network"]["pfc_pauses"] == 0, r["network"]
    cassini, _ = run(flux_run, tmp_path, scenario, f"c{seed}", "--policy", "cassini")
    mean = lambda res: sum(j["jct_ms"] for j in res["jobs"]) / len(res["jobs"])
    assert mean(r) <= 1.03 * mean(cassini), (mean(r), mean(cassini))


def late_small_job(preempt):
    """A 16 MB transfer on one link, and a 1 MB one that becomes ready while
    the first is on the wire."""
    scenario = one_link([16000000, 1000000])
    scenario["jobs"][1]["start_ms"] = 0.2
    scenario["scheduler"] = {"policy": "flux", "preempt_runs": preempt}
    return scenario


@pytest.mark.parametrize("preempt", [True, False])
def test_preempt_runs_decides_the_unit_of_planning(tmp_path, flux_run, preempt):
    """Planning per step (preempt_runs, the default) lets a short run that
    becomes ready mid-way through a long one go first: it ends before the
    long one. Planning per allreduce (preempt_runs false) never holds a run
    once let go: the long run is never held, and the short one ends within
    its own time alone after the long one's end."""
    r, phases = run(flux_run, tmp_path, late_small_job(preempt), f"p{preempt}", "--backend",
                    "flow")
    runs = comm_intervals(phases)
    big, small = runs["j0"][0], runs["j1"][0]
    if preempt:
        assert small[1] < big[1], (small, big)
    else:
        # the short run goes once the long one has ended (1 MB: 80 us alone)
        assert big[1] < small[1] <= big[1] + 0.08 + 2 * LATENCY_MS + 1e-3, (small, big)
        assert r["jobs"][0]["gate_wait_ms"] == 0


def test_classes_alone_order_without_holding(tmp_path, flux_run):
    """With holds off, flux holds nothing at its gates, yet strict classes
    alone still end three transfers on one link shortest first, 1.2x better
    than fifo in mean JCT (flow level, where strict priority is exact)."""
    scenario = one_link([4000000, 1000000, 2000000])
    scenario["scheduler"] = {"policy": "flux", "holds": False}
    flux, _ = run(flux_run, tmp_path, scenario, "flux", "--backend", "flow")
    fifo, _ = run(flux_run, tmp_path, scenario, "fifo", "--policy", "fifo", "--backend", "flow")
    assert flux["scheduler"]["held"] == 0
    ends = {j["name"]: j["jct_ms"] for j in flux["jobs"]}
    assert ends["j1"] < ends["j2"] < ends["j0"], ends
    mean = lambda r: sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"])
    assert mean(fifo) / mean(flux) >= 1.2, (mean(fifo), mean(flux))


def test_fair_sharing_reference_is_fifos_paths(tmp_path, flux_run):
    """flux's virtual fair-sharing system shares links as the hash's paths
    would (what fifo gets), not as the paths flux chose: a job its path
    choice slows falls behind that reference and is served first. On the
    leaf-spine, where path choice pairs jobs differently from the hash, no
    job over ten seeds ends more than 25 % later than under fifo (flow
    level, with no hysteresis: the lead a waiting job needs over the one
    served is there for the packet level's cost of preempting a step on
    the wire, and would blur the reference this test checks; and without
    the fifo guard, whose second reference this test does not check: on
    seed 8 it puts chatty, late against its shadow, ahead of small, which
    is not, and small then ends 1.49x its fifo JCT instead of 1.21x)."""
    scenario = shipped("contended-leaf-spine")
    scenario["scheduler"] = {"policy": "flux", "hysteresis_us": 0, "guard_slack": -1}
    worst = 0
    for seed in range(1, 11):
        flux, _ = run(flux_run, tmp_path, scenario, f"flux{seed}", "--policy", "flux",
                      "--seed", str(seed), "--backend", "flow")
        fifo, _ = run(flux_run, tmp_path, scenario, f"fifo{seed}", "--policy", "fifo",
                      "--seed", str(seed), "--backend", "flow")
        for f, g in zip(flux["jobs"], fifo["jobs"]):
            worst = max(worst, f["jct_ms"] / g["jct_ms"])
    assert worst <= 1.25, worst


def test_crux_equal_intensity_one_class(tmp_path, flux_run):
    """Three identical jobs on one link: crux gives them one class (their
    order in the file decides nothing), so their JCTs are within 5 %."""
    scenario = one_link([2000000, 2000000, 2000000])
    for job in scenario["jobs"]:
        job["iterations"] = 4
    r, _ = run(flux_run, tmp_path, scenario, "crux", "--policy", "crux")
    assert len({j["class"] for j in r["jobs"]}) == 1, [j["class"] for j in r["jobs"]]
    jcts = [j["jct_ms"] for j in r["jobs"]]
    assert max(jcts) <= 1.05 * min(jcts), jcts


@pytest.mark.parametrize("backend", ["flow", "packet"])
def test_one_job_alone_is_the_same_under_every_policy(tmp_path, flux_run, backend):
    """A job alone on a fabric: every policy gives it fifo's JCT, to the
    nanosecond at flow level and within 1 % at packet level (queue discs
    and arbiters differ), and nothing is held."""
    scenario = shipped("single-job")
    base, _ = run(flux_run, tmp_path, scenario, "fifo", "--backend", backend)
    jct = base["jobs"][0]["jct_ms"]
    for policy in ns3flux.policies():
        r, _ = run(flux_run, tmp_path, scenario, policy, "--policy", policy, "--backend", backend)
        tol = EPS if backend == "flow" else 0.01 * jct
        assert r["jobs"][0]["jct_ms"] == pytest.approx(jct, abs=tol), policy
        assert r["scheduler"]["held"] == 0, policy


def test_class_timeline_follows_flux(tmp_path, flux_run):
    """Two equal jobs under flux take turns at the top class: each job's
    class_timeline starts at 0 ms, is in time order, changes class at every
    entry, ends at jobs[].class, and has as many changes in all as
    scheduler.class_changes counts (less the first assignments at 0 ms)."""
    r, _ = run(flux_run, tmp_path, shipped("contended-two-equal"), "flux", "--policy", "flux")
    changes = 0
    for job in r["jobs"]:
        timeline = job["class_timeline"]
        assert timeline[0][0] == 0
        assert all(a[0] < b[0] for a, b in zip(timeline, timeline[1:]))
        assert all(a[1] != b[1] for a, b in zip(timeline, timeline[1:]))
        assert timeline[-1][1] == job["class"]
        assert len(timeline) > 4
        changes += len(timeline) - 1
    assert changes <= r["scheduler"]["class_changes"] <= changes + len(r["jobs"])
    fifo, _ = run(flux_run, tmp_path, shipped("contended-two-equal"), "fifo")
    assert all(len(j["class_timeline"]) == 1 for j in fifo["jobs"])


def test_rings_limited_elsewhere_share_instead_of_taking_turns(tmp_path, flux_run):
    """On the shipped GPT/BERT fat-tree with seed 1, the placed rings share
    one link direction, but BERT's ring is limited to half its line rate
    elsewhere on its path: together they fill that link only 1.5 times, and
    sharing gives the smaller mean completion than taking turns. flux then
    holds neither job (no gate wait) and its mean JCT is within 3 % of paths
    alone (ecmp-aware); a flux that held BERT behind GPT took 1.27x."""
    scenario = shipped("realistic-gpt-bert-fat-tree")
    scenario["seed"] = 1
    mean = {}
    for policy in ("flux", "ecmp-aware"):
        _, r = run_scenario(flux_run, tmp_path, scenario, policy, "--policy", policy)
        mean[policy] = sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"])
        if policy == "flux":
            assert all(j["gate_wait_ms"] == 0 for j in r["jobs"]), r["jobs"]
    assert mean["flux"] <= 1.03 * mean["ecmp-aware"], mean


@pytest.mark.parametrize("seed", [2, 8])
def test_a_late_job_ahead_does_not_outrank_the_jobs_behind(tmp_path, flux_run, seed):
    """On the shipped 5:1 leaf-spine with seeds whose background traffic
    slows the job flux serves first, that job goes late against its time
    alone; it then neither holds the jobs behind it nor takes a higher
    class than theirs, so they share the links fairly instead of taking
    the scraps of strict priority under it and under the web-search
    tenant's class. No job is then more than 25 % slower than under fifo
    (a job demoted under a late job ahead took 1.38x and 1.68x; now 1.09x
    and 1.18x)."""
    scenario = shipped("contended-leaf-spine")
    scenario["seed"] = seed
    jct = {}
    for policy in ("flux", "fifo"):
        _, r = run_scenario(flux_run, tmp_path, scenario, policy, "--policy", policy)
        jct[policy] = {j["name"]: j["jct_ms"] for j in r["jobs"]}
    for name, fifo_ms in jct["fifo"].items():
        assert jct["flux"][name] <= 1.25 * fifo_ms, (name, jct["flux"][name], fifo_ms)


@pytest.mark.parametrize("seed", [3, 5])
def test_rings_on_a_fat_tree_get_link_disjoint_paths(tmp_path, flux_run, seed):
    """The shipped GPT and BERT rings (8 ranks each, all 16 hosts of a
    k = 4 fat-tree) form a permutation, which a fat-tree can route without
    a shared link direction. On seeds where moving one send at a time left
    one link direction under both rings, ecmp-aware, crux and flux still
    find paths that share none, and flux then holds nobody."""
    scenario = shipped("realistic-gpt-bert-fat-tree")
    scenario["seed"] = seed
    for policy in ("ecmp-aware", "crux", "flux"):
        _, r = run_scenario(flux_run, tmp_path, scenario, policy, "--policy", policy,
                            "--backend", "flow")
        a, b = r["jobs"]
        assert not set(a["links"]) & set(b["links"]), (policy, set(a["links"]) & set(b["links"]))
        if policy == "flux":
            assert r["scheduler"]["held"] == 0, r["scheduler"]


def test_the_fifo_guard_puts_a_job_late_against_fifo_first(tmp_path, flux_run):
    """On the shipped eight-job dumbbell (seed 5), with the switch ports'
    MaxWait off (max_wait_us 0, which also moves j6) and their per-flow
    queues on (flows_per_class 16, as beside a tenant), flux without its fifo
    guard (guard_slack -1) serves j6's runs behind shorter ones long enough
    that j6 ends 16 % after its fifo JCT. With the guard (the default,
    guard_slack 0.05), a run that ended in the shadow (fifo's fair sharing
    on the jobs' own timelines) and has not ended for real goes first: runs
    are counted overdue, j6 ends at most 11 % after fifo, and the mean JCT
    stays within 2 % of the unguarded flux's."""
    scenario = shipped("contended-eight-jobs")
    scenario["seed"] = 5
    out = {}
    no_wait = ["--set", "scheduler.max_wait_us=0",  # (the guard alone)
               "--set", "scheduler.flows_per_class=16"]
    for name, args in (("fifo", ["--policy", "fifo"]), ("guard", ["--policy", "flux", *no_wait]),
                       ("unguarded", ["--policy", "flux", *no_wait,
                                      "--set", "scheduler.guard_slack=-1"])):
        _, out[name] = run_scenario(flux_run, tmp_path, scenario, name, *args)
    jct = {k: {j["name"]: j["jct_ms"] for j in r["jobs"]} for k, r in out.items()}
    assert out["unguarded"]["scheduler"]["overdue_runs"] == 0
    assert out["guard"]["scheduler"]["overdue_runs"] > 0
    assert jct["unguarded"]["j6"] > 1.15 * jct["fifo"]["j6"]
    assert jct["guard"]["j6"] <= 1.11 * jct["fifo"]["j6"]
    mean = {k: sum(v.values()) / len(v) for k, v in jct.items()}
    assert mean["guard"] <= 1.02 * mean["unguarded"]


def test_the_fifo_guard_leaves_a_job_at_fifos_pace_alone(tmp_path, flux_run):
    """Two equal jobs on one link take turns under flux: the first of a turn
    ends its run at half its shadow's time, the second about when its
    shadow does (taking turns never ends a run later than sharing, but for
    overheads), so with its default slack (0.05) the guard never puts a run
    first and the run is the same as without it (guard_slack -1)."""
    scenario = shipped("contended-two-equal")
    out = {}
    for name, args in (("guard", []), ("unguarded", ["--set", "scheduler.guard_slack=-1"])):
        _, out[name] = run_scenario(flux_run, tmp_path, scenario, name, "--policy", "flux", *args)
    assert out["guard"]["scheduler"]["overdue_runs"] == 0
    jcts = {k: [j["jct_ms"] for j in r["jobs"]] for k, r in out.items()}
    assert jcts["guard"] == jcts["unguarded"]


def test_max_wait_serves_a_class_kept_waiting(tmp_path, flux_run):
    """Under flux the switch ports serve classes in strict order, and a
    class below waits as long as the classes ahead send. With the ports'
    MaxWait (default 150 us) a class whose head packet waited that long is
    served first: on the shipped leaf-spine (seed 2) the p99 packet latency
    is at least a quarter lower than with MaxWait off (max_wait_us 0), and
    the mean JCT no higher (measured: 679 against 1146 us, 22.35 against
    23.39 ms)."""
    scenario = shipped("contended-leaf-spine")
    scenario["seed"] = 2
    out = {}
    for name, args in (("default", []), ("off", ["--set", "scheduler.max_wait_us=0"])):
        _, out[name] = run_scenario(flux_run, tmp_path, scenario, name, "--policy", "flux", *args)
    p99 = {k: r["packet_latency_us"]["p99"] for k, r in out.items()}
    mean = {k: sum(j["jct_ms"] for j in r["jobs"]) / len(r["jobs"]) for k, r in out.items()}
    assert p99["default"] <= 0.75 * p99["off"], p99
    assert mean["default"] <= mean["off"], mean
