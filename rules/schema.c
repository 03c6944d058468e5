/* schema: mistakes in a table definition, in a schema file (a KeySchema
 * attribute missing from AttributeDefinitions, an index without HASH key,
 * an unknown KeyType, ...) or in code (a CDK index without partitionKey,
 * a Turbine defineTable without its 'table' index). The definitions are
 * read by linter/schema/schema.c and linter/extract/tables.c; this rule reports what they
 * found: issues of tables in code with the file that defines them, issues
 * of schema files once per configuration (check_project). A schema file
 * that cannot be read or parsed is an input problem instead (exit 2). */
#include "access.h"
#include "rule.h"

static void check(const RuleContext *ctx)
{
    const TableSet *set = access_file_tables(ctx->file);
    for (size_t i = 0; set && i < set->issues.n; i++)
        rule_report(ctx, set->issues.v[i].span, "%s", set->issues.v[i].message);
}

static void check_project(const RuleContext *ctx)
{
    const TableModel *m = ctx->tables;
    if (!m)
        return;
    for (size_t i = 0; i < m->set.issues.n; i++) {
        const SchemaIssue *is = &m->set.issues.v[i];
        rule_report_at(ctx, is->path, is->span, "%s", is->message);
    }
}

const RuleDesc rule_schema = {
    .id = "schema",
    .summary = "a table definition DynamoDB would reject or keylint cannot use (schema files "
               "and tables in code)",
    .default_severity = SEV_ERROR,
    .check = check,
    .check_project = check_project,
};
