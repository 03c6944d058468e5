/* The fixture suite: every directory under fixtures/ is a small project
 * whose expected findings are written next to the offending line:
 *
 *     const pk = `ORDER#${id}`; // expect: magic-string, missing-tenant
 *
 * One test per directory lints it through the whole pipeline and compares
 * the findings of the rules it is about with the expectations, exactly: a
 * missing finding and an unexpected one both fail. The rules a directory
 * is about are the rule its name names (fixtures/<rule-id>/) and every rule
 * an expect comment in it names. A directory must lint without input
 * problems. Adding a case is adding a file.
 *
 * An expectation may also state the finding's severity and its related
 * places (its evidence), which must then be exactly those:
 *
 *     // expect: unknown-index@error[template.yaml:12]
 *     // expect: mixed-separator@error[src/keys.ts:4; 9]
 *     // expect: partition-key-range@warning[]
 *
 * `@error`/`@warning` checks the severity; `[...]` lists the related places
 * (`path:line` relative to the fixture directory, or a bare line of the
 * same file), `[]` none. Without them the severity and the related places
 * are not checked. Every error-level finding in the fixtures must carry a
 * related place (the evidence; `schema` excepted: it is reported in the
 * definition it judges), and each rule whose default severity is error has
 * at least one expectation stating both (the last test). */
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
#include "project.h"
#include "rule.h"

enum { MAX_EXPECT_RELATED = 8 };

typedef struct Expect {
    char *path;
    uint32_t line;
    char *rule;
    bool matched;
    Severity sev;        /* SEV_OFF: not checked */
    bool has_related;    /* `[...]` given: the related places are checked */
    size_t nrelated;
    char *rel_path[MAX_EXPECT_RELATED];
    uint32_t rel_line[MAX_EXPECT_RELATED];
} Expect;

typedef struct Expects {
    Expect *v;
    size_t n, cap;
} Expects;

static Expect *expects_add(Expects *e, const char *path, uint32_t line, const char *rule)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        assert_non_null(e->v);
    }
    e->v[e->n] = (Expect){.path = strdup(path), .line = line, .rule = strdup(rule)};
    return &e->v[e->n++];
}

static void expects_free(Expects *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].path);
        free(e->v[i].rule);
        for (size_t j = 0; j < e->v[i].nrelated; j++)
            free(e->v[i].rel_path[j]);
    }
    free(e->v);
}

/* One expectation `rule[@severity][[place; place]]` of file `path` (line
 * `no`) in fixture directory `dir`: added to `out`. */
static void parse_expect(const char *dir, const char *path, uint32_t no, char *tok, Expects *out)
{
    char *places = strchr(tok, '[');
    if (places) {
        char *end = strrchr(places, ']');
        if (!end || end[1])
            fail_msg("%s:%u: expect '%s': '[' without its closing ']'", path, no, tok);
        *places++ = 0;
        *end = 0;
    }
    char *at = strchr(tok, '@');
    if (at)
        *at++ = 0;
    if (!rule_find(tok))
        fail_msg("%s:%u: expect names unknown rule '%s'", path, no, tok);
    Expect *e = expects_add(out, path, no, tok);
    if (at) {
        if (!strcmp(at, "error"))
            e->sev = SEV_ERROR;
        else if (!strcmp(at, "warning"))
            e->sev = SEV_WARNING;
        else
            fail_msg("%s:%u: expect '%s@%s': the severity is error or warning", path, no, tok,
                     at);
    }
    if (!places)
        return;
    e->has_related = true;
    char *save = NULL;
    for (char *pl = strtok_r(places, "; ", &save); pl; pl = strtok_r(NULL, "; ", &save)) {
        if (e->nrelated == MAX_EXPECT_RELATED)
            fail_msg("%s:%u: more than %d related places", path, no, MAX_EXPECT_RELATED);
        char *colon = strrchr(pl, ':');
        char *num = colon ? colon + 1 : pl;
        char *stop;
        unsigned long line = strtoul(num, &stop, 10);
        if (!*num || *stop || !line)
            fail_msg("%s:%u: related place '%s' is not path:line or line", path, no, pl);
        char full[4096];
        if (colon)
            snprintf(full, sizeof full, "%s/%.*s", dir, (int)(colon - pl), pl);
        else
            snprintf(full, sizeof full, "%s", path);
        e->rel_path[e->nrelated] = strdup(full);
        e->rel_line[e->nrelated++] = (uint32_t)line;
    }
}

/* Read `// expect: a, b` comments of one file (`# expect: a` in YAML
 * schema and configuration files) of fixture directory `dir`. */
