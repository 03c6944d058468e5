/* `keylint lsp`: lifecycle, documents, analysis and diagnostics.
 *
 * One thread reads framed messages (lsp_io.c) and handles them in order.
 * Edits only replace texts and mark the server dirty; the analysis runs
 * when no further message is waiting (so a burst of keystrokes is analysed
 * once) or before a request that needs fresh findings. */
#include "cache.h"
#include "fixproof.h"
#include "lsp_server.h"
#include "templates.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "walk.h"

/* ---- small helpers ---------------------------------------------------------- */

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        abort();
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void lsp_log(const Server *s, const char *fmt, ...)
{
    (void)s;
    va_list ap;
    va_start(ap, fmt);
    fputs("keylint lsp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* JSON accessors that tolerate a missing or mistyped member. */
static json_t *jobj(const json_t *o, const char *k)
{
    json_t *v = json_is_object(o) ? json_object_get(o, k) : NULL;
    return json_is_object(v) ? v : NULL;
}

static const char *jstr(const json_t *o, const char *k)
{
    json_t *v = json_is_object(o) ? json_object_get(o, k) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool jtrue(const json_t *o, const char *k)
{
    return json_is_true(json_is_object(o) ? json_object_get(o, k) : NULL);
}

static bool jarray_has(const json_t *a, const char *s)
{
    size_t i;
    json_t *v;
    if (!json_is_array(a))
        return false;
    json_array_foreach(a, i, v)
        if (json_is_string(v) && !strcmp(json_string_value(v), s))
            return true;
    return false;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- output ---------------------------------------------------------------- */

void lsp_send(Server *s, json_t *msg)
{
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!body)
        return;
    if (s->opts.verbose)
        lsp_log(s, "-> %.200s", body);
    if (!lsp_write(s->out, body, strlen(body)))
        lsp_log(s, "cannot write to the client: %s", strerror(errno));
    free(body);
}

void lsp_reply(Server *s, json_t *id, json_t *result)
{
    json_t *m = json_object();
    json_object_set(m, "id", id ? id : json_null());
    json_object_set_new(m, "result", result ? result : json_null());
    lsp_send(s, m);
}

void lsp_reply_error(Server *s, json_t *id, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *m = json_object();
    json_object_set(m, "id", id ? id : json_null());
    json_object_set_new(m, "error", json_pack("{s:i, s:s}", "code", code, "message", msg));
    lsp_send(s, m);
}

static void notify(Server *s, const char *method, json_t *params)
{
    json_t *m = json_object();
    json_object_set_new(m, "method", json_string(method));
    json_object_set_new(m, "params", params);
    lsp_send(s, m);
}

/* ---- rule documentation links ------------------------------------------------ */

/* docs/rules of the source tree the running binary was built in (the
 * nearest ancestor of the executable's directory that has one), else the
 * installed rule docs (KEYLINT_DOCDIR, from meson.build). malloc'd, NULL
 * when there is neither. */
static char *find_docs_dir(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    for (int up = 0; n > 0 && up < 5; up++) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            break;
        *slash = '\0';
        n = slash - exe;
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/docs/rules/magic-string.md", exe);
        if (access(probe, R_OK) == 0) {
            snprintf(probe, sizeof probe, "%s/docs/rules", exe);
            return xstrdup(probe);
        }
    }
    if (access(KEYLINT_DOCDIR "/magic-string.md", R_OK) == 0)
        return xstrdup(KEYLINT_DOCDIR);
    return NULL;
}

/* codeDescription.href of each rule: initializationOptions.docsUrl with
 * "{rule}" replaced (or "<rule>.md" appended), else the file:// URI of
 * <rule>.md in the source tree's or the installed rule docs (find_docs_dir),
 * else none. */
static void compute_hrefs(Server *s)
{
    size_t nr = 0;
    while (keylint_rules[nr])
        nr++;
    if (!s->rule_href)
        s->rule_href = calloc(nr + 1, sizeof *s->rule_href);
    if (!s->rule_href)
        abort();
    char *dir = s->docs_url ? NULL : find_docs_dir();
    for (size_t i = 0; i < nr; i++) {
        const char *id = keylint_rules[i]->id;
        free(s->rule_href[i]);
        s->rule_href[i] = NULL;
        if (s->docs_url) {
            const char *at = strstr(s->docs_url, "{rule}");
            size_t n = strlen(s->docs_url) + strlen(id) + 8;
            char *h = xrealloc(NULL, n);
            if (at)
                snprintf(h, n, "%.*s%s%s", (int)(at - s->docs_url), s->docs_url, id, at + 6);
            else
                snprintf(h, n, "%s%s.md", s->docs_url, id);
            s->rule_href[i] = h;
        } else if (dir) {
            char path[PATH_MAX + 128];
            snprintf(path, sizeof path, "%s/%s.md", dir, id);
            if (access(path, R_OK) == 0)
                s->rule_href[i] = path_to_uri(path);
        }
    }
    free(dir);
}

/* An input problem or a note of a file (a region not read): 1-based line
 * and byte column, 0 for none; shown on the character there, notes as
 * information. */
static json_t *problem_json(const Server *s, const Doc *d, const LineIndex *lines,
                            const LineIndex *rows, const Problem *pr)
{
    size_t a = 0;
    if (pr->line)
        a = row_col_offset(d->text, d->len, rows, pr->line - 1, pr->col ? pr->col - 1 : 0);
    size_t b = a;
    if (b < d->len && d->text[b] != '\n' && d->text[b] != '\r') {
        b++;
        while (b < d->len && ((unsigned char)d->text[b] & 0xC0) == 0x80)
            b++;
    }
    return json_pack("{s:o, s:i, s:s, s:s}", "range", lsp_range_json(s, d, lines, a, b),
                     "severity", pr->kind == PROBLEM_NOTE ? 3 : 1, "source", "keylint",
                     "message", pr->message);
}

/* ---- documents --------------------------------------------------------------- */

Doc *lsp_doc(Server *s, const char *uri)
{
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (!strcmp(s->docs[i]->uri, uri))
            return s->docs[i];
    return NULL;
}

static Doc *doc_by_path(Server *s, const char *path)
{
    for (size_t i = 0; path && i < s->ndocs; i++) {
        Doc *d = s->docs[i];
        if ((d->path && !strcmp(d->path, path)) || (d->abspath && !strcmp(d->abspath, path)))
            return d;
    }
    return NULL;
}

static void doc_free(Doc *d)
{
    if (!d)
        return;
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->fpath);
    free(d->abspath);
    json_decref(d->published);
    free(d->cfg_found);
    free(d->edits);
    free(d);
}

static void mark_changed(Server *s, const char *abspath)
{
    s->dirty = true;
    for (size_t i = 0; i < s->nchanged; i++)
        if (!strcmp(s->changed[i], abspath))
            return;
    if (s->nchanged == s->capchanged) {
        s->capchanged = s->capchanged ? 2 * s->capchanged : 16;
        s->changed = xrealloc(s->changed, s->capchanged * sizeof *s->changed);
    }
    s->changed[s->nchanged++] = xstrdup(abspath);
}

static void clear_changed(Server *s)
{
    for (size_t i = 0; i < s->nchanged; i++)
        free(s->changed[i]);
    s->nchanged = 0;
}

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) &&
           (path[n] == '/' || path[n] == '\0' || (n && dir[n - 1] == '/'));
}

