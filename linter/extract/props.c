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

/* ---- branches ------------------------------------------------------------ */

/* A params object filled in branches (`if (s) { params.KeyConditionExpression
 * = ...; params.ExpressionAttributeValues = ... } else { ... }`) is one
 * operation per combination of branches: ex_branch_combos lists them, and
 * while Ex.branch holds one the readers below see only the assignments
 * that run under it. Walks go up the parents of a node (bounded), never
 * recurse over the tree. */
enum {
    MAX_CHOICES = 6,       /* ifs, ternaries and switches one combination decides */
    MAX_PRODUCT = 64,      /* combinations tried */
    MAX_RELEVANT = 64,     /* assignments compared between combinations */
    MAX_TERNARY_CHAIN = 4, /* `a ? x : b ? y : z` */
    MAX_UP = 64,           /* statements around an assignment */
    MAX_CASES = 16,        /* cases of a switch that is a choice */
};

/* An if's or a ternary's condition as a choice: parentheses and `!` taken
 * off, *neg set when an odd number of `!` were. */
static ExChoice cond_choice(Ex *x, SynNode cond, bool *neg)
{
    *neg = false;
    cond = unwrap(cond);
    for (int i = 0; i < 8 && is(cond, "unary_expression") &&
                    ex_text_eq(x, field(cond, "operator"), "!");
         i++) {
        *neg = !*neg;
        cond = unwrap(field(cond, "argument"));
    }
    return (ExChoice){.start = syn_start(cond), .end = syn_end(cond), .options = 2};
}

static bool same_choice(Ex *x, const ExChoice *a, const ExChoice *b)
{
    if (a->sw != b->sw)
        return false;
    if (a->sw)
        return a->start == b->start;
    uint32_t n = a->end - a->start;
    return n == b->end - b->start && a->end <= x->len && b->end <= x->len &&
           !memcmp(x->src + a->start, x->src + b->start, n);
}

/* The option `b` takes at choice `c`; -1 when it makes no such choice. */
static int taken(Ex *x, const ExBranch *b, const ExChoice *c)
{
    for (size_t i = 0; b && i < b->n; i++)
        if (same_choice(x, &b->choices[i], c))
            return b->option[i];
    return -1;
}

/* The last statement of a block or of a switch case (`skip`: the case's
 * value); a null node when there is none. */
static SynNode last_statement(Ex *x, SynNode n, SynNode skip)
{
    SynNode last = {0};
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(x->syn, n, i);
        if (!is(c, "comment") && !syn_eq(c, skip))
            last = c;
    }
    return last;
}

/* A statement after which the code below it does not run: return, throw
 * (with `brk`, break and continue too), or a block that ends in one. */
static bool ends_flow(Ex *x, SynNode s, bool brk)
{
    for (int i = 0; i < 8; i++) {
        if (is(s, "return_statement") || is(s, "throw_statement"))
            return true;
        if (brk && (is(s, "break_statement") || is(s, "continue_statement")))
            return true;
        if (!is(s, "statement_block"))
            return false;
        s = last_statement(x, s, (SynNode){0});
    }
    return false;
}

/* A switch's cases (switch_case, switch_default) in order: the k-th, or
 * their count with k < 0; *dflt whether one is the default. */
static SynNode switch_case_at(Ex *x, SynNode body, int k, int *count, bool *dflt)
{
    SynNode none = {0};
    int i = 0;
    uint32_t cnt = syn_count(x->syn, body);
    for (uint32_t j = 0; j < cnt; j++) {
        SynNode c = syn_child(x->syn, body, j);
        if (!is(c, "switch_case") && !is(c, "switch_default"))
            continue;
        if (dflt && is(c, "switch_default"))
            *dflt = true;
        if (i++ == k)
            return c;
    }
    if (count)
        *count = i;
    return none;
}

static int switch_case_index(Ex *x, SynNode body, SynNode c)
{
    int i = 0;
    uint32_t cnt = syn_count(x->syn, body);
    for (uint32_t j = 0; j < cnt; j++) {
        SynNode d = syn_child(x->syn, body, j);
        if (syn_eq(d, c))
            return i;
        if (is(d, "switch_case") || is(d, "switch_default"))
            i++;
    }
    return -1;
}

