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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edits_and_reanalysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
