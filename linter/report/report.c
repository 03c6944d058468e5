#include "report.h"

#include <inttypes.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_RESET "\033[0m"

static bool is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Code points in s[0..n). */
static size_t count_chars(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_cont((unsigned char)s[i]))
            k++;
    return k;
}

uint32_t utf8_column(const char *line, size_t line_len, uint32_t byte_col)
{
    size_t n = byte_col < line_len ? byte_col : line_len;
    if (!line)
        return byte_col + 1;
    return (uint32_t)count_chars(line, n) + 1;
}

uint32_t utf8_column_memo(ColumnMemo *m, const char *line, size_t line_len, uint32_t byte_col)
{
    if (!line)
        return byte_col + 1;
    size_t n = byte_col < line_len ? byte_col : line_len;
    if (m->line != line || n < m->byte)
        *m = (ColumnMemo){.line = line};
    m->count += (uint32_t)count_chars(line + m->byte, n - m->byte);
    m->byte = n;
    return m->count + 1;
}

bool report_want_color(FILE *f)
{
    const char *force = getenv("FORCE_COLOR");
    if (force && *force && strcmp(force, "0") != 0)
        return true;
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    if (!f)
        return false;
    int fd = fileno(f);
    return fd >= 0 && isatty(fd);
}

/* Where the reporter is in the current file: the source and the start of
 * row `row` at byte `off`. Diagnostics come sorted, so lines are found by
 * moving forward. */
typedef struct Cursor {
    const char *path;
    const char *src;
    size_t len;
    uint32_t row;
    size_t off;
    size_t row_len; /* the length of row `row`, once known (+1; 0: not yet) */
} Cursor;

/* The text of row `row` (without its line break) or false when the file
 * has no such row or no source. Rows end as the syntax tree's do
 * (line_break_len: "\r\n", "\n" or a lone "\r"). */
static bool find_line(Cursor *c, uint32_t row, const char **line,
                      size_t *line_len)
{
    if (!c->src)
        return false;
    if (row < c->row) {
        c->row = 0;
        c->off = 0;
        c->row_len = 0;
    }
    while (c->row < row) {
        size_t brk = c->row_len ? c->off + c->row_len - 1
                                : line_break_next(c->src, c->len, c->off);
        if (brk >= c->len)
            return false;
        c->off = brk + line_break_len(c->src, c->len, brk);
        c->row++;
        c->row_len = 0;
    }
    if (!c->row_len) /* found once per row, however many findings it has */
        c->row_len = line_break_next(c->src, c->len, c->off) - c->off + 1;
    *line = c->src + c->off;
    *line_len = c->row_len - 1;
    return true;
}

/* The part of a long line shown for a finding starting at byte `sc`:
 * [*from, *to), on character boundaries; the whole of a short line. */
static void shown_part(const char *line, size_t line_len, size_t sc, size_t *from, size_t *to)
{
    *from = 0;
    *to = line_len;
    if (line_len <= REPORT_MAX_LINE_SHOWN)
        return;
    size_t before = REPORT_MAX_LINE_SHOWN / 4;
    *from = sc > before ? sc - before : 0;
    while (*from > 0 && is_cont((unsigned char)line[*from]))
        (*from)--;
    *to = *from + REPORT_MAX_LINE_SHOWN < line_len ? *from + REPORT_MAX_LINE_SHOWN : line_len;
    while (*to < line_len && is_cont((unsigned char)line[*to]))
        (*to)++;
}

/* The source line of a finding, whole or its shown part (shown_part). */
static void print_line(FILE *out, const char *line, size_t line_len, size_t from, size_t to)
{
    if (from > 0)
        fputs("...", out);
    fput_escaped(out, line + from, to - from); /* controls escaped */
    if (to < line_len)
        fputs("...", out);
    fputc('\n', out);
}

