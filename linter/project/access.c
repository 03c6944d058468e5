/* Access facts: see access.h. */
#include "access.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ddbexpr.h"
#include "index_calls.h"
#include "keyfacts.h"
#include "access_part.h"
#include "project.h"
#include "templates.h"

/* ---- project-wide facts ----------------------------------------------------- */

static int str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The order of af->written: by attribute, then shape, then helper last;
 * keys that tie keep the order of the files (sort_written). */
typedef struct WrittenRank {
    uint32_t attr, shape, helper, at; /* ranks of the texts, position */
} WrittenRank;

static int rank_cmp(const void *x, const void *y)
{
    const WrittenRank *a = x, *b = y;
    if (a->attr != b->attr)
        return a->attr < b->attr ? -1 : 1;
    if (a->shape != b->shape)
        return a->shape < b->shape ? -1 : 1;
    if (a->helper != b->helper)
        return a->helper < b->helper ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Sort af->written: a workspace has many written keys and few distinct
 * attribute names and shapes, so each distinct text is ranked once and
 * the keys are sorted by ranks (the editor does this at every edit). */
static void sort_written(AccessFacts *af, Arena *a)
{
    size_t n = af->written.n;
    if (n < 2)
        return;
    NameMap ids = {0};
    StrList texts = {0};
    WrittenRank *r = arena_alloc(a, n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        const char *t[2] = {af->written.v[i].attr, af->written.v[i].shape};
        uint32_t id[2];
        for (int k = 0; k < 2; k++) {
            size_t v;
            if (!namemap_get(&ids, t[k], &v)) {
                v = texts.n;
                namemap_put(a, &ids, t[k], v);
                strlist_push(a, &texts, t[k]);
            }
            id[k] = (uint32_t)v;
        }
        r[i] = (WrittenRank){id[0], id[1], af->written.v[i].helper, (uint32_t)i};
    }
    /* ranks: the position of each distinct text in strcmp order */
    const char **sorted = arena_alloc(a, texts.n * sizeof *sorted);
    memcpy(sorted, texts.v, texts.n * sizeof *sorted);
    qsort(sorted, texts.n, sizeof *sorted, str_cmp);
    uint32_t *rank = arena_alloc(a, texts.n * sizeof *rank);
    for (size_t i = 0; i < texts.n; i++) {
        size_t v = 0;
        namemap_get(&ids, sorted[i], &v);
        rank[v] = (uint32_t)i;
    }
    for (size_t i = 0; i < n; i++) {
        r[i].attr = rank[r[i].attr];
        r[i].shape = rank[r[i].shape];
    }
    qsort(r, n, sizeof *r, rank_cmp);
    WrittenKey *out = arena_alloc(a, n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = af->written.v[r[i].at];
    af->written.v = out;
    af->written.cap = n;
}

static void access_index(AccessFacts *af, Arena *a);

static int helper_cmp(const void *x, const void *y)
{
    const WrittenKey *a = *(const WrittenKey *const *)x, *b = *(const WrittenKey *const *)y;
    return strcmp(a->shape, b->shape);
}

/* af->helper_shapes and helper_roles: the helpers' shapes sorted. */
static void sort_helper_shapes(AccessFacts *af, Arena *a)
{
    size_t n = af->helpers.n;
    const WrittenKey **by = arena_alloc(a, (n + 1) * sizeof *by);
    for (size_t i = 0; i < n; i++)
        by[i] = &af->helpers.v[i];
    if (n)
        qsort(by, n, sizeof *by, helper_cmp);
    af->helper_shapes = arena_alloc(a, (n + 1) * sizeof *af->helper_shapes);
    af->helper_roles = arena_alloc(a, (n + 1) * sizeof *af->helper_roles);
    for (size_t i = 0; i < n; i++) {
        af->helper_shapes[i] = by[i]->shape;
        af->helper_roles[i] = by[i]->role;
    }
}

/* Prefix uses by token ignoring case, then by token. */
static int fold_cmp(const void *x, const void *y)
{
    const PrefixUse *a = *(const PrefixUse *const *)x, *b = *(const PrefixUse *const *)y;
    int c = strcasecmp(a->token, b->token);
    return c ? c : strcmp(a->token, b->token);
}

/* Whether two operations of one file may be on one table: unless both
 * name theirs and the names differ (through what a constant holds, when
 * resolution found it). */
static bool same_table(const DataOp *a, const DataOp *b)
{
    const char *ta = a->table_value ? a->table_value : a->table;
    const char *tb = b->table_value ? b->table_value : b->table;
    return !ta || !tb || !strcmp(ta, tb);
}

/* Whether operation `i` of the file writes keys it spells out (a copy of
 * items read elsewhere writes none). */
static bool writes_keys(const FileIR *f, size_t i)
{
    for (size_t k = 0; k < f->keys.n; k++)
        if (f->keys.v[k].site == SITE_WRITE && f->keys.v[k].op == (int)i)
            return true;
    return false;
}

/* Whether the file puts whole items (a put, a batch or transaction write)
 * into the table of `op`, itself with their keys spelled out or through a
 * project function it hands them to (puts_by_call). */
static bool puts_items(const FileIR *f, const DataOp *op)
{
    if (f->puts_by_call)
        return true;
    for (size_t i = 0; i < f->ops.n; i++) {
        OpKind kind = f->ops.v[i].kind;
        if ((kind == OP_PUT || kind == OP_BATCH_WRITE || kind == OP_TRANSACT_WRITE) &&
            same_table(&f->ops.v[i], op) && writes_keys(f, i))
            return true;
    }
    return false;
}

static bool writes_key(const FileIR *f, const KeyExpr *k)
{
    switch (k->site) {
    case SITE_WRITE:
    case SITE_ENTITY:
    case SITE_HELPER:
    case SITE_OBJECT:
        return true;
    case SITE_READ:
        /* an update creates the item when it is missing; but in a file
         * that puts items into its table, keys spelled out, its updates
         * address the items those create */
        return k->op >= 0 && (size_t)k->op < f->ops.n && f->ops.v[k->op].kind == OP_UPDATE &&
               !f->ops.v[k->op].params.must_exist && !puts_items(f, &f->ops.v[k->op]);
    case SITE_CONDITION:
    case KEY_SITE_COUNT:
        break;
    }
    return false;
}

bool access_defines_key(const FileIR *f, const KeyExpr *k)
{
    return writes_key(f, k) && !kf_is_helper_output(k);
}

bool access_hole_is_date(Arena *a, const Seg *s)
{
    if (kf_hole_is_date(a, s))
        return true;
    if (!s->text || (s->kind != SEG_REF && s->kind != SEG_CALL && s->kind != SEG_UNKNOWN))
        return false;
    static const char *const marks[] = {"toISOString", "Date.now", "new Date", "newDate(",
                                        "getTime()", "dayjs", "moment(", "DateTime.",
                                        "toLocaleDateString", "getFullYear", NULL};
    for (const char *const *m = marks; *m; m++)
        if (strstr(s->text, *m))
            return true;
    /* e.createdAt.slice(0, 13): a date-named value inside the path */
    if (s->kind == SEG_UNKNOWN)
        return false;
    const char *p = s->text;
    while (*p) {
        size_t l = strcspn(p, ".(");
        if (l && l < 64) {
            char word[64];
            memcpy(word, p, l);
            word[l] = '\0';
            if (kf_name_is_date(a, word))
                return true;
        }
        p += l;
        if (*p == '(') {
            const char *c = strchr(p, ')');
            p = c ? c + 1 : p + strlen(p);
        }
        while (*p == '.' || *p == '?' || *p == '!')
            p++;
    }
    return false;
}

const char *access_key_table_text(const FileIR *f, const KeyExpr *k)
{
    if (k->op >= 0 && (size_t)k->op < f->ops.n) {
        const DataOp *op = &f->ops.v[k->op];
        return op->table_value ? op->table_value : op->table ? op->table : "";
    }
    return k->site == SITE_ENTITY ? "entity:" : "";
}

static bool is_tenant_value(const char *tok, const Config *cfg)
{
    return !strcasecmp(tok, "single") || (cfg && strlist_has_ci(&cfg->tenant_common, tok));
}



/* File f's part, read with `cfg`: the one kept with its resolution, else
 * read now and kept with it (a file never resolved is read into
 * `analysis` each time). */
static const struct AccessPart *access_part(FileIR *f, Arena *analysis, const Config *cfg)
{
    if (f->access_part && f->access_part->cfg == cfg)
        return f->access_part;
    Arena *a = f->resolved ? f->resolved : analysis;
    struct AccessPart *p = arena_alloc(a, sizeof *p);
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    NameMap updated = {0}, tables = {0}, toks = {0};
    for (size_t i = 0; i < f->ops.n; i++) {
        if (f->ops.v[i].api == API_MBC_COMMAND || f->ops.v[i].api == API_MBC_HISTORY)
            p->versioned = true;
        const StrList *sets = fileir_op_sets(f, i);
        for (size_t j = 0; j < sets->n; j++)
            strlist_push_once(a, &p->updated, &updated, sets->v[j]);
    }
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        KfKey key;
        kf_flatten(a, &k->segs, &key);
        if (!p->versioned && kf_is_versioned(&key, cfg, NULL))
            p->versioned = true;
        const char *tok = kf_leading_prefix(a, &key);
        /* the first word of free text ('Resize Policy', a name an index
         * sorts by) is no entity prefix */
        if (tok && key.parts[0].text[strlen(tok)] == ' ')
            tok = NULL;
        if (tok && strlen(tok) >= 2 && !is_tenant_value(tok, cfg) &&
            !(k->segs.v[key.parts[0].first].flags & SEGF_TENANT)) {
            /* counted once per token: a file has many keys, few tokens */
            bool more = strlen(tok) < key.parts[0].len || key.n > 1;
            size_t at;
            if (namemap_get(&toks, tok, &at)) {
                p->toks.v[at].prefix |= more;
                p->toks.v[at].keys++;
            } else {
                namemap_put(a, &toks, tok, p->toks.n);
                VEC_PUSH(a, &p->toks, ((Tok){tok, more, 1}));
            }
        }
        if (!writes_key(f, k) || !k->attr)
            continue;
        if (k->role == ROLE_PK && tok && kf_hole_count(&key) > 0) {
            p->prefixed_pks++;
            strlist_push_once(a, &p->prefixed_tables, &tables, access_key_table_text(f, k));
        }
        WrittenKey w = {.attr = k->attr, .role = k->role, .shape = kf_shape(a, &key),
                        .helper = k->site == SITE_HELPER, .file = f, .op = k->op,
                        .span = k->span, .guessed = k->role_guessed};
        VEC_PUSH(a, &p->written, w);
    }
    if (f->resolved)
        f->access_part = p;
    return p;
}

/* Empty facts over `files`, kept as a copy in `a`: the caller's array may
 * not outlive the analysis. */
void access_facts_over(AccessFacts *af, Arena *a, FileIR *const *files, size_t n)
{
    memset(af, 0, sizeof *af);
    FileIR **copy = arena_alloc(a, (n ? n : 1) * sizeof *copy);
    for (size_t i = 0; i < n; i++)
        copy[i] = files[i];
    af->files = copy;
    af->nfiles = n;
}

void access_compute(AccessFacts *af, Arena *a, FileIR *const *files, size_t n, const Config *cfg)
{
    access_compute_indexed(af, a, files, n, cfg, NULL);
}

const struct AccessPart **access_gather(AccessFacts *af, Arena *a, FileIR *const *files,
                                        size_t n, const Config *cfg, bool written)
{
    access_facts_over(af, a, files, n);
    const struct AccessPart **parts = arena_alloc(a, (n ? n : 1) * sizeof *parts);
    VEC(Tok) toks = {0};
    NameMap updated = {0}, prefixed_tables = {0}; /* sets of af's lists */
    for (size_t fi = 0; fi < n; fi++) {
        FileIR *f = files[fi];
        if (!f || f->parse_failed)
            continue;
        const struct AccessPart *p = parts[fi] = access_part(f, a, cfg);
        af->versioned = af->versioned || p->versioned;
        for (size_t i = 0; i < p->updated.n; i++)
            strlist_push_once(a, &af->updated, &updated, p->updated.v[i]);
        for (size_t i = 0; i < p->toks.n; i++)
            VEC_PUSH(a, &toks, p->toks.v[i]);
        af->prefixed_pks += p->prefixed_pks;
        for (size_t i = 0; i < p->prefixed_tables.n; i++)
            strlist_push_once(a, &af->prefixed_tables, &prefixed_tables, p->prefixed_tables.v[i]);
        for (size_t i = 0; written && i < p->written.n; i++)
            VEC_PUSH(a, &af->written, p->written.v[i]);
    }
    if (written)
        sort_written(af, a);
    if (toks.n) {
        qsort(toks.v, toks.n, sizeof *toks.v, str_cmp); /* Tok starts with its text */
        for (size_t i = 0; i < toks.n;) {
            size_t j = i;
            PrefixUse u = {.token = toks.v[i].t};
            for (; j < toks.n && !strcmp(toks.v[j].t, toks.v[i].t); j++) {
                u.prefix = u.prefix || toks.v[j].prefix;
                u.keys += toks.v[j].keys;
            }
            VEC_PUSH(a, &af->prefixes, u);
            i = j;
        }
    }
    return parts;
}

void access_finish(AccessFacts *af, Arena *a, const AccessFacts *index)
{
    size_t n = af->nfiles, seen;
    NameMap helper_shapes = {0}; /* "role:shape": the set of af->helpers */
    for (size_t i = 0; i < af->written.n; i++) {
        const WrittenKey *w = &af->written.v[i];
        if (w->helper) {
            const char *key = arena_printf(a, "%d:%s", (int)w->role, w->shape);
            if (!namemap_get(&helper_shapes, key, &seen)) {
                namemap_put(a, &helper_shapes, key, 0);
                VEC_PUSH(a, &af->helpers, *w);
            }
        } else if (!af->shapes.n || strcmp(af->shapes.v[af->shapes.n - 1].attr, w->attr) ||
                   strcmp(af->shapes.v[af->shapes.n - 1].shape, w->shape)) {
            VEC_PUSH(a, &af->shapes, *w);
        }
    }
    if (index && index->nfiles == n) {
        /* the names' index access_index_only made over the same files */
        af->files_by_stem = index->files_by_stem;
        af->table_consts = index->table_consts;
        af->entity_files = index->entity_files;
        af->lists = index->lists;
        af->index_files = index->index_files;
    } else {
        access_index(af, a);
    }
    sort_helper_shapes(af, a);
    af->shape_texts = arena_alloc(a, (af->shapes.n + 1) * sizeof *af->shape_texts);
    for (size_t i = 0; i < af->shapes.n; i++)
        af->shape_texts[i] = af->shapes.v[i].shape;
    af->prefixes_by_fold = arena_alloc(a, (af->prefixes.n + 1) * sizeof *af->prefixes_by_fold);
    for (size_t i = 0; i < af->prefixes.n; i++)
        af->prefixes_by_fold[i] = &af->prefixes.v[i];
    qsort(af->prefixes_by_fold, af->prefixes.n, sizeof *af->prefixes_by_fold, fold_cmp);
}

void access_compute_indexed(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                            const Config *cfg, const AccessFacts *index)
{
    access_gather(af, a, files, n, cfg, true);
    access_finish(af, a, index);
}

const PrefixUse *access_prefix(const AccessFacts *af, const char *tok)
{
    PrefixUse key = {.token = tok};
    return af->prefixes.n ? bsearch(&key, af->prefixes.v, af->prefixes.n,
                                    sizeof *af->prefixes.v, str_cmp)
                          : NULL;
}

size_t access_prefix_spellings(const AccessFacts *af, const char *tok, const PrefixUse ***out)
{
    size_t n = af->prefixes.n, lo = 0, hi = n;
    while (lo < hi) { /* the first one not below tok, ignoring case */
        size_t mid = lo + (hi - lo) / 2;
        if (strcasecmp(af->prefixes_by_fold[mid]->token, tok) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && !strcasecmp(af->prefixes_by_fold[end]->token, tok))
        end++;
    *out = (const PrefixUse **)af->prefixes_by_fold + lo;
    return end - lo;
}

/* ---- shapes --------------------------------------------------------------- */

static size_t lit_len(const char *s)
{
    const char *h = strstr(s, "{}");
    return h ? (size_t)(h - s) : strlen(s);
}

static const char *tail_lit(const char *s)
{
    const char *last = NULL;
    for (const char *h = strstr(s, "{}"); h; h = strstr(h + 2, "{}"))
        last = h + 2;
    return last ? last : s;
}

bool access_shapes_compatible(const char *q, const char *w, bool prefix)
{
    if (!q || !w)
        return true;
    size_t lq = lit_len(q), lw = lit_len(w);
    bool hq = q[lq] != '\0', hw = w[lw] != '\0';
    size_t m = lq < lw ? lq : lw;
    if (strncmp(q, w, m))
        return false;
    if (prefix) {
        /* some written key begins with q: w's text must not stop short of
         * q's text while q goes on literally */
        if (!hw && lw < lq)
            return false;
        return true;
    }
    if (!hq && !hw)
        return !strcmp(q, w);
    if (!hq && lq < lw)
        return false; /* literal q shorter than w's fixed start */
    if (!hw && lw < lq)
        return false;
    /* a literal q where w has a value: the value cannot be empty (`PK =
     * 'TENANT#'` when every write is TENANT#{id}) */
    if (!hq && hw && lq <= lw + strlen(tail_lit(w)))
        return false;
    /* whole keys: the literal ends must agree too */
    const char *tq = hq ? tail_lit(q) : q, *tw = hw ? tail_lit(w) : w;
    size_t a = strlen(tq), b = strlen(tw), e = a < b ? a : b;
    return !strcmp(tq + a - e, tw + b - e);
}

/* The first of sorted `ws` not below s[0..n) (as a string). */
static size_t shape_bound(const char *const *ws, size_t count, const char *s, size_t n)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(ws[mid], s, n);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Test the shapes of ws from `i` on that begin with s[0..n) (and, with
 * `exact`, are nothing more). */
static bool some_from(const char *const *ws, size_t count, size_t i, const char *s, size_t n,
                      bool exact, const char *query, bool prefix,
                      bool (*ok)(const void *ctx, size_t i), const void *ctx)
{
    for (; i < count && !strncmp(ws[i], s, n); i++) {
        if (exact && ws[i][n])
            break;
        if ((!ok || ok(ctx, i)) && access_shapes_compatible(query, ws[i], prefix))
            return true;
    }
    return false;
}

bool access_some_compatible(const char *const *ws, size_t n, const char *query, bool prefix,
                            bool (*ok)(const void *ctx, size_t i), const void *ctx)
{
    if (!query || !n)
        return false;
    size_t lq = lit_len(query);
    /* literal starts that begin with the query's (its own included) */
    if (some_from(ws, n, shape_bound(ws, n, query, lq), query, lq, false, query, prefix, ok,
                  ctx))
        return true;
    /* literal starts that are a shorter prefix of it: a literal shape
     * "q[0..L)", or one that goes on with a hole "q[0..L){}..." */
    char *key = malloc(lq + 3);
    if (!key)
        abort();
    bool hit = false;
    for (size_t l = 0; l < lq && !hit; l++) {
        memcpy(key, query, l);
        memcpy(key + l, "{}", 3);
        hit = some_from(ws, n, shape_bound(ws, n, key, l), key, l, true, query, prefix, ok,
                        ctx) ||
              some_from(ws, n, shape_bound(ws, n, key, l + 2), key, l + 2, false, query,
                        prefix, ok, ctx);
    }
    free(key);
    return hit;
}

/* The first entry of sorted `v` whose attribute is not below `attr`. */
static size_t lower_bound(const WrittenKey *v, size_t n, const char *attr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].attr, attr) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first entry of sorted `v` whose attribute is above `attr`. */
static size_t upper_bound(const WrittenKey *v, size_t n, const char *attr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].attr, attr) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t access_written_shapes(const AccessFacts *af, const char *attr, size_t max,
                             const char *const **out)
{
    size_t from = lower_bound(af->shapes.v, af->shapes.n, attr);
    size_t n = upper_bound(af->shapes.v, af->shapes.n, attr) - from;
    if (max && n > max)
        n = max;
    *out = af->shape_texts ? (const char *const *)af->shape_texts + from : NULL;
    return af->shape_texts ? n : 0;
}

