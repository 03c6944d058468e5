/* The pipeline as the language server uses it: files set from buffers,
 * analysed again after edits, removed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "project.h"

static const char KEYS_OK[] =
    "export const ORDER = 'ORDER#';\n"
    "export function orderSk(a: string, b: string) { return `ITEM#${a}#${b}`; }\n";
static const char KEYS_BAD[] =
    "export const ORDER = 'ORDER#';\n"
    "export function orderSk(a: string, b: string) { return `ITEM#${a}${b}`; }\n";
static const char SERVICE[] =
    "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"
    "import { ORDER, orderSk } from './keys';\n"
    "export const get = (ddb: any, id: string, n: string) =>\n"
    "  ddb.send(new GetCommand({ TableName: 't', Key: { pk: `${ORDER}${id}`, sk: orderSk(id, n) } }));\n";

static size_t count(const Project *p, const char *rule, const char *path_suffix)
{
    size_t n = 0;
    for (size_t i = 0; i < p->diags.items.n; i++) {
        const Diagnostic *d = &p->diags.items.v[i];
        size_t pl = strlen(d->path), sl = strlen(path_suffix);
        if (!strcmp(d->rule, rule) && pl >= sl && !strcmp(d->path + pl - sl, path_suffix))
            n++;
    }
    return n;
}

static void edits_and_reanalysis(void **state)
{
    (void)state;
    char dir[] = "/tmp/keylint-project-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char keys[256], service[256];
    snprintf(keys, sizeof keys, "%s/keys.ts", dir);
    snprintf(service, sizeof service, "%s/service.ts", dir);

    Project *p = project_new(NULL);
    project_set_text(p, keys, KEYS_OK, strlen(KEYS_OK));
    project_set_text(p, service, SERVICE, strlen(SERVICE));
    project_analyze(p);
    assert_int_equal(count(p, "missing-delimiter", "keys.ts"), 0);
    size_t first = p->diags.items.n;

    /* analysing again changes nothing */
    project_analyze(p);
    assert_int_equal(p->diags.items.n, first);

    /* an edit of the helper shows in the helper's definition */
    project_set_text(p, keys, KEYS_BAD, strlen(KEYS_BAD));
    project_analyze(p);
    assert_int_equal(count(p, "missing-delimiter", "keys.ts"), 1);

    /* and undoing it clears it again */
    project_set_text(p, keys, KEYS_OK, strlen(KEYS_OK));
    project_analyze(p);
    assert_int_equal(count(p, "missing-delimiter", "keys.ts"), 0);
    assert_int_equal(p->diags.items.n, first);

    /* a buffer that does not parse is a note of that file only: the
     * region it could not read */
    project_set_text(p, service, "const = ;", 9);
    project_analyze(p);
    Problems all;
    problems_init(&all);
    project_problems(p, &all);
    assert_int_equal(all.items.n, 1);
    assert_int_equal(all.items.v[0].kind, PROBLEM_NOTE);
    assert_int_equal(all.items.v[0].line, 1);
    assert_non_null(strstr(all.items.v[0].message, "syntax error"));
    assert_non_null(strstr(all.items.v[0].message, "lines 1-1 not read"));
    problems_free(&all);

    /* removing a file drops its findings and problems */
    project_remove(p, service);
    project_analyze(p);
    assert_int_equal(count(p, "magic-string", "service.ts"), 0);
    problems_init(&all);
    project_problems(p, &all);
    assert_int_equal(all.items.n, 0);
    problems_free(&all);
    assert_null(project_file(p, service));
    assert_non_null(project_file(p, keys));
    project_free(p);
    rmdir(dir);
}

/* Segments of the partition keys of `path` after resolution; the text of
 * the first one in *text (when it is all text). */
static size_t pk_segments(const Project *p, const char *path, const char **text)
{
    size_t n = 0;
    *text = NULL;
    for (size_t i = 0; i < p->files.n; i++) {
        const FileIR *ir = p->files.v[i].ir;
        if (!ir || strcmp(p->files.v[i].abspath, path))
            continue;
        for (size_t k = 0; k < ir->keys.n; k++) {
            if (ir->keys.v[k].role != ROLE_PK)
                continue;
            n += ir->keys.v[k].segs.n;
            if (!*text && ir->keys.v[k].segs.n == 1 && ir->keys.v[k].segs.v[0].kind == SEG_TEXT)
                *text = ir->keys.v[k].segs.v[0].text;
        }
    }
    return n;
}

