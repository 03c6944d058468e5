#include "cache_run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

Cache *cache_run_open(const char *dir, bool off, bool asked, char *const *paths, size_t n)
{
    const char *env = getenv("KEYLINT_NO_CACHE");
    if (off || (env && env[0]))
        return NULL;
    Arena *a = arena_new();
    const char *first = n ? paths[0] : ".";
    const char *root = project_root_of(a, first);
    if (!root && !dir && !asked) {
        /* no project (the path is missing, or is /, the home or the
         * temporary directory): no cache unless one is asked for */
        arena_free(a);
        return NULL;
    }
    if (!root) {
        /* a path linted alone: its own directory */
        char *r = realpath(first, NULL);
        root = arena_strdup(a, r ? r : ".");
        free(r);
    }
    Cache *c = cache_open_as(dir ? dir : arena_printf(a, "%s/.keylint-cache", root), root,
                             asked || dir);
    arena_free(a);
    return c;
}

bool cache_run_whole(const Cache *c, const char *dir, char *const *paths, size_t n)
{
    if (!c || dir || n > 1)
        return false;
    char *real = realpath(n ? paths[0] : ".", NULL);
    bool whole = real && !strcmp(real, cache_root(c));
    free(real);
    return whole;
}

void cache_run_close(Cache *c, FILE *err, bool whole, bool quiet, bool stats)
{
    if (!c)
        return;
    cache_save(c, whole);
    if (!quiet)
        report_problems(err, cache_notes(c), true);
    if (stats && !cache_dir(c)) {
        fprintf(err, "keylint: cache: off (%s)\n",
                cache_unusable(c) ? cache_unusable(c) : "its directory cannot be made");
    } else if (stats) {
        CacheCounts k = cache_counts(c);
        fprintf(err,
                "keylint: cache: %zu hits (%zu files not read), %zu misses (%zu entries "
                "ignored), %zu written, %zu pruned%s\n",
                k.hits, k.unread, k.misses, k.ignored, k.written, k.pruned,
                k.findings ? "; the findings kept from the last run" : "");
    }
    cache_free(c);
}

char *cache_run_settings(Arena *a, const char *config, bool precheck, bool require_reason,
                         const char *rules, char *const *paths, size_t n)
{
    StrBuf sb;
    sb_init(&sb, a);
    char *cwd = getcwd(NULL, 0);
    sb_printf(&sb, "cwd %s\nconfig %s\nprecheck %d\nrequire-reason %d\nrules %s\n",
              cwd ? cwd : "?", config ? config : "-", precheck, require_reason, rules);
    free(cwd);
    for (size_t i = 0; i < n; i++) {
        sb_append(&sb, "path ");
        sb_append(&sb, paths[i]);
        sb_append(&sb, "\n");
    }
    return (char *)sb_str(&sb);
}
