/* The files the text pre-check set aside (precheck.h), and which of them a
 * run needs after all.
 *
 * A deferred file holds no key, data operation, key helper or table, but
 * what it defines may still be read:
 *   - through an import: resolution looks up the constants and helpers an
 *     extracted file imports, and access.c follows index-name constants by
 *     the module name of their import. An import is followed when a string
 *     of what extraction kept of the file (its IR, as the cache writes it)
 *     names the local name it binds: `import { now } from './clock'` is
 *     not, when `now()` is in no key, operation, constant, helper or
 *     table; an extracted file's re-exports always are;
 *   - by the project facts, which count every constant holding a text that
 *     some key writes inline (magic-string: "the constant X holds the same
 *     text", and the fix it offers only when one constant holds it);
 *   - by its calls, when they pass text to a helper whose data operations
 *     build keys from its parameters, or that hands a parameter on to such
 *     a helper.
 * Before an analysis, defer_extract_reached extracts every deferred file
 * an extracted file may reach one of these ways, round after round, until
 * none is left.
 *
 * The second and third ways are judged from the file's note, taken from
 * its text when it was read (defer_note):
 *   - a string literal that a module constant of the key design may hold
 *     (written after '=' or ':', outside any function, with a name, or an
 *     enclosing object's or enum's, that says key, type, prefix...: what
 *     facts_key_like_name accepts) and that is, whole, a text magic-string
 *     may look up: a key's inline text, an identifier token in it, or such
 *     a token and the character after it;
 *   - a call of a name that a helper building keys has (or an import of it
 *     under another name, or of a default export when such a helper is
 *     one).
 * A constant whose text is composed of pieces none of which is written
 * whole as such a literal (`'ORD' + 'ER#'`), in a file nothing imports, is
 * not seen; imports are followed exactly as resolution follows them. */
#ifndef KEYLINT_DEFER_H
#define KEYLINT_DEFER_H

#include <stddef.h>

#include "project.h"

/* What the rounds need of a deferred file's text, noted while it is read
 * (the text is not kept): the literals a constant of the key design may
 * hold, the names it calls. Owned by the SourceFile; defer_note_free. */
typedef struct DeferNote DeferNote;
DeferNote *defer_note(const char *text, size_t len);
void defer_note_free(DeferNote *note);
/* What a note holds, for the cache between runs (cache.h): the parts of
 * `note` (pointing into it), and a note made of such parts (copied). */
typedef struct DeferNoteParts {
    StrList lits, calls, imports, reexports;
    bool default_import;
} DeferNoteParts;
DeferNoteParts defer_note_parts(const DeferNote *note);
DeferNote *defer_note_from_parts(const DeferNoteParts *parts);

/* Extracts the files of `slots` (indexes into p->files), clearing their
 * `deferred` flag first is the caller's: project.c's extraction. */
typedef void (*DeferExtract)(Project *p, const size_t *slots, size_t n);

/* Extract, with `extract`, every deferred file of `p` that the extracted
 * files may need, until none is left. Does nothing unless p->precheck. */
void defer_extract_reached(Project *p, DeferExtract extract);
/* The same when only the files of `seed` (by slot) changed since the last
 * time every deferred file the others need was extracted (the language
 * server's edits): the first round reads only them (and every file
 * extracted since, the rounds after). NULL: every file, as above. */
void defer_extract_reached_from(Project *p, DeferExtract extract, const bool *seed);

#endif
