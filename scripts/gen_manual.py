#!/usr/bin/env python3
"""The man page and the shell completions, from what the built keylint says.

usage: gen_manual.py KIND KEYLINT OUTPUT
  KIND: man | bash | zsh | fish

Everything comes from `keylint --help` (the options and their
descriptions) and `keylint --list-rules` (rule ids for --explain and
--rule), so the manual and the completions cannot drift from the binary.
"""
import re
import subprocess
import sys


def run(keylint, *args):
    return subprocess.run([keylint, *args], capture_output=True, text=True, check=True).stdout


def parse_help(text):
    """(synopsis lines, [(short, long, arg, description)], trailing paragraphs)."""
    lines = text.splitlines()
    opts, cur = [], None
    head, tail, in_opts, after = [], [], False, False
    for line in lines:
        if line.strip() == "options:":
            in_opts = True
            continue
        if in_opts and not after:
            # "  -c, --config FILE   text" or "      --long ARG   text": an
            # option line is indented 2 (with a short form) or 6
            m = re.match(r"^  (?:(-\w), |    )(--[\w-]+)(?: (\[?[A-Z][A-Z=]*\]?))?(?:\s+(.*))?$", line)
            if m:
                cur = [m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip()]
                opts.append(cur)
                continue
            if line.startswith("      ") and line.strip() and cur is not None:
                cur[3] = (cur[3] + " " + line.strip()).strip()
                continue
            if not line.strip():
                after = True
                continue
        (tail if after else head).append(line)
    return head, opts, tail


def rules(keylint):
    return [l.split()[0] for l in run(keylint, "--list-rules").splitlines() if l.strip()]


def man(keylint, version):
    head, opts, tail = parse_help(run(keylint, "--help"))

    def esc(s):
        return s.replace("\\", "\\e").replace("-", "\\-").replace("'", "\\(aq")

    out = [f'.TH KEYLINT 1 "" "keylint {esc(version)}" "User Commands"',
           ".SH NAME", "keylint \\- static key\\-lint for DynamoDB single\\-table designs",
           ".SH SYNOPSIS", ".B keylint", "[\\fIoptions\\fR] [\\fIpaths\\fR...]", ".br",
           ".B keylint lsp", ".br", ".B keylint model", "[\\fIoptions\\fR] [\\fIpaths\\fR...]",
           ".SH DESCRIPTION"]
    body = [l for l in head if not l.startswith("usage:")]
    para = " ".join(l.strip() for l in body if l.strip())
    out.append(esc(para))
    out.append(".SH OPTIONS")
    for short, long_, arg, desc in opts:
        names = (f"\\fB{esc(short)}\\fR, " if short else "") + f"\\fB{esc(long_)}\\fR"
        if arg:
            names += f" \\fI{esc(arg)}\\fR"
        out += [".TP", names, esc(desc)]
    # the paragraphs after the options: suppression and exit status
    paras, cur = [], []
    for l in tail:
        if l.strip():
            cur.append(l)
        elif cur:
            paras.append(cur)
            cur = []
    if cur:
        paras.append(cur)
    for p in paras:
        if p[0].startswith("exit codes"):
            out += [".SH EXIT STATUS", esc(" ".join(x.strip() for x in p))]
        else:
            out += [".SH SUPPRESSION", ".nf"] + [esc(x) for x in p] + [".fi"]
    out += [".SH FILES", "\\fI.keylint.yml\\fR \\- the configuration of the files below it.",
            ".SH SEE ALSO", "The rule documentation (\\fBkeylint \\-\\-explain\\fR \\fIRULE\\fR), "
            "installed under \\fIshare/doc/keylint/rules\\fR."]
    return "\n".join(out) + "\n"


def long_opts(keylint):
    _, opts, _ = parse_help(run(keylint, "--help"))
    return opts


