/* Access facts: what the access-pattern and key-design rules read, built
 * once per analysis from the IR, the tables found in code (tables.h) and
 * the schema files (schema.h):
 *
 *   - the table model of each configuration (its `schemas:` plus the
 *     tables defined in the code it governs);
 *   - for a data operation: the table it runs on and the index it
 *     queries, and every attribute its key condition names;
 *   - project-wide: the key shapes that writes produce (unmatched-query,
 *     unserved-access-pattern), whether sort keys carry versions, the
 *     entity prefixes in use and their case.
 *
 * Everything lives in the arena given to the builders (the project's
 * analysis arena) and borrows strings from the files' IR: valid until the
 * next analysis or until a file of the project is replaced. */
#ifndef KEYLINT_ACCESS_H
#define KEYLINT_ACCESS_H

#include <stdio.h>

#include "config.h"
#include "ddbexpr.h"
#include "files.h" /* file_display_path: the paths the model shows */
#include "ir.h"
#include "keyfacts.h"
#include "schema.h"
#include "tables.h"

/* A key some write, entity definition or key helper produces. */
typedef struct WrittenKey {
    const char *attr;  /* the attribute; for a helper, its name */
    KeyRole role;
    const char *shape; /* kf_shape: "ORDER#{}" */
    bool helper;       /* a helper's definition: its attribute is not known */
    const FileIR *file; /* where it is written */
    int op;            /* its data operation in that file, -1 if none */
    Span span;         /* the key */
    bool guessed;      /* its table a guess (KeyExpr.role_guessed): it matches
                        * queries, but shows no attribute is written */
} WrittenKey;

/* An entity prefix token and how many keys start with it. */
typedef struct PrefixUse {
    const char *token; /* "ORDER", "user" */
    size_t keys;
    bool prefix;       /* some key has more after it (ORDER#x), not just 'ORDER' */
} PrefixUse;

typedef VEC(size_t) FileList;

typedef struct AccessFacts {
    FileIR *const *files; /* the analysed files (borrowed) */
    size_t nfiles;
    VEC(WrittenKey) written; /* sorted by attribute and shape */
    /* The same, each (attribute, shape) once and helpers left out: what
     * shapes are compared with. */
    VEC(WrittenKey) shapes;
    const char **shape_texts; /* their shapes, in the same order */
    /* Key helpers' definitions, each (role, shape) once. */
    VEC(WrittenKey) helpers;
    /* Their shapes sorted (for access_some_compatible), and their roles. */
    const char **helper_shapes;
    KeyRole *helper_roles;
    /* Attributes an UpdateExpression sets somewhere (`SET GSI1PK = :v`):
     * their values are not among the written keys, so they may hold
     * anything. */
    StrList updated;
    /* Sort keys carry versions (addSortKeyVersion, VER_SEPARATOR, a
     * version tail, or the mbc-cqrs-serverless services). */
    bool versioned;
    /* Table partition keys written with an entity prefix, and the tables
     * they are written to: the operation's TableName as written, "" for
     * key helpers and object literals, "entity:" for entity definitions. */
    size_t prefixed_pks;
    StrList prefixed_tables;
    VEC(PrefixUse) prefixes; /* sorted by token */
    /* the same, sorted by token ignoring case (then by token) */
    const PrefixUse **prefixes_by_fold;
    /* Files by the stem of their name ("keys" of src/keys.ts), and the
     * index.* files: the modules an import may name. Exported table-name
     * constants (tables.h) by name. Lists of indices in files, each in
     * file order. */
    NameMap files_by_stem, table_consts;
    /* The first file with an entity of each name (its last component:
     * `Posts` of `entities.Posts`). */
    NameMap entity_files;
    VEC(FileList) lists;
    FileList index_files;
} AccessFacts;

/* The use of prefix `tok`, NULL when no key starts with it. */
const PrefixUse *access_prefix(const AccessFacts *af, const char *tok);
/* The prefixes that are `tok` but for case (tok itself too, when used),
 * as a run of af->prefixes_by_fold: its length, and its start in *out. */
size_t access_prefix_spellings(const AccessFacts *af, const char *tok, const PrefixUse ***out);

void access_compute(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                    const Config *cfg);
/* The same, taking the index of names (files by stem, exported table-name
 * constants, entities) from `index`, made by access_index_only over the
 * same files in `a` or an arena that outlives it (NULL: made here). */
void access_compute_indexed(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                            const Config *cfg, const AccessFacts *index);

/* The editor's access facts, kept between its analyses (like facts.h's
 * FactsFold): the index of names and the sorted list of written keys are
 * kept with, for each file's position, the resolution they were read
 * from (FileIR.access_stamp). An analysis reads again only the positions
 * whose file was resolved again: their written keys are taken out of the
 * kept list and their new ones merged in, in the order access_compute
 * gives (attribute, shape, helper last, then file order); the index of
 * names is kept unless such a file's path, exported table-name constants
 * or entities changed. Everything is made again when the number of files
 * changes. The facts an analysis builds read the fold until the next
 * call (af->written borrows its list). Made at the first call, freed with
 * access_fold_free by the caller. */
