/* Extraction and resolution, checked through what `--dump-ir` prints.
 *
 * Each directory tests/extract/<case>/ is a small project; its
 * `expected.ir` holds the dump of every source file in it (in path order)
 * after project-wide resolution. A case is one directory; a new idiom is a
 * new case. Run with KEYLINT_UPDATE_GOLDEN=1 to rewrite the expected files
 * after an intended change (and read the diff). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case_dirs.h"
#include "ddbexpr.h"
#include "dumpir.h"
#include "extract.h"
#include "modules.h"
#include "precheck.h"
#include "project.h"
#include "tables.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = '\0';
    fclose(f);
    return b;
}

/* Print the first differing line of two texts. */
static void show_diff(const char *want, const char *got)
{
    int line = 1;
    const char *w = want, *g = got;
    while (*w && *g) {
        const char *we = strchr(w, '\n'), *ge = strchr(g, '\n');
        size_t wl = we ? (size_t)(we - w) : strlen(w), gl = ge ? (size_t)(ge - g) : strlen(g);
        if (wl != gl || memcmp(w, g, wl)) {
            print_error("line %d:\n  expected: %.*s\n  got:      %.*s\n", line, (int)wl, w,
                        (int)gl, g);
            return;
        }
        w += wl + (we ? 1 : 0);
        g += gl + (ge ? 1 : 0);
        line++;
    }
    print_error("line %d: expected %s, got %s\n", line, *w ? "more" : "end",
                *g ? "more" : "end");
}

static void golden_case(void **state)
{
    const char *name = *state;
    char dir[1024], expected_path[1200];
    snprintf(dir, sizeof dir, "tests/extract/%s", name);
    snprintf(expected_path, sizeof expected_path, "%s/expected.ir", dir);

    Project *p = project_new(NULL);
    const char *paths[] = {dir};
    project_add_paths(p, paths, 1);
    project_analyze(p);
    /* notes (regions left unread) are part of what is compared; any
     * other problem fails the case */
    char *got = NULL;
    size_t gotlen = 0;
    FILE *m = open_memstream(&got, &gotlen);
    Problems all;
    problems_init(&all);
    project_problems(p, &all);
    size_t nproblems = 0;
    for (size_t i = 0; i < all.items.n; i++) {
        const Problem *pr = &all.items.v[i];
        if (pr->kind == PROBLEM_NOTE) {
            fprintf(m, "note %s:%u:%u %s\n", pr->path, pr->line, pr->col, pr->message);
            continue;
        }
        print_error("problem: %s:%u: %s\n", pr->path, pr->line, pr->message);
        nproblems++;
    }
    problems_free(&all);
    assert_int_equal(nproblems, 0);
    for (size_t i = 0; i < p->files.n; i++)
        if (p->files.v[i].ir)
            dump_ir(m, p->files.v[i].ir);
    fclose(m);
    project_free(p);

    if (getenv("KEYLINT_UPDATE_GOLDEN")) {
        FILE *o = fopen(expected_path, "w");
        assert_non_null(o);
        fputs(got, o);
        fclose(o);
    }
    char *want = slurp(expected_path);
    if (!want)
        fail_msg("%s is missing (KEYLINT_UPDATE_GOLDEN=1 writes it)", expected_path);
    if (strcmp(want, got))
        show_diff(want, got);
    assert_string_equal(want, got);
    free(want);
    free(got);
}

/* ---- DynamoDB expression parsing ----------------------------------------- */

