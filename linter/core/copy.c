#include "copy.h"

#include <string.h>

Copier copier_begin(Arena *to)
{
    return (Copier){.to = to, .index = arena_new()};
}

void copier_end(Copier *c)
{
    arena_free(c->index);
    *c = (Copier){0};
}

const char *copy_str(Copier *c, const char *s)
{
    if (!s)
        return NULL;
    size_t at;
    if (namemap_get(&c->seen, s, &at))
        return (const char *)(uintptr_t)at;
    const char *copy = arena_strdup(c->to, s);
    /* the key is the copy: it lives in `to`, longer than the table */
    namemap_put(c->index, &c->seen, copy, (size_t)(uintptr_t)copy);
    return copy;
}

void *copy_array(Copier *c, const void *v, size_t n, size_t elem)
{
    if (!n || !v)
        return NULL;
    void *out = arena_alloc(c->to, n * elem);
    memcpy(out, v, n * elem);
    return out;
}

StrList copy_strlist(Copier *c, const StrList *l)
{
    StrList out = {0};
    COPY_VEC(c, &out, l);
    for (size_t i = 0; i < out.n; i++)
        out.v[i] = copy_str(c, l->v[i]);
    return out;
}

NameMap copy_namemap(Copier *c, const NameMap *m)
{
    NameMap out = {.n = m->n, .cap = m->cap};
    out.slots = copy_array(c, m->slots, m->cap, sizeof *m->slots);
    for (size_t i = 0; i < out.cap; i++)
        out.slots[i].name = copy_str(c, out.slots[i].name);
    return out;
}

NumMap copy_nummap(Copier *c, const NumMap *m)
{
    NumMap out = {.n = m->n, .cap = m->cap};
    out.slots = copy_array(c, m->slots, m->cap, sizeof *m->slots);
    return out;
}
