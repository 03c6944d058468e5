#!/usr/bin/env bash
# One answer per file, on real code: for each checkout under DIR (a
# directory of repositories, each its own git work tree), every file's
# findings compared between a run over the repository (also with
# --no-precheck and -j1), the file named alone, --changed, --stdin-filename
# and the language server (tests/one_answer.py, which the test suite runs
# over fixtures/ and tests/). Read-only: nothing in the checkouts is
# written. Prints every difference and, per repository, how many files and
# keylint runs it took; exits 1 when a file has two answers.
#
# usage: bench/one_answer.sh [--build DIR] [--sample N] [--no-lsp] DIR...
#
#   --build DIR   the meson build directory (default: build)
#   --sample N    the per-file runs (named alone, --changed, stdin: each
#                 reads the whole repository) on at most N files of each
#                 repository, those with findings first (default 20); the
#                 runs over the repository and the language server cover
#                 every file
#   --no-lsp      leave the language server out
#   DIR           a checkout, or a directory whose subdirectories are
#                 checkouts
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
sample=20
lsp=()
dirs=()
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --no-lsp) lsp=(--no-lsp); shift ;;
    -*) echo "usage: bench/one_answer.sh [--build DIR] [--sample N] [--no-lsp] DIR..." >&2
        exit 2 ;;
    *) dirs+=("$1"); shift ;;
    esac
done
[ ${#dirs[@]} -gt 0 ] || { echo "usage: bench/one_answer.sh [--build DIR] [--sample N] [--no-lsp] DIR..." >&2; exit 2; }

checkouts=()
for d in "${dirs[@]}"; do
    if [ -e "$d/.git" ]; then
        checkouts+=("$d")
    else
        for c in "$d"/*/; do
            [ -e "$c/.git" ] && checkouts+=("${c%/}")
        done
    fi
done

status=0
for c in "${checkouts[@]}"; do
    echo "== $c"
    python3 "$root/tests/one_answer.py" --keylint "$build/keylint" --sample "$sample" \
        "${lsp[@]}" "$c" || status=1
done
exit $status
