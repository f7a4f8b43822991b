#!/usr/bin/env bash
# The distributed tests: one fabric, several MPI processes, the same results.
#
#   test/mpi/run-mpi-tests.sh FLUX_RUN DISTRIBUTED_EXAMPLE
#
# FLUX_RUN and DISTRIBUTED_EXAMPLE are the programs of an ns-3 tree built
# with MPI and flux in contrib/ (scripts/build-in-tree.sh --mpi 3.37 runs
# this). Each check states what it proves:
#
#   1. flux-distributed-example: the digest of every flow's completion time
#      and every switch counter is the same on 1, 2 and 4 processes and
#      without mpirun (frames across processes, the OrderedScheduler).
#   2. flux-run on scenarios that exercise every part (two jobs and a tenant
#      under each policy, link loss, a cable down and up with route
#      recomputation, rate and queue traces, a PFC deadlock the stall check
#      ends, replayed Chakra and AICB workloads): mpirun -np 1, 2 and 4
#      write identical results and CSVs, all but wall time and the event
#      count.
#   3. A run without MPI with event_scheduler "ordered" and the completion
#      latency of MPI gives the results of mpirun.
#   4. More processes than pods or leaves: one line naming the field, exit 2,
#      no results.
#   5. --backend flow and --bound under mpirun, one process included: one
#      line naming the option, no results.
#   6. Standard output is the first process's (--help, --check once), and
#      FLUX_TIMING's frame counts are summed over the processes.
# The last line printed is "MPI tests: N passed, M failed".
set -uo pipefail

flux_run=$(readlink -f "$1")
example=$(readlink -f "$2")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
module=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/flux-mpi-tests.XXXXXX)
# Open MPI refuses root unless told; more processes than cores is fine here.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none)
passed=0
failed=0

check() {
    local what=$1
    shift
    if "$@" >"$work/check.log" 2>&1; then
        passed=$((passed + 1))
        echo "PASS $what"
    else
        failed=$((failed + 1))
        echo "FAIL $what"
        tail -n 20 "$work/check.log"
    fi
}

# 1. The fabric alone.
digest() { # $1: output file; the rest: how to start the example
    local out=$1
    shift
    "$@" "$example" >"$out" 2>"$out.err" && grep '^digest:' "$out"
}
same_digest() {
    local ref
    ref=$(digest "$work/ex-seq.txt" env) || return 1
    for np in 1 2 4; do
        local d
        d=$(digest "$work/ex-np$np.txt" "${mpirun[@]}" -np "$np") || return 1
        echo "np $np: $d (without mpirun: $ref)"
        [ "$d" = "$ref" ] || return 1
    done
}
check "flux-distributed-example: same digest on 1, 2, 4 processes and without mpirun" same_digest

# 2. flux-run.
same_results() { # $1: name; $2: scenario; the rest: flux-run options
    local name=$1 scenario=$2
    shift 2
    for np in 1 2 4; do
        "${mpirun[@]}" -np "$np" "$flux_run" "$scenario" --out "$work/$name-np$np.json" --quiet "$@" ||
            return 1
    done
    python3 "$here/compare-results.py" "$work/$name-np1.json" "$work/$name-np2.json" &&
        python3 "$here/compare-results.py" "$work/$name-np1.json" "$work/$name-np4.json"
}
for policy in $("$flux_run" --list-policies); do
    check "flux-run, policy $policy, faults and traces: identical results on 1, 2, 4 processes" \
        same_results "faults-$policy" "$here/faults-traces.json" --policy "$policy"
done
replayed() {
    same_results replay "$here/replay.json" &&
        python3 -c 'import json, sys; sys.exit(any(j["status"] != "completed" for j in json.load(open(sys.argv[1]))["jobs"]))' \
            "$work/replay-np4.json"
}
check "flux-run, replayed Chakra and AICB workloads: identical results on 1, 2, 4 processes" replayed
stalled() {
    same_results deadlock "$here/deadlock.json" &&
        python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["sim"]["stop_reason"] != "stalled")' \
            "$work/deadlock-np2.json"
}
check "flux-run, a PFC deadlock: stalled at the same time on 1, 2, 4 processes" stalled

# 3. Without MPI, as under MPI.
as_mpi() {
    python3 - "$here/faults-traces.json" "$work/ordered.json" <<'PY' || return 1
import json, sys
s = json.load(open(sys.argv[1]))
s["event_scheduler"] = "ordered"
s["completion_latency_us"] = s.get("topology", {}).get("link_delay_us", 1) + 0.002
json.dump(s, open(sys.argv[2], "w"))
PY
    "$flux_run" "$work/ordered.json" --policy flux --out "$work/ordered-results.json" --quiet &&
        python3 "$here/compare-results.py" "$work/ordered-results.json" "$work/faults-flux-np1.json"
}
check "flux-run without mpirun, ordered scheduler and MPI's completion latency: the results of mpirun" as_mpi

# 4. Too many processes.
too_many() {
    local out=$work/too-many.json
    "${mpirun[@]}" -np 3 "$flux_run" "$module/examples/scenarios/single-job.json" --out "$out" \
        --quiet 2>"$work/too-many.err"
    local rc=$?
    cat "$work/too-many.err"
    # the leaf-spine of single-job.json has 2 leaves
    [ $rc -ne 0 ] && grep -q "flux-run: topology: 3 MPI processes" "$work/too-many.err" && [ ! -e "$out" ]
}
check "flux-run, 3 processes for 2 leaves: one line naming topology, no results" too_many

# 5. The flow level and the bound run on one process, without mpirun (on
#    one MPI process the flow level took MPI's completion latency and lost
#    its links' bits).
flow_refused() {
    local scenario=$module/examples/scenarios/single-job.json rc
    for args in "--backend flow" "--bound"; do
        # shellcheck disable=SC2086
        "${mpirun[@]}" -np 1 "$flux_run" "$scenario" $args --out "$work/flow.json" --quiet \
            2>"$work/flow.err"
        rc=$?
        cat "$work/flow.err"
        [ $rc -ne 0 ] && grep -q "flux-run: ${args%% *}: .*without mpirun" "$work/flow.err" &&
            [ ! -e "$work/flow.json" ] || return 1
    done
}
check "flux-run --backend flow and --bound under mpirun -np 1: refused, no results" flow_refused

# 6. Standard output is the first process's: --help and --check print once;
#    FLUX_TIMING's frame counts are every process's, the same on 1 and 2.
rank0_output() {
    local scenario=$module/examples/scenarios/single-job.json
    "$flux_run" --help >"$work/help-1.txt" &&
        "${mpirun[@]}" -np 2 "$flux_run" --help >"$work/help-2.txt" &&
        cmp "$work/help-1.txt" "$work/help-2.txt" || return 1
    [ "$("${mpirun[@]}" -np 2 "$flux_run" "$scenario" --check | grep -c ': valid')" = 1 ] || return 1
    for np in 1 2; do
        FLUX_TIMING=1 "${mpirun[@]}" -np "$np" "$flux_run" "$scenario" --quiet \
            --out "$work/timing-np$np.json" 2>&1 | grep -o 'frames=[0-9]* data_frames=[0-9]*' \
            >"$work/timing-np$np.txt" || return 1
    done
    cat "$work/timing-np1.txt" "$work/timing-np2.txt"
    [ "$(wc -l <"$work/timing-np2.txt")" = 1 ] && cmp "$work/timing-np1.txt" "$work/timing-np2.txt"
}
check "flux-run under mpirun -np 2: --help and --check print once, frames summed" rank0_output

echo "MPI tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
