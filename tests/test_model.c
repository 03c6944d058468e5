/* The design model (linter/model/): how entities are named and grouped,
 * which entities a query can return, findings marked, design changes
 * between two revisions, and the example service's model in every format
 * held in tests/model/ (KEYLINT_UPDATE_GOLDEN=1 rewrites them; read the
 * diff). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"
#include "model_int.h"
#include "project.h"

/* ---- projects in memory --------------------------------------------------------- */

static const char INFRA[] =
    "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\n"
    "import { Stack } from 'aws-cdk-lib';\n"
    "export class Data extends Stack {\n"
    "  constructor(scope: any, id: string) {\n"
    "    super(scope, id);\n"
    "    const table = new dynamodb.Table(this, 'AppTable', {\n"
    "      tableName: 'app',\n"
    "      partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },\n"
    "      sortKey: { name: 'SK', type: dynamodb.AttributeType.STRING },\n"
    "    });\n"
    "    table.addGlobalSecondaryIndex({ indexName: 'GSI1',\n"
    "      partitionKey: { name: 'GSI1PK', type: dynamodb.AttributeType.STRING },\n"
    "      sortKey: { name: 'GSI1SK', type: dynamodb.AttributeType.STRING } });\n"
    "  }\n"
    "}\n";

/* A model of the files given as path, text, path, text, ..., NULL (under
 * a directory that does not exist: the texts are the files). */
static DesignModel *model_of(const char *first, ...)
{
    Project *p = project_new(NULL);
    va_list ap;
    va_start(ap, first);
    for (const char *path = first; path; path = va_arg(ap, const char *)) {
        const char *text = va_arg(ap, const char *);
        char full[512];
        snprintf(full, sizeof full, "/nonexistent/keylint-model/%s", path);
        project_set_text(p, full, text, strlen(text));
    }
    va_end(ap);
    project_analyze(p);
    DesignModel *m = model_build(p);
    project_free(p);
    return m;
}

static const MEntity *entity(const DesignModel *m, const char *name)
{
    for (size_t i = 0; i < m->entities.n; i++)
        if (!strcmp(m->entities.v[i].name, name))
            return &m->entities.v[i];
    return NULL;
}

/* The texts of `e`'s shapes of `attr`, joined with " | ". */
static const char *shapes(Arena *a, const MEntity *e, const char *attr)
{
    const char *s = "";
    for (size_t i = 0; e && i < e->shapes.n; i++)
        if (!strcmp(e->shapes.v[i].attr, attr))
            s = arena_printf(a, "%s%s%s", s, s[0] ? " | " : "", e->shapes.v[i].text);
    return s;
}

static const char *names(Arena *a, const DesignModel *m)
{
    const char *s = "";
    for (size_t i = 0; i < m->entities.n; i++)
        s = arena_printf(a, "%s%s%s", s, i ? ", " : "", m->entities.v[i].name);
    return s;
}

static const MQuery *query_at(const DesignModel *m, uint32_t line)
{
    for (size_t i = 0; i < m->queries.n; i++)
        if (m->queries.v[i].site.line == line)
            return &m->queries.v[i];
    return NULL;
}

static const char *returned(Arena *a, const MQuery *q)
{
    const char *s = "";
    for (size_t i = 0; q && i < q->entities.n; i++)
        s = arena_printf(a, "%s%s%s", s, i ? ", " : "", q->entities.v[i]);
    return s;
}

/* ---- naming ------------------------------------------------------------------- */

static const char ADMIN[] =
    "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "const T = 'app';\n"
    "export const org = (d: any, tenantId: string, orgId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `TENANT#${tenantId}#ORG#${orgId}`, SK: 'DETAILS',\n"
    "    GSI1PK: `TENANT#${tenantId}#ORGS`, GSI1SK: orgId } }));\n"
    "export const user = (d: any, tenantId: string, userId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `TENANT#${tenantId}#USER#${userId}`, SK: 'DETAILS' } }));\n"
    "export const member = (d: any, tenantId: string, orgId: string, userId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `TENANT#${tenantId}#ORG#${orgId}`, SK: `USER#${userId}` } }));\n"
    "export const orgWithMembers = (d: any, tenantId: string, id: string) =>\n"
    "  d.send(new QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :pk',\n"
    "    ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}#ORG#${id}` } }));\n"
    "export const orgs = (d: any, tenantId: string) =>\n"
    "  d.send(new QueryCommand({ TableName: T, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p',\n"
    "    ExpressionAttributeValues: { ':p': `TENANT#${tenantId}#ORGS` } }));\n"
    "export const devices = (d: any, tenantId: string) =>\n"
    "  d.send(new QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :pk',\n"
    "    ExpressionAttributeValues: { ':pk': `DEVICE#${tenantId}` } }));\n";

/* A tenant segment that starts a partition key is skipped; the sort key
 * names the item of a partition of several kinds; "X in Y" when X is an
 * entity of its own partition elsewhere. */
static void names_after_the_tenant(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of("infra.ts", INFRA, "admin.ts", ADMIN, NULL);
    assert_string_equal(names(a, m), "ORG, USER, USER in ORG");
    assert_int_equal(m->tables.n, 1);
    assert_true(m->tables.v[0].known);
    assert_string_equal(m->tables.v[0].label, "AppTable (app)");
    assert_string_equal(shapes(a, entity(m, "ORG"), "PK"), "TENANT#{tenantId}#ORG#{orgId}");
    assert_string_equal(shapes(a, entity(m, "ORG"), "GSI1PK"), "TENANT#{tenantId}#ORGS");
    assert_string_equal(shapes(a, entity(m, "USER in ORG"), "SK"), "USER#{userId}");
    /* the columns: the table's keys, then its index's */
    assert_int_equal(m->tables.v[0].attrs.n, 4);
    assert_string_equal(m->tables.v[0].attrs.v[2], "GSI1PK");
    /* queries return what their keys can name, structurally: an ORG's
     * partition holds the ORG and its members, not the USERs */
    assert_string_equal(returned(a, query_at(m, 11)), "ORG, USER in ORG");
    assert_string_equal(returned(a, query_at(m, 14)), "ORG");
    assert_string_equal(query_at(m, 14)->index, "GSI1");
    assert_string_equal(returned(a, query_at(m, 17)), "");
    /* sites: where each is written, and the queries that read it */
    const MEntity *org = entity(m, "ORG");
    assert_int_equal(org->writes.n, 1);
    assert_int_equal(org->writes.v[0].line, 4);
    assert_int_equal(org->reads.n, 2);
    model_free(m);
    arena_free(a);
}

static const char SOCIAL[] =
    "import { PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';\n"
    "const T = 'app';\n"
    "export const profile = (d: any, id: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `USER#${id}`, SK: 'PROFILE' } }));\n"
    "export const post = (d: any, id: string, at: string, postId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `USER#${id}`, SK: `POST#${at}#${postId}` } }));\n"
    "export const stat = (d: any, metric: string, subjectId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `STAT#${metric}`, SK: `SUBJECT#${subjectId}` } }));\n"
    "export const album = (d: any, tenantId: string, id: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `TENANT#${tenantId}`, SK: `ALBUM#${id}` } }));\n"
    "export const meta = (d: any, m: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `MEMBERSHIP#${m}`, SK: `METADATA#${m}` } }));\n"
    "export const lookup = (d: any, m: string, u: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `MEMBERSHIP#${m}`, SK: `LOOKUP#${u}` } }));\n"
    "export const seed = (d: any, item: any) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: item.PK, SK: item.SK } }));\n"
    "export const thing = (d: any, id: string) =>\n"
    "  d.send(new GetCommand({ TableName: T, Key: { PK: makeThingKey(id), SK: item.sk } }));\n";

