/* --print-config: the effective configuration for one file. */
#ifndef KEYLINT_CONFIG_PRINT_H
#define KEYLINT_CONFIG_PRINT_H

#include <stdio.h>

#include "config.h"

/* Print `c`, the configuration that applies to `for_path`, as JSON: every
 * setting with its value after defaults, and every rule with the severity
 * it runs at (command-line --rule overrides included). */
bool config_print(FILE *out, const Config *c, const char *for_path);

#endif
