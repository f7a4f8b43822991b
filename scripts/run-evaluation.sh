#!/usr/bin/env bash
# The policy evaluation: every contended and realistic scenario and one job
# alone, under every scheduling policy, for several seeds; tables and plots.
#
#   scripts/run-evaluation.sh [--seeds N | --seed-list "1 2"] [--out DIR]
#                             [--scenarios "FILE ..."] [--policies "fifo ..."]
#                             [--variance FILE | --no-variance]
#                             [--deps] [--no-build] [--report-only] [--doc]
#
# 1. builds flux-run when needed (as scripts/run-experiment.sh; --no-build
#    uses it as it is; --deps first installs the Debian dependencies),
# 2. runs each scenario (default examples/scenarios/contended-*.json,
#    realistic-*.json, two-workloads.json and single-job.json) at packet level with
#    scripts/run-experiment.sh under every policy of `flux-run
#    --list-policies` and every variant of scripts/policy-variants.txt (or
#    --policies) and seed (default 10 seeds: 1..10; two-workloads, whose
#    runs take a minute each, 3 unless --seeds or --seed-list is given),
#    FLUX_JOBS runs at a time (default 2), results into DIR/<scenario>/runs/,
# 3. per scenario and seed (scripts/flux-evaluate companions): the bound
#    (flux-run --bound: each job alone, lower bound, best schedule),
#    every policy at flow level, and the best schedule replayed at packet
#    level, into DIR/<scenario>/{bound,flow,best}/ (none for scenarios whose
#    jobs replay workload files, though both levels and the bound run them),
# 4. for one scenario (--variance FILE; with the default scenarios
#    examples/scenarios/realistic-gpt-bert-fat-tree.json unless
#    --no-variance; with --scenarios none unless asked) fifo and flux with one
#    source of randomness varied at a time (--seed-ecmp, --seed-background,
#    --seed-placement), into DIR/variance/,
# 5. writes with scripts/flux-evaluate report: DIR/evaluation.csv (one row
#    per scenario and policy: means and 95 % CIs over the seeds),
#    DIR/evaluation-runs.csv (one row per run), DIR/evaluation-jobs.csv (one
#    row per job run), DIR/evaluation.md and DIR/plots/ (JCT with CI bars,
#    per-job slowdown CDFs, fairness, iteration-time and background
#    FCT-slowdown CDFs, the traced link's timeline, classes over time).
#
# --doc also writes the tables to doc/evaluation-tables.rst.inc and copies the
# plots to doc/figures/evaluation-*.png (what doc/evaluation.rst shows).
# --report-only skips steps 1-4 and writes the report from the runs already
# in DIR (the same arguments otherwise). With --policies, only those
# policies' runs are redone: the other policies' runs in DIR stay and the
# report covers them all (a scenario's own summary.txt and policies.txt,
# from scripts/run-experiment.sh, cover the policies run).
# DIR defaults to results/evaluation in the repository (git-ignored).
# The sweeps (load, background share, control latency) are
# scripts/run-sweeps.sh.
# Environment: FLUX_BUILD_DIR (default build), FLUX_JOBS (default 2).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {

local out="" scenarios="" seeds="1 2 3 4 5 6 7 8 9 10" policies="" deps=0 build_step=1 doc=0 report_only=0
# without --seeds or --seed-list, these scenarios (a minute a run) run seeds 1-3
local few_seeds="two-workloads" seeds_given=0
    local variance=default
while [ $# -gt 0 ]; do
    case "$1" in
    --seeds)
        [ $# -ge 2 ] || flux_die "--seeds needs a number"
        [[ "$2" =~ ^[1-9][0-9]*$ ]] || flux_die "--seeds: expected a positive integer, got '$2'"
        seeds=$(seq 1 "$2" | tr '\n' ' ')
        seeds_given=1
        shift 2
        ;;
    --seed-list)
        [ $# -ge 2 ] || flux_die "--seed-list needs a list such as \"1 2 3\""
        seeds=$2
        seeds_given=1
        shift 2
        ;;
    --variance)
        [ $# -ge 2 ] || flux_die "--variance needs a scenario file"
        variance=$2
        shift 2
        ;;
    --no-variance) variance=""; shift ;;
    --out)
        [ $# -ge 2 ] || flux_die "--out needs a folder"
        out=$2
        shift 2
        ;;
    --scenarios)
        [ $# -ge 2 ] || flux_die "--scenarios needs a list of files"
        scenarios=$2
        shift 2
        ;;
    --policies)
        [ $# -ge 2 ] || flux_die "--policies needs a list such as \"fifo flux\""
        policies=$2
        shift 2
        ;;
    --deps) deps=1; shift ;;
    --no-build) build_step=0; shift ;;
    --doc) doc=1; shift ;;
    --report-only) report_only=1; shift ;;
    -h | --help)
        sed -n '2,44p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $1 (see --help)" ;;
    esac
done

local here
here=$(pwd)
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
out=$(abspath "${out:-$FLUX_ROOT/results/evaluation}")
local files=() f
if [ -z "$scenarios" ]; then
    files=("$FLUX_ROOT"/examples/scenarios/contended-*.json "$FLUX_ROOT"/examples/scenarios/realistic-*.json
        "$FLUX_ROOT/examples/scenarios/two-workloads.json" "$FLUX_ROOT/examples/scenarios/single-job.json")
