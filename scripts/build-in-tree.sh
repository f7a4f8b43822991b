#!/usr/bin/env bash
# Builds flux inside an ns-3 source tree and runs all of the module's
# TestSuites there with ./test.py -s <suite>. The tree comes from
# scripts/fetch-ns3.sh: the release tarball in ../shared/ns-3 (checked
# against its SHA256SUMS) when there is one, else Debian's source package.
#
#   scripts/build-in-tree.sh 3.37     ns-3 3.37, CMake-era ./ns3
#   scripts/build-in-tree.sh 3.48     ns-3 3.48, CMake-era ./ns3 (C++20)
#   scripts/build-in-tree.sh 3.31     ns-3 3.31, waf-era ./waf
#   scripts/build-in-tree.sh --mpi 3.37
#                                     ns-3 3.37 with MPI (Debian's openmpi),
#                                     in a tree of its own; also runs the
#                                     distributed tests (mpirun -np 1, 2)
#
# Options: --clean   drop the tree's build folder first (the compiler cache
#                    is kept, so this measures a ccache-warm full build)
#          --cold    --clean and recompile everything without reading ccache
#                    (the time a fresh machine needs; the cache is refilled)
#
# The module (this repository, or $FLUX_MODULE_DIR) is copied to
# <tree>/contrib/flux; only flux and the ns-3 modules it needs are built
# (release profile, tests and examples of flux only, no python bindings),
# through ccache. The source tree stays in $FLUX_NS3_SRC_CACHE for the next
# run, which then rebuilds only what changed.
# The last line printed is "RESULT <PASS|FAIL> ns-3 <version> ...".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

want=
clean=0
cold=0
mpi=0
for arg in "$@"; do
    case "$arg" in
    --clean) clean=1 ;;
    --cold)
        clean=1
        cold=1
        ;;
    --mpi) mpi=1 ;;
    -h | --help)
        sed -n '2,26p' "$0"
        exit 0
        ;;
    -*) flux_die "unknown option $arg" ;;
    *) want=$arg ;;
    esac
done
[ -n "$want" ] || flux_die "usage: $0 [--clean|--cold] <ns-3 version>"

module_dir=${FLUX_MODULE_DIR:-$FLUX_ROOT}
t_start=$(date +%s)
stage="fetch"
result_line() {
    echo "RESULT $1 ns-3 ${ns3ver:-$want} in-tree: $2 (total $(flux_fmt_time "$(flux_elapsed "$t_start")"))"
}
on_exit() {
    rc=$?
    if [ $rc -ne 0 ]; then
        result_line FAIL "failed at stage '$stage'"
    fi
}
trap on_exit EXIT

# MPI changes every compile line (-DNS3_MPI): its tree is a separate one.
if [ $mpi = 1 ]; then
    FLUX_NS3_SRC_CACHE=$FLUX_CACHE/ns3-src-mpi
    export FLUX_NS3_SRC_CACHE
    command -v mpicxx >/dev/null || flux_die "--mpi needs Debian's openmpi (apt-get install libopenmpi-dev openmpi-bin)"
fi

# One run at a time per ns-3 version: a second one waits here rather than
# unpack or build into the same tree.
mkdir -p "$FLUX_NS3_SRC_CACHE"
exec 9>"$FLUX_NS3_SRC_CACHE/.build-$want.lock"
if ! flock -n 9; then
    flux_log "another build of ns-3 $want is running: waiting for it"
    flock 9
fi

flux_section "ns-3 $want in-tree: fetch source"
tree=$("$FLUX_ROOT/scripts/fetch-ns3.sh" "$want")
ns3ver=$(cat "$tree/VERSION")
flux_log "ns-3 tree: $tree (VERSION $ns3ver)"
logdir=$FLUX_CACHE/logs
[ $mpi = 1 ] && logdir=$FLUX_CACHE/logs/mpi
mkdir -p "$logdir"

stage="copy module"
mkdir -p "$tree/contrib/flux"
rsync -a --delete \
    --exclude='/.git' --exclude='/build*/' --exclude='/cmake-build*/' \
    --exclude='__pycache__' --exclude='.pytest_cache' \
    "$module_dir/" "$tree/contrib/flux/"

cd "$tree"
if command -v ccache >/dev/null; then
    export CCACHE_BASEDIR=$tree
    [ $cold = 1 ] && export CCACHE_RECACHE=1
    ccache -z >/dev/null 2>&1 || true
fi

# Show the end of a log when a step fails.
run_logged() {
    local log=$1
    shift
    if ! flux_nice "$@" >"$log" 2>&1; then
        echo "---- last lines of $log ----"
        tail -n 150 "$log"
        echo "---- command failed: $* ----"
        return 1
    fi
}

