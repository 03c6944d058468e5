#include "walk.h"

#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ kinds */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* True when `name` ends with `suf` and has something before it. */
static bool has_ext(const char *name, size_t n, const char *suf)
{
    size_t m = strlen(suf);
    return n > m && memcmp(name + n - m, suf, m) == 0;
}

bool is_source_path(const char *path)
{
    static const char *const exts[] = {".ts",  ".tsx", ".mts", ".cts",
                                       ".js",  ".jsx", ".mjs", ".cjs"};
    static const char *const decls[] = {".d.ts", ".d.mts", ".d.cts"};
    if (!path)
        return false;
    const char *b = base_name(path);
    size_t n = strlen(b);
    bool ok = false;
    for (size_t i = 0; i < sizeof exts / sizeof *exts && !ok; i++)
        ok = has_ext(b, n, exts[i]);
    if (!ok)
        return false;
    for (size_t i = 0; i < sizeof decls / sizeof *decls; i++) {
        size_t m = strlen(decls[i]);
        if (n >= m && memcmp(b + n - m, decls[i], m) == 0)
            return false;
    }
    return true;
}

bool is_tsx_path(const char *path)
{
    if (!path)
        return false;
    const char *b = base_name(path);
    size_t n = strlen(b);
    /* JavaScript files often hold JSX; the TSX grammar reads both. */
    return has_ext(b, n, ".tsx") || has_ext(b, n, ".jsx") || has_ext(b, n, ".js") ||
           has_ext(b, n, ".mjs") || has_ext(b, n, ".cjs");
}

/* ----------------------------------------------------------------- errors */

/* strerror text with a lower-case first letter ("no such file or
 * directory"), copied into `buf`. Thread-safe (GNU strerror_r). */
static const char *err_text(int err, char *buf, size_t size)
{
    char tmp[256];
    const char *s = strerror_r(err, tmp, sizeof tmp);
    size_t n = strlen(s);
    if (n >= size)
        n = size - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
        buf[0] = (char)(buf[0] - 'A' + 'a');
    return buf;
}

/* ------------------------------------------------------------------ paths */

static const char *const skip_dirs[] = {
    "node_modules", ".git",        "dist",     "build", "out", "coverage",
    "cdk.out",      ".serverless", ".aws-sam", ".next", ".terraform", ".keylint-cache",
    ".yarn", /* Yarn's own release, plugins, SDKs and cache, committed beside the code */
};

static bool is_skipped_name(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof skip_dirs / sizeof *skip_dirs; i++)
        if (strlen(skip_dirs[i]) == n && memcmp(skip_dirs[i], s, n) == 0)
            return true;
    return false;
}

/* True when any '/'-separated component of `rel` is a skipped name. */
static bool has_skipped_component(const char *rel)
{
    const char *p = rel;
    for (;;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (is_skipped_name(p, n))
            return true;
        if (!e)
            return false;
        p = e + 1;
    }
}

static char *join_path(Arena *a, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    if (n == 0)
        return arena_strdup(a, name);
    if (dir[n - 1] == '/')
        return arena_printf(a, "%s%s", dir, name);
    return arena_printf(a, "%s/%s", dir, name);
}

/* Lexically clean an absolute path: collapse "//", drop ".", resolve "..". */
static char *clean_abs(Arena *a, const char *abs)
{
    size_t n = strlen(abs);
    char *out = arena_alloc(a, n + 2);
    size_t o = 0;
    const char *p = abs;
    while (*p) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0)
            break;
        if (len == 1 && p[0] == '.') {
            /* nothing */
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--; /* the '/' itself */
        } else {
            out[o++] = '/';
            memcpy(out + o, p, len);
            o += len;
        }
        p += len;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
    return out;
}

/* Display form of `p`: relative to `cwd` when (lexically) under it, else
 * `p` as given. `cwd` may be NULL when unknown. */
static const char *display_path(Arena *a, const char *cwd, const char *p)
{
    if (!cwd) {
        while (p[0] == '.' && p[1] == '/' && p[2])
            p += 2;
        return p;
    }
    const char *abs = p[0] == '/' ? p : join_path(a, cwd, p);
    char *c = clean_abs(a, abs);
    size_t n = strlen(cwd);
    if (n == 1 && cwd[0] == '/')
        return c[1] ? c + 1 : ".";
    if (strncmp(c, cwd, n) == 0) {
        if (c[n] == '/')
            return c + n + 1;
        if (c[n] == '\0')
            return ".";
    }
    return p;
}

