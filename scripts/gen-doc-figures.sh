#!/usr/bin/env bash
# Draws the documentation's diagrams from their text sources:
# doc/figures/<name>.dot -> doc/figures/<name>.png (graphviz's dot, Debian
# package graphviz). The evaluation's plots come from scripts/run-evaluation.sh.
#
#   scripts/gen-doc-figures.sh            redraw every diagram
#   scripts/gen-doc-figures.sh --check    exit 1 when a drawing is not up to date
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

main() {
check=0
[ "${1:-}" = "--check" ] && check=1
command -v dot >/dev/null || flux_die "dot not found (apt-get install graphviz)"
stale=0
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
return $stale
}

main "$@"
