#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_version.h"
#include "cache_bin.h"
#include "cache_ir.h"
#include "defer.h"
#include "extract.h"
#include "files.h"
#include "precheck.h"
#include "walk.h"

enum {
    CACHE_FORMAT = 6,
    /* entries ignored that get a note each; the rest are counted */
    NOTES_NAMED = 10,
    /* a record: its name (hex), the length and hash of its entry, the
     * hash of the text it was made from (hex) and what stat said of the
     * file then (StatSig) */
    NAME_LEN = 32,
    CONTENT_LEN = 32,
    STAT_LEN = 5 * 8,
    RECORD_HEAD = NAME_LEN + 4 + 8 + CONTENT_LEN + STAT_LEN,
};

/* A file whose modification time is this close to the time its entry was
 * written (or the pack was) may have changed again within the same tick
 * of the file system's clock: its stat does not vouch for its text (git's
 * "racy" index entries). */
#define RACY_NS ((int64_t)2000000000)

/* The pack's first bytes: what it is and who wrote it; then a number
 * that reads back only on a machine of the same byte order. */
#define PACK_NAME "entries.pack"
#define PACK_MAGIC "keylint cache between runs\n"
#define PACK_ORDER 0x4b4c4332u

/* An entry is the IR of one source file: far below this. */
#define ENTRY_MAX ((size_t)256 << 20)
/* The pack: every entry of a project. */
#define PACK_MAX ((size_t)2 << 30)

/* An entry of the pack read at the start of the run. */
typedef struct Record {
    const char *name;   /* NAME_LEN hex digits, in the pack's buffer, not terminated */
    const char *content; /* CONTENT_LEN hex digits, in the buffer */
    size_t off, len;    /* the entry in the buffer */
    uint64_t hash;      /* record_hash of it */
    CacheStat st;       /* the file when the entry was written (all 0: unknown) */
    CacheStat restat;   /* the same text found under another stat (under lock) */
    bool used;          /* looked up this run (under lock) */
    bool superseded;    /* written again this run (under lock) */
    bool restated;      /* `restat` is set: the record is written with it */
} Record;

struct Cache {
    Arena *arena;       /* dir, root, the notes' strings, the records */
    const char *dir, *root, *pack;
    bool off;           /* nothing read nor written */
    bool no_write;      /* entries are read, none written */
    pthread_mutex_t lock;
    Problems notes;     /* under lock */
    char *buf;          /* the pack read at the start (malloc'd), NULL if none */
    VEC(Record) old;    /* its records */
    NameMap names;      /* record by name (its last) */
    bool damaged;       /* the pack was not read whole: it is written again */
    ReplaceFile out;    /* the new pack, opened at the first entry written (under lock) */
    Arena *out_arena;
    bool out_open;
    CacheCounts n;      /* under lock */
    bool counted;       /* the note of entries ignored past NOTES_NAMED is made */
    int64_t pack_ns;    /* when the pack read was written (its mtime), 0 if none */
    const char *unusable; /* why the directory cannot be made or written, NULL if it can */
    const char *version;  /* what entries are keyed by (build_version) */
};

/* The hash a record carries: of its stat and its entry, so that a
 * damaged stat is not taken for a file's. */
static uint64_t record_hash(const CacheStat *st, const char *text, size_t n)
{
    uint64_t s[5] = {st->size, st->mtime_ns, st->ctime_ns, st->ino, st->len};
    return hash_bytes(text, n) ^ (hash_bytes(s, sizeof s) * 0x9e3779b97f4a7c15u);
}

bool cache_stat_of(const char *path, CacheStat *out)
{
    struct stat st;
    *out = (CacheStat){0};
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
    out->ctime_ns = (uint64_t)st.st_ctim.tv_sec * 1000000000u + (uint64_t)st.st_ctim.tv_nsec;
    out->ino = (uint64_t)st.st_ino;
    return true;
}

/* What a record keeps of `st` written now: nothing when the file changed
 * so recently that another change within the same tick would leave its
 * stat as it is. */
static CacheStat stat_to_keep(const CacheStat *st)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    if (!st->mtime_ns || (int64_t)st->mtime_ns > now_ns - RACY_NS ||
        (int64_t)st->ctime_ns > now_ns - RACY_NS)
        return (CacheStat){0};
    return *st;
}

