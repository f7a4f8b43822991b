"""A results cache keyed by scenario hash.

An entry holds the results of one run. Its key is the SHA-256 of

- the scenario as canonical JSON (sorted keys), after the policy and seed
  overrides, so equal scenarios share an entry whatever their key order;
- the content of every file the scenario reads, relative to its folder: CDF
  files (a ``cdf`` value that is an existing file), the HPCC simulator's
  files and the jobs' workload files (Chakra rank files and comm groups,
  AICB files);
- the engine: the content of the loaded flux libraries and of the
  extension module, so that a rebuilt simulator never serves old results.

Entries are JSON files ``<folder>/<key[:2]>/<key>.json``, written atomically
(a temporary file renamed into place), so several processes may share a
folder. ``sim.wall_s`` in a cached entry is that of the run that made it.

The default folder is ``$NS3FLUX_CACHE`` when set, else
``~/.cache/ns3flux``.
"""

import glob
import hashlib
import json
import os
import tempfile

from . import _ns3flux
from .scenario import canonical_text

__all__ = ["Cache", "default_cache_dir", "engine_id", "resolve"]

_FORMAT = 1
_engine = None


def default_cache_dir():
    """``$NS3FLUX_CACHE`` when set, else ``~/.cache/ns3flux``."""
    env = os.environ.get("NS3FLUX_CACHE")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ns3flux")


def _file_digest(path, h):
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)


def engine_id():
    """A digest of the simulator code in use (the flux libraries, the
    plugins loaded and the extension module), computed once per process and
    again after a plugin is loaded."""
    global _engine
    _ns3flux.loaded_plugins()  # (raises if a plugin changed since it was loaded)
    paths = (*_ns3flux.library_paths(), getattr(_ns3flux, "__file__", ""))
    if _engine is None or _engine[0] != paths:
        h = hashlib.sha256()
        for path in paths:
            h.update(os.path.basename(path).encode() + b"\0")
            try:
                _file_digest(path, h)
            except OSError:
                h.update(b"unreadable:" + os.path.abspath(path).encode())
        _engine = (paths, h.hexdigest())
    return _engine[1]


def _input_files(data, base_dir):
    """Paths of the files a scenario reads that exist: its CDF files, the
    HPCC simulator's files and the workload files."""
    out = []
    background = data.get("background") if isinstance(data, dict) else None
    if isinstance(background, list):
        for entry in background:
            if isinstance(entry, dict) and isinstance(entry.get("cdf"), str):
                path = os.path.join(base_dir, entry["cdf"])
                if os.path.isfile(path):
                    out.append(path)
    out += _hpcc_files(data, base_dir)
    out += _workload_files(data, base_dir)
    return out


def _workload_files(data, base_dir):
    """Paths of the workload files the jobs replay (a Chakra trace's rank
    files and comm groups, an AICB file), those that exist."""
    out = []
    jobs = data.get("jobs") if isinstance(data, dict) else None
    for job in jobs if isinstance(jobs, list) else []:
        workload = job.get("workload") if isinstance(job, dict) else None
        if not isinstance(workload, dict):
            continue
        chakra = workload.get("chakra")
        if isinstance(chakra, str) and chakra:
            prefix = os.path.join(base_dir, chakra)
            for suffix in (".*.et", ".*.et.gz"):
                out += sorted(glob.glob(glob.escape(prefix) + suffix))
        for key in ("aicb", "comm_groups"):
            name = workload.get(key)
            if isinstance(name, str) and os.path.isfile(os.path.join(base_dir, name)):
                out.append(os.path.join(base_dir, name))
    return out


