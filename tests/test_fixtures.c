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
 * problems. Adding a case is adding a file. */
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

typedef struct Expect {
    char *path;
    uint32_t line;
    char *rule;
    bool matched;
} Expect;

typedef struct Expects {
    Expect *v;
    size_t n, cap;
} Expects;

static void expects_add(Expects *e, const char *path, uint32_t line, const char *rule)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        assert_non_null(e->v);
    }
    e->v[e->n++] = (Expect){strdup(path), line, strdup(rule), false};
}

static void expects_free(Expects *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].path);
        free(e->v[i].rule);
    }
    free(e->v);
}

/* Read `// expect: a, b` comments of one file (`# expect: a` in YAML
 * schema and configuration files). */
static void read_expects(const char *path, Expects *out)
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
        char *p = m + strlen(mark);
        for (char *tok = strtok(p, ", \t\r\n"); tok; tok = strtok(NULL, ", \t\r\n")) {
            if (!rule_find(tok))
                fail_msg("%s:%u: expect names unknown rule '%s'", path, no, tok);
            expects_add(out, path, no, tok);
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
                read_expects(path, out);
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

static void lint_fixture(void **state)
{
    const char *dirname = *state;
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
        read_expects(p->files.v[i].path, &ex);
    read_yaml_expects(dir, &ex);
    if (!rule_find(dirname) && ex.n == 0)
        fail_msg("%s is not named after a rule and expects nothing", dir);

    int bad = 0;
    for (size_t i = 0; i < p->diags.items.n; i++) {
        const Diagnostic *d = &p->diags.items.v[i];
        if (!about(dirname, &ex, d->rule))
            continue;
        bool hit = false;
        for (size_t j = 0; j < ex.n && !hit; j++) {
            Expect *e = &ex.v[j];
            if (!e->matched && e->line == d->span.start_row + 1 && !strcmp(e->rule, d->rule) &&
                !strcmp(e->path, d->path)) {
                e->matched = true;
                hit = true;
            }
        }
        if (!hit) {
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

int main(void)
{
    size_t n;
    char **names = case_dirs("fixtures", &n);
    if (!names)
        return 1;
    struct CMUnitTest *tests = calloc(n, sizeof *tests);
    for (size_t i = 0; i < n; i++) {
        tests[i].name = names[i];
        tests[i].test_func = lint_fixture;
        tests[i].initial_state = names[i];
    }
    int rc = _cmocka_run_group_tests("fixtures", tests, n, NULL, NULL);
    case_dirs_free(names, n);
    free(tests);
    return rc;
}
