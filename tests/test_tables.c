/* Unit tests for linter/tables.c: tables defined in code (CDK, CfnTable,
 * CreateTableCommand, Turbine, dynamodb-toolbox, ddb-lib), environment
 * variables that name them, and what the pass records about data
 * operations (table and index names through constants and environment
 * defaults, ExpressionAttributeNames, library queries), through
 * extract_file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "extract.h"
#include "tables.h"

static Config *C;
static Problems P;
static FileIR *F;

static int setup(void **state)
{
    (void)state;
    C = config_default();
    problems_init(&P);
    F = NULL;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fileir_free(F);
    problems_free(&P);
    config_free(C);
    return 0;
}

static const FileTables *extract(const char *text)
{
    F = extract_file("src/stack.ts", text, strlen(text), C, &P);
    for (size_t i = 0; i < P.items.n; i++)
        print_message("problem %u:%u %s\n", P.items.v[i].line, P.items.v[i].col,
                      P.items.v[i].message);
    assert_int_equal(P.items.n, 0);
    assert_non_null(F->tables);
    return F->tables;
}

static const TableDef *table(const FileTables *ft, const char *id)
{
    for (size_t i = 0; i < ft->set.tables.n; i++)
        if (!strcmp(ft->set.tables.v[i].id, id))
            return &ft->set.tables.v[i];
    fail_msg("no table %s", id);
    return NULL;
}

static void dump(const FileTables *ft)
{
    for (size_t i = 0; i < ft->set.issues.n; i++)
        print_message("issue %u: %s\n", ft->set.issues.v[i].span.start_row + 1,
                      ft->set.issues.v[i].message);
}

static void test_cdk(void **state)
{
    (void)state;
    const FileTables *ft = extract(
        "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\n"                   /* 1 */
        "import { AttributeType, ProjectionType, TableV2, CfnTable } from 'aws-cdk-lib/aws-dynamodb';\n"
        "const PK = { name: 'pk', type: AttributeType.STRING };\n"                  /* 3 */
        "export class S {\n"                                                        /* 4 */
        "  readonly orders = new dynamodb.Table(this, 'Orders', {\n"                /* 5 */
        "    tableName: `${stage}-orders`,\n"                                       /* 6 */
        "    partitionKey: PK,\n"                                                   /* 7 */
        "    sortKey: { name: 'sk', type: dynamodb.AttributeType.NUMBER },\n"       /* 8 */
        "  });\n"                                                                   /* 9 */
        "  constructor() {\n"                                                       /* 10 */
        "    this.orders.addGlobalSecondaryIndex({ indexName: 'GSI1',\n"            /* 11 */
        "      partitionKey: { name: 'GSI1PK', type: AttributeType.STRING },\n"     /* 12 */
        "      projectionType: ProjectionType.KEYS_ONLY });\n"                      /* 13 */
        "    this.orders.addLocalSecondaryIndex({ indexName: 'LSI1', sortKey: { name: 'n', type: AttributeType.NUMBER } });\n"
        "    const t2 = new TableV2(this, 'T2', { partitionKey: PK, sortKey: { name: 'sk', type: AttributeType.STRING },\n"
        "      globalSecondaryIndexes: [{ indexName: 'ByA', partitionKey: { name: 'a', type: AttributeType.STRING } }],\n"
        "      localSecondaryIndexes: [{ indexName: 'ByL', sortKey: { name: 'l', type: AttributeType.STRING } }] });\n"
        "    const open = new dynamodb.Table(this, 'Open', { ...base, partitionKey: PK });\n"
        "    props.table.addGlobalSecondaryIndex({ indexName: 'Elsewhere', partitionKey: PK });\n"
        "    new CfnTable(this, 'L1', { tableName: 'ledger', keySchema: [{ attributeName: 'id', keyType: 'HASH' }],\n"
        "      attributeDefinitions: [{ attributeName: 'id', attributeType: 'S' }] });\n"
        "  }\n"
        "}\n");
    dump(ft);
    assert_int_equal(ft->set.issues.n, 0);
    assert_int_equal(ft->set.tables.n, 4);
    const TableDef *t = table(ft, "Orders");
    assert_int_equal(t->source, TSRC_CDK);
    assert_string_equal(t->var, "this.orders");
    assert_string_equal(t->name, "${}-orders");
    assert_string_equal(t->pk.name, "pk");
    assert_int_equal(t->pk.type, ATTR_S);
    assert_string_equal(t->sk.name, "sk");
    assert_int_equal(t->sk.type, ATTR_N);
    assert_int_equal(t->indexes.n, 2);
    assert_string_equal(t->indexes.v[0].name, "GSI1");
    assert_string_equal(t->indexes.v[0].pk.name, "GSI1PK");
    assert_string_equal(t->indexes.v[0].projection, "KEYS_ONLY");
    assert_int_equal(t->indexes.v[0].span.start_row, 10);
    assert_int_equal(t->indexes.v[1].kind, INDEX_LOCAL);
    assert_string_equal(t->indexes.v[1].pk.name, "pk"); /* the table's */
    assert_false(t->indexes_open);
    t = table(ft, "T2");
    assert_string_equal(t->var, "t2");
    assert_int_equal(t->indexes.n, 2);
    assert_int_equal(t->indexes.v[1].kind, INDEX_LOCAL);
    t = table(ft, "Open");
    assert_true(t->indexes_open);
    t = table(ft, "L1");
    assert_int_equal(t->source, TSRC_CDK_CFN);
    assert_string_equal(t->name, "ledger");
    assert_string_equal(t->pk.name, "id");
    /* an index added to a table of another file */
    assert_int_equal(ft->index_calls.n, 1);
    assert_string_equal(ft->index_calls.v[0].receiver, "props.table");
    assert_true(ft->index_calls.v[0].readable);
    assert_string_equal(ft->index_calls.v[0].index.name, "Elsewhere");
}

