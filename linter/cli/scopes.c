#include "scopes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "rule.h"
#include "walk.h"

/* Whether `paths` name a file (something on disk that is not a
 * directory): the run is then on named paths. */
bool names_a_file(char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && !S_ISDIR(st.st_mode))
            return true;
    }
    return false;
}

/* The scope of `root`; a new one for NULL (a file outside any project,
 * linted alone). */
Scope *scope_of(Arena *a, Scopes *sc, const char *root)
{
    for (size_t i = 0; root && i < sc->v.n; i++)
        if (sc->v.v[i].root && !strcmp(sc->v.v[i].root, root))
            return &sc->v.v[i];
    Scope s = {.root = root};
    VEC_PUSH(a, &sc->v, s);
    return &sc->v.v[sc->v.n - 1];
}

/* Whether a finding of `q` is about what `s` reports: one of its files,
 * or anything under one of its directories (a changed configuration's
 * schema and access-pattern findings). The findings about a project's
 * configuration inputs are not reported for a source file named in it. */
bool scope_reports(const Project *q, const StrList *check, const StrList *dirs,
                   const char *path)
{
    const SourceFile *f = project_file(q, path);
    char *real = f ? NULL : realpath(path, NULL);
    const char *abs = f ? f->abspath : real ? real : path;
    bool hit = strlist_has(check, abs);
    for (size_t i = 0; !hit && dirs && i < dirs->n; i++) {
        char *d = realpath(dirs->v[i], NULL);
        size_t n = d ? strlen(d) : 0;
        hit = d && !strncmp(abs, d, n) && (abs[n] == '/' || abs[n] == '\0');
        free(d);
    }
    free(real);
    return hit;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The directory of `path` ("." for a bare name), in `a`. */
static const char *dir_name(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return arena_strndup(a, path, (size_t)(slash - path));
}

/* Whether `path` is one of the schema files `cfg` names. */
static bool is_schema_of(const Config *cfg, const char *path)
{
    char *abs = realpath(path, NULL);
    bool hit = false;
    for (size_t i = 0; abs && !hit && i < cfg->schemas.n; i++) {
        const char *s = cfg->schemas.v[i];
        char *joined = NULL;
        if (s[0] == '/' || !cfg->dir || !cfg->dir[0])
            joined = strdup(s);
        else if (asprintf(&joined, "%s/%s", cfg->dir, s) < 0)
            joined = NULL;
        char *sabs = joined ? realpath(joined, NULL) : NULL;
        hit = sabs && !strcmp(sabs, abs);
        free(sabs);
        free(joined);
    }
    free(abs);
    return hit;
}

/* Turn changed files into what to lint: source files as they are; a
 * .keylint.yml, or a schema its configuration names, becomes the
 * directory of that configuration (the code that depends on it); anything
 * else is dropped. Strings in `a`. */
void changed_paths(Arena *a, const char *forced_config, char **in, size_t n,
                          StrList *out)
{
    for (size_t i = 0; i < n; i++) {
        const char *path = in[i];
        const char *base = base_name(path);
        if (!strcmp(base, ".keylint.yml") || !strcmp(base, "keylint.yml")) {
            strlist_push(a, out, dir_name(a, path));
            continue;
        }
        if (is_source_path(path)) {
            strlist_push(a, out, path);
            continue;
        }
        if (!has_suffix(path, ".yml") && !has_suffix(path, ".yaml") &&
            !has_suffix(path, ".json"))
            continue;
        /* a schema? ask the configuration that applies to it */
        char *cfgpath = NULL;
        if (forced_config) {
            cfgpath = strdup(forced_config);
        } else {
            char *abs = realpath(path, NULL);
            if (abs) {
                cfgpath = config_find(dir_name(a, abs));
                free(abs);
            }
        }
        if (!cfgpath)
            continue;
        Problems ignored; /* a bad configuration is reported by the lint */
        problems_init(&ignored);
        Config *cfg = config_load(cfgpath, rule_ids(), &ignored);
        problems_free(&ignored);
        if (cfg && is_schema_of(cfg, path))
            strlist_push(a, out, dir_name(a, cfgpath));
        config_free(cfg);
        free(cfgpath);
    }
}
