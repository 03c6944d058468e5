/* The role a name gives a key attribute under a configuration: the
 * configured key names first, then the spellings every DynamoDB codebase
 * uses (pk, SK, GSI1PK, lsi1sk, pk2, partition_key). Extraction names the
 * attributes it reads with it, resolution the fields of helpers, and rules
 * the attributes of key conditions. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "config.h"

static bool match_key_name(const char *name, const char *kind)
{
    /* ^(gsi|lsi)?[0-9]*_?(pk|sk)[0-9]*$, case-insensitive; kind "pk"/"sk" */
    const char *p = name;
    bool index = false;
    if (!strncasecmp(p, "gsi", 3) || !strncasecmp(p, "lsi", 3)) {
        index = true;
        p += 3;
    }
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '_')
        p++;
    if (strncasecmp(p, kind, 2))
        return false;
    p += 2;
    bool digits = false;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits = true;
    }
    if (*p)
        return false;
    (void)index;
    (void)digits;
    return true;
}

/* `<word>_?key_?id`, case-insensitive: PartitionKeyID, sort_key_id */
static bool spelled_key_id(const char *name, const char *word)
{
    size_t wl = strlen(word);
    if (strncasecmp(name, word, wl))
        return false;
    const char *p = name + wl;
    if (*p == '_')
        p++;
    if (strncasecmp(p, "key", 3))
        return false;
    p += 3;
    if (*p == '_')
        p++;
    return !strcasecmp(p, "id");
}

int key_role_for_name(const Config *cfg, const char *name)
{
    if (!name || !*name)
        return -1;
    if (cfg) {
        if (strlist_has(&cfg->key_pk, name))
            return ROLE_PK;
        if (strlist_has(&cfg->key_sk, name))
            return ROLE_SK;
        if (strlist_has(&cfg->key_index_pk, name))
            return ROLE_INDEX_PK;
        if (strlist_has(&cfg->key_index_sk, name))
            return ROLE_INDEX_SK;
    }
    /* spelled out: partition_key, sort_key, and with the id the key is of
     * (PartitionKeyID, SortKeyId, partition_key_id). The bare camel-case
     * `partitionKey` / `sortKey` are not: UI code sorts tables by a
     * `sortKey`, CDK names the key definition `partitionKey`. */
    if (!strcasecmp(name, "partition_key") || spelled_key_id(name, "partition"))
        return ROLE_PK;
    if (!strcasecmp(name, "sort_key") || spelled_key_id(name, "sort"))
        return ROLE_SK;
    bool pk = match_key_name(name, "pk"), sk = match_key_name(name, "sk");
    if (!pk && !sk)
        return -1;
    bool index = !strncasecmp(name, "gsi", 3) || !strncasecmp(name, "lsi", 3);
    /* pk1, PK2, GSI1PK: an index key; plain pk/PK/sk/SK: the table's. */
    size_t l = strlen(name);
    if (!index && l > 2)
        index = true;
    if (pk)
        return index ? ROLE_INDEX_PK : ROLE_PK;
    return index ? ROLE_INDEX_SK : ROLE_SK;
}

bool key_name_is_sk_prefix(const char *name)
{
    static const char *const stems[] = {"sortKey", "rangeKey", "sk", NULL};
    static const char *const tails[] = {"BeginsWith", "Prefix", "StartsWith", "_begins_with",
                                        "_prefix", NULL};
    if (!name)
        return false;
    for (const char *const *s = stems; *s; s++) {
        size_t n = strlen(*s);
        if (strncasecmp(name, *s, n))
            continue;
        for (const char *const *t = tails; *t; t++)
            if (!strcasecmp(name + n, *t) && (name[n] == '_' || isupper((unsigned char)name[n])))
                return true;
    }
    return false;
}

int key_role_for_const_name(const Config *cfg, const char *cname)
{
    if (!cname)
        return -1;
    const char *dot = strrchr(cname, '.');
    const char *base = dot ? dot + 1 : cname;
    static const char *const suffixes[] = {"_NAME", "_ATTR", "_ATTRIBUTE", "Name", "Attr",
                                           "Attribute", NULL};
    for (const char *const *sfx = suffixes; *sfx; sfx++) {
        size_t bl = strlen(base), sl = strlen(*sfx);
        if (bl > sl && !strcmp(base + bl - sl, *sfx)) {
            char stem[64];
            if (bl - sl >= sizeof stem)
                return -1;
            memcpy(stem, base, bl - sl);
            stem[bl - sl] = '\0';
            return key_role_for_name(cfg, stem);
        }
    }
    return -1;
}
