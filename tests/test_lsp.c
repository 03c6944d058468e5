/* The language server, driven in-process: lsp_serve() runs in a thread
 * over two pipes and the tests speak framed JSON-RPC to it, as an editor
 * does, asserting on every response and notification. Also: the position
 * and text helpers alone, and project_analyze_some against project_analyze
 * on every fixture project. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lsp.h"
#include "lsp_int.h"
#include "project.h"

enum { TIMEOUT_MS = 20000 }; /* generous: the suite also runs under valgrind */

/* ---- a workspace on disk ------------------------------------------------------ */

/* The line with non-ASCII text before a finding (row 5): 'é' is 2 bytes and
 * one UTF-16 unit, '😀' 4 bytes and two UTF-16 units. */
static const char SERVICE[] =
    "import { GetCommand } from '@aws-sdk/lib-dynamodb';\n"
    "import { addSortKeyVersion, removeSortKeyVersion } from '@mbc-cqrs-serverless/core';\n"
    "import { ORDER_PREFIX, itemSk } from './keys';\n"
    "\n"
    "export async function load(ddb: any, data: any, tenantCode: string, id: string, n: string) {\n"
    "  const note = 'h\xc3\xa9llo \xf0\x9f\x98\x80'; const r = await ddb.send(new GetCommand({ "
    "TableName: 't', Key: { pk: `ORDER#${tenantCode}`, sk: itemSk(id, n) } }));\n"
    "  const sk = addSortKeyVersion(itemSk(id, n), 1);\n"
    "  const pk = `${ORDER_PREFIX}${tenantCode}`;\n"
    "  return [note, r, await data.dataService.getItem({ pk, sk }), removeSortKeyVersion];\n"
    "}\n";
/* 'ORDER#' on row 5: characters 96..102; UTF-16 97..103; UTF-8 100..106 */
enum { MS_ROW = 5, MS_U16 = 97, MS_U8 = 100, MS_LEN = 6 };
/* `sk` in `{ pk, sk }` on row 8 */
enum { VS_ROW = 8, VS_COL = 56 };

static const char KEYS[] =
    "import { addSortKeyVersion } from '@mbc-cqrs-serverless/core';\n"
    "export const ORDER_PREFIX = 'ORDER#';\n"
    "export function itemSk(a: string, b: string) { return `ITEM#${a}#${b}`; }\n"
    "export function latestSk(id: string) { return addSortKeyVersion(`ITEM#${id}`, 1); }\n";
/* keys.ts with latestSk no longer versioned */
static const char KEYS_UNVERSIONED[] =
    "import { addSortKeyVersion } from '@mbc-cqrs-serverless/core';\n"
    "export const ORDER_PREFIX = 'ORDER#';\n"
    "export function itemSk(a: string, b: string) { return `ITEM#${a}#${b}`; }\n"
    "export function latestSk(id: string) { return `ITEM#${id}`; }\n";

static const char OTHER[] =
    "import { latestSk } from './keys';\n"
    "export async function load2(data: any, pk: string, id: string) {\n"
    "  return data.dataService.getItem({ pk, sk: latestSk(id) });\n"
    "}\n";

typedef struct Workspace {
    char dir[64];
    char path[4][256]; /* service, keys, other, config */
    char uri[4][300];
} Workspace;

