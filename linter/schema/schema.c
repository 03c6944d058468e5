/* Schema files to the table model: CloudFormation and SAM templates and
 * serverless.yml, in YAML or JSON, read with libyaml's document API into
 * DocNode trees (positions kept), then read for tables, indexes and the
 * environment variables that name tables. See schema.h and docs/schemas.md.
 *
 * No recursion follows the input's nesting: the YAML document is converted
 * with an explicit work list (aliases become shared nodes, so neither
 * "billion laughs" nor a self-referencing alias can blow up), and the
 * readers only ever look a fixed number of levels deep. The few helpers
 * that follow intrinsic functions or file includes carry a depth bound. */
#include "schema.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "walk.h"

enum {
    MAX_NAME_DEPTH = 8,    /* !Join inside !Sub inside ... */
    MAX_INCLUDE_DEPTH = 4, /* serverless ${file(...)} inside included files */
    MAX_VAR_DEPTH = 6,     /* ${self:a} -> ${self:b} -> ... */
    /* bytes ${self:...} expansion may write for one schema, includes
     * included (`a: ${self:b}${self:b}`, `b: ${self:c}${self:c}`, ...
     * doubles at each level): this much, and EXPANSION_PER_BYTE more for
     * each byte of the files read */
    MAX_EXPANSION = 1 << 20,
    EXPANSION_PER_BYTE = 16,
    MIN_INDEXED_MAP = 16, /* mappings this large get an index of their keys */
};

/* ---- Document trees ------------------------------------------------------ */

/* doc_get by the index: the first entry named `key`, or with `ci` also
 * named `key` with its first letter in the other case. */
static const DocNode *doc_get_indexed(const DocNode *map, const char *key, bool ci)
{
    size_t best = SIZE_MAX, i;
    if (namemap_get(map->index, key, &i))
        best = i;
    char c = key[0], other = (char)(islower((unsigned char)c) ? toupper((unsigned char)c)
                                                               : tolower((unsigned char)c));
    if (ci && c && other != c) {
        char *alt = strdup(key);
        if (!alt)
            abort();
        alt[0] = other;
        if (namemap_get(map->index, alt, &i) && i < best)
            best = i;
        free(alt);
    }
    return best == SIZE_MAX ? NULL : map->vals[best];
}

const DocNode *doc_get(const DocNode *map, const char *key, bool ci)
{
    if (!map || map->kind != DOC_MAP)
        return NULL;
    if (map->index)
        return doc_get_indexed(map, key, ci);
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i] ? map->keys[i]->text : NULL;
        if (!k)
            continue;
        if (!strcmp(k, key))
            return map->vals[i];
        if (ci && k[0] && tolower((unsigned char)k[0]) == tolower((unsigned char)key[0]) &&
            !strcmp(k + 1, key + 1))
            return map->vals[i];
    }
    return NULL;
}

const char *doc_scalar(const DocNode *n)
{
    return n && n->kind == DOC_SCALAR && !n->tag ? n->text : NULL;
}

/* An intrinsic function: `!Ref x` (the node carries the tag) or
 * `{ "Ref": x }` / `{ "Fn::Sub": x }` (a mapping with that one key).
 * Returns its argument and sets *fn, or NULL. */
static const DocNode *doc_fn(const DocNode *n, const char **fn)
{
    if (!n)
        return NULL;
    if (n->tag) {
        *fn = n->tag;
        return n;
    }
    if (n->kind == DOC_MAP && n->n == 1 && n->keys[0] && n->keys[0]->text) {
        const char *k = n->keys[0]->text;
        if (!strcmp(k, "Ref") || !strcmp(k, "Condition") || !strncmp(k, "Fn::", 4)) {
            *fn = k;
            return n->vals[0];
        }
    }
    return NULL;
}

/* A tagged node's own value: the node without its tag. */
static const char *doc_text(const DocNode *n)
{
    return n && n->kind == DOC_SCALAR ? n->text : NULL;
}

/* ---- Issues ------------------------------------------------------------ */

void schema_issue(Arena *a, TableSet *out, const char *path, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    SchemaIssue is = {.path = path, .span = span, .message = arena_vprintf(a, fmt, ap)};
    va_end(ap);
    VEC_PUSH(a, &out->issues, is);
}

/* ---- Reading the CloudFormation table shape ------------------------------- */

/* What a template offers for names: its Parameters (for `!Ref P`) and the
 * document root (for serverless `${self:...}`). */
typedef struct NameCtx {
    const DocNode *params; /* Parameters mapping, or NULL */
    const DocNode *root;   /* document root, or NULL */
} NameCtx;

/* What the files of one schema_load_file share, included files too. */
typedef struct Load {
    Problems *problems;
    StrList reading;       /* real paths of the files being read, outermost first */
    NameMap read;          /* real paths of every file read */
    size_t expansion_left; /* bytes ${self:...} expansion may still write */
    bool expansion_told;   /* a problem with expansion was reported */
} Load;

typedef struct Reader {
    Arena *a;
    TableSet *out;
    const char *path;
    const NameCtx *ctx;
    /* Steps name_text may still take: aliases can make a document's
     * !Join trees exponentially large; a name past the budget is unknown. */
    size_t *budget;
    Load *load; /* NULL: no ${self:...} expansion (a CfnTable in code) */
} Reader;

static const char *resolve_vars(Reader *R, const char *s, Span at);

/* The value a document path ("custom.tableName") leads to from the root. */
static const DocNode *doc_path(const DocNode *root, const char *path)
{
    const DocNode *n = root;
    char key[256];
    while (n && *path) {
        size_t l = strcspn(path, ".");
        if (l >= sizeof key)
            return NULL;
        memcpy(key, path, l);
        key[l] = '\0';
        n = doc_get(n, key, false);
        path += l;
        if (*path == '.')
            path++;
    }
    return n;
}

/* ${self:...} expansion (resolve_vars): how deep it is, where for the
 * problem it reports, and whether it ran out of budget. */
typedef struct Expand {
    Reader *R;
    Span at;
    bool over;
} Expand;

/* One problem per schema, the first time expansion stops: a note (the
 * schema is read, not all of its variables), which never changes the
 * exit code. */
