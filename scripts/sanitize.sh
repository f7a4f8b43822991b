#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer
# (GCC's -fsanitize=address,undefined): configures and builds flux into its
# own build folder (default build-asan: Debug with -O1, NS_ASSERT and NS_LOG
# compiled in, -fno-sanitize-recover=undefined, -fno-omit-frame-pointer;
# ns-3 itself is Debian's uninstrumented libns3-dev), then runs
#   - ctest: the ns-3 TestSuites and the GoogleTest tests;
#   - pytest over test/python, with the sanitizer runtimes preloaded into
#     Debian's /usr/bin/python3 (which is not instrumented) to load the
#     instrumented extension module; leak checking is off in the interpreter
#     and the processes it starts (Python keeps its objects to the end), but
#     every other check is on;
#   - every scenario of examples/scenarios/ and bench/scenarios/ through
#     build-asan/flux-run, at packet and at flow level, each stopped after at
#     most FLUX_SANITIZE_STOP_MS of simulated time (leak checking on); the
#     8192-host flow-level benchmark is left out, and an HPCC simulator
#     import runs whole (its flows start late).
# Any sanitizer report fails the script: the first error ends the process
# that hit it (halt_on_error), and every report of every process, also of
# those whose exit status a test does not look at, is written to a log
# folder that must stay empty.
#
# Options: --no-deps   skip scripts/install-deps.sh
#          --no-build  use the build folder as it is
#          --only STEP run one step: ctest, pytest or scenarios (repeatable)
# Environment: FLUX_BUILD_DIR (default build-asan), FLUX_JOBS (default 2),
#   FLUX_SANITIZE_STOP_MS (default 20), FLUX_SANITIZE_PYTEST_ARGS (extra
#   pytest arguments, e.g. "-k transport"), FLUX_CMAKE_ARGS (extra cmake
#   arguments).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

deps=1
build_step=1
only=()
while [ $# -gt 0 ]; do
    case "$1" in
    --no-deps) deps=0 ;;
    --no-build) build_step=0 ;;
    --only)
        shift
        case "${1:-}" in
        ctest | pytest | scenarios) only+=("$1") ;;
        *) flux_die "--only takes ctest, pytest or scenarios" ;;
        esac
        ;;
    -h | --help)
        sed -n '2,26p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $1" ;;
    esac
    shift
done
want() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }

