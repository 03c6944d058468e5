/* Extraction, layer 3 (idioms): the AWS SDK. v3 commands (`new
 * QueryCommand({...})`), DocumentClient (v2) calls and lookalike clients,
 * and parameter objects of the SDK's shape wherever they are built; what a
 * parameters object holds: TableName, IndexName, Key, Item, key
 * conditions, update targets, batch and transaction requests. */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "ddbexpr.h"
#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }

static void params_object(Ex *x, SynNode obj, int op);

/* The object of names or values a property holds; of a conditional one
 * (`sk ? { ':pk': pk, ':sk': sk } : { ':pk': pk }`) the branch the key
 * condition beside it takes: the first, or the second when the params are
 * read for a ternary key condition's second arm (Ex.second_arm). */
static SynNode arm_taken(Ex *x, SynNode v)
{
    SynNode o = ex_follow(x, v, NULL, NULL);
    if (is(o, "ternary_expression"))
        o = ex_follow(x, field(o, x->second_arm ? "alternative" : "consequence"), NULL, NULL);
    return o;
}

/* Whether the key condition is a ternary of two expressions that differ
 * (`theme ? 'GSI1PK = :pk' : 'begins_with(GSI1PK, :pk)'`). */
static bool two_arm_condition(Ex *x, SynNode obj)
{
    SynNode kce = unwrap(ex_find_prop(x, obj, "KeyConditionExpression"));
    if (is(kce, "identifier")) { /* `kce += ...` in the arms of an if/else */
        const char *a = ex_expr_string(x, kce);
        x->second_arm = true;
        const char *b = ex_expr_string(x, kce);
        x->second_arm = false;
        return a && b && strcmp(a, b) != 0;
    }
    if (!is(kce, "ternary_expression"))
        return false;
    const char *a = ex_expr_string(x, field(kce, "consequence"));
    const char *b = ex_expr_string(x, field(kce, "alternative"));
    return a && b && strcmp(a, b) != 0;
}

/* `xs.map(x => ...)` (or `flatMap`) with an arrow: the arrow. */
static SynNode map_arrow(Ex *x, SynNode call)
{
    SynNode none = {0};
    if (!is(call, "call_expression"))
        return none;
    SynNode fn = unwrap(field(call, "function"));
    if (!is(fn, "member_expression") || (!ex_text_eq(x, field(fn, "property"), "map") &&
                                         !ex_text_eq(x, field(fn, "property"), "flatMap")))
        return none;
    SynNode arrow = unwrap(syn_child(x->syn, field(call, "arguments"), 0));
    return is(arrow, "arrow_function") ? arrow : none;
}

/* The one plain parameter of an arrow (`id => ...`, `(id: string) => ...`),
 * NULL otherwise. */
static const char *arrow_param(Ex *x, SynNode arrow)
{
    SynNode p = field(arrow, "parameter");
    if (is(p, "identifier"))
        return ex_ntext(x, p);
    SynNode ps = field(arrow, "parameters");
    if (syn_count(x->syn, ps) != 1)
        return NULL;
    SynNode first = syn_child(x->syn, ps, 0);
    SynNode pat = field(first, "pattern");
    return is(pat, "identifier") ? ex_ntext(x, pat) : NULL;
}

/* Array methods whose result holds elements of the array they are called
 * on: a batch of 25 keys cut from the keys (`keys.slice(i, i + 25)`). */
static bool keeps_elements(Ex *x, SynNode call, SynNode *array)
{
    if (!is(call, "call_expression"))
        return false;
    SynNode fn = unwrap(field(call, "function"));
    if (!is(fn, "member_expression"))
        return false;
    SynNode m = field(fn, "property");
    if (!ex_text_eq(x, m, "slice") && !ex_text_eq(x, m, "filter") &&
        !ex_text_eq(x, m, "splice") && !ex_text_eq(x, m, "reverse"))
        return false;
    *array = field(fn, "object");
    return true;
}

/* The values an array holds, as extraction can see them: an array
 * literal's elements (and those of an array spread in it: `[item,
 * ...pages.map((p) => ({...}))]`), or what `xs.map(x => value)` makes of
 * each element; through variables and slices of it. Fills out[0..max),
 * returns how many. */
static size_t elements_in(Ex *x, SynNode n, SynNode *out, size_t max, int depth);

static size_t elements_of(Ex *x, SynNode n, SynNode *out, size_t max)
{
    return elements_in(x, n, out, max, 0);
}

