#include "fix.h"

#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

size_t fix_resolve_at(Arena *arena, const char *text, size_t len, size_t a, size_t b,
                      const Diagnostic *d, FixEdit out[FIX_MAX_EDITS])
{
    (void)arena;
    if (!d->has_edit || !d->edit_old || !d->edit_text || a > b || b > len)
        return 0;
    size_t n = strlen(d->edit_old);
    if (b - a != n || memcmp(text + a, d->edit_old, n))
        return 0;
    size_t k = 0;
    out[k++] = (FixEdit){.start = a, .end = b, .text = d->edit_text, .diag = d};
    for (size_t i = 0; i < FIX_MAX_NEEDS; i++) {
        const FixInsert *in = &d->insert[i];
        if (!in->text || !*in->text)
            continue;
        /* the imports were placed in the text the fix proof read: only
         * where the edit still is where it was */
        if (a != d->edit_span.start_byte || in->at > len)
            return 0;
        out[k++] = (FixEdit){.start = in->at, .end = in->at, .text = in->text, .diag = d};
    }
    return k;
}

size_t fix_resolve(Arena *arena, const char *text, size_t len, const Diagnostic *d,
                   FixEdit out[FIX_MAX_EDITS])
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

static bool same_edit(const FixEdit *a, const FixEdit *b)
{
    return a->start == b->start && a->end == b->end && !strcmp(a->text, b->text);
}

static bool listed(const Diagnostic *const *v, size_t n, const Diagnostic *d)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == d)
            return true;
    return false;
}

void fix_plan(FixEdits *edits)
{
    size_t n = edits->n;
    if (!n)
        return;
    qsort(edits->v, n, sizeof *edits->v, by_position);
    FixEdit *all = xmalloc(n * sizeof *all); /* the sorted list, whole */
    memcpy(all, edits->v, n * sizeof *all);
    /* the findings one of whose edits cannot be made: none of theirs is */
    const Diagnostic **broken = xmalloc(n * sizeof *broken);
    size_t nbroken = 0, kept;
    for (;;) {
        kept = 0;
        size_t before = nbroken;
        for (size_t i = 0; i < n; i++) {
            const FixEdit *e = &all[i];
            if (e->diag && listed(broken, nbroken, e->diag))
                continue;
            if (kept) {
                const FixEdit *last = &edits->v[kept - 1];
                if (same_edit(e, last))
                    continue; /* asked for twice: made once */
                /* overlaps an edit already kept, or starts where it does,
                 * one inserting and one replacing (their order would
                 * matter; insertions at one place, imports, do not) */
                bool e_ins = e->start == e->end, last_ins = last->start == last->end;
                if (e->start < last->end || (e->start == last->start && e_ins != last_ins)) {
                    if (e->diag && !listed(broken, nbroken, e->diag))
                        broken[nbroken++] = e->diag;
                    continue;
                }
            }
            edits->v[kept++] = *e;
        }
        /* a finding that broke after some of its edits were kept: plan
         * again without it */
        if (nbroken == before)
            break;
    }
    free(broken);
    free(all);
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

/* The text of [from, to) with the edits e[0..n) (all inside it) applied,
 * malloc'd; its length in *out_len. */
static char *apply_range(const char *text, size_t from, size_t to, const FixEdit *e, size_t n,
                         size_t *out_len)
{
    FixEdit *rel = xmalloc((n ? n : 1) * sizeof *rel);
    for (size_t q = 0; q < n; q++) {
        rel[q] = e[q];
        rel[q].start -= from;
        rel[q].end -= from;
    }
    char *out = fix_apply(text + from, to - from, rel, n, out_len);
    free(rel);
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

/* Lines [from, to) of a hunk with its edits e[0..n): unchanged lines as
 * context, an import inserted at a line's start as added lines before
 * it, and each run of lines that edits change as the old lines removed
 * and the new ones added. */
static void put_hunk(FILE *out, const char *text, const Lines *l, size_t from, size_t to,
                     const FixEdit *e, size_t n)
{
    size_t k = 0; /* the next edit */
    size_t i = from;
    while (i < to) {
        size_t ls = l->start[i], le = l->start[i + 1];
        /* insertions at the line's start, with no other edit on the line */
        size_t k2 = k;
        while (k2 < n && e[k2].start == ls && e[k2].end == ls)
            k2++;
        bool other = k2 < n && e[k2].start < le;
        if (k2 > k && !other) {
            for (; k < k2; k++)
                put_lines(out, '+', e[k].text, strlen(e[k].text));
            put_lines(out, ' ', text + ls, le - ls);
            i++;
            continue;
        }
        if (k >= n || e[k].start >= le) {
            put_lines(out, ' ', text + ls, le - ls);
            i++;
            continue;
        }
        /* a run of changed lines: up to the line of the last edit that
         * starts in it (an edit may span lines) */
        size_t last = i, kk = k;
        while (kk < n && e[kk].start < l->start[last + 1]) {
            size_t end = e[kk].end > e[kk].start ? e[kk].end - 1 : e[kk].end;
            size_t el = line_of(l, end);
            if (el > last)
                last = el;
            kk++;
        }
        size_t rs = l->start[i], re = l->start[last + 1];
        put_lines(out, '-', text + rs, re - rs);
        size_t nl;
        char *nt = apply_range(text, rs, re, e + k, kk - k, &nl);
        put_lines(out, '+', nt, nl);
        free(nt);
        k = kk;
        i = last + 1;
    }
}

/* A file name in a diff header as git writes it: quoted, with C-style
 * escapes, when it holds a control character, a quote, a backslash or a
 * byte outside ASCII (`"a/new\nline.ts"`); followed by a tab when it
 * holds a space, so that patch(1) reads the name whole. */
static void put_name(FILE *out, const char *head, const char *prefix, const char *name)
{
    bool quote = false, space = false;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        quote |= *c < 0x20 || *c == '"' || *c == '\\' || *c >= 0x7F;
        space |= *c == ' ';
    }
    fputs(head, out);
    if (!quote) {
        fprintf(out, "%s%s%s\n", prefix, name, space ? "\t" : "");
        return;
    }
    fprintf(out, "\"%s", prefix);
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        static const char from[] = "\a\b\t\n\v\f\r\"\\", to[] = "abtnvfr\"\\";
        const char *k = strchr(from, *c);
        if (k)
            fprintf(out, "\\%c", to[k - from]);
        else if (*c < 0x20 || *c >= 0x7F)
            fprintf(out, "\\%03o", *c);
        else
            fputc(*c, out);
    }
    fprintf(out, "\"%s\n", space ? "\t" : "");
}

void fix_diff(FILE *out, const char *path, const char *text, size_t len, const FixEdit *e,
              size_t n)
{
    if (!n)
        return;
    Lines l = split_lines(text, len);
    put_name(out, "--- ", "a/", path);
    put_name(out, "+++ ", "b/", path);
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
        size_t old_count = to - from;
        /* the hunk's new text, to count its lines */
        size_t new_len;
        char *nt = apply_range(text, l.start[from], l.start[to], e + i, j - i, &new_len);
        size_t new_count = count_lines(nt, new_len);
        fprintf(out, "@@ -%zu,%zu +%ld,%zu @@\n", from + 1, old_count,
                (long)from + 1 + shift, new_count);
        put_hunk(out, text, &l, from, to, e + i, j - i);
        shift += (long)new_count - (long)old_count;
        free(nt);
        i = j;
    }
    free(l.start);
}
