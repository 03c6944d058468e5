/* Baselines: today's findings recorded in a file, so that only new ones
 * are reported (and fail the build) from then on.
 *
 * The file is JSON, written with jansson:
 *
 *   { "version": 1, "tool": "keylint",
 *     "entries": [ { "fingerprint": "<16 hex digits>", "rule": "magic-string",
 *                    "path": "src/a.ts", "code": "<the flagged line>",
 *                    "count": 2 }, ... ] }
 *
 * An entry is keyed by the fingerprint key of a finding (Finding.key: rule,
 * repository-relative path and the whitespace-normalised flagged line, no
 * line number), so edits elsewhere in a file do not bring its findings
 * back; `count` is how many findings with that key it absorbs. rule, path
 * and code are there for people reading the file (and reviewing its diff);
 * only the fingerprint and count are read back. */
#ifndef KEYLINT_BASELINE_H
#define KEYLINT_BASELINE_H

#include "fingerprint.h"

#define BASELINE_VERSION 1

typedef struct Baseline Baseline;

/* Read a baseline. On any error (cannot be read, not JSON, not a keylint
 * baseline, another version, a bad entry) adds one Problem naming the file
 * (and the line and column for JSON syntax errors) and returns NULL. */
Baseline *baseline_load(const char *path, Problems *problems);
void baseline_free(Baseline *b);

/* Number of findings the baseline holds (the sum of its counts). */
size_t baseline_size(const Baseline *b);

/* For each finding in list order: when the baseline has its key with
 * count left, absorb it (keep[i] = false, count decremented); otherwise
 * keep[i] = true. Returns the number absorbed. Consumes the counts: call
 * once per baseline. */
size_t baseline_filter(Baseline *b, const FindingList *f, bool *keep);

/* After baseline_filter: how many recorded findings no finding used (the
 * counts left), the entries that are stale. */
size_t baseline_stale(const Baseline *b);

/* Write every finding of `f` as a baseline to `path` (atomically: a
 * temporary file in the same directory, then rename). Returns false after
 * adding a Problem naming the file. */
bool baseline_write(const char *path, const FindingList *f, Problems *problems);

#endif
