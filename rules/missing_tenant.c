/* missing-tenant: in a multi-tenant project, a partition key without a tenant
 * segment, or a tenant placed in the sort key while the partition key of the
 * same operation has none (the mbc-cqrs-serverless Key Design Patterns, best
 * practice 5 "Include Tenant in PK"). */
#include <string.h>
#include <strings.h>

#include "access.h"
#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

static bool active(const RuleContext *ctx)
{
    const Config *c = ctx->config;
    if (!c)
        return false;
    if (c->tenant_required == TENANT_REQUIRED)
        return true;
    return c->tenant_required == TENANT_AUTO && ctx->facts &&
           ctx->facts->has_tenant_keys;
}

/* Multi-tenancy inferred (`tenant.required: auto`) is a guess: its
 * findings are warnings unless the configuration sets the rule's severity
 * (rule_unproven). Declared (`required: true`), they keep the rule's, with
 * the declaration as their evidence. */
static Diagnostic *report(const RuleContext *ctx, Diagnostic *d)
{
    const Config *c = ctx->config;
    if (c->tenant_required == TENANT_REQUIRED && c->path && c->tenant_required_line) {
        Arena *a = arena_new();
        Span at = {.start_row = c->tenant_required_line - 1,
                   .end_row = c->tenant_required_line - 1};
        diag_relate(ctx->out, d, file_display_path(a, c->path), at,
                    "tenant.required: true makes the project multi-tenant");
        arena_free(a);
    } else {
        rule_unproven(ctx, d);
    }
    return d;
}

static const char *tenant_name(const Config *c)
{
    return c->tenant_names.n ? c->tenant_names.v[0] : "tenantCode";
}

static char separator(const Config *c)
{
    return c->separator && c->separator[0] ? c->separator[0] : '#';
}

/* A partition key this rule judges and finds without tenant: built here
 * (some text), not a global entity, no tenant hole, no common tenant. */
/* A value whose content cannot be known here: a piece of another key
 * (`parts[1]` after a split), or an expression extraction does not read.
 * The tenant may well be inside it. */
/* A piece cut from a value at a position found at run time
 * (`ref.slice(0, ref.lastIndexOf('_'))`, `ref.substring(at + 1)`): a
 * part of another key, cut at its separator. A cut at fixed positions
 * (`name.slice(0, 8)`) is judged. */
static bool cut_piece(const Seg *s)
{
    static const char *const cuts[] = {".slice", ".substring", ".substr", NULL};
    if (s->kind != SEG_CALL || !s->text)
        return false;
    bool cut = false;
    size_t n = strlen(s->text);
    for (const char *const *c = cuts; *c && !cut; c++) {
        size_t m = strlen(*c);
        cut = n > m && !strcmp(s->text + n - m, *c);
    }
    for (size_t i = 0; cut && i < s->nargs; i++)
        for (size_t j = 0; j < s->args[i].n; j++)
            if (s->args[i].v[j].kind != SEG_TEXT)
                return true;
    return false;
}

/* A member that is another key (`tenant.pk`, `item.GSI1PK`): its content
 * is that key's, not known here. */
static bool other_key(Arena *a, const RuleContext *ctx, const Seg *s)
{
    return s->kind == SEG_REF && strchr(s->text, '.') &&
           kf_is_key_attr_name(kf_last_component(a, s->text), ctx->config);
}

static bool opaque_hole(Arena *a, const RuleContext *ctx, const Seg *s)
{
    return s->kind == SEG_UNKNOWN || (s->kind == SEG_REF && strchr(s->text, '[')) ||
           cut_piece(s) || other_key(a, ctx, s);
}

static bool literal_has_components(const KfKey *key, const Config *cfg)
{
    for (size_t i = 0; i < key->n; i++) {
        const KfPart *p = &key->parts[i];
        if (p->hole)
            continue;
        const char *sep = memchr(p->text, cfg->separator[0], p->len);
        if (sep && (size_t)(sep - p->text) + 1 < p->len)
            return true;
    }
    return false;
}

