#!/usr/bin/env python3
"""Say what DynamoDB would say: keylint's table and query errors checked
against a DynamoDB implementation.

Starts dynalite (npm, installed into node_modules/ by
`scripts/setup --with-test-tools`) on 127.0.0.1 on a free port, sends it
every case of cases.py (CreateTable, then Query or Scan), writes the same
table and query where keylint reads them (a CloudFormation template in YAML
or JSON, a CreateTableCommand, and where they can say it a CDK TableV2, a
Terraform aws_dynamodb_table and a SAM SimpleTable; a QueryCommand or
ScanCommand in TypeScript), lints
them, and requires keylint to report an error exactly when DynamoDB
rejects the request, for the same reason. Exits 0 when every case agrees,
1 when one does not (each disagreement printed), 77 (skipped) when dynalite
is not installed.

usage: oracle_test.py KEYLINT SOURCE_ROOT
(KEYLINT_ORACLE_KEEP=DIR writes the cases into DIR, a new directory, and
leaves them there.)
"""

import copy
import http.client
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as C  # noqa: E402

# ---- what a message means ----------------------------------------------------

# DynamoDB's (dynalite's) messages -> reasons. A message may name several
# errors ("2 validation errors detected: ...; ..."): every pattern found
# adds its reason. One message can fit two reasons ("Query key condition
# not supported"): the case's reason must be among them.
DYNAMO_REASONS = [
    (r"Some index key attributes? (have no definition|are not defined)", "undefined-attr"),
    (r"Number of attributes in KeySchema does not exactly match|Some AttributeDefinitions are "
     r"not used", "unused-attr"),
    (r"Attribute Name is duplicated|two attributes with the same name", "dup-attr"),
    (r"at 'attributeDefinitions\.\d+\.member\.attributeType'", "attr-type"),
    (r"at 'attributeDefinitions\.\d+\.member\.attributeName'", "attr-no-name"),
    (r"Value null at 'attributeDefinitions'", "no-attr-defs"),
    (r"Value null at '((global|local)SecondaryIndexes\.\d+\.member\.)?keySchema'",
     "no-keyschema"),
    (r"first KeySchemaElement is not a HASH|second KeySchemaElement is not a RANGE|"
     r"at '((global|local)SecondaryIndexes\.\d+\.member\.)?keySchema' failed to satisfy "
     r"constraint: Member must have length|keySchema\.\d+\.member\.keyType'", "key-shape"),
    (r"keySchema\.\d+\.member\.attributeName'", "key-no-name"),
    (r"Both the Hash Key and the Range Key element in the KeySchema have the same name",
     "same-name"),
    (r"Table KeySchema does not have a range key", "lsi-no-table-range"),
    (r"Index KeySchema does not have a range key", "lsi-no-range"),
    (r"does not have the same leading hash key", "lsi-hash"),
    (r"Value null at '(global|local)SecondaryIndexes\.\d+\.member\.indexName'", "no-index-name"),
    (r"at '(global|local)SecondaryIndexes\.\d+\.member\.indexName' failed to satisfy "
     r"constraint: Member must (have length|satisfy regular)", "index-name"),
    (r"at 'tableName' failed|TableName must be at least 3", "table-name"),
    (r"Duplicate index name", "dup-index"),
    (r"List of (Local|Global)SecondaryIndexes is empty", "empty-index-list"),
    (r"Number of LocalSecondaryIndexes exceeds", "too-many-lsi"),
    (r"GlobalSecondaryIndex count exceeds", "too-many-gsi"),
    (r"Value null at '(global|local)SecondaryIndexes\.\d+\.member\.projection'", "no-projection"),
    (r"Unknown ProjectionType|projection\.projectionType' failed", "projection-type"),
    (r"but NonKeyAttributes is specified", "nonkey-without-include"),
    (r"nonKeyAttributes' failed to satisfy constraint: Member must have length greater|"
     r"NonKeyAttributes is not specified", "nonkey-none"),
    (r"nonKeyAttributes' failed to satisfy constraint: Member must have length less",
     "too-many-nonkey"),
    (r"The table does not have the specified index", "unknown-index"),
    (r"Query condition missed key schema element", "key-condition"),
    (r"Query key condition not supported", "key-condition"),
    (r"Query key condition not supported", "pk-range"),
]

