#include "cache_ir.h"

#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "schema.h"
#include "tables.h"

/* Lists of segments nest as deep as extraction reads expressions (a
 * call's arguments); an entry nesting deeper is not one keylint wrote. */
enum { MAX_NEST = 64 };

/* The smallest an element of each list can be (a string's length, a
 * span...): a count the bytes left cannot hold is refused before
 * anything is allocated for it. */
enum { LEAST_STR = 4, LEAST_SEG = 4 + 4 + 4 + 4 + 24 + 1, LEAST_SMALL = 4 };

/* ---- writing ------------------------------------------------------------ */

static void w_bool(BinOut *o, bool b)
{
    bin_put_u8(o, b ? 1 : 0);
}

static void w_strs(BinOut *o, const char *const *v, size_t n)
{
    bin_put_u32(o, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        bin_put_str(o, v[i]);
}

static void w_list(BinOut *o, const StrList *l)
{
    w_strs(o, l->v, l->n);
}

/* A path: none (NULL) when it is the file's own. */
static void w_path(BinOut *o, const char *path, const char *self)
{
    bin_put_str(o, path && (!self || strcmp(path, self)) ? path : NULL);
}

/* A segment: kind, flags, text, name, span, a byte saying what follows
 * (1: arguments, 2: param, 4: fallback, 8: member), then those. */
static void w_segs(BinOut *o, const SegList *l)
{
    bin_put_u32(o, (uint32_t)l->n);
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        bin_put_u32(o, (uint32_t)s->kind);
        bin_put_u32(o, s->flags);
        bin_put_str(o, s->text);
        bin_put_str(o, s->name);
        bin_put_span(o, s->span);
        bin_put_u8(o, (s->nargs ? 1u : 0u) | (s->param ? 2u : 0u) | (s->fallback ? 4u : 0u) |
                          (s->member ? 8u : 0u));
        if (s->nargs) {
            bin_put_u32(o, (uint32_t)s->nargs);
            for (size_t j = 0; j < s->nargs; j++)
                w_segs(o, &s->args[j]);
        }
        if (s->param)
            bin_put_str(o, s->param);
        if (s->fallback)
            bin_put_str(o, s->fallback);
        if (s->member)
            bin_put_str(o, s->member);
    }
}

static void w_keys(BinOut *o, const KeyExprList *l)
{
    bin_put_u32(o, (uint32_t)l->n);
    for (size_t i = 0; i < l->n; i++) {
        const KeyExpr *k = &l->v[i];
        bin_put_u32(o, (uint32_t)k->role);
        bin_put_str(o, k->attr);
        bin_put_u32(o, (uint32_t)k->build);
        bin_put_u32(o, (uint32_t)k->site);
        bin_put_u32(o, (uint32_t)k->cond);
        bin_put_u32(o, (uint32_t)(int32_t)k->op);
        bin_put_span(o, k->span);
        bin_put_str(o, k->via);
        bin_put_span(o, k->via_span);
        bin_put_str(o, k->attr_const);
        w_bool(o, k->spread);
        w_bool(o, k->call_site);
        bin_put_u32(o, (uint32_t)k->named_by);
        bin_put_str(o, k->arg_of);
        bin_put_u32(o, (uint32_t)k->arg_index);
        bin_put_str(o, k->when);
        w_segs(o, &k->segs);
    }
}

static void w_nameref(BinOut *o, NameRef r)
{
    bin_put_str(o, r.literal);
    bin_put_str(o, r.env);
    bin_put_str(o, r.import);
    bin_put_str(o, r.from);
    bin_put_str(o, r.text);
}

static void w_params(BinOut *o, const OpParams *p)
{
    w_bool(o, p->read);
    w_bool(o, p->has_table);
    w_bool(o, p->has_index);
    w_nameref(o, p->table);
    w_nameref(o, p->index);
    bin_put_span(o, p->table_span);
    bin_put_span(o, p->index_span);
    w_list(o, &p->names);
    bin_put_str(o, p->filter);
    w_bool(o, p->must_exist);
    w_bool(o, p->scan_index_forward);
    w_bool(o, p->library);
    w_list(o, &p->lib_attrs);
}