/* A 128-bit hash of s[0..n), as 32 hex digits: two 64-bit hashes of
 * the length and the bytes, eight at a time, with multipliers and
 * seeds of their own; the two chains run side by side (a file's text is
 * hashed at every read: this is about as fast as one of them). */
static void hash_hex(const void *s, size_t n, char out[33])
{
    const unsigned char *p = s;
    uint64_t a = 0x9E3779B97F4A7C15u ^ n, b = 0xC2B2AE3D27D4EB4Fu ^ (n * 0x165667B19E3779F9u);
    size_t left = n;
    for (; left >= 8; p += 8, left -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        a = (a ^ w) * 0xbf58476d1ce4e5b9u;
        a ^= a >> 29;
        b = (b ^ w) * 0x9fb21c651e98df25u;
        b ^= b >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p, left);
    a = (a ^ w) * 0x94d049bb133111ebu;
    b = (b ^ w) * 0xd6e8feb86659fd93u;
    a ^= a >> 30;
    b ^= b >> 28;
    a *= 0xbf58476d1ce4e5b9u;
    b *= 0x94d049bb133111ebu;
    a ^= a >> 31;
    b ^= b >> 31;
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[i] = hex[(a >> (60 - 4 * i)) & 15];
        out[16 + i] = hex[(b >> (60 - 4 * i)) & 15];
    }
    out[32] = '\0';
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

/* The pack's whole cache dropped: a note, and it is written again. */
static void pack_ignored(Cache *c, const char *why)
{
    note(c, c->pack, arena_printf(c->arena, "cache ignored: %s; written again", why));
    c->damaged = true;
    c->old.n = 0;
}

/* The pack ends inside a record: those before are read, and the pack is
 * written again. */
static void cut_short(Cache *c)
{
    note(c, c->pack, "cache cut short or damaged: the entries before the damage are read; "
                     "written again");
    c->damaged = true;
}

/* Read the pack (PACK_NAME in the directory) into c->buf and its records
 * into c->old: a header of PACK_MAGIC, "format N keylint VERSION\n" and
 * PACK_ORDER, then records of a NAME_LEN-byte name, the entry's length
 * (uint32) and hash (uint64) and the entry. A pack that is not one, of
 * another format or version, is ignored whole; one cut short or damaged
 * keeps the records before the damage. */
static void read_pack(Cache *c)
{
    c->pack = arena_printf(c->arena, "%s/%s", c->dir, PACK_NAME);
    size_t len = 0;
    FileRead how;
    c->buf = file_read(c->pack, PACK_MAX, true, &len, &how);
    CacheStat ps;
    /* the pack's time: after the read, so that a pack written meanwhile
     * only makes more entries racy */
    if (c->buf && cache_stat_of(c->pack, &ps))
        c->pack_ns = (int64_t)ps.mtime_ns;
    if (!c->buf) {
        if (!(how.status == FILE_READ_OPEN && how.err == ENOENT))
            pack_ignored(c, how.status == FILE_READ_TOO_LARGE ? "too large" : "cannot be read");
        return;
    }
    char head[128];
    int hl = snprintf(head, sizeof head, "%sformat %d keylint %s\n", PACK_MAGIC, CACHE_FORMAT,
                      c->version);
    size_t ml = strlen(PACK_MAGIC);
    if (len < ml || memcmp(c->buf, PACK_MAGIC, ml)) {
        pack_ignored(c, "not a cache keylint writes");
        return;
    }
    uint32_t order = 0;
    if (len < (size_t)hl + 4 || memcmp(c->buf, head, (size_t)hl) ||
        (memcpy(&order, c->buf + hl, 4), order != PACK_ORDER)) {
        pack_ignored(c, "written by another version of keylint");
        return;
    }
    size_t at = (size_t)hl + 4;
    while (at < len) {
        uint32_t n;
        uint64_t h;
        if (len - at < RECORD_HEAD) {
            cut_short(c);
            return;
        }
        memcpy(&n, c->buf + at + NAME_LEN, 4);
        memcpy(&h, c->buf + at + NAME_LEN + 4, 8);
        if (n > ENTRY_MAX || len - at - RECORD_HEAD < n) {
            cut_short(c);
            return;
        }
        Record r = {.name = c->buf + at, .content = c->buf + at + NAME_LEN + 12,
                    .off = at + RECORD_HEAD, .len = n, .hash = h};
        uint64_t sv[5];
        memcpy(sv, c->buf + at + NAME_LEN + 12 + CONTENT_LEN, sizeof sv);
        r.st = (CacheStat){.size = sv[0], .mtime_ns = sv[1], .ctime_ns = sv[2], .ino = sv[3],
                           .len = sv[4]};
        char name[NAME_LEN + 1];
        memcpy(name, r.name, NAME_LEN);
        name[NAME_LEN] = '\0';
        size_t was;
        if (namemap_get(&c->names, name, &was)) {
            c->old.v[was] = r; /* written again later in the same pack */
        } else {
            VEC_PUSH(c->arena, &c->old, r);
            namemap_put(c->arena, &c->names, arena_strdup(c->arena, name), c->old.n - 1);
        }
        at += RECORD_HEAD + n;
    }
}