static void test_cdk_issues_and_env(void **state)
{
    (void)state;
    const FileTables *ft = extract(
        "const t = new Table(this, 'T', { partitionKey: { name: 'pk', type: AttributeType.STRING }, sortKey: { name: 'sk', type: AttributeType.STRING } });\n"
        "t.addGlobalSecondaryIndex({ indexName: 'Gsi' });\n"
        "t.addLocalSecondaryIndex({ indexName: 'Lsi' });\n"
        "t.addGlobalSecondaryIndex(gsiProps);\n"
        "new Table(this, 'NoPk', { tableName: 'x' });\n"
        "const fn = new NodejsFunction(this, 'Fn', { environment: { TABLE_NAME: t.tableName, STAGE: 'prod' } });\n"
        "fn.addEnvironment('ORDERS_TABLE', t.tableName);\n"
        "fn.addEnvironment('LEGACY', 'legacy-table');\n");
    dump(ft);
    assert_int_equal(ft->set.issues.n, 2);
    assert_int_equal(ft->set.issues.v[0].span.start_row, 1);
    assert_non_null(strstr(ft->set.issues.v[0].message,
                           "global secondary index Gsi added to t has no partitionKey"));
    assert_non_null(strstr(ft->set.issues.v[1].message,
                           "local secondary index Lsi added to t has no sortKey"));
    /* a construct named Table without partitionKey (SST's takes
     * primaryIndex): not a table keylint can read, and no finding */
    assert_int_equal(ft->set.tables.n, 1);
    const TableDef *t = table(ft, "T");
    assert_true(t->indexes_open); /* gsiProps cannot be read */
    assert_int_equal(ft->set.env.n, 3);
    assert_string_equal(ft->set.env.v[0].var, "TABLE_NAME");
    assert_string_equal(ft->set.env.v[0].table_id, "t");
    assert_string_equal(ft->set.env.v[1].var, "ORDERS_TABLE");
    assert_string_equal(ft->set.env.v[2].name, "legacy-table");
}

