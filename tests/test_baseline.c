/* baseline.c: writing today's findings, reading them back, absorbing them
 * (counts per key), surviving edits above a finding, and clear errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"

typedef struct Source {
    const char *path, *text;
} Source;

static const char *lookup(void *ctx, const char *path, size_t *len)
{
    const Source *s = ctx;
    if (strcmp(s->path, path))
        return NULL;
    *len = strlen(s->text);
    return s->text;
}

static Span row(uint32_t r)
{
    return (Span){.start_row = r, .start_col = 10, .end_row = r, .end_col = 14};
}

static const char V1[] =
    "const a = `USER#${id}`;\n"
    "const a = `USER#${id}`;\n"
    "const s = `${x}${y}`;\n";
/* V1 with a header added and one more copy of the repeated line */
static const char V2[] =
    "import { x } from './x';\n"
    "// header\n"
    "const a = `USER#${id}`;\n"
    "const a = `USER#${id}`;\n"
    "const s = `${x}${y}`;\n"
    "const a = `USER#${id}`;\n";

typedef struct Fx {
    char dir[64];
    char cwd[PATH_MAX];
    char file[128];
} Fx;

static int setup(void **state)
{
    Fx *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/keylint-baseline-XXXXXX");
    if (!mkdtemp(f->dir) || !getcwd(f->cwd, sizeof f->cwd))
        return -1;
    snprintf(f->file, sizeof f->file, "%s/baseline.json", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fx *f = *state;
    DIR *d = opendir(f->dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char p[PATH_MAX];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", f->dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* Findings of V1 (or V2): magic-string on each USER# line, missing-delimiter
 * on the `${x}${y}` line. */
static void build(const char *text, DiagList *d, FindingList *f, const char *root)
{
    diag_init(d);
    uint32_t rows = 0;
    for (const char *p = text; *p; p++)
        rows += *p == '\n';
    for (uint32_t r = 0; r < rows; r++) {
        const char *line = text;
        for (uint32_t k = 0; k < r; k++)
            line = strchr(line, '\n') + 1;
        if (!strncmp(line, "const a", 7))
            diag_add(d, "magic-string", SEV_WARNING, "src/k.ts", row(r), "inline prefix");
        else if (!strncmp(line, "const s", 7))
            diag_add(d, "missing-delimiter", SEV_ERROR, "src/k.ts", row(r), "joined");
    }
    Source s = {"src/k.ts", text};
    findings_build(f, d, root, lookup, &s);
}

static void write_and_read_back(void **state)
{
    Fx *fx = *state;
    DiagList d;
    FindingList f;
    build(V1, &d, &f, fx->cwd);
    Problems pr;
    problems_init(&pr);
    assert_true(baseline_write(fx->file, &f, &pr));
    assert_int_equal(pr.items.n, 0);

    /* the file: versioned JSON, one entry per key with its count, sorted */
    json_error_t err;
    json_t *root = json_load_file(fx->file, 0, &err);
    assert_non_null(root);
    assert_int_equal(json_integer_value(json_object_get(root, "version")), 1);
    assert_string_equal(json_string_value(json_object_get(root, "tool")), "keylint");
    json_t *entries = json_object_get(root, "entries");
    assert_int_equal(json_array_size(entries), 2);
    json_t *e0 = json_array_get(entries, 0), *e1 = json_array_get(entries, 1);
    assert_string_equal(json_string_value(json_object_get(e0, "rule")), "magic-string");
    assert_string_equal(json_string_value(json_object_get(e0, "path")), "src/k.ts");
    assert_string_equal(json_string_value(json_object_get(e0, "code")), "const a = `USER#${id}`;");
    assert_int_equal(json_integer_value(json_object_get(e0, "count")), 2);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)f.items.v[0].key);
    assert_string_equal(json_string_value(json_object_get(e0, "fingerprint")), hex);
    assert_string_equal(json_string_value(json_object_get(e1, "rule")), "missing-delimiter");
    assert_int_equal(json_integer_value(json_object_get(e1, "count")), 1);
    json_decref(root);

    /* no temporary file is left beside it */
    DIR *dir = opendir(fx->dir);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(dir)))
        if (de->d_name[0] != '.')
            files++;
    closedir(dir);
    assert_int_equal(files, 1);

    /* read back: everything absorbed */
    Baseline *b = baseline_load(fx->file, &pr);
    assert_non_null(b);
    assert_int_equal(baseline_size(b), 3);
    bool keep[3];
    assert_int_equal(baseline_filter(b, &f, keep), 3);
    assert_false(keep[0] || keep[1] || keep[2]);
    baseline_free(b);
    problems_free(&pr);
    findings_free(&f);
    diag_free(&d);
}

static void edits_above_do_not_bring_findings_back(void **state)
{
    Fx *fx = *state;
    DiagList d1, d2;
    FindingList f1, f2;
    build(V1, &d1, &f1, fx->cwd);
    build(V2, &d2, &f2, fx->cwd);
    Problems pr;
    problems_init(&pr);
    assert_true(baseline_write(fx->file, &f1, &pr));
    Baseline *b = baseline_load(fx->file, &pr);
    assert_non_null(b);
    /* V2: lines moved down by two; a third copy of the USER# line */
    assert_int_equal(f2.items.n, 4);
    bool keep[4];
    assert_int_equal(baseline_filter(b, &f2, keep), 3);
    /* the first two copies are absorbed (count 2), the third is new */
    assert_false(keep[0]);
    assert_false(keep[1]);
    assert_false(keep[2]); /* missing-delimiter, moved */
    assert_true(keep[3]);
    assert_int_equal(f2.items.v[3].line, 6);
    baseline_free(b);

    /* a finding whose line changed is new */
    DiagList d3;
    FindingList f3;
    build("const a = `USER#${userId}`;\n", &d3, &f3, fx->cwd);
    b = baseline_load(fx->file, &pr);
    bool k3[1];
    assert_int_equal(baseline_filter(b, &f3, k3), 0);
    assert_true(k3[0]);
    baseline_free(b);

    /* no baseline: everything kept */
    assert_int_equal(baseline_filter(NULL, &f3, k3), 0);
    assert_true(k3[0]);

    problems_free(&pr);
    findings_free(&f1);
    findings_free(&f2);
    findings_free(&f3);
    diag_free(&d1);
    diag_free(&d2);
    diag_free(&d3);
}

