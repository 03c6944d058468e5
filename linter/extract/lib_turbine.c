/* Extraction, layer 3 (idioms), a library profile: dynamodb-turbine.
 *
 *   defineEntity({ keys: { pk: (e) => ["user", e.id], sk: () => "profile" } })
 *   entity.query/queryAll/queryOne({ index, pk: [...], sk: { beginsWith } })
 *
 * libs.c says when each is tried (defineEntity imported from the library;
 * a query in a file that imports it, or on an imported receiver). */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

/* defineEntity({ keys: { pk: (u) => ["user", u.id], sk: () => "profile" } }) */
bool ex_turbine_entity(Ex *x, SynNode call)
{
    SynNode def = ex_follow(x, ex_arg(x, call, 0), NULL, NULL);
    SynNode keys = ex_follow(x, ex_find_prop(x, def, "keys"), NULL, NULL);
    if (!syn_is(keys, "object"))
        return false;
    ex_consume(x, def);
    ex_consume(x, keys);
    uint32_t cnt = syn_count(x->syn, keys);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, keys, i);
        const char *name = ex_prop_name(x, p);
        int role = key_role_for_name(x->cfg, name);
        SynNode v = syn_unwrap(x->syn, syn_prop_value(x->syn, p));
        if (role < 0 || syn_null(v))
            continue;
        if (syn_is(v, "arrow_function") || syn_is(v, "function_expression")) {
            SynNode body = syn_unwrap(x->syn, syn_field(x->syn, v, "body"));
            if (syn_is(body, "statement_block")) {
                SynNode ret = syn_child(x->syn, body, syn_count(x->syn, body) - 1);
                if (!syn_is(ret, "return_statement"))
                    continue;
                body = syn_unwrap(x->syn, syn_child(x->syn, ret, 0));
            }
            if (!syn_null(body) && ex_value_can_be_key(x, body))
                ex_add_key(x, body, (KeyRole)role, name, SITE_ENTITY, -1, COND_NONE);
        } else if (ex_value_can_be_key(x, v)) {
            ex_add_key(x, v, (KeyRole)role, name, SITE_ENTITY, -1, COND_NONE);
        }
    }
    return true;
}

/* entity.query/queryAll/queryOne({ index, pk: [...], sk: { beginsWith } }) */
bool ex_turbine_query(Ex *x, SynNode call, const char *method)
{
    if (strcmp(method, "query") && strcmp(method, "queryAll") && strcmp(method, "queryOne"))
        return false;
    SynNode obj = ex_follow(x, ex_arg(x, call, 0), NULL, NULL);
    if (!syn_is(obj, "object") || ex_consumed(x, obj))
        return false;
    /* Turbine's shape: key attributes at the top level, no SDK names. */
    static const char *const sdk[] = {"KeyConditionExpression", "TableName", "keyCondition",
                                      "query", NULL};
    if (ex_has_any_prop(x, obj, sdk))
        return false;
    /* and at least one key attribute (`pk`, `gsi1pk`): a search client's
     * query({ vector, topK, filter }) is not one */
    if (!ex_names_a_key(x, obj))
        return false;
    int op = ex_add_op(x, OP_QUERY, API_TURBINE, call,
                       arena_dot(x->a, ex_receiver_name(x, syn_field(x->syn, call, "function")),
                                    method));
    x->ir->ops.v[op].index = ex_index_name(x, obj, "index");
    ex_condition_object(x, obj, op, false);
    return true;
}