static void expansion_problem(Expand *E, bool depth)
{
    Load *L = E->R->load;
    if (L->expansion_told)
        return;
    L->expansion_told = true;
    uint32_t line = E->at.start_row + 1, col = E->at.start_col + 1;
    if (depth)
        problems_add_kind(L->problems, PROBLEM_NOTE, E->R->path, line, col,
                          "serverless variables nest deeper than %d ${self:...} levels here "
                          "(one that refers to itself?); the rest is read as written",
                          MAX_VAR_DEPTH);
    else
        problems_add_kind(L->problems, PROBLEM_NOTE, E->R->path, line, col,
                          "serverless variables here expand past the budget (%d bytes, and "
                          "%d more per byte of the schema); this value is read as written, "
                          "and so is any later one",
                          MAX_EXPANSION, EXPANSION_PER_BYTE);
}

/* Take n bytes of the budget (false: over it). */
static bool charge(Expand *E, size_t n)
{
    Load *L = E->R->load;
    if (E->over || n > L->expansion_left) {
        E->over = true;
        L->expansion_left = 0;
        return false;
    }
    L->expansion_left -= n;
    return true;
}

/* Copy s[0..n) to the expansion, within the budget. */
static bool expand_put(Expand *E, StrBuf *out, const char *s, size_t n)
{
    if (!charge(E, n))
        return false;
    sb_appendn(out, s, n);
    return true;
}

/* `s` with its ${self:...} variables expanded into `out`; false when the
 * budget ran out. */
static bool expand_vars(Expand *E, const char *s, int depth, StrBuf *out)
{
    const DocNode *root = E->R->ctx->root;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        const char *open = strstr(s + i, "${");
        size_t lit = open ? (size_t)(open - (s + i)) : n - i;
        if (!expand_put(E, out, s + i, lit))
            return false;
        i += lit;
        if (i >= n)
            break;
        /* the matching brace, nesting counted */
        size_t j = i + 2;
        int nest = 1;
        for (; j < n && nest; j++) {
            if (s[j] == '{')
                nest++;
            else if (s[j] == '}')
                nest--;
        }
        if (nest) /* unterminated: copy the rest */
            j = n;
        size_t inner_len = j - i - 3;
        const char *v = NULL;
        if (!nest && inner_len > 5 && !strncmp(s + i + 2, "self:", 5) &&
            !memchr(s + i + 2, ',', inner_len)) {
            char *path = arena_strndup(E->R->a, s + i + 7, inner_len - 5);
            v = doc_scalar(doc_path(root, path));
        }
        if (v && depth > MAX_VAR_DEPTH) {
            expansion_problem(E, true);
            v = NULL;
        }
        /* a variable costs its own length too, even if its value is "" */
        if (v ? !charge(E, j - i) || !expand_vars(E, v, depth + 1, out)
              : !expand_put(E, out, s + i, j - i))
            return false;
        i = j;
    }
    return true;
}

/* Serverless variables in a string (a value at `at`): `${self:custom.x}`
 * is replaced by what it names in this file when that is a string;
 * anything else (`${opt:..}`, `${sls:stage}`, `${env:X}`,
 * CloudFormation's `${AWS::StackName}`) stays as written and matches any
 * text (table_names_match). Expansion has a budget (MAX_EXPANSION bytes
 * per schema, MAX_VAR_DEPTH levels): past it, a problem says where, and
 * the value is read as written. */
static const char *resolve_vars(Reader *R, const char *s, Span at)
{
    if (!s || !strstr(s, "${self:") || !R->ctx || !R->ctx->root || !R->load)
        return s;
    Expand E = {.R = R, .at = at};
    StrBuf out;
    sb_init(&out, R->a);
    if (expand_vars(&E, s, 0, &out))
        return sb_str(&out);
    expansion_problem(&E, false);
    return s;
}

/* A name as far as it can be known: literal text with "${...}" for what
 * only deployment knows; NULL when nothing of it is known. */
static const char *name_text(Reader *R, const DocNode *n, int depth)
{
    if (!n || depth > MAX_NAME_DEPTH || (R->budget && !*R->budget))
        return NULL;
    if (R->budget)
        (*R->budget)--;
    const char *fn = NULL;
    const DocNode *arg = doc_fn(n, &fn);
    if (!arg)
        return n->kind == DOC_SCALAR ? resolve_vars(R, n->text, n->span) : NULL;
    if (!strcmp(fn, "Ref")) {
        const char *p = doc_text(arg);
        if (!p)
            return NULL;
        const char *def = R->ctx ? doc_scalar(doc_get(doc_get(R->ctx->params, p, false),
                                                      "Default", false))
                                 : NULL;
        return def ? def : arena_printf(R->a, "${%s}", p);
    }
    if (!strcmp(fn, "Fn::Sub")) {
        if (arg->kind == DOC_SEQ && arg->n > 0)
            return doc_text(arg->vals[0]);
        return doc_text(arg);
    }
    if (!strcmp(fn, "Fn::Join") && arg->kind == DOC_SEQ && arg->n == 2 &&
        arg->vals[1]->kind == DOC_SEQ) {
        const char *sep = doc_text(arg->vals[0]);
        const DocNode *parts = arg->vals[1];
        StrBuf acc;
        sb_init(&acc, R->a);
        for (size_t i = 0; i < parts->n; i++) {
            const char *p = name_text(R, parts->vals[i], depth + 1);
            if (R->budget && !*R->budget)
                return NULL; /* past the budget: the name is not known */
            if (i)
                sb_append(&acc, sep);
            sb_append(&acc, p ? p : "${}");
        }
        return sb_str(&acc);
    }
    return NULL;
}

static AttrType attr_type_of(const char *s)
{
    if (!s)
        return ATTR_UNKNOWN;
    if (!strcmp(s, "S"))
        return ATTR_S;
    if (!strcmp(s, "N"))
        return ATTR_N;
    if (!strcmp(s, "B"))
        return ATTR_B;
    return ATTR_UNKNOWN;
}

typedef struct AttrDef {
    const char *name;
    AttrType type;
    Span span;
    bool used;
} AttrDef;

typedef VEC(AttrDef) AttrDefs;

