#!/usr/bin/env bash
# keylint beside its parse-only floor and beside other linters, in one run
# on the same tree: parse-only (bench/parse_only.c, one thread), keylint -j2
# on a first and a second run, keylint --changed on one file of the tree
# after an edit, and oxlint (default rules) and ast-grep (one pattern) when
# they are on PATH (their versions are printed; they are skipped with a
# message when absent: nothing is installed). hyperfine does the timing
# when it is on PATH, else the best of RUNS runs.
#
# Usage: bench/compare.sh TREE [BUILD] [RUNS]
#   TREE   a directory of source trees (for example checkouts of real
#          applications side by side); the files keylint lints by default
#          are copied to a temporary directory first, so the tree is never
#          changed (--changed edits one file of the copy)
#   BUILD  the build directory (default: build)
#   RUNS   runs per command (default: 3)
# keylint runs with --no-cache here, so its second run shows the file
# system's cache only (the cache between runs: docs/performance.md).
set -euo pipefail

tree=${1:?usage: bench/compare.sh TREE [BUILD] [RUNS]}
build=${2:-build}
runs=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
keylint=$build/keylint
parse_only=$build/parse_only
for exe in "$keylint" "$parse_only"; do
    [ -x "$exe" ] || { echo "compare.sh: $exe is missing: build first" >&2; exit 2; }
done
. "$root/bench/sources.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$tree" && list_sources .) | while IFS= read -r f; do
    mkdir -p "$work/tree/$(dirname "$f")"
    cp "$tree/$f" "$work/tree/$f"
done
list_sources "$work/tree" >"$work/list"
files=$(wc -l <"$work/list")
mb=$(xargs -d '\n' stat -c %s <"$work/list" | awk '{ s += $1 } END { printf "%.1f", s / 1e6 }')
echo "tree: $tree: $files files, $mb MB (copied to a temporary directory)"
echo "keylint: $("$keylint" --version)"

have() { command -v "$1" >/dev/null 2>&1; }
if have hyperfine; then echo "timing: $(hyperfine --version), $runs runs"; else echo "timing: best of $runs runs"; fi

# seconds NAME CMD...: the run's time (hyperfine's mean, or the best run)
seconds() {
    local name=$1
    shift
    if have hyperfine; then
        hyperfine -N -i --runs "$runs" --export-json "$work/h.json" -- "$(printf '%q ' "$@")" >/dev/null 2>&1
        python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' "$work/h.json"
        return
    fi
    local best= t0 t1 t
    for ((r = 0; r < runs; r++)); do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || true
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$best"
}

declare -a rows
floor=
row() { # row NAME SECONDS
    local ratio=
    [ -n "$floor" ] && ratio=$(awk -v a="$2" -v b="$floor" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
    printf '%-46s %8s s  %s\n' "$1" "$2" "$ratio"
}

floor=$(seconds parse-only sh -c "'$parse_only' < '$work/list'")
row "parse-only, 1 thread" "$floor"
# the first run after the copy, then runs after it
first=$( { t0=$(date +%s.%N); "$keylint" -j2 --no-cache --exit-zero -f concise -o /dev/null "$work/tree" >/dev/null 2>&1 || true; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'; } )
row "keylint -j2, first run" "$first"
row "keylint -j2, again (nothing changed)" "$(seconds warm "$keylint" -j2 --no-cache --exit-zero -f concise -o /dev/null "$work/tree")"
row "keylint -j1" "$(seconds j1 "$keylint" -j1 --no-cache --exit-zero -f concise -o /dev/null "$work/tree")"
# the cache between runs (in the work directory): written, then read
row "keylint -j2, cache written (cold)" "$(seconds cold sh -c "rm -rf '$work/cache'; '$keylint' -j2 --cache-dir '$work/cache' --exit-zero -f concise -o /dev/null '$work/tree'")"
row "keylint -j2, cache read (warm)" "$(seconds cached "$keylint" -j2 --cache-dir "$work/cache" --exit-zero -f concise -o /dev/null "$work/tree")"
# --changed: a file with a data operation, edited (a line added)
changed=$(grep -l -m1 'TableName' $(head -n 2000 "$work/list") 2>/dev/null | head -n 1 || true)
if [ -n "$changed" ]; then
    printf '\n// edited\n' >>"$changed"
    row "keylint -j2 --changed one file" "$(seconds changed "$keylint" -j2 --no-cache --exit-zero -f concise -o /dev/null --changed "$changed")"
    # the copy holds only source files: no .git, .keylint.yml or
    # package.json, so the project read around the file is its directory
    echo "  (the file: ${changed#"$work/tree/"}; the copy has no .git or package.json: its project is its directory)"
fi
if have oxlint; then
    echo "oxlint: $(oxlint --version 2>&1 | head -n 1)"
    row "oxlint, default rules, 2 threads" "$(seconds oxlint oxlint --threads 2 "$work/tree")"
else
    echo "oxlint: not on PATH; skipped"
fi
if have ast-grep; then
    echo "ast-grep: $(ast-grep --version 2>&1 | head -n 1)"
    row "ast-grep, one pattern, 2 threads" "$(seconds ast-grep ast-grep run -j 2 -p 'new GetCommand($$$)' "$work/tree")"
else
    echo "ast-grep: not on PATH; skipped"
fi
echo
echo "keylint --stats on the tree:"
"$keylint" -j2 --no-cache --stats --exit-zero -f concise -o /dev/null "$work/tree" 2>&1 | grep '^keylint: stats:' | sed 's/^/  /'
