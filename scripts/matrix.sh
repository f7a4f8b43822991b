#!/usr/bin/env bash
# Runs the compatibility matrix and prints one PASS/FAIL line per entry, with
# its times and test counts:
#
#   standalone-3.37  Debian bookworm's libns3-dev 3.37, scripts/test.sh
#                    (ctest: TestSuites and GoogleTest; pytest; notebooks)
#   model-3.37       Debian bookworm's libns3-dev 3.37, the model alone
#                    (-DFLUX_SCENARIO=OFF, nlohmann-json's and Protobuf's
#                    headers made empty): libns3-flux and its tests build
#                    and pass without the scenario application's libraries
#   in-tree-3.37     ns-3 3.37 source tree, CMake (./ns3), test.py per suite
#   mpi-3.37         ns-3 3.37 source tree built with MPI (Open MPI), test.py,
#                    and test/mpi: identical results on 1, 2 and 4 processes
#   in-tree-3.48     ns-3 3.48 source tree, CMake (./ns3), C++20, test.py
#   waf-3.31         ns-3 3.31 source tree, ./waf, test.py per suite
#   fresh-bookworm   the README's two commands in a debootstrap'd Debian
#                    bookworm root (scripts/fresh-machine.sh; needs root)
#   sanitizers       Debian bookworm's libns3-dev 3.37, every test and every
#                    shipped scenario under ASan+UBSan (scripts/sanitize.sh)
#   fuzz-readers     the Chakra and AICB workload readers under libFuzzer
#                    (clang, ASan+UBSan), 10 minutes each
#                    (scripts/fuzz-readers.sh)
#
#   scripts/matrix.sh                        all entries
#   scripts/matrix.sh in-tree-3.48 waf-3.31  some
#
# Source trees: the release tarballs in ../shared/ns-3 (checked against its
# SHA256SUMS), else Debian's source packages (scripts/fetch-ns3.sh). Each
# entry's full output goes to $FLUX_CACHE/logs/matrix-<entry>.log. ns-3
# trees and ccache stay in ~/.cache, so a second run is fast.
# Exits non-zero if any entry fails.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

all=(standalone-3.37 model-3.37 in-tree-3.37 mpi-3.37 in-tree-3.48 waf-3.31 fresh-bookworm sanitizers
    fuzz-readers)
entries=("$@")
[ ${#entries[@]} -gt 0 ] || entries=("${all[@]}")
for e in "${entries[@]}"; do
    [[ " ${all[*]} " == *" $e "* ]] || flux_die "unknown entry $e (known: ${all[*]})"
done

logdir=$FLUX_CACHE/logs
mkdir -p "$logdir"
"$FLUX_ROOT/scripts/install-deps.sh" --source-trees >"$logdir/matrix-deps.log" 2>&1 ||
    flux_die "scripts/install-deps.sh failed, see $logdir/matrix-deps.log"

lines=()
nfail=0
for e in "${entries[@]}"; do
    log=$logdir/matrix-$e.log
    ver=${e##*-}
    kind=${e%-*}
    flux_log "matrix: $e (log: $log)"
    t0=$(date +%s)
    case "$kind" in
    standalone)
        FLUX_BUILD_DIR=build-matrix \
            "$FLUX_ROOT/scripts/test.sh" --no-deps >"$log" 2>&1 && rc=0 || rc=$?
        ;;
    model)
        # (defining the headers' include guards makes them empty, so that
        # any use of either library fails to compile)
        (cd "$FLUX_ROOT" &&
            cmake -S . -B build-model -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLUX_SCENARIO=OFF \
                -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON \
                -DCMAKE_DISABLE_FIND_PACKAGE_Protobuf=ON \
                "-DCMAKE_CXX_FLAGS=-DINCLUDE_NLOHMANN_JSON_HPP_ -DGOOGLE_PROTOBUF_MESSAGE_H__" &&
            cmake --build build-model -j"${FLUX_JOBS:-2}" &&
            cd build-model && ctest -j"${FLUX_JOBS:-2}" --output-on-failure) >"$log" 2>&1 &&
            rc=0 || rc=$?
        ;;
    in-tree | waf)
        "$FLUX_ROOT/scripts/build-in-tree.sh" "$ver" >"$log" 2>&1 && rc=0 || rc=$?
        ;;
    mpi)
        "$FLUX_ROOT/scripts/build-in-tree.sh" --mpi "$ver" >"$log" 2>&1 && rc=0 || rc=$?
        ;;
    fresh)
        "$FLUX_ROOT/scripts/fresh-machine.sh" >"$log" 2>&1 && rc=0 || rc=$?
        ver=3.37
        ;;
    sanitizers)
        FLUX_BUILD_DIR=build-asan \
            "$FLUX_ROOT/scripts/sanitize.sh" --no-deps >"$log" 2>&1 && rc=0 || rc=$?
        ver=3.37
        ;;
    fuzz)
        "$FLUX_ROOT/scripts/fuzz-readers.sh" --minutes 10 --out "$FLUX_ROOT/build-fuzz" \
            >"$log" 2>&1 && rc=0 || rc=$?
        ver=3.37
        ;;
    esac
    dt=$(flux_fmt_time "$(flux_elapsed "$t0")")
    if [ "$kind" = fuzz ]; then
        # per reader: executions and corpus, or the finding
        detail=$(grep -E '(no finding|FINDING)' "$log" | sed -E 's/^\[flux [0-9:]+\] //' |
            tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
    elif [ "$kind" = standalone ] || [ "$kind" = sanitizers ] || [ "$kind" = model ]; then
        # build times, ctest's and pytest's closing lines
        detail=$(grep -E '^(configure .*total|[0-9]+% tests passed|=* ?[0-9]+ passed.* in [0-9.]+s)' "$log" |
            sed -E 's/^=+ //; s/ =+$//' | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
    else
        detail=$(grep -E '^RESULT ' "$log" | tail -n 1 | sed -E 's/^RESULT (PASS|FAIL) //' || true)
        if [ "$kind" != fresh ]; then
            # build-in-tree.sh's count of TestSuites that passed test.py
            suites=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
            [ -n "$suites" ] && detail="$detail; test.py suites: $suites"
        fi
    fi
    if [ $rc -eq 0 ]; then
        status=PASS
    else
        status=FAIL
        nfail=$((nfail + 1))
        why=$(grep -E '^\[flux\] ERROR|^FAILED|error:' "$log" | tail -n 1 | cut -c1-200 || true)
        [ -n "$why" ] && detail="$detail; $why"
    fi
    line=$(printf '%-4s  %-10s  ns-3 %-5s  %8s  %s' "$status" "$kind" "$ver" "$dt" "$detail")
    echo "$line"
    lines+=("$line")
done

echo
echo "compatibility matrix:"
printf '%s\n' "${lines[@]}"
echo "$((${#entries[@]} - nfail)) passed, $nfail failed"
[ $nfail -eq 0 ]
}

main "$@"
