/* What a name means at a place in one file: every way JavaScript and
 * TypeScript bind a value name, with their scopes, so that a fix can prove
 * that the name it writes refers to the declaration it intends (and not
 * to a parameter, a local, a class or another import of the same name).
 *
 * Value bindings read (types, interfaces and labels are not values):
 *   - module level: imports (named, default, namespace, `import x =`),
 *     `const`/`let`/`var` declarators (destructuring included), function,
 *     class and enum declarations, namespaces;
 *   - inside: the same declarations in blocks, switch bodies and loop
 *     heads (`let`/`const`/class/function to the block, `var` to the
 *     function), parameters (patterns and defaults), a function or class
 *     expression's own name, a catch clause's parameter.
 *
 * Built by one preorder pass over the syntax index with an explicit
 * stack; a lookup walks up the scopes that enclose a byte (a hash probe
 * per scope). Everything lives in the arena given to bindings_build and
 * as long as the SynTree. */
#ifndef KEYLINT_BINDINGS_H
#define KEYLINT_BINDINGS_H

#include "syntax.h"

typedef struct Bindings Bindings;

typedef enum BindingKind {
    BINDING_NONE,   /* nothing in the file binds the name there: a global */
    BINDING_IMPORT, /* a module-level import */
    BINDING_CONST,  /* a module-level `const NAME = value` (an identifier) */
    BINDING_MODULE, /* any other module-level binding, or several */
    BINDING_LOCAL,  /* a binding of a function, block, loop, catch or class */
} BindingKind;

typedef struct Binding {
    BindingKind kind;
    SynNode name;      /* the identifier that declares it (null for NONE) */
    SynNode statement; /* IMPORT: the import statement; CONST: the declarator */
    const char *source;   /* IMPORT: the module specifier, escapes decoded */
    const char *imported; /* IMPORT: the name in that module, "default", "*" */
    bool type_only;       /* IMPORT: `import type` (no value at run time) */
} Binding;

Bindings *bindings_build(const SynTree *t, Arena *a);

/* The binding of `name` seen at byte `at` of the text (a place inside
 * the tree's root). */
Binding bindings_at(const Bindings *b, uint32_t at, const char *name);

/* How many references to `name` (identifiers and `{ name }` shorthands
 * read as values) nothing in the file binds where they are: the uses an
 * import of `name` added at module level would capture. */
size_t bindings_free_uses(const Bindings *b, const char *name);

#endif
