/* Files written as git writes them (temporary file, fsync, rename), and
 * inputs read without blocking or growing without bound: see files.h. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

/* ---- what a file is ---------------------------------------------------------- */

bool file_id(const char *path, FileId *id)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return false;
    *id = (FileId){st.st_dev, st.st_ino};
    return true;
}

bool file_id_eq(FileId a, FileId b)
{
    return a.dev == b.dev && a.ino == b.ino;
}

static const char *not_regular_text(mode_t m)
{
    if (S_ISDIR(m))
        return "is a directory, not a regular file";
    if (S_ISFIFO(m))
        return "is a FIFO, not a regular file";
    if (S_ISCHR(m))
        return "is a character device, not a regular file";
    if (S_ISBLK(m))
        return "is a block device, not a regular file";
    if (S_ISSOCK(m))
        return "is a socket, not a regular file";
    return "is not a regular file";
}

const char *file_not_regular(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return NULL;
    return not_regular_text(st.st_mode);
}

char *file_read(const char *path, size_t max, bool regular_only, size_t *len, FileRead *how)
{
    *len = 0;
    *how = (FileRead){FILE_READ_OK, 0, NULL};
    /* O_NONBLOCK: opening a FIFO never waits for a writer; fstat then
     * says what the file is before anything is read */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0) {
        *how = (FileRead){FILE_READ_OPEN, errno, NULL};
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *how = (FileRead){FILE_READ_IO, errno, NULL};
        close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode) || (regular_only && !S_ISREG(st.st_mode))) {
        *how = (FileRead){S_ISDIR(st.st_mode) ? FILE_READ_DIR : FILE_READ_NOT_REGULAR, 0,
                          not_regular_text(st.st_mode)};
        close(fd);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > (uintmax_t)max) {
        how->status = FILE_READ_TOO_LARGE;
        close(fd);
        return NULL;
    }
    /* Regular files: one read of the known size, plus one to see the end.
     * Others (pipes, devices): grow until the end. Never beyond max + 1. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, n = 0;
    if (cap > max + 1)
        cap = max + 1;
    char *buf = malloc(cap + 1);
    if (!buf) {
        *how = (FileRead){FILE_READ_IO, ENOMEM, NULL};
        close(fd);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            if (cap > max)
                break;
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                close(fd);
                *how = (FileRead){FILE_READ_IO, ENOMEM, NULL};
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            *how = (FileRead){FILE_READ_IO, errno, NULL};
            free(buf);
            close(fd);
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n > max) {
        how->status = FILE_READ_TOO_LARGE;
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

const char *git_work_tree(Arena *a, const char *dir)
{
    if (!dir || dir[0] != '/')
        return NULL;
    char *cur = arena_strdup(a, dir);
    for (;;) {
        struct stat st;
        if (lstat(arena_printf(a, "%s/.git", strcmp(cur, "/") ? cur : ""), &st) == 0)
            return cur;
        char *slash = strrchr(cur, '/');
        if (!slash || !cur[1])
            return NULL;
        slash[slash == cur ? 1 : 0] = '\0'; /* "/a/b" -> "/a", "/a" -> "/" */
    }
}

/* ---- writing ------------------------------------------------------------------- */

/* Where the symbolic links of `path` lead (the path itself when it is
 * none), in `a`; a dangling link leads to the file it names. */
static const char *link_target(Arena *a, const char *path)
{
    const char *cur = path;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0)
            return cur;
        buf[n] = '\0';
        if (buf[0] == '/') {
            cur = arena_strdup(a, buf);
        } else {
            const char *slash = strrchr(cur, '/');
            cur = slash ? arena_printf(a, "%.*s/%s", (int)(slash - cur), cur, buf)
                        : arena_strdup(a, buf);
        }
    }
    return cur;
}

static bool in_group(gid_t g)
{
    if (getegid() == g)
        return true;
    gid_t groups[256];
    int n = getgroups(sizeof groups / sizeof *groups, groups);
    for (int i = 0; i < n; i++)
        if (groups[i] == g)
            return true;
    return false;
}

/* Whether the user may write the file: the mode bits that apply to
 * them (access(2), which also reads ACLs); root, whom they do not stop,
 * honours a file with no write bit at all. */
