#include "cache_findings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache_version.h"
#include "cache_bin.h"
#include "files.h"
#include "templates.h"
#include "walk.h"

enum { FINDINGS_FORMAT = 1 };

#define FINDINGS_NAME "findings.pack"
#define FINDINGS_MAGIC "keylint findings of a run\n"
#define FINDINGS_ORDER 0x4b4c4632u
/* a record holds the findings of one project: far below this */
#define FINDINGS_MAX ((size_t)1 << 30)

/* ---- the key ----------------------------------------------------------- */

/* The files discovery or resolution may read besides the sources:
 * templates, tsconfig*.json, package.json. */
static bool aux_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t l = strlen(b);
    return template_name(path) || !strcmp(b, "package.json") ||
           (!strncmp(b, "tsconfig", 8) && l > 5 && !strcmp(b + l - 5, ".json"));
}

/* `path` and the hash of its text ("-" when it cannot be read) into `sb`. */
static void add_file_hash(StrBuf *sb, const char *path)
{
    size_t len;
    FileRead how;
    char *text = file_read(path, KEYLINT_MAX_FILE_BYTES, true, &len, &how);
    char h[33] = "-";
    if (text)
        cache_hash_hex(text, len, h);
    free(text);
    sb_append(sb, path);
    sb_appendn(sb, "", 1);
    sb_append(sb, h);
    sb_append(sb, "\n");
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The key (see cache_findings.h); false when the cache is off or a file
 * lies outside the cache's root (what it may read there is not known). */
static bool findings_key(Cache *c, const Project *p, const char *settings, bool extracted,
                         char out[33], size_t *nfiles, size_t *nunread)
{
    *nfiles = *nunread = 0;
    if (!cache_dir(c))
        return false;
    const char *root = cache_root(c);
    size_t rl = strlen(root);
    Arena *a = arena_new();
    StrBuf sb;
    sb_init(&sb, a);
    sb_printf(&sb, "format %d keylint %s\n%s\n%s\n", FINDINGS_FORMAT, cache_version(c),
              settings, p->first_dir ? p->first_dir : "");
    StrList cfgs = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < p->files.n; i++) {
        const SourceFile *f = &p->files.v[i];
        if (f->removed)
            continue;
        const char *abs = f->abspath ? f->abspath : f->path;
        if (strcmp(root, "/") && (strncmp(abs, root, rl) || abs[rl] != '/')) {
            ok = false;
            break;
        }
        char h[33] = "";
        bool unread = false;
        if (extracted)
            memcpy(h, f->content, sizeof h);
        else if (!cache_content_of(c, f, h, &unread))
            ok = false; /* changed, or no entry to vouch for it */
        (*nfiles)++;
        *nunread += unread;
        const Config *cfg = f->config;
        const char *cp = cfg && cfg->path ? cfg->path : "";
        const char *parts[] = {f->path, abs, cp, h};
        for (size_t k = 0; k < 4; k++) {
            sb_append(&sb, parts[k]);
            sb_appendn(&sb, k < 3 ? "" : "\n", 1);
        }
        if (cfg && cfg->path && !strlist_has(&cfgs, cfg->path))
            strlist_push(a, &cfgs, cfg->path);
    }
    if (p->forced && p->forced->path && !strlist_has(&cfgs, p->forced->path))
        strlist_push(a, &cfgs, p->forced->path);
    if (cfgs.n > 1)
        qsort(cfgs.v, cfgs.n, sizeof *cfgs.v, cmp_str);
    /* each configuration, and the schema files it names */
    for (size_t i = 0; ok && i < cfgs.n; i++) {
        add_file_hash(&sb, cfgs.v[i]);
        const Config *cfg = NULL;
        for (size_t k = 0; k < p->configs.n && !cfg; k++)
            if (p->configs.v[k].config && p->configs.v[k].path &&
                !strcmp(p->configs.v[k].path, cfgs.v[i]))
                cfg = p->configs.v[k].config;
        if (!cfg && p->forced && p->forced->path && !strcmp(p->forced->path, cfgs.v[i]))
            cfg = p->forced;
        for (size_t k = 0; cfg && k < cfg->schemas.n; k++)
            add_file_hash(&sb, cfg->schemas.v[k][0] == '/'
                                   ? cfg->schemas.v[k]
                                   : arena_printf(a, "%s/%s", cfg->dir, cfg->schemas.v[k]));
    }
    /* what discovery and resolution may read, below the root and above it */
    if (ok) {
        StrList aux = {0};
        walk_dir_files(root, aux_name, a, &aux);
        for (size_t i = 0; i < aux.n; i++)
            add_file_hash(&sb, aux.v[i]);
        static const char *const names[] = {"tsconfig.json", "package.json", ".keylint.yml",
                                            "keylint.yml"};
        char *dir = arena_strdup(a, root);
        for (;;) {
            for (size_t k = 0; k < sizeof names / sizeof *names; k++)
                add_file_hash(&sb, arena_printf(a, "%s/%s", strcmp(dir, "/") ? dir : "",
                                                names[k]));
            char *slash = strrchr(dir, '/');
            if (!slash || dir[1] == '\0')
                break;
            if (slash == dir)
                slash[1] = '\0';
            else
                *slash = '\0';
        }
    }
    if (ok) {
        const char *s = sb_str(&sb);
        cache_hash_hex(s, sb.len, out);
    }
    arena_free(a);
    return ok;
}

