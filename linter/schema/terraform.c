/* Terraform table definitions (.tf), read with the HCL grammar through the
 * syntax layer:
 *
 *   resource "aws_dynamodb_table" "orders" {
 *     name = "${var.env}-orders"  hash_key = "PK"  range_key = "SK"
 *     attribute { name = "PK" type = "S" } ...
 *     global_secondary_index { name = "GSI1" hash_key = "GSI1PK" ... }
 *     local_secondary_index { name = "LSI1" range_key = "LSK" }
 *   }
 *
 * the terraform-aws-modules/dynamodb-table module (`module "x" { source =
 * ".../dynamodb-table/aws"; name, hash_key, range_key, attributes = [{ name,
 * type }], global_secondary_indexes = [{ name, hash_key, range_key }] }`),
 * index resources (`resource "aws_dynamodb_global_secondary_index" { index_name,
 * table_name = aws_dynamodb_table.orders.name, key_schema { ... } }`),
 * and environment variables that name a table (`TABLE_NAME =
 * aws_dynamodb_table.orders.name`). Everything the tree holds is read
 * through syntax.h: a file with a syntax error is read outside it. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "syntax.h"
#include "walk.h"

typedef struct Tf {
    Arena *a;
    const SynTree *syn;
    const char *path;
    const char *fs_path; /* the file on disk, NULL when not known */
    TableSet *out;
} Tf;

/* A module's input (`name = var.table_name`) as the module's callers give
 * it: how far the search for them goes. */
enum {
    MODULE_LEVELS_UP = 3,  /* directories above the module's own */
    MODULE_DEPTH_DOWN = 2, /* and below each of those */
    MODULE_MAX_FILES = 200,
    MODULE_MAX_DIRS = 400,
};

static const char *module_input(Arena *a, const char *fs_path, const char *var);

/* How a reference to a table resource begins: `aws_dynamodb_table.<id>.name`. */
static const char TABLE_REF[] = "aws_dynamodb_table.";
enum { TABLE_REF_LEN = sizeof TABLE_REF - 1 };

static SynNode child_of_type(const Tf *t, SynNode n, const char *type, uint32_t nth)
{
    uint32_t cnt = syn_count(t->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, n, i);
        if (syn_is(c, type) && nth-- == 0)
            return c;
    }
    return (SynNode){0};
}

/* The text of a string: "orders", or "${var.env}-orders" with each
 * interpolation as "${...}"; NULL for anything else. */
static const char *string_text_as(const Tf *t, SynNode expr, bool written);

static const char *string_text(const Tf *t, SynNode expr)
{
    return string_text_as(t, expr, false);
}

/* The same with each interpolation as written when `written`
 * ("gatherly-${var.environment}"). */
static const char *string_text_as(const Tf *t, SynNode expr, bool written)
{
    SynNode n = expr;
    for (int i = 0; i < 4 && (syn_is(n, "expression") || syn_is(n, "literal_value") ||
                              syn_is(n, "template_expr"));
         i++)
        n = syn_child(t->syn, n, 0);
    if (!syn_is(n, "string_lit") && !syn_is(n, "quoted_template"))
        return NULL;
    StrBuf b;
    sb_init(&b, t->a);
    sb_append(&b, "");
    uint32_t cnt = syn_count(t->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, n, i);
        if (syn_is(c, "template_literal"))
            sb_append(&b, syn_text(t->syn, c));
        else if (syn_is(c, "template_interpolation") && written)
            sb_append(&b, syn_text(t->syn, c));
        else if (syn_is(c, "template_interpolation"))
            sb_append(&b, "${}");
    }
    return sb_str(&b);
}

/* The attribute `name` of a block body (`name = ...`): its expression. */
static SynNode body_attr(const Tf *t, SynNode body, const char *name)
{
    uint32_t cnt = syn_count(t->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, body, i);
        if (syn_is(c, "attribute") &&
            syn_text_eq(t->syn, child_of_type(t, c, "identifier", 0), name))
            return child_of_type(t, c, "expression", 0);
    }
    return (SynNode){0};
}

