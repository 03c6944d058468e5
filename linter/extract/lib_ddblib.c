/* Extraction, layer 3 (idioms), a library profile: ddb-lib (the packages
 * of @ddb-lib).
 *
 *   PatternHelpers.entityKey('USER', id) -> USER#{id}, compositeKey([...]),
 *   hierarchicalKey(...), timeSeriesKey(...), distributedKey(base, n),
 *   createMultiAttributeKey({ a, b })       keys as values (segments.c asks)
 *   TableClient put/get/query/scan/update/delete({ key | item | keyCondition })
 *
 * libs.c says when each is tried. */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

/* TableClient: put({ item } | item), get({ key } | key), query({ keyCondition,
 * indexName }), scan(...), update, delete. */
bool ex_ddblib_table_call(Ex *x, SynNode call, const char *method)
{
    static const struct { const char *name; OpKind kind; } methods[] = {
        {"put", OP_PUT}, {"get", OP_GET}, {"query", OP_QUERY}, {"scan", OP_SCAN},
        {"update", OP_UPDATE}, {"delete", OP_DELETE}};
    OpKind kind = OP_GET;
    bool known = false;
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (!strcmp(method, methods[i].name)) {
            kind = methods[i].kind;
            known = true;
        }
    if (!known)
        return false;
    SynNode obj = ex_follow(x, ex_arg(x, call, 0), NULL, NULL);
    if (!syn_is(obj, "object") || ex_consumed(x, obj))
        return false;
    static const char *const shape[] = {"keyCondition", "item", "key", "pk", "PK", NULL};
    if (kind != OP_SCAN && !ex_has_any_prop(x, obj, shape))
        return false;
    int op = ex_add_op(x, kind, API_DDB_LIB, call,
                       arena_dot(x->a, ex_receiver_name(x, syn_field(x->syn, call, "function")),
                                    method));
    ex_consume(x, obj);
    const char *index = ex_index_name(x, obj, "indexName");
    x->ir->ops.v[op].index = index;
    SynNode kc = ex_find_prop(x, obj, "keyCondition");
    SynNode item = ex_find_prop(x, obj, "item");
    SynNode key = ex_find_prop(x, obj, "key");
    if (!syn_null(kc))
        ex_condition_object(x, kc, op, index != NULL);
    else if (!syn_null(item))
        ex_key_object(x, item, SITE_WRITE, op);
    else if (!syn_null(key))
        ex_key_object(x, key, SITE_READ, op);
    else if (kind != OP_SCAN) /* the item or key itself */
        ex_key_object(x, obj, kind == OP_PUT ? SITE_WRITE : SITE_READ, op);
    return true;
}

static void join_args(Ex *x, SynNode list, SegList *out, int depth, const char *sep)
{
    uint32_t cnt = syn_count(x->syn, list);
    for (uint32_t i = 0; i < cnt; i++) {
        if (i)
            ex_push_seg(x, out, SEG_TEXT, SEGF_ARRAY_JOIN, sep, syn_span(list));
        ex_expr_segs(x, syn_child(x->syn, list, i), out, depth + 1);
    }
}

/* PatternHelpers.entityKey('USER', id) -> USER#{id}, compositeKey([...]),
 * hierarchicalKey(...), timeSeriesKey(...), distributedKey(base, n) ->
 * base#SHARD#{n}, createMultiAttributeKey({ a, b }) -> {a}#{b}. Parsing
 * helpers (parseEntityKey...) build nothing. */
bool ex_ddblib_key_call(Ex *x, SynNode call, SegList *out, int depth)
{
    SynNode member;
    const char *root;
    const char *name = ex_callee_parts(x, call, &member, &root);
    if (!ex_imported_from(x, root, DDB_LIB))
        return false;
    const char *sep = x->cfg->separator;
    SynNode args = syn_field(x->syn, call, "arguments");
    SynNode a0 = syn_unwrap(x->syn, ex_arg(x, call, 0));
    if (!strcmp(name, "createMultiAttributeKey") && syn_is(a0, "object")) {
        uint32_t cnt = syn_count(x->syn, a0), k = 0;
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode p = syn_child(x->syn, a0, i);
            SynNode v = syn_prop_value(x->syn, p);
            if (syn_null(v))
                continue;
            if (k++)
                ex_push_seg(x, out, SEG_TEXT, SEGF_ARRAY_JOIN, sep, syn_span(a0));
            ex_expr_segs(x, v, out, depth + 1);
        }
        return true;
    }
    if (!syn_is(member, "member_expression"))
        return false;
    if (!strcmp(name, "compositeKey") || !strcmp(name, "hierarchicalKey") ||
        !strcmp(name, "timeSeriesKey") || !strcmp(name, "entityKey")) {
        if (syn_is(a0, "array") && syn_count(x->syn, args) == 1)
            join_args(x, a0, out, depth, sep);
        else
            join_args(x, args, out, depth, sep);
        return true;
    }
    if (!strcmp(name, "distributedKey")) {
        ex_expr_segs(x, a0, out, depth + 1);
        ex_push_seg(x, out, SEG_TEXT, SEGF_ARRAY_JOIN, arena_printf(x->a, "%sSHARD%s", sep, sep),
                    syn_span(call));
        ex_push_seg(x, out, SEG_CALL, 0, "shard", syn_span(call));
        return true;
    }
    return false;
}