/* --------------------------------------------------------- visited set */

typedef struct DirId {
    dev_t dev;
    ino_t ino;
    bool used;
} DirId;

typedef struct DirSet {
    DirId *slots;
    size_t cap, n; /* cap is a power of two */
} DirSet;

static size_t dirid_hash(dev_t dev, ino_t ino)
{
    uint64_t h = (uint64_t)ino * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)dev + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    return (size_t)(h ^ (h >> 31));
}

static DirId *dirset_slot(DirId *slots, size_t cap, dev_t dev, ino_t ino)
{
    size_t i = dirid_hash(dev, ino) & (cap - 1);
    while (slots[i].used && !(slots[i].dev == dev && slots[i].ino == ino))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static bool dirset_has(const DirSet *s, dev_t dev, ino_t ino)
{
    return s->cap && dirset_slot(s->slots, s->cap, dev, ino)->used;
}

/* Adds (dev, ino); false when it was already there. */
static bool dirset_add(Arena *a, DirSet *s, dev_t dev, ino_t ino)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        DirId *ns = arena_alloc(a, ncap * sizeof *ns);
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].used)
                *dirset_slot(ns, ncap, s->slots[i].dev, s->slots[i].ino) =
                    s->slots[i];
        s->slots = ns;
        s->cap = ncap;
    }
    DirId *d = dirset_slot(s->slots, s->cap, dev, ino);
    if (d->used)
        return false;
    *d = (DirId){.dev = dev, .ino = ino, .used = true};
    s->n++;
    return true;
}

/* ------------------------------------------------------------ walk state */

typedef struct Walk {
    Arena *tmp;         /* scratch, freed at the end of walk_paths */
    const char *cwd;    /* NULL when unknown */
    VEC(const char *) found; /* display paths, in tmp */
    Problems *problems;
    bool (*want)(const char *path); /* the files listed: is_source_path for walk_paths */
} Walk;

