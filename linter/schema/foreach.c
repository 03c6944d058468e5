/* Fn::ForEach (AWS::LanguageExtensions): see foreach.h.
 *
 *   Fn::ForEach::Tables:
 *     - Name                      # the identifier
 *     - [Orders, Users]           # the collection
 *     - Table${Name}:             # output key -> the resource
 *         Type: AWS::DynamoDB::Table
 *         Properties: { TableName: !Sub "${Name}-table", ... }
 *
 * Loops are expanded with a work queue and each resource is copied with an
 * explicit stack: nothing recurses over the input. The copies are bounded
 * (MAX_COPIED nodes per template): past it, the loops left are unread. */
#include "foreach.h"

#include <ctype.h>
#include <string.h>

enum {
    MAX_LOOP_DEPTH = 5,      /* CloudFormation's own limit on nested loops */
    MAX_COPIED = 200000,     /* nodes copied per Resources mapping */
};

static const char PREFIX[] = "Fn::ForEach::";

static bool is_loop_key(const char *k)
{
    return k && !strncmp(k, PREFIX, sizeof PREFIX - 1);
}

/* `&{Id}` takes the value without its non-alphanumeric characters. */
static const char *alnum_only(Arena *a, const char *v)
{
    size_t n = strlen(v), o = 0;
    char *s = arena_alloc(a, n + 1);
    for (size_t i = 0; i < n; i++)
        if (isalnum((unsigned char)v[i]))
            s[o++] = v[i];
    s[o] = '\0';
    return s;
}

/* `text` with `${id}` and `&{id}` replaced; `text` itself when it has
 * neither. */
static const char *subst(Arena *a, const char *text, const char *id, const char *value,
                         const char *alnum)
{
    if (!text || !strchr(text, '{'))
        return text;
    size_t il = strlen(id);
    StrBuf out;
    sb_init(&out, a);
    bool changed = false;
    for (const char *p = text; *p;) {
        if ((p[0] == '$' || p[0] == '&') && p[1] == '{' && !strncmp(p + 2, id, il) &&
            p[2 + il] == '}') {
            sb_append(&out, p[0] == '$' ? value : alnum);
            p += il + 3;
            changed = true;
        } else {
            sb_appendn(&out, p, 1);
            p++;
        }
    }
    return changed ? sb_str(&out) : text;
}

/* `!Ref id` or `{ Ref: id }`. */
static bool ref_to(const DocNode *n, const char *id)
{
    if (n->tag && !strcmp(n->tag, "Ref") && n->kind == DOC_SCALAR)
        return n->text && !strcmp(n->text, id);
    return n->kind == DOC_MAP && !n->tag && n->n == 1 && n->keys[0]->text &&
           !strcmp(n->keys[0]->text, "Ref") && n->vals[0]->kind == DOC_SCALAR &&
           !n->vals[0]->tag && n->vals[0]->text && !strcmp(n->vals[0]->text, id);
}

typedef struct Copy {
    Arena *a;
    const char *id, *value, *alnum;
    size_t budget;
} Copy;

/* One node, its children still pointing at the originals. */
static DocNode *shallow(Copy *c, const DocNode *n)
{
    DocNode *d = arena_alloc(c->a, sizeof *d);
    if (ref_to(n, c->id)) {
        d->kind = DOC_SCALAR;
        d->text = c->value;
        d->span = n->span;
        return d;
    }
    *d = *n;
    d->index = NULL; /* keys may change: doc_get scans */
    if (n->kind == DOC_SCALAR)
        d->text = subst(c->a, n->text, c->id, c->value, c->alnum);
    if (n->n) {
        d->vals = arena_alloc(c->a, n->n * sizeof *d->vals);
        memcpy(d->vals, n->vals, n->n * sizeof *d->vals);
        if (n->keys) {
            d->keys = arena_alloc(c->a, n->n * sizeof *d->keys);
            for (size_t i = 0; i < n->n; i++) {
                DocNode *k = arena_alloc(c->a, sizeof *k);
                *k = *n->keys[i];
                k->text = subst(c->a, k->text, c->id, c->value, c->alnum);
                d->keys[i] = k;
            }
        }
    }
    return d;
}

/* A copy of the tree under `n` with the identifier replaced; NULL when the
 * budget ran out. */
