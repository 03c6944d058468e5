#include "cache_ir.h"

#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "schema.h"
#include "tables.h"

/* Lists of segments nest as deep as extraction reads expressions (a
 * call's arguments); an entry nesting deeper is not one keylint wrote. */
enum { MAX_NEST = 64 };

/* ---- writing ------------------------------------------------------------ */

/* A string; one that is not UTF-8 (a literal's escapes may make one) as
 * {"hex": its bytes}, which JSON can carry. */
static json_t *w_str(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    size_t n = strlen(s);
    char *hex = malloc(2 * n + 1);
    if (!hex)
        abort();
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)s[i]);
    j = json_pack("{s:s}", "hex", hex);
    free(hex);
    return j;
}

/* Object members: a NULL string, false or 0 is left out (read as such). */
static void put_str(json_t *o, const char *k, const char *s)
{
    if (s)
        json_object_set_new(o, k, w_str(s));
}

static void put_path(json_t *o, const char *k, const char *path, const char *self)
{
    if (path && (!self || strcmp(path, self)))
        json_object_set_new(o, k, w_str(path));
}

static void put_bool(json_t *o, const char *k, bool b)
{
    if (b)
        json_object_set_new(o, k, json_true());
}

static void put_int(json_t *o, const char *k, long long v)
{
    if (v)
        json_object_set_new(o, k, json_integer(v));
}

static json_t *w_span(Span s)
{
    return json_pack("[IIIIII]", (json_int_t)s.start_byte, (json_int_t)s.end_byte,
                     (json_int_t)s.start_row, (json_int_t)s.start_col, (json_int_t)s.end_row,
                     (json_int_t)s.end_col);
}

static void put_span(json_t *o, const char *k, Span s)
{
    static const Span zero;
    if (memcmp(&s, &zero, sizeof s))
        json_object_set_new(o, k, w_span(s));
}

static void put_strs(json_t *o, const char *k, const char *const *v, size_t n)
{
    if (!n)
        return;
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, w_str(v[i]));
    json_object_set_new(o, k, a);
}

static void put_list(json_t *o, const char *k, const StrList *l)
{
    put_strs(o, k, l->v, l->n);
}

/* A segment: [kind, flags, text, name, span(, [args...] or null(, param(,
 * fallback)))], the trailing members left out when they are empty. */
static json_t *w_segs(const SegList *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        json_t *seg = json_pack("[iIooo]", (int)s->kind, (json_int_t)s->flags, w_str(s->text),
                                w_str(s->name), w_span(s->span));
        if (s->nargs || s->param || s->fallback) {
            json_t *args = s->nargs ? json_array() : json_null();
            for (size_t j = 0; j < s->nargs; j++)
                json_array_append_new(args, w_segs(&s->args[j]));
            json_array_append_new(seg, args);
        }
        if (s->param || s->fallback)
            json_array_append_new(seg, w_str(s->param));
        if (s->fallback)
            json_array_append_new(seg, w_str(s->fallback));
        json_array_append_new(a, seg);
    }
    return a;
}

