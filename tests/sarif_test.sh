#!/usr/bin/env bash
# keylint's SARIF against Microsoft's SARIF validator (the npm package
# @microsoft/sarif-multitool, installed into node_modules/ by
# `scripts/setup --with-test-tools`), with the SARIF rules and GitHub's
# ingestion rules (`validate --rule-kind "Gh;Sarif"`). Any result at level
# error or warning fails the test; notes (the validator's style advice, some
# of which GitHub contradicts, such as message ids instead of text) do not.
# A deliberately broken log must fail, so that a validator that checks
# nothing cannot pass.
# Usage: sarif_test.sh KEYLINT SOURCE_ROOT
# Exits 77 (meson: skipped) when the validator is not installed.
set -u

keylint=$1
root=$2
tool=$root/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -f "$tool" ]; then
    echo "SKIP: $tool is not installed; run scripts/setup --with-test-tools"
    exit 77
fi
[ -x "$tool" ] || chmod u+x "$tool"
# .NET without ICU on minimal machines
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
export NO_COLOR=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

# validate NAME FILE: the validator's error- and warning-level results, one
# per line, on stdout; fails when the validator itself fails.
validate() {
    local name=$1 file=$2 out=$tmp/$1.validation.sarif
    if ! "$tool" validate "$file" --rule-kind "Gh;Sarif" --level "Error;Warning" \
            --output "$out" --log ForceOverwrite >"$tmp/$name.log" 2>&1; then
        cat "$tmp/$name.log" >&2
        bad "$name: the validator failed to run"
        return 1
    fi
    python3 - "$out" <<'EOF_PY'
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8-sig"))
for run in log.get("runs", []):
    for r in run.get("results", []):
        # SARIF2005 asks for tool.driver.informationUri: keylint has no
        # published home page, and a made-up address would be worse than
        # none (GitHub code scanning does not need it).
        if r.get("ruleId") == "SARIF2005":
            continue
        if r.get("level", "warning") in ("error", "warning"):
            msg = r.get("message", {})
            text = msg.get("text") or " ".join(msg.get("arguments", []))
            print(f'{r.get("level")} {r.get("ruleId")}: {text}')
    for inv in run.get("invocations", []):
        for n in inv.get("toolExecutionNotifications", []):
            if n.get("level") == "error":
                print(f'validator error: {n.get("message", {}).get("text")}')
EOF_PY
}

# expect_valid NAME FILE
expect_valid() {
    local issues
    issues=$(validate "$1" "$2") || return
    if [ -z "$issues" ]; then ok; else bad "$1: the validator reports:"$'\n'"$issues"; fi
}

# --- the validator catches what GitHub rejects -------------------------------
cat >"$tmp/broken.sarif" <<'EOF'
{"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
 "runs": [{"tool": {"driver": {"name": "x", "version": "1", "informationUri": "https://example.com/"}},
           "results": [{"ruleId": "r", "message": {"id": "m"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.ts"},
                                                            "region": {"startLine": 0}}}]}]}]}
EOF
issues=$(validate broken "$tmp/broken.sarif")
if [[ $issues == *GH1* && $issues == *JSON1008* ]]; then ok; else
    bad "broken log: expected GitHub (GH1...) and schema (JSON1008) errors, got: $issues"
fi

# --- the bundled example --------------------------------------------------------
cd "$root" || exit 1
"$keylint" --format sarif --output "$tmp/example.sarif" fixtures/example-service 2>/dev/null
rc=$?
[ "$rc" -eq 1 ] && ok || bad "example: exit $rc, expected 1"
expect_valid example "$tmp/example.sarif"

# --- a project with everything a log can hold ----------------------------------
proj=$tmp/proj
mkdir -p "$proj/src dir" && cd "$proj" || exit 1
git init -q . 2>/dev/null
cat >"$proj/src dir/a b.ts" <<'EOF'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
export const get = (ddb: any, userId: string, orderId: string) =>
  ddb.send(new GetCommand({ TableName: 'tablé', Key: { pk: `USER#${userId}`, sk: `${userId}${orderId}` } })); // 😀
// keylint-disable-next-line magic-strng
const x = 1;
EOF
printf 'const a = 1;\0\0binary' >"$proj/src dir/bin.ts"
printf 'const pk = <%%= name %%>;\n' >"$proj/src dir/template.ts"
"$keylint" --format sarif --output "$tmp/proj.sarif" "src dir" 2>/dev/null
rc=$?
[ "$rc" -eq 2 ] && ok || bad "project: exit $rc, expected 2 (input problems)"
python3 - "$tmp/proj.sarif" <<'EOF_PY' && ok || bad "project: the log does not hold what it should"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["ruleId"] for r in run["results"]}
assert {"magic-string", "missing-delimiter", "suppression"} <= rules, rules
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
assert uris == {"src%20dir/a%20b.ts"}, uris
notes = run["invocations"][0]["toolExecutionNotifications"]
assert len(notes) == 2 and not run["invocations"][0]["executionSuccessful"], notes
EOF_PY
expect_valid project "$tmp/proj.sarif"

# --- no findings at all ------------------------------------------------------------
rm -rf "$proj/src dir"
mkdir -p "$proj/src"
printf 'export const USER = "USER#";\n' >"$proj/src/clean.ts"
"$keylint" --format sarif --output "$tmp/clean.sarif" src 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && ok || bad "clean: exit $rc, expected 0"
expect_valid clean "$tmp/clean.sarif"

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