static void read_expects(const char *dir, const char *path, Expects *out)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    uint32_t no = 0;
    while (getline(&line, &cap, f) >= 0) {
        no++;
        const char *mark = "// expect:";
        char *m = strstr(line, mark);
        if (!m) {
            mark = "# expect:";
            m = strstr(line, mark);
        }
        if (!m)
            continue;
        /* tokens end at a comma or a space outside brackets */
        char *p = m + strlen(mark);
        while (*p) {
            while (*p && strchr(", \t\r\n", *p))
                p++;
            if (!*p)
                break;
            char *tok = p;
            int depth = 0;
            while (*p && (depth || !strchr(", \t\r\n", *p))) {
                depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
                p++;
            }
            bool more = *p != 0;
            *p = 0;
            parse_expect(dir, path, no, tok, out);
            if (more)
                p++;
        }
    }
    free(line);
    fclose(f);
}

static bool yaml_name(const char *name)
{
    size_t l = strlen(name);
    return (l > 4 && !strcmp(name + l - 4, ".yml")) || (l > 5 && !strcmp(name + l - 5, ".yaml"));
}

/* Expectations in the YAML files of a fixture directory (schema files,
 * .keylint.yml): findings of the schema-level rules are reported there.
 * An explicit stack of directories, no recursion. */
static void read_yaml_expects(const char *dir, Expects *out)
{
    char **stack = malloc(sizeof *stack);
    assert_non_null(stack);
    size_t n = 0, cap = 1;
    stack[n++] = strdup(dir);
    while (n) {
        char *d = stack[--n];
        DIR *h = opendir(d);
        struct dirent *e;
        while (h && (e = readdir(h))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", d, e->d_name);
            DIR *sub = opendir(path);
            if (sub) {
                closedir(sub);
                if (n == cap) {
                    cap *= 2;
                    stack = realloc(stack, cap * sizeof *stack);
                    assert_non_null(stack);
                }
                stack[n++] = strdup(path);
            } else if (yaml_name(e->d_name)) {
                read_expects(dir, path, out);
            }
        }
        if (h)
            closedir(h);
        free(d);
    }
    free(stack);
}

static bool about(const char *dirname, const Expects *e, const char *rule)
{
    if (!strcmp(dirname, rule))
        return true;
    for (size_t i = 0; i < e->n; i++)
        if (!strcmp(e->v[i].rule, rule))
            return true;
    return false;
}

/* Why finding `d` does not meet expectation `e` (written to buf), NULL
 * when it does: the severity and the related places, where stated. */
static const char *differs(const Expect *e, const Diagnostic *d, char *buf, size_t cap)
{
    if (e->sev != SEV_OFF && e->sev != d->severity) {
        snprintf(buf, cap, "severity %s, expected %s", severity_name(d->severity),
                 severity_name(e->sev));
        return buf;
    }
    if (!e->has_related)
        return NULL;
    bool same = e->nrelated == d->nrelated;
    for (size_t i = 0; same && i < e->nrelated; i++) {
        bool found = false;
        for (size_t j = 0; j < d->nrelated && !found; j++) {
            const char *rp = d->related[j].path ? d->related[j].path : d->path;
            found = !strcmp(rp, e->rel_path[i]) &&
                    d->related[j].span.start_row + 1 == e->rel_line[i];
        }
        same = found;
    }
    if (same)
        return NULL;
    size_t n = (size_t)snprintf(buf, cap, "related places [");
    for (size_t j = 0; j < d->nrelated && n < cap; j++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s:%u", j ? "; " : "",
                              d->related[j].path ? d->related[j].path : d->path,
                              d->related[j].span.start_row + 1);
    if (n < cap)
        snprintf(buf + n, cap - n, "], expected another list");
    return buf;
}

/* What every expectation of the fixtures states, per rule: the last test
 * checks that each error rule has an expectation of an error with its
 * evidence. */
typedef struct Coverage {
    const char *name; /* the fixture directory, NULL for the last test */
    bool *evidenced;  /* per keylint_rules entry */
} Coverage;

