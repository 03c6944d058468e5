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
                                    "wrapper", "toolbox"};
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

SegList seglist_copy(Arena *a, const SegList *src)
{
    SegList l = {0};
    seglist_append(a, &l, src);
    return l;
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
                    if (j)
                        put(a, buf, len, cap, ", ");
                    render(a, &s->args[j], buf, len, cap, depth + 1, max);
                }
            else if (s->nargs)
                put(a, buf, len, cap, "...");
            put(a, buf, len, cap, ")}");
            break;
        case SEG_UNKNOWN:
            put(a, buf, len, cap, "{?}");
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
