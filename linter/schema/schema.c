/* Schema files to the table model: CloudFormation and SAM templates and
 * serverless.yml, in YAML or JSON, read into DocNode trees (yaml_doc.c;
 * positions kept, Fn::ForEach expanded by foreach.c), then read for tables,
 * indexes and the environment variables that name tables, and checked as
 * DynamoDB's CreateTable checks them. See schema.h and docs/schemas.md.
 *
 * A value given by an intrinsic function (!If, !Ref, !Sub, ...) is
 * unknown, not wrong: what it decides is not judged.
 *
 * No recursion follows the input's nesting: the readers only ever look a
 * fixed number of levels deep, and the few helpers that follow intrinsic
 * functions or file includes carry a depth bound. */
#include "schema.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "foreach.h"
#include "walk.h"
#include "yaml_doc.h"

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

/* ---- Values only deployment knows ------------------------------------------ */

/* An intrinsic function (`!If [...]`, `{"Fn::If": [...]}`, `!Ref X`): its
 * value is unknown, not wrong. */
static bool is_fn(const DocNode *n)
{
    const char *fn = NULL;
    return doc_fn(n, &fn) != NULL;
}

/* `!Ref AWS::NoValue`: a list item or a property that is not there. */
static bool is_no_value(const DocNode *n)
{
    const char *fn = NULL;
    const DocNode *arg = doc_fn(n, &fn);
    const char *p = arg && !strcmp(fn, "Ref") ? doc_text(arg) : NULL;
    return p && !strcmp(p, "AWS::NoValue");
}

/* How an attribute name is given. */
typedef enum NameKind {
    NAME_NONE,    /* absent, or not a string */
    NAME_LITERAL, /* its text */
    NAME_SYMBOL,  /* an intrinsic keylint compares but does not evaluate: the
                   * same `!Ref Param` (or `!Sub` text) names the same
                   * attribute; what it is, only deployment knows */
    NAME_OPAQUE,  /* a value keylint cannot read (!If, !FindInMap, code) */
} NameKind;

/* The name `n` gives an attribute: *out is its text, or for a symbol the
 * intrinsic as text ("!Ref HashKeyName"). */
static NameKind attr_name(Reader *R, const DocNode *n, const char **out)
{
    *out = NULL;
    if (!n || n->kind == DOC_NULL)
        return NAME_NONE;
    if (n->kind == DOC_OPAQUE)
        return NAME_OPAQUE;
    const char *fn = NULL;
    const DocNode *arg = doc_fn(n, &fn);
    if (!arg) {
        if (n->kind != DOC_SCALAR)
            return NAME_NONE;
        *out = resolve_vars(R, n->text, n->span);
        /* a serverless variable left as written (${opt:stage}) */
        return strstr(*out, "${") ? NAME_SYMBOL : NAME_LITERAL;
    }
    if (!strcmp(fn, "Ref") && doc_text(arg)) {
        *out = arena_printf(R->a, "!Ref %s", doc_text(arg));
        return NAME_SYMBOL;
    }
    if (!strcmp(fn, "Fn::Sub")) {
        bool vars = arg->kind == DOC_SEQ && arg->n > 1; /* its own variables */
        const char *text = doc_text(arg->kind == DOC_SEQ && arg->n ? arg->vals[0] : arg);
        if (!text)
            return NAME_OPAQUE;
        if (!strstr(text, "${")) {
            *out = text;
            return NAME_LITERAL;
        }
        if (vars)
            return NAME_OPAQUE;
        *out = arena_printf(R->a, "!Sub %s", text);
        return NAME_SYMBOL;
    }
    return NAME_OPAQUE;
}

/* ---- Attribute definitions ------------------------------------------------ */

typedef struct AttrDef {
    const char *name; /* the text, or the intrinsic (sym) */
    AttrType type;
    Span span;
    bool used;
    bool sym;   /* a NAME_SYMBOL */
    bool maybe; /* in a branch of an !If: there in one case only */
} AttrDef;

/* A table's AttributeDefinitions, and what is known of the keys that use
 * them. */
