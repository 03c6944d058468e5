#include "fingerprint.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

size_t utf8_decode_one(const char *str, size_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        v = c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        v = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        v = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

const char *utf8_sanitize(Arena *a, const char *s)
{
    if (!s)
        return "";
    size_t n = strlen(s), bad = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = utf8_decode_one(s + i, n - i, &cp);
        if (k == 0) {
            bad++;
            i++;
        } else {
            i += k;
        }
    }
    if (bad == 0)
        return s;
    char *out = arena_alloc(a, n + bad * 2 + 1);
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = utf8_decode_one(s + i, n - i, &cp);
        if (k == 0) {
            memcpy(out + w, "\xEF\xBF\xBD", 3);
            w += 3;
            i++;
        } else {
            memcpy(out + w, s + i, k);
            w += k;
            i += k;
        }
    }
    out[w] = '\0';
    return out;
}

uint32_t utf16_column_memo(ColumnMemo *m, const char *line, size_t len, uint32_t byte_col)
{
    size_t end = byte_col < len ? byte_col : len;
    /* m->byte: the first sequence not counted (it may start past an
     * earlier end, when a sequence straddled it) */
    if (m->line != line || end < m->byte)
        *m = (ColumnMemo){.line = line};
    size_t i = m->byte;
    uint32_t units = m->count;
    while (i < end) {
        uint32_t cp;
        size_t k = utf8_decode_one(line + i, len - i, &cp);
        if (k == 0) {
            units++; /* one invalid byte: one U+FFFD */
            i++;
            continue;
        }
        units += cp >= 0x10000 ? 2 : 1;
        i += k;
    }
    m->byte = i;
    m->count = units;
    return units + 1;
}

uint32_t utf16_column(const char *line, size_t len, uint32_t byte_col)
{
    ColumnMemo m = {0};
    return utf16_column_memo(&m, line, len, byte_col);
}

uint64_t fingerprint_key(const char *rule, const char *path, const char *code)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const char *parts[3] = {rule ? rule : "", path ? path : "", code ? code : ""};
    for (int p = 0; p < 3; p++) {
        for (const unsigned char *s = (const unsigned char *)parts[p]; *s; s++) {
            h ^= *s;
            h *= 0x100000001b3ull;
        }
        if (p < 2)
            h *= 0x100000001b3ull; /* the '\0' separator: h ^= 0, then multiply */
    }
    return h;
}

char *fingerprint_normalize(Arena *a, const char *line, size_t len)
{
    char *out = arena_alloc(a, len + 1);
    size_t w = 0;
    bool space = false;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            space = w > 0;
            continue;
        }
        if (space)
            out[w++] = ' ';
        space = false;
        out[w++] = c;
    }
    out[w] = '\0';
    return out;
}

/* ---- paths ------------------------------------------------------------- */

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

char *findings_root(void)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    char probe[PATH_MAX + 8];
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", cwd);
    for (;;) {
        snprintf(probe, sizeof probe, "%s/.git", strcmp(dir, "/") ? dir : "");
        if (exists(probe))
            return strdup(dir);
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (slash && dir[1]) {
                dir[1] = '\0'; /* try "/" itself */
                continue;
            }
            break;
        }
        *slash = '\0';
    }
    return strdup(cwd);
}

/* Remove "." and ".." components and doubled slashes from an absolute
 * path, in place. */
