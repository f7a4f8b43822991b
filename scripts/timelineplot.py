"""The figure of a flux-run timeline (flux-run --timeline FILE.json, a Chrome
trace-event file): one row per rank of each job (at most a few ranks a job),
its compute, collective steps and time held at the scheduler's gate in
colours, and below them one row per traced link with its utilisation over
time. scripts/flux-plot timeline draws it; rows() is the data it draws.
Needs python3-matplotlib and python3-numpy."""

import collections
import json
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

# What a rank's row shows, drawn in this order (later on top), and how.
CATEGORIES = {
    "collective": {"color": "#d9d9d9", "label": "collective run", "height": 0.8},
    "compute": {"color": "#4c72b0", "label": "compute", "height": 0.6},
    "step": {"color": "#dd8452", "label": "step (reduce-scatter)", "height": 0.6},
    "gate": {"color": "#c44e52", "label": "held at the gate", "height": 0.6},
}
# All-gather steps, told from reduce-scatter ones by a darker shade.
ALL_GATHER_COLOR = "#937860"
RANK_TRACK = re.compile(r"^rank (\d+)(?: \(\d+\))?$")


def load(path):
    """The trace-event document of a timeline file."""
    with open(path) as f:
        return json.load(f)


def _ms(us):
    """A trace time (µs, to the nanosecond) in ms, without float noise."""
    return round(us / 1e3, 6)


def clip(data, to_ms):
    """rows() up to to_ms: the spans that start before it (cut there), the
    link samples up to it, and end_ms at most to_ms."""
    out = dict(data, end_ms=min(data["end_ms"], to_ms))
    out["ranks"] = [dict(r, spans=[[s, min(e, to_ms), c, n] for s, e, c, n in r["spans"]
                                   if s < to_ms]) for r in data["ranks"]]
    out["links"] = []
    for link in data["links"]:
        keep = [i for i, t in enumerate(link["t_ms"]) if t <= to_ms]
        out["links"].append(dict(link, t_ms=[link["t_ms"][i] for i in keep],
                                 utilization=[link["utilization"][i] for i in keep]))
    return out