static void print_caret(FILE *out, const Diagnostic *g, const char *line,
                        size_t line_len, size_t from, size_t to, bool color)
{
    size_t sc = g->span.start_col < line_len ? g->span.start_col : line_len;
    size_t ec = line_len;
    if (g->span.end_row == g->span.start_row)
        ec = g->span.end_col < line_len ? g->span.end_col : line_len;
    else if (g->span.end_row < g->span.start_row)
        ec = sc;
    if (ec < sc)
        ec = sc;
    if (from > 0) /* under the "..." */
        fputs("   ", out);
    line += from;
    line_len = to - from;
    sc = sc > from ? sc - from : 0;
    ec = (ec < to ? ec : to) - from;
    if (ec < sc)
        ec = sc;

    /* under the line as fput_escaped wrote it: an escaped control takes
     * the width of its escape */
    for (size_t i = 0; i < sc;) {
        char esc[8];
        size_t used;
        size_t w = ctl_escape(line + i, line_len - i, esc, &used);
        unsigned char ch = (unsigned char)line[i];
        if (ch == '\t')
            fputc('\t', out);
        else if (w)
            fprintf(out, "%*s", (int)w, "");
        else if (!is_cont(ch))
            fputc(' ', out);
        i += used;
    }
    size_t k = 0;
    for (size_t i = sc; i < ec;) {
        char esc[8];
        size_t used;
        size_t w = ctl_escape(line + i, line_len - i, esc, &used);
        if (w)
            k += w;
        else if (!is_cont((unsigned char)line[i]))
            k++;
        i += used;
    }
    if (color)
        fputs(C_GREEN, out);
    fputc('^', out);
    for (size_t i = 1; i < k; i++)
        fputc('~', out);
    if (color)
        fputs(C_RESET, out);
    fputc('\n', out);
}