typedef struct Defs {
    VEC(AttrDef) v;
    bool known;     /* read as a list: a key attribute missing is an error */
    bool open;      /* some definition's name cannot be read: a key
                     * attribute missing from v may be that one */
    bool keys_open; /* some key attribute's name is not known: a
                     * definition no known key uses may be used by it */
} Defs;

static AttrDef *find_def(Defs *d, const char *name, bool sym)
{
    for (size_t i = 0; i < d->v.n; i++)
        if (d->v.v[i].sym == sym && !strcmp(d->v.v[i].name, name))
            return &d->v.v[i];
    return NULL;
}

static bool defs_have_symbols(const Defs *d)
{
    for (size_t i = 0; i < d->v.n; i++)
        if (d->v.v[i].sym)
            return true;
    return false;
}

/* One AttributeDefinitions entry; `maybe`: a branch of an !If (whose own
 * !If, if any, is not followed further). */
static void read_def(Reader *R, const DocNode *e, const char *table, Defs *defs, bool maybe)
{
    if (is_no_value(e))
        return;
    if (is_fn(e)) {
        const char *fn = NULL;
        const DocNode *arg = doc_fn(e, &fn);
        if (!maybe && !strcmp(fn, "Fn::If") && arg->kind == DOC_SEQ && arg->n == 3) {
            read_def(R, arg->vals[1], table, defs, true);
            read_def(R, arg->vals[2], table, defs, true);
        } else {
            defs->open = true;
        }
        return;
    }
    if (e->kind != DOC_MAP || e->partial) {
        defs->known = false; /* a variable, a spread: not known */
        return;
    }
    const DocNode *an = doc_get(e, "AttributeName", true);
    const DocNode *at = doc_get(e, "AttributeType", true);
    const char *name;
    NameKind nk = attr_name(R, an, &name);
    if (nk == NAME_OPAQUE) {
        defs->open = true;
        return;
    }
    if (nk == NAME_NONE) {
        schema_issue(R->a, R->out, R->path, e->span,
                     "an AttributeDefinitions entry of table %s has no AttributeName", table);
        return;
    }
    AttrDef d = {.name = name, .span = an->span, .sym = nk == NAME_SYMBOL, .maybe = maybe};
    if (!at || (at->kind != DOC_OPAQUE && !is_fn(at))) {
        const char *ts = doc_scalar(at);
        d.type = attr_type_of(ts);
        if (d.type == ATTR_UNKNOWN)
            schema_issue(R->a, R->out, R->path, at ? at->span : e->span,
                         "AttributeType of '%s' in table %s must be S, N or B (got %s)", name,
                         table, ts ? arena_printf(R->a, "'%s'", ts) : "nothing");
    }
    if (!maybe)
        for (size_t j = 0; j < defs->v.n; j++) {
            const AttrDef *o = &defs->v.v[j];
            if (!o->maybe && o->sym == d.sym && !strcmp(o->name, name)) {
                schema_issue(R->a, R->out, R->path, an->span,
                             "attribute '%s' is defined twice in the AttributeDefinitions of "
                             "table %s (first on line %u)",
                             name, table, o->span.start_row + 1);
                return;
            }
        }
    VEC_PUSH(R->a, &defs->v, d);
}

/* AttributeDefinitions into `defs` (defs->known false when they cannot be
 * read as a list). */
static void read_attr_defs(Reader *R, const DocNode *n, const char *table, Defs *defs)
{
    defs->known = n && n->kind == DOC_SEQ && !n->partial && !is_fn(n);
    if (!defs->known)
        return; /* absent, an !If, a variable, a spread: not known */
    for (size_t i = 0; i < n->n; i++)
        read_def(R, n->vals[i], table, defs, false);
}

/* ---- Key schemas ---------------------------------------------------------- */

/* One attribute of a key schema: `sym` set for a NAME_SYMBOL (k.unknown). */
typedef struct KeyEntry {
    KeyAttr k;
    const char *sym;
} KeyEntry;

typedef struct Keys {
    KeyEntry hash[MAX_KEY_ATTRS], range[MAX_KEY_ATTRS];
    size_t nhash, nrange;
    bool unknown; /* the key schema as a whole cannot be read */
} Keys;

static const char *entry_label(const KeyEntry *e)
{
    return e->k.name ? e->k.name : e->sym ? e->sym : "?";
}