/* Is `path` in what the project was loaded from (Server.loaded)? */
static bool under_roots(const Server *s, const char *path)
{
    for (size_t i = 0; s->p && i < s->p->exclude.n; i++)
        if (under(path, s->p->exclude.v[i]))
            return false;
    for (size_t i = 0; i < s->nloaded; i++)
        if (under(path, s->loaded[i]))
            return true;
    return false;
}

/* Would `path`, opened, need another load: it is in a workspace folder
 * but not in what the project was loaded from (a checkout of a folder of
 * checkouts not loaded yet)? */
static bool needs_load(const Server *s, const char *path)
{
    if (!s->p || under_roots(s, path))
        return false;
    for (size_t i = 0; i < s->nroots; i++)
        if (under(path, s->roots[i]))
            return true;
    return false;
}

/* Server.loaded and p->exclude for the workspace folders and the open
 * documents. */
static void choose_loaded(Server *s)
{
    Arena *a = s->p->arena;
    StrList paths = {0};
    for (size_t r = 0; r < s->nroots; r++) {
        StrList nested = {0};
        walk_git_roots(s->roots[r], a, &nested);
        if (!nested.n) {
            strlist_push(a, &paths, s->roots[r]);
            continue;
        }
        bool rest = false;
        for (size_t d = 0; d < s->ndocs; d++) {
            const char *dp = s->docs[d]->path;
            if (!dp || !under(dp, s->roots[r]))
                continue;
            size_t k = 0;
            while (k < nested.n && !under(dp, nested.v[k]))
                k++;
            if (k == nested.n)
                rest = true;
            else if (!strlist_has(&paths, nested.v[k]))
                strlist_push(a, &paths, nested.v[k]);
        }
        if (rest) {
            strlist_push(a, &paths, s->roots[r]);
            for (size_t k = 0; k < nested.n; k++)
                strlist_push(a, &s->p->exclude, nested.v[k]);
        }
    }
    s->loaded = (const char **)paths.v;
    s->nloaded = paths.n;
}

/* A whole file (a .keylint.yml, a schema), malloc'd; NULL when it cannot
 * be read, is not a regular file (a FIFO is never waited on, /dev/zero
 * never read) or is larger than 8 MiB. */
static char *slurp(const char *path)
{
    size_t len;
    FileRead how;
    return path[0] ? file_read(path, KEYLINT_MAX_FILE_BYTES, true, &len, &how) : NULL;
}

