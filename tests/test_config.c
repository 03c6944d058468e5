/* Tests for linter/config.c: loading .keylint.yml, defaults, errors,
 * discovery, ignore globs and glob_match. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

/* Room for a temp dir plus a relative path. */
#define BUF (PATH_MAX + 512)

static const char *const RULES[] = {
    "complex-key", "magic-string", "missing-tenant", "scan", NULL,
};

/* ------------------------------------------------------------------------ */
/* Fixture: a fresh temp dir and Problems list per test                     */

typedef struct T {
    char dir[PATH_MAX]; /* realpath of the mkdtemp dir */
    char path[BUF]; /* scratch: last file written */
    Problems probs;
} T;

static int setup(void **state)
{
    T *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    const char *tmp = getenv("TMPDIR");
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof tmpl, "%s/keylint-config-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpl) || !realpath(tmpl, t->dir)) {
        free(t);
        return -1;
    }
    problems_init(&t->probs);
    *state = t;
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int teardown(void **state)
{
    T *t = *state;
    int rc = nftw(t->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    problems_free(&t->probs);
    free(t);
    return rc;
}

static void mkdirs(const char *path)
{
    char buf[BUF];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0700);
            *p = '/';
        }
    }
    mkdir(buf, 0700);
}

/* Write `len` bytes to t->dir/rel (parents created); t->path gets the full
 * path. */
static const char *write_bytes(T *t, const char *rel, const char *data,
                               size_t len)
{
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, rel);
    char *slash = strrchr(t->path, '/');
    *slash = '\0';
    mkdirs(t->path);
    *slash = '/';
    FILE *f = fopen(t->path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return t->path;
}

static const char *write_text(T *t, const char *rel, const char *text)
{
    return write_bytes(t, rel, text, strlen(text));
}

static Config *load_text(T *t, const char *text)
{
    return config_load(write_text(t, ".keylint.yml", text), RULES,
                       &t->probs);
}

static void dump_problems(const Problems *p)
{
    for (size_t i = 0; i < p->items.n; i++)
        print_message("  problem: %s:%u:%u: %s\n", p->items.v[i].path,
                      p->items.v[i].line, p->items.v[i].col,
                      p->items.v[i].message);
}

/* The problem on `line` whose message contains every one of the strings
 * (NULL-terminated); fails the test if there is none. */
static const Problem *find_problem(const Problems *p, uint32_t line, ...)
{
    for (size_t i = 0; i < p->items.n; i++) {
        const Problem *pr = &p->items.v[i];
        if (pr->line != line)
            continue;
        bool all = true;
        va_list ap;
        va_start(ap, line);
        for (const char *s; (s = va_arg(ap, const char *));)
            if (!strstr(pr->message, s))
                all = false;
        va_end(ap);
        if (all)
            return pr;
    }
    print_error("no problem on line %u with the expected text; got:\n",
                line);
    dump_problems(p);
    fail();
    return NULL;
}

#define assert_problem(t, line, ...)                                           \
    find_problem(&(t)->probs, (line), __VA_ARGS__, (const char *)NULL)

static void assert_strlist(const StrList *l, const char *const *want)
{
    size_t n = 0;
    while (want[n])
        n++;
    assert_int_equal(l->n, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(l->v[i], want[i]);
}

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})
#define EMPTY ((const char *const[]){NULL})

static void assert_defaults_except_nothing(const Config *c)
{
    assert_string_equal(c->separator, "#");
    assert_string_equal(c->version_separator, "@");
    assert_int_equal(c->tenant_required, TENANT_AUTO);
    assert_strlist(&c->tenant_names, LIST("tenantCode", "tenantId", "tenant",
                                          "tenant_code", "tenant_id"));
    assert_strlist(&c->tenant_common, LIST("common"));
    assert_strlist(&c->tenant_global, EMPTY);
    assert_strlist(&c->mutable_fields,
                   LIST("status", "state", "priority", "updatedAt"));
    assert_strlist(&c->key_pk, EMPTY);
    assert_strlist(&c->key_sk, EMPTY);
    assert_strlist(&c->key_index_pk, EMPTY);
    assert_strlist(&c->key_index_sk, EMPTY);
    assert_strlist(&c->schemas, EMPTY);
    assert_strlist(&c->data_tables, EMPTY);
    assert_strlist(&c->history_tables, EMPTY);
    assert_strlist(&c->command_tables, EMPTY);
    assert_strlist(&c->scan_allowed,
                   LIST("**/scripts/**", "**/migrations/**", "**/seed/**",
                        "**/seeds/**"));
    assert_int_equal(c->access_patterns.n, 0);
    assert_int_equal(c->rules.n, 0);
    assert_strlist(&c->ignore, LIST("*.spec.*", "*.test.*",
                                    "**/__tests__/**", "**/__mocks__/**"));
    assert_int_equal(c->max_key_components, 5);
}

/* ------------------------------------------------------------------------ */
/* Defaults and valid files                                                 */

static void test_defaults(void **state)
{
    (void)state;
    Config *c = config_default();
    assert_non_null(c);
    assert_non_null(c->arena);
    assert_null(c->path);
    assert_string_equal(c->dir, "");
    assert_defaults_except_nothing(c);
    assert_int_equal(config_rule_severity(c, "scan", SEV_WARNING),
                     SEV_WARNING);
    assert_false(config_ignores(c, "anything.ts"));
    /* tests are left out by default */
    assert_true(config_ignores(c, "src/order.spec.ts"));
    assert_true(config_ignores(c, "order.test.js"));
    assert_true(config_ignores(c, "src/__tests__/keys.ts"));
    assert_true(config_ignores(c, "__tests__/keys.ts"));
    assert_true(config_ignores(c, "src/__mocks__/client.ts"));
    assert_false(config_ignores(c, "src/testing.ts"));
    config_free(c);
    config_free(NULL);
}

static void test_empty_file(void **state)
{
    T *t = *state;
    static const char *const texts[] = {
        "",
        "# only a comment\n\n   # another\n",
        "---\n",
        "---\n...\n",
        "~\n",
        "\xEF\xBB\xBF", /* just a UTF-8 BOM */
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        Config *c = load_text(t, texts[i]);
        if (!c)
            dump_problems(&t->probs);
        assert_non_null(c);
        assert_int_equal(t->probs.items.n, 0);
        assert_string_equal(c->path, t->path);
        assert_string_equal(c->dir, t->dir);
        assert_defaults_except_nothing(c);
        config_free(c);
    }
}