static size_t elements_in(Ex *x, SynNode n, SynNode *out, size_t max, int depth)
{
    n = ex_follow(x, n, NULL, NULL);
    SynNode from;
    for (int hop = 0; hop < MAX_BINDING_HOPS && keeps_elements(x, n, &from); hop++)
        n = ex_follow(x, from, NULL, NULL);
    size_t got = 0;
    if (is(n, "array")) {
        uint32_t cnt = syn_count(x->syn, n);
        for (uint32_t i = 0; i < cnt && got < max; i++) {
            SynNode el = syn_child(x->syn, n, i);
            if (is(el, "spread_element"))
                got += depth < 2 ? elements_in(x, syn_child(x->syn, el, 0), out + got,
                                               max - got, depth + 1)
                                 : 0;
            else
                out[got++] = el;
        }
        return got;
    }
    SynNode arrow = map_arrow(x, n);
    SynNode body = unwrap(field(arrow, "body"));
    if (is(body, "statement_block")) { /* `r => { ...; return [...]; }` */
        uint32_t cnt = syn_count(x->syn, body);
        SynNode last = cnt ? syn_child(x->syn, body, cnt - 1) : (SynNode){0};
        body = is(last, "return_statement") ? unwrap(syn_child(x->syn, last, 0)) : (SynNode){0};
    }
    /* flatMap: an array the arrow returns is several elements */
    bool flat = ex_text_eq(x, field(unwrap(field(n, "function")), "property"), "flatMap");
    if (flat && is(body, "array")) {
        uint32_t cnt = syn_count(x->syn, body);
        for (uint32_t i = 0; i < cnt && got < max; i++)
            out[got++] = syn_child(x->syn, body, i);
        return got;
    }
    if (!syn_null(body) && max)
        out[got++] = body;
    return got;
}

static OpKind op_kind_of_command(const char *name, bool *ok)
{
    static const struct { const char *name; OpKind kind; } cmds[] = {
        {"GetCommand", OP_GET},          {"GetItemCommand", OP_GET},
        {"PutCommand", OP_PUT},          {"PutItemCommand", OP_PUT},
        {"UpdateCommand", OP_UPDATE},    {"UpdateItemCommand", OP_UPDATE},
        {"DeleteCommand", OP_DELETE},    {"DeleteItemCommand", OP_DELETE},
        {"QueryCommand", OP_QUERY},      {"ScanCommand", OP_SCAN},
        {"BatchGetCommand", OP_BATCH_GET}, {"BatchGetItemCommand", OP_BATCH_GET},
        {"BatchWriteCommand", OP_BATCH_WRITE},
        {"BatchWriteItemCommand", OP_BATCH_WRITE},
        {"TransactGetCommand", OP_TRANSACT_GET},
        {"TransactGetItemsCommand", OP_TRANSACT_GET},
        {"TransactWriteCommand", OP_TRANSACT_WRITE},
        {"TransactWriteItemsCommand", OP_TRANSACT_WRITE},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (!strcmp(cmds[i].name, name)) {
            *ok = true;
            return cmds[i].kind;
        }
    *ok = false;
    return OP_GET;
}

static const struct { const char *name; OpKind kind; } transact_kinds[] = {
    {"Put", OP_PUT}, {"Update", OP_UPDATE}, {"Delete", OP_DELETE},
    {"ConditionCheck", OP_GET}, {"Get", OP_GET}};

/* One op for each member of a transaction item (`{ Put: {...} }`, `{
 * Update: {...} }`, ...) among the `n` nodes of `els`; true when there
 * was one. */
static bool transact_ops(Ex *x, const SynNode *els, size_t n, OpApi api, const char *callee)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        SynNode el = ex_follow(x, els[i], NULL, NULL);
        for (size_t k = 0; is(el, "object") && k < sizeof transact_kinds / sizeof *transact_kinds;
             k++) {
            SynNode inner = ex_find_prop(x, el, transact_kinds[k].name);
            if (syn_null(inner))
                continue;
            int op = ex_add_op(x, transact_kinds[k].kind, api, el,
                            arena_dot(x->a, callee, transact_kinds[k].name));
            params_object(x, inner, op);
            any = true;
        }
    }
    return any;
}

/* The elements of the array literal `arr`, at most max. */
static size_t array_elements(Ex *x, SynNode arr, SynNode *out, size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; is(arr, "array") && i < syn_count(x->syn, arr) && n < max; i++)
        out[n++] = syn_child(x->syn, arr, i);
    return n;
}

/* TransactItems: [{ Put: {...} }, { Update: {...} }, ...] */
static void transact_items(Ex *x, SynNode arr, OpApi api, const char *callee)
{
    SynNode el[MAX_BATCH_ELEMENTS];
    size_t n = array_elements(x, ex_follow(x, arr, NULL, NULL), el, MAX_BATCH_ELEMENTS);
    transact_ops(x, el, n, api, callee);
}

