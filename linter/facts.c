#include "facts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "keyfacts.h"

/* The (text, name) pairs already in f->const_texts: an open-addressing
 * set of indexes + 1, so that a large project stays linear. */
typedef struct PairSet {
    size_t *slots;
    size_t cap; /* a power of two, or 0 */
} PairSet;

static uint64_t pair_hash(const char *text, const char *name)
{
    uint64_t h = 1469598103934665603u;
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    h = (h ^ 0xff) * 1099511628211u;
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    return h;
}

static void pairset_put(PairSet *set, const ProjectFacts *f, size_t idx)
{
    const ConstText *c = &f->const_texts.v[idx];
    size_t i = (size_t)pair_hash(c->text, c->name) & (set->cap - 1);
    while (set->slots[i])
        i = (i + 1) & (set->cap - 1);
    set->slots[i] = idx + 1;
}

static void add_const_text(ProjectFacts *f, Arena *a, PairSet *set,
                           const char *text, const char *name, bool in_key)
{
    if (!text || !text[0] || !name || !name[0])
        return;
    if (set->cap) {
        size_t i = (size_t)pair_hash(text, name) & (set->cap - 1);
        for (; set->slots[i]; i = (i + 1) & (set->cap - 1)) {
            ConstText *c = &f->const_texts.v[set->slots[i] - 1];
            if (!strcmp(c->text, text) && !strcmp(c->name, name)) {
                c->in_key |= in_key;
                return;
            }
        }
    }
    VEC_PUSH(a, &f->const_texts,
             (ConstText){ .text = arena_strdup(a, text),
                          .name = arena_strdup(a, name), .in_key = in_key });
    if (2 * f->const_texts.n > set->cap) { /* keep the load under 1/2 */
        set->cap = set->cap ? set->cap * 2 : 64;
        set->slots = arena_alloc(a, set->cap * sizeof *set->slots);
        for (size_t j = 0; j < f->const_texts.n; j++)
            pairset_put(set, f, j);
    } else {
        pairset_put(set, f, f->const_texts.n - 1);
    }
}

/* A constant definition whose value is text only ("ORDER", "ORDER#"). */
static void add_const_def(ProjectFacts *f, Arena *a, PairSet *set,
                          const ConstDef *c)
{
    size_t len = 0;
    for (size_t i = 0; i < c->value.n; i++) {
        if (c->value.v[i].kind != SEG_TEXT || !c->value.v[i].text)
            return;
        len += strlen(c->value.v[i].text);
    }
    char *t = arena_alloc(a, len + 1), *w = t;
    for (size_t i = 0; i < c->value.n; i++) {
        size_t n = strlen(c->value.v[i].text);
        memcpy(w, c->value.v[i].text, n);
        w += n;
    }
    *w = '\0';
    add_const_text(f, a, set, t, c->name, false);
}

typedef struct NameCount {
    const char *name, *value;
    size_t n;
} NameCount;

typedef VEC(NameCount) NameCounts;

static void count_separator_const(Arena *a, NameCounts *v, const Seg *s)
{
    for (size_t i = 0; i < v->n; i++) {
        if (!strcmp(v->v[i].name, s->name)) {
            v->v[i].n++;
            return;
        }
    }
    NameCount nc = { .name = s->name, .value = s->text, .n = 1 };
    VEC_PUSH(a, v, nc);
}

static bool prefix_is_global(Arena *a, const KfKey *k, const Config *cfg)
{
    const char *p = kf_leading_prefix(a, k);
    return p && cfg && strlist_has_ci(&cfg->tenant_global, p);
}

static void key_facts(ProjectFacts *f, Arena *a, const KeyExpr *k,
                      const Config *cfg, NameCounts *seps, PairSet *set)
{
    KfKey key;
    kf_flatten(a, &k->segs, &key);

    if (k->role == ROLE_PK && kf_tenant_hole(a, &key, cfg))
        f->has_tenant_keys = true;

    for (size_t i = 0; i < k->segs.n; i++) {
        const Seg *s = &k->segs.v[i];
        if (s->kind != SEG_TEXT || !(s->flags & SEGF_CONST) || !s->name)
            continue;
        add_const_text(f, a, set, s->text, s->name, true);
        if ((s->flags & SEGF_SEPARATOR) && s->text && s->text[0])
            count_separator_const(a, seps, s);
    }

    KfBoundary *b;
    size_t nb = kf_boundaries(a, &key, cfg, &b);
    /* A helper's output inlined at a call site is counted once, at the
     * helper's definition. */
    if (k->site != SITE_HELPER && kf_boundaries_all_helper(b, nb))
        nb = 0;
    const char *chars = kf_boundary_chars(a, b, nb);
    for (const char *c = chars; *c; c++)
        if ((unsigned char)*c < 128)
            f->separator_uses[(unsigned char)*c]++;

    if (k->site == SITE_HELPER && k->role == ROLE_PK && kf_has_text(&key) &&
        !kf_has_tenant(a, &key, cfg) && !prefix_is_global(a, &key, cfg)) {
        const char *shape = kf_shape(a, &key);
        if (!strlist_has(&f->untenanted_helper_pks, shape))
            strlist_push(a, &f->untenanted_helper_pks, shape);
    }
}

