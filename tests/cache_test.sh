#!/usr/bin/env bash
# The cache between runs (on by default; --cache-dir, --no-cache): a run that reads
# entries reports byte for byte what a run without the cache reports, cold,
# warm, after a file is edited, after entries are truncated or corrupted,
# after a configuration changes, without the pre-check, with two runs at
# once; entries of deleted files are pruned; a cache directory that cannot
# be made is a note when --cache asks for the cache, silent by default, and
# the run goes on. The findings a run keeps are
# reported again only while nothing they depend on changed.
# Usage: cache_test.sh KEYLINT SOURCE_ROOT
set -u

keylint=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
unset KEYLINT_NO_CACHE # the other tests run without the cache
export NO_COLOR=1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }
has() { if [[ $2 == *"$3"* ]]; then ok; else bad "$1: missing '$3' in: $2"; fi; }
lacks() { if [[ $2 != *"$3"* ]]; then ok; else bad "$1: unexpected '$3' in: $2"; fi; }

# The fixtures and the extraction inputs, in a project of their own.
proj=$tmp/proj
mkdir -p "$proj"
cp -R "$root/fixtures" "$root/tests/extract" "$proj/"
cache=$proj/.keylint-cache
cd "$proj" || exit 1

# same NAME ARGS...: the report of `keylint ARGS .` with the cache (on by
# default, in $cache) is the report without it, byte for byte, and so is
# the exit code. Sets $err to the cached run's stderr (with --stats: the
# cache's counts).
same() {
    local name=$1
    shift
    # the run without the cache is made once per arguments and tree: the
    # same report, asked again of an unchanged tree, is read back
    local memo
    memo=$tmp/memo/$( { printf '%s\n' "$@"
        find . -path ./.keylint-cache -prune -o -type f -print0 |
            sort -z | xargs -0 md5sum; } | md5sum | cut -c1-32)
    local want_rc
    if [ -f "$memo.rc" ]; then
        cp "$memo.out" "$tmp/want"
        want_rc=$(cat "$memo.rc")
    else
        "$keylint" --no-cache "$@" . >"$tmp/want" 2>/dev/null
        want_rc=$?
        mkdir -p "$tmp/memo"
        cp "$tmp/want" "$memo.out"
        echo "$want_rc" >"$memo.rc"
    fi
    "$keylint" --stats "$@" . >"$tmp/got" 2>"$tmp/err"
    local rc=$?
    err=$(cat "$tmp/err")
    if [ "$rc" -ne "$want_rc" ]; then
        bad "$name: exit $rc, without the cache $want_rc"
    elif ! cmp -s "$tmp/want" "$tmp/got"; then
        bad "$name: the report differs from the one without the cache:"
        diff "$tmp/want" "$tmp/got" | head -20 >&2
    else
        ok
    fi
}

pack=$cache/entries.pack
# pack_py SCRIPT: python with `records`, the pack's records by name (the
# last of a name: (offset of its entry, its length, its flags)), `b` the
# pack (a bytearray) and `p` its path. A record: its name (32), the
# entry's length (4) and hash (8), the text's hash (32), the stat (40),
# then the entry: its format (4), keylint's version, the path, the text's
# and the configuration's hashes (each a length (4) and bytes), a byte of
# flags (1 set aside, 2 a note, 4 an IR), then the note, IR, problems.
pack_py() {
    python3 - "$pack" <<PY
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
at = b.index(b'\n', b.index(b'format ')) + 1 + 4  # the header, its byte order
records = {}
while at + 116 <= len(b):
    name = bytes(b[at:at + 32])
    n, = struct.unpack_from('=I', b, at + 32)
    e = at + 116
    q = e + 4
    for _ in range(4):
        l, = struct.unpack_from('=I', b, q)
        q += 4 + (0 if l == 0xffffffff else l)
    records[name] = (e, n, b[q])
    at = e + n
$1
PY
}
# the files the pack has an entry for
entries() { pack_py 'print(len(records))'; }

