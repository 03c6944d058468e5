/* `keylint lsp`: a Language Server Protocol 3.17 server over stdio.
 *
 * Diagnostics as the user types: the workspace is loaded once into a
 * Project (project.h) and kept warm; each edit replaces one file's text and
 * re-runs the analysis for the open documents (project_analyze_some), and
 * every open document whose findings changed gets a
 * textDocument/publishDiagnostics. Code actions offer the rules' quick
 * fixes and a suppression comment; hovering a finding shows its rule's
 * documentation. Logging goes to stderr only. */
#ifndef KEYLINT_LSP_H
#define KEYLINT_LSP_H

#include <stdbool.h>

typedef struct LspOptions {
    bool verbose; /* log each message and analysis time on stderr */
} LspOptions;

/* Serve one client: read framed JSON-RPC messages from `in_fd` and write
 * to `out_fd` until the `exit` notification or the end of input. Returns
 * the process exit code: 0 after shutdown + exit, 1 otherwise. Touches no
 * global state (tests run it in a thread over pipes). */
int lsp_serve(int in_fd, int out_fd, const LspOptions *opts);

/* `keylint lsp [--stdio] [--verbose]`: argv[0] is "lsp". */
int lsp_main(int argc, char **argv);

#endif
