/* prefix-case: the same entity prefix written in two cases across the project
 * (`USER#` and `user#`: two different entities to DynamoDB; the ddb-lib
 * Entity keys pattern: "DynamoDB keys are case-sensitive; establish a
 * convention", "Bad: Inconsistent casing"). The less used spelling is
 * reported, once per prefix and file. A prefix written in one case everywhere
 * is never reported, whatever the case of the others (`itemType#` among
 * upper-case prefixes is a choice, not a mistake DynamoDB would act on). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

enum { CASE_UPPER = 'U', CASE_LOWER = 'l', CASE_MIXED = 'M' };

static int case_of(const char *t)
{
    bool up = false, low = false;
    for (; *t; t++) {
        if (isupper((unsigned char)*t))
            up = true;
        else if (islower((unsigned char)*t))
            low = true;
    }
    return up && low ? CASE_MIXED : up ? CASE_UPPER : CASE_LOWER;
}

static size_t uses(const AccessFacts *af, const char *tok)
{
    const PrefixUse *u = access_prefix(af, tok);
    return u ? u->keys : 0;
}

/* Whether spelling x of a word is preferred over spelling y: more keys,
 * then upper case (the ddb-lib Entity keys pattern), then the first. */
static bool beats(const AccessFacts *af, const char *x, const char *y)
{
    size_t nx = uses(af, x), ny = uses(af, y);
    if (nx != ny)
        return nx > ny;
    bool ux = case_of(x) == CASE_UPPER, uy = case_of(y) == CASE_UPPER;
    if (ux != uy)
        return ux;
    return strcmp(x, y) < 0;
}

/* The spelling of the same word the project prefers over `tok`, if any. */
static const char *preferred(const AccessFacts *af, const char *tok)
{
    const char *best = NULL;
    const PrefixUse **same;
    size_t n = access_prefix_spellings(af, tok, &same);
    for (size_t i = 0; i < n; i++) {
        const char *u = same[i]->token;
        if (!strcmp(u, tok) || !same[i]->prefix)
            continue; /* a word no key puts before more (sk: 'TOKEN') is no prefix */
        if (beats(af, u, tok) && (!best || beats(af, u, best)))
            best = u;
    }
    return best;
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    const AccessFacts *af = ctx->access;
    if (!f || f->parse_failed || !af)
        return;
    Arena *a = arena_new();
    NameMap done = {0}; /* prefixes reported */
    size_t seen;
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (kf_id_attribute(k, ctx->config))
            continue; /* `listingId: \`pool-${id}\``: an id's own text */
        KfKey key;
        rule_key_flat(ctx, a, k, &key);
        const char *tok = kf_leading_prefix(a, &key);
        if (!tok || !uses(af, tok) || namemap_get(&done, tok, &seen))
            continue;
        if (key.n == 1 && strlen(tok) == key.parts[0].len)
            continue; /* the whole key is one word (sk: 'TOKEN'): a marker, no prefix */
        const Seg *s = &k->segs.v[key.parts[0].first];
        if (s->flags & SEGF_FRAMEWORK)
            continue; /* MASTER, SEQ, TTL: the framework's own */
        const char *other = preferred(af, tok);
        if (other) {
            namemap_put(a, &done, tok, 0);
            rule_report(ctx, s->span,
                        "entity prefix '%s' is also written '%s' (%zu key%s): keys are "
                        "case-sensitive, so these are two different entities to DynamoDB; "
                        "write '%s' everywhere",
                        tok, other, uses(af, other), uses(af, other) == 1 ? "" : "s", other);
        }
    }
    arena_free(a);
}

const RuleDesc rule_prefix_case = {
    .id = "prefix-case",
    .summary = "entity prefixes cased inconsistently across the project (USER# and user#)",
    .default_severity = SEV_WARNING,
    .check = check,
};