# --- cold, then warm ---------------------------------------------------------
same cold
has cold-counts "$err" "keylint: cache: 0 hits ("
[ -f "$cache/.gitignore" ] && [ "$(grep -v '^#' "$cache/.gitignore")" = "*" ] && ok ||
    bad "the cache directory has no .gitignore of '*'"
[ -f "$cache/CACHEDIR.TAG" ] && ok || bad "the cache directory has no CACHEDIR.TAG"
n=$(entries)
[ "$n" -gt 100 ] && ok || bad "cold: $n entries written"
same warm
has warm-counts "$err" " 0 misses (0 entries ignored), 0 written"
for fmt in sarif concise; do
    same "warm-$fmt" -f "$fmt"
done
"$keylint" --no-cache -f json . >"$tmp/want" 2>/dev/null
"$keylint" --cache -f json . >"$tmp/got" 2>/dev/null
cmp -s "$tmp/want" "$tmp/got" && ok || bad "warm-json: the report differs"
same warm-j1 -j1
same warm-no-precheck --no-precheck
same warm-no-precheck-again --no-precheck
has no-precheck-counts "$err" " 0 misses"

# --- files whose stat is their entry's are not read ----------------------------
# hits NAME: the cached run's hits and, of them, the files not read
hits() { sed -n 's/.*cache: \([0-9]*\) hits (\([0-9]*\) files not read).*/\1 \2/p' <<<"$err"; }
# a file changed within two seconds of its entry's write is read again
# (its stat does not vouch for its text): past that, none is read
sleep 2.1
same stat-restat
same stat-unread
read -r h u <<<"$(hits)"
[ "${h:-0}" -gt 100 ] && [ "$u" = "$h" ] && ok || bad "stat-unread: $h hits, $u files not read"
# edited in place within the same second: the same size, the same inode,
# the modification time put back; and a file written just before the run
# that wrote its entry, edited so after it
edit_keep_stat() {
    python3 - "$1" "$2" "$3" <<'PY'
import os, sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
st = os.stat(path)
with open(path, 'r+b') as f:
    b = f.read()
    assert old in b and len(old) == len(new)
    f.seek(0)
    f.write(b.replace(old, new, 1))
os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
PY
}
g=fixtures/magic-string/reported.ts
edit_keep_stat "$g" 'USER#' 'USEX#' || bad "edit-in-place: no text to edit"
same edited-in-place
has edited-in-place-counts "$err" " 1 misses"
# touched, unchanged: read and hashed (the same text: a hit), not parsed
touch fixtures/magic-string/reported.ts
same touched
has touched-counts "$err" " 0 misses (0 entries ignored), 0 written"
read -r h u <<<"$(hits)"
[ "$u" = $((h - 1)) ] && ok || bad "touched: $h hits, $u files not read"
# a record's stat damaged: its hash covers the stat, so the entry is not
# taken for the file's on the word of a damaged stat
python3 - "$pack" <<'PY' || bad "stat-damaged: no record"
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
at = b.index(b'\n', b.index(b'format ')) + 1 + 4  # the header, its byte order
b[at + 32 + 4 + 8 + 32 + 8] ^= 1                 # the first record's mtime
open(p, 'wb').write(b)
PY
same stat-damaged
has stat-damaged-note "$err" "cache entry ignored: damaged (its hash differs)"
same stat-damaged-rewritten
has stat-damaged-rewritten-counts "$err" " 0 misses (0 entries ignored)"
printf 'export const racy = { pk: `RACY#${id}`, sk: "META" };\n' >fixtures/racy.ts
same racy-written
edit_keep_stat fixtures/racy.ts 'RACY#' 'RACX#'
same racy-edited
has racy-edited-counts "$err" " 1 misses"
rm fixtures/racy.ts

