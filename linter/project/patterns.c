/* Access patterns (access.h): whether the tables serve each access
 * pattern a configuration lists, and `keylint --access-patterns`. Split
 * from access.c, whose facts and models these read through access.h. */
#include "access.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "project.h"

/* ---- access patterns ------------------------------------------------------------ */

/* "ORDER#{tenantCode}" -> "ORDER#{}" */
static const char *pattern_shape(Arena *a, const char *p)
{
    size_t n = strlen(p);
    char *s = arena_alloc(a, n + 1), *o = s;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '{') {
            const char *c = strchr(p + i, '}');
            if (c) {
                memcpy(o, "{}", 2);
                o += 2;
                i = (size_t)(c - p);
                continue;
            }
        }
        *o++ = p[i];
    }
    *o = '\0';
    return s;
}

/* An access pattern's sort-key condition: "begins_with X", "= X",
 * "between A and B", "< X" ... or plain "X" (equality). Sets the value's
 * shape and whether it is a prefix. */
static const char *pattern_sk(Arena *a, const char *sk, bool *prefix)
{
    while (isspace((unsigned char)*sk))
        sk++;
    *prefix = false;
    static const char *const ops[] = {"begins_with", "between", "<=", ">=", "=", "<", ">", NULL};
    for (const char *const *o = ops; *o; o++) {
        size_t l = strlen(*o);
        if (strncasecmp(sk, *o, l))
            continue;
        const char *v = sk + l;
        if (isalpha((unsigned char)**o) && *v && !isspace((unsigned char)*v) && *v != '(')
            continue;
        while (isspace((unsigned char)*v) || *v == '(')
            v++;
        size_t vl = strcspn(v, " \t)");
        *prefix = strcmp(*o, "=") != 0;
        return pattern_shape(a, arena_strndup(a, v, vl));
    }
    return pattern_shape(a, sk);
}

static ServeState serve_attr(Arena *a, const AccessFacts *af, const KeyAttr *k,
                             const char *shape, bool prefix, const char **why)
{
    *why = NULL;
    if (!k->name || k->unknown)
        return SERVE_MAYBE;
    const char *const *ws;
    size_t n = access_written_shapes(af, k->name, 0, &ws);
    if (!n) {
        *why = arena_printf(a, "nothing written to %s is seen", k->name);
        return SERVE_MAYBE;
    }
    if (strlist_has(&af->updated, k->name)) {
        *why = arena_printf(a, "%s is also set by updates", k->name);
        return access_some_compatible(ws, n, shape, prefix, NULL, NULL) ? SERVE_YES
                                                                         : SERVE_MAYBE;
    }
    if (access_some_compatible(ws, n, shape, prefix, NULL, NULL))
        return SERVE_YES;
    const char *list = "";
    for (size_t i = 0; i < n && i < 4; i++)
        list = arena_printf(a, "%s%s%s", list, i ? ", " : "", ws[i]);
    *why = arena_printf(a, "%s holds %s%s", k->name, list, n > 4 ? ", ..." : "");
    return SERVE_NO;
}

enum { MAX_REASONS = 8 }; /* tables' reasons an unserved pattern's detail gives */

static const char *keys_label(Arena *a, const KeyAttr *pk, const KeyAttr *sk)
{
    const char *p = pk->name ? pk->name : "?";
    return sk->name ? arena_printf(a, "%s, %s", p, sk->name) : arena_strdup(a, p);
}

