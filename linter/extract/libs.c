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
 *   @aws/dynamodb-data-mapper    mapper.query(Item, { pk, sk: beginsWith(...) }, { indexName })
 *   (+ @aws/dynamodb-expressions)
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

/* ---- entry points ------------------------------------------------------ */

bool ex_lib_call(Ex *x, SynNode call)
{
    if (ex_wrapper_call(x, call))
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
    if ((file_imports(x, DATA_MAPPER) || file_imports(x, DDB_EXPRESSIONS)) &&
        ex_datamapper_query(x, call, name))
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