static void names_by_partition(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of("infra.ts", INFRA, "social.ts", SOCIAL, NULL);
    /* USER's partition holds two kinds (PROFILE, POST): POST is named by
     * its sort key, the literal PROFILE item is the USER; STAT's holds one
     * kind: the partition names it; a tenant's partition: the sort key;
     * METADATA#{m} in MEMBERSHIP#{m} is the partition's own record; a key
     * of a helper not read is named from the helper; keys that are all
     * values passed in are not an entity */
    assert_string_equal(names(a, m), "ALBUM, LOOKUP, MEMBERSHIP, POST, STAT, Thing, USER");
    assert_string_equal(shapes(a, entity(m, "POST"), "SK"), "POST#{at}#{postId}");
    assert_string_equal(shapes(a, entity(m, "STAT"), "SK"), "SUBJECT#{subjectId}");
    assert_string_equal(shapes(a, entity(m, "USER"), "SK"), "PROFILE");
    assert_string_equal(shapes(a, entity(m, "Thing"), "PK"), "{makeThingKey()}");
    assert_false(entity(m, "Thing")->shapes.v[0].written);
    assert_int_equal(m->opaque.n, 1);
    assert_int_equal(m->opaque.v[0].line, 16);
    model_free(m);
    arena_free(a);
}

/* A query that no shape matches returns the entities that write a value
 * that could be anything where it looks (SK: briefId, built elsewhere), as
 * unmatched-query judges it; when a shape matches, only that entity. */
static const char BRIEFS[] =
    "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "const T = 'app';\n"
    "export const put = (d: any, briefId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: 'BRIEF', SK: briefId } }));\n"
    "export const putNote = (d: any, noteId: string) =>\n"
    "  d.send(new PutCommand({ TableName: T, Item: { PK: `NOTE#${noteId}`, SK: 'NOTE' } }));\n"
    "export const byProject = (d: any, projectId: string) =>\n"
    "  d.send(new QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',\n"
    "    ExpressionAttributeValues: { ':pk': 'BRIEF', ':sk': `${projectId}#` } }));\n"
    "export const note = (d: any, id: string) =>\n"
    "  d.send(new QueryCommand({ TableName: T, KeyConditionExpression: 'PK = :pk',\n"
    "    ExpressionAttributeValues: { ':pk': `NOTE#${id}` } }));\n";

static void values_built_elsewhere_answer_queries(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of("infra.ts", INFRA, "briefs.ts", BRIEFS, NULL);
    assert_string_equal(names(a, m), "BRIEF, NOTE");
    assert_string_equal(shapes(a, entity(m, "BRIEF"), "SK"), "{briefId}");
    /* no shape starts {projectId}#: the SK that could be anything */
    assert_string_equal(returned(a, query_at(m, 8)), "BRIEF");
    /* NOTE#{id} matches NOTE's shape: BRIEF is not listed */
    assert_string_equal(returned(a, query_at(m, 11)), "NOTE");
    model_free(m);
    arena_free(a);
}

/* Keys of one object grouped as one item; an index's keys alone (what a
 * helper returns to be spread) are not an entity. */
static void fragments_are_not_entities(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "keys.ts",
        "export function byEmail(email: string, id: string) {\n"
        "  return { GSI1PK: `EMAIL#${email}`, GSI1SK: `USER#${id}` };\n"
        "}\n",
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "import { byEmail } from './keys';\n"
        "export const put = (d: any, id: string, email: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `USER#${id}`, SK: 'PROFILE',\n"
        "    ...byEmail(email, id) } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "USER");
    assert_string_equal(shapes(a, entity(m, "USER"), "GSI1PK"), "EMAIL#{email}");
    model_free(m);
    arena_free(a);
}

/* A value with alternatives (`a || Date.now()`) is one attribute of one
 * item: the index keys written before it stay with the item. */
