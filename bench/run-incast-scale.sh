#!/usr/bin/env bash
# PFC at scale: runs build/flux-run once on an incast scenario (default
# bench/scenarios/incast-1000-to-1.json: 1000 senders x 1 MB into host 0 of
# a 1024-host fat-tree, k=16) and reports
#
#   wall_s          wall-clock time of the flux-run process
#   maxrss_mb       its peak resident memory (GNU time), MB
#   sim_ms, events  simulated time, simulator events
#   drops           packets dropped anywhere (the goal: 0)
#   retransmissions, timeouts, flows (finished / started)
#   pfc_pauses      PFC pause decisions (XOFF) of all switch ports
#   per tier        network.pfc_pauses_by_tier: pauses by paused link kind
#                   ("agg->edge": an edge switch paused an aggregation switch)
#   per hop         fat-trees: pauses by the pausing switch's distance in
#                   switch hops from the victim's edge switch (0: that edge
#                   switch; 1: the victim pod's aggregation switches; 2: the
#                   cores and the victim pod's other edge switches; 3: the
#                   other pods' aggregation switches; 4: their edge
#                   switches), with the number of switches pausing, and
#                   whether every switch pausing at hop h > 0 was itself
#                   paused by a switch at hop h - 1 (the pauses spread hop
#                   by hop)
#
#   bench/run-incast-scale.sh [-b BUILD_DIR] [-k] [SCENARIO.json]
#
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   -k            keep the results (prints their folder)
#
# The 1024-host scenario takes seconds of wall time and about 150 MB; the
# CI-sized version is test/python/test_pfc_spread.py (k=8, 127-to-1).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${FLUX_BUILD:-$here/../build}
scenario=$here/scenarios/incast-1000-to-1.json
keep=0
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-incast-scale.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -b) need "$@"; build=$2; shift 2 ;;
    -k) keep=1; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run-incast-scale.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
bin=$build/flux-run
if [ ! -x "$bin" ]; then
    echo "run-incast-scale.sh: $bin not found: build first (cmake --build $build)" >&2
    exit 2
fi
[ -f "$scenario" ] || { echo "run-incast-scale.sh: no scenario $scenario" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run-incast-scale.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }

work=$(mktemp -d)
if [ "$keep" = 1 ]; then
    echo "results in $work"
else
    trap 'rm -rf "$work"' EXIT
fi
t0=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$work/maxrss" "$bin" "$scenario" --out "$work/results.json" --quiet \
    2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
t1=$(date +%s.%N)

python3 - "$scenario" "$work" "$t0" "$t1" <<'EOF'
import json
import re
import sys
from collections import defaultdict

scenario_path, work, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
scenario = json.load(open(scenario_path))
res = json.load(open(f"{work}/results.json"))
net = res["network"]
maxrss_kb = int(open(f"{work}/maxrss").read().split()[-1])
tenants = res["flows"]["tenants"]
finished = sum(t["count"] for t in tenants.values())
started = sum(t.get("started", 0) for t in tenants.values())
print(f"scenario: {scenario_path}")
print(f"wall_s={t1 - t0:.1f} maxrss_mb={maxrss_kb / 1024:.0f} "
      f"sim_ms={res['sim']['simulated_ms']:.3f} events={res['sim']['events']} "
      f"stop_reason={res['sim']['stop_reason']}")
print(f"drops={net['drops']} retransmissions={net['retransmissions']} "
      f"timeouts={net['timeouts']} flows={finished}/{started} pfc_pauses={net['pfc_pauses']}")
print("pauses per tier (paused link kind): " +
      " ".join(f"{k}={v}" for k, v in net["pfc_pauses_by_tier"].items()))

topo = scenario.get("topology", {})
if topo.get("kind") != "fat-tree":
    sys.exit(0)
k = topo.get("k", 4)
victims = {b["receiver"] for b in scenario.get("background", []) if "receiver" in b}
if len(victims) != 1:
    sys.exit(0)
victim = victims.pop()
per_pod = k * k // 4
vpod, vedge = victim // per_pod, (victim % per_pod) // (k // 2)


def hop(switch):
    m = re.fullmatch(r"pod(\d+)-(edge|agg)(\d+)", switch)
    if not m:
        return 2  # a core
    pod, kind, index = int(m[1]), m[2], int(m[3])
    if kind == "edge":
        return 0 if (pod, index) == (vpod, vedge) else 2 if pod == vpod else 4
    return 1 if pod == vpod else 3


pauses = defaultdict(int)
pausers = defaultdict(set)
hop_of = {}
paused_from = defaultdict(set)
for link, n in net["pfc_pauses_by_link"].items():
    sender, pauser = link.split("->")
    h = hop(pauser)
    pauses[h] += n
    pausers[h].add(pauser)
    hop_of[pauser] = h
    if not sender.startswith("host"):
        paused_from[sender].add(h)
print(f"pauses per hop from the victim's edge switch (victim host {victim}):")
for h in range(5):
    print(f"  hop {h}: pauses={pauses[h]} switches_pausing={len(pausers[h])}")
chain = all(h == 0 or h - 1 in paused_from[s] for s, h in hop_of.items())
print(f"every switch pausing at hop h > 0 was paused from hop h - 1: {'yes' if chain else 'NO'}")
print(f"verdict: {'PASS' if net['drops'] == 0 else 'MISS'} (goal: 0 drops)")
EOF
