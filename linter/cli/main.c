/* keylint: the command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "access.h"
#include "baseline.h"
#include "cache_findings.h"
#include "cache_run.h"
#include "config_print.h"
#include "init.h"
#include "dumpir.h"
#include "fingerprint.h"
#include "files.h"
#include "fix.h"
#include "fix_files.h"
#include "lsp.h"
#include "model_cmd.h"
#include "output.h"
#include "outputs.h"
#include "project.h"
#include "report.h"
#include "rule.h"
#include "scopes.h"
#include "stats.h"
#include "walk.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: keylint [options] [paths...]\n"
    "\n"
    "Checks how a TypeScript/JavaScript service builds and queries DynamoDB\n"
    "keys. Paths are files or directories (default: the current directory);\n"
    "directories in a git work tree list the files git tracks or would track.\n"
    "A file named is linted in its project (the git work tree around it, else\n"
    "the directory of its .keylint.yml, else of its package.json), read so\n"
    "that imports and project-wide rules resolve as in a run over it; only\n"
    "the paths named are reported. A directory in no git work tree that\n"
    "holds some is linted as each work tree apart and the rest together.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE     use FILE instead of the nearest .keylint.yml\n"
    "  -f, --format FORMAT   text (default: finding, source line, caret),\n"
    "                        concise (one line per finding), json, sarif\n"
    "                        (SARIF 2.1.0 for code scanning) or github\n"
    "                        (workflow-command annotations, and a Markdown\n"
    "                        summary appended to $GITHUB_STEP_SUMMARY)\n"
    "  -o, --output FILE     write the report to FILE; the summary line still\n"
    "                        goes to the terminal (stderr)\n"
    "  -j, --jobs N          read and parse with N threads (default: one per\n"
    "                        core); the output is the same for any N\n"
    "      --no-precheck     parse every file: a run otherwise leaves unparsed\n"
    "                        the files whose text shows no key, data\n"
    "                        operation, key helper or table, until a parsed\n"
    "                        file needs what they define; the findings are\n"
    "                        the same, only syntax errors in those files are\n"
    "                        named then\n"
    "      --no-cache        neither read nor write the cache between runs\n"
    "                        (so does a set KEYLINT_NO_CACHE). keylint keeps,\n"
    "                        by default, what each file's parse found, by its\n"
    "                        text, path, configuration and keylint's version,\n"
    "                        so that an unchanged file is not parsed again, and\n"
    "                        a run over an unchanged project reports the\n"
    "                        findings the last one kept; the findings are the\n"
    "                        same. It is .keylint-cache/ in the project root\n"
    "                        (ignored by git: it holds a .gitignore of its\n"
    "                        own); a directory that cannot be written is\n"
    "                        passed by in silence (--stats says so)\n"
    "      --cache-dir DIR   keep the cache in DIR instead\n"
    "      --cache           the default (kept for scripts that name it; with\n"
    "                        it, a cache that cannot be written is a note)\n"
    "      --stats           after the summary, one line on stderr: the files\n"
    "                        found, parsed (how many only because a parsed file\n"
    "                        needs a name they define, how many held nothing\n"
    "                        for keylint), read but not parsed, skipped and why,\n"
    "                        with their bytes, and the seconds of each phase;\n"
    "                        with --format json, a \"stats\" object in the\n"
    "                        report too\n"
    "      --report FORMAT=FILE\n"
    "                        also write the report as FORMAT (json, sarif, text\n"
    "                        or concise) to FILE, from the same run; repeatable\n"
    "  -q, --quiet           report errors only: no warnings, no notes\n"
    "      --fail-on LEVEL   exit 1 on findings at this level or above:\n"
    "                        error (default) or warning\n"
    "      --max-warnings N  also exit 1 when there are more than N warnings\n"
    "      --exit-zero       exit 0 whatever the findings and unreadable\n"
    "                        files (usage and configuration errors still\n"
    "                        exit 2)\n"
    "      --baseline FILE   report only findings that FILE does not record;\n"
    "                        say how many of its entries are stale (their\n"
    "                        finding is gone)\n"
    "      --baseline-prune FILE\n"
    "                        as --baseline FILE, and drop its stale entries\n"
    "                        from FILE (recording nothing new)\n"
    "      --baseline-write FILE\n"
    "                        record every current finding in FILE (a baseline)\n"
    "                        instead of reporting them, and exit 0\n"
    "      --require-reason  report suppression directives without '-- reason'\n"
    "      --fix             apply the safe fixes: those keylint proves keep\n"
    "                        every key's text (an inline prefix or separator\n"
    "                        replaced by the constant that holds it, with its\n"
    "                        import), then report what is left\n"
    "      --fix-dry-run     print those fixes as a unified diff and change\n"
    "                        nothing; exit 1 when there is one\n"
    "      --unsafe-fixes    with --fix or --fix-dry-run, also the unsafe\n"
    "                        fixes: right, but changing what the code does\n"
    "                        (a versioned read wrapped in\n"
    "                        removeSortKeyVersion)\n"
    "      --changed         the paths are changed files (a pre-commit hook):\n"
    "                        report on the source files among them; a changed\n"
    "                        .keylint.yml or schema file reports on its whole\n"
    "                        project; other files are skipped. Each is linted\n"
    "                        in its project, as a file named is\n"
    "      --color WHEN      auto (default: on a terminal, unless NO_COLOR is\n"
    "                        set), always or never\n"
    "      --stdin-filename PATH\n"
    "                        with '-' as the path: lint standard input as if it\n"
    "                        were PATH in its project (configuration, imports\n"
    "                        and schemas resolved from PATH's place)\n"
    "      --rule RULE=SEV   run RULE at SEV (off, warning or error), over the\n"
    "                        configuration files; repeatable\n"
    "      --print-config FILE\n"
    "                        print the configuration that applies to FILE (JSON:\n"
    "                        every setting after defaults, every rule's severity)\n"
    "      --init [DIR]      write DIR/.keylint.yml (default: here) from what the\n"
    "                        code shows: separator, tenant names (an override\n"
    "                        per app where a monorepo's apps differ), schema\n"
    "                        files; commented, never over an existing one\n"
    "      --list-rules      list the rules with their default severity\n"
    "      --explain RULE    print a rule's documentation\n"
    "      --access-patterns print each access pattern of the configuration\n"
    "                        with the table key or index that serves it (exit 1\n"
    "                        when one is not served)\n"
    "      --dump-ir FILE    print what extraction saw in FILE: each key with\n"
    "                        its role, origin and segments, each data operation\n"
    "                        (the other paths give the project context)\n"
    "  -h, --help            print this help\n"
    "  -V, --version         print the version\n"
    "\n"
    "Suppress a finding with a comment naming its rule:\n"
    "  // keylint-disable-next-line RULE[, RULE] -- reason\n"
    "  code(); // keylint-disable-line RULE -- reason\n"
    "  // keylint-disable-file RULE -- reason\n"
    "\n"
    "exit codes: 0 no finding at the failing level, 1 findings at that level\n"
    "(or more warnings than --max-warnings), 2 usage, configuration or input\n"
    "errors (a missing path, unreadable, binary, non-UTF-8 or too large files,\n"
    "a bad baseline; the rest is still linted). A file with a syntax error is\n"
    "linted outside the error, with a note naming the lines not read; notes\n"
    "never change the exit code.\n";

/* The problems of `pr` of the kinds wanted (notes or the others) on `out`. */
static void print_problems_of(FILE *out, const Problems *pr, bool notes)
{
    report_problems(out, pr, notes);
}

