"""Running one scenario, and reading flux-run's results files."""

import csv
import json
import math
import os
import sys

from . import _ns3flux
from .errors import ScenarioError
from .cache import resolve as _resolve_cache
from .scenario import prepare, to_text

__all__ = ["run", "policies", "load_results"]


def _not_known(kind, name, known):
    """The message for a name none of known: the nearest suggested, as
    flux-run does (within two edits)."""
    near = _ns3flux.nearest_name(name, known)
    guess = f"did you mean {near!r}?; " if near else ""
    return f"{kind} {name!r} is not known ({guess}known: {', '.join(known)})"


def congestion_controls():
    """The registered congestion controls (values of ``transport.cc``):
    dcqcn, hpcc, none, then the others by name."""
    return list(_ns3flux.congestion_controls())


def congestion_control_keys(name):
    """The ``transport.<name>`` keys of a congestion control: a list of
    dicts with key, attribute, type, default, range and help (empty for
    one with no keys, such as ``none``). Raises ValueError for a name that
    is not registered, as ``flux-run --describe-cc`` exits 2."""
    known = list(_ns3flux.congestion_controls())
    if name not in known:
        raise ValueError(_not_known("congestion control", name, known))
    return list(_ns3flux.congestion_control_keys(name))


def policy_keys(name):
    """The scheduler keys of a policy, as congestion_control_keys gives a
    congestion control's (empty for one with none, such as ``fifo``).
    Raises ValueError for a name that is not registered, as ``flux-run
    --describe-policy`` exits 2."""
    known = policies()
    if name not in known:
        raise ValueError(_not_known("policy", name, known))
    return list(_ns3flux.policy_keys(name))


def policies():
    """The scheduling policies that can be run (values of
    ``scheduler.policy``), in the order the documentation lists them."""
    return list(_ns3flux.policies())


class _TextBar:
    """A progress line on stderr, for when tqdm is not installed."""

    def __init__(self, desc):
        self.desc = desc
        self.shown = False

    def update(self, percent, note):
        sys.stderr.write(f"\r{self.desc}: {percent:5.1f}% {note}".ljust(78))
        sys.stderr.flush()
        self.shown = True

    def close(self):
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _in_notebook():
    shell = sys.modules.get("IPython")
    try:
        ip = shell.get_ipython() if shell else None
    except Exception:
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def tqdm_class():
    """The tqdm class for a progress bar: the notebook widget in a Jupyter
    kernel with ipywidgets, else the text bar; None without tqdm."""
    try:
        from tqdm.std import tqdm
    except ImportError:
        return None
    if _in_notebook():
        try:
            import ipywidgets  # noqa: F401
            from tqdm.notebook import tqdm as notebook_tqdm

            return notebook_tqdm
        except ImportError:
            pass
    return tqdm


