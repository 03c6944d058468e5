/* output.c: JSON, SARIF, GitHub workflow commands and the Markdown step
 * summary, for a small list of findings: exact text where the format is
 * ours, the document parsed back with jansson and checked field by field
 * where a consumer reads it, UTF-16 columns on non-ASCII lines, and
 * invalid UTF-8 that never breaks a document. (The SARIF log is also run
 * through Microsoft's validator by tests/sarif_test.sh.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "stats.h"
#include "rule.h"

typedef struct Source {
    const char *path, *text;
} Source;

static const char *lookup(void *ctx, const char *path, size_t *len)
{
    for (const Source *s = ctx; s->path; s++)
        if (!strcmp(s->path, path)) {
            *len = strlen(s->text);
            return s->text;
        }
    return NULL;
}

static Span at(uint32_t row, uint32_t col, uint32_t ecol)
{
    return (Span){.start_row = row, .start_col = col, .end_row = row, .end_col = ecol};
}

/* src/a.ts: an ASCII line and a line with 'é' and an emoji before the
 * flagged text. */
static const char A_TS[] =
    "const k = { pk: `USER#${id}`, sk: `${a}${b}` };\n"
    "const t = 'caf\xc3\xa9 \xf0\x9f\x98\x80', u = `X#${y}`;\n";

typedef struct Fx {
    char cwd[PATH_MAX];
    DiagList d;
    FindingList f;
    Problems pr;
    Source src[3];
} Fx;

static int setup(void **state)
{
    Fx *fx = calloc(1, sizeof *fx);
    if (!getcwd(fx->cwd, sizeof fx->cwd))
        return -1;
    diag_init(&fx->d);
    problems_init(&fx->pr);
    fx->src[0] = (Source){"src/a.ts", A_TS};
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fx *fx = *state;
    findings_free(&fx->f);
    diag_free(&fx->d);
    problems_free(&fx->pr);
    free(fx);
    return 0;
}

/* The standard list: an error with a fix, a warning, a warning on the
 * non-ASCII line (byte 30: 26 characters or 27 UTF-16 units in). */
static void standard(Fx *fx)
{
    Diagnostic *g = diag_add(&fx->d, "missing-delimiter", SEV_ERROR, "src/a.ts",
                             at(0, 34, 44), "'a' and 'b' are joined with nothing between them");
    g->fix = arena_strdup(fx->d.arena, "put '#' between them");
    diag_add(&fx->d, "magic-string", SEV_WARNING, "src/a.ts", at(0, 16, 28),
             "inline key prefix 'USER#'");
    diag_add(&fx->d, "magic-string", SEV_WARNING, "src/a.ts", at(1, 30, 32),
             "inline key prefix 'X#'");
    diag_sort(&fx->d);
    findings_build(&fx->f, &fx->d, fx->cwd, lookup, fx->src);
}

static OutputInput input(Fx *fx)
{
    return (OutputInput){
        .findings = &fx->f, .problems = &fx->pr, .files_linted = 2, .root = fx->cwd,
    };
}

typedef bool (*Writer)(FILE *, const OutputInput *);

static char *render(Writer w, const OutputInput *in)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    assert_true(w(f, in));
    assert_int_equal(fclose(f), 0);
    return buf;
}

static bool github(FILE *f, const OutputInput *in)
{
    output_github(f, in);
    return true;
}

static bool markdown(FILE *f, const OutputInput *in)
{
    output_markdown_summary(f, in, 2);
    return true;
}

static json_t *parse(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    if (!j)
        fail_msg("not JSON: %s at %d:%d\n%s", err.text, err.line, err.column, text);
    return j;
}

/* ---- JSON ------------------------------------------------------------ */