/* AttributeDefinitions; false when they cannot be read as a list. */
static bool read_attr_defs(Reader *R, const DocNode *n, const char *table, AttrDefs *out)
{
    if (!n || n->kind != DOC_SEQ || n->partial)
        return false; /* partial: code adds definitions (a spread, a push) */
    for (size_t i = 0; i < n->n; i++) {
        const DocNode *e = n->vals[i];
        if (e->kind != DOC_MAP)
            return false;
        const DocNode *an = doc_get(e, "AttributeName", true);
        const DocNode *at = doc_get(e, "AttributeType", true);
        const char *name = doc_scalar(an);
        if (!name) {
            if (an && an->kind == DOC_OPAQUE)
                return false;
            schema_issue(R->a, R->out, R->path, e->span,
                         "an AttributeDefinitions entry of table %s has no AttributeName", table);
            continue;
        }
        AttrDef d = {.name = name, .span = an->span};
        const char *ts = doc_scalar(at);
        if (!at || (at->kind != DOC_OPAQUE && !at->tag)) {
            d.type = attr_type_of(ts);
            if (d.type == ATTR_UNKNOWN)
                schema_issue(R->a, R->out, R->path, at ? at->span : e->span,
                             "AttributeType of '%s' in table %s must be S, N or B (got %s)",
                             name, table, ts ? arena_printf(R->a, "'%s'", ts) : "nothing");
        }
        bool dup = false;
        for (size_t j = 0; j < out->n && !dup; j++)
            if (!strcmp(out->v[j].name, name)) {
                schema_issue(R->a, R->out, R->path, an->span,
                             "attribute '%s' is defined twice in the AttributeDefinitions of "
                             "table %s (first on line %u)",
                             name, table, out->v[j].span.start_row + 1);
                dup = true;
            }
        if (!dup)
            VEC_PUSH(R->a, out, d);
    }
    return true;
}

/* A KeySchema: [{ AttributeName, KeyType: HASH|RANGE }, ...]. `what`
 * names the table or index in messages; `at` is where to report a
 * missing partition key. Returns false when it cannot be read. */
static bool read_key_schema(Reader *R, const DocNode *ks, const char *what, Span at,
                            KeyAttr *hash, KeyAttr *range)
{
    memset(hash, 0, sizeof *hash);
    memset(range, 0, sizeof *range);
    if (!ks || ks->kind == DOC_NULL) {
        schema_issue(R->a, R->out, R->path, at, "%s has no KeySchema", what);
        return true;
    }
    if (ks->kind != DOC_SEQ) {
        if (ks->kind == DOC_OPAQUE || ks->tag || (ks->kind == DOC_MAP && ks->n == 1)) {
            hash->unknown = range->unknown = true; /* an intrinsic: not known */
            return false;
        }
        schema_issue(R->a, R->out, R->path, ks->span, "KeySchema of %s must be a list", what);
        return true;
    }
    if (ks->partial) { /* code adds entries (a spread, a push): not known */
        hash->unknown = range->unknown = true;
        return false;
    }
    bool bad_type = false, range_first = false;
    const DocNode *first_type = NULL;
    for (size_t i = 0; i < ks->n; i++) {
        const DocNode *e = ks->vals[i];
        if (e->kind != DOC_MAP) {
            if (e->kind == DOC_OPAQUE) {
                hash->unknown = range->unknown = true;
                return false;
            }
            schema_issue(R->a, R->out, R->path, e->span,
                         "KeySchema of %s must list mappings with AttributeName and KeyType",
                         what);
            continue;
        }
        const DocNode *an = doc_get(e, "AttributeName", true);
        const DocNode *kt = doc_get(e, "KeyType", true);
        const char *name = doc_scalar(an), *type = doc_scalar(kt);
        if ((an && (an->kind == DOC_OPAQUE || an->tag)) ||
            (kt && (kt->kind == DOC_OPAQUE || kt->tag))) {
            hash->unknown = range->unknown = true;
            return false;
        }
        if (!name) {
            schema_issue(R->a, R->out, R->path, e->span,
                         "a KeySchema entry of %s has no AttributeName", what);
            continue;
        }
        KeyAttr k = {.name = name, .span = an->span};
        bool is_hash = type && !strcmp(type, "HASH");
        bool is_range = type && !strcmp(type, "RANGE");
        if (!is_hash && !is_range) {
            schema_issue(R->a, R->out, R->path, kt ? kt->span : e->span,
                         "KeyType of '%s' in %s must be HASH or RANGE (got %s)", name, what,
                         type ? arena_printf(R->a, "'%s'", type) : "nothing");
            bad_type = true;
            continue;
        }
        if (i == 0 && is_range) {
            range_first = true;
            first_type = kt;
        }
        KeyAttr *slot = is_hash ? hash : range;
        if (slot->name) {
            schema_issue(R->a, R->out, R->path, kt->span,
                         "%s has two %s keys ('%s' and '%s'); a key schema has one partition "
                         "(HASH) key and at most one sort (RANGE) key",
                         what, is_hash ? "HASH" : "RANGE", slot->name, name);
            continue;
        }
        *slot = k;
    }
    if (!hash->name && !bad_type)
        schema_issue(R->a, R->out, R->path, at,
                     "%s has no HASH (partition) key in its KeySchema", what);
    else if (hash->name && range_first)
        schema_issue(R->a, R->out, R->path, first_type->span,
                     "the first KeySchema entry of %s is the RANGE key '%s': DynamoDB "
                     "wants the HASH (partition) key first",
                     what, range->name);
    return true;
}

/* Give key attributes their types from the definitions; report names
 * missing from them. */
static void type_key(Reader *R, KeyAttr *k, AttrDefs *defs, bool defs_known, const char *what)
{
    if (!k->name || k->unknown)
        return;
    for (size_t i = 0; i < defs->n; i++)
        if (!strcmp(defs->v[i].name, k->name)) {
            k->type = defs->v[i].type;
            defs->v[i].used = true;
            return;
        }
    if (defs_known)
        schema_issue(R->a, R->out, R->path, k->span,
                     "key attribute '%s' of %s is not in the table's AttributeDefinitions",
                     k->name, what);
}