static void key_conditions(void **state)
{
    (void)state;
    Arena *a = arena_new();
    KeyConds kc = {0};
    assert_true(ddb_parse_key_condition(
        a, "#pk = :pk AND begins_with ( #sk , :p )", &kc));
    assert_int_equal(kc.items.n, 2);
    assert_string_equal(kc.items.v[0].attr, "#pk");
    assert_int_equal(kc.items.v[0].op, COND_EQ);
    assert_string_equal(kc.items.v[0].values[0], ":pk");
    assert_int_equal(kc.items.v[1].op, COND_BEGINS_WITH);
    assert_string_equal(kc.items.v[1].values[0], ":p");

    KeyConds b = {0};
    assert_true(ddb_parse_key_condition(a, "(pk = :a) and sk BETWEEN :lo AND :hi", &b));
    assert_int_equal(b.items.n, 2);
    assert_int_equal(b.items.v[1].op, COND_BETWEEN);
    assert_string_equal(b.items.v[1].values[1], ":hi");

    KeyConds c = {0};
    assert_true(ddb_parse_key_condition(a, ":v = pk AND sk >= :from", &c));
    assert_string_equal(c.items.v[0].attr, "pk");
    assert_int_equal(c.items.v[1].op, COND_GE);
    KeyConds d = {0};
    assert_true(ddb_parse_key_condition(a, "pk = :pk AND sk < :x", &d));
    assert_int_equal(d.items.v[1].op, COND_LT);

    KeyConds bad = {0};
    assert_false(ddb_parse_key_condition(a, "pk = ", &bad));
    assert_false(ddb_parse_key_condition(a, "pk <> :x", &bad));
    assert_false(ddb_parse_key_condition(a, "begins_with(sk :x)", &bad));
    assert_false(ddb_parse_key_condition(a, "(pk = :a", &bad));
    arena_free(a);
}

static void update_targets(void **state)
{
    (void)state;
    Arena *a = arena_new();
    StrList t = {0};
    assert_true(ddb_parse_update_targets(
        a, "SET #s = :s, createdAt = if_not_exists(createdAt, :now), a.b[2] = :x, "
           "n = if_not_exists(m, :z) REMOVE flag, #old ADD counter :one DELETE tags :t",
        &t));
    /* createdAt = if_not_exists(createdAt, ...) is set once, not changed */
    const char *want[] = {"#s", "a", "n", "flag", "#old", "counter", "tags"};
    assert_int_equal(t.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < t.n; i++)
        assert_string_equal(t.v[i], want[i]);
    StrList bad = {0};
    assert_false(ddb_parse_update_targets(a, "SET = :x", &bad));
    assert_false(ddb_parse_update_targets(a, "FROB x", &bad));
    arena_free(a);
}

/* ---- what extraction keeps --------------------------------------------- */

static const char *const KEPT_SOURCE =
    "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "import { save } from './repo';\n"
    "import * as keys from './keys';\n"
    "import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';\n"
    "// keylint-disable-next-line magic-string\n"
    "export const ORDER = 'ORDER#';\n"
    "const Prefix = { USER: 'USER#' } as const;\n"
    "export let Legacy = 'LEGACY#';\n"
    "export function orderPk(tenant: string, id: string) { return `${ORDER}${tenant}#${id}`; }\n"
    "function put(prefix: string, id: string) {\n"
    "  return client.send(new PutCommand({ TableName: process.env.TABLE ?? 'app',\n"
    "    Item: { pk: `${prefix}${id}`, sk: 'META' } }));\n"
    "}\n"
    "export async function list(tenant: string) {\n"
    "  console.log('ORDER#', tenant);\n"
    "  Legacy = tenant;\n"
    "  save('USER#', tenant);\n"
    "  keys.write('ITEM#', tenant);\n"
    "  put('ORDER#', tenant);\n"
    "  return client.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1',\n"
    "    KeyConditionExpression: '#pk = :pk',\n"
    "    ExpressionAttributeNames: { '#pk': 'GSI1PK' },\n"
    "    ExpressionAttributeValues: { ':pk': `${Prefix.USER}${tenant}` } }));\n"
    "}\n"
    "new Table(this, 'Orders', { partitionKey: { name: 'pk', type: AttributeType.STRING } });\n"
    "new TableV2(this, 'Matches', { partitionKey: { name: 'id', type: AttributeType.STRING },\n"
    "  globalSecondaryIndexes: [{ indexName: 'ByTeams', partitionKeys: [{ name: 'home', type: "
    "AttributeType.STRING }, { name: 'away', type: AttributeType.STRING }], sortKeys: [{ name: "
    "'round', type: AttributeType.NUMBER }, { name: 'leg', type: AttributeType.NUMBER }] }] });\n";

