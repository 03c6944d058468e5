/* The design model: drawn from an analysed project. See model.h.
 *
 * 1. Tables: every table of every configuration's table model (a client
 *    library's description of a table counted as that table), each once.
 * 2. Items: the keys of one data operation (a put, an update, a get, one
 *    item of a transaction), of one entity definition or of one object of
 *    keys, in file order; a key attribute met again starts the next item.
 *    Each item has a table (the operation's, found as the rules find it)
 *    and a name (item_name). Items become entities: (table, name), with
 *    the shapes of their keys and their sites.
 * 3. Queries and scans: their key condition, and the entities whose
 *    written shapes can answer it (access_shapes_compatible, as
 *    unmatched-query compares them).
 * 4. Findings: a key with a finding inside its value marks its shape, a
 *    finding inside a query marks the query. */
#include "model.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "keyfacts.h"
#include "model_int.h"
#include "project.h"
#include "schema.h"

/* ---- shapes ---------------------------------------------------------------- */

/* How a value reads in a shape: the last name of its path ("tenantId" of
 * "dto.tenantId"), the local a call's value was kept in (`const eventId =
 * uuidv4()`: eventId), else its callee with "()", "?" for what is not read. */
static void hole_text(StrBuf *b, Arena *a, const Seg *s)
{
    const char *name = NULL;
    if (s->kind == SEG_REF && s->text)
        name = kf_last_component(a, s->text);
    else if (s->kind == SEG_CALL && s->name && !(s->flags & SEGF_HELPER))
        name = kf_last_component(a, s->name);
    else if (s->kind == SEG_CALL && s->text)
        name = arena_printf(a, "%s()", kf_last_component(a, s->text));
    sb_append(b, "{");
    sb_append(b, name && name[0] ? name : "?");
    sb_append(b, "}");
}

/* The shape of a key with its values named ("ORDER#{tenantCode}"). */
static const char *shape_text(Arena *a, Arena *scratch, const SegList *segs)
{
    StrBuf b;
    sb_init(&b, scratch);
    for (size_t i = 0; i < segs->n; i++) {
        const Seg *s = &segs->v[i];
        if (s->kind == SEG_TEXT)
            sb_append(&b, s->text ? s->text : "");
        else
            hole_text(&b, scratch, s);
    }
    return arena_strdup(a, sb_str(&b));
}

/* The names of a key's values, each once (hole_text without braces). */
static void hole_names(Arena *a, const KfKey *k, StrList *out)
{
    NameMap seen = {0};
    for (size_t p = 0; p < k->n; p++) {
        if (!k->parts[p].hole)
            continue;
        const Seg *s = kf_part_seg(k, p);
        const char *n = s->text ? kf_last_component(a, s->text) : "";
        if (n[0])
            strlist_push_once(a, out, &seen, n);
    }
}

/* ---- naming ---------------------------------------------------------------- */

/* The entity token of a key: its first word ("ORDER" of ORDER#{id},
 * "ORDER_ITEM", "user"); with `tenant_skip`, after a leading tenant
 * segment when more follows it: `TENANT#{tenantId}#ORG#{orgId}` gives ORG,
 * `{tenantCode}#STATUS#{s}` STATUS; the tenant's own record `TENANT#{id}`
 * gives TENANT. `id_after`: a value follows the token (the key names one
 * item of many). */
typedef struct KeyTok {
    const char *tok;
    bool id_after;
} KeyTok;

static size_t word_len(const char *s)
{
    if (!isalpha((unsigned char)s[0]))
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    return n;
}

/* Separator characters only (what may stand between a word and a value). */
static bool only_separators(const char *s)
{
    for (; *s; s++)
        if (isalnum((unsigned char)*s))
            return false;
    return true;
}

static KeyTok key_token(Arena *a, const KfKey *k, const Config *cfg, bool tenant_skip)
{
    KeyTok t = {0};
    if (!k || !k->n)
        return t;
    size_t p = 0;
    if (k->parts[0].hole) {
        if (!tenant_skip || k->n < 2 || !kf_hole_is_tenant(a, kf_part_seg(k, 0), cfg))
            return t;
        p = 1; /* {tenantCode}#STATUS#... */
    } else {
        const char *x = k->parts[0].text;
        while (*x && !isalnum((unsigned char)*x))
            x++;
        size_t n = word_len(x);
        char *w = arena_strndup(a, x, n);
        if (tenant_skip && n && strcasestr(w, "tenant") && only_separators(x + n) && k->n > 2 &&
            k->parts[1].hole)
            p = 2; /* TENANT#{tenantId}#ORG#... */
    }
    if (k->parts[p].hole)
        return t;
    const char *x = k->parts[p].text;
    while (*x && !isalnum((unsigned char)*x))
        x++;
    size_t n = word_len(x);
    if (!n)
        return t;
    t.tok = arena_strndup(a, x, n);
    for (size_t q = p + 1; q < k->n && !t.id_after; q++)
        t.id_after = k->parts[q].hole;
    return t;
}

static bool is_verb(const char *s, size_t n)
{
    static const char *const verbs[] = {"get", "make", "build", "generate", "create", "to",
                                        "new", "compute", "format", NULL};
    for (const char *const *v = verbs; *v; v++)
        if (strlen(*v) == n && !strncasecmp(s, *v, n))
            return true;
    return false;
}

/* A helper's name as an entity's: "generateUserPk" -> "User",
 * "orderKey" -> "order", "Keys.invoice" -> "invoice". NULL when nothing
 * is left. */
static const char *helper_entity(Arena *a, const char *helper)
{
    if (!helper)
        return NULL;
    const char *h = kf_last_component(a, helper);
    size_t n = strlen(h);
    /* a leading verb, when a capital follows it */
    for (size_t i = 1; i < n; i++) {
        if (isupper((unsigned char)h[i])) {
            if (is_verb(h, i)) {
                h += i;
                n -= i;
            }
            break;
        }
    }
    static const char *const tails[] = {"PartitionKey", "SortKey", "Keys", "Key", "Pk", "PK",
                                        "Sk", "SK", "Id", "_pk", "_sk", "_key", NULL};
    for (bool again = true; again;) {
        again = false;
        for (const char *const *t = tails; *t; t++) {
            size_t tl = strlen(*t);
            if (n > tl && !strncmp(h + n - tl, *t, tl)) {
                n -= tl;
                again = true;
            }
        }
    }
    return n ? arena_strndup(a, h, n) : NULL;
}

/* The helper a key is built with: the name on its inlined text, else the
 * callee of a key that is one call. */
static const char *key_helper(const KeyExpr *k)
{
    for (size_t i = 0; i < k->segs.n; i++)
        if ((k->segs.v[i].flags & SEGF_HELPER) && k->segs.v[i].name)
            return k->segs.v[i].name;
    if (k->segs.n == 1 && k->segs.v[0].kind == SEG_CALL)
        return k->segs.v[0].text;
    return NULL;
}

/* ---- building ---------------------------------------------------------------- */

typedef struct Item {
    KeyTok pt, st;    /* the tokens of its partition and sort keys */
    const char *partition_shape; /* its partition key's attribute and shape */
    const char *sort_canon;      /* its sort key's shape */
    bool own;         /* the sort key is the partition's own record: its
                       * values are the partition key's (USER#{id} / METADATA#{id}) */
    const FileIR *file;
    const Config *cfg;
    size_t table;     /* MODEL_NO_TABLE when not known */
    const char *name; /* NULL: unnamed */
    bool by_sk;       /* named by its sort key */
    const char *partition; /* then: the partition key's token */
    bool write;       /* its site writes (put, update, delete, definitions) */
    MSite site;
    size_t first, n;  /* its keys: keys[first .. first + n) of the builder's list */
} Item;

