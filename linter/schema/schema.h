/* The table model: which DynamoDB tables a project has, their key
 * attributes, their indexes, and which environment variables name them.
 *
 * Tables come from schema files (CloudFormation and SAM templates and
 * Serverless Framework serverless.yml, YAML or JSON, read with libyaml;
 * see docs/schemas.md) and from code (CDK, CreateTableCommand, Turbine
 * defineTable, dynamodb-toolbox and ddb-lib tables; linter/tables.c). Every
 * element keeps the file and position it was read from, so that findings
 * about it point there.
 *
 * Both readers build the same small document tree (DocNode) first: one
 * reader of the CloudFormation table shape (`KeySchema`,
 * `AttributeDefinitions`, `GlobalSecondaryIndexes`, ...) then serves
 * templates, CDK's CfnTable and the SDK's CreateTable parameters alike.
 *
 * Everything here lives in the arena it was built in. */
#ifndef KEYLINT_SCHEMA_H
#define KEYLINT_SCHEMA_H

#include "common.h"
#include "copy.h"

/* ---- Document trees ------------------------------------------------------ */

typedef enum DocKind {
    DOC_NULL,   /* an empty or null value */
    DOC_SCALAR, /* a string, number or boolean: `text` */
    DOC_SEQ,    /* a list: vals[0..n) */
    DOC_MAP,    /* a mapping: keys[i] -> vals[i], i < n (keys are scalars) */
    DOC_OPAQUE, /* a value that cannot be read statically (code: a call, a
                 * variable); `text` is its source */
} DocKind;

typedef struct DocNode DocNode;
struct DocNode {
    DocKind kind;
    /* An intrinsic function, normalised: "Ref", "Fn::Sub", "Fn::GetAtt",
     * "Fn::If", "Fn::Join", ... for both `!Sub x` and `{"Fn::Sub": x}`;
     * NULL for plain values. */
    const char *tag;
    const char *text;
    Span span;        /* 0-based row, byte column, in `path` */
    DocNode **keys;
    DocNode **vals;
    size_t n;
    bool partial;     /* code: a spread or computed member may add entries */
    /* a large mapping read from a file: the position of each key's first
     * entry, so that doc_get does not scan; NULL otherwise */
    const NameMap *index;
};

/* The value of `key` in a mapping; NULL if absent or `map` is no mapping.
 * With `ci`, the first letter's case is ignored (`KeySchema` and CDK's
 * `keySchema`). */
const DocNode *doc_get(const DocNode *map, const char *key, bool ci);
/* A scalar's text, NULL for anything else. */
const char *doc_scalar(const DocNode *n);

/* ---- The model -------------------------------------------------------- */

typedef enum AttrType {
    ATTR_UNKNOWN = 0,
    ATTR_S,
    ATTR_N,
    ATTR_B,
    ATTR_TYPE_COUNT /* not a type: how many there are */
} AttrType;

/* A key attribute. `name` NULL: none (a table without sort key). */
typedef struct KeyAttr {
    const char *name;
    AttrType type;
    bool unknown; /* present, but not readable (a variable, a condition) */
    Span span;    /* where it is named */
} KeyAttr;

typedef enum IndexKind {
    INDEX_GLOBAL,
    INDEX_LOCAL,
    INDEX_KIND_COUNT /* not a kind: how many there are */
} IndexKind;

/* A global index's key may be made of up to this many HASH and as many
 * RANGE attributes (multi-attribute keys); a table's and a local index's
 * key has one of each at most. */
enum { MAX_KEY_ATTRS = 4 };

typedef struct TableIndex {
    const char *name;
    IndexKind kind;
    KeyAttr pk, sk;         /* a local index's pk is the table's; for a
                             * multi-attribute key, its first attributes */
    /* A multi-attribute key's further HASH and RANGE attributes, in
     * KeySchema order; name NULL (and not unknown) past the last. */
    KeyAttr pk_more[MAX_KEY_ATTRS - 1], sk_more[MAX_KEY_ATTRS - 1];
    const char *projection; /* ALL, KEYS_ONLY, INCLUDE; NULL when not said */
    StrList projected;      /* INCLUDE: the non-key attributes */
    Span span;
} TableIndex;

