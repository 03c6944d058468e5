/* suppress.c: inline suppression directives, through the whole pipeline
 * (project_analyze applies them, so the language server gets them too)
 * and on hand-made diagnostics. */
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
#include "suppress.h"

/* A line with two findings: magic-string (warning) on `USER#` at column
 * 57 and missing-delimiter (error) at column 90 of its line. */
#define GET_LINE                                                               \
    "  ddb.send(new GetCommand({ TableName: 't', Key: { pk: `USER#${userId}`, " \
    "sk: `${userId}${orderId}` } }));"
#define HEAD                                                                   \
    "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"                    \
    "export const get = (ddb: any, userId: string, orderId: string) =>\n"

typedef struct Fixture {
    char dir[64];
    Project *p;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/keylint-suppress-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    f->p = project_new(NULL);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    project_free(f->p);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* Lint `text` as <dir>/name; returns the file's display path. */
static const char *lint(Fixture *f, const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    const SourceFile *sf = project_set_text(f->p, path, text, strlen(text));
    project_analyze(f->p);
    return sf->path;
}

static size_t count(const Project *p, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < p->diags.items.n; i++)
        if (!strcmp(p->diags.items.v[i].rule, rule))
            n++;
    return n;
}

static const Diagnostic *first(const Project *p, const char *rule)
{
    for (size_t i = 0; i < p->diags.items.n; i++)
        if (!strcmp(p->diags.items.v[i].rule, rule))
            return &p->diags.items.v[i];
    return NULL;
}

static void unsuppressed_baseline(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD GET_LINE "\n");
    assert_int_equal(count(f->p, "magic-string"), 1);
    assert_int_equal(count(f->p, "missing-delimiter"), 1);
    assert_int_equal(count(f->p, "suppression"), 0);
}

static void next_line_suppresses_only_the_named_rule(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD "  // keylint-disable-next-line missing-delimiter -- fixed-width ids\n" GET_LINE "\n");
    assert_int_equal(count(f->p, "missing-delimiter"), 0);
    assert_int_equal(count(f->p, "magic-string"), 1);
    assert_int_equal(count(f->p, "suppression"), 0);
}

static void next_line_is_only_the_next_line(void **state)
{
    Fixture *f = *state;
    /* a blank line between: nothing suppressed, the directive is unused */
    lint(f, "a.ts", HEAD "  // keylint-disable-next-line missing-delimiter\n\n" GET_LINE "\n");
    assert_int_equal(count(f->p, "missing-delimiter"), 1);
    const Diagnostic *d = first(f->p, "suppression");
    assert_non_null(d);
    assert_int_equal(d->severity, SEV_WARNING);
    assert_string_equal(d->message, "'keylint-disable-next-line missing-delimiter' "
                                    "suppresses nothing: no missing-delimiter finding on line 4");
    /* placed on the rule id in the comment: row 2, byte column 2 + 29 */
    assert_int_equal(d->span.start_row, 2);
    assert_int_equal(d->span.start_col, 31);
    assert_int_equal(d->span.end_col, 31 + strlen("missing-delimiter"));
}

static void disable_line_with_two_rules(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD GET_LINE " // keylint-disable-line magic-string,missing-delimiter -- legacy\n");
    assert_int_equal(f->p->diags.items.n, 0);
}

static void disable_line_on_its_own_line_is_unused(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD "  // keylint-disable-line missing-delimiter\n" GET_LINE "\n");
    assert_int_equal(count(f->p, "missing-delimiter"), 1);
    const Diagnostic *d = first(f->p, "suppression");
    assert_non_null(d);
    assert_non_null(strstr(d->message, "no missing-delimiter finding on this line"));
    assert_non_null(strstr(d->message, "keylint-disable-next-line is for the line below"));
}

static void disable_file_block_comments(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", "/* keylint-disable-file magic-string -- generated */\n" HEAD GET_LINE "\n");
    assert_int_equal(count(f->p, "magic-string"), 0);
    assert_int_equal(count(f->p, "missing-delimiter"), 1);
    assert_int_equal(count(f->p, "suppression"), 0);

    /* JSDoc style, spread over lines, ids on two lines */
    lint(f, "a.ts", "/**\n * keylint-disable-file magic-string,\n *   missing-delimiter -- old module\n */\n" HEAD GET_LINE "\n");
    assert_int_equal(f->p->diags.items.n, 0);
}

static void next_line_after_a_block_comment(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD "  /* keylint-disable-next-line\n     missing-delimiter */\n" GET_LINE "\n");
    assert_int_equal(count(f->p, "missing-delimiter"), 0);
    assert_int_equal(count(f->p, "suppression"), 0);
}