/* Mark the definition of a key attribute used, whatever else is wrong with
 * the key schema: an attribute a key names is never "unused". */
static void mention(Defs *defs, NameKind nk, const char *name)
{
    AttrDef *d = nk == NAME_OPAQUE ? NULL : find_def(defs, name, nk == NAME_SYMBOL);
    if (d) {
        for (size_t i = 0; i < defs->v.n; i++) /* the !If branches of it too */
            if (defs->v.v[i].sym == d->sym && !strcmp(defs->v.v[i].name, d->name))
                defs->v.v[i].used = true;
    } else if (nk != NAME_LITERAL) {
        defs->keys_open = true;
    }
}

/* A KeySchema: [{ AttributeName, KeyType: HASH|RANGE }, ...], with at most
 * `max_each` HASH and as many RANGE attributes (MAX_KEY_ATTRS for a global
 * index's multi-attribute keys, else 1). `what` names the table or index
 * in messages; `at` is where to report a missing partition key. */
static void read_key_schema(Reader *R, const DocNode *ks, const char *what, Span at,
                            size_t max_each, Keys *out, Defs *defs)
{
    memset(out, 0, sizeof *out);
    if (!ks || ks->kind == DOC_NULL) {
        schema_issue(R->a, R->out, R->path, at, "%s has no KeySchema", what);
        defs->keys_open = true; /* what it would use is not known */
        return;
    }
    if (is_fn(ks) || ks->kind == DOC_OPAQUE || ks->partial) {
        out->unknown = true; /* an intrinsic, a variable, a spread: not known */
        defs->keys_open = true;
        return;
    }
    if (ks->kind != DOC_SEQ) {
        schema_issue(R->a, R->out, R->path, ks->span, "KeySchema of %s must be a list", what);
        defs->keys_open = true;
        return;
    }
    bool bad_entry = false; /* an entry already reported */
    bool named = false;     /* an entry names its attribute */
    const DocNode *first = NULL;         /* the first entry's KeyType */
    const DocNode *hash_after = NULL;    /* a HASH entry after a RANGE one */
    const KeyEntry *range_before = NULL; /* that RANGE entry */
    for (size_t i = 0; i < ks->n; i++) {
        const DocNode *e = ks->vals[i];
        if (is_no_value(e))
            continue;
        if (is_fn(e) || e->kind == DOC_OPAQUE) {
            out->unknown = true;
            defs->keys_open = true;
            return;
        }
        if (e->kind != DOC_MAP) {
            schema_issue(R->a, R->out, R->path, e->span,
                         "KeySchema of %s must list mappings with AttributeName and KeyType",
                         what);
            bad_entry = true;
            defs->keys_open = true; /* the attribute it meant is not known */
            continue;
        }
        const DocNode *an = doc_get(e, "AttributeName", true);
        const DocNode *kt = doc_get(e, "KeyType", true);
        if (kt && (kt->kind == DOC_OPAQUE || is_fn(kt))) {
            out->unknown = true;
            defs->keys_open = true;
            return;
        }
        const char *name;
        NameKind nk = attr_name(R, an, &name);
        if (nk == NAME_NONE) {
            schema_issue(R->a, R->out, R->path, e->span,
                         "a KeySchema entry of %s has no AttributeName", what);
            bad_entry = true;
            defs->keys_open = true;
            continue;
        }
        named = true;
        mention(defs, nk, name);
        const char *type = doc_scalar(kt);
        bool is_hash = type && !strcmp(type, "HASH");
        bool is_range = type && !strcmp(type, "RANGE");
        KeyEntry ke = {.k = {.name = nk == NAME_LITERAL ? name : NULL,
                             .unknown = nk != NAME_LITERAL,
                             .span = an->span},
                       .sym = nk == NAME_SYMBOL ? name : NULL};
        if (!is_hash && !is_range) {
            schema_issue(R->a, R->out, R->path, kt ? kt->span : e->span,
                         "KeyType of '%s' in %s must be HASH or RANGE (got %s)",
                         entry_label(&ke), what,
                         type ? arena_printf(R->a, "'%s'", type) : "nothing");
            bad_entry = true;
            continue;
        }
        if (!first)
            first = kt;
        if (is_hash && out->nrange && !hash_after) {
            hash_after = kt;
            range_before = &out->range[0];
        }
        KeyEntry *slots = is_hash ? out->hash : out->range;
        size_t *n = is_hash ? &out->nhash : &out->nrange;
        if (*n >= max_each) {
            if (max_each == 1)
                schema_issue(R->a, R->out, R->path, kt->span,
                             "%s has two %s keys ('%s' and '%s'); a key schema has one "
                             "partition (HASH) key and at most one sort (RANGE) key",
                             what, is_hash ? "HASH" : "RANGE", entry_label(&slots[0]),
                             entry_label(&ke));
            else
                schema_issue(R->a, R->out, R->path, kt->span,
                             "%s has more than %d %s keys ('%s' is one too many); a "
                             "multi-attribute key has at most %d HASH and %d RANGE attributes",
                             what, (int)max_each, is_hash ? "HASH" : "RANGE", entry_label(&ke),
                             (int)max_each, (int)max_each);
            continue;
        }
        slots[(*n)++] = ke;
    }
    if (!named)
        defs->keys_open = true; /* an empty KeySchema: what it would use is not known */
    if (!out->nhash && !bad_entry)
        schema_issue(R->a, R->out, R->path, at,
                     "%s has no HASH (partition) key in its KeySchema", what);
    else if (out->nhash && hash_after && first && first != hash_after &&
             !strcmp(doc_scalar(first), "RANGE") && max_each == 1)
        schema_issue(R->a, R->out, R->path, first->span,
                     "the first KeySchema entry of %s is the RANGE key '%s': DynamoDB "
                     "wants the HASH (partition) key first",
                     what, entry_label(range_before));
    else if (out->nhash && hash_after)
        schema_issue(R->a, R->out, R->path, hash_after->span,
                     "the KeySchema of %s lists a HASH key after the RANGE key '%s': DynamoDB "
                     "wants the HASH (partition) key%s first",
                     what, entry_label(range_before), max_each > 1 ? "s" : "");
}