/* The element `name` of an object expression (`{ name = "GSI1", ... }`). */
static SynNode object_elem(const Tf *t, SynNode expr, const char *name)
{
    SynNode o = expr;
    for (int i = 0; i < 3 && !syn_null(o) && !syn_is(o, "object"); i++)
        o = syn_child(t->syn, o, 0);
    uint32_t cnt = syn_count(t->syn, o);
    for (uint32_t i = 0; syn_is(o, "object") && i < cnt; i++) {
        SynNode e = syn_child(t->syn, o, i);
        if (!syn_is(e, "object_elem"))
            continue;
        SynNode k = syn_field(t->syn, e, "key");
        const char *s = string_text(t, k);
        if (syn_text_eq(t->syn, k, name) || (s && !strcmp(s, name)))
            return syn_field(t->syn, e, "val");
    }
    return (SynNode){0};
}

/* The elements of a tuple expression (`[{...}, {...}]`). */
static SynNode tuple_of(const Tf *t, SynNode expr)
{
    SynNode n = expr;
    for (int i = 0; i < 3 && !syn_null(n) && !syn_is(n, "tuple"); i++)
        n = syn_child(t->syn, n, 0);
    return syn_is(n, "tuple") ? n : (SynNode){0};
}

static void key(const Tf *t, SynNode expr, KeyAttr *k)
{
    if (syn_null(expr))
        return;
    k->span = syn_span(expr);
    k->name = string_text(t, expr);
    if (!k->name)
        k->unknown = true; /* a variable: not known here */
}

static AttrType attr_type(const char *t)
{
    return !strcmp(t, "S") ? ATTR_S : !strcmp(t, "N") ? ATTR_N : !strcmp(t, "B") ? ATTR_B
                                                                                : ATTR_UNKNOWN;
}

/* The type of attribute `name` from `attribute { name type }` blocks or an
 * `attributes = [{ name, type }]` list. */
static void attr_types(const Tf *t, SynNode body, TableDef *tb)
{
    KeyAttr *keys[] = {&tb->pk, &tb->sk};
    uint32_t cnt = syn_count(t->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, body, i);
        if (!syn_is(c, "block") ||
            !syn_text_eq(t->syn, child_of_type(t, c, "identifier", 0), "attribute"))
            continue;
        SynNode b = child_of_type(t, c, "body", 0);
        const char *name = string_text(t, body_attr(t, b, "name"));
        const char *type = string_text(t, body_attr(t, b, "type"));
        for (size_t k = 0; k < 2 && name && type; k++)
            if (keys[k]->name && !strcmp(keys[k]->name, name))
                keys[k]->type = attr_type(type);
    }
    SynNode list = tuple_of(t, body_attr(t, body, "attributes"));
    uint32_t n = syn_count(t->syn, list);
    for (uint32_t i = 0; i < n; i++) {
        SynNode e = syn_child(t->syn, list, i);
        if (!syn_is(e, "expression")) /* tuple_start, tuple_end */
            continue;
        const char *name = string_text(t, object_elem(t, e, "name"));
        const char *type = string_text(t, object_elem(t, e, "type"));
        for (size_t k = 0; k < 2 && name && type; k++)
            if (keys[k]->name && !strcmp(keys[k]->name, name))
                keys[k]->type = attr_type(type);
    }
}

/* An index from a block body or an object expression. */
static TableIndex index_of(const Tf *t, SynNode where, bool block, IndexKind kind,
                           const TableDef *tb)
{
    SynNode name = block ? body_attr(t, where, "name") : object_elem(t, where, "name");
    SynNode hk = block ? body_attr(t, where, "hash_key") : object_elem(t, where, "hash_key");
    SynNode rk = block ? body_attr(t, where, "range_key") : object_elem(t, where, "range_key");
    TableIndex x = {.name = string_text(t, name), .kind = kind,
                    .span = syn_span(syn_null(name) ? where : name)};
    if (!x.name)
        x.name = "?";
    if (kind == INDEX_LOCAL)
        x.pk = tb->pk;
    else
        key(t, hk, &x.pk);
    key(t, rk, &x.sk);
    return x;
}

