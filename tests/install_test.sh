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
         share/doc/keylint/usage.md share/doc/keylint/ci.md share/doc/keylint/editors.md \
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
    # an option's argument as --help writes it, optional ones too
    grep -qE '^ +--init \[DIR\]$' <<<"$page" && ok || bad "man page: no '--init [DIR]' entry"
    grep -qE '^ +--rule RULE=SEV$' <<<"$page" && ok || bad "man page: no '--rule RULE=SEV' entry"
fi

# bash: what a completion turns the line into, with the words split as bash
# splits them (COMP_WORDBREAKS: '=' and ':' are words of their own, so
# `--rule scan=o` reaches the function as `--rule scan = o`)
complete_line() { # LINE: each line bash would show after a TAB
    (cd "$dest/cwd" && bash --norc --noprofile -c '
        set -f
        source "$1"; line=$2
        COMP_LINE=$line COMP_POINT=${#line} COMP_WORDS=()
        for tok in $line; do
            while [[ -n $tok ]]; do
                [[ $tok =~ ^([=:]+|[^=:]+)(.*)$ ]]
                COMP_WORDS+=("${BASH_REMATCH[1]}")
                tok=${BASH_REMATCH[2]}
            done
        done
        [[ $line == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _keylint 2>/dev/null
        cw=${COMP_WORDS[COMP_CWORD]}
        for r in "${COMPREPLY[@]}"; do printf "%s\n" "${line:0:${#line}-${#cw}}$r"; done' \
        _ "$root/share/bash-completion/completions/keylint" "$1")
}
mkdir -p "$dest/cwd" && touch "$dest/cwd/report.json"
expect_line() { # LINE EXPECTED...: the completions, exactly
    local line=$1 got want
    shift
    got=$(complete_line "$line")
    want=$(printf '%s\n' "$@")
    [ "$got" = "$want" ] && ok || bad "bash: '$line' completes to: $got (expected: $want)"
}
out=$(complete_line "keylint --ex")
[[ $out == *"keylint --explain"* && $out == *"keylint --exit-zero"* ]] && ok || bad "bash: --ex gives: $out"
expect_line "keylint --format s" "keylint --format sarif"
expect_line "keylint --explain magic" "keylint --explain magic-string"
expect_line "keylint --rule magic-s" "keylint --rule magic-string="
expect_line "keylint --rule scan=o" "keylint --rule scan=off"
expect_line "keylint --rule scan=" "keylint --rule scan=off" "keylint --rule scan=warning" "keylint --rule scan=error"
expect_line "keylint --rule=scan=w" "keylint --rule=scan=warning"
expect_line "keylint --report sa" "keylint --report sarif="
expect_line "keylint --report json=rep" "keylint --report json=report.json"
expect_line "keylint --fail-on=w" "keylint --fail-on=warning"
expect_line "keylint ls" "keylint lsp"
expect_line "keylint lsp --v" "keylint lsp --verbose"
expect_line "keylint --baseline-prune rep" "keylint --baseline-prune report.json"

if command -v zsh >/dev/null; then
    zsh -n "$root/share/zsh/site-functions/_keylint" && ok || bad "zsh: the completion does not parse"
fi
if command -v fish >/dev/null; then
    fish -n "$root/share/fish/vendor_completions.d/keylint.fish" && ok || bad "fish: the completion does not parse"
fi

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
