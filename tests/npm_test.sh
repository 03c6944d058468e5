#!/usr/bin/env bash
# keylint's npm packages, as a TypeScript team installs them:
#   1. The three tarballs scripts/npm-pack packed (meson's npm-dist target,
#      in the build directory): each binary is of its architecture and
#      needs no shared library but libc.
#   2. A fresh TypeScript project installs the launcher and this machine's
#      binary from the tarballs (npm, offline): `npx keylint --version`,
#      `npx keylint src` exits 1 on a finding and 0 once it is fixed,
#      `npx keylint lsp` answers `initialize`, and the launcher passes
#      exit codes and signals through; a missing platform package and an
#      unsupported platform get one line saying how to build from source.
#   3. The linux-arm64 binary lints the bundled example under qemu.
# Usage: npm_test.sh SOURCE_ROOT DIST_DIR
# Exits 77 (meson: skipped) only when the cross toolchain is not installed
# (scripts/setup --cross-arm64, or --with-test-tools, installs it).
set -u

root=$1
dist=$2
for tool in aarch64-linux-gnu-gcc qemu-aarch64-static npm node readelf; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (scripts/setup --cross-arm64 installs it)"
        exit 77
    fi
done
for lib in yaml-0.1 jansson; do
    if [ ! -f "/usr/lib/aarch64-linux-gnu/pkgconfig/$lib.pc" ]; then
        echo "SKIP: no arm64 $lib (scripts/setup --cross-arm64 installs it)"
        exit 77
    fi
done
case $(uname -m) in
    x86_64) native=x64 ;;
    aarch64) native=arm64 ;;
    *) echo "SKIP: no keylint package for $(uname -m)"; exit 77 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }
has() { if [[ $2 == *"$3"* ]]; then ok; else bad "$1: missing '$3' in: $2"; fi; }

# run NAME EXPECTED_RC CMD...: stdout in $out, stderr in $err
run() {
    local name=$1 want=$2
    shift 2
    out=$("$@" 2>"$tmp/stderr")
    rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, expected $want"
        printf '  stdout: %s\n  stderr: %s\n' "$out" "$err" >&2
        return 1
    fi
    ok
}

export NO_COLOR=1
# npm: its own cache and no registry traffic (everything is a tarball here)
export npm_config_cache=$tmp/npm-cache npm_config_update_notifier=false
export npm_config_audit=false npm_config_fund=false

# --- 1. the tarballs ---------------------------------------------------------------
if [ ! -d "$dist" ]; then
    echo "SKIP: $dist was not packed: the cross toolchain was missing when the build was configured"
    exit 77
