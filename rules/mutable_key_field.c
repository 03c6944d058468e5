/* mutable-key-field: a table key (PK or SK) built from a field whose value
 * changes. Index keys are exempt: DynamoDB maintains them. */
#include <ctype.h>
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

/* The attribute an update sets is a key attribute (pk, gsi1sk): what an
 * update does to it says nothing about a field. */
static bool key_attr(const char *attr, const Config *cfg)
{
    return kf_is_key_attr_name(attr, cfg);
}

/* The table an operation names, as a comparable name: the environment
 * variable of `process.env.X` (or `process.env.X!`); NULL when it is named
 * some other way (a constant, `this.table`), which may be any table. */
static const char *table_name(Arena *a, const char *table)
{
    static const char env[] = "process.env.";
    if (!table || strncmp(table, env, sizeof env - 1) != 0)
        return NULL;
    const char *v = table + sizeof env - 1;
    size_t n = 0;
    while (v[n] == '_' || isalnum((unsigned char)v[n]))
        n++;
    return n ? arena_strndup(a, v, n) : NULL;
}

/* What shows that field `name` changes on the key's item: an update of
 * the project that sets it (not to the value the key already holds:
 * extraction leaves those out), on the key's own entity (`same`), or on
 * an item whose entity is not known (a guess: the name is not another
 * entity's id). */
typedef struct Evidence {
    const UpdatedAttr *update; /* NULL: none */
    bool same;                 /* on the key's entity, both known */
} Evidence;

/* An update on another table (both named as environment variables,
 * directly or through a constant, and not the same one) is not on this
 * key's item. */
static bool other_table(Arena *a, const UpdatedAttr *u, const DataOp *key_op)
{
    if (!key_op)
        return false;
    const char *x = u->table_env ? u->table_env : table_name(a, u->table);
    const char *y = key_op->params.table.env ? key_op->params.table.env
                                             : table_name(a, key_op->table);
    return x && y && strcmp(x, y) != 0;
}

/* The first update of `list` (attribute names set on `entity`, or on no
 * known entity when it is NULL) that is no key attribute and not on
 * another table. */
static const UpdatedAttr *first_update(const RuleContext *ctx, Arena *a, const StrList *list,
                                       const char *entity, const DataOp *key_op)
{
    const ProjectFacts *f = ctx->facts;
    for (size_t i = 0; i < list->n; i++) {
        if (key_attr(list->v[i], ctx->config))
            continue;
        for (size_t u = 0; u < f->updates.n; u++) {
            const UpdatedAttr *up = &f->updates.v[u];
            const char *on = up->sk_entity ? up->sk_entity : up->entity;
            if (strcmp(up->attr, list->v[i]) != 0 ||
                (entity ? !on || strcasecmp(on, entity) != 0 : on != NULL))
                continue;
            if (!other_table(a, up, key_op))
                return up;
        }
    }
    return NULL;
}

/* `entity`: the key's partition entity; `item`: the item the key is on,
 * as updates are indexed (facts_field_updates): its sort key's entity when
 * that names an item of the partition (`RSVP#${userId}` in
 * `SESSION#${id}` -> RSVP), else `entity`. */
static Evidence updated_field(Arena *a, const char *name, const char *entity,
                              const char *item, const DataOp *key_op,
                              const RuleContext *ctx)
{
    Evidence ev = {0};
    const ProjectFacts *f = ctx->facts;
    if (!f || !name[0])
        return ev;
    FieldUpdates fu = facts_field_updates(f, name, item);
    if (!fu.all->n)
        return ev;
    /* the same item: an update whose Key names the same entity */
    if (item && (ev.update = first_update(ctx, a, fu.on_entity, item, key_op)))
        ev.same = true;
    /* an update of the partition's own item (SK 'META' setting `plan`)
     * for a key on another item of the partition (`PLAN#${plan}`): the
     * partition's entity changes that field; but not when the field is
     * another entity's id (the session owner's `userId` SET on its
     * COST_SUMMARY item says nothing of its RSVP#${userId} items) */
    else if (entity && item && strcasecmp(entity, item) != 0 && !id_like(name) &&
             (ev.update = first_update(ctx, a, facts_field_updates(f, name, entity).on_entity,
                                       entity, key_op)))
        ev.same = true;
    /* otherwise only updates of items whose entity is not known either: an
     * update of another entity's item (a USER item's entityType) says
     * nothing about a key whose entity is not known */
    if (!ev.update && !id_like(name))
        ev.update = first_update(ctx, a, fu.unscoped, NULL, key_op);
    return ev;
}

/* Whether a value named `name` is reported where a helper's key holds it
 * (as the helper's parameter: no table is known there). */
static bool judged(Arena *a, const char *name, const char *entity, const char *item,
                   const RuleContext *ctx)
{
    const char *last = kf_last_component(a, name);
    return configured_field(a, name, ctx->config) ||
           updated_field(a, last, entity, item, NULL, ctx).update;
}

/* Whether the text just before part `p` of `key` (a hole) ends in the
 * word `name`, bar the separators after it: `STATE#${rec.state}`. Such a
 * key is the record of that value (an OAuth nonce, a lookup item), keyed
 * by it as its identity; only an update that SETs it shows it changes. */