/* Projects name their tenant after what it is: an organisation, a
 * workspace, an account, a company or a team (`orgId`, `workspace_id`,
 * `accountCode`). Such a value in a partition key carries the tenant; it
 * does not on its own make a project multi-tenant (tenant.names does). */
static bool is_scope_name(Arena *a, const char *path)
{
    static const char *const scopes[] = {
        "org", "organization", "organisation", "workspace", "account", "company", "team", NULL,
    };
    static const char *const tails[] = {"", "id", "_id", "code", "_code", "key", "_key", NULL};
    const char *last = kf_last_component(a, path);
    for (const char *const *s = scopes; *s; s++) {
        size_t n = strlen(*s);
        if (strncasecmp(last, *s, n) != 0)
            continue;
        for (const char *const *t = tails; *t; t++)
            if (!strcasecmp(last + n, *t))
                return true;
    }
    return false;
}

/* A value named after the project's scope (`orgId`), or after its tenant
 * under another name: one the project writes as a tenant's own record
 * (`expertId` of `TENANT#${expertId}`, facts_tenant_alias). */
static bool has_scope_hole(const RuleContext *ctx, Arena *a, const KfKey *key)
{
    for (size_t i = 0; i < key->n; i++) {
        if (!key->parts[i].hole)
            continue;
        const Seg *s = kf_part_seg(key, i);
        if (s->kind == SEG_REF &&
            (is_scope_name(a, s->text) || facts_tenant_alias(a, ctx->facts, s->text)))
            return true;
    }
    return false;
}

/* An email address by its name (`email`, `normalizedEmail`,
 * `owner_email`) or made from one (`normalizeEmail(email)`). */
static bool email_value(Arena *a, const Seg *s)
{
    if (!s->text || (s->kind != SEG_REF && s->kind != SEG_CALL))
        return false;
    if (kf_name_ends_with_word(kf_last_component(a, s->text), "email"))
        return true;
    return s->kind == SEG_CALL && s->nargs == 1 && s->args[0].n == 1 &&
           email_value(a, &s->args[0].v[0]);
}

/* Every value of the key is a caller's identity (`USER#{userId}`,
 * `websockets#users#{userName}`, `USER#{id}`, `EMAIL#{normalizedEmail}`,
 * `RATELIMIT#{ip}`): the
 * partition holds one user's (or one client address's) items, and user
 * ids (a Cognito sub, an email) and IP addresses are usually global, not
 * per tenant. */
static bool user_keyed(Arena *a, const KfKey *key)
{
    static const char *const names[] = {"userid", "user_id", "username", "user_name", "user",
                                        "sub", "cognitosub", "cognitoid", "identity", "identityid",
                                        "email", "useremail", "ip", "ipaddress", "ip_address",
                                        "clientip", "sourceip", "remoteip", NULL};
    const char *prefix = kf_leading_prefix(a, key);
    bool user_entity = prefix && (!strcasecmp(prefix, "user") || !strcasecmp(prefix, "users"));
    size_t holes = 0;
    for (size_t i = 0; i < key->n; i++) {
        if (!key->parts[i].hole)
            continue;
        holes++;
        const char *n = kf_hole_name(a, kf_part_seg(key, i));
        const char *last = n ? kf_last_component(a, n) : "";
        /* USER#{id}: the id of a user */
        bool user = user_entity && !strcasecmp(last, "id");
        for (const char *const *w = names; *w && !user; w++)
            user = !strcasecmp(last, *w);
        if (!user)
            user = email_value(a, kf_part_seg(key, i));
        if (!user)
            return false;
    }
    return holes > 0;
}

/* A partition named for the whole system (`PK: 'SYSTEM'`, `GLOBAL#...`)
 * is global by its name: a tenant registry, platform settings, a
 * system-wide counter. tenant.global adds entity prefixes of a project's
 * own; unlike those, these names do not make a constant partition
 * deliberate for low-cardinality-pk (every request that reads one still
 * lands on one partition). */
