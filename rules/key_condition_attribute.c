/* key-condition-attribute: a key condition on an attribute that is not a
 * key of the table or index queried (design.md, access-pattern rules):
 * `status = :s` in a KeyConditionExpression, the table's `pk` while
 * querying GSI1, GSI1PK without IndexName, and a key condition with no
 * condition on the partition key at all. On a global index with a
 * multi-attribute key, a query names every partition key attribute and the
 * sort key attributes from the first on, without a gap, a range only on
 * the last it names (DynamoDB Developer Guide, "Multi-attribute keys
 * pattern"). Needs the table (schema files or a table defined in code);
 * silent otherwise. */
#include <string.h>

#include "access.h"
#include "rule.h"

/* Whether `attr` is attribute k of a key of index x (`sort`): *at = k. */
static bool in_key(const TableIndex *x, bool sort, const char *attr, size_t *at)
{
    for (size_t k = 0; index_key_attr(x, sort, k); k++) {
        const KeyAttr *ka = index_key_attr(x, sort, k);
        if (ka->name && !strcmp(ka->name, attr)) {
            if (at)
                *at = k;
            return true;
        }
    }
    return false;
}

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
        if (x->kind == INDEX_GLOBAL && in_key(x, false, attr, NULL)) {
            *ix = x;
            return arena_printf(a, "%s of index %s",
                                index_key_attr(x, false, 1) ? "part of the partition key"
                                                            : "the partition key",
                                x->name);
        }
        if (in_key(x, true, attr, NULL)) {
            *ix = x;
            return arena_printf(a, "%s of index %s",
                                index_key_attr(x, true, 1) ? "part of the sort key"
                                                           : "the sort key",
                                x->name);
        }
    }
    return NULL;
}

/* "pk, sk", or for a multi-attribute key "(a, b), (c, d)". */
static const char *key_list(Arena *a, const TableIndex *ix, const KeyAttr *pk, const KeyAttr *sk)
{
    if (!ix)
        return sk && sk->name ? arena_printf(a, "%s, %s", pk->name, sk->name)
                              : arena_strdup(a, pk->name);
    StrBuf b;
    sb_init(&b, a);
    for (int sort = 0; sort < 2; sort++) {
        bool multi = index_key_attr(ix, sort, 1) != NULL;
        if (!index_key_attr(ix, sort, 0))
            continue;
        sb_append(&b, sort ? ", " : "");
        sb_append(&b, multi ? "(" : "");
        for (size_t k = 0; index_key_attr(ix, sort, k); k++)
            sb_printf(&b, "%s%s", k ? ", " : "", index_key_attr(ix, sort, k)->name);
        sb_append(&b, multi ? ")" : "");
    }
    return sb_str(&b);
}

/* Some key attribute of what is queried is not known. */
static bool keys_unknown(const OpTarget *t)
{
    if (!t->pk || !t->pk->name || t->pk->unknown || t->sk->unknown)
        return true;
    for (int sort = 0; t->ix && sort < 2; sort++)
        for (size_t k = 0; index_key_attr(t->ix, sort, k); k++)
            if (index_key_attr(t->ix, sort, k)->unknown)
                return true;
    return false;
}

/* The conditions of a multi-attribute key: each partition key attribute,
 * the sort key attributes from the first without a gap, a range only on
 * the last one named. */
/* The evidence of a finding: the definition of the table or index the
 * query reads, which lists its keys. */
static void evidence(const RuleContext *ctx, Arena *a, const OpTarget *t, Diagnostic *d)
{
    if (t->ix && t->ix->span.end_byte)
        diag_relate(ctx->out, d, t->table->path, t->ix->span,
                    "index %s of table %s is defined here", t->ix->name, t->table->id);
    else
        diag_relate(ctx->out, d, t->table->path, t->table->span, "table %s is defined here",
                    table_label(a, t->table));
    if (t->guessed) /* the definition is evidence only of a table this query may not read */
        rule_unproven(ctx, d);
}

