/* What extraction leaves of a file (its FileIR, as fileir_copy compacts
 * it, with its FileTables), as JSON and back, for the cache between runs
 * (cache.h). Written with jansson.
 *
 * Paths: the IR names its file's display path in several places (the
 * IR's own, tables, environment bindings, schema issues); the JSON leaves
 * out every one equal to the IR's path, and reading puts the path given
 * (the file's display path in this run, which may differ from the run
 * that wrote it) in their place. Nothing resolution adds (`resolved`,
 * `keys`, `helper_uses`, the facts parts) is written: they must be
 * empty. */
#ifndef KEYLINT_CACHE_IR_H
#define KEYLINT_CACHE_IR_H

#include <jansson.h>

#include "ir.h"

/* The JSON of `ir` (a new reference). */
json_t *cache_ir_to_json(const FileIR *ir);

/* The IR `j` describes, in an arena of its own (fileir_free), with `path`
 * as its display path; NULL when `j` has not the shape cache_ir_to_json
 * writes (a value of the wrong type, an enumeration out of range, lists
 * nested too deep), with *why saying what (a static string). */
FileIR *cache_ir_from_json(const json_t *j, const char *path, const char **why);

#endif
