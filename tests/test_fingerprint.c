/* fingerprint.c: UTF-8 decoding, UTF-16 columns, normalised code lines,
 * fingerprints that survive unrelated edits, repository-relative paths. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fingerprint.h"

typedef struct Source {
    const char *path, *text;
} Source;

typedef struct Sources {
    const Source *v;
    size_t n;
} Sources;

static const char *lookup(void *ctx, const char *path, size_t *len)
{
    Sources *s = ctx;
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].path, path)) {
            *len = strlen(s->v[i].text);
            return s->v[i].text;
        }
    return NULL;
}

static Span at(uint32_t row, uint32_t col, uint32_t erow, uint32_t ecol)
{
    return (Span){.start_row = row, .start_col = col, .end_row = erow, .end_col = ecol};
}

static void decode(void **state)
{
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(utf8_decode_one("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(utf8_decode_one("\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(utf8_decode_one("\xe2\x82\xac", 3, &cp), 3);
    assert_int_equal(cp, 0x20AC);
    assert_int_equal(utf8_decode_one("\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    /* invalid: lone continuation, overlong, surrogate, beyond U+10FFFF,
     * truncated, bad continuation */
    assert_int_equal(utf8_decode_one("\x80", 1, &cp), 0);
    assert_int_equal(utf8_decode_one("\xc0\x80", 2, &cp), 0);
    assert_int_equal(utf8_decode_one("\xe0\x80\x80", 3, &cp), 0);
    assert_int_equal(utf8_decode_one("\xed\xa0\x80", 3, &cp), 0);
    assert_int_equal(utf8_decode_one("\xf4\x90\x80\x80", 4, &cp), 0);
    assert_int_equal(utf8_decode_one("\xc3", 1, &cp), 0);
    assert_int_equal(utf8_decode_one("\xc3\x41", 2, &cp), 0);
    assert_int_equal(utf8_decode_one("", 0, &cp), 0);
}

static void utf16_columns(void **state)
{
    (void)state;
    const char *ascii = "abc";
    assert_int_equal(utf16_column(ascii, 3, 0), 1);
    assert_int_equal(utf16_column(ascii, 3, 2), 3);
    assert_int_equal(utf16_column(ascii, 3, 99), 4); /* clamped to the line */
    /* "é" is 2 bytes, 1 unit; "😀" is 4 bytes, 2 units (a surrogate pair) */
    const char *s = "\xc3\xa9x\xf0\x9f\x98\x80y";
    assert_int_equal(utf16_column(s, strlen(s), 2), 2);  /* before x */
    assert_int_equal(utf16_column(s, strlen(s), 3), 3);  /* before 😀 */
    assert_int_equal(utf16_column(s, strlen(s), 7), 5);  /* before y */
    assert_int_equal(utf16_column(s, strlen(s), 8), 6);  /* end */
    /* an invalid byte counts as one unit (U+FFFD) */
    const char *bad = "\xffz";
    assert_int_equal(utf16_column(bad, 2, 1), 2);
}