bool line_files_get(LineFiles *lf, SourceLookup lookup, void *ctx, const char *path,
                    uint32_t row, const char **line, size_t *len)
{
    struct LineFile *f = NULL, *oldest = &lf->slot[0];
    for (size_t i = 0; i < LINE_FILES_KEPT && !f; i++) {
        if (lf->slot[i].path && !strcmp(lf->slot[i].path, path))
            f = &lf->slot[i];
        else if (lf->slot[i].used < oldest->used)
            oldest = &lf->slot[i];
    }
    if (!f) {
        f = oldest;
        free(f->starts);
        *f = (struct LineFile){.path = path};
        if (lookup)
            f->src = lookup(ctx, path, &f->len);
        if (f->src && f->len == 0)
            f->len = strlen(f->src);
        if (f->src) {
            size_t cap = 64;
            f->starts = malloc(cap * sizeof *f->starts);
            if (!f->starts)
                abort();
            f->starts[f->nlines++] = 0;
            for (const char *p = f->src, *end = f->src + f->len;
                 (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
                if (f->nlines == cap) {
                    cap *= 2;
                    size_t *grown = realloc(f->starts, cap * sizeof *grown);
                    if (!grown)
                        abort();
                    f->starts = grown;
                }
                f->starts[f->nlines++] = (size_t)(p - f->src) + 1;
            }
        }
    }
    f->used = ++lf->clock;
    if (!f->src || row >= f->nlines)
        return false;
    size_t s = f->starts[row];
    size_t e = row + 1 < f->nlines ? f->starts[row + 1] - 1 : f->len;
    if (e > s && f->src[e - 1] == '\r')
        e--;
    *line = f->src + s;
    *len = e - s;
    return true;
}

void line_files_free(LineFiles *lf)
{
    for (size_t i = 0; i < LINE_FILES_KEPT; i++)
        free(lf->slot[i].starts);
    memset(lf, 0, sizeof *lf);
}

/* A finding's related places, as compilers print notes:
 *   path:line:col: note: message */
static void print_notes(FILE *out, const Diagnostic *g, LineFiles *lf, SourceLookup lookup,
                        void *ctx, bool color)
{
    for (size_t r = 0; r < g->nrelated; r++) {
        const DiagRelated *rel = &g->related[r];
        const char *line = NULL;
        size_t line_len = 0;
        bool have = line_files_get(lf, lookup, ctx, rel->path, rel->span.start_row, &line,
                                   &line_len);
        uint32_t col = have ? utf8_column(line, line_len, rel->span.start_col)
                            : rel->span.start_col + 1;
        if (color)
            fputs(C_BOLD, out);
        fputs_escaped(out, rel->path);
        fprintf(out, ":%u:%u:", rel->span.start_row + 1, col);
        fputs(color ? C_RESET " " C_BOLD "note" C_RESET ": " : " note: ", out);
        fputs_escaped(out, rel->message);
        fputc('\n', out);
    }
}

void report_text(FILE *out, const DiagList *d, const ReportOptions *o,
                 SourceLookup lookup, void *ctx)
{
    bool color = o && o->color;
    bool text = !o || o->format == REPORT_TEXT;
    Cursor cur = {0};
    LineFiles notes = {0}; /* the files of related places */
    ColumnMemo memo = {0};

    for (size_t i = 0; i < d->items.n; i++) {
        const Diagnostic *g = &d->items.v[i];
        const char *path = g->path ? g->path : "";
        if (!cur.path || strcmp(cur.path, path) != 0) {
            cur = (Cursor){.path = path};
            if (lookup)
                cur.src = lookup(ctx, path, &cur.len);
            if (cur.src && cur.len == 0)
                cur.len = strlen(cur.src);
            memo = (ColumnMemo){0};
        }
        const char *line = NULL;
        size_t line_len = 0;
        bool have = find_line(&cur, g->span.start_row, &line, &line_len);
        uint32_t lno = g->span.start_row + 1;
        uint32_t col = have ? utf8_column_memo(&memo, line, line_len, g->span.start_col)
                            : g->span.start_col + 1;
        const char *sev = severity_name(g->severity);
        const char *rule = g->rule ? g->rule : "";
        const char *msg = g->message ? g->message : "";

        /* messages quote source text: controls in it are escaped */
        if (color)
            fputs(C_BOLD, out);
        fputs_escaped(out, path);
        fprintf(out, ":%u:%u:", lno, col);
        if (color)
            fprintf(out, C_RESET " %s%s" C_RESET ": ",
                    g->severity == SEV_ERROR ? C_RED : C_YELLOW, sev);
        else
            fprintf(out, " %s: ", sev);
        fputs_escaped(out, msg);
        fprintf(out, color ? " " C_DIM "[%s]" C_RESET "\n" : " [%s]\n", rule);

        if (!text)
            continue;
        if (have) {
            size_t from, to;
            shown_part(line, line_len, g->span.start_col, &from, &to);
            print_line(out, line, line_len, from, to);
            print_caret(out, g, line, line_len, from, to, color);
        }
        if (g->fix && !strstr(msg, g->fix)) { /* not when the message says it */
            fputs("  help: ", out);
            fputs_escaped(out, g->fix);
            fputc('\n', out);
        }
        print_notes(out, g, &notes, lookup, ctx, color);
    }
    line_files_free(&notes);
}

void report_seen_phrase(char *buf, size_t size, const SeenCounts *s)
{
    const struct {
        size_t n;
        const char *one, *many;
    } parts[] = {{s->keys, "key", "keys"},
                 {s->ops, "data operation", "data operations"},
                 {s->tables, "table", "tables"}};
    size_t w = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && w < size; i++)
        if (parts[i].n) {
            int k = snprintf(buf + w, size - w, "%s%zu %s", w ? ", " : "", parts[i].n,
                             parts[i].n == 1 ? parts[i].one : parts[i].many);
            w += k > 0 ? (size_t)k : 0;
        }
    if (!buf[0])
        snprintf(buf, size, "no DynamoDB keys, data operations or tables");
}

