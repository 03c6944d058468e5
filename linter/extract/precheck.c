/* _GNU_SOURCE (memmem) comes from meson.build */
#include "precheck.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool has(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    return n && memmem(text, len, word, n) != NULL;
}

static bool has_ci(const char *text, size_t len, const char *lower)
{
    size_t n = strlen(lower);
    if (!n || len < n)
        return false;
    for (size_t i = 0; i + n <= len; i++) {
        if (tolower((unsigned char)text[i]) != lower[0])
            continue;
        size_t j = 1;
        while (j < n && tolower((unsigned char)text[i + j]) == lower[j])
            j++;
        if (j == n)
            return true;
    }
    return false;
}

static bool letter(char c) { return isalpha((unsigned char)c); }
static bool lower(char c) { return islower((unsigned char)c); }

/* The words of the key attribute names extraction knows
 * (`^(gsi|lsi)?[0-9]*_?(pk|sk)[0-9]*$`) and of key helpers named for them
 * (`userPk`, `GSI1SK`, `sort_key`): "pk" or "sk" standing as a word of an
 * identifier, and "gsi"/"lsi". */
static bool key_attr_word(const char *t, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        char c = t[i], d = t[i + 1];
        if ((c != 'p' && c != 'P' && c != 's' && c != 'S') || (d != 'k' && d != 'K'))
            continue;
        bool upper_start = c == 'P' || c == 'S';
        bool before_ok = i == 0 || !letter(t[i - 1]) || upper_start;
        bool after_ok = i + 2 >= len || !lower(t[i + 2]) ||
                        (i + 3 < len && t[i + 2] == 's' && !letter(t[i + 3]));
        if (before_ok && after_ok)
            return true;
    }
    return has_ci(t, len, "gsi") || has_ci(t, len, "lsi");
}

/* The separator inside a string literal (a quote before it and after it on
 * its line): keys and key helpers carry it (`ORDER#${id}`). */
static bool sep_in_literal(const char *t, size_t len, const char *sep)
{
    size_t n = sep ? strlen(sep) : 0;
    if (!n)
        return false;
    for (const char *p = t, *end = t + len; (p = memmem(p, (size_t)(end - p), sep, n));
         p += n) {
        bool before = false, after = false;
        for (const char *q = p; q > t && q[-1] != '\n' && !before; q--)
            before = q[-1] == '\'' || q[-1] == '"' || q[-1] == '`';
        for (const char *q = p + n; q < end && *q != '\n' && !after; q++)
            after = *q == '\'' || *q == '"' || *q == '`';
        if (before && after)
            return true;
    }
    return false;
}

bool text_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

bool text_next_ident(const char *t, size_t len, size_t *i, size_t *start)
{
    while (*i < len && !text_ident_char(t[*i]))
        (*i)++;
    if (*i >= len)
        return false;
    *start = *i;
    while (*i < len && text_ident_char(t[*i]))
        (*i)++;
    return true;
}

/* A function whose name has the word "key" or "keys" (`orderKey = (id) =>`,
 * `function buildKeys(`, `Keys = {` of helper objects, a method
 * `key(id) {`): extraction reads what such a function returns as a key.
 * The name is not a member (`Object.keys(`), and an opening bracket, an
 * arrow or `function` follows it. */
static bool key_named_function(const char *t, size_t len)
{
    size_t i = 0, s;
    while (text_next_ident(t, len, &i, &s)) {
        if (s > 0 && t[s - 1] == '.')
            continue;
        /* the word key/keys in the name: at its start or after '_', a
         * digit or a lower-to-upper turn, and ending it or a word */
        bool word = false;
        for (size_t k = s; k + 3 <= i && !word; k++) {
            if (strncasecmp(t + k, "key", 3))
                continue;
            bool start = k == s || t[k - 1] == '_' || isdigit((unsigned char)t[k - 1]) ||
                         (isupper((unsigned char)t[k]) && !isupper((unsigned char)t[k - 1]));
            size_t e = k + 3;
            if (e < i && (t[e] == 's' || t[e] == 'S'))
                e++;
            bool end = e == i || !lower(t[e]);
            word = start && end;
        }
        if (!word)
            continue;
        size_t j = i;
        while (j < len && (t[j] == ' ' || t[j] == '\t'))
            j++;
        if (j < len && t[j] == '(')
            return true;
        /* `key={id}` is a JSX attribute */
        bool jsx = j == i && j + 1 < len && t[j] == '=' && t[j + 1] == '{';
        if (!jsx && j < len && (t[j] == '=' || t[j] == ':') && (j + 1 >= len || t[j + 1] != '=')) {
            j++;
            while (j < len && isspace((unsigned char)t[j]))
                j++;
            if (j < len && (t[j] == '(' || t[j] == '{' || !strncmp(t + j, "async", 5) ||
                            !strncmp(t + j, "function", 8)))
                return true;
            while (j < len && text_ident_char(t[j])) /* x => */
                j++;
            while (j < len && t[j] == ' ')
                j++;
            if (j + 1 < len && t[j] == '=' && t[j + 1] == '>')
                return true;
        }
    }
    return false;
}

static bool any_listed(const char *text, size_t len, const StrList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (has(text, len, l->v[i]))
            return true;
    return false;
}

bool extract_may_find(const char *text, size_t len, const Config *cfg)
{
    /* The SDKs and the libraries keylint reads, the parameters and
     * expression strings of every data operation, tables in code (CDK,
     * SST, Terraform) and the constants keys are written with. */
    static const char *const words[] = {
        "ynamo", "DYNAMO", "ddb", "DDB", "Ddb", "TableName", "Command", "Key:", "Keys:",
        "Item:", "xpression", "begins_with", "ppsync", "APPSYNC", "RequestItems",
        "TransactItems", "Table(", "SEPARATOR", "PREFIX", "mbc", "urbine", NULL};
    /* mbc-cqrs-serverless services as receivers are named, and the key
     * attributes of table definitions */
    static const char *const lower_words[] = {
        "dataservice", "commandservice", "historyservice", "partition_key", "sort_key",
        "partitionkey", "sortkey", "hashkey", "rangekey", "hash_key", "range_key", NULL};
    if (!text)
        return false;

    for (const char *const *w = words; *w; w++)
        if (has(text, len, *w))
            return true;
    for (const char *const *w = lower_words; *w; w++)
        if (has_ci(text, len, *w))
            return true;
    if (key_attr_word(text, len) || key_named_function(text, len) ||
        sep_in_literal(text, len, cfg ? cfg->separator : "#"))
        return true;
    if (cfg && (any_listed(text, len, &cfg->key_pk) || any_listed(text, len, &cfg->key_sk) ||
                any_listed(text, len, &cfg->key_index_pk) ||
                any_listed(text, len, &cfg->key_index_sk)))
        return true;
    /* a declared wrapper: the last name of its call ("*.queryRows") */
    for (size_t i = 0; cfg && i < cfg->wrappers.n; i++) {
        const char *call = cfg->wrappers.v[i].call;
        const char *last = call ? call + strlen(call) : NULL;
        while (last && last > call && (isalnum((unsigned char)last[-1]) || last[-1] == '_' ||
                                       last[-1] == '$'))
            last--;
        if (!last || !*last || has(text, len, last))
            return true;
    }
    return false;
}