static void sanitize(void **state)
{
    (void)state;
    Arena *a = arena_new();
    const char *ok = "caf\xc3\xa9";
    assert_ptr_equal(utf8_sanitize(a, ok), ok); /* valid: no copy */
    assert_string_equal(utf8_sanitize(a, "caf\xe9!"), "caf\xef\xbf\xbd!");
    assert_string_equal(utf8_sanitize(a, "\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(utf8_sanitize(a, NULL), "");
    arena_free(a);
}

static void normalize_and_key(void **state)
{
    (void)state;
    Arena *a = arena_new();
    const char *line = "  \tconst   x =\t1;  \r";
    assert_string_equal(fingerprint_normalize(a, line, strlen(line)), "const x = 1;");
    assert_string_equal(fingerprint_normalize(a, "   ", 3), "");
    /* FNV-1a 64 of "magic-string\0src/a.ts\0const x = 1;" */
    assert_true(fingerprint_key("magic-string", "src/a.ts", "const x = 1;") ==
                0x296e37db5a6ac4d1ull);
    assert_true(fingerprint_key("", "", "") == 0x08328807b4eb6fedull);
    /* each part counts, and the parts cannot run into each other */
    uint64_t k = fingerprint_key("r", "p", "c");
    assert_true(fingerprint_key("x", "p", "c") != k);
    assert_true(fingerprint_key("r", "q", "c") != k);
    assert_true(fingerprint_key("r", "p", "d") != k);
    assert_true(fingerprint_key("rp", "", "c") != fingerprint_key("r", "p", "c"));
    arena_free(a);
}

static const char V1[] =
    "const a = `USER#${id}`;\n"
    "const b = `USER#${id}`;\n"
    "const c = 'caf\xc3\xa9 \xf0\x9f\x98\x80' + `X#${y}`;\n";
/* the same code with lines added above and re-indented */
static const char V2[] =
    "// a new header\n"
    "\n"
    "const a =   `USER#${id}`;\n"
    "    const b = `USER#${id}`;\n"
    "const c = 'caf\xc3\xa9 \xf0\x9f\x98\x80' + `X#${y}`;\n";

static void survive_edits(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));

    DiagList d1, d2;
    diag_init(&d1);
    diag_init(&d2);
    /* V1: row 0 col 11, row 1 col 11, row 2 at the template (byte 27) */
    diag_add(&d1, "magic-string", SEV_WARNING, "src/k.ts", at(0, 11, 0, 16), "m");
    diag_add(&d1, "magic-string", SEV_WARNING, "src/k.ts", at(1, 11, 1, 16), "m");
    diag_add(&d1, "magic-string", SEV_WARNING, "src/k.ts", at(2, 30, 2, 32), "m");
    diag_add(&d2, "magic-string", SEV_WARNING, "src/k.ts", at(2, 13, 2, 18), "m");
    diag_add(&d2, "magic-string", SEV_WARNING, "src/k.ts", at(3, 15, 3, 20), "m");
    diag_add(&d2, "magic-string", SEV_WARNING, "src/k.ts", at(4, 30, 4, 32), "m");
    Source s1[] = {{"src/k.ts", V1}}, s2[] = {{"src/k.ts", V2}};
    Sources src1 = {s1, 1}, src2 = {s2, 1};
    FindingList f1, f2;
    findings_build(&f1, &d1, cwd, lookup, &src1);
    findings_build(&f2, &d2, cwd, lookup, &src2);
    assert_int_equal(f1.items.n, 3);

    /* rows a and b hold different code: different keys */
    assert_true(f1.items.v[0].key != f1.items.v[1].key);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(f1.items.v[i].uri_path, "src/k.ts");
        assert_true(f1.items.v[i].under_root);
        assert_string_equal(f1.items.v[i].fingerprint, f2.items.v[i].fingerprint);
        assert_true(f1.items.v[i].key == f2.items.v[i].key);
        assert_int_equal(f2.items.v[i].line, f1.items.v[i].line + 2);
    }
    assert_string_equal(f1.items.v[0].code, "const a = `USER#${id}`;");

    /* positions: the third finding's line has 'é' (2 bytes) and an emoji
     * (4 bytes, 2 UTF-16 units) before byte 30 */
    const Finding *c = &f1.items.v[2];
    assert_int_equal(c->line, 3);
    assert_int_equal(c->col, 31 - 1 - 3);   /* characters: 30 bytes = 27 chars */
    assert_int_equal(c->col16, 31 - 1 - 2); /* UTF-16: 28 units */
    assert_int_equal(c->end_col, c->col + 2);
    assert_int_equal(c->end_col16, c->col16 + 2);
    char want[64];
    snprintf(want, sizeof want, "%016llx:1", (unsigned long long)c->key);
    assert_string_equal(c->fingerprint, want);

    findings_free(&f1);
    findings_free(&f2);
    diag_free(&d1);
    diag_free(&d2);
}

