"""Sweeps: scenarios x policies x seeds, in worker processes or on Dask."""

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterable, Mapping

import pandas as pd

from . import _ns3flux, frames
from .cache import resolve as _resolve_cache
from .plugins import load_in_worker, loaded_plugins
from .runner import _check_backend
from .runner import policies as _policies
from .runner import tqdm_class
from .scenario import prepare, to_text

__all__ = ["sweep", "sweep_runs", "Run"]


class Run:
    """One run of a sweep: its labels, prepared scenario and results."""

    __slots__ = ("scenario", "policy", "seed", "data", "base_dir", "key", "results", "cached",
                 "backend")

    def __init__(self, scenario, policy, seed, data, base_dir):
        self.scenario = scenario  #: label of the scenario
        self.policy = policy      #: policy asked for (None: the scenario's own)
        self.seed = seed          #: seed asked for (None: the scenario's own)
        self.data = data          #: the scenario dict that runs
        self.base_dir = base_dir  #: folder of its relative paths
        self.key = None           #: cache key, when a cache is used
        self.results = None       #: the results dict
        self.cached = False       #: whether the results came from the cache
        self.backend = "packet"   #: the model that runs: "packet" or "flow"

    def __repr__(self):
        return (f"Run(scenario={self.scenario!r}, policy={self.policy!r}, seed={self.seed!r}, "
                f"backend={self.backend!r}, cached={self.cached})")


def run_task(text, base_dir, records=True, backend="packet", plugins=()):
    """Run one scenario given as JSON text (in a worker process), with the
    plugin libraries of the process that asked for it loaded."""
    load_in_worker(plugins)
    return _ns3flux.run(text, base_dir, None, True, records, "", backend)


def _labelled(scenarios):
    """(label, scenario) pairs from the scenarios argument of sweep()."""
    if isinstance(scenarios, Mapping):
        # {label: scenario} when every value is a scenario (a dict with a
        # topology or an HPCC import, or a file), else one scenario: labels
        # may be named like scenario keys ("faults", "hpcc")
        def scenario(s):
            return isinstance(s, Mapping) and (isinstance(s.get("topology"), Mapping) or (
                isinstance(s.get("hpcc"), Mapping) and not scenario(s["hpcc"])))

        def one(s):
            return isinstance(s, (str, os.PathLike)) or scenario(s)
        if scenario(scenarios) or not scenarios or not all(one(s) for s in scenarios.values()):
            return [("0", scenarios)]
        return [(str(label), s) for label, s in scenarios.items()]
    if isinstance(scenarios, (str, os.PathLike)):
        scenarios = [scenarios]
    out = []
    for i, s in enumerate(scenarios):
        if isinstance(s, (str, os.PathLike)):
            label = os.path.splitext(os.path.basename(os.fspath(s)))[0]
        else:
            label = str(i)
        out.append((label, s))
    labels = [label for label, _ in out]
    if len(set(labels)) != len(labels):
        out = [(str(i), s) for i, (_, s) in enumerate(out)]
    return out


def _as_list(value, default):
    if value is None:
        return list(default)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return [value]
    return list(value)


class _ProgressCall:
    """A progress "bar" that calls a function with (runs done, runs in all)
    after each run, and once at the start."""

    def __init__(self, function, total, initial):
        self.function, self.total, self.done = function, total, initial
        function(initial, total)

    def update(self, n):
        self.done += n
        self.function(self.done, self.total)

    def close(self):
        pass


def _progress_bar(progress, total, initial):
    if callable(progress):
        return _ProgressCall(progress, total, initial)
    if progress is None:  # on where a person watches: stderr is a terminal
        progress = sys.stderr.isatty()
    if not isinstance(progress, bool):
        raise TypeError("progress: expected True, False, None or a function (done, total)")
    if not progress:
        return None
    cls = tqdm_class()
    if cls is None:
        return None
    return cls(total=total, initial=initial, desc="ns3flux sweep", unit="run")


@contextlib.contextmanager
def _caller_script_hidden():
    """While workers start: hide the calling script from them. A spawned
    worker runs the main module again before its first task unless told
    nothing of it; a script that calls sweep() at its top level, without
    ``if __name__ == "__main__":``, would then start a sweep in every worker
    (BrokenProcessPool). The workers need nothing from it: their task is
    ns3flux's own function and a scenario's text."""
    main = sys.modules.get("__main__")
    saved = {k: main.__dict__[k] for k in ("__file__", "__spec__")
             if main is not None and k in main.__dict__}
    try:
        if "__file__" in saved:
            del main.__file__
        if "__spec__" in saved:
            main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)


def _run_local(todo, max_workers, bar):
    """Run in worker processes (spawned: a fresh interpreter each, so no
    state of the calling process, threads or a half-done run, is shared)."""
    workers = max(1, min(max_workers or os.cpu_count() or 1, len(todo)))
    ctx = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        # the pool starts its workers as tasks are submitted
        with _caller_script_hidden():
            plugins = loaded_plugins()
            futures = {pool.submit(run_task, to_text(r.data), r.base_dir, True, r.backend,
                                   plugins): r
                       for r in todo}
        for future in cf.as_completed(futures):
            futures[future].results = future.result()
            if bar is not None:
                bar.update(1)
    except BaseException:
        # Stop at once: pending runs are dropped, running ones killed.
        for p in list(getattr(pool, "_processes", {}).values()):
            p.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_dask(todo, client, bar):
    from distributed import as_completed

    futures = {}
    plugins = loaded_plugins()
    for r in todo:
        future = client.submit(run_task, to_text(r.data), r.base_dir, True, r.backend,
                               plugins, pure=False)
        futures[future] = r
    try:
        for future in as_completed(list(futures)):
            futures[future].results = future.result()
            if bar is not None:
                bar.update(1)
    except BaseException:
        client.cancel(list(futures))
        raise


