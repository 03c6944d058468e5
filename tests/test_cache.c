/* The cache between runs: an IR written in the cache's binary encoding
 * and read back is the IR (cache_ir.h), and one cut short, damaged or of
 * the wrong shape is refused without reading past its end; the findings
 * of a run kept and read back (cache_findings.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_findings.h"
#include "cache_ir.h"
#include "case_dirs.h"
#include "config.h"
#include "defer.h"
#include "dumpir.h"
#include "extract.h"
#include "tables.h"

static const char *const SOURCE =
    "import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';\n"
    "import { save } from './repo';\n"
    "import * as keys from './keys';\n"
    "import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';\n"
    "export * from './more';\n"
    "export { a as b } from './other';\n"
    "// keylint-disable-next-line magic-string\n"
    "export const ORDER = 'ORDER#';\n"
    "const Prefix = { USER: 'USER#' } as const;\n"
    "export let Legacy = 'LEGACY#';\n"
    "export function orderPk(tenant: string, id: string) { return `${ORDER}${tenant}#${id}`; }\n"
    "export const gsiKeys = (e: string, id: string) => ({ GSI1PK: `E#${e}`, GSI1SK: id });\n"
    "function put(prefix: string, id: string) {\n"
    "  return client.send(new PutCommand({ TableName: process.env.TABLE ?? 'app',\n"
    "    Item: { pk: `${prefix}${id}`, sk: admin ? 'ADMIN' : 'USER' } }));\n"
    "}\n"
    "export async function list(tenant: string) {\n"
    "  Legacy = tenant;\n"
    "  save('USER#', tenant);\n"
    "  keys.write('ITEM#', tenant);\n"
    "  put('ORDER#', tenant);\n"
    "  await client.send(new UpdateCommand({ TableName: 'app', Key: { pk: orderPk(tenant, "
    "hash(tenant.toUpperCase())), sk: 'A' },\n"
    "    UpdateExpression: 'SET #s = :s', ExpressionAttributeNames: { '#s': 'status' } }));\n"
    "  return client.send(new QueryCommand({ TableName: 'app', IndexName: 'GSI1',\n"
    "    KeyConditionExpression: '#pk = :pk and begins_with(#sk, :sk)',\n"
    "    FilterExpression: 'attribute_exists(x)', ScanIndexForward: false,\n"
    "    ExpressionAttributeNames: { '#pk': 'GSI1PK', '#sk': 'GSI1SK' },\n"
    "    ExpressionAttributeValues: { ':pk': `${Prefix.USER}${tenant}`, ':sk': 'X#' } }));\n"
    "}\n"
    "const table = new Table(this, 'Orders', { partitionKey: { name: 'pk', type: "
    "AttributeType.STRING }, sortKey: { name: 'sk', type: AttributeType.STRING } });\n"
    "table.addGlobalSecondaryIndex({ indexName: 'GSI1', partitionKey: { name: 'GSI1PK', type: "
    "AttributeType.STRING }, projectionType: ProjectionType.INCLUDE, nonKeyAttributes: ['a'] "
    "});\n"
    "props.table.addGlobalSecondaryIndex({ indexName: 'GSI9', partitionKey: { name: 'x', type: "
    "AttributeType.STRING } });\n"
    "fn.addEnvironment('TABLE', table.tableName);\n";

static FileIR *extract(const char *path, const char *text, size_t len)
{
    Config *cfg = config_default();
    Problems probs;
    problems_init(&probs);
    FileIR *ir = extract_file(path, text, len, cfg, &probs);
    problems_free(&probs);
    config_free(cfg);
    return ir;
}

static char *dumped(const FileIR *ir)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    dump_ir(f, ir);
    fclose(f);
    return buf;
}

/* ir -> bytes -> ir', and ir' -> bytes again: the same bytes, the same
 * --dump-ir; the copy owns all it points to (ASan: the original is
 * freed first). Returns the copy; the bytes in *out when asked for. */