static void print_problems(const Problems *pr)
{
    print_problems_of(stderr, pr, false);
    print_problems_of(stderr, pr, true);
}

/* ", did you mean 'x'?" for the rule id closest to `id` (within two edits),
 * or "". */
static const char *closest_rule(const char *id, size_t n, char *buf, size_t size)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (const char *const *r = rule_ids(); *r; r++) {
        size_t d = edit_distance(id, n, *r, strlen(*r));
        if (d < best_d) {
            best = *r;
            best_d = d;
        }
    }
    if (!best)
        return "";
    snprintf(buf, size, "; did you mean '%s'?", best);
    return buf;
}

/* --rule RULE=off|warning|error, in order: the last one for a rule wins,
 * over every configuration file. */
typedef struct RuleOverride {
    const char *id;
    Severity severity;
} RuleOverride;
typedef struct RuleOverrides {
    RuleOverride v[64];
    size_t n;
} RuleOverrides;

static bool parse_rule_override(const char *arg, RuleOverrides *o)
{
    const char *eq = strchr(arg, '=');
    Severity sev;
    if (!eq || eq == arg || !severity_parse(eq + 1, &sev)) {
        fprintf(stderr, "keylint: error: --rule takes RULE=off|warning|error, not '%s'\n", arg);
        return false;
    }
    size_t n = (size_t)(eq - arg);
    for (const char *const *id = rule_ids(); *id; id++)
        if (strlen(*id) == n && !strncmp(*id, arg, n)) {
            if (o->n == sizeof o->v / sizeof *o->v) {
                fprintf(stderr, "keylint: error: too many --rule options\n");
                return false;
            }
            o->v[o->n++] = (RuleOverride){*id, sev};
            return true;
        }
    char hint[96];
    fprintf(stderr, "keylint: error: unknown rule '%.*s' in --rule%s (see --list-rules)\n",
            (int)n, arg, closest_rule(arg, n, hint, sizeof hint));
    return false;
}

static void override_config(Config *c, const RuleOverrides *o)
{
    for (size_t i = 0; c && i < o->n; i++) {
        RuleSetting s = {o->v[i].id, o->v[i].severity, 0};
        VEC_PUSH(c->arena, &c->rules, s); /* the last setting of a rule wins */
    }
}

static void apply_rule_overrides(Project *p, const RuleOverrides *o)
{
    if (!o->n)
        return;
    override_config(p->forced, o);
    override_config(p->defaults, o);
    for (size_t i = 0; i < p->configs.n; i++)
        override_config(p->configs.v[i].config, o);
}

static int list_rules(void)
{
    for (const RuleDesc *const *r = keylint_rules; *r; r++)
        printf("%-26s %-8s %s\n", (*r)->id, severity_name((*r)->default_severity),
               (*r)->summary);
    return EXIT_CLEAN;
}

static int explain(const char *id)
{
    const RuleDesc *r = rule_find(id);
    if (!r) {
        char hint[96];
        fprintf(stderr, "keylint: error: unknown rule '%s'%s (see --list-rules)\n", id,
                closest_rule(id, strlen(id), hint, sizeof hint));
        return EXIT_USAGE;
    }
    const char *docs = rule_docs(id);
    if (docs)
        fputs(docs, stdout);
    else
        printf("%s [%s]\n\n%s\n", r->id, severity_name(r->default_severity), r->summary);
    return EXIT_CLEAN;
}

static const char *lookup_source(void *ctx, const char *path, size_t *len)
{
    const SourceFile *f = project_file(ctx, path);
    if (!f || !f->text)
        return NULL;
    *len = f->len;
    return f->text;
}

/* ---- --changed: the files a pre-commit hook passes ----------------------- */

/* --stdin-filename PATH -: read the project around PATH, then PATH's text
 * from stdin (over the file on disk, if any); `check` gets PATH unless the
 * configuration ignores it. False, after a message, when stdin cannot be
 * read as source text. */
static bool lint_stdin(Project *p, const char *path, StrList *check)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fputs("keylint: error: --stdin-filename names a directory (", stderr);
        fputs_escaped(stderr, path);
        fputs("): give the path of a source file\n", stderr);
        return false;
    }
    Problems pr;
    problems_init(&pr);
    size_t len = 0;
    char *text = read_source("/dev/stdin", &len, &pr);
    if (!text) {
        for (size_t i = 0; i < pr.items.n; i++) {
            fputs_escaped(stderr, path);
            fputs(" (standard input): error: ", stderr);
            fputs_escaped(stderr, pr.items.v[i].message);
            fputc('\n', stderr);
        }
        problems_free(&pr);
        return false;
    }
    problems_free(&pr);
    const char *root = project_root_of(p->arena, path);
    if (root)
        project_add_paths(p, &root, 1);
    if (!config_ignores(project_config_for(p, path), path)) {
        const SourceFile *f = project_set_text(p, path, text, len);
        strlist_push(p->arena, check, f->abspath ? f->abspath : f->path);
    }
    free(text);
    return true;
}

/* The project's files under one of `targets` (files or directories),
 * each once however it was named (`a.ts`, `./a.ts`, `d/../a.ts`, a link
 * to it): the files' canonical paths. */
static void files_under(Arena *a, const Project *p, const StrList *targets, StrList *out)
{
    NameMap seen = {0};
    for (size_t t = 0; t < targets->n; t++) {
        char *abs = realpath(targets->v[t], NULL);
        if (!abs)
            continue;
        size_t n = strlen(abs);
        for (size_t i = 0; i < p->files.n; i++) {
            const SourceFile *f = &p->files.v[i];
            if (f->removed || !f->abspath)
                continue;
            if (!strncmp(f->abspath, abs, n) && (f->abspath[n] == '\0' || f->abspath[n] == '/'))
                strlist_push_once(a, out, &seen, f->abspath);
        }
        free(abs);
    }
}

/* A configuration file (--config, or one found) that could not be read
 * or is wrong: the run stops before any finding. */
static bool config_failed(const Project *p, const char *forced)
{
    if (forced && !p->forced)
        return true;
    for (size_t i = 0; i < p->configs.n; i++)
        if (p->configs.v[i].path[0] && !p->configs.v[i].config)
            return true;
    return false;
}

/* --require-reason: the flag wins over every configuration's
 * require-suppression-reason. */
static void require_reasons(Project *p)
{
    if (p->forced)
        p->forced->require_suppression_reason = true;
    if (p->defaults)
        p->defaults->require_suppression_reason = true;
    for (size_t i = 0; i < p->configs.n; i++)
        if (p->configs.v[i].config)
            p->configs.v[i].config->require_suppression_reason = true;
}