size_t access_writes_of(const AccessFacts *af, const char *attr, size_t *from)
{
    size_t f = lower_bound(af->written.v, af->written.n, attr);
    size_t n = upper_bound(af->written.v, af->written.n, attr) - f;
    *from = f;
    return n;
}

/* ---- the model of a configuration ------------------------------------------ */

static void index_tables(Arena *a, TableModel *m);

static bool client_source(TableSource s)
{
    return s == TSRC_TURBINE || s == TSRC_TOOLBOX || s == TSRC_DDB_LIB;
}

static bool same_keys(const TableDef *a, const TableDef *b)
{
    if (!a->pk.name || !b->pk.name || strcmp(a->pk.name, b->pk.name))
        return false;
    if (!a->sk.name || !b->sk.name)
        return !a->sk.name && !b->sk.name && !a->sk.unknown && !b->sk.unknown;
    return !strcmp(a->sk.name, b->sk.name);
}

/* A client library's table that describes one the schema or the
 * infrastructure code defines: by name, or (its name unknown) by keys. */
static void link_clients(TableModel *m)
{
    for (size_t i = 0; i < m->set.tables.n; i++) {
        TableDef *c = &m->set.tables.v[i];
        if (!client_source(c->source))
            continue;
        const TableDef *hit = NULL;
        size_t hits = 0;
        for (size_t j = 0; j < m->set.tables.n; j++) {
            const TableDef *t = &m->set.tables.v[j];
            if (client_source(t->source))
                continue;
            bool match = c->name ? table_names_match(c->name, t->name) : same_keys(c, t);
            if (match) {
                hit = t;
                hits++;
            }
        }
        if (hits == 1)
            c->same_as = hit;
    }
}