static FileIR *round_trip(FileIR *ir, BinOut *out)
{
    BinOut o = {0};
    cache_ir_put(&o, ir);
    assert_true(o.n > 0);
    char *before = dumped(ir);
    const char *why = NULL;
    BinIn in = {.v = o.v, .n = o.n};
    FileIR *copy = cache_ir_get(&in, ir->path, &why);
    if (!copy)
        fail_msg("%s: %s", ir->path, why);
    assert_int_equal(in.at, o.n); /* read to its end, not past it */
    fileir_free(ir);
    char *after = dumped(copy);
    assert_string_equal(after, before);
    BinOut again = {0};
    cache_ir_put(&again, copy);
    if (again.n != o.n || memcmp(again.v, o.v, o.n))
        fail_msg("not the same bytes written again (%zu, then %zu)", o.n, again.n);
    free(again.v);
    free(before);
    free(after);
    if (out)
        *out = o;
    else
        free(o.v);
    return copy;
}

/* The IR read from `bytes`, or NULL with *why. */
static FileIR *read_ir(const BinOut *bytes, size_t n, const char *path, const char **why)
{
    BinIn in = {.v = bytes->v, .n = n};
    *why = NULL;
    FileIR *ir = cache_ir_get(&in, path, why);
    assert_true(in.at <= n);
    assert_true(ir ? *why == NULL : *why != NULL);
    return ir;
}

static void ir_round_trip(void **state)
{
    (void)state;
    FileIR *ir = extract("src/orders.ts", SOURCE, strlen(SOURCE));
    /* what the source holds, so that a part the encoding drops shows */
    assert_true(ir->extracted.n >= 4);
    assert_true(ir->ops.n >= 3);
    assert_true(ir->reexports.n == 2);
    assert_true(ir->tables && ir->tables->set.tables.n == 1);
    size_t parts[] = {ir->extracted.n, ir->ops.n,     ir->imports.n,  ir->reexports.n,
                      ir->consts.n,    ir->helpers.n, ir->comments.n, ir->mutated.n,
                      ir->choices.n,   ir->tables->set.tables.n};
    FileIR *copy = round_trip(ir, NULL);

    /* every part is back in the IR */
    size_t back[] = {copy->extracted.n, copy->ops.n,     copy->imports.n,  copy->reexports.n,
                     copy->consts.n,    copy->helpers.n, copy->comments.n, copy->mutated.n,
                     copy->choices.n,   copy->tables->set.tables.n};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        assert_true(parts[i] > 0);
        assert_int_equal(back[i], parts[i]);
    }
    assert_true(copy->mutated.n >= 1);
    assert_true(copy->choices.n >= 1);
    /* segments with call arguments (nested lists) */
    bool nested = false;
    for (size_t i = 0; i < copy->extracted.n; i++)
        for (size_t s = 0; s < copy->extracted.v[i].segs.n; s++)
            nested |= copy->extracted.v[i].segs.v[s].nargs > 0;
    assert_true(nested);
    /* data operations with their parameters */
    bool params = false;
    for (size_t i = 0; i < copy->ops.n; i++) {
        const OpParams *p = op_params(&copy->ops.v[i]);
        if (p && p->names.n && p->filter && p->has_index) {
            params = true;
            assert_string_equal(op_param_name(p, "#pk"), "GSI1PK");
        }
    }
    assert_true(params);
    /* helpers: parameters by name, returned objects of keys */
    const HelperDef *h = fileir_helper(copy, "orderPk", true);
    assert_non_null(h);
    assert_int_equal(h->nparams, 2);
    size_t at;
    assert_true(namemap_get(&h->param_names, "id", &at) && at == 1);
    const HelperDef *g = fileir_helper(copy, "gsiKeys", true);
    assert_non_null(g);
    assert_int_equal(g->fields.n, 2);
    /* lookups by name through the maps rebuilt */
    assert_non_null(fileir_const(copy, "ORDER", true));
    assert_null(fileir_const(copy, "Prefix.USER", true));
    assert_non_null(fileir_const(copy, "Prefix.USER", false));
    assert_non_null(fileir_import(copy, "save"));
    assert_null(fileir_import(copy, "b"));
    /* tables in code: indexes on the table and on another's, bindings;
     * their paths are the file's */
    const FileTables *ft = copy->tables;
    assert_int_equal(ft->set.tables.v[0].indexes.n, 1);
    assert_string_equal(ft->set.tables.v[0].indexes.v[0].projection, "INCLUDE");
    assert_string_equal(ft->set.tables.v[0].path, "src/orders.ts");
    assert_int_equal(ft->index_calls.n, 1);
    assert_int_equal(ft->set.env.n, 1);
    fileir_free(copy);
}