/* Everything of an IR that points at memory, as text. */
static void describe_segs(StrBuf *b, const SegList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        sb_printf(b, "[%d %x %s %s", s->kind, s->flags, s->text ? s->text : "-",
                  s->name ? s->name : "-");
        for (size_t j = 0; j < s->nargs; j++) {
            sb_append(b, " (");
            describe_segs(b, &s->args[j]);
            sb_append(b, ")");
        }
        sb_append(b, "]");
    }
}

static void describe_keys(StrBuf *b, const KeyExprList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const KeyExpr *k = &l->v[i];
        sb_printf(b, "key %s via=%s const=%s site=%d call=%d named=%d arg=%s#%u when=%s ",
                  k->attr ? k->attr : "-", k->via ? k->via : "-",
                  k->attr_const ? k->attr_const : "-", k->site, k->call_site, (int)k->named_by,
                  k->arg_of ? k->arg_of : "-", k->arg_index, k->when ? k->when : "-");
        describe_segs(b, &k->segs);
        sb_append(b, "\n");
    }
}

static const char *describe(Arena *a, const FileIR *ir)
{
    StrBuf b;
    sb_init(&b, a);
    sb_printf(&b, "%s\n", ir->path);
    describe_keys(&b, &ir->extracted);
    for (size_t i = 0; i < ir->ops.n; i++) {
        const DataOp *op = &ir->ops.v[i];
        sb_printf(&b, "op %s %s table=%s index=%s kce=%s in=%s sets=%zu\n", op_kind_name(op->kind),
                  op->callee, op->table ? op->table : "-", op->index ? op->index : "-",
                  op->key_condition ? op->key_condition : "-", op->function ? op->function : "-",
                  op->sets.n);
        for (size_t j = 0; j < op->sets.n; j++) {
            sb_printf(&b, "  set %s ", op->sets.v[j]);
            if (j < op->set_values.n)
                describe_segs(&b, &(SegList){.v = &op->set_values.v[j], .n = 1});
            sb_append(&b, "\n");
        }
    }
    for (size_t i = 0; i < ir->imports.n; i++)
        sb_printf(&b, "import %s %s %s\n", ir->imports.v[i].local, ir->imports.v[i].imported,
                  ir->imports.v[i].source);
    for (size_t i = 0; i < ir->consts.n; i++) {
        sb_printf(&b, "const %s%s ", ir->consts.v[i].name, ir->consts.v[i].fixed ? "" : "?");
        describe_segs(&b, &ir->consts.v[i].value);
        sb_append(&b, "\n");
    }
    for (size_t i = 0; i < ir->mutated.n; i++)
        sb_printf(&b, "assigns %s\n", ir->mutated.v[i]);
    for (size_t i = 0; i < ir->helpers.n; i++) {
        const HelperDef *h = &ir->helpers.v[i];
        sb_printf(&b, "helper %s(", h->name);
        for (size_t j = 0; j < h->nparams; j++)
            sb_printf(&b, "%s ", h->params[j]);
        sb_append(&b, ") ");
        describe_segs(&b, &h->returns);
        sb_append(&b, "\n");
        describe_keys(&b, &h->sinks);
        for (size_t j = 0; j < h->param_uses.n; j++)
            sb_printf(&b, "passes %u site=%d to %s#%u\n", h->param_uses.v[j].param,
                      h->param_uses.v[j].site,
                      h->param_uses.v[j].callee ? h->param_uses.v[j].callee : "-",
                      h->param_uses.v[j].arg);
    }
    for (size_t i = 0; i < ir->comments.n; i++)
        sb_printf(&b, "comment %s\n", ir->comments.v[i].text);
    const FileTables *ft = ir->tables;
    for (size_t i = 0; i < ft->set.tables.n; i++) {
        const TableDef *t = &ft->set.tables.v[i];
        sb_printf(&b, "table %s pk=%s\n", t->id, t->pk.name);
        for (size_t j = 0; j < t->indexes.n; j++) {
            const TableIndex *ix = &t->indexes.v[j];
            sb_printf(&b, "index %s", ix->name);
            for (int sort = 0; sort < 2; sort++)
                for (size_t k = 0; index_key_attr(ix, sort, k); k++)
                    sb_printf(&b, " %s%s", sort ? "sk=" : "pk=", index_key_attr(ix, sort, k)->name);
            sb_append(&b, "\n");
        }
    }
    for (size_t i = 0; i < ir->ops.n; i++) {
        const OpParams *e = op_params(&ir->ops.v[i]);
        if (!e)
            continue;
        sb_printf(&b, "params %u table=%s/%s index=%s", ir->ops.v[i].span.start_byte,
                  e->table.env ? e->table.env : "-", e->table.literal ? e->table.literal : "-",
                  e->index.literal ? e->index.literal : "-");
        for (size_t j = 0; j < e->names.n; j++)
            sb_printf(&b, " %s", e->names.v[j]);
        sb_append(&b, "\n");
    }
    return sb_str(&b);
}

