#!/usr/bin/env bash
# What keylint writes and what it reads, end to end: files replaced as git
# replaces them (--fix, reports, baselines), outputs that would replace an
# input refused before anything is touched, --fix-dry-run's diff applied
# by `git apply` and `patch -p1` to make exactly what --fix makes, and
# inputs that are not what they should be (a FIFO, /dev/zero, deep YAML, a
# directory as --stdin-filename) refused at once with a message.
# Usage: files_test.sh KEYLINT SOURCE_ROOT
set -u

keylint=$1
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

# run NAME EXPECTED_RC CMD... : runs CMD (at most 20 s), stdout in $out,
# stderr in $err
run() {
    local name=$1 want=$2
    shift 2
    out=$(timeout 20 "$@" 2>"$tmp/stderr" </dev/null)
    rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, expected $want"
        printf '  stdout: %s\n  stderr: %s\n' "$out" "$err" >&2
        return 1
    fi
    ok
}
has() { if [[ $2 == *"$3"* ]]; then ok; else bad "$1: missing '$3' in: $2"; fi; }
lacks() { if [[ $2 != *"$3"* ]]; then ok; else bad "$1: unexpected '$3' in: $2"; fi; }
same() { cmp -s "$2" "$3" && ok || bad "$1: $2 changed"; }

export NO_COLOR=1
command -v git >/dev/null || { echo "git is needed"; exit 77; }
command -v patch >/dev/null || { echo "patch is needed (scripts/setup --with-test-tools)"; exit 77; }

# --- outputs that are inputs: usage errors, nothing touched -----------------
o="$tmp/outputs"
mkdir -p "$o/src" "$o/svc"
cd "$o" || exit 1
key='export const k = { PK: `ORDER#${id}`, SK: "A" };'
printf '%s\n' "$key" >src/a.ts
printf '%s\n' "$key" >svc/b.ts
cat >svc/template.yaml <<'EOF'
Resources:
  T:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
      BillingMode: PAY_PER_REQUEST
EOF
printf 'schemas: [t.yaml]\n' >cfg.yml
cp svc/template.yaml t.yaml
cp -r "$o" "$tmp/outputs.orig"
unchanged() { diff -r "$tmp/outputs.orig" "$o" >/dev/null && ok || bad "$1: a file changed: $(diff -r "$tmp/outputs.orig" "$o" | head -3)"; }
run output-is-input 2 "$keylint" -o src/a.ts src/a.ts
has output-is-input "$err" "--output src/a.ts would replace a file to lint"
unchanged output-is-input
run output-through-dir 2 "$keylint" -o ./src/../src/a.ts src
has output-through-dir "$err" "would replace a file to lint (src/a.ts)"
unchanged output-through-dir
ln -s src/a.ts "$tmp/link.ts"
run output-symlink 2 "$keylint" -o "$tmp/link.ts" src
unchanged output-symlink
"$keylint" --baseline-write bl.json src 2>/dev/null
cp bl.json "$tmp/outputs.orig/bl.json"
run report-is-baseline 2 "$keylint" --baseline bl.json --report json=bl.json src
has report-is-baseline "$err" "--report bl.json would replace the baseline"
unchanged report-is-baseline
run output-is-config 2 "$keylint" -c cfg.yml --report sarif=./cfg.yml src
has output-is-config "$err" "the configuration file"
unchanged output-is-config
run output-is-schema 2 "$keylint" -c cfg.yml -o t.yaml src
has output-is-schema "$err" "would replace a schema file"
unchanged output-is-schema
run output-is-template 2 "$keylint" -o svc/template.yaml svc/b.ts
has output-is-template "$err" "would replace a schema file"
unchanged output-is-template
run outputs-twice 2 "$keylint" -o r.json --report json=./r.json src
has outputs-twice "$err" "--output and --report name the same file"
[ ! -e r.json ] && ok || bad "outputs-twice: r.json written"
# --baseline-write over the baseline it replaces is not an input: the
# baseline is not read then
run baseline-rewrite 0 "$keylint" --baseline bl.json --baseline-write bl.json src