/* `c1 = c0 + c0 + ...` ten times, twelve levels: 10^12 segments if every
 * name were inlined. Inlining has a budget (in proportion to the input):
 * keys stay small, and a short chain is read in full. */
static void inlining_bounded(void **state)
{
    (void)state;
    char dir[] = "/tmp/keylint-project-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], text[8192];
    size_t o = 0;
    for (int chain = 0; chain < 2; chain++) { /* module constants, then locals */
        snprintf(path, sizeof path, "%s/%s.ts", dir, chain ? "locals" : "consts");
        o = (size_t)snprintf(text, sizeof text, "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"
                                                "export async function f(ddb: any) {\n"
                                                "  const c0 = 'ab';\n");
        if (!chain)
            o = (size_t)snprintf(text, sizeof text, "const c0 = 'ab';\n");
        for (int i = 1; i <= 12; i++) {
            o += (size_t)snprintf(text + o, sizeof text - o, "%sconst c%d = c%d", chain ? "  " : "",
                                  i, i - 1);
            for (int k = 1; k < 10; k++)
                o += (size_t)snprintf(text + o, sizeof text - o, " + c%d", i - 1);
            o += (size_t)snprintf(text + o, sizeof text - o, ";\n");
        }
        if (!chain)
            o += (size_t)snprintf(text + o, sizeof text - o,
                                  "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"
                                  "export async function f(ddb: any) {\n");
        snprintf(text + o, sizeof text - o,
                 "  await ddb.send(new GetCommand({ TableName: 't', Key: { pk: c12, sk: 'x' } }));\n"
                 "  await ddb.send(new GetCommand({ TableName: 't', Key: { pk: c1, sk: 'x' } }));\n"
                 "}\n");
        Project *p = project_new(NULL);
        project_set_text(p, path, text, strlen(text));
        project_analyze(p);
        const char *first;
        size_t n = pk_segments(p, path, &first);
        assert_true(n > 10);
        assert_true(n < 4 * 1000 * 1000);
        project_free(p);
    }
    /* a short chain: read in full */
    snprintf(path, sizeof path, "%s/short.ts", dir);
    const char *small = "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"
                        "const c0 = 'ab';\n"
                        "const c1 = c0 + c0;\n"
                        "const c2 = c1 + c1;\n"
                        "export const f = (ddb: any) =>\n"
                        "  ddb.send(new GetCommand({ TableName: 't', Key: { pk: c2, sk: 'x' } }));\n";
    Project *p = project_new(NULL);
    project_set_text(p, path, small, strlen(small));
    project_analyze(p);
    const char *whole;
    size_t n = pk_segments(p, path, &whole);
    assert_true(n >= 1);
    char rendered[64] = "";
    for (size_t i = 0; i < p->files.n; i++)
        for (size_t k = 0; p->files.v[i].ir && k < p->files.v[i].ir->keys.n; k++) {
            const KeyExpr *ke = &p->files.v[i].ir->keys.v[k];
            if (ke->role != ROLE_PK)
                continue;
            for (size_t s = 0; s < ke->segs.n; s++) {
                assert_int_equal(ke->segs.v[s].kind, SEG_TEXT);
                strncat(rendered, ke->segs.v[s].text, sizeof rendered - strlen(rendered) - 1);
            }
        }
    assert_string_equal(rendered, "abababab");
    project_free(p);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A few hundred bytes on which tree-sitter's error recovery runs for
 * minutes (found by fuzzing): the parse is cancelled within its budget and
 * the file is reported as not read, by name; the project goes on. */
static void parser_budget(void **state)
{
    (void)state;
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/regressions/parser-gives-up.tsx", root ? root : ".");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    Project *p = project_new(NULL);
    project_set_text(p, "/nonexistent/keylint-test/hang.tsx", text, n);
    project_set_text(p, "/nonexistent/keylint-test/keys.ts", KEYS_BAD, strlen(KEYS_BAD));
    project_analyze(p);
    Problems pr;
    problems_init(&pr);
    project_problems(p, &pr);
    assert_int_equal(pr.items.n, 1);
    assert_non_null(strstr(pr.items.v[0].path, "hang.tsx"));
    assert_non_null(strstr(pr.items.v[0].message, "the parser gave up"));
    problems_free(&pr);
    assert_int_equal(project_linted_files(p), 1); /* the rest is linted */
    project_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edits_and_reanalysis),
        cmocka_unit_test(inlining_bounded),
        cmocka_unit_test(parser_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