static void w_ops(BinOut *o, const FileIR *ir)
{
    bin_put_u32(o, (uint32_t)ir->ops.n);
    for (size_t i = 0; i < ir->ops.n; i++) {
        const DataOp *op = &ir->ops.v[i];
        bin_put_u32(o, (uint32_t)op->kind);
        bin_put_u32(o, (uint32_t)op->api);
        bin_put_span(o, op->span);
        bin_put_str(o, op->callee);
        bin_put_str(o, op->function);
        bin_put_str(o, op->table);
        w_bool(o, op->table_literal);
        bin_put_str(o, op->index);
        bin_put_span(o, op->index_span);
        w_bool(o, op->index_literal);
        bin_put_u32(o, (uint32_t)op->table_kind);
        bin_put_str(o, op->key_condition);
        bin_put_span(o, op->key_condition_span);
        w_bool(o, op->key_condition_exact);
        w_bool(o, op->params_closed);
        bin_put_span(o, op->params_span);
        w_list(o, &op->sets);
        w_segs(o, &op->set_values);
        bin_put_span(o, op->update_span);
        w_params(o, &op->params);
    }
}

static void w_imports(BinOut *o, const ImportList *l)
{
    bin_put_u32(o, (uint32_t)l->n);
    for (size_t i = 0; i < l->n; i++) {
        bin_put_str(o, l->v[i].local);
        bin_put_str(o, l->v[i].imported);
        bin_put_str(o, l->v[i].source);
    }
}

static void w_consts(BinOut *o, const FileIR *ir)
{
    bin_put_u32(o, (uint32_t)ir->consts.n);
    for (size_t i = 0; i < ir->consts.n; i++) {
        const ConstDef *c = &ir->consts.v[i];
        bin_put_str(o, c->name);
        w_segs(o, &c->value);
        w_bool(o, c->exported);
        w_bool(o, c->fixed);
        bin_put_span(o, c->span);
    }
}

static void w_helpers(BinOut *o, const FileIR *ir)
{
    bin_put_u32(o, (uint32_t)ir->helpers.n);
    for (size_t i = 0; i < ir->helpers.n; i++) {
        const HelperDef *h = &ir->helpers.v[i];
        bin_put_str(o, h->name);
        w_strs(o, h->params, h->nparams);
        w_segs(o, &h->returns);
        bin_put_u32(o, (uint32_t)h->fields.n);
        for (size_t j = 0; j < h->fields.n; j++) {
            bin_put_str(o, h->fields.v[j].attr);
            bin_put_u32(o, (uint32_t)h->fields.v[j].role);
            w_segs(o, &h->fields.v[j].value);
        }
        w_keys(o, &h->sinks);
        bin_put_u32(o, (uint32_t)h->param_uses.n);
        for (size_t j = 0; j < h->param_uses.n; j++) {
            const ParamUse *u = &h->param_uses.v[j];
            bin_put_u32(o, (uint32_t)u->param);
            bin_put_u32(o, (uint32_t)u->site);
            bin_put_str(o, u->callee);
            bin_put_u32(o, (uint32_t)u->arg);
        }
        w_bool(o, h->exported);
        bin_put_span(o, h->span);
    }
}

static void w_keyattr(BinOut *o, const KeyAttr *k)
{
    bin_put_str(o, k->name);
    bin_put_u32(o, (uint32_t)k->type);
    w_bool(o, k->unknown);
    bin_put_span(o, k->span);
}

static void w_index(BinOut *o, const TableIndex *ix)
{
    bin_put_str(o, ix->name);
    bin_put_u32(o, (uint32_t)ix->kind);
    w_keyattr(o, &ix->pk);
    w_keyattr(o, &ix->sk);
    for (size_t i = 0; i < MAX_KEY_ATTRS - 1; i++) {
        w_keyattr(o, &ix->pk_more[i]);
        w_keyattr(o, &ix->sk_more[i]);
    }
    bin_put_str(o, ix->projection);
    w_list(o, &ix->projected);
    bin_put_span(o, ix->span);
}

