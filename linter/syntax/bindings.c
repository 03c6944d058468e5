/* What a name means at a place in one file (bindings.h).
 *
 * One preorder pass over the syntax index keeps a stack of the open
 * scopes; each declaration is recorded under (its scope, its name). The
 * scopes are kept in preorder, each with its parent, so that the scope
 * around a byte is a binary search and a walk up. */
#include "bindings.h"

#include <stdio.h>
#include <string.h>

typedef struct Scope {
    uint32_t start, end; /* bytes */
    uint32_t parent;     /* index in scopes; NO_SCOPE for the program */
    bool function;       /* a function (or the program): where `var` goes */
} Scope;

enum { NO_SCOPE = UINT32_MAX };

struct Bindings {
    const SynTree *t;
    Arena *a;
    VEC(Scope) scopes;  /* preorder; [0] is the program */
    VEC(Binding) decls;
    NameMap by_key;     /* "<scope>:<name>" -> index in decls */
    NameMap free_uses;  /* name -> count + 1, computed on first ask */
};

static bool scope_type(const char *ty, bool *function)
{
    *function = syn_is_function_type(ty) || syn_type_is(ty, "program");
    return *function || syn_type_is(ty, "statement_block") || syn_type_is(ty, "switch_body") ||
           syn_type_is(ty, "for_statement") || syn_type_is(ty, "for_in_statement") ||
           syn_type_is(ty, "catch_clause") || syn_type_is(ty, "class");
}

static const char *key_of(Arena *a, uint32_t scope, const char *name)
{
    return arena_printf(a, "%u:%s", scope, name);
}

/* Record `name_node` (an identifier) as bound in `scope`. */
static void bind(Bindings *b, uint32_t scope, SynNode name_node, BindingKind kind,
                 SynNode statement, const char *source, const char *imported, bool type_only)
{
    if (syn_null(name_node) || scope == NO_SCOPE)
        return;
    const char *name = syn_text(b->t, name_node);
    if (!name[0])
        return;
    if (scope != 0)
        kind = BINDING_LOCAL;
    char buf[320];
    const char *key = buf;
    int kl = snprintf(buf, sizeof buf, "%u:%s", scope, name);
    if (kl < 0 || (size_t)kl >= sizeof buf)
        key = key_of(b->a, scope, name);
    size_t at;
    if (namemap_get(&b->by_key, key, &at)) {
        /* declared twice in one scope (`var x` and `function x`): no
         * single declaration to prove anything by */
        if (scope == 0)
            b->decls.v[at].kind = BINDING_MODULE;
        return;
    }
    Binding d = {.kind = kind, .name = name_node, .statement = statement,
                 .source = source, .imported = imported, .type_only = type_only};
    VEC_PUSH(b->a, &b->decls, d);
    namemap_put(b->a, &b->by_key, key == buf ? arena_strdup(b->a, buf) : key,
                b->decls.n - 1);
}

/* Every name a pattern binds (`x`, `{ a, b: [c, ...d], e = f }`,
 * a parameter), with an explicit stack. */
static void bind_pattern(Bindings *b, uint32_t scope, SynNode pattern, BindingKind kind)
{
    const SynTree *t = b->t;
    VEC(SynNode) stack = {0};
    VEC_PUSH(b->a, &stack, pattern);
    while (stack.n) {
        SynNode n = stack.v[--stack.n];
        const char *ty = syn_type(n);
        if (syn_type_is(ty, "identifier") || syn_type_is(ty, "shorthand_property_identifier_pattern")) {
            bind(b, scope, n, kind, (SynNode){0}, NULL, NULL, false);
        } else if (syn_type_is(ty, "object_pattern") || syn_type_is(ty, "array_pattern") ||
                   syn_type_is(ty, "rest_pattern")) {
            uint32_t cnt = syn_count(t, n);
            for (uint32_t i = 0; i < cnt; i++)
                VEC_PUSH(b->a, &stack, syn_child(t, n, i));
        } else if (syn_type_is(ty, "pair_pattern")) {
            VEC_PUSH(b->a, &stack, syn_field(t, n, "value"));
        } else if (syn_type_is(ty, "assignment_pattern") ||
                   syn_type_is(ty, "object_assignment_pattern")) {
            VEC_PUSH(b->a, &stack, syn_field(t, n, "left"));
        } else if (syn_type_is(ty, "required_parameter") ||
                   syn_type_is(ty, "optional_parameter")) {
            SynNode p = syn_field(t, n, "pattern");
            VEC_PUSH(b->a, &stack, syn_null(p) ? syn_field(t, n, "name") : p);
        }
    }
}

/* The innermost open scope, and the innermost function (or program). */
static uint32_t top(const Bindings *b, const uint32_t *stack, size_t n, bool function)
{
    for (size_t i = n; i-- > 0;)
        if (!function || b->scopes.v[stack[i]].function)
            return stack[i];
    return NO_SCOPE;
}

