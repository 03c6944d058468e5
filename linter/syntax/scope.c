/* Where names are bound in one file (scope.h).
 *
 * Built in one preorder pass over the syntax index: a stack of the open
 * scopes gives each node its nearest enclosing scope, and every scope's
 * own statements (or parameters) are read once. A binding is recorded
 * under (scope, kind, name); the records of one key are kept in source
 * order, so the last one before a use is found by binary search. A
 * lookup goes up the scopes that enclose the use, or through the scopes
 * that bind the name, whichever are fewer. */
#include "scope.h"

#include <string.h>

enum { NONE = UINT32_MAX };

typedef enum ScopeKind { SC_NONE, SC_BLOCK, SC_PROGRAM, SC_FUNCTION } ScopeKind;
typedef enum BindKind { B_DECL, B_ASSIGN, B_PARAM, B_PATTERN } BindKind;

typedef struct Bind {
    uint32_t at;    /* start of the statement holding it */
    uint32_t group; /* its key's group */
    SynNode value, decl;
} Bind;

/* The bindings of one (scope, kind, name): order[first, first + n). */
typedef struct Group {
    const char *name;
    uint32_t scope;
    BindKind kind;
    uint32_t first, n;
} Group;

typedef VEC(uint32_t) ScopeList;

struct Scopes {
    const SynTree *t;
    Arena *a;
    uint8_t *kind; /* per node: ScopeKind */
    uint32_t *up;  /* per node: its nearest enclosing scope, NONE */
    VEC(Bind) binds;
    VEC(Group) groups;
    uint32_t *order; /* bind indices grouped by group, in source order */
    uint32_t *slots; /* group index + 1 by key, open addressing */
    size_t cap;
    uint32_t *depth; /* per node: how many scopes enclose it */
    NameMap named;   /* name -> index in scopes_of */
    VEC(ScopeList) scopes_of; /* the scopes binding each name, in order */
};

static ScopeKind scope_kind(const char *ty)
{
    if (syn_type_is(ty, "program"))
        return SC_PROGRAM;
    if (syn_type_is(ty, "statement_block") || syn_type_is(ty, "switch_case") ||
        syn_type_is(ty, "switch_default"))
        return SC_BLOCK;
    return syn_is_function_type(ty) ? SC_FUNCTION : SC_NONE;
}

static uint64_t key_hash(uint64_t name_hash, uint32_t scope, unsigned kind)
{
    uint64_t h = name_hash ^ ((uint64_t)scope * 0x9E3779B97F4A7C15u) ^ ((uint64_t)kind << 59);
    return h ^ (h >> 31);
}

static uint64_t name_hash(const char *name)
{
    return hash_bytes(name, strlen(name));
}

/* The slot of key (scope, kind, name): its group, or the empty slot. */
static uint32_t *slot_of(const Scopes *s, const char *name, uint64_t nh, uint32_t scope,
                         BindKind kind)
{
    size_t i = (size_t)key_hash(nh, scope, kind) & (s->cap - 1);
    for (;;) {
        uint32_t g = s->slots[i];
        if (!g)
            return &s->slots[i];
        const Group *gr = &s->groups.v[g - 1];
        if (gr->scope == scope && gr->kind == kind && !strcmp(gr->name, name))
            return &s->slots[i];
        i = (i + 1) & (s->cap - 1);
    }
}

static void grow_slots(Scopes *s, Arena *a)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    uint32_t *old = s->slots;
    size_t oldcap = s->cap;
    s->slots = arena_alloc(a, cap * sizeof *s->slots);
    s->cap = cap;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i])
            continue;
        const Group *g = &s->groups.v[old[i] - 1];
        *slot_of(s, g->name, name_hash(g->name), g->scope, g->kind) = old[i];
    }
}

static void add_bind_named(Scopes *s, Arena *a, uint32_t scope, BindKind kind,
                           const char *name, uint32_t at, SynNode value, SynNode decl);

static void add_bind(Scopes *s, Arena *a, uint32_t scope, BindKind kind, SynNode name_node,
                     uint32_t at, SynNode value, SynNode decl)
{
    SynNode nm = syn_unwrap(s->t, name_node);
    if (syn_is(nm, "identifier"))
        add_bind_named(s, a, scope, kind, syn_text(s->t, nm), at, value, decl);
}

static void add_bind_named(Scopes *s, Arena *a, uint32_t scope, BindKind kind,
                           const char *name, uint32_t at, SynNode value, SynNode decl)
{
    if ((s->groups.n + 1) * 2 > s->cap)
        grow_slots(s, a);
    uint32_t *slot = slot_of(s, name, name_hash(name), scope, kind);
    if (!*slot) {
        Group g = {.name = name, .scope = scope, .kind = kind};
        VEC_PUSH(a, &s->groups, g);
        *slot = (uint32_t)s->groups.n;
        size_t l;
        if (!namemap_get(&s->named, name, &l)) {
            l = s->scopes_of.n;
            namemap_put(a, &s->named, name, l);
            VEC_PUSH(a, &s->scopes_of, (ScopeList){0});
        }
        ScopeList *sl = &s->scopes_of.v[l];
        if (!sl->n || sl->v[sl->n - 1] != scope)
            VEC_PUSH(a, sl, scope);
    }
    s->groups.v[*slot - 1].n++;
    Bind b = {.at = at, .group = *slot - 1, .value = value, .decl = decl};
    VEC_PUSH(a, &s->binds, b);
}