/* What the cache is keyed by: KEYLINT_CACHE_VERSION; for a build from a
 * tree with uncommitted changes (`-dirty`), also a hash of the running
 * binary, so that two such builds of one commit (a change to extraction
 * in between) never read each other's entries. */
static const char *build_version(Arena *a)
{
    const char *v = KEYLINT_CACHE_VERSION;
    if (!strstr(v, "-dirty"))
        return v;
    size_t len = 0;
    FileRead how;
    char *exe = file_read("/proc/self/exe", (size_t)1 << 30, false, &len, &how);
    if (!exe)
        return arena_printf(a, "%s+%lld", v, (long long)time(NULL)); /* never reused */
    char h[33];
    hash_hex(exe, len, h);
    free(exe);
    return arena_printf(a, "%s+%s", v, h);
}

const char *cache_version(const Cache *c)
{
    return c->version;
}

Cache *cache_open(const char *dir, const char *root)
{
    return cache_open_as(dir, root, true);
}

Cache *cache_open_as(const char *dir, const char *root, bool asked)
{
    Cache *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->arena = arena_new();
    c->dir = arena_strdup(c->arena, dir);
    c->root = arena_strdup(c->arena, root);
    c->version = build_version(c->arena);
    pthread_mutex_init(&c->lock, NULL);
    problems_init(&c->notes);
    const char *why = NULL;
    if (!make_dirs(c->arena, dir)) {
        const char *reason = strerror(errno);
        c->unusable = arena_printf(c->arena, "%s cannot be made (%s)", dir, reason);
        if (asked)
            note(c, dir, arena_printf(c->arena, "cache directory cannot be made (%s): the run "
                                                "goes on without the cache",
                                      reason));
        c->off = true;
        return c;
    }
    /* git, and backup tools (https://bford.info/cachedir/), pass it by */
    errno = 0;
    if (!ensure_file(c->arena, dir, ".gitignore",
                     "# written by keylint: its cache between runs (--cache-dir)\n*\n", &why) ||
        !ensure_file(c->arena, dir, "CACHEDIR.TAG",
                     "Signature: 8a477f597d28d172789f06886806bc55\n"
                     "# This file is a cache directory tag created by keylint.\n",
                     &why) ||
        access(dir, W_OK) != 0) {
        const char *reason = why ? why : strerror(errno ? errno : EACCES);
        c->unusable = arena_printf(c->arena, "%s cannot be written (%s)", dir, reason);
        if (asked)
            note(c, dir, arena_printf(c->arena, "cache directory cannot be written (%s): "
                                                "entries are read, none written",
                                      reason));
        c->no_write = true;
    }
    read_pack(c);
    return c;
}

void cache_free(Cache *c)
{
    if (!c)
        return;
    if (c->out_open)
        replace_commit(&c->out, false);
    arena_free(c->out_arena);
    free(c->buf);
    problems_free(&c->notes);
    pthread_mutex_destroy(&c->lock);
    arena_free(c->arena);
    free(c);
}