static json_t *w_keys(const KeyExprList *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const KeyExpr *k = &l->v[i];
        json_t *o = json_object();
        put_int(o, "role", k->role);
        put_str(o, "attr", k->attr);
        put_int(o, "build", k->build);
        put_int(o, "site", k->site);
        put_int(o, "cond", k->cond);
        json_object_set_new(o, "op", json_integer(k->op));
        put_span(o, "span", k->span);
        put_str(o, "via", k->via);
        put_span(o, "via_span", k->via_span);
        put_str(o, "attr_const", k->attr_const);
        put_bool(o, "spread", k->spread);
        put_bool(o, "call_site", k->call_site);
        put_int(o, "named_by", k->named_by);
        put_str(o, "arg_of", k->arg_of);
        put_int(o, "arg_index", (int)k->arg_index);
        put_str(o, "when", k->when);
        json_object_set_new(o, "segs", w_segs(&k->segs));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *w_nameref(NameRef r)
{
    return json_pack("[ooooo]", w_str(r.literal), w_str(r.env), w_str(r.import), w_str(r.from),
                     w_str(r.text));
}

static json_t *w_params(const OpParams *p)
{
    json_t *o = json_object();
    put_bool(o, "read", p->read);
    put_bool(o, "has_table", p->has_table);
    put_bool(o, "has_index", p->has_index);
    json_object_set_new(o, "table", w_nameref(p->table));
    json_object_set_new(o, "index", w_nameref(p->index));
    put_span(o, "table_span", p->table_span);
    put_span(o, "index_span", p->index_span);
    put_list(o, "names", &p->names);
    put_str(o, "filter", p->filter);
    put_bool(o, "scan_index_forward", p->scan_index_forward);
    put_bool(o, "library", p->library);
    put_list(o, "lib_attrs", &p->lib_attrs);
    return o;
}

static json_t *w_ops(const FileIR *ir)
{
    json_t *a = json_array();
    for (size_t i = 0; i < ir->ops.n; i++) {
        const DataOp *op = &ir->ops.v[i];
        json_t *o = json_object();
        put_int(o, "kind", op->kind);
        put_int(o, "api", op->api);
        put_span(o, "span", op->span);
        put_str(o, "callee", op->callee);
        put_str(o, "function", op->function);
        put_str(o, "table", op->table);
        put_bool(o, "table_literal", op->table_literal);
        put_str(o, "index", op->index);
        put_span(o, "index_span", op->index_span);
        put_bool(o, "index_literal", op->index_literal);
        put_int(o, "table_kind", op->table_kind);
        put_str(o, "key_condition", op->key_condition);
        put_span(o, "key_condition_span", op->key_condition_span);
        put_bool(o, "key_condition_exact", op->key_condition_exact);
        put_list(o, "sets", &op->sets);
        json_object_set_new(o, "set_values", w_segs(&op->set_values));
        put_span(o, "update_span", op->update_span);
        json_object_set_new(o, "params", w_params(&op->params));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *w_imports(const ImportList *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_pack("[ooo]", w_str(l->v[i].local),
                                           w_str(l->v[i].imported), w_str(l->v[i].source)));
    return a;
}

static json_t *w_consts(const FileIR *ir)
{
    json_t *a = json_array();
    for (size_t i = 0; i < ir->consts.n; i++) {
        const ConstDef *c = &ir->consts.v[i];
        json_t *o = json_object();
        put_str(o, "name", c->name);
        json_object_set_new(o, "value", w_segs(&c->value));
        put_bool(o, "exported", c->exported);
        put_bool(o, "fixed", c->fixed);
        put_span(o, "span", c->span);
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *w_helpers(const FileIR *ir)
{
    json_t *a = json_array();
    for (size_t i = 0; i < ir->helpers.n; i++) {
        const HelperDef *h = &ir->helpers.v[i];
        json_t *o = json_object();
        put_str(o, "name", h->name);
        json_t *params = json_array();
        for (size_t j = 0; j < h->nparams; j++)
            json_array_append_new(params, w_str(h->params[j]));
        json_object_set_new(o, "params", params);
        json_object_set_new(o, "returns", w_segs(&h->returns));
        json_t *fields = json_array();
        for (size_t j = 0; j < h->fields.n; j++)
            json_array_append_new(fields, json_pack("[oio]", w_str(h->fields.v[j].attr),
                                                    (int)h->fields.v[j].role,
                                                    w_segs(&h->fields.v[j].value)));
        json_object_set_new(o, "fields", fields);
        json_object_set_new(o, "sinks", w_keys(&h->sinks));
        json_t *uses = json_array();
        for (size_t j = 0; j < h->param_uses.n; j++) {
            const ParamUse *u = &h->param_uses.v[j];
            json_array_append_new(uses, json_pack("[iioi]", (int)u->param, (int)u->site,
                                                  w_str(u->callee), (int)u->arg));
        }
        json_object_set_new(o, "param_uses", uses);
        put_bool(o, "exported", h->exported);
        put_span(o, "span", h->span);
        json_array_append_new(a, o);
    }
    return a;
}

/* A key attribute: [name, type, unknown, span]. */
static json_t *w_keyattr(const KeyAttr *k)
{
    return json_pack("[oibo]", w_str(k->name), (int)k->type, (int)k->unknown, w_span(k->span));
}

static json_t *w_index(const TableIndex *ix)
{
    json_t *o = json_object();
    put_str(o, "name", ix->name);
    put_int(o, "kind", ix->kind);
    json_object_set_new(o, "pk", w_keyattr(&ix->pk));
    json_object_set_new(o, "sk", w_keyattr(&ix->sk));
    json_t *pm = json_array(), *sm = json_array();
    for (size_t i = 0; i < MAX_KEY_ATTRS - 1; i++) {
        json_array_append_new(pm, w_keyattr(&ix->pk_more[i]));
        json_array_append_new(sm, w_keyattr(&ix->sk_more[i]));
    }
    json_object_set_new(o, "pk_more", pm);
    json_object_set_new(o, "sk_more", sm);
    put_str(o, "projection", ix->projection);
    put_list(o, "projected", &ix->projected);
    put_span(o, "span", ix->span);
    return o;
}

static json_t *w_tables(const FileTables *ft, const char *self)
{
    if (!ft)
        return json_null();
    json_t *o = json_object();
    json_t *tables = json_array();
    for (size_t i = 0; i < ft->set.tables.n; i++) {
        const TableDef *t = &ft->set.tables.v[i];
        json_t *to = json_object();
        put_str(to, "id", t->id);
        put_str(to, "var", t->var);
        put_str(to, "name", t->name);
        json_object_set_new(to, "pk", w_keyattr(&t->pk));
        json_object_set_new(to, "sk", w_keyattr(&t->sk));
        json_t *ixs = json_array();
        for (size_t j = 0; j < t->indexes.n; j++)
            json_array_append_new(ixs, w_index(&t->indexes.v[j]));
        json_object_set_new(to, "indexes", ixs);
        put_bool(to, "indexes_open", t->indexes_open);
        put_int(to, "source", t->source);
        put_path(to, "path", t->path, self);
        put_span(to, "span", t->span);
        json_array_append_new(tables, to);
    }
    json_object_set_new(o, "tables", tables);
    json_t *env = json_array();
    for (size_t i = 0; i < ft->set.env.n; i++) {
        const EnvBinding *e = &ft->set.env.v[i];
        json_t *eo = json_object();
        put_str(eo, "var", e->var);
        put_str(eo, "table_id", e->table_id);
        put_str(eo, "name", e->name);
        put_path(eo, "path", e->path, self);
        put_span(eo, "span", e->span);
        json_array_append_new(env, eo);
    }
    json_object_set_new(o, "env", env);
    json_t *issues = json_array();
    for (size_t i = 0; i < ft->set.issues.n; i++) {
        const SchemaIssue *s = &ft->set.issues.v[i];
        json_t *so = json_object();
        put_path(so, "path", s->path, self);
        put_span(so, "span", s->span);
        put_str(so, "message", s->message);
        json_array_append_new(issues, so);
    }
    json_object_set_new(o, "issues", issues);
    json_t *consts = json_array();
    for (size_t i = 0; i < ft->consts.n; i++)
        json_array_append_new(consts, json_pack("[obo]", w_str(ft->consts.v[i].name),
                                                (int)ft->consts.v[i].exported,
                                                w_nameref(ft->consts.v[i].ref)));
    json_object_set_new(o, "consts", consts);
    json_t *ents = json_array();
    for (size_t i = 0; i < ft->entities.n; i++)
        json_array_append_new(ents, json_pack("[ooo]", w_str(ft->entities.v[i].entity),
                                              w_str(ft->entities.v[i].table),
                                              w_span(ft->entities.v[i].span)));
    json_object_set_new(o, "entities", ents);
    json_t *calls = json_array();
    for (size_t i = 0; i < ft->index_calls.n; i++)
        json_array_append_new(calls, json_pack("[oboo]", w_str(ft->index_calls.v[i].receiver),
                                               (int)ft->index_calls.v[i].readable,
                                               w_index(&ft->index_calls.v[i].index),
                                               w_str(ft->index_calls.v[i].table_name)));
    json_object_set_new(o, "index_calls", calls);
    return o;
}

json_t *cache_ir_to_json(const FileIR *ir)
{
    json_t *o = json_object();
    put_bool(o, "parse_failed", ir->parse_failed);
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)ir->code_hash);
    json_object_set_new(o, "code_hash", json_string(hash));
    json_object_set_new(o, "extracted", w_keys(&ir->extracted));
    json_object_set_new(o, "ops", w_ops(ir));
    json_object_set_new(o, "imports", w_imports(&ir->imports));
    json_object_set_new(o, "reexports", w_imports(&ir->reexports));
    json_object_set_new(o, "consts", w_consts(ir));
    json_object_set_new(o, "helpers", w_helpers(ir));
    json_t *comments = json_array();
    for (size_t i = 0; i < ir->comments.n; i++)
        json_array_append_new(comments, json_pack("[oo]", w_span(ir->comments.v[i].span),
                                                  w_str(ir->comments.v[i].text)));
    json_object_set_new(o, "comments", comments);
    put_list(o, "mutated", &ir->mutated);
    json_t *choices = json_array();
    for (size_t i = 0; i < ir->choices.n; i++) {
        const ConstChoice *c = &ir->choices.v[i];
        json_array_append_new(choices, json_pack("[ooio]", w_span(c->span), w_str(c->attr),
                                                 c->role, w_str(c->text)));
    }
    json_object_set_new(o, "choices", choices);
    put_list(o, "local_commands", &ir->local_commands);
    json_object_set_new(o, "tables", w_tables(ir->tables, ir->path));
    return o;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct Rd {
    Copier c;          /* into the new IR's arena; strings interned */
    const char *path;  /* the file's display path */
    const char *why;   /* the first thing wrong, NULL while all is well */
} Rd;

static void bad(Rd *r, const char *why)
{
    if (!r->why)
        r->why = why;
}

static const char *r_str(Rd *r, const json_t *j)
{
    if (!j || json_is_null(j))
        return NULL;
    if (json_is_string(j))
        return copy_str(&r->c, json_string_value(j));
    const json_t *hex = json_is_object(j) ? json_object_get(j, "hex") : NULL;
    const char *h = json_string_value(hex);
    size_t n = h ? strlen(h) : 1;
    if (n % 2) {
        bad(r, "a string of the wrong type");
        return NULL;
    }
    char *s = arena_alloc(r->c.to, n / 2 + 1);
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1 || v == 0) {
            bad(r, "a string of the wrong type");
            return NULL;
        }
        s[i] = (char)v;
    }
    return s;
}

static const char *g_str(Rd *r, const json_t *o, const char *k)
{
    return r_str(r, json_object_get(o, k));
}

static bool g_bool(Rd *r, const json_t *o, const char *k)
{
    const json_t *j = json_object_get(o, k);
    if (j && !json_is_boolean(j))
        bad(r, "a flag of the wrong type");
    return json_is_true(j);
}

/* An integer in [lo, hi]; 0 when absent. */
static long long r_int(Rd *r, const json_t *j, long long lo, long long hi)
{
    if (!j)
        return 0;
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi) {
        bad(r, "a number out of range");
        return 0;
    }
    return json_integer_value(j);
}

