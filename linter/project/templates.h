/* The templates a project usually has (templates.c), for the table model
 * of a configuration without `schemas:` (access_model, access.h). */
#ifndef KEYLINT_TEMPLATES_H
#define KEYLINT_TEMPLATES_H

#include "access.h"

/* The templates of `cfg`, from `cache` or found now (and added to it): the
 * configuration's directory and below; under the defaults, the directory
 * the files are under, then each directory above it up to the git work
 * tree until one has a template with tables (`abspaths`: the files'
 * canonical absolute paths, or NULL). Without a cache the list is in `a`. */
const StrList *templates_of(Arena *a, const Config *cfg, FileIR *const *files,
                            const Config *const *cfgs, const char *const *abspaths, size_t n,
                            TemplateCache *cache);
/* Add the tables, environment bindings and issues of the templates
 * `found` to m (each that has tables is listed in m->schema_files), and
 * their notes to `notes`; a template that cannot be read, or holds no
 * table, is skipped quietly: keylint found it, nobody named it. */
/* Whether `path` is named as a template discovery reads (template.yaml,
 * serverless.yml, *.tf, ...). */
bool template_name(const char *path);

void templates_read(Arena *a, const StrList *found, TableModel *m, Problems *notes,
                    TemplateCache *cache);

/* schema_load_file, through cache's memo when it is on (cache may be
 * NULL). */
bool templates_load(Arena *a, TemplateCache *cache, const char *path, const char *display,
                    TableSet *out, Problems *problems);
/* Drop the schema files kept (they are read again). */
void templates_forget(TemplateCache *cache);

#endif
