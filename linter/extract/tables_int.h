/* What the passes of tables.c and tables_names.c share: the walk's state
 * and the small syntax helpers both use. Internal to linter/extract/. */
#ifndef KEYLINT_TABLES_INT_H
#define KEYLINT_TABLES_INT_H

#include <ctype.h>
#include <string.h>

#include "extract.h"
#include "scope.h"
#include "tables.h"

enum {
    MAX_HOPS = 6,       /* x = y; y = z; ... */
    MAX_MEMBERS = 3,    /* config.dynamodb.users: members read in a name */
    MAX_DOC_DEPTH = 24, /* object nesting converted to a DocNode tree */
    MAX_TEXT = 80,      /* source text kept for opaque values */
    MAX_DOC_NODES = 2000, /* per object converted: variables may repeat one */
};

typedef struct T {
    const SynTree *syn; /* the file's tree (syntax.h) */
    Scopes *scopes; /* where its names are bound */
    const char *src;    /* its text */
    Arena *a;
    FileIR *ir;
    const Config *cfg;
    FileTables *ft;
    VEC(IndexCall) pending; /* add*Index calls, attached after the walk */
    /* parameters objects by the start byte of their operation (the call,
     * or the object itself): the first one read for a place is kept, and
     * given to the DataOps that start there after the walk */
    VEC(OpParams) params;
    NumMap params_at;
    size_t doc_budget;      /* DocNodes to_doc may still make */
    /* class members that hold values, per class body (class_member_value) */
    NumMap class_bodies;    /* start byte -> index in member_maps */
    VEC(NameMap) member_maps; /* name -> index in member_values */
    VEC(SynNode) member_values;
    /* array and object literals held by a variable that the file then
     * changes (mutated_literal), by node id; found on first need */
    NumMap mutated;
    bool mutated_found;
    /* a CreateTable call whose parameters are not an object literal here
     * (`new CreateTableCommand(def)` in a loop over definitions) */
    bool create_unread;
    NumMap create_read; /* start bytes of parameters objects read as tables */
} T;

static inline bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) syn_field(t->syn, (n), (name))
#define unwrap(n) syn_unwrap(t->syn, (n))
static inline const char *ntext(T *t, SynNode n) { return syn_text(t->syn, n); }
static inline bool string_value(T *t, SynNode n, const char **out)
{
    return syn_string_value(t->syn, unwrap(n), out);
}

static inline const char *short_text(T *t, SynNode n)
{
    return syn_text_max(t->syn, n, MAX_TEXT);
}

/* ---- bindings ------------------------------------------------------------ */

/* The value `name` holds where `use` is: the last declaration before it
 * in an enclosing block (any declaration at module level). Null node when
 * it is a parameter, unbound or declared without a value; *param says
 * which. */
static inline SynNode binding(T *t, SynNode use, const char *name, bool *param, bool *found)
{
    ScopeHit h = scopes_lookup(t->scopes, use, name, SCOPE_MODULE | SCOPE_MODULE_ANYWHERE);
    *param = h.param;
    *found = h.found;
    return h.value;
}

static inline const Import *find_import(T *t, const char *local)
{
    return fileir_import(t->ir, local);
}

/* A module constant of this file (extraction's), as text, or NULL. */
static inline const char *const_text(T *t, const char *name)
{
    const ConstDef *c = fileir_const(t->ir, name, false);
    if (!c)
        return NULL;
    if (c->value.n == 1 && c->value.v[0].kind == SEG_TEXT)
        return c->value.v[0].text;
    StrBuf acc;
    sb_init(&acc, t->a);
    for (size_t j = 0; j < c->value.n; j++) {
        if (c->value.v[j].kind != SEG_TEXT)
            return NULL;
        sb_append(&acc, c->value.v[j].text);
    }
    return sb_str(&acc);
}

/* ---- object literals ------------------------------------------------------ */

static inline const char *prop_name(T *t, SynNode prop)
{
    SynNode computed;
    const char *name = syn_prop_name(t->syn, prop, &computed);
    if (name || syn_null(computed))
        return name;
    return const_text(t, ntext(t, computed));
}

/* The value of the first property of `obj` named one of `names` (NULL
 * ended), in one pass over the properties; a null node when none is. */
static inline SynNode find_prop_of(T *t, SynNode obj, const char *const *names)
{
    SynNode none = {0};
    if (!is(obj, "object"))
        return none;
    uint32_t cnt = syn_count(t->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(t->syn, obj, i);
        const char *pn = prop_name(t, p);
        for (const char *const *n = names; pn && *n; n++)
            if (!strcmp(pn, *n))
                return syn_prop_value(t->syn, p);
    }
    return none;
}

static inline SynNode find_prop(T *t, SynNode obj, const char *name)
{
    const char *const names[] = {name, NULL};
    return find_prop_of(t, obj, names);
}

static inline bool all_caps_name(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!(isupper((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* tables_names.c: what a value names (a literal, an environment variable,
 * an import), through bindings, constants and class members */
NameRef tables_name_ref(T *t, SynNode v);
/* a template literal as a name pattern, substitutions "${}" */
const char *tables_template_pattern(T *t, SynNode n);
/* module constants of the file that may name a table or an index */
void tables_module_consts(T *t, SynNode root);

#endif