static void w_tables(BinOut *o, const FileTables *ft, const char *self)
{
    w_bool(o, ft != NULL);
    if (!ft)
        return;
    bin_put_u32(o, (uint32_t)ft->set.tables.n);
    for (size_t i = 0; i < ft->set.tables.n; i++) {
        const TableDef *t = &ft->set.tables.v[i];
        bin_put_str(o, t->id);
        bin_put_str(o, t->var);
        bin_put_str(o, t->name);
        w_keyattr(o, &t->pk);
        w_keyattr(o, &t->sk);
        bin_put_u32(o, (uint32_t)t->indexes.n);
        for (size_t j = 0; j < t->indexes.n; j++)
            w_index(o, &t->indexes.v[j]);
        w_bool(o, t->indexes_open);
        bin_put_u32(o, (uint32_t)t->source);
        w_path(o, t->path, self);
        bin_put_span(o, t->span);
    }
    bin_put_u32(o, (uint32_t)ft->set.env.n);
    for (size_t i = 0; i < ft->set.env.n; i++) {
        const EnvBinding *e = &ft->set.env.v[i];
        bin_put_str(o, e->var);
        bin_put_str(o, e->table_id);
        bin_put_str(o, e->name);
        w_path(o, e->path, self);
        bin_put_span(o, e->span);
    }
    bin_put_u32(o, (uint32_t)ft->set.issues.n);
    for (size_t i = 0; i < ft->set.issues.n; i++) {
        const SchemaIssue *s = &ft->set.issues.v[i];
        w_path(o, s->path, self);
        bin_put_span(o, s->span);
        bin_put_str(o, s->message);
    }
    bin_put_u32(o, (uint32_t)ft->consts.n);
    for (size_t i = 0; i < ft->consts.n; i++) {
        bin_put_str(o, ft->consts.v[i].name);
        w_bool(o, ft->consts.v[i].exported);
        w_nameref(o, ft->consts.v[i].ref);
    }
    bin_put_u32(o, (uint32_t)ft->entities.n);
    for (size_t i = 0; i < ft->entities.n; i++) {
        bin_put_str(o, ft->entities.v[i].entity);
        bin_put_str(o, ft->entities.v[i].table);
        bin_put_span(o, ft->entities.v[i].span);
    }
    bin_put_u32(o, (uint32_t)ft->index_calls.n);
    for (size_t i = 0; i < ft->index_calls.n; i++) {
        bin_put_str(o, ft->index_calls.v[i].receiver);
        w_bool(o, ft->index_calls.v[i].readable);
        w_index(o, &ft->index_calls.v[i].index);
        bin_put_str(o, ft->index_calls.v[i].table_name);
    }
}

void cache_ir_put(BinOut *o, const FileIR *ir)
{
    w_bool(o, ir->parse_failed);
    bin_put_u64(o, ir->code_hash);
    w_keys(o, &ir->extracted);
    w_ops(o, ir);
    w_imports(o, &ir->imports);
    w_imports(o, &ir->reexports);
    w_consts(o, ir);
    w_helpers(o, ir);
    bin_put_u32(o, (uint32_t)ir->comments.n);
    for (size_t i = 0; i < ir->comments.n; i++) {
        bin_put_span(o, ir->comments.v[i].span);
        bin_put_str(o, ir->comments.v[i].text);
    }
    w_list(o, &ir->mutated);
    bin_put_u32(o, (uint32_t)ir->choices.n);
    for (size_t i = 0; i < ir->choices.n; i++) {
        const ConstChoice *c = &ir->choices.v[i];
        bin_put_span(o, c->span);
        bin_put_str(o, c->attr);
        bin_put_u32(o, (uint32_t)(int32_t)c->role);
        bin_put_str(o, c->text);
    }
    w_list(o, &ir->local_commands);
    bin_put_u32(o, (uint32_t)ir->item_calls.n);
    for (size_t i = 0; i < ir->item_calls.n; i++) {
        bin_put_str(o, ir->item_calls.v[i].callee);
        bin_put_u32(o, (uint32_t)ir->item_calls.v[i].arg);
    }
    w_tables(o, ir->tables, ir->path);
}

