#!/usr/bin/env bash
# The policy evaluation: every contended scenario and one job alone, under
# every scheduling policy, for a few seeds; tables and plots.
#
#   scripts/run-evaluation.sh [--seeds N | --seed-list "1 2"] [--out DIR]
#                             [--scenarios "FILE ..."] [--policies "fifo ..."]
#                             [--deps] [--no-build] [--doc]
#
# 1. builds flux-run when needed (as scripts/run-experiment.sh; --no-build
#    uses it as it is; --deps first installs the Debian dependencies),
# 2. runs each scenario (default examples/scenarios/contended-*.json and
#    examples/scenarios/single-job.json) with scripts/run-experiment.sh under
#    every policy of `flux-run --list-policies` (or --policies) and seed
#    (default 2 seeds: 1 2), FLUX_JOBS runs at a time (default 2), results
#    into DIR/<scenario>/runs/,
# 3. writes with scripts/flux-evaluate report: DIR/evaluation.csv (one row
#    per scenario and policy: means over the seeds, ratios vs fifo),
#    DIR/evaluation-runs.csv (one row per run), DIR/evaluation.md (a table
#    per scenario) and DIR/plots/ (JCT bars, iteration-time and background
#    FCT-slowdown CDFs, the traced link's timeline under fifo and flux).
#
# --doc also writes the tables to doc/evaluation-tables.rst.inc and copies the
# plots to doc/figures/evaluation-*.png (what doc/evaluation.rst shows).
# DIR defaults to results/evaluation in the repository (git-ignored).
# Environment: FLUX_BUILD_DIR (default build), FLUX_JOBS (default 2).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {

local out="" scenarios="" seed_args=(--seeds 2) policy_args=() deps=0 build_step=1 doc=0
while [ $# -gt 0 ]; do
    case "$1" in
    --seeds | --seed-list)
        [ $# -ge 2 ] || flux_die "$1 needs a value"
        seed_args=("$1" "$2")
        shift 2
        ;;
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
        policy_args=(--policies "$2")
        shift 2
        ;;
    --deps) deps=1; shift ;;
    --no-build) build_step=0; shift ;;
    --doc) doc=1; shift ;;
    -h | --help)
        sed -n '2,25p' "$0"
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
    files=("$FLUX_ROOT"/examples/scenarios/contended-*.json "$FLUX_ROOT/examples/scenarios/single-job.json")
else
    for f in $scenarios; do files+=("$(abspath "$f")"); done
fi
for f in "${files[@]}"; do [ -r "$f" ] || flux_die "scenario not readable: $f"; done
local t_all
t_all=$(date +%s)

# Runs of an earlier evaluation into the same folder would mix into the tables.
mkdir -p "$out"
rm -rf "$out/plots" "$out/evaluation.csv" "$out/evaluation-runs.csv" "$out/evaluation.md"

local first=1 name step_args=()
for f in "${files[@]}"; do
    name=$(basename "$f" .json)
    step_args=()
    [ $deps = 1 ] && [ $first = 1 ] || step_args+=(--no-deps)
    [ $build_step = 1 ] && [ $first = 1 ] || step_args+=(--no-build)
    first=0
    rm -rf "${out:?}/$name"
    "$FLUX_ROOT/scripts/run-experiment.sh" --scenario "$f" --out "$out/$name" --no-plots \
        "${seed_args[@]}" "${policy_args[@]}" "${step_args[@]}" \
        >"$out/$name.log" 2>&1 || {
        tail -n 20 "$out/$name.log" >&2
        flux_die "$name failed (log: $out/$name.log)"
    }
    flux_log "$name done ($(grep -c ' s  /' "$out/$name.log" || true) runs)"
done

flux_section "evaluation"
local report_args=()
if [ $doc = 1 ]; then
    report_args=(--rst "$FLUX_ROOT/doc/evaluation-tables.rst.inc" --figures "$FLUX_ROOT/doc/figures")
fi
local dirs=()
for f in "${files[@]}"; do dirs+=("$out/$(basename "$f" .json)/runs"); done
/usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" report "${dirs[@]}" --out "$out" \
    "${report_args[@]}" --scenarios "${files[@]}" >/dev/null
cat "$out/evaluation.md"
echo
echo "tables: $out/evaluation.csv, $out/evaluation-runs.csv, $out/evaluation.md"
echo "plots:  $out/plots/"
[ $doc = 0 ] || echo "doc:    doc/evaluation-tables.rst.inc, doc/figures/evaluation-*.png"
flux_log "evaluation done in $(flux_fmt_time "$(flux_elapsed "$t_all")")"
}

main "$@"