# --- reports: replaced whole, the old one kept until then -------------------
printf 'yesterday\n' >r.txt
chmod 0640 r.txt
run report-mode 0 "$keylint" --exit-zero -o r.txt src
[ "$(stat -c %a r.txt)" = 640 ] && ok || bad "report-mode: the report's mode changed to $(stat -c %a r.txt)"
has report-written "$(cat r.txt)" "ORDER#"
printf 'read-only\n' >ro.txt
chmod 0444 ro.txt
run report-read-only 2 "$keylint" -o ro.txt src
has report-read-only "$err" "ro.txt: not rewritten: the file is read-only"
[ "$(cat ro.txt)" = read-only ] && ok || bad "report-read-only: the file was rewritten"
[ -z "$(find . -name '*.tmp.*')" ] && ok || bad "temporary files left: $(find . -name '*.tmp.*')"

# --- --fix: files kept as they were, but for the fix -------------------------
# A git work tree; keylint runs from a subdirectory, the diff names files
# from the root (git apply there, or patch -p1, takes it as it is).
g="$tmp/repo"
mkdir -p "$g/pkg/src"
git -C "$g" init -q
printf 'schemas: []\n' >"$g/.keylint.yml"
cat >"$g/pkg/src/keys.ts" <<'TS'
export const ORDER_PREFIX = 'ORDER#';
export const orderPk = (t: string) => `${ORDER_PREFIX}${t}`;
TS
body='import { GetCommand } from "@aws-sdk/lib-dynamodb";\r\nimport { ORDER_PREFIX } from "./keys";\r\n\r\nexport const a = (c: any, t: string) => c.send(new GetCommand({ TableName: "app", Key: { pk: `ORDER#${t}`, sk: "A" } }));\r\n'
# a byte-order mark and CRLF line ends; names git quotes in a diff
printf '\xef\xbb\xbf'"$body" >"$g/pkg/src/bom.ts"
printf "$body" >"$g/pkg/src/with space.ts"
printf "$body" >"$g/pkg/src/"$'new\nline.ts'
printf "$body" >"$g/pkg/src/"'q"uote\back.ts'
printf "$body" >"$g/pkg/src/é.ts"
cp -r "$g" "$tmp/repo.orig"
(cd "$g/pkg/src" && "$keylint" --fix-dry-run .) >"$tmp/fix.diff" 2>"$tmp/fix.err"
rc=$?
[ "$rc" -eq 1 ] && ok || bad "fix-dry-run: exit $rc: $(cat "$tmp/fix.err")"
diff -r "$tmp/repo.orig" "$g" >/dev/null && ok || bad "fix-dry-run changed files"
d=$(cat "$tmp/fix.diff")
has diff-root-relative "$d" "--- a/pkg/src/bom.ts"
lacks diff-no-dotdot "$d" "../"
has diff-space "$d" $'--- a/pkg/src/with space.ts\t'
has diff-newline "$d" '--- "a/pkg/src/new\nline.ts"'
has diff-quote "$d" '+++ "b/pkg/src/q\"uote\\back.ts"'
has diff-utf8 "$d" '--- "a/pkg/src/\303\251.ts"'
has diff-bom "$d" $' \xef\xbb\xbfimport { GetCommand }'
[ "$(grep -c '^--- ' "$tmp/fix.diff")" = 5 ] && ok || bad "fix-dry-run: not 5 files in the diff"
(cd "$g/pkg/src" && "$keylint" --fix . >/dev/null 2>&1)
cp -r "$tmp/repo.orig" "$tmp/by-git"
(cd "$tmp/by-git" && git apply "$tmp/fix.diff") && ok || bad "git apply refused the diff"
cp -r "$tmp/repo.orig" "$tmp/by-patch"
(cd "$tmp/by-patch" && patch -s -p1 <"$tmp/fix.diff") && ok || bad "patch -p1 refused the diff"
for t in by-git by-patch; do
    diff -r -x .git "$tmp/$t" "$g" >/dev/null && ok || bad "$t: the patched files differ from --fix's: $(diff -r -x .git "$tmp/$t" "$g" | head -5)"