static long long g_int(Rd *r, const json_t *o, const char *k, long long lo, long long hi)
{
    return r_int(r, json_object_get(o, k), lo, hi);
}

static Span r_span(Rd *r, const json_t *j)
{
    Span s = {0};
    if (!j)
        return s;
    if (!json_is_array(j) || json_array_size(j) != 6) {
        bad(r, "a span of the wrong shape");
        return s;
    }
    uint32_t v[6];
    for (size_t i = 0; i < 6; i++)
        v[i] = (uint32_t)r_int(r, json_array_get(j, i), 0, UINT32_MAX);
    s = (Span){v[0], v[1], v[2], v[3], v[4], v[5]};
    return s;
}

static Span g_span(Rd *r, const json_t *o, const char *k)
{
    return r_span(r, json_object_get(o, k));
}

/* An array (absent: empty) whose elements are `shape` (JSON_OBJECT,
 * JSON_ARRAY or JSON_STRING, which also admits null and {"hex"}); its
 * size, 0 after a mismatch. */
static size_t r_array(Rd *r, const json_t *a, json_type shape)
{
    if (!a)
        return 0;
    if (!json_is_array(a)) {
        bad(r, "a list of the wrong type");
        return 0;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *e = json_array_get(a, i);
        if (shape != JSON_STRING && json_typeof(e) != shape) {
            bad(r, "a list element of the wrong type");
            return 0;
        }
    }
    return json_array_size(a);
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

static StrList r_strlist(Rd *r, const json_t *a)
{
    StrList l = {0};
    size_t n = r_array(r, a, JSON_STRING);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n; i++)
        l.v[i] = r_str(r, json_array_get(a, i));
    return l;
}

