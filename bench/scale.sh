#!/usr/bin/env bash
# keylint against a parse-only baseline on real services, at 1x and Nx the
# corpus: wall time at one and two threads as a ratio of the time it takes
# only to parse every file (bench/parse_only.c: the same tree-sitter runtime
# and grammar, one thread, each tree deleted at once), and peak memory
# (/usr/bin/time). Then the language server's edit latency (lsp_bench).
#
# usage: bench/scale.sh [--build DIR] [--corpus DIR] [--copies N] [--runs N]
#                       [--markdown]
#
#   --build DIR   the meson build directory (default: build)
#   --corpus DIR  services already on disk (each a directory); default: the
#                 services of bench/realcode/projects.tsv, fetched now with
#                 git at their pinned commits (needs the network)
#   --copies N    the large corpus is N copies of the small one (default 10)
#   --runs N      the best of N runs is kept (default 3)
#   --markdown    print the corpus table as Markdown (the table of
#                 docs/performance.md)
#
# The corpus is the files keylint lints by default (TypeScript and
# JavaScript sources, no declaration files, tests, node_modules or build
# output) and the services' templates, copied into a directory outside any
# git work tree, so that keylint and the baseline read the same files.
set -euo pipefail
# every run parses: the cache between runs (on by default) would make the
# runs after the first warm ones, and would be written into the trees
# (bench/compare.sh times the cache)
export KEYLINT_NO_CACHE=1

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
corpus=
copies=10
runs=3
markdown=0
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --markdown) markdown=1; shift ;;
    --corpus) corpus=$(cd "$2" && pwd); shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: bench/scale.sh [--build DIR] [--corpus DIR] [--copies N] [--runs N]" >&2
       exit 2 ;;
    esac
done
keylint=$build/keylint
parse_only=$build/parse_only
for exe in "$keylint" "$parse_only" "$build/lsp_bench"; do
    [ -x "$exe" ] || { echo "scale.sh: $exe is missing: build first (ninja -C $build)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "scale.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$corpus" ]; then
    corpus=$work/src
    mkdir -p "$corpus"
    grep -v '^#' "$root/bench/realcode/projects.tsv" | while IFS=$'\t' read -r name repo commit _; do
        [ -n "$name" ] || continue
        dir=$corpus/$name
        git init -q "$dir"
        git -C "$dir" fetch -q --depth 1 "https://github.com/$repo" "$commit"
        git -C "$dir" checkout -q FETCH_HEAD
    done
fi

# The files keylint lints by default (list_sources), and the templates it reads.
. "$root/bench/sources.sh"
mkdir -p "$work/1x"
(cd "$corpus" && { list_sources . ; find . -path '*/node_modules' -prune -o -type f \
    \( -name 'template.y*ml' -o -name 'serverless.y*ml' \) -print; } |
    while IFS= read -r f; do
        mkdir -p "$work/1x/$(dirname "$f")"
        cp "$f" "$work/1x/$f"
    done)
[ -n "$(ls -A "$work/1x")" ] || { echo "scale.sh: no source file in $corpus" >&2; exit 2; }
mkdir -p "$work/${copies}x"
for ((i = 0; i < copies; i++)); do cp -r "$work/1x" "$work/${copies}x/copy$i"; done

# best wall time (s) and peak RSS (KiB) of `runs` runs of a command
measure() {
    local best= rss=0 t m
    for ((r = 0; r < runs; r++)); do
        /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1 || true
        read -r t m < <(tail -1 "$work/time")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    echo "$best $rss"
}

if [ "$markdown" = 1 ]; then
    echo "| corpus | files | source (MB) | parse-only, s (peak MiB) | keylint, 1 thread (peak MiB) | keylint, 2 threads (peak MiB) |"
    echo "|---|---|---|---|---|---|"
else
    printf '%-6s %7s %9s | %-24s | %-24s | %s\n' corpus files MB 'parse-only s (RSS MiB)' \
        'keylint -j1 ratio (MiB)' 'keylint -j2 ratio (MiB)'
fi
for size in 1x "${copies}x"; do
    dir=$work/$size
    list_sources "$dir" >"$work/list-$size"
    files=$(wc -l <"$work/list-$size")
    mb=$(awk '{ s += $1 } END { printf "%.1f", s / 1e6 }' < <(xargs -d '\n' stat -c %s <"$work/list-$size"))
    read -r pt prss < <(measure sh -c "'$parse_only' < '$work/list-$size'")
    read -r k1 k1rss < <(measure "$keylint" -j 1 --format concise --exit-zero -o /dev/null "$dir")
    read -r k2 k2rss < <(measure "$keylint" -j 2 --format concise --exit-zero -o /dev/null "$dir")
    ratio() { awk -v a="$1" -v b="$pt" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }
    mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
    if [ "$markdown" = 1 ]; then
        printf '| %s | %s | %s | %.2f (%s) | %s parse-only (%s) | %s (%s) |\n' \
            "$size" "$files" "$mb" "$pt" "$(mib "$prss")" "$(ratio "$k1")" "$(mib "$k1rss")" \
            "$(ratio "$k2")" "$(mib "$k2rss")"
    else
        printf '%-6s %7s %9s | %8.2f s (%4s MiB)       | %6s (%4s MiB)           | %6s (%4s MiB)\n' \
            "$size" "$files" "$mb" "$pt" "$(mib "$prss")" "$(ratio "$k1")" "$(mib "$k1rss")" \
            "$(ratio "$k2")" "$(mib "$k2rss")"
    fi
done

echo
echo "language server (bench/lsp_bench.c):"
for where in comment code; do
    "$build/lsp_bench" "$keylint" --edits 100 --in "$where" | sed 's/^/  /'
    "$build/lsp_bench" "$keylint" --edits 100 --files 300 --in "$where" | sed 's/^/  /'
done
