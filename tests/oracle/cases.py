"""The cases of the DynamoDB differential suite (oracle_test.py).

A table case is a CreateTable request; a query case is a valid CreateTable
request and a Query on that table (KeyConditionExpression, IndexName,
ExpressionAttributeNames, typed values). Every case names the one reason
DynamoDB rejects it for (`fault`, a reason of REASONS), or None when
DynamoDB accepts it. The runner sends each to DynamoDB (dynalite), writes
it where keylint reads it (a template, a CreateTableCommand, a CDK table,
a query in TypeScript) and requires both verdicts to be the case's.

Where dynalite does not implement what DynamoDB does, the case carries
`lag`: what DynamoDB does, with the page of the DynamoDB documentation that
says so. Such a case is judged against DynamoDB's documented verdict, and
the runner checks that dynalite still differs (when it catches up, the
exception goes).

Cases are generated from a few base tables by single mutations, so that
each has exactly one mistake; the order is fixed (no randomness), so a
failure names the same case every run.
"""

import copy

# ---- reasons ---------------------------------------------------------------

# Reason -> what it means. Table reasons are the `schema` rule's; query
# reasons are unknown-index, key-condition-attribute and partition-key-range.
REASONS = {
    "undefined-attr": "a key attribute missing from AttributeDefinitions",
    "unused-attr": "an AttributeDefinitions entry no key schema uses",
    "dup-attr": "an attribute defined twice",
    "attr-type": "an AttributeType other than S, N, B",
    "attr-no-name": "an AttributeDefinitions entry without AttributeName",
    "no-attr-defs": "no AttributeDefinitions",
    "no-keyschema": "a table or index without KeySchema",
    "key-shape": "a KeySchema that is not one HASH then at most one RANGE key "
                 "(for a global index: up to 4 of each)",
    "key-no-name": "a KeySchema entry without AttributeName",
    "same-name": "one attribute twice in a key schema",
    "lsi-no-table-range": "a local index on a table without sort key",
    "lsi-no-range": "a local index without sort key",
    "lsi-hash": "a local index on another partition key",
    "no-index-name": "an index without IndexName",
    "index-name": "an IndexName DynamoDB refuses",
    "table-name": "a TableName DynamoDB refuses",
    "dup-index": "two indexes of one name",
    "empty-index-list": "an empty index list",
    "too-many-lsi": "more than 5 local indexes",
    "too-many-gsi": "more than 20 global indexes",
    "no-projection": "an index without Projection",
    "projection-type": "a Projection without (or with a wrong) ProjectionType",
    "nonkey-without-include": "NonKeyAttributes with ProjectionType ALL or KEYS_ONLY",
    "nonkey-none": "INCLUDE without NonKeyAttributes, or an empty NonKeyAttributes",
    "too-many-nonkey": "more than 20 NonKeyAttributes in an index",
    "too-many-nonkey-total": "more than 100 NonKeyAttributes in a table",
    "unknown-index": "a query on an index the table does not have",
    "key-condition": "a key condition on a non-key attribute, or without the partition key",
    "pk-range": "a range condition on a partition key",
}

# ---- citations for where dynalite lags DynamoDB ------------------------------

GUIDE_MULTI = ("DynamoDB accepts a global secondary index with a multi-attribute key (up to "
               "4 HASH and 4 RANGE attributes, since November 2025); dynalite allows 2 "
               "KeySchema elements, the second a RANGE. DynamoDB Developer Guide, "
               "'Multi-attribute keys pattern' (GSI.DesignPattern.MultiAttributeKeys) and "
               "'Using Global Secondary Indexes', section 'Multi-attribute key schema' "
               "(GSI.html#GSI.MultiAttributeKeys)")
GUIDE_MULTI_QUERY = ("A query on a multi-attribute key names every partition key attribute "
                     "with '=' and the sort key attributes left to right without a gap, a range "
                     "only on the last one it names. " + GUIDE_MULTI)
API_UNUSED = ("DynamoDB rejects an AttributeDefinitions entry no key schema uses, with or "
              "without indexes ('One or more parameter values were invalid: Some "
              "AttributeDefinitions are not used'); dynalite checks it only for a table without "
              "indexes. Amazon DynamoDB API Reference, CreateTable, AttributeDefinitions: "
              "'An array of attributes that describe the key schema for the table and indexes'")
API_DUP = ("DynamoDB rejects an attribute defined twice ('Attribute Name is duplicated'); "
           "dynalite does not check it (without indexes it reports the count of definitions "
           "instead). Amazon DynamoDB API Reference, CreateTable, AttributeDefinitions")
API_INCLUDE = ("DynamoDB rejects ProjectionType INCLUDE without NonKeyAttributes ('ProjectionType "
               "is INCLUDE, but NonKeyAttributes is not specified'); dynalite accepts it. Amazon "
               "DynamoDB API Reference, Projection: 'INCLUDE - In addition to the attributes "
               "described in KEYS_ONLY, the secondary index will include other non-key "
               "attributes that you specify'")
