"""Results as pandas DataFrames.

Every function takes one results dict (from ns3flux.run(), or
ns3flux.load_results() of a flux-run results file) and returns a DataFrame
whose first columns are ``policy`` and ``seed``, so that frames of several
runs concatenate into one tidy table (ns3flux.sweep() does that and adds a
``scenario`` column in front).

=============  ======================  =====================================
function       one row per             source
=============  ======================  =====================================
runs()         run                     the results' flows, packet_latency_us,
                                       network and sim objects
jobs()         job                     jobs[]
iterations()   completed iteration     records (``-iterations.csv``), else
                                       jobs[].iteration_ms
phases()       completed phase         records (``-phases.csv``)
flows()        finished flow           records (``-flows.csv``)
tenants()      tenant                  flows.tenants
links()        busiest link direction  network.busiest_links
=============  ======================  =====================================

Missing statistics (JSON null, empty CSV fields) are NaN.
"""

import math

import pandas as pd

__all__ = ["runs", "jobs", "iterations", "phases", "flows", "tenants", "links", "table", "TABLES"]

_KEYS = ["policy", "seed"]


def _num(x):
    return math.nan if x is None else x


def _frame(results, columns, rows, dtypes):
    df = pd.DataFrame(rows, columns=columns) if rows else pd.DataFrame(
        {c: [] for c in columns}
    )
    df.insert(0, "seed", results.get("seed"))
    df.insert(0, "policy", results.get("policy"))
    types = {"policy": "object", "seed": "int64", **dtypes}
    return df.astype(types)


def runs(results):
    """One row: the run-wide measurements. At flow level the counters a
    fluid cannot know (those the results list in ``backend_limits``) are
    <NA>. What the policy counted of its own (``scheduler.counters``)
    follows as ``counter_<name>`` columns."""
    flows_ = results.get("flows", {})
    slow = flows_.get("fct_slowdown", {})
    lat = results.get("packet_latency_us", {})
    net = results.get("network", {})
    sim = results.get("sim", {})
    job_list = results.get("jobs", [])
    # a job that did not finish has no JCT: the mean and max are then unknown
    # (NaN), not those of the jobs that finished
    jcts = [j.get("jct_ms") for j in job_list]
    jcts = jcts if None not in jcts else []
    row = {
        "jobs": len(job_list),
        "jobs_completed": sum(1 for j in job_list if j.get("completed")),
        "jobs_failed": sum(1 for j in job_list if j.get("status") == "failed"),
        "jct_ms_mean": sum(jcts) / len(jcts) if jcts else math.nan,
        "jct_ms_max": max(jcts) if jcts else math.nan,
        "flows": flows_.get("count", 0),
        "fct_slowdown_p50": _num(slow.get("p50")),
        "fct_slowdown_p99": _num(slow.get("p99")),
        "fct_slowdown_p999": _num(slow.get("p999")),
        "latency_us_count": lat.get("count", 0),
        "latency_us_mean": _num(lat.get("mean")),
        "latency_us_p50": _num(lat.get("p50")),
        "latency_us_p99": _num(lat.get("p99")),
        "latency_us_p999": _num(lat.get("p999")),
        "latency_us_max": _num(lat.get("max")),
        "drops": net.get("drops", 0),
        "pfc_pauses": net.get("pfc_pauses", 0),
        "ecn_marks": net.get("ecn_marks", 0),
        "cnps": net.get("cnps", 0),
        "retransmissions": net.get("retransmissions", 0),
        "retransmissions_spurious": net.get("retransmissions_spurious", 0),
        "timeouts": net.get("timeouts", 0),
        "qp_errors": net.get("qp_errors", 0),
        "link_losses": net.get("link_losses", 0),
        "simulated_ms": _num(sim.get("simulated_ms")),
        "wall_s": _num(sim.get("wall_s")),
        "events": sim.get("events", 0),
        "stop_reason": sim.get("stop_reason"),
    }
    # What the backend cannot know (results "backend_limits", the flow
    # level's PFC pauses, ECN marks, ...) is missing: <NA>, never 0.
    limits = set(results.get("backend_limits", []))
    if "packet_latency_us" in limits:
        row["latency_us_count"] = None
    for key in ("drops", "pfc_pauses", "ecn_marks", "cnps", "retransmissions",
                "retransmissions_spurious", "timeouts", "qp_errors", "link_losses"):
        if "network." + key in limits:
            row[key] = None
    ints = ["jobs", "jobs_completed", "jobs_failed", "flows", "latency_us_count", "drops",
            "pfc_pauses", "ecn_marks", "cnps", "retransmissions", "retransmissions_spurious",
            "timeouts", "qp_errors", "link_losses", "events"]
    dtypes = {c: ("int64" if c in ints else "float64") for c in row}
    for c in ints:
        if row[c] is None:
            dtypes[c] = "Int64"  # pandas' nullable integers
    dtypes["stop_reason"] = "object"
    for name, count in results.get("scheduler", {}).get("counters", {}).items():
        row["counter_" + name] = count
        dtypes["counter_" + name] = "int64"
    return _frame(results, list(row), [list(row.values())], dtypes)


_JOB_COLUMNS = {
    "job": "object",
    "completed": "bool",
    "status": "object",
    "iterations": "int64",
    "jct_ms": "float64",
    "iteration_ms_mean": "float64",
    "iteration_ms_max": "float64",
    "phase_count": "int64",
    "phase_p50_ms": "float64",
    "phase_p99_ms": "float64",
    "phase_max_ms": "float64",
    "retransmissions": "int64",
    "retransmissions_spurious": "int64",
    "latency_us_p50": "float64",
    "latency_us_p99": "float64",
    "latency_us_max": "float64",
}