enum { F_SERVICE, F_KEYS, F_OTHER, F_CONFIG };

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static void ws_make(Workspace *w)
{
    snprintf(w->dir, sizeof w->dir, "/tmp/keylint-lsp-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    char src[128];
    snprintf(src, sizeof src, "%s/src", w->dir);
    assert_int_equal(mkdir(src, 0755), 0);
    static const char *const names[] = {"src/service.ts", "src/keys.ts", "src/other.ts",
                                        ".keylint.yml"};
    for (int i = 0; i < 4; i++) {
        snprintf(w->path[i], sizeof w->path[i], "%s/%s", w->dir, names[i]);
        char *u = path_to_uri(w->path[i]);
        snprintf(w->uri[i], sizeof w->uri[i], "%s", u);
        free(u);
    }
    write_file(w->path[F_SERVICE], SERVICE);
    write_file(w->path[F_KEYS], KEYS);
    write_file(w->path[F_OTHER], OTHER);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void ws_free(Workspace *w)
{
    nftw(w->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- a client ------------------------------------------------------------------ */

typedef struct Client {
    int to, from;         /* our ends */
    int srv_in, srv_out;  /* the server's */
    pthread_t thread;
    int rc;
    bool stopped;
    char *buf;
    size_t len, cap;
    json_t *queue;        /* messages read but not yet taken */
} Client;

static void *serve(void *arg)
{
    Client *c = arg;
    LspOptions o = {.verbose = getenv("KEYLINT_LSP_TEST_VERBOSE") != NULL};
    c->rc = lsp_serve(c->srv_in, c->srv_out, &o);
    close(c->srv_out); /* the client sees the end of the output */
    return NULL;
}

static void client_start(Client *c)
{
    memset(c, 0, sizeof *c);
    int a[2], b[2];
    assert_int_equal(pipe(a), 0);
    assert_int_equal(pipe(b), 0);
    c->srv_in = a[0];
    c->to = a[1];
    c->from = b[0];
    c->srv_out = b[1];
    c->queue = json_array();
    assert_int_equal(pthread_create(&c->thread, NULL, serve, c), 0);
}

/* Close the server's input and wait for it; its exit code. */
static int client_stop(Client *c)
{
    if (!c->stopped) {
        close(c->to);
        pthread_join(c->thread, NULL);
        close(c->srv_in);
        close(c->from);
        c->stopped = true;
    }
    free(c->buf);
    c->buf = NULL;
    json_decref(c->queue);
    c->queue = NULL;
    return c->rc;
}

/* Read what the server wrote; false on timeout or end of output. */
static bool pump(Client *c, int timeout_ms)
{
    struct pollfd p = {.fd = c->from, .events = POLLIN};
    if (poll(&p, 1, timeout_ms) <= 0)
        return false;
    if (c->cap - c->len < 65536) {
        c->cap = c->cap ? c->cap * 2 : 1 << 17;
        c->buf = realloc(c->buf, c->cap);
        assert_non_null(c->buf);
    }
    ssize_t n = read(c->from, c->buf + c->len, c->cap - c->len);
    if (n <= 0)
        return false;
    c->len += (size_t)n;
    return true;
}

/* Write bytes, reading the server's output meanwhile so that neither side
 * blocks on a full pipe. */
static void send_bytes(Client *c, const char *b, size_t n)
{
    size_t off = 0;
    while (off < n) {
        struct pollfd p[2] = {{.fd = c->to, .events = POLLOUT}, {.fd = c->from, .events = POLLIN}};
        assert_true(poll(p, 2, TIMEOUT_MS) > 0);
        if (p[1].revents & POLLIN)
            pump(c, 0);
        if (p[0].revents & POLLOUT) {
            size_t chunk = n - off < 4096 ? n - off : 4096;
            ssize_t w = write(c->to, b + off, chunk);
            assert_true(w > 0);
            off += (size_t)w;
        }
    }
}

static void send_framed(Client *c, const char *body)
{
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    send_bytes(c, head, (size_t)hn);
    send_bytes(c, body, strlen(body));
}

static void send_json(Client *c, json_t *m)
{
    assert_non_null(m);
    json_object_set_new(m, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    send_framed(c, body);
    free(body);
}

static void request(Client *c, int id, const char *method, json_t *params)
{
    json_t *m = json_pack("{s:i, s:s}", "id", id, "method", method);
    if (params)
        json_object_set_new(m, "params", params);
    send_json(c, m);
}

static void notify(Client *c, const char *method, json_t *params)
{
    json_t *m = json_pack("{s:s}", "method", method);
    if (params)
        json_object_set_new(m, "params", params);
    send_json(c, m);
}

/* The next framed message from the buffer, reading as needed; NULL when
 * none comes in time. */
static json_t *read_msg(Client *c, int timeout_ms)
{
    for (;;) {
        char *end = c->len ? memmem(c->buf, c->len, "\r\n\r\n", 4) : NULL;
        if (end) {
            size_t body = (size_t)(end - c->buf) + 4;
            char *cl = memmem(c->buf, body, "Content-Length: ", 16);
            assert_non_null(cl);
            size_t n = strtoul(cl + 16, NULL, 10);
            if (c->len >= body + n) {
                json_error_t err;
                json_t *m = json_loadb(c->buf + body, n, 0, &err);
                if (!m)
                    fail_msg("server sent malformed JSON: %s", err.text);
                memmove(c->buf, c->buf + body + n, c->len - body - n);
                c->len -= body + n;
                return m;
            }
        }
        if (!pump(c, timeout_ms))
            return NULL;
    }
}

typedef bool (*Pred)(const json_t *m, const void *arg);

/* The first message (queued or new) matching `pred`; the others stay
 * queued. Fails the test after the timeout. */
static json_t *take(Client *c, Pred pred, const void *arg, const char *what)
{
    size_t i;
    json_t *m;
    json_array_foreach(c->queue, i, m) {
        if (pred(m, arg)) {
            json_incref(m);
            json_array_remove(c->queue, i);
            return m;
        }
    }
    for (;;) {
        m = read_msg(c, TIMEOUT_MS);
        if (!m)
            fail_msg("no %s from the server", what);
        if (pred(m, arg))
            return m;
        json_array_append_new(c->queue, m);
    }
}

static bool is_response(const json_t *m, const void *arg)
{
    json_t *id = json_object_get(m, "id");
    return !json_object_get(m, "method") && json_is_integer(id) &&
           json_integer_value(id) == *(const int *)arg;
}

static bool is_null_id_response(const json_t *m, const void *arg)
{
    (void)arg;
    json_t *id = json_object_get(m, "id");
    return !json_object_get(m, "method") && id && json_is_null(id);
}

static bool is_publish(const json_t *m, const void *uri)
{
    const char *method = json_string_value(json_object_get(m, "method"));
    const char *u = json_string_value(json_object_get(json_object_get(m, "params"), "uri"));
    return method && u && !strcmp(method, "textDocument/publishDiagnostics") && !strcmp(u, uri);
}

static json_t *response(Client *c, int id)
{
    return take(c, is_response, &id, "response");
}

/* The diagnostics of the next publication for `uri` (a new reference). */
static json_t *publication(Client *c, const char *uri)
{
    json_t *m = take(c, is_publish, uri, "publishDiagnostics");
    json_t *d = json_incref(json_object_get(json_object_get(m, "params"), "diagnostics"));
    json_decref(m);
    return d;
}

/* No publication for `uri` is queued once a request sent now is answered
 * (the server publishes before it answers). */
static void assert_no_publication(Client *c, const char *uri, int id)
{
    request(c, id, "textDocument/hover",
            json_pack("{s:{s:s}, s:{s:i, s:i}}", "textDocument", "uri", uri, "position", "line", 0,
                      "character", 0));
    json_decref(response(c, id));
    size_t i;
    json_t *m;
    json_array_foreach(c->queue, i, m) {
        if (is_publish(m, uri))
            fail_msg("unexpected publishDiagnostics for %s", uri);
    }
}

static void drop_queue(Client *c)
{
    json_array_clear(c->queue);
}

static json_t *init_params(const Workspace *w, bool utf8)
{
    char root[300];
    char *u = path_to_uri(w->dir);
    snprintf(root, sizeof root, "%s", u);
    free(u);
    json_t *caps = json_object();
    json_t *td = json_pack("{s:{s:[s,s]}, s:{s:{s:{s:[s]}}}}", "hover", "contentFormat",
                           "markdown", "plaintext", "codeAction", "codeActionLiteralSupport",
                           "codeActionKind", "valueSet", "quickfix");
    json_object_set_new(caps, "textDocument", td);
    if (utf8)
        json_object_set_new(caps, "general",
                            json_pack("{s:[s,s]}", "positionEncodings", "utf-8", "utf-16"));
    return json_pack("{s:i, s:s, s:o, s:[{s:s, s:s}]}", "processId", (int)getpid(), "rootUri",
                     root, "capabilities", caps, "workspaceFolders", "uri", root, "name", "ws");
}

static void initialize(Client *c, const Workspace *w, bool utf8)
{
    request(c, 1, "initialize", init_params(w, utf8));
    json_t *r = response(c, 1);
    json_t *caps = json_object_get(json_object_get(r, "result"), "capabilities");
    assert_string_equal(json_string_value(json_object_get(caps, "positionEncoding")),
                        utf8 ? "utf-8" : "utf-16");
    json_decref(r);
    notify(c, "initialized", json_object());
}

static void open_doc(Client *c, const char *uri, const char *text, int version)
{
    notify(c, "textDocument/didOpen",
           json_pack("{s:{s:s, s:s, s:i, s:s}}", "textDocument", "uri", uri, "languageId",
                     "typescript", "version", version, "text", text));
}

static void shutdown_exit(Client *c, int id)
{
    request(c, id, "shutdown", NULL);
    json_t *r = response(c, id);
    assert_true(json_is_null(json_object_get(r, "result")));
    json_decref(r);
    notify(c, "exit", NULL);
    pthread_join(c->thread, NULL);
    close(c->to);
    close(c->srv_in);
    close(c->from);
    c->stopped = true;
}

/* ---- assertions on diagnostics --------------------------------------------------- */

static json_t *find_code(const json_t *diags, const char *code)
{
    size_t i;
    json_t *d;
    json_array_foreach(diags, i, d) {
        const char *cd = json_string_value(json_object_get(d, "code"));
        if (cd && !strcmp(cd, code))
            return d;
    }
    return NULL;
}

static void assert_range(const json_t *range, int l1, int c1, int l2, int c2)
{
    json_t *s = json_object_get(range, "start"), *e = json_object_get(range, "end");
    assert_int_equal(json_integer_value(json_object_get(s, "line")), l1);
    assert_int_equal(json_integer_value(json_object_get(s, "character")), c1);
    assert_int_equal(json_integer_value(json_object_get(e, "line")), l2);
    assert_int_equal(json_integer_value(json_object_get(e, "character")), c2);
}

static json_t *range_json(int l1, int c1, int l2, int c2)
{
    return json_pack("{s:{s:i,s:i}, s:{s:i,s:i}}", "start", "line", l1, "character", c1, "end",
                     "line", l2, "character", c2);
}

static void change(Client *c, const char *uri, int version, json_t *changes)
{
    notify(c, "textDocument/didChange",
           json_pack("{s:{s:s, s:i}, s:o}", "textDocument", "uri", uri, "version", version,
                     "contentChanges", changes));
}

/* ---- text and positions, alone ------------------------------------------------------ */

static void positions(void **state)
{
    (void)state;
    /* lines end in \r\n, \r and \n; 'é' = 2 bytes, '😀' = 4 bytes */
    const char t[] = "ab\r\nh\xc3\xa9\xf0\x9f\x98\x80x\rz\n";
    size_t len = strlen(t);
    LineIndex li, rows;
    lines_build(&li, t, len);
    rows_build(&rows, t, len);
    assert_int_equal(li.n, 4);
    assert_int_equal(rows.n, 3);
    /* line 1 is "hé😀x": UTF-16 units h0 é1 😀2-3 x4; bytes h0 é1-2 😀3-6 x7 */
    assert_int_equal(lsp_offset(t, len, &li, 1, 4, POS_UTF16), 4 + 7);
    assert_int_equal(lsp_offset(t, len, &li, 1, 7, POS_UTF8), 4 + 7);
    assert_int_equal(lsp_offset(t, len, &li, 1, 3, POS_UTF16), 4 + 3); /* inside the pair */
    assert_int_equal(lsp_offset(t, len, &li, 1, 2, POS_UTF8), 4 + 1);  /* inside é */
    assert_int_equal(lsp_offset(t, len, &li, 1, 99, POS_UTF16), 4 + 8); /* end of line */
    assert_int_equal(lsp_offset(t, len, &li, 2, 0, POS_UTF16), 13);     /* after \r */
    assert_int_equal(lsp_offset(t, len, &li, 9, 0, POS_UTF16), len);
    uint32_t l, ch;
    lsp_position(t, len, &li, 4 + 7, POS_UTF16, &l, &ch);
    assert_int_equal(l, 1);
    assert_int_equal(ch, 4);
    lsp_position(t, len, &li, 4 + 7, POS_UTF8, &l, &ch);
    assert_int_equal(ch, 7);
    lsp_position(t, len, &li, 13, POS_UTF16, &l, &ch);
    assert_int_equal(l, 2);
    assert_int_equal(ch, 0);
    lsp_position(t, len, &li, len, POS_UTF16, &l, &ch);
    assert_int_equal(l, 3);
    assert_int_equal(ch, 0);
    /* tree-sitter rows count "\n" only: row 1 is "hé😀x\rz" */
    assert_int_equal(row_col_offset(t, len, &rows, 1, 9), 13);
    assert_int_equal(row_col_offset(t, len, &rows, 1, 99), 14); /* clamped to the row */
    lines_free(&li);
    lines_free(&rows);

    char *buf = malloc(4);
    assert_non_null(buf);
    memcpy(buf, "abc", 4);
    size_t n = 3, cap = 4;
    text_splice(&buf, &n, &cap, 1, 2, "XYZ", 3);
    assert_string_equal(buf, "aXYZc");
    text_splice(&buf, &n, &cap, 5, 99, "!", 1);
    assert_string_equal(buf, "aXYZc!");
    text_splice(&buf, &n, &cap, 0, 6, "", 0);
    assert_string_equal(buf, "");
    free(buf);

    char *p = uri_to_path("file:///tmp/a%20b/%C3%A9.ts");
    assert_string_equal(p, "/tmp/a b/\xc3\xa9.ts");
    char *u = path_to_uri(p);
    assert_string_equal(u, "file:///tmp/a%20b/%C3%A9.ts");
    free(p);
    free(u);
    p = uri_to_path("file://localhost/x.ts");
    assert_string_equal(p, "/x.ts");
    free(p);
    assert_null(uri_to_path("untitled:Untitled-1"));
    assert_null(uri_to_path("file://server/share/x.ts"));
    assert_null(uri_to_path("file:///a%00b"));
}

/* One long line (a minified bundle, 1 MiB, with 2-, 3- and 4-byte
 * characters): every conversion is right (against a walk from the line's
 * start, done here) and the conversions walk few characters in all: each
 * from its nearest checkpoint, not from the line's start (quadratic). */
static void positions_long_line(void **state)
{
    (void)state;
    enum { N = 1 << 20, STEP = 997 };
    static const char *const pieces[] = {"ab", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "{x:1}"};
    char *t = malloc(N + 8);
    assert_non_null(t);
    size_t len = 0;
    memcpy(t, "\n", 1); /* the long line is line 1 */
    len = 1;
    for (size_t k = 0; len < N; k++) {
        const char *p = pieces[k % 5];
        memcpy(t + len, p, strlen(p));
        len += strlen(p);
    }
    t[len] = '\0';
    size_t walked = 0;
    LineIndex li;
    lines_build(&li, t, len);
    li.walked = &walked;
    size_t calls = 0;
    uint32_t u16 = 0, u8 = 0; /* the reference: units before byte i on line 1 */
    for (size_t i = 1; i < len;) {
        unsigned char c = (unsigned char)t[i];
        size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if ((i - 1) % STEP < n) { /* a character start about every STEP bytes */
            uint32_t l, ch;
            lsp_position(t, len, &li, i, POS_UTF16, &l, &ch);
            assert_int_equal(l, 1);
            assert_int_equal(ch, u16);
            lsp_position(t, len, &li, i, POS_UTF8, &l, &ch);
            assert_int_equal(ch, u8);
            assert_int_equal(lsp_offset(t, len, &li, 1, u16, POS_UTF16), i);
            assert_int_equal(lsp_offset(t, len, &li, 1, u8, POS_UTF8), i);
            if (n == 4) /* inside the pair: the character's start */
                assert_int_equal(lsp_offset(t, len, &li, 1, u16 + 1, POS_UTF16), i);
            calls += 4;
        }
        u16 += n == 4 ? 2 : 1;
        u8 += (uint32_t)n;
        i += n;
    }
    assert_true(calls > 4000);
    /* at most two checkpoint spans of characters per conversion */
    assert_true(walked <= calls * 2 * LINE_CHECKPOINT);
    lines_free(&li);
    free(t);
}

/* ---- framing ---------------------------------------------------------------------- */

static void framing(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    /* header names in any case, other headers, one byte at a time */
    json_t *m = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 1, "method",
                          "initialize", "params", init_params(&w, false));
    char *body = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    char head[160];
    int hn = snprintf(head, sizeof head,
                      "content-LENGTH:   %zu  \r\n"
                      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
                      strlen(body));
    for (int i = 0; i < hn; i++)
        send_bytes(&c, head + i, 1);
    for (size_t i = 0; body[i]; i++)
        send_bytes(&c, body + i, 1);
    free(body);
    json_t *r = response(&c, 1);
    assert_non_null(json_object_get(r, "result"));
    json_decref(r);

    /* two messages in one write, the first with LF-only header lines */
    char two[512];
    const char *b2 = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope/a\"}";
    const char *b3 = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope/b\"}";
    snprintf(two, sizeof two, "Content-Length: %zu\n\n%sContent-Length: %zu\r\n\r\n%s", strlen(b2),
             b2, strlen(b3), b3);
    send_bytes(&c, two, strlen(two));
    r = response(&c, 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "error"), "code")),
                     -32601);
    json_decref(r);
    r = response(&c, 3);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "error"), "code")),
                     -32601);
    json_decref(r);

    /* a body with no header before it is skipped; the next message is read */
    char junk[512];
    const char *b4 = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"nope/c\"}";
    snprintf(junk, sizeof junk, "{\"jsonrpc\":\"2.0\",\"id\":9}\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(b4), b4);
    send_bytes(&c, junk, strlen(junk));
    r = response(&c, 4);
    assert_non_null(json_object_get(r, "error"));
    json_decref(r);
    /* a header block without Content-Length is skipped too */
    char nolen[512];
    const char *b5 = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"nope/d\"}";
    snprintf(nolen, sizeof nolen, "Content-Type: x\r\n\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(b5), b5);
    send_bytes(&c, nolen, strlen(nolen));
    r = response(&c, 5);
    assert_non_null(json_object_get(r, "error"));
    json_decref(r);

    /* a big message: a 3 MiB document (in 100 KB lines: extraction time
     * grows with the square of the number of top-level nodes) */
    size_t big = 3u << 20;
    char *text = malloc(big + 256);
    assert_non_null(text);
    size_t o = 0;
    while (o + 100000 < big) {
        o += (size_t)sprintf(text + o, "// filler %08zu ", o);
        memset(text + o, 'x', 99000);
        o += 99000;
        text[o++] = '\n';
    }
    strcpy(text + o, "export const K = `ORDER#${id}`;\n");
    open_doc(&c, w.uri[F_OTHER], text, 1);
    free(text);
    json_t *d = publication(&c, w.uri[F_OTHER]);
    assert_true(json_is_array(d));
    json_decref(d);

    shutdown_exit(&c, 6);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

/* ---- lifecycle and errors ------------------------------------------------------------ */

static int error_code(json_t *r)
{
    return (int)json_integer_value(json_object_get(json_object_get(r, "error"), "code"));
}

static void lifecycle(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    /* before initialize: requests are refused, notifications dropped */
    open_doc(&c, w.uri[F_SERVICE], SERVICE, 1);
    request(&c, 1, "textDocument/hover", json_object());
    json_t *r = response(&c, 1);
    assert_int_equal(error_code(r), -32002);
    json_decref(r);

    request(&c, 2, "initialize", init_params(&w, false));
    r = response(&c, 2);
    json_t *caps = json_object_get(json_object_get(r, "result"), "capabilities");
    json_t *sync = json_object_get(caps, "textDocumentSync");
    assert_true(json_is_true(json_object_get(sync, "openClose")));
    assert_int_equal(json_integer_value(json_object_get(sync, "change")), 2);
    assert_non_null(json_object_get(sync, "save"));
    assert_true(json_is_true(json_object_get(caps, "hoverProvider")));
    assert_non_null(json_object_get(caps, "codeActionProvider"));
    assert_string_equal(json_string_value(json_object_get(caps, "positionEncoding")), "utf-16");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_object_get(r, "result"), "serverInfo"), "name")),
                        "keylint");
    json_decref(r);
    notify(&c, "initialized", json_object());

    request(&c, 3, "initialize", init_params(&w, false));
    r = response(&c, 3);
    assert_int_equal(error_code(r), -32600);
    json_decref(r);

    /* unknown methods; `$/` requests too; unknown notifications are ignored */
    notify(&c, "workspace/somethingNew", json_object());
    notify(&c, "$/cancelRequest", json_pack("{s:i}", "id", 99));
    request(&c, 4, "textDocument/definition", json_object());
    json_t *first = read_msg(&c, TIMEOUT_MS);
    assert_non_null(first);
    assert_int_equal(json_integer_value(json_object_get(first, "id")), 4);
    assert_int_equal(error_code(first), -32601);
    json_decref(first);
    request(&c, 5, "$/somethingElse", NULL);
    r = response(&c, 5);
    assert_int_equal(error_code(r), -32601);
    json_decref(r);

    /* malformed JSON: a ParseError with id null, and the server goes on */
    send_framed(&c, "{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": ");
    r = take(&c, is_null_id_response, NULL, "ParseError");
    assert_int_equal(error_code(r), -32700);
    json_decref(r);
    send_framed(&c, "[1, 2]");
    r = take(&c, is_null_id_response, NULL, "InvalidRequest");
    assert_int_equal(error_code(r), -32600);
    json_decref(r);
    send_framed(&c, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":42}");
    r = response(&c, 7);
    assert_int_equal(error_code(r), -32600);
    json_decref(r);

    /* invalid params */
    request(&c, 8, "textDocument/hover", json_pack("{s:{s:s}}", "textDocument", "uri",
                                                   w.uri[F_SERVICE]));
    r = response(&c, 8);
    assert_int_equal(error_code(r), -32602);
    json_decref(r);
    request(&c, 9, "textDocument/codeAction", json_pack("[i]", 1));
    r = response(&c, 9);
    assert_int_equal(error_code(r), -32602);
    json_decref(r);
    request(&c, 10, "textDocument/codeAction",
            json_pack("{s:{s:s}, s:{s:{s:s}}}", "textDocument", "uri", w.uri[F_SERVICE], "range",
                      "start", "line", "x"));
    r = response(&c, 10);
    assert_int_equal(error_code(r), -32602);
    json_decref(r);

    /* the didOpen sent before initialize was dropped: nothing is open */
    request(&c, 11, "textDocument/hover",
            json_pack("{s:{s:s}, s:{s:i, s:i}}", "textDocument", "uri", w.uri[F_SERVICE],
                      "position", "line", MS_ROW, "character", MS_U16));
    r = response(&c, 11);
    assert_true(json_is_null(json_object_get(r, "result")));
    json_decref(r);

    request(&c, 12, "shutdown", NULL);
    r = response(&c, 12);
    assert_true(json_is_null(json_object_get(r, "result")));
    assert_null(json_object_get(r, "error"));
    json_decref(r);
    request(&c, 13, "textDocument/hover", json_object());
    r = response(&c, 13);
    assert_int_equal(error_code(r), -32600);
    json_decref(r);
    notify(&c, "exit", NULL);
    assert_int_equal(client_stop(&c), 0);

    /* exit without shutdown: exit code 1; so is the input just ending */
    client_start(&c);
    initialize(&c, &w, false);
    notify(&c, "exit", NULL);
    assert_int_equal(client_stop(&c), 1);
    client_start(&c);
    initialize(&c, &w, false);
    assert_int_equal(client_stop(&c), 1);
    ws_free(&w);
}

