/* `.keylint.yml`: loading (libyaml document API), defaults, discovery and
 * ignore globs. See docs/configuration.md for the user-facing description. */
#include "config.h"

#include "files.h"
#include "walk.h"
#include "yamldepth.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* ------------------------------------------------------------------------ */
/* Defaults                                                                 */

static const char *const default_tenant_names[] = {
    "tenantCode", "tenantId", "tenant", "tenant_code", "tenant_id", NULL,
};
static const char *const default_tenant_common[] = {"common", NULL};
static const char *const default_mutable_fields[] = {
    "status", "state", "priority", "updatedAt", NULL,
};
static const char *const default_scan_allowed[] = {
    "**/scripts/**", "**/migrations/**", "**/seed/**", "**/seeds/**", NULL,
};

/* Tests are full of literal keys and fixtures on purpose: not linted unless
 * the configuration's own `ignore` list replaces this one. */
static const char *const default_ignore[] = {
    "*.spec.*", "*.test.*", "**/__tests__/**", "**/__mocks__/**", NULL,
};

enum { DEFAULT_MAX_KEY_COMPONENTS = 5 };

static void push_all(Arena *a, StrList *l, const char *const *v)
{
    for (; *v; v++)
        strlist_push(a, l, arena_strdup(a, *v));
}

static Config *config_new(void)
{
    Arena *a = arena_new();
    Config *c = arena_alloc(a, sizeof *c);
    c->arena = a;
    c->path = NULL;
    c->dir = "";
    c->separator = "#";
    c->version_separator = "@";
    c->tenant_required = TENANT_AUTO;
    push_all(a, &c->tenant_names, default_tenant_names);
    push_all(a, &c->tenant_common, default_tenant_common);
    push_all(a, &c->mutable_fields, default_mutable_fields);
    push_all(a, &c->scan_allowed, default_scan_allowed);
    push_all(a, &c->ignore, default_ignore);
    c->max_key_components = DEFAULT_MAX_KEY_COMPONENTS;
    return c;
}

Config *config_default(void)
{
    return config_new();
}

void config_free(Config *c)
{
    if (c)
        arena_free(c->arena);
}

Severity config_rule_severity(const Config *c, const char *id,
                              Severity fallback)
{
    if (!c || !id)
        return fallback;
    for (size_t i = c->rules.n; i-- > 0;)
        if (!strcmp(c->rules.v[i].id, id))
            return c->rules.v[i].severity;
    return fallback;
}

/* ------------------------------------------------------------------------ */
/* Paths (malloc'd scratch strings, never stored in a Config)               */

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p) {
        fputs("keylint: out of memory\n", stderr);
        abort();
    }
    return p;
}

static char *path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] == '/';
    char *p = malloc(dl + nl + 2);
    if (!p) {
        fputs("keylint: out of memory\n", stderr);
        abort();
    }
    memcpy(p, dir, dl);
    if (!slash)
        p[dl++] = '/';
    memcpy(p + dl, name, nl + 1);
    return p;
}

/* Resolve "." and ".." and repeated slashes of an absolute path in place. */
static void normalize_lexical(char *path)
{
    char *w = path; /* output end; output is "" or "/a/b" */
    const char *r = path;
    while (*r) {
        while (*r == '/')
            r++;
        const char *seg = r;
        while (*r && *r != '/')
            r++;
        size_t n = (size_t)(r - seg);
        if (n == 0 || (n == 1 && seg[0] == '.'))
            continue;
        if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            while (w > path && *--w != '/')
                ;
            continue;
        }
        *w++ = '/';
        memmove(w, seg, n);
        w += n;
    }
    if (w == path)
        *w++ = '/';
    *w = '\0';
}

/* `path` made absolute against the current directory, without touching the
 * file system beyond getcwd(). NULL when the cwd is unavailable. */
static char *absolute_lexical(const char *path)
{
    char *out;
    if (path[0] == '/') {
        out = xstrdup(path);
    } else {
        char *cwd = getcwd(NULL, 0);
        if (!cwd)
            return NULL;
        out = path_join(cwd, path);
        free(cwd);
    }
    normalize_lexical(out);
    return out;
}

/* The absolute directory part of `path` (symlinks in it resolved when it
 * exists). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dirpart;
    if (!slash)
        dirpart = xstrdup(".");
    else if (slash == path)
        dirpart = xstrdup("/");
    else
        dirpart = strndup(path, (size_t)(slash - path));
    if (!dirpart)
        abort();
    char *real = realpath(dirpart, NULL);
    if (!real)
        real = absolute_lexical(dirpart);
    free(dirpart);
    return real;
}

/* Absolute form of a file path: its directory resolved with realpath (so it
 * compares with a config's dir), its last component kept as written (a
 * symlinked file is judged by where it is, not by its target). */
static char *absolute_file_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
        char *real = realpath(path, NULL);
        return real ? real : absolute_lexical(path);
    }
    char *dir = dir_of(path);
    if (!dir)
        return NULL;
    char *out = path_join(dir, base);
    free(dir);
    return out;
}

/* ------------------------------------------------------------------------ */
/* Discovery                                                                */

/* A configuration file is there: a regular file, or anything but a
 * directory by that name (a FIFO, a link to a device), which loading
 * then refuses with a message rather than passing over it in silence. */