static bool first_token_is(const SynTree *t, SynNode n, const char *word)
{
    return syn_text_eq(t, syn_token(t, n, 0), word);
}

static void import_statement(Bindings *b, SynNode n)
{
    const SynTree *t = b->t;
    const char *source = NULL;
    if (!syn_string_value(t, syn_field(t, n, "source"), &source))
        source = NULL;
    bool type_only = false;
    uint32_t nt = syn_token_count(t, n);
    for (uint32_t i = 0; i < nt && i < 3; i++)
        if (syn_text_eq(t, syn_token(t, n, i), "type"))
            type_only = true;
    uint32_t cnt = syn_count(t, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t, n, i);
        if (syn_is(c, "import_require_clause")) { /* import x = require('y') */
            bind(b, 0, syn_child(t, c, 0), BINDING_IMPORT, n, source, "*", type_only);
            continue;
        }
        if (!syn_is(c, "import_clause"))
            continue;
        uint32_t cc = syn_count(t, c);
        for (uint32_t j = 0; j < cc; j++) {
            SynNode k = syn_child(t, c, j);
            if (syn_is(k, "identifier")) {
                bind(b, 0, k, BINDING_IMPORT, n, source, "default", type_only);
            } else if (syn_is(k, "namespace_import")) {
                bind(b, 0, syn_child(t, k, 0), BINDING_IMPORT, n, source, "*", type_only);
            } else if (syn_is(k, "named_imports")) {
                uint32_t ns = syn_count(t, k);
                for (uint32_t s = 0; s < ns; s++) {
                    SynNode sp = syn_child(t, k, s);
                    if (!syn_is(sp, "import_specifier"))
                        continue;
                    SynNode name = syn_field(t, sp, "name"), alias = syn_field(t, sp, "alias");
                    const char *imported;
                    if (!syn_string_value(t, name, &imported))
                        imported = syn_text(t, name);
                    /* `import { type X }` binds no value either */
                    SynNode first = syn_token(t, sp, 0);
                    bool spec_type = syn_start(first) < syn_start(name) &&
                                     syn_text_eq(t, first, "type");
                    bind(b, 0, syn_null(alias) ? name : alias, BINDING_IMPORT, n, source,
                         imported, type_only || spec_type);
                }
            }
        }
    }
}

/* Declarations that bind in the scope around them: variables, functions,
 * classes, enums, namespaces, imports. */
static void declaration(Bindings *b, const uint32_t *stack, size_t depth, const char *ty,
                        SynNode n)
{
    const SynTree *t = b->t;
    uint32_t block = top(b, stack, depth, false);
    if (syn_type_is(ty, "lexical_declaration") || syn_type_is(ty, "variable_declaration")) {
        bool var = syn_type_is(ty, "variable_declaration");
        bool is_const = !var && first_token_is(t, n, "const");
        uint32_t scope = var ? top(b, stack, depth, true) : block;
        uint32_t cnt = syn_count(t, n);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode d = syn_child(t, n, i);
            if (!syn_is(d, "variable_declarator"))
                continue;
            SynNode name = syn_field(t, d, "name");
            if (is_const && syn_is(name, "identifier") && !syn_null(syn_field(t, d, "value")))
                bind(b, scope, name, BINDING_CONST, d, NULL, NULL, false);
            else
                bind_pattern(b, scope, name, BINDING_MODULE);
        }
    } else if (syn_type_is(ty, "function_declaration") ||
               syn_type_is(ty, "generator_function_declaration") ||
               syn_type_is(ty, "function_signature") || syn_type_is(ty, "class_declaration") ||
               syn_type_is(ty, "abstract_class_declaration") ||
               syn_type_is(ty, "enum_declaration") || syn_type_is(ty, "internal_module")) {
        SynNode name = syn_field(t, n, "name");
        if (!syn_is(name, "string") && !syn_is(name, "nested_identifier"))
            bind(b, block, name, BINDING_MODULE, (SynNode){0}, NULL, NULL, false);
    } else if (syn_type_is(ty, "import_statement")) {
        if (block == 0)
            import_statement(b, n);
    } else if (syn_type_is(ty, "import_alias")) { /* import x = A.B */
        bind(b, block, syn_child(t, n, 0), BINDING_MODULE, (SynNode){0}, NULL, NULL, false);
    }
}

/* Names a scope binds itself: parameters, a function or class
 * expression's own name, a catch parameter, a loop's declaration. */
