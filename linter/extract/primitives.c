/* Extraction, layer 1: the primitives every other file of extract/ stands
 * on (extract_int.h). This file's tree read through syntax.h (fields,
 * parents, texts, strings), what an identifier holds (bindings followed a
 * few hops), where a local name is imported from, property names, and the
 * IR under construction: data operations, the helper entry of a function,
 * the object literals already read. Nothing here calls another file of
 * extract/. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "extract_int.h"
#include "scope.h"
#include "syntax.h"

/* ---- node helpers (syntax.h, bound to this file's tree) ---------------- */

SynNode ex_parent(Ex *x, SynNode n) { return syn_parent(x->syn, n); }
static bool is(SynNode n, const char *type) { return syn_is(n, type); }
SynNode ex_field(Ex *x, SynNode n, const char *name) { return syn_field(x->syn, n, name); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }
const char *ex_ntext(Ex *x, SynNode n) { return syn_text(x->syn, n); }
bool ex_text_eq(Ex *x, SynNode n, const char *s) { return syn_text_eq(x->syn, n, s); }
bool ex_string_value(Ex *x, SynNode n, const char **out)
{
    return syn_string_value(x->syn, n, out);
}

/* ---- imports and framework names --------------------------------------- */

const Import *ex_find_import(Ex *x, const char *local)
{
    return fileir_import(x->ir, local);
}

static bool is_framework_source(const char *src)
{
    return !strncmp(src, "@mbc-cqrs-serverless/", 21);
}

/* The framework's name for `local` if it is imported from the framework. */
const char *ex_framework_name(Ex *x, const char *local)
{
    const Import *im = ex_find_import(x, local);
    if (!im || !is_framework_source(im->source))
        return NULL;
    return im->imported;
}

/* ---- IR building ------------------------------------------------------- */

static const char *function_name(Ex *x, SynNode fn, bool *exported);

/* The name of the nearest named function around `n` (`truncateTable`,
 * `Repo.purge`), NULL when there is none or it is anonymous. */
static const char *enclosing_function(Ex *x, SynNode n)
{
    for (SynNode p = ex_parent(x, n); !syn_null(p); p = ex_parent(x, p)) {
        if (!is(p, "function_declaration") && !is(p, "generator_function_declaration") &&
            !is(p, "method_definition") && !is(p, "arrow_function") &&
            !is(p, "function_expression") && !is(p, "function"))
            continue;
        bool exported;
        const char *name = function_name(x, p, &exported);
        if (!name && is(p, "method_definition"))
            name = ex_ntext(x, field(p, "name"));
        if (!name && is(ex_parent(x, p), "pair"))
            name = ex_prop_name(x, ex_parent(x, p));
        if (name)
            return name;
    }
    return NULL;
}

int ex_add_op(Ex *x, OpKind kind, OpApi api, SynNode node, const char *callee)
{
    DataOp op = {.kind = kind, .api = api, .span = nspan(node), .callee = callee};
    op.table_kind = api_table_kind(api);
    op.function = enclosing_function(x, node);
    VEC_PUSH(x->a, &x->ir->ops, op);
    return (int)x->ir->ops.n - 1;
}

bool ex_consumed(Ex *x, SynNode obj)
{
    return nummap_get(&x->consumed, syn_start(obj), NULL);
}

void ex_consume(Ex *x, SynNode obj)
{
    nummap_put(x->scratch, &x->consumed, syn_start(obj), 0);
}

/* Follow an identifier to the object literal (or other value) it holds. */
/* `marshall(x)` (util-dynamodb), `Converter.marshall(x)` (SDK v2) or
 * `util.dynamodb.toMapValues(x)` (AppSync): the object x, whose keys
 * marshalling only wraps as AttributeValues. */
static SynNode marshalled(Ex *x, SynNode n)
{
    if (!is(n, "call_expression"))
        return n;
    SynNode fn = unwrap(field(n, "function"));
    if (is(fn, "member_expression"))
        fn = field(fn, "property");
    if (!ex_text_eq(x, fn, "marshall") && !ex_text_eq(x, fn, "toMapValues"))
        return n;
    SynNode arg = unwrap(syn_child(x->syn, field(n, "arguments"), 0));
    return syn_null(arg) ? n : arg;
}