void report_summary(FILE *out, const DiagList *d, size_t files_linted,
                    const ReportOptions *o)
{
    size_t errors = 0, warnings = 0;
    for (size_t i = 0; i < d->items.n; i++) {
        if (d->items.v[i].severity == SEV_ERROR)
            errors++;
        else if (d->items.v[i].severity == SEV_WARNING)
            warnings++;
    }
    bool color = o && o->color;
    fprintf(out, "%s%zu error%s, %zu warning%s in %zu file%s%s",
            color ? C_BOLD : "", errors, errors == 1 ? "" : "s", warnings,
            warnings == 1 ? "" : "s", files_linted,
            files_linted == 1 ? "" : "s", color ? C_RESET : "");
    if (o && (o->seen || o->timed)) {
        char seen[160] = "";
        if (o->seen)
            report_seen_phrase(seen, sizeof seen, o->seen);
        fprintf(out, " (%s", seen);
        if (o->timed)
            fprintf(out, "%s%.2f s", seen[0] ? "; " : "", o->seconds);
        fputc(')', out);
    }
    if (o && o->fixable)
        fprintf(out, "; %zu fixable with --fix (--fix-dry-run shows the diff)", o->fixable);
    fputc('\n', out);
}

/* `path` as findings show it: relative to the current directory when it
 * is below it (a configuration found upward is named by its absolute path). */
static const char *shown_path(const char *path, const char *cwd)
{
    size_t n = cwd ? strlen(cwd) : 0;
    if (n > 1 && path[0] == '/' && !strncmp(path, cwd, n) && path[n] == '/' && path[n + 1])
        return path + n + 1;
    return path;
}

void report_problems(FILE *out, const Problems *pr, bool notes)
{
    char *cwd = getcwd(NULL, 0);
    for (size_t i = 0; i < pr->items.n; i++) {
        const Problem *p = &pr->items.v[i];
        if ((p->kind == PROBLEM_NOTE) != notes)
            continue;
        if (p->path[0]) {
            fputs_escaped(out, shown_path(p->path, cwd));
            if (p->line)
                fprintf(out, ":%u:%u", p->line, p->col);
        } else {
            fputs("keylint", out);
        }
        fprintf(out, ": %s: ", problem_level(p));
        fputs_escaped(out, p->message);
        fputc('\n', out);
    }
    free(cwd);
}

static void stats_count(FILE *out, const StatsCount *c)
{
    fprintf(out, "%zu file%s (%" PRIu64 " bytes)", c->files, c->files == 1 ? "" : "s", c->bytes);
}

void report_stats_line(FILE *out, const RunStats *s)
{
    fputs("keylint: stats: ", out);
    stats_count(out, &s->found);
    fputs(" found: ", out);
    stats_count(out, &s->parsed);
    fprintf(out,
            " parsed, %zu of them (%" PRIu64 " bytes) because a parsed file needs a name "
            "they define, %zu (%" PRIu64 " bytes) with nothing for keylint; ",
            s->later.files, s->later.bytes, s->empty.files, s->empty.bytes);
    stats_count(out, &s->read_only);
    fputs(" read, not parsed; ", out);
    stats_count(out, &s->skipped);
    fputs(" skipped", out);
    const struct {
        size_t n;
        const char *why;
    } why[] = {{s->why.too_large, "too large"},
               {s->why.binary, "binary"},
               {s->why.not_utf8, "not UTF-8"},
               {s->why.unreadable, "unreadable"}};
    const char *sep = " (";
    for (size_t i = 0; i < sizeof why / sizeof *why; i++)
        if (why[i].n) {
            fprintf(out, "%s%zu %s", sep, why[i].n, why[i].why);
            sep = ", ";
        }
    if (*sep == ',')
        fputc(')', out);
    if (s->syntax_errors)
        fprintf(out, "; %zu with syntax errors", s->syntax_errors);
    fprintf(out,
            "; seconds: walk %.3f, read+parse+extract %.3f on %u thread%s (read %.3f, parse "
            "%.3f, extract %.3f summed over threads), project+rules %.3f, report %.3f, "
            "total %.3f\n",
            (double)s->walk_ns / 1e9, (double)s->extract_wall_ns / 1e9, s->threads,
            s->threads == 1 ? "" : "s", (double)s->read_ns / 1e9, (double)s->parse_ns / 1e9,
            (double)s->extract_ns / 1e9, (double)s->analyze_ns / 1e9,
            (double)s->report_ns / 1e9, (double)s->total_ns / 1e9);
}
