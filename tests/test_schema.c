/* Unit tests for linter/schema.c: schema files (CloudFormation, SAM,
 * serverless.yml; YAML and JSON) to the table model, with positions, the
 * issues found in table definitions, and input problems. Files are written
 * to a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "schema.h"

static char dir[256];
static Arena *A;
static TableSet S;
static Problems P;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/keylint-schema-XXXXXX");
    assert_non_null(mkdtemp(dir));
    A = arena_new();
    memset(&S, 0, sizeof S);
    problems_init(&P);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    problems_free(&P);
    arena_free(A);
    return 0;
}

static const char *write_file(const char *name, const char *text)
{
    const char *path = arena_printf(A, "%s/%s", dir, name);
    const char *slash = strrchr(name, '/');
    if (slash) {
        const char *sub = arena_printf(A, "%s/%.*s", dir, (int)(slash - name), name);
        mkdir(sub, 0777);
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static bool load(const char *name, const char *text)
{
    return schema_load_file(A, write_file(name, text), name, &S, &P);
}

static const TableDef *table(const char *id)
{
    for (size_t i = 0; i < S.tables.n; i++)
        if (!strcmp(S.tables.v[i].id, id))
            return &S.tables.v[i];
    fail_msg("no table %s", id);
    return NULL;
}

static void dump_issues(void)
{
    for (size_t i = 0; i < S.issues.n; i++)
        print_message("  issue %s:%u: %s\n", S.issues.v[i].path, S.issues.v[i].span.start_row + 1,
                      S.issues.v[i].message);
    for (size_t i = 0; i < P.items.n; i++)
        print_message("  problem %s:%u:%u: %s\n", P.items.v[i].path, P.items.v[i].line,
                      P.items.v[i].col, P.items.v[i].message);
}

/* Issue i is on `line` (1-based) and says `sub`. */
static void issue_at(size_t i, uint32_t line, const char *sub)
{
    if (i >= S.issues.n || S.issues.v[i].span.start_row + 1 != line ||
        !strstr(S.issues.v[i].message, sub)) {
        dump_issues();
        fail_msg("issue %zu: wanted line %u '%s'", i, line, sub);
    }
}

/* Exactly n issues (all of them printed when not). */
static void issues_are(size_t n)
{
    if (S.issues.n != n)
        dump_issues();
    assert_int_equal(S.issues.n, n);
}

static const char cfn[] =
    "AWSTemplateFormatVersion: '2010-09-09'\n"                     /* 1 */
    "Parameters:\n"                                                /* 2 */
    "  Stage: { Type: String, Default: prod }\n"                   /* 3 */
    "Globals:\n"                                                   /* 4 */
    "  Function:\n"                                                /* 5 */
    "    Environment:\n"                                           /* 6 */
    "      Variables:\n"                                           /* 7 */
    "        TABLE_NAME: !Ref AppTable\n"                          /* 8 */
    "        STAGE_TABLE: !Ref Stage\n"                            /* 9 */
    "Resources:\n"                                                 /* 10 */
    "  AppTable:\n"                                                /* 11 */
    "    Type: AWS::DynamoDB::Table\n"                             /* 12 */
    "    Properties:\n"                                            /* 13 */
    "      TableName: !Sub \"${AWS::StackName}-app\"\n"            /* 14 */
    "      AttributeDefinitions:\n"                                /* 15 */
    "        - AttributeName: pk\n"                                /* 16 */
    "          AttributeType: S\n"                                 /* 17 */
    "        - { AttributeName: sk, AttributeType: S }\n"          /* 18 */
    "        - { AttributeName: GSI1PK, AttributeType: S }\n"      /* 19 */
    "        - { AttributeName: n, AttributeType: N }\n"           /* 20 */
    "      KeySchema:\n"                                           /* 21 */
    "        - { AttributeName: pk, KeyType: HASH }\n"             /* 22 */
    "        - { AttributeName: sk, KeyType: RANGE }\n"            /* 23 */
    "      GlobalSecondaryIndexes:\n"                              /* 24 */
    "        - IndexName: GSI1\n"                                  /* 25 */
    "          KeySchema: [{ AttributeName: GSI1PK, KeyType: HASH }]\n" /* 26 */
    "          Projection: { ProjectionType: INCLUDE, NonKeyAttributes: [a, b] }\n" /* 27 */
    "      LocalSecondaryIndexes:\n"                               /* 28 */
    "        - IndexName: ByN\n"                                   /* 29 */
    "          KeySchema:\n"                                       /* 30 */
    "            - { AttributeName: pk, KeyType: HASH }\n"         /* 31 */
    "            - { AttributeName: n, KeyType: RANGE }\n"         /* 32 */
    "          Projection: { ProjectionType: KEYS_ONLY }\n"        /* 33 */
    "  Named:\n"                                                   /* 34 */
    "    Type: AWS::DynamoDB::GlobalTable\n"                       /* 35 */
    "    Properties:\n"                                            /* 36 */
    "      TableName: !Join ['-', [!Ref Stage, named]]\n"          /* 37 */
    "      AttributeDefinitions: [{ AttributeName: id, AttributeType: B }]\n" /* 38 */
    "      KeySchema: [{ AttributeName: id, KeyType: HASH }]\n"    /* 39 */
    "  Simple:\n"                                                  /* 40 */
    "    Type: AWS::Serverless::SimpleTable\n"                     /* 41 */
    "  Fn:\n"                                                      /* 42 */
    "    Type: AWS::Serverless::Function\n"                        /* 43 */
    "    Properties:\n"                                            /* 44 */
    "      Environment:\n"                                         /* 45 */
    "        Variables:\n"                                         /* 46 */
    "          NAMED: !Sub \"${Named}\"\n"                         /* 47 */
    "          ARN: !GetAtt AppTable.Arn\n"                        /* 48 */
    "          LITERAL: legacy-table\n";                           /* 49 */

static void test_cloudformation_yaml(void **state)
{
    (void)state;
    assert_true(load("template.yaml", cfn));
    issues_are(0);
    assert_int_equal(P.items.n, 0);
    assert_int_equal(S.tables.n, 3);

    const TableDef *t = table("AppTable");
    assert_int_equal(t->source, TSRC_CLOUDFORMATION);
    assert_string_equal(t->path, "template.yaml");
    assert_int_equal(t->span.start_row, 10);
    assert_string_equal(t->name, "${AWS::StackName}-app");
    assert_string_equal(t->pk.name, "pk");
    assert_int_equal(t->pk.type, ATTR_S);
    assert_int_equal(t->pk.span.start_row, 21);
    assert_int_equal(t->pk.span.start_col, 27);
    assert_string_equal(t->sk.name, "sk");
    assert_false(t->indexes_open);
    assert_int_equal(t->indexes.n, 2);
    const TableIndex *g = table_find_index(t, "GSI1");
    assert_non_null(g);
    assert_int_equal(g->kind, INDEX_GLOBAL);
    assert_string_equal(g->pk.name, "GSI1PK");
    assert_null(g->sk.name);
    assert_string_equal(g->projection, "INCLUDE");
    assert_int_equal(g->projected.n, 2);
    assert_int_equal(g->span.start_row, 24);
    const TableIndex *l = table_find_index(t, "ByN");
    assert_int_equal(l->kind, INDEX_LOCAL);
    assert_string_equal(l->sk.name, "n");
    assert_int_equal(l->sk.type, ATTR_N);
    assert_null(table_find_index(t, "gsi1"));

    t = table("Named");
    assert_string_equal(t->name, "prod-named"); /* !Ref to a parameter: its default */
    assert_int_equal(t->pk.type, ATTR_B);
    assert_null(t->sk.name);

    t = table("Simple");
    assert_int_equal(t->source, TSRC_SAM_SIMPLE);
    assert_string_equal(t->pk.name, "id"); /* SAM's default */
    assert_null(t->name);

    /* environment variables that name tables */
    assert_int_equal(S.env.n, 4);
    assert_string_equal(S.env.v[0].var, "TABLE_NAME");
    assert_string_equal(S.env.v[0].table_id, "AppTable");
    assert_int_equal(S.env.v[0].span.start_row, 7);
    assert_string_equal(S.env.v[1].var, "STAGE_TABLE"); /* a parameter: its value */
    assert_null(S.env.v[1].table_id);
    assert_string_equal(S.env.v[1].name, "prod");
    assert_string_equal(S.env.v[2].var, "NAMED");
    assert_string_equal(S.env.v[2].table_id, "Named");
    assert_string_equal(S.env.v[3].var, "LITERAL");
    assert_string_equal(S.env.v[3].name, "legacy-table");
}

