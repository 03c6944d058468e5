#include "project.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access.h"
#include "templates.h"
#include "cache.h"
#include "defer.h"
#include "syntax.h"
#include "extract.h"
#include "facts.h"
#include "files.h"
#include "modules.h"
#include "precheck.h"
#include "resolve.h"
#include "fixproof.h"
#include "suppress.h"
#include "walk.h"

static void graph_free(Project *p);

Project *project_new(const char *config_path)
{
    Project *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    p->arena = arena_new();
    problems_init(&p->problems);
    problems_init(&p->schema_problems);
    diag_init(&p->diags);
    p->defaults = config_default();
    if (config_path) {
        p->forced = config_load(config_path, rule_ids(), &p->problems);
        if (!p->forced)
            p->forced = NULL; /* problems say why; defaults apply */
    }
    return p;
}

void project_free(Project *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->files.n; i++) {
        free(p->files.v[i].text);
        fileir_free(p->files.v[i].ir);
        fileir_free(p->files.v[i].analysed);
        defer_note_free(p->files.v[i].note);
        syn_reuse_free(p->files.v[i].reuse);
        problems_free(&p->files.v[i].problems);
    }
    arena_free(p->analysis);
    modenv_free(p->modenv);
    templates_forget(p->templates);
    graph_free(p);
    facts_fold_free(p->facts_fold);
    access_fold_free(p->access_fold);
    for (size_t i = 0; i < p->configs.n; i++)
        config_free(p->configs.v[i].config);
    config_free(p->forced);
    config_free(p->defaults);
    diag_free(&p->diags);
    problems_free(&p->problems);
    problems_free(&p->schema_problems);
    arena_free(p->arena);
    free(p);
}

static char *dir_of(const char *abspath)
{
    char *d = strdup(abspath);
    if (!d)
        abort();
    char *slash = strrchr(d, '/');
    if (slash && slash != d)
        *slash = '\0';
    else if (slash)
        slash[1] = '\0';
    return d;
}

static char *absolute(const char *path)
{
    char *r = realpath(path, NULL);
    if (r)
        return r;
    /* a file that vanished: join with the working directory */
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(path);
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *j = malloc(n);
    if (j)
        snprintf(j, n, "%s/%s", cwd, path);
    return j;
}

static const Config *config_at(Project *p, const char *cfgpath)
{
    const char *key = cfgpath ? cfgpath : "";
    for (size_t i = 0; i < p->configs.n; i++)
        if (!strcmp(p->configs.v[i].path, key))
            return p->configs.v[i].config ? p->configs.v[i].config : p->defaults;
    ConfigEntry e = {arena_strdup(p->arena, key), NULL};
    if (cfgpath)
        e.config = config_load(cfgpath, rule_ids(), &p->problems);
    VEC_PUSH(p->arena, &p->configs, e);
    return e.config ? e.config : p->defaults;
}

/* `c` with the overrides whose `files` match `abspath` applied: one
 * derived configuration per configuration file and set of overrides,
 * owned by the project like the file's (p->configs, keyed by the file's
 * path and the set); `c` itself when none matches. */
static const Config *with_overrides(Project *p, const Config *c, const char *abspath)
{
    uint64_t mask = c && c->overrides.n ? config_override_mask(c, abspath) : 0;
    if (!mask)
        return c;
    const char *key = arena_printf(p->arena, "%s\x1f%llx", c->path, (unsigned long long)mask);
    for (size_t i = 0; i < p->configs.n; i++)
        if (!strcmp(p->configs.v[i].path, key))
            return p->configs.v[i].config ? p->configs.v[i].config : c;
    ConfigEntry e = {key, config_derive(c, mask, &p->problems)};
    VEC_PUSH(p->arena, &p->configs, e);
    return e.config ? e.config : c;
}

const Config *project_config_for(Project *p, const char *path)
{
    char *abs = absolute(path);
    if (p->forced) {
        const Config *fc = with_overrides(p, p->forced, abs);
        free(abs);
        return fc;
    }
    char *dir = dir_of(abs ? abs : path);
    char *found = config_find(dir);
    const Config *c = with_overrides(p, config_at(p, found), abs);
    free(found);
    free(dir);
    free(abs);
    return c;
}