def _run_here(todo, bar):
    for r in todo:
        r.results = run_task(to_text(r.data), r.base_dir, True, r.backend)
        if bar is not None:
            bar.update(1)


def sweep_runs(scenarios, policies=None, seeds=None, *, client=None, max_workers=None,
               cache=True, progress=None, base_dir=None, backend="packet"):
    """Run every scenario with every policy and seed; a list of Run.

    Arguments as for sweep(). The list is in the order scenarios x policies
    x seeds, whatever order the runs finish in.
    """
    _check_backend(backend, None)
    policies = _as_list(policies, _policies())
    seeds = _as_list(seeds, [None])
    if not policies or not seeds:
        raise ValueError(f"{'policies' if not policies else 'seeds'}: an empty list runs nothing")
    if max_workers is not None and (isinstance(max_workers, bool)
                                    or not isinstance(max_workers, int) or max_workers < 0):
        raise ValueError(f"max_workers: expected a number of processes (0: run here), "
                         f"got {max_workers!r}")
    runs = []
    for label, s in _labelled(scenarios):
        for policy in policies:
            for seed in seeds:
                data, folder = prepare(s, policy, seed, base_dir)
                run = Run(label, policy, seed, data, folder)
                run.backend = backend
                runs.append(run)
    # Validate everything before running anything.
    for r in runs:
        try:
            _ns3flux.validate(to_text(r.data), r.base_dir)
        except ValueError as e:
            if hasattr(e, "add_note"):
                e.add_note(f"in the sweep run scenario={r.scenario!r} policy={r.policy!r} "
                           f"seed={r.seed!r}")
            raise

    store = _resolve_cache(cache)
    todo = []
    for r in runs:
        if store is not None:
            r.key = store.key(r.data, r.base_dir, r.backend)
            r.results = store.get(r.key)
            r.cached = r.results is not None
        if r.results is None:
            todo.append(r)

    bar = _progress_bar(progress, len(runs), len(runs) - len(todo))
    try:
        if todo:
            if client is not None:
                _run_dask(todo, client, bar)
            elif max_workers == 0:
                _run_here(todo, bar)
            else:
                _run_local(todo, max_workers, bar)
    finally:
        if bar is not None:
            bar.close()
        # what finished is kept, also when the sweep is interrupted or fails
        if store is not None:
            for r in todo:
                if r.results is not None:
                    store.put(r.key, r.results, r.data)
    return runs


def sweep(scenarios, policies=None, seeds=None, *, table="jobs", client=None, max_workers=None,
          cache=True, progress=None, base_dir=None, backend="packet"):
    """Run scenarios x policies x seeds; one tidy DataFrame.

    scenarios: one scenario (a dict with a "topology" key, or a path), a
        list of them (labelled by file stem, or by position for dicts), or a
        dict {label: scenario}.
    policies: policy names; default: every available policy
        (ns3flux.policies()), so that new policies join the sweep by
        themselves.
    seeds: seeds; default: each scenario's own seed.
    table: which table of each run (see ns3flux.frames.TABLES): "runs",
        "jobs" (default), "iterations", "phases", "flows", "tenants", "links".
    client: a dask.distributed Client: run on its workers (each worker
        process runs one simulation at a time; ns3flux must be importable
        there). Without it the runs go to local worker processes.
    max_workers: number of local worker processes (default: the number of
        CPUs); 0 runs everything in this process, one after the other.
    cache: True (default: the default cache folder), False/None, a folder or
        a ns3flux.Cache; cached runs are not run again.
    progress: a progress bar over the runs (tqdm's, on stderr); None, the
        default: when stderr is a terminal; or a function called with
        (runs done, runs in all) at the start and after each run (cached
        runs count as done).
    base_dir: folder of relative paths in dict scenarios (default: the
        current folder).
    backend: "packet" (default) or "flow" (the flow-level model: seconds
        instead of minutes, without what a fluid cannot know; see
        ns3flux.run).

    Returns the concatenation of the table of every run, with the columns
    ``scenario``, ``policy`` and ``seed`` first (``policy`` and ``seed`` are
    those that ran), in the order scenarios x policies x seeds.
    Every scenario is validated before anything runs (ScenarioError).
    """
    if table not in frames.TABLES:
        raise ValueError(f"unknown table {table!r}; one of {', '.join(frames.TABLES)}")
    runs = sweep_runs(scenarios, policies, seeds, client=client, max_workers=max_workers,
                      cache=cache, progress=progress, base_dir=base_dir, backend=backend)
    parts = []
    for r in runs:
        df = frames.table(r.results, table)
        df.insert(0, "scenario", r.scenario)
        parts.append(df)
    if not parts:
        return pd.DataFrame()
    return pd.concat(parts, ignore_index=True)
