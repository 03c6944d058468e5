#include "scopes.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