fi
version=$(meson introspect --projectinfo "$root/meson.build" |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
main_tgz=$dist/keylint-$version.tgz
# the binary package of a platform: this machine's beside the launcher, the
# others apart (npm refuses to install a tarball for another cpu)
platform_tgz() { [ "$1" = "$native" ] && echo "$dist/keylint-linux-$1-$version.tgz" ||
                 echo "$dist/other-platforms/keylint-linux-$1-$version.tgz"; }
for f in "$main_tgz" "$(platform_tgz x64)" "$(platform_tgz arm64)"; do
    [ -s "$f" ] && ok || bad "not packed: $f"
done

# each binary: its architecture, and nothing dynamic but libc
for arch in x64 arm64; do
    mkdir -p "$tmp/unpacked-$arch"
    tar -xzf "$(platform_tgz $arch)" -C "$tmp/unpacked-$arch"
    bin=$tmp/unpacked-$arch/package/bin/keylint
    [ -x "$bin" ] && ok || bad "linux-$arch: no executable package/bin/keylint"
    machine=$(readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
    want=$([ $arch = x64 ] && echo "Advanced Micro Devices X86-64" || echo "AArch64")
    [ "$machine" = "$want" ] && ok || bad "linux-$arch: machine '$machine', expected '$want'"
    needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    others=$(grep -Ev '^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|ld-linux-(x86-64|aarch64)\.so\.[12])$' <<<"$needed")
    [ -z "$others" ] && ok || bad "linux-$arch: needs shared libraries other than libc: $others"
    grep -qx 'libc.so.6' <<<"$needed" && ok || bad "linux-$arch: NEEDED has no libc: $needed"
    pj=$(cat "$tmp/unpacked-$arch/package/package.json")
    has "linux-$arch package.json os" "$pj" '"os": ["linux"]'
    has "linux-$arch package.json cpu" "$pj" "\"cpu\": [\"$arch\"]"
done
tar -tzf "$main_tgz" >"$tmp/main.list"
grep -qx 'package/bin/keylint.js' "$tmp/main.list" && ok || bad "keylint: no bin/keylint.js"
grep -q 'package/bin/keylint$' "$tmp/main.list" && bad "keylint: a binary in the launcher package" || ok

# --- 2. a fresh TypeScript project -------------------------------------------
proj=$tmp/app
mkdir -p "$proj/src"
cd "$proj" || exit 1
run "npm init" 0 npm init -y
cat >tsconfig.json <<'EOF'
{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true }, "include": ["src"] }
EOF
cat >src/orders.ts <<'EOF'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
export const ORDER_PREFIX = 'ORDER#';
export const getOrder = (ddb: any, userId: string, orderId: string) =>
  ddb.send(new GetCommand({ TableName: 'app', Key: { pk: `${ORDER_PREFIX}${userId}`, sk: `${userId}${orderId}` } }));
EOF
run "npm install" 0 npm install --offline -D "$main_tgz" "$(platform_tgz $native)"
[ -e node_modules/.bin/keylint ] && ok || bad "no node_modules/.bin/keylint"
has "package.json devDependencies" "$(cat package.json)" '"keylint": "file:'
run "npx keylint --version" 0 npx --offline keylint --version && has "npx keylint --version" "$out" "keylint $version"
run "npx keylint src (finding)" 1 npx --offline keylint src
has "npx keylint src" "$out" "src/orders.ts:4:"
has "npx keylint src" "$out" "[missing-delimiter]"
sed -i 's/${userId}${orderId}/${userId}#${orderId}/' src/orders.ts
run "npx keylint src (clean)" 0 npx --offline keylint src
run "node_modules/.bin/keylint (usage error)" 2 node_modules/.bin/keylint --no-such-option
has "usage error" "$err" "unknown option '--no-such-option'"

# the language server through the launcher: initialize, shutdown, exit
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
out=$({ frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":null,"capabilities":{}}}'
        frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
        frame '{"jsonrpc":"2.0","method":"exit"}'; } | npx --offline keylint lsp 2>"$tmp/lsp.err")
rc=$?
[ "$rc" -eq 0 ] && ok || bad "npx keylint lsp: exit $rc: $(cat "$tmp/lsp.err")"
has "npx keylint lsp: initialize" "$out" '"id":1,"result":{"capabilities"'
has "npx keylint lsp: server name" "$out" '"serverInfo":{"name":"keylint"'
has "npx keylint lsp: shutdown" "$out" '{"id":2,"result":null'

# a binary killed by a signal: the launcher dies of it too
printf '#!/bin/sh\nkill -TERM $$\n' >"$tmp/dies"
chmod +x "$tmp/dies"
KEYLINT_BINARY=$tmp/dies node_modules/.bin/keylint src
rc=$?
[ "$rc" -eq 143 ] && ok || bad "signal: the launcher exited $rc, expected 143 (SIGTERM)"

# the launcher's own failures: one line, how to build from source, exit 2
mv node_modules/@keylint/linux-$native "$tmp/moved"
run "missing platform package" 2 npx --offline keylint src
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && ok || bad "missing platform package: not one line: $err"
has "missing platform package" "$err" "npm install @keylint/linux-$native@$version"
has "missing platform package" "$err" "from source"
mv "$tmp/moved" node_modules/@keylint/linux-$native
printf "Object.defineProperty(process, 'platform', { value: 'darwin' });\n" >"$tmp/darwin.js"
run "unsupported platform" 2 node -r "$tmp/darwin.js" node_modules/keylint/bin/keylint.js --version
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && ok || bad "unsupported platform: not one line: $err"
has "unsupported platform" "$err" "keylint: no prebuilt binary for darwin-"
has "unsupported platform" "$err" "build keylint from source"

# what dist/npm/ holds, all at once, as the README says
proj2=$tmp/app2
mkdir -p "$proj2" && cd "$proj2" || exit 1
npm init -y >/dev/null
run "npm install dist/npm/*.tgz" 0 npm install --offline "$dist"/*.tgz
[ -d node_modules/@keylint/linux-$native ] && ok || bad "dist/npm/*.tgz: no @keylint/linux-$native"
[ "$(ls node_modules/@keylint)" = "linux-$native" ] && ok ||
    bad "dist/npm/*.tgz: installed $(ls node_modules/@keylint | tr '\n' ' ')"
run "dist/npm/*.tgz: npx keylint --version" 0 npx --offline keylint --version
has "dist/npm/*.tgz: npx keylint --version" "$out" "keylint $version"

# --- 3. the arm64 binary under qemu ---------------------------------------------
arm=$tmp/unpacked-arm64/package/bin/keylint
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
run "arm64 --version" 0 qemu-aarch64-static "$arm" --version && has "arm64 --version" "$out" "keylint $version"
cd "$root" || exit 1
run "arm64 example" 1 qemu-aarch64-static "$arm" --format concise fixtures/example-service
has "arm64 example" "$out" "[missing-delimiter]"
findings() { grep -E ': (error|warning|note): ' <<<"$1"; }
native_out=$("$tmp/unpacked-$native/package/bin/keylint" --format concise fixtures/example-service 2>/dev/null)
[ -n "$(findings "$out")" ] && [ "$(findings "$out")" = "$(findings "$native_out")" ] && ok ||
    bad "arm64 and $native report differently on the example"

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