if [ -x ./ns3 ]; then
    era=cmake
    [ $clean = 1 ] && rm -rf build cmake-cache
    stage="configure"
    flux_section "ns-3 $ns3ver in-tree: configure (./ns3)"
    t0=$(date +%s)
    mpi_flags=(--enable-modules=flux)
    [ $mpi = 1 ] && mpi_flags=(--enable-mpi "--enable-modules=flux;mpi")
    run_logged "$logdir/ns-$ns3ver-configure.log" ./ns3 configure -d release -G Ninja \
        "${mpi_flags[@]}" --enable-tests --enable-examples \
        --filter-module-examples-and-tests=flux \
        --disable-python-bindings --disable-precompiled-headers --disable-werror \
        -- -DNS3_CCACHE=ON
    grep -iE "ccache|Modules configured|flux" "$logdir/ns-$ns3ver-configure.log" | head -n 20 || true
    t_conf=$(flux_elapsed "$t0")

    stage="build"
    # (./ns3 build caps its job count at cores - 1: call CMake directly)
    flux_section "ns-3 $ns3ver in-tree: build (cmake --build cmake-cache -j $FLUX_JOBS)"
    t0=$(date +%s)
    flux_children_cpu c0
    # -k 0: report every compile error in one run
    run_logged "$logdir/ns-$ns3ver-build.log" cmake --build cmake-cache -j "$FLUX_JOBS" -- -k 0
    t_build=$(flux_elapsed "$t0")
    flux_children_cpu c1
    cpu_build=$((c1 - c0))
    runner=$(find build -path '*/utils/*' -name 'ns*-test-runner*' -type f -perm -u+x | head -n 1)
elif [ -x ./waf ]; then
    era=waf
    [ $clean = 1 ] && rm -rf build
    stage="configure"
    flux_section "ns-3 $ns3ver in-tree: configure (./waf)"
    t0=$(date +%s)
    cxx="g++"
    command -v ccache >/dev/null && cxx="ccache g++"
    CXX="$cxx" run_logged "$logdir/ns-$ns3ver-configure.log" ./waf configure -d release \
        --enable-modules=flux --enable-tests --enable-examples --disable-python --disable-werror
    grep -iE "flux|Modules built|Modules not built" -A3 "$logdir/ns-$ns3ver-configure.log" | head -n 30 || true
    t_conf=$(flux_elapsed "$t0")

    stage="build"
    flux_section "ns-3 $ns3ver in-tree: build (./waf build -j $FLUX_JOBS)"
    t0=$(date +%s)
    flux_children_cpu c0
    run_logged "$logdir/ns-$ns3ver-build.log" ./waf build -j "$FLUX_JOBS"
    t_build=$(flux_elapsed "$t0")
    flux_children_cpu c1
    cpu_build=$((c1 - c0))
    runner=$(find build/utils -name 'ns*-test-runner*' -type f -perm -u+x | head -n 1)
    # waf-era programs find the ns-3 libraries through the environment that
    # ./waf shell and test.py set up, not through an rpath
    export LD_LIBRARY_PATH="$tree/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
    flux_die "$tree has neither ./ns3 nor ./waf"
fi
flux_log "configure $(flux_fmt_time "$t_conf"), build $(flux_fmt_time "$t_build") (compiler CPU $(flux_fmt_time "$cpu_build"))"
command -v ccache >/dev/null && ccache -s 2>/dev/null | grep -iE "hits|misses|direct|preprocessed" | head -n 6 || true

