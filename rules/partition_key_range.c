/* partition-key-range: begins_with, between, <, <=, >, >= on a partition
 * key in a query's key condition (design.md, access-pattern rules). A
 * query names one partition exactly; only the sort key takes a range. The
 * partition key is the queried table's or index's (schema files or tables
 * in code); without a table, an attribute whose name says partition key
 * (pk, PK, GSI1PK, the configured key-attributes). On an index that is not
 * known, only an index partition-key name counts: the table's own key
 * names say nothing of an index, which is often the inverted one (hash SK,
 * range PK: `SK = :id AND begins_with(PK, :type)`). Every attribute of a
 * global index's multi-attribute partition key is a partition key. Scans
 * are never judged: begins_with on pk in a Scan's FilterExpression is a
 * filter. */
#include <string.h>

#include "access.h"
#include "rule.h"

static bool is_range(CondOp op)
{
    return op == COND_BEGINS_WITH || op == COND_BETWEEN || op == COND_LT || op == COND_LE ||
           op == COND_GT || op == COND_GE;
}

static const char *op_words(CondOp op)
{
    switch (op) {
    case COND_BEGINS_WITH:
        return "begins_with";
    case COND_BETWEEN:
        return "BETWEEN";
    case COND_LT:
        return "'<'";
    case COND_LE:
        return "'<='";
    case COND_GT:
        return "'>'";
    case COND_GE:
        return "'>='";
    default:
        return cond_op_name(op);
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed)
        return;
    Arena *a = arena_new();
    KfOpKeys keys;
    kf_op_keys(a, f, &keys);
    for (size_t i = 0; i < f->ops.n; i++) {
        if (f->ops.v[i].kind != OP_QUERY)
            continue;
        OpCond *conds;
        bool complete;
        size_t n = access_conditions(a, f, &keys, i, &conds, &complete);
        OpTarget t = {0};
        if (ctx->tables && ctx->access)
            access_target(a, ctx->access, ctx->tables, ctx->config, f, i, &t);
        bool known = t.table && t.pk && t.pk->name && !t.pk->unknown;
        for (size_t j = 0; j < n; j++) {
            if (!is_range(conds[j].op))
                continue;
            const char *attr = conds[j].attr;
            bool pk;
            if (known) {
                pk = !strcmp(attr, t.pk->name);
                /* every attribute of a multi-attribute partition key */
                for (size_t k = 1; t.ix && !pk && index_key_attr(t.ix, false, k); k++)
                    pk = index_key_attr(t.ix, false, k)->name &&
                         !strcmp(attr, index_key_attr(t.ix, false, k)->name);
            } else {
                int role = key_role_for_name(ctx->config, attr);
                pk = role == ROLE_INDEX_PK || (role == ROLE_PK && !t.has_index);
            }
            if (!pk)
                continue;
            Diagnostic *d = rule_report(ctx, conds[j].clause,
                        "%s on partition key '%s': a query names exactly one partition "
                        "(`%s = :value`); only the sort key takes begins_with, between, <, >. "
                        "Move the varying part into the sort key, or add an index whose sort "
                        "key holds it",
                        op_words(conds[j].op), attr, attr);
            /* the evidence: the definition that makes `attr` the partition
             * key; a name that only looks like one is a guess */
            if (known && t.ix && t.ix->span.end_byte)
                diag_relate(ctx->out, d, t.table->path, t.ix->span,
                            "index %s of table %s is defined here, with partition key %s",
                            t.ix->name, t.table->id, t.pk->name);
            else if (known)
                diag_relate(ctx->out, d, t.table->path, t.table->span,
                            "table %s is defined here, with partition key %s",
                            table_label(a, t.table), t.pk->name);
            if (!known || t.guessed)
                rule_unproven(ctx, d);
        }
    }
    arena_free(a);
}

const RuleDesc rule_partition_key_range = {
    .id = "partition-key-range",
    .summary = "begins_with, between, <, > on a partition key in a query's key condition",
    .default_severity = SEV_ERROR,
    .check = check,
};
