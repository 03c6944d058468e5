#!/usr/bin/env bash
# End-to-end test of `keylint lsp` with a real editor: headless Neovim
# (0.7 or later: its built-in LSP client) drives tests/nvim_lsp.lua once
# with each position encoding, UTF-16 (the default) and UTF-8.
# Usage: nvim_lsp_test.sh KEYLINT SOURCE_ROOT
# Checks the command line and a framed stdio session first (no editor
# needed), then exits 77 (skipped) only when nvim is not installed
# (`scripts/setup --with-test-tools` installs it).
set -u

keylint=$1
root=$2

# First, without an editor: the command line of `keylint lsp`, and one
# framed session over the real stdin/stdout.
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
if ! "$keylint" lsp --help | grep -q 'usage: keylint lsp'; then
    echo "FAIL: keylint lsp --help"; exit 1
fi
"$keylint" lsp --no-such-option >/dev/null 2>&1
if [ $? -ne 2 ]; then
    echo "FAIL: keylint lsp --no-such-option should exit 2"; exit 1
fi
out=$({ frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
        frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
        frame '{"jsonrpc":"2.0","method":"exit"}'; } | "$keylint" lsp 2>/dev/null)
rc=$?
if [ "$rc" -ne 0 ] || [[ $out != *'"positionEncoding":"utf-16"'* ]] ||
   [[ $out != *'{"id":2,"result":null'* ]]; then
    echo "FAIL: stdio session: exit $rc, output: $out"; exit 1
fi
{ frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'; } |
    "$keylint" lsp >/dev/null 2>&1
if [ $? -ne 1 ]; then
    echo "FAIL: the end of input without shutdown and exit should exit 1"; exit 1
fi
echo "keylint lsp: command line and stdio session OK"

if ! command -v nvim >/dev/null 2>&1; then
    echo "nvim is not installed: skipped (scripts/setup --with-test-tools installs it)"
    exit 77
fi
nvim --version | sed -n 1p

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# keep Neovim's state, logs and any user configuration out of the way
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
       XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"

write_project() {
    rm -rf "$1"
    mkdir -p "$1/src"
    cat >"$1/src/keys.ts" <<'TS'
export const ORDER_PREFIX = 'ORDER#';
export function itemSk(a: string, b: string) { return `ITEM#${a}#${b}`; }
TS
    # row 5 has 'é' (2 bytes, 1 UTF-16 unit) and '😀' (4 bytes, 2 units)
    # before the finding
    cat >"$1/src/service.ts" <<'TS'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { addSortKeyVersion, removeSortKeyVersion } from '@mbc-cqrs-serverless/core';
import { ORDER_PREFIX, itemSk } from './keys';

export async function load(ddb: any, data: any, tenantCode: string, id: string, n: string) {
  const note = 'héllo 😀'; const r = await ddb.send(new GetCommand({ TableName: 't', Key: { pk: `ORDER#${tenantCode}`, sk: itemSk(id, n) } }));
  const sk = addSortKeyVersion(itemSk(id, n), 1);
  const pk = `${ORDER_PREFIX}${tenantCode}`;
  return [note, r, await data.dataService.getItem({ pk, sk }), removeSortKeyVersion];
}
TS
}

failed=0
for enc in utf-16 utf-8; do
    ws="$tmp/ws-$enc"
    write_project "$ws"
    KEYLINT="$keylint" KEYLINT_WS="$ws" KEYLINT_ENC="$enc" \
        timeout 120 nvim --headless -u NONE -i NONE -n \
        -c "luafile $root/tests/nvim_lsp.lua" </dev/null
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: Neovim session with $enc positions exited with $rc"
        failed=1
    fi
done
exit "$failed"