stage="list suites"
[ -n "$runner" ] || flux_die "ns-3's test-runner was not built"
# The runner also lists a few suites that ns-3 modules define in their own
# sources: keep those whose name is a string literal in flux's test sources.
mapfile -t listed < <("$runner" --print-test-name-list | sed 's/[[:space:]]*$//' | grep -v '^$' || true)
test_sources=(contrib/flux/test/*-test-suite.cc contrib/flux/test/scenario/*-test-suite.cc)
# With CMake (./ns3), flux-gtest-suite.cc runs the GoogleTest tests as the
# suite "flux-gtest"; the waf build leaves them out.
[ -x ./ns3 ] && test_sources+=(contrib/flux/test/flux-gtest-suite.cc)
mapfile -t named < <(grep -ohE 'TestSuite\("[^"]+"' "${test_sources[@]}" 2>/dev/null |
    sed -E 's/TestSuite\("([^"]+)"/\1/' | sort -u || true)
suites=()
for s in "${listed[@]}"; do
    for n in "${named[@]}"; do
        if [ "$s" = "$n" ]; then
            suites+=("$s")
            break
        fi
    done
done
for n in "${named[@]}"; do
    [[ " ${listed[*]} " == *" $n "* ]] || flux_die "flux's suite '$n' is not in the test-runner"
done
[ ${#suites[@]} -gt 0 ] || flux_die "the test-runner lists no TestSuite"
flux_log "suites: ${suites[*]}"

stage="tests"
flux_section "ns-3 $ns3ver in-tree: ./test.py -s <suite> (${#suites[@]} suites)"
t0=$(date +%s)
failed=()
for s in "${suites[@]}"; do
    out=$(python3 ./test.py -n -s "$s" 2>&1) && rc=0 || rc=$?
    echo "$out"
    summary=$(echo "$out" | grep -E '^[0-9]+ of [0-9]+ tests passed' | tail -n 1 || true)
    if [ $rc -ne 0 ] || ! [[ "$summary" =~ ^([0-9]+)\ of\ ([0-9]+)\ tests\ passed ]] ||
        [ "${BASH_REMATCH[1]}" -lt 1 ] || [ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]; then
        failed+=("$s")
        # test.py does not show why: ask the runner for the failed cases
        echo "---- $s: failed test cases (test-runner --verbose) ----"
        "$runner" --test-name="$s" --verbose 2>&1 | grep -vE '^ *PASS ' | tail -n 40 || true
    fi
done
t_tests=$(flux_elapsed "$t0")

# The scenario runner, built as one of the module's programs.
stage="flux-run"
flux_section "ns-3 $ns3ver in-tree: flux-run examples/scenarios/single-job.json"
flux_run=$(find build -type f -perm -u+x -name '*flux-run*' | head -n 1)
[ -n "$flux_run" ] || flux_die "flux-run was not built"
run_json=$logdir/ns-$ns3ver-single-job.json
t0=$(date +%s)
"$flux_run" contrib/flux/examples/scenarios/single-job.json --out "$run_json" --quiet ||
    flux_die "$flux_run failed on single-job.json"
jct=$(python3 -c 'import json, sys; print("%.3f" % json.load(open(sys.argv[1]))["jobs"][0]["jct_ms"])' "$run_json") ||
    flux_die "no job completion time in $run_json"
t_run=$(flux_elapsed "$t0")
flux_log "$flux_run: single-job JCT $jct ms ($(flux_fmt_time "$t_run"))"

# The examples that ./test.py runs (contrib/flux/test/examples-to-run.py),
# each run once here with its arguments.
stage="examples"
flux_section "ns-3 $ns3ver in-tree: the examples of test/examples-to-run.py"
mapfile -t examples < <(python3 -c 'import sys
ns = {}
exec(open(sys.argv[1]).read(), ns)
print("\n".join(e for e, run, _ in ns["cpp_examples"] if run == "True"))' contrib/flux/test/examples-to-run.py)
[ ${#examples[@]} -gt 0 ] || flux_die "test/examples-to-run.py lists no example"
for line in "${examples[@]}"; do
    read -r -a argv <<<"$line"
    exe=$(find build -type f -perm -u+x -name "*${argv[0]}*" | head -n 1)
    [ -n "$exe" ] || flux_die "example ${argv[0]} was not built"
    "$exe" "${argv[@]:1}" >"$logdir/ns-$ns3ver-${argv[0]}.log" 2>&1 ||
        flux_die "example failed: $line (log: $logdir/ns-$ns3ver-${argv[0]}.log)"
    flux_log "example passed: $line"
done

# Under MPI: the same results on any number of processes.
mpi_detail=
mpi_failed=0
if [ $mpi = 1 ]; then
    stage="MPI tests"
    flux_section "ns-3 $ns3ver in-tree: MPI tests (test/mpi/run-mpi-tests.sh)"
    example=$(find build -type f -perm -u+x -name '*flux-distributed-example*' | head -n 1)
    [ -n "$example" ] || flux_die "flux-distributed-example was not built"
    t0=$(date +%s)
    if ! bash contrib/flux/test/mpi/run-mpi-tests.sh "$flux_run" "$example" | tee "$logdir/ns-$ns3ver-mpi-tests.log"; then
        mpi_failed=1
    fi
    mpi_detail=", MPI tests: $(grep -oE '[0-9]+ passed, [0-9]+ failed' "$logdir/ns-$ns3ver-mpi-tests.log" | tail -n 1) ($(flux_fmt_time "$(flux_elapsed "$t0")"))"
fi

stage="report"
passed=$((${#suites[@]} - ${#failed[@]}))
echo "${passed} passed, ${#failed[@]} failed"
detail="$era$([ $mpi = 1 ] && echo ' with MPI'), ${#suites[@]} suites, configure $(flux_fmt_time "$t_conf"), build $(flux_fmt_time "$t_build") (CPU $(flux_fmt_time "$cpu_build")), tests $(flux_fmt_time "$t_tests"), ${#examples[@]} examples, flux-run single-job JCT $jct ms$mpi_detail"
trap - EXIT
if [ ${#failed[@]} -ne 0 ] || [ $mpi_failed = 1 ]; then
    result_line FAIL "$detail; failed suites: ${failed[*]:-none}"
    exit 1
fi
result_line PASS "$detail"
}

main "$@"