/* What a local array `arg` (a name declared with an array literal) is
 * given before `call`: its elements, then the arguments of each
 * `arg.push(...)` between its declaration and the call (conditional
 * pushes too: each may be an element). An array literal written in the
 * call: its elements. */
static size_t pushed_elements(Ex *x, SynNode arg, SynNode call, SynNode *out, size_t max)
{
    arg = unwrap(arg);
    if (!is(arg, "identifier"))
        return array_elements(x, arg, out, max);
    const char *name = ex_ntext(x, arg);
    Binding b = ex_find_binding(x, arg, name, false);
    SynNode init = b.found && !b.param ? unwrap(b.value) : (SynNode){0};
    size_t n = array_elements(x, init, out, max);
    if (!is(init, "array"))
        return n;
    bool changed = false; /* an unshift or splice: the pushes until then */
    BlockWalk w = ex_block_walk(x, b.decl, call, &x->string_steps_left);
    for (SynNode m; n < max && !syn_null(m = ex_push_next(x, &w, name, &changed));) {
        SynNode margs = field(m, "arguments");
        for (uint32_t i = 0; i < syn_count(x->syn, margs) && n < max; i++)
            out[n++] = syn_child(x->syn, margs, i);
    }
    return n;
}

/* One request of a batch write ({ Item } of a PutRequest, { Key } of a
 * DeleteRequest); a value that is the parameter of the `.map` arrow the
 * requests are made by stands for each element of the array mapped. */
static void batch_request(Ex *x, SynNode reqn, const char *prop, KeySite site, int op,
                          const char *param, SynNode mapped)
{
    KeyNamedBy named = site == SITE_WRITE ? NAMED_TABLE : NAMED_KEY_MAP;
    SynNode req = ex_follow(x, reqn, NULL, NULL);
    if (!is(req, "object"))
        return;
    SynNode v = unwrap(ex_find_prop(x, req, prop));
    if (param && is(v, "identifier") && ex_text_eq(x, v, param)) {
        SynNode el[MAX_BATCH_ELEMENTS];
        size_t n = elements_of(x, mapped, el, MAX_BATCH_ELEMENTS);
        for (size_t j = 0; j < n; j++)
            ex_op_key_object(x, el[j], site, op, named);
        return;
    }
    ex_op_key_object(x, v, site, op, named);
}

/* A project's wrapper of a batch write that takes its requests
 * (`db.batchWrite(batch)`, `router.batchWrite(accountId, batch)` with
 * `batch` a slice of `[{ DeleteRequest: { Key } }, ...rows.map(...)]`): a
 * call whose callee's last name says batchWrite with an argument whose
 * elements are PutRequest or DeleteRequest objects. */
static bool batch_wrapper(Ex *x, SynNode n, const char *callee)
{
    SynNode args = field(n, "arguments");
    for (uint32_t a = 0; a < syn_count(x->syn, args) && a < 4; a++) {
        SynNode el[MAX_BATCH_ELEMENTS];
        size_t cnt = elements_of(x, syn_child(x->syn, args, a), el, MAX_BATCH_ELEMENTS);
        bool any = false;
        for (size_t j = 0; j < cnt && !any; j++) {
            SynNode req = ex_follow(x, el[j], NULL, NULL);
            any = is(req, "object") && (!syn_null(ex_find_prop(x, req, "PutRequest")) ||
                                        !syn_null(ex_find_prop(x, req, "DeleteRequest")));
        }
        if (!any)
            continue;
        int op = ex_add_op(x, OP_BATCH_WRITE, API_SDK_PART, n, callee);
        for (size_t j = 0; j < cnt; j++) {
            SynNode req = ex_follow(x, el[j], NULL, NULL);
            if (!is(req, "object"))
                continue;
            batch_request(x, ex_find_prop(x, req, "PutRequest"), "Item", SITE_WRITE, op, NULL,
                          (SynNode){0});
            batch_request(x, ex_find_prop(x, req, "DeleteRequest"), "Key", SITE_READ, op, NULL,
                          (SynNode){0});
        }
        return true;
    }
    return false;
}

/* A project's wrapper of a transaction that takes its TransactItems
 * (`db.transactWrite([{ Put: { Item } }, ...])`, `transactWriteItems(ops)`
 * with `ops.push({ Put: ... })` before): a call whose callee's last name
 * says transact and whose first argument is an array of transaction
 * items; or of a batch write that takes its requests (batch_wrapper).
 * Its table is the wrapper's business (API_SDK_PART: no table rule judges
 * it). */
