/* unserved-access-pattern: an access pattern declared in the
 * configuration (`access-patterns:`) that no table key or index can serve
 * (design.md, access-pattern rules). A key or index serves a pattern when
 * the project writes keys of the pattern's partition-key shape to its
 * partition key attribute and, for a sort-key condition, keys that match it
 * to its sort key attribute (linter/access.h). One that nothing is seen
 * written to may serve it: not reported. Needs a table (schema files or
 * tables in code); silent without one. `keylint --access-patterns` prints
 * every pattern with what serves it. */
#include "access.h"
#include "rule.h"

static void check(const RuleContext *ctx)
{
    (void)ctx; /* a configuration's patterns are judged once: check_project */
}

static void check_project(const RuleContext *ctx)
{
    const Config *cfg = ctx->config;
    if (!cfg || !cfg->path || !ctx->tables || !ctx->access || !ctx->tables->set.tables.n)
        return;
    Arena *a = arena_new();
    const char *path = file_display_path(a, cfg->path);
    for (size_t i = 0; i < cfg->access_patterns.n; i++) {
        const AccessPattern *ap = &cfg->access_patterns.v[i];
        PatternServe s;
        access_serve(a, ctx->access, ctx->tables, ap, &s);
        if (s.state != SERVE_NO)
            continue;
        Span at = {.start_row = ap->line ? ap->line - 1 : 0,
                   .end_row = ap->line ? ap->line - 1 : 0};
        rule_report_at(ctx, path, at,
                       "access pattern '%s' (pk %s%s%s) is not served: %s", ap->name, ap->pk,
                       ap->sk ? ", sk " : "", ap->sk ? ap->sk : "", s.detail);
    }
    arena_free(a);
}

const RuleDesc rule_unserved_access_pattern = {
    .id = "unserved-access-pattern",
    .summary = "a configured access pattern that no table key or index can serve",
    .default_severity = SEV_WARNING,
    .check = check,
    .check_project = check_project,
};