/* ---- paths linted in their projects: named files, --changed -------------
 * A file's findings do not depend on how it was named: a file named on
 * the command line (or changed, or given on stdin) is linted in its
 * project (project_root_of), read whole so that imports, helpers, schemas
 * and the project-wide rules resolve as in a run over the project, and
 * only the paths named are reported. Paths of several projects: each in
 * its own, every file reported once. */

/* Lint `paths` (files and directories) in their projects: the first
 * project is `p`, the others are made here under the same settings.
 * Named files are parsed whatever the pre-check says (their syntax errors
 * are named); the rest of each project is read with `precheck`. A file
 * outside any project (project_root_of) is linted alone. A path not on
 * disk is a problem when `named` (the command line's paths), and is
 * skipped otherwise (--changed: a deleted file). The `nested` work trees
 * (walk_git_roots) under a project's root are left to their own. `*check`
 * gets the files of `p` to report; returns the number of files reported
 * in all. */
static size_t scopes_setup(Project *p, const char *config, bool precheck, bool named,
                           const char *const *paths, size_t n, const StrList *nested,
                           Scopes *sc, StrList *check)
{
    Arena *a = p->arena;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            if (named) /* the walk says why */
                project_add_paths(p, &paths[i], 1);
            continue;
        }
        const char *root = project_root_of(a, paths[i]);
        if (!root && S_ISDIR(st.st_mode))
            root = paths[i]; /* a directory too wide to be a project: itself */
        Scope *s = scope_of(a, sc, root);
        strlist_push(a, S_ISDIR(st.st_mode) ? &s->dirs : &s->files, paths[i]);
    }
    size_t total = 0;
    for (size_t i = 0; i < sc->v.n; i++) {
        Scope *s = &sc->v.v[i];
        Project *q = p;
        if (i) {
            q = project_new(config);
            q->threads = p->threads;
            q->drop_texts = p->drop_texts;
            q->prove_fixes = p->prove_fixes;
            q->cache = p->cache;
        }
        s->p = q;
        /* the work trees below its root are projects of their own */
        size_t rl = s->root ? strlen(s->root) : 0;
        for (size_t k = 0; s->root && k < nested->n; k++)
            if (!strncmp(nested->v[k], s->root, rl) && nested->v[k][rl] == '/')
                strlist_push(a, &q->exclude, nested->v[k]);
        q->precheck = false;
        if (s->files.n)
            project_add_paths(q, s->files.v, s->files.n);
        q->precheck = precheck;
        if (s->root)
            project_add_paths(q, &s->root, 1);
        for (size_t k = 0; k < s->files.n; k++) {
            char *abs = realpath(s->files.v[k], NULL);
            const SourceFile *f = abs ? project_file(q, abs) : NULL;
            free(abs);
            if (f && !strlist_has(&s->check, f->abspath)) /* else ignored by configuration */
                strlist_push(a, &s->check, f->abspath);
        }
        StrList under = {0};
        files_under(a, q, &s->dirs, &under);
        for (size_t k = 0; k < under.n; k++)
            if (!strlist_has(&s->check, under.v[k]))
                strlist_push(a, &s->check, under.v[k]);
        total += s->check.n;
    }
    if (sc->v.n)
        *check = sc->v.v[0].check;
    return total;
}

/* After the run's project `p` is analysed (and `problems` holds its
 * problems about `check`): keep only its findings about what it reports;
 * analyse the other projects of `sc` and add their findings and problems
 * about what they report; free them. */
static void scopes_merge(Project *p, Scopes *sc, const StrList *check, Problems *problems,
                         const char *config, const RuleOverrides *overrides,
                         bool require_reason, RunStats *stats, SeenCounts *seen)
{
    DiagList *dl = &p->diags;
    size_t w = 0;
    for (size_t r = 0; r < dl->items.n; r++)
        if (scope_reports(p, check, sc->v.n ? &sc->v.v[0].dirs : NULL, dl->items.v[r].path))
            dl->items.v[w++] = dl->items.v[r];
    dl->items.n = w;
    for (size_t i = 1; i < sc->v.n; i++) {
        Scope *s = &sc->v.v[i];
        Project *q = s->p;
        if (require_reason)
            require_reasons(q);
        apply_rule_overrides(q, overrides);
        project_analyze_some(q, NULL, 0, s->check.v, s->check.n);
        Problems qp;
        problems_init(&qp);
        project_problems_of(q, s->check.v, s->check.n, &qp);
        for (size_t k = 0; k < qp.items.n; k++) {
            const Problem *pr = &qp.items.v[k];
            problems_add_kind(problems, pr->kind, pr->path, pr->line, pr->col, "%s",
                              pr->message);
        }
        problems_free(&qp);
        /* a project under a wrong configuration has no findings */
        for (size_t k = 0; !config_failed(q, config) && k < q->diags.items.n; k++)
            if (scope_reports(q, &s->check, &s->dirs, q->diags.items.v[k].path))
                diag_copy(dl, &q->diags.items.v[k]);
        if (stats)
            stats_add_project(stats, q);
        stats_seen(seen, q, s->check.v, s->check.n);
        project_free(q);
        s->p = NULL;
    }
    diag_sort(dl);
    problems_sort(problems);
}

typedef enum Format { FMT_TEXT, FMT_CONCISE, FMT_JSON, FMT_SARIF, FMT_GITHUB } Format;

static bool parse_format(const char *s, Format *out)
{
    static const char *const names[] = {"text", "concise", "json", "sarif", "github"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) {
            *out = (Format)i;
            return true;
        }
    return false;
}

/* A non-negative count: "0", "12". */
static bool parse_count(const char *s, long *out)
{
    if (!*s)
        return false;
    long v = 0;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9' || v > (LONG_MAX - 9) / 10)
            return false;
        v = v * 10 + (*c - '0');
    }
    *out = v;
    return true;
}

/* Everything the run decided, for writing the report. */
typedef struct Run {
    Format format;
    const char *output;     /* --output FILE or NULL */
    const char *color;      /* auto | always | never */
    Severity fail_on;
    long max_warnings;      /* -1: no limit */
    bool exit_zero;
    const char *baseline;   /* --baseline FILE */
    const char *baseline_write;
    bool baseline_prune;    /* --baseline-prune FILE: drop its stale entries */
    bool quiet;             /* --quiet: errors only */
    struct timespec started;
    uint64_t started_ns;    /* the same, for --stats */
    size_t files_checked;   /* --changed: the files reported on */
    bool changed;
    bool from_record;       /* the findings are the cache's record of the run */
    size_t linted;          /* with from_record: the files the run linted */
    /* --report FORMAT=FILE: more reports of the same run */
    struct {
        Format format;
        const char *path;
    } extra[8];
    size_t nextra;
    /* --stats: filled as the run goes, NULL without it */
    RunStats *stats;
    /* what the run found of DynamoDB code, for the summaries */
    SeenCounts seen;
} Run;