/* ---- diagnostics and positions ---------------------------------------------------------- */

/* docs/rules of the nearest ancestor of this executable's directory that
 * has one, as the server looks for it; NULL when there is none. */
static char *docs_beside_exe(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = '\0';
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            return NULL;
        *slash = '\0';
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/docs/rules/magic-string.md", exe);
        if (access(probe, R_OK) == 0) {
            snprintf(probe, sizeof probe, "%s/docs/rules", exe);
            return strdup(probe);
        }
    }
    return NULL;
}

static void check_service(const json_t *diags, bool utf8)
{
    int col = utf8 ? MS_U8 : MS_U16;
    json_t *ms = find_code(diags, "magic-string");
    assert_non_null(ms);
    assert_range(json_object_get(ms, "range"), MS_ROW, col, MS_ROW, col + MS_LEN);
    assert_int_equal(json_integer_value(json_object_get(ms, "severity")), 2);
    assert_string_equal(json_string_value(json_object_get(ms, "source")), "keylint");
    assert_non_null(strstr(json_string_value(json_object_get(ms, "message")), "ORDER#"));
    /* the rule's page in the source tree the binary was built in (an
     * ancestor of the executable's directory), when there is one */
    const char *href =
        json_string_value(json_object_get(json_object_get(ms, "codeDescription"), "href"));
    char *docs = docs_beside_exe();
    if (docs) {
        char want[4200];
        char *u = path_to_uri(docs);
        snprintf(want, sizeof want, "%s/magic-string.md", u);
        free(u);
        assert_non_null(href);
        assert_string_equal(href, want);
        free(docs);
    } else {
        assert_null(href);
    }
    json_t *vs = find_code(diags, "versioned-sk-read");
    assert_non_null(vs);
    assert_range(json_object_get(vs, "range"), VS_ROW, VS_COL, VS_ROW, VS_COL + 2);
    assert_int_equal(json_integer_value(json_object_get(vs, "severity")), 1);
}

