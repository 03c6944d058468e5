/* Extraction, layer 2 (values): keys. A value read into a key of the IR
 * (segments.c reads it; a conditional value gives a key per branch), the
 * key attributes of an object literal (spreads of other objects and of
 * helpers returning keys included), and the sink a key built from a
 * function's parameters makes of that function. */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }
static bool is_function_node(SynNode n) { return syn_is_function(n); }

/* A key of a data operation built from the enclosing function's parameters
 * is a sink of that function: its callers' arguments complete it. */
static void key_sink(Ex *x, SynNode at, const KeyExpr *k)
{
    bool param = false;
    for (size_t i = 0; i < k->segs.n; i++)
        if (k->segs.v[i].kind == SEG_REF && (k->segs.v[i].flags & SEGF_PARAM))
            param = true;
    if (!param)
        return;
    SynNode fn = at;
    for (int i = 0; i < 256 && !syn_null(fn) && !is_function_node(fn); i++)
        fn = ex_parent(x, fn);
    if (syn_null(fn) || !is_function_node(fn))
        return;
    HelperDef *h = ex_function_def(x, fn);
    /* an operation read once per combination of branches reads a value
     * they share more than once: one sink */
    for (size_t i = 0; h && x->branch && i < h->sinks.n; i++) {
        const KeyExpr *o = &h->sinks.v[i];
        if (o->span.start_byte == k->span.start_byte && o->span.end_byte == k->span.end_byte &&
            o->role == k->role && o->site == k->site && o->cond == k->cond &&
            (o->attr && k->attr ? !strcmp(o->attr, k->attr) : o->attr == k->attr))
            return;
    }
    if (h) {
        KeyExpr sk = *k;
        sk.op = -1;
        VEC_PUSH(x->a, &h->sinks, sk);
    }
}

/* `value` names a parameter of the enclosing named function (through
 * `marshall(item)` too): that function passes the parameter on (ParamUse:
 * as a data operation's Item or Key, or as argument `arg` of `callee`). */
void ex_param_use(Ex *x, SynNode value, KeySite site, const char *callee, unsigned arg)
{
    SynNode v = unwrap(value);
    if (is(v, "call_expression") && !callee) {
        SynNode fn = unwrap(field(v, "function"));
        const char *name = is(fn, "identifier") ? ex_ntext(x, fn) : NULL;
        if (!name || strcmp(name, "marshall"))
            return;
        v = unwrap(ex_arg(x, v, 0));
    }
    if (!is(v, "identifier") && !is(v, "shorthand_property_identifier"))
        return;
    const char *name = ex_ntext(x, v);
    Binding b = ex_find_binding(x, v, name, false);
    if (b.found && !b.param && callee && is(unwrap(b.value), "object")) {
        /* `const record = { ...item, timestamp }; write(record)`: what the
         * object handed on spreads */
        ex_spread_param_uses(x, unwrap(b.value), site, callee, arg);
        return;
    }
    if (!b.found || !b.param)
        return;
    SynNode fn = v;
    for (int i = 0; i < 256 && !syn_null(fn) && !is_function_node(fn); i++)
        fn = ex_parent(x, fn);
    if (syn_null(fn) || !is_function_node(fn))
        return;
    HelperDef *h = ex_function_def(x, fn);
    size_t param;
    if (!h || !namemap_get(&h->param_names, name, &param))
        return;
    for (size_t i = 0; i < h->param_uses.n; i++) {
        const ParamUse *u = &h->param_uses.v[i];
        if (u->param == param && u->site == site && u->arg == arg &&
            (u->callee ? callee && !strcmp(u->callee, callee) : !callee))
            return;
    }
    VEC_PUSH(x->a, &h->param_uses,
             ((ParamUse){.param = (unsigned)param, .site = site, .callee = callee, .arg = arg}));
}

