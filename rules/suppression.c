/* suppression: problems with inline suppression directives
 * (`// keylint-disable-next-line RULE -- reason`). The rule has no check of
 * its own: its findings come from the suppression pass (linter/suppress.c),
 * which runs in project_analyze after every rule, so that it knows which
 * directives suppressed something. The descriptor makes the id known to
 * --list-rules, --explain, configuration (`rules: { suppression: off }`)
 * and the machine formats. */
#include "rule.h"

static void check(const RuleContext *ctx)
{
    (void)ctx;
}

const RuleDesc rule_suppression = {
    .id = "suppression",
    .summary = "a suppression directive that names no rule, an unknown rule, "
               "suppresses nothing, or lacks a required reason",
    .default_severity = SEV_WARNING,
    .check = check,
};