void access_serve(Arena *a, const AccessFacts *af, const TableModel *m, const AccessPattern *ap,
                  PatternServe *out)
{
    memset(out, 0, sizeof *out);
    if (!m || !m->set.tables.n) {
        out->state = SERVE_MAYBE;
        out->detail = "no table is known (no schema, no table defined in code)";
        return;
    }
    const char *pshape = pattern_shape(a, ap->pk);
    bool sk_prefix = false;
    const char *sshape = ap->sk ? pattern_sk(a, ap->sk, &sk_prefix) : NULL;
    StrBuf reasons; /* why each table fails, the first MAX_REASONS */
    sb_init(&reasons, a);
    size_t nreasons = 0;
    bool any = false;
    for (size_t ti = 0; ti < m->set.tables.n; ti++) {
        const TableDef *t = &m->set.tables.v[ti];
        if (t->same_as)
            continue; /* described by the table it is */
        for (size_t ii = 0; ii <= t->indexes.n; ii++) {
            const TableIndex *ix = ii < t->indexes.n ? &t->indexes.v[ii] : NULL;
            if (ap->index && (!ix || strcmp(ix->name, ap->index)))
                continue;
            any = true;
            const KeyAttr *pk = ix ? &ix->pk : &t->pk, *sk = ix ? &ix->sk : &t->sk;
            const char *label = ix ? arena_printf(a, "index %s of table %s", ix->name, t->id)
                                   : arena_printf(a, "table %s", t->id);
            const char *why = NULL, *why_sk = NULL;
            ServeState s = serve_attr(a, af, pk, pshape, false, &why);
            if (s != SERVE_NO && sshape) {
                ServeState s2;
                if (!sk->name && !sk->unknown) {
                    s2 = SERVE_NO;
                    why_sk = arena_printf(a, "%s has no sort key", label);
                } else {
                    s2 = serve_attr(a, af, sk, sshape, sk_prefix, &why_sk);
                }
                if (s2 < s) {
                    s = s2;
                    why = why_sk;
                }
            }
            if (!out->table || s > out->state) {
                out->state = s;
                out->table = t;
                out->index = ix;
                out->detail = arena_printf(a, "%s (%s)%s%s", label, keys_label(a, pk, sk),
                                           s == SERVE_MAYBE && why ? ": " : "",
                                           s == SERVE_MAYBE && why ? why : "");
            }
            if (s == SERVE_NO && why && nreasons++ < MAX_REASONS)
                sb_printf(&reasons, "%s%s", nreasons > 1 ? "; " : "", why);
        }
    }
    if (!any) {
        out->state = SERVE_NO;
        out->table = NULL;
        out->detail = arena_printf(a, "no table has an index named '%s'", ap->index);
        return;
    }
    if (out->state == SERVE_NO) {
        out->table = NULL;
        out->index = NULL;
        const char *skpart =
            sshape ? arena_printf(a, " with sort keys %s%s", sk_prefix ? "beginning " : "", sshape)
                   : "";
        if (nreasons > MAX_REASONS)
            sb_append(&reasons, "; ...");
        out->detail = arena_printf(a, "no %s holds partition keys like %s%s%s%s%s",
                                   ap->index ? "such index" : "key or index", pshape, skpart,
                                   nreasons ? " (" : "", sb_str(&reasons), nreasons ? ")" : "");
    }
}

/* ---- keylint --access-patterns ------------------------------------------------- */

size_t access_print_patterns(FILE *out, const Project *p)
{
    size_t unserved = 0, total = 0;
    Arena *a = arena_new();
    for (size_t mi = 0; mi < p->models.n; mi++) {
        const ModelEntry *e = &p->models.v[mi];
        const Config *cfg = e->config;
        if (!cfg || !cfg->access_patterns.n)
            continue;
        fprintf(out, "%s%s\n", total ? "\n" : "",
                cfg->path ? file_display_path(a, cfg->path) : "(built-in configuration)");
        size_t wn = 4, wk = 3;
        const char **conds = arena_alloc(a, cfg->access_patterns.n * sizeof *conds);
        for (size_t i = 0; i < cfg->access_patterns.n; i++) {
            const AccessPattern *ap = &cfg->access_patterns.v[i];
            conds[i] = arena_printf(a, "pk %s%s%s%s%s", ap->pk, ap->sk ? ", sk " : "",
                                    ap->sk ? ap->sk : "", ap->index ? ", index " : "",
                                    ap->index ? ap->index : "");
            if (strlen(ap->name) > wn)
                wn = strlen(ap->name);
            if (strlen(conds[i]) > wk)
                wk = strlen(conds[i]);
        }
        fprintf(out, "  %-*s  %-*s  %s\n", (int)wn, "name", (int)wk, "key", "served by");
        for (size_t i = 0; i < cfg->access_patterns.n; i++) {
            const AccessPattern *ap = &cfg->access_patterns.v[i];
            PatternServe s;
            access_serve(a, p->access, e->model, ap, &s);
            total++;
            const char *verdict = s.state == SERVE_NO ? arena_printf(a, "NOT SERVED: %s", s.detail)
                                : s.state == SERVE_MAYBE ? arena_printf(a, "maybe %s", s.detail)
                                                        : s.detail;
            if (s.state == SERVE_NO)
                unserved++;
            fprintf(out, "  %-*s  %-*s  %s\n", (int)wn, ap->name, (int)wk, conds[i], verdict);
        }
    }
    if (!total)
        fprintf(out, "no access patterns declared (see access-patterns in docs/configuration.md)\n");
    arena_free(a);
    return unserved;
}
