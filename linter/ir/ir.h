/* The IR: what extraction sees in one file, and the contract every rule
 * reads. Rules never look at syntax trees; they read KeyExpr and DataOp.
 *
 * A FileIR and everything it points to belong to the FileIR's arena.
 * Extraction fills it from one file alone; resolution (resolve.h) then
 * rewrites the segments of its keys in place, using facts from the whole
 * project, so that constants, imports and helper calls are seen through. */
#ifndef KEYLINT_IR_H
#define KEYLINT_IR_H

#include "common.h"
#include "copy.h"

/* ---- Segments: the pieces a key is built from ------------------------ */

typedef enum SegKind {
    SEG_TEXT,    /* literal text: inline in the source, or a constant's value */
    SEG_REF,     /* a runtime value: identifier or member path ("order.status") */
    SEG_CALL,    /* a call whose result is part of the key */
    SEG_UNKNOWN, /* an expression extraction does not read (ternary, ...) */
    SEG_KIND_COUNT /* not a kind: how many there are (readers bound values by it) */
} SegKind;

enum SegFlag {
    SEGF_CONST = 1u << 0,       /* TEXT: value of the constant in ->name */
    SEGF_SEPARATOR = 1u << 1,   /* TEXT: value of a key-separator constant */
    SEGF_VERSION_SEP = 1u << 2, /* TEXT: value of the version-separator constant */
    SEGF_VERSIONED = 1u << 3,   /* carries a version suffix (addSortKeyVersion) */
    SEGF_UNVERSIONED = 1u << 4, /* removeSortKeyVersion(...): version cleared */
    SEGF_TENANT = 1u << 5,      /* a tenant code (variable, common, default) */
    SEGF_COMMON_TENANT = 1u << 6, /* the common / default tenant */
    SEGF_FRAMEWORK = 1u << 7,   /* recognised by its import from the seed framework */
    SEGF_HELPER = 1u << 8,      /* produced by inlining an application helper */
    SEGF_PARAM = 1u << 9,       /* REF: a parameter of the enclosing function */
    SEGF_IMPORTED = 1u << 10,   /* REF/CALL: the name is imported */
    SEGF_DATE = 1u << 11,       /* a date/time value (toISOString, Date.now, ...) */
    SEGF_ARRAY_JOIN = 1u << 12, /* TEXT inserted as the separator of a join */
    SEGF_UPPERCASE = 1u << 13,  /* REF/CALL: its text is upper-cased (toUpperCase) */
    SEGF_LOWERCASE = 1u << 14,  /* REF/CALL: its text is lower-cased (toLowerCase) */
    SEGF_ARG = 1u << 16,        /* passed for a parameter (`param`) of a helper
                                 * inlined at this call: the helper's own key
                                 * judges that parameter */
    SEGF_CONST_PART = 1u << 15, /* TEXT + CONST: one of several segments of the
                                 * constant in ->name, not its whole value */
};

typedef struct Seg Seg;

typedef struct SegList {
    Seg *v;
    size_t n, cap;
} SegList;

struct Seg {
    SegKind kind;
    uint32_t flags;
    /* TEXT: the text. REF: the path ("tenantCode", "dto.status",
     * "Prefix.ORDER"). CALL: the callee ("generateId", "this.keys.pk").
     * UNKNOWN: the source text (possibly truncated). */
    const char *text;
    /* TEXT from a constant: the constant's name. Inlined helper output:
     * the helper's name. REF: the variable a value flowed through, if any.
     * NULL otherwise. */
    const char *name;
    Span span; /* where it is written in this file */
    /* CALL: the arguments, each a segment list. */
    SegList *args;
    size_t nargs;
    /* SEGF_ARG: the parameter of the helper called here (the outermost
     * helper when helpers nest) that this value is passed for. */
    const char *param;
    /* REF/CALL: the literal text the value falls back to (`${tenantId ||
     * 'SYSTEM'}`): the key with that text in its place is built too.
     * NULL when none. */
    const char *fallback;
    /* CALL: the field of the object the call returns that the key reads
     * (`keys.pk` after `const keys = briefRunKeys(id)`, or `pk` of
     * `const { pk } = briefRunKeys(id)`); NULL for the call's value. Then
     * `name` is what the key wrote: the member path (`keys.pk`) or the
     * destructured variable (`pk`). Resolution inlines the helper's
     * field; where it finds none, the segment is what the key wrote: a
     * REF of `name`. */
    const char *member;
};

