/* A project's files by path, and what module resolution read of the file
 * system (project.h): below project.c, which adds them, and defer.c and
 * fixproof.c, which project.c runs. */
#include <string.h>

#include "modules.h"
#include "project.h"

struct ModuleEnv *project_modenv(Project *p)
{
    if (!p->modenv)
        p->modenv = modenv_new();
    return p->modenv;
}

SourceFile *project_find_file(const Project *p, const char *path)
{
    size_t slot;
    if (!namemap_get(&p->file_slots, path, &slot))
        return NULL; /* every slot is indexed under both its paths */
    if (!p->files.v[slot].removed)
        return &p->files.v[slot];
    for (size_t i = 0; i < p->files.n; i++)
        if (!p->files.v[i].removed &&
            (!strcmp(p->files.v[i].path, path) || !strcmp(p->files.v[i].abspath, path)))
            return &p->files.v[i];
    return NULL;
}

const SourceFile *project_file(const Project *p, const char *path)
{
    return project_find_file(p, path);
}
