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
run bad-format 2 "$keylint" --format xml . && has bad-format "$err" "unknown format 'xml' (text, concise, json, sarif or github)"

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
# ... and thread count to thread count (enough files to use threads).
mkdir -p many
for i in $(seq 1 40); do
    printf 'export const k%d = (db: any, a: string, b: string) =>\n  db.put({ pk: `USER#${a}`, sk: `${a}${b}` });\n' "$i" >"many/f$i.ts"
done
one=$("$keylint" -j 1 many 2>&1); four=$("$keylint" -j 4 many 2>&1)
if [ "$one" = "$four" ] && [[ $one == *"40 errors, 40 warnings in 40 files"* ]]; then ok; else
    bad "output differs between -j 1 and -j 4 (or lost findings): ${one: -200} / ${four: -200}"; fi
rm -rf many
run jobs-zero 2 "$keylint" -j 0 src && has jobs-zero "$err" "--jobs takes a number of threads"

# --- configuration ---------------------------------------------------------
printf 'rules:\n  magic-string: off\n  missing-delimiter: warning\n' >"$proj/.keylint.yml"
run config-severity 0 "$keylint" src
has config-severity "$out" "warning: 'userId' and 'orderId'"
lacks config-off "$out" "magic-string"
printf 'separatr: "#"\n' >"$proj/.keylint.yml"
run config-unknown-key 2 "$keylint" src
has config-unknown-key "$err" ".keylint.yml:1:1: error: unknown key 'separatr'"
# a wrong configuration stops the run before any finding, and is named as
# findings are: relative to the current directory
[ -z "$out" ] && ok || bad "config-unknown-key: findings printed under a wrong configuration: $out"
lacks config-relative "$err" "$proj/.keylint.yml"
run config-relative-sub 2 "$keylint" ../proj/src
has config-relative-sub "$err" ".keylint.yml:1:1:"
lacks config-relative-sub "$err" "$proj/.keylint.yml"
run config-baseline-write 2 "$keylint" --baseline-write "$tmp/never.json" src
[ ! -e "$tmp/never.json" ] && ok || bad "a baseline written under a wrong configuration"
# a string where a list is expected, an unclosed [ in a glob: errors
printf 'ignore: src/a.ts\n' >"$proj/.keylint.yml"
run config-string-list 2 "$keylint" src
has config-string-list "$err" ".keylint.yml:1:9: error: 'ignore' must be a list of strings (got 'src/a.ts'); write [src/a.ts]"
printf 'tenant: { names: orgId }\n' >"$proj/.keylint.yml"
run config-string-list-nested 2 "$keylint" src
has config-string-list-nested "$err" "'tenant.names' must be a list of strings"
printf 'ignore: ["src/[abc"]\n' >"$proj/.keylint.yml"
run config-unclosed-class 2 "$keylint" src
has config-unclosed-class "$err" "the glob 'src/[abc' has a '[' without its ']'"
printf 'ignore: ["src/[ab].ts", "src/[!x]*.ts"]\n' >"$proj/.keylint.yml"
run config-closed-class 0 "$keylint" src
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
# key code (pk) with a syntax error: read outside the error, and named
printf 'const pk = <%%= name %%>;\n' >"$proj/src/template.ts"
run bad-input 2 "$keylint" src
has binary "$err" "src/bin.ts: error: binary file; skipped"
has latin1 "$err" "src/latin1.ts:1:"
has latin1 "$err" "not valid UTF-8"
# a note goes with the report it belongs to (stdout here), errors to stderr
has syntax "$out" "src/template.ts:1:"
has syntax "$out" "syntax error"
lacks syntax-not-stderr "$err" "src/template.ts"
run note-in-file 2 "$keylint" --format concise src
has note-in-file "$out" "src/template.ts:1:1: note: "
run note-with-output 2 "$keylint" --format concise -o "$tmp/concise.txt" src
has note-with-output "$(cat "$tmp/concise.txt")" "src/template.ts:1:1: note: "
lacks note-with-output "$err" "note:"
run note-json 2 "$keylint" --format json src
has note-json "$out" '"level": "note"'
run note-quiet 2 "$keylint" --quiet src
lacks note-quiet "$out" "src/template.ts:1:1: note:"
lacks note-quiet "$out" "syntax error"
# an error's evidence is part of the error, --quiet or not
has note-quiet-evidence "$out" "note: 'userId', the other side of the join"
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

# --- report formats, --output, exit control (issue 5) -----------------------
# json: one document on stdout, the summary on stderr
run json 1 "$keylint" --format json src
printf '%s' "$out" >"$tmp/out.json"
python3 - "$tmp/out.json" <<'EOF_PY' && ok || bad "json: not the expected document: $out"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 1, d
f = d["findings"]
assert [x["rule"] for x in f] == ["magic-string", "missing-delimiter"], f
assert f[1]["path"] == "src/a.ts" and f[1]["line"] == 3 and f[1]["column"] == 90, f[1]
assert f[1]["endLine"] == 3 and f[1]["endColumn"] > 90 and ":" in f[1]["fingerprint"], f[1]
assert d["summary"] == {"errors": 1, "warnings": 1, "filesLinted": 2, "problems": 0, "notes": 0, "baselined": 0,
                        "keys": 2, "dataOperations": 1, "tables": 0}, d["summary"]
EOF_PY
has json-summary-on-stderr "$err" "1 error, 1 warning in 2 files"
lacks json-no-summary-on-stdout "$out" "1 error, 1 warning in 2 files"
# sarif into a file: nothing on stdout, the summary still on the terminal
run sarif-output 1 "$keylint" --format sarif --output "$tmp/out.sarif" src
[ -z "$out" ] && ok || bad "sarif --output: stdout not empty: $out"
has sarif-output-summary "$err" "1 error, 1 warning in 2 files"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0" and len(d["runs"][0]["results"])==2' \
    "$tmp/out.sarif" && ok || bad "sarif --output: not a SARIF log with 2 results"
# text into a file: the report in the file, the summary on stderr
run text-output 1 "$keylint" --output "$tmp/out.txt" src
has text-output-file "$(cat "$tmp/out.txt")" "src/a.ts:3:90: error:"
lacks text-output-file-no-color "$(cat "$tmp/out.txt")" $'\033['
has text-output-summary "$err" "1 error, 1 warning in 2 files"
# what is linted does not depend on the working directory: the default
# test-file ignores match from a sibling directory and from /
mkdir -p "$tmp/cwd/p/src/__tests__" "$tmp/cwd/elsewhere"
printf 'export const k = { PK: `ORDER#${id}`, SK: "A" };\n' >"$tmp/cwd/p/src/a.ts"
cp "$tmp/cwd/p/src/a.ts" "$tmp/cwd/p/src/a.test.ts"
cp "$tmp/cwd/p/src/a.ts" "$tmp/cwd/p/src/__tests__/b.ts"
for from in "$tmp/cwd/p" "$tmp/cwd/elsewhere" /; do
    (cd "$from" && "$keylint" --format json --exit-zero "$tmp/cwd/p") >"$tmp/cwd.json" 2>/dev/null
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["filesLinted"])' "$tmp/cwd.json")
    [ "$n" = 1 ] && ok || bad "run from $from: $n files linted, expected 1 (test files ignored)"
done
# without a configuration, the templates a project usually has are read:
# from the work tree's root whatever the working directory; `schemas: []`
# turns that off
disc="$tmp/disc"
mkdir -p "$disc/infra" "$disc/src" && git -C "$disc" init -q
cat >"$disc/infra/template.yaml" <<'EOF_YAML'
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: app
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
      KeySchema: [{ AttributeName: pk, KeyType: HASH }]
EOF_YAML
printf 'a: 1\n' >"$disc/template.yml" # not a schema: says nothing
cat >"$disc/src/q.ts" <<'EOF_TS'
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const q = (ddb: any, p: string) => ddb.send(new QueryCommand({
  TableName: 'app', IndexName: 'GSI9', KeyConditionExpression: 'g = :p', ExpressionAttributeValues: { ':p': p } }));
EOF_TS
for from in "$disc" "$disc/src"; do
    out=$(cd "$from" && "$keylint" --format concise . 2>&1)
    has "discovered template from $from" "$out" "index 'GSI9' is not defined on table Table (app)"
    lacks "discovered template from $from" "$out" "template.yml"
