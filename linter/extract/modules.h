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
 * resolution pass, and keeps its answers for the rest of it. What it
 * reads of the file system (each directory's tsconfig, the package.json
 * files above the project's files) is kept in a ModuleEnv, its own or
 * one the caller shares between maps (the language server's project keeps
 * one from one change of a tsconfig or package.json to the next, so that
 * an edit reads none of them). */
#ifndef KEYLINT_MODULES_H
#define KEYLINT_MODULES_H

#include <stddef.h>

typedef struct ModuleMap ModuleMap;
typedef struct ModuleEnv ModuleEnv;

ModuleEnv *modenv_new(void);
void modenv_free(ModuleEnv *e);

/* `abspaths[i]` is project file i (canonical absolute path). */
ModuleMap *modmap_new(const char *const *abspaths, size_t n);
/* The same, reading tsconfig and package.json files through `env` (NULL:
 * one of its own), which must outlive the map. */
ModuleMap *modmap_new_in(const char *const *abspaths, size_t n, ModuleEnv *env);
void modmap_free(ModuleMap *m);

/* The project file `spec` names when imported from file `from`, or -1. */
long modmap_resolve(ModuleMap *m, size_t from, const char *spec);

#endif
