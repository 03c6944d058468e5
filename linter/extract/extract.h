/* Extraction: one file's syntax tree to its IR (ir.h). Depends on nothing
 * but the file and its configuration, so files can be extracted in
 * parallel. */
#ifndef KEYLINT_EXTRACT_H
#define KEYLINT_EXTRACT_H

#include "config.h"
#include "ir.h"

/* Parse `text` (TSX grammar for .tsx/.jsx, TypeScript otherwise) and
 * extract its IR. Never NULL. A file with syntax errors gets one Problem
 * (with the first error's position), parse_failed set and an empty IR.
 * The FileIR owns its arena; free with fileir_free(). */
FileIR *extract_file(const char *path, const char *text, size_t len,
                     const Config *cfg, Problems *problems);
/* The same, parsing through `reuse` (syntax.h: an editor's buffer, whose
 * last tree and edits since make the parse incremental); NULL: as
 * extract_file. */
struct SynReuse;
FileIR *extract_file_reusing(const char *path, const char *text, size_t len,
                             const Config *cfg, Problems *problems, struct SynReuse *reuse);
/* The same, with the working memory of the extraction (syntax index,
 * scratch, the IR before keep() copies it out) drawn from `pool`, one
 * thread's (arena.h); the IR returned draws on nothing of it.
 * `compact`: the IR is copied out of the arena extraction built it in,
 * into one just its size (what a run holding every file's IR wants);
 * false keeps it where extraction left it, beside what extraction read
 * and dropped (an editor's buffer, extracted again at every edit: the
 * copy would cost more than the memory it saves). */
FileIR *extract_file_pooled(const char *path, const char *text, size_t len, const Config *cfg,
                            Problems *problems, struct SynReuse *reuse, ArenaPool *pool,
                            bool compact);
void fileir_free(FileIR *ir);

/* A hash of every setting of `cfg` extraction (and the pre-check) reads:
 * the separator, the configured key attribute names, the wrappers. Two
 * configurations with the same hash extract any text alike (the cache
 * between runs keys its entries by it). A setting extraction starts to
 * read is added here. */
uint64_t extract_config_hash(const Config *cfg);


#endif
