/* separator-in-value: a key component whose value can contain the key
 * separator, or (in a sort key of a project that versions its sort keys) the
 * version separator: an email in a sort key where '@' marks versions, free
 * text or a URL where '#' separates components, an ISO timestamp where ':' or
 * '-' does. The key can no longer be split back into its parts (the ddb-lib
 * Entity keys pattern: "ensure your IDs don't contain" the separator; the
 * mbc-cqrs-serverless Key Design Patterns: `removeSortKeyVersion` cuts at the
 * version separator). Values are known by their names. Judged where keys are
 * defined. */
#include <ctype.h>
#include <string.h>

#include "access.h"
#include "keyfacts.h"
#include "rule.h"

typedef struct Kind {
    const char *what;   /* "an email address" */
    const char *chars;  /* characters it can hold */
    const char *const *words;
} Kind;

static const char *const email_w[] = {"email", "mail", "emailAddress", NULL};
static const char *const url_w[] = {"url", "uri", "link", "href", "website", "homepage",
                                    NULL};
/* An API's route or address (`GET /users/:id`, a webhook's URL): a '#'
 * in a URL starts a fragment, which is never sent to a server, so an
 * endpoint holds none. */
static const char *const endpoint_w[] = {"endpoint", NULL};
static const char *const text_w[] = {"title", "description", "desc", "comment", "note",
                                     "notes", "message", "text", "label", "displayName",
                                     "fullName", "address", "body", "content", "summary",
                                     "bio", NULL};
static const char *const path_w[] = {"path", "filePath", "filename", "fileName", NULL};
static const char *const phone_w[] = {"phone", "phoneNumber", "tel", "mobile", NULL};

static const Kind kinds[] = {
    {"an email address", "@.+-_", email_w},
    {"a URL", ":/.#?&=@%-_~+", url_w},
    {"an endpoint", ":/.?&=%-_~+ ", endpoint_w},
    {"free text", " #@:/|.,;-_+=~'", text_w},
    {"a file path", "/.-_ ", path_w},
    {"a phone number", "+-() .", phone_w},
};

/* An address that is an id, not free text: a contract's, a wallet's or
 * a token's (a 0x hex id), an IP or MAC address (`contractAddress`,
 * `wallet_address`, `ipAddress`). */
static bool id_address(const char *name)
{
    static const char *const ids[] = {"contractaddress", "walletaddress", "tokenaddress",
                                      "ipaddress", "macaddress", NULL};
    char flat[64];
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < sizeof flat; c++)
        if (*c != '_' && *c != '-')
            flat[n++] = (char)tolower((unsigned char)*c);
    flat[n] = 0;
    for (const char *const *w = ids; *w; w++)
        if (!strcmp(flat, *w))
            return true;
    return false;
}

static const Kind *kind_of(Arena *a, const Seg *s)
{
    if (s->kind != SEG_REF)
        return NULL;
    const char *names[2] = {kf_last_component(a, s->text),
                            s->name ? kf_last_component(a, s->name) : NULL};
    if (id_address(names[0]))
        return NULL;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t n = 0; n < 2; n++)
            for (const char *const *w = kinds[k].words; names[n] && *names[n] && *w; w++)
                if (kf_name_ends_with_word(names[n], *w))
                    return &kinds[k];
    return NULL;
}

/* A time read as a number (`Date.now()`, `d.getTime()`, `Math.floor(Date.now()
 * / 1000)`: any Math function's result; a year, a month, a day): digits, no
 * '-' or ':'. */
