"""Control of a run from Python: GIL release, progress, interruption."""

import json
import os
import signal
import statistics
import sys
import threading
import time

import pytest

import ns3flux
from conftest import ROOT, SMALL, strip_wall


def long_scenario():
    """The small scenario with far more iterations than a test waits for,
    stopped at 500 ms of simulated time (tens of seconds of wall-clock
    time) should a test fail to stop it."""
    return ns3flux.variant(SMALL, {"jobs[0].iterations": 100000, "jobs[1].iterations": 100000,
                                   "stop_ms": 500})


def test_gil_released_while_simulating():
    """Another Python thread runs while a simulation goes on: the run does
    not hold the GIL. The interpreter is told not to switch threads by
    itself (a switch interval of 1000 s), so the other thread, woken by the
    first progress call, can run only if the simulation lets go of the GIL
    after it; the next progress call then sees that it ran."""
    woken = threading.Event()
    ran = threading.Event()
    calls = []

    def other():
        woken.wait()
        ran.set()

    def progress(sim_ms, wall_s, eta_s):
        calls.append(sim_ms)
        woken.set()
        if ran.is_set() or len(calls) >= 20:
            raise StopIteration("enough")

    t = threading.Thread(target=other)
    t.start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000)
    try:
        with pytest.raises(StopIteration):
            ns3flux.run(long_scenario(), progress=progress)
    finally:
        sys.setswitchinterval(interval)
        woken.set()
        t.join(60)
    assert ran.is_set() and len(calls) < 20, f"{len(calls)} progress calls"


def test_progress_function_is_called():
    """A progress function receives (sim_ms, wall_s, eta_s) with simulated
    and wall-clock time not going backwards."""
    calls = []

    def progress(sim_ms, wall_s, eta_s):
        calls.append((sim_ms, wall_s, eta_s))
        if len(calls) >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ns3flux.run(long_scenario(), progress=progress)
    assert len(calls) == 3
    for (s0, w0, _), (s1, w1, _) in zip(calls, calls[1:]):
        assert s1 >= s0 and w1 >= w0


def test_progress_bar(small, capsys):
    """progress=True draws a bar (tqdm, on stderr) and changes nothing in
    the results."""
    a = strip_wall(ns3flux.run(small, progress=True))
    assert "ns3flux" in capsys.readouterr().err
    assert a == strip_wall(ns3flux.run(small))


