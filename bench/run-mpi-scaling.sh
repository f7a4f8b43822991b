#!/usr/bin/env bash
# MPI speed-up: runs flux-run of an ns-3 tree built with MPI on a scenario
# (default bench/scenarios/fat-tree-1024-8-tenants.json) without mpirun and
# with mpirun -np 1, 2 and 4 (or the counts given), the settings in turn, N
# rounds, and prints per setting the median wall-clock time, the peak memory
# of one process, the speed-up over -np 1, and whether the results equal
# those of -np 1 (test/mpi/compare-results.py: all but wall time and the
# event count).
#
#   bench/run-mpi-scaling.sh [-n N] [-t TREE] [-p "1 2 4"] [SCENARIO.json]
#
#   -n N      rounds (default 1: the default scenario takes minutes a run)
#   -t TREE   the ns-3 tree (default: the one scripts/build-in-tree.sh --mpi
#             3.37 builds, ~/.cache/flux/ns3-src-mpi/ns-3.37/ns-3.37)
#   -p LIST   process counts (default "1 2 4"; more than the cores oversubscribe)
#
# The run without mpirun uses the scenario's event scheduler, so its results
# differ from those under MPI (see doc/flux.rst, "Several Processes (MPI)").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rounds=1
tree=${FLUX_CACHE:-$HOME/.cache/flux}/ns3-src-mpi/ns-3.37/ns-3.37
counts="1 2 4"
scenario=$here/scenarios/fat-tree-1024-8-tenants.json
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-mpi-scaling.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; rounds=$2; shift 2 ;;
    -t) need "$@"; tree=$2; shift 2 ;;
    -p) need "$@"; counts=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run-mpi-scaling.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) scenario=$1; shift ;;
    esac
done
flux_run=$(find "$tree/build" -type f -perm -u+x -name '*flux-run*' 2>/dev/null | head -n 1 || true)
[ -n "$flux_run" ] || {
    echo "run-mpi-scaling.sh: no flux-run in $tree (scripts/build-in-tree.sh --mpi 3.37)" >&2
    exit 2
}
command -v mpirun >/dev/null || { echo "run-mpi-scaling.sh: no mpirun (openmpi-bin)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d /tmp/flux-mpi-scaling.XXXXXX) # kept: its path is printed at the end
settings=(seq)
for np in $counts; do
    settings+=("np$np")
done

for ((r = 1; r <= rounds; r++)); do
    for s in "${settings[@]}"; do
        out=$work/$s-$r.json
        if [ "$s" = seq ]; then
            cmd=("$flux_run")
        else
            cmd=(mpirun --oversubscribe -np "${s#np}" "$flux_run")
        fi
        /usr/bin/time -f "%e %M" -o "$work/$s-$r.time" "${cmd[@]}" "$scenario" --out "$out" --quiet
        echo "round $r $s: $(cat "$work/$s-$r.time" | awk '{printf "%.1f s, %.0f MB", $1, $2 / 1024}')" >&2
    done
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
base=
printf '%-8s %10s %16s %10s %s\n' setting wall_s peak_MB speed-up "results vs np1"
for s in "${settings[@]}"; do
    wall=$(for f in "$work/$s"-*.time; do cut -d' ' -f1 "$f"; done | median)
    mem=$(for f in "$work/$s"-*.time; do cut -d' ' -f2 "$f"; done | median)
    [ "$s" = np1 ] && base=$wall
    speedup=-
    [ -n "$base" ] && [ "$s" != seq ] && speedup=$(awk -v b="$base" -v w="$wall" 'BEGIN {printf "%.2f", b / w}')
    same=-
    if [ "$s" != seq ] && [ -f "$work/np1-1.json" ]; then
        same=$(python3 "$here/../test/mpi/compare-results.py" "$work/np1-1.json" "$work/$s-1.json" | head -n 1)
    fi
    printf '%-8s %10.1f %16.0f %10s %s\n' "$s" "$wall" "$(awk -v m="$mem" 'BEGIN {print m / 1024}')" "$speedup" "$same"
done
echo "outputs in $work" >&2