static void test_full_example(void **state)
{
    T *t = *state;
    Config *c = load_text(
        t,
        "separator: \"|\"\n"
        "version-separator: \"~\"\n"
        "tenant: { required: true, names: [tenantCode, tenantId], "
        "common: [common, shared], global: [CONFIG, SYSTEM] }\n"
        "mutable-fields: [status, updatedAt]\n"
        "key-attributes: { pk: [partition_key], sk: [sort_key], "
        "index-pk: [byEmailPk, byNamePk], index-sk: [byEmailSk] }\n"
        "schemas: [template.yaml, infra/other.yml]\n"
        "tables: { data: [data-table], history: [history-table], "
        "command: [command-table] }\n"
        "scan-allowed: [\"scripts/**\", \"**/migrations/**\"]\n"
        "access-patterns:\n"
        "  - { name: order items, pk: \"ORDER#{tenantCode}\", "
        "sk: \"begins_with ORDER_ITEM#{orderId}\", index: GSI1 }\n"
        "  - name: by id\n"
        "    pk: \"ORDER#{orderId}\"\n"
        "rules: { magic-string: warning, scan: off, missing-tenant: error }\n"
        "ignore: [\"**/*.spec.ts\", \"scripts/**\"]\n"
        "max-key-components: 7\n");
    if (!c)
        dump_problems(&t->probs);
    assert_non_null(c);
    assert_int_equal(t->probs.items.n, 0);

    assert_string_equal(c->separator, "|");
    assert_string_equal(c->version_separator, "~");
    assert_int_equal(c->tenant_required, TENANT_REQUIRED);
    assert_strlist(&c->tenant_names, LIST("tenantCode", "tenantId"));
    assert_strlist(&c->tenant_common, LIST("common", "shared"));
    assert_strlist(&c->tenant_global, LIST("CONFIG", "SYSTEM"));
    assert_strlist(&c->mutable_fields, LIST("status", "updatedAt"));
    assert_strlist(&c->key_pk, LIST("partition_key"));
    assert_strlist(&c->key_sk, LIST("sort_key"));
    assert_strlist(&c->key_index_pk, LIST("byEmailPk", "byNamePk"));
    assert_strlist(&c->key_index_sk, LIST("byEmailSk"));
    assert_strlist(&c->schemas, LIST("template.yaml", "infra/other.yml"));
    assert_strlist(&c->data_tables, LIST("data-table"));
    assert_strlist(&c->history_tables, LIST("history-table"));
    assert_strlist(&c->command_tables, LIST("command-table"));
    assert_strlist(&c->scan_allowed, LIST("scripts/**", "**/migrations/**"));

    assert_int_equal(c->access_patterns.n, 2);
    const AccessPattern *ap = &c->access_patterns.v[0];
    assert_string_equal(ap->name, "order items");
    assert_string_equal(ap->pk, "ORDER#{tenantCode}");
    assert_string_equal(ap->sk, "begins_with ORDER_ITEM#{orderId}");
    assert_string_equal(ap->index, "GSI1");
    assert_int_equal(ap->line, 10);
    ap = &c->access_patterns.v[1];
    assert_string_equal(ap->name, "by id");
    assert_string_equal(ap->pk, "ORDER#{orderId}");
    assert_null(ap->sk);
    assert_null(ap->index);
    assert_int_equal(ap->line, 11);

    assert_int_equal(c->rules.n, 3);
    assert_string_equal(c->rules.v[0].id, "magic-string");
    assert_int_equal(c->rules.v[0].severity, SEV_WARNING);
    assert_int_equal(c->rules.v[0].line, 13);
    assert_string_equal(c->rules.v[1].id, "scan");
    assert_int_equal(c->rules.v[1].severity, SEV_OFF);
    assert_string_equal(c->rules.v[2].id, "missing-tenant");
    assert_int_equal(c->rules.v[2].severity, SEV_ERROR);
    assert_int_equal(config_rule_severity(c, "scan", SEV_ERROR), SEV_OFF);
    assert_int_equal(config_rule_severity(c, "magic-string", SEV_ERROR),
                     SEV_WARNING);
    assert_int_equal(config_rule_severity(c, "complex-key", SEV_WARNING),
                     SEV_WARNING);
    assert_int_equal(config_rule_severity(c, "missing-tenant", SEV_OFF),
                     SEV_ERROR);

    /* ignore extends the defaults */
    assert_strlist(&c->ignore, LIST("*.spec.*", "*.test.*", "**/__tests__/**",
                                    "**/__mocks__/**", "**/*.spec.ts", "scripts/**"));
    assert_int_equal(c->max_key_components, 7);
    config_free(c);
}

static void test_lists_replace_defaults(void **state)
{
    T *t = *state;
    /* Given lists replace the defaults; left-out keys keep theirs. */
    Config *c = load_text(t, "mutable-fields: [lifecycle]\n"
                             "tenant:\n"
                             "  names: [orgId]\n"
                             "scan-allowed:\n"
                             "  - tools/**\n");
    assert_non_null(c);
    assert_strlist(&c->mutable_fields, LIST("lifecycle"));
    assert_strlist(&c->tenant_names, LIST("orgId"));
    assert_strlist(&c->tenant_common, LIST("common"));
    assert_strlist(&c->scan_allowed, LIST("tools/**"));
    assert_string_equal(c->separator, "#");
    assert_int_equal(c->tenant_required, TENANT_AUTO);
    assert_int_equal(c->max_key_components, 5);
    config_free(c);

    /* An empty value or [] is an empty list; an empty mapping changes
     * nothing. */
    c = load_text(t, "mutable-fields: [status]\n"
                     "scan-allowed: []\n"
                     "ignore:\n"
                     "tenant: {}\n"
                     "tables:\n"
                     "  data: [main-table]\n"
                     "rules:\n"
                     "access-patterns: []\n");
    if (!c)
        dump_problems(&t->probs);
    assert_non_null(c);
    assert_strlist(&c->mutable_fields, LIST("status"));
    assert_strlist(&c->scan_allowed, EMPTY);
    assert_strlist(&c->ignore, LIST("*.spec.*", "*.test.*", "**/__tests__/**",
                                    "**/__mocks__/**")); /* extended by nothing */
    assert_strlist(&c->tenant_names, LIST("tenantCode", "tenantId", "tenant",
                                          "tenant_code", "tenant_id"));
    assert_strlist(&c->data_tables, LIST("main-table"));
    assert_int_equal(c->rules.n, 0);
    assert_int_equal(c->access_patterns.n, 0);
    config_free(c);

    /* Quoted '#' and block style; numbers in lists are strings. */
    c = load_text(t, "separator: '#'\n"
                     "tenant:\n"
                     "  common: [\"0\", 42]\n"
                     "  global:\n"
                     "    - CONFIG\n");
    assert_non_null(c);
    assert_string_equal(c->separator, "#");
    assert_strlist(&c->tenant_common, LIST("0", "42"));
    assert_strlist(&c->tenant_global, LIST("CONFIG"));
    config_free(c);
}

