#!/usr/bin/env bash
# End-to-end tests of the keylint command line: options, exit codes, output
# format and order, and bad input (each reported once, naming the file, with
# the rest of the run going on).
# Usage: cli_test.sh KEYLINT SOURCE_ROOT
set -u

keylint=$1
root=$2
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

# run NAME EXPECTED_RC CMD... : runs CMD, keeps stdout in $out, stderr in $err
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

has() { # has NAME HAYSTACK NEEDLE
    if [[ $2 == *"$3"* ]]; then ok; else bad "$1: missing '$3' in: $2"; fi
}
lacks() {
    if [[ $2 != *"$3"* ]]; then ok; else bad "$1: unexpected '$3' in: $2"; fi
}

export NO_COLOR=1
unset FORCE_COLOR

# --- options -------------------------------------------------------------
run help 0 "$keylint" --help && has help "$out" "usage: keylint"
run version 0 "$keylint" --version && has version "$out" "keylint "
run list-rules 0 "$keylint" --list-rules
rules_out=$out
for r in magic-string mixed-separator missing-delimiter mutable-key-field \
         versioned-sk-read missing-tenant; do
    has "list-rules $r" "$rules_out" "$r"
    run "explain $r" 0 "$keylint" --explain "$r" && has "explain $r" "$out" "$r"
done
run explain-unknown 2 "$keylint" --explain no-such-rule && has explain-unknown "$err" "unknown rule 'no-such-rule'"
run unknown-option 2 "$keylint" --frobnicate && has unknown-option "$err" "unknown option '--frobnicate'"
run missing-value 2 "$keylint" --config && has missing-value "$err" "needs a value"
run bad-format 2 "$keylint" --format xml . && has bad-format "$err" "unknown format 'xml'"

# --- a small project -----------------------------------------------------
proj="$tmp/proj"
mkdir -p "$proj/src"
cat >"$proj/src/a.ts" <<'EOF'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
export const get = (ddb: any, userId: string, orderId: string) =>
  ddb.send(new GetCommand({ TableName: 't', Key: { pk: `USER#${userId}`, sk: `${userId}${orderId}` } }));
EOF
cat >"$proj/src/clean.ts" <<'EOF'
export const USER_PREFIX = 'USER#';
export function userPk(id: string) { return `${USER_PREFIX}${id}`; }
EOF
cd "$proj" || exit 1
run findings 1 "$keylint" src
has findings "$out" "src/a.ts:3:90: error: 'userId' and 'orderId' are joined with nothing between them"
has findings "$out" "[missing-delimiter]"
has findings "$out" "  ddb.send(new GetCommand("
has findings "$out" "^~~~~"
has summary "$out" "1 error, 1 warning in 2 files"
lacks no-color "$out" $'\033['
run concise 1 "$keylint" --format concise src
lacks concise "$out" "ddb.send"
first=$(printf '%s\n' "$out" | head -1)
has order "$first" "src/a.ts:3:57: warning: inline key prefix 'USER#'"
run default-path 1 "$keylint"
has default-path "$out" "src/a.ts:3:90"
run clean-file 0 "$keylint" src/clean.ts
has clean-file "$out" "0 errors, 0 warnings in 1 file"
printf 'export const f = (db: any, id: string) => db.put({ pk: `USER#${id}`, sk: SK });\n' >src/warn.ts
run warning-only 0 "$keylint" src/warn.ts
run fail-on-warning 1 "$keylint" --fail-on warning src/warn.ts
rm src/warn.ts
run color-always 1 "$keylint" --color always src
has color "$out" $'\033['
# Identical output run to run.
a=$("$keylint" src 2>&1); b=$("$keylint" src 2>&1)
if [ "$a" = "$b" ]; then ok; else bad "output differs between runs"; fi

