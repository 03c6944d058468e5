/* Reports for machines: JSON, SARIF 2.1.0 and GitHub workflow commands
 * (with a Markdown step summary). Text and concise are report.h's.
 *
 * Every document is built with jansson, and every string is made valid
 * UTF-8 first (utf8_sanitize): a message or path holding odd bytes never
 * breaks a document. */
#ifndef KEYLINT_OUTPUT_H
#define KEYLINT_OUTPUT_H

#include <stdio.h>

#include "fingerprint.h"

/* Where keylint's documentation lives (SARIF tool.driver.informationUri). */

/* The key under SARIF partialFingerprints. Bump the version when the
 * fingerprint's recipe changes. */
#define KEYLINT_FINGERPRINT_NAME "keylintFingerprint/v1"

typedef struct OutputInput {
    const FindingList *findings; /* what to report (after any baseline) */
    const Problems *problems;    /* input problems, sorted; may be NULL */
    size_t files_linted;
    /* Absolute directory SARIF URIs and GitHub annotations are relative to
     * (findings_root()); it must be the one findings were built with. */
    const char *root;
    /* Findings the baseline absorbed (not in `findings`), for summaries. */
    size_t baselined;
    /* --stats: what the run read and spent (stats.h), as a `stats`
     * object in the JSON output; NULL: none. */
    const struct RunStats *stats;
    /* What the run found of DynamoDB code (stats.h): keys, dataOperations
     * and tables in the JSON summary, a sentence in the Markdown one;
     * NULL: not said. */
    const struct SeenCounts *seen;
} OutputInput;

/* { "version": 1, "tool": {...}, "findings": [...], "problems": [...],
 *   "summary": {...} } followed by a newline. Finding fields: rule,
 * severity, message, path (display path), line, column, endLine, endColumn
 * (1-based; columns count characters, endColumn exclusive), fingerprint,
 * and fix when there is one. With in->stats, a "stats" object
 * (docs/output-formats.md). Returns false when writing failed. */
bool output_json(FILE *out, const OutputInput *in);

/* A SARIF 2.1.0 log (what GitHub code scanning ingests): one run, the rule
 * registry as tool.driver.rules, one result per finding with
 * repository-relative URIs under %SRCROOT%, UTF-16 columns and a
 * partialFingerprints entry; input problems as
 * invocations[0].toolExecutionNotifications. Returns false when writing
 * failed. */
bool output_sarif(FILE *out, const OutputInput *in);

/* GitHub workflow commands, one per finding and per input problem:
 *   ::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=keylint RULE::MESSAGE
 * (::warning for warnings), with property values escaped (% \r \n : ,)
 * and data escaped (% \r \n). */
void output_github(FILE *out, const OutputInput *in);

/* A Markdown summary: totals, a table of rules (severity, count), a table
 * of findings (at most `max_rows` of them), and input problems. For
 * $GITHUB_STEP_SUMMARY. */
void output_markdown_summary(FILE *out, const OutputInput *in, size_t max_rows);

/* Escape GitHub workflow-command text: `property` also escapes ':' and
 * ','. Allocated in `a`. */
char *github_escape(Arena *a, const char *s, bool property);

/* A path as a URI reference: each byte outside the unreserved characters,
 * sub-delimiters, ':', '@' and '/' percent-encoded. Allocated in `a`. */
char *uri_encode_path(Arena *a, const char *path);

/* SARIF's rule name for an id: "magic-string" -> "MagicString". */
char *sarif_rule_name(Arena *a, const char *id);

#endif