static void read_projection(Reader *R, const DocNode *p, TableIndex *ix, const char *what,
                            bool required)
{
    if (!p || p->kind == DOC_NULL) {
        if (required)
            schema_issue(R->a, R->out, R->path, ix->span,
                         "%s has no Projection (ProjectionType ALL, KEYS_ONLY or INCLUDE is "
                         "required)",
                         what);
        return;
    }
    if (p->kind != DOC_MAP || p->tag)
        return;
    const DocNode *pt = doc_get(p, "ProjectionType", true);
    const char *type = doc_scalar(pt);
    const DocNode *nk = doc_get(p, "NonKeyAttributes", true);
    if (pt && !type)
        return; /* an intrinsic or a variable */
    if (!type)
        type = "KEYS_ONLY"; /* DynamoDB's default when only attributes are given */
    if (strcmp(type, "ALL") && strcmp(type, "KEYS_ONLY") && strcmp(type, "INCLUDE")) {
        schema_issue(R->a, R->out, R->path, pt->span,
                     "ProjectionType of %s must be ALL, KEYS_ONLY or INCLUDE (got '%s')", what,
                     type);
        return;
    }
    ix->projection = type;
    if (nk && nk->kind == DOC_SEQ)
        for (size_t i = 0; i < nk->n; i++)
            if (doc_scalar(nk->vals[i]))
                strlist_push(R->a, &ix->projected, doc_scalar(nk->vals[i]));
    if (!strcmp(type, "INCLUDE") && (!nk || (nk->kind == DOC_SEQ && nk->n == 0)))
        schema_issue(R->a, R->out, R->path, pt->span,
                     "%s projects INCLUDE but lists no NonKeyAttributes", what);
    if (strcmp(type, "INCLUDE") && nk && nk->kind == DOC_SEQ && nk->n)
        schema_issue(R->a, R->out, R->path, nk->span,
                     "%s lists NonKeyAttributes, which only ProjectionType INCLUDE takes", what);
}

static void read_indexes(Reader *R, const DocNode *list, IndexKind kind, TableDef *t,
                         AttrDefs *defs, bool defs_known, const char *tlabel)
{
    if (!list || list->kind == DOC_NULL)
        return;
    if (list->kind != DOC_SEQ || list->tag || list->partial) {
        t->indexes_open = true; /* !If, a variable, a spread */
        if (list->kind != DOC_SEQ)
            return; /* a list with a spread: still read what is there */
    }
    const char *kname = kind == INDEX_GLOBAL ? "global" : "local";
    for (size_t i = 0; i < list->n; i++) {
        const DocNode *e = list->vals[i];
        if (e->kind != DOC_MAP || e->tag || e->partial) {
            t->indexes_open = true;
            if (e->kind != DOC_MAP)
                continue;
        }
        TableIndex ix = {.kind = kind, .span = e->span};
        const DocNode *in = doc_get(e, "IndexName", true);
        ix.name = doc_scalar(in);
        if (!ix.name) {
            if (in && (in->kind == DOC_OPAQUE || in->tag)) {
                t->indexes_open = true;
                continue;
            }
            schema_issue(R->a, R->out, R->path, e->span,
                         "a %s secondary index of %s has no IndexName", kname, tlabel);
            continue;
        }
        ix.span = in->span;
        const char *what = arena_printf(R->a, "%s secondary index %s of %s", kname, ix.name,
                                        tlabel);
        read_key_schema(R, doc_get(e, "KeySchema", true), what, in->span, &ix.pk, &ix.sk);
        type_key(R, &ix.pk, defs, defs_known, what);
        type_key(R, &ix.sk, defs, defs_known, what);
        if (kind == INDEX_LOCAL && !ix.sk.name && !ix.sk.unknown && ix.pk.name)
            schema_issue(R->a, R->out, R->path, in->span,
                         "%s has no RANGE (sort) key: a local index exists to sort the "
                         "table's partitions another way",
                         what);
        read_projection(R, doc_get(e, "Projection", true), &ix, what, true);
        VEC_PUSH(R->a, &t->indexes, ix);
    }
}

static void read_cfn_table(Reader *R, const DocNode *props, TableDef *t)
{
    const char *label = arena_printf(R->a, "table %s", t->id);
    if (!props || props->kind != DOC_MAP) {
        schema_issue(R->a, R->out, R->path, t->span, "%s has no Properties", label);
        t->pk.unknown = t->sk.unknown = true;
        t->indexes_open = true;
        return;
    }
    const DocNode *tn = doc_get(props, "TableName", true);
    if (tn && !t->name)
        t->name = name_text(R, tn, 0);
    AttrDefs defs = {0};
    const DocNode *ad = doc_get(props, "AttributeDefinitions", true);
    bool defs_known = read_attr_defs(R, ad, t->id, &defs);
    if (!ad && !props->partial) {
        schema_issue(R->a, R->out, R->path, t->span, "%s has no AttributeDefinitions", label);
        defs_known = false;
    }
    if (props->partial && !ad)
        defs_known = false;
    const DocNode *ks = doc_get(props, "KeySchema", true);
    if (!ks && props->partial)
        t->pk.unknown = t->sk.unknown = true;
    else
        read_key_schema(R, ks, label, t->span, &t->pk, &t->sk);
    type_key(R, &t->pk, &defs, defs_known, label);
    type_key(R, &t->sk, &defs, defs_known, label);
    if (props->partial)
        t->indexes_open = true;
    read_indexes(R, doc_get(props, "GlobalSecondaryIndexes", true), INDEX_GLOBAL, t, &defs,
                 defs_known, label);
    read_indexes(R, doc_get(props, "LocalSecondaryIndexes", true), INDEX_LOCAL, t, &defs,
                 defs_known, label);
    /* DynamoDB rejects definitions that no key schema uses */
    if (defs_known && !t->pk.unknown && !t->indexes_open)
        for (size_t i = 0; i < defs.n; i++)
            if (!defs.v[i].used)
                schema_issue(R->a, R->out, R->path, defs.v[i].span,
                             "attribute '%s' is defined in the AttributeDefinitions of %s but "
                             "no key schema uses it (DynamoDB rejects unused definitions; "
                             "other attributes need no definition)",
                             defs.v[i].name, label);
    schema_check_table(R->a, t, R->out);
}

void schema_read_cfn_table(Arena *a, const DocNode *props, TableDef *t, TableSet *out)
{
    Reader R = {.a = a, .out = out, .path = t->path, .ctx = NULL};
    read_cfn_table(&R, props, t);
}

void schema_check_table(Arena *a, const TableDef *t, TableSet *out)
{
    for (size_t i = 0; i < t->indexes.n; i++) {
        const TableIndex *ix = &t->indexes.v[i];
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
    }
}

