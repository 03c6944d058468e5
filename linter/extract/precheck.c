/* _GNU_SOURCE (memmem) comes from meson.build */
#include "precheck.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* The text is read once: at each byte, its pair with the next byte (case
 * folded) selects the words that may start there, and only those are
 * compared. Most pairs of a file start no word, so a file that shows none
 * costs one table lookup per byte, not one pass per word. */

static inline unsigned char fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? c | 0x20 : c; }
static inline bool letter(unsigned char c) { return (unsigned char)(fold(c) - 'a') < 26; }
static inline bool lower(unsigned char c) { return (unsigned char)(c - 'a') < 26; }
static inline bool upper(unsigned char c) { return (unsigned char)(c - 'A') < 26; }
static inline bool digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }

enum WordKind {
    W_EXACT,    /* the bytes as written */
    W_FOLDED,   /* written in lower case; case does not count */
    W_KEY_ATTR, /* "pk"/"sk" standing as a word of an identifier */
    W_KEY_FN,   /* "key"/"keys" as a word of a function's name */
};

typedef struct {
    const char *text;
    unsigned char len, kind;
} Word;

#define W(s, k) {s, sizeof s - 1, k}
static const Word words[] = {
    /* The SDKs and the libraries keylint reads, the parameters and
     * expression strings of every data operation, tables in code (CDK,
     * SST, Terraform) and the constants keys are written with. */
    W("ynamo", W_EXACT), W("DYNAMO", W_EXACT), W("ddb", W_EXACT), W("DDB", W_EXACT),
    W("Ddb", W_EXACT), W("TableName", W_EXACT), W("Key:", W_EXACT),
    W("Keys:", W_EXACT), W("Item:", W_EXACT), W("xpression", W_EXACT),
    W("begins_with", W_EXACT), W("ppsync", W_EXACT), W("APPSYNC", W_EXACT),
    W("RequestItems", W_EXACT), W("TransactItems", W_EXACT), W("Table(", W_EXACT),
    W("SEPARATOR", W_EXACT), W("PREFIX", W_EXACT), W("mbc", W_EXACT), W("urbine", W_EXACT),
    /* the SDK v3 commands extraction reads (GetCommand, BatchGetItemCommand,
     * TransactWriteItemsCommand, CreateTableCommand...), not every
     * "Command" (PutObjectCommand, SendEmailCommand) */
    W("GetCommand", W_EXACT), W("PutCommand", W_EXACT), W("UpdateCommand", W_EXACT),
    W("DeleteCommand", W_EXACT), W("QueryCommand", W_EXACT), W("ScanCommand", W_EXACT),
    W("WriteCommand", W_EXACT), W("ItemCommand", W_EXACT), W("ItemsCommand", W_EXACT),
    W("TableCommand", W_EXACT),
    /* mbc-cqrs-serverless services as receivers are named, and the key
     * attributes of table definitions */
    W("dataservice", W_FOLDED), W("commandservice", W_FOLDED), W("historyservice", W_FOLDED),
    W("partition_key", W_FOLDED), W("sort_key", W_FOLDED), W("partitionkey", W_FOLDED),
    W("sortkey", W_FOLDED), W("hashkey", W_FOLDED), W("rangekey", W_FOLDED),
    W("hash_key", W_FOLDED), W("range_key", W_FOLDED),
    /* index names (GSI1PK, gsi1) */
    W("gsi", W_FOLDED), W("lsi", W_FOLDED),
    W("pk", W_KEY_ATTR), W("sk", W_KEY_ATTR), W("key", W_KEY_FN),
    /* data-access libraries keylint does not read, named in the run's
     * notes (what is not read is said): their importers are parsed */
    W("electrodb", W_EXACT), W("typedorm", W_EXACT),
};
#undef W
enum { NWORDS = sizeof words / sizeof *words };

/* The words by the folded pair of bytes they start with: the low five bits
 * of each byte index a 32x32 table (letters get one row each, other bytes
 * share rows with them, and the comparison sorts that out). */
typedef struct {
    uint8_t head[1024]; /* 1 + the first word of a pair's chain, or 0 */
    uint8_t next[NWORDS];
} Pairs;

static inline unsigned pair(const unsigned char *p) { return (p[0] & 31u) << 5 | (p[1] & 31u); }

static void pairs_build(Pairs *t)
{
    memset(t->head, 0, sizeof t->head);
    for (unsigned i = NWORDS; i-- > 0;) {
        unsigned h = pair((const unsigned char *)words[i].text);
        t->next[i] = t->head[h];
        t->head[h] = (uint8_t)(i + 1);
    }
}

/* The words of the key attribute names extraction knows
 * (`^(gsi|lsi)?[0-9]*_?(pk|sk)[0-9]*$`) and of key helpers named for them
 * (`userPk`, `GSI1SK`, `sort_key`): "pk" or "sk" at t[i] standing as a word
 * of an identifier (an upper-case start, or no letter before; no lower-case
 * letter after, or a plural "s" ending the word). */
static bool key_attr_at(const unsigned char *t, size_t len, size_t i)
{
    unsigned char c = t[i], d = t[i + 1];
    if ((c != 'p' && c != 'P' && c != 's' && c != 'S') || (d != 'k' && d != 'K'))
        return false;
    bool before_ok = i == 0 || !letter(t[i - 1]) || upper(c);
    bool after_ok = i + 2 >= len || !lower(t[i + 2]) ||
                    (i + 3 < len && t[i + 2] == 's' && !letter(t[i + 3]));
    return before_ok && after_ok;
}