static void test_json_template(void **state)
{
    (void)state;
    /* tabs, no space after colons, intrinsic functions as objects, and a
     * surrogate pair libyaml alone would reject */
    assert_true(load("stack.json",
                     "{\n"
                     "\t\"Description\": \"rocket \\ud83d\\ude80 and \\\\ud83d text\",\n"
                     "\t\"Resources\":{\n"
                     "\t\t\"Orders\": {\n"
                     "\t\t\t\"Type\": \"AWS::DynamoDB::Table\",\n"
                     "\t\t\t\"Properties\": {\n"
                     "\t\t\t\t\"TableName\": {\"Fn::Sub\": \"${AWS::StackName}-orders\"},\n"
                     "\t\t\t\t\"AttributeDefinitions\": [{\"AttributeName\": \"PK\", "
                     "\"AttributeType\": \"S\"}],\n"
                     "\t\t\t\t\"KeySchema\": [{\"AttributeName\": \"PK\", \"KeyType\": "
                     "\"HASH\"}],\n"
                     "\t\t\t\t\"GlobalSecondaryIndexes\": {\"Fn::If\": [\"c\", [], []]}\n"
                     "\t\t\t}\n"
                     "\t\t},\n"
                     "\t\t\"Fn\": {\"Type\": \"AWS::Lambda::Function\", \"Properties\": "
                     "{\"Environment\": {\"Variables\": {\"T\": {\"Ref\": \"Orders\"}}}}}\n"
                     "\t}\n"
                     "}\n"));
    if (S.issues.n || P.items.n)
        dump_issues();
    assert_int_equal(S.issues.n, 0);
    const TableDef *t = table("Orders");
    assert_string_equal(t->name, "${AWS::StackName}-orders");
    assert_string_equal(t->pk.name, "PK");
    assert_int_equal(t->pk.span.start_row, 8);
    assert_true(t->indexes_open); /* an !If: not known */
    assert_int_equal(S.env.n, 1);
    assert_string_equal(S.env.v[0].table_id, "Orders");
}

static void test_serverless(void **state)
{
    (void)state;
    write_file("resources/tables.yml",
               "Resources:\n"
               "  OrdersTable:\n"
               "    Type: AWS::DynamoDB::Table\n"
               "    Properties:\n"
               "      TableName: ${self:custom.tableName}\n"
               "      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
               "      KeySchema: [{ AttributeName: pk, KeyType: HASH }, "
               "{ AttributeName: sk, KeyType: RANGE }]\n");
    assert_true(load("serverless.yml",
                     "service: shop\n"
                     "custom:\n"
                     "  tableName: ${self:service}-${sls:stage}-orders\n"
                     "provider:\n"
                     "  environment:\n"
                     "    ORDERS: ${self:custom.tableName}\n"
                     "functions:\n"
                     "  f:\n"
                     "    environment: { AUDIT: { Ref: Audit } }\n"
                     "resources:\n"
                     "  - ${file(resources/tables.yml)}\n"
                     "  - ${file(./resources/missing.yml)}\n"
                     "  - Resources:\n"
                     "      Audit:\n"
                     "        Type: AWS::DynamoDB::Table\n"
                     "        Properties:\n"
                     "          AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]\n"
                     "          KeySchema: [{ AttributeName: id, KeyType: HASH }]\n"));
    assert_int_equal(S.tables.n, 2);
    const TableDef *t = table("OrdersTable");
    /* the included file's own ${self:...} is its own document's */
    assert_string_equal(t->path, "resources/tables.yml");
    assert_int_equal(t->span.start_row, 1);
    /* sk is not defined: an issue in the included file */
    assert_int_equal(S.issues.n, 1);
    assert_string_equal(S.issues.v[0].path, "resources/tables.yml");
    issue_at(0, 7, "key attribute 'sk' of table OrdersTable is not in the table's "
                   "AttributeDefinitions");
    assert_non_null(table("Audit"));
    assert_int_equal(S.env.n, 2);
    assert_string_equal(S.env.v[0].var, "ORDERS");
    assert_string_equal(S.env.v[0].name, "shop-${sls:stage}-orders");
    assert_string_equal(S.env.v[1].table_id, "Audit");
    /* the missing include is an input problem at its line */
    assert_int_equal(P.items.n, 1);
    assert_string_equal(P.items.v[0].path, "resources/missing.yml");
    assert_non_null(strstr(P.items.v[0].message, "cannot"));
}

static void test_issues(void **state)
{
    (void)state;
    assert_true(load("bad.yaml",
                     "Resources:\n"                                             /* 1 */
                     "  T:\n"                                                   /* 2 */
                     "    Type: AWS::DynamoDB::Table\n"                         /* 3 */
                     "    Properties:\n"                                        /* 4 */
                     "      AttributeDefinitions:\n"                            /* 5 */
                     "        - { AttributeName: pk, AttributeType: S }\n"      /* 6 */
                     "        - { AttributeName: pk, AttributeType: S }\n"      /* 7 dup */
                     "        - { AttributeName: x, AttributeType: string }\n"  /* 8 type */
                     "      KeySchema:\n"                                       /* 9 */
                     "        - { AttributeName: pk, KeyType: HASH }\n"         /* 10 */
                     "        - { AttributeName: q, KeyType: HASH }\n"          /* 11 two HASH */
                     "      GlobalSecondaryIndexes:\n"                          /* 12 */
                     "        - KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n" /* 13 no name */
                     "        - IndexName: GSI\n"                               /* 14 */
                     "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n" /* 15 */
                     "          Projection: { ProjectionType: INCLUDE }\n"     /* 16 */
                     "        - IndexName: GSI\n"                               /* 17 dup, no proj */
                     "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n" /* 18 */
                     "      LocalSecondaryIndexes:\n"                           /* 19 */
                     "        - IndexName: LSI\n"                               /* 20 */
                     "          KeySchema:\n"                                   /* 21 */
                     "            - { AttributeName: other, KeyType: HASH }\n"  /* 22 */
                     "            - { AttributeName: x, KeyType: RANGE }\n"     /* 23 */
                     "          Projection: { ProjectionType: ALL, NonKeyAttributes: [z] }\n" /* 24 */
                     "  S:\n"                                                   /* 25 */
                     "    Type: AWS::Serverless::SimpleTable\n"                 /* 26 */
                     "    Properties: { PrimaryKey: { Name: id, Type: Str } }\n")); /* 27 */
    size_t i = 0;
    issue_at(i++, 7, "attribute 'pk' is defined twice");
    issue_at(i++, 8, "AttributeType of 'x' in table T must be S, N or B (got 'string')");
    issue_at(i++, 11, "table T has two HASH keys ('pk' and 'q')");
    issue_at(i++, 13, "a global secondary index of table T has no IndexName");
    issue_at(i++, 13, "a global secondary index of table T has no Projection");
    issue_at(i++, 16, "global secondary index GSI of table T projects INCLUDE but lists no "
                      "NonKeyAttributes");
    issue_at(i++, 17, "global secondary index GSI of table T has no Projection");
    issue_at(i++, 22, "key attribute 'other' of local secondary index LSI of table T is not in "
                      "the table's AttributeDefinitions");
    issue_at(i++, 24, "lists NonKeyAttributes, which only ProjectionType INCLUDE takes");
    issue_at(i++, 17, "table T has two indexes named 'GSI' (the first on line 14)");
    issue_at(i++, 22, "local secondary index LSI of table T has partition key 'other', but a "
                      "local index shares the table's partition key 'pk'");
    /* T's KeySchema has two HASH keys and so no RANGE key */
    issue_at(i++, 20, "table T has no sort (RANGE) key, which a local secondary index (LSI) "
                      "needs");
    issue_at(i++, 27, "PrimaryKey Type of table S must be String, Number or Binary (got 'Str')");
    issues_are(i);
    assert_int_equal(P.items.n, 0);
}