bool ex_sdk_items_wrapper(Ex *x, SynNode n)
{
    SynNode fn = unwrap(field(n, "function"));
    if (is(fn, "member_expression"))
        fn = field(fn, "property");
    if (!is(fn, "identifier") && !is(fn, "property_identifier"))
        return false;
    const char *name = ex_ntext(x, fn);
    const char *callee = ex_ntext(x, unwrap(field(n, "function")));
    if (name && strcasestr(name, "batchWrite"))
        return batch_wrapper(x, n, callee);
    if (!name || !strcasestr(name, "transact"))
        return false;
    SynNode el[MAX_BATCH_ELEMENTS];
    size_t cnt = pushed_elements(x, syn_child(x->syn, field(n, "arguments"), 0), n, el,
                                 MAX_BATCH_ELEMENTS);
    size_t first = x->ir->ops.n;
    int op = ex_add_op(x, OP_TRANSACT_WRITE, API_SDK_PART, n, callee);
    if (!transact_ops(x, el, cnt, API_SDK_PART, callee)) {
        x->ir->ops.n = first; /* no transaction items: not a transaction */
        return false;
    }
    bool write = false;
    for (size_t i = (size_t)op + 1; i < x->ir->ops.n; i++)
        write |= x->ir->ops.v[i].kind != OP_GET;
    if (!write)
        x->ir->ops.v[op].kind = OP_TRANSACT_GET;
    return true;
}

/* RequestItems: { [table]: [{ PutRequest: { Item } }, { DeleteRequest: { Key } }] }
 * or { [table]: { Keys: [...] } } */
static void request_items(Ex *x, SynNode objn, int op)
{
    SynNode obj = ex_follow(x, objn, NULL, NULL);
    if (!is(obj, "object"))
        return;
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair"))
            continue;
        if (!x->ir->ops.v[op].table) {
            SynNode k = field(p, "key");
            /* `[TABLE]: ...`: the table is the name inside the brackets */
            if (is(k, "computed_property_name"))
                k = unwrap(syn_child(x->syn, k, 0));
            const char *s;
            x->ir->ops.v[op].table_literal = ex_string_value(x, k, &s);
            x->ir->ops.v[op].table = x->ir->ops.v[op].table_literal ? s : ex_ntext(x, k);
        }
        SynNode v = ex_follow(x, field(p, "value"), NULL, NULL);
        SynNode el[MAX_BATCH_ELEMENTS];
        if (is(v, "object")) { /* batch get: { Keys: [...] } */
            size_t n = elements_of(x, ex_find_prop(x, v, "Keys"), el, MAX_BATCH_ELEMENTS);
            for (size_t j = 0; j < n; j++)
                ex_op_key_object(x, el[j], SITE_READ, op, NAMED_KEY_MAP);
            continue;
        }
        /* [{ PutRequest: { Item } }, { DeleteRequest: { Key } }], or
         * batch.map(item => ({ PutRequest: { Item: item } })): then the
         * item is each element of batch */
        SynNode arrow = map_arrow(x, v);
        const char *param = syn_null(arrow) ? NULL : arrow_param(x, arrow);
        SynNode mapped = syn_null(arrow) ? arrow : field(unwrap(field(v, "function")), "object");
        size_t n = elements_of(x, v, el, MAX_BATCH_ELEMENTS);
        for (size_t j = 0; j < n; j++) {
            SynNode req = ex_follow(x, el[j], NULL, NULL);
            batch_request(x, ex_find_prop(x, req, "PutRequest"), "Item", SITE_WRITE, op,
                          param, mapped);
            batch_request(x, ex_find_prop(x, req, "DeleteRequest"), "Key", SITE_READ, op,
                          param, mapped);
        }
    }
}

/* The value `SET #referrer = :referrer` writes: `:referrer` in
 * ExpressionAttributeValues (`values`) when it is one variable, call or
 * literal text; else a SEG_UNKNOWN segment. Resolution compares it with
 * the operation's own key (`Key: { PK: `Ltd#${referrer}` }`, `Key:
 * rateKey(userId, action)` with `SET #action = :action`, `Key: { pk:
 * `AGG#HASHTAG#${q}` }` with `SET #type = 'HASHTAG'`): an upsert that
 * writes the attribute the value its key already has moves nothing. */