API_NONKEY_20 = ("DynamoDB takes at most 20 NonKeyAttributes in one Projection; dynalite has no "
                 "upper bound. Amazon DynamoDB API Reference, Projection, NonKeyAttributes: "
                 "'Array Members: Minimum number of 1 item. Maximum number of 20 items'")
API_NONKEY_100 = ("DynamoDB takes at most 100 NonKeyAttributes summed over a table's indexes; "
                  "dynalite does not count them. Amazon DynamoDB API Reference, Projection, "
                  "NonKeyAttributes: 'the total count of NonKeyAttributes summed across all of "
                  "the secondary indexes, must not exceed 100'")

# ---- building blocks ----------------------------------------------------------

TYPES = ("S", "N", "B")


def ad(name, typ="S"):
    return {"AttributeName": name, "AttributeType": typ}


def ks(*pairs):
    """ks("pk", "HASH", "sk", "RANGE") -> a KeySchema."""
    return [{"AttributeName": pairs[i], "KeyType": pairs[i + 1]} for i in range(0, len(pairs), 2)]


def gsi(name, keys, projection=None):
    return {"IndexName": name, "KeySchema": keys,
            "Projection": projection if projection is not None else {"ProjectionType": "ALL"}}


def table(attrs, keys, gsis=None, lsis=None):
    t = {"AttributeDefinitions": attrs, "KeySchema": keys, "BillingMode": "PAY_PER_REQUEST"}
    if gsis is not None:
        t["GlobalSecondaryIndexes"] = gsis
    if lsis is not None:
        t["LocalSecondaryIndexes"] = lsis
    return t


class Case:
    def __init__(self, kind, name, request, fault=None, lag=None, query=None, formats=None):
        self.kind = kind          # "table", "template" or "query"
        self.name = name          # what it tries, for messages
        self.request = request    # CreateTable (TableName set by the runner); a template
        self.fault = fault        # the reason DynamoDB rejects it, None: accepted
        self.lag = lag            # where dynalite lags DynamoDB: why, with a citation
        self.query = query        # Query request (TableName set by the runner)
        self.formats = formats    # how keylint reads the table (see oracle_test.py)
        self.id = None


# The formats a table case is written in for keylint, in turn; "cdk" only
# for a case CDK's TableV2 can express (oracle_test.py decides).
TABLE_FORMATS = ("yaml", "json", "sdk")


