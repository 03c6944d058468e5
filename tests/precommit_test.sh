#!/usr/bin/env bash
# keylint's pre-commit hooks, with the real `pre-commit`, in a temporary git
# repository, without network:
#   1. `repo: local` hooks made from this checkout's .pre-commit-hooks.yaml
#      (keylint-system with the built binary on PATH, and keylint with the
#      build-on-first-use script of a snapshot of this checkout, its entry
#      made absolute): a bad commit is
#      refused with the finding printed, a clean one passes, unrelated files
#      skip the hook, a staged schema or .keylint.yml re-checks the whole
#      project, ignore globs apply to staged files.
#   2. The script's first use, twice at once: one build, two results.
#   3. The hooks as a user gets them: a git copy of this checkout used as a
#      hook repository (cloned by pre-commit from a local path), whose
#      keylint hook builds keylint in pre-commit's own clone.
#   4. Its keylint-node hook (language: node): pre-commit installs the
#      repository's package.json with npm (offline), with this platform's
#      binary package from the tarball scripts/npm-pack packed (in
#      additional_dependencies, as the registry would serve it), and builds
#      nothing.
# Usage: precommit_test.sh KEYLINT SOURCE_ROOT [NPM_DIST_DIR]
# Exits 77 (meson: skipped) when pre-commit is not installed.
set -u

keylint=$1
root=$2
npm_dist=${3:-}
if ! command -v pre-commit >/dev/null 2>&1; then
    echo "SKIP: pre-commit is not installed (scripts/setup --with-test-tools installs it)"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }
has() { if [[ $2 == *"$3"* ]]; then ok; else bad "$1: missing '$3' in: $2"; fi; }
lacks() { if [[ $2 != *"$3"* ]]; then ok; else bad "$1: unexpected '$3' in: $2"; fi; }

# commit NAME EXPECTED_RC GIT_COMMIT_ARGS...: output in $out
commit() {
    local name=$1 want=$2
    shift 2
    out=$(git commit -q "$@" 2>&1)
    local rc=$?
    if { [ "$want" -eq 0 ] && [ "$rc" -ne 0 ]; } || { [ "$want" -ne 0 ] && [ "$rc" -eq 0 ]; }; then
        bad "$name: git commit exit $rc, expected $([ "$want" -eq 0 ] && echo 0 || echo non-zero)"
        printf '%s\n' "$out" >&2
        return 1
    fi
    ok
}

export NO_COLOR=1 PRE_COMMIT_COLOR=never
export PRE_COMMIT_HOME=$tmp/pre-commit-home
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
mkdir -p "$HOME"
# keylint-system runs the `keylint` on PATH: a copy of the built binary (a
# rebuild of the build directory while the test runs cannot take it away)
mkdir -p "$tmp/bin" && cp "$keylint" "$tmp/bin/keylint" || exit 1
export PATH="$tmp/bin:$PATH"
export KEYLINT_HOOK_CACHE=$tmp/hook-cache

GOOD='export const USER_PREFIX = "USER#";
export function userPk(id: string) { return `${USER_PREFIX}${id}`; }
'
BAD='import { GetCommand } from "@aws-sdk/lib-dynamodb";
export const get = (ddb: any, a: string, b: string) =>
  ddb.send(new GetCommand({ TableName: "t", Key: { pk: `${a}#x`, sk: `${a}${b}` } }));
'