/* Give the key attributes their types from the definitions; report names
 * missing from them (when no definition could be the one). */
static void type_keys(Reader *R, Keys *k, Defs *defs, const char *what)
{
    bool may_be_any = !defs->known || defs->open || defs_have_symbols(defs);
    for (size_t i = 0; i < k->nhash + k->nrange; i++) {
        KeyEntry *e = i < k->nhash ? &k->hash[i] : &k->range[i - k->nhash];
        const AttrDef *d = e->k.name ? find_def(defs, e->k.name, false)
                           : e->sym  ? find_def(defs, e->sym, true)
                                     : NULL;
        if (d)
            e->k.type = d->type;
        else if (e->k.name && !may_be_any)
            schema_issue(R->a, R->out, R->path, e->k.span,
                         "key attribute '%s' of %s is not in the table's AttributeDefinitions",
                         e->k.name, what);
    }
}

/* The first HASH and RANGE attributes (an unknown key schema: unknown). */
static void keys_first(const Keys *k, KeyAttr *pk, KeyAttr *sk)
{
    memset(pk, 0, sizeof *pk);
    memset(sk, 0, sizeof *sk);
    if (k->unknown) {
        pk->unknown = sk->unknown = true;
        return;
    }
    if (k->nhash)
        *pk = k->hash[0].k;
    if (k->nrange)
        *sk = k->range[0].k;
}

/* ---- Indexes ---------------------------------------------------------------- */

enum {
    MAX_NON_KEY_ATTRS = 20,       /* NonKeyAttributes of one index */
    MAX_NON_KEY_ATTRS_TABLE = 100, /* summed over a table's indexes */
};