/* How a shape of an entity is written: one text and how many keys. */
typedef struct ShapeText {
    size_t entity;
    const char *attr, *canon, *text;
    size_t uses;
    bool written;
} ShapeText;

typedef struct Builder {
    const Project *p;
    DesignModel *m;
    Arena *a;  /* scratch */
    NameMap table_ids; /* "path:byte:id" -> table */
    VEC(const TableDef *) tdefs; /* per known table */
    VEC(Item) items;
    VEC(const KeyExpr *) keys; /* the items' keys */
    VEC(KfKey) flat;           /* the same, flattened */
    NameMap entities;          /* "table\nname" -> entity */
    VEC(ShapeText) texts;      /* how each shape is written (choose_texts) */
    NameMap text_at;
    /* findings by display path: diags[from .. from + count) of p->diags */
    NameMap diag_from, diag_count;
} Builder;

static const TableDef *canonical(const TableDef *t)
{
    for (int hop = 0; t && t->same_as && hop < 8; hop++)
        t = t->same_as;
    return t;
}

static MSite site_of(Builder *b, const char *path, Span s)
{
    return (MSite){arena_strdup(b->m->arena, path ? path : ""), s.start_row + 1};
}

static void add_attr(DesignModel *m, MTable *t, const char *attr, KeyRole role, AttrType type)
{
    if (!attr || strlist_has(&t->attrs, attr))
        return;
    size_t n = t->attrs.n;
    strlist_push(m->arena, &t->attrs, arena_strdup(m->arena, attr));
    KeyRole *r = arena_alloc(m->arena, (n + 1) * sizeof *r);
    char *ty = arena_alloc(m->arena, n + 2);
    if (n) {
        memcpy(r, t->attr_roles, n * sizeof *r);
        memcpy(ty, t->attr_types, n);
    }
    r[n] = role;
    ty[n] = type == ATTR_N ? 'N' : type == ATTR_B ? 'B' : 'S';
    t->attr_roles = r;
    t->attr_types = ty;
}

static const char *table_key(Builder *b, const TableDef *t);

/* The model's table for a table definition, added the first time. */
static size_t table_of(Builder *b, const TableDef *t)
{
    t = canonical(t);
    if (!t)
        return MODEL_NO_TABLE;
    const char *key = table_key(b, t);
    size_t i;
    if (namemap_get(&b->table_ids, key, &i))
        return i;
    DesignModel *m = b->m;
    Arena *ma = m->arena;
    MTable mt = {
        .label = arena_strdup(ma, table_label(b->a, t)),
        .name = t->name ? arena_strdup(ma, t->name) : NULL,
        .id = t->id ? arena_strdup(ma, t->id) : NULL,
        .pk = t->pk.name ? arena_strdup(ma, t->pk.name) : NULL,
        .sk = t->sk.name ? arena_strdup(ma, t->sk.name) : NULL,
        .known = true,
    };
    if (t->path)
        mt.where = site_of(b, t->path, t->span);
    add_attr(m, &mt, mt.pk, ROLE_PK, t->pk.type);
    add_attr(m, &mt, mt.sk, ROLE_SK, t->sk.type);
    for (size_t x = 0; x < t->indexes.n; x++) {
        const TableIndex *ix = &t->indexes.v[x];
        MIndex mi = {
            .name = arena_strdup(ma, ix->name ? ix->name : "?"),
            .local = ix->kind == INDEX_LOCAL,
            .pk = ix->pk.name ? arena_strdup(ma, ix->pk.name) : mt.pk,
            .sk = ix->sk.name ? arena_strdup(ma, ix->sk.name) : NULL,
            .projection = ix->projection ? arena_strdup(ma, ix->projection) : NULL,
        };
        VEC_PUSH(ma, &mt.indexes, mi);
    }
    for (size_t x = 0; x < t->indexes.n; x++) {
        const TableIndex *ix = &t->indexes.v[x];
        add_attr(m, &mt, mt.indexes.v[x].pk, ix->kind == INDEX_LOCAL ? ROLE_PK : ROLE_INDEX_PK,
                 ix->pk.type);
        add_attr(m, &mt, mt.indexes.v[x].sk, ROLE_INDEX_SK, ix->sk.type);
    }
    i = m->tables.n;
    VEC_PUSH(ma, &m->tables, mt);
    VEC_PUSH(b->a, &b->tdefs, t);
    namemap_put(b->a, &b->table_ids, key, i);
    return i;
}

static bool same_name(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static const char *table_key(Builder *b, const TableDef *t)
{
    return arena_printf(b->a, "%s:%u:%s", t->path ? t->path : "", t->span.start_byte,
                        t->id ? t->id : "");
}

/* Every table of every configuration's table model, each once. A table a
 * script creates (CreateTableCommand) with the keys of the one table the
 * templates or the infrastructure code define is that table (a local
 * copy for development or tests), not a table of its own. */
static void collect_tables(Builder *b)
{
    const Project *p = b->p;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t e = 0; e < p->models.n; e++) {
            const TableModel *tm = p->models.v[e].model;
            for (size_t i = 0; tm && i < tm->set.tables.n; i++) {
                const TableDef *t = &tm->set.tables.v[i];
                if (t->same_as || (t->source == TSRC_SDK) != (pass == 1))
                    continue;
                size_t hit = MODEL_NO_TABLE, hits = 0;
                for (size_t k = 0; pass == 1 && k < b->tdefs.n; k++) {
                    const TableDef *o = b->tdefs.v[k];
                    if (o->source != TSRC_SDK && same_name(o->pk.name, t->pk.name) &&
                        same_name(o->sk.name, t->sk.name)) {
                        hit = k;
                        hits++;
                    }
                }
                if (hits == 1)
                    namemap_put(b->a, &b->table_ids, table_key(b, t), hit);
                else
                    table_of(b, t);
            }
        }
    }
}

/* The table model of a file's configuration (derived configurations share
 * their file's). */
static const TableModel *model_of(const Project *p, const Config *cfg)
{
    cfg = config_root(cfg);
    for (size_t i = 0; i < p->models.n; i++)
        if (p->models.v[i].config == cfg)
            return p->models.v[i].model;
    return NULL;
}

/* The attribute a key is on, when it names one a table can have. */
static bool usable_attr(const KeyExpr *k)
{
    return k->attr && k->attr[0] && k->attr[0] != '#' && !attr_is_deferred(k->attr) &&
           k->attr[0] != '[';
}

/* A property of a validation schema (`pk: z.string().optional()`): every
 * part of the value a call on a name imported from a schema library. It
 * declares an attribute's type; it builds no key. */
static bool schema_declaration(const FileIR *f, const KeyExpr *k)
{
    static const char *const libs[] = {"zod", "yup", "joi", "valibot", "superstruct", "io-ts",
                                       "arktype", "@sinclair/typebox", "@effect/schema"};
    if (k->site != SITE_OBJECT || !k->segs.n)
        return false;
    for (size_t i = 0; i < k->segs.n; i++) {
        const Seg *g = &k->segs.v[i];
        if (g->kind != SEG_CALL || !g->text)
            return false;
        size_t n = strcspn(g->text, ".(");
        char root[64];
        if (!n || n >= sizeof root)
            return false;
        memcpy(root, g->text, n);
        root[n] = 0;
        const Import *im = fileir_import(f, root);
        bool lib = false;
        for (size_t j = 0; im && im->source && j < sizeof libs / sizeof *libs && !lib; j++) {
            size_t m = strlen(libs[j]);
            lib = !strncmp(im->source, libs[j], m) && (!im->source[m] || im->source[m] == '/');
        }
        if (!lib)
            return false;
    }
    return true;
}