static bool config_there(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static const char *const config_names[] = {".keylint.yml", "keylint.yml"};

/* The configuration file in `dir` itself (malloc'd), or NULL. */
static char *config_in(const char *dir)
{
    for (size_t i = 0; i < sizeof config_names / sizeof *config_names; i++) {
        char *candidate = path_join(dir, config_names[i]);
        if (config_there(candidate))
            return candidate;
        free(candidate);
    }
    return NULL;
}

/* The parent of `dir` in place ("/a" -> "/"); false at "/" or for a
 * path without a slash. */
static bool up_one(char *dir)
{
    char *slash = strrchr(dir, '/');
    if (!slash || (slash == dir && dir[1] == '\0'))
        return false;
    if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    return true;
}

char *config_find(const char *dir)
{
    char *cur = realpath(dir && *dir ? dir : ".", NULL);
    if (!cur)
        return NULL;
    do {
        char *found = config_in(cur);
        if (found) {
            free(cur);
            return found;
        }
    } while (up_one(cur));
    free(cur);
    return NULL;
}

struct ConfigFinder {
    Arena *a;
    NameMap answers;        /* directory -> 1 + index in found, or 0: none */
    VEC(const char *) found;
};

ConfigFinder *config_finder_new(void)
{
    Arena *a = arena_new();
    ConfigFinder *f = arena_alloc(a, sizeof *f);
    f->a = a;
    return f;
}

void config_finder_free(ConfigFinder *f)
{
    if (f)
        arena_free(f->a);
}

const char *config_finder_find(ConfigFinder *f, const char *dir)
{
    /* up from `dir` to the first directory answered before or holding a
     * file; the answer is then every directory's on the way */
    VEC(const char *) asked = {0};
    char *cur = arena_strdup(f->a, dir);
    size_t answer = 0;
    for (;;) {
        if (namemap_get(&f->answers, cur, &answer))
            break;
        VEC_PUSH(f->a, &asked, cur);
        char *here = config_in(cur);
        if (here) {
            VEC_PUSH(f->a, &f->found, arena_strdup(f->a, here));
            free(here);
            answer = f->found.n;
            break;
        }
        cur = arena_strdup(f->a, cur);
        if (!up_one(cur))
            break; /* answer 0: none */
    }
    for (size_t i = 0; i < asked.n; i++)
        namemap_put(f->a, &f->answers, asked.v[i], answer);
    return answer ? f->found.v[answer - 1] : NULL;
}

/* config_path_matches of a path already absolute (absolute_file_path) */
static bool abs_path_matches(const Config *c, const StrList *globs, const char *abs)
{
    /* relative to the configuration's directory (a file outside it never
     * matches); the defaults have no directory: a file is matched by its
     * absolute path, so that what matches never depends on the working
     * directory (`**` and base-name patterns match, anchored ones do not) */
    const char *rel = abs;
    size_t dl = c->dir ? strlen(c->dir) : 0;
    while (dl > 1 && c->dir[dl - 1] == '/')
        dl--;
    if (dl) {
        bool inside = !strncmp(abs, c->dir, dl) &&
                      ((dl == 1 && c->dir[0] == '/') || abs[dl] == '/');
        rel = inside ? abs + dl : "";
    }
    while (*rel == '/')
        rel++;
    /* as .gitignore: the last pattern that matches decides, and a pattern
     * written `!glob` takes back what earlier ones matched */
    for (size_t i = globs->n; *rel && i > 0; i--) {
        const char *g = globs->v[i - 1];
        bool negated = g[0] == '!';
        if (glob_match(negated ? g + 1 : g, rel))
            return !negated;
    }
    return false;
}

bool config_path_matches(const Config *c, const StrList *globs, const char *path)
{
    if (!c || !globs || !path || !*path || globs->n == 0)
        return false;
    char *abs = absolute_file_path(path);
    bool result = abs && abs_path_matches(c, globs, abs);
    free(abs);
    return result;
}

bool config_ignores_resolved(const Config *c, const char *abs)
{
    return c && abs && abs[0] == '/' && c->ignore.n && abs_path_matches(c, &c->ignore, abs);
}

bool config_ignores(const Config *c, const char *path)
{
    return c && config_path_matches(c, &c->ignore, path);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */

typedef struct Loader {
    Config *c;
    uint64_t apply;         /* config_derive: the overrides to apply */
    yaml_node_t *overrides; /* the `overrides:` value, read last */
    Problems *problems;
    const char *path;       /* as given, for Problems */
    const char *name;       /* its last component, for messages */
    yaml_document_t *doc;
    const char *const *known_rules;
    size_t errors;
    yaml_node_t *separator, *version_separator; /* as set by the file */
} Loader;

static void problem_at(Loader *L, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem_at(Loader *L, yaml_mark_t m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(L->c->arena, fmt, ap);
    va_end(ap);
    problems_add_kind(L->problems, PROBLEM_CONFIG, L->path, (uint32_t)m.line + 1,
                 (uint32_t)m.column + 1, "%s", msg);
    L->errors++;
}

static uint32_t node_line(const yaml_node_t *n)
{
    return (uint32_t)n->start_mark.line + 1;
}

static yaml_node_t *get_node(Loader *L, int id)
{
    return yaml_document_get_node(L->doc, id);
}

static const char *scalar_text(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

static bool is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE)
        return false;
    if (n->tag && !strcmp((const char *)n->tag, YAML_NULL_TAG))
        return true;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = scalar_text(n);
    return n->data.scalar.length == 0 || !strcmp(v, "~") ||
           !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* A short, printable rendering of user text for messages: at most 40 bytes
 * (cut at a character boundary), control characters shown as '?'. */
static const char *show(Loader *L, const char *s, size_t len)
{
    enum { MAX = 40 };
    bool cut = len > MAX;
    size_t n = cut ? MAX : len;
    while (cut && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    char *out = arena_alloc(L->c->arena, n + 4);
    for (size_t i = 0; i < n; i++)
        out[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    if (cut)
        memcpy(out + n, "...", 4);
    return out;
}

/* What a value node is, for "(got ...)" in messages. */
static const char *describe(Loader *L, const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        if (is_null(n))
            return "nothing";
        return arena_printf(L->c->arena, "'%s'",
                            show(L, scalar_text(n), n->data.scalar.length));
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_MAPPING_NODE:
        return "a mapping";
    default:
        return "nothing";
    }
}

/* A non-null scalar as an arena string, or NULL (without a Problem) when
 * the node is not one. */
static const char *string_value(Loader *L, const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || is_null(n))
        return NULL;
    return arena_strndup(L->c->arena, scalar_text(n), n->data.scalar.length);
}

static bool has_nul(const yaml_node_t *n)
{
    return strlen(scalar_text(n)) != n->data.scalar.length;
}


/* "; did you mean 'x'?" for the closest candidate within distance 2, or "". */
static const char *suggestion(Loader *L, const char *word,
                              const char *const *candidates)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (; candidates && *candidates; candidates++) {
        size_t d = edit_distance(word, strlen(word), *candidates, strlen(*candidates));
        if (d < best_d && d < strlen(*candidates)) {
            best = *candidates;
            best_d = d;
        }
    }
    return best ? arena_printf(L->c->arena, "; did you mean '%s'?", best) : "";
}

/* Look up the key of a mapping pair among `keys`. Reports non-string,
 * unknown and duplicate keys (`where` is e.g. "in 'tenant'") and returns
 * -1 for them. `seen` holds the line each key was first set on. */
static int lookup_key(Loader *L, const yaml_node_t *key,
                      const char *const *keys, uint32_t *seen,
                      const char *where)
{
    if (key->type != YAML_SCALAR_NODE) {
        problem_at(L, key->start_mark, "keys %s must be strings", where);
        return -1;
    }
    const char *k = scalar_text(key);
    for (int i = 0; keys[i]; i++) {
        if (strcmp(k, keys[i]) || has_nul(key))
            continue;
        if (seen[i]) {
            problem_at(L, key->start_mark,
                       "duplicate key '%s' %s (first set on line %u)", k,
                       where, (unsigned)seen[i]);
            return -1;
        }
        seen[i] = node_line(key);
        return i;
    }
    problem_at(L, key->start_mark, "unknown key '%s' %s%s",
               show(L, k, key->data.scalar.length), where,
               suggestion(L, k, keys));
    return -1;
}

/* A list of strings (an empty value is an empty list; a single string is
 * an error: `ignore: a, b` is one pattern, not two). Replaces *out. */
static void read_list(Loader *L, const yaml_node_t *n, const char *key,
                      StrList *out)
{
    StrList list = {0};
    if (n->type == YAML_MAPPING_NODE) {
        problem_at(L, n->start_mark, "'%s' must be a list of strings (got %s)",
                   key, describe(L, n));
        return;
    }
    if (n->type == YAML_SCALAR_NODE) {
        if (!is_null(n)) {
            problem_at(L, n->start_mark,
                       "'%s' must be a list of strings (got %s); write [%s]", key,
                       describe(L, n), show(L, scalar_text(n), n->data.scalar.length));
            return;
        }
        *out = list;
        return;
    }
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = get_node(L, *it);
        if (!item)
            continue;
        if (item->type != YAML_SCALAR_NODE) {
            problem_at(L, item->start_mark,
                       "'%s' must be a list of strings (item %zu is %s)", key,
                       (size_t)(it - n->data.sequence.items.start) + 1,
                       describe(L, item));
            continue;
        }
        if (is_null(item) || !item->data.scalar.length || has_nul(item)) {
            problem_at(L, item->start_mark,
                       "'%s' must be a list of non-empty strings (item %zu "
                       "is empty)",
                       key, (size_t)(it - n->data.sequence.items.start) + 1);
            continue;
        }
        strlist_push(L->c->arena, &list, string_value(L, item));
    }
    *out = list;
}

enum { MAX_GLOB_EXPANSIONS = 256 };

/* A `[` that opens a character class no `]` closes (`src/[abc`): glob_match
 * would take it as a literal '[', which is never what was meant. */
static bool glob_unclosed_class(const char *p)
{
    for (; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
        } else if (*p == '[') {
            const char *q = p + 1;
            if (*q == '!' || *q == '^')
                q++;
            if (*q == ']') /* `[]...]`: the first ']' is a member */
                q++;
            while (*q && *q != ']' && *q != '/')
                q++;
            if (*q != ']')
                return true;
            p = q;
        }
    }
    return false;
}

