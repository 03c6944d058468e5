#!/usr/bin/env python3
"""Score keylint on blind answer keys, and keep each repository's first score.

The protocol (docs/real-code.md): a reader who has never seen keylint's
output or source labels a repository from the rule docs alone
(`keylint --explain`): every site a rule must report (TP), the look-alikes
it must not (TN), and the judgement calls (DISPUTED, not scored). The
labels are in bench/realcode/blind/OWNER+NAME.tsv (repo commit path line
rule verdict note; line may list candidates, comma-separated), the
repositories in bench/realcode/blind/repos.tsv.

usage: blind_score.py --clones DIR [--keylint PATH] [--record] [--show]
                      [--unlabelled FILE] [REPO...]

DIR holds a checkout of each repository at its pinned commit, as DIR/OWNER+NAME.
keylint runs once per repository (`keylint --format json .` from its root),
and each finding is matched to the labels by (path, rule, line), exactly:
  TP  a TP label keylint reports on one of its lines
  FN  a TP label it does not (a finding of that rule within 3 lines is
      counted apart as "near": found, but not where the label says)
  FP  a TN label it reports
  unlabelled  a finding no label names: a claim nobody has judged yet
      (--unlabelled FILE writes them out, for a reader who judges them
      from the rule docs without seeing keylint's source; those verdicts,
      in blind/adjudicated-COMMIT.tsv, are counted apart as adjTP / adjFP
      and shown with --show, never as labels)
Per rule and severity: a finding counts at the level keylint reported it
(a rule at error level reports a warning where it cannot point at its
evidence: mutable-key-field on an entity it does not know); a label it does
not report, at the level of that rule's findings in the repository when they
all have one (missing-tenant where multi-tenancy is only inferred reports
warnings), else at the rule's default severity with no configuration. --record appends one line per repository and rule
to bench/realcode/first-scores.tsv, for repositories that have no line
there yet: the first score is never rewritten, later scores go beside it
(blind-scores.tsv, with --record-later).
"""
import argparse
import resource
import collections
import datetime
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))


def read_labels(path):
    rows = []
    with open(path, encoding='utf-8') as f:
        for raw in f:
            c = raw.rstrip('\n').split('\t')
            if len(c) < 6 or c[0] == 'repo' or c[5] not in ('TP', 'TN'):
                continue
            lines = [int(x) for x in c[3].replace(' ', '').split(',') if x.isdigit()]
            rows.append({'repo': c[0], 'commit': c[1], 'path': c[2], 'lines': lines,
                         'rule': c[4], 'verdict': c[5], 'note': c[6] if len(c) > 6 else ''})
    return rows


def read_adjudicated(folder):
    """(repo, path, rule, line) -> verdict (TP, FP, DISPUTED) from adjudicated-*.tsv: findings
    of an earlier run that no label named, judged later from the rule docs. They are not labels
    (the first score does not count them); they say what an unlabelled finding has been judged."""
    out = {}
    for f in sorted(os.listdir(folder)):
        if not (f.startswith('adjudicated-') and f.endswith('.tsv')):
            continue
        with open(os.path.join(folder, f), encoding='utf-8') as fh:
            for raw in fh:
                c = raw.rstrip('\n').split('\t')
                if len(c) < 6 or c[0] == 'repo' or not c[3].isdigit():
                    continue
                out[(c[0], c[2], c[4], int(c[3]))] = c[5]
    return out


