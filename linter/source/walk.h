/* From command-line paths to the list of source files, and reading them. */
#ifndef KEYLINT_WALK_H
#define KEYLINT_WALK_H

#include "common.h"

/* Source kinds: .ts .tsx .mts .cts .js .jsx .mjs .cjs, never *.d.ts. */
bool is_source_path(const char *path);
/* .tsx, .jsx and the JavaScript kinds (.js .mjs .cjs, which may hold JSX)
 * use the TSX grammar; .ts .mts .cts the TypeScript one. */
bool is_tsx_path(const char *path);

/* Expand `paths` (files or directories; none means ".") into a sorted,
 * de-duplicated list of display paths (relative to the current directory
 * when under it, as given otherwise), pushed into `out` (strings owned by
 * `arena`).
 *
 * Directories inside a git work tree list what git tracks or would track
 * (`git ls-files --cached --others --exclude-standard`); elsewhere every
 * file below, following symlinks that stay inside the directory named (a
 * link that leads out of it, to `/` or a sibling checkout, is not
 * followed), never the same directory twice.
 * `node_modules`, `.git`, `.terraform` and build output (dist, build, out,
 * coverage, cdk.out, .serverless, .aws-sam, .next) are skipped, as are non-source
 * kinds. A file named explicitly is listed whatever its kind.
 * A path that does not exist or cannot be read adds a Problem. */
void walk_paths(const char *const *paths, size_t npaths, Arena *arena,
                StrList *out, Problems *problems);

/* The files below the directory `dir` whose path (relative to `dir`, or
 * the name alone outside a git work tree) `want` accepts, found as
 * walk_paths finds source files in a directory (git's listing in a work
 * tree, the same folders skipped), as `dir`/path, sorted, pushed into `out`
 * (strings in `arena`). A directory that cannot be read is passed over. */
void walk_dir_files(const char *dir, bool (*want)(const char *path), Arena *arena,
                    StrList *out);

/* The git work trees below the directory `dir`, when `dir` is in none:
 * each directory under it (not `dir` itself) that holds a `.git` entry,
 * not looked into further, the folders walk_paths skips passed over,
 * symlinks not followed. Each is another project. Absolute paths, sorted,
 * pushed into `out` (strings in `arena`); none when `dir` is inside a
 * work tree (git lists its files; a repository nested in it is not). */
void walk_git_roots(const char *dir, Arena *arena, StrList *out);

/* Run argv (searched on PATH, no shell) with stdin and stderr on /dev/null
 * and capture stdout into `*out` (in `a`, NUL-terminated). Returns -1 when
 * the program could not be started, else its exit status (or 256 + signal
 * number when killed). How keylint asks git. */
int run_capture(Arena *a, char *const argv[], char **out, size_t *len);

/* Largest file keylint reads. */
#define KEYLINT_MAX_FILE_BYTES (8u * 1024u * 1024u)

/* Read a whole file. Returns a malloc'd, NUL-terminated buffer, or NULL
 * after adding one Problem naming the file: cannot be read (with the
 * errno text), is a directory, is binary (contains NUL bytes), is not
 * valid UTF-8 (with the line of the first bad byte), or is larger than
 * KEYLINT_MAX_FILE_BYTES. A UTF-8 byte-order mark is dropped, so that
 * line-1 columns are those an editor shows. */
char *read_source(const char *path, size_t *len, Problems *problems);
/* Why read_source returned NULL, for the counts of --stats. */
typedef enum SourceSkip {
    SKIP_NONE,        /* read */
    SKIP_UNREADABLE,  /* cannot open or read, a directory, not a regular file */
    SKIP_TOO_LARGE,   /* more than KEYLINT_MAX_FILE_BYTES */
    SKIP_BINARY,      /* holds a NUL byte */
    SKIP_NOT_UTF8,    /* not valid UTF-8 */
} SourceSkip;
/* read_source, saying in *why why it returned NULL (SKIP_NONE when not). */
char *read_source_why(const char *path, size_t *len, Problems *problems, SourceSkip *why);
/* The same, and the length of the byte-order mark dropped (0 or 3) in
 * *bom: what --fix writes back before the text. */
char *read_source_bom(const char *path, size_t *len, size_t *bom, Problems *problems);
/* The same for a file that must be a regular file (a schema): a FIFO, a
 * device or a socket is refused ("is a FIFO, not a regular file"), never
 * waited on nor read. */
char *read_regular_source(const char *path, size_t *len, Problems *problems);

/* True when `s[0..n)` is valid UTF-8; otherwise stores the offset of the
 * first invalid byte in *bad (if bad is not NULL). */
bool utf8_valid(const char *s, size_t n, size_t *bad);

#endif