static void alternatives_stay_in_the_item(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const put = (d: any, id: string, email: string, at?: number) => {\n"
        "  const createdAt = at || Date.now();\n"
        "  return d.send(new PutCommand({ TableName: 'app', Item: {\n"
        "    GSI1PK: `EMAIL#${email}`, GSI1SK: createdAt, PK: `USER#${id}`, SK: 'PROFILE' } }));\n"
        "};\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "USER");
    assert_string_equal(shapes(a, entity(m, "USER"), "GSI1PK"), "EMAIL#{email}");
    assert_string_equal(shapes(a, entity(m, "USER"), "PK"), "USER#{id}");
    model_free(m);
    arena_free(a);
}

/* Items named by the same sort key in partitions of two kinds are two
 * entities, each "X in Y". */
/* An index key an update SETs is the item's index shape: written in the
 * UpdateExpression (`SET GSI2PK = :g`), or pushed clause by clause and
 * joined (`parts.push('GSI1PK = :gsi1pk'); ... SET ${parts.join(', ')}`)
 * with its value assigned to the values object. */
static void index_keys_an_update_sets(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "templates.ts",
        "import { PutCommand, UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "const templatePK = (id: string) => `TEMPLATE#${id}`;\n"
        "const statusGSI = (status: string) => `TEMPLATE#${status}`;\n"
        "export const create = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: templatePK(id), SK: 'METADATA' } }));\n"
        "export const update = async (d: any, id: string, input: { name?: string; status?: string }) => {\n"
        "  const parts: string[] = ['UpdatedAt = :now'];\n"
        "  const names: Record<string, string> = {};\n"
        "  const values: Record<string, unknown> = { ':now': Date.now() };\n"
        "  if (input.name !== undefined) {\n"
        "    parts.push('#name = :name');\n"
        "    names['#name'] = 'name';\n"
        "    values[':name'] = input.name;\n"
        "  }\n"
        "  if (input.status !== undefined) {\n"
        "    parts.push('#status = :status');\n"
        "    names['#status'] = 'status';\n"
        "    values[':status'] = input.status;\n"
        "    parts.push('GSI1PK = :gsi1pk');\n"
        "    values[':gsi1pk'] = statusGSI(input.status);\n"
        "  }\n"
        "  await d.send(new UpdateCommand({ TableName: 'app', Key: { PK: templatePK(id), SK: 'METADATA' },\n"
        "    UpdateExpression: `SET ${parts.join(', ')}`, ExpressionAttributeNames: names,\n"
        "    ExpressionAttributeValues: values }));\n"
        "};\n"
        "export const feature = (d: any, id: string, day: string) =>\n"
        "  d.send(new UpdateCommand({ TableName: 'app', Key: { PK: templatePK(id), SK: 'METADATA' },\n"
        "    UpdateExpression: 'SET featured = :t, GSI1SK = :day',\n"
        "    ExpressionAttributeValues: { ':t': true, ':day': `DAY#${day}` } }));\n"
        "export const byStatus = (d: any, status: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p',\n"
        "    ExpressionAttributeValues: { ':p': statusGSI(status) } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "TEMPLATE");
    assert_string_equal(shapes(a, entity(m, "TEMPLATE"), "GSI1PK"), "TEMPLATE#{status}");
    assert_string_equal(shapes(a, entity(m, "TEMPLATE"), "GSI1SK"), "DAY#{day}");
    assert_string_equal(returned(a, query_at(m, 31)), "TEMPLATE");
    model_free(m);
    arena_free(a);
}

/* Index keys only some items carry (a child folder's, spread from a
 * conditional local; a note's owner when one is given) are drawn with
 * their condition; constant sort keys of more than one word beside a
 * partition's own record (`LOOKUP#EMAIL`, `LOOKUP#PHONE` under
 * `ACCOUNT#{id}` / `PROFILE#{id}`) are entities of their own. */
static void conditional_keys_and_lookups(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "keys.ts",
        "export const folderSK = (id: string) => `FOLDER#${id}`;\n"
        "export function childGsi(parent: string, id: string) {\n"
        "  return { GSI1PK: folderSK(parent), GSI1SK: folderSK(id) };\n"
        "}\n",
        "items.ts",
        "import { folderSK, childGsi } from './keys';\n"
        "export function folderItem(dto: { spaceId: string; id: string; parentId?: string }) {\n"
        "  const base = { PK: `SPACE#${dto.spaceId}`, SK: folderSK(dto.id), type: 'Folder' };\n"
        "  const gsi = dto.parentId ? childGsi(dto.parentId, dto.id) : undefined;\n"
        "  return { ...base, ...(gsi ? gsi : {}) };\n"
        "}\n",
        "accounts.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const create = async (d: any, id: string, email: string, phone: string) => {\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `ACCOUNT#${id}`, SK: `PROFILE#${id}`, email } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `ACCOUNT#${id}`, SK: 'LOOKUP#EMAIL',\n"
        "    GSI1PK: `EMAIL#${email}`, GSI1SK: `ACCOUNT#${id}` } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `ACCOUNT#${id}`, SK: 'LOOKUP#PHONE',\n"
        "    GSI1PK: `PHONE#${phone}`, GSI1SK: `ACCOUNT#${id}` } }));\n"
        "};\n"
        "export const note = (d: any, id: string, at: string, input: { ownerId?: string }) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `NOTE#${id}`, SK: `AT#${at}`,\n"
        "    GSI1PK: input.ownerId ? `OWNER#${input.ownerId}` : undefined, GSI1SK: at } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "ACCOUNT, LOOKUP#EMAIL, LOOKUP#PHONE, NOTE, SPACE");
    const MEntity *folder = entity(m, "SPACE");
    assert_non_null(folder);
    for (size_t i = 0; i < folder->shapes.n; i++) {
        const MShape *sh = &folder->shapes.v[i];
        if (!strncmp(sh->attr, "GSI1", 4))
            assert_string_equal(sh->when ? sh->when : "-", "parentId");
        else
            assert_null(sh->when);
    }
    assert_string_equal(shapes(a, folder, "GSI1PK"), "FOLDER#{parentId}");
    assert_string_equal(shapes(a, entity(m, "LOOKUP#PHONE"), "GSI1PK"), "PHONE#{phone}");
    const MEntity *note = entity(m, "NOTE");
    assert_non_null(note);
    for (size_t i = 0; i < note->shapes.n; i++)
        assert_string_equal(note->shapes.v[i].when ? note->shapes.v[i].when : "-",
                            strcmp(note->shapes.v[i].attr, "GSI1PK") ? "-" : "ownerId");
    model_free(m);
    arena_free(a);
}

/* Seed data writes literal ids: they are instances of the shapes the
 * application writes (EVENT#evt-1 of EVENT#{eventId}, ROLE#role-marshal
 * of ROLE#{roleId}), not shapes or entities of their own; an enumerated
 * value (EVENT_STATUS#DRAFT) stays a shape. */
static void seed_literals_are_instances(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "events.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const create = (d: any, eventId: string, date: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`, SK: 'PROFILE',\n"
        "    GSI1PK: 'EVENT_STATUS#DRAFT', GSI1SK: `${date}#${eventId}` } }));\n"
        "export const role = (d: any, eventId: string, roleId: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`, SK: `ROLE#${roleId}` } }));\n",
        "seed.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export async function seed(d: any) {\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'EVENT#evt-1', SK: 'PROFILE',\n"
        "    GSI1PK: 'EVENT_STATUS#PUBLISHED', GSI1SK: '2026-06-15#evt-1' } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'EVENT#evt-1', SK: 'ROLE#role-marshal' } }));\n"
        "}\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "EVENT, ROLE");
    const MEntity *ev = entity(m, "EVENT"), *role = entity(m, "ROLE");
    const MShape *cell[8];
    assert_int_equal(model_cell_shapes(ev, "PK", cell, 8), 1);
    assert_string_equal(cell[0]->text, "EVENT#{eventId}");
    assert_int_equal(model_cell_shapes(ev, "GSI1PK", cell, 8), 2);
    assert_int_equal(model_cell_shapes(ev, "GSI1SK", cell, 8), 1);
    assert_int_equal(model_cell_shapes(role, "SK", cell, 8), 1);
    assert_string_equal(cell[0]->text, "ROLE#{roleId}");
    model_free(m);
    arena_free(a);
}

/* A sort key that extends another shape of its partition with a word of
 * its own (`ROLE#{roleId}#SLOT#{slotId}` beside `ROLE#{roleId}` under
 * `EVENT#{eventId}`) names its own entity, SLOT, as do seed data's literal
 * ids of it; `begins_with ROLE#` returns both, `begins_with
 * ROLE#{roleId}#SLOT#` the slots only. */
static void hierarchical_sort_keys_apart(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "events.ts",
        "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "import { v4 as uuidv4 } from 'uuid';\n"
        "export const createEvent = (d: any, eventId: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`, SK: 'PROFILE' } }));\n"
        "export async function createRole(d: any, eventId: string) {\n"
        "  const roleId = uuidv4();\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`, SK: `ROLE#${roleId}` } }));\n"
        "}\n"
        "export async function createSlot(d: any, eventId: string, roleId: string) {\n"
        "  const slotId = uuidv4();\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`,\n"
        "    SK: `ROLE#${roleId}#SLOT#${slotId}` } }));\n"
        "}\n"
        "export const rolesAndSlots = (d: any, eventId: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',\n"
        "    ExpressionAttributeValues: { ':pk': `EVENT#${eventId}`, ':sk': 'ROLE#' } }));\n"
        "export const slotsOf = (d: any, eventId: string, roleId: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',\n"
        "    ExpressionAttributeValues: { ':pk': `EVENT#${eventId}`, ':sk': `ROLE#${roleId}#SLOT#` } }));\n",
        "seed.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export async function seed(d: any) {\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'EVENT#evt-1', SK: 'PROFILE' } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'EVENT#evt-1', SK: 'ROLE#role-1' } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'EVENT#evt-1', SK: 'ROLE#role-1#SLOT#slot-1' } }));\n"
        "}\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "EVENT, ROLE, SLOT");
    const MShape *cell[8];
    assert_int_equal(model_cell_shapes(entity(m, "ROLE"), "SK", cell, 8), 1);
    assert_string_equal(cell[0]->text, "ROLE#{roleId}");
    assert_int_equal(model_cell_shapes(entity(m, "SLOT"), "SK", cell, 8), 1);
    assert_string_equal(cell[0]->text, "ROLE#{roleId}#SLOT#{slotId}");
    assert_int_equal(entity(m, "SLOT")->writes.n, 2);
    assert_string_equal(returned(a, query_at(m, 15)), "ROLE, SLOT");
    assert_string_equal(returned(a, query_at(m, 18)), "SLOT");
    model_free(m);
    arena_free(a);
}

/* A query whose key is a value (`ORG_STATUS#${status}`) returns the items
 * that write constants of its prefix: a create's `ORG_STATUS#PENDING` and
 * an update's `SET GSI1PK = :gsi1pk` of `ORG_STATUS#APPROVED`. */
static void values_match_written_constants(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "orgs.ts",
        "import { PutCommand, UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const register = (d: any, orgId: string, at: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `ORG#${orgId}`, SK: 'PROFILE',\n"
        "    GSI1PK: 'ORG_STATUS#PENDING', GSI1SK: `${at}#${orgId}` } }));\n"
        "export const approve = (d: any, orgId: string) =>\n"
        "  d.send(new UpdateCommand({ TableName: 'app', Key: { PK: `ORG#${orgId}`, SK: 'PROFILE' },\n"
        "    UpdateExpression: 'SET #s = :s, GSI1PK = :gsi1pk',\n"
        "    ExpressionAttributeNames: { '#s': 'status' },\n"
        "    ExpressionAttributeValues: { ':s': 'APPROVED', ':gsi1pk': 'ORG_STATUS#APPROVED' } }));\n"
        "export const queue = (d: any, status: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk',\n"
        "    ExpressionAttributeValues: { ':pk': `ORG_STATUS#${status}` } }));\n"
        "export const orgsAfter = (d: any, status: string, at: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1',\n"
        "    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :sk)',\n"
        "    ExpressionAttributeValues: { ':pk': `OTHER#${status}`, ':sk': at } }));\n",
        "tenants.ts",
        "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const order = (d: any, tenantId: string, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `TENANT#${tenantId}`, SK: `ORDER#${id}` } }));\n"
        "export const rate = (d: any, currency: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: 'TENANT#SYSTEM', SK: `RATE#${currency}` } }));\n"
        "export const ofTenant = (d: any, tenantId: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :pk',\n"
        "    ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}` } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "ORDER, ORG, RATE");
    /* a value shape answers first: the constant partition is not a tenant's */
    const MQuery *of_tenant = NULL;
    for (size_t i = 0; i < m->queries.n; i++)
        if (strstr(m->queries.v[i].site.path, "tenants.ts"))
            of_tenant = &m->queries.v[i];
    assert_string_equal(returned(a, of_tenant), "ORDER");
    assert_string_equal(shapes(a, entity(m, "ORG"), "GSI1PK"), "ORG_STATUS#APPROVED | ORG_STATUS#PENDING");
    assert_string_equal(returned(a, query_at(m, 11)), "ORG");
    assert_string_equal(returned(a, query_at(m, 14)), "");
    model_free(m);
    arena_free(a);
}

/* A value a local kept (`const eventId = uuidv4()`) is named by the local,
 * not by the call that made it. */
static void values_named_by_their_locals(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "events.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "import { v4 as uuidv4 } from 'uuid';\n"
        "export async function createEvent(d: any, eventDate: string) {\n"
        "  const eventId = uuidv4();\n"
        "  const createdAt = new Date().toISOString();\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: `EVENT#${eventId}`, SK: 'PROFILE',\n"
        "    GSI1PK: `DATE#${eventDate}`, GSI1SK: `${createdAt}#${eventId}` } }));\n"
        "}\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(shapes(a, entity(m, "EVENT"), "PK"), "EVENT#{eventId}");
    assert_string_equal(shapes(a, entity(m, "EVENT"), "GSI1SK"), "{createdAt}#{eventId}");
    model_free(m);
    arena_free(a);
}

/* A project's query function that takes the key condition and its values
 * as arguments: its callers are the access patterns, not the query inside
 * it, whose key condition is a parameter. */
static void wrapper_queries_are_their_callers(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "lib/db.ts",
        "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "declare const client: DynamoDBDocumentClient;\n"
        "export async function putItem(tableName: string, item: Record<string, unknown>) {\n"
        "  await client.send(new PutCommand({ TableName: tableName, Item: item }));\n"
        "}\n"
        "export async function queryItems(tableName: string, keyConditionExpression: string,\n"
        "    values: Record<string, unknown>, options?: { indexName?: string }) {\n"
        "  const r = await client.send(new QueryCommand({ TableName: tableName,\n"
        "    KeyConditionExpression: keyConditionExpression, ExpressionAttributeValues: values,\n"
        "    ...(options?.indexName ? { IndexName: options.indexName } : {}) }));\n"
        "  return r.Items ?? [];\n"
        "}\n",
        "events.ts",
        "import { putItem, queryItems } from './lib/db';\n"
        "export const createRole = (eventId: string, roleId: string) =>\n"
        "  putItem('app', { PK: `EVENT#${eventId}`, SK: `ROLE#${roleId}` });\n"
        "export const roles = (eventId: string) =>\n"
        "  queryItems('app', 'PK = :pk AND begins_with(SK, :sk)', { ':pk': `EVENT#${eventId}`, ':sk': 'ROLE#' });\n",
        "infra.ts", INFRA, NULL);
    assert_int_equal(m->queries.n, 1);
    assert_non_null(strstr(m->queries.v[0].site.path, "events.ts"));
    model_free(m);
    arena_free(a);
}