/* A table a CreateTable call makes (a local or test setup, a script) that
 * the schema or the infrastructure code defines by the same name and keys:
 * the same table, as the deployment defines it (its indexes may differ). */
static void link_copies(TableModel *m)
{
    for (size_t i = 0; i < m->set.tables.n; i++) {
        TableDef *c = &m->set.tables.v[i];
        if (c->source != TSRC_SDK || !c->name || c->same_as)
            continue;
        const TableDef *hit = NULL;
        size_t hits = 0;
        for (size_t j = 0; j < m->set.tables.n; j++) {
            const TableDef *t = &m->set.tables.v[j];
            if (t->source != TSRC_SDK && !client_source(t->source) && !t->same_as &&
                table_names_match(c->name, t->name) && same_keys(c, t)) {
                hit = t;
                hits++;
            }
        }
        if (hits == 1)
            c->same_as = hit;
    }
}

const TableSet *access_file_tables(const FileIR *f)
{
    return f && f->tables ? &f->tables->set : NULL;
}

TableModel *access_model(Arena *a, const Config *cfg, FileIR *const *files,
                         const Config *const *cfgs, const char *const *abspaths, size_t n,
                         Problems *problems, TemplateCache *cache)
{
    TableModel *m = arena_alloc(a, sizeof *m);
    m->config = cfg && cfg->path ? cfg->path : NULL;
    if (cfg && !cfg->schemas_given)
        templates_read(a, templates_of(a, cfg, files, cfgs, abspaths, n, cache), m, problems,
                       cache);
    if (cfg && cfg->path) {
        for (size_t i = 0; i < cfg->schemas.n; i++) {
            const char *s = cfg->schemas.v[i];
            const char *full = s[0] == '/' ? arena_strdup(a, s)
                                           : arena_printf(a, "%s/%s", cfg->dir, s);
            const char *disp = file_display_path(a, full);
            strlist_push(a, &m->schema_files, disp);
            templates_load(a, cache, full, disp, &m->set, problems);
        }
    }
    schema_open_indexes(&m->set); /* index resources of other .tf files */
    size_t code_from = m->set.tables.n;
    for (size_t fi = 0; fi < n; fi++) {
        if (cfgs[fi] != cfg || !files[fi] || !files[fi]->tables)
            continue;
        const FileTables *ft = files[fi]->tables;
        for (size_t i = 0; i < ft->set.tables.n; i++)
            VEC_PUSH(a, &m->set.tables, ft->set.tables.v[i]);
        for (size_t i = 0; i < ft->set.env.n; i++)
            VEC_PUSH(a, &m->set.env, ft->set.env.v[i]);
    }
    index_calls_attach(a, m, code_from, files, cfgs, n, cfg);
    link_clients(m);
    link_copies(m);
    index_tables(a, m);
    return m;
}

