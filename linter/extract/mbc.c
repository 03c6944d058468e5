/* Extraction, layer 3 (idioms): mbc-cqrs-serverless. Calls of its data,
 * command and history services (`this.dataService.getItem({ pk, sk })`,
 * `listItemsByPk(pk, { sk: { skExpession, skAttributeValues } })`,
 * `commandService.publish...(dto)`), recognised by the receiver's name.
 * The framework's key generators and separator constants are values:
 * segments.c reads them (ex_framework_name says which names are the
 * framework's). */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"
#include "syntax.h"

#define MBC_CORE "@mbc-cqrs-serverless/core"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))

void ex_mbc_call(Ex *x, SynNode n, const char *recv, const char *method, SynNode args)
{
    OpApi api;
    if (ex_lower_contains(recv, "historyservice"))
        api = API_MBC_HISTORY;
    else if (ex_lower_contains(recv, "commandservice"))
        api = API_MBC_COMMAND;
    else if (ex_lower_contains(recv, "dataservice"))
        api = API_MBC_DATA;
    else
        return;
    const char *callee = arena_dot(x->a, recv, method);
    SynNode a0 = syn_child(x->syn, args, 0);
    if (!strcmp(method, "getItem") || !strcmp(method, "getLatestItem")) {
        int op = ex_add_op(x, OP_GET, api, n, callee);
        ex_key_object(x, a0, SITE_READ, op);
    } else if (!strncmp(method, "listItemsByPk", 13) || !strncmp(method, "listAllItemsByPk", 16)) {
        int op = ex_add_op(x, OP_QUERY, api, n, callee);
        if (!syn_null(a0) && ex_value_can_be_key(x, a0))
            ex_add_key(x, a0, ROLE_PK, "pk", SITE_CONDITION, op, COND_EQ);
        SynNode opts = ex_follow(x, syn_child(x->syn, args, 1), NULL, NULL);
        SynNode sk = ex_follow(x, ex_find_prop(x, opts, "sk"), NULL, NULL);
        if (is(sk, "object")) {
            ex_consume(x, sk);
            SynNode ex = ex_find_prop(x, sk, "skExpession");
            if (syn_null(ex))
                ex = ex_find_prop(x, sk, "skExpression");
            SynNode vals = ex_follow(x, ex_find_prop(x, sk, "skAttributeValues"), NULL, NULL);
            const char *s = syn_null(ex) ? NULL : ex_expr_string(x, ex);
            if (s) {
                x->ir->ops.v[op].key_condition = s;
                SynNode none = {0};
                ex_key_conditions(x, s, none, vals, op, false);
            }
        }
    } else if (!strncmp(method, "publish", 7)) {
        OpKind k = strstr(method, "PartialUpdate") ? OP_UPDATE : OP_PUT;
        int op = ex_add_op(x, k, api, n, callee);
        SynNode dto = ex_follow(x, a0, NULL, NULL);
        if (is(dto, "new_expression")) {
            SynNode da = field(dto, "arguments");
            dto = syn_null(da) ? da : syn_child(x->syn, da, 0);
        }
        ex_key_object(x, dto, SITE_WRITE, op);
    }
}
