#!/usr/bin/env bash
# Cache misses per packet-hop of flux and of the bare ns-3 forwarder, from
# callgrind's cache simulation of Simulator::Run() in fabric-bench: unlike
# wall-clock time, the figures do not depend on the load of the machine,
# and they show where the time per hop goes on a large fabric (misses of
# the last-level cache cost about 100 ns each).
#
#   bench/run-cache-sim.sh [-b BUILD_DIR] [--ll BYTES] [--top N] [-- fabric-bench options]
#
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   --ll BYTES    simulated last-level cache (default 4194304: 4 MB, 16-way,
#                 64-byte lines; a share of a server's L3)
#   --top N       also list flux's N functions with the most last-level
#                 data misses (default 0)
#   options after -- go to both modes (default: --topology=fat-tree --k=12
#   --packets=200 --bufferMb=32, 432 hosts; two to three minutes per mode
#   under valgrind, both modes at once)
#
# Prints per packet-hop: instructions, I1 misses, D1 misses, LL misses, for
# each mode and their ratio. Needs valgrind (Debian package valgrind).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${FLUX_BUILD:-$here/../build}
ll=4194304
top=0
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-cache-sim.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -b) need "$@"; build=$2; shift 2 ;;
    --ll) need "$@"; ll=$2; shift 2 ;;
    --top) need "$@"; top=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-cache-sim.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$ll" in '' | *[!0-9]*) echo "run-cache-sim.sh: --ll wants a number of bytes" >&2; exit 2 ;; esac
case "$top" in '' | *[!0-9]*) echo "run-cache-sim.sh: --top wants a number" >&2; exit 2 ;; esac
bin=$build/bench/fabric-bench
if [ ! -x "$bin" ]; then
    echo "run-cache-sim.sh: $bin not found: build first (cmake --build $build)" >&2
    exit 2
fi
if ! command -v valgrind >/dev/null; then
    echo "run-cache-sim.sh: valgrind not found (apt-get install valgrind)" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    set -- --topology=fat-tree --k=12 --packets=200 --bufferMb=32
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in flux baseline; do
    valgrind --tool=callgrind --cache-sim=yes --LL="$ll",16,64 \
        --toggle-collect='ns3::Simulator::Run()' \
        --callgrind-out-file="$work/$mode.out" \
        "$bin" --mode=$mode "$@" >"$work/$mode.txt" 2>"$work/$mode.err" &
done
failed=0
wait %1 || failed=1
wait %2 || failed=1
if [ $failed -ne 0 ]; then
    echo "run-cache-sim.sh: a run failed:" >&2
    tail -5 "$work"/*.err >&2
    exit 1
fi

# callgrind's summary lines: "I   refs:", "I1  misses:", "D1  misses:", "LL misses:"
figure() { # file label -> the first number after the label, without commas
    sed -n "s/^==[0-9]*== $2: *\([0-9,]*\).*/\1/p" "$1" | head -1 | tr -d ,
}
for mode in flux baseline; do
    hops=$(grep -o 'packet_hops=[0-9]*' "$work/$mode.txt" | cut -d= -f2)
    printf '%s %s %s %s %s %s\n' "$mode" "$hops" \
        "$(figure "$work/$mode.err" 'I   refs')" "$(figure "$work/$mode.err" 'I1  misses')" \
        "$(figure "$work/$mode.err" 'D1  misses')" "$(figure "$work/$mode.err" 'LL misses')"
done >"$work/sum"
awk -v ll="$ll" '
{ hops[$1] = $2; ir[$1] = $3; i1[$1] = $4; d1[$1] = $5; llm[$1] = $6 }
END {
    printf "simulated caches: I1/D1 of this machine, LL %d KB (16-way); per packet-hop:\n", ll / 1024
    printf "%-9s %12s %10s %10s %10s %10s\n", "mode", "packet_hops", "instr", "I1_miss", "D1_miss", "LL_miss"
    for (m in hops) order[m == "flux" ? 1 : 2] = m
    for (i = 1; i <= 2; i++) {
        m = order[i]
        printf "%-9s %12d %10.0f %10.1f %10.1f %10.1f\n", m, hops[m], ir[m] / hops[m], i1[m] / hops[m], d1[m] / hops[m], llm[m] / hops[m]
    }
    f = "flux"; b = "baseline"
    printf "%-9s %12s %10.2f %10.2f %10.2f %10.2f\n", "ratio", "", (ir[f] / hops[f]) / (ir[b] / hops[b]), (i1[f] / hops[f]) / (i1[b] / hops[b]), (d1[f] / hops[f]) / (d1[b] / hops[b]), (llm[f] / hops[f]) / (llm[b] / hops[b])
}' "$work/sum"
if [ "$top" -gt 0 ] && command -v callgrind_annotate >/dev/null; then
    echo "flux: functions with the most last-level data read misses (DLmr):"
    callgrind_annotate --show=DLmr,DLmw --sort=DLmr "$work/flux.out" 2>/dev/null |
        awk '/file:function/ { on = 1; getline; next } on && !NF { exit } on { print }' |
        head -n "$top" | cut -c1-160
fi