/* The .keylint.yml that applies to a document (malloc'd, "" for none). */
static char *nearest_config(const Doc *d)
{
    char *dir = xstrdup(d->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0'; /* "/a/b.ts" -> "/a", "/b.ts" -> "/" */
    char *found = config_find(dir);
    free(dir);
    return found ? found : xstrdup("");
}

/* Give the project the document's text, or take it back (the file falls
 * back to its disk contents) when the document is not linted. */
static void doc_sync(Server *s, Doc *d)
{
    bool was = d->lint;
    d->lint = false;
    d->skip = NULL;
    free(d->cfg_found);
    d->cfg_found = d->path ? nearest_config(d) : NULL;
    if (d->path && is_source_path(d->path) &&
        !config_ignores(project_config_for(s->p, d->path), d->path)) {
        if (d->len > KEYLINT_MAX_FILE_BYTES)
            d->skip = "file is larger than 8 MiB; not linted";
        else if (memchr(d->text, '\0', d->len))
            d->skip = "binary file; not linted";
        else
            d->lint = true;
    }
    if (d->lint) {
        const SourceFile *f = d->synced && d->edits_known
                                  ? project_edit_text(s->p, d->path, d->text, d->len, d->edits,
                                                      d->nedits)
                                  : project_set_text(s->p, d->path, d->text, d->len);
        d->synced = true;
        free(d->fpath);
        free(d->abspath);
        d->fpath = xstrdup(f->path);
        d->abspath = xstrdup(f->abspath);
        mark_changed(s, f->abspath);
    } else if (was && d->abspath) {
        project_reload(s->p, d->abspath);
        mark_changed(s, d->abspath);
    }
    if (!d->lint)
        d->synced = false;
    d->nedits = 0;
    d->edits_known = true;
    d->force = true;
    s->dirty = true;
}

/* ---- the project ------------------------------------------------------------- */

static void forget_configs(Server *s)
{
    for (size_t i = 0; i < s->ncfg; i++) {
        free(s->cfg_path[i]);
        free(s->cfg_text[i]);
    }
    free(s->cfg_path);
    free(s->cfg_text);
    s->cfg_path = s->cfg_text = NULL;
    s->ncfg = 0;
}

static void remember_configs(Server *s)
{
    forget_configs(s);
    size_t n = s->p->configs.n;
    s->cfg_path = xrealloc(NULL, (n + 1) * sizeof *s->cfg_path);
    s->cfg_text = xrealloc(NULL, (n + 1) * sizeof *s->cfg_text);
    for (size_t i = 0; i < n; i++) {
        s->cfg_path[i] = xstrdup(s->p->configs.v[i].path);
        s->cfg_text[i] = slurp(s->cfg_path[i]);
    }
    s->ncfg = n;
}

/* Whether a configuration file read at load changed since, or an open
 * document now falls under another .keylint.yml than when it was synced.
 * (A configuration file that appears elsewhere is reported by the
 * client's file watcher or by saving it.) */
static bool configuration_changed(Server *s)
{
    for (size_t i = 0; i < s->ncfg; i++) {
        char *now = slurp(s->cfg_path[i]);
        bool same = (!now && !s->cfg_text[i]) ||
                    (now && s->cfg_text[i] && !strcmp(now, s->cfg_text[i]));
        free(now);
        if (!same)
            return true;
    }
    for (size_t i = 0; i < s->ndocs; i++) {
        Doc *d = s->docs[i];
        if (!d->path || !d->cfg_found)
            continue;
        char *now = nearest_config(d);
        bool same = !strcmp(now, d->cfg_found);
        free(now);
        if (!same)
            return true;
    }
    return false;
}

/* The cache between runs of the workspace, as the command line's run over
 * it finds it (cli/cache_run.c): `cacheDir`, else .keylint-cache/ in the
 * project root of the first workspace folder; none with "cache": false,
 * KEYLINT_NO_CACHE, no workspace folder, or a root too wide to be a
 * project (the home directory) and no `cacheDir`. */
static void open_cache(Server *s)
{
    const char *env = getenv("KEYLINT_NO_CACHE");
    if (s->no_cache || (env && env[0]) || !s->nroots)
        return;
    Arena *a = arena_new();
    const char *root = project_root_of(a, s->roots[0]);
    if (root || s->cache_dir) {
        if (!root)
            root = s->roots[0];
        s->cache = cache_open_as(s->cache_dir ? s->cache_dir
                                              : arena_printf(a, "%s/.keylint-cache", root),
                                 root, s->cache_dir != NULL);
        s->p->cache = s->cache;
    }
    arena_free(a);
}

/* After the first analysis of a load: the entries of the files the load
 * parsed (changed since the pack was written, or all of them on a cold
 * start) are written back, as a run of the command line writes them (the
 * pack to a temporary file renamed into place; the entries of files
 * this server did not look up are kept), and the cache is closed: the
 * buffers are never cached, and files read again later are parsed. */
static void close_cache(Server *s, bool save)
{
    if (!s->cache)
        return;
    if (save) {
        double t0 = now_ms();
        cache_save(s->cache, false);
        CacheCounts k = cache_counts(s->cache);
        if (s->opts.verbose)
            lsp_log(s, "cache: %zu hits (%zu files not read), %zu misses, %zu written in %.1f ms",
                    k.hits, k.unread, k.misses, k.written, now_ms() - t0);
    }
    const Problems *notes = cache_notes(s->cache);
    for (size_t i = 0; i < notes->items.n; i++)
        lsp_log(s, "%s%s%s", notes->items.v[i].path, notes->items.v[i].path[0] ? ": " : "",
                notes->items.v[i].message);
    cache_free(s->cache);
    s->cache = NULL;
    if (s->p)
        s->p->cache = NULL;
}

static void load_project(Server *s)
{
    close_cache(s, false);
    project_free(s->p);
    s->loaded = NULL; /* in the project's arena */
    s->nloaded = 0;
    s->p = project_new(s->config);
    /* as the command line's run over the workspace: files with nothing
     * for keylint are read, not parsed, until a file needs them
     * (precheck.h, defer.h) */
    s->p->precheck = true;
    /* the files' texts are read again where needed (their diagnostics'
     * related places); documents keep theirs */
    s->p->drop_texts = true;
    open_cache(s);
    choose_loaded(s);
    if (s->nloaded)
        project_add_paths(s->p, s->loaded, s->nloaded);
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i]->path) {
            s->docs[i]->lint = false;
            doc_sync(s, s->docs[i]);
        }
    s->full = true;
    s->dirty = true;
    remember_configs(s);
}

/* Load the project again when its configuration changed; otherwise only
 * analyse the open documents again. */
static void reload_if_configuration_changed(Server *s, bool option_changed)
{
    if (!option_changed && !configuration_changed(s)) {
        s->full = true;
        s->dirty = true;
    } else {
        load_project(s);
    }
}

/* Whether `path` is a schema a configuration of the project names. */
static bool is_schema(const Server *s, const char *path)
{
    const Project *p = s->p;
    for (size_t i = 0; i <= p->configs.n; i++) {
        const Config *c = i < p->configs.n ? p->configs.v[i].config : p->forced;
        for (size_t k = 0; c && k < c->schemas.n; k++) {
            const char *sc = c->schemas.v[k];
            char buf[PATH_MAX * 2];
            if (sc[0] == '/')
                snprintf(buf, sizeof buf, "%s", sc);
            else
                snprintf(buf, sizeof buf, "%s/%s", c->dir ? c->dir : "", sc);
            if (!strcmp(buf, path))
                return true;
            char *a = realpath(buf, NULL), *b = realpath(path, NULL);
            bool same = a && b && !strcmp(a, b);
            free(a);
            free(b);
            if (same)
                return true;
        }
    }
    return false;
}

static bool is_config_name(const char *path)
{
    const char *b = base_name(path);
    return !strcmp(b, ".keylint.yml") || !strcmp(b, "keylint.yml");
}

/* tsconfig*.json and package.json steer module resolution. */
static bool is_module_config(const char *path)
{
    const char *b = base_name(path);
    size_t n = strlen(b);
    return !strcmp(b, "package.json") ||
           (!strncmp(b, "tsconfig", 8) && n > 5 && !strcmp(b + n - 5, ".json")) ||
           (!strncmp(b, "jsconfig", 8) && n > 5 && !strcmp(b + n - 5, ".json"));
}