# A snapshot of this checkout as a git repository: the hook script runs from
# it (so that edits to the checkout while the test runs cannot trigger a
# rebuild), and part 3 uses it as a hook repository.
hooks=$tmp/keylint-hooks-repo
mkdir -p "$hooks"
(
    # what git tracks or would track, and the fetched grammar tarball
    cd "$root" || exit 1
    { if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
          git ls-files -z --cached --others --exclude-standard
      else # not a clone: everything but build output
          find . \( -name 'build*' -o -name node_modules -o -name .git -o -name .keylint-hook \) \
              -prune -o -type f -print0
      fi
      printf '%s\0' subprojects/packagefiles/*.tgz; } |
        while IFS= read -r -d '' f; do
            [ -e "$f" ] || [ -L "$f" ] || continue
            mkdir -p "$hooks/$(dirname "$f")" && cp -P "$f" "$hooks/$f"
        done
)
(
    cd "$hooks" && git init -q . && git add -A -f . &&
        git commit -q -m "keylint snapshot" --no-verify
) || bad "cannot make the hook repository"
src=$hooks

# --- 2. first use, twice at once --------------------------------------------
work=$tmp/direct
mkdir -p "$work/src" && printf '%s' "$BAD" >"$work/src/bad.ts"
(cd "$work" && "$src/scripts/keylint-hook" src/bad.ts >"$tmp/h1.out" 2>&1; echo "rc=$?" >>"$tmp/h1.out") &
(cd "$work" && "$src/scripts/keylint-hook" src/bad.ts >"$tmp/h2.out" 2>&1; echo "rc=$?" >>"$tmp/h2.out") &
wait
h=$(cat "$tmp/h1.out" "$tmp/h2.out")
builds=$(grep -c 'building keylint' <<<"$h")
[ "$builds" -eq 1 ] && ok || bad "parallel first use: $builds builds, expected 1: $h"
[ "$(grep -c '^rc=1$' <<<"$h")" -eq 2 ] && ok || bad "parallel first use: both runs should exit 1: $h"
[ "$(grep -c 'src/bad.ts:3:.*\[missing-delimiter\]' <<<"$h")" -eq 2 ] && ok ||
    bad "parallel first use: both runs should report the finding: $h"
[ -x "$KEYLINT_HOOK_CACHE/keylint" ] && ok || bad "no binary in $KEYLINT_HOOK_CACHE"
ls "$KEYLINT_HOOK_CACHE" | grep -q '\.tmp\.' && bad "temporary files left in the cache" || ok
out=$(cd "$work" && "$src/scripts/keylint-hook" src/bad.ts 2>&1)
lacks "second use does not build" "$out" "building keylint"
has "first use says so" "$h" "first use: building keylint"

# where there is no flock (macOS): the same, locked with mkdir. The build
# directory is kept, so that this build only links again.
nofl=$tmp/no-flock-bin
mkdir -p "$nofl"
for d in ${PATH//:/ }; do
    for f in "$d"/*; do
        n=${f##*/}
        [ "$n" = flock ] || [ -e "$nofl/$n" ] || ln -s "$f" "$nofl/$n" 2>/dev/null
    done
done
rm -f "$KEYLINT_HOOK_CACHE/keylint" "$KEYLINT_HOOK_CACHE/keylint.stamp"
(cd "$work" && PATH=$nofl "$src/scripts/keylint-hook" src/bad.ts >"$tmp/n1.out" 2>&1; echo "rc=$?" >>"$tmp/n1.out") &
(cd "$work" && PATH=$nofl "$src/scripts/keylint-hook" src/bad.ts >"$tmp/n2.out" 2>&1; echo "rc=$?" >>"$tmp/n2.out") &
wait
h=$(cat "$tmp/n1.out" "$tmp/n2.out")
[ "$(grep -c 'building keylint' <<<"$h")" -eq 1 ] && ok || bad "no flock: expected one build: $h"
[ "$(grep -c '^rc=1$' <<<"$h")" -eq 2 ] && ok || bad "no flock: both runs should exit 1: $h"
[ "$(grep -c 'src/bad.ts:3:.*\[missing-delimiter\]' <<<"$h")" -eq 2 ] && ok ||
    bad "no flock: both runs should report the finding: $h"
[ ! -e "$KEYLINT_HOOK_CACHE/lock.d" ] && ok || bad "no flock: the lock directory was left behind"
PATH=$nofl command -v flock >/dev/null && bad "no flock: flock still on PATH" || ok

# a keylint that dies of a signal fails the hook (exit 2, with a message),
# whichever hook runs it
cp "$KEYLINT_HOOK_CACHE/keylint" "$tmp/keylint.real"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$KEYLINT_HOOK_CACHE/keylint"
out=$(cd "$work" && "$src/scripts/keylint-hook" src/bad.ts 2>&1)
rc=$?
[ "$rc" -eq 2 ] && ok || bad "signal: hook exit $rc, expected 2: $out"
has "signal: message" "$out" "killed by signal 11 (SIGSEGV)"
cp "$tmp/keylint.real" "$KEYLINT_HOOK_CACHE/keylint"

# --- 1. repo: local hooks from this checkout's manifest ---------------------
repo=$tmp/repo
mkdir -p "$repo/src" && cd "$repo" || exit 1
git init -q .
{
    printf 'repos:\n  - repo: local\n    hooks:\n'
    # the hooks that install nothing (keylint-node: part 4)
    sed -e '/^- id: keylint-node$/,$d' -e 's/^/      /' \
        -e "s|entry: scripts/keylint-hook|entry: $src/scripts/keylint-hook|" \
        "$root/.pre-commit-hooks.yaml"
} >.pre-commit-config.yaml
grep -q "entry: $src/scripts/keylint-hook" .pre-commit-config.yaml && ok ||
    bad "the manifest's keylint entry is not scripts/keylint-hook"
pre-commit install -q >/dev/null 2>&1 || pre-commit install >/dev/null || bad "pre-commit install failed"
git add .pre-commit-config.yaml
commit "config only" 0 -m "pre-commit config"

printf '%s' "$GOOD" >src/keys.ts
git add src/keys.ts
commit "clean commit" 0 -m "keys"
has "clean commit runs keylint-system" "$out" "keylint (installed)"
has "clean commit passes" "$out" "Passed"
lacks "clean commit" "$out" "Failed"

printf '%s' "$BAD" >src/bad.ts
git add src/bad.ts
commit "bad commit" 1 -m "bad"
has "bad commit: finding printed" "$out" "src/bad.ts:3:"
has "bad commit: rule printed" "$out" "[missing-delimiter]"
[ "$(grep -c "^keylint.*Failed" <<<"$out")" -eq 2 ] && ok || bad "bad commit: both hooks should fail: $out"
[ "$(git rev-list --count HEAD)" -eq 2 ] && ok || bad "bad commit: it was committed"
git reset -q src/bad.ts

# keylint-system, with a keylint on PATH that dies of a signal: failed
cp "$tmp/bin/keylint" "$tmp/keylint.path"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/bin/keylint"
printf '%s' "$GOOD" >src/more.ts
git add src/more.ts
commit "signal: keylint-system fails" 1 -m "more"
has "signal: keylint-system message" "$out" "keylint: killed by signal 11"
cp "$tmp/keylint.path" "$tmp/bin/keylint"
git reset -q src/more.ts && rm src/more.ts

printf 'notes\n' >README.md
git add README.md
commit "unrelated file" 0 -m "readme"
has "unrelated file: hook skipped" "$out" "(no files to check)"

# bad.ts gets in without the hook; a later change of a schema re-checks all
git add src/bad.ts && git commit -q --no-verify -m "bad, unchecked"
cat >template.yaml <<'EOF'
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
EOF
printf 'schemas: [template.yaml]\nignore: ["legacy/**"]\n' >.keylint.yml
printf 'a: 1\n' >other.yaml
git add other.yaml
commit "unrelated yaml" 0 -m "other yaml"
lacks "unrelated yaml: not linted" "$out" "missing-delimiter"
git add .keylint.yml
commit "staged .keylint.yml re-checks the project" 1 -m "config"
has "staged .keylint.yml: finding in an unstaged file" "$out" "src/bad.ts:3:"
git commit -q --no-verify -m "config, unchecked"
git add template.yaml
commit "staged schema re-checks the project" 1 -m "schema"
has "staged schema: finding in an unstaged file" "$out" "src/bad.ts:3:"
git commit -q --no-verify -m "schema, unchecked"
printf '    # a comment\n' >>template.yaml
git add template.yaml
commit "changed schema re-checks the project" 1 -m "schema change"
has "changed schema" "$out" "[missing-delimiter]"
git reset -q template.yaml && git checkout -q template.yaml

mkdir -p legacy && printf '%s' "$BAD" >legacy/old.ts
git add legacy/old.ts
commit "ignored staged file" 0 -m "legacy"
lacks "ignored staged file" "$out" "legacy/old.ts:"

# --- 3. the manifest as a user gets it: a hook repository clone ----------------
rev=$(git -C "$hooks" rev-parse HEAD)
user=$tmp/user
mkdir -p "$user/src" && cd "$user" || exit 1
git init -q .
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: keylint
EOF
pre-commit install >/dev/null 2>&1 || bad "pre-commit install (user) failed"
git add .pre-commit-config.yaml
commit "user: config" 0 -m "config"
unset KEYLINT_HOOK_CACHE # the default: a cache inside pre-commit's clone
printf '%s' "$BAD" >src/bad.ts
git add src/bad.ts
commit "user: bad commit" 1 -m "bad"
has "user: first use builds" "$out" "building keylint"
has "user: finding printed" "$out" "src/bad.ts:3:"
has "user: built in pre-commit's clone" "$out" "$PRE_COMMIT_HOME"
git rm -q --cached src/bad.ts && rm src/bad.ts
printf '%s' "$GOOD" >src/keys.ts
git add src/keys.ts
commit "user: clean commit" 0 -m "keys"
lacks "user: second use does not build" "$out" "building keylint"

# --- 4. the node hook: keylint's npm package instead of a build --------------
version=$(meson introspect --projectinfo "$root/meson.build" |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
case $(uname -m) in x86_64) native=x64 ;; aarch64) native=arm64 ;; *) native= ;; esac
binary_tgz=$npm_dist/keylint-linux-$native-$version.tgz
if [ -z "$npm_dist" ] || [ ! -f "$binary_tgz" ]; then
    echo "keylint-node: not tested: no $binary_tgz (scripts/npm-pack; scripts/setup --cross-arm64)"