/* The files the run writes, for outputs_check_args. */
static Outputs run_outputs(const Run *run)
{
    Outputs o = {0};
    if (run->output)
        o.v[o.n++] = (Output){"--output", run->output};
    for (size_t i = 0; i < run->nextra; i++)
        o.v[o.n++] = (Output){"--report", run->extra[i].path};
    if (run->baseline_write)
        o.v[o.n++] = (Output){"--baseline-write", run->baseline_write};
    return o;
}

static bool want_color(const char *when, FILE *f)
{
    return !strcmp(when, "always") || (!strcmp(when, "auto") && report_want_color(f));
}

/* Append a view of `g` to `d`: the struct is copied, its strings stay
 * owned by the list `g` came from, which must outlive `d`. */
static void diag_push_view(DiagList *d, const Diagnostic *g)
{
    VEC_PUSH(d->arena, &d->items, *g);
}

/* Source text for fingerprints and columns: the project's files, and files
 * outside it that findings point at (schema files named by the
 * configuration), read from disk once. The texts belong to `arena`. */
typedef struct ExtraText {
    const char *path;
    const char *text; /* NULL: unreadable */
    size_t len;
} ExtraText;

typedef struct Sources {
    Project *p;
    Arena *arena;
    VEC(ExtraText) extra;
} Sources;

static const char *lookup_any(void *ctx, const char *path, size_t *len)
{
    Sources *s = ctx;
    const char *t = lookup_source(s->p, path, len);
    if (t)
        return t;
    for (size_t i = 0; i < s->extra.n; i++)
        if (!strcmp(s->extra.v[i].path, path)) {
            *len = s->extra.v[i].len;
            return s->extra.v[i].text;
        }
    ExtraText e = {.path = arena_strdup(s->arena, path)};
    size_t n;
    FileRead how;
    char *buf = file_read(path, KEYLINT_MAX_FILE_BYTES, true, &n, &how);
    if (buf && !memchr(buf, '\0', n)) {
        size_t bom = n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0; /* as read_source */
        e.len = n - bom;
        e.text = arena_strndup(s->arena, buf + bom, e.len);
    }
    free(buf);
    VEC_PUSH(s->arena, &s->extra, e);
    *len = e.len;
    return e.text;
}

/* The summary line's options: the findings --fix can fix and, where a
 * person reads it (a terminal, or stderr beside a machine report or a
 * report file), how long the run took. A report on stdout stays the same
 * from run to run. */
static ReportOptions summary_options(const Run *run, FILE *sum, const DiagList *shown)
{
    ReportOptions so = {
        .format = REPORT_TEXT, .color = want_color(run->color, sum), .seen = &run->seen};
    for (size_t i = 0; i < shown->items.n; i++)
        so.fixable += shown->items.v[i].has_edit;
    if (sum == stderr || isatty(fileno(sum))) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        so.timed = true;
        so.seconds = (double)(now.tv_sec - run->started.tv_sec) +
                     (double)(now.tv_nsec - run->started.tv_nsec) / 1e9;
    }
    return so;
}

/* After baseline_filter: say how many entries of the baseline no finding
 * used (fixed, or the code is gone), or with --baseline-prune write the
 * baseline again with only the entries that were used. False when it
 * cannot be written. */
static bool baseline_stale_report(const Run *run, const Baseline *bl, const FindingList *all,
                                  const bool *keep)
{
    size_t stale = baseline_stale(bl);
    if (!run->baseline_prune) {
        if (stale)
            fprintf(stderr,
                    "keylint: %zu stale entr%s in the baseline (%s): the finding%s fixed or "
                    "gone; --baseline-prune %s drops %s\n",
                    stale, stale == 1 ? "y" : "ies", run->baseline,
                    stale == 1 ? " is" : "s are", run->baseline, stale == 1 ? "it" : "them");
        return true;
    }
    FindingList used = {.arena = arena_new()};
    for (size_t i = 0; i < all->items.n; i++)
        if (!keep[i])
            VEC_PUSH(used.arena, &used.items, all->items.v[i]);
    Problems werr;
    problems_init(&werr);
    bool ok = baseline_write(run->baseline, &used, &werr);
    if (ok)
        fprintf(stderr, "keylint: removed %zu stale entr%s from %s (%zu finding%s kept)\n", stale,
                stale == 1 ? "y" : "ies", run->baseline, used.items.n,
                used.items.n == 1 ? "" : "s");
    else
        print_problems(&werr);
    problems_free(&werr);
    findings_free(&used);
    return ok;
}

/* Why a report file was not written (replace_open or replace_commit
 * failed): refused ("PATH: not rewritten: the file is read-only") or an
 * error of the system. */
static void report_not_written(const ReplaceFile *rf)
{
    if (rf->refused) {
        fputs("keylint: error: ", stderr);
        fputs_escaped(stderr, rf->path);
        fprintf(stderr, ": not rewritten: %s\n", rf->refused);
    } else {
        fputs("keylint: error: cannot write the report to ", stderr);
        fputs_escaped(stderr, rf->path);
        fprintf(stderr, ": %s\n", replace_error(rf));
    }
}

static size_t run_linted(const Run *run, const Project *p)
{
    return run->changed ? run->files_checked : run->from_record ? run->linted
                                                                : project_linted_files(p);
}

/* Report the project's findings; returns the exit code for them (0 or 1),
 * or EXIT_USAGE when the report could not be written. */