/* Whether `dir` holds a file called `name`. */
static bool holds(Arena *a, const char *dir, const char *name)
{
    struct stat st;
    return stat(arena_printf(a, "%s/%s", strcmp(dir, "/") ? dir : "", name), &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* A directory too wide to be read as a project: the file system's root,
 * the home directory, the temporary directory. */
static bool too_wide(const char *dir)
{
    const char *wide[] = {"/", getenv("HOME"), getenv("TMPDIR"), "/tmp", "/var/tmp"};
    for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) {
        char *real = wide[i] && wide[i][0] ? realpath(wide[i], NULL) : NULL;
        bool same = real && !strcmp(real, dir);
        free(real);
        if (same)
            return true;
    }
    return false;
}

const char *project_root_of(Arena *a, const char *path)
{
    char *abs = realpath(path, NULL);
    struct stat st;
    if (!abs || stat(abs, &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* a file, or one not on disk (--stdin-filename): its directory */
        char *in = abs ? abs : strdup(path);
        if (!in)
            abort();
        char *dir = strchr(in, '/') ? dir_of(in) : strdup(".");
        free(in);
        if (!dir)
            abort();
        abs = realpath(dir, NULL);
        free(dir);
        if (!abs)
            return NULL;
    }
    const char *start = arena_strdup(a, abs);
    free(abs);
    /* upward: the git work tree; else the nearest configuration's
     * directory, else the nearest package's (package.json) */
    const char *package = NULL;
    for (char *cur = arena_strdup(a, start);;) {
        const char *git = arena_printf(a, "%s/.git", strcmp(cur, "/") ? cur : "");
        if (lstat(git, &st) == 0)
            return cur;
        if (!package && holds(a, cur, "package.json"))
            package = arena_strdup(a, cur);
        char *slash = strrchr(cur, '/');
        if (!slash || !slash[1])
            break;
        if (slash == cur)
            slash[1] = '\0'; /* up to "/" */
        else
            *slash = '\0';
    }
    char *cfg = config_find(start);
    if (cfg) {
        char *d = dir_of(cfg);
        const char *dir = arena_strdup(a, d);
        free(d);
        free(cfg);
        return dir;
    }
    if (package)
        return package;
    return too_wide(start) ? NULL : start;
}

/* ---- parallel read + extract -------------------------------------------- */

typedef struct Work {
    Project *p;
    size_t next;            /* next file index to take */
    const size_t *slots;    /* the files to take, by slot; NULL: from `next` on */
    size_t nslots;
    bool precheck;          /* set aside the files the pre-check clears */
    pthread_mutex_t lock;
} Work;

typedef struct Worker {
    Work *w;
    pthread_t thread;
} Worker;

/* Extract a file whose text is set (or read it first); `drop`: free a
 * text read from disk afterwards; `pool`: the calling thread's working
 * memory (or NULL); `cache`: the cache between runs (or NULL), read
 * before and written after. Touches only `f` (and the cache's entry of
 * it). */
static void extract_one(SourceFile *f, bool drop, bool precheck, ArenaPool *pool, Cache *cache)
{
    /* a tree kept for a buffer is of a text this one replaces */
    if (!f->buffer)
        syn_reuse_reset(f->reuse);
    problems_free(&f->problems);
    problems_init(&f->problems);
    fileir_free(f->ir);
    f->ir = NULL;
    /* a file the pre-check set aside, needed after all: its note and
     * the pre-check's answer (0) go into its entry again when the text
     * read now is the one they were made from (cache_store need not
     * make them again) */
    DeferNote *set_aside = NULL;
    char set_aside_of[sizeof f->content];
    if (cache && f->parsed_late && f->note && f->content[0]) {
        set_aside = f->note;
        memcpy(set_aside_of, f->content, sizeof set_aside_of);
    } else {
        defer_note_free(f->note);
    }
    f->note = NULL;
    f->skip = SKIP_NONE;
    f->from_cache = false;
    f->content[0] = '\0';
    /* an editor's buffer is never cached: it changes at every edit */
    CacheKey key;
    bool keyed = cache && !f->buffer && cache_key(cache, f, &key);
    if (keyed && f->text)
        key.st = (CacheStat){0}; /* a text read before: the stat may be of a later one */
    if (!f->text) {
        uint64_t t0 = clock_ns();
        /* a file whose stat is its entry's is not read at all, when its
         * text would be dropped anyway */
        if (keyed && drop && cache_load_unread(cache, &key, f, precheck)) {
            f->from_cache = true;
            f->extract_ns += clock_ns() - t0;
            memcpy(f->content, key.content, sizeof f->content);
            cache_key_free(&key);
            defer_note_free(set_aside);
            return;
        }
        SourceSkip why;
        f->text = read_source_why(f->path, &f->len, &f->problems, &why);
        f->skip = (int)why;
        f->read_ns += clock_ns() - t0;
    }
    if (!f->text) {
        if (keyed)
            cache_key_free(&key);
        defer_note_free(set_aside);
        return;
    }
    uint64_t t0 = clock_ns();
    size_t problems_from = f->problems.items.n; /* those extraction makes */
    if (keyed)
        cache_key_text(&key, f->text, f->len);
    if (keyed && !key.looked && cache_load(cache, &key, f, precheck)) {
        f->from_cache = true;
    } else {
        /* Nothing extraction could find: set aside, unparsed (precheck.h). */
        int may_find = precheck && !f->buffer ? extract_may_find(f->text, f->len, f->config)
                                              : -1;
        f->deferred = may_find == 0;
        if (f->deferred) {
            f->note = defer_note(f->text, f->len);
        } else {
            /* a buffer is extracted again at every edit: its IR is not
             * compacted */
            f->ir = extract_file_pooled(f->path, f->text, f->len, f->config, &f->problems,
                                        f->reuse, pool, !f->buffer);
            t0 += f->ir->parse_ns;
        }
        if (keyed && set_aside && may_find < 0 && !f->deferred &&
            !strcmp(set_aside_of, key.content)) {
            f->note = set_aside;
            cache_store(cache, &key, f, f->text, f->len, problems_from, 0);
            f->note = NULL;
        } else if (keyed) {
            cache_store(cache, &key, f, f->text, f->len, problems_from, may_find);
        }
    }
    if (keyed) {
        memcpy(f->content, key.content, sizeof f->content);
        cache_key_free(&key);
    }
    defer_note_free(set_aside);
    f->extract_ns += clock_ns() - t0;
    if (drop && !f->buffer) {
        free(f->text);
        f->text = NULL;
    }
}

static void *worker_main(void *arg)
{
    Worker *wk = arg;
    Work *w = wk->w;
    ArenaPool *pool = arena_pool_new();
    for (;;) {
        pthread_mutex_lock(&w->lock);
        size_t i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (w->slots) {
            if (i >= w->nslots)
                break;
            i = w->slots[i];
        } else if (i >= w->p->files.n) {
            break;
        }
        extract_one(&w->p->files.v[i], w->p->drop_texts, w->precheck, pool, w->p->cache);
    }
    arena_pool_free(pool);
    return NULL;
}

/* Extract files [from, end) of the project, or the `nslots` files of
 * `slots` when it is not NULL, with one thread per core. */
static void extract_files(Project *p, size_t from, const size_t *slots, size_t nslots,
                          bool precheck)
{
    size_t todo = slots ? nslots : p->files.n - from;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned nthreads = p->threads ? p->threads : (unsigned)(cores > 0 ? cores : 1);
    if (nthreads > 16)
        nthreads = 16;
    uint64_t t0 = clock_ns();
    if (todo < 16 || nthreads < 2) {
        ArenaPool *pool = arena_pool_new();
        for (size_t i = 0; i < todo; i++)
            extract_one(&p->files.v[slots ? slots[i] : from + i], p->drop_texts, precheck,
                        pool, p->cache);
        arena_pool_free(pool);
        p->extract_wall_ns += clock_ns() - t0;
        if (!p->threads_used)
            p->threads_used = 1;
        return;
    }
    Work w = {.p = p, .next = slots ? 0 : from, .slots = slots, .nslots = nslots,
              .precheck = precheck};
    pthread_mutex_init(&w.lock, NULL);
    Worker *wk = calloc(nthreads, sizeof *wk);
    if (!wk)
        abort();
    unsigned started = 0;
    for (unsigned t = 0; t < nthreads; t++) {
        wk[t].w = &w;
        if (pthread_create(&wk[t].thread, NULL, worker_main, &wk[t]) == 0)
            started++;
        else
            break;
    }
    if (started == 0)
        worker_main(&wk[0]);
    for (unsigned t = 0; t < started; t++)
        pthread_join(wk[t].thread, NULL);
    free(wk);
    pthread_mutex_destroy(&w.lock);
    p->extract_wall_ns += clock_ns() - t0;
    if (started > p->threads_used)
        p->threads_used = started;
}

/* The deferred files a run needs after all (defer.h), extracted without
 * the pre-check. */
static void extract_slots(Project *p, const size_t *slots, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p->files.v[slots[i]].parsed_late = true;
    extract_files(p, 0, slots, n, false);
}

static void index_file(Project *p, size_t slot);

/* What the files of one directory share: its real path and configuration.
 * Finding them costs a realpath (a readlink per path component) and a stat
 * per ancestor for each file otherwise; a walk lists thousands of files in
 * a few hundred directories. Lives for one project_add_paths. */
typedef struct DirCache {
    Arena *arena;
    NameMap slots;                    /* directory as written -> entry */
    VEC(struct DirEntry { const char *real; const Config *config; }) v;
    ConfigFinder *configs;            /* the nearest configuration, by real directory */
} DirCache;

/* The configuration of `path` (as project_config_for gives it) and its
 * absolute path (as `absolute`, in p->arena). A symlinked file is judged
 * by its target's directory, so it is not cached. `*resolved`: the
 * absolute path is the file's resolved directory and its name, what
 * config_ignores_resolved takes (not so for a symlink). */
static const Config *dir_cache_lookup(Project *p, DirCache *dc, const char *path,
                                      const char **abspath, bool *resolved)
{
    const char *slash = strrchr(path, '/');
    struct stat st;
    bool cached = slash && slash != path && lstat(path, &st) == 0 && !S_ISLNK(st.st_mode);
    size_t slot = 0;
    if (cached) {
        const char *dir = arena_strndup(dc->arena, path, (size_t)(slash - path));
        if (!namemap_get(&dc->slots, dir, &slot)) {
            char *real = realpath(dir, NULL);
            cached = real != NULL; /* NULL: vanished meanwhile */
            if (cached) {
                /* project_config_for, from the directory's real path */
                const Config *cfg =
                    p->forced ? p->forced : config_at(p, config_finder_find(dc->configs, real));
                struct DirEntry e = {arena_strdup(dc->arena, real), cfg};
                VEC_PUSH(dc->arena, &dc->v, e);
                slot = dc->v.n - 1;
                namemap_put(dc->arena, &dc->slots, dir, slot);
            }
            free(real);
        }
    }
    *resolved = cached;
    if (!cached) {
        char *abs = absolute(path);
        *abspath = arena_strdup(p->arena, abs ? abs : path);
        free(abs);
        return project_config_for(p, path);
    }
    const struct DirEntry *e = &dc->v.v[slot];
    *abspath = !strcmp(e->real, "/") ? arena_printf(p->arena, "/%s", slash + 1)
                                     : arena_printf(p->arena, "%s/%s", e->real, slash + 1);
    return e->config;
}

/* Is `abspath` under one of p->exclude? */
static bool excluded(const Project *p, const char *abspath)
{
    for (size_t i = 0; i < p->exclude.n; i++) {
        size_t l = strlen(p->exclude.v[i]);
        if (!strncmp(abspath, p->exclude.v[i], l) && abspath[l] == '/')
            return true;
    }
    return false;
}

size_t project_list_paths(Project *p, const char *const *paths, size_t n)
{
    static const char *const here[] = {"."};
    if (n == 0) {
        paths = here;
        n = 1;
    }
    /* the first directory linted: where templates are looked for when the
     * files are in no git work tree and have no configuration */
    for (size_t i = 0; i < n && !p->first_dir; i++) {
        struct stat st;
        char *abs = realpath(paths[i], NULL);
        if (abs && stat(abs, &st) == 0 && S_ISDIR(st.st_mode))
            p->first_dir = arena_strdup(p->arena, abs);
        free(abs);
    }
    StrList list = {0};
    uint64_t t0 = clock_ns();
    walk_paths(paths, n, p->arena, &list, &p->problems);
    size_t from = p->files.n;
    DirCache dirs = {arena_new(), {0}, {0}, config_finder_new()};
    for (size_t i = 0; i < list.n; i++) {
        if (project_file(p, list.v[i]))
            continue;
        const char *abspath;
        bool resolved;
        const Config *cfg = dir_cache_lookup(p, &dirs, list.v[i], &abspath, &resolved);
        if (project_file(p, abspath))
            continue; /* named before under another spelling */
        if (excluded(p, abspath))
            continue; /* another project's */
        cfg = with_overrides(p, cfg, abspath);
        if (resolved ? config_ignores_resolved(cfg, abspath) : config_ignores(cfg, list.v[i]))
            continue;
        SourceFile f = {.path = list.v[i], .abspath = abspath, .config = cfg};
        VEC_PUSH(p->arena, &p->files, f);
        index_file(p, p->files.n - 1);
    }
    arena_free(dirs.arena);
    config_finder_free(dirs.configs);
    p->walk_ns += clock_ns() - t0;
    return from;
}

void project_add_paths(Project *p, const char *const *paths, size_t n)
{
    project_extract_listed(p, project_list_paths(p, paths, n));
}

void project_extract_listed(Project *p, size_t from)
{
    extract_files(p, from, NULL, 0, p->precheck);
}

static void index_file(Project *p, size_t slot)
{
    namemap_put(p->arena, &p->file_slots, p->files.v[slot].path, slot);
    namemap_put(p->arena, &p->file_slots, p->files.v[slot].abspath, slot);
}

static SourceFile *add_file(Project *p, const char *path)
{
    char *abs = absolute(path);
    SourceFile f = {
        .path = file_display_path(p->arena, abs ? abs : path),
        .abspath = arena_strdup(p->arena, abs ? abs : path),
    };
    free(abs);
    f.config = project_config_for(p, f.abspath);
    VEC_PUSH(p->arena, &p->files, f);
    index_file(p, p->files.n - 1);
    return &p->files.v[p->files.n - 1];
}

/* A file whose analysis facts depend only on its code: parsed, and
 * defining no table, environment binding or index in code, whose
 * positions the table models copy. */
static bool code_only_in_file(const FileIR *ir)
{
    if (ir->parse_failed)
        return false;
    const FileTables *ft = ir->tables;
    return !ft || (!ft->set.tables.n && !ft->set.env.n && !ft->set.issues.n &&
                   !ft->index_calls.n);
}

static const SourceFile *set_text(Project *p, const char *path, const char *text, size_t len,
                                  const SynEdit *edits, size_t nedits);

/* Whether `edits` can have turned `old` into `text`: each within the text
 * of its time, the lengths add up, and for one edit the bytes around it
 * are the same. Otherwise the kept tree is not the old text's (the caller
 * lost track) and the parse starts afresh. */
static bool edits_lead_to(const char *old, size_t old_len, const SynEdit *edits, size_t n,
                          const char *text, size_t len)
{
    if (!old)
        return false;
    size_t at = old_len;
    for (size_t i = 0; i < n; i++) {
        const SynEdit *e = &edits[i];
        if (e->start > e->old_end || e->old_end > at || e->new_end < e->start)
            return false;
        at = at - (e->old_end - e->start) + (e->new_end - e->start);
    }
    if (at != len)
        return false;
    if (n != 1)
        return true;
    const SynEdit *e = &edits[0];
    return !memcmp(old, text, e->start) &&
           !memcmp(old + e->old_end, text + e->new_end, old_len - e->old_end);
}

const SourceFile *project_set_text(Project *p, const char *path, const char *text, size_t len)
{
    return set_text(p, path, text, len, NULL, 0);
}

const SourceFile *project_edit_text(Project *p, const char *path, const char *text, size_t len,
                                    const SynEdit *edits, size_t nedits)
{
    return set_text(p, path, text, len, edits, nedits);
}

static const SourceFile *set_text(Project *p, const char *path, const char *text, size_t len,
                                  const SynEdit *edits, size_t nedits)
{
    SourceFile *f = project_find_file(p, path);
    if (!f) {
        char *abs = absolute(path);
        f = abs ? project_find_file(p, abs) : NULL;
        free(abs);
    }
    if (!f)
        f = add_file(p, path);
    /* the tree of the text before: edited into the new one's, or dropped
     * when the edits are not known (a whole new text) */
    if (!f->reuse)
        f->reuse = syn_reuse_new();
    if (!edits || !f->buffer || !edits_lead_to(f->text, f->len, edits, nedits, text, len))
        syn_reuse_reset(f->reuse);
    for (size_t i = 0; edits && i < nedits; i++)
        syn_reuse_edit(f->reuse, &edits[i]);
    free(f->text);
    f->text = malloc(len + 1);
    if (!f->text)
        abort();
    memcpy(f->text, text, len);
    f->text[len] = '\0';
    f->len = len;
    f->buffer = true;
    /* The IR the last analysis read, when the new text can be compared
     * with it: that analysis's own, or the one kept by an earlier edit. */
    FileIR *prev = f->ir;
    FileIR *base = f->analysed ? f->analysed : f->ir_analysed ? prev : NULL;
    f->ir = NULL;
    extract_one(f, false, false, NULL, NULL);
    f->same_code = base && f->ir && code_only_in_file(base) && code_only_in_file(f->ir) &&
                   base->code_hash == f->ir->code_hash;
    if (f->same_code && !f->analysed) {
        f->analysed = prev; /* read by the analysis: kept */
    } else if (prev != f->analysed) {
        fileir_free(prev);
    }
    f->ir_analysed = false;
    return f;
}

void project_reload(Project *p, const char *path)
{
    SourceFile *f = project_find_file(p, path);
    if (!f)
        return;
    free(f->text);
    f->text = NULL;
    f->len = 0;
    f->buffer = false;
    /* set aside again when the pre-check clears it, as the command line
     * would (the next analysis extracts it if a file needs it) */
    extract_one(f, p->drop_texts, p->precheck, NULL, NULL);
    f->same_code = f->ir_analysed = false;
    if (!f->ir && access(f->abspath, F_OK) != 0)
        project_remove(p, path);
}

void project_remove(Project *p, const char *path)
{
    SourceFile *f = project_find_file(p, path);
    if (!f)
        return;
    free(f->text);
    f->text = NULL;
    fileir_free(f->ir);
    f->ir = NULL;
    defer_note_free(f->note);
    f->note = NULL;
    f->deferred = false;
    f->same_code = f->ir_analysed = false;
    syn_reuse_free(f->reuse);
    f->reuse = NULL;
    problems_free(&f->problems);
    f->removed = true;
}

static bool path_listed(const SourceFile *f, const char *const *paths, size_t n);

void project_problems(const Project *p, Problems *out)
{
    project_problems_of(p, NULL, 0, out);
}

/* Data-access libraries whose keys keylint does not read (their models
 * build the keys inside the library), by module specifier: the package
 * itself or a module under it; `unread` says what is not read when it is
 * not all of their keys. */
static const struct {
    const char *module, *name, *unread;
} unread_libraries[] = {
    {"electrodb", "ElectroDB", NULL},
    {"dynamodb-onetable", "OneTable (dynamodb-onetable)", NULL},
    {"@nerdware/ddb-single-table", "@nerdware/ddb-single-table", NULL},
    {"dynamoose", "Dynamoose", NULL},
    {"@typedorm/core", "TypeDORM (@typedorm/core)", NULL},
    /* the DataMapper's queries are read (lib_datamapper.c); its item
     * classes, annotated, are not */
    {"@aws/dynamodb-data-mapper-annotations", "@aws/dynamodb-data-mapper",
     "whose item classes' keys (@hashKey, @rangeKey) keylint does not read"},
    {"@shiftcoders/dynamo-easy", "dynamo-easy (@shiftcoders/dynamo-easy)", NULL},
    /* entities' pk()/sk() return keys built by hand; the library's
     * queries and scans that use them are not read */
    {"@symphoniacloud/dynamodb-entity-store", "@symphoniacloud/dynamodb-entity-store",
     "whose queries and scans keylint does not read"},
};
enum { NUNREAD = sizeof unread_libraries / sizeof *unread_libraries };

/* Whether `ir` imports (or re-exports from) the library of entry `k`. */
static bool imports_unread(const FileIR *ir, size_t k)
{
    const char *m = unread_libraries[k].module;
    size_t n = strlen(m);
    const ImportList *lists[2] = {&ir->imports, &ir->reexports};
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const char *src = lists[l]->v[i].source;
            if (src && !strncmp(src, m, n) && (src[n] == '\0' || src[n] == '/'))
                return true;
        }
    return false;
}

/* A note per data-access library that files of `p` (of `only`, when not
 * NULL) import and keylint does not read: their keys are not checked, and
 * a clean run says nothing about them. */
static void unread_library_notes(const Project *p, const char *const *only, size_t nonly,
                                 Problems *out)
{
    size_t count[NUNREAD] = {0};
    for (size_t f = 0; f < p->files.n; f++) {
        const SourceFile *sf = &p->files.v[f];
        if (sf->removed || !sf->ir || (only && !path_listed(sf, only, nonly)))
            continue;
        bool seen[NUNREAD] = {0}; /* a library under two entries: counted once */
        for (size_t k = 0; k < NUNREAD; k++) {
            size_t first = k;
            while (first > 0 && strcmp(unread_libraries[first - 1].name,
                                       unread_libraries[k].name) == 0)
                first--;
            if (!seen[first] && imports_unread(sf->ir, k)) {
                seen[first] = true;
                count[first]++;
            }
        }
    }
    for (size_t k = 0; k < NUNREAD; k++)
        if (count[k])
            problems_add_kind(out, PROBLEM_NOTE, "", 0, 0,
                              "%zu file%s use%s %s, %s", count[k], count[k] == 1 ? "" : "s",
                              count[k] == 1 ? "s" : "", unread_libraries[k].name,
                              unread_libraries[k].unread ? unread_libraries[k].unread
                                                         : "whose keys keylint does not read");
}

void project_problems_of(const Project *p, const char *const *only, size_t nonly, Problems *out)
{
    unread_library_notes(p, only, nonly, out);
    const Problems *lists[2] = {&p->problems, &p->schema_problems};
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->items.n; i++) {
            const Problem *pr = &lists[l]->items.v[i];
            problems_add_kind(out, pr->kind, pr->path, pr->line, pr->col, "%s", pr->message);
        }
    for (size_t f = 0; f < p->files.n; f++) {
        const SourceFile *sf = &p->files.v[f];
        if (sf->removed || !sf->problems.arena || (only && !path_listed(sf, only, nonly)))
            continue;
        for (size_t i = 0; i < sf->problems.items.n; i++) {
            const Problem *pr = &sf->problems.items.v[i];
            problems_add_kind(out, pr->kind, pr->path, pr->line, pr->col, "%s", pr->message);
        }
    }
    problems_sort(out);
}