/* The closing brace of the group opening at p[0] == '{', NULL if none;
 * *alts set when it holds a top-level comma. Backslash escapes. */
static const char *brace_close(const char *p, bool *alts)
{
    int depth = 0;
    *alts = false;
    for (; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
        } else if (*p == '{') {
            depth++;
        } else if (*p == '}') {
            if (--depth == 0)
                return p;
        } else if (*p == ',' && depth == 1) {
            *alts = true;
        }
    }
    return NULL;
}

/* Expand `{a,b}` groups (nested too) into `out`; a leading '!' stays on
 * every expansion. False, with a message in *why, for an unbalanced brace
 * or more than MAX_GLOB_EXPANSIONS patterns. A group without a comma
 * (`{a}`) is literal text, as in the shell. */
static bool expand_braces(Arena *a, const char *pattern, StrList *out, const char **why)
{
    StrList work = {0};
    strlist_push(a, &work, pattern);
    size_t produced = 0;
    while (work.n) {
        const char *pat = work.v[--work.n];
        const char *open = NULL, *close = NULL;
        bool alts = false;
        for (const char *p = pat; *p; p++) {
            if (*p == '\\' && p[1]) {
                p++;
                continue;
            }
            if (*p == '}') {
                *why = "a '}' without its '{'";
                return false;
            }
            if (*p != '{')
                continue;
            close = brace_close(p, &alts);
            if (!close) {
                *why = "a '{' without its '}'";
                return false;
            }
            if (alts) {
                open = p;
                break;
            }
            p = close; /* {a}: literal */
        }
        if (!open) {
            if (++produced > MAX_GLOB_EXPANSIONS) {
                *why = "more than 256 patterns once its {a,b} groups are expanded";
                return false;
            }
            strlist_push(a, out, pat);
            continue;
        }
        /* one pattern per alternative, the rest expanded in later rounds */
        const char *alt = open + 1;
        int depth = 0;
        for (const char *p = open + 1;; p++) {
            if (*p == '\\' && p[1] && p + 1 < close) {
                p++;
                continue;
            }
            if (*p == '{')
                depth++;
            else if (*p == '}' && p != close)
                depth--;
            if (p == close || (*p == ',' && depth == 0)) {
                if (work.n + produced > MAX_GLOB_EXPANSIONS) {
                    *why = "more than 256 patterns once its {a,b} groups are expanded";
                    return false;
                }
                strlist_push(a, &work,
                             arena_printf(a, "%.*s%.*s%s", (int)(open - pat), pat,
                                          (int)(p - alt), alt, close + 1));
                alt = p + 1;
                if (p == close)
                    break;
            }
        }
    }
    return true;
}

