/* versioned-sk-read: a sort key with a version suffix used to read the data
 * table, which stores items without it (the mbc-cqrs-serverless Key Design
 * Patterns: `ID = PK#SK (without version)`, anti-pattern "Version Suffix in
 * Data Operations"). */
#include <string.h>
#include <strings.h>

#include "keyfacts.h"
#include "rule.h"

static bool contains_ci(const char *s, const char *needle)
{
    if (!s)
        return false;
    for (size_t n = strlen(needle); *s; s++)
        if (!strncasecmp(s, needle, n))
            return true;
    return false;
}

/* The read goes to the data table (or a table we cannot place). */
static bool reads_data_table(const DataOp *o, const Config *cfg)
{
    if (!op_is_read(o->kind))
        return false;
    if (o->api == API_MBC_HISTORY || o->api == API_MBC_COMMAND)
        return false;
    if (o->table_kind != TABLE_DATA && o->table_kind != TABLE_UNKNOWN)
        return false;
    if (o->table_kind == TABLE_UNKNOWN) {
        if (contains_ci(o->table, "history") || contains_ci(o->table, "command"))
            return false;
        if (cfg && o->table && (strlist_has(&cfg->history_tables, o->table) ||
                                strlist_has(&cfg->command_tables, o->table)))
            return false;
    }
    return true;
}

/* How the version shows, for the message. */
static const char *describe(Arena *a, const Seg *why, const char *render,
                            const Config *cfg)
{
    if (!why)
        return render;
    if (why->kind == SEG_CALL)
        return arena_printf(a, "%s(...)", why->text ? why->text : "?");
    if (why->kind == SEG_REF)
        return arena_printf(a, "'%s', assigned from addSortKeyVersion",
                            why->text ? why->text : "?");
    if (why->kind == SEG_TEXT && (why->flags & SEGF_VERSION_SEP) && why->name)
        return arena_printf(a, "%s followed by a version", why->name);
    if (why->kind == SEG_TEXT && cfg && cfg->version_separator)
        return arena_printf(a, "'%s' followed by a version",
                            cfg->version_separator);
    return render;
}

/* What to hand to removeSortKeyVersion(). */
static const char *fix_arg(const KeyExpr *k, const Seg *why)
{
    if (k->via)
        return k->via;
    if (why && why->kind == SEG_REF && why->text)
        return why->text;
    if (why && why->kind == SEG_CALL && why->nargs > 0 &&
        why->args[0].n == 1 && why->args[0].v[0].kind == SEG_REF)
        return why->args[0].v[0].text;
    return "sk";
}

#define FRAMEWORK "@mbc-cqrs-serverless/core"

/* How this file calls the framework's removeSortKeyVersion, and where
 * that name must come from (Diagnostic.need): its local name when it is
 * imported from the framework (under any alias), `ns.removeSortKeyVersion`
 * for a namespace import of the framework, or the plain name with an
 * import the fix proof adds when the file imports something else from the
 * framework; NULL when the file does not use the framework (a local
 * function of that name is not the framework's). */
static const char *remover(Arena *a, const FileIR *ir, Diagnostic *d)
{
    bool framework = false;
    for (size_t i = 0; i < ir->imports.n; i++) {
        const Import *im = &ir->imports.v[i];
        if (!im->imported || !im->local || !im->source || strcmp(im->source, FRAMEWORK))
            continue;
        framework = true;
        if (!strcmp(im->imported, "removeSortKeyVersion")) {
            d->need[0].name = arena_strdup(a, im->local);
            d->need[0].exported = "removeSortKeyVersion";
            d->need[0].package = FRAMEWORK;
            return d->need[0].name;
        }
    }
    for (size_t i = 0; i < ir->imports.n; i++) {
        const Import *im = &ir->imports.v[i];
        if (im->imported && im->local && im->source && !strcmp(im->imported, "*") &&
            !strcmp(im->source, FRAMEWORK)) {
            d->need[0].name = arena_strdup(a, im->local);
            d->need[0].exported = "*";
            d->need[0].package = FRAMEWORK;
            return arena_printf(a, "%s.removeSortKeyVersion", im->local);
        }
    }
    if (!framework)
        return NULL;
    d->need[0].name = d->need[0].exported = "removeSortKeyVersion";
    d->need[0].package = FRAMEWORK;
    return "removeSortKeyVersion";
}

/* The sort key as written at the read: a variable (the key flowed through
 * it) or a lone reference, whose source text is known; NULL otherwise. */
static const char *value_text(const KeyExpr *k)
{
    size_t width = k->span.end_byte - k->span.start_byte;
    if (k->span.start_row != k->span.end_row)
        return NULL;
    if (k->via && strlen(k->via) == width)
        return k->via;
    if (k->segs.n == 1 && k->segs.v[0].kind == SEG_REF && k->segs.v[0].text &&
        k->segs.v[0].span.start_byte == k->span.start_byte &&
        k->segs.v[0].span.end_byte == k->span.end_byte &&
        strlen(k->segs.v[0].text) == width)
        return k->segs.v[0].text;
    return NULL;
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < file->keys.n; i++) {
        const KeyExpr *k = &file->keys.v[i];
        if (k->site != SITE_READ && k->site != SITE_CONDITION)
            continue;
        if (k->role != ROLE_SK &&
            !(k->role == ROLE_KEY && kf_attr_is_sk(k->attr, ctx->config)))
            continue;
        if (k->op < 0 || (size_t)k->op >= file->ops.n)
            continue;
        const DataOp *o = &file->ops.v[k->op];
        if (!reads_data_table(o, ctx->config))
            continue;
        KfKey key;
        rule_key_flat(ctx, a, k, &key);
        const Seg *why;
        if (!kf_is_versioned(&key, ctx->config, &why))
            continue;
        const char *render = seglist_label(a, &k->segs);
        const char *arg = fix_arg(k, why);
        Diagnostic *d = rule_report(
            ctx, k->span,
            "sort key %s carries a version suffix (%s) but reads the data "
            "table with %s, which stores items without it; pass "
            "removeSortKeyVersion(%s)",
            render, describe(a, why, render, ctx->config), o->callee ? o->callee : "a read",
            arg);
        /* the evidence: where the version is added to the key */
        if (why && why->span.end_byte)
            diag_relate(ctx->out, d, NULL, why->span, "the version is added to the sort key here");
        else
            rule_unproven(ctx, d);
        d->fix = arena_printf(ctx->out->arena, "removeSortKeyVersion(%s)", arg);
        /* Machine-applicable: wrap the value read in the framework's
         * removeSortKeyVersion when its text is known. */
        const char *old = value_text(k);
        const char *callee = old ? remover(ctx->out->arena, file, d) : NULL;
        if (callee) {
            d->has_edit = true;
            d->edit_span = k->span;
            d->edit_old = arena_strdup(ctx->out->arena, old);
            d->edit_text = arena_printf(ctx->out->arena, "%s(%s)", callee, old);
            /* it changes the key (by intent): never applied unasked */
            d->unsafe = true;
            d->unsafe_why = "it changes the sort key the read uses (drops its version)";
        }
    }
    arena_free(a);
}

const RuleDesc rule_versioned_sk_read = {
    .id = "versioned-sk-read",
    .summary = "versioned sort key used to read the data table",
    .default_severity = SEV_ERROR,
    .check = check,
};