/* Whether key `k` of `f` writes its value (writes_key of access.c): an
 * item written, an entity's or an object's keys, an update's Key. */
static bool key_written(const FileIR *f, const KeyExpr *k)
{
    switch (k->site) {
    case SITE_WRITE:
    case SITE_ENTITY:
    case SITE_OBJECT:
        return true;
    case SITE_READ:
        return k->op >= 0 && (size_t)k->op < f->ops.n && f->ops.v[k->op].kind == OP_UPDATE;
    default:
        return false;
    }
}

static const KeyExpr *item_key(const Builder *b, const Item *it, KeyRole role, const KfKey **flat)
{
    for (size_t i = it->first; i < it->first + it->n; i++)
        if (b->keys.v[i]->role == role) {
            if (flat)
                *flat = &b->flat.v[i];
            return b->keys.v[i];
        }
    return NULL;
}

/* What naming an item reads of its keys (item_name): the tokens of its
 * partition and sort keys, its partition. */
static void item_tokens(Builder *b, Item *it)
{
    Arena *a = b->a;
    const KfKey *pkf = NULL, *skf = NULL;
    const KeyExpr *pk = item_key(b, it, ROLE_PK, &pkf);
    const KeyExpr *sk = item_key(b, it, ROLE_SK, &skf);
    it->pt = pk ? key_token(a, pkf, it->cfg, true) : (KeyTok){0};
    it->st = sk ? key_token(a, skf, it->cfg, false) : (KeyTok){0};
    if (pk)
        it->partition_shape = arena_printf(a, "%s\n%s", pk->attr, kf_shape(a, pkf));
    if (sk)
        it->sort_canon = kf_shape(a, skf);
    if (it->st.tok && it->st.id_after && it->pt.tok) {
        StrList ph = {0}, sh = {0};
        hole_names(a, pkf, &ph);
        hole_names(a, skf, &sh);
        it->own = sh.n > 0;
        for (size_t i = 0; i < sh.n && it->own; i++)
            it->own = strlist_has(&ph, sh.v[i]);
    }
}

/* The partition key shape of an item, without its attribute. */
static const char *partition_canon(const Item *it)
{
    return it->partition_shape ? strchr(it->partition_shape, '\n') + 1 : NULL;
}

/* The whole text of the partition key of a collection that is one
 * constant with more than its first word (`SYSTEM#SETTING` over
 * `KEY#{key}`), separators around it dropped; NULL for any other (also
 * one record with a literal id, `USER#alice` / `PROFILE`). */
static const char *constant_partition(Arena *a, const Item *it)
{
    const char *c = partition_canon(it);
    if (!it->pt.tok || !c || strstr(c, "{}") || !it->st.tok || !it->st.id_after)
        return NULL;
    size_t n;
    c = model_trim_separators(c, &n);
    return n > strlen(it->pt.tok) ? arena_strndup(a, c, n) : NULL;
}

/* The whole text of a sort key that is one constant with more than its
 * first word, in capitals (`LOOKUP#EMAIL`), separators around it dropped;
 * NULL for any other (a one-word record, `METADATA`; a literal id). */
static const char *constant_sort(Arena *a, const Item *it)
{
    const char *c = it->sort_canon;
    if (!it->st.tok || !c || strstr(c, "{}"))
        return NULL;
    size_t n;
    c = model_trim_separators(c, &n);
    for (size_t i = 0; i < n; i++) /* not a literal id (`MEMBER#alice`, `TASK#0001`) */
        if (islower((unsigned char)c[i]) || isdigit((unsigned char)c[i]))
            return NULL;
    return n > strlen(it->st.tok) ? arena_strndup(a, c, n) : NULL;
}

/* Name an item from its keys (model.h). The sort key's token names it
 * when the sort key names one item among many and its partition holds
 * several kinds of items (sort keys with two tokens or more: an adjacency
 * list), or belongs to a tenant, or has no token of its own; unless the
 * sort key is the partition's own record; a sort key that is one constant
 * of more than one word in such a partition (`USER#{id}` / `LOOKUP#EMAIL`
 * beside `METADATA#{id}`) names it whole. Else the partition key's token
 * names it, or its whole constant when collections in constant
 * partitions of that token differ after it and no partition of that token
 * holds a value (`SYSTEM#SETTING` and `SYSTEM#HEALTH`: two entities);
 * else the helper that builds its keys; else an index key's token.
 * `kinds`: the sort key tokens of each partition (partition_shape);
 * `constants`: "TOK\n*" for a token of two constant partitions or more,
 * "TOK\n{}" for a token of a partition that holds a value, "TOK\n{}sort"
 * for a token of a sort key that holds one. */
static void item_name(Builder *b, Item *it, const NameMap *kinds, const StrList *lists,
                      const NameMap *constants)
{
    Arena *a = b->a;
    size_t k;
    bool shared = !it->pt.tok || strcasestr(it->pt.tok, "tenant") ||
                  (it->partition_shape && namemap_get(kinds, it->partition_shape, &k) &&
                   lists[k].n >= 2);
    if (it->st.tok && it->st.id_after && !it->own && shared) {
        it->name = it->st.tok;
        it->by_sk = true;
        it->partition = it->pt.tok;
        return;
    }
    /* (a literal id of a kind whose sort keys hold values elsewhere,
     * `ROLE#role-marshal` of seed data beside `ROLE#{roleId}`, is that kind) */
    const char *sort = shared ? constant_sort(a, it) : NULL;
    if (!sort && shared && it->st.tok && it->sort_canon && !strstr(it->sort_canon, "{}") &&
        namemap_get(constants, arena_printf(a, "%s\n{}sort", it->st.tok), &k))
        sort = it->st.tok;
    if (sort) {
        it->name = sort;
        it->by_sk = true;
        it->partition = it->pt.tok;
        return;
    }
    if (it->pt.tok) {
        const char *whole = constant_partition(a, it);
        it->name = whole && namemap_get(constants, arena_printf(a, "%s\n*", it->pt.tok), &k) &&
                           !namemap_get(constants, arena_printf(a, "%s\n{}", it->pt.tok), &k)
                       ? whole
                       : it->pt.tok;
        return;
    }
    if (it->st.tok) {
        it->name = it->st.tok;
        return;
    }
    const KeyExpr *pk = item_key(b, it, ROLE_PK, NULL), *sk = item_key(b, it, ROLE_SK, NULL);
    const char *h = helper_entity(a, pk ? key_helper(pk) : NULL);
    if (!h && sk)
        h = helper_entity(a, key_helper(sk));
    if (h) {
        it->name = h;
        return;
    }
    for (size_t i = it->first; i < it->first + it->n; i++) {
        KeyTok t = key_token(a, &b->flat.v[i], it->cfg, true);
        if (t.tok && (b->keys.v[i]->role == ROLE_INDEX_PK || b->keys.v[i]->role == ROLE_INDEX_SK)) {
            it->name = t.tok;
            return;
        }
    }
}

/* The sort key shapes of the items of one partition (model_child_word). */
typedef struct Beside {
    Arena *a;
    const char *partition; /* Item.partition_shape */
    NameMap shapes;        /* "partition\nsort" */
} Beside;

