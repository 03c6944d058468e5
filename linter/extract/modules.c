#include "modules.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "common.h"
#include "syntax.h"
#include "walk.h"


enum { MAX_EXTENDS = 8, MAX_TSCONFIG_BYTES = 1 << 20 };

typedef struct PathRule {
    const char *pattern;  /* e.g. "@keys/" followed by a star */
    const char **targets; /* absolute, with at most one star */
    size_t ntargets;
} PathRule;

typedef struct TsConfig {
    const char *dir;      /* the directory looked up */
    bool found;
    VEC(PathRule) rules;
} TsConfig;

typedef struct Package {
    const char *name;     /* "@acme/shared" */
    const char *dir;      /* its directory, absolute */
    const char *entries[4]; /* source, types, main, module as written */
} Package;

typedef struct Entry {
    const char *path;
    size_t file;
} Entry;

/* What module resolution reads of the file system (modules.h): the
 * tsconfig of each directory and the workspace packages. */
struct ModuleEnv {
    Arena *a;
    VEC(TsConfig) tsconfigs;      /* cache, per directory */
    NameMap tsconfig_at;          /* directory -> its tsconfigs entry */
    VEC(Package) packages;
    NameMap package_dirs;         /* directories whose package.json was read */
};

struct ModuleMap {
    Arena *a;
    Entry *files; /* sorted by path */
    size_t n;
    const char *const *abspaths;
    ModuleEnv *env;               /* the caller's, or owned (own_env) */
    bool own_env;
    bool packages_scanned;        /* the ancestors of this map's files */
    /* What resolve answered, by the importing file's directory and the
     * specifier (all it depends on): "<length of dir>:<dir><spec>" -> the
     * file + 1, or 0. A pass asks the same of many files ('./keys' from
     * every service in a directory). */
    NameMap answers;
    const char **dirs; /* dir_of each file, when first asked */
    char *key;         /* the key being looked up (malloc'd) */
    size_t key_cap;
};

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const Entry *)a)->path, ((const Entry *)b)->path);
}

static long find_file(const ModuleMap *m, const char *path)
{
    Entry key = {path, 0};
    Entry *e = bsearch(&key, m->files, m->n, sizeof *m->files, entry_cmp);
    return e ? (long)e->file : -1;
}

ModuleEnv *modenv_new(void)
{
    ModuleEnv *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    e->a = arena_new();
    return e;
}

void modenv_free(ModuleEnv *e)
{
    if (!e)
        return;
    arena_free(e->a);
    free(e);
}

ModuleMap *modmap_new(const char *const *abspaths, size_t n)
{
    return modmap_new_in(abspaths, n, NULL);
}

ModuleMap *modmap_new_in(const char *const *abspaths, size_t n, ModuleEnv *env)
{
    ModuleMap *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->own_env = env == NULL;
    m->env = env ? env : modenv_new();
    m->a = arena_new();
    m->abspaths = abspaths;
    m->n = n;
    m->files = arena_alloc(m->a, (n ? n : 1) * sizeof *m->files);
    m->dirs = arena_alloc(m->a, (n ? n : 1) * sizeof *m->dirs);
    for (size_t i = 0; i < n; i++)
        m->files[i] = (Entry){abspaths[i], i};
    qsort(m->files, n, sizeof *m->files, entry_cmp);
    return m;
}

void modmap_free(ModuleMap *m)
{
    if (!m)
        return;
    arena_free(m->a);
    if (m->own_env)
        modenv_free(m->env);
    free(m->key);
    free(m);
}

/* ---- paths ------------------------------------------------------------- */

/* Normalise "a/b/../c/./d" in place. */
static void normalise(char *p)
{
    bool abs = *p == '/';
    char *w = p + (abs ? 1 : 0);
    char *r = w, *out = w;
    while (*r) {
        char *seg = r;
        while (*r && *r != '/')
            r++;
        size_t len = (size_t)(r - seg);
        if (len == 0 || (len == 1 && seg[0] == '.')) {
            /* skip */
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            if (out > w) {
                out--;
                while (out > w && out[-1] != '/')
                    out--;
            }
        } else {
            if (out > w && out[-1] != '/')
                *out++ = '/';
            memmove(out, seg, len);
            out += len;
        }
        if (*r == '/')
            r++;
    }
    if (out > w && out[-1] == '/')
        out--;
    *out = '\0';
}

static char *join(Arena *a, const char *dir, const char *rel)
{
    char *p = rel[0] == '/' ? arena_strdup(a, rel) : arena_printf(a, "%s/%s", dir, rel);
    normalise(p);
    return p;
}

static char *dir_of(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(a, path, slash == path ? 1 : (size_t)(slash - path))
                 : arena_strdup(a, ".");
}

