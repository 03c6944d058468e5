/* Extraction, layer 3 (idioms), a library profile: the AWS DynamoDB
 * DataMapper (@aws/dynamodb-data-mapper) with the predicates of
 * @aws/dynamodb-expressions.
 *
 *   mapper.query(ItemClass, { pk: id, sk: beginsWith(`ORDER#`) }, { indexName })
 *   mapper.query({ valueConstructor, keyCondition, indexName })
 *
 * The predicates in a condition object (`beginsWith(x)`, `between(a, b)`,
 * `greaterThan(x)`, ...) are read by expressions.c. libs.c says when this
 * is tried (a file that imports either package). */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

bool ex_datamapper_query(Ex *x, SynNode call, const char *method)
{
    if (strcmp(method, "query"))
        return false;
    SynNode first = ex_follow(x, ex_arg(x, call, 0), NULL, NULL);
    SynNode kc, opts;
    if (syn_is(first, "object") && !syn_null(ex_find_prop(x, first, "valueConstructor"))) {
        kc = ex_follow(x, ex_find_prop(x, first, "keyCondition"), NULL, NULL);
        opts = first;
    } else {
        kc = ex_follow(x, ex_arg(x, call, 1), NULL, NULL);
        opts = ex_follow(x, ex_arg(x, call, 2), NULL, NULL);
    }
    if (!syn_is(kc, "object") || ex_consumed(x, kc) || !ex_names_a_key(x, kc))
        return false;
    int op = ex_add_op(x, OP_QUERY, API_DATA_MAPPER, call,
                       arena_dot(x->a, ex_receiver_name(x, syn_field(x->syn, call, "function")),
                                    method));
    if (syn_is(opts, "object"))
        x->ir->ops.v[op].index = ex_index_name(x, opts, "indexName");
    ex_condition_object(x, kc, op, x->ir->ops.v[op].index != NULL);
    return true;
}