static void json_exact(void **state)
{
    Fx *fx = *state;
    standard(fx);
    problems_add(&fx->pr, "src/bad.ts", 3, 7, "syntax error");
    OutputInput in = input(fx);
    in.baselined = 4;
    /* each finding links its rule's page ($KEYLINT_DOCS_URL's, here) */
    setenv("KEYLINT_DOCS_URL", "https://example.com/rules/{rule}.html", 1);
    char *out = render(output_json, &in);
    unsetenv("KEYLINT_DOCS_URL");
    char fp[3][32];
    for (size_t i = 0; i < 3; i++)
        snprintf(fp[i], sizeof fp[i], "%s", fx->f.items.v[i].fingerprint);
    char *want = NULL;
    assert_true(asprintf(&want,
        "{\n"
        "  \"version\": 1,\n"
        "  \"tool\": {\n"
        "    \"name\": \"keylint\",\n"
        "    \"version\": \"%s\"\n"
        "  },\n"
        "  \"findings\": [\n"
        "    {\n"
        "      \"rule\": \"magic-string\",\n"
        "      \"severity\": \"warning\",\n"
        "      \"message\": \"inline key prefix 'USER#'\",\n"
        "      \"path\": \"src/a.ts\",\n"
        "      \"line\": 1,\n"
        "      \"column\": 17,\n"
        "      \"endLine\": 1,\n"
        "      \"endColumn\": 29,\n"
        "      \"fingerprint\": \"%s\",\n"
        "      \"helpUri\": \"https://example.com/rules/magic-string.html\"\n"
        "    },\n"
        "    {\n"
        "      \"rule\": \"missing-delimiter\",\n"
        "      \"severity\": \"error\",\n"
        "      \"message\": \"'a' and 'b' are joined with nothing between them\",\n"
        "      \"path\": \"src/a.ts\",\n"
        "      \"line\": 1,\n"
        "      \"column\": 35,\n"
        "      \"endLine\": 1,\n"
        "      \"endColumn\": 45,\n"
        "      \"fingerprint\": \"%s\",\n"
        "      \"helpUri\": \"https://example.com/rules/missing-delimiter.html\",\n"
        "      \"fix\": \"put '#' between them\"\n"
        "    },\n"
        "    {\n"
        "      \"rule\": \"magic-string\",\n"
        "      \"severity\": \"warning\",\n"
        "      \"message\": \"inline key prefix 'X#'\",\n"
        "      \"path\": \"src/a.ts\",\n"
        "      \"line\": 2,\n"
        "      \"column\": 27,\n"
        "      \"endLine\": 2,\n"
        "      \"endColumn\": 29,\n"
        "      \"fingerprint\": \"%s\",\n"
        "      \"helpUri\": \"https://example.com/rules/magic-string.html\"\n"
        "    }\n"
        "  ],\n"
        "  \"problems\": [\n"
        "    {\n"
        "      \"level\": \"error\",\n"
        "      \"path\": \"src/bad.ts\",\n"
        "      \"line\": 3,\n"
        "      \"column\": 7,\n"
        "      \"message\": \"syntax error\"\n"
        "    }\n"
        "  ],\n"
        "  \"summary\": {\n"
        "    \"errors\": 1,\n"
        "    \"warnings\": 2,\n"
        "    \"filesLinted\": 2,\n"
        "    \"problems\": 1,\n"
        "    \"notes\": 0,\n"
        "    \"baselined\": 4\n"
        "  }\n"
        "}\n",
        KEYLINT_VERSION, fp[0], fp[1], fp[2]) > 0);
    assert_string_equal(out, want);

    /* and it parses back to the same values */
    json_t *j = parse(out);
    json_t *f1 = json_array_get(json_object_get(j, "findings"), 1);
    assert_string_equal(json_string_value(json_object_get(f1, "fix")), "put '#' between them");
    assert_int_equal(json_integer_value(json_object_get(f1, "column")), 35);
    assert_string_equal(json_string_value(json_object_get(f1, "fingerprint")), fp[1]);
    assert_non_null(strchr(fp[1], ':'));
    json_decref(j);
    free(want);
    free(out);
}