/* KEPT_SOURCE extracted; the configuration and the problem list are freed
 * at once (the IR is a copy that points into neither). */
static FileIR *extract_kept(void)
{
    Config *cfg = config_default();
    Problems probs;
    problems_init(&probs);
    FileIR *ir = extract_file("src/orders.ts", KEPT_SOURCE, strlen(KEPT_SOURCE), cfg, &probs);
    assert_int_equal(probs.items.n, 0);
    problems_free(&probs);
    config_free(cfg);
    return ir;
}

static void extraction_keeps_a_complete_copy(void **state)
{
    (void)state;
    FileIR *ir = extract_kept();
    Arena *a = arena_new();
    const char *before = describe(a, ir);

    /* The IR extraction returns is itself a copy: copied again, and the
     * original freed, it reads the same (ASan: nothing points back). */
    Copier c = copier_begin(arena_new());
    FileIR *copy = fileir_copy(&c, ir);
    copy->tables = tables_copy(&c, ir->tables);
    copier_end(&c);
    fileir_free(ir);
    assert_string_equal(describe(a, copy), before);

    /* lookups by name go through the copied maps */
    assert_non_null(fileir_const(copy, "ORDER", true));
    assert_non_null(fileir_const(copy, "Prefix.USER", false));
    assert_non_null(fileir_helper(copy, "orderPk", true));
    assert_non_null(fileir_import(copy, "save"));
    /* equal texts share one copy */
    const KeyExpr *first = &copy->extracted.v[0], *last = &copy->extracted.v[copy->extracted.n - 1];
    assert_string_equal(first->segs.v[1].text, "tenant");
    assert_ptr_equal(first->segs.v[1].text, last->segs.v[1].text);
    /* and the description did read every part */
    const char *parts[] = {"\nop query", "\nimport keys * ./keys", "\nconst Prefix.USER",
                           "\nhelper put(prefix id )", "\ncomment ", "\ntable Orders pk=pk",
                           "\nindex ByTeams pk=home pk=away sk=round sk=leg",
                           "GSI1PK", "\nparams "};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        if (!strstr(before, parts[i]))
            fail_msg("no \"%s\" in:\n%s", parts[i], before);
    fileir_free(copy);
    arena_free(a);
}

/* A call passing text is kept for resolution only when resolution can
 * find the function it calls: a helper of the file, or an import. */
static void call_sites_kept_only_when_reachable(void **state)
{
    (void)state;
    FileIR *ir = extract_kept();
    const char *want[] = {"save", "keys.write", "put"};
    size_t n = 0;
    for (size_t i = 0; i < ir->extracted.n; i++) {
        const KeyExpr *k = &ir->extracted.v[i];
        if (!k->call_site)
            continue;
        assert_true(n < sizeof want / sizeof *want);
        assert_string_equal(k->segs.v[0].text, want[n]);
        n++;
    }
    assert_int_equal(n, sizeof want / sizeof *want); /* console.log is not kept */
    assert_true(fileir_may_reach_helper(ir, "put"));
    assert_true(fileir_may_reach_helper(ir, "keys.write"));
    assert_false(fileir_may_reach_helper(ir, "console.log"));
    assert_false(fileir_may_reach_helper(ir, "ORDER")); /* a constant, not a helper */
    fileir_free(ir);
}

