/* keylint --init: see init.h. Values are written as JSON strings (jansson),
 * which YAML reads as double-quoted scalars: no quoting by hand. */
#include "init.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "keyfacts.h"
#include "schema.h"

/* A YAML scalar for `s`: a JSON string (malloc'd). */
static char *scalar(const char *s)
{
    json_t *j = json_string(s);
    char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return out ? out : strdup("\"\"");
}

/* `[a, b]`, each a scalar. */
static void put_items(FILE *out, const StrList *l)
{
    fputc('[', out);
    for (size_t i = 0; i < l->n; i++) {
        char *v = scalar(l->v[i]);
        fprintf(out, "%s%s", i ? ", " : "", v);
        free(v);
    }
    fputc(']', out);
}

static void put_list(FILE *out, const char *indent, const StrList *l)
{
    put_items(out, l);
    fputc('\n', out);
    (void)indent;
}

static const char *relative_to(const char *dir, const char *path);

typedef struct NameCount {
    const char *name;
    size_t n;
} NameCount;

/* The value names in the project's partition keys that carry a tenant
 * (by keylint's defaults: tenantCode, tenantId, ... or anything with
 * "tenant"), most used first. */
/* Whether `path` is `dir` or below it. */
static bool is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

/* A file of the project, read, and under `under` (NULL: any). */
static const FileIR *file_ir(const Project *p, size_t f, const char *under)
{
    const SourceFile *sf = &p->files.v[f];
    if (!sf->ir || sf->removed || (under && (!sf->abspath || !is_under(sf->abspath, under))))
        return NULL;
    return sf->ir;
}

static void tenant_names(Arena *a, const Project *p, const char *under, StrList *out)
{
    VEC(NameCount) seen = {0};
    for (size_t f = 0; f < p->files.n; f++) {
        const FileIR *ir = file_ir(p, f, under);
        const Config *cfg = p->files.v[f].config;
        if (!ir)
            continue;
        for (size_t k = 0; k < ir->keys.n; k++) {
            const KeyExpr *ke = &ir->keys.v[k];
            if (ke->role != ROLE_PK && ke->role != ROLE_INDEX_PK)
                continue;
            for (size_t s = 0; s < ke->segs.n; s++) {
                const Seg *sg = &ke->segs.v[s];
                if (sg->kind != SEG_REF || !kf_name_is_tenant(a, sg->text, cfg))
                    continue;
                const char *name = kf_last_component(a, sg->text);
                size_t i = 0;
                while (i < seen.n && strcmp(seen.v[i].name, name))
                    i++;
                if (i == seen.n)
                    VEC_PUSH(a, &seen, ((NameCount){name, 0}));
                seen.v[i].n++;
            }
        }
    }
    /* most used first; a handful is enough */
    for (size_t taken = 0; taken < 5; taken++) {
        size_t best = seen.n;
        for (size_t i = 0; i < seen.n; i++)
            if (seen.v[i].n && (best == seen.n || seen.v[i].n > seen.v[best].n))
                best = i;
        if (best == seen.n)
            break;
        strlist_push(a, out, seen.v[best].name);
        seen.v[best].n = 0;
    }
}

/* An app that names its tenant otherwise: the value name that most of
 * its partition keys (two at least) carry as their first value, or NULL. */
static const char *guess_tenant(Arena *a, const Project *p, const char *under)
{
    VEC(NameCount) seen = {0};
    size_t keys = 0;
    for (size_t f = 0; f < p->files.n; f++) {
        const FileIR *ir = file_ir(p, f, under);
        for (size_t k = 0; ir && k < ir->keys.n; k++) {
            const KeyExpr *ke = &ir->keys.v[k];
            if (ke->role != ROLE_PK)
                continue;
            keys++;
            for (size_t s = 0; s < ke->segs.n; s++) {
                if (ke->segs.v[s].kind != SEG_REF)
                    continue;
                const char *name = kf_last_component(a, ke->segs.v[s].text);
                size_t i = 0;
                while (i < seen.n && strcmp(seen.v[i].name, name))
                    i++;
                if (i == seen.n)
                    VEC_PUSH(a, &seen, ((NameCount){name, 0}));
                seen.v[i].n++;
                break; /* the first value only */
            }
        }
    }
    size_t best = seen.n;
    for (size_t i = 0; i < seen.n; i++)
        if (best == seen.n || seen.v[i].n > seen.v[best].n)
            best = i;
    return best < seen.n && seen.v[best].n >= 2 && 2 * seen.v[best].n > keys ? seen.v[best].name
                                                                             : NULL;
}