done
# in a monorepo, a service's own template, not its neighbour's
mono="$tmp/mono"
mkdir -p "$mono/services/a/src" "$mono/services/b" && git -C "$mono" init -q
sed 's/TableName: app/TableName: a-table/' "$disc/infra/template.yaml" >"$mono/services/a/template.yaml"
cp "$disc/infra/template.yaml" "$mono/services/b/template.yaml"
cp "$disc/src/q.ts" "$mono/services/a/src/q.ts"
out=$(cd "$mono/services/a" && "$keylint" --format concise . 2>&1)
lacks "monorepo: the neighbour's template is not read" "$out" "GSI9"
out=$(cd "$mono" && "$keylint" --format concise services/a/src 2>&1)
lacks "monorepo: the neighbour's template is not read (from the root)" "$out" "GSI9"
out=$(cd "$mono" && "$keylint" --format concise . 2>&1)
lacks "monorepo: run from the root, the files still decide" "$out" "GSI9"
# a table definition at any depth of the project (Terraform four levels
# down), never in the copies .terraform and node_modules hold
deep="$tmp/deep"
tfdir="$deep/infrastructure/terraform/modules/dynamodb"
mkdir -p "$tfdir" "$deep/src" "$deep/infrastructure/terraform/.terraform/modules/db" \
    "$deep/node_modules/db" && git -C "$deep" init -q
cat >"$tfdir/main.tf" <<'EOF_TF'
resource "aws_dynamodb_table" "main" {
  name     = "app"
  hash_key = "PK"
  attribute {
    name = "PK"
    type = "S"
  }
}
EOF_TF
printf 'variable "table_name" {\n  type = string\n}\n' >"$tfdir/variables.tf"
for copy in "$deep/infrastructure/terraform/.terraform/modules/db" "$deep/node_modules/db"; do
    sed -e 's/hash_key = "PK"/hash_key = "PK"\n  range_key = "SK"/' "$tfdir/main.tf" >"$copy/main.tf"
done
cp "$disc/src/q.ts" "$deep/src/q.ts"
out=$(cd "$deep" && "$keylint" --format concise . 2>&1)
has "template four levels down" "$out" "index 'GSI9' is not defined on table main (app)"
lacks "template four levels down: not the .terraform copy" "$out" ".terraform"
lacks "template four levels down: not the node_modules copy" "$out" "node_modules"
out=$(cd "$deep/src" && "$keylint" model -f text . 2>&1)
has "model: template four levels down" "$out" "infrastructure/terraform/modules/dynamodb/main.tf:1"
printf 'schemas: []\n' >"$disc/.keylint.yml"
out=$(cd "$disc" && "$keylint" --format concise . 2>&1)
lacks "schemas: [] turns discovery off" "$out" "GSI9"
# every template is judged, whoever found it: a table DynamoDB rejects in a
# discovered template is a finding, with the pre-check on, whether or not
# a source file uses the table, and in a project with no TS/JS at all
judged="$tmp/judged"
mkdir -p "$judged/src" && git -C "$judged" init -q
cat >"$judged/template.yaml" <<'EOF_YAML'
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: status, AttributeType: S }
      KeySchema: [{ AttributeName: pk, KeyType: HASH }]
EOF_YAML
printf 'export const add = (a: number, b: number) => a + b;\n' >"$judged/src/util.ts"
run discovered-judged 1 "$keylint" --format concise "$judged"
has discovered-judged "$out" "template.yaml:7:28: error: attribute 'status' is defined in the AttributeDefinitions of table Orders but no key schema uses it"
has discovered-judged "$out" "in 2 files"
printf 'schemas: [template.yaml]\n' >"$judged/.keylint.yml"
run named-judged-precheck 1 "$keylint" --format concise "$judged"
has named-judged-precheck "$out" "attribute 'status' is defined"
rm "$judged/.keylint.yml" "$judged/src/util.ts"
printf 'def handler(event, context):\n    return {}\n' >"$judged/src/app.py"
run template-only-repo 1 "$keylint" --format concise "$judged"
has template-only-repo "$out" "template.yaml:7:28: error: attribute 'status' is defined"
has template-only-repo "$out" "in 1 file"
out=$(cd "$judged" && "$keylint" --format concise . 2>&1)
has "template-only repo, keylint ." "$out" "attribute 'status' is defined"
# intrinsic functions are unknown, not wrong; a Fn::ForEach over a
# parameter leaves its table unread, said in a note with the report (exit
# code unchanged)
cat >"$judged/template.yaml" <<'EOF_YAML'
Transform: AWS::LanguageExtensions
Parameters:
  Names: { Type: CommaDelimitedList }
  HashKeyElementName: { Type: String, Default: id }
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions:
        - { AttributeName: !Ref HashKeyElementName, AttributeType: S }
        - Fn::If: [IsProd, { AttributeName: gsi, AttributeType: S }, !Ref AWS::NoValue]
      KeySchema: [{ AttributeName: !Ref HashKeyElementName, KeyType: HASH }]
      GlobalSecondaryIndexes: !If
        - IsProd
        - [{ IndexName: ByGsi, KeySchema: [{ AttributeName: gsi, KeyType: HASH }], Projection: { ProjectionType: ALL } }]
        - !Ref AWS::NoValue
  Fn::ForEach::Tables:
    - Name
    - !Ref Names
    - Table${Name}:
        Type: AWS::DynamoDB::Table
        Properties:
          AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
          KeySchema: [{ AttributeName: pk, KeyType: HASH }]
EOF_YAML
run intrinsics-unknown 0 "$keylint" --format concise "$judged"
has intrinsics-unknown "$out" "template.yaml:22:7: note: table Table\${Name} of Fn::ForEach::Tables is not read: its collection is not a literal list"
rm -rf "$judged"
# --init: a starting configuration from the code, accepted by keylint,
# never over an existing one
initp="$tmp/initp"
cp -r "$root/fixtures/example-service" "$initp" && rm -f "$initp/.keylint.yml"
run init 0 "$keylint" --init "$initp"
has init "$err" "wrote $initp/.keylint.yml"
initcfg=$(cat "$initp/.keylint.yml")
has init-separator "$initcfg" 'separator: "#"'
has init-tenant "$initcfg" '"tenantCode"'
has init-schemas "$initcfg" 'schemas: ['
has init-schemas "$initcfg" 'schemas: ["template.yaml"]'
run init-valid 0 "$keylint" --config "$initp/.keylint.yml" --print-config "$initp/x.ts"
run init-again 2 "$keylint" --init "$initp"
has init-again "$err" "never replaces a configuration"
# --rule over the configuration; --print-config shows the effect
run rule-off 0 "$keylint" --format concise --rule magic-string=off --rule missing-delimiter=off src
has rule-off "$out" "0 errors, 0 warnings"
run rule-error 1 "$keylint" --format concise --rule magic-string=error --rule missing-delimiter=off src
has rule-error "$out" "error: inline key prefix 'USER#'"
run rule-unknown 2 "$keylint" --rule no-such-rule=off src
has rule-unknown "$err" "unknown rule 'no-such-rule' in --rule"
run rule-bad-severity 2 "$keylint" --rule scan=loud src
has rule-bad-severity "$err" "--rule takes RULE=off|warning|error, not 'scan=loud'"
run print-config 0 "$keylint" --print-config src/a.ts --rule scan=off
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["file"]=="src/a.ts" and d["rules"]["scan"]=="off" and d["rules"]["missing-delimiter"]=="error" and d["configuration"] is None and "*.test.*" in d["ignore"]' "$out" \
    && ok || bad "print-config: $out"