/* ---- the record -------------------------------------------------------- */

typedef BinOut Out;
typedef BinIn In;

static void put_payload(Out *o, const FindingsRecord *r)
{
    bin_put_u64(o, r->linted);
    bin_put_u64(o, r->seen.keys);
    bin_put_u64(o, r->seen.ops);
    bin_put_u64(o, r->seen.tables);
    const DiagList *dl = r->diags;
    bin_put_u32(o, (uint32_t)dl->items.n);
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *g = &dl->items.v[i];
        bin_put_str(o, g->rule);
        bin_put_u32(o, (uint32_t)g->severity);
        bin_put_str(o, g->path);
        bin_put_span(o, g->span);
        bin_put_str(o, g->message);
        bin_put_str(o, g->fix);
        bin_put_u32(o, (uint32_t)g->has_edit | (uint32_t)g->proven << 1 | (uint32_t)g->unsafe << 2);
        bin_put_str(o, g->unsafe_why);
        bin_put_span(o, g->edit_span);
        bin_put_str(o, g->edit_old);
        bin_put_str(o, g->edit_text);
        for (size_t k = 0; k < FIX_MAX_NEEDS; k++) {
            bin_put_str(o, g->need[k].name);
            bin_put_str(o, g->need[k].module);
            bin_put_str(o, g->need[k].package);
            bin_put_str(o, g->need[k].exported);
            bin_put_u32(o, g->insert[k].at);
            bin_put_str(o, g->insert[k].text);
        }
        bin_put_u32(o, (uint32_t)g->nrelated);
        for (size_t k = 0; k < g->nrelated; k++) {
            bin_put_str(o, g->related[k].path);
            bin_put_span(o, g->related[k].span);
            bin_put_str(o, g->related[k].message);
        }
    }
    const Problems *pr = r->problems;
    bin_put_u32(o, (uint32_t)pr->items.n);
    for (size_t i = 0; i < pr->items.n; i++) {
        const Problem *q = &pr->items.v[i];
        bin_put_u32(o, (uint32_t)q->kind);
        bin_put_str(o, q->path);
        bin_put_u32(o, q->line);
        bin_put_u32(o, q->col);
        bin_put_str(o, q->message);
    }
}

/* The payload into `r`; false when it is of the wrong shape (then the
 * diagnostics read are dropped again and no problem is added). */
static bool get_payload(In *in, FindingsRecord *r)
{
    DiagList *dl = r->diags;
    Arena *a = dl->arena;
    size_t had = dl->items.n;
    size_t linted = (size_t)bin_get_u64(in);
    /* one read per statement: an initializer's are in no set order */
    SeenCounts seen;
    seen.keys = (size_t)bin_get_u64(in);
    seen.ops = (size_t)bin_get_u64(in);
    seen.tables = (size_t)bin_get_u64(in);
    uint32_t nd = bin_get_u32(in);
    for (uint32_t i = 0; i < nd && !in->bad; i++) {
        Diagnostic g = {0};
        g.rule = bin_get_str1(in, a);
        uint32_t sev = bin_get_u32(in);
        if (sev != SEV_WARNING && sev != SEV_ERROR)
            in->bad = true;
        g.severity = (Severity)sev;
        g.path = bin_get_str1(in, a);
        g.span = bin_get_span(in);
        g.message = bin_get_str1(in, a);
        g.fix = bin_get_str(in, a);
        uint32_t flags = bin_get_u32(in);
        if (flags > 7)
            in->bad = true;
        g.has_edit = flags & 1;
        g.proven = flags & 2;
        g.unsafe = flags & 4;
        g.unsafe_why = bin_get_str(in, a);
        g.edit_span = bin_get_span(in);
        g.edit_old = bin_get_str(in, a);
        g.edit_text = bin_get_str(in, a);
        for (size_t k = 0; k < FIX_MAX_NEEDS; k++) {
            g.need[k].name = bin_get_str(in, a);
            g.need[k].module = bin_get_str(in, a);
            g.need[k].package = bin_get_str(in, a);
            g.need[k].exported = bin_get_str(in, a);
            g.insert[k].at = bin_get_u32(in);
            g.insert[k].text = bin_get_str(in, a);
        }
        uint32_t nr = bin_get_u32(in);
        if (nr > DIAG_MAX_RELATED)
            in->bad = true;
        if (!in->bad && nr) {
            g.related = arena_alloc(a, nr * sizeof *g.related);
            g.nrelated = nr;
            for (uint32_t k = 0; k < nr; k++) {
                g.related[k].path = bin_get_str1(in, a);
                g.related[k].span = bin_get_span(in);
                g.related[k].message = bin_get_str1(in, a);
            }
        }
        if (!in->bad)
            VEC_PUSH(a, &dl->items, g);
    }
    uint32_t np = bin_get_u32(in);
    Problems got;
    problems_init(&got);
    for (uint32_t i = 0; i < np && !in->bad; i++) {
        uint32_t kind = bin_get_u32(in);
        const char *path = bin_get_str(in, got.arena);
        uint32_t line = bin_get_u32(in), col = bin_get_u32(in);
        const char *msg = bin_get_str1(in, got.arena);
        if (kind >= PROBLEM_KIND_COUNT)
            in->bad = true;
        if (!in->bad)
            problems_add_kind(&got, (ProblemKind)kind, path, line, col, "%s", msg);
    }
    bool ok = !in->bad && in->at == in->n;
    if (ok) {
        for (size_t i = 0; i < got.items.n; i++) {
            const Problem *q = &got.items.v[i];
            problems_add_kind(r->problems, q->kind, q->path, q->line, q->col, "%s", q->message);
        }
        r->linted = linted;
        r->seen = seen;
    } else {
        dl->items.n = had;
    }
    problems_free(&got);
    return ok;
}