static void normalize_lexical(char *p)
{
    char *w = p;
    const char *r = p;
    while (*r) {
        while (*r == '/')
            r++;
        if (!*r)
            break;
        const char *e = strchr(r, '/');
        size_t n = e ? (size_t)(e - r) : strlen(r);
        if (n == 1 && r[0] == '.') {
            /* skip */
        } else if (n == 2 && r[0] == '.' && r[1] == '.') {
            while (w > p && *--w != '/')
                ;
        } else {
            *w++ = '/';
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    if (w == p)
        *w++ = '/';
    *w = '\0';
}

const char *findings_relative(Arena *a, const char *root, const char *path,
                              bool *under_root)
{
    char *abs = realpath(path, NULL);
    if (!abs) {
        char cwd[PATH_MAX];
        size_t n = strlen(path) + PATH_MAX + 2;
        abs = malloc(n);
        if (!abs)
            abort();
        if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
            snprintf(abs, n, "%s", path);
        else
            snprintf(abs, n, "%s/%s", cwd, path);
        if (abs[0] == '/')
            normalize_lexical(abs);
    }
    const char *result;
    size_t rn = root ? strlen(root) : 0;
    while (rn > 1 && root[rn - 1] == '/')
        rn--;
    if (root && rn == 1 && root[0] == '/' && abs[0] == '/') {
        result = arena_strdup(a, abs + 1);
        *under_root = true;
    } else if (root && rn > 0 && !strncmp(abs, root, rn) && abs[rn] == '/') {
        result = arena_strdup(a, abs + rn + 1);
        *under_root = true;
    } else {
        result = arena_strdup(a, abs);
        *under_root = false;
    }
    free(abs);
    return result;
}

/* ---- findings ---------------------------------------------------------- */

/* The current file: its source and the byte offset of each line start. */
typedef struct FileCursor {
    const char *path;
    const char *src;
    size_t len;
    size_t *starts; /* malloc'd */
    size_t nlines;
    const char *uri;
    bool under_root;
} FileCursor;

static void cursor_open(FileCursor *c, const char *path, const char *root,
                        SourceLookup lookup, void *ctx, Arena *a)
{
    free(c->starts);
    *c = (FileCursor){.path = path};
    c->uri = findings_relative(a, root, path, &c->under_root);
    if (lookup)
        c->src = lookup(ctx, path, &c->len);
    if (!c->src)
        return;
    if (c->len == 0)
        c->len = strlen(c->src);
    size_t cap = 64;
    c->starts = malloc(cap * sizeof *c->starts);
    if (!c->starts)
        abort();
    c->starts[c->nlines++] = 0;
    /* rows end as the syntax tree's do: "\r\n", "\n" or a lone "\r" */
    for (size_t i = line_break_next(c->src, c->len, 0); i < c->len;
         i = line_break_next(c->src, c->len, i)) {
        i += line_break_len(c->src, c->len, i);
        if (c->nlines == cap) {
            cap *= 2;
            size_t *grown = realloc(c->starts, cap * sizeof *c->starts);
            if (!grown)
                abort();
            c->starts = grown;
        }
        c->starts[c->nlines++] = i;
    }
}

/* Row `row` of the current file without its line break, or false. */
static bool cursor_line(const FileCursor *c, uint32_t row, const char **line,
                        size_t *len)
{
    if (!c->src || row >= c->nlines)
        return false;
    size_t s = c->starts[row];
    size_t e = line_break_next(c->src, c->len, s);
    *line = c->src + s;
    *len = e - s;
    return true;
}

/* The code of the row of the last finding, and its keys by rule. */
typedef struct RowCode {
    uint32_t row;
    const char *code;
    VEC(struct RuleKey { const char *rule; uint64_t key; }) keys;
} RowCode;

static void row_code(RowCode *rc, Arena *a, uint32_t row, const char *line, size_t len)
{
    if (rc->row == row)
        return;
    rc->row = row;
    rc->code = fingerprint_normalize(a, line, len);
    rc->keys.n = 0;
}

static uint64_t row_key(RowCode *rc, Arena *a, const char *rule, const char *path)
{
    for (size_t i = 0; i < rc->keys.n; i++) /* the rules found on one line: few */
        if (!strcmp(rc->keys.v[i].rule, rule ? rule : ""))
            return rc->keys.v[i].key;
    uint64_t key = fingerprint_key(rule, path, rc->code);
    VEC_PUSH(a, &rc->keys, ((struct RuleKey){rule ? rule : "", key}));
    return key;
}

/* The finding's edit, resolved against the file's text (an edit within
 * one line, as rules make them). */
static void finding_edit(Finding *f, const FileCursor *cur, Arena *a)
{
    const Diagnostic *g = f->diag;
    FixEdit fe[FIX_MAX_EDITS];
    size_t k;
    if (!g->has_edit || !cur->src || g->edit_span.start_row != g->edit_span.end_row ||
        !(k = fix_resolve(a, cur->src, cur->len, g, fe)))
        return;
    const char *line;
    size_t len;
    if (!cursor_line(cur, g->edit_span.start_row, &line, &len))
        return;
    f->has_edit = true;
    f->edit_line = f->edit_end_line = g->edit_span.start_row + 1;
    f->edit_col = utf8_column(line, len, g->edit_span.start_col);
    f->edit_end_col = utf8_column(line, len, g->edit_span.end_col);
    f->edit_col16 = utf16_column(line, len, g->edit_span.start_col);
    f->edit_end_col16 = utf16_column(line, len, g->edit_span.end_col);
    f->edit_text = fe[0].text;
    f->unsafe = g->unsafe;
    for (size_t e = 1; e < k; e++) {
        /* the line and column of the insertion point */
        uint32_t row = 0;
        size_t ls = 0; /* rows as the tree's: "\r\n", "\n" or a lone "\r" */
        for (size_t i = line_break_next(cur->src, cur->len, 0); i < fe[e].start;
             i = line_break_next(cur->src, cur->len, ls)) {
            ls = i + line_break_len(cur->src, cur->len, i);
            row++;
        }
        const char *il;
        size_t ilen;
        if (!cursor_line(cur, row, &il, &ilen)) {
            f->has_edit = false;
            return;
        }
        struct FindingInsert *in = &f->inserts[f->ninserts++];
        in->line = row + 1;
        in->col = utf8_column(il, ilen, (uint32_t)(fe[e].start - ls));
        in->col16 = utf16_column(il, ilen, (uint32_t)(fe[e].start - ls));
        in->text = fe[e].text;
    }
}

/* The positions of g's related places (Finding.related). */
static void finding_related(Finding *f, const Diagnostic *g, const char *root, LineFiles *lf,
                            SourceLookup lookup, void *ctx, Arena *a)
{
    if (!g->nrelated)
        return;
    f->related = arena_alloc(a, g->nrelated * sizeof *f->related);
    f->nrelated = g->nrelated;
    for (size_t r = 0; r < g->nrelated; r++) {
        const DiagRelated *rel = &g->related[r];
        struct FindingRelated *o = &f->related[r];
        o->uri_path = !strcmp(rel->path, g->path ? g->path : "")
                          ? f->uri_path
                          : findings_relative(a, root, rel->path, &o->under_root);
        if (o->uri_path == f->uri_path)
            o->under_root = f->under_root;
        const char *line = NULL;
        size_t len = 0;
        bool have = line_files_get(lf, lookup, ctx, rel->path, rel->span.start_row, &line, &len);
        o->line = rel->span.start_row + 1;
        o->col = have ? utf8_column(line, len, rel->span.start_col) : rel->span.start_col + 1;
        o->col16 = have ? utf16_column(line, len, rel->span.start_col) : rel->span.start_col + 1;
        have = line_files_get(lf, lookup, ctx, rel->path, rel->span.end_row, &line, &len);
        o->end_line = rel->span.end_row + 1;
        o->end_col = have ? utf8_column(line, len, rel->span.end_col) : rel->span.end_col + 1;
        o->end_col16 = have ? utf16_column(line, len, rel->span.end_col) : rel->span.end_col + 1;
        if (o->end_line < o->line) {
            o->end_line = o->line;
            o->end_col = o->col;
            o->end_col16 = o->col16;
        } else if (o->end_line == o->line && o->end_col < o->col) {
            o->end_col = o->col;
            o->end_col16 = o->col16;
        }
    }
}

void findings_build(FindingList *out, const DiagList *d, const char *root,
                    SourceLookup lookup, void *ctx)
{
    LineFiles lf = {0}; /* the files of related places */
    memset(out, 0, sizeof *out);
    out->arena = arena_new();
    FileCursor cur = {0};
    /* Findings of one file come in line order: what is known of the line
     * of the last one (columns counted, its code and keys by rule) serves
     * the next ones on it, so that many findings on one long line cost its
     * length once. */
    ColumnMemo c8 = {0}, c16 = {0}, e8 = {0}, e16 = {0};
    RowCode rc = {.row = UINT32_MAX};
    NumMap occurrences = {0}; /* key -> occurrences so far in this file */
    for (size_t i = 0; i < d->items.n; i++) {
        const Diagnostic *g = &d->items.v[i];
        const char *path = g->path ? g->path : "";
        if (!cur.path || strcmp(cur.path, path) != 0) {
            cursor_open(&cur, path, root, lookup, ctx, out->arena);
            c8 = c16 = e8 = e16 = (ColumnMemo){0};
            rc = (RowCode){.row = UINT32_MAX};
            occurrences = (NumMap){0};
        }
        Finding f = {.diag = g, .uri_path = cur.uri, .under_root = cur.under_root};
        const char *line = NULL, *eline = NULL;
        size_t len = 0, elen = 0;
        bool have = cursor_line(&cur, g->span.start_row, &line, &len);
        bool ehave = cursor_line(&cur, g->span.end_row, &eline, &elen);
        f.line = g->span.start_row + 1;
        f.end_line = g->span.end_row + 1;
        if (f.end_line < f.line)
            f.end_line = f.line;
        f.col = have ? utf8_column_memo(&c8, line, len, g->span.start_col)
                     : g->span.start_col + 1;
        f.col16 = have ? utf16_column_memo(&c16, line, len, g->span.start_col)
                       : g->span.start_col + 1;
        f.end_col = ehave ? utf8_column_memo(&e8, eline, elen, g->span.end_col)
                          : g->span.end_col + 1;
        f.end_col16 = ehave ? utf16_column_memo(&e16, eline, elen, g->span.end_col)
                            : g->span.end_col + 1;
        if (f.end_line == f.line && f.end_col < f.col) {
            f.end_col = f.col;
            f.end_col16 = f.col16;
        }
        if (have) {
            row_code(&rc, out->arena, g->span.start_row, line, len);
            f.code = rc.code;
            f.key = row_key(&rc, out->arena, g->rule, f.uri_path);
        } else {
            f.code = arena_strdup(out->arena, g->message ? g->message : "");
            f.key = fingerprint_key(g->rule, f.uri_path, f.code);
        }
        /* The same key means the same path: counted within this file
         * (diagnostics come grouped by path). */
        size_t before = 0;
        nummap_get(&occurrences, f.key, &before);
        f.occurrence = (uint32_t)before + 1;
        nummap_set(out->arena, &occurrences, f.key, before + 1);
        f.fingerprint = arena_printf(out->arena, "%016llx:%u",
                                     (unsigned long long)f.key, f.occurrence);
        finding_edit(&f, &cur, out->arena);
        finding_related(&f, g, root, &lf, lookup, ctx, out->arena);
        VEC_PUSH(out->arena, &out->items, f);
    }
    free(cur.starts);
    line_files_free(&lf);
}

void findings_free(FindingList *l)
{
    arena_free(l->arena);
    memset(l, 0, sizeof *l);
}