static SegList r_segs(Rd *r, const json_t *a, int depth)
{
    SegList l = {0};
    if (depth > MAX_NEST) {
        bad(r, "segments nested too deep");
        return l;
    }
    size_t n = r_array(r, a, JSON_ARRAY);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *e = json_array_get(a, i);
        size_t m = json_array_size(e);
        if (m < 5 || m > 8) {
            bad(r, "a segment of the wrong shape");
            break;
        }
        Seg *s = &l.v[i];
        s->kind = (SegKind)r_int(r, json_array_get(e, 0), 0, SEG_KIND_COUNT - 1);
        s->flags = (uint32_t)r_int(r, json_array_get(e, 1), 0, UINT32_MAX);
        s->text = r_str(r, json_array_get(e, 2));
        s->name = r_str(r, json_array_get(e, 3));
        s->span = r_span(r, json_array_get(e, 4));
        const json_t *args = json_array_get(e, 5);
        if (args && !json_is_null(args)) {
            s->nargs = r_array(r, args, JSON_ARRAY);
            s->args = r_alloc(r, s->nargs, sizeof *s->args);
            for (size_t j = 0; j < s->nargs; j++)
                s->args[j] = r_segs(r, json_array_get(args, j), depth + 1);
        }
        s->param = r_str(r, json_array_get(e, 6));
        s->fallback = r_str(r, json_array_get(e, 7));
    }
    return l;
}

