"""Scenarios as Python dicts: building, loading, validating, varying.

A scenario is the JSON object that ``flux-run`` reads (see the scenario keys
in the documentation), held as a plain ``dict``. The builders below return
such dicts; nothing here knows the valid keys or ranges: validation is done
by the C++ scenario parser, the same code ``flux-run`` uses, so that a
scenario is accepted or refused with the same message everywhere.
"""

import copy
import json
import math
import os
import re
from collections.abc import Mapping

from . import _ns3flux
from .errors import ScenarioError

__all__ = [
    "scenario",
    "leaf_spine",
    "rail_optimized",
    "servers",
    "fat_tree",
    "dumbbell",
    "ring",
    "job",
    "cdf_tenant",
    "incast",
    "load_scenario",
    "validate",
    "variant",
    "prepare",
]


def _join(path, key):
    """The path of a key, written as the C++ parser writes it: keys that
    would make the path ambiguous or not one line in brackets as JSON
    strings (``jobs[0]["a.b"]``)."""
    key = str(key)
    if not key or any(c in '.[]": ' or ord(c) < 0x20 or ord(c) == 0x7F for c in key):
        return f"{path}[{json.dumps(key, ensure_ascii=False)}]"
    return f"{path}.{key}" if path else key


# Deepest nesting of dicts and lists accepted, as the C++ parser accepts it.
MAX_NESTING = 64


