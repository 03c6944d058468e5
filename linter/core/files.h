/* Files written as git writes them, and what a file is.
 *
 * Every file keylint writes (a fixed source file, a report, a baseline, a
 * new .keylint.yml) is written to a temporary file in the same directory,
 * flushed to disk, and renamed over the target, so that a reader sees the
 * old file or the new one, never half of one. A file that exists keeps its
 * permissions, owner and group; a symbolic link is followed and the file
 * it leads to is replaced, never the link. A file that cannot be replaced
 * that way without changing something about it is refused, with a reason,
 * and left as it is:
 *
 *   - read-only: the mode bits do not let the user write it (as root: the
 *     file has no write bit at all, `chmod a-w`);
 *   - more than one hard link: a new file would split the links;
 *   - owned by another user, or by a group the user is not in, and the
 *     user is not root: a new file would change its owner or group.
 *
 * A target that exists and is not a regular file (/dev/stdout, a pipe) is
 * written directly. */
#ifndef KEYLINT_FILES_H
#define KEYLINT_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "arena.h"

typedef struct ReplaceFile {
    FILE *f;
    const char *path;    /* as given */
    const char *target;  /* the file replaced: `path`, or where its links lead */
    const char *tmp;     /* NULL when written directly */
    const char *refused; /* replace_open refused: why (then errno is 0) */
    int err;             /* the errno of the last failure, 0 for none */
    /* Set after replace_open: no fsync of the file nor of its directory
     * (a cache between runs: a crash may lose an entry, or leave none
     * whole, and the next run reads it as missing; never half of one). */
    bool no_sync;
} ReplaceFile;

/* Open a replacement for `path`: strings live in `a`. False when it
 * cannot be written (r->err) or is refused (r->refused); the target is
 * untouched then. */
bool replace_open(ReplaceFile *r, const char *path, Arena *a);
/* Why replace_open would refuse `path` now, or NULL (for a dry run). */
const char *replace_refused(const char *path, Arena *a);
/* Flush to disk, close, then rename into place; false (r->err set, the
 * target untouched and the temporary file removed) if anything failed.
 * `ok` false: the caller's write already failed; the temporary file is
 * removed. */
bool replace_commit(ReplaceFile *r, bool ok);
/* What went wrong, for a message: the refusal ("the file is read-only")
 * or the system's text for r->err. */
const char *replace_error(const ReplaceFile *r);

/* Replace `path` with text[0..len) as above; on failure *why is the
 * reason (static or in `a`). */
bool file_replace(const char *path, const char *text, size_t len, Arena *a, const char **why);

/* The identity of an existing file, following symbolic links. */
typedef struct FileId {
    dev_t dev;
    ino_t ino;
} FileId;

bool file_id(const char *path, FileId *id);
bool file_id_eq(FileId a, FileId b);

/* Why `path` cannot be read as a configuration or schema file ("is a
 * FIFO, not a regular file"), or NULL when it is a regular file or does
 * not exist. Never opens it. */
const char *file_not_regular(const char *path);

/* How file_read went. */
typedef enum FileReadStatus {
    FILE_READ_OK,
    FILE_READ_OPEN,        /* cannot open: err */
    FILE_READ_IO,          /* cannot read: err */
    FILE_READ_DIR,         /* a directory */
    FILE_READ_NOT_REGULAR, /* a FIFO, a device, a socket (regular_only) */
    FILE_READ_TOO_LARGE,   /* more than `max` bytes */
} FileReadStatus;

typedef struct FileRead {
    FileReadStatus status;
    int err;          /* errno, for OPEN and IO */
    const char *what; /* DIR and NOT_REGULAR: "is a FIFO, not a regular file" */
} FileRead;

/* Read a whole file of at most `max` bytes, malloc'd and NUL-terminated
 * (*len bytes); NULL on failure, with *how saying why. A file that grows
 * is read up to max + 1 bytes and refused: nothing reads without bound
 * (/dev/zero). `regular_only`: anything but a regular file is refused
 * without reading it, and a FIFO is never waited on (for configuration
 * and schema files); otherwise pipes and devices are read to their end
 * (standard input, a process substitution). */
char *file_read(const char *path, size_t max, bool regular_only, size_t *len, FileRead *how);

/* The git work tree holding the directory `dir` (absolute): the nearest
 * directory at or above it with a `.git` entry, in `a`; NULL outside one. */
const char *git_work_tree(Arena *a, const char *dir);

/* A path as keylint shows it: relative to the working directory when
 * `abspath` is under it, else as given ("" for NULL); in `a`. */
const char *file_display_path(Arena *a, const char *abspath);

#endif