static int report(Project *p, const Run *run, Baseline *bl, const Problems *problems)
{
    uint64_t report_start = clock_ns();
    int rc = EXIT_CLEAN;
    Problems quiet_problems; /* --quiet: no notes */
    problems_init(&quiet_problems);
    char *root = findings_root();
    FindingList all;
    Sources sources = {.p = p, .arena = arena_new()};
    findings_build(&all, &p->diags, root, lookup_any, &sources);
    /* sources stays: the text report shows the lines of the files with
     * findings, read again from disk (the project dropped its texts) */

    if (run->baseline_write) {
        Problems werr;
        problems_init(&werr);
        if (baseline_write(run->baseline_write, &all, &werr)) {
            fprintf(stderr, "keylint: recorded %zu finding%s in %s\n", all.items.n,
                    all.items.n == 1 ? "" : "s", run->baseline_write);
        } else {
            print_problems(&werr);
            rc = EXIT_USAGE;
        }
        problems_free(&werr);
        problems_free(&quiet_problems);
        findings_free(&all);
        arena_free(sources.arena);
        free(root);
        return rc;
    }

    /* the findings to show: all of them, less what the baseline absorbs */
    bool *keep = calloc(all.items.n ? all.items.n : 1, sizeof *keep);
    if (!keep)
        abort();
    size_t baselined = baseline_filter(bl, &all, keep);
    if (bl && !run->changed && !baseline_stale_report(run, bl, &all, keep))
        rc = EXIT_USAGE;
    FindingList shown = {.arena = arena_new()};
    DiagList shown_diags; /* views of p->diags (diag_push_view) */
    diag_init(&shown_diags);
    size_t warnings = 0;
    for (size_t i = 0; i < all.items.n; i++) {
        if (!keep[i])
            continue;
        warnings += all.items.v[i].diag->severity == SEV_WARNING;
        if (run->quiet && all.items.v[i].diag->severity != SEV_ERROR)
            continue;
        VEC_PUSH(shown.arena, &shown.items, all.items.v[i]);
        diag_push_view(&shown_diags, all.items.v[i].diag);
    }
    free(keep);

    FILE *out = stdout;
    ReplaceFile rf = {0};
    Arena *ra = arena_new(); /* the temporary file's name */
    if (run->output) {
        if (!replace_open(&rf, run->output, ra)) {
            report_not_written(&rf);
            arena_free(ra);
            rc = EXIT_USAGE;
            goto done;
        }
        out = rf.f;
    }
    for (size_t i = 0; run->quiet && i < problems->items.n; i++) {
        const Problem *q = &problems->items.v[i];
        if (q->kind != PROBLEM_NOTE)
            problems_add_kind(&quiet_problems, q->kind, q->path, q->line, q->col, "%s",
                              q->message);
    }
    if (run->quiet)
        problems = &quiet_problems;
    OutputInput in = {
        .findings = &shown,
        .problems = problems,
        .files_linted = run_linted(run, p),
        .root = root,
        .baselined = baselined,
        .stats = run->stats,
        .seen = &run->seen,
    };
    if (run->stats) /* what the JSON says: the time up to its writing */
        stats_times(run->stats, report_start, run->started_ns);
    bool human = run->format == FMT_TEXT || run->format == FMT_CONCISE;
    bool written = true;
    switch (run->format) {
    case FMT_TEXT:
    case FMT_CONCISE: {
        ReportOptions ro = {
            .format = run->format == FMT_TEXT ? REPORT_TEXT : REPORT_CONCISE,
            .color = out == stdout && want_color(run->color, stdout),
        };
        report_text(out, &shown_diags, &ro, lookup_any, &sources);
        print_problems_of(out, problems, true); /* notes go with the report */
        break;
    }
    case FMT_JSON:
        written = output_json(out, &in);
        break;
    case FMT_SARIF:
        written = output_sarif(out, &in);
        break;
    case FMT_GITHUB: {
        output_github(out, &in);
        const char *summary = getenv("GITHUB_STEP_SUMMARY");
        if (summary && *summary) {
            FILE *sf = fopen(summary, "a");
            if (sf) {
                output_markdown_summary(sf, &in, 500);
                if (fclose(sf) != 0)
                    sf = NULL;
            }
            if (!sf)
                fprintf(stderr, "keylint: warning: cannot append to $GITHUB_STEP_SUMMARY (%s): %s\n",
                        summary, strerror(errno));
        }
        break;
    }
    }
    if (out != stdout) {
        if (!replace_commit(&rf, written && !ferror(out))) {
            report_not_written(&rf);
            rc = EXIT_USAGE;
        }
        written = true; /* said, if not */
    } else if (fflush(out) != 0) {
        written = false;
    }
    /* the other reports of this run (a CI job's SARIF and JSON summary) */
    for (size_t i = 0; i < run->nextra; i++) {
        ReplaceFile xf;
        bool ok = replace_open(&xf, run->extra[i].path, ra);
        if (ok) {
            switch (run->extra[i].format) {
            case FMT_JSON:
                ok = output_json(xf.f, &in);
                break;
            case FMT_SARIF:
                ok = output_sarif(xf.f, &in);
                break;
            default: {
                ReportOptions xo = {.format = run->extra[i].format == FMT_TEXT ? REPORT_TEXT
                                                                              : REPORT_CONCISE};
                report_text(xf.f, &shown_diags, &xo, lookup_any, &sources);
                print_problems_of(xf.f, problems, true);
                break;
            }
            }
            ok = replace_commit(&xf, ok && !ferror(xf.f));
        }
        if (!ok) {
            report_not_written(&xf);
            rc = EXIT_USAGE;
        }
    }
    arena_free(ra);
    if (!written) {
        fprintf(stderr, "keylint: error: cannot write the report to standard output\n");
        rc = EXIT_USAGE;
    }

    /* The summary line: after a text report on stdout, on stdout; otherwise
     * on stderr, so that stdout (or the file) carries only the report. */
    FILE *sum = human && !run->output ? stdout : stderr;
    ReportOptions so = summary_options(run, sum, &shown_diags);
    report_summary(sum, &shown_diags, run_linted(run, p), &so);
    if (baselined)
        fprintf(sum, "%zu finding%s in the baseline (%s) not shown\n", baselined,
                baselined == 1 ? "" : "s", run->baseline);

    if (rc == EXIT_CLEAN && !run->exit_zero) {
        for (size_t i = 0; i < shown_diags.items.n; i++)
            if (shown_diags.items.v[i].severity >= run->fail_on)
                rc = EXIT_FINDINGS;
        if (run->quiet && run->fail_on == SEV_WARNING && warnings)
            rc = EXIT_FINDINGS; /* hidden, not forgiven */
        if (run->max_warnings >= 0 && warnings > (size_t)run->max_warnings) {
            fprintf(stderr, "keylint: %zu warning%s, more than --max-warnings %ld\n",
                    warnings, warnings == 1 ? "" : "s", run->max_warnings);
            rc = EXIT_FINDINGS;
        }
    }
done:
    problems_free(&quiet_problems);
    diag_free(&shown_diags);
    findings_free(&shown);
    findings_free(&all);
    arena_free(sources.arena);
    free(root);
    return rc;
}

/* ---- --fix and --fix-dry-run -------------------------------------------- */

/* Apply (or, dry, print as a diff) the machine-applicable edits of the
 * project's findings, file by file, each checked against the file as it
 * is on disk now. Returns the number of findings fixed; *files the files
 * they are in. */