size_t project_linted_files(const Project *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->files.n; i++)
        if (!p->files.v[i].removed &&
            (p->files.v[i].deferred || (p->files.v[i].ir && !p->files.v[i].ir->parse_failed)))
            n++;
    /* and the schema files read that are not among them (a template, a
     * Terraform file), each once */
    StrList seen = {0};
    Arena *scratch = arena_new();
    for (size_t m = 0; m < p->models.n; m++) {
        const StrList *sf = &p->models.v[m].model->schema_files;
        for (size_t i = 0; i < sf->n; i++)
            if (!project_file(p, sf->v[i]) && !strlist_has(&seen, sf->v[i])) {
                strlist_push(scratch, &seen, sf->v[i]);
                n++;
            }
    }
    arena_free(scratch);
    return n;
}

/* ---- tables (access-pattern rules) ----------------------------------------- */

/* One table model per configuration file: a configuration with overrides
 * applied shares its file's (config_root). */
static const TableModel *model_for(const Project *p, const Config *cfg)
{
    cfg = config_root(cfg);
    for (size_t i = 0; i < p->models.n; i++)
        if (p->models.v[i].config == cfg)
            return p->models.v[i].model;
    return NULL;
}

/* Where the templates found and the schema files read are kept. */
static TemplateCache *project_templates(Project *p)
{
    if (!p->templates) {
        p->templates = arena_alloc(p->arena, sizeof *p->templates);
        memset(p->templates, 0, sizeof *p->templates);
        p->templates->arena = p->arena;
        p->templates->base = p->first_dir;
    }
    return p->templates;
}