static void key_role_names(void **state)
{
    (void)state;
    assert_int_equal(key_role_for_name(NULL, "pk"), ROLE_PK);
    assert_int_equal(key_role_for_name(NULL, "PK"), ROLE_PK);
    assert_int_equal(key_role_for_name(NULL, "SK"), ROLE_SK);
    assert_int_equal(key_role_for_name(NULL, "partition_key"), ROLE_PK);
    assert_int_equal(key_role_for_name(NULL, "sort_key"), ROLE_SK);
    assert_int_equal(key_role_for_name(NULL, "sortKey"), -1); /* a CDK/toolbox option */
    assert_int_equal(key_role_for_const_name(NULL, "SK_NAME"), ROLE_SK);
    assert_int_equal(key_role_for_const_name(NULL, "Keys.gsi1pkAttr"), ROLE_INDEX_PK);
    assert_int_equal(key_role_for_const_name(NULL, "TABLE_NAME"), -1);
    assert_int_equal(key_role_for_name(NULL, "GSI1PK"), ROLE_INDEX_PK);
    assert_int_equal(key_role_for_name(NULL, "gsi2sk"), ROLE_INDEX_SK);
    assert_int_equal(key_role_for_name(NULL, "gsi1_pk"), ROLE_INDEX_PK);
    assert_int_equal(key_role_for_name(NULL, "lsi1sk"), ROLE_INDEX_SK);
    assert_int_equal(key_role_for_name(NULL, "pk2"), ROLE_INDEX_PK);
    assert_int_equal(key_role_for_name(NULL, "pkg"), -1);
    assert_int_equal(key_role_for_name(NULL, "task"), -1);
    assert_int_equal(key_role_for_name(NULL, "skip"), -1);
    assert_int_equal(key_role_for_name(NULL, ""), -1);
    Config *c = config_default();
    strlist_push(c->arena, &c->key_pk, "partition_key");
    assert_int_equal(key_role_for_name(c, "partition_key"), ROLE_PK);
    config_free(c);
}


/* ---- the text pre-check (precheck.h) -------------------------------------
 * Every source file of the fixtures, the extraction goldens and the
 * pre-check's own project that extract_may_find clears holds nothing
 * extraction reads: no key but calls passing text (defer.h follows
 * those), no data operation, helper or table. */
static struct PrecheckWalk {
    Config *cfg;
    size_t cleared, passed;
} pw;

/* A .ts, .tsx or .js file of an nftw walk. */
static bool source_file(const char *path, int flag)
{
    const char *dot = strrchr(path, '.');
    return flag == FTW_F && dot &&
           (!strcmp(dot, ".ts") || !strcmp(dot, ".tsx") || !strcmp(dot, ".js"));
}

static int precheck_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (!source_file(path, flag))
        return 0;
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    char buf[4096];
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + got + 1 > cap)
            text = realloc(text, cap = 2 * (len + got + 1));
        memcpy(text + len, buf, got);
        len += got;
    }
    fclose(f);
    if (!text)
        return 0;
    text[len] = '\0';
    if (extract_may_find(text, len, pw.cfg)) {
        pw.passed++;
        free(text);
        return 0;
    }
    pw.cleared++;
    Problems probs;
    problems_init(&probs);
    FileIR *ir = extract_file(path, text, len, pw.cfg, &probs);
    if (ir) {
        for (size_t i = 0; i < ir->extracted.n; i++)
            if (!ir->extracted.v[i].call_site)
                fail_msg("%s: cleared by the pre-check, yet extraction finds a key", path);
        /* a function that only hands its parameters on (param_uses)
         * defines no key: it counts when a parsed file calls it */
        size_t helpers = 0;
        for (size_t i = 0; i < ir->helpers.n; i++)
            if (ir->helpers.v[i].returns.n || ir->helpers.v[i].fields.n ||
                ir->helpers.v[i].sinks.n)
                helpers++;
        if (ir->ops.n || helpers || (ir->tables && ir->tables->set.tables.n))
            fail_msg("%s: cleared by the pre-check, yet extraction finds %zu operations, "
                     "%zu helpers", path, ir->ops.n, helpers);
    }
    fileir_free(ir);
    problems_free(&probs);
    free(text);
    return 0;
}

