/* Extraction: the syntax tree of one file (syntax.h) -> FileIR.
 *
 * Three passes over the tree:
 *   1. module level: imports, re-exports, constants, enums, key helpers
 *      (toplevel.c);
 *   2. data operations (SDK commands, DocumentClient calls, mbc services),
 *      each with the key objects, key conditions and update targets it holds;
 *   3. remaining object literals that carry key attributes (entity key
 *      definitions, command DTOs, key objects built for later use).
 * Values become key segments in segments.c; library profiles (Turbine,
 * ddb-lib, AppSync, wrappers) are in extract_libs.c, tables in code in
 * tables.c. The walks run over the syntax index (a preorder array of the
 * named nodes, syntax.h), not by recursion; expression-to-segment
 * conversion recurses, but never deeper than MAX_DEPTH (deeper input
 * becomes an UNKNOWN segment), so no input can exhaust the stack. */
#include "extract.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "extract_int.h"
#include "scope.h"
#include "syntax.h"
#include "tables.h"
#include "walk.h"


static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }
static bool is_function_node(SynNode n) { return syn_is_function(n); }

static void data_call(Ex *x, SynNode n);

static void call_expression(Ex *x, SynNode n)
{
    if (ex_lib_call(x, n))
        return;
    size_t ops = x->ir->ops.n;
    data_call(x, n);
    if (x->ir->ops.n == ops)
        ex_call_site(x, n);
}

static void data_call(Ex *x, SynNode n)
{
    SynNode fn = unwrap(field(n, "function"));
    if (!is(fn, "member_expression"))
        return;
    SynNode args = field(n, "arguments");
    if (syn_null(args))
        return;
    const char *method = ex_ntext(x, field(fn, "property"));
    const char *recv = ex_receiver_name(x, fn);
    ex_mbc_call(x, n, recv, method, args);
    ex_sdk_v2_call(x, n, recv, method, args);
}

/* ---- the tree walks ---------------------------------------------------- */

typedef void (*Visit)(Ex *x, SynNode n, const char *type);

/* Every named node in preorder (from the file's SyntaxIndex), with its
 * syn_type. */
static void walk(Ex *x, Visit visit)
{
    for (size_t i = 0; i < syn_node_count(x->syn); i++)
        visit(x, syn_node_at(x->syn, i), syn_type_at(x->syn, i));
}

/* Comments that mention keylint (suppression directives), in order. */
static void keylint_comments(Ex *x)
{
    for (size_t i = 0; i < syn_comment_count(x->syn); i++) {
        SynNode n = syn_comment_at(x->syn, i);
        uint32_t b = syn_start(n), e = syn_end(n);
        if (e <= x->len && b < e && memmem(x->src + b, e - b, "keylint", 7)) {
            Comment cm = {nspan(n), ex_ntext(x, n)};
            VEC_PUSH(x->a, &x->ir->comments, cm);
        }
    }
}

static void visit_ops(Ex *x, SynNode n, const char *t)
{
    if (syn_type_is(t, "new_expression")) {
        if (!ex_lib_new(x, n))
            ex_sdk_command(x, n);
    }
    else if (syn_type_is(t, "call_expression"))
        call_expression(x, n);
}

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
        if (!syn_type_is(t, "parenthesized_expression") && !syn_type_is(t, "as_expression") &&
            !syn_type_is(t, "satisfies_expression"))
            return false;
        p = ex_parent(x, p);
    }
    return false;
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
    SynNode args = ex_parent(x, key_argument(x, obj));
    if (!is(args, "arguments"))
        return SITE_OBJECT;
    SynNode call = ex_parent(x, args);
    if (!is(call, "call_expression"))
        return SITE_OBJECT;
    SynNode fn = unwrap(field(call, "function"));
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
static void key_getter(Ex *x, SynNode n)
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

/* How a variable-held object is used in its function: passed to a data
 * access call (`const item = {...}; await db.putItem(table, item); return
 * item;`: a key at that call's site, whatever the function returns), or
 * only to response and log calls (`callback(null, product)`: not a key). */
typedef enum { USE_OTHER, USE_DATA, USE_RESPONSE } VarUse;

static bool passed_to_non_data_call(Ex *x, SynNode obj);