/* ---- analysis and publishing --------------------------------------------------- */

/* Publish `diags` (stolen) for `uri` unless it equals *last; *last then
 * holds it. */
static bool publish_if_changed(Server *s, const char *uri, Doc *d, json_t *diags, json_t **last,
                               bool force)
{
    bool send = force || !*last || !json_equal(*last, diags);
    if (send) {
        json_t *params = json_pack("{s:s, s:O}", "uri", uri, "diagnostics", diags);
        if (d && d->has_version)
            json_object_set_new(params, "version", json_integer(d->version));
        notify(s, "textDocument/publishDiagnostics", params);
    }
    json_decref(*last);
    *last = diags;
    return send;
}

static json_t *doc_diagnostics(Server *s, Doc *d)
{
    json_t *arr = json_array();
    if (d->skip) {
        json_array_append_new(arr, json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}}, s:i, s:s, s:s}",
                                             "range", "start", "line", 0, "character", 0,
                                             "end", "line", 0, "character", 0, "severity", 2,
                                             "source", "keylint", "message", d->skip));
        return arr;
    }
    if (!d->lint)
        return arr;
    LineIndex lines, rows;
    lines_build(&lines, d->text, d->len);
    rows_build(&rows, d->text, d->len);
    const DiagList *dl = &s->p->diags;
    for (size_t i = 0; i < dl->items.n; i++)
        if (!strcmp(dl->items.v[i].path, d->fpath))
            json_array_append_new(arr, lsp_diag_json(s, d, &lines, &rows, &dl->items.v[i]));
    const SourceFile *f = project_file(s->p, d->abspath);
    for (size_t i = 0; f && i < f->problems.items.n; i++)
        json_array_append_new(arr, problem_json(s, d, &lines, &rows, &f->problems.items.v[i]));
    lines_free(&lines);
    lines_free(&rows);
    return arr;
}

/* Findings on the project's inputs that are not source files: problems of
 * a configuration (a bad .keylint.yml), of a schema, and the rules'
 * findings about schemas and access patterns. Each such file gets them as
 * its diagnostics (open or not), and an empty list once they are gone. */
typedef struct Input {
    char *abs;   /* canonical path */
    json_t *arr; /* its diagnostics */
    Doc text;    /* its text (only text and len set), for positions */
    char *owned; /* the text read from disk, when it is not open */
    LineIndex lines, rows;
} Input;

static Input *input_for(Server *s, Input **v, size_t *n, const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs)
        return NULL;
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*v)[i].abs, abs)) {
            free(abs);
            return &(*v)[i];
        }
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    Input *in = &(*v)[(*n)++];
    memset(in, 0, sizeof *in);
    in->abs = abs;
    in->arr = json_array();
    Doc *open = doc_by_path(s, abs);
    if (!open) {
        in->owned = slurp(abs);
        if (!in->owned)
            in->owned = xstrdup("");
    }
    in->text.text = open ? open->text : in->owned;
    in->text.len = open ? open->len : strlen(in->owned);
    lines_build(&in->lines, in->text.text, in->text.len);
    rows_build(&in->rows, in->text.text, in->text.len);
    return in;
}

static void add_problems(Server *s, Input **v, size_t *n, const Problems *pr)
{
    for (size_t i = 0; i < pr->items.n; i++) {
        const Problem *q = &pr->items.v[i];
        Input *in = q->path[0] ? input_for(s, v, n, q->path) : NULL;
        if (in)
            json_array_append_new(in->arr, problem_json(s, &in->text, &in->lines, &in->rows, q));
    }
}

static void publish_inputs(Server *s)
{
    Input *v = NULL;
    size_t n = 0;
    add_problems(s, &v, &n, &s->p->problems);
    add_problems(s, &v, &n, &s->p->schema_problems);
    const DiagList *dl = &s->p->diags;
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *g = &dl->items.v[i];
        if (project_file(s->p, g->path))
            continue; /* a source file's: published with its document */
        Input *in = input_for(s, &v, &n, g->path);
        if (in)
            json_array_append_new(in->arr, lsp_diag_json(s, &in->text, &in->lines, &in->rows, g));
    }
    bool *seen = calloc(s->nothers + n + 1, sizeof *seen);
    if (!seen)
        abort();
    for (size_t i = 0; i < n; i++) {
        Input *in = &v[i];
        Doc *d = doc_by_path(s, in->abs);
        char *uri = d ? xstrdup(d->uri) : path_to_uri(in->abs);
        size_t k = 0;
        while (k < s->nothers && strcmp(s->others[k].uri, uri))
            k++;
        if (k == s->nothers) {
            if (s->nothers == s->capothers) {
                s->capothers = s->capothers ? 2 * s->capothers : 4;
                s->others = xrealloc(s->others, s->capothers * sizeof *s->others);
            }
            s->others[s->nothers++] = (Published){xstrdup(uri), NULL};
        }
        seen[k] = true; /* room: at most one new entry per input */
        publish_if_changed(s, uri, NULL, in->arr, &s->others[k].diags, false);
        free(uri);
        free(in->abs);
        free(in->owned);
        lines_free(&in->lines);
        lines_free(&in->rows);
    }
    free(v);
    for (size_t k = 0; k < s->nothers; k++)
        if (!seen[k] && json_array_size(s->others[k].diags))
            publish_if_changed(s, s->others[k].uri, NULL, json_array(), &s->others[k].diags,
                               false);
    free(seen);
}