/* The names an object pattern declares at its top (`const { pk, sk: s }
 * = ...`: pk and s), each bound to the whole initializer. */
static void pattern_binds(Scopes *s, Arena *a, uint32_t scope, SynNode d, uint32_t at)
{
    const SynTree *t = s->t;
    SynNode pat = syn_field(t, d, "name"), value = syn_field(t, d, "value");
    if (!syn_is(pat, "object_pattern") || syn_null(value))
        return;
    uint32_t cnt = syn_count(t, pat);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(t, pat, i);
        if (syn_is(p, "shorthand_property_identifier_pattern"))
            add_bind_named(s, a, scope, B_PATTERN, syn_text(t, p), at, value, d);
        else if (syn_is(p, "pair_pattern"))
            add_bind(s, a, scope, B_PATTERN, syn_field(t, p, "value"), at, value, d);
    }
}

/* The declarations and assignments of one statement of a block. */
static void statement(Scopes *s, Arena *a, uint32_t scope, SynNode st)
{
    const SynTree *t = s->t;
    uint32_t at = syn_start(st);
    if (syn_is(st, "export_statement"))
        st = syn_field(t, st, "declaration");
    if (syn_is(st, "lexical_declaration") || syn_is(st, "variable_declaration")) {
        uint32_t cnt = syn_count(t, st);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode d = syn_child(t, st, i);
            if (syn_is(d, "variable_declarator"))
                add_bind(s, a, scope, B_DECL, syn_field(t, d, "name"), at,
                         syn_field(t, d, "value"), d);
            if (syn_is(d, "variable_declarator"))
                pattern_binds(s, a, scope, d, at);
        }
    } else if (syn_is(st, "expression_statement")) {
        SynNode e = syn_child(t, st, 0);
        if (syn_is(e, "assignment_expression"))
            add_bind(s, a, scope, B_ASSIGN, syn_field(t, e, "left"), at,
                     syn_field(t, e, "right"), e);
    }
}

static void parameters(Scopes *s, Arena *a, uint32_t scope, SynNode fn)
{
    const SynTree *t = s->t;
    SynNode none = {0};
    SynNode ps = syn_field(t, fn, "parameters");
    if (syn_null(ps)) { /* x => ... */
        add_bind(s, a, scope, B_PARAM, syn_field(t, fn, "parameter"), 0, none, none);
        return;
    }
    uint32_t cnt = syn_count(t, ps);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(t, ps, i);
        SynNode pat = syn_field(t, p, "pattern");
        if (syn_null(pat))
            pat = p;
        if (syn_is(pat, "assignment_pattern"))
            pat = syn_field(t, pat, "left");
        add_bind(s, a, scope, B_PARAM, pat, 0, none, p);
    }
}

/* Group the records: order[] lists each group's binds in source order. */
static void group_binds(Scopes *s, Arena *a)
{
    uint32_t off = 0;
    for (size_t g = 0; g < s->groups.n; g++) {
        s->groups.v[g].first = off;
        off += s->groups.v[g].n;
        s->groups.v[g].n = 0;
    }
    s->order = arena_alloc(a, (s->binds.n ? s->binds.n : 1) * sizeof *s->order);
    for (size_t i = 0; i < s->binds.n; i++) {
        Group *g = &s->groups.v[s->binds.v[i].group];
        s->order[g->first + g->n++] = (uint32_t)i;
    }
}

Scopes *scopes_build(const SynTree *t, Arena *a)
{
    Scopes *s = arena_alloc(a, sizeof *s);
    s->t = t;
    s->a = a;
    size_t n = syn_node_count(t);
    s->kind = arena_alloc(a, (n ? n : 1) * sizeof *s->kind);
    s->up = arena_alloc(a, (n ? n : 1) * sizeof *s->up);
    s->depth = arena_alloc(a, (n ? n : 1) * sizeof *s->depth);
    VEC(uint32_t) open = {0}; /* enclosing scopes of the current node */
    for (size_t i = 0; i < n; i++) {
        while (open.n && syn_end_of(t, open.v[open.n - 1]) <= i)
            open.n--;
        s->up[i] = open.n ? open.v[open.n - 1] : NONE;
        s->depth[i] = (uint32_t)open.n;
        SynNode node = syn_node_at(t, i);
        ScopeKind k = scope_kind(syn_type_at(t, i));
        s->kind[i] = (uint8_t)k;
        if (k == SC_NONE)
            continue;
        VEC_PUSH(a, &open, (uint32_t)i);
        if (k == SC_FUNCTION) {
            parameters(s, a, (uint32_t)i, node);
            continue;
        }
        uint32_t cnt = syn_count(t, node);
        for (uint32_t j = 0; j < cnt; j++)
            statement(s, a, (uint32_t)i, syn_child(t, node, j));
    }
    group_binds(s, a);
    return s;
}

