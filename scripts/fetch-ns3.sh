#!/usr/bin/env bash
# Fetches an ns-3 source release and prints the path of its ns-3 tree (the
# folder with ./ns3 or ./waf).
#
#   scripts/fetch-ns3.sh 3.37      ns-3.37.tar.xz, else bookworm's ns3 3.37-2
#   scripts/fetch-ns3.sh 3.48      ns-3.48.tar.xz, else sid's ns3 3.48-1
#   scripts/fetch-ns3.sh 3.31      ns-3.31.tar.xz, else bullseye's ns3 3.31+dfsg-3
#   scripts/fetch-ns3.sh 3.37-2    (an exact Debian version: always apt-get source)
#
# First choice, offline and reproducible: the release tarballs (ns-3's git
# tags) in $FLUX_NS3_TARBALLS (default ../shared/ns-3 beside the repository
# root), each checked against that folder's SHA256SUMS before it is unpacked
# into $FLUX_NS3_SRC_CACHE/ns-3.<version>/ (default ~/.cache/flux/ns3-src);
# a tarball whose checksum does not match is an error, not a fallback.
#
# Otherwise it adds deb-src entries for bullseye, bookworm, trixie and sid in
# their own file (/etc/apt/sources.list.d/flux-ns3-src.sources) and runs
# `apt-get source` into $FLUX_NS3_SRC_CACHE/<debian-version>/; Debian's
# patches are applied by dpkg-source as usual.
#
# Either way the tree is kept: a second call for the same version unpacks or
# downloads nothing (the unpacked tarball is checked by its checksum).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || flux_die "usage: $0 <ns-3 version, e.g. 3.37>"
want=$1

ensure_deb_src() {
    if [ ! -f "$FLUX_APT_SRC_FILE" ]; then
        flux_log "adding deb-src entries: $FLUX_APT_SRC_FILE"
        flux_as_root tee "$FLUX_APT_SRC_FILE" >/dev/null <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bullseye bookworm trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
        return 1
    fi
}

debian_versions() {
    apt-cache showsrc ns3 2>/dev/null | awk '/^Version:/ {print $2}' | sort -uV
}

pick_version() {
    # exact Debian version, else the newest whose upstream part is $want
    debian_versions | awk -v w="$want" '
        $0 == w { exact = $0 }
        index($0, w "-") == 1 || index($0, w "+") == 1 || index($0, w "~") == 1 { best = $0 }
        END { if (exact != "") print exact; else if (best != "") print best }'
}

# The tree of an already unpacked version?
find_tree() {
    local dir=$1
    find "$dir" -mindepth 1 -maxdepth 3 -type f -name VERSION -path '*/ns-3*' 2>/dev/null |
        while read -r v; do
            d=$(dirname "$v")
            if [ -e "$d/ns3" ] || [ -e "$d/waf" ]; then
                echo "$d"
                break
            fi
        done
}

mkdir -p "$FLUX_NS3_SRC_CACHE"

# 1. A release tarball beside the repository, verified by SHA256SUMS.
tarball_dir=${FLUX_NS3_TARBALLS:-$FLUX_ROOT/../shared/ns-3}
tarball=$tarball_dir/ns-$want.tar.xz
if [ -f "$tarball" ]; then
    [ -f "$tarball_dir/SHA256SUMS" ] || flux_die "$tarball_dir has no SHA256SUMS to check $tarball against"
    want_sum=$(awk -v f="ns-$want.tar.xz" '$2 == f || $2 == "*" f { print $1 }' "$tarball_dir/SHA256SUMS")
    [ -n "$want_sum" ] || flux_die "$tarball_dir/SHA256SUMS lists no ns-$want.tar.xz"
    dest=$FLUX_NS3_SRC_CACHE/ns-$want
    if [ "$(cat "$dest/.flux-complete" 2>/dev/null || true)" = "$want_sum" ]; then
        tree=$(find_tree "$dest")
        if [ -n "$tree" ]; then
            echo "$tree"
            exit 0
        fi
    fi
    have_sum=$(sha256sum "$tarball" | cut -d' ' -f1)
    [ "$have_sum" = "$want_sum" ] ||
        flux_die "checksum mismatch for $tarball: SHA256SUMS says $want_sum, the file has $have_sum"
    flux_log "unpacking $tarball (sha256 $want_sum ok) into $dest"
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -xJf "$tarball" -C "$dest"
    tree=$(find_tree "$dest")
    [ -n "$tree" ] || flux_die "no ns-3 tree (VERSION + ns3/waf) found in $tarball"
    echo "$want_sum" >"$dest/.flux-complete"
    echo "$tree"
    exit 0
fi
flux_log "no $tarball: using Debian's source package"

# 2. Debian's source package, through apt-get source.

# Cached already? (no apt access needed then)
for marker in "$FLUX_NS3_SRC_CACHE"/*/.flux-complete; do
    [ -e "$marker" ] || continue
    debver=$(basename "$(dirname "$marker")")
    if [ "$debver" = "$want" ] || [[ "$debver" == "$want"[-+~]* ]]; then
        tree=$(find_tree "$(dirname "$marker")")
        if [ -n "$tree" ]; then
            echo "$tree"
            exit 0
        fi
    fi
done

command -v dpkg-source >/dev/null || flux_die "dpkg-source missing: run scripts/install-deps.sh --source-trees"

added=0
ensure_deb_src || added=1
debver=$(pick_version || true)
if [ -z "$debver" ] || [ $added = 1 ]; then
    flux_log "apt-get update"
    flux_as_root apt-get update -q >&2
    debver=$(pick_version || true)
fi
[ -n "$debver" ] || flux_die "no Debian source package of ns-3 $want (apt-cache showsrc ns3 lists: $(debian_versions | tr '\n' ' '))"

dest=$FLUX_NS3_SRC_CACHE/$debver
rm -rf "$dest"
mkdir -p "$dest"
flux_log "apt-get source ns3=$debver into $dest"
if ! (cd "$dest" && apt-get source -q ns3="$debver" >&2); then
    flux_die "apt-get source ns3=$debver failed (is the source package still on the mirror?)"
fi
tree=$(find_tree "$dest")
[ -n "$tree" ] || flux_die "no ns-3 tree (VERSION + ns3/waf) found under $dest"
touch "$dest/.flux-complete"
echo "$tree"