static void analyze(Server *s)
{
    if (!s->p || !s->dirty)
        return;
    double t0 = now_ms();
    const char **check = xrealloc(NULL, (s->ndocs + 1) * sizeof *check);
    size_t nc = 0;
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i]->lint)
            check[nc++] = s->docs[i]->abspath;
    project_analyze_some(s->p, s->full ? NULL : (const char *const *)s->changed, s->nchanged,
                         check, nc);
    free(check);
    close_cache(s, true);
    double t1 = now_ms();
    size_t sent = 0;
    for (size_t i = 0; i < s->ndocs; i++) {
        Doc *d = s->docs[i];
        if (!d->lint && !d->skip && !json_array_size(d->published)) {
            d->force = false; /* nothing to say about it, nor to clear */
            continue;
        }
        sent += publish_if_changed(s, d->uri, d, doc_diagnostics(s, d), &d->published, d->force);
        d->force = false;
    }
    publish_inputs(s);
    if (s->opts.verbose)
        lsp_log(s, "analysed %zu changed file(s)%s in %.1f ms, published %zu in %.1f ms",
                s->nchanged, s->full ? " (full)" : "", t1 - t0, sent, now_ms() - t1);
    clear_changed(s);
    s->full = false;
    s->dirty = false;
}

void lsp_flush(Server *s)
{
    analyze(s);
}

/* ---- lifecycle ------------------------------------------------------------------ */

static void add_root(Server *s, const char *uri_or_path, bool is_uri)
{
    char *path = is_uri ? uri_to_path(uri_or_path) : xstrdup(uri_or_path);
    if (!path)
        return;
    char *real = realpath(path, NULL);
    if (real) {
        free(path);
        path = real;
    }
    for (size_t i = 0; i < s->nroots; i++)
        if (!strcmp(s->roots[i], path)) {
            free(path);
            return;
        }
    s->roots = xrealloc(s->roots, (s->nroots + 1) * sizeof *s->roots);
    s->roots[s->nroots++] = path;
}

static void remove_root(Server *s, const char *uri)
{
    char *path = uri_to_path(uri);
    if (!path)
        return;
    char *real = realpath(path, NULL);
    for (size_t i = 0; i < s->nroots; i++)
        if (!strcmp(s->roots[i], path) || (real && !strcmp(s->roots[i], real))) {
            free(s->roots[i]);
            memmove(&s->roots[i], &s->roots[i + 1], (s->nroots - i - 1) * sizeof *s->roots);
            s->nroots--;
            break;
        }
    free(real);
    free(path);
}

/* `config` of initializationOptions or settings: a path (relative to the
 * first workspace folder), or null for the nearest .keylint.yml. */
static void set_config_option(Server *s, const json_t *opts)
{
    json_t *c = json_is_object(opts) ? json_object_get(opts, "config") : NULL;
    if (!c)
        return;
    free(s->config);
    s->config = NULL;
    if (!json_is_string(c) || !json_string_value(c)[0])
        return;
    const char *v = json_string_value(c);
    if (v[0] == '/' || !s->nroots) {
        s->config = xstrdup(v);
    } else {
        size_t n = strlen(s->roots[0]) + strlen(v) + 2;
        s->config = xrealloc(NULL, n);
        snprintf(s->config, n, "%s/%s", s->roots[0], v);
    }
    const char *bad = file_not_regular(s->config);
    if (bad)
        lsp_log(s, "the configuration %s %s: not read; the defaults apply", s->config, bad);
}

static void register_watchers(Server *s)
{
    if (!s->watch_dynamic)
        return;
    json_t *watchers = json_pack(
        "[{s:s}, {s:s}, {s:s}]", "globPattern", "**/{.keylint.yml,keylint.yml}", "globPattern",
        "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}", "globPattern", "**/*.{yaml,yml,json,tf}");
    json_t *params = json_pack(
        "{s:[{s:s, s:s, s:{s:o}}]}", "registrations", "id", "keylint-watched-files", "method",
        "workspace/didChangeWatchedFiles", "registerOptions", "watchers", watchers);
    json_t *m = json_object();
    char id[32];
    snprintf(id, sizeof id, "keylint-%ld", ++s->next_id);
    json_object_set_new(m, "id", json_string(id));
    json_object_set_new(m, "method", json_string("client/registerCapability"));
    json_object_set_new(m, "params", params);
    lsp_send(s, m);
}

static void on_initialize(Server *s, json_t *id, json_t *params)
{
    if (!json_is_object(params)) {
        lsp_reply_error(s, id, RPC_INVALID_PARAMS, "initialize takes an object of parameters");
        return;
    }
    json_t *caps = jobj(params, "capabilities");
    json_t *general = jobj(caps, "general");
    s->enc = general && jarray_has(json_object_get(general, "positionEncodings"), "utf-8")
                 ? POS_UTF8
                 : POS_UTF16;
    s->watch_dynamic = jtrue(jobj(jobj(caps, "workspace"), "didChangeWatchedFiles"),
                             "dynamicRegistration");
    json_t *td = jobj(caps, "textDocument");
    json_t *hover = jobj(td, "hover");
    json_t *formats = hover ? json_object_get(hover, "contentFormat") : NULL;
    s->hover_markdown = !json_is_array(formats) || jarray_has(formats, "markdown");
    s->action_literals = jobj(jobj(td, "codeAction"), "codeActionLiteralSupport") != NULL;

    json_t *folders = json_object_get(params, "workspaceFolders");
    size_t i;
    json_t *f;
    if (json_is_array(folders)) {
        json_array_foreach(folders, i, f) {
            if (jstr(f, "uri"))
                add_root(s, jstr(f, "uri"), true);
        }
    }
    if (!s->nroots && jstr(params, "rootUri"))
        add_root(s, jstr(params, "rootUri"), true);
    if (!s->nroots && jstr(params, "rootPath"))
        add_root(s, jstr(params, "rootPath"), false);

    json_t *opts = jobj(params, "initializationOptions");
    set_config_option(s, opts);
    if (jstr(opts, "cacheDir") && jstr(opts, "cacheDir")[0])
        s->cache_dir = xstrdup(jstr(opts, "cacheDir"));
    s->no_cache = json_is_false(opts ? json_object_get(opts, "cache") : NULL);
    if (jstr(opts, "docsUrl") && jstr(opts, "docsUrl")[0])
        s->docs_url = xstrdup(jstr(opts, "docsUrl"));
    compute_hrefs(s);

    json_t *sync = json_pack("{s:b, s:i, s:{s:b}}", "openClose", 1, "change", 2, "save",
                             "includeText", 0);
    json_t *capabilities = json_pack(
        "{s:s, s:o, s:o, s:b, s:{s:{s:b, s:b}}}", "positionEncoding",
        s->enc == POS_UTF8 ? "utf-8" : "utf-16", "textDocumentSync", sync,
        "codeActionProvider",
        s->action_literals ? json_pack("{s:[s,s]}", "codeActionKinds", "quickfix",
                                       "source.fixAll.keylint")
                           : json_true(),
        "hoverProvider", 1, "workspace", "workspaceFolders", "supported", 1,
        "changeNotifications", 1);
    lsp_reply(s, id,
              json_pack("{s:o, s:{s:s, s:s}}", "capabilities", capabilities, "serverInfo",
                        "name", "keylint", "version", KEYLINT_VERSION));
    s->initialized = true;
    /* the workspace, loaded once and kept warm */
    double t0 = now_ms();
    load_project(s);
    if (s->opts.verbose)
        lsp_log(s, "loaded %zu root(s), %zu file(s) in %.1f ms", s->nroots,
                project_linted_files(s->p), now_ms() - t0);
}

