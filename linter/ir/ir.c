#include "ir.h"

#include <ctype.h>
#include <string.h>

const char *key_role_name(KeyRole r)
{
    static const char *const n[] = {"pk", "sk", "index-pk", "index-sk", "key"};
    return (unsigned)r < sizeof n / sizeof *n ? n[r] : "?";
}

const char *key_build_name(KeyBuild b)
{
    static const char *const n[] = {"template", "concat", "join", "array",
                                    "literal", "call", "ref", "other"};
    return (unsigned)b < sizeof n / sizeof *n ? n[b] : "?";
}

const char *key_site_name(KeySite s)
{
    static const char *const n[] = {"write", "read", "condition", "object", "helper", "entity"};
    return (unsigned)s < sizeof n / sizeof *n ? n[s] : "?";
}

const char *cond_op_name(CondOp c)
{
    static const char *const n[] = {"", "=", "begins_with", "between", "<", "<=", ">", ">="};
    return (unsigned)c < sizeof n / sizeof *n ? n[c] : "?";
}

const char *op_kind_name(OpKind k)
{
    static const char *const n[] = {"get", "query", "scan", "put", "update", "delete",
                                    "batch-get", "batch-write", "transact-get",
                                    "transact-write"};
    return (unsigned)k < sizeof n / sizeof *n ? n[k] : "?";
}

const char *op_api_name(OpApi a)
{
    static const char *const n[] = {"sdk-v3",  "sdk-v2",  "mbc-data", "mbc-command",
                                    "mbc-history", "turbine", "ddb-lib", "appsync",
                                    "wrapper", "toolbox", "sdk-part", "data-mapper"};
    return (unsigned)a < sizeof n / sizeof *n ? n[a] : "?";
}

const char *table_kind_name(TableKind t)
{
    static const char *const n[] = {"unknown", "data", "command", "history"};
    return (unsigned)t < sizeof n / sizeof *n ? n[t] : "?";
}

bool op_is_read(OpKind k)
{
    return k == OP_GET || k == OP_QUERY || k == OP_SCAN || k == OP_BATCH_GET ||
           k == OP_TRANSACT_GET;
}

bool op_is_write(OpKind k)
{
    return k == OP_PUT || k == OP_UPDATE || k == OP_DELETE || k == OP_BATCH_WRITE ||
           k == OP_TRANSACT_WRITE;
}

ConstDef *fileir_add_const(FileIR *ir, ConstDef c)
{
    VEC_PUSH(ir->arena, &ir->consts, c);
    namemap_put(ir->arena, &ir->const_names, c.name, ir->consts.n - 1);
    if (c.exported)
        namemap_put(ir->arena, &ir->exported_const_names, c.name, ir->consts.n - 1);
    return &ir->consts.v[ir->consts.n - 1];
}

HelperDef *fileir_add_helper(FileIR *ir, HelperDef h)
{
    VEC_PUSH(ir->arena, &ir->helpers, h);
    namemap_put(ir->arena, &ir->helper_names, h.name, ir->helpers.n - 1);
    if (h.exported)
        namemap_put(ir->arena, &ir->exported_helper_names, h.name, ir->helpers.n - 1);
    return &ir->helpers.v[ir->helpers.n - 1];
}

void fileir_add_import(FileIR *ir, Import im)
{
    VEC_PUSH(ir->arena, &ir->imports, im);
    namemap_put(ir->arena, &ir->import_names, im.local, ir->imports.n - 1);
}

const Import *fileir_import(const FileIR *ir, const char *local)
{
    size_t i;
    return namemap_get(&ir->import_names, local, &i) ? &ir->imports.v[i] : NULL;
}

const ConstDef *fileir_const(const FileIR *ir, const char *name, bool exported_only)
{
    size_t i;
    if (!namemap_get(exported_only ? &ir->exported_const_names : &ir->const_names, name, &i))
        return NULL;
    return &ir->consts.v[i];
}

