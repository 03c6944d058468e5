/* timestamp-pk: a table partition key whose only variable part is a date or
 * time (the DynamoDB Key Design practice, anti-pattern 1: "Timestamp as
 * partition key ... all today's events in one partition"). A time-bucketed
 * key with another value in it (the mbc-cqrs-serverless Key Design Patterns
 * pattern 6: `LOG#{tenantCode}#{yearMonth}`) is fine. Judged where keys are
 * defined. */
#include <strings.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

/* A value held by a variable named as an id (`advertiserId`, `order.id`):
 * an id made from the clock (`ADV-${Date.now()}`) names one item, not a
 * day's bucket. */
static bool id_named(Arena *a, const Seg *s)
{
    if (s->kind != SEG_REF || !s->text)
        return false;
    const char *n = kf_last_component(a, s->text);
    return kf_name_ends_with_word(n, "id") || !strcasecmp(n, "id");
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    const Seg *first = NULL;
    for (size_t i = 0; i < key.n; i++) {
        if (!key.parts[i].hole)
            continue;
        const Seg *s = kf_part_seg(&key, i);
        if (id_named(a, s) || !access_hole_is_date(a, s))
            return;
        if (!first)
            first = s;
    }
    if (!first)
        return;
    rule_report(ctx, rule_key_part_span(k, first),
                "partition key %s: its only variable part, '%s', is a date or time, so every "
                "write of the same day (or moment) goes to one partition, a hot partition; key "
                "by the entity (and tenant) and put the time in the sort key",
                seglist_label(a, &k->segs), kf_hole_name(a, first));
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->role == ROLE_PK && access_defines_key(f, k))
            check_key(ctx, a, k);
    }
    arena_free(a);
}

const RuleDesc rule_timestamp_pk = {
    .id = "timestamp-pk",
    .summary = "a partition key whose only variable part is a date or time",
    .default_severity = SEV_WARNING,
    .check = check,
};