/* overrides: which entries match a path; a derived configuration has the
 * file's settings with the matching entries' over them, in order. */
static void test_overrides(void **state)
{
    T *t = *state;
    Config *c = load_text(t, "tenant: { names: [tenantCode] }\n"
                             "max-key-components: 4\n"
                             "overrides:\n"
                             "  - files: [\"apps/yoga/**\"]\n"
                             "    tenant: { names: [studioId] }\n"
                             "    rules: { scan: error }\n"
                             "  - files: [\"**/legacy.ts\"]\n"
                             "    max-key-components: 9\n"
                             "    rules: { scan: off }\n");
    if (!c)
        dump_problems(&t->probs);
    assert_non_null(c);
    assert_int_equal(c->overrides.n, 2);
    assert_strlist(&c->tenant_names, LIST("tenantCode")); /* not the overrides' */
    char *dir = strdup(c->dir);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/apps/yoga/src/a.ts", dir);
    assert_int_equal(config_override_mask(c, path), 1);
    snprintf(path, sizeof path, "%s/apps/yoga/legacy.ts", dir);
    assert_int_equal(config_override_mask(c, path), 3);
    snprintf(path, sizeof path, "%s/apps/shop/src/a.ts", dir);
    assert_int_equal(config_override_mask(c, path), 0);

    Config *d = config_derive(c, 1, &t->probs);
    assert_non_null(d);
    assert_ptr_equal(config_root(d), c);
    assert_strlist(&d->tenant_names, LIST("studioId"));
    assert_int_equal(d->max_key_components, 4);
    assert_int_equal(config_rule_severity(d, "scan", SEV_WARNING), SEV_ERROR);
    config_free(d);
    d = config_derive(c, 3, &t->probs); /* the second over the first */
    assert_non_null(d);
    assert_strlist(&d->tenant_names, LIST("studioId"));
    assert_int_equal(d->max_key_components, 9);
    assert_int_equal(config_rule_severity(d, "scan", SEV_WARNING), SEV_OFF);
    config_free(d);
    assert_int_equal(t->probs.items.n, 0);
    free(dir);
    config_free(c);

    /* mistakes: no files, a project-wide key, a bad value, not a list */
    assert_null(load_text(t, "overrides:\n"                      /* 1 */
                             "  - rules: { scan: off }\n"         /* 2 */
                             "  - files: [a/**]\n"                /* 3 */
                             "    schemas: [t.yaml]\n"            /* 4 */
                             "  - files: [b/**]\n"                /* 5 */
                             "    rules: { scan: loud }\n"        /* 6 */
                             "  - just a string\n"));             /* 7 */
    assert_problem(t, 2, "'overrides' entry 1 has no 'files'");
    assert_problem(t, 4, "unknown key 'schemas' in 'overrides' entry 2");
    assert_problem(t, 6, "scan");
    assert_problem(t, 7, "'overrides' entry 4 must be a mapping");
}

static void test_tenant_required_values(void **state)
{
    T *t = *state;
    static const struct {
        const char *text;
        TenantMode want;
    } cases[] = {
        {"auto", TENANT_AUTO},       {"Auto", TENANT_AUTO},
        {"true", TENANT_REQUIRED},   {"yes", TENANT_REQUIRED},
        {"TRUE", TENANT_REQUIRED},   {"\"true\"", TENANT_REQUIRED},
        {"false", TENANT_NOT_REQUIRED}, {"no", TENANT_NOT_REQUIRED},
        {"No", TENANT_NOT_REQUIRED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[128];
        snprintf(text, sizeof text, "tenant:\n  required: %s\n",
                 cases[i].text);
        Config *c = load_text(t, text);
        assert_non_null(c);
        assert_int_equal(c->tenant_required, cases[i].want);
        config_free(c);
    }
}

/* require-suppression-reason: a boolean, false by default. */
static void test_require_suppression_reason(void **state)
{
    T *t = *state;
    Config *d = config_default();
    assert_false(d->require_suppression_reason);
    config_free(d);
    static const struct {
        const char *text;
        bool want;
    } cases[] = {{"true", true}, {"yes", true}, {"True", true},
                 {"false", false}, {"no", false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[128];
        snprintf(text, sizeof text, "require-suppression-reason: %s\n", cases[i].text);
        Config *c = load_text(t, text);
        assert_non_null(c);
        assert_int_equal(c->require_suppression_reason, cases[i].want);
        config_free(c);
    }
    assert_null(load_text(t, "separator: \"#\"\nrequire-suppression-reason: sometimes\n"));
    assert_problem(t, 2, "'require-suppression-reason' must be true or false",
                   "sometimes");
}

static void test_rules_without_registry(void **state)
{
    T *t = *state;
    /* With no registry (known_rules NULL) any id is accepted. */
    Config *c = config_load(
        write_text(t, "keylint.yml", "rules: { anything: warn }\n"), NULL,
        &t->probs);
    assert_non_null(c);
    assert_int_equal(c->rules.n, 1);
    assert_string_equal(c->rules.v[0].id, "anything");
    assert_int_equal(c->rules.v[0].severity, SEV_WARNING);
    config_free(c);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

static void test_error_unreadable(void **state)
{
    T *t = *state;
    char path[BUF];
    snprintf(path, sizeof path, "%s/missing.yml", t->dir);
    assert_null(config_load(path, RULES, &t->probs));
    assert_int_equal(t->probs.items.n, 1);
    const Problem *p = &t->probs.items.v[0];
    assert_string_equal(p->path, path);
    assert_int_equal(p->line, 0);
    assert_non_null(strstr(p->message, "cannot read"));
    assert_non_null(strstr(p->message, strerror(ENOENT)));

    /* A directory is not a config file. */
    assert_null(config_load(t->dir, RULES, &t->probs));
    assert_int_equal(t->probs.items.n, 2);
    assert_non_null(strstr(t->probs.items.v[1].message, strerror(EISDIR)));
}

static void test_error_syntax(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "separator: \"#\"\n"
                             "tenant:\n"
                             "  names: [a, b\n"
                             "rules: {}\n"));
    assert_int_equal(t->probs.items.n, 1);
    const Problem *p = &t->probs.items.v[0];
    assert_non_null(strstr(p->message, "YAML syntax error"));
    assert_true(p->line >= 3);
    assert_true(p->col >= 1);

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "separator: \"#\"\nbad: : value: [\n"));
    assert_int_equal(t->probs.items.n, 1);
    assert_problem(t, 2, "YAML syntax error", "mapping values");
    assert_string_equal(t->probs.items.v[0].path, t->path);

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "ignore: *nowhere\n"));
    assert_problem(t, 1, "undefined alias");
}

