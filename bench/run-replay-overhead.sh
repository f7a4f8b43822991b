#!/usr/bin/env bash
# Replay overhead: the same traffic as a replayed Chakra trace and as a
# job that posts it directly, run alternately, N runs each.
#
# build/bench/workload-reader-bench writes a 16-rank Chakra trace of NODES
# nodes per rank: nine 10 us compute nodes, then a ring all-reduce of
# BYTES, over and over (NODES / 10 all-reduces, one chain per rank). The
# direct job is a ring all-reduce job of 16 ranks with compute_ms 0.09,
# bytes BYTES and NODES / 10 iterations: the same compute and the same
# collectives. Both run on one 16-host 100 Gb/s switch. Prints per level
# the medians of
#
#   wall_s      wall-clock time of the flux-run process
#   cpu_s       its CPU time, user + system (less sensitive than wall_s to
#               other work on the machine)
#   events      simulator events
#   sim_ms      the job's completion time (simulated)
#
# and the replay's overhead, (replay - direct) / direct, from the medians,
# and the two completion times' difference.
#
#   bench/run-replay-overhead.sh [-n N] [-b BUILD_DIR] [--nodes NODES] [--bytes BYTES]
#
#   -n N          runs of each (default 3)
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   --nodes       nodes per rank (default 10000)
#   --bytes       bytes per all-reduce (default 65536)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
nodes=10000
bytes=65536
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-replay-overhead.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; runs=$2; shift 2 ;;
    -b) need "$@"; build=$2; shift 2 ;;
    --nodes) need "$@"; nodes=$2; shift 2 ;;
    --bytes) need "$@"; bytes=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-replay-overhead.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for v in "$runs" "$nodes" "$bytes"; do
    case "$v" in '' | *[!0-9]* | 0) echo "run-replay-overhead.sh: -n, --nodes and --bytes want positive numbers" >&2; exit 2 ;; esac
done
[ $((nodes % 10)) = 0 ] || { echo "run-replay-overhead.sh: --nodes must be a multiple of 10" >&2; exit 2; }
for b in flux-run bench/workload-reader-bench; do
    [ -x "$build/$b" ] || { echo "run-replay-overhead.sh: $build/$b not found: build first" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bench/workload-reader-bench" --ranks=16 --nodes="$nodes" --collBytes="$bytes" \
    --computeMicros=10 --runs=1 --keep="$work/trace" >/dev/null
/usr/bin/python3 - "$work" "$nodes" "$bytes" <<'PY'
import json, sys
work, nodes, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
topology = {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 16,
            "host_gbps": 100, "link_delay_us": 1}
base = {"seed": 1, "stop_ms": 100000, "topology": topology}
replay = dict(base, jobs=[{"name": "replay", "workload": {"chakra": work + "/trace"},
                           "iterations": 1}])
direct = dict(base, jobs=[{"name": "direct", "ranks": 16, "bytes": size, "compute_ms": 0.09,
                           "iterations": nodes // 10}])
for name, s in (("replay", replay), ("direct", direct)):
    with open(f"{work}/{name}.json", "w") as f:
        json.dump(s, f)
PY
for ((i = 1; i <= runs; i++)); do
    for level in direct replay; do
        t0=$(date +%s.%N)
        /usr/bin/time -f "%U %S" -o "$work/$level-$i.cpu" \
            "$build/flux-run" "$work/$level.json" --out "$work/$level-$i.json" --quiet
        t1=$(date +%s.%N)
        echo "$t0 $t1" >"$work/$level-$i.wall"
    done
done
/usr/bin/python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
med = {}
for level in ("direct", "replay"):
    wall, cpu, events, sim = [], [], [], []
    for i in range(1, runs + 1):
        t0, t1 = map(float, open(f"{work}/{level}-{i}.wall").read().split())
        cpu.append(sum(map(float, open(f"{work}/{level}-{i}.cpu").read().split()[-2:])))
        r = json.load(open(f"{work}/{level}-{i}.json"))
        wall.append(t1 - t0)
        events.append(r["sim"]["events"])
        sim.append(r["jobs"][0]["jct_ms"])
    med[level] = (statistics.median(wall), statistics.median(cpu), statistics.median(events),
                  statistics.median(sim))
    print(f"{level:6}  wall_s {med[level][0]:8.3f}  cpu_s {med[level][1]:8.3f}  "
          f"events {med[level][2]:>10}  sim_ms {med[level][3]:10.4f}")
d, r = med["direct"], med["replay"]
over = [100 * (r[k] - d[k]) / d[k] for k in range(4)]
print(f"replay overhead: wall {over[0]:+.1f} %, cpu {over[1]:+.1f} %, events {over[2]:+.1f} %, "
      f"completion time {over[3]:+.3f} %")
PY