/* ---- Key expressions ---------------------------------------------------- */

typedef enum KeyRole {
    ROLE_PK,       /* the table's partition key */
    ROLE_SK,       /* the table's sort key */
    ROLE_INDEX_PK, /* an index (GSI/LSI) partition key */
    ROLE_INDEX_SK, /* an index sort key */
    ROLE_KEY,      /* a key-like value whose role is not known (helper returns) */
    KEY_ROLE_COUNT /* not a role: how many there are */
} KeyRole;

typedef enum KeyBuild {
    BUILD_TEMPLATE, /* `A#${b}` */
    BUILD_CONCAT,   /* 'A#' + b */
    BUILD_JOIN,     /* [a, b].join('#') */
    BUILD_ARRAY,    /* ["user", id] (joined with '#' by the library) */
    BUILD_LITERAL,  /* 'A#1' */
    BUILD_CALL,     /* helper or framework call */
    BUILD_REF,      /* a variable with no known construction */
    BUILD_OTHER,
    KEY_BUILD_COUNT /* not a construction: how many there are */
} KeyBuild;

typedef enum KeyNamedBy {
    NAMED_SPELLING, /* pk, GSI1SK, a configured name: a key by its name */
    NAMED_KEY_MAP,  /* a property of a primary-key map (Key, Keys, ExclusiveStartKey) */
    NAMED_TABLE,    /* a property of an item, a key when its table says so */
    KEY_NAMED_BY_COUNT /* not a way: how many there are */
} KeyNamedBy;

typedef enum KeySite {
    SITE_WRITE,     /* Item of a put/transact/batch write, command DTOs */
    SITE_READ,      /* Key of get/update/delete, plain objects passed to reads */
    SITE_CONDITION, /* a value in a key condition (query) */
    SITE_OBJECT,    /* an object literal with key attributes, not tied to a call */
    SITE_HELPER,    /* returned by a key helper function (its definition) */
    SITE_ENTITY,    /* an entity's key definition (Turbine defineEntity keys) */
    KEY_SITE_COUNT /* not a site: how many there are */
} KeySite;

typedef enum CondOp {
    COND_NONE,
    COND_EQ,
    COND_BEGINS_WITH,
    COND_BETWEEN,
    COND_LT,
    COND_LE,
    COND_GT,
    COND_GE,
    COND_OP_COUNT /* not an operator: how many there are */
} CondOp;