static bool epoch_number(Arena *a, const Seg *s)
{
    const char *t = s->text ? s->text : "";
    size_t n = strlen(t);
    /* a year, a month, a day, ... by its name (`fiscalYear`, `d.getFullYear()`) */
    static const char *const parts[] = {"year", "month", "day", "week", "quarter", "hour",
                                        "FullYear", NULL};
    const char *last = kf_last_component(a, t);
    for (const char *const *w = parts; last && *w; w++)
        if (kf_name_ends_with_word(last, *w) || strstr(t, "getFullYear"))
            return true;
    if (s->kind == SEG_CALL)
        return !strcmp(t, "Date.now") || !strncmp(t, "Math.", 5) ||
               (n > 8 && !strcmp(t + n - 8, ".getTime")) ||
               (n > 8 && !strcmp(t + n - 8, ".valueOf"));
    return !strcmp(t, "Date.now()") || (n > 10 && !strcmp(t + n - 10, ".getTime()"));
}

/* The separators beside hole `p` of `key`: the punctuation just before it
 * and just after it ('\0' where there is none). */
static void beside(const KfKey *key, size_t p, char out[2])
{
    out[0] = out[1] = '\0';
    const KfPart *before = p > 0 ? &key->parts[p - 1] : NULL;
    const KfPart *after = p + 1 < key->n ? &key->parts[p + 1] : NULL;
    if (before && !before->hole && before->len &&
        ispunct((unsigned char)before->text[before->len - 1]))
        out[0] = before->text[before->len - 1];
    if (after && !after->hole && after->len && ispunct((unsigned char)after->text[0]))
        out[1] = after->text[0];
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k)
{
    const Config *cfg = ctx->config;
    char sep = cfg->separator && cfg->separator[0] ? cfg->separator[0] : '#';
    char ver = cfg->version_separator && cfg->version_separator[0] ? cfg->version_separator[0]
                                                                   : '@';
    bool versioned_sk = k->role == ROLE_SK && ctx->access && ctx->access->versioned;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    if (kf_hole_count(&key) < 1 || key.n < 2)
        return; /* a bare value: nothing to split */
    for (size_t p = 0; p < key.n; p++) {
        if (!key.parts[p].hole)
            continue;
        const Seg *s = kf_part_seg(&key, p);
        const Kind *kd = kind_of(a, s);
        const char *what = kd ? kd->what : NULL, *chars = kd ? kd->chars : NULL;
        if (!kd && access_hole_is_date(a, s) && !epoch_number(a, s)) {
            what = "a date or time";
            chars = "-:.TZ+";
        }
        if (!what)
            continue;
        /* the separator beside the value that the value can hold; free
         * text is judged against the project's separator only */
        char near[2], hit = '\0';
        beside(&key, p, near);
        for (int j = 0; j < 2 && !hit; j++)
            if (near[j] && strchr(chars, near[j]) &&
                (!(kd && kd->words == text_w) || near[j] == sep))
                hit = near[j];
        Diagnostic *d = NULL;
        if (hit)
            d = rule_report(ctx, s->span,
                        "'%s' in %s %s is %s and can contain '%c', the key separator: the key "
                        "can no longer be split back into its parts; key by an id and keep the "
                        "value in an attribute",
                        kf_hole_name(a, s), kf_role_noun(k->role), seglist_label(a, &k->segs),
                        what, hit);
        else if (versioned_sk && strchr(chars, ver))
            d = rule_report(ctx, s->span,
                        "'%s' in sort key %s is %s and can contain '%c', the version separator: "
                        "versioned sort keys are cut at it (addSortKeyVersion / "
                        "removeSortKeyVersion); key by an id and keep the value in an attribute",
                        kf_hole_name(a, s), seglist_label(a, &k->segs), what, ver);
        rule_relate_calls(ctx, d, k);
    }
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || !ctx->config)
        return;
    Arena *a = arena_new();
    for (size_t i = 0; i < f->keys.n; i++)
        if (access_defines_key(f, &f->keys.v[i]) && !kf_same_value_earlier(f, i))
            check_key(ctx, a, &f->keys.v[i]);
    arena_free(a);
}

const RuleDesc rule_separator_in_value = {
    .id = "separator-in-value",
    .summary = "a key component whose value can contain the separator or the version "
               "separator (an email in a versioned sort key)",
    .default_severity = SEV_WARNING,
    .check = check,
};
