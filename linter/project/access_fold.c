/* The editor's fold of the access facts (AccessFold, access.h) and the
 * tenancy of tables (access_mark_tenants), which read the files' access
 * parts kept with their resolution (access_part.h). */
#include <stdlib.h>
#include <string.h>

#include "access_part.h"
#include "index_calls.h"
#include "keyfacts.h"

/* ---- the editor's fold (AccessFold) ---------------------------------------------- */

static uint64_t access_serial; /* the last FileIR.access_stamp given */

/* What access_index read of a position's file: its path, its exported
 * table-name constants and its entities' names (in the fold's arena). */
typedef struct FoldNames {
    const char *path;
    StrList consts, entities;
} FoldNames;

typedef struct FoldPos {
    uint64_t names;   /* the stamp `rec` was last found the same at, 0: none */
    FoldNames rec;
    uint64_t written; /* the stamp its written keys were read at, 0: none */
    const struct AccessPart *part; /* and the part they came from */
} FoldPos;

struct AccessFold {
    size_t n; /* positions */
    FoldPos *pos;
    Arena *arena; /* the index of names and the positions' records */
    bool indexed;
    AccessFacts index;
    /* the written keys in access_compute's order, with their position and
     * their place in their part's list (malloc'd, wn of them) */
    bool have_written;
    WrittenKey *wk;
    uint32_t *wfi, *wat;
    size_t wn;
};

/* File f's stamp: its resolution's number, given now if it has none; 0
 * for a file never resolved (read again at each analysis). */
static uint64_t stamp_of(FileIR *f)
{
    if (!f || !f->resolved)
        return 0;
    if (!f->access_stamp)
        f->access_stamp = ++access_serial;
    return f->access_stamp;
}

static void fold_clear(AccessFold *fold, size_t n)
{
    free(fold->pos);
    free(fold->wk);
    free(fold->wfi);
    free(fold->wat);
    arena_free(fold->arena);
    memset(fold, 0, sizeof *fold);
    fold->n = n;
    fold->pos = calloc(n ? n : 1, sizeof *fold->pos);
    if (!fold->pos)
        abort();
}

/* The fold for n positions: made again when the number changed. */
static AccessFold *fold_for(AccessFold **foldp, size_t n)
{
    if (!*foldp) {
        *foldp = calloc(1, sizeof **foldp);
        if (!*foldp)
            abort();
        fold_clear(*foldp, n);
    } else if ((*foldp)->n != n) {
        fold_clear(*foldp, n);
    }
    return *foldp;
}

void access_fold_free(AccessFold *fold)
{
    if (!fold)
        return;
    fold_clear(fold, 0);
    free(fold->pos);
    free(fold);
}

static bool same_str(const char *x, const char *y)
{
    return x == y || (x && y && !strcmp(x, y));
}

/* Whether f adds to the index of names what `r` records (access_index). */
static bool names_same(const FoldNames *r, const FileIR *f)
{
    if (!same_str(r->path, f ? f->path : NULL))
        return false;
    size_t c = 0, e = 0;
    for (size_t i = 0; f && f->path && f->tables && i < f->tables->consts.n; i++) {
        if (!f->tables->consts.v[i].exported)
            continue;
        if (c >= r->consts.n || !same_str(r->consts.v[c], f->tables->consts.v[i].name))
            return false;
        c++;
    }
    for (size_t i = 0; f && f->tables && i < f->tables->entities.n; i++) {
        if (e >= r->entities.n ||
            !same_str(r->entities.v[e], name_tail(f->tables->entities.v[i].entity)))
            return false;
        e++;
    }
    return c == r->consts.n && e == r->entities.n;
}

