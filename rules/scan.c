/* scan: a Scan in application code (design.md, access-pattern rules; the
 * DynamoDB Key Design practice: "Poor key design forces expensive scans"). A scan reads every item
 * of the table. Files under the configuration's scan-allowed globs
 * (migrations, seed scripts by default) and test code are not judged; nor
 * are ScanIndexForward (a Query option), references to ScanCommand that
 * construct nothing (`ddbMock.on(ScanCommand)`), a file's own class
 * named ScanCommand (a test double), or a scan inside a function whose
 * name says it truncates, seeds, migrates or exports the table
 * (`truncateTable`, `purgeAll`, `seedData`): reading every item is that
 * function's job. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "rule.h"

/* Test code and test doubles, whatever the ignore list says. */
static bool test_path(const char *path)
{
    static const char *const dirs[] = {"test", "tests", "__tests__", "__mocks__", "mocks",
                                       "e2e", "spec", NULL};
    static const char *const marks[] = {".test.", ".spec.", ".mock.", ".fake.", ".stub.",
                                        NULL};
    for (const char *const *m = marks; *m; m++)
        if (strstr(path, *m))
            return true;
    for (const char *const *d = dirs; *d; d++) {
        size_t l = strlen(*d);
        for (const char *p = path; (p = strstr(p, *d)); p += l)
            if ((p == path || p[-1] == '/') && p[l] == '/')
                return true;
    }
    return false;
}

static bool double_receiver(const char *callee)
{
    static const char *const words[] = {"mock", "fake", "stub", "spy", NULL};
    for (const char *const *w = words; *w; w++)
        if (callee && strcasestr(callee, *w))
            return true;
    return false;
}

/* A function whose job is to read every item: its name starts with (or,
 * after a lower-to-upper turn, has as a word) one of these verbs. */
static bool whole_table_job(const char *fn)
{
    static const char *const verbs[] = {"truncate", "purge",    "wipe",   "seed",
                                        "migrate",  "migration", "backfill", "export",
                                        "dump",     "backup",   "reindex", NULL};
    if (!fn)
        return false;
    const char *dot = strrchr(fn, '.');
    const char *name = dot ? dot + 1 : fn;
    for (const char *const *v = verbs; *v; v++) {
        size_t l = strlen(*v);
        for (const char *p = name; *p; p++) {
            bool word_start = p == name || p[-1] == '_' ||
                              (isupper((unsigned char)*p) && islower((unsigned char)p[-1]));
            if (word_start && !strncasecmp(p, *v, l) &&
                !islower((unsigned char)p[l]))
                return true;
        }
    }
    return false;
}

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || test_path(f->path))
        return;
    int allowed = -1; /* the file is under scan-allowed: asked at its first scan */
    for (size_t i = 0; i < f->ops.n; i++) {
        const DataOp *op = &f->ops.v[i];
        if (op->kind != OP_SCAN || double_receiver(op->callee) || whole_table_job(op->function))
            continue;
        if (strlist_has(&f->local_commands, op->callee))
            continue;
        if (allowed < 0)
            allowed = ctx->config &&
                      config_path_matches(ctx->config, &ctx->config->scan_allowed, f->path);
        if (allowed)
            return;
        rule_report(ctx, op->span,
                    "%s scans the whole table: it reads (and pays for) every item of every "
                    "partition, and gets slower as the table grows; query a key or an index "
                    "instead, or list this path under scan-allowed if the scan is meant (a "
                    "migration, a seed script)",
                    op->callee);
    }
}

const RuleDesc rule_scan = {
    .id = "scan",
    .summary = "a Scan in application code (scan-allowed paths excepted)",
    .default_severity = SEV_WARNING,
    .check = check,
};