static void test_no_tables(void **state)
{
    (void)state;
    assert_true(load("empty.yaml", "Resources:\n  Bucket: { Type: AWS::S3::Bucket }\n"));
    assert_int_equal(S.tables.n, 0);
    assert_int_equal(S.issues.n, 1);
    issue_at(0, 1, "schema declares no DynamoDB table");
}

/* A file of resources alone, which a build step merges into the template
 * (`template/tables/audit-table.yaml`): its tables, and nothing read from
 * a top level that is no resource. */
static void test_resource_fragment(void **state)
{
    (void)state;
    assert_true(load("audit-table.yaml",
                     "  AuditTable:\n"
                     "    Type: AWS::DynamoDB::Table\n"
                     "    Properties:\n"
                     "      KeySchema:\n"
                     "        - { AttributeName: auditKey, KeyType: HASH }\n"
                     "        - { AttributeName: timestamp, KeyType: RANGE }\n"
                     "      AttributeDefinitions:\n"
                     "        - { AttributeName: auditKey, AttributeType: S }\n"
                     "        - { AttributeName: timestamp, AttributeType: S }\n"
                     "  Bucket: { Type: AWS::S3::Bucket }\n"
                     "  Note: not a resource\n"));
    assert_int_equal(S.tables.n, 1);
    const TableDef *t = table("AuditTable");
    assert_non_null(t);
    assert_string_equal(t->pk.name, "auditKey");
    assert_string_equal(t->sk.name, "timestamp");
    assert_int_equal(S.issues.n, 0);
}

static void test_problems(void **state)
{
    (void)state;
    /* a YAML syntax error: a problem with its line and column, no issue */
    assert_false(load("broken.yaml", "Resources:\n  T:\n    Type: [a\n  X: 1\n"));
    assert_int_equal(P.items.n, 1);
    assert_string_equal(P.items.v[0].path, "broken.yaml");
    assert_int_equal(P.items.v[0].line, 4);
    assert_non_null(strstr(P.items.v[0].message, "YAML syntax error in schema"));
    /* a JSON one */
    assert_false(load("broken.json", "{\n  \"Resources\": {\n    \"T\": [1, 2\n  }\n}\n"));
    assert_int_equal(P.items.n, 2);
    assert_non_null(strstr(P.items.v[1].message, "JSON syntax error in schema"));
    assert_int_equal(P.items.v[1].line, 4);
    /* not a mapping */
    assert_false(load("list.yaml", "- a\n- b\n"));
    assert_non_null(strstr(P.items.v[2].message, "top level must be a mapping"));
    /* missing, and binary */
    assert_false(schema_load_file(A, arena_printf(A, "%s/nope.yaml", dir), "nope.yaml", &S, &P));
    assert_string_equal(P.items.v[3].path, "nope.yaml");
    assert_non_null(strstr(P.items.v[3].message, "schema"));
    const char *bin = write_file("bin.yaml", "a: 1\n");
    FILE *f = fopen(bin, "ab");
    fputc(0, f);
    fclose(f);
    assert_false(schema_load_file(A, bin, "bin.yaml", &S, &P));
    assert_int_equal(P.items.n, 5);
    assert_int_equal(S.tables.n, 0);
    assert_int_equal(S.issues.n, 0);
}

static void test_aliases_bounded(void **state)
{
    (void)state;
    /* "billion laughs" and an alias of its own ancestor: shared nodes, no
     * blow-up, no endless loop */
    char *text = malloc(1 << 17);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 20; i++)
        o += (size_t)sprintf(text + o, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, "
                                       "*a%d, *a%d, *a%d]\n",
                             i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
                             i - 1);
    /* !Join of !Joins through aliases: 50 parts, 8 levels deep */
    o += (size_t)sprintf(text + o, "j0: &j0 !Join ['-', [x, y]]\n");
    for (int i = 1; i < 9; i++) {
        o += (size_t)sprintf(text + o, "j%d: &j%d !Join ['-', [", i, i);
        for (int k = 0; k < 50; k++)
            o += (size_t)sprintf(text + o, "%s*j%d", k ? ", " : "", i - 1);
        o += (size_t)sprintf(text + o, "]]\n");
    }
    sprintf(text + o, "Resources: &r\n  T:\n    Type: AWS::DynamoDB::Table\n    Self: *r\n"
                      "  U:\n    Type: AWS::DynamoDB::Table\n    Properties:\n"
                      "      TableName: *j8\n"
                      "      AttributeDefinitions: [{ AttributeName: k, AttributeType: S }]\n"
                      "      KeySchema: [{ AttributeName: k, KeyType: HASH }]\n");
    assert_true(load("laughs.yaml", text));
    free(text);
    assert_int_equal(S.tables.n, 2);
    /* 50^8 parts: the name's step budget runs out, so the name is unknown
     * (and the load finished instead of expanding them) */
    assert_string_equal(S.tables.v[1].id, "U");
    assert_null(S.tables.v[1].name);
    /* a table without Properties */
    issue_at(0, 31, "table T has no Properties");
    assert_int_equal(S.issues.n, 1);
}

/* Terraform: the resource, the dynamodb-table module, environment
 * variables naming a table, interpolated names, and a syntax error read
 * around. */