def rows(trace, max_ranks=4, jobs=None):
    """The rows of the figure, as plain data.

    trace: the trace-event document (load()).
    max_ranks: ranks shown per job (the first ones).
    jobs: names of the jobs to show (default: all, in the file's order).

    Returns {"metadata": otherData, "end_ms": the last time shown,
    "ranks": [{"job", "rank", "spans": [[start_ms, end_ms, category, name],
    ...] by start}], "ranks_per_job": {job: ranks in the file},
    "links": [{"link", "t_ms": [...], "utilization": [...]}]}: a rank's
    spans gather all its tracks ("rank 3", "rank 3 (2)"); a link's
    utilisation holds from each time to the next.
    """
    events = trace.get("traceEvents", [])
    processes, sort_of, threads = {}, {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        if e["name"] == "process_name":
            processes[e["pid"]] = e["args"]["name"]
        elif e["name"] == "process_sort_index":
            sort_of[e["pid"]] = e["args"]["sort_index"]
        elif e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
    job_pids = [p for p in sorted(processes, key=lambda p: (sort_of.get(p, 0), p))
                if processes[p].startswith("job ")]
    if jobs:
        wanted = {f"job {j}" for j in jobs}
        job_pids = [p for p in job_pids if processes[p] in wanted]
    in_file = {}
    for (pid, _), name in threads.items():
        m = RANK_TRACK.match(name)
        if pid in job_pids and m:
            in_file[pid] = max(in_file.get(pid, 0), int(m.group(1)) + 1)
    spans = {}
    end_ns = 0.0
    for e in events:
        if e.get("ph") != "X":
            continue
        end_ns = max(end_ns, (e["ts"] + e["dur"]) * 1e3)
        m = RANK_TRACK.match(threads.get((e["pid"], e["tid"]), ""))
        if e["pid"] not in job_pids or not m or int(m.group(1)) >= max_ranks:
            continue
        key = (e["pid"], int(m.group(1)))
        spans.setdefault(key, []).append(
            [_ms(e["ts"]), _ms(e["ts"] + e["dur"]), e.get("cat", ""), e["name"]])
    out_ranks = []
    for pid in job_pids:
        for rank in sorted(r for p, r in spans if p == pid):
            out_ranks.append({"job": processes[pid][4:], "rank": rank,
                              "spans": sorted(spans[(pid, rank)], key=lambda s: (s[0], -s[1]))})
    links = {}
    for e in events:
        if e.get("ph") != "C" or processes.get(e["pid"]) != "links":
            continue
        if not e["name"].endswith(" utilization"):
            continue
        series = links.setdefault(e["name"][: -len(" utilization")], ([], []))
        series[0].append(_ms(e["ts"]))
        series[1].append(float(e["args"]["utilization"]))
        end_ns = max(end_ns, e["ts"] * 1e3)
    return {"metadata": trace.get("otherData", {}), "end_ms": end_ns / 1e6, "ranks": out_ranks,
            "ranks_per_job": {processes[p][4:]: in_file.get(p, 0) for p in job_pids},
            "links": [{"link": name, "t_ms": t, "utilization": u}
                      for name, (t, u) in links.items()]}


def plot(data, path, dpi=150, title=None, to_ms=None):
    """Draw rows() as a PNG at path (up to to_ms, default: the whole run)."""
    ranks, links = data["ranks"], data["links"]
    n_links = len(links)
    heights = [max(1.5, 0.35 * len(ranks) + 0.6)] + [0.9] * n_links
    fig, axes = plt.subplots(1 + n_links, 1, figsize=(10, sum(heights) + 0.9), sharex=True,
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    axes = list(axes.ravel())
    ax = axes[0]
    for y, row in enumerate(ranks):
        for cat, style in CATEGORIES.items():
            bars, colors = [], []
            for start, end, c, name in row["spans"]:
                if c == cat:
                    bars.append((start, max(end - start, 1e-6)))
                    colors.append(ALL_GATHER_COLOR if name.startswith("all-gather")
                                  else style["color"])
            if bars:
                h = style["height"]
                ax.broken_barh(bars, (y - h / 2, h), facecolors=colors, linewidth=0)
    ax.set_yticks(range(len(ranks)))
    ax.set_yticklabels([f"{r['job']} r{r['rank']}" for r in ranks], fontsize="small")
    ax.set_ylim(len(ranks) - 0.5, -0.5)
    shown = collections.Counter(r["job"] for r in ranks)
    hidden = [f"{job} {shown[job]} of {n}" for job, n in data.get("ranks_per_job", {}).items()
              if shown[job] < n]
    if hidden:  # say which ranks the figure leaves out
        ax.set_ylabel("ranks shown: " + ", ".join(hidden) + " (--ranks N for more)",
                      fontsize="x-small")
    handles = [Patch(color=s["color"], label=s["label"]) for s in CATEGORIES.values()]
    handles.insert(3, Patch(color=ALL_GATHER_COLOR, label="step (all-gather)"))
    ax.legend(handles=handles, fontsize="x-small", ncol=len(handles), loc="lower left",
              bbox_to_anchor=(0, 1.0), frameon=False)
    meta = data.get("metadata", {})
    ax.set_title(title or " ".join(f"{k} {meta[k]}" for k in ("scenario", "policy", "seed")
                                   if k in meta), fontsize="small", pad=22)
    for lax, link in zip(axes[1:], links):
        lax.step(link["t_ms"], link["utilization"], where="post", color="#55a868", linewidth=0.8)
        lax.set_ylim(0, 1.05)
        lax.set_ylabel(link["link"], rotation=0, ha="right", va="center", fontsize="x-small")
        lax.set_yticks([0, 1])
    axes[-1].set_xlabel("simulated time (ms)")
    axes[-1].set_xlim(0, to_ms or data["end_ms"] or 1)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
