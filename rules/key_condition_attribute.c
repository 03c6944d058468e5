/* key-condition-attribute: a key condition on an attribute that is not a
 * key of the table or index queried (design.md, access-pattern rules):
 * `status = :s` in a KeyConditionExpression, the table's `pk` while
 * querying GSI1, GSI1PK without IndexName, and a key condition with no
 * condition on the partition key at all. Needs the table (schema files or
 * a table defined in code); silent otherwise. */
#include <string.h>

#include "access.h"
#include "rule.h"

/* Where `attr` is a key in `t`: "the table's partition key", "the sort key
 * of index GSI2", ... NULL when it is none; *ix the index. */
static const char *key_of(Arena *a, const TableDef *t, const char *attr, const TableIndex **ix)
{
    *ix = NULL;
    if (t->pk.name && !strcmp(t->pk.name, attr))
        return "the table's partition key";
    if (t->sk.name && !strcmp(t->sk.name, attr))
        return "the table's sort key";
    for (size_t i = 0; i < t->indexes.n; i++) {
        const TableIndex *x = &t->indexes.v[i];
        if (x->kind == INDEX_GLOBAL && x->pk.name && !strcmp(x->pk.name, attr)) {
            *ix = x;
            return arena_printf(a, "the partition key of index %s", x->name);
        }
        if (x->sk.name && !strcmp(x->sk.name, attr)) {
            *ix = x;
            return arena_printf(a, "the sort key of index %s", x->name);
        }
    }
    return NULL;
}

static const char *keys(Arena *a, const KeyAttr *pk, const KeyAttr *sk)
{
    return sk && sk->name ? arena_printf(a, "%s, %s", pk->name, sk->name)
                          : arena_strdup(a, pk->name);
}

static void check_op(const RuleContext *ctx, Arena *a, const KfOpKeys *op_keys, size_t opi)
{
    const FileIR *f = ctx->file;
    OpTarget t;
    access_target(a, ctx->access, ctx->tables, ctx->config, f, opi, &t);
    if (!t.table || (t.has_index && !t.ix) || !t.pk || !t.pk->name || t.pk->unknown ||
        t.sk->unknown)
        return;
    OpCond *conds;
    bool complete;
    size_t n = access_conditions(a, f, op_keys, opi, &conds, &complete);
    if (!n)
        return;
    const char *target = t.ix ? arena_printf(a, "index %s of table %s", t.ix->name, t.table->id)
                              : arena_printf(a, "table %s", table_label(a, t.table));
    const char *tkeys = keys(a, t.pk, t.sk);
    bool has_pk = false;
    size_t reported = 0;
    for (size_t i = 0; i < n; i++) {
        const char *attr = conds[i].attr;
        if (!strcmp(attr, t.pk->name)) {
            has_pk = true;
            continue;
        }
        if (t.sk->name && !strcmp(attr, t.sk->name))
            continue;
        const TableIndex *other;
        const char *is = key_of(a, t.table, attr, &other);
        reported++;
        if (is && other && !t.ix)
            rule_report(ctx, conds[i].span,
                        "'%s' is %s, but this query names no index and so reads %s, whose keys "
                        "are %s: add IndexName '%s' (or use the table's keys)",
                        attr, is, target, tkeys, other->name);
        else if (is)
            rule_report(ctx, conds[i].span,
                        "'%s' is %s, not a key of %s (%s): a key condition can only use the keys "
                        "of what it queries%s%s%s",
                        attr, is, target, tkeys, other ? "; query index " : "",
                        other ? other->name : "", other ? " instead" : "");
        else
            rule_report(ctx, conds[i].span,
                        "'%s' is not a key of %s (%s): a key condition can only use the "
                        "partition and sort key; filter on '%s' with a FilterExpression, or add "
                        "an index keyed on it",
                        attr, target, tkeys, attr);
    }
    if (!has_pk && complete && !reported)
        rule_report(ctx, conds[0].span,
                    "this query's key condition has no condition on the partition key '%s' of "
                    "%s: DynamoDB needs `%s = :value` in every query",
                    t.pk->name, target, t.pk->name);
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->tables || !ctx->access)
        return;
    Arena *a = arena_new();
    KfOpKeys op_keys;
    kf_op_keys(a, f, &op_keys);
    for (size_t i = 0; i < f->ops.n; i++)
        if (f->ops.v[i].kind == OP_QUERY)
            check_op(ctx, a, &op_keys, i);
    arena_free(a);
}

const RuleDesc rule_key_condition_attribute = {
    .id = "key-condition-attribute",
    .summary = "a key condition on an attribute that is not a key of the table or index queried",
    .default_severity = SEV_ERROR,
    .check = check,
};