static bool names_itself(const KfKey *key, size_t p, const char *name)
{
    if (p == 0 || key->parts[p - 1].hole || !name[0])
        return false;
    const char *t = key->parts[p - 1].text;
    size_t n = key->parts[p - 1].len, len = strlen(name);
    while (n && !isalnum((unsigned char)t[n - 1]))
        n--;
    if (n < len || strncasecmp(t + n - len, name, len) != 0)
        return false;
    return n == len || !isalnum((unsigned char)t[n - len - 1]);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k,
                      const char *const *op_entities, const char *const *op_sk_entities,
                      NameMap *seen)
{
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    const char *entity = kf_key_entity(a, ctx->file, k, op_entities);
    const char *sk_entity = NULL; /* the sort key's entity, when it names an item */
    const DataOp *key_op = NULL; /* the key's operation: its table */
    if (k->op >= 0 && (size_t)k->op < ctx->file->ops.n) {
        sk_entity = op_sk_entities[k->op];
        key_op = &ctx->file->ops.v[k->op];
    } else if (k->role == ROLE_SK && kf_hole_count(&key) > 0) {
        sk_entity = kf_leading_prefix(a, &key);
    }
    const char *item = sk_entity ? sk_entity : entity;
    bool in_helper = rule_key_helper(ctx, k) != NULL;
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
        /* a helper's own value, inlined at each caller: judged at the
         * helper, which builds it */
        if ((s->flags & SEGF_HELPER) && k->site != SITE_HELPER)
            continue;
        /* a value passed for a helper's parameter that the helper's key
         * is reported for (by the parameter's name): that finding, at the
         * helper, lists this call */
        if ((s->flags & SEGF_ARG) && s->param && !in_helper &&
            judged(a, s->param, entity, item, ctx))
            continue;
        const char *last = kf_last_component(a, s->text);
        const char *field = configured_field(a, s->text, ctx->config);
        Evidence ev = updated_field(a, last, entity, item, key_op, ctx);
        const char *via = NULL; /* the name judged, when not the value's own */
        if (!field && !ev.update && s->name && !strchr(s->text, '.')) {
            /* the variable a bare value flowed through; a member
             * (`currentBoost.createdAt`) names its own field, whatever
             * variable holds it on the way */
            last = kf_last_component(a, s->name);
            field = configured_field(a, s->name, ctx->config);
            ev = updated_field(a, last, entity, item, key_op, ctx);
            via = s->name;
        }
        if (!field && !ev.update)
            continue;
        /* a name alone (no update sets it) does not make the value that
         * the key is the record of a field that changes */
        if (!ev.update && names_itself(&key, p, kf_last_component(a, s->text)))
            continue;
        /* the value names the key's item (`LISTING#${poolId}`), but the
         * update that sets the field names its item by another value
         * (`LISTING#${listingId}` SET poolId) on an item of the same entity:
         * the field is a reference the
         * item holds to another item of the entity, not the value of its
         * own key. When the field is by its name another entity's id
         * (`poolId`), it is that entity's reference (the doc's `SET orgId`):
         * nothing shows the key moves. Otherwise whether that other item
         * moves is a guess. */
        const char *upd_item = ev.update ? (ev.update->sk_entity ? ev.update->sk_entity
                                                                 : ev.update->entity)
                                         : NULL;
        bool other_item = ev.same && ev.update->id_name && item && upd_item &&
                          !strcasecmp(upd_item, item) && names_itself(&key, p, item) &&
                          strcasecmp(ev.update->id_name, last) != 0;
        if (other_item && !field && id_like(last))
            continue;
        const char *at = arena_printf(a, "%u:%u:%s", s->span.start_row, s->span.start_col,
                                      s->text);
        size_t found;
        if (namemap_get(seen, at, &found))
            continue;
        namemap_put(a, seen, at, 0);
        const char *why =
            field && ev.update
                ? arena_printf(a, "%s; set by an UpdateExpression in this "
                                  "project", field)
            : field ? field
                    : "set by an UpdateExpression in this project";
        /* the message names what was judged: the value, and the variable
         * it flowed through when that was */
        const char *what = via && strcmp(via, s->text) != 0
                               ? arena_printf(a, "'%s' (as '%s')", s->text, via)
                               : arena_printf(a, "'%s'", s->text);
        Diagnostic *d = rule_report(ctx, s->span,
                                    "%s uses %s, a field that changes (%s); when it changes "
                                    "the item has to move \xe2\x80\x94 keep it in an attribute "
                                    "or a GSI key",
                                    kf_role_noun(k->role), what, why);
        if (other_item)
            diag_relate(ctx->out, d, ev.update->path, ev.update->span,
                        "an update that sets %s on a %s item named by its %s, not by this value",
                        ev.update->attr, item, ev.update->id_name);
        else if (ev.update)
            diag_relate(ctx->out, d, ev.update->path, ev.update->span,
                        ev.same ? "the update that sets %s on this key's entity"
                                : "an update that sets %s (on an item whose entity is not known)",
                        ev.update->attr);
        rule_relate_calls(ctx, d, k);
        rule_unproven_guess(ctx, d, k);
        /* an error is a claim with evidence: an update of this entity that
         * sets the field. A configured name alone, or an update whose item
         * is not known to be this key's (or is named by another value), is
         * a warning. */
        if (!ev.same || other_item)
            rule_unproven(ctx, d);
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    const char *const *op_entities = kf_op_entities(a, file);
    const char *const *op_sk_entities = kf_op_sk_entities(a, file, true);
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
