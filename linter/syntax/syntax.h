/* Syntax access: the one layer between tree-sitter and every pass that
 * reads a syntax tree (extraction, tables in code, tsconfig files).
 *
 * A SynTree is one parsed text: the tree, the text, and an index of the
 * tree built by a single cursor walk. Every accessor takes the SynTree and
 * treats what tree-sitter hands back anywhere as ordinary values:
 *
 *   - a null node has type "", empty text, no children, no parent, an
 *     empty span; asking for the child or field of a null node, or a child
 *     past the last one, gives a null node;
 *   - comments are not children: they are listed apart (syn_comments), so
 *     `f(/ * c * / x)` has one argument and an export clause holds only
 *     its specifiers;
 *   - a file that does not fully parse is read outside its errors: every
 *     ERROR or MISSING node poisons the smallest statement, declaration or
 *     class member holding it (or the ERROR node itself, when it sits
 *     directly in a block, the program or a class body); these unread
 *     regions are left out of the index, and no accessor ever returns a
 *     node inside one (as a child or a field it is a null node).
 *
 * Nothing here recurses over the tree: the index is built with a
 * TSTreeCursor and an explicit stack, so nesting depth costs memory, not
 * stack. Outside this file nothing calls tree-sitter's node API
 * (tests/layering_test.sh checks that). */
#ifndef KEYLINT_SYNTAX_H
#define KEYLINT_SYNTAX_H

#include <string.h>

#include <tree_sitter/api.h>

#include "common.h"

typedef struct SynTree SynTree;

/* A node of a SynTree: a value, copied freely; a null node is ordinary. */
typedef TSNode SynNode;

typedef enum SynLang {
    SYN_TYPESCRIPT, /* .ts .mts .cts, and JavaScript */
    SYN_TSX,        /* .tsx .jsx: JSX, and a bare `&` in JSX text read as text */
    SYN_HCL,        /* Terraform */
} SynLang;

/* A region of the text left unread because it holds a syntax error. */
typedef struct SynRegion {
    Span span;
} SynRegion;

/* Why syn_parse returned no tree. */
typedef enum SynFailure {
    SYN_NO_MEMORY, /* out of memory, or a text over 4 GiB */
    SYN_GAVE_UP,   /* the parser's work went past its budget: tree-sitter's
                    * error recovery can take minutes on a few hundred
                    * pathological bytes; no real file comes near it */
} SynFailure;

/* Parse `text` as `lang` and index the tree. Strings the accessors copy
 * (syn_text, syn_string_value, ...) go into `strings`; the index itself
 * lives until syn_free. With SYN_TSX a bare `&` in JSX text, which the
 * grammar rejects, is read as text. Returns NULL, with *why (when not
 * NULL) saying why, when tree-sitter gives no tree. */
SynTree *syn_parse(const char *text, size_t len, SynLang lang, Arena *strings,
                   SynFailure *why);
void syn_free(SynTree *t);

/* ---- incremental parsing (the language server) ---------------------------
 * A SynReuse keeps the tree of the last parse of one buffer; the edits
 * made to the buffer since are recorded on it, and the next parse through
 * it re-reads only what they touched (tree-sitter's incremental parsing).
 * The tree it gives is the one a parse from scratch gives. */

typedef struct SynReuse SynReuse;

/* One edit: bytes [start, old_end) of the old text became [start, new_end)
 * of the new one; rows and columns (in bytes) of the three places. */
typedef struct SynEdit {
    uint32_t start, old_end, new_end;
    uint32_t start_row, start_col, old_end_row, old_end_col, new_end_row, new_end_col;
} SynEdit;

/* The edit that replaces old[start, old_end) with `with[0, with_len)`. */
SynEdit syn_edit_of(const char *old, size_t old_len, size_t start, size_t old_end,
                    const char *with, size_t with_len);

SynReuse *syn_reuse_new(void);
void syn_reuse_free(SynReuse *r); /* NULL is fine */
/* Record an edit of the text last parsed (edits in the order made). */
void syn_reuse_edit(SynReuse *r, const SynEdit *e);
/* Forget the tree: the next parse reads the whole text. */
void syn_reuse_reset(SynReuse *r);
/* syn_parse, reusing `r`'s tree (when it has one of the same language)
 * and keeping the new one in `r`. `r` NULL: syn_parse. */
SynTree *syn_parse_reusing(const char *text, size_t len, SynLang lang, Arena *strings,
                           SynFailure *why, SynReuse *r);
/* syn_parse_reusing with the tree's own memory (its index) drawn from
 * `pool` (arena.h; NULL: from malloc), returned to it by syn_free. */
SynTree *syn_parse_pooled(const char *text, size_t len, SynLang lang, Arena *strings,
                          SynFailure *why, SynReuse *r, ArenaPool *pool);

SynNode syn_root(const SynTree *t);
const char *syn_source(const SynTree *t, size_t *len);

/* Named nodes of the tree in preorder, root first, comments and unread
 * regions left out. A subtree is a contiguous run: node i's subtree is
 * [i + 1, syn_end_of(t, i)). */
size_t syn_node_count(const SynTree *t);
SynNode syn_node_at(const SynTree *t, size_t i);
/* syn_type of node i, read once when the index is built ("" past the end):
 * the walks over every node dispatch on it. */
const char *syn_type_at(const SynTree *t, size_t i);
size_t syn_end_of(const SynTree *t, size_t i);
/* The position of a node in that array; false for a null node, an unnamed
 * node, a comment or a node inside an unread region. */