static bool beside(void *ctx, const char *sibling)
{
    Beside *x = ctx;
    size_t k;
    return namemap_get(&x->shapes, arena_printf(x->a, "%s\n%s", x->partition, sibling), &k);
}

/* Name every item: the sort key tokens of each partition first (a sort
 * key that extends another of its partition, ROLE#{r}#SLOT#{s} beside
 * ROLE#{r}, is named by its last word). */
static void name_items(Builder *b)
{
    NameMap kinds = {0};
    VEC(StrList) lists = {0};
    NameMap constants = {0}, seen = {0}; /* item_name's */
    Beside sorts = {b->a, NULL, {0}};    /* "partition\nsort" of every item */
    for (size_t i = 0; i < b->items.n; i++) {
        Item *it = &b->items.v[i];
        item_tokens(b, it);
        if (it->partition_shape && it->sort_canon)
            namemap_put(b->a, &sorts.shapes,
                        arena_printf(b->a, "%s\n%s", it->partition_shape, it->sort_canon), 0);
    }
    StrList child = {0}, word = {0}; /* sort shapes so named, and their names */
    for (size_t i = 0; i < b->items.n; i++) { /* ROLE#{r}#SLOT#{s} beside ROLE#{r}: a SLOT */
        Item *it = &b->items.v[i];
        sorts.partition = it->partition_shape;
        const char *w = it->partition_shape && it->st.id_after
                            ? model_child_word(b->a, it->sort_canon, it->st.tok, beside, &sorts)
                            : NULL;
        if (w && !strlist_has(&child, it->sort_canon)) {
            strlist_push(b->a, &child, it->sort_canon);
            strlist_push(b->a, &word, w);
        }
        if (w)
            it->st.tok = w;
    }
    for (size_t i = 0; i < b->items.n; i++) { /* and its literal ids (seed data's) */
        Item *it = &b->items.v[i];
        for (size_t c = 0; it->sort_canon && c < child.n; c++)
            if (model_literal_of(it->sort_canon, child.v[c]))
                it->st.tok = word.v[c];
    }
    for (size_t i = 0; i < b->items.n; i++) {
        Item *it = &b->items.v[i];
        const char *whole = constant_partition(b->a, it);
        const char *pc = partition_canon(it);
        size_t k;
        if (it->pt.tok && pc && strstr(pc, "{}")) /* `SYSTEM#{id}`: SYSTEM is one kind */
            namemap_put(b->a, &constants, arena_printf(b->a, "%s\n{}", it->pt.tok), 0);
        if (it->st.tok && it->sort_canon && strstr(it->sort_canon, "{}")) /* `ROLE#{roleId}` */
            namemap_put(b->a, &constants, arena_printf(b->a, "%s\n{}sort", it->st.tok), 0);
        if (whole && !namemap_get(&seen, whole, &k)) {
            namemap_put(b->a, &seen, whole, 0);
            if (namemap_get(&constants, it->pt.tok, &k))
                namemap_put(b->a, &constants, arena_printf(b->a, "%s\n*", it->pt.tok), 0);
            else
                namemap_put(b->a, &constants, it->pt.tok, 0);
        }
        if (!it->partition_shape || !it->st.tok)
            continue;
        if (!namemap_get(&kinds, it->partition_shape, &k)) {
            k = lists.n;
            namemap_put(b->a, &kinds, it->partition_shape, k);
            VEC_PUSH(b->a, &lists, (StrList){0});
        }
        if (!strlist_has(&lists.v[k], it->st.tok))
            strlist_push(b->a, &lists.v[k], it->st.tok);
    }
    for (size_t i = 0; i < b->items.n; i++)
        item_name(b, &b->items.v[i], &kinds, lists.v, &constants);
}

static void add_site(Arena *a, MSites *v, MSite s);

/* Keep an item that has a key of the table: keys of an index alone are
 * a fragment (a helper's `{ GSI1PK, GSI1SK }`), read where it is spread. */
static void push_item(Builder *b, Item *it)
{
    if (!it->n || (!item_key(b, it, ROLE_PK, NULL) && !item_key(b, it, ROLE_SK, NULL)))
        return;
    bool opaque = true; /* every key a value passed in, no helper */
    for (size_t i = it->first; i < it->first + it->n && opaque; i++)
        opaque = !kf_has_text(&b->flat.v[i]) && !key_helper(b->keys.v[i]);
    if (opaque) {
        if (it->write)
            add_site(b->m->arena, &b->m->opaque, it->site);
        return;
    }
    VEC_PUSH(b->a, &b->items, *it);
}

/* The item keys of file `f`: per data operation that is not a query or
 * scan, and per run of keys of one object outside any operation. */
static void collect_items(Builder *b, const SourceFile *sf)
{
    const FileIR *f = sf->ir;
    const Config *cfg = sf->config;
    const TableModel *tm = model_of(b->p, cfg);
    Item cur = {0};
    int cur_op = -2;
    KeySite cur_site = SITE_HELPER;
    uint32_t last_row = 0;
    StrList attrs = {0};
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->site == SITE_HELPER || k->site == SITE_CONDITION || !usable_attr(k) ||
            k->role == ROLE_KEY || schema_declaration(f, k))
            continue;
        if (k->op >= 0 && ((size_t)k->op >= f->ops.n || f->ops.v[k->op].kind == OP_QUERY ||
                           f->ops.v[k->op].kind == OP_SCAN))
            continue;
        /* An attribute seen again starts the next item, unless the key
         * before was on it too: the alternatives of one value
         * (`gsi2sk: createdAt` with `createdAt = a || Date.now()`). */
        bool alternative = cur.n && !strcmp(b->keys.v[b->keys.n - 1]->attr, k->attr);
        bool next = k->op != cur_op || (strlist_has(&attrs, k->attr) && !alternative) ||
                    (k->op < 0 && (k->site != cur_site || k->span.start_row > last_row + 30));
        if (next) {
            push_item(b, &cur);
            memset(&cur, 0, sizeof cur);
            memset(&attrs, 0, sizeof attrs);
            cur.file = f;
            cur.cfg = cfg;
            cur.first = b->keys.n;
            cur.table = MODEL_NO_TABLE;
            if (k->op >= 0) {
                const DataOp *op = &f->ops.v[k->op];
                cur.write = op_is_write(op->kind);
                cur.site = site_of(b, f->path, op->span);
                OpTarget t;
                access_target(b->a, b->p->access, tm, cfg, f, (size_t)k->op, &t);
                if (t.table)
                    cur.table = table_of(b, t.table);
            } else {
                cur.write = k->site != SITE_READ;
                cur.site = site_of(b, f->path, k->span);
                if (k->site == SITE_ENTITY)
                    cur.table = table_of(b, access_entity_table(tm, f, k->span));
            }
            cur_op = k->op;
            cur_site = k->site;
        }
        strlist_push(b->a, &attrs, k->attr);
        last_row = k->span.start_row;
        VEC_PUSH(b->a, &b->keys, k);
        KfKey kk;
        kf_flatten(b->a, &k->segs, &kk);
        VEC_PUSH(b->a, &b->flat, kk);
        cur.n++;
    }
    push_item(b, &cur);
}

/* ---- findings ----------------------------------------------------------------- */

static void index_findings(Builder *b)
{
    const DiagList *dl = &b->p->diags;
    for (size_t i = 0; i < dl->items.n;) {
        const char *path = dl->items.v[i].path ? dl->items.v[i].path : "";
        size_t j = i;
        while (j < dl->items.n && !strcmp(dl->items.v[j].path ? dl->items.v[j].path : "", path))
            j++;
        size_t seen;
        if (!namemap_get(&b->diag_from, path, &seen)) {
            namemap_put(b->a, &b->diag_from, path, i);
            namemap_put(b->a, &b->diag_count, path, j - i);
        }
        i = j;
    }
}

