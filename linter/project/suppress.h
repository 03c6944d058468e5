/* Inline suppressions: comments that silence findings, themselves checked.
 *
 *   // keylint-disable-next-line RULE[, RULE...] -- reason
 *   code(); // keylint-disable-line RULE -- reason
 *   // keylint-disable-file RULE -- reason
 *
 * Block comments (slash-star ... star-slash, also JSDoc style) work the
 * same. The `-- reason` part is optional unless --require-reason or the
 * configuration key `require-suppression-reason: true` asks for it.
 *
 * Directives are read from FileIR.comments (extraction keeps every comment
 * mentioning keylint). Problems with them are reported as findings of the
 * `suppression` rule (severity from the configuration, default warning):
 * a directive with no rule id, an unknown rule id, an unknown directive
 * (keylint-disable, keylint-enable-line, ...), a directive that suppresses
 * nothing, naming `suppression` itself, and a missing reason when one is
 * required. Findings of the `suppression` rule cannot be suppressed. */
#ifndef KEYLINT_SUPPRESS_H
#define KEYLINT_SUPPRESS_H

#include "config.h"
#include "diag.h"
#include "ir.h"

#define SUPPRESSION_RULE "suppression"

struct Project;

/* Apply the directives of `ir` (with its configuration `cfg`) to the
 * diagnostics d->items.v[from..to) (those of `ir`'s file; others in the
 * range are left alone): a suppressed diagnostic gets severity SEV_OFF
 * (drop it with suppress_compact), and the suppression rule's findings
 * are appended to `d`. */
void suppress_file(DiagList *d, size_t from, size_t to, const FileIR *ir,
                   const Config *cfg);

/* Drop the diagnostics suppress_file marked (severity SEV_OFF). */
void suppress_compact(DiagList *d);

/* The suppression pass of project_analyze, after the rules ran: every
 * analysed file of the project, then suppress_compact. Leaves p->diags
 * unsorted (project_analyze sorts). */
void suppress_project(struct Project *p);

#endif
