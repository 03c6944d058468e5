/* Where an object's property gets its value: the literal's own pairs,
 * spreads of other objects (the later wins), and later member assignments
 * to the variable that holds it (`params.Key = {...}`,
 * `values[':sk'] = 'ITEM#'`), read once per file into a table by root
 * variable. Part of extraction (extract.c); ex_find_prop is its entry. */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static bool is_function_node(SynNode n) { return syn_is_function(n); }

/* "params.ExpressionAttributeValues" for `obj.x['y']`-style member paths
 * (string subscripts read as members); NULL for anything else. */
static const char *member_path(Ex *x, SynNode n, int depth)
{
    n = unwrap(n);
    if (depth > 8)
        return NULL;
    if (is(n, "identifier") || is(n, "this"))
        return ex_ntext(x, n);
    if (is(n, "member_expression")) {
        const char *o = member_path(x, field(n, "object"), depth + 1);
        return o ? arena_dot(x->a, o, ex_ntext(x, field(n, "property"))) : NULL;
    }
    if (is(n, "subscript_expression")) {
        const char *o = member_path(x, field(n, "object"), depth + 1);
        const char *k;
        if (o && ex_string_value(x, field(n, "index"), &k))
            return arena_dot(x->a, o, k);
    }
    return NULL;
}

/* The variable path an object literal is stored at: `const params = {
 * Key: {...} }` gives "params" for the outer object and "params.Key" for
 * the inner one. Returns the declarator too (its block is searched). */
static const char *owner_path(Ex *x, SynNode obj, SynNode *decl)
{
    const char *suffix = "";
    SynNode n = obj;
    for (int i = 0; i < 8; i++) {
        SynNode p = ex_parent(x, n);
        if (is(p, "variable_declarator")) {
            *decl = p;
            SynNode name = field(p, "name");
            if (!is(name, "identifier"))
                return NULL;
            return arena_printf(x->a, "%s%s", ex_ntext(x, name), suffix);
        }
        /* `params.ExpressionAttributeValues = {}` as a statement */
        if (is(p, "assignment_expression") && syn_eq(unwrap(field(p, "right")), n) &&
            is(ex_parent(x, p), "expression_statement")) {
            const char *left = member_path(x, field(p, "left"), 0);
            if (!left)
                return NULL;
            *decl = p;
            return arena_printf(x->a, "%s%s", left, suffix);
        }
        if (!is(p, "pair"))
            return NULL;
        const char *k = ex_prop_name(x, p);
        SynNode outer = ex_parent(x, p);
        if (!k || !is(outer, "object"))
            return NULL;
        suffix = arena_printf(x->a, ".%s%s", k, suffix);
        n = outer;
    }
    return NULL;
}

/* An assignment to a member path (`params.Key.sk = v`), as
 * assignments_of reads them: the ones inside another assignment are not
 * read, nor are those in a function nested in the object's block. */
typedef struct MemberAssign {
    uint32_t start;
    bool nested;               /* inside another assignment */
    bool in_fn;                /* inside a function: */
    uint32_t fn_start, fn_end; /* the nearest one */
    const char *left;          /* "params.Key.sk" */
    SynNode right;
} MemberAssign;

typedef VEC(size_t) IndexList;

/* The member assignments of a file, grouped by root variable, each group
 * in source order. */
typedef struct MemberAssigns {
    VEC(MemberAssign) v;
    NameMap groups;         /* root -> index in `lists` */
    VEC(IndexList) lists;   /* indices in v */
} MemberAssigns;

/* One pass over the file: a stack of the enclosing functions and
 * assignments says, for each assignment, its nearest function and
 * whether it is inside another assignment (within that function). */
