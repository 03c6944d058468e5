/* mixed-separator: a key whose components are separated by different
 * characters, or whose one separator differs from the rest of the
 * project's keys. Judged at the boundaries between literal text and
 * values only (keyfacts: kf_boundaries). */
#include <string.h>

#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

/* "'-', '_' and ':'" */
static const char *list_chars(Arena *a, const char *chars)
{
    const char *s = "";
    size_t n = strlen(chars);
    for (size_t i = 0; i < n; i++) {
        const char *join = i == 0 ? "" : i + 1 == n ? " and " : ", ";
        s = arena_printf(a, "%s%s'%c'", s, join, chars[i]);
    }
    return s;
}

/* Where a key held in a variable, or handed to a helper that reads or
 * writes it (`readCache(PK, sk)` with `const sk = \`W#${lat},${lon}\``), is
 * reported: at the first separator other than the one wanted, when this
 * file's code writes it there (the part of the key that is wrong: `const
 * scope = id ? \`WS:${id}#\` : ''`, a part held in a local), else where
 * the key is used. */
/* A key helper's value that some key of the project inlines as a table or
 * index key attribute (a key map's attribute whose table settled its
 * role after resolution: `Key: { lookupKey: emailLookupKey(email) }` on a
 * table keyed by lookupKey). */
static bool helper_in_key(const RuleContext *ctx, const KeyExpr *k)
{
    const ProjectFacts *f = ctx->facts;
    for (size_t i = 0; f && k->site == SITE_HELPER && k->attr && i < f->helper_calls.n; i++) {
        const HelperCallSite *c = &f->helper_calls.v[i];
        if (c->in_key && !strcmp(c->helper, k->attr) && !strcmp(c->helper_path, ctx->file->path))
            return true;
    }
    return false;
}

static Span wrong_part(const KeyExpr *k, const KfBoundary *b, size_t nb, char want)
{
    for (size_t i = 0; i < nb; i++) {
        const Seg *s = b[i].seg;
        /* a part held in a local (`const slot = \`${day}_${time}\``, then
         * `SK: \`SCHEDULE#${slot}\``) is written outside the key */
        bool elsewhere = s && s->span.end_byte &&
                         (s->span.end_byte <= k->span.start_byte ||
                          s->span.start_byte >= k->span.end_byte);
        if (!k->via && !(s && (s->flags & SEGF_ARG)) && !elsewhere)
            continue;
        if (b[i].c == want || !s || !s->span.end_byte || s->name ||
            (s->flags & (SEGF_CONST | SEGF_HELPER | SEGF_FRAMEWORK | SEGF_ARRAY_JOIN)))
            continue;
        return s->span;
    }
    return k->span;
}

/* Where that the value is a key of the project's design is a guess, the
 * finding is a warning that says why: a value held by a name for one
 * entity's id (`ticketId: \`tkt-${uuid}\``, `const sessionId =
 * \`voice-${callId}\``), which may be the id in its own notation. */
