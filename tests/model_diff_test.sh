#!/bin/sh
# `keylint model --diff BASE_REF` on a scripted git history: a service whose
# next revision adds a component to a sort key, drops an index (from the
# table and from the writes) and adds a query that no write matches (in a
# file not committed yet: the work tree is compared, not a commit). The
# base revision is read from `git archive` in a temporary directory, which
# is removed; the work tree and its git state are left as they were.
# usage: model_diff_test.sh KEYLINT
set -u
keylint=${1:?keylint binary}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
has() { # has OUTPUT TEXT WHAT
    case $1 in *"$2"*) ;; *) bad "$3: no '$2' in:"; printf '%s\n' "$1" ;; esac
}

repo=$tmp/repo
mkdir -p "$repo/svc/src"
cd "$repo" || exit 2
git init -q . && git config user.email t@example.com && git config user.name t
cat >svc/template.yaml <<'EOF'
Resources:
  AppTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: app
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: sk, AttributeType: S }
        - { AttributeName: gsi1pk, AttributeType: S }
        - { AttributeName: gsi1sk, AttributeType: S }
        - { AttributeName: gsi2pk, AttributeType: S }
        - { AttributeName: gsi2sk, AttributeType: S }
      KeySchema:
        - { AttributeName: pk, KeyType: HASH }
        - { AttributeName: sk, KeyType: RANGE }
      GlobalSecondaryIndexes:
        - IndexName: GSI1
          KeySchema:
            - { AttributeName: gsi1pk, KeyType: HASH }
            - { AttributeName: gsi1sk, KeyType: RANGE }
          Projection: { ProjectionType: ALL }
        - IndexName: GSI2
          KeySchema:
            - { AttributeName: gsi2pk, KeyType: HASH }
            - { AttributeName: gsi2sk, KeyType: RANGE }
          Projection: { ProjectionType: ALL }
EOF
cat >svc/src/orders.ts <<'EOF'
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
const TABLE = 'app';
export const putOrder = (ddb: any, tenantId: string, orderId: string, status: string, customerId: string) =>
  ddb.send(new PutCommand({ TableName: TABLE, Item: {
    pk: `TENANT#${tenantId}`, sk: `ORDER#${orderId}`,
    gsi1pk: `STATUS#${status}`, gsi1sk: `ORDER#${orderId}`,
    gsi2pk: `CUSTOMER#${customerId}`, gsi2sk: `ORDER#${orderId}`,
  } }));
export const ordersOf = (ddb: any, tenantId: string) =>
  ddb.send(new QueryCommand({ TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':sk': 'ORDER#' } }));
EOF
git add -A && git commit -qm base && git tag base

# the next revision, in the work tree
sed -i 's/sk: `ORDER#${orderId}`,/sk: `ORDER#${orderId}#${status}`,/; /gsi2pk: `CUSTOMER/d' svc/src/orders.ts
sed -i '/- { AttributeName: gsi2/d; /- IndexName: GSI2/,$d' svc/template.yaml
cat >svc/src/invoices.ts <<'EOF'
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const invoicesOf = (ddb: any, tenantId: string) =>
  ddb.send(new QueryCommand({ TableName: 'app',
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':sk': 'INVOICE#' } }));
EOF
status_before=$(git status --porcelain)