/* Seed data's literal ids on an attribute where the entity writes no shape
 * with values (a seeded GSI2PK `ORG#org-demo-1`) are drawn as the one
 * shape with values of that prefix the table's items write
 * (`ORG#{orgId}`). */
static void seed_literals_take_the_value_shape(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "users.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const org = (d: any, orgId: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `ORG#${orgId}`, SK: 'PROFILE' } }));\n"
        "export const user = (d: any, userId: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `USER#${userId}`, SK: 'PROFILE' } }));\n",
        "seed.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export async function seed(d: any) {\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'USER#user-1', SK: 'PROFILE',\n"
        "    GSI1PK: 'ORG#org-demo-1', GSI1SK: 'USER#user-1' } }));\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: { PK: 'USER#user-2', SK: 'PROFILE',\n"
        "    GSI1PK: 'ORG#org-demo-2', GSI1SK: 'USER#user-2' } }));\n"
        "}\n",
        "infra.ts", INFRA, NULL);
    const MEntity *u = entity(m, "USER");
    assert_string_equal(shapes(a, u, "GSI1PK"), "ORG#{orgId}");
    assert_string_equal(shapes(a, u, "GSI1SK"), "USER#{userId}");
    const MShape *cell[8];
    assert_int_equal(model_cell_shapes(u, "GSI1PK", cell, 8), 1);
    assert_int_equal(cell[0]->uses, 2);
    model_free(m);
    arena_free(a);
}

static void same_sort_name_in_two_partitions(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const match = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `MATCH#${id}`, SK: 'METADATA' } }));\n"
        "export const matchLog = (d: any, id: string, at: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `MATCH#${id}`, SK: `HISTORY#${at}` } }));\n"
        "export const release = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `RELEASE#${id}`, SK: 'METADATA' } }));\n"
        "export const releaseLog = (d: any, id: string, at: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `RELEASE#${id}`, SK: `HISTORY#${at}` } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "HISTORY in MATCH, HISTORY in RELEASE, MATCH, RELEASE");
    assert_string_equal(shapes(a, entity(m, "HISTORY in RELEASE"), "PK"), "RELEASE#{id}");
    model_free(m);
    arena_free(a);
}