void ex_spread_param_uses(Ex *x, SynNode obj, KeySite site, const char *callee, unsigned arg)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode sp = syn_child(x->syn, obj, i);
        SynNode v = is(sp, "spread_element") ? unwrap(syn_child(x->syn, sp, 0)) : (SynNode){0};
        Binding b = is(v, "identifier") ? ex_find_binding(x, v, ex_ntext(x, v), false)
                                        : (Binding){0};
        if (b.found && b.param) /* (a parameter: no object to follow further) */
            ex_param_use(x, v, site, callee, arg);
    }
}

static void add_key_expr(Ex *x, SynNode value, KeyExpr *k)
{
    if (k->via && k->build == BUILD_CALL && k->segs.n == 1 && !k->segs.v[0].name)
        k->segs.v[0].name = k->via;
    VEC_PUSH(x->a, &x->ir->extracted, *k);
    /* (an item's attribute needs its operation's table to be a key: none
     * at a caller; every attribute of a Key map is one) */
    if ((k->site == SITE_WRITE || k->site == SITE_READ || k->site == SITE_CONDITION) &&
        (k->named_by == NAMED_SPELLING || k->named_by == NAMED_KEY_MAP))
        key_sink(x, value, k);
}

void ex_add_key(Ex *x, SynNode value, KeyRole role, const char *attr, KeySite site,
                    int op, CondOp cond)
{
    KeyExpr k = {.role = role, .attr = attr, .site = site, .op = op, .cond = cond,
                 .span = nspan(value), .named_by = x->candidate ? x->named : NAMED_SPELLING};
    SynNode v = ex_attribute_value(x, value);
    if (is(v, "identifier") || is(v, "shorthand_property_identifier")) {
        const char *name = ex_ntext(x, v);
        Binding b = ex_find_binding(x, v, name, false);
        if (b.found && !b.param && !syn_null(b.value)) {
            SynNode bv = unwrap(b.value);
            if (ex_is_string_like(x, bv) || is(bv, "call_expression") ||
                is(bv, "member_expression")) {
                k.via = name;
                k.via_span = nspan(bv);
                v = bv;
            }
        }
    }
    k.build = ex_build_of(x, v);
    KeyExpr without = k;
    x->optional_seen = false;
    ex_expr_segs(x, v, &k.segs, 0);
    add_key_expr(x, value, &k);
    /* a part only some of its keys carry: the key without it is sent too */
    if (x->optional_seen) {
        x->optional_left = true;
        ex_expr_segs(x, v, &without.segs, 0);
        x->optional_left = false;
        if (without.segs.n)
            add_key_expr(x, value, &without);
    }
}

static size_t key_object_depth(Ex *x, SynNode objn, KeySite site, int op, int depth);

/* A call whose result is an object of keys (`...gsiKeys(e)`, `Item:
 * buildItem(tenant, id)`): one key that resolution replaces with the keys
 * of the object the helper returns. */
static size_t helper_object_keys(Ex *x, SynNode call, KeySite site, int op)
{
    if (!is(call, "call_expression"))
        return 0;
    KeyExpr k = {.role = ROLE_KEY, .site = site, .op = op, .span = nspan(call),
                 .build = BUILD_CALL, .spread = true};
    ex_expr_segs(x, call, &k.segs, 0);
    if (k.segs.n != 1 || k.segs.v[0].kind != SEG_CALL)
        return 0;
    VEC_PUSH(x->a, &x->ir->extracted, k);
    return 1;
}

/* The keys added since `first` that have no condition yet are written
 * only when `test` holds (KeyExpr.when). */
static void keys_when(Ex *x, size_t first, SynNode test)
{
    const char *t = NULL;
    for (size_t k = first; k < x->ir->extracted.n; k++)
        if (!x->ir->extracted.v[k].when) {
            if (!t)
                t = ex_ntext(x, unwrap(test));
            x->ir->extracted.v[k].when = t;
        }
}

/* `...expr` inside an object of keys: an object built here (or in a
 * variable) adds its keys, also under a condition; a call is a helper
 * returning an object of keys, expanded by resolution. */