typedef enum TableSource {
    TSRC_CLOUDFORMATION, /* AWS::DynamoDB::Table / GlobalTable in a template */
    TSRC_SAM_SIMPLE,     /* AWS::Serverless::SimpleTable */
    TSRC_CDK,            /* new Table / TableV2 (aws-cdk-lib) */
    TSRC_CDK_CFN,        /* new CfnTable / CfnGlobalTable */
    TSRC_SDK,            /* CreateTableCommand / createTable */
    TSRC_TURBINE,        /* defineTable (dynamodb-turbine) */
    TSRC_TOOLBOX,        /* new Table (dynamodb-toolbox) */
    TSRC_DDB_LIB,        /* new TableClient (@ddb-lib/client) */
    TSRC_SST,            /* new Table (sst/constructs): primaryIndex, globalIndexes */
    TSRC_TERRAFORM,      /* resource "aws_dynamodb_table" / the dynamodb-table module */
    TSRC_COUNT           /* not a source: how many there are */
} TableSource;

typedef struct TableDef {
    const char *id;    /* logical id (template), construct id or variable */
    const char *var;   /* code: the variable that holds it ("table",
                        * "this.table"), NULL otherwise */
    /* The physical name as far as it is known: literal text, with
     * "${...}" for the parts only known at deploy time
     * ("${AWS::StackName}-orders"); NULL when unknown. */
    const char *name;
    KeyAttr pk, sk;
    VEC(TableIndex) indexes;
    /* Indexes may exist that were not seen (a condition, a spread, a loop,
     * an addGlobalSecondaryIndex call that could not be read): a query
     * on an index not listed is then not judged. */
    bool indexes_open;
    TableSource source;
    const char *path;  /* display path of the file it is defined in */
    Span span;
    /* A client library's description (Turbine, dynamodb-toolbox, ddb-lib)
     * of a table the model also has from a schema or infrastructure code
     * (same name, or same keys): that table. Not counted as a table of its
     * own. */
    const struct TableDef *same_as;
} TableDef;

/* An environment variable that names a table (`TABLE_NAME: !Ref Orders`,
 * CDK `environment: { TABLE_NAME: table.tableName }`). */
typedef struct EnvBinding {
    const char *var;      /* TABLE_NAME */
    const char *table_id; /* the table's logical id or variable, or NULL */
    const char *name;     /* a name (pattern) given directly, or NULL */
    const char *path;
    Span span;
} EnvBinding;

/* A mistake in a table definition (a key attribute without definition, an
 * index without partition key, ...): reported by the `schema` rule. */
typedef struct SchemaIssue {
    const char *path;
    Span span;
    const char *message;
} SchemaIssue;

/* Tables, environment bindings and issues from one source. */
typedef struct TableSet {
    VEC(TableDef) tables;
    VEC(EnvBinding) env;
    VEC(SchemaIssue) issues;
    /* Terraform `aws_dynamodb_global_secondary_index` resources whose
     * table is defined in another file: the table they name
     * ("aws_dynamodb_table.<id>" or its literal name). That table has
     * indexes this file's reader did not attach (schema_open_indexes). */
    StrList loose_indexes;
} TableSet;

/* The tables one configuration sees: its schema files plus the tables
 * defined in the code it governs. */
typedef struct TableModel {
    const char *config;    /* the configuration file, NULL for defaults */
    TableSet set;
    StrList schema_files;  /* display paths of the schema files read */
    /* Per set.tables entry: some partition key the code writes or queries
     * on that table carries a tenant. Filled by the analysis
     * (access_mark_tenants, linter/project/access.h) when the model has
     * two tables or more; NULL otherwise. */
    bool *tenanted;
    /* set.tables by logical id (the first of an id), by variable (the
     * first) and by the variable's last component (the last), once the
     * model is complete (access_model); empty maps: look by scanning */
    NameMap by_id, by_var, by_var_tail;
    /* set.env by variable: the first binding of each, the next with the
     * same variable in env_next (SIZE_MAX: none); and the tables by the
     * stems of their id, variable and name (access.c's name_stem):
     * stem_table[k] for the stem mapped to k, SIZE_MAX when several
     * tables have it. Empty maps: look by scanning. */
    NameMap env_by_var, by_stem;
    size_t *env_next, *stem_table;
} TableModel;

