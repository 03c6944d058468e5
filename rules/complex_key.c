/* complex-key: a key with more components than max-key-components
 * (default 5; seed 000 "Embedding Too Much in Keys", seed 001
 * anti-pattern 4 "overly complex keys"). Components are the parts between
 * separators (the configured one, which also joins array keys), a value
 * counting as one; a version suffix is part of its component. Judged where
 * keys are defined. */
#include <string.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

static size_t components(const KfKey *key, char sep)
{
    size_t n = 0;
    bool in = false; /* inside a component that has content */
    for (size_t p = 0; p < key->n; p++) {
        const KfPart *part = &key->parts[p];
        if (part->hole) {
            if (!in)
                n++;
            in = true;
            continue;
        }
        for (size_t i = 0; i < part->len; i++) {
            if (part->text[i] == sep) {
                in = false;
                continue;
            }
            if (!in)
                n++;
            in = true;
        }
    }
    return n;
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->config)
        return;
    uint32_t max = ctx->config->max_key_components ? ctx->config->max_key_components : 5;
    char sep = ctx->config->separator && ctx->config->separator[0] ? ctx->config->separator[0]
                                                                    : '#';
    Arena *a = arena_new();
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (!access_defines_key(f, k))
            continue;
        KfKey key;
        kf_flatten(a, &k->segs, &key);
        size_t n = components(&key, sep);
        if (n <= max)
            continue;
        rule_report(ctx, k->span,
                    "%s %s has %zu components (max-key-components: %u): keep in the key only "
                    "what queries select on, and move the rest to attributes",
                    kf_role_noun(k->role), seglist_label(a, &k->segs), n, max);
    }
    arena_free(a);
}

const RuleDesc rule_complex_key = {
    .id = "complex-key",
    .summary = "a key with more components than max-key-components (default 5)",
    .default_severity = SEV_WARNING,
    .check = check,
};
