"""PFC at scale, CI-sized: a 127-to-1 incast on a 128-host fat-tree (k=8)
through build/flux-run, with small switch buffers (4 MB) and no congestion
control so that PFC alone holds the incast. The benchmark
bench/run-incast-scale.sh runs the 1000-to-1 incast on the 1024-host
fat-tree (k=16)."""

import re
from collections import Counter, defaultdict

from conftest import run_scenario

K = 8
HOSTS = K ** 3 // 4
VICTIM = 0


def fat_tree_hop(switch, k=K, victim=VICTIM):
    """Switch hops from a fat-tree switch to the victim's edge switch."""
    per_pod = k * k // 4
    vpod, vedge = victim // per_pod, (victim % per_pod) // (k // 2)
    m = re.fullmatch(r"pod(\d+)-(edge|agg)(\d+)", switch)
    if not m:
        assert re.fullmatch(r"core\d+", switch), switch
        return 2
    pod, kind, index = int(m[1]), m[2], int(m[3])
    if kind == "edge":
        return 0 if (pod, index) == (vpod, vedge) else 2 if pod == vpod else 4
    return 1 if pod == vpod else 3


def test_127_to_1_incast_pauses_spread_hop_by_hop_without_drop(flux_run, tmp_path):
    """127 senders x 1 MB into host 0: no drop, no retransmission, every
    flow finishes; the pause counts per tier and per link add up to
    pfc_pauses; switches at every distance from the victim's edge switch
    pause their upstream neighbours (0: the victim's edge switch pauses the
    aggregation switches of pod 0, ... 4: the other pods' edge switches
    pause the senders), and every switch that pauses a neighbour at
    distance h > 0 was itself paused by a switch at distance h - 1: the
    pauses spread back hop by hop."""
    s = {
        "seed": 1, "stop_ms": 1000,
        "topology": {"kind": "fat-tree", "k": K, "buffer_mb": 4},
        "transport": {"cc": "none"},
        "background": [{"name": "incast", "pattern": "incast", "receiver": VICTIM,
                        "senders": list(range(1, HOSTS)), "bytes": 1000000}],
    }
    _, r = run_scenario(flux_run, tmp_path, s, "incast")
    net = r["network"]
    assert net["drops"] == 0
    assert net["retransmissions"] == 0
    assert r["flows"]["tenants"]["incast"]["count"] == HOSTS - 1
    by_tier = net["pfc_pauses_by_tier"]
    assert list(by_tier) == ["host->edge", "edge->agg", "agg->edge", "agg->core", "core->agg"]
    assert sum(by_tier.values()) == net["pfc_pauses"]
    assert all(n > 0 for n in by_tier.values()), by_tier
    by_link = net["pfc_pauses_by_link"]
    assert sum(by_link.values()) == net["pfc_pauses"]

    per_hop = Counter()
    hop_of_pauser = {}
    paused_from = defaultdict(set)  # switch -> hops of the switches that paused it
    for link, pauses in by_link.items():
        sender, pauser = link.split("->")
        hop = fat_tree_hop(pauser)
        per_hop[hop] += pauses
        hop_of_pauser[pauser] = hop
        if not sender.startswith("host"):
            paused_from[sender].add(hop)
    assert sorted(per_hop) == [0, 1, 2, 3, 4], per_hop
    assert hop_of_pauser and all(
        h == 0 or h - 1 in paused_from[sw] for sw, h in hop_of_pauser.items())
    # the senders themselves are paused (by edge switches 2 and 4 hops away)
    assert any(link.startswith("host") for link in by_link)
