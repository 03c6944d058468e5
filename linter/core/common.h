/* Small types shared by every stage of the pipeline. */
#ifndef KEYLINT_COMMON_H
#define KEYLINT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"

#ifndef KEYLINT_VERSION /* set by meson.build from the project's version */
#error "KEYLINT_VERSION is not defined: build with meson"
#endif

/* A source range: byte offsets, 0-based rows and 0-based byte columns. */
typedef struct Span {
    uint32_t start_byte, end_byte;
    uint32_t start_row, start_col;
    uint32_t end_row, end_col;
} Span;

typedef enum Severity {
    SEV_OFF = 0,
    SEV_WARNING = 1,
    SEV_ERROR = 2,
} Severity;

const char *severity_name(Severity s);
/* "error" | "warning" | "off"; returns false for anything else. */
bool severity_parse(const char *s, Severity *out);

typedef struct StrList {
    const char **v;
    size_t n, cap;
} StrList;

/* Levenshtein distance between a[0..la) and b[0..lb), for "did you mean"
 * suggestions; (size_t)-1 when either is longer than 64 bytes. */
size_t edit_distance(const char *a, size_t la, const char *b, size_t lb);

/* A string built piece by piece: appends cost the length appended
 * (amortised), so text accumulated in a loop costs its final length,
 * unlike `acc = arena_printf(a, "%s%s", acc, piece)`, which copies all of
 * acc each time. The arena owns every block: the text lives as long as
 * the arena, and blocks outgrown stay in it (less than the final size in
 * all). sb_str is NUL-terminated after every append; it is "" before the
 * first. A StrBuf may be copied only once no more appends will be made. */
typedef struct StrBuf {
    Arena *a;
    char *s;
    size_t len, cap;
} StrBuf;

void sb_init(StrBuf *b, Arena *a);
void sb_append(StrBuf *b, const char *s);
void sb_appendn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sb_str(const StrBuf *b);

/* Names to numbers (positions in some array), for lookups by name that
 * must not scan: open addressing, the arena owns the table, the names are
 * the caller's and must outlive the map. `namemap_put` keeps the first
 * value put for a name (the first declaration wins, as a scan would). */
typedef struct NameSlot {
    const char *name;
    size_t value;
} NameSlot;

typedef struct NameMap {
    NameSlot *slots;
    size_t n, cap;
} NameMap;

void namemap_put(Arena *a, NameMap *m, const char *name, size_t value);
bool namemap_get(const NameMap *m, const char *name, size_t *value);
/* Numbers to numbers (byte offsets to positions, hashes to counts, or a
 * set of them), the same way: the first value put for a key is kept. */
typedef struct NumSlot {
    uint64_t key;
    bool used;
    size_t value;
} NumSlot;

typedef struct NumMap {
    NumSlot *slots;
    size_t n, cap;
} NumMap;

void nummap_put(Arena *a, NumMap *m, uint64_t key, size_t value);
bool nummap_get(const NumMap *m, uint64_t key, size_t *value);
/* Set the value of `key`, put or not. */
void nummap_set(Arena *a, NumMap *m, uint64_t key, size_t value);

/* A hash of s[0..n), for tables keyed by text (in-process only). */
uint64_t hash_bytes(const void *s, size_t n);

/* The monotonic clock in nanoseconds: what --stats times phases with. */
uint64_t clock_ns(void);

void strlist_push(Arena *a, StrList *l, const char *s);
/* Push `s` unless `seen` (the set of l's strings) has it; then it has. */
void strlist_push_once(Arena *a, StrList *l, NameMap *seen, const char *s);
bool strlist_has(const StrList *l, const char *s);
/* Case-insensitive membership. */
bool strlist_has_ci(const StrList *l, const char *s);

/* Problems with keylint's inputs, reported apart from findings (on stderr
 * as `path:line:col: error: message`, and in every report format).
 * line/col are 1-based; 0 means "no position". The list owns its strings.
 *
 *   PROBLEM_INPUT   an input could not be read at all (unreadable, binary,
 *                   not UTF-8, too large, a schema that does not parse):
 *                   exit code 2, 0 with --exit-zero;
 *   PROBLEM_CONFIG  the configuration or the command line is wrong (a bad
 *                   .keylint.yml, a path given that does not exist), so the
 *                   run cannot mean what was asked: always exit 2;
 *   PROBLEM_NOTE    read, but not all of it (a region with a syntax
 *                   error): shown as a note, never changes the exit code. */
typedef enum ProblemKind {
    PROBLEM_INPUT,
    PROBLEM_CONFIG,
    PROBLEM_NOTE,
    PROBLEM_KIND_COUNT /* not a kind: how many there are */
} ProblemKind;

typedef struct Problem {
    ProblemKind kind;
    const char *path;
    uint32_t line, col;
    const char *message;
} Problem;

/* A problem identical to one listed (kind, path, position and message)
 * is not listed again. */
typedef struct Problems {
    Arena *arena;
    VEC(Problem) items;
    NameMap seen; /* the problems listed, as text */
} Problems;

/* Line ends as editors, the language server protocol and keylint's syntax
 * trees count them: "\r\n", "\n", and a lone "\r" (an old Mac file's)
 * each end a line. line_break_len: the length of the break at s[i] of
 * s[0..n) (2, 1), 0 when s[i] ends no line. line_break_next: where the
 * next break at or after `from` starts, n when none. */
size_t line_break_len(const char *s, size_t n, size_t i);
size_t line_break_next(const char *s, size_t n, size_t from);

/* Control characters in text that goes to a terminal or a log (messages,
 * paths, source lines): C0 controls but tab, DEL and C1 controls are written
 * as escapes (\n, \r, \x1b, \u0085), so that a key's template literal
 * never prints a line of its own (which CI systems read as a command) nor
 * drives the terminal. ctl_escape: the escape for the character at s[0]
 * of s[0..n) into buf (at most 7 bytes + NUL) and its length in bytes in
 * *used; 0 when the character is written as it is. */
size_t ctl_escape(const char *s, size_t n, char buf[8], size_t *used);
void fput_escaped(FILE *out, const char *s, size_t n);
void fputs_escaped(FILE *out, const char *s);

void problems_init(Problems *p);
void problems_free(Problems *p);
/* A PROBLEM_INPUT. */
void problems_add(Problems *p, const char *path, uint32_t line, uint32_t col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void problems_add_kind(Problems *p, ProblemKind kind, const char *path, uint32_t line,
                       uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Does the list hold a problem of this kind? */
bool problems_have(const Problems *p, ProblemKind kind);
/* "error" for input and configuration problems, "note" for notes. */
const char *problem_level(const Problem *p);
/* Sort by path, line, column, message (stable output). */
void problems_sort(Problems *p);

#endif