work=$tmp/tmpdir
mkdir "$work"
cd "$repo/svc" || exit 2
out=$(TMPDIR=$work "$keylint" model --diff base --format text . 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "--diff base: exit $rc: $out"
has "$out" "Key design changes since base (" "text"
has "$out" "AppTable (app)" "text"
has "$out" "~ ORDER: sk changed: ORDER#{orderId} -> ORDER#{orderId}#{status}  (src/orders.ts:5)" "an SK component added"
has "$out" "- ORDER: gsi2pk no longer written: CUSTOMER#{customerId}" "an index key no longer written"
has "$out" "- ORDER: gsi2sk no longer written: ORDER#{orderId}" "an index key no longer written"
has "$out" "- index removed: GSI2" "the index removed from the table"
has "$out" "+ query added, no write matches it: app: pk = TENANT#{tenantId}, sk begins_with INVOICE# -> (no entity)  (src/invoices.ts:3)" "a query added"
case $out in *GSI1*) bad "GSI1 did not change: $out" ;; esac
case $out in *"begins_with ORDER#"*) bad "the unchanged query is not listed: $out" ;; esac
[ -z "$(ls -A "$work")" ] || bad "the temporary checkout is left in TMPDIR: $(ls -A "$work")"
[ "$(git status --porcelain)" = "$status_before" ] || bad "the work tree changed: $(git status --porcelain)"
[ "$(git worktree list | wc -l)" -eq 1 ] || bad "a worktree was left: $(git worktree list)"

# Markdown (the default when not on a terminal): a table for a job summary
md=$("$keylint" model --diff base 2>&1)
has "$md" "### Key design changes since \`base (" "markdown"
has "$md" "| AppTable (app) | **ORDER** | sk changed | \`ORDER#{orderId}\` | \`ORDER#{orderId}#{status}\` | \`src/orders.ts:5\` |" "markdown row"
has "$md" "| AppTable (app) |  | ⚠ query added, no write matches it |" "markdown query row"

# paths are those of a lint run, read from the same place in the base
out=$("$keylint" model --diff base -f text src 2>&1)
has "$out" "sk changed" "a path under the current directory"

# nothing changed since the work tree's own commit once committed
git add -A && git commit -qm next
out=$("$keylint" model --diff HEAD -f text . 2>&1)
has "$out" "No key design change since HEAD (" "no change"

# BASE...: from the merge base, as a pull request is reviewed: what the
# base branch gained since is not the work tree's change
git checkout -q -b feature base
sed -i 's/sk: `ORDER#${orderId}`,/sk: `ORDER#${orderId}#${status}`,/' src/orders.ts
git commit -qam "feature"
git checkout -q master 2>/dev/null || git checkout -q main
cat >src/carts.ts <<'EOF2'
import { PutCommand } from '@aws-sdk/lib-dynamodb';
export const putCart = (ddb: any, id: string) =>
  ddb.send(new PutCommand({ TableName: 'app', Item: { pk: `CART#${id}`, sk: 'META' } }));
EOF2
git add -A && git commit -qm "carts on the base branch"
trunk=$(git rev-parse --abbrev-ref HEAD)
git checkout -q feature
out=$("$keylint" model --diff "$trunk..." -f text . 2>&1)
has "$out" "~ ORDER: sk changed: ORDER#{orderId} -> ORDER#{orderId}#{status}" "$trunk...: the branch's change"
case $out in *CART*) bad "$trunk...: the base branch's own change is not the work tree's: $out" ;; esac
out=$("$keylint" model --diff "$trunk" -f text . 2>&1)
has "$out" "- CART: entity removed" "$trunk: compared with the branch's tip"

# errors: exit 2 with a message
out=$("$keylint" model --diff no-such-ref . 2>&1); rc=$?
[ $rc -eq 2 ] || bad "an unknown revision: exit $rc"
has "$out" "'no-such-ref' is not a commit" "an unknown revision"
out=$("$keylint" model --diff base -f html . 2>&1); rc=$?
[ $rc -eq 2 ] || bad "--diff with html: exit $rc"
has "$out" "--diff writes text or markdown" "--diff with html"
out=$("$keylint" model --diff --output . 2>&1); rc=$?
[ $rc -eq 2 ] || bad "--diff '--output': exit $rc"
mkdir "$tmp/nogit" && cd "$tmp/nogit" && out=$(GIT_CEILING_DIRECTORIES=$tmp "$keylint" model --diff main . 2>&1); rc=$?
[ $rc -eq 2 ] || bad "outside a git work tree: exit $rc"
has "$out" "not in a git work tree" "outside a git work tree"

[ $fail -eq 0 ] && echo "model --diff: ok"
exit $fail