/* A segment's parameter (a value passed to a helper) and fallback text
 * (`${tenantId || 'SYSTEM'}`) are kept, also in a call's arguments:
 * --dump-ir does not show them, so they are looked at here. */
static void segments_keep_param_and_fallback(void **state)
{
    (void)state;
    FileIR *ir = extract("src/orders.ts", SOURCE, strlen(SOURCE));
    Seg *call = NULL;
    for (size_t i = 0; i < ir->extracted.n && !call; i++)
        for (size_t s = 0; s < ir->extracted.v[i].segs.n; s++)
            if (ir->extracted.v[i].segs.v[s].nargs && ir->extracted.v[i].segs.v[s].args[0].n) {
                call = &ir->extracted.v[i].segs.v[s];
                break;
            }
    assert_non_null(call);
    call->flags |= SEGF_ARG;
    call->param = "tenant";
    call->fallback = "SYSTEM";
    call->args[0].v[0].fallback = "NONE";
    Span where = call->span;
    FileIR *copy = round_trip(ir, NULL);
    const Seg *back = NULL;
    for (size_t i = 0; i < copy->extracted.n && !back; i++)
        for (size_t s = 0; s < copy->extracted.v[i].segs.n; s++)
            if (!memcmp(&copy->extracted.v[i].segs.v[s].span, &where, sizeof where) &&
                copy->extracted.v[i].segs.v[s].nargs) {
                back = &copy->extracted.v[i].segs.v[s];
                break;
            }
    assert_non_null(back);
    assert_non_null(back->param);
    assert_string_equal(back->param, "tenant");
    assert_non_null(back->fallback);
    assert_string_equal(back->fallback, "SYSTEM");
    assert_non_null(back->args[0].v[0].fallback);
    assert_string_equal(back->args[0].v[0].fallback, "NONE");
    assert_null(back->args[0].v[0].param);
    fileir_free(copy);
}

/* The display path is the reader's: a run from another directory. */
static void ir_takes_the_path_given(void **state)
{
    (void)state;
    FileIR *ir = extract("src/orders.ts", SOURCE, strlen(SOURCE));
    BinOut o = {0};
    cache_ir_put(&o, ir);
    fileir_free(ir);
    const char *why = NULL;
    FileIR *moved = read_ir(&o, o.n, "../app/src/orders.ts", &why);
    assert_non_null(moved);
    assert_string_equal(moved->path, "../app/src/orders.ts");
    assert_string_equal(moved->tables->set.tables.v[0].path, "../app/src/orders.ts");
    assert_string_equal(moved->tables->set.env.v[0].path, "../app/src/orders.ts");
    fileir_free(moved);
    free(o.v);
}

/* A text that is not UTF-8 (a segment's text cut inside a character)
 * is kept as its bytes. */
static void ir_keeps_bytes_that_are_not_utf8(void **state)
{
    (void)state;
    FileIR *ir = extract("a.ts", "const x = 1;\n", 13);
    KeyExpr k = {.role = ROLE_PK, .attr = "pk", .op = -1};
    seglist_push(ir->arena, &k.segs, (Seg){.kind = SEG_TEXT, .text = "A\xC3#\xff"});
    VEC_PUSH(ir->arena, &ir->extracted, k);
    FileIR *copy = round_trip(ir, NULL);
    assert_string_equal(copy->extracted.v[0].segs.v[0].text, "A\xC3#\xff");
    assert_int_equal(copy->extracted.v[0].op, -1);
    fileir_free(copy);
}