/* ---- names across files ---------------------------------------------------- */

/* The module file a specifier most likely names: its last path component
 * (without extension) is the file's base name, or "index" in a directory
 * of that name. */
static bool path_matches_module(const char *path, const char *spec)
{
    if (!spec)
        return false;
    const char *base = strrchr(spec, '/');
    base = base ? base + 1 : spec;
    size_t bl = strcspn(base, ".");
    const char *fb = strrchr(path, '/');
    fb = fb ? fb + 1 : path;
    if (!strncmp(fb, base, bl) && fb[bl] == '.')
        return true;
    if (!strncmp(fb, "index.", 6)) {
        size_t pl = (size_t)(fb - path);
        return pl > bl && !strncmp(path + pl - bl - 1, base, bl) && path[pl - 1] == '/';
    }
    return false;
}

/* `path` with its `.` and `..` components settled and, with `strip`, the
 * extension of its last component taken off (`a/./b/../c.ts` -> `a/c`). */
static char *norm_module_path(Arena *a, const char *path, bool strip)
{
    size_t n = strlen(path);
    char *out = arena_alloc(a, n + 1);
    size_t o = 0;
    for (const char *p = path; *p;) {
        size_t l = strcspn(p, "/");
        if (l == 0 || (l == 1 && p[0] == '.')) {
            /* nothing */
        } else if (l == 2 && p[0] == '.' && p[1] == '.' && o &&
                   !(o >= 2 && out[o - 1] == '.' && out[o - 2] == '.' &&
                     (o == 2 || out[o - 3] == '/'))) {
            while (o && out[o - 1] != '/')
                o--;
            if (o)
                o--;
        } else {
            if (o)
                out[o++] = '/';
            memcpy(out + o, p, l);
            o += l;
        }
        p += l;
        if (*p == '/')
            p++;
    }
    out[o] = '\0';
    if (strip) {
        char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
        if (dot && dot > (slash ? slash + 1 : out))
            *dot = '\0';
    }
    return out;
}

