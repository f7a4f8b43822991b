#!/usr/bin/env bash
# Compiles (syntax and types only, no linking) every source of the module and
# its TestSuites against the headers of another ns-3 release, taken from
# Debian's libns3-dev package of that release. A quick API check for ns-3
# versions whose full source tree is not at hand; scripts/build-in-tree.sh is
# the complete check.
#
#   scripts/check-ns3-api.sh 3.48      sid's libns3-dev 3.48-1
#   scripts/check-ns3-api.sh 3.31      bullseye's libns3-dev 3.31+dfsg-3
#
# The package is fetched with apt-get through a private apt state under
# $FLUX_CACHE/apt-alt (the system's apt sources are left alone) and unpacked
# (not installed) under $FLUX_CACHE/ns3-headers/. For waf-era releases
# (3.35 and older) it checks what the wscript builds there. Prints one line
# per file,
# then "RESULT PASS|FAIL ns-3 <version> headers: ...".
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || flux_die "usage: $0 <ns-3 version>"
want=$1
case "$want" in
3.31*) suite=bullseye ;;
3.37*) suite=bookworm ;;
3.43*) suite=trixie ;;
*) suite=sid ;;
esac

alt=$FLUX_CACHE/apt-alt
mkdir -p "$alt/lists/partial" "$alt/archives/partial"
echo "deb http://deb.debian.org/debian $suite main" >"$alt/sources.list"
apt_alt=(-o "Dir::Etc::SourceList=$alt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
    -o "Dir::State::Lists=$alt/lists" -o "Dir::Cache=$alt" -o "Debug::NoLocking=1")

debver=$(apt-cache "${apt_alt[@]}" madison libns3-dev 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
    grep -E "^${want}([-+~]|$)" | sort -V | tail -n 1 || true)
if [ -z "$debver" ]; then
    flux_log "apt-get update ($suite, private state)"
    apt-get "${apt_alt[@]}" update -q >/dev/null 2>&1 || true
    debver=$(apt-cache "${apt_alt[@]}" madison libns3-dev 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' |
        grep -E "^${want}([-+~]|$)" | sort -V | tail -n 1 || true)
fi
[ -n "$debver" ] || flux_die "no libns3-dev $want in Debian $suite"

root=$FLUX_CACHE/ns3-headers/$debver
if [ ! -e "$root/.flux-complete" ]; then
    rm -rf "$root"
    mkdir -p "$root"
    (cd "$root" && apt-get "${apt_alt[@]}" download -q "libns3-dev=$debver" >/dev/null 2>&1) ||
        flux_die "apt-get download libns3-dev=$debver failed"
    dpkg-deb -x "$root"/libns3-dev_*.deb "$root/x"
    touch "$root/.flux-complete"
fi
inc=$(dirname "$(find "$root/x/usr/include" -name object.h -path '*/ns3/object.h' | head -n 1)")
inc=$(dirname "$inc")
nsver=$want
cxxstd=c++17
case "$nsver" in
3.4[5-9]* | 3.[5-9]*) cxxstd=c++20 ;; # recent ns-3 releases (3.48) build in C++20
esac

# flat ns3/ folder with the module's headers, as the builds make it
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ns3"
cd "$FLUX_ROOT"
for h in model/*.h model/*/*.h helper/*.h; do
    [ -f "$h" ] && ln -s "$FLUX_ROOT/$h" "$work/ns3/$(basename "$h")"
done
waf_era=0
case "$nsver" in
3.[0-2][0-9]* | 3.3[0-5]*) waf_era=1 ;;
esac
if [ $waf_era = 1 ]; then
    # what the wscript builds for this version (it leaves out what needs newer ns-3)
    mapfile -t files < <(python3 wscript "$nsver" | sed -nE 's/^(sources|tests|examples) \([0-9]*\): //p' |
        tr ' ' '\n' | grep . | sort || true)
    echo "wscript for ns-3 $nsver: $(python3 wscript "$nsver" | sed -n 's/^left out (\([0-9]*\)):/\1/p') files left out"
else
    mapfile -t files < <(ls model/*.cc model/*/*.cc helper/*.cc test/*-test-suite.cc examples/*.cc 2>/dev/null | sort)
fi

export inc work cxxstd
check_one() {
    if out=$(g++ -std="$cxxstd" -fsyntax-only -w -DNS3_BUILD_PROFILE_RELEASE \
        -DNS_TEST_SOURCEDIR='"test"' -I"$work" -I"$inc" "$1" 2>&1); then
        echo "ok   $1"
    else
        echo "FAIL $1: $(echo "$out" | grep -m1 -E 'error' | sed 's/^[^ ]*: //')"
    fi
}
export -f check_one
t0=$(date +%s)
results=$(printf '%s\n' "${files[@]}" | flux_nice xargs -P "$FLUX_JOBS" -I{} bash -c 'check_one "$@"' _ {} | sort -k2)
echo "$results"
nfail=$(echo "$results" | grep -c '^FAIL' || true)
ntotal=${#files[@]}
echo "$((ntotal - nfail)) passed, $nfail failed"
msg="libns3-dev $debver headers, -std=$cxxstd, $ntotal files, $(flux_fmt_time "$(flux_elapsed "$t0")")"
if [ "$nfail" -ne 0 ]; then
    echo "RESULT FAIL ns-3 $want headers: $msg; $nfail files do not compile"
    exit 1
fi
echo "RESULT PASS ns-3 $want headers: $msg"