static bool system_wide(const char *prefix)
{
    static const char *const names[] = {"system", "global", "platform", NULL};
    for (size_t i = 0; names[i]; i++)
        if (!strcasecmp(prefix, names[i]))
            return true;
    return false;
}

/* The tenant's own record under the project's tenant prefix: `T#${id}`
 * where the project's keys write `T#${tenant}#API_KEY#...` and
 * `T#${tenant}#GROUP#...` (facts_tenant_prefix): the prefix and one value
 * alone. */
static bool tenant_prefix_record(const RuleContext *ctx, Arena *a, const KfKey *key)
{
    const char *prefix = kf_leading_prefix(a, key);
    if (!prefix || key->n != 2 || !key->parts[1].hole ||
        !facts_tenant_prefix(ctx->facts, prefix))
        return false;
    size_t n = strlen(prefix);
    return key->parts[0].len == n + 1 && kf_is_boundary_char(key->parts[0].text[n], ctx->config);
}

static bool untenanted_pk(const RuleContext *ctx, Arena *a, const KeyExpr *k,
                          KfKey *key)
{
    if (k->role != ROLE_PK)
        return false;
    rule_key_flat(ctx, a, k, key);
    /* Judged: keys built here (some text). A literal key of several
     * components ('ORDER#tenant001') may name its tenant in the text;
     * one of a single component (a constant: 'SETTINGS') does not. */
    if (!kf_has_text(key) || (kf_hole_count(key) == 0 && literal_has_components(key, ctx->config)))
        return false;
    /* one item's key written out whole (a sample id in test data) */
    if (kf_hole_count(key) == 0 && kf_text_has_id(key))
        return false;
    for (size_t i = 0; i < key->n; i++)
        if (key->parts[i].hole && opaque_hole(a, ctx, kf_part_seg(key, i)))
            return false;
    const char *prefix = kf_leading_prefix(a, key);
    if (prefix && (strlist_has_ci(&ctx->config->tenant_global, prefix) || system_wide(prefix)))
        return false;
    /* The tenant's own record (TENANT#{code}) is keyed by the tenant. */
    if (kf_is_tenant_record(a, key) || tenant_prefix_record(ctx, a, key))
        return false;
    /* Multi-tenancy inferred (required: auto): a user's own partition is
     * left alone; declared (required: true), every key carries a tenant. */
    if (ctx->config->tenant_required == TENANT_AUTO && user_keyed(a, key))
        return false;
    return !kf_has_tenant(a, key, ctx->config) && !has_scope_hole(ctx, a, key);
}

/* The key only inlines a helper whose definition is reported already:
 * a helper's output with the shape of an untenanted helper partition
 * key. */
static bool inlines_reported_helper(const RuleContext *ctx, Arena *a,
                                    const KeyExpr *k, const KfKey *key)
{
    const ProjectFacts *f = ctx->facts;
    return f && kf_is_helper_output(k) && facts_untenanted_helper_pk(f, kf_shape(a, key));
}

/* Multi-tenancy inferred (required: auto) is judged per table when the
 * project has several: an operation on a table where no partition key
 * carries a tenant (global reference data) is left alone. */
static bool on_untenanted_table(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    if (ctx->config->tenant_required != TENANT_AUTO || !ctx->tables || !ctx->tables->tenanted ||
        k->op < 0 || (size_t)k->op >= ctx->file->ops.n)
        return false;
    OpTarget t;
    access_target(a, ctx->access, ctx->tables, ctx->config, ctx->file, (size_t)k->op, &t);
    return access_table_untenanted(ctx->tables, t.table);
}

static void check_pk(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    KfKey key;
    if (!untenanted_pk(ctx, a, k, &key) ||
        inlines_reported_helper(ctx, a, k, &key) || on_untenanted_table(ctx, a, k))
        return;
    const char *prefix = kf_leading_prefix(a, &key);
    Diagnostic *d = report(ctx, rule_report(ctx, k->span,
                            "partition key %s has no tenant segment: in this multi-tenant "
                            "project every partition key carries its tenant (e.g. "
                            "%s%c{%s})",
                            seglist_label(a, &k->segs), prefix ? prefix : "ENTITY",
                            separator(ctx->config), tenant_name(ctx->config)));
    rule_relate_calls(ctx, d, k);
    rule_unproven_guess(ctx, d, k);
}

