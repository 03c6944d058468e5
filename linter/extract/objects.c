/* Extraction, layer 3 (idioms): object literals of keys that no data
 * operation read (the third pass of extract.c): an entity's key
 * definition, a command's DTO, keys built for later use; the site each is
 * at (a data-access call, a returned entity, a response body that is no
 * key), key getters of classes, and the camelCase query parameters of a
 * project's own data layer. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ddbexpr.h"
#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }
static bool is_function_node(SynNode n) { return syn_is_function(n); }

/* Is this object literal what a function returns? */
static bool is_returned(Ex *x, SynNode obj)
{
    SynNode p = ex_parent(x, obj);
    for (int i = 0; i < 4 && !syn_null(p); i++) {
        const char *t = syn_type(p);
        if (syn_type_is(t, "return_statement"))
            return true;
        if (syn_type_is(t, "arrow_function"))
            return true;
        /* (`return [{ PK: ..., SK: 'new' }, ...]`: each object is returned) */
        if (!syn_type_is(t, "parenthesized_expression") && !syn_type_is(t, "as_expression") &&
            !syn_type_is(t, "satisfies_expression") && !syn_type_is(t, "array"))
            return false;
        p = ex_parent(x, p);
    }
    return false;
}

/* The `.map(...)` call whose callback (an arrow) returns `obj`, a null
 * node when `obj` is returned by no such callback. */
static SynNode mapped_by(Ex *x, SynNode obj)
{
    SynNode p = ex_parent(x, obj);
    while (is(p, "parenthesized_expression") || is(p, "as_expression") ||
           is(p, "satisfies_expression"))
        p = ex_parent(x, p);
    if (!is(p, "arrow_function") || !is(ex_parent(x, p), "arguments"))
        return (SynNode){0};
    SynNode call = ex_parent(x, ex_parent(x, p));
    SynNode fn = is(call, "call_expression") ? unwrap(field(call, "function")) : (SynNode){0};
    if (!is(fn, "member_expression") || !ex_text_eq(x, field(fn, "property"), "map"))
        return (SynNode){0};
    return call;
}

/* The argument that carries `n` to a call: `n` itself, or the object
 * argument of which `n` is the value of a property named for keys
 * (`query({ keys: { pk: 'user' } })`, `get({ key: k, limit })`). A null
 * node when `n` is neither. */
static SynNode key_argument(Ex *x, SynNode n)
{
    SynNode p = ex_parent(x, n);
    if (is(p, "arguments"))
        return n;
    /* `putItem({ Item })`: the variable as the item of the call's object */
    if (is(n, "shorthand_property_identifier") && is(p, "object") &&
        is(ex_parent(x, p), "arguments") &&
        (ex_text_eq(x, n, "Item") || ex_text_eq(x, n, "item") ||
         ex_name_has_word(ex_ntext(x, n), "key")))
        return p;
    const char *name = is(p, "pair") ? ex_prop_name(x, p) : NULL;
    if (!name || (!ex_name_has_word(name, "key") && !ex_name_has_word(name, "keys")) ||
        !syn_eq(field(p, "value"), n))
        return (SynNode){0};
    SynNode obj = ex_parent(x, p);
    return is(obj, "object") && is(ex_parent(x, obj), "arguments") ? obj : (SynNode){0};
}

/* Method names of data-access wrappers: an object literal passed to one is
 * a key at a read or write site even when the API is the project's own. */
static KeySite call_site_of(Ex *x, SynNode obj, bool *found)
{
    static const char *const writes[] = {"put", "create", "save", "insert", "upsert", "write",
                                         "add", "publish", "store", "persist", NULL};
    static const char *const reads[] = {"get", "find", "query", "list", "fetch", "load", "read",
                                        "delete", "remove", "update", "exists", "scan",
                                        "batch", "transact", NULL};
    *found = false;
    /* `{ PutRequest: { Item: {...} } }` of a batch write, wherever it is
     * built (`items.push(...)` before the batch is sent) */
    SynNode pair = ex_parent(x, obj);
    const char *pn = is(pair, "pair") ? ex_prop_name(x, pair) : NULL;
    SynNode req = pn ? ex_parent(x, ex_parent(x, pair)) : (SynNode){0};
    const char *rn = is(req, "pair") ? ex_prop_name(x, req) : NULL;
    if (rn && ((!strcmp(pn, "Item") && !strcmp(rn, "PutRequest")) ||
               (!strcmp(pn, "Key") && !strcmp(rn, "DeleteRequest")))) {
        *found = true;
        return !strcmp(pn, "Item") ? SITE_WRITE : SITE_READ;
    }
    SynNode args = ex_parent(x, key_argument(x, obj));
    if (!is(args, "arguments"))
        return SITE_OBJECT;
    SynNode call = ex_parent(x, args);
    if (!is(call, "call_expression"))
        return SITE_OBJECT;
    SynNode fn = unwrap(field(call, "function"));
    /* `db.get(Object.assign(new Item(), { pk, sk }))`: the object is the
     * item the outer call is handed */
    for (int hop = 0; hop < 4 && ex_text_eq(x, fn, "Object.assign"); hop++) {
        args = ex_parent(x, call);
        if (!is(args, "arguments") || !is(ex_parent(x, args), "call_expression"))
            return SITE_OBJECT;
        call = ex_parent(x, args);
        fn = unwrap(field(call, "function"));
    }
    const char *name = is(fn, "member_expression") ? ex_ntext(x, field(fn, "property"))
                     : is(fn, "identifier")        ? ex_ntext(x, fn)
                                                   : "";
    for (const char *const *w = writes; *w; w++)
        if (ex_name_has_word(name, *w)) {
            *found = true;
            return SITE_WRITE;
        }
    for (const char *const *w = reads; *w; w++)
        if (ex_name_has_word(name, *w)) {
            *found = true;
            return SITE_READ;
        }
    return SITE_OBJECT;
}