static KeyExprList r_keys(Rd *r, const json_t *a)
{
    KeyExprList l = {0};
    size_t n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *o = json_array_get(a, i);
        KeyExpr *k = &l.v[i];
        k->role = (KeyRole)g_int(r, o, "role", 0, KEY_ROLE_COUNT - 1);
        k->attr = g_str(r, o, "attr");
        k->build = (KeyBuild)g_int(r, o, "build", 0, KEY_BUILD_COUNT - 1);
        k->site = (KeySite)g_int(r, o, "site", 0, KEY_SITE_COUNT - 1);
        k->cond = (CondOp)g_int(r, o, "cond", 0, COND_OP_COUNT - 1);
        k->op = (int)g_int(r, o, "op", -1, INT32_MAX);
        k->span = g_span(r, o, "span");
        k->via = g_str(r, o, "via");
        k->via_span = g_span(r, o, "via_span");
        k->attr_const = g_str(r, o, "attr_const");
        k->spread = g_bool(r, o, "spread");
        k->call_site = g_bool(r, o, "call_site");
        k->named_by = (KeyNamedBy)g_int(r, o, "named_by", 0, KEY_NAMED_BY_COUNT - 1);
        k->arg_of = g_str(r, o, "arg_of");
        k->arg_index = (unsigned)g_int(r, o, "arg_index", 0, INT32_MAX);
        k->when = g_str(r, o, "when");
        k->segs = r_segs(r, json_object_get(o, "segs"), 0);
    }
    return l;
}

static NameRef r_nameref(Rd *r, const json_t *a)
{
    NameRef n = {0};
    if (!a)
        return n;
    if (!json_is_array(a) || json_array_size(a) != 5) {
        bad(r, "a name of the wrong shape");
        return n;
    }
    n.literal = r_str(r, json_array_get(a, 0));
    n.env = r_str(r, json_array_get(a, 1));
    n.import = r_str(r, json_array_get(a, 2));
    n.from = r_str(r, json_array_get(a, 3));
    n.text = r_str(r, json_array_get(a, 4));
    return n;
}

static OpParams r_params(Rd *r, const json_t *o)
{
    OpParams p = {0};
    if (!o)
        return p;
    if (!json_is_object(o)) {
        bad(r, "parameters of the wrong type");
        return p;
    }
    p.read = g_bool(r, o, "read");
    p.has_table = g_bool(r, o, "has_table");
    p.has_index = g_bool(r, o, "has_index");
    p.table = r_nameref(r, json_object_get(o, "table"));
    p.index = r_nameref(r, json_object_get(o, "index"));
    p.table_span = g_span(r, o, "table_span");
    p.index_span = g_span(r, o, "index_span");
    p.names = r_strlist(r, json_object_get(o, "names"));
    p.filter = g_str(r, o, "filter");
    p.scan_index_forward = g_bool(r, o, "scan_index_forward");
    p.library = g_bool(r, o, "library");
    p.lib_attrs = r_strlist(r, json_object_get(o, "lib_attrs"));
    return p;
}

static void r_ops(Rd *r, FileIR *ir, const json_t *a)
{
    size_t n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ir->ops, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *o = json_array_get(a, i);
        DataOp *op = &ir->ops.v[i];
        op->kind = (OpKind)g_int(r, o, "kind", 0, OP_KIND_COUNT - 1);
        op->api = (OpApi)g_int(r, o, "api", 0, OP_API_COUNT - 1);
        op->span = g_span(r, o, "span");
        op->callee = g_str(r, o, "callee");
        op->function = g_str(r, o, "function");
        op->table = g_str(r, o, "table");
        op->table_literal = g_bool(r, o, "table_literal");
        op->index = g_str(r, o, "index");
        op->index_span = g_span(r, o, "index_span");
        op->index_literal = g_bool(r, o, "index_literal");
        op->table_kind = (TableKind)g_int(r, o, "table_kind", 0, TABLE_KIND_COUNT - 1);
        op->key_condition = g_str(r, o, "key_condition");
        op->key_condition_span = g_span(r, o, "key_condition_span");
        op->key_condition_exact = g_bool(r, o, "key_condition_exact");
        op->sets = r_strlist(r, json_object_get(o, "sets"));
        op->set_values = r_segs(r, json_object_get(o, "set_values"), 0);
        op->update_span = g_span(r, o, "update_span");
        op->params = r_params(r, json_object_get(o, "params"));
    }
}

