/* The cache between runs on the command line (on by default; --no-cache,
 * --cache-dir):
 * which cache a run uses, and what it says at the end. */
#ifndef KEYLINT_CACHE_RUN_H
#define KEYLINT_CACHE_RUN_H

#include <stdio.h>

#include "cache.h"

/* The cache of a run on `paths` (none: the current directory): `dir`
 * (--cache-dir), else .keylint-cache/ in the project root of the first
 * path (project_root_of); NULL with `off` (--no-cache or KEYLINT_NO_CACHE
 * set and not empty). The cache is on by default: unless `asked`
 * (--cache) or `dir`, a path without a project (project_root_of: none)
 * has no cache, and a directory that cannot be made or written is no
 * note (cache_open_as); asked for, the path itself is the root. */
Cache *cache_run_open(const char *dir, bool off, bool asked, char *const *paths, size_t n);

/* Whether a run on `paths` reads the whole project the cache is of: one
 * path (or none) that is its root, and the cache is the root's own (no
 * `dir`: one given may be shared by several projects). Such a run prunes
 * the entries it did not use. */
bool cache_run_whole(const Cache *c, const char *dir, char *const *paths, size_t n);

/* After the run: prune when `whole`; the notes on `err` unless `quiet`;
 * with `stats`, one line of counts. Frees the cache. */
void cache_run_close(Cache *c, FILE *err, bool whole, bool quiet, bool stats);

/* What the options of a full run change in its analysis (the key of its
 * findings, cache_findings.h): the working directory (display paths),
 * --config, the pre-check, --require-reason, the --rule overrides
 * (`rules`, as the caller writes them) and the paths. Not the format,
 * the output or the exit options: the record is made before the report.
 * In `a`. */
char *cache_run_settings(Arena *a, const char *config, bool precheck, bool require_reason,
                         const char *rules, char *const *paths, size_t n);

#endif
