/* complex-key: a key with more components than max-key-components (default 5;
 * the mbc-cqrs-serverless Key Design Patterns "Embedding Too Much in Keys",
 * the DynamoDB Key Design practice anti-pattern 4 "overly complex keys").
 * Components are the parts between separators (the configured one, which also
 * joins array keys), a value counting as one and a label inside the key with
 * the value after it (`#BRANCH#{branchId}`) counting as one; a version suffix
 * is part of its component. Judged where keys are defined. */
#include <string.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

enum { MAX_COMPONENTS = 64 };

/* Whether each component of the key holds a value (a hole) or is literal
 * text only; at most `max` are recorded, the count is returned. */
static size_t split(const KfKey *key, char sep, bool *value, size_t max)
{
    size_t n = 0;
    bool in = false; /* inside a component that has content */
    for (size_t p = 0; p < key->n; p++) {
        const KfPart *part = &key->parts[p];
        if (part->hole) {
            if (!in && n < max)
                value[n] = false;
            if (!in)
                n++;
            if (n <= max)
                value[n - 1] = true;
            in = true;
            continue;
        }
        for (size_t i = 0; i < part->len; i++) {
            if (part->text[i] == sep) {
                in = false;
                continue;
            }
            if (!in && n < max)
                value[n] = false;
            if (!in)
                n++;
            in = true;
        }
    }
    return n;
}

/* The key's components. A label inside the key and the value after it
 * count as one (`...#branch#{branchId}`): a label never changes and adds
 * nothing to what the key freezes. The leading component (the entity
 * prefix) always counts. So `org#{orgId}#branch#{branchId}#task#{taskId}`
 * is four, `ORDER#{date}#{category}#{priority}#{region}#{id}` six. */
static size_t components(const KfKey *key, char sep)
{
    bool value[MAX_COMPONENTS];
    size_t n = split(key, sep, value, MAX_COMPONENTS);
    if (n > MAX_COMPONENTS)
        return n;
    size_t count = n;
    for (size_t i = 1; i + 1 < n; i++)
        if (!value[i] && value[i + 1]) {
            count--;
            i++;
        }
    return count;
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
        rule_key_flat(ctx, a, k, &key);
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
