#!/usr/bin/env python3
"""A suppression on every reported line removes that finding.

For each directory under FIXTURES (each a small project), a copy in a
temporary directory is linted; then `// keylint-disable-line RULE[, RULE]`
is written at the end of every line of a source file that has findings
(the rules found there; as a block comment before the line's own
`// expect:` comment when it has one), the copy is linted again, and none of those
findings may remain. Findings in YAML and JSON files (schema files,
configurations) take no inline suppression and are left out.

Usage: suppress_every_line.py KEYLINT FIXTURES
Prints each finding that stays and exits 1 when there is one.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE = ('.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts')


def findings(keylint, root):
    out = subprocess.run([keylint, '--format', 'json', '.'], cwd=root, capture_output=True,
                         text=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit(f'{root}: keylint exited {out.returncode}: {out.stderr}')
    return [f for f in json.loads(out.stdout)['findings'] if f['rule'] != 'suppression']


def main():
    keylint, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
    bad = 0
    cases = 0
    for name in sorted(os.listdir(fixtures)):
        src = os.path.join(fixtures, name)
        if not os.path.isdir(src):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, name)
            shutil.copytree(src, root)
            lines = {}  # path -> line -> rules
            for f in findings(keylint, root):
                if f['path'].endswith(SOURCE):
                    lines.setdefault(f['path'], {}).setdefault(f['line'], set()).add(f['rule'])
            for path, by_line in lines.items():
                with open(os.path.join(root, path), encoding='utf-8', newline='') as h:
                    text = h.read().split('\n')
                for line, rules in by_line.items():
                    cases += len(rules)
                    end = text[line - 1].rstrip('\r')
                    cr = '\r' if text[line - 1].endswith('\r') else ''
                    directive = f"keylint-disable-line {', '.join(sorted(rules))}"
                    mark = end.find('// expect:')
                    if mark >= 0:  # before the fixture's own comment, as a block comment
                        end = f'{end[:mark]}/* {directive} */ {end[mark:]}'
                    else:
                        end = f'{end} // {directive}'
                    text[line - 1] = end + cr
                with open(os.path.join(root, path), 'w', encoding='utf-8', newline='') as h:
                    h.write('\n'.join(text))
            for f in findings(keylint, root):
                if f['rule'] in lines.get(f['path'], {}).get(f['line'], ()):
                    print(f"{name}/{f['path']}:{f['line']}: [{f['rule']}] stays after "
                          f"keylint-disable-line on its line: {f['message']}")
                    bad += 1
    if not cases:
        sys.exit('no findings to suppress: the fixtures were not read')
    print(f'{cases} findings suppressed on their line, {bad} stayed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