/* `get pk() { return `USER#${this.id}`; }` in a class: the entity's key. */
void ex_key_getter(Ex *x, SynNode n)
{
    SynNode first = syn_token(x->syn, n, 0);
    if (syn_null(first) || !ex_text_eq(x, first, "get"))
        return;
    SynNode name = field(n, "name");
    int role = key_role_for_name(x->cfg, ex_ntext(x, name));
    if (role < 0)
        return;
    SynNode body = field(n, "body");
    if (!is(body, "statement_block"))
        return;
    uint32_t cnt = syn_count(x->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode st = syn_child(x->syn, body, i);
        if (!is(st, "return_statement"))
            continue;
        SynNode e = unwrap(syn_child(x->syn, st, 0));
        if (!syn_null(e) && (ex_is_string_like(x, e) || is(e, "call_expression")))
            ex_add_key(x, e, (KeyRole)role, ex_ntext(x, name), SITE_ENTITY, -1, COND_NONE);
        return;
    }
}

/* An object handed to a call that is not data access: a response body
 * (`callback(null, {...})`, `res.json({...})`), a log line, an assertion. */
static bool passed_to_non_data_call(Ex *x, SynNode obj)
{
    static const char *const names[] = {
        "callback", "cb", "done", "next", "resolve", "reject", "json", "send", "end",
        "render", "log", "info", "warn", "error", "debug", "trace", "stringify", "expect",
        "toEqual", "toStrictEqual", "toMatchObject", "toHaveBeenCalledWith", "emit", NULL};
    SynNode args = ex_parent(x, obj);
    if (!is(args, "arguments"))
        return false;
    SynNode call = ex_parent(x, args);
    SynNode fn = unwrap(field(call, "function"));
    const char *name = is(fn, "member_expression") ? ex_ntext(x, field(fn, "property"))
                     : is(fn, "identifier")        ? ex_ntext(x, fn)
                                                   : "";
    for (const char *const *w = names; *w; w++)
        if (!strcmp(name, *w))
            return true;
    return false;
}

/* `const row = {...}; ... return row;` (or return f(row)) in a function. */
static bool returned_through_variable(Ex *x, SynNode obj)
{
    SynNode decl = ex_parent(x, obj);
    if (!is(decl, "variable_declarator"))
        return false;
    SynNode name = field(decl, "name");
    if (!is(name, "identifier"))
        return false;
    const char *var = ex_ntext(x, name);
    size_t vl = strlen(var);
    SynNode p = decl;
    for (int i = 0; i < 64 && !syn_null(p) && !is_function_node(p); i++)
        p = ex_parent(x, p);
    if (syn_null(p))
        return false;
    SynNode body = field(p, "body");
    if (!is(body, "statement_block"))
        return false;
    uint32_t cnt = syn_count(x->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode st = syn_child(x->syn, body, i);
        if (!is(st, "return_statement"))
            continue;
        const char *t = ex_ntext(x, st);
        for (const char *q = strstr(t, var); q; q = strstr(q + 1, var)) {
            bool left = q == t || !(isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '$' || q[-1] == '.');
            bool right = !(isalnum((unsigned char)q[vl]) || q[vl] == '_' || q[vl] == '$');
            if (left && right)
                return true;
        }
    }
    return false;
}

/* The later uses of a declared variable's name in its function: the
 * identifiers spelled like the name of `obj`'s declarator between the end of
 * the declaration and the end of the enclosing function, in source order.
 * later_uses() is false when `obj` is not the value of a plain
 * `const name = ...` inside a function; later_use_next() gives a null node
 * at the end. */
