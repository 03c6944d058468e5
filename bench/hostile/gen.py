#!/usr/bin/env python3
"""Hostile inputs for keylint: inputs that are legal, under the file size
cap, and built to make a careless linter quadratic (or worse).

    bench/hostile/gen.py KIND SIZE > FILE
    bench/hostile/gen.py --list

Every kind but the serverless-* ones writes one TypeScript file; those
write a serverless.yml (lint it with `schemas: [serverless.yml]` in
.keylint.yml; serverless-includes includes itself, so it must be saved
under that name). SIZE is the number of repeated units (substitutions,
lines, terms, levels...); see each kind's help. bench/hostile/run.sh
generates each kind at a few sizes and times keylint on them.
"""
import sys

HEAD = "import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';\n"


def template_ident(n):
    """a key template with SIZE identifier substitutions `A#${a}#${b}...`"""
    subs = "".join("#${v%d}" % (i % 1000) for i in range(n))
    params = ", ".join("v%d: string" % i for i in range(min(n, 1000)))
    return (HEAD + "export async function f(ddb: any, %s) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `A%s`, sk: 'X' } }));\n"
            "}\n" % (params, subs))


def template_text(n):
    """a key template with SIZE numeric substitutions, all read as text"""
    subs = "".join("#${%d}" % (i % 1000) for i in range(n))
    return (HEAD + "export async function f(ddb: any) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `A%s`, sk: 'X' } }));\n"
            "}\n" % subs)


def template_table(n):
    """a TableName template with SIZE substitutions (a table name pattern)"""
    subs = "".join("-${s%d}" % (i % 1000) for i in range(n))
    return (HEAD + "export async function f(ddb: any, id: string, s0: string) {\n"
            "  await ddb.send(new GetCommand({ TableName: `app%s`, Key: { pk: `USER#${id}`, sk: 'X' } }));\n"
            "}\n" % subs)


def consts(n):
    """SIZE module constants `export const kN = `USER#${id}`` (id unbound)"""
    out = ["export const k%d = `USER#${id}`;\n" % i for i in range(n)]
    out.append(HEAD + "export async function f(ddb: any) {\n"
               "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: k%d, sk: k0 } }));\n"
               "}\n" % (n - 1))
    return "".join(out)


