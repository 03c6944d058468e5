/* Module resolution: which project file an import names.
 *
 *   './keys', '../shared/keys.js'   relative paths (TypeScript's extension
 *                                   rules: .ts for .js, index files)
 *   '@keys/prefixes'                tsconfig.json `paths` (with `baseUrl` and
 *                                   `extends`), from the nearest tsconfig
 *   '@acme/shared', '@acme/shared/x' workspace packages: a package.json with
 *                                   that name in an ancestor directory of a
 *                                   project file; its source entry
 *
 * A ModuleMap owns what it caches (it reads the caller's list of paths,
 * which must outlive it); one is built per
 * resolution pass, and keeps its answers for the rest of it. */
#ifndef KEYLINT_MODULES_H
#define KEYLINT_MODULES_H

#include <stddef.h>

typedef struct ModuleMap ModuleMap;

/* `abspaths[i]` is project file i (canonical absolute path). */
ModuleMap *modmap_new(const char *const *abspaths, size_t n);
void modmap_free(ModuleMap *m);

/* The project file `spec` names when imported from file `from`, or -1. */
long modmap_resolve(ModuleMap *m, size_t from, const char *spec);

#endif