cd "$FLUX_ROOT"
build=${FLUX_BUILD_DIR:-build-asan}
case "$build" in
/*) build_abs=$build ;;
*) build_abs=$FLUX_ROOT/$build ;;
esac
stop_ms=${FLUX_SANITIZE_STOP_MS:-20}
t_all=$(date +%s)

if [ $deps = 1 ]; then
    flux_section "sanitizers: dependencies (scripts/install-deps.sh)"
    "$FLUX_ROOT/scripts/install-deps.sh"
fi

export CCACHE_BASEDIR=$FLUX_ROOT
san_flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
t_conf=0
t_build=0
cpu_build=0
if [ $build_step = 1 ]; then
    flux_section "sanitizers: configure ($build)"
    t0=$(date +%s)
    generator=()
    if command -v ninja >/dev/null && [ ! -f "$build/Makefile" ]; then
        generator=(-G Ninja)
    fi
    # Debug: the module's NS_ASSERTs and NS_LOGs are compiled in; -O1 keeps
    # the instrumented runs of the scenarios and tests short.
    # shellcheck disable=SC2086
    cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS="$san_flags" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DCMAKE_EXE_LINKER_FLAGS="$san_flags" -DCMAKE_SHARED_LINKER_FLAGS="$san_flags" \
        -DCMAKE_MODULE_LINKER_FLAGS="$san_flags" ${FLUX_CMAKE_ARGS:-}
    t_conf=$(flux_elapsed "$t0")

    # What the tests run: flux-run, the test programs, the teaching
    # examples (test_examples.py runs them), not the benchmarks.
    targets=(flux-run flux-test-runner flux-gtest)
    known=$(cmake --build "$build" --target help)
    while read -r example; do
        targets+=("$example")
    done < <(sed -nE 's/^(\.\.\. )?(flux-[a-z0-9-]+-example)(:.*)?$/\2/p' <<<"$known")
    if grep -qE '^(\.\.\. )?_ns3flux(:|$)' <<<"$known"; then
        targets+=(_ns3flux)
    fi
    flux_section "sanitizers: build ${targets[*]} (-j $FLUX_JOBS)"
    t0=$(date +%s)
    flux_children_cpu c0
    flux_nice cmake --build "$build" -j "$FLUX_JOBS" --target "${targets[@]}"
    t_build=$(flux_elapsed "$t0")
    flux_children_cpu c1
    cpu_build=$((c1 - c0))
fi
[ -x "$build_abs/flux-run" ] || flux_die "$build_abs/flux-run not found: build first"

# Every report of every process goes to a file in $reports (asan.<pid>,
# ubsan.<pid>), also from processes whose output or exit status a test does
# not look at: the folder must stay empty.
reports=$(mktemp -d /tmp/flux-sanitize.XXXXXX)
common="halt_on_error=1:abort_on_error=0:print_summary=1:log_path"
asan_opts="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1"
export ASAN_OPTIONS="$asan_opts:$common=$reports/asan"
export UBSAN_OPTIONS="print_stacktrace=1:$common=$reports/ubsan"
# The runtimes that an uninstrumented interpreter must preload.
libasan=$(gcc -print-file-name=libasan.so)
libubsan=$(gcc -print-file-name=libubsan.so)
[ -f "$libasan" ] && [ -f "$libubsan" ] || flux_die "libasan/libubsan not found (Debian: apt-get install gcc)"

ctest_rc=0
t_ctest=0
if want ctest; then
    flux_section "sanitizers: ctest (ns-3 TestSuites, GoogleTest)"
    t0=$(date +%s)
    ctest --test-dir "$build" --output-on-failure -j "$FLUX_JOBS" --timeout 3600 || ctest_rc=$?
    t_ctest=$(flux_elapsed "$t0")
fi

pytest_rc=0
t_pytest=0
if want pytest && [ -d test/python ]; then
    flux_section "sanitizers: pytest test/python (python3 with $(basename "$libasan") and $(basename "$libubsan") preloaded)"
    [ -d "$build_abs/python/ns3flux" ] || flux_die "$build_abs/python/ns3flux not built (pybind11-dev, python3-dev)"
    t0=$(date +%s)
    # Leaks: Python does not free everything at exit by design; the
    # instrumented programs are checked for leaks in the scenarios step.
    # shellcheck disable=SC2086
    LD_PRELOAD="$libasan $libubsan" \
        ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
        FLUX_SANITIZED=1 \
        PYTHONPATH="$build_abs/python${PYTHONPATH:+:$PYTHONPATH}" \
        FLUX_BUILD_DIR="$build_abs" \
        /usr/bin/python3 -m pytest test/python -q -rs ${FLUX_SANITIZE_PYTEST_ARGS:-} || pytest_rc=$?
    t_pytest=$(flux_elapsed "$t0")
fi

scen_rc=0
t_scen=0
if want scenarios; then
    flux_section "sanitizers: scenarios (flux-run, at most $stop_ms ms simulated each)"
    t0=$(date +%s)
    work=$(mktemp -d /tmp/flux-sanitize-runs.XXXXXX)
    for scenario in examples/scenarios/*.json bench/scenarios/*.json; do
        name=$(basename "$scenario" .json)
        if [ "$name" = fat-tree-8192-16-tenants ]; then
            # 8192 hosts do not fit a sanitizer run's time at either level;
            # the flow level's code runs in every other scenario
            flux_log "left out: $scenario"
            continue
        fi
        dir=$(basename "$(dirname "$(dirname "$scenario")")")
        # The scenario itself (its files are named from its folder), stopped
        # early with --set. An HPCC simulator import runs whole: its flows
        # start late (2 s in the shipped one), and none would run.
        stop=$(/usr/bin/python3 - "$scenario" "$stop_ms" <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    s = json.load(f)
print("" if "hpcc" in s else min(float(s.get("stop_ms", 1000)), float(sys.argv[2])))
PY
        )
        short=()
        [ -z "$stop" ] || short=(--set "stop_ms=$stop")
        for backend in packet flow; do
            s0=$(date +%s)
            if "$build_abs/flux-run" "$scenario" "${short[@]}" --quiet --backend $backend \
                --out "$work/$dir-$name-$backend-results.json"; then
                flux_log "ok ($(flux_fmt_time "$(flux_elapsed "$s0")")): $scenario ($backend)"
            else
                flux_log "FAILED (exit $?): $scenario ($backend)"
                scen_rc=1
            fi
        done
    done
    rm -rf "$work"
    t_scen=$(flux_elapsed "$t0")
fi

flux_section "sanitizers: summary"
nreports=$(find "$reports" -type f | wc -l)
if [ "$nreports" -gt 0 ]; then
    # the first few in full, the others by name
    n=0
    for f in "$reports"/*; do
        n=$((n + 1))
        if [ $n -le 5 ]; then
            echo "---- $f"
            cat "$f"
        else
            echo "---- $f (not shown)"
        fi
    done
fi
echo "configure $(flux_fmt_time "$t_conf"), build $(flux_fmt_time "$t_build") (CPU $(flux_fmt_time "$cpu_build")), ctest $(flux_fmt_time "$t_ctest"), pytest $(flux_fmt_time "$t_pytest"), scenarios $(flux_fmt_time "$t_scen"), total $(flux_fmt_time "$(flux_elapsed "$t_all")")"
if [ $ctest_rc -ne 0 ] || [ $pytest_rc -ne 0 ] || [ $scen_rc -ne 0 ] || [ "$nreports" -gt 0 ]; then
    echo "FAILED: ctest exit $ctest_rc, pytest exit $pytest_rc, scenarios exit $scen_rc, $nreports sanitizer report file(s) (kept in $reports)"
    exit 1
fi
rm -rf "$reports"
echo "sanitizers: no error"
}

main "$@"
