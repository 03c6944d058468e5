/* Extraction internals shared by extract.c (the core: values, bindings,
 * the AWS SDK, mbc-cqrs-serverless) and extract_libs.c (library profiles:
 * Turbine, ddb-lib, AppSync, configured wrappers). Not for rules. */
#ifndef KEYLINT_EXTRACT_INT_H
#define KEYLINT_EXTRACT_INT_H


#include "config.h"
#include "ir.h"
#include "scope.h"
#include "syntax.h"

typedef struct ImportPrefix {
    const char *prefix;
    bool yes;
} ImportPrefix;

typedef struct Ex {
    SynTree *syn; /* the file's tree (syntax.h); its strings go to `a` */
    Arena *a;
    FileIR *ir;
    const char *src;
    size_t len;
    const Config *cfg;
    Scopes *scopes; /* where names are bound (scope.h) */
    NumMap consumed; /* start bytes of object literals already read */
    /* Later `var.prop = value` assignments of params objects, per object
     * (by the object's start byte in assigned_at). */
    VEC(struct Assigned) assigned;
    NumMap assigned_at;
    /* Every `a.b.c = value` of the file, by its root variable (built on
     * first use): what assignments_of reads. */
    struct MemberAssigns *member_assigns;
    /* Work left for reading bindings into keys (ref_segs: segments made
     * by inlining a variable's value) and for building expression strings
     * (build_string steps): `const c2 = c1 + c1; const c3 = c2 + c2; ...`
     * doubles at each level. Past it a variable is a plain value. */
    size_t inline_left, string_steps_left;
    /* Whether the file imports from a library (extract_libs.c), by the
     * library's prefix constant, once asked. */
    VEC(struct ImportPrefix) import_prefixes;
    /* Inline text merged into one segment (`'a' + 'b'`, template text):
     * the segment push_text is extending in place, list[index], whose
     * text is buf's. Pushing any other segment ends the run. */
    struct {
        SegList *list;
        size_t index;
        StrBuf buf;
    } run;
} Ex;

typedef struct Assigned {
    uint32_t obj;         /* start byte of the object literal */
    const char *path;     /* where it is stored ("params.Key"), NULL if not */
    VEC(struct AssignedProp) props;
} Assigned;

typedef struct AssignedProp {
    const char *name;
    SynNode value;
} AssignedProp;

/* The parent of a node of this file's tree. */
SynNode ex_parent(Ex *x, SynNode n);
/* A node's child by field name (`name` a string literal). */
SynNode ex_field(Ex *x, SynNode n, const char *name);

/* Node text and strings (copies in the file's arena). */
const char *ex_ntext(Ex *x, SynNode n);
bool ex_text_eq(Ex *x, SynNode n, const char *s);
bool ex_string_value(Ex *x, SynNode n, const char **out);

/* Where a local name comes from (NULL if not imported). */
const Import *ex_find_import(Ex *x, const char *local);
/* Follow identifiers to the value they were assigned (object literals,
 * calls); `via` gets the first variable's name when not NULL. */
SynNode ex_follow(Ex *x, SynNode n, const char **via, Span *via_span);
/* Object literal properties (spreads and later `v.p = x` included). */
SynNode ex_find_prop(Ex *x, SynNode obj, const char *name);
const char *ex_prop_name(Ex *x, SynNode prop);
bool ex_has_any_prop(Ex *x, SynNode obj, const char *const *names);
bool ex_value_can_be_key(Ex *x, SynNode v);
bool ex_is_string_like(Ex *x, SynNode n);
bool ex_name_has_word(const char *name, const char *w);
/* `this.dataService.getItem` -> "dataService". */
const char *ex_receiver_name(Ex *x, SynNode member);

/* Building the IR. */
int ex_add_op(Ex *x, OpKind kind, OpApi api, SynNode node, const char *callee);
void ex_add_key(Ex *x, SynNode value, KeyRole role, const char *attr, KeySite site, int op,
                CondOp cond);
/* Every key attribute of an object literal (followed through variables). */
size_t ex_key_object(Ex *x, SynNode objn, KeySite site, int op);
void ex_expr_segs(Ex *x, SynNode n, SegList *out, int depth);
Seg *ex_push_seg(Ex *x, SegList *l, SegKind k, uint32_t flags, const char *text, Span span);
void ex_consume(Ex *x, SynNode obj);
bool ex_consumed(Ex *x, SynNode obj);
/* Keys of a KeyConditionExpression's values map. */
void ex_key_conditions(Ex *x, const char *kce, SynNode names, SynNode values, int op,
                       bool on_index);

/* extract_libs.c: library profiles, recognised by import source.
 * A call the profiles consume is not looked at again. */
bool ex_lib_call(Ex *x, SynNode call);
/* Same for `new X(...)` (dynamodb-toolbox entities). */
bool ex_lib_new(Ex *x, SynNode newexpr);
/* Segments of a library's key builder call (PatternHelpers.entityKey...);
 * false when `call` is not one. */
bool ex_lib_key_call(Ex *x, SynNode call, SegList *out, int depth);

#endif