/* Copies into c->to (copy.h): what a file's tables in code keep once it
 * is extracted. same_as is not copied (the analysis sets it later). */
TableIndex tableindex_copy(Copier *c, const TableIndex *ix);
TableSet tableset_copy(Copier *c, const TableSet *set);

/* ---- Reading schema files ------------------------------------------------ */

/* Read one schema file (CloudFormation/SAM template or serverless.yml,
 * YAML or JSON) and add its tables, environment bindings and issues to
 * `out` (strings in `a`). `display` is the path used in findings. A file
 * that cannot be read or parsed adds one Problem (with line and column
 * where there is one) and returns false; a file that parses but holds no
 * DynamoDB table adds an issue. */
bool schema_load_file(Arena *a, const char *path, const char *display, TableSet *out,
                      Problems *problems);

/* Read the CloudFormation shape of a table's properties (`TableName`,
 * `KeySchema`, `AttributeDefinitions`, `GlobalSecondaryIndexes`,
 * `LocalSecondaryIndexes`; first letters in either case) into `t`, and
 * check it: issues go to `out`. Used for templates, CDK CfnTable and the
 * SDK's CreateTable parameters. `t->id`, `path` and `span` are set by the
 * caller. */
void schema_read_cfn_table(Arena *a, const DocNode *props, TableDef *t, TableSet *out);

/* Read the indexes an UpdateTable input creates (`GlobalSecondaryIndexUpdates`
 * entries with `Create`) into `t->indexes`; an entry that cannot be read sets
 * `t->indexes_open`. Deletes and updates are not read. */
void schema_read_index_updates(Arena *a, const DocNode *props, TableDef *t, TableSet *out);

/* Read the tables of a Terraform file (`resource "aws_dynamodb_table"`, the
 * terraform-aws-modules dynamodb-table module) and the environment
 * variables that name them into `out` (terraform.c). A table of a module
 * named by the module's input (`name = var.table_name`) gets the name the
 * module's callers around `fs_path` (the file on disk; NULL: not looked
 * for) give it when they all give the same, else the input's default.
 * False when the file could not be parsed (a problem says why). */
/* Mark the Terraform tables of `set` that an index resource of another
 * file names (set->loose_indexes) as having indexes not listed
 * (TableDef.indexes_open): a query on one of those is not judged. */
void schema_open_indexes(TableSet *set);

bool schema_read_terraform(Arena *a, const char *display, const char *fs_path,
                           const char *text, size_t len, TableSet *out, Problems *problems);

/* Checks shared by every source: duplicate index names, local indexes on
 * another partition key, indexes without partition key. */
void schema_check_table(Arena *a, const TableDef *t, TableSet *out);
/* A table or index name DynamoDB takes: 3 to 255 of a-z, A-Z, 0-9, _ - . */
bool schema_valid_name(const char *s);

void schema_issue(Arena *a, TableSet *out, const char *path, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* ---- Reading the model ------------------------------------------------- */

/* Attribute i (0-based) of index ix's partition key (`sort` false) or
 * sort key (`sort` true): pk / sk for i = 0, then the further attributes
 * of a multi-attribute key; NULL past the last. */
const KeyAttr *index_key_attr(const TableIndex *ix, bool sort, size_t i);

/* The index `name` of `t` (exact), NULL if none. */
const TableIndex *table_find_index(const TableDef *t, const char *name);

/* "AppTable", or "AppTable (app-table)" when the name says more. */
const char *table_label(Arena *a, const TableDef *t);

/* Whether two table names can be the same table: equal, or equal where
 * either has a "${...}" part (which matches anything). */
bool table_names_match(const char *a, const char *b);

#endif
