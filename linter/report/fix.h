/* Machine-applicable fixes: the edits rules attach to diagnostics
 * (Diagnostic.has_edit), checked against a file's text, made
 * non-overlapping, applied, and shown as a unified diff. One module for
 * the command line (--fix, --fix-dry-run), the JSON and SARIF reports and
 * the language server's quick fixes, so that all of them make the same
 * edit. */
#ifndef KEYLINT_FIX_H
#define KEYLINT_FIX_H

#include <stdio.h>

#include "diag.h"

/* Replace text[start, end) with `text`. */
typedef struct FixEdit {
    size_t start, end;
    const char *text;
    const Diagnostic *diag; /* the finding it fixes */
} FixEdit;

typedef VEC(FixEdit) FixEdits;

/* The edits of one finding: its edit and the imports it needs. */
enum { FIX_MAX_EDITS = 1 + FIX_MAX_NEEDS };

/* The edits of `d` against a text in which its edit span is [a, b):
 * none when `d` has no edit or the text there no longer reads
 * d->edit_old (the file changed since it was linted); else the edit and,
 * when `d` needs them, the insertions of its imports (Diagnostic.insert,
 * placed by the fix proof: only when the edit is still where it was). The
 * edits were proven on the file's syntax tree (project/fixproof.h);
 * `arena` is for strings the edits may need. Returns how many edits it
 * wrote to out (the edit first). */
size_t fix_resolve_at(Arena *arena, const char *text, size_t len, size_t a, size_t b,
                      const Diagnostic *d, FixEdit out[FIX_MAX_EDITS]);

/* The same, with the span's byte offsets taken as they are. */
size_t fix_resolve(Arena *arena, const char *text, size_t len, const Diagnostic *d,
                   FixEdit out[FIX_MAX_EDITS]);

/* Sort by position and drop every edit that overlaps one before it, and
 * exact duplicates (two findings may ask for the same edit, the same
 * import). The edits of one finding go together: when one of them is
 * dropped for an overlap, so are the others. */
void fix_plan(FixEdits *edits);

/* The text with the (planned) edits applied, malloc'd; its length in
 * *out_len. */
char *fix_apply(const char *text, size_t len, const FixEdit *e, size_t n, size_t *out_len);

/* A unified diff (3 lines of context) from `text` to the text the planned
 * edits make, with `path` as the file's name on both sides. */
void fix_diff(FILE *out, const char *path, const char *text, size_t len, const FixEdit *e,
              size_t n);

#endif