/* ---- notifications ----------------------------------------------------------------- */

static const char *doc_uri(const json_t *params)
{
    return jstr(jobj(params, "textDocument"), "uri");
}

/* A document opened by an editor started without a workspace folder
 * (one file opened): the project around it is read, as the command line
 * reads it for a file named alone (project_root_of), so that its findings
 * are the same; it is the workspace from then on. (A file outside the
 * workspace folders is linted with the workspace as its context: one
 * project holds them all.) */
static void add_project_of(Server *s, const char *path)
{
    if (!s->p || s->nroots || !is_source_path(path))
        return;
    Arena *a = arena_new();
    const char *root = project_root_of(a, path);
    if (root) {
        add_root(s, root, false);
        project_add_paths(s->p, &root, 1);
        s->full = true;
        s->dirty = true;
    }
    arena_free(a);
}

static void on_did_open(Server *s, json_t *params)
{
    json_t *td = jobj(params, "textDocument");
    const char *uri = jstr(td, "uri");
    json_t *text = td ? json_object_get(td, "text") : NULL;
    if (!uri || !json_is_string(text)) {
        lsp_log(s, "didOpen without textDocument.uri and text; ignored");
        return;
    }
    Doc *d = lsp_doc(s, uri);
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d)
            abort();
        d->uri = xstrdup(uri);
        d->path = uri_to_path(uri);
        if (d->path) {
            char *real = realpath(d->path, NULL);
            if (real) {
                free(d->path);
                d->path = real;
            }
        }
        if (s->ndocs == s->capdocs) {
            s->capdocs = s->capdocs ? 2 * s->capdocs : 8;
            s->docs = xrealloc(s->docs, s->capdocs * sizeof *s->docs);
        }
        s->docs[s->ndocs++] = d;
    }
    size_t n = json_string_length(text);
    free(d->text);
    d->text = xrealloc(NULL, n + 1);
    memcpy(d->text, json_string_value(text), n);
    d->text[n] = '\0';
    d->len = n;
    d->cap = n + 1;
    json_t *v = json_object_get(td, "version");
    d->has_version = json_is_integer(v);
    d->version = d->has_version ? json_integer_value(v) : 0;
    json_decref(d->published);
    d->published = NULL;
    if (d->path)
        add_project_of(s, d->path);
    if (d->path && needs_load(s, d->path))
        load_project(s); /* a checkout of a folder of checkouts: loaded now */
    else
        doc_sync(s, d);
}

/* One TextDocumentContentChangeEvent: a range edit or the whole text. */
static bool apply_change(Server *s, Doc *d, const json_t *c)
{
    json_t *text = json_is_object(c) ? json_object_get(c, "text") : NULL;
    if (!json_is_string(text))
        return false;
    const char *t = json_string_value(text);
    size_t n = json_string_length(text);
    json_t *range = json_object_get(c, "range");
    if (!range || json_is_null(range)) {
        text_splice(&d->text, &d->len, &d->cap, 0, d->len, t, n);
        d->edits_known = false;
        return true;
    }
    LineIndex lines;
    lines_build(&lines, d->text, d->len);
    size_t a, b;
    bool ok = lsp_parse_position(s, d, &lines, json_object_get(range, "start"), &a) &&
              lsp_parse_position(s, d, &lines, json_object_get(range, "end"), &b);
    lines_free(&lines);
    if (!ok)
        return false;
    if (b < a) {
        size_t t2 = a;
        a = b;
        b = t2;
    }
    if (d->edits_known) {
        if (d->nedits == d->edits_cap) {
            d->edits_cap = d->edits_cap ? d->edits_cap * 2 : 8;
            d->edits = xrealloc(d->edits, d->edits_cap * sizeof *d->edits);
        }
        d->edits[d->nedits++] = syn_edit_of(d->text, d->len, a, b, t, n);
    }
    text_splice(&d->text, &d->len, &d->cap, a, b, t, n);
    return true;
}

static void on_did_change(Server *s, json_t *params)
{
    Doc *d = lsp_doc(s, doc_uri(params));
    json_t *changes = json_is_object(params) ? json_object_get(params, "contentChanges") : NULL;
    if (!d || !json_is_array(changes)) {
        lsp_log(s, "didChange for a document that is not open, or without contentChanges; "
                   "ignored");
        return;
    }
    json_t *v = json_object_get(jobj(params, "textDocument"), "version");
    if (json_is_integer(v)) {
        d->version = json_integer_value(v);
        d->has_version = true;
    }
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        if (!apply_change(s, d, c))
            lsp_log(s, "didChange: change %zu of %s is malformed; skipped", i, d->uri);
    }
    doc_sync(s, d);
}

static void on_did_save(Server *s, json_t *params)
{
    Doc *d = lsp_doc(s, doc_uri(params));
    if (!d || !d->path)
        return;
    if (is_config_name(d->path) || is_schema(s, d->path)) {
        load_project(s);
    } else if (is_module_config(d->path) || template_name(d->path)) {
        /* a template discovery may read (template.yaml, *.tf): the
         * analyses between two full ones keep the schema files read */
        s->full = true;
        s->dirty = true;
    }
}