typedef struct KeyExpr {
    KeyRole role;
    const char *attr;  /* the attribute name, e.g. "GSI1PK"; helper name for SITE_HELPER */
    KeyBuild build;
    KeySite site;
    CondOp cond;       /* SITE_CONDITION: operator applied to this value */
    int op;            /* index of the DataOp in the same file, -1 if none */
    Span span;         /* the value at the key position */
    const char *via;   /* variable the value flowed through, NULL if inline */
    Span via_span;     /* where that variable was assigned */
    /* Extraction only: the attribute is a computed name (`[Keys.PK]`) that
     * resolution settles through a constant ("Keys.PK" here); a key whose
     * name does not resolve to a key attribute is dropped. */
    const char *attr_const;
    /* Extraction only: `...gsiKeys(e, id)` in an object of keys; resolution
     * replaces it with one key per attribute of the object the helper
     * returns (segs hold the call). */
    bool spread;
    /* Extraction only: a call passing text (`save('ORDER#', id)`); when the
     * callee builds keys from its parameters (HelperDef.sinks), resolution
     * replaces it with those keys as this call builds them. */
    bool call_site;
    /* Extraction only: a key of an object literal passed as argument
     * `arg_index` of a call of `arg_of` ("reset", "repo.put"), read where
     * no read or write is known (SITE_OBJECT). When that function's
     * parameter reaches a data operation's Item or Key, itself or handed
     * on to further functions (HelperDef.param_uses), resolution makes it
     * a key written or read there. NULL otherwise. */
    const char *arg_of;
    unsigned arg_index;
    /* Extraction only: an attribute whose name is no key attribute by its
     * spelling (`compoundKey`, `id`, `NAME_OR_CONF`), of a primary-key
     * map (the Key of a get, update or delete: it holds key attributes
     * only) or of an item a write puts. Once the project's tables are
     * known (access_settle_keys) it takes the role its name has in the
     * table of its operation; an item's attribute that is no key there
     * (or whose table is not known) is dropped, a key map's stays (its
     * role unknown: ROLE_KEY). */
    KeyNamedBy named_by;
    /* Written on some items only: the condition as written (`...(parent ?
     * gsiKeys(parent, id) : {})`, `GSI1PK: userId ? ... : undefined` give
     * "parent", "userId"); NULL when every item of its site has it. */
    const char *when;
    /* Resolution only: a key helper's key that no key of the project uses
     * as a table or index key attribute (its value goes elsewhere: a
     * secret's name, a token); its role is a guess. */
    bool no_key_use;
    /* Resolution only: a key whose role comes from a guess at its table:
     * an item written to a table keylint cannot name that holds the whole
     * primary key of a table of the project (access_settle_keys). Rules
     * that need it to be a real key report a warning. */
    bool role_guessed;
    SegList segs;
} KeyExpr;

typedef VEC(KeyExpr) KeyExprList;

/* ---- Data operations ---------------------------------------------------- */

typedef enum OpKind {
    OP_GET,
    OP_QUERY,
    OP_SCAN,
    OP_PUT,
    OP_UPDATE,
    OP_DELETE,
    OP_BATCH_GET,
    OP_BATCH_WRITE,
    OP_TRANSACT_GET,
    OP_TRANSACT_WRITE,
    OP_KIND_COUNT /* not a kind: how many there are */
} OpKind;

typedef enum OpApi {
    API_SDK_V3,      /* @aws-sdk/lib-dynamodb / client-dynamodb commands */
    API_SDK_V2,      /* DocumentClient methods */
    API_MBC_DATA,    /* mbc-cqrs-serverless dataService */
    API_MBC_COMMAND, /* mbc-cqrs-serverless commandService */
    API_MBC_HISTORY, /* mbc-cqrs-serverless historyService */
    API_TURBINE,     /* dynamodb-turbine entities */
    API_DDB_LIB,     /* @ddb-lib TableClient */
    API_APPSYNC,     /* @aws-appsync/utils/dynamodb (JS resolvers) */
    API_WRAPPER,     /* a wrapper declared in .keylint.yml */
    API_TOOLBOX,     /* dynamodb-toolbox entities */
    /* a key condition with its values that names no table: the part of
     * SDK parameters a branch chooses, or what a project's wrapper takes;
     * its keys are read, its table is not known */
    API_SDK_PART,
    API_DATA_MAPPER, /* @aws/dynamodb-data-mapper */
    OP_API_COUNT /* not an API: how many there are */
} OpApi;

typedef enum TableKind {
    TABLE_UNKNOWN,
    TABLE_DATA,
    TABLE_COMMAND,
    TABLE_HISTORY,
    TABLE_KIND_COUNT /* not a kind: how many there are */
} TableKind;

/* A table or index name as code gives it. Any of the parts may be set:
 * `process.env.TABLE_NAME ?? 'app'` has env "TABLE_NAME" and literal
 * "app". */