static void add_found(Walk *w, const char *joined)
{
    VEC_PUSH(w->tmp, &w->found, display_path(w->tmp, w->cwd, joined));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ------------------------------------------------------------- plain walk */

/* Every directory below `root`, each entered once by (st_dev, st_ino).
 * Real subdirectories go on a depth-first stack visited in name order;
 * directories reached through a symlink wait in a FIFO until the stack is
 * empty, so a directory is listed under its real path when the walk can
 * reach it without symlinks, and the listing never depends on readdir
 * order. */
/* True when `path` resolves to `root_real` or below it (both resolved). */
static bool resolves_inside(const char *root_real, const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        return false;
    size_t n = strlen(root_real);
    bool inside = strncmp(real, root_real, n) == 0 &&
                  (real[n] == '\0' || real[n] == '/' || (n == 1 && root_real[0] == '/'));
    free(real);
    return inside;
}

static void plain_walk(Walk *w, const char *root)
{
    char eb[256];
    /* symlinks are followed only while they stay in the tree: a link to
     * `/` or to a sibling checkout is not walked */
    char *root_real = realpath(root, NULL);
    DirSet seen = {0};
    VEC(const char *) stack = {0};
    VEC(const char *) linked = {0};
    size_t linked_next = 0;
    VEC_PUSH(w->tmp, &stack, root);

    for (;;) {
        const char *dir;
        if (stack.n)
            dir = stack.v[--stack.n];
        else if (linked_next < linked.n)
            dir = linked.v[linked_next++];
        else
            break;

        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        if (!d) {
            int err = errno;
            if (fd >= 0)
                close(fd);
            problems_add(w->problems, display_path(w->tmp, w->cwd, dir), 0, 0,
                         "cannot read directory: %s",
                         err_text(err, eb, sizeof eb));
            continue;
        }
        struct stat st;
        if (fstat(dirfd(d), &st) != 0 ||
            !dirset_add(w->tmp, &seen, st.st_dev, st.st_ino)) {
            closedir(d); /* entered before: a symlink loop or an alias */
            continue;
        }

        VEC(const char *) subdirs = {0};
        VEC(const char *) sublinks = {0};
        for (;;) {
            errno = 0;
            struct dirent *e = readdir(d);
            if (!e) {
                if (errno)
                    problems_add(w->problems,
                                 display_path(w->tmp, w->cwd, dir), 0, 0,
                                 "cannot read directory: %s",
                                 err_text(errno, eb, sizeof eb));
                break;
            }
            const char *name = e->d_name;
            if (name[0] == '.' &&
                (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                continue;
            bool is_dir = false, is_link = false, is_file = false;
            unsigned char type = e->d_type;
            if (type == DT_DIR) {
                is_dir = true;
            } else if (type == DT_REG) {
                is_file = true;
            } else if (type == DT_LNK || type == DT_UNKNOWN) {
                struct stat es;
                if (fstatat(dirfd(d), name, &es, 0) != 0)
                    continue; /* dangling link, vanished entry, ... */
                if (type == DT_UNKNOWN) {
                    struct stat ls;
                    is_link = fstatat(dirfd(d), name, &ls,
                                      AT_SYMLINK_NOFOLLOW) == 0 &&
                              S_ISLNK(ls.st_mode);
                } else {
                    is_link = true;
                }
                if (is_link && (!root_real ||
                                !resolves_inside(root_real, join_path(w->tmp, dir, name))))
                    continue;
                if (S_ISDIR(es.st_mode)) {
                    if (dirset_has(&seen, es.st_dev, es.st_ino))
                        continue;
                    is_dir = true;
                } else if (S_ISREG(es.st_mode)) {
                    is_file = true;
                }
            }
            if (is_dir) {
                if (!is_skipped_name(name, strlen(name))) {
                    const char *sub = join_path(w->tmp, dir, name);
                    if (is_link)
                        VEC_PUSH(w->tmp, &sublinks, sub);
                    else
                        VEC_PUSH(w->tmp, &subdirs, sub);
                }
            } else if (is_file && w->want(name)) {
                add_found(w, join_path(w->tmp, dir, name));
            }
        }
        closedir(d);

        if (subdirs.n > 1)
            qsort(subdirs.v, subdirs.n, sizeof *subdirs.v, cmp_str);
        for (size_t i = subdirs.n; i > 0; i--)
            VEC_PUSH(w->tmp, &stack, subdirs.v[i - 1]);
        if (sublinks.n > 1)
            qsort(sublinks.v, sublinks.n, sizeof *sublinks.v, cmp_str);
        for (size_t i = 0; i < sublinks.n; i++)
            VEC_PUSH(w->tmp, &linked, sublinks.v[i]);
    }
    free(root_real);
}

/* --------------------------------------------------------------------- git */

int run_capture(Arena *a, char *const argv[], char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return -1;

    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);

    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pfd[1]);
    if (rc != 0) {
        close(pfd[0]);
        return -1;
    }

    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        arena_grow(a, (void **)&buf, &cap, n + 65536 + 1, 1);
        ssize_t r = read(pfd[0], buf + n, cap - n - 1);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(pfd[0]);
    buf[n] = '\0';

    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    *out = buf;
    *len = n;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 256 + WTERMSIG(status);
    return 256;
}

/* List `dir` through git. Returns false when git is unavailable or `dir`
 * is not inside a work tree (the caller walks it by hand then). */
static bool git_walk(Walk *w, const char *dir)
{
    char *out;
    size_t n;
    char *check[] = {"git", "-C", (char *)dir, "rev-parse",
                     "--is-inside-work-tree", NULL};
    if (run_capture(w->tmp, check, &out, &n) != 0 ||
        strncmp(out, "true", 4) != 0)
        return false;

    char *ls[] = {"git",          "-C",          (char *)dir,
                  "ls-files",     "-z",          "--cached",
                  "--others",     "--exclude-standard",
                  "--deduplicate", "--",         ".",
                  NULL};
    if (run_capture(w->tmp, ls, &out, &n) != 0) {
        /* git before 2.31 has no --deduplicate; duplicates are dropped
         * after sorting anyway. */
        char *ls_old[] = {"git",      "-C",     (char *)dir,
                          "ls-files", "-z",     "--cached",
                          "--others", "--exclude-standard",
                          "--",       ".",      NULL};
        if (run_capture(w->tmp, ls_old, &out, &n) != 0)
            return false;
    }

    for (size_t i = 0; i < n;) {
        const char *rel = out + i;
        size_t len = strnlen(rel, n - i);
        i += len + 1;
        if (len == 0 || !w->want(rel) || has_skipped_component(rel))
            continue;
        const char *joined = join_path(w->tmp, dir, rel);
        struct stat st;
        /* Tracked but deleted, or a directory (nested repository). */
        if (stat(joined, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        add_found(w, joined);
    }
    return true;
}

/* ------------------------------------------------------------------- walk */

void walk_paths(const char *const *paths, size_t npaths, Arena *arena,
                StrList *out, Problems *problems)
{
    static const char *const dot[] = {"."};
    if (npaths == 0 || !paths) {
        paths = dot;
        npaths = 1;
    }

    Walk w = {.tmp = arena_new(), .problems = problems, .want = is_source_path};
    char *cwdbuf = getcwd(NULL, 0);
    if (cwdbuf) {
        w.cwd = arena_strdup(w.tmp, cwdbuf);
        free(cwdbuf);
    }

    char eb[256];
    for (size_t i = 0; i < npaths; i++) {
        const char *p = paths[i];
        if (!p || !*p)
            continue;
        struct stat st;
        if (stat(p, &st) != 0) {
            /* a path on the command line that is not there: a usage error */
            problems_add_kind(problems, PROBLEM_CONFIG, p, 0, 0, "%s",
                              err_text(errno, eb, sizeof eb));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            add_found(&w, p); /* named explicitly: whatever its kind */
            continue;
        }
        if (!git_walk(&w, p))
            plain_walk(&w, p);
    }

    if (w.found.n > 1)
        qsort(w.found.v, w.found.n, sizeof *w.found.v, cmp_str);
    for (size_t i = 0; i < w.found.n; i++) {
        if (i > 0 && strcmp(w.found.v[i], w.found.v[i - 1]) == 0)
            continue;
        strlist_push(arena, out, arena_strdup(arena, w.found.v[i]));
    }
    arena_free(w.tmp);
}

void walk_git_roots(const char *dir, Arena *arena, StrList *out)
{
    Arena *tmp = arena_new();
    char *got;
    size_t n;
    char *check[] = {"git", "-C", (char *)dir, "rev-parse", "--is-inside-work-tree", NULL};
    if (run_capture(tmp, check, &got, &n) == 0 && !strncmp(got, "true", 4)) {
        arena_free(tmp);
        return;
    }
    char *root = realpath(dir, NULL);
    if (!root) {
        arena_free(tmp);
        return;
    }
    VEC(const char *) stack = {0};
    VEC(const char *) found = {0};
    VEC_PUSH(tmp, &stack, arena_strdup(tmp, root));
    free(root);
    /* a bound on the directories entered: a tree too big to look through
     * is linted as one project, as before */
    for (size_t entered = 0; stack.n && entered < 100000; entered++) {
        const char *d = stack.v[--stack.n];
        struct stat st;
        if (entered && lstat(join_path(tmp, d, ".git"), &st) == 0) {
            VEC_PUSH(tmp, &found, d);
            continue;
        }
        DIR *dp = opendir(d);
        if (!dp)
            continue;
        for (struct dirent *e; (e = readdir(dp));) {
            const char *name = e->d_name;
            if ((name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) ||
                is_skipped_name(name, strlen(name)))
                continue;
            const char *sub = join_path(tmp, d, name);
            bool is_dir = e->d_type == DT_DIR;
            if (e->d_type == DT_UNKNOWN)
                is_dir = lstat(sub, &st) == 0 && S_ISDIR(st.st_mode);
            if (is_dir)
                VEC_PUSH(tmp, &stack, sub);
        }
        closedir(dp);
    }
    if (found.n > 1)
        qsort(found.v, found.n, sizeof *found.v, cmp_str);
    for (size_t i = 0; i < found.n; i++)
        strlist_push(arena, out, arena_strdup(arena, found.v[i]));
    arena_free(tmp);
}

void walk_dir_files(const char *dir, bool (*want)(const char *path), Arena *arena,
                    StrList *out)
{
    Problems quiet; /* a directory that cannot be read is passed over */
    problems_init(&quiet);
    Walk w = {.tmp = arena_new(), .problems = &quiet, .want = want};
    if (!git_walk(&w, dir))
        plain_walk(&w, dir);
    if (w.found.n > 1)
        qsort(w.found.v, w.found.n, sizeof *w.found.v, cmp_str);
    for (size_t i = 0; i < w.found.n; i++)
        if (i == 0 || strcmp(w.found.v[i], w.found.v[i - 1]) != 0)
            strlist_push(arena, out, arena_strdup(arena, w.found.v[i]));
    arena_free(w.tmp);
    problems_free(&quiet);
}

/* ------------------------------------------------------------------- read */

bool utf8_valid(const char *s, size_t n, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c == 0xE0) {
            need = 2;
            lo = 0xA0; /* overlong */
        } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
            need = 2;
        } else if (c == 0xED) {
            need = 2;
            hi = 0x9F; /* surrogates */
        } else if (c == 0xF0) {
            need = 3;
            lo = 0x90; /* overlong */
        } else if (c >= 0xF1 && c <= 0xF3) {
            need = 3;
        } else if (c == 0xF4) {
            need = 3;
            hi = 0x8F; /* > U+10FFFF */
        } else {
            goto fail; /* continuation, C0/C1 overlong, F5..FF */
        }
        if (n - i <= need)
            goto fail; /* truncated */
        if (p[i + 1] < lo || p[i + 1] > hi)
            goto fail;
        for (size_t k = 2; k <= need; k++)
            if ((p[i + k] & 0xC0) != 0x80)
                goto fail;
        i += need + 1;
    }
    return true;
fail:
    if (bad)
        *bad = i;
    return false;
}

