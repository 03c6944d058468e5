#!/usr/bin/env python3
"""docs/keylint.schema.json, the JSON Schema editors validate .keylint.yml
with, agrees with keylint's own configuration loader.

usage: config_schema_test.py YAML2JSON KEYLINT SOURCE_ROOT

Every .keylint.yml under fixtures/ is valid for both; a set of broken
configurations is refused by both; the schema's rule ids are keylint's;
the schema's top-level keys are those docs/configuration.md documents.
Needs the jsonschema module (python3-jsonschema; scripts/setup
--with-test-tools installs it).
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed (scripts/setup --with-test-tools)")
    sys.exit(77)

yaml2json, keylint, root = sys.argv[1:4]
schema = json.load(open(os.path.join(root, "docs", "keylint.schema.json")))
validator = jsonschema.Draft7Validator(schema)
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def as_json(path):
    r = subprocess.run([yaml2json, path], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    doc = json.loads(r.stdout)
    return {} if doc is None else doc


def keylint_accepts(path):
    r = subprocess.run([keylint, "--config", path, "--print-config", "x.ts"],
                       capture_output=True, text=True)
    return r.returncode == 0


for cfg in sorted(glob.glob(os.path.join(root, "fixtures", "**", ".keylint.yml"), recursive=True)):
    doc = as_json(cfg)
    errs = [e.message for e in validator.iter_errors(doc)] if doc is not None else ["not YAML"]
    ok(not errs, f"{cfg}: valid for keylint but not for the schema: {errs}")
    ok(keylint_accepts(cfg), f"{cfg}: refused by keylint")

BAD = {
    "unknown key": "colour: red\n",
    "two-character separator": "separator: '##'\n",
    "unknown rule": "rules: { no-such-rule: error }\n",
    "bad severity": "rules: { scan: loud }\n",
    "bad tenant.required": "tenant: { required: maybe }\n",
    "access pattern without pk": "access-patterns: [{ name: x }]\n",
    "max-key-components zero": "max-key-components: 0\n",
    "wrapper without call": "wrappers: [{ operation: query }]\n",
    "wrapper operation": "wrappers: [{ call: x, operation: fly }]\n",
    "a string for a list": "ignore: src/a.ts\n",
    "override without files": "overrides: [{ rules: { scan: off } }]\n",
    "project key in an override": "overrides: [{ files: [a/**], schemas: [t.yaml] }]\n",
    "bad value in an override": "overrides: [{ files: [a/**], rules: { scan: loud } }]\n",
}
GOOD = {
    "overrides": "overrides:\n  - files: [apps/yoga/**]\n    tenant: { names: [studioId] }\n"
                 "    rules: { scan: error }\n",
}
with tempfile.TemporaryDirectory() as tmp:
    for what, text in BAD.items():
        path = os.path.join(tmp, ".keylint.yml")
        open(path, "w").write(text)
        doc = as_json(path)
        ok(doc is not None and not validator.is_valid(doc), f"{what}: the schema accepts it")
        ok(not keylint_accepts(path), f"{what}: keylint accepts it")
    for what, text in GOOD.items():
        path = os.path.join(tmp, ".keylint.yml")
        open(path, "w").write(text)
        doc = as_json(path)
        ok(doc is not None and validator.is_valid(doc), f"{what}: the schema refuses it")
        ok(keylint_accepts(path), f"{what}: keylint refuses it")

ids = subprocess.run([keylint, "--list-rules"], capture_output=True, text=True).stdout.split("\n")
ids = sorted(l.split()[0] for l in ids if l.strip())
ok(sorted(schema["properties"]["rules"]["propertyNames"]["enum"]) == ids,
   "the schema's rule ids are keylint's")
doc = open(os.path.join(root, "docs", "configuration.md")).read()
reference = doc.split("### Reference", 1)[1].split("\n### ", 1)[0]
documented = set(re.findall(r"^\| `([a-z-]+)(?:\.[a-z-]+)?` \|", reference, re.M))
documented |= {"wrappers"} if "### `wrappers`" in doc else set()
ok(documented == set(schema["properties"]),
   f"top-level keys: documented {sorted(documented)}, schema {sorted(schema['properties'])}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
