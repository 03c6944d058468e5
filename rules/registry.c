/* The rule registry: every rule descriptor, in id order, and the
 * documentation pages embedded at build time (scripts/embed_docs.py turns
 * docs/rules/<id>.md into rule_docs.c). */
#include <string.h>
#include <threads.h>

#include "rule.h"

extern const RuleDesc rule_complex_key;
extern const RuleDesc rule_key_condition_attribute;
extern const RuleDesc rule_low_cardinality_pk;
extern const RuleDesc rule_magic_string;
extern const RuleDesc rule_missing_delimiter;
extern const RuleDesc rule_missing_prefix;
extern const RuleDesc rule_missing_tenant;
extern const RuleDesc rule_mixed_separator;
extern const RuleDesc rule_mutable_key_field;
extern const RuleDesc rule_partition_key_range;
extern const RuleDesc rule_prefix_case;
extern const RuleDesc rule_scan;
extern const RuleDesc rule_schema;
extern const RuleDesc rule_separator_in_value;
extern const RuleDesc rule_suppression;
extern const RuleDesc rule_timestamp_pk;
extern const RuleDesc rule_unknown_index;
extern const RuleDesc rule_unmatched_query;
extern const RuleDesc rule_unserved_access_pattern;
extern const RuleDesc rule_versioned_sk_read;

/* Sorted by id (strcmp order); NULL-terminated. */
const RuleDesc *const keylint_rules[] = {
    &rule_complex_key,
    &rule_key_condition_attribute,
    &rule_low_cardinality_pk,
    &rule_magic_string,
    &rule_missing_delimiter,
    &rule_missing_prefix,
    &rule_missing_tenant,
    &rule_mixed_separator,
    &rule_mutable_key_field,
    &rule_partition_key_range,
    &rule_prefix_case,
    &rule_scan,
    &rule_schema,
    &rule_separator_in_value,
    &rule_suppression,
    &rule_timestamp_pk,
    &rule_unknown_index,
    &rule_unmatched_query,
    &rule_unserved_access_pattern,
    &rule_versioned_sk_read,
    NULL,
};

#define NRULES (sizeof keylint_rules / sizeof keylint_rules[0] - 1)

/* Generated: { id, Markdown text } sorted by id, then { NULL, NULL }. */
struct KeylintRuleDoc {
    const char *id;
    const char *text;
};
extern const struct KeylintRuleDoc keylint_rule_docs[];

const RuleDesc *rule_find(const char *id)
{
    if (!id)
        return NULL;
    for (size_t i = 0; keylint_rules[i]; i++)
        if (!strcmp(keylint_rules[i]->id, id))
            return keylint_rules[i];
    return NULL;
}

static const char *ids[NRULES + 1];
static once_flag ids_once = ONCE_FLAG_INIT;

static void fill_ids(void)
{
    for (size_t i = 0; i < NRULES; i++)
        ids[i] = keylint_rules[i]->id;
    ids[NRULES] = NULL;
}

const char *const *rule_ids(void)
{
    call_once(&ids_once, fill_ids);
    return ids;
}

const char *rule_docs(const char *id)
{
    if (!id)
        return NULL;
    for (size_t i = 0; keylint_rule_docs[i].id; i++)
        if (!strcmp(keylint_rule_docs[i].id, id))
            return keylint_rule_docs[i].text;
    return NULL;
}