/* A marshalling function that builds the table keys in a local object
 * and returns it spread beside index keys a local holds only for some
 * items (`const gsi = parent ? gsiKeys(parent, id) : undefined; return {
 * ...base, ...(gsi ? gsi : {}) }`): one item, its index keys written. */
static void spread_locals_are_one_item(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "keys.ts",
        "export const tenantKey = (t: string) => `TENANT#${t}`;\n"
        "export const folderKey = (id: string) => `FOLDER#${id}`;\n"
        "export function folderTree(parent: string, id: string) {\n"
        "  return { GSI1PK: folderKey(parent), GSI1SK: folderKey(id) };\n"
        "}\n",
        "marshal.ts",
        "import { tenantKey, folderKey, folderTree } from './keys';\n"
        "export function toFolderItem(f: { tenant: string; id: string; parent?: string; name: string }) {\n"
        "  const base = { PK: tenantKey(f.tenant), SK: folderKey(f.id), kind: 'Folder' };\n"
        "  const gsi = f.parent ? folderTree(f.parent, f.id) : undefined;\n"
        "  return {\n"
        "    ...base,\n"
        "    name: f.name,\n"
        "    ...(gsi ? gsi : {}),\n"
        "  };\n"
        "}\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "FOLDER");
    const MEntity *e = entity(m, "FOLDER");
    assert_string_equal(shapes(a, e, "PK"), "TENANT#{tenant}");
    assert_string_equal(shapes(a, e, "GSI1PK"), "FOLDER#{parent}");
    assert_string_equal(shapes(a, e, "GSI1SK"), "FOLDER#{id}");
    assert_int_equal(e->writes.n, 1);
    model_free(m);
    arena_free(a);
}

/* Collections in constant partitions that differ after their first word
 * are different entities (settings and health records under `SYSTEM#...`):
 * each is named by its whole constant, not both "SYSTEM". */
static void constant_partitions_apart(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "const settingPK = () => 'SYSTEM#SETTING';\n"
        "const settingSK = (key: string) => `KEY#${key}`;\n"
        "const healthPK = () => 'SYSTEM#HEALTH';\n"
        "const healthSK = (name: string) => `SERVICE#${name}`;\n"
        "export const set = async (d: any, key: string) => {\n"
        "  const item = { PK: settingPK(), SK: settingSK(key), value: 1 };\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: item }));\n"
        "};\n"
        "export const beat = async (d: any, name: string) => {\n"
        "  const item = { PK: healthPK(), SK: healthSK(name), ok: true };\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: item }));\n"
        "};\n"
        "export const all = (d: any) => d.send(new QueryCommand({ TableName: 'app',\n"
        "  KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': healthPK() } }));\n"
        /* records with literal ids are items of one kind */
        "export const seed = (d: any) => Promise.all([\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: 'PLAN#free', SK: 'META' } })),\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: 'PLAN#pro', SK: 'META' } }))]);\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "PLAN, SYSTEM#HEALTH, SYSTEM#SETTING");
    assert_string_equal(shapes(a, entity(m, "SYSTEM#SETTING"), "SK"), "KEY#{key}");
    assert_string_equal(shapes(a, entity(m, "SYSTEM#HEALTH"), "SK"), "SERVICE#{name}");
    assert_string_equal(returned(a, query_at(m, 14)), "SYSTEM#HEALTH");
    model_free(m);
    /* beside a partition of the same word that holds a value, one kind */
    m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const a = (d: any, k: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: 'USER#admin', SK: `ROLE#${k}` } }));\n"
        "export const b = (d: any, k: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: 'USER#guest', SK: `ROLE#${k}` } }));\n"
        "export const c = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `USER#${id}`, SK: 'PROFILE' } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "USER");
    model_free(m);
    arena_free(a);
}

/* A value that falls back to a text (`${tenantId || 'SYSTEM'}`, in a
 * key helper or in the key) builds a second shape: the log of no tenant
 * is AUDIT#SYSTEM. A fallback that is not text adds none. */
static void fallbacks_are_shapes(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "const auditPK = (tenantId: string) => `AUDIT#${tenantId || 'SYSTEM'}`;\n"
        "export const log = async (d: any, input: { tenantId?: string }, id: string) => {\n"
        "  const item = { PK: auditPK(input.tenantId ?? ''), SK: `LOG#${id}`, kind: 'AUDIT_LOG' };\n"
        "  await d.send(new PutCommand({ TableName: 'app', Item: item }));\n"
        "};\n"
        "export const note = (d: any, user: string | undefined, id: string, at?: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: {\n"
        "    PK: `NOTE#${user ?? 'anonymous'}`, SK: `AT#${at || Date.now()}#${id}` } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "AUDIT, NOTE");
    assert_string_equal(shapes(a, entity(m, "AUDIT"), "PK"), "AUDIT#SYSTEM | AUDIT#{tenantId}");
    assert_string_equal(shapes(a, entity(m, "NOTE"), "PK"), "NOTE#anonymous | NOTE#{user}");
    assert_string_equal(shapes(a, entity(m, "NOTE"), "SK"), "AT#{at}#{id}");
    model_free(m);
    arena_free(a);
}

/* Index keys spread in on some items only (`...(cond && { GSI1PK: ... })`,
 * `...(cond ? {...} : {})`) are the item's keys: the index is written. */
static void conditional_spreads_stay_in_the_item(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const add = (d: any, user: string, list: string, id: string, pos?: number) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: {\n"
        "    PK: `USER#${user}`, SK: `ITEM#${list}#${id}`,\n"
        "    ...(list !== 'watched' && pos && { GSI1PK: `LIST#${user}#${list}`, GSI1SK: pos }),\n"
        "  } }));\n"
        "export const tag = (d: any, id: string, tag?: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: {\n"
        "    PK: `TAG#${id}`, SK: 'META', ...(tag ? { GSI1PK: `TAGGED#${tag}` } : {}) } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "TAG, USER");
    assert_string_equal(shapes(a, entity(m, "USER"), "GSI1PK"), "LIST#{user}#{list}");
    assert_string_equal(shapes(a, entity(m, "USER"), "GSI1SK"), "{pos}");
    assert_string_equal(shapes(a, entity(m, "TAG"), "GSI1PK"), "TAGGED#{tag}");
    model_free(m);
    arena_free(a);
}

/* A validation schema's properties (`pk: z.string()`) declare types: no
 * entity "string" or "optional"; a helper call of the project still is one. */
static void schemas_are_not_entities(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "schema.ts",
        "import { z } from 'zod';\n"
        "export const Item = z.object({ PK: z.string(), SK: z.string().optional() });\n",
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const put = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `USER#${id}`, SK: 'PROFILE' } }));\n",
        "infra.ts", INFRA, NULL);
    assert_string_equal(names(a, m), "USER");
    model_free(m);
    arena_free(a);
}

/* ---- findings and tables -------------------------------------------------------- */

