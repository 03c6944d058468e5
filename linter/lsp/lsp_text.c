/* Document text for the language server: line indexes, LSP positions in
 * UTF-16 code units or UTF-8 bytes, edits, and file:// URIs. */
#include "lsp_int.h"

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

void lines_build(LineIndex *li, const char *text, size_t len)
{
    if (!len || !memchr(text, '\r', len)) { /* then LSP lines are rows (memchr is fast) */
        rows_build(li, text, len);
        return;
    }
    size_t cap = 0;
    li->start = NULL;
    li->n = 0;
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
}

void rows_build(LineIndex *li, const char *text, size_t len)
{
    size_t cap = 0;
    li->start = NULL;
    li->n = 0;
    push_start(li, &cap, 0);
    for (const char *p = text, *end = text + len;
         p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
        push_start(li, &cap, (size_t)(p - text) + 1);
}

void lines_free(LineIndex *li)
{
    free(li->start);
    li->start = NULL;
    li->n = 0;
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

size_t lsp_offset(const char *text, size_t len, const LineIndex *li, uint32_t line,
                  uint32_t character, PosEncoding enc)
{
    if (line >= li->n)
        return len;
    size_t i = li->start[line], end = line_end(text, len, li, line);
    uint32_t u = 0;
    while (i < end && u < character) {
        size_t n = char_len(text, i, end);
        uint32_t w = units(n, enc);
        if (u + w > character)
            break; /* inside this character: its start */
        u += w;
        i += n;
    }
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
    uint32_t u = 0;
    for (size_t i = li->start[lo]; i < off;) {
        size_t n = char_len(text, i, end);
        if (i + n > off)
            break;
        u += units(n, enc);
        i += n;
    }
    *line = (uint32_t)lo;
    *character = u;
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