static void test_terraform(void **state)
{
    (void)state;
    assert_true(load("main.tf",
                     "variable \"env\" { default = \"dev\" }\n"
                     "resource \"aws_dynamodb_table\" \"orders\" {\n"
                     "  name      = \"${var.env}-orders\"\n"
                     "  hash_key  = \"PK\"\n"
                     "  range_key = \"SK\"\n"
                     "  attribute {\n    name = \"PK\"\n    type = \"S\"\n  }\n"
                     "  attribute {\n    name = \"SK\"\n    type = \"N\"\n  }\n"
                     "  global_secondary_index {\n    name = \"GSI1\"\n"
                     "    hash_key = \"GSI1PK\"\n    range_key = \"GSI1SK\"\n"
                     "    projection_type = \"ALL\"\n  }\n"
                     "  local_secondary_index {\n    name = \"LSI1\"\n    range_key = \"LSK\"\n  }\n"
                     "}\n"
                     "module \"users\" {\n"
                     "  source   = \"terraform-aws-modules/dynamodb-table/aws\"\n"
                     "  name     = \"users\"\n"
                     "  hash_key = \"id\"\n"
                     "  attributes = [{ name = \"id\", type = \"S\" }]\n"
                     "  global_secondary_indexes = [{ name = \"ByEmail\", hash_key = \"email\" }]\n"
                     "}\n"
                     "resource \"aws_lambda_function\" \"api\" {\n"
                     "  environment {\n    variables = {\n"
                     "      ORDERS_TABLE = aws_dynamodb_table.orders.name\n"
                     "      USERS_TABLE  = module.users.dynamodb_table_id\n"
                     "    }\n  }\n"
                     "}\n"
                     "resource \"aws_s3_bucket\" \"b\" { bucket = \n"));
    const TableDef *o = table("orders");
    assert_int_equal(o->source, TSRC_TERRAFORM);
    assert_string_equal(o->name, "${}-orders");
    assert_string_equal(o->pk.name, "PK");
    assert_int_equal(o->pk.type, ATTR_S);
    assert_string_equal(o->sk.name, "SK");
    assert_int_equal(o->sk.type, ATTR_N);
    assert_int_equal(o->indexes.n, 2);
    assert_string_equal(o->indexes.v[0].name, "GSI1");
    assert_string_equal(o->indexes.v[0].pk.name, "GSI1PK");
    assert_string_equal(o->indexes.v[0].sk.name, "GSI1SK");
    assert_int_equal(o->indexes.v[1].kind, INDEX_LOCAL);
    assert_string_equal(o->indexes.v[1].pk.name, "PK");
    assert_string_equal(o->indexes.v[1].sk.name, "LSK");
    const TableDef *u = table("users");
    assert_string_equal(u->name, "users");
    assert_string_equal(u->pk.name, "id");
    assert_null(u->sk.name);
    assert_int_equal(u->indexes.n, 1);
    assert_string_equal(u->indexes.v[0].name, "ByEmail");
    assert_string_equal(u->indexes.v[0].pk.name, "email");
    assert_int_equal(S.env.n, 2);
    assert_string_equal(S.env.v[0].var, "ORDERS_TABLE");
    assert_string_equal(S.env.v[0].table_id, "orders");
    assert_string_equal(S.env.v[1].var, "USERS_TABLE");
    assert_string_equal(S.env.v[1].table_id, "users");
    /* the unfinished last line is a note; the tables before it are read */
    assert_int_equal(P.items.n, 1);
    assert_int_equal(P.items.v[0].kind, PROBLEM_NOTE);
    assert_non_null(strstr(P.items.v[0].message, "not read"));
}

/* Problem i is at path:line and says `sub`. */
static void problem_at(size_t i, const char *path, uint32_t line, const char *sub)
{
    if (i >= P.items.n || strcmp(P.items.v[i].path, path) || P.items.v[i].line != line ||
        !strstr(P.items.v[i].message, sub)) {
        dump_issues();
        fail_msg("problem %zu: wanted %s:%u '%s'", i, path, line, sub);
    }
}

static const char laughs_table[] =
    "resources:\n"
    "  Resources:\n"
    "    T:\n"
    "      Type: AWS::DynamoDB::Table\n"
    "      Properties:\n"
    "        TableName: ${self:custom.l0}\n"
    "        AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
    "        KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n";

static void test_serverless_expansion_bounded(void **state)
{
    (void)state;
    /* "billion laughs" with serverless variables: each of 6 levels names
     * the next 20 times (20^6 copies of "ab", from a file of 3 KB) */
    char *text = malloc(1 << 14);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text, "service: laughs\n"              /* 1 */
                                     "provider:\n"                    /* 2 */
                                     "  environment:\n"               /* 3 */
                                     "    TABLE_NAME: ${self:custom.l0}\n" /* 4 */
                                     "custom:\n");                    /* 5 */
    for (int i = 0; i < 6; i++) {
        o += (size_t)sprintf(text + o, "  l%d: \"", i);
        for (int k = 0; k < 20; k++)
            o += (size_t)sprintf(text + o, "${self:custom.l%d}", i + 1);
        o += (size_t)sprintf(text + o, "\"\n");
    }
    o += (size_t)sprintf(text + o, "  l6: ab\n%s", laughs_table);
    assert_true(load("serverless.yml", text));
    free(text);
    /* one problem, where the budget ran out; the values are read as written */
    assert_int_equal(P.items.n, 1);
    problem_at(0, "serverless.yml", 4, "expand past the budget");
    assert_int_equal(P.items.v[0].kind, PROBLEM_NOTE);
    assert_int_equal(S.env.n, 1);
    assert_string_equal(S.env.v[0].name, "${self:custom.l0}");
    assert_string_equal(table("T")->name, "${self:custom.l0}");
}

static void test_serverless_variable_depth(void **state)
{
    (void)state;
    /* a variable that names itself: expanded MAX_VAR_DEPTH times, then
     * one problem */
    assert_true(load("serverless.yml", "provider:\n"
                                       "  environment:\n"
                                       "    A: x-${self:custom.a}\n" /* 3 */
                                       "    B: ${self:custom.a}\n"
                                       "custom:\n"
                                       "  a: ${self:custom.a}\n"));
    assert_int_equal(P.items.n, 1);
    problem_at(0, "serverless.yml", 3, "nest deeper than");
    assert_int_equal(P.items.v[0].kind, PROBLEM_NOTE);
    assert_int_equal(S.env.n, 2);
    assert_string_equal(S.env.v[0].name, "x-${self:custom.a}");
}

static void test_serverless_include_cycles(void **state)
{
    (void)state;
    /* ten includes of itself: one problem at each, the file read once */
    char *text = malloc(4096);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text, "service: self\nresources:\n");
    for (int i = 0; i < 10; i++)
        o += (size_t)sprintf(text + o, "  - ${file(./serverless.yml)}\n");
    sprintf(text + o, "  - Resources:\n"
                      "      T:\n"
                      "        Type: AWS::DynamoDB::Table\n"
                      "        Properties:\n"
                      "          AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
                      "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n");
    assert_true(load("serverless.yml", text));
    free(text);
    assert_int_equal(P.items.n, 10);
    for (uint32_t i = 0; i < 10; i++) {
        problem_at(i, "serverless.yml", 3 + i, "include cycle");
        assert_int_equal(P.items.v[i].kind, PROBLEM_INPUT);
    }
    assert_int_equal(S.tables.n, 1);

    /* a.yml -> b.yml -> a.yml: one problem, in b.yml; b.yml included twice
     * and a missing file included twice: read once, one problem each */
    memset(&S, 0, sizeof S);
    problems_free(&P);
    problems_init(&P);
    write_file("b.yml", "resources:\n"
                        "  - ${file(./a.yml)}\n"
                        "  - ${file(./gone.yml)}\n"
                        "  - ${file(./gone.yml)}\n"
                        "  - Resources:\n"
                        "      B:\n"
                        "        Type: AWS::DynamoDB::Table\n"
                        "        Properties:\n"
                        "          AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
                        "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n");
    assert_true(load("a.yml", "resources:\n"
                              "  - ${file(./b.yml)}\n"
                              "  - ${file(./b.yml)}\n"));
    assert_int_equal(S.tables.n, 1);
    assert_int_equal(P.items.n, 2);
    problem_at(0, "b.yml", 2, "include cycle: a.yml is being read already");
    assert_string_equal(P.items.v[1].path, "gone.yml");
}

