/* `keylint model`: its options, the project read as a lint run reads it,
 * the model written; with --diff BASE_REF, the base revision's files
 * (`git archive`) read the same way in a temporary directory and the two
 * models compared. */
#include "model_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "model.h"
#include "project.h"
#include "report.h"
#include "walk.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2 };

static const char model_usage[] =
    "usage: keylint model [options] [paths...]\n"
    "\n"
    "Draws the key design the code builds: per DynamoDB table and index, each\n"
    "entity (named from its key prefix or helper) with its key shapes per\n"
    "attribute (pk = TENANT#{tenantId}), how many places write and read it and\n"
    "where, and the access patterns: every query, the table or index it runs\n"
    "on and the entities it can return. Shapes and queries with findings are\n"
    "marked. Paths, discovery and configuration are those of a lint run.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE     use FILE instead of the nearest .keylint.yml\n"
    "  -f, --format FORMAT   text (aligned columns: the default on a terminal),\n"
    "                        markdown (the default otherwise: tables and a\n"
    "                        Mermaid diagram), mermaid (a flowchart of the tables,\n"
    "                        entities and queries), workbench (a NoSQL Workbench\n"
    "                        data model, JSON, with an example item per entity)\n"
    "                        or html (one self-contained page); with -o and no\n"
    "                        -f, the file's extension chooses (.txt .md .mmd\n"
    "                        .json .html)\n"
    "  -o, --output FILE     write to FILE (replaced only when complete)\n"
    "      --diff BASE_REF   list the key shapes, indexes and queries added,\n"
    "                        removed or changed between the git revision\n"
    "                        BASE_REF and the work tree (text or markdown);\n"
    "                        BASE_REF... (three dots): from where the work\n"
    "                        tree's history left BASE_REF, as a pull request\n"
    "                        is reviewed\n"
    "      --title TEXT      the model's name (default: the directory's name)\n"
    "  -j, --jobs N          read and parse with N threads (default: one per\n"
    "                        core)\n"
    "  -h, --help            print this help\n"
    "\n"
    "exit codes: 0 the model was written, 2 usage, configuration or input\n"
    "errors (what could be read is still drawn). Findings never change the exit\n"
    "code: run keylint to check them.\n";

typedef struct ModelRun {
    const char *config;
    const char *output;
    const char *diff;
    const char *title;
    ModelFormat format;
    bool format_given;
    long jobs;
    const char *const *paths;
    size_t npaths;
} ModelRun;

/* ---- the project ------------------------------------------------------------------- */

/* Read and analyse the project of `paths` as a lint run would, and draw
 * its model; problems are appended to `problems`. *output_is_input: the
 * output file is one of the project's files. */
static DesignModel *draw(const ModelRun *r, const char *const *paths, size_t n, Problems *problems,
                         bool *output_is_input)
{
    Project *p = project_new(r->config);
    p->threads = (unsigned)r->jobs;
    p->drop_texts = true;
    p->precheck = true;
    project_add_paths(p, paths, n);
    project_analyze(p);
    project_problems(p, problems);
    if (output_is_input) {
        char *abs = r->output ? realpath(r->output, NULL) : NULL;
        *output_is_input = abs && project_file(p, abs);
        free(abs);
    }
    DesignModel *m = model_build(p);
    project_free(p);
    return m;
}

static const char *default_title(Arena *a, const ModelRun *r)
{
    if (r->title)
        return r->title;
    char *abs = realpath(r->npaths ? r->paths[0] : ".", NULL);
    const char *t = "keylint model";
    if (abs) {
        struct stat st;
        if (stat(abs, &st) == 0 && !S_ISDIR(st.st_mode)) {
            char *slash = strrchr(abs, '/');
            if (slash && slash != abs)
                *slash = '\0';
        }
        const char *base = strrchr(abs, '/');
        base = base ? base + 1 : abs;
        if (base[0])
            t = arena_strdup(a, base);
    }
    free(abs);
    return t;
}

static long long run_time(void)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    if (e && *e) {
        char *end;
        long long v = strtoll(e, &end, 10);
        if (!*end && v >= 0)
            return v;
    }
    return (long long)time(NULL);
}

/* ---- the base revision (--diff) -------------------------------------------------- */

/* A git output's first line, in `a`. */
static const char *first_line(Arena *a, const char *s)
{
    return arena_strndup(a, s, strcspn(s, "\r\n"));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path); /* what cannot be removed stays: nothing else to do */
    return 0;
}