typedef struct AccessFold AccessFold;
void access_index_keeping(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                          AccessFold **fold);
void access_compute_keeping(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                            const Config *cfg, const AccessFacts *index, AccessFold **fold);
void access_fold_free(AccessFold *fold);

/* The templates found for each configuration that names no `schemas:`
 * (template.yaml, serverless.yml near its directory, or the git work tree
 * under the defaults): looked for once per configuration and kept, in
 * `arena`, by whoever keeps the configurations (the project). */
typedef struct FoundTemplates {
    const Config *config;
    StrList paths; /* absolute */
} FoundTemplates;
/* A schema file as schema_load_file read it: its tables, bindings and
 * issues, and the problems it made. */
typedef struct SchemaRead {
    const char *path, *display;
    bool ok;
    TableSet set;
    Problems problems;
} SchemaRead;
typedef struct TemplateCache {
    Arena *arena;
    VEC(FoundTemplates) v;
    const char *base; /* under the defaults, outside a git work tree: where
                       * to look (the directory linted); NULL: the files'
                       * common directory */
    /* With `memo` (the language server's analyses), each schema file
     * (named or found) is read once and kept in `memo_arena` until the
     * owner drops them (templates_forget: an analysis of every file, after
     * a configuration, schema, tsconfig or package.json changed); the
     * analyses between read none. */
    bool memo;
    Arena *memo_arena;
    VEC(SchemaRead) reads;
} TemplateCache;

/* The table model of configuration `cfg`: its schema files (relative to
 * its directory; problems reading them go to `problems`), and the tables
 * and environment bindings of the files it governs (`cfgs[i]` is file i's
 * configuration, `abspaths[i]` its canonical absolute path, as realpath
 * gives it; NULL: found now). Issues found in schema files are in the model's set;
 * issues of tables in code stay with their file (FileIR.tables). Without
 * `schemas:`, the templates a project usually has are read (found once,
 * through `cache` when given). */
TableModel *access_model(Arena *a, const Config *cfg, FileIR *const *files,
                         const Config *const *cfgs, const char *const *abspaths, size_t n,
                         Problems *problems, TemplateCache *cache);

/* The tables, environment bindings and issues of tables in code that file
 * `f` defines; NULL when extraction found none. */
const TableSet *access_file_tables(const FileIR *f);

/* What a data operation runs on. */
typedef struct OpTarget {
    const TableDef *table;   /* NULL when not known */
    const char *how;         /* how the table was found, for messages */
    /* The operation names a table (TableName, an environment variable)
     * that the model does not have: another service's table. */
    bool foreign;
    /* The table was matched by the likeness of a name (an environment
     * variable POSTS_TABLE and a table PostsTable), or is the project's
     * only table standing in for a TableName keylint cannot read (a
     * parameter), not by a binding, a name or the configuration: what
     * rests on it is a guess, and an error that rests on it is a warning
     * (rule_unproven). */
    bool guessed;
    bool has_index;          /* the operation names an index */
    const char *index;       /* its name when it could be read */
    Span index_span;         /* where it is named (else the operation) */
    const TableIndex *ix;    /* the index, when the table has it */
    /* The keys a key condition must use: the index's, else the table's
     * (NULL names when not known). */
    const KeyAttr *pk, *sk;
} OpTarget;

void access_target(Arena *a, const AccessFacts *af, const TableModel *m, const Config *cfg,
                   const FileIR *f, size_t op, OpTarget *out);

/* The part of the access facts that finding an operation's table reads
 * (names of files, exported table-name constants, entities): enough for
 * access_target before the keys are settled. access_compute builds it
 * again with the rest. */
void access_index_only(AccessFacts *af, Arena *a, FileIR *const *files, size_t n);

/* Settle the key candidates of file `f` (KeyExpr.named_by): an attribute
 * of an item is a key when the table its operation writes (found with
 * `af` and model `m`) has a key of that name, with that role, and is
 * dropped otherwise; an attribute of a key map stays a key, with the role
 * its table (or every table of the model that has it) gives it, else
 * ROLE_KEY. In place, in f->keys; true when `f` had candidates. Run after
 * resolution and before the facts read the keys. */
bool access_settle_keys(Arena *a, const AccessFacts *af, const TableModel *m, const Config *cfg,
                        const NameMap *queried, FileIR *f);
/* The key attributes that the key conditions of files[0, n) name, by the
 * operation's TableName as written ("TABLE_NAME\x1fpkey" -> role + 1; 0
 * where they disagree): what access_settle_keys reads an item's attribute
 * with when keylint cannot name its table. */
void access_queried_keys(Arena *a, FileIR *const *files, size_t n, NameMap *out);

/* Multi-tenancy per table: mark in m->tenanted the tables on which some
 * operation of the files `cfg` governs (cfgs[i] == cfg) has a partition
 * key with a tenant. A project with a tenant table and a table of global
 * reference data (a framework registry, a price list) is multi-tenant
 * only on the first. Nothing is marked for a model of fewer than two
 * tables: the project-wide fact says it all. */
