/* unknown-index: a query or scan on an index the table does not have
 * (design.md, access-pattern rules). The table comes from the schema
 * files or from tables defined in code (linter/access.h); without one, or
 * when the table's indexes may be incomplete (a condition, a spread, an
 * index added where keylint cannot read it), the rule stays silent. */
#include <string.h>
#include <strings.h>

#include "access.h"
#include "rule.h"

enum { MAX_LISTED = 10 }; /* index names a finding lists */

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->tables || !ctx->access)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < f->ops.n; i++) {
        if (f->ops.v[i].kind != OP_QUERY && f->ops.v[i].kind != OP_SCAN)
            continue;
        OpTarget t;
        access_target(a, ctx->access, ctx->tables, ctx->config, f, i, &t);
        if (!t.table || !t.index || t.ix || t.table->indexes_open)
            continue;
        const TableDef *tb = t.table;
        const char *near = NULL;
        StrBuf list; /* the first MAX_LISTED names */
        sb_init(&list, a);
        size_t best = 3;
        for (size_t j = 0; j < tb->indexes.n; j++) {
            const char *n = tb->indexes.v[j].name;
            if (j < MAX_LISTED)
                sb_printf(&list, "%s%s", j ? ", " : "", n);
            else if (j == MAX_LISTED)
                sb_append(&list, ", ...");
            size_t d = strcasecmp(n, t.index) ? edit_distance(n, strlen(n), t.index, strlen(t.index)) : 0;
            if (d < best) {
                best = d;
                near = n;
            }
        }
        const char *has = tb->indexes.n ? arena_printf(a, "its indexes are %s", sb_str(&list))
                                        : "it has no secondary index";
        const char *hint = !near ? ""
                         : best == 0 ? arena_printf(a, "; did you mean '%s'? (index names are "
                                                       "case-sensitive)", near)
                                     : arena_printf(a, "; did you mean '%s'?", near);
        Diagnostic *d =
            rule_report(ctx, t.index_span,
                        "index '%s' is not defined on table %s (%s:%u): %s%s (%s)", t.index,
                        table_label(a, tb), tb->path, tb->span.start_row + 1, has, hint,
                        t.how ? t.how : "the operation's table");
        /* the evidence: the table's definition, which lists its indexes */
        diag_relate(ctx->out, d, tb->path, tb->span, "table %s is defined here",
                    table_label(a, tb));
        if (t.guessed) /* the definition proves nothing about a table guessed by name */
            rule_unproven(ctx, d);
    }
    arena_free(a);
}

const RuleDesc rule_unknown_index = {
    .id = "unknown-index",
    .summary = "a query or scan on an index the table does not define",
    .default_severity = SEV_ERROR,
    .check = check,
};