/* The last bind of (scope, kind, name) whose statement starts before
 * `limit`, or NULL. */
static const Bind *last_before(const Scopes *s, uint32_t scope, BindKind kind,
                               const char *name, uint64_t nh, uint32_t limit)
{
    if (!s->cap)
        return NULL;
    uint32_t g = *slot_of(s, name, nh, scope, kind);
    if (!g)
        return NULL;
    const Group *gr = &s->groups.v[g - 1];
    size_t lo = 0, hi = gr->n; /* answer: the last index < hi with at < limit */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->binds.v[s->order[gr->first + mid]].at < limit)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &s->binds.v[s->order[gr->first + lo - 1]] : NULL;
}

/* The position of `use` in the index, or of its nearest indexed
 * ancestor (*inside: that ancestor is not `use` itself). */
static bool position(const Scopes *s, SynNode use, size_t *pos, bool *inside)
{
    *inside = false;
    for (int i = 0; i < SYN_MAX_UNWRAP && !syn_null(use); i++) {
        if (syn_pos(s->t, use, pos))
            return true;
        use = syn_parent(s->t, use);
        *inside = true;
    }
    return false;
}

/* Look for `name` in scope `sc` among the statements that start before
 * `at`: true when the look ends there (found, or the program). */
static bool look_in(const Scopes *s, uint32_t sc, const char *name, uint64_t nh,
                    unsigned flags, uint32_t at, ScopeHit *hit)
{
    ScopeKind k = (ScopeKind)s->kind[sc];
    if (k == SC_FUNCTION) {
        const Bind *b = last_before(s, sc, B_PARAM, name, nh, UINT32_MAX);
        if (!b)
            return false;
        hit->found = hit->param = true;
        hit->decl = b->decl;
        return true;
    }
    if (k == SC_PROGRAM && !(flags & SCOPE_MODULE))
        return true;
    uint32_t limit = k == SC_PROGRAM && (flags & SCOPE_MODULE_ANYWHERE) ? UINT32_MAX : at;
    const Bind *b = last_before(s, sc, B_DECL, name, nh, limit);
    if (flags & SCOPE_PATTERNS) {
        const Bind *p = last_before(s, sc, B_PATTERN, name, nh, limit);
        if (p && (!b || p->at > b->at))
            b = p;
    }
    if (flags & SCOPE_ASSIGNMENTS) {
        const Bind *as = last_before(s, sc, B_ASSIGN, name, nh, limit);
        /* `name = f(name)`: the use inside reads the value before it */
        if (as && syn_start(as->decl) <= at && at < syn_end(as->decl))
            as = last_before(s, sc, B_ASSIGN, name, nh, as->at);
        if (as && (!b || as->at > b->at))
            b = as;
    }
    if (b) {
        hit->found = true;
        hit->value = b->value;
        hit->decl = b->decl;
        return true;
    }
    return k == SC_PROGRAM;
}

/* Whether scope `sc` is `inner` or encloses it. */
static bool encloses(const Scopes *s, uint32_t sc, uint32_t inner)
{
    return sc == inner || (sc < inner && syn_end_of(s->t, sc) > inner);
}

/* The lookup from the scopes that bind the name (list, in order): those
 * that enclose `sc`, innermost first. */
static ScopeHit look_in_list(const Scopes *s, const ScopeList *list, uint32_t sc,
                             const char *name, uint64_t nh, unsigned flags, uint32_t at)
{
    ScopeHit hit = {0};
    /* enclosing scopes come before sc in preorder: walk back from it */
    size_t lo = 0, hi = list->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list->v[mid] <= sc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0;) {
        if (!encloses(s, list->v[i], sc))
            continue;
        if (look_in(s, list->v[i], name, nh, flags, at, &hit))
            return hit;
    }
    /* the walk would stop at the program without SCOPE_MODULE: so does
     * this, the program being bound or not */
    return hit;
}

ScopeHit scopes_lookup(Scopes *s, SynNode use, const char *name, unsigned flags)
{
    ScopeHit hit = {0};
    size_t pos;
    bool inside;
    if (!name || !position(s, use, &pos, &inside))
        return hit;
    size_t l;
    if (!namemap_get(&s->named, name, &l))
        return hit; /* bound nowhere */
    const ScopeList *list = &s->scopes_of.v[l];
    uint64_t nh = name_hash(name);
    uint32_t at = syn_start(use);
    uint32_t sc = inside && s->kind[pos] != SC_NONE ? (uint32_t)pos : s->up[pos];
    /* the scopes binding the name, or the scopes up from the use: the
     * fewer (functions nested deep, a name bound in many places) */
    if (sc != NONE && list->n < s->depth[sc])
        return look_in_list(s, list, sc, name, nh, flags, at);
    for (; sc != NONE; sc = s->up[sc])
        if (look_in(s, sc, name, nh, flags, at, &hit))
            break;
    return hit;
}