/* A module path without extension to a project file, the way TypeScript
 * looks: exact, with an extension, the .ts behind a .js, index files. */
static long probe(const ModuleMap *m, const char *base)
{
    static const char *const jsext[] = {".js", ".jsx", ".mjs", ".cjs"};
    static const char *const tsfor[] = {".ts", ".tsx", ".mts", ".cts"};
    static const char *const suffixes[] = {
        "", ".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs",
        "/index.ts", "/index.tsx", "/index.js", "/index.jsx", "/index.mjs"};
    size_t bl = strlen(base);
    char *buf = malloc(bl + 16);
    if (!buf)
        return -1;
    long hit = -1;
    for (size_t i = 0; i < 4 && hit < 0; i++) {
        size_t el = strlen(jsext[i]);
        if (bl > el && !strcmp(base + bl - el, jsext[i])) {
            memcpy(buf, base, bl - el);
            strcpy(buf + bl - el, tsfor[i]);
            hit = find_file(m, buf);
        }
    }
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes && hit < 0; i++) {
        memcpy(buf, base, bl);
        strcpy(buf + bl, suffixes[i]);
        hit = find_file(m, buf);
    }
    free(buf);
    return hit;
}

static char *read_small(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(MAX_TSCONFIG_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_TSCONFIG_BYTES, f) : 0;
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- tsconfig.json ------------------------------------------------------- */

/* tsconfig is JSON with comments and trailing commas: a JavaScript object
 * literal, which the TypeScript grammar reads as `(<text>)`. */
static void tsconfig_read(ModuleEnv *m, TsConfig *tc, const char *path, int depth)
{
    size_t len;
    char *text = read_small(path, &len);
    if (!text)
        return;
    char *wrapped = arena_printf(m->a, "(%s\n)", text);
    free(text);
    SynTree *st = syn_parse(wrapped, strlen(wrapped), SYN_TYPESCRIPT, m->a, NULL);
    if (!st)
        return;
    tc->found = true;
    SynNode root = syn_root(st);
    SynNode obj = syn_unwrap(st, syn_child(st, syn_child(st, root, 0), 0));
    const char *dir = dir_of(m->a, path);
    const char *s;
    /* extends: rules of the base first; ours replace them */
    SynNode ext = {0}, opts = {0};
    for (uint32_t i = 0; syn_is(obj, "object") && i < syn_count(st, obj); i++) {
        SynNode p = syn_child(st, obj, i);
        SynNode k = syn_field(st, p, "key");
        if (!syn_is(p, "pair") || !syn_string_value(st, k, &s))
            continue;
        if (!strcmp(s, "extends"))
            ext = syn_field(st, p, "value");
        else if (!strcmp(s, "compilerOptions"))
            opts = syn_field(st, p, "value");
    }
    if (!syn_null(ext) && syn_string_value(st, ext, &s) && depth < MAX_EXTENDS &&
        s[0] == '.') {
        const char *base = join(m->a, dir, s);
        if (!strstr(base + strlen(base) - 5, ".json"))
            base = arena_printf(m->a, "%s.json", base);
        tsconfig_read(m, tc, base, depth + 1);
    }
    const char *base_url = dir;
    SynNode paths = {0};
    for (uint32_t i = 0; syn_is(opts, "object") && i < syn_count(st, opts); i++) {
        SynNode p = syn_child(st, opts, i);
        if (!syn_is(p, "pair") || !syn_string_value(st, syn_field(st, p, "key"), &s))
            continue;
        if (!strcmp(s, "baseUrl") && syn_string_value(st, syn_field(st, p, "value"), &s))
            base_url = join(m->a, dir, s);
        else if (!strcmp(s, "paths"))
            paths = syn_field(st, p, "value");
    }
    for (uint32_t i = 0; syn_is(paths, "object") && i < syn_count(st, paths); i++) {
        SynNode p = syn_child(st, paths, i);
        SynNode v = syn_field(st, p, "value");
        if (!syn_is(p, "pair") || !syn_string_value(st, syn_field(st, p, "key"), &s) ||
            !syn_is(v, "array"))
            continue;
        PathRule r = {.pattern = s};
        uint32_t cnt = syn_count(st, v);
        r.targets = arena_alloc(m->a, (cnt + 1) * sizeof *r.targets);
        for (uint32_t j = 0; j < cnt; j++)
            if (syn_string_value(st, syn_child(st, v, j), &s))
                r.targets[r.ntargets++] = join(m->a, base_url, s);
        /* a later definition of the same pattern replaces the base's */
        bool replaced = false;
        for (size_t k = 0; k < tc->rules.n; k++)
            if (!strcmp(tc->rules.v[k].pattern, r.pattern)) {
                tc->rules.v[k] = r;
                replaced = true;
            }
        if (!replaced)
            VEC_PUSH(m->a, &tc->rules, r);
    }
    syn_free(st);
}

/* The nearest tsconfig.json of a directory (cached per directory). */
static const TsConfig *tsconfig_for(ModuleEnv *m, const char *dir)
{
    size_t at;
    if (namemap_get(&m->tsconfig_at, dir, &at))
        return &m->tsconfigs.v[at];
    TsConfig tc = {.dir = arena_strdup(m->a, dir)};
    char *probe_path = arena_printf(m->a, "%s/tsconfig.json", dir);
    FILE *f = fopen(probe_path, "rb");
    if (f) {
        fclose(f);
        tsconfig_read(m, &tc, probe_path, 0);
    } else if (strcmp(dir, "/") && strchr(dir, '/')) {
        const TsConfig *up = tsconfig_for(m, dir_of(m->a, dir));
        tc.found = up->found;
        tc.rules.v = up->rules.v;
        tc.rules.n = up->rules.n;
        tc.rules.cap = up->rules.n;
    }
    VEC_PUSH(m->a, &m->tsconfigs, tc);
    namemap_put(m->a, &m->tsconfig_at, tc.dir, m->tsconfigs.n - 1);
    return &m->tsconfigs.v[m->tsconfigs.n - 1];
}

static long via_paths(ModuleMap *m, size_t from, const char *spec)
{
    const TsConfig *tc = tsconfig_for(m->env, m->dirs[from]);
    for (size_t i = 0; i < tc->rules.n; i++) {
        const PathRule *r = &tc->rules.v[i];
        const char *star = strchr(r->pattern, '*');
        size_t pre = star ? (size_t)(star - r->pattern) : strlen(r->pattern);
        const char *post = star ? star + 1 : "";
        size_t sl = strlen(spec), pl = strlen(post);
        if (strncmp(spec, r->pattern, pre))
            continue;
        if (!star && strcmp(spec, r->pattern))
            continue;
        if (star && (sl < pre + pl || strcmp(spec + sl - pl, post)))
            continue;
        const char *middle = star ? arena_strndup(m->a, spec + pre, sl - pre - pl) : "";
        for (size_t t = 0; t < r->ntargets; t++) {
            const char *target = r->targets[t];
            const char *ts = strchr(target, '*');
            const char *path = ts ? arena_printf(m->a, "%.*s%s%s", (int)(ts - target), target,
                                                 middle, ts + 1)
                                  : target;
            long hit = probe(m, path);
            if (hit >= 0)
                return hit;
        }
    }
    return -1;
}

/* ---- workspace packages -------------------------------------------------- */

static void read_package(ModuleEnv *m, const char *dir)
{
    const char *path = arena_printf(m->a, "%s/package.json", dir);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        return;
    const char *name = json_string_value(json_object_get(root, "name"));
    if (name) {
        Package p = {.name = arena_strdup(m->a, name), .dir = arena_strdup(m->a, dir)};
        static const char *const keys[] = {"source", "types", "main", "module"};
        for (size_t i = 0; i < 4; i++) {
            const char *v = json_string_value(json_object_get(root, keys[i]));
            p.entries[i] = v ? arena_strdup(m->a, v) : NULL;
        }
        VEC_PUSH(m->a, &m->packages, p);
    }
    json_decref(root);
}

/* Every package.json in an ancestor directory of a project file, once
 * per environment (a directory read for an earlier map is not read
 * again). */
static void scan_packages(ModuleMap *m)
{
    if (m->packages_scanned)
        return;
    m->packages_scanned = true;
    ModuleEnv *e = m->env;
    for (size_t i = 0; i < m->n; i++) {
        char *dir = dir_of(m->a, m->abspaths[i]);
        for (int up = 0; up < 64 && strcmp(dir, "/") && strchr(dir, '/'); up++) {
            size_t had;
            if (namemap_get(&e->package_dirs, dir, &had))
                break;
            namemap_put(e->a, &e->package_dirs, arena_strdup(e->a, dir), 0);
            read_package(e, dir);
            dir = dir_of(m->a, dir);
        }
    }
}

/* A package's entry as a source file: the entry itself, its TypeScript
 * twin, or src/ in place of dist/ / lib/ / build/. */
static long package_entry(ModuleMap *m, const Package *p)
{
    for (size_t i = 0; i < 4; i++) {
        const char *e = p->entries[i];
        if (!e)
            continue;
        char *path = join(m->a, p->dir, e);
        /* x.d.ts -> x.ts; dist/x.js -> src/x.ts */
        size_t l = strlen(path);
        if (l > 5 && !strcmp(path + l - 5, ".d.ts"))
            strcpy(path + l - 5, ".ts");
        long hit = probe(m, path);
        if (hit >= 0)
            return hit;
        static const char *const outs[] = {"/dist/", "/lib/", "/build/", "/out/"};
        for (size_t o = 0; o < 4; o++) {
            char *at = strstr(path, outs[o]);
            if (!at)
                continue;
            char *alt = arena_printf(m->a, "%.*s/src/%s", (int)(at - path), path,
                                     at + strlen(outs[o]));
            hit = probe(m, alt);
            if (hit >= 0)
                return hit;
        }
    }
    long hit = probe(m, arena_printf(m->a, "%s/src/index", p->dir));
    return hit >= 0 ? hit : probe(m, arena_printf(m->a, "%s/index", p->dir));
}

static long via_packages(ModuleMap *m, const char *spec)
{
    scan_packages(m);
    const Package *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < m->env->packages.n; i++) {
        const Package *p = &m->env->packages.v[i];
        size_t l = strlen(p->name);
        if (!strncmp(spec, p->name, l) && (spec[l] == '\0' || spec[l] == '/') && l > best_len) {
            best = p;
            best_len = l;
        }
    }
    if (!best)
        return -1;
    if (!spec[best_len])
        return package_entry(m, best);
    const char *sub = spec + best_len + 1;
    long hit = probe(m, arena_printf(m->a, "%s/%s", best->dir, sub));
    return hit >= 0 ? hit : probe(m, arena_printf(m->a, "%s/src/%s", best->dir, sub));
}