static void findings_mark_shapes_and_queries(void **state)
{
    (void)state;
    Arena *a = arena_new();
    DesignModel *m = model_of(
        "infra.ts", INFRA, "repo.ts",
        "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const put = (d: any, orgId: string, userId: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `ORG#${orgId}`, SK: `${orgId}${userId}`,\n"
        "    GSI1PK: `ORG#${orgId}`, GSI1SK: 'META' } }));\n"
        "export const list = (d: any, orgId: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1',\n"
        "    KeyConditionExpression: 'GSI1PK = :p AND begins_with(GSI1SK, :s)',\n"
        "    ExpressionAttributeValues: { ':p': `MEMBERS#${orgId}`, ':s': 'M' } }));\n",
        NULL);
    const MEntity *e = entity(m, "ORG");
    assert_non_null(e);
    const MShape *sk = NULL;
    for (size_t i = 0; i < e->shapes.n; i++)
        if (!strcmp(e->shapes.v[i].attr, "SK"))
            sk = &e->shapes.v[i];
    assert_non_null(sk);
    assert_true(strlist_has(&sk->rules, "missing-delimiter"));
    assert_true(strlist_has(&e->rules, "missing-delimiter"));
    const MQuery *q = query_at(m, 6);
    assert_non_null(q);
    assert_int_equal(q->conds.n, 2);
    assert_string_equal(q->conds.v[0].attr, "GSI1PK");
    assert_string_equal(q->conds.v[0].text, "MEMBERS#{orgId}");
    assert_string_equal(q->conds.v[1].text, "M");
    assert_int_equal(q->conds.v[1].op, COND_BEGINS_WITH);
    assert_true(q->unmatched);
    assert_int_equal(q->entities.n, 0);
    model_free(m);
    arena_free(a);
}

/* A project's update function taking the UpdateCommand's parts as
 * arguments (`updateItem(table, key, expression, values, names)`): each
 * call is the update it makes, so an index key it sets (a status moved on,
 * a date edited clause by clause) is a shape of the updated item, written
 * where the call is. */
static const char DB_WRAPPERS[] =
    "import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';\n"
    "const doc = DynamoDBDocumentClient.from(null as any);\n"
    "export async function putItem(tableName: string, item: Record<string, unknown>) {\n"
    "  await doc.send(new PutCommand({ TableName: tableName, Item: item }));\n"
    "}\n"
    "export async function updateItem(tableName: string, key: Record<string, unknown>,\n"
    "    updateExpression: string, values: Record<string, unknown>,\n"
    "    names?: Record<string, string>) {\n"
    "  await doc.send(new UpdateCommand({ TableName: tableName, Key: key,\n"
    "    UpdateExpression: updateExpression, ExpressionAttributeValues: values,\n"
    "    ...(names ? { ExpressionAttributeNames: names } : {}) }));\n"
    "}\n";

static void positional_update_calls(void **state)
{
    (void)state;
    DesignModel *m = model_of(
        "infra.ts", INFRA, "lib/db.ts", DB_WRAPPERS, "events.ts",
        "import { putItem, updateItem } from './lib/db';\n"
        "const TABLE = () => process.env.TABLE_NAME!;\n"
        "export async function create(id: string, date: string) {\n"
        "  await putItem(TABLE(), { PK: `EVENT#${id}`, SK: 'PROFILE',\n"
        "    GSI1PK: 'EVENT_STATUS#DRAFT', GSI1SK: `${date}#${id}` });\n"
        "}\n"
        "export async function publish(id: string) {\n"
        "  await updateItem(TABLE(), { PK: `EVENT#${id}`, SK: 'PROFILE' },\n"
        "    'SET #status = :s, GSI1PK = :gsi1pk',\n"
        "    { ':s': 'PUBLISHED', ':gsi1pk': 'EVENT_STATUS#PUBLISHED' }, { '#status': 'status' });\n"
        "}\n"
        "export async function edit(id: string, fields: Record<string, string>) {\n"
        "  const clauses: string[] = [];\n"
        "  const values: Record<string, unknown> = {};\n"
        "  for (const f of ['title', 'venue']) {\n"
        "    if (fields[f] === undefined) continue;\n"
        "    clauses.push(`${f} = :${f}`);\n"
        "    values[`:${f}`] = fields[f];\n"
        "  }\n"
        "  if (fields.date) {\n"
        "    clauses.push('GSI1SK = :gsi1sk');\n"
        "    values[':gsi1sk'] = `${fields.date}#${id}`;\n"
        "  }\n"
        "  await updateItem(TABLE(), { PK: `EVENT#${id}`, SK: 'PROFILE' },\n"
        "    `SET ${clauses.join(', ')}`, values);\n"
        "}\n",
        NULL);
    Arena *a = arena_new();
    const MEntity *e = entity(m, "EVENT");
    assert_non_null(e);
    assert_string_equal(names(a, m), "EVENT");
    assert_string_equal(shapes(a, e, "GSI1PK"), "EVENT_STATUS#DRAFT | EVENT_STATUS#PUBLISHED");
    assert_string_equal(shapes(a, e, "GSI1SK"), "{date}#{id}");
    /* the put and both updates write it, at their calls */
    assert_int_equal(e->writes.n, 3);
    assert_int_equal(e->writes.v[1].line, 8);
    assert_int_equal(e->writes.v[2].line, 24);
    model_free(m);
    arena_free(a);
}

/* A test's mocks (`test/mocks/entities.ts` building items of kinds the
 * code never writes) are not the design: neither their keys nor their
 * queries are drawn; a file named like a test folder (`src/tests.ts`) is
 * read. */
static void test_files_not_drawn(void **state)
{
    (void)state;
    static const char PUT[] =
        "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const put = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `%s#${id}`, SK: '#METADATA' } }));\n"
        "export const list = (d: any, id: string) =>\n"
        "  d.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :pk',\n"
        "    ExpressionAttributeValues: { ':pk': `%s#${id}` } }));\n";
    char artist[600], user[600], mock[600], song[600];
    snprintf(artist, sizeof artist, PUT, "ARTIST", "ARTIST");
    snprintf(user, sizeof user, PUT, "USER", "USER");
    snprintf(mock, sizeof mock, PUT, "MOCK", "MOCK");
    snprintf(song, sizeof song, PUT, "SONG", "SONG");
    DesignModel *m = model_of("infra.ts", INFRA, "packages/core/src/artist.ts", artist,
                              "packages/core/test/mocks/entities.ts", user,
                              "packages/core/src/__mocks__/db.ts", mock,
                              "packages/core/src/tests.ts", song, NULL);
    Arena *a = arena_new();
    assert_string_equal(names(a, m), "ARTIST, SONG");
    assert_int_equal(m->queries.n, 2);
    model_free(m);
    arena_free(a);
}

/* A file of a project tree written by model_of_tree. */
typedef struct TreeFile {
    const char *path, *text;
} TreeFile;

/* The model of a project written to a temporary directory: `dirs` (parents
 * first) and `files` under it, analysed as a whole run would; the tree is
 * removed before the model is returned. */
static DesignModel *model_of_tree(const char *const *dirs, size_t ndirs, const TreeFile *files,
                                  size_t nfiles)
{
    char dir[] = "/tmp/keylint-model-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[512];
    for (size_t i = 0; i < ndirs; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0700), 0);
    }
    for (size_t i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].path);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(files[i].text, f);
        fclose(f);
    }
    Project *p = project_new(NULL);
    const char *paths[] = {dir};
    project_add_paths(p, paths, 1);
    project_analyze(p);
    DesignModel *m = model_build(p);
    project_free(p);
    for (size_t i = nfiles; i > 0; i--) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i - 1].path);
        unlink(path);
    }
    for (size_t i = ndirs; i > 0; i--) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i - 1]);
        rmdir(path);
    }
    rmdir(dir);
    return m;
}