static void test_error_not_mapping(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "- separator\n- ignore\n"));
    assert_int_equal(t->probs.items.n, 1);
    const Problem *p =
        assert_problem(t, 1, "top level of .keylint.yml must be a mapping",
                       "a list");
    assert_int_equal(p->col, 1);

    assert_null(load_text(t, "\n\njust text\n"));
    assert_problem(t, 3, "must be a mapping", "'just text'");
}

static void test_error_unknown_key(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "separatr: \"#\"\n"
                             "  # comment\n"
                             "colour: blue\n"));
    assert_int_equal(t->probs.items.n, 2);
    const Problem *p = assert_problem(
        t, 1, "unknown key 'separatr' in .keylint.yml",
        "did you mean 'separator'?");
    assert_int_equal(p->col, 1);
    p = assert_problem(t, 3, "unknown key 'colour' in .keylint.yml");
    assert_null(strstr(p->message, "did you mean"));

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "mutable_fields: [a]\n"
                             "tenant:\n"
                             "  reqired: true\n"
                             "tables: { dta: [x] }\n"
                             "key-attributes:\n"
                             "  index_pk: [x]\n"
                             "access-patterns:\n"
                             "  - { name: a, pk: b, idx: GSI1 }\n"));
    assert_int_equal(t->probs.items.n, 5);
    assert_problem(t, 1, "unknown key 'mutable_fields'",
                   "did you mean 'mutable-fields'?");
    p = assert_problem(t, 3, "unknown key 'reqired' in 'tenant'",
                       "did you mean 'required'?");
    assert_int_equal(p->col, 3);
    assert_problem(t, 4, "unknown key 'dta' in 'tables'",
                   "did you mean 'data'?");
    assert_problem(t, 6, "unknown key 'index_pk' in 'key-attributes'",
                   "did you mean 'index-pk'?");
    assert_problem(t, 8, "unknown key 'idx' in 'access-patterns' entry 1",
                   "did you mean 'index'?");
}

static void test_error_wrong_type(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "mutable-fields: { a: b }\n"   /* 1 */
                             "schemas:\n"                   /* 2 */
                             "  - template.yaml\n"          /* 3 */
                             "  - [nested]\n"               /* 4 */
                             "  -\n"                        /* 5 */
                             "tenant: [a]\n"                /* 6 */
                             "rules: [scan]\n"              /* 7 */
                             "access-patterns: orders\n"    /* 8 */
                             "max-key-components: five\n"   /* 9 */
                             "tables:\n"                    /* 10 */
                             "  history: { a: b }\n"        /* 11 */
                             "ignore: src/a.ts\n"           /* 12 */
                             "scan-allowed: [\"x/[ab\"]\n"));  /* 13 */
    assert_problem(t, 1, "'mutable-fields' must be a list of strings",
                   "a mapping");
    assert_problem(t, 4, "'schemas' must be a list of strings", "item 2");
    assert_problem(t, 5, "'schemas' must be a list of non-empty strings",
                   "item 3");
    assert_problem(t, 6, "'tenant' must be a mapping", "a list");
    assert_problem(t, 7, "'rules' must be a mapping");
    assert_problem(t, 8, "'access-patterns' must be a list of mappings",
                   "'orders'");
    assert_problem(t, 9, "'max-key-components' must be a positive integer",
                   "'five'");
    assert_problem(t, 11, "'tables.history' must be a list of strings");
    /* a string is not a list of one: `ignore: a, b` would be one pattern */
    assert_problem(t, 12, "'ignore' must be a list of strings (got 'src/a.ts')",
                   "write [src/a.ts]");
    assert_problem(t, 13, "the glob 'x/[ab' has a '[' without its ']'");
    assert_int_equal(t->probs.items.n, 10);

    static const char *const bad_numbers[] = {"0", "-3", "+3", "1.5",
                                              "99999999999", "[5]"};
    for (size_t i = 0; i < sizeof bad_numbers / sizeof *bad_numbers; i++) {
        char text[64];
        snprintf(text, sizeof text, "max-key-components: %s\n",
                 bad_numbers[i]);
        problems_free(&t->probs);
        problems_init(&t->probs);
        assert_null(load_text(t, text));
        assert_problem(t, 1, "'max-key-components' must be a positive");
    }

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "tenant:\n  required: maybe\n"));
    assert_problem(t, 2, "'tenant.required' must be auto, true or false",
                   "'maybe'");
}

static void test_error_separator(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "separator: \"::\"\n"
                             "version-separator: \"\"\n"));
    assert_int_equal(t->probs.items.n, 2);
    assert_problem(t, 1, "'separator' must be a single", "'::'");
    assert_problem(t, 2, "'version-separator' must be a single", "''");

    /* An unquoted # starts a comment: the value is empty. */
    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "separator: #\n"));
    assert_problem(t, 1, "'separator' must be a single",
                   "(got nothing; an unquoted # starts a comment");

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "separator: [a]\nversion-separator: \"\xC2\xA7\"\n"));
    assert_problem(t, 1, "'separator'", "a list");
    assert_problem(t, 2, "'version-separator'", "ASCII");

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "separator: \"@\"\n"));
    assert_problem(t, 1, "'separator' and 'version-separator' must be "
                         "different");
}