/* Entered at case `o`, the switch runs cases o up to the one this returns:
 * the first that ends in break, return or throw (fall-through). */
static int switch_run_end(Ex *x, SynNode body, int o, int cases)
{
    for (int k = o; k < cases; k++) {
        SynNode c = switch_case_at(x, body, k, NULL, NULL);
        if (ends_flow(x, last_statement(x, c, field(c, "value")), true))
            return k;
    }
    return cases - 1;
}

static ExChoice switch_choice(SynNode sw)
{
    return (ExChoice){.start = syn_start(sw), .end = syn_end(sw), .sw = true};
}

/* Whether `n` runs under the choices of `b`: each if and switch around it,
 * inside its function, of which `b` makes a choice takes the branch `n` is
 * in. */
static bool runs_under(Ex *x, const ExBranch *b, SynNode n)
{
    SynNode child = n;
    for (int d = 0; d < MAX_UP; d++) {
        SynNode p = ex_parent(x, child);
        if (syn_null(p) || is_function_node(p))
            return true;
        if (is(p, "if_statement")) {
            int arm = syn_eq(field(p, "consequence"), child)   ? 0
                      : syn_eq(field(p, "alternative"), child) ? 1
                                                               : -1;
            bool neg;
            ExChoice c = cond_choice(x, field(p, "condition"), &neg);
            int o = arm < 0 ? -1 : taken(x, b, &c);
            if (o >= 0 && o != (arm ^ neg))
                return false;
        } else if (is(p, "switch_body") && is(ex_parent(x, p), "switch_statement")) {
            ExChoice c = switch_choice(ex_parent(x, p));
            int o = taken(x, b, &c), cases = 0;
            if (o >= 0) {
                switch_case_at(x, p, -1, &cases, NULL);
                int k = switch_case_index(x, p, child);
                if (k >= 0 && (k < o || o >= cases || k > switch_run_end(x, p, o, cases)))
                    return false;
            }
        }
        child = p;
    }
    return true;
}

/* A value assigned, as `b` reads it: a ternary of whose condition `b` makes
 * a choice is the arm taken. */
static SynNode value_under(Ex *x, const ExBranch *b, SynNode v)
{
    for (int i = 0; b && i < MAX_TERNARY_CHAIN; i++) {
        SynNode u = unwrap(v);
        if (!is(u, "ternary_expression"))
            break;
        bool neg;
        ExChoice c = cond_choice(x, field(u, "condition"), &neg);
        int o = taken(x, b, &c);
        if (o < 0)
            break;
        v = field(u, (o ^ neg) ? "alternative" : "consequence");
    }
    return v;
}

/* Whether the assignment whose right side is `v` is read under Ex.branch. */
static bool assigned_here(Ex *x, SynNode v)
{
    return !x->branch || (syn_start(v) < x->branch->before &&
                          runs_under(x, x->branch, ex_parent(x, v)));
}

typedef struct Gather {
    ExChoice choices[MAX_CHOICES];
    size_t n;
    SynNode sites[MAX_CHOICES * 4]; /* the ifs and switches of the choices */
    size_t choice_of[MAX_CHOICES * 4];
    size_t nsites;
    bool over;
} Gather;

static size_t add_choice(Ex *x, Gather *g, ExChoice c, SynNode site)
{
    size_t i = 0;
    while (i < g->n && !same_choice(x, &g->choices[i], &c))
        i++;
    if (i == g->n) {
        if (g->n == MAX_CHOICES) {
            g->over = true;
            return 0;
        }
        g->choices[g->n++] = c;
    }
    if (syn_null(site))
        return i;
    for (size_t s = 0; s < g->nsites; s++)
        if (syn_eq(g->sites[s], site))
            return i;
    if (g->nsites == sizeof g->sites / sizeof *g->sites) {
        g->over = true;
        return i;
    }
    g->sites[g->nsites] = site;
    g->choice_of[g->nsites++] = i;
    return i;
}

