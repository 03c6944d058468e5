/* Diagnostics: what rules emit and reporters print. */
#ifndef KEYLINT_DIAG_H
#define KEYLINT_DIAG_H

#include "common.h"

typedef struct Diagnostic {
    const char *rule;    /* rule id, e.g. "magic-string" */
    Severity severity;   /* never SEV_OFF */
    const char *path;    /* display path, relative to the current directory */
    Span span;
    const char *message;
    const char *fix;     /* optional suggestion, NULL if none */
    /* Optional machine-applicable fix (editors offer it as a quick fix),
     * set only where it is unambiguous: replace the source text of
     * edit_span in this diagnostic's file, which reads exactly edit_old,
     * with edit_text (strings in the list's arena). An applier checks
     * edit_old against the text first and offers nothing when it differs;
     * when edit_old is an identifier written as an object shorthand
     * property (`{ pk, sk }`), it keeps the property's name
     * (`sk: <edit_text>`). has_edit is false when there is none. */
    bool has_edit;
    Span edit_span;
    const char *edit_old;
    const char *edit_text;
    /* What the edit needs besides (an import of the constant it writes):
     * insert insert_text at byte insert_at, which is the start of a line.
     * NULL insert_text when nothing. Never applied without the edit; left
     * out when the file already has that text. */
    uint32_t insert_at;
    const char *insert_text;
} Diagnostic;

/* The list owns every string it holds (its arena). */
typedef struct DiagList {
    Arena *arena;
    VEC(Diagnostic) items;
} DiagList;

void diag_init(DiagList *d);
void diag_free(DiagList *d);
Diagnostic *diag_add(DiagList *d, const char *rule, Severity sev,
                     const char *path, Span span, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Append copies of every diagnostic of `src`. */
void diag_append(DiagList *dst, const DiagList *src);
/* Sort by path, line, column, rule, message; drop exact duplicates
 * (same rule, path, position and message). */
void diag_sort(DiagList *d);

#endif
