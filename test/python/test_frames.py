"""DataFrames of a run agree with the results JSON and CSV files of
flux-run for the same scenario."""

import json

import pandas as pd
import pytest

import ns3flux
from ns3flux import frames


@pytest.fixture(scope="module")
def both(tmp_path_factory, flux_run):
    """(results of ns3flux.run, results file of flux-run as a dict, the same
    loaded with its CSV files, the results file's path) for the small
    scenario."""
    from conftest import SMALL

    folder = tmp_path_factory.mktemp("frames")
    path = folder / "small.json"
    path.write_text(json.dumps(SMALL))
    out = folder / "small-results.json"
    proc = flux_run(path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    with open(out) as f:
        raw = json.load(f)
    return ns3flux.run(SMALL), raw, ns3flux.load_results(out), out


def test_csv_files_read_by_pandas_agree(both):
    """The iterations, phases and flows tables hold the values of flux-run's
    CSV files as pandas reads them."""
    res, _, _, out = both
    stem = str(out)[: -len(".json")]
    for name in ("iterations", "phases", "flows"):
        text_cols = {"job": str, "tenant": str}
        csv = pd.read_csv(f"{stem}-{name}.csv", keep_default_na=False, na_values=[""],
                          dtype={k: v for k, v in text_cols.items()})
        df = frames.table(res, name).drop(columns=["policy", "seed"])
        assert list(df.columns) == list(csv.columns)
        assert len(df) == len(csv) > 0
        pd.testing.assert_frame_equal(df, csv, check_dtype=False, check_exact=True, obj=name)


@pytest.mark.parametrize("source", ["ns3flux.run", "flux-run files"])
def test_shapes_and_values_match_the_json(both, source):
    """Rows per table follow flux-run's results JSON (one per job,
    iteration, phase, flow, tenant, busiest link) and values are the
    JSON's, for the tables built from ns3flux.run and for those built from
    flux-run's files: each side is checked against the file, not against
    the other side."""
    res_run, raw, loaded, _ = both
    res = res_run if source == "ns3flux.run" else loaded
    jobs = frames.jobs(res)
    assert jobs.shape[0] == len(raw["jobs"])
    assert jobs["job"].tolist() == [j["name"] for j in raw["jobs"]]
    assert jobs["jct_ms"].tolist() == [j["jct_ms"] for j in raw["jobs"]]
    assert jobs["phase_p99_ms"].tolist() == [j["phase_ms"]["p99"] for j in raw["jobs"]]
    assert jobs["phase_count"].tolist() == [j["phase_ms"]["count"] for j in raw["jobs"]]

    its = frames.iterations(res)
    assert its["iteration_ms"].tolist() == [x for j in raw["jobs"] for x in j["iteration_ms"]]

    ph = frames.phases(res)
    assert len(ph) == sum(j["phase_ms"]["count"] for j in raw["jobs"])
    for j in raw["jobs"]:
        d = ph.loc[ph["job"] == j["name"], "duration_ms"]
        assert d.max() == j["phase_ms"]["max"]

    fl = frames.flows(res)
    assert len(fl) == raw["flows"]["count"]
    assert set(fl["tenant"]) == set(raw["flows"]["tenants"])

    runs = frames.runs(res)
    assert runs.shape[0] == 1
    row = runs.iloc[0]
    assert row["policy"] == raw["policy"] and row["seed"] == raw["seed"]
    assert row["pfc_pauses"] == raw["network"]["pfc_pauses"]
    assert row["events"] == raw["sim"]["events"]
    assert set(frames.TABLES) >= {"jobs", "iterations", "phases", "flows", "runs", "tenants",
                                  "links"}
    assert row["fct_slowdown_p99"] == raw["flows"]["fct_slowdown"]["p99"]

    assert len(frames.tenants(res)) == len(raw["flows"]["tenants"])
    assert frames.links(res)["link"].tolist() == [
        l["link"] for l in raw["network"]["busiest_links"]]


def test_tables_need_records(both):
    """Without records, phases() and flows() say how to get them;
    iterations() falls back on the JSON."""
    _, raw, loaded, _ = both
    with pytest.raises(ValueError, match="records"):
        frames.phases(raw)
    with pytest.raises(ValueError, match="records"):
        frames.flows(raw)
    pd.testing.assert_frame_equal(frames.iterations(raw), frames.iterations(loaded))