/* A table model per configuration in use (schema files read again: they
 * may have changed, unless the editor's analyses keep them), in the fresh
 * analysis arena. */
static void models_prepare(Project *p, const ResolveFile *rf, FileIR **irs, size_t n)
{
    problems_free(&p->schema_problems);
    problems_init(&p->schema_problems);
    memset(&p->models, 0, sizeof p->models);
    const Config **cfgs = arena_alloc(p->analysis, (n ? n : 1) * sizeof *cfgs);
    const char **abspaths = arena_alloc(p->analysis, (n ? n : 1) * sizeof *abspaths);
    for (size_t i = 0; i < n; i++) {
        cfgs[i] = config_root(rf[i].config);
        abspaths[i] = rf[i].abspath;
    }
    /* A model for each configuration in use: those of the files parsed,
     * and also of the files the pre-check set aside and of the directory
     * linted, whose schemas are judged even when no source file is
     * parsed, or there is none (a Python service with a template). */
    size_t nall = n + 1 + p->files.n + 1;
    const Config **use = arena_alloc(p->analysis, nall * sizeof *use);
    size_t nuse = 0;
    for (size_t i = 0; i < n; i++)
        use[nuse++] = cfgs[i];
    use[nuse++] = p->forced;
    for (size_t i = 0; i < p->files.n; i++)
        if (!p->files.v[i].removed)
            use[nuse++] = p->files.v[i].config;
    if (p->first_dir)
        use[nuse++] = project_config_for(
            p, arena_printf(p->analysis, "%s/.keylint-directory", p->first_dir));
    for (size_t i = 0; i < nuse; i++) {
        const Config *c = use[i];
        if (!c || model_for(p, c))
            continue;
        ModelEntry e = {c, access_model(p->analysis, c, irs, cfgs, abspaths, n,
                                        &p->schema_problems, project_templates(p))};
        VEC_PUSH(p->analysis, &p->models, e);
    }
    problems_sort(&p->schema_problems);
}