static void test_cfn_reader_on_doc(void **state)
{
    (void)state;
    /* the same reader serves CfnTable (camelCase) and CreateTable params */
    DocNode pk = {.kind = DOC_SCALAR, .text = "pk"};
    DocNode hash = {.kind = DOC_SCALAR, .text = "HASH"};
    DocNode s = {.kind = DOC_SCALAR, .text = "S"};
    DocNode k1 = {.kind = DOC_SCALAR, .text = "attributeName"};
    DocNode k2 = {.kind = DOC_SCALAR, .text = "keyType"};
    DocNode k3 = {.kind = DOC_SCALAR, .text = "attributeType"};
    DocNode *ks_keys[] = {&k1, &k2}, *ks_vals[] = {&pk, &hash};
    DocNode ks_e = {.kind = DOC_MAP, .keys = ks_keys, .vals = ks_vals, .n = 2};
    DocNode *ks_items[] = {&ks_e};
    DocNode ks = {.kind = DOC_SEQ, .vals = ks_items, .n = 1};
    DocNode *ad_keys[] = {&k1, &k3}, *ad_vals[] = {&pk, &s};
    DocNode ad_e = {.kind = DOC_MAP, .keys = ad_keys, .vals = ad_vals, .n = 2};
    DocNode *ad_items[] = {&ad_e};
    DocNode ad = {.kind = DOC_SEQ, .vals = ad_items, .n = 1};
    DocNode pk1 = {.kind = DOC_SCALAR, .text = "keySchema"};
    DocNode pk2 = {.kind = DOC_SCALAR, .text = "attributeDefinitions"};
    DocNode *p_keys[] = {&pk1, &pk2}, *p_vals[] = {&ks, &ad};
    DocNode props = {.kind = DOC_MAP, .keys = p_keys, .vals = p_vals, .n = 2};
    assert_ptr_equal(doc_get(&props, "KeySchema", true), &ks);
    assert_null(doc_get(&props, "KeySchema", false));
    TableDef t = {.id = "L1", .path = "stack.ts"};
    schema_read_cfn_table(A, &props, &t, &S);
    assert_int_equal(S.issues.n, 0);
    assert_string_equal(t.pk.name, "pk");
    assert_int_equal(t.pk.type, ATTR_S);
    /* a spread in the properties: keys not known, no issue */
    DocNode partial = {.kind = DOC_MAP, .partial = true};
    TableDef u = {.id = "P", .path = "stack.ts"};
    schema_read_cfn_table(A, &partial, &u, &S);
    assert_int_equal(S.issues.n, 0);
    assert_true(u.pk.unknown);
    assert_true(u.indexes_open);
}

static void test_names_match(void **state)
{
    (void)state;
    assert_true(table_names_match("app", "app"));
    assert_false(table_names_match("app", "App"));
    assert_false(table_names_match("app", NULL));
    assert_true(table_names_match("prod-app", "${AWS::StackName}-app"));
    assert_true(table_names_match("${AWS::StackName}-app", "dev-app"));
    assert_false(table_names_match("prod-orders", "${AWS::StackName}-app"));
    assert_true(table_names_match("shop-${sls:stage}-orders", "shop-dev-orders"));
    assert_false(table_names_match("shop-${sls:stage}-orders", "shop-dev-users"));
    assert_false(table_names_match("x", "${Stage}-app")); /* too short for both ends */
    assert_true(table_names_match("${}-orders", "${Stage}-orders"));
    /* text between deploy-time parts must be in the name too */
    assert_true(table_names_match("prod-payment-events-eu", "${stage}-payment-events-${brand}"));
    assert_false(table_names_match("billing-table", "${stage}-payment-events-${brand}"));
    assert_false(table_names_match("${stage}-payment-events-${brand}", ""));
    assert_true(table_names_match("a-x-b-y-c", "a-${p}-b-${q}-c"));
    assert_false(table_names_match("a-x-y-c", "a-${p}-b-${q}-c"));
    /* two names with deploy-time parts: the literal ends both write agree */
    assert_false(table_names_match("BayonCoAgent-RealtimeConnections-${}", "BayonCoAgent-${Environment}"));
    assert_true(table_names_match("BayonCoAgent-RealtimeConnections-${}",
                                  "BayonCoAgent-RealtimeConnections-${Environment}"));
    assert_false(table_names_match("${}-app-users", "${Stage}-users"));
    assert_true(table_names_match("app-${stage}-users", "${AWS::StackName}-users"));
    assert_false(table_names_match("app-connections-${}", "${stage}-payment-events-${brand}"));
    assert_true(table_names_match("${}-payment-events-${}", "${stage}-payment-events-${brand}"));
    TableDef t = {.id = "AppTable", .name = "app-table"};
    assert_string_equal(table_label(A, &t), "AppTable (app-table)");
    t.name = "${AWS::StackName}-app";
    assert_string_equal(table_label(A, &t), "AppTable");
}

/* Intrinsic functions are unknown, not wrong: !If (both forms) anywhere in
 * a table, !Ref and !Sub as attribute names, Fn::ForEach. */