static void read_table(const Tf *t, SynNode block, const char *id, bool module)
{
    SynNode body = child_of_type(t, block, "body", 0);
    TableDef tb = {.id = id, .source = TSRC_TERRAFORM, .path = t->path,
                   .span = syn_span(block)};
    SynNode name = body_attr(t, body, "name");
    tb.name = string_text(t, name);
    const char *nt = syn_null(name) ? NULL : syn_text(t->syn, name);
    /* `name = var.table_name` in a module: the name its callers give */
    if (!tb.name && !module && t->fs_path && nt && !strncmp(nt, "var.", 4) &&
        !strchr(nt + 4, '.') && !strchr(nt + 4, '['))
        tb.name = module_input(t->a, t->fs_path, nt + 4);
    key(t, body_attr(t, body, "hash_key"), &tb.pk);
    key(t, body_attr(t, body, "range_key"), &tb.sk);
    if (!tb.pk.name && !tb.pk.unknown)
        tb.pk.unknown = true; /* not given: not known, not "no key" */
    uint32_t cnt = syn_count(t->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, body, i);
        if (syn_is(c, "block")) {
            SynNode kw = child_of_type(t, c, "identifier", 0);
            bool g = syn_text_eq(t->syn, kw, "global_secondary_index");
            if (g || syn_text_eq(t->syn, kw, "local_secondary_index")) {
                TableIndex x = index_of(t, child_of_type(t, c, "body", 0), true,
                                        g ? INDEX_GLOBAL : INDEX_LOCAL, &tb);
                VEC_PUSH(t->a, &tb.indexes, x);
            } else if (syn_text_eq(t->syn, kw, "dynamic")) {
                tb.indexes_open = true; /* indexes generated from a variable */
            }
        }
    }
    if (module) {
        static const char *const lists[] = {"global_secondary_indexes",
                                            "local_secondary_indexes"};
        for (int l = 0; l < 2; l++) {
            SynNode e = body_attr(t, body, lists[l]);
            if (syn_null(e))
                continue;
            SynNode list = tuple_of(t, e);
            if (syn_null(list)) {
                tb.indexes_open = true; /* a variable */
                continue;
            }
            uint32_t n = syn_count(t->syn, list);
            for (uint32_t i = 0; i < n; i++) {
                if (!syn_is(syn_child(t->syn, list, i), "expression"))
                    continue;
                TableIndex x = index_of(t, syn_child(t->syn, list, i), false,
                                        l ? INDEX_LOCAL : INDEX_GLOBAL, &tb);
                VEC_PUSH(t->a, &tb.indexes, x);
            }
        }
    }
    attr_types(t, body, &tb);
    schema_check_table(t->a, &tb, t->out);
    VEC_PUSH(t->a, &t->out->tables, tb);
}

/* `table_name = aws_dynamodb_table.orders.name` (or `.id`): the table's
 * id in *id; a literal name in *name; false for anything else. */
static bool table_ref(const Tf *t, SynNode expr, const char **id, const char **name)
{
    *id = *name = NULL;
    const char *text = syn_null(expr) ? NULL : syn_text(t->syn, expr);
    if (text && !strncmp(text, TABLE_REF, TABLE_REF_LEN)) {
        const char *dot = strchr(text + TABLE_REF_LEN, '.');
        if (dot && (!strcmp(dot, ".name") || !strcmp(dot, ".id")))
            *id = arena_strndup(t->a, text + TABLE_REF_LEN, (size_t)(dot - text - TABLE_REF_LEN));
        return *id != NULL;
    }
    *name = string_text(t, expr);
    return *name && !strstr(*name, "${");
}

/* A key attribute of a `key_schema { attribute_name attribute_type
 * key_type }` block into the first free place of `first` and `more`. */
static void key_schema_attr(const Tf *t, SynNode body, KeyAttr *first, KeyAttr *more)
{
    KeyAttr k = {0};
    key(t, body_attr(t, body, "attribute_name"), &k);
    const char *ty = string_text(t, body_attr(t, body, "attribute_type"));
    k.type = ty ? attr_type(ty) : ATTR_UNKNOWN;
    if (!first->name && !first->unknown) {
        *first = k;
        return;
    }
    for (int i = 0; i < MAX_KEY_ATTRS - 1; i++)
        if (!more[i].name && !more[i].unknown) {
            more[i] = k;
            return;
        }
}

/* resource "aws_dynamodb_global_secondary_index" "x" { index_name,
 * table_name = aws_dynamodb_table.t.name, key_schema { attribute_name,
 * attribute_type, key_type = "HASH" | "RANGE" } ..., projection { ... } }:
 * an index of a table of this file (those from `from` on in t->out), or,
 * when its table is elsewhere, a name in t->out->loose_indexes. */
