/* The findings of a whole run, kept beside the cache's entries (cache.h)
 * so that a run over an unchanged project neither decodes an entry nor
 * resolves, computes the facts or runs a rule: it lists its files, finds
 * the key of the run the same, and reports what the record holds.
 *
 * The record, `findings.pack` in the cache's directory, holds one run:
 * the diagnostics and the problems before any report is made of them
 * (so every format, baseline and exit code is made from them as from an
 * analysis), the number of files linted and what the summary counts.
 * Its key is a hash of:
 *   - keylint's version and the record's format;
 *   - `settings`: what the caller's options change in the analysis (the
 *     paths named, the rules selected, the pre-check...; not the format);
 *   - every file of the run, in order: its display and absolute paths,
 *     its configuration's path and the hash of its text (cache.h's, from
 *     its record when its stat vouches for it, else read now);
 *   - the text of each configuration the files have, and of each schema
 *     file a configuration names (or that it is missing);
 *   - the text of every file below the cache's root that discovery or
 *     resolution may read: templates (template_name), tsconfig*.json,
 *     package.json and configurations; and of those named so in each
 *     directory above the root.
 * Any difference: the record is not used, and the run is made whole.
 *
 * A binary record of our own: a header (what it is, its format,
 * keylint's version, the byte order), the key, the payload's length and
 * hash, then the payload; every read is checked against its end. A record
 * that is not one, damaged, or of another keylint is ignored with a note
 * and written again; it is written to a temporary file and renamed, so
 * concurrent runs read a whole record or none. */
#ifndef KEYLINT_CACHE_FINDINGS_H
#define KEYLINT_CACHE_FINDINGS_H

#include "cache.h"
#include "stats.h"

/* What a run reports, before the report. */
typedef struct FindingsRecord {
    DiagList *diags;     /* filled by cache_findings_load (strings in its arena) */
    Problems *problems;  /* added to by cache_findings_load */
    size_t linted;       /* project_linted_files */
    SeenCounts seen;
} FindingsRecord;

/* The record of the run over `p` (its files listed, none extracted)
 * under `settings` (see above) into `r`; false (r untouched) when there
 * is none, or it is of another key (a damaged one: with a note). */
bool cache_findings_load(Cache *c, const Project *p, const char *settings, FindingsRecord *r);

/* Keep `r` as the record of the run over `p` (its files extracted, with
 * the cache) under `settings` (a note when it cannot be written). */
void cache_findings_store(Cache *c, const Project *p, const char *settings,
                          const FindingsRecord *r);

#endif