def _hpcc_files(data, base_dir):
    """Paths of the HPCC simulator's files a scenario names ("hpcc"), those
    its configuration names included, that exist."""
    hpcc = data.get("hpcc") if isinstance(data, dict) else None
    if not isinstance(hpcc, dict):
        return []
    out = []
    for key in ("config", "topology", "flows"):
        name = hpcc.get(key)
        if isinstance(name, str) and os.path.isfile(os.path.join(base_dir, name)):
            out.append(os.path.join(base_dir, name))
    config = hpcc.get("config")
    if isinstance(config, str) and os.path.isfile(os.path.join(base_dir, config)):
        folder = os.path.dirname(os.path.join(base_dir, config))
        with open(os.path.join(base_dir, config), encoding="utf-8", errors="replace") as f:
            for line in f:
                words = line.split()
                if len(words) == 2 and words[0] in ("TOPOLOGY_FILE", "FLOW_FILE"):
                    for where in (folder, os.path.join(folder, ".."), base_dir):
                        path = os.path.join(where, words[1])
                        if os.path.isfile(path):
                            out.append(path)
                            break
    return out


class Cache:
    """Results of runs on disk, by scenario hash.

    ``Cache()`` uses default_cache_dir(); ``Cache(path)`` a folder of one's
    own (created on first write).
    """

    def __init__(self, path=None):
        self.path = os.path.abspath(os.fspath(path) if path is not None else default_cache_dir())

    def __repr__(self):
        return f"Cache({self.path!r})"

    def key(self, data, base_dir, backend="packet"):
        """The key of a prepared scenario dict (see the module comment) run
        by a backend ("packet" or "flow")."""
        h = hashlib.sha256()
        h.update(f"ns3flux-cache-{_FORMAT}\0".encode())
        h.update(engine_id().encode() + b"\0")
        if backend != "packet":
            # (packet keys stay as they were before there were backends)
            h.update(f"backend-{backend}\0".encode())
        h.update(canonical_text(data).encode())
        for path in _input_files(data, base_dir):
            h.update(b"\0cdf\0")
            _file_digest(path, h)
        return h.hexdigest()

    def _file(self, key):
        return os.path.join(self.path, key[:2], key + ".json")

    def get(self, key, records=True):
        """The cached results, or None. With ``records`` an entry without
        the per-row records counts as missing."""
        try:
            with open(self._file(key), encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
            return None
        results = entry.get("results")
        if not isinstance(results, dict) or (records and "records" not in results):
            return None
        return results

    def put(self, key, results, scenario=None):
        """Store results (atomically); errors writing the cache are ignored
        with a warning, as the results themselves are fine."""
        target = self._file(key)
        entry = {"format": _FORMAT, "scenario": scenario, "results": results}
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(entry, f, ensure_ascii=False, separators=(",", ":"))
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError as e:
            import warnings

            warnings.warn(f"ns3flux: cannot write the results cache {self.path}: {e}")

    def __len__(self):
        n = 0
        if os.path.isdir(self.path):
            for sub in os.listdir(self.path):
                folder = os.path.join(self.path, sub)
                if len(sub) == 2 and os.path.isdir(folder):
                    n += sum(1 for name in os.listdir(folder) if name.endswith(".json")
                             and not name.startswith("."))
        return n

    def clear(self):
        """Remove every entry."""
        if not os.path.isdir(self.path):
            return
        for sub in os.listdir(self.path):
            folder = os.path.join(self.path, sub)
            if len(sub) == 2 and os.path.isdir(folder):
                for name in os.listdir(folder):
                    if name.endswith(".json"):
                        os.unlink(os.path.join(folder, name))
                try:
                    os.rmdir(folder)
                except OSError:
                    pass


def resolve(cache):
    """A Cache from the ``cache`` argument of run() and sweep(): None or
    False (no cache), True (the default folder), a folder path, or a Cache."""
    if cache is None or cache is False:
        return None
    if cache is True:
        return Cache()
    if isinstance(cache, Cache):
        return cache
    if isinstance(cache, (str, os.PathLike)):
        return Cache(cache)
    raise TypeError(f"cache: expected None, a bool, a folder path or a Cache, not {cache!r}")
