/* Extraction internals shared by the files of linter/extract/, which
 * stand in layers (README.md): primitives, readers of values, idioms, the
 * walk. Not for rules. */
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

struct Ex;

/* One choice of the code that fills a parameters object: an `if` or a
 * ternary, keyed by the text of its condition (two of one condition choose
 * together: option 0 when it holds, 1 when not), or a `switch`, keyed by
 * the statement (option i enters at its i-th case; one past the last: no
 * case matched). */
typedef struct ExChoice {
    uint32_t start, end; /* the condition's text; the switch statement */
    bool sw;
    int options;
} ExChoice;

/* A combination of branches (props.c: ex_branch_combos): the option taken
 * at each of `n` choices. While Ex.branch points at one, an assignment
 * inside a branch not taken is not read, and a ternary assigned reads as
 * the arm taken. */
typedef struct ExBranch {
    size_t n;
    const ExChoice *choices;
    const int *option;
    uint32_t before; /* assignments from here on come after the operation */
} ExBranch;

/* A library's key builder read as segments (`call` a call expression);
 * false when `call` is not one. The readers (segments.c) ask through
 * Ex.key_builder, which the walk sets: libs.c stands above them. */
typedef bool (*ExKeyBuilder)(struct Ex *x, SynNode call, SegList *out, int depth);