static int const_text_cmp(const void *x, const void *y)
{
    const ConstText *a = x, *b = y;
    int c = strcmp(a->text, b->text);
    return c ? c : strcmp(a->name, b->name);
}

void facts_compute(ProjectFacts *f, Arena *a, FileIR *const *files,
                   size_t nfiles, const Config *cfg)
{
    memset(f, 0, sizeof *f);
    NameCounts seps = { 0 };
    PairSet set = { 0 };

    for (size_t fi = 0; fi < nfiles; fi++) {
        const FileIR *file = files[fi];
        if (!file || file->parse_failed)
            continue;
        for (size_t i = 0; i < file->consts.n; i++)
            add_const_def(f, a, &set, &file->consts.v[i]);
        for (size_t i = 0; i < file->ops.n; i++) {
            const StrList *sets = &file->ops.v[i].sets;
            const char *entity = sets->n ? kf_op_entity(a, file, (int)i) : NULL;
            const char *sk_entity = sets->n ? kf_op_sk_entity(a, file, (int)i, true) : NULL;
            for (size_t j = 0; j < sets->n; j++) {
                if (!strlist_has(&f->updated_attrs, sets->v[j]))
                    strlist_push(a, &f->updated_attrs,
                                 arena_strdup(a, sets->v[j]));
                UpdatedAttr u = {arena_strdup(a, sets->v[j]), arena_strdup(a, entity),
                                 arena_strdup(a, sk_entity)};
                VEC_PUSH(a, &f->updates, u);
            }
        }
        for (size_t i = 0; i < file->keys.n; i++)
            key_facts(f, a, &file->keys.v[i], cfg, &seps, &set);
    }

    if (f->const_texts.n > 1)
        qsort(f->const_texts.v, f->const_texts.n, sizeof *f->const_texts.v, const_text_cmp);

    /* The separator constant: the most used, then the first by name. */
    const NameCount *best = NULL;
    for (size_t i = 0; i < seps.n; i++) {
        const NameCount *c = &seps.v[i];
        if (!best || c->n > best->n ||
            (c->n == best->n && strcmp(c->name, best->name) < 0))
            best = c;
    }
    if (best) {
        f->separator_const = arena_strdup(a, best->name);
        f->separator_const_value = arena_strdup(a, best->value);
    }

    /* The dominant separator: the most used, ties to the configured
     * separator, then to the lowest character. */
    char cfg_sep = cfg && cfg->separator ? cfg->separator[0] : '#';
    uint32_t most = 0;
    for (int c = 1; c < 128; c++) {
        uint32_t u = f->separator_uses[c];
        if (!u)
            continue;
        if (u > most || (u == most && c == cfg_sep)) {
            most = u;
            f->dominant_separator = (char)c;
        }
    }
}

/* Names that say a constant is part of the key design: ORDER_PREFIX,
 * USER_PK, userPk, GSI1PK, EntityType.ORDER, Keys.USER, KEY_SEPARATOR; a
 * word of the name, not a part of one (TASK is no SK, AUDIT_EVENT no key). */
static bool key_like_name(const char *name)
{
    static const char *const words[] = {"prefix", "prefixes", "pk", "sk", "key", "keys",
                                        "entity", "entities", "type", "types", "separator",
                                        NULL};
    const char *p = name;
    while (*p) {
        /* one word: letters up to a separator or a lower-to-upper turn;
         * digits end a word (GSI1PK: GSI, PK) */
        while (*p && !isalpha((unsigned char)*p))
            p++;
        const char *w = p;
        if (*p)
            p++;
        while (*p && isalpha((unsigned char)*p) &&
               !(isupper((unsigned char)*p) && islower((unsigned char)p[-1])))
            p++;
        size_t n = (size_t)(p - w);
        for (const char *const *k = words; n && *k; k++)
            if (strlen(*k) == n && !strncasecmp(w, *k, n))
                return true;
    }
    return false;
}

/* The constants holding `text`: [*from, *to) of f->const_texts. */
void facts_consts_with_text(const ProjectFacts *f, const char *text, size_t *from, size_t *to)
{
    size_t lo = 0, hi = f ? f->const_texts.n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(f->const_texts.v[mid].text, text) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *from = lo;
    hi = lo;
    while (f && hi < f->const_texts.n && !strcmp(f->const_texts.v[hi].text, text))
        hi++;
    *to = hi;
}

/* The first by name of the constants holding `text` that belong to the
 * key design: used in some key, or named like a key part (an audit event
 * type or a payload field that happens to hold "ORDER#" is not offered). */
static const char *key_const_holding(const ProjectFacts *f, const char *text)
{
    if (!f || !text)
        return NULL;
    size_t from, to;
    facts_consts_with_text(f, text, &from, &to);
    for (size_t i = from; i < to; i++) /* sorted by name */
        if (f->const_texts.v[i].in_key || key_like_name(f->const_texts.v[i].name))
            return f->const_texts.v[i].name;
    return NULL;
}

const char *facts_const_for_token(const ProjectFacts *f, const char *token)
{
    return key_const_holding(f, token);
}

const char *facts_const_for_text(const ProjectFacts *f, const char *text)
{
    return key_const_holding(f, text);
}
