/* Document text for the language server: line indexes, LSP positions in
 * UTF-16 code units or UTF-8 bytes, edits, and file:// URIs. */
#include "lsp_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

/* ---- line indexes -------------------------------------------------------- */

static void push_start(LineIndex *li, size_t *cap, size_t off)
{
    if (li->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        li->start = xrealloc(li->start, *cap * sizeof *li->start);
    }
    li->start[li->n++] = off;
}

static void checkpoints_build(LineIndex *li, const char *text, size_t len);

void lines_build(LineIndex *li, const char *text, size_t len)
{
    if (!len || !memchr(text, '\r', len)) { /* then LSP lines are rows (memchr is fast) */
        rows_build(li, text, len);
        checkpoints_build(li, text, len);
        return;
    }
    size_t cap = 0;
    *li = (LineIndex){0};
    push_start(li, &cap, 0);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\r') {
            if (i + 1 < len && text[i + 1] == '\n')
                i++;
            push_start(li, &cap, i + 1);
        } else if (text[i] == '\n') {
            push_start(li, &cap, i + 1);
        }
    }
    checkpoints_build(li, text, len);
}

void rows_build(LineIndex *li, const char *text, size_t len)
{
    size_t cap = 0;
    *li = (LineIndex){0};
    push_start(li, &cap, 0);
    for (const char *p = text, *end = text + len;
         p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
        push_start(li, &cap, (size_t)(p - text) + 1);
}

void lines_free(LineIndex *li)
{
    free(li->start);
    free(li->cp_off);
    free(li->cp_u16);
    *li = (LineIndex){0};
}

/* ---- characters ---------------------------------------------------------- */

/* Length of the UTF-8 sequence at s[i] (1 for a stray or truncated byte). */
static size_t char_len(const char *s, size_t i, size_t end)
{
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0x80 ? 1 : c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 1;
    if (n == 1 || i + n > end)
        return 1;
    for (size_t k = 1; k < n; k++)
        if (((unsigned char)s[i + k] & 0xC0) != 0x80)
            return 1;
    return n;
}

/* Units one character of `n` bytes counts as. */
static uint32_t units(size_t n, PosEncoding enc)
{
    if (enc == POS_UTF8)
        return (uint32_t)n;
    return n == 4 ? 2 : 1; /* outside the BMP: a surrogate pair */
}

/* End of line `line`'s content (before its terminator). */
static size_t line_end(const char *text, size_t len, const LineIndex *li, size_t line)
{
    if (line + 1 >= li->n)
        return len;
    size_t e = li->start[line + 1];
    if (e > li->start[line] && text[e - 1] == '\n')
        e--;
    if (e > li->start[line] && text[e - 1] == '\r')
        e--;
    return e;
}

/* Checkpoints every LINE_CHECKPOINT bytes (none for a short text). A
 * character never spans a line end ("\r" and "\n" are not continuation
 * bytes), so characters counted from the start of the text are those
 * counted from the start of any line. */
static void checkpoints_build(LineIndex *li, const char *text, size_t len)
{
    if (len < 2 * LINE_CHECKPOINT)
        return;
    size_t n = len / LINE_CHECKPOINT + 1;
    li->cp_off = xrealloc(NULL, n * sizeof *li->cp_off);
    li->cp_u16 = xrealloc(NULL, n * sizeof *li->cp_u16);
    size_t u = 0, next = 0;
    for (size_t i = 0; i < len;) {
        if (i >= next) {
            li->cp_off[li->ncp] = i;
            li->cp_u16[li->ncp++] = u;
            next = li->ncp * (size_t)LINE_CHECKPOINT;
        }
        size_t c = char_len(text, i, len);
        u += units(c, POS_UTF16);
        i += c;
    }
}

/* The units (in `enc`) before the character holding byte `off` (before
 * `off` itself when it starts one), from the start of the text, walking
 * from the last checkpoint at or before `off`. */
static size_t units_before(const char *text, size_t len, const LineIndex *li, size_t off,
                           PosEncoding enc)
{
    size_t i = 0, u = 0;
    if (li->ncp) {
        size_t lo = 0, hi = li->ncp; /* the last checkpoint <= off */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (li->cp_off[mid] <= off)
                lo = mid;
            else
                hi = mid;
        }
        i = li->cp_off[lo];
        u = enc == POS_UTF8 ? i : li->cp_u16[lo];
    }
    size_t steps = 0;
    while (i < off) {
        size_t n = char_len(text, i, len);
        if (i + n > off)
            break;
        u += units(n, enc);
        i += n;
        steps++;
    }
    if (li->walked)
        *li->walked += steps;
    return u;
}