/* ---- SAM SimpleTable ----------------------------------------------------- */

static void read_simple_table(Reader *R, const DocNode *props, TableDef *t)
{
    t->pk.name = "id"; /* SAM's default primary key */
    t->pk.type = ATTR_S;
    t->pk.span = t->span;
    if (!props || props->kind != DOC_MAP)
        return;
    const DocNode *tn = doc_get(props, "TableName", false);
    if (tn)
        t->name = name_text(R, tn, 0);
    const DocNode *pk = doc_get(props, "PrimaryKey", false);
    if (!pk)
        return;
    if (pk->kind != DOC_MAP || pk->tag) {
        t->pk.unknown = true;
        return;
    }
    const DocNode *n = doc_get(pk, "Name", false), *ty = doc_get(pk, "Type", false);
    if (doc_scalar(n)) {
        t->pk.name = doc_scalar(n);
        t->pk.span = n->span;
    } else {
        schema_issue(R->a, R->out, R->path, pk->span,
                     "PrimaryKey of table %s has no Name", t->id);
    }
    const char *ts = doc_scalar(ty);
    if (ts && !strcmp(ts, "String"))
        t->pk.type = ATTR_S;
    else if (ts && !strcmp(ts, "Number"))
        t->pk.type = ATTR_N;
    else if (ts && !strcmp(ts, "Binary"))
        t->pk.type = ATTR_B;
    else
        schema_issue(R->a, R->out, R->path, ty ? ty->span : pk->span,
                     "PrimaryKey Type of table %s must be String, Number or Binary (got %s)",
                     t->id, ts ? arena_printf(R->a, "'%s'", ts) : "nothing");
}

/* ---- Environment variables ------------------------------------------------ */

static void read_env_value(Reader *R, const char *var, const DocNode *v)
{
    EnvBinding b = {.var = var, .path = R->path, .span = v->span};
    const char *fn = NULL;
    const DocNode *arg = doc_fn(v, &fn);
    if (arg && !strcmp(fn, "Ref")) {
        const char *id = doc_text(arg);
        if (!id)
            return;
        if (R->ctx && doc_get(R->ctx->params, id, false))
            b.name = name_text(R, v, 0); /* a parameter: its default */
        else
            b.table_id = id;
    } else if (arg && !strcmp(fn, "Fn::Sub")) {
        /* "${Orders}" is a Ref; anything else is a name pattern */
        const char *s = doc_text(arg->kind == DOC_SEQ && arg->n ? arg->vals[0] : arg);
        size_t l = s ? strlen(s) : 0;
        bool plain_ref = l > 3 && s[0] == '$' && s[1] == '{' && s[l - 1] == '}';
        for (size_t i = 2; plain_ref && i + 1 < l; i++)
            if (!isalnum((unsigned char)s[i]))
                plain_ref = false;
        if (plain_ref)
            b.table_id = arena_strndup(R->a, s + 2, l - 3);
        else
            b.name = s;
    } else if (arg) {
        return; /* GetAtt (an ARN), ImportValue, If: not a name we know */
    } else if (v->kind == DOC_SCALAR) {
        b.name = resolve_vars(R, v->text, v->span);
    } else {
        return;
    }
    if (b.name || b.table_id)
        VEC_PUSH(R->a, &R->out->env, b);
}

static void read_env_map(Reader *R, const DocNode *vars)
{
    if (!vars || vars->kind != DOC_MAP || vars->tag)
        return;
    for (size_t i = 0; i < vars->n; i++)
        if (vars->keys[i]->text && vars->vals[i])
            read_env_value(R, vars->keys[i]->text, vars->vals[i]);
}

/* ---- Templates ------------------------------------------------------------ */

static void read_resources(Reader *R, const DocNode *res)
{
    if (!res || res->kind != DOC_MAP)
        return;
    for (size_t i = 0; i < res->n; i++) {
        const DocNode *r = res->vals[i];
        const char *id = res->keys[i]->text;
        const char *type = doc_scalar(doc_get(r, "Type", false));
        if (!id || !type)
            continue;
        const DocNode *props = doc_get(r, "Properties", false);
        if (!strcmp(type, "AWS::DynamoDB::Table") || !strcmp(type, "AWS::DynamoDB::GlobalTable")) {
            TableDef t = {.id = id, .source = TSRC_CLOUDFORMATION, .path = R->path,
                          .span = res->keys[i]->span};
            read_cfn_table(R, props, &t);
            VEC_PUSH(R->a, &R->out->tables, t);
        } else if (!strcmp(type, "AWS::Serverless::SimpleTable")) {
            TableDef t = {.id = id, .source = TSRC_SAM_SIMPLE, .path = R->path,
                          .span = res->keys[i]->span};
            read_simple_table(R, props, &t);
            VEC_PUSH(R->a, &R->out->tables, t);
        } else if (!strcmp(type, "AWS::Serverless::Function") ||
                   !strcmp(type, "AWS::Lambda::Function")) {
            read_env_map(R, doc_get(doc_get(props, "Environment", false), "Variables", false));
        }
    }
}

/* ---- CreateTable input ---------------------------------------------------- */

/* A file holding one table's CreateTable input (`aws dynamodb create-table
 * --cli-input-json`, the SDK's parameters) or `describe-table` output
 * ({ "Table": {...} }): its id is its TableName, else the file's name. */
static void read_create_table(Reader *R, const DocNode *root, const char *display)
{
    const DocNode *props = root;
    if (!doc_get(props, "KeySchema", false) && doc_get(doc_get(root, "Table", false), "KeySchema", false))
        props = doc_get(root, "Table", false);
    if (!doc_get(props, "KeySchema", false) || doc_get(root, "Resources", false))
        return;
    const char *base = strrchr(display, '/');
    base = base ? base + 1 : display;
    const char *name = doc_scalar(doc_get(props, "TableName", false));
    TableDef t = {.source = TSRC_SDK, .path = R->path, .span = props->span};
    t.id = name && *name ? name : arena_strndup(R->a, base, strcspn(base, "."));
    read_cfn_table(R, props, &t);
    if (t.name && !*t.name)
        t.name = NULL;
    VEC_PUSH(R->a, &R->out->tables, t);
}