static MemberAssigns *member_assigns(Ex *x)
{
    if (x->member_assigns)
        return x->member_assigns;
    MemberAssigns *m = arena_alloc(x->a, sizeof *m);
    typedef struct Open {
        size_t end;       /* of its subtree in the index */
        bool fn, in_assign;
        uint32_t fn_start, fn_end; /* the nearest function, if in one */
        bool has_fn;
    } Open;
    VEC(Open) open = {0};
    for (size_t i = 0; i < syn_node_count(x->syn); i++) {
        while (open.n && open.v[open.n - 1].end <= i)
            open.n--;
        SynNode n = syn_node_at(x->syn, i);
        bool fn = is_function_node(n), assign = is(n, "assignment_expression");
        if (!fn && !assign)
            continue;
        Open top = open.n ? open.v[open.n - 1] : (Open){0};
        if (assign) {
            const char *left = member_path(x, field(n, "left"), 0);
            if (left && strchr(left, '.')) {
                MemberAssign ma = {.start = syn_start(n), .nested = top.in_assign,
                                   .in_fn = top.has_fn, .fn_start = top.fn_start,
                                   .fn_end = top.fn_end, .left = left,
                                   .right = field(n, "right")};
                char *root = arena_strndup(x->a, left, strcspn(left, "."));
                size_t g;
                if (!namemap_get(&m->groups, root, &g)) {
                    g = m->lists.n;
                    namemap_put(x->a, &m->groups, root, g);
                    VEC_PUSH(x->a, &m->lists, (IndexList){0});
                }
                VEC_PUSH(x->a, &m->v, ma);
                VEC_PUSH(x->a, &m->lists.v[g], m->v.n - 1);
            }
        }
        Open o = {.end = syn_end_of(x->syn, i), .fn = fn, .in_assign = !fn && (assign || top.in_assign),
                  .has_fn = fn || top.has_fn,
                  .fn_start = fn ? syn_start(n) : top.fn_start,
                  .fn_end = fn ? syn_end(n) : top.fn_end};
        VEC_PUSH(x->a, &open, o);
    }
    x->member_assigns = m;
    return m;
}

SynNode ex_member_value(Ex *x, const char *path)
{
    const MemberAssigns *m = member_assigns(x);
    char *root = arena_strndup(x->a, path, strcspn(path, "."));
    size_t g;
    if (!strchr(path, '.') || !namemap_get(&m->groups, root, &g))
        return (SynNode){0};
    for (size_t k = 0; k < m->lists.v[g].n; k++) {
        const MemberAssign *ma = &m->v.v[m->lists.v[g].v[k]];
        if (!strcmp(ma->left, path))
            return ma->right;
    }
    return (SynNode){0};
}

/* Every `path.prop = value` assignment after the declaration of the object
 * stored at `path`, in the declaration's block (nested statements too, not
 * nested functions): params objects completed before the call. Collected
 * once per object. */
static const Assigned *assignments_of(Ex *x, SynNode obj)
{
    uint32_t at = syn_start(obj);
    size_t known;
    if (nummap_get(&x->assigned_at, at, &known))
        return &x->assigned.v[known];
    Assigned as = {.obj = at};
    SynNode decl = {0};
    as.path = owner_path(x, obj, &decl);
    /* declarator -> declaration -> (export ->) block */
    SynNode block = as.path ? ex_parent(x, ex_parent(x, decl)) : decl;
    if (as.path && is(block, "export_statement"))
        block = ex_parent(x, block);
    size_t g;
    const MemberAssigns *m = as.path && !syn_null(block) ? member_assigns(x) : NULL;
    char *root = as.path ? arena_strndup(x->a, as.path, strcspn(as.path, ".")) : NULL;
    if (m && namemap_get(&m->groups, root, &g)) {
        size_t pl = strlen(as.path);
        uint32_t after = syn_end(decl), bstart = syn_start(block), bend = syn_end(block);
        const size_t *list = m->lists.v[g].v, n = m->lists.v[g].n;
        size_t lo = 0, hi = n; /* the first one after the declaration */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (m->v.v[list[mid]].start > after)
                hi = mid;
            else
                lo = mid + 1;
        }
        for (size_t k = lo; k < n && m->v.v[list[k]].start < bend; k++) {
            const MemberAssign *ma = &m->v.v[list[k]];
            if (ma->nested || (ma->in_fn && ma->fn_start >= bstart && ma->fn_end <= bend))
                continue; /* in another assignment, or in a function nested in the block */
            if (!strncmp(ma->left, as.path, pl) && ma->left[pl] == '.') {
                AssignedProp ap = {ma->left + pl + 1, ma->right};
                VEC_PUSH(x->scratch, &as.props, ap);
            }
        }
    }
    VEC_PUSH(x->scratch, &x->assigned, as);
    nummap_put(x->scratch, &x->assigned_at, at, x->assigned.n - 1);
    return &x->assigned.v[x->assigned.n - 1];
}

/* The last later assignment of `name` to the object, or a null node. */
static SynNode assigned_prop(Ex *x, SynNode obj, const char *name)
{
    SynNode found = {0};
    /* only objects stored in a variable (or a property of one) */
    SynNode p = ex_parent(x, obj);
    if (!is(p, "variable_declarator") && !is(p, "pair") && !is(p, "assignment_expression"))
        return found;
    const Assigned *as = assignments_of(x, obj);
    for (size_t i = 0; i < as->props.n; i++)
        if (!strcmp(as->props.v[i].name, name))
            found = as->props.v[i].value;
    return found;
}

