/* Extraction, layer 3 (idioms), a library profile: dynamodb-toolbox (v0).
 *
 *   new Entity({ attributes: { pk: { partitionKey: true, default: (d) => ... } } })
 *   entity.query(pk, { index, eq | beginsWith | between | gt | gte | lt | lte })
 *
 * libs.c says when each is tried. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"

/* new Entity({ attributes: { id: { partitionKey: true, default: (d) => `A#${d.x}` } } }) */
bool ex_toolbox_entity(Ex *x, SynNode newexpr)
{
    SynNode ctor = syn_field(x->syn, newexpr, "constructor");
    if (!syn_is(ctor, "identifier") || !ex_imported_from(x, ex_ntext(x, ctor), TOOLBOX) ||
        strcmp(ex_find_import(x, ex_ntext(x, ctor))->imported, "Entity"))
        return false;
    SynNode def = ex_follow(x, ex_arg(x, newexpr, 0), NULL, NULL);
    SynNode attrs = ex_follow(x, ex_find_prop(x, def, "attributes"), NULL, NULL);
    if (!syn_is(attrs, "object"))
        return false;
    ex_consume(x, def);
    ex_consume(x, attrs);
    uint32_t cnt = syn_count(x->syn, attrs);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, attrs, i);
        SynNode spec = syn_unwrap(x->syn, syn_prop_value(x->syn, p));
        const char *name = ex_prop_name(x, p);
        if (!syn_is(spec, "object") || !name)
            continue;
        ex_consume(x, spec);
        SynNode pkn = ex_find_prop(x, spec, "partitionKey");
        SynNode skn = ex_find_prop(x, spec, "sortKey");
        SynNode mapped = ex_find_prop(x, spec, "map");
        const char *s;
        int role = -1;
        /* partitionKey: true for the table, partitionKey: 'GSI1' for an index */
        if (!syn_null(pkn))
            role = ex_text_eq(x, pkn, "true") ? ROLE_PK : ROLE_INDEX_PK;
        else if (!syn_null(skn))
            role = ex_text_eq(x, skn, "true") ? ROLE_SK : ROLE_INDEX_SK;
        if (role < 0)
            continue;
        const char *attr = !syn_null(mapped) && ex_string_value(x, mapped, &s) ? s : name;
        SynNode dflt = syn_unwrap(x->syn, ex_find_prop(x, spec, "default"));
        if (syn_is(dflt, "arrow_function") || syn_is(dflt, "function_expression")) {
            SynNode body = syn_unwrap(x->syn, syn_field(x->syn, dflt, "body"));
            if (syn_is(body, "statement_block")) {
                SynNode ret = syn_child(x->syn, body, syn_count(x->syn, body) - 1);
                body = syn_is(ret, "return_statement") ? syn_unwrap(x->syn, syn_child(x->syn, ret, 0))
                                                       : (SynNode){0};
            }
            if (!syn_null(body) && ex_value_can_be_key(x, body))
                ex_add_key(x, body, (KeyRole)role, attr, SITE_ENTITY, -1, COND_NONE);
        } else if (!syn_null(dflt) && ex_value_can_be_key(x, dflt)) {
            ex_add_key(x, dflt, (KeyRole)role, attr, SITE_ENTITY, -1, COND_NONE);
        }
    }
    return true;
}

/* `${USER_PREFIX}` at the start of a template: a constant (or a member
 * of one) whose name says it is a key part. */
