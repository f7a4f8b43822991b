#!/usr/bin/env bash
# Sweeps of one scenario under every policy, at packet level: load (the
# jobs' compute scaled: compute/communication ratio), background share (the
# background tenants' load) and control latency (scheduler.control_latency_us);
# mean JCT and background p99 FCT slowdown per point, plotted.
#
#   scripts/run-sweeps.sh [--scenario FILE] [--seeds N] [--policies "fifo ..."]
#                         [--out DIR] [--doc]
#
# SCENARIO defaults to examples/scenarios/contended-leaf-spine.json (four jobs
# and a web-search tenant on an oversubscribed leaf-spine); seeds default to
# 3 (1..3); FLUX_JOBS runs at a time (default 2). Writes DIR/sweeps.csv (one
# row per sweep, point, policy and seed), DIR/sweeps.md and DIR/sweep-*.png;
# DIR defaults to results/sweeps. --doc also copies the plots to
# doc/figures/evaluation-sweep-*.png (not part of scripts/run-evaluation.sh
# --doc: about 10 minutes on two cores). Needs flux-run built
# (FLUX_BUILD_DIR, default build).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {
local scenario="$FLUX_ROOT/examples/scenarios/contended-leaf-spine.json" seeds=3 policies="" out="" doc=0
while [ $# -gt 0 ]; do
    case "$1" in
    --scenario) [ $# -ge 2 ] || flux_die "--scenario needs a file"; scenario=$2; shift 2 ;;
    --seeds)
        [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || flux_die "--seeds: expected a positive integer"
        seeds=$2
        shift 2
        ;;
    --policies) [ $# -ge 2 ] || flux_die "--policies needs a list"; policies=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || flux_die "--out needs a folder"; out=$2; shift 2 ;;
    --doc) doc=1; shift ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) flux_die "unknown argument: $1 (see --help)" ;;
    esac
done
local build=${FLUX_BUILD_DIR:-$FLUX_ROOT/build}
case "$build" in /*) ;; *) build=$FLUX_ROOT/$build ;; esac
[ -x "$build/flux-run" ] || flux_die "$build/flux-run not found (build first)"
[ -n "$policies" ] || policies=$("$build/flux-run" --list-policies | tr '\n' ' ')
out=${out:-$FLUX_ROOT/results/sweeps}
local fig_args=()
[ $doc = 0 ] || fig_args=(--figures "$FLUX_ROOT/doc/figures")
local t0
t0=$(date +%s)
/usr/bin/python3 "$FLUX_ROOT/scripts/flux-sweeps" "$scenario" --seeds "$seeds" \
    --policies "$policies" --out "$out" --flux-run "$build/flux-run" "${fig_args[@]}"
flux_log "sweeps done in $(flux_fmt_time "$(flux_elapsed "$t0")")"
}

main "$@"