typedef struct NameRef {
    const char *literal; /* literal text, "${}" for unknown parts; NULL */
    const char *env;     /* environment variable; NULL */
    const char *import;  /* an imported name to look up in its module; NULL */
    const char *from;    /* its module specifier */
    const char *text;    /* the expression as written */
} NameRef;

/* What a data operation's parameters object names, read where the
 * operation is (the tables-in-code pass of extraction, tables.h): table
 * detection (linter/project/access.h) reads it here. */
typedef struct OpParams {
    bool read;              /* a parameters object was read; else all empty */
    bool has_table, has_index;
    NameRef table, index;   /* TableName, IndexName (through constants and
                             * environment defaults) */
    Span table_span, index_span; /* their values in the source */
    StrList names;          /* ExpressionAttributeNames, flat: "#n", "attr", ... */
    const char *filter;     /* FilterExpression as written, NULL */
    /* The ConditionExpression holds only when the item exists: it asks
     * `attribute_exists(...)` with no OR or NOT beside it. An update so
     * conditioned never creates its item. */
    bool must_exist;
    bool scan_index_forward;
    /* Library queries (Turbine `query({ index, pk, type })`, ddb-lib
     * `query({ keyCondition: { pk, sk } })`): every attribute the key
     * condition names, key-like or not. */
    bool library;
    StrList lib_attrs;
} OpParams;

typedef struct DataOp {
    OpKind kind;
    OpApi api;
    Span span;             /* the call / command construction */
    const char *callee;    /* "GetCommand", "dataService.getItem", "docClient.query" */
    const char *function;  /* the named function around it ("truncateTable"), or NULL */
    const char *table;     /* TableName as written (text of a literal, else source) */
    bool table_literal;    /* table is a string literal's value */
    /* resolve: the one text a table written as a name holds (`const TABLE
     * = "Orders"` gives "Orders"), in the file's resolved arena; NULL when
     * none. Two files' `TABLE` are one table only when their texts are. */
    const char *table_value;
    const char *index;     /* IndexName, NULL if none */
    /* Its value in the source, as extraction read it: the assignment of
     * the operation's branch when the parameters were filled in branches
     * (OpParams.index_span is the literal's). Zero when none. */
    Span index_span;
    bool index_literal;    /* index is a string literal's value */
    TableKind table_kind;  /* from the receiver or TableName; refined by resolve */
    const char *key_condition; /* KeyConditionExpression as written, NULL if none */
    Span key_condition_span;   /* its value in the source */
    /* The value is one literal whose text is key_condition byte for byte
     * (no escapes, no substitutions): a clause's offset in key_condition
     * is its place in the source. */
    bool key_condition_exact;
    /* A Query's parameters object is known whole: an object literal with
     * every property named (no spread), written in the call or held by a
     * variable the function uses for nothing but its other properties and
     * this call. Set only for an SDK Query with no key condition, which
     * DynamoDB then rejects. params_span: that object, when set. */
    bool params_closed;
    Span params_span;
    /* Attributes an UpdateExpression sets, and beside each (set_values,
     * as many segments as sets) the one value it SETs when that is a
     * variable, a call or literal text, else a SEG_UNKNOWN segment. Which
     * of them move the item is known once keys are resolved
     * (fileir_op_sets): not those an upsert sets to the value its own Key
     * holds (`Key: { pk: `Ltd#${referrer}` }` with `SET #referrer =
     * :referrer`, :referrer being `referrer`). */
    StrList sets;
    SegList set_values;
    Span update_span;      /* the UpdateExpression's value, when it has one */
    OpParams params;       /* its parameters object, as names */
} DataOp;

/* `r` with its strings copied (copy.h). */
NameRef nameref_copy(Copier *c, NameRef r);
/* The parameters of `op` when an object was read, else NULL. */
const OpParams *op_params(const DataOp *op);
/* The name an ExpressionAttributeNames placeholder ("#pk") stands for in
 * `p`, or `name` itself (also when p is NULL). */
const char *op_param_name(const OpParams *p, const char *name);

/* ---- Project-level facts a file contributes ---------------------------- */