/* The ids of the findings of `path` that start inside `span`, added to
 * `out` (in the model's arena, each once). */
static size_t findings_in(Builder *b, const char *path, Span span, StrList *out)
{
    size_t from, count, hits = 0;
    if (!namemap_get(&b->diag_from, path, &from) || !namemap_get(&b->diag_count, path, &count))
        return 0;
    const DiagList *dl = &b->p->diags;
    for (size_t i = from; i < from + count; i++) {
        const Diagnostic *d = &dl->items.v[i];
        if (d->span.start_byte < span.start_byte || d->span.start_byte > span.end_byte)
            continue;
        hits++;
        if (!strlist_has(out, d->rule))
            strlist_push(b->m->arena, out, arena_strdup(b->m->arena, d->rule));
    }
    return hits;
}

static int str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void sort_strs(StrList *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, str_cmp);
}

/* ---- entities ---------------------------------------------------------------- */

static MEntity *entity_get(Builder *b, size_t table, const char *name)
{
    const char *key = arena_printf(b->a, "%zu\n%s", table, name);
    size_t i;
    if (namemap_get(&b->entities, key, &i))
        return &b->m->entities.v[i];
    MEntity e = {.name = arena_strdup(b->m->arena, name), .table = table};
    i = b->m->entities.n;
    VEC_PUSH(b->m->arena, &b->m->entities, e);
    namemap_put(b->a, &b->entities, key, i);
    return &b->m->entities.v[i];
}

static void add_site(Arena *a, MSites *v, MSite s)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i].line == s.line && !strcmp(v->v[i].path, s.path))
            return;
    VEC_PUSH(a, v, s);
}

static size_t calls_in(const char *text)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, "()}")); p += 3)
        n++;
    return n;
}

/* Count the text of key `k` among its shape's texts (choose_texts). */
static void count_text(Builder *b, size_t entity, const KeyExpr *k, const char *canon,
                       const char *text, bool written)
{
    const char *key = arena_printf(b->a, "%zu\n%s\n%s\n%s", entity, k->attr, canon, text);
    size_t i;
    if (!namemap_get(&b->text_at, key, &i)) {
        i = b->texts.n;
        namemap_put(b->a, &b->text_at, key, i);
        VEC_PUSH(b->a, &b->texts, ((ShapeText){entity, k->attr, canon, text, 0, false}));
    }
    b->texts.v[i].uses++;
    b->texts.v[i].written |= written;
}

/* Whether text x names a shape better than y: more keys are written so,
 * then a written one, then with fewer calls (`{postId}` over
 * `{generateUuid()}`), then the first by name. */
static bool better_text(const ShapeText *x, const ShapeText *y)
{
    if (x->uses != y->uses)
        return x->uses > y->uses;
    if (x->written != y->written)
        return x->written;
    size_t cx = calls_in(x->text), cy = calls_in(y->text);
    if (cx != cy)
        return cx < cy;
    return strcmp(x->text, y->text) < 0;
}

/* Each shape named by its best text (better_text). */
static void choose_texts(Builder *b)
{
    NameMap best_at = {0};
    VEC(size_t) best = {0};
    for (size_t i = 0; i < b->texts.n; i++) {
        const ShapeText *t = &b->texts.v[i];
        const char *key = arena_printf(b->a, "%zu\n%s\n%s", t->entity, t->attr, t->canon);
        size_t k;
        if (!namemap_get(&best_at, key, &k)) {
            namemap_put(b->a, &best_at, key, best.n);
            VEC_PUSH(b->a, &best, i);
        } else if (better_text(t, &b->texts.v[best.v[k]])) {
            best.v[k] = i;
        }
    }
    for (size_t k = 0; k < best.n; k++) {
        const ShapeText *t = &b->texts.v[best.v[k]];
        MEntity *e = &b->m->entities.v[t->entity];
        for (size_t s = 0; s < e->shapes.n; s++)
            if (!strcmp(e->shapes.v[s].attr, t->attr) && !strcmp(e->shapes.v[s].canon, t->canon))
                e->shapes.v[s].text = arena_strdup(b->m->arena, t->text);
    }
}

/* A shape of key `k` (its segments `segs`, flattened `flat`: the key's
 * own or one of its fallbacks) added to entity `ei`. */
static void add_shape_of(Builder *b, size_t ei, const Item *it, const KeyExpr *k,
                         const SegList *segs, const KfKey *flat, bool fallback)
{
    Arena *ma = b->m->arena;
    MEntity *e = &b->m->entities.v[ei];
    const char *canon = kf_shape(b->a, flat);
    bool written = key_written(it->file, k);
    StrList rules = {0};
    findings_in(b, it->file->path, k->span, &rules);
    MShape *s = NULL;
    for (size_t i = 0; i < e->shapes.n && !s; i++)
        if (!strcmp(e->shapes.v[i].attr, k->attr) && !strcmp(e->shapes.v[i].canon, canon))
            s = &e->shapes.v[i];
    const char *text = shape_text(b->a, b->a, segs);
    if (!s) {
        MShape ns = {
            .attr = arena_strdup(ma, k->attr),
            .role = k->role,
            .text = arena_strdup(ma, text),
            .canon = arena_strdup(ma, canon),
            .first = site_of(b, it->file->path, k->span),
            .when = model_when_text(ma, k->when),
        };
        VEC_PUSH(ma, &e->shapes, ns);
        s = &e->shapes.v[e->shapes.n - 1];
    } else if (written && !s->written) {
        s->first = site_of(b, it->file->path, k->span); /* where it is written first */
    }
    if (!k->when) /* some key of the shape is written on every item */
        s->when = NULL;
    s->fallback |= fallback;
    count_text(b, ei, k, s->canon, text, written);
    s->written |= written;
    s->uses++;
    for (size_t i = 0; i < rules.n; i++) {
        if (!strlist_has(&s->rules, rules.v[i]))
            strlist_push(ma, &s->rules, rules.v[i]);
        if (!strlist_has(&e->rules, rules.v[i]))
            strlist_push(ma, &e->rules, rules.v[i]);
    }
}

/* The shapes of key `ki`: its own, and one per value that falls back to a
 * text (`AUDIT#${tenantId || 'SYSTEM'}` is also AUDIT#SYSTEM). */
static void add_shape(Builder *b, size_t ei, const Item *it, size_t ki)
{
    const KeyExpr *k = b->keys.v[ki];
    add_shape_of(b, ei, it, k, &k->segs, &b->flat.v[ki], false);
    for (size_t i = 0; i < k->segs.n; i++) {
        if (!k->segs.v[i].fallback || k->segs.v[i].kind == SEG_TEXT)
            continue;
        SegList alt = {0};
        for (size_t j = 0; j < k->segs.n; j++)
            seglist_push(b->a, &alt, k->segs.v[j]);
        alt.v[i].kind = SEG_TEXT;
        alt.v[i].text = alt.v[i].fallback;
        alt.v[i].fallback = NULL;
        alt.v[i].args = NULL;
        alt.v[i].nargs = 0;
        KfKey flat;
        kf_flatten(b->a, &alt, &flat);
        add_shape_of(b, ei, it, k, &alt, &flat, true);
    }
}

