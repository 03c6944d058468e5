/* The templates a project usually has: when a configuration names no
 * `schemas:`, the CloudFormation/SAM/serverless files near its code are
 * read for its table model (see templates.h). */
#include "templates.h"

#include "files.h"
#include "walk.h"

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

/* A directory read when the files have no project at all is read alone,
 * up to this many entries. */
enum { DISCOVER_MAX_ENTRIES = 4000 };

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool template_name(const char *path)
{
    static const char *const names[] = {
        "template.yaml", "template.yml", "template.json", "serverless.yml", "serverless.yaml",
        NULL,
    };
    const char *name = base_name(path);
    for (const char *const *n = names; *n; n++)
        if (!strcmp(name, *n))
            return true;
    size_t l = strlen(name); /* Terraform: main.tf, dynamodb.tf, ... */
    if (l > 3 && !strcmp(name + l - 3, ".tf"))
        return true;
    /* CloudFormation named for its tables: dynamodb-table.yml, tables.yaml
     * (not every template of a monorepo: a service's cfn-*.yml binds its
     * own environment, which its neighbours' code does not run with) */
    bool yaml = (l > 4 && !strcasecmp(name + l - 4, ".yml")) ||
                (l > 5 && !strcasecmp(name + l - 5, ".yaml"));
    return yaml && (strcasestr(name, "dynamo") || strcasestr(name, "table"));
}

/* Whether `rel` (a path below the directory searched) is in a hidden
 * folder (.terraform, .venv, ...; .github is read). */
static bool in_hidden_dir(const char *rel)
{
    for (const char *p = rel;;) {
        const char *e = strchr(p, '/');
        if (!e)
            return false;
        if (p[0] == '.' && strncmp(p, ".github/", 8) != 0)
            return true;
        p = e + 1;
    }
}

/* Whether the file at `path` may define a table, from its text alone: a
 * resource type or Terraform name of one. serverless.yml may include its
 * resources from other files and is always read. The parse is skipped for
 * every other file: a project's many .tf files and templates are mostly
 * not about DynamoDB. */