/* The apps of a monorepo: the directories below `dir` holding a
 * package.json that holds files of the project (the nearest one of each
 * file), in the order first seen. */
static void find_apps(Arena *a, const Project *p, const char *dir, StrList *apps)
{
    for (size_t f = 0; f < p->files.n; f++) {
        const char *abs = p->files.v[f].abspath;
        if (!abs || p->files.v[f].removed || !is_under(abs, dir))
            continue;
        char *cur = arena_strdup(a, abs);
        for (char *slash = strrchr(cur, '/'); slash && slash - cur > (ptrdiff_t)strlen(dir);
             slash = strrchr(cur, '/')) {
            *slash = '\0';
            if (access(arena_printf(a, "%s/package.json", cur), F_OK) == 0) {
                if (!strlist_has(apps, cur))
                    strlist_push(a, apps, cur);
                break;
            }
        }
    }
}

/* One app's tenant settings. */
typedef struct AppTenant {
    const char *dir;
    StrList names;
    bool guessed;
} AppTenant;

static bool same_names(const StrList *x, const StrList *y)
{
    if (x->n != y->n)
        return false;
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->v[i], y->v[i]))
            return false;
    return true;
}

/* In a monorepo whose apps carry their tenant in different names (or one
 * carries none): an `overrides:` entry per app with its own. Returns
 * whether it wrote them. */
static bool write_app_overrides(FILE *out, Arena *a, const Project *p, const char *dir)
{
    StrList apps = {0};
    find_apps(a, p, dir, &apps);
    if (apps.n < 2)
        return false;
    AppTenant *at = arena_alloc(a, apps.n * sizeof *at);
    bool differ = false;
    for (size_t i = 0; i < apps.n; i++) {
        at[i] = (AppTenant){.dir = apps.v[i]};
        tenant_names(a, p, apps.v[i], &at[i].names);
        if (!at[i].names.n) {
            const char *g = guess_tenant(a, p, apps.v[i]);
            if (g) {
                strlist_push(a, &at[i].names, g);
                at[i].guessed = true;
            }
        }
        differ |= i > 0 && !same_names(&at[i].names, &at[0].names);
    }
    if (!differ)
        return false;
    fputs("\n# The apps of this monorepo carry the tenant in different names: each\n"
          "# gets its own (an app without one is not judged multi-tenant).\n"
          "overrides:\n",
          out);
    for (size_t i = 0; i < apps.n; i++) {
        char *glob = scalar(arena_printf(a, "%s/**", relative_to(dir, at[i].dir)));
        fprintf(out, "  - files: [%s]\n", glob);
        free(glob);
        if (at[i].guessed)
            fputs("    # guessed: the value most partition keys of this app begin with\n", out);
        if (at[i].names.n) {
            fputs("    tenant: { names: ", out);
            put_items(out, &at[i].names);
            fputs(" }\n", out);
        } else {
            fputs("    tenant: { required: false }\n", out);
        }
    }
    return true;
}

/* `path` relative to `dir` when it is below it. */
static const char *relative_to(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    if (!strncmp(path, dir, n) && path[n] == '/')
        return path + n + 1;
    return path;
}

