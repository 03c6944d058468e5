/* walk.c: source kinds, directory listing (plain and git), reading files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "walk.h"

/* ---------------------------------------------------------------- helpers */

typedef struct Tree {
    char root[PATH_MAX]; /* physical path of the temporary directory */
    char saved_cwd[PATH_MAX];
} Tree;

static void tree_path(const Tree *t, const char *rel, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s/%s", t->root, rel);
    assert_true(k > 0 && (size_t)k < n);
}

/* mkdir -p of every parent of `rel` (and of `rel` itself if it ends in /). */
static void make_parents(const Tree *t, const char *rel)
{
    char buf[PATH_MAX];
    tree_path(t, rel, buf, sizeof buf);
    for (char *p = buf + strlen(t->root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0)
            assert_int_equal(errno, EEXIST);
        *p = '/';
    }
}

static void put(const Tree *t, const char *rel, const char *text)
{
    make_parents(t, rel);
    char buf[PATH_MAX];
    tree_path(t, rel, buf, sizeof buf);
    FILE *f = fopen(buf, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void put_bytes(const Tree *t, const char *rel, const char *b, size_t n)
{
    make_parents(t, rel);
    char buf[PATH_MAX];
    tree_path(t, rel, buf, sizeof buf);
    FILE *f = fopen(buf, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void link_to(const Tree *t, const char *rel, const char *target)
{
    make_parents(t, rel);
    char buf[PATH_MAX];
    tree_path(t, rel, buf, sizeof buf);
    assert_int_equal(symlink(target, buf), 0);
}

static void tree_new(Tree *t)
{
    char tmpl[] = "/tmp/keylint-walk-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    assert_non_null(realpath(tmpl, t->root));
    assert_non_null(getcwd(t->saved_cwd, sizeof t->saved_cwd));
}

static void tree_enter(const Tree *t, const char *rel)
{
    char buf[PATH_MAX];
    if (rel)
        tree_path(t, rel, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s", t->root);
    assert_int_equal(chdir(buf), 0);
}

static int rm_one(const char *path, const struct stat *sb, int flag,
                  struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_DP || flag == FTW_D)
        return rmdir(path) != 0;
    return unlink(path) != 0;
}

static void tree_free(Tree *t)
{
    assert_int_equal(chdir(t->saved_cwd), 0);
    assert_int_equal(nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/* Run a program (no shell) with output discarded; its exit status. */
static int run(const char *dir, char *const argv[])
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        if (dir && chdir(dir) != 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool have_git(void)
{
    char *argv[] = {"git", "--version", NULL};
    return run(NULL, argv) == 0;
}

/* The listing as one newline-terminated string, for whole comparisons. */
static char *joined(const StrList *l)
{
    size_t n = 1;
    for (size_t i = 0; i < l->n; i++)
        n += strlen(l->v[i]) + 1;
    char *s = malloc(n), *p = s;
    assert_non_null(s);
    for (size_t i = 0; i < l->n; i++) {
        size_t k = strlen(l->v[i]);
        memcpy(p, l->v[i], k);
        p[k] = '\n';
        p += k + 1;
    }
    *p = '\0';
    return s;
}

/* Walk `paths` and compare the listing and the problems (each as
 * "path:line:col: message\n") with the expected strings. */
static void expect_walk(const char *const *paths, size_t n,
                        const char *want_files, const char *want_problems)
{
    Arena *a = arena_new();
    StrList out = {0};
    Problems pr;
    problems_init(&pr);
    walk_paths(paths, n, a, &out, &pr);

    char *got = joined(&out);
    assert_string_equal(got, want_files);
    free(got);

    problems_sort(&pr);
    char buf[4096] = "";
    size_t used = 0;
    for (size_t i = 0; i < pr.items.n; i++) {
        const Problem *p = &pr.items.v[i];
        int k = snprintf(buf + used, sizeof buf - used, "%s:%u:%u: %s\n",
                         p->path, p->line, p->col, p->message);
        assert_true(k > 0 && (size_t)k < sizeof buf - used);
        used += (size_t)k;
    }
    assert_string_equal(buf, want_problems);

    problems_free(&pr);
    arena_free(a);
}

/* ------------------------------------------------------------------ kinds */

static void test_kinds(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        bool source, tsx;
    } cases[] = {
        {"a.ts", true, false},         {"a.tsx", true, true},
        {"a.mts", true, false},        {"a.cts", true, false},
        {"a.js", true, true},          {"a.jsx", true, true},
        {"a.mjs", true, true},         {"a.cjs", true, true},
        {"dir/x.y.ts", true, false},   {"src/App.tsx", true, true},
        {"a.d.ts", false, false},      {"lib/a.d.mts", false, false},
        {"a.d.cts", false, false},     {"a.d.tsx", true, true},
        {"types.d.ts.map", false, false},
        {"a.json", false, false},      {"a.ts.bak", false, false},
        {"a.TS", false, false},        {"Makefile", false, false},
        {".ts", false, false},         {"dir.ts/", false, false},
        {"", false, false},            {"a.tsx/b", false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (is_source_path(cases[i].path) != cases[i].source ||
            is_tsx_path(cases[i].path) != cases[i].tsx)
            fail_msg("kind of \"%s\"", cases[i].path);
    }
}

/* ------------------------------------------------------------- plain walk */

static void build_plain_tree(const Tree *t)
{
    static const char *const files[] = {
        "a.ts", "b.tsx", "c.mts", "d.cts", "e.js", "f.jsx", "g.mjs", "h.cjs",
        "types.d.ts", "x.d.mts", "y.d.cts", "readme.md", "data.json",
        "out.ts", "src/z.ts", "src/deep/q.ts", "src/deep/q.d.ts",
        "with space/it's \"q\".ts", "distinct/k.ts",
        "node_modules/m.ts", "src/node_modules/pkg/i.js",
        "pkg/.git/x.ts", "dist/a.ts", "build/a.ts", "out/a.ts",
        "coverage/a.ts", "cdk.out/a.ts", ".serverless/a.ts", ".aws-sam/a.ts",
        ".next/a.ts", "lib/dist/inner.ts", "lib/keep.cjs", ".hidden/h.ts",
        ".yarn/releases/yarn-4.0.0.cjs", "svc/.yarn/sdks/typescript/lib/tsc.js",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        put(t, files[i], "export {};\n");
    make_parents(t, "empty/");
}

static const char plain_listing[] = ".hidden/h.ts\n"
                                    "a.ts\n"
                                    "b.tsx\n"
                                    "c.mts\n"
                                    "d.cts\n"
                                    "distinct/k.ts\n"
                                    "e.js\n"
                                    "f.jsx\n"
                                    "g.mjs\n"
                                    "h.cjs\n"
                                    "lib/keep.cjs\n"
                                    "out.ts\n"
                                    "src/deep/q.ts\n"
                                    "src/z.ts\n"
                                    "with space/it's \"q\".ts\n";

static void test_plain_walk(void **state)
{
    (void)state;
    Tree t;
    tree_new(&t);
    build_plain_tree(&t);
    tree_enter(&t, NULL);

    const char *dot[] = {"."};
    expect_walk(dot, 1, plain_listing, "");
    expect_walk(NULL, 0, plain_listing, ""); /* no paths means "." */
    const char *dotslash[] = {"./"};
    expect_walk(dotslash, 1, plain_listing, "");
    const char *abs[] = {t.root};
    expect_walk(abs, 1, plain_listing, "");

    /* A directory given with a trailing slash, twice, and files in it. */
    const char *sub[] = {"src/", "src", "./src/z.ts", "src/deep/q.d.ts"};
    expect_walk(sub, 4, "src/deep/q.d.ts\nsrc/deep/q.ts\nsrc/z.ts\n", "");

    /* Named files are listed whatever their kind or place; a named
     * directory is walked even when its name is a skipped one. */
    const char *named[] = {"readme.md", "node_modules/m.ts", "dist",
                           "./a.ts", "a.ts"};
    expect_walk(named, 5, "a.ts\ndist/a.ts\nnode_modules/m.ts\nreadme.md\n",
                "");

    /* Outside the current directory: displayed as given and joined. */
    tree_enter(&t, "src");
    const char *up[] = {"../lib", "../distinct/"};
    expect_walk(up, 2, "../distinct/k.ts\n../lib/keep.cjs\n", "");
    char absdeep[PATH_MAX];
    tree_path(&t, "src/deep", absdeep, sizeof absdeep);
    char abslib[PATH_MAX];
    tree_path(&t, "lib", abslib, sizeof abslib);
    const char *mixed[] = {absdeep, abslib, "../src/z.ts"};
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "%s/keep.cjs\ndeep/q.ts\nz.ts\n", abslib);
    expect_walk(mixed, 3, want, "");

    tree_free(&t);
}

static void test_symlink_loop(void **state)
{
    (void)state;
    Tree t, ext;
    tree_new(&t);
    tree_new(&ext);
    put(&ext, "o.ts", "");
    put(&ext, "inner/p.ts", "");

    put(&t, "b.ts", "");
    put(&t, "dir/a.ts", "");
    put(&t, "dir/sub/c.ts", "");
    link_to(&t, "dir/loop", "..");     /* back to the root */
    link_to(&t, "dir/self", ".");      /* to itself */
    link_to(&t, "dir/sub/up", "../.."); /* two levels up */
    link_to(&t, "alias", "dir");       /* an alias sorted before dir */
    link_to(&t, "ext", ext.root);      /* a directory outside the tree */
    link_to(&t, "ext2", ext.root);     /* ... twice */
    link_to(&t, "rootfs", "/");        /* the whole filesystem */
    link_to(&t, "link.ts", "dir/a.ts"); /* a file symlink */
    link_to(&t, "out.ts", "../../etc/x.ts"); /* a file link leading out */
    link_to(&t, "gone.ts", "nowhere.ts"); /* dangling */
    link_to(&t, "gone", "nowhere");
    tree_enter(&t, NULL);

    /* links that stay inside are followed (each directory once); links
     * that lead out of the tree (ext, /) are not */
    const char *dot[] = {"."};
    expect_walk(dot, 1,
                "b.ts\n"
                "dir/a.ts\n"
                "dir/sub/c.ts\n"
                "link.ts\n",
                "");

    /* Walking the alias: the tree is now what it points to (dir); its
     * loops lead out of it, to the root, and are not followed. */
    const char *alias[] = {"alias"};
    expect_walk(alias, 1,
                "alias/a.ts\n"
                "alias/sub/c.ts\n",
                "");

    /* the outside tree is linted when it is named */
    const char *named[] = {"ext"};
    expect_walk(named, 1, "ext/inner/p.ts\next/o.ts\n", "");

    tree_free(&t);
    tree_free(&ext);
}

static void test_missing_and_unreadable(void **state)
{
    (void)state;
    Tree t;
    tree_new(&t);
    put(&t, "a.ts", "");
    put(&t, "locked/secret.ts", "");
    put(&t, "open/ok.ts", "");
    tree_enter(&t, NULL);

    const char *paths[] = {"missing", "a.ts", "missing/x.ts", "open"};
    expect_walk(paths, 4, "a.ts\nopen/ok.ts\n",
                "missing:0:0: no such file or directory\n"
                "missing/x.ts:0:0: no such file or directory\n");

    const char *notdir[] = {"a.ts/x.ts", "open"};
    expect_walk(notdir, 2, "open/ok.ts\n", "a.ts/x.ts:0:0: not a directory\n");

    assert_int_equal(chmod("locked", 0), 0);
    const char *dot[] = {"."};
    if (access("locked", R_OK) == 0) {
        /* Running as root: permissions do not stop reads. */
        expect_walk(dot, 1, "a.ts\nlocked/secret.ts\nopen/ok.ts\n", "");
    } else {
        expect_walk(dot, 1, "a.ts\nopen/ok.ts\n",
                    "locked:0:0: cannot read directory: permission denied\n");
        const char *lk[] = {"locked", "a.ts"};
        expect_walk(lk, 2, "a.ts\n",
                    "locked:0:0: cannot read directory: permission denied\n");
    }
    assert_int_equal(chmod("locked", 0755), 0);
    tree_free(&t);
}

/* -------------------------------------------------------------------- git */

static int git(const Tree *t, const char *a1, const char *a2, const char *a3)
{
    char *argv[] = {"git",
                    "-c", "user.email=keylint@example.invalid",
                    "-c", "user.name=keylint tests",
                    "-c", "init.defaultBranch=main",
                    (char *)a1, (char *)a2, (char *)a3, NULL};
    return run(t->root, argv);
}

static void test_git_repo(void **state)
{
    (void)state;
    if (!have_git())
        skip();
    Tree t;
    tree_new(&t);
    assert_int_equal(git(&t, "init", "-q", NULL), 0);
    put(&t, ".gitignore", "ignored.ts\ngen/\n");
    put(&t, "tracked.ts", "");
    put(&t, "src/t2.ts", "");
    put(&t, "src/readme.md", "");
    put(&t, "types.d.ts", "");
    put(&t, "dist/built.ts", "");
    put(&t, "sp ace/q'uote\".ts", "");
    put(&t, "deleted.ts", "");
    put(&t, "ignored.ts", "");
    put(&t, "gen/g.ts", "");
    put(&t, "node_modules/n.ts", ""); /* tracked, but a skipped directory */
    assert_int_equal(git(&t, "add", "--", "."), 0);
    assert_int_equal(git(&t, "commit", "-qm", "init"), 0);
    /* added after the commit, so only in the index: still listed */
    put(&t, "staged.ts", "");
    assert_int_equal(git(&t, "add", "--", "staged.ts"), 0);
    /* untracked and not ignored */
    put(&t, "untracked.ts", "");
    put(&t, "src/untracked2.tsx", "");
    put(&t, "later.mts", "");
    char p[PATH_MAX];
    tree_path(&t, "deleted.ts", p, sizeof p);
    assert_int_equal(unlink(p), 0);
    tree_enter(&t, NULL);

    const char *dot[] = {"."};
    expect_walk(dot, 1,
                "later.mts\n"
                "sp ace/q'uote\".ts\n"
                "src/t2.ts\n"
                "src/untracked2.tsx\n"
                "staged.ts\n"
                "tracked.ts\n"
                "untracked.ts\n",
                "");

    const char *src[] = {"src", "gen/g.ts"};
    expect_walk(src, 2, "gen/g.ts\nsrc/t2.ts\nsrc/untracked2.tsx\n", "");

    /* From a subdirectory: paths outside it are displayed as joined. */
    tree_enter(&t, "src");
    const char *up[] = {".."};
    expect_walk(up, 1,
                "../later.mts\n"
                "../sp ace/q'uote\".ts\n"
                "../staged.ts\n"
                "../tracked.ts\n"
                "../untracked.ts\n"
                "t2.ts\n"
                "untracked2.tsx\n",
                "");
    tree_enter(&t, NULL);

    /* No git on PATH: the plain walk lists ignored files too. */
    Tree empty;
    tree_new(&empty);
    char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    assert_int_equal(setenv("PATH", empty.root, 1), 0);
    expect_walk(dot, 1,
                "gen/g.ts\n"
                "ignored.ts\n"
                "later.mts\n"
                "sp ace/q'uote\".ts\n"
                "src/t2.ts\n"
                "src/untracked2.tsx\n"
                "staged.ts\n"
                "tracked.ts\n"
                "untracked.ts\n",
                "");
    if (saved) {
        assert_int_equal(setenv("PATH", saved, 1), 0);
        free(saved);
    } else {
        unsetenv("PATH");
    }
    tree_free(&empty);
    tree_free(&t);
}

/* ------------------------------------------------------------------- read */

static void expect_read_problem(const char *path, const char *want)
{
    Problems pr;
    problems_init(&pr);
    size_t len = 99;
    char *s = read_source(path, &len, &pr);
    assert_null(s);
    assert_int_equal(len, 0);
    assert_int_equal(pr.items.n, 1);
    assert_string_equal(pr.items.v[0].path, path);
    assert_string_equal(pr.items.v[0].message, want);
    problems_free(&pr);
}

static void test_read_source(void **state)
{
    (void)state;
    Tree t;
    tree_new(&t);
    tree_enter(&t, NULL);

    put_bytes(&t, "bin.ts", "ab\0cd", 5);
    expect_read_problem("bin.ts", "binary file; skipped");

    /* x é then 0xFF: the bad byte is the third character of line 2. */
    put(&t, "bad.ts", "ok\nx\xc3\xa9\xff;\n");
    expect_read_problem("bad.ts",
                        "not valid UTF-8 (first bad byte at line 2, column 3); "
                        "skipped");
    {
        Problems pr;
        problems_init(&pr);
        assert_null(read_source("bad.ts", NULL, &pr));
        assert_int_equal(pr.items.n, 1);
        assert_int_equal(pr.items.v[0].line, 2);
        assert_int_equal(pr.items.v[0].col, 3);
        problems_free(&pr);
    }
    put(&t, "trunc.ts", "const s = '\xe2\x82");
    expect_read_problem("trunc.ts",
                        "not valid UTF-8 (first bad byte at line 1, column 12); "
                        "skipped");

    /* Sparse files: 9 MiB is too big; exactly 8 MiB is read (and then
     * refused for its NUL bytes, not for its size). */
    int fd = open("big.ts", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 9 * 1024 * 1024), 0);
    close(fd);
    expect_read_problem("big.ts", "file is larger than 8 MiB; skipped");
    fd = open("edge.ts", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, KEYLINT_MAX_FILE_BYTES), 0);
    close(fd);
    expect_read_problem("edge.ts", "binary file; skipped");

    make_parents(&t, "adir.ts/");
    expect_read_problem("adir.ts", "is a directory");
    expect_read_problem("missing.ts", "cannot open: no such file or directory");

    put(&t, "secret.ts", "x");
    assert_int_equal(chmod("secret.ts", 0), 0);
    if (access("secret.ts", R_OK) != 0)
        expect_read_problem("secret.ts", "cannot open: permission denied");
    assert_int_equal(chmod("secret.ts", 0644), 0);

    /* Valid text, with a byte-order mark dropped (line-1 columns count
     * from the first character). */
    static const char text[] = "const pk = `ORDER#${id}`; // \xc3\xa9\xe2\x82\xac\n";
    put(&t, "ok.ts", "\xef\xbb\xbf" "const pk = `ORDER#${id}`; // \xc3\xa9\xe2\x82\xac\n");
    Problems pr;
    problems_init(&pr);
    size_t len = 0;
    char *s = read_source("ok.ts", &len, &pr);
    assert_non_null(s);
    assert_int_equal(len, sizeof text - 1);
    assert_memory_equal(s, text, sizeof text);
    assert_int_equal(pr.items.n, 0);
    free(s);

    put(&t, "empty.ts", "");
    s = read_source("empty.ts", &len, &pr);
    assert_non_null(s);
    assert_int_equal(len, 0);
    assert_string_equal(s, "");
    assert_int_equal(pr.items.n, 0);
    free(s);
    problems_free(&pr);

    tree_free(&t);
}

static void test_utf8_valid(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n;
        bool ok;
        size_t bad;
    } cases[] = {
#define OK(lit) {lit, sizeof lit - 1, true, 0}
#define BAD(lit, at) {lit, sizeof lit - 1, false, at}
        OK(""),
        OK("plain ascii"),
        OK("a\0b"),
        OK("\xc2\x80"),             /* U+0080 */
        OK("\xc3\xa9"),             /* é */
        OK("\xdf\xbf"),             /* U+07FF */
        OK("\xe0\xa0\x80"),         /* U+0800 */
        OK("\xe2\x82\xac"),         /* € */
        OK("\xed\x9f\xbf"),         /* U+D7FF */
        OK("\xee\x80\x80"),         /* U+E000 */
        OK("\xef\xbb\xbf"),         /* BOM */
        OK("\xef\xbf\xbf"),         /* U+FFFF */
        OK("\xf0\x90\x80\x80"),     /* U+10000 */
        OK("\xf0\x9d\x84\x9e"),     /* 𝄞 */
        OK("\xf4\x8f\xbf\xbf"),     /* U+10FFFF */
        BAD("\x80", 0),             /* lone continuation */
        BAD("ab\xbf", 2),
        BAD("\xc0\x80", 0),         /* overlong NUL */
        BAD("\xc1\xbf", 0),         /* overlong */
        BAD("\xe0\x80\x80", 0),     /* overlong */
        BAD("\xe0\x9f\xbf", 0),     /* overlong */
        BAD("\xf0\x8f\xbf\xbf", 0), /* overlong */
        BAD("\xed\xa0\x80", 0),     /* surrogate D800 */
        BAD("\xed\xbf\xbf", 0),     /* surrogate DFFF */
        BAD("\xf4\x90\x80\x80", 0), /* U+110000 */
        BAD("\xf5\x80\x80\x80", 0),
        BAD("\xf8\x88\x80\x80\x80", 0),
        BAD("\xfe", 0),
        BAD("\xff", 0),
        BAD("ab\xc3", 2),           /* truncated at the end */
        BAD("\xe2\x82", 0),
        BAD("\xf0\x9d\x84", 0),
        BAD("x\xc3" "A", 1),          /* bad continuation */
        BAD("a\xe2\x28\xa1", 1),
        BAD("\xe2\x82\xac\xf0\x9d\x84\xc0", 3),
        BAD("ok \xc3\xa9 \xed\xa0\x80", 6),
#undef OK
#undef BAD
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t bad = 12345;
        bool ok = utf8_valid(cases[i].s, cases[i].n, &bad);
        if (ok != cases[i].ok)
            fail_msg("case %zu: expected %s", i, cases[i].ok ? "valid" : "invalid");
        if (!ok && bad != cases[i].bad)
            fail_msg("case %zu: bad byte at %zu, expected %zu", i, bad,
                     cases[i].bad);
        if (ok)
            assert_int_equal(bad, 12345); /* untouched */
        assert_true(utf8_valid(cases[i].s, cases[i].n, NULL) == cases[i].ok);
    }
}

int main(void)
{
    /* Keep the user's git configuration out of the git tests. */
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    unsetenv("GIT_DIR");
    unsetenv("GIT_WORK_TREE");
    unsetenv("GIT_INDEX_FILE");

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_plain_walk),
        cmocka_unit_test(test_symlink_loop),
        cmocka_unit_test(test_missing_and_unreadable),
        cmocka_unit_test(test_git_repo),
        cmocka_unit_test(test_read_source),
        cmocka_unit_test(test_utf8_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
