/* Unit tests for linter/report/fix.c: resolving a diagnostic's edit
 * against a text, planning (order, overlaps, duplicates), applying, and
 * the unified diff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fix.h"

static Arena *A;

static int setup(void **state)
{
    (void)state;
    A = arena_new();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    arena_free(A);
    return 0;
}

/* A diagnostic whose edit replaces the first `old` in `text`. */
static Diagnostic edit_of(const char *text, const char *old, const char *with)
{
    const char *at = strstr(text, old);
    assert_non_null(at);
    Diagnostic d = {.rule = "magic-string", .has_edit = true, .edit_old = old,
                    .edit_text = with};
    d.edit_span.start_byte = (uint32_t)(at - text);
    d.edit_span.end_byte = d.edit_span.start_byte + (uint32_t)strlen(old);
    return d;
}

static void test_resolve_checks_the_text(void **state)
{
    (void)state;
    const char *t = "const k = `ORDER#${id}`;\n";
    Diagnostic d = edit_of(t, "ORDER#", "${ORDER_PREFIX}");
    FixEdit e;
    assert_true(fix_resolve(A, t, strlen(t), &d, &e));
    assert_int_equal(e.start, 11);
    assert_int_equal(e.end, 17);
    assert_string_equal(e.text, "${ORDER_PREFIX}");
    /* the file changed since: no edit */
    const char *changed = "const k = `ORDEr#${id}`;\n";
    assert_false(fix_resolve(A, changed, strlen(changed), &d, &e));
    /* a span past the end of a shorter file */
    assert_false(fix_resolve(A, "x", 1, &d, &e));
    /* no edit at all */
    Diagnostic none = {.rule = "scan"};
    assert_false(fix_resolve(A, t, strlen(t), &none, &e));
}

static void test_resolve_keeps_shorthand_names(void **state)
{
    (void)state;
    const char *t = "get({ pk, sk });\nget({ pk, sk: sk });\n";
    Diagnostic d = edit_of(t, "sk", "removeSortKeyVersion(sk)");
    FixEdit e;
    assert_true(fix_resolve(A, t, strlen(t), &d, &e));
    assert_string_equal(e.text, "sk: removeSortKeyVersion(sk)");
    /* the value of `sk: sk` is no shorthand */
    const char *v = strstr(t, "sk: sk") + 4;
    d.edit_span.start_byte = (uint32_t)(v - t);
    d.edit_span.end_byte = d.edit_span.start_byte + 2;
    assert_true(fix_resolve(A, t, strlen(t), &d, &e));
    assert_string_equal(e.text, "removeSortKeyVersion(sk)");
}

static void test_plan_orders_and_drops_overlaps(void **state)
{
    (void)state;
    FixEdits v = {0};
    VEC_PUSH(A, &v, ((FixEdit){.start = 20, .end = 25, .text = "B"}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 2, .end = 8, .text = "A"}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 5, .end = 10, .text = "overlaps A"}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 20, .end = 25, .text = "B"})); /* same edit twice */
    VEC_PUSH(A, &v, ((FixEdit){.start = 8, .end = 8, .text = "touches A"}));
    fix_plan(&v);
    assert_int_equal(v.n, 3);
    assert_string_equal(v.v[0].text, "A");
    assert_string_equal(v.v[1].text, "touches A");
    assert_string_equal(v.v[2].text, "B");
}

static void test_apply_from_the_end(void **state)
{
    (void)state;
    const char *t = "pk: `ORDER#${t}#${id}`";
    FixEdit e[] = {{.start = 5, .end = 11, .text = "${ORDER_PREFIX}"},
                   {.start = 15, .end = 16, .text = "${SEP}"}};
    size_t n;
    char *out = fix_apply(t, strlen(t), e, 2, &n);
    assert_string_equal(out, "pk: `${ORDER_PREFIX}${t}${SEP}${id}`");
    assert_int_equal(n, strlen(out));
    free(out);
}

/* The diff as a string. */
static char *diff_of(const char *path, const char *t, const FixEdit *e, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fix_diff(f, path, t, strlen(t), e, n);
    fclose(f);
    return buf;
}

static void test_diff_hunks(void **state)
{
    (void)state;
    /* ten lines; edits on lines 2 and 9 are too far apart for one hunk */
    const char *t = "l1\nORDER#2\nl3\nl4\nl5\nl6\nl7\nl8\nORDER#9\nl10\n";
    FixEdit e[] = {{.start = 3, .end = 9, .text = "${P}"},
                   {.start = (size_t)(strstr(t, "ORDER#9") - t),
                    .end = (size_t)(strstr(t, "ORDER#9") - t) + 6, .text = "${P}"}};
    char *d = diff_of("src/a.ts", t, e, 2);
    assert_string_equal(d, "--- a/src/a.ts\n+++ b/src/a.ts\n"
                           "@@ -1,5 +1,5 @@\n l1\n-ORDER#2\n+${P}2\n l3\n l4\n l5\n"
                           "@@ -6,5 +6,5 @@\n l6\n l7\n l8\n-ORDER#9\n+${P}9\n l10\n");
    free(d);
    /* no newline at the end of the file; an edit that adds a line */
    const char *u = "a\nb";
    FixEdit f = {.start = 2, .end = 3, .text = "x\ny"};
    d = diff_of("b.ts", u, &f, 1);
    assert_string_equal(d, "--- a/b.ts\n+++ b/b.ts\n@@ -1,2 +1,3 @@\n a\n-b\n"
                           "\\ No newline at end of file\n+x\n+y\n"
                           "\\ No newline at end of file\n");
    free(d);
    /* nothing to do: nothing printed */
    d = diff_of("c.ts", u, NULL, 0);
    assert_string_equal(d, "");
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_resolve_checks_the_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_keeps_shorthand_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_orders_and_drops_overlaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apply_from_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_diff_hunks, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