def to_plain(value, path="", depth=0):
    """A deep copy of ``value`` made only of dict, list, str, int, float,
    bool and None, ready for JSON.

    Tuples become lists, NumPy scalars and arrays their Python values,
    ``os.PathLike`` values strings. Raises ScenarioError naming the field for
    a non-string key, a NaN or infinite number, a value JSON cannot hold, or
    dicts and lists nested more than MAX_NESTING levels deep.
    """
    if depth >= MAX_NESTING and isinstance(value, (Mapping, list, tuple)):
        raise ScenarioError(
            path or "scenario",
            f"nested too deeply (more than {MAX_NESTING} levels of objects and arrays)")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ScenarioError(path or "scenario", f"expected a finite number, got {value!r}")
        return float(value)
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ScenarioError(
                    _join(path, key), f"keys must be strings, got {type(key).__name__} {key!r}"
                )
            out[key] = to_plain(item, _join(path, key), depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [to_plain(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if type(value).__module__ == "numpy":
        # NumPy scalars (item) and arrays (tolist), without importing NumPy.
        if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
            return to_plain(value.item(), path, depth)
        if hasattr(value, "tolist"):
            return to_plain(value.tolist(), path, depth)
    raise ScenarioError(
        path or "scenario", f"a {type(value).__name__} cannot be written in a scenario (JSON)"
    )


def load_scenario(path):
    """Read a scenario file into a dict (not validated).

    Syntax errors and duplicate keys raise ScenarioError with the message
    ``flux-run`` prints for the same file.
    """
    return json.loads(_ns3flux.read_scenario(os.fspath(path)))


def prepare(scenario, policy=None, seed=None, base_dir=None, seeds=None):
    """The scenario dict and the folder its relative paths are relative to.

    ``scenario`` is a dict or the path of a scenario file (relative paths in
    it are then relative to its folder, as for ``flux-run``). ``policy`` and
    ``seed`` replace ``scheduler.policy`` and ``seed`` like ``flux-run
    --policy/--seed``; ``seeds`` (a dict with any of "ecmp", "background",
    "placement") sets those keys of the scenario's ``seeds`` object like
    ``flux-run --seed-ecmp/--seed-background/--seed-placement``.
    Returns ``(dict, absolute base folder)``; the dict is
    a new plain copy (see to_plain), not yet validated.
    """
    if isinstance(scenario, (str, os.PathLike)):
        path = os.fspath(scenario)
        data = load_scenario(path)
        folder = os.path.dirname(path) or "."
        if base_dir is not None:
            folder = os.fspath(base_dir)
    elif isinstance(scenario, Mapping):
        data = to_plain(scenario)
        folder = os.fspath(base_dir) if base_dir is not None else os.getcwd()
    else:
        raise TypeError(
            f"a scenario is a dict or the path of a scenario file, not {type(scenario).__name__}"
        )
    if isinstance(data, dict):
        if policy is not None:
            scheduler = data.get("scheduler")
            if scheduler is None:
                scheduler = data["scheduler"] = {}
            if isinstance(scheduler, dict):
                scheduler["policy"] = to_plain(policy, "scheduler.policy")
        if seed is not None:
            data["seed"] = to_plain(seed, "seed")
        if seeds:
            if not isinstance(seeds, Mapping):
                raise TypeError("seeds: expected a dict such as {\"ecmp\": 2}")
            target = data.get("seeds")
            if target is None:
                target = data["seeds"] = {}
            if isinstance(target, dict):
                for source, value in seeds.items():
                    target[source] = to_plain(value, f"seeds.{source}")
    return data, os.path.abspath(folder)


def to_text(data):
    """The JSON text handed to the runner (key order kept)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def canonical_text(data):
    """The JSON text with sorted keys: equal for equal scenarios."""
    return json.dumps(
        data, ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=True
    )


def validate(scenario, policy=None, seed=None, base_dir=None):
    """Validate a scenario as ``flux-run`` would, without running it.

    Returns a summary of the resolved scenario: ``policy``, ``seed``,
    ``stop_ms``, ``topology`` (kind), ``hosts`` (host count),
    ``hosts_per_leaf``, ``jobs`` (name, ranks, placement, resolved ``hosts``,
    bytes, iterations) and ``background`` entries. Raises ScenarioError
    naming the first offending field.
    """
    data, folder = prepare(scenario, policy, seed, base_dir)
    return _ns3flux.validate(to_text(data), folder)


def _options(kwargs):
    return {key: to_plain(value, key) for key, value in kwargs.items() if value is not None}


def leaf_spine(leaves=None, spines=None, hosts_per_leaf=None, **options):
    """A ``topology`` object of kind ``leaf-spine``. A key left at None is
    left out, so that the runner's default applies (doc/scenario.rst).

    ``options`` are further topology keys: host_gbps, fabric_gbps,
    link_delay_us, buffer_mb.
    """
    return {"kind": "leaf-spine",
            **_options(dict(leaves=leaves, spines=spines, hosts_per_leaf=hosts_per_leaf,
                            **options))}


def servers(gpus=8, nics=8, **options):
    """A topology's ``servers`` object: the hosts grouped into servers of
    ``nics`` hosts (NICs) and ``gpus`` GPUs (ranks); GPU g of a server uses
    its NIC g * nics // gpus.

    ``options`` are further server keys: nvlink_gbps, nvlink_latency_us
    (the intra-server link; defaults 3600 and 0.05).
    """
    return {"gpus": gpus, "nics": nics, **_options(options)}


def rail_optimized(rail_groups=None, servers_per_rail_group=None, spines=None, gpus=8, nics=8,
                   **options):
    """A ``topology`` object of kind ``rail-optimized``: ``rail_groups``
    groups of ``servers_per_rail_group`` servers of ``gpus`` GPUs and
    ``nics`` NICs; NIC i of every server of a group sits on the group's
    leaf i (rail i), every leaf is joined to every spine. Hosts are numbered
    by server: host = server * nics + NIC.

    ``options`` are further topology keys: host_gbps, fabric_gbps,
    link_delay_us, buffer_mb; nvlink_gbps and nvlink_latency_us go to the
    ``servers`` object. A key left at None takes the runner's default; the
    servers are eight-GPU, eight-NIC ones unless told otherwise.
    """
    server_keys = {k: options.pop(k) for k in ("nvlink_gbps", "nvlink_latency_us")
                   if k in options}
    return {
        "kind": "rail-optimized",
        "servers": servers(gpus, nics, **server_keys),
        **_options(dict(rail_groups=rail_groups, servers_per_rail_group=servers_per_rail_group,
                        spines=spines, **options)),
    }


def fat_tree(k=None, **options):
    """A ``topology`` object of kind ``fat-tree`` (k pods, k^3/4 hosts); a
    key left at None takes the runner's default."""
    return {"kind": "fat-tree", **_options(dict(k=k, **options))}


def dumbbell(hosts_per_side=None, **options):
    """A ``topology`` object of kind ``dumbbell``; a key left at None takes
    the runner's default."""
    return {"kind": "dumbbell", **_options(dict(hosts_per_side=hosts_per_side, **options))}


def ring(switches=None, hosts_per_switch=None, **options):
    """A ``topology`` object of kind ``ring``: switch i joined to switch
    i+1 and the last to the first, ``hosts_per_switch`` hosts under each; a
    key left at None takes the runner's default."""
    return {"kind": "ring",
            **_options(dict(switches=switches, hosts_per_switch=hosts_per_switch, **options))}


def job(name, ranks, bytes, iterations, **options):
    """A ``jobs`` entry: a training job of ``ranks`` ranks allreducing
    ``bytes`` gradient bytes per iteration, ``iterations`` times.

    ``options`` are further job keys: gpus, hosts or placement, compute_ms,
    start_ms, chunk_bytes, buckets, priority, collective.
    """
    return {
        "name": name,
        "ranks": ranks,
        "bytes": bytes,
        "iterations": iterations,
        **_options(options),
    }


def workload_job(name, iterations=1, *, aicb=None, chakra=None, comm_groups=None,
                 bytes_scale=None, **options):
    """A ``jobs`` entry that replays a workload file: an AICB model file
    (``aicb``) or a Chakra trace (``chakra``: "DIR/PREFIX" of its
    PREFIX.<rank>.et files, with an optional ``comm_groups`` file), its
    transfers scaled by ``bytes_scale`` (default 1), ``iterations`` times.

    ``options`` are further job keys: ranks, gpus, hosts or placement,
    start_ms, priority, algorithm, channels.
    """
    if (aicb is None) == (chakra is None):
        raise ValueError("workload_job: give one of aicb and chakra")
    workload = {"aicb": aicb} if aicb is not None else {"chakra": chakra}
    if comm_groups is not None:
        workload["comm_groups"] = comm_groups
    if bytes_scale is not None:
        workload["bytes_scale"] = bytes_scale
    return {"name": name, "workload": workload, "iterations": iterations, **_options(options)}


def cdf_tenant(name, cdf, load, hosts=None, **options):
    """A ``background`` entry of Poisson flows with sizes drawn from ``cdf``
    (a builtin name such as "websearch", or a CDF file path) at ``load``
    (fraction of host_gbps) among ``hosts`` (default: all hosts).

    ``options``: start_ms, stop_ms, priority.
    """
    entry = {"name": name, "cdf": cdf, "load": load}
    if hosts is not None:
        entry["hosts"] = hosts
    entry.update(_options(options))
    return entry


def incast(name, senders, receiver, bytes, **options):
    """A ``background`` entry: ``senders`` each send ``bytes`` to
    ``receiver`` at once. ``options``: start_ms, repeat, interval_ms,
    priority.
    """
    return {
        "name": name,
        "pattern": "incast",
        "senders": senders,
        "receiver": receiver,
        "bytes": bytes,
        **_options(options),
    }


def scenario(topology, jobs=(), background=(), *, check=True, **options):
    """A scenario dict from its parts, validated unless ``check`` is False.

    ``options`` are further top-level keys: seed, stop_ms, description,
    transport, scheduler (or ``policy="fifo"`` as a shorthand for
    ``scheduler={"policy": "fifo"}``), ns3_defaults. Raises ScenarioError
    naming the offending field.
    """
    policy = options.pop("policy", None)
    data = {"topology": topology}
    data.update(options)
    if policy is not None:
        data.setdefault("scheduler", {})
        data["scheduler"] = dict(data["scheduler"], policy=policy)
    data["jobs"] = list(jobs)
    data["background"] = list(background)
    data = to_plain(data)
    if check:
        validate(data)
    return data


# a key, an index, or a key as a JSON string in brackets (the runner writes
# keys with dots, brackets, quotes or spaces so: ns3_defaults["ns3::X::Y"])
_PATH_TOKEN = re.compile(r'\.?([^.\[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


class _Key(str):
    """A key written in brackets: never a list index."""


def _path_tokens(path):
    tokens = []
    pos = 0
    while pos < len(path):
        m = _PATH_TOKEN.match(path, pos)
        if not m or (pos == 0 and path.startswith(".")):
            raise ValueError(f"not a field path: {path!r} (e.g. 'jobs[0].bytes')")
        if m.group(3) is not None:
            tokens.append(_Key(json.loads(m.group(3))))
        else:
            tokens.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not tokens:
        raise ValueError("empty field path")
    return tokens


def variant(base, changes=None, **top_level):
    """A deep copy of the scenario dict ``base`` with some fields replaced.

    ``changes`` maps field paths, written as in error messages
    (``"jobs[0].bytes"``, ``"topology.fabric_gbps"``,
    ``'ns3_defaults["ns3::RdmaNic::AckInterval"]'``) or as ``flux-run
    --set`` also takes them (``"jobs.0.bytes"``), to new values; missing
    objects on the way are created. Keyword arguments replace top-level
    keys (``seed=3``). The result is not validated.
    """
    data = copy.deepcopy(to_plain(base))

    def index(node, token):
        # "jobs.0": a number inside a list is an index
        if isinstance(token, _Key):
            return str(token)
        return int(token) if isinstance(node, list) and str(token).isdigit() else token

    for path, value in {**(changes or {}), **top_level}.items():
        tokens = _path_tokens(path)
        node = data
        for i, token in enumerate(tokens[:-1]):
            nxt = tokens[i + 1]
            token = index(node, token)
            if isinstance(token, int):
                if not isinstance(node, list) or token >= len(node):
                    raise KeyError(f"{path}: no element {token}")
                node = node[token]
            else:
                if not isinstance(node, dict):
                    raise KeyError(f"{path}: {token!r} is not in an object")
                if token not in node:
                    node[token] = [] if isinstance(nxt, int) else {}
                node = node[token]
        last = index(node, tokens[-1])
        if isinstance(last, int):
            if not isinstance(node, list) or last >= len(node):
                raise KeyError(f"{path}: no element {last}")
        elif not isinstance(node, dict):
            raise KeyError(f"{path}: {last!r} is not in an object")
        node[last] = to_plain(value, path)
    return data