static bool starts_with_key_constant(Ex *x, SynNode n)
{
    SynNode sub = syn_child(x->syn, n, 0);
    if (!syn_is(sub, "template_substitution") || syn_start(sub) != syn_start(n) + 1)
        return false;
    SynNode v = syn_child(x->syn, sub, 0);
    if (!syn_is(v, "identifier") && !syn_is(v, "member_expression"))
        return false;
    const char *name = ex_ntext(x, v);
    static const char *const words[] = {"prefix", "pk", "sk", "key", "keys", "entity", "type"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (ex_name_has_word(name, words[i]))
            return true;
    return false;
}

/* `` `USER#${id}` ``: a template that starts with a word and '#' right
 * before its first substitution, or with a key constant
 * (`` `${USER_PREFIX}${id}` ``, what --fix writes for the first), no
 * whitespace anywhere (a SQL or search query has some). */
static bool key_shaped_template(Ex *x, SynNode n)
{
    if (!syn_is(n, "template_string"))
        return false;
    const char *t = ex_ntext(x, n);
    if (starts_with_key_constant(x, n)) {
        for (const char *p = t; *p; p++)
            if (isspace((unsigned char)*p))
                return false;
        return true;
    }
    size_t i = 1, word = 0;
    while (isalnum((unsigned char)t[i]) || t[i] == '_')
        i++, word++;
    if (!word || t[i] != '#' || t[i + 1] != '$' || t[i + 2] != '{')
        return false;
    for (const char *p = t; *p; p++)
        if (isspace((unsigned char)*p))
            return false;
    return true;
}

/* Every property of `opts` is an option dynamodb-toolbox's query takes:
 * `query(tableName, { pk, value, index })` is a project's own wrapper,
 * whose first argument is no partition key. */
static bool toolbox_options_only(Ex *x, SynNode opts)
{
    static const char *const known[] = {
        "index", "eq", "beginsWith", "between", "gt", "gte", "lt", "lte", "limit",
        "reverse", "consistent", "capacity", "select", "filters", "attributes",
        "startKey", "entity", "execute", "parse", "autoExecute", "autoParse", NULL};
    uint32_t cnt = syn_count(x->syn, opts);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, opts, i);
        const char *name = ex_prop_name(x, p);
        if (!name)
            continue; /* a spread, a comment */
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(name, *k);
        if (!ok)
            return false;
    }
    return true;
}

/* entity.query(pk, { index, eq | beginsWith | between | gt | gte | lt | lte }),
 * or entity.query(pk) alone when pk reads as a key (`USER#${id}`). */
bool ex_toolbox_query(Ex *x, SynNode call, const char *method)
{
    if (strcmp(method, "query"))
        return false;
    SynNode pk = syn_unwrap(x->syn, ex_arg(x, call, 0));
    if (syn_null(ex_arg(x, call, 1)) && key_shaped_template(x, pk)) {
        int op = ex_add_op(x, OP_QUERY, API_TOOLBOX, call,
                           arena_printf(x->a, "%s.query",
                                        ex_receiver_name(x, syn_field(x->syn, call, "function"))));
        ex_add_key(x, pk, ROLE_PK, "pk", SITE_CONDITION, op, COND_EQ);
        return true;
    }
    SynNode opts = ex_follow(x, ex_arg(x, call, 1), NULL, NULL);
    static const char *const shape[] = {"index", "eq", "beginsWith", "between", "gt", "gte",
                                        "lt", "lte", NULL};
    if (syn_null(pk) || !ex_value_can_be_key(x, pk) || syn_is(pk, "object") ||
        !syn_is(opts, "object") || !ex_has_any_prop(x, opts, shape) ||
        !toolbox_options_only(x, opts))
        return false;
    int op = ex_add_op(x, OP_QUERY, API_TOOLBOX, call,
                       arena_printf(x->a, "%s.query", ex_receiver_name(x, syn_field(x->syn, call, "function"))));
    const char *index = ex_index_name(x, opts, "index");
    x->ir->ops.v[op].index = index;
    ex_consume(x, opts);
    ex_add_key(x, pk, index ? ROLE_INDEX_PK : ROLE_PK, index ? "index-pk" : "pk", SITE_CONDITION,
               op, COND_EQ);
    static const struct { const char *name; CondOp op; } conds[] = {
        {"eq", COND_EQ}, {"beginsWith", COND_BEGINS_WITH}, {"gt", COND_GT}, {"gte", COND_GE},
        {"lt", COND_LT}, {"lte", COND_LE}, {"between", COND_BETWEEN}};
    for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
        SynNode v = syn_unwrap(x->syn, ex_find_prop(x, opts, conds[i].name));
        if (syn_null(v))
            continue;
        KeyRole role = index ? ROLE_INDEX_SK : ROLE_SK;
        const char *attr = index ? "index-sk" : "sk";
        if (conds[i].op == COND_BETWEEN && syn_is(v, "array")) {
            for (uint32_t j = 0; j < syn_count(x->syn, v) && j < 2; j++)
                ex_add_key(x, syn_child(x->syn, v, j), role, attr, SITE_CONDITION, op,
                           COND_BETWEEN);
        } else if (ex_value_can_be_key(x, v)) {
            ex_add_key(x, v, role, attr, SITE_CONDITION, op, conds[i].op);
        }
    }
    return true;
}