HelperDef *fileir_helper(const FileIR *ir, const char *name, bool exported_only)
{
    size_t i;
    if (!namemap_get(exported_only ? &ir->exported_helper_names : &ir->helper_names, name, &i))
        return NULL;
    return &ir->helpers.v[i];
}

const Import *fileir_import_head(const FileIR *ir, const char *name)
{
    const char *dot = strchr(name, '.');
    size_t n = dot ? (size_t)(dot - name) : strlen(name);
    char head[256];
    if (n >= sizeof head)
        n = sizeof head - 1;
    memcpy(head, name, n);
    head[n] = '\0';
    return fileir_import(ir, head);
}

bool fileir_may_reach_helper(const FileIR *ir, const char *name)
{
    if (fileir_const(ir, name, false))
        return false;
    return fileir_helper(ir, name, false) || fileir_import_head(ir, name);
}

void seglist_push(Arena *a, SegList *l, Seg s)
{
    arena_grow(a, (void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = s;
}

void seglist_append(Arena *a, SegList *dst, const SegList *src)
{
    for (size_t i = 0; i < src->n; i++)
        seglist_push(a, dst, src->v[i]);
}

/* ---- copying a finished IR ---------------------------------------------- */

/* A call's arguments nest as deep as extraction reads expressions
 * (MAX_DEPTH in extract_int.h): the recursion is bounded by it. */
SegList copy_seglist(Copier *c, const SegList *l)
{
    SegList out = {0};
    COPY_VEC(c, &out, l);
    for (size_t i = 0; i < out.n; i++) {
        Seg *s = &out.v[i];
        s->text = copy_str(c, s->text);
        s->name = copy_str(c, s->name);
        s->param = copy_str(c, s->param);
        s->fallback = copy_str(c, s->fallback);
        s->member = copy_str(c, s->member);
        s->args = copy_array(c, s->args, s->nargs, sizeof *s->args);
        for (size_t j = 0; j < s->nargs; j++)
            s->args[j] = copy_seglist(c, &l->v[i].args[j]);
    }
    return out;
}

KeyExprList copy_keys(Copier *c, const KeyExprList *l)
{
    KeyExprList out = {0};
    COPY_VEC(c, &out, l);
    for (size_t i = 0; i < out.n; i++) {
        KeyExpr *k = &out.v[i];
        k->attr = copy_str(c, k->attr);
        k->via = copy_str(c, k->via);
        k->attr_const = copy_str(c, k->attr_const);
        k->arg_of = copy_str(c, k->arg_of);
        k->when = copy_str(c, k->when);
        k->segs = copy_seglist(c, &l->v[i].segs);
    }
    return out;
}

static void copy_imports(Copier *c, ImportList *d, const ImportList *s)
{
    COPY_VEC(c, d, s);
    for (size_t i = 0; i < d->n; i++) {
        d->v[i].local = copy_str(c, d->v[i].local);
        d->v[i].imported = copy_str(c, d->v[i].imported);
        d->v[i].source = copy_str(c, d->v[i].source);
    }
}

NameRef nameref_copy(Copier *c, NameRef r)
{
    r.literal = copy_str(c, r.literal);
    r.env = copy_str(c, r.env);
    r.import = copy_str(c, r.import);
    r.from = copy_str(c, r.from);
    r.text = copy_str(c, r.text);
    return r;
}

static void op_params_copy(Copier *c, OpParams *d, const OpParams *s)
{
    d->table = nameref_copy(c, s->table);
    d->index = nameref_copy(c, s->index);
    d->names = copy_strlist(c, &s->names);
    d->filter = copy_str(c, s->filter);
    d->lib_attrs = copy_strlist(c, &s->lib_attrs);
}

const OpParams *op_params(const DataOp *op)
{
    return op && op->params.read ? &op->params : NULL;
}

const char *op_param_name(const OpParams *p, const char *name)
{
    if (!p || !name || name[0] != '#')
        return name;
    for (size_t i = 0; i + 1 < p->names.n; i += 2)
        if (!strcmp(p->names.v[i], name))
            return p->names.v[i + 1];
    return name;
}

FileIR *fileir_copy(Copier *c, const FileIR *ir)
{
    FileIR *o = arena_alloc(c->to, sizeof *o);
    *o = *ir;
    o->arena = c->to;
    o->resolved = NULL;
    o->access_part = NULL;
    o->access_stamp = 0;
    o->facts_part = NULL;
    o->tables = NULL;
    o->path = copy_str(c, ir->path);
    o->keys = copy_keys(c, &ir->keys);
    COPY_VEC(c, &o->helper_uses, &ir->helper_uses);
    for (size_t i = 0; i < o->helper_uses.n; i++) {
        o->helper_uses.v[i].file = copy_str(c, o->helper_uses.v[i].file);
        o->helper_uses.v[i].name = copy_str(c, o->helper_uses.v[i].name);
    }
    COPY_VEC(c, &o->helper_calls, &ir->helper_calls);
    for (size_t i = 0; i < o->helper_calls.n; i++) {
        o->helper_calls.v[i].path = copy_str(c, o->helper_calls.v[i].path);
        o->helper_calls.v[i].name = copy_str(c, o->helper_calls.v[i].name);
    }
    o->extracted = copy_keys(c, &ir->extracted);

    COPY_VEC(c, &o->ops, &ir->ops);
    for (size_t i = 0; i < o->ops.n; i++) {
        DataOp *op = &o->ops.v[i];
        op->callee = copy_str(c, op->callee);
        op->function = copy_str(c, op->function);
        op->table = copy_str(c, op->table);
        op->table_value = copy_str(c, op->table_value);
        op->index = copy_str(c, op->index);
        op->key_condition = copy_str(c, op->key_condition);
        op->sets = copy_strlist(c, &ir->ops.v[i].sets);
        op->set_values = copy_seglist(c, &ir->ops.v[i].set_values);
        op_params_copy(c, &op->params, &ir->ops.v[i].params);
    }
    COPY_VEC(c, &o->choices, &ir->choices);
    for (size_t i = 0; i < o->choices.n; i++) {
        o->choices.v[i].attr = copy_str(c, o->choices.v[i].attr);
        o->choices.v[i].text = copy_str(c, o->choices.v[i].text);
    }
    o->local_commands = copy_strlist(c, &ir->local_commands);
    COPY_VEC(c, &o->item_calls, &ir->item_calls);
    for (size_t i = 0; i < o->item_calls.n; i++)
        o->item_calls.v[i].callee = copy_str(c, o->item_calls.v[i].callee);
    o->mutated = copy_strlist(c, &ir->mutated);
    copy_imports(c, &o->imports, &ir->imports);
    copy_imports(c, &o->reexports, &ir->reexports);

    COPY_VEC(c, &o->consts, &ir->consts);
    for (size_t i = 0; i < o->consts.n; i++) {
        o->consts.v[i].name = copy_str(c, o->consts.v[i].name);
        o->consts.v[i].value = copy_seglist(c, &ir->consts.v[i].value);
    }
    COPY_VEC(c, &o->helpers, &ir->helpers);
    for (size_t i = 0; i < o->helpers.n; i++) {
        HelperDef *h = &o->helpers.v[i];
        const HelperDef *from = &ir->helpers.v[i];
        h->name = copy_str(c, h->name);
        h->params = copy_array(c, from->params, from->nparams, sizeof *from->params);
        for (size_t j = 0; j < h->nparams; j++)
            h->params[j] = copy_str(c, from->params[j]);
        h->param_names = copy_namemap(c, &from->param_names);
        h->returns = copy_seglist(c, &from->returns);
        COPY_VEC(c, &h->fields, &from->fields);
        for (size_t j = 0; j < h->fields.n; j++) {
            h->fields.v[j].attr = copy_str(c, from->fields.v[j].attr);
            h->fields.v[j].value = copy_seglist(c, &from->fields.v[j].value);
        }
        h->sinks = copy_keys(c, &from->sinks);
        COPY_VEC(c, &h->param_uses, &from->param_uses);
        for (size_t j = 0; j < h->param_uses.n; j++)
            h->param_uses.v[j].callee = copy_str(c, from->param_uses.v[j].callee);
    }
    o->const_names = copy_namemap(c, &ir->const_names);
    o->exported_const_names = copy_namemap(c, &ir->exported_const_names);
    o->helper_names = copy_namemap(c, &ir->helper_names);
    o->exported_helper_names = copy_namemap(c, &ir->exported_helper_names);
    o->import_names = copy_namemap(c, &ir->import_names);

    COPY_VEC(c, &o->comments, &ir->comments);
    for (size_t i = 0; i < o->comments.n; i++)
        o->comments.v[i].text = copy_str(c, o->comments.v[i].text);
    return o;
}

static void render(Arena *a, const SegList *l, char **buf, size_t *len, size_t *cap,
                   int depth, size_t max);

static void put(Arena *a, char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    arena_grow(a, (void **)buf, cap, *len + n + 1, 1);
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

static void render(Arena *a, const SegList *l, char **buf, size_t *len, size_t *cap,
                   int depth, size_t max)
{
    for (size_t i = 0; i < l->n && *len <= max; i++) {
        const Seg *s = &l->v[i];
        switch (s->kind) {
        case SEG_TEXT:
            put(a, buf, len, cap, s->text);
            break;
        case SEG_REF:
            put(a, buf, len, cap, "{");
            put(a, buf, len, cap, s->text);
            put(a, buf, len, cap, "}");
            break;
        case SEG_CALL:
            put(a, buf, len, cap, "{");
            put(a, buf, len, cap, s->text);
            put(a, buf, len, cap, "(");
            if (depth < 4)
                for (size_t j = 0; j < s->nargs; j++) {
                    /* an argument with text is a string: quoted, as
                     * written (`replace('EMAIL#', '')`); a number is
                     * not (`padStart(2, '0')`) */
                    const SegList *arg = &s->args[j];
                    bool text = !arg->n;
                    for (size_t k = 0; k < arg->n && !text; k++)
                        text = arg->v[k].kind == SEG_TEXT;
                    if (arg->n == 1 && text && arg->v[0].text && arg->v[0].text[0] &&
                        strspn(arg->v[0].text, "0123456789.") == strlen(arg->v[0].text))
                        text = false;
                    if (j)
                        put(a, buf, len, cap, ", ");
                    if (text)
                        put(a, buf, len, cap, "'");
                    render(a, &s->args[j], buf, len, cap, depth + 1, max);
                    if (text)
                        put(a, buf, len, cap, "'");
                }
            else if (s->nargs)
                put(a, buf, len, cap, "...");
            put(a, buf, len, cap, ")");
            if (s->member) {
                put(a, buf, len, cap, ".");
                put(a, buf, len, cap, s->member);
            }
            put(a, buf, len, cap, "}");
            break;
        case SEG_UNKNOWN:
            put(a, buf, len, cap, "{?}");
            break;
        case SEG_KIND_COUNT:
            break;
        }
    }
}

char *seglist_render(Arena *a, const SegList *l)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    put(a, &buf, &len, &cap, "");
    render(a, l, &buf, &len, &cap, 0, SIZE_MAX);
    return buf;
}

char *seglist_label(Arena *a, const SegList *l)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    put(a, &buf, &len, &cap, "");
    render(a, l, &buf, &len, &cap, 0, SEGLIST_LABEL_MAX);
    /* a value written over several lines (`${title\n  .toLowerCase()}`)
     * is one line in a message: a run of white space that breaks a line is
     * one space */
    size_t w = 0;
    for (size_t r = 0; r < len;) {
        size_t e = r;
        bool breaks = false;
        while (e < len && strchr(" \t\r\n", buf[e]) && buf[e]) {
            breaks |= buf[e] != ' ';
            e++;
        }
        if (e > r && breaks) {
            buf[w++] = ' ';
            r = e;
        } else {
            buf[w++] = buf[r++];
        }
    }
    buf[w] = '\0';
    len = w;
    if (len > SEGLIST_LABEL_MAX) {
        size_t cut = SEGLIST_LABEL_MAX;
        while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80)
            cut--; /* not inside a character */
        arena_grow(a, (void **)&buf, &cap, cut + 4, 1);
        memcpy(buf + cut, "...", 4);
    }
    return buf;
}

