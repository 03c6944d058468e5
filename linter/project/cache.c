#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_ir.h"
#include "defer.h"
#include "extract.h"
#include "files.h"
#include "precheck.h"

enum {
    CACHE_FORMAT = 1,
    /* entries ignored that get a note each; the rest are counted */
    NOTES_NAMED = 10,
};

/* An entry is the IR of one source file: far below this. */
#define ENTRY_MAX ((size_t)256 << 20)

struct Cache {
    Arena *arena;       /* dir, root, the notes' strings, `used` */
    const char *dir, *root;
    bool off;           /* nothing read nor written */
    bool no_write;      /* entries are read, none written */
    pthread_mutex_t lock;
    Problems notes;     /* under lock */
    NameMap used;       /* entries looked up or written this run (under lock) */
    CacheCounts n;      /* under lock */
    bool counted;       /* the note of entries ignored past NOTES_NAMED is made */
};

/* A 128-bit hash of s[0..n), as 32 hex digits: two independent 64-bit
 * hashes (hash_bytes, FNV-1a), each over the length and the bytes. */
static void hash_hex(const void *s, size_t n, char out[33])
{
    uint64_t fnv = 0xcbf29ce484222325u ^ n;
    const unsigned char *p = s;
    for (size_t i = 0; i < n; i++)
        fnv = (fnv ^ p[i]) * 0x100000001b3u;
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)hash_bytes(s, n),
             (unsigned long long)fnv);
}

static void note(Cache *c, const char *path, const char *msg)
{
    pthread_mutex_lock(&c->lock);
    problems_add_kind(&c->notes, PROBLEM_NOTE, path, 0, 0, "%s", msg);
    pthread_mutex_unlock(&c->lock);
}

