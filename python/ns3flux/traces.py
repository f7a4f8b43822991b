"""Time series of a run that asked for "traces": the queue pairs' sending
rates (<stem>-rates.csv) and the traced links' queues (<stem>-queues.csv),
and the measures the congestion-control validation uses on them.

    from ns3flux import traces
    t = traces.load("r.json")                 # or the results dict's stem
    m = traces.window(t, "leaf0->host0", 2000, 6000)
    m["utilization"], m["jain"], m["queue_kb"]
"""

import csv
import os

import numpy as np


class Traces:
    """The rate and queue samples of one run, as NumPy arrays."""

    def __init__(self, rates, queues):
        self.rates = rates  # dict: flow key -> (time_us array, rate_gbps array)
        self.queues = queues  # dict: link -> (time_us, queue_bytes, utilization arrays)

    def flows(self):
        """The flow keys ("owner src->dst"), in order of first sample."""
        return list(self.rates)


def _stem(path):
    return path[:-5] if path.endswith(".json") else path


def load(results_path):
    """Read the rates and queues CSV files beside a results file."""
    stem = _stem(os.fspath(results_path))
    rates = {}
    with open(stem + "-rates.csv", newline="") as f:
        for row in csv.DictReader(f):
            key = f"{row['owner']} {row['src']}->{row['dst']}"
            rates.setdefault(key, ([], []))
            rates[key][0].append(float(row["time_us"]))
            rates[key][1].append(float(row["rate_gbps"]))
    queues = {}
    with open(stem + "-queues.csv", newline="") as f:
        for row in csv.DictReader(f):
            queues.setdefault(row["link"], ([], [], []))
            queues[row["link"]][0].append(float(row["time_us"]))
            queues[row["link"]][1].append(float(row["queue_bytes"]))
            queues[row["link"]][2].append(float(row["utilization"]))
    return Traces({k: tuple(np.array(x) for x in v) for k, v in rates.items()},
                  {k: tuple(np.array(x) for x in v) for k, v in queues.items()})


def jain(values):
    """Jain's fairness index of non-negative values (1 = equal shares)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0 or not np.any(v > 0):
        return float("nan")
    return float(v.sum() ** 2 / (v.size * (v ** 2).sum()))


def window(tr, link, t0_us, t1_us):
    """Measures over [t0_us, t1_us]: the link's mean utilisation and queue,
    and Jain's index of the flows' mean rates (flows sampled in the window)."""
    t, q, u = tr.queues[link]
    sel = (t >= t0_us) & (t <= t1_us)
    means = []
    for ft, fr in tr.rates.values():
        s = (ft >= t0_us) & (ft <= t1_us)
        if np.any(s):
            means.append(fr[s].mean())
    return {
        "utilization": float(np.clip(u[sel], 0, 1).mean()) if np.any(sel) else float("nan"),
        "queue_kb": float(q[sel].mean() / 1e3) if np.any(sel) else float("nan"),
        "jain": jain(means),
        "flows": len(means),
    }


def convergence_us(time_us, rates, since_us, span_us=500.0, threshold=0.95, until_us=None):
    """When the flows' shares became fair: the first time from since_us on
    from which Jain's index of the flows' mean rates over every following
    window of span_us stays at least threshold.

    time_us: sample times; rates: array (time x flow), NaN where a flow is
    absent; windows end by until_us (default: the last sample; give the
    time the first flow ends). Returns the time after since_us, or None if
    never."""
    time_us = np.asarray(time_us)
    rates = np.asarray(rates, dtype=float)
    end = time_us[-1] if until_us is None else until_us
    starts = np.arange(since_us, end - span_us, span_us / 5)
    ok = []
    for s in starts:
        window = rates[(time_us >= s) & (time_us < s + span_us)]
        # the mean of each flow sampled in the window (no nanmean: it warns
        # about the flows without a sample there)
        n = np.sum(~np.isnan(window), axis=0)
        m = np.nansum(window, axis=0)[n > 0] / n[n > 0]
        ok.append(m.size > 1 and jain(m) >= threshold)
    ok = np.array(ok)
    if ok.size == 0:
        return None
    bad = np.where(~ok)[0]
    if bad.size == 0:
        return 0.0
    if bad[-1] + 1 >= ok.size:
        return None
    return float(starts[bad[-1] + 1] - since_us)


def rate_matrix(tr, keys=None):
    """The flows' rates on a common time grid: (times_us, array time x flow)
    with NaN where a flow has no sample."""
    keys = keys or tr.flows()
    times = sorted(set().union(*[set(tr.rates[k][0].tolist()) for k in keys]))
    index = {t: i for i, t in enumerate(times)}
    out = np.full((len(times), len(keys)), np.nan)
    for j, k in enumerate(keys):
        ft, fr = tr.rates[k]
        for t, r in zip(ft, fr):
            out[index[t], j] = r
    return np.array(times), out
