#!/usr/bin/env bash
# Executes every notebook under examples/notebooks/ headless and fails if any
# cell raises.
#
#   scripts/run-notebooks.sh [--update] [BUILD_DIR] [NOTEBOOK ...]
#
# BUILD_DIR is the standalone build (default: build), whose python/ folder
# holds the ns3flux module. Each notebook runs in a fresh Jupyter kernel of
# Debian's /usr/bin/python3 (python3-nbclient, python3-ipykernel), from its
# own folder, with PYTHONPATH=BUILD_DIR/python and an empty results cache
# (NS3FLUX_CACHE in a temporary folder), so every run is really simulated.
# The kernel is always /usr/bin/python3 (a kernel spec of the script's own).
# The executed copies go to BUILD_DIR/notebooks/; with --update, a notebook
# whose every cell ran is also written back into the sources with its new
# outputs (without execution timestamps), to be committed.
# Environment: FLUX_NOTEBOOK_TIMEOUT, seconds per cell (default 1200).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PYTHON=/usr/bin/python3
build=$FLUX_ROOT/build
notebooks=()
update=0
for arg in "$@"; do
    case "$arg" in
    --update) update=1 ;;
    -h | --help)
        sed -n '2,17p' "$0"
        exit 0
        ;;
    *.ipynb) notebooks+=("$(realpath "$arg")") ;;
    *) build=$(realpath "$arg") ;;
    esac
done
if [ ${#notebooks[@]} -eq 0 ]; then
    while IFS= read -r nb; do
        notebooks+=("$nb")
    done < <(find "$FLUX_ROOT/examples/notebooks" -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
fi
[ ${#notebooks[@]} -gt 0 ] || flux_die "no notebook found under examples/notebooks/"
[ -d "$build/python/ns3flux" ] || flux_die "$build/python/ns3flux not found: build first (cmake --build $build)"

export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NS3FLUX_CACHE="$tmp/cache"
# A kernel spec of our own, first on JUPYTER_PATH, so that the kernel is
# Debian's interpreter whatever other kernel specs (pyenv, conda) exist.
mkdir -p "$tmp/jupyter/kernels/flux-python3"
cat >"$tmp/jupyter/kernels/flux-python3/kernel.json" <<JSON
{"argv": ["$PYTHON", "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (Debian)", "language": "python"}
JSON
export JUPYTER_PATH="$tmp/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
out="$build/notebooks"
mkdir -p "$out"

failed=0
for nb in "${notebooks[@]}"; do
    start=$(date +%s)
    flux_log "executing ${nb#"$FLUX_ROOT"/}"
    if "$PYTHON" - "$nb" "$out/$(basename "$nb")" "${FLUX_NOTEBOOK_TIMEOUT:-1200}" "$update" <<'PY'; then
import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

src, dst, timeout, update = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
nb = nbformat.read(src, as_version=4)
client = NotebookClient(
    nb,
    timeout=timeout,
    kernel_name="flux-python3",
    resources={"metadata": {"path": os.path.dirname(src)}},
)
try:
    client.execute()
except CellExecutionError as e:
    print(e, file=sys.stderr)
    sys.exit(1)
finally:
    nbformat.write(nb, dst)
if update:
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, src)
PY
        flux_log "ok ($(flux_fmt_time "$(flux_elapsed "$start")")): $(basename "$nb")"
    else
        flux_log "FAILED: $(basename "$nb") (executed copy: $out/$(basename "$nb"))"
        failed=1
    fi
done
exit $failed