static void lint_fixture(void **state)
{
    const Coverage *cov = *state;
    const char *dirname = cov->name;
    char dir[4096];
    snprintf(dir, sizeof dir, "fixtures/%s", dirname);

    Project *p = project_new(NULL);
    const char *paths[] = {dir};
    project_add_paths(p, paths, 1);
    project_analyze(p);

    Problems all;
    problems_init(&all);
    project_problems(p, &all);
    for (size_t i = 0; i < all.items.n; i++) {
        const Problem *pr = &all.items.v[i];
        print_error("problem: %s:%u:%u: %s\n", pr->path, pr->line, pr->col, pr->message);
    }
    size_t problems = all.items.n;
    problems_free(&all);

    Expects ex = {0};
    for (size_t i = 0; i < p->files.n; i++)
        read_expects(dir, p->files.v[i].path, &ex);
    read_yaml_expects(dir, &ex);
    if (!rule_find(dirname) && ex.n == 0)
        fail_msg("%s is not named after a rule and expects nothing", dir);

    int bad = 0;
    for (size_t i = 0; i < p->diags.items.n; i++) {
        const Diagnostic *d = &p->diags.items.v[i];
        /* an error is a claim with evidence, in every fixture */
        if (d->severity == SEV_ERROR && !d->nrelated && strcmp(d->rule, "schema")) {
            print_error("no evidence: %s:%u:%u: an error without a related place [%s]\n",
                        d->path, d->span.start_row + 1, d->span.start_col + 1, d->rule);
            bad++;
        }
        if (!about(dirname, &ex, d->rule))
            continue;
        /* the expectation it meets, else the first of its line and rule */
        Expect *hit = NULL, *near = NULL;
        char why[1024];
        for (size_t j = 0; j < ex.n && !hit; j++) {
            Expect *e = &ex.v[j];
            if (e->matched || e->line != d->span.start_row + 1 || strcmp(e->rule, d->rule) ||
                strcmp(e->path, d->path))
                continue;
            if (!differs(e, d, why, sizeof why))
                hit = e;
            else if (!near)
                near = e;
        }
        if (!hit && near) {
            print_error("differs:    %s:%u:%u: %s [%s]: %s\n", d->path, d->span.start_row + 1,
                        d->span.start_col + 1, d->message, d->rule,
                        differs(near, d, why, sizeof why));
            near->matched = true;
            bad++;
            continue;
        }
        if (hit) {
            hit->matched = true;
            for (size_t r = 0; keylint_rules[r]; r++)
                if (hit->sev == SEV_ERROR && hit->has_related && hit->nrelated &&
                    !strcmp(keylint_rules[r]->id, d->rule))
                    cov->evidenced[r] = true;
        } else {
            print_error("unexpected: %s:%u:%u: %s [%s]\n", d->path, d->span.start_row + 1,
                        d->span.start_col + 1, d->message, d->rule);
            bad++;
        }
    }
    for (size_t j = 0; j < ex.n; j++)
        if (!ex.v[j].matched) {
            print_error("missing:    %s:%u: expected %s\n", ex.v[j].path, ex.v[j].line,
                        ex.v[j].rule);
            bad++;
        }
    size_t files = p->files.n;
    expects_free(&ex);
    project_free(p);
    assert_int_equal(problems, 0);
    assert_true(files > 0);
    assert_int_equal(bad, 0);
}

/* Each rule whose default severity is error has, in the fixtures above, an
 * expectation of an error with its related places, which the finding met
 * (schema excepted: its findings are in the definition they judge). */
static void error_rules_have_evidence_cases(void **state)
{
    const Coverage *cov = *state;
    int missing = 0;
    for (size_t r = 0; keylint_rules[r]; r++) {
        if (keylint_rules[r]->default_severity != SEV_ERROR ||
            !strcmp(keylint_rules[r]->id, "schema") || cov->evidenced[r])
            continue;
        print_error("rule %s: no fixture expects an error of it with its related places "
                    "(// expect: %s@error[path:line])\n",
                    keylint_rules[r]->id, keylint_rules[r]->id);
        missing++;
    }
    assert_int_equal(missing, 0);
}

int main(void)
{
    size_t n;
    char **names = case_dirs("fixtures", &n);
    if (!names)
        return 1;
    size_t nrules = 0;
    while (keylint_rules[nrules])
        nrules++;
    bool *evidenced = calloc(nrules, sizeof *evidenced);
    Coverage *cov = calloc(n + 1, sizeof *cov);
    struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
    for (size_t i = 0; i <= n; i++) {
        cov[i] = (Coverage){i < n ? names[i] : NULL, evidenced};
        tests[i].name = i < n ? names[i] : "error rules have evidence cases";
        tests[i].test_func = i < n ? lint_fixture : error_rules_have_evidence_cases;
        tests[i].initial_state = &cov[i];
    }
    int rc = _cmocka_run_group_tests("fixtures", tests, n + 1, NULL, NULL);
    case_dirs_free(names, n);
    free(tests);
    free(cov);
    free(evidenced);
    return rc;
}
