#include "facts.h"

#include <ctype.h>
#include <stddef.h>
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

/* `decl`: from a declaration (ConstDef) whose value is its initializer
 * (`fixed`), not from a key that uses the constant. */
static void add_const_text(ProjectFacts *f, Arena *a, PairSet *set,
                           const char *text, const char *name, bool in_key,
                           const char *module, bool decl, bool fixed)
{
    if (!text || !text[0] || !name || !name[0])
        return;
    uint64_t h = pair_hash(text, name);
    if (set->cap) {
        size_t i = (size_t)h & (set->cap - 1);
        for (; set->slots[i]; i = (i + 1) & (set->cap - 1)) {
            ConstText *c = &f->const_texts.v[set->slots[i] - 1];
            if (!strcmp(c->text, text) && !strcmp(c->name, name)) {
                c->in_key |= in_key;
                if (!c->module && module)
                    c->module = module;
                if (decl) {
                    c->fixed = (c->declared ? c->fixed : true) && fixed;
                    c->declared = true;
                }
                return;
            }
        }
    }
    VEC_PUSH(a, &f->const_texts,
             (ConstText){ .text = arena_strdup(a, text),
                          .name = arena_strdup(a, name), .in_key = in_key,
                          .module = module, .declared = decl, .fixed = decl && fixed });
    if (2 * f->const_texts.n > set->cap) { /* keep the load under 1/2 */
        set->cap = set->cap ? set->cap * 2 : 64;
        set->slots = arena_alloc(a, set->cap * sizeof *set->slots);
        for (size_t j = 0; j < f->const_texts.n; j++)
            pairset_put(set, f, j);
    } else {
        size_t i = (size_t)h & (set->cap - 1); /* pairset_put, the hash known */
        while (set->slots[i])
            i = (i + 1) & (set->cap - 1);
        set->slots[i] = f->const_texts.n;
    }
}

/* A constant definition whose value is text only ("ORDER", "ORDER#"). */
static void add_const_def(ProjectFacts *f, Arena *a, PairSet *set,
                          const ConstDef *c, const char *path)
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
    add_const_text(f, a, set, t, c->name, false,
                   c->exported && path ? arena_strdup(a, path) : NULL, true, c->fixed);
}

/* The constants of the key design holding one text, and the first of
 * them by name (facts_const_for_text/_token): of those used in some key
 * when any is, else of those named like a key part, each with how many
 * there are (two candidates are ambiguous). */
typedef struct TextConsts {
    size_t in_key, key_named;
    const char *best_in_key, *best_key_named;
    size_t first; /* 1 + the index in const_texts of the first holding it */
} TextConsts;

/* The attributes set by updates, by last component (FieldUpdates). */
typedef struct FieldSets {
    StrList all, unscoped;
    NameMap all_seen, unscoped_seen;
    NameMap by_entity;          /* lower-cased entity -> index in on_entity */
    VEC(StrList) on_entity;
    NameMap on_entity_seen;     /* "entity-length:entity attr" */
} FieldSets;

struct FactsIndex {
    NameMap updated_attrs;      /* the set of f->updated_attrs */
    NameMap untenanted;         /* the set of f->untenanted_helper_pks */
    NameMap tenant_scoped;      /* the set of f->tenant_scoped */
    NameMap tenant_prefixes;    /* the set of f->tenant_prefixes */
    NameMap tenant_aliases;     /* lower-cased f->tenant_aliases */
    NameMap id_partitions;      /* the set of f->id_partitions */
    NameMap texts;              /* text -> index in text_consts */
    size_t *next_same_text;     /* per const_texts index: 1 + the next one
                                 * with the same text, 0 at the last */
    NameMap const_pairs;        /* "len(text):text name" -> index in const_texts (each
                                 * pair is there once: add_const_text) */
    VEC(TextConsts) text_consts;
    NameMap mutated;            /* the set of every file's FileIR.mutated */
    NameMap fields;             /* last component -> index in field_sets */
    VEC(FieldSets) field_sets;
    /* the editor's facts: the constants by text and the mutated names are
     * the fold's (FactsFold), kept between analyses, not the fields above */
    const struct FactsFold *fold;
};


/* f's separator counts and first keys, none yet (rule.h). */
static void separators_alloc(ProjectFacts *f, Arena *a)
{
    f->separator_uses = arena_alloc(a, SEPARATOR_CHARS * sizeof *f->separator_uses);
    f->separator_first = arena_alloc(a, SEPARATOR_CHARS * sizeof *f->separator_first);
}