/* A list of globs: each checked and its {a,b} groups expanded, in order
 * (the expansions of one pattern keep its place). */
static void read_globs(Loader *L, const yaml_node_t *n, const char *key, StrList *out)
{
    StrList raw = {0};
    read_list(L, n, key, &raw);
    for (size_t i = 0; i < raw.n; i++) {
        StrList one = {0};
        const char *why = glob_unclosed_class(raw.v[i]) ? "a '[' without its ']'" : NULL;
        if (why || !expand_braces(L->c->arena, raw.v[i], &one, &why)) {
            problem_at(L, n->start_mark, "'%s': the glob '%s' has %s", key, raw.v[i], why);
            continue;
        }
        /* expanded from the end: put them back in written order */
        for (size_t k = one.n; k > 0; k--)
            strlist_push(L->c->arena, out, one.v[k - 1]);
    }
}

/* A mapping value; NULL (and a Problem unless the value is empty) if the
 * node is something else. */
static const yaml_node_t *as_mapping(Loader *L, const yaml_node_t *n,
                                     const char *key)
{
    if (n->type == YAML_MAPPING_NODE)
        return n;
    if (!is_null(n))
        problem_at(L, n->start_mark, "'%s' must be a mapping (got %s)", key,
                   describe(L, n));
    return NULL;
}

#define FOR_PAIRS(pair, map)                                                   \
    for (yaml_node_pair_t *pair = (map)->data.mapping.pairs.start;            \
         pair < (map)->data.mapping.pairs.top; pair++)

static void read_separator(Loader *L, yaml_node_t *n, const char *key,
                           const char **out, yaml_node_t **where)
{
    if (n->type == YAML_SCALAR_NODE && n->data.scalar.length == 1) {
        unsigned char ch = (unsigned char)scalar_text(n)[0];
        if (ch > 0x20 && ch < 0x7f) {
            *out = string_value(L, n);
            *where = n;
            return;
        }
    }
    const char *hint = n->type == YAML_SCALAR_NODE && is_null(n)
                           ? "; an unquoted # starts a comment, write \"#\""
                           : "";
    problem_at(L, n->start_mark,
               "'%s' must be a single printable ASCII character (got %s%s)",
               key, describe(L, n), hint);
}

static void read_tenant(Loader *L, const yaml_node_t *value)
{
    static const char *const keys[] = {"required", "names", "common",
                                       "global", NULL};
    const yaml_node_t *map = as_mapping(L, value, "tenant");
    if (!map)
        return;
    uint32_t seen[4] = {0};
    FOR_PAIRS (pair, map) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        switch (lookup_key(L, k, keys, seen, "in 'tenant'")) {
        case 0: {
            L->c->tenant_required_line = node_line(k);
            const char *s = v->type == YAML_SCALAR_NODE && !has_nul(v)
                                ? scalar_text(v)
                                : "";
            if (!strcasecmp(s, "auto"))
                L->c->tenant_required = TENANT_AUTO;
            else if (!strcasecmp(s, "true") || !strcasecmp(s, "yes"))
                L->c->tenant_required = TENANT_REQUIRED;
            else if (!strcasecmp(s, "false") || !strcasecmp(s, "no"))
                L->c->tenant_required = TENANT_NOT_REQUIRED;
            else
                problem_at(L, v->start_mark,
                           "'tenant.required' must be auto, true or false "
                           "(got %s)",
                           describe(L, v));
            break;
        }
        case 1:
            read_list(L, v, "tenant.names", &L->c->tenant_names);
            break;
        case 2:
            read_list(L, v, "tenant.common", &L->c->tenant_common);
            break;
        case 3:
            read_list(L, v, "tenant.global", &L->c->tenant_global);
            break;
        default:
            break;
        }
    }
}

/* A mapping of lists (`key-attributes:`, `tables:`): `keys` the names it
 * may hold (NULL-terminated), `lists` where each goes. */
static void read_list_map(Loader *L, const yaml_node_t *value, const char *section,
                          const char *const *keys, StrList *const *lists)
{
    const yaml_node_t *map = as_mapping(L, value, section);
    if (!map)
        return;
    uint32_t seen[8] = {0};
    const char *where = arena_printf(L->c->arena, "in '%s'", section);
    FOR_PAIRS (pair, map) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        int i = lookup_key(L, k, keys, seen, where);
        if (i >= 0)
            read_list(L, v, arena_printf(L->c->arena, "%s.%s", section, keys[i]), lists[i]);
    }
}

static void read_key_attributes(Loader *L, const yaml_node_t *value)
{
    static const char *const keys[] = {"pk", "sk", "index-pk", "index-sk", NULL};
    StrList *const lists[] = {&L->c->key_pk, &L->c->key_sk, &L->c->key_index_pk,
                              &L->c->key_index_sk};
    read_list_map(L, value, "key-attributes", keys, lists);
}