static VarUse variable_use(Ex *x, SynNode obj, KeySite *site)
{
    SynNode decl = ex_parent(x, obj);
    if (!is(decl, "variable_declarator") || !is(field(decl, "name"), "identifier"))
        return USE_OTHER;
    const char *var = ex_ntext(x, field(decl, "name"));
    SynNode fn = decl;
    for (int i = 0; i < 64 && !syn_null(fn) && !is_function_node(fn); i++)
        fn = ex_parent(x, fn);
    if (syn_null(fn))
        return USE_OTHER;
    uint32_t from = syn_end(decl), to = syn_end(fn);
    bool response = false;
    for (size_t i = 0; i < syn_node_count(x->syn); i++) {
        SynNode n = syn_node_at(x->syn, i);
        uint32_t b = syn_start(n);
        if (b < from || b >= to || !is(n, "identifier") || !ex_text_eq(x, n, var))
            continue;
        if (syn_null(key_argument(x, n)))
            continue;
        bool found;
        KeySite s = call_site_of(x, n, &found);
        if (found) {
            *site = s;
            return USE_DATA;
        }
        if (passed_to_non_data_call(x, n))
            response = true;
    }
    return response ? USE_RESPONSE : USE_OTHER;
}

/* A raw AppSync DynamoDB request, the object a JS resolver's request()
 * returns: `{ operation: 'Query', index, query: { expression,
 * expressionNames, expressionValues } }`, `{ operation: 'GetItem', key }`,
 * `{ operation: 'PutItem', key, attributeValues }`. */
static bool appsync_request(Ex *x, SynNode obj)
{
    static const struct { const char *name; OpKind kind; } ops[] = {
        {"GetItem", OP_GET},        {"PutItem", OP_PUT},
        {"UpdateItem", OP_UPDATE},  {"DeleteItem", OP_DELETE},
        {"Query", OP_QUERY},        {"Scan", OP_SCAN},
        {"Sync", OP_SCAN},          {"BatchGetItem", OP_BATCH_GET},
        {"BatchPutItem", OP_BATCH_WRITE}, {"BatchDeleteItem", OP_BATCH_WRITE},
        {"TransactGetItems", OP_TRANSACT_GET}, {"TransactWriteItems", OP_TRANSACT_WRITE}};
    const char *opname;
    if (!ex_string_value(x, ex_find_prop(x, obj, "operation"), &opname))
        return false;
    size_t i = 0;
    while (i < sizeof ops / sizeof *ops && strcmp(ops[i].name, opname))
        i++;
    if (i == sizeof ops / sizeof *ops)
        return false;
    ex_consume(x, obj);
    int op = ex_add_op(x, ops[i].kind, API_APPSYNC, obj,
                       arena_dot(x->a, "appsync", opname));
    DataOp *d = &x->ir->ops.v[op];
    SynNode index = ex_find_prop(x, obj, "index");
    const char *s;
    if (!syn_null(index))
        d->index = ex_string_value(x, index, &s) ? s : ex_ntext(x, unwrap(index));
    SynNode key = ex_find_prop(x, obj, "key");
    if (!syn_null(key))
        ex_key_object(x, key, ops[i].kind == OP_PUT ? SITE_WRITE : SITE_READ, op);
    SynNode item = ex_find_prop(x, obj, "attributeValues");
    if (!syn_null(item))
        ex_key_object(x, item, SITE_WRITE, op);
    SynNode q = ex_follow(x, ex_find_prop(x, obj, "query"), NULL, NULL);
    if (is(q, "object")) {
        ex_consume(x, q);
        const char *kce = ex_expr_string(x, ex_find_prop(x, q, "expression"));
        SynNode names = ex_follow(x, ex_find_prop(x, q, "expressionNames"), NULL, NULL);
        SynNode values = ex_follow(x, ex_find_prop(x, q, "expressionValues"), NULL, NULL);
        if (is(values, "object"))
            ex_consume(x, values);
        if (kce) {
            d->key_condition = kce;
            d->key_condition_span = nspan(unwrap(ex_find_prop(x, q, "expression")));
            d->key_condition_exact = ex_plain_literal(x, unwrap(ex_find_prop(x, q, "expression")));
            ex_key_conditions(x, kce, names, values, op, d->index != NULL);
        }
    }
    return true;
}

/* A project's own data layer taking the SDK's query parameters in
 * camelCase: `{ tableName, indexName, keyCondition: 'pk = :v1 AND
 * begins_with(#sk, :v2)', expressionAttributeValues: { ':v1': { S: `org#${id}` } },
 * expressionAttributeNames }`. The key condition must be a DynamoDB
 * expression string with values to look up (ddb-lib's `keyCondition` is an
 * object, handled with its call). */
