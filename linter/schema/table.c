/* The table model's own operations, whatever source a table came from
 * (schema.c's templates, terraform.c, tables defined in code): the checks
 * DynamoDB's CreateTable makes of every table, and the readers of the
 * model (schema.h). Below schema.c and terraform.c, which both call it. */
#include <stdarg.h>
#include <stdbool.h>
#include <ctype.h>
#include <string.h>

#include "schema.h"

enum {
    MAX_LOCAL_INDEXES = 5,
    MAX_GLOBAL_INDEXES = 20, /* the default quota */
};

void schema_issue(Arena *a, TableSet *out, const char *path, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    SchemaIssue is = {.path = path, .span = span, .message = arena_vprintf(a, fmt, ap)};
    va_end(ap);
    VEC_PUSH(a, &out->issues, is);
}

bool schema_valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || n > 255)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_-.", s[i]))
            return false;
    return true;
}

/* Whether the source defines the table itself (not a client library's
 * description of a table defined elsewhere). */
static bool defines_table(TableSource s)
{
    return s != TSRC_TURBINE && s != TSRC_TOOLBOX && s != TSRC_DDB_LIB;
}

/* Two attributes of one key schema with the same name (`keys`: its HASH
 * attributes, then its RANGE attributes). */
static void check_key_names(Arena *a, TableSet *out, const char *path, const char *what,
                            const KeyAttr *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (keys[i]->name && keys[j]->name && !strcmp(keys[i]->name, keys[j]->name)) {
                if (n == 2)
                    schema_issue(a, out, path, keys[i]->span,
                                 "%s has '%s' as both its HASH and its RANGE key: DynamoDB "
                                 "wants two different attributes",
                                 what, keys[i]->name);
                else
                    schema_issue(a, out, path, keys[i]->span,
                                 "%s names '%s' twice in its key schema: each attribute of a "
                                 "multi-attribute key is another attribute",
                                 what, keys[i]->name);
                return;
            }
}

void schema_check_table(Arena *a, const TableDef *t, TableSet *out)
{
    const KeyAttr *tk[2] = {&t->pk, &t->sk};
    check_key_names(a, out, t->path, arena_printf(a, "table %s", t->id), tk, 2);
    size_t nlocal = 0, nglobal = 0;
    bool lsi_reported = false;
    for (size_t i = 0; i < t->indexes.n; i++) {
        const TableIndex *ix = &t->indexes.v[i];
        const char *kname = ix->kind == INDEX_LOCAL ? "local" : "global";
        for (size_t j = 0; j < i; j++)
            if (!strcmp(t->indexes.v[j].name, ix->name)) {
                schema_issue(a, out, t->path, ix->span,
                             "table %s has two indexes named '%s' (the first on line %u)",
                             t->id, ix->name, t->indexes.v[j].span.start_row + 1);
                break;
            }
        if (ix->kind == INDEX_LOCAL && ix->pk.name && t->pk.name && !t->pk.unknown &&
            strcmp(ix->pk.name, t->pk.name))
            schema_issue(a, out, t->path, ix->pk.span,
                         "local secondary index %s of table %s has partition key '%s', but a "
                         "local index shares the table's partition key '%s'",
                         ix->name, t->id, ix->pk.name, t->pk.name);
        const KeyAttr *keys[2 * MAX_KEY_ATTRS];
        size_t nk = 0;
        for (int sort = 0; sort < 2; sort++)
            for (size_t k = 0; index_key_attr(ix, sort, k); k++)
                keys[nk++] = index_key_attr(ix, sort, k);
        check_key_names(a, out, t->path,
                        arena_printf(a, "%s secondary index %s of table %s", kname, ix->name,
                                     t->id),
                        keys, nk);
        if (!defines_table(t->source))
            continue;
        if (ix->kind == INDEX_LOCAL && !lsi_reported && t->pk.name && !t->sk.name &&
            !t->sk.unknown) {
            lsi_reported = true;
            schema_issue(a, out, t->path, ix->span,
                         "table %s has no sort (RANGE) key, which a local secondary index "
                         "(%s) needs: a local index sorts the table's partitions another way",
                         t->id, ix->name);
        }
        bool placeholder = t->source == TSRC_TERRAFORM && !strcmp(ix->name, "?");
        if (!placeholder && !strstr(ix->name, "${") && !schema_valid_name(ix->name))
            schema_issue(a, out, t->path, ix->span,
                         "index name '%s' of table %s must be 3 to 255 characters of a-z, "
                         "A-Z, 0-9, '_', '-' and '.'",
                         ix->name, t->id);
        size_t *count = ix->kind == INDEX_LOCAL ? &nlocal : &nglobal;
        size_t max = ix->kind == INDEX_LOCAL ? MAX_LOCAL_INDEXES : MAX_GLOBAL_INDEXES;
        if (++*count == max + 1)
            schema_issue(a, out, t->path, ix->span,
                         "table %s has more than %zu %s secondary indexes (%s is one too "
                         "many): DynamoDB allows at most %zu per table%s",
                         t->id, max, kname, ix->name, max,
                         ix->kind == INDEX_GLOBAL ? " (the default quota, which AWS can raise)"
                                                  : "");
    }
}