static Seg set_value(Ex *x, SynNode values, const char *placeholder)
{
    Seg none = {.kind = SEG_UNKNOWN, .text = ""};
    if (!placeholder || !is(values, "object"))
        return none;
    SynNode v = ex_find_prop(x, values, placeholder);
    if (syn_null(v))
        return none;
    /* the low-level client's `':sub': { S: sub }` holds `sub` */
    v = ex_attribute_value(x, v);
    SegList segs = {0};
    ex_expr_segs(x, unwrap(v), &segs, 0);
    if (segs.n != 1 || (segs.v[0].kind != SEG_REF && segs.v[0].kind != SEG_CALL &&
                        !(segs.v[0].kind == SEG_TEXT && ex_plain_literal(x, unwrap(v)))))
        return none;
    if (segs.v[0].member) /* `keys.region`: the value as written */
        return (Seg){.kind = SEG_REF, .text = segs.v[0].name, .span = segs.v[0].span,
                     .flags = segs.v[0].flags & (SEGF_UPPERCASE | SEGF_LOWERCASE)};
    return segs.v[0];
}

bool ex_update_expression(Ex *x, SynNode ue, SynNode names, SynNode values, int op)
{
    const char *s = ex_expr_string(x, ue);
    StrList targets = {0}, placeholders = {0};
    if (!s || !ddb_parse_update_sets(x->a, s, &targets, &placeholders))
        return false;
    x->ir->ops.v[op].update_span = nspan(unwrap(ue));
    for (size_t i = 0; i < targets.n; i++) {
        const char *attr = ex_map_name(x, names, targets.v[i]);
        strlist_push(x->a, &x->ir->ops.v[op].sets, attr);
        seglist_push(x->a, &x->ir->ops.v[op].set_values, set_value(x, values, placeholders.v[i]));
        /* `SET GSI1PK = :gsi1pk`: the index key it writes */
        if (placeholders.v[i] && is(values, "object"))
            ex_update_set_key(x, attr, ex_find_prop(x, values, placeholders.v[i]), op);
    }
    return true;
}

/* The parameters of an SDK command or DocumentClient call, as Ex.branch
 * reads them. */
static void params_read(Ex *x, SynNode obj, int op)
{
    ex_consume(x, obj);
    DataOp *d = &x->ir->ops.v[op];
    SynNode table = ex_find_prop(x, obj, "TableName");
    if (!syn_null(table)) {
        const char *s;
        SynNode tv = unwrap(table);
        if (ex_string_value(x, tv, &s)) {
            d->table = s;
            d->table_literal = true;
        } else {
            d->table = ex_ntext(x, tv);
        }
    }
    SynNode index = ex_find_prop(x, obj, "IndexName");
    if (!syn_null(index)) {
        const char *s;
        d->index_literal = ex_string_value(x, index, &s);
        d->index = d->index_literal ? s : ex_ntext(x, unwrap(index));
        d->index_span = nspan(index);
    }
    SynNode names = arm_taken(x, ex_find_prop(x, obj, "ExpressionAttributeNames"));
    SynNode values = arm_taken(x, ex_find_prop(x, obj, "ExpressionAttributeValues"));
    if (is(values, "object"))
        ex_consume(x, values);

    SynNode key = ex_find_prop(x, obj, "Key");
    if (!syn_null(key)) {
        ex_op_key_object(x, key, SITE_READ, op, NAMED_KEY_MAP);
        ex_param_use(x, key, SITE_READ, NULL, 0);
    }
    SynNode item = ex_find_prop(x, obj, "Item");
    if (!syn_null(item)) {
        ex_op_key_object(x, item, SITE_WRITE, op, NAMED_TABLE);
        ex_param_use(x, item, SITE_WRITE, NULL, 0);
    }
    SynNode start = ex_find_prop(x, obj, "ExclusiveStartKey");
    if (!syn_null(start))
        ex_op_key_object(x, start, SITE_READ, op, NAMED_KEY_MAP);

    SynNode kce = ex_find_prop(x, obj, "KeyConditionExpression");
    if (x->second_arm && is(unwrap(kce), "ternary_expression"))
        kce = field(unwrap(kce), "alternative");
    if (!syn_null(kce)) {
        const char *s = ex_expr_string(x, kce);
        if (s) {
            d->key_condition = s;
            d->key_condition_span = nspan(unwrap(kce));
            d->key_condition_exact = ex_plain_literal(x, unwrap(kce));
            ex_key_conditions(x, s, names, values, op, d->index != NULL);
        }
    }
    SynNode ue = ex_find_prop(x, obj, "UpdateExpression");
    if (!syn_null(ue))
        ex_update_expression(x, ue, names, values, op);
    SynNode ri = ex_find_prop(x, obj, "RequestItems");
    if (!syn_null(ri))
        request_items(x, ri, op);
    SynNode ti = ex_find_prop(x, obj, "TransactItems");
    if (!syn_null(ti))
        transact_items(x, ti, x->ir->ops.v[op].api, x->ir->ops.v[op].callee);
}

