#!/bin/sh
# The syntax layer is the only code that talks to tree-sitter: every other
# pass reads trees through linter/syntax/syntax.h, where a null node, a comment or
# an ERROR node is an ordinary value.
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

[ $fail -eq 0 ] && echo "layering: ok"
exit $fail