static DocNode *copy_tree(Copy *c, const DocNode *n)
{
    if (!c->budget)
        return NULL;
    c->budget--;
    DocNode *root = shallow(c, n);
    VEC(DocNode *) todo = {0};
    VEC_PUSH(c->a, &todo, root);
    while (todo.n) {
        DocNode *d = todo.v[--todo.n];
        if (d->kind != DOC_MAP && d->kind != DOC_SEQ)
            continue;
        for (size_t i = 0; i < d->n; i++) {
            if (!c->budget)
                return NULL;
            c->budget--;
            d->vals[i] = shallow(c, d->vals[i]);
            VEC_PUSH(c->a, &todo, d->vals[i]);
        }
    }
    return root;
}

typedef struct Entry {
    DocNode *key, *val;
    int depth; /* the loops it is in */
} Entry;

static void unread_all(Arena *a, const char *loop, const DocNode *frag, const char *why,
                       ForEachUnreads *unread)
{
    if (!frag || frag->kind != DOC_MAP)
        return;
    for (size_t i = 0; i < frag->n; i++) {
        ForEachUnread u = {.loop = loop, .key = frag->keys[i], .value = frag->vals[i],
                           .why = why};
        VEC_PUSH(a, unread, u);
    }
}

/* Whether a collection is a literal list of strings. */
static bool literal_list(const DocNode *coll)
{
    if (!coll || coll->kind != DOC_SEQ || coll->tag)
        return false;
    for (size_t i = 0; i < coll->n; i++)
        if (coll->vals[i]->kind != DOC_SCALAR || coll->vals[i]->tag)
            return false;
    return true;
}

const DocNode *foreach_expand(Arena *a, const DocNode *resources, ForEachUnreads *unread)
{
    if (!resources || resources->kind != DOC_MAP)
        return resources;
    bool any = false;
    for (size_t i = 0; i < resources->n && !any; i++)
        any = is_loop_key(resources->keys[i]->text);
    if (!any)
        return resources;
    VEC(Entry) queue = {0};
    for (size_t i = 0; i < resources->n; i++) {
        Entry e = {resources->keys[i], resources->vals[i], 0};
        VEC_PUSH(a, &queue, e);
    }
    VEC(Entry) out = {0};
    Copy c = {.a = a, .budget = MAX_COPIED};
    for (size_t q = 0; q < queue.n; q++) {
        Entry e = queue.v[q];
        if (!is_loop_key(e.key->text)) {
            VEC_PUSH(a, &out, e);
            continue;
        }
        const char *loop = e.key->text;
        const DocNode *v = e.val;
        const DocNode *frag = v->kind == DOC_SEQ && v->n == 3 ? v->vals[2] : NULL;
        const char *id = v->kind == DOC_SEQ && v->n == 3 ? doc_scalar(v->vals[0]) : NULL;
        if (!frag || frag->kind != DOC_MAP || !id) {
            unread_all(a, loop, frag, "it is not [identifier, collection, outputs]", unread);
            continue;
        }
        if (e.depth >= MAX_LOOP_DEPTH) {
            unread_all(a, loop, frag, "the loops nest deeper than five", unread);
            continue;
        }
        if (!literal_list(v->vals[1])) {
            unread_all(a, loop, frag, "its collection is not a literal list", unread);
            continue;
        }
        const DocNode *coll = v->vals[1];
        for (size_t i = 0; i < coll->n; i++) {
            c.id = id;
            c.value = coll->vals[i]->text;
            c.alnum = alnum_only(a, c.value);
            for (size_t j = 0; j < frag->n; j++) {
                DocNode *k = arena_alloc(a, sizeof *k);
                *k = *frag->keys[j];
                k->text = subst(a, k->text, c.id, c.value, c.alnum);
                DocNode *val = copy_tree(&c, frag->vals[j]);
                if (!val) {
                    unread_all(a, loop, frag, "its expansion is too large", unread);
                    goto next_loop;
                }
                Entry made = {k, val, e.depth + 1};
                VEC_PUSH(a, &queue, made);
            }
        }
    next_loop:;
    }
    DocNode *m = arena_alloc(a, sizeof *m);
    *m = *resources;
    m->index = NULL;
    m->n = out.n;
    m->keys = arena_alloc(a, (out.n ? out.n : 1) * sizeof *m->keys);
    m->vals = arena_alloc(a, (out.n ? out.n : 1) * sizeof *m->vals);
    for (size_t i = 0; i < out.n; i++) {
        m->keys[i] = out.v[i].key;
        m->vals[i] = out.v[i].val;
    }
    return m;
}
