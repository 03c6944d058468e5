#!/bin/sh
# The syntax layer is the only code that talks to tree-sitter: every other
# pass reads trees through linter/syntax/syntax.h, where a null node, a
# comment or an ERROR node is an ordinary value. And the stages of
# linter/ include each other one way, and no two files of one folder call
# each other in a cycle.
# usage: layering_test.sh SOURCE_ROOT LIBRARY (the built libkeylint.a)
set -u
root=${1:?source root}
lib=${2:?the built library}
case $lib in /*) ;; *) lib=$PWD/$lib ;; esac
cd "$root" || exit 2
fail=0

# tree-sitter's API (ts_node_*, ts_tree_*, ts_parser_*, cursors, languages)
# outside linter/syntax/syntax.c
hits=$(grep -nE '\bts_[a-z_]+\(|tree_sitter/api\.h|\bTS(Node|Tree|TreeCursor|Parser|Language)\b' \
    linter/*/*.c linter/*/*.h rules/*.c rules/*.h 2>/dev/null |
    grep -vE '^linter/syntax/syntax\.(c|h):')
if [ -n "$hits" ]; then
    echo "tree-sitter used outside linter/syntax/syntax.c:"
    echo "$hits"
    fail=1
fi

# The stages include one way: a folder of linter/ (or rules/) includes
# headers only of the folders before it in this order (docs/architecture.md).
order="core source syntax ir config schema extract facts rules project report model lsp cli"
rank() { i=0; for s in $order; do [ "$s" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
for h in linter/*/*.h; do
    printf '%s %s\n' "$(basename "$h")" "$(basename "$(dirname "$h")")"
done >"${TMPDIR:-/tmp}/keylint-headers.$$"
for f in linter/*/*.c linter/*/*.h rules/*.c; do
    case $f in rules/*) from=rules ;; *) from=$(basename "$(dirname "$f")") ;; esac
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        to=$(awk -v h="$inc" '$1 == h { print $2 }' "${TMPDIR:-/tmp}/keylint-headers.$$")
        [ -z "$to" ] || [ "$to" = "$from" ] && continue
        if [ "$(rank "$to")" -gt "$(rank "$from")" ]; then
            echo "$f ($from) includes $inc ($to): against the order $order"
            fail=1
        fi
    done
done
rm -f "${TMPDIR:-/tmp}/keylint-headers.$$"

# A rule reads the IR and the project's facts, never a syntax tree, a
# configuration file or an extraction pass: rules/*.c include only these.
rule_headers="rule.h facts.h keyfacts.h access.h ir.h ddbexpr.h"
for f in rules/*.c; do
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        case " $rule_headers " in
            *" $inc "*) ;;
            *) echo "$f includes $inc: a rule includes only $rule_headers"; fail=1 ;;
        esac
    done
done

# No two files of one folder of linter/ (or rules/) call each other in a
# cycle, directly or through others of the folder: the files of a folder
# stand in layers. The graph comes from the built objects' symbol tables
# (nm; LTO objects carry one too): file A depends on file B when A uses a
# global symbol (function or data) that B defines. A static function is
# not in the table as something another file uses, so two static
# functions of the same name in two files never make an edge. cli/main.c
# is not in the library: nothing can call it.
{
    for f in linter/*/*.c rules/*.c; do
        printf 'SRC %s %s.o\n' "$f" "$(printf '%s' "$f" | tr '/' '_')"
    done
    nm "$lib"
} | awk -v lib="$lib" '
$1 == "SRC" { src[$3] = $2; next }
/:$/ { m = $0; sub(/:$/, "", m); sub(/.*\//, "", m); cur = (m in src) ? src[m] : ""; if (cur != "") nobj++; next }
cur == "" { next }
NF == 2 && $1 == "U" { use[cur, ++nuse[cur]] = $2; files[cur] = 1; next }
NF == 3 && $2 ~ /^[TDBRGSVWC]$/ { def[$3] = cur; files[cur] = 1; next }
function dir(f) { d = f; sub(/\/[^\/]*$/, "", d); return d }
END {
    if (nobj < 10) { print "nm found no objects of linter/ in " lib; exit 2 }
    for (f in files) for (i = 1; i <= nuse[f]; i++) {
        s = use[f, i]; if (!(s in def)) continue
        g = def[s]; if (g == f || dir(g) != dir(f)) continue
        if (!((f, g) in edge)) { edge[f, g] = s; reach[f, g] = 1 }
    }
    n = 0; for (f in files) node[++n] = f
    for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if ((node[i], node[k]) in reach)
        for (j = 1; j <= n; j++) if ((node[k], node[j]) in reach) reach[node[i], node[j]] = 1
    bad = 0
    for (i = 1; i <= n; i++) {
        a = node[i]; if (a in done) continue
        comp = ""
        for (j = 1; j <= n; j++) { b = node[j]
            if (b != a && ((a, b) in reach) && ((b, a) in reach)) { comp = comp " " b; done[b] = 1 } }
        if (comp == "") continue
        done[a] = 1; bad = 1
        print "files that call each other in a cycle: " a comp
        k = split(a comp, mm, " ")
        for (p = 1; p <= k; p++) for (q = 1; q <= k; q++) if ((mm[p], mm[q]) in edge)
            print "    " mm[p] " uses " edge[mm[p], mm[q]] " of " mm[q]
    }
    exit bad
}' || fail=1

# Every C file can be read in one sitting.
for f in linter/*/*.c rules/*.c; do
    n=$(wc -l <"$f")
    if [ "$n" -gt 1500 ]; then
        echo "$f has $n lines: split it (at most 1,500)"
        fail=1
    fi
done

[ $fail -eq 0 ] && echo "layering: ok"
exit $fail