typedef struct {
    Ex *x;
    const char *var;
    uint32_t from, to;
    size_t next;
} LaterUses;

static bool later_uses(Ex *x, SynNode obj, LaterUses *it)
{
    SynNode decl = ex_parent(x, obj);
    if (!is(decl, "variable_declarator") || !is(field(decl, "name"), "identifier"))
        return false;
    SynNode fn = decl;
    for (int i = 0; i < 64 && !syn_null(fn) && !is_function_node(fn); i++)
        fn = ex_parent(x, fn);
    if (syn_null(fn))
        return false;
    *it = (LaterUses){ x, ex_ntext(x, field(decl, "name")), syn_end(decl), syn_end(fn), 0 };
    return true;
}

static SynNode later_use_next(LaterUses *it)
{
    Ex *x = it->x;
    while (it->next < syn_node_count(x->syn)) {
        SynNode n = syn_node_at(x->syn, it->next++);
        uint32_t b = syn_start(n);
        if (b >= it->from && b < it->to &&
            (is(n, "identifier") || is(n, "shorthand_property_identifier")) &&
            ex_text_eq(x, n, it->var))
            return n;
    }
    return syn_node_at(x->syn, SIZE_MAX);
}

/* How a variable-held object is used in its function: passed to a data
 * access call (`const item = {...}; await db.putItem(table, item); return
 * item;`: a key at that call's site, whatever the function returns), or
 * only to response and log calls (`callback(null, product)`: not a key). */
typedef enum { USE_OTHER, USE_DATA, USE_RESPONSE } VarUse;

static bool passed_to_non_data_call(Ex *x, SynNode obj);

static VarUse variable_use(Ex *x, SynNode obj, KeySite *site)
{
    LaterUses it;
    if (!later_uses(x, obj, &it))
        return USE_OTHER;
    /* the first data use's site, or a write among the later ones: an
     * item read to see whether it exists, then put, is written */
    bool response = false, data = false;
    for (SynNode n = later_use_next(&it); !syn_null(n); n = later_use_next(&it)) {
        if (syn_null(key_argument(x, n)))
            continue;
        bool found;
        KeySite s = call_site_of(x, n, &found);
        if (found && (!data || s == SITE_WRITE)) {
            *site = s;
            data = true;
            if (s == SITE_WRITE)
                break;
        } else if (!found && passed_to_non_data_call(x, n)) {
            response = true;
        }
    }
    return data ? USE_DATA : response ? USE_RESPONSE : USE_OTHER;
}

/* Whether `n` is an object literal of placeholders (`{ ':pk': v }`,
 * `{ '#pk': 'PK' }`: every property named with `mark` first) one of which
 * `expr` names. */
static bool placeholder_object(Ex *x, SynNode n, char mark, const char *expr)
{
    if (!is(n, "object"))
        return false;
    bool named = false;
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, n, i);
        if (!is(p, "pair"))
            continue;
        const char *name = ex_prop_name(x, p);
        if (!name || name[0] != mark || !name[1])
            return false;
        const char *at = strstr(expr, name);
        size_t len = strlen(name);
        while (at && (isalnum((unsigned char)at[len]) || at[len] == '_'))
            at = strstr(at + 1, name);
        named |= at != NULL;
    }
    return named;
}

/* The placeholders' object of a project's query parameters: its SDK name
 * in camelCase (`expressionAttributeValues`), or a short one (`values`,
 * `names`) when the object is one of placeholders the key condition uses. */
static SynNode placeholders_prop(Ex *x, SynNode obj, const char *full, const char *shortname,
                                 char mark, const char *expr)
{
    SynNode v = ex_follow(x, ex_find_prop(x, obj, full), NULL, NULL);
    if (!syn_null(v) || !expr)
        return v;
    v = ex_follow(x, ex_find_prop(x, obj, shortname), NULL, NULL);
    return placeholder_object(x, v, mark, expr) ? v : (SynNode){0};
}

/* A project's own data layer taking the SDK's query parameters in
 * camelCase: `{ tableName, indexName, keyCondition: 'pk = :v1 AND
 * begins_with(#sk, :v2)', expressionAttributeValues: { ':v1': { S: `org#${id}` } },
 * expressionAttributeNames }`, or with short names (`keyCondition: '#pk =
 * :pk'`, `names: { '#pk': 'PK' }`, `values: { ':pk': ... }`) when those
 * objects are the placeholders the key condition uses. The key condition
 * must be a DynamoDB expression string with values to look up (ddb-lib's
 * `keyCondition` is an object, handled with its call). */
