# shellcheck shell=bash disable=SC2034
# Shared settings and helpers of the flux build scripts (sourced, not run).
#
# Environment (all optional):
#   FLUX_CACHE           cache root (default ~/.cache/flux)
#   FLUX_NS3_SRC_CACHE   where ns-3 source packages are unpacked and built
#                        (default $FLUX_CACHE/ns3-src); keep it outside the repo
#   FLUX_JOBS            parallel compile jobs (default 2)
#   FLUX_NICE            niceness of builds (default 10)
#   CCACHE_DIR, CCACHE_MAXSIZE   ccache's own settings (default size 10G)

set -euo pipefail

FLUX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FLUX_CACHE=${FLUX_CACHE:-${HOME:-/root}/.cache/flux}
FLUX_NS3_SRC_CACHE=${FLUX_NS3_SRC_CACHE:-$FLUX_CACHE/ns3-src}
FLUX_JOBS=${FLUX_JOBS:-2}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
export DEBIAN_FRONTEND=noninteractive

# The apt sources file through which `apt-get source ns3=<version>` finds the
# Debian releases that carry the ns-3 versions the module is checked against.
FLUX_APT_SRC_FILE=/etc/apt/sources.list.d/flux-ns3-src.sources

flux_log() { echo "[flux $(date +%H:%M:%S)] $*" >&2; }
flux_die() {
    echo "[flux] ERROR: $*" >&2
    exit 1
}
flux_section() {
    echo
    echo "=============================================================================="
    echo "== $*"
    echo "=============================================================================="
}

# Run a command as root (directly when already root, else through sudo).
flux_as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    else
        sudo -E "$@"
    fi
}

# Print seconds elapsed since the epoch time given as $1.
flux_elapsed() { echo $(($(date +%s) - $1)); }

# Format a number of seconds as "XmYYs".
flux_fmt_time() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# Sets the variable named $1 to the CPU seconds (user + system) used so far
# by the finished children of this shell (call it directly, not in $(...)).
# The difference over a step, divided by the cores, estimates the step's wall
# time on an otherwise idle machine (wall times measured while other work
# shares the cores are longer).
flux_children_cpu() {
    local tmp
    tmp=$(mktemp)
    times >"$tmp"
    printf -v "$1" '%s' "$(tail -n 1 "$tmp" | awk '{
        s = 0
        for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
        printf "%d\n", s }')"
    rm -f "$tmp"
}

# Run a command at lower CPU priority (FLUX_NICE, default 10), so that builds
# leave room for other work on a shared machine.
flux_nice() { nice -n "${FLUX_NICE:-10}" "$@"; }

# The flux-run arguments that run a policy or a variant of one
# (scripts/policy-variants.txt), one per line: "--policy NAME" then any
# "--set KEY=VALUE".
flux_policy_args() {
    local line
    line=$(awk -v n="$1" '$1 == n && $0 !~ /^#/' "$FLUX_ROOT/scripts/policy-variants.txt")
    if [ -z "$line" ]; then
        printf '%s\n' --policy "$1"
        return
    fi
    set -- $line
    printf '%s\n' --policy "$2"
    shift 2
    local kv
    for kv in "$@"; do printf '%s\n' --set "$kv"; done
}

# The variants' names (scripts/policy-variants.txt), space separated.
flux_policy_variants() {
    awk '$0 !~ /^#/ && NF >= 2 { printf "%s ", $1 }' "$FLUX_ROOT/scripts/policy-variants.txt"
}