# a byte-order mark does not shift line-1 columns
# (a directory of its own: $tmp also holds projects with templates)
mkdir -p "$tmp/bom"
printf '\xef\xbb\xbfexport const k = { PK: `ORDER#${id}`, SK: "A" };\n' >"$tmp/bom/bom.ts"
run bom-columns 0 "$keylint" --format concise "$tmp/bom/bom.ts"
has bom-columns "$out" "bom.ts:1:25: warning: inline key prefix 'ORDER#'"
run output-unwritable 2 "$keylint" --output "$tmp/no/such/dir/r.txt" src
has output-unwritable "$err" "cannot write the report to $tmp/no/such/dir/r.txt"
# a run that fails before its report leaves the file as it was, never
# removed nor half written: the report replaces it only when complete
printf 'yesterday\n' >"$tmp/out.sarif"
run failed-run-keeps-report 2 "$keylint" --format sarif --output "$tmp/out.sarif" --baseline "$tmp/none.json" src
[ "$(cat "$tmp/out.sarif")" = yesterday ] && ok || bad "a failed run removed or changed the report file"
run report-replaced 1 "$keylint" --format sarif --output "$tmp/out.sarif" src
leftovers=$(find "$tmp" -maxdepth 1 -name 'out.sarif.tmp.*' | wc -l)
[ -s "$tmp/out.sarif" ] && [ "$leftovers" -eq 0 ] && ok || bad "report not replaced cleanly ($leftovers temporary files)"
run output-dev-stdout 1 "$keylint" --format concise --output /dev/stdout src
has output-dev-stdout "$out" "src/a.ts:3:90: error:"
# github: workflow commands, and the step summary appended when set
: >"$tmp/summary.md"
GITHUB_STEP_SUMMARY="$tmp/summary.md" run github 1 "$keylint" --format github src
has github "$out" "::error file=src/a.ts,line=3,col=90,endLine=3,endColumn="
has github "$out" "title=keylint missing-delimiter::'userId' and 'orderId' are joined"
has github "$out" "::warning file=src/a.ts,line=3,col=57,"
has github-summary "$(cat "$tmp/summary.md")" "| missing-delimiter | error | 1 |"
has github-summary "$(cat "$tmp/summary.md")" "**1 error, 1 warning** in 2 files."
GITHUB_STEP_SUMMARY="$tmp/summary.md" run github-again 1 "$keylint" --format github src
count=$(grep -c '^### keylint' "$tmp/summary.md")
[ "$count" -eq 2 ] && ok || bad "step summary: appended $count times, expected 2"
unset GITHUB_STEP_SUMMARY
# exit control
printf 'export const f = (db: any, id: string) => db.put({ pk: `USER#${id}`, sk: SK });\n' >src/warn.ts
run max-warnings-0 1 "$keylint" --max-warnings 0 src/warn.ts
has max-warnings-0 "$err" "1 warning, more than --max-warnings 0"
run max-warnings-1 0 "$keylint" --max-warnings 1 src/warn.ts
run max-warnings-bad 2 "$keylint" --max-warnings lots src/warn.ts
has max-warnings-bad "$err" "--max-warnings takes a number of warnings (0 or more), not 'lots'"
run max-warnings-neg 2 "$keylint" --max-warnings -1 src/warn.ts
rm src/warn.ts
run exit-zero 0 "$keylint" --exit-zero src
has exit-zero "$out" "1 error, 1 warning in 2 files"
run exit-zero-warning 0 "$keylint" --exit-zero --fail-on warning --max-warnings 0 src
printf 'const a = 1;\0\0binary' >"$proj/src/bin.ts"
run exit-zero-input-error 0 "$keylint" --exit-zero src
has exit-zero-input-error "$err" "src/bin.ts: error: binary file; skipped"
rm "$proj/src/bin.ts"
run exit-zero-missing-path 2 "$keylint" --exit-zero src nowhere
has exit-zero-missing-path "$err" "nowhere"

# --- baseline ----------------------------------------------------------------
run baseline-write 0 "$keylint" --baseline-write "$tmp/baseline.json" src
has baseline-write "$err" "recorded 2 findings in $tmp/baseline.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]==1 and sum(e["count"] for e in d["entries"])==2' \
    "$tmp/baseline.json" && ok || bad "baseline file: not a version-1 baseline with 2 findings"
run baseline-clean 0 "$keylint" --baseline "$tmp/baseline.json" src
has baseline-clean "$out" "0 errors, 0 warnings in 2 files"
has baseline-clean "$out" "2 findings in the baseline ($tmp/baseline.json) not shown"
cp src/a.ts "$tmp/a.ts.orig"
# lines added above the findings, and the findings' line re-indented
{ printf '// a header comment\n\n'; sed 's/^  ddb.send/      ddb.send/' "$tmp/a.ts.orig"; } >src/a.ts
run baseline-survives-edits 0 "$keylint" --baseline "$tmp/baseline.json" src
has baseline-survives-edits "$out" "0 errors, 0 warnings"
# a new finding is reported, with its exit code
printf 'export const g = (ddb: any, a: string, b: string) => ddb.get({ Key: { pk: `ORDER#${a}`, sk: `${a}${b}` } });\n' >>src/a.ts
run baseline-new-finding 1 "$keylint" --baseline "$tmp/baseline.json" --format concise src
has baseline-new-finding "$out" "src/a.ts:6:"
lacks baseline-old-finding "$out" "src/a.ts:5:"
cp "$tmp/a.ts.orig" src/a.ts
run baseline-missing 2 "$keylint" --baseline "$tmp/nope.json" src
has baseline-missing "$err" "$tmp/nope.json: error: cannot read the baseline: No such file or directory"
lacks baseline-missing-no-report "$out" "[missing-delimiter]"
printf '{"version": 1, "entries": [\n' >"$tmp/broken.json"
run baseline-malformed 2 "$keylint" --baseline "$tmp/broken.json" src
has baseline-malformed "$err" "$tmp/broken.json:2:"
has baseline-malformed "$err" "malformed baseline (not JSON)"
printf '{"version": 7, "entries": []}\n' >"$tmp/v7.json"
run baseline-version 2 "$keylint" --baseline "$tmp/v7.json" src
has baseline-version "$err" "baseline version 7 is not supported"
run baseline-write-unwritable 2 "$keylint" --baseline-write "$tmp/no/dir/b.json" src
has baseline-write-unwritable "$err" "$tmp/no/dir/b.json: error: cannot write the baseline"

# --- suppressions --------------------------------------------------------------
run list-rules-suppression 0 "$keylint" --list-rules
has list-rules-suppression "$out" "suppression"
run explain-suppression 0 "$keylint" --explain suppression
has explain-suppression "$out" "keylint-disable-next-line"
{ sed -n 1,2p "$tmp/a.ts.orig"; printf '  // keylint-disable-next-line missing-delimiter, magic-string\n'; sed -n '3,$p' "$tmp/a.ts.orig"; } >src/a.ts
run suppressed 0 "$keylint" --fail-on warning src
has suppressed "$out" "0 errors, 0 warnings in 2 files"
run require-reason 1 "$keylint" --require-reason --fail-on warning src
has require-reason "$out" "src/a.ts:3:3: warning: keylint-disable-next-line has no reason"
has require-reason "$out" "[suppression]"
printf 'require-suppression-reason: true\n' >"$proj/.keylint.yml"
run require-reason-config 0 "$keylint" src
has require-reason-config "$out" "keylint-disable-next-line has no reason"
printf 'require-suppression-reason: maybe\n' >"$proj/.keylint.yml"
run require-reason-config-bad 2 "$keylint" src
has require-reason-config-bad "$err" ".keylint.yml:1:29: error: 'require-suppression-reason' must be true or false"
rm "$proj/.keylint.yml"
{ sed -n 1,2p "$tmp/a.ts.orig"; printf '  // keylint-disable-next-line missing-delimiter, magic-sting -- ids are fixed width\n'; sed -n '3,$p' "$tmp/a.ts.orig"; } >src/a.ts
run suppression-typo 0 "$keylint" --require-reason src
has suppression-typo "$out" "unknown rule 'magic-sting' in keylint-disable-next-line (did you mean 'magic-string'?) [suppression]"
has suppression-typo "$out" "[magic-string]"
lacks suppression-typo "$out" "[missing-delimiter]"
cp "$tmp/a.ts.orig" src/a.ts

# --- --changed (the pre-commit hook's mode) --------------------------------------
mkdir -p "$proj/infra"
cat >"$proj/infra/template.yaml" <<'EOF_YAML'
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: app-table
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: sk, AttributeType: S }
      KeySchema:
        - { AttributeName: pk, KeyType: HASH }
        - { AttributeName: sk, KeyType: RANGE }
EOF_YAML
printf '{"name": "x"}\n' >"$proj/package.json"
run changed-source 0 "$keylint" --changed src/clean.ts
has changed-source "$out" "in 1 file"
run changed-other 0 "$keylint" --changed package.json README.md
has changed-other "$out" "0 errors, 0 warnings in 0 files"
run changed-not-schema 0 "$keylint" --changed infra/template.yaml src/clean.ts
has changed-not-schema "$out" "in 1 file"
printf 'schemas: [infra/template.yaml]\nignore: ["src/ignored.ts"]\n' >"$proj/.keylint.yml"
run changed-schema 1 "$keylint" --changed infra/template.yaml
has changed-schema "$out" "[missing-delimiter]"
has changed-schema "$out" "in 2 files"
run changed-config 1 "$keylint" --changed .keylint.yml
has changed-config "$out" "in 2 files"
cp src/a.ts src/ignored.ts
run changed-ignored 0 "$keylint" --changed src/ignored.ts src/clean.ts
has changed-ignored "$out" "in 1 file"
run ignored-explicit 0 "$keylint" src/ignored.ts
has ignored-explicit "$out" "in 0 files"
rm -f src/ignored.ts "$proj/.keylint.yml" "$proj/package.json"
rm -rf "$proj/infra"
# --changed reads the work tree around the changed file: constants and
# helpers imported from unchanged files resolve as in a full run, and the
# findings on the changed file are the same
chg="$tmp/chg"
mkdir -p "$chg/src" && git -C "$chg" init -q
cat >"$chg/src/keys.ts" <<'EOF_TS'
export const SEP = '#';
export const ITEM = 'ITEM';
export function itemKey(id: string) { return `${ITEM}${SEP}${id}`; }
EOF_TS
cat >"$chg/src/repo.ts" <<'EOF_TS'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SEP, itemKey } from './keys';
export const get = (ddb: any, id: string, n: string) =>
  ddb.send(new GetCommand({ TableName: 't', Key: { pk: `ITEM${SEP}${id}`, sk: itemKey(n) } }));