static ImportList r_imports(Rd *r, const json_t *a)
{
    ImportList l = {0};
    size_t n = r_array(r, a, JSON_ARRAY);
    R_VEC(r, &l, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 3) {
            bad(r, "an import of the wrong shape");
            break;
        }
        l.v[i].local = r_str(r, json_array_get(e, 0));
        l.v[i].imported = r_str(r, json_array_get(e, 1));
        l.v[i].source = r_str(r, json_array_get(e, 2));
    }
    return l;
}

static void r_consts(Rd *r, FileIR *ir, const json_t *a)
{
    size_t n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ir->consts, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *o = json_array_get(a, i);
        ConstDef *c = &ir->consts.v[i];
        c->name = g_str(r, o, "name");
        c->value = r_segs(r, json_object_get(o, "value"), 0);
        c->exported = g_bool(r, o, "exported");
        c->fixed = g_bool(r, o, "fixed");
        c->span = g_span(r, o, "span");
        if (!c->name)
            bad(r, "a constant without a name");
        else {
            namemap_put(r->c.to, &ir->const_names, c->name, i);
            if (c->exported)
                namemap_put(r->c.to, &ir->exported_const_names, c->name, i);
        }
    }
}

static void r_helpers(Rd *r, FileIR *ir, const json_t *a)
{
    size_t n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ir->helpers, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *o = json_array_get(a, i);
        HelperDef *h = &ir->helpers.v[i];
        h->name = g_str(r, o, "name");
        const json_t *params = json_object_get(o, "params");
        h->nparams = r_array(r, params, JSON_STRING);
        h->params = r_alloc(r, h->nparams, sizeof *h->params);
        for (size_t j = 0; j < h->nparams; j++) {
            h->params[j] = r_str(r, json_array_get(params, j));
            if (h->params[j])
                namemap_put(r->c.to, &h->param_names, h->params[j], j);
        }
        h->returns = r_segs(r, json_object_get(o, "returns"), 0);
        const json_t *fields = json_object_get(o, "fields");
        size_t nf = r_array(r, fields, JSON_ARRAY);
        R_VEC(r, &h->fields, nf);
        for (size_t j = 0; j < nf && !r->why; j++) {
            const json_t *f = json_array_get(fields, j);
            if (json_array_size(f) != 3) {
                bad(r, "a helper's field of the wrong shape");
                break;
            }
            h->fields.v[j].attr = r_str(r, json_array_get(f, 0));
            h->fields.v[j].role = (KeyRole)r_int(r, json_array_get(f, 1), 0, KEY_ROLE_COUNT - 1);
            h->fields.v[j].value = r_segs(r, json_array_get(f, 2), 0);
        }
        h->sinks = r_keys(r, json_object_get(o, "sinks"));
        const json_t *uses = json_object_get(o, "param_uses");
        size_t nu = r_array(r, uses, JSON_ARRAY);
        R_VEC(r, &h->param_uses, nu);
        for (size_t j = 0; j < nu && !r->why; j++) {
            const json_t *u = json_array_get(uses, j);
            if (json_array_size(u) != 4) {
                bad(r, "a helper's parameter use of the wrong shape");
                break;
            }
            h->param_uses.v[j].param = (unsigned)r_int(r, json_array_get(u, 0), 0, INT32_MAX);
            h->param_uses.v[j].site =
                (KeySite)r_int(r, json_array_get(u, 1), 0, KEY_SITE_COUNT - 1);
            h->param_uses.v[j].callee = r_str(r, json_array_get(u, 2));
            h->param_uses.v[j].arg = (unsigned)r_int(r, json_array_get(u, 3), 0, INT32_MAX);
        }
        h->exported = g_bool(r, o, "exported");
        h->span = g_span(r, o, "span");
        if (!h->name)
            bad(r, "a helper without a name");
        else {
            namemap_put(r->c.to, &ir->helper_names, h->name, i);
            if (h->exported)
                namemap_put(r->c.to, &ir->exported_helper_names, h->name, i);
        }
    }
}

