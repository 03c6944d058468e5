/* keylint: the command line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpir.h"
#include "project.h"
#include "report.h"
#include "rule.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: keylint [options] [paths...]\n"
    "\n"
    "Checks how a TypeScript/JavaScript service builds and queries DynamoDB\n"
    "keys. Paths are files or directories (default: the current directory);\n"
    "directories in a git work tree list the files git tracks or would track.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE     use FILE instead of the nearest .keylint.yml\n"
    "  -f, --format FORMAT   text (default: finding, source line, caret) or\n"
    "                        concise (one line per finding)\n"
    "      --fail-on LEVEL   exit 1 on findings at this level or above:\n"
    "                        error (default) or warning\n"
    "      --color WHEN      auto (default: on a terminal, unless NO_COLOR is\n"
    "                        set), always or never\n"
    "      --list-rules      list the rules with their default severity\n"
    "      --explain RULE    print a rule's documentation\n"
    "      --dump-ir FILE    print what extraction saw in FILE: each key with\n"
    "                        its role, origin and segments, each data operation\n"
    "                        (the other paths give the project context)\n"
    "  -h, --help            print this help\n"
    "  -V, --version         print the version\n"
    "\n"
    "exit codes: 0 no finding at the failing level, 1 findings at that level,\n"
    "2 usage, configuration or input errors (unreadable, binary, non-UTF-8\n"
    "or unparsable files; the rest is still linted).\n";

static void print_problems(const Problems *pr)
{
    for (size_t i = 0; i < pr->items.n; i++) {
        const Problem *p = &pr->items.v[i];
        if (p->line)
            fprintf(stderr, "%s:%u:%u: error: %s\n", p->path, p->line, p->col, p->message);
        else if (p->path[0])
            fprintf(stderr, "%s: error: %s\n", p->path, p->message);
        else
            fprintf(stderr, "keylint: error: %s\n", p->message);
    }
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
        fprintf(stderr, "keylint: error: unknown rule '%s' (see --list-rules)\n", id);
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

int main(int argc, char **argv)
{
    enum { OPT_LIST = 256, OPT_EXPLAIN, OPT_DUMP, OPT_FAIL_ON, OPT_COLOR };
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"color", required_argument, NULL, OPT_COLOR},
        {"list-rules", no_argument, NULL, OPT_LIST},
        {"explain", required_argument, NULL, OPT_EXPLAIN},
        {"dump-ir", required_argument, NULL, OPT_DUMP},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *config = NULL, *dump = NULL, *color = "auto";
    ReportOptions ro = {.format = REPORT_TEXT};
    Severity fail_on = SEV_ERROR;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":c:f:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            config = optarg;
            break;
        case 'f':
            if (!strcmp(optarg, "text"))
                ro.format = REPORT_TEXT;
            else if (!strcmp(optarg, "concise"))
                ro.format = REPORT_CONCISE;
            else {
                fprintf(stderr, "keylint: error: unknown format '%s' (text or concise)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_FAIL_ON:
            if (!severity_parse(optarg, &fail_on) || fail_on == SEV_OFF) {
                fprintf(stderr, "keylint: error: --fail-on takes error or warning, not '%s'\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                fprintf(stderr, "keylint: error: --color takes auto, always or never\n");
                return EXIT_USAGE;
            }
            color = optarg;
            break;
        case OPT_LIST:
            return list_rules();
        case OPT_EXPLAIN:
            return explain(optarg);
        case OPT_DUMP:
            dump = optarg;
            break;
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
    ro.color = !strcmp(color, "always") || (!strcmp(color, "auto") && report_want_color(stdout));

    Project *p = project_new(config);
    project_add_paths(p, (const char *const *)argv + optind, (size_t)(argc - optind));
    if (dump) {
        const char *one[] = {dump};
        if (!project_file(p, dump))
            project_add_paths(p, one, 1);
    }
    project_analyze(p);

    int rc = EXIT_CLEAN;
    if (dump) {
        const SourceFile *f = project_file(p, dump);
        if (f && f->ir)
            dump_ir(stdout, f->ir);
        else if (!f || !f->problems.items.n)
            fprintf(stderr, "keylint: error: %s was not linted (ignored by configuration?)\n",
                    dump);
    } else {
        report_text(stdout, &p->diags, &ro, lookup_source, p);
        report_summary(stdout, &p->diags, project_linted_files(p), &ro);
        for (size_t i = 0; i < p->diags.items.n; i++)
            if (p->diags.items.v[i].severity >= fail_on)
                rc = EXIT_FINDINGS;
    }
    Problems problems;
    problems_init(&problems);
    project_problems(p, &problems);
    print_problems(&problems);
    if (problems.items.n)
        rc = EXIT_USAGE;
    problems_free(&problems);
    project_free(p);
    return rc;
}