static void read_tables(Loader *L, const yaml_node_t *value)
{
    static const char *const keys[] = {"data", "history", "command", NULL};
    StrList *const lists[] = {&L->c->data_tables, &L->c->history_tables,
                              &L->c->command_tables};
    read_list_map(L, value, "tables", keys, lists);
}

static void read_access_pattern(Loader *L, const yaml_node_t *n, size_t idx)
{
    static const char *const keys[] = {"name", "pk", "sk", "index", NULL};
    if (n->type != YAML_MAPPING_NODE) {
        problem_at(L, n->start_mark,
                   "'access-patterns' entry %zu must be a mapping with 'name' "
                   "and 'pk' (got %s)",
                   idx, describe(L, n));
        return;
    }
    const char *where =
        arena_printf(L->c->arena, "in 'access-patterns' entry %zu", idx);
    AccessPattern ap = {.line = node_line(n)};
    const char **fields[] = {&ap.name, &ap.pk, &ap.sk, &ap.index};
    uint32_t seen[4] = {0};
    FOR_PAIRS (pair, n) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        int i = lookup_key(L, k, keys, seen, where);
        if (i < 0)
            continue;
        if (v->type != YAML_SCALAR_NODE || is_null(v) ||
            !v->data.scalar.length || has_nul(v)) {
            problem_at(L, v->start_mark,
                       "'%s' of 'access-patterns' entry %zu must be a "
                       "non-empty string (got %s)",
                       keys[i], idx, describe(L, v));
            *fields[i] = "";
            continue;
        }
        *fields[i] = string_value(L, v);
    }
    if (!ap.name)
        problem_at(L, n->start_mark,
                   "'access-patterns' entry %zu is missing 'name'", idx);
    if (!ap.pk)
        problem_at(L, n->start_mark,
                   "'access-patterns' entry %zu is missing 'pk'", idx);
    if (ap.name && ap.pk)
        VEC_PUSH(L->c->arena, &L->c->access_patterns, ap);
}

/* A wrapper: which argument (or argument property) of a project's own
 * data-access call holds the table, index, key condition, values... */
static void read_wrapper(Loader *L, const yaml_node_t *n, size_t idx)
{
    static const char *const keys[] = {"call", "operation", "table", "index",
                                       "key-condition", "names", "values", "key",
                                       "item", NULL};
    static const struct { const char *name; OpKind kind; } ops[] = {
        {"get", OP_GET}, {"query", OP_QUERY}, {"scan", OP_SCAN}, {"put", OP_PUT},
        {"update", OP_UPDATE}, {"delete", OP_DELETE}};
    if (n->type != YAML_MAPPING_NODE) {
        problem_at(L, n->start_mark,
                   "'wrappers' entry %zu must be a mapping with 'call' and "
                   "'operation' (got %s)",
                   idx, describe(L, n));
        return;
    }
    const char *where = arena_printf(L->c->arena, "in 'wrappers' entry %zu", idx);
    Wrapper w = {.line = node_line(n)};
    const char *operation = NULL;
    const char **fields[] = {&w.call, &operation, &w.table, &w.index, &w.key_condition,
                             &w.names, &w.values, &w.key, &w.item};
    uint32_t seen[9] = {0};
    bool ok = true;
    FOR_PAIRS (pair, n) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        int i = lookup_key(L, k, keys, seen, where);
        if (i < 0)
            continue;
        if (v->type != YAML_SCALAR_NODE || is_null(v) || !v->data.scalar.length ||
            has_nul(v)) {
            problem_at(L, v->start_mark,
                       "'%s' of 'wrappers' entry %zu must be a non-empty string "
                       "(got %s)",
                       keys[i], idx, describe(L, v));
            ok = false;
            continue;
        }
        const char *val = string_value(L, v);
        if (i >= 2) { /* an argument path: N or N.prop.prop */
            const char *p = val;
            while (*p >= '0' && *p <= '9')
                p++;
            if (p == val || (*p && *p != '.') || (*p == '.' && !p[1])) {
                problem_at(L, v->start_mark,
                           "'%s' of 'wrappers' entry %zu must be an argument index "
                           "with an optional property path, such as 0 or "
                           "1.keyCondition (got '%s')",
                           keys[i], idx, val);
                ok = false;
                continue;
            }
        }
        *fields[i] = val;
    }
    if (!w.call) {
        problem_at(L, n->start_mark, "'wrappers' entry %zu is missing 'call'", idx);
        ok = false;
    }
    bool known = false;
    for (size_t i = 0; operation && i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(operation, ops[i].name)) {
            w.operation = ops[i].kind;
            known = true;
        }
    if (!operation) {
        problem_at(L, n->start_mark, "'wrappers' entry %zu is missing 'operation'", idx);
        ok = false;
    } else if (!known) {
        problem_at(L, n->start_mark,
                   "'operation' of 'wrappers' entry %zu must be get, query, scan, "
                   "put, update or delete (got '%s')",
                   idx, operation);
        ok = false;
    }
    if (ok)
        VEC_PUSH(L->c->arena, &L->c->wrappers, w);
}

static void read_wrappers(Loader *L, const yaml_node_t *n)
{
    L->c->wrappers.n = 0;
    if (n->type == YAML_SCALAR_NODE && is_null(n))
        return;
    if (n->type != YAML_SEQUENCE_NODE) {
        problem_at(L, n->start_mark, "'wrappers' must be a list of mappings (got %s)",
                   describe(L, n));
        return;
    }
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = get_node(L, *it);
        if (item)
            read_wrapper(L, item, (size_t)(it - n->data.sequence.items.start) + 1);
    }
}