static void malformed_directives(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts",
         HEAD GET_LINE "\n"
         "// keylint-disable-next-line\n"                       /* row 3 */
         "const a = 1;\n"
         "// keylint-disable-next-line magic-strng -- typo\n"    /* row 5 */
         "const b = 2;\n"
         "// keylint-disable foo\n"                             /* row 7 */
         "/* keylint-disable-file suppression */\n"             /* row 8 */
         "// see the keylint docs; keylint-disable-line is explained there\n");
    assert_int_equal(count(f->p, "magic-string"), 1);
    assert_int_equal(count(f->p, "missing-delimiter"), 1);
    assert_int_equal(count(f->p, "suppression"), 4);
    const char *want[] = {
        "keylint-disable-next-line names no rule: list the rules it suppresses, "
        "as in 'keylint-disable-next-line magic-string -- reason'",
        "unknown rule 'magic-strng' in keylint-disable-next-line (did you mean "
        "'magic-string'?)",
        "unknown directive 'keylint-disable': keylint understands "
        "keylint-disable-next-line, keylint-disable-line and "
        "keylint-disable-file, each followed by rule ids",
        "findings of the suppression rule cannot be suppressed by a directive; "
        "turn it off under 'rules:' in .keylint.yml instead",
    };
    uint32_t rows[] = {3, 5, 7, 8};
    uint32_t cols[] = {0, 29, 3, 24};
    size_t k = 0;
    for (size_t i = 0; i < f->p->diags.items.n; i++) {
        const Diagnostic *d = &f->p->diags.items.v[i];
        if (strcmp(d->rule, "suppression"))
            continue;
        assert_string_equal(d->message, want[k]);
        assert_int_equal(d->span.start_row, rows[k]);
        assert_int_equal(d->span.start_col, cols[k]);
        k++;
    }
}

static void unknown_rule_far_from_any(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD GET_LINE " // keylint-disable-line zzzzzzzzzz, magic-string\n");
    assert_int_equal(count(f->p, "magic-string"), 0);
    const Diagnostic *d = first(f->p, "suppression");
    assert_non_null(d);
    assert_string_equal(d->message, "unknown rule 'zzzzzzzzzz' in keylint-disable-line "
                                    "(see keylint --list-rules)");
}

static void require_reason(void **state)
{
    Fixture *f = *state;
    f->p->defaults->require_suppression_reason = true;
    lint(f, "a.ts",
         HEAD "  // keylint-disable-next-line missing-delimiter\n" GET_LINE
              " // keylint-disable-line magic-string --   \n");
    /* both directives still suppress; each lacks a reason ("--" alone is none) */
    assert_int_equal(count(f->p, "missing-delimiter"), 0);
    assert_int_equal(count(f->p, "magic-string"), 0);
    assert_int_equal(count(f->p, "suppression"), 2);
    assert_non_null(strstr(first(f->p, "suppression")->message,
                           "keylint-disable-next-line has no reason"));

    lint(f, "a.ts",
         HEAD "  // keylint-disable-next-line missing-delimiter -- fixed width\n" GET_LINE
              " // keylint-disable-line magic-string -- legacy\n");
    assert_int_equal(f->p->diags.items.n, 0);
}

static void rule_off_in_configuration(void **state)
{
    Fixture *f = *state;
    Config *c = f->p->defaults;
    RuleSetting off = {.id = "missing-delimiter", .severity = SEV_OFF};
    VEC_PUSH(c->arena, &c->rules, off);
    lint(f, "a.ts", HEAD "  // keylint-disable-next-line missing-delimiter -- x\n" GET_LINE "\n");
    const Diagnostic *d = first(f->p, "suppression");
    assert_non_null(d);
    assert_string_equal(d->message, "'keylint-disable-next-line missing-delimiter' "
                                    "suppresses nothing: missing-delimiter is off in the "
                                    "configuration");
}

static void suppression_rule_off_still_suppresses(void **state)
{
    Fixture *f = *state;
    Config *c = f->p->defaults;
    RuleSetting off = {.id = "suppression", .severity = SEV_OFF};
    VEC_PUSH(c->arena, &c->rules, off);
    lint(f, "a.ts", HEAD "// keylint-disable-next-line missing-delimiter\n" GET_LINE
                         "\n// keylint-disable-next-line\n// keylint-disable-line magic-strng\n");
    assert_int_equal(count(f->p, "missing-delimiter"), 0);
    assert_int_equal(count(f->p, "suppression"), 0);
    assert_int_equal(count(f->p, "magic-string"), 1);
}

static void severity_from_configuration(void **state)
{
    Fixture *f = *state;
    Config *c = f->p->defaults;
    RuleSetting err = {.id = "suppression", .severity = SEV_ERROR};
    VEC_PUSH(c->arena, &c->rules, err);
    lint(f, "a.ts", HEAD GET_LINE "\n// keylint-disable-line magic-string\n");
    assert_int_equal(first(f->p, "suppression")->severity, SEV_ERROR);
}