/* Whether project file `path` is the module `spec` names when imported
 * from file `from`: a relative spec (`./keys`, `../common/keys.js`) names
 * the file it leads to (any extension, or the index file of that
 * directory); any other spec, the files of its last part's name
 * (path_matches_module). */
static bool import_names_file(Arena *a, const char *from, const char *path, const char *spec)
{
    if (!from || !spec || (strncmp(spec, "./", 2) && strncmp(spec, "../", 3)))
        return path_matches_module(path, spec);
    const char *slash = strrchr(from, '/');
    const char *dir = slash ? arena_strndup(a, from, (size_t)(slash - from)) : "";
    const char *want = norm_module_path(a, arena_printf(a, "%s/%s", dir, spec), false);
    const char *have = norm_module_path(a, path, true);
    if (!strcmp(have, want) || !strcmp(have, norm_module_path(a, want, true)))
        return true;
    size_t wl = strlen(want);
    return !strncmp(have, want, wl) && !strcmp(have + wl, "/index");
}

/* The list `key` names in `map` (access_index), NULL if none. */
static const FileList *file_list(const AccessFacts *af, const NameMap *map,
                                        const char *key)
{
    size_t i;
    return namemap_get(map, key, &i) ? &af->lists.v[i] : NULL;
}

static void file_list_add(AccessFacts *af, Arena *a, NameMap *map, const char *key, size_t fi)
{
    size_t i;
    if (!namemap_get(map, key, &i)) {
        i = af->lists.n;
        namemap_put(a, map, key, i);
        VEC_PUSH(a, &af->lists, (FileList){0});
    }
    FileList *l = &af->lists.v[i];
    if (!l->n || l->v[l->n - 1] != fi)
        VEC_PUSH(a, l, fi);
}

/* The name of a file up to its first dot ("keys" of src/keys.test.ts). */
static char *file_stem(Arena *a, const char *path)
{
    const char *fb = strrchr(path, '/');
    fb = fb ? fb + 1 : path;
    return arena_strndup(a, fb, strcspn(fb, "."));
}

/* The indexes export_const and const_value read; with `own`, the names
 * of constants and entities copied into `a` (the editor's fold keeps the
 * index past the IRs it was read from). */
void access_index_in(AccessFacts *af, Arena *a, bool own)
{
    for (size_t fi = 0; fi < af->nfiles; fi++) {
        const FileIR *f = af->files[fi];
        if (!f || !f->path)
            continue;
        const char *fb = strrchr(f->path, '/');
        fb = fb ? fb + 1 : f->path;
        if (!strncmp(fb, "index.", 6))
            VEC_PUSH(a, &af->index_files, fi);
        if (strchr(fb, '.'))
            file_list_add(af, a, &af->files_by_stem, file_stem(a, f->path), fi);
        for (size_t i = 0; f->tables && i < f->tables->consts.n; i++)
            if (f->tables->consts.v[i].exported)
                file_list_add(af, a, &af->table_consts,
                              own ? arena_strdup(a, f->tables->consts.v[i].name)
                                  : f->tables->consts.v[i].name,
                              fi);
    }
    for (size_t fi = 0; fi < af->nfiles; fi++) {
        const FileIR *f = af->files[fi];
        for (size_t i = 0; f && f->tables && i < f->tables->entities.n; i++) {
            const char *tail = name_tail(f->tables->entities.v[i].entity);
            namemap_put(a, &af->entity_files, own && tail ? arena_strdup(a, tail) : tail, fi);
        }
    }
}

static void access_index(AccessFacts *af, Arena *a)
{
    access_index_in(af, a, false);
}

/* An exported constant's name reference, from the module the import
 * names when it can be told (imported by file `importer` from `from`),
 * else the only file that exports it; `*at` the file it is in. */
static const NameConst *export_const(Arena *a, const AccessFacts *af, const char *name,
                                     const char *from, const char *importer, const char **at)
{
    const NameConst *only = NULL, *best = NULL;
    const char *only_at = NULL, *best_at = NULL;
    size_t count = 0;
    const FileList *l = af ? file_list(af, &af->table_consts, name) : NULL;
    for (size_t k = 0; l && k < l->n; k++) {
        const FileIR *f = af->files[l->v[k]];
        for (size_t i = 0; i < f->tables->consts.n; i++) {
            const NameConst *c = &f->tables->consts.v[i];
            if (!c->exported || strcmp(c->name, name))
                continue;
            count++;
            only = c;
            only_at = f->path;
            if (!best && import_names_file(a, importer, f->path, from)) {
                best = c;
                best_at = f->path;
            }
        }
    }
    *at = best ? best_at : only_at;
    return best ? best : count == 1 ? only : NULL;
}

/* What reference `r`, written in file `importer`, names: through the
 * constants it is imported as, a few hops. */
static NameRef resolve_ref(Arena *a, const AccessFacts *af, NameRef r, const char *importer)
{
    for (int hop = 0; hop < 4 && r.import && !r.literal && !r.env; hop++) {
        const NameConst *c = export_const(a, af, r.import, r.from, importer, &importer);
        if (!c)
            break;
        const char *text = r.text;
        r = c->ref;
        if (!r.text)
            r.text = text;
    }
    return r;
}

