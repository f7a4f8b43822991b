#!/usr/bin/env bash
# Checks that every C++ file of the repository (*.h, *.cc) is formatted with
# ns-3's .clang-format (repository root), using Debian's clang-format.
#
#   scripts/check-format.sh         list unformatted files, exit 1 if any
#   scripts/check-format.sh --fix   reformat them in place
#
# Set CLANG_FORMAT to use another binary (default: clang-format).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

fix=0
case "${1:-}" in
--fix) fix=1 ;;
"") ;;
*) flux_die "usage: $0 [--fix]" ;;
esac

cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null || flux_die "$cf not found (Debian: apt-get install clang-format)"
cd "$FLUX_ROOT"
[ -f .clang-format ] || flux_die "no .clang-format in $FLUX_ROOT"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked and new files, without ignored ones (build output)
    mapfile -t files < <(git ls-files -co --exclude-standard -- '*.h' '*.cc' | sort)
else
    mapfile -t files < <(find . -path './build*' -prune -o -type f \( -name '*.h' -o -name '*.cc' \) -print | sed 's|^\./||' | sort)
fi
existing=()
for f in "${files[@]}"; do
    [ -f "$f" ] && existing+=("$f")
done
[ ${#existing[@]} -gt 0 ] || {
    echo "check-format: no C++ files"
    exit 0
}

echo "check-format: $("$cf" --version | head -n 1), ${#existing[@]} files"
if [ $fix = 1 ]; then
    "$cf" -i --style=file "${existing[@]}"
    echo "check-format: formatted ${#existing[@]} files"
    exit 0
fi

bad=()
for f in "${existing[@]}"; do
    if ! "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
        bad+=("$f")
    fi
done
if [ ${#bad[@]} -ne 0 ]; then
    echo "check-format: ${#bad[@]} file(s) not formatted with .clang-format:"
    printf '  %s\n' "${bad[@]}"
    echo "fix with: scripts/check-format.sh --fix   (first differences below)"
    for f in "${bad[@]:0:3}"; do
        "$cf" --style=file "$f" | diff -u "$f" - | head -n 30 || true
    done
    exit 1
fi
echo "check-format: all ${#existing[@]} files formatted"