/* Write `text` to the fixture's baseline file and load it; returns the
 * single problem's message ("" when it loaded). */
static char *load_text(Fx *fx, const char *text, uint32_t *line)
{
    FILE *f = fopen(fx->file, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    Problems pr;
    problems_init(&pr);
    Baseline *b = baseline_load(fx->file, &pr);
    char *msg;
    if (b) {
        assert_int_equal(pr.items.n, 0);
        msg = strdup("");
    } else {
        assert_int_equal(pr.items.n, 1);
        assert_string_equal(pr.items.v[0].path, fx->file);
        msg = strdup(pr.items.v[0].message);
        if (line)
            *line = pr.items.v[0].line;
    }
    baseline_free(b);
    problems_free(&pr);
    return msg;
}

static void errors_name_the_file(void **state)
{
    Fx *fx = *state;
    Problems pr;
    problems_init(&pr);
    char missing[128];
    snprintf(missing, sizeof missing, "%s/nope.json", fx->dir);
    assert_null(baseline_load(missing, &pr));
    assert_int_equal(pr.items.n, 1);
    assert_string_equal(pr.items.v[0].path, missing);
    assert_string_equal(pr.items.v[0].message,
                        "cannot read the baseline: No such file or directory");
    problems_free(&pr);

    struct {
        const char *text, *want;
    } cases[] = {
        {"{\"version\": 1,\n \"entries\": [ }\n", "malformed baseline (not JSON): "},
        {"[]", "not a keylint baseline: the top level must be an object"},
        {"{\"entries\": []}", "not a keylint baseline: no integer \"version\""},
        {"{\"version\": 2, \"entries\": []}",
         "baseline version 2 is not supported (this keylint reads version 1)"},
        {"{\"version\": 1}", "not a keylint baseline: \"entries\" must be an array"},
        {"{\"version\": 1, \"entries\": [{\"fingerprint\": \"xyz\", \"count\": 1}]}",
         "bad baseline entry 1: \"fingerprint\" must be a string of 16 hex digits"},
        {"{\"version\": 1, \"entries\": [{\"fingerprint\": \"0123456789abcdef\", \"count\": 0}]}",
         "bad baseline entry 1: \"count\" must be a positive integer"},
        {"{\"version\": 1, \"entries\": [{\"fingerprint\": \"0123456789abcdef\"}]}",
         "bad baseline entry 1: \"count\" must be a positive integer"},
        {"{\"version\": 1, \"entries\": [{\"fingerprint\": \"0123456789abcdef0\", \"count\": 1}]}",
         "bad baseline entry 1: \"fingerprint\" must be a string of 16 hex digits"},
        {"", "malformed baseline (not JSON): "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t line = 0;
        char *msg = load_text(fx, cases[i].text, &line);
        if (strncmp(msg, cases[i].want, strlen(cases[i].want)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, msg, cases[i].want);
        if (i == 0)
            assert_int_equal(line, 2); /* JSON errors carry the line */
        free(msg);
    }

    /* an empty baseline and one with a repeated key (hand-merged) are fine */
    char *msg = load_text(fx, "{\"version\": 1, \"entries\": []}", NULL);
    assert_string_equal(msg, "");
    free(msg);
    msg = load_text(fx,
                    "{\"version\": 1, \"tool\": \"keylint\", \"entries\": ["
                    "{\"fingerprint\": \"00000000000000AA\", \"count\": 1},"
                    "{\"fingerprint\": \"00000000000000aa\", \"count\": 2}]}",
                    NULL);
    assert_string_equal(msg, "");
    free(msg);
    problems_init(&pr);
    Baseline *b = baseline_load(fx->file, &pr);
    assert_int_equal(baseline_size(b), 3);
    baseline_free(b);
    problems_free(&pr);
}

static void write_errors(void **state)
{
    Fx *fx = *state;
    DiagList d;
    FindingList f;
    build(V1, &d, &f, fx->cwd);
    Problems pr;
    problems_init(&pr);
    char bad[160];
    snprintf(bad, sizeof bad, "%s/no/such/dir/b.json", fx->dir);
    assert_false(baseline_write(bad, &f, &pr));
    assert_int_equal(pr.items.n, 1);
    assert_string_equal(pr.items.v[0].path, bad);
    assert_string_equal(pr.items.v[0].message,
                        "cannot write the baseline: No such file or directory");
    problems_free(&pr);
    findings_free(&f);
    diag_free(&d);

    /* an empty project writes an empty, loadable baseline */
    DiagList none;
    diag_init(&none);
    FindingList fn;
    findings_build(&fn, &none, fx->cwd, NULL, NULL);
    problems_init(&pr);
    assert_true(baseline_write(fx->file, &fn, &pr));
    Baseline *b = baseline_load(fx->file, &pr);
    assert_non_null(b);
    assert_int_equal(baseline_size(b), 0);
    baseline_free(b);
    problems_free(&pr);
    findings_free(&fn);
    diag_free(&none);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(write_and_read_back),
        T(edits_above_do_not_bring_findings_back),
        T(errors_name_the_file),
        T(write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
