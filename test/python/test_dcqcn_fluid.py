"""DCQCN's `paper` profile in the fluid-model paper's setup (N flows into one
40 Gb/s switch port, 1 us links, 1 KB packets): the simulated bottleneck
queue settles within 30 % of ns3flux.fluid's fixed point and the flows share
the link equally. scripts/dcqcn-fixed-point runs the full version
(doc/dcqcn-fluid.rst)."""

import pytest

from conftest import run_scenario

from ns3flux import fluid, traces

LINK = "leaf0->host0"
WIRE_1K = fluid.wire(1024)
MS = 30


def _paper_incast(n):
    return {"seed": 1, "stop_ms": MS,
            "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                         "hosts_per_leaf": n + 1, "host_gbps": 40, "link_delay_us": 1},
            "transport": {"mtu_bytes": 1024, "dcqcn": {"profile": "paper"}},
            "background": [{"name": "incast", "pattern": "incast", "receiver": 0,
                            "senders": list(range(1, n + 1)), "bytes": int(5e9 * MS * 1e-3)}],
            "traces": {"interval_us": 5, "links": [LINK]}}


@pytest.mark.parametrize("n", [2, 4])
def test_queue_at_fluid_fixed_point(flux_run, tmp_path, n):
    """Over the second half of the run the mean queue is within 30 % of the
    fluid model's fixed point (21.8 KB for 2 flows, 45.9 KB for 4), the
    flows share the link equally (Jain >= 0.98, mean rate C/N within 5 %)
    and the link stays >= 95 % busy."""
    out, r = run_scenario(flux_run, tmp_path, _paper_incast(n), f"paper{n}")
    tr = traces.load(out)
    m = traces.window(tr, LINK, MS * 500, MS * 1000)
    q_star = fluid.fixed_point(n, fluid.params("paper", 40), pkt=WIRE_1K)["queue_kb"]
    assert 0.7 * q_star <= m["queue_kb"] <= 1.3 * q_star, (m["queue_kb"], q_star)
    assert m["utilization"] >= 0.95, m
    assert m["jain"] >= 0.98, m
    means = [rate[t >= MS * 500].mean() for t, rate in tr.rates.values()]
    assert len(means) == n
    assert sum(means) / n == pytest.approx(40 / n, rel=0.05)


def test_params_refuses_what_it_does_not_know():
    """An override the profile does not have (a typo: kmin for kmin_kb) or
    an unknown profile is an error, not silently the profile's value."""
    assert fluid.params("paper", 40, kmin_kb=1)["kmin"] == 1e3
    with pytest.raises(TypeError, match="kmin"):
        fluid.params("paper", 40, kmin=1)
    with pytest.raises(ValueError, match="profile"):
        fluid.params("nope")
