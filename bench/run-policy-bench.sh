#!/usr/bin/env bash
# Policy benchmark: what a scheduling policy costs the simulator. Runs one
# scenario (default bench/scenarios/multi-job.json) under fifo and under each
# other policy (default: every one BUILD_DIR/flux-run --list-policies
# prints), N times each, with bench/run-scenario-bench.sh, and reports
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
#
#   -n N          rounds (default 3)
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   --policies    the policies to compare with fifo (default: all)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
scenario=$here/scenarios/multi-job.json
policies="" # default: every policy of flux-run --list-policies but fifo
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-policy-bench.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; runs=$2; shift 2 ;;
    -b) need "$@"; build=$2; shift 2 ;;
    --policies) need "$@"; policies=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run-policy-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
[ -f "$scenario" ] || { echo "run-policy-bench.sh: no scenario $scenario" >&2; exit 2; }
case "$runs" in '' | *[!0-9]* | 0) echo "run-policy-bench.sh: -n wants a positive number" >&2; exit 2 ;; esac
[ -x "$build/flux-run" ] ||
    { echo "run-policy-bench.sh: $build/flux-run not found: build first (cmake --build $build)" >&2; exit 2; }
known=" $("$build/flux-run" --list-policies | tr '\n' ' ') "
if [ -z "$policies" ]; then
    policies=$(echo $known | tr ' ' '\n' | grep -vx fifo | tr '\n' ' ')
fi
for policy in $policies; do
    [[ "$known" == *" $policy "* ]] ||
        { echo "run-policy-bench.sh: --policies: $policy is not a policy (flux-run --list-policies)" >&2; exit 2; }
done

# the scenario under each policy, checked before any run (flux-run's message)
for policy in fifo $policies; do
    "$build/flux-run" "$scenario" --check --policy "$policy" >/dev/null || exit 2
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Rounds outermost, policies interleaved within a round, so that a machine
# whose speed drifts slows every policy alike.
for ((i = 1; i <= runs; i++)); do
    for policy in fifo $policies; do
        echo "run-policy-bench.sh: round $i/$runs, $policy" >&2
        "$here/run-scenario-bench.sh" -n 1 -b "$build" --policy "$policy" "$scenario" |
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
w = max(8, *(len(p) for p in policies))
print(f"{'policy':{w}} {'wall_s':>8} {'run_s':>8} {'sim_ms':>8} {'wall_ratio':>10} {'cost_per_byte_ratio':>20}")
for p in policies:
    m = med[p]
    cost = m["wall_s"] / m["sim_bytes"] / base_cost
    print(f"{p:{w}} {m['wall_s']:8.3f} {m['run_s']:8.3f} {m['sim_ms']:8.2f} "
          f"{m['wall_s'] / base['wall_s']:10.3f} {cost:20.3f}")
if "flux" in med:
    cost = med["flux"]["wall_s"] / med["flux"]["sim_bytes"] / base_cost
    print(f"summary: flux costs {cost:.3f}x fifo per simulated byte "
          f"(goal <= 1.15: {'PASS' if cost <= 1.15 else 'MISS'})")
PY