EOF_TS
(cd "$chg" && "$keylint" --format concise src) >"$tmp/full.txt" 2>&1
(cd "$chg" && "$keylint" --format concise --changed src/repo.ts) >"$tmp/changed.txt" 2>&1
has changed-resolves "$(cat "$tmp/changed.txt")" "partition key ITEM#{id}"
[ "$(grep -vE ' in [0-9]+ files?( \(.*\))?$' "$tmp/full.txt")" = "$(grep -vE ' in [0-9]+ files?( \(.*\))?$' "$tmp/changed.txt")" ] && ok ||
    bad "--changed differs from a full run: $(cat "$tmp/full.txt") / $(cat "$tmp/changed.txt")"
has changed-counts-checked "$(cat "$tmp/changed.txt")" "in 1 file"
# standard input, as if it were a file of the project: imports resolve
# from its place, the summary counts it alone
printf 'export const x = 1;\n' >"$chg/src/buffer.ts"
(cd "$chg" && sed 's/x = 1/k = { pk: `ITEM${SEP}${id}`, sk: "A" }/' src/buffer.ts |
    sed '1i import { SEP } from "./keys";' |
    "$keylint" --format concise --stdin-filename src/buffer.ts -) >"$tmp/stdin.txt" 2>&1
has stdin-resolves "$(cat "$tmp/stdin.txt")" "src/buffer.ts:2:"
has stdin-resolves "$(cat "$tmp/stdin.txt")" "partition key ITEM#{id}"
has stdin-counts "$(cat "$tmp/stdin.txt")" "in 1 file"
out=$(printf 'export const k = { PK: `ZED#${id}`, SK: "A" };\n' | "$keylint" --format concise - 2>&1)
has stdin-default-name "$out" "stdin.ts:1:25: warning: inline key prefix 'ZED#'"
out=$(printf '\377\376' | "$keylint" --stdin-filename src/x.ts - 2>&1); rc=$?
[ "$rc" -eq 2 ] && ok || bad "stdin not UTF-8: exit $rc"
has stdin-bad "$out" "src/x.ts (standard input): error: not valid UTF-8"
run stdin-two-paths 2 "$keylint" - src
has stdin-two-paths "$err" "'-' (standard input) is the only path"
run stdin-name-without-dash 2 "$keylint" --stdin-filename a.ts src
has stdin-name-without-dash "$err" "--stdin-filename needs '-'"

# --- files named alone: each linted in its project -------------------------
# A file's findings do not depend on how it is named: named alone (as
# lint-staged and editors call keylint), it is linted in its project (the
# git work tree), so an update in another file makes a field mutable as
# in a run over the project.
one="$tmp/one"
mkdir -p "$one/A/src" "$one/B/src" "$one/A/gen"
git -C "$one/A" init -q && git -C "$one/B" init -q
cat >"$one/A/src/put.ts" <<'EOF_TS'
import { PutCommand } from '@aws-sdk/lib-dynamodb';
export const save = (ddb: any, o: { id: string; stage: string }) =>
  ddb.send(new PutCommand({ TableName: 't', Item: { pk: `ORDER#${o.id}`, sk: `STAGE#${o.stage}` } }));
EOF_TS
cat >"$one/A/src/update.ts" <<'EOF_TS'
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
export const advance = (ddb: any, id: string, sk: string, stage: string) =>
  ddb.send(new UpdateCommand({ TableName: 't', Key: { pk: `ORDER#${id}`, sk },
    UpdateExpression: 'SET stage = :s', ExpressionAttributeValues: { ':s': stage } }));
EOF_TS
cp "$one/A/src/put.ts" "$one/B/src/put.ts"
(cd "$one/A" && "$keylint" -f concise . | grep '^src/put.ts') >"$tmp/dir.txt"
has named-reference "$(cat "$tmp/dir.txt")" "[mutable-key-field]"
(cd "$one/A" && "$keylint" -f concise src/put.ts | grep '^src/put.ts') >"$tmp/named.txt"
[ "$(cat "$tmp/dir.txt")" = "$(cat "$tmp/named.txt")" ] && ok ||
    bad "a file named alone differs from its directory's run: $(cat "$tmp/dir.txt") / $(cat "$tmp/named.txt")"
run named-counts 1 "$keylint" -f concise "$one/A/src/put.ts"
has named-counts "$out" "in 1 file"
lacks named-only "$out" "update.ts"
# a file named twice, under three spellings: reported once
(cd "$one/A" && "$keylint" -f concise src/put.ts ./src/put.ts "$one/A/src/put.ts") >"$tmp/twice.txt"
[ "$(grep -c '\[mutable-key-field\]' "$tmp/twice.txt")" = 1 ] && ok || bad "a file named twice is reported twice: $(cat "$tmp/twice.txt")"
has named-twice "$(cat "$tmp/twice.txt")" "in 1 file"
# files of two projects named at once: each in its own (B updates nothing)
run named-two-projects 1 "$keylint" -f concise "$one/A/src/put.ts" "$one/B/src/put.ts"
has named-two-projects "$out" "A/src/put.ts:3:87: error: sort key uses 'o.stage'"
lacks named-two-projects "$out" "B/src/put.ts:3:87"
has named-two-projects "$out" "in 2 files"
run changed-two-projects 1 "$keylint" -f concise --changed "$one/A/src/put.ts" "$one/B/src/put.ts"
lacks changed-two-projects "$out" "B/src/put.ts:3:87"
# a directory named with a file: reported whole, in its project
run named-file-and-dir 1 "$keylint" -f concise "$one/B/src/put.ts" "$one/A/src"
has named-file-and-dir "$out" "A/src/put.ts:3:87"
has named-file-and-dir "$out" "A/src/update.ts:3:60"
lacks named-file-and-dir "$out" "B/src/put.ts:3:87"
# a file git ignores is linted when named (in its project)
printf 'gen/\n' >"$one/A/.gitignore"
cp "$one/A/src/put.ts" "$one/A/gen/put.ts"
run named-ignored-by-git 1 "$keylint" -f concise "$one/A/gen/put.ts"
has named-ignored-by-git "$out" "gen/put.ts:3:87: error"
# a file named is parsed whatever the pre-check says: its syntax errors
# are named
printf 'export const x = (;\n' >"$one/A/src/broken.ts"
run named-parsed 0 "$keylint" -f concise "$one/A/src/broken.ts"
has named-parsed "$out" "broken.ts:1:"
has named-parsed "$out" "not read"
rm "$one/A/src/broken.ts"
# what the project's configuration inputs get (a table definition DynamoDB
# rejects) is reported for them, not for a source file named
cat >"$one/A/template.yaml" <<'EOF_YAML'
Resources:
  T:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: t
      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
      KeySchema:
        - { AttributeName: pk, KeyType: HASH }
        - { AttributeName: sk, KeyType: RANGE }
EOF_YAML
printf 'schemas: [template.yaml]\n' >"$one/A/.keylint.yml"
run schema-of-project 1 "$keylint" -f concise "$one/A"
has schema-of-project "$out" "template.yaml:9:"
for how in "" --changed; do
    run "named-not-inputs $how" 1 "$keylint" -f concise $how "$one/A/src/put.ts"
    lacks "named-not-inputs $how" "$out" "template.yaml"