/* ---- Reading the model ------------------------------------------------- */

const KeyAttr *index_key_attr(const TableIndex *ix, bool sort, size_t i)
{
    const KeyAttr *k = i == 0            ? (sort ? &ix->sk : &ix->pk)
                     : i < MAX_KEY_ATTRS ? (sort ? &ix->sk_more[i - 1] : &ix->pk_more[i - 1])
                                         : NULL;
    return k && (k->name || k->unknown) ? k : NULL;
}

const TableIndex *table_find_index(const TableDef *t, const char *name)
{
    if (!t || !name)
        return NULL;
    for (size_t i = 0; i < t->indexes.n; i++)
        if (!strcmp(t->indexes.v[i].name, name))
            return &t->indexes.v[i];
    return NULL;
}

const char *table_label(Arena *a, const TableDef *t)
{
    /* a deploy-time part is shown as written only where it is kept
     * (a Terraform module's input: `gatherly-${var.environment}`) */
    if (t->name && strcmp(t->name, t->id) &&
        (!strstr(t->name, "${") || (t->source == TSRC_TERRAFORM && !strstr(t->name, "${}"))))
        return arena_printf(a, "%s (%s)", t->id, t->name);
    return t->id;
}

/* Literal text before the first "${" (or all of it) of a name. */
static size_t lit_prefix(const char *s)
{
    const char *p = strstr(s, "${");
    return p ? (size_t)(p - s) : strlen(s);
}

/* Literal text after the last "}" that closes a "${...}". */
static const char *lit_suffix(const char *s)
{
    const char *last = NULL;
    for (const char *p = strstr(s, "${"); p; p = strstr(p + 2, "${")) {
        const char *c = strchr(p, '}');
        if (!c)
            break;
        last = c + 1;
    }
    return last ? last : s;
}

/* Does name `s` (no deploy-time part) hold the literal text between the
 * `${...}` parts of `pat` in order, `${...}` standing for any text?
 * `${stage}-payment-events-${brand}` holds `prod-payment-events-eu`, not
 * `billing-table` (the ends alone, both empty, would say yes). */
static bool holds_middle(const char *s, const char *pat)
{
    const char *at = s;
    for (const char *p = strstr(pat, "${"); p; p = strstr(p, "${")) {
        const char *c = strchr(p, '}');
        if (!c)
            return true;
        const char *next = strstr(c + 1, "${");
        if (!next)
            break; /* the last piece is the suffix, judged by the caller */
        size_t n = (size_t)(next - (c + 1));
        if (n) {
            char piece[256];
            if (n >= sizeof piece)
                return true;
            memcpy(piece, c + 1, n);
            piece[n] = '\0';
            const char *hit = strstr(at, piece);
            if (!hit)
                return false;
            at = hit + n;
        }
        p = next;
    }
    return true;
}

bool table_names_match(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    bool wa = strstr(a, "${") != NULL, wb = strstr(b, "${") != NULL;
    if (!wa && !wb)
        return !strcmp(a, b);
    /* with deploy-time parts, judge the literal ends: they must agree */
    size_t pa = lit_prefix(a), pb = lit_prefix(b);
    size_t pm = pa < pb ? pa : pb;
    if (strncmp(a, b, pm))
        return false;
    const char *sa = wa ? lit_suffix(a) : a, *sb = wb ? lit_suffix(b) : b;
    size_t la = strlen(sa), lb = strlen(sb);
    size_t m = la < lb ? la : lb;
    if (strcmp(sa + la - m, sb + lb - m))
        return false;
    /* both with deploy-time parts: a part stands for a stage or a stack,
     * not for words of the name (`BayonCoAgent-${env}` is not
     * `BayonCoAgent-RealtimeConnections-${env}`): literal ends both
     * written must be the same */
    if (wa && wb && ((pa && pb && pa != pb) || (la && lb && la != lb)))
        return false;
    /* ... and the text between one's parts is written in the other
     * (`${stage}-payment-events-${brand}` is not `app-connections-${x}`) */
    if (wa && wb && (!holds_middle(a, b) || !holds_middle(b, a)))
        return false;
    /* a wildcard-free name must be long enough to hold both literal ends */
    if (!wa && pb + (wb ? strlen(lit_suffix(b)) : 0) > strlen(a))
        return false;
    if (!wb && pa + (wa ? strlen(lit_suffix(a)) : 0) > strlen(b))
        return false;
    if (!wa && !holds_middle(a + pb, b))
        return false;
    if (!wb && !holds_middle(b + pa, a))
        return false;
    return true;
}
