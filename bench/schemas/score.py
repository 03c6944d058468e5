#!/usr/bin/env python3
"""Score keylint's `schema` rule on other projects' CloudFormation templates:
cfn-lint's test fixtures and AWS's CloudFormation sample templates.

usage: score.py KEYLINT [--cfn-lint DIR] [--samples DIR]

Without a DIR the repository is fetched at the pinned commit below into a
temporary directory (git, network) and removed afterwards; with one, DIR is
a checkout (or an unpacked archive) of that repository. Nothing fetched is
kept or committed.

Every template (.yaml, .yml, .json) that defines a DynamoDB table is copied
alone into an empty project as template.yaml / template.json and linted
there without configuration (found by discovery, as in a project that has
only a template). Each is scored by what its source says of it:

  valid      cfn-lint's good/ fixtures and AWS's samples: DynamoDB accepts
             their tables, so every `schema` error is a false error;
  key error  cfn-lint's bad/resources/dynamodb/ fixtures (its rule E3039,
             attribute definitions and key schema that do not match): the
             error must be found;
  other      cfn-lint's other bad/ and integration fixtures: their mistakes
             are not DynamoDB key errors; keylint's findings are printed for
             reading, not scored.

Prints one line per template and a summary; exits 1 when there is a false
error or a missed key error.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SOURCES = {
    "cfn-lint": ("https://github.com/aws-cloudformation/cfn-lint",
                 "217397c819d2cebe4c1e836c9ab18fafd0e10135", "test/fixtures/templates"),
    "samples": ("https://github.com/aws-cloudformation/aws-cloudformation-templates",
                "142ce6f283d285fa370adb7f9d332d7f46dac5fc", ""),
}
TABLE_TYPES = ("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable",
               "AWS::Serverless::SimpleTable")


def fetch(name, into):
    url, commit, _ = SOURCES[name]
    d = os.path.join(into, name)
    for cmd in (["git", "init", "-q", d],
                ["git", "-C", d, "fetch", "-q", "--depth", "1", url, commit],
                ["git", "-C", d, "checkout", "-q", "FETCH_HEAD"]):
        subprocess.run(cmd, check=True)
    return d


def templates(root, sub):
    base = os.path.join(root, sub)
    for dirpath, dirs, files in os.walk(base):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.endswith((".yaml", ".yml", ".json")):
                p = os.path.join(dirpath, f)
                try:
                    with open(p, encoding="utf-8") as fh:
                        text = fh.read()
                except (UnicodeDecodeError, OSError):
                    continue
                if any(t in text for t in TABLE_TYPES):
                    yield os.path.relpath(p, root), p


def kind_of(source, rel):
    if source == "samples" or "/good/" in "/" + rel:
        return "valid"
    if "bad/resources/dynamodb/" in rel:
        return "key error"
    return "other"


def lint(keylint, path):
    with tempfile.TemporaryDirectory(prefix="keylint-score-") as d:
        name = "template.json" if path.endswith(".json") else "template.yaml"
        shutil.copyfile(path, os.path.join(d, name))
        r = subprocess.run([keylint, "--format", "json", "--color", "never", d],
                           capture_output=True, text=True, timeout=120)
        if r.returncode not in (0, 1, 2) or not r.stdout.strip():
            return None, r.stderr.strip()
        found = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "schema"]
        return found, r.stderr.strip()


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    keylint, dirs = os.path.abspath(args[0]), {}
    rest = args[1:]
    while rest:
        if len(rest) < 2 or rest[0] not in ("--cfn-lint", "--samples"):
            print(__doc__, file=sys.stderr)
            return 2
        dirs[rest[0][2:]] = rest[1]
        rest = rest[2:]
    tmp = tempfile.mkdtemp(prefix="keylint-score-src-")
    counts = {}
    bad = 0
    try:
        for source in SOURCES:
            try:
                root = dirs.get(source) or fetch(source, tmp)
            except (subprocess.CalledProcessError, OSError) as e:
                print(f"score: cannot fetch {SOURCES[source][0]} at {SOURCES[source][1]} "
                      f"({e}); give a checkout with --{source} DIR", file=sys.stderr)
                return 2
            for rel, path in templates(root, SOURCES[source][2]):
                kind = kind_of(source, rel)
                found, err = lint(keylint, path)
                c = counts.setdefault((source, kind), [0, 0])
                c[0] += 1
                if found is None:
                    verdict = "keylint failed: " + err
                    bad += 1
                elif kind == "valid":
                    verdict = f"{len(found)} false errors" if found else "ok"
                    bad += bool(found)
                    c[1] += len(found)
                elif kind == "key error":
                    verdict = "found" if found else "MISSED"
                    bad += not found
                    c[1] += bool(found)
                else:
                    verdict = f"{len(found)} errors (not scored)"
                    c[1] += len(found)
                print(f"{source:9} {kind:9} {rel}: {verdict}")
                for f in found or []:
                    print(f"    {f['line']}: {f['message']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    for (source, kind), (n, k) in sorted(counts.items()):
        what = {"valid": "false schema errors", "key error": "found",
                "other": "schema errors, not scored"}[kind]
        print(f"{source}: {n} {kind} templates, {k} {what}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