# --- configuration ---------------------------------------------------------
printf 'rules:\n  magic-string: off\n  missing-delimiter: warning\n' >"$proj/.keylint.yml"
run config-severity 0 "$keylint" src
has config-severity "$out" "warning: 'userId' and 'orderId'"
lacks config-off "$out" "magic-string"
printf 'separatr: "#"\n' >"$proj/.keylint.yml"
run config-unknown-key 2 "$keylint" src
has config-unknown-key "$err" ".keylint.yml:1:1: error: unknown key 'separatr'"
has config-run-goes-on "$out" "[missing-delimiter]"
printf 'rules: [unclosed\n' >"$proj/.keylint.yml"
run config-syntax 2 "$keylint" src
has config-syntax "$err" ".keylint.yml:"
printf 'ignore: ["src/a.ts"]\n' >"$proj/.keylint.yml"
run config-ignore 0 "$keylint" src
has config-ignore "$out" "in 1 file"
rm "$proj/.keylint.yml"
printf 'rules:\n  missing-delimiter: off\n  magic-string: off\n' >"$tmp/other.yml"
run config-flag 0 "$keylint" --config "$tmp/other.yml" src
run config-flag-missing 2 "$keylint" --config "$tmp/nope.yml" src
has config-flag-missing "$err" "nope.yml"

# --- bad input: named once, the run goes on, exit 2 --------------------------
printf 'const a = 1;\0\0binary' >"$proj/src/bin.ts"
printf 'const s = "caf\xe9";\n' >"$proj/src/latin1.ts"
printf 'const x = <%%= name %%>;\n' >"$proj/src/template.ts"
run bad-input 2 "$keylint" src
has binary "$err" "src/bin.ts: error: binary file; skipped"
has latin1 "$err" "src/latin1.ts:1:"
has latin1 "$err" "not valid UTF-8"
has syntax "$err" "src/template.ts:1:"
has syntax "$err" "syntax error"
has goes-on "$out" "[missing-delimiter]"
count=$(printf '%s\n' "$err" | grep -c 'src/bin.ts')
[ "$count" -eq 1 ] && ok || bad "binary file reported $count times"
rm "$proj/src/bin.ts" "$proj/src/latin1.ts" "$proj/src/template.ts"
run missing-path 2 "$keylint" src nowhere
has missing-path "$err" "nowhere"
has missing-path-goes-on "$out" "[missing-delimiter]"
if [ "$(id -u)" != 0 ]; then
    cp src/clean.ts src/locked.ts && chmod 000 src/locked.ts
    run unreadable 2 "$keylint" src
    has unreadable "$err" "src/locked.ts"
    rm -f src/locked.ts
fi
mkdir -p "$proj/loop/inner" && ln -s .. "$proj/loop/inner/up"
cp src/clean.ts "$proj/loop/x.ts"
run symlink-loop 0 "$keylint" loop
has symlink-loop "$out" "in 1 file"
rm -rf "$proj/loop"

# --- deep nesting and huge input never crash -------------------------------
python3 - "$proj/src/deep.ts" <<'EOF'
import sys
n = 20000
with open(sys.argv[1], "w") as f:
    f.write("const pk = " + "(" * n + "'USER#' + id" + ")" * n + ";\n")
    f.write("const k = { pk: " + " + ".join(["'A#'"] + ["x%d" % i for i in range(5000)]) + " };\n")
    f.write("const sk = `" + "${a}" * 5000 + "`;\n")
EOF
"$keylint" src/deep.ts >/dev/null 2>"$tmp/stderr"
rc=$?
[ "$rc" -le 2 ] && ok || bad "deep nesting: exit $rc"
rm "$proj/src/deep.ts"
head -c 9000000 /dev/zero | tr '\0' 'a' >"$proj/src/huge.ts"
run huge 2 "$keylint" src
has huge "$err" "src/huge.ts: error: file is larger than 8 MiB; skipped"
rm "$proj/src/huge.ts"

# --- dump-ir ---------------------------------------------------------------
run dump-ir 0 "$keylint" --dump-ir src/a.ts src
has dump-ir "$out" "file src/a.ts"
has dump-ir "$out" 'op 0 3:12 get sdk-v3 GetCommand table=t'
has dump-ir "$out" 'key 3:56 pk read template attr=pk op=0 = "USER#{userId}"'
has dump-ir "$out" 'text    "USER#"'

# --- the bundled example ---------------------------------------------------
cd "$root" || exit 1
run example 1 "$keylint" fixtures/example-service
for r in magic-string mixed-separator missing-delimiter mutable-key-field \
         versioned-sk-read missing-tenant; do
    has "example fires $r" "$out" "[$r]"
done

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
