#!/usr/bin/env python3
"""`keylint model --format workbench` writes a model NoSQL Workbench imports.

usage: model_workbench_test.py KEYLINT SOURCE_ROOT

Each model (the example service; a project without a table definition; a
template with a number-typed index key, a deploy-time table name and a
KEYS_ONLY index) is validated against tests/workbench.schema.json, written
from AWS's documentation of the format, and checked for what a schema cannot
say and Workbench requires: facet names unique in the model, every
attribute a facet, an index or an item names declared with its type, each
item holding the table's keys with values of their declared types, and each
example item's key values following its facet's key shapes
(ORDER#{orderId} -> ORDER#o-1). A broken model must fail both checks.
Needs the jsonschema module (python3-jsonschema; scripts/setup
--with-test-tools installs it).
"""
import copy
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

keylint, root = (os.path.abspath(p) for p in sys.argv[1:3])
schema = json.load(open(os.path.join(root, "tests", "workbench.schema.json")))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def shape_regex(alias):
    """A key shape as a regular expression: each {value} one or more
    characters, the rest literal."""
    out, pos = "", 0
    for m in re.finditer(r"\{[^{}]*\}", alias):
        out += re.escape(alias[pos:m.start()]) + ".+"
        pos = m.end()
    return out + re.escape(alias[pos:])


def value_ok(value, typ):
    (k, v), = value.items()
    return k == typ


def cross_check(model):
    """What Workbench needs beyond the schema; the problems found."""
    problems = []
    facets = [f["FacetName"] for t in model["DataModel"] for f in t["TableFacets"]]
    if len(facets) != len(set(facets)):
        problems.append(f"facet names repeat: {facets}")
    tables = [t["TableName"] for t in model["DataModel"]]
    if len(tables) != len(set(tables)):
        problems.append(f"table names repeat: {tables}")
    for t in model["DataModel"]:
        name = t["TableName"]
        keys = t["KeyAttributes"]
        declared = {keys["PartitionKey"]["AttributeName"]: keys["PartitionKey"]["AttributeType"]}
        if "SortKey" in keys:
            declared[keys["SortKey"]["AttributeName"]] = keys["SortKey"]["AttributeType"]
        for a in t["NonKeyAttributes"]:
            if a["AttributeName"] in declared:
                problems.append(f"{name}: {a['AttributeName']} declared twice")
            declared[a["AttributeName"]] = a["AttributeType"]
        for ix in t["GlobalSecondaryIndexes"]:
            for role in ("PartitionKey", "SortKey"):
                k = ix["KeyAttributes"].get(role)
                if k and declared.get(k["AttributeName"]) != k["AttributeType"]:
                    problems.append(f"{name}/{ix['IndexName']}: {k['AttributeName']} not declared as {k['AttributeType']}")

        def check_item(item, where):
            for role in ("PartitionKey", "SortKey"):
                if role in keys and keys[role]["AttributeName"] not in item:
                    problems.append(f"{where}: no {keys[role]['AttributeName']}")
            for attr, value in item.items():
                if attr not in declared:
                    problems.append(f"{where}: {attr} not declared")
                elif declared[attr] in ("S", "N", "B") and not value_ok(value, declared[attr]):
                    problems.append(f"{where}: {attr} is not of type {declared[attr]}")

        table_items = [json.dumps(i, sort_keys=True) for i in t["TableData"]]
        for f in t["TableFacets"]:
            where = f"{name}/{f['FacetName']}"
            for a in f["NonKeyAttributes"]:
                if a not in declared or a in (keys["PartitionKey"]["AttributeName"],
                                              keys.get("SortKey", {}).get("AttributeName")):
                    problems.append(f"{where}: non-key attribute {a} not a declared non-key attribute")
            if ("SortKey" in keys) != ("SortKeyAlias" in f["KeyAttributeAlias"]):
                problems.append(f"{where}: SortKeyAlias without the table's sort key, or the reverse")
            if not f.get("TableData"):
                problems.append(f"{where}: no example item")
            for item in f.get("TableData", []):
                check_item(item, where)
                if json.dumps(item, sort_keys=True) not in table_items:
                    problems.append(f"{where}: its item is not in the table's data")
                aliases = [("PartitionKey", "PartitionKeyAlias"), ("SortKey", "SortKeyAlias")]
                for role, alias in aliases:
                    if role not in keys or alias not in f["KeyAttributeAlias"]:
                        continue
                    attr = keys[role]["AttributeName"]
                    shape = f["KeyAttributeAlias"][alias]
                    if attr in item and "S" in item[attr] and \
                            not re.fullmatch(shape_regex(shape), item[attr]["S"]):
                        problems.append(f"{where}: {attr} {item[attr]['S']!r} does not follow {shape!r}")
        for i, item in enumerate(t["TableData"]):
            check_item(item, f"{name}/TableData[{i}]")
        keyset = [(json.dumps(i.get(keys["PartitionKey"]["AttributeName"])),
                   json.dumps(i.get(keys.get("SortKey", {}).get("AttributeName", ""))))
                  for i in t["TableData"]]
        if len(keyset) != len(set(keyset)):
            problems.append(f"{name}: two example items have the same key")
    return problems


def model_of(cwd, *paths):
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    r = subprocess.run([keylint, "model", "--format", "workbench", *paths], cwd=cwd,
                       capture_output=True, text=True, env=env)
    ok(r.returncode == 0, f"keylint model {paths} in {cwd}: exit {r.returncode}: {r.stderr}")
    try:
        return json.loads(r.stdout)
    except ValueError as e:
        ok(False, f"keylint model {paths}: not JSON: {e}")
        return None