bool ex_camel_query_params(Ex *x, SynNode obj)
{
    SynNode kce = ex_find_prop(x, obj, "keyConditionExpression");
    if (syn_null(kce))
        kce = ex_find_prop(x, obj, "keyCondition");
    if (syn_null(kce)) /* `{ key: 'PK = :pk', values: {...} }`: held to the same test */
        kce = ex_find_prop(x, obj, "key");
    if (syn_null(kce))
        return false;
    const char *s = ex_expr_string(x, kce);
    if (!s || !strchr(s, ':') || !strchr(s, '='))
        return false;
    SynNode values = placeholders_prop(x, obj, "expressionAttributeValues", "values", ':', s);
    if (!is(values, "object"))
        return false;
    ex_consume(x, obj);
    ex_consume(x, values);
    int op = ex_add_op(x, OP_QUERY, API_SDK_V3, obj, "params");
    DataOp *d = &x->ir->ops.v[op];
    const char *name;
    SynNode table = ex_find_prop(x, obj, "tableName");
    if (ex_string_value(x, table, &name) && name[0]) {
        d->table = name;
        d->table_literal = true;
    } else if (!syn_null(table) && !ex_string_value(x, table, &name)) {
        d->table = ex_ntext(x, unwrap(table));
    }
    SynNode index = ex_find_prop(x, obj, "indexName");
    if (!syn_null(index))
        d->index = ex_string_value(x, index, &name) ? name : ex_ntext(x, unwrap(index));
    SynNode names = placeholders_prop(x, obj, "expressionAttributeNames", "names", '#', s);
    d->key_condition = s;
    d->key_condition_span = nspan(unwrap(kce));
    d->key_condition_exact = ex_plain_literal(x, unwrap(kce));
    ex_key_conditions(x, s, names, values, op, d->index != NULL);
    return true;
}

/* `{ ...values, ...options?.expressionAttributeValues }`: an object of
 * spreads, one of a local object of placeholders `expr` uses, the others
 * of values extraction does not know; no pair of another kind. */
static bool placeholder_spreads(Ex *x, SynNode n, char mark, const char *expr)
{
    if (!is(n, "object"))
        return false;
    bool named = false;
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, n, i);
        if (!is(p, "spread_element"))
            return false;
        SynNode inner = ex_follow(x, syn_child(x->syn, p, 0), NULL, NULL);
        if (is(inner, "object") && !placeholder_object(x, inner, mark, expr))
            return false;
        named |= is(inner, "object");
    }
    return named;
}

/* The placeholders' object among a call's arguments for key condition
 * `s`: an argument that is one (`{ ':pk': ... }`), or the SDK-named or
 * camelCase property of an options argument (`{ expressionAttributeValues:
 * { ':pk': ... } }`); `mark` ':' for values, '#' for names. */
SynNode ex_placeholders_arg(Ex *x, SynNode args, char mark, const char *s)
{
    uint32_t cnt = syn_count(x->syn, args);
    const char *full = mark == ':' ? "ExpressionAttributeValues" : "ExpressionAttributeNames";
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode a = ex_follow(x, syn_child(x->syn, args, i), NULL, NULL);
        if (placeholder_object(x, a, mark, s))
            return a;
        if (!is(a, "object"))
            continue;
        SynNode v = ex_follow(x, ex_find_prop(x, a, full), NULL, NULL);
        if (syn_null(v))
            v = ex_follow(x, ex_find_prop(x, a, mark == ':' ? "expressionAttributeValues"
                                                            : "expressionAttributeNames"),
                          NULL, NULL);
        if (placeholder_object(x, v, mark, s) || placeholder_spreads(x, v, mark, s))
            return v;
    }
    return (SynNode){0};
}

const char *ex_expression_arg(Ex *x, SynNode args, bool (*accept)(Ex *x, const char *e),
                              bool partial, SynNode *at)
{
    *at = (SynNode){0};
    uint32_t cnt = syn_count(x->syn, args);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode a = unwrap(syn_child(x->syn, args, i));
        if (!is(a, "string") && !is(a, "template_string") && !is(a, "identifier") &&
            !is(a, "binary_expression"))
            continue;
        x->partial_joins = partial;
        const char *e = ex_expr_string(x, a);
        x->partial_joins = false;
        if (e && accept(x, e)) {
            *at = a;
            return e;
        }
    }
    return NULL;
}

/* A key condition with at least one comparison (`PK = :pk AND ...`). */
static bool key_condition_text(Ex *x, const char *e)
{
    KeyConds kc = {0};
    return strchr(e, ':') && strchr(e, '=') && ddb_parse_key_condition(x->a, e, &kc) &&
           kc.items.n;
}

/* A project's query function that takes the key condition and its values
 * as separate arguments: `queryItems(TABLE(), 'PK = :pk AND begins_with(SK,
 * :skPrefix)', { ':pk': `EVENT#${id}`, ':skPrefix': 'ROLE#' }, { indexName:
 * 'GSI4' })`, `db.query(table, kce, names, values)`. The call is a query
 * when one argument is a key condition with values to look up and another
 * the object of the placeholders it uses; its table is the project's
 * function's business (API_SDK_PART: no table rule judges it). */