done
out=$(cd "$one/A" && "$keylint" -f concise --stdin-filename src/put.ts - <src/put.ts 2>&1)
lacks stdin-not-inputs "$out" "template.yaml"
has stdin-not-inputs "$out" "src/put.ts:3:87: error"
run changed-config-inputs 1 "$keylint" -f concise --changed "$one/A/.keylint.yml"
has changed-config-inputs "$out" "template.yaml:9:"
rm "$one/A/template.yaml" "$one/A/.keylint.yml"
run prune-named 2 "$keylint" --baseline-prune "$tmp/stale.json" "$one/A/src/put.ts"
has prune-named "$err" "--baseline-prune judges every entry"
# outside any project (a file directly in the temporary directory, no git
# work tree, configuration or package.json above it): linted alone
wide="$tmp/wide"
mkdir -p "$wide"
cp "$one/A/src/put.ts" "$one/A/src/update.ts" "$wide/"
run named-alone-wide 0 env TMPDIR="$wide" "$keylint" -f concise "$wide/put.ts"
has named-alone-wide "$out" "in 1 file"
lacks named-alone-wide "$out" "mutable-key-field"
mkdir -p "$wide/svc" && mv "$wide/put.ts" "$wide/update.ts" "$wide/svc/"
run named-own-dir 1 env TMPDIR="$wide" "$keylint" -f concise "$wide/svc/put.ts"
has named-own-dir "$out" "[mutable-key-field]"

# --- what is not read ------------------------------------------------------
# files that build their keys through a library keylint does not read are
# named in a note (text, JSON, SARIF), so a clean run is not taken for a
# clean bill; the library's importers are parsed whatever the pre-check
unread="$tmp/unread"
mkdir -p "$unread/src"
printf 'schemas: []\n' >"$unread/.keylint.yml"
printf "import { Entity } from 'electrodb';\nexport const user = new Entity({ model: { entity: 'user' } });\n" >"$unread/src/user.ts"
printf "import { Model } from '@nerdware/ddb-single-table';\nexport const a = new Model('A', {});\n" >"$unread/src/a.ts"
printf "import { Model } from '@nerdware/ddb-single-table';\nexport const b = new Model('B', {});\n" >"$unread/src/b.ts"
printf "export const plain = 1;\n" >"$unread/src/plain.ts"
printf "import { createStore } from '@symphoniacloud/dynamodb-entity-store';\nexport const s = createStore;\n" >"$unread/src/store.ts"
for how in "" --no-precheck; do
    run "unread-text $how" 0 "$keylint" $how "$unread"
    has "unread-text $how" "$out" "keylint: note: 1 file uses ElectroDB, whose keys keylint does not read"
    has "unread-text $how" "$out" "keylint: note: 2 files use @nerdware/ddb-single-table, whose keys keylint does not read"
    has "unread-text $how" "$out" "keylint: note: 1 file uses @symphoniacloud/dynamodb-entity-store, whose queries and scans keylint does not read"
done
run unread-named 0 "$keylint" "$unread/src/a.ts"
has unread-named "$out" "note: 1 file uses @nerdware/ddb-single-table"
lacks unread-named "$out" "ElectroDB"
run unread-json 0 "$keylint" -f json "$unread"
has unread-json "$out" '"message": "1 file uses ElectroDB, whose keys keylint does not read"'
run unread-sarif 0 "$keylint" -f sarif "$unread"
has unread-sarif "$out" '"text": "2 files use @nerdware/ddb-single-table, whose keys keylint does not read."'
run unread-none 0 "$keylint" "$unread/src/plain.ts"
lacks unread-none "$out" "does not read"

# --- dump-ir ---------------------------------------------------------------
run dump-ir 0 "$keylint" --dump-ir src/a.ts src
has dump-ir "$out" "file src/a.ts"
has dump-ir "$out" 'op 0 3:12 get sdk-v3 GetCommand table=t'
has dump-ir "$out" 'key 3:56 pk read template attr=pk op=0 = "USER#{userId}"'
has dump-ir "$out" 'text    "USER#"'

# --- schemas and access patterns --------------------------------------------
for r in schema unknown-index key-condition-attribute partition-key-range \
         unmatched-query scan unserved-access-pattern low-cardinality-pk \
         timestamp-pk complex-key prefix-case separator-in-value missing-prefix; do
    has "list-rules $r" "$rules_out" "$r"
    run "explain $r" 0 "$keylint" --explain "$r" && has "explain $r" "$out" "# $r"
done
mkdir -p "$proj/infra"
cat >"$proj/infra/t.yaml" <<'EOF_YAML'
Resources:
  T:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: app-table
      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]
      KeySchema:
        - { AttributeName: pk, KeyType: HASH }
        - { AttributeName: sk, KeyType: RANGE }
EOF_YAML
printf 'Resources:\n  T: [a\n  U: 1\n' >"$proj/infra/bad.yaml"
printf "import { PutCommand } from '@aws-sdk/lib-dynamodb';\nexport const put = (ddb: any, id: string) =>\n  ddb.send(new PutCommand({ TableName: 't', Item: { pk: \`USER#\${id}\`, sk: 'PROFILE' } }));\n" >"$proj/src/w.ts"
printf 'schemas: [infra/t.yaml, infra/bad.yaml]\naccess-patterns:\n  - { name: users, pk: "USER#{id}" }\n  - { name: orders, pk: "ORDER#{id}" }\n' >"$proj/.keylint.yml"
run schema-problem 2 "$keylint" -f concise src
has schema-problem "$err" "infra/bad.yaml:3:4: error: YAML syntax error in schema"
has schema-finding "$out" "infra/t.yaml:9:28: error: key attribute 'sk' of table T is not in the table's AttributeDefinitions [schema]"
has schema-goes-on "$out" "[missing-delimiter]"
has schema-unserved "$out" ".keylint.yml:4:1: warning: access pattern 'orders' (pk ORDER#{id}) is not served"
printf 'schemas: [infra/t.yaml]\naccess-patterns:\n  - { name: users, pk: "USER#{id}" }\n  - { name: orders, pk: "ORDER#{id}" }\n' >"$proj/.keylint.yml"
run access-patterns 1 "$keylint" --access-patterns src
has access-patterns "$out" "users   pk USER#{id}"
has access-patterns "$out" "table T (pk, sk)"
has access-patterns "$out" "NOT SERVED: no key or index holds partition keys like ORDER#{} (pk holds USER#{})"
printf 'schemas: [infra/t.yaml]\naccess-patterns:\n  - { name: users, pk: "USER#{id}" }\n' >"$proj/.keylint.yml"
run access-patterns-served 0 "$keylint" --access-patterns src
printf 'schemas: [infra/t.yaml]\nrules: { schema: off }\n' >"$proj/.keylint.yml"
run schema-off 1 "$keylint" -f concise src
lacks schema-off "$out" "[schema]"
rm -f "$proj/src/w.ts"
rm -f "$proj/.keylint.yml"
rm -rf "$proj/infra"

# --- --fix and --fix-dry-run -------------------------------------------------
fx="$tmp/fix"
mkdir -p "$fx/src"
printf 'schemas: []\n' >"$fx/.keylint.yml"
cat >"$fx/src/keys.ts" <<'TS'
export const KEY_SEPARATOR = '#';
export const ORDER_PREFIX = 'ORDER#';
export const orderPk = (t: string) => `${ORDER_PREFIX}${t}`;
TS
cat >"$fx/src/repo.ts" <<'TS'
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { KEY_SEPARATOR, ORDER_PREFIX } from './keys';

export const get = (c: any, t: string, id: string) =>
  c.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${t}`, sk: `ITEM#${id}` } }));
export const get2 = (c: any, t: string) =>
  c.send(new GetCommand({ TableName: 'app', Key: { pk: `${ORDER_PREFIX}${t}`, sk: `A#B` } }));
TS
chmod 640 "$fx/src/repo.ts"
cp "$fx/src/repo.ts" "$tmp/repo.orig"
(cd "$fx" && "$keylint" --fix-dry-run src) >"$tmp/fix.diff" 2>"$tmp/fix.err"; rc=$?
[ "$rc" -eq 1 ] && ok || bad "--fix-dry-run with a fix: exit $rc"
has fix-dry-diff "$(cat "$tmp/fix.diff")" '-  c.send(new GetCommand({ TableName: '"'"'app'"'"', Key: { pk: `ORDER#${t}`'
has fix-dry-diff "$(cat "$tmp/fix.diff")" '+  c.send(new GetCommand({ TableName: '"'"'app'"'"', Key: { pk: `${ORDER_PREFIX}${t}`'
has fix-dry-diff "$(cat "$tmp/fix.diff")" '--- a/src/repo.ts'
has fix-dry-summary "$(cat "$tmp/fix.err")" "would apply 1 fix in 1 file"
cmp -s "$fx/src/repo.ts" "$tmp/repo.orig" && ok || bad "--fix-dry-run changed the file"
# the diff applies as a patch and makes what --fix makes
(cd "$fx" && git apply --check -p1 "$tmp/fix.diff") >/dev/null 2>&1 && ok || bad "--fix-dry-run: the diff does not apply"
run fix 0 sh -c "cd '$fx' && '$keylint' --fix --format concise src"
has fix-summary "$err" "applied 1 fix in 1 file"
lacks fix-fixed "$out" "src/repo.ts:5:55"
has fix-left "$out" "inline key prefix 'ITEM#'"
has fix-file "$(cat "$fx/src/repo.ts")" 'pk: `${ORDER_PREFIX}${t}`, sk: `ITEM#${id}`'
[ "$(stat -c %a "$fx/src/repo.ts")" = 640 ] && ok || bad "--fix changed the file's mode: $(stat -c %a "$fx/src/repo.ts")"
# idempotent: nothing left to fix
run fix-again 0 sh -c "cd '$fx' && '$keylint' --fix-dry-run src"
has fix-again "$err" "would apply 0 fixes in 0 files"
# a constant of another module: the fix imports it (once for two uses)
mkdir -p "$fx/src/more"
cat >"$fx/src/more/more.ts" <<'TS'
import { GetCommand } from '@aws-sdk/lib-dynamodb';