else
    node_user=$tmp/user-node
    mkdir -p "$node_user/src" && cd "$node_user" || exit 1
    git init -q .
    printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: keylint-node\n        additional_dependencies: ["%s"]\n' \
        "$hooks" "$rev" "$binary_tgz" >.pre-commit-config.yaml
    pre-commit install >/dev/null 2>&1 || bad "pre-commit install (node) failed"
    git add .pre-commit-config.yaml
    commit "node: config" 0 -m "config"
    # npm without the network: the binary package comes from the tarball
    export npm_config_offline=true npm_config_cache=$tmp/npm-cache
    export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
    printf '%s' "$BAD" >src/bad.ts
    git add src/bad.ts
    commit "node: bad commit" 1 -m "bad"
    has "node: the hook ran" "$out" "keylint (npm)"
    has "node: finding printed" "$out" "src/bad.ts:3:"
    has "node: rule printed" "$out" "[missing-delimiter]"
    lacks "node: nothing built" "$out" "building keylint"
    env_bin=$(ls -d "$PRE_COMMIT_HOME"/repo*/node_env-*/bin 2>/dev/null | head -n 1)
    [ -n "$env_bin" ] && [ -x "$env_bin/keylint" ] && ok ||
        bad "node: no keylint in pre-commit's node environment"
    ls -d "$PRE_COMMIT_HOME"/repo*/node_env-*/lib/node_modules/@keylint/linux-$native >/dev/null 2>&1 &&
        ok || bad "node: @keylint/linux-$native not installed in the environment"
    git rm -q --cached src/bad.ts && rm src/bad.ts
    printf '%s' "$GOOD" >src/keys.ts
    git add src/keys.ts
    commit "node: clean commit" 0 -m "keys"
    has "node: clean commit passes" "$out" "Passed"
fi

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]