typedef struct Import {
    const char *local;    /* name bound in this file */
    const char *imported; /* name in the source module; "default"; "*" for namespaces */
    const char *source;   /* module specifier as written */
} Import;

typedef VEC(Import) ImportList;

/* A module-level string constant, `as const` object member ("Obj.KEY") or
 * enum member ("Enum.MEMBER"). */
typedef struct ConstDef {
    const char *name;
    SegList value;
    bool exported;
    /* Its value at run time is its initializer, as far as its declaration
     * shows: a `const` declarator, a member of an object literal held by
     * one (no spread in the object, the key written once), an enum member.
     * Not `let`/`var`. (Assignments elsewhere: FileIR.mutated.) */
    bool fixed;
    Span span;
} ConstDef;

/* A function that returns a key: its parameters and what it returns, with
 * each parameter a SEG_REF flagged SEGF_PARAM. */
/* One key attribute of the object a helper returns. */
typedef struct HelperField {
    const char *attr;
    KeyRole role;
    SegList value;
} HelperField;

/* What a function does with one of its parameters that can make its
 * callers' arguments keys: passes it whole as a data operation's Item
 * (`site` SITE_WRITE) or Key (SITE_READ), `callee` NULL; or hands it on
 * as argument `arg` of a call of `callee` (`site` SITE_OBJECT). */
typedef struct ParamUse {
    unsigned param;
    KeySite site;
    const char *callee;
    unsigned arg;
} ParamUse;

/* A value handed whole to a project function whose name says it writes
 * (`this.putItem(item)`, `repo.save(order)`): the callee as resolution
 * looks it up and the argument's index. */
typedef struct ItemCall {
    const char *callee;
    unsigned arg;
} ItemCall;

typedef struct HelperDef {
    const char *name;     /* "generateOrderPk", "Keys.order" for object members,
                           * "Repo.key" and "this.key" for class methods */
    const char **params;
    size_t nparams;
    NameMap param_names;  /* params by name (the first of a name) */
    SegList returns;      /* a returned key; empty when it returns an object */
    VEC(HelperField) fields; /* a returned object of keys ({ GSI2PK, GSI2SK }) */
    /* Keys the function's data operations build from its parameters
     * (`pk: \`${prefix}${id}\``), instantiated at its callers. */
    KeyExprList sinks;
    /* Its parameters that reach a data operation's Item or Key, or are
     * handed on to other functions: its callers' object arguments for
     * them are written or read keys (KeyExpr.arg_of). */
    VEC(ParamUse) param_uses;
    bool exported;
    Span span;
} HelperDef;

/* A comment that mentions keylint (suppression directives). */
typedef struct Comment {
    Span span;
    const char *text;
} Comment;

/* A helper some key of this file calls: the defining file (absolute path)
 * and the helper's name. */
typedef struct HelperUse {
    const char *file;
    const char *name;
    unsigned roles; /* bit 1 << KeyRole of each key whose value calls it */
} HelperUse;

/* A call of a key helper that a key of this file inlines: where the
 * helper is defined (display path, name) and the call. */
typedef struct HelperCall {
    const char *path;
    const char *name;
    Span span;
} HelperCall;

/* A key attribute (or a part of one) whose value is a choice between
 * constants: `pk: admin ? 'ADMIN' : 'USER'`. */
typedef struct ConstChoice {
    Span span;         /* the conditional expression */
    const char *attr;  /* the key attribute when it is the whole value, else NULL */
    int role;          /* its KeyRole, -1 when attr is NULL */
    const char *text;  /* the expression as written */
} ConstChoice;

