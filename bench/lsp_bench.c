/* How fast `keylint lsp` re-diagnoses a file while someone types in it.
 *
 *   lsp_bench KEYLINT [--lines N] [--files N] [--edits N] [--in comment|code]
 *
 * Writes a workspace to a temporary directory: src/keys.ts (key helpers
 * and constants), src/big.service.ts (a service of about N lines, default
 * 2000, full of key reads and writes that import the helpers) and --files
 * more services of 150 lines each (default 0). Starts `KEYLINT lsp`,
 * initializes it on the workspace, opens the big file, then sends --edits
 * (default 200) one-character incremental edits (typing a character into
 * a comment, then deleting it, spread over the file; with --in code, a
 * space typed into a line's indentation, outside the comment, so that the
 * code changes and the whole analysis runs) and times each from
 * writing textDocument/didChange to reading the textDocument/
 * publishDiagnostics of that version. Prints the median, p95 and maximum,
 * and the server's CPU time per edit (which depends little on the load of
 * the machine, unlike the latencies).
 * KEYLINT_BENCH_KEEP=1 keeps the workspace (and says where).
 *
 *   lsp_bench KEYLINT --workspace DIR --open FILE [--edits N] [--cache-dir D]
 *
 * The same against an existing workspace (a tree of real applications):
 * initializes the server with DIR as its root (and, with --cache-dir,
 * initializationOptions.cacheDir D: the cache between runs the command
 * line's `--cache-dir D` fills), opens FILE with its text on disk, and
 * types a space into the indentation of code lines of it (then deletes
 * it), --edits times. Prints the time to the reply to initialize, from
 * didOpen to the first publishDiagnostics of the file (and from the
 * start), the server's CPU time and peak memory by then, and the edits'
 * latencies as above. Nothing in DIR is written by the benchmark. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "lsp_bench: %s: %s\n", what, strerror(errno));
    exit(1);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- the workspace --------------------------------------------------------- */

static const char KEYS[] =
    "import { KEY_SEPARATOR, generateId } from '@mbc-cqrs-serverless/core';\n"
    "\n"
    "export const ORDER_PK_PREFIX = 'ORDER';\n"
    "export const ORDER_SK_PREFIX = 'ORDER';\n"
    "export const ORDER_ITEM_SK_PREFIX = 'ORDER_ITEM';\n"
    "\n"
    "export function generateOrderPk(tenantCode: string): string {\n"
    "  return `${ORDER_PK_PREFIX}${KEY_SEPARATOR}${tenantCode}`;\n"
    "}\n"
    "\n"
    "export function generateOrderSk(orderId: string): string {\n"
    "  return `${ORDER_SK_PREFIX}${KEY_SEPARATOR}${orderId}`;\n"
    "}\n"
    "\n"
    "export const generateOrderItemSk = (orderId: string, itemId: string): string =>\n"
    "  `${ORDER_ITEM_SK_PREFIX}${KEY_SEPARATOR}${orderId}${KEY_SEPARATOR}${itemId}`;\n"
    "\n"
    "export function orderId(pk: string, sk: string): string {\n"
    "  return generateId(pk, sk);\n"
    "}\n";

static const char HEAD[] =
    "import {\n"
    "  addSortKeyVersion,\n"
    "  removeSortKeyVersion,\n"
    "  KEY_SEPARATOR,\n"
    "} from '@mbc-cqrs-serverless/core';\n"
    "import { generateOrderItemSk, generateOrderPk, generateOrderSk } from './keys';\n"
    "\n"
    "export class OrderService%d {\n"
    "  constructor(\n"
    "    private readonly dataService: any,\n"
    "    private readonly historyService: any,\n"
    "    private readonly commandService: any,\n"
    "  ) {}\n";

/* 31 lines; line 1 is the comment the benchmark types into. */
static const char METHODS[] =
    "\n"
    "  // note %d\n"
    "  async getOrder%d(tenantCode: string, orderId: string) {\n"
    "    const pk = generateOrderPk(tenantCode);\n"
    "    const sk = generateOrderSk(orderId);\n"
    "    return this.dataService.getItem({ pk, sk });\n"
    "  }\n"
    "\n"
    "  async getOrderVersion%d(tenantCode: string, orderId: string, version: number) {\n"
    "    const pk = generateOrderPk(tenantCode);\n"
    "    const skWithVersion = addSortKeyVersion(generateOrderSk(orderId), version);\n"
    "    const old = await this.historyService.getItem({ pk, sk: skWithVersion });\n"
    "    const latest = await this.dataService.getItem({ pk, sk: skWithVersion });\n"
    "    const same = await this.dataService.getItem({ pk, sk: removeSortKeyVersion(skWithVersion) });\n"
    "    return { old, latest, same };\n"
    "  }\n"
    "\n"
    "  async listItems%d(tenantCode: string, orderId: string) {\n"
    "    return this.dataService.listItemsByPk(generateOrderPk(tenantCode), {\n"
    "      sk: {\n"
    "        skExpession: 'begins_with(sk, :prefix)',\n"
    "        skAttributeValues: { ':prefix': `ORDER_ITEM${KEY_SEPARATOR}${orderId}` },\n"
    "      },\n"
    "    });\n"
    "  }\n"
    "\n"
    "  async addItem%d(tenantCode: string, orderId: string, itemId: string) {\n"
    "    await this.commandService.publishAsync({\n"
    "      pk: generateOrderPk(tenantCode),\n"
    "      sk: generateOrderItemSk(orderId, itemId),\n"
    "      version: 0,\n"
    "    });\n"
    "  }\n";

