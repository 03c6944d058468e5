/* The language server's state, kept by lsp.c (lifecycle, documents,
 * analysis, diagnostics) and read by lsp_features.c (code actions,
 * hover: handlers that take the state and the document and return their
 * result) and lsp_json.c (findings and positions as LSP JSON). Calls go
 * one way: lsp.c -> lsp_features.c -> lsp_json.c. */
#ifndef KEYLINT_LSP_SERVER_H
#define KEYLINT_LSP_SERVER_H

#include <jansson.h>

#include "lsp.h"
#include "lsp_int.h"
#include "project.h"
#include "syntax.h"

/* An open document. Everything is malloc'd and owned by the Doc. */
typedef struct Doc {
    char *uri;        /* as the client sent it (echoed back unchanged) */
    char *path;       /* absolute path of a file:// URI; NULL otherwise */
    char *text;       /* the editor's buffer, NUL-terminated */
    size_t len, cap;
    json_int_t version;
    bool has_version;
    /* Linted: a source file the configuration does not ignore, small
     * enough and not binary. Then fpath/abspath name it in the project. */
    bool lint;
    char *fpath;      /* display path in the project (Diagnostic.path) */
    char *abspath;    /* absolute path in the project */
    const char *skip; /* why a source file is not linted (static text) */
    char *cfg_found;  /* the .keylint.yml that applied when it was synced */
    json_t *published; /* the diagnostics array last published, or NULL */
    bool force;       /* publish after the next analysis even if unchanged */
    /* The edits made since the project last got the text (synced): passed
     * with the next one so that its parse is incremental. Not known after
     * a whole-text change. */
    bool synced, edits_known;
    SynEdit *edits;
    size_t nedits, edits_cap;
} Doc;

/* Diagnostics published for a file that is not open (a bad .keylint.yml). */
typedef struct Published {
    char *uri;
    json_t *diags; /* last published */
} Published;

typedef struct Server {
    int out;
    LspReader in;
    LspOptions opts;
    Project *p;            /* NULL until initialize */
    bool initialized, shut_down, exiting;
    PosEncoding enc;
    /* client capabilities */
    bool watch_dynamic, hover_markdown, action_literals;
    Doc **docs;
    size_t ndocs, capdocs;
    char **roots;          /* workspace folders (absolute paths) */
    size_t nroots;
    /* What the project was loaded from (in p's arena): the workspace
     * folders, but of a folder in no git work tree that holds some (a
     * folder of checkouts) the work trees with an open document, each
     * linted as the command line lints it, and the rest of the folder
     * when a document is open there (p->exclude: the other work trees). */
    const char **loaded;
    size_t nloaded;
    char *config;          /* initializationOptions/settings "config" */
    char *docs_url;        /* initializationOptions "docsUrl" */
    /* The cache between runs (project/cache.h): initializationOptions
     * "cacheDir" (NULL: .keylint-cache/ in the project root of the first
     * workspace folder, as the command line's), "cache": false (or
     * KEYLINT_NO_CACHE) for none. `cache` is open from a load of the
     * project to the end of its first analysis, which writes back what
     * the load parsed and closes it. */
    char *cache_dir;
    bool no_cache;
    struct Cache *cache;
    /* The configuration files the project read when it was loaded, and
     * their text then (NULL: missing), to tell whether it changed. */
    char **cfg_path, **cfg_text;
    size_t ncfg;
    char **rule_href;      /* per keylint_rules entry: its docs link or NULL */
    bool dirty;            /* texts changed since the last analysis */
    bool full;             /* the next analysis resolves every file */
    char **changed;        /* absolute paths changed since the last analysis */
    size_t nchanged, capchanged;
    Published *others;     /* diagnostics published for files not open */
    size_t nothers, capothers;
    long next_id;          /* for requests the server sends */
} Server;

/* lsp.c */
void lsp_log(const Server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lsp_send(Server *s, json_t *msg); /* steals msg */
void lsp_reply(Server *s, json_t *id, json_t *result); /* steals result */
void lsp_reply_error(Server *s, json_t *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
Doc *lsp_doc(Server *s, const char *uri);
/* Run the analysis now if texts changed (requests need fresh findings). */
void lsp_flush(Server *s);
/* lsp_json.c: a document's findings and positions as LSP JSON */

/* The docs link of a rule id, NULL if none. */
const char *lsp_rule_href(const Server *s, const char *rule);

/* Byte offsets of a diagnostic's span in `d`'s text. */
void lsp_span_offsets(const Doc *d, const LineIndex *rows, const Span *sp, size_t *start,
                      size_t *end);
/* An LSP range for byte offsets [start, end) of d's text. */
json_t *lsp_range_json(const Server *s, const Doc *d, const LineIndex *lines, size_t start,
                       size_t end);
/* The LSP Diagnostic for one finding on document `d`. */
json_t *lsp_diag_json(const Server *s, const Doc *d, const LineIndex *lines,
                      const LineIndex *rows, const Diagnostic *g);
/* Parse an LSP Position object into a byte offset of d's text. */
bool lsp_parse_position(const Server *s, const Doc *d, const LineIndex *lines,
                        const json_t *pos, size_t *off);

/* lsp_features.c: request handlers; params already checked to be objects,
 * `d` the document the request names (NULL when it is not open). Each
 * returns the result to send, or NULL with *error saying what is wrong
 * with the parameters (an InvalidParams error). */
json_t *lsp_code_action(const Server *s, Doc *d, json_t *params, const char **error);
json_t *lsp_hover(const Server *s, Doc *d, json_t *params, const char **error);

/* JSON-RPC error codes */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_INTERNAL_ERROR = -32603,
    RPC_SERVER_NOT_INITIALIZED = -32002,
};

#endif
