"""ns3flux: run flux scenarios (ns-3, RoCEv2 over a PFC/ECN fabric,
multi-tenant training jobs) from Python.

    import ns3flux
    results = ns3flux.run("examples/scenarios/x.json")   # or a dict
    ns3flux.frames.jobs(results)                          # pandas DataFrame
    df = ns3flux.sweep(scenario, seeds=[1, 2, 3])         # every policy
    b = ns3flux.bound("examples/scenarios/x.json")        # lower bound, best schedule
    ns3flux.gap_share(flow_results, b)                    # share of the fifo -> best gap

run() returns the results of flux-run's results file as a dict; sweep()
runs scenarios x policies x seeds in worker processes or on a Dask cluster
and returns one DataFrame; results are cached by scenario hash.
"""

from . import _ns3flux
from . import fluid, frames, hpcc, traces
from .bound import bound, gap_share
from .cache import Cache, default_cache_dir
from .plugins import _load_environment, load_plugin, loaded_plugins
from .errors import RunError, ScenarioError
from .runner import (congestion_control_keys, congestion_controls, load_results, policies,
                     policy_keys, run)
from .scenario import (
    cdf_tenant,
    dumbbell,
    fat_tree,
    incast,
    job,
    leaf_spine,
    load_scenario,
    rail_optimized,
    ring,
    scenario,
    servers,
    validate,
    variant,
    workload_job,
)
from .schema import schema, schema_errors
from .sweep import Run, sweep, sweep_runs

__version__ = getattr(_ns3flux, "__version__", "0")

_load_environment()  # FLUX_PLUGINS

__all__ = [
    "Cache",
    "Run",
    "RunError",
    "ScenarioError",
    "bound",
    "cdf_tenant",
    "congestion_control_keys",
    "congestion_controls",
    "default_cache_dir",
    "dumbbell",
    "fat_tree",
    "fluid",
    "frames",
    "gap_share",
    "hpcc",
    "incast",
    "job",
    "leaf_spine",
    "load_plugin",
    "load_results",
    "load_scenario",
    "loaded_plugins",
    "policies",
    "policy_keys",
    "rail_optimized",
    "ring",
    "run",
    "scenario",
    "schema",
    "schema_errors",
    "servers",
    "sweep",
    "sweep_runs",
    "traces",
    "validate",
    "variant",
    "workload_job",
]