def lsp_options(keylint):
    """The options of `keylint lsp --help`."""
    return sorted(set(re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", run(keylint, "lsp", "--help"), re.M)))


def bash(keylint):
    opts = long_opts(keylint)
    words = " ".join(sorted({o[1] for o in opts} | {o[0] for o in opts if o[0]}))
    ids = " ".join(rules(keylint))
    lsp = " ".join(lsp_options(keylint))
    # bash splits the line at the characters of COMP_WORDBREAKS ('=' among
    # them): `--rule scan=of` reaches the function as `--rule scan = of`.
    # The function reads the word under the cursor from COMP_LINE instead,
    # whitespace-separated, and answers with what follows bash's own
    # current word, so that `=` works whatever COMP_WORDBREAKS holds.
    return f"""# bash completion for keylint (generated from keylint --help)
_keylint() {{
    local line=${{COMP_LINE:0:COMP_POINT}} token cur prev opt= word=${{COMP_WORDS[COMP_CWORD]}}
    local -a words reply
    read -r -a words <<<"$line"
    [[ $line == *[[:space:]] || -z $line ]] && words+=("")
    token=${{words[${{#words[@]}}-1]}}
    cur=$token
    prev=${{words[${{#words[@]}}-2]:-}}
    # `--option=value` is `--option value`
    if [[ $cur == --*=* ]]; then
        prev=${{cur%%=*}}
        opt=$prev=
        cur=${{cur#*=}}
    fi
    if [[ ${{words[1]:-}} == lsp && ${{#words[@]}} -gt 2 ]]; then
        reply=($(compgen -W "{lsp}" -- "$cur"))
    else
        case $prev in
            -f|--format) reply=($(compgen -W "text concise json sarif github" -- "$cur")) ;;
            --fail-on) reply=($(compgen -W "error warning" -- "$cur")) ;;
            --color) reply=($(compgen -W "auto always never" -- "$cur")) ;;
            --explain) reply=($(compgen -W "{ids}" -- "$cur")) ;;
            --rule)
                if [[ $cur == *=* ]]; then
                    reply=($(compgen -P "${{cur%%=*}}=" -W "off warning error" -- "${{cur#*=}}"))
                else
                    reply=($(compgen -S = -W "{ids}" -- "$cur"))
                fi ;;
            --report)
                if [[ $cur == *=* ]]; then
                    reply=($(compgen -P "${{cur%%=*}}=" -f -- "${{cur#*=}}"))
                else
                    reply=($(compgen -S = -W "json sarif text concise" -- "$cur"))
                fi ;;
            -j|--jobs|--max-warnings) reply=() ;;
            --init) reply=($(compgen -d -- "$cur")) ;;
            -c|--config|-o|--output|--baseline|--baseline-write|--baseline-prune|--dump-ir|--print-config|--stdin-filename)
                reply=($(compgen -f -- "$cur")) ;;
            *)
                if [[ $cur == -* ]]; then
                    reply=($(compgen -W "{words}" -- "$cur"))
                elif [[ ${{#words[@]}} -eq 2 ]]; then
                    reply=($(compgen -W "lsp" -- "$cur") $(compgen -f -- "$cur"))
                else
                    reply=($(compgen -f -- "$cur"))
                fi ;;
        esac
    fi
    # what bash replaces is its own current word, the end of the token
    # (`o` of `scan=o` when bash split at the '='): drop what comes before
    local drop=$(( ${{#token}} - ${{#word}} )) r full
    (( drop < 0 )) && drop=0
    COMPREPLY=()
    for r in "${{reply[@]}}"; do
        full=$opt$r
        COMPREPLY+=("${{full:$drop}}")
    done
    [[ ${{#reply[@]}} -eq 1 && ${{reply[0]}} == *= ]] && compopt -o nospace 2>/dev/null
    return 0
}}
complete -o filenames -F _keylint keylint
"""


def zsh(keylint):
    lines = ["#compdef keylint", "# zsh completion for keylint (generated from keylint --help)",
             "_arguments -s \\"]
    ids = " ".join(rules(keylint))
    values = {"--format": "(text concise json sarif github)", "--fail-on": "(error warning)",
              "--color": "(auto always never)", "--explain": f"({ids})"}
    for short, long_, arg, desc in long_opts(keylint):
        d = desc.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")
        d = d[:70]
        action = ""
        if arg:
            action = ":" + arg.lower() + ":" + (values.get(long_) or "_files")
        spec = f"'{long_}[{d}]{action}'"
        if short:
            spec = f"'({short} {long_})'{{{short},{long_}}}'[{d}]{action}'"
        lines.append(f"  {spec} \\")
    lines.append("  '*:path:_files'")
    return "\n".join(lines) + "\n"


def fish(keylint):
    out = ["# fish completion for keylint (generated from keylint --help)"]
    ids = " ".join(rules(keylint))
    values = {"--format": "text concise json sarif github", "--fail-on": "error warning",
              "--color": "auto always never", "--explain": ids}
    for short, long_, arg, desc in long_opts(keylint):
        d = desc.replace("'", "\\'")[:80]
        c = f"complete -c keylint -l {long_[2:]}"
        if short:
            c += f" -s {short[1:]}"
        if arg:
            c += " -r"
            if long_ in values:
                c += f" -f -a '{values[long_]}'"
        c += f" -d '{d}'"
        out.append(c)
    return "\n".join(out) + "\n"


def main():
    kind, keylint, output = sys.argv[1:4]
    version = run(keylint, "--version").split()[-1]
    text = {"man": lambda: man(keylint, version), "bash": lambda: bash(keylint),
            "zsh": lambda: zsh(keylint), "fish": lambda: fish(keylint)}[kind]()
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
