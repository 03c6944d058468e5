/* unmatched-query: a query whose partition key shape, or sort key prefix,
 * no write in the project produces (design.md: `ORDERITEM#` read,
 * `ORDER_ITEM#` written). The written shapes are project-wide: every key
 * written (puts, updates, transact and batch writes, command DTOs), every
 * entity key definition, key helper and object literal of keys, seed
 * scripts included (linter/access.h). Compared on literal text, a value
 * matching anything; an attribute the project never writes is not judged. */
#include <string.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

static bool same_class(KeyRole a, KeyRole b)
{
    bool pa = a == ROLE_PK || a == ROLE_INDEX_PK, pb = b == ROLE_PK || b == ROLE_INDEX_PK;
    bool sa = a == ROLE_SK || a == ROLE_INDEX_SK, sb = b == ROLE_SK || b == ROLE_INDEX_SK;
    return a == ROLE_KEY || b == ROLE_KEY || (pa && pb) || (sa && sb);
}

enum { MAX_NEAR = 256 }; /* written shapes a near miss is looked for among */

static size_t lit_len(const char *s)
{
    const char *h = strstr(s, "{}");
    return h ? (size_t)(h - s) : strlen(s);
}


/* Whether some write of `attr` may go to `table`: its operation's table
 * is that one, or cannot be told (entity definitions, helpers, objects). */
static bool written_to(const RuleContext *ctx, Arena *a, const char *attr, const TableDef *table)
{
    const AccessFacts *af = ctx->access;
    size_t from, n = access_writes_of(af, attr, &from);
    for (size_t i = from; i < from + n; i++) {
        const WrittenKey *w = &af->written.v[i];
        if (w->helper || w->guessed) /* a write to a guessed table proves nothing */
            continue;
        if (!w->file)
            return true;
        if (w->op < 0) {
            const TableDef *et = access_entity_table(ctx->tables, w->file, w->span);
            if (!et || et == table)
                return true;
            continue;
        }
        OpTarget t;
        access_target(a, af, ctx->tables, ctx->config, w->file, (size_t)w->op, &t);
        if (!t.table || t.table == table)
            return true;
    }
    return false;
}

/* Whether some write of `attr` is to a table that is no guess: writes
 * to guessed tables match queries but do not make an attribute judged. */
static bool written_surely(const AccessFacts *af, const char *attr)
{
    size_t from, n = access_writes_of(af, attr, &from);
    for (size_t i = from; i < from + n; i++)
        if (!af->written.v[i].guessed)
            return true;
    return false;
}

/* written_to, once per (attribute, table) of a file. */
static bool written_to_memo(const RuleContext *ctx, Arena *a, NameMap *memo, const char *attr,
                            const TableDef *table)
{
    const char *key = arena_printf(a, "%p:%s", (const void *)table, attr);
    size_t v;
    if (namemap_get(memo, key, &v))
        return v;
    bool w = written_to(ctx, a, attr, table);
    namemap_put(a, memo, key, w);
    return w;
}

typedef struct HelperRole {
    const AccessFacts *af;
    KeyRole role;
} HelperRole;

static bool helper_of_class(const void *ctx, size_t i)
{
    const HelperRole *hr = ctx;
    return same_class(hr->af->helper_roles[i], hr->role);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k, const TableDef *table,
                      NameMap *memo)
{
    const AccessFacts *af = ctx->access;
    bool prefix = k->cond == COND_BEGINS_WITH;
    if (!prefix && k->cond != COND_EQ)
        return;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    const char *q = kf_shape(a, &key);
    size_t ql = lit_len(q);
    if (!ql)
        return; /* nothing literal to compare */
    const char *const *ws;
    size_t n = access_written_shapes(af, k->attr, 0, &ws);
    if (!n || strlist_has(&af->updated, k->attr) || !written_surely(af, k->attr))
        return; /* nothing seen written, or set by updates whose values are not seen */
    if (access_some_compatible(ws, n, q, prefix, NULL, NULL))
        return;
    HelperRole hr = {af, k->role};
    if (access_some_compatible(af->helper_shapes, af->helpers.n, q, prefix, helper_of_class, &hr))
        return;
    /* the writes seen all go to other tables: this one's are not seen */
    if (table && ctx->tables && !written_to_memo(ctx, a, memo, k->attr, table))
        return;
    const char *list = "";
    for (size_t i = 0; i < n && i < 4; i++)
        list = arena_printf(a, "%s%s%s", list, i ? ", " : "", ws[i]);
    /* a near miss, among the shapes nearest in order when there are many */
    size_t from = 0, to = n, best = 4;
    if (n > MAX_NEAR) {
        size_t at = 0, hi = n;
        while (at < hi) {
            size_t mid = at + (hi - at) / 2;
            if (strcmp(ws[mid], q) < 0)
                at = mid + 1;
            else
                hi = mid;
        }
        from = at > MAX_NEAR / 2 ? at - MAX_NEAR / 2 : 0;
        to = from + MAX_NEAR < n ? from + MAX_NEAR : n;
    }
    const char *near = NULL;
    for (size_t i = from; i < to; i++) {
        size_t wl = lit_len(ws[i]);
        size_t d = edit_distance(q, ql, ws[i], wl);
        if (wl && d < best && d > 0) {
            best = d;
            near = arena_strndup(a, ws[i], wl);
        }
    }
    /* `= 'TENANT#'` where TENANT#{id} is written: a value always follows */
    const char *hint = near ? arena_printf(a, "; did you mean '%s'?", near) : "";
    if (!prefix && !q[ql] && access_some_compatible(ws, n, q, true, NULL, NULL))
        hint = arena_printf(a, "; a value always follows '%s' there: begins_with, or the "
                               "value, was meant", q);
    rule_report(ctx, k->span,
                "no write in the project produces %s %s %s '%s': %s is written as %s%s%s",
                strchr("aeiou", kf_role_noun(k->role)[0]) ? "an" : "a", kf_role_noun(k->role), prefix ? "beginning with" : "like", q, k->attr, list,
                n > 4 ? ", ..." : "", hint);
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->access)
        return;
    Arena *a = arena_new();
    NameMap memo = {0}; /* written_to_memo */
    size_t last_op = (size_t)-1;
    bool foreign = false;
    const TableDef *table = NULL;
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->site != SITE_CONDITION || k->op < 0 || (size_t)k->op >= f->ops.n ||
            f->ops.v[k->op].kind != OP_QUERY || !k->attr || k->attr[0] == '[')
            continue;
        if (ctx->tables && (size_t)k->op != last_op) {
            /* a query of another service's table: its writes are not here */
            OpTarget t;
            access_target(a, ctx->access, ctx->tables, ctx->config, f, (size_t)k->op, &t);
            foreign = t.foreign;
            table = t.table;
            last_op = (size_t)k->op;
        }
        if (!foreign)
            check_key(ctx, a, k, table, &memo);
    }
    arena_free(a);
}

const RuleDesc rule_unmatched_query = {
    .id = "unmatched-query",
    .summary = "a query whose key shape (partition key, sort key prefix) no write in the "
               "project produces",
    .default_severity = SEV_WARNING,
    .check = check,
};