static void own_names(Bindings *b, const uint32_t *stack, size_t depth, uint32_t scope,
                      const char *ty, SynNode n)
{
    const SynTree *t = b->t;
    if (syn_is_function_type(ty)) {
        if (!syn_type_is(ty, "function_declaration") &&
            !syn_type_is(ty, "generator_function_declaration") &&
            !syn_type_is(ty, "method_definition"))
            bind(b, scope, syn_field(t, n, "name"), BINDING_LOCAL, (SynNode){0}, NULL, NULL,
                 false);
        SynNode ps = syn_field(t, n, "parameters");
        uint32_t cnt = syn_count(t, ps);
        for (uint32_t i = 0; i < cnt; i++)
            bind_pattern(b, scope, syn_child(t, ps, i), BINDING_LOCAL);
        bind_pattern(b, scope, syn_field(t, n, "parameter"), BINDING_LOCAL);
    } else if (syn_type_is(ty, "class")) {
        bind(b, scope, syn_field(t, n, "name"), BINDING_LOCAL, (SynNode){0}, NULL, NULL, false);
    } else if (syn_type_is(ty, "catch_clause")) {
        bind_pattern(b, scope, syn_field(t, n, "parameter"), BINDING_LOCAL);
    } else if (syn_type_is(ty, "for_in_statement")) {
        SynNode left = syn_field(t, n, "left");
        uint32_t nt = syn_token_count(t, n);
        for (uint32_t i = 0; i < nt; i++) {
            SynNode tok = syn_token(t, n, i);
            if (syn_start(tok) >= syn_start(left))
                break;
            if (syn_text_eq(t, tok, "let") || syn_text_eq(t, tok, "const")) {
                bind_pattern(b, scope, left, BINDING_LOCAL);
                break;
            }
            if (syn_text_eq(t, tok, "var")) {
                bind_pattern(b, top(b, stack, depth - 1, true), left, BINDING_LOCAL);
                break;
            }
        }
    }
}

Bindings *bindings_build(const SynTree *t, Arena *a)
{
    Bindings *b = arena_alloc(a, sizeof *b);
    memset(b, 0, sizeof *b);
    b->t = t;
    b->a = a;
    size_t count = syn_node_count(t);
    uint32_t *stack = arena_alloc(a, (count ? count : 1) * sizeof *stack);
    size_t *ends = arena_alloc(a, (count ? count : 1) * sizeof *ends);
    size_t depth = 0;
    for (size_t i = 0; i < count; i++) {
        while (depth && ends[depth - 1] <= i)
            depth--;
        const char *ty = syn_type_at(t, i);
        SynNode n = syn_node_at(t, i);
        if (i > 0)
            declaration(b, stack, depth, ty, n);
        bool function;
        if (i == 0 || scope_type(ty, &function)) {
            Scope s = {.start = syn_start(n), .end = syn_end(n),
                       .parent = depth ? stack[depth - 1] : NO_SCOPE,
                       .function = i == 0 || function};
            if (i == 0) { /* the root holds the whole text */
                s.start = 0;
                s.end = UINT32_MAX;
            }
            VEC_PUSH(a, &b->scopes, s);
            uint32_t me = (uint32_t)(b->scopes.n - 1);
            stack[depth] = me;
            ends[depth++] = syn_end_of(t, i);
            own_names(b, stack, depth, me, ty, n);
        }
    }
    return b;
}

/* The innermost scope holding byte `at`. */
static uint32_t scope_around(const Bindings *b, uint32_t at)
{
    size_t lo = 0, hi = b->scopes.n;
    while (hi - lo > 1) { /* the last scope starting at or before `at` */
        size_t mid = (lo + hi) / 2;
        if (b->scopes.v[mid].start <= at)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t s = b->scopes.n ? (uint32_t)lo : NO_SCOPE;
    while (s != NO_SCOPE && s != 0 && !(b->scopes.v[s].start <= at && at < b->scopes.v[s].end))
        s = b->scopes.v[s].parent;
    return s;
}

Binding bindings_at(const Bindings *b, uint32_t at, const char *name)
{
    Binding none = {.kind = BINDING_NONE};
    if (!b || !name || !name[0])
        return none;
    char buf[320];
    for (uint32_t s = scope_around(b, at); s != NO_SCOPE; s = b->scopes.v[s].parent) {
        int kl = snprintf(buf, sizeof buf, "%u:%s", s, name);
        if (kl < 0 || (size_t)kl >= sizeof buf)
            return (Binding){.kind = BINDING_MODULE}; /* a name that long proves nothing */
        size_t i;
        if (namemap_get(&b->by_key, buf, &i))
            return b->decls.v[i];
    }
    return none;
}

size_t bindings_free_uses(const Bindings *cb, const char *name)
{
    Bindings *b = (Bindings *)cb; /* the cache only */
    size_t n;
    if (namemap_get(&b->free_uses, name, &n))
        return n - 1;
    n = 0;
    size_t count = syn_node_count(b->t);
    for (size_t i = 0; i < count; i++) {
        const char *ty = syn_type_at(b->t, i);
        if (!syn_type_is(ty, "identifier") && !syn_type_is(ty, "shorthand_property_identifier"))
            continue;
        SynNode id = syn_node_at(b->t, i);
        if (syn_text_eq(b->t, id, name) && bindings_at(b, syn_start(id), name).kind == BINDING_NONE)
            n++;
    }
    namemap_put(b->a, &b->free_uses, arena_strdup(b->a, name), n + 1);
    return n;
}