def long_literal(n):
    """a key literal of SIZE characters (with '#' and '@' in it)"""
    unit = "ab1@2#"
    body = (unit * (n // len(unit) + 1))[:n]
    return (HEAD + "export async function f(ddb: any, id: string) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `USER#${id}`, sk: '%s' } }));\n"
            "}\n" % body)


def comments(n):
    """SIZE top-level comments around a little code"""
    out = [HEAD]
    for i in range(n):
        out.append("// comment %d about USER#${id} and pk\n" % i if i % 2 else
                   "/* block comment %d */\n" % i)
    out.append("export const get = (ddb: any, id: string) =>\n"
               "  ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `USER#${id}`, sk: 'X' } }));\n")
    return "".join(out)


def html_comments(n):
    """SIZE lines of `--> text` (HTML-like comments, JavaScript annex B)"""
    out = [HEAD]
    out += ["--> html comment %d\n" % i for i in range(n)]
    out.append("export const get = (ddb: any, id: string) =>\n"
               "  ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `USER#${id}`, sk: 'X' } }));\n")
    return "".join(out)


def nested(n):
    """object literals nested SIZE deep, a key at the bottom"""
    return (HEAD + "export const deep = " + "{ a: " * n + "{ pk: `USER#${id}`, sk: 'X' }"
            + " }" * n + ";\nconst id = 'x';\n")


def concat(n):
    """a key `'A#' + a + '#' + b + ...` of SIZE terms"""
    terms = " + ".join("'#'" if i % 2 else "v%d" % (i % 1000) for i in range(n))
    params = ", ".join("v%d: string" % i for i in range(0, min(n, 1000), 2))
    return (HEAD + "export async function f(ddb: any, %s) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: 'A#' + %s, sk: 'X' } }));\n"
            "}\n" % (params, terms))


def join(n):
    """a key `[a, b, ...].join('#')` of SIZE elements"""
    elems = ", ".join("v%d" % (i % 1000) if i % 3 else "'E%d'" % i for i in range(n))
    params = ", ".join("v%d: string" % i for i in range(min(n, 1000)))
    return (HEAD + "export async function f(ddb: any, %s) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: ['USER', %s].join('#'), sk: 'X' } }));\n"
            "}\n" % (params, elems))


def array_key(n):
    """a Turbine-style array key of SIZE elements"""
    elems = ", ".join("u.f%d" % i for i in range(n))
    return ("import { defineEntity } from 'dynamodb-turbine';\n"
            "export const users = defineEntity({ table: t, keys: { pk: (u: any) => ['user', %s], sk: () => ['x'] } });\n"
            % elems)


def long_line(n):
    """SIZE key writes on one line (each a finding printed with its line)"""
    stmt = "ddb.send(new PutCommand({ TableName: 'data', Item: { pk: 'USER#' + id, sk: `${a}${b}` } })); "
    return (HEAD + "export async function f(ddb: any, id: string, a: string, b: string) { "
            + stmt * n + "}\n")


def many_ops(n):
    """SIZE data operations in one function"""
    body = "".join("  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `USER#${id}`, sk: `S%d` } }));\n" % i
                   for i in range(n))
    return HEAD + "export async function f(ddb: any, id: string) {\n" + body + "}\n"


def many_objects(n):
    """SIZE key objects (not tied to a call) in one module"""
    return "const id = 'x';\n" + "".join(
        "export const o%d = { pk: `USER#${id}`, sk: 'S%d' };\n" % (i, i) for i in range(n))


def many_imports(n):
    """one import of SIZE names, each used in a key"""
    names = ", ".join("P%d" % i for i in range(n))
    uses = "".join("  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: P%d + id, sk: 'X' } }));\n" % i
                   for i in range(n))
    return ("import { %s } from './keys';\n" % names + HEAD
            + "export async function f(ddb: any, id: string) {\n" + uses + "}\n")


def many_locals(n):
    """SIZE local string constants in one function, each used in a key"""
    decls = "".join("  const p%d = 'P%d#';\n" % (i, i) for i in range(n))
    uses = "".join("  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: p%d + id, sk: 'X' } }));\n" % i
                   for i in range(0, n, 10))
    return HEAD + "export async function f(ddb: any, id: string) {\n" + decls + uses + "}\n"


def const_laughs(n):
    """module constants, each naming the one before SIZE times, 12 levels"""
    out = ["const c0 = 'ab';\n"]
    for i in range(1, 13):
        out.append("export const c%d = %s;\n" % (i, " + ".join(["c%d" % (i - 1)] * n)))
    out.append(HEAD + "export async function f(ddb: any) {\n"
               "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: c12, sk: c12 } }));\n"
               "}\n")
    return "".join(out)


def local_laughs(n):
    """local constants in a function, each naming the one before SIZE times"""
    out = [HEAD, "export async function f(ddb: any, id: string) {\n", "  const c0 = `A#${id}`;\n"]
    for i in range(1, 13):
        out.append("  const c%d = %s;\n" % (i, " + ".join(["c%d" % (i - 1)] * n)))
    out.append("  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: c12, sk: c12 } }));\n}\n")
    return "".join(out)


def helper_laughs(n):
    """key helpers, each calling the one before SIZE times, 12 levels"""
    out = ["export const h0 = (id: string) => `A#${id}`;\n"]
    for i in range(1, 13):
        out.append("export const h%d = (id: string) => %s;\n"
                   % (i, " + '#' + ".join(["h%d(id)" % (i - 1)] * n)))
    out.append(HEAD + "export async function f(ddb: any, id: string) {\n"
               "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: h12(id), sk: 'X' } }));\n"
               "}\n")
    return "".join(out)


def many_helpers(n):
    """SIZE key helpers, each called by a data operation"""
    out = ["export const k%d = (id: string) => `K%d#${id}`;\n" % (i, i) for i in range(n)]
    out.append(HEAD + "export async function f(ddb: any, id: string) {\n")
    out += ["  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: k%d(id), sk: 'X' } }));\n" % i
            for i in range(n)]
    out.append("}\n")
    return "".join(out)


def many_updates(n):
    """SIZE update operations, each setting a field its key is built from"""
    out = [HEAD.replace("PutCommand", "UpdateCommand"), "export async function f(ddb: any, o: any) {\n"]
    for i in range(n):
        out.append("  await ddb.send(new UpdateCommand({ TableName: 'data', Key: { pk: `E%d#${o.f%d}`, sk: 'X' },"
                   " UpdateExpression: 'SET f%d = :v', ExpressionAttributeValues: { ':v': 1 } }));\n"
                   % (i, i, i))
    out.append("}\n")
    return "".join(out)


def many_magic(n):
    """SIZE prefix constants and SIZE keys writing the prefix inline"""
    out = ["export const P%d_PREFIX = 'P%d#';\n" % (i, i) for i in range(n)]
    out.append(HEAD + "export async function f(ddb: any, id: string) {\n")
    out += ["  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `P%d#${id}`, sk: 'X' } }));\n" % i
            for i in range(n)]
    out.append("}\n")
    return "".join(out)


def nested_arrows(n):
    """functions nested SIZE deep, each building a key from an outer parameter"""
    out = [HEAD, "export const f = (ddb: any, id: string) => {\n"]
    out += ["  const g%d = (a%d: string) => {\n"
            "  ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `A#${id}#${a%d}`, sk: 'X' } }));\n"
            % (i, i, i) for i in range(n)]
    out.append("  return 0;\n" + "  };\n" * n + "};\n")
    return "".join(out)


def many_suppressions(n):
    """SIZE findings, each suppressed by a directive on the line before"""
    out = [HEAD, "export async function f(ddb: any, id: string) {\n"]
    for i in range(n):
        out.append("  // keylint-disable-next-line magic-string -- generated\n"
                   "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `E%d#${id}`, sk: 'X' } }));\n" % i)
    out.append("}\n")
    return "".join(out)


def long_directive(n):
    """one suppression directive naming SIZE rules (most of them unknown)"""
    ids = " ".join("magic-strin%d" % i if i % 2 else "magic-string" for i in range(n))
    return (HEAD + "export async function f(ddb: any, id: string) {\n"
            "  // keylint-disable-next-line " + ids + " -- generated\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `E#${id}`, sk: 'X' } }));\n}\n")


def call_chain(n):
    """a chain of SIZE calls `q.where('A#').where('A#')...`"""
    return ("export const q = (b: any) => b" + ".where('A#', 'x')" * n + ";\n")


def wide_helper(n):
    """a key helper of SIZE parameters, all in its key, and a call of it"""
    params = ", ".join("p%d: string" % i for i in range(n))
    key = "#".join("${p%d}" % i for i in range(n))
    args = ", ".join("'a%d'" % i for i in range(n))
    return ("export const pkOf = (%s) => `K#%s`;\n" % (params, key) + HEAD
            + "export const get = (ddb: any) =>\n"
            "  ddb.send(new GetCommand({ TableName: 'data', Key: { pk: pkOf(%s), sk: 'X' } }));\n" % args)


def many_members(n):
    """a class of SIZE table-name fields, each read by a data operation"""
    out = [HEAD, "export class Repo {\n"]
    out += ["  private readonly t%d = 'table-%d';\n" % (i, i) for i in range(n)]
    out.append("  constructor(private readonly ddb: any) {}\n  async get(id: string) {\n")
    out += ["    await this.ddb.send(new GetCommand({ TableName: this.t%d, Key: { pk: `U#${id}`, sk: 'X' } }));\n" % i
            for i in range(n)]
    out.append("  }\n}\n")
    return "".join(out)


def many_tables(n):
    """SIZE CDK tables, each with an index, and an operation on each"""
    out = ["import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';\n", HEAD,
           "export function stack(scope: any, ddb: any, id: string) {\n"]
    for i in range(n):
        out.append("  const t%d = new Table(scope, 'T%d', { tableName: 'table-%d', partitionKey: "
                   "{ name: 'pk', type: AttributeType.STRING } });\n"
                   "  t%d.addGlobalSecondaryIndex({ indexName: 'gsi1', partitionKey: { name: 'gsi1pk', "
                   "type: AttributeType.STRING } });\n" % (i, i, i, i))
    for i in range(n):
        out.append("  ddb.send(new GetCommand({ TableName: 'table-%d', Key: { pk: `U#${id}` } }));\n" % i)
    out.append("}\n")
    return "".join(out)


def nested_keys(n):
    """object literals nested SIZE deep, each with key attributes"""
    return (HEAD + "export const f = (id: string) => (" + "{ pk: `A#${id}`, sk: 'S', a: " * n + "0"
            + " }" * n + ");\n")


def key_prefixes(n):
    """a key template of SIZE inline prefixes `P0#${a}P1:${b}...`, mixed separators"""
    seps = "#:|/-_"
    body = "".join("P%d%s${v%d}" % (i, seps[i % len(seps)], i % 100) for i in range(n))
    params = ", ".join("v%d: string" % i for i in range(min(n, 100)))
    return (HEAD + "export async function f(ddb: any, %s) {\n"
            "  await ddb.send(new GetCommand({ TableName: 'data', Key: { pk: `%s`, sk: `${v0}@${v1}` } }));\n"
            "}\n" % (params, body))


def many_queries(n):
    """SIZE writes and SIZE queries of keys no write produces (unmatched-query)"""
    out = [HEAD.replace("PutCommand", "PutCommand, QueryCommand"),
           "export async function f(ddb: any, id: string) {\n"]
    out += ["  await ddb.send(new PutCommand({ TableName: 'data', Item: { pk: `W%d#${id}`, sk: 'X' } }));\n" % i
            for i in range(n)]
    out += ["  await ddb.send(new QueryCommand({ TableName: 'data', KeyConditionExpression: 'pk = :p',"
            " ExpressionAttributeValues: { ':p': `Q%d#${id}` } }));\n" % i for i in range(n)]
    out.append("}\n")
    return "".join(out)


def nested_names(n):
    """functions nested SIZE deep, each using a different module constant"""
    out = ["const k%d = 'K%d#';\n" % (i, i) for i in range(n)]
    out += [HEAD, "export const f = (ddb: any, id: string) => {\n"]
    out += ["  const g%d = (a%d: string) => {\n"
            "  ddb.send(new GetCommand({ TableName: 'data', Key: { pk: k%d + a%d + u%d, sk: 'X' } }));\n"
            % (i, i, i, i, i) for i in range(n)]
    out.append("  return 0;\n" + "  };\n" * n + "};\n")
    return "".join(out)


def serverless_laughs(n):
    """serverless.yml: 6 levels of `${self:...}`, each naming the next SIZE times"""
    out = ["service: laughs\nprovider:\n  name: aws\n  environment:\n"
           "    TABLE_NAME: ${self:custom.l0}\ncustom:\n"]
    levels = 6
    for i in range(levels):
        out.append("  l%d: \"%s\"\n" % (i, "${self:custom.l%d}" % (i + 1) * n))
    out.append("  l%d: ab\n" % levels)
    out.append("resources:\n  Resources:\n    T:\n      Type: AWS::DynamoDB::Table\n"
               "      Properties:\n        TableName: ${self:custom.l0}\n"
               "        KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"
               "        AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n")
    return "".join(out)


def serverless_vars(n):
    """serverless.yml: SIZE custom values and SIZE variables naming them"""
    out = ["service: vars\nprovider:\n  name: aws\n  environment:\n"]
    out += ["    T%d: ${self:custom.t%d}-${sls:stage}\n" % (i, i) for i in range(n)]
    out.append("custom:\n")
    out += ["  t%d: table-%d\n" % (i, i) for i in range(n)]
    return "".join(out)


def serverless_includes(n):
    """serverless.yml that includes itself SIZE times"""
    out = ["service: includes\nprovider:\n  name: aws\nresources:\n"]
    out += ["  - ${file(./serverless.yml)}\n"] * n
    out.append("  - Resources:\n      T:\n        Type: AWS::DynamoDB::Table\n"
               "        Properties:\n          TableName: data\n"
               "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"
               "          AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n")
    return "".join(out)


KINDS = {
    "template-ident": template_ident,
    "template-text": template_text,
    "template-table": template_table,
    "consts": consts,
    "long-literal": long_literal,
    "comments": comments,
    "html-comments": html_comments,
    "nested": nested,
    "concat": concat,
    "join": join,
    "array-key": array_key,
    "long-line": long_line,
    "many-ops": many_ops,
    "many-objects": many_objects,
    "many-imports": many_imports,
    "many-locals": many_locals,
    "const-laughs": const_laughs,
    "local-laughs": local_laughs,
    "helper-laughs": helper_laughs,
    "many-helpers": many_helpers,
    "many-updates": many_updates,
    "many-magic": many_magic,
    "nested-arrows": nested_arrows,
    "many-suppressions": many_suppressions,
    "long-directive": long_directive,
    "call-chain": call_chain,
    "wide-helper": wide_helper,
    "many-members": many_members,
    "many-tables": many_tables,
    "nested-keys": nested_keys,
    "key-prefixes": key_prefixes,
    "many-queries": many_queries,
    "nested-names": nested_names,
    "serverless-laughs": serverless_laughs,
    "serverless-vars": serverless_vars,
    "serverless-includes": serverless_includes,
}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        for k, f in KINDS.items():
            print("%-20s %s" % (k, f.__doc__))
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in KINDS:
        sys.stderr.write("usage: gen.py KIND SIZE  (gen.py --list for the kinds)\n")
        return 2
    sys.stdout.write(KINDS[sys.argv[1]](int(sys.argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