/* `ids.reduce((acc, id, i) => { acc[`:id${i}`] = ...; return acc; },
 * { ':pk': ... })`: the object the accumulation starts from, which the
 * result holds (what the callback adds is not read); else `n`. */
static SynNode reduce_seed(Ex *x, SynNode n)
{
    if (!is(n, "call_expression"))
        return n;
    SynNode fn = unwrap(field(n, "function")), args = field(n, "arguments");
    if (!is(fn, "member_expression") || !ex_text_eq(x, field(fn, "property"), "reduce") ||
        syn_null(args) || syn_count(x->syn, args) != 2)
        return n;
    SynNode seed = unwrap(syn_child(x->syn, args, 1));
    return is(seed, "object") ? seed : n;
}

SynNode ex_follow(Ex *x, SynNode n, const char **via, Span *via_span)
{
    n = reduce_seed(x, marshalled(x, unwrap(n)));
    for (int hop = 0; hop < MAX_BINDING_HOPS &&
                      (is(n, "identifier") || is(n, "shorthand_property_identifier"));
         hop++) {
        const char *name = ex_ntext(x, n);
        Binding b = ex_find_binding(x, n, name, true);
        if (!b.found || b.param || syn_null(b.value))
            break;
        if (via && !*via) {
            *via = name;
            *via_span = nspan(b.value);
        }
        n = reduce_seed(x, marshalled(x, unwrap(b.value)));
    }
    return n;
}

/* A low-level AttributeValue ({ S: x } / { N: x }) holds its value. */
SynNode ex_attribute_value(Ex *x, SynNode v)
{
    v = unwrap(v);
    if (is(v, "object") && syn_count(x->syn, v) == 1) {
        SynNode p = syn_child(x->syn, v, 0);
        SynNode computed; /* { S: x } and { "S": x } */
        const char *k = is(p, "pair") ? syn_prop_name(x->syn, p, &computed) : NULL;
        if (k && (!strcmp(k, "S") || !strcmp(k, "N")))
            return field(p, "value");
    }
    /* AppSync's util.dynamodb.toDynamoDB(x) / toString(x) */
    SynNode fn = is(v, "call_expression") ? unwrap(field(v, "function")) : (SynNode){0};
    if (is(fn, "member_expression") && is(unwrap(field(fn, "object")), "member_expression") &&
        ex_text_eq(x, field(unwrap(field(fn, "object")), "property"), "dynamodb") &&
        (ex_text_eq(x, field(fn, "property"), "toDynamoDB") ||
         ex_text_eq(x, field(fn, "property"), "toString"))) {
        SynNode a0 = syn_child(x->syn, field(v, "arguments"), 0);
        if (!syn_null(a0))
            return unwrap(a0);
    }
    return v;
}

const char *ex_prop_name(Ex *x, SynNode prop)
{
    SynNode computed;
    const char *name = syn_prop_name(x->syn, prop, &computed);
    if (name || syn_null(computed))
        return name;
    /* a string constant of this file ... */
    const char *cname = ex_ntext(x, computed);
    const ConstDef *c = fileir_const(x->ir, cname, false);
    if (c && c->value.n == 1 && c->value.v[0].kind == SEG_TEXT)
        return c->value.v[0].text;
    /* ... a local of the enclosing functions or of the module holding a
     * string, or a setting with the name as its default
     * (`options.partitionKey ?? "pk"`, `process.env.TABLE_PK || "pk"`): the
     * name the code uses unless configured otherwise ... */
    SynNode inner = unwrap(computed);
    if (is(inner, "identifier")) {
        Binding b = ex_find_binding(x, inner, cname, true);
        SynNode v = unwrap(b.value);
        if (is(v, "binary_expression") && (ex_text_eq(x, field(v, "operator"), "??") ||
                                           ex_text_eq(x, field(v, "operator"), "||")))
            v = unwrap(field(v, "right"));
        const char *s;
        if (b.found && !b.param && !syn_null(v) && ex_string_value(x, v, &s) && *s)
            return s;
    }
    /* ... or one resolution finds: "[Keys.PK]" */
    return arena_printf(x->a, "[%s]", cname);
}

bool ex_value_can_be_key(Ex *x, SynNode v)
{
    v = unwrap(v);
    const char *t = syn_type(v);
    static const char *const ok[] = {
        "string", "template_string", "binary_expression", "identifier",
        "member_expression", "call_expression", "array", "subscript_expression",
        "shorthand_property_identifier", "object"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!strcmp(t, ok[i]))
            return true;
    return false;
}