export const a = (c: any, t: string) => c.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${t}`, sk: 'A' } }));
export const b = (c: any, t: string) => c.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${t}`, sk: 'B' } }));
TS
run fix-json 0 sh -c "cd '$fx' && '$keylint' --format json src"
has fix-json-edit "$out" '"replacement": "${ORDER_PREFIX}"'
has fix-json-import "$out" '"replacement": "import { ORDER_PREFIX } from '"'"'../keys'"'"';\n"'
run fix-import 0 sh -c "cd '$fx' && '$keylint' --fix src"
has fix-import-summary "$err" "applied 2 fixes in 1 file"
[ "$(grep -c "import { ORDER_PREFIX } from '../keys';" "$fx/src/more/more.ts")" = 1 ] && ok ||
    bad "--fix did not import the constant once: $(cat "$fx/src/more/more.ts")"
[ "$(sed -n 2p "$fx/src/more/more.ts")" = "import { ORDER_PREFIX } from '../keys';" ] && ok ||
    bad "--fix: the import is not after the last import: $(cat "$fx/src/more/more.ts")"
run fix-import-again 0 sh -c "cd '$fx' && '$keylint' --fix-dry-run src"
# a file and a directory named: the report after the fix covers both
mkdir -p "$fx/lib"
sed 's#./keys#../src/keys#' "$tmp/repo.orig" >"$fx/lib/c.ts"
run fix-named 0 sh -c "cd '$fx' && '$keylint' --fix --format concise lib/c.ts src"
has fix-named "$err" "applied 1 fix in 1 file"
has fix-named "$out" "lib/c.ts:5:"
has fix-named "$out" "src/repo.ts:5:"
rm -r "$fx/lib"
run fix-stdin 2 sh -c "printf 'x' | '$keylint' --fix -"
has fix-stdin "$err" "--fix writes files"
run fix-dump 2 "$keylint" --fix --dump-ir src/repo.ts "$fx"
# a fix that changes what the code does is unsafe: shown and applied only
# with --unsafe-fixes; JSON says which is which
ux="$tmp/unsafe"
mkdir -p "$ux/src"
printf 'tables:\n  data: [app-data]\n  history: [app-history]\n' >"$ux/.keylint.yml"
cat >"$ux/src/read.ts" <<'TS'
import { DataService, addSortKeyVersion } from '@mbc-cqrs-serverless/core';
const dataService = new DataService();
export const read = (base: string) => {
  const sk = addSortKeyVersion(base, 2);
  return dataService.getItem({ pk: 'P#1', sk });
};
TS
cp "$ux/src/read.ts" "$tmp/read.orig"
run unsafe-json 1 sh -c "cd '$ux' && '$keylint' --format json src"
has unsafe-json "$out" '"applicability": "unsafe"'
run unsafe-dry 0 sh -c "cd '$ux' && '$keylint' --fix-dry-run src"
has unsafe-dry "$err" "would apply 0 fixes in 0 files"
run unsafe-fix 1 sh -c "cd '$ux' && '$keylint' --fix src"
cmp -s "$ux/src/read.ts" "$tmp/read.orig" && ok || bad "--fix made an unsafe fix"
run unsafe-dry-asked 1 sh -c "cd '$ux' && '$keylint' --fix-dry-run --unsafe-fixes src"
has unsafe-dry-asked "$out" '+import { DataService, addSortKeyVersion, removeSortKeyVersion } from'
run unsafe-fix-asked 0 sh -c "cd '$ux' && '$keylint' --fix --unsafe-fixes src"
has unsafe-fix-asked "$(cat "$ux/src/read.ts")" 'getItem({ pk: '"'"'P#1'"'"', sk: removeSortKeyVersion(sk) })'
run unsafe-alone 2 "$keylint" --unsafe-fixes "$ux"
has unsafe-alone "$err" "--unsafe-fixes goes with --fix or --fix-dry-run"

# --- the bundled example ---------------------------------------------------
cd "$root" || exit 1
run example 1 "$keylint" fixtures/example-service
for r in magic-string mixed-separator missing-delimiter mutable-key-field \
         versioned-sk-read missing-tenant; do
    has "example fires $r" "$out" "[$r]"
done

