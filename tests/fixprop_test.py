#!/usr/bin/env python3
"""Every fix keylint applies keeps the text of every key it evaluates.

usage: fixprop_test.py KEYLINT DIR...

Each DIR is copied to a temporary directory and linted as a project; for
every file that `--fix` would change, the keys keylint evaluates in it
(`--dump-ir FILE`: each key's role, attribute and text, constants and
helpers seen through) are read before and after `keylint --fix`, and must
be the same, in the same order. A second `--fix` must change nothing.
Prints one line per directory; exits 1 on any difference. Run on the
fixtures in the test suite, and on clones of real projects by hand or from
bench/ (it never writes to DIR itself)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

keylint = os.path.abspath(sys.argv[1])
dirs = sys.argv[2:]
KEY = re.compile(r'^key \d+:\d+ (\S+ \S+) \S+ (attr=\S+.*?) = (".*")$')


def keys_of(root, path):
    p = subprocess.run([keylint, '--dump-ir', path, '.'], cwd=root, capture_output=True,
                       text=True, timeout=600)
    out = []
    for line in p.stdout.splitlines():
        m = KEY.match(line)
        if m:
            # the role, site, attribute and text; not how it is written
            # (a literal becomes a constant) nor where
            desc = re.sub(r' (op=\d+|via=\S+)', '', m.group(2))
            out.append(f'{m.group(1)} {desc} = {m.group(3)}')
    return out


def fixed_files(root):
    p = subprocess.run([keylint, '--format', 'json', '.'], cwd=root, capture_output=True,
                       text=True, timeout=600)
    try:
        findings = json.loads(p.stdout)['findings']
    except (ValueError, KeyError):
        return None
    return sorted({f['path'] for f in findings
                   if f.get('edits') and f.get('applicability') == 'safe'})


def tree(d):
    got = {}
    for dirpath, dirnames, filenames in os.walk(d):
        dirnames[:] = [n for n in dirnames if n not in ('node_modules', '.git')]
        for n in filenames:
            path = os.path.join(dirpath, n)
            if os.path.islink(path) or not os.path.isfile(path):
                continue  # a symlink (dangling ones too) is not rewritten by --fix
            with open(path, 'rb') as f:
                got[path] = f.read()
    return got


bad = 0
for src in dirs:
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, 'p')
        shutil.copytree(src, root, symlinks=True,
                        ignore=shutil.ignore_patterns('node_modules', '.git'))
        files = fixed_files(root)
        if files is None:
            print(f'not ok - {src}: keylint printed no JSON report')
            bad += 1
            continue
        before = {f: keys_of(root, f) for f in files}
        subprocess.run([keylint, '--fix', '.'], cwd=root, capture_output=True, timeout=600)
        diffs = []
        for f in files:
            after = keys_of(root, f)
            if after != before[f]:
                gone = [k for k in before[f] if k not in after]
                new = [k for k in after if k not in before[f]]
                diffs.append(f'{f}: {gone[:3]} -> {new[:3]}')
        snapshot = tree(root)
        again = subprocess.run([keylint, '--fix', '.'], cwd=root, capture_output=True, text=True,
                               timeout=600)
        if tree(root) != snapshot:
            diffs.append('a second --fix changed files: ' + again.stderr.strip()[-200:])
        if diffs:
            bad += 1
            print(f'not ok - {src}: ' + '; '.join(diffs))
        else:
            print(f'ok - {src}: {len(files)} files fixed, {sum(len(v) for v in before.values())} '
                  f'keys unchanged')
sys.exit(1 if bad else 0)
