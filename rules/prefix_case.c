/* prefix-case: entity prefixes cased inconsistently across the project
 * (seed 004: "DynamoDB keys are case-sensitive; establish a convention",
 * "Bad: Inconsistent casing"). Two findings: the same prefix written in two
 * cases (`USER#` and `user#`: two different entities to DynamoDB), and a
 * prefix whose case is not the project's (a lower-case `profile` among
 * ORDER, USER, PRODUCT). The project's case is the one of a clear majority
 * of its distinct prefixes. One finding per prefix and file. */
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

static const char *case_name(int c)
{
    return c == CASE_UPPER ? "upper case" : c == CASE_LOWER ? "lower case" : "mixed case";
}

/* The case of a clear majority of the project's prefixes (at least three,
 * more than twice any other case), 0 when there is none. Whole-key
 * constants ('PROFILE') are not prefixes. */
static int convention(const AccessFacts *af)
{
    size_t n[128] = {0};
    for (size_t i = 0; i < af->prefixes.n; i++)
        if (af->prefixes.v[i].prefix)
            n[case_of(af->prefixes.v[i].token)]++;
    int best = 0;
    size_t bn = 0, rest = 0;
    static const int cases[] = {CASE_UPPER, CASE_LOWER, CASE_MIXED};
    for (size_t i = 0; i < 3; i++)
        if (n[cases[i]] > bn) {
            best = cases[i];
            bn = n[cases[i]];
        }
    for (size_t i = 0; i < 3; i++)
        if (cases[i] != best)
            rest += n[cases[i]];
    return bn >= 3 && bn > 2 * rest ? best : 0;
}

static size_t uses(const AccessFacts *af, const char *tok)
{
    const PrefixUse *u = access_prefix(af, tok);
    return u ? u->keys : 0;
}

/* Whether spelling x of a word is preferred over spelling y: more keys,
 * then the project's case, then upper case (seed 004), then the first. */
static bool beats(const AccessFacts *af, const char *x, const char *y, int conv)
{
    size_t nx = uses(af, x), ny = uses(af, y);
    if (nx != ny)
        return nx > ny;
    bool cx = conv && case_of(x) == conv, cy = conv && case_of(y) == conv;
    if (cx != cy)
        return cx;
    bool ux = case_of(x) == CASE_UPPER, uy = case_of(y) == CASE_UPPER;
    if (ux != uy)
        return ux;
    return strcmp(x, y) < 0;
}

/* The spelling of the same word the project prefers over `tok`, if any. */
static const char *preferred(const AccessFacts *af, const char *tok, int conv)
{
    const char *best = NULL;
    const PrefixUse **same;
    size_t n = access_prefix_spellings(af, tok, &same);
    for (size_t i = 0; i < n; i++) {
        const char *u = same[i]->token;
        if (!strcmp(u, tok))
            continue;
        if (beats(af, u, tok, conv) && (!best || beats(af, u, best, conv)))
            best = u;
    }
    return best;
}

static const char *examples(Arena *a, const AccessFacts *af, int conv)
{
    const char *s = "";
    size_t n = 0;
    for (size_t i = 0; i < af->prefixes.n && n < 3; i++)
        if (af->prefixes.v[i].prefix && case_of(af->prefixes.v[i].token) == conv) {
            s = arena_printf(a, "%s%s%s", s, n ? ", " : "", af->prefixes.v[i].token);
            n++;
        }
    return s;
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    const AccessFacts *af = ctx->access;
    if (!f || f->parse_failed || !af)
        return;
    Arena *a = arena_new();
    int conv = convention(af);
    NameMap done = {0}; /* prefixes reported */
    size_t seen;
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        KfKey key;
        kf_flatten(a, &k->segs, &key);
        const char *tok = kf_leading_prefix(a, &key);
        if (!tok || !uses(af, tok) || namemap_get(&done, tok, &seen))
            continue;
        const Seg *s = &k->segs.v[key.parts[0].first];
        if (s->flags & SEGF_FRAMEWORK)
            continue; /* MASTER, SEQ, TTL: the framework's own */
        const char *other = preferred(af, tok, conv);
        if (other) {
            namemap_put(a, &done, tok, 0);
            rule_report(ctx, s->span,
                        "entity prefix '%s' is also written '%s' (%zu key%s): keys are "
                        "case-sensitive, so these are two different entities to DynamoDB; "
                        "write '%s' everywhere",
                        tok, other, uses(af, other), uses(af, other) == 1 ? "" : "s", other);
            continue;
        }
        bool is_prefix = strlen(tok) < key.parts[0].len || key.n > 1;
        if (conv && is_prefix && case_of(tok) != conv) {
            namemap_put(a, &done, tok, 0);
            rule_report(ctx, s->span,
                        "entity prefix '%s' is %s while the project's prefixes are %s (%s): "
                        "pick one case for entity types and keep to it",
                        tok, case_name(case_of(tok)), case_name(conv), examples(a, af, conv));
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