static void on_did_close(Server *s, json_t *params)
{
    const char *uri = doc_uri(params);
    Doc *d = lsp_doc(s, uri);
    if (!d)
        return;
    size_t i = 0;
    while (s->docs[i] != d)
        i++;
    memmove(&s->docs[i], &s->docs[i + 1], (s->ndocs - i - 1) * sizeof *s->docs);
    s->ndocs--;
    if (d->lint && d->abspath) {
        /* back to the disk's contents (or out, when it is not in the
         * workspace or no longer on disk) */
        if (under_roots(s, d->abspath))
            project_reload(s->p, d->abspath);
        else
            project_remove(s->p, d->abspath);
        mark_changed(s, d->abspath);
    }
    /* the closed document's findings are cleared */
    if (d->published)
        notify(s, "textDocument/publishDiagnostics",
               json_pack("{s:s, s:[]}", "uri", d->uri, "diagnostics"));
    doc_free(d);
}

static void on_did_change_configuration(Server *s, json_t *params)
{
    json_t *settings = json_is_object(params) ? json_object_get(params, "settings") : NULL;
    json_t *mine = jobj(settings, "keylint");
    char *before = s->config ? xstrdup(s->config) : NULL;
    set_config_option(s, mine);
    bool option_changed = (before == NULL) != (s->config == NULL) ||
                          (before && strcmp(before, s->config));
    free(before);
    /* clients send this at startup and for any setting: the project is
     * only loaded again when keylint's configuration did change */
    reload_if_configuration_changed(s, option_changed);
}

static void on_did_change_watched_files(Server *s, json_t *params)
{
    json_t *changes = json_is_object(params) ? json_object_get(params, "changes") : NULL;
    if (!json_is_array(changes))
        return;
    bool reload = false;
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) {
        char *path = uri_to_path(jstr(c, "uri"));
        json_t *type = json_is_object(c) ? json_object_get(c, "type") : NULL;
        if (!path || !json_is_integer(type)) {
            free(path);
            continue;
        }
        json_int_t kind = json_integer_value(type); /* 1 created, 2 changed, 3 deleted */
        Doc *open = doc_by_path(s, path);
        if (is_config_name(path) || is_schema(s, path)) {
            reload = true;
        } else if (is_module_config(path) || template_name(path)) {
            s->full = true;
            s->dirty = true;
        } else if (is_source_path(path) && !(open && open->lint)) {
            /* an open document's buffer wins over the disk */
            const SourceFile *f = project_file(s->p, path);
            if (kind == 3 && f) {
                char *abs = xstrdup(f->abspath);
                project_remove(s->p, abs);
                mark_changed(s, abs);
                free(abs);
            } else if (kind != 3 && f) {
                char *abs = xstrdup(f->abspath);
                project_reload(s->p, abs);
                mark_changed(s, abs);
                free(abs);
            } else if (kind != 3 && under_roots(s, path)) {
                const char *one[] = {path};
                project_add_paths(s->p, one, 1);
                f = project_file(s->p, path);
                if (f)
                    mark_changed(s, f->abspath);
            }
        }
        free(path);
    }
    if (reload)
        load_project(s);
}

static void on_did_change_workspace_folders(Server *s, json_t *params)
{
    json_t *ev = jobj(params, "event");
    if (!ev)
        return;
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(ev, "removed"), i, f) {
        if (jstr(f, "uri"))
            remove_root(s, jstr(f, "uri"));
    }
    json_array_foreach(json_object_get(ev, "added"), i, f) {
        if (jstr(f, "uri"))
            add_root(s, jstr(f, "uri"), true);
    }
    load_project(s);
}

/* ---- dispatch ---------------------------------------------------------------------- */

static void on_request(Server *s, json_t *id, const char *method, json_t *params)
{
    if (!strcmp(method, "initialize")) {
        if (s->initialized)
            lsp_reply_error(s, id, RPC_INVALID_REQUEST, "initialize was already called");
        else
            on_initialize(s, id, params);
        return;
    }
    if (!s->initialized) {
        lsp_reply_error(s, id, RPC_SERVER_NOT_INITIALIZED,
                        "the server is not initialized: send initialize first");
        return;
    }
    if (s->shut_down) {
        lsp_reply_error(s, id, RPC_INVALID_REQUEST, "the server is shut down: only exit is valid");
        return;
    }
    if (!strcmp(method, "shutdown")) {
        s->shut_down = true;
        lsp_reply(s, id, json_null());
    } else if (!strcmp(method, "textDocument/codeAction") ||
               !strcmp(method, "textDocument/hover")) {
        if (!json_is_object(params)) {
            lsp_reply_error(s, id, RPC_INVALID_PARAMS, "%s takes an object of parameters",
                            method);
            return;
        }
        lsp_flush(s);
        json_t *td = json_object_get(params, "textDocument");
        json_t *uri = json_is_object(td) ? json_object_get(td, "uri") : NULL;
        Doc *d = json_is_string(uri) ? lsp_doc(s, json_string_value(uri)) : NULL;
        const char *error = "invalid parameters";
        /* the fixes a code action offers are proven when asked for, not at
         * every analysis */
        if (d && d->fpath && !strcmp(method, "textDocument/codeAction"))
            fixproof_file(s->p, d->fpath);
        json_t *result = !strcmp(method, "textDocument/hover")
                             ? lsp_hover(s, d, params, &error)
                             : lsp_code_action(s, d, params, &error);
        if (result)
            lsp_reply(s, id, result);
        else
            lsp_reply_error(s, id, RPC_INVALID_PARAMS, "%s", error);
    } else {
        lsp_reply_error(s, id, RPC_METHOD_NOT_FOUND, "unknown method: %s", method);
    }
}