/* After an identifier ending before t[i]: what makes it a function's name,
 * an opening bracket, or `=`/`:` and then a bracket, a brace, `async`,
 * `function` or `x =>`. `key={id}` is a JSX attribute. */
static bool function_follows(const unsigned char *t, size_t len, size_t i)
{
    size_t j = i;
    while (j < len && (t[j] == ' ' || t[j] == '\t'))
        j++;
    if (j < len && t[j] == '(')
        return true;
    bool jsx = j == i && j + 1 < len && t[j] == '=' && t[j + 1] == '{';
    if (jsx || j >= len || (t[j] != '=' && t[j] != ':') || (j + 1 < len && t[j + 1] == '='))
        return false;
    j++;
    while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r' ||
                       t[j] == '\v' || t[j] == '\f'))
        j++;
    if (j < len && (t[j] == '(' || t[j] == '{' ||
                    (len - j >= 5 && !memcmp(t + j, "async", 5)) ||
                    (len - j >= 8 && !memcmp(t + j, "function", 8))))
        return true;
    while (j < len && text_ident_char((char)t[j]))
        j++;
    while (j < len && t[j] == ' ')
        j++;
    return j + 1 < len && t[j] == '=' && t[j + 1] == '>';
}

/* "key" or "keys" at t[k] as a word of a function's name (`orderKey = (id)
 * =>`, `function buildKeys(`, `Keys = {` of helper objects, a method
 * `key(id) {`): extraction reads what such a function returns as a key.
 * The word starts the name or follows '_', a digit or a lower-to-upper
 * turn, and ends it or a word; the name is not a member
 * (`Object.keys(`). */
static bool key_function_at(const unsigned char *t, size_t len, size_t k)
{
    size_t s = k, i = k + 3;
    while (s > 0 && text_ident_char((char)t[s - 1]))
        s--;
    while (i < len && text_ident_char((char)t[i]))
        i++;
    if (s > 0 && t[s - 1] == '.')
        return false;
    bool start = k == s || t[k - 1] == '_' || digit(t[k - 1]) ||
                 (upper(t[k]) && !upper(t[k - 1]));
    size_t e = k + 3;
    if (e < i && (t[e] == 's' || t[e] == 'S'))
        e++;
    bool end = e == i || !lower(t[e]);
    return start && end && function_follows(t, len, i);
}

static bool word_at(const unsigned char *t, size_t len, size_t i, const Word *w)
{
    if (len - i < w->len)
        return false;
    switch (w->kind) {
    case W_EXACT:
        return !memcmp(t + i, w->text, w->len);
    case W_FOLDED:
        for (size_t j = 0; j < w->len; j++)
            if (fold(t[i + j]) != (unsigned char)w->text[j])
                return false;
        return true;
    case W_KEY_ATTR:
        return key_attr_at(t, len, i);
    default:
        return fold(t[i]) == 'k' && fold(t[i + 1]) == 'e' && fold(t[i + 2]) == 'y' &&
               key_function_at(t, len, i);
    }
}

static bool any_word(const unsigned char *t, size_t len)
{
    Pairs pairs;
    pairs_build(&pairs);
    for (size_t i = 0; i + 1 < len; i++)
        for (unsigned w = pairs.head[pair(t + i)]; w; w = pairs.next[w - 1])
            if (word_at(t, len, i, &words[w - 1]))
                return true;
    return false;
}

static bool has(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    return n && memmem(text, len, word, n) != NULL;
}

/* A CSS colour at p, a '#' (`'#fff'`, `'1px solid #1a2b3c'`): it starts
 * the literal or follows a space, a '(', a ',' or a ':', and 3, 4, 6 or 8
 * hex digits end it. A key's '#' follows its prefix (`USER#abc`). */
static bool css_colour(const char *t, const char *p, const char *end)
{
    char b = p > t ? p[-1] : '\n';
    if (!strchr("'\"` \t(,:", b))
        return false;
    size_t d = 0;
    while (p + 1 + d < end && d < 9 && isxdigit((unsigned char)p[1 + d]))
        d++;
    char a = p + 1 + d < end ? p[1 + d] : '\n';
    return (d == 3 || d == 4 || d == 6 || d == 8) && !text_ident_char(a) && a != '#' &&
           a != '-';
}

/* The separator inside a string literal (a quote before it and after it on
 * its line): keys and key helpers carry it (`ORDER#${id}`). A '#' that is
 * a CSS colour is none. */
static bool sep_in_literal(const char *t, size_t len, const char *sep)
{
    size_t n = sep ? strlen(sep) : 0;
    if (!n)
        return false;
    for (const char *p = t, *end = t + len; (p = memmem(p, (size_t)(end - p), sep, n));
         p += n) {
        if (n == 1 && *sep == '#' && css_colour(t, p, end))
            continue;
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

static bool any_listed(const char *text, size_t len, const StrList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (has(text, len, l->v[i]))
            return true;
    return false;
}

bool extract_may_find(const char *text, size_t len, const Config *cfg)
{
    if (!text)
        return false;
    if (any_word((const unsigned char *)text, len) ||
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
        while (last && last > call && text_ident_char(last[-1]))
            last--;
        if (!last || !*last || has(text, len, last))
            return true;
    }
    return false;
}