typedef int (*SourceFn)(const char *path, const struct stat *st, int flag, struct FTW *ftw);

/* `fn` on every file under the repository's `dirs` (KEYLINT_SOURCE_ROOT). */
static void each_file_under(const char *const *dirs, size_t n, SourceFn fn)
{
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    assert_non_null(root);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        assert_int_equal(nftw(path, fn, 16, FTW_PHYS), 0);
    }
}

static void precheck_clears_only_files_without_keys(void **state)
{
    (void)state;
    pw = (struct PrecheckWalk){.cfg = config_default()};
    const char *dirs[] = {"fixtures", "tests/extract", "tests/precheck"};
    each_file_under(dirs, sizeof dirs / sizeof *dirs, precheck_one);
    /* tests/precheck's config.ts, entities.ts, prefixes.ts, caller.ts and
     * widget.ts */
    assert_true(pw.cleared >= 5);
    assert_true(pw.passed > 100);
    config_free(pw.cfg);
}

/* An editor's buffer keeps its IR where extraction built it (compact
 * false): it must read the same as the copy a run keeps, with the text it
 * came from gone (ASan: nothing points into it). */
static size_t uncompacted_files;

static int same_uncompacted(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (!source_file(path, flag))
        return 0;
    char *dumps[2] = {NULL, NULL};
    for (int compact = 0; compact < 2; compact++) {
        char *text = slurp(path);
        assert_non_null(text);
        Problems probs;
        problems_init(&probs);
        FileIR *ir = extract_file_pooled(path, text, strlen(text), pw.cfg, &probs, NULL, NULL,
                                         compact);
        free(text);
        size_t n;
        FILE *out = open_memstream(&dumps[compact], &n);
        Arena *a = arena_new();
        fputs(describe(a, ir), out); /* what extraction found, before resolution */
        arena_free(a);
        dump_ir(out, ir);
        fclose(out);
        fileir_free(ir);
        problems_free(&probs);
    }
    if (strcmp(dumps[0], dumps[1]))
        fail_msg("%s: the uncompacted IR reads:\n%s\nthe kept copy:\n%s", path, dumps[0],
                 dumps[1]);
    uncompacted_files++;
    free(dumps[0]);
    free(dumps[1]);
    return 0;
}

static void uncompacted_ir_reads_the_same(void **state)
{
    (void)state;
    pw = (struct PrecheckWalk){.cfg = config_default()};
    uncompacted_files = 0;
    const char *dirs[] = {"fixtures", "tests/extract"};
    each_file_under(dirs, sizeof dirs / sizeof *dirs, same_uncompacted);
    assert_true(uncompacted_files > 100);
    config_free(pw.cfg);
}

/* modmap_resolve keeps its answers by the importing file's directory and
 * the specifier: the same specifier from two directories is two answers,
 * asked again or not. */
static void module_answers_by_directory(void **state)
{
    (void)state;
    const char *paths[] = {"/p/a/keys.ts", "/p/b/keys.ts", "/p/a/x.ts", "/p/b/y.ts",
                           "/p/a/sub/z.ts"};
    ModuleMap *m = modmap_new(paths, 5);
    for (int round = 0; round < 2; round++) {
        assert_int_equal(modmap_resolve(m, 2, "./keys"), 0);
        assert_int_equal(modmap_resolve(m, 3, "./keys"), 1);
        assert_int_equal(modmap_resolve(m, 0, "./keys"), 0); /* itself */
        assert_int_equal(modmap_resolve(m, 3, "../a/keys.js"), 0);
        assert_int_equal(modmap_resolve(m, 4, "./keys"), -1);
        assert_int_equal(modmap_resolve(m, 4, "../keys"), 0);
        assert_int_equal(modmap_resolve(m, 2, "./nothing"), -1);
    }
    modmap_free(m);
}

