#!/usr/bin/env bash
# Installs the Debian packages needed to build and test flux (Debian bookworm
# or newer; as root or through sudo).
#
#   scripts/install-deps.sh                 standalone build and all tests
#   scripts/install-deps.sh --source-trees  also what building ns-3 source
#                                           trees needs (scripts/build-in-tree.sh)
#
# Does nothing (and needs no network) when everything is installed already.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

packages=(
    # toolchain
    build-essential g++ cmake ninja-build ccache pkg-config git rsync
    # ns-3 as installed by Debian: libns3-dev's CMake package also refers
    # to the helper programs shipped in the ns3 package
    libns3-dev ns3
    # module dependencies and test frameworks
    nlohmann-json3-dev libgtest-dev libgmock-dev pybind11-dev
    # python bindings, python tests and notebooks
    python3 python3-dev python3-pytest python3-numpy python3-pandas
    python3-matplotlib python3-tqdm python3-nbclient python3-ipykernel
    jupyter-nbconvert python3-distributed
    # pcap decoding in tests, code formatting check
    tshark clang-format
)
for arg in "$@"; do
    case "$arg" in
    --source-trees)
        # apt-get source (dpkg-source), ns-3's optional libraries
        packages+=(dpkg-dev libsqlite3-dev libxml2-dev libgsl-dev)
        ;;
    -h | --help)
        sed -n '2,10p' "$0"
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

if [ ${#missing[@]} -eq 0 ]; then
    flux_log "all ${#packages[@]} Debian packages are installed"
    exit 0
fi

flux_log "installing: ${missing[*]}"
flux_as_root apt-get update -q
flux_as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