static KeyAttr r_keyattr(Rd *r, const json_t *a)
{
    KeyAttr k = {0};
    if (!json_is_array(a) || json_array_size(a) != 4) {
        bad(r, "a key attribute of the wrong shape");
        return k;
    }
    k.name = r_str(r, json_array_get(a, 0));
    k.type = (AttrType)r_int(r, json_array_get(a, 1), 0, ATTR_TYPE_COUNT - 1);
    const json_t *u = json_array_get(a, 2);
    if (!json_is_boolean(u))
        bad(r, "a flag of the wrong type");
    k.unknown = json_is_true(u);
    k.span = r_span(r, json_array_get(a, 3));
    return k;
}

static TableIndex r_index(Rd *r, const json_t *o)
{
    TableIndex ix = {0};
    if (!json_is_object(o)) {
        bad(r, "an index of the wrong type");
        return ix;
    }
    ix.name = g_str(r, o, "name");
    ix.kind = (IndexKind)g_int(r, o, "kind", 0, INDEX_KIND_COUNT - 1);
    ix.pk = r_keyattr(r, json_object_get(o, "pk"));
    ix.sk = r_keyattr(r, json_object_get(o, "sk"));
    const json_t *pm = json_object_get(o, "pk_more"), *sm = json_object_get(o, "sk_more");
    if (json_array_size(pm) != MAX_KEY_ATTRS - 1 || json_array_size(sm) != MAX_KEY_ATTRS - 1) {
        bad(r, "an index of the wrong shape");
        return ix;
    }
    for (size_t i = 0; i < MAX_KEY_ATTRS - 1; i++) {
        ix.pk_more[i] = r_keyattr(r, json_array_get(pm, i));
        ix.sk_more[i] = r_keyattr(r, json_array_get(sm, i));
    }
    ix.projection = g_str(r, o, "projection");
    ix.projected = r_strlist(r, json_object_get(o, "projected"));
    ix.span = g_span(r, o, "span");
    return ix;
}

/* A path the JSON leaves out when it is the file's own. */
static const char *g_path(Rd *r, const json_t *o, const char *k)
{
    const char *p = g_str(r, o, k);
    return p ? p : r->path;
}

static FileTables *r_tables(Rd *r, const json_t *o)
{
    if (!o || json_is_null(o))
        return NULL;
    if (!json_is_object(o)) {
        bad(r, "tables of the wrong type");
        return NULL;
    }
    FileTables *ft = arena_alloc(r->c.to, sizeof *ft);
    const json_t *a = json_object_get(o, "tables");
    size_t n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ft->set.tables, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *to = json_array_get(a, i);
        TableDef *t = &ft->set.tables.v[i];
        t->id = g_str(r, to, "id");
        t->var = g_str(r, to, "var");
        t->name = g_str(r, to, "name");
        t->pk = r_keyattr(r, json_object_get(to, "pk"));
        t->sk = r_keyattr(r, json_object_get(to, "sk"));
        const json_t *ixs = json_object_get(to, "indexes");
        size_t ni = r_array(r, ixs, JSON_OBJECT);
        R_VEC(r, &t->indexes, ni);
        for (size_t j = 0; j < ni; j++)
            t->indexes.v[j] = r_index(r, json_array_get(ixs, j));
        t->indexes_open = g_bool(r, to, "indexes_open");
        t->source = (TableSource)g_int(r, to, "source", 0, TSRC_COUNT - 1);
        t->path = g_path(r, to, "path");
        t->span = g_span(r, to, "span");
    }
    a = json_object_get(o, "env");
    n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ft->set.env, n);
    for (size_t i = 0; i < n; i++) {
        const json_t *eo = json_array_get(a, i);
        EnvBinding *e = &ft->set.env.v[i];
        e->var = g_str(r, eo, "var");
        e->table_id = g_str(r, eo, "table_id");
        e->name = g_str(r, eo, "name");
        e->path = g_path(r, eo, "path");
        e->span = g_span(r, eo, "span");
    }
    a = json_object_get(o, "issues");
    n = r_array(r, a, JSON_OBJECT);
    R_VEC(r, &ft->set.issues, n);
    for (size_t i = 0; i < n; i++) {
        const json_t *so = json_array_get(a, i);
        ft->set.issues.v[i].path = g_path(r, so, "path");
        ft->set.issues.v[i].span = g_span(r, so, "span");
        ft->set.issues.v[i].message = g_str(r, so, "message");
    }
    a = json_object_get(o, "consts");
    n = r_array(r, a, JSON_ARRAY);
    R_VEC(r, &ft->consts, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 3 || !json_is_boolean(json_array_get(e, 1))) {
            bad(r, "a table constant of the wrong shape");
            break;
        }
        ft->consts.v[i].name = r_str(r, json_array_get(e, 0));
        ft->consts.v[i].exported = json_is_true(json_array_get(e, 1));
        ft->consts.v[i].ref = r_nameref(r, json_array_get(e, 2));
    }
    a = json_object_get(o, "entities");
    n = r_array(r, a, JSON_ARRAY);
    R_VEC(r, &ft->entities, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 3) {
            bad(r, "an entity of the wrong shape");
            break;
        }
        ft->entities.v[i].entity = r_str(r, json_array_get(e, 0));
        ft->entities.v[i].table = r_str(r, json_array_get(e, 1));
        ft->entities.v[i].span = r_span(r, json_array_get(e, 2));
    }
    a = json_object_get(o, "index_calls");
    n = r_array(r, a, JSON_ARRAY);
    R_VEC(r, &ft->index_calls, n);
    for (size_t i = 0; i < n && !r->why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 4 || !json_is_boolean(json_array_get(e, 1))) {
            bad(r, "an index call of the wrong shape");
            break;
        }
        ft->index_calls.v[i].receiver = r_str(r, json_array_get(e, 0));
        ft->index_calls.v[i].readable = json_is_true(json_array_get(e, 1));
        ft->index_calls.v[i].index = r_index(r, json_array_get(e, 2));
        ft->index_calls.v[i].table_name = r_str(r, json_array_get(e, 3));
    }
    return ft;
}

