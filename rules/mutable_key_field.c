/* mutable-key-field: a table key (PK or SK) built from a field whose value
 * changes. Index keys are exempt: DynamoDB maintains them. */
#include <string.h>
#include <strings.h>

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
 * entity `entity` (a key's partition-key prefix): same entity, or either
 * unknown for names that are not ids. */
static bool updated_field(Arena *a, const char *name, const char *entity,
                          const char *sk_entity, const RuleContext *ctx)
{
    const ProjectFacts *f = ctx->facts;
    if (!f || !name[0])
        return false;
    for (size_t i = 0; i < f->updates.n; i++) {
        const UpdatedAttr *u = &f->updates.v[i];
        if (kf_is_key_attr_name(u->attr, ctx->config))
            continue;
        if (strcmp(kf_last_component(a, u->attr), name))
            continue;
        if (u->entity && entity) {
            /* the same entity: the updated item's (the sort key's prefix
             * when the sort key names an item of a shared partition,
             * USER#{id} in ORG#{orgId}; else the partition key's) is the
             * key's partition or sort-key entity */
            const char *target = u->sk_entity ? u->sk_entity : u->entity;
            if (!strcasecmp(target, entity) || (sk_entity && !strcasecmp(target, sk_entity)))
                return true;
        } else if (!id_like(name)) {
            return true;
        }
    }
    return false;
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k, StrList *seen)
{
    KfKey key;
    kf_flatten(a, &k->segs, &key);
    const char *entity = kf_key_entity(a, ctx->file, k);
    const char *sk_entity = NULL;
    if (k->op >= 0)
        sk_entity = kf_op_sk_entity(a, ctx->file, k->op, false);
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
        bool updated = updated_field(a, last, entity, sk_entity, ctx);
        if (!field && !updated && s->name) {
            /* the variable the value flowed through */
            last = kf_last_component(a, s->name);
            field = configured_field(a, s->name, ctx->config);
            updated = updated_field(a, last, entity, sk_entity, ctx);
        }
        if (!field && !updated)
            continue;
        /* a helper's own value, inlined at each caller: once per file */
        if ((s->flags & SEGF_HELPER) && k->site != SITE_HELPER) {
            const char *at = arena_printf(a, "%u:%u:%s", s->span.start_row, s->span.start_col,
                                          s->text);
            if (strlist_has(seen, at))
                continue;
            strlist_push(a, seen, at);
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
    StrList seen = {0};
    for (size_t i = 0; i < file->keys.n; i++) {
        const KeyExpr *k = &file->keys.v[i];
        if (k->role == ROLE_PK || k->role == ROLE_SK)
            check_key(ctx, a, k, &seen);
    }
    arena_free(a);
}

const RuleDesc rule_mutable_key_field = {
    .id = "mutable-key-field",
    .summary = "table key component taken from a field that changes",
    .default_severity = SEV_ERROR,
    .check = check,
};
