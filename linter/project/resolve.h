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

/* A file's `keys` are rebuilt afresh from its `extracted` keys into the
 * file's `resolved` arena (the previous one is freed; strings from other
 * files are copied), so resolving again after any file changed is correct
 * and does not grow memory, and a file can be replaced without leaving
 * dangling pointers in the others once they are resolved again. */
void resolve_project(ResolveFile *files, size_t n);
/* The same for files[0, nresolve) only; the others are there for lookups
 * (their constants and helpers) and are left as they are. */
void resolve_project_some(ResolveFile *files, size_t n, size_t nresolve);
/* The same, module resolution reading tsconfig and package.json files
 * through `env` (modules.h; NULL: afresh). */
struct ModuleEnv;
void resolve_project_in(ResolveFile *files, size_t n, size_t nresolve, struct ModuleEnv *env);

/* A helper's own key is judged only when the project uses the helper in a
 * key (a function that formats a Redis or S3 key looks the same): drop
 * from the keys of `files` (just resolved) those of helpers that no file
 * of `all` (every analysable file, `files` among them) uses. */
void resolve_drop_unused_helpers(ResolveFile *files, size_t n, FileIR *const *all, size_t nall);

#endif