static bool may_define_table(const char *path)
{
    const char *name = base_name(path);
    if (!strncmp(name, "serverless.", 11))
        return true;
    static const char *const marks[] = {
        "AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable", "AWS::Serverless::SimpleTable",
        "aws_dynamodb_table",   "dynamodb-table",             NULL,
    };
    Problems quiet;
    problems_init(&quiet);
    size_t len = 0;
    char *text = read_source(path, &len, &quiet);
    problems_free(&quiet);
    bool may = false;
    for (const char *const *m = marks; text && *m && !may; m++)
        may = strstr(text, *m) != NULL;
    free(text);
    return may;
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
 * usually has (template.yaml, serverless.yml, *.tf; SAM, CloudFormation,
 * Serverless, Terraform) in `dir` and at any depth below it (not in
 * `skip`; the folders source discovery skips, and hidden ones, are not
 * read), or in `dir` alone when not `deep`, in name order. Only those
 * whose text may define a table are listed; a file that holds none adds
 * nothing later and says nothing: it was not asked for. */
static void find_templates(Arena *a, const char *dir, bool deep, const char *skip,
                           StrList *found_out)
{
    StrList found = {0};
    if (deep) {
        StrList all = {0};
        walk_dir_files(dir, template_name, a, &all);
        size_t dl = strlen(dir), sl = skip ? strlen(skip) : 0;
        for (size_t i = 0; i < all.n; i++) {
            const char *p = all.v[i];
            const char *rel = p + dl + (p[dl] == '/');
            if (skip && !strncmp(p, skip, sl) && p[sl] == '/')
                continue;
            if (!in_hidden_dir(rel) && may_define_table(p))
                strlist_push(a, &found, p);
        }
    } else if (dir) {
        DIR *d = opendir(dir);
        struct dirent *e;
        size_t entries = 0;
        while (d && (e = readdir(d)) && entries++ < DISCOVER_MAX_ENTRIES) {
            const char *p = arena_printf(a, "%s/%s", dir, e->d_name);
            if ((e->d_type == DT_REG || e->d_type == DT_UNKNOWN) && template_name(e->d_name) &&
                may_define_table(p))
                strlist_push(a, &found, p);
        }
        if (d)
            closedir(d);
        if (found.n > 1)
            qsort(found.v, found.n, sizeof *found.v, cmp_strp);
    }
    *found_out = found;
}

/* Whether the template at `path` defines a DynamoDB table (`*tables`) or
 * binds an environment variable to one (`*env`: a Lambda's .tf beside
 * the module's tables). */
static void template_contents(const char *path, bool *tables, bool *env)
{
    Problems quiet;
    problems_init(&quiet);
    Arena *scratch = arena_new();
    TableSet set = {0};
    bool ok = schema_load_file(scratch, path, path, &set, &quiet);
    *tables = ok && set.tables.n;
    *env = ok && set.env.n;
    arena_free(scratch);
    problems_free(&quiet);
}

bool templates_load(Arena *a, TemplateCache *cache, const char *path, const char *display,
                    TableSet *out, Problems *problems)
{
    if (!cache || !cache->memo)
        return schema_load_file(a, path, display, out, problems);
    const SchemaRead *r = NULL;
    for (size_t i = 0; i < cache->reads.n && !r; i++)
        if (!strcmp(cache->reads.v[i].path, path) && !strcmp(cache->reads.v[i].display, display))
            r = &cache->reads.v[i];
    if (!r) {
        if (!cache->memo_arena)
            cache->memo_arena = arena_new();
        Arena *ma = cache->memo_arena;
        SchemaRead n = {.path = arena_strdup(ma, path), .display = arena_strdup(ma, display)};
        problems_init(&n.problems);
        n.ok = schema_load_file(ma, path, display, &n.set, &n.problems);
        VEC_PUSH(ma, &cache->reads, n);
        r = &cache->reads.v[cache->reads.n - 1];
    }
    for (size_t k = 0; k < r->set.tables.n; k++)
        VEC_PUSH(a, &out->tables, r->set.tables.v[k]);
    for (size_t k = 0; k < r->set.env.n; k++)
        VEC_PUSH(a, &out->env, r->set.env.v[k]);
    for (size_t k = 0; k < r->set.issues.n; k++)
        VEC_PUSH(a, &out->issues, r->set.issues.v[k]);
    for (size_t k = 0; k < r->set.loose_indexes.n; k++)
        strlist_push(a, &out->loose_indexes, r->set.loose_indexes.v[k]);
    for (size_t k = 0; k < r->problems.items.n; k++) {
        const Problem *pr = &r->problems.items.v[k];
        problems_add_kind(problems, pr->kind, pr->path, pr->line, pr->col, "%s", pr->message);
    }
    return r->ok;
}

void templates_forget(TemplateCache *cache)
{
    if (!cache)
        return;
    for (size_t i = 0; i < cache->reads.n; i++)
        problems_free(&cache->reads.v[i].problems);
    memset(&cache->reads, 0, sizeof cache->reads);
    arena_free(cache->memo_arena);
    cache->memo_arena = NULL;
}

/* A file found on its own (resources/dynamodb.yml) that a serverless.yml
 * found too includes (`${file(resources/dynamodb.yml)}`) is read twice:
 * its tables are one each, the copy read through the include kept (there
 * `${self:custom.x}` in a name is resolved). */
static bool same_place(const char *pa, Span sa, const char *pb, Span sb)
{
    return pa && pb && sa.start_byte == sb.start_byte && sa.end_byte == sb.end_byte &&
           !strcmp(pa, pb);
}

static void add_table(Arena *a, TableModel *m, const TableDef *t)
{
    for (size_t i = 0; i < m->set.tables.n; i++) {
        TableDef *o = &m->set.tables.v[i];
        if (!same_place(o->path, o->span, t->path, t->span))
            continue;
        bool o_open = o->name && strstr(o->name, "${self:"), t_open = t->name && strstr(t->name, "${self:");
        if (o_open && !t_open)
            *o = *t;
        return;
    }
    VEC_PUSH(a, &m->set.tables, *t);
}

static bool issue_read(const TableModel *m, const SchemaIssue *is)
{
    for (size_t i = 0; i < m->set.issues.n; i++) {
        const SchemaIssue *o = &m->set.issues.v[i];
        if (same_place(o->path, o->span, is->path, is->span) && !strcmp(o->message, is->message))
            return true;
    }
    return false;
}

void templates_read(Arena *a, const StrList *found, TableModel *m, Problems *notes,
                    TemplateCache *cache)
{
    for (size_t i = 0; i < found->n; i++) {
        Problems quiet;
        problems_init(&quiet);
        TableSet set = {0};
        const char *disp = file_display_path(a, found->v[i]);
        if (templates_load(a, cache, found->v[i], disp, &set, &quiet) &&
            (set.tables.n || set.env.n || set.loose_indexes.n)) {
            if (set.tables.n)
                strlist_push(a, &m->schema_files, disp);
            for (size_t k = 0; k < set.tables.n; k++)
                add_table(a, m, &set.tables.v[k]);
            for (size_t k = 0; k < set.env.n; k++)
                VEC_PUSH(a, &m->set.env, set.env.v[k]);
            for (size_t k = 0; k < set.loose_indexes.n; k++)
                strlist_push(a, &m->set.loose_indexes, set.loose_indexes.v[k]);
            /* its tables are judged as a named schema's are */
            for (size_t k = 0; k < set.issues.n; k++)
                if (!issue_read(m, &set.issues.v[k]))
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
        find_templates(ca, cfg->dir, true, NULL, &ft.paths);
    } else if (!root) {
        if (dir)
            find_templates(ca, dir, false, NULL, &ft.paths);
    } else {
        /* dir, then each directory above it up to the root (without the
         * part already searched), until one has a template with tables */
        char *level = arena_strdup(ca, dir    ? dir
                                       : base && inside(base, root) ? base
                                                                    : root);
        const char *searched = NULL;
        for (;;) {
            StrList found = {0};
            find_templates(ca, level, true, searched, &found);
            bool any_tables = false;
            for (size_t i = 0; i < found.n; i++) {
                bool tables, env;
                template_contents(found.v[i], &tables, &env);
                any_tables |= tables;
                if (tables || env)
                    strlist_push(ca, &ft.paths, found.v[i]);
            }
            if (any_tables || strlen(level) <= strlen(root))
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
