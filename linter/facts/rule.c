/* How a rule reports (rule.h): a finding of the running rule, at its
 * severity, in the file the rule reads or at another path; an error
 * without evidence as a warning. */
#include <stdarg.h>

#include "facts.h"
#include "rule.h"

Diagnostic *rule_report(const RuleContext *ctx, Span span, const char *fmt,
                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ctx->out->arena, fmt, ap);
    va_end(ap);
    return diag_add(ctx->out, ctx->rule->id, ctx->severity, ctx->file->path,
                    span, "%s", msg);
}

Diagnostic *rule_report_at(const RuleContext *ctx, const char *path, Span span,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ctx->out->arena, fmt, ap);
    va_end(ap);
    return diag_add(ctx->out, ctx->rule->id, ctx->severity, path, span, "%s", msg);
}

Diagnostic *rule_unproven(const RuleContext *ctx, Diagnostic *d)
{
    if (d && d->severity > SEV_WARNING &&
        !(ctx->config && config_rule_severity(ctx->config, ctx->rule->id, SEV_OFF) != SEV_OFF))
        d->severity = SEV_WARNING;
    return d;
}

Diagnostic *rule_unproven_guess(const RuleContext *ctx, Diagnostic *d, const KeyExpr *k)
{
    return k && k->role_guessed ? rule_unproven(ctx, d) : d;
}

Span rule_key_part_span(const KeyExpr *k, const Seg *s)
{
    const Span *in = k->via ? &k->via_span : &k->span;
    if (!s)
        return *in;
    if (s->span.end_byte > s->span.start_byte && s->span.start_byte >= in->start_byte &&
        s->span.end_byte <= in->end_byte)
        return s->span;
    return k->span;
}

const HelperDef *rule_key_helper(const RuleContext *ctx, const KeyExpr *k)
{
    const FileIR *f = ctx->file;
    const HelperDef *best = NULL;
    if (!f || (k->site != SITE_HELPER && k->site != SITE_ENTITY))
        return NULL;
    for (size_t i = 0; i < f->helpers.n; i++) {
        const HelperDef *h = &f->helpers.v[i];
        if (kf_in_helper(h, k) && (!best || (h->span.start_byte >= best->span.start_byte &&
                                             h->span.end_byte <= best->span.end_byte)))
            best = h;
    }
    return best;
}

void rule_relate_calls(const RuleContext *ctx, Diagnostic *d, const KeyExpr *k)
{
    const HelperDef *h = d && ctx->facts ? rule_key_helper(ctx, k) : NULL;
    if (!h)
        return;
    const HelperCallSite *calls[DIAG_MAX_RELATED];
    size_t n = facts_helper_calls(ctx->facts, ctx->file->path, h->name, calls, DIAG_MAX_RELATED);
    for (size_t i = 0; i < n; i++)
        diag_relate(ctx->out, d, calls[i]->path, calls[i]->span,
                    "a call of %s that builds this key", h->name);
}