else
    for f in $scenarios; do files+=("$(abspath "$f")"); done
fi
for f in "${files[@]}"; do [ -r "$f" ] || flux_die "scenario not readable: $f"; done
if [ "$variance" = default ]; then
    # with the default scenarios only (--scenarios runs no variance unless asked)
    variance=""
    [ -n "$scenarios" ] || variance=$FLUX_ROOT/examples/scenarios/realistic-gpt-bert-fat-tree.json
fi
[ -z "$variance" ] || { variance=$(abspath "$variance"); [ -r "$variance" ] || flux_die "scenario not readable: $variance"; }
local build=${FLUX_BUILD_DIR:-$FLUX_ROOT/build}
case "$build" in /*) ;; *) build=$FLUX_ROOT/$build ;; esac
local t_all
t_all=$(date +%s)

local report_var=()
if [ $report_only = 1 ]; then
    [ -z "$variance" ] || [ ! -d "$out/variance" ] || report_var=(--variance "$out/variance")
else
# Runs of an earlier evaluation into the same folder would mix into the tables.
mkdir -p "$out"
rm -rf "$out/plots" "$out/evaluation.csv" "$out/evaluation-runs.csv" "$out/evaluation-jobs.csv" \
    "$out/evaluation.md"
# a rerun of some policies keeps the others' runs, and one without variance
# runs keeps those of an earlier evaluation
if [ -z "$variance" ]; then
    :
elif [ -z "$policies" ]; then
    rm -rf "$out/variance"
else
    for p in $policies; do
        rm -f "$out"/variance/*/*-"$p"-seed*.json
    done
fi

local first=1 name step_args=() k=0
for f in "${files[@]}"; do
    k=$((k + 1))
    name=$(basename "$f" .json)
    step_args=()
    [ $deps = 1 ] && [ $first = 1 ] || step_args+=(--no-deps)
    [ $build_step = 1 ] && [ $first = 1 ] || step_args+=(--no-build)
    first=0
    if [ -z "$policies" ]; then
        rm -rf "${out:?}/$name"
    else
        for p in $policies; do
            rm -f "$out/$name/runs/$name-$p-seed"* "$out/$name/flow/$name-$p-seed"*
        done
    fi
    # every registered policy, then the variants that take one part away
    local scen_seeds=$seeds
    [ $seeds_given = 1 ] || [[ " $few_seeds " != *" $name "* ]] || scen_seeds="1 2 3"
    local policy_args=(--with-variants)
    [ -z "$policies" ] || policy_args=(--policies "$policies")
    flux_log "[$k/${#files[@]}] $name: packet-level runs"
    "$FLUX_ROOT/scripts/run-experiment.sh" --scenario "$f" --out "$out/$name" --no-plots \
        --seed-list "$scen_seeds" "${policy_args[@]}" "${step_args[@]}" \
        >"$out/$name.log" 2>&1 || {
        tail -n 20 "$out/$name.log" >&2
        flux_die "$name failed (log: $out/$name.log)"
    }
    [ -n "$policies" ] ||
        policies="$("$build/flux-run" --list-policies | tr '\n' ' ')$(flux_policy_variants)"
    flux_log "[$k/${#files[@]}] $name: $(grep -c ' s  /' "$out/$name.log" || true) runs; bounds, flow level, best replays"
    /usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" companions "$f" --seeds "$scen_seeds" \
        --policies "$policies" --out "$out/$name" --flux-run "$build/flux-run" ||
        flux_die "$name: companion runs failed"
    flux_log "[$k/${#files[@]}] $name done, $(flux_fmt_time "$(flux_elapsed "$t_all")") so far"
done
if [ -n "$variance" ]; then
    local var_policies=""
    for p in fifo flux; do
        case " $policies " in *" $p "*) var_policies+="$p " ;; esac
    done
    flux_log "variance: $(basename "$variance" .json), one seed varied at a time [${var_policies% }]"
    /usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" variance "$variance" --seeds "$seeds" \
        --policies "${var_policies% }" --out "$out/variance" --flux-run "$build/flux-run" ||
        flux_die "variance runs failed"
    report_var=(--variance "$out/variance")
fi
fi

flux_section "evaluation"
local report_args=()
if [ $doc = 1 ]; then
    report_args=(--rst "$FLUX_ROOT/doc/evaluation-tables.rst.inc" --figures "$FLUX_ROOT/doc/figures")
fi
local dirs=()
for f in "${files[@]}"; do dirs+=("$out/$(basename "$f" .json)/runs"); done
/usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" report "${dirs[@]}" --out "$out" \
    "${report_args[@]}" "${report_var[@]}" --scenarios "${files[@]}" >/dev/null
cat "$out/evaluation.md"
echo
echo "tables: $out/evaluation.csv, $out/evaluation-runs.csv, $out/evaluation-jobs.csv, $out/evaluation.md"
echo "plots:  $out/plots/"
[ $doc = 0 ] || echo "doc:    doc/evaluation-tables.rst.inc, doc/figures/evaluation-*.png"
flux_log "evaluation done in $(flux_fmt_time "$(flux_elapsed "$t_all")")"
}

main "$@"