# --- one file edited: only it is parsed again ---------------------------------
f=fixtures/magic-string/reported.ts
printf '\nconst edited = { pk: `EDITED#${id}`, sk: "META" }; // an edit\n' >>"$f"
same edited
has edited-counts "$err" " 1 misses (0 entries ignored), 1 written"
# an edit that keeps the size and changes one byte (same length, same
# mtime second)
sed -i 's/EDITED#/EDITEX#/' "$f"
same edited-same-size
has edited-same-size-counts "$err" " 1 misses"

# --- the pack damaged, cut short, of another version, foreign ---------------
# the entries' records keep the files' stat (past the racy two seconds), so
# that a damaged entry is met by a file not read: it is looked up once
sleep 2.1
same before-damage
# one byte of an entry of a parsed file changed: that entry is ignored
pack_py '
e, n, flags = next(r for r in records.values() if r[2] & 4 and r[1] > 400)
b[e + n - 100] ^= 0x5a   # inside the IR of a parsed file
open(p, "wb").write(b)
' || bad "no entry with keys to damage"
same damaged
has damaged-note "$err" "note: cache entry ignored: damaged (its hash differs)"
has damaged-counts "$err" " 1 misses (1 entries ignored), 1 written"
same damaged-rewritten
has damaged-rewritten-counts "$err" " 0 misses"
# cut short: the entries before the cut are used, the others parsed again
size=$(stat -c %s "$pack")
truncate -s $((size / 2)) "$pack"
same cut-short
has cut-short-note "$err" "cache cut short or damaged"
lacks cut-short-hits "$err" "cache: 0 hits"
lacks cut-short-misses "$err" " 0 misses"
same cut-short-rewritten
has cut-short-rewritten-counts "$err" " 0 misses (0 entries ignored), 0 written"
# another keylint's, a file that is no pack, an empty file
sed -i '2s/keylint [^ ]*$/keylint 0.0.0-other/' "$pack"
same other-version
has other-version-note "$err" "cache ignored: written by another version of keylint; written again"
has other-version-counts "$err" "cache: 0 hits"
printf '\1garbage' >"$pack"
same foreign
has foreign-note "$err" "cache ignored: not a cache keylint writes; written again"
: >"$pack"
same empty
has empty-note "$err" "cache ignored: not a cache keylint writes"
same empty-rewritten
has empty-rewritten-counts "$err" " 0 misses (0 entries ignored), 0 written"

# --- a configuration changes: its files are extracted again -------------------
cfg=fixtures/mixed-separator/.keylint.yml
[ -f "$cfg" ] || printf 'separator: "#"\n' >"$cfg"
same config-before
printf '\nkey-attributes:\n  pk: [ownerKey]\n' >>"$cfg"
same config-changed
lacks config-changed-counts "$err" " 0 misses"
same config-changed-warm
has config-changed-warm-counts "$err" " 0 misses"
printf 'separator: "|"\n' >.keylint.yml
same root-config
lacks root-config-counts "$err" " 0 misses"
rm .keylint.yml
same root-config-removed

# --- two runs at once --------------------------------------------------------
rm -rf "$cache"
"$keylint" --no-cache -f json . >"$tmp/want" 2>/dev/null
"$keylint" --cache -f json . >"$tmp/a" 2>/dev/null &
"$keylint" --cache -f json . >"$tmp/b" 2>/dev/null &
wait
cmp -s "$tmp/want" "$tmp/a" && cmp -s "$tmp/want" "$tmp/b" && ok ||
    bad "two runs at once: a report differs from the one without the cache"
same after-two-runs
has after-two-runs-counts "$err" " 0 misses (0 entries ignored)"
lacks no-temporary-files "$(ls -a "$cache")" ".tmp."

# --- deleted files: their entries pruned by a run over the whole project -------
before=$(entries)
rm fixtures/magic-string/reported.ts
same deleted
has deleted-counts "$err" "1 pruned"
[ "$(entries)" -eq $((before - 1)) ] && ok || bad "deleted: $(entries) entries, $before before"
# a run with --cache-dir (which may be shared) prunes nothing
before=$(entries)
printf '\nconst more = { pk: `MORE#${id}` };\n' >>fixtures/scan/client_class.ts
"$keylint" --stats --cache-dir "$cache" fixtures/scan >/dev/null 2>"$tmp/err"
has part-counts "$(cat "$tmp/err")" "0 pruned"
[ "$(entries)" -ge "$before" ] && ok || bad "a run with --cache-dir: $(entries) entries, $before before"