typedef struct FileIR {
    Arena *arena;         /* extraction's allocations */
    Arena *resolved;      /* resolution's output, replaced at each resolution */
    const char *path;     /* display path */
    bool parse_failed;    /* the file had syntax errors and was skipped */
    /* syn_code_hash of the text: equal for texts that differ only inside
     * comments, whose IRs differ only in positions (and in the keylint
     * comments). */
    uint64_t code_hash;
    /* How long the parse took, in nanoseconds (--stats; not what the file
     * holds). */
    uint64_t parse_ns;
    /* What rules read: the keys after resolution (rebuilt from `extracted`
     * at each resolution, in the `resolved` arena). */
    KeyExprList keys;
    /* The helpers those keys call (in `resolved`). */
    VEC(HelperUse) helper_uses;
    /* Per data operation (ops.n lists, in `resolved`; NULL before
     * resolution): the attributes its UpdateExpression sets to another
     * value than its resolved key holds (fileir_op_sets). */
    StrList *op_sets;
    /* Each call of a helper those keys inline, in the order resolution
     * met them (in `resolved`). */
    VEC(HelperCall) helper_calls;
    /* What project/access.c reads of those keys, computed on first use
     * and dropped at the next resolution (in `resolved`; opaque here), so
     * that a re-analysis reads again only the files it resolved again. */
    struct AccessPart *access_part;
    /* The editor's fold of the access facts (AccessFold) numbers each
     * resolution it has read (0: none yet; reset with access_part): a
     * position whose file still has the number it kept is unchanged. */
    uint64_t access_stamp;
    /* The same for project/facts.c (FileFacts), kept when the analysis
     * asks for it (the language server's). */
    struct FileFacts *facts_part;
    /* What extraction saw in this file alone (segments unresolved). */
    KeyExprList extracted;
    VEC(DataOp) ops;
    ImportList imports;     /* added with fileir_add_import */
    VEC(ConstDef) consts;   /* added with fileir_add_const */
    VEC(HelperDef) helpers; /* added with fileir_add_helper */
    /* consts and helpers by name (fileir_const, fileir_helper) */
    NameMap const_names, exported_const_names, helper_names, exported_helper_names;
    NameMap import_names; /* imports by local name (fileir_import) */
    /* names the file exports from other modules: `export * from './x'`
     * (name "*") and `export { a as b } from './x'`; local names it
     * exports under another (`export { a as b }`, source ""), and an
     * instance it exports (`export const repo = new Repo()`: local
     * "repo", imported "Repo", source ""), whose methods are the class's */
    ImportList reexports;
    VEC(Comment) comments;
    /* The names this file assigns to or mutates: the identifier at the
     * head of every assignment target (`X = v`, `X.a = v`, `X[k] += v`,
     * `X++`, `delete X.a`, destructuring targets) and of the first
     * argument of Object.assign and its kind. A constant of that name,
     * in any module, is not proven to hold its initializer. */
    StrList mutated;
    /* Found by the tables-in-code pass (extract_tables) with the tables:
     * key attributes whose value is a choice between constants, and
     * classes declared here under an SDK command's name (test doubles:
     * their "operations" are not the SDK's). */
    VEC(ConstChoice) choices;
    StrList local_commands;
    /* Calls that hand a value to a project function named for writing
     * (ex_item_calls); resolution sets puts_by_call when one of those
     * functions puts it as a data operation's Item. */
    VEC(ItemCall) item_calls;
    bool puts_by_call;
    /* Tables defined in this file and environment bindings
     * (linter/extract/tables.h), set by extract_tables(); in `arena`. */
    struct FileTables *tables;
} FileIR;

const char *key_role_name(KeyRole r);
const char *key_build_name(KeyBuild b);
const char *key_site_name(KeySite s);
const char *cond_op_name(CondOp c);
const char *op_kind_name(OpKind k);
const char *op_api_name(OpApi a);
const char *table_kind_name(TableKind t);

/* The table an API's calls go to when their receiver says (mbc services). */
TableKind api_table_kind(OpApi api);

bool op_is_read(OpKind k);  /* get, query, scan, batch/transact get */
bool op_is_write(OpKind k); /* put, update, delete, batch/transact write */

/* During extraction a key attribute named by a constant (`[Keys.PK]: v`,
 * `'#pk': Keys.PK` in ExpressionAttributeNames) is written "[Keys.PK]"
 * until resolution settles it. Is `name` such a name: '[' + at least one
 * character + ']'? A lone '[' or '[]' (a string key) is an ordinary name. */