FileIR *cache_ir_from_json(const json_t *j, const char *path, const char **why)
{
    if (!json_is_object(j)) {
        *why = "the IR is not an object";
        return NULL;
    }
    Rd r = {.c = copier_begin(arena_new()), .path = NULL};
    FileIR *ir = arena_alloc(r.c.to, sizeof *ir);
    ir->arena = r.c.to;
    ir->path = r.path = copy_str(&r.c, path);
    ir->parse_failed = g_bool(&r, j, "parse_failed");
    const char *hash = json_string_value(json_object_get(j, "code_hash"));
    unsigned long long h = 0;
    int used = 0;
    if (!hash || strlen(hash) != 16 || sscanf(hash, "%16llx%n", &h, &used) != 1 || used != 16)
        bad(&r, "no code hash");
    ir->code_hash = h;
    ir->extracted = r_keys(&r, json_object_get(j, "extracted"));
    r_ops(&r, ir, json_object_get(j, "ops"));
    ir->imports = r_imports(&r, json_object_get(j, "imports"));
    for (size_t i = 0; i < ir->imports.n; i++)
        if (ir->imports.v[i].local)
            namemap_put(ir->arena, &ir->import_names, ir->imports.v[i].local, i);
    ir->reexports = r_imports(&r, json_object_get(j, "reexports"));
    r_consts(&r, ir, json_object_get(j, "consts"));
    r_helpers(&r, ir, json_object_get(j, "helpers"));
    const json_t *a = json_object_get(j, "comments");
    size_t n = r_array(&r, a, JSON_ARRAY);
    R_VEC(&r, &ir->comments, n);
    for (size_t i = 0; i < n && !r.why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 2) {
            bad(&r, "a comment of the wrong shape");
            break;
        }
        ir->comments.v[i].span = r_span(&r, json_array_get(e, 0));
        ir->comments.v[i].text = r_str(&r, json_array_get(e, 1));
    }
    ir->mutated = r_strlist(&r, json_object_get(j, "mutated"));
    a = json_object_get(j, "choices");
    n = r_array(&r, a, JSON_ARRAY);
    R_VEC(&r, &ir->choices, n);
    for (size_t i = 0; i < n && !r.why; i++) {
        const json_t *e = json_array_get(a, i);
        if (json_array_size(e) != 4) {
            bad(&r, "a choice of the wrong shape");
            break;
        }
        ConstChoice *c = &ir->choices.v[i];
        c->span = r_span(&r, json_array_get(e, 0));
        c->attr = r_str(&r, json_array_get(e, 1));
        c->role = (int)r_int(&r, json_array_get(e, 2), -1, KEY_ROLE_COUNT - 1);
        c->text = r_str(&r, json_array_get(e, 3));
    }
    ir->local_commands = r_strlist(&r, json_object_get(j, "local_commands"));
    ir->tables = r_tables(&r, json_object_get(j, "tables"));
    copier_end(&r.c);
    if (r.why) {
        *why = r.why;
        fileir_free(ir);
        return NULL;
    }
    return ir;
}