static void json_empty(void **state)
{
    Fx *fx = *state;
    findings_build(&fx->f, &fx->d, fx->cwd, NULL, NULL);
    OutputInput in = input(fx);
    in.problems = NULL;
    char *out = render(output_json, &in);
    json_t *j = parse(out);
    assert_int_equal(json_array_size(json_object_get(j, "findings")), 0);
    assert_int_equal(json_array_size(json_object_get(j, "problems")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"), "errors")), 0);
    json_decref(j);
    free(out);
}

/* ---- SARIF ----------------------------------------------------------- */

static json_t *get(json_t *j, const char *path)
{
    /* "a.b.0.c": object keys and array indexes */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "."); tok && j; tok = strtok(NULL, ".")) {
        if (json_is_array(j))
            j = json_array_get(j, (size_t)atoi(tok));
        else
            j = json_object_get(j, tok);
    }
    if (!j)
        fail_msg("no %s", path);
    return j;
}

static const char *str(json_t *j, const char *path)
{
    json_t *v = get(j, path);
    if (!json_is_string(v))
        fail_msg("%s is not a string", path);
    return json_string_value(v);
}

static long long num(json_t *j, const char *path)
{
    json_t *v = get(j, path);
    if (!json_is_integer(v))
        fail_msg("%s is not an integer", path);
    return json_integer_value(v);
}

static void sarif_structure(void **state)
{
    Fx *fx = *state;
    standard(fx);
    OutputInput in = input(fx);
    char *out = render(output_sarif, &in);
    json_t *j = parse(out);
    assert_string_equal(str(j, "version"), "2.1.0");
    assert_non_null(strstr(str(j, "$schema"), "sarif-2.1.0"));
    assert_int_equal(json_array_size(get(j, "runs")), 1);
    json_t *run = get(j, "runs.0");
    assert_string_equal(str(run, "tool.driver.name"), "keylint");
    assert_string_equal(str(run, "tool.driver.version"), KEYLINT_VERSION);
    /* no informationUri: keylint has no published home page to point at */
    assert_null(json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "informationUri"));
    assert_string_equal(str(run, "columnKind"), "utf16CodeUnits");

    /* rules: the registry, in order, with docs */
    json_t *rules = get(run, "tool.driver.rules");
    size_t nrules = 0;
    for (const RuleDesc *const *r = keylint_rules; *r; r++, nrules++) {
        json_t *rj = json_array_get(rules, nrules);
        assert_non_null(rj);
        assert_string_equal(str(rj, "id"), (*r)->id);
        assert_non_null(strstr(str(rj, "shortDescription.text"), (*r)->summary));
        assert_true(strlen(str(rj, "fullDescription.text")) > 0);
        assert_string_equal(str(rj, "help.text"), rule_docs((*r)->id));
        assert_string_equal(str(rj, "help.markdown"), rule_docs((*r)->id));
        assert_string_equal(str(rj, "defaultConfiguration.level"),
                            severity_name((*r)->default_severity));
        /* helpUri: the rule's page in the source tree this test was built in */
        char page[128];
        snprintf(page, sizeof page, "/docs/rules/%s.md", (*r)->id);
        const char *uri = str(rj, "helpUri");
        assert_true(!strncmp(uri, "file:///", 8));
        assert_true(strlen(uri) > strlen(page) &&
                    !strcmp(uri + strlen(uri) - strlen(page), page));
        json_t *name = json_object_get(rj, "name");
        if (name)
            assert_true(strcasecmp(json_string_value(name), (*r)->id) != 0);
    }
    assert_int_equal(json_array_size(rules), nrules);
    for (size_t i = 0; i < nrules; i++)
        if (!strcmp(keylint_rules[i]->id, "magic-string"))
            assert_string_equal(str(rules, arena_printf(fx->d.arena, "%zu.name", i)),
                                "MagicString");

    /* results */
    json_t *results = get(run, "results");
    assert_int_equal(json_array_size(results), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *r = json_array_get(results, i);
        const char *id = str(r, "ruleId");
        long long idx = num(r, "ruleIndex");
        assert_string_equal(str(rules, arena_printf(fx->d.arena, "%lld.id", idx)), id);
        const char *text = str(r, "message.text");
        assert_int_equal(text[strlen(text) - 1], '.');
        assert_string_equal(str(r, "locations.0.physicalLocation.artifactLocation.uri"), "src/a.ts");
        assert_string_equal(str(r, "locations.0.physicalLocation.artifactLocation.uriBaseId"),
                            "%SRCROOT%");
        assert_string_equal(str(r, "partialFingerprints." KEYLINT_FINGERPRINT_NAME),
                            fx->f.items.v[i].fingerprint);
    }
    json_t *r0 = json_array_get(results, 0), *r1 = json_array_get(results, 1),
           *r2 = json_array_get(results, 2);
    assert_string_equal(str(r0, "level"), "warning");
    assert_string_equal(str(r1, "level"), "error");
    assert_string_equal(str(r1, "message.text"),
                        "'a' and 'b' are joined with nothing between them. "
                        "Suggested fix: put '#' between them.");
    assert_int_equal(num(r0, "locations.0.physicalLocation.region.startLine"), 1);
    assert_int_equal(num(r0, "locations.0.physicalLocation.region.startColumn"), 17);
    assert_int_equal(num(r0, "locations.0.physicalLocation.region.endColumn"), 29);
    /* the non-ASCII line: 27 UTF-16 units before the finding (26
     * characters: the JSON says column 27) */
    assert_int_equal(num(r2, "locations.0.physicalLocation.region.startLine"), 2);
    assert_int_equal(num(r2, "locations.0.physicalLocation.region.startColumn"), 28);
    assert_int_equal(num(r2, "locations.0.physicalLocation.region.endLine"), 2);
    assert_int_equal(num(r2, "locations.0.physicalLocation.region.endColumn"), 30);

    /* the root, as an absolute file URI ending in '/' */
    const char *base = str(run, "originalUriBaseIds.%SRCROOT%.uri");
    assert_true(!strncmp(base, "file:///", 8));
    assert_int_equal(base[strlen(base) - 1], '/');
    assert_true(json_is_true(get(run, "invocations.0.executionSuccessful")));
    assert_int_equal(json_array_size(get(run, "invocations.0.toolExecutionNotifications")), 0);
    json_decref(j);
    free(out);
}

