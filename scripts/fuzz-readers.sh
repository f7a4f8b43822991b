#!/usr/bin/env bash
# Coverage-guided fuzzing of the workload readers with libFuzzer: builds
# test/fuzz/chakra-reader-fuzzer.cc and test/fuzz/aicb-reader-fuzzer.cc
# with clang++ -fsanitize=fuzzer,address,undefined (the readers, the
# generated Chakra schema code and ScenarioError compiled in, instrumented;
# Debian's ns-3 core and Protobuf libraries linked as they are), seeds a
# corpus per reader from the fixtures in test/data/workloads, and runs each
# fuzzer for the given time. A finding (crash, sanitizer report, uncaught
# exception other than ScenarioError, timeout, out of memory) ends the run
# with its input saved in the output folder as crash-*, timeout-* or oom-*;
# the script then exits 1.
#
#   scripts/fuzz-readers.sh [--minutes M] [--only chakra|aicb] [--out DIR]
#
# Defaults: 10 minutes per reader, both readers, DIR build-fuzz (objects,
# programs, corpora in DIR/corpus-<reader>, findings in DIR/findings-<reader>,
# libFuzzer's log in DIR/<reader>.log).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {
minutes=10
only=
out=$FLUX_ROOT/build-fuzz
while [ $# -gt 0 ]; do
    case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) flux_die "unknown option $1 (see the head of $0)" ;;
    esac
done
command -v clang++ >/dev/null || flux_die "clang++ not found (Debian: apt-get install clang libclang-rt-dev)"
command -v protoc >/dev/null || flux_die "protoc not found (Debian: apt-get install protobuf-compiler)"
# Debian installs ns-3's headers as /usr/include/ns3/*.h (others as
# <prefix>/include/ns3.<version>/ns3/*.h) and its libraries as libns3-<module>.
ns3inc=$(dirname "$(ls -d /usr/include/ns3/log.h /usr/include/ns3.*/ns3/log.h \
    /usr/local/include/ns3.*/ns3/log.h 2>/dev/null | sort -V | tail -n 1 || true)")
[ "$ns3inc" != . ] || flux_die "no installed ns-3 headers (Debian: libns3-dev)"
ns3inc=$(dirname "$ns3inc")
ns3core=$(ls /usr/lib/*/libns3-core.so /usr/lib/*/libns3.*-core*.so /usr/local/lib/libns3.*-core*.so \
    2>/dev/null | head -n 1 || true)
[ -n "$ns3core" ] || flux_die "no installed ns-3 core library (Debian: libns3-dev)"
mkdir -p "$out/include/ns3" "$out/proto"

# The workload readers and ScenarioError (scenario/input/ holds other readers
# too, which need more of the model), their headers flattened into ns3/ as
# in the build; the schema's code.
readers=(aicb-workload-file aicb-workload-reader chakra-trace-files chakra-trace-reader
    workload-graph scenario-error)
for r in "${readers[@]}"; do
    cp "$FLUX_ROOT/scenario/input/$r.h" "$out/include/ns3/"
done
cp "$FLUX_ROOT"/model/workload/workload-trace.h "$FLUX_ROOT"/model/collective/collective-type.h \
    "$out/include/ns3/"
protoc --cpp_out="$out/proto" -I"$FLUX_ROOT/scenario/input" \
    "$FLUX_ROOT/scenario/input/chakra-et.proto"
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer -I"$out/include" -I"$out/proto")
# (the compiler's own search path must stay last for /usr/include)
[ "$ns3inc" = /usr/include ] || flags+=(-I"$ns3inc")
common=()
for r in "${readers[@]}"; do
    common+=("$FLUX_ROOT/scenario/input/$r.cc")
done
common+=("$FLUX_ROOT/model/collective/collective-type.cc" "$out/proto/chakra-et.pb.cc")
libs=("$ns3core" -Wl,-rpath,"$(dirname "$ns3core")" -lprotobuf -lpthread)

# Corpus seeds in each fuzzer's input format (see the fuzzers' heads).
python3 - "$FLUX_ROOT/test/data/workloads" "$out" <<'PY'
import glob, os, struct, sys
data, out = sys.argv[1], sys.argv[2]
os.makedirs(f"{out}/corpus-chakra", exist_ok=True)
os.makedirs(f"{out}/corpus-aicb", exist_ok=True)
for d in sorted(glob.glob(f"{data}/chakra-microbenchmarks/*/*")):
    files = sorted(glob.glob(f"{d}/*.et"), key=lambda p: int(p.split(".")[-2]))[:4]
    blob = bytes([len(files) - 1, 0])
    for i, f in enumerate(files):
        b = open(f, "rb").read()
        blob += (struct.pack("<H", len(b)) if i + 1 < len(files) else b"") + b
    open(f"{out}/corpus-chakra/{os.path.basename(d)}-{os.path.basename(os.path.dirname(d))}", "wb").write(blob)
for f in sorted(glob.glob(f"{data}/aicb/*/*.txt")):
    b = open(f, "rb").read()
    for ranks in (0, 8, 16):
        open(f"{out}/corpus-aicb/{ranks}-{os.path.basename(f)}", "wb").write(bytes([ranks]) + b)
PY

rc=0
for reader in chakra aicb; do
    [ -z "$only" ] || [ "$only" = $reader ] || continue
    flux_log "building the $reader fuzzer"
    clang++ "${flags[@]}" "$FLUX_ROOT/test/fuzz/$reader-reader-fuzzer.cc" "${common[@]}" \
        "${libs[@]}" -o "$out/$reader-reader-fuzzer" || flux_die "building the $reader fuzzer failed"
    dict=()
    [ -e "$FLUX_ROOT/test/fuzz/$reader.dict" ] && dict=(-dict="$FLUX_ROOT/test/fuzz/$reader.dict")
    mkdir -p "$out/findings-$reader"
    flux_log "fuzzing the $reader reader for $minutes min (log: $out/$reader.log)"
    if (cd "$out" && ASAN_OPTIONS=detect_leaks=1 "./$reader-reader-fuzzer" "${dict[@]}" \
        -max_total_time=$((minutes * 60)) -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$out/findings-$reader/" \
        "corpus-$reader" >"$out/$reader.log" 2>&1); then
        flux_log "$reader: no finding; $(grep -E '^stat::number_of_executed_units' "$out/$reader.log")," \
            "corpus $(ls "$out/corpus-$reader" | wc -l) inputs"
    else
        flux_log "$reader: FINDING, see $out/$reader.log and $out/findings-$reader/"
        rc=1
    fi
done
return $rc
}

main "$@"
