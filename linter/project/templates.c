/* The templates a project usually has: when a configuration names no
 * `schemas:`, the CloudFormation/SAM/serverless files near its code are
 * read for its table model (see templates.h). */
#include "templates.h"

#include "files.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_strp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

enum { DISCOVER_DEPTH = 2, DISCOVER_MAX_ENTRIES = 4000 };

static bool template_name(const char *name)
{
    static const char *const names[] = {
        "template.yaml", "template.yml", "template.json", "serverless.yml", "serverless.yaml",
        NULL,
    };
    for (const char *const *n = names; *n; n++)
        if (!strcmp(name, *n))
            return true;
    size_t l = strlen(name); /* Terraform: main.tf, dynamodb.tf, ... */
    return l > 3 && !strcmp(name + l - 3, ".tf");
}

static bool skipped_dir(const char *name)
{
    static const char *const names[] = {
        "node_modules", "dist", "build", "out", "coverage", "cdk.out", ".serverless",
        ".aws-sam", ".next", ".git", NULL,
    };
    if (name[0] == '.' && strcmp(name, ".github") != 0)
        return true;
    for (const char *const *n = names; *n; n++)
        if (!strcmp(name, *n))
            return true;
    return false;
}

/* Whether the directory `dir` is `top` or below it. */
static bool inside(const char *dir, const char *top)
{
    size_t n = strlen(top);
    if (n == 1 && top[0] == '/')
        return dir[0] == '/';
    return !strncmp(dir, top, n) && (dir[n] == '\0' || dir[n] == '/');
}

/* The deepest directory that holds every file of `cfg`, NULL when none. */
static const char *common_dir(Arena *a, FileIR *const *files, const Config *const *cfgs,
                              const char *const *abspaths, size_t n, const Config *cfg)
{
    char *common = NULL;
    size_t len = 0;
    for (size_t fi = 0; fi < n; fi++) {
        if (cfgs[fi] != cfg || !files[fi])
            continue;
        char *abs = abspaths && abspaths[fi] ? strdup(abspaths[fi])
                                             : realpath(files[fi]->path, NULL);
        if (!abs)
            continue;
        char *slash = strrchr(abs, '/');
        size_t dl = slash && slash != abs ? (size_t)(slash - abs) : 1;
        if (!common) {
            common = arena_strndup(a, abs, dl);
            len = dl;
        } else {
            size_t k = 0;
            while (k < len && k < dl && common[k] == abs[k])
                k++;
            /* back to a whole component */
            if (!(k == len && (k == dl || abs[k] == '/')))
                while (k > 1 && common[k] != '/')
                    k--;
            len = k ? k : 1;
            common[len] = '\0';
        }
        free(abs);
    }
    return common;
}

/* Without `schemas:` in the configuration, the templates a project
 * usually has (template.yaml, serverless.yml; SAM, CloudFormation,
 * Serverless) in `dir` or up to max_depth levels below it (not in `skip`),
 * in name order. A file that holds no DynamoDB table adds nothing, and
 * says nothing: it was not asked for. */
static void find_templates(Arena *a, const char *dir, int max_depth, const char *skip,
                           StrList *found_out)
{
    StrList found = {0};
    typedef struct Pending {
        const char *dir;
        int depth;
    } Pending;
    VEC(Pending) todo = {0};
    VEC_PUSH(a, &todo, ((Pending){dir, 0}));
    size_t entries = 0;
    for (size_t t = 0; t < todo.n && entries < DISCOVER_MAX_ENTRIES; t++) {
        Pending cur = todo.v[t];
        DIR *d = opendir(cur.dir);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) && entries++ < DISCOVER_MAX_ENTRIES) {
            if (e->d_type == DT_DIR) {
                const char *sub = arena_printf(a, "%s/%s", cur.dir, e->d_name);
                if (cur.depth < max_depth && !skipped_dir(e->d_name) &&
                    !(skip && !strcmp(sub, skip)))
                    VEC_PUSH(a, &todo, ((Pending){sub, cur.depth + 1}));
            } else if ((e->d_type == DT_REG || e->d_type == DT_UNKNOWN) &&
                       template_name(e->d_name)) {
                strlist_push(a, &found, arena_printf(a, "%s/%s", cur.dir, e->d_name));
            }
        }
        closedir(d);
    }
    if (found.n > 1)
        qsort(found.v, found.n, sizeof *found.v, cmp_strp);
    *found_out = found;
}

