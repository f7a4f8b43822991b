"""scripts/flux-plot turns flux-run results into PNG plots."""

import copy
import json
import os
import subprocess
import sys

import pytest

from conftest import SMALL

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLUX_PLOT = os.path.join(REPO, "scripts", "flux-plot")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ALL = ["iterations.png", "phases-cdf.png", "fct-slowdown-cdf.png", "jct.png"]


def _plot(*args):
    # The script's own interpreter line names Debian's python3; run it with
    # the interpreter running the tests, which has the same packages.
    return subprocess.run([sys.executable, FLUX_PLOT, *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def _is_png(path):
    with open(path, "rb") as f:
        head = f.read(24)
    # PNG signature, then the IHDR chunk with width and height.
    width = int.from_bytes(head[16:20], "big")
    height = int.from_bytes(head[20:24], "big")
    return head[:8] == PNG_MAGIC and width >= 300 and height >= 200


@pytest.fixture(scope="module")
def small_results(tmp_path_factory, flux_run):
    """The small two-job scenario with a background tenant, run for seeds 1
    and 2; the paths of the two results files."""
    work = tmp_path_factory.mktemp("plots")
    scen = work / "small.json"
    scen.write_text(json.dumps(SMALL))
    outs = []
    for seed in (1, 2):
        out = work / f"small-seed{seed}.json"
        p = flux_run(scen, "--seed", seed, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        outs.append(out)
    return outs


def test_plots_from_one_run(small_results, tmp_path):
    """One results file gives the four PNGs (iteration times, phase-time CDF,
    FCT slowdown CDF, JCT bars) in the folder given with -o, and the script
    prints the path of each. What they draw (read back from the figures,
    --data) is the results' data: one line per job with its iteration
    times, one CDF per job over all its phases, one CDF per tenant over its
    finished flows, one bar per job at its JCT. The script is executable."""
    assert os.access(FLUX_PLOT, os.X_OK)
    out = tmp_path / "out"
    p = _plot(small_results[0], "-o", out, "--data")
    assert p.returncode == 0, p.stderr
    printed = p.stdout.split()
    for name in ALL:
        assert _is_png(out / name), name
        assert str(out / name) in printed, name
    assert sorted(f for f in os.listdir(out) if f.endswith(".png")) == sorted(ALL)
    results = json.loads(small_results[0].read_text())
    jobs = results["jobs"]
    drawn = {name: json.loads((out / name.replace(".png", ".json")).read_text())
             for name in ALL}

    panel, = drawn["iterations.png"]["axes"]
    lines = {line["label"]: line for line in panel["lines"] if not line["guide"]}
    assert set(lines) == {j["name"] for j in jobs}
    for j in jobs:
        assert lines[j["name"]]["y"] == pytest.approx(j["iteration_ms"], abs=1e-3)

    panel, = drawn["phases-cdf.png"]["axes"]
    with open(str(small_results[0]).replace(".json", "-phases.csv")) as f:
        phases = [row.split(",")[0] for row in f.read().splitlines()[1:]]
    for j in jobs:
        line, = (x for x in panel["lines"] if x["label"].startswith(j["name"] + " ("))
        assert len(line["x"]) == phases.count(j["name"]) > 0
        assert line["x"] == sorted(line["x"]) and line["y"][-1] == pytest.approx(1.0)

    panel, = drawn["fct-slowdown-cdf.png"]["axes"]
    for name, tenant in results["flows"]["tenants"].items():
        line, = (x for x in panel["lines"] if x["label"].startswith(name + " ("))
        assert len(line["x"]) == tenant["count"] > 0
        assert min(line["x"]) >= 1.0

    panel, = drawn["jct.png"]["axes"]
    bars, = panel["bars"]
    assert bars["heights"] == pytest.approx([j["jct_ms"] for j in jobs], abs=1e-6)


def test_plots_from_several_runs(small_results, tmp_path):
    """Several results files (two seeds of one policy) are plotted together
    into the same four PNGs."""
    out = tmp_path / "out"
    p = _plot(*small_results, "-o", out)
    assert p.returncode == 0, p.stderr
    for name in ALL:
        assert _is_png(out / name), name


def test_a_job_no_run_completed_has_no_bar(small_results, tmp_path, flux_run):
    """A job that no run completed gets no JCT bar (its height in --data is
    null, not a made-up 0), and the figure says why."""
    scen = copy.deepcopy(SMALL)
    scen["stop_ms"] = 1
    path = tmp_path / "short.json"
    path.write_text(json.dumps(scen))
    res = tmp_path / "short-results.json"
    assert flux_run(path, "--out", res, "--quiet").returncode == 0
    assert all(j["jct_ms"] is None for j in json.loads(res.read_text())["jobs"])
    p = _plot(res, "-o", tmp_path / "out", "--data")
    assert p.returncode == 0, p.stderr
    panel, = json.loads((tmp_path / "out" / "jct.json").read_text())["axes"]
    bars, = panel["bars"]
    assert bars["heights"] == [None] * len(SMALL["jobs"])
    assert panel["xlabel"].endswith("the mean of the runs that did (none: no bar)")


def test_default_folder_is_beside_the_results(small_results):
    """Without -o the PNGs go to a folder "plots" beside the first results
    file."""
    p = _plot(small_results[0])
    assert p.returncode == 0, p.stderr
    folder = os.path.join(os.path.dirname(str(small_results[0])), "plots")
    for name in ALL:
        assert _is_png(os.path.join(folder, name)), name


def test_no_flows_no_fct_plot(tmp_path, flux_run):
    """A run without background flows gives the job plots but no FCT
    slowdown plot (there is nothing to draw), and says so on stderr."""
    scen = copy.deepcopy(SMALL)
    scen["background"] = []
    path = tmp_path / "jobs-only.json"
    path.write_text(json.dumps(scen))
    res = tmp_path / "jobs-only-results.json"
    assert flux_run(path, "--out", res, "--quiet").returncode == 0
    p = _plot(res, "-o", tmp_path / "out")
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(tmp_path / "out")) == sorted(
        n for n in ALL if n != "fct-slowdown-cdf.png")
    assert "fct-slowdown-cdf.png" in p.stderr


def test_unreadable_results_file(tmp_path):
    """A results file that is missing, not JSON (a pcap), or JSON of another
    kind (a --bound or --timeline file) makes flux-plot exit 2 with a message
    naming the file and what it is not (and, for those two, what draws
    them), and write no PNG."""
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    bound = tmp_path / "bound.json"
    bound.write_text(json.dumps({"policy": {"name": "fifo"}, "jobs": [], "lower_bound": {}}))
    timeline = tmp_path / "timeline.json"
    timeline.write_text(json.dumps({"traceEvents": []}))
    pcap = tmp_path / "host0.pcap"
    pcap.write_bytes(bytes.fromhex("4d3cb2a102000400"))  # (a nanosecond pcap's magic)
    for path, hint in ((bad, "not a results file"), (pcap, "not a results file"),
                       (tmp_path / "missing.json", ""),
                       (bound, "run-experiment.sh --bound"), (timeline, "flux-plot timeline")):
        p = _plot(path, "-o", tmp_path / "out")
        assert p.returncode == 2
        assert str(path) in p.stderr and hint in p.stderr, p.stderr
    assert not (tmp_path / "out").exists()
