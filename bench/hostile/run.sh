#!/usr/bin/env bash
# keylint on hostile inputs (bench/hostile/gen.py), each kind at three
# sizes, so that linear (or not) growth shows: per run the input's size,
# its parse time (build/parse_time: tree-sitter and the syntax index), and
# keylint's wall time and peak RSS (/usr/bin/time), and wall / parse.
#
# Usage: bench/hostile/run.sh [-b BUILD_DIR] [-t SECONDS] [-s SCALE] [KIND...]
#   -b  the build directory holding keylint and parse_time (default: build)
#   -t  give up on a run after this long (default 120; shown as "timeout")
#   -s  multiply every size by SCALE (default 1; 0.1 for a quick look)
# Runs are limited to 8 GiB of address space ("killed" when they hit it).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=build
limit=120
scale=1
while getopts "b:t:s:" o; do
    case $o in
    b) build=$OPTARG ;;
    t) limit=$OPTARG ;;
    s) scale=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
build=$(cd "$build" && pwd)

# kind: three sizes
declare -A sizes=(
    [template-ident]="17500 35000 70000"
    [template-text]="17500 35000 70000"
    [template-table]="17500 35000 70000"
    [consts]="55000 110000 220000"
    [long-literal]="250000 500000 1000000"
    [comments]="17500 35000 70000"
    [html-comments]="16000 32000 65000"
    [nested]="2500 5000 10000"
    [concat]="25000 50000 100000"
    [join]="25000 50000 100000"
    [array-key]="25000 50000 100000"
    [long-line]="2500 5000 10000"
    [many-ops]="10000 20000 40000"
    [many-objects]="25000 50000 100000"
    [many-imports]="10000 20000 40000"
    [many-locals]="25000 50000 100000"
    [const-laughs]="2 4 8"
    [local-laughs]="2 4 8"
    [helper-laughs]="2 4 8"
    [many-helpers]="10000 20000 40000"
    [many-updates]="10000 20000 40000"
    [many-magic]="10000 20000 40000"
    [nested-arrows]="1000 2000 4000"
    [many-suppressions]="10000 20000 40000"
    [long-directive]="25000 50000 100000"
    [call-chain]="10000 20000 40000"
    [wide-helper]="10000 20000 40000"
    [many-members]="10000 20000 40000"
    [many-tables]="5000 10000 20000"
    [nested-keys]="2500 5000 10000"
    [key-prefixes]="17500 35000 70000"
    [many-queries]="5000 10000 20000"
    [nested-names]="1000 2000 4000"
    [serverless-laughs]="10 20 40"
    [serverless-vars]="25000 50000 100000"
    [serverless-includes]="10 20 40"
)
kinds=("$@")
if [ ${#kinds[@]} -eq 0 ]; then
    mapfile -t kinds < <(python3 "$here/gen.py" --list | awk '{print $1}')
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

printf '%-20s %8s %10s %9s %9s %9s %7s\n' kind size bytes parse_ms wall_s rss_MB ratio
for kind in "${kinds[@]}"; do
    for size in ${sizes[$kind]}; do
        size=$(python3 -c "print(max(1, int($size * $scale)))")
        rm -rf "$dir/p" && mkdir -p "$dir/p/src"
        case $kind in
        serverless-*)
            file=$dir/p/serverless.yml
            printf 'schemas: [serverless.yml]\n' >"$dir/p/.keylint.yml"
            printf 'export const x = 1;\n' >"$dir/p/src/a.ts"
            ;;
        *) file=$dir/p/src/input.ts ;;
        esac
        python3 "$here/gen.py" "$kind" "$size" >"$file"
        bytes=$(wc -c <"$file")
        parse=-
        case $kind in serverless-*) ;; *) parse=$("$build/parse_time" "$file") || parse=- ;; esac
        status=0
        (
            cd "$dir/p"
            ulimit -v $((8 * 1024 * 1024))
            exec timeout "$limit" /usr/bin/time -f '%e %M' -o "$dir/time" \
                "$build/keylint" --color never src \
                >"$dir/out" 2>"$dir/err"
        ) || status=$?
        if [ "$status" -eq 124 ]; then
            wall=timeout rss=- ratio=-
        elif [ "$status" -gt 2 ]; then
            wall=killed rss=- ratio=-
        else
            read -r wall rss < <(tail -n 1 "$dir/time")
            rss=$((rss / 1024))
            ratio=-
            if [ "$parse" != - ]; then
                ratio=$(python3 -c "p=max($parse,1.0); print('%.1f' % ($wall*1000/p))")
            fi
        fi
        printf '%-20s %8s %10s %9s %9s %9s %7s\n' "$kind" "$size" "$bytes" "$parse" "$wall" "$rss" "$ratio"
    done
done