/* The receiver's last name: `this.dataService.getItem` -> "dataService". */
const char *ex_receiver_name(Ex *x, SynNode member)
{
    SynNode obj = unwrap(field(member, "object"));
    if (is(obj, "member_expression"))
        return ex_ntext(x, field(obj, "property"));
    if (is(obj, "identifier"))
        return ex_ntext(x, obj);
    return "";
}

/* The class a declaration names: its type annotation when that is one
 * plain type name (`: DynamoDB`, not `DynamoDB.DocumentClient` nor a
 * generic), else the class its value constructs (`= new DynamoDB()`);
 * NULL when neither. */
static const char *declared_class(Ex *x, SynNode decl)
{
    SynNode type = field(decl, "type");
    SynNode t = syn_null(type) ? type : syn_child(x->syn, type, 0);
    if (is(t, "type_identifier"))
        return ex_ntext(x, t);
    SynNode v = unwrap(field(decl, "value"));
    SynNode c = is(v, "new_expression") ? field(v, "constructor") : (SynNode){0};
    return is(c, "identifier") ? ex_ntext(x, c) : NULL;
}

/* The parameter `name` of function `fn`, null when it has none. */
static SynNode param_of(Ex *x, SynNode fn, const char *name)
{
    SynNode ps = field(fn, "parameters");
    uint32_t cnt = syn_null(ps) ? 0 : syn_count(x->syn, ps);
    for (uint32_t j = 0; j < cnt; j++) {
        SynNode p = syn_child(x->syn, ps, j);
        if (ex_text_eq(x, field(p, "pattern"), name))
            return p;
    }
    return (SynNode){0};
}

/* The declaration of `name` as a parameter of the nearest function around
 * `at` that has one, null when none does. */
static SynNode param_decl(Ex *x, SynNode at, const char *name)
{
    for (int i = 0; i < 512 && !syn_null(at); i++, at = ex_parent(x, at)) {
        SynNode p = syn_is_function(at) ? param_of(x, at, name) : (SynNode){0};
        if (!syn_null(p))
            return p;
    }
    return (SynNode){0};
}

/* The class of `this.name` in the class around `at`: a field's (`private
 * db: Db`, `db = new Db()`) or a constructor parameter property's
 * (`constructor(private readonly db: Db)`). */
static const char *field_class(Ex *x, SynNode at, const char *name)
{
    SynNode cls = at;
    for (int i = 0; i < 512 && !syn_null(cls) && !is(cls, "class_declaration") &&
                    !is(cls, "abstract_class_declaration") && !is(cls, "class");
         i++)
        cls = ex_parent(x, cls);
    SynNode body = syn_null(cls) ? cls : field(cls, "body");
    uint32_t cnt = is(body, "class_body") ? syn_count(x->syn, body) : 0;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode d = syn_child(x->syn, body, i);
        if (is(d, "public_field_definition") && ex_text_eq(x, field(d, "name"), name))
            return declared_class(x, d);
        if (is(d, "method_definition") && ex_text_eq(x, field(d, "name"), "constructor")) {
            SynNode p = param_of(x, d, name);
            if (is(syn_child(x->syn, p, 0), "accessibility_modifier") ||
                ex_text_eq(x, syn_token(x->syn, p, 0), "readonly"))
                return declared_class(x, p);
        }
    }
    return NULL;
}

/* `db.get(...)` or `this.db.get(...)` where db is declared as (or made
 * by `new`) a class: `Class.get`, which resolution finds on the class
 * wherever the project defines it; NULL when the receiver says nothing. */
static const char *receiver_class_callee(Ex *x, SynNode at, const char *callee)
{
    bool self = !strncmp(callee, "this.", 5);
    const char *recv = self ? callee + 5 : callee;
    const char *dot = strchr(recv, '.');
    if (!dot || strchr(dot + 1, '.') || dot == recv)
        return NULL;
    const char *name = arena_strndup(x->a, recv, (size_t)(dot - recv));
    const char *cls = NULL;
    if (self) {
        cls = field_class(x, at, name);
    } else {
        Binding b = ex_find_binding(x, at, name, true);
        SynNode p = b.param ? param_decl(x, at, name) : (SynNode){0};
        if (!syn_null(p))
            cls = declared_class(x, p);
        else if (b.found && is(b.decl, "variable_declarator"))
            cls = declared_class(x, b.decl);
    }
    if (!cls || !isupper((unsigned char)cls[0]))
        return NULL;
    return arena_dot(x->a, cls, dot + 1);
}