/* The key candidates of files rf[0, n) settled by their tables
 * (access_settle_keys), with the table models of the analysis; `af` the
 * access facts to find tables with, NULL: an index of names built here
 * over files irs[0, nall). */
static void settle_keys(Project *p, const ResolveFile *rf, size_t n, FileIR **irs, size_t nall,
                        const AccessFacts *af)
{
    AccessFacts light;
    NameMap queried = {0};
    Arena *scratch = NULL;
    for (size_t i = 0; i < n; i++) {
        bool any = false;
        for (size_t k = 0; k < rf[i].ir->keys.n && !any; k++)
            any = rf[i].ir->keys.v[k].named_by != NAMED_SPELLING;
        if (!any)
            continue;
        if (!scratch) {
            scratch = arena_new();
            if (!af) {
                access_index_only(&light, scratch, irs, nall);
                af = &light;
            }
            access_queried_keys(scratch, irs, nall, &queried);
        }
        const Config *cfg = p->forced ? p->forced : rf[i].config;
        access_settle_keys(scratch, af, model_for(p, cfg), cfg, &queried, rf[i].ir);
    }
    arena_free(scratch);
}

/* The access facts, and the tenancy of each model's tables. */
static void access_prepare(Project *p, const ResolveFile *rf, FileIR **irs, size_t n,
                           const AccessFacts *index, bool keep_parts)
{
    p->access = arena_alloc(p->analysis, sizeof *p->access);
    const Config *fcfg = p->forced ? p->forced : n ? rf[0].config : p->defaults;
    if (keep_parts)
        access_compute_keeping(p->access, p->analysis, irs, n, fcfg, index, &p->access_fold);
    else
        access_compute_indexed(p->access, p->analysis, irs, n, fcfg, index);
    const Config **cfgs = arena_alloc(p->analysis, (n ? n : 1) * sizeof *cfgs);
    for (size_t i = 0; i < n; i++)
        cfgs[i] = config_root(rf[i].config);
    for (size_t m = 0; m < p->models.n; m++) {
        const Config *c = p->models.v[m].config;
        if (c->tenant_required == TENANT_AUTO && p->facts.has_tenant_keys)
            access_mark_tenants(p->analysis, p->access, p->models.v[m].model, c, irs, cfgs, n);
    }
}