static void test_error_severity_and_rules(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "rules:\n"
                             "  scan: maybe\n"
                             "  magic-strng: warning\n"
                             "  totally-unknown: error\n"
                             "  complex-key: [warning]\n"
                             "  missing-tenant:\n"));
    assert_int_equal(t->probs.items.n, 5);
    const Problem *p = assert_problem(
        t, 2, "severity of rule 'scan' must be error, warning or off",
        "'maybe'");
    assert_int_equal(p->col, 9);
    assert_problem(t, 3, "unknown rule 'magic-strng' in 'rules'",
                   "did you mean 'magic-string'?");
    p = assert_problem(t, 4, "unknown rule 'totally-unknown'");
    assert_null(strstr(p->message, "did you mean"));
    assert_problem(t, 5, "severity of rule 'complex-key'", "a list");
    assert_problem(t, 6, "severity of rule 'missing-tenant'", "nothing");

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "rules:\n  scan: off\n  scan: error\n"));
    assert_problem(t, 3, "duplicate rule 'scan'", "line 2");
}

static void test_error_access_pattern(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "access-patterns:\n"             /* 1 */
                             "  - { pk: \"A#{id}\" }\n"      /* 2 */
                             "  - name: no pk\n"             /* 3 */
                             "    sk: \"B#{id}\"\n"          /* 4 */
                             "  - {}\n"                      /* 5 */
                             "  - just a string\n"           /* 6 */
                             "  - { name: ok, pk: [x] }\n"   /* 7 */
                             "  - { name: fine, pk: \"C\" }\n")); /* 8 */
    assert_problem(t, 2, "'access-patterns' entry 1 is missing 'name'");
    assert_problem(t, 3, "'access-patterns' entry 2 is missing 'pk'");
    assert_problem(t, 5, "'access-patterns' entry 3 is missing 'name'");
    assert_problem(t, 5, "'access-patterns' entry 3 is missing 'pk'");
    assert_problem(t, 6, "'access-patterns' entry 4 must be a mapping");
    assert_problem(t, 7, "'pk' of 'access-patterns' entry 5 must be a "
                         "non-empty string");
    assert_int_equal(t->probs.items.n, 6);
}

static void test_wrappers(void **state)
{
    T *t = *state;
    Config *c = load_text(t, "wrappers:\n"
                             "  - { call: \"dal.getRows\", operation: query, table: 0.tableName,\n"
                             "      key-condition: 0.keyCondition, values: 0.values, index: 0.index }\n"
                             "  - { call: \"*.saveRow\", operation: put, table: 0, item: 1 }\n");
    if (!c)
        dump_problems(&t->probs);
    assert_non_null(c);
    assert_int_equal(c->wrappers.n, 2);
    assert_string_equal(c->wrappers.v[0].call, "dal.getRows");
    assert_int_equal(c->wrappers.v[0].operation, OP_QUERY);
    assert_string_equal(c->wrappers.v[0].table, "0.tableName");
    assert_string_equal(c->wrappers.v[0].key_condition, "0.keyCondition");
    assert_string_equal(c->wrappers.v[0].values, "0.values");
    assert_string_equal(c->wrappers.v[0].index, "0.index");
    assert_null(c->wrappers.v[0].key);
    assert_int_equal(c->wrappers.v[1].operation, OP_PUT);
    assert_string_equal(c->wrappers.v[1].item, "1");
    assert_int_equal(c->wrappers.v[1].line, 4);
    config_free(c);
}

static void test_error_wrappers(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "wrappers:\n"                                   /* 1 */
                             "  - { operation: query }\n"                    /* 2 */
                             "  - { call: a.b }\n"                           /* 3 */
                             "  - { call: a.b, operation: frob }\n"          /* 4 */
                             "  - { call: a.b, operation: get, key: key.0 }\n" /* 5 */
                             "  - { call: a.b, operation: get, tabel: 0 }\n")); /* 6 */
    assert_problem(t, 2, "'wrappers' entry 1 is missing 'call'");
    assert_problem(t, 3, "'wrappers' entry 2 is missing 'operation'");
    assert_problem(t, 4, "'operation' of 'wrappers' entry 3 must be get, query, scan, put, "
                         "update or delete (got 'frob')");
    assert_problem(t, 5, "'key' of 'wrappers' entry 4 must be an argument index");
    assert_problem(t, 6, "unknown key 'tabel' in 'wrappers' entry 5");
    assert_int_equal(t->probs.items.n, 5);
}

static void test_error_duplicates_and_documents(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "ignore: [a]\n"
                             "separator: \"#\"\n"
                             "ignore: [b]\n"
                             "tenant: { names: [a], names: [b] }\n"));
    assert_int_equal(t->probs.items.n, 2);
    assert_problem(t, 3, "duplicate key 'ignore' in .keylint.yml",
                   "first set on line 1");
    assert_problem(t, 4, "duplicate key 'names' in 'tenant'");

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "separator: \"#\"\n---\nignore: [a]\n"));
    assert_problem(t, 2, "single YAML document");

    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(load_text(t, "[a]: b\n"));
    assert_problem(t, 1, "keys in .keylint.yml must be strings");
}

static void test_many_errors(void **state)
{
    T *t = *state;
    assert_null(load_text(t, "separatr: \"#\"\n"                 /* 1 */
                             "version-separator: \"@@\"\n"       /* 2 */
                             "mutable-fields: { a: b }\n"        /* 3 */
                             "rules:\n"                          /* 4 */
                             "  scan: loud\n"                    /* 5 */
                             "  nope: off\n"                     /* 6 */
                             "access-patterns:\n"                /* 7 */
                             "  - { name: x }\n"                 /* 8 */
                             "max-key-components: 0\n"));        /* 9 */
    assert_int_equal(t->probs.items.n, 7);
    assert_problem(t, 1, "unknown key 'separatr'", "'separator'");
    assert_problem(t, 2, "'version-separator' must be a single");
    assert_problem(t, 3, "'mutable-fields' must be a list of strings");
    assert_problem(t, 5, "severity of rule 'scan'", "'loud'");
    assert_problem(t, 6, "unknown rule 'nope'");
    assert_problem(t, 8, "missing 'pk'");
    assert_problem(t, 9, "'max-key-components'");
    for (size_t i = 0; i < t->probs.items.n; i++)
        assert_string_equal(t->probs.items.v[i].path, t->path);
}

