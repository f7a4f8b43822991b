#!/usr/bin/env bash
# Scenario benchmark: runs build/flux-run on a scenario (default
# bench/scenarios/multi-job.json: 4 jobs x 8 ranks on a 32-host leaf-spine
# and an RPC tenant) N times and reports the medians of
#
#   wall_s            wall-clock time of the whole flux-run process
#   run_s             wall-clock time of Simulator::Run() alone
#   events, events_per_s (events / run_s)
#   sim_ms            simulated time
#   sim_bytes         application bytes the run moved: for each job
#                     2 (N-1) x bytes per completed iteration (ring
#                     allreduce, N ranks), plus the sizes of the finished
#                     background flows
#   sim_bytes_per_wall_s  sim_bytes / wall_s
#   overhead_pct      the runner's own share of the process:
#                     (wall_s - run_s) / wall_s: loading, parsing, building,
#                     collecting statistics, writing results, tearing down
#
# run_s and the phase times come from flux-run itself (FLUX_TIMING=1: one
# stderr line with the wall-clock time of each phase); wall_s is measured
# around the process, so that library loading and static initialisation
# count as overhead too.
#
#   bench/run-scenario-bench.sh [-n N] [-b BUILD_DIR] [--policy NAME] [SCENARIO.json]
#
#   -n N          runs (default 3)
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   --policy NAME the scheduling policy (default: the scenario's)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
scenario=$here/scenarios/multi-job.json
policy=()
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-scenario-bench.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; runs=$2; shift 2 ;;
    -b) need "$@"; build=$2; shift 2 ;;
    --policy) need "$@"; policy=(--policy "$2"); shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run-scenario-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
bin=$build/flux-run
if [ ! -x "$bin" ]; then
    echo "run-scenario-bench.sh: $bin not found: build first (cmake --build $build)" >&2
    exit 2
fi
case "$runs" in '' | *[!0-9]* | 0) echo "run-scenario-bench.sh: -n wants a positive number" >&2; exit 2 ;; esac
[ -f "$scenario" ] || { echo "run-scenario-bench.sh: no scenario $scenario" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((i = 1; i <= runs; i++)); do
    t0=$(date +%s.%N)
    echo "run-scenario-bench.sh: run $i/$runs" >&2
    rc=0
    FLUX_TIMING=1 "$bin" "$scenario" "${policy[@]}" --out "$work/results-$i.json" --quiet \
        2>"$work/stderr-$i" || rc=$?
    if [ $rc != 0 ]; then
        echo "run-scenario-bench.sh: flux-run failed (exit $rc):" >&2
        cat "$work/stderr-$i" >&2
        exit $rc
    fi
    t1=$(date +%s.%N)
    grep '^flux-run: timing ' "$work/stderr-$i" >"$work/timing-$i" || {
        echo "run-scenario-bench.sh: flux-run printed no timing line" >&2
        cat "$work/stderr-$i" >&2
        exit 1
    }
    echo "$t0 $t1" >"$work/wall-$i"
done

python3 - "$scenario" "$work" "$runs" <<'EOF'
import csv
import json
import statistics
import sys

scenario_path, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
scenario = json.load(open(scenario_path))
ranks = {j["name"]: j["ranks"] for j in scenario.get("jobs", [])}
grad = {j["name"]: j["bytes"] for j in scenario.get("jobs", [])}


def number(v):
    """Six significant digits, but whole numbers from a million on (no e+06)."""
    return f"{v:.0f}" if abs(v) >= 1e6 else f"{v:.6g}"


rows = []
for i in range(1, runs + 1):
    t0, t1 = map(float, open(f"{work}/wall-{i}").read().split())
    timing = dict(kv.split("=") for kv in open(f"{work}/timing-{i}").read().split()[2:])
    timing = {k: float(v) for k, v in timing.items()}
    res = json.load(open(f"{work}/results-{i}.json"))
    job_bytes = sum(2 * (ranks[j["name"]] - 1) * grad[j["name"]] * len(j["iteration_ms"])
                    for j in res["jobs"])
    flow_bytes = 0
    try:
        with open(f"{work}/results-{i}-flows.csv") as f:
            flow_bytes = sum(int(r["size_bytes"]) for r in csv.DictReader(f))
    except FileNotFoundError:
        pass
    wall = t1 - t0
    run = timing["run_s"]
    row = {
        "wall_s": wall,
        "run_s": run,
        "events": res["sim"]["events"],
        "events_per_s": res["sim"]["events"] / run if run > 0 else 0,
        "sim_ms": res["sim"]["simulated_ms"],
        "sim_bytes": job_bytes + flow_bytes,
        "sim_bytes_per_wall_s": (job_bytes + flow_bytes) / wall,
        "overhead_pct": 100 * (wall - run) / wall,
        "parse_s": timing["parse_s"],
        "build_s": timing["build_s"],
        "collect_s": timing["collect_s"],
        "teardown_s": timing["teardown_s"],
        "write_s": timing["write_s"],
        "load_s": wall - timing["total_s"],
    }
    rows.append(row)
    print("run: " + " ".join(f"{k}={number(v)}" for k, v in row.items()))

med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
print("median: " + " ".join(f"{k}={number(v)}" for k, v in med.items()))
print(f"summary: wall {med['wall_s']:.2f} s, {med['events_per_s']:.0f} events/s, "
      f"{med['sim_bytes_per_wall_s'] / 1e6:.1f} MB simulated per wall second, "
      f"runner overhead {med['overhead_pct']:.2f} % (goal < 5 %: "
      f"{'PASS' if med['overhead_pct'] < 5 else 'MISS'})")
EOF
