#!/usr/bin/env bash
# Runs the compatibility matrix and prints one PASS/FAIL line per entry:
#
#   standalone   ns-3 3.37  Debian bookworm's libns3-dev, scripts/test.sh
#   in-tree      ns-3 3.37  bookworm source package, CMake (./ns3), test.py
#   in-tree      ns-3 3.48  sid source package, CMake (./ns3), test.py
#   waf          ns-3 3.31  bullseye source package, ./waf, test.py
#
#   scripts/matrix.sh                  all entries
#   scripts/matrix.sh in-tree-3.37 waf-3.31   some (standalone-3.37,
#                                      in-tree-3.37, in-tree-3.48, waf-3.31)
#
# Each entry's full output goes to $FLUX_CACHE/logs/matrix-<entry>.log. An
# entry whose ns-3 source package cannot be downloaded fails; its line then
# also reports scripts/check-ns3-api.sh for that version (the module compiled
# against the release's headers from Debian's libns3-dev), for information.
# ns-3 trees and ccache stay in ~/.cache, so a second run is fast.
# Exits non-zero if any entry fails.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

all=(standalone-3.37 in-tree-3.37 in-tree-3.48 waf-3.31)
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
    in-tree | waf)
        "$FLUX_ROOT/scripts/build-in-tree.sh" "$ver" >"$log" 2>&1 && rc=0 || rc=$?
        ;;
    esac
    dt=$(flux_fmt_time "$(flux_elapsed "$t0")")
    if [ "$kind" = standalone ]; then
        detail=$(grep -E '^(configure .*total|[0-9]+% tests passed)' "$log" | tr '\n' ';' | sed 's/;$//' || true)
    else
        detail=$(grep -E '^RESULT ' "$log" | tail -n 1 | sed -E 's/^RESULT (PASS|FAIL) //' || true)
    fi
    if [ $rc -eq 0 ]; then
        status=PASS
    else
        status=FAIL
        nfail=$((nfail + 1))
        why=$(grep -E '^\[flux\] ERROR|^FAILED|error:' "$log" | tail -n 1 | cut -c1-200 || true)
        [ -n "$why" ] && detail="$detail; $why"
        if grep -q "failed at stage 'fetch" "$log"; then
            # No source tree: at least compile the module against that
            # release's headers (Debian's libns3-dev), and say so.
            api=$("$FLUX_ROOT/scripts/check-ns3-api.sh" "$ver" 2>>"$log" | tee -a "$log" | grep '^RESULT' | tail -n 1 || true)
            [ -n "$api" ] && detail="$detail; instead: ${api#RESULT }"
        fi
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