static void remove_tree(const char *dir)
{
    if (dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p `dir` (its parents exist up to some point). */
static bool make_dirs(Arena *a, const char *dir)
{
    char *d = arena_strdup(a, dir);
    for (char *s = d + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST)
            return false;
        *s = '/';
    }
    return mkdir(d, 0777) == 0 || errno == EEXIST;
}

typedef struct Base {
    const char *top;  /* the work tree's top directory */
    const char *sha;  /* the revision */
    const char *tmp;  /* the temporary directory (removed at the end) */
    const char *tree; /* the revision's files in it */
} Base;

/* Check BASE_REF out (git archive) into a temporary directory that looks
 * like a work tree of its own (git init: the same files are listed, the
 * same .gitignore applies). False after a message. */
static bool base_checkout(Arena *a, const char *ref, Base *b)
{
    char *out;
    size_t n;
    if (!ref[0] || ref[0] == '-') {
        fprintf(stderr, "keylint: error: --diff takes a git revision, not '%s'\n", ref);
        return false;
    }
    char *top[] = {"git", "rev-parse", "--show-toplevel", NULL};
    if (run_capture(a, top, &out, &n) != 0 || !out[0]) {
        fprintf(stderr, "keylint: error: --diff compares with a git revision: the current "
                        "directory is not in a git work tree\n");
        return false;
    }
    b->top = first_line(a, out);
    /* BASE...: where the work tree's history left BASE (git diff A...B) */
    size_t rl = strlen(ref);
    if (rl > 3 && !strcmp(ref + rl - 3, "...")) {
        const char *base = arena_strndup(a, ref, rl - 3);
        char *mb[] = {"git", "-C", (char *)b->top, "merge-base", (char *)base, "HEAD", NULL};
        if (base[0] == '-' || run_capture(a, mb, &out, &n) != 0 || !out[0]) {
            fprintf(stderr, "keylint: error: --diff: %s and HEAD have no merge base in %s (a "
                            "shallow clone?)\n",
                    base, b->top);
            return false;
        }
        ref = first_line(a, out);
    }
    const char *spec = arena_printf(a, "%s^{commit}", ref);
    char *verify[] = {"git", "-C", (char *)b->top, "rev-parse", "--verify", "--quiet",
                      (char *)spec, NULL};
    if (run_capture(a, verify, &out, &n) != 0 || !out[0]) {
        fprintf(stderr, "keylint: error: --diff: '%s' is not a commit of %s\n", ref, b->top);
        return false;
    }
    b->sha = first_line(a, out);
    const char *tmpdir = getenv("TMPDIR");
    char *tmp = arena_printf(a, "%s/keylint-model-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "keylint: error: --diff: cannot make a temporary directory: %s\n",
                strerror(errno));
        return false;
    }
    b->tmp = tmp;
    b->tree = arena_printf(a, "%s/tree", tmp);
    const char *tar = arena_printf(a, "%s/base.tar", tmp);
    char *archive[] = {"git", "-C", (char *)b->top, "archive", "--format=tar", "-o", (char *)tar,
                       (char *)b->sha, NULL};
    char *untar[] = {"tar", "-xf", (char *)tar, "-C", (char *)b->tree, NULL};
    char *init[] = {"git", "init", "-q", (char *)b->tree, NULL};
    if (mkdir(b->tree, 0700) != 0 || run_capture(a, archive, &out, &n) != 0 ||
        run_capture(a, untar, &out, &n) != 0 || run_capture(a, init, &out, &n) != 0) {
        fprintf(stderr, "keylint: error: --diff: cannot check %s out (git archive | tar)\n", ref);
        return false;
    }
    unlink(tar);
    return true;
}

/* The model of the base revision: the same paths, read from the same
 * place in its tree (the current directory moves there, so that display
 * paths read as in the work tree). */
static DesignModel *draw_base(Arena *a, const ModelRun *r, const Base *b)
{
    char *cwd = realpath(".", NULL);
    size_t tl = strlen(b->top);
    if (!cwd || strncmp(cwd, b->top, tl) || (cwd[tl] && cwd[tl] != '/')) {
        free(cwd);
        return NULL;
    }
    const char *here = arena_printf(a, "%s%s", b->tree, cwd + tl);
    free(cwd);
    const char **paths = arena_alloc(a, (r->npaths + 1) * sizeof *paths);
    for (size_t i = 0; i < r->npaths; i++) {
        const char *p = r->paths[i];
        paths[i] = p;
        if (p[0] == '/' && !strncmp(p, b->top, tl) && (p[tl] == '/' || !p[tl]))
            paths[i] = arena_printf(a, "%s%s", b->tree, p + tl);
    }
    int back = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (back < 0 || !make_dirs(a, here) || chdir(here) != 0) {
        if (back >= 0)
            close(back);
        return NULL;
    }
    Problems ignored; /* the base revision is only compared with */
    problems_init(&ignored);
    ModelRun br = *r;
    br.output = NULL;
    DesignModel *m = draw(&br, paths, r->npaths, &ignored, NULL);
    problems_free(&ignored);
    bool ok = fchdir(back) == 0;
    close(back);
    if (!ok) {
        model_free(m);
        return NULL;
    }
    return m;
}

/* ---- options ------------------------------------------------------------------------ */

static bool parse_jobs(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || !*s || v < 1 || v > 256)
        return false;
    *out = v;
    return true;
}

/* Returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, ModelRun *r)
{
    enum { OPT_DIFF = 256, OPT_TITLE };
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"diff", required_argument, NULL, OPT_DIFF},
        {"title", required_argument, NULL, OPT_TITLE},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":c:f:o:j:h", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            r->config = optarg;
            break;
        case 'f':
            if (!model_format_parse(optarg, &r->format)) {
                fprintf(stderr, "keylint: error: model: unknown format '%s' (text, markdown, "
                                "mermaid, workbench or html)\n",
                        optarg);
                return EXIT_USAGE;
            }
            r->format_given = true;
            break;
        case 'o':
            r->output = optarg;
            break;
        case OPT_DIFF:
            r->diff = optarg;
            break;
        case OPT_TITLE:
            r->title = optarg;
            break;
        case 'j':
            if (!parse_jobs(optarg, &r->jobs)) {
                fprintf(stderr, "keylint: error: --jobs takes a number of threads from 1 to 256, "
                                "not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(model_usage, stdout);
            return EXIT_OK;
        case ':':
            fprintf(stderr, "keylint: error: %s needs a value\n%s", argv[optind - 1], model_usage);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "keylint: error: model: unknown option '%s'\n\n%s", argv[optind - 1],
                    model_usage);
            return EXIT_USAGE;
        }
    }
    r->paths = (const char *const *)argv + optind;
    r->npaths = (size_t)(argc - optind);
    if (!r->format_given)
        r->format = r->output ? MODEL_MARKDOWN : isatty(STDOUT_FILENO) ? MODEL_TEXT
                                                                      : MODEL_MARKDOWN;
    if (!r->format_given && r->output && !r->diff)
        model_format_for_path(r->output, &r->format);
    if (r->diff && r->format != MODEL_TEXT && r->format != MODEL_MARKDOWN) {
        fprintf(stderr, "keylint: error: --diff writes text or markdown\n");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < r->npaths; i++)
        if (!strcmp(r->paths[i], "-")) {
            fprintf(stderr, "keylint: error: model reads files, not standard input\n");
            return EXIT_USAGE;
        }
    return -1;
}

/* ---- the command ---------------------------------------------------------------------- */

typedef struct Output {
    FILE *f;
    ReplaceFile rf;
} Output;

static bool output_open(Arena *a, const char *path, Output *o)
{
    if (!path) {
        o->f = stdout;
        return true;
    }
    if (!replace_open(&o->rf, path, a)) {
        fprintf(stderr, "keylint: error: %s not written: %s\n", path, replace_error(&o->rf));
        return false;
    }
    o->f = o->rf.f;
    return true;
}

static bool output_close(Output *o, bool ok, const char *path)
{
    if (o->f == stdout)
        ok = fflush(stdout) == 0 && ok;
    else
        ok = replace_commit(&o->rf, ok && !ferror(o->f));
    if (!ok)
        fprintf(stderr, "keylint: error: cannot write %s%s%s\n", path ? path : "standard output",
                o->f == stdout ? "" : ": ", o->f == stdout ? "" : replace_error(&o->rf));
    return ok;
}

int model_main(int argc, char **argv)
{
    ModelRun r = {0};
    int rc = parse_args(argc, argv, &r);
    if (rc >= 0)
        return rc;
    Arena *a = arena_new();
    Problems problems;
    problems_init(&problems);
    bool output_is_input = false;
    DesignModel *m = draw(&r, r.paths, r.npaths, &problems, &output_is_input);
    rc = EXIT_OK;
    if (output_is_input) {
        fprintf(stderr, "keylint: error: the output %s is one of the files read\n", r.output);
        rc = EXIT_USAGE;
        goto done;
    }
    if (r.diff) {
        Base b = {0};
        DesignModel *base = NULL;
        if (!base_checkout(a, r.diff, &b) || !(base = draw_base(a, &r, &b))) {
            if (b.tmp && !base)
                fprintf(stderr, "keylint: error: --diff: the current directory is not under %s, "
                                "or the base revision cannot be read there\n",
                        b.top);
            remove_tree(b.tmp);
            rc = EXIT_USAGE;
            goto done;
        }
        remove_tree(b.tmp);
        ModelDiff *d = model_diff(base, m);
        Output out = {0};
        const char *name = arena_printf(a, "%s (%.10s)", r.diff, b.sha);
        if (!output_open(a, r.output, &out) ||
            !output_close(&out, model_diff_write(out.f, d, name, r.format), r.output))
            rc = EXIT_USAGE;
        model_diff_free(d);
        model_free(base);
    } else {
        ModelWriteOptions wo = {.title = default_title(a, &r), .now = run_time()};
        Output out = {0};
        if (!output_open(a, r.output, &out) ||
            !output_close(&out, model_write(out.f, m, r.format, &wo), r.output))
            rc = EXIT_USAGE;
    }
done:
    report_problems(stderr, &problems, false);
    report_problems(stderr, &problems, true);
    if (problems_have(&problems, PROBLEM_CONFIG) || problems_have(&problems, PROBLEM_INPUT))
        rc = EXIT_USAGE;
    problems_free(&problems);
    model_free(m);
    arena_free(a);
    return rc;
}
