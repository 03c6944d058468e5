/* Extraction, layer 3 (idioms): a project's own update function called
 * with the UpdateCommand's parts as separate arguments,
 * `updateItem(TABLE(), { PK: `EVENT#${id}`, SK: 'PROFILE' }, 'SET #status
 * = :s, GSI3PK = :gsi3pk', { ':s': 'DONE', ':gsi3pk': 'EVENT_STATUS#DONE'
 * }, { '#status': 'status' })`: read at the call as the update it makes,
 * its Key the object of key attributes handed beside the expression (as
 * ex_positional_query reads a query function's call). */
#include <ctype.h>
#include <string.h>

#include "ddbexpr.h"
#include "extract_int.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }

/* Whether placeholder `name` (":gsi3pk") is named by `expr`, not as the
 * start of a longer one (":gsi3pkOld"). */
static bool names_placeholder(const char *expr, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(expr, name); at; at = strstr(at + 1, name))
        if (!isalnum((unsigned char)at[len]) && at[len] != '_')
            return true;
    return false;
}

/* An object built empty and filled after (`const values = {}; ...
 * values[':gsi3sk'] = ...`) whose properties set so are placeholders
 * `mark` and one of them one `expr` names. */
static bool filled_placeholders(Ex *x, SynNode obj, char mark, const char *expr)
{
    if (!is(obj, "object") || syn_count(x->syn, obj))
        return false;
    size_t n;
    const AssignedProp *props = ex_assigned_props(x, obj, &n);
    bool named = false;
    for (size_t i = 0; i < n; i++) {
        if (!props[i].name) /* `values[`:${field}`] = ...`: a name made at run time */
            continue;
        if (props[i].name[0] != mark || !props[i].name[1])
            return false;
        named |= names_placeholder(expr, props[i].name);
    }
    return named;
}

static SynNode placeholders(Ex *x, SynNode args, char mark, const char *expr)
{
    SynNode found = ex_placeholders_arg(x, args, mark, expr);
    uint32_t cnt = syn_count(x->syn, args);
    for (uint32_t i = 0; i < cnt && syn_null(found); i++) {
        SynNode a = syn_unwrap(x->syn, syn_child(x->syn, args, i));
        /* `Object.keys(names).length > 0 ? names : undefined` */
        if (is(a, "ternary_expression"))
            a = ex_field(x, a, "consequence");
        a = ex_follow(x, a, NULL, NULL);
        if (filled_placeholders(x, a, mark, expr))
            found = a;
    }
    return found;
}

/* Whether object `obj` has a key attribute by its spelling (`PK`, `sk`,
 * a configured name) among its own pairs. */
static bool has_key_attr(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair") && !is(p, "shorthand_property_identifier"))
            continue;
        const char *name = is(p, "pair") ? ex_prop_name(x, p) : ex_ntext(x, p);
        int role = name ? key_role_for_name(x->cfg, name) : -1;
        if (role == ROLE_PK || role == ROLE_SK)
            return true;
    }
    return false;
}

/* An UpdateExpression that sets at least one attribute from a value. */
static bool update_text(Ex *x, const char *e)
{
    StrList targets = {0};
    return strchr(e, ':') && ddb_parse_update_targets(x->a, e, &targets) && targets.n;
}

bool ex_positional_update(Ex *x, SynNode call)
{
    SynNode args = ex_field(x, call, "arguments");
    SynNode fn = syn_unwrap(x->syn, ex_field(x, call, "function"));
    if (syn_null(args) || (!is(fn, "identifier") && !is(fn, "member_expression")))
        return false;
    uint32_t cnt = syn_count(x->syn, args);
    SynNode ue;
    const char *s = ex_expression_arg(x, args, update_text, true, &ue);
    if (!s)
        return false;
    SynNode values = placeholders(x, args, ':', s);
    if (!is(values, "object") || ex_consumed(x, values))
        return false;
    /* the item's key: an object of key attributes handed beside them */
    SynNode names = placeholders(x, args, '#', s);
    SynNode key = {0};
    for (uint32_t i = 0; i < cnt && syn_null(key); i++) {
        SynNode a = ex_follow(x, syn_child(x->syn, args, i), NULL, NULL);
        if (is(a, "object") && !syn_eq(a, values) && !syn_eq(a, names) && !ex_consumed(x, a) &&
            has_key_attr(x, a))
            key = syn_child(x->syn, args, i);
    }
    if (syn_null(key))
        return false;
    ex_consume(x, values);
    int op = ex_add_op(x, OP_UPDATE, API_SDK_PART, call, ex_ntext(x, fn));
    ex_key_object(x, key, SITE_READ, op);
    x->partial_joins = true;
    ex_update_expression(x, ue, names, values, op);
    x->partial_joins = false;
    return true;
}
