/* report.c: text and concise output, columns, carets, colour, summary. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "stats.h"

/* ---------------------------------------------------------------- helpers */

typedef struct Source {
    const char *path, *text;
} Source;

typedef struct Sources {
    const Source *v;
    size_t n;
    unsigned calls;
} Sources;

static const char *lookup(void *ctx, const char *path, size_t *len)
{
    Sources *s = ctx;
    s->calls++;
    for (size_t i = 0; i < s->n; i++) {
        if (!strcmp(s->v[i].path, path)) {
            *len = strlen(s->v[i].text);
            return s->v[i].text;
        }
    }
    return NULL;
}

static Span span(uint32_t sr, uint32_t sc, uint32_t er, uint32_t ec)
{
    return (Span){.start_row = sr, .start_col = sc, .end_row = er,
                  .end_col = ec};
}

static Diagnostic *add(DiagList *d, const char *rule, Severity sev,
                       const char *path, Span sp, const char *msg,
                       const char *fix)
{
    Diagnostic *g = diag_add(d, rule, sev, path, sp, "%s", msg);
    if (fix)
        g->fix = arena_strdup(d->arena, fix);
    return g;
}

/* Render with report_text into a string (caller frees). */
static char *render(const DiagList *d, ReportFormat fmt, bool color,
                    Sources *src)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    ReportOptions o = {.format = fmt, .color = color};
    report_text(f, d, &o, src ? lookup : NULL, src);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static char *summary(const DiagList *d, size_t files, bool color)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    ReportOptions o = {.format = REPORT_TEXT, .color = color};
    report_summary(f, d, files, &o);
    assert_int_equal(fclose(f), 0);
    return buf;
}

#define EXPECT_RENDER(d, fmt, color, src, want)                                \
    do {                                                                       \
        char *got_ = render((d), (fmt), (color), (src));                       \
        assert_string_equal(got_, (want));                                     \
        free(got_);                                                            \
    } while (0)

/* ------------------------------------------------------------------ tests */

static const char order_ts[] =
    "import { KEY_SEPARATOR } from './keys';\n"
    "const pk = `ORDER#${id}`;\n"
    "const sk = 'ITEM' + KEY_SEPARATOR + n;\n";

static void test_text_and_concise(void **state)
{
    (void)state;
    Source files[] = {{"src/order.ts", order_ts}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    /* `ORDER#${id}` is bytes 11..24 of line 2 */
    add(&d, "magic-string", SEV_WARNING, "src/order.ts", span(1, 11, 1, 24),
        "inline key prefix \"ORDER#\"", "use a prefix constant");
    add(&d, "mixed-separator", SEV_ERROR, "src/order.ts", span(2, 11, 2, 17),
        "separator differs from the project's", NULL);
    diag_sort(&d);

    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "src/order.ts:2:12: warning: inline key prefix \"ORDER#\" "
                  "[magic-string]\n"
                  "const pk = `ORDER#${id}`;\n"
                  "           ^~~~~~~~~~~~~\n"
                  "  help: use a prefix constant\n"
                  "src/order.ts:3:12: error: separator differs from the "
                  "project's [mixed-separator]\n"
                  "const sk = 'ITEM' + KEY_SEPARATOR + n;\n"
                  "           ^~~~~~\n");
    assert_int_equal(src.calls, 1); /* looked up once per file */

    EXPECT_RENDER(&d, REPORT_CONCISE, false, &src,
                  "src/order.ts:2:12: warning: inline key prefix \"ORDER#\" "
                  "[magic-string]\n"
                  "src/order.ts:3:12: error: separator differs from the "
                  "project's [mixed-separator]\n");

    /* Nothing to print for an empty list. */
    DiagList none;
    diag_init(&none);
    EXPECT_RENDER(&none, REPORT_TEXT, false, &src, "");
    diag_free(&none);
    diag_free(&d);
}

/* A fix the message already states is not repeated as help. */
static void test_fix_not_repeated(void **state)
{
    (void)state;
    Source files[] = {{"src/order.ts", order_ts}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    add(&d, "versioned-sk-read", SEV_ERROR, "src/order.ts", span(1, 11, 1, 24),
        "reads the data table; pass removeSortKeyVersion(sk)", "removeSortKeyVersion(sk)");
    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "src/order.ts:2:12: error: reads the data table; pass "
                  "removeSortKeyVersion(sk) [versioned-sk-read]\n"
                  "const pk = `ORDER#${id}`;\n"
                  "           ^~~~~~~~~~~~~\n");
    diag_free(&d);
}

/* Controls in messages, paths, fixes and source lines are escaped: a line
 * break in a key never starts a line of its own, an ESC never reaches the
 * terminal, and the caret stays under what it marks. */