static size_t fix_files(Project *p, bool dry, bool unsafe, size_t *files, Problems *problems)
{
    const DiagList *dl = &p->diags;
    size_t total = 0;
    *files = 0;
    StrList paths = {0};
    Arena *a = arena_new();
    NameMap seen = {0};
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *d = &dl->items.v[i];
        size_t ignored;
        if (d->has_edit && (unsafe || !d->unsafe) && d->path &&
            !namemap_get(&seen, d->path, &ignored)) {
            namemap_put(a, &seen, d->path, 0);
            strlist_push(a, &paths, d->path);
        }
    }
    for (size_t f = 0; f < paths.n; f++) {
        const char *path = paths.v[f];
        size_t len, bom;
        char *text = fix_read(path, &len, &bom, problems);
        if (!text)
            continue;
        FixEdits edits = {0};
        for (size_t i = 0; i < dl->items.n; i++) {
            const Diagnostic *d = &dl->items.v[i];
            FixEdit fe[FIX_MAX_EDITS];
            size_t k = d->path && !strcmp(d->path, path) && (unsafe || !d->unsafe)
                           ? fix_resolve(a, text, len, d, fe)
                           : 0;
            for (size_t j = 0; j < k; j++)
                VEC_PUSH(a, &edits, fe[j]);
        }
        fix_plan(&edits);
        if (edits.n) {
            if (!fix_write(stdout, path, text, len, bom, edits.v, edits.n, dry, problems))
                edits.n = 0;
            /* findings fixed (an import is part of its finding's fix) */
            for (size_t i = 0; i < edits.n; i++) {
                bool seen_before = false;
                for (size_t j = 0; j < i && !seen_before; j++)
                    seen_before = edits.v[j].diag == edits.v[i].diag;
                total += !seen_before;
            }
            *files += edits.n > 0;
        }
        free(text);
    }
    arena_free(a);
    return total;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "lsp"))
        return lsp_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "model"))
        return model_main(argc - 1, argv + 1);
    enum {
        OPT_LIST = 256,
        OPT_EXPLAIN,
        OPT_DUMP,
        OPT_FAIL_ON,
        OPT_COLOR,
        OPT_MAX_WARNINGS,
        OPT_EXIT_ZERO,
        OPT_BASELINE,
        OPT_BASELINE_WRITE,
        OPT_REQUIRE_REASON,
        OPT_CHANGED,
        OPT_ACCESS_PATTERNS,
        OPT_JOBS,
        OPT_RULE,
        OPT_PRINT_CONFIG,
        OPT_STDIN_FILENAME,
        OPT_REPORT,
        OPT_INIT,
        OPT_FIX,
        OPT_FIX_DRY_RUN,
        OPT_UNSAFE_FIXES,
        OPT_NO_PRECHECK,
        OPT_BASELINE_PRUNE,
        OPT_STATS,
        OPT_CACHE,
        OPT_NO_CACHE,
        OPT_CACHE_DIR,
    };
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"max-warnings", required_argument, NULL, OPT_MAX_WARNINGS},
        {"exit-zero", no_argument, NULL, OPT_EXIT_ZERO},
        {"baseline", required_argument, NULL, OPT_BASELINE},
        {"baseline-write", required_argument, NULL, OPT_BASELINE_WRITE},
        {"baseline-prune", required_argument, NULL, OPT_BASELINE_PRUNE},
        {"quiet", no_argument, NULL, 'q'},
        {"require-reason", no_argument, NULL, OPT_REQUIRE_REASON},
        {"changed", no_argument, NULL, OPT_CHANGED},
        {"color", required_argument, NULL, OPT_COLOR},
        {"list-rules", no_argument, NULL, OPT_LIST},
        {"explain", required_argument, NULL, OPT_EXPLAIN},
        {"dump-ir", required_argument, NULL, OPT_DUMP},
        {"access-patterns", no_argument, NULL, OPT_ACCESS_PATTERNS},
        {"rule", required_argument, NULL, OPT_RULE},
        {"print-config", required_argument, NULL, OPT_PRINT_CONFIG},
        {"stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME},
        {"report", required_argument, NULL, OPT_REPORT},
        {"init", no_argument, NULL, OPT_INIT},
        {"fix", no_argument, NULL, OPT_FIX},
        {"fix-dry-run", no_argument, NULL, OPT_FIX_DRY_RUN},
        {"unsafe-fixes", no_argument, NULL, OPT_UNSAFE_FIXES},
        {"jobs", required_argument, NULL, 'j'},
        {"no-precheck", no_argument, NULL, OPT_NO_PRECHECK},
        {"stats", no_argument, NULL, OPT_STATS},
        {"cache", no_argument, NULL, OPT_CACHE},
        {"no-cache", no_argument, NULL, OPT_NO_CACHE},
        {"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *config = NULL, *dump = NULL, *print_cfg = NULL, *stdin_name = NULL;
    bool access_patterns = false, init = false, fix = false, fix_dry = false,
         unsafe_fixes = false;
    bool precheck = true, no_cache = false, use_cache = false;
    const char *cache_dir = NULL;
    RuleOverrides overrides = {0};
    bool require_reason = false, changed = false;
    Run run = {.format = FMT_TEXT, .color = "auto", .fail_on = SEV_ERROR, .max_warnings = -1};
    RunStats stats = {0};
    clock_gettime(CLOCK_MONOTONIC, &run.started);
    run.started_ns = clock_ns();
    int c;
    opterr = 0;
    long jobs = 0;
    while ((c = getopt_long(argc, argv, ":c:f:o:j:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            config = optarg;
            break;
        case 'f':
            if (!parse_format(optarg, &run.format)) {
                fprintf(stderr,
                        "keylint: error: unknown format '%s' (text, concise, json, sarif "
                        "or github)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'o':
            run.output = optarg;
            break;
        case OPT_FAIL_ON:
            if (!severity_parse(optarg, &run.fail_on) || run.fail_on == SEV_OFF) {
                fprintf(stderr, "keylint: error: --fail-on takes error or warning, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_MAX_WARNINGS:
            if (!parse_count(optarg, &run.max_warnings)) {
                fprintf(stderr,
                        "keylint: error: --max-warnings takes a number of warnings (0 or "
                        "more), not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_CACHE:
            use_cache = true;
            break;
        case OPT_NO_CACHE:
            no_cache = true;
            break;
        case OPT_CACHE_DIR:
            cache_dir = optarg;
            use_cache = true;
            break;
        case OPT_NO_PRECHECK:
            precheck = false;
            break;
        case OPT_STATS:
            run.stats = &stats;
            break;
        case OPT_EXIT_ZERO:
            run.exit_zero = true;
            break;
        case 'j':
            if (!parse_count(optarg, &jobs) || jobs < 1 || jobs > 256) {
                fprintf(stderr,
                        "keylint: error: --jobs takes a number of threads from 1 to 256, "
                        "not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_BASELINE:
            run.baseline = optarg;
            break;
        case OPT_BASELINE_WRITE:
            run.baseline_write = optarg;
            break;
        case OPT_BASELINE_PRUNE:
            run.baseline = optarg;
            run.baseline_prune = true;
            break;
        case 'q':
            run.quiet = true;
            break;
        case OPT_REQUIRE_REASON:
            require_reason = true;
            break;
        case OPT_CHANGED:
            changed = true;
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                fprintf(stderr, "keylint: error: --color takes auto, always or never\n");
                return EXIT_USAGE;
            }
            run.color = optarg;
            break;
        case OPT_LIST:
            return list_rules();
        case OPT_EXPLAIN:
            return explain(optarg);
        case OPT_DUMP:
            dump = optarg;
            break;
        case OPT_ACCESS_PATTERNS:
            access_patterns = true;
            break;
        case OPT_RULE:
            if (!parse_rule_override(optarg, &overrides))
                return EXIT_USAGE;
            break;
        case OPT_PRINT_CONFIG:
            print_cfg = optarg;
            break;
        case OPT_STDIN_FILENAME:
            stdin_name = optarg;
            break;
        case OPT_INIT:
            init = true;
            break;
        case OPT_FIX:
            fix = true;
            break;
        case OPT_FIX_DRY_RUN:
            fix_dry = true;
            break;
        case OPT_UNSAFE_FIXES:
            unsafe_fixes = true;
            break;
        case OPT_REPORT: {
            const char *eq = strchr(optarg, '=');
            Format f;
            char fmt[16];
            size_t n = eq ? (size_t)(eq - optarg) : 0;
            if (!eq || n >= sizeof fmt || !eq[1]) {
                fprintf(stderr, "keylint: error: --report takes FORMAT=FILE, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            memcpy(fmt, optarg, n);
            fmt[n] = '\0';
            if (!parse_format(fmt, &f) || f == FMT_GITHUB) {
                fprintf(stderr,
                        "keylint: error: --report: '%s' is not a report format for a file "
                        "(text, concise, json or sarif)\n",
                        fmt);
                return EXIT_USAGE;
            }
            if (run.nextra == sizeof run.extra / sizeof *run.extra) {
                fprintf(stderr, "keylint: error: too many --report options\n");
                return EXIT_USAGE;
            }
            run.extra[run.nextra].format = f;
            run.extra[run.nextra++].path = eq + 1;
            break;
        }
        case 'h':
            fputs(usage_text, stdout);
            return EXIT_CLEAN;
        case 'V':
            printf("keylint %s\n", KEYLINT_VERSION);
            return EXIT_CLEAN;
        case ':':
            fprintf(stderr, "keylint: error: %s needs a value\n%s", argv[optind - 1], usage_text);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "keylint: error: unknown option '%s'\n\n%s", argv[optind - 1],
                    usage_text);
            return EXIT_USAGE;
        }
    }

    if (init)
        return init_run(config, argc - optind, argv + optind);

    if (print_cfg) {
        Project *pc = project_new(config);
        apply_rule_overrides(pc, &overrides);
        const Config *cfg = project_config_for(pc, print_cfg);
        apply_rule_overrides(pc, &overrides); /* the configuration just loaded too */
        Problems pr;
        problems_init(&pr);
        project_problems(pc, &pr);
        print_problems(&pr);
        bool bad = problems_have(&pr, PROBLEM_CONFIG) || problems_have(&pr, PROBLEM_INPUT);
        bool ok = config_print(stdout, cfg, print_cfg);
        problems_free(&pr);
        project_free(pc);
        return !ok || bad ? EXIT_USAGE : EXIT_CLEAN;
    }

    /* `-`: the text on stdin, linted as if it were --stdin-filename */
    bool from_stdin = false;
    for (int i = optind; i < argc; i++)
        if (!strcmp(argv[i], "-"))
            from_stdin = true;
    if (from_stdin && (argc - optind != 1 || changed)) {
        fprintf(stderr, "keylint: error: '-' (standard input) is the only path of a run, "
                        "without --changed\n");
        return EXIT_USAGE;
    }
    if (stdin_name && !from_stdin) {
        fprintf(stderr, "keylint: error: --stdin-filename needs '-' as the path\n");
        return EXIT_USAGE;
    }
    if (from_stdin && !stdin_name)
        stdin_name = "stdin.ts";
    /* files named: each linted in its project, reported alone */
    bool named = !changed && !from_stdin && names_a_file(argv + optind, (size_t)(argc - optind));
    if ((fix || fix_dry) && (dump || access_patterns || run.baseline_write)) {
        fprintf(stderr, "keylint: error: --fix and --fix-dry-run lint and fix; they do not go "
                        "with --dump-ir, --access-patterns or --baseline-write\n");
        return EXIT_USAGE;
    }
    if (run.baseline_prune && (changed || named || from_stdin || run.baseline_write || dump)) {
        fprintf(stderr, "keylint: error: --baseline-prune judges every entry: it runs over the "
                        "whole project, not with --changed, named files, '-', --baseline-write "
                        "or --dump-ir\n");
        return EXIT_USAGE;
    }
    if (unsafe_fixes && !fix && !fix_dry) {
        fprintf(stderr, "keylint: error: --unsafe-fixes goes with --fix or --fix-dry-run\n");
        return EXIT_USAGE;
    }
    if (fix && (from_stdin || fix_dry)) {
        fprintf(stderr, "keylint: error: --fix writes files: not with '-' (standard input) "
                        "nor with --fix-dry-run\n");
        return EXIT_USAGE;
    }

    /* an output that is an input would replace it: a usage error, before
     * anything is read or written */
    Outputs outs = run_outputs(&run);
    const char *given[] = {stdin_name};
    if (!outputs_check_args(&outs, run.baseline_write ? NULL : run.baseline, config,
                            from_stdin ? given : (const char *const *)argv + optind,
                            from_stdin ? 1 : (size_t)(argc - optind)))
        return EXIT_USAGE;

    /* A baseline that cannot be read stops the run before any work: the
     * report would otherwise show every recorded finding as new. */
    Baseline *bl = NULL;
    if (run.baseline && !run.baseline_write && !dump) {
        Problems berr;
        problems_init(&berr);
        bl = baseline_load(run.baseline, &berr);
        if (!bl) {
            print_problems(&berr);
            problems_free(&berr);
            return EXIT_USAGE;
        }
        problems_free(&berr);
    }

    bool fixed = false; /* --fix: the files were fixed, this is the run after */
    bool fix_failed = false;
    Cache *cache = cache_run_open(cache_dir, no_cache, use_cache, argv + optind,
                                  (size_t)(argc - optind));
relint:;
    if (run.stats) /* the run after --fix: its own counts */
        memset(run.stats, 0, sizeof *run.stats);
    run.seen = (SeenCounts){0}; /* and its own summary */
    Project *p = project_new(config);
    p->cache = cache;
    p->threads = (unsigned)jobs; /* 0: one per core */
    p->drop_texts = !dump; /* the report re-reads the files with findings */
    p->prove_fixes = true; /* the reports carry the fixes */
    const char *settings = NULL; /* a full run with the cache: its findings are kept */
    FindingsRecord record = {0};
    Problems kept = {0}; /* the record's problems */
    StrList check = {0}; /* --changed, named files: the files reported on */
    Scopes scopes = {0}; /* the projects they are in */
    /* a directory in no git work tree that holds some (a folder of
     * checkouts): each work tree is a project of its own, linted as if
     * named alone, and the rest of the directory another */
    StrList nested = {0}, spread = {0};
    if (!changed && !named && !from_stdin && !dump) {
        const char *const here[] = {"."};
        size_t np = (size_t)(argc - optind);
        const char *const *ps = np ? (const char *const *)argv + optind : here;
        np = np ? np : 1;
        for (size_t i = 0; i < np; i++) {
            struct stat st;
            if (stat(ps[i], &st) == 0 && S_ISDIR(st.st_mode))
                walk_git_roots(ps[i], p->arena, &nested);
        }
        for (size_t i = 0; nested.n && i < np; i++)
            strlist_push(p->arena, &spread, ps[i]);
        for (size_t i = 0; i < nested.n; i++)
            strlist_push(p->arena, &spread, nested.v[i]);
    }
    if (changed || named || nested.n) {
        /* report on what changed (nothing relevant changed: on nothing),
         * or on the paths named, reading the projects around them */
        StrList targets = {0};
        if (changed)
            changed_paths(p->arena, config, argv + optind, (size_t)(argc - optind), &targets);
        run.files_checked =
            changed ? scopes_setup(p, config, precheck && !dump, false, targets.v, targets.n,
                                   &nested, &scopes, &check)
            : nested.n ? scopes_setup(p, config, precheck, true, spread.v, spread.n, &nested,
                                      &scopes, &check)
                       : scopes_setup(p, config, precheck && !dump, true,
                                      (const char *const *)argv + optind,
                                      (size_t)(argc - optind), &nested, &scopes, &check);
        run.changed = true; /* report on them alone */
    } else if (from_stdin) {
        /* the buffer, in the project around where it would be */
        p->precheck = precheck;
        if (!lint_stdin(p, stdin_name, &check)) {
            project_free(p);
            baseline_free(bl);
            cache_run_close(cache, stderr, false, run.quiet, false);
            return EXIT_USAGE;
        }
        run.changed = true;
        run.files_checked = check.n;
        changed = true; /* report on it alone, as --changed does */
    } else {
        /* a full run: files with nothing for keylint are read, not parsed;
         * none when the cache keeps the findings of the same run */
        p->precheck = precheck && !dump;
        size_t from = project_list_paths(p, (const char *const *)argv + optind,
                                         (size_t)(argc - optind));
        if (cache && !dump && !access_patterns && !fix && !fix_dry) {
            StrBuf rules;
            sb_init(&rules, p->arena);
            for (size_t i = 0; i < overrides.n; i++)
                sb_printf(&rules, "%s=%d ", overrides.v[i].id, (int)overrides.v[i].severity);
            settings = cache_run_settings(p->arena, config, precheck, require_reason,
                                          sb_str(&rules), argv + optind, (size_t)(argc - optind));
            problems_init(&kept);
            record = (FindingsRecord){.diags = &p->diags, .problems = &kept};
            run.from_record = cache_findings_load(cache, p, settings, &record);
            run.linted = record.linted;
            for (size_t i = from; run.from_record && i < p->files.n; i++)
                p->files.v[i].from_cache = true; /* for --stats: neither read nor skipped */
        }
        if (!run.from_record)
            project_extract_listed(p, from);
    }
    if (dump) {
        const char *one[] = {dump};
        if (!project_file(p, dump))
            project_add_paths(p, one, 1);
    }
    if (require_reason)
        require_reasons(p);
    apply_rule_overrides(p, &overrides);
    /* the files linted, the configurations and schemas (before the
     * analysis), then the templates it found */
    bool clash = !outputs_check_project(&outs, p);
    if (!clash && run.changed)
        project_analyze_some(p, NULL, 0, check.v, check.n);
    else if (!clash && !run.from_record)
        project_analyze(p);
    if (clash || !outputs_check_project(&outs, p)) {
        problems_free(&kept);
        project_free(p);
        baseline_free(bl);
        cache_run_close(cache, stderr, false, run.quiet, false);
        return EXIT_USAGE;
    }

    Problems problems;
    problems_init(&problems);
    if (run.changed) {
        project_problems_of(p, check.v, check.n, &problems);
        stats_seen(&run.seen, p, check.v, check.n);
        scopes_merge(p, &scopes, &check, &problems, config, &overrides, require_reason,
                     run.stats, &run.seen);
    } else if (run.from_record) {
        run.seen = record.seen;
        for (size_t i = 0; i < kept.items.n; i++)
            problems_add_kind(&problems, kept.items.v[i].kind, kept.items.v[i].path,
                              kept.items.v[i].line, kept.items.v[i].col, "%s",
                              kept.items.v[i].message);
    } else {
        stats_seen(&run.seen, p, NULL, 0);
        project_problems(p, &problems);
        if (settings && !config_failed(p, config)) {
            record = (FindingsRecord){.diags = &p->diags, .problems = &problems,
                                      .linted = project_linted_files(p), .seen = run.seen};
            cache_findings_store(cache, p, settings, &record);
        }
    }
    problems_free(&kept);
    if (config_failed(p, config)) {
        /* a run under a wrong configuration means nothing: no findings */
        print_problems_of(stderr, &problems, false);
        problems_free(&problems);
        baseline_free(bl);
        cache_run_close(cache, stderr, false, run.quiet, false);
        project_free(p);
        return EXIT_USAGE;
    }
    if ((fix && !fixed) || fix_dry) {
        size_t nfiles, n = fix_files(p, fix_dry, unsafe_fixes, &nfiles, &problems);
        if (fix_dry || n) {
            fprintf(stderr, "keylint: %s %zu fix%s in %zu file%s%s\n",
                    fix_dry ? "would apply" : "applied", n, n == 1 ? "" : "es", nfiles,
                    nfiles == 1 ? "" : "s", fix_dry ? " (dry run: nothing written)" : "");
        }
        if (fix_dry) {
            print_problems(&problems);
            int drc = problems_have(&problems, PROBLEM_CONFIG) ||
                              (problems_have(&problems, PROBLEM_INPUT) && !run.exit_zero)
                          ? EXIT_USAGE
                          : n ? EXIT_FINDINGS : EXIT_CLEAN;
            problems_free(&problems);
            baseline_free(bl);
            cache_run_close(cache, stderr, false, run.quiet, false);
            project_free(p);
            return drc;
        }
        if (n) {
            /* lint the fixed files again: the report shows what is left
             * (a file that could not be written still exits 2) */
            fix_failed = problems_have(&problems, PROBLEM_INPUT);
            print_problems(&problems);
            problems_free(&problems);
            project_free(p);
            fixed = true;
            goto relint;
        }
    }
    int rc = EXIT_CLEAN;
    bool human_report = false;
    if (run.stats)
        stats_add_project(run.stats, p);
    uint64_t report_start = clock_ns();
    if (dump) {
        const SourceFile *f = project_file(p, dump);
        if (f && f->ir)
            dump_ir(stdout, f->ir);
        else if (!f || !f->problems.items.n)
            fprintf(stderr, "keylint: error: %s was not linted (ignored by configuration?)\n",
                    dump);
    } else if (access_patterns) {
        rc = access_print_patterns(stdout, p) ? EXIT_FINDINGS : EXIT_CLEAN;
    } else {
        rc = report(p, &run, bl, &problems);
        human_report = run.format == FMT_TEXT || run.format == FMT_CONCISE;
    }
    /* the errors on stderr; the notes there too unless the report holds them */
    print_problems_of(stderr, &problems, false);
    if (!human_report && !run.quiet)
        print_problems_of(stderr, &problems, true);
    if (run.stats) {
        stats_times(run.stats, report_start, run.started_ns);
        report_stats_line(stderr, run.stats);
    }
    /* notes never change the exit code; an input that could not be read
     * does, unless --exit-zero; a wrong configuration always does */
    if (problems_have(&problems, PROBLEM_CONFIG) ||
        ((fix_failed || problems_have(&problems, PROBLEM_INPUT)) && !run.exit_zero))
        rc = EXIT_USAGE;
    problems_free(&problems);
    cache_run_close(cache, stderr,
                    !run.changed && !dump &&
                        cache_run_whole(cache, cache_dir, argv + optind, (size_t)(argc - optind)),
                    run.quiet, run.stats);
    baseline_free(bl);
    project_free(p);
    return rc;
}