# --- the text pre-check (extract/precheck.h, project/defer.h) ----------------
# Findings are the same with and without it, on every fixture, the example
# and tests/precheck, whose files are cleared by the pre-check yet needed:
# config.ts (imported), ItemType in entities.ts (a key-design constant
# holding a key's text), EntityPrefix in prefixes.ts (the same, its value
# on the line after its name), caller.ts (calls a helper that builds keys).
findings() { python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["findings"]))'; }
for dir in "$root"/fixtures/*/ "$root/tests/precheck/"; do
    name=${dir#"$root"/}
    a=$(cd "$dir" && "$keylint" --format json --exit-zero . 2>/dev/null | findings)
    b=$(cd "$dir" && "$keylint" --format json --exit-zero --no-precheck . 2>/dev/null | findings)
    [ -n "$a" ] && [ "$a" == "$b" ] && ok || bad "precheck: $name: the findings differ without it"
done
run precheck 1 "$keylint" "$root/tests/precheck"
has precheck-import "$out" "precheck/caller.ts:5:"
has precheck-constant "$out" "the constant ItemType.ORDER holds 'ORDER'"
has precheck-constant-next-line "$out" "the constant EntityPrefix.SHIPMENT holds 'SHIPMENT'"
# widget.ts has nothing for keylint: never parsed (panel.ts, which imports
# it, passes the pre-check but holds nothing that resolution reads), so its
# syntax error is named only when every file is parsed
lacks precheck-unparsed "$out$err" "widget.ts"
run no-precheck 1 "$keylint" --no-precheck "$root/tests/precheck"
has no-precheck "$out" "widget.ts:2:"

# --stats: the counts of a tree built here (bytes by wc -c): orders.ts (322)
# holds a data operation; names.ts (33) only a constant orders.ts imports,
# parsed because of that; button.tsx (94) nothing, read and not parsed
# (parsed, with nothing for keylint, under --no-precheck or when named);
# blob.ts (14) is binary and latin1.ts (16) not UTF-8: skipped
st="$tmp/stats"
mkdir -p "$st/src"
cat >"$st/src/orders.ts" <<'EOF'
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { orderTag } from './names';

const client = DynamoDBDocumentClient.from({} as any);

export async function getOrder(id: string) {
  return client.send(new GetCommand({ TableName: 'app', Key: { PK: `${orderTag}#${id}`, SK: 'META' } }));
}
EOF
printf "export const orderTag = 'ORDER';\n" >"$st/src/names.ts"
cat >"$st/src/button.tsx" <<'EOF'
export function Button(props: { label: string }) {
  return <button>{props.label}</button>;
}
EOF
printf 'const a = 1;\0\n' >"$st/src/blob.ts"
printf 'const caf\xe9 = 1;\n' >"$st/src/latin1.ts"
run stats 2 "$keylint" --stats "$st"
has stats "$err" "keylint: stats: 5 files (479 bytes) found: 2 files (355 bytes) parsed, 1 of them (33 bytes) because a parsed file needs a name they define, 0 (0 bytes) with nothing for keylint; 1 file (94 bytes) read, not parsed; 2 files (30 bytes) skipped (1 binary, 1 not UTF-8); seconds: walk "
lacks stats-not-in-report "$out" "stats"
run stats-off 2 "$keylint" "$st"
lacks stats-off "$err" "keylint: stats:"
run stats-no-precheck 2 "$keylint" --stats --no-precheck "$st"
has stats-no-precheck "$err" "found: 3 files (449 bytes) parsed, 0 of them (0 bytes) because a parsed file needs a name they define, 1 (94 bytes) with nothing for keylint; 0 files (0 bytes) read, not parsed; 2 files (30 bytes) skipped (1 binary, 1 not UTF-8);"
stats_json() {
    python3 -c '
import json, sys
d = json.load(sys.stdin)
if "stats" not in d:
    print("no stats"); sys.exit()
s = d["stats"]
print(" ".join("%s=%d/%d" % (k, s[k]["files"], s[k]["bytes"])
               for k in ("found", "parsed", "parsedLater", "parsedNothingFound", "readOnly",
                         "skipped")),
      " ".join("%s=%d" % kv for kv in sorted(s["skippedBecause"].items())),
      "syntaxErrors=%d" % s["syntaxErrors"],
      "phases=" + ",".join(k for k, v in s["seconds"].items() if v >= 0))'
}
run stats-json 2 "$keylint" --stats --format json "$st"
has stats-json "$(printf '%s' "$out" | stats_json)" "found=5/479 parsed=2/355 parsedLater=1/33 parsedNothingFound=0/0 readOnly=1/94 skipped=2/30 binary=1 notUtf8=1 tooLarge=0 unreadable=0 syntaxErrors=0 phases=walk,readParseExtract,read,parse,extract,projectRules,report,total"
run stats-json-off 2 "$keylint" --format json "$st"
has stats-json-off "$(printf '%s' "$out" | stats_json)" "no stats"
# a file larger than 8 MiB is skipped as too large
head -c 9000000 /dev/zero | tr '\0' ' ' >"$st/src/huge.ts"
run stats-too-large 2 "$keylint" --stats --format json "$st"
has stats-too-large "$(printf '%s' "$out" | stats_json)" "found=6/9000479 parsed=2/355 parsedLater=1/33 parsedNothingFound=0/0 readOnly=1/94 skipped=3/9000030 binary=1 notUtf8=1 tooLarge=1 unreadable=0"
rm -f "$st/src/huge.ts"
# --changed: the counts are those of the whole project read around the
# file, which is parsed whatever the pre-check says
run stats-changed 0 "$keylint" --stats --changed "$st/src/button.tsx"
has stats-changed "$err" "keylint: stats: 5 files (479 bytes) found: 3 files (449 bytes) parsed, 1 of them (33 bytes) because a parsed file needs a name they define, 1 (94 bytes) with nothing for keylint; 0 files (0 bytes) read, not parsed;"
# an import is followed when what keylint reads of the file names it: the
# constant in the key is, the clock the function also uses is not (its
# module holds no key text, so it is read, not parsed)
pn="$tmp/pername"
mkdir -p "$pn/src"
cat >"$pn/src/orders.ts" <<'EOF'
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { orderTag } from './names';
import { now } from './clock';

const client = DynamoDBDocumentClient.from({} as any);

export async function getOrder(id: string) {
  const started = now();
  return client.send(new GetCommand({ TableName: 'app', Key: { PK: `${orderTag}#${id}`, SK: 'META' } }));
}
EOF
printf "export const orderTag = 'ORDER';\n" >"$pn/src/names.ts"
printf "export const now = () => Date.now();\n" >"$pn/src/clock.ts"
run stats-per-name 0 "$keylint" --stats "$pn"
has stats-per-name "$err" "found: 2 files (411 bytes) parsed, 1 of them (33 bytes) because a parsed file needs a name they define, 0 (0 bytes) with nothing for keylint; 1 file (37 bytes) read, not parsed;"

# --- what ESLint and ruff users reach for --------------------------------------
cd "$proj" || exit 1
# --quiet: errors only (warnings hidden, still counted by --fail-on warning)
run quiet 1 "$keylint" --quiet src
has quiet "$out" "[missing-delimiter]"
lacks quiet "$out" "[magic-string]"
has quiet-summary "$out" "1 error, 0 warnings in 2 files"
run quiet-short 1 "$keylint" -q --format concise src
lacks quiet-short "$out" "warning:"
printf 'export const USER_PREFIX = "USER#";\nexport const f = (db: any, id: string) => db.put({ pk: `USER#${id}`, sk: "A" });\n' >"$tmp/warn-only.ts"
mkdir -p "$tmp/w" && cp "$tmp/warn-only.ts" "$tmp/w/w.ts"
run quiet-clean 0 "$keylint" --quiet "$tmp/w"
run quiet-fail-on-warning 1 "$keylint" --quiet --fail-on warning "$tmp/w"
# a finding with a suggestion: a help: line under it
run help-line 1 "$keylint" src
has help-line "$out" "  help: replace 'USER#' with \${USER_PREFIX}"
# the summary: how many --fix can fix; the time where a person reads it
has summary-fixable "$out" "1 error, 1 warning in 2 files (2 keys, 1 data operation); 1 fixable with --fix (--fix-dry-run shows the diff)"
lacks summary-no-time-in-pipe "$out" " s)"
run summary-time 1 "$keylint" --format json src
if [[ $err =~ "1 error, 1 warning in 2 files (2 keys, 1 data operation; "[0-9]+\.[0-9][0-9]" s); 1 fixable with --fix" ]]; then ok; else
    bad "summary-time: no duration on stderr: $err"; fi
if command -v script >/dev/null 2>&1; then
    tty_out=$(script -qec "$keylint --format concise src" /dev/null 2>&1)
    [[ $tty_out =~ "in 2 files (2 keys, 1 data operation; "[0-9]+\.[0-9][0-9]" s)" ]] && ok || bad "summary-time on a terminal: $tty_out"
fi
run summary-nothing-fixable 0 "$keylint" src/clean.ts
lacks summary-nothing-fixable "$out" "fixable"
# what was read: a file with no DynamoDB code says so, not a clean bill
mkdir -p "$tmp/nodb" && printf 'export const add = (a: number, b: number) => a + b;\n' >"$tmp/nodb/math.ts"
run summary-nothing-read 0 "$keylint" "$tmp/nodb"
has summary-nothing-read "$out" "0 errors, 0 warnings in 1 file (no DynamoDB keys, data operations or tables)"
# a call whose parameters are filled in branches is one data operation in
# the summary (each branch a query of its own for the rules)
mkdir -p "$tmp/forked"
cat >"$tmp/forked/list.ts" <<'EOF'
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export async function list(db: any, status?: string) {
  const params: any = { TableName: 'T', ExpressionAttributeValues: {} };
  if (status) {
    params.KeyConditionExpression = 'pk = :pk AND begins_with(sk, :s)';
    params.ExpressionAttributeValues = { ':pk': 'ORDER#x', ':s': `STATUS#${status}` };
  } else {
    params.KeyConditionExpression = 'pk = :pk';
    params.ExpressionAttributeValues = { ':pk': 'ORDER#x' };
  }
  return db.send(new QueryCommand(params));
}
EOF
run summary-forked-call 0 "$keylint" --no-cache "$tmp/forked"
has summary-forked-call "$out" "in 1 file (3 keys, 1 data operation)"
# did you mean, for --explain and --rule as for the configuration
run explain-typo 2 "$keylint" --explain magic-strin
has explain-typo "$err" "unknown rule 'magic-strin'; did you mean 'magic-string'?"
run rule-typo 2 "$keylint" --rule magc-string=off src
has rule-typo "$err" "unknown rule 'magc-string' in --rule; did you mean 'magic-string'?"
run explain-far 2 "$keylint" --explain zzzzzz
lacks explain-far "$err" "did you mean"
# baseline: stale entries said, and pruned without recording new findings
printf 'export const x = (ddb: any, a: string, b: string) => ddb.get({ Key: { pk: `X#${a}`, sk: `${a}${b}` } });\n' >src/extra.ts
run stale-write 0 "$keylint" --baseline-write "$tmp/stale.json" src
cp src/a.ts "$tmp/a.ts.keep"
rm src/extra.ts
run stale-said 0 "$keylint" --baseline "$tmp/stale.json" src
has stale-said "$err" "keylint: 1 stale entry in the baseline ($tmp/stale.json): the finding is fixed or gone"
has stale-said "$err" "--baseline-prune $tmp/stale.json drops it"
printf 'export const h = (ddb: any, a: string, b: string) => ddb.get({ Key: { pk: `ORDER#${a}`, sk: `${a}${b}` } });\n' >>src/a.ts
run prune 1 "$keylint" --baseline-prune "$tmp/stale.json" --format concise src
has prune "$err" "removed 1 stale entry from $tmp/stale.json (2 findings kept)"
has prune-reports-new "$out" "src/a.ts:4:"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["entries"]; assert sorted(x["path"] for x in e)==["src/a.ts","src/a.ts"], e' \
    "$tmp/stale.json" && ok || bad "prune: the baseline should keep a.ts's two entries only: $(cat "$tmp/stale.json")"
run prune-again 1 "$keylint" --baseline "$tmp/stale.json" src
lacks prune-again "$err" "stale"
run prune-changed 2 "$keylint" --baseline-prune "$tmp/stale.json" --changed src/a.ts
has prune-changed "$err" "--baseline-prune judges every entry"
cp "$tmp/a.ts.keep" src/a.ts
# each JSON finding and each SARIF rule links its rule's page
run help-uri-json 1 env KEYLINT_DOCS_URL='https://docs.example/keylint/{rule}' "$keylint" --format json src
has help-uri-json "$out" '"helpUri": "https://docs.example/keylint/missing-delimiter"'
run help-uri-sarif 1 env KEYLINT_DOCS_URL='https://docs.example/r/' "$keylint" --format sarif src
has help-uri-sarif "$out" '"helpUri": "https://docs.example/r/versioned-sk-read.md"'
run help-uri-default 1 "$keylint" --format json src
has help-uri-default "$out" "\"helpUri\": \"file://$root/docs/rules/magic-string.md\""

# --- per-path settings: overrides ----------------------------------------------
mono=$tmp/apps-monorepo
mkdir -p "$mono/apps/shop/src" "$mono/apps/yoga/src"
cat >"$mono/apps/shop/src/orders.ts" <<'EOF'
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
export const ORDER = 'ORDER#';
export const getOrder = (ddb: any, tenantCode: string, id: string) =>
  ddb.send(new GetCommand({ TableName: 'shop', Key: { pk: `${ORDER}${tenantCode}#${id}`, sk: 'META' } }));
export const putOrder = (ddb: any, tenantCode: string, id: string) =>
  ddb.send(new PutCommand({ TableName: 'shop', Item: { pk: `${ORDER}${tenantCode}#${id}`, sk: 'META' } }));
EOF
sed -e 's/ORDER/CLASS/g' -e 's/tenantCode/studioId/g' -e 's/shop/yoga/g' -e 's/Order/Class/g' \
    "$mono/apps/shop/src/orders.ts" >"$mono/apps/yoga/src/classes.ts"
printf '{"name":"shop"}\n' >"$mono/apps/shop/package.json"
printf '{"name":"yoga"}\n' >"$mono/apps/yoga/package.json"
cd "$mono" || exit 1
run overrides-none 0 "$keylint" --format concise .
has overrides-none "$out" "apps/yoga/src/classes.ts:4:59: warning: partition key CLASS#{studioId}#{id} has no tenant segment"
# --init in a monorepo whose apps differ: an override per app
run init-monorepo 0 "$keylint" --init .
has init-monorepo "$(cat .keylint.yml)" '  - files: ["apps/yoga/**"]'
has init-monorepo "$(cat .keylint.yml)" '    tenant: { names: ["studioId"] }'
has init-monorepo "$(cat .keylint.yml)" '    tenant: { names: ["tenantCode"] }'
run init-monorepo-clean 0 "$keylint" --format concise .
lacks init-monorepo-clean "$out" "missing-tenant"
# an override's settings apply to the files it names, over the file's own
cat >.keylint.yml <<'EOF'
rules: { magic-string: off }
overrides:
  - files: ["apps/yoga/**"]
    tenant: { names: [studioId] }
  - files: ["apps/*/src/orders.ts"]
    rules: { complex-key: error }
    max-key-components: 2
