#!/usr/bin/env python3
"""Precision and recall of keylint per rule on labelled real projects.

The projects (bench/realcode/projects.tsv) are public single-table services
that keylint's rules were not tuned on; their code is never committed. Each
has labels (bench/realcode/labels/NAME.tsv), one line per item:

    path <TAB> line <TAB> rule <TAB> verdict <TAB> reason

verdict: TP (a finding that is a real instance of what the rule's doc
describes), FP (a finding that is not), FN (a real instance keylint did not
report, found by searching the code). This script runs keylint over a clone
of each project at its pinned commit and matches its findings to the labels
by (path, line, rule):

  - a finding labelled TP or FP counts as such;
  - a finding with no label is listed as unlabelled (label it);
  - an FN label that keylint now reports counts as TP (a fixed miss);
  - a TP label that keylint no longer reports counts as FN (a lost finding).

usage: score.py [--keylint PATH] [--clones DIR] [--split dev|heldout|all]
                [--fetch] [--verbose]

Clones are looked for in DIR/NAME (default: $KEYLINT_REALCODE or
../realcode-clones beside the repository); --fetch clones missing ones from
GitHub and checks out the pinned commit.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            rows.append((n, cols))
    return rows


def projects(split):
    out = []
    for n, cols in read_tsv(os.path.join(HERE, "projects.tsv")):
        if len(cols) < 5:
            sys.exit(f"projects.tsv:{n}: expected 5 columns (name, repo, commit, subdir, split)")
        name, repo, commit, subdir, sp = cols[:5]
        if split != "all" and sp != split:
            continue
        out.append(dict(name=name, repo=repo, commit=commit, subdir=subdir, split=sp))
    return out


def labels(name):
    path = os.path.join(HERE, "labels", name + ".tsv")
    if not os.path.exists(path):
        sys.exit(f"no labels for {name}: {path}")
    out = {}
    for n, cols in read_tsv(path):
        if len(cols) < 4 or cols[3] not in ("TP", "FP", "FN"):
            sys.exit(f"{path}:{n}: expected path, line, rule, TP|FP|FN, reason")
        key = (cols[0], int(cols[1]), cols[2])
        out[key] = (cols[3], cols[4] if len(cols) > 4 else "")
    return out


def ensure_clone(p, clones, fetch):
    d = os.path.join(clones, p["name"])
    if not os.path.isdir(d):
        if not fetch:
            sys.exit(f"no clone of {p['repo']} in {d} (run with --fetch)")
        subprocess.run(["git", "clone", "-q", f"https://github.com/{p['repo']}", d], check=True)
    head = subprocess.run(["git", "-C", d, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    if not head.startswith(p["commit"]):
        subprocess.run(["git", "-C", d, "checkout", "-q", p["commit"]], check=True)
    return d


def run_keylint(keylint, where):
    r = subprocess.run([keylint, "--no-cache", "--format", "json", "--exit-zero", "."], cwd=where,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print(f"  keylint exited {r.returncode} in {where}: {r.stderr.strip()[:300]}",
              file=sys.stderr)
    if r.returncode < 0:
        return None, r.returncode
    doc = json.loads(r.stdout)
    found = {(f["path"], f["line"], f["rule"]) for f in doc["findings"]}
    return found, r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keylint", default=os.path.join(ROOT, "build", "keylint"))
    ap.add_argument("--clones", default=os.environ.get(
        "KEYLINT_REALCODE", os.path.join(os.path.dirname(ROOT), "realcode-clones")))
    ap.add_argument("--split", default="dev", choices=["dev", "heldout", "all"])
    ap.add_argument("--fetch", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    keylint = os.path.abspath(a.keylint)

    per_rule = collections.defaultdict(collections.Counter)
    problems = 0
    for p in projects(a.split):
        lab = labels(p["name"])
        clone = ensure_clone(p, a.clones, a.fetch)
        found, rc = run_keylint(keylint, os.path.join(clone, p["subdir"]))
        if found is None:
            print(f"{p['name']}: keylint died (signal {-rc})")
            problems += 1
            continue
        c = collections.Counter()
        for key in sorted(found):
            verdict = lab.get(key, (None, ""))[0]
            rule = key[2]
            if verdict in ("TP", "FN"):
                per_rule[rule]["TP"] += 1
                c["TP"] += 1
            elif verdict == "FP":
                per_rule[rule]["FP"] += 1
                c["FP"] += 1
                if a.verbose:
                    print(f"  FP {p['name']}: {key[0]}:{key[1]} [{rule}] {lab[key][1]}")
            else:
                per_rule[rule]["unlabelled"] += 1
                c["unlabelled"] += 1
                print(f"  unlabelled {p['name']}: {key[0]}:{key[1]} [{rule}]")
        for key, (verdict, reason) in sorted(lab.items()):
            if key in found or verdict == "FP":
                continue
            per_rule[key[2]]["FN"] += 1
            c["FN"] += 1
            if a.verbose:
                print(f"  FN {p['name']}: {key[0]}:{key[1]} [{key[2]}] {reason}")
        print(f"{p['name']} ({p['repo']}@{p['commit'][:7]}, {p['split']}): "
              f"TP {c['TP']}  FP {c['FP']}  FN {c['FN']}  unlabelled {c['unlabelled']}")

    print()
    print(f"{'rule':28} {'TP':>4} {'FP':>4} {'FN':>4} {'unl.':>4} {'precision':>9} {'recall':>7}")
    tot = collections.Counter()
    for rule in sorted(per_rule):
        r = per_rule[rule]
        tot.update(r)
        prec = r["TP"] / (r["TP"] + r["FP"]) if r["TP"] + r["FP"] else float("nan")
        rec = r["TP"] / (r["TP"] + r["FN"]) if r["TP"] + r["FN"] else float("nan")
        print(f"{rule:28} {r['TP']:4} {r['FP']:4} {r['FN']:4} {r['unlabelled']:4} "
              f"{prec:9.2f} {rec:7.2f}")
    prec = tot["TP"] / (tot["TP"] + tot["FP"]) if tot["TP"] + tot["FP"] else float("nan")
    rec = tot["TP"] / (tot["TP"] + tot["FN"]) if tot["TP"] + tot["FN"] else float("nan")
    print(f"{'all':28} {tot['TP']:4} {tot['FP']:4} {tot['FN']:4} {tot['unlabelled']:4} "
          f"{prec:9.2f} {rec:7.2f}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