/* Every property of object literal `obj` is named where it is written:
 * pairs and shorthands with plain keys, no spread, no computed key. */
static bool all_props_named(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "comment") || is(p, "shorthand_property_identifier"))
            continue;
        SynNode computed = {0};
        if (!is(p, "pair") || !syn_prop_name(x->syn, p, &computed) || !syn_null(computed))
            return false;
    }
    return true;
}

/* A use of variable `name` that can give its object a key condition
 * extraction does not see: anything but reading or writing one of its
 * other properties (`params.Limit = 10`), the call's own argument
 * (`arg`) and the declaration's name excepted. */
static bool escapes(Ex *x, SynNode use, SynNode arg, SynNode decl_name)
{
    if (syn_start(use) >= syn_start(arg) && syn_end(use) <= syn_end(arg))
        return false;
    if (syn_eq(use, decl_name))
        return false;
    if (!is(use, "identifier"))
        return true; /* `{ params }` hands it on */
    SynNode m = ex_parent(x, use);
    if (!is(m, "member_expression") || !syn_eq(unwrap(field(m, "object")), use))
        return true;
    SynNode prop = field(m, "property");
    return !is(prop, "property_identifier") || ex_text_eq(x, prop, "KeyConditionExpression") ||
           ex_text_eq(x, prop, "KeyConditions");
}

/* Whether the parameters object `obj` a Query is given as `arg` is known
 * whole (DataOp.params_closed): written in the call, or held by a
 * variable declared with it that the function uses for nothing else.
 * Bounded: the walk goes up at most MAX_UP_CLOSED parents and over the
 * flat node index of the declaring function, never recursing. */
static bool closed_params(Ex *x, SynNode arg, SynNode obj)
{
    enum { MAX_UP_CLOSED = 256 };
    if (!is(obj, "object") || !all_props_named(x, obj))
        return false;
    SynNode a = unwrap(arg);
    if (syn_eq(a, obj))
        return true;
    SynNode decl = ex_parent(x, obj);
    for (int up = 0; up < 8 && syn_eq(unwrap(decl), obj); up++) /* `{...} as QueryInput` */
        decl = ex_parent(x, decl);
    if (!is(a, "identifier") || !is(decl, "variable_declarator"))
        return false;
    SynNode name = field(decl, "name");
    if (!is(name, "identifier") || !ex_text_eq(x, name, ex_ntext(x, a)))
        return false;
    SynNode scope = ex_parent(x, decl);
    for (int up = 0; !syn_null(scope) && !syn_is_function(scope) && !is(scope, "program");
         up++) {
        if (up == MAX_UP_CLOSED)
            return false;
        scope = ex_parent(x, scope);
    }
    size_t from, to;
    if (syn_null(scope) || !syn_subtree(x->syn, scope, &from, &to))
        return false;
    for (size_t r = 0; r < syn_region_count(x->syn); r++) { /* uses it cannot see */
        Span sp = syn_region_at(x->syn, r)->span;
        if (sp.start_byte < syn_end(scope) && sp.end_byte > syn_start(scope))
            return false;
    }
    const char *var = ex_ntext(x, a);
    for (size_t i = from; i < to; i++) {
        const char *t = syn_type_at(x->syn, i);
        if (!syn_type_is(t, "identifier") && !syn_type_is(t, "shorthand_property_identifier"))
            continue;
        SynNode use = syn_node_at(x->syn, i);
        if (ex_text_eq(x, use, var) && escapes(x, use, arg, name))
            return false;
    }
    return true;
}

/* The parameters of an SDK command or DocumentClient call. Filled in
 * branches (`if (s) params.KeyConditionExpression = ...; else ...`), they
 * are one operation per combination of branches (ex_branch_combos), each
 * reading its own branch's expression with its own branch's values: `op`
 * the first, copies of it the others. */
