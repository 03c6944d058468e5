/* LSP base protocol framing over file descriptors:
 *
 *     Content-Length: 52\r\n
 *     Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n
 *     \r\n
 *     {"jsonrpc":"2.0","id":1,"method":"shutdown"}...
 *
 * Reading is robust to what clients and pipes do: header names in any case,
 * other headers, LF-only line ends, stray blank lines between messages,
 * messages split over many reads or many messages in one read, and bodies
 * of many megabytes. A header block without a Content-Length is skipped
 * and reading resynchronises at the next "Content-Length". */
#include "lsp_int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>

enum { MAX_HEADER_BYTES = 64 * 1024 };

void lsp_reader_init(LspReader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

void lsp_reader_free(LspReader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

/* Read more bytes into the buffer; false at the end of the stream. */
static bool fill(LspReader *r)
{
    if (r->eof)
        return false;
    if (r->start > 0 && (r->start == r->len || r->start > r->cap / 2)) {
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    if (r->cap - r->len < 4096) {
        size_t c = r->cap ? r->cap * 2 : 16384;
        char *b = realloc(r->buf, c);
        if (!b)
            abort();
        r->buf = b;
        r->cap = c;
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n > 0) {
            r->len += (size_t)n;
            return true;
        }
        if (n < 0 && errno == EINTR)
            continue;
        r->eof = true;
        return false;
    }
}

/* Ensure `need` unconsumed bytes are buffered. */
static bool want(LspReader *r, size_t need)
{
    while (r->len - r->start < need) {
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->len - r->start);
            r->len -= r->start;
            r->start = 0;
        }
        if (r->cap < need + 1) {
            size_t c = r->cap ? r->cap : 16384;
            while (c < need + 1)
                c *= 2;
            char *b = realloc(r->buf, c);
            if (!b)
                abort();
            r->buf = b;
            r->cap = c;
        }
        if (!fill(r))
            return false;
    }
    return true;
}

static bool token_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static const char *find_ci(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (!strncasecmp(s + i, needle, m))
            return s + i;
    return NULL;
}

typedef enum HeaderResult { H_MORE, H_DONE, H_RESYNC } HeaderResult;

/* Parse the header block at r->start. H_DONE: *body_at is the offset of
 * the body, *length the Content-Length (or SIZE_MAX when missing or bad).
 * H_RESYNC: junk was dropped up to a "Content-Length" further on. */
static HeaderResult parse_headers(LspReader *r, size_t *body_at, size_t *length)
{
    const char *b = r->buf;
    size_t i = r->start, end = r->len;
    *length = SIZE_MAX;
    bool seen = false;
    for (;;) {
        const char *nl = memchr(b + i, '\n', end - i);
        if (!nl)
            return H_MORE;
        size_t eol = (size_t)(nl - b), le = eol;
        if (le > i && b[le - 1] == '\r')
            le--;
        if (le == i) { /* blank line: end of the block */
            *body_at = eol + 1;
            if (!seen)
                *length = SIZE_MAX;
            return H_DONE;
        }
        const char *colon = memchr(b + i, ':', le - i);
        size_t nend = colon ? (size_t)(colon - b) : le;
        bool is_header = colon && nend > i;
        for (size_t k = i; k < nend && is_header; k++)
            is_header = token_char(b[k]);
        if (!is_header) {
            /* Not a header line: a body with no header block before it,
             * or garbage. Resynchronise at a Content-Length in it. */
            const char *cl = find_ci(b + i, le - i, "content-length");
            if (cl && cl != b + i) {
                r->start = (size_t)(cl - b);
                return H_RESYNC;
            }
            if (!cl) {
                r->start = eol + 1;
                return H_RESYNC;
            }
        }
        if (is_header && nend - i == 14 && !strncasecmp(b + i, "content-length", 14)) {
            size_t v = nend + 1, n = 0;
            while (v < le && (b[v] == ' ' || b[v] == '\t'))
                v++;
            bool ok = v < le;
            for (; v < le && b[v] >= '0' && b[v] <= '9'; v++) {
                if (n > (SIZE_MAX - 9) / 10) {
                    ok = false;
                    break;
                }
                n = n * 10 + (size_t)(b[v] - '0');
            }
            while (v < le && (b[v] == ' ' || b[v] == '\t'))
                v++;
            if (ok && v == le) {
                *length = n;
                seen = true;
            } else {
                *length = SIZE_MAX;
                seen = false;
            }
        }
        i = eol + 1;
    }
}

/* Drop blank lines (CR/LF) before a header block. */
static void skip_blank(LspReader *r)
{
    while (r->start < r->len && (r->buf[r->start] == '\r' || r->buf[r->start] == '\n'))
        r->start++;
}

LspReadStatus lsp_read(LspReader *r, char **body, size_t *len, char *why, size_t whylen)
{
    *body = NULL;
    *len = 0;
    if (whylen)
        why[0] = '\0';
    for (;;) {
        skip_blank(r);
        if (r->start == r->len && !fill(r))
            return LSP_READ_EOF;
        skip_blank(r);
        size_t body_at, length;
        HeaderResult h = parse_headers(r, &body_at, &length);
        if (h == H_RESYNC) {
            snprintf(why, whylen, "dropped bytes that are not a message header");
            return LSP_READ_BAD;
        }
        if (h == H_MORE) {
            if (r->len - r->start > MAX_HEADER_BYTES) {
                r->start = r->len;
                snprintf(why, whylen, "header block longer than %d bytes dropped",
                         MAX_HEADER_BYTES);
                return LSP_READ_BAD;
            }
            if (!fill(r))
                return LSP_READ_EOF;
            continue;
        }
        if (length == SIZE_MAX) {
            r->start = body_at;
            snprintf(why, whylen, "message header without a valid Content-Length");
            return LSP_READ_BAD;
        }
        r->start = body_at;
        if (length > LSP_MAX_MESSAGE) {
            size_t left = length;
            while (left) {
                if (r->start == r->len && !fill(r))
                    return LSP_READ_EOF;
                size_t take = r->len - r->start < left ? r->len - r->start : left;
                r->start += take;
                left -= take;
            }
            snprintf(why, whylen, "message of %zu bytes is larger than the %u-byte limit; dropped",
                     length, LSP_MAX_MESSAGE);
            return LSP_READ_BAD;
        }
        if (!want(r, length))
            return LSP_READ_EOF;
        char *m = malloc(length + 1);
        if (!m)
            abort();
        memcpy(m, r->buf + r->start, length);
        m[length] = '\0';
        r->start += length;
        *body = m;
        *len = length;
        return LSP_READ_OK;
    }
}

bool lsp_reader_pending(LspReader *r)
{
    skip_blank(r);
    if (r->start < r->len)
        return true;
    if (r->eof)
        return false;
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    int n;
    do
        n = poll(&p, 1, 0);
    while (n < 0 && errno == EINTR);
    return n > 0 && (p.revents & POLLIN);
}

bool lsp_write(int fd, const char *body, size_t len)
{
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    struct iovec iov[2] = {{head, (size_t)hn}, {(void *)body, len}};
    int cnt = 2;
    struct iovec *v = iov;
    while (cnt > 0) {
        ssize_t n = writev(fd, v, cnt);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        size_t done = (size_t)n;
        while (cnt > 0 && done >= v->iov_len) {
            done -= v->iov_len;
            v++;
            cnt--;
        }
        if (cnt > 0) {
            v->iov_base = (char *)v->iov_base + done;
            v->iov_len -= done;
        }
    }
    return true;
}