/* The header: what it is, its format and keylint's version, then the
 * byte order (uint32). */
static size_t header(const Cache *c, char *buf, size_t n)
{
    int hl = snprintf(buf, n, "%sformat %d keylint %s\n", FINDINGS_MAGIC, FINDINGS_FORMAT,
                      cache_version(c));
    uint32_t order = FINDINGS_ORDER;
    memcpy(buf + hl, &order, 4);
    return (size_t)hl + 4;
}

static void ignored(Cache *c, const char *path, const char *why)
{
    char msg[160];
    snprintf(msg, sizeof msg, "cache of the findings ignored: %s; written again", why);
    cache_note(c, path, msg);
}

bool cache_findings_load(Cache *c, const Project *p, const char *settings, FindingsRecord *r)
{
    const char *dir = cache_dir(c);
    if (!dir)
        return false;
    Arena *a = arena_new();
    const char *path = arena_printf(a, "%s/%s", dir, FINDINGS_NAME);
    size_t len = 0;
    FileRead how;
    char *buf = file_read(path, FINDINGS_MAX, true, &len, &how);
    bool hit = false;
    char head[160];
    size_t hl = header(c, head, sizeof head - 4);
    if (!buf) {
        if (!(how.status == FILE_READ_OPEN && how.err == ENOENT))
            ignored(c, path, how.status == FILE_READ_TOO_LARGE ? "too large" : "cannot be read");
    } else if (len < strlen(FINDINGS_MAGIC) || memcmp(buf, FINDINGS_MAGIC, strlen(FINDINGS_MAGIC))) {
        ignored(c, path, "not a record keylint writes");
    } else if (len < hl || memcmp(buf, head, hl)) {
        ignored(c, path, "written by another version of keylint");
    } else if (len < hl + 32 + 16) {
        ignored(c, path, "cut short");
    } else {
        char want[33], key[33];
        size_t nfiles, nunread;
        memcpy(key, buf + hl, 32);
        key[32] = '\0';
        uint64_t plen, phash;
        memcpy(&plen, buf + hl + 32, 8);
        memcpy(&phash, buf + hl + 40, 8);
        const char *payload = buf + hl + 48;
        size_t avail = len - hl - 48;
        if (plen != avail || hash_bytes(payload, avail) != phash) {
            ignored(c, path, "cut short or damaged");
        } else if (findings_key(c, p, settings, false, want, &nfiles, &nunread) &&
                   !strcmp(want, key)) {
            In in = {.v = payload, .n = avail};
            hit = get_payload(&in, r);
            if (!hit)
                ignored(c, path, "of the wrong shape");
            else
                cache_count_kept(c, nfiles, nunread);
        }
    }
    free(buf);
    arena_free(a);
    return hit;
}

void cache_findings_store(Cache *c, const Project *p, const char *settings,
                          const FindingsRecord *r)
{
    char key[33];
    size_t nfiles, nunread;
    if (!cache_writable(c) || !findings_key(c, p, settings, true, key, &nfiles, &nunread))
        return;
    Out o = {0};
    char head[160];
    bin_put(&o, head, header(c, head, sizeof head - 4));
    bin_put(&o, key, 32);
    size_t at = o.n;
    bin_put_u64(&o, 0);
    bin_put_u64(&o, 0);
    put_payload(&o, r);
    uint64_t plen = o.n - at - 16, phash = hash_bytes(o.v + at + 16, plen);
    memcpy(o.v + at, &plen, 8);
    memcpy(o.v + at + 8, &phash, 8);
    Arena *a = arena_new();
    ReplaceFile rf;
    const char *path = arena_printf(a, "%s/%s", cache_dir(c), FINDINGS_NAME);
    bool ok = replace_open(&rf, path, a);
    if (ok) {
        rf.no_sync = true; /* a record lost costs one whole run */
        ok = replace_commit(&rf, fwrite(o.v, 1, o.n, rf.f) == o.n);
    }
    if (!ok) {
        char msg[200];
        snprintf(msg, sizeof msg, "the findings cannot be kept in the cache (%s)",
                 replace_error(&rf));
        cache_note(c, path, msg);
    }
    arena_free(a);
    free(o.v);
}