static void add_item(Builder *b, const Item *it, size_t table)
{
    size_t ei = entity_get(b, table, it->name ? it->name : "(no prefix)") - b->m->entities.v;
    for (size_t i = it->first; i < it->first + it->n; i++)
        add_shape(b, ei, it, i);
    MEntity *e = &b->m->entities.v[ei];
    add_site(b->m->arena, it->write ? &e->writes : &e->reads, it->site);
}

/* "X in Y" for an item named by its sort key X in a partition of Y when
 * other items are X by their own partition key (TENANT#{t}#ORG#{o} /
 * USER#{u} beside TENANT#{t}#USER#{u} / DETAILS: a USER in ORG), or when
 * items named X by their sort key sit in partitions of several kinds
 * (BATTLE#{b} / HISTORY#{t} and DEPLOYMENT#{d} / HISTORY#{t}: two
 * entities, HISTORY in BATTLE and HISTORY in DEPLOYMENT). */
static void name_edges(Builder *b)
{
    NameMap own = {0};     /* names given by a partition key */
    NameMap first = {0};   /* a name given by a sort key: its first item */
    NameMap several = {0}; /* ... and names given in partitions of several kinds */
    for (size_t i = 0; i < b->items.n; i++) {
        const Item *it = &b->items.v[i];
        size_t f;
        if (it->name && !it->by_sk)
            namemap_put(b->a, &own, it->name, 0);
        else if (it->name && it->partition && !namemap_get(&first, it->name, &f))
            namemap_put(b->a, &first, it->name, i);
        else if (it->name && it->partition && strcmp(b->items.v[f].partition, it->partition))
            namemap_put(b->a, &several, it->name, 0);
    }
    for (size_t i = 0; i < b->items.n; i++) {
        Item *it = &b->items.v[i];
        size_t x;
        if (it->by_sk && it->partition && strcmp(it->partition, it->name) &&
            (namemap_get(&own, it->name, &x) || namemap_get(&several, it->name, &x)))
            it->name = arena_printf(b->a, "%s in %s", it->name, it->partition);
    }
}

/* A table for the items whose table is not known: the only table, else
 * the one table where items of the same name are; the only table for the
 * queries whose table is not known. */
static void place_items(Builder *b)
{
    size_t known = b->m->tables.n;
    NameMap where = {0}; /* name -> table, or known when several */
    for (size_t i = 0; i < b->items.n; i++) {
        const Item *it = &b->items.v[i];
        if (it->table == MODEL_NO_TABLE || !it->name)
            continue;
        size_t t;
        if (!namemap_get(&where, it->name, &t))
            namemap_put(b->a, &where, it->name, it->table);
        else if (t != it->table) /* several: the first value stays, mark it */
            namemap_put(b->a, &where, arena_printf(b->a, "%s\n*", it->name), 0);
    }
    for (size_t i = 0; known == 1 && i < b->m->queries.n; i++)
        if (b->m->queries.v[i].table == MODEL_NO_TABLE)
            b->m->queries.v[i].table = 0;
    for (size_t i = 0; i < b->items.n; i++) {
        Item *it = &b->items.v[i];
        if (it->table != MODEL_NO_TABLE)
            continue;
        size_t t, x;
        if (known == 1)
            it->table = 0;
        else if (it->name && namemap_get(&where, it->name, &t) &&
                 !namemap_get(&where, arena_printf(b->a, "%s\n*", it->name), &x))
            it->table = t;
    }
}

/* ---- queries --------------------------------------------------------------------- */

/* A shape that starts with a value ("{}#..."): it may hold any prefix. */
static bool starts_with_value(const char *canon)
{
    return !strncmp(canon, "{}", 2);
}

/* Mark each entity's literal ids of its written shapes (MShape.example). */
static void mark_examples(DesignModel *m)
{
    for (size_t e = 0; e < m->entities.n; e++) {
        MEntity *en = &m->entities.v[e];
        for (size_t i = 0; i < en->shapes.n; i++) {
            MShape *s = &en->shapes.v[i];
            for (size_t j = 0; j < en->shapes.n && !s->example && !s->fallback; j++) {
                const MShape *t = &en->shapes.v[j];
                s->example = j != i && t->written && !strcmp(t->attr, s->attr) &&
                             model_literal_of(s->canon, t->canon);
            }
        }
    }
}

/* Whether entity `e` writes attribute `attr` with a shape that `c` can
 * match (shape_matches); a written shape that starts with a value answers
 * only a condition that does too: the entity's own prefix is not known.
 * A constant written (`ORG_STATUS#PENDING`) answers a condition with
 * values (`ORG_STATUS#{status}`) from level MATCH_CONSTANTS on: when no
 * shape with values does. At MATCH_LOOSE (for sort-key conditions only: a
 * partition key that is one value names no kind of item), a shape that is
 * one value and nothing else (`SK: executiveBriefId`, built elsewhere)
 * answers every condition, as a write whose value could be anything
 * matches every query for unmatched-query.
 * *has_attr: it writes the attribute at all. */
enum { MATCH_SHAPES, MATCH_CONSTANTS, MATCH_LOOSE };
static bool entity_answers(const MEntity *e, const char *attr, const MCond *c, int level,
                           bool *has_attr)
{
    *has_attr = false;
    for (size_t i = 0; i < e->shapes.n; i++) {
        const MShape *s = &e->shapes.v[i];
        if (!s->written || strcmp(s->attr, attr))
            continue;
        *has_attr = true;
        if (!c || !c->canon || (c->op != COND_EQ && c->op != COND_BEGINS_WITH))
            return true;
        if (level >= MATCH_LOOSE && !strcmp(s->canon, "{}"))
            return true;
        if (level < MATCH_CONSTANTS && !strstr(s->canon, "{}") && strstr(c->canon, "{}"))
            continue;
        if (starts_with_value(s->canon) && !starts_with_value(c->canon))
            continue;
        if (model_shape_matches(c->canon, s->canon, c->op == COND_BEGINS_WITH))
            return true;
    }
    return false;
}

/* The partition key attribute a query selects on. */
static const MCond *query_pk(const MQuery *q)
{
    return q->conds.n ? &q->conds.v[0] : NULL;
}

static bool query_returns(const DesignModel *m, const MQuery *q, const MEntity *e, int level)
{
    const MTable *t = m->tables.v[q->table].known ? &m->tables.v[q->table] : NULL;
    if (t && e->table != q->table && m->tables.v[e->table].known)
        return false;
    const char *ipk = NULL;
    if (t && q->index) {
        for (size_t i = 0; i < t->indexes.n; i++)
            if (!strcmp(t->indexes.v[i].name, q->index))
                ipk = t->indexes.v[i].pk;
    }
    bool has;
    if (q->kind == OP_SCAN) {
        if (!ipk)
            return true;
        return entity_answers(e, ipk, NULL, MATCH_SHAPES, &has);
    }
    const MCond *pk = query_pk(q);
    if (!pk)
        return false;
    if (ipk && strcmp(ipk, pk->attr) && !entity_answers(e, ipk, NULL, MATCH_SHAPES, &has))
        return false;
    if (!entity_answers(e, pk->attr, pk, level > MATCH_CONSTANTS ? MATCH_CONSTANTS : level, &has))
        return false;
    for (size_t i = 1; i < q->conds.n; i++) {
        const MCond *c = &q->conds.v[i];
        if (!entity_answers(e, c->attr, c, level, &has) && has)
            return false;
    }
    return true;
}

/* The functions a project's code calls with a key condition and its
 * values (API_SDK_PART, `queryItems(TABLE(), 'PK = :pk', {...})`): its
 * own data-access wrappers, by last name. */