static size_t spread_value_keys(Ex *x, SynNode e, KeySite site, int op, int depth)
{
    e = ex_follow(x, e, NULL, NULL);
    if (depth > 4 || syn_null(e))
        return 0;
    if (is(e, "object"))
        return key_object_depth(x, e, site, op, depth + 1);
    /* `...(parent ? gsiKeys(parent, id) : {})`: the keys of either branch
     * (an index's keys written on some items only) */
    if (is(e, "ternary_expression")) {
        size_t first = x->ir->extracted.n;
        size_t yes = spread_value_keys(x, field(e, "consequence"), site, op, depth + 1);
        size_t no = spread_value_keys(x, field(e, "alternative"), site, op, depth + 1);
        if (yes && !no) /* written when the condition holds */
            keys_when(x, first, field(e, "condition"));
        return yes + no;
    }
    /* `...(custom && pos && { GSI3PK: ... })`: the object when the
     * condition holds; `...(extra || {})`, `...(extra ?? {})`: either */
    if (is(e, "binary_expression")) {
        SynNode op_tok = field(e, "operator");
        if (ex_text_eq(x, op_tok, "&&")) {
            size_t first = x->ir->extracted.n;
            size_t n = spread_value_keys(x, field(e, "right"), site, op, depth + 1);
            keys_when(x, first, field(e, "left"));
            return n;
        }
        if (ex_text_eq(x, op_tok, "||") || ex_text_eq(x, op_tok, "??"))
            return spread_value_keys(x, field(e, "left"), site, op, depth + 1) +
                   spread_value_keys(x, field(e, "right"), site, op, depth + 1);
        return 0;
    }
    return helper_object_keys(x, e, site, op);
}

static size_t spread_keys(Ex *x, SynNode spread, KeySite site, int op, int depth)
{
    return spread_value_keys(x, syn_child(x->syn, spread, 0), site, op, depth);
}

/* Every key attribute of an object literal (followed through a variable). */
size_t ex_key_object(Ex *x, SynNode objn, KeySite site, int op)
{
    return key_object_depth(x, objn, site, op, 0);
}

size_t ex_op_key_object(Ex *x, SynNode objn, KeySite site, int op, KeyNamedBy named)
{
    KeyNamedBy was = x->named;
    x->named = named;
    size_t n = key_object_depth(x, objn, site, op, 0);
    x->named = was;
    return n;
}

/* The keys of one property `name` of an object of keys: the pair or
 * shorthand `p` (a null node for a later `obj.name = v`) and its value v.
 * Returns 1 when it added any. */
static size_t prop_keys(Ex *x, const char *name, SynNode p, SynNode v, KeySite site, int op)
{
    int role = key_role_for_name(x->cfg, name);
    /* `query({ pk, skBeginsWith: 'DIVISION#' })`: the sort key's prefix
     * a project's query function takes */
    CondOp cond = COND_NONE;
    if (role < 0 && site == SITE_READ && key_name_is_sk_prefix(name)) {
        role = ROLE_SK;
        cond = COND_BEGINS_WITH;
    }
    bool deferred = role < 0 && attr_is_deferred(name);
    /* `compoundKey`, `id`: a key when its table says so */
    bool candidate = role < 0 && !deferred && name && x->named != NAMED_SPELLING &&
                     op >= 0 && (site == SITE_READ || site == SITE_WRITE);
    if (role < 0 && !deferred && !candidate)
        return 0;
    if (syn_null(v))
        return 0;
    size_t first = x->ir->extracted.n;
    if (candidate)
        role = ROLE_KEY;
    x->candidate = candidate;
    if (is(p, "shorthand_property_identifier")) {
        /* { pk } : the value is the variable pk, or each element of the
         * array a loop around it walks */
        SynNode el[8];
        if (ex_element_values(x, p, el, 8))
            ex_add_key_branches(x, p, (KeyRole)role, name, site, op, cond);
        else if (ex_value_can_be_key(x, v))
            ex_add_key(x, p, (KeyRole)role, name, site, op, cond);
    } else if (is(unwrap(v), "ternary_expression") ||
               (ex_value_can_be_key(x, v) && !is(ex_attribute_value(x, v), "object") &&
                !is(ex_attribute_value(x, v), "arrow_function"))) {
        ex_add_key_branches(x, v, deferred ? ROLE_KEY : (KeyRole)role, name, site, op, cond);
    }
    for (size_t k = first; deferred && k < x->ir->extracted.n; k++)
        x->ir->extracted.v[k].attr_const = attr_deferred_const(x->a, name);
    x->candidate = false;
    return x->ir->extracted.n > first;
}