# keylint's findings -> reasons: by rule for queries, by message for tables.
KEYLINT_RULES = {"unknown-index": "unknown-index", "key-condition-attribute": "key-condition",
                 "partition-key-range": "pk-range"}
KEYLINT_SCHEMA = [
    (r"is not in the table's AttributeDefinitions", "undefined-attr"),
    (r"no key schema uses it", "unused-attr"),
    (r"is defined twice in the AttributeDefinitions", "dup-attr"),
    (r"^AttributeType of |^PrimaryKey Type of table .* must be String, Number or Binary",
     "attr-type"),
    (r"AttributeDefinitions entry of .* has no AttributeName", "attr-no-name"),
    (r"has no AttributeDefinitions", "no-attr-defs"),
    (r"has no KeySchema", "no-keyschema"),
    (r"has two (HASH|RANGE) keys|has no HASH \(partition\) key|first KeySchema entry of .* is "
     r"the RANGE key|lists a HASH key after the RANGE key|KeyType of .* must be HASH or RANGE|"
     r"has more than 4 (HASH|RANGE) keys|KeySchema of .* must be a list", "key-shape"),
    (r"a KeySchema entry of .* has no AttributeName", "key-no-name"),
    (r"as both its HASH and its RANGE key|twice in its key schema", "same-name"),
    (r"has no sort \(RANGE\) key, which a local secondary index", "lsi-no-table-range"),
    (r"has no RANGE \(sort\) key: a local index", "lsi-no-range"),
    (r"local index shares the table's partition key", "lsi-hash"),
    (r"has no IndexName", "no-index-name"),
    (r"^index name .* must be 3 to 255", "index-name"),
    (r"^TableName .* must be 3 to 255", "table-name"),
    (r"has two indexes named", "dup-index"),
    (r"SecondaryIndexes of .* is an empty list", "empty-index-list"),
    (r"more than 5 local secondary indexes", "too-many-lsi"),
    (r"more than 20 global secondary indexes", "too-many-gsi"),
    (r"has no Projection \(", "no-projection"),
    (r"has no ProjectionType|^ProjectionType of .* must be", "projection-type"),
    (r"lists NonKeyAttributes, which only ProjectionType INCLUDE takes",
     "nonkey-without-include"),
    (r"projects INCLUDE but lists no NonKeyAttributes|lists an empty NonKeyAttributes",
     "nonkey-none"),
    (r"NonKeyAttributes: DynamoDB takes at most 20 in one index", "too-many-nonkey"),
    (r"NonKeyAttributes in all", "too-many-nonkey-total"),
]
assert {r for _, r in DYNAMO_REASONS + KEYLINT_SCHEMA} <= set(C.REASONS)


def dynamo_reasons(msg):
    return {r for pat, r in DYNAMO_REASONS if msg and re.search(pat, msg)}


def keylint_reasons(findings):
    out = set()
    for f in findings:
        if f["rule"] in KEYLINT_RULES:
            out.add(KEYLINT_RULES[f["rule"]])
        elif f["rule"] == "schema":
            hit = [r for pat, r in KEYLINT_SCHEMA if re.search(pat, f["message"])]
            out.add(hit[0] if hit else "?" + f["message"])
    return out


# ---- dynalite -------------------------------------------------------------------

START = r"""
const server = require(process.argv[1])({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
"""