void init_write_config(FILE *out, const Project *p, const char *dir)
{
    Arena *a = arena_new();
    char sep = p->facts.dominant_separator ? p->facts.dominant_separator : '#';
    char sep_text[2] = {sep, '\0'};
    StrList tenants = {0};
    tenant_names(a, p, NULL, &tenants);
    StrList schemas = {0};
    for (size_t m = 0; m < p->models.n; m++) {
        const TableModel *tm = p->models.v[m].model;
        for (size_t i = 0; tm && i < tm->schema_files.n; i++) {
            char *abs = realpath(tm->schema_files.v[i], NULL);
            const char *rel = relative_to(dir, abs ? abs : tm->schema_files.v[i]);
            if (!strlist_has(&schemas, rel))
                strlist_push(a, &schemas, arena_strdup(a, rel));
            free(abs);
        }
    }

    char *sepv = scalar(sep_text);
    fputs("# keylint configuration (docs/configuration.md; editors can validate it\n"
          "# with docs/keylint.schema.json). Written by keylint --init from what the\n"
          "# project's code shows: check each value, then commit it. keylint's\n"
          "# cache between runs (on by default; --no-cache), .keylint-cache/ in the\n"
          "# project root, holds a .gitignore of its own: git needs nothing more;\n"
          "# list .keylint-cache/ where other tools (.dockerignore, .npmignore)\n"
          "# should leave it out.\n\n",
          out);
    fprintf(out, "# The character between the parts of a key (ORDER%cid): the one the\n"
                 "# project's keys use most.\n"
                 "separator: %s\n\n",
            sep, sepv);
    free(sepv);
    fputs("tenant:\n"
          "  # auto: multi-tenant when some partition key carries a tenant; true\n"
          "  # makes missing-tenant report every partition key without one.\n"
          "  required: auto\n",
          out);
    if (tenants.n) {
        fputs("  # The names the project's partition keys carry the tenant in.\n  names: ", out);
        put_list(out, "  ", &tenants);
    } else {
        fputs("  # No partition key carries a tenant by keylint's default names; list\n"
              "  # yours if the project is multi-tenant.\n"
              "  # names: [tenantCode, tenantId]\n",
              out);
    }
    fputc('\n', out);
    if (schemas.n) {
        fputs("# The table definitions the access-pattern rules check queries against.\n"
              "schemas: ",
              out);
        put_list(out, "", &schemas);
    } else {
        fputs("# No template with a DynamoDB table was found (template.yaml,\n"
              "# serverless.yml); tables defined in CDK, SST or CreateTable code are\n"
              "# read without configuration. Name schema files here if there are any.\n"
              "# schemas: [infra/template.yaml]\n",
              out);
    }
    fputs("\n# Attributes whose values change: a table key built from one is reported.\n"
          "# mutable-fields: [status, state, priority, updatedAt]\n"
          "\n# Files not checked, on top of the test files left out by default.\n"
          "# ignore: [\"scripts/**\"]\n"
          "\n# Rule severities (keylint --list-rules).\n"
          "# rules: { magic-string: warning, missing-tenant: error }\n",
          out);
    write_app_overrides(out, a, p, dir);
    arena_free(a);
}

/* --init [DIR]: write DIR/.keylint.yml (default: the current directory)
 * from an analysis of DIR under the defaults; never over an existing one. */
int init_run(const char *config, int npaths, char **paths)
{
    if (npaths > 1 || config) {
        fprintf(stderr, "keylint: error: --init takes at most one directory and no --config\n");
        return 2;
    }
    const char *dir = npaths ? paths[0] : ".";
    char *abs = realpath(dir, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "keylint: error: --init: %s is not a directory\n", dir);
        free(abs);
        return 2;
    }
    Arena *a = arena_new();
    const char *target = arena_printf(a, "%s/.keylint.yml", abs);
    int rc = 0;
    if (access(target, F_OK) == 0) {
        fprintf(stderr, "keylint: error: %s exists; --init never replaces a configuration\n",
                target);
        rc = 2;
    } else {
        Project *p = project_new(NULL);
        p->drop_texts = true;
        const char *one[] = {abs};
        project_add_paths(p, one, 1);
        project_analyze(p);
        ReplaceFile rf;
        bool ok = replace_open(&rf, target, a);
        if (ok) {
            init_write_config(rf.f, p, abs);
            ok = replace_commit(&rf, !ferror(rf.f));
        }
        if (ok) {
            fprintf(stderr, "keylint: wrote %s (%zu files read); check it and commit it\n",
                    target, project_linted_files(p));
        } else {
            fprintf(stderr, "keylint: error: cannot write %s: %s\n", target,
                    replace_error(&rf));
            rc = 2;
        }
        project_free(p);
    }
    arena_free(a);
    free(abs);
    return rc;
}
