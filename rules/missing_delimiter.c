/* missing-delimiter: two values (or a constant's text and a value) joined
 * with nothing between them, so the key cannot be split back into its
 * components. A project whose keys start with type codes of one width
 * glued to the value (`'GA' + groupId`, `'UM' + userId`: facts'
 * fixed_code_width) splits them by position; those codes are not
 * reported. */
#include <ctype.h>
#include <string.h>

#include "keyfacts.h"
#include "rule.h"

static char separator(const RuleContext *ctx)
{
    const Config *c = ctx->config;
    return c && c->separator && c->separator[0] ? c->separator[0] : '#';
}

/* A value read from a collection of prefixes that keylint could not
 * resolve (`PREFIX.USER`, `KeyPrefixes.ORDER`, `PREFIXES.user`): a prefix
 * constant whose text is not known, so nothing says it lacks a separator. */
static bool unresolved_prefix_member(const Seg *s)
{
    if (s->kind != SEG_REF || (s->flags & SEGF_CONST))
        return false;
    static const char *const words[] = {"prefix", "Prefix", "PREFIX"};
    const char *dot = strrchr(s->text, '.');
    for (const char *p = s->text; dot && p < dot;) {
        const char *end = strchr(p, '.');
        size_t len = (size_t)(end - p);
        for (size_t w = 0; w < 3; w++) {
            const char *hit = len >= 6 ? strstr(p, words[w]) : NULL;
            /* the word ends the component, or is followed by `s`/`es` */
            if (hit && hit + 6 <= end &&
                (hit + 6 == end || (hit + 7 == end && (hit[6] == 's' || hit[6] == 'S')) ||
                 (hit + 8 == end && (hit[6] == 'e' || hit[6] == 'E'))))
                return true;
        }
        p = end + 1;
    }
    return false;
}

/* Two adjacent holes that are nonetheless fine. */
static bool adjacent_ok(Arena *a, const Seg *l, const Seg *r)
{
    if (unresolved_prefix_member(l))
        return true;
    /* An expression we cannot read may well hold its own separator. */
    if (l->kind == SEG_UNKNOWN || r->kind == SEG_UNKNOWN)
        return true;
    if (kf_hole_is_separator(a, l) || kf_hole_is_separator(a, r))
        return true;
    if (kf_hole_is_date(a, l) && kf_hole_is_date(a, r))
        return true;
    if (kf_name_is_prefix_like(a, l->text) ||
        kf_name_is_suffix_like(a, r->text))
        return true;
    return false;
}

/* The length of an upper-case label (two letters or more, `_` inside:
 * `USER`, `LIKED_POST`) that ends `text` and starts the key (`at_start`)
 * or follows a character that is not a letter or digit
 * (`LIKE#{postId}#USER`); 0 when `text` does not end in one. A single
 * letter (`#v`, `#V` before a version) is not a label. */
static size_t glued_label(const char *text, size_t len, bool at_start)
{
    size_t i = len, letters = 0;
    while (i > 0 && (isupper((unsigned char)text[i - 1]) || text[i - 1] == '_')) {
        letters += text[i - 1] != '_';
        i--;
    }
    if (letters < 2 || !isupper((unsigned char)text[len - 1]))
        return 0;
    if (i == 0 ? !at_start : isalnum((unsigned char)text[i - 1]))
        return 0;
    while (text[i] == '_')
        i++;
    return len - i;
}

static bool both_helper(const Seg *l, const Seg *r)
{
    return (l->flags & SEGF_HELPER) && (r->flags & SEGF_HELPER);
}

/* The evidence of a join: the other side of it, `other` (named `name`),
 * where it is written; else the key that joins them. */
static void glued_to(const RuleContext *ctx, Diagnostic *d, const Seg *other, const char *name,
                     const KeyExpr *k)
{
    if (other->span.end_byte)
        diag_relate(ctx->out, d, NULL, other->span, "'%s', the other side of the join", name);
    else if (k->span.end_byte)
        diag_relate(ctx->out, d, NULL, k->span, "the key that joins them");
    else
        rule_unproven(ctx, d);
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    /* a helper's output: judged once, at the helper's definition */
    if (kf_is_helper_output(k))
        return;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    if (kf_is_phone(&key))
        return; /* `+${countryCode}${mobileNumber}`: one value */
    const char *render = NULL;
    for (size_t p = 1; p < key.n; p++) {
        const KfPart *prev = &key.parts[p - 1], *cur = &key.parts[p];
        if (!cur->hole)
            continue;
        const Seg *r = kf_part_seg(&key, p);
        if (prev->hole) {
            const Seg *l = kf_part_seg(&key, p - 1);
            if (adjacent_ok(a, l, r))
                continue;
            /* inside an inlined helper: reported at the helper */
            if (k->site != SITE_HELPER && both_helper(l, r))
                continue;
            if (!render)
                render = seglist_label(a, &k->segs);
            Diagnostic *d = rule_report(ctx, r->span,
                        "'%s' and '%s' are joined with nothing between them: "
                        "the key cannot be split back (%s %s); put '%c' "
                        "between them",
                        kf_hole_name(a, l), kf_hole_name(a, r),
                        kf_role_noun(k->role), render, separator(ctx));
            glued_to(ctx, d, l, kf_hole_name(a, l), k);
            rule_relate_calls(ctx, d, k);
            rule_unproven_guess(ctx, d, k);
            continue;
        }
        /* Text ending in a word character, then a value. */
        const Seg *l = kf_text_seg_at(&key, p - 1, prev->len - 1, NULL);
        char last = prev->text[prev->len - 1];
        if (!l || !isalnum((unsigned char)last))
            continue;
        if (r->kind == SEG_UNKNOWN || kf_hole_is_separator(a, r))
            continue;
        if (k->site != SITE_HELPER && both_helper(l, r))
            continue;
        /* A constant's text, or an upper-case label written inline, glued
         * to the value: what to call it and what the separator goes
         * after. */
        const char *what, *after;
        if ((l->flags & SEGF_CONST) && l->name) {
            what = arena_printf(a, "the constant %s ('%s')", l->name, l->text);
            after = l->name;
        } else {
            size_t label = glued_label(prev->text, prev->len, p - 1 == 0);
            if (!label)
                continue;
            if (p == 1 && ctx->facts && ctx->facts->fixed_code_width &&
                kf_start_code(&key) == ctx->facts->fixed_code_width)
                continue;
            after = arena_strndup(a, prev->text + prev->len - label, label);
            what = arena_printf(a, "the label '%s'", after);
        }
        if (!render)
            render = seglist_label(a, &k->segs);
        /* Where the join is written: at the value, unless the value was
         * written before the text (a variable assigned earlier), then at
         * the text. */
        Span at = r->span.start_byte < l->span.end_byte ? l->span : r->span;
        Diagnostic *d = rule_report(ctx, at,
                    "%s is followed directly by '%s' with nothing between them: the "
                    "key cannot be split back (%s %s); put '%c' after %s",
                    what, kf_hole_name(a, r), kf_role_noun(k->role), render,
                    separator(ctx), after);
        glued_to(ctx, d, at.start_byte == l->span.start_byte ? r : l,
                 at.start_byte == l->span.start_byte ? kf_hole_name(a, r) : after, k);
        rule_relate_calls(ctx, d, k);
        rule_unproven_guess(ctx, d, k);
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < file->keys.n; i++)
        check_key(ctx, a, &file->keys.v[i]);
    arena_free(a);
}

const RuleDesc rule_missing_delimiter = {
    .id = "missing-delimiter",
    .summary = "two key components joined with nothing between them",
    .default_severity = SEV_ERROR,
    .check = check,
};