static void diagnostics_in(bool utf8)
{
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    initialize(&c, &w, utf8);
    open_doc(&c, w.uri[F_SERVICE], SERVICE, 1);
    json_t *d = publication(&c, w.uri[F_SERVICE]);
    assert_int_equal(json_array_size(d), 2);
    check_service(d, utf8);
    json_decref(d);

    /* insert "ab" right after the emoji: the finding moves by two */
    int after = utf8 ? 27 : 24;
    change(&c, w.uri[F_SERVICE], 2,
           json_pack("[{s:o, s:s}]", "range", range_json(MS_ROW, after, MS_ROW, after), "text",
                     "ab"));
    d = publication(&c, w.uri[F_SERVICE]);
    json_t *ms = find_code(d, "magic-string");
    assert_non_null(ms);
    int col = (utf8 ? MS_U8 : MS_U16) + 2;
    assert_range(json_object_get(ms, "range"), MS_ROW, col, MS_ROW, col + MS_LEN);
    json_decref(d);

    /* a position inside the emoji (half a surrogate pair, a byte inside
     * the UTF-8 sequence) is its start: "Z" lands before it */
    int inside = utf8 ? 25 : 23;
    change(&c, w.uri[F_SERVICE], 3,
           json_pack("[{s:o, s:s}]", "range", range_json(MS_ROW, inside, MS_ROW, inside), "text",
                     "Z"));
    d = publication(&c, w.uri[F_SERVICE]);
    ms = find_code(d, "magic-string");
    col += 1;
    assert_range(json_object_get(ms, "range"), MS_ROW, col, MS_ROW, col + MS_LEN);
    json_decref(d);

    /* replace the inline prefix, in the negotiated units: the finding goes */
    change(&c, w.uri[F_SERVICE], 4,
           json_pack("[{s:o, s:s}]", "range", range_json(MS_ROW, col, MS_ROW, col + MS_LEN),
                     "text", "${ORDER_PREFIX}"));
    d = publication(&c, w.uri[F_SERVICE]);
    assert_null(find_code(d, "magic-string"));
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_decref(d);

    /* a full-text change restores the original */
    change(&c, w.uri[F_SERVICE], 5, json_pack("[{s:s}]", "text", SERVICE));
    d = publication(&c, w.uri[F_SERVICE]);
    check_service(d, utf8);
    json_decref(d);

    /* several changes in one notification apply in order */
    change(&c, w.uri[F_SERVICE], 6,
           json_pack("[{s:o, s:s}, {s:o, s:s}]", "range", range_json(0, 0, 0, 0), "text",
                     "// one\n", "range", range_json(0, 0, 0, 0), "text", "// two\n"));
    d = publication(&c, w.uri[F_SERVICE]);
    ms = find_code(d, "magic-string");
    col = utf8 ? MS_U8 : MS_U16;
    assert_range(json_object_get(ms, "range"), MS_ROW + 2, col, MS_ROW + 2, col + MS_LEN);
    json_decref(d);

    /* a half-typed line: the rest of the file keeps its diagnostics, and the
     * region not read is a note (severity 3) where it is */
    change(&c, w.uri[F_SERVICE], 7,
           json_pack("[{s:o, s:s}]", "range", range_json(VS_ROW + 1, 0, VS_ROW + 1, 0), "text",
                     "  if (note.\n"));
    d = publication(&c, w.uri[F_SERVICE]);
    assert_non_null(find_code(d, "magic-string"));
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_t *e = NULL;
    for (size_t i = 0; i < json_array_size(d); i++) {
        json_t *m = json_object_get(json_array_get(d, i), "message");
        if (strstr(json_string_value(m), "not read"))
            e = json_array_get(d, i);
    }
    assert_non_null(e);
    assert_int_equal(json_integer_value(json_object_get(e, "severity")), 3);
    json_t *start = json_object_get(json_object_get(e, "range"), "start");
    assert_int_equal(json_integer_value(json_object_get(start, "line")), VS_ROW + 1);
    json_decref(d);

    shutdown_exit(&c, 50);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

static void diagnostics_utf16(void **state)
{
    (void)state;
    diagnostics_in(false);
}

static void diagnostics_utf8(void **state)
{
    (void)state;
    diagnostics_in(true);
}

/* ---- one file's edit changes another's findings -------------------------------------------- */

static void cross_file(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    initialize(&c, &w, false);
    open_doc(&c, w.uri[F_OTHER], OTHER, 1);
    json_t *d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 1);
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_decref(d);
    open_doc(&c, w.uri[F_KEYS], KEYS, 1);
    json_decref(publication(&c, w.uri[F_KEYS]));
    /* opening keys.ts as it is on disk changes nothing in other.ts */
    assert_no_publication(&c, w.uri[F_OTHER], 10);

    /* latestSk stops adding a version: other.ts's finding goes */
    change(&c, w.uri[F_KEYS], 2, json_pack("[{s:s}]", "text", KEYS_UNVERSIONED));
    d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 0);
    json_decref(d);
    drop_queue(&c);

    /* closing keys.ts: back to the disk's text, and the finding is back;
     * the closed document's diagnostics are cleared */
    notify(&c, "textDocument/didClose",
           json_pack("{s:{s:s}}", "textDocument", "uri", w.uri[F_KEYS]));
    d = publication(&c, w.uri[F_KEYS]);
    assert_int_equal(json_array_size(d), 0);
    json_decref(d);
    d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 1);
    json_decref(d);

    /* a change on disk of an open file: its buffer wins */
    write_file(w.path[F_OTHER], "export const nothing = 1;\n");
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_OTHER], "type", 2));
    assert_no_publication(&c, w.uri[F_OTHER], 12);

    /* a change on disk of a file that is not open, announced by the client */
    write_file(w.path[F_KEYS], KEYS_UNVERSIONED);
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_KEYS], "type", 2));
    d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 0);
    json_decref(d);
    /* ... and deleted */
    assert_int_equal(unlink(w.path[F_KEYS]), 0);
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_KEYS], "type", 3));
    assert_no_publication(&c, w.uri[F_OTHER], 11);
    /* ... and created again */
    write_file(w.path[F_KEYS], KEYS);
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_KEYS], "type", 1));
    d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 1);
    json_decref(d);

    shutdown_exit(&c, 50);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