/* Rules' findings about each configuration's inputs (schema files,
 * access patterns): check_project, once per configuration. */
static void tables_check_project(Project *p)
{
    for (size_t m = 0; m < p->models.n; m++) {
        const ModelEntry *e = &p->models.v[m];
        for (const RuleDesc *const *r = keylint_rules; *r; r++) {
            if (!(*r)->check_project)
                continue;
            Severity sev = config_rule_severity(e->config, (*r)->id, (*r)->default_severity);
            if (sev == SEV_OFF)
                continue;
            RuleContext ctx = {
                .rule = *r,
                .severity = sev,
                .config = e->config,
                .facts = &p->facts,
                .out = &p->diags,
                .tables = e->model,
                .access = p->access,
            };
            (*r)->check_project(&ctx);
        }
    }
}

/* A new analysis: the previous one's facts and findings are dropped, the
 * project-wide facts and table models computed afresh over `n` files.
 * `keep_parts`: keep each file's part of the facts for the next analysis
 * (the editor's); a one-shot run frees them at once (facts.h). */
static void begin_analysis(Project *p, ResolveFile *rf, FileIR **irs, size_t n,
                           bool keep_parts)
{
    const Config *fcfg = p->forced ? p->forced : n ? rf[0].config : p->defaults;
    arena_free(p->analysis);
    p->analysis = arena_new();
    diag_free(&p->diags);
    diag_init(&p->diags);
    /* the tables first: they settle which attributes of key maps and
     * items are keys, before the facts read the keys */
    models_prepare(p, rf, irs, n);
    /* the index of names settling the keys reads, made once: the access
     * facts take it over */
    AccessFacts *names = arena_alloc(p->analysis, sizeof *names);
    if (keep_parts)
        access_index_keeping(names, p->analysis, irs, n, &p->access_fold);
    else
        access_index_only(names, p->analysis, irs, n);
    settle_keys(p, rf, n, irs, n, names);
    /* the editor keeps each file's part of the facts with its resolution
     * (FileIR.facts_part): the next analysis builds only the parts of
     * the files it resolved again */
    if (keep_parts)
        facts_compute_keeping(&p->facts, p->analysis, irs, n, fcfg, &p->facts_fold);
    else
        facts_compute(&p->facts, p->analysis, irs, n, fcfg);
    access_prepare(p, rf, irs, n, names, keep_parts);
    /* the facts read every file's current IR now: the IRs kept for the
     * previous facts go (their importers were resolved again) */
    for (size_t i = 0; i < p->files.n; i++) {
        SourceFile *f = &p->files.v[i];
        fileir_free(f->analysed);
        f->analysed = NULL;
        f->same_code = false;
        f->ir_analysed = f->ir != NULL;
    }
}

/* Every enabled rule on one file, with the facts and tables of the current
 * analysis; findings go to p->diags. */
static void check_file(Project *p, const ResolveFile *file)
{
    /* the file's keys as parts, read by most rules: flattened once */
    const KeyExprList *keys = &file->ir->keys;
    Arena *scratch = arena_new();
    KfKey *flat = arena_alloc(scratch, (keys->n ? keys->n : 1) * sizeof *flat);
    for (size_t i = 0; i < keys->n; i++)
        kf_flatten(scratch, &keys->v[i].segs, &flat[i]);
    for (const RuleDesc *const *r = keylint_rules; *r; r++) {
        Severity sev = config_rule_severity(file->config, (*r)->id, (*r)->default_severity);
        if (sev == SEV_OFF)
            continue;
        RuleContext ctx = {
            .rule = *r,
            .severity = sev,
            .file = file->ir,
            .config = file->config,
            .facts = &p->facts,
            .out = &p->diags,
            .tables = model_for(p, file->config),
            .access = p->access,
            .flat = flat,
        };
        (*r)->check(&ctx);
    }
    arena_free(scratch);
}

/* An analysis of every file reads tsconfig and package.json files again. */
static void modenv_reset(Project *p)
{
    modenv_free(p->modenv);
    p->modenv = NULL;
}

void project_analyze(Project *p)
{
    modenv_reset(p);
    graph_free(p);
    defer_extract_reached(p, extract_slots);
    uint64_t t0 = clock_ns();
    size_t n = 0;
    ResolveFile *rf = calloc(p->files.n ? p->files.n : 1, sizeof *rf);
    FileIR **irs = calloc(p->files.n ? p->files.n : 1, sizeof *irs);
    if (!rf || !irs)
        abort();
    for (size_t i = 0; i < p->files.n; i++) {
        SourceFile *f = &p->files.v[i];
        if (f->removed || !f->ir || f->ir->parse_failed)
            continue;
        rf[n] = (ResolveFile){f->ir, f->abspath, f->config};
        irs[n++] = f->ir;
    }
    resolve_project_in(rf, n, n, project_modenv(p));
    resolve_drop_unused_helpers(rf, n, irs, n);
    begin_analysis(p, rf, irs, n, false);

    for (size_t i = 0; i < n; i++)
        check_file(p, &rf[i]);
    tables_check_project(p);
    /* inline directives (keylint-disable-...), after every rule */
    suppress_project(p);
    if (p->prove_fixes)
        fixproof_run(p);
    diag_sort(&p->diags);
    problems_sort(&p->problems);
    free(rf);
    free(irs);
    p->analyze_ns += clock_ns() - t0;
}

/* ---- project_analyze_some: the editor's faster path ----------------------
 * Keep in step with project_analyze: the same files resolved (each file's
 * resolution depends only on its own IR and the definitions of the files
 * it imports), the same facts, the same rules and suppressions; only
 * fewer files resolved again and checked. tests/test_lsp.c compares the
 * two on every fixture project. */

static bool path_listed(const SourceFile *f, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(paths[i], f->path) || !strcmp(paths[i], f->abspath))
            return true;
    return false;
}

typedef struct SlotPath {
    const char *path;
    size_t slot;
} SlotPath;

static int slotpath_cmp(const void *x, const void *y)
{
    const SlotPath *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : a->slot < b->slot ? -1 : a->slot > b->slot;
}

static bool analysable(const SourceFile *f)
{
    return !f->removed && f->ir && !f->ir->parse_failed;
}

/* The import graph resolve_mask reads, kept between the editor's
 * analyses (Project.graph): the nodes (one per distinct absolute path,
 * the live slot preferred) while the project's slots and which are
 * removed stay the same, and each node's edges while the imports of its
 * file (by a hash of their specifiers) stay the same. Dropped by an
 * analysis that resolves every file (module resolution may answer
 * otherwise then). */