static void collect_wrappers(Builder *b, NameMap *out)
{
    for (size_t i = 0; i < b->p->files.n; i++) {
        const FileIR *f = b->p->files.v[i].removed ? NULL : b->p->files.v[i].ir;
        for (size_t o = 0; f && o < f->ops.n; o++)
            if (f->ops.v[o].api == API_SDK_PART && f->ops.v[o].callee)
                namemap_put(b->a, out, kf_last_component(b->a, f->ops.v[o].callee), 0);
    }
}

/* A query of a wrapper whose callers are read (collect_wrappers) with the
 * key condition they pass: its callers are the access patterns. */
static bool wrapper_query(Builder *b, const NameMap *wrappers, const DataOp *op, size_t nconds)
{
    size_t k;
    return !nconds && op->api != API_SDK_PART && op->function &&
           namemap_get(wrappers, kf_last_component(b->a, op->function), &k);
}

static void collect_queries(Builder *b, const SourceFile *sf, const NameMap *wrappers)
{
    const FileIR *f = sf->ir;
    const TableModel *tm = model_of(b->p, sf->config);
    Arena *ma = b->m->arena;
    KfOpKeys keys;
    bool have_keys = false;
    for (size_t o = 0; o < f->ops.n; o++) {
        const DataOp *op = &f->ops.v[o];
        if (op->kind != OP_QUERY && op->kind != OP_SCAN)
            continue;
        if (!have_keys) {
            kf_op_keys(b->a, f, &keys);
            have_keys = true;
        }
        OpTarget t;
        access_target(b->a, b->p->access, tm, sf->config, f, o, &t);
        MQuery q = {
            .kind = op->kind,
            .table = t.table ? table_of(b, t.table) : MODEL_NO_TABLE,
            .site = site_of(b, f->path, op->span),
            .function = op->function ? arena_strdup(ma, op->function) : NULL,
        };
        if (t.has_index)
            q.index = arena_strdup(ma, t.index ? t.index : op->index ? op->index : "?");
        if (op->kind == OP_QUERY) {
            OpCond *conds;
            bool complete;
            size_t n = access_conditions(b->a, f, &keys, o, &conds, &complete);
            const char *pkname = t.pk && t.pk->name ? t.pk->name : NULL;
            /* the partition key first: the target's, else by role */
            size_t first = n;
            for (size_t i = 0; i < n && first == n; i++)
                if (pkname ? !strcmp(conds[i].attr, pkname)
                           : conds[i].key && (conds[i].key->role == ROLE_PK ||
                                              conds[i].key->role == ROLE_INDEX_PK))
                    first = i;
            if (first == n)
                first = 0;
            for (size_t j = 0; j < n; j++) {
                size_t i = j == 0 ? first : j <= first ? j - 1 : j;
                const OpCond *c = &conds[i];
                MCond mc = {.attr = arena_strdup(ma, c->attr), .op = c->op};
                if (c->key) {
                    KfKey kk;
                    kf_flatten(b->a, &c->key->segs, &kk);
                    mc.text = shape_text(ma, b->a, &c->key->segs);
                    mc.canon = arena_strdup(ma, kf_shape(b->a, &kk));
                }
                VEC_PUSH(ma, &q.conds, mc);
            }
            if (wrapper_query(b, wrappers, op, n))
                continue;
        }
        findings_in(b, f->path, op->span, &q.rules);
        q.unmatched = strlist_has(&q.rules, "unmatched-query");
        VEC_PUSH(ma, &b->m->queries, q);
    }
}

/* Which entities each query can return; an entity whose table is not
 * known and that only the queries of one table return moves there. */
static void match_queries(Builder *b)
{
    DesignModel *m = b->m;
    size_t ne = m->entities.n;
    const size_t none = MODEL_NO_TABLE - 1; /* no query of a known table yet */
    size_t *only = arena_alloc(b->a, (ne + 1) * sizeof *only);
    for (size_t i = 0; i < ne; i++)
        only[i] = none;
    for (size_t qi = 0; qi < m->queries.n; qi++) {
        MQuery *q = &m->queries.v[qi];
        /* the entities whose shapes match; when none does, those that
         * write constants its values can be; else those of the partition
         * that write a sort key that could be anything */
        int level = MATCH_SHAPES;
        for (bool hit = false; !hit && level < MATCH_LOOSE; level += !hit)
            for (size_t i = 0; i < ne && !hit; i++)
                hit = query_returns(m, q, &m->entities.v[i], level);
        for (size_t i = 0; i < ne; i++) {
            MEntity *e = &m->entities.v[i];
            if (!query_returns(m, q, e, level))
                continue;
            strlist_push(m->arena, &q->entities, e->name);
            add_site(m->arena, &e->reads, q->site);
            if (!m->tables.v[e->table].known && m->tables.v[q->table].known)
                only[i] = only[i] == none || only[i] == q->table ? q->table : MODEL_NO_TABLE;
        }
        sort_strs(&q->entities);
    }
    for (size_t i = 0; i < ne; i++)
        if (!m->tables.v[m->entities.v[i].table].known && only[i] < m->tables.n)
            m->entities.v[i].table = only[i];
}

/* ---- order ------------------------------------------------------------------------- */

static int site_cmp(const void *x, const void *y)
{
    const MSite *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : a->line < b->line ? -1 : a->line > b->line;
}