def _latency(entry):
    """p50, p99 and max of an entry's ``packet_latency_us`` (NaN without)."""
    lat = entry.get("packet_latency_us", {})
    return [_num(lat.get("p50")), _num(lat.get("p99")), _num(lat.get("max"))]


def jobs(results):
    """One row per job: completion, JCT, iteration and phase statistics,
    the latency of the data packets it received (NaN at flow level)."""
    rows = []
    for j in results.get("jobs", []):
        its = [x for x in j.get("iteration_ms", []) if x is not None]
        ph = j.get("phase_ms", {})
        rows.append([
            j["name"],
            bool(j.get("completed", False)),
            j.get("status", "completed" if j.get("completed") else "unfinished"),
            j.get("iterations", len(its)),
            _num(j.get("jct_ms")),
            sum(its) / len(its) if its else math.nan,
            max(its) if its else math.nan,
            ph.get("count", 0),
            _num(ph.get("p50")),
            _num(ph.get("p99")),
            _num(ph.get("max")),
            j.get("retransmissions", 0),
            j.get("retransmissions_spurious", 0),
            *_latency(j),
        ])
    dtypes = dict(_JOB_COLUMNS)
    limits = set(results.get("backend_limits", []))
    for key in ("retransmissions", "retransmissions_spurious"):
        if "jobs[]." + key in limits:  # unknown at flow level: <NA>, never 0
            dtypes[key] = "Int64"
            column = list(_JOB_COLUMNS).index(key)
            for row in rows:
                row[column] = None
    return _frame(results, list(_JOB_COLUMNS), rows, dtypes)


def _records(results, name, columns):
    records = results.get("records")
    if not isinstance(records, dict) or name not in records:
        raise ValueError(
            f"these results have no per-{name[:-1]} records: run with "
            "ns3flux.run(..., records=True), or load a results file with "
            "ns3flux.load_results() next to its CSV files"
        )
    cols = records[name]
    rows = list(zip(*(cols[c] for c in columns)))
    return [[_num(v) for v in row] for row in rows]


_ITERATION_COLUMNS = {"job": "object", "iteration": "int64", "iteration_ms": "float64"}


def iterations(results):
    """One row per completed iteration of every job (``-iterations.csv``)."""
    if isinstance(results.get("records"), dict) and "iterations" in results["records"]:
        rows = _records(results, "iterations", list(_ITERATION_COLUMNS))
    else:
        rows = [
            [j["name"], i, _num(ms)]
            for j in results.get("jobs", [])
            for i, ms in enumerate(j.get("iteration_ms", []))
        ]
    return _frame(results, list(_ITERATION_COLUMNS), rows, _ITERATION_COLUMNS)


_PHASE_COLUMNS = {
    "job": "object",
    "iteration": "int64",
    "step": "int64",
    "start_ms": "float64",
    "duration_ms": "float64",
}


def phases(results):
    """One row per completed phase (ring step) of every job
    (``-phases.csv``). Steps 0..N-2 of an iteration are reduce-scatter,
    N-1..2N-3 all-gather, for a job of N ranks."""
    rows = _records(results, "phases", list(_PHASE_COLUMNS))
    return _frame(results, list(_PHASE_COLUMNS), rows, _PHASE_COLUMNS)


_FLOW_COLUMNS = {
    "tenant": "object",
    "src": "int64",
    "dst": "int64",
    "size_bytes": "int64",
    "start_ms": "float64",
    "fct_us": "float64",
    "ideal_fct_us": "float64",
    "slowdown": "float64",
}


def flows(results):
    """One row per finished flow (``-flows.csv``): FCT, ideal FCT and
    slowdown (NaN when the ideal FCT is not positive)."""
    rows = _records(results, "flows", list(_FLOW_COLUMNS))
    return _frame(results, list(_FLOW_COLUMNS), rows, _FLOW_COLUMNS)


_TENANT_COLUMNS = {
    "tenant": "object",
    "flows": "int64",
    "fct_slowdown_p50": "float64",
    "fct_slowdown_p99": "float64",
    "fct_slowdown_p999": "float64",
    "latency_us_p50": "float64",
    "latency_us_p99": "float64",
    "latency_us_max": "float64",
}


def tenants(results):
    """One row per tenant: count and FCT slowdown percentiles of its
    finished flows (``flows.tenants``; NaN without any), the latency of the
    data packets it received (NaN at flow level)."""
    rows = []
    for name, t in results.get("flows", {}).get("tenants", {}).items():
        s = t.get("fct_slowdown", {})
        rows.append([name, t.get("count", 0), _num(s.get("p50")), _num(s.get("p99")),
                     _num(s.get("p999")), *_latency(t)])
    return _frame(results, list(_TENANT_COLUMNS), rows, _TENANT_COLUMNS)


_LINK_COLUMNS = {"link": "object", "utilization": "float64"}


def links(results):
    """The busiest link directions, most utilised first
    (``network.busiest_links``)."""
    rows = [[l["link"], _num(l.get("utilization"))]
            for l in results.get("network", {}).get("busiest_links", [])]
    return _frame(results, list(_LINK_COLUMNS), rows, _LINK_COLUMNS)


TABLES = {
    "runs": runs,
    "jobs": jobs,
    "iterations": iterations,
    "phases": phases,
    "flows": flows,
    "tenants": tenants,
    "links": links,
}


def table(results, name):
    """The table ``name`` (a key of TABLES) of one results dict."""
    try:
        fn = TABLES[name]
    except KeyError:
        raise ValueError(f"unknown table {name!r}; one of {', '.join(TABLES)}") from None
    return fn(results)
