/* The language server's parts, shared between lsp*.c and tests/test_lsp.c:
 * message framing (lsp_io.c), document text, positions and URIs
 * (lsp_text.c). Not part of the linter's pipeline. */
#ifndef KEYLINT_LSP_INT_H
#define KEYLINT_LSP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- framing: `Content-Length: N\r\n ... \r\n\r\n` + N bytes of JSON ---- */

/* Largest message body accepted; a bigger one is read and dropped. An 8 MiB
 * source file (the linter's limit) escaped into JSON stays well below. */
#define LSP_MAX_MESSAGE (64u * 1024u * 1024u)

/* Reads framed messages from a file descriptor. Owns its buffer. */
typedef struct LspReader {
    int fd;
    char *buf;     /* malloc'd */
    size_t start;  /* first unconsumed byte */
    size_t len;    /* bytes held (from 0) */
    size_t cap;
    bool eof;
} LspReader;

typedef enum LspReadStatus {
    LSP_READ_OK,  /* *body holds one message (malloc'd, NUL-terminated) */
    LSP_READ_EOF, /* the stream ended (a partial message is dropped) */
    LSP_READ_BAD, /* a header block without a usable Content-Length, or a
                   * body over LSP_MAX_MESSAGE: skipped; `why` says what */
} LspReadStatus;

void lsp_reader_init(LspReader *r, int fd);
void lsp_reader_free(LspReader *r);
/* Blocks until one message, the end of the stream, or a framing error.
 * Header names are matched case-insensitively; headers other than
 * Content-Length are ignored; lines may end in CRLF or LF. */
LspReadStatus lsp_read(LspReader *r, char **body, size_t *len, char *why,
                       size_t whylen);
/* True when a whole message is already buffered or the descriptor has
 * bytes waiting (so that a burst of edits is analysed once). */
bool lsp_reader_pending(LspReader *r);
/* Write one framed message; false when the descriptor fails. */
bool lsp_write(int fd, const char *body, size_t len);

/* ---- positions ----------------------------------------------------------- */

typedef enum PosEncoding {
    POS_UTF16 = 0, /* LSP's default: UTF-16 code units */
    POS_UTF8,      /* bytes, when the client offers "utf-8" */
} PosEncoding;

/* Where each LSP line starts: lines end at "\n", "\r\n" or "\r" (the
 * protocol's rule). malloc'd; free with lines_free. */
typedef struct LineIndex {
    size_t *start;
    size_t n; /* number of lines (at least 1) */
    /* Checkpoints for positions on long lines (lines_build only): the
     * first character start at or after each LINE_CHECKPOINT bytes, and
     * the UTF-16 units before it from the start of the text; a conversion
     * walks from the nearest one, so that converting positions on one long
     * line (a minified bundle) stays linear in all. */
    size_t *cp_off, *cp_u16;
    size_t ncp;
    size_t *walked; /* when set, the characters conversions walked are added */
} LineIndex;

enum { LINE_CHECKPOINT = 1024 };

void lines_build(LineIndex *li, const char *text, size_t len);
/* The same for tree-sitter's rows, which end at "\n" only. */
void rows_build(LineIndex *li, const char *text, size_t len);
void lines_free(LineIndex *li);

/* Byte offset of an LSP position; a line past the end is the end of the
 * text, a character past the end of its line is the end of the line, and
 * a position inside a character (half a surrogate pair, a byte inside a
 * UTF-8 sequence) is the start of that character. */
size_t lsp_offset(const char *text, size_t len, const LineIndex *li,
                  uint32_t line, uint32_t character, PosEncoding enc);
/* The LSP position of byte offset `off` (clamped to the text). */
void lsp_position(const char *text, size_t len, const LineIndex *li, size_t off,
                  PosEncoding enc, uint32_t *line, uint32_t *character);
/* Byte offset of a tree-sitter point (0-based row, byte column) with the
 * rows of rows_build, clamped to its row and to the text. */
size_t row_col_offset(const char *text, size_t len, const LineIndex *rows,
                       uint32_t row, uint32_t col);

/* Replace text[start..end) with ins[0..n); *text is malloc'd and grows.
 * start and end are clamped; end < start means an insertion at start. */
void text_splice(char **text, size_t *len, size_t *cap, size_t start,
                 size_t end, const char *ins, size_t n);

/* ---- URIs ----------------------------------------------------------------- */

/* The absolute path of a file:// URI (percent-decoded), malloc'd; NULL for
 * another scheme, a non-local host or a path with NUL in it. */
char *uri_to_path(const char *uri);
/* A file:// URI for an absolute path, percent-encoding what RFC 3986 does
 * not allow in a path segment. malloc'd. */
char *path_to_uri(const char *path);

#endif