static void test_controls_escaped(void **state)
{
    (void)state;
    static const char text[] = "k = `A\x1b[1m#${id}` + '\xc2\x85' + `B#${x}`;\n";
    Source files[] = {{"src/a\nb.ts", text}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    /* `B#${x}` is bytes 27..34 */
    add(&d, "magic-string", SEV_WARNING, "src/a\nb.ts", span(0, 27, 0, 34),
        "prefix 'A\x1b[1m#'\n::error::x\r", "use\x7f it");
    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "src/a\\nb.ts:1:27: warning: prefix 'A\\x1b[1m#'\\n::error::x\\r "
                  "[magic-string]\n"
                  "k = `A\\x1b[1m#${id}` + '\\u0085' + `B#${x}`;\n"
                  "                                  ^~~~~~~\n"
                  "  help: use\\x7f it\n");
    diag_free(&d);
}

static void test_multibyte_columns(void **state)
{
    (void)state;
    /* "const s = 'é' + `ÜSER#${x}`;": é and Ü take two bytes each. */
    static const char text[] = "const s = '\xc3\xa9' + `\xc3\x9cSER#${x}`;\n";
    Source files[] = {{"a.ts", text}};
    Sources src = {files, 1, 0};
    const char *tmpl = strchr(text, '`');
    uint32_t start = (uint32_t)(tmpl - text);       /* byte 17 */
    uint32_t end = (uint32_t)(strrchr(text, '`') - text) + 1; /* byte 29 */
    assert_int_equal(start, 17);
    assert_int_equal(end, 29);

    DiagList d;
    diag_init(&d);
    add(&d, "magic-string", SEV_WARNING, "a.ts", span(0, start, 0, end),
        "inline key prefix", NULL);
    /* a span on the multibyte character itself: one caret */
    add(&d, "prefix-case", SEV_WARNING, "a.ts", span(0, 18, 0, 20),
        "prefix case", NULL);
    diag_sort(&d);

    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "a.ts:1:17: warning: inline key prefix [magic-string]\n"
                  "const s = '\xc3\xa9' + `\xc3\x9cSER#${x}`;\n"
                  "                ^~~~~~~~~~~\n"
                  "a.ts:1:18: warning: prefix case [prefix-case]\n"
                  "const s = '\xc3\xa9' + `\xc3\x9cSER#${x}`;\n"
                  "                 ^\n");
    diag_free(&d);
}

static void test_tabs_and_crlf(void **state)
{
    (void)state;
    static const char text[] = "\t\tif (x) {\r\n"
                               "\t\t\treturn q(`A#${b}`);\r\n"
                               "\t\t}\r\n";
    Source files[] = {{"t.ts", text}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    add(&d, "magic-string", SEV_ERROR, "t.ts", span(1, 12, 1, 20),
        "inline key prefix", "use ORDER_PREFIX");
    diag_sort(&d);
    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "t.ts:2:13: error: inline key prefix [magic-string]\n"
                  "\t\t\treturn q(`A#${b}`);\n"
                  "\t\t\t         ^~~~~~~~\n"
                  "  help: use ORDER_PREFIX\n");
    diag_free(&d);
}

static void test_spans_past_the_line(void **state)
{
    (void)state;
    static const char text[] = "const k = {\n"
                               "  pk: a,\n"
                               "};"; /* no final newline */
    Source files[] = {{"m.ts", text}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    /* runs onto the next lines: underlined to the end of the first */
    add(&d, "complex-key", SEV_WARNING, "m.ts", span(0, 10, 2, 1),
        "multi-line", NULL);
    /* ends beyond the end of its own line */
    add(&d, "scan", SEV_WARNING, "m.ts", span(1, 6, 1, 400), "past end", NULL);
    /* starts beyond the end of the line: caret after the last character */
    add(&d, "timestamp-pk", SEV_ERROR, "m.ts", span(1, 50, 1, 60), "far",
        NULL);
    /* an empty span: still one caret */
    add(&d, "unknown-index", SEV_ERROR, "m.ts", span(2, 0, 2, 0), "empty",
        NULL);
    /* a row the text does not have: byte column + 1, no snippet */
    add(&d, "scan", SEV_ERROR, "m.ts", span(9, 4, 9, 8), "no such row",
        "fix it");
    /* a file the lookup does not know */
    add(&d, "scan", SEV_ERROR, "zz.ts", span(3, 7, 3, 9), "no source", NULL);
    diag_sort(&d);

    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "m.ts:1:11: warning: multi-line [complex-key]\n"
                  "const k = {\n"
                  "          ^\n"
                  "m.ts:2:7: warning: past end [scan]\n"
                  "  pk: a,\n"
                  "      ^~\n"
                  "m.ts:2:9: error: far [timestamp-pk]\n"
                  "  pk: a,\n"
                  "        ^\n"
                  "m.ts:3:1: error: empty [unknown-index]\n"
                  "};\n"
                  "^\n"
                  "m.ts:10:5: error: no such row [scan]\n"
                  "  help: fix it\n"
                  "zz.ts:4:8: error: no source [scan]\n");

    /* Without any lookup at all. */
    EXPECT_RENDER(&d, REPORT_CONCISE, false, NULL,
                  "m.ts:1:11: warning: multi-line [complex-key]\n"
                  "m.ts:2:7: warning: past end [scan]\n"
                  "m.ts:2:51: error: far [timestamp-pk]\n"
                  "m.ts:3:1: error: empty [unknown-index]\n"
                  "m.ts:10:5: error: no such row [scan]\n"
                  "zz.ts:4:8: error: no source [scan]\n");
    diag_free(&d);
}

