"""Helpers shared by scripts/flux-plot and scripts/flux-evaluate: reading the
CSV files beside a results file, empirical CDFs, a grid of panels, one colour
per group, and saving a figure. Needs python3-matplotlib and python3-numpy."""

import csv
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


def save(fig, out_dir, name, written, dpi):
    """Write the figure as out_dir/name, close it and record its path."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    written.append(path)