TableKind api_table_kind(OpApi api)
{
    return api == API_MBC_DATA      ? TABLE_DATA
         : api == API_MBC_HISTORY   ? TABLE_HISTORY
         : api == API_MBC_COMMAND   ? TABLE_COMMAND
                                    : TABLE_UNKNOWN;
}

void seglist_case(Arena *a, SegList *l, size_t from, uint32_t flags)
{
    flags &= SEGF_UPPERCASE | SEGF_LOWERCASE;
    if (!flags)
        return;
    for (size_t i = from; i < l->n; i++) {
        Seg *s = &l->v[i];
        if (s->kind != SEG_TEXT) {
            s->flags = (s->flags & ~(uint32_t)(SEGF_UPPERCASE | SEGF_LOWERCASE)) | flags;
            continue;
        }
        char *t = arena_strdup(a, s->text);
        for (char *c = t; *c; c++)
            *c = (char)((flags & SEGF_UPPERCASE) ? toupper((unsigned char)*c)
                                                 : tolower((unsigned char)*c));
        s->text = t;
    }
}

bool attr_is_deferred(const char *name)
{
    size_t l = name ? strlen(name) : 0;
    return l >= 3 && name[0] == '[' && name[l - 1] == ']';
}

const char *attr_deferred_const(Arena *a, const char *name)
{
    return attr_is_deferred(name) ? arena_strndup(a, name + 1, strlen(name) - 2) : NULL;
}