static char *lower_copy(Arena *a, const char *s)
{
    char *l = arena_strdup(a, s);
    for (char *p = l; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return l;
}

static void index_update(ProjectFacts *f, Arena *a, const UpdatedAttr *u)
{
    struct FactsIndex *ix = f->index;
    const char *field = kf_last_component(a, u->attr);
    size_t g;
    if (!namemap_get(&ix->fields, field, &g)) {
        g = ix->field_sets.n;
        namemap_put(a, &ix->fields, field, g);
        VEC_PUSH(a, &ix->field_sets, (FieldSets){0});
    }
    FieldSets *fs = &ix->field_sets.v[g];
    strlist_push_once(a, &fs->all, &fs->all_seen, u->attr);
    if (!u->entity && !u->sk_entity) {
        strlist_push_once(a, &fs->unscoped, &fs->unscoped_seen, u->attr);
        return;
    }
    /* the updated item's entity: the sort key's when it names an item of
     * a shared partition (USER#{id} in ORG#{orgId}) or the partition key
     * has no prefix (`v0#${role}` under a bare email), else the partition
     * key's */
    char *lower = lower_copy(a, u->sk_entity ? u->sk_entity : u->entity);
    size_t e;
    if (!namemap_get(&fs->by_entity, lower, &e)) {
        e = fs->on_entity.n;
        namemap_put(a, &fs->by_entity, lower, e);
        VEC_PUSH(a, &fs->on_entity, (StrList){0});
    }
    const char *pair = arena_printf(a, "%zu:%s%s", strlen(lower), lower, u->attr);
    size_t seen;
    if (!namemap_get(&fs->on_entity_seen, pair, &seen)) {
        namemap_put(a, &fs->on_entity_seen, pair, 0);
        strlist_push(a, &fs->on_entity.v[e], u->attr);
    }
}

/* "<length of x>:<x><y>" in `a`, as arena_printf("%zu:%s%s") writes it
 * (without printf: the facts of a large project make one per constant). */
static const char *pair_key(Arena *a, const char *x, const char *y)
{
    size_t xl = strlen(x), yl = strlen(y);
    char digits[24];
    size_t nd = 0, v = xl;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *k = arena_alloc(a, nd + 1 + xl + yl + 1), *w = k;
    while (nd)
        *w++ = digits[--nd];
    *w++ = ':';
    memcpy(w, x, xl);
    memcpy(w + xl, y, yl + 1);
    return k;
}

static void index_const_texts(ProjectFacts *f, Arena *a)
{
    struct FactsIndex *ix = f->index;
    ix->next_same_text = arena_alloc(a, (f->const_texts.n + 1) * sizeof *ix->next_same_text);
    size_t *last = arena_alloc(a, (f->const_texts.n + 1) * sizeof *last); /* per group */
    for (size_t i = 0; i < f->const_texts.n; i++) {
        const ConstText *c = &f->const_texts.v[i];
        namemap_put(a, &ix->const_pairs,
                    pair_key(a, c->text, c->name), i);
        size_t g;
        if (!namemap_get(&ix->texts, c->text, &g)) {
            g = ix->text_consts.n;
            namemap_put(a, &ix->texts, c->text, g);
            VEC_PUSH(a, &ix->text_consts, (TextConsts){0});
        }
        TextConsts *t = &ix->text_consts.v[g];
        if (!t->first)
            t->first = i + 1;
        else
            ix->next_same_text[last[g]] = i + 1;
        last[g] = i;
        /* of the key design: used in some key, or named like a key part (an
         * audit event type or a payload field holding "ORDER#" is not) */
        if (c->in_key) {
            t->in_key++;
            if (!t->best_in_key || strcmp(c->name, t->best_in_key) < 0)
                t->best_in_key = c->name;
        } else if (facts_key_like_name(c->name)) {
            t->key_named++;
            if (!t->best_key_named || strcmp(c->name, t->best_key_named) < 0)
                t->best_key_named = c->name;
        }
    }
}

typedef struct NameCount {
    const char *name, *value;
    size_t n;
} NameCount;

typedef VEC(NameCount) NameCounts;

/* `n` more uses of the separator constant `name` holding `value` (the
 * first value seen stays). */
static void count_separator_const(Arena *a, NameCounts *v, const char *name,
                                  const char *value, size_t n)
{
    for (size_t i = 0; i < v->n; i++) {
        if (!strcmp(v->v[i].name, name)) {
            v->v[i].n += n;
            return;
        }
    }
    NameCount nc = { .name = arena_strdup(a, name), .value = arena_strdup(a, value), .n = n };
    VEC_PUSH(a, v, nc);
}

static bool prefix_is_global(Arena *a, const KfKey *k, const Config *cfg)
{
    const char *p = kf_leading_prefix(a, k);
    return p && cfg && strlist_has_ci(&cfg->tenant_global, p);
}

/* The type codes glued to a value at the start of keys (kf_start_code),
 * while the keys are read: the first code, and whether another of the
 * same width or one of another width was seen. */
typedef struct StartCodes {
    const char *first;
    size_t width;
    bool several, mixed;
} StartCodes;

static void note_start_code(StartCodes *c, const KfKey *key)
{
    size_t w = kf_start_code(key);
    if (!w)
        return;
    const char *code = key->parts[0].text;
    if (!c->first) {
        c->first = code;
        c->width = w;
    } else if (w != c->width) {
        c->mixed = true;
    } else if (strncmp(code, c->first, w)) {
        c->several = true;
    }
}

/* A key that opens with a prefix, a tenant value and an entity
 * (`T#${tenant}#API_KEY#${id}`): the prefix and the entity, as
 * "T#API_KEY", in f->tenant_scoped. */
static void note_tenant_scope(ProjectFacts *f, Arena *a, const KfKey *key, const Config *cfg)
{
    const char *prefix = kf_leading_prefix(a, key);
    if (!prefix || key->n < 3 || !key->parts[1].hole || key->parts[2].hole ||
        !kf_hole_is_tenant(a, kf_part_seg(key, 1), cfg))
        return;
    const KfPart *head = &key->parts[0], *tail = &key->parts[2];
    size_t n = strlen(prefix);
    if (head->len != n + 1 || !kf_is_boundary_char(head->text[n], cfg) ||
        !kf_is_boundary_char(tail->text[0], cfg) || !isalpha((unsigned char)tail->text[1]))
        return;
    size_t e = 1;
    while (isalnum((unsigned char)tail->text[e]) || tail->text[e] == '_')
        e++;
    strlist_push_once(a, &f->tenant_scoped, &f->index->tenant_scoped,
                      arena_printf(a, "%s#%.*s", prefix, (int)(e - 1), tail->text + 1));
}

/* A name of a kind of id: a word and Id/_id/Code/_code/Key/_key
 * (`expertId`, `owner_code`), not a bare `id`. */
static bool named_id(const char *name)
{
    static const char *const tails[] = {"Id", "_id", "ID", "Code", "_code", "Key", "_key", NULL};
    size_t n = strlen(name);
    for (const char *const *t = tails; *t; t++) {
        size_t m = strlen(*t);
        if (n > m && !strcmp(name + n - m, *t) && isalpha((unsigned char)name[0]))
            return true;
    }
    return false;
}

/* The prefix and the one value of a key `P#{value}` that is no sort key,
 * or NULL: the value's segment in *value. */
static const char *prefix_and_value(Arena *a, const KeyExpr *k, const KfKey *key,
                                    const Config *cfg, const Seg **value)
{
    if (k->role == ROLE_SK || k->role == ROLE_INDEX_SK || key->n != 2 || key->parts[0].hole ||
        !key->parts[1].hole)
        return NULL;
    const char *prefix = kf_leading_prefix(a, key);
    if (!prefix)
        return NULL;
    size_t n = strlen(prefix);
    if (key->parts[0].len != n + 1 || !kf_is_boundary_char(key->parts[0].text[n], cfg))
        return NULL;
    *value = kf_part_seg(key, 1);
    return prefix;
}

/* A tenant's own record keyed by a value not named like a tenant
 * (`TENANT#${expertId}`): that name, in f->tenant_aliases. A partition
 * key of a prefix and an id (`INBOX#${ownerId}`): the prefix, in
 * f->id_partitions. */
static void note_id_key(ProjectFacts *f, Arena *a, const KeyExpr *k, const KfKey *key,
                        const Config *cfg)
{
    const Seg *s;
    const char *prefix = prefix_and_value(a, k, key, cfg, &s);
    if (!prefix || s->kind != SEG_REF)
        return;
    bool tenant = kf_hole_is_tenant(a, s, cfg);
    const char *name = kf_last_component(a, s->text);
    if (!tenant && !named_id(name))
        return;
    if (k->role == ROLE_PK || k->role == ROLE_KEY)
        strlist_push_once(a, &f->id_partitions, &f->index->id_partitions, lower_copy(a, prefix));
    if (!tenant && kf_is_tenant_record(a, key))
        strlist_push_once(a, &f->tenant_aliases, &f->index->tenant_aliases, lower_copy(a, name));
}

/* The prefixes of f->tenant_scoped seen before two entities or more. */
static void find_tenant_prefixes(ProjectFacts *f, Arena *a)
{
    for (size_t i = 0; i < f->tenant_scoped.n; i++) {
        const char *p = f->tenant_scoped.v[i];
        size_t n = (size_t)(strchr(p, '#') - p);
        for (size_t j = i + 1; j < f->tenant_scoped.n; j++)
            if (!strncmp(f->tenant_scoped.v[j], p, n + 1)) {
                strlist_push_once(a, &f->tenant_prefixes, &f->index->tenant_prefixes,
                                  arena_strndup(a, p, n));
                break;
            }
    }
}

/* A tenant read from the environment (`process.env.TENANT_ID`, through a
 * constant or not): one tenant per deployment, whose other keys need no
 * tenant of their own; no evidence that the project keys many tenants
 * in one table. */
static bool deployment_tenant(const Seg *s)
{
    return s->kind == SEG_REF && s->text && !strncmp(s->text, "process.env.", 12);
}

/* A key's design for the separator counts: a separator it uses, its role
 * and attribute, its shape (kf_shape). A key written in several places is
 * one design, counted once however often it is written. */
static const char *separator_design(Arena *a, char c, const KeyExpr *k, const KfKey *key)
{
    return arena_printf(a, "%c\x1f%d\x1f%s\x1f%s", c, (int)k->role, k->attr ? k->attr : "",
                        kf_shape(a, key));
}

static void key_facts(ProjectFacts *f, Arena *a, const char *path, const KeyExpr *k,
                      const Config *cfg, NameCounts *seps, PairSet *set, StartCodes *codes,
                      StrList *designs, NameMap *designs_seen)
{
    KfKey key;
    kf_flatten(a, &k->segs, &key);
    note_start_code(codes, &key);

    /* a key whose table is a guess (KeyExpr.role_guessed) is no evidence
     * of the project's tenancy or separator */
    const Seg *th = k->role == ROLE_PK && !k->role_guessed ? kf_tenant_hole(a, &key, cfg) : NULL;
    if (th && !deployment_tenant(th))
        f->has_tenant_keys = true;
    note_tenant_scope(f, a, &key, cfg);
    note_id_key(f, a, k, &key, cfg);

    for (size_t i = 0; i < k->segs.n; i++) {
        const Seg *s = &k->segs.v[i];
        /* a part of a constant is not the text it holds */
        if (s->kind != SEG_TEXT || !(s->flags & SEGF_CONST) || !s->name ||
            (s->flags & SEGF_CONST_PART))
            continue;
        add_const_text(f, a, set, s->text, s->name, true, NULL, false, false);
        if ((s->flags & SEGF_SEPARATOR) && s->text && s->text[0])
            count_separator_const(a, seps, s->name, s->text, 1);
    }

    KfBoundary *b;
    size_t nb = kf_boundaries(a, &key, cfg, &b);
    /* A helper's output inlined at a call site is counted once, at the
     * helper's definition. */
    if ((k->site != SITE_HELPER && kf_boundaries_all_helper(b, nb)) || k->role_guessed)
        nb = 0;
    const char *chars = kf_boundary_chars(a, b, nb);
    if (*chars && !f->separator_uses)
        separators_alloc(f, a);
    for (const char *c = chars; *c; c++)
        if ((unsigned char)*c < SEPARATOR_CHARS) {
            size_t before = designs->n;
            strlist_push_once(a, designs, designs_seen, separator_design(a, *c, k, &key));
            if (designs->n > before)
                f->separator_uses[(unsigned char)*c]++;
            if (!f->separator_first[(unsigned char)*c].path) {
                f->separator_first[(unsigned char)*c].path = path;
                f->separator_first[(unsigned char)*c].span = k->span;
            }
        }

    /* an untenanted partition key a helper builds: a string helper's
     * output, or a field of the object one returns (an entity's keys) */
    if ((k->site == SITE_HELPER || k->site == SITE_ENTITY) && k->role == ROLE_PK &&
        kf_has_text(&key) &&
        !kf_has_tenant(a, &key, cfg) && !prefix_is_global(a, &key, cfg)) {
        strlist_push_once(a, &f->untenanted_helper_pks, &f->index->untenanted, kf_shape(a, &key));
    }
}

/* What one file adds to the project facts: its constants, updates and
 * key facts, computed as one pass over every file would while it reads
 * that file, in the order it would see them. facts_merge adds the parts
 * up. Everything in the arena it was built in. */
typedef struct FileFacts FileFacts;
struct FileFacts {
    const Config *cfg;
    bool lists;             /* something for merge_lists (most files have not) */
    ProjectFacts part;      /* const_texts, updates, untenanted_helper_pks,
                             * separator_uses, has_tenant_keys */
    NameCounts seps;
    StartCodes codes;
    /* the separator designs of its keys (separator_design), each once;
     * separator_uses counts them */
    StrList designs;
    NameMap designs_seen;
    StrList mutated;        /* the file's FileIR.mutated */
    uint64_t stamp;         /* the fold's number for it (FactsFold), 0: none yet */
};

static FileFacts *file_facts(Arena *a, const FileIR *file, const Config *cfg)
{
    FileFacts *ff = arena_alloc(a, sizeof *ff);
    ff->cfg = cfg;
    ProjectFacts *f = &ff->part;
    f->index = arena_alloc(a, sizeof *f->index);
    if (!file || file->parse_failed)
        return ff;
    PairSet set = { 0 };
    for (size_t i = 0; i < file->consts.n; i++)
        add_const_def(f, a, &set, &file->consts.v[i], file->path);
    for (size_t i = 0; i < file->mutated.n; i++)
        strlist_push(a, &ff->mutated, arena_strdup(a, file->mutated.v[i]));
    /* the entities of the operations, for the updates only: most files
     * have none, and these flatten every key of the file */
    const char **op_entities = NULL, **op_sk_entities = NULL, **op_ids = NULL;
    for (size_t i = 0; i < file->ops.n && !op_entities; i++) {
        if (fileir_op_sets(file, i)->n) {
            op_entities = kf_op_entities(a, file);
            op_sk_entities = kf_op_sk_entities(a, file, true);
            op_ids = kf_op_id_names(a, file, op_sk_entities);
        }
    }
    for (size_t i = 0; i < file->ops.n; i++) {
        const DataOp *op = &file->ops.v[i];
        const StrList *sets = fileir_op_sets(file, i);
        for (size_t j = 0; j < sets->n; j++)
            VEC_PUSH(a, &f->updates, ((UpdatedAttr){arena_strdup(a, sets->v[j]),
                                                    op_entities[i], op_sk_entities[i],
                                                    file->path, op->update_span,
                                                    op->table, op_ids[i],
                                                    op->params.table.env}));
    }
    for (size_t i = 0; i < file->keys.n; i++)
        key_facts(f, a, file->path, &file->keys.v[i], cfg, &ff->seps, &set, &ff->codes,
                  &ff->designs, &ff->designs_seen);
    for (size_t i = 0; i < file->helper_calls.n; i++) {
        const HelperCall *hc = &file->helper_calls.v[i];
        bool in_key = false;
        for (size_t k = 0; k < file->keys.n && !in_key; k++) {
            const KeyExpr *ke = &file->keys.v[k];
            /* the key's value, or the variable's it names (`const auditKey
             * = eventAuditKey(e)` ... `{ auditKey }`) */
            bool inside = (hc->span.start_byte >= ke->span.start_byte &&
                           hc->span.end_byte <= ke->span.end_byte) ||
                          (ke->via && hc->span.start_byte >= ke->via_span.start_byte &&
                           hc->span.end_byte <= ke->via_span.end_byte);
            in_key = ke->role != ROLE_KEY && ke->site != SITE_HELPER && inside;
        }
        VEC_PUSH(a, &f->helper_calls,
                 ((HelperCallSite){arena_strdup(a, hc->path), arena_strdup(a, hc->name),
                                   arena_strdup(a, file->path), hc->span, in_key}));
    }
    ff->lists = f->updates.n || f->has_tenant_keys || f->untenanted_helper_pks.n ||
                f->tenant_scoped.n || f->tenant_aliases.n || f->id_partitions.n ||
                ff->seps.n || ff->codes.first || f->helper_calls.n;
    return ff;
}

/* The start codes of a file after those of the files before it: the
 * file's first code is compared with the project's first, its own
 * comparisons stand (they are against a code of the same width as the
 * project's, or already mixed). */
static void merge_start_codes(StartCodes *c, const StartCodes *file)
{
    if (!file->first)
        return;
    if (!c->first) {
        *c = *file;
        return;
    }
    if (file->width != c->width)
        c->mixed = true;
    else if (strncmp(file->first, c->first, c->width))
        c->several = true;
    c->several |= file->several;
    c->mixed |= file->mixed;
}

/* Add a file's names (copied into `a`) to the project's list, each once. */
static void merge_names(Arena *a, StrList *into, NameMap *seen, const StrList *from)
{
    for (size_t i = 0; i < from->n; i++)
        strlist_push_once(a, into, seen, arena_strdup(a, from->v[i]));
}

/* What every fold adds up the same way, the facts that stay small: the
 * updates, the names lists, the separator constants, the start codes, the
 * helper calls, and whether some key carries a tenant. In file order. */
static void merge_lists(ProjectFacts *f, Arena *a, const FileFacts *const *parts, size_t n,
                        NameCounts *seps, StartCodes *codes)
{
    for (size_t pi = 0; pi < n; pi++) {
        const FileFacts *ff = parts[pi];
        if (!ff->lists)
            continue;
        const ProjectFacts *part = &ff->part;
        for (size_t i = 0; i < part->updates.n; i++) {
            const UpdatedAttr *p = &part->updates.v[i];
            strlist_push_once(a, &f->updated_attrs, &f->index->updated_attrs,
                              arena_strdup(a, p->attr));
            UpdatedAttr u = {arena_strdup(a, p->attr), arena_strdup(a, p->entity),
                             arena_strdup(a, p->sk_entity), arena_strdup(a, p->path),
                             p->span, arena_strdup(a, p->table), arena_strdup(a, p->id_name),
                             arena_strdup(a, p->table_env)};
            VEC_PUSH(a, &f->updates, u);
            index_update(f, a, &u);
        }
        f->has_tenant_keys |= part->has_tenant_keys;
        merge_names(a, &f->untenanted_helper_pks, &f->index->untenanted,
                    &part->untenanted_helper_pks);
        merge_names(a, &f->tenant_scoped, &f->index->tenant_scoped, &part->tenant_scoped);
        merge_names(a, &f->tenant_aliases, &f->index->tenant_aliases, &part->tenant_aliases);
        merge_names(a, &f->id_partitions, &f->index->id_partitions, &part->id_partitions);
        for (size_t i = 0; i < ff->seps.n; i++)
            count_separator_const(a, seps, ff->seps.v[i].name, ff->seps.v[i].value,
                                  ff->seps.v[i].n);
        merge_start_codes(codes, &ff->codes);
        for (size_t i = 0; i < part->helper_calls.n; i++) {
            const HelperCallSite *hc = &part->helper_calls.v[i];
            VEC_PUSH(a, &f->helper_calls,
                     ((HelperCallSite){arena_strdup(a, hc->helper_path),
                                       arena_strdup(a, hc->helper), arena_strdup(a, hc->path),
                                       hc->span, hc->in_key}));
        }
    }
}

/* What the facts read of the sums: the tenant prefixes, the width of the
 * start codes, the separator constant and the dominant separator. */
static void merge_finish(ProjectFacts *f, Arena *a, const NameCounts *seps,
                         const StartCodes *codes, const Config *cfg)
{
    find_tenant_prefixes(f, a);
    if (codes->several && !codes->mixed)
        f->fixed_code_width = codes->width;

    /* The separator constant: the most used, then the first by name. */
    const NameCount *best = NULL;
    for (size_t i = 0; i < seps->n; i++) {
        const NameCount *c = &seps->v[i];
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

static void facts_merge(ProjectFacts *f, Arena *a, const FileFacts *const *parts, size_t n,
                        const Config *cfg)
{
    memset(f, 0, sizeof *f);
    f->index = arena_alloc(a, sizeof *f->index);
    separators_alloc(f, a);
    NameCounts seps = { 0 };
    PairSet set = { 0 };
    StartCodes codes = { 0 };
    NameMap designs = { 0 };
    /* the set at its final size at once (the load under 1/2, as
     * add_const_text keeps it): no rehash while the parts are added */
    size_t texts = 0;
    for (size_t pi = 0; pi < n; pi++)
        texts += parts[pi]->part.const_texts.n;
    if (texts) {
        set.cap = 64;
        while (set.cap < 2 * texts + 2)
            set.cap *= 2;
        set.slots = arena_alloc(a, set.cap * sizeof *set.slots);
        memset(set.slots, 0, set.cap * sizeof *set.slots);
    }

    for (size_t pi = 0; pi < n; pi++) {
        const FileFacts *ff = parts[pi];
        const ProjectFacts *part = &ff->part;
        for (size_t i = 0; i < part->const_texts.n; i++) {
            const ConstText *c = &part->const_texts.v[i];
            add_const_text(f, a, &set, c->text, c->name, c->in_key,
                           c->module ? arena_strdup(a, c->module) : NULL, c->declared,
                           c->fixed);
        }
        for (size_t i = 0, seen; i < ff->mutated.n; i++)
            if (!namemap_get(&f->index->mutated, ff->mutated.v[i], &seen))
                namemap_put(a, &f->index->mutated, arena_strdup(a, ff->mutated.v[i]), 0);
        /* a design written in several files counts once */
        for (size_t i = 0, seen; i < ff->designs.n; i++)
            if (!namemap_get(&designs, ff->designs.v[i], &seen)) {
                namemap_put(a, &designs, ff->designs.v[i], 0);
                f->separator_uses[(unsigned char)ff->designs.v[i][0]]++;
            }
        for (int c = 0; part->separator_uses && c < SEPARATOR_CHARS; c++) {
            if (!f->separator_first[c].path && part->separator_first[c].path) {
                f->separator_first[c].path = arena_strdup(a, part->separator_first[c].path);
                f->separator_first[c].span = part->separator_first[c].span;
            }
        }
    }
    merge_lists(f, a, parts, n, &seps, &codes);
    index_const_texts(f, a);
    merge_finish(f, a, &seps, &codes, cfg);
}

/* ---- the fold kept between the editor's analyses -------------------------
 * The facts are a fold over the files in order. Most of it is sums that
 * do not care for the order: how many files contribute a (text, name)
 * pair used in a key, declared, declared and not fixed; how many keys use
 * each separator; how many files mutate a name. The rest is "the first in
 * file order": the order of a text's constants, the module of a pair, the
 * first key of each separator. The fold keeps, for each file's position,
 * what it added; an analysis takes away what the files whose part changed
 * had added and adds their new parts, then finds the "first" entries again
 * only for the pairs, texts and separators those files touched. */

typedef struct FoldBy {
    size_t pos, idx;       /* the file's position, the pair's index in its part */
    const char *module;    /* the part's module for the pair (in the fold) */
} FoldBy;

typedef struct FoldEntry {
    ConstText ct;          /* text, name and the merged flags, while n > 0 */
    size_t group;          /* its text's FoldGroup */
    size_t n, in_key, decl, unfixed; /* parts adding it: all, in a key,
                                      * declared, declared not fixed */
    VEC(FoldBy) by;        /* the parts adding it, by position */
    bool dirty;
} FoldEntry;

typedef struct FoldGroup {
    TextConsts tc;         /* counts and first names (tc.first unused) */
    VEC(size_t) all;       /* every entry ever of the text */
    VEC(size_t) live;      /* those with parts, in file order */
    bool dirty;
} FoldGroup;

/* Names counted by how many parts of the fold have them: separator
 * designs (separator_design; a design counts in separator_uses while a
 * part has it) and mutated names. */
typedef struct FoldNames {
    VEC(size_t) n;         /* per name: how many parts have it */
    NameMap index;         /* name -> index in n */
} FoldNames;

/* What the fold added for the part at one position. */
typedef struct FoldPos {
    uint64_t stamp;        /* the part's FileFacts.stamp */
    size_t n;              /* its pairs: */
    size_t *entry;
    unsigned char *flags;  /* 1 in a key, 2 declared, 4 fixed */
    size_t nsep;           /* its separators */
    unsigned char *sep_char;
    size_t ndesign;        /* its separator designs (indexes in designs) */
    size_t *design;
    unsigned char *design_c; /* their separators */
    size_t nmut;           /* its mutated names (indexes in mutated) */
    size_t *mut;
} FoldPos;

struct FactsFold {
    Arena *a;
    uint64_t serial;       /* the last stamp given */
    size_t npos;
    FoldPos *pos;          /* malloc'd, npos */
    VEC(FoldEntry) entries;
    NameMap pairs;         /* pair_key(text, name) -> entry */
    VEC(FoldGroup) groups;
    NameMap texts;         /* text -> group */
    uint32_t separator_uses[128]; /* designs with parts, by separator */
    size_t separator_first[128]; /* 1 + the position of the first part using it, 0: none */
    FoldNames designs, mutated;
    VEC(size_t) dirty_entries, dirty_groups;
    size_t added, live;    /* pairs added since the fold began, and now */
};

void facts_fold_free(FactsFold *fold)
{
    if (!fold)
        return;
    free(fold->pos);
    arena_free(fold->a);
    free(fold);
}

static FactsFold *fold_new(void)
{
    FactsFold *fold = calloc(1, sizeof *fold);
    if (!fold)
        abort();
    fold->a = arena_new();
    return fold;
}

static void fold_dirty_entry(FactsFold *fold, size_t e)
{
    FoldEntry *en = &fold->entries.v[e];
    if (!en->dirty) {
        en->dirty = true;
        VEC_PUSH(fold->a, &fold->dirty_entries, e);
    }
    FoldGroup *g = &fold->groups.v[en->group];
    if (!g->dirty) {
        g->dirty = true;
        VEC_PUSH(fold->a, &fold->dirty_groups, en->group);
    }
}

/* Take away what the part at position `p` added. */
static void fold_remove(FactsFold *fold, size_t p)
{
    FoldPos *fp = &fold->pos[p];
    for (size_t i = 0; i < fp->n; i++) {
        FoldEntry *en = &fold->entries.v[fp->entry[i]];
        unsigned fl = fp->flags[i];
        en->n--;
        en->in_key -= (fl & 1) != 0;
        en->decl -= (fl & 2) != 0;
        en->unfixed -= (fl & 2) && !(fl & 4);
        for (size_t j = 0; j < en->by.n; j++)
            if (en->by.v[j].pos == p) {
                memmove(&en->by.v[j], &en->by.v[j + 1], (en->by.n - j - 1) * sizeof *en->by.v);
                en->by.n--;
                break;
            }
        fold_dirty_entry(fold, fp->entry[i]);
    }
    fold->live -= fp->n;
    for (size_t i = 0; i < fp->nsep; i++)
        if (fold->separator_first[fp->sep_char[i]] == p + 1)
            fold->separator_first[fp->sep_char[i]] = 0; /* found again below */
    for (size_t i = 0; i < fp->ndesign; i++)
        if (--fold->designs.n.v[fp->design[i]] == 0)
            fold->separator_uses[fp->design_c[i]]--;
    for (size_t i = 0; i < fp->nmut; i++)
        fold->mutated.n.v[fp->mut[i]]--;
    memset(fp, 0, sizeof *fp);
}

/* Count one more part for each of `names`: their indexes in fn, in
 * order (an array in `a`). */
static size_t *fold_names_add(Arena *a, FoldNames *fn, const StrList *names)
{
    size_t *at = arena_alloc(a, (names->n ? names->n : 1) * sizeof *at);
    for (size_t i = 0; i < names->n; i++) {
        if (!namemap_get(&fn->index, names->v[i], &at[i])) {
            at[i] = fn->n.n;
            VEC_PUSH(a, &fn->n, 0);
            namemap_put(a, &fn->index, arena_strdup(a, names->v[i]), at[i]);
        }
        fn->n.v[at[i]]++;
    }
    return at;
}

/* Add the part `ff` at position `p`. */
static void fold_add(FactsFold *fold, size_t p, FileFacts *ff)
{
    Arena *a = fold->a;
    if (!ff->stamp)
        ff->stamp = ++fold->serial;
    FoldPos *fp = &fold->pos[p];
    fp->stamp = ff->stamp;
    const ProjectFacts *part = &ff->part;
    fp->n = part->const_texts.n;
    fp->entry = arena_alloc(a, (fp->n ? fp->n : 1) * sizeof *fp->entry);
    fp->flags = arena_alloc(a, fp->n ? fp->n : 1);
    for (size_t i = 0; i < fp->n; i++) {
        const ConstText *c = &part->const_texts.v[i];
        const char *key = pair_key(a, c->text, c->name);
        size_t e;
        if (!namemap_get(&fold->pairs, key, &e)) {
            size_t g;
            if (!namemap_get(&fold->texts, c->text, &g)) {
                g = fold->groups.n;
                VEC_PUSH(a, &fold->groups, (FoldGroup){0});
                namemap_put(a, &fold->texts, arena_strdup(a, c->text), g);
            }
            e = fold->entries.n;
            FoldEntry en = {.ct = {.text = arena_strdup(a, c->text),
                                   .name = arena_strdup(a, c->name)},
                            .group = g};
            VEC_PUSH(a, &fold->entries, en);
            namemap_put(a, &fold->pairs, key, e);
            VEC_PUSH(a, &fold->groups.v[g].all, e);
        }
        FoldEntry *en = &fold->entries.v[e];
        unsigned fl = (c->in_key ? 1u : 0u) | (c->declared ? 2u : 0u) | (c->fixed ? 4u : 0u);
        fp->entry[i] = e;
        fp->flags[i] = (unsigned char)fl;
        en->n++;
        en->in_key += (fl & 1) != 0;
        en->decl += (fl & 2) != 0;
        en->unfixed += (fl & 2) && !(fl & 4);
        /* the parts by position: most pairs come from one file or two */
        size_t j = en->by.n;
        while (j && en->by.v[j - 1].pos > p)
            j--;
        VEC_PUSH(a, &en->by, (FoldBy){0});
        memmove(&en->by.v[j + 1], &en->by.v[j], (en->by.n - 1 - j) * sizeof *en->by.v);
        en->by.v[j] = (FoldBy){p, i, c->module ? arena_strdup(a, c->module) : NULL};
        fold_dirty_entry(fold, e);
    }
    fold->live += fp->n;
    fold->added += fp->n;
    for (int c = 0; part->separator_uses && c < SEPARATOR_CHARS; c++)
        if (part->separator_uses[c])
            fp->nsep++;
    fp->sep_char = arena_alloc(a, fp->nsep ? fp->nsep : 1);
    for (int c = 0, k = 0; part->separator_uses && c < SEPARATOR_CHARS; c++)
        if (part->separator_uses[c]) {
            fp->sep_char[k++] = (unsigned char)c;
            /* a part that uses a separator has its first key (key_facts);
             * one known to be first after this part stays so, one taken
             * away (0) is looked for in fold_separator_firsts */
            if (fold->separator_first[c] > p + 1)
                fold->separator_first[c] = p + 1;
        }
    fp->ndesign = ff->designs.n;
    fp->design = fold_names_add(a, &fold->designs, &ff->designs);
    fp->design_c = arena_alloc(a, fp->ndesign ? fp->ndesign : 1);
    for (size_t i = 0; i < fp->ndesign; i++) {
        fp->design_c[i] = (unsigned char)ff->designs.v[i][0];
        if (fold->designs.n.v[fp->design[i]] == 1) /* the first part with it */
            fold->separator_uses[fp->design_c[i]]++;
    }
    fp->nmut = ff->mutated.n;
    fp->mut = fold_names_add(a, &fold->mutated, &ff->mutated);
}

static int by_first_cmp(const FactsFold *fold, size_t x, size_t y)
{
    const FoldBy *a = &fold->entries.v[x].by.v[0], *b = &fold->entries.v[y].by.v[0];
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The merged flags of the pairs touched, then the order and counts of
 * their texts, as index_const_texts finds them over the whole fold. */
static void fold_settle(FactsFold *fold)
{
    for (size_t i = 0; i < fold->dirty_entries.n; i++) {
        FoldEntry *en = &fold->entries.v[fold->dirty_entries.v[i]];
        en->dirty = false;
        en->ct.in_key = en->in_key > 0;
        en->ct.declared = en->decl > 0;
        en->ct.fixed = en->decl > 0 && !en->unfixed;
        en->ct.module = NULL;
        for (size_t j = 0; j < en->by.n && !en->ct.module; j++)
            en->ct.module = en->by.v[j].module;
    }
    fold->dirty_entries.n = 0;
    for (size_t i = 0; i < fold->dirty_groups.n; i++) {
        FoldGroup *g = &fold->groups.v[fold->dirty_groups.v[i]];
        g->dirty = false;
        g->live.n = 0;
        memset(&g->tc, 0, sizeof g->tc);
        for (size_t j = 0; j < g->all.n; j++) {
            size_t e = g->all.v[j];
            if (!fold->entries.v[e].n)
                continue;
            /* in file order: insertion, the lists are short */
            VEC_PUSH(fold->a, &g->live, e);
            size_t k = g->live.n - 1;
            while (k && by_first_cmp(fold, g->live.v[k - 1], e) > 0) {
                g->live.v[k] = g->live.v[k - 1];
                k--;
            }
            g->live.v[k] = e;
            const ConstText *c = &fold->entries.v[e].ct;
            if (c->in_key) {
                g->tc.in_key++;
                if (!g->tc.best_in_key || strcmp(c->name, g->tc.best_in_key) < 0)
                    g->tc.best_in_key = c->name;
            } else if (facts_key_like_name(c->name)) {
                g->tc.key_named++;
                if (!g->tc.best_key_named || strcmp(c->name, g->tc.best_key_named) < 0)
                    g->tc.best_key_named = c->name;
            }
        }
    }
    fold->dirty_groups.n = 0;
}

/* The separators whose first part went: the first part using each now. */
static void fold_separator_firsts(FactsFold *fold)
{
    for (int c = 0; c < 128; c++) {
        if (fold->separator_first[c] || !fold->separator_uses[c])
            continue;
        for (size_t p = 0; p < fold->npos && !fold->separator_first[c]; p++)
            for (size_t i = 0; i < fold->pos[p].nsep; i++)
                if (fold->pos[p].sep_char[i] == c) {
                    fold->separator_first[c] = p + 1;
                    break;
                }
    }
}

static void facts_merge_fold(ProjectFacts *f, Arena *a, FactsFold **foldp,
                             FileFacts *const *parts, size_t n, const Config *cfg)
{
    FactsFold *fold = *foldp;
    /* another number of files (one added, removed, or set aside and then
     * read: every position moves), or a fold grown with what it took
     * away: made again from the parts */
    if (fold && (fold->npos != n || fold->added > 2 * fold->live + 200000)) {
        facts_fold_free(fold);
        fold = NULL;
    }
    if (!fold) {
        fold = *foldp = fold_new();
        fold->npos = n;
        fold->pos = calloc(n ? n : 1, sizeof *fold->pos);
        if (!fold->pos)
            abort();
    }
    for (size_t p = 0; p < n; p++) {
        if (parts[p]->stamp && parts[p]->stamp == fold->pos[p].stamp)
            continue;
        fold_remove(fold, p);
        fold_add(fold, p, parts[p]);
    }
    fold_settle(fold);
    fold_separator_firsts(fold);

    memset(f, 0, sizeof *f);
    f->index = arena_alloc(a, sizeof *f->index);
    f->index->fold = fold;
    separators_alloc(f, a);
    memcpy(f->separator_uses, fold->separator_uses,
           SEPARATOR_CHARS * sizeof *f->separator_uses);
    for (int c = 0; c < 128; c++)
        if (fold->separator_first[c]) {
            const ProjectFacts *part = &parts[fold->separator_first[c] - 1]->part;
            f->separator_first[c].path = arena_strdup(a, part->separator_first[c].path);
            f->separator_first[c].span = part->separator_first[c].span;
        }
    NameCounts seps = { 0 };
    StartCodes codes = { 0 };
    merge_lists(f, a, (const FileFacts *const *)parts, n, &seps, &codes);
    merge_finish(f, a, &seps, &codes, cfg);
}

static void compute(ProjectFacts *f, Arena *a, FileIR *const *files, size_t nfiles,
                    const Config *cfg, bool keep, FactsFold **fold)
{
    Arena *scratch = arena_new(); /* the parts not kept */
    FileFacts **parts = arena_alloc(scratch, (nfiles ? nfiles : 1) * sizeof *parts);
    size_t n = 0;
    for (size_t i = 0; i < nfiles; i++) {
        FileIR *file = files[i];
        if (!file || file->parse_failed)
            continue;
        if (keep && file->facts_part && file->facts_part->cfg == cfg) {
            parts[n++] = file->facts_part;
            continue;
        }
        /* a one-shot run: a file with nothing the facts read adds nothing
         * (the editor's fold keeps a part per position, empty or not) */
        if (!keep && !file->consts.n && !file->mutated.n && !file->ops.n && !file->keys.n &&
            !file->helper_calls.n)
            continue;
        bool kept = keep && file->resolved;
        FileFacts *ff = file_facts(kept ? file->resolved : scratch, file, cfg);
        if (kept)
            file->facts_part = ff;
        parts[n++] = ff;
    }
    if (fold)
        facts_merge_fold(f, a, fold, parts, n, cfg);
    else
        facts_merge(f, a, (const FileFacts *const *)parts, n, cfg);
    arena_free(scratch);
}

void facts_compute(ProjectFacts *f, Arena *a, FileIR *const *files,
                   size_t nfiles, const Config *cfg)
{
    compute(f, a, files, nfiles, cfg, false, NULL);
}

void facts_compute_keeping(ProjectFacts *f, Arena *a, FileIR *const *files,
                           size_t nfiles, const Config *cfg, FactsFold **fold)
{
    compute(f, a, files, nfiles, cfg, true, fold);
}

/* Names that say a constant is part of the key design: ORDER_PREFIX,
 * USER_PK, userPk, GSI1PK, EntityType.ORDER, Keys.USER, KEY_SEPARATOR; a
 * word of the name, not a part of one (TASK is no SK, AUDIT_EVENT no key). */
bool facts_key_like_name(const char *name)
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

static const TextConsts *text_consts(const ProjectFacts *f, const char *text)
{
    size_t g;
    if (!f || !f->index || !text)
        return NULL;
    const FactsFold *fold = f->index->fold;
    if (fold) {
        if (!namemap_get(&fold->texts, text, &g) || !fold->groups.v[g].live.n)
            return NULL;
        return &fold->groups.v[g].tc;
    }
    if (!namemap_get(&f->index->texts, text, &g))
        return NULL;
    return &f->index->text_consts.v[g];
}

/* A constant used in keys when there is one; else the one constant named
 * like a key part (two such, `ConfigKeys.NOTIFICATIONS` and
 * `DynamoEntity.NOTIFICATIONS`, name no constant: which is meant is a
 * guess). */
static const char *key_const(const TextConsts *t)
{
    if (!t)
        return NULL;
    if (t->in_key)
        return t->best_in_key;
    return t->key_named == 1 ? t->best_key_named : NULL;
}

const char *facts_const_for_token(const ProjectFacts *f, const char *token)
{
    return key_const(text_consts(f, token));
}

const char *facts_const_for_text(const ProjectFacts *f, const char *text)
{
    return key_const(text_consts(f, text));
}

/* The constant `name` whose value is `text`, NULL when there is none. */
static const ConstText *const_pair(const ProjectFacts *f, const char *text, const char *name)
{
    if (!f || !f->index || !text || !name)
        return NULL;
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%zu:%s%s", strlen(text), text, name);
    size_t i;
    if (n < 0 || (size_t)n >= sizeof buf)
        return NULL;
    const FactsFold *fold = f->index->fold;
    if (fold)
        return namemap_get(&fold->pairs, buf, &i) && fold->entries.v[i].n
                   ? &fold->entries.v[i].ct
                   : NULL;
    if (!namemap_get(&f->index->const_pairs, buf, &i))
        return NULL;
    return &f->const_texts.v[i];
}

const char *facts_const_module(const ProjectFacts *f, const char *text, const char *name)
{
    const ConstText *c = const_pair(f, text, name);
    return c ? c->module : NULL;
}

bool facts_const_fixed(const ProjectFacts *f, const char *text, const char *name)
{
    const ConstText *c = const_pair(f, text, name);
    if (!c || !c->declared || !c->fixed)
        return false;
    /* `Keys.ORDER`: neither `Keys` nor a member path under it assigned */
    size_t hl = strcspn(name, ".");
    char head[256];
    if (hl >= sizeof head)
        return false;
    memcpy(head, name, hl);
    head[hl] = '\0';
    size_t seen;
    const FactsFold *fold = f->index->fold;
    if (fold)
        return !namemap_get(&fold->mutated.index, head, &seen) || !fold->mutated.n.v[seen];
    return !namemap_get(&f->index->mutated, head, &seen);
}

/* The constants whose value is `text` and that are used in a key or whose
 * name `named` accepts: up to `max` of them in names[], how many in all. */
/* One constant of consts_of_text's walk: counted (and kept while there is
 * room) when it is used in a key or `named` accepts its name. */
static void take_const(const ConstText *c, bool (*named)(const char *), const char **names,
                       size_t max, size_t *n)
{
    if (!c->in_key && !named(c->name))
        return;
    if (*n < max)
        names[*n] = c->name;
    (*n)++;
}

static size_t consts_of_text(const ProjectFacts *f, const char *text, bool (*named)(const char *),
                             const char **names, size_t max)
{
    const TextConsts *t = text_consts(f, text);
    size_t n = 0;
    const FactsFold *fold = t ? f->index->fold : NULL;
    if (fold) { /* the editor's fold: the text's live entries */
        const FoldGroup *g = (const FoldGroup *)((const char *)t - offsetof(FoldGroup, tc));
        for (size_t i = 0; i < g->live.n; i++)
            take_const(&fold->entries.v[g->live.v[i]].ct, named, names, max, &n);
        return n;
    }
    for (size_t i = t ? t->first : 0; i; i = f->index->next_same_text[i - 1])
        take_const(&f->const_texts.v[i - 1], named, names, max, &n);
    return n;
}

size_t facts_consts_for_text(const ProjectFacts *f, const char *text, const char **names,
                             size_t max)
{
    return consts_of_text(f, text, facts_key_like_name, names, max);
}

/* UPPER_CASE, digits and underscores only, no member path. */
static bool upper_const_name(const char *name)
{
    bool letter = false;
    for (const char *p = name; *p; p++) {
        if (islower((unsigned char)*p) || !(isalnum((unsigned char)*p) || *p == '_'))
            return false;
        letter |= isupper((unsigned char)*p) != 0;
    }
    return letter;
}

/* INVOICES_PK; a member of a key-named object (`DataType.CONNECTION`,
 * `EntityType.ORDER`, `Keys.USER`), not a record's field (`DefaultAgent.PK`). */
static bool whole_key_name(const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot)
        return upper_const_name(name) && facts_key_like_name(name);
    char head[128];
    size_t hl = (size_t)(dot - name);
    if (hl >= sizeof head)
        return false;
    memcpy(head, name, hl);
    head[hl] = '\0';
    return facts_key_like_name(head);
}

size_t facts_whole_key_consts(const ProjectFacts *f, const char *text, const char **names,
                              size_t max)
{
    return consts_of_text(f, text, whole_key_name, names, max);
}

size_t facts_consts_holding(const ProjectFacts *f, const char *text)
{
    const TextConsts *t = text_consts(f, text);
    return t ? t->in_key + t->key_named : 0;
}

bool facts_untenanted_helper_pk(const ProjectFacts *f, const char *shape)
{
    size_t seen;
    return f && f->index && namemap_get(&f->index->untenanted, shape, &seen);
}

bool facts_tenant_prefix(const ProjectFacts *f, const char *prefix)
{
    size_t seen;
    return f && f->index && prefix && namemap_get(&f->index->tenant_prefixes, prefix, &seen);
}

bool facts_tenant_alias(Arena *a, const ProjectFacts *f, const char *path)
{
    size_t seen;
    if (!f || !f->index || !path || !f->tenant_aliases.n)
        return false;
    return namemap_get(&f->index->tenant_aliases, lower_copy(a, kf_last_component(a, path)),
                       &seen);
}

bool facts_id_partition(Arena *a, const ProjectFacts *f, const char *prefix)
{
    size_t seen;
    return f && f->index && prefix && f->id_partitions.n &&
           namemap_get(&f->index->id_partitions, lower_copy(a, prefix), &seen);
}

FieldUpdates facts_field_updates(const ProjectFacts *f, const char *field, const char *entity)
{
    static const StrList none = {0};
    FieldUpdates fu = {&none, &none, &none};
    size_t g, e;
    if (!f || !f->index || !field || !namemap_get(&f->index->fields, field, &g))
        return fu;
    const FieldSets *fs = &f->index->field_sets.v[g];
    fu.all = &fs->all;
    fu.unscoped = &fs->unscoped;
    if (entity) {
        char *lower = strdup(entity);
        if (!lower)
            abort();
        for (char *p = lower; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        if (namemap_get(&fs->by_entity, lower, &e))
            fu.on_entity = &fs->on_entity.v[e];
        free(lower);
    }
    return fu;
}

size_t facts_helper_calls(const ProjectFacts *f, const char *helper_path, const char *helper,
                          const HelperCallSite **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->helper_calls.n && n < max; i++) {
        const HelperCallSite *c = &f->helper_calls.v[i];
        if (strcmp(c->helper, helper) || strcmp(c->helper_path, helper_path))
            continue;
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = !strcmp(out[j]->path, c->path) && out[j]->span.start_byte == c->span.start_byte;
        if (!seen)
            out[n++] = c;
    }
    return n;
}