static void test_intrinsics_unknown(void **state)
{
    (void)state;
    assert_true(load("template.yaml",
        "Transform: AWS::LanguageExtensions\n"                                  /* 1 */
        "Parameters:\n"                                                         /* 2 */
        "  Names: { Type: CommaDelimitedList, Default: 'a,b' }\n"               /* 3 */
        "  HashKeyElementName: { Type: String, Default: id }\n"                 /* 4 */
        "Resources:\n"                                                          /* 5 */
        "  Fn::ForEach::Tables:\n"                                              /* 6 */
        "    - Name\n"                                                          /* 7 */
        "    - [Orders, Line-Items]\n"                                          /* 8 */
        "    - Table&{Name}:\n"                                                 /* 9 */
        "        Type: AWS::DynamoDB::Table\n"                                  /* 10 */
        "        Properties:\n"                                                 /* 11 */
        "          TableName: !Sub '${Name}-table'\n"                           /* 12 */
        "          AttributeDefinitions: [{ AttributeName: !Sub '${Name}Id', AttributeType: S }]\n"
        "          KeySchema: [{ AttributeName: !Sub '${Name}Id', KeyType: HASH }]\n" /* 14 */
        "  Fn::ForEach::FromParam:\n"                                           /* 15 */
        "    - Name\n"                                                          /* 16 */
        "    - !Ref Names\n"                                                    /* 17 */
        "    - Other${Name}:\n"                                                 /* 18 */
        "        Type: AWS::DynamoDB::Table\n"                                  /* 19 */
        "        Properties:\n"                                                 /* 20 */
        "          TableName: !Sub '${Name}-other'\n"                           /* 21 */
        "  RefTable:\n"                                                         /* 22 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 23 */
        "    Properties:\n"                                                     /* 24 */
        "      AttributeDefinitions:\n"                                         /* 25 */
        "        - { AttributeName: !Ref HashKeyElementName, AttributeType: S }\n" /* 26 */
        "        - { AttributeName: sk, AttributeType: S }\n"                   /* 27 */
        "      KeySchema:\n"                                                    /* 28 */
        "        - { AttributeName: !Ref HashKeyElementName, KeyType: HASH }\n" /* 29 */
        "        - { AttributeName: sk, KeyType: RANGE }\n"                     /* 30 */
        "  IfTable:\n"                                                          /* 31 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 32 */
        "    Properties:\n"                                                     /* 33 */
        "      AttributeDefinitions:\n"                                         /* 34 */
        "        - { AttributeName: pk, AttributeType: S }\n"                   /* 35 */
        "        - Fn::If:\n"                                                   /* 36 */
        "          - IsProd\n"                                                  /* 37 */
        "          - { AttributeName: gsi, AttributeType: S }\n"                /* 38 */
        "          - !Ref AWS::NoValue\n"                                       /* 39 */
        "      KeySchema: !If\n"                                                /* 40 */
        "        - IsProd\n"                                                    /* 41 */
        "        - [{ AttributeName: pk, KeyType: HASH }]\n"                    /* 42 */
        "        - [{ AttributeName: pk, KeyType: HASH }]\n"                    /* 43 */
        "      GlobalSecondaryIndexes:\n"                                       /* 44 */
        "        - Fn::If:\n"                                                   /* 45 */
        "          - IsProd\n"                                                  /* 46 */
        "          - IndexName: ByGsi\n"                                        /* 47 */
        "            KeySchema: [{ AttributeName: gsi, KeyType: HASH }]\n"      /* 48 */
        "            Projection: { ProjectionType: ALL }\n"                     /* 49 */
        "          - !Ref AWS::NoValue\n"                                       /* 50 */
        "        - IndexName: BySk\n"                                           /* 51 */
        "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"         /* 52 */
        "          Projection: { Fn::If: [IsProd, { ProjectionType: ALL }, { ProjectionType: KEYS_ONLY }] }\n"
        "  JsonIf:\n"                                                           /* 54 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 55 */
        "    Properties:\n"                                                     /* 56 */
        "      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n" /* 57 */
        "      KeySchema: { Fn::If: [c, [{ AttributeName: pk, KeyType: HASH }], []] }\n"
        "  Simple:\n"                                                           /* 59 */
        "    Type: AWS::Serverless::SimpleTable\n"                              /* 60 */
        "    Properties: { PrimaryKey: { Name: !Ref HashKeyElementName, Type: String } }\n"));
    issues_are(0);
    /* the loop over a literal list: one table per value, the identifier
     * replaced in keys, names and attribute names */
    const TableDef *t = table("TableOrders");
    assert_string_equal(t->name, "Orders-table");
    assert_string_equal(t->pk.name, "OrdersId");
    assert_int_equal(t->pk.span.start_row, 13);
    t = table("TableLineItems"); /* &{Name}: alphanumerics only */
    assert_string_equal(t->name, "Line-Items-table");
    /* the loop over a parameter: a table with unknown keys, and a note */
    t = table("Other${Name}");
    assert_true(t->pk.unknown);
    assert_true(t->indexes_open);
    assert_int_equal(P.items.n, 1);
    assert_int_equal(P.items.v[0].kind, PROBLEM_NOTE);
    problem_at(0, "template.yaml", 18,
               "table Other${Name} of Fn::ForEach::FromParam is not read: its collection is "
               "not a literal list");
    /* !Ref as a name: unknown, the same !Ref used on both sides */
    t = table("RefTable");
    assert_null(t->pk.name);
    assert_true(t->pk.unknown);
    assert_string_equal(t->sk.name, "sk");
    /* !If: the KeySchema, an index, a projection */
    t = table("IfTable");
    assert_true(t->pk.unknown);
    assert_true(t->indexes_open);
    assert_non_null(table_find_index(t, "BySk"));
    assert_null(table_find_index(t, "BySk")->projection);
    assert_true(table("JsonIf")->pk.unknown);
    assert_true(table("Simple")->pk.unknown);

    /* an unknown name still judges what is known: a literal key missing
     * from the definitions when no definition could be it */
    memset(&S, 0, sizeof S);
    assert_true(load("partial.yaml",
        "Resources:\n"
        "  T:\n"
        "    Type: AWS::DynamoDB::Table\n"
        "    Properties:\n"
        "      AttributeDefinitions:\n"
        "        - { AttributeName: pk, AttributeType: S }\n"
        "        - { AttributeName: unused, AttributeType: S }\n"
        "      KeySchema:\n"
        "        - { AttributeName: pk, KeyType: HASH }\n"
        "        - { AttributeName: sk, KeyType: RANGE }\n"
        "  U:\n"
        "    Type: AWS::DynamoDB::Table\n"
        "    Properties:\n"
        "      AttributeDefinitions:\n"
        "        - { AttributeName: pk, AttributeType: S }\n"
        "        - { AttributeName: maybe, AttributeType: S }\n"
        "      KeySchema:\n"
        "        - { AttributeName: pk, KeyType: HASH }\n"
        "        - { AttributeName: !Ref SortKeyName, KeyType: RANGE }\n"));
    size_t i = 0;
    issue_at(i++, 10, "key attribute 'sk' of table T is not in the table's AttributeDefinitions");
    issue_at(i++, 7, "attribute 'unused' is defined in the AttributeDefinitions of table T but no "
                     "key schema uses it");
    /* U: 'maybe' may be what !Ref SortKeyName names: not reported */
    issues_are(i);
}

/* A Fn::ForEach inside a Fn::ForEach, and the bounds on them. */
static void test_foreach_nested(void **state)
{
    (void)state;
    assert_true(load("nested.yaml",
        "Resources:\n"
        "  Fn::ForEach::Envs:\n"
        "    - Env\n"
        "    - [dev, prod]\n"
        "    - Fn::ForEach::Kinds:\n"
        "        - Kind\n"
        "        - [a, b]\n"
        "        - T${Env}${Kind}:\n"
        "            Type: AWS::DynamoDB::Table\n"
        "            Properties:\n"
        "              TableName: !Sub '${Env}-${Kind}'\n"
        "              AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
        "              KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"));
    assert_int_equal(S.issues.n, 0);
    assert_int_equal(S.tables.n, 4);
    assert_string_equal(table("Tproda")->name, "prod-a");
    assert_string_equal(table("Tdevb")->name, "dev-b");

    /* six levels: the innermost is past CloudFormation's five */
    memset(&S, 0, sizeof S);
    char *text = malloc(8192);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text, "Resources:\n");
    int indent = 2;
    for (int d = 0; d < 6; d++) {
        o += (size_t)sprintf(text + o, "%*sFn::ForEach::L%d:\n%*s- I%d\n%*s- [x]\n%*s- ",
                             d ? 0 : indent, "", d, indent + 2, "", d, indent + 2, "",
                             indent + 2, "");
        indent += 4;
    }
    sprintf(text + o, "T:\n%*sType: AWS::DynamoDB::Table\n%*sProperties:\n%*sKeySchema: []\n",
            indent + 2, "", indent + 2, "", indent + 4, "");
    assert_true(load("deep.yaml", text));
    free(text);
    assert_int_equal(S.tables.n, 1);
    assert_true(table("T")->pk.unknown);
    problem_at(0, "deep.yaml", 20, "the loops nest deeper than five");
}

