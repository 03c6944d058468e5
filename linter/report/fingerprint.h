/* Findings as machine formats and baselines see them: where each
 * diagnostic is in terms that survive edits elsewhere in the file (a path
 * relative to the repository root and a fingerprint of the flagged code,
 * never a line number), and its positions in every column unit a consumer
 * asks for (characters for people, UTF-16 code units for SARIF). */
#ifndef KEYLINT_FINGERPRINT_H
#define KEYLINT_FINGERPRINT_H

#include "diag.h"
#include "report.h"

typedef struct Finding {
    const Diagnostic *diag;
    /* The file relative to the root ('/'-separated), or its absolute path
     * when it is outside the root (then under_root is false). */
    const char *uri_path;
    bool under_root;
    /* 1-based. Columns count code points; end_col is the column just after
     * the last flagged character (exclusive). */
    uint32_t line, col, end_line, end_col;
    /* The same columns in UTF-16 code units (SARIF's utf16CodeUnits). */
    uint32_t col16, end_col16;
    /* The flagged source line (the span's first line) with surrounding
     * whitespace removed and inner runs of spaces and tabs collapsed to one
     * space; the message when the source is not available. */
    const char *code;
    /* FNV-1a 64 of rule, uri_path and code: the baseline key. */
    uint64_t key;
    /* 1-based rank among the findings with the same key, in list order. */
    uint32_t occurrence;
    /* "<key as 16 hex digits>:<occurrence>": SARIF's partialFingerprints
     * value and the JSON "fingerprint". */
    const char *fingerprint;
    /* The rule's machine-applicable fix checked against the file's text
     * (fix_resolve): replace [edit_line:edit_col, edit_end_line:edit_end_col)
     * with edit_text. Columns as above (code points, 1-based, the end
     * exclusive) and in UTF-16 code units. has_edit false when the finding
     * has none or the text no longer reads what the rule saw. */
    bool has_edit;
    uint32_t edit_line, edit_col, edit_end_line, edit_end_col;
    uint32_t edit_col16, edit_end_col16;
    const char *edit_text;
    /* The imports the edit needs, each inserted at line:col (col16 in
     * UTF-16 code units); ninserts of them. */
    struct FindingInsert {
        uint32_t line, col, col16;
        const char *text;
    } inserts[FIX_MAX_NEEDS];
    size_t ninserts;
    /* The edit is right but not proven to keep the program's behaviour
     * (Diagnostic.unsafe): applied only with --unsafe-fixes. */
    bool unsafe;
    /* The diagnostic's related places (Diagnostic.related, in its order),
     * with their positions as above: nrelated of them. */
    struct FindingRelated {
        const char *uri_path; /* as Finding.uri_path */
        bool under_root;
        uint32_t line, col, end_line, end_col;
        uint32_t col16, end_col16;
    } *related;
    size_t nrelated;
} Finding;

/* Owns every string its findings point to (not the diagnostics). */
typedef struct FindingList {
    Arena *arena;
    VEC(Finding) items;
} FindingList;

/* One finding per diagnostic of `d`, in the same order; `d` is sorted
 * (diag_sort), or at least has each file's diagnostics together, so that
 * occurrences count right. `root` is the
 * absolute directory paths are made relative to (see findings_root);
 * `lookup` gives the source text of a display path (may be NULL). The
 * diagnostics must outlive the list. */
void findings_build(FindingList *out, const DiagList *d, const char *root,
                    SourceLookup lookup, void *ctx);
void findings_free(FindingList *l);

/* The root that repository-relative paths start from: the top of the git
 * work tree holding the current directory (the nearest ancestor with a
 * `.git` entry), else the current directory. malloc'd; NULL only when the
 * current directory cannot be determined. */
char *findings_root(void);

/* `path` (absolute, or relative to the current directory) relative to
 * `root`, '/'-separated, allocated in `a`; when the file is not under root,
 * its absolute path and *under_root = false. */
const char *findings_relative(Arena *a, const char *root, const char *path,
                              bool *under_root);

/* FNV-1a 64 over rule, '\0', path, '\0', code. */
uint64_t fingerprint_key(const char *rule, const char *path, const char *code);

/* The whitespace-normalised text of `line[0..len)` (see Finding.code). */
char *fingerprint_normalize(Arena *a, const char *line, size_t len);

/* Decode one UTF-8 sequence at s[0..n): its length (1-4) and code point,
 * or 0 when s[0] does not start a valid, shortest-form sequence of a
 * Unicode scalar value (what jansson accepts). */
size_t utf8_decode_one(const char *s, size_t n, uint32_t *cp);

/* `s` itself when it is valid UTF-8, else a copy in `a` with each invalid
 * byte replaced by U+FFFD: what strings must be before they reach jansson,
 * which rejects invalid UTF-8. NULL gives "". */
const char *utf8_sanitize(Arena *a, const char *s);

/* 1-based UTF-16 column of byte column `byte_col` in `line[0..len)`. Each
 * byte of an invalid UTF-8 sequence counts as one unit (as U+FFFD). */
uint32_t utf16_column(const char *line, size_t len, uint32_t byte_col);
/* The same, counting on from `m` (report.h). */
uint32_t utf16_column_memo(ColumnMemo *m, const char *line, size_t len, uint32_t byte_col);

#endif