static void sarif_problems_and_odd_paths(void **state)
{
    Fx *fx = *state;
    fx->src[0] = (Source){"src/my file#1.ts", "const k = `A#${b}`;\n"};
    diag_add(&fx->d, "magic-string", SEV_WARNING, "src/my file#1.ts", at(0, 11, 13), "m");
    diag_add(&fx->d, "magic-string", SEV_WARNING, "/elsewhere/x.ts", at(0, 0, 1), "m");
    diag_sort(&fx->d);
    findings_build(&fx->f, &fx->d, fx->cwd, lookup, fx->src);
    problems_add(&fx->pr, "src/bin.ts", 0, 0, "binary file; skipped");
    problems_add(&fx->pr, "src/t.ts", 4, 2, "syntax error");
    problems_add(&fx->pr, "", 0, 0, "bad option");
    OutputInput in = input(fx);
    char *out = render(output_sarif, &in);
    json_t *j = parse(out);
    json_t *run = get(j, "runs.0");
    /* outside the root: an absolute file URI, no base id */
    json_t *r0 = get(run, "results.0.locations.0.physicalLocation.artifactLocation");
    assert_string_equal(str(r0, "uri"), "file:///elsewhere/x.ts");
    assert_null(json_object_get(r0, "uriBaseId"));
    /* percent-encoded */
    assert_string_equal(str(run, "results.1.locations.0.physicalLocation.artifactLocation.uri"),
                        "src/my%20file%231.ts");
    /* problems are notifications, and the run is not "successful" */
    assert_true(json_is_false(get(run, "invocations.0.executionSuccessful")));
    json_t *notes = get(run, "invocations.0.toolExecutionNotifications");
    assert_int_equal(json_array_size(notes), 3);
    assert_string_equal(str(notes, "0.level"), "error");
    assert_string_equal(str(notes, "0.message.text"), "src/bin.ts: binary file; skipped.");
    assert_string_equal(str(notes, "0.locations.0.physicalLocation.artifactLocation.uri"),
                        "src/bin.ts");
    assert_null(json_object_get(get(notes, "0.locations.0.physicalLocation"), "region"));
    assert_int_equal(num(notes, "1.locations.0.physicalLocation.region.startLine"), 4);
    assert_int_equal(num(notes, "1.locations.0.physicalLocation.region.startColumn"), 2);
    assert_string_equal(str(notes, "2.message.text"), "bad option.");
    assert_null(json_object_get(json_array_get(notes, 2), "locations"));
    json_decref(j);
    free(out);
}