class Dynamo:
    """A dynalite server of this run, and its DynamoDB JSON protocol."""

    def __init__(self, module):
        self.proc = subprocess.Popen(["node", "-e", START, module], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline().decode() if ready else ""
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError("dynalite did not start: " + self.proc.stderr.read().decode())
        self.port = int(line)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()  # it exits at the end of its input
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def call(self, op, body):
        """(accepted, response or error message)"""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        # dynalite wants a SigV4-shaped Authorization header; it checks no signature
        c.request("POST", "/", json.dumps(body), {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + op,
            "X-Amz-Date": "20240101T000000Z",
            "Authorization": "AWS4-HMAC-SHA256 Credential=keylint/20240101/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=host;x-amz-date, Signature=0",
        })
        r = c.getresponse()
        data = json.loads(r.read() or b"{}")
        c.close()
        if r.status == 200:
            return True, data
        return False, data.get("message") or data.get("Message") or json.dumps(data)

    def wait_active(self, name):
        for _ in range(200):
            ok, d = self.call("DescribeTable", {"TableName": name})
            if ok and d["Table"]["TableStatus"] == "ACTIVE":
                return
            time.sleep(0.01)
        raise RuntimeError(f"table {name} never became ACTIVE")


# ---- writing cases where keylint reads them ---------------------------------------


SHORT_TAGS = {"Fn::If": "!If", "Ref": "!Ref", "Fn::Sub": "!Sub"}


def yaml_text(v, indent=0, tags=False):
    """Block-style YAML of JSON data (strings double-quoted, as JSON writes
    them); with tags, the intrinsic functions of SHORT_TAGS in their short
    form (`!If` with a block list, `!Ref "name"`)."""
    pad = " " * indent
    if tags and isinstance(v, dict) and len(v) == 1 and next(iter(v)) in SHORT_TAGS:
        (k, x), = v.items()
        if isinstance(x, list):
            return f"{pad}{SHORT_TAGS[k]}\n{yaml_text(x, indent + 2, tags)}"
        return f"{pad}{SHORT_TAGS[k]} {json.dumps(x)}"
    if isinstance(v, dict):
        if not v:
            return pad + "{}"
        lines = []
        for k, x in v.items():
            body = yaml_text(x, indent + 2, tags)
            if isinstance(x, (dict, list)) and x and not body.lstrip().startswith("!"):
                lines.append(f"{pad}{json.dumps(k)}:\n{body}")
            else:
                lines.append(f"{pad}{json.dumps(k)}: {body.lstrip()}")
        return "\n".join(lines)
    if isinstance(v, list):
        if not v:
            return pad + "[]"
        lines = []
        for x in v:
            body = yaml_text(x, indent + 2, tags)
            lines.append(f"{pad}- {body.lstrip()}")
        return "\n".join(lines)
    return pad + json.dumps(v)


def template(req):
    return {"AWSTemplateFormatVersion": "2010-09-09",
            "Resources": {"Table": {"Type": "AWS::DynamoDB::Table", "Properties": req}}}


CDK_TYPES = {"S": "AttributeType.STRING", "N": "AttributeType.NUMBER",
             "B": "AttributeType.BINARY"}
CDK_PROJ = {"ALL": "ProjectionType.ALL", "KEYS_ONLY": "ProjectionType.KEYS_ONLY",
            "INCLUDE": "ProjectionType.INCLUDE"}
# what keylint judges in a CDK table (the others are CloudFormation's shape)
CDK_FAULTS = {None, "index-name", "dup-index", "too-many-lsi", "too-many-gsi",
              "lsi-no-table-range", "same-name"}


def cdk_text(req, fault):
    """The table as a CDK TableV2, or None when CDK cannot say it."""
    if fault not in CDK_FAULTS:
        return None
    try:
        types = {}
        for d in req["AttributeDefinitions"]:
            if d["AttributeName"] in types or d["AttributeType"] not in CDK_TYPES:
                return None
            types[d["AttributeName"]] = d["AttributeType"]

        def attr(name):
            return f"{{ name: {json.dumps(name)}, type: {CDK_TYPES[types[name]]} }}"

        def keys(schema, multi):
            h = [k["AttributeName"] for k in schema if k["KeyType"] == "HASH"]
            r = [k["AttributeName"] for k in schema if k["KeyType"] == "RANGE"]
            order = [k["KeyType"] for k in schema]
            if not h or order != ["HASH"] * len(h) + ["RANGE"] * len(r) or len(schema) != len(h) + len(r):
                raise KeyError
            if not multi and (len(h) > 1 or len(r) > 1):
                raise KeyError
            out = []
            if len(h) > 1:
                out.append("partitionKeys: [" + ", ".join(attr(a) for a in h) + "]")
            else:
                out.append("partitionKey: " + attr(h[0]))
            if len(r) > 1:
                out.append("sortKeys: [" + ", ".join(attr(a) for a in r) + "]")
            elif r:
                out.append("sortKey: " + attr(r[0]))
            return out, h, r

        props = [f"tableName: {json.dumps(req['TableName'])}"]
        tk, th, _ = keys(req["KeySchema"], False)
        props += tk
        used = set(th) | {k["AttributeName"] for k in req["KeySchema"]}
        for lst, local in (("GlobalSecondaryIndexes", False), ("LocalSecondaryIndexes", True)):
            if lst not in req:
                continue
            if not req[lst]:
                return None
            items = []
            for ix in req[lst]:
                p = ix["Projection"]
                if set(p) - {"ProjectionType", "NonKeyAttributes"} or \
                        p.get("ProjectionType") not in CDK_PROJ:
                    return None
                ik, ih, ir = keys(ix["KeySchema"], not local)
                used |= set(ih) | set(ir)
                if local:  # CDK's local index takes the table's partition key
                    if ih != th or len(ir) != 1:
                        return None
                    ik = ["sortKey: " + attr(ir[0])]
                fields = [f"indexName: {json.dumps(ix['IndexName'])}"] + ik + \
                         [f"projectionType: {CDK_PROJ[p['ProjectionType']]}"]
                if "NonKeyAttributes" in p:
                    fields.append(f"nonKeyAttributes: {json.dumps(p['NonKeyAttributes'])}")
                items.append("{ " + ", ".join(fields) + " }")
            props.append(("localSecondaryIndexes" if local else "globalSecondaryIndexes") +
                         ": [\n      " + ",\n      ".join(items) + ",\n    ]")
        if used != set(types):  # CDK defines exactly the key attributes
            return None
    except (KeyError, IndexError, TypeError):
        return None
    return ("import { Stack } from 'aws-cdk-lib';\n"
            "import { AttributeType, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';\n\n"
            "export class DataStack extends Stack {\n"
            "  readonly table = new TableV2(this, 'Table', {\n    " +
            ",\n    ".join(props) + ",\n  });\n}\n")


def tf_text(req, fault):
    """The table as Terraform's aws_dynamodb_table, or None when it cannot say
    it (keylint judges there what CDK's tables are judged for)."""
    if fault not in CDK_FAULTS or not cdk_text(req, fault):
        return None
    if any(len(ix["KeySchema"]) > 2 for ix in req.get("GlobalSecondaryIndexes", [])):
        return None  # multi-attribute keys: not read from Terraform

    def hcl(s):
        return json.dumps(s)

    ks = req["KeySchema"]
    lines = ['resource "aws_dynamodb_table" "table" {', f"  name         = {hcl(req['TableName'])}",
             '  billing_mode = "PAY_PER_REQUEST"', f"  hash_key     = {hcl(ks[0]['AttributeName'])}"]
    if len(ks) > 1:
        lines.append(f"  range_key    = {hcl(ks[1]['AttributeName'])}")
    for a in req["AttributeDefinitions"]:
        lines += ["", "  attribute {", f"    name = {hcl(a['AttributeName'])}",
                  f"    type = {hcl(a['AttributeType'])}", "  }"]
    for lst, block in (("GlobalSecondaryIndexes", "global_secondary_index"),
                       ("LocalSecondaryIndexes", "local_secondary_index")):
        for ix in req.get(lst, []):
            lines += ["", f"  {block} {{", f"    name            = {hcl(ix['IndexName'])}"]
            iks = ix["KeySchema"]
            if block == "global_secondary_index":
                lines.append(f"    hash_key        = {hcl(iks[0]['AttributeName'])}")
            if len(iks) > 1:
                lines.append(f"    range_key       = {hcl(iks[1]['AttributeName'])}")
            lines.append(f"    projection_type = {hcl(ix['Projection']['ProjectionType'])}")
            if "NonKeyAttributes" in ix["Projection"]:
                lines.append("    non_key_attributes = " +
                             json.dumps(ix["Projection"]["NonKeyAttributes"]))
            lines.append("  }")
    return "\n".join(lines + ["}", ""])


SAM_TYPES = {"S": "String", "N": "Number", "B": "Binary"}


def sam_text(req, fault):
    """A table of one attribute as SAM's AWS::Serverless::SimpleTable (its
    PrimaryKey Type names DynamoDB's type), or None."""
    if fault not in (None, "attr-type", "table-name") or set(req) != {
            "TableName", "AttributeDefinitions", "KeySchema", "BillingMode"}:
        return None
    defs, keys = req["AttributeDefinitions"], req["KeySchema"]
    if len(defs) != 1 or len(keys) != 1 or keys[0].get("KeyType") != "HASH" or \
            defs[0].get("AttributeName") != keys[0].get("AttributeName") or \
            "AttributeType" not in defs[0]:
        return None
    typ = SAM_TYPES.get(defs[0]["AttributeType"], defs[0]["AttributeType"])
    return yaml_text({"Transform": "AWS::Serverless-2016-10-31", "Resources": {"Table": {
        "Type": "AWS::Serverless::SimpleTable",
        "Properties": {"TableName": req["TableName"],
                       "PrimaryKey": {"Name": defs[0]["AttributeName"], "Type": typ}}}}}) + "\n"


def write_table(d, req, fmt, text=None):
    """The table as keylint reads it: a template (fmt yaml or json), a
    CreateTableCommand (sdk) or `text` (cdk) in src/table.ts."""
    os.makedirs(os.path.join(d, "src"))
    if fmt == "yaml":
        with open(os.path.join(d, "template.yaml"), "w", encoding="utf-8") as f:
            f.write(yaml_text(template(req)) + "\n")
        schemas = "[template.yaml]"
    elif fmt == "json":
        with open(os.path.join(d, "template.json"), "w", encoding="utf-8") as f:
            json.dump(template(req), f, indent=2, ensure_ascii=False)
        schemas = "[template.json]"
    elif fmt in ("tf", "sam"):
        name = "main.tf" if fmt == "tf" else "template.yaml"
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
        schemas = f"[{name}]"
    else:
        if fmt == "sdk":
            text = ("import { CreateTableCommand } from '@aws-sdk/client-dynamodb';\n\n"
                    "export const createTable = new CreateTableCommand(" +
                    json.dumps(req, indent=2, ensure_ascii=False) + ");\n")
        with open(os.path.join(d, "src", "table.ts"), "w", encoding="utf-8") as f:
            f.write(text)
        schemas = "[]"
    with open(os.path.join(d, ".keylint.yml"), "w", encoding="utf-8") as f:
        f.write(f"schemas: {schemas}\n")


def write_template(d, tmpl, fmt):
    """A template as it is: in YAML, the intrinsic functions in their short
    form (!If, !Ref, !Sub), found by discovery (no .keylint.yml, no source
    file); in JSON, in their long form ("Fn::If"), listed in
    `schemas:` beside a source file that does not use the table (the
    pre-check keeps its findings)."""
    os.makedirs(d)
    if fmt == "yaml":
        with open(os.path.join(d, "template.yaml"), "w", encoding="utf-8") as f:
            f.write(yaml_text(tmpl, tags=True) + "\n")
    else:
        with open(os.path.join(d, "template.json"), "w", encoding="utf-8") as f:
            json.dump(tmpl, f, indent=2)
        with open(os.path.join(d, ".keylint.yml"), "w", encoding="utf-8") as f:
            f.write("schemas: [template.json]\n")
        os.makedirs(os.path.join(d, "src"))
        with open(os.path.join(d, "src", "index.ts"), "w", encoding="utf-8") as f:
            f.write("export const ready = true;\n")


SAMPLE = {"S": "a", "N": "1", "B": "YQ=="}


def query_request(case, name):
    """The Query for dynalite and the KeyConditionExpression keylint reads."""
    q = case.query
    parts, values, names = [], {}, {}
    for i, cond in enumerate(q["conds"]):
        if cond[0] == ":first":
            attr, op = cond[1], "first"
        else:
            attr, op = cond
        ref = attr
        if q["names"]:
            ref = f"#n{i}"
            names[ref] = attr
        typ = C.ATTR_TYPES[attr]
        v = f":v{i}"
        values[v] = {typ: SAMPLE[typ]}
        if op == "between":
            values[v + "b"] = {typ: SAMPLE[typ]}
            parts.append(f"{ref} BETWEEN {v} AND {v}b")
        elif op == "begins_with":
            parts.append(f"begins_with({ref}, {v})")
        elif op == "first":
            parts.append(f"{v} = {ref}")
        else:
            parts.append(f"{ref} {op} {v}")
    req = {"TableName": name, "ExpressionAttributeValues": values}
    if q.get("op") == "Scan":
        if parts:
            req["FilterExpression"] = " AND ".join(parts)
        else:
            del req["ExpressionAttributeValues"]
    else:
        req["KeyConditionExpression"] = " AND ".join(parts)
    if names:
        req["ExpressionAttributeNames"] = names
    if q["index"]:
        req["IndexName"] = q["index"]
    return req


def write_query(d, table_req, qreq, op):
    """The table in a template, the query (or scan) in a TypeScript file, its
    values passed in (the document client's plain values)."""
    write_table(d, table_req, "yaml")
    params = [f"    {k}: {json.dumps(v)}," for k, v in qreq.items()
              if k != "ExpressionAttributeValues"]
    vals = list(qreq.get("ExpressionAttributeValues", {}))
    if vals:
        params.append("    ExpressionAttributeValues: { " +
                      ", ".join(f"'{k}': value{i}" for i, k in enumerate(vals)) + " },")
    args = "".join(f", value{i}: string" for i in range(len(vals)))
    with open(os.path.join(d, "src", "query.ts"), "w", encoding="utf-8") as f:
        f.write(f"import {{ DynamoDBDocumentClient, {op}Command }} from '@aws-sdk/lib-dynamodb';"
                f"\n\nexport async function run(client: DynamoDBDocumentClient{args}) {{\n"
                f"  return client.send(new {op}Command({{\n" + "\n".join(params) +
                "\n  }));\n}\n")


def lint(keylint, d):
    r = subprocess.run([keylint, "--format", "json", "--color", "never", d],
                       capture_output=True, text=True, timeout=120)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"keylint exited {r.returncode} on {d}: {r.stderr}")
    return json.loads(r.stdout)["findings"]