static void read_projection(Reader *R, const DocNode *p, TableIndex *ix, const char *what,
                            size_t *non_key_total)
{
    if (!p || p->kind == DOC_NULL) {
        schema_issue(R->a, R->out, R->path, ix->span,
                     "%s has no Projection (ProjectionType ALL, KEYS_ONLY or INCLUDE is "
                     "required)",
                     what);
        return;
    }
    if (is_fn(p) || p->kind != DOC_MAP || p->partial)
        return; /* an intrinsic or a variable */
    const DocNode *pt = doc_get(p, "ProjectionType", true);
    const DocNode *nk = doc_get(p, "NonKeyAttributes", true);
    if (pt && (pt->kind == DOC_OPAQUE || is_fn(pt)))
        return;
    const char *type = doc_scalar(pt);
    if (!type) {
        schema_issue(R->a, R->out, R->path, pt ? pt->span : p->span,
                     "the Projection of %s has no ProjectionType (ALL, KEYS_ONLY or INCLUDE): "
                     "DynamoDB assumes none",
                     what);
        return;
    }
    if (strcmp(type, "ALL") && strcmp(type, "KEYS_ONLY") && strcmp(type, "INCLUDE")) {
        schema_issue(R->a, R->out, R->path, pt->span,
                     "ProjectionType of %s must be ALL, KEYS_ONLY or INCLUDE (got '%s')", what,
                     type);
        return;
    }
    ix->projection = type;
    bool include = !strcmp(type, "INCLUDE");
    bool given = nk && nk->kind != DOC_NULL && !is_no_value(nk);
    bool listed = given && nk->kind == DOC_SEQ && !is_fn(nk) && !nk->partial;
    if (listed)
        for (size_t i = 0; i < nk->n; i++)
            if (doc_scalar(nk->vals[i]))
                strlist_push(R->a, &ix->projected, doc_scalar(nk->vals[i]));
    if (include && (!given || (listed && nk->n == 0))) {
        schema_issue(R->a, R->out, R->path, pt->span,
                     "%s projects INCLUDE but lists no NonKeyAttributes", what);
    } else if (!include && listed && nk->n == 0) {
        schema_issue(R->a, R->out, R->path, nk->span,
                     "%s lists an empty NonKeyAttributes: DynamoDB wants at least one name "
                     "there, or no NonKeyAttributes",
                     what);
    } else if (!include && given) {
        schema_issue(R->a, R->out, R->path, nk->span,
                     "%s lists NonKeyAttributes, which only ProjectionType INCLUDE takes", what);
    } else if (include && listed && nk->n > MAX_NON_KEY_ATTRS) {
        schema_issue(R->a, R->out, R->path, nk->span,
                     "%s projects %zu NonKeyAttributes: DynamoDB takes at most %d in one index",
                     what, nk->n, MAX_NON_KEY_ATTRS);
    }
    if (include && listed)
        *non_key_total += nk->n;
}

static void read_indexes(Reader *R, const DocNode *list, IndexKind kind, TableDef *t,
                         Defs *defs, const char *tlabel, size_t *non_key_total)
{
    if (!list || list->kind == DOC_NULL || is_no_value(list))
        return;
    if (list->kind != DOC_SEQ || is_fn(list) || list->partial) {
        t->indexes_open = true; /* !If, a variable, a spread */
        defs->keys_open = true;
        if (list->kind != DOC_SEQ || is_fn(list))
            return; /* a list with a spread: still read what is there */
    }
    const char *kname = kind == INDEX_GLOBAL ? "global" : "local";
    if (!list->n && !list->partial)
        schema_issue(R->a, R->out, R->path, list->span,
                     "the %sSecondaryIndexes of %s is an empty list, which DynamoDB rejects "
                     "(leave the property out)",
                     kind == INDEX_GLOBAL ? "Global" : "Local", tlabel);
    for (size_t i = 0; i < list->n; i++) {
        const DocNode *e = list->vals[i];
        if (is_no_value(e))
            continue;
        if (is_fn(e) || e->kind != DOC_MAP || e->partial) {
            t->indexes_open = true; /* an !If: there in one case */
            defs->keys_open = true;
            if (is_fn(e) || e->kind != DOC_MAP)
                continue;
        }
        TableIndex ix = {.kind = kind, .span = e->span};
        const DocNode *in = doc_get(e, "IndexName", true);
        ix.name = doc_scalar(in);
        if (ix.name) {
            ix.span = in->span;
        } else if (in && (in->kind == DOC_OPAQUE || is_fn(in))) {
            t->indexes_open = true; /* there, under a name not known */
        } else {
            schema_issue(R->a, R->out, R->path, e->span,
                         "a %s secondary index of %s has no IndexName", kname, tlabel);
        }
        const char *what = ix.name ? arena_printf(R->a, "%s secondary index %s of %s", kname,
                                                  ix.name, tlabel)
                                   : arena_printf(R->a, "a %s secondary index of %s", kname,
                                                  tlabel);
        Keys k;
        read_key_schema(R, doc_get(e, "KeySchema", true), what, ix.span,
                        kind == INDEX_GLOBAL ? MAX_KEY_ATTRS : 1, &k, defs);
        type_keys(R, &k, defs, what);
        keys_first(&k, &ix.pk, &ix.sk);
        for (size_t j = 1; j < k.nhash; j++)
            ix.pk_more[j - 1] = k.hash[j].k;
        for (size_t j = 1; j < k.nrange; j++)
            ix.sk_more[j - 1] = k.range[j].k;
        if (kind == INDEX_LOCAL && !k.unknown && k.nhash && !k.nrange)
            schema_issue(R->a, R->out, R->path, ix.span,
                         "%s has no RANGE (sort) key: a local index exists to sort the "
                         "table's partitions another way",
                         what);
        read_projection(R, doc_get(e, "Projection", true), &ix, what, non_key_total);
        if (ix.name)
            VEC_PUSH(R->a, &t->indexes, ix);
    }
}

