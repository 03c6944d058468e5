/* Tables in code, and what the access-pattern rules need from a file's
 * syntax that the IR's DataOp does not carry: found by one extra tree pass
 * during extraction (extract_tables, called at the end of extract_file),
 * kept in FileIR.tables (the file's arena).
 *
 *   tables    CDK `new Table/TableV2(scope, id, {...})` with
 *             addGlobalSecondaryIndex/addLocalSecondaryIndex on the table's
 *             variable, CfnTable, CreateTableCommand/createTable, Turbine
 *             defineTable({ indexes }), dynamodb-toolbox `new Table({...})`,
 *             ddb-lib `new TableClient({...})`
 *   env       CDK `environment: { TABLE_NAME: table.tableName }` and
 *             `fn.addEnvironment('TABLE_NAME', table.tableName)`
 *   params    for each params object of a data operation: TableName and
 *             IndexName as names (through constants and environment
 *             defaults), ExpressionAttributeNames, FilterExpression,
 *             ScanIndexForward; set on the DataOps (DataOp.params, ir.h)
 *   ...       Turbine entities and their table, module constants that
 *             name tables, ternaries of constants in key positions, local
 *             classes that stand in for SDK commands (test doubles).
 *
 * Rules do not read this directly; linter/access.h does. */
#ifndef KEYLINT_TABLES_H
#define KEYLINT_TABLES_H


#include "config.h"
#include "ir.h"
#include "schema.h"
#include "scope.h"
#include "syntax.h"

/* A module-level constant that may name a table or an index. */
typedef struct NameConst {
    const char *name;
    bool exported;
    NameRef ref;
} NameConst;

/* `const posts = defineEntity({ table: appTable, ... })` (Turbine). */
typedef struct EntityTable {
    const char *entity; /* "posts" */
    const char *table;  /* the table's expression as written: "appTable" */
    Span span;          /* the defineEntity call (its keys are inside) */
} EntityTable;

/* add{Global,Local}SecondaryIndex on something that is not a table
 * variable of this file (`props.table.addGlobalSecondaryIndex(...)`), or an
 * index an UpdateTable call creates. */
typedef struct IndexCall {
    const char *receiver;
    /* UpdateTable's TableName (the receiver is then that name as written):
     * the index joins the table of that name, wherever it is defined */
    const char *table_name;
    bool readable;      /* the index could be read */
    TableIndex index;
} IndexCall;

typedef struct FileTables {
    TableSet set; /* code tables, environment bindings, their issues */
    VEC(NameConst) consts;
    VEC(EntityTable) entities;
    VEC(IndexCall) index_calls;
} FileTables;

/* The pass; sets ir->tables (never NULL afterwards). `src` is the file's
 * text with the IR's arena. */
void extract_tables(const SynTree *syn, Scopes *scopes, Arena *a, FileIR *ir,
                    const Config *cfg);

/* `ft` copied into c->to (copy.h): extraction keeps the copy once the
 * file is read. */
FileTables *tables_copy(Copier *c, const FileTables *ft);


#endif