static void read_access_patterns(Loader *L, const yaml_node_t *n)
{
    L->c->access_patterns.n = 0;
    if (n->type == YAML_SCALAR_NODE && is_null(n))
        return;
    if (n->type != YAML_SEQUENCE_NODE) {
        problem_at(L, n->start_mark,
                   "'access-patterns' must be a list of mappings (got %s)",
                   describe(L, n));
        return;
    }
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = get_node(L, *it);
        if (item)
            read_access_pattern(
                L, item, (size_t)(it - n->data.sequence.items.start) + 1);
    }
}

static bool known_rule(const char *const *known, const char *id)
{
    if (!known)
        return true; /* no registry given: accept any id */
    for (; *known; known++)
        if (!strcmp(*known, id))
            return true;
    return false;
}

static void read_rules(Loader *L, const yaml_node_t *value)
{
    const yaml_node_t *map = as_mapping(L, value, "rules");
    if (!map)
        return;
    /* duplicates within this mapping; an override's come after the file's */
    size_t first = L->c->rules.n;
    FOR_PAIRS (pair, map) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        if (k->type != YAML_SCALAR_NODE || is_null(k) || has_nul(k)) {
            problem_at(L, k->start_mark,
                       "rule ids in 'rules' must be strings (got %s)",
                       describe(L, k));
            continue;
        }
        const char *id = scalar_text(k);
        bool ok = true;
        if (!known_rule(L->known_rules, id)) {
            problem_at(L, k->start_mark, "unknown rule '%s' in 'rules'%s",
                       show(L, id, k->data.scalar.length),
                       suggestion(L, id, L->known_rules));
            ok = false;
        } else {
            for (size_t i = first; i < L->c->rules.n; i++) {
                if (!strcmp(L->c->rules.v[i].id, id)) {
                    problem_at(L, k->start_mark,
                               "duplicate rule '%s' in 'rules' (first set on "
                               "line %u)",
                               id, (unsigned)L->c->rules.v[i].line);
                    ok = false;
                    break;
                }
            }
        }
        Severity sev = SEV_OFF;
        if (v->type != YAML_SCALAR_NODE || has_nul(v) ||
            !severity_parse(scalar_text(v), &sev)) {
            problem_at(L, v->start_mark,
                       "severity of rule '%s' must be error, warning or off "
                       "(got %s)",
                       show(L, id, k->data.scalar.length), describe(L, v));
            ok = false;
        }
        if (ok) {
            RuleSetting r = {
                .id = arena_strdup(L->c->arena, id),
                .severity = sev,
                .line = node_line(k),
            };
            VEC_PUSH(L->c->arena, &L->c->rules, r);
        }
    }
}

static void read_bool(Loader *L, const yaml_node_t *n, const char *key,
                      bool *out)
{
    const char *v = n->type == YAML_SCALAR_NODE && !has_nul(n) ? scalar_text(n) : "";
    if (!strcasecmp(v, "true") || !strcasecmp(v, "yes"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "no"))
        *out = false;
    else
        problem_at(L, n->start_mark, "'%s' must be true or false (got %s)", key,
                   describe(L, n));
}

static void read_max_key_components(Loader *L, const yaml_node_t *n)
{
    if (n->type == YAML_SCALAR_NODE && !has_nul(n)) {
        const char *s = scalar_text(n);
        uint64_t v = 0;
        size_t i = 0;
        for (; s[i] >= '0' && s[i] <= '9' && v <= UINT32_MAX; i++)
            v = v * 10 + (uint64_t)(s[i] - '0');
        if (i > 0 && !s[i] && v >= 1 && v <= UINT32_MAX) {
            L->c->max_key_components = (uint32_t)v;
            return;
        }
    }
    problem_at(L, n->start_mark,
               "'max-key-components' must be a positive integer (got %s)",
               describe(L, n));
}

enum TopKey {
    K_SEPARATOR,
    K_VERSION_SEPARATOR,
    K_TENANT,
    K_MUTABLE_FIELDS,
    K_KEY_ATTRIBUTES,
    K_SCHEMAS,
    K_TABLES,
    K_SCAN_ALLOWED,
    K_ACCESS_PATTERNS,
    K_RULES,
    K_IGNORE,
    K_MAX_KEY_COMPONENTS,
    K_WRAPPERS,
    K_REQUIRE_SUPPRESSION_REASON,
    K_OVERRIDES,
    K_COUNT
};

static const char *const top_keys[K_COUNT + 1] = {
    [K_SEPARATOR] = "separator",
    [K_VERSION_SEPARATOR] = "version-separator",
    [K_TENANT] = "tenant",
    [K_MUTABLE_FIELDS] = "mutable-fields",
    [K_KEY_ATTRIBUTES] = "key-attributes",
    [K_SCHEMAS] = "schemas",
    [K_TABLES] = "tables",
    [K_SCAN_ALLOWED] = "scan-allowed",
    [K_ACCESS_PATTERNS] = "access-patterns",
    [K_RULES] = "rules",
    [K_IGNORE] = "ignore",
    [K_MAX_KEY_COMPONENTS] = "max-key-components",
    [K_WRAPPERS] = "wrappers",
    [K_REQUIRE_SUPPRESSION_REASON] = "require-suppression-reason",
    [K_OVERRIDES] = "overrides",
    [K_COUNT] = NULL,
};

/* The keys an `overrides:` entry takes: `files`, and the settings that can
 * differ from file to file (not schemas, access patterns, ignore). */
static const char *const override_keys[] = {
    "files", "separator", "version-separator", "tenant", "mutable-fields",
    "key-attributes", "tables", "scan-allowed", "rules", "max-key-components",
    "wrappers", "require-suppression-reason", NULL,
};

static void read_top(Loader *L, int key, yaml_node_t *v);

/* `overrides:`: a list of mappings, each `files` (globs) and settings.
 * Checked when the file is read (settings into a scratch Config); applied
 * by config_derive for the entries of L->apply, in order, after the rest
 * of the file. */