static void test_files_interleaved(void **state)
{
    (void)state;
    Source files[] = {{"a.ts", "one\ntwo\nthree\n"}, {"b.ts", "uno\ndos\n"}};
    Sources src = {files, 2, 0};
    DiagList d;
    diag_init(&d);
    add(&d, "r", SEV_ERROR, "a.ts", span(2, 0, 2, 5), "m3", NULL);
    add(&d, "r", SEV_ERROR, "a.ts", span(0, 1, 0, 2), "m1", NULL);
    add(&d, "r", SEV_ERROR, "b.ts", span(1, 0, 1, 3), "m2", NULL);
    /* not sorted on purpose: rows going back must still be found */
    EXPECT_RENDER(&d, REPORT_TEXT, false, &src,
                  "a.ts:3:1: error: m3 [r]\n"
                  "three\n"
                  "^~~~~\n"
                  "a.ts:1:2: error: m1 [r]\n"
                  "one\n"
                  " ^\n"
                  "b.ts:2:1: error: m2 [r]\n"
                  "dos\n"
                  "^~~\n");
    diag_free(&d);
}

static void test_color(void **state)
{
    (void)state;
    Source files[] = {{"src/a.ts", "\tx = `A#${b}`;\n"}};
    Sources src = {files, 1, 0};
    DiagList d;
    diag_init(&d);
    add(&d, "magic-string", SEV_WARNING, "src/a.ts", span(0, 5, 0, 13),
        "inline key prefix", "use A_PREFIX");
    add(&d, "mixed-separator", SEV_ERROR, "src/a.ts", span(0, 1, 0, 2),
        "mixed", NULL);
    diag_sort(&d);
    EXPECT_RENDER(&d, REPORT_TEXT, true, &src,
                  "\033[1msrc/a.ts:1:2:\033[0m \033[31merror\033[0m: mixed "
                  "\033[2m[mixed-separator]\033[0m\n"
                  "\tx = `A#${b}`;\n"
                  "\t\033[32m^\033[0m\n"
                  "\033[1msrc/a.ts:1:6:\033[0m \033[33mwarning\033[0m: inline "
                  "key prefix \033[2m[magic-string]\033[0m\n"
                  "\tx = `A#${b}`;\n"
                  "\t    \033[32m^~~~~~~~\033[0m\n"
                  "  help: use A_PREFIX\n");
    EXPECT_RENDER(&d, REPORT_CONCISE, true, &src,
                  "\033[1msrc/a.ts:1:2:\033[0m \033[31merror\033[0m: mixed "
                  "\033[2m[mixed-separator]\033[0m\n"
                  "\033[1msrc/a.ts:1:6:\033[0m \033[33mwarning\033[0m: inline "
                  "key prefix \033[2m[magic-string]\033[0m\n");

    char *s = summary(&d, 1, true);
    assert_string_equal(s, "\033[1m1 error, 1 warning in 1 file\033[0m\n");
    free(s);
    diag_free(&d);
}

static void test_summary(void **state)
{
    (void)state;
    DiagList d;
    diag_init(&d);
    char *s = summary(&d, 0, false);
    assert_string_equal(s, "0 errors, 0 warnings in 0 files\n");
    free(s);
    s = summary(&d, 1, false);
    assert_string_equal(s, "0 errors, 0 warnings in 1 file\n");
    free(s);

    add(&d, "a", SEV_ERROR, "x.ts", span(0, 0, 0, 1), "m", NULL);
    s = summary(&d, 1, false);
    assert_string_equal(s, "1 error, 0 warnings in 1 file\n");
    free(s);

    add(&d, "b", SEV_WARNING, "x.ts", span(0, 0, 0, 1), "m", NULL);
    s = summary(&d, 2, false);
    assert_string_equal(s, "1 error, 1 warning in 2 files\n");
    free(s);

    add(&d, "c", SEV_ERROR, "y.ts", span(0, 0, 0, 1), "m", NULL);
    add(&d, "d", SEV_WARNING, "y.ts", span(0, 0, 0, 1), "m", NULL);
    add(&d, "e", SEV_WARNING, "y.ts", span(0, 0, 0, 1), "m", NULL);
    s = summary(&d, 12, false);
    assert_string_equal(s, "2 errors, 3 warnings in 12 files\n");
    free(s);
    diag_free(&d);
}