/* An IR cut short anywhere, damaged anywhere, or of the wrong shape is
 * refused, saying why, and never read past its end (ASan and UBSan
 * builds run this too). */
static void ir_wrong_shapes_refused(void **state)
{
    (void)state;
    FileIR *ir = extract("src/orders.ts", SOURCE, strlen(SOURCE));
    BinOut good = {0};
    cache_ir_put(&good, ir);
    const char *why = NULL;

    /* cut short at every length: refused */
    for (size_t n = 0; n < good.n; n++) {
        char *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees a read past them */
        assert_non_null(copy);
        memcpy(copy, good.v, n);
        BinOut cut = {.v = copy, .n = n};
        FileIR *back = read_ir(&cut, n, "src/orders.ts", &why);
        if (back)
            fail_msg("cut to %zu of %zu bytes: read", n, good.n);
        free(copy);
    }
    /* every byte damaged in turn: read or refused, never past the end */
    size_t refused = 0;
    for (size_t i = 0; i < good.n; i++) {
        char *copy = malloc(good.n);
        assert_non_null(copy);
        memcpy(copy, good.v, good.n);
        copy[i] = (char)(copy[i] ^ 0xa5);
        BinOut bad = {.v = copy, .n = good.n};
        FileIR *back = read_ir(&bad, good.n, "src/orders.ts", &why);
        refused += !back;
        fileir_free(back);
        free(copy);
    }
    assert_true(refused > 0);

    /* a count no entry could hold: refused before anything is allocated */
    BinOut huge = {0};
    bin_put_u8(&huge, 0);
    bin_put_u64(&huge, 1);
    bin_put_u32(&huge, 0xfffffff0u);
    assert_null(read_ir(&huge, huge.n, "x.ts", &why));
    assert_string_equal(why, "cut short or of the wrong shape");
    free(huge.v);
    /* a flag that is neither 0 nor 1 */
    BinOut flag = {.v = malloc(good.n), .n = good.n};
    memcpy(flag.v, good.v, good.n);
    flag.v[0] = 2; /* parse_failed */
    assert_null(read_ir(&flag, flag.n, "x.ts", &why));
    assert_string_equal(why, "a flag of the wrong type");
    free(flag.v);

    /* an enumeration past its count */
    ir->ops.v[0].kind = (OpKind)99;
    BinOut range = {0};
    cache_ir_put(&range, ir);
    assert_null(read_ir(&range, range.n, "x.ts", &why));
    assert_string_equal(why, "a number out of range");
    free(range.v);
    ir->ops.v[0].kind = (OpKind)0;

    /* segments nested without end (a call's arguments) */
    SegList deep = {0};
    seglist_push(ir->arena, &deep, (Seg){.kind = SEG_TEXT, .text = "x"});
    for (int d = 0; d < 100; d++) {
        SegList *args = arena_alloc(ir->arena, sizeof *args);
        *args = deep;
        SegList up = {0};
        seglist_push(ir->arena, &up, (Seg){.kind = SEG_CALL, .text = "f", .args = args, .nargs = 1});
        deep = up;
    }
    ir->extracted.v[0].segs = deep;
    BinOut nested = {0};
    cache_ir_put(&nested, ir);
    assert_null(read_ir(&nested, nested.n, "x.ts", &why));
    assert_string_equal(why, "segments nested too deep");
    free(nested.v);
    fileir_free(ir);
    free(good.v);
}

/* The cache's hash of a text: the same for the same bytes, another for
 * a byte changed anywhere, a byte more or less. */