/* The name resolution looks a callee up by. `this.m(...)` at `at`: `X.m`
 * when the enclosing class does not define m and extends X (an identifier,
 * a name resolution follows into X's module). `db.m(...)`, `this.db.m(...)`
 * with db of a class C (receiver_class_callee): `C.m`. `callee` itself
 * otherwise. */
const char *ex_inherited_callee(Ex *x, SynNode at, const char *callee)
{
    const char *typed = receiver_class_callee(x, at, callee);
    if (typed)
        return typed;
    if (strncmp(callee, "this.", 5) || strchr(callee + 5, '.'))
        return callee;
    const char *m = callee + 5;
    SynNode cls = at;
    for (int i = 0; i < 512 && !syn_null(cls) && !is(cls, "class_declaration") &&
                    !is(cls, "abstract_class_declaration") && !is(cls, "class");
         i++)
        cls = ex_parent(x, cls);
    if (syn_null(cls))
        return callee;
    SynNode base = {0}, body = field(cls, "body");
    uint32_t cnt = syn_count(x->syn, cls);
    for (uint32_t i = 0; i < cnt && syn_null(base); i++) {
        SynNode h = syn_child(x->syn, cls, i);
        if (!is(h, "class_heritage"))
            continue;
        SynNode e = syn_child(x->syn, h, 0);
        base = is(e, "extends_clause") ? field(e, "value") : e;
    }
    if (!is(base, "identifier") || !is(body, "class_body"))
        return callee;
    cnt = syn_count(x->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode d = syn_child(x->syn, body, i);
        if ((is(d, "method_definition") || is(d, "public_field_definition")) &&
            ex_text_eq(x, field(d, "name"), m))
            return callee;
    }
    return arena_dot(x->a, ex_ntext(x, base), m);
}

/* The name other code calls a function by: a declaration's name, the
 * variable an arrow is assigned to, Class.method; NULL when anonymous. */
static const char *function_name(Ex *x, SynNode fn, bool *exported)
{
    *exported = false;
    const char *name = NULL;
    SynNode p = ex_parent(x, fn);
    if (is(fn, "function_declaration") || is(fn, "generator_function_declaration")) {
        name = ex_ntext(x, field(fn, "name"));
    } else if (is(fn, "method_definition")) {
        SynNode body = ex_parent(x, fn), cls = ex_parent(x, body);
        if (!is(body, "class_body") || syn_null(field(cls, "name")))
            return NULL;
        name = arena_dot(x->a, ex_ntext(x, field(cls, "name")),
                            ex_ntext(x, field(fn, "name")));
        p = ex_parent(x, cls);
    } else if (is(p, "variable_declarator")) {
        SynNode n = field(p, "name");
        if (!is(n, "identifier"))
            return NULL;
        name = ex_ntext(x, n);
        p = ex_parent(x, ex_parent(x, p));
    } else {
        return NULL;
    }
    *exported = is(p, "export_statement") ||
                (is(fn, "function_declaration") && is(ex_parent(x, fn), "export_statement"));
    return name;
}

HelperDef *ex_function_def(Ex *x, SynNode fn)
{
    bool exported;
    const char *name = function_name(x, fn, &exported);
    if (!name)
        return NULL;
    HelperDef *known = fileir_helper(x->ir, name, false);
    if (known)
        return known;
    HelperDef h = {.name = name, .exported = exported, .span = nspan(fn)};
    ex_function_params(x, fn, &h);
    fileir_add_helper(x->ir, h);
    if (is(fn, "method_definition")) { /* reachable as this.method too */
        const char *dot = strrchr(name, '.');
        HelperDef self = h;
        self.name = arena_dot(x->a, "this", dot ? dot + 1 : name);
        self.exported = false;
        fileir_add_helper(x->ir, self);
        /* both entries share nothing mutable but sinks: keep them on the
         * Class.method entry and let this.method find them there */
        return &x->ir->helpers.v[x->ir->helpers.n - 2];
    }
    return &x->ir->helpers.v[x->ir->helpers.n - 1];
}

