/* Unit tests for linter/core/files.c: files replaced as git replaces them
 * (temporary file and rename; mode, owner, group and links kept or the
 * file refused; symbolic links followed), and inputs read without
 * blocking on a FIFO or reading a device without end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

typedef struct Dir {
    char path[64];
} Dir;

static void dir_make(Dir *d)
{
    snprintf(d->path, sizeof d->path, "/tmp/keylint-files-XXXXXX");
    assert_non_null(mkdtemp(d->path));
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void dir_free(Dir *d)
{
    nftw(d->path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *in(Arena *a, const Dir *d, const char *name)
{
    return arena_printf(a, "%s/%s", d->path, name);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *get(const char *path)
{
    size_t len;
    FileRead how;
    char *t = file_read(path, 1 << 20, true, &len, &how);
    assert_non_null(t);
    return t;
}

/* Files in `d` other than those named (leftover temporary files). */
static int entries(const Dir *d)
{
    DIR *dir = opendir(d->path);
    assert_non_null(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(dir);
    return n;
}

static void replace_keeps_mode_and_leaves_nothing(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    const char *p = in(a, &d, "a.ts");
    put(p, "old\n");
    assert_int_equal(chmod(p, 0640), 0);
    struct stat before;
    assert_int_equal(stat(p, &before), 0);
    const char *why = NULL;
    assert_true(file_replace(p, "new text\n", 9, a, &why));
    char *t = get(p);
    assert_string_equal(t, "new text\n");
    free(t);
    struct stat after;
    assert_int_equal(stat(p, &after), 0);
    assert_int_equal(after.st_mode & 07777, 0640);
    assert_int_equal(after.st_uid, before.st_uid);
    assert_int_equal(after.st_gid, before.st_gid);
    assert_int_not_equal(after.st_ino, before.st_ino); /* a new file, renamed */
    assert_int_equal(entries(&d), 1);
    /* a file that does not exist yet is created */
    assert_true(file_replace(in(a, &d, "new.json"), "{}", 2, a, &why));
    assert_int_equal(entries(&d), 2);
    arena_free(a);
    dir_free(&d);
}

static void read_only_files_are_refused(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    const char *p = in(a, &d, "ro.ts");
    put(p, "keep me\n");
    assert_int_equal(chmod(p, 0444), 0); /* also as root */
    const char *why = NULL;
    assert_string_equal(replace_refused(p, a), "the file is read-only");
    assert_false(file_replace(p, "x", 1, a, &why));
    assert_string_equal(why, "the file is read-only");
    char *t = get(p);
    assert_string_equal(t, "keep me\n");
    free(t);
    assert_int_equal(entries(&d), 1);
    arena_free(a);
    dir_free(&d);
}

static void hard_links_are_not_split(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    const char *p = in(a, &d, "a.ts"), *q = in(a, &d, "b.ts");
    put(p, "shared\n");
    assert_int_equal(link(p, q), 0);
    const char *why = NULL;
    assert_false(file_replace(p, "x", 1, a, &why));
    assert_non_null(strstr(why, "2 hard links"));
    char *t = get(q);
    assert_string_equal(t, "shared\n");
    free(t);
    assert_int_equal(entries(&d), 2);
    arena_free(a);
    dir_free(&d);
}

static void symbolic_links_lead_to_the_file_replaced(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    assert_int_equal(mkdir(in(a, &d, "real"), 0755), 0);
    const char *target = in(a, &d, "real/a.ts"), *link = in(a, &d, "link.ts");
    put(target, "old\n");
    assert_int_equal(symlink("real/a.ts", link), 0);
    const char *why = NULL;
    assert_true(file_replace(link, "new\n", 4, a, &why));
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* still a link */
    char *t = get(target);
    assert_string_equal(t, "new\n");
    free(t);
    /* a dangling link: the file it names is created */
    const char *dangling = in(a, &d, "dangling.json");
    assert_int_equal(symlink("real/report.json", dangling), 0);
    assert_true(file_replace(dangling, "{}", 2, a, &why));
    t = get(in(a, &d, "real/report.json"));
    assert_string_equal(t, "{}");
    free(t);
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    arena_free(a);
    dir_free(&d);
}

static void owner_and_group_are_kept_or_refused(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    const char *p = in(a, &d, "theirs.ts");
    put(p, "theirs\n");
    const char *why = NULL;
    if (geteuid() == 0) {
        /* root keeps another user's file theirs, set-id bits included */
        assert_int_equal(chown(p, 65534, 65534), 0);
        assert_int_equal(chmod(p, 04640), 0);
        assert_true(file_replace(p, "fixed\n", 6, a, &why));
        struct stat st;
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_uid, 65534);
        assert_int_equal(st.st_gid, 65534);
        assert_int_equal(st.st_mode & 07777, 04640);
    } else {
        /* a file in a directory of ours owned by someone else cannot be
         * made here; a file of ours always keeps its owner */
        assert_true(file_replace(p, "fixed\n", 6, a, &why));
        struct stat st;
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_uid, geteuid());
    }
    arena_free(a);
    dir_free(&d);
}