/* A table a Terraform module defines with the module's input for its name
 * (`name = var.table_name`) is labelled with the name the module's caller
 * gives it, as written (`app-${var.environment}`), not only with the
 * resource's label. */
static void terraform_module_table_name(void **state)
{
    (void)state;
    static const char *const dirs[] = {"infra", "infra/modules", "infra/modules/db", "src"};
    static const TreeFile files[] = {
        {"infra/main.tf", "module \"db\" {\n  source     = \"./modules/db\"\n"
                          "  table_name = \"app-${var.environment}\"\n}\n"},
        {"infra/modules/db/variables.tf", "variable \"table_name\" {\n  type = string\n}\n"},
        {"infra/modules/db/main.tf",
         "resource \"aws_dynamodb_table\" \"this\" {\n  name     = var.table_name\n"
         "  hash_key = \"PK\"\n  range_key = \"SK\"\n"
         "  attribute {\n    name = \"PK\"\n    type = \"S\"\n  }\n"
         "  attribute {\n    name = \"SK\"\n    type = \"S\"\n  }\n}\n"},
        {"src/a.ts", "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
                     "export const put = (d: any, id: string) =>\n"
                     "  d.send(new PutCommand({ TableName: process.env.TABLE_NAME,\n"
                     "    Item: { PK: `ORDER#${id}`, SK: 'META' } }));\n"},
    };
    DesignModel *m = model_of_tree(dirs, sizeof dirs / sizeof *dirs, files,
                                   sizeof files / sizeof *files);
    assert_int_equal(m->tables.n, 1);
    assert_string_equal(m->tables.v[0].label, "this (app-${var.environment})");
    assert_non_null(entity(m, "ORDER"));
    assert_int_equal(entity(m, "ORDER")->table, 0);
    model_free(m);
}

/* A caller that passes its own variable (`objects_table_name =
 * var.objects_table_name`) gives the module that variable's default; a
 * variable without a default leaves the name unknown. */
static void terraform_module_name_from_root_default(void **state)
{
    (void)state;
    static const char *const dirs[] = {"infra", "infra/modules", "infra/modules/ddb", "src"};
    static const TreeFile files[] = {
        {"infra/variables.tf", "variable \"objects_table_name\" {\n  type    = string\n"
                               "  default = \"app_objects\"\n}\n"},
        {"infra/main.tf", "module \"ddb\" {\n  source             = \"./modules/ddb\"\n"
                          "  objects_table_name = var.objects_table_name\n}\n"},
        {"infra/modules/ddb/main.tf",
         "variable \"objects_table_name\" { type = string }\n"
         "resource \"aws_dynamodb_table\" \"objects\" {\n  name     = var.objects_table_name\n"
         "  hash_key = \"pk\"\n"
         "  attribute {\n    name = \"pk\"\n    type = \"S\"\n  }\n}\n"},
        {"src/a.ts", "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
                     "export const put = (d: any, id: string) =>\n"
                     "  d.send(new PutCommand({ TableName: 'app_objects',\n"
                     "    Item: { pk: `ORDER#${id}` } }));\n"},
    };
    DesignModel *m = model_of_tree(dirs, sizeof dirs / sizeof *dirs, files,
                                   sizeof files / sizeof *files);
    assert_int_equal(m->tables.n, 1);
    assert_string_equal(m->tables.v[0].label, "objects (app_objects)");
    assert_non_null(entity(m, "ORDER"));
    assert_int_equal(entity(m, "ORDER")->table, 0);
    model_free(m);
}

/* Without a table definition the entities and queries are on a table that
 * is not known; the Workbench model then has one of the keys they write. */
static void no_table_definition(void **state)
{
    (void)state;
    DesignModel *m = model_of(
        "repo.ts",
        "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
        "export const put = (d: any, id: string) =>\n"
        "  d.send(new PutCommand({ TableName: 'x', Item: { pk: `ORDER#${id}`, sk: 'META' } }));\n",
        NULL);
    assert_int_equal(m->tables.n, 1);
    assert_false(m->tables.v[0].known);
    assert_string_equal(m->tables.v[0].label, "(table not known)");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ModelWriteOptions o = {.title = "t"};
    assert_true(model_write_workbench(f, m, &o));
    fclose(f);
    assert_non_null(strstr(buf, "\"TableName\": \"table\""));
    assert_non_null(strstr(buf, "\"S\": \"ORDER#i-1\""));
    free(buf);
    model_free(m);
}

/* A file under an override of its configuration (a derived configuration)
 * sees the configuration's tables: its entities are on the one its
 * operations name. */
static void overrides_share_the_tables(void **state)
{
    (void)state;
    static const char *const dirs[] = {"src"};
    static const TreeFile files[] = {
        {".keylint.yml", "schemas: [template.yaml]\n"
                         "overrides:\n  - files: [\"src/**\"]\n    rules: { scan: off }\n"},
        {"template.yaml", "Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n"
                          "    Properties:\n      TableName: orders\n"
                          "      AttributeDefinitions:\n"
                          "        - { AttributeName: pk, AttributeType: S }\n"
                          "      KeySchema:\n        - { AttributeName: pk, KeyType: HASH }\n"
                          "  Audit:\n    Type: AWS::DynamoDB::Table\n"
                          "    Properties:\n      TableName: audit\n"
                          "      AttributeDefinitions:\n"
                          "        - { AttributeName: pk, AttributeType: S }\n"
                          "      KeySchema:\n        - { AttributeName: pk, KeyType: HASH }\n"},
        {"src/a.ts", "import { PutCommand } from '@aws-sdk/lib-dynamodb';\n"
                     "export const put = (d: any, id: string) =>\n"
                     "  d.send(new PutCommand({ TableName: 'orders', Item: { pk: `ORDER#${id}` } }));\n"},
    };
    DesignModel *m = model_of_tree(dirs, 1, files, sizeof files / sizeof *files);
    assert_int_equal(m->tables.n, 2);
    assert_string_equal(m->tables.v[0].label, "Orders (orders)");
    assert_non_null(entity(m, "ORDER"));
    assert_int_equal(entity(m, "ORDER")->table, 0);
    model_free(m);
}

/* ---- design changes ---------------------------------------------------------------- */

static const char BEFORE[] =
    "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "export const put = (d: any, t: string, id: string, s: string) =>\n"
    "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `TENANT#${t}`, SK: `ORDER#${id}`,\n"
    "    GSI1PK: `STATUS#${s}`, GSI1SK: `ORDER#${id}` } }));\n"
    "export const gone = (d: any, id: string) =>\n"
    "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `CART#${id}`, SK: 'META' } }));\n";

static const char AFTER[] =
    "import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "export const put = (d: any, t: string, id: string, s: string) =>\n"
    "  d.send(new PutCommand({ TableName: 'app', Item: { PK: `TENANT#${t}`, SK: `ORDER#${id}#${s}` } }));\n"
    "export const invoices = (d: any, t: string) =>\n"
    "  d.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :p AND begins_with(SK, :s)',\n"
    "    ExpressionAttributeValues: { ':p': `TENANT#${t}`, ':s': 'INVOICE#' } }));\n";