/* What DynamoDB rejects that keylint did not see: each in a table of its
 * own, so that one mistake gives one issue. */
static void test_dynamodb_limits(void **state)
{
    (void)state;
    assert_true(load("limits.yaml",
        "Resources:\n"                                                          /* 1 */
        "  NoRange:\n"                                                          /* 2 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 3 */
        "    Properties:\n"                                                     /* 4 */
        "      AttributeDefinitions:\n"                                         /* 5 */
        "        - { AttributeName: pk, AttributeType: S }\n"                   /* 6 */
        "        - { AttributeName: n, AttributeType: N }\n"                    /* 7 */
        "      KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"             /* 8 */
        "      LocalSecondaryIndexes:\n"                                        /* 9 */
        "        - IndexName: ByN\n"                                            /* 10 */
        "          KeySchema: [{ AttributeName: pk, KeyType: HASH }, { AttributeName: n, KeyType: RANGE }]\n"
        "          Projection: { ProjectionType: ALL }\n"                       /* 12 */
        "  Same:\n"                                                             /* 13 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 14 */
        "    Properties:\n"                                                     /* 15 */
        "      AttributeDefinitions:\n"                                         /* 16 */
        "        - { AttributeName: pk, AttributeType: S }\n"                   /* 17 */
        "        - { AttributeName: g, AttributeType: S }\n"                    /* 18 */
        "      KeySchema: [{ AttributeName: pk, KeyType: HASH }, { AttributeName: pk, KeyType: RANGE }]\n"
        "      GlobalSecondaryIndexes:\n"                                       /* 20 */
        "        - IndexName: ByG\n"                                            /* 21 */
        "          KeySchema: [{ AttributeName: g, KeyType: HASH }, { AttributeName: g, KeyType: RANGE }]\n"
        "          Projection: {}\n"                                            /* 23 */
        "      LocalSecondaryIndexes: []\n"                                     /* 24 */
        "  Names:\n"                                                            /* 25 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 26 */
        "    Properties:\n"                                                     /* 27 */
        "      TableName: 'my table'\n"                                         /* 28 */
        "      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n" /* 29 */
        "      KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"             /* 30 */
        "      GlobalSecondaryIndexes:\n"                                       /* 31 */
        "        - IndexName: ab\n"                                             /* 32 */
        "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"         /* 33 */
        "          Projection: { ProjectionType: KEYS_ONLY, NonKeyAttributes: [] }\n"
        "        - IndexName: 'by#pk'\n"                                        /* 35 */
        "          KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"         /* 36 */
        "          Projection: { NonKeyAttributes: [a] }\n"));                  /* 37 */
    size_t i = 0;
    issue_at(i++, 10, "table NoRange has no sort (RANGE) key, which a local secondary index "
                      "(ByN) needs");
    issue_at(i++, 23, "the Projection of global secondary index ByG of table Same has no "
                      "ProjectionType");
    issue_at(i++, 24, "the LocalSecondaryIndexes of table Same is an empty list");
    issue_at(i++, 19, "table Same has 'pk' as both its HASH and its RANGE key");
    issue_at(i++, 22, "global secondary index ByG of table Same has 'g' as both its HASH and its "
                      "RANGE key");
    issue_at(i++, 28, "TableName 'my table' of table Names must be 3 to 255 characters");
    issue_at(i++, 34, "global secondary index ab of table Names lists an empty NonKeyAttributes");
    issue_at(i++, 37, "the Projection of global secondary index by#pk of table Names has no "
                      "ProjectionType");
    issue_at(i++, 32, "index name 'ab' of table Names must be 3 to 255 characters");
    issue_at(i++, 35, "index name 'by#pk' of table Names must be 3 to 255 characters");
    issues_are(i);

    /* counts: 6 local indexes, 21 global ones, 21 NonKeyAttributes in one
     * index and 101 in all */
    memset(&S, 0, sizeof S);
    char *text = malloc(65536);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text,
        "Resources:\n"
        "  Many:\n"
        "    Type: AWS::DynamoDB::Table\n"
        "    Properties:\n"
        "      AttributeDefinitions:\n"
        "        - { AttributeName: pk, AttributeType: S }\n"
        "        - { AttributeName: sk, AttributeType: S }\n"
        "      KeySchema: [{ AttributeName: pk, KeyType: HASH }, { AttributeName: sk, KeyType: RANGE }]\n"
        "      LocalSecondaryIndexes:\n");
    for (int l = 0; l < 6; l++)
        o += (size_t)sprintf(text + o,
                             "        - IndexName: Local%d\n"
                             "          KeySchema: [{ AttributeName: pk, KeyType: HASH }, "
                             "{ AttributeName: sk, KeyType: RANGE }]\n"
                             "          Projection: { ProjectionType: KEYS_ONLY }\n", l);
    o += (size_t)sprintf(text + o, "      GlobalSecondaryIndexes:\n");
    for (int g = 0; g < 21; g++) {
        o += (size_t)sprintf(text + o,
                             "        - IndexName: Global%d\n"
                             "          KeySchema: [{ AttributeName: sk, KeyType: HASH }]\n"
                             "          Projection:\n"
                             "            ProjectionType: INCLUDE\n"
                             "            NonKeyAttributes: [", g);
        int nk = g == 0 ? 21 : 4; /* 21 + 20 * 4 = 101 */
        for (int k = 0; k < nk; k++)
            o += (size_t)sprintf(text + o, "%sa%d", k ? ", " : "", k);
        o += (size_t)sprintf(text + o, "]\n");
    }
    assert_true(load("counts.yaml", text));
    free(text);
    i = 0;
    issue_at(i++, 33, "global secondary index Global0 of table Many projects 21 "
                      "NonKeyAttributes: DynamoDB takes at most 20 in one index");
    issue_at(i++, 2, "the indexes of table Many project 101 NonKeyAttributes in all: DynamoDB "
                     "allows at most 100 per table");
    issue_at(i++, 129, "table Many has more than 20 global secondary indexes (Global20 is one "
                       "too many): DynamoDB allows at most 20 per table (the default quota");
    issue_at(i++, 25, "table Many has more than 5 local secondary indexes (Local5 is one too "
                      "many)");
    issues_are(i);
}

/* Global indexes with multi-attribute keys (up to 4 HASH and 4 RANGE
 * attributes); tables and local indexes keep one of each. */
