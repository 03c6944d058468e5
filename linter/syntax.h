/* Reading tree-sitter nodes of one source text. */
#ifndef KEYLINT_SYNTAX_H
#define KEYLINT_SYNTAX_H

#include <tree_sitter/api.h>

#include "common.h"

/* The text a tree was parsed from, and the arena strings are copied into. */
typedef struct Source {
    const char *text;
    size_t len;
    Arena *arena;
} Source;

enum { SYN_MAX_UNWRAP = 48 };

bool syn_is(TSNode n, const char *type); /* false for a null node */
TSNode syn_field(TSNode n, const char *name);
Span syn_span(TSNode n);
const char *syn_text(const Source *src, TSNode n); /* arena copy */
bool syn_text_eq(const Source *src, TSNode n, const char *s);
/* Strip (parentheses), `as T`, `satisfies T`, `x!`, `<T>x`, `await x`. */
TSNode syn_unwrap(TSNode n);
/* Function declarations and expressions, arrows, methods, generators. */
bool syn_is_function(TSNode n);
/* The value of a string literal, or of a template literal without
 * substitutions, escapes decoded (arena copy). */
bool syn_string_value(const Source *src, TSNode n, const char **out);
/* Decode the escape sequence at e[0..n) (e[0] is the backslash) into out. */
void syn_append_escape(char *out, size_t *o, const char *e, size_t n);

#endif