/* mkdir -p */
static bool make_dirs(Arena *a, const char *dir)
{
    char *d = arena_strdup(a, dir);
    for (char *s = d + 1;; s++) {
        if (*s == '/' || !*s) {
            char was = *s;
            *s = '\0';
            if (mkdir(d, 0777) != 0 && errno != EEXIST)
                return false;
            *s = was;
            if (!was)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0)
        return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

/* Write dir/name with `text` unless it exists. */
static bool ensure_file(Arena *a, const char *dir, const char *name, const char *text,
                        const char **why)
{
    const char *path = arena_printf(a, "%s/%s", dir, name);
    if (access(path, F_OK) == 0)
        return true;
    return file_replace(path, text, strlen(text), a, why);
}

Cache *cache_open(const char *dir, const char *root)
{
    Cache *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->arena = arena_new();
    c->dir = arena_strdup(c->arena, dir);
    c->root = arena_strdup(c->arena, root);
    pthread_mutex_init(&c->lock, NULL);
    problems_init(&c->notes);
    const char *why = NULL;
    if (!make_dirs(c->arena, dir)) {
        note(c, dir, arena_printf(c->arena, "cache directory cannot be made (%s): the run "
                                            "goes on without the cache",
                                  strerror(errno)));
        c->off = true;
        return c;
    }
    /* git, and backup tools (https://bford.info/cachedir/), pass it by */
    if (!ensure_file(c->arena, dir, ".gitignore",
                     "# written by keylint: its cache between runs (--cache-dir)\n*\n", &why) ||
        !ensure_file(c->arena, dir, "CACHEDIR.TAG",
                     "Signature: 8a477f597d28d172789f06886806bc55\n"
                     "# This file is a cache directory tag created by keylint.\n",
                     &why) ||
        access(dir, W_OK) != 0) {
        note(c, dir, arena_printf(c->arena, "cache directory cannot be written (%s): "
                                            "entries are read, none written",
                                  why ? why : strerror(errno ? errno : EACCES)));
        c->no_write = true;
    }
    return c;
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    problems_free(&c->notes);
    pthread_mutex_destroy(&c->lock);
    arena_free(c->arena);
    free(c);
}

const char *cache_root(const Cache *c)
{
    return c->root;
}

bool cache_key(const Cache *c, const SourceFile *f, const char *text, size_t len, CacheKey *k)
{
    if (c->off)
        return false;
    const char *abs = f->abspath ? f->abspath : f->path;
    size_t rl = strlen(c->root);
    const char *rel = abs;
    if (!strcmp(c->root, "/") && abs[0] == '/')
        rel = abs + 1;
    else if (!strncmp(abs, c->root, rl) && abs[rl] == '/')
        rel = abs + rl + 1;
    k->rel = strdup(rel);
    if (!k->rel)
        abort();
    char h[33];
    hash_hex(rel, strlen(rel), h);
    snprintf(k->entry, sizeof k->entry, "%s.json", h);
    hash_hex(text, len, k->content);
    snprintf(k->config, sizeof k->config, "%016llx",
             (unsigned long long)extract_config_hash(f->config));
    return true;
}

void cache_key_free(CacheKey *k)
{
    free(k->rel);
    k->rel = NULL;
}

/* ---- reading an entry ----------------------------------------------------- */

static StrList note_list(Arena *a, const json_t *j, bool *ok)
{
    StrList l = {0};
    if (j && !json_is_array(j))
        *ok = false;
    for (size_t i = 0; i < json_array_size(j); i++) {
        const char *s = json_string_value(json_array_get(j, i));
        if (!s)
            *ok = false;
        else
            strlist_push(a, &l, s);
    }
    return l;
}

/* The DeferNote an entry holds; NULL and *why when it is of the wrong
 * shape. */
static DeferNote *read_note(const json_t *j, const char **why)
{
    if (!json_is_object(j)) {
        *why = "no pre-check note";
        return NULL;
    }
    Arena *a = arena_new();
    bool ok = true;
    DeferNoteParts parts = {
        .lits = note_list(a, json_object_get(j, "lits"), &ok),
        .calls = note_list(a, json_object_get(j, "calls"), &ok),
        .imports = note_list(a, json_object_get(j, "imports"), &ok),
        .reexports = note_list(a, json_object_get(j, "reexports"), &ok),
        .default_import = json_is_true(json_object_get(j, "default_import")),
    };
    DeferNote *nt = ok ? defer_note_from_parts(&parts) : NULL;
    arena_free(a);
    if (!nt)
        *why = "a pre-check note of the wrong shape";
    return nt;
}

/* The problems an entry holds, added to `out` under `path`; false when
 * they are of the wrong shape (then none is added). */
static bool read_problems(const json_t *j, const char *path, Problems *out)
{
    if (j && !json_is_array(j))
        return false;
    for (size_t i = 0; i < json_array_size(j); i++) {
        const json_t *e = json_array_get(j, i);
        json_int_t kind, line, col;
        const char *msg;
        if (json_unpack((json_t *)e, "[IIIs]", &kind, &line, &col, &msg) != 0 || kind < 0 ||
            kind >= PROBLEM_KIND_COUNT || line < 0 || line > UINT32_MAX || col < 0 || col > UINT32_MAX)
            return false;
    }
    for (size_t i = 0; i < json_array_size(j); i++) {
        const json_t *e = json_array_get(j, i);
        problems_add_kind(out, (ProblemKind)json_integer_value(json_array_get(e, 0)), path,
                          (uint32_t)json_integer_value(json_array_get(e, 1)),
                          (uint32_t)json_integer_value(json_array_get(e, 2)), "%s",
                          json_string_value(json_array_get(e, 3)));
    }
    return true;
}

static void count(Cache *c, const CacheKey *k, size_t *counter)
{
    pthread_mutex_lock(&c->lock);
    (*counter)++;
    namemap_put(c->arena, &c->used, arena_strdup(c->arena, k->entry), 0);
    pthread_mutex_unlock(&c->lock);
}

/* An entry that is not what keylint writes: a note (the first few by
 * name), and a miss; the entry is written again. */
static bool ignored(Cache *c, const CacheKey *k, const SourceFile *f, const char *why)
{
    pthread_mutex_lock(&c->lock);
    size_t n = c->n.ignored++;
    pthread_mutex_unlock(&c->lock);
    if (n < NOTES_NAMED) {
        char msg[256];
        snprintf(msg, sizeof msg, "cache entry ignored: %s (%s); written again", why, k->entry);
        note(c, f->path, msg);
    }
    count(c, k, &c->n.misses);
    return false;
}

static bool miss(Cache *c, const CacheKey *k)
{
    count(c, k, &c->n.misses);
    return false;
}

bool cache_load(Cache *c, const CacheKey *k, SourceFile *f, bool precheck)
{
    Arena *a = arena_new();
    const char *path = arena_printf(a, "%s/%s", c->dir, k->entry);
    size_t len = 0;
    FileRead how;
    char *buf = file_read(path, ENTRY_MAX, true, &len, &how);
    arena_free(a);
    if (!buf)
        return how.status == FILE_READ_OPEN && how.err == ENOENT
                   ? miss(c, k)
                   : ignored(c, k, f, how.status == FILE_READ_TOO_LARGE ? "too large"
                                                                        : "cannot be read");
    json_error_t err;
    json_t *j = json_loadb(buf, len, 0, &err);
    free(buf);
    if (!j)
        return ignored(c, k, f, "not JSON (truncated or corrupt)");
    bool hit = false;
    const char *why = NULL;
    const json_t *set_aside = json_object_get(j, "set_aside");
    if (!json_is_object(j))
        why = "not a JSON object";
    else if (json_integer_value(json_object_get(j, "format")) != CACHE_FORMAT)
        why = "of another format";
    else if (!json_is_string(json_object_get(j, "keylint")) ||
             strcmp(json_string_value(json_object_get(j, "keylint")), KEYLINT_VERSION))
        why = "written by another version of keylint";
    else if (!json_is_string(json_object_get(j, "path")) ||
             strcmp(json_string_value(json_object_get(j, "path")), k->rel))
        why = "written for another path";
    else if (!json_is_string(json_object_get(j, "content")) ||
             !json_is_string(json_object_get(j, "config")) || !json_is_boolean(set_aside))
        why = "of the wrong shape";
    else if (strcmp(json_string_value(json_object_get(j, "content")), k->content) ||
             strcmp(json_string_value(json_object_get(j, "config")), k->config))
        ; /* the file or its configuration changed: an ordinary miss */
    else if (precheck && json_is_true(set_aside)) {
        DeferNote *nt = read_note(json_object_get(j, "note"), &why);
        if (nt) {
            f->deferred = true;
            f->note = nt;
            hit = true;
        }
    } else if (json_object_get(j, "ir")) {
        FileIR *ir = cache_ir_from_json(json_object_get(j, "ir"), f->path, &why);
        Problems probs;
        problems_init(&probs);
        if (ir && !read_problems(json_object_get(j, "problems"), f->path, &probs))
            why = "problems of the wrong shape";
        if (ir && !why) {
            for (size_t i = 0; i < probs.items.n; i++) {
                const Problem *p = &probs.items.v[i];
                problems_add_kind(&f->problems, p->kind, f->path, p->line, p->col, "%s",
                                  p->message);
            }
            f->ir = ir;
            f->deferred = false;
            hit = true;
        } else {
            fileir_free(ir);
        }
        problems_free(&probs);
    }
    json_decref(j);
    if (why)
        return ignored(c, k, f, why);
    if (!hit)
        return miss(c, k);
    count(c, k, &c->n.hits);
    return true;
}

/* ---- writing an entry ----------------------------------------------------- */

static json_t *strs(const StrList *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_string(l->v[i]));
    return a;
}

static json_t *note_json(const DeferNote *nt)
{
    DeferNoteParts p = defer_note_parts(nt);
    json_t *o = json_object();
    json_object_set_new(o, "lits", strs(&p.lits));
    json_object_set_new(o, "calls", strs(&p.calls));
    json_object_set_new(o, "imports", strs(&p.imports));
    json_object_set_new(o, "reexports", strs(&p.reexports));
    json_object_set_new(o, "default_import", json_boolean(p.default_import));
    return o;
}

void cache_store(Cache *c, const CacheKey *k, const SourceFile *f, const char *text,
                 size_t len, size_t problems_from)
{
    if (c->off || c->no_write)
        return;
    json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s}", "format", CACHE_FORMAT, "keylint",
                          KEYLINT_VERSION, "path", k->rel, "content", k->content, "config",
                          k->config);
    if (!o)
        return; /* a path that is not UTF-8: not cached */
    /* the pre-check's answer, whether this run asked it or not */
    bool set_aside = f->deferred || !extract_may_find(text, len, f->config);
    json_object_set_new(o, "set_aside", json_boolean(set_aside));
    if (set_aside) {
        DeferNote *made = f->note ? NULL : defer_note(text, len);
        json_t *nj = note_json(f->note ? f->note : made);
        defer_note_free(made);
        if (!nj) {
            json_decref(o);
            return;
        }
        json_object_set_new(o, "note", nj);
    }
    if (f->ir) {
        json_object_set_new(o, "ir", cache_ir_to_json(f->ir));
        json_t *probs = json_array();
        for (size_t i = problems_from; i < f->problems.items.n; i++) {
            const Problem *p = &f->problems.items.v[i];
            json_array_append_new(probs, json_pack("[iiis]", (int)p->kind, (int)p->line,
                                                   (int)p->col, p->message));
        }
        json_object_set_new(o, "problems", probs);
    }
    Arena *a = arena_new();
    ReplaceFile rf;
    bool ok = replace_open(&rf, arena_printf(a, "%s/%s", c->dir, k->entry), a);
    if (ok) {
        rf.no_sync = true; /* a lost entry costs a parse, nothing else */
        ok = replace_commit(&rf, json_dumpf(o, rf.f, JSON_COMPACT) == 0);
    }
    json_decref(o);
    if (ok) {
        count(c, k, &c->n.written);
    } else {
        pthread_mutex_lock(&c->lock);
        bool first = !c->no_write;
        c->no_write = true;
        pthread_mutex_unlock(&c->lock);
        if (first)
            note(c, c->dir,
                 arena_printf(a, "cache entry %s cannot be written (%s): no more are, this run",
                              k->entry, replace_error(&rf)));
    }
    arena_free(a);
}

void cache_prune(Cache *c)
{
    if (c->off || c->no_write)
        return;
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    Arena *a = arena_new();
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        size_t n = strlen(name), had;
        const char *path = arena_printf(a, "%s/%s", c->dir, name);
        struct stat st;
        bool entry = n == 37 && !strcmp(name + 32, ".json");
        bool stale_tmp = strstr(name, ".json.tmp.") && lstat(path, &st) == 0 &&
                         S_ISREG(st.st_mode) && now - st.st_mtime > 24 * 3600;
        if ((entry && !namemap_get(&c->used, name, &had)) || stale_tmp) {
            if (unlink(path) == 0)
                c->n.pruned++;
        }
    }
    closedir(d);
    arena_free(a);
}

CacheCounts cache_counts(const Cache *c)
{
    return c->n;
}

const Problems *cache_notes(Cache *c)
{
    if (!c->counted && c->n.ignored > NOTES_NAMED) {
        char msg[96];
        snprintf(msg, sizeof msg, "%zu more cache entries ignored (not named); written again",
                 c->n.ignored - NOTES_NAMED);
        note(c, c->dir, msg);
    }
    c->counted = true;
    return &c->notes;
}