/* The choices around assignment `n` below the statement that holds the
 * object (at `obj_start`), and those of the ternaries it assigns. */
static void gather(Ex *x, Gather *g, SynNode v, uint32_t obj_start)
{
    SynNode child = ex_parent(x, v);
    for (int d = 0; d < MAX_UP && !g->over; d++) {
        SynNode p = ex_parent(x, child);
        if (syn_null(p) || is_function_node(p) ||
            (syn_start(p) <= obj_start && obj_start < syn_end(p)))
            break;
        if (is(p, "if_statement") && !syn_eq(field(p, "condition"), child)) {
            bool neg;
            add_choice(x, g, cond_choice(x, field(p, "condition"), &neg), p);
        } else if (is(p, "switch_body") && is(ex_parent(x, p), "switch_statement")) {
            int cases = 0;
            bool dflt = false;
            switch_case_at(x, p, -1, &cases, &dflt);
            if (cases > MAX_CASES) {
                g->over = true;
                break;
            }
            ExChoice c = switch_choice(ex_parent(x, p));
            c.options = cases + !dflt;
            add_choice(x, g, c, ex_parent(x, p));
        }
        child = p;
    }
    for (int i = 0; i < MAX_TERNARY_CHAIN && !g->over; i++) {
        SynNode u = unwrap(v);
        if (!is(u, "ternary_expression"))
            break;
        bool neg;
        add_choice(x, g, cond_choice(x, field(u, "condition"), &neg), (SynNode){0});
        v = field(u, "alternative");
    }
}

/* Whether an operation at `op` can run under `b`: it is in no branch `b`
 * does not take, and no branch `b` takes before it returns or throws. */
static bool reaches(Ex *x, const Gather *g, const ExBranch *b, SynNode op)
{
    if (!runs_under(x, b, op))
        return false;
    for (size_t s = 0; s < g->nsites; s++) {
        SynNode site = g->sites[s];
        if (syn_start(op) < syn_end(site))
            continue; /* it is in the site, or before it */
        int o = b->option[g->choice_of[s]];
        SynNode last = {0};
        if (is(site, "if_statement")) {
            bool neg;
            cond_choice(x, field(site, "condition"), &neg);
            SynNode arm = (o ^ neg) ? field(site, "alternative") : field(site, "consequence");
            if (is(arm, "else_clause"))
                arm = last_statement(x, arm, (SynNode){0});
            last = arm;
        } else {
            SynNode body = field(site, "body");
            int cases = 0;
            switch_case_at(x, body, -1, &cases, NULL);
            if (o < cases) {
                SynNode c = switch_case_at(x, body, switch_run_end(x, body, o, cases), NULL, NULL);
                last = last_statement(x, c, field(c, "value"));
            }
        }
        if (!syn_null(last) && ends_flow(x, last, false))
            return false;
    }
    return true;
}

/* `params.ExpressionAttributeValues = { ...params.ExpressionAttributeValues,
 * ':t': t }`: an assignment that keeps what the path held (it adds, it
 * overwrites nothing). `v` its right side. */
static bool extends_itself(Ex *x, SynNode v)
{
    SynNode u = unwrap(v);
    if (!is(u, "object"))
        return false;
    const char *left = member_path(x, field(ex_parent(x, v), "left"), 0);
    uint32_t cnt = syn_count(x->syn, u);
    for (uint32_t i = 0; left && i < cnt; i++) {
        SynNode c = syn_child(x->syn, u, i);
        const char *p = is(c, "spread_element") ? member_path(x, syn_child(x->syn, c, 0), 0) : NULL;
        if (p && !strcmp(p, left))
            return true;
    }
    return false;
}

/* Whether object literal `obj` has a property `name` of its own (a pair or
 * a shorthand, not a spread's). */
static bool own_prop(Ex *x, SynNode obj, const char *name)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "shorthand_property_identifier") ? ex_text_eq(x, p, name)
                                                   : is(p, "pair") && ex_prop_name(x, p) &&
                                                         !strcmp(ex_prop_name(x, p), name))
            return true;
    }
    return false;
}