enum { HEAD_LINES = 13, METHOD_LINES = 33 };

/* A service of about `lines` lines; the rows of its "// note" comments
 * go to notes (when not NULL). */
static char *service(int n, int lines, int **notes, int *nnotes)
{
    size_t cap = (size_t)lines * 120 + 4096, len = 0;
    char *s = malloc(cap);
    if (!s)
        die("malloc");
    len += (size_t)snprintf(s, cap, HEAD, n);
    int row = HEAD_LINES, k = 0;
    if (notes) {
        *notes = malloc(sizeof **notes * (size_t)(lines / METHOD_LINES + 2));
        *nnotes = 0;
    }
    while (row + METHOD_LINES + 1 <= lines) {
        if (len + 4096 > cap) {
            cap *= 2;
            s = realloc(s, cap);
            if (!s)
                die("realloc");
        }
        if (notes)
            (*notes)[(*nnotes)++] = row + 1;
        len += (size_t)snprintf(s + len, cap - len, METHODS, k, k, k, k, k);
        row += METHOD_LINES;
        k++;
    }
    snprintf(s + len, cap - len, "}\n");
    return s;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f))
        die(path);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* ---- the server -------------------------------------------------------------- */

typedef struct Conn {
    pid_t pid;
    int to, from;
    char *buf;
    size_t len, cap;
} Conn;

static void send_msg(Conn *c, json_t *m)
{
    char *body = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(body));
    if (write(c->to, head, (size_t)hn) != hn)
        die("write");
    size_t n = strlen(body), off = 0;
    while (off < n) {
        ssize_t w = write(c->to, body + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            die("write");
        off += (size_t)w;
    }
    free(body);
}

static json_t *recv_msg(Conn *c)
{
    for (;;) {
        char *end = c->len ? memmem(c->buf, c->len, "\r\n\r\n", 4) : NULL;
        if (end) {
            size_t body = (size_t)(end - c->buf) + 4;
            char *cl = memmem(c->buf, body, "Content-Length:", 15);
            size_t n = cl ? strtoul(cl + 15, NULL, 10) : 0;
            if (c->len >= body + n) {
                json_t *m = json_loadb(c->buf + body, n, 0, NULL);
                memmove(c->buf, c->buf + body + n, c->len - body - n);
                c->len -= body + n;
                return m;
            }
        }
        if (c->cap - c->len < 65536) {
            c->cap = c->cap ? c->cap * 2 : 1 << 20;
            c->buf = realloc(c->buf, c->cap);
            if (!c->buf)
                die("realloc");
        }
        ssize_t r = read(c->from, c->buf + c->len, c->cap - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            fprintf(stderr, "lsp_bench: the server closed its output\n");
            exit(1);
        }
        c->len += (size_t)r;
    }
}

/* Wait for the publishDiagnostics of `uri` at `version`; the number of
 * diagnostics it carried. */
static size_t wait_publish(Conn *c, const char *uri, long version)
{
    for (;;) {
        json_t *m = recv_msg(c);
        if (!m) {
            fprintf(stderr, "lsp_bench: the server sent malformed JSON\n");
            exit(1);
        }
        const char *method = json_string_value(json_object_get(m, "method"));
        json_t *p = json_object_get(m, "params");
        if (method && !strcmp(method, "textDocument/publishDiagnostics") &&
            !strcmp(json_string_value(json_object_get(p, "uri")), uri) &&
            json_integer_value(json_object_get(p, "version")) == version) {
            size_t n = json_array_size(json_object_get(p, "diagnostics"));
            json_decref(m);
            return n;
        }
        json_decref(m);
    }
}

/* CPU time the server has used so far (user + system), in ms; -1 when
 * /proc cannot say. Unlike the latencies, it hardly depends on what else
 * the machine is doing. */