static bool camel_query_params(Ex *x, SynNode obj)
{
    SynNode kce = ex_find_prop(x, obj, "keyConditionExpression");
    if (syn_null(kce))
        kce = ex_find_prop(x, obj, "keyCondition");
    if (syn_null(kce))
        return false;
    SynNode values = ex_follow(x, ex_find_prop(x, obj, "expressionAttributeValues"), NULL, NULL);
    const char *s = is(values, "object") ? ex_expr_string(x, kce) : NULL;
    if (!s || !strchr(s, ':') || !strchr(s, '='))
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
    SynNode names = ex_follow(x, ex_find_prop(x, obj, "expressionAttributeNames"), NULL, NULL);
    d->key_condition = s;
    d->key_condition_span = nspan(unwrap(kce));
    d->key_condition_exact = ex_plain_literal(x, unwrap(kce));
    ex_key_conditions(x, s, names, values, op, d->index != NULL);
    return true;
}

/* An object that declares attribute types, not values: SST's `fields: {
 * pk: 'string', sk: 'string' }`, `{ pk: 'S' }`. */
static bool attribute_types(Ex *x, SynNode obj)
{
    static const char *const types[] = {"string", "number", "binary", "S", "N", "B", NULL};
    uint32_t cnt = syn_count(x->syn, obj);
    bool any = false;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair"))
            continue;
        const char *v;
        if (!ex_string_value(x, syn_prop_value(x->syn, p), &v))
            return false;
        bool type = false;
        for (const char *const *t = types; *t && !type; t++)
            type = !strcmp(v, *t);
        if (!type)
            return false;
        any = true;
    }
    return any;
}

static void visit_objects(Ex *x, SynNode n, const char *t)
{
    if (syn_type_is(t, "method_definition")) {
        key_getter(x, n);
        return;
    }
    if (!syn_type_is(t, "object") || ex_consumed(x, n))
        return;
    if (ex_params_shaped(x, n)) {
        ex_params_op(x, n);
        return;
    }
    if (appsync_request(x, n) || camel_query_params(x, n))
        return;
    /* at least one key attribute whose value is built here, or two */
    uint32_t cnt = syn_count(x->syn, n);
    int keys = 0, built = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, n, i);
        const char *pn = ex_prop_name(x, p);
        int role = key_role_for_name(x->cfg, pn);
        if (role < 0 && !attr_is_deferred(pn))
            continue;
        SynNode v = unwrap(syn_prop_value(x->syn, p));
        if (syn_null(v) || !ex_value_can_be_key(x, v) || is(v, "object"))
            continue;
        keys++;
        if (ex_is_string_like(x, v) || is(v, "call_expression"))
            built++;
    }
    if ((keys < 2 && built < 1) || passed_to_non_data_call(x, n) || attribute_types(x, n))
        return;
    bool at_call;
    KeySite site = call_site_of(x, n, &at_call);
    if (!at_call) {
        VarUse use = variable_use(x, n, &site);
        if (use == USE_RESPONSE)
            return;
        at_call = use == USE_DATA;
    }
    if (!at_call && (is_returned(x, n) || returned_through_variable(x, n)))
        site = SITE_ENTITY;
    ex_key_object(x, n, site, -1);
}

/* ---- entry points ------------------------------------------------------ */

enum { MAX_REGION_NOTES = 20 }; /* per file; the rest are counted */

/* A note for each region of the file left unread (syntax.h): the rest of
 * the file is extracted, and a note never changes the exit code. */
static void note_regions(const SynTree *syn, const char *path, Problems *problems)
{
    size_t n = syn_region_count(syn);
    for (size_t i = 0; i < n && i < MAX_REGION_NOTES; i++) {
        const Span *r = &syn_region_at(syn, i)->span;
        problems_add_kind(problems, PROBLEM_NOTE, path, r->start_row + 1, r->start_col + 1,
                          "syntax error, or syntax the parser does not know: lines %u-%u "
                          "not read (the rest of the file is)",
                          r->start_row + 1, r->end_row + 1);
    }
    if (n > MAX_REGION_NOTES) {
        const Span *r = &syn_region_at(syn, MAX_REGION_NOTES)->span;
        problems_add_kind(problems, PROBLEM_NOTE, path, r->start_row + 1, r->start_col + 1,
                          "%zu more regions with syntax errors not read, from line %u on",
                          n - MAX_REGION_NOTES, r->start_row + 1);
    }
}