static void test_binary_file(void **state)
{
    T *t = *state;
    /* Invalid UTF-8 in the middle of line 2: a byte that never starts a
     * character, then a Latin-1 'é' whose next byte does not continue it
     * (libyaml points at that next byte). */
    static const char bad[] = "separator: \"#\"\nignore: [caf\xFF]\n";
    assert_null(config_load(
        write_bytes(t, ".keylint.yml", bad, sizeof bad - 1), RULES,
        &t->probs));
    assert_int_equal(t->probs.items.n, 1);
    const Problem *p = assert_problem(t, 2, "cannot read .keylint.yml as YAML",
                                      "invalid leading UTF-8 octet", "0xFF");
    assert_int_equal(p->col, 13);

    static const char latin1[] = "separator: \"#\"\nignore: [caf\xE9]\n";
    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(config_load(
        write_bytes(t, ".keylint.yml", latin1, sizeof latin1 - 1), RULES,
        &t->probs));
    assert_int_equal(t->probs.items.n, 1);
    p = assert_problem(t, 2, "cannot read .keylint.yml as YAML", "UTF-8");
    assert_int_equal(p->col, 14);

    /* NUL bytes and control characters. */
    static const char nul[] = "separator: \"#\"\0\0\x01\x02";
    problems_free(&t->probs);
    problems_init(&t->probs);
    assert_null(config_load(
        write_bytes(t, ".keylint.yml", nul, sizeof nul - 1), RULES,
        &t->probs));
    assert_int_equal(t->probs.items.n, 1);
    assert_problem(t, 1, "cannot read .keylint.yml as YAML",
                   "control characters");

    /* Pseudo-random bytes of several sizes: never a crash, always a
     * Problem or a config. */
    uint32_t seed = 12345;
    for (size_t size = 1; size <= 8192; size *= 4) {
        char *buf = malloc(size);
        assert_non_null(buf);
        for (size_t i = 0; i < size; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)(seed >> 16);
        }
        problems_free(&t->probs);
        problems_init(&t->probs);
        Config *c = config_load(write_bytes(t, ".keylint.yml", buf, size),
                                RULES, &t->probs);
        assert_true(c != NULL || t->probs.items.n > 0);
        config_free(c);
        free(buf);
    }

    /* The ELF header of this test program. */
    problems_free(&t->probs);
    problems_init(&t->probs);
    static const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
    assert_null(config_load(
        write_bytes(t, ".keylint.yml", elf, sizeof elf - 1), RULES,
        &t->probs));
    assert_true(t->probs.items.n >= 1);
}

/* ------------------------------------------------------------------------ */
/* Discovery                                                                */

static void test_config_find(void **state)
{
    T *t = *state;
    char deep[BUF], want[BUF], sub[BUF];
    snprintf(deep, sizeof deep, "%s/a/b/c/d", t->dir);
    mkdirs(deep);

    /* Nothing in the tree: whatever is found lies outside it. */
    char *found = config_find(deep);
    if (found)
        assert_true(strncmp(found, t->dir, strlen(t->dir)) != 0);
    free(found);

    write_text(t, "a/keylint.yml", "ignore: []\n");
    snprintf(want, sizeof want, "%s/a/keylint.yml", t->dir);
    found = config_find(deep);
    assert_non_null(found);
    assert_string_equal(found, want);
    free(found);

    /* .keylint.yml wins over keylint.yml in the same directory. */
    write_text(t, "a/.keylint.yml", "ignore: []\n");
    snprintf(want, sizeof want, "%s/a/.keylint.yml", t->dir);
    found = config_find(deep);
    assert_non_null(found);
    assert_string_equal(found, want);
    free(found);

    /* The nearest one wins, whatever its name. */
    write_text(t, "a/b/c/keylint.yml", "ignore: []\n");
    snprintf(want, sizeof want, "%s/a/b/c/keylint.yml", t->dir);
    found = config_find(deep);
    assert_non_null(found);
    assert_string_equal(found, want);
    free(found);

    /* The start directory itself counts; a path with ".." is made
     * absolute. */
    snprintf(sub, sizeof sub, "%s/a/b/c/d/../../c", t->dir);
    found = config_find(sub);
    assert_non_null(found);
    assert_string_equal(found, want);
    free(found);

    /* A directory named .keylint.yml is not a config file. */
    snprintf(sub, sizeof sub, "%s/a/b/c/d/.keylint.yml", t->dir);
    mkdirs(sub);
    found = config_find(deep);
    assert_non_null(found);
    assert_string_equal(found, want);
    free(found);

    /* A relative start directory is taken from the cwd. */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(deep), 0);
    found = config_find(".");
    char *found2 = config_find(NULL);
    assert_int_equal(chdir(cwd), 0);
    assert_non_null(found);
    assert_string_equal(found, want);
    assert_non_null(found2);
    assert_string_equal(found2, want);
    free(found);
    free(found2);

    snprintf(sub, sizeof sub, "%s/does/not/exist", t->dir);
    assert_null(config_find(sub));
}

/* The finder gives config_find's answer for every directory of a tree,
 * in any order of asking, asked once or twice. */
static void test_config_finder(void **state)
{
    T *t = *state;
    const char *dirs[] = {"a/b/c/d", "a/b", "a/b/c", "a", "e/f", "e", "a/b/c/d", "e/f", ""};
    char d[BUF];
    snprintf(d, sizeof d, "%s/a/b/c/d", t->dir);
    mkdirs(d);
    snprintf(d, sizeof d, "%s/e/f", t->dir);
    mkdirs(d);
    write_text(t, "a/keylint.yml", "ignore: []\n");
    write_text(t, "a/b/c/.keylint.yml", "ignore: []\n");
    write_text(t, "e/f/.keylint.yml/x", "not a file\n"); /* a directory of that name */
    for (int order = 0; order < 2; order++) {
        ConfigFinder *f = config_finder_new();
        size_t n = sizeof dirs / sizeof *dirs;
        for (size_t k = 0; k < n; k++) {
            const char *rel = dirs[order ? n - 1 - k : k];
            snprintf(d, sizeof d, "%s%s%s", t->dir, *rel ? "/" : "", rel);
            char *want = config_find(d);
            const char *got = config_finder_find(f, d);
            if (want) {
                assert_non_null(got);
                assert_string_equal(got, want);
            } else {
                assert_null(got);
            }
            free(want);
        }
        snprintf(d, sizeof d, "%s/a/b/c/d", t->dir);
        char want[BUF];
        snprintf(want, sizeof want, "%s/a/b/c/.keylint.yml", t->dir);
        assert_string_equal(config_finder_find(f, d), want);
        snprintf(d, sizeof d, "%s/a/b", t->dir);
        snprintf(want, sizeof want, "%s/a/keylint.yml", t->dir);
        assert_string_equal(config_finder_find(f, d), want);
        config_finder_free(f);
    }
}

