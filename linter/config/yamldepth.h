/* A nesting limit for every YAML file keylint reads (configuration,
 * schemas): libyaml's document loader takes time quadratic in the depth
 * of nesting (100 KB of `[[[[...` takes half a minute), so the depth is
 * checked first, by a pass over libyaml's events that stops at the first
 * collection too deep. */
#ifndef KEYLINT_YAMLDEPTH_H
#define KEYLINT_YAMLDEPTH_H

#include <stdbool.h>
#include <stddef.h>

/* The deepest nesting of mappings and sequences read: far above any
 * configuration or template (CloudFormation's deepest are about 15). */
enum { YAML_MAX_DEPTH = 128 };

/* Whether buf[0..len) nests mappings and sequences at most YAML_MAX_DEPTH
 * deep. When it does not, the 1-based line and column (libyaml's: in
 * characters) of the first collection too deep. A syntax error ends the
 * check with true: the load that follows reports it. Linear: reads the
 * text once, up to where it stops. */
bool yaml_depth_ok(const char *buf, size_t len, size_t *line, size_t *col);

#endif
