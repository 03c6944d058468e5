#!/bin/sh
# The syntax layer is the only code that talks to tree-sitter: every other
# pass reads trees through linter/syntax/syntax.h, where a null node, a
# comment or an ERROR node is an ordinary value. And the stages of
# linter/ include each other one way.
# usage: layering_test.sh SOURCE_ROOT
set -u
root=${1:?source root}
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