done
head -c 3 "$g/pkg/src/bom.ts" | od -An -c | grep -q '357 273 277' && ok || bad "--fix dropped the byte-order mark"
grep -q 'pk: `${ORDER_PREFIX}${t}`, sk: "A" } }));'$'\r''$' "$g/pkg/src/bom.ts" && ok || bad "--fix lost the CRLF line end"

# read-only, hard-linked and (as root) someone else's files
f="$tmp/fixfiles"
mkdir -p "$f/src"
printf 'schemas: []\n' >"$f/.keylint.yml"
cp "$g/pkg/src/keys.ts" "$f/src/"
for n in ro linked theirs target; do printf "$body" >"$f/src/$n.ts"; done
ln -s target.ts "$f/src/link.ts"
chmod 0444 "$f/src/ro.ts"
ln "$f/src/linked.ts" "$tmp/second-link.ts"
if [ "$(id -u)" = 0 ]; then chown 65534:65534 "$f/src/theirs.ts"; chmod 02640 "$f/src/theirs.ts"; fi
cp -a "$f/src" "$tmp/fixfiles.orig"
run fix-dry-refused 2 sh -c "cd '$f' && '$keylint' --fix-dry-run src"
has fix-dry-read-only "$err" "src/ro.ts: error: not rewritten: the file is read-only"
lacks fix-dry-read-only-diff "$out" "a/src/ro.ts"
run fix-refused 2 sh -c "cd '$f' && '$keylint' --fix src"
has fix-read-only "$err" "src/ro.ts: error: not rewritten: the file is read-only"
has fix-hard-link "$err" "src/linked.ts: error: not rewritten: the file has 2 hard links"
same fix-read-only "$tmp/fixfiles.orig/ro.ts" "$f/src/ro.ts"
same fix-hard-link "$tmp/second-link.ts" "$tmp/fixfiles.orig/linked.ts"
[ "$(stat -c %i "$f/src/linked.ts")" = "$(stat -c %i "$tmp/second-link.ts")" ] && ok || bad "--fix split a hard link"
[ -L "$f/src/link.ts" ] && ok || bad "--fix replaced a symbolic link"
grep -q 'ORDER_PREFIX}${t}' "$f/src/target.ts" && ok || bad "--fix did not fix the file a link leads to"
if [ "$(id -u)" = 0 ]; then
    [ "$(stat -c '%u:%g %a' "$f/src/theirs.ts")" = "65534:65534 2640" ] && ok ||
        bad "--fix changed the owner, group or mode: $(stat -c '%u:%g %a' "$f/src/theirs.ts")"
    grep -q 'ORDER_PREFIX}${t}' "$f/src/theirs.ts" && ok || bad "--fix did not fix another user's file"
fi