/* What the IR keeps of extraction: when `compact`, a copy of what it
 * reaches, in an arena of its own. The texts read only to be compared, the
 * segment lists tried and dropped and the blocks that grown arrays left
 * behind go with the old arena (they were four fifths of it on real
 * services). */
enum { KEEP_ONE_COPY = 512 * 1024 };

static FileIR *keep(FileIR *ir, bool compact)
{
    /* Calls passing text to a function no lookup reaches (console.log,
     * t('title')) can never be expanded: not kept. */
    size_t n = 0;
    for (size_t i = 0; i < ir->extracted.n; i++) {
        const KeyExpr *k = &ir->extracted.v[i];
        if (!k->call_site || fileir_may_reach_helper(ir, k->segs.v[0].text))
            ir->extracted.v[n++] = *k;
    }
    ir->extracted.n = n;
    if (!compact)
        return ir;
    /* A small IR is copied twice: the first copy measures, the second
     * fills one block of that size (the first blocks of a small arena
     * would be mostly empty). A large one keeps its first copy. */
    for (int pass = 0; pass < 2; pass++) {
        size_t used = pass ? arena_used(ir->arena) : 0;
        if (pass && used >= KEEP_ONE_COPY)
            break; /* a large one's last block is small beside it */
        Copier c = copier_begin(pass ? arena_new_reserved(used) : arena_new());
        FileIR *out = fileir_copy(&c, ir);
        out->tables = tables_copy(&c, ir->tables);
        copier_end(&c);
        arena_free(ir->arena);
        ir = out;
    }
    return ir;
}

FileIR *extract_file(const char *path, const char *text, size_t len, const Config *cfg,
                     Problems *problems)
{
    return extract_file_reusing(path, text, len, cfg, problems, NULL);
}

FileIR *extract_file_reusing(const char *path, const char *text, size_t len,
                             const Config *cfg, Problems *problems, SynReuse *reuse)
{
    return extract_file_pooled(path, text, len, cfg, problems, reuse, NULL, true);
}

FileIR *extract_file_pooled(const char *path, const char *text, size_t len, const Config *cfg,
                            Problems *problems, SynReuse *reuse, ArenaPool *pool,
                            bool compact)
{
    /* an IR left in this arena must not draw on the pool: it can outlive it */
    Arena *a = compact ? arena_new_pooled(pool) : arena_new();
    FileIR *ir = arena_alloc(a, sizeof *ir);
    ir->arena = a;
    ir->path = arena_strdup(a, path);

    bool jsx = is_tsx_path(path);
    SynFailure why;
    SynTree *syn =
        syn_parse_pooled(text, len, jsx ? SYN_TSX : SYN_TYPESCRIPT, a, &why, reuse, pool);
    if (!syn) {
        ir->parse_failed = true;
        problems_add(problems, path, 0, 0, "%s; skipped",
                     why == SYN_GAVE_UP
                         ? "the parser gave up: recovering from this file's syntax errors "
                           "takes more work than any real file needs"
                         : "could not be parsed (out of memory)");
        return keep(ir, compact); /* out of `a`, which may be the pool's */
    }
    note_regions(syn, path, problems);
    ir->code_hash = syn_code_hash(syn);
    size_t budget = len < (SIZE_MAX - INLINE_BUDGET) / INLINE_PER_BYTE
                        ? INLINE_BUDGET + len * INLINE_PER_BYTE
                        : SIZE_MAX;
    Arena *scratch = arena_new_pooled(pool);
    Ex x = {.syn = syn, .a = a, .scratch = scratch, .ir = ir, .src = text, .len = len,
            .cfg = cfg, .scopes = scopes_build(syn, scratch), .inline_left = budget,
            .string_steps_left = budget};
    ex_module_pass(&x, syn_root(syn));
    keylint_comments(&x);
    walk(&x, visit_ops);
    walk(&x, visit_objects);
    extract_tables(syn, x.scopes, a, ir, cfg); /* tables in code: tables.c */
    syn_free(syn);
    arena_free(scratch);
    return keep(ir, compact);
}

void fileir_free(FileIR *ir)
{
    if (!ir)
        return;
    arena_free(ir->resolved);
    arena_free(ir->arena);
}
