/* Diagnostics: what rules emit and reporters print. */
#ifndef KEYLINT_DIAG_H
#define KEYLINT_DIAG_H

#include "common.h"

enum { FIX_MAX_NEEDS = 2 };

typedef struct FixNeed {
    const char *name, *module, *package, *exported;
} FixNeed;

typedef struct FixInsert {
    uint32_t at;
    const char *text;
} FixInsert;

/* A place that shows why a finding holds (the update that sets the
 * attribute, the table's definition) or where else it is seen (a key
 * helper's call sites): what text output prints as `note:` lines, JSON
 * as `related`, SARIF as `relatedLocations`, the language server as
 * `relatedInformation`. */
typedef struct DiagRelated {
    const char *path;    /* display path */
    Span span;
    const char *message; /* "the update that sets status" */
} DiagRelated;

/* A finding lists at most this many related places (the first ones added;
 * a helper's call sites beyond it are left out). */
enum { DIAG_MAX_RELATED = 8 };

typedef struct Diagnostic {
    const char *rule;    /* rule id, e.g. "magic-string" */
    Severity severity;   /* never SEV_OFF */
    const char *path;    /* display path, relative to the current directory */
    Span span;
    const char *message;
    const char *fix;     /* optional suggestion, NULL if none */
    /* Optional machine-applicable fix (editors offer it as a quick fix):
     * replace the source text of edit_span in this diagnostic's file,
     * which reads exactly edit_old, with edit_text (strings in the list's
     * arena). An applier checks edit_old against the text first and
     * offers nothing when it differs. has_edit is false when there is
     * none.
     *
     * A rule proposes the edit and says what its text names (`need`); the
     * project's fix proof (project/fixproof.h) then reads the file's
     * syntax tree and keeps the edit only when that name means, where it
     * is written, what the rule intends, and adds the import it needs
     * (`insert`). A kept edit is `unsafe` when it is right but not proven
     * to keep the program's behaviour (applied only when asked for). */
    bool has_edit;
    bool proven;            /* the fix proof has read it (kept or dropped) */
    bool unsafe;
    const char *unsafe_why; /* for `unsafe`: why, one phrase */
    Span edit_span;
    const char *edit_old;
    const char *edit_text;
    /* The identifiers edit_text writes (at most two: `${NAME}${SEP}`),
     * each with where it must come from: `module` (a display path of the
     * project; this file itself for one of its own module-level
     * constants) or `package` (a module specifier such as
     * "@mbc-cqrs-serverless/core"), which exports it as `exported`. An
     * unused entry has a NULL name. */
    FixNeed need[FIX_MAX_NEEDS];
    /* What the edit needs besides (the imports of the names it writes),
     * set by the fix proof: insert `text` at byte `at` of the file. A NULL
     * text when none. Never applied without the edit. */
    FixInsert insert[FIX_MAX_NEEDS];
    /* The evidence and other places of the finding (diag_relate), in the
     * list's arena; an error-level finding of a rule has at least one. */
    DiagRelated *related;
    size_t nrelated;
} Diagnostic;

/* The list owns every string it holds (its arena). */
typedef struct DiagList {
    Arena *arena;
    VEC(Diagnostic) items;
} DiagList;

void diag_init(DiagList *d);
void diag_free(DiagList *d);
Diagnostic *diag_add(DiagList *d, const char *rule, Severity sev,
                     const char *path, Span span, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Add a related place to `g` (a diagnostic of `d`): nothing when `g`
 * already lists that place with that message, or lists DIAG_MAX_RELATED.
 * `path` NULL: g's own file. */
void diag_relate(DiagList *d, Diagnostic *g, const char *path, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Append a copy of `s`: every field, its strings and related places in
 * `dst`'s arena. */
Diagnostic *diag_copy(DiagList *dst, const Diagnostic *s);
/* Append copies of every diagnostic of `src` (their related places too). */
void diag_append(DiagList *dst, const DiagList *src);
/* Sort by path, line, column, rule, message; drop exact duplicates
 * (same rule, path, position and message), the one kept taking the
 * related places of those dropped and the higher severity. */
void diag_sort(DiagList *d);

#endif
