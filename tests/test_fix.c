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
    FixEdit e[FIX_MAX_EDITS];
    assert_int_equal(fix_resolve(A, t, strlen(t), &d, e), 1);
    assert_int_equal(e[0].start, 11);
    assert_int_equal(e[0].end, 17);
    assert_string_equal(e[0].text, "${ORDER_PREFIX}");
    /* the file changed since: no edit */
    const char *changed = "const k = `ORDEr#${id}`;\n";
    assert_int_equal(fix_resolve(A, changed, strlen(changed), &d, e), 0);
    /* a span past the end of a shorter file */
    assert_int_equal(fix_resolve(A, "x", 1, &d, e), 0);
    /* no edit at all */
    Diagnostic none = {.rule = "scan"};
    assert_int_equal(fix_resolve(A, t, strlen(t), &none, e), 0);
}

/* The edit is made as the fix proof left it (an object shorthand's name
 * was added there, on the syntax tree): no guess from the text around. */
static void test_resolve_takes_the_edit_as_proven(void **state)
{
    (void)state;
    const char *t = "get({ pk, sk });\n";
    Diagnostic d = edit_of(t, "sk", "sk: removeSortKeyVersion(sk)");
    FixEdit e[FIX_MAX_EDITS];
    assert_int_equal(fix_resolve(A, t, strlen(t), &d, e), 1);
    assert_string_equal(e[0].text, "sk: removeSortKeyVersion(sk)");
}

static void test_resolve_with_an_import(void **state)
{
    (void)state;
    const char *t = "import { x } from './x';\nconst k = `ORDER#${id}`;\n";
    Diagnostic d = edit_of(t, "ORDER#", "${ORDER_PREFIX}");
    d.insert[0].at = 25; /* the line after the import */
    d.insert[0].text = "import { ORDER_PREFIX } from './keys';\n";
    d.insert[1].at = 9; /* into `{ x }` */
    d.insert[1].text = ", SEP";
    FixEdit e[FIX_MAX_EDITS];
    assert_int_equal(fix_resolve(A, t, strlen(t), &d, e), 3);
    assert_int_equal(e[1].start, 25);
    assert_int_equal(e[1].end, 25);
    assert_string_equal(e[1].text, d.insert[0].text);
    assert_ptr_equal(e[1].diag, &d);
    assert_int_equal(e[2].start, 9);
    assert_string_equal(e[2].text, ", SEP");
    /* the edit moved since the proof placed the import: neither */
    const char *moved = "import { x } from './x';\n\nconst k = `ORDER#${id}`;\n";
    const char *at = strstr(moved, "ORDER#");
    assert_int_equal(fix_resolve_at(A, moved, strlen(moved), (size_t)(at - moved),
                                    (size_t)(at - moved) + 6, &d, e),
                     0);
    /* an insertion point past the end of the text: neither */
    d.insert[1].at = (uint32_t)strlen(t) + 1;
    assert_int_equal(fix_resolve(A, t, strlen(t), &d, e), 0);
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

/* A finding's edits go together: when one of them cannot be made, neither
 * is the other; two findings asking for one import get it once. */
static void test_plan_keeps_findings_whole(void **state)
{
    (void)state;
    Diagnostic d1 = {.rule = "a"}, d2 = {.rule = "b"}, d3 = {.rule = "c"};
    FixEdits v = {0};
    VEC_PUSH(A, &v, ((FixEdit){.start = 10, .end = 10, .text = "import A;\n", .diag = &d1}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 40, .end = 46, .text = "${A}", .diag = &d1}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 10, .end = 10, .text = "import A;\n", .diag = &d2}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 60, .end = 66, .text = "${A}", .diag = &d2}));
    /* d3's import starts where a replacement does (order would matter) */
    VEC_PUSH(A, &v, ((FixEdit){.start = 40, .end = 40, .text = "import C;\n", .diag = &d3}));
    VEC_PUSH(A, &v, ((FixEdit){.start = 80, .end = 82, .text = "${C}", .diag = &d3}));
    fix_plan(&v);
    /* d1's replacement starts where d3's import goes: d1 loses, whole
     * (its import too); d2 gets the import d1 asked for as well */
    assert_int_equal(v.n, 4);
    for (size_t i = 0; i < v.n; i++)
        assert_ptr_not_equal(v.v[i].diag, &d1);
    assert_ptr_equal(v.v[0].diag, &d2);
    assert_int_equal(v.v[0].start, 10);
    assert_ptr_equal(v.v[1].diag, &d3);
    assert_int_equal(v.v[1].start, 40);
    assert_int_equal(v.v[2].start, 60);
    assert_int_equal(v.v[3].start, 80);
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
        cmocka_unit_test_setup_teardown(test_resolve_takes_the_edit_as_proven, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve_with_an_import, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_orders_and_drops_overlaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_keeps_findings_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apply_from_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_diff_hunks, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