/* Whether the template at `path` defines a DynamoDB table. */
static bool template_has_tables(const char *path)
{
    Problems quiet;
    problems_init(&quiet);
    Arena *scratch = arena_new();
    TableSet set = {0};
    bool has = schema_load_file(scratch, path, path, &set, &quiet) && set.tables.n;
    arena_free(scratch);
    problems_free(&quiet);
    return has;
}

void templates_read(Arena *a, const StrList *found, TableModel *m, Problems *notes)
{
    for (size_t i = 0; i < found->n; i++) {
        Problems quiet;
        problems_init(&quiet);
        TableSet set = {0};
        const char *disp = file_display_path(a, found->v[i]);
        if (schema_load_file(a, found->v[i], disp, &set, &quiet) && set.tables.n) {
            strlist_push(a, &m->schema_files, disp);
            for (size_t k = 0; k < set.tables.n; k++)
                VEC_PUSH(a, &m->set.tables, set.tables.v[k]);
            for (size_t k = 0; k < set.env.n; k++)
                VEC_PUSH(a, &m->set.env, set.env.v[k]);
            /* its tables are judged as a named schema's are */
            for (size_t k = 0; k < set.issues.n; k++)
                VEC_PUSH(a, &m->set.issues, set.issues.v[k]);
            for (size_t k = 0; k < quiet.items.n; k++) {
                const Problem *pr = &quiet.items.v[k];
                if (pr->kind == PROBLEM_NOTE)
                    problems_add_kind(notes, pr->kind, pr->path, pr->line, pr->col, "%s",
                                      pr->message);
            }
        }
        problems_free(&quiet);
    }
}

const StrList *templates_of(Arena *a, const Config *cfg, FileIR *const *files,
                            const Config *const *cfgs, const char *const *abspaths, size_t n,
                            TemplateCache *cache)
{
    for (size_t i = 0; cache && i < cache->v.n; i++)
        if (cache->v.v[i].config == cfg)
            return &cache->v.v[i].paths;
    Arena *ca = cache ? cache->arena : a;
    /* Discovery never leaves the project: the git work tree holding the
     * files; outside one, the configuration's directory when they are in
     * it, else the directory linted when they are in it. From the
     * configuration's directory and below when it is in the project (a
     * configuration elsewhere, `-c ~/x.yml`, is not searched around);
     * otherwise from the directory all its files are under, then each
     * directory above it up to the project's root, until one has a
     * template with tables: a service's own template, never its
     * neighbours' in a monorepo. The files, not the working directory,
     * decide. With no project at all (files named outside any work tree,
     * configuration or directory linted) only the files' own directory
     * is read, not below it. */
    FoundTemplates ft = {.config = cfg};
    const char *dir = common_dir(ca, files, cfgs, abspaths, n, cfg);
    const char *base = cache ? cache->base : NULL;
    const char *root = git_work_tree(ca, dir ? dir : cfg->path ? cfg->dir : base);
    if (!root && cfg->path && (!dir || inside(dir, cfg->dir)))
        root = cfg->dir;
    if (!root && base && (!dir || inside(dir, base)))
        root = base;
    if (cfg->path && root && inside(cfg->dir, root)) {
        find_templates(ca, cfg->dir, DISCOVER_DEPTH, NULL, &ft.paths);
    } else if (!root) {
        if (dir)
            find_templates(ca, dir, 0, NULL, &ft.paths);
    } else {
        /* dir, then each directory above it up to the root (without the
         * part already searched), until one has a template with tables */
        char *level = arena_strdup(ca, dir    ? dir
                                       : base && inside(base, root) ? base
                                                                    : root);
        const char *searched = NULL;
        for (;;) {
            StrList found = {0};
            find_templates(ca, level, DISCOVER_DEPTH, searched, &found);
            for (size_t i = 0; i < found.n; i++)
                if (template_has_tables(found.v[i]))
                    strlist_push(ca, &ft.paths, found.v[i]);
            if (ft.paths.n || strlen(level) <= strlen(root))
                break;
            searched = arena_strdup(ca, level);
            char *slash = strrchr(level, '/');
            if (!slash)
                break;
            slash[slash == level ? 1 : 0] = '\0';
        }
    }
    if (!cache) {
        StrList *l = arena_alloc(a, sizeof *l);
        *l = ft.paths;
        return l;
    }
    VEC_PUSH(cache->arena, &cache->v, ft);
    return &cache->v.v[cache->v.n - 1].paths;
}