/* A workspace folder that is a folder of checkouts (no git work tree of
 * its own, two below it): a document is linted in its checkout, as the
 * command line lints the folder. a's keys carry a tenant; b's, another
 * project, need none, and get no missing-tenant from a. */
static void folder_of_checkouts(void **state)
{
    (void)state;
    Workspace w;
    snprintf(w.dir, sizeof w.dir, "/tmp/keylint-lsp-XXXXXX");
    assert_non_null(mkdtemp(w.dir));
    char p[320];
    static const char *const dirs[] = {"a", "a/.git", "b", "b/.git"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(p, sizeof p, "%s/%s", w.dir, dirs[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    snprintf(p, sizeof p, "%s/a/orders.ts", w.dir);
    write_file(p, "export const ORDER = (tenantCode: string, id: string) => "
                  "({ PK: `ORDER#${tenantCode}`, SK: `ORDER#${id}` });\n"
                  "export const ITEM = (tenantCode: string, id: string) => "
                  "({ PK: `ITEM#${tenantCode}`, SK: `ITEM#${id}` });\n");
    static const char users[] =
        "export const USER = (id: string) => ({ PK: `USER#${id}`, SK: 'PROFILE' });\n"
        "export const TEAM = (id: string) => ({ PK: `TEAM#${id}`, SK: 'META' });\n";
    snprintf(p, sizeof p, "%s/b/users.ts", w.dir);
    write_file(p, users);
    char *uri = path_to_uri(p);
    Client c;
    client_start(&c);
    initialize(&c, &w, false);
    open_doc(&c, uri, users, 1);
    json_t *d = publication(&c, uri);
    assert_null(find_code(d, "missing-tenant"));
    assert_int_equal(json_array_size(d), 0);
    json_decref(d);
    shutdown_exit(&c, 2);
    assert_int_equal(client_stop(&c), 0);
    free(uri);
    ws_free(&w);
}

/* An editor started without a workspace folder (one file opened): the
 * project around the file is read, as `keylint FILE` reads it, so that
 * other.ts's helper from keys.ts (on disk, not open) resolves. */
static void no_workspace(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    request(&c, 1, "initialize",
            json_pack("{s:i, s:n, s:{}}", "processId", (int)getpid(), "rootUri",
                      "capabilities"));
    json_decref(response(&c, 1));
    notify(&c, "initialized", json_object());
    open_doc(&c, w.uri[F_OTHER], OTHER, 1);
    json_t *d = publication(&c, w.uri[F_OTHER]);
    assert_int_equal(json_array_size(d), 1);
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_decref(d);
    shutdown_exit(&c, 2);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

/* ---- configuration ---------------------------------------------------------------------- */

static void configuration(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    initialize(&c, &w, false);
    open_doc(&c, w.uri[F_SERVICE], SERVICE, 1);
    json_t *d = publication(&c, w.uri[F_SERVICE]);
    assert_non_null(find_code(d, "magic-string"));
    json_decref(d);

    /* a configuration notification that changes nothing: no new load, no
     * new diagnostics */
    notify(&c, "workspace/didChangeConfiguration",
           json_pack("{s:{s:{}}}", "settings", "editor"));
    assert_no_publication(&c, w.uri[F_SERVICE], 20);

    /* a .keylint.yml appears that turns magic-string off */
    write_file(w.path[F_CONFIG], "rules: { magic-string: off }\n");
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_CONFIG], "type", 1));
    d = publication(&c, w.uri[F_SERVICE]);
    assert_null(find_code(d, "magic-string"));
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_decref(d);

    /* a broken one: its problem is published on it */
    write_file(w.path[F_CONFIG], "rules: { magic-string: loud }\n");
    notify(&c, "workspace/didChangeConfiguration", json_pack("{s:{}}", "settings"));
    d = publication(&c, w.uri[F_CONFIG]);
    assert_int_equal(json_array_size(d), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(d, 0), "severity")), 1);
    json_decref(d);
    drop_queue(&c);

    /* fixed: the problem is cleared and the rule is back */
    assert_int_equal(unlink(w.path[F_CONFIG]), 0);
    notify(&c, "workspace/didChangeConfiguration", json_pack("{s:{}}", "settings"));
    d = publication(&c, w.uri[F_CONFIG]);
    assert_int_equal(json_array_size(d), 0);
    json_decref(d);
    d = publication(&c, w.uri[F_SERVICE]);
    assert_non_null(find_code(d, "magic-string"));
    json_decref(d);

    /* a schema a configuration names: changing it re-lints the open
     * documents; another YAML file does not */
    char schema[300], other_yaml[300];
    snprintf(schema, sizeof schema, "%s/template.yaml", w.dir);
    snprintf(other_yaml, sizeof other_yaml, "%s/unrelated.yaml", w.dir);
    write_file(schema, "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n"
                       "      TableName: t\n      AttributeDefinitions:\n"
                       "        - { AttributeName: pk, AttributeType: S }\n"
                       "      KeySchema:\n        - { AttributeName: pk, KeyType: HASH }\n");
    write_file(other_yaml, "a: 1\n");
    write_file(w.path[F_CONFIG], "schemas: [template.yaml]\n");
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", w.uri[F_CONFIG], "type", 2));
    json_decref(publication(&c, w.uri[F_SERVICE]));
    drop_queue(&c);
    char *u = path_to_uri(other_yaml);
    write_file(other_yaml, "a: 2\n");
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", u, "type", 2));
    free(u);
    assert_no_publication(&c, w.uri[F_SERVICE], 21);
    u = path_to_uri(schema);
    write_file(schema, "Resources: {}\n");
    notify(&c, "workspace/didChangeWatchedFiles",
           json_pack("{s:[{s:s, s:i}]}", "changes", "uri", u, "type", 2));
    free(u);
    json_decref(publication(&c, w.uri[F_SERVICE]));
    drop_queue(&c);

    shutdown_exit(&c, 50);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