size_t ex_update_set_key(Ex *x, const char *name, SynNode v, int op)
{
    int role = key_role_for_name(x->cfg, name);
    if ((role != ROLE_INDEX_PK && role != ROLE_INDEX_SK) || syn_null(v))
        return 0;
    KeyNamedBy was = x->named;
    x->named = NAMED_SPELLING;
    size_t n = prop_keys(x, name, (SynNode){0}, v, SITE_WRITE, op);
    x->named = was;
    return n;
}

/* `item.GSI2PK = ...` after the variable's declaration, before the write:
 * the keys of those assignments. `v` is the variable's value, an object
 * literal or a call (`const item = toItem(b) as Row`). */
static size_t assigned_keys(Ex *x, SynNode v, KeySite site, int op)
{
    for (int i = 0; i < 4; i++) {
        SynNode p = ex_parent(x, v);
        if (!is(p, "as_expression") && !is(p, "satisfies_expression") &&
            !is(p, "non_null_expression") && !is(p, "parenthesized_expression") &&
            !is(p, "await_expression"))
            break;
        v = p;
    }
    size_t na, added = 0;
    const AssignedProp *ap = ex_assigned_props(x, v, &na);
    for (size_t i = 0; i < na; i++)
        if (!strchr(ap[i].name, '.'))
            added += prop_keys(x, ap[i].name, (SynNode){0}, ap[i].value, site, op);
    return added;
}

/* The keys of the properties and spreads of object literal `obj`, a
 * spread of the variable `self` (NULL: none) left out. */
static size_t own_props_keys(Ex *x, SynNode obj, const char *self, KeySite site, int op,
                             int depth)
{
    ex_consume(x, obj);
    size_t added = 0;
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "spread_element")) {
            SynNode arg = unwrap(syn_child(x->syn, p, 0));
            if (!self || !is(arg, "identifier") || !ex_text_eq(x, arg, self))
                added += spread_keys(x, p, site, op, depth);
            continue;
        }
        added += prop_keys(x, ex_prop_name(x, p), p, syn_prop_value(x->syn, p), site, op);
    }
    return added;
}

/* `let item = {...}; if (r) item = { ...item, isRecurring: 'Y' };` then
 * `Item: item`: the objects a `let` holding an object is given again
 * before the write (in its block, not in nested functions) are items the
 * code writes too; their keys besides the spread of the variable itself
 * (its first value, read already). */
static size_t reassigned_keys(Ex *x, SynNode objn, KeySite site, int op, int depth)
{
    SynNode id = unwrap(objn);
    if (!is(id, "identifier"))
        return 0;
    const char *name = ex_ntext(x, id);
    Binding b = ex_find_binding(x, id, name, false);
    if (!b.found || b.param || !is(unwrap(b.value), "object"))
        return 0;
    SynNode given[8];
    size_t n = ex_branch_assignments(x, b.decl, id, name, given, 8), added = 0;
    for (size_t i = 0; i < n; i++) {
        SynNode o = unwrap(given[i]);
        if (is(o, "object"))
            added += own_props_keys(x, o, name, site, op, depth);
    }
    return added;
}