static void test_sdk_and_libraries(void **state)
{
    (void)state;
    const FileTables *ft = extract(
        "import { CreateTableCommand } from '@aws-sdk/client-dynamodb';\n"
        "import { defineEntity, defineTable } from 'dynamodb-turbine';\n"
        "import { Table } from 'dynamodb-toolbox';\n"
        "import { TableClient } from '@ddb-lib/client';\n"
        "export const cmd = new CreateTableCommand({ TableName: 'sessions',\n"
        "  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],\n"
        "  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],\n"
        "  GlobalSecondaryIndexes: [{ IndexName: 'ByUser', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }] });\n"
        "ddb.createTable({ TableName: 'sessions-v2', AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' }] });\n"
        "export const table = defineTable({ name: 'app', indexes: { table: { hashKey: 'pk', rangeKey: 'sk' }, byType: { hashKey: 'type', rangeKey: 'sk' } } });\n"
        "export const posts = defineEntity({ table, schema, keys: {} });\n"
        "const bad = defineTable({ name: 'bad', indexes: { main: { hashKey: 'pk' } } });\n"
        "const v0 = new Table({ name: 'tb0', partitionKey: 'PK', sortKey: 'SK', indexes: { GSI1: { partitionKey: 'GSI1pk', sortKey: 'GSI1sk' }, LSI1: { sortKey: 'x' } } });\n"
        "const v1 = new Table({ name: 'tb1', partitionKey: { name: 'PK', type: 'string' }, indexes: { byX: { type: 'global', partitionKey: { name: 'x', type: 'string' } } } });\n"
        "const client = new TableClient({ tableName: 'geo', partitionKey: 'pk', sortKey: 'sk' });\n"
        "const sst = new Table(stack, 'Sst', { fields: { pk: 'string' }, primaryIndex: { partitionKey: 'pk', sortKey: 'sk' },\n"
        "  globalIndexes: { gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } }, localIndexes: { lsi1: { sortKey: 'n' } } });\n");
    dump(ft);
    assert_int_equal(ft->set.issues.n, 1);
    assert_non_null(strstr(ft->set.issues.v[0].message, "defineTable bad has no index named 'table'"));
    assert_int_equal(ft->set.tables.n, 8);
    const TableDef *t = table(ft, "sessions");
    assert_int_equal(t->source, TSRC_SDK);
    assert_string_equal(t->indexes.v[0].name, "ByUser");
    t = table(ft, "sessions-v2");
    assert_string_equal(t->pk.name, "k");
    t = table(ft, "table");
    assert_int_equal(t->source, TSRC_TURBINE);
    assert_string_equal(t->name, "app");
    assert_string_equal(t->pk.name, "pk");
    assert_string_equal(t->indexes.v[0].name, "byType");
    assert_string_equal(t->indexes.v[0].pk.name, "type");
    assert_int_equal(ft->entities.n, 1);
    assert_string_equal(ft->entities.v[0].entity, "posts");
    assert_string_equal(ft->entities.v[0].table, "table");
    t = table(ft, "v0");
    assert_int_equal(t->source, TSRC_TOOLBOX);
    assert_string_equal(t->pk.name, "PK");
    assert_int_equal(t->indexes.n, 2);
    assert_int_equal(t->indexes.v[0].kind, INDEX_GLOBAL);
    assert_int_equal(t->indexes.v[1].kind, INDEX_LOCAL);
    assert_string_equal(t->indexes.v[1].pk.name, "PK");
    assert_false(t->indexes_open);
    t = table(ft, "v1");
    assert_string_equal(t->pk.name, "PK");
    assert_int_equal(t->pk.type, ATTR_S); /* v1's 'string' */
    assert_string_equal(t->indexes.v[0].pk.name, "x");
    t = table(ft, "client");
    assert_int_equal(t->source, TSRC_DDB_LIB);
    assert_string_equal(t->name, "geo");
    assert_true(t->indexes_open); /* a TableClient does not declare its indexes */
    t = table(ft, "Sst");
    assert_int_equal(t->source, TSRC_SST);
    assert_string_equal(t->pk.name, "pk");
    assert_string_equal(t->sk.name, "sk");
    assert_int_equal(t->indexes.n, 2);
    assert_string_equal(t->indexes.v[0].pk.name, "gsi1pk");
    assert_int_equal(t->indexes.v[1].kind, INDEX_LOCAL);
    assert_string_equal(t->indexes.v[1].pk.name, "pk");
    assert_false(t->indexes_open);
}