static void read_index_resource(const Tf *t, SynNode block, size_t from)
{
    SynNode body = child_of_type(t, block, "body", 0);
    SynNode tn = body_attr(t, body, "table_name");
    const char *id, *name;
    if (!table_ref(t, tn, &id, &name))
        return;
    TableDef *tb = NULL;
    for (size_t i = from; i < t->out->tables.n && !tb; i++) {
        TableDef *c = &t->out->tables.v[i];
        if (c->source == TSRC_TERRAFORM &&
            ((id && !strcmp(c->id, id)) || (name && c->name && !strcmp(c->name, name))))
            tb = c;
    }
    if (!tb) {
        strlist_push(t->a, &t->out->loose_indexes,
                     id ? arena_printf(t->a, "%s%s", TABLE_REF, id) : name);
        return;
    }
    SynNode iname = body_attr(t, body, "index_name");
    TableIndex x = {.name = string_text(t, iname), .kind = INDEX_GLOBAL,
                    .span = syn_span(syn_null(iname) ? block : iname)};
    if (!x.name) {
        tb->indexes_open = true; /* a name keylint cannot read */
        return;
    }
    uint32_t cnt = syn_count(t->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, body, i);
        SynNode kw = syn_is(c, "block") ? child_of_type(t, c, "identifier", 0) : (SynNode){0};
        SynNode cb = child_of_type(t, c, "body", 0);
        if (syn_text_eq(t->syn, kw, "key_schema")) {
            const char *kt = string_text(t, body_attr(t, cb, "key_type"));
            if (kt && !strcmp(kt, "HASH"))
                key_schema_attr(t, cb, &x.pk, x.pk_more);
            else if (kt && !strcmp(kt, "RANGE"))
                key_schema_attr(t, cb, &x.sk, x.sk_more);
        } else if (syn_text_eq(t->syn, kw, "projection")) {
            x.projection = string_text(t, body_attr(t, cb, "projection_type"));
        }
    }
    if (!x.pk.name)
        x.pk.unknown = true; /* not given: not known, not "no key" */
    VEC_PUSH(t->a, &tb->indexes, x);
}

void schema_open_indexes(TableSet *set)
{
    for (size_t i = 0; i < set->loose_indexes.n; i++) {
        const char *ref = set->loose_indexes.v[i];
        bool by_id = !strncmp(ref, TABLE_REF, TABLE_REF_LEN);
        for (size_t k = 0; k < set->tables.n; k++) {
            TableDef *tb = &set->tables.v[k];
            if (tb->source == TSRC_TERRAFORM &&
                (by_id ? !strcmp(tb->id, ref + TABLE_REF_LEN)
                       : tb->name && !strcmp(tb->name, ref)))
                tb->indexes_open = true;
        }
    }
}

/* `TABLE_NAME = aws_dynamodb_table.orders.name` (or `.id`), in an
 * environment's variables or anywhere else. */