const char *cache_root(const Cache *c)
{
    return c->root;
}

bool cache_key(const Cache *c, const SourceFile *f, CacheKey *k)
{
    *k = (CacheKey){0};
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
    snprintf(k->entry, sizeof k->entry, "%s", h);
    snprintf(k->config, sizeof k->config, "%016llx",
             (unsigned long long)extract_config_hash(f->config));
    /* before the text is read: a change after this shows in the next
     * run's stat */
    cache_stat_of(f->path, &k->st);
    return true;
}

void cache_key_text(CacheKey *k, const char *text, size_t len)
{
    hash_hex(text, len, k->content);
    k->st.len = len;
}

void cache_key_free(CacheKey *k)
{
    free(k->rel);
    k->rel = NULL;
}

/* ---- reading an entry ----------------------------------------------------- */

/* The entry's members after its header (see cache_store): a byte of
 * flags, the pre-check's note, the IR and the problems extraction made. */
enum { ENTRY_SET_ASIDE = 1, ENTRY_NOTE = 2, ENTRY_IR = 4 };

static StrList note_list(BinIn *in, Arena *a)
{
    StrList l = {0};
    size_t n = bin_get_count(in, 4);
    for (size_t i = 0; i < n && !in->bad; i++) {
        const char *s = bin_get_str1(in, a);
        if (s)
            strlist_push(a, &l, s);
    }
    return l;
}

/* The DeferNote an entry holds; NULL and *why when it is of the wrong
 * shape. */
static DeferNote *read_note(BinIn *in, const char **why)
{
    Arena *a = arena_new();
    DeferNoteParts parts;
    parts.lits = note_list(in, a);
    parts.calls = note_list(in, a);
    parts.imports = note_list(in, a);
    parts.reexports = note_list(in, a);
    unsigned d = bin_get_u8(in);
    parts.default_import = d == 1;
    DeferNote *nt = !in->bad && d <= 1 ? defer_note_from_parts(&parts) : NULL;
    arena_free(a);
    if (!nt)
        *why = "a pre-check note of the wrong shape";
    return nt;
}

/* The problems an entry holds, added to `out` under `path`; false when
 * they are of the wrong shape (then none is added). */
static bool read_problems(BinIn *in, const char *path, Problems *out)
{
    size_t n = bin_get_count(in, 16);
    size_t at = in->at;
    for (size_t i = 0; i < n && !in->bad; i++) {
        uint32_t kind = bin_get_u32(in);
        bin_get_u32(in);
        bin_get_u32(in);
        size_t len;
        if (kind >= PROBLEM_KIND_COUNT || !bin_get_strn(in, &len))
            in->bad = true;
    }
    if (in->bad)
        return false;
    in->at = at;
    Arena *a = arena_new();
    for (size_t i = 0; i < n; i++) {
        uint32_t kind = bin_get_u32(in);
        uint32_t line = bin_get_u32(in);
        uint32_t col = bin_get_u32(in);
        const char *msg = bin_get_str(in, a);
        problems_add_kind(out, (ProblemKind)kind, path, line, col, "%s", msg);
    }
    arena_free(a);
    return true;
}