/* Candidates: later assignments to an object's properties. */
typedef struct Cand {
    const char *name;
    SynNode value;
    SynNode owner; /* the object literal */
    bool params;   /* of the params object itself */
} Cand;

size_t ex_branch_combos(Ex *x, SynNode obj, Span op_span, const ExBranch **out)
{
    static const char *const relevant[] = {
        "TableName", "IndexName", "KeyConditionExpression", "ExpressionAttributeValues",
        "ExpressionAttributeNames", "Key", "Item", "UpdateExpression", NULL};
    static const char *const objects[] = {"ExpressionAttributeValues", "ExpressionAttributeNames",
                                          "Key", "Item", NULL};
    *out = NULL;
    if (x->branch)
        return 0;
    /* an operation after its parameters' literal reads what was assigned
     * before it */
    uint32_t before = op_span.start_byte > syn_end(obj) ? op_span.start_byte : UINT32_MAX;
    /* the assignments that decide what the operation reads: to the params
     * object's own properties, and to the objects of values, names, key
     * or item it holds by variable */
    Cand cand[MAX_RELEVANT];
    size_t ncand = 0;
    bool cut = false; /* some are after the operation */
    size_t n;
    const AssignedProp *ap = ex_assigned_props(x, obj, &n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(ap[i].name, ".");
        for (const char *const *r = relevant; *r; r++) {
            if (strlen(*r) != len || strncmp(*r, ap[i].name, len))
                continue;
            if (syn_start(ap[i].value) >= before) {
                cut = true;
                break;
            }
            if (ncand == MAX_RELEVANT)
                return 0;
            cand[ncand++] = (Cand){ap[i].name, ap[i].value, obj, true};
            break;
        }
    }
    for (const char *const *o = objects; *o; o++) {
        SynNode inner = ex_follow(x, ex_find_prop(x, obj, *o), NULL, NULL);
        if (!is(inner, "object") || syn_eq(inner, obj))
            continue;
        size_t m;
        const AssignedProp *iap = ex_assigned_props(x, inner, &m);
        for (size_t i = 0; i < m; i++) {
            if (syn_start(iap[i].value) >= before) {
                cut = true;
                continue;
            }
            if (ncand == MAX_RELEVANT)
                return 0;
            cand[ncand++] = (Cand){iap[i].name, iap[i].value, inner, false};
        }
    }
    /* Only what reading the last assignment loses is worth a combination:
     * a property assigned twice (an assignment that extends what the
     * property held aside), or over the literal's own value, or a
     * ternary assigned to a property of the params object. */
    SynNode rel[MAX_RELEVANT];
    size_t nrel = 0;
    bool extends[MAX_RELEVANT];
    for (size_t i = 0; i < ncand; i++)
        extends[i] = extends_itself(x, cand[i].value);
    for (size_t i = 0; i < ncand; i++) {
        if (extends[i])
            continue;
        bool contested = (cand[i].params && !strchr(cand[i].name, '.') &&
                          (is(unwrap(cand[i].value), "ternary_expression") ||
                           own_prop(x, cand[i].owner, cand[i].name))) ||
                         (!cand[i].params && own_prop(x, cand[i].owner, cand[i].name));
        for (size_t j = 0; j < ncand && !contested; j++)
            contested = j != i && !extends[j] && syn_eq(cand[j].owner, cand[i].owner) &&
                        !strcmp(cand[j].name, cand[i].name);
        if (contested)
            rel[nrel++] = cand[i].value;
    }
    Gather g = {0};
    for (size_t i = 0; i < nrel && !g.over; i++)
        gather(x, &g, rel[i], syn_start(obj));
    if (g.over)
        return 0;
    if (!g.n) {
        if (!cut)
            return 0;
        /* no branch, but what comes after the operation is not its */
        ExBranch *one = arena_alloc(x->scratch, sizeof *one);
        *one = (ExBranch){.before = before};
        *out = one;
        return 1;
    }
    size_t product = 1;
    for (size_t i = 0; i < g.n; i++) {
        product *= (size_t)(g.choices[i].options > 0 ? g.choices[i].options : 1);
        if (product > MAX_PRODUCT)
            return 0;
    }
    ExChoice *choices = arena_alloc(x->scratch, g.n * sizeof *choices);
    memcpy(choices, g.choices, g.n * sizeof *choices);
    SynNode op = syn_node_for_range(x->syn, op_span.start_byte, op_span.end_byte);
    ExBranch *kept = arena_alloc(x->scratch, MAX_BRANCH_COMBOS * sizeof *kept);
    uint32_t *sigs = arena_alloc(x->scratch, (MAX_BRANCH_COMBOS + 1) * ncand * sizeof *sigs);
    size_t nkept = 0;
    for (size_t c = 0; c < product; c++) {
        int *option = arena_alloc(x->scratch, g.n * sizeof *option);
        size_t rest = c;
        for (size_t i = 0; i < g.n; i++) {
            size_t k = (size_t)(g.choices[i].options > 0 ? g.choices[i].options : 1);
            option[i] = (int)(rest % k);
            rest /= k;
        }
        ExBranch b = {.n = g.n, .choices = choices, .option = option, .before = before};
        if (!syn_null(op) && !reaches(x, &g, &b, op))
            continue;
        /* what it reads: each assignment (those the choices did not come
         * from too: an arm taken hides the others'), not run (0) or the
         * value it assigns under b (its start, plus one) */
        uint32_t *sig = sigs + nkept * ncand;
        for (size_t i = 0; i < ncand; i++)
            sig[i] = runs_under(x, &b, ex_parent(x, cand[i].value))
                         ? syn_start(value_under(x, &b, cand[i].value)) + 1
                         : 0;
        bool seen = false;
        for (size_t k = 0; k < nkept && !seen; k++)
            seen = !memcmp(sigs + k * ncand, sig, ncand * sizeof *sig);
        if (seen)
            continue;
        if (nkept == MAX_BRANCH_COMBOS)
            return 0; /* too many: the last assignment is read */
        kept[nkept++] = b;
    }
    if (!nkept)
        return 0;
    *out = kept;
    return nkept;
}