void access_mark_tenants(Arena *a, const AccessFacts *af, TableModel *m, const Config *cfg,
                         FileIR *const *files, const Config *const *cfgs, size_t n);

/* Whether table `t` of model `m` is known to hold no tenant's keys: the
 * model has tenancy per table and no partition key on `t` (or the table
 * it describes, same_as) carries a tenant. */
bool access_table_untenanted(const TableModel *m, const TableDef *t);

/* The table of a Turbine entity whose defineEntity call in `f` holds
 * `span` (its key definitions), NULL if none is known. */
const TableDef *access_entity_table(const TableModel *m, const FileIR *f, Span span);

/* One attribute of a query's key condition. */
typedef struct OpCond {
    const char *attr;    /* after ExpressionAttributeNames */
    CondOp op;           /* COND_NONE: a library query names it, operator unknown */
    const KeyExpr *key;  /* its value, NULL when not seen */
    Span span;           /* the value, else the operation */
    /* The clause in the KeyConditionExpression (`begins_with(pk, :p)`) when
     * the expression is one plain literal, else the expression, else span. */
    Span clause;
} OpCond;

typedef VEC(OpCond) OpConds;

/* Where clause `c` of op's KeyConditionExpression (ddb_parse_key_condition)
 * is written: its bytes when the expression is one plain literal, else the
 * expression. */
Span access_clause_at(const DataOp *op, const KeyCond *c);

/* The attributes the key condition of ops[op] names, each once (the
 * first occurrence), from the resolved keys, the KeyConditionExpression
 * and library queries. `*complete` is false when some could not be read
 * (a placeholder without a name, a spread). `keys`: the file's
 * kf_op_keys, when it is asked for many operations (NULL: built here). */
size_t access_conditions(Arena *a, const FileIR *f, const KfOpKeys *keys, size_t op,
                         OpCond **out, bool *complete);

/* Whether a key of shape `query` ("ORDER#{}", holes as "{}") can be one a
 * write of shape `written` produces; with `prefix`, whether some written
 * key can begin with it (begins_with). Judged on the literal text before
 * the first hole and, for whole keys, after the last: a hole matches
 * anything. */
bool access_shapes_compatible(const char *query, const char *written, bool prefix);

/* Whether some shape of `ws` (n of them, sorted by strcmp) is compatible
 * with `query` (access_shapes_compatible) and, when `ok` is not NULL,
 * ok(ctx, i) holds for it. Only the shapes whose literal start is a prefix
 * of the query's, or begins with it, are compared: found by bisection. */
bool access_some_compatible(const char *const *ws, size_t n, const char *query, bool prefix,
                            bool (*ok)(const void *ctx, size_t i), const void *ctx);

/* The written shapes of attribute `attr` (helpers excluded), distinct and
 * sorted, at most `max` (0: all): a run of af->shape_texts. */
size_t access_written_shapes(const AccessFacts *af, const char *attr, size_t max,
                             const char *const **out);

/* Every key written to `attr` (helpers excluded): af->written.v[*from ..
 * *from + return). */
size_t access_writes_of(const AccessFacts *af, const char *attr, size_t *from);

/* How (and whether) a declared access pattern is served. */
typedef enum ServeState {
    SERVE_NO,    /* no key or index can serve it */
    SERVE_MAYBE, /* a key or index may: what its attributes hold is not seen */
    SERVE_YES,   /* a key or index holds keys of the pattern's shape */
} ServeState;

typedef struct PatternServe {
    ServeState state;
    const TableDef *table;
    const TableIndex *index; /* NULL: the table's own keys */
    const char *detail;      /* what serves it, or why nothing does */
} PatternServe;

void access_serve(Arena *a, const AccessFacts *af, const TableModel *m,
                  const AccessPattern *ap, PatternServe *out);

/* `keylint --access-patterns`: every declared access pattern of the
 * project's configurations and what serves it. Returns the number of
 * patterns nothing serves. */
struct Project;
size_t access_print_patterns(FILE *out, const struct Project *p);

/* A key defined here: written, an entity's or a helper's definition, an
 * object literal of keys, an update's Key (an upsert), and not merely the
 * inlined output of a helper (judged at the helper). The key-design rules
 * judge these. */
bool access_defines_key(const FileIR *f, const KeyExpr *k);

/* The table a key is written to, as AccessFacts.prefixed_tables names
 * it: the text its TableName holds once resolved (`TABLE` of two files
 * holding "Users" and "Otp" are two tables), else as written; "entity:"
 * for an entity's key, "" when unknown. */
const char *access_key_table_text(const FileIR *f, const KeyExpr *k);

/* A date or time hole: kf_hole_is_date, or an expression that makes one
 * (`new Date().toISOString().slice(0, 10)`, `dayjs().format(...)`). */
bool access_hole_is_date(Arena *a, const Seg *s);

#endif