/* UpdateTable scripts: each index a GlobalSecondaryIndexUpdates entry
 * creates is an index call on the table of that name; an entry that cannot
 * be read leaves that table's indexes open; deletes add nothing. */
static void test_update_table(void **state)
{
    (void)state;
    const FileTables *ft = extract(
        "import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';\n"
        "const tableName = 'reviews';\n"
        "await client.send(new UpdateTableCommand({ TableName: tableName,\n"
        "  AttributeDefinitions: [{ AttributeName: 'productId', AttributeType: 'S' }],\n"
        "  GlobalSecondaryIndexUpdates: [\n"
        "    { Create: { IndexName: 'byProduct', KeySchema: [{ AttributeName: 'productId', KeyType: 'HASH' }],\n"
        "      Projection: { ProjectionType: 'KEYS_ONLY' } } },\n"
        "    { Delete: { IndexName: 'old' } }] }));\n"
        "ddb.updateTable({ TableName: 'orders', GlobalSecondaryIndexUpdates: [updates] });\n"
        "ddb.updateTable({ TableName: 'orders', BillingMode: 'PAY_PER_REQUEST' });\n"
        "new UpdateTableCommand({ TableName: name(), GlobalSecondaryIndexUpdates: [] });\n");
    dump(ft);
    assert_int_equal(ft->set.tables.n, 0); /* it defines no table */
    assert_int_equal(ft->set.issues.n, 0);
    assert_int_equal(ft->index_calls.n, 2);
    const IndexCall *ic = &ft->index_calls.v[0];
    assert_string_equal(ic->table_name, "reviews");
    assert_true(ic->readable);
    assert_string_equal(ic->index.name, "byProduct");
    assert_int_equal(ic->index.kind, INDEX_GLOBAL);
    assert_string_equal(ic->index.pk.name, "productId");
    assert_int_equal(ic->index.pk.type, ATTR_S);
    assert_string_equal(ic->index.projection, "KEYS_ONLY");
    assert_int_equal(ic->index.span.start_row, 5);
    ic = &ft->index_calls.v[1];
    assert_string_equal(ic->table_name, "orders");
    assert_false(ic->readable); /* `updates` is not read */
}

static const OpParams *extra_at(const FileIR *f, size_t op)
{
    const OpParams *e = op_params(&f->ops.v[op]);
    assert_non_null(e);
    return e;
}

