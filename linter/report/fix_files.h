/* --fix and --fix-dry-run on disk: a file read as it was linted (its
 * byte-order mark set apart), its planned edits applied and the file
 * replaced as git replaces files (core/files.h), or shown as a diff that
 * `git apply` and `patch -p1` apply to make exactly that file. */
#ifndef KEYLINT_FIX_FILES_H
#define KEYLINT_FIX_FILES_H

#include <stdio.h>

#include "fix.h"

/* The text of `path` as it was linted (read_source: the byte-order mark
 * dropped, so that the findings' offsets hold) and the length of that
 * mark (0 or 3), which is written back. NULL after a problem naming the
 * file. malloc'd. */
char *fix_read(const char *path, size_t *len, size_t *bom, Problems *problems);

/* The name of `path` in a diff's headers: relative to the root of the
 * git work tree that holds it (`git apply` run there, or `patch -p1`,
 * finds it), else relative to the current directory. In `a`. */
const char *fix_diff_name(Arena *a, const char *path);

/* Apply the planned edits e[0..n) (offsets in text[0..len), the text
 * fix_read gave, behind a `bom`-byte mark) to the file at `path`: `dry`,
 * print the diff on `out`; else replace the file. A file that cannot be
 * replaced without changing its owner, mode or links, or that is
 * read-only, is left as it is (also by the dry run, which shows no diff
 * for it): false after a problem "not rewritten: <why>". */
bool fix_write(FILE *out, const char *path, const char *text, size_t len, size_t bom,
               const FixEdit *e, size_t n, bool dry, Problems *problems);

#endif
