"""Switch ports with built-in bands (ns3::FabricSwitch::NativeEgress, the
default) give the results of the PfcPrioQueueDisc they stand in for (set
through ns3_defaults, NativeEgress false): with link faults, queue traces
and two lossless classes, and with PFC watchdogs discarding on a
deadlocked ring."""

import copy
import json
import pathlib

import pytest

from conftest import run_scenario, strip_wall

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _native(scenario, native):
    s = copy.deepcopy(scenario)
    s.setdefault("ns3_defaults", {})["ns3::FabricSwitch::NativeEgress"] = native
    return s


@pytest.mark.parametrize("path", ["test/mpi/faults-traces.json",
                                  "examples/scenarios/pfc-deadlock-ring.json",
                                  "examples/scenarios/multi-tenant.json"])
def test_native_egress_gives_the_same_results(flux_run, tmp_path, path):
    """Every result and every CSV row are the same with built-in bands as
    with the queue disc they stand in for (wall time aside)."""
    scenario = json.loads((ROOT / path).read_text())
    out_a, a = run_scenario(flux_run, tmp_path, _native(scenario, False), "disc")
    out_b, b = run_scenario(flux_run, tmp_path, scenario, "native")
    assert strip_wall(a) == strip_wall(b)
    csv_a = sorted(p.name.replace("disc-", "") for p in tmp_path.glob("disc-results-*.csv"))
    csv_b = sorted(p.name.replace("native-", "") for p in tmp_path.glob("native-results-*.csv"))
    assert csv_a and csv_a == csv_b
    for name in csv_a:
        assert (tmp_path / f"disc-{name}").read_bytes() == \
            (tmp_path / f"native-{name}").read_bytes(), name