static size_t key_object_depth(Ex *x, SynNode objn, KeySite site, int op, int depth)
{
    SynNode obj = ex_follow(x, objn, NULL, NULL);
    /* `Item: sanitizeItem(item)`: a call handed one object returns that
     * object cleaned up; its keys are the object's. */
    if (is(obj, "call_expression")) {
        SynNode arg = syn_count(x->syn, field(obj, "arguments")) == 1
                          ? ex_follow(x, syn_child(x->syn, field(obj, "arguments"), 0), NULL, NULL)
                          : (SynNode){0};
        /* else a helper that builds the item: `Item: buildItem(tenant, id)`,
         * keys set on what it returns before the write too */
        if (!is(arg, "object"))
            return (depth == 0 && site != SITE_OBJECT ? helper_object_keys(x, obj, site, op) : 0) +
                   assigned_keys(x, obj, site, op);
        obj = arg;
    }
    /* `Key: key` with `const key = isPrivate ? { PK: 'JOB#LIST', ... } :
     * { PK: `ACCOUNT#${id}`, ... }`: the keys of either object */
    if (is(obj, "ternary_expression") && depth < 4)
        return key_object_depth(x, field(obj, "consequence"), site, op, depth + 1) +
               key_object_depth(x, field(obj, "alternative"), site, op, depth + 1);
    if (!is(obj, "object"))
        return 0;
    size_t added = own_props_keys(x, obj, NULL, site, op, depth);
    if (depth == 0)
        added += reassigned_keys(x, objn, site, op, depth);
    return added + assigned_keys(x, obj, site, op);
}

/* The conditional a key value names: the value itself, or the value of
 * the local constant it is (`const pk = id ? ... : ...` ... `{ S: pk }`);
 * null when it is none. A fallback (`actualSk || \`POST#${id}\``) is a
 * conditional too: either side is a key the code can send. */
static SynNode key_conditional(Ex *x, SynNode e)
{
    SynNode u = unwrap(ex_attribute_value(x, e));
    u = unwrap(ex_attribute_value(x, ex_follow(x, u, NULL, NULL)));
    if (is(u, "ternary_expression") ||
        (is(u, "binary_expression") && (ex_text_eq(x, field(u, "operator"), "||") ||
                                        ex_text_eq(x, field(u, "operator"), "??"))))
        return u;
    return (SynNode){0};
}

/* The name of the module-level `const` that identifier `e` is, when its
 * value is a fallback (`const TENANT = process.env.TENANT ||
 * 'TENANT#ACME'`); NULL otherwise. A local conditional (`const start =
 * from ? ... : 'EXPENSE#1970-01-01'`) is a key the code builds, not a
 * constant. */
static const char *const_name(Ex *x, SynNode e)
{
    SynNode id = unwrap(ex_attribute_value(x, e));
    if (!is(id, "identifier"))
        return NULL;
    const char *name = ex_ntext(x, id);
    Binding b = ex_find_binding(x, id, name, true);
    SynNode decl = b.found && !b.param ? ex_parent(x, b.decl) : (SynNode){0};
    SynNode holder = ex_parent(x, decl);
    if (!is(decl, "lexical_declaration") || !ex_text_eq(x, syn_token(x->syn, decl, 0), "const") ||
        !(is(holder, "program") || is(holder, "export_statement")) ||
        !is(unwrap(b.value), "binary_expression"))
        return NULL;
    return name;
}

/* A key value, or each branch of a conditional one (`id ? \`USER#${id}\` :
 * \`LOG#${date}\``: both are keys the code can send), or each value a `let`
 * is given in the branches before it is used. A branch of a module
 * constant's fallback that is all text (`const TENANT = process.env.TENANT
 * || 'TENANT#ACME'`) is that constant's text, as the constant itself
 * would be. */