bool ex_positional_query(Ex *x, SynNode call)
{
    SynNode args = field(call, "arguments");
    SynNode fn = unwrap(field(call, "function"));
    if (syn_null(args) || (!is(fn, "identifier") && !is(fn, "member_expression")))
        return false;
    /* `scanAllKeys(table, 'begins_with(PK, :p)', {...})`: a function named
     * for a scan or a filter takes a filter expression, no key condition */
    const char *fname = ex_ntext(x, fn), *dot = fname ? strrchr(fname, '.') : NULL;
    fname = dot ? dot + 1 : fname;
    if (fname && (ex_name_has_word(fname, "scan") || ex_name_has_word(fname, "filter")))
        return false;
    uint32_t cnt = syn_count(x->syn, args);
    SynNode kce;
    const char *s = ex_expression_arg(x, args, key_condition_text, false, &kce);
    if (!s)
        return false;
    SynNode values = ex_placeholders_arg(x, args, ':', s);
    if (!is(values, "object") || ex_consumed(x, values))
        return false;
    SynNode names = ex_placeholders_arg(x, args, '#', s);
    ex_consume(x, values);
    int op = ex_add_op(x, OP_QUERY, API_SDK_PART, call, ex_ntext(x, fn));
    DataOp *d = &x->ir->ops.v[op];
    for (uint32_t i = 0; i < cnt && !d->index; i++) {
        SynNode a = ex_follow(x, syn_child(x->syn, args, i), NULL, NULL);
        SynNode index = is(a, "object") ? ex_find_prop(x, a, "indexName") : (SynNode){0};
        if (syn_null(index) && is(a, "object"))
            index = ex_find_prop(x, a, "IndexName");
        const char *name;
        if (!syn_null(index))
            d->index = ex_string_value(x, index, &name) ? name : ex_ntext(x, unwrap(index));
    }
    d->key_condition = s;
    d->key_condition_span = nspan(kce);
    d->key_condition_exact = ex_plain_literal(x, kce);
    /* which index the function queries is its business: an attribute is
     * a key here by its spelling only (`is_public = :p` may be an index's
     * partition key, not the table's) */
    x->spelled_only = true;
    ex_key_conditions(x, s, names, values, op, d->index != NULL);
    x->spelled_only = false;
    return true;
}

static bool name_in(const char *name, const char *const *list)
{
    for (; name && *list; list++)
        if (!strcmp(name, *list))
            return true;
    return false;
}

/* A value that describes a type instead of holding one: a schema
 * library's builder chain (`z.string().min(1)`, `yup.string().required()`,
 * `Type.String()`, valibot's `string()`), or a constructor used as a type
 * (`{ pk: String }`). */
static bool type_descriptor(Ex *x, SynNode v)
{
    static const char *const ctors[] = {"String", "Number", "Boolean", "Date", "Object",
                                        "Array", "Buffer", NULL};
    static const char *const builders[] = {
        "string", "number", "boolean", "bigint", "literal", "enum", "nativeEnum", "date",
        "object", "array", "union", "any", "unknown", "optional", "nullable", "String",
        "Number", "Boolean", "Literal", "Union", "Optional", "Array", "Object", "Enum", NULL};
    v = unwrap(v);
    if (is(v, "identifier"))
        return name_in(ex_ntext(x, v), ctors);
    /* down the chain to its first call: `z.string()` of `z.string().min(1)` */
    while (is(v, "call_expression")) {
        SynNode fn = unwrap(field(v, "function"));
        if (is(fn, "identifier"))
            return name_in(ex_ntext(x, fn), builders);
        if (!is(fn, "member_expression"))
            return false;
        SynNode obj = unwrap(field(fn, "object"));
        if (is(obj, "call_expression")) {
            v = obj;
            continue;
        }
        /* `z.string`, `z.coerce.string`: a namespace's builder */
        while (is(obj, "member_expression"))
            obj = unwrap(field(obj, "object"));
        return is(obj, "identifier") && name_in(ex_ntext(x, field(fn, "property")), builders);
    }
    return false;
}

/* An object that declares attribute types, not values: SST's `fields: {
 * pk: 'string', sk: 'string' }`, `{ pk: 'S' }`, a validation schema's
 * `z.object({ PK: z.string().min(1), entityType: z.literal('order') })`:
 * every key attribute a type, every text a type's name or a key
 * attribute's (`{ partition_key: 'PK', sort_key: 'SK' }`, a table's
 * contract). */