static void precheck_words(void **state)
{
    (void)state;
    Config *c = config_default();
    const char *keys[] = {
        "const k = { pk: id };",
        "export const orderKey = (id: string) => `order-${id}`;",
        "function buildKeys(id) { return [A, id]; }",
        "const x = `USER#${id}`;",
        "await client.send(new QueryCommand(params));",
        "export const ITEM_PREFIX = 'ITEM';",
        /* each word at the very start and the very end of a text, case
         * folded where case does not count */
        "pk", "x.SK", "const userPk = 1", "GSI1", "SortKey", "a = HASH_KEY",
        "key(id) {", "Keys = {",
        "getKey = async (id) => id", "mkKey = id => id", "Ddb", "ynamo",
        /* every SDK v3 command extraction reads (extract.c, tables.c) */
        "GetCommand", "GetItemCommand", "PutCommand", "PutItemCommand", "UpdateCommand",
        "UpdateItemCommand", "DeleteCommand", "DeleteItemCommand", "QueryCommand",
        "ScanCommand", "BatchGetCommand", "BatchGetItemCommand", "BatchWriteCommand",
        "BatchWriteItemCommand", "TransactGetCommand", "TransactGetItemsCommand",
        "TransactWriteCommand", "TransactWriteItemsCommand", "CreateTableCommand",
        /* the separator in a literal: a key's, not a colour's */
        "const t = 'USER#abc'", "const s = '#'", "x = `#${id}`", "'#META'", "'ORDER#fff'",
        "'#fff#'", "'#abcd-1'",
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!extract_may_find(keys[i], strlen(keys[i]), c))
            fail_msg("the pre-check clears: %s", keys[i]);
    const char *none[] = {
        "export const Button = () => <div key={id} className=\"x\">{Object.keys(o)}</div>;",
        "const color = css`color: red`; const task = 'Task';",
        /* near misses: "pk"/"sk" inside a word, "key" not a word of a
         * function's name, a member, a comparison, words cut short */
        "pkg", "task", "skip", "monkey(x)", "Object.keys(o)", "key == other", "keyboard(1)",
        "const hotkey = 'a'", "dynam", "Tabl", "p", "",
        /* other services' commands */
        "await s3.send(new PutObjectCommand(params));", "new SendEmailCommand(input)",
        /* CSS colours */
        "const c = '#fff';", "style={{ color: \"#1a2b3c\" }}", "border: '1px solid #ABCDEF80'",
        "fill: 'rgb(0,0,0)', stroke: '#0f0a'",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        if (extract_may_find(none[i], strlen(none[i]), c))
            fail_msg("the pre-check passes: %s", none[i]);
    config_free(c);
}

int main(void)
{
    size_t n;
    char **names = case_dirs("tests/extract", &n);
    if (!names)
        return 1;
    enum { FIXED = 9 };
    struct CMUnitTest *tests = calloc(n + FIXED, sizeof *tests);
    tests[0] = (struct CMUnitTest)cmocka_unit_test(key_conditions);
    tests[1] = (struct CMUnitTest)cmocka_unit_test(update_targets);
    tests[2] = (struct CMUnitTest)cmocka_unit_test(key_role_names);
    tests[3] = (struct CMUnitTest)cmocka_unit_test(extraction_keeps_a_complete_copy);
    tests[4] = (struct CMUnitTest)cmocka_unit_test(call_sites_kept_only_when_reachable);
    tests[5] = (struct CMUnitTest)cmocka_unit_test(precheck_clears_only_files_without_keys);
    tests[6] = (struct CMUnitTest)cmocka_unit_test(precheck_words);
    tests[7] = (struct CMUnitTest)cmocka_unit_test(uncompacted_ir_reads_the_same);
    tests[8] = (struct CMUnitTest)cmocka_unit_test(module_answers_by_directory);
    for (size_t i = 0; i < n; i++) {
        tests[i + FIXED].name = names[i];
        tests[i + FIXED].test_func = golden_case;
        tests[i + FIXED].initial_state = names[i];
    }
    int rc = _cmocka_run_group_tests("extract", tests, n + FIXED, NULL, NULL);
    case_dirs_free(names, n);
    free(tests);
    return rc;
}