static void test_op_names(void **state)
{
    (void)state;
    extract("import { QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
            "import { INDEX } from './names';\n"
            "const TABLE = process.env.TABLE_NAME ?? 'app';\n"
            "export const STAGE_TABLE = `orders-${process.env.STAGE}`;\n"
            "class Repo {\n"
            "  private readonly tableName = process.env['ORDERS_TABLE'] || 'orders';\n"
            "  q(client: any, pk: string) {\n"
            "    client.send(new QueryCommand({ TableName: TABLE, IndexName: 'GSI1',\n"
            "      KeyConditionExpression: '#p = :p', ExpressionAttributeNames: { '#p': 'GSI1PK' },\n"
            "      ExpressionAttributeValues: { ':p': pk }, ScanIndexForward: false }));\n"
            "    const params = { TableName: this.tableName, IndexName: INDEX, KeyConditionExpression: 'pk = :p' };\n"
            "    client.send(new QueryCommand(params));\n"
            "    client.send(new QueryCommand({ TableName: STAGE_TABLE, KeyConditionExpression: 'pk = :p' }));\n"
            "    client.send(new QueryCommand({ TableName: config.get('EVENTS_TABLE'), KeyConditionExpression: 'pk = :p' }));\n"
            "    return posts.query({ index: 'gsi1', type: 'post', gsi1pk: 'x' });\n"
            "  }\n"
            "}\n");
    assert_true(F->ops.n >= 5);
    const OpParams *e = extra_at(F, 0);
    assert_true(e->has_table);
    assert_string_equal(e->table.env, "TABLE_NAME");
    assert_string_equal(e->table.literal, "app");
    assert_string_equal(e->index.literal, "GSI1");
    /* the values' places: `TABLE` and `'GSI1'` on line 8 (row 7) */
    assert_int_equal(e->table_span.start_row, 7);
    assert_int_equal(e->table_span.start_col, 46);
    assert_int_equal(e->table_span.end_col, 51);
    assert_int_equal(e->index_span.start_row, 7);
    assert_int_equal(e->index_span.start_col, 64);
    assert_true(e->scan_index_forward);
    assert_string_equal(op_param_name(e, "#p"), "GSI1PK");
    assert_string_equal(op_param_name(e, "#q"), "#q");
    assert_string_equal(op_param_name(e, "pk"), "pk");
    e = extra_at(F, 1);
    assert_string_equal(e->table.env, "ORDERS_TABLE"); /* a class field */
    assert_string_equal(e->table.literal, "orders");
    assert_null(e->index.literal);
    assert_string_equal(e->index.import, "INDEX");
    assert_string_equal(e->index.from, "./names");
    e = extra_at(F, 2);
    assert_string_equal(e->table.literal, "orders-${}");
    e = extra_at(F, 3);
    assert_string_equal(e->table.env, "EVENTS_TABLE");
    e = extra_at(F, 4);
    assert_true(e->library);
    assert_string_equal(e->index.literal, "gsi1");
    assert_int_equal(e->lib_attrs.n, 2);
    assert_string_equal(e->lib_attrs.v[0], "type");
    /* module constants that name tables */
    const FileTables *ft = F->tables;
    assert_int_equal(ft->consts.n, 2);
    assert_string_equal(ft->consts.v[1].name, "STAGE_TABLE");
    assert_true(ft->consts.v[1].exported);
}

static void test_choices_and_doubles(void **state)
{
    (void)state;
    extract(
        "const ADMIN = 'ADMIN';\n"
        "class ScanCommand { constructor(public input: any) {} }\n"
        "export const item = (a: boolean, b: boolean, id: string) => ({\n"
        "  pk: a ? ADMIN : (b ? 'X' : 'Y'),\n"
        "  sk: a ? id : 'none',\n"
        "  note: a ? 'yes' : 'no',\n"
        "});\n"
        "export const key = (a: boolean) => `S#${a ? 'ON' : 'OFF'}`;\n");
    assert_int_equal(F->choices.n, 2);
    assert_string_equal(F->choices.v[0].attr, "pk");
    assert_int_equal(F->choices.v[0].role, ROLE_PK);
    assert_int_equal(F->choices.v[0].span.start_row, 3);
    assert_null(F->choices.v[1].attr); /* inside a template, no attribute */
    assert_int_equal(F->choices.v[1].span.start_row, 7);
    assert_true(strlist_has(&F->local_commands, "ScanCommand"));
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* a deeply nested object passed to a table: bounded, no crash */
    char *text = malloc(40000);
    assert_non_null(text);
    size_t o = (size_t)sprintf(text, "new Table(this, 'Deep', { partitionKey: { name: 'pk' }, x: ");
    for (int i = 0; i < 2000; i++)
        text[o++] = '[';
    for (int i = 0; i < 2000; i++)
        text[o++] = ']';
    strcpy(text + o, " });\n");
    const FileTables *ft = extract(text);
    free(text);
    assert_int_equal(ft->set.tables.n, 1);
    assert_string_equal(ft->set.tables.v[0].pk.name, "pk");
}