def test_sigint_stops_a_run_and_the_next_run_is_clean(small):
    """Ctrl-C (SIGINT) during a long run without a progress function raises
    KeyboardInterrupt at the run's next progress report (the runner reports
    twice a second), not when the run ends, and the next run gives the same
    results as before: the interrupted simulation was stopped and ns-3
    reset."""
    # A shell that starts the tests in the background ignores SIGINT for its
    # children; restore Python's handler, as an interactive session has it.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    before = strip_wall(ns3flux.run(small))
    # Left alone, this run would last minutes.
    scenario = ns3flux.variant(long_scenario(), stop_ms=2000)
    sent = []
    timer = threading.Timer(1.0, lambda: (sent.append(time.monotonic()),
                                          os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ns3flux.run(scenario)
        raised = time.monotonic()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert sent, "the run ended before the signal"
    # A generous bound: the reaction is expected within 0.5 s.
    assert raised - sent[0] < 10, f"KeyboardInterrupt {raised - sent[0]:.1f} s after SIGINT"
    assert strip_wall(ns3flux.run(small)) == before


def test_exception_in_progress_function_stops_the_run(small):
    """An exception raised by the progress function stops the run and is
    re-raised as it is."""
    class Stop(Exception):
        pass

    def progress(*args):
        raise Stop("from progress")

    with pytest.raises(Stop, match="from progress"):
        ns3flux.run(long_scenario(), progress=progress)


def test_no_run_from_inside_a_run():
    """Starting a run from a progress function is refused with
    RuntimeError (it would deadlock), which stops the outer run."""
    def progress(*args):
        ns3flux.run(SMALL)

    with pytest.raises(RuntimeError, match="inside a run"):
        ns3flux.run(long_scenario(), progress=progress)


def test_runs_in_threads_take_turns(small):
    """Runs started from several threads at once are serialised and each
    gives the results of a run on its own."""
    expected = strip_wall(ns3flux.run(small, records=False))
    out = [None] * 3

    def target(i):
        out[i] = strip_wall(ns3flux.run(small, records=False))

    threads = [threading.Thread(target=target, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [expected] * 3


# Two 8-rank jobs of one iteration each on a 4:1 oversubscribed leaf-spine,
# beside five 6-to-1 bursts, with a safety stop 20 times the run's simulated
# length. Progress comes every 0.5 s of wall-clock time, so the run must last
# several seconds on a fast machine too (6 s on an idle 2-core machine)
# for the middle half to hold enough reports.
ETA_SCENARIO = {
    "seed": 1,
    "stop_ms": 4000,
    "topology": {"kind": "leaf-spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 4,
                 "fabric_gbps": 50},
    "jobs": [
        {"name": "a", "ranks": 8, "placement": "spread", "bytes": 144000000, "compute_ms": 1,
         "iterations": 1},
        {"name": "b", "ranks": 8, "placement": "spread", "bytes": 108000000, "compute_ms": 2,
         "iterations": 1},
    ],
    "background": [{"name": "burst", "pattern": "incast", "receiver": 0,
                    "senders": [5, 6, 7, 9, 10, 11], "bytes": 1000000, "repeat": 5,
                    "interval_ms": 3}],
}


def test_eta_mid_run_is_within_2x_of_the_time_left():
    """The ETA reported in the middle 70 % of a run (by wall-clock time) is
    within a factor 2 of the wall-clock time the run actually had left (the
    median over those reports, as other work on the machine changes the
    run's speed): it comes from the traffic delivered against the traffic
    known up front. The former estimate, wall time x (1 - f) / f with f the
    larger of the share of iterations done and of stop_ms reached, is far
    off on this run (each job has one iteration, and stop_ms is 20 times the
    simulated run), which the test checks too, so that it could not pass
    with it."""
    calls = []

    def progress(sim_ms, wall_s, eta_s):
        calls.append((sim_ms, wall_s, eta_s))

    r = ns3flux.run(ETA_SCENARIO, progress=progress)
    assert r["sim"]["stop_reason"] == "completed"
    total = r["sim"]["wall_s"]
    # when each job's one iteration ended, for the former estimate
    ends = [j["jct_ms"] for j in r["jobs"]]
    # (reports come every half second of wall time: the middle 70 % of a
    # run of a few seconds on a fast machine still holds three)
    mid = [c for c in calls if 0.15 * total <= c[1] <= 0.85 * total]
    assert len(mid) >= 3, f"too few reports in the middle of a {total:.1f} s run: {calls}"
    ratios = []
    former = []
    for sim_ms, wall_s, eta_s in mid:
        left = total - wall_s
        assert eta_s >= 0, f"ETA unknown at {sim_ms} ms"
        ratios.append(eta_s / left)
        frac = max(sim_ms / ETA_SCENARIO["stop_ms"], sum(e <= sim_ms for e in ends) / len(ends))
        former.append(wall_s * (1 - frac) / frac / left)
    print(f"run {total:.1f} s; ETA / time left in the middle 70 %: "
          + " ".join(f"{x:.2f}" for x in ratios) + "; former: "
          + " ".join(f"{x:.0f}" for x in former))
    assert 0.5 <= statistics.median(ratios) <= 2, ratios
    assert not 0.5 <= statistics.median(former) <= 2, former


def test_eta_of_a_replayed_workload_counts_all_its_traffic():
    """A job replaying a workload (llama-7b-rail: an AICB model of several
    collectives and groups on servers of 8 GPUs, bytes scaled to a run of
    several seconds) counts the RDMA bytes of every collective and transfer
    (not what GPUs of a server exchange over their interconnect, which
    costs the simulation next to nothing): the median ETA in the middle
    half of the run is within a factor 2 of the time left (it counted the
    largest collective's queue pairs only, against all its bytes, and read
    600-770 s through a run of 97 s at full size)."""
    folder = os.path.join(ROOT, "examples", "scenarios")
    with open(os.path.join(folder, "llama-7b-rail.json")) as f:
        s = json.load(f)
    aicb = os.path.normpath(os.path.join(folder, s["jobs"][0]["workload"]["aicb"]))
    s = ns3flux.variant(s, {"jobs[0].workload.bytes_scale": 0.1, "jobs[0].workload.aicb": aicb})
    calls = []
    r = ns3flux.run(s, progress=lambda sim_ms, wall_s, eta_s: calls.append((wall_s, eta_s)))
    assert r["sim"]["stop_reason"] == "completed"
    total = r["sim"]["wall_s"]
    mid = [(w, e) for w, e in calls if 0.25 * total <= w <= 0.75 * total]
    assert len(mid) >= 3, f"too few reports in the middle of a {total:.1f} s run: {calls}"
    ratios = [e / (total - w) for w, e in mid]
    assert 0.5 <= statistics.median(ratios) <= 2, ratios
