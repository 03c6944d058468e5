/* low-cardinality-pk: a table partition key that is a constant, or whose only
 * variable part takes few values (a status, a type, a boolean): every item
 * written with it lands in one of a handful of partitions, a hot partition
 * (the DynamoDB Key Design practice: "Low cardinality partition key", "Status
 * as partition key"). Constants include a ternary between constants and a key
 * function returning a literal. Keys are judged where they are defined
 * (writes, entity definitions, helpers); the common tenant (the
 * mbc-cqrs-serverless Key Design Patterns: `USER#common`) and configured
 * global prefixes are deliberate and left alone, as are index partition keys
 * (Turbine Key Patterns keys feeds and type lookups by a constant GSI key). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

static bool low_card_name(Arena *a, const char *path)
{
    static const char *const words[] = {"status", "state", "type", "kind", "category",
                                        "role", "gender", "priority", "level", "tier",
                                        "flag", "enabled", "disabled", "active", "inactive",
                                        "deleted", "archived", "visible", "published",
                                        "verified", "bool", "boolean", NULL};
    const char *last = kf_last_component(a, path);
    if (!*last)
        return false;
    for (const char *const *w = words; *w; w++)
        if (kf_name_ends_with_word(last, *w))
            return true;
    /* isActive, hasAccess, canEdit, shouldNotify */
    static const char *const bools[] = {"is", "has", "can", "should", NULL};
    for (const char *const *b = bools; *b; b++) {
        size_t l = strlen(*b);
        if (!strncmp(last, *b, l) && isupper((unsigned char)last[l]))
            return true;
    }
    return false;
}

static const ConstChoice *choice_at(const FileIR *f, const Seg *s)
{
    if (s->kind != SEG_UNKNOWN)
        return NULL;
    for (size_t i = 0; i < f->choices.n; i++) {
        const ConstChoice *c = &f->choices.v[i];
        if (c->span.start_byte == s->span.start_byte && c->span.end_byte == s->span.end_byte)
            return c;
    }
    return NULL;
}

/* A branch of a choice of constants, which is reported as the choice. */
static bool in_choice(const FileIR *f, Span sp)
{
    for (size_t i = 0; i < f->choices.n; i++) {
        const ConstChoice *c = &f->choices.v[i];
        if (c->attr && c->role == ROLE_PK && c->span.start_byte <= sp.start_byte &&
            sp.end_byte <= c->span.end_byte)
            return true;
    }
    return false;
}

static bool deliberate(Arena *a, const KfKey *key, const Config *cfg)
{
    if (kf_has_common_tenant(key, cfg))
        return true;
    const char *p = kf_leading_prefix(a, key);
    return p && cfg && strlist_has_ci(&cfg->tenant_global, p);
}

/* The constant's text, its text runs joined (scratch in `a`). */
static const char *constant_text(Arena *a, const KfKey *key)
{
    const char *t = "";
    for (size_t i = 0; i < key->n; i++)
        t = arena_printf(a, "%s%.*s", t, (int)key->parts[i].len, key->parts[i].text);
    return t;
}

/* A constant that is one value of a partition per id: `INBOX#ADMIN`
 * where the project writes `INBOX#${ownerId}`, `TENANT#SYSTEM` beside
 * `TENANT#${tenantId}` (the system's own tenant). It is one owner's
 * partition among many of its kind (an admin's inbox), not a category
 * every item shares; a value that means every owner (`ORDERS#ALL`) is. */