static void content_hash(void **state)
{
    (void)state;
    char text[100], h0[33], h1[33];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (char)('a' + i % 26);
    cache_hash_hex(text, sizeof text, h0);
    assert_int_equal(strlen(h0), 32);
    cache_hash_hex(text, sizeof text, h1);
    assert_string_equal(h0, h1);
    for (size_t i = 0; i < sizeof text; i++) {
        text[i] ^= 1;
        cache_hash_hex(text, sizeof text, h1);
        assert_string_not_equal(h0, h1);
        text[i] ^= 1;
    }
    cache_hash_hex(text, sizeof text - 1, h1);
    assert_string_not_equal(h0, h1);
    char zeros[16] = {0}, z1[33], z2[33];
    cache_hash_hex(zeros, 15, z1);
    cache_hash_hex(zeros, 16, z2);
    assert_string_not_equal(z1, z2);
}

/* Every input of tests/extract goes through the encoding unchanged. */
static void extract_cases_round_trip(void **state)
{
    (void)state;
    size_t n = 0;
    char **dirs = case_dirs("tests/extract", &n);
    assert_non_null(dirs);
    size_t files = 0;
    for (size_t i = 0; i < n; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "tests/extract/%s", dirs[i]);
        DIR *d = opendir(dir);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            const char *dot = strrchr(e->d_name, '.');
            if (!dot || (strcmp(dot, ".ts") && strcmp(dot, ".tsx") && strcmp(dot, ".js")))
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            char *text = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&text, &len);
            int c;
            while ((c = fgetc(f)) != EOF)
                fputc(c, m);
            fclose(m);
            fclose(f);
            fileir_free(round_trip(extract(path, text, len), NULL));
            free(text);
            files++;
        }
        closedir(d);
    }
    case_dirs_free(dirs, n);
    assert_true(files > 20);
}

/* A pre-check note made of its parts is the note. */
static void defer_note_round_trip(void **state)
{
    (void)state;
    const char *t = "import persist from './p';\nexport * from './q';\n"
                    "const KEY_PREFIX = 'ORDER#';\nsave(x); save(y); other as alias;\n";
    DeferNote *nt = defer_note(t, strlen(t));
    DeferNoteParts p = defer_note_parts(nt);
    assert_true(p.lits.n == 1 && p.calls.n >= 1 && p.imports.n == 1 && p.reexports.n == 1);
    assert_true(p.default_import);
    DeferNote *back = defer_note_from_parts(&p);
    DeferNoteParts q = defer_note_parts(back);
    assert_int_equal(q.lits.n, p.lits.n);
    assert_int_equal(q.calls.n, p.calls.n);
    for (size_t i = 0; i < p.calls.n; i++)
        assert_string_equal(q.calls.v[i], p.calls.v[i]);
    assert_string_equal(q.lits.v[0], "ORDER#");
    assert_string_equal(q.imports.v[0], "./p");
    assert_string_equal(q.reexports.v[0], "./q");
    assert_true(q.default_import);
    defer_note_free(nt);
    defer_note_free(back);
}

/* The configuration's hash changes with what extraction reads, not with
 * what it does not (a rule's severity). */
static void config_hash_follows_extraction(void **state)
{
    (void)state;
    Config *a = config_default(), *b = config_default();
    assert_true(extract_config_hash(a) == extract_config_hash(b));
    b->max_key_components = 9;
    assert_true(extract_config_hash(a) == extract_config_hash(b));
    b->separator = "|";
    assert_true(extract_config_hash(a) != extract_config_hash(b));
    b->separator = a->separator;
    strlist_push(b->arena, &b->key_sk, "sortKey");
    assert_true(extract_config_hash(a) != extract_config_hash(b));
    config_free(a);
    config_free(b);
}

/* The findings of a run kept and read back for the same files; not for
 * a file whose text changed; a damaged record ignored with a note. */