def keylint_findings(keylint, d):
    """keylint's findings on checkout d; a run that does not finish (over
    4 GiB of memory, 300 s, or a crash) finds nothing, and is said so: it is
    scored as it is, every label a miss."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    try:
        p = subprocess.run([keylint, '--no-cache', '--format', 'json', '.'], cwd=d, capture_output=True,
                           text=True, timeout=300, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        print(f'{d}: keylint did not finish in 300 s: scored as finding nothing', file=sys.stderr)
        return []
    if p.returncode not in (0, 1, 2):
        print(f'{d}: keylint exited {p.returncode} ({p.stderr.strip()[-200:]}): '
              'scored as finding nothing', file=sys.stderr)
        return []
    return json.loads(p.stdout)['findings']


def git_commit(path):
    p = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=path, capture_output=True,
                       text=True)
    return p.stdout.strip() or 'unknown'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--clones', required=True)
    ap.add_argument('--keylint', default=os.path.join(top, 'build', 'keylint'))
    ap.add_argument('--labels', default=os.path.join(here, 'blind'))
    ap.add_argument('--record', action='store_true')
    ap.add_argument('--record-later', action='store_true')
    ap.add_argument('--commit', help='the keylint commit to record (default: this checkout)')
    ap.add_argument('--show', action='store_true')
    ap.add_argument('--unlabelled')
    ap.add_argument('repos', nargs='*')
    args = ap.parse_args()
    keylint = os.path.abspath(args.keylint)
    severity = {}
    for line in subprocess.run([keylint, '--list-rules'], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            severity[parts[0]] = parts[1]
    # OWNER+NAME.tsv only: repos.tsv lists the repositories, adjudicated-*.tsv
    # judge findings no label named (read below), disagreements.tsv argues with labels
    files = sorted(f for f in os.listdir(args.labels) if f.endswith('.tsv') and '+' in f)
    adjudicated = read_adjudicated(args.labels)
    per_repo = collections.OrderedDict()
    unlabelled_out = []
    for fname in files:
        rows = read_labels(os.path.join(args.labels, fname))
        if not rows:
            continue
        repo = rows[0]['repo']
        if args.repos and repo not in args.repos:
            continue
        d = os.path.join(args.clones, repo.replace('/', '+'))
        if not os.path.isdir(d):
            print(f'{repo}: no checkout in {args.clones}', file=sys.stderr)
            continue
        found = collections.defaultdict(dict)
        findings = keylint_findings(keylint, d)
        # OWNER+NAME.scope: a repository too large to label whole is labelled
        # under these path prefixes (one a line); findings elsewhere are not
        # judged at all (neither labelled nor unlabelled)
        scope_file = os.path.join(args.labels, fname[:-len('.tsv')] + '.scope')
        if os.path.exists(scope_file):
            with open(scope_file, encoding='utf-8') as fh:
                scope = [l.strip() for l in fh if l.strip() and not l.startswith('#')]
            findings = [f for f in findings
                        if any(f['path'].removeprefix('./').startswith(p) for p in scope)]
        for f in findings:
            # the line's level: error when any finding of the rule there is one
            lines = found[(f['path'].removeprefix('./'), f['rule'])]
            if lines.get(f['line']) != 'error':
                lines[f['line']] = f['severity']
        # a label not reported counts at the level of the rule's findings in
        # this repository when they all have one (missing-tenant where
        # multi-tenancy is inferred: warnings), else at the rule's default
        levels = collections.defaultdict(set)
        for f in findings:
            levels[f['rule']].add(f['severity'])

        def unreported_level(rule):
            return next(iter(levels[rule])) if len(levels[rule]) == 1 else severity.get(rule, '?')

        score = collections.defaultdict(lambda: collections.Counter())
        labelled = set()
        for r in rows:
            got = found.get((r['path'], r['rule']), {})
            for l in r['lines']:
                labelled.add((r['path'], r['rule'], l))
            hit = [got[l] for l in r['lines'] if l in got]
            sev = 'error' if 'error' in hit else hit[0] if hit else unreported_level(r['rule'])
            s = score[(r['rule'], sev)]
            if r['verdict'] == 'TP':
                if hit:
                    s['TP'] += 1
                else:
                    s['FN'] += 1
                    near = any(abs(l - g) <= 3 for l in r['lines'] for g in got)
                    s['near'] += near
                    if args.show:
                        print(f'{"NEAR  " if near else "MISSED"} {r["rule"]:24} {repo}:{r["path"]}:{r["lines"][0]}  {r["note"][:110]}')
            elif hit:
                s['FP'] += 1
                if args.show:
                    print(f'FALSE+ {r["rule"]:24} {repo}:{r["path"]}:{r["lines"][0]}  {r["note"][:110]}')
        for f in findings:
            key = (f['path'].removeprefix('./'), f['rule'], f['line'])
            if key not in labelled:
                s = score[(f['rule'], f['severity'])]
                s['unlabelled'] += 1
                verdict = adjudicated.get((repo, *key))
                if verdict in ('TP', 'FP'):
                    s['adj' + verdict] += 1
                if args.show and verdict != 'TP':
                    print(f'{"ADJ-FP" if verdict == "FP" else "UNLAB "} {f["rule"]:24} {repo}:{key[0]}:{key[2]}'
                          f'  {"(disputed) " if verdict == "DISPUTED" else ""}{f["message"][:100]}')
                unlabelled_out.append((repo, rows[0]['commit'], key[0], key[2], key[1], f['severity'],
                                       f['message']))
        per_repo[repo] = score
    rules = sorted({r for s in per_repo.values() for r in s})
    tot = collections.defaultdict(collections.Counter)
    for s in per_repo.values():
        for r, c in s.items():
            tot[r].update(c)
    print(f'{"rule":26} {"sev":8} {"TP":>4} {"FN":>4} {"FP":>4} {"near":>5} {"unlab":>6} {"adjTP":>5} {"adjFP":>5}'
          f'  recall  precision(labelled)')
    bysev = collections.defaultdict(collections.Counter)
    for r, sev in rules:
        c = tot[(r, sev)]
        rec = c['TP'] / (c['TP'] + c['FN']) if c['TP'] + c['FN'] else float('nan')
        prec = c['TP'] / (c['TP'] + c['FP']) if c['TP'] + c['FP'] else float('nan')
        bysev[sev].update(c)
        print(f'{r:26} {sev:8} {c["TP"]:4} {c["FN"]:4} {c["FP"]:4} {c["near"]:5} {c["unlabelled"]:6} {c["adjTP"]:5}'
              f' {c["adjFP"]:5}  {rec:6.2f}  {prec:6.2f}')
    for sev, c in sorted(bysev.items()):
        rec = c['TP'] / (c['TP'] + c['FN']) if c['TP'] + c['FN'] else float('nan')
        prec = c['TP'] / (c['TP'] + c['FP']) if c['TP'] + c['FP'] else float('nan')
        judged_tp, judged_fp = c['TP'] + c['adjTP'], c['FP'] + c['adjFP']
        judged = judged_tp / (judged_tp + judged_fp) if judged_tp + judged_fp else float('nan')
        print(f'total {sev:8}: TP {c["TP"]} FN {c["FN"]} FP {c["FP"]} unlabelled {c["unlabelled"]} '
              f'(adjudicated TP {c["adjTP"]} FP {c["adjFP"]}): recall {rec:.2f}, labelled precision {prec:.2f}, '
              f'precision with the adjudicated {judged:.2f}')
    if args.unlabelled:
        with open(args.unlabelled, 'w', encoding='utf-8') as f:
            f.write('repo\tcommit\tpath\tline\trule\tseverity\tmessage\n')
            for u in unlabelled_out:
                f.write('\t'.join(str(x) for x in u) + '\n')
    if args.record or args.record_later:
        name = 'first-scores.tsv' if args.record else 'blind-scores.tsv'
        path = os.path.join(here, name)
        seen = set()
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                seen = {l.split('\t')[2] for l in f if not l.startswith('date')}
        new = not os.path.exists(path)
        commit = args.commit or git_commit(top)
        with open(path, 'a', encoding='utf-8') as f:
            if new:
                f.write('date\tkeylint\trepo\trule\tseverity\tTP\tFP\tFN\tnear\tunlabelled\n')
            for repo, s in per_repo.items():
                if args.record and repo in seen:
                    continue  # the first score stays the first
                for (r, sev), c in sorted(s.items()):
                    f.write(f'{datetime.date.today()}\t{commit}\t{repo}\t{r}\t{sev}\t'
                            f'{c["TP"]}\t{c["FP"]}\t{c["FN"]}\t{c["near"]}\t{c["unlabelled"]}\n')


if __name__ == '__main__':
    main()
