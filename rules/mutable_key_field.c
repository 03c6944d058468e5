/* mutable-key-field: a table key (PK or SK) built from a field whose value
 * changes. Index keys are exempt: DynamoDB maintains them. */
#include <string.h>
#include <strings.h>

#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

/* The configured mutable field that the value `path` (`order.status`,
 * `orderStatus`) names, NULL if none: its last component, or that
 * component's last word (`orderStatus`, `lastUpdatedAt`). `state` is
 * read only as an item's member (`order.state`, `this.state`): a bare
 * `state` is as often an OAuth nonce or UI state, and `usState`,
 * `initialState` are no state of the item. */
static const char *configured_field(Arena *a, const char *path, const Config *cfg)
{
    const char *name = kf_last_component(a, path);
    if (!cfg || !name[0])
        return NULL;
    bool member = strchr(path, '.') != NULL;
    for (size_t i = 0; i < cfg->mutable_fields.n; i++) {
        const char *f = cfg->mutable_fields.v[i];
        if (!strcasecmp(f, "state")) {
            if (member && !strcasecmp(name, f))
                return f;
        } else if (kf_name_ends_with_word(name, f)) {
            return f;
        }
    }
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
 * entity `entity` (a key's partition-key prefix): same entity, or both
 * unknown for names that are not ids. */
static bool any_not_key(const StrList *attrs, const Config *cfg)
{
    for (size_t i = 0; i < attrs->n; i++)
        if (!kf_is_key_attr_name(attrs->v[i], cfg))
            return true;
    return false;
}

static bool updated_field(const char *name, const char *entity, const char *sk_entity,
                          const RuleContext *ctx)
{
    const ProjectFacts *f = ctx->facts;
    if (!f || !name[0])
        return false;
    /* the same entity: the updated item's (facts_field_updates) is the
     * key's partition or sort-key entity */
    FieldUpdates fu = facts_field_updates(f, name, entity);
    if (entity && any_not_key(fu.on_entity, ctx->config))
        return true;
    if (sk_entity && any_not_key(facts_field_updates(f, name, sk_entity).on_entity, ctx->config))
        return true;
    /* otherwise only updates of items whose entity is not known either: an
     * update of another entity's item (a USER item's entityType) says
     * nothing about a key whose entity is not known */
    return !id_like(name) && any_not_key(fu.unscoped, ctx->config);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k,
                      const char *const *op_entities, const char *const *op_sk_entities,
                      NameMap *seen)
{
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    const char *entity = kf_key_entity(a, ctx->file, k, op_entities);
    const char *sk_entity = NULL;
    if (k->op >= 0 && (size_t)k->op < ctx->file->ops.n)
        sk_entity = op_sk_entities[k->op];
    else if (k->role == ROLE_SK)
        sk_entity = kf_leading_prefix(a, &key);
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
        const char *field = configured_field(a, s->text, ctx->config);
        bool updated = updated_field(last, entity, sk_entity, ctx);
        if (!field && !updated && s->name) {
            /* the variable the value flowed through */
            last = kf_last_component(a, s->name);
            field = configured_field(a, s->name, ctx->config);
            updated = updated_field(last, entity, sk_entity, ctx);
        }
        if (!field && !updated)
            continue;
        /* a helper's own value, inlined at each caller: once per file */
        if ((s->flags & SEGF_HELPER) && k->site != SITE_HELPER) {
            const char *at = arena_printf(a, "%u:%u:%s", s->span.start_row, s->span.start_col,
                                          s->text);
            size_t found;
            if (namemap_get(seen, at, &found))
                continue;
            namemap_put(a, seen, at, 0);
        }
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
    const char *const *op_sk_entities = kf_op_sk_entities(a, file, false);
    NameMap seen = {0};
    for (size_t i = 0; i < file->keys.n; i++) {
        const KeyExpr *k = &file->keys.v[i];
        if (k->role == ROLE_PK || k->role == ROLE_SK)
            check_key(ctx, a, k, op_entities, op_sk_entities, &seen);
    }
    arena_free(a);
}

const RuleDesc rule_mutable_key_field = {
    .id = "mutable-key-field",
    .summary = "table key component taken from a field that changes",
    .default_severity = SEV_ERROR,
    .check = check,
};