/* ---- names: bindings, words, parameters -------------------------------- */

Binding ex_find_binding(Ex *x, SynNode use, const char *name, bool include_module)
{
    unsigned flags = SCOPE_ASSIGNMENTS | (include_module ? SCOPE_MODULE : 0);
    ScopeHit h = scopes_lookup(x->scopes, use, name, flags);
    return (Binding){.found = h.found, .param = h.param, .value = h.value, .decl = h.decl};
}

BlockWalk ex_block_walk(Ex *x, SynNode decl, SynNode use, size_t *budget)
{
    BlockWalk w = {.budget = budget};
    SynNode block = ex_parent(x, ex_parent(x, decl));
    if (syn_null(block) || !syn_subtree(x->syn, block, &w.i, &w.to))
        return w; /* i == to == 0: nothing to walk */
    w.after = syn_end(decl);
    w.before = syn_start(use);
    return w;
}

SynNode ex_block_walk_next(Ex *x, BlockWalk *w)
{
    for (; w->i < w->to && *w->budget; w->i++) {
        SynNode m = syn_node_at(x->syn, w->i);
        uint32_t at = syn_start(m);
        if (at >= w->before)
            break;
        if (syn_is_function(m)) {
            w->i = syn_end_of(x->syn, w->i) - 1; /* not into nested functions */
            continue;
        }
        ex_spend(w->budget, 1);
        if (at < w->after)
            continue;
        w->i++;
        return m;
    }
    w->i = w->to;
    return (SynNode){0};
}

SynNode ex_push_next(Ex *x, BlockWalk *w, const char *name, bool *changed)
{
    for (SynNode m; !syn_null(m = ex_block_walk_next(x, w));) {
        SynNode mf = unwrap(field(m, "function"));
        if (!is(m, "call_expression") || !is(mf, "member_expression") ||
            !ex_text_eq(x, unwrap(field(mf, "object")), name))
            continue;
        SynNode prop = field(mf, "property");
        if (ex_text_eq(x, prop, "unshift") || ex_text_eq(x, prop, "splice")) {
            *changed = true;
            return (SynNode){0};
        }
        if (ex_text_eq(x, prop, "push"))
            return m;
    }
    return (SynNode){0};
}

/* The values a `let` declared without one (`decl`, its declarator) is
 * given before `use` by statements `name = value;` in the branches of its
 * block (`let pk; if (a) { pk = ... } else { pk = ... }`), not in functions
 * nested there: at most `max` of them into out; their count. */
size_t ex_branch_assignments(Ex *x, SynNode decl, SynNode use, const char *name, SynNode *out,
                             size_t max)
{
    SynNode lex = ex_parent(x, decl);
    if (!is(decl, "variable_declarator") || !is(lex, "lexical_declaration") ||
        !ex_text_eq(x, syn_token(x->syn, lex, 0), "let"))
        return 0;
    size_t n = 0;
    BlockWalk w = ex_block_walk(x, decl, use, &x->inline_left);
    for (SynNode m; n < max && !syn_null(m = ex_block_walk_next(x, &w));) {
        if (!is(m, "assignment_expression") || !is(ex_parent(x, m), "expression_statement") ||
            !is(unwrap(field(m, "left")), "identifier") ||
            !ex_text_eq(x, unwrap(field(m, "left")), name))
            continue;
        out[n++] = field(m, "right");
    }
    return n;
}

/* Whether function `fn` has a parameter plainly named `name`. */
static bool binds_param(Ex *x, SynNode fn, const char *name)
{
    SynNode ps = field(fn, "parameters");
    uint32_t cnt = syn_count(x->syn, ps);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode q = syn_child(x->syn, ps, i), pat = field(q, "pattern");
        if (ex_text_eq(x, syn_null(pat) ? q : pat, name))
            return true;
    }
    return false;
}

/* The array a loop walks when `id` names its element: `for (const k of
 * keys)` around `id`, or the first parameter of a callback handed to
 * `keys.map(...)` (forEach, flatMap) around it; null when neither. */