def _table_cases():
    out = []

    def add(name, req, fault=None, lag=None, formats=None):
        out.append(Case("table", name, req, fault, lag, formats=formats))

    # -- accepted tables -------------------------------------------------------
    for t1 in TYPES:
        add(f"hash key of type {t1}", table([ad("pk", t1)], ks("pk", "HASH")))
        for t2 in TYPES:
            add(f"hash {t1} and range {t2}",
                table([ad("pk", t1), ad("sk", t2)], ks("pk", "HASH", "sk", "RANGE")))
    for proj in ({"ProjectionType": "ALL"}, {"ProjectionType": "KEYS_ONLY"},
                 {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b"]}):
        p = proj["ProjectionType"]
        add(f"global index, projection {p}",
            table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH"), proj)]))
        add(f"global index with sort key, projection {p}",
            table([ad("pk"), ad("sk"), ad("g"), ad("h", "N")], ks("pk", "HASH", "sk", "RANGE"),
                  [gsi("ByGH", ks("g", "HASH", "h", "RANGE"), proj)]))
        add(f"local index, projection {p}",
            table([ad("pk"), ad("sk"), ad("l", "N")], ks("pk", "HASH", "sk", "RANGE"),
                  lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"), proj)]))
    for t1 in TYPES:
        for t2 in TYPES:
            add(f"global index keys of types {t1} and {t2}",
                table([ad("pk"), ad("g", t1), ad("h", t2)], ks("pk", "HASH"),
                      [gsi("ByGH", ks("g", "HASH", "h", "RANGE"))]))
        add(f"local index sort key of type {t1}",
            table([ad("pk"), ad("sk", "N"), ad("l", t1)], ks("pk", "HASH", "sk", "RANGE"),
                  lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"))]))
    add("global index on the table's own keys, swapped",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"),
              [gsi("Inverted", ks("sk", "HASH", "pk", "RANGE"))]))
    add("global index on the table's sort key alone",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"), [gsi("BySk", ks("sk", "HASH"))]))
    add("global and local index together",
        table([ad("pk"), ad("sk"), ad("g"), ad("l", "B")], ks("pk", "HASH", "sk", "RANGE"),
              [gsi("ByG", ks("g", "HASH", "sk", "RANGE"))],
              [gsi("ByL", ks("pk", "HASH", "l", "RANGE"), {"ProjectionType": "KEYS_ONLY"})]))
    for name in ("abc", "a.b", "A_b-c.9", "x" * 255, "0-9", "GSI_1.v2-final"):
        add(f"index name {name[:20]!r} ({len(name)} characters)",
            table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi(name, ks("g", "HASH"))]))
    add("5 local indexes",
        table([ad("pk"), ad("sk"), ad("l")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi(f"Local{i}", ks("pk", "HASH", "l", "RANGE")) for i in range(5)]))
    add("20 global indexes",
        table([ad("pk"), ad("g")], ks("pk", "HASH"),
              [gsi(f"Global{i}", ks("g", "HASH")) for i in range(20)]))
    add("20 NonKeyAttributes",
        table([ad("pk"), ad("g")], ks("pk", "HASH"),
              [gsi("ByG", ks("g", "HASH"),
                   {"ProjectionType": "INCLUDE", "NonKeyAttributes": [f"a{i}" for i in range(20)]})]))
    add("100 NonKeyAttributes in 5 indexes",
        table([ad("pk"), ad("g")], ks("pk", "HASH"),
              [gsi(f"ByG{j}", ks("g", "HASH"),
                   {"ProjectionType": "INCLUDE",
                    "NonKeyAttributes": [f"a{j}_{i}" for i in range(20)]}) for j in range(5)]))

    # -- attribute definitions ------------------------------------------------
    add("the hash key is not defined", table([], ks("pk", "HASH")), "undefined-attr")
    add("the range key is not defined",
        table([ad("pk")], ks("pk", "HASH", "sk", "RANGE")), "undefined-attr")
    add("a global index's hash key is not defined",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"), [gsi("ByG", ks("g", "HASH"))]),
        "undefined-attr")
    add("a global index's range key is not defined",
        table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH", "h", "RANGE"))]),
        "undefined-attr")
    add("a local index's range key is not defined",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"))]), "undefined-attr")
    add("an unused definition, no index",
        table([ad("pk"), ad("extra")], ks("pk", "HASH")), "unused-attr")
    add("an unused definition, with a range key",
        table([ad("pk"), ad("sk"), ad("extra", "N")], ks("pk", "HASH", "sk", "RANGE")),
        "unused-attr")
    add("an unused definition, with a global index",
        table([ad("pk"), ad("g"), ad("extra")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH"))]),
        "unused-attr", lag=API_UNUSED)
    add("an unused definition, with a local index",
        table([ad("pk"), ad("sk"), ad("l"), ad("extra")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"))]), "unused-attr", lag=API_UNUSED)
    add("an attribute defined twice",
        table([ad("pk"), ad("g"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH"))]),
        "dup-attr", lag=API_DUP)
    for bad in ("SS", "X", "s", "STRING", "NS"):
        add(f"AttributeType {bad!r}", table([ad("pk", bad)], ks("pk", "HASH")), "attr-type")
    t = table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"))
    del t["AttributeDefinitions"][1]["AttributeType"]
    add("an AttributeDefinitions entry without AttributeType", t, "attr-type")
    t = table([ad("pk"), {"AttributeType": "S"}], ks("pk", "HASH"))
    add("an AttributeDefinitions entry without AttributeName", t, "attr-no-name")
    t = table([ad("pk")], ks("pk", "HASH"))
    del t["AttributeDefinitions"]
    add("no AttributeDefinitions", t, "no-attr-defs")

    # -- key schemas ------------------------------------------------------------
    t = table([ad("pk")], ks("pk", "HASH"))
    del t["KeySchema"]
    add("no KeySchema", t, "no-keyschema")
    add("an empty KeySchema", table([ad("pk")], []), "key-shape")
    add("two HASH keys", table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "HASH")), "key-shape")
    add("two RANGE keys", table([ad("pk"), ad("sk")], ks("pk", "RANGE", "sk", "RANGE")),
        "key-shape")
    add("the RANGE key first", table([ad("pk"), ad("sk")], ks("sk", "RANGE", "pk", "HASH")),
        "key-shape")
    add("only a RANGE key", table([ad("pk")], ks("pk", "RANGE")), "key-shape")
    add("three keys",
        table([ad("pk"), ad("sk"), ad("x")], ks("pk", "HASH", "sk", "RANGE", "x", "RANGE")),
        "key-shape")
    for bad in ("PARTITION", "hash", "SORT"):
        add(f"KeyType {bad!r}", table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", bad)),
            "key-shape")
    t = table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"))
    del t["KeySchema"][1]["KeyType"]
    add("a KeySchema entry without KeyType", t, "key-shape")
    t = table([ad("pk")], ks("pk", "HASH"))
    del t["KeySchema"][0]["AttributeName"]
    add("a KeySchema entry without AttributeName", t, "key-no-name")
    # the same attribute as HASH and RANGE (a second definition, used by a
    # global index, keeps DynamoDB's count of definitions out of it)
    add("the table's HASH and RANGE key are one attribute",
        table([ad("pk"), ad("g")], ks("pk", "HASH", "pk", "RANGE"), [gsi("ByG", ks("g", "HASH"))]),
        "same-name")
    add("a global index's HASH and RANGE key are one attribute",
        table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH", "g", "RANGE"))]),
        "same-name")
    add("a local index's HASH and RANGE key are one attribute",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByL", ks("pk", "HASH", "pk", "RANGE"))]), "same-name")
    add("a global index with two RANGE keys",
        table([ad("pk"), ad("g"), ad("h")], ks("pk", "HASH"),
              [gsi("ByG", ks("g", "RANGE", "h", "RANGE"))]), "key-shape")
    add("a global index with only a RANGE key",
        table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "RANGE"))]), "key-shape")
    add("a global index, RANGE before HASH",
        table([ad("pk"), ad("g"), ad("h")], ks("pk", "HASH"),
              [gsi("ByG", ks("h", "RANGE", "g", "HASH"))]), "key-shape")
    t = table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH"))])
    del t["GlobalSecondaryIndexes"][0]["KeySchema"]
    add("a global index without KeySchema", t, "no-keyschema")

    # -- multi-attribute keys of global indexes (dynalite: at most 2 elements) --
    add("a global index with 2 HASH attributes",
        table([ad("pk"), ad("a"), ad("b")], ks("pk", "HASH"),
              [gsi("ByAB", ks("a", "HASH", "b", "HASH"))]), lag=GUIDE_MULTI)
    add("a global index with 4 HASH and 4 RANGE attributes",
        table([ad("pk")] + [ad(f"h{i}") for i in range(4)] + [ad(f"r{i}", "N") for i in range(4)],
              ks("pk", "HASH"),
              [gsi("Wide", [{"AttributeName": f"h{i}", "KeyType": "HASH"} for i in range(4)] +
                   [{"AttributeName": f"r{i}", "KeyType": "RANGE"} for i in range(4)])]),
        lag=GUIDE_MULTI)
    add("a global index with 1 HASH and 3 RANGE attributes",
        table([ad("pk"), ad("a"), ad("b"), ad("c"), ad("d")], ks("pk", "HASH"),
              [gsi("ByABCD", ks("a", "HASH", "b", "RANGE", "c", "RANGE", "d", "RANGE"))]),
        lag=GUIDE_MULTI)
    # (dynalite rejects these two for its own limit of 2 elements: the same
    # reason, a KeySchema DynamoDB does not take)
    add("a global index with 5 HASH attributes",
        table([ad("pk")] + [ad(f"h{i}") for i in range(5)], ks("pk", "HASH"),
              [gsi("TooWide", [{"AttributeName": f"h{i}", "KeyType": "HASH"} for i in range(5)])]),
        "key-shape")
    add("a global index, HASH after RANGE in a multi-attribute key",
        table([ad("pk"), ad("a"), ad("b"), ad("c")], ks("pk", "HASH"),
              [gsi("Mixed", ks("a", "HASH", "b", "RANGE", "c", "HASH"))]), "key-shape")
    add("a global index naming one attribute twice in a multi-attribute key",
        table([ad("pk"), ad("a"), ad("b")], ks("pk", "HASH"),
              [gsi("Twice", ks("a", "HASH", "b", "HASH", "a", "RANGE"))]),
        "same-name", lag=GUIDE_MULTI)

    # -- local indexes -----------------------------------------------------------
    add("a local index on a table without sort key",
        table([ad("pk"), ad("l")], ks("pk", "HASH"),
              lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"))]), "lsi-no-table-range")
    add("a local index without sort key",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByL", ks("pk", "HASH"))]), "lsi-no-range")
    add("a local index on another partition key",
        table([ad("pk"), ad("sk"), ad("o")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByO", ks("o", "HASH", "sk", "RANGE"))]), "lsi-hash")
    add("6 local indexes",
        table([ad("pk"), ad("sk"), ad("l")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi(f"Local{i}", ks("pk", "HASH", "l", "RANGE")) for i in range(6)]),
        "too-many-lsi")
    add("21 global indexes",
        table([ad("pk"), ad("g")], ks("pk", "HASH"),
              [gsi(f"Global{i}", ks("g", "HASH")) for i in range(21)]), "too-many-gsi")
    add("an empty GlobalSecondaryIndexes", table([ad("pk")], ks("pk", "HASH"), []),
        "empty-index-list")
    add("an empty LocalSecondaryIndexes",
        table([ad("pk"), ad("sk")], ks("pk", "HASH", "sk", "RANGE"), lsis=[]), "empty-index-list")

    # -- index names -------------------------------------------------------------
    for kind in ("global", "local"):
        def with_index(name, kind=kind):
            if kind == "global":
                return table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi(name, ks("g", "HASH"))])
            return table([ad("pk"), ad("sk"), ad("l")], ks("pk", "HASH", "sk", "RANGE"),
                         lsis=[gsi(name, ks("pk", "HASH", "l", "RANGE"))])
        for name in ("ab", "a", "by pk", "by#pk", "index/1", "x" * 256, "naïve"):
            add(f"{kind} index name {name[:20]!r} ({len(name)} characters)", with_index(name),
                "index-name")
        t = with_index("ByX")
        del t["GlobalSecondaryIndexes" if kind == "global" else "LocalSecondaryIndexes"][0]["IndexName"]
        add(f"a {kind} index without IndexName", t, "no-index-name")
    add("two global indexes of one name",
        table([ad("pk"), ad("g"), ad("h")], ks("pk", "HASH"),
              [gsi("ByX", ks("g", "HASH")), gsi("ByX", ks("h", "HASH"))]), "dup-index")
    add("two local indexes of one name",
        table([ad("pk"), ad("sk"), ad("l"), ad("m")], ks("pk", "HASH", "sk", "RANGE"),
              lsis=[gsi("ByX", ks("pk", "HASH", "l", "RANGE")),
                    gsi("ByX", ks("pk", "HASH", "m", "RANGE"))]), "dup-index")
    add("a global and a local index of one name",
        table([ad("pk"), ad("sk"), ad("g"), ad("l")], ks("pk", "HASH", "sk", "RANGE"),
              [gsi("ByX", ks("g", "HASH"))], [gsi("ByX", ks("pk", "HASH", "l", "RANGE"))]),
        "dup-index")

    # -- projections --------------------------------------------------------------
    for kind in ("global", "local"):
        def with_projection(proj, kind=kind):
            if kind == "global":
                t = table([ad("pk"), ad("g")], ks("pk", "HASH"), [gsi("ByG", ks("g", "HASH"))])
                ix = t["GlobalSecondaryIndexes"][0]
            else:
                t = table([ad("pk"), ad("sk"), ad("l")], ks("pk", "HASH", "sk", "RANGE"),
                          lsis=[gsi("ByL", ks("pk", "HASH", "l", "RANGE"))])
                ix = t["LocalSecondaryIndexes"][0]
            if proj is None:
                del ix["Projection"]
            else:
                ix["Projection"] = proj
            return t
        add(f"a {kind} index without Projection", with_projection(None), "no-projection")
        add(f"a {kind} index with Projection {{}}", with_projection({}), "projection-type")
        add(f"a {kind} index, NonKeyAttributes without ProjectionType",
            with_projection({"NonKeyAttributes": ["a"]}), "projection-type")
        for bad in ("NONE", "all", "KEYS"):
            add(f"a {kind} index, ProjectionType {bad!r}",
                with_projection({"ProjectionType": bad}), "projection-type")
        for p in ("ALL", "KEYS_ONLY"):
            add(f"a {kind} index, {p} with NonKeyAttributes",
                with_projection({"ProjectionType": p, "NonKeyAttributes": ["a"]}),
                "nonkey-without-include")
            add(f"a {kind} index, {p} with an empty NonKeyAttributes",
                with_projection({"ProjectionType": p, "NonKeyAttributes": []}), "nonkey-none")
        add(f"a {kind} index, INCLUDE with an empty NonKeyAttributes",
            with_projection({"ProjectionType": "INCLUDE", "NonKeyAttributes": []}), "nonkey-none")
        add(f"a {kind} index, INCLUDE without NonKeyAttributes",
            with_projection({"ProjectionType": "INCLUDE"}), "nonkey-none", lag=API_INCLUDE)
        add(f"a {kind} index, INCLUDE with 21 NonKeyAttributes",
            with_projection({"ProjectionType": "INCLUDE",
                             "NonKeyAttributes": [f"a{i}" for i in range(21)]}),
            "too-many-nonkey", lag=API_NONKEY_20)
    add("101 NonKeyAttributes in 6 indexes",
        table([ad("pk"), ad("g")], ks("pk", "HASH"),
              [gsi(f"ByG{j}", ks("g", "HASH"),
                   {"ProjectionType": "INCLUDE",
                    "NonKeyAttributes": [f"a{j}_{i}" for i in range(20 if j < 5 else 1)]})
               for j in range(6)]), "too-many-nonkey-total", lag=API_NONKEY_100)

    # -- table names (the runner names every other table itself) ---------------------
    for name in ("ab", "my table", "orders/2024", "x" * 256, "tåble"):
        t = table([ad("pk")], ks("pk", "HASH"))
        t["TableName"] = name
        add(f"TableName {name[:20]!r} ({len(name)} characters)", t, "table-name")
    for name in ("abc", "orders.v2", "Orders_2024-eu", "x" * 255):
        t = table([ad("pk")], ks("pk", "HASH"))
        t["TableName"] = name
        add(f"TableName {name[:20]!r} ({len(name)} characters)", t)
    return out


# ---- templates with intrinsic functions --------------------------------------

# A template case is a CloudFormation template (JSON-shaped, intrinsic
# functions in their long form: "Fn::If", "Ref", "Fn::Sub", "Fn::ForEach::")
# whose tables DynamoDB receives as CloudFormation would send them: for
# every choice of its conditions (resolve()), each table a CreateTable. The
# template is accepted when every such request is; keylint must then say
# nothing (a function's value is unknown to it, not wrong), and where a
# mistake does not depend on any function it must still find it.

NO_VALUE = {"Ref": "AWS::NoValue"}


def _subst(v, var, val):
    """Fn::ForEach's ${var} (and &{var}) replaced in keys and strings."""
    if isinstance(v, dict):
        return {_subst(k, var, val): _subst(x, var, val) for k, x in v.items()}
    if isinstance(v, list):
        return [_subst(x, var, val) for x in v]
    if isinstance(v, str):
        alnum = "".join(ch for ch in val if ch.isalnum())
        return v.replace("${" + var + "}", val).replace("&{" + var + "}", alnum)
    return v


def _eval(v, conds, params):
    """A value with Fn::If, Ref and Fn::Sub evaluated; NO_VALUE drops it."""
    if isinstance(v, dict) and len(v) == 1:
        (k, x), = v.items()
        if k == "Fn::If":
            return _eval(x[1] if conds[x[0]] else x[2], conds, params)
        if k == "Ref":
            return NO_VALUE if x == "AWS::NoValue" else params[x]
        if k == "Fn::Sub":
            out = x
            for name, val in params.items():
                out = out.replace("${" + name + "}", val)
            return out
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            e = _eval(x, conds, params)
            if e is not NO_VALUE:
                out[k] = e
        return out
    if isinstance(v, list):
        return [e for e in (_eval(x, conds, params) for x in v) if e is not NO_VALUE]
    return v


def resolve(tmpl):
    """[[CreateTable request of each table] for each choice of conditions]."""
    params = {k: p["Default"] for k, p in tmpl.get("Parameters", {}).items()}
    res = {}
    for k, v in tmpl["Resources"].items():
        if k.startswith("Fn::ForEach::"):
            var, coll, outs = v
            for item in coll:
                res.update(_subst(outs, var, item))
        else:
            res[k] = v
    names = sorted(tmpl.get("Conditions", {}))
    out = []
    for bits in range(1 << len(names)):
        conds = {n: bool(bits >> i & 1) for i, n in enumerate(names)}
        out.append([_eval(r["Properties"], conds, params) for r in res.values()
                    if r["Type"] == "AWS::DynamoDB::Table"])
    return out


def _cfn(resources, conditions=(), parameters=None, transform=False):
    t = {"AWSTemplateFormatVersion": "2010-09-09"}
    if transform:
        t["Transform"] = "AWS::LanguageExtensions"
    if parameters:
        t["Parameters"] = {k: {"Type": "String", "Default": v} for k, v in parameters.items()}
    if conditions:
        t["Conditions"] = {c: {"Fn::Equals": [{"Ref": "AWS::Region"}, "us-east-1"]}
                           for c in conditions}
    t["Resources"] = resources
    return t


def _res(props):
    return {"Type": "AWS::DynamoDB::Table", "Properties": props}


def _template_cases():
    out = []

    def add(name, tmpl, fault=None):
        c = Case("template", name, tmpl, fault)
        out.append(c)

    def fn_if(c, a, b):
        return {"Fn::If": [c, a, b]}

    # Fn::If as one entry of a list, and as the whole list
    add("Fn::If as an AttributeDefinitions entry and as the KeySchema",
        _cfn({"Table": _res({
            "AttributeDefinitions": [ad("pk"), fn_if("HasSk", ad("sk"), NO_VALUE)],
            "KeySchema": fn_if("HasSk", ks("pk", "HASH", "sk", "RANGE"), ks("pk", "HASH")),
            "BillingMode": "PAY_PER_REQUEST"})}, ["HasSk"]))
    add("Fn::If choosing between two KeySchemas of two entries",
        _cfn({"Table": _res({
            "AttributeDefinitions": [ad("pk"), ad("sk"), ad("alt")],
            "KeySchema": fn_if("Alt", ks("pk", "HASH", "alt", "RANGE"), ks("pk", "HASH", "sk", "RANGE")),
            "GlobalSecondaryIndexes": [gsi("ByX", fn_if("Alt", ks("sk", "HASH"), ks("alt", "HASH")))],
            "BillingMode": "PAY_PER_REQUEST"})}, ["Alt"]))
    add("Fn::If giving the GlobalSecondaryIndexes or no value",
        _cfn({"Table": _res({
            "AttributeDefinitions": fn_if("WithGsi", [ad("pk"), ad("g")], [ad("pk")]),
            "KeySchema": ks("pk", "HASH"),
            "GlobalSecondaryIndexes": fn_if("WithGsi", [gsi("ByG", ks("g", "HASH"))], NO_VALUE),
            "BillingMode": "PAY_PER_REQUEST"})}, ["WithGsi"]))
    add("Fn::If as one global index of the list",
        _cfn({"Table": _res({
            "AttributeDefinitions": [ad("pk"), ad("g"), fn_if("Second", ad("h"), NO_VALUE)],
            "KeySchema": ks("pk", "HASH"),
            "GlobalSecondaryIndexes": [gsi("ByG", ks("g", "HASH")),
                                       fn_if("Second", gsi("ByH", ks("h", "HASH")), NO_VALUE)],
            "BillingMode": "PAY_PER_REQUEST"})}, ["Second"]))
    add("Fn::If as a Projection",
        _cfn({"Table": _res({
            "AttributeDefinitions": [ad("pk"), ad("g")], "KeySchema": ks("pk", "HASH"),
            "GlobalSecondaryIndexes": [gsi("ByG", ks("g", "HASH"), fn_if(
                "Slim", {"ProjectionType": "KEYS_ONLY"},
                {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]}))],
            "BillingMode": "PAY_PER_REQUEST"})}, ["Slim"]))
    add("a mistake outside the Fn::If is still found",
        _cfn({"Table": _res({
            "AttributeDefinitions": [ad("pk"), fn_if("HasSk", ad("sk"), NO_VALUE)],
            "KeySchema": fn_if("HasSk", ks("pk", "HASH", "sk", "RANGE"), ks("pk", "HASH")),
            "LocalSecondaryIndexes": [],
            "BillingMode": "PAY_PER_REQUEST"})}, ["HasSk"]), "empty-index-list")

    # Ref and Fn::Sub as names (AWS's DynamoDB_Table sample names its key so)
    ref = {"Ref": "HashKeyElementName"}
    add("Ref to a parameter as the key's AttributeName",
        _cfn({"Table": _res({
            "AttributeDefinitions": [{"AttributeName": ref, "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": ref, "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST"})}, parameters={"HashKeyElementName": "id"}))
    add("Ref as the key's AttributeName, a literal sort key",
        _cfn({"Table": _res({
            "AttributeDefinitions": [{"AttributeName": ref, "AttributeType": "S"}, ad("sk")],
            "KeySchema": [{"AttributeName": ref, "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "BillingMode": "PAY_PER_REQUEST"})}, parameters={"HashKeyElementName": "id"}))
    sub = {"Fn::Sub": "${Prefix}pk"}
    add("Fn::Sub as AttributeName and IndexName",
        _cfn({"Table": _res({
            "AttributeDefinitions": [{"AttributeName": sub, "AttributeType": "S"}, ad("g")],
            "KeySchema": [{"AttributeName": sub, "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [gsi({"Fn::Sub": "${Prefix}ByG"}, ks("g", "HASH"))],
            "BillingMode": "PAY_PER_REQUEST"})}, parameters={"Prefix": "app"}))

    # Fn::ForEach (AWS::LanguageExtensions), expanded: its tables are judged
    loop = ["Name", ["Orders", "Users"], {"${Name}Table": _res({
        "TableName": {"Fn::Sub": "${AWS::StackName}-${Name}"},
        "AttributeDefinitions": [ad("pk"), ad("sk")],
        "KeySchema": ks("pk", "HASH", "sk", "RANGE"), "BillingMode": "PAY_PER_REQUEST"})}]
    add("tables made by Fn::ForEach", _cfn({"Fn::ForEach::Tables": loop}, transform=True))
    bad = copy.deepcopy(loop)
    bad[2]["${Name}Table"]["Properties"]["KeySchema"] = ks("${Name}Id", "HASH")
    bad[2]["${Name}Table"]["Properties"]["AttributeDefinitions"] = []
    add("tables made by Fn::ForEach with an undefined key",
        _cfn({"Fn::ForEach::Tables": bad}, transform=True), "undefined-attr")
    return out


# ---- queries ------------------------------------------------------------------

# The table every query case (but the multi-attribute ones) runs on: a
# partition and sort key, a global index with both, a global index with a
# partition key only, and a local index.
QUERY_TABLE = table(
    [ad("pk"), ad("sk"), ad("gpk"), ad("gsk", "N"), ad("g2"), ad("lsk", "N")],
    ks("pk", "HASH", "sk", "RANGE"),
    [gsi("GSI1", ks("gpk", "HASH", "gsk", "RANGE")), gsi("GSI2", ks("g2", "HASH"))],
    [gsi("LSI1", ks("pk", "HASH", "lsk", "RANGE"), {"ProjectionType": "KEYS_ONLY"})])
QUERY_HASH_ONLY = table([ad("pk")], ks("pk", "HASH"))
# a global index with a multi-attribute key (dynalite cannot create it)
QUERY_MULTI = table(
    [ad("pk"), ad("home"), ad("away"), ad("round", "N"), ad("leg", "N")],
    ks("pk", "HASH"),
    [gsi("ByTeams", ks("home", "HASH", "away", "HASH", "round", "RANGE", "leg", "RANGE"))])

# attribute -> its type, for the values of a query
ATTR_TYPES = {"pk": "S", "sk": "S", "gpk": "S", "gsk": "N", "g2": "S", "lsk": "N",
              "home": "S", "away": "S", "round": "N", "leg": "N", "orderState": "S",
              "lastSeenAt": "S"}


def _query_cases():
    out = []

    def q(name, conds, index=None, fault=None, on=QUERY_TABLE, lag=None, names=False):
        """conds: [(attr, op)] with op one of = < <= > >= between begins_with, or
        (":first", attr) for a value on the left."""
        out.append(Case("query", name, copy.deepcopy(on), fault, lag,
                        query={"conds": conds, "index": index, "names": names}))

    # -- accepted -----------------------------------------------------------------
    q("the partition key", [("pk", "=")])
    q("the partition key, the value first", [(":first", "pk")])
    for op in ("=", "<", "<=", ">", ">=", "between", "begins_with"):
        q(f"the sort key with {op}", [("pk", "="), ("sk", op)])
        q(f"the sort key with {op}, through ExpressionAttributeNames", [("pk", "="), ("sk", op)],
          names=True)
    for op in ("=", "<", ">=", "between"):
        q(f"GSI1's keys, sort key with {op}", [("gpk", "="), ("gsk", op)], "GSI1")
        q(f"the local index's sort key with {op}", [("pk", "="), ("lsk", op)], "LSI1")
    q("GSI1's partition key", [("gpk", "=")], "GSI1")
    q("GSI2's partition key", [("g2", "=")], "GSI2")
    q("the local index's partition key alone", [("pk", "=")], "LSI1")
    q("a table without sort key", [("pk", "=")], on=QUERY_HASH_ONLY)

    # -- scans: only the index is judged; a filter on a key is a filter ---------------
    def scan(name, index=None, fault=None, filt=None, on=QUERY_TABLE):
        out.append(Case("query", name, copy.deepcopy(on), fault,
                        query={"op": "Scan", "conds": filt or [], "index": index,
                               "names": False}))
    scan("a scan of the table")
    scan("a scan of GSI1", "GSI1")
    scan("a scan of the local index", "LSI1")
    scan("a scan filtering with begins_with on the partition key", filt=[("pk", "begins_with")])
    scan("a scan filtering on GSI1's partition key with >", "GSI1", filt=[("gpk", ">")])
    scan("a scan of index GSI9 the table does not have", "GSI9", "unknown-index")
    scan("a scan of an index on a table without indexes", "ByPk", "unknown-index",
         on=QUERY_HASH_ONLY)

    # -- unknown-index --------------------------------------------------------------
    for name in ("GSI3", "gsi1", "LSI2", "ByStatus"):
        q(f"index {name} the table does not have", [("pk", "=")], name, "unknown-index")
    q("an index on a table without indexes", [("pk", "=")], "GSI1", "unknown-index",
      on=QUERY_HASH_ONLY)

    # -- key-condition-attribute ------------------------------------------------------
    q("a non-key attribute with the partition key", [("pk", "="), ("orderState", "=")],
      fault="key-condition")
    q("a non-key attribute with the partition key, through names",
      [("pk", "="), ("orderState", "=")], fault="key-condition", names=True)
    q("a non-key attribute on a table without sort key", [("pk", "="), ("lastSeenAt", "=")],
      fault="key-condition", on=QUERY_HASH_ONLY)
    q("the sort key alone", [("sk", "=")], fault="key-condition")
    q("the sort key alone with begins_with", [("sk", "begins_with")], fault="key-condition")
    q("the table's partition key on GSI1", [("pk", "=")], "GSI1", "key-condition")
    q("GSI1's sort key alone", [("gsk", ">")], "GSI1", "key-condition")
    q("GSI1's partition key without IndexName", [("gpk", "=")], fault="key-condition")
    q("GSI1's sort key without IndexName", [("pk", "="), ("gsk", "=")], fault="key-condition")
    q("the table's sort key on GSI2", [("g2", "="), ("sk", "=")], "GSI2", "key-condition")
    q("the table's sort key on the local index", [("pk", "="), ("sk", "=")], "LSI1",
      "key-condition")
    q("the local index's sort key on the table", [("pk", "="), ("lsk", "=")],
      fault="key-condition")
    q("GSI2's partition key on GSI1", [("gpk", "="), ("g2", "=")], "GSI1", "key-condition")

    # -- partition-key-range -----------------------------------------------------------
    for op in ("begins_with", "<", "<=", ">", ">=", "between"):
        q(f"{op} on the partition key", [("pk", op)], fault="pk-range")
    q("begins_with on the partition key, with the sort key", [("pk", "begins_with"), ("sk", "=")],
      fault="pk-range")
    q("begins_with on GSI1's partition key", [("gpk", "begins_with")], "GSI1", "pk-range")
    q("> on GSI2's partition key", [("g2", ">")], "GSI2", "pk-range")
    q("between on a table without sort key", [("pk", "between")], fault="pk-range",
      on=QUERY_HASH_ONLY)

    # -- multi-attribute keys: judged as the Developer Guide says ----------------------
    m = dict(on=QUERY_MULTI, lag=GUIDE_MULTI_QUERY)
    q("every partition key attribute", [("home", "="), ("away", "=")], "ByTeams", **m)
    q("every partition key attribute, the first sort key attribute with >",
      [("home", "="), ("away", "="), ("round", ">")], "ByTeams", **m)
    q("the whole key, a range on the last",
      [("home", "="), ("away", "="), ("round", "="), ("leg", "between")], "ByTeams", **m)
    q("a partition key attribute missing", [("home", "=")], "ByTeams", "key-condition", **m)
    q("a gap in the sort key attributes", [("home", "="), ("away", "="), ("leg", "=")],
      "ByTeams", "key-condition", **m)
    q("a range before the last sort key attribute named",
      [("home", "="), ("away", "="), ("round", ">"), ("leg", "=")], "ByTeams", "key-condition", **m)
    q("begins_with on a partition key attribute", [("home", "="), ("away", "begins_with")],
      "ByTeams", "pk-range", **m)
    return out


def all_cases():
    cases = _table_cases() + _template_cases() + _query_cases()
    for i, c in enumerate(cases):
        c.id = f"case-{i:03d}"
        if c.kind == "table" and c.formats is None:
            c.formats = (TABLE_FORMATS[i % len(TABLE_FORMATS)],)
    return cases