static void read_overrides(Loader *L, yaml_node_t *n)
{
    if (is_null(n))
        return;
    if (n->type != YAML_SEQUENCE_NODE) {
        problem_at(L, n->start_mark, "'overrides' must be a list of mappings (got %s)",
                   describe(L, n));
        return;
    }
    size_t idx = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++, idx++) {
        yaml_node_t *item = get_node(L, *it);
        if (!item)
            continue;
        if (item->type != YAML_MAPPING_NODE) {
            problem_at(L, item->start_mark,
                       "'overrides' entry %zu must be a mapping with 'files' (got %s)",
                       idx + 1, describe(L, item));
            continue;
        }
        if (idx >= CONFIG_MAX_OVERRIDES) {
            problem_at(L, item->start_mark, "more than %d 'overrides' entries",
                       CONFIG_MAX_OVERRIDES);
            return;
        }
        bool apply = L->apply >> idx & 1;
        Config *scratch = L->apply ? NULL : config_new();
        Config *target = L->c;
        ConfigOverride ov = {.line = node_line(item)};
        uint32_t seen[sizeof override_keys / sizeof *override_keys] = {0};
        const char *where = arena_printf(L->c->arena, "in 'overrides' entry %zu", idx + 1);
        FOR_PAIRS (pair, item) {
            yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
            if (!k || !v)
                continue;
            int ki = lookup_key(L, k, override_keys, seen, where);
            if (ki < 0)
                continue;
            if (ki == 0) {
                read_globs(L, v, "overrides.files", &ov.files);
                continue;
            }
            if (!apply && !scratch)
                continue;
            int top = 0;
            while (top_keys[top] && strcmp(top_keys[top], override_keys[ki]))
                top++;
            L->c = apply ? target : scratch;
            read_top(L, top, v);
            L->c = target;
        }
        if (!seen[0])
            problem_at(L, item->start_mark, "'overrides' entry %zu has no 'files'", idx + 1);
        config_free(scratch);
        VEC_PUSH(L->c->arena, &L->c->overrides, ov);
    }
}


/* One top-level setting (also one of an `overrides:` entry) into L->c. */
static void read_top(Loader *L, int key, yaml_node_t *v)
{
    Config *c = L->c;
    switch ((enum TopKey)key) {
    case K_SEPARATOR:
        read_separator(L, v, "separator", &c->separator, &L->separator);
        break;
    case K_VERSION_SEPARATOR:
        read_separator(L, v, "version-separator", &c->version_separator,
                       &L->version_separator);
        break;
    case K_TENANT:
        read_tenant(L, v);
        break;
    case K_MUTABLE_FIELDS:
        read_list(L, v, "mutable-fields", &c->mutable_fields);
        break;
    case K_KEY_ATTRIBUTES:
        read_key_attributes(L, v);
        break;
    case K_SCHEMAS:
        read_list(L, v, "schemas", &c->schemas);
        c->schemas_given = true;
        break;
    case K_TABLES:
        read_tables(L, v);
        break;
    case K_SCAN_ALLOWED:
        c->scan_allowed.n = 0; /* replaces the defaults */
        read_globs(L, v, "scan-allowed", &c->scan_allowed);
        break;
    case K_ACCESS_PATTERNS:
        read_access_patterns(L, v);
        break;
    case K_RULES:
        read_rules(L, v);
        break;
    case K_IGNORE:
        /* extends the defaults; `!pattern` takes files back */
        read_globs(L, v, "ignore", &c->ignore);
        break;
    case K_MAX_KEY_COMPONENTS:
        read_max_key_components(L, v);
        break;
    case K_WRAPPERS:
        read_wrappers(L, v);
        break;
    case K_REQUIRE_SUPPRESSION_REASON:
        read_bool(L, v, "require-suppression-reason",
                  &c->require_suppression_reason);
        break;
    case K_COUNT:
    default:
        break;
    }
}

static void read_root(Loader *L, yaml_node_t *root)
{
    Config *c = L->c;
    if (root->type != YAML_MAPPING_NODE) {
        if (!is_null(root))
            problem_at(L, root->start_mark,
                       "the top level of %s must be a mapping of keys to "
                       "values (got %s)",
                       L->name, describe(L, root));
        return;
    }
    const char *where = arena_printf(c->arena, "in %s", L->name);
    uint32_t seen[K_COUNT] = {0};
    FOR_PAIRS (pair, root) {
        yaml_node_t *k = get_node(L, pair->key), *v = get_node(L, pair->value);
        if (!k || !v)
            continue;
        int key = lookup_key(L, k, top_keys, seen, where);
        if (key == K_OVERRIDES)
            L->overrides = v; /* read last: it applies over the rest */
        else if (key >= 0)
            read_top(L, key, v);
    }
    if (L->overrides)
        read_overrides(L, L->overrides);
    if ((L->separator || L->version_separator) &&
        !strcmp(c->separator, c->version_separator)) {
        yaml_node_t *at =
            L->version_separator ? L->version_separator : L->separator;
        problem_at(L, at->start_mark,
                   "'separator' and 'version-separator' must be different "
                   "characters (both are '%s')",
                   c->separator);
    }
}

/* Report a libyaml parser failure. `buf` is the raw input, for positions of
 * reader (encoding) errors, which only carry a byte offset. */