/* ignore: {a,b} groups, `!` taking files back (the last match decides),
 * and unbalanced braces rejected with the file and line. */
static void test_ignore_braces_and_negation(void **state)
{
    T *t = *state;
    Config *c = load_text(t, "ignore: [\"legacy/**\", \"src/{gen,tmp/{a,b}}/**\", "
                             "\"!src/keep.test.ts\", \"{x}.ts\"]\n");
    if (!c)
        dump_problems(&t->probs);
    assert_non_null(c);
    assert_strlist(&c->ignore, LIST("*.spec.*", "*.test.*", "**/__tests__/**", "**/__mocks__/**",
                                    "legacy/**", "src/gen/**", "src/tmp/a/**", "src/tmp/b/**",
                                    "!src/keep.test.ts", "{x}.ts"));
    char p[2 * BUF];
    static const struct {
        const char *rel;
        bool want;
    } cases[] = {
        {"src/a.ts", false},       {"src/a.test.ts", true},   {"src/keep.test.ts", false},
        {"src/gen/g.ts", true},    {"src/tmp/a/x.ts", true},  {"src/tmp/c/x.ts", false},
        {"legacy/l.ts", true},     {"{x}.ts", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(p, sizeof p, "%s/%s", c->dir, cases[i].rel);
        if (config_ignores(c, p) != cases[i].want)
            fail_msg("config_ignores(%s) should be %d", cases[i].rel, cases[i].want);
    }
    config_free(c);

    assert_null(load_text(t, "separator: \"#\"\nignore: [\"src/{gen\"]\n"));
    assert_problem(t, 2, "'ignore': the glob 'src/{gen' has a '{' without its '}'");
    assert_null(load_text(t, "ignore: [\"a}b\"]\n"));
    assert_problem(t, 1, "'ignore': the glob 'a}b' has a '}' without its '{'");
}

/* ------------------------------------------------------------------------ */
/* Ignores                                                                  */

static void test_config_ignores(void **state)
{
    T *t = *state;
    char proj[BUF], p[2 * BUF];
    write_text(t, "proj/src/a.ts", "");
    write_text(t, "proj/src/a.spec.ts", "");
    write_text(t, "proj/scripts/x/y.ts", "");
    write_text(t, "other/src/a.spec.ts", "");
    Config *c = config_load(
        write_text(t, "proj/.keylint.yml",
                   "ignore: [\"**/*.spec.ts\", \"scripts/**\", \"/gen/*.ts\","
                   " \"build/\"]\n"),
        RULES, &t->probs);
    assert_non_null(c);
    snprintf(proj, sizeof proj, "%s/proj", t->dir);
    assert_string_equal(c->dir, proj);

    static const struct {
        const char *rel; /* relative to proj */
        bool want;
    } cases[] = {
        {"src/a.ts", false},
        {"src/a.spec.ts", true},
        {"a.spec.ts", true},
        {"scripts/x/y.ts", true},
        {"scripts/y.ts", true},
        {"src/scripts/y.ts", false},
        {"gen/out.ts", true},
        {"gen/sub/out.ts", false},
        {"src/gen/out.ts", false},
        {"build/a/b.js", true},
        {"src/../scripts/x/y.ts", true},  /* normalized */
        {"src/./a.spec.ts", true},
        {"not/there/yet.spec.ts", true},  /* nonexistent files too */
        {"../other/src/a.spec.ts", false}, /* outside the config's dir */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(p, sizeof p, "%s/%s", proj, cases[i].rel);
        if (config_ignores(c, p) != cases[i].want)
            fail_msg("config_ignores(%s) should be %d", cases[i].rel,
                     cases[i].want);
        /* the same, of a path already resolved (no "." or ".." in it) */
        snprintf(p, sizeof p, "%s/%s", c->dir, cases[i].rel);
        if (!strstr(cases[i].rel, "./") && config_ignores_resolved(c, p) != cases[i].want)
            fail_msg("config_ignores_resolved(%s) should be %d", cases[i].rel,
                     cases[i].want);
    }
    assert_false(config_ignores_resolved(c, "src/a.spec.ts")); /* not absolute */
    assert_false(config_ignores_resolved(NULL, "/a.spec.ts"));

    /* Relative paths are taken from the current directory. */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(proj), 0);
    bool r1 = config_ignores(c, "src/a.spec.ts");
    bool r2 = config_ignores(c, "./scripts/x/y.ts");
    bool r3 = config_ignores(c, "src/a.ts");
    bool r4 = config_ignores(c, "../other/src/a.spec.ts");
    bool r5 = config_ignores(c, ".");
    assert_int_equal(chdir(t->dir), 0);
    bool r6 = config_ignores(c, "proj/src/a.spec.ts");
    bool r7 = config_ignores(c, "other/src/a.spec.ts");
    assert_int_equal(chdir(cwd), 0);
    assert_true(r1);
    assert_true(r2);
    assert_false(r3);
    assert_false(r4);
    assert_false(r5);
    assert_true(r6);
    assert_false(r7);

    /* A file whose path shares a prefix with the dir is outside it. */
    snprintf(p, sizeof p, "%s/proj2/a.spec.ts", t->dir);
    assert_false(config_ignores(c, p));
    assert_false(config_ignores(c, ""));
    config_free(c);
}

/* ------------------------------------------------------------------------ */
/* glob_match                                                               */