# --- inputs that are not files to read ---------------------------------------
i="$tmp/inputs"
mkdir -p "$i/sub"
cd "$i" || exit 1
printf '%s\n' "$key" >a.ts
mkfifo fifo.yml
run config-fifo 2 "$keylint" -c fifo.yml a.ts
has config-fifo "$err" "fifo.yml: error: cannot read fifo.yml: is a FIFO, not a regular file"
run config-dev-zero 2 "$keylint" -c /dev/zero a.ts
has config-dev-zero "$err" "is a character device, not a regular file"
run config-dir 2 "$keylint" -c sub a.ts
has config-dir "$err" "Is a directory"
head -c 9000000 /dev/zero | tr '\0' ' ' >big.yml
run config-huge 2 "$keylint" -c big.yml a.ts
has config-huge "$err" "larger than 8 MiB"
# a .keylint.yml found by discovery that is a FIFO: named, not waited on
mkdir -p found && printf '%s\n' "$key" >found/a.ts && mkfifo found/.keylint.yml
run config-found-fifo 2 "$keylint" found
has config-found-fifo "$err" "is a FIFO, not a regular file"
rm found/.keylint.yml
printf 'schemas: [fifo.yml]\n' >schema-fifo.yml
run schema-fifo 2 "$keylint" -c schema-fifo.yml a.ts
has schema-fifo "$err" "fifo.yml: error: schema is a FIFO, not a regular file"
# deep nesting: stopped at 128 levels, with the file and line
python3 -c "print('rules:\n  scan: ' + '[' * 100000)" >deep.yml
run config-deep 2 "$keylint" -c deep.yml a.ts
has config-deep "$err" "deep.yml:2:"
has config-deep "$err" "nests mappings and sequences more than 128 deep"
python3 -c "
s = 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n'
s += ''.join('  ' * (i + 3) + 'k%d:\n' % i for i in range(200))
open('deep-template.yaml', 'w').write(s)"
printf 'schemas: [deep-template.yaml]\n' >deep-schema.yml
run schema-deep 2 "$keylint" -c deep-schema.yml a.ts
has schema-deep "$err" "deep-template.yaml:"
has schema-deep "$err" "schema nests mappings and sequences more than 128 deep"
# --stdin-filename naming a directory is no file's name: nothing is walked
run stdin-dir 2 sh -c "printf '%s' '$key' | '$keylint' --stdin-filename / -"
has stdin-dir "$err" "--stdin-filename names a directory"

# --- no walk outside the project ------------------------------------------------
# A configuration elsewhere (-c ~/x.yml) is not a project: the templates
# around it are not read; the work tree's are.
w="$tmp/walk"
mkdir -p "$w/home/elsewhere" "$w/repo/src"
git -C "$w/repo" init -q
printf 'rules: {}\n' >"$w/home/x.yml"
cat >"$w/home/elsewhere/template.yaml" <<'EOF'
Resources:
  Far:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
      BillingMode: PAY_PER_REQUEST
EOF
cat >"$w/repo/src/q.ts" <<'TS'
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const q = (c: any) => c.send(new QueryCommand({ TableName: 't', IndexName: 'Nope', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'x' } }));
TS
run config-elsewhere 0 "$keylint" -f concise -c "$w/home/x.yml" "$w/repo/src/q.ts"
lacks config-elsewhere "$out" "unknown-index"
lacks config-elsewhere "$out" "elsewhere/template.yaml"
cp "$w/home/elsewhere/template.yaml" "$w/repo/template.yaml"
run config-elsewhere-tree 1 "$keylint" -f concise -c "$w/home/x.yml" "$w/repo/src/q.ts"
has config-elsewhere-tree "$out" "[unknown-index]"

# --- lone CR line ends (an old Mac file): lines as editors count them ----------
printf 'import { X } from "./x";\r\r// note\rexport const k = { PK: `ORDER#${id}`, SK: "A" };\r' >"$i/cr.ts"
run lone-cr 0 "$keylint" "$i/cr.ts"
has lone-cr "$out" "cr.ts:4:25: warning: inline key prefix 'ORDER#'"
has lone-cr-line "$out" $'\nexport const k = { PK: `ORDER#${id}`, SK: "A" };\n'
has lone-cr-caret "$out" $'\n                        ^~~~~~\n'
run lone-cr-json 0 "$keylint" -f json "$i/cr.ts"
has lone-cr-json "$out" '"line": 4'

# --- --changed: one file named three ways is one file ----------------------------------
c="$tmp/changed"
mkdir -p "$c/d"
git -C "$c" init -q
printf '%s\n' "$key" >"$c/a.ts"
run changed-once 0 sh -c "cd '$c' && '$keylint' --changed a.ts ./a.ts d/../a.ts"
has changed-once "$out" "in 1 file"

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
