/* keylint --init: a starting .keylint.yml from what the project shows. */
#ifndef KEYLINT_INIT_H
#define KEYLINT_INIT_H

#include <stdio.h>

#include "project.h"

/* Write to `out` a commented .keylint.yml for the analysed project `p`:
 * the separator its keys use, the names its partition keys carry a tenant
 * in, the schema files found, the defaults of everything else (commented
 * out, to be edited). `dir` is where the file goes: schema paths are made
 * relative to it. */
void init_write_config(FILE *out, const Project *p, const char *dir);

/* --init [DIR]: write DIR/.keylint.yml (the current directory when no
 * path is given) from an analysis of DIR under the defaults, never over
 * an existing one; `config` (--config) is refused. The exit code: 0, or
 * 2 after a message on stderr. */
int init_run(const char *config, int npaths, char **paths);

#endif
