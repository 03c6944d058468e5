/* Extraction, layer 3 (idioms), a library profile: AppSync JS resolvers.
 *
 *   get/put/update/remove({ key, item }), query({ index, query: { pk: { eq } } })
 *                     of @aws-appsync/utils/dynamodb (libs.c says when)
 *   { operation: 'Query', index, query: { expression, expressionValues } }
 *                     the raw request a resolver's request() returns (an
 *                     object literal: the third pass of extract.c asks) */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }

bool ex_appsync_call(Ex *x, SynNode call, const char *name, const char *root)
{
    static const struct { const char *name; OpKind kind; } fns[] = {
        {"get", OP_GET}, {"put", OP_PUT}, {"update", OP_UPDATE}, {"remove", OP_DELETE},
        {"query", OP_QUERY}, {"scan", OP_SCAN}};
    const Import *im = ex_find_import(x, root);
    if (!im || strcmp(im->source, APPSYNC))
        return false;
    /* `import { get } from ...` or `import * as ddb from ...; ddb.get(...)` */
    const char *fn = strcmp(im->imported, "*") ? im->imported : name;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        if (strcmp(fn, fns[i].name))
            continue;
        SynNode obj = ex_follow(x, ex_arg(x, call, 0), NULL, NULL);
        int op = ex_add_op(x, fns[i].kind, API_APPSYNC, call, arena_dot(x->a, "appsync", fn));
        if (!syn_is(obj, "object"))
            return true;
        ex_consume(x, obj);
        const char *index = ex_index_name(x, obj, "index");
        x->ir->ops.v[op].index = index;
        SynNode key = ex_find_prop(x, obj, "key");
        SynNode item = ex_find_prop(x, obj, "item");
        SynNode q = ex_find_prop(x, obj, "query");
        if (!syn_null(q))
            ex_condition_object(x, q, op, index != NULL);
        if (!syn_null(key))
            ex_key_object(x, key, fns[i].kind == OP_PUT ? SITE_WRITE : SITE_READ, op);
        if (!syn_null(item))
            ex_key_object(x, item, SITE_WRITE, op);
        return true;
    }
    return false;
}

/* A raw AppSync DynamoDB request, the object a JS resolver's request()
 * returns: `{ operation: 'Query', index, query: { expression,
 * expressionNames, expressionValues } }`, `{ operation: 'GetItem', key }`,
 * `{ operation: 'PutItem', key, attributeValues }`. */
bool ex_appsync_request(Ex *x, SynNode obj)
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
