/* How the model compares key shapes (model_int.h): a query's key with the
 * shapes written, a literal id with the shape it is an instance of, and a
 * hierarchical sort key with the shapes beside it in its partition. */
#include "model.h"
#include "model_int.h"

#include <ctype.h>
#include <string.h>

typedef enum GlobMode {
    GLOB_WHOLE,  /* t matches w */
    GLOB_PREFIX, /* t is the start of some text that matches w */
    GLOB_HEAD,   /* some start of t matches w */
} GlobMode;

/* Whether text t[0..) (no values) matches shape pattern w, each "{}" one
 * character or more, as `mode` says. Bounded: the patterns are keys. */
static bool glob(const char *t, const char *w, GlobMode mode, int depth)
{
    if (depth > 64)
        return true; /* too many values to tell: do not rule it out */
    while (*t) {
        if (!*w)
            return mode == GLOB_HEAD;
        if (w[0] == '{' && w[1] == '}') {
            for (const char *r = t + 1;; r++) {
                if (glob(r, w + 2, mode, depth + 1))
                    return true;
                if (!*r)
                    return mode == GLOB_PREFIX;
            }
        }
        if (*t != *w)
            return false;
        t++;
        w++;
    }
    return mode == GLOB_PREFIX || !*w;
}

bool model_literal_of(const char *lit, const char *w)
{
    if (strstr(lit, "{}") || !strstr(w, "{}") || !glob(lit, w, GLOB_WHOLE, 0))
        return false;
    for (const char *p = lit; *p; p++)
        if (islower((unsigned char)*p) || isdigit((unsigned char)*p))
            return true;
    return false;
}

/* The literal runs of a shape between its values: "A#{}#B" -> "A#", "#B". */
static size_t runs_of(const char *canon, const char **at, size_t *len, size_t max)
{
    size_t n = 0;
    for (const char *p = canon; n < max;) {
        const char *h = strstr(p, "{}");
        at[n] = p;
        len[n++] = h ? (size_t)(h - p) : strlen(p);
        if (!h)
            break;
        p = h + 2;
    }
    return n;
}

bool model_shape_matches(const char *q, const char *w, bool prefix)
{
    if (!strstr(q, "{}"))
        return glob(q, w, prefix ? GLOB_PREFIX : GLOB_WHOLE, 0);
    /* a literal written (`ORG_STATUS#PENDING`, an id seed data writes) is
     * one of the values of a query that starts with its prefix
     * (`ORG_STATUS#{status}`) */
    if (!strstr(w, "{}"))
        return strncmp(q, "{}", 2) && glob(w, q, prefix ? GLOB_HEAD : GLOB_WHOLE, 0);
    enum { MAX_RUNS = 32 };
    const char *qa[MAX_RUNS], *wa[MAX_RUNS];
    size_t ql[MAX_RUNS], wl[MAX_RUNS];
    size_t qn = runs_of(q, qa, ql, MAX_RUNS), wn = runs_of(w, wa, wl, MAX_RUNS);
    if (qn > wn || (!prefix && qn != wn))
        return false;
    for (size_t i = 0; i + 1 < qn; i++)
        if (ql[i] != wl[i] || strncmp(qa[i], wa[i], ql[i]))
            return false;
    size_t last = qn - 1;
    if (prefix)
        return ql[last] <= wl[last] && !strncmp(qa[last], wa[last], ql[last]);
    return ql[last] == wl[last] && !strncmp(qa[last], wa[last], ql[last]);
}

/* The last word of a shape (letters, digits, '_', after a separator or
 * at the start): "ROLE#{}#SLOT#{}" -> SLOT; NULL when none. */
static const char *last_word(Arena *a, const char *canon)
{
    const char *best = NULL;
    size_t bn = 0;
    for (const char *p = canon; *p;) {
        if (p[0] == '{' && p[1] == '}') {
            p += 2;
            continue;
        }
        if (isalpha((unsigned char)*p) && (p == canon || !isalnum((unsigned char)p[-1]))) {
            size_t n = 0;
            while (isalnum((unsigned char)p[n]) || p[n] == '_')
                n++;
            best = p;
            bn = n;
            p += n;
            continue;
        }
        p++;
    }
    return best ? arena_strndup(a, best, bn) : NULL;
}

const char *model_child_word(Arena *a, const char *canon, const char *tok,
                             bool (*beside)(void *ctx, const char *sibling), void *ctx)
{
    if (!canon || !tok)
        return NULL;
    for (const char *h = strstr(canon, "{}"); h; h = strstr(h + 2, "{}")) {
        const char *rest = h + 2;
        if (!*rest)
            break;
        const char *sibling = arena_strndup(a, canon, (size_t)(rest - canon));
        if (!beside(ctx, sibling))
            continue;
        const char *w = last_word(a, rest);
        return w && strcmp(w, tok) ? w : NULL;
    }
    return NULL;
}

/* The one written shape with values, on any entity of table `t`, that
 * literal `lit` is an id of; NULL when none or when several differ. */
static const MShape *value_shape_of(const DesignModel *m, size_t t, const char *lit)
{
    const MShape *hit = NULL;
    for (size_t e = 0; e < m->entities.n; e++) {
        const MEntity *en = &m->entities.v[e];
        for (size_t i = 0; en->table == t && i < en->shapes.n; i++) {
            const MShape *s = &en->shapes.v[i];
            if (!s->written || !strncmp(s->canon, "{}", 2) || !model_literal_of(lit, s->canon))
                continue;
            if (hit && strcmp(hit->canon, s->canon))
                return NULL;
            if (!hit)
                hit = s;
        }
    }
    return hit;
}

void model_fold_literals(DesignModel *m)
{
    for (size_t e = 0; e < m->entities.n; e++) {
        MEntity *en = &m->entities.v[e];
        for (size_t i = 0; i < en->shapes.n; i++) {
            MShape *s = &en->shapes.v[i];
            if (s->example || s->fallback || strstr(s->canon, "{}"))
                continue;
            const MShape *v = value_shape_of(m, en->table, s->canon);
            if (!v)
                continue;
            s->canon = v->canon;
            s->text = v->text;
            MShape *same = NULL; /* a shape of its own of that value */
            for (size_t j = 0; j < en->shapes.n && !same; j++)
                if (j != i && !strcmp(en->shapes.v[j].attr, s->attr) &&
                    !strcmp(en->shapes.v[j].canon, s->canon))
                    same = &en->shapes.v[j];
            if (!same)
                continue;
            same->uses += s->uses;
            same->written |= s->written;
            same->when = same->when && s->when ? same->when : NULL;
            for (size_t r = 0; r < s->rules.n; r++)
                if (!strlist_has(&same->rules, s->rules.v[r]))
                    strlist_push(m->arena, &same->rules, s->rules.v[r]);
            memmove(s, s + 1, (en->shapes.n - i - 1) * sizeof *s);
            en->shapes.n--;
            i--;
        }
    }
}
