#!/usr/bin/env python3
"""One answer per file: a file's findings do not depend on how keylint is
called.

For every source file under the directories given, the findings keylint
reports on that file are compared, field by field (rule, severity,
message, range, suggestion, edits, fingerprint), between:

  - a run over its project (the reference: `keylint ROOT`, where ROOT is
    the project keylint reads around a named file: the git work tree, else
    the directory of the nearest .keylint.yml, else that of the nearest
    package.json, else the file's directory),
  - the same run with --no-precheck, with -j1 and with -j2,
  - the file named alone (`keylint FILE`), with --changed (`keylint
    --changed FILE`), and on standard input (`keylint --stdin-filename FILE
    - < FILE`),
  - every file of the project named at once (once more under a second
    spelling: reported once), and the files of all projects named at once
    (each in its own project),
  - the language server: `keylint lsp` in a workspace rooted at the
    project, the file opened (didOpen) and its published diagnostics
    (range, code, severity, message) compared with the reference; without
    the cache between runs, then with it (initializationOptions.cacheDir,
    a directory of its own): cold (empty: the server parses every file
    and writes the cache), and warm (filled by the command line's run
    over the project with --cache-dir: the server reads the entries and
    parses only the documents opened).

Usage: one_answer.py --keylint BIN [--copy] [--git] [--sample N]
                     [--no-lsp] DIR...

  --copy     lint a copy of each DIR made in a temporary directory (outside
             any git work tree: each project is then the directory of its
             nearest .keylint.yml or package.json, or a file's own
             directory)
  --git      with --copy, also make each copied DIR a git work tree of its
             own and run everything again there (one project per DIR)
  --sample N the per-file runs on at most N files of each project: those
             with findings first, then others in a fixed order (the runs
             over the project and the language server cover every file)

Prints each difference and exits 1 when there is one; 0 when every file
has one answer. In the test suite it runs over fixtures/ and tests/
(--copy --git); bench/one_answer.sh runs it over a directory of checkouts.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

SOURCE_EXT = ('.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs')
DECL_EXT = ('.d.ts', '.d.mts', '.d.cts')
# the directories keylint's walk skips (linter/source/walk.c)
SKIP_DIRS = {'node_modules', '.git', 'dist', 'build', 'out', 'coverage', 'cdk.out',
             '.serverless', '.aws-sam', '.next', '.terraform', '.keylint-cache', '.yarn'}
CONFIG_NAMES = ('.keylint.yml', 'keylint.yml')


def is_source(path):
    base = os.path.basename(path)
    return base.endswith(SOURCE_EXT) and not base.endswith(DECL_EXT) and \
        not any(base == e for e in SOURCE_EXT)


def git_top(path):
    """The nearest directory upward holding a .git entry, or None."""
    cur = path
    while True:
        if os.path.lexists(os.path.join(cur, '.git')):
            return cur
        up = os.path.dirname(cur)
        if up == cur:
            return None
        cur = up


def too_wide(d):
    wide = ['/', os.environ.get('HOME'), os.environ.get('TMPDIR'), '/tmp', '/var/tmp']
    return any(w and os.path.exists(w) and os.path.realpath(w) == d for w in wide)


def project_root(path):
    """What keylint reads around a named file (project_root_of): None when
    it is linted alone."""
    d = os.path.dirname(os.path.realpath(path))
    top = git_top(d)
    if top:
        return top
    for names in (CONFIG_NAMES, ('package.json',)):
        cur = d
        while True:
            if any(os.path.isfile(os.path.join(cur, n)) for n in names):
                return cur
            up = os.path.dirname(cur)
            if up == cur:
                break
            cur = up
    return None if too_wide(d) else d


def source_files(top):
    """The source files keylint lists under `top` (absolute, real paths)."""
    top = os.path.realpath(top)
    if git_top(top):
        out = subprocess.run(['git', '-C', top, 'ls-files', '-z', '--cached', '--others',
                              '--exclude-standard', '--', '.'],
                             capture_output=True, check=True).stdout
        rels = [r for r in out.decode('utf-8', 'surrogateescape').split('\0') if r]
        files = []
        for rel in rels:
            if not is_source(rel) or any(c in SKIP_DIRS for c in rel.split('/')[:-1]):
                continue
            p = os.path.join(top, rel)
            if os.path.isfile(p) and not os.path.islink(p):
                files.append(p)
        return sorted(set(files))
    files = []
    for d, dirs, names in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for n in names:
            p = os.path.join(d, n)
            if is_source(n) and os.path.isfile(p) and not os.path.islink(p):
                files.append(p)
    return sorted(files)


class Keylint:
    def __init__(self, binary, timeout, extra=()):
        self.binary = binary
        self.timeout = timeout
        self.extra = list(extra)
        self.runs = 0
        self.seconds = 0.0

    def json(self, args, cwd, stdin=None):
        """Run keylint -f json; returns (findings by absolute path, problems)."""
        t0 = time.monotonic()
        r = subprocess.run([self.binary, '-f', 'json', '--color', 'never'] + self.extra + args,
                           cwd=cwd,
                           input=stdin, capture_output=True, timeout=self.timeout)
        self.runs += 1
        self.seconds += time.monotonic() - t0
        if r.returncode not in (0, 1, 2) or not r.stdout.strip():
            raise RuntimeError('keylint %s (in %s) exited %d: %s' % (
                ' '.join(args), cwd, r.returncode, r.stderr.decode(errors='replace')[-2000:]))
        doc = json.loads(r.stdout)
        by_path, problems = {}, {}
        for f in doc['findings']:
            p = os.path.normpath(os.path.join(cwd, f['path']))
            by_path.setdefault(p, []).append(cli_key(f))
        for q in doc.get('problems', []):
            if q['path']:
                p = os.path.normpath(os.path.join(cwd, q['path']))
                problems.setdefault(p, []).append((q['line'], q['level'], q['message']))
        for v in list(by_path.values()) + list(problems.values()):
            v.sort()
        return by_path, problems


def cli_key(f):
    edits = tuple((e['line'], e['column'], e['endLine'], e['endColumn'], e['replacement'])
                  for e in f.get('edits', []))
    return (f['line'], f['column'], f['endLine'], f['endColumn'], f['rule'], f['severity'],
            f['message'], f.get('fix'), edits, f.get('applicability'), f.get('fingerprint'))


def lsp_key(f):
    """What the language server shows of a CLI finding."""
    line, col, eline, ecol, rule, sev, msg, fix = f[:8]
    return (line, col, eline, ecol, rule, sev, msg + ('\nhelp: ' + fix if fix else ''))


def utf16_to_col(text_line, units):
    """1-based character column of UTF-16 offset `units` in a line."""
    n = 0
    col = 0
    for ch in text_line:
        if n >= units:
            break
        n += 2 if ord(ch) > 0xFFFF else 1
        col += 1
    return col + 1


class Lsp:
    """A minimal language client over stdio."""

    def __init__(self, binary, root, timeout, cache_dir=None):
        self.timeout = timeout
        env = dict(os.environ)
        if cache_dir:  # the test suite sets KEYLINT_NO_CACHE
            env.pop('KEYLINT_NO_CACHE', None)
        self.proc = subprocess.Popen([binary, 'lsp'], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=root, env=env)
        self.next_id = 0
        self.pending = []
        uri = path_uri(root)
        init = {'processId': os.getpid(), 'rootUri': uri,
                'workspaceFolders': [{'uri': uri, 'name': os.path.basename(root)}],
                'capabilities': {}}
        if cache_dir:
            init['initializationOptions'] = {'cacheDir': cache_dir}
        self.request('initialize', init)
        self.notify('initialized', {})

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        headers = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError('the language server closed its output')
            line = line.strip()
            if not line:
                break
            k, _, v = line.decode().partition(':')
            headers[k.strip().lower()] = v.strip()
        return json.loads(self.proc.stdout.read(int(headers['content-length'])))

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.send({'jsonrpc': '2.0', 'id': rid, 'method': method, 'params': params})
        while True:
            m = self.read()
            if m.get('id') == rid and 'method' not in m:
                return m.get('result')
            self.answer(m)

    def answer(self, m):
        if 'id' in m and 'method' in m:  # a request of the server's
            self.send({'jsonrpc': '2.0', 'id': m['id'], 'result': None})
        else:
            self.pending.append(m)

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def diagnostics_of(self, path, text):
        """Open `path` with `text`, return its published diagnostics, close it."""
        uri = path_uri(path)
        self.pending = [m for m in self.pending if not published_for(m, uri)]
        self.notify('textDocument/didOpen', {'textDocument': {
            'uri': uri, 'languageId': 'typescript', 'version': 1, 'text': text}})
        # a hover is answered after the analysis of what came before it,
        # and its diagnostics published: none when there is nothing to say
        self.request('textDocument/hover', {'textDocument': {'uri': uri},
                                            'position': {'line': 0, 'character': 0}})
        got = []
        for m in self.pending:
            if published_for(m, uri):
                got = m['params']['diagnostics']
        self.notify('textDocument/didClose', {'textDocument': {'uri': uri}})
        self.pending = []
        lines = text.split('\n')
        out = []
        for d in got:
            r = d['range']
            sl, el = r['start']['line'], r['end']['line']
            out.append((sl + 1, utf16_to_col(lines[sl] if sl < len(lines) else '',
                                            r['start']['character']),
                        el + 1, utf16_to_col(lines[el] if el < len(lines) else '',
                                            r['end']['character']),
                        d.get('code'),
                        {1: 'error', 2: 'warning', 3: 'note'}.get(d.get('severity')),
                        d.get('message')))
        return sorted(out)

    def close(self):
        try:
            self.request('shutdown', None)
            self.notify('exit', None)
            self.proc.stdin.close()
            self.proc.wait(timeout=self.timeout)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def published_for(m, uri):
    return m.get('method') == 'textDocument/publishDiagnostics' and \
        m['params']['uri'] == uri


def path_uri(path):
    return 'file://' + urllib.parse.quote(path)


class Checker:
    def __init__(self, kl, args, out):
        self.kl = kl
        self.args = args
        self.out = out  # a directory outside every project
        self.differences = []
        self.files = 0

    def differ(self, path, how, want, got):
        want, got = list(want), list(got)
        missing = [x for x in want if x not in got or want.count(x) > got.count(x)]
        extra = [x for x in got if x not in want or got.count(x) > want.count(x)]
        lines = ['%s [%s]: the reference has %d finding(s), this way %d' % (
            path, how, len(want), len(got))]
        for tag, xs in (('missing', missing), ('extra', extra)):
            for x in sorted(set(xs)):
                lines.append('  %s: %d:%d-%d:%d %s [%s] %s' % (
                    tag, x[0], x[1], x[2], x[3], x[5], x[4], x[6].replace('\n', ' | ')))
                if len(x) > 7:
                    lines.append('      fix %r edits %r %s fingerprint %s' % x[7:])
        self.differences.append('\n'.join(lines))
        print(self.differences[-1], flush=True)

    def compare(self, ref, got, files, how):
        for f in files:
            if ref.get(f, []) != got.get(f, []):
                self.differ(f, how, ref.get(f, []), got.get(f, []))
        for f in got:  # findings on files that were not named
            if f not in files and got[f]:
                self.differ(f, how + ', a file not named', [], got[f])

    def compare_problems(self, ref, got, files, how):
        """Notes and input errors: a file named is always parsed, so its
        problems are those of a run without the pre-check."""
        for f in files:
            if ref.get(f, []) != got.get(f, []):
                lines = ['%s [%s, problems]: the reference has %r, this way %r' % (
                    f, how, ref.get(f, []), got.get(f, []))]
                self.differences.append('\n'.join(lines))
                print(self.differences[-1], flush=True)

    def project(self, root, files):
        """Check the files of one project; returns its reference findings as
        a run from outside the project (self.out) shows them."""
        kl, rel = self.kl, lambda f: os.path.relpath(f, root)
        self.files += len(files)
        ref, ref_pr = kl.json(['-j2', '.'], root)
        for f in ref:  # the walk and this script list the same files
            if f not in files and is_source(f) and project_root(f) == root:
                self.differ(f, 'a file the script does not list', [], ref[f])
        every = lambda got: sorted(set(ref) | set(got))
        got, nop_pr = kl.json(['--no-precheck', '.'], root)
        self.compare(ref, got, every(got), '--no-precheck')
        got, got_pr = kl.json(['-j1', '.'], root)
        self.compare(ref, got, every(got), '-j1')
        self.compare_problems(ref_pr, got_pr, files, '-j1')
        # every file named at once, one of them twice: each reported once
        for how, args in (('all files named', [rel(f) for f in files] + files[:1]),
                          ('--changed, all files', ['--changed'] + [rel(f) for f in files])):
            got, got_pr = kl.json(args, root)
            self.compare(ref, got, files, how)
            self.compare_problems(nop_pr, got_pr, files, how)
        # from outside the project: paths are shown absolute, in the
        # messages too, and fingerprints are relative to it
        ref_out, _ = kl.json(['-j2', root], self.out)
        for f in self.sample(ref, files):
            for how, args, cwd, want in (
                    ('named alone', [rel(f)], root, ref),
                    ('named alone, absolute path, from elsewhere', [f], self.out, ref_out),
                    ('--changed', ['--changed', rel(f)], root, ref),
                    ('--stdin-filename', ['--stdin-filename', rel(f), '-'], root, ref)):
                data = open(f, 'rb').read() if '-' in args else None
                got, got_pr = kl.json(args, cwd, data)
                self.compare(want, got, [f], how)
                self.compare_problems(nop_pr, got_pr, [f], how)
        if not self.args.no_lsp:
            self.lsp(root, files, ref, nop_pr)
        return ref_out

    def sample(self, ref, files):
        n = self.args.sample
        if n is None or len(files) <= n:
            return files
        key = lambda f: (not ref.get(f), hashlib.sha1(f.encode()).hexdigest())
        return sorted(sorted(files, key=key)[:n])

    def lsp(self, root, files, ref, nop_pr):
        self.lsp_once(root, files, ref, nop_pr, None, 'language server')
        with tempfile.TemporaryDirectory(prefix='keylint-one-answer-cache-') as cache:
            self.lsp_once(root, files, ref, nop_pr, cache, 'language server, cache cold')
            # the server wrote back what it parsed at load
            if files and not os.path.isfile(os.path.join(cache, 'entries.pack')):
                self.differences.append('%s: the language server wrote no cache' % root)
                print(self.differences[-1], flush=True)
            # the command line's run fills the cache; the server reads it
            shutil.rmtree(cache)
            env = dict(os.environ)
            env.pop('KEYLINT_NO_CACHE', None)
            r = subprocess.run([self.kl.binary, '--cache-dir', cache, '--exit-zero', '-f',
                                'concise', '-o', os.devnull, '.'], cwd=root, env=env,
                               capture_output=True, timeout=self.kl.timeout)
            if r.returncode not in (0, 2):
                raise RuntimeError('keylint --cache-dir (in %s) exited %d: %s' % (
                    root, r.returncode, r.stderr.decode(errors='replace')[-2000:]))
            self.lsp_once(root, files, ref, nop_pr, cache, 'language server, cache warm')

    def lsp_once(self, root, files, ref, nop_pr, cache, how):
        server = Lsp(self.kl.binary, root, self.kl.timeout, cache)
        try:
            for f in files:
                try:
                    text = open(f, encoding='utf-8').read()
                except (UnicodeDecodeError, OSError):
                    continue  # the CLI names it as a problem; an editor cannot open it
                diags = server.diagnostics_of(f, text)
                got = sorted(d for d in diags if d[4] is not None)
                want = sorted(lsp_key(x) for x in ref.get(f, []))
                if want != got:
                    self.differ(f, how, want, got)
                # input problems and notes have no code
                probs = sorted((d[0], {'error': 'error'}.get(d[5], 'note'), d[6])
                               for d in diags if d[4] is None)
                # a problem of no line (0) is shown on the first
                want_pr = {f: sorted((max(l, 1), lv, m) for l, lv, m in nop_pr.get(f, []))}
                self.compare_problems(want_pr, {f: probs}, [f], how)
        finally:
            server.close()


def projects_under(top):
    by_root = {}
    for f in source_files(top):
        root = project_root(f)
        if root is None:
            print('%s: outside any project, linted alone: not compared' % f)
        else:
            by_root.setdefault(root, []).append(f)
    return by_root


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--keylint', required=True)
    ap.add_argument('--copy', action='store_true')
    ap.add_argument('--git', action='store_true')
    ap.add_argument('--sample', type=int)
    ap.add_argument('--no-lsp', action='store_true')
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('dirs', nargs='+')
    args = ap.parse_args()
    # the cache between runs (on by default) is written only into copies:
    # there the runs after the first read it, and must give the same answer
    kl = Keylint(os.path.realpath(args.keylint), args.timeout,
                 () if args.copy else ('--no-cache',))
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix='keylint-one-answer-') as tmp:
        out = os.path.join(tmp, 'elsewhere')
        os.mkdir(out)
        checker = Checker(kl, args, out)
        tops = []
        for d in args.dirs:
            if args.copy:
                dst = os.path.join(tmp, 'plain', os.path.basename(os.path.normpath(d)))
                shutil.copytree(d, dst, symlinks=True)
                tops.append(dst)
            else:
                tops.append(os.path.realpath(d))
        rounds = [tops]
        if args.copy and args.git:
            gits = []
            for d in args.dirs:
                dst = os.path.join(tmp, 'git', os.path.basename(os.path.normpath(d)))
                shutil.copytree(d, dst, symlinks=True)
                subprocess.run(['git', 'init', '-q', dst], check=True)
                gits.append(dst)
            rounds.append(gits)
        for tops in rounds:
            projects = {}
            for top in tops:
                projects.update(projects_under(top))
            refs = {}
            for root in sorted(projects):
                refs[root] = checker.project(root, projects[root])
            if len(projects) > 1:
                # the files of every project named at once: each in its own
                allfiles = sorted(f for fs in projects.values() for f in fs)
                ref = {}
                for root, r in refs.items():  # each file as its own project has it
                    ref.update((f, r[f]) for f in projects[root] if f in r)
                got, _ = kl.json(allfiles, out)
                checker.compare(ref, got, allfiles, 'files of %d projects named at once'
                                % len(projects))
            print('%d project(s), %d file(s) under %s' % (
                len(projects), sum(len(v) for v in projects.values()),
                ', '.join(tops)), flush=True)
    print('one_answer: %d files, %d differences; %d keylint runs in %.1f s (%.1f s in all)'
          % (checker.files, len(checker.differences), kl.runs, kl.seconds,
             time.monotonic() - t0))
    return 1 if checker.differences else 0


if __name__ == '__main__':
    sys.exit(main())
