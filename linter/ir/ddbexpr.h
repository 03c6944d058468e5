/* DynamoDB expression strings: KeyConditionExpression and UpdateExpression.
 * Names (`#n`) and value placeholders (`:v`) are returned as written; the
 * caller maps them through ExpressionAttributeNames/Values. */
#ifndef KEYLINT_DDBEXPR_H
#define KEYLINT_DDBEXPR_H

#include "ir.h"

typedef struct KeyCond {
    const char *attr;     /* attribute name or #placeholder */
    CondOp op;
    const char *values[2]; /* :placeholders; values[1] only for BETWEEN */
    uint32_t offset, len;  /* the clause's bytes in the expression */
} KeyCond;

typedef struct KeyConds {
    VEC(KeyCond) items;
} KeyConds;

/* Parse `pk = :pk AND begins_with(#sk, :p)`, `sk BETWEEN :a AND :b`,
 * `#sk >= :from`, with parentheses and any case of keywords. Returns false
 * (and whatever it parsed so far) on a malformed expression. */
bool ddb_parse_key_condition(Arena *a, const char *expr, KeyConds *out);

/* Attribute names (first path element, `#n` placeholders as written) that
 * an UpdateExpression's SET, REMOVE, ADD and DELETE clauses change; not
 * `x = if_not_exists(x, :v)`, which only sets x when the item is created. */
bool ddb_parse_update_targets(Arena *a, const char *expr, StrList *out);
/* The same, with `values` (parallel to `out`): for an attribute the
 * expression SETs once to one placeholder (`#status = :status`), that
 * placeholder; NULL for anything else (an expression, a REMOVE, set
 * twice). */
bool ddb_parse_update_sets(Arena *a, const char *expr, StrList *out, StrList *values);

#endif