static void count(Cache *c, const CacheKey *k, size_t *counter)
{
    size_t i;
    bool old = namemap_get(&c->names, k->entry, &i);
    pthread_mutex_lock(&c->lock);
    (*counter)++;
    if (old)
        c->old.v[i].used = true;
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
    size_t i;
    if (!namemap_get(&c->names, k->entry, &i))
        return miss(c, k);
    const Record *rec = &c->old.v[i];
    const char *buf = c->buf + rec->off;
    size_t len = rec->len;
    if (record_hash(&rec->st, buf, len) != rec->hash)
        return ignored(c, k, f, "damaged (its hash differs)");
    BinIn in = {.v = buf, .n = len};
    bool hit = false;
    const char *why = NULL;
    uint32_t format = bin_get_u32(&in);
    size_t vl, pl, cl, gl;
    const char *version = bin_get_strn(&in, &vl);
    const char *path = bin_get_strn(&in, &pl);
    const char *content = bin_get_strn(&in, &cl);
    const char *config = bin_get_strn(&in, &gl);
    unsigned flags = bin_get_u8(&in);
    if (in.bad && format != CACHE_FORMAT)
        why = "cut short or damaged";
    else if (format != CACHE_FORMAT)
        why = "of another format";
    else if (!version || vl != strlen(c->version) || memcmp(version, c->version, vl))
        why = "written by another version of keylint";
    else if (!path || pl != strlen(k->rel) || memcmp(path, k->rel, pl))
        why = "written for another path";
    else if (!content || !config || in.bad || flags > 7)
        why = "of the wrong shape";
    else if (cl != strlen(k->content) || memcmp(content, k->content, cl) ||
             gl != strlen(k->config) || memcmp(config, k->config, gl))
        ; /* the file or its configuration changed: an ordinary miss */
    else {
        DeferNote *nt = flags & ENTRY_NOTE ? read_note(&in, &why) : NULL;
        if (!why && precheck && flags & ENTRY_SET_ASIDE) {
            if (nt) {
                f->deferred = true;
                f->note = nt;
                nt = NULL;
                hit = true;
            } else {
                why = "no pre-check note";
            }
        } else if (!why && flags & ENTRY_IR) {
            FileIR *ir = cache_ir_get(&in, f->path, &why);
            Problems probs;
            problems_init(&probs);
            if (ir && !read_problems(&in, f->path, &probs))
                why = "problems of the wrong shape";
            else if (ir && in.at != in.n)
                why = "of the wrong shape";
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
        defer_note_free(nt);
    }
    if (why)
        return ignored(c, k, f, why);
    if (!hit)
        return miss(c, k);
    count(c, k, &c->n.hits);
    /* the same text under another stat (touched, copied back): the
     * record is written again with it, so the next run need not read */
    CacheStat keep = stat_to_keep(&k->st);
    keep.len = k->st.len;
    if (keep.mtime_ns && memcmp(&keep, &rec->st, sizeof keep)) {
        pthread_mutex_lock(&c->lock);
        c->old.v[i].restat = keep;
        c->old.v[i].restated = true;
        pthread_mutex_unlock(&c->lock);
    }
    return true;
}

bool cache_load_unread(Cache *c, CacheKey *k, SourceFile *f, bool precheck)
{
    size_t i;
    if (c->off || !k->st.mtime_ns || !namemap_get(&c->names, k->entry, &i))
        return false;
    const Record *rec = &c->old.v[i];
    if (!rec->st.mtime_ns || rec->st.size != k->st.size || rec->st.mtime_ns != k->st.mtime_ns ||
        rec->st.ctime_ns != k->st.ctime_ns || rec->st.ino != k->st.ino ||
        (int64_t)rec->st.mtime_ns > c->pack_ns - RACY_NS ||
        (int64_t)rec->st.ctime_ns > c->pack_ns - RACY_NS)
        return false;
    memcpy(k->content, rec->content, CONTENT_LEN);
    k->content[CONTENT_LEN] = '\0';
    k->st.len = rec->st.len;
    k->looked = true;
    if (!cache_load(c, k, f, precheck))
        return false;
    f->len = (size_t)rec->st.len;
    pthread_mutex_lock(&c->lock);
    c->n.unread++;
    pthread_mutex_unlock(&c->lock);
    return true;
}

bool cache_content_of(Cache *c, const SourceFile *f, char out[33], bool *unread)
{
    CacheKey k;
    if (!cache_key(c, f, &k))
        return false;
    size_t i;
    const Record *rec = namemap_get(&c->names, k.entry, &i) ? &c->old.v[i] : NULL;
    bool current = false;
    *unread = false;
    if (rec && record_hash(&rec->st, c->buf + rec->off, rec->len) != rec->hash) {
        current = false; /* damaged: the run that reads it says so */
    } else if (rec && rec->st.mtime_ns && k.st.mtime_ns && rec->st.size == k.st.size &&
               rec->st.mtime_ns == k.st.mtime_ns && rec->st.ctime_ns == k.st.ctime_ns &&
               rec->st.ino == k.st.ino && (int64_t)rec->st.mtime_ns <= c->pack_ns - RACY_NS &&
               (int64_t)rec->st.ctime_ns <= c->pack_ns - RACY_NS) {
        memcpy(out, rec->content, CONTENT_LEN);
        out[CONTENT_LEN] = '\0';
        current = *unread = true;
    } else {
        /* read as extraction reads it: "" when it cannot be (and has no
         * entry: extraction writes none then) */
        Problems quiet;
        problems_init(&quiet);
        size_t len;
        char *text = read_source(f->path, &len, &quiet);
        out[0] = '\0';
        if (text)
            hash_hex(text, len, out);
        current = text ? rec && !memcmp(rec->content, out, CONTENT_LEN) : !rec;
        free(text);
        problems_free(&quiet);
    }
    /* the entry is still the file's: a run over the whole project keeps it */
    if (current && rec) {
        pthread_mutex_lock(&c->lock);
        c->old.v[i].used = true;
        pthread_mutex_unlock(&c->lock);
    }
    cache_key_free(&k);
    return current;
}

void cache_count_kept(Cache *c, size_t hits, size_t unread)
{
    pthread_mutex_lock(&c->lock);
    c->n.hits += hits;
    c->n.unread += unread;
    c->n.findings++;
    pthread_mutex_unlock(&c->lock);
}

void cache_hash_hex(const void *s, size_t n, char out[33])
{
    hash_hex(s, n, out);
}

const char *cache_unusable(const Cache *c)
{
    return c->unusable;
}

const char *cache_dir(const Cache *c)
{
    return c->off ? NULL : c->dir;
}

bool cache_writable(const Cache *c)
{
    return !c->off && !c->no_write;
}

void cache_note(Cache *c, const char *path, const char *msg)
{
    note(c, path, msg);
}

/* ---- writing an entry ----------------------------------------------------- */

/* The first write fails: a note, and none is written this run (under
 * lock). */
static bool cannot_write(Cache *c)
{
    if (!c->no_write)
        problems_add_kind(&c->notes, PROBLEM_NOTE, c->dir, 0, 0,
                          "cache cannot be written (%s): it is not, this run",
                          replace_error(&c->out));
    c->no_write = true;
    if (c->out_open)
        replace_commit(&c->out, false);
    c->out_open = false;
    return false;
}

/* The new pack open for writing, with its header (under lock). */
static bool open_out(Cache *c)
{
    if (c->no_write)
        return false;
    if (c->out_open)
        return true;
    if (!c->out_arena)
        c->out_arena = arena_new();
    if (!replace_open(&c->out, c->pack, c->out_arena))
        return cannot_write(c);
    c->out_open = true;
    c->out.no_sync = true; /* a lost pack costs a parse of each file, nothing else */
    uint32_t order = PACK_ORDER;
    if (fprintf(c->out.f, "%sformat %d keylint %s\n", PACK_MAGIC, CACHE_FORMAT,
                c->version) < 0 ||
        fwrite(&order, 4, 1, c->out.f) != 1)
        return cannot_write(c);
    return true;
}

/* A record of the new pack (under lock). */
static bool write_record(Cache *c, const char *name, const char *content, const CacheStat *st,
                         const char *text, size_t n)
{
    uint32_t len = (uint32_t)n;
    uint64_t h = record_hash(st, text, n);
    uint64_t sv[5] = {st->size, st->mtime_ns, st->ctime_ns, st->ino, st->len};
    if (n > ENTRY_MAX)
        return false;
    if (fwrite(name, NAME_LEN, 1, c->out.f) != 1 || fwrite(&len, 4, 1, c->out.f) != 1 ||
        fwrite(&h, 8, 1, c->out.f) != 1 || fwrite(content, CONTENT_LEN, 1, c->out.f) != 1 ||
        fwrite(sv, sizeof sv, 1, c->out.f) != 1 || (n && fwrite(text, n, 1, c->out.f) != 1))
        return cannot_write(c);
    return true;
}

static void put_list(BinOut *o, const StrList *l)
{
    bin_put_u32(o, (uint32_t)l->n);
    for (size_t i = 0; i < l->n; i++)
        bin_put_str(o, l->v[i]);
}

static void put_note(BinOut *o, const DeferNote *nt)
{
    DeferNoteParts p = defer_note_parts(nt);
    put_list(o, &p.lits);
    put_list(o, &p.calls);
    put_list(o, &p.imports);
    put_list(o, &p.reexports);
    bin_put_u8(o, p.default_import ? 1 : 0);
}

void cache_store(Cache *c, const CacheKey *k, const SourceFile *f, const char *text,
                 size_t len, size_t problems_from, int may_find)
{
    if (c->off || c->no_write)
        return;
    /* the pre-check's answer, whether this run asked it or not */
    if (may_find < 0 && !f->deferred)
        may_find = extract_may_find(text, len, f->config);
    bool set_aside = f->deferred || !may_find;
    /* the entry: its format, keylint's version, the path, the hashes of
     * the text and the configuration, a byte of flags (ENTRY_*), then
     * the note, the IR (cache_ir.h) and the problems extraction made */
    BinOut o = {0};
    bin_put_u32(&o, CACHE_FORMAT);
    bin_put_str(&o, c->version);
    bin_put_str(&o, k->rel);
    bin_put_str(&o, k->content);
    bin_put_str(&o, k->config);
    bin_put_u8(&o, (set_aside ? ENTRY_SET_ASIDE | ENTRY_NOTE : 0) | (f->ir ? ENTRY_IR : 0));
    if (set_aside) {
        DeferNote *made = f->note ? NULL : defer_note(text, len);
        put_note(&o, f->note ? f->note : made);
        defer_note_free(made);
    }
    if (f->ir) {
        cache_ir_put(&o, f->ir);
        bin_put_u32(&o, (uint32_t)(f->problems.items.n - problems_from));
        for (size_t i = problems_from; i < f->problems.items.n; i++) {
            const Problem *p = &f->problems.items.v[i];
            bin_put_u32(&o, (uint32_t)p->kind);
            bin_put_u32(&o, p->line);
            bin_put_u32(&o, p->col);
            bin_put_str(&o, p->message);
        }
    }
    const char *entry = o.v;
    size_t n = o.n;
    size_t i;
    bool old = namemap_get(&c->names, k->entry, &i);
    CacheStat st = stat_to_keep(&k->st);
    st.len = len;
    pthread_mutex_lock(&c->lock);
    bool ok = open_out(c) && write_record(c, k->entry, k->content, &st, entry, n);
    if (ok) {
        c->n.written++;
        if (old)
            c->old.v[i].superseded = true;
    }
    pthread_mutex_unlock(&c->lock);
    free(o.v);
}

void cache_save(Cache *c, bool whole)
{
    if (c->off || c->no_write)
        return;
    /* what the new pack keeps of the old one: entries this run used and
     * did not write again; with `whole`, no other (files deleted or
     * renamed) */
    size_t dropped = 0, restated = 0;
    for (size_t i = 0; i < c->old.n; i++) {
        dropped += !c->old.v[i].superseded && whole && !c->old.v[i].used;
        restated += !c->old.v[i].superseded && c->old.v[i].restated;
    }
    if (!c->out_open && !c->damaged && !dropped && !restated)
        return; /* nothing changed: the pack stays as it is */
    if (!open_out(c))
        return;
    for (size_t i = 0; i < c->old.n; i++) {
        const Record *r = &c->old.v[i];
        if (r->superseded || (whole && !r->used))
            continue;
        if (!write_record(c, r->name, r->content, r->restated ? &r->restat : &r->st,
                          c->buf + r->off, r->len))
            return;
    }
    c->out_open = false;
    if (replace_commit(&c->out, true))
        c->n.pruned = dropped;
    else
        cannot_write(c);
    /* what earlier versions left: an entry per file, temporary files of
     * a run that was killed */
    if (!whole)
        return;
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    Arena *a = arena_new();
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        size_t n = strlen(name);
        const char *path = arena_printf(a, "%s/%s", c->dir, name);
        struct stat st;
        bool entry = n == 37 && !strcmp(name + 32, ".json");
        bool stale_tmp = strstr(name, ".tmp.") && lstat(path, &st) == 0 &&
                         S_ISREG(st.st_mode) && now - st.st_mtime > 24 * 3600;
        if (entry || stale_tmp)
            unlink(path);
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