/* ---- Loading files ----------------------------------------------------- */

typedef struct YLoad {
    Arena *a;
    const char *display;
    const char *buf;
    size_t len;
    size_t *lines; /* byte offset of each line's start (malloc'd) */
    size_t nlines;
    yaml_document_t *doc;
    DocNode **memo; /* by node id - 1 (malloc'd) */
    size_t nnodes;
} YLoad;

static void index_lines(YLoad *L)
{
    size_t n = 1;
    for (size_t i = 0; i < L->len; i++)
        n += L->buf[i] == '\n';
    L->lines = malloc(n * sizeof *L->lines);
    if (!L->lines)
        abort();
    L->nlines = 0;
    /* libyaml does not count a byte-order mark as a column */
    L->lines[L->nlines++] = L->len >= 3 && !memcmp(L->buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (size_t i = 0; i < L->len; i++)
        if (L->buf[i] == '\n')
            L->lines[L->nlines++] = i + 1;
}

/* libyaml's marks count characters; spans count bytes. */
static uint32_t byte_col(const YLoad *L, size_t line, size_t col)
{
    if (line >= L->nlines)
        return (uint32_t)col;
    size_t p = L->lines[line], start = p;
    for (size_t c = 0; c < col && p < L->len && L->buf[p] != '\n'; c++) {
        p++;
        while (p < L->len && ((unsigned char)L->buf[p] & 0xC0) == 0x80)
            p++;
    }
    return (uint32_t)(p - start);
}

static Span mark_span(const YLoad *L, yaml_mark_t s, yaml_mark_t e)
{
    Span sp = {0};
    sp.start_row = (uint32_t)s.line;
    sp.start_col = byte_col(L, s.line, s.column);
    sp.end_row = (uint32_t)e.line;
    sp.end_col = byte_col(L, e.line, e.column);
    if (s.line < L->nlines)
        sp.start_byte = (uint32_t)(L->lines[s.line] + sp.start_col);
    if (e.line < L->nlines)
        sp.end_byte = (uint32_t)(L->lines[e.line] + sp.end_col);
    return sp;
}

static const char *norm_tag(Arena *a, const yaml_char_t *tag)
{
    const char *t = (const char *)tag;
    if (!t || t[0] != '!' || t[1] == '!')
        return NULL; /* standard tags (tag:yaml.org,...) say nothing */
    t++;
    if (!strcmp(t, "Ref") || !strcmp(t, "Condition"))
        return arena_strdup(a, t);
    return arena_printf(a, "Fn::%s", t);
}

static bool yaml_null(const yaml_node_t *n)
{
    if (n->tag && !strcmp((const char *)n->tag, YAML_NULL_TAG))
        return true;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = (const char *)n->data.scalar.value;
    return n->data.scalar.length == 0 || !strcmp(v, "~") || !strcmp(v, "null") ||
           !strcmp(v, "Null") || !strcmp(v, "NULL");
}

typedef VEC(int) IntVec;

static DocNode *shell(YLoad *L, int id, IntVec *todo)
{
    if (id < 1 || (size_t)id > L->nnodes)
        return NULL;
    if (L->memo[id - 1])
        return L->memo[id - 1];
    yaml_node_t *y = yaml_document_get_node(L->doc, id);
    DocNode *d = arena_alloc(L->a, sizeof *d);
    L->memo[id - 1] = d;
    d->span = mark_span(L, y->start_mark, y->end_mark);
    d->tag = norm_tag(L->a, y->tag);
    switch (y->type) {
    case YAML_SCALAR_NODE:
        if (yaml_null(y) && !d->tag) {
            d->kind = DOC_NULL;
        } else {
            d->kind = DOC_SCALAR;
            d->text = arena_strndup(L->a, (const char *)y->data.scalar.value,
                                    y->data.scalar.length);
        }
        break;
    case YAML_SEQUENCE_NODE:
        d->kind = DOC_SEQ;
        VEC_PUSH(L->a, todo, id);
        break;
    case YAML_MAPPING_NODE:
        d->kind = DOC_MAP;
        VEC_PUSH(L->a, todo, id);
        break;
    default:
        d->kind = DOC_NULL;
        break;
    }
    return d;
}

/* The whole document as DocNodes, with an explicit work list. */
static DocNode *convert(YLoad *L)
{
    if (!yaml_document_get_root_node(L->doc))
        return NULL;
    L->nnodes = (size_t)(L->doc->nodes.top - L->doc->nodes.start);
    L->memo = calloc(L->nnodes ? L->nnodes : 1, sizeof *L->memo);
    if (!L->memo)
        abort();
    IntVec todo = {0};
    DocNode *top = shell(L, 1, &todo);
    while (todo.n) {
        int id = todo.v[--todo.n];
        yaml_node_t *y = yaml_document_get_node(L->doc, id);
        DocNode *d = L->memo[id - 1];
        if (y->type == YAML_SEQUENCE_NODE) {
            size_t n = (size_t)(y->data.sequence.items.top - y->data.sequence.items.start);
            d->vals = arena_alloc(L->a, (n ? n : 1) * sizeof *d->vals);
            for (size_t i = 0; i < n; i++) {
                DocNode *c = shell(L, y->data.sequence.items.start[i], &todo);
                if (c)
                    d->vals[d->n++] = c;
            }
        } else {
            size_t n = (size_t)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
            d->keys = arena_alloc(L->a, (n ? n : 1) * sizeof *d->keys);
            d->vals = arena_alloc(L->a, (n ? n : 1) * sizeof *d->vals);
            for (size_t i = 0; i < n; i++) {
                yaml_node_pair_t *p = &y->data.mapping.pairs.start[i];
                DocNode *k = shell(L, p->key, &todo);
                DocNode *v = shell(L, p->value, &todo);
                if (!k || !v || k->kind != DOC_SCALAR)
                    continue;
                d->keys[d->n] = k;
                d->vals[d->n++] = v;
            }
            if (d->n >= MIN_INDEXED_MAP) {
                NameMap *index = arena_alloc(L->a, sizeof *index);
                for (size_t i = 0; i < d->n; i++)
                    namemap_put(L->a, index, d->keys[i]->text, i);
                d->index = index;
            }
        }
    }
    return top;
}

/* libyaml (YAML 1.1) rejects the UTF-16 surrogate escapes JSON encoders
 * write for characters outside the BMP ("\ud83d\ude00"); they only occur
 * in descriptions, so each is replaced in place by U+FFFD (same length:
 * positions do not move). A `\u` counts when an odd run of backslashes
 * precedes it (`\\ud83d` is a backslash and text). */
static void replace_surrogate_escapes(char *buf, size_t len)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\\') {
            run++;
            continue;
        }
        if (buf[i] == 'u' && (run & 1) && len - i > 4) {
            char *h = buf + i + 1;
            if ((h[0] == 'd' || h[0] == 'D') && h[1] && strchr("89abcdefABCDEF", h[1]) &&
                isxdigit((unsigned char)h[2]) && isxdigit((unsigned char)h[3]))
                memcpy(h, "FFFD", 4);
        }
        run = 0;
    }
}