typedef struct Ex {
    SynTree *syn; /* the file's tree (syntax.h); its strings go to `a` */
    Arena *a;     /* the FileIR's: what the IR keeps */
    Arena *scratch; /* freed when the file is extracted: scopes, the
                     * objects already read, assignments found */
    FileIR *ir;
    const char *src;
    size_t len;
    const Config *cfg;
    ExKeyBuilder key_builder; /* ex_lib_key_call; NULL: none */
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
    /* Attribute names an expression string takes from constants this
     * file cannot read (`${PK_NAME} = :pk`, PK_NAME imported): build_string
     * writes "#kl_<i>" for names[i], which map_name turns into "[PK_NAME]"
     * for resolution to settle. */
    StrList expr_consts;
    /* Set while the properties of a primary-key map or of an item are
     * read (key_object_depth): a property whose name is no key attribute
     * by its spelling is then a key candidate (KeyExpr.named_by). */
    KeyNamedBy named;
    bool candidate; /* the key being added is such a candidate */
    /* A part some keys carry and others do not (`const scope = id ?
     * \`WS#${id}#\` : ''`), met while a key's segments were read
     * (optional_seen); ref_segs reads it as the part, or with
     * optional_left as nothing: ex_add_key then adds the key without it. */
    bool optional_seen, optional_left;
    /* ex_key_conditions: an attribute is a key by its spelling only (no
     * role from its place in the condition), for a query whose index is
     * not known. */
    bool spelled_only;
    /* ex_expr_string: a clause pushed on a joined array that cannot be
     * read (`${name} = :${name}` in a loop over fields) is left out, not
     * the whole expression: set while a positional update's expression
     * is read, whose other clauses still say which keys it sets. */
    bool partial_joins;
    /* The branches a data operation's parameters are read under, one
     * combination at a time (sdk.c's params_object); NULL: every
     * assignment, the last one winning. */
    const ExBranch *branch;
    /* Reading a params object whose KeyConditionExpression is a ternary
     * the second time: its alternative (and the alternative of a ternary
     * of values beside it) is read (sdk.c params_object); of one built
     * with `+=` in the arms of an if/else, the later arm's. */
    bool second_arm;
    /* Whether the file imports from a library (libs.c), by the
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

/* Shared by the passes (extract.c, toplevel.c, segments.c). */
enum {
    MAX_DEPTH = 48,      /* expression nesting read into segments */
    MAX_BINDING_HOPS = 6, /* x = y; y = z; ... followed at most this far */
    UNKNOWN_TEXT_MAX = 60,
    MAX_BATCH_ELEMENTS = 128, /* requests of one batch read (DynamoDB takes 25 or 100) */
    MAX_CALLEE_TEXT = 256,
    MAX_BRANCH_COMBOS = 8, /* one operation read per combination of branches */
    /* Ex.inline_left and .string_steps_left: this much, and this much
     * more per byte of the file */
    INLINE_BUDGET = 1 << 16,
    INLINE_PER_BYTE = 16,
};

/* Take `n` from a budget (down to 0). */
static inline void ex_spend(size_t *left, size_t n)
{
    *left = *left > n ? *left - n : 0;
}

/* Binding lookup: the value last assigned to `name` before `use`, in the
 * blocks that enclose it, or a parameter of an enclosing function. */
typedef struct Binding {
    bool found, param;
    SynNode value; /* null for parameters and declarations without value */
    SynNode decl;
} Binding;
Binding ex_find_binding(Ex *x, SynNode use, const char *name, bool include_module);
/* The nodes, in source order, of the block that holds the declaration
 * statement of `decl` (a declarator) that start after `decl` and before
 * `use`, not inside functions nested there; each step spends one of
 * `*budget`. ex_block_walk_next gives a null node at the end. */
typedef struct BlockWalk {
    size_t i, to;
    uint32_t after, before;
    size_t *budget;
} BlockWalk;
BlockWalk ex_block_walk(Ex *x, SynNode decl, SynNode use, size_t *budget);
SynNode ex_block_walk_next(Ex *x, BlockWalk *w);
/* The next call `name.push(...)` of walk `w` over the block of a local
 * array `name` (ex_block_walk from its declaration); a null node at the
 * end, or at another change to the array (`unshift`, `splice`), which
 * sets *changed. */
SynNode ex_push_next(Ex *x, BlockWalk *w, const char *name, bool *changed);
/* The values a `let` declared without one is given in the branches of its
 * block before `use` (`let pk; if (a) pk = ...; else pk = ...;`). */
size_t ex_branch_assignments(Ex *x, SynNode decl, SynNode use, const char *name, SynNode *out,
                             size_t max);
/* The values `id` (an identifier) takes as the element of a loop over an
 * array this file writes out: `for (const k of keys)` or `keys.map((k) =>
 * ...)` (forEach, flatMap), keys being an array literal, a constant
 * holding one, `.filter(...)` of one, or what a function of this file's
 * top level returns (`[emailKey(e), phoneKey(p)].filter(Boolean)`). At
 * most `max` into out; their count (0: none, or more than max). */
size_t ex_element_values(Ex *x, SynNode id, SynNode *out, size_t max);
/* The `return` statements of a function's body (a statement_block), in
 * source order, not those of functions or classes nested in it.
 * ex_return_walk_next gives a null node at the end. */
typedef struct ReturnWalk {
    size_t i, to;
} ReturnWalk;
ReturnWalk ex_return_walk(Ex *x, SynNode body);
SynNode ex_return_walk_next(Ex *x, ReturnWalk *w);
bool ex_lower_contains(const char *s, const char *needle);
/* A framework's exported name as imported here ("KEY_SEPARATOR"), NULL. */
const char *ex_framework_name(Ex *x, const char *local);
KeyBuild ex_build_of(Ex *x, SynNode n);
/* A low-level AttributeValue ({ S: x } / { N: x }, AppSync's
 * util.dynamodb.toDynamoDB(x)): the value it holds; else `v` itself. */
SynNode ex_attribute_value(Ex *x, SynNode v);
/* A reference (identifier or member) as segments: its value when it is
 * bound to one this file can read, else a REF segment. */
void ex_ref_segs(Ex *x, SynNode n, SegList *out, int depth);
/* toplevel.c: imports, re-exports, constants, enums and key helpers of the
 * file's top level (the first pass). */
void ex_module_pass(Ex *x, SynNode root);
/* A function's parameter names, in order ("?" for destructured ones). */
void ex_function_params(Ex *x, SynNode fn, HelperDef *h);

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
/* The properties set on `obj` after its literal, by `v.p = x` or
 * `v['p'] = x` in the block of the variable v that holds it (nested
 * statements too, not nested functions), in source order; *n their count. */
const AssignedProp *ex_assigned_props(Ex *x, SynNode obj, size_t *n);
/* The combinations of branches (if/else, ternaries assigned, switch
 * cases) under which the member assignments that complete parameters
 * object `obj` (its table, index, key condition, values, names, key, item,
 * update) differ, for an operation at `op_span`: combinations that cannot
 * reach it (it is in another branch, or a branch returns first) left out,
 * those reading the same assignments once; under each, the assignments
 * after the operation are not read. *out gets them (scratch); 0 when no
 * assignment the last one would hide (a property assigned twice, or over
 * the literal's value, or a ternary assigned) is in a branch, or when
 * there are more than MAX_BRANCH_COMBOS (then the last assignment is
 * read, as without branches). */
size_t ex_branch_combos(Ex *x, SynNode obj, Span op_span, const ExBranch **out);
/* The value first assigned to member path `path` ("this.client") anywhere
 * in the file, or a null node. */
SynNode ex_member_value(Ex *x, const char *path);
bool ex_has_any_prop(Ex *x, SynNode obj, const char *const *names);
/* Whether an object literal has a property named as a key attribute
 * (`pk`, `gsi1pk`, `sk2`). */
bool ex_names_a_key(Ex *x, SynNode obj);
/* The name property `prop` of `obj` gives (an index's: `{ index: 'GSI1' }`)
 * as a string's value or as written; NULL when there is no such property. */
const char *ex_index_name(Ex *x, SynNode obj, const char *prop);
bool ex_value_can_be_key(Ex *x, SynNode v);
bool ex_is_string_like(Ex *x, SynNode n);
bool ex_name_has_word(const char *name, const char *w);
/* `this.dataService.getItem` -> "dataService". */
const char *ex_receiver_name(Ex *x, SynNode member);

/* Calls: whether `local` is imported from a module whose name starts with
 * `prefix`; the name a call calls (`f(...)` -> f, `a.b.f(...)` -> f), its
 * callee node in *member and the root identifier (`a`) in *root; argument
 * i of a call (a null node when there is none). */
bool ex_imported_from(Ex *x, const char *local, const char *prefix);
const char *ex_callee_parts(Ex *x, SynNode call, SynNode *member, const char **root);
SynNode ex_arg(Ex *x, SynNode call, uint32_t i);

/* Building the IR. */
/* The helper entry (HelperDef) of function `fn`, added to the IR on first
 * need; NULL when the function has no name other code calls it by. */
HelperDef *ex_function_def(Ex *x, SynNode fn);
/* `this.m` called at `at` in a class that extends X and does not define
 * m: "X.m"; `callee` otherwise. */
const char *ex_inherited_callee(Ex *x, SynNode at, const char *callee);
int ex_add_op(Ex *x, OpKind kind, OpApi api, SynNode node, const char *callee);
void ex_add_key(Ex *x, SynNode value, KeyRole role, const char *attr, KeySite site, int op,
                CondOp cond);
/* ex_add_key for a value and, when it is a conditional, for each branch. */
/* An index key an UpdateExpression SETs (`SET GSI1PK = :gsi1pk`) to `v`,
 * its placeholder's value: a key the update writes, when its name says it
 * is an index key (a table key cannot be updated). Returns 1 when added. */
size_t ex_update_set_key(Ex *x, const char *name, SynNode v, int op);
void ex_add_key_branches(Ex *x, SynNode v, KeyRole role, const char *attr, KeySite site,
                         int op, CondOp cond);
/* Every key attribute of an object literal (followed through variables). */
size_t ex_key_object(Ex *x, SynNode objn, KeySite site, int op);
/* The same for the primary-key map (`named` NAMED_KEY_MAP) or the item
 * (NAMED_TABLE) of data operation `op`: any attribute may be a key there
 * (KeyExpr.named_by). */
size_t ex_op_key_object(Ex *x, SynNode objn, KeySite site, int op, KeyNamedBy named);
/* `value` (a data operation's Item or Key, `callee` NULL; or argument
 * `arg` of a call of `callee`) is a parameter of the enclosing function:
 * recorded on its HelperDef (param_uses). */
void ex_param_use(Ex *x, SynNode value, KeySite site, const char *callee, unsigned arg);
/* The parameters object literal `obj` spreads (`{ ...item, timestamp }`),
 * each noted as ex_param_use notes a parameter handed on. */
void ex_spread_param_uses(Ex *x, SynNode obj, KeySite site, const char *callee, unsigned arg);
void ex_expr_segs(Ex *x, SynNode n, SegList *out, int depth);
Seg *ex_push_seg(Ex *x, SegList *l, SegKind k, uint32_t flags, const char *text, Span span);
void ex_consume(Ex *x, SynNode obj);
bool ex_consumed(Ex *x, SynNode obj);
/* Keys of a KeyConditionExpression's values map. */
void ex_key_conditions(Ex *x, const char *kce, SynNode names, SynNode values, int op,
                       bool on_index);

/* sdk.c: the AWS SDK. `new XCommand(params)` (v3), a DocumentClient (v2)
 * or lookalike client's method called with a params object of the SDK's
 * shape (recv.method, `args` the call's arguments), and an object literal
 * with the SDK's parameter names wherever it is built (ex_params_shaped:
 * ex_params_op reads it as a data operation's parameters). */
void ex_sdk_command(Ex *x, SynNode newexpr);
void ex_sdk_v2_call(Ex *x, SynNode call, const char *recv, const char *method, SynNode args);
/* `paginateQuery({ client }, params)`, `paginateScan(...)` of the SDK v3:
 * a Query or Scan of `params` (sdk.c). */
bool ex_sdk_paginator(Ex *x, SynNode call);
/* A project's wrapper of a transaction called with its TransactItems
 * (`transactWriteItems([{ Put: { Item } }])`), or of a batch write with
 * its requests (`db.batchWrite(batch)`): an op for the call and its
 * items' keys. */
bool ex_sdk_items_wrapper(Ex *x, SynNode call);
bool ex_params_shaped(Ex *x, SynNode obj);
void ex_params_op(Ex *x, SynNode obj);
/* An UpdateExpression `ue` of data operation `op`, its `#names` and
 * `:values` objects beside it: the attributes it sets (DataOp.sets,
 * set_values) and the index keys it writes. False when `ue` is not a
 * string extraction reads as an UpdateExpression. */
bool ex_update_expression(Ex *x, SynNode ue, SynNode names, SynNode values, int op);

/* mbc.c: a call of mbc-cqrs-serverless's data, command or history service
 * (recv.method, `args` the call's arguments); nothing for other calls. */
void ex_mbc_call(Ex *x, SynNode call, const char *recv, const char *method, SynNode args);

/* helpers.c: a call that passes text to a function, kept as a candidate
 * call of a key helper (resolution settles it). */
void ex_call_site(Ex *x, SynNode call);
/* helpers.c: the arguments of a call that are parameters of the enclosing
 * function, handed on (ex_param_use). */
void ex_call_forwards(Ex *x, SynNode call);
/* A call that hands a variable or an object to a project function named
 * for writing: FileIR.item_calls (objects.c). */
void ex_item_calls(Ex *x, SynNode call);

/* objects.c: object literals no data operation read (the third pass).
 * ex_object_keys: its key attributes when at least one is built here, or
 * two are there, and it is not a response body or a map of attribute
 * types; at the site of the call it is passed to, else an entity's when a
 * function returns it. ex_key_getter: `get pk() { return ... }` in a
 * class, an entity's key. ex_camel_query_params: a project's own data
 * layer's query parameters in camelCase, read as a query (false when
 * `obj` is not one). */
void ex_object_keys(Ex *x, SynNode obj);
void ex_key_getter(Ex *x, SynNode method);
bool ex_camel_query_params(Ex *x, SynNode obj);
/* objects.c: a call handing a key condition and the object of its values
 * as separate arguments, read as a query whose table is not known. */
bool ex_positional_query(Ex *x, SynNode call);
/* objects.c: the object of the placeholders (`mark` ':' values, '#'
 * names) expression `s` uses among a call's arguments `args`, itself an
 * argument or an options argument's ExpressionAttributeValues /
 * expressionAttributeValues (Names); a null node when none is. */
SynNode ex_placeholders_arg(Ex *x, SynNode args, char mark, const char *s);
/* objects.c: the first of a call's arguments `args` that is text (a
 * string, template, identifier or concatenation, read with partial joins
 * when `partial`) and that `accept` takes as an expression of its kind;
 * that text, with the argument in *at. NULL (and a null *at) when none. */
const char *ex_expression_arg(Ex *x, SynNode args, bool (*accept)(Ex *x, const char *e),
                              bool partial, SynNode *at);
/* updates.c: a call handing an UpdateExpression, the object of its values
 * and the item's key as separate arguments (a project's update function),
 * read as that update; false when `call` is not one. */
bool ex_positional_update(Ex *x, SynNode call);

/* The modules the library profiles are recognised by (import sources, or
 * the start of theirs). */
#define TURBINE "dynamodb-turbine"
#define DDB_LIB "@ddb-lib/"
#define APPSYNC "@aws-appsync/utils/dynamodb"
#define TOOLBOX "dynamodb-toolbox"
#define DATA_MAPPER "@aws/dynamodb-data-mapper"
#define DDB_EXPRESSIONS "@aws/dynamodb-expressions"

/* lib_turbine.c: dynamodb-turbine's defineEntity call (its keys are an
 * entity's) and an entity's query; false when `call` is not one. */
bool ex_turbine_entity(Ex *x, SynNode call);
bool ex_turbine_query(Ex *x, SynNode call, const char *method);

/* lib_ddblib.c: ddb-lib's TableClient calls (a data operation) and key
 * builders (the key's segments into `out`); false when `call` is not
 * one. */
bool ex_ddblib_table_call(Ex *x, SynNode call, const char *method);
bool ex_ddblib_key_call(Ex *x, SynNode call, SegList *out, int depth);

/* lib_appsync.c: a call of AppSync's DynamoDB module (`name` and `root` as
 * ex_callee_parts gives them); false when `call` is not one. */
bool ex_appsync_call(Ex *x, SynNode call, const char *name, const char *root);
/* A raw AppSync DynamoDB request (`{ operation: 'GetItem', key }`) read as
 * a data operation; false when `obj` is not one. */
bool ex_appsync_request(Ex *x, SynNode obj);

/* lib_toolbox.c: dynamodb-toolbox's `new Entity({...})` (its keys are an
 * entity's) and an entity's query; false when the node is not one. */
bool ex_toolbox_entity(Ex *x, SynNode newexpr);
bool ex_toolbox_query(Ex *x, SynNode call, const char *method);

/* lib_datamapper.c: a DataMapper's query; false when `call` is not one. */
bool ex_datamapper_query(Ex *x, SynNode call, const char *method);

/* wrappers.c: a call of a wrapper the configuration declares, read as a
 * data operation; false when `call` matches none. */
bool ex_wrapper_call(Ex *x, SynNode call);

/* libs.c: library profiles, recognised by import source.
 * A call the profiles consume is not looked at again. */
bool ex_lib_call(Ex *x, SynNode call);
/* Same for `new X(...)` (dynamodb-toolbox entities). */
bool ex_lib_new(Ex *x, SynNode newexpr);
/* Segments of a library's key builder call (PatternHelpers.entityKey...);
 * false when `call` is not one. The walk installs it as Ex.key_builder. */
bool ex_lib_key_call(Ex *x, SynNode call, SegList *out, int depth);

/* expressions.c: DynamoDB expression strings as the code builds them. */
#define EXPR_CONST "#kl_" /* see Ex.expr_consts */
/* `#name` through ExpressionAttributeNames (an EXPR_CONST placeholder
 * becomes "[NAME]", settled by resolution). */
const char *ex_map_name(Ex *x, SynNode names, const char *n);
/* A string or template literal whose value is its source text. */
bool ex_plain_literal(Ex *x, SynNode n);
/* A DynamoDB expression string as the code builds it, or NULL. */
const char *ex_expr_string(Ex *x, SynNode n);
/* Every key attribute of a key condition written as an object (`{ pk: ...,
 * sk: { beginsWith: ... } }`, followed through a variable): a key of
 * operation `op`, of the index's roles when `on_index`. */
void ex_condition_object(Ex *x, SynNode obj, int op, bool on_index);

#endif
