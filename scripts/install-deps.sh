#!/usr/bin/env bash
# Installs the Debian packages needed to build and test flux (Debian bookworm
# or newer; as root or through sudo).
#
#   scripts/install-deps.sh                 standalone build and all tests
#   scripts/install-deps.sh --source-trees  also what building ns-3 source
#                                           trees needs (scripts/build-in-tree.sh,
#                                           Open MPI for --mpi)
#
# Then checks that every library file named by absolute path in the link
# interfaces of the installed ns-3's CMake targets (libns3-dev's
# cmake/ns3/*.cmake) exists: libns3-dev links libgsl, libxml2 and sqlite3 by
# the paths of their -dev packages' symlinks without depending on those
# packages. A missing file's package is installed (lib<name>-dev), and the
# script fails, naming the file, when that does not bring it.
#
# Does nothing (and needs no network) when everything is installed already.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Debian -dev package that ships lib<name>.so, where it is not lib<name>-dev.
declare -A dev_package_of=([gslcblas]=libgsl-dev)

# Prints the library files that the installed ns-3 CMake targets link by
# absolute path and that do not exist.
missing_link_files() {
    local f
    dpkg-query -L libns3-dev 2>/dev/null | grep -E '/cmake/ns3/[^/]*\.cmake$' | while read -r f; do
        [ -f "$f" ] && sed -n 's/^ *INTERFACE_LINK_LIBRARIES *"\(.*\)"$/\1/p' "$f"
    done | tr ';' '\n' | grep '^/' | sort -u | while read -r f; do
        [ -e "$f" ] || echo "$f"
    done
}

# Prints the Debian package that ships the library file $1.
dev_package() {
    local stem
    stem=$(basename "$1" | sed -E 's/^lib([^.]+)\..*$/\1/')
    echo "${dev_package_of[$stem]:-lib$stem-dev}"
}

main() {

packages=(
    # toolchain
    build-essential g++ cmake ninja-build ccache pkg-config git rsync
    # ns-3 as installed by Debian: libns3-dev's CMake package also refers
    # to the helper programs shipped in the ns3 package, and its targets link
    # the files of these -dev packages (checked below)
    libns3-dev ns3 libgsl-dev libxml2-dev libsqlite3-dev
    # module dependencies and test frameworks
    nlohmann-json3-dev libgtest-dev libgmock-dev pybind11-dev
    # the scenario schema's checks from C++
    libvalijson-dev
    # the allocator flux-run links (FLUX_TCMALLOC)
    libtcmalloc-minimal4
    # Chakra execution traces (protobuf, gzip)
    libprotobuf-dev protobuf-compiler zlib1g-dev
    # python bindings, python tests and notebooks
    python3 python3-dev python3-pytest python3-numpy python3-pandas
    python3-matplotlib python3-tqdm python3-nbclient python3-ipykernel
    jupyter-nbconvert python3-distributed
    # the scenario schema's checks from Python (ns3flux.schema_errors)
    python3-jsonschema
    # pcap decoding in tests, code formatting check, documentation diagrams
    # and the manual's build (test/python/test_doc.py)
    tshark clang-format graphviz python3-sphinx
)
for arg in "$@"; do
    case "$arg" in
    --source-trees)
        # apt-get source (dpkg-source), xz for the release tarballs (ns-3's
        # optional libraries GSL, libxml2 and SQLite are in the list above),
        # Open MPI for ns-3 built with MPI (build-in-tree.sh --mpi), clang and
        # its sanitizer and libFuzzer runtimes (fuzz-readers.sh)
        packages+=(dpkg-dev xz-utils libopenmpi-dev openmpi-bin clang libclang-rt-dev)
        ;;
    -h | --help)
        sed -n '2,16p' "$0"
        exit 0
        ;;
    *) flux_die "unknown argument: $arg" ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    if [ "$status" != "install ok installed" ]; then
        missing+=("$p")
    fi
done

updated=0
if [ ${#missing[@]} -eq 0 ]; then
    flux_log "all ${#packages[@]} Debian packages are installed"
else
    flux_log "installing: ${missing[*]}"
    flux_as_root apt-get update -q
    updated=1
    flux_as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Every library file that ns-3's CMake targets link must exist.
mapfile -t files < <(missing_link_files)
if [ ${#files[@]} -ne 0 ]; then
    extra=()
    for f in "${files[@]}"; do
        p=$(dev_package "$f")
        [[ " ${extra[*]} " == *" $p "* ]] || extra+=("$p")
    done
    flux_log "ns-3's CMake targets link missing files (${files[*]}): installing ${extra[*]}"
    [ $updated = 1 ] || flux_as_root apt-get update -q
    flux_as_root apt-get install -y -q --no-install-recommends "${extra[@]}" ||
        flux_die "apt-get install ${extra[*]} failed"
    mapfile -t files < <(missing_link_files)
    if [ ${#files[@]} -ne 0 ]; then
        for f in "${files[@]}"; do
            echo "[flux] missing: $f (linked by libns3-dev's CMake targets)" >&2
        done
        flux_die "${#files[@]} library file(s) that ns-3's CMake targets link are missing: install the Debian packages that ship them"
    fi
fi
flux_log "ns-3's CMake targets: every library file they link is present"
}

main "$@"