void cache_ir_each_str(const FileIR *ir, void (*seen)(void *ctx, const char *s), void *ctx)
{
    BinOut o = {.seen = seen, .ctx = ctx};
    FileIR view = *ir;
    view.imports = (ImportList){0};
    cache_ir_put(&o, &view);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct Rd {
    BinIn *in;
    Copier c;          /* into the new IR's arena; strings interned */
    const char *path;  /* the file's display path */
    const char *why;   /* the first thing wrong, NULL while all is well */
    char *scratch;     /* a string read, terminated, before it is interned */
    size_t scratch_cap;
} Rd;

static void bad(Rd *r, const char *why)
{
    if (!r->why)
        r->why = why;
    r->in->bad = true;
}

/* Whether reading may go on: nothing wrong so far (a read past the end
 * is said once). */
static bool good(Rd *r)
{
    if (r->in->bad && !r->why)
        r->why = "cut short or of the wrong shape";
    return !r->in->bad;
}

static const char *r_str(Rd *r)
{
    size_t n;
    const char *s = bin_get_strn(r->in, &n);
    if (!s)
        return NULL;
    if (n + 1 > r->scratch_cap) {
        size_t cap = r->scratch_cap ? r->scratch_cap : 256;
        while (cap < n + 1)
            cap *= 2;
        char *v = realloc(r->scratch, cap);
        if (!v)
            abort();
        r->scratch = v;
        r->scratch_cap = cap;
    }
    memcpy(r->scratch, s, n);
    r->scratch[n] = '\0';
    return copy_str(&r->c, r->scratch);
}

static bool r_bool(Rd *r)
{
    unsigned b = bin_get_u8(r->in);
    if (b > 1)
        bad(r, "a flag of the wrong type");
    return b == 1;
}

/* An unsigned number in [0, hi]. */
static uint32_t r_u32(Rd *r, uint32_t hi)
{
    uint32_t v = bin_get_u32(r->in);
    if (v > hi) {
        bad(r, "a number out of range");
        return 0;
    }
    return v;
}

/* A signed number in [lo, hi]. */
static int32_t r_i32(Rd *r, int32_t lo, int32_t hi)
{
    int32_t v = (int32_t)bin_get_u32(r->in);
    if (v < lo || v > hi) {
        bad(r, "a number out of range");
        return 0;
    }
    return v;
}

static Span r_span(Rd *r)
{
    return bin_get_span(r->in);
}

/* A count of elements at least `least` bytes long each. */
static size_t r_count(Rd *r, size_t least)
{
    size_t n = bin_get_count(r->in, least);
    good(r);
    return n;
}

static void *r_alloc(Rd *r, size_t n, size_t elem)
{
    return n ? arena_alloc(r->c.to, n * elem) : NULL;
}

#define R_VEC(r, vec, count)                                                   \
    do {                                                                       \
        (vec)->v = r_alloc((r), (count), sizeof *(vec)->v);                    \
        (vec)->n = (vec)->cap = (count);                                       \
    } while (0)

static StrList r_strlist(Rd *r)
{
    StrList l = {0};
    size_t n = r_count(r, LEAST_STR);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n; i++)
        l.v[i] = r_str(r);
    return l;
}

static SegList r_segs(Rd *r, int depth)
{
    SegList l = {0};
    if (depth > MAX_NEST) {
        bad(r, "segments nested too deep");
        return l;
    }
    size_t n = r_count(r, LEAST_SEG);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && good(r); i++) {
        Seg *s = &l.v[i];
        s->kind = (SegKind)r_u32(r, SEG_KIND_COUNT - 1);
        s->flags = bin_get_u32(r->in);
        s->text = r_str(r);
        s->name = r_str(r);
        s->span = r_span(r);
        unsigned more = bin_get_u8(r->in);
        if (more > 15) {
            bad(r, "a segment of the wrong shape");
            break;
        }
        if (more & 1) {
            s->nargs = r_count(r, LEAST_SMALL);
            s->args = r_alloc(r, s->nargs, sizeof *s->args);
            for (size_t j = 0; j < s->nargs && good(r); j++)
                s->args[j] = r_segs(r, depth + 1);
        }
        if (more & 2 && !(s->param = r_str(r)))
            bad(r, "a segment of the wrong shape");
        if (more & 4 && !(s->fallback = r_str(r)))
            bad(r, "a segment of the wrong shape");
        if (more & 8 && !(s->member = r_str(r)))
            bad(r, "a segment of the wrong shape");
    }
    return l;
}