const AssignedProp *ex_assigned_props(Ex *x, SynNode obj, size_t *n)
{
    SynNode p = ex_parent(x, obj);
    if (!is(p, "variable_declarator") && !is(p, "pair") && !is(p, "assignment_expression")) {
        *n = 0;
        return NULL;
    }
    const Assigned *as = assignments_of(x, obj);
    *n = as->props.n;
    return as->props.v;
}

static SynNode find_prop_depth(Ex *x, SynNode obj, const char *name, int depth);

/* `{ ...params.ExpressionAttributeValues, ':t': t }` assigned to
 * params.ExpressionAttributeValues: the spread brings in what every earlier
 * assignment of that path set (each branch of an if/else before it), so
 * `name` is looked up in each of them, the last one that has it winning;
 * a null node when the spread is no such path or none has it. */
static SynNode spread_of_earlier(Ex *x, SynNode spread, const char *name, int depth)
{
    SynNode hit = {0};
    SynNode arg = syn_child(x->syn, spread, 0);
    if (!is(arg, "member_expression"))
        return hit;
    const char *path = member_path(x, arg, 0);
    if (!path || !strchr(path, '.'))
        return hit;
    const MemberAssigns *m = member_assigns(x);
    char *root = arena_strndup(x->a, path, strcspn(path, "."));
    size_t g;
    if (!namemap_get(&m->groups, root, &g))
        return hit;
    uint32_t at = syn_start(spread);
    for (size_t k = 0; k < m->lists.v[g].n; k++) {
        const MemberAssign *ma = &m->v.v[m->lists.v[g].v[k]];
        if (ma->start >= at)
            break; /* in source order: only those before the spread */
        if (strcmp(ma->left, path) || !is(syn_unwrap(x->syn, ma->right), "object"))
            continue;
        SynNode v = find_prop_depth(x, syn_unwrap(x->syn, ma->right), name, depth + 1);
        if (!syn_null(v))
            hit = v;
    }
    return hit;
}

static SynNode find_prop_depth(Ex *x, SynNode obj, const char *name, int depth)
{
    SynNode none = {0};
    if (!is(obj, "object") || depth > 4)
        return none;
    SynNode later = assigned_prop(x, obj, name);
    if (!syn_null(later))
        return later;
    uint32_t cnt = syn_count(x->syn, obj);
    SynNode hit = none;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "spread_element")) { /* { ...base, ':sk': x }: later wins */
            SynNode earlier = spread_of_earlier(x, p, name, depth);
            if (!syn_null(earlier)) {
                hit = earlier;
                continue;
            }
            SynNode inner = ex_follow(x, syn_child(x->syn, p, 0), NULL, NULL);
            SynNode v = find_prop_depth(x, inner, name, depth + 1);
            if (!syn_null(v))
                hit = v;
            continue;
        }
        if (is(p, "shorthand_property_identifier")) {
            if (ex_text_eq(x, p, name))
                hit = p;
            continue;
        }
        SynNode k = is(p, "pair") ? field(p, "key") : (SynNode){0};
        if (is(k, "property_identifier")) { /* no copy for the common case */
            if (ex_text_eq(x, k, name))
                hit = field(p, "value");
            continue;
        }
        const char *pn = ex_prop_name(x, p);
        if (pn && !strcmp(pn, name))
            hit = syn_prop_value(x->syn, p);
    }
    return hit;
}

/* The value of property `name` in object literal `obj` (also set by a
 * later `var.name = value`, or brought in by a spread), or a null node. */
SynNode ex_find_prop(Ex *x, SynNode obj, const char *name)
{
    return find_prop_depth(x, obj, name, 0);
}

bool ex_has_any_prop(Ex *x, SynNode obj, const char *const *names)
{
    for (; *names; names++)
        if (!syn_null(ex_find_prop(x, obj, *names)))
            return true;
    return false;
}

const char *ex_index_name(Ex *x, SynNode obj, const char *prop)
{
    SynNode v = ex_find_prop(x, obj, prop);
    const char *s;
    if (syn_null(v))
        return NULL;
    return ex_string_value(x, v, &s) ? s : ex_ntext(x, syn_unwrap(x->syn, v));
}
