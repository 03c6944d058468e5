/* Resolution: project-wide. After every file is extracted, the segments of
 * each key are rewritten in place so that rules see through constants
 * (same file or imported over relative paths, `as const` objects, enum
 * members), application key helpers (inlined with their arguments) and
 * tenant values; and each data operation's table kind is settled. */
#ifndef KEYLINT_RESOLVE_H
#define KEYLINT_RESOLVE_H

#include "config.h"
#include "ir.h"

typedef struct ResolveFile {
    FileIR *ir;
    const char *abspath;  /* canonical absolute path, for module lookup */
    const Config *config;
} ResolveFile;

/* Everything written into a file's IR goes into that file's arena (strings
 * from other files are copied), so a file can be dropped and re-extracted
 * without leaving dangling pointers in the others once they are resolved
 * again. */
void resolve_project(ResolveFile *files, size_t n);

#endif