static const char *dup_or_null(Arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

static void names_record(Arena *a, FoldNames *r, const FileIR *f)
{
    memset(r, 0, sizeof *r);
    r->path = dup_or_null(a, f ? f->path : NULL);
    for (size_t i = 0; f && f->path && f->tables && i < f->tables->consts.n; i++)
        if (f->tables->consts.v[i].exported)
            strlist_push(a, &r->consts, dup_or_null(a, f->tables->consts.v[i].name));
    for (size_t i = 0; f && f->tables && i < f->tables->entities.n; i++)
        strlist_push(a, &r->entities, dup_or_null(a, name_tail(f->tables->entities.v[i].entity)));
}

void access_index_keeping(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                          AccessFold **foldp)
{
    AccessFold *fold = fold_for(foldp, n);
    bool same = fold->indexed;
    for (size_t i = 0; same && i < n; i++) {
        uint64_t st = stamp_of(files[i]);
        if (st && st == fold->pos[i].names)
            continue;
        if (names_same(&fold->pos[i].rec, files[i]))
            fold->pos[i].names = st;
        else
            same = false;
    }
    if (!same) {
        arena_free(fold->arena);
        fold->arena = arena_new();
        access_facts_over(&fold->index, fold->arena, files, n);
        access_index_in(&fold->index, fold->arena, true);
        for (size_t i = 0; i < n; i++) {
            names_record(fold->arena, &fold->pos[i].rec, files[i]);
            fold->pos[i].names = stamp_of(files[i]);
        }
        fold->index.files = NULL; /* the caller's files: not kept */
        fold->indexed = true;
    }
    access_facts_over(af, a, files, n);
    af->files_by_stem = fold->index.files_by_stem;
    af->table_consts = fold->index.table_consts;
    af->entity_files = fold->index.entity_files;
    af->lists = fold->index.lists;
    af->index_files = fold->index.index_files;
}

/* A written key with its place: access_compute's order (sort_written). */
typedef struct PlacedKey {
    WrittenKey w;
    uint32_t fi, at;
} PlacedKey;

static int placed_cmp3(const WrittenKey *x, uint32_t xfi, uint32_t xat, const WrittenKey *y,
                       uint32_t yfi, uint32_t yat)
{
    int c = strcmp(x->attr, y->attr);
    if (c)
        return c;
    if ((c = strcmp(x->shape, y->shape)))
        return c;
    if (x->helper != y->helper)
        return x->helper < y->helper ? -1 : 1;
    if (xfi != yfi)
        return xfi < yfi ? -1 : 1;
    return xat < yat ? -1 : xat > yat;
}

static int placed_cmp(const void *x, const void *y)
{
    const PlacedKey *a = x, *b = y;
    return placed_cmp3(&a->w, a->fi, a->at, &b->w, b->fi, b->at);
}

/* af->written from the fold: the kept keys of the positions whose part is
 * the one they were read from, the new parts' keys merged in. */
static void fold_written(AccessFold *fold, AccessFacts *af, FileIR *const *files, size_t n,
                         const struct AccessPart *const *parts, Arena *a)
{
    bool *changed = arena_alloc(a, n ? n : 1);
    size_t nchanged = 0, nnew = 0;
    for (size_t fi = 0; fi < n; fi++) {
        const struct AccessPart *p = files[fi] && !files[fi]->parse_failed ? parts[fi] : NULL;
        uint64_t st = stamp_of(files[fi]);
        if (fold->have_written && st && st == fold->pos[fi].written && p == fold->pos[fi].part)
            continue;
        changed[fi] = true;
        nchanged++;
        nnew += p ? p->written.n : 0;
        fold->pos[fi].written = st;
        fold->pos[fi].part = p;
    }
    if (nchanged) {
        /* the kept keys of the positions that did not change (their
         * strings may be gone with the others': only positions read) */
        size_t k = 0;
        for (size_t i = 0; i < fold->wn; i++) {
            if (changed[fold->wfi[i]])
                continue;
            fold->wk[k] = fold->wk[i];
            fold->wfi[k] = fold->wfi[i];
            fold->wat[k] = fold->wat[i];
            k++;
        }
        PlacedKey *nk = arena_alloc(a, (nnew ? nnew : 1) * sizeof *nk);
        size_t m = 0;
        for (size_t fi = 0; fi < n; fi++) {
            const struct AccessPart *p = changed[fi] ? fold->pos[fi].part : NULL;
            for (size_t j = 0; p && j < p->written.n; j++)
                nk[m++] = (PlacedKey){p->written.v[j], (uint32_t)fi, (uint32_t)j};
        }
        if (m > 1)
            qsort(nk, m, sizeof *nk, placed_cmp);
        size_t total = k + m;
        WrittenKey *wk = malloc((total ? total : 1) * sizeof *wk);
        uint32_t *wfi = malloc((total ? total : 1) * sizeof *wfi);
        uint32_t *wat = malloc((total ? total : 1) * sizeof *wat);
        if (!wk || !wfi || !wat)
            abort();
        size_t o = 0, ki = 0;
        for (size_t j = 0; j < m; j++) {
            /* the first kept key after new key j */
            size_t lo = ki, hi = k;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (placed_cmp3(&fold->wk[mid], fold->wfi[mid], fold->wat[mid], &nk[j].w,
                                nk[j].fi, nk[j].at) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            size_t run = lo - ki;
            if (run) {
                memcpy(wk + o, fold->wk + ki, run * sizeof *wk);
                memcpy(wfi + o, fold->wfi + ki, run * sizeof *wfi);
                memcpy(wat + o, fold->wat + ki, run * sizeof *wat);
            }
            o += run;
            ki = lo;
            wk[o] = nk[j].w;
            wfi[o] = nk[j].fi;
            wat[o] = nk[j].at;
            o++;
        }
        if (k > ki) {
            memcpy(wk + o, fold->wk + ki, (k - ki) * sizeof *wk);
            memcpy(wfi + o, fold->wfi + ki, (k - ki) * sizeof *wfi);
            memcpy(wat + o, fold->wat + ki, (k - ki) * sizeof *wat);
        }
        free(fold->wk);
        free(fold->wfi);
        free(fold->wat);
        fold->wk = wk;
        fold->wfi = wfi;
        fold->wat = wat;
        fold->wn = total;
        fold->have_written = true;
    }
    /* borrowed until the next call */
    af->written.v = fold->wk;
    af->written.n = af->written.cap = fold->wn;
}

void access_compute_keeping(AccessFacts *af, Arena *a, FileIR *const *files, size_t n,
                            const Config *cfg, const AccessFacts *index, AccessFold **foldp)
{
    AccessFold *fold = fold_for(foldp, n);
    const struct AccessPart **parts = access_gather(af, a, files, n, cfg, false);
    fold_written(fold, af, files, n, parts, a);
    access_finish(af, a, index);
}

/* ---- tenancy per table --------------------------------------------------------- */

static const TableDef *canonical_table(const TableDef *t)
{
    while (t && t->same_as)
        t = t->same_as;
    return t;
}

/* Key `k` of an operation shows that its table holds a tenant's data: a
 * partition key (of the table or of an index) with a tenant value, or a
 * key attribute named for the tenant (`tenantId = :t` on an index). The
 * tenant's own record (TENANT#{tenantId}) does not: a table of global
 * reference data may hold each tenant's settings beside it. */
static bool shows_tenant(Arena *a, const KeyExpr *k, const Config *cfg)
{
    if (k->role != ROLE_PK && k->role != ROLE_INDEX_PK)
        return false;
    if (k->attr && strlist_has_ci(&cfg->tenant_names, k->attr))
        return true;
    KfKey key;
    kf_flatten(a, &k->segs, &key);
    return kf_tenant_hole(a, &key, cfg) && !kf_is_tenant_record(a, &key);
}

/* The data operations of `f` whose keys show a tenant, read with `cfg`:
 * kept with the file's access part when it has one (read again only when
 * the file is resolved again). */
static const TenantOps *tenant_ops(Arena *a, const FileIR *f, const Config *cfg)
{
    struct AccessPart *p = f->resolved ? f->access_part : NULL;
    if (p && p->tenant_read && p->tenant_cfg == cfg)
        return &p->tenant_ops;
    Arena *into = p ? f->resolved : a;
    TenantOps *out = p ? &p->tenant_ops : arena_alloc(a, sizeof *out);
    memset(out, 0, sizeof *out);
    KfOpKeys keys;
    kf_op_keys(a, f, &keys);
    for (size_t op = 0; op < f->ops.n; op++) {
        bool tenant = false;
        for (size_t i = keys.first[op]; i != KF_NO_KEY && !tenant; i = keys.next[i])
            tenant = shows_tenant(a, &f->keys.v[i], cfg);
        if (tenant)
            VEC_PUSH(into, out, (uint32_t)op);
    }
    if (p) {
        p->tenant_read = true;
        p->tenant_cfg = cfg;
    }
    return out;
}

void access_mark_tenants(Arena *a, const AccessFacts *af, TableModel *m, const Config *cfg,
                         FileIR *const *files, const Config *const *cfgs, size_t n)
{
    size_t tables = 0;
    for (size_t i = 0; i < m->set.tables.n; i++)
        tables += !m->set.tables.v[i].same_as;
    if (tables < 2)
        return;
    m->tenanted = arena_alloc(a, m->set.tables.n * sizeof *m->tenanted);
    memset(m->tenanted, 0, m->set.tables.n * sizeof *m->tenanted);
    for (size_t fi = 0; fi < n; fi++) {
        const FileIR *f = files[fi];
        if (cfgs[fi] != cfg || !f || f->parse_failed || !f->ops.n)
            continue;
        const TenantOps *ops = tenant_ops(a, f, cfgs[fi]);
        for (size_t j = 0; j < ops->n; j++) {
            size_t op = ops->v[j];
            OpTarget t;
            access_target(a, af, m, cfg, f, op, &t);
            const TableDef *td = canonical_table(t.table);
            if (td)
                m->tenanted[td - m->set.tables.v] = true;
        }
    }
}

bool access_table_untenanted(const TableModel *m, const TableDef *t)
{
    t = canonical_table(t);
    if (!m || !m->tenanted || !t || t < m->set.tables.v || t >= m->set.tables.v + m->set.tables.n)
        return false;
    return !m->tenanted[t - m->set.tables.v];
}