# --- --cache-dir, and a directory that cannot be made -------------------------
same cache-dir-cold --cache-dir "$tmp/elsewhere"
has cache-dir-cold-counts "$err" "cache: 0 hits"
same cache-dir-warm --cache-dir "$tmp/elsewhere"
has cache-dir-warm-counts "$err" " 0 misses"
: >"$tmp/a-file"
same unwritable --cache-dir "$tmp/a-file/cache"
has unwritable-note "$err" "note: cache directory cannot be made"
# with --cache (the default, named) a directory that cannot be made is a
# note; by default the run goes on in silence, and --stats says why
same unwritable-asked --cache --cache-dir "$tmp/a-file/cache"
has unwritable-asked-note "$err" "note: cache directory cannot be made"
rm -rf "$cache"
: >"$cache"
same unwritable-default
lacks unwritable-default-note "$err" "note: cache"
has unwritable-default-stats "$err" "keylint: cache: off ($cache cannot be made"
"$keylint" . 2>"$tmp/err" >/dev/null
[ ! -s "$tmp/err" ] && ok || bad "a cache that cannot be made: $(cat "$tmp/err")"
rm -f "$cache"
# the cache is on by default; --no-cache and KEYLINT_NO_CACHE win over
# --cache, which is accepted
"$keylint" . >/dev/null 2>&1
[ -f "$pack" ] && ok || bad "a run without options wrote no pack"
rm -rf "$cache"
"$keylint" --cache --no-cache . >/dev/null 2>&1
[ ! -e "$cache" ] && ok || bad "--no-cache made the cache directory"
KEYLINT_NO_CACHE=1 "$keylint" --cache . >/dev/null 2>&1
[ ! -e "$cache" ] && ok || bad "KEYLINT_NO_CACHE made the cache directory"
"$keylint" --cache . >/dev/null 2>&1
[ -f "$pack" ] && ok || bad "--cache wrote no pack"
# a path in no project (the temporary directory itself): no cache by
# default, none made there
lone=$(mktemp "${TMPDIR:-/tmp}/keylint-lone-XXXXXX.ts")
printf 'export const k = { pk: `USER#${id}`, sk: "A" };\n' >"$lone"
"$keylint" --stats "$lone" >/dev/null 2>"$tmp/err"
lacks lone-no-cache "$(cat "$tmp/err")" "keylint: cache:"
rm -f "$lone"

# --- the findings kept from the last run ---------------------------------------
# A run over an unchanged project reports the findings its last run kept,
# in any format and with any exit options; anything that changes them (a
# schema file, a template found, a configuration, a file added or removed,
# the rules selected) makes the run whole again. Each change is checked to
# change the report, so that a record served stale would fail.
fp=$tmp/fp
mkdir -p "$fp"
cp -R "$root/fixtures" "$fp/"
cd "$fp" || exit 1
cache=$fp/.keylint-cache
kept() { has "$1-kept" "$err" "the findings kept from the last run"; }
fresh() { lacks "$1-fresh" "$err" "the findings kept from the last run"; }
# changed NAME ARGS...: the report (same as without the cache) differs
# from the last one, and was not kept
last=
changed() {
    local name=$1
    shift
    same "$name" "$@"
    fresh "$name"
    if cmp -s "$tmp/got" "$tmp/last"; then bad "$name: the change did not change the report"; else ok; fi
    cp "$tmp/got" "$tmp/last"
}
same f-cold
fresh f-cold
cp "$tmp/got" "$tmp/last"
same f-warm
kept f-warm
for fmt in sarif concise; do
    same "f-$fmt" -f "$fmt"
    kept "f-$fmt"
