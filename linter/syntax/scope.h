/* Where names are bound in one file: an index of the declarations,
 * assignment statements and parameters of every block, switch case,
 * function and the program, built by one pass over the syntax index, so
 * that finding what a name holds where it is used costs a hash lookup per
 * enclosing scope, never a scan of the statements before it.
 *
 * What binds a name `x` (an identifier, possibly parenthesised or cast):
 *   - a declarator of a `const`/`let`/`var` declaration (exported or not)
 *     that is a statement of a block, a switch case or the program;
 *   - an assignment statement `x = value;` there (optionally counted);
 *   - a parameter of a function (`x`, `x = default`, `x: T`).
 * The index and every node it hands out live as long as the SynTree and
 * the arena it was built in. A lookup costs the fewer of the scopes that
 * enclose the use and the scopes that bind the name (one step for a
 * module constant used in functions nested n deep, not n). */
#ifndef KEYLINT_SCOPE_H
#define KEYLINT_SCOPE_H

#include "syntax.h"

typedef struct Scopes Scopes;

Scopes *scopes_build(const SynTree *t, Arena *a);

enum {
    SCOPE_MODULE = 1u << 0,        /* look at the program's statements too */
    SCOPE_MODULE_ANYWHERE = 1u << 1, /* ... also those after the use */
    SCOPE_ASSIGNMENTS = 1u << 2,   /* `x = value;` statements bind x */
    SCOPE_PATTERNS = 1u << 3,      /* `const { x, y: z } = value` binds x
                                    * and z (value: the whole initializer,
                                    * decl: the declarator) */
};

typedef struct ScopeHit {
    bool found;
    bool param;    /* a parameter of an enclosing function */
    SynNode value; /* what it was last given before the use; null for a
                    * parameter or a declaration without a value */
    SynNode decl;  /* the declarator or the assignment; a parameter's node
                    * (`ts: number`, `{ id }: Dto`), null for an arrow's one */
} ScopeHit;

/* The binding of `name` that `use` sees: in the innermost enclosing
 * block (or switch case, or with SCOPE_MODULE the program) that binds it,
 * the last binding among the statements that start before `use`; or a
 * parameter of an enclosing function, whichever is nearer. */
ScopeHit scopes_lookup(Scopes *s, SynNode use, const char *name, unsigned flags);

#endif