static void value_guess(const RuleContext *ctx, Diagnostic *d, const KeyExpr *k,
                            const KfKey *key)
{
    const char *holder = kf_id_holder(k, key, ctx->config);
    if (!holder)
        return;
    d->message = arena_printf(ctx->out->arena, "%s ('%s' is named for an id: the separator may "
                                               "be the id's own notation)",
                              d->message, holder);
    rule_unproven(ctx, d);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    const ProjectFacts *f = ctx->facts;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    KfBoundary *b;
    size_t nb = kf_boundaries(a, &key, ctx->config, &b);
    if (!nb)
        return;
    /* A helper's own separators are reported at its definition. */
    if (k->site != SITE_HELPER && kf_boundaries_all_helper(b, nb))
        return;
    const char *chars = kf_boundary_chars(a, b, nb);
    const char *noun = kf_role_noun(k->role);

    if (strlen(chars) >= 2) {
        char want = ctx->config && ctx->config->separator
                        ? ctx->config->separator[0]
                        : 0;
        if (!want && f)
            want = f->dominant_separator;
        Diagnostic *d = rule_report(ctx, wrong_part(k, b, nb, want ? want : '#'),
                                    "%s %s separates its components with %s; use one "
                                    "separator ('%c') between all components",
                                    noun, seglist_label(a, &k->segs), list_chars(a, chars),
                                    want ? want : '#');
        /* the evidence: where each separator is written, the first time */
        for (size_t i = 0; i < nb; i++) {
            bool first = true;
            for (size_t j = 0; j < i && first; j++)
                first = b[j].c != b[i].c;
            if (first && b[i].seg && b[i].seg->span.end_byte)
                diag_relate(ctx->out, d, NULL, b[i].seg->span, "'%c' separates here", b[i].c);
        }
        if (!d->nrelated)
            rule_unproven(ctx, d);
        rule_relate_calls(ctx, d, k);
        rule_unproven_guess(ctx, d, k);
        value_guess(ctx, d, k, &key);
        return;
    }

    /* One separator, but not the project's. A key of a table that is a
     * guess (an item written to a table keylint cannot name) is judged on
     * its own only: that table may hold another service's keys. */
    unsigned char c = (unsigned char)chars[0];
    if (!f || !f->dominant_separator || c >= 128 || k->role_guessed ||
        (char)c == f->dominant_separator || kf_id_attribute(k, ctx->config))
        return;
    uint32_t dom = f->separator_uses[(unsigned char)f->dominant_separator];
    uint32_t mine = f->separator_uses[c];
    if (dom < 3 || dom < 2 * mine)
        return;
    Diagnostic *d = rule_report(ctx, wrong_part(k, b, nb, f->dominant_separator),
                                "%s %s uses '%c' where the project's keys use '%c' (%u key "
                                "shapes use '%c', %u use%s '%c')",
                                noun, seglist_label(a, &k->segs), c, f->dominant_separator,
                                dom, f->dominant_separator, mine, mine == 1 ? "s" : "", c);
    /* `CLASS#hb-${userId}-${slug}`: the key's prefix ends with the
     * project's separator; what follows, joined by '-' or '_', is one
     * value, an id written in its own notation (stored whole as `classId`
     * beside it), or a component with the wrong separator: a guess. A ':'
     * there (`CACHE#profile:${id}`) is a key's separator. */
    const char *lead = key.n && !key.parts[0].hole ? key.parts[0].text : NULL;
    if (lead && strchr(lead, f->dominant_separator) && (c == '-' || c == '_')) {
        d->message = arena_printf(ctx->out->arena, "%s (after its prefix, which uses '%c', "
                                                   "the '%c' may be an id's own notation)",
                                  d->message, f->dominant_separator, c);
        rule_unproven(ctx, d);
    }
    /* the evidence: a key of the project that uses its separator; and the
     * value must be known to be a table or index key: a helper's value no
     * key of the project uses as one (a secret's name, an API token a
     * `...Key` function makes) may be no DynamoDB key at all */
    unsigned char dc = (unsigned char)f->dominant_separator;
    if (f->separator_first[dc].path)
        diag_relate(ctx->out, d, f->separator_first[dc].path, f->separator_first[dc].span,
                    "a key that uses '%c'", f->dominant_separator);
    if (!f->separator_first[dc].path ||
        (k->role == ROLE_KEY && k->no_key_use && !helper_in_key(ctx, k)))
        rule_unproven(ctx, d);
    rule_relate_calls(ctx, d, k);
    rule_unproven_guess(ctx, d, k);
    value_guess(ctx, d, k, &key);
}

/* The parts of `o` and `k` that are arguments handed to a helper are the
 * same, written at the same places (one local `key` handed to
 * `getCacheItem(key)` and `setCacheItem(key, v)`), and so is the rest. */
static bool same_handed_value(const KeyExpr *o, const KeyExpr *k)
{
    if (o->segs.n != k->segs.n)
        return false;
    bool arg = false;
    for (size_t i = 0; i < o->segs.n; i++) {
        const Seg *a = &o->segs.v[i], *b = &k->segs.v[i];
        if (a->kind != b->kind || (a->flags & SEGF_ARG) != (b->flags & SEGF_ARG) ||
            !a->text != !b->text || (a->text && strcmp(a->text, b->text)))
            return false;
        if (a->flags & SEGF_ARG) {
            if (a->span.start_byte != b->span.start_byte || !a->span.end_byte)
                return false;
            arg = true;
        }
    }
    return arg;
}

/* Key `k` is the place an earlier key `o` of the file was reported at:
 * the same place read with and without an optional part; or the same
 * value handed to another project function (same_handed_value: one key,
 * reported once). (One variable written as two keys of one item is
 * kf_same_value_earlier's.) */
static bool judged_before(const KeyExpr *o, bool o_reported, const KeyExpr *k)
{
    if (!o_reported || o->role != k->role)
        return false;
    if (same_handed_value(o, k))
        return true;
    return o->op == k->op && o->span.start_byte == k->span.start_byte &&
           o->span.end_byte == k->span.end_byte;
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    bool *reported = arena_alloc(a, (file->keys.n + 1) * sizeof *reported);
    for (size_t i = 0; i < file->keys.n; i++) {
        const KeyExpr *k = &file->keys.v[i];
        bool seen = kf_same_value_earlier(file, i);
        for (size_t j = 0; j < i && !seen; j++)
            seen = judged_before(&file->keys.v[j], reported[j], k);
        size_t before = ctx->out->items.n;
        if (!seen)
            check_key(ctx, a, k);
        reported[i] = ctx->out->items.n > before;
    }
    arena_free(a);
}

const RuleDesc rule_mixed_separator = {
    .id = "mixed-separator",
    .summary = "key components separated by different characters",
    .default_severity = SEV_ERROR,
    .check = check,
};