static KeyExprList r_keys(Rd *r)
{
    KeyExprList l = {0};
    size_t n = r_count(r, LEAST_SMALL);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && good(r); i++) {
        KeyExpr *k = &l.v[i];
        k->role = (KeyRole)r_u32(r, KEY_ROLE_COUNT - 1);
        k->attr = r_str(r);
        k->build = (KeyBuild)r_u32(r, KEY_BUILD_COUNT - 1);
        k->site = (KeySite)r_u32(r, KEY_SITE_COUNT - 1);
        k->cond = (CondOp)r_u32(r, COND_OP_COUNT - 1);
        k->op = r_i32(r, -1, INT32_MAX);
        k->span = r_span(r);
        k->via = r_str(r);
        k->via_span = r_span(r);
        k->attr_const = r_str(r);
        k->spread = r_bool(r);
        k->call_site = r_bool(r);
        k->named_by = (KeyNamedBy)r_u32(r, KEY_NAMED_BY_COUNT - 1);
        k->arg_of = r_str(r);
        k->arg_index = r_u32(r, INT32_MAX);
        k->when = r_str(r);
        k->segs = r_segs(r, 0);
    }
    return l;
}

static NameRef r_nameref(Rd *r)
{
    NameRef n = {0};
    n.literal = r_str(r);
    n.env = r_str(r);
    n.import = r_str(r);
    n.from = r_str(r);
    n.text = r_str(r);
    return n;
}

static OpParams r_params(Rd *r)
{
    OpParams p = {0};
    p.read = r_bool(r);
    p.has_table = r_bool(r);
    p.has_index = r_bool(r);
    p.table = r_nameref(r);
    p.index = r_nameref(r);
    p.table_span = r_span(r);
    p.index_span = r_span(r);
    p.names = r_strlist(r);
    p.filter = r_str(r);
    p.must_exist = r_bool(r);
    p.scan_index_forward = r_bool(r);
    p.library = r_bool(r);
    p.lib_attrs = r_strlist(r);
    return p;
}

static void r_ops(Rd *r, FileIR *ir)
{
    size_t n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ir->ops, n);
    for (size_t i = 0; i < n && good(r); i++) {
        DataOp *op = &ir->ops.v[i];
        op->kind = (OpKind)r_u32(r, OP_KIND_COUNT - 1);
        op->api = (OpApi)r_u32(r, OP_API_COUNT - 1);
        op->span = r_span(r);
        op->callee = r_str(r);
        op->function = r_str(r);
        op->table = r_str(r);
        op->table_literal = r_bool(r);
        op->index = r_str(r);
        op->index_span = r_span(r);
        op->index_literal = r_bool(r);
        op->table_kind = (TableKind)r_u32(r, TABLE_KIND_COUNT - 1);
        op->key_condition = r_str(r);
        op->key_condition_span = r_span(r);
        op->key_condition_exact = r_bool(r);
        op->params_closed = r_bool(r);
        op->params_span = r_span(r);
        op->sets = r_strlist(r);
        op->set_values = r_segs(r, 0);
        op->update_span = r_span(r);
        op->params = r_params(r);
    }
}

static ImportList r_imports(Rd *r)
{
    ImportList l = {0};
    size_t n = r_count(r, 3 * LEAST_STR);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && good(r); i++) {
        l.v[i].local = r_str(r);
        l.v[i].imported = r_str(r);
        l.v[i].source = r_str(r);
    }
    return l;
}