static void other_files_untouched(void **state)
{
    Fixture *f = *state;
    /* b.ts has a directive for its row 2; a.ts has findings on row 2 too */
    lint(f, "a.ts", HEAD GET_LINE "\n");
    lint(f, "b.ts", "const x = 1;\n// keylint-disable-next-line magic-string, missing-delimiter\n" GET_LINE "\n");
    size_t in_a = 0, unused_in_b = 0;
    for (size_t i = 0; i < f->p->diags.items.n; i++) {
        const Diagnostic *d = &f->p->diags.items.v[i];
        if (strstr(d->path, "a.ts"))
            in_a++;
        if (strstr(d->path, "b.ts"))
            assert_string_equal(d->rule, "suppression");
        else
            assert_string_not_equal(d->rule, "suppression");
        unused_in_b += strstr(d->path, "b.ts") != NULL;
    }
    assert_int_equal(in_a, 2);
    /* b.ts's GET_LINE is not in a function here: whatever it finds on row
     * 2 is suppressed, and ids that found nothing are reported */
    assert_true(unused_in_b <= 2);
    /* the result is sorted */
    for (size_t i = 1; i < f->p->diags.items.n; i++)
        assert_true(strcmp(f->p->diags.items.v[i - 1].path, f->p->diags.items.v[i].path) <= 0);
}

static void reanalysis_is_stable(void **state)
{
    Fixture *f = *state;
    lint(f, "a.ts", HEAD "// keylint-disable-next-line magic-string\n" GET_LINE "\n// keylint-disable-file nope\n");
    size_t n = f->p->diags.items.n;
    project_analyze(f->p);
    assert_int_equal(f->p->diags.items.n, n);
    assert_int_equal(count(f->p, "magic-string"), 0);
    assert_int_equal(count(f->p, "suppression"), 1);
}

/* suppress_file on its own, with hand-made comments and diagnostics */
static void suppress_file_direct(void **state)
{
    (void)state;
    FileIR ir = {.arena = arena_new(), .path = "x.ts"};
    Comment c = {
        .span = {.start_row = 4, .start_col = 2, .end_row = 4, .end_col = 60},
        .text = "// keylint-disable-next-line magic-string -- ok",
    };
    VEC_PUSH(ir.arena, &ir.comments, c);
    Config *cfg = config_default();
    DiagList d;
    diag_init(&d);
    Span row5 = {.start_row = 5, .start_col = 3, .end_row = 5, .end_col = 9};
    Span row6 = {.start_row = 6, .start_col = 3, .end_row = 6, .end_col = 9};
    diag_add(&d, "magic-string", SEV_WARNING, "x.ts", row5, "m1");
    diag_add(&d, "magic-string", SEV_WARNING, "x.ts", row6, "m2");
    diag_add(&d, "magic-string", SEV_WARNING, "y.ts", row5, "other file");
    diag_add(&d, "missing-delimiter", SEV_ERROR, "x.ts", row5, "other rule");
    suppress_file(&d, 0, d.items.n, &ir, cfg);
    assert_int_equal(d.items.v[0].severity, SEV_OFF);
    assert_int_equal(d.items.v[1].severity, SEV_WARNING);
    assert_int_equal(d.items.v[2].severity, SEV_WARNING);
    assert_int_equal(d.items.v[3].severity, SEV_ERROR);
    assert_int_equal(d.items.n, 4); /* used: nothing reported */
    suppress_compact(&d);
    assert_int_equal(d.items.n, 3);
    assert_string_equal(d.items.v[0].message, "m2");

    /* a range that leaves the finding out: the directive is unused */
    diag_add(&d, "magic-string", SEV_WARNING, "x.ts", row5, "m3");
    suppress_file(&d, 0, 3, &ir, cfg);
    assert_int_equal(d.items.n, 5);
    assert_string_equal(d.items.v[4].rule, "suppression");
    assert_string_equal(d.items.v[4].path, "x.ts");
    assert_int_equal(d.items.v[4].span.start_row, 4);
    assert_int_equal(d.items.v[4].span.start_col, 2 + 29);
    assert_int_equal(d.items.v[4].span.start_byte, 29);

    /* no comments: nothing happens */
    FileIR none = {.arena = arena_new(), .path = "x.ts"};
    suppress_file(&d, 0, d.items.n, &none, cfg);
    assert_int_equal(d.items.n, 5);

    diag_free(&d);
    config_free(cfg);
    arena_free(ir.arena);
    arena_free(none.arena);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(unsuppressed_baseline),
        T(next_line_suppresses_only_the_named_rule),
        T(next_line_is_only_the_next_line),
        T(disable_line_with_two_rules),
        T(disable_line_on_its_own_line_is_unused),
        T(disable_file_block_comments),
        T(next_line_after_a_block_comment),
        T(malformed_directives),
        T(unknown_rule_far_from_any),
        T(require_reason),
        T(rule_off_in_configuration),
        T(suppression_rule_off_still_suppresses),
        T(severity_from_configuration),
        T(other_files_untouched),
        T(reanalysis_is_stable),
        cmocka_unit_test(suppress_file_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