class ProgressBar:
    """Progress of one run, from the runner's (sim_ms, wall_s, eta_s)
    reports: percent done (from the ETA), simulated and wall-clock time."""

    def __init__(self, desc="ns3flux"):
        cls = tqdm_class()
        if cls is None:
            self._bar = _TextBar(desc)
            self._tqdm = False
        else:
            self._bar = cls(total=100.0, desc=desc, unit="%",
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {postfix}")
            self._tqdm = True

    def __call__(self, sim_ms, wall_s, eta_s):
        percent = 100.0 * wall_s / (wall_s + eta_s) if eta_s >= 0 and wall_s > 0 else 0.0
        eta = f"ETA {eta_s:.0f} s" if eta_s >= 0 else "ETA unknown"
        note = f"simulated {sim_ms:.3f} ms, wall {wall_s:.1f} s, {eta}"
        if self._tqdm:
            self._bar.n = min(100.0, round(percent, 1))
            self._bar.set_postfix_str(note, refresh=False)
            self._bar.refresh()
        else:
            self._bar.update(percent, note)

    def close(self, done=False):
        if self._tqdm and done:
            self._bar.n = 100.0
            self._bar.refresh()
        self._bar.close()


def run(scenario, *, policy=None, seed=None, base_dir=None, progress=False, records=True,
        cache=None, pcap_dir=None, quiet=True, backend="packet", seeds=None, timeline=None):
    """Run one scenario and return its results dict.

    scenario: a dict, or the path of a scenario file (whose relative paths
        are relative to its folder, as for flux-run).
    policy, seed: replace ``scheduler.policy`` and ``seed``, like flux-run's
        --policy and --seed.
    seeds: a dict with any of "ecmp", "background" and "placement": one
        random source's seed in place of ``seed`` (the scenario's ``seeds``
        object; flux-run's --seed-ecmp, --seed-background, --seed-placement).
    base_dir: the folder that relative paths of a dict scenario (CDF files)
        are relative to; default: the current folder.
    progress: True for a progress bar (tqdm), or a function called with
        (sim_ms, wall_s, eta_s) a few times per second of wall-clock time;
        an exception it raises stops the run and is re-raised.
    records: add the key "records" with the rows of flux-run's CSV files
        (iterations, phases, flows), column by column; frames.phases() and
        frames.flows() need them.
    cache: None or False (default: always run), True (the default cache
        folder), a folder, or a ns3flux.Cache: return the cached results of
        the same scenario if present, else run and store them.
    pcap_dir: write one Ethernet pcap per host NIC into this folder.
    quiet: False lets the runner enable its ns-3 logging, as flux-run does
        without --quiet.
    backend: "packet" (default: every frame through devices and switches)
        or "flow" (flux-run --backend flow: messages as fluid flows on the
        same ECMP paths, rates by max-min fair sharing with strict priority
        between classes; the same results without the fields a fluid model
        cannot know, which "backend_limits" lists).
    timeline: a file path: also write the run's timeline there, the Chrome
        trace-event file of flux-run --timeline (open it in ui.perfetto.dev
        or chrome://tracing; scripts/flux-plot timeline draws it). The
        scenario's name in it is the scenario file's stem ("scenario" for a
        dict). A run with a timeline always runs: the cache gives results,
        not timelines (its results are still stored).

    Returns a dict with the keys and values of flux-run's results file for
    the same scenario and seed (all but sim.wall_s are reproducible), plus
    "records" unless records=False. Raises ScenarioError (a ValueError)
    naming the offending field for a bad scenario, RunError when the run
    fails, and KeyboardInterrupt when interrupted (the simulation is stopped
    and ns-3 is reset). The GIL is released while simulating; runs in one process
    take turns (ns-3 has one simulator per process).
    """
    _check_backend(backend, pcap_dir)
    records, quiet = _flag("records", records), _flag("quiet", quiet)
    data, folder = prepare(scenario, policy, seed, base_dir, seeds)
    timeline_path, name = _timeline_target(timeline, scenario)
    store = _resolve_cache(cache)
    key = None
    if store is not None:
        key = store.key(data, folder, backend)
        hit = None if timeline_path else store.get(key, records)
        if hit is not None:
            if not records:
                hit.pop("records", None)
            return hit
    pcap = ""
    if pcap_dir is not None:
        pcap = os.path.abspath(os.fspath(pcap_dir))
        if backend == "packet":
            # (the flow backend refuses a pcap folder: nothing is created)
            try:
                os.makedirs(pcap, exist_ok=True)
            except OSError as e:
                raise ScenarioError("pcap_dir", f'cannot create "{pcap}": {e.strerror}') from None
    bar = None
    callback = None
    if progress is True:
        bar = ProgressBar()
        callback = bar
    elif callable(progress):
        callback = progress
    elif progress not in (False, None):
        raise TypeError("progress: expected a bool or a function (sim_ms, wall_s, eta_s)")
    done = False
    try:
        results = _ns3flux.run(to_text(data), folder, callback, quiet, records, pcap, backend,
                               timeline_path, name)
        done = True
    except ScenarioError as e:
        if e.field == "--pcap":  # (flux-run's name for it)
            raise ScenarioError("pcap_dir", e.problem) from None
        raise
    finally:
        if bar is not None:
            bar.close(done)
    if store is not None:
        store.put(key, results, data)
    return results


def _flag(name, value):
    """value as a bool; TypeError naming the argument for anything but
    True, False (or NumPy's) and 0 or 1."""
    if isinstance(value, (str, bytes)) or value not in (True, False):
        raise TypeError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


def _check_backend(backend, pcap_dir):
    """Raise ScenarioError naming the argument for a backend that is not
    "packet" or "flow", or a pcap folder with the flow backend."""
    if backend not in ("packet", "flow"):
        raise ScenarioError("backend", f'expected "packet" or "flow", got {backend!r}')
    if pcap_dir is not None and backend == "flow":
        raise ScenarioError("pcap_dir", "the flow backend sends no packets to capture")


def _timeline_target(timeline, scenario):
    """The absolute path of the timeline file ("" for none) and the
    scenario's name in it; raises ScenarioError naming "timeline" for a
    path that cannot be written, before anything runs."""
    if timeline is None:
        return "", ""
    path = os.path.abspath(os.fspath(timeline))
    problem = _ns3flux.output_path_problem(path)
    if problem:
        raise ScenarioError("timeline", problem)
    if isinstance(scenario, (str, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fspath(scenario)))[0]
    else:
        name = "scenario"
    return path, name


def _csv_value(text, kind):
    if kind is str:
        return text
    if text == "":
        return None
    return kind(text)


_CSV = {
    "iterations": (("job", str), ("iteration", int), ("iteration_ms", float)),
    "phases": (("job", str), ("iteration", int), ("step", int), ("start_ms", float),
               ("duration_ms", float)),
    "flows": (("tenant", str), ("src", int), ("dst", int), ("size_bytes", int),
              ("start_ms", float), ("fct_us", float), ("ideal_fct_us", float),
              ("slowdown", float)),
}


def _stem(path):
    return path[:-5] if path.endswith(".json") and len(path) > 5 else path


def load_results(path, records=True):
    """A flux-run results file as the dict ns3flux.run() returns.

    With ``records`` and the three CSV files beside it
    (``<stem>-iterations.csv``, ``-phases.csv``, ``-flows.csv``), the dict
    gets the same "records" as ns3flux.run(records=True) would give.
    """
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    if not records:
        return results
    stem = _stem(path)
    recs = {}
    for name, columns in _CSV.items():
        csv_path = f"{stem}-{name}.csv"
        if not os.path.exists(csv_path):
            return results
        with open(csv_path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            expected = [c for c, _ in columns]
            if header != expected:
                raise ValueError(f"{csv_path}: expected the columns {expected}, got {header}")
            cols = {c: [] for c in expected}
            for row in reader:
                for (c, kind), text in zip(columns, row):
                    value = _csv_value(text, kind)
                    if isinstance(value, float) and not math.isfinite(value):
                        value = None
                    cols[c].append(value)
        recs[name] = cols
    results["records"] = recs
    return results