# ---- judging ------------------------------------------------------------------------


def judge(case, dyn_ok, dyn_msg, findings, fmt):
    """Disagreements of one case, as text (empty: they agree)."""
    want = case.fault
    out = []
    if dyn_ok is None:  # dynalite could not be asked (a lag case's table it refuses)
        dyn_right = False
    else:
        dyn = dynamo_reasons(dyn_msg) if not dyn_ok else set()
        dyn_right = dyn_ok if want is None else (not dyn_ok and want in dyn)
    if case.lag and dyn_right:
        out.append("dynalite now does what the case's note says only DynamoDB does: "
                   "drop the note (" + case.lag[:60] + "...)")
    elif not case.lag and not dyn_right:
        out.append("DynamoDB (dynalite) " + ("accepts it" if dyn_ok else
                   f"rejects it: {dyn_msg}") + f"; the case says {want or 'accepted'}")
    kl = keylint_reasons(findings)
    if kl != ({want} if want else set()):
        said = "; ".join(f"[{f['rule']}] {f['message']}" for f in findings
                         if f["rule"] in KEYLINT_RULES or f["rule"] == "schema") or "nothing"
        out.append(f"keylint ({fmt}) says {sorted(kl) or 'nothing'} ({said}); DynamoDB: "
                   f"{want or 'accepted'}")
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    keylint, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    module = os.path.join(root, "node_modules", "dynalite")
    if not os.path.isfile(os.path.join(module, "package.json")) or not shutil.which("node"):
        print("skipped: dynalite is not installed (scripts/setup --with-test-tools)")
        return 77
    cases = C.all_cases()
    keep = os.environ.get("KEYLINT_ORACLE_KEEP")  # a directory to leave the cases in
    work = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="keylint-oracle-")
    dyn = Dynamo(module)
    bad, runs, lags = [], {}, []
    try:
        for case in cases:
            d = os.path.join(work, case.id)
            req = copy.deepcopy(case.request)
            req.setdefault("TableName", case.id)
            if case.kind == "table":
                dyn_ok, dyn_msg = dyn.call("CreateTable", req)
                renderings = [(fmt, None) for fmt in case.formats]
                for label, render in (("cdk", cdk_text), ("tf", tf_text), ("sam", sam_text)):
                    text = render(req, case.fault)
                    if text:
                        renderings.append((label, text))
                for label, text in renderings:
                    write_table(os.path.join(d, label), req, label, text)
                    runs[label] = runs.get(label, 0) + 1
                    for p in judge(case, dyn_ok, dyn_msg, lint(keylint, os.path.join(d, label)),
                                   label):
                        bad.append(f"{case.id} ({case.name}): {p}")
            elif case.kind == "template":
                # every table of every choice of conditions, as CloudFormation sends it
                dyn_ok, dyn_msg = True, None
                for i, choice in enumerate(C.resolve(case.request)):
                    for j, treq in enumerate(choice):
                        treq["TableName"] = f"{case.id}-{i}-{j}"
                        ok, msg = dyn.call("CreateTable", treq)
                        if not ok and dyn_ok:
                            dyn_ok, dyn_msg = False, msg
                for fmt in ("yaml", "json"):  # discovered, listed
                    write_template(os.path.join(d, fmt), case.request, fmt)
                    runs["template " + fmt] = runs.get("template " + fmt, 0) + 1
                    for p in judge(case, dyn_ok, dyn_msg, lint(keylint, os.path.join(d, fmt)),
                                   "template " + fmt):
                        bad.append(f"{case.id} ({case.name}): {p}")
            else:
                qreq = query_request(case, case.id)
                op = case.query.get("op", "Query")
                made, msg = dyn.call("CreateTable", req)
                if made:
                    dyn.wait_active(case.id)
                    dyn_ok, dyn_msg = dyn.call(op, qreq)
                elif case.lag:
                    # DynamoDB has such tables, dynalite does not: the query is
                    # judged by the guide alone (and dynalite still lags it)
                    dyn_ok, dyn_msg = None, msg
                else:
                    bad.append(f"{case.id} ({case.name}): its table is refused: {msg}")
                    continue
                write_query(d, req, qreq, op)
                runs[op.lower()] = runs.get(op.lower(), 0) + 1
                for p in judge(case, dyn_ok, dyn_msg, lint(keylint, d), op.lower()):
                    bad.append(f"{case.id} ({case.name}): {p}")
            if case.lag:
                lags.append(case)
    finally:
        dyn.stop()
        if not keep:
            shutil.rmtree(work, ignore_errors=True)

    tables = [c for c in cases if c.kind == "table"]
    templates = [c for c in cases if c.kind == "template"]
    queries = [c for c in cases if c.kind == "query" and c.query.get("op") != "Scan"]
    scans = [c for c in cases if c.kind == "query" and c.query.get("op") == "Scan"]
    rejected = sum(1 for c in cases if c.fault)
    print(f"{len(cases)} cases: {len(tables)} CreateTable, "
          f"{len(templates)} templates with intrinsic functions, {len(queries)} Query, "
          f"{len(scans)} Scan; "
          f"{rejected} DynamoDB rejects, {len(cases) - rejected} it accepts; "
          f"{len({c.fault for c in cases if c.fault})} reasons")
    print("keylint runs: " + ", ".join(f"{k} {v}" for k, v in sorted(runs.items())))
    print(f"{len(lags)} cases judged by DynamoDB's documentation where dynalite lags it:")
    for c in lags:
        print(f"  {c.id} {c.name}: {c.fault or 'accepted'}")
    for b in bad:
        print("DISAGREE: " + b)
    print(f"{len(bad)} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