const StrList *fileir_op_sets(const FileIR *ir, size_t op)
{
    return ir->op_sets ? &ir->op_sets[op] : &ir->ops.v[op].sets;
}

static bool holds_word(const char *text, const char *word)
{
    size_t wl = strlen(word);
    if (!wl)
        return false;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool right = !(isalnum((unsigned char)p[wl]) || p[wl] == '_');
        if (left && right)
            return true;
    }
    return false;
}

static bool holds_value(const Seg *s, const Seg *val, bool in_call)
{
    uint32_t cased = SEGF_UPPERCASE | SEGF_LOWERCASE;
    if (val->kind == SEG_TEXT)
        return s->kind == SEG_TEXT && holds_word(s->text, val->text);
    /* both read through one local of the operation's function (`const
     * deviceId = reqString(body, 'deviceId')`): the key's part is named for
     * it, the value is it or named for it */
    const char *vname = val->name ? val->name : val->kind == SEG_REF ? val->text : NULL;
    if (s->name && vname && !strcmp(s->name, vname) && !strchr(vname, '.'))
        return true;
    if (s->kind == val->kind && !strcmp(s->text, val->text) &&
        (in_call || (s->flags & cased) == (val->flags & cased)) && !s->nargs && !val->nargs)
        return true;
    if (s->kind != SEG_CALL)
        return false;
    for (size_t i = 0; i < s->nargs; i++)
        if (s->args[i].n == 1 && !s->args[i].v[0].nargs && holds_value(&s->args[i].v[0], val, true))
            return true;
    return false;
}

bool seg_holds_value(const Seg *s, const Seg *val)
{
    return holds_value(s, val, (s->flags & SEGF_ARG) != 0);
}