typedef VEC(size_t) Deps;
struct ImportGraph {
    Arena *a;
    size_t nf, nn;
    bool *removed;        /* per slot, when built */
    size_t *node_of;      /* per slot */
    size_t *slot_of;      /* per node */
    const char **paths;   /* per node */
    Deps *deps;           /* per node: the nodes it imports */
    uint64_t *imports;    /* per node: hash of its file's specifiers, 0: none */
    bool *known;          /* per node: deps computed */
};

static void graph_free(Project *p)
{
    if (p->graph)
        arena_free(p->graph->a);
    free(p->graph);
    p->graph = NULL;
}

/* A hash of the specifiers `f` imports and re-exports (1 + ...: never 0
 * for an analysable file). */
static uint64_t imports_hash(const SourceFile *f)
{
    if (!analysable(f))
        return 0;
    uint64_t h = 1469598103934665603u;
    for (int list = 0; list < 2; list++) {
        const Import *v = list ? f->ir->reexports.v : f->ir->imports.v;
        size_t n = list ? f->ir->reexports.n : f->ir->imports.n;
        for (size_t i = 0; i < n; i++) {
            for (const char *c = v[i].source ? v[i].source : ""; *c; c++)
                h = (h ^ (unsigned char)*c) * 1099511628211u;
            h = (h ^ 0xff) * 1099511628211u;
        }
        h = (h ^ 0xfe) * 1099511628211u;
    }
    return h | 1;
}

static struct ImportGraph *graph_nodes(Project *p)
{
    size_t nf = p->files.n;
    struct ImportGraph *g = p->graph;
    if (g && g->nf == nf) {
        bool same = true;
        for (size_t i = 0; i < nf && same; i++)
            same = g->removed[i] == p->files.v[i].removed;
        if (same)
            return g;
    }
    graph_free(p);
    g = calloc(1, sizeof *g);
    if (!g)
        abort();
    p->graph = g;
    Arena *a = g->a = arena_new();
    g->nf = nf;
    SlotPath *sorted = arena_alloc(a, (nf ? nf : 1) * sizeof *sorted);
    for (size_t i = 0; i < nf; i++)
        sorted[i] = (SlotPath){p->files.v[i].abspath, i};
    qsort(sorted, nf, sizeof *sorted, slotpath_cmp);
    g->removed = arena_alloc(a, (nf ? nf : 1) * sizeof *g->removed);
    g->node_of = arena_alloc(a, (nf ? nf : 1) * sizeof *g->node_of);
    g->slot_of = arena_alloc(a, (nf ? nf : 1) * sizeof *g->slot_of);
    g->paths = arena_alloc(a, (nf ? nf : 1) * sizeof *g->paths);
    size_t nn = 0;
    for (size_t j = 0; j < nf; j++) {
        size_t i = sorted[j].slot;
        const SourceFile *f = &p->files.v[i];
        g->removed[i] = f->removed;
        if (nn == 0 || strcmp(g->paths[nn - 1], f->abspath)) {
            g->paths[nn] = f->abspath;
            g->slot_of[nn++] = i;
        } else if (!f->removed) {
            g->slot_of[nn - 1] = i;
        }
        g->node_of[i] = nn - 1;
    }
    g->nn = nn;
    g->deps = arena_alloc(a, (nn ? nn : 1) * sizeof *g->deps);
    g->imports = arena_alloc(a, (nn ? nn : 1) * sizeof *g->imports);
    g->known = arena_alloc(a, (nn ? nn : 1) * sizeof *g->known);
    return g;
}

/* Which analysable files to resolve again after `changed`: a file graph
 * over every file slot (removed and unparsable ones too, so that their
 * importers are found) with an edge per import or re-export that module
 * resolution maps to another file. */
static void resolve_mask(Project *p, Arena *a, const char *const *changed,
                         size_t nchanged, bool *resolve)
{
    size_t nf = p->files.n;
    struct ImportGraph *g = graph_nodes(p);
    size_t nn = g->nn;
    const size_t *node_of = g->node_of, *slot_of = g->slot_of;
    bool *dirty = arena_alloc(a, (nf ? nf : 1) * sizeof *dirty);
    for (size_t i = 0; i < nf; i++)
        if (path_listed(&p->files.v[i], changed, nchanged))
            dirty[node_of[i]] = true;
    /* edges: deps[k] lists the nodes node k imports (again for a node
     * whose imports changed) */
    Deps *deps = g->deps;
    ModuleMap *m = NULL;
    for (size_t k = 0; k < nn; k++) {
        const SourceFile *f = &p->files.v[slot_of[k]];
        /* an IR the last analysis read is the one the edges were found
         * from (every change of a file's IR clears ir_analysed, and the
         * edges of a changed IR are found before the analysis sets it) */
        if (g->known[k] && f->ir_analysed)
            continue;
        uint64_t h = imports_hash(f);
        if (g->known[k] && g->imports[k] == h)
            continue;
        g->known[k] = true;
        g->imports[k] = h;
        deps[k].n = 0;
        if (!h)
            continue;
        if (!m)
            m = modmap_new_in(g->paths, nn, project_modenv(p));
        for (int list = 0; list < 2; list++) {
            const Import *v = list ? f->ir->reexports.v : f->ir->imports.v;
            size_t n = list ? f->ir->reexports.n : f->ir->imports.n;
            for (size_t i = 0; i < n; i++) {
                if (!v[i].source || !v[i].source[0])
                    continue;
                long t = modmap_resolve(m, k, v[i].source);
                if (t >= 0 && (size_t)t != k)
                    VEC_PUSH(g->a, &deps[k], (size_t)t);
            }
        }
    }
    modmap_free(m);
    /* R: the changed files and everything that imports them, transitively */
    bool *in_r = arena_alloc(a, (nn ? nn : 1) * sizeof *in_r);
    for (size_t k = 0; k < nn; k++)
        in_r[k] = dirty[k];
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t k = 0; k < nn; k++)
            for (size_t j = 0; !in_r[k] && j < deps[k].n; j++)
                if (in_r[deps[k].v[j]])
                    in_r[k] = grew = true;
    }
    /* plus what they import, transitively, for their lookups */
    bool *want = arena_alloc(a, (nn ? nn : 1) * sizeof *want);
    size_t *stack = arena_alloc(a, (nn ? nn : 1) * sizeof *stack);
    size_t top = 0;
    for (size_t k = 0; k < nn; k++)
        if (in_r[k]) {
            want[k] = true;
            stack[top++] = k;
        }
    while (top) {
        size_t k = stack[--top];
        for (size_t j = 0; j < deps[k].n; j++)
            if (!want[deps[k].v[j]]) {
                want[deps[k].v[j]] = true;
                stack[top++] = deps[k].v[j];
            }
    }
    for (size_t i = 0; i < nf; i++)
        resolve[i] = want[node_of[i]] && slot_of[node_of[i]] == i;
}