static char *read_text(const char *path, size_t *len, size_t *bom, Problems *problems,
                       bool regular_only, SourceSkip *why)
{
    char eb[256];
    SourceSkip ignored;
    if (!why)
        why = &ignored;
    *why = SKIP_UNREADABLE;
    if (len)
        *len = 0;
    if (bom)
        *bom = 0;
    size_t n;
    FileRead how;
    char *buf = file_read(path, KEYLINT_MAX_FILE_BYTES, regular_only, &n, &how);
    switch (how.status) {
    case FILE_READ_OK:
        break;
    case FILE_READ_OPEN:
        problems_add(problems, path, 0, 0, "cannot open: %s", err_text(how.err, eb, sizeof eb));
        return NULL;
    case FILE_READ_IO:
        problems_add(problems, path, 0, 0, "cannot read: %s", err_text(how.err, eb, sizeof eb));
        return NULL;
    case FILE_READ_DIR:
        problems_add(problems, path, 0, 0, "is a directory");
        return NULL;
    case FILE_READ_NOT_REGULAR:
        problems_add(problems, path, 0, 0, "%s; skipped", how.what);
        return NULL;
    case FILE_READ_TOO_LARGE:
        *why = SKIP_TOO_LARGE;
        problems_add(problems, path, 0, 0, "file is larger than 8 MiB; skipped");
        return NULL;
    }
    if (memchr(buf, '\0', n)) {
        *why = SKIP_BINARY;
        problems_add(problems, path, 0, 0, "binary file; skipped");
        free(buf);
        return NULL;
    }
    size_t bad;
    if (!utf8_valid(buf, n, &bad)) {
        *why = SKIP_NOT_UTF8;
        uint32_t line = 1;
        size_t start = 0;
        for (size_t i = 0; i < bad; i++) {
            if (buf[i] == '\n') {
                line++;
                start = i + 1;
            }
        }
        uint32_t col = 1;
        for (size_t i = start; i < bad; i++)
            if (((unsigned char)buf[i] & 0xC0) != 0x80)
                col++;
        problems_add(problems, path, line, col,
                     "not valid UTF-8 (first bad byte at line %u, column %u); "
                     "skipped",
                     line, col);
        free(buf);
        return NULL;
    }
    /* a byte-order mark is not text: dropped, so that columns on line 1
     * count from the first character an editor shows */
    if (n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
        n -= 3;
        memmove(buf, buf + 3, n + 1);
        if (bom)
            *bom = 3;
    }
    if (len)
        *len = n;
    *why = SKIP_NONE;
    return buf;
}

char *read_source(const char *path, size_t *len, Problems *problems)
{
    return read_text(path, len, NULL, problems, false, NULL);
}

char *read_source_why(const char *path, size_t *len, Problems *problems, SourceSkip *why)
{
    return read_text(path, len, NULL, problems, false, why);
}

char *read_source_bom(const char *path, size_t *len, size_t *bom, Problems *problems)
{
    return read_text(path, len, bom, problems, false, NULL);
}

char *read_regular_source(const char *path, size_t *len, Problems *problems)
{
    return read_text(path, len, NULL, problems, true, NULL);
}
