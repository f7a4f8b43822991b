"""Helpers shared by scripts/flux-plot and scripts/flux-evaluate: reading the
CSV files beside a results file, empirical CDFs, a grid of panels, one colour
per group, and saving a figure. Needs python3-matplotlib and python3-numpy."""

import csv
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_csv(path):
    """The rows of a CSV file as dicts; [] when the file does not exist."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def cdf(values):
    """Sorted values and their empirical CDF, for ax.step(..., where="post")."""
    x = np.sort(np.asarray(values, dtype=float))
    return x, np.arange(1, len(x) + 1) / len(x)


def colors(groups):
    """One colour of matplotlib's cycle per group, in the order given."""
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {g: cycle[i % len(cycle)] for i, g in enumerate(groups)}


def panels(n, width, height):
    """A figure with n panels, at most three a row; returns (figure, axes)."""
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _floats(values):
    """Plotted coordinates as floats (None where not a number)."""
    out = []
    for v in np.asarray(values).ravel().tolist():
        try:
            f = float(v)
            out.append(f if np.isfinite(f) else None)
        except (TypeError, ValueError):
            out.append(None)
    return out


def figure_data(fig):
    """What a figure draws, read back from its artists: the title, and per
    visible panel its title, axis labels, lines (label, x, y) and bar
    series (label, heights). Lines whose label starts with "_" are guides
    (reference lines) and are listed as such."""
    from matplotlib.container import BarContainer

    title = fig._suptitle.get_text() if fig._suptitle is not None else ""
    axes = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.has_data():
            continue
        lines = [{"label": line.get_label(), "guide": line.get_label().startswith("_"),
                  "x": _floats(line.get_xdata()), "y": _floats(line.get_ydata())}
                 for line in ax.get_lines()]
        bars = [{"label": c.get_label(), "heights": _floats([p.get_height() for p in c.patches])}
                for c in ax.containers if isinstance(c, BarContainer)]
        axes.append({"title": ax.get_title(), "xlabel": ax.get_xlabel(),
                     "ylabel": ax.get_ylabel(), "lines": lines, "bars": bars})
    return {"title": title, "axes": axes}


#: When true, save() also writes each figure's data as <name>.json beside it.
WRITE_DATA = False


def save(fig, out_dir, name, written, dpi):
    """Write the figure as out_dir/name, close it and record its path (and,
    with WRITE_DATA, its figure_data() as JSON beside it)."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    if not fig.legends:
        fig.tight_layout()
    # (tight: a legend placed below the panels is kept in the file)
    fig.savefig(path, dpi=dpi, bbox_inches="tight" if fig.legends else None)
    if WRITE_DATA:
        with open(os.path.splitext(path)[0] + ".json", "w") as f:
            json.dump(figure_data(fig), f, indent=1)
    plt.close(fig)
    written.append(path)
