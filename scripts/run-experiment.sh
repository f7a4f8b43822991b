#!/usr/bin/env bash
# The default experiment: the multi-tenant scenario under every scheduling
# policy that flux-run offers, for a few seeds, with a summary table and plots.
#
#   scripts/run-experiment.sh [--seeds N | --seed-list "1 2 3"] [--out DIR]
#                             [--scenario FILE] [--policies "fifo ..."] [--with-variants]
#                             [--bound] [--no-deps] [--no-build] [--no-plots]
#
# 1. installs the Debian dependencies (scripts/install-deps.sh; skip with
#    --no-deps),
# 2. builds flux standalone into build/ when build/flux-run is missing
#    (else brings flux-run up to date; --no-build uses it as it is),
# 3. runs SCENARIO (default examples/scenarios/multi-tenant.json) once per
#    policy listed by `build/flux-run --list-policies` (or --policies, which
#    may also name the variants of scripts/policy-variants.txt;
#    --with-variants adds them all to the listed policies) and
#    seed (default 2 seeds: 1 2), FLUX_JOBS runs at a time (default 2),
# 4. prints a table (per policy, seed and job: JCT, mean and p99 iteration
#    time, p99 phase time; per run: flow slowdown p50/p99, PFC pauses, ECN
#    marks) and saves it as DIR/summary.txt and DIR/summary.csv,
# 5. prints the policies side by side (scripts/flux-evaluate table, means
#    over the seeds: mean and p99 JCT, p99 iteration and phase time, gate
#    wait summed over jobs, background p99 FCT slowdown, ECN marks, PFC
#    pauses, and fifo's mean JCT and p99 iteration time over the policy's)
#    and saves it as DIR/policies.txt and DIR/policies.csv; with --bound,
#    first runs per seed the bound, every policy at flow level and the best
#    schedule at packet level (scripts/flux-evaluate companions, into
#    DIR/bound, DIR/flow and DIR/best), and the table gains each policy's
#    share of the fifo -> best gap and a line with the lower bound and the
#    best (doc/bound.rst),
# 6. plots everything with scripts/flux-plot into DIR/plots (--no-plots: not).
#
# DIR defaults to results/ in the repository (git-ignored); results files go
# to DIR/runs/<scenario>-<policy>-seed<N>.json with their CSV files.
# Environment: FLUX_BUILD_DIR (default build), FLUX_JOBS (default 2).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

local deps=1 build_step=1 plots=1 out="" scenario="" policies="" seeds="1 2" variants=0 bound=0
while [ $# -gt 0 ]; do
    case "$1" in
    --seeds)
        [ $# -ge 2 ] || flux_die "--seeds needs a number"
        [[ "$2" =~ ^[1-9][0-9]*$ ]] || flux_die "--seeds: expected a positive integer, got '$2'"
        seeds=$(seq 1 "$2" | tr '\n' ' ')
        shift 2
        ;;
    --seed-list)
        [ $# -ge 2 ] || flux_die "--seed-list needs a list such as \"1 2 3\""
        [[ "$2" =~ ^\ *[1-9][0-9]*(\ +[1-9][0-9]*)*\ *$ ]] ||
            flux_die "--seed-list: expected positive integers separated by spaces, such as \"1 2 3\", got '$2'"
        # a seed twice would write one results file twice and count it twice
        [ "$(tr -s ' ' '\n' <<<"$2" | sed '/^$/d' | sort | uniq -d | head -n 1)" = "" ] ||
            flux_die "--seed-list: seed $(tr -s ' ' '\n' <<<"$2" | sed '/^$/d' | sort | uniq -d | head -n 1) is listed twice"
        seeds=$2
        shift 2
        ;;
    --out)
        [ $# -ge 2 ] || flux_die "--out needs a folder"
        out=$2
        shift 2
        ;;
    --scenario)
        [ $# -ge 2 ] || flux_die "--scenario needs a file"
        scenario=$2
        shift 2
        ;;
    --with-variants) variants=1; shift ;;
    --bound) bound=1; shift ;;
    --policies)
        [ $# -ge 2 ] || flux_die "--policies needs a list such as \"fifo\""
        policies=$2
        shift 2
        ;;
    --no-deps) deps=0; shift ;;
    --no-build) build_step=0; shift ;;
    --no-plots) plots=0; shift ;;
    -h | --help)
        sed -n '2,35p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $1 (see --help)" ;;
    esac
done

