/* The files a run writes (-o, --report, --baseline-write) checked against
 * each other and against what the run reads, before anything is written:
 * an output that is an input would replace it. Files are compared by what
 * they are (device and inode, symbolic links followed), not by how they
 * are spelled. */
#ifndef KEYLINT_OUTPUTS_H
#define KEYLINT_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "project.h"

typedef struct Output {
    const char *option; /* "--output", "--report", "--baseline-write" */
    const char *path;
} Output;

typedef struct Outputs {
    Output v[16];
    size_t n;
} Outputs;

/* Before anything is read: no two outputs name one file, and no output
 * is `baseline` (the baseline read, or NULL), `config` (--config, or
 * NULL) or one of the paths given. False after a message on stderr (a
 * usage error). */
bool outputs_check_args(const Outputs *o, const char *baseline, const char *config,
                        const char *const *paths, size_t npaths);

/* Once the project's files are listed (and again once its templates are
 * found): no output is a file the project lints, a configuration file or
 * a schema file it reads. False after a message on stderr. */
bool outputs_check_project(const Outputs *o, const Project *p);

#endif