static double server_cpu_ms(pid_t pid)
{
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

/* The server's peak resident memory (VmHWM) in MiB; -1 when /proc cannot
 * say. */
static double server_peak_mib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    double kib = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kib = strtod(line + 6, NULL);
    fclose(f);
    return kib < 0 ? -1 : kib / 1024.0;
}

/* A whole file, malloc'd and NUL-terminated. */
static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path);
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    for (;;) {
        if (!s)
            die("malloc");
        len += fread(s + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        cap *= 2;
        s = realloc(s, cap);
    }
    fclose(f);
    s[len] = '\0';
    return s;
}

/* The rows of `text` that are code behind indentation (a space or tab
 * first, then neither a comment nor a blank): where the benchmark types a
 * space into a real file. */
static int *code_rows(const char *text, int *n)
{
    int cap = 64, row = 0;
    int *v = malloc(sizeof *v * (size_t)cap);
    *n = 0;
    for (const char *p = text; *p; row++) {
        const char *e = strchr(p, '\n');
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        bool code = q > p && *q && *q != '\n' && *q != '\r' && *q != '/' && *q != '*';
        if (code) {
            if (*n == cap) {
                cap *= 2;
                v = realloc(v, sizeof *v * (size_t)cap);
            }
            if (!v)
                die("realloc");
            v[(*n)++] = row;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: lsp_bench KEYLINT [--lines N] [--files N] [--edits N] [--in comment|code]\n"
                "       lsp_bench KEYLINT --workspace DIR --open FILE [--edits N] [--cache-dir D]\n");
        return 2;
    }
    int lines = 2000, files = 0, edits = 200;
    bool in_code = false;
    const char *workspace = NULL, *open_file = NULL, *cache_dir = NULL;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--in") && (!strcmp(argv[i + 1], "code") ||
                                        !strcmp(argv[i + 1], "comment")))
            in_code = !strcmp(argv[i + 1], "code");
        else if (!strcmp(argv[i], "--lines"))
            lines = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--files"))
            files = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--edits"))
            edits = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--workspace"))
            workspace = argv[i + 1];
        else if (!strcmp(argv[i], "--open"))
            open_file = argv[i + 1];
        else if (!strcmp(argv[i], "--cache-dir"))
            cache_dir = argv[i + 1];
        else {
            fprintf(stderr, "lsp_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (lines < 100 || edits < 2 || files < 0) {
        fprintf(stderr, "lsp_bench: --lines >= 100, --edits >= 2, --files >= 0\n");
        return 2;
    }
    if (!workspace != !open_file) {
        fprintf(stderr, "lsp_bench: --workspace and --open go together\n");
        return 2;
    }

    char dir[4096] = "/tmp/keylint-bench-XXXXXX";
    char path[4096], big[4096];
    int *notes, nnotes;
    char *text;
    if (workspace) {
        char *w = realpath(workspace, NULL), *o = realpath(open_file, NULL);
        if (!w || !o)
            die(!w ? workspace : open_file);
        snprintf(dir, sizeof dir, "%s", w);
        snprintf(big, sizeof big, "%s", o);
        free(w);
        free(o);
        text = read_whole(big);
        notes = code_rows(text, &nnotes);
        if (!nnotes) {
            fprintf(stderr, "lsp_bench: %s has no indented code line to type into\n", big);
            return 2;
        }
        in_code = true;
        goto start;
    }
    if (!mkdtemp(dir))
        die("mkdtemp");
    snprintf(path, sizeof path, "%s/src", dir);
    if (mkdir(path, 0755))
        die(path);
    snprintf(path, sizeof path, "%s/src/keys.ts", dir);
    write_file(path, KEYS);
    text = service(0, lines, &notes, &nnotes);
    snprintf(big, sizeof big, "%s/src/big.service.ts", dir);
    write_file(big, text);
    for (int i = 0; i < files; i++) {
        char *t = service(i + 1, 150, NULL, NULL);
        snprintf(path, sizeof path, "%s/src/svc%d.ts", dir, i);
        write_file(path, t);
        free(t);
    }
start:;
    int nlines = 0;
    for (const char *p = text; *p; p++)
        nlines += *p == '\n';

    int in[2], out[2];
    if (pipe(in) || pipe(out))
        die("pipe");
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(argv[1], argv[1], "lsp", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    Conn c = {.pid = pid, .to = in[1], .from = out[0]};

    char root[4200], uri[4200];
    snprintf(root, sizeof root, "file://%s", dir);
    snprintf(uri, sizeof uri, "file://%s", big);
    double t0 = now_ms();
    json_t *init = json_pack("{s:s, s:{}}", "rootUri", root, "capabilities");
    if (cache_dir)
        json_object_set_new(init, "initializationOptions",
                            json_pack("{s:s}", "cacheDir", cache_dir));
    send_msg(&c, json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 1, "method",
                           "initialize", "params", init));
    json_decref(recv_msg(&c));
    double init_ms = now_ms() - t0;
    send_msg(&c, json_pack("{s:s, s:s, s:{}}", "jsonrpc", "2.0", "method", "initialized",
                           "params"));
    double t_open = now_ms();
    send_msg(&c, json_pack("{s:s, s:s, s:{s:{s:s, s:s, s:i, s:s}}}", "jsonrpc", "2.0", "method",
                           "textDocument/didOpen", "params", "textDocument", "uri", uri,
                           "languageId", "typescript", "version", 1, "text", text));
    size_t ndiag = wait_publish(&c, uri, 1);
    double open_ms = now_ms() - t0, first_ms = now_ms() - t_open;
    double load_cpu = server_cpu_ms(pid), load_peak = server_peak_mib(pid);

    double *lat = malloc(sizeof *lat * (size_t)edits);
    if (!lat)
        die("malloc");
    double cpu0 = server_cpu_ms(pid);
    for (int i = 0; i < edits; i++) {
        /* type "x" after "// note" on a comment line, then delete it; in
         * code, a space before it */
        int row = notes[(i / 2 * 7) % nnotes];
        int col = in_code ? 0 : 9; /* after "  // note" */
        json_t *change = i % 2 == 0
            ? json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}}, s:s}", "range", "start", "line", row,
                        "character", col, "end", "line", row, "character", col, "text",
                        in_code ? " " : "x")
            : json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}}, s:i, s:s}", "range", "start", "line",
                        row, "character", col, "end", "line", row, "character", col + 1,
                        "rangeLength", 1, "text", "");
        double a = now_ms();
        send_msg(&c, json_pack("{s:s, s:s, s:{s:{s:s, s:i}, s:[o]}}", "jsonrpc", "2.0", "method",
                               "textDocument/didChange", "params", "textDocument", "uri", uri,
                               "version", i + 2, "contentChanges", change));
        wait_publish(&c, uri, i + 2);
        lat[i] = now_ms() - a;
    }
    double cpu1 = server_cpu_ms(pid);
    double peak = server_peak_mib(pid);
    send_msg(&c, json_pack("{s:s, s:i, s:s}", "jsonrpc", "2.0", "id", 2, "method", "shutdown"));
    json_decref(recv_msg(&c));
    send_msg(&c, json_pack("{s:s, s:s}", "jsonrpc", "2.0", "method", "exit"));
    int status = 0;
    waitpid(pid, &status, 0);

    qsort(lat, (size_t)edits, sizeof *lat, cmp_double);
    double median = edits % 2 ? lat[edits / 2] : (lat[edits / 2 - 1] + lat[edits / 2]) / 2;
    size_t i95 = (size_t)(0.95 * (edits - 1) + 0.5);
    if (workspace)
        printf("keylint lsp: %s (%d lines, %zu diagnostics) in the workspace %s%s%s, %d "
               "one-space edits in code\n",
               big, nlines, ndiag, dir, cache_dir ? ", cache " : "", cache_dir ? cache_dir : "",
               edits);
    else
        printf("keylint lsp: %d-line file (%zu findings), %d other files, %d one-character "
               "edits in %s\n",
               nlines, ndiag, files + 1, edits, in_code ? "code" : "a comment");
    printf("  open + first diagnostics: %.1f ms (including initialize and workspace load)\n",
           open_ms);
    printf("  initialize answered after %.1f ms; didOpen -> first publishDiagnostics %.1f ms\n",
           init_ms, first_ms);
    if (load_cpu >= 0)
        printf("  server CPU time to the first diagnostics: %.0f ms; peak memory then %.0f MiB, "
               "after the edits %.0f MiB\n",
               load_cpu, load_peak, peak);
    printf("  didChange -> publishDiagnostics: median %.1f ms, p95 %.1f ms, max %.1f ms\n",
           median, lat[i95], lat[edits - 1]);
    if (cpu0 >= 0 && cpu1 >= 0)
        printf("  server CPU time per edit: %.1f ms on average\n", (cpu1 - cpu0) / edits);
    free(lat);
    free(notes);
    free(text);
    free(c.buf);
    if (workspace)
        ; /* not ours */
    else if (getenv("KEYLINT_BENCH_KEEP"))
        printf("  workspace kept in %s\n", dir);
    else
        nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "lsp_bench: the server exited with status %d\n", status);
        return 1;
    }
    return 0;
}