static bool is_json_path(const char *path, const char *buf, size_t len)
{
    size_t l = strlen(path);
    if (l > 5 && !strcasecmp(path + l - 5, ".json"))
        return true;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0xEF && i + 2 < len && (unsigned char)buf[i + 1] == 0xBB)
            i += 2;
        else if (!isspace(c))
            return c == '{';
    }
    return false;
}

static void yaml_problem(const YLoad *L, const yaml_parser_t *p, bool json, Problems *problems)
{
    const char *kind = json ? "JSON" : "YAML";
    switch (p->error) {
    case YAML_READER_ERROR: {
        uint32_t line = 1, col = 1;
        for (size_t i = 0; i < p->problem_offset && i < L->len; i++) {
            if (L->buf[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        problems_add(problems, L->display, line, col, "cannot read schema as %s text: %s", kind,
                     p->problem ? p->problem : "invalid input");
        break;
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    case YAML_COMPOSER_ERROR:
        if (p->context)
            problems_add(problems, L->display, (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1,
                         "%s syntax error in schema: %s (%s on line %zu)", kind,
                         p->problem ? p->problem : "invalid", p->context,
                         p->context_mark.line + 1);
        else
            problems_add(problems, L->display, (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1, "%s syntax error in schema: %s",
                         kind, p->problem ? p->problem : "invalid");
        break;
    default:
        problems_add(problems, L->display, 0, 0, "cannot parse schema as %s", kind);
        break;
    }
}

static bool load(Arena *a, const char *path, const char *display, TableSet *out, Load *ld,
                 int depth, const DocNode *self_root);

static char *dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    return strndup(path, (size_t)(slash - path > 0 ? slash - path : 1));
}

/* `${file(./resources/tables.yml)}` in serverless.yml's resources. Each
 * file is read once per schema: a file including one that is being read
 * (itself, or a file that includes it) is a problem at the include, and
 * including a file read before adds nothing. */
static void include_file(Reader *R, const char *fs_path, const char *spec, Span at, int depth)
{
    const char *open = strstr(spec, "${file(");
    if (!open)
        return;
    const char *p = open + 7;
    const char *close = strchr(p, ')');
    if (!close)
        return;
    char *rel = arena_strndup(R->a, p, (size_t)(close - p));
    while (*rel == ' ' || *rel == '\'' || *rel == '"')
        rel++;
    size_t rl = strlen(rel);
    while (rl && (rel[rl - 1] == ' ' || rel[rl - 1] == '\'' || rel[rl - 1] == '"'))
        rel[--rl] = '\0';
    if (!rl || strstr(rel, "${"))
        return; /* a variable in the path: not followed */
    while (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    if (depth >= MAX_INCLUDE_DEPTH) {
        problems_add(R->load->problems, R->path, at.start_row + 1, at.start_col + 1,
                     "schema includes nest deeper than %d files; %s is not read",
                     MAX_INCLUDE_DEPTH, rel);
        return;
    }
    char *dir = dir_part(fs_path), *ddir = dir_part(R->path);
    if (!dir || !ddir)
        abort();
    const char *full = rel[0] == '/' ? rel : arena_printf(R->a, "%s/%s", dir, rel);
    const char *disp = rel[0] == '/' ? rel
                     : !strcmp(ddir, ".") ? rel
                                          : arena_printf(R->a, "%s/%s", ddir, rel);
    free(dir);
    free(ddir);
    char *real = realpath(full, NULL);
    if (real) {
        size_t seen;
        bool cycle = strlist_has(&R->load->reading, real);
        bool again = namemap_get(&R->load->read, real, &seen);
        free(real);
        if (cycle) {
            problems_add(R->load->problems, R->path, at.start_row + 1, at.start_col + 1,
                         "schema include cycle: %s is being read already (it includes "
                         "this file); not read again",
                         disp);
            return;
        }
        if (again)
            return;
    }
    /* ${self:...} in an included file still means serverless.yml */
    load(R->a, full, disp, R->out, R->load, depth + 1, R->ctx ? R->ctx->root : NULL);
}

static void read_serverless(Reader *R, const DocNode *root, const char *fs_path, int depth)
{
    read_env_map(R, doc_get(doc_get(root, "provider", false), "environment", false));
    const DocNode *fns = doc_get(root, "functions", false);
    if (fns && fns->kind == DOC_MAP)
        for (size_t i = 0; i < fns->n; i++)
            read_env_map(R, doc_get(fns->vals[i], "environment", false));
    const DocNode *res = doc_get(root, "resources", false);
    if (!res)
        return;
    size_t n = res->kind == DOC_SEQ ? res->n : 1;
    for (size_t i = 0; i < n; i++) {
        const DocNode *part = res->kind == DOC_SEQ ? res->vals[i] : res;
        if (part->kind == DOC_MAP)
            read_resources(R, doc_get(part, "Resources", false));
        else if (part->kind == DOC_SCALAR && part->text)
            include_file(R, fs_path, part->text, part->span, depth);
    }
}

static bool load(Arena *a, const char *path, const char *display, TableSet *out, Load *ld,
                 int depth, const DocNode *self_root)
{
    Problems *problems = ld->problems;
    size_t len = 0;
    Problems local;
    problems_init(&local);
    char *buf = read_source(path, &len, &local);
    if (!buf) {
        /* read_source names the file as given; findings use the display path */
        for (size_t i = 0; i < local.items.n; i++)
            problems_add(problems, display, local.items.v[i].line, local.items.v[i].col,
                         "schema %s", local.items.v[i].message);
        problems_free(&local);
        return false;
    }
    problems_free(&local);
    if (len < (SIZE_MAX - ld->expansion_left) / EXPANSION_PER_BYTE)
        ld->expansion_left += len * EXPANSION_PER_BYTE;
    char *real = realpath(path, NULL);
    const char *me = real ? arena_strdup(a, real) : NULL;
    free(real);
    if (me) {
        strlist_push(a, &ld->reading, me);
        namemap_put(a, &ld->read, me, 0);
    }
    size_t pl = strlen(path);
    if (pl > 3 && !strcmp(path + pl - 3, ".tf")) {
        size_t tables_before = out->tables.n, env_before = out->env.n;
        bool ok = schema_read_terraform(a, arena_strdup(a, display), buf, len, out, problems);
        if (ok && depth == 0 && out->tables.n == tables_before && out->env.n == env_before)
            schema_issue(a, out, arena_strdup(a, display), (Span){0},
                         "schema declares no DynamoDB table (resource \"aws_dynamodb_table\" "
                         "or the dynamodb-table module)");
        free(buf);
        if (me)
            ld->reading.n--;
        return ok;
    }
    bool json = is_json_path(path, buf, len);
    if (json)
        replace_surrogate_escapes(buf, len);

    YLoad L = {.a = a, .display = arena_strdup(a, display), .buf = buf, .len = len};
    index_lines(&L);
    yaml_parser_t parser;
    bool ok = false;
    if (!yaml_parser_initialize(&parser)) {
        problems_add(problems, display, 0, 0, "out of memory reading schema");
        goto done;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    yaml_document_t doc;
    if (!yaml_parser_load(&parser, &doc)) {
        yaml_problem(&L, &parser, json, problems);
        yaml_parser_delete(&parser);
        goto done;
    }
    L.doc = &doc;
    DocNode *root = convert(&L);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (!root || root->kind != DOC_MAP) {
        problems_add(problems, L.display, root ? root->span.start_row + 1 : 1,
                     root ? root->span.start_col + 1 : 1,
                     "schema is not a CloudFormation/SAM template or serverless.yml: its top "
                     "level must be a mapping");
        goto done;
    }
    ok = true;
    size_t tables_before = out->tables.n, env_before = out->env.n;
    NameCtx ctx = {.params = doc_get(root, "Parameters", false),
                   .root = self_root ? self_root : root};
    size_t budget = 10000;
    Reader R = {.a = a, .out = out, .path = L.display, .ctx = &ctx, .budget = &budget,
                .load = ld};
    read_env_map(&R, doc_get(doc_get(doc_get(doc_get(root, "Globals", false), "Function", false),
                                     "Environment", false),
                             "Variables", false));
    read_resources(&R, doc_get(root, "Resources", false));
    read_serverless(&R, root, path, depth);
    read_create_table(&R, root, L.display);
    if (depth == 0 && out->tables.n == tables_before && out->env.n == env_before) {
        Span at = {0};
        schema_issue(a, out, L.display, at,
                     "schema declares no DynamoDB table (AWS::DynamoDB::Table, "
                     "AWS::DynamoDB::GlobalTable or AWS::Serverless::SimpleTable under "
                     "Resources, serverless.yml resources, or a CreateTable input with "
                     "KeySchema)");
    }
done:
    if (me)
        ld->reading.n--;
    free(L.memo);
    free(L.lines);
    free(buf);
    return ok;
}

bool schema_load_file(Arena *a, const char *path, const char *display, TableSet *out,
                      Problems *problems)
{
    Load ld = {.problems = problems, .expansion_left = MAX_EXPANSION};
    return load(a, path, display, out, &ld, 0, NULL);
}

/* ---- Reading the model ------------------------------------------------- */

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
    if (t->name && strcmp(t->name, t->id) && !strstr(t->name, "${"))
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
    /* a wildcard-free name must be long enough to hold both literal ends */
    if (!wa && pb + (wb ? strlen(lit_suffix(b)) : 0) > strlen(a))
        return false;
    if (!wb && pa + (wa ? strlen(lit_suffix(a)) : 0) > strlen(b))
        return false;
    return true;
}

/* ---- copies ------------------------------------------------------------ */

static KeyAttr keyattr_copy(Copier *c, KeyAttr k)
{
    k.name = copy_str(c, k.name);
    return k;
}

TableIndex tableindex_copy(Copier *c, const TableIndex *ix)
{
    TableIndex o = *ix;
    o.name = copy_str(c, ix->name);
    o.pk = keyattr_copy(c, ix->pk);
    o.sk = keyattr_copy(c, ix->sk);
    o.projection = copy_str(c, ix->projection);
    o.projected = copy_strlist(c, &ix->projected);
    return o;
}

TableSet tableset_copy(Copier *c, const TableSet *set)
{
    TableSet o = {0};
    COPY_VEC(c, &o.tables, &set->tables);
    for (size_t i = 0; i < o.tables.n; i++) {
        TableDef *t = &o.tables.v[i];
        const TableDef *from = &set->tables.v[i];
        t->id = copy_str(c, from->id);
        t->var = copy_str(c, from->var);
        t->name = copy_str(c, from->name);
        t->pk = keyattr_copy(c, from->pk);
        t->sk = keyattr_copy(c, from->sk);
        COPY_VEC(c, &t->indexes, &from->indexes);
        for (size_t j = 0; j < t->indexes.n; j++)
            t->indexes.v[j] = tableindex_copy(c, &from->indexes.v[j]);
        t->path = copy_str(c, from->path);
        t->same_as = NULL;
    }
    COPY_VEC(c, &o.env, &set->env);
    for (size_t i = 0; i < o.env.n; i++) {
        EnvBinding *e = &o.env.v[i];
        e->var = copy_str(c, e->var);
        e->table_id = copy_str(c, e->table_id);
        e->name = copy_str(c, e->name);
        e->path = copy_str(c, e->path);
    }
    COPY_VEC(c, &o.issues, &set->issues);
    for (size_t i = 0; i < o.issues.n; i++) {
        o.issues.v[i].path = copy_str(c, o.issues.v[i].path);
        o.issues.v[i].message = copy_str(c, o.issues.v[i].message);
    }
    return o;
}
