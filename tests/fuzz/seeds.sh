#!/bin/sh
# Seed corpora for the fuzz targets, from the repository's own inputs.
# usage: tests/fuzz/seeds.sh OUT_DIR   (writes OUT_DIR/{pipeline,config,schema,lsp})
set -eu
out=${1:?output directory}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/pipeline" "$out/config" "$out/schema" "$out/lsp"
n=0
# pipeline: the first byte picks the grammar (even: TypeScript, odd: TSX)
find "$root/fixtures" "$root/tests/extract" -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.js' \) |
while read -r f; do
    n=$((n + 1))
    case $f in *.tsx|*.js) k=1 ;; *) k=0 ;; esac
    { printf "$k"; cat "$f"; } >"$out/pipeline/$n"
done
find "$root/fixtures" -name '.keylint.yml' | while read -r f; do
    cp "$f" "$out/config/$(echo "$f" | cksum | cut -d' ' -f1).yml"
done
find "$root/fixtures" \( -name 'template.yaml' -o -name 'template.json' -o -name 'serverless.yml' \
     -o -path '*/resources/*' \) -type f | while read -r f; do
    cp "$f" "$out/schema/$(echo "$f" | cksum | cut -d' ' -f1)"
done
# lsp: open a fixture, change it, ask for actions and hover, shut down
frame() { printf 'Content-Length: %d\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
i=0
for f in "$root"/fixtures/magic-string/*.ts "$root"/fixtures/mixed-separator/*.ts; do
    i=$((i + 1))
    text=$(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()))' "$f")
    {
        frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
        frame "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///nonexistent/keylint-fuzz/a.ts\",\"languageId\":\"typescript\",\"version\":1,\"text\":$text}}}"
        frame '{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nonexistent/keylint-fuzz/a.ts","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":3}},"text":"// x"}]}}'
        frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///nonexistent/keylint-fuzz/a.ts"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]}}}'
        frame '{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nonexistent/keylint-fuzz/a.ts"},"position":{"line":3,"character":10}}}'
        frame '{"jsonrpc":"2.0","id":4,"method":"shutdown"}'
        frame '{"jsonrpc":"2.0","method":"exit"}'
    } >"$out/lsp/$i"
done
echo "seeds in $out: $(ls "$out/pipeline" | wc -l) pipeline, $(ls "$out/config" | wc -l) config, $(ls "$out/schema" | wc -l) schema, $(ls "$out/lsp" | wc -l) lsp"