static void non_regular_targets_are_written_directly(void **state)
{
    (void)state;
    Arena *a = arena_new();
    ReplaceFile r;
    assert_true(replace_open(&r, "/dev/null", a));
    assert_null(r.tmp);
    fputs("nothing\n", r.f);
    assert_true(replace_commit(&r, true));
    Dir d;
    dir_make(&d);
    assert_false(replace_open(&r, d.path, a));
    assert_string_equal(replace_error(&r), "is a directory");
    /* a directory that does not exist: the system's reason */
    assert_false(replace_open(&r, in(a, &d, "no/such/report.json"), a));
    assert_null(r.refused);
    assert_string_equal(replace_error(&r), strerror(ENOENT));
    dir_free(&d);
    arena_free(a);
}

static void special_inputs_are_refused_without_blocking(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    size_t len;
    FileRead how;
    /* a FIFO with no writer: refused at once, never waited on */
    const char *fifo = in(a, &d, "fifo.yml");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(file_read(fifo, 1024, true, &len, &how));
    assert_int_equal(how.status, FILE_READ_NOT_REGULAR);
    assert_string_equal(how.what, "is a FIFO, not a regular file");
    assert_string_equal(file_not_regular(fifo), "is a FIFO, not a regular file");
    /* /dev/zero: refused when a regular file is wanted, read up to the
     * limit and refused otherwise (never without end) */
    assert_null(file_read("/dev/zero", 1024, true, &len, &how));
    assert_string_equal(how.what, "is a character device, not a regular file");
    assert_null(file_read("/dev/zero", 1 << 20, false, &len, &how));
    assert_int_equal(how.status, FILE_READ_TOO_LARGE);
    /* a directory, and a regular file over the limit */
    assert_null(file_read(d.path, 1024, true, &len, &how));
    assert_int_equal(how.status, FILE_READ_DIR);
    const char *big = in(a, &d, "big.yml");
    put(big, "0123456789");
    assert_null(file_read(big, 9, true, &len, &how));
    assert_int_equal(how.status, FILE_READ_TOO_LARGE);
    char *t = file_read(big, 10, true, &len, &how);
    assert_non_null(t);
    assert_int_equal(len, 10);
    assert_int_equal(how.status, FILE_READ_OK);
    free(t);
    assert_null(file_not_regular(big));
    assert_null(file_read(in(a, &d, "missing"), 10, true, &len, &how));
    assert_int_equal(how.status, FILE_READ_OPEN);
    assert_int_equal(how.err, ENOENT);
    arena_free(a);
    dir_free(&d);
}

static void work_trees_are_found_upward(void **state)
{
    (void)state;
    Dir d;
    dir_make(&d);
    Arena *a = arena_new();
    assert_int_equal(mkdir(in(a, &d, "repo"), 0755), 0);
    assert_int_equal(mkdir(in(a, &d, "repo/.git"), 0755), 0);
    assert_int_equal(mkdir(in(a, &d, "repo/src"), 0755), 0);
    assert_string_equal(git_work_tree(a, in(a, &d, "repo/src")), in(a, &d, "repo"));
    assert_string_equal(git_work_tree(a, in(a, &d, "repo")), in(a, &d, "repo"));
    assert_null(git_work_tree(a, "relative/dir"));
    FileId x, y;
    assert_true(file_id(in(a, &d, "repo/src/../src"), &x));
    assert_true(file_id(in(a, &d, "repo/src"), &y));
    assert_true(file_id_eq(x, y));
    assert_false(file_id(in(a, &d, "nothing"), &x));
    arena_free(a);
    dir_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replace_keeps_mode_and_leaves_nothing),
        cmocka_unit_test(read_only_files_are_refused),
        cmocka_unit_test(hard_links_are_not_split),
        cmocka_unit_test(symbolic_links_lead_to_the_file_replaced),
        cmocka_unit_test(owner_and_group_are_kept_or_refused),
        cmocka_unit_test(non_regular_targets_are_written_directly),
        cmocka_unit_test(special_inputs_are_refused_without_blocking),
        cmocka_unit_test(work_trees_are_found_upward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
