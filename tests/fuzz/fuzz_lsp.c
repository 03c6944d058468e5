/* libFuzzer target: any bytes as what an editor sends the language server:
 * framed JSON-RPC messages read until `exit` or the end of input. The
 * input is prefixed with an `initialize` on an empty workspace, so that
 * the documents the fuzzer opens are linted; the fuzzer can still send
 * anything after it (malformed headers and JSON, unknown methods, edits
 * out of range). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
    "{\"rootUri\":\"file:///nonexistent/keylint-fuzz\",\"capabilities\":{}}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int in = memfd_create("lsp-in", 0);
    int out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (in < 0 || out < 0)
        goto done;
    char head[64];
    int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", sizeof INIT - 1);
    if (write(in, head, (size_t)n) != n || write(in, INIT, sizeof INIT - 1) != (ssize_t)(sizeof INIT - 1) ||
        write(in, data, size) != (ssize_t)size)
        goto done;
    lseek(in, 0, SEEK_SET);
    LspOptions o = {0};
    lsp_serve(in, out, &o);
done:
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return 0;
}
