"""The scenario schema: every key of a scenario with its type, range,
default, unit and meaning, as JSON Schema (draft 07).

The schema is the file ``scenario/config/scenario.schema.json``, compiled
into the runner, which reads from it the keys of every section, the names
a key accepts and the range of every numeric key. ``schema()`` returns that
compiled-in copy, so it is always the one the runner checks against.

``schema_errors()`` checks a scenario against it with ``jsonschema``
(Debian's python3-jsonschema) and lists every problem at once, where
``validate()`` stops at the first. Keys that the schema cannot name, being
the registered attributes of a policy (``scheduler``), a congestion control
(``transport.<cc>``) or ns-3 (``ns3_defaults``), are checked one by one by
the runner's own readers. The checks that relate keys to each
other (hosts within the topology, ranks within the GPUs, times before
``stop_ms``) are the runner's alone, so a scenario without schema errors
can still be refused by ``validate()``.
"""

import functools
import json
import os

from . import _ns3flux
from .errors import ScenarioError
from .scenario import _join, load_scenario, to_plain

__all__ = ["schema", "schema_errors"]


@functools.lru_cache(maxsize=1)
def _schema_text():
    return _ns3flux.schema_text()


def schema():
    """The scenario schema, as a dict (a fresh copy)."""
    return json.loads(_schema_text())


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft7Validator(schema())


def _path(parts):
    path = ""
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else _join(path, part)
    return path


def schema_errors(scenario):
    """Every place where a scenario dict breaks the schema: a list of
    ``(path, message)`` with paths written as the runner writes them
    (``jobs[0].ranks``), sorted by path; empty when there is none.
    Integral floats count as integers (``5e7``), as the runner reads them
    (jsonschema's draft 07 type check). Like ``validate()`` it takes a
    scenario file's path too, and tuples and NumPy values as their JSON.
    """
    if isinstance(scenario, (str, os.PathLike)):
        scenario = load_scenario(scenario)
    try:
        scenario = to_plain(scenario)
    except ScenarioError as e:
        return [(e.field, e.problem)]
    errors = []
    for error in _validator().iter_errors(scenario):
        parts = list(error.absolute_path)
        if error.validator == "additionalProperties":
            known = set(error.schema.get("properties", {}))
            for key in error.instance:
                if key not in known:
                    errors.append((_path(parts + [key]), "unknown key"))
            continue
        if error.validator in ("pattern", "minLength") and error.instance == "":
            if (_path(parts), "must not be empty") not in errors:
                errors.append((_path(parts), "must not be empty"))
            continue
        if error.validator == "pattern" and "x-pattern" in error.schema:
            allowed = error.schema["x-pattern"]
            errors.append((_path(parts), f"{json.dumps(error.instance)} may contain only {allowed}"))
            continue
        errors.append((_path(parts), error.message))
    # keys whose section is registered attributes: the runner's own words
    try:
        text = json.dumps(scenario, allow_nan=False)
    except (TypeError, ValueError):
        text = None  # not JSON: validate() names the value
    if isinstance(scenario, dict) and text is not None:
        seen = {path for path, _ in errors}
        errors += [e for e in _ns3flux.registered_key_problems(text) if e[0] not in seen]
    return sorted(errors, key=lambda e: e[0])