/* `require('/opt/dynamodb')`, `/opt/nodejs/utils`: a module of an AWS
 * Lambda layer, which the runtime mounts at /opt (Node.js layers under
 * /opt/nodejs). The project file whose path ends in the rest of the
 * specifier (with an extension or /index), when exactly one does, or
 * exactly one of those under a directory named like a layer. */
static long via_layer(ModuleMap *m, const char *spec)
{
    const char *rest = spec + strlen("/opt/");
    if (!strncmp(rest, "nodejs/", 7))
        rest += 7;
    if (!strncmp(rest, "node_modules/", 13))
        return via_packages(m, rest + 13);
    static const char *const suffixes[] = {
        ".js", ".ts", ".mjs", ".cjs", "/index.js", "/index.ts", "/index.mjs"};
    size_t rl = strlen(rest);
    long hit = -1, layer_hit = -1;
    size_t hits = 0, layer_hits = 0;
    for (size_t i = 0; i < m->n && rl; i++) {
        const char *path = m->abspaths[i];
        size_t pl = strlen(path);
        for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
            size_t sl = strlen(suffixes[k]);
            if (pl < rl + sl + 1 || strcmp(path + pl - sl, suffixes[k]) ||
                strncmp(path + pl - sl - rl, rest, rl) || path[pl - sl - rl - 1] != '/')
                continue;
            hit = (long)i;
            hits++;
            if (strstr(path, "layer") || strstr(path, "Layer")) {
                layer_hit = (long)i;
                layer_hits++;
            }
            break;
        }
    }
    if (hits == 1)
        return hit;
    return layer_hits == 1 ? layer_hit : -1;
}

