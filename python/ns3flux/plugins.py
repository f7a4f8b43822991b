"""Libraries of one's own scheduling policies and congestion controls,
loaded into the running process as ``flux-run --plugin`` loads them.

    ns3flux.load_plugin("build/libstagger.so")   # {"policies": ["stagger"], ...}
    ns3flux.run("x.json", policy="stagger")

The libraries of ``FLUX_PLUGINS`` (paths separated by ``:``) are loaded when
ns3flux is imported. A sweep's worker processes load the same libraries
before their runs; the results cache keys on them too.
"""

import os

from . import _ns3flux

__all__ = ["load_plugin", "loaded_plugins"]


def load_plugin(path):
    """Load a shared library whose classes register policies
    (``FLUX_REGISTER_POLICY``) or congestion controls (``FLUX_REGISTER_CC``)
    and return what it registered: a dict with ``path`` (absolute),
    ``policies`` and ``congestion_controls``. Loading a library again
    registers nothing more; once it has changed on disk, it is refused (a
    process loads a library once). Raises ScenarioError (field
    ``load_plugin``) for a file that is missing or no library, one built
    against another flux (an undefined symbol), a name already taken, or a
    class that is no policy or congestion control."""
    return _ns3flux.load_plugin(os.fspath(path))


def loaded_plugins():
    """The plugin libraries loaded so far, in order (absolute paths).
    Raises ScenarioError (field ``plugin``) when one has changed on disk
    since it was loaded: this process runs the build it loaded, and cannot
    load another; sweeps and the cache would mix the two."""
    return list(_ns3flux.loaded_plugins())


def load_in_worker(paths):
    """Load the parent's plugins in a worker process (the sweep's)."""
    for path in paths:
        _ns3flux.load_plugin(path)


def _load_environment():
    if os.environ.get("FLUX_PLUGINS"):
        _ns3flux.load_plugins_from_environment()
