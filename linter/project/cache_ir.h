/* What extraction leaves of a file (its FileIR, as fileir_copy compacts
 * it, with its FileTables), in the cache's binary encoding (cache_bin.h)
 * and back, for the cache between runs (cache.h): written straight into
 * the entry, read back with every read checked against the entry's end
 * and every enumeration against its range.
 *
 * Paths: the IR names its file's display path in several places (the
 * IR's own, tables, environment bindings, schema issues); the entry
 * leaves out every one equal to the IR's path, and reading puts the path
 * given (the file's display path in this run, which may differ from the
 * run that wrote it) in their place. Nothing resolution adds (`resolved`,
 * `keys`, `helper_uses`, the facts parts) is written: they must be
 * empty. */
#ifndef KEYLINT_CACHE_IR_H
#define KEYLINT_CACHE_IR_H

#include "cache_bin.h"
#include "ir.h"

/* `ir` appended to `o`. */
void cache_ir_put(BinOut *o, const FileIR *ir);

/* Each string `ir` holds, handed to `seen` in the order cache_ir_put
 * writes them, but the names and sources of its imports (ir->imports):
 * every name the file's code may look up, since what extraction keeps of
 * a file is what the cache keeps (defer.c follows an import only when one
 * of these strings names it). */
void cache_ir_each_str(const FileIR *ir, void (*seen)(void *ctx, const char *s), void *ctx);

/* The IR read from `in`, in an arena of its own (fileir_free), with
 * `path` as its display path; NULL when it is not what cache_ir_put
 * writes (cut short, a value out of range, lists nested too deep), with
 * *why saying what (a static string). `in` is left after the IR. */
FileIR *cache_ir_get(BinIn *in, const char *path, const char **why);

#endif