static void on_notification(Server *s, const char *method, json_t *params)
{
    if (!strcmp(method, "exit")) {
        s->exiting = true;
        return;
    }
    if (!s->initialized || s->shut_down)
        return; /* dropped, as the protocol says */
    if (!strcmp(method, "initialized"))
        register_watchers(s);
    else if (!strcmp(method, "textDocument/didOpen"))
        on_did_open(s, params);
    else if (!strcmp(method, "textDocument/didChange"))
        on_did_change(s, params);
    else if (!strcmp(method, "textDocument/didSave"))
        on_did_save(s, params);
    else if (!strcmp(method, "textDocument/didClose"))
        on_did_close(s, params);
    else if (!strcmp(method, "workspace/didChangeConfiguration"))
        on_did_change_configuration(s, params);
    else if (!strcmp(method, "workspace/didChangeWatchedFiles"))
        on_did_change_watched_files(s, params);
    else if (!strcmp(method, "workspace/didChangeWorkspaceFolders"))
        on_did_change_workspace_folders(s, params);
    /* anything else ($/cancelRequest, $/setTrace, ...) is ignored */
}

static void on_message(Server *s, const char *body, size_t len)
{
    if (s->opts.verbose)
        lsp_log(s, "<- %.200s", body);
    json_error_t err;
    json_t *msg = json_loadb(body, len, JSON_ALLOW_NUL, &err);
    if (!msg) {
        lsp_log(s, "malformed JSON (line %d column %d: %s)", err.line, err.column, err.text);
        lsp_reply_error(s, NULL, RPC_PARSE_ERROR, "Parse error: %s (line %d, column %d)",
                        err.text, err.line, err.column);
        return;
    }
    json_t *id = json_is_object(msg) ? json_object_get(msg, "id") : NULL;
    json_t *method = json_is_object(msg) ? json_object_get(msg, "method") : NULL;
    bool good_id = id && (json_is_integer(id) || json_is_string(id) || json_is_null(id));
    if (!json_is_object(msg) || (id && !good_id)) {
        lsp_reply_error(s, NULL, RPC_INVALID_REQUEST, "Invalid Request: %s",
                        !json_is_object(msg) ? "a message is a JSON object"
                                             : "id must be a number or a string");
    } else if (!method) {
        /* a response to a request of ours (client/registerCapability) */
        json_t *e = json_object_get(msg, "error");
        if (id && (e || json_object_get(msg, "result"))) {
            if (e)
                lsp_log(s, "the client refused a request: %s", jstr(e, "message"));
        } else {
            lsp_reply_error(s, id, RPC_INVALID_REQUEST, "Invalid Request: no method");
        }
    } else if (!json_is_string(method)) {
        lsp_reply_error(s, id, RPC_INVALID_REQUEST, "Invalid Request: method must be a string");
    } else if (id) {
        on_request(s, id, json_string_value(method), json_object_get(msg, "params"));
    } else {
        on_notification(s, json_string_value(method), json_object_get(msg, "params"));
    }
    json_decref(msg);
}

static void server_free(Server *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        doc_free(s->docs[i]);
    free(s->docs);
    for (size_t i = 0; i < s->nroots; i++)
        free(s->roots[i]);
    free(s->roots);
    clear_changed(s);
    free(s->changed);
    for (size_t i = 0; i < s->nothers; i++) {
        free(s->others[i].uri);
        json_decref(s->others[i].diags);
    }
    free(s->others);
    for (size_t i = 0; s->rule_href && keylint_rules[i]; i++)
        free(s->rule_href[i]);
    free(s->rule_href);
    free(s->config);
    free(s->docs_url);
    free(s->cache_dir);
    forget_configs(s);
    close_cache(s, false);
    project_free(s->p);
    lsp_reader_free(&s->in);
}

int lsp_serve(int in_fd, int out_fd, const LspOptions *opts)
{
    Server s = {.out = out_fd};
    if (opts)
        s.opts = *opts;
    lsp_reader_init(&s.in, in_fd);
    while (!s.exiting) {
        /* analyse once the client has nothing more to say */
        if (s.dirty && !lsp_reader_pending(&s.in))
            analyze(&s);
        char *body, why[160];
        size_t len;
        LspReadStatus st = lsp_read(&s.in, &body, &len, why, sizeof why);
        if (st == LSP_READ_EOF)
            break;
        if (st == LSP_READ_BAD) {
            lsp_log(&s, "%s", why);
            continue;
        }
        on_message(&s, body, len);
        free(body);
    }
    int code = s.exiting && s.shut_down ? 0 : 1;
    if (!s.exiting)
        lsp_log(&s, "the input ended without an exit notification");
    server_free(&s);
    return code;
}

static const char lsp_usage[] =
    "usage: keylint lsp [--stdio] [--verbose]\n"
    "\n"
    "Runs keylint as a Language Server Protocol server on stdin/stdout, for\n"
    "editors: diagnostics as you type, quick fixes, rule docs on hover.\n"
    "Logs go to stderr.\n"
    "\n"
    "  --stdio     talk over stdin/stdout (the default and only transport)\n"
    "  -v, --verbose  log every message and each analysis's time on stderr\n"
    "  -h, --help  print this help\n";

enum { LSP_KEEP_FREE_BYTES = 32 * 1024 * 1024 };

int lsp_main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"stdio", no_argument, NULL, 's'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    LspOptions o = {0};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            break;
        case 'v':
            o.verbose = true;
            break;
        case 'h':
            fputs(lsp_usage, stdout);
            return 0;
        default:
            fprintf(stderr, "keylint lsp: error: unknown option '%s'\n\n%s", argv[optind - 1],
                    lsp_usage);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "keylint lsp: error: unexpected argument '%s'\n\n%s", argv[optind],
                lsp_usage);
        return 2;
    }
    /* a client that goes away is an end of input, not a signal */
    signal(SIGPIPE, SIG_IGN);
    /* Every edit frees the scratch of extracting the file and allocates
     * as much again: keep that memory in the process instead of handing
     * it back to the kernel and faulting it in again at the next edit
     * (glibc; a hint other allocators ignore). */
    mallopt(M_TRIM_THRESHOLD, LSP_KEEP_FREE_BYTES);
    mallopt(M_MMAP_THRESHOLD, LSP_KEEP_FREE_BYTES);
    return lsp_serve(STDIN_FILENO, STDOUT_FILENO, &o);
}