/* Names in nested objects of names: `config.dynamodb.users` of a local
 * object is read through; of an imported one it is looked up by its
 * whole path; an exported config's nested members are constants. */
static void test_nested_names(void **state)
{
    (void)state;
    extract("import { QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
            "import { settings } from './settings';\n"
            "function getEnvVar(n: string, d?: string) { return process.env[n] ?? d; }\n"
            "export const config = { stage: 'dev', dynamodb: { users: getEnvVar('USERS_TABLE', 'users-dev'),\n"
            "  deep: { a: { b: 'too-deep' } } } };\n"
            "client.send(new QueryCommand({ TableName: config.dynamodb.users, KeyConditionExpression: 'pk = :p' }));\n"
            "client.send(new QueryCommand({ TableName: settings.db.orders, KeyConditionExpression: 'pk = :p' }));\n"
            "client.send(new QueryCommand({ TableName: config.dynamodb.nope, KeyConditionExpression: 'pk = :p' }));\n");
    assert_int_equal(F->ops.n, 3);
    const OpParams *e = extra_at(F, 0);
    assert_string_equal(e->table.env, "USERS_TABLE");
    e = extra_at(F, 1);
    assert_string_equal(e->table.import, "settings.db.orders");
    assert_string_equal(e->table.from, "./settings");
    e = extra_at(F, 2);
    assert_null(e->table.env);
    assert_null(e->table.literal);
    const FileTables *ft = F->tables;
    assert_int_equal(ft->consts.n, 2); /* config.stage, config.dynamodb.users */
    assert_string_equal(ft->consts.v[1].name, "config.dynamodb.users");
    assert_string_equal(ft->consts.v[1].ref.env, "USERS_TABLE");
    assert_true(ft->consts.v[1].exported);
}

/* CreateTable parameters built apart from the call (`new
 * CreateTableCommand(def)` in a loop over an array): each object with a
 * TableName and a KeySchema array is a table, named by its TableName's
 * literal fallback; an object without KeySchema is not. Without such a
 * call in the file, the same objects are not tables. */
static void test_create_table_loop(void **state)
{
    (void)state;
    const char *defs =
        "const tables = [\n"
        "  { TableName: process.env.A_TABLE || 'shop-a',\n"
        "    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],\n"
        "    AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }] },\n"
        "  { TableName: 'shop-b', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] },\n"
        "  { TableName: 'not-a-table', Item: { id: 'x' } },\n"
        "];\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s", defs,
             "import { CreateTableCommand } from '@aws-sdk/client-dynamodb';\n"
             "async function create(def: any) { await client.send(new CreateTableCommand(def)); }\n"
             "for (const t of tables) await create(t);\n");
    const FileTables *ft = extract(text);
    assert_int_equal(ft->set.tables.n, 2);
    const TableDef *t = table(ft, "shop-a");
    assert_int_equal(t->source, TSRC_SDK);
    assert_string_equal(t->name, "shop-a");
    assert_string_equal(t->pk.name, "PK");
    assert_int_equal(t->span.start_row, 1);
    t = table(ft, "shop-b");
    assert_string_equal(t->pk.name, "id");
    fileir_free(F);
    F = NULL;
    ft = extract(defs);
    assert_int_equal(ft->set.tables.n, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_cdk),      T(test_cdk_issues_and_env),   T(test_sdk_and_libraries),
        T(test_op_names), T(test_choices_and_doubles), T(test_deep_nesting),
        T(test_update_table), T(test_create_table_loop), T(test_nested_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