bool attr_is_deferred(const char *name);
/* The constant a deferred name stands for ("Keys.PK"), copied into `a`;
 * NULL when `name` is not a deferred name. */
const char *attr_deferred_const(Arena *a, const char *name);

/* Add a constant or a helper to a file (extraction), keeping the index of
 * names that fileir_const and fileir_helper read. The pointer returned is
 * valid until the next addition. */
ConstDef *fileir_add_const(FileIR *ir, ConstDef c);
void fileir_add_import(FileIR *ir, Import im);
/* The file's first import binding `local`, NULL if none. */
const Import *fileir_import(const FileIR *ir, const char *local);
HelperDef *fileir_add_helper(FileIR *ir, HelperDef h);
/* The file's first constant (helper) named `name`, with `exported_only`
 * its first exported one; NULL if none. No scan: by the index. */
const ConstDef *fileir_const(const FileIR *ir, const char *name, bool exported_only);
HelperDef *fileir_helper(const FileIR *ir, const char *name, bool exported_only);

/* The import binding the first component of `name` ("keys" of
 * "keys.orderPk"; a component of 256 bytes or more is cut), NULL if none:
 * how resolution follows a name out of the file. */
const Import *fileir_import_head(const FileIR *ir, const char *name);
/* Can resolution find a helper named `name` ("save", "repo.save",
 * "this.save") from this file: a helper of its own, or a name reached
 * through one of its imports, and not one of its constants (lookup in
 * project/resolve.c looks in this order)? */
bool fileir_may_reach_helper(const FileIR *ir, const char *name);

/* The IR of a file copied into the Copier's arena (c->to, which becomes
 * the copy's `arena`), with nothing of the scratch extraction left in the
 * old one: extraction calls it once a file is read, then frees the old
 * arena. `tables` is left NULL (its types are extraction's: tables_copy);
 * `resolved`, keys and helper_uses must still be empty. */
FileIR *fileir_copy(Copier *c, const FileIR *ir);
SegList copy_seglist(Copier *c, const SegList *l);
KeyExprList copy_keys(Copier *c, const KeyExprList *l);

/* The attributes data operation `op` of `ir` changes: once resolved,
 * ops.v[op].sets without those an upsert sets to the value its own key
 * holds; before, all of them. */
const StrList *fileir_op_sets(const FileIR *ir, size_t op);

/* Whether key segment `s` is the value `val` an update SETs: the same
 * variable or call (of the same case, unless `s` is passed to a helper:
 * `symbol` passed, `symbol.toUpperCase()` SET); for a call that is not
 * inlined (`Key: rateKey(userId, action)`), one of the values passed to
 * it; for text (`'HASHTAG'`), a whole component of the key's text
 * (`AGG#HASHTAG#`: bounded by its ends or by characters that are not
 * letters, digits or `_`). */
bool seg_holds_value(const Seg *s, const Seg *val);

/* Segment list helpers (arena-backed). */
void seglist_push(Arena *a, SegList *l, Seg s);
void seglist_append(Arena *a, SegList *dst, const SegList *src);

/* Apply SEGF_UPPERCASE / SEGF_LOWERCASE (`flags`) to the segments from
 * `from` on: text changes case (copied into `a`), values keep the flag. */
void seglist_case(Arena *a, SegList *l, size_t from, uint32_t flags);

/* The key rendered as a pattern: text as is, values as {name}, calls as
 * {callee()}, unknown as {?}. E.g. "ORDER#{tenantCode}". */
char *seglist_render(Arena *a, const SegList *l);
/* The same as messages show it: cut after SEGLIST_LABEL_MAX bytes, with
 * "..." for the rest, so that a message stays short whatever the key. */
enum { SEGLIST_LABEL_MAX = 200 };
char *seglist_label(Arena *a, const SegList *l);

#endif
