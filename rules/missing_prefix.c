/* missing-prefix: a table partition key that is a bare id with no entity
 * prefix (Turbine Key Patterns: "Avoid: Ambiguous keys pk: (u) => u.id"; the
 * ddb-lib Entity keys pattern: "ENTITY_TYPE#ID"): in a single table, ids of
 * different entities collide and the key does not say what it holds. Only in
 * a project whose other partition keys carry prefixes (a single-table
 * design); a value whose name says it already is a key (pk, orderKey, userPk)
 * is not bare. Judged where keys are defined. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

static bool id_name(const char *n)
{
    if (!n || !*n)
        return false;
    return kf_name_ends_with_word(n, "id") || kf_name_ends_with_word(n, "uuid") ||
           kf_name_ends_with_word(n, "ulid") || kf_name_ends_with_word(n, "guid") ||
           !strcasecmp(n, "id");
}

static bool key_like(const char *n)
{
    static const char *const words[] = {"pk", "sk", "key", "keys", "prefix", "partition",
                                        "hash", NULL};
    for (const char *const *w = words; *w; w++)
        if (kf_name_ends_with_word(n, *w))
            return true;
    return false;
}

/* A value named as a bare id (`userId`, `u.id`), not as a key. */
static bool bare_name(Arena *a, const char *path)
{
    const char *last = kf_last_component(a, path);
    return id_name(last) && !key_like(last);
}

static bool id_call(const char *callee)
{
    static const char *const gens[] = {"ulid", "uuid", "uuidv4", "v4", "randomUUID", "nanoid",
                                       "cuid", "createId", "ksuid", NULL};
    const char *dot = strrchr(callee, '.');
    const char *last = dot ? dot + 1 : callee;
    for (const char *const *g = gens; *g; g++)
        if (!strcmp(last, *g))
            return true;
    return false;
}

/* The entity an id names: "orderId", "input.orgId" -> "ORDER", "ORG" (the
 * id's own name first); "user.id" -> "USER" (what holds it); NULL when
 * neither says ("params.id": what holds a request's values names none). */
static const char *entity_guess(Arena *a, const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *last = dot ? dot + 1 : path;
    size_t ll = strlen(last);
    const char *base;
    size_t len;
    if (ll > 2 && (!strcmp(last + ll - 2, "Id") || !strcmp(last + ll - 2, "ID"))) {
        base = last;
        len = ll - 2;
    } else if (dot && dot > path) {
        const char *start = dot;
        while (start > path && start[-1] != '.')
            start--;
        base = start;
        len = (size_t)(dot - start);
    } else {
        return NULL;
    }
    if (len < 3 || !isalpha((unsigned char)base[0]) || !strncmp(base, "this", 4))
        return NULL;
    static const char *const holders[] = {"params", "args", "input", "event", "body", "data",
                                          "req", "request", "props", "options", "payload",
                                          "query", "ctx", "context", "detail", NULL};
    for (const char *const *h = holders; *h; h++)
        if (strlen(*h) == len && !strncasecmp(base, *h, len))
            return NULL;
    char *out = arena_strndup(a, base, len);
    for (char *p = out; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return out;
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    const AccessFacts *af = ctx->access;
    if (!f || f->parse_failed || !af || !af->prefixed_pks)
        return;
    Arena *a = arena_new();
    char sep = ctx->config && ctx->config->separator ? ctx->config->separator[0] : '#';
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->role != ROLE_PK || !access_defines_key(f, k))
            continue;
        /* the table's other keys carry prefixes (a single-table design);
         * a key whose table is not written judges by the whole project */
        const char *tt = access_key_table_text(f, k);
        if (*tt && strcmp(tt, "entity:") && !strlist_has(&af->prefixed_tables, tt))
            continue;
        KfKey key;
        rule_key_flat(ctx, a, k, &key);
        if (key.n != 1 || !key.parts[0].hole)
            continue;
        const Seg *s = kf_part_seg(&key, 0);
        /* a value passed for a helper's parameter that is the helper's
         * partition key: judged at the helper, by the parameter's name
         * (that finding lists this call), when the helper is defined
         * elsewhere than this key */
        if ((s->flags & SEGF_ARG) && s->param && !rule_key_helper(ctx, k) &&
            bare_name(a, s->param))
            continue;
        bool bare;
        if (s->kind == SEG_REF && !strncmp(s->text, "process.env.", 12)) {
            bare = false; /* the deployment's configuration, not an id */
        } else if (s->kind == SEG_REF) {
            bare = bare_name(a, s->text) && !(s->name && key_like(s->name)) &&
                   !(k->via && key_like(k->via));
        } else if (s->kind == SEG_CALL) {
            bare = id_call(s->text) && !(s->flags & (SEGF_FRAMEWORK | SEGF_HELPER));
        } else {
            bare = false;
        }
        if (!bare)
            continue;
        const char *ent = s->kind == SEG_REF ? entity_guess(a, s->text) : NULL;
        Diagnostic *d = rule_report(ctx, k->span,
                    "partition key is the bare value '%s' with no entity prefix: in a single "
                    "table, ids of different entities collide and the key does not say what it "
                    "holds; write %s%c{%s}",
                    kf_hole_name(a, s), ent ? ent : "ENTITY", sep, kf_hole_name(a, s));
        rule_relate_calls(ctx, d, k);
    }
    arena_free(a);
}

const RuleDesc rule_missing_prefix = {
    .id = "missing-prefix",
    .summary = "a partition key that is a bare id with no entity prefix",
    .default_severity = SEV_WARNING,
    .check = check,
};