/* Whether every changed file only changed inside comments since the last
 * analysis (SourceFile.same_code): its findings are then the only ones
 * that can move, and the project-wide facts stand. */
static bool only_comments_changed(const Project *p, const char *const *changed,
                                  size_t nchanged)
{
    if (!changed || !nchanged)
        return false;
    for (size_t i = 0; i < p->files.n; i++) {
        const SourceFile *f = &p->files.v[i];
        if (path_listed(f, changed, nchanged) && !(f->same_code && analysable(f)))
            return false;
    }
    return true;
}

/* The changed files, plus those whose kept IR (SourceFile.analysed) the
 * next facts drop: their importers are resolved again too. */
static const char **changed_or_kept(const Project *p, Arena *a, const char *const *changed,
                                    size_t *n)
{
    const char **v = arena_alloc(a, (*n + p->files.n + 1) * sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = changed[i];
    for (size_t i = 0; i < p->files.n; i++)
        if (p->files.v[i].analysed)
            v[(*n)++] = p->files.v[i].abspath;
    return v;
}

/* The files set aside that defer_extract_reached extracted (their slots
 * were marked in `waiting` before it ran), added to `changed`: the files
 * that import them are resolved again. */
static const char **changed_or_extracted(const Project *p, Arena *a, const bool *waiting,
                                         const char *const *changed, size_t *n)
{
    const char **v = arena_alloc(a, (*n + p->files.n + 1) * sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = changed[i];
    for (size_t i = 0; i < p->files.n; i++)
        if (waiting[i] && p->files.v[i].ir)
            v[(*n)++] = p->files.v[i].abspath;
    return v;
}

void project_analyze_some(Project *p, const char *const *changed, size_t nchanged,
                          const char *const *check, size_t ncheck)
{
    /* the editor's analyses: tsconfig, package.json and schema files are
     * read by the first and kept until one resolves every file (after one
     * of them changed: the language server's full analysis) */
    if (!changed) {
        modenv_reset(p);
        templates_forget(p->templates);
        graph_free(p);
        facts_fold_free(p->facts_fold);
        p->facts_fold = NULL;
        access_fold_free(p->access_fold);
        p->access_fold = NULL;
    }
    project_templates(p)->memo = true;
    Arena *scratch = arena_new();
    size_t nf = p->files.n;
    bool *waiting = NULL, *seed = NULL;
    if (p->precheck && changed) {
        waiting = arena_alloc(scratch, (nf ? nf : 1) * sizeof *waiting);
        seed = arena_alloc(scratch, (nf ? nf : 1) * sizeof *seed);
        for (size_t i = 0; i < nf; i++) {
            const SourceFile *f = &p->files.v[i];
            waiting[i] = !f->removed && f->deferred && !f->ir;
            seed[i] = path_listed(f, changed, nchanged);
            /* a changed file set aside now (re-read from disk, or added)
             * may be needed by any other: every file is read */
            if (seed[i] && waiting[i])
                seed = NULL;
            if (!seed)
                break;
        }
        for (size_t i = 0; i < nf; i++)
            waiting[i] = !p->files.v[i].removed && p->files.v[i].deferred &&
                         !p->files.v[i].ir;
    }
    /* the last analysis extracted every file set aside that the others
     * need: only what changed can need more */
    defer_extract_reached_from(p, extract_slots, seed);
    if (waiting)
        changed = changed_or_extracted(p, scratch, waiting, changed, &nchanged);
    uint64_t t0 = clock_ns();
    bool *resolve = arena_alloc(scratch, (nf ? nf : 1) * sizeof *resolve);
    bool same_facts = only_comments_changed(p, changed, nchanged);
    if (same_facts) {
        for (size_t i = 0; i < nf; i++)
            resolve[i] = path_listed(&p->files.v[i], changed, nchanged);
    } else if (changed) {
        changed = changed_or_kept(p, scratch, changed, &nchanged);
        resolve_mask(p, scratch, changed, nchanged, resolve);
    } else {
        for (size_t i = 0; i < nf; i++)
            resolve[i] = true;
    }

    size_t n = 0, nr = 0;
    ResolveFile *rf = arena_alloc(scratch, (nf ? nf : 1) * sizeof *rf);
    ResolveFile *rr = arena_alloc(scratch, (nf ? nf : 1) * sizeof *rr);
    FileIR **irs = arena_alloc(scratch, (nf ? nf : 1) * sizeof *irs);
    size_t *slot = arena_alloc(scratch, (nf ? nf : 1) * sizeof *slot);
    for (size_t i = 0; i < nf; i++) {
        SourceFile *f = &p->files.v[i];
        if (!analysable(f))
            continue;
        rf[n] = (ResolveFile){f->ir, f->abspath, f->config};
        slot[n] = i;
        irs[n++] = f->ir;
        if (resolve[i])
            rr[nr++] = (ResolveFile){f->ir, f->abspath, f->config};
    }
    if (same_facts && nr) {
        /* only the edited files: every other file is there for lookups */
        size_t nl = nr;
        for (size_t i = 0; i < nf; i++)
            if (analysable(&p->files.v[i]) && !resolve[i])
                rr[nl++] = (ResolveFile){p->files.v[i].ir, p->files.v[i].abspath,
                                         p->files.v[i].config};
        resolve_project_in(rr, nl, nr, project_modenv(p));
        resolve_drop_unused_helpers(rr, nr, irs, n);
        /* the tables of the last analysis stand */
        settle_keys(p, rr, nr, irs, n, p->access);
    } else if (nr) {
        resolve_project_in(rr, nr, nr, project_modenv(p));
        resolve_drop_unused_helpers(rr, nr, irs, n);
    }
    if (same_facts) {
        /* the facts, tables and models of the last analysis stand (they
         * read the kept IRs); only the findings are new */
        diag_free(&p->diags);
        diag_init(&p->diags);
    } else {
        begin_analysis(p, rf, irs, n, true);
    }

    for (size_t i = 0; i < n; i++) {
        if (!path_listed(&p->files.v[slot[i]], check, ncheck))
            continue;
        size_t from = p->diags.items.n;
        check_file(p, &rf[i]);
        /* inline directives, on this file's findings only */
        if (irs[i]->comments.n)
            suppress_file(&p->diags, from, p->diags.items.n, irs[i], rf[i].config);
    }
    /* findings about each configuration's inputs (schemas, access
     * patterns), as project_analyze has them */
    tables_check_project(p);
    suppress_compact(&p->diags);
    if (p->prove_fixes)
        fixproof_run(p);
    diag_sort(&p->diags);
    problems_sort(&p->problems);
    arena_free(scratch);
    p->analyze_ns += clock_ns() - t0;
}