static SynNode walked_array(Ex *x, SynNode id, const char *name)
{
    static const char *const walkers[] = {"map", "forEach", "flatMap", NULL};
    SynNode cur = id;
    for (int up = 0; up < 64; up++) {
        SynNode p = ex_parent(x, cur);
        if (syn_null(p))
            break;
        if (is(p, "for_in_statement") && syn_eq(field(p, "body"), cur)) {
            SynNode left = field(p, "left");
            if (is(left, "identifier") && ex_text_eq(x, left, name))
                return ex_text_eq(x, field(p, "operator"), "of") ? field(p, "right")
                                                                 : (SynNode){0};
        } else if (syn_is_function(p)) {
            SynNode ps = field(p, "parameters"), first = field(p, "parameter");
            if (syn_null(first) && !syn_null(ps)) {
                first = syn_child(x->syn, ps, 0);
                SynNode pat = field(first, "pattern");
                first = syn_null(pat) ? first : pat;
            }
            if (!is(first, "identifier") || !ex_text_eq(x, first, name)) {
                if (binds_param(x, p, name))
                    return (SynNode){0}; /* another parameter of this function */
                cur = p;
                continue;
            }
            SynNode args = ex_parent(x, p), call = ex_parent(x, args);
            SynNode fn = unwrap(field(call, "function"));
            if (!is(args, "arguments") || !syn_eq(syn_child(x->syn, args, 0), p) ||
                !is(fn, "member_expression"))
                return (SynNode){0};
            for (size_t i = 0; walkers[i]; i++)
                if (ex_text_eq(x, field(fn, "property"), walkers[i]))
                    return field(fn, "object");
            return (SynNode){0};
        }
        cur = p;
    }
    return (SynNode){0};
}

/* The value a function of this file's top level named `name` returns when
 * it has one `return` (not counting nested functions'), or an arrow's
 * expression body; null otherwise. */
static SynNode local_function_return(Ex *x, const char *name)
{
    SynNode prog = syn_root(x->syn), fn = {0};
    uint32_t cnt = syn_count(x->syn, prog);
    for (uint32_t i = 0; i < cnt && syn_null(fn); i++) {
        SynNode st = syn_child(x->syn, prog, i);
        if (is(st, "export_statement"))
            st = field(st, "declaration");
        if (is(st, "function_declaration") && ex_text_eq(x, field(st, "name"), name))
            fn = st;
        uint32_t nd = is(st, "lexical_declaration") ? syn_count(x->syn, st) : 0;
        for (uint32_t j = 0; j < nd && syn_null(fn); j++) {
            SynNode d = syn_child(x->syn, st, j);
            SynNode v = unwrap(field(d, "value"));
            if (is(d, "variable_declarator") && ex_text_eq(x, field(d, "name"), name) &&
                syn_is_function(v))
                fn = v;
        }
    }
    SynNode body = field(fn, "body");
    if (syn_null(body) || !is(body, "statement_block"))
        return body;
    ReturnWalk w = ex_return_walk(x, body);
    SynNode st = ex_return_walk_next(x, &w);
    if (!syn_null(ex_return_walk_next(x, &w)))
        return (SynNode){0};
    return syn_null(st) ? st : syn_child(x->syn, st, 0);
}

ReturnWalk ex_return_walk(Ex *x, SynNode body)
{
    ReturnWalk w = {0};
    if (!syn_subtree(x->syn, body, &w.i, &w.to))
        w.i = w.to = 0;
    return w;
}

SynNode ex_return_walk_next(Ex *x, ReturnWalk *w)
{
    while (w->i < w->to) {
        SynNode cur = syn_node_at(x->syn, w->i);
        if (syn_is_function(cur) || is(cur, "class_declaration") ||
            is(cur, "abstract_class_declaration")) {
            w->i = syn_end_of(x->syn, w->i);
        } else if (is(cur, "return_statement")) {
            w->i = syn_end_of(x->syn, w->i);
            return cur;
        } else {
            w->i++;
        }
    }
    return (SynNode){0};
}

