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
/* The name of an object literal property (a pair or a shorthand): an
 * identifier, string or number key, or a computed key that is a string
 * literal. A computed key naming a constant (`[Keys.PK]`, `[PK_NAME]`) is
 * the caller's to settle: NULL is returned and *computed set to that
 * expression (it is null otherwise). */
const char *syn_prop_name(const Source *src, TSNode prop, TSNode *computed);
/* A property's value (the shorthand itself for `{ pk }`). */
TSNode syn_prop_value(TSNode prop);
/* Decode the escape sequence at e[0..n) (e[0] is the backslash) into out. */
void syn_append_escape(char *out, size_t *o, const char *e, size_t n);

/* One file's tree, indexed by a single cursor walk: its named nodes in
 * preorder (the passes visit this array instead of walking the tree
 * again) and every node's parent (ts_node_parent walks down from the root
 * on every call in the 0.20 runtime). Lives in the given arena. */
typedef struct SyntaxIndex {
    const TSNode *nodes;  /* named nodes, preorder, root first */
    size_t n;
    struct SynParent *parents; /* open addressing by node id */
    size_t cap;
    /* field ids by name (names are literals: cached by pointer) */
    const TSLanguage *lang;
    struct { const char *name; TSFieldId id; } fields[64];
    size_t nfields;
} SyntaxIndex;

SyntaxIndex *syn_index(Arena *a, TSNode root, const TSLanguage *lang);
/* The named nodes strictly inside `root` (a node of the indexed tree), in
 * preorder, as a range [*from, *to) of ix->nodes: a subtree is contiguous
 * in preorder. Returns false when `root` is not in the index. */
bool syn_subtree(const SyntaxIndex *ix, TSNode root, size_t *from, size_t *to);
/* From node i of a subtree range, the index of the next node outside i's
 * own subtree: `i = syn_skip(ix, i, to)` steps over a nested function. */
size_t syn_skip(const SyntaxIndex *ix, size_t i, size_t to);

/* syn_field with the field id cached in the index (`name` a literal). */
TSNode syn_field_at(SyntaxIndex *ix, TSNode n, const char *name);
/* The parent of a node of the indexed tree (null for the root). */
TSNode syn_parent(const SyntaxIndex *ix, TSNode n);

#endif
