#!/usr/bin/env bash
# Runs the README's two commands on a fresh Debian bookworm machine: a
# minimal root made by debootstrap (variant minbase, plus git), with the
# repository copied in, entered with chroot (/proc, /sys, /dev, /dev/pts and
# /dev/shm mounted). Inside it, as root, with a clean environment:
#
#   scripts/run-experiment.sh      install, build, the default experiment
#   scripts/test.sh                install, build, every test
#
#   scripts/fresh-machine.sh [--keep] [--no-apt-cache] [--new-base]
#
# --keep          leave the root in place (its path is printed) instead of
#                 removing it
# --no-apt-cache  download every package again (by default the downloaded
#                 .deb files are kept in $FLUX_CACHE/fresh/apt-archives and
#                 bind-mounted into each new root as /var/cache/apt/archives:
#                 the packages are still installed from scratch, only the
#                 download is saved)
# --new-base      run debootstrap again instead of using the cached base
#
# The base (debootstrap's root, apt sources for bookworm, bookworm-updates and
# bookworm-security as a Debian install writes them, nothing else) is kept as
# $FLUX_CACHE/fresh/bookworm-minbase-git.tar; every run unpacks it into a new
# folder under /var/tmp, so each starts from the same pristine root. The
# repository copy is its tracked and untracked-but-not-ignored files (what
# `git ls-files -co --exclude-standard` lists), without .git or build output.
# Mounts are undone and the root removed on exit, also on failure or ^C.
#
# Needs root and the network to the Debian mirror ($FLUX_DEBIAN_MIRROR,
# default http://deb.debian.org/debian); installs debootstrap if missing.
# Logs: $FLUX_CACHE/logs/fresh-<command>.log. Prints one line per command,
# "N passed, M failed" over the commands, and last
# "RESULT <PASS|FAIL> fresh bookworm: ...".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The whole script is one function, read completely before it runs, so that
# editing the file while it runs cannot change what a running copy does.
main() {

# (root, mounts and keep are global: the EXIT trap reads them)
keep=0
local apt_cache=1 new_base=0 arg
for arg in "$@"; do
    case "$arg" in
    --keep) keep=1 ;;
    --no-apt-cache) apt_cache=0 ;;
    --new-base) new_base=1 ;;
    -h | --help)
        sed -n '2,33p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $arg (see --help)" ;;
    esac
done
[ "$(id -u)" = 0 ] || flux_die "needs root (debootstrap, chroot, mounts)"

