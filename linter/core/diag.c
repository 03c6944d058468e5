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

static bool same_place(const DiagRelated *r, const char *path, Span span, const char *message)
{
    return !strcmp(r->path, path) && r->span.start_byte == span.start_byte &&
           r->span.end_byte == span.end_byte && r->span.start_row == span.start_row &&
           r->span.start_col == span.start_col && !strcmp(r->message, message);
}

/* Add one related place (strings already in d's arena or copied here). */
static void relate(DiagList *d, Diagnostic *g, const char *path, Span span, const char *message)
{
    if (!path)
        path = g->path;
    for (size_t i = 0; i < g->nrelated; i++)
        if (same_place(&g->related[i], path, span, message))
            return;
    if (g->nrelated >= DIAG_MAX_RELATED)
        return;
    /* a new array each time (merge_related may have shared or sized one
     * to fit): a finding has few */
    DiagRelated *grown = arena_alloc(d->arena, (g->nrelated + 1) * sizeof *grown);
    if (g->nrelated)
        memcpy(grown, g->related, g->nrelated * sizeof *grown);
    g->related = grown;
    g->related[g->nrelated++] = (DiagRelated){
        .path = arena_strdup(d->arena, path),
        .span = span,
        .message = arena_strdup(d->arena, message),
    };
}

void diag_relate(DiagList *d, Diagnostic *g, const char *path, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(d->arena, fmt, ap);
    va_end(ap);
    relate(d, g, path, span, msg);
}

static const char *dup_or_null(Arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

Diagnostic *diag_copy(DiagList *dst, const Diagnostic *s)
{
    Diagnostic *n = diag_add(dst, s->rule, s->severity, s->path, s->span, "%s", s->message);
    Arena *a = dst->arena;
    const char *rule = n->rule, *path = n->path, *message = n->message;
    *n = *s; /* every field; then the strings, into dst's arena */
    n->rule = rule;
    n->path = path;
    n->message = message;
    n->fix = dup_or_null(a, s->fix);
    n->unsafe_why = dup_or_null(a, s->unsafe_why);
    n->edit_old = dup_or_null(a, s->edit_old);
    n->edit_text = dup_or_null(a, s->edit_text);
    for (size_t k = 0; k < FIX_MAX_NEEDS; k++) {
        n->need[k].name = dup_or_null(a, s->need[k].name);
        n->need[k].module = dup_or_null(a, s->need[k].module);
        n->need[k].package = dup_or_null(a, s->need[k].package);
        n->need[k].exported = dup_or_null(a, s->need[k].exported);
        n->insert[k].text = dup_or_null(a, s->insert[k].text);
    }
    n->related = NULL;
    n->nrelated = 0;
    for (size_t r = 0; r < s->nrelated; r++)
        relate(dst, n, s->related[r].path, s->related[r].span, s->related[r].message);
    return n;
}

void diag_append(DiagList *dst, const DiagList *src)
{
    for (size_t i = 0; i < src->items.n; i++)
        diag_copy(dst, &src->items.v[i]);
}

/* Places in reading order: by path, then where they start. */
static int place_cmp(const char *pa, const Span *a, const char *pb, const Span *b)
{
    int c = strcmp(pa, pb);
    if (c)
        return c;
    if (a->start_row != b->start_row)
        return a->start_row < b->start_row ? -1 : 1;
    if (a->start_col != b->start_col)
        return a->start_col < b->start_col ? -1 : 1;
    return 0;
}

static int diag_cmp(const void *a, const void *b)
{
    const Diagnostic *x = a, *y = b;
    int c = place_cmp(x->path, &x->span, y->path, &y->span);
    if (c)
        return c;
    if ((c = strcmp(x->rule, y->rule)))
        return c;
    return strcmp(x->message, y->message);
}

static int related_cmp(const void *a, const void *b)
{
    const DiagRelated *x = a, *y = b;
    int c = place_cmp(x->path, &x->span, y->path, &y->span);
    if (c)
        return c;
    if (x->span.start_byte != y->span.start_byte)
        return x->span.start_byte < y->span.start_byte ? -1 : 1;
    if (x->span.end_byte != y->span.end_byte)
        return x->span.end_byte < y->span.end_byte ? -1 : 1;
    return strcmp(x->message, y->message);
}

/* `kept` takes the related places of `dup` (the same finding): all of
 * both, sorted (the order the duplicates came in is not stable), each
 * once, the first DIAG_MAX_RELATED kept. */
static void merge_related(DiagList *d, Diagnostic *kept, const Diagnostic *dup)
{
    if (!dup->nrelated)
        return;
    size_t n = kept->nrelated + dup->nrelated;
    DiagRelated *all = arena_alloc(d->arena, n * sizeof *all);
    if (kept->nrelated)
        memcpy(all, kept->related, kept->nrelated * sizeof *all);
    memcpy(all + kept->nrelated, dup->related, dup->nrelated * sizeof *all);
    qsort(all, n, sizeof *all, related_cmp);
    size_t w = 0;
    for (size_t r = 0; r < n && w < DIAG_MAX_RELATED; r++)
        if (!w || related_cmp(&all[w - 1], &all[r]) != 0)
            all[w++] = all[r];
    kept->related = all;
    kept->nrelated = w;
}

void diag_sort(DiagList *d)
{
    if (d->items.n < 2)
        return;
    qsort(d->items.v, d->items.n, sizeof *d->items.v, diag_cmp);
    size_t w = 1;
    for (size_t r = 1; r < d->items.n; r++) {
        Diagnostic *kept = &d->items.v[w - 1];
        const Diagnostic *dup = &d->items.v[r];
        if (diag_cmp(kept, dup) != 0) {
            d->items.v[w++] = *dup;
            continue;
        }
        /* one finding made twice (a helper's key judged from each of its
         * callers): one report, with the evidence of both */
        if (dup->severity > kept->severity)
            kept->severity = dup->severity;
        merge_related(d, kept, dup);
    }
    d->items.n = w;
}