static void yaml_failure(Loader *L, const yaml_parser_t *p, const char *buf,
                         size_t len)
{
    switch (p->error) {
    case YAML_READER_ERROR: {
        size_t off = p->problem_offset < len ? p->problem_offset : len;
        uint32_t line = 1, col = 1;
        for (size_t i = 0; i < off; i++) {
            if (buf[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        if (p->problem_value >= 0)
            problems_add_kind(L->problems, PROBLEM_CONFIG, L->path, line, col,
                         "cannot read %s as YAML text: %s (byte 0x%02X at "
                         "offset %zu)",
                         L->name, p->problem ? p->problem : "invalid input",
                         (unsigned)p->problem_value, p->problem_offset);
        else
            problems_add_kind(L->problems, PROBLEM_CONFIG, L->path, line, col,
                         "cannot read %s as YAML text: %s (at offset %zu)",
                         L->name, p->problem ? p->problem : "invalid input",
                         p->problem_offset);
        break;
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    case YAML_COMPOSER_ERROR: {
        const char *problem = p->problem ? p->problem : "invalid YAML";
        if (p->context)
            problems_add_kind(L->problems, PROBLEM_CONFIG, L->path,
                         (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1,
                         "YAML syntax error: %s (%s on line %zu)", problem,
                         p->context, p->context_mark.line + 1);
        else
            problems_add_kind(L->problems, PROBLEM_CONFIG, L->path,
                         (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1,
                         "YAML syntax error: %s", problem);
        break;
    }
    case YAML_MEMORY_ERROR:
        problems_add_kind(L->problems, PROBLEM_CONFIG, L->path, 0, 0,
                     "out of memory while reading %s", L->name);
        break;
    default:
        problems_add_kind(L->problems, PROBLEM_CONFIG, L->path, 0, 0, "cannot parse %s as YAML",
                     L->name);
        break;
    }
    L->errors++;
}

Config *config_load(const char *path, const char *const *known_rules,
                    Problems *problems)
{
    size_t len = 0;
    const char *slash = strrchr(path, '/');
    const char *name = slash && slash[1] ? slash + 1 : path;

    /* a regular file of at most 8 MiB: a FIFO is never waited on, a
     * device never read (/dev/zero) */
    FileRead how;
    char *buf = file_read(path, KEYLINT_MAX_FILE_BYTES, true, &len, &how);
    if (!buf) {
        const char *why = how.status == FILE_READ_DIR         ? strerror(EISDIR)
                          : how.what                          ? how.what
                          : how.status == FILE_READ_TOO_LARGE ? "larger than 8 MiB"
                                                              : strerror(how.err);
        problems_add_kind(problems, PROBLEM_CONFIG, path, 0, 0, "cannot read %s: %s", path, why);
        return NULL;
    }

    Config *c = config_new();
    c->path = arena_strdup(c->arena, path);
    c->known_rules = known_rules;
    char *dir = dir_of(path);
    c->dir = arena_strdup(c->arena, dir ? dir : "");
    free(dir);

    Loader L = {
        .c = c,
        .problems = problems,
        .path = path,
        .name = arena_strdup(c->arena, name),
        .known_rules = known_rules,
    };

    size_t deep_line, deep_col;
    if (!yaml_depth_ok(buf, len, &deep_line, &deep_col)) {
        problems_add_kind(problems, PROBLEM_CONFIG, path, (uint32_t)deep_line, (uint32_t)deep_col,
                          "%s nests mappings and sequences more than %d deep; not read", name,
                          YAML_MAX_DEPTH);
        free(buf);
        config_free(c);
        return NULL;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        problems_add_kind(problems, PROBLEM_CONFIG, path, 0, 0, "out of memory while reading %s",
                     name);
        free(buf);
        config_free(c);
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);

    yaml_document_t doc;
    if (!yaml_parser_load(&parser, &doc)) {
        yaml_failure(&L, &parser, buf, len);
    } else {
        L.doc = &doc;
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root)
            read_root(&L, root);
        yaml_document_delete(&doc);
        L.doc = NULL;
        if (root) {
            /* A stream of several documents is a mistake, not a config. */
            if (!yaml_parser_load(&parser, &doc)) {
                yaml_failure(&L, &parser, buf, len);
            } else {
                yaml_node_t *next = yaml_document_get_root_node(&doc);
                if (next)
                    problem_at(&L, doc.start_mark,
                               "%s must hold a single YAML document", name);
                yaml_document_delete(&doc);
            }
        }
    }
    yaml_parser_delete(&parser);
    if (!L.errors && c->overrides.n) { /* config_derive reads it again */
        c->text = arena_strndup(c->arena, buf, len);
        c->text_len = len;
    }
    free(buf);

    if (L.errors) {
        config_free(c);
        return NULL;
    }
    return c;
}

const Config *config_root(const Config *c)
{
    return c && c->base ? c->base : c;
}

uint64_t config_override_mask(const Config *c, const char *abs)
{
    uint64_t mask = 0;
    for (size_t i = 0; c && abs && i < c->overrides.n && i < CONFIG_MAX_OVERRIDES; i++)
        if (c->overrides.v[i].files.n && abs_path_matches(c, &c->overrides.v[i].files, abs))
            mask |= (uint64_t)1 << i;
    return mask;
}

Config *config_derive(const Config *base, uint64_t mask, Problems *problems)
{
    if (!base || !base->text)
        return NULL;
    Config *c = config_new();
    c->path = arena_strdup(c->arena, base->path);
    c->dir = arena_strdup(c->arena, base->dir);
    c->base = base;
    c->known_rules = base->known_rules;
    const char *slash = strrchr(base->path, '/');
    Loader L = {
        .c = c,
        .apply = mask,
        .problems = problems,
        .path = c->path,
        .name = slash && slash[1] ? slash + 1 : c->path,
        .known_rules = base->known_rules,
    };
    yaml_parser_t parser;
    yaml_document_t doc;
    bool ok = yaml_parser_initialize(&parser);
    if (ok) {
        yaml_parser_set_input_string(&parser, (const unsigned char *)base->text, base->text_len);
        ok = yaml_parser_load(&parser, &doc);
        if (ok) {
            L.doc = &doc;
            yaml_node_t *root = yaml_document_get_root_node(&doc);
            if (root)
                read_root(&L, root);
            yaml_document_delete(&doc);
        }
        yaml_parser_delete(&parser);
    }
    if (!ok || L.errors) {
        config_free(c);
        return NULL;
    }
    return c;
}