static bool attribute_types(Ex *x, SynNode obj)
{
    static const char *const types[] = {"string", "number", "binary", "S", "N", "B", NULL};
    uint32_t cnt = syn_count(x->syn, obj);
    bool any = false;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair"))
            continue;
        SynNode value = syn_prop_value(x->syn, p);
        const char *v;
        if (ex_string_value(x, value, &v)) {
            /* `{ partition_key: 'PK', sort_key: 'SK' }`: which attributes
             * are the keys, a name not a value */
            if (!name_in(v, types) && key_role_for_name(x->cfg, v) < 0)
                return false;
        } else if (!type_descriptor(x, value)) {
            /* `subject: subjectSchema` beside `PK: z.string()`: only the
             * key attributes must be types */
            const char *name = ex_prop_name(x, p);
            if (!name || key_role_for_name(x->cfg, name) >= 0)
                return false;
            continue;
        }
        any = true;
    }
    return any;
}

/* A map of codes (`{ US: 'USD', PK: 'PKR', SK: 'EUR', ... }`): at least
 * LOOKUP_MAP_ENTRIES properties that are no key attributes, and every
 * value a plain string. Its `PK` is one more code, not a key. */
enum { LOOKUP_MAP_ENTRIES = 8 };

static bool lookup_map(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    int others = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair") || !ex_plain_literal(x, unwrap(syn_prop_value(x->syn, p))))
            return false;
        if (key_role_for_name(x->cfg, ex_prop_name(x, p)) < 0)
            others++;
    }
    return others >= LOOKUP_MAP_ENTRIES;
}

/* `const Key = { pk: id, sk }` given later in its function as the `Key`
 * (or `Item`) of a request that names its table (`{ TableName, Key,
 * UpdateExpression }`): the operation's key, which the operation records;
 * spread into another object (`return { ...Key, updatedAt }`), it makes
 * that object no object of keys. */
static bool operation_key_later(Ex *x, SynNode obj)
{
    LaterUses it;
    if (!later_uses(x, obj, &it))
        return false;
    for (size_t i = 0; i < syn_node_count(x->syn); i++) {
        SynNode n = syn_node_at(x->syn, i);
        uint32_t b = syn_start(n);
        if (b < it.from || b >= it.to || !ex_text_eq(x, n, it.var))
            continue;
        SynNode req = (SynNode){0};
        const char *as = NULL;
        if (is(n, "shorthand_property_identifier")) {
            req = ex_parent(x, n);
            as = it.var;
        } else if (is(n, "identifier") && is(ex_parent(x, n), "pair") &&
                   syn_eq(unwrap(field(ex_parent(x, n), "value")), n)) {
            req = ex_parent(x, ex_parent(x, n));
            as = ex_prop_name(x, ex_parent(x, n));
        }
        if (as && (!strcmp(as, "Key") || !strcmp(as, "Item")) && is(req, "object") &&
            !syn_null(ex_find_prop(x, req, "TableName")))
            return true;
    }
    return false;
}

/* `const base = { PK, SK, ... }` spread into an object literal later in
 * its function (`return { ...base, ...(gsi ? gsi : {}) }`): its keys are
 * read there, with the keys spread beside them, as one item. */
static bool spread_later(Ex *x, SynNode obj)
{
    LaterUses it;
    if (!later_uses(x, obj, &it))
        return false;
    for (SynNode n = later_use_next(&it); !syn_null(n); n = later_use_next(&it)) {
        SynNode sp = ex_parent(x, n);
        if (is(sp, "spread_element") && is(ex_parent(x, sp), "object"))
            return true;
    }
    return false;
}

/* The key attributes of object `n` (keys), and those whose value is built
 * here (built); with `spreads`, also those of an object held in a
 * variable and spread into it (`...base`). */
static void count_keys(Ex *x, SynNode n, bool spreads, bool query, int *keys, int *built)
{
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, n, i);
        if (is(p, "spread_element")) {
            SynNode o = ex_follow(x, syn_child(x->syn, p, 0), NULL, NULL);
            if (spreads && is(o, "object") && !syn_eq(o, n) && !operation_key_later(x, o))
                count_keys(x, o, false, query, keys, built);
            continue;
        }
        const char *pn = ex_prop_name(x, p);
        int role = key_role_for_name(x->cfg, pn);
        if (role < 0 && query && key_name_is_sk_prefix(pn))
            role = ROLE_SK;
        if (role < 0 && !attr_is_deferred(pn))
            continue;
        /* the low-level client's `PK: { S: `ALLIANCE` }` holds its value */
        SynNode v = unwrap(ex_attribute_value(x, syn_prop_value(x->syn, p)));
        if (syn_null(v) || !ex_value_can_be_key(x, v) || is(v, "object"))
            continue;
        (*keys)++;
        /* built here, or in a local the property names (`const id =
         * ['dm', a, b].join('#'); put({ pk: id })`) */
        SynNode held = is(v, "identifier") || is(v, "shorthand_property_identifier")
                           ? ex_follow(x, v, NULL, NULL)
                           : v;
        if (ex_is_string_like(x, held) || is(held, "call_expression"))
            (*built)++;
    }
}

