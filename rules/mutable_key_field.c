/* mutable-key-field: a table key (PK or SK) built from a field whose value
 * changes. Index keys are exempt: DynamoDB maintains them. */
#include <string.h>

#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

/* The configured mutable field `name` matches, NULL if none. */
static const char *configured_field(const char *name, const Config *cfg)
{
    if (!cfg || !name[0])
        return NULL;
    for (size_t i = 0; i < cfg->mutable_fields.n; i++)
        if (kf_name_ends_with_word(name, cfg->mutable_fields.v[i]))
            return cfg->mutable_fields.v[i];
    return NULL;
}

/* Names of other entities' ids (orgId, tenantCode, customer_id): an
 * update that sets one on some item says nothing about another entity's
 * key that holds it. */
static bool id_like(const char *name)
{
    return kf_name_ends_with_word(name, "id") || kf_name_ends_with_word(name, "code") ||
           kf_name_ends_with_word(name, "key");
}

/* `name` is an attribute an UpdateExpression of the project sets on the
 * entity `entity` (a key's partition-key prefix): same entity, or either
 * unknown for names that are not ids. */
static bool any_not_key(const StrList *attrs, const Config *cfg)
{
    for (size_t i = 0; i < attrs->n; i++)
        if (!kf_is_key_attr_name(attrs->v[i], cfg))
            return true;
    return false;
}

static bool updated_field(const char *name, const char *entity, const RuleContext *ctx)
{
    const ProjectFacts *f = ctx->facts;
    if (!f || !name[0])
        return false;
    FieldUpdates fu = facts_field_updates(f, name, entity);
    if (entity && any_not_key(fu.on_entity, ctx->config))
        return true;
    return !id_like(name) && any_not_key(entity ? fu.unscoped : fu.all, ctx->config);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k,
                      const char *const *op_entities)
{
    KfKey key;
    kf_flatten(a, &k->segs, &key);
    const char *entity = kf_key_entity(a, ctx->file, k, op_entities);
    for (size_t p = 0; p < key.n; p++) {
        if (!key.parts[p].hole)
            continue;
        const Seg *s = kf_part_seg(&key, p);
        if (s->kind != SEG_REF || kf_hole_is_tenant(a, s, ctx->config))
            continue;
        /* the version after the version separator changes by design */
        if (p > 0 && !key.parts[p - 1].hole &&
            kf_is_version_tail(&key, p - 1, key.parts[p - 1].len - 1,
                               ctx->config))
            continue;
        const char *last = kf_last_component(a, s->text);
        const char *field = configured_field(last, ctx->config);
        bool updated = updated_field(last, entity, ctx);
        if (!field && !updated && s->name) {
            /* the variable the value flowed through */
            last = kf_last_component(a, s->name);
            field = configured_field(last, ctx->config);
            updated = updated_field(last, entity, ctx);
        }
        if (!field && !updated)
            continue;
        const char *why =
            field && updated
                ? arena_printf(a, "%s; set by an UpdateExpression in this "
                                  "project", field)
            : field ? field
                    : "set by an UpdateExpression in this project";
        rule_report(ctx, s->span,
                    "%s uses '%s', a field that changes (%s); when it changes "
                    "the item has to move \xe2\x80\x94 keep it in an attribute "
                    "or a GSI key",
                    kf_role_noun(k->role), s->text, why);
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    const char *const *op_entities = kf_op_entities(a, file);
    for (size_t i = 0; i < file->keys.n; i++) {
        const KeyExpr *k = &file->keys.v[i];
        if (k->role == ROLE_PK || k->role == ROLE_SK)
            check_key(ctx, a, k, op_entities);
    }
    arena_free(a);
}

const RuleDesc rule_mutable_key_field = {
    .id = "mutable-key-field",
    .summary = "table key component taken from a field that changes",
    .default_severity = SEV_ERROR,
    .check = check,
};