size_t lsp_offset(const char *text, size_t len, const LineIndex *li, uint32_t line,
                  uint32_t character, PosEncoding enc)
{
    if (line >= li->n)
        return len;
    size_t i = li->start[line], end = line_end(text, len, li, line);
    uint32_t u = 0;
    if (li->ncp && character > 0) {
        /* start from the last checkpoint on this line not past `character` */
        size_t base = units_before(text, len, li, i, enc);
        size_t lo = 0, hi = li->ncp, best = SIZE_MAX;
        while (lo < hi) { /* the first checkpoint after the line's start */
            size_t mid = lo + (hi - lo) / 2;
            if (li->cp_off[mid] <= i)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t a = lo, b = li->ncp; a < b;) { /* the last one within reach */
            size_t mid = a + (b - a) / 2;
            size_t mu = enc == POS_UTF8 ? li->cp_off[mid] : li->cp_u16[mid];
            if (li->cp_off[mid] <= end && mu - base <= character) {
                best = mid;
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        if (best != SIZE_MAX) {
            i = li->cp_off[best];
            u = (uint32_t)((enc == POS_UTF8 ? li->cp_off[best] : li->cp_u16[best]) - base);
        }
    }
    size_t steps = 0;
    while (i < end && u < character) {
        size_t n = char_len(text, i, end);
        uint32_t w = units(n, enc);
        if (u + w > character)
            break; /* inside this character: its start */
        u += w;
        i += n;
        steps++;
    }
    if (li->walked)
        *li->walked += steps;
    return i;
}

void lsp_position(const char *text, size_t len, const LineIndex *li, size_t off,
                  PosEncoding enc, uint32_t *line, uint32_t *character)
{
    if (off > len)
        off = len;
    size_t lo = 0, hi = li->n; /* last start <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (li->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t end = line_end(text, len, li, lo);
    if (off > end)
        off = end;
    *line = (uint32_t)lo;
    *character = (uint32_t)(units_before(text, len, li, off, enc) -
                            units_before(text, len, li, li->start[lo], enc));
}

size_t row_col_offset(const char *text, size_t len, const LineIndex *rows, uint32_t row,
                       uint32_t col)
{
    (void)text;
    if (row >= rows->n)
        return len;
    size_t s = rows->start[row];
    size_t e = row + 1 < rows->n ? rows->start[row + 1] - 1 : len; /* the '\n' */
    return s + col < e ? s + col : e;
}

void text_splice(char **text, size_t *len, size_t *cap, size_t start, size_t end,
                 const char *ins, size_t n)
{
    if (start > *len)
        start = *len;
    if (end > *len)
        end = *len;
    if (end < start)
        end = start;
    size_t newlen = *len - (end - start) + n;
    if (newlen + 1 > *cap) {
        size_t c = *cap ? *cap : 256;
        while (c < newlen + 1)
            c *= 2;
        *text = xrealloc(*text, c);
        *cap = c;
    }
    memmove(*text + start + n, *text + end, *len - end);
    memcpy(*text + start, ins, n);
    *len = newlen;
    (*text)[newlen] = '\0';
}

/* ---- URIs ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *uri_to_path(const char *uri)
{
    if (!uri || strncasecmp(uri, "file://", 7))
        return NULL;
    const char *p = uri + 7;
    /* the authority: empty or localhost */
    const char *slash = strchr(p, '/');
    if (!slash)
        return NULL;
    if (slash != p && !((size_t)(slash - p) == 9 && !strncasecmp(p, "localhost", 9)))
        return NULL;
    size_t n = strcspn(slash, "?#");
    char *out = malloc(n + 1);
    if (!out)
        abort();
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (slash[i] == '%' && i + 2 < n && hexval(slash[i + 1]) >= 0 &&
            hexval(slash[i + 2]) >= 0) {
            char c = (char)(hexval(slash[i + 1]) * 16 + hexval(slash[i + 2]));
            if (c == '\0') {
                free(out);
                return NULL;
            }
            out[o++] = c;
            i += 2;
        } else {
            out[o++] = slash[i];
        }
    }
    out[o] = '\0';
    return out;
}

char *path_to_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *out = malloc(8 + 3 * n + 1);
    if (!out)
        abort();
    size_t o = 0;
    memcpy(out, "file://", 7);
    o = 7;
    if (path[0] != '/')
        out[o++] = '/';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
    return out;
}