static void diff_lists_changes(void **state)
{
    (void)state;
    DesignModel *base = model_of("infra.ts", INFRA, "repo.ts", BEFORE, NULL);
    DesignModel *head = model_of("infra.ts", INFRA, "repo.ts", AFTER, NULL);
    ModelDiff *d = model_diff(base, head);
    int kinds[MCHANGE_QUERY_REMOVED + 1] = {0};
    for (size_t i = 0; i < d->changes.n; i++)
        kinds[d->changes.v[i].kind]++;
    assert_int_equal(kinds[MCHANGE_SHAPE_CHANGED], 1);
    assert_int_equal(kinds[MCHANGE_SHAPE_REMOVED], 2); /* GSI1PK, GSI1SK */
    assert_int_equal(kinds[MCHANGE_ENTITY_REMOVED], 1);
    assert_int_equal(kinds[MCHANGE_QUERY_ADDED], 1);
    assert_int_equal(d->changes.n, 5);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_true(model_diff_write(f, d, "main", MODEL_TEXT));
    fclose(f);
    assert_non_null(strstr(buf, "~ ORDER: SK changed: ORDER#{id} -> ORDER#{id}#{s}"));
    assert_non_null(strstr(buf, "- ORDER: GSI1PK no longer written: STATUS#{s}"));
    assert_non_null(strstr(buf, "- CART: entity removed: PK = CART#{id}, SK = META"));
    assert_non_null(strstr(buf, "+ query added, no write matches it: app: PK = TENANT#{t}, "
                                "SK begins_with INVOICE# -> (no entity)"));
    free(buf);
    model_diff_free(d);
    /* no change: said so */
    d = model_diff(head, head);
    assert_int_equal(d->changes.n, 0);
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_true(model_diff_write(f, d, "main", MODEL_MARKDOWN));
    fclose(f);
    assert_non_null(strstr(buf, "No key shape, index or query changed."));
    free(buf);
    model_diff_free(d);
    model_free(base);
    model_free(head);
}

/* ---- small readings ---------------------------------------------------------------- */

static void example_values_and_formats(void **state)
{
    (void)state;
    Arena *a = arena_new();
    assert_string_equal(model_example_value(a, "ORDER#{orderId}", 1), "ORDER#o-1");
    assert_string_equal(model_example_value(a, "TENANT#{tenantId}#USER#{userId}", 2),
                        "TENANT#t-2#USER#u-2");
    assert_string_equal(model_example_value(a, "DAY#{createdAt}", 1), "DAY#2024-01-02");
    assert_string_equal(model_example_value(a, "PROFILE", 1), "PROFILE");
    assert_string_equal(model_example_value(a, "{?}", 3), "x-3");
    ModelFormat f;
    assert_true(model_format_parse("workbench", &f));
    assert_int_equal(f, MODEL_WORKBENCH);
    assert_false(model_format_parse("json", &f));
    assert_true(model_format_for_path("out/model.HTML", &f));
    assert_int_equal(f, MODEL_HTML);
    assert_true(model_format_for_path("model.mmd", &f));
    assert_int_equal(f, MODEL_MERMAID);
    assert_false(model_format_for_path("dir.json/model", &f));
    assert_false(model_format_for_path("model", &f));
    arena_free(a);
}

/* ---- the example service in every format ------------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, n, m);
    fclose(f);
    fclose(m);
    return buf;
}

/* The first line where `want` and `got` differ, on stderr. */
static void show_diff(const char *name, const char *want, const char *got)
{
    size_t line = 1;
    const char *w = want, *g = got;
    while (*w && *w == *g) {
        line += *w == '\n';
        w++;
        g++;
    }
    const char *we = strchr(w, '\n'), *ge = strchr(g, '\n');
    fprintf(stderr, "%s: line %zu differs\n  want: %.*s\n  got:  %.*s\n", name, line,
            (int)(we ? we - w : (long)strlen(w)), w, (int)(ge ? ge - g : (long)strlen(g)), g);
}

static void example_service_outputs(void **state)
{
    (void)state;
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    assert_non_null(root);
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(root), 0);
    Project *p = project_new(NULL);
    const char *paths[] = {"fixtures/example-service"};
    project_add_paths(p, paths, 1);
    project_analyze(p);
    DesignModel *m = model_build(p);
    project_free(p);
    static const struct {
        ModelFormat f;
        const char *ext;
    } outs[] = {{MODEL_TEXT, "txt"}, {MODEL_MARKDOWN, "md"}, {MODEL_MERMAID, "mmd"},
                {MODEL_WORKBENCH, "json"}, {MODEL_HTML, "html"}};
    ModelWriteOptions o = {.title = "example-service", .now = 0};
    bool same = true;
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
        char *got = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&got, &len);
        assert_true(model_write(f, m, outs[i].f, &o));
        fclose(f);
        char path[256];
        snprintf(path, sizeof path, "tests/model/example-service.%s", outs[i].ext);
        if (getenv("KEYLINT_UPDATE_GOLDEN")) {
            FILE *w = fopen(path, "w");
            assert_non_null(w);
            fputs(got, w);
            fclose(w);
        }
        char *want = slurp(path);
        if (!want) {
            fprintf(stderr, "%s is missing (KEYLINT_UPDATE_GOLDEN=1 writes it)\n", path);
            same = false;
        } else if (strcmp(want, got)) {
            show_diff(path, want, got);
            same = false;
        }
        free(want);
        free(got);
    }
    model_free(m);
    assert_int_equal(chdir(cwd), 0);
    assert_true(same);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_after_the_tenant),
        cmocka_unit_test(names_by_partition),
        cmocka_unit_test(values_built_elsewhere_answer_queries),
        cmocka_unit_test(fragments_are_not_entities),
        cmocka_unit_test(alternatives_stay_in_the_item),
        cmocka_unit_test(conditional_spreads_stay_in_the_item),
        cmocka_unit_test(spread_locals_are_one_item),
        cmocka_unit_test(constant_partitions_apart),
        cmocka_unit_test(fallbacks_are_shapes),
        cmocka_unit_test(index_keys_an_update_sets),
        cmocka_unit_test(conditional_keys_and_lookups),
        cmocka_unit_test(seed_literals_are_instances),
        cmocka_unit_test(same_sort_name_in_two_partitions),
        cmocka_unit_test(hierarchical_sort_keys_apart),
        cmocka_unit_test(values_match_written_constants),
        cmocka_unit_test(values_named_by_their_locals),
        cmocka_unit_test(wrapper_queries_are_their_callers),
        cmocka_unit_test(seed_literals_take_the_value_shape),
        cmocka_unit_test(schemas_are_not_entities),
        cmocka_unit_test(findings_mark_shapes_and_queries),
        cmocka_unit_test(positional_update_calls),
        cmocka_unit_test(terraform_module_table_name),
        cmocka_unit_test(terraform_module_name_from_root_default),
        cmocka_unit_test(test_files_not_drawn),
        cmocka_unit_test(no_table_definition),
        cmocka_unit_test(overrides_share_the_tables),
        cmocka_unit_test(diff_lists_changes),
        cmocka_unit_test(example_values_and_formats),
        cmocka_unit_test(example_service_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