done
for fmt in json github; do
    "$keylint" --no-cache -f "$fmt" . >"$tmp/want" 2>"$tmp/want-err"
    want_rc=$?
    "$keylint" --cache -f "$fmt" . >"$tmp/got-$fmt" 2>"$tmp/got-err"
    rc=$?
    # stderr's summary says how long the run took
    sed -i -E 's/; [0-9.]+ s\)/)/' "$tmp/want-err" "$tmp/got-err"
    cmp -s "$tmp/want" "$tmp/got-$fmt" && cmp -s "$tmp/want-err" "$tmp/got-err" &&
        [ "$rc" = "$want_rc" ] && ok || bad "f-$fmt: the report or its exit code differs"
done
same f-exit-zero --exit-zero
kept f-exit-zero
same f-fail-on --fail-on warning --max-warnings 0
kept f-fail-on
# the rules selected on the command line
same f-rule --rule magic-string=off
fresh f-rule
same f-rule-warm --rule magic-string=off
kept f-rule-warm
same f-rule-other --rule magic-string=warning
fresh f-rule-other
same f-back
fresh f-back
cp "$tmp/got" "$tmp/last"
# a schema file a configuration names
sed -i 's/IndexName: GSI1$/IndexName: GSI9/' fixtures/unknown-index/template.yaml
changed f-schema-edited
# a template found, not named: edited, then gone, then back
sed -i 's/AttributeName: pk, KeyType: HASH/AttributeName: nope, KeyType: HASH/' fixtures/schema-discovered/template.yaml
changed f-template-edited
mv fixtures/schema-discovered/template.yaml "$tmp/template.yaml"
changed f-template-gone
mv "$tmp/template.yaml" fixtures/schema-discovered/template.yaml
changed f-template-back
# a configuration
printf '\nrules:\n  magic-string: off\n' >>fixtures/magic-string/.keylint.yml
changed f-config-edited
# a file added, then removed
cp fixtures/magic-string/reported.ts fixtures/magic-string/reported_copy.ts
changed f-file-added
rm fixtures/magic-string/reported_copy.ts
changed f-file-removed
# a file edited
printf '\nconst edited = { pk: `EDITED#${id}`, sk: "META" }; // an edit\n' >>fixtures/magic-string/reported.ts
changed f-file-edited
same f-file-edited-warm
kept f-file-edited-warm
# the record damaged, cut short, of another keylint, foreign: a note, the
# run made whole, the record written again
rec=$cache/findings.pack
python3 - "$rec" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[-3] ^= 0x20
open(p, 'wb').write(b)
PY
same f-damaged
fresh f-damaged
has f-damaged-note "$err" "cache of the findings ignored: cut short or damaged; written again"
same f-damaged-rewritten
kept f-damaged-rewritten
truncate -s $(($(stat -c %s "$rec") / 2)) "$rec"
same f-cut
has f-cut-note "$err" "cache of the findings ignored: cut short or damaged"
sed -i '2s/keylint [^ ]*$/keylint 0.0.0-other/' "$rec"
same f-other
has f-other-note "$err" "cache of the findings ignored: written by another version of keylint"
printf 'garbage' >"$rec"
same f-foreign
has f-foreign-note "$err" "cache of the findings ignored: not a record keylint writes"
same f-foreign-rewritten
kept f-foreign-rewritten

# --- two builds of one commit -----------------------------------------------
# A build from a tree with uncommitted changes keys its entries by a hash of
# its binary too: another such build (the same binary with a byte more)
# reads none of them. A build of a commit shares them with every build of
# that commit.
rm -rf "$cache"
"$keylint" --stats . >/dev/null 2>&1
other=$tmp/keylint-other
cp "$keylint" "$other" && printf 'x' >>"$other" && chmod +x "$other"
err=$("$other" --stats . 2>&1 >/dev/null)
if head -c 200 "$cache/entries.pack" | grep -q -- '-dirty'; then
    has dirty-other-build "$err" "cache ignored: written by another version of keylint"
else
    lacks clean-other-build "$err" "written by another version"
fi

printf 'cache: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