/* A constant's value as text, NULL unless it is all text. */
static const char *const_def_text(Arena *a, const ConstDef *c)
{
    StrBuf acc;
    sb_init(&acc, a);
    for (size_t j = 0; j < c->value.n; j++) {
        if (c->value.v[j].kind != SEG_TEXT)
            return NULL;
        sb_append(&acc, c->value.v[j].text);
    }
    return sb_str(&acc);
}

/* A constant's text: this file's extraction constants, or an imported
 * one (exported by another file). */
static const char *const_value(Arena *a, const AccessFacts *af, const FileIR *f, const char *name)
{
    const ConstDef *local = fileir_const(f, name, false);
    if (local)
        return const_def_text(a, local);
    char head[256];
    size_t hl = strcspn(name, ".");
    if (hl >= sizeof head)
        return NULL;
    memcpy(head, name, hl);
    head[hl] = '\0';
    const Import *im = fileir_import(f, head);
    if (im) {
        const char *want = name[hl] ? arena_printf(a, "%s%s", im->imported, name + hl)
                                    : im->imported;
        /* the first file the import may name that exports it: among the
         * files of the import's stem and the index files */
        const FileList *lists[2] = {
            af ? file_list(af, &af->files_by_stem, file_stem(a, im->source)) : NULL,
            af ? &af->index_files : NULL};
        const ConstDef *hit = NULL;
        size_t hit_at = SIZE_MAX;
        for (int l = 0; l < 2; l++) {
            for (size_t k = 0; lists[l] && k < lists[l]->n && lists[l]->v[k] < hit_at; k++) {
                const FileIR *o = af->files[lists[l]->v[k]];
                if (!o || o == f || !import_names_file(a, f->path, o->path, im->source))
                    continue;
                const ConstDef *c = fileir_const(o, want, true);
                if (c) {
                    hit = c;
                    hit_at = lists[l]->v[k];
                    break;
                }
            }
        }
        if (hit)
            return const_def_text(a, hit);
    }
    return NULL;
}

/* ---- the table an operation runs on ------------------------------------------ */

enum { STEM_MAX = 128 };
static void name_stem(const char *s, char *out, size_t cap);

/* The stems of the names a table goes by for table_by_env_name: its
 * logical id, its variable's last component, its physical name (a
 * missing one: empty). */
static void table_stems(const TableDef *t, char stems[3][STEM_MAX])
{
    const char *var = t->var ? strrchr(t->var, '.') : NULL;
    const char *cands[] = {t->id, var ? var + 1 : t->var, t->name};
    for (size_t c = 0; c < 3; c++) {
        stems[c][0] = '\0';
        if (cands[c])
            name_stem(cands[c], stems[c], STEM_MAX);
    }
}

static void index_tables(Arena *a, TableModel *m)
{
    for (size_t i = 0; i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        namemap_put(a, &m->by_id, t->id, i);
        namemap_put(a, &m->by_var, t->var, i);
    }
    for (size_t i = m->set.tables.n; i-- > 0;) /* the last one wins */
        if (m->set.tables.v[i].var)
            namemap_put(a, &m->by_var_tail, name_tail(m->set.tables.v[i].var), i);
    /* environment bindings, chained by variable in their order */
    m->env_next = arena_alloc(a, (m->set.env.n ? m->set.env.n : 1) * sizeof *m->env_next);
    size_t *last = arena_alloc(a, (m->set.env.n ? m->set.env.n : 1) * sizeof *last);
    for (size_t i = 0; i < m->set.env.n; i++) {
        size_t first;
        m->env_next[i] = SIZE_MAX;
        if (!namemap_get(&m->env_by_var, m->set.env.v[i].var, &first)) {
            namemap_put(a, &m->env_by_var, m->set.env.v[i].var, i);
            last[i] = i;
        } else {
            m->env_next[last[first]] = i;
            last[first] = i;
        }
    }
    /* stems: a table counts once for a stem, however many of its names
     * give it */
    m->stem_table = arena_alloc(a, (3 * m->set.tables.n + 1) * sizeof *m->stem_table);
    size_t nstems = 0;
    for (size_t i = 0; i < m->set.tables.n; i++) {
        if (m->set.tables.v[i].same_as)
            continue;
        char stems[3][STEM_MAX];
        table_stems(&m->set.tables.v[i], stems);
        for (size_t c = 0; c < 3; c++) {
            size_t k;
            if (!stems[c][0])
                continue;
            if (!namemap_get(&m->by_stem, stems[c], &k)) {
                namemap_put(a, &m->by_stem, arena_strdup(a, stems[c]), nstems);
                m->stem_table[nstems++] = i;
            } else if (m->stem_table[k] != i) {
                m->stem_table[k] = SIZE_MAX;
            }
        }
    }
}

static const TableDef *table_by_var(const TableModel *m, const char *var)
{
    size_t at;
    if (m->by_var_tail.cap) {
        if (namemap_get(&m->by_var, var, &at) ||
            namemap_get(&m->by_var_tail, name_tail(var), &at))
            return &m->set.tables.v[at];
        return NULL;
    }
    const TableDef *hit = NULL;
    for (size_t i = 0; i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        if (t->var && !strcmp(t->var, var))
            return t;
        if (t->var && !strcmp(name_tail(t->var), name_tail(var)))
            hit = t;
    }
    return hit;
}

static const TableDef *table_by_id(const TableModel *m, const char *id)
{
    size_t at;
    if (m->by_id.cap)
        return namemap_get(&m->by_id, id, &at) ? &m->set.tables.v[at] : table_by_var(m, id);
    for (size_t i = 0; i < m->set.tables.n; i++)
        if (!strcmp(m->set.tables.v[i].id, id))
            return &m->set.tables.v[i];
    return table_by_var(m, id);
}

static size_t dir_len(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? (size_t)(slash - path) : 0;
}

/* The table environment binding `b` names by its id. Ids are local to a
 * module: where several definitions share it (two Terraform modules each
 * with `aws_dynamodb_table.role_permissions`), the one in the binding's
 * directory, else none (which one is not known). */