static void findings_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/keylint-findings-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cdir[256];
    snprintf(path, sizeof path, "%s/a.ts", dir);
    snprintf(cdir, sizeof cdir, "%s/.keylint-cache", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("export const k = { pk: 'USER#1', sk: 'META' };\n", f);
    fclose(f);
    const char *paths[] = {dir};
    Cache *c = cache_open(cdir, dir);
    Project *p = project_new(NULL);
    p->cache = c;
    p->drop_texts = true;
    project_add_paths(p, paths, 1);
    project_analyze(p);
    Diagnostic *g = diag_add(&p->diags, "magic-string", SEV_ERROR, path, (Span){1, 2, 0, 1, 0, 2},
                             "made up %d", 1);
    g->has_edit = g->unsafe = true;
    g->edit_text = "X";
    g->need[0].name = "K";
    diag_relate(&p->diags, g, NULL, (Span){3, 4, 0, 3, 0, 4}, "why");
    Problems pr;
    problems_init(&pr);
    problems_add_kind(&pr, PROBLEM_NOTE, path, 1, 2, "a note");
    FindingsRecord r = {.diags = &p->diags, .problems = &pr, .linted = 1, .seen = {3, 4, 5}};
    cache_findings_store(c, p, "settings", &r);
    size_t nd = p->diags.items.n;
    project_free(p);
    cache_save(c, true);
    cache_free(c);

    /* the same files: the record */
    c = cache_open(cdir, dir);
    p = project_new(NULL);
    p->cache = c;
    project_list_paths(p, paths, 1);
    Problems got;
    problems_init(&got);
    FindingsRecord back = {.diags = &p->diags, .problems = &got};
    assert_false(cache_findings_load(c, p, "other settings", &back));
    assert_true(cache_findings_load(c, p, "settings", &back));
    assert_int_equal(p->diags.items.n, nd);
    const Diagnostic *h = &p->diags.items.v[nd - 1];
    assert_string_equal(h->message, "made up 1");
    assert_true(h->has_edit && h->unsafe && !h->proven);
    assert_string_equal(h->edit_text, "X");
    assert_string_equal(h->need[0].name, "K");
    assert_null(h->need[0].module);
    assert_int_equal(h->nrelated, 1);
    assert_string_equal(h->related[0].message, "why");
    assert_int_equal(h->related[0].span.start_byte, 3);
    assert_int_equal(got.items.n, 1);
    assert_string_equal(got.items.v[0].message, "a note");
    assert_int_equal(back.linted, 1);
    assert_int_equal(back.seen.tables, 5);
    project_free(p);
    problems_free(&got);
    cache_free(c);

    /* the record damaged: ignored, with a note */
    char rec[300];
    snprintf(rec, sizeof rec, "%s/findings.pack", cdir);
    f = fopen(rec, "r+b");
    assert_non_null(f);
    fseek(f, -2, SEEK_END);
    fputc('~', f);
    fclose(f);
    c = cache_open(cdir, dir);
    p = project_new(NULL);
    p->cache = c;
    project_list_paths(p, paths, 1);
    problems_init(&got);
    back = (FindingsRecord){.diags = &p->diags, .problems = &got};
    assert_false(cache_findings_load(c, p, "settings", &back));
    assert_int_equal(p->diags.items.n, 0);
    const Problems *notes = cache_notes(c);
    assert_int_equal(notes->items.n, 1);
    assert_non_null(strstr(notes->items.v[0].message, "cache of the findings ignored"));
    project_free(p);
    problems_free(&got);
    cache_free(c);
    problems_free(&pr);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ir_round_trip),
        cmocka_unit_test(segments_keep_param_and_fallback),
        cmocka_unit_test(ir_takes_the_path_given),
        cmocka_unit_test(ir_keeps_bytes_that_are_not_utf8),
        cmocka_unit_test(ir_wrong_shapes_refused),
        cmocka_unit_test(content_hash),
        cmocka_unit_test(extract_cases_round_trip),
        cmocka_unit_test(defer_note_round_trip),
        cmocka_unit_test(config_hash_follows_extraction),
        cmocka_unit_test(findings_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
