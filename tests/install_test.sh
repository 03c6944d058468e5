#!/usr/bin/env bash
# `meson install` into a scratch directory: the binary, the rule docs, the
# man page and the completions land where they belong, and each works:
# the man page renders, bash completes options and rule ids, the other
# shells' files parse (when the shell is installed).
# usage: install_test.sh BUILD_DIR
set -u
build=${1:?build directory}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

meson install -C "$build" --destdir "$dest" --no-rebuild >"$dest/install.log" 2>&1 ||
    { cat "$dest/install.log" >&2; bad "meson install failed"; }
prefix=$(meson introspect "$build" --buildoptions |
         python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
root=$dest$prefix

for f in bin/keylint share/man/man1/keylint.1 share/bash-completion/completions/keylint \
         share/zsh/site-functions/_keylint share/fish/vendor_completions.d/keylint.fish \
         share/doc/keylint/rules/magic-string.md share/doc/keylint/references.md \
         share/doc/keylint/LICENSE; do
    [ -s "$root/$f" ] && ok || bad "not installed: $f"
done
n=$(ls "$root/share/doc/keylint/rules" | wc -l)
rules=$("$root/bin/keylint" --list-rules | wc -l)
[ "$n" -eq "$rules" ] && ok || bad "$n rule docs installed for $rules rules"

# the man page: every option of --help, rendered without complaint
if command -v man >/dev/null; then
    page=$(MANWIDTH=100 man -l "$root/share/man/man1/keylint.1" 2>"$dest/man.err")
    [ -s "$dest/man.err" ] && bad "man: $(cat "$dest/man.err")" || ok
    for opt in $("$root/bin/keylint" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
        [[ $page == *"$opt"* ]] && ok || bad "man page lacks $opt"
    done
    [[ $page == *"EXIT STATUS"* ]] && ok || bad "man page lacks EXIT STATUS"
fi

# bash: complete options, formats and rule ids
complete_words() { # LINE: what bash would offer after LINE
    bash --norc --noprofile -c '
        source "$1"; shift
        read -r -a COMP_WORDS <<<"$*"
        [[ $* == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _keylint
        printf "%s\n" "${COMPREPLY[@]}"' _ "$root/share/bash-completion/completions/keylint" "$@"
}
out=$(complete_words "keylint --ex")
[[ $out == *"--explain"* && $out == *"--exit-zero"* ]] && ok || bad "bash: --ex gives: $out"
out=$(complete_words "keylint --format s")
[[ $out == "sarif" ]] && ok || bad "bash: --format s gives: $out"
out=$(complete_words "keylint --explain magic")
[[ $out == "magic-string" ]] && ok || bad "bash: --explain magic gives: $out"
out=$(complete_words "keylint --rule scan=o")
[[ $out == "scan=off" ]] && ok || bad "bash: --rule scan=o gives: $out"

if command -v zsh >/dev/null; then
    zsh -n "$root/share/zsh/site-functions/_keylint" && ok || bad "zsh: the completion does not parse"
fi
if command -v fish >/dev/null; then
    fish -n "$root/share/fish/vendor_completions.d/keylint.fish" && ok || bad "fish: the completion does not parse"
fi

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