static void params_object(Ex *x, SynNode objn, int op)
{
    SynNode obj = ex_follow(x, objn, NULL, NULL);
    if (!is(obj, "object"))
        return;
    const ExBranch *combos;
    size_t n = ex_branch_combos(x, obj, x->ir->ops.v[op].span, &combos);
    if (!n) {
        DataOp blank = x->ir->ops.v[op];
        params_read(x, obj, op);
        DataOp *d = &x->ir->ops.v[op];
        if (d->kind == OP_QUERY && !d->key_condition &&
            (d->api == API_SDK_V3 || d->api == API_SDK_V2) &&
            syn_null(ex_find_prop(x, obj, "KeyConditionExpression")) &&
            syn_null(ex_find_prop(x, obj, "KeyConditions")))
            d->params_span = (d->params_closed = closed_params(x, objn, obj)) ? nspan(obj)
                                                                                 : (Span){0};
        /* the other arm of a ternary key condition: an operation of its
         * own, the same params with that condition (a key read twice
         * makes the same findings, reported once) */
        if (two_arm_condition(x, obj)) {
            VEC_PUSH(x->a, &x->ir->ops, blank);
            x->second_arm = true;
            params_read(x, obj, (int)x->ir->ops.n - 1);
            x->second_arm = false;
        }
        return;
    }
    DataOp blank = x->ir->ops.v[op];
    for (size_t c = 0; c < n; c++) {
        int o = op;
        if (c) {
            VEC_PUSH(x->a, &x->ir->ops, blank);
            o = (int)x->ir->ops.n - 1;
        }
        x->branch = &combos[c];
        params_read(x, obj, o);
        x->branch = NULL;
    }
}

void ex_sdk_command(Ex *x, SynNode n)
{
    SynNode ctor = field(n, "constructor");
    if (!is(ctor, "identifier") && !is(ctor, "member_expression"))
        return;
    const char *name = ex_ntext(x, ctor);
    const char *dot = strrchr(name, '.');
    bool ok;
    OpKind kind = op_kind_of_command(dot ? dot + 1 : name, &ok);
    if (!ok)
        return;
    /* a local class of the same name is not the SDK's */
    const Import *im = ex_find_import(x, dot ? name : name);
    if (im && strncmp(im->source, "@aws-sdk/", 9) && !dot)
        return;
    SynNode args = field(n, "arguments");
    SynNode a0 = syn_null(args) ? args : syn_child(x->syn, args, 0);
    int op = ex_add_op(x, kind, API_SDK_V3, n, dot ? dot + 1 : name);
    if (!syn_null(a0))
        params_object(x, a0, op);
}

/* The SDK v3 paginators, `paginateQuery({ client }, params)` and
 * `paginateScan(...)` (from @aws-sdk/client-dynamodb or lib-dynamodb):
 * each a Query or Scan of its second argument's parameters. */
bool ex_sdk_paginator(Ex *x, SynNode n)
{
    SynNode fn = unwrap(field(n, "function"));
    SynNode id = is(fn, "member_expression") ? field(fn, "property") : fn;
    if (!is(id, "identifier") && !is(id, "property_identifier"))
        return false;
    OpKind kind;
    if (ex_text_eq(x, id, "paginateQuery"))
        kind = OP_QUERY;
    else if (ex_text_eq(x, id, "paginateScan"))
        kind = OP_SCAN;
    else
        return false;
    /* the SDK's: imported from it by name, or a member of what it imports */
    SynNode head = is(fn, "member_expression") ? unwrap(field(fn, "object")) : fn;
    const Import *im = is(head, "identifier") ? ex_find_import(x, ex_ntext(x, head)) : NULL;
    if (!im || strncmp(im->source, "@aws-sdk/", 9))
        return false;
    SynNode params = ex_arg(x, n, 1);
    if (syn_null(params))
        return false;
    int op = ex_add_op(x, kind, API_SDK_V3, n, ex_ntext(x, id));
    params_object(x, params, op);
    return true;
}

/* A DynamoDB client made here: `new DynamoDB(...)`, `new DynamoDBClient()`,
 * `new AWS.DynamoDB.DocumentClient()`, `DynamoDBDocumentClient.from(c)`. */
static bool client_value(Ex *x, SynNode v)
{
    static const char *const classes[] = {"DynamoDB", "DynamoDBClient", "DocumentClient",
                                          "DynamoDBDocumentClient", "DynamoDBDocument", NULL};
    v = unwrap(v);
    SynNode name = {0};
    if (is(v, "new_expression"))
        name = unwrap(field(v, "constructor"));
    else if (is(v, "call_expression") && is(unwrap(field(v, "function")), "member_expression") &&
             ex_text_eq(x, field(unwrap(field(v, "function")), "property"), "from"))
        name = unwrap(field(unwrap(field(v, "function")), "object"));
    if (is(name, "member_expression"))
        name = field(name, "property");
    for (const char *const *c = classes; !syn_null(name) && *c; c++)
        if (ex_text_eq(x, name, *c))
            return true;
    return false;
}

/* The receiver of `recv.scan(...)` holds a client made in this file: a
 * variable bound to one, or `this.client` assigned one. */