static int entity_cmp(const void *x, const void *y)
{
    const MEntity *a = x, *b = y;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Queries sorted with their key condition as one text. */
typedef struct QueryKey {
    const char *conds;
    MQuery q;
} QueryKey;

static int query_cmp(const void *x, const void *y)
{
    const QueryKey *ka = x, *kb = y;
    const MQuery *a = &ka->q, *b = &kb->q;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    int c = strcmp(a->index ? a->index : "", b->index ? b->index : "");
    if (c)
        return c;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    c = strcmp(ka->conds, kb->conds);
    return c ? c : site_cmp(&a->site, &b->site);
}

static void sort_queries(DesignModel *m, Arena *a)
{
    size_t n = m->queries.n;
    if (n < 2)
        return;
    QueryKey *k = arena_alloc(a, n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        const MQuery *q = &m->queries.v[i];
        StrBuf s;
        sb_init(&s, a);
        for (size_t c = 0; c < q->conds.n; c++)
            sb_printf(&s, "%s %d %s\n", q->conds.v[c].attr, (int)q->conds.v[c].op,
                      q->conds.v[c].canon ? q->conds.v[c].canon : "");
        k[i] = (QueryKey){sb_str(&s), *q};
    }
    qsort(k, n, sizeof *k, query_cmp);
    for (size_t i = 0; i < n; i++)
        m->queries.v[i] = k[i].q;
}

static int role_rank(KeyRole r)
{
    return r == ROLE_PK ? 0 : r == ROLE_SK ? 1 : r == ROLE_INDEX_PK ? 2 : r == ROLE_INDEX_SK ? 3 : 4;
}

/* The key attributes of a table's entities that are not its keys, added
 * to its columns: by role, then name. */
static void extra_attrs(DesignModel *m, Arena *a)
{
    for (size_t t = 0; t < m->tables.n; t++) {
        MTable *mt = &m->tables.v[t];
        VEC(const MShape *) extra = {0};
        for (size_t i = 0; i < m->entities.n; i++) {
            if (m->entities.v[i].table != t)
                continue;
            for (size_t s = 0; s < m->entities.v[i].shapes.n; s++) {
                const MShape *sh = &m->entities.v[i].shapes.v[s];
                bool dup = strlist_has(&mt->attrs, sh->attr);
                for (size_t k = 0; k < extra.n && !dup; k++)
                    dup = !strcmp(extra.v[k]->attr, sh->attr);
                if (!dup)
                    VEC_PUSH(a, &extra, sh);
            }
        }
        /* insertion sort: few */
        for (size_t i = 1; i < extra.n; i++) {
            for (size_t j = i; j > 0; j--) {
                const MShape *p = extra.v[j - 1], *q = extra.v[j];
                int c = role_rank(p->role) - role_rank(q->role);
                if (c < 0 || (c == 0 && strcmp(p->attr, q->attr) <= 0))
                    break;
                extra.v[j - 1] = q;
                extra.v[j] = p;
            }
        }
        for (size_t i = 0; i < extra.n; i++)
            add_attr(m, mt, extra.v[i]->attr, extra.v[i]->role, ATTR_S);
    }
}

/* Shapes sorted by their attribute's column, written ones first, then by
 * shape. */
typedef struct ShapeKey {
    size_t rank;
    MShape s;
} ShapeKey;

static int shape_cmp(const void *x, const void *y)
{
    const ShapeKey *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    int c = strcmp(a->s.attr, b->s.attr);
    if (c)
        return c;
    if (a->s.written != b->s.written)
        return a->s.written ? -1 : 1;
    return strcmp(a->s.canon, b->s.canon);
}

static void sort_shapes(MEntity *e, const MTable *t, Arena *a)
{
    size_t n = e->shapes.n;
    if (n < 2)
        return;
    ShapeKey *k = arena_alloc(a, n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        size_t r = t->attrs.n;
        for (size_t j = 0; j < t->attrs.n && r == t->attrs.n; j++)
            if (!strcmp(t->attrs.v[j], e->shapes.v[i].attr))
                r = j;
        k[i] = (ShapeKey){r, e->shapes.v[i]};
    }
    qsort(k, n, sizeof *k, shape_cmp);
    for (size_t i = 0; i < n; i++)
        e->shapes.v[i] = k[i].s;
}

/* The table of the entities and queries whose table is not known, last,
 * when there are any. */
static void add_unknown_table(DesignModel *m)
{
    bool unknown = false;
    for (size_t i = 0; i < m->entities.n; i++)
        unknown |= m->entities.v[i].table == MODEL_NO_TABLE;
    for (size_t i = 0; i < m->queries.n; i++)
        unknown |= m->queries.v[i].table == MODEL_NO_TABLE;
    if (!unknown)
        return;
    MTable u = {.label = "(table not known)"};
    size_t ui = m->tables.n;
    VEC_PUSH(m->arena, &m->tables, u);
    for (size_t i = 0; i < m->entities.n; i++)
        if (m->entities.v[i].table == MODEL_NO_TABLE)
            m->entities.v[i].table = ui;
    for (size_t i = 0; i < m->queries.n; i++)
        if (m->queries.v[i].table == MODEL_NO_TABLE)
            m->queries.v[i].table = ui;
}

/* Entities of one name on one table (moved there by their queries) made
 * one; the table of unknown entities dropped when nothing is left on it. */
static void merge_entities(DesignModel *m)
{
    for (size_t i = 0; i < m->entities.n; i++) {
        for (size_t j = i + 1; j < m->entities.n; j++) {
            MEntity *x = &m->entities.v[i], *y = &m->entities.v[j];
            if (x->table != y->table || strcmp(x->name, y->name))
                continue;
            for (size_t s = 0; s < y->shapes.n; s++) {
                const MShape *ys = &y->shapes.v[s];
                MShape *xs = NULL;
                for (size_t k = 0; k < x->shapes.n && !xs; k++)
                    if (!strcmp(x->shapes.v[k].attr, ys->attr) &&
                        !strcmp(x->shapes.v[k].canon, ys->canon))
                        xs = &x->shapes.v[k];
                if (!xs) {
                    VEC_PUSH(m->arena, &x->shapes, *ys);
                    continue;
                }
                xs->written |= ys->written;
                xs->uses += ys->uses;
                for (size_t r = 0; r < ys->rules.n; r++)
                    if (!strlist_has(&xs->rules, ys->rules.v[r]))
                        strlist_push(m->arena, &xs->rules, ys->rules.v[r]);
            }
            for (size_t s = 0; s < y->writes.n; s++)
                add_site(m->arena, &x->writes, y->writes.v[s]);
            for (size_t s = 0; s < y->reads.n; s++)
                add_site(m->arena, &x->reads, y->reads.v[s]);
            for (size_t s = 0; s < y->rules.n; s++)
                if (!strlist_has(&x->rules, y->rules.v[s]))
                    strlist_push(m->arena, &x->rules, y->rules.v[s]);
            m->entities.v[j] = m->entities.v[--m->entities.n];
            j--;
        }
    }
    size_t last = m->tables.n;
    if (!last || m->tables.v[last - 1].known)
        return;
    for (size_t i = 0; i < m->entities.n; i++)
        if (m->entities.v[i].table == last - 1)
            return;
    for (size_t i = 0; i < m->queries.n; i++)
        if (m->queries.v[i].table == last - 1)
            return;
    m->tables.n--;
}

static void finish_order(DesignModel *m, Arena *a)
{
    extra_attrs(m, a);
    for (size_t i = 0; i < m->entities.n; i++) {
        MEntity *e = &m->entities.v[i];
        sort_shapes(e, &m->tables.v[e->table], a);
        for (size_t s = 0; s < e->shapes.n; s++)
            sort_strs(&e->shapes.v[s].rules);
        sort_strs(&e->rules);
        if (e->writes.n > 1)
            qsort(e->writes.v, e->writes.n, sizeof *e->writes.v, site_cmp);
        if (e->reads.n > 1)
            qsort(e->reads.v, e->reads.n, sizeof *e->reads.v, site_cmp);
    }
    if (m->entities.n > 1)
        qsort(m->entities.v, m->entities.n, sizeof *m->entities.v, entity_cmp);
    if (m->opaque.n > 1)
        qsort(m->opaque.v, m->opaque.n, sizeof *m->opaque.v, site_cmp);
    for (size_t i = 0; i < m->queries.n; i++)
        sort_strs(&m->queries.v[i].rules);
    sort_queries(m, a);
}

DesignModel *model_build(const Project *p)
{
    DesignModel *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->arena = arena_new();
    Builder b = {.p = p, .m = m, .a = arena_new()};
    collect_tables(&b);
    index_findings(&b);
    NameMap wrappers = {0};
    collect_wrappers(&b, &wrappers);
    for (size_t i = 0; i < p->files.n; i++) {
        const SourceFile *sf = &p->files.v[i];
        if (sf->removed || (!sf->ir && !sf->deferred))
            continue;
        m->files++;
        if (!sf->ir || sf->ir->parse_failed || model_test_file(sf->ir->path))
            continue;
        collect_items(&b, sf);
        collect_queries(&b, sf, &wrappers);
    }
    name_items(&b);
    name_edges(&b);
    place_items(&b);
    for (size_t i = 0; i < b.items.n; i++)
        add_item(&b, &b.items.v[i], b.items.v[i].table);
    choose_texts(&b);
    add_unknown_table(m);
    match_queries(&b);
    merge_entities(m);
    mark_examples(m);
    model_fold_literals(m);
    finish_order(m, b.a);
    arena_free(b.a);
    return m;
}

void model_free(DesignModel *m)
{
    if (!m)
        return;
    arena_free(m->arena);
    free(m);
}