static void test_glob_table(void **state)
{
    (void)state;
    static const struct {
        const char *pattern, *path;
        bool want;
    } cases[] = {
        /* literal, anchored */
        {"src/a.ts", "src/a.ts", true},
        {"src/a.ts", "src/b.ts", false},
        {"src/a.ts", "x/src/a.ts", false},
        {"src/a.ts", "src/a.tsx", false},
        /* * stays inside a component */
        {"src/*.ts", "src/a.ts", true},
        {"src/*.ts", "src/.ts", true},
        {"src/*.ts", "src/a/b.ts", false},
        {"src/*", "src/a", true},
        {"src/*", "src/a/b", false},
        {"*/a.ts", "src/a.ts", true},
        {"*/a.ts", "a.ts", false},
        {"src/a*b*c", "src/abc", true},
        {"src/a*b*c", "src/aXbYc", true},
        {"src/a*b*c", "src/aXbY", false},
        /* no '/': basename, like .gitignore */
        {"*.spec.ts", "a.spec.ts", true},
        {"*.spec.ts", "src/deep/a.spec.ts", true},
        {"*.spec.ts", "src/a.ts", false},
        {"*.spec.ts", "a.spec.ts/b.ts", false},
        {"node_modules", "a/node_modules", true},
        {"Makefile", "src/Makefile", true},
        {"Makefile", "src/Makefile.am", false},
        /* ** */
        {"**/x.ts", "x.ts", true},
        {"**/x.ts", "a/x.ts", true},
        {"**/x.ts", "a/b/c/x.ts", true},
        {"**/x.ts", "a/b/c/y.ts", false},
        {"**/x.ts", "a/xx.ts", false},
        {"scripts/**", "scripts/a.ts", true},
        {"scripts/**", "scripts/a/b/c.ts", true},
        {"scripts/**", "scripts", true},
        {"scripts/**", "scripts2/a.ts", false},
        {"scripts/**", "src/scripts/a.ts", false},
        {"**/scripts/**", "scripts/a.ts", true},
        {"**/scripts/**", "src/scripts/a.ts", true},
        {"**/scripts/**", "src/scripts", true},
        {"**/scripts/**", "src/myscripts/a.ts", false},
        {"a/**/b", "a/b", true},
        {"a/**/b", "a/x/b", true},
        {"a/**/b", "a/x/y/z/b", true},
        {"a/**/b", "a/x/b/c", false},
        {"a/**/b", "b", false},
        {"a/**/**/b", "a/b", true},
        {"a/**/**/b", "a/x/y/b", true},
        {"**/a/**/b/*.ts", "x/a/y/b/z.ts", true},
        {"**/a/**/b/*.ts", "x/a/y/b/z/w.ts", false},
        {"**", "anything/at/all.ts", true},
        {"**/*", "a/b", true},
        {"a**b/c", "aXYb/c", true}, /* ** inside a component is a * */
        {"a**b/c", "aX/Yb/c", false},
        /* ? */
        {"src/?.ts", "src/a.ts", true},
        {"src/?.ts", "src/ab.ts", false},
        {"src/?.ts", "src/.ts", false},
        {"src?a.ts", "src/a.ts", false},
        {"?.ts", "\xC3\xA9.ts", true}, /* one character, two bytes */
        /* classes */
        {"src/[abc].ts", "src/b.ts", true},
        {"src/[abc].ts", "src/d.ts", false},
        {"src/[a-z].ts", "src/q.ts", true},
        {"src/[a-z].ts", "src/Q.ts", false},
        {"src/[!x].ts", "src/y.ts", true},
        {"src/[!x].ts", "src/x.ts", false},
        {"src/[^x].ts", "src/x.ts", false},
        {"src/[]a].ts", "src/].ts", true},
        {"src/[a-cx-z]?.ts", "src/yQ.ts", true},
        {"src/[a-cx-z]?.ts", "src/mQ.ts", false},
        {"[", "[", true},      /* unterminated: literal */
        {"a[b", "a[b", true},
        {"a[b", "ab", false},
        /* escapes */
        {"a\\*b", "a*b", true},
        {"a\\*b", "aXb", false},
        {"a\\?", "a?", true},
        /* leading and trailing slashes, "." components */
        {"/src/a.ts", "src/a.ts", true},
        {"./src/*.ts", "src/a.ts", true},
        {"src/*.ts", "./src/a.ts", true},
        {"build/", "build/a/b.js", true},
        {"build/", "build", true},
        {"build/", "src/build/a.js", false},
        {"src//a.ts", "src/a.ts", true},
        /* empty */
        {"", "", true},
        {"", "a", false},
        {"*", "", true},
        {"a/*", "a", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (glob_match(cases[i].pattern, cases[i].path) != cases[i].want)
            fail_msg("glob_match(\"%s\", \"%s\") should be %s",
                     cases[i].pattern, cases[i].path,
                     cases[i].want ? "true" : "false");
    }
    assert_false(glob_match(NULL, "a"));
    assert_false(glob_match("a", NULL));
}

static void test_glob_pathological(void **state)
{
    (void)state;
    enum { N = 200001 }; /* odd: "a/a/.../a" ends in 'a' */
    char *s = malloc(N + 1);
    assert_non_null(s);
    memset(s, 'a', N);
    s[N] = '\0';
    clock_t start = clock();

    assert_false(glob_match("*a*a*a*a*a*b", s));
    assert_true(glob_match("*a*a*a*a*a*a", s));
    assert_false(glob_match("**********************b", s));
    assert_false(glob_match("x/*a*a*a*a*a*b", s));

    /* Deep paths against many ** components. */
    for (size_t i = 1; i < N; i += 2)
        s[i] = '/';
    assert_false(glob_match("**/a/**/a/**/a/**/a/**/a/**/b", s));
    assert_true(glob_match("**/a/**/a/**/a/**/a/**/a/**/a", s));
    assert_true(glob_match("a/**", s));
    assert_false(glob_match("a/*/b/**", s));

    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    free(s);
    /* Linear-ish work; generous bound so it holds under valgrind too. */
    if (secs > 20.0)
        fail_msg("pathological globs took %.1fs", secs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test_setup_teardown(test_empty_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_example, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lists_replace_defaults, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_overrides, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tenant_required_values, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_rules_without_registry, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_unreadable, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_syntax, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_not_mapping, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_unknown_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_wrong_type, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_separator, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_severity_and_rules, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_wrappers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_wrappers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_access_pattern, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_error_duplicates_and_documents,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_binary_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_require_suppression_reason, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_config_find, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_finder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ignore_braces_and_negation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_ignores, setup, teardown),
        cmocka_unit_test(test_glob_table),
        cmocka_unit_test(test_glob_pathological),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