static bool receiver_is_client(Ex *x, SynNode call)
{
    SynNode fn = unwrap(field(call, "function"));
    SynNode obj = unwrap(field(fn, "object"));
    if (is(obj, "identifier")) {
        Binding b = ex_find_binding(x, obj, ex_ntext(x, obj), true);
        return b.found && !b.param && client_value(x, b.value);
    }
    if (is(obj, "member_expression") && is(unwrap(field(obj, "object")), "this"))
        return client_value(x, ex_member_value(x, ex_ntext(x, obj)));
    return false;
}

/* DocumentClient (v2) and lookalike clients: a method of the API's
 * name called with a params object that has the API's shape; a scan
 * on a client made in this file whatever its parameters
 * (`this.ddb.scan(this.params)`). */
void ex_sdk_v2_call(Ex *x, SynNode n, const char *recv, const char *method, SynNode args)
{
    static const struct { const char *name; OpKind kind; } v2[] = {
        {"get", OP_GET}, {"put", OP_PUT}, {"update", OP_UPDATE},
        {"delete", OP_DELETE}, {"query", OP_QUERY}, {"scan", OP_SCAN},
        {"batchGet", OP_BATCH_GET}, {"batchWrite", OP_BATCH_WRITE},
        {"transactGet", OP_TRANSACT_GET}, {"transactWrite", OP_TRANSACT_WRITE},
        {"getItem", OP_GET}, {"putItem", OP_PUT}, {"updateItem", OP_UPDATE},
        {"deleteItem", OP_DELETE}, {"batchGetItem", OP_BATCH_GET},
        {"batchWriteItem", OP_BATCH_WRITE}};
    for (size_t i = 0; i < sizeof v2 / sizeof *v2; i++) {
        if (strcmp(method, v2[i].name))
            continue;
        SynNode obj = ex_follow(x, syn_child(x->syn, args, 0), NULL, NULL);
        static const char *const shape[] = {
            "TableName", "Key", "Item", "KeyConditionExpression", "RequestItems",
            "TransactItems", NULL};
        /* a scan of parameters not written here, or of ones an earlier
         * call read (the next page of a loop: `params.ExclusiveStartKey =
         * ...; await db.scan(params)`) */
        if (v2[i].kind == OP_SCAN && (!is(obj, "object") || ex_consumed(x, obj)) &&
            receiver_is_client(x, n)) {
            ex_add_op(x, OP_SCAN, API_SDK_V2, n, arena_dot(x->a, recv, method));
            return;
        }
        if (!is(obj, "object") || ex_consumed(x, obj) || !ex_has_any_prop(x, obj, shape))
            return;
        int op = ex_add_op(x, v2[i].kind, API_SDK_V2, n,
                        arena_dot(x->a, recv, method));
        params_object(x, syn_child(x->syn, args, 0), op);
        return;
    }
}

/* An object with the SDK's own parameter names is a data operation's
 * parameters wherever it is built (`{ Delete: { TableName, Key } }`
 * pushed into TransactItems later, params assembled for a wrapper), and so
 * is a key condition with its values, the part of a query's parameters a
 * branch chooses (`...(byTitle ? { IndexName, KeyConditionExpression,
 * ExpressionAttributeValues } : {...})`) or a wrapper takes. */
bool ex_params_shaped(Ex *x, SynNode obj)
{
    static const char *const shape[] = {"Key", "Item", "KeyConditionExpression", NULL};
    if (!syn_null(ex_find_prop(x, obj, "TableName")))
        return ex_has_any_prop(x, obj, shape);
    return !syn_null(ex_find_prop(x, obj, "KeyConditionExpression")) &&
           !syn_null(ex_find_prop(x, obj, "ExpressionAttributeValues"));
}

void ex_params_op(Ex *x, SynNode obj)
{
    OpKind kind = OP_GET;
    const char *callee = "params";
    SynNode pair = ex_parent(x, obj);
    const char *wrapper = is(pair, "pair") ? ex_prop_name(x, pair) : NULL;
    if (!syn_null(ex_find_prop(x, obj, "KeyConditionExpression")))
        kind = OP_QUERY;
    else if (!syn_null(ex_find_prop(x, obj, "UpdateExpression")))
        kind = OP_UPDATE;
    else if (!syn_null(ex_find_prop(x, obj, "Item")))
        kind = OP_PUT;
    if (wrapper && !strcmp(wrapper, "Delete"))
        kind = OP_DELETE;
    if (wrapper && !strcmp(wrapper, "Update"))
        kind = OP_UPDATE;
    if (wrapper)
        callee = arena_dot(x->a, "params", wrapper);
    bool part = syn_null(ex_find_prop(x, obj, "TableName"));
    int op = ex_add_op(x, kind, part ? API_SDK_PART : API_SDK_V3, obj, callee);
    params_object(x, obj, op);
}
