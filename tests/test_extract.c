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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case_dirs.h"
#include "ddbexpr.h"
#include "dumpir.h"
#include "extract.h"
#include "project.h"

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

int main(void)
{
    size_t n;
    char **names = case_dirs("tests/extract", &n);
    if (!names)
        return 1;
    struct CMUnitTest *tests = calloc(n + 3, sizeof *tests);
    tests[0] = (struct CMUnitTest)cmocka_unit_test(key_conditions);
    tests[1] = (struct CMUnitTest)cmocka_unit_test(update_targets);
    tests[2] = (struct CMUnitTest)cmocka_unit_test(key_role_names);
    for (size_t i = 0; i < n; i++) {
        tests[i + 3].name = names[i];
        tests[i + 3].test_func = golden_case;
        tests[i + 3].initial_state = names[i];
    }
    int rc = _cmocka_run_group_tests("extract", tests, n + 3, NULL, NULL);
    case_dirs_free(names, n);
    free(tests);
    return rc;
}
