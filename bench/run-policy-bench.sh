#!/usr/bin/env bash
# Policy benchmark: what a scheduling policy costs the simulator. Runs one
# scenario (default bench/scenarios/multi-job.json) under fifo and under each
# other policy (default: every one BUILD_DIR/flux-run --list-policies prints), N times each, with bench/run-scenario-bench.sh, and reports
# per policy the medians of wall_s and run_s (runs interleaved: fifo, then
# each policy, N rounds) and, as ratios against fifo in the same run of this
# script,
#
#   wall_ratio          wall_s / fifo's wall_s (the whole flux-run process)
#   cost_per_byte_ratio (wall_s / sim_bytes) / fifo's: wall time per
#                       simulated application byte, which does not reward a
#                       policy for finishing the jobs sooner
#
# The goal for flux is cost_per_byte_ratio <= 1.15. A ratio, never a
# timed test: both sides run on this machine, in this run.
#
#   bench/run-policy-bench.sh [-n N] [-b BUILD_DIR] [--policies "flux ..."] [SCENARIO.json]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
scenario=$here/scenarios/multi-job.json
policies="" # default: every policy of flux-run --list-policies but fifo
while [ $# -gt 0 ]; do
    case "$1" in
    -n) runs=$2; shift 2 ;;
    -b) build=$2; shift 2 ;;
    --policies) policies=$2; shift 2 ;;
    -h | --help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-policy-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
[ -f "$scenario" ] || { echo "run-policy-bench.sh: no scenario $scenario" >&2; exit 2; }
if [ -z "$policies" ]; then
    policies=$("$build/flux-run" --list-policies | grep -vx fifo | tr '\n' ' ') ||
        { echo "run-policy-bench.sh: $build/flux-run --list-policies failed" >&2; exit 2; }
fi

work=$(mktemp -d)
folder=$(dirname "$scenario")
trap 'rm -rf "$work"; rm -f "$folder"/.policy-bench-*.json' EXIT
for policy in fifo $policies; do
    # the scenario's relative paths (CDF files) resolve from its own folder
    python3 - "$scenario" "$policy" "$folder/.policy-bench-$policy.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s.setdefault("scheduler", {})["policy"] = sys.argv[2]
json.dump(s, open(sys.argv[3], "w"))
PY
done
# Rounds outermost, policies interleaved within a round, so that a machine
# whose speed drifts slows every policy alike.
for ((i = 1; i <= runs; i++)); do
    for policy in fifo $policies; do
        "$here/run-scenario-bench.sh" -n 1 -b "$build" "$folder/.policy-bench-$policy.json" |
            grep '^median:' >>"$work/$policy.runs"
    done
done

python3 - "$work" fifo $policies <<'PY'
import sys
work, policies = sys.argv[1], sys.argv[2:]
import statistics
med = {}
for p in policies:
    runs = [{k: float(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
            for line in open(f"{work}/{p}.runs")]
    med[p] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
base = med["fifo"]
base_cost = base["wall_s"] / base["sim_bytes"]
print(f"{'policy':8} {'wall_s':>8} {'run_s':>8} {'sim_ms':>8} {'wall_ratio':>10} {'cost_per_byte_ratio':>20}")
for p in policies:
    m = med[p]
    cost = m["wall_s"] / m["sim_bytes"] / base_cost
    print(f"{p:8} {m['wall_s']:8.3f} {m['run_s']:8.3f} {m['sim_ms']:8.2f} "
          f"{m['wall_s'] / base['wall_s']:10.3f} {cost:20.3f}")
if "flux" in med:
    cost = med["flux"]["wall_s"] / med["flux"]["sim_bytes"] / base_cost
    print(f"summary: flux costs {cost:.3f}x fifo per simulated byte "
          f"(goal <= 1.15: {'PASS' if cost <= 1.15 else 'MISS'})")
PY