EOF
run overrides 1 "$keylint" --format concise .
lacks overrides-yoga "$out" "apps/yoga"
has overrides-shop "$out" "apps/shop/src/orders.ts:6:60: error: partition key ORDER#{tenantCode}#{id} has 3 components (max-key-components: 2)"
run overrides-print 0 "$keylint" --print-config apps/yoga/src/classes.ts
has overrides-print "$out" '"studioId"'
run overrides-print-base 0 "$keylint" --print-config other.ts
lacks overrides-print-base "$out" '"studioId"'
# mistakes in overrides: named, and the run stops
printf 'overrides:\n  - tenant: { names: [x] }\n' >.keylint.yml
run overrides-no-files 2 "$keylint" .
has overrides-no-files "$err" ".keylint.yml:2:5: error: 'overrides' entry 1 has no 'files'"
printf 'overrides:\n  - files: ["apps/**"]\n    schemas: [t.yaml]\n' >.keylint.yml
run overrides-project-key 2 "$keylint" .
has overrides-project-key "$err" "unknown key 'schemas' in 'overrides' entry 1"
printf 'overrides:\n  - files: "apps/**"\n    rules: { scan: loud }\n' >.keylint.yml
run overrides-bad-values 2 "$keylint" .
has overrides-bad-values "$err" "'overrides.files' must be a list of strings"
has overrides-bad-values "$err" ".keylint.yml:3:"
# --- evidence: an error names the place that proves it, in every format --
ev="$tmp/evidence"
mkdir -p "$ev/src"
cat >"$ev/src/plans.ts" <<'EOF'
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
export const ACCOUNT_PREFIX = 'ACCOUNT#';
export async function changePlan(db: any, accountId: string, plan: string) {
  await db.send(new UpdateCommand({
    TableName: process.env.TABLE,
    Key: { PK: `${ACCOUNT_PREFIX}${accountId}`, SK: 'META' },
    UpdateExpression: 'SET #plan = :plan',
    ExpressionAttributeNames: { '#plan': 'plan' },
    ExpressionAttributeValues: { ':plan': plan },
  }));
}
EOF
cat >"$ev/src/accounts.ts" <<'EOF'
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ACCOUNT_PREFIX } from './plans';
export const PLAN_PREFIX = 'PLAN#';
export async function save(db: any, accountId: string, plan: string) {
  await db.send(new PutCommand({
    TableName: process.env.TABLE,
    Item: { PK: `${ACCOUNT_PREFIX}${accountId}`, SK: `${PLAN_PREFIX}${plan}` },
  }));
}
EOF
cd "$ev" || exit 1
run evidence-text 1 "$keylint" src
has evidence-text "$out" "src/accounts.ts:7:71: error: sort key uses 'plan'"
has evidence-text "$out" "src/plans.ts:7:23: note: the update that sets plan on this key's entity"
run evidence-json 1 "$keylint" --format json src
related=$(printf '%s' "$out" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    for r in f.get("related", []):
        print(f["severity"], r["path"], r["line"], r["column"], r["message"])')
has evidence-json "$related" "error src/plans.ts 7 23 the update that sets plan on this key's entity"
run evidence-sarif 1 "$keylint" --format sarif src
related=$(printf '%s' "$out" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["runs"][0]["results"]:
    for l in r.get("relatedLocations", []):
        p = l["physicalLocation"]
        print(r["level"], p["artifactLocation"]["uri"], p["region"]["startLine"],
              p["region"]["startColumn"], l["message"]["text"])')
has evidence-sarif "$related" "error src/plans.ts 7 23 the update that sets plan on this key's entity."
cd "$proj" || exit 1

# --- a folder of checkouts: each git work tree is its own project --------------
# a's keys carry a tenant; b's, a project of its own, need none. Linted
# together through their parent, b is judged as when linted alone; a file
# in no work tree is linted with the rest of the folder.
m="$tmp/checkouts"
mkdir -p "$m/a" "$m/b" "$m/loose"
git -C "$m/a" init -q && git -C "$m/b" init -q
cat >"$m/a/orders.ts" <<'EOF'
export const ORDER = (tenantCode: string, id: string) => ({ PK: `ORDER#${tenantCode}`, SK: `ORDER#${id}` });
export const ITEM = (tenantCode: string, id: string) => ({ PK: `ITEM#${tenantCode}`, SK: `ITEM#${id}` });
EOF
cat >"$m/b/users.ts" <<'EOF'
export const USER = (id: string) => ({ PK: `USER#${id}`, SK: 'PROFILE' });
export const TEAM = (id: string) => ({ PK: `TEAM#${id}`, SK: 'META' });
EOF
printf '%s\n' 'export const k = { PK: `ORDER#${id}`, SK: "A" };' >"$m/loose/k.ts"
run checkouts-alone 0 sh -c "cd '$m/b' && '$keylint' --no-cache -f concise ."
has checkouts-alone "$out" "0 errors, 0 warnings in 1 file (4 keys)"
run checkouts-together 0 sh -c "cd '$m' && '$keylint' --no-cache -f concise ."
lacks checkouts-together "$out" "[missing-tenant]"
has checkouts-together "$out" "in 3 files (10 keys)"
has checkouts-loose "$out" "loose/k.ts:1:25: warning: inline key prefix 'ORDER#'"

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