size_t ex_element_values(Ex *x, SynNode id, SynNode *out, size_t max)
{
    id = unwrap(id);
    if (!is(id, "identifier") && !is(id, "shorthand_property_identifier"))
        return 0;
    SynNode arr = walked_array(x, id, ex_ntext(x, id));
    for (int hop = 0; hop < MAX_BINDING_HOPS && !syn_null(arr); hop++) {
        arr = unwrap(arr);
        if (is(arr, "array")) {
            uint32_t cnt = syn_count(x->syn, arr);
            if (cnt == 0 || cnt > max)
                return 0;
            for (uint32_t i = 0; i < cnt; i++) {
                out[i] = syn_child(x->syn, arr, i);
                if (is(out[i], "spread_element"))
                    return 0;
            }
            return cnt;
        }
        if (is(arr, "identifier")) {
            Binding b = ex_find_binding(x, arr, ex_ntext(x, arr), true);
            arr = b.found && !b.param ? b.value : (SynNode){0};
            continue;
        }
        if (!is(arr, "call_expression"))
            break;
        SynNode fn = unwrap(field(arr, "function"));
        if (is(fn, "member_expression") && ex_text_eq(x, field(fn, "property"), "filter"))
            arr = field(fn, "object"); /* a subset of the same elements */
        else if (is(fn, "identifier"))
            arr = local_function_return(x, ex_ntext(x, fn));
        else
            break;
    }
    return 0;
}

/* Split camelCase / snake_case into lowercase words and look for `w`. */
bool ex_name_has_word(const char *name, const char *w)
{
    char word[64];
    size_t wl = 0;
    for (const char *p = name;; p++) {
        bool boundary = !*p || *p == '_' || *p == '-' || *p == '.' ||
                        (isupper((unsigned char)*p) && p > name &&
                         (islower((unsigned char)p[-1]) || isdigit((unsigned char)p[-1]) ||
                          (isupper((unsigned char)p[-1]) && islower((unsigned char)p[1])))) ||
                        (isdigit((unsigned char)*p) && p > name && !isdigit((unsigned char)p[-1]));
        if (boundary && wl) {
            word[wl] = '\0';
            if (!strcasecmp(word, w))
                return true;
            wl = 0;
        }
        if (!*p)
            return false;
        if (*p != '_' && *p != '-' && *p != '.' && wl + 1 < sizeof word)
            word[wl++] = (char)tolower((unsigned char)*p);
    }
}

/* A function's parameter names, in order ("?" for destructured ones). */
void ex_function_params(Ex *x, SynNode fn, HelperDef *h)
{
    SynNode ps = field(fn, "parameters");
    if (syn_null(ps)) { /* x => ... */
        SynNode p1 = field(fn, "parameter");
        if (!syn_null(p1)) {
            h->params = arena_alloc(x->a, sizeof *h->params);
            h->params[h->nparams++] = ex_ntext(x, p1);
            namemap_put(x->a, &h->param_names, h->params[0], 0);
        }
        return;
    }
    uint32_t cnt = syn_count(x->syn, ps);
    h->params = arena_alloc(x->a, (cnt + 1) * sizeof *h->params);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p1 = syn_child(x->syn, ps, i);
        SynNode pat = field(p1, "pattern");
        if (syn_null(pat))
            pat = p1;
        if (is(pat, "assignment_pattern"))
            pat = field(pat, "left");
        h->params[h->nparams++] = is(pat, "identifier") ? ex_ntext(x, pat) : "?";
        namemap_put(x->a, &h->param_names, h->params[h->nparams - 1], h->nparams - 1);
    }
}

/* ---- calls and where their names come from ------------------------------ */

bool ex_imported_from(Ex *x, const char *local, const char *prefix)
{
    const Import *im = ex_find_import(x, local);
    return im && !strncmp(im->source, prefix, strlen(prefix));
}

/* The name of what a call calls: `f(...)` -> f, `a.b.f(...)` -> f, with
 * the root identifier (`a`) in *root. */
const char *ex_callee_parts(Ex *x, SynNode call, SynNode *member, const char **root)
{
    SynNode fn = syn_unwrap(x->syn, syn_field(x->syn, call, "function"));
    *member = fn;
    *root = "";
    if (syn_is(fn, "identifier")) {
        *root = ex_ntext(x, fn);
        return *root;
    }
    if (!syn_is(fn, "member_expression"))
        return "";
    SynNode r = fn;
    for (int i = 0; i < 8 && syn_is(r, "member_expression"); i++)
        r = syn_field(x->syn, r, "object");
    if (syn_is(r, "identifier"))
        *root = ex_ntext(x, r);
    return ex_ntext(x, syn_field(x->syn, fn, "property"));
}

SynNode ex_arg(Ex *x, SynNode call, uint32_t i)
{
    SynNode args = syn_field(x->syn, call, "arguments");
    SynNode none = {0};
    return syn_null(args) ? none : syn_child(x->syn, args, i);
}