static bool may_write(const char *path, const struct stat *st)
{
    if (geteuid() == 0)
        return (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0;
    return access(path, W_OK) == 0;
}

static bool refuse(ReplaceFile *r, const char *why)
{
    r->refused = why;
    r->err = 0;
    errno = 0;
    return false;
}

static bool fail_errno(ReplaceFile *r)
{
    r->err = errno ? errno : EIO;
    return false;
}

/* Why the regular file `target` (stat in st) cannot be replaced, or NULL. */
static const char *refusal(Arena *a, const char *target, const struct stat *st)
{
    if (!may_write(target, st))
        return "the file is read-only";
    if (st->st_nlink > 1)
        return arena_printf(a, "the file has %ju hard links (a new file would split them)",
                            (uintmax_t)st->st_nlink);
    if (geteuid() != 0 && st->st_uid != geteuid())
        return "the file belongs to another user (a new file would change its owner)";
    if (geteuid() != 0 && !in_group(st->st_gid))
        return "the file's group is not one of the user's (a new file would change its group)";
    return NULL;
}

const char *replace_refused(const char *path, Arena *a)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    if (S_ISDIR(st.st_mode))
        return "is a directory";
    return S_ISREG(st.st_mode) ? refusal(a, link_target(a, path), &st) : NULL;
}

bool replace_open(ReplaceFile *r, const char *path, Arena *a)
{
    *r = (ReplaceFile){.path = path, .target = path};
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return refuse(r, "is a directory");
        /* /dev/stdout, a pipe: written as named (its links may lead to
         * no path at all, "pipe:[...]") */
        r->f = fopen(path, "w");
        return r->f ? true : fail_errno(r);
    }
    r->target = link_target(a, path);
    const char *why = exists ? refusal(a, r->target, &st) : NULL;
    if (why)
        return refuse(r, why);
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        r->tmp = arena_printf(a, "%s.tmp.%ld.%d", r->target, (long)getpid(), attempt);
        fd = open(r->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        r->tmp = NULL;
        return fail_errno(r);
    }
    /* the owner and group first (a change of owner clears set-id bits),
     * then the mode */
    bool ok = true;
    if (exists) {
        uid_t uid = geteuid() == 0 ? st.st_uid : (uid_t)-1;
        ok = fchown(fd, uid, st.st_gid) == 0 && fchmod(fd, st.st_mode & 07777) == 0;
    }
    if (ok)
        r->f = fdopen(fd, "w");
    if (!r->f) {
        int e = errno;
        close(fd);
        unlink(r->tmp);
        r->tmp = NULL;
        errno = e;
        return fail_errno(r);
    }
    return true;
}

/* Flush a directory's entries to disk (after a rename in it); a
 * filesystem that cannot is no error. */
static void sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

bool replace_commit(ReplaceFile *r, bool ok)
{
    int e = 0;
    if (!r->f)
        return false;
    if (ok && fflush(r->f) != 0) {
        ok = false;
        e = errno;
    }
    if (ok && r->tmp && !r->no_sync && fsync(fileno(r->f)) != 0 && errno != EINVAL) {
        ok = false;
        e = errno;
    }
    if (fclose(r->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    r->f = NULL;
    if (!r->tmp) {
        r->err = ok ? 0 : e ? e : EIO;
        return ok;
    }
    if (ok && rename(r->tmp, r->target) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlink(r->tmp);
        r->err = e ? e : EIO;
        errno = r->err;
        return false;
    }
    if (!r->no_sync)
        sync_dir_of(r->target);
    r->err = 0;
    return true;
}

const char *replace_error(const ReplaceFile *r)
{
    if (r->refused)
        return r->refused;
    return strerror(r->err ? r->err : EIO);
}

bool file_replace(const char *path, const char *text, size_t len, Arena *a, const char **why)
{
    ReplaceFile rf;
    *why = NULL;
    if (!replace_open(&rf, path, a)) {
        *why = replace_error(&rf);
        return false;
    }
    bool w = fwrite(text, 1, len, rf.f) == len;
    if (!w)
        rf.err = errno;
    if (!replace_commit(&rf, w)) {
        *why = replace_error(&rf);
        return false;
    }
    return true;
}

const char *file_display_path(Arena *a, const char *abspath)
{
    char cwd[PATH_MAX];
    if (abspath && abspath[0] == '/' && getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (!strncmp(abspath, cwd, n) && abspath[n] == '/')
            return arena_strdup(a, abspath + n + 1);
    }
    return arena_strdup(a, abspath ? abspath : "");
}