/* What the run read, in the summary line: counts of 0 left out, singular
 * forms, nothing read said in words; the duration after it. */
static void test_summary_seen(void **state)
{
    (void)state;
    char buf[160];
    report_seen_phrase(buf, sizeof buf, &(SeenCounts){.keys = 12, .ops = 1, .tables = 2});
    assert_string_equal(buf, "12 keys, 1 data operation, 2 tables");
    report_seen_phrase(buf, sizeof buf, &(SeenCounts){.keys = 1, .tables = 1});
    assert_string_equal(buf, "1 key, 1 table");
    report_seen_phrase(buf, sizeof buf, &(SeenCounts){0});
    assert_string_equal(buf, "no DynamoDB keys, data operations or tables");
    report_seen_phrase(buf, 8, &(SeenCounts){.keys = 12345, .ops = 6789});
    assert_string_equal(buf, "12345 k"); /* cut, terminated */

    DiagList d;
    diag_init(&d);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    ReportOptions o = {.seen = &(SeenCounts){.keys = 3, .ops = 2}, .timed = true, .seconds = 0.5};
    report_summary(f, &d, 4, &o);
    o.seen = &(SeenCounts){0};
    o.timed = false;
    report_summary(f, &d, 4, &o);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(out, "0 errors, 0 warnings in 4 files (3 keys, 2 data operations; 0.50 s)\n"
                             "0 errors, 0 warnings in 4 files (no DynamoDB keys, data operations "
                             "or tables)\n");
    free(out);
    diag_free(&d);
}

static void test_utf8_column(void **state)
{
    (void)state;
    static const char line[] = "a\xc3\xa9\xe2\x82\xac" "b\xf0\x9d\x84\x9e" "c";
    size_t n = sizeof line - 1; /* 12 bytes, 6 characters */
    static const struct {
        uint32_t byte, col;
    } cases[] = {
        {0, 1}, {1, 2}, {3, 3}, {6, 4}, {7, 5}, {11, 6}, {12, 7}, {100, 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(utf8_column(line, n, cases[i].byte), cases[i].col);
    assert_int_equal(utf8_column("", 0, 5), 1);
    /* the line length bounds the count, not the NUL */
    assert_int_equal(utf8_column("abcdef", 3, 5), 4);
}

static void set_env(const char *name, const char *value)
{
    if (value)
        assert_int_equal(setenv(name, value, 1), 0);
    else
        assert_int_equal(unsetenv(name), 0);
}

static void test_want_color(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&buf, &n);
    assert_non_null(mem);

    set_env("FORCE_COLOR", NULL);
    set_env("NO_COLOR", NULL);
    assert_false(report_want_color(mem)); /* not a terminal */
    set_env("FORCE_COLOR", "1");
    assert_true(report_want_color(mem));
    set_env("NO_COLOR", "1");
    assert_true(report_want_color(mem)); /* forcing wins */
    set_env("FORCE_COLOR", "0");
    assert_false(report_want_color(mem));
    set_env("FORCE_COLOR", "");
    assert_false(report_want_color(mem));
    set_env("NO_COLOR", NULL);
    set_env("FORCE_COLOR", NULL);

    /* A pseudo-terminal, when the system has them. */
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0) {
        const char *name = ptsname(master);
        FILE *tty = name ? fopen(name, "w") : NULL;
        if (tty) {
            assert_true(report_want_color(tty));
            set_env("NO_COLOR", "");
            assert_true(report_want_color(tty)); /* empty: ignored */
            set_env("NO_COLOR", "1");
            assert_false(report_want_color(tty));
            set_env("FORCE_COLOR", "0");
            assert_false(report_want_color(tty));
            set_env("NO_COLOR", NULL);
            assert_true(report_want_color(tty));
            set_env("FORCE_COLOR", NULL);
            fclose(tty);
        }
    }
    if (master >= 0)
        close(master);
    fclose(mem);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_and_concise),
        cmocka_unit_test(test_controls_escaped),
        cmocka_unit_test(test_fix_not_repeated),
        cmocka_unit_test(test_multibyte_columns),
        cmocka_unit_test(test_tabs_and_crlf),
        cmocka_unit_test(test_spans_past_the_line),
        cmocka_unit_test(test_files_interleaved),
        cmocka_unit_test(test_color),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_summary_seen),
        cmocka_unit_test(test_utf8_column),
        cmocka_unit_test(test_want_color),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