/* The last later assignment of `name` to the object (of those that run
 * under Ex.branch), or a null node. */
static SynNode assigned_prop(Ex *x, SynNode obj, const char *name)
{
    SynNode found = {0};
    /* only objects stored in a variable (or a property of one) */
    SynNode p = ex_parent(x, obj);
    if (!is(p, "variable_declarator") && !is(p, "pair") && !is(p, "assignment_expression"))
        return found;
    const Assigned *as = assignments_of(x, obj);
    for (size_t i = 0; i < as->props.n; i++)
        if (!strcmp(as->props.v[i].name, name) && assigned_here(x, as->props.v[i].value))
            found = as->props.v[i].value;
    return syn_null(found) ? found : value_under(x, x->branch, found);
}

const AssignedProp *ex_assigned_props(Ex *x, SynNode obj, size_t *n)
{
    SynNode p = ex_parent(x, obj);
    if (!is(p, "variable_declarator") && !is(p, "pair") && !is(p, "assignment_expression")) {
        *n = 0;
        return NULL;
    }
    const Assigned *as = assignments_of(x, obj);
    if (!x->branch) {
        *n = as->props.n;
        return as->props.v;
    }
    AssignedProp *v = arena_alloc(x->scratch, (as->props.n + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < as->props.n; i++)
        if (assigned_here(x, as->props.v[i].value))
            v[k++] = (AssignedProp){as->props.v[i].name,
                                    value_under(x, x->branch, as->props.v[i].value)};
    *n = k;
    return v;
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
        if (strcmp(ma->left, path) || !assigned_here(x, ma->right))
            continue;
        SynNode right = unwrap(value_under(x, x->branch, ma->right));
        if (!is(right, "object"))
            continue;
        SynNode v = find_prop_depth(x, right, name, depth + 1);
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

bool ex_names_a_key(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        const char *pn = ex_prop_name(x, syn_child(x->syn, obj, i));
        if (pn && key_role_for_name(x->cfg, pn) >= 0)
            return true;
    }
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
