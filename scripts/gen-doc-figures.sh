#!/usr/bin/env bash
# Draws the documentation's diagrams from their text sources
# (doc/figures/architecture.dot written first by scripts/gen-architecture):
# doc/figures/<name>.dot -> doc/figures/<name>.png (graphviz's dot, Debian
# package graphviz), and the timeline figure from a run of a shipped
# scenario (build/flux-run --timeline, then scripts/flux-plot timeline; needs
# a build: $FLUX_BUILD_DIR, default build/). The evaluation's plots come from
# scripts/run-evaluation.sh.
#
#   scripts/gen-doc-figures.sh            redraw every diagram and the timeline
#   scripts/gen-doc-figures.sh --check    exit 1 when a diagram is not up to date
#                                         (the timeline figure needs a run: not checked)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {
check=0
[ "${1:-}" = "--check" ] && check=1
command -v dot >/dev/null || flux_die "dot not found (apt-get install graphviz)"
stale=0
# The architecture's text source is itself generated (scripts/layers.py and
# the sources' includes).
if [ $check -eq 1 ]; then
    "$FLUX_ROOT/scripts/gen-architecture" --check || stale=1
else
    "$FLUX_ROOT/scripts/gen-architecture" >/dev/null
fi
for src in "$FLUX_ROOT"/doc/figures/*.dot; do
    png=${src%.dot}.png
    tmp=$(mktemp --suffix=.png)
    dot -Tpng -Gdpi=96 "$src" -o "$tmp"
    if [ $check -eq 1 ]; then
        if ! cmp -s "$tmp" "$png"; then
            flux_log "out of date: ${png#"$FLUX_ROOT"/} (run scripts/gen-doc-figures.sh)"
            stale=1
        fi
        rm -f "$tmp"
    else
        mv "$tmp" "$png"
        flux_log "drew ${png#"$FLUX_ROOT"/}"
    fi
done
[ $check -eq 1 ] && return $stale
timeline_figure
return $stale
}

# The timeline of examples/scenarios/contended-two-equal.json under flux,
# its first 8 ms: doc/figures/timeline-contended-two-equal.png.
timeline_figure() {
local run=${FLUX_BUILD_DIR:-$FLUX_ROOT/build}/flux-run
[ -x "$run" ] || flux_die "$run not found: build first (or set FLUX_BUILD_DIR)"
local tmp
tmp=$(mktemp -d)
"$run" "$FLUX_ROOT/examples/scenarios/contended-two-equal.json" --policy flux --quiet \
    --out "$tmp/results.json" --timeline "$tmp/timeline.json"
"$FLUX_ROOT/scripts/flux-plot" timeline "$tmp/timeline.json" --to-ms 8 --dpi 96 \
    -o "$FLUX_ROOT/doc/figures/timeline-contended-two-equal.png" >/dev/null
rm -rf "$tmp"
flux_log "drew doc/figures/timeline-contended-two-equal.png"
}

main "$@"
