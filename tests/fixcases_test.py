#!/usr/bin/env python3
"""Fixes that keep what the program does, proven on small services.

usage: fixcases_test.py KEYLINT SOURCE_ROOT

Each case is a small service: src/service.ts exports run(id), which
builds keys and calls the AWS SDK (stubbed here: the stub records every
request). The cases are tests/fixcases/* (with an `expect` file: how many
safe and unsafe fixes keylint must make) and, when it is beside the
repository, ../shared/robust/fix-cases/* (expected counts below). For each:

  - `keylint --fix` makes exactly the expected safe fixes; then, with
    TypeScript (node_modules/typescript, installed by `scripts/setup
    --with-test-tools`), the service type-checks with no error it did not
    have before, and run('ID') sends exactly the same requests;
  - `--fix-dry-run` prints a diff that `git apply` takes and that makes
    exactly what `--fix` wrote; a second `--fix` changes nothing;
  - the language server's source.fixAll.keylint makes the same edits;
  - `--fix --unsafe-fixes` makes the safe and unsafe fixes, and the
    service still type-checks and runs.

Exit 77 (skipped) when node or TypeScript is missing."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

keylint, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
ts_dir = os.path.join(root, 'node_modules')
if not shutil.which('node') or not os.path.isdir(os.path.join(ts_dir, 'typescript')):
    print('skipped: node or node_modules/typescript missing (scripts/setup --with-test-tools)')
    sys.exit(77)

# The shared cases (../shared/robust/fix-cases): (safe, unsafe) fixes.
SHARED = {
    # f-backslash-dir: a directory named `a\\b`, which TypeScript cannot
    # import (it reads the backslash as a separator): no fix
    'commented-import': (1, 0), 'f-bom': (1, 0),
    'f-crlf': (1, 0), 'f-nodenext': (1, 0), 'f-quote-dir': (1, 0),
    'import-after-code': (1, 0), 'import-then-block-comment': (1, 0),
    'import-then-string-cont': (1, 0), 'import-then-template': (1, 0),
    'v-shorthand-blockcomment': (0, 1), 'v-shorthand-comment': (0, 1),
}

STUBS = {
    '@aws-sdk/lib-dynamodb': (
        ''.join(f'exports.{c} = class {{ constructor(input) {{ this.input = input; '
                f'this.command = "{c}"; }} }};\n'
                for c in ('GetCommand', 'PutCommand', 'QueryCommand', 'UpdateCommand',
                          'DeleteCommand', 'ScanCommand', 'BatchGetCommand', 'BatchWriteCommand',
                          'TransactGetCommand', 'TransactWriteCommand'))
        + 'exports.DynamoDBDocumentClient = { from() { return { send(c) {\n'
          '  globalThis.__keylintKeys.push({ command: c.command, input: c.input });\n'
          '  return Promise.resolve({}); } }; } };\n',
        ['GetCommand', 'PutCommand', 'QueryCommand', 'UpdateCommand', 'DeleteCommand',
         'ScanCommand', 'BatchGetCommand', 'BatchWriteCommand', 'TransactGetCommand',
         'TransactWriteCommand', 'DynamoDBDocumentClient']),
    '@aws-sdk/client-dynamodb': ('exports.DynamoDBClient = class {};\n', ['DynamoDBClient']),
    '@mbc-cqrs-serverless/core': (
        'exports.DataService = class { getItem(k) {\n'
        '  globalThis.__keylintKeys.push({ command: "getItem", input: k });\n'
        '  return Promise.resolve({}); } };\n'
        'exports.addSortKeyVersion = (sk, v) => `${sk}@${v}`;\n'
        'exports.removeSortKeyVersion = (sk) => String(sk).replace(/@\\d+$/, "");\n'
        'exports.KEY_SEPARATOR = "#";\nexports.VER_SEPARATOR = "@";\n',
        ['DataService', 'addSortKeyVersion', 'removeSortKeyVersion', 'KEY_SEPARATOR',
         'VER_SEPARATOR']),
}

failures = []


def fail(case, what):
    failures.append(f'{case}: {what}')
    print(f'not ok - {case}: {what}')


def stub(d):
    for pkg, (js, names) in STUBS.items():
        p = os.path.join(d, 'node_modules', *pkg.split('/'))
        os.makedirs(p, exist_ok=True)
        with open(os.path.join(p, 'package.json'), 'w') as f:
            json.dump({'name': pkg, 'version': '0.0.0', 'main': 'index.js', 'types': 'index.d.ts'}, f)
        with open(os.path.join(p, 'index.js'), 'w') as f:
            f.write(js)
        with open(os.path.join(p, 'index.d.ts'), 'w') as f:
            f.write(''.join(f'export declare const {n}: any;\n' for n in names))


def copy(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    for dirpath, dirnames, filenames in os.walk(dst):  # the shared cases are read-only
        for n in dirnames + filenames:
            os.chmod(os.path.join(dirpath, n), 0o755 if n in dirnames else 0o644)
    os.chmod(dst, 0o755)
    stub(dst)


def tree(d):
    """Every file under d (but node_modules and out) with its bytes."""
    got = {}
    for dirpath, dirnames, filenames in os.walk(d):
        dirnames[:] = [n for n in dirnames if n not in ('node_modules', 'out')]
        for n in filenames:
            p = os.path.join(dirpath, n)
            with open(p, 'rb') as f:
                got[os.path.relpath(p, d)] = f.read()
    return got


def keylint_run(d, *args):
    return subprocess.run([keylint, *args, '.'], cwd=d, capture_output=True, timeout=120)


def applied(p):
    m = re.search(rb'(?:applied|would apply) (\d+) fix', p.stderr)
    return int(m.group(1)) if m else 0


def run_services(dirs):
    """fixcases_run.js over every directory at once (TypeScript loads once)."""
    if not dirs:
        return {}
    p = subprocess.run(['node', os.path.join(here, 'fixcases_run.js'), ts_dir, *dirs],
                       capture_output=True, timeout=900, text=True)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != len(dirs):
        sys.exit('fixcases_run.js failed: ' + p.stderr.strip()[:2000])
    return {d: json.loads(l) for d, l in zip(dirs, lines)}


def lsp_fix_all(d):
    """source.fixAll.keylint on every source file, the edits applied."""
    proc = subprocess.Popen([keylint, 'lsp'], cwd=d, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)

    def send(msg):
        body = json.dumps(msg).encode()
        proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        proc.stdin.flush()

    def recv(want_id):
        while True:
            length = 0
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError('the server closed its output')
                if line in (b'\r\n', b'\n'):
                    break
                if line.lower().startswith(b'content-length:'):
                    length = int(line.split(b':')[1])
            msg = json.loads(proc.stdout.read(length))
            if msg.get('id') == want_id and 'method' not in msg:
                return msg

    uri = lambda p: 'file://' + p
    send({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
          'params': {'processId': None, 'rootUri': uri(d), 'capabilities': {}}})
    recv(1)
    send({'jsonrpc': '2.0', 'method': 'initialized', 'params': {}})
    files = sorted(p for p in tree(d) if p.endswith('.ts') and not p.endswith('.d.ts'))
    texts = {}
    for i, rel in enumerate(files):
        with open(os.path.join(d, rel), 'rb') as f:
            texts[rel] = f.read().decode('utf-8')
        send({'jsonrpc': '2.0', 'method': 'textDocument/didOpen',
              'params': {'textDocument': {'uri': uri(os.path.join(d, rel)), 'languageId': 'typescript',
                                          'version': 1, 'text': texts[rel]}}})
    for i, rel in enumerate(files):
        send({'jsonrpc': '2.0', 'id': 10 + i, 'method': 'textDocument/codeAction',
              'params': {'textDocument': {'uri': uri(os.path.join(d, rel))},
                         'range': {'start': {'line': 0, 'character': 0},
                                   'end': {'line': 0, 'character': 0}},
                         'context': {'diagnostics': [], 'only': ['source.fixAll.keylint']}}})
        res = recv(10 + i).get('result') or []
        for act in res:
            edits = act['edit']['changes'].get(uri(os.path.join(d, rel)), [])
            texts[rel] = apply_lsp_edits(texts[rel], edits)
            with open(os.path.join(d, rel), 'wb') as f:
                f.write(texts[rel].encode('utf-8'))
    send({'jsonrpc': '2.0', 'id': 999, 'method': 'shutdown'})
    recv(999)
    send({'jsonrpc': '2.0', 'method': 'exit'})
    proc.stdin.close()
    proc.wait(timeout=30)


def offset(text, pos):
    """A UTF-16 position (the server's default encoding) as an index of text."""
    lines = text.split('\n')
    before = sum(len(l) + 1 for l in lines[:pos['line']])
    line, units, i = lines[pos['line']] if pos['line'] < len(lines) else '', 0, 0
    while i < len(line) and units < pos['character']:
        units += 2 if ord(line[i]) > 0xFFFF else 1
        i += 1
    return before + i


def apply_lsp_edits(text, edits):
    spans = sorted(((offset(text, e['range']['start']), offset(text, e['range']['end']), e['newText'])
                    for e in edits), reverse=True)
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


def prepare(case, src, safe, unsafe, tmp):
    """The keylint half of a case: fix its copies, check what keylint
    itself promises; returns what the service runs must show."""
    dirs = {k: os.path.join(tmp, k) for k in ('before', 'fix', 'dry', 'lsp', 'unsafe')}
    for d in dirs.values():
        copy(src, d)
    p = keylint_run(dirs['fix'], '--fix')
    if applied(p) != safe:
        fail(case, f'--fix applied {applied(p)} fixes, {safe} expected: {p.stderr.decode()[-400:]}')
    fixed = tree(dirs['fix'])

    again = keylint_run(dirs['fix'], '--fix')
    if applied(again) or tree(dirs['fix']) != fixed:
        fail(case, 'a second --fix changed the files again')

    dry = keylint_run(dirs['dry'], '--fix-dry-run')
    if applied(dry) != safe or dry.returncode != (1 if safe else 0):
        fail(case, f'--fix-dry-run: {applied(dry)} fixes, exit {dry.returncode}')
    if dry.stdout:
        patch = os.path.join(tmp, 'fix.diff')
        with open(patch, 'wb') as f:
            f.write(dry.stdout)
        g = subprocess.run(['git', 'apply', '-p1', patch], cwd=dirs['dry'], capture_output=True)
        if g.returncode != 0:
            fail(case, f'git apply rejects the --fix-dry-run diff: {g.stderr.decode()[:300]}')
    if tree(dirs['dry']) != fixed:
        fail(case, '--fix-dry-run and --fix make different files')

    try:
        lsp_fix_all(dirs['lsp'])
        if tree(dirs['lsp']) != fixed:
            fail(case, "the language server's fix-all and --fix make different files")
    except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
        fail(case, f'language server: {e}')

    p = keylint_run(dirs['unsafe'], '--fix', '--unsafe-fixes')
    if applied(p) != safe + unsafe:
        fail(case, f'--fix --unsafe-fixes applied {applied(p)}, {safe + unsafe} expected')
    return dirs


def judge(case, dirs, runs, safe, unsafe):
    """The service half: the same requests after the safe fixes, no new
    TypeScript error after any."""
    before, after, u = runs[dirs['before']], runs[dirs['fix']], runs[dirs['unsafe']]
    if before.get('error'):
        fail(case, f'the service does not run before any fix: {before["error"]}')
        return
    if after['keys'] != before['keys'] or after['error']:
        fail(case, f'--fix changed what run() sends: {before["keys"]} -> {after["keys"]} '
                   f'{after["error"] or ""}')
    for name, r in (('--fix', after), ('--fix --unsafe-fixes', u)):
        new = [e for e in r['diagnostics'] if r['diagnostics'].count(e) > before['diagnostics'].count(e)]
        if new:
            fail(case, f'{name} added TypeScript errors: {sorted(set(new))}')
    if u['error'] or len(u['keys']) != len(before['keys']):
        fail(case, f'--unsafe-fixes broke the service: {u["error"]}')
    if not [f for f in failures if f.startswith(case + ':')]:
        print(f'ok - {case} ({safe} safe, {unsafe} unsafe fixes)')


def expected(path):
    safe = unsafe = 0
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(' ')
            if k == 'safe':
                safe = int(v)
            elif k == 'unsafe':
                unsafe = int(v)
    return safe, unsafe


cases = []
own = os.path.join(root, 'tests', 'fixcases')
for name in sorted(os.listdir(own)):
    d = os.path.join(own, name)
    if os.path.isfile(os.path.join(d, 'expect')):
        cases.append((name, d, *expected(os.path.join(d, 'expect'))))
shared = os.path.join(os.path.dirname(root), 'shared', 'robust', 'fix-cases')
if os.path.isdir(shared):
    for name in sorted(os.listdir(shared)):
        if os.path.isdir(os.path.join(shared, name)):
            cases.append(('shared/' + name, os.path.join(shared, name), *SHARED.get(name, (0, 0))))
else:
    print(f'note: {shared} is not there; its cases were not run')
with tempfile.TemporaryDirectory() as tmp:
    prepared = []
    for i, (case, src, safe, unsafe) in enumerate(cases):
        prepared.append(prepare(case, src, safe, unsafe, os.path.join(tmp, str(i))))
    runs = run_services([d[k] for d in prepared for k in ('before', 'fix', 'unsafe')])
    for (case, src, safe, unsafe), dirs in zip(cases, prepared):
        judge(case, dirs, runs, safe, unsafe)
print(f'{len(cases)} cases, {len(failures)} failures')
sys.exit(1 if failures or not cases else 0)
