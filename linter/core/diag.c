#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(DiagList *d)
{
    memset(d, 0, sizeof *d);
    d->arena = arena_new();
}

void diag_free(DiagList *d)
{
    arena_free(d->arena);
    memset(d, 0, sizeof *d);
}

Diagnostic *diag_add(DiagList *d, const char *rule, Severity sev,
                     const char *path, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Diagnostic dg = {
        .rule = arena_strdup(d->arena, rule),
        .severity = sev,
        .path = arena_strdup(d->arena, path),
        .span = span,
        .message = arena_vprintf(d->arena, fmt, ap),
    };
    va_end(ap);
    VEC_PUSH(d->arena, &d->items, dg);
    return &d->items.v[d->items.n - 1];
}

void diag_append(DiagList *dst, const DiagList *src)
{
    for (size_t i = 0; i < src->items.n; i++) {
        const Diagnostic *s = &src->items.v[i];
        Diagnostic *n = diag_add(dst, s->rule, s->severity, s->path, s->span,
                                 "%s", s->message);
        n->fix = s->fix ? arena_strdup(dst->arena, s->fix) : NULL;
    }
}

static int diag_cmp(const void *a, const void *b)
{
    const Diagnostic *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->span.start_row != y->span.start_row)
        return x->span.start_row < y->span.start_row ? -1 : 1;
    if (x->span.start_col != y->span.start_col)
        return x->span.start_col < y->span.start_col ? -1 : 1;
    if ((c = strcmp(x->rule, y->rule)))
        return c;
    return strcmp(x->message, y->message);
}

void diag_sort(DiagList *d)
{
    if (d->items.n < 2)
        return;
    qsort(d->items.v, d->items.n, sizeof *d->items.v, diag_cmp);
    size_t w = 1;
    for (size_t r = 1; r < d->items.n; r++) {
        if (diag_cmp(&d->items.v[w - 1], &d->items.v[r]) != 0)
            d->items.v[w++] = d->items.v[r];
    }
    d->items.n = w;
}