def check(model, what, facets=None):
    if model is None:
        return
    errs = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(model)]
    ok(not errs, f"{what}: not valid for the schema: {errs[:5]}")
    problems = cross_check(model)
    ok(not problems, f"{what}: {problems[:5]}")
    if facets is not None:
        got = sorted(f["FacetName"] for t in model["DataModel"] for f in t["TableFacets"])
        ok(got == sorted(facets), f"{what}: facets {got}, want {sorted(facets)}")


# ---- the example service ------------------------------------------------------
example = model_of(root, "fixtures/example-service")
check(example, "example-service",
      ["ANNOUNCEMENTS", "ORDER", "ORDER (2)", "ORDER_ITEM", "SETTINGS", "USER", "order"])
if example:
    ok(example["ModelMetadata"]["DateCreated"] == "Nov 14, 2023, 10:13 PM",
       "SOURCE_DATE_EPOCH sets the model's dates")
    data = next(t for t in example["DataModel"] if t["TableName"] == "example-data")
    item = next(f for f in data["TableFacets"] if f["FacetName"] == "ORDER_ITEM")["TableData"][0]
    ok(item == {"pk": {"S": "ORDER#t-1"}, "sk": {"S": "ORDER_ITEM#o-1#i-1"}},
       f"ORDER_ITEM's example item follows its shapes: {item}")
    ok([g["IndexName"] for g in data["GlobalSecondaryIndexes"]] == ["GSI1"], "the index GSI1")

    # the checks can fail: a broken model is refused by both
    broken = copy.deepcopy(example)
    del broken["DataModel"][0]["KeyAttributes"]
    ok(any(True for _ in validator.iter_errors(broken)), "a table without keys is refused")
    broken = copy.deepcopy(example)
    broken["DataModel"][0]["TableFacets"][0]["NonKeyAttributes"].append("notDeclared")
    ok(cross_check(broken), "a facet naming an undeclared attribute is refused")
    broken = copy.deepcopy(example)
    broken["DataModel"][0]["TableFacets"][1]["TableData"][0]["sk"] = {"S": "INVOICE#1"}
    ok(cross_check(broken), "an example key that does not follow its shape is refused")

with tempfile.TemporaryDirectory(prefix="keylint-workbench-") as tmp:
    # ---- no table definition: one table of the keys the code writes --------
    os.makedirs(os.path.join(tmp, "a"))
    with open(os.path.join(tmp, "a", "repo.ts"), "w") as f:
        f.write("import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';\n"
                "export const put = (d: any, t: string, id: string) =>\n"
                "  d.send(new PutCommand({ TableName: 'x', Item: { pk: `TENANT#${t}`, sk: `ORDER#${id}` } }));\n"
                "export const user = (d: any, t: string, id: string) =>\n"
                "  d.send(new PutCommand({ TableName: 'x', Item: { pk: `TENANT#${t}`, sk: `USER#${id}` } }));\n"
                "export const get = (d: any, id: string) =>\n"
                "  d.send(new GetCommand({ TableName: 'x', Key: { pk: `CONFIG#${id}`, sk: 'META' } }));\n")
    m = model_of(os.path.join(tmp, "a"), ".")
    check(m, "no table definition", ["CONFIG", "ORDER", "USER"])
    if m:
        ok([t["TableName"] for t in m["DataModel"]] == ["table"], "the table of the code's keys")

    # ---- a template: number-typed index key, deploy-time name -------------
    os.makedirs(os.path.join(tmp, "b", "src"))
    with open(os.path.join(tmp, "b", "template.yaml"), "w") as f:
        f.write("Resources:\n"
                "  Orders:\n"
                "    Type: AWS::DynamoDB::Table\n"
                "    Properties:\n"
                "      TableName: !Sub '${AWS::StackName}-orders'\n"
                "      AttributeDefinitions:\n"
                "        - { AttributeName: PK, AttributeType: S }\n"
                "        - { AttributeName: SK, AttributeType: S }\n"
                "        - { AttributeName: byStatus, AttributeType: S }\n"
                "        - { AttributeName: total, AttributeType: N }\n"
                "      KeySchema:\n"
                "        - { AttributeName: PK, KeyType: HASH }\n"
                "        - { AttributeName: SK, KeyType: RANGE }\n"
                "      GlobalSecondaryIndexes:\n"
                "        - IndexName: by-status\n"
                "          KeySchema:\n"
                "            - { AttributeName: byStatus, KeyType: HASH }\n"
                "            - { AttributeName: total, KeyType: RANGE }\n"
                "          Projection: { ProjectionType: KEYS_ONLY }\n")
    with open(os.path.join(tmp, "b", "src", "orders.ts"), "w") as f:
        f.write("import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
                "export const put = (d: any, t: string, id: string, s: string, n: number) =>\n"
                "  d.send(new PutCommand({ TableName: process.env.TABLE, Item: {\n"
                "    PK: `TENANT#${t}`, SK: `ORDER#${id}`, byStatus: `STATUS#${s}`, total: n } }));\n")
    m = model_of(os.path.join(tmp, "b"), ".")
    check(m, "template", ["ORDER"])
    if m:
        t = m["DataModel"][0]
        ok(t["TableName"] == "Orders", f"a deploy-time name falls back to the logical id: {t['TableName']}")
        ok(t["GlobalSecondaryIndexes"][0]["Projection"] == {"ProjectionType": "KEYS_ONLY"},
           "the index's projection")
        ok(any(a == {"AttributeName": "total", "AttributeType": "N"} for a in t["NonKeyAttributes"]),
           "the number-typed index key declared as N")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