# Paths given on the command line are relative to where the script was
# started; everything else to the repository.
local here
here=$(pwd)
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
scenario=$(abspath "${scenario:-$FLUX_ROOT/examples/scenarios/multi-tenant.json}")
out=$(abspath "${out:-$FLUX_ROOT/results}")
[ -r "$scenario" ] || flux_die "scenario not readable: $scenario"
local build=${FLUX_BUILD_DIR:-$FLUX_ROOT/build}
case "$build" in /*) ;; *) build=$FLUX_ROOT/$build ;; esac
local flux_run=$build/flux-run
local t_all
t_all=$(date +%s)

if [ $deps = 1 ]; then
    flux_section "dependencies (scripts/install-deps.sh)"
    "$FLUX_ROOT/scripts/install-deps.sh"
fi

if [ $build_step = 1 ]; then
    export CCACHE_BASEDIR=$FLUX_ROOT
    if [ ! -x "$flux_run" ]; then
        flux_section "build: flux standalone into $build (-j $FLUX_JOBS)"
        local generator=()
        if command -v ninja >/dev/null && [ ! -f "$build/Makefile" ]; then
            generator=(-G Ninja)
        fi
        cmake -S "$FLUX_ROOT" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
        flux_nice cmake --build "$build" -j "$FLUX_JOBS"
    else
        flux_log "bringing $flux_run up to date"
        flux_nice cmake --build "$build" -j "$FLUX_JOBS" --target flux-run >/dev/null
    fi
fi
[ -x "$flux_run" ] || flux_die "$flux_run not found (build failed, or --no-build without a build)"

if [ -z "$policies" ]; then
    policies=$("$flux_run" --list-policies | tr '\n' ' ')
    [ -n "${policies// /}" ] || flux_die "flux-run --list-policies printed no policy"
    [ $variants = 0 ] || policies+=$(flux_policy_variants)
fi
# every name known before any run: a registered policy or a variant
local known p
known=" $("$flux_run" --list-policies | tr '\n' ' ') $(flux_policy_variants) "
for p in $policies; do
    [[ "$known" == *" $p "* ]] || flux_die "--policies: $p is neither a policy (flux-run --list-policies) nor a variant (scripts/policy-variants.txt); a plugin's is known with FLUX_PLUGINS set"
done
# the scenario under each policy, checked once before any run (exit 2, as
# flux-run's own refusal, rather than the same message once per run)
local check_args check_out
for p in $policies; do
    mapfile -t check_args < <(flux_policy_args "$p")
    if ! check_out=$("$flux_run" "$scenario" --check "${check_args[@]}" 2>&1 >/dev/null); then
        echo "${check_out:-flux-run --check failed} (policy $p)" >&2
        exit 2
    fi
done
local name
name=$(basename "$scenario" .json)
mkdir -p "$out/runs"

flux_section "runs: $name x policies [${policies% }] x seeds [${seeds% }], $FLUX_JOBS at a time"
local t_runs status_dir
t_runs=$(date +%s)
status_dir=$(mktemp -d)
# the progress lines' policy column fits the longest name (variants are long)
local width=10 p
for p in $policies; do
    if [ ${#p} -gt $width ]; then width=${#p}; fi
done
# One run: results into $out/runs, its wall time and exit status into
# $status_dir, its stderr kept for the report.
run_one() {
    local policy=$1 seed=$2
    local base=$out/runs/$name-$policy-seed$seed
    local t0 t1 ms rc=0
    t0=$(date +%s%N)
    rm -f "$base.json"
    local policy_args
    mapfile -t policy_args < <(flux_policy_args "$policy")
    nice -n "${FLUX_NICE:-10}" "$flux_run" "$scenario" "${policy_args[@]}" --seed "$seed" \
        --out "$base.json" --quiet 2>"$status_dir/$policy-$seed.err" || rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    echo "$rc $ms" >"$status_dir/$policy-$seed.status"
    if [ $rc = 0 ]; then
        printf '  %-*s seed %-3s %4d.%01d s  %s\n' "$width" "$policy" "$seed" $((ms / 1000)) \
            $((ms % 1000 / 100)) "$base.json"
    else
        printf '  %-*s seed %-3s FAILED (exit %s): %s\n' "$width" "$policy" "$seed" "$rc" \
            "$(head -c 300 "$status_dir/$policy-$seed.err")"
    fi
}
local policy seed files=()
for policy in $policies; do
    for seed in $seeds; do
        while [ "$(jobs -rp | wc -l)" -ge "$FLUX_JOBS" ]; do
            wait -n || true
        done
        run_one "$policy" "$seed" &
        files+=("$out/runs/$name-$policy-seed$seed.json")
    done
done
wait
local failed=0 st
for st in "$status_dir"/*.status; do
    [ "$(cut -d' ' -f1 "$st")" = 0 ] || failed=$((failed + 1))
done
rm -rf "$status_dir"
[ $failed = 0 ] || flux_die "$failed run(s) failed"
flux_log "runs done in $(flux_fmt_time "$(flux_elapsed "$t_runs")")"

flux_section "summary"
/usr/bin/python3 - "$out" "${files[@]}" <<'PYEOF'
import csv, json, math, sys

out, files = sys.argv[1], sys.argv[2:]


def pct(values, q):
    """Nearest-rank percentile, None for no values."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    return v[max(1, math.ceil(q / 100 * len(v))) - 1]


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{digits}f}"


header = ["policy", "seed", "job", "JCT ms", "iter mean ms", "iter p99 ms", "phase p99 ms",
          "slowdown p50", "slowdown p99", "PFC pauses", "ECN marks"]
rows = []
for f in files:
    r = json.load(open(f))
    sd = r["flows"]["fct_slowdown"]
    net = r["network"]
    for i, j in enumerate(r["jobs"]):
        it = j["iteration_ms"]
        first = i == 0
        rows.append([r["policy"], r["seed"], j["name"],
                     j["jct_ms"],
                     sum(it) / len(it) if it else None,
                     pct(it, 99),
                     j["phase_ms"]["p99"],
                     sd["p50"] if first else None,
                     sd["p99"] if first else None,
                     net["pfc_pauses"] if first else None,
                     net["ecn_marks"] if first else None])

text = [[str(c) if k < 3 else fmt(c, 2 if k in (7, 8) else 3) for k, c in enumerate(row)]
        for row in rows]
widths = [max(len(h), *(len(t[k]) for t in text)) for k, h in enumerate(header)]
lines = ["  ".join(h.ljust(w) if k < 3 else h.rjust(w) for k, (h, w) in enumerate(zip(header, widths)))]
lines.append("  ".join("-" * w for w in widths))
prev = None
for t in text:
    if prev is not None and t[0] != prev:
        lines.append("")
    prev = t[0]
    lines.append("  ".join(c.ljust(w) if k < 3 else c.rjust(w) for k, (c, w) in enumerate(zip(t, widths))))
lines.append("")
lines.append("JCT: first iteration start to last iteration end. iter p99, phase p99: "
             "nearest-rank percentiles.")
lines.append("slowdown (FCT / FCT alone on the idle fabric, all flows of the run), "
             "PFC pauses and ECN marks: per run, on its first job's row.")
table = "\n".join(lines)
print(table)
with open(f"{out}/summary.txt", "w") as fh:
    fh.write(table + "\n")
with open(f"{out}/summary.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["policy", "seed", "job", "jct_ms", "iteration_mean_ms", "iteration_p99_ms",
                "phase_p99_ms", "slowdown_p50", "slowdown_p99", "pfc_pauses", "ecn_marks"])
    for row in rows:
        w.writerow(["" if c is None else c for c in row])
PYEOF

if [ $bound = 1 ]; then
    flux_section "bound, flow level and best schedule (scripts/flux-evaluate companions)"
    /usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" companions "$scenario" --seeds "$seeds" \
        --policies "$policies" --out "$out" --flux-run "$flux_run" ||
        flux_die "the bound's runs failed"
fi

flux_section "policies (means over seeds ${seeds% })"
local table_args=()
[ $bound = 0 ] || table_args=(--bound)
/usr/bin/python3 "$FLUX_ROOT/scripts/flux-evaluate" table "${files[@]}" "${table_args[@]}" \
    --csv "$out/policies.csv" | tee "$out/policies.txt"

if [ $plots = 1 ]; then
    flux_section "plots"
    /usr/bin/python3 "$FLUX_ROOT/scripts/flux-plot" "${files[@]}" -o "$out/plots"
fi

echo
echo "results:  $out/runs/"
echo "table:    $out/summary.txt, $out/summary.csv"
echo "policies: $out/policies.txt, $out/policies.csv"
[ $plots = 0 ] || echo "plots:    $out/plots/"
flux_log "experiment done in $(flux_fmt_time "$(flux_elapsed "$t_all")")"
}

main "$@"