static long resolve(ModuleMap *m, size_t from, const char *spec)
{
    if (!strncmp(spec, "/opt/", 5))
        return via_layer(m, spec);
    if (spec[0] == '.' || spec[0] == '/')
        return probe(m, join(m->a, m->dirs[from], spec));
    long hit = via_paths(m, from, spec);
    return hit >= 0 ? hit : via_packages(m, spec);
}

long modmap_resolve(ModuleMap *m, size_t from, const char *spec)
{
    if (!spec || !*spec || from >= m->n)
        return -1;
    if (!m->dirs[from])
        m->dirs[from] = dir_of(m->a, m->abspaths[from]);
    size_t dl = strlen(m->dirs[from]), sl = strlen(spec);
    if (dl + sl + 24 > m->key_cap) {
        m->key_cap = 2 * (dl + sl + 24);
        free(m->key);
        m->key = malloc(m->key_cap);
        if (!m->key)
            abort();
    }
    /* the directory's length first: no two pairs make the same key */
    size_t w = 0;
    for (size_t v = dl;; v /= 10) { /* the digits, lowest first: a key only */
        m->key[w++] = (char)('0' + v % 10);
        if (v < 10)
            break;
    }
    m->key[w++] = ':';
    memcpy(m->key + w, m->dirs[from], dl);
    memcpy(m->key + w + dl, spec, sl + 1);
    size_t known;
    if (namemap_get(&m->answers, m->key, &known))
        return (long)known - 1;
    long hit = resolve(m, from, spec);
    namemap_put(m->a, &m->answers, arena_strdup(m->a, m->key), (size_t)(hit + 1));
    return hit;
}
