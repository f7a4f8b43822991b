#!/usr/bin/env bash
# The test entry point: installs the Debian dependencies, builds flux
# standalone against the installed ns-3 into build/, and runs every test:
#   - ctest: the ns-3 TestSuites (one CTest test per suite, run through
#     build/flux-test-runner) and the GoogleTest tests (build/flux-gtest),
#     plus whatever else the subfolders register;
#   - pytest over test/python, when that folder exists (Debian's python3,
#     PYTHONPATH=build/python);
#   - the example notebooks, through scripts/run-notebooks.sh.
# Exits non-zero when the build or any test fails.
#
# Options: --no-deps  skip scripts/install-deps.sh
# Environment: FLUX_BUILD_DIR (default build), FLUX_JOBS (default 2),
#              FLUX_BUILD_TYPE (default Release), FLUX_CMAKE_ARGS (extra args)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

deps=1
for arg in "$@"; do
    case "$arg" in
    --no-deps) deps=0 ;;
    -h | --help)
        sed -n '2,16p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $arg" ;;
    esac
done

cd "$FLUX_ROOT"
build=${FLUX_BUILD_DIR:-build}
case "$build" in
/*) build_abs=$build ;;
*) build_abs=$FLUX_ROOT/$build ;;
esac
t_all=$(date +%s)

if [ $deps = 1 ]; then
    flux_section "flux: dependencies (scripts/install-deps.sh)"
    "$FLUX_ROOT/scripts/install-deps.sh"
fi

# Cache hits across clones of the repository in other folders.
export CCACHE_BASEDIR=$FLUX_ROOT

flux_section "flux: configure ($build, ${FLUX_BUILD_TYPE:-Release})"
t0=$(date +%s)
generator=()
if command -v ninja >/dev/null && [ ! -f "$build/Makefile" ]; then
    generator=(-G Ninja)
fi
# shellcheck disable=SC2086
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE="${FLUX_BUILD_TYPE:-Release}" ${FLUX_CMAKE_ARGS:-}
t_conf=$(flux_elapsed "$t0")

flux_section "flux: build (-j $FLUX_JOBS)"
t0=$(date +%s)
flux_children_cpu c0
flux_nice cmake --build "$build" -j "$FLUX_JOBS"
t_build=$(flux_elapsed "$t0")
flux_children_cpu c1
cpu_build=$((c1 - c0))

flux_section "flux: ctest (ns-3 TestSuites, GoogleTest)"
t0=$(date +%s)
ctest_rc=0
ctest --test-dir "$build" --output-on-failure -j "$FLUX_JOBS" || ctest_rc=$?
t_ctest=$(flux_elapsed "$t0")

pytest_rc=0
t_pytest=0
if [ -d test/python ]; then
    flux_section "flux: pytest test/python"
    t0=$(date +%s)
    PYTHONPATH="$build_abs/python${PYTHONPATH:+:$PYTHONPATH}" \
        FLUX_BUILD_DIR="$build_abs" \
        /usr/bin/python3 -m pytest test/python -q -rs || pytest_rc=$?
    if [ $pytest_rc -eq 5 ]; then
        echo "pytest: no tests collected (exit 5), counted as success"
        pytest_rc=0
    fi
    t_pytest=$(flux_elapsed "$t0")
fi

# Example notebooks: executed headless by scripts/run-notebooks.sh, which
# fails on any cell error (needs the Python module in the build).
notebooks_rc=0
if [ -x scripts/run-notebooks.sh ] && [ -d "$build_abs/python/ns3flux" ]; then
    flux_section "flux: notebooks (scripts/run-notebooks.sh)"
    scripts/run-notebooks.sh "$build_abs" || notebooks_rc=$?
fi

flux_section "flux: summary"
echo "configure $(flux_fmt_time "$t_conf"), build $(flux_fmt_time "$t_build") (CPU $(flux_fmt_time "$cpu_build")), ctest $(flux_fmt_time "$t_ctest"), pytest $(flux_fmt_time "$t_pytest"), total $(flux_fmt_time "$(flux_elapsed "$t_all")")"
if [ $ctest_rc -ne 0 ] || [ $pytest_rc -ne 0 ] || [ $notebooks_rc -ne 0 ]; then
    echo "FAILED: ctest exit $ctest_rc, pytest exit $pytest_rc, notebooks exit $notebooks_rc"
    exit 1
fi
echo "all tests passed"
}

main "$@"
