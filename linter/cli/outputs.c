/* Outputs that would replace an input (outputs.h). */
#include "outputs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "files.h"

/* What an output will be once written: the file it is now (symbolic links
 * followed), or, when it does not exist yet, its directory's canonical
 * path and its name. `key` is malloc'd (NULL when the directory does not
 * exist either: nothing can be written there). */
typedef struct Where {
    bool exists;
    FileId id;
    char *key;
} Where;

static Where where_of(const char *path)
{
    Where w = {0};
    w.exists = file_id(path, &w.id);
    char *real = realpath(path, NULL);
    if (real) {
        w.key = real;
        return w;
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char *rdir = dir ? realpath(dir, NULL) : NULL;
    const char *base = slash ? slash + 1 : path;
    if (rdir && asprintf(&w.key, "%s/%s", strcmp(rdir, "/") ? rdir : "", base) < 0)
        w.key = NULL;
    free(rdir);
    free(dir);
    return w;
}

static bool same(const Where *a, const Where *b)
{
    if (a->exists && b->exists)
        return file_id_eq(a->id, b->id);
    return a->key && b->key && !strcmp(a->key, b->key);
}

static void say_clash(const Output *o, const char *what, const char *input)
{
    fprintf(stderr, "keylint: error: %s ", o->option);
    fputs_escaped(stderr, o->path);
    fprintf(stderr, " would replace %s", what);
    if (input && strcmp(input, o->path)) {
        fputs(" (", stderr);
        fputs_escaped(stderr, input);
        fputc(')', stderr);
    }
    fputs(", which this run reads; nothing was written\n", stderr);
}

/* Whether output `o` is the input `path` (after a message when it is). */
static bool clashes(const Output *o, const Where *w, const char *path, const char *what)
{
    FileId id;
    if (!w->exists || !path || !file_id(path, &id) || !file_id_eq(id, w->id))
        return false;
    say_clash(o, what, path);
    return true;
}

bool outputs_check_args(const Outputs *o, const char *baseline, const char *config,
                        const char *const *paths, size_t npaths)
{
    Where w[sizeof o->v / sizeof *o->v];
    bool ok = true;
    for (size_t i = 0; i < o->n; i++)
        w[i] = where_of(o->v[i].path);
    for (size_t i = 0; ok && i < o->n; i++) {
        for (size_t j = 0; ok && j < i; j++) {
            if (!same(&w[i], &w[j]))
                continue;
            fprintf(stderr, "keylint: error: %s and %s name the same file (", o->v[j].option,
                    o->v[i].option);
            fputs_escaped(stderr, o->v[j].path);
            if (strcmp(o->v[i].path, o->v[j].path)) {
                fputs(", ", stderr);
                fputs_escaped(stderr, o->v[i].path);
            }
            fputs("): each report needs a file of its own\n", stderr);
            ok = false;
        }
        ok = ok && !clashes(&o->v[i], &w[i], baseline, "the baseline");
        ok = ok && !clashes(&o->v[i], &w[i], config, "the configuration file");
        for (size_t k = 0; ok && k < npaths; k++)
            ok = !clashes(&o->v[i], &w[i], paths[k], "a file to lint");
    }
    for (size_t i = 0; i < o->n; i++)
        free(w[i].key);
    return ok;
}

/* A schema path of a configuration, as the project reads it: relative to
 * the configuration's directory. malloc'd. */
static char *schema_path(const Config *c, const char *s)
{
    char *out = NULL;
    if (s[0] == '/' || !c->dir || !c->dir[0])
        return strdup(s);
    if (asprintf(&out, "%s/%s", c->dir, s) < 0)
        return NULL;
    return out;
}

static bool config_clash(const Output *o, const Where *w, const char *path, const Config *c)
{
    if (path && path[0] && clashes(o, w, path, "a configuration file"))
        return true;
    for (size_t k = 0; c && k < c->schemas.n; k++) {
        char *s = schema_path(c, c->schemas.v[k]);
        bool hit = clashes(o, w, s, "a schema file");
        free(s);
        if (hit)
            return true;
    }
    return false;
}

bool outputs_check_project(const Outputs *o, const Project *p)
{
    bool ok = true;
    for (size_t i = 0; ok && i < o->n; i++) {
        const Output *out = &o->v[i];
        Where w = where_of(out->path);
        if (!w.exists) {
            free(w.key);
            continue;
        }
        const SourceFile *f = w.key ? project_file(p, w.key) : NULL;
        if (f && !f->removed) {
            say_clash(out, "a file to lint", f->path);
            ok = false;
        }
        ok = ok && !config_clash(out, &w, p->forced ? p->forced->path : NULL, p->forced);
        for (size_t k = 0; ok && k < p->configs.n; k++)
            ok = !config_clash(out, &w, p->configs.v[k].path, p->configs.v[k].config);
        for (size_t m = 0; ok && m < p->models.n; m++) {
            const TableModel *tm = p->models.v[m].model;
            for (size_t k = 0; ok && tm && k < tm->schema_files.n; k++)
                ok = !clashes(out, &w, tm->schema_files.v[k], "a schema file");
        }
        free(w.key);
    }
    return ok;
}
