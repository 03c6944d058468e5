/* Printing diagnostics for people: text and concise formats. */
#ifndef KEYLINT_REPORT_H
#define KEYLINT_REPORT_H

#include <stdio.h>

#include "diag.h"

typedef enum ReportFormat {
    REPORT_TEXT,    /* finding line, source line, caret underline */
    REPORT_CONCISE, /* finding line only */
} ReportFormat;

typedef struct ReportOptions {
    ReportFormat format;
    bool color;
    /* the summary line only: the findings --fix can fix (said when not
     * 0), and the run's duration (said when timed) */
    size_t fixable;
    bool timed;
    double seconds;
    /* what the run found of DynamoDB code (stats.h), said after the
     * files; NULL: not said */
    const struct SeenCounts *seen;
} ReportOptions;

/* Source text of a display path, for snippets; NULL if unavailable. */
typedef const char *(*SourceLookup)(void *ctx, const char *path, size_t *len);

/* Print sorted diagnostics as
 *   path:line:col: severity: message [rule-id]
 * with 1-based line and column (the column counts characters, not bytes),
 * then for REPORT_TEXT the source line and a caret underline of the span
 * (its first line only; of a line longer than REPORT_MAX_LINE_SHOWN, the
 * part around the span, "..." marking what is left out). */
void report_text(FILE *out, const DiagList *d, const ReportOptions *o,
                 SourceLookup lookup, void *ctx);

/* --stats, one line: "keylint: stats: F files found (B bytes): P parsed
 * (B bytes; L of them because a parsed file needs a name they define), R
 * read, not parsed (B bytes), S skipped (B bytes: why); seconds: ...". */
struct RunStats;
void report_stats_line(FILE *out, const struct RunStats *s);

/* What a run found, as the summaries say it: "12 keys, 3 data operations,
 * 1 table" (singular forms for 1; a count of 0 left out), or "no DynamoDB
 * keys, data operations or tables" when all are 0. Written to buf (always
 * terminated). */
struct SeenCounts;
void report_seen_phrase(char *buf, size_t size, const struct SeenCounts *s);

/* "N errors, M warnings in K files" (singular forms for 1), where K is the
 * number of files linted, then in parentheses what was found (o->seen:
 * report_seen_phrase) and the run's duration (o->timed). */
void report_summary(FILE *out, const DiagList *d, size_t files_linted,
                    const ReportOptions *o);

/* The problems of `pr` of the kinds wanted (`notes`: the notes, else the
 * others), one a line: `path:line:col: error: message` (`keylint` for
 * problems without a path), paths relative to the current directory when
 * below it (as findings show them), control characters escaped. */
void report_problems(FILE *out, const Problems *pr, bool notes);

/* Whether to colour output on `f`: a terminal and NO_COLOR unset or empty. */
bool report_want_color(FILE *f);

/* 1-based character column of byte column `byte_col` in the line starting
 * at `line` (UTF-8). */
uint32_t utf8_column(const char *line, size_t line_len, uint32_t byte_col);

/* What was counted of a line last: columns of many findings on one line,
 * asked in increasing order, then cost the line's length once (not once
 * per finding). Zero it to start; it starts over by itself on another
 * line or an earlier column. */
typedef struct ColumnMemo {
    const char *line; /* the line counted, NULL: none */
    size_t byte;      /* how far */
    uint32_t count;   /* what that counted */
} ColumnMemo;

/* utf8_column, counting on from `m`. */
uint32_t utf8_column_memo(ColumnMemo *m, const char *line, size_t line_len, uint32_t byte_col);

/* The lines of the last few files asked for: related places jump between
 * files and back, and each file is indexed once while it stays among the
 * last LINE_FILES_KEPT used. Zero it to start; free with line_files_free. */
enum { LINE_FILES_KEPT = 4 };
typedef struct LineFiles {
    struct LineFile {
        const char *path; /* the caller's string; NULL: slot unused */
        const char *src;
        size_t len;
        size_t *starts; /* malloc'd */
        size_t nlines;
        uint64_t used;  /* when last asked for */
    } slot[LINE_FILES_KEPT];
    uint64_t clock;
} LineFiles;

/* Row `row` of `path` (0-based) without its line break, or false when the
 * file has no such row or its source is not available. */
bool line_files_get(LineFiles *lf, SourceLookup lookup, void *ctx, const char *path,
                    uint32_t row, const char **line, size_t *len);
void line_files_free(LineFiles *lf);

/* Lines longer than this are shown (text format) as a window around the
 * finding, so that many findings on one long line print in linear size. */
enum { REPORT_MAX_LINE_SHOWN = 400 };

#endif