static const TableDef *table_of_binding(const TableModel *m, const EnvBinding *b)
{
    const TableDef *hit = NULL, *here = NULL;
    size_t n = 0, nhere = 0, bl = dir_len(b->path);
    for (size_t i = 0; i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        if (!t->id || strcmp(t->id, b->table_id))
            continue;
        n++;
        hit = hit ? hit : t;
        if (b->path && t->path && dir_len(t->path) == bl && !strncmp(t->path, b->path, bl)) {
            nhere++;
            here = here ? here : t;
        }
    }
    if (n <= 1)
        return n ? hit : table_by_id(m, b->table_id);
    return nhere == 1 ? here : NULL;
}

/* The tables a name can be: by physical name (patterns allowed), else by
 * logical id. Returns the count; the first in *hit. */
static size_t tables_named(const TableModel *m, const char *name, const TableDef **hit)
{
    size_t n = 0;
    *hit = NULL;
    for (size_t i = 0; i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        if (t->source == TSRC_SDK && t->same_as)
            continue; /* a copy of a table defined by the deployment (link_copies) */
        if (table_names_match(name, t->name)) {
            if (!n)
                *hit = t;
            n++;
        }
    }
    if (n)
        return n;
    for (size_t i = 0; i < m->set.tables.n; i++)
        if (!strcmp(m->set.tables.v[i].id, name)) {
            *hit = &m->set.tables.v[i];
            return 1;
        }
    return 0;
}

static const char *receiver_of(Arena *a, const char *callee)
{
    const char *dot = callee ? strrchr(callee, '.') : NULL;
    return dot ? arena_strndup(a, callee, (size_t)(dot - callee)) : NULL;
}

static const char *entity_table(const AccessFacts *af, const char *entity)
{
    size_t fi;
    if (!af || !namemap_get(&af->entity_files, name_tail(entity), &fi))
        return NULL;
    const FileTables *ft = af->files[fi]->tables;
    for (size_t i = 0; i < ft->entities.n; i++)
        if (!strcmp(name_tail(ft->entities.v[i].entity), name_tail(entity)))
            return ft->entities.v[i].table;
    return NULL;
}

static const char *where(Arena *a, const char *path, Span s)
{
    return arena_printf(a, "%s:%u", path, s.start_row + 1);
}

/* The project's only table (client descriptions of it not counted), or
 * NULL. */
static const TableDef *only_table(const TableModel *m)
{
    const TableDef *one = NULL;
    for (size_t i = 0; i < m->set.tables.n; i++) {
        if (m->set.tables.v[i].same_as)
            continue;
        if (one)
            return NULL;
        one = &m->set.tables.v[i];
    }
    return one;
}

/* `s` lower-cased without '_', '-' and '.', a trailing "name" and then
 * "table" dropped: FRAMEWORK_REGISTRY_TABLE_NAME, FrameworkRegistryTable
 * and frameworkRegistry all give "frameworkregistry". Empty when nothing
 * is left. */
static void name_stem(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; s && *s && n + 1 < cap; s++) {
        if (*s == '$' && s[1] == '{') { /* a deploy-time part ends the stem */
            break;
        }
        if (isalnum((unsigned char)*s))
            out[n++] = (char)tolower((unsigned char)*s);
    }
    out[n] = 0;
    static const char *const tails[] = {"name", "table"};
    for (size_t i = 0; i < 2; i++) {
        size_t tl = strlen(tails[i]);
        if (n > tl && !strcmp(out + n - tl, tails[i]))
            out[n -= tl] = 0;
    }
}

/* The one table whose logical id, variable or name has the stem of
 * environment variable `env` (FRAMEWORK_REGISTRY_TABLE and a table
 * `FrameworkRegistryTable`), when the variable's bindings say nothing
 * readable. NULL when none or several do. */
static const TableDef *table_by_env_name(const TableModel *m, const char *env)
{
    char want[STEM_MAX];
    name_stem(env, want, sizeof want);
    if (strlen(want) < 3)
        return NULL;
    size_t k;
    if (m->by_stem.cap)
        return namemap_get(&m->by_stem, want, &k) && m->stem_table[k] != SIZE_MAX
                   ? &m->set.tables.v[m->stem_table[k]]
                   : NULL;
    const TableDef *hit = NULL;
    for (size_t i = 0; i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        if (t->same_as)
            continue;
        char stems[3][STEM_MAX];
        table_stems(t, stems);
        if (!strcmp(want, stems[0]) || !strcmp(want, stems[1]) || !strcmp(want, stems[2])) {
            if (hit)
                return NULL;
            hit = t;
        }
    }
    return hit;
}