static void occurrences(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    const char *text = "x(`A#${a}`, `A#${a}`);\nx(`A#${a}`, `A#${a}`);\n";
    Source s[] = {{"a.ts", text}, {"b.ts", text}};
    Sources src = {s, 2};
    DiagList d;
    diag_init(&d);
    diag_add(&d, "magic-string", SEV_WARNING, "a.ts", at(0, 2, 0, 4), "m");
    diag_add(&d, "magic-string", SEV_WARNING, "a.ts", at(0, 12, 0, 14), "m");
    diag_add(&d, "magic-string", SEV_WARNING, "a.ts", at(1, 2, 1, 4), "m");
    diag_add(&d, "missing-delimiter", SEV_ERROR, "a.ts", at(1, 2, 1, 4), "m");
    diag_add(&d, "magic-string", SEV_WARNING, "b.ts", at(0, 2, 0, 4), "m");
    FindingList f;
    findings_build(&f, &d, cwd, lookup, &src);
    uint32_t want[] = {1, 2, 3, 1, 1};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(f.items.v[i].occurrence, want[i]);
    assert_true(f.items.v[0].key == f.items.v[2].key);  /* same rule, path, code */
    assert_true(f.items.v[0].key != f.items.v[3].key);  /* another rule */
    assert_true(f.items.v[0].key != f.items.v[4].key);  /* another file */
    assert_string_not_equal(f.items.v[0].fingerprint, f.items.v[1].fingerprint);
    findings_free(&f);

    /* no source: the message stands in for the code, columns from bytes */
    FindingList g;
    findings_build(&g, &d, cwd, NULL, NULL);
    assert_string_equal(g.items.v[0].code, "m");
    assert_int_equal(g.items.v[1].col, 13);
    assert_int_equal(g.items.v[1].col16, 13);
    findings_free(&g);
    diag_free(&d);
}

static void paths_and_root(void **state)
{
    (void)state;
    char saved[PATH_MAX];
    assert_non_null(getcwd(saved, sizeof saved));
    char dir[] = "/tmp/keylint-fp-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    char sub[PATH_MAX + 32], git[PATH_MAX + 32];
    snprintf(sub, sizeof sub, "%s/pkg/src", real);
    snprintf(git, sizeof git, "%s/.git", real);

    /* not in a work tree: the current directory */
    char pkg[PATH_MAX + 32];
    snprintf(pkg, sizeof pkg, "%s/pkg", real);
    assert_int_equal(mkdir(pkg, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(chdir(pkg), 0);
    char *root = findings_root();
    /* (unless /tmp itself is in a work tree, which it is not on CI) */
    if (access("/tmp/.git", F_OK) != 0 && access("/.git", F_OK) != 0)
        assert_string_equal(root, pkg);
    free(root);

    /* in a work tree (a .git directory or file) from a subdirectory */
    FILE *gf = fopen(git, "w");
    assert_non_null(gf);
    fputs("gitdir: elsewhere\n", gf);
    fclose(gf);
    assert_int_equal(chdir(sub), 0);
    root = findings_root();
    assert_string_equal(root, real);

    Arena *a = arena_new();
    bool under = false;
    assert_string_equal(findings_relative(a, root, "x.ts", &under), "pkg/src/x.ts");
    assert_true(under);
    assert_string_equal(findings_relative(a, root, "../lib/./y.ts", &under), "pkg/lib/y.ts");
    assert_true(under);
    assert_string_equal(findings_relative(a, root, "/elsewhere/z.ts", &under), "/elsewhere/z.ts");
    assert_false(under);
    /* a sibling whose name starts like the root is not under it */
    char sibling[PATH_MAX + 32];
    snprintf(sibling, sizeof sibling, "%s-other/z.ts", real);
    assert_string_equal(findings_relative(a, root, sibling, &under), sibling);
    assert_false(under);
    assert_string_equal(findings_relative(a, "/", "/a/b.ts", &under), "a/b.ts");
    assert_true(under);
    arena_free(a);
    free(root);

    assert_int_equal(chdir(saved), 0);
    unlink(git);
    rmdir(sub);
    rmdir(pkg);
    rmdir(real);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode),
        cmocka_unit_test(utf16_columns),
        cmocka_unit_test(sanitize),
        cmocka_unit_test(normalize_and_key),
        cmocka_unit_test(survive_edits),
        cmocka_unit_test(occurrences),
        cmocka_unit_test(paths_and_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
