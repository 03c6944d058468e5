#!/usr/bin/env bash
# One version everywhere a release names it: meson.build's project version
# is what `keylint --version` prints, the version of the three npm packages
# (npm/*/package.json), of the launcher's optional dependencies on the
# binary packages, and of the pre-commit hook's package.json; a release is
# tagged vVERSION (docs/releasing.md).
# Usage: version_test.sh KEYLINT SOURCE_ROOT
set -u
keylint=$1
root=$2
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

version=$(sed -n "s/^  version: '\([^']*\)',$/\1/p" "$root/meson.build" | head -n 1)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && ok || bad "meson.build: no X.Y.Z version: '$version'"
got=$("$keylint" --version)
[ "$got" = "keylint $version" ] && ok || bad "--version says '$got', meson.build $version"
check() { # FILE: its version and the versions of its @keylint/* dependencies
    python3 - "$1" "$version" <<'EOF_PY'
import json, sys
path, want = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
bad = [] if doc.get("version") == want else [f"version {doc.get('version')}"]
for section in ("dependencies", "optionalDependencies"):
    for name, spec in doc.get(section, {}).items():
        if name.startswith("@keylint/") or name == "keylint":
            if spec != want:
                bad.append(f"{section} {name} {spec}")
if bad:
    print(f"{path}: {', '.join(bad)}, not {want}")
    sys.exit(1)
EOF_PY
}
for f in npm/keylint/package.json npm/linux-x64/package.json npm/linux-arm64/package.json package.json; do
    msg=$(check "$root/$f") && ok || bad "$msg"
done
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["optionalDependencies"]))' \
        "$root/npm/keylint/package.json")
[ "$n" -eq 2 ] && ok || bad "npm/keylint/package.json: $n optional dependencies, expected the 2 platforms"
# the release process the tags follow is written down
grep -q "git tag -a v$version\|git tag -a vX.Y.Z" "$root/docs/releasing.md" && ok ||
    bad "docs/releasing.md does not say how a release is tagged"
# a tag of this commit, if there is one, is this version
if tags=$(git -C "$root" tag --points-at HEAD 2>/dev/null); then
    for t in $tags; do
        [[ $t != v* || $t == "v$version" ]] && ok || bad "tag $t on HEAD, but the version is $version"
    done
fi

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