/* The partition key beside an entity's sort key in the object a helper
 * returns (`SYNC: (tenantId) => ({ PK: 'sync', SK: tenantId })`), or NULL
 * when the sort key is no such helper's. */
static const KeyExpr *helper_object_pk(const FileIR *file, const KeyExpr *k)
{
    const HelperDef *def = kf_object_helper_of(file, k);
    for (size_t i = 0; def && i < file->keys.n; i++) {
        const KeyExpr *pk = &file->keys.v[i];
        if (pk->site == SITE_ENTITY && pk->role == ROLE_PK && kf_in_helper(def, pk))
            return pk;
    }
    return NULL;
}

static void report_sk(const RuleContext *ctx, Arena *a, const Seg *t, const KeyExpr *pk,
                      const KfKey *pkey)
{
    const char *prefix = kf_leading_prefix(a, pkey);
    Diagnostic *d = report(ctx, rule_report(ctx, t->span,
                            "tenant is in the sort key but not the partition key: "
                            "tenants share partition %s, so one tenant's data and "
                            "traffic are not isolated; put '%s' in the partition key "
                            "(e.g. %s%c{%s})",
                            seglist_label(a, &pk->segs), kf_hole_name(a, t),
                            prefix ? prefix : "ENTITY", separator(ctx->config),
                            tenant_name(ctx->config)));
    rule_relate_calls(ctx, d, pk);
    rule_unproven_guess(ctx, d, pk);
}

/* A partition key the tenants share: one with no variable part
 * (`PRODUCT`, `ZOOM_AUTH`). One keyed by a value (`APIKEY#{prefix}`, an
 * API key's lookup item holding the tenant it belongs to) is one item's
 * partition, not shared; check_pk judges it as a partition key. */
static bool shared_pk(const KfKey *pkey)
{
    return kf_hole_count(pkey) == 0;
}

/* A tenant in the sort key while the same operation's partition key has
 * none and is shared; for a helper returning both keys, at the helper
 * (its calls then not again). */
static void check_sk(const RuleContext *ctx, Arena *a, const KeyExpr *k, const KfOpKeys *keys)
{
    const FileIR *file = ctx->file;
    if (k->role != ROLE_SK)
        return;
    const KeyExpr *hpk = k->op < 0 ? helper_object_pk(file, k) : NULL;
    if (!hpk && (k->op < 0 || (size_t)k->op >= file->ops.n))
        return;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    const Seg *t = kf_tenant_hole(a, &key, ctx->config);
    if (!t)
        return;
    if (hpk) {
        KfKey pkey;
        if (untenanted_pk(ctx, a, hpk, &pkey) && shared_pk(&pkey))
            report_sk(ctx, a, t, hpk, &pkey);
        return;
    }
    for (size_t i = keys->first[k->op]; i != KF_NO_KEY; i = keys->next[i]) {
        const KeyExpr *pk = &file->keys.v[i];
        KfKey pkey;
        if (!untenanted_pk(ctx, a, pk, &pkey) || !shared_pk(&pkey))
            continue;
        if (k->build == BUILD_CALL && inlines_reported_helper(ctx, a, pk, &pkey))
            return; /* reported at the helper that builds both */
        report_sk(ctx, a, t, pk, &pkey);
        return;
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed || !active(ctx))
        return;
    Arena *a = arena_new();
    KfOpKeys keys;
    kf_op_keys(a, file, &keys);
    for (size_t i = 0; i < file->keys.n; i++) {
        check_pk(ctx, a, &file->keys.v[i]);
        check_sk(ctx, a, &file->keys.v[i], &keys);
    }
    arena_free(a);
}

const RuleDesc rule_missing_tenant = {
    .id = "missing-tenant",
    .summary = "partition key without a tenant segment in a multi-tenant "
               "project",
    .default_severity = SEV_ERROR,
    .check = check,
};
