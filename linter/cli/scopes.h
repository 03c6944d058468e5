/* The projects of a run on named paths (files named, --changed): which
 * paths fall in which project, and which findings each reports. */
#ifndef KEYLINT_SCOPES_H
#define KEYLINT_SCOPES_H

#include "project.h"

/* The paths of a run that fall in one project: the files named in it,
 * the directories named (every file under them reported), and the files
 * reported. The first scope's project is the run's own (main's `p`); each
 * other one is a project of its own, analysed apart, whose findings and
 * problems scopes_merge adds to the run's. */
typedef struct Scope {
    const char *root;
    StrList files;
    StrList dirs;
    StrList check; /* the files reported, absolute paths */
    Project *p;
} Scope;

typedef struct Scopes {
    VEC(Scope) v;
} Scopes;

/* Whether `paths` name a file (something on disk that is not a
 * directory): the run is then on named paths. */
bool names_a_file(char *const *paths, size_t n);

/* The scope of `root`; a new one for NULL (a file outside any project,
 * linted alone). */
Scope *scope_of(Arena *a, Scopes *sc, const char *root);

/* Whether a finding of `q` is about what `s` reports: one of its files,
 * or anything under one of its directories (a changed configuration's
 * schema and access-pattern findings). The findings about a project's
 * configuration inputs are not reported for a source file named in it. */
bool scope_reports(const Project *q, const StrList *check, const StrList *dirs,
                   const char *path);

/* Turn changed files into what to lint: source files as they are; a
 * .keylint.yml, or a schema its configuration names, becomes the
 * directory of that configuration (the code that depends on it); anything
 * else is dropped. Strings in `a`. */
void changed_paths(Arena *a, const char *forced_config, char **in, size_t n, StrList *out);

#endif
