/* scan: a Scan in application code (design.md, access-pattern rules; seed
 * 001: "Poor key design forces expensive scans"). A scan reads every item
 * of the table. Files under the configuration's scan-allowed globs
 * (migrations, seed scripts by default) and test code are not judged; nor
 * are ScanIndexForward (a Query option), references to ScanCommand that
 * construct nothing (`ddbMock.on(ScanCommand)`), or a file's own class
 * named ScanCommand (a test double). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "access.h"
#include "rule.h"
#include "tables.h"

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

static void check(const RuleContext *ctx)
{
    const FileIR *f = ctx->file;
    if (!f || f->parse_failed || test_path(f->path))
        return;
    Arena *a = arena_new();
    bool is_allowed =
        ctx->config && config_path_matches(ctx->config, &ctx->config->scan_allowed, f->path);
    for (size_t i = 0; i < f->ops.n && !is_allowed; i++) {
        const DataOp *op = &f->ops.v[i];
        if (op->kind != OP_SCAN || double_receiver(op->callee))
            continue;
        if (f->tables && strlist_has(&f->tables->local_commands, op->callee))
            continue;
        rule_report(ctx, op->span,
                    "%s scans the whole table: it reads (and pays for) every item of every "
                    "partition, and gets slower as the table grows; query a key or an index "
                    "instead, or list this path under scan-allowed if the scan is meant (a "
                    "migration, a seed script)",
                    op->callee);
    }
    arena_free(a);
}

const RuleDesc rule_scan = {
    .id = "scan",
    .summary = "a Scan in application code (scan-allowed paths excepted)",
    .default_severity = SEV_WARNING,
    .check = check,
};
