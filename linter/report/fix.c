#include "fix.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* The previous / next non-blank character around [a, b), 0 at an end. */
static char before(const char *t, size_t a)
{
    while (a > 0 && isspace((unsigned char)t[a - 1]))
        a--;
    return a > 0 ? t[a - 1] : 0;
}

static char after(const char *t, size_t len, size_t b)
{
    while (b < len && isspace((unsigned char)t[b]))
        b++;
    return b < len ? t[b] : 0;
}

bool fix_resolve_at(Arena *arena, const char *text, size_t len, size_t a, size_t b,
                    const Diagnostic *d, FixEdit *out)
{
    if (!d->has_edit || !d->edit_old || !d->edit_text || a > b || b > len)
        return false;
    size_t n = strlen(d->edit_old);
    if (b - a != n || memcmp(text + a, d->edit_old, n))
        return false;
    *out = (FixEdit){.start = a, .end = b, .text = d->edit_text, .diag = d};
    /* `{ pk, sk }`: a shorthand property keeps its name */
    bool ident = n > 0;
    for (size_t i = 0; i < n && ident; i++)
        ident = ident_char(d->edit_old[i]);
    char pc = before(text, a), nc = after(text, len, b);
    if (ident && (pc == '{' || pc == ',') && (nc == ',' || nc == '}'))
        out->text = arena_printf(arena, "%s: %s", d->edit_old, d->edit_text);
    return true;
}

bool fix_resolve(Arena *arena, const char *text, size_t len, const Diagnostic *d,
                 FixEdit *out)
{
    return fix_resolve_at(arena, text, len, d->edit_span.start_byte, d->edit_span.end_byte,
                          d, out);
}

static int by_position(const void *x, const void *y)
{
    const FixEdit *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return strcmp(a->text, b->text);
}

void fix_plan(FixEdits *edits)
{
    if (!edits->n)
        return;
    qsort(edits->v, edits->n, sizeof *edits->v, by_position);
    size_t kept = 0;
    for (size_t i = 0; i < edits->n; i++) {
        const FixEdit *e = &edits->v[i];
        if (kept) {
            const FixEdit *last = &edits->v[kept - 1];
            if (e->start < last->end || (e->start == last->start && e->end == last->end))
                continue; /* overlaps (or repeats) an edit already kept */
            /* two insertions at one place would depend on their order */
            if (e->start == e->end && last->start == last->end && e->start == last->start)
                continue;
        }
        edits->v[kept++] = *e;
    }
    edits->n = kept;
}

char *fix_apply(const char *text, size_t len, const FixEdit *e, size_t n, size_t *out_len)
{
    size_t total = len;
    for (size_t i = 0; i < n; i++)
        total = total - (e[i].end - e[i].start) + strlen(e[i].text);
    char *out = xmalloc(total + 1), *w = out;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(w, text + at, e[i].start - at);
        w += e[i].start - at;
        size_t tl = strlen(e[i].text);
        memcpy(w, e[i].text, tl);
        w += tl;
        at = e[i].end;
    }
    memcpy(w, text + at, len - at);
    w += len - at;
    *w = '\0';
    *out_len = total;
    return out;
}

/* ---- unified diff ------------------------------------------------------- */

enum { CONTEXT = 3 };

typedef struct Lines {
    size_t *start; /* start[i]: offset of line i; start[n] == len */
    size_t n;
} Lines;

static Lines split_lines(const char *t, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    if (len && t[len - 1] != '\n')
        n++;
    Lines l = {.start = xmalloc((n + 1) * sizeof(size_t)), .n = n};
    size_t k = 0;
    l.start[k++] = 0;
    for (size_t i = 0; i < len && k < n + 1; i++)
        if (t[i] == '\n' && i + 1 < len)
            l.start[k++] = i + 1;
    l.start[n] = len;
    return l;
}

/* The line holding offset `off` (the last line for off == len). */
static size_t line_of(const Lines *l, size_t off)
{
    size_t lo = 0, hi = l->n ? l->n - 1 : 0;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (l->start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static size_t count_lines(const char *t, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n + (len && t[len - 1] != '\n');
}

/* Each line of t[0, len) prefixed with `mark`; a last line without a
 * newline is marked as such. */
static void put_lines(FILE *out, char mark, const char *t, size_t len)
{
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(t + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - t) + 1 : len;
        fputc(mark, out);
        fwrite(t + i, 1, e - i, out);
        if (!nl)
            fputs("\n\\ No newline at end of file\n", out);
        i = e;
    }
}

void fix_diff(FILE *out, const char *path, const char *text, size_t len, const FixEdit *e,
              size_t n)
{
    if (!n)
        return;
    Lines l = split_lines(text, len);
    fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
    long shift = 0; /* lines the hunks so far added (or removed) */
    size_t i = 0;
    while (i < n) {
        /* a hunk: edits whose changed lines are within 2 * CONTEXT lines
         * of the previous one's */
        size_t first = line_of(&l, e[i].start);
        size_t last = line_of(&l, e[i].end > e[i].start ? e[i].end - 1 : e[i].end);
        size_t j = i + 1;
        while (j < n && line_of(&l, e[j].start) <= last + 2 * CONTEXT) {
            size_t lj = line_of(&l, e[j].end > e[j].start ? e[j].end - 1 : e[j].end);
            if (lj > last)
                last = lj;
            j++;
        }
        size_t from = first > CONTEXT ? first - CONTEXT : 0;
        size_t to = last + CONTEXT < l.n ? last + CONTEXT + 1 : l.n; /* exclusive */
        /* the hunk's new text: [start(from), start(to)) with edits i..j */
        size_t hs = l.start[from], he = l.start[to];
        size_t new_len = he - hs;
        for (size_t k = i; k < j; k++)
            new_len = new_len - (e[k].end - e[k].start) + strlen(e[k].text);
        size_t old_count = to - from;
        /* rebuild the new text of the hunk to count and print it */
        char *nt = xmalloc(new_len + 1), *w = nt;
        size_t at = hs;
        for (size_t k = i; k < j; k++) {
            memcpy(w, text + at, e[k].start - at);
            w += e[k].start - at;
            size_t tl = strlen(e[k].text);
            memcpy(w, e[k].text, tl);
            w += tl;
            at = e[k].end;
        }
        memcpy(w, text + at, he - at);
        w += he - at;
        *w = '\0';
        size_t new_count = count_lines(nt, new_len);
        fprintf(out, "@@ -%zu,%zu +%ld,%zu @@\n", from + 1, old_count,
                (long)from + 1 + shift, new_count);
        /* context, then the changed lines old and new, then context */
        size_t lead_len = l.start[first] - hs, trail_len = he - l.start[last + 1];
        put_lines(out, ' ', text + hs, lead_len);
        put_lines(out, '-', text + l.start[first], l.start[last + 1] - l.start[first]);
        put_lines(out, '+', nt + lead_len, new_len - lead_len - trail_len);
        put_lines(out, ' ', text + l.start[last + 1], trail_len);
        shift += (long)new_count - (long)old_count;
        free(nt);
        i = j;
    }
    free(l.start);
}