bool syn_pos(const SynTree *t, SynNode n, size_t *pos);
/* The named nodes strictly inside `n` as [*from, *to); false when `n` is
 * not in the index. */
bool syn_subtree(const SynTree *t, SynNode n, size_t *from, size_t *to);

/* Comments (`//`, block and HTML comments), in order, wherever they are. */
size_t syn_comment_count(const SynTree *t);
SynNode syn_comment_at(const SynTree *t, size_t i);

/* A hash of the text outside comments: two texts that differ only inside
 * comments hash alike (whitespace between tokens counts). What the
 * language server compares to tell a comment edit from a code edit. */
uint64_t syn_code_hash(const SynTree *t);

/* Unread regions, in order (none when the text parsed cleanly). */
size_t syn_region_count(const SynTree *t);
const SynRegion *syn_region_at(const SynTree *t, size_t i);

/* ---- nodes --------------------------------------------------------------- */

bool syn_null(SynNode n);
bool syn_eq(SynNode a, SynNode b);
const char *syn_type(SynNode n); /* "" for a null node */
bool syn_is(SynNode n, const char *type); /* false for a null node */
/* Is a syn_type (or syn_type_at) `type`? Most types differ at the first
 * character, which is compared before the call. */
static inline bool syn_type_is(const char *t, const char *type)
{
    return t[0] == type[0] && !strcmp(t, type);
}
bool syn_named(SynNode n);
uint32_t syn_start(SynNode n); /* byte offsets; 0 for a null node */
uint32_t syn_end(SynNode n);
Span syn_span(SynNode n);

/* Named children, comments and unread regions left out. */
uint32_t syn_count(const SynTree *t, SynNode n);
SynNode syn_child(const SynTree *t, SynNode n, uint32_t i);
/* Every child, tokens included (`get` of a getter, an operator). */
uint32_t syn_token_count(const SynTree *t, SynNode n);
SynNode syn_token(const SynTree *t, SynNode n, uint32_t i);
/* A child by field name (`name` a string literal: its id is cached by
 * pointer); null when the child is in an unread region. */
SynNode syn_field(const SynTree *t, SynNode n, const char *name);
/* Node types some of whose fields can hold a token (an operator, `const`,
 * `;`) rather than a named node: the index asks tree-sitter for the field
 * of a token only under these. The grammars' node-types.json agree
 * (tests/test_syntax.c checks it). */
bool syn_token_fields(const char *type);
/* For tests: compares, for every node of the index and every field of the
 * language, syn_field's answer from the index with tree-sitter's own;
 * returns the number that differ and sets *compared to the number of
 * answers the index gave. */
size_t syn_field_check(const SynTree *t, size_t *compared);
/* For tests: walks the whole tree with a cursor and compares, for every
 * node, the children the cursor visits with ts_node_child_count (which
 * the index's walk trusts); returns the number that differ and sets
 * *nodes to the number of nodes walked. */
size_t syn_child_count_check(const SynTree *t, size_t *nodes);
SynNode syn_parent(const SynTree *t, SynNode n);
/* The smallest named node that holds bytes [start, end) of the text; a
 * null node when that is a comment or inside an unread region. */
SynNode syn_node_for_range(const SynTree *t, uint32_t start, uint32_t end);

/* Whether text inserted at byte `off` would land inside a string, a
 * template (not in one of its `${...}` substitutions), a regular
 * expression, JSX text or a comment (strictly inside: not at its first or
 * after its last byte; but right after a `//` comment, which runs to the
 * end of its line, is inside it): where a suppression comment would
 * change a value or be no comment of its own. */
bool syn_inside_literal(const SynTree *t, uint32_t off);

/* ---- text ------------------------------------------------------------------ */

const char *syn_text(const SynTree *t, SynNode n); /* copy in the strings arena */
/* The same, cut after `max` bytes (on a character boundary) with "..."
 * for the rest: what shows an expression of any size in bounded space. */
const char *syn_text_max(const SynTree *t, SynNode n, size_t max);
bool syn_text_eq(const SynTree *t, SynNode n, const char *s);
/* The value of a string literal, or of a template literal without
 * substitutions, escapes decoded (a copy in the strings arena). */
bool syn_string_value(const SynTree *t, SynNode n, const char **out);
/* Decode the escape sequence at e[0..n) (e[0] is the backslash) into out. */
void syn_append_escape(char *out, size_t *o, const char *e, size_t n);

/* ---- TypeScript shapes -------------------------------------------------------- */

enum { SYN_MAX_UNWRAP = 48 };

/* Strip (parentheses), `as T`, `satisfies T`, `x!`, `<T>x`, `await x`; and
 * the member read the grammar makes of `x as A.B.C` (`(x as A.B).C`). */
SynNode syn_unwrap(const SynTree *t, SynNode n);
/* Function declarations and expressions, arrows, methods, generators. */
bool syn_is_function(SynNode n);
bool syn_is_function_type(const char *type); /* the same, of a syn_type */
/* The name of an object literal property (a pair or a shorthand): an
 * identifier, string or number key, or a computed key that is a string
 * literal. A computed key naming a constant (`[Keys.PK]`, `[PK_NAME]`) is
 * the caller's to settle: NULL is returned and *computed set to that
 * expression (it is null otherwise). */
const char *syn_prop_name(const SynTree *t, SynNode prop, SynNode *computed);
/* A property's value (the shorthand itself for `{ pk }`). */
SynNode syn_prop_value(const SynTree *t, SynNode prop);

#endif