/* ---- code actions and hover ---------------------------------------------------------------- */

static json_t *action_titled(const json_t *actions, const char *prefix)
{
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        const char *t = json_string_value(json_object_get(a, "title"));
        if (t && !strncmp(t, prefix, strlen(prefix)))
            return a;
    }
    return NULL;
}

/* The one TextEdit of an action on `uri`. */
static json_t *only_edit(const json_t *action, const char *uri)
{
    json_t *edits =
        json_object_get(json_object_get(json_object_get(action, "edit"), "changes"), uri);
    assert_int_equal(json_array_size(edits), 1);
    return json_array_get(edits, 0);
}

static json_t *code_actions(Client *c, int id, const char *uri, json_t *range, json_t *only)
{
    json_t *ctx = json_pack("{s:[]}", "diagnostics");
    if (only)
        json_object_set_new(ctx, "only", only);
    request(c, id, "textDocument/codeAction",
            json_pack("{s:{s:s}, s:o, s:o}", "textDocument", "uri", uri, "range", range,
                      "context", ctx));
    json_t *r = response(c, id);
    json_t *res = json_incref(json_object_get(r, "result"));
    json_decref(r);
    assert_true(json_is_array(res));
    return res;
}

static void actions_and_hover(void **state)
{
    (void)state;
    Workspace w;
    ws_make(&w);
    Client c;
    client_start(&c);
    initialize(&c, &w, false);
    open_doc(&c, w.uri[F_SERVICE], SERVICE, 1);
    json_decref(publication(&c, w.uri[F_SERVICE]));

    /* magic-string: replace the prefix with the constant, which the file
     * imports and which is the only one holding that text */
    json_t *acts = code_actions(&c, 2, w.uri[F_SERVICE],
                                range_json(MS_ROW, MS_U16 + 1, MS_ROW, MS_U16 + 1), NULL);
    json_t *fix = action_titled(acts, "Replace 'ORDER#'");
    assert_non_null(fix);
    assert_string_equal(json_string_value(json_object_get(fix, "kind")), "quickfix");
    assert_true(json_is_true(json_object_get(fix, "isPreferred")));
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(fix, "diagnostics"), 0), "code")),
                        "magic-string");
    json_t *e = only_edit(fix, w.uri[F_SERVICE]);
    assert_range(json_object_get(e, "range"), MS_ROW, MS_U16, MS_ROW, MS_U16 + MS_LEN);
    assert_string_equal(json_string_value(json_object_get(e, "newText")), "${ORDER_PREFIX}");
    /* and suppress it, above the line, indented like it */
    json_t *sup = action_titled(acts, "Suppress magic-string on this line");
    assert_non_null(sup);
    e = only_edit(sup, w.uri[F_SERVICE]);
    assert_range(json_object_get(e, "range"), MS_ROW, 0, MS_ROW, 0);
    assert_string_equal(json_string_value(json_object_get(e, "newText")),
                        "  // keylint-disable-next-line magic-string -- TODO: reason\n");
    assert_int_equal(json_array_size(acts), 2);
    json_decref(acts);

    /* only refactorings wanted: none */
    acts = code_actions(&c, 3, w.uri[F_SERVICE], range_json(MS_ROW, 0, MS_ROW, 200),
                        json_pack("[s]", "refactor"));
    assert_int_equal(json_array_size(acts), 0);
    json_decref(acts);

    /* source.fixAll.keylint: every safe fix of the file in one edit,
     * whatever the range; only when asked for by kind ("source" admits
     * it). The versioned read's fix changes the key: it is unsafe, and
     * left out. */
    acts = code_actions(&c, 30, w.uri[F_SERVICE], range_json(0, 0, 0, 0),
                        json_pack("[s]", "source"));
    assert_int_equal(json_array_size(acts), 1);
    json_t *all = json_array_get(acts, 0);
    assert_string_equal(json_string_value(json_object_get(all, "kind")),
                        "source.fixAll.keylint");
    json_t *alle = json_object_get(json_object_get(json_object_get(all, "edit"), "changes"),
                                   w.uri[F_SERVICE]);
    assert_int_equal(json_array_size(alle), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(alle, 0), "newText")),
                        "${ORDER_PREFIX}");
    json_decref(acts);
    acts = code_actions(&c, 31, w.uri[F_SERVICE], range_json(MS_ROW, 0, MS_ROW, 200),
                        json_pack("[s]", "quickfix"));
    for (size_t k = 0; k < json_array_size(acts); k++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(acts, k), "kind")),
                            "quickfix");
    json_decref(acts);

    /* versioned-sk-read: `{ pk, sk }` becomes `{ pk, sk: removeSortKeyVersion(sk) }` */
    acts = code_actions(&c, 4, w.uri[F_SERVICE], range_json(VS_ROW, VS_COL, VS_ROW, VS_COL),
                        NULL);
    fix = action_titled(acts, "Replace 'sk'");
    assert_non_null(fix);
    /* offered as unsafe, and not preferred */
    assert_non_null(strstr(json_string_value(json_object_get(fix, "title")), "(unsafe: "));
    assert_null(json_object_get(fix, "isPreferred"));
    e = only_edit(fix, w.uri[F_SERVICE]);
    assert_range(json_object_get(e, "range"), VS_ROW, VS_COL, VS_ROW, VS_COL + 2);
    assert_string_equal(json_string_value(json_object_get(e, "newText")),
                        "sk: removeSortKeyVersion(sk)");
    json_decref(acts);

    /* applying the suppression silences the finding */
    change(&c, w.uri[F_SERVICE], 2,
           json_pack("[{s:o, s:s}]", "range", range_json(MS_ROW, 0, MS_ROW, 0), "text",
                     "  // keylint-disable-next-line magic-string -- TODO: reason\n"));
    json_t *d = publication(&c, w.uri[F_SERVICE]);
    assert_null(find_code(d, "magic-string"));
    assert_non_null(find_code(d, "versioned-sk-read"));
    json_decref(d);
    /* a second rule on a line under a directive joins its list */
    change(&c, w.uri[F_SERVICE], 3,
           json_pack("[{s:o, s:s}]", "range", range_json(VS_ROW + 1, 0, VS_ROW + 1, 0), "text",
                     "  // keylint-disable-next-line magic-string -- why\n"));
    d = publication(&c, w.uri[F_SERVICE]);
    json_decref(d);
    acts = code_actions(&c, 5, w.uri[F_SERVICE],
                        range_json(VS_ROW + 2, VS_COL, VS_ROW + 2, VS_COL), NULL);
    sup = action_titled(acts, "Suppress versioned-sk-read");
    assert_non_null(sup);
    e = only_edit(sup, w.uri[F_SERVICE]);
    /* after "// keylint-disable-next-line magic-string" on the row above */
    assert_range(json_object_get(e, "range"), VS_ROW + 1, 43, VS_ROW + 1, 43);
    assert_string_equal(json_string_value(json_object_get(e, "newText")), ", versioned-sk-read");
    json_decref(acts);

    /* hover: the rule's docs, on the finding's range; nothing elsewhere */
    request(&c, 6, "textDocument/hover",
            json_pack("{s:{s:s}, s:{s:i, s:i}}", "textDocument", "uri", w.uri[F_SERVICE],
                      "position", "line", VS_ROW + 2, "character", VS_COL + 1));
    json_t *r = response(&c, 6);
    json_t *res = json_object_get(r, "result");
    json_t *contents = json_object_get(res, "contents");
    assert_string_equal(json_string_value(json_object_get(contents, "kind")), "markdown");
    const char *md = json_string_value(json_object_get(contents, "value"));
    assert_non_null(strstr(md, "versioned-sk-read"));
    assert_non_null(strstr(md, "carries a version suffix"));      /* the message */
    assert_non_null(strstr(md, rule_docs("versioned-sk-read"))); /* the docs */
    assert_range(json_object_get(res, "range"), VS_ROW + 2, VS_COL, VS_ROW + 2, VS_COL + 2);
    /* on a key, also the entity chart of the file's entities */
    assert_non_null(strstr(md, "key design of this file's entities"));
    assert_non_null(strstr(md, "| **ORDER** | `ORDER#{tenantCode}` (read) | `ITEM#{id}#{n}` (read) |"));
    /* its code sites relative to the workspace folder, wherever the server
     * was started */
    assert_non_null(strstr(md, "`src/service.ts:"));
    assert_null(strstr(md, w.dir));
    json_decref(r);
    request(&c, 7, "textDocument/hover",
            json_pack("{s:{s:s}, s:{s:i, s:i}}", "textDocument", "uri", w.uri[F_SERVICE],
                      "position", "line", 0, "character", 3));
    r = response(&c, 7);
    assert_true(json_is_null(json_object_get(r, "result")));
    json_decref(r);

    /* no quick fix when the constant is not imported where the prefix is
     * (only the suppression is offered) */
    char plain[300];
    snprintf(plain, sizeof plain, "%s/src/plain.ts", w.dir);
    char *plain_uri = path_to_uri(plain);
    open_doc(&c, plain_uri,
             "export async function g(ddb: any, id: string) {\n"
             "  return ddb.get({ TableName: 't', Key: { pk: `ORDER#${id}`, sk: 'x' } }).promise();\n"
             "}\n",
             1);
    d = publication(&c, plain_uri);
    json_t *ms = find_code(d, "magic-string");
    assert_non_null(ms);
    assert_range(json_object_get(ms, "range"), 1, 47, 1, 53);
    json_decref(d);
    acts = code_actions(&c, 8, plain_uri, range_json(1, 48, 1, 48), NULL);
    assert_null(action_titled(acts, "Replace"));
    assert_non_null(action_titled(acts, "Suppress magic-string on this line"));
    json_decref(acts);
    free(plain_uri);

    /* a finding on a line that starts inside a multi-line template: a
     * comment above it would be part of the template's text (the value
     * changes, nothing is suppressed); keylint-disable-line at the end of
     * the line instead */
    char tpl[300];
    snprintf(tpl, sizeof tpl, "%s/src/tpl.ts", w.dir);
    char *tpl_uri = path_to_uri(tpl);
    open_doc(&c, tpl_uri,
             "export async function g(ddb: any, id: string) {\n"
             "  const note = `first line\n"
             "  ${'x'}`; return ddb.get({ TableName: 't', Key: { pk: `ORDER#${id}`, sk: 'x' } }).promise();\n"
             "}\n",
             1);
    d = publication(&c, tpl_uri);
    ms = find_code(d, "magic-string");
    assert_non_null(ms);
    assert_range(json_object_get(ms, "range"), 2, 56, 2, 62);
    json_decref(d);
    acts = code_actions(&c, 11, tpl_uri, range_json(2, 57, 2, 57), NULL);
    sup = action_titled(acts, "Suppress magic-string on this line");
    assert_non_null(sup);
    e = only_edit(sup, tpl_uri);
    assert_range(json_object_get(e, "range"), 2, 93, 2, 93);
    assert_string_equal(json_string_value(json_object_get(e, "newText")),
                        " // keylint-disable-line magic-string -- TODO: reason");
    json_decref(acts);
    free(tpl_uri);

    /* two constants hold the same text: keys.ts gets a second (named like
     * a key part). The service imports one of them, ORDER_PREFIX: that is
     * the one meant there */
    open_doc(&c, w.uri[F_KEYS], KEYS, 1);
    change(&c, w.uri[F_KEYS], 2,
           json_pack("[{s:o, s:s}]", "range", range_json(1, 0, 1, 0), "text",
                     "export const ORDER_KEY = 'ORDER#';\n"));
    change(&c, w.uri[F_SERVICE], 4, json_pack("[{s:s}]", "text", SERVICE));
    json_decref(publication(&c, w.uri[F_SERVICE]));
    acts = code_actions(&c, 9, w.uri[F_SERVICE],
                        range_json(MS_ROW, MS_U16 + 1, MS_ROW, MS_U16 + 1), NULL);
    fix = action_titled(acts, "Replace 'ORDER#' with '${ORDER_PREFIX}'");
    assert_non_null(fix);
    json_decref(acts);
    /* a file that imports neither: which is meant is a guess, no fix */
    char other[300];
    snprintf(other, sizeof other, "%s/src/other.ts", w.dir);
    char *other_uri = path_to_uri(other);
    open_doc(&c, other_uri,
             "import { X } from './x';\n"
             "export async function g(ddb: any, id: string) {\n"
             "  return ddb.get({ TableName: 't', Key: { pk: `ORDER#${id}`, sk: 'x' } }).promise();\n"
             "}\n",
             1);
    json_decref(publication(&c, other_uri));
    acts = code_actions(&c, 10, other_uri, range_json(2, 48, 2, 48), NULL);
    assert_null(action_titled(acts, "Replace"));
    assert_non_null(action_titled(acts, "Suppress magic-string on this line"));
    json_decref(acts);
    free(other_uri);

    shutdown_exit(&c, 50);
    assert_int_equal(client_stop(&c), 0);
    ws_free(&w);
}