static const TableDef *find_table(Arena *a, const AccessFacts *af, const TableModel *m,
                                  const Config *cfg, const char *path, const DataOp *op,
                                  const OpParams *ex, const char **how, bool *foreign,
                                  bool *guessed)
{
    *how = NULL;
    *foreign = false;
    *guessed = false;
    if (!m || !m->set.tables.n || op->api == API_SDK_PART)
        return NULL;
    const char *recv = receiver_of(a, op->callee);
    if (op->api == API_TURBINE && recv) {
        const char *tv = entity_table(af, recv);
        const TableDef *t = tv ? table_by_var(m, tv) : NULL;
        if (t) {
            *how = arena_printf(a, "table found through entity %s", recv);
            return t;
        }
    }
    if (op->api == API_DDB_LIB && recv) {
        const TableDef *t = table_by_var(m, recv);
        if (t) {
            *how = arena_printf(a, "table found through its client %s", recv);
            return t;
        }
    }
    /* SST's linked resources: Resource.Id.name (v3), Table.Id.tableName
     * (sst/node/table, v2) */
    if (op->table && !op->table_literal) {
        static const struct { const char *head, *tail; } sst[] = {
            {"Resource.", ".name"}, {"Table.", ".tableName"}};
        for (size_t i = 0; i < sizeof sst / sizeof *sst; i++) {
            size_t hl = strlen(sst[i].head), tl = strlen(sst[i].tail), l = strlen(op->table);
            if (l <= hl + tl || strncmp(op->table, sst[i].head, hl) ||
                strcmp(op->table + l - tl, sst[i].tail))
                continue;
            const char *id = arena_strndup(a, op->table + hl, l - hl - tl);
            const TableDef *t = table_by_id(m, id);
            if (t && t->source == TSRC_SST) {
                *how = arena_printf(a, "table found through %s", op->table);
                return t;
            }
        }
    }
    NameRef r = {0};
    if (ex && ex->has_table)
        r = ex->table;
    else if (op->table && op->table_literal)
        r.literal = op->table;
    r = resolve_ref(a, af, r, path);
    bool named = false;
    if (r.env) {
        const TableDef *hit = NULL;
        const EnvBinding *via = NULL;
        bool ambiguous = false;
        /* the bindings of r.env, chained when the model is indexed */
        bool chained = m->env_by_var.cap > 0;
        size_t i = 0;
        if (chained && !namemap_get(&m->env_by_var, r.env, &i))
            i = SIZE_MAX;
        for (; i < m->set.env.n; i = chained ? m->env_next[i] : i + 1) {
            const EnvBinding *b = &m->set.env.v[i];
            if (strcmp(b->var, r.env))
                continue;
            named = true;
            const TableDef *t = NULL;
            if (b->table_id)
                t = table_of_binding(m, b);
            else if (b->name && tables_named(m, b->name, &t) != 1)
                t = NULL;
            if (!t || (hit && hit != t))
                ambiguous = true;
            if (t && !hit) {
                hit = t;
                via = b;
            }
        }
        /* `process.env.X || 'dev-comments'`, a fallback that names another
         * table exactly than the one X is bound to (another stack's
         * function): which one the code runs against is not known */
        if (hit && !ambiguous && r.literal && *r.literal && !strstr(r.literal, "${"))
            for (size_t k = 0; k < m->set.tables.n; k++) {
                const TableDef *o = &m->set.tables.v[k];
                if (o != hit && o->name && !strcmp(o->name, r.literal) &&
                    !(hit->name && !strcmp(hit->name, r.literal)))
                    return NULL;
            }
        if (hit && !ambiguous) {
            *how = arena_printf(a, "table found through environment variable %s, %s", r.env,
                                where(a, via->path, via->span));
            return hit;
        }
        /* `process.env.X || 'name'` means `name`: no guess from X */
        if (!hit && !(r.literal && *r.literal)) {
            const TableDef *t = table_by_env_name(m, r.env);
            if (t) {
                *how = arena_printf(a, "table guessed from the name of environment "
                                       "variable %s",
                                    r.env);
                *guessed = true;
                return t;
            }
        }
        if (named)
            return NULL;
    }
    if (r.literal && !*r.literal)
        r.literal = NULL; /* `process.env.X ?? ''`: no name, not a table without one */
    if (r.literal) {
        const TableDef *t;
        size_t c = tables_named(m, r.literal, &t);
        if (c == 1 && r.env && t->name && strstr(t->name, "${")) {
            /* a fallback fitting the name `${prefix}-posts`: not proof */
            *how = arena_printf(a, "table guessed: the fallback TableName '%s' of environment "
                                   "variable %s fits the name %s",
                                r.literal, r.env, t->name);
            *guessed = true;
            return t;
        }
        if (c == 1) {
            *how = arena_printf(a, "table found through TableName '%s'", r.literal);
            return t;
        }
        named = true;
    }
    const TableDef *only = only_table(m);
    if (named) {
        if (only && !only->name) {
            *how = "the project's only table";
            return only;
        }
        *foreign = r.literal && !strstr(r.literal, "${");
        return NULL;
    }
    if (cfg && op->table_kind != TABLE_UNKNOWN) {
        const StrList *names = op->table_kind == TABLE_DATA      ? &cfg->data_tables
                             : op->table_kind == TABLE_HISTORY   ? &cfg->history_tables
                                                                 : &cfg->command_tables;
        const TableDef *hit = NULL;
        size_t hits = 0;
        for (size_t i = 0; i < names->n; i++) {
            const TableDef *t;
            if (tables_named(m, names->v[i], &t) == 1 && t != hit) {
                hit = t;
                hits++;
            }
        }
        if (hits == 1) {
            *how = arena_printf(a, "table found through tables.%s in the configuration",
                                table_kind_name(op->table_kind));
            return hit;
        }
        if (names->n)
            return NULL;
    }
    if (only) {
        /* a TableName that names no table keylint can see (a parameter,
         * an option, an environment variable nothing binds): the only
         * table is a guess, not what the code says */
        *guessed = op->table && !op->table_literal && !r.literal;
        *how = *guessed ? arena_printf(a, "table guessed: the project's only table, for "
                                          "TableName %s",
                                       op->table)
                        : "the project's only table";
        return only;
    }
    return NULL;
}

const TableDef *access_entity_table(const TableModel *m, const FileIR *f, Span span)
{
    if (!m || !f || !f->tables)
        return NULL;
    for (size_t i = 0; i < f->tables->entities.n; i++) {
        const EntityTable *e = &f->tables->entities.v[i];
        if (span.start_byte >= e->span.start_byte && span.end_byte <= e->span.end_byte)
            return table_by_var(m, e->table);
    }
    return NULL;
}

void access_target(Arena *a, const AccessFacts *af, const TableModel *m, const Config *cfg,
                   const FileIR *f, size_t opi, OpTarget *out)
{
    memset(out, 0, sizeof *out);
    if (!f || opi >= f->ops.n)
        return;
    const DataOp *op = &f->ops.v[opi];
    const OpParams *ex = op_params(op);
    out->index_span = op->span;
    /* an IndexName assigned after the literal (in the operation's branch)
     * is the one it queries */
    bool assigned = op->index && op->index_span.end_byte &&
                    (!ex || !ex->has_index || op->index_span.start_byte != ex->index_span.start_byte);
    if (ex && ex->has_index && !assigned) {
        out->has_index = true;
        NameRef r = resolve_ref(a, af, ex->index, f->path);
        out->index = r.literal && !strstr(r.literal, "${") ? r.literal : NULL;
        out->index_span = ex->index_span;
        if (!out->index && ex->index.text && !ex->index.env)
            out->index = const_value(a, af, f, ex->index.text); /* Obj.KEY imported */
    } else if (op->index) {
        out->has_index = true;
        out->index = op->index_literal ? op->index : const_value(a, af, f, op->index);
        if (op->index_span.end_byte)
            out->index_span = op->index_span;
    }
    out->table = find_table(a, af, m, cfg, f->path, op, ex, &out->how, &out->foreign,
                            &out->guessed);
    if (!out->table)
        return;
    if (out->has_index) {
        out->ix = table_find_index(out->table, out->index);
        if (out->ix) {
            out->pk = &out->ix->pk;
            out->sk = &out->ix->sk;
        }
    } else {
        out->pk = &out->table->pk;
        out->sk = &out->table->sk;
    }
}

/* ---- keys named by their table --------------------------------------------- */

void access_index_only(AccessFacts *af, Arena *a, FileIR *const *files, size_t n)
{
    access_facts_over(af, a, files, n);
    access_index(af, a);
}