/* A table name as DynamoDB takes it: 3 to 255 of a-z A-Z 0-9 _ - . (also
 * the rule for index names). */
/* A literal TableName DynamoDB would refuse. */
static void check_table_name(Reader *R, const DocNode *tn, const char *label)
{
    const char *s = doc_scalar(tn);
    if (s && !strstr(s, "${") && !schema_valid_name(s))
        schema_issue(R->a, R->out, R->path, tn->span,
                     "TableName '%s' of %s must be 3 to 255 characters of a-z, A-Z, 0-9, '_', "
                     "'-' and '.'",
                     s, label);
}

static void read_cfn_table(Reader *R, const DocNode *props, TableDef *t)
{
    const char *label = arena_printf(R->a, "table %s", t->id);
    if (is_fn(props)) { /* the whole table given by an intrinsic */
        t->pk.unknown = t->sk.unknown = true;
        t->indexes_open = true;
        return;
    }
    if (!props || props->kind != DOC_MAP) {
        schema_issue(R->a, R->out, R->path, t->span, "%s has no Properties", label);
        t->pk.unknown = t->sk.unknown = true;
        t->indexes_open = true;
        return;
    }
    const DocNode *tn = doc_get(props, "TableName", true);
    if (tn && !t->name)
        t->name = name_text(R, tn, 0);
    check_table_name(R, tn, label);
    Defs defs = {0};
    const DocNode *ad = doc_get(props, "AttributeDefinitions", true);
    read_attr_defs(R, ad, t->id, &defs);
    if (!ad && !props->partial)
        schema_issue(R->a, R->out, R->path, t->span, "%s has no AttributeDefinitions", label);
    const DocNode *ks = doc_get(props, "KeySchema", true);
    Keys k;
    if (!ks && props->partial) {
        t->pk.unknown = t->sk.unknown = true;
        defs.keys_open = true;
    } else {
        read_key_schema(R, ks, label, t->span, 1, &k, &defs);
        type_keys(R, &k, &defs, label);
        keys_first(&k, &t->pk, &t->sk);
    }
    if (props->partial) {
        t->indexes_open = true;
        defs.keys_open = true;
    }
    size_t non_key = 0;
    read_indexes(R, doc_get(props, "GlobalSecondaryIndexes", true), INDEX_GLOBAL, t, &defs,
                 label, &non_key);
    read_indexes(R, doc_get(props, "LocalSecondaryIndexes", true), INDEX_LOCAL, t, &defs, label,
                 &non_key);
    if (non_key > MAX_NON_KEY_ATTRS_TABLE)
        schema_issue(R->a, R->out, R->path, t->span,
                     "the indexes of %s project %zu NonKeyAttributes in all: DynamoDB allows "
                     "at most %d per table",
                     label, non_key, MAX_NON_KEY_ATTRS_TABLE);
    /* DynamoDB rejects definitions that no key schema uses */
    if (defs.known && !defs.keys_open)
        for (size_t i = 0; i < defs.v.n; i++)
            if (!defs.v.v[i].used && !defs.v.v[i].maybe && !defs.v.v[i].sym)
                schema_issue(R->a, R->out, R->path, defs.v.v[i].span,
                             "attribute '%s' is defined in the AttributeDefinitions of %s but "
                             "no key schema uses it (DynamoDB rejects unused definitions; "
                             "other attributes need no definition)",
                             defs.v.v[i].name, label);
    schema_check_table(R->a, t, R->out);
}