void ex_add_key_branches(Ex *x, SynNode v, KeyRole role, const char *attr, KeySite site,
                         int op, CondOp cond)
{
    SynNode stack[16];
    const char *cname[16]; /* the const whose branch the entry is; NULL */
    int n = 0;
    cname[n] = NULL;
    stack[n++] = v;
    size_t first = x->ir->extracted.n;
    /* `GSI1PK: userId ? `USER#${userId}` : undefined`: written when userId is */
    SynNode tern = key_conditional(x, v);
    SynNode none = is(tern, "ternary_expression") ? unwrap(field(tern, "alternative")) : tern;
    bool some = is(tern, "ternary_expression") &&
                (is(none, "undefined") || is(none, "null") ||
                 (is(none, "identifier") && ex_text_eq(x, none, "undefined")));
    /* a conditional is split once: `email = email ? email.trim() : email`
     * names itself in a branch, and following it again would never end */
    SynNode split[16];
    size_t nsplit = 0;
    for (unsigned steps = 0; n > 0 && steps < 64; steps++) {
        SynNode e = stack[--n];
        const char *of_const = cname[n];
        /* `let pk; if (a) pk = ...; else pk = ...;`: the value of each branch */
        SynNode id = unwrap(ex_attribute_value(x, e));
        if (is(id, "identifier")) {
            const char *name = ex_ntext(x, id);
            Binding b = ex_find_binding(x, id, name, false);
            SynNode given[8];
            size_t ng = b.found && !b.param && syn_null(b.value)
                            ? ex_branch_assignments(x, b.decl, id, name, given, 8)
                            : 0;
            if (ng && n + (int)ng <= (int)(sizeof stack / sizeof *stack)) {
                while (ng > 0) {
                    cname[n] = NULL;
                    stack[n++] = given[--ng];
                }
                continue;
            }
        }
        /* `for (const k of keys)`, `keys.map((k) => ...)`: each element of
         * the array the code writes out */
        if (is(id, "identifier") || is(id, "shorthand_property_identifier")) {
            Binding b = ex_find_binding(x, id, ex_ntext(x, id), false);
            SynNode el[8];
            size_t ne = !b.found || b.param ? ex_element_values(x, id, el, 8) : 0;
            if (ne && n + (int)ne <= (int)(sizeof stack / sizeof *stack)) {
                while (ne > 0) {
                    cname[n] = NULL;
                    stack[n++] = el[--ne];
                }
                continue;
            }
        }
        SynNode u = key_conditional(x, e);
        bool again = false;
        for (size_t i = 0; i < nsplit && !again; i++)
            again = syn_eq(split[i], u);
        if (again)
            continue;
        if (!syn_null(u) && nsplit < sizeof split / sizeof *split)
            split[nsplit++] = u;
        const char *cn = syn_null(u) ? NULL : const_name(x, e);
        if (is(u, "ternary_expression") && n + 2 <= (int)(sizeof stack / sizeof *stack)) {
            cname[n] = cn;
            stack[n++] = field(u, "alternative");
            cname[n] = cn;
            stack[n++] = field(u, "consequence");
            continue;
        }
        if (is(u, "binary_expression") && n + 2 <= (int)(sizeof stack / sizeof *stack)) {
            cname[n] = cn;
            stack[n++] = field(u, "right");
            cname[n] = cn;
            stack[n++] = field(u, "left");
            continue;
        }
        u = unwrap(e);
        if (syn_null(u))
            continue;
        if (!syn_eq(e, v)) { /* a branch: only what can be a key */
            SynNode av = ex_attribute_value(x, e);
            if (!ex_value_can_be_key(x, e) || is(av, "object") || is(av, "arrow_function"))
                continue;
        }
        size_t before = x->ir->extracted.n;
        ex_add_key(x, e, role, attr, site, op, cond);
        for (size_t k = before; of_const && k < x->ir->extracted.n; k++) {
            SegList *sl = &x->ir->extracted.v[k].segs;
            bool all_text = sl->n > 0;
            for (size_t j = 0; j < sl->n; j++)
                all_text = all_text && sl->v[j].kind == SEG_TEXT;
            for (size_t j = 0; all_text && j < sl->n; j++) {
                sl->v[j].flags |= SEGF_CONST;
                if (!sl->v[j].name)
                    sl->v[j].name = of_const;
            }
        }
    }
    if (some)
        keys_when(x, first, field(tern, "condition"));
}