/* ---- invalid UTF-8 ----------------------------------------------------- */

static void invalid_utf8_never_breaks_documents(void **state)
{
    Fx *fx = *state;
    fx->src[0] = (Source){"src/odd\xff.ts", "const k = `A#${b}`; // caf\xe9\n"};
    Diagnostic *g = diag_add(&fx->d, "magic-string", SEV_WARNING, "src/odd\xff.ts",
                             at(0, 11, 13), "prefix 'caf\xe9' \xc0\x80 here");
    g->fix = arena_strdup(fx->d.arena, "use \xed\xa0\x80");
    findings_build(&fx->f, &fx->d, fx->cwd, lookup, fx->src);
    problems_add(&fx->pr, "src/\xfe.ts", 1, 1, "not valid UTF-8 \xff");
    OutputInput in = input(fx);

    char *out = render(output_json, &in);
    json_t *j = parse(out);
    assert_string_equal(str(j, "findings.0.message"),
                        "prefix 'caf\xef\xbf\xbd' \xef\xbf\xbd\xef\xbf\xbd here");
    assert_string_equal(str(j, "findings.0.path"), "src/odd\xef\xbf\xbd.ts");
    assert_string_equal(str(j, "findings.0.fix"), "use \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    assert_string_equal(str(j, "problems.0.path"), "src/\xef\xbf\xbd.ts");
    json_decref(j);
    free(out);

    out = render(output_sarif, &in);
    j = parse(out);
    assert_string_equal(str(j, "runs.0.results.0.locations.0.physicalLocation.artifactLocation.uri"),
                        "src/odd%FF.ts");
    assert_non_null(strstr(str(j, "runs.0.results.0.message.text"), "caf\xef\xbf\xbd"));
    json_decref(j);
    free(out);
}

/* ---- GitHub ------------------------------------------------------------ */

static void github_exact(void **state)
{
    Fx *fx = *state;
    standard(fx);
    problems_add(&fx->pr, "src/bad.ts", 3, 7, "%s", "syntax error: 100%");
    problems_add(&fx->pr, "", 0, 0, "no paths");
    OutputInput in = input(fx);
    char *out = render(github, &in);
    assert_string_equal(out,
        "::error file=src/bad.ts,line=3,col=7,title=keylint::syntax error: 100%25\n"
        "::error title=keylint::no paths\n"
        "::warning file=src/a.ts,line=1,col=17,endLine=1,endColumn=29,"
        "title=keylint magic-string::inline key prefix 'USER#'\n"
        "::error file=src/a.ts,line=1,col=35,endLine=1,endColumn=45,"
        "title=keylint missing-delimiter::'a' and 'b' are joined with nothing "
        "between them%0Ahelp: put '#' between them\n"
        "::warning file=src/a.ts,line=2,col=27,endLine=2,endColumn=29,"
        "title=keylint magic-string::inline key prefix 'X#'\n");
    free(out);
}

static void github_escaping(void **state)
{
    (void)state;
    Arena *a = arena_new();
    assert_string_equal(github_escape(a, "50% a:b,c\r\nd", false), "50%25 a:b,c%0D%0Ad");
    assert_string_equal(github_escape(a, "50% a:b,c\r\nd", true), "50%25 a%3Ab%2Cc%0D%0Ad");
    /* other controls are written as escapes, not sent to the log */
    assert_string_equal(github_escape(a, "a\x1b[1m\x7f\xc2\x85\xc3\xa9\tb", false),
                        "a\\x1b[1m\\x7f\\u0085\xc3\xa9\tb");
    assert_string_equal(uri_encode_path(a, "a b/c%d#e?f/\xc3\xa9"), "a%20b/c%25d%23e%3Ff/%C3%A9");
    assert_string_equal(sarif_rule_name(a, "missing-delimiter"), "MissingDelimiter");
    assert_string_equal(sarif_rule_name(a, "scan"), "Scan");
    arena_free(a);

    Fx fx0 = {0};
    Fx *fx = &fx0;
    assert_non_null(getcwd(fx->cwd, sizeof fx->cwd));
    diag_init(&fx->d);
    problems_init(&fx->pr);
    diag_add(&fx->d, "magic-string", SEV_WARNING, "src/a,b:c.ts", at(0, 0, 3), "%s", "x%y\nz, w: v");
    findings_build(&fx->f, &fx->d, fx->cwd, NULL, NULL);
    OutputInput in = input(fx);
    char *out = render(github, &in);
    assert_string_equal(out, "::warning file=src/a%2Cb%3Ac.ts,line=1,col=1,endLine=1,endColumn=4,"
                             "title=keylint magic-string::x%25y%0Az, w: v\n");
    free(out);
    findings_free(&fx->f);
    diag_free(&fx->d);
    problems_free(&fx->pr);
}

static void markdown_exact(void **state)
{
    Fx *fx = *state;
    standard(fx);
    problems_add(&fx->pr, "src/bad.ts", 3, 7, "syntax error <here>");
    OutputInput in = input(fx);
    in.baselined = 1;
    in.seen = &(SeenCounts){.keys = 5, .ops = 2, .tables = 1};
    char *out = render(markdown, &in);
    assert_string_equal(out,
        "### keylint\n"
        "\n"
        "**1 error, 2 warnings** in 2 files. 1 finding in the baseline is not shown. "
        "Read: 5 keys, 2 data operations, 1 table.\n"
        "\n"
        "| rule | severity | count |\n"
        "| --- | --- | ---: |\n"
        "| missing-delimiter | error | 1 |\n"
        "| magic-string | warning | 2 |\n"
        "\n"
        "| location | rule | severity | message |\n"
        "| --- | --- | --- | --- |\n"
        "| src/a.ts:1:17 | magic-string | warning | inline key prefix 'USER\\#' |\n"
        "| src/a.ts:1:35 | missing-delimiter | error | 'a' and 'b' are joined with nothing between them |\n"
        "\n"
        "1 more finding not listed here (see the annotations or the SARIF report).\n"
        "\n"
        "1 input problem (files keylint could not lint):\n"
        "\n"
        "- src/bad.ts:3: syntax error &lt;here&gt;\n"
        "\n");
    free(out);
}

static void markdown_clean(void **state)
{
    Fx *fx = *state;
    findings_build(&fx->f, &fx->d, fx->cwd, NULL, NULL);
    OutputInput in = input(fx);
    in.files_linted = 1;
    char *out = render(markdown, &in);
    assert_string_equal(out, "### keylint\n\nNo findings in 1 file.\n\n");
    free(out);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(json_exact),
        T(json_empty),
        T(sarif_structure),
        T(sarif_problems_and_odd_paths),
        T(invalid_utf8_never_breaks_documents),
        T(github_exact),
        cmocka_unit_test(github_escaping),
        T(markdown_exact),
        T(markdown_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