/* ---- project_analyze_some = project_analyze, for the files checked ---------------------------- */

static bool diag_same(const Diagnostic *a, const Diagnostic *b)
{
    return !strcmp(a->rule, b->rule) && !strcmp(a->path, b->path) &&
           !memcmp(&a->span, &b->span, sizeof a->span) && a->severity == b->severity &&
           !strcmp(a->message, b->message);
}

/* The diagnostics of `full` on the files `some` checked, and on the
 * project's other inputs (schemas, configurations), equal `some`'s. */
static void assert_same_diags(const Project *full, const Project *some, const char *const *check,
                              size_t ncheck)
{
    size_t j = 0;
    for (size_t i = 0; i < full->diags.items.n; i++) {
        const Diagnostic *d = &full->diags.items.v[i];
        bool checked = project_file(full, d->path) == NULL;
        for (size_t k = 0; k < ncheck && !checked; k++) {
            const SourceFile *f = project_file(full, check[k]);
            checked = f && !strcmp(f->path, d->path);
        }
        if (!checked)
            continue;
        if (j >= some->diags.items.n)
            fail_msg("the fast path lacks %s:%u [%s] %s", d->path, d->span.start_row + 1,
                     d->rule, d->message);
        const Diagnostic *e = &some->diags.items.v[j];
        if (!diag_same(d, e))
            fail_msg("the fast path differs at %s:%u [%s] %s: it has %s:%u [%s] %s", d->path,
                     d->span.start_row + 1, d->rule, d->message, e->path,
                     e->span.start_row + 1, e->rule, e->message);
        j++;
    }
    assert_int_equal(j, some->diags.items.n);
}

