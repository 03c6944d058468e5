/* Extraction, layer 3 (idioms), a library profile: AppSync JS resolvers
 * (@aws-appsync/utils/dynamodb).
 *
 *   get/put/update/remove({ key, item }), query({ index, query: { pk: { eq } } })
 *
 * libs.c says when it is tried. */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

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