static void r_consts(Rd *r, FileIR *ir)
{
    size_t n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ir->consts, n);
    for (size_t i = 0; i < n && good(r); i++) {
        ConstDef *c = &ir->consts.v[i];
        c->name = r_str(r);
        c->value = r_segs(r, 0);
        c->exported = r_bool(r);
        c->fixed = r_bool(r);
        c->span = r_span(r);
        if (!good(r))
            break;
        if (!c->name)
            bad(r, "a constant without a name");
        else {
            namemap_put(r->c.to, &ir->const_names, c->name, i);
            if (c->exported)
                namemap_put(r->c.to, &ir->exported_const_names, c->name, i);
        }
    }
}

static void r_helpers(Rd *r, FileIR *ir)
{
    size_t n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ir->helpers, n);
    for (size_t i = 0; i < n && good(r); i++) {
        HelperDef *h = &ir->helpers.v[i];
        h->name = r_str(r);
        h->nparams = r_count(r, LEAST_STR);
        h->params = r_alloc(r, h->nparams, sizeof *h->params);
        for (size_t j = 0; j < h->nparams && good(r); j++) {
            h->params[j] = r_str(r);
            if (h->params[j])
                namemap_put(r->c.to, &h->param_names, h->params[j], j);
        }
        h->returns = r_segs(r, 0);
        size_t nf = r_count(r, LEAST_SMALL);
        R_VEC(r, &h->fields, nf);
        for (size_t j = 0; j < nf && good(r); j++) {
            h->fields.v[j].attr = r_str(r);
            h->fields.v[j].role = (KeyRole)r_u32(r, KEY_ROLE_COUNT - 1);
            h->fields.v[j].value = r_segs(r, 0);
        }
        h->sinks = r_keys(r);
        size_t nu = r_count(r, LEAST_SMALL);
        R_VEC(r, &h->param_uses, nu);
        for (size_t j = 0; j < nu && good(r); j++) {
            ParamUse *u = &h->param_uses.v[j];
            u->param = r_u32(r, INT32_MAX);
            u->site = (KeySite)r_u32(r, KEY_SITE_COUNT - 1);
            u->callee = r_str(r);
            u->arg = r_u32(r, INT32_MAX);
        }
        h->exported = r_bool(r);
        h->span = r_span(r);
        if (!good(r))
            break;
        if (!h->name)
            bad(r, "a helper without a name");
        else {
            namemap_put(r->c.to, &ir->helper_names, h->name, i);
            if (h->exported)
                namemap_put(r->c.to, &ir->exported_helper_names, h->name, i);
        }
    }
}

static KeyAttr r_keyattr(Rd *r)
{
    KeyAttr k = {0};
    k.name = r_str(r);
    k.type = (AttrType)r_u32(r, ATTR_TYPE_COUNT - 1);
    k.unknown = r_bool(r);
    k.span = r_span(r);
    return k;
}

static TableIndex r_index(Rd *r)
{
    TableIndex ix = {0};
    ix.name = r_str(r);
    ix.kind = (IndexKind)r_u32(r, INDEX_KIND_COUNT - 1);
    ix.pk = r_keyattr(r);
    ix.sk = r_keyattr(r);
    for (size_t i = 0; i < MAX_KEY_ATTRS - 1; i++) {
        ix.pk_more[i] = r_keyattr(r);
        ix.sk_more[i] = r_keyattr(r);
    }
    ix.projection = r_str(r);
    ix.projected = r_strlist(r);
    ix.span = r_span(r);
    return ix;
}

/* A path the entry leaves out when it is the file's own. */
static const char *r_path(Rd *r)
{
    const char *p = r_str(r);
    return p ? p : r->path;
}