static void fast_path_project(const char *dir, size_t *comment_edits)
{
    Project *full = project_new(NULL), *some = project_new(NULL);
    const char *one[] = {dir};
    project_add_paths(full, one, 1);
    project_add_paths(some, one, 1);
    project_analyze(full);
    size_t n = full->files.n;
    const char **all = malloc((n + 1) * sizeof *all);
    assert_non_null(all);
    for (size_t i = 0; i < n; i++)
        all[i] = full->files.v[i].abspath;
    project_analyze_some(some, NULL, 0, all, n);
    assert_same_diags(full, some, all, n);
    /* each file edited in turn (a line added, then a line dropped), in both */
    for (size_t i = 0; i < n; i++) {
        const SourceFile *f = &full->files.v[i];
        if (!f->text)
            continue;
        char *path = strdup(f->abspath);
        size_t len = f->len;
        char *t = malloc(len + 32);
        assert_non_null(t);
        memcpy(t, "// edited\n", 10);
        memcpy(t + 10, f->text, len);
        project_set_text(full, path, t, len + 10);
        project_set_text(some, path, t, len + 10);
        project_analyze(full);
        const char *changed[] = {path};
        project_analyze_some(some, changed, 1, all, n);
        assert_same_diags(full, some, all, n);
        /* now only the edited file checked */
        project_analyze_some(some, changed, 1, changed, 1);
        assert_same_diags(full, some, changed, 1);
        /* edits inside a comment: every position after it moves, the code
         * does not (the facts of the last analysis stand); twice, so that
         * the IR kept for those facts outlives an edit */
        static const char *const comments[] = {"/* edited\n   over two lines */",
                                               "/* edited\n\n   over three lines */"};
        for (size_t c = 0; c < 2; c++) {
            size_t cl = strlen(comments[c]);
            char *u = malloc(cl + len + 1);
            assert_non_null(u);
            memcpy(u, comments[c], cl);
            memcpy(u + cl, t + 9, len + 1); /* from the newline after "// edited" */
            const SourceFile *sf = project_set_text(some, path, u, cl + len + 1);
            *comment_edits += sf->same_code;
            project_set_text(full, path, u, cl + len + 1);
            project_analyze(full);
            project_analyze_some(some, changed, 1, all, n);
            assert_same_diags(full, some, all, n);
            free(u);
        }
        /* dropping the file's last line (it may hold a helper) */
        size_t cut = len + 10;
        while (cut > 10 && t[cut - 1] == '\n')
            cut--;
        while (cut > 10 && t[cut - 1] != '\n')
            cut--;
        project_set_text(full, path, t, cut);
        project_set_text(some, path, t, cut);
        project_analyze(full);
        project_analyze_some(some, changed, 1, all, n);
        assert_same_diags(full, some, all, n);
        free(t);
        free(path);
    }
    /* a file removed, then everything checked */
    if (n > 1) {
        char *path = strdup(full->files.v[0].abspath);
        project_remove(full, path);
        project_remove(some, path);
        project_analyze(full);
        const char *changed[] = {path};
        project_analyze_some(some, changed, 1, all + 1, n - 1);
        assert_same_diags(full, some, all + 1, n - 1);
        free(path);
    }
    free(all);
    project_free(full);
    project_free(some);
}

static void fast_path(void **state)
{
    (void)state;
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    if (!root)
        root = ".";
    char fixtures[4096];
    snprintf(fixtures, sizeof fixtures, "%s/fixtures", root);
    DIR *d = opendir(fixtures);
    assert_non_null(d);
    size_t projects = 0, comment_edits = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", fixtures, e->d_name);
        struct stat st;
        if (stat(dir, &st) || !S_ISDIR(st.st_mode))
            continue;
        fast_path_project(dir, &comment_edits);
        projects++;
    }
    closedir(d);
    assert_true(projects >= 6);
    /* most files define no table: their comment edits keep the facts */
    assert_true(comment_edits >= projects);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(positions),
        cmocka_unit_test(positions_long_line),
        cmocka_unit_test(framing),
        cmocka_unit_test(lifecycle),
        cmocka_unit_test(diagnostics_utf16),
        cmocka_unit_test(diagnostics_utf8),
        cmocka_unit_test(cross_file),
        cmocka_unit_test(no_workspace),
        cmocka_unit_test(folder_of_checkouts),
        cmocka_unit_test(configuration),
        cmocka_unit_test(actions_and_hover),
        cmocka_unit_test(fast_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
