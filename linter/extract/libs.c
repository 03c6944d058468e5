/* Library profiles: the key builders and data APIs of the libraries the
 * key-design guides use, recognised by where their names are imported
 * from (never by spelling alone), and the wrappers a project declares in
 * .keylint.yml (`wrappers:`).
 *
 *   dynamodb-turbine             defineEntity({ keys: { pk: (e) => [...] } }),
 *                                entity.query/queryAll/queryOne({ index, pk, sk: { beginsWith } })
 *   @ddb-lib                     PatternHelpers.entityKey/compositeKey/...,
 *                                createMultiAttributeKey, TableClient put/get/query/scan
 *   @aws-appsync/utils/dynamodb  get/put/update/remove({ key }), query({ query: { pk: { eq } } })
 *   dynamodb-toolbox (v0)        new Entity({ attributes: { pk: { partitionKey: true, default } } }),
 *                                entity.query(pk, { index, eq | beginsWith | between | gt ... })
 */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "extract.h"
#include "extract_int.h"

/* Whether some import's source starts with `prefix` (one of the profiles'
 * constants: the answer is kept in x->import_prefixes). */
static bool file_imports(Ex *x, const char *prefix)
{
    size_t n = x->import_prefixes.n;
    for (size_t i = 0; i < n; i++)
        if (x->import_prefixes.v[i].prefix == prefix)
            return x->import_prefixes.v[i].yes;
    bool yes = false;
    for (size_t i = 0; i < x->ir->imports.n && !yes; i++)
        yes = !strncmp(x->ir->imports.v[i].source, prefix, strlen(prefix));
    VEC_PUSH(x->a, &x->import_prefixes, ((ImportPrefix){prefix, yes}));
    return yes;
}

/* ---- configured wrappers --------------------------------------------------- */

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

static bool wrapper_call(Ex *x, SynNode call)
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

/* ---- entry points ------------------------------------------------------ */

bool ex_lib_call(Ex *x, SynNode call)
{
    if (wrapper_call(x, call))
        return true;
    SynNode member;
    const char *root;
    const char *name = ex_callee_parts(x, call, &member, &root);
    if (!*name)
        return false;
    if (syn_is(member, "identifier") && !strcmp(name, "defineEntity") &&
        ex_imported_from(x, name, TURBINE))
        return ex_turbine_entity(x, call);
    if (ex_appsync_call(x, call, name, root))
        return true;
    if (!syn_is(member, "member_expression"))
        return false;
    if (file_imports(x, TURBINE) || ex_find_import(x, root) || !file_imports(x, DDB_LIB))
        if (ex_turbine_query(x, call, name))
            return true;
    if (file_imports(x, DDB_LIB) && ex_ddblib_table_call(x, call, name))
        return true;
    if (ex_toolbox_query(x, call, name))
        return true;
    return false;
}

bool ex_lib_new(Ex *x, SynNode newexpr)
{
    return ex_toolbox_entity(x, newexpr);
}

bool ex_lib_key_call(Ex *x, SynNode call, SegList *out, int depth)
{
    return ex_ddblib_key_call(x, call, out, depth);
}