static void test_multi_attribute_keys(void **state)
{
    (void)state;
    assert_true(load("multi.yaml",
        "Resources:\n"                                                          /* 1 */
        "  Matches:\n"                                                          /* 2 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 3 */
        "    Properties:\n"                                                     /* 4 */
        "      AttributeDefinitions:\n"                                         /* 5 */
        "        - { AttributeName: matchId, AttributeType: S }\n"              /* 6 */
        "        - { AttributeName: tournamentId, AttributeType: S }\n"         /* 7 */
        "        - { AttributeName: region, AttributeType: S }\n"               /* 8 */
        "        - { AttributeName: round, AttributeType: S }\n"                /* 9 */
        "        - { AttributeName: bracket, AttributeType: S }\n"              /* 10 */
        "        - { AttributeName: matchNo, AttributeType: N }\n"              /* 11 */
        "      KeySchema: [{ AttributeName: matchId, KeyType: HASH }]\n"        /* 12 */
        "      GlobalSecondaryIndexes:\n"                                       /* 13 */
        "        - IndexName: TournamentRegion\n"                               /* 14 */
        "          KeySchema:\n"                                                /* 15 */
        "            - { AttributeName: tournamentId, KeyType: HASH }\n"        /* 16 */
        "            - { AttributeName: region, KeyType: HASH }\n"              /* 17 */
        "            - { AttributeName: round, KeyType: RANGE }\n"              /* 18 */
        "            - { AttributeName: bracket, KeyType: RANGE }\n"            /* 19 */
        "            - { AttributeName: matchNo, KeyType: RANGE }\n"            /* 20 */
        "          Projection: { ProjectionType: ALL }\n"                       /* 21 */
        "  Wrong:\n"                                                            /* 22 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 23 */
        "    Properties:\n"                                                     /* 24 */
        "      AttributeDefinitions:\n"                                         /* 25 */
        "        - { AttributeName: a, AttributeType: S }\n"                    /* 26 */
        "        - { AttributeName: b, AttributeType: S }\n"                    /* 27 */
        "        - { AttributeName: c, AttributeType: S }\n"                    /* 28 */
        "        - { AttributeName: d, AttributeType: S }\n"                    /* 29 */
        "        - { AttributeName: e, AttributeType: S }\n"                    /* 30 */
        "      KeySchema: [{ AttributeName: a, KeyType: HASH }, { AttributeName: b, KeyType: HASH }]\n"
        "      GlobalSecondaryIndexes:\n"                                       /* 32 */
        "        - IndexName: FiveHash\n"                                       /* 33 */
        "          KeySchema:\n"                                                /* 34 */
        "            - { AttributeName: a, KeyType: HASH }\n"                   /* 35 */
        "            - { AttributeName: b, KeyType: HASH }\n"                   /* 36 */
        "            - { AttributeName: c, KeyType: HASH }\n"                   /* 37 */
        "            - { AttributeName: d, KeyType: HASH }\n"                   /* 38 */
        "            - { AttributeName: e, KeyType: HASH }\n"                   /* 39 */
        "          Projection: { ProjectionType: ALL }\n"                       /* 40 */
        "        - IndexName: HashLast\n"                                       /* 41 */
        "          KeySchema:\n"                                                /* 42 */
        "            - { AttributeName: a, KeyType: HASH }\n"                   /* 43 */
        "            - { AttributeName: b, KeyType: RANGE }\n"                  /* 44 */
        "            - { AttributeName: c, KeyType: HASH }\n"                   /* 45 */
        "          Projection: { ProjectionType: ALL }\n"                       /* 46 */
        "        - IndexName: Twice\n"                                          /* 47 */
        "          KeySchema:\n"                                                /* 48 */
        "            - { AttributeName: a, KeyType: HASH }\n"                   /* 49 */
        "            - { AttributeName: c, KeyType: HASH }\n"                   /* 50 */
        "            - { AttributeName: a, KeyType: RANGE }\n"                  /* 51 */
        "          Projection: { ProjectionType: ALL }\n"));                    /* 52 */
    const TableDef *t = table("Matches");
    const TableIndex *g = table_find_index(t, "TournamentRegion");
    assert_string_equal(g->pk.name, "tournamentId");
    assert_string_equal(index_key_attr(g, false, 1)->name, "region");
    assert_null(index_key_attr(g, false, 2));
    assert_string_equal(g->sk.name, "round");
    assert_string_equal(index_key_attr(g, true, 1)->name, "bracket");
    assert_string_equal(index_key_attr(g, true, 2)->name, "matchNo");
    assert_int_equal(index_key_attr(g, true, 2)->type, ATTR_N);
    assert_null(index_key_attr(g, true, 3));
    assert_null(index_key_attr(g, true, 9));
    size_t i = 0;
    issue_at(i++, 31, "table Wrong has two HASH keys ('a' and 'b')");
    issue_at(i++, 39, "global secondary index FiveHash of table Wrong has more than 4 HASH keys "
                      "('e' is one too many)");
    issue_at(i++, 45, "the KeySchema of global secondary index HashLast of table Wrong lists a "
                      "HASH key after the RANGE key 'b'");
    issue_at(i++, 51, "global secondary index Twice of table Wrong names 'a' twice in its key "
                      "schema");
    /* 'b' .. 'e' are used (by the indexes, and b by the table's wrong
     * KeySchema): never reported as unused */
    issues_are(i);
}

/* An attribute a key schema names is used, whatever else is wrong there. */
static void test_used_attributes(void **state)
{
    (void)state;
    assert_true(load("used.yaml",
        "Resources:\n"                                                          /* 1 */
        "  T:\n"                                                                /* 2 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 3 */
        "    Properties:\n"                                                     /* 4 */
        "      AttributeDefinitions:\n"                                         /* 5 */
        "        - { AttributeName: pk, AttributeType: S }\n"                   /* 6 */
        "        - { AttributeName: g, AttributeType: S }\n"                    /* 7 */
        "        - { AttributeName: k, AttributeType: S }\n"                    /* 8 */
        "      KeySchema: [{ AttributeName: pk, KeyType: HASH }]\n"             /* 9 */
        "      GlobalSecondaryIndexes:\n"                                       /* 10 */
        "        - KeySchema: [{ AttributeName: g, KeyType: HASH }]\n"          /* 11 */
        "          Projection: { ProjectionType: ALL }\n"                       /* 12 */
        "        - IndexName: ByK\n"                                            /* 13 */
        "          KeySchema: [{ AttributeName: k, KeyType: PARTITION }]\n"     /* 14 */
        "          Projection: { ProjectionType: ALL }\n"));                    /* 15 */
    size_t i = 0;
    issue_at(i++, 11, "a global secondary index of table T has no IndexName");
    issue_at(i++, 14, "KeyType of 'k' in global secondary index ByK of table T must be HASH or "
                      "RANGE (got 'PARTITION')");
    issues_are(i);

    /* a key schema that is not there, or has no partition key: what it
     * would use is not judged; a nameless entry is one mistake, not two */
    memset(&S, 0, sizeof S);
    assert_true(load("broken.yaml",
        "Resources:\n"                                                          /* 1 */
        "  NoKeys:\n"                                                           /* 2 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 3 */
        "    Properties:\n"                                                     /* 4 */
        "      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
        "  Nameless:\n"                                                         /* 6 */
        "    Type: AWS::DynamoDB::Table\n"                                      /* 7 */
        "    Properties:\n"                                                     /* 8 */
        "      AttributeDefinitions: [{ AttributeName: pk, AttributeType: S }]\n"
        "      KeySchema: [{ KeyType: HASH }]\n"));                             /* 10 */
    i = 0;
    issue_at(i++, 2, "table NoKeys has no KeySchema");
    issue_at(i++, 10, "a KeySchema entry of table Nameless has no AttributeName");
    issues_are(i);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_cloudformation_yaml), T(test_json_template), T(test_serverless),
        T(test_issues),              T(test_no_tables),     T(test_resource_fragment), T(test_problems),
        T(test_aliases_bounded),     T(test_cfn_reader_on_doc), T(test_names_match),
        T(test_serverless_expansion_bounded), T(test_serverless_variable_depth),
        T(test_serverless_include_cycles), T(test_terraform),
        T(test_intrinsics_unknown), T(test_foreach_nested), T(test_dynamodb_limits),
        T(test_multi_attribute_keys), T(test_used_attributes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