local suite=bookworm
local mirror=${FLUX_DEBIAN_MIRROR:-http://deb.debian.org/debian}
local security=${FLUX_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
local cache=$FLUX_CACHE/fresh
local base=$cache/$suite-minbase-git.tar
local logdir=$FLUX_CACHE/logs
mkdir -p "$cache" "$logdir"
local t_all
t_all=$(date +%s)

command -v debootstrap >/dev/null || {
    flux_log "installing debootstrap"
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends debootstrap >&2
}

# 1. The pristine base, made once.
local t0 t_base=0
if [ ! -f "$base" ] || [ $new_base = 1 ]; then
    flux_section "fresh machine: debootstrap $suite (minbase + git)"
    t0=$(date +%s)
    local stage
    stage=$(mktemp -d /var/tmp/flux-debootstrap.XXXXXX)
    if ! debootstrap --variant=minbase --include=git "$suite" "$stage" "$mirror" \
        >"$logdir/fresh-debootstrap.log" 2>&1; then
        tail -n 30 "$logdir/fresh-debootstrap.log"
        rm -rf --one-file-system "$stage"
        flux_die "debootstrap failed (log: $logdir/fresh-debootstrap.log)"
    fi
    cat >"$stage/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
    rm -f "$stage"/var/cache/apt/archives/*.deb
    tar -C "$stage" --numeric-owner -cf "$base.tmp" .
    mv "$base.tmp" "$base"
    rm -rf --one-file-system "$stage"
    t_base=$(flux_elapsed "$t0")
    flux_log "base: $base ($(du -h "$base" | cut -f1), $(flux_fmt_time "$t_base"))"
fi

# 2. A new root from it, with the repository.
root=$(mktemp -d /var/tmp/flux-fresh.XXXXXX)
mounts=()
cleanup() {
    local rc=$? pid i
    [ -n "${root:-}" ] && [ -d "$root" ] || return $rc
    # processes still running inside the root (started by this script)
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && kill -9 "$pid" 2>/dev/null
    done
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" 2>/dev/null || true
    done
    if grep -q " $root/" /proc/mounts; then
        echo "[flux] ERROR: mounts left under $root, not removing it:" >&2
        grep " $root/" /proc/mounts >&2
    elif [ $keep = 1 ]; then
        flux_log "root kept: $root"
    else
        rm -rf --one-file-system "$root"
    fi
    return $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

flux_section "fresh machine: new root $root"
tar -C "$root" --numeric-owner -xpf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/root/flux"
(cd "$FLUX_ROOT" && git ls-files -z -co --exclude-standard) |
    rsync -a --from0 --files-from=- "$FLUX_ROOT/" "$root/root/flux/"
flux_log "repository copied: $(find "$root/root/flux" -type f | wc -l) files"

mount_in() {
    local target=$root$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounts+=("$target")
}
mount_in /proc -t proc proc
mount_in /sys -t sysfs sysfs
mount_in /dev --bind /dev
mount_in /dev/pts --bind /dev/pts
mount_in /dev/shm -t tmpfs tmpfs
if [ $apt_cache = 1 ]; then
    mkdir -p "$cache/apt-archives/partial"
    mount_in /var/cache/apt/archives --bind "$cache/apt-archives"
fi

# 3. The README's two commands, as a new user types them.
local commands=(scripts/run-experiment.sh scripts/test.sh)
local cmd name rc npass=0 nfail=0 lines=() detail
for cmd in "${commands[@]}"; do
    name=$(basename "$cmd" .sh)
    flux_section "fresh machine: $cmd"
    t0=$(date +%s)
    rc=0
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "cd /root/flux && $cmd" </dev/null >"$logdir/fresh-$name.log" 2>&1 || rc=$?
    local dt
    dt=$(flux_elapsed "$t0")
    detail=""
    case "$name" in
    test)
        detail=$(grep -E '^[0-9]+% tests passed|^=* ?[0-9]+ passed.* in [0-9.]+s|^all tests passed|^FAILED' \
            "$logdir/fresh-$name.log" | sed -E 's/^=+ //; s/ =+$//' | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
        ;;
    run-experiment)
        detail=$(grep -cE '^  [a-z0-9_-]+ +seed [0-9]+ +[0-9.]+ s' "$logdir/fresh-$name.log" || true)
        detail="$detail runs"
        ;;
    esac
    if [ $rc = 0 ]; then
        npass=$((npass + 1))
        lines+=("$(printf 'PASS  %-26s %8s  %s' "$cmd" "$(flux_fmt_time "$dt")" "$detail")")
    else
        nfail=$((nfail + 1))
        echo "---- last lines of $logdir/fresh-$name.log ----"
        tail -n 40 "$logdir/fresh-$name.log"
        lines+=("$(printf 'FAIL  %-26s %8s  exit %s; %s' "$cmd" "$(flux_fmt_time "$dt")" "$rc" "$detail")")
    fi
    echo "${lines[-1]}"
done

flux_section "fresh machine: summary"
printf '%s\n' "${lines[@]}"
echo "$npass passed, $nfail failed"
local summary="debootstrap $suite minbase+git"
[ $t_base -gt 0 ] && summary="$summary (made in $(flux_fmt_time "$t_base"))"
summary="$summary; $(printf '%s; ' "${lines[@]}" | sed -E 's/  +/ /g; s/; $//'); total $(flux_fmt_time "$(flux_elapsed "$t_all")")"
if [ $nfail -ne 0 ]; then
    echo "RESULT FAIL fresh bookworm: $summary"
    exit 1
fi
echo "RESULT PASS fresh bookworm: $summary"
}

main "$@"
