/* Extraction, layer 3 (idioms): the wrappers a project declares in
 * .keylint.yml (`wrappers:`): a call whose callee matches a wrapper's
 * `call` glob is a data operation of its `operation`, its table, index,
 * key condition, names, values, key and item read at the paths the
 * wrapper gives ("1.keyCondition": argument 1's property keyCondition).
 * libs.c tries them before any library profile. */
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

/* "1.keyCondition": argument 1's property keyCondition; "0": argument 0. */
static SynNode wrapper_path(Ex *x, SynNode call, const char *path)
{
    SynNode none = {0};
    if (!path || !*path)
        return none;
    char *end;
    long i = strtol(path, &end, 10);
    if (end == path || i < 0)
        return none;
    SynNode n = ex_follow(x, ex_arg(x, call, (uint32_t)i), NULL, NULL);
    while (*end == '.' && !syn_null(n)) {
        const char *p = end + 1;
        end = strchr(p, '.');
        if (!end)
            end = (char *)p + strlen(p);
        char *prop = arena_strndup(x->a, p, (size_t)(end - p));
        n = ex_follow(x, ex_find_prop(x, n, prop), NULL, NULL);
    }
    return n;
}

bool ex_wrapper_call(Ex *x, SynNode call)
{
    if (!x->cfg || !x->cfg->wrappers.n)
        return false;
    const char *callee = ex_ntext(x, syn_unwrap(x->syn, syn_field(x->syn, call, "function")));
    for (size_t w = 0; w < x->cfg->wrappers.n; w++) {
        const Wrapper *wr = &x->cfg->wrappers.v[w];
        if (!glob_match(wr->call, callee))
            continue;
        int op = ex_add_op(x, wr->operation, API_WRAPPER, call, callee);
        DataOp *d = &x->ir->ops.v[op];
        SynNode t = wrapper_path(x, call, wr->table);
        const char *s;
        if (!syn_null(t)) {
            d->table_literal = ex_string_value(x, t, &s);
            d->table = d->table_literal ? s : ex_ntext(x, t);
        }
        SynNode ix = wrapper_path(x, call, wr->index);
        if (!syn_null(ix))
            d->index = ex_string_value(x, ix, &s) ? s : ex_ntext(x, ix);
        SynNode kc = wrapper_path(x, call, wr->key_condition);
        if (!syn_null(kc)) {
            if (syn_is(kc, "object")) {
                ex_condition_object(x, kc, op, d->index != NULL);
            } else if (ex_string_value(x, kc, &s)) {
                /* the parameters object is read: not a second query */
                SynNode root = wrapper_path(x, call, arena_strndup(x->a, wr->key_condition,
                                                                   strcspn(wr->key_condition, ".")));
                if (syn_is(root, "object"))
                    ex_consume(x, root);
                x->ir->ops.v[op].key_condition = s;
                x->ir->ops.v[op].key_condition_span = syn_span(kc);
                ex_key_conditions(x, s, wrapper_path(x, call, wr->names),
                                  wrapper_path(x, call, wr->values), op,
                                  x->ir->ops.v[op].index != NULL);
            }
        }
        SynNode key = wrapper_path(x, call, wr->key);
        if (!syn_null(key))
            ex_key_object(x, key, SITE_READ, op);
        SynNode item = wrapper_path(x, call, wr->item);
        if (!syn_null(item))
            ex_key_object(x, item, SITE_WRITE, op);
        return true;
    }
    return false;
}