static void check_multi(const RuleContext *ctx, Arena *a, const OpTarget *t, const OpCond *conds,
                        size_t n, const char *target)
{
    const TableIndex *ix = t->ix;
    const OpCond *by_sk[MAX_KEY_ATTRS] = {0};
    for (size_t i = 0; i < n; i++) {
        size_t k;
        if (in_key(ix, true, conds[i].attr, &k))
            by_sk[k] = &conds[i];
    }
    for (size_t k = 0; index_key_attr(ix, false, k); k++) {
        const char *name = index_key_attr(ix, false, k)->name;
        bool named = false;
        for (size_t i = 0; i < n && !named; i++)
            named = !strcmp(conds[i].attr, name);
        if (!named)
            evidence(ctx, a, t, rule_report(ctx, conds[0].span,
                        "this query names no value for '%s', part of the partition key of %s "
                        "(%s): DynamoDB needs `%s = :value` for every attribute of a "
                        "multi-attribute partition key",
                        name, target, key_list(a, ix, NULL, NULL), name));
    }
    size_t last = SIZE_MAX; /* the last sort key attribute named */
    for (size_t k = 0; k < MAX_KEY_ATTRS; k++)
        if (by_sk[k])
            last = k;
    for (size_t k = 0; last != SIZE_MAX && k <= last; k++) {
        const char *name = index_key_attr(ix, true, k)->name;
        if (!by_sk[k]) {
            evidence(ctx, a, t, rule_report(ctx, by_sk[last]->span,
                        "'%s' is a sort key attribute of %s after '%s', which this query "
                        "names no condition on: DynamoDB takes the attributes of a "
                        "multi-attribute sort key from the first on, without a gap (%s)",
                        by_sk[last]->attr, target, name, key_list(a, ix, NULL, NULL)));
            break;
        }
        if (k < last && by_sk[k]->op != COND_EQ && by_sk[k]->op != COND_NONE) {
            evidence(ctx, a, t, rule_report(ctx, by_sk[k]->clause,
                        "'%s' takes a range here, but this query also names '%s', a later "
                        "attribute of the sort key of %s: DynamoDB takes a range only on the "
                        "last sort key attribute a query names, every one before it with `=`",
                        name, by_sk[last]->attr, target));
            break;
        }
    }
}

static void check_op(const RuleContext *ctx, Arena *a, const KfOpKeys *op_keys, size_t opi)
{
    const FileIR *f = ctx->file;
    OpTarget t;
    access_target(a, ctx->access, ctx->tables, ctx->config, f, opi, &t);
    if (!t.table || (t.has_index && !t.ix) || keys_unknown(&t))
        return;
    OpCond *conds;
    bool complete;
    size_t n = access_conditions(a, f, op_keys, opi, &conds, &complete);
    if (!n)
        return;
    const char *target = t.ix ? arena_printf(a, "index %s of table %s", t.ix->name, t.table->id)
                              : arena_printf(a, "table %s", table_label(a, t.table));
    const char *tkeys = key_list(a, t.ix, t.pk, t.sk);
    bool has_pk = false;
    size_t reported = 0;
    for (size_t i = 0; i < n; i++) {
        const char *attr = conds[i].attr;
        if (t.ix ? in_key(t.ix, false, attr, NULL) : !strcmp(attr, t.pk->name)) {
            has_pk = true;
            continue;
        }
        if (t.ix ? in_key(t.ix, true, attr, NULL) : t.sk->name && !strcmp(attr, t.sk->name))
            continue;
        const TableIndex *other;
        const char *is = key_of(a, t.table, attr, &other);
        reported++;
        if (is && other && !t.ix)
            evidence(ctx, a, &t, rule_report(ctx, conds[i].clause,
                        "'%s' is %s, but this query names no index and so reads %s, whose keys "
                        "are %s: add IndexName '%s' (or use the table's keys)",
                        attr, is, target, tkeys, other->name));
        else if (is)
            evidence(ctx, a, &t, rule_report(ctx, conds[i].clause,
                        "'%s' is %s, not a key of %s (%s): a key condition can only use the keys "
                        "of what it queries%s%s%s",
                        attr, is, target, tkeys, other ? "; query index " : "",
                        other ? other->name : "", other ? " instead" : ""));
        else
            evidence(ctx, a, &t, rule_report(ctx, conds[i].clause,
                        "'%s' is not a key of %s (%s): a key condition can only use the "
                        "partition and sort key; filter on '%s' with a FilterExpression, or add "
                        "an index keyed on it",
                        attr, target, tkeys, attr));
    }
    bool multi = t.ix && (index_key_attr(t.ix, false, 1) || index_key_attr(t.ix, true, 1));
    if (!has_pk && complete && !reported)
        evidence(ctx, a, &t, rule_report(ctx, conds[0].span,
                    "this query's key condition has no condition on the partition key '%s' of "
                    "%s: DynamoDB needs `%s = :value` in every query",
                    t.pk->name, target, t.pk->name));
    else if (multi && complete && !reported)
        check_multi(ctx, a, &t, conds, n, target);
}