static bool one_owner_of_many(const RuleContext *ctx, Arena *a, const char *text)
{
    static const char *const every[] = {"all", "any", "every", "everyone", "everything",
                                        "global", "list", "index", NULL};
    const char *sep = text;
    while (*sep && !kf_is_boundary_char(*sep, ctx->config))
        sep++;
    if (sep == text || !*sep || !sep[1])
        return false;
    const char *value = sep + 1;
    for (const char *c = value; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return false;
    for (const char *const *w = every; *w; w++)
        if (!strcasecmp(value, *w))
            return false;
    return facts_id_partition(a, ctx->facts, arena_strndup(a, text, (size_t)(sep - text)));
}

/* A partition named for the application's configuration (`SETTINGS`,
 * `SYSTEM#CONFIG`, `SYSTEM#HEALTH`): one item per setting, option or
 * service the application defines, a handful that does not grow with
 * its data. */
static bool config_partition(const char *text, const Config *cfg)
{
    static const char *const words[] = {"setting", "settings", "config", "configs",
                                        "configuration", "configurations", "health", NULL};
    const char *p = text;
    while (*p) {
        const char *e = p;
        while (*e && !kf_is_boundary_char(*e, cfg))
            e++;
        for (const char *const *w = words; *w; w++)
            if (strlen(*w) == (size_t)(e - p) && !strncasecmp(p, *w, (size_t)(e - p)))
                return true;
        p = *e ? e + 1 : e;
    }
    return false;
}

/* A constant partition key is one partition for many items only when the
 * sort key written beside it varies; beside a constant sort key (or none)
 * it is one item (a seed record, a singleton). Keys of one object are
 * extracted next to each other. */
static bool sibling_sk_varies(const RuleContext *ctx, Arena *a, size_t i)
{
    const FileIR *f = ctx->file;
    const KeyExpr *k = &f->keys.v[i];
    /* the keys a helper returns are siblings of that helper's only, not of
     * the next helper's a few lines below */
    const HelperDef *h = kf_object_helper_of(f, k);
    size_t from = i > 4 ? i - 4 : 0;
    for (size_t j = from; j < f->keys.n && j <= i + 4; j++) {
        const KeyExpr *o = &f->keys.v[j];
        if (j == i || o->role != ROLE_SK || o->site != k->site || o->op != k->op ||
            (h && !kf_in_helper(h, o)))
            continue;
        uint32_t d = o->span.start_row > k->span.start_row ? o->span.start_row - k->span.start_row
                                                            : k->span.start_row - o->span.start_row;
        /* keys of one operation are siblings wherever their text is (a
         * branch of `const sk = a ?? b` is at its declaration) */
        if (d > 10 && k->op < 0)
            continue;
        KfKey sk;
        rule_key_flat(ctx, a, o, &sk);
        if (kf_hole_count(&sk))
            return true;
    }
    return false;
}

static void check_key(const RuleContext *ctx, Arena *a, size_t idx)
{
    const KeyExpr *k = &ctx->file->keys.v[idx];
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    if (!key.n || deliberate(a, &key, ctx->config))
        return;
    const char *shown = seglist_label(a, &k->segs);
    size_t holes = kf_hole_count(&key);
    if (!holes) {
        /* a key function returning a literal, or many items in one partition */
        if (k->site != SITE_HELPER && !sibling_sk_varies(ctx, a, idx))
            return;
        /* one item's key written out (a sample id in a script) */
        if (kf_text_has_id(&key))
            return;
        const char *text = constant_text(a, &key);
        if (one_owner_of_many(ctx, a, text) || config_partition(text, ctx->config))
            return;
        rule_report(ctx, k->site == SITE_HELPER ? k->span : rule_key_part_span(k, NULL),
                    "partition key '%s' is a constant: every item written with it shares one "
                    "partition, a hot partition as the data grows; key by something with many "
                    "values (an id, a tenant) and keep '%s' in the sort key or an index",
                    shown, shown);
        return;
    }
    const Seg *only = NULL;
    for (size_t i = 0; i < key.n; i++) {
        if (!key.parts[i].hole)
            continue;
        const Seg *s = kf_part_seg(&key, i);
        if (kf_hole_is_tenant(a, s, ctx->config))
            return;
        bool low = choice_at(ctx->file, s) ||
                   ((s->kind == SEG_REF || s->kind == SEG_CALL) &&
                    (low_card_name(a, s->text) || (s->name && low_card_name(a, s->name))));
        if (!low)
            return;
        if (!only)
            only = s;
    }
    rule_report(ctx, rule_key_part_span(k, only),
                "partition key %s: its only variable part, '%s', takes few values (a status, "
                "a type, a flag), so the items crowd into a few hot partitions; key by an id "
                "and query by '%s' through an index",
                shown, kf_hole_name(a, only), kf_hole_name(a, only));
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->role == ROLE_PK && access_defines_key(f, k) && !in_choice(f, k->span))
            check_key(ctx, a, i);
    }
    /* `pk: admin ? 'ADMIN' : 'USER'`: no key in the IR, a choice here */
    for (size_t i = 0; i < f->choices.n; i++) {
        const ConstChoice *c = &f->choices.v[i];
        if (c->attr && c->role == ROLE_PK)
            rule_report(ctx, c->span,
                        "partition key '%s' chooses between constants: its items share a "
                        "handful of partitions, hot partitions as the data grows; key by "
                        "something with many values and keep the choice in the sort key or an "
                        "index",
                        c->text);
    }
    arena_free(a);
}

const RuleDesc rule_low_cardinality_pk = {
    .id = "low-cardinality-pk",
    .summary = "a partition key that is a constant, or whose only variable part is a status, "
               "type or flag",
    .default_severity = SEV_WARNING,
    .check = check,
};