/* The function an object literal is handed to, as argument `*arg` of a
 * call by name (`reset(table, { PK, SK })`), or through a `const` whose
 * first later use in its function is as an argument: the callee as
 * written, NULL when none. Resolution decides whether that function
 * writes or reads it (HelperDef.param_uses). */
static const char *argument_of(Ex *x, SynNode obj, unsigned *arg)
{
    SynNode use = obj;
    LaterUses it;
    if (later_uses(x, obj, &it)) {
        for (use = later_use_next(&it); !syn_null(use) && !is(ex_parent(x, use), "arguments");
             use = later_use_next(&it))
            ;
        if (syn_null(use))
            return NULL;
    }
    SynNode p = ex_parent(x, use);
    if (!is(p, "arguments"))
        return NULL;
    SynNode call = ex_parent(x, p);
    SynNode fn = is(call, "call_expression") ? unwrap(field(call, "function")) : (SynNode){0};
    if (!is(fn, "identifier") && !is(fn, "member_expression"))
        return NULL;
    uint32_t cnt = syn_count(x->syn, p);
    for (uint32_t i = 0; i < cnt; i++)
        if (syn_eq(syn_child(x->syn, p, i), use)) {
            *arg = i;
            return ex_inherited_callee(x, call, ex_ntext(x, fn));
        }
    return NULL;
}

/* Whether object `obj` names an index to read (`indexName`, `index_name`,
 * `IndexName`, `index`), with a value that is not empty. */
static bool names_index(Ex *x, SynNode obj)
{
    static const char *const names[] = {"IndexName", "indexName", "index_name", "index"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        SynNode v = unwrap(ex_find_prop(x, obj, names[i]));
        const char *text;
        if (!syn_null(v) && !is(v, "undefined") && !is(v, "null") &&
            !(ex_string_value(x, v, &text) && !*text))
            return true;
    }
    return false;
}

/* `{ attendeeId: { S: `${title}/${id}` } }`: an object of the low-level
 * client's typed attribute values ({ S: ... } or { N: ... } each), which
 * only a DynamoDB key or item is. */
static bool typed_attribute_map(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj), pairs = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "comment"))
            continue;
        SynNode v = is(p, "pair") ? unwrap(syn_prop_value(x->syn, p)) : (SynNode){0};
        if (!is(v, "object") || syn_eq(ex_attribute_value(x, v), v) || !ex_prop_name(x, p))
            return false;
        pairs++;
    }
    return pairs > 0;
}

/* A property whose value a function named for a key returns (a word
 * `key`, `pk` or `sk` in its name: `auditKey: registrationAuditKey(reg)`,
 * `orderPk(id)`). */
static bool helper_keyed(Ex *x, SynNode p)
{
    static const char *const words[] = {"key", "pk", "sk", NULL};
    SynNode v = is(p, "pair") ? unwrap(syn_prop_value(x->syn, p)) : (SynNode){0};
    if (is(p, "shorthand_property_identifier")) { /* `const auditKey = eventAuditKey(e)` */
        Binding b = ex_find_binding(x, p, ex_ntext(x, p), false);
        v = b.found && !b.param ? unwrap(b.value) : (SynNode){0};
    }
    SynNode fn = is(v, "call_expression") ? unwrap(field(v, "function")) : (SynNode){0};
    if (is(fn, "member_expression"))
        fn = field(fn, "property");
    if (!is(fn, "identifier") && !is(fn, "property_identifier"))
        return false;
    for (const char *const *w = words; *w; w++)
        if (ex_name_has_word(ex_ntext(x, fn), *w))
            return true;
    return false;
}

static bool keyed_by_helper(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++)
        if (helper_keyed(x, syn_child(x->syn, obj, i)))
            return true;
    return false;
}

/* Such an object handed to a project function (`getItem(table, {
 * attendeeId: { S: ... } })`): every attribute is a key when the function
 * reads or writes the parameter as a Key or an Item (resolution), its
 * role as its table settles it; dropped otherwise. So is the property an
 * object keyed by a helper holds (`audit({ auditKey:
 * registrationAuditKey(reg), message })`: auditKey, not message). */