void schema_read_cfn_table(Arena *a, const DocNode *props, TableDef *t, TableSet *out)
{
    Reader R = {.a = a, .out = out, .path = t->path, .ctx = NULL};
    read_cfn_table(&R, props, t);
}

/* UpdateTable's GlobalSecondaryIndexUpdates: each `Create` is an index the
 * table gains, read as a GlobalSecondaryIndexes entry is (its key
 * attributes defined in the same call's AttributeDefinitions). */
void schema_read_index_updates(Arena *a, const DocNode *props, TableDef *t, TableSet *out)
{
    Reader R = {.a = a, .out = out, .path = t->path, .ctx = NULL};
    const DocNode *up = doc_get(props, "GlobalSecondaryIndexUpdates", true);
    if (!up || up->kind != DOC_SEQ || is_fn(up) || up->partial)
        t->indexes_open = true;
    if (!up || up->kind != DOC_SEQ || is_fn(up))
        return;
    DocNode *creates = arena_alloc(a, sizeof *creates);
    creates->kind = DOC_SEQ;
    creates->span = up->span;
    creates->vals = arena_alloc(a, (up->n ? up->n : 1) * sizeof *creates->vals);
    for (size_t i = 0; i < up->n; i++) {
        const DocNode *c = doc_get(up->vals[i], "Create", true);
        if (c)
            creates->vals[creates->n++] = (DocNode *)c;
        else if (up->vals[i]->kind != DOC_MAP || is_fn(up->vals[i]) || up->vals[i]->partial)
            t->indexes_open = true; /* an update that cannot be read */
    }
    if (!creates->n)
        return;
    Defs defs = {0};
    read_attr_defs(&R, doc_get(props, "AttributeDefinitions", true), t->id, &defs);
    size_t non_key = 0;
    read_indexes(&R, creates, INDEX_GLOBAL, t, &defs, arena_printf(a, "table %s", t->id),
                 &non_key);
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
    check_table_name(R, tn, arena_printf(R->a, "table %s", t->id));
    const DocNode *pk = doc_get(props, "PrimaryKey", false);
    if (!pk || is_no_value(pk))
        return;
    if (pk->kind != DOC_MAP || is_fn(pk)) {
        t->pk.unknown = true;
        return;
    }
    const DocNode *n = doc_get(pk, "Name", false), *ty = doc_get(pk, "Type", false);
    const char *name;
    NameKind nk = attr_name(R, n, &name);
    if (nk == NAME_LITERAL) {
        t->pk.name = name;
        t->pk.span = n->span;
    } else if (nk != NAME_NONE) {
        t->pk.name = NULL; /* given by an intrinsic: not known */
        t->pk.unknown = true;
    } else {
        schema_issue(R->a, R->out, R->path, pk->span,
                     "PrimaryKey of table %s has no Name", t->id);
    }
    if (ty && (ty->kind == DOC_OPAQUE || is_fn(ty)))
        return;
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

static bool table_type(const char *type)
{
    return type && (!strcmp(type, "AWS::DynamoDB::Table") ||
                    !strcmp(type, "AWS::DynamoDB::GlobalTable") ||
                    !strcmp(type, "AWS::Serverless::SimpleTable"));
}

/* The tables of a Fn::ForEach keylint could not expand: there, with keys
 * and indexes not known (queries on them are not judged), and a note that
 * names each. */
static void read_unread_tables(Reader *R, const ForEachUnreads *unread)
{
    for (size_t i = 0; i < unread->n; i++) {
        const ForEachUnread *u = &unread->v[i];
        if (!table_type(doc_scalar(doc_get(u->value, "Type", false))) || !u->key->text)
            continue;
        TableDef t = {.id = u->key->text, .source = TSRC_CLOUDFORMATION, .path = R->path,
                      .span = u->key->span, .indexes_open = true};
        t.pk.unknown = t.sk.unknown = true;
        t.name = name_text(R, doc_get(doc_get(u->value, "Properties", false), "TableName", false),
                           0);
        VEC_PUSH(R->a, &R->out->tables, t);
        if (R->load)
            problems_add_kind(R->load->problems, PROBLEM_NOTE, R->path, u->key->span.start_row + 1,
                              u->key->span.start_col + 1,
                              "table %s of %s is not read: %s; its keys and indexes are not "
                              "known, and queries on it are not judged",
                              t.id, u->loop, u->why);
    }
}

static void read_resources(Reader *R, const DocNode *res_in)
{
    ForEachUnreads unread = {0};
    const DocNode *res = foreach_expand(R->a, res_in, &unread);
    read_unread_tables(R, &unread);
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
    char *buf = read_regular_source(path, &len, &local);
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
        size_t tables_before = out->tables.n, env_before = out->env.n,
               loose_before = out->loose_indexes.n;
        bool ok = schema_read_terraform(a, arena_strdup(a, display), path, buf, len, out, problems);
        if (ok && depth == 0 && out->tables.n == tables_before && out->env.n == env_before &&
            out->loose_indexes.n == loose_before)
            schema_issue(a, out, arena_strdup(a, display), (Span){0},
                         "schema declares no DynamoDB table (resource \"aws_dynamodb_table\" "
                         "or the dynamodb-table module)");
        free(buf);
        if (me)
            ld->reading.n--;
        return ok;
    }
    const char *disp = arena_strdup(a, display);
    bool ok = false;
    DocNode *root = yaml_doc_parse(a, path, disp, buf, len, problems);
    if (!root)
        goto done;
    if (root->kind != DOC_MAP) {
        problems_add(problems, disp, root->kind == DOC_NULL ? 1 : root->span.start_row + 1,
                     root->kind == DOC_NULL ? 1 : root->span.start_col + 1,
                     "schema is not a CloudFormation/SAM template or serverless.yml: its top "
                     "level must be a mapping");
        goto done;
    }
    ok = true;
    size_t tables_before = out->tables.n, env_before = out->env.n;
    NameCtx ctx = {.params = doc_get(root, "Parameters", false),
                   .root = self_root ? self_root : root};
    size_t budget = 10000;
    Reader R = {.a = a, .out = out, .path = disp, .ctx = &ctx, .budget = &budget,
                .load = ld};
    read_env_map(&R, doc_get(doc_get(doc_get(doc_get(root, "Globals", false), "Function", false),
                                     "Environment", false),
                             "Variables", false));
    /* a template's Resources, or a file of resources alone (a fragment a
     * build step merges into the template: `AuditTable: {Type: ...}`) */
    const DocNode *resources = doc_get(root, "Resources", false);
    read_resources(&R, resources ? resources : root);
    read_serverless(&R, root, path, depth);
    read_create_table(&R, root, disp);
    if (depth == 0 && out->tables.n == tables_before && out->env.n == env_before) {
        Span at = {0};
        schema_issue(a, out, disp, at,
                     "schema declares no DynamoDB table (AWS::DynamoDB::Table, "
                     "AWS::DynamoDB::GlobalTable or AWS::Serverless::SimpleTable under "
                     "Resources, serverless.yml resources, or a CreateTable input with "
                     "KeySchema)");
    }
done:
    if (me)
        ld->reading.n--;
    free(buf);
    return ok;
}

bool schema_load_file(Arena *a, const char *path, const char *display, TableSet *out,
                      Problems *problems)
{
    Load ld = {.problems = problems, .expansion_left = MAX_EXPANSION};
    return load(a, path, display, out, &ld, 0, NULL);
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
    for (size_t i = 0; i < MAX_KEY_ATTRS - 1; i++) {
        o.pk_more[i] = keyattr_copy(c, ix->pk_more[i]);
        o.sk_more[i] = keyattr_copy(c, ix->sk_more[i]);
    }
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
