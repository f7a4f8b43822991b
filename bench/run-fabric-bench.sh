#!/usr/bin/env bash
# Runs bench/fabric-bench in flux and baseline mode alternately, N times each
# (separate processes, so that peak memory is per mode), and prints the
# median of each figure per mode, the ratio flux/baseline of the wall time
# per packet-hop (counting every frame flux sends, and counting data
# packet-hops only), the median over the alternating pairs of the ratio of
# CPU time per hop (a flux run over the baseline run right after it: robust
# to the machine's speed drifting), and a one-line verdict of the latter
# against the goals (ratios <= 1.3 and <= 1.6).
# The verdict is informational: the script exits 0 unless a run fails.
#
#   bench/run-fabric-bench.sh [-n N] [-b BUILD_DIR] [-- fabric-bench options]
#
#   -n N          runs per mode (default 3)
#   -b BUILD_DIR  standalone build folder (default: $FLUX_BUILD or <repo>/build)
#   options after -- go to both modes, e.g. -- --packets=5000 --cc=dcqcn
#
# Every single run's line is printed too (prefixed "run:").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=3
build=${FLUX_BUILD:-$here/../build}
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-fabric-bench.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -n) need "$@"; runs=$2; shift 2 ;;
    -b) need "$@"; build=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-fabric-bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
bin=$build/bench/fabric-bench
if [ ! -x "$bin" ]; then
    echo "run-fabric-bench.sh: $bin not found: build first (cmake --build $build)" >&2
    exit 2
fi
case "$runs" in '' | *[!0-9]* | 0) echo "run-fabric-bench.sh: -n wants a positive number" >&2; exit 2 ;; esac

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((i = 1; i <= runs; i++)); do
    for mode in flux baseline; do
        line=$("$bin" --mode=$mode "$@")
        echo "run: $line"
        echo "$line" >>"$out"
    done
done

# Median of each numeric key per mode, then the ratios.
awk '
function median(mode, key,    n, i, j, t, v) {
    n = cnt[mode, key]
    for (i = 1; i <= n; i++) v[i] = val[mode, key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
    mode = ""
    for (f = 1; f <= NF; f++) { split($f, kv, "="); if (kv[1] == "mode") mode = kv[2] }
    for (f = 1; f <= NF; f++) {
        split($f, kv, "=")
        if (kv[1] == "mode") continue
        if (!((mode, kv[1]) in cnt)) { if (mode == "flux") keys[++nk] = kv[1] }
        val[mode, kv[1], ++cnt[mode, kv[1]]] = kv[2]
    }
}
END {
    for (m = 1; m <= 2; m++) {
        mode = (m == 1) ? "flux" : "baseline"
        line = "median: mode=" mode
        for (k = 1; k <= nk; k++) if ((mode, keys[k]) in cnt) line = line " " keys[k] "=" median(mode, keys[k])
        print line
    }
    fw = median("flux", "us_per_hop"); bw = median("baseline", "us_per_hop")
    fc = median("flux", "cpu_us_per_hop"); bc = median("baseline", "cpu_us_per_hop")
    ratio = (bw > 0) ? fw / bw : 0
    cratio = (bc > 0) ? fc / bc : 0
    # per data packet-hop: the same run time over the data packet-hops only
    fdw = median("flux", "wall_s") * 1e6 / median("flux", "data_hops")
    fdc = median("flux", "cpu_s") * 1e6 / median("flux", "data_hops")
    dratio = (bw > 0) ? fdw / bw : 0
    dcratio = (bc > 0) ? fdc / bc : 0
    printf "ratio: us_per_hop flux/baseline = %.2f (flux %.3f us, baseline %.3f us; CPU time: %.2f)\n", ratio, fw, bw, cratio
    printf "ratio: per data packet-hop flux/baseline = %.2f (flux %.3f us; CPU time: %.2f)\n", dratio, fdw, dcratio
    printf "ratio: events_per_s flux %.0f, baseline %.0f; kb_per_host flux %.1f, baseline %.1f\n", median("flux", "events_per_s"), median("baseline", "events_per_s"), median("flux", "kb_per_host"), median("baseline", "kb_per_host")
    # Each flux run over the baseline run right after it: the machine
    # speed drifts, a pair shares its moment. The median over the pairs.
    np = 0
    for (i = 1; i <= cnt["flux", "cpu_us_per_hop"] && i <= cnt["baseline", "cpu_us_per_hop"]; i++) {
        b = val["baseline", "cpu_us_per_hop", i]
        if (b <= 0) continue
        np++
        val["pair", "all", np] = val["flux", "cpu_us_per_hop", i] / b
        val["pair", "data", np] = val["flux", "cpu_s", i] * 1e6 / val["flux", "data_hops", i] / b
        cnt["pair", "all"] = np; cnt["pair", "data"] = np
    }
    pa = (np > 0) ? median("pair", "all") : 0
    pd = (np > 0) ? median("pair", "data") : 0
    printf "ratio: CPU time per hop, median of %d alternating pairs: %.2f (all frames), %.2f (data hops)\n", np, pa, pd
    if (pa <= 1.3 && pd <= 1.6) printf "verdict: PASS: pair ratios %.2f (all frames) and %.2f (data) meet the goals (<= 1.3, <= 1.6)\n", pa, pd
    else printf "verdict: MISS: pair ratios %.2f (all frames) and %.2f (data) against the goals (<= 1.3, <= 1.6)\n", pa, pd
}' "$out"