static bool argument_keys(Ex *x, SynNode n, bool typed)
{
    unsigned arg;
    const char *callee;
    if (!(typed ? typed_attribute_map(x, n) : keyed_by_helper(x, n)) ||
        !(callee = argument_of(x, n, &arg)))
        return false;
    size_t first = x->ir->extracted.n;
    KeyNamedBy was = x->named;
    x->named = NAMED_KEY_MAP;
    x->candidate = true;
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, n, i);
        if (is(p, "pair") && (typed || helper_keyed(x, p)))
            ex_add_key_branches(x, syn_prop_value(x->syn, p), ROLE_KEY, ex_prop_name(x, p),
                                SITE_OBJECT, -1, COND_NONE);
        else if (!typed && helper_keyed(x, p))
            ex_add_key_branches(x, p, ROLE_KEY, ex_ntext(x, p), SITE_OBJECT, -1, COND_NONE);
    }
    x->candidate = false;
    x->named = was;
    for (size_t i = first; i < x->ir->extracted.n; i++) {
        x->ir->extracted.v[i].arg_of = callee;
        x->ir->extracted.v[i].arg_index = arg;
    }
    return true;
}

/* An object literal no data operation read: its key attributes by their
 * spelling, at the site its use says. */
static void spelled_object_keys(Ex *x, SynNode n)
{
    /* at least one key attribute whose value is built here, or two */
    int keys = 0, built = 0;
    bool at_call;
    KeySite site = call_site_of(x, n, &at_call);
    count_keys(x, n, true, at_call && site == SITE_READ, &keys, &built);
    if ((keys < 2 && built < 1) || passed_to_non_data_call(x, n) || attribute_types(x, n) ||
        spread_later(x, n))
        return;
    if (!at_call) {
        VarUse use = variable_use(x, n, &site);
        if (use == USE_RESPONSE)
            return;
        at_call = use == USE_DATA;
    }
    if (!at_call && is_returned(x, n)) {
        /* `Keys: ids.map((id) => ({ pk: id, sk }))`: the keys of the call
         * the mapped list is passed to, not a helper's definition */
        SynNode map = mapped_by(x, n);
        if (!syn_null(map)) {
            KeySite s = call_site_of(x, map, &at_call);
            if (at_call)
                site = s;
        }
    }
    if (!at_call && (is_returned(x, n) || returned_through_variable(x, n)))
        site = SITE_ENTITY;
    else if (!at_call && lookup_map(x, n))
        return;
    size_t first = x->ir->extracted.n;
    ex_key_object(x, n, site, -1);
    /* `{ index_name: STATUS_GSI, partition_key }` handed to a project's
     * query: the keys are the index's */
    if (names_index(x, n))
        for (size_t i = first; i < x->ir->extracted.n; i++) {
            KeyExpr *k = &x->ir->extracted.v[i];
            if (k->role == ROLE_PK)
                k->role = ROLE_INDEX_PK;
            else if (k->role == ROLE_SK)
                k->role = ROLE_INDEX_SK;
        }
    unsigned arg;
    const char *callee = site == SITE_OBJECT ? argument_of(x, n, &arg) : NULL;
    for (size_t i = first; callee && i < x->ir->extracted.n; i++) {
        x->ir->extracted.v[i].arg_of = callee;
        x->ir->extracted.v[i].arg_index = arg;
    }
}

/* (extract_int.h) An object handed to a function keyed by a helper is
 * read so only when its attributes' spelling says no key. */
void ex_object_keys(Ex *x, SynNode n)
{
    if (argument_keys(x, n, true))
        return;
    size_t before = x->ir->extracted.n;
    spelled_object_keys(x, n);
    if (x->ir->extracted.n == before)
        argument_keys(x, n, false);
}

/* `await this.putItem(item as Record<string, unknown>)`, `repo.save(order)`:
 * a variable or object handed to a function whose name says it writes
 * (put, create, save, insert, upsert, write, store, persist), as
 * resolution looks it up (ex_inherited_callee). Resolution says whether
 * the function puts it as an Item: then the file puts its items, and its
 * updates address them (project/access.c). */
void ex_item_calls(Ex *x, SynNode call)
{
    static const char *const writes[] = {"put", "create", "save", "insert", "upsert",
                                         "write", "store", "persist", NULL};
    SynNode fn = unwrap(field(call, "function"));
    const char *name = is(fn, "member_expression") ? ex_ntext(x, field(fn, "property"))
                     : is(fn, "identifier")        ? ex_ntext(x, fn)
                                                   : NULL;
    bool named = false;
    for (const char *const *w = writes; name && *w && !named; w++)
        named = ex_name_has_word(name, *w);
    SynNode args = field(call, "arguments");
    if (!named || syn_null(args))
        return;
    uint32_t cnt = syn_count(x->syn, args);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode a = unwrap(syn_child(x->syn, args, i));
        if (!is(a, "identifier") && !is(a, "object"))
            continue;
        ItemCall ic = {ex_inherited_callee(x, call, ex_ntext(x, fn)), i};
        VEC_PUSH(x->a, &x->ir->item_calls, ic);
    }
}