static void env_binding(const Tf *t, SynNode attr_or_elem)
{
    SynNode k, v;
    if (syn_is(attr_or_elem, "attribute")) {
        k = child_of_type(t, attr_or_elem, "identifier", 0);
        v = child_of_type(t, attr_or_elem, "expression", 0);
    } else {
        k = syn_field(t->syn, attr_or_elem, "key");
        v = syn_field(t->syn, attr_or_elem, "val");
    }
    const char *var = syn_text(t->syn, k);
    if (!var || !*var || syn_count(t->syn, k) > 1)
        return;
    for (const char *p = var; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return;
    const char *text = syn_text(t->syn, v);
    static const char *const heads[] = {TABLE_REF, "module.", NULL};
    for (const char *const *h = heads; *h; h++) {
        size_t hl = strlen(*h);
        if (!text || strncmp(text, *h, hl))
            continue;
        const char *dot = strchr(text + hl, '.');
        if (!dot)
            return;
        EnvBinding b = {.var = arena_strdup(t->a, var), .table_id = arena_strndup(t->a, text + hl,
                                                              (size_t)(dot - text - hl)),
                        .path = t->path, .span = syn_span(attr_or_elem)};
        VEC_PUSH(t->a, &t->out->env, b);
        return;
    }
}

/* ---- a module's inputs ------------------------------------------------------ */

typedef struct ModSearch {
    Arena *a;
    const char *moddir; /* the module's directory (real path) */
    const char *var;
    StrList values;     /* the distinct values its callers give */
    const char *fallback; /* the variable's default, NULL if none */
    StrList passed;       /* callers that pass a variable of their own
                           * (`var.objects_table_name`): "dir/name" */
    StrList defaults;     /* every `variable` default read: "dir/name" ... */
    StrList default_vals; /* ... and its value */
    size_t files_left;
} ModSearch;

/* One .tf file: its `module` blocks whose source is the module's directory
 * (each input `var` that is a string), and in the module's own directory
 * `variable "var" { default = "..." }`. */
static void module_file(ModSearch *ms, const char *dir, const char *path)
{
    size_t len = 0;
    Problems quiet;
    problems_init(&quiet);
    char *text = read_regular_source(path, &len, &quiet);
    problems_free(&quiet);
    if (!text)
        return;
    SynFailure why;
    Arena *strings = arena_new();
    SynTree *syn = syn_parse(text, len, SYN_HCL, strings, &why);
    if (!syn) {
        arena_free(strings);
        free(text);
        return;
    }
    Tf t = {.a = ms->a, .syn = syn, .path = path};
    bool own = !strcmp(dir, ms->moddir);
    size_t n = syn_node_count(syn);
    for (size_t i = 0; i < n; i++) {
        SynNode b = syn_node_at(syn, i);
        if (!syn_is(b, "block"))
            continue;
        SynNode kw = child_of_type(&t, b, "identifier", 0);
        SynNode body = child_of_type(&t, b, "body", 0);
        const char *l0 = string_text(&t, child_of_type(&t, b, "string_lit", 0));
        if (syn_text_eq(syn, kw, "variable") && l0) {
            const char *d = string_text_as(&t, body_attr(&t, body, "default"), true);
            if (d && *d && own && !strcmp(l0, ms->var))
                ms->fallback = d;
            else if (d && *d) {
                strlist_push(ms->a, &ms->defaults, arena_printf(ms->a, "%s/%s", dir, l0));
                strlist_push(ms->a, &ms->default_vals, d);
            }
            continue;
        }
        if (!syn_text_eq(syn, kw, "module"))
            continue;
        const char *src = string_text(&t, body_attr(&t, body, "source"));
        if (!src || (strncmp(src, "./", 2) && strncmp(src, "../", 3)))
            continue;
        char *real = realpath(arena_printf(ms->a, "%s/%s", dir, src), NULL);
        bool same = real && !strcmp(real, ms->moddir);
        free(real);
        SynNode in = same ? body_attr(&t, body, ms->var) : (SynNode){0};
        const char *v = same ? string_text_as(&t, in, true) : NULL;
        const char *vt = same && !syn_null(in) ? syn_text(syn, in) : NULL;
        if (v && *v && !strlist_has(&ms->values, v))
            strlist_push(ms->a, &ms->values, v);
        else if (!v && vt && !strncmp(vt, "var.", 4) && !strchr(vt + 4, '.') &&
                 !strchr(vt + 4, '['))
            strlist_push(ms->a, &ms->passed, arena_printf(ms->a, "%s/%s", dir, vt + 4));
    }
    syn_free(syn);
    arena_free(strings);
    free(text);
}

/* The value of input `var` of the module whose file is `fs_path`: the one
 * string its callers in the directories around give it (each caller the
 * same; a caller that passes a variable of its own gives that variable's
 * default), else the variable's default; NULL when neither is read. */
static const char *module_input(Arena *a, const char *fs_path, const char *var)
{
    char *real = realpath(fs_path, NULL);
    if (!real)
        return NULL;
    char *slash = strrchr(real, '/');
    if (!slash || slash == real) {
        free(real);
        return NULL;
    }
    *slash = '\0';
    ModSearch ms = {.a = a, .moddir = arena_strdup(a, real), .var = var,
                    .files_left = MODULE_MAX_FILES};
    free(real);
    /* the directories to read: each level above the module's, and below
     * it to MODULE_DEPTH_DOWN (an explicit list, no recursion) */
    StrList dirs = {0};
    VEC(int) depth = {0};
    char *top = arena_strdup(a, ms.moddir);
    for (int up = 0; up <= MODULE_LEVELS_UP; up++) {
        if (!strlist_has(&dirs, top)) {
            strlist_push(a, &dirs, arena_strdup(a, top));
            VEC_PUSH(a, &depth, up ? 0 : MODULE_DEPTH_DOWN);
        }
        char *s = strrchr(top, '/');
        if (!s || s == top)
            break;
        *s = '\0';
    }
    for (size_t d = 0; d < dirs.n && d < MODULE_MAX_DIRS && ms.files_left; d++) {
        DIR *dh = opendir(dirs.v[d]);
        struct dirent *e;
        while (dh && (e = readdir(dh)) && ms.files_left) {
            if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
                continue;
            const char *p = arena_printf(a, "%s/%s", dirs.v[d], e->d_name);
            size_t nl = strlen(e->d_name);
            bool dir = e->d_type == DT_DIR;
            if (e->d_type == DT_UNKNOWN) {
                DIR *probe = opendir(p);
                dir = probe != NULL;
                if (probe)
                    closedir(probe);
            }
            if (dir && depth.v[d] < MODULE_DEPTH_DOWN && !strlist_has(&dirs, p)) {
                strlist_push(a, &dirs, p);
                VEC_PUSH(a, &depth, depth.v[d] + 1);
            } else if (!dir && nl > 3 && !strcmp(e->d_name + nl - 3, ".tf")) {
                ms.files_left--;
                module_file(&ms, dirs.v[d], p);
            }
        }
        if (dh)
            closedir(dh);
    }
    /* a caller that passes its own variable gives that variable's default
     * (the root module's `variable "objects_table_name" { default = ... }`) */
    for (size_t i = 0; i < ms.passed.n; i++) {
        const char *v = NULL;
        for (size_t j = 0; j < ms.defaults.n && !v; j++)
            if (!strcmp(ms.defaults.v[j], ms.passed.v[i]))
                v = ms.default_vals.v[j];
        if (!v)
            return NULL; /* a value not known: the name is not either */
        if (!strlist_has(&ms.values, v))
            strlist_push(a, &ms.values, v);
    }
    if (ms.values.n == 1)
        return ms.values.v[0];
    return ms.values.n ? NULL : ms.fallback;
}

bool schema_read_terraform(Arena *a, const char *display, const char *fs_path,
                           const char *text, size_t len, TableSet *out, Problems *problems)
{
    SynFailure why;
    Arena *strings = arena_new();
    SynTree *syn = syn_parse(text, len, SYN_HCL, strings, &why);
    if (!syn) {
        problems_add(problems, display, 1, 1, "%s",
                     why == SYN_GAVE_UP ? "the parser gave up on this Terraform file"
                                        : "out of memory parsing this Terraform file");
        arena_free(strings);
        return false;
    }
    Tf t = {.a = a, .syn = syn, .path = display, .fs_path = fs_path, .out = out};
    size_t n = syn_node_count(syn), tables_from = out->tables.n;
    for (size_t i = 0; i < n; i++) {
        SynNode b = syn_node_at(syn, i);
        if (syn_is(b, "attribute") || syn_is(b, "object_elem")) {
            env_binding(&t, b);
            continue;
        }
        if (!syn_is(b, "block"))
            continue;
        SynNode kw = child_of_type(&t, b, "identifier", 0);
        const char *l0 = string_text(&t, child_of_type(&t, b, "string_lit", 0));
        const char *l1 = string_text(&t, child_of_type(&t, b, "string_lit", 1));
        if (syn_text_eq(syn, kw, "resource") && l0 && l1 &&
            !strcmp(l0, "aws_dynamodb_table")) {
            read_table(&t, b, arena_strdup(a, l1), false);
        } else if (syn_text_eq(syn, kw, "module") && l0) {
            const char *src =
                string_text(&t, body_attr(&t, child_of_type(&t, b, "body", 0), "source"));
            if (src && strstr(src, "dynamodb-table"))
                read_table(&t, b, arena_strdup(a, l0), true);
        }
    }
    /* index resources, once the file's tables are read */
    for (size_t i = 0; i < n; i++) {
        SynNode b = syn_node_at(syn, i);
        if (!syn_is(b, "block") ||
            !syn_text_eq(syn, child_of_type(&t, b, "identifier", 0), "resource"))
            continue;
        const char *l0 = string_text(&t, child_of_type(&t, b, "string_lit", 0));
        if (l0 && !strcmp(l0, "aws_dynamodb_global_secondary_index"))
            read_index_resource(&t, b, tables_from);
    }
    for (size_t i = 0; i < syn_region_count(syn); i++) {
        const Span *r = &syn_region_at(syn, i)->span;
        problems_add_kind(problems, PROBLEM_NOTE, display, r->start_row + 1, r->start_col + 1,
                          "syntax error, or syntax the parser does not know: lines %u-%u "
                          "not read (the rest of the file is)",
                          r->start_row + 1, r->end_row + 1);
    }
    /* the strings the tables keep were copied into `a` by string_text */
    syn_free(syn);
    arena_free(strings);
    return true;
}