/* Two conditions on one key attribute (`begins_with(SK, :p) AND SK >= :t`)
 * in an expression written as one literal: DynamoDB takes one condition per
 * key attribute and rejects the query, whatever the table. The evidence is
 * the first condition. */
static void check_twice(const RuleContext *ctx, Arena *a, const DataOp *op)
{
    /* only an expression written as one literal: one built with `+=` in
     * branches is read as all its parts at once */
    KeyConds kc = {0};
    if (!op->key_condition || !op->key_condition_exact ||
        !ddb_parse_key_condition(a, op->key_condition, &kc))
        return;
    const OpParams *ex = op_params(op);
    for (size_t i = 1; i < kc.items.n; i++) {
        const char *name = op_param_name(ex, kc.items.v[i].attr);
        if (!name || name[0] == '#')
            continue;
        for (size_t j = 0; j < i; j++) {
            const char *first = op_param_name(ex, kc.items.v[j].attr);
            if (!first || strcmp(first, name))
                continue;
            const KeyCond *c = &kc.items.v[i], *p = &kc.items.v[j];
            Diagnostic *d = rule_report(
                ctx, access_clause_at(op, c),
                "the key condition names '%s' twice (%.*s and %.*s): DynamoDB takes one "
                "condition per key attribute and rejects this query; use BETWEEN for a "
                "range, or move one of them to a FilterExpression",
                name, (int)p->len, op->key_condition + p->offset, (int)c->len,
                op->key_condition + c->offset);
            diag_relate(ctx->out, d, NULL, access_clause_at(op, p), "'%s' is conditioned here first",
                        name);
            return;
        }
    }
}

/* A Query whose parameters, known whole, have no key condition at all
 * (a FilterExpression where the KeyConditionExpression belongs, a typed
 * ScanCommandInput handed to a QueryCommand): DynamoDB rejects it ("Either
 * the KeyConditions or KeyConditionExpression parameter must be
 * specified"), whatever the table. The evidence is the parameters object. */
static void check_no_condition(const RuleContext *ctx, const DataOp *op)
{
    if (!op->params_closed || op->key_condition)
        return;
    enum { FILTER_SHOWN = 80 }; /* of a long filter, its start and "..." */
    const char *filter = op->params.filter;
    bool cut = filter && strlen(filter) > FILTER_SHOWN;
    Diagnostic *d = rule_report(
        ctx, op->span,
        "this query's parameters have no KeyConditionExpression: DynamoDB rejects a Query "
        "without one (ValidationException)%s%.*s%s%s",
        filter ? "; its FilterExpression '" : "; name the partition key (`PK = :pk`), or use "
                                              "a Scan to read the whole table",
        FILTER_SHOWN, filter ? filter : "", cut ? "..." : "",
        filter ? "' is applied after the read and cannot choose the partition: move the "
                 "partition key's condition to a KeyConditionExpression"
               : "");
    diag_relate(ctx->out, d, NULL, op->params_span,
                "the parameters, with no KeyConditionExpression or KeyConditions");
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->access)
        return;
    Arena *a = arena_new();
    KfOpKeys op_keys;
    kf_op_keys(a, f, &op_keys);
    for (size_t i = 0; i < f->ops.n; i++) {
        if (f->ops.v[i].kind != OP_QUERY)
            continue;
        check_twice(ctx, a, &f->ops.v[i]);
        check_no_condition(ctx, &f->ops.v[i]);
        if (ctx->tables)
            check_op(ctx, a, &op_keys, i);
    }
    arena_free(a);
}

const RuleDesc rule_key_condition_attribute = {
    .id = "key-condition-attribute",
    .summary = "a key condition on an attribute that is not a key of the table or index queried",
    .default_severity = SEV_ERROR,
    .check = check,
};
