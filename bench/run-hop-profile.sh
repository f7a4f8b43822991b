#!/usr/bin/env bash
# Where the time of a packet-hop goes: runs bench/fabric-bench in flux and
# baseline mode under `perf record` (sampling, no instrumentation), sorts
# the samples' functions into the ns-3 machinery they belong to, and
# prints each group's CPU time per packet-hop, flux beside the bare ns-3
# forwarder, on the same fabric and traffic:
#
#   event scheduling      the simulator's event loop, scheduler and event
#                         objects (and the scheduler's heap, which the
#                         Debian ns-3 library does not name)
#   headers and buffers   serialising and parsing headers, packet buffers
#                         and their metadata
#   packets and memory    packet and queue-item objects, tags, reference
#                         counts, object teardown, malloc and free
#   logging checks        NS_LOG statements compiled into the ns-3 library,
#                         each asking whether its component is enabled
#   callbacks and traces  callbacks and traced callbacks
#   time arithmetic       Time and DataRate conversions (128-bit fixed
#                         point)
#   model                 the devices, channels, switches, NICs and queues
#                         themselves (flux's, or ns-3's point-to-point and
#                         IPv4 stack)
#   other                 the rest (the C++ library, the kernel)
#
#   bench/run-hop-profile.sh [-b BUILD_DIR] [-- fabric-bench options]
#
# e.g. -- --topology=fat-tree --k=4 (the default). Needs perf (Debian:
# linux-perf) and permission to sample (perf_event_paranoid <= 2).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${FLUX_BUILD:-$here/../build}
# an option that takes a value must have one
need() { [ $# -ge 2 ] || { echo "run-hop-profile.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -b) need "$@"; build=$2; shift 2 ;;
    --) shift; break ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-hop-profile.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
bin=$build/bench/fabric-bench
[ -x "$bin" ] || { echo "run-hop-profile.sh: $bin not found: build first" >&2; exit 2; }
command -v perf >/dev/null || { echo "run-hop-profile.sh: needs perf (Debian: linux-perf)" >&2; exit 2; }
[ $# -gt 0 ] || set -- --topology=fat-tree --k=4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in flux baseline; do
    perf record -q -o "$work/$mode.data" "$bin" --mode=$mode "$@" >"$work/$mode.line" 2>/dev/null
    perf report -i "$work/$mode.data" --no-children --sort dso,symbol --stdio 2>/dev/null \
        | grep -v '^#' | grep '%' >"$work/$mode.report"
done
python3 "$here/hop-profile.py" "$work" "$*" # (not exec: the trap removes $work)