static FileTables *r_tables(Rd *r)
{
    if (!r_bool(r) || !good(r))
        return NULL;
    FileTables *ft = arena_alloc(r->c.to, sizeof *ft);
    size_t n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->set.tables, n);
    for (size_t i = 0; i < n && good(r); i++) {
        TableDef *t = &ft->set.tables.v[i];
        t->id = r_str(r);
        t->var = r_str(r);
        t->name = r_str(r);
        t->pk = r_keyattr(r);
        t->sk = r_keyattr(r);
        size_t ni = r_count(r, LEAST_SMALL);
        R_VEC(r, &t->indexes, ni);
        for (size_t j = 0; j < ni && good(r); j++)
            t->indexes.v[j] = r_index(r);
        t->indexes_open = r_bool(r);
        t->source = (TableSource)r_u32(r, TSRC_COUNT - 1);
        t->path = r_path(r);
        t->span = r_span(r);
    }
    n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->set.env, n);
    for (size_t i = 0; i < n && good(r); i++) {
        EnvBinding *e = &ft->set.env.v[i];
        e->var = r_str(r);
        e->table_id = r_str(r);
        e->name = r_str(r);
        e->path = r_path(r);
        e->span = r_span(r);
    }
    n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->set.issues, n);
    for (size_t i = 0; i < n && good(r); i++) {
        ft->set.issues.v[i].path = r_path(r);
        ft->set.issues.v[i].span = r_span(r);
        ft->set.issues.v[i].message = r_str(r);
    }
    n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->consts, n);
    for (size_t i = 0; i < n && good(r); i++) {
        ft->consts.v[i].name = r_str(r);
        ft->consts.v[i].exported = r_bool(r);
        ft->consts.v[i].ref = r_nameref(r);
    }
    n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->entities, n);
    for (size_t i = 0; i < n && good(r); i++) {
        ft->entities.v[i].entity = r_str(r);
        ft->entities.v[i].table = r_str(r);
        ft->entities.v[i].span = r_span(r);
    }
    n = r_count(r, LEAST_SMALL);
    R_VEC(r, &ft->index_calls, n);
    for (size_t i = 0; i < n && good(r); i++) {
        ft->index_calls.v[i].receiver = r_str(r);
        ft->index_calls.v[i].readable = r_bool(r);
        ft->index_calls.v[i].index = r_index(r);
        ft->index_calls.v[i].table_name = r_str(r);
    }
    return ft;
}

FileIR *cache_ir_get(BinIn *in, const char *path, const char **why)
{
    Rd r = {.in = in, .c = copier_begin(arena_new()), .path = NULL};
    FileIR *ir = arena_alloc(r.c.to, sizeof *ir);
    ir->arena = r.c.to;
    ir->path = r.path = copy_str(&r.c, path);
    ir->parse_failed = r_bool(&r);
    ir->code_hash = bin_get_u64(in);
    ir->extracted = r_keys(&r);
    r_ops(&r, ir);
    ir->imports = r_imports(&r);
    for (size_t i = 0; i < ir->imports.n && good(&r); i++)
        if (ir->imports.v[i].local)
            namemap_put(ir->arena, &ir->import_names, ir->imports.v[i].local, i);
    ir->reexports = r_imports(&r);
    r_consts(&r, ir);
    r_helpers(&r, ir);
    size_t n = r_count(&r, 24 + LEAST_STR);
    R_VEC(&r, &ir->comments, n);
    for (size_t i = 0; i < n && good(&r); i++) {
        ir->comments.v[i].span = r_span(&r);
        ir->comments.v[i].text = r_str(&r);
    }
    ir->mutated = r_strlist(&r);
    n = r_count(&r, 24 + 4 + 2 * LEAST_STR);
    R_VEC(&r, &ir->choices, n);
    for (size_t i = 0; i < n && good(&r); i++) {
        ConstChoice *c = &ir->choices.v[i];
        c->span = r_span(&r);
        c->attr = r_str(&r);
        c->role = (int)r_i32(&r, -1, KEY_ROLE_COUNT - 1);
        c->text = r_str(&r);
    }
    ir->local_commands = r_strlist(&r);
    n = r_count(&r, 4 + LEAST_STR);
    R_VEC(&r, &ir->item_calls, n);
    for (size_t i = 0; i < n && good(&r); i++) {
        ir->item_calls.v[i].callee = r_str(&r);
        ir->item_calls.v[i].arg = r_u32(&r, INT32_MAX);
    }
    if (good(&r))
        ir->tables = r_tables(&r);
    good(&r);
    copier_end(&r.c);
    free(r.scratch);
    if (r.why) {
        *why = r.why;
        fileir_free(ir);
        return NULL;
    }
    return ir;
}
