#!/usr/bin/env bash
# Flow-level benchmark: the same scenario through build/flux-run at packet
# level and at flow level (--backend flow), alternating, N runs each, and
# the medians of
#
#   wall_s        wall-clock time of the whole flux-run process
#   cpu_s         its user + system CPU time (/usr/bin/time): what the
#                 process itself cost, which the machine's other load,
#                 which moves wall_s by a quarter, hardly changes
#   build_s       building the fabric, NICs, jobs and tenants (FLUX_TIMING)
#   run_s         Simulator::Run() alone
#   events        simulator events
#   maxrss_mb     peak resident memory of the process, MB (/usr/bin/time)
#   jct_ms        mean JCT over the jobs
#
# then the speed-up (packet wall_s / flow wall_s and packet cpu_s / flow
# cpu_s, from the medians, and of each pair of runs side by side) and the
# flow level's mean-JCT difference.
# Scenarios too large for packet level run at flow level only (--flow-only).
#
#   bench/run-flow-bench.sh [-n N] [-b BUILD_DIR] [--flow-only] [SCENARIO.json]
#
#   -n N          runs of each level (default 3)
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   SCENARIO      default bench/scenarios/fat-tree-1024-8-tenants.json (1024
#                 hosts, 8 tenants); bench/scenarios/fat-tree-8192-16-tenants.json
#                 is the 8192-host case, with --flow-only
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
scenario=$here/scenarios/fat-tree-1024-8-tenants.json
levels="packet flow"
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-flow-bench.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; runs=$2; shift 2 ;;
    -b) need "$@"; build=$2; shift 2 ;;
    --flow-only) levels="flow"; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run-flow-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
bin=$build/flux-run
if [ ! -x "$bin" ]; then
    echo "run-flow-bench.sh: $bin not found: build first (cmake --build $build)" >&2
    exit 2
fi
case "$runs" in '' | *[!0-9]* | 0) echo "run-flow-bench.sh: -n wants a positive number" >&2; exit 2 ;; esac
[ -f "$scenario" ] || { echo "run-flow-bench.sh: no scenario $scenario" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run-flow-bench.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((i = 1; i <= runs; i++)); do
    for level in $levels; do
        echo "run-flow-bench.sh: $(basename "$scenario") $level run $i/$runs" >&2
        t0=$(date +%s.%N)
        rc=0
        FLUX_TIMING=1 /usr/bin/time -f 'maxrss_kb=%M user_s=%U sys_s=%S' -o "$work/rss-$level-$i" \
            "$bin" "$scenario" --out "$work/results-$level-$i.json" --quiet --backend "$level" \
            2>"$work/stderr-$level-$i" || rc=$?
        if [ $rc != 0 ]; then
            echo "run-flow-bench.sh: flux-run --backend $level failed (exit $rc):" >&2
            cat "$work/stderr-$level-$i" >&2
            exit $rc
        fi
        t1=$(date +%s.%N)
        echo "$t0 $t1" >"$work/wall-$level-$i"
    done
done

python3 - "$scenario" "$work" "$runs" $levels <<'PY'
import json
import statistics
import sys

scenario, work, runs, levels = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
med = {}
walls = {}
for level in levels:
    rows = []
    for i in range(1, runs + 1):
        t0, t1 = map(float, open(f"{work}/wall-{level}-{i}").read().split())
        line = [l for l in open(f"{work}/stderr-{level}-{i}") if l.startswith("flux-run: timing ")]
        timing = {k: float(v) for k, v in (kv.split("=") for kv in line[-1].split()[2:])}
        usage = dict(kv.split("=") for kv in open(f"{work}/rss-{level}-{i}").read().split())
        rss = float(usage["maxrss_kb"])
        r = json.load(open(f"{work}/results-{level}-{i}.json"))
        jcts = [j["jct_ms"] for j in r["jobs"] if j["jct_ms"] is not None]
        rows.append({"wall_s": t1 - t0,
                     "cpu_s": float(usage["user_s"]) + float(usage["sys_s"]),
                     "build_s": timing["build_s"], "run_s": timing["run_s"],
                     "events": r["sim"]["events"], "maxrss_mb": rss / 1e3,
                     "jct_ms": sum(jcts) / len(jcts) if jcts else float("nan")})
    med[level] = {k: statistics.median(row[k] for row in rows) for k in rows[0]}
    walls[level] = [(row["wall_s"], row["cpu_s"]) for row in rows]
print(f"scenario {scenario}, {runs} run(s) per level, medians")
print(f"{'level':8} {'wall_s':>9} {'cpu_s':>9} {'build_s':>8} {'run_s':>9} {'events':>11} {'maxrss_mb':>10} "
      f"{'jct_ms':>10}")
for level, m in med.items():
    print(f"{level:8} {m['wall_s']:9.2f} {m['cpu_s']:9.2f} {m['build_s']:8.2f} {m['run_s']:9.2f} {m['events']:11.0f} "
          f"{m['maxrss_mb']:10.1f} {m['jct_ms']:10.3f}")
if "packet" in med and "flow" in med:
    p, f = med["packet"], med["flow"]
    print(f"speed-up (packet wall / flow wall): {p['wall_s'] / f['wall_s']:.1f}x, "
          f"in CPU time {p['cpu_s'] / f['cpu_s']:.1f}x; flow-level mean JCT {100 * (f['jct_ms'] / p['jct_ms'] - 1):+.1f} % against packet level")
    # (run i of each level ran one after the other: the spread of these
    # is the machine's drift)
    pairs = " ".join(f"{a[0] / b[0]:.1f}x ({a[1] / b[1]:.1f}x)"
                     for a, b in zip(walls["packet"], walls["flow"]))
    print(f"speed-up per pair of runs, wall (CPU): {pairs}")
PY
