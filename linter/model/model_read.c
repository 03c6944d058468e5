/* Readings of a drawn model the writers, the language server and the
 * model's own building share (model.h, model_int.h). */
#include "model.h"
#include "model_int.h"

#include <ctype.h>
#include <string.h>

/* How a shape's condition reads (MShape.when): the last name of a path
 * (`dto.parentAlbumId` -> parentAlbumId), else the condition as written,
 * up to 40 bytes. */
const char *model_when_text(Arena *a, const char *when)
{
    if (!when)
        return NULL;
    size_t n = strlen(when);
    bool path = n > 0;
    for (size_t i = 0; i < n && path; i++)
        path = isalnum((unsigned char)when[i]) || when[i] == '_' || when[i] == '$' ||
               when[i] == '.' || when[i] == '?';
    const char *dot = path ? strrchr(when, '.') : NULL;
    if (dot)
        return arena_strdup(a, dot + 1);
    return arena_strndup(a, when, n > 40 ? 40 : n);
}

const MEntity *model_entity(const DesignModel *m, size_t table, const char *name)
{
    for (size_t i = 0; i < m->entities.n; i++)
        if (m->entities.v[i].table == table && !strcmp(m->entities.v[i].name, name))
            return &m->entities.v[i];
    return NULL;
}

static bool sites_in(const MSites *v, const char *path)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i].path, path))
            return true;
    return false;
}

size_t model_entities_in(const DesignModel *m, Arena *a, const char *path, const MEntity ***out)
{
    const MEntity **v = arena_alloc(a, (m->entities.n + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (sites_in(&e->writes, path) || sites_in(&e->reads, path))
            v[n++] = e;
    }
    *out = v;
    return n;
}

/* A shape with no literal text at all ("{}", "{}{}"): a value passed in. */
static bool only_values(const char *canon)
{
    for (const char *p = canon; *p; p += 2)
        if (p[0] != '{' || p[1] != '}')
            return false;
    return true;
}

size_t model_cell_shapes(const MEntity *e, const char *attr, const MShape **out, size_t max)
{
    /* the written shapes and those only read that say something (a read
     * of a key nobody writes); a value passed in only when nothing else */
    size_t n = 0, others = 0;
    for (size_t i = 0; i < e->shapes.n; i++) {
        const MShape *s = &e->shapes.v[i];
        if (!strcmp(s->attr, attr) && !s->example && (s->written || !only_values(s->canon)))
            others++;
    }
    for (size_t i = 0; i < e->shapes.n && n < max; i++) {
        const MShape *s = &e->shapes.v[i];
        if (!strcmp(s->attr, attr) && !s->example &&
            (s->written || !only_values(s->canon) || !others))
            out[n++] = s;
    }
    return n;
}

const char *model_trim_separators(const char *text, size_t *n)
{
    while (*text && !isalnum((unsigned char)*text))
        text++;
    size_t l = strlen(text);
    while (l && !isalnum((unsigned char)text[l - 1]))
        l--;
    *n = l;
    return text;
}

bool model_test_file(const char *path)
{
    static const char *const dirs[] = {"test", "tests", "__tests__", "mocks", "__mocks__", NULL};
    for (const char *p = path; p && *p;) {
        const char *slash = strchr(p, '/');
        if (!slash)
            return false; /* the file's own name */
        size_t n = (size_t)(slash - p);
        for (const char *const *d = dirs; *d; d++)
            if (strlen(*d) == n && !strncmp(p, *d, n))
                return true;
        p = slash + 1;
    }
    return false;
}
