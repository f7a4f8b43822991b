"""The bound and the best schedule of a scenario (flux-run --bound), and a
policy's share of the gap between fifo and that best.

    import ns3flux
    b = ns3flux.bound("examples/scenarios/contended-two-equal.json")
    b["lower_bound"]["mean_jct_ms"], b["best"]["mean_jct_ms"], b["fifo"]["mean_jct_ms"]
    r = ns3flux.run("examples/scenarios/contended-two-equal.json", policy="flux",
                    backend="flow")
    ns3flux.gap_share(r, b)          # 0: no better than fifo, 1: as good as the best

What is computed and why the lower bound holds: doc/bound.rst.
"""

import math
import sys

from . import _ns3flux
from .scenario import prepare, to_text

__all__ = ["bound", "gap_share", "mean_jct"]


def _print_progress(stage, done, total, best_ms):
    if stage == "schedule":
        # (the search may stop before its most: no ETA from the count)
        line = f"schedule {done} of at most {total}"
        if math.isfinite(best_ms):
            line += f", best mean JCT {best_ms:.3f} ms"
    else:
        line = f"{stage} {done}/{total}"
    sys.stderr.write(f"ns3flux: bound: {line}\n")
    sys.stderr.flush()


def bound(scenario, *, policy=None, seed=None, base_dir=None, progress=False, seeds=None):
    """The bound and best schedule of a scenario, as flux-run --bound writes it.

    scenario, policy, seed, base_dir, seeds: as for ns3flux.run(); the policy only
        chooses the run reported under "policy" (with its gap_share).
    progress: True for a line on stderr after every flow-level run, or a
        function called with (stage, done, total, best_ms); an exception it
        raises stops the computation and is re-raised.

    Returns the dict of the bound file: "jobs" (each alone), "lower_bound",
    "best", "fifo", "policy" and "sim". Raises ScenarioError for a bad
    scenario (or one without jobs) and RunError when a job does not
    complete alone before stop_ms.
    """
    data, folder = prepare(scenario, policy, seed, base_dir, seeds)
    if progress is True:
        callback = _print_progress
    elif callable(progress):
        callback = progress
    elif progress in (False, None):
        callback = None
    else:
        raise TypeError("progress: expected a bool or a function (stage, done, total, best_ms)")
    return _ns3flux.bound(to_text(data), folder, callback)


def mean_jct(results):
    """The mean JCT (ms) of a results dict, or None when a job did not
    complete."""
    jcts = [job.get("jct_ms") for job in results["jobs"]]
    if not jcts or any(j is None for j in jcts):
        return None
    return sum(jcts) / len(jcts)


def gap_share(results, bound, fifo=None):
    """A policy's share of the gap between fifo and the best schedule.

    results: the results dict of a run of the scenario (ns3flux.run or a
        results file) under some policy.
    bound: the bound dict of the same scenario (ns3flux.bound or a bound file).
    fifo: the results dict of the fifo run to measure from; default: the
        bound's own flow-level fifo run. Pass the packet-level fifo run when
        `results` is packet-level, so that both ends are at the same level.

    Returns (fifo - policy) / (fifo - best) of the mean JCTs: 0 for no
    better than fifo, 1 for as good as the best schedule found, above 1 for
    better than it, negative for worse than fifo. None when a job did not
    complete or the gap is below a millionth of fifo's mean JCT (no gap to
    share). Raises ValueError when the results and the bound name different
    jobs or another seed (or per-source seed, "seeds"), or when the results
    and the fifo run measured from are of
    different levels (their "backend": a packet-level run against the
    bound's flow-level fifo mixes two models).
    """
    shapes = [("results", results, "results", "run", ("jobs",)),
              ("bound", bound, "bound", "bound", ("jobs", "best", "fifo"))]
    if fifo is not None:
        shapes.append(("fifo", fifo, "results", "run", ("jobs",)))
    for name, value, kind, maker, keys in shapes:
        missing = [k for k in keys if not isinstance(value, dict) or k not in value]
        if missing:
            raise ValueError(f"{name}: expected a {kind} dict (ns3flux.{maker}()), without "
                             f"{', '.join(repr(k) for k in missing)}")
    names = [job["name"] for job in results["jobs"]]
    if names != [job["name"] for job in bound["jobs"]]:
        raise ValueError(f"the results' jobs {names} are not the bound's "
                         f"{[job['name'] for job in bound['jobs']]}")
    for name, other in (("bound", bound), ("fifo", fifo)):
        seeds = (results.get("seed"), (other or {}).get("seed"))
        if None not in seeds and seeds[0] != seeds[1]:
            raise ValueError(f"the results are of seed {seeds[0]} but the {name} of seed "
                             f"{seeds[1]}: the seed moves the paths and the arrivals")
        own, theirs = results.get("seeds") or {}, (other or {}).get("seeds") or {}
        for source in sorted(set(own) & set(theirs)):
            if own[source] != theirs[source]:
                raise ValueError(f"the results' {source} seed is {own[source]} but the {name}'s "
                                 f"{theirs[source]}: each seed moves the paths, the arrivals "
                                 "or the placement")
    level = results.get("backend")
    base_level = fifo.get("backend") if fifo is not None else bound.get("backend", "flow")
    if level is not None and base_level is not None and level != base_level:
        raise ValueError(f"the results are {level}-level but the fifo run measured from is "
                         f"{base_level}-level: pass fifo=, the {level}-level fifo run")
    policy = mean_jct(results)
    base = mean_jct(fifo) if fifo is not None else bound["fifo"]["mean_jct_ms"]
    best = bound["best"]["mean_jct_ms"]
    if policy is None or base is None or best is None or base - best <= 1e-6 * abs(base):
        return None
    share = (base - policy) / (base - best)
    # the same mean summed in another order (fifo against the bound's fifo)
    # is no gain: no "-0.00" in tables
    return 0.0 if abs(share) < 1e-9 else share
