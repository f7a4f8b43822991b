"""Ring all-reduce bus bandwidth as nccl-tests defines it (busbw = S / time
x 2(n - 1)/n): 8 ranks on one 100 Gb/s switch, 16 MB, lies within 2 % of
the alpha-beta prediction of a ring and below the payload rate of the
link. scripts/busbw draws the whole curve (doc/collectives.rst)."""

import pytest

from conftest import run_scenario

MTU = 4096
WIRE = MTU + 86
PAYLOAD_BPS = 100e9 * MTU / WIRE


def test_ring_allreduce_busbw_alpha_beta(flux_run, tmp_path):
    """16 MB over 8 ranks: 14 steps of 2 MB; busbw 12.0 GB/s, at most the
    12.24 GB/s of payload a 100 Gb/s link carries."""
    n, size = 8, 16 << 20
    s = {"seed": 1,
         "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": n,
                      "host_gbps": 100, "link_delay_us": 1},
         "transport": {"mtu_bytes": MTU},
         "jobs": [{"name": "ar", "ranks": n, "placement": "packed",
                   "collective": "ring-allreduce", "bytes": size, "compute_ms": 0,
                   "iterations": 1}]}
    _, r = run_scenario(flux_run, tmp_path, s, "ar")
    seconds = r["jobs"][0]["iteration_ms"][0] / 1e3
    busbw = size / seconds * 2 * (n - 1) / n
    alpha = 2e-6 + WIRE * 8 / 100e9  # doc/collectives.rst's cost model
    predicted = 2 * (n - 1) * (alpha + size / n * 8 / PAYLOAD_BPS)
    assert seconds == pytest.approx(predicted, rel=0.02)
    assert busbw * 8 < PAYLOAD_BPS
