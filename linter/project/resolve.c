#include "resolve.h"

#include "modules.h"

#include "extract.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    MAX_RESOLVE_DEPTH = 12,
    /* functions a key string is followed through to the one that builds
     * the key (expand_forwarded) */
    MAX_FORWARD = 3,
    /* Resolver.left: segments that inlining constants and helpers may
     * make, this many and RESOLVE_PER_SEG more per segment extracted */
    RESOLVE_BUDGET = 1 << 16,
    RESOLVE_PER_SEG = 64,
};

typedef struct Resolver {
    ResolveFile *files;
    size_t n;
    ModuleMap *mods;
    Arena *scratch;          /* for this pass only */
    /* Work left for inlining (`const c2 = c1 + c1; const c3 = c2 + c2;`
     * doubles at each level): past it, names are left as they are. */
    size_t left;
} Resolver;

static void spend(Resolver *r, size_t n)
{
    r->left = r->left > n ? r->left - n : 0;
}

/* The budget of a project's resolution: proportional to what it holds. */
static size_t resolve_budget(const ResolveFile *files, size_t n)
{
    size_t segs = 0;
    for (size_t f = 0; f < n; f++) {
        const FileIR *ir = files[f].ir;
        for (size_t k = 0; k < ir->extracted.n; k++)
            segs += ir->extracted.v[k].segs.n;
        for (size_t c = 0; c < ir->consts.n; c++)
            segs += ir->consts.v[c].value.n;
        for (size_t h = 0; h < ir->helpers.n; h++)
            segs += ir->helpers.v[h].returns.n + ir->helpers.v[h].fields.n;
    }
    return segs < (SIZE_MAX - RESOLVE_BUDGET) / RESOLVE_PER_SEG
               ? RESOLVE_BUDGET + segs * RESOLVE_PER_SEG
               : SIZE_MAX;
}

typedef struct Found {
    size_t file;
    const ConstDef *c;
    const HelperDef *h;
} Found;

/* The project file an import names, or -1. */
static long resolve_module(const Resolver *r, size_t from, const char *spec)
{
    return modmap_resolve(r->mods, from, spec);
}

static Found lookup(const Resolver *r, size_t file, const char *name, int depth);

static Found lookup_local(const Resolver *r, size_t file, const char *name, bool exported_only)
{
    Found f = {.file = file};
    const FileIR *ir = r->files[file].ir;
    f.c = fileir_const(ir, name, exported_only);
    if (!f.c)
        f.h = fileir_helper(ir, name, exported_only);
    return f;
}

/* Split "Head.rest" at the first dot. */
static void split_head(const char *name, char *head, size_t cap, const char **rest)
{
    const char *dot = strchr(name, '.');
    size_t hl = dot ? (size_t)(dot - name) : strlen(name);
    if (hl >= cap)
        hl = cap - 1;
    memcpy(head, name, hl);
    head[hl] = '\0';
    *rest = dot ? dot + 1 : NULL;
}

static const char *join_name(char *buf, size_t cap, const char *a, const char *rest)
{
    if (rest)
        snprintf(buf, cap, "%s.%s", a, rest);
    else
        snprintf(buf, cap, "%s", a);
    return buf;
}

/* `name` as exported by module `file`. */
static Found lookup_export(const Resolver *r, size_t file, const char *name, int depth)
{
    Found none = {0};
    if (depth > MAX_RESOLVE_DEPTH)
        return none;
    Found f = lookup_local(r, file, name, true);
    if (f.c || f.h)
        return f;
    char head[256], buf[512];
    const char *rest;
    split_head(name, head, sizeof head, &rest);
    const FileIR *ir = r->files[file].ir;
    for (size_t i = 0; i < ir->reexports.n; i++) {
        const Import *e = &ir->reexports.v[i];
        if (!e->source[0]) {
            /* CommonJS `module.exports = a`: every name the module exports
             * is a member of `a` (its default is `a` itself) */
            if (!strcmp(e->local, "*")) {
                const char *sub = !strcmp(head, "default") ? rest : name;
                f = lookup(r, file, sub ? join_name(buf, sizeof buf, e->imported, sub) : e->imported,
                           depth + 1);
                if (f.c || f.h)
                    return f;
                continue;
            }
            /* export { a as b } / export default a: a local name; an
             * instance a property of an exported object holds
             * (`db.rateLimits`, toplevel.c): its members are the class's */
            size_t ll = strlen(e->local);
            if (!strncmp(name, e->local, ll) && (!name[ll] || name[ll] == '.')) {
                f = lookup(r, file,
                           join_name(buf, sizeof buf, e->imported, name[ll] ? name + ll + 1 : NULL),
                           depth + 1);
                if (f.c || f.h)
                    return f;
            }
            continue;
        }
        long t = resolve_module(r, file, e->source);
        if (t < 0)
            continue;
        if (!strcmp(e->local, "*") && !strcmp(e->imported, "*")) {
            f = lookup_export(r, (size_t)t, name, depth + 1);
        } else if (!strcmp(e->local, head)) {
            f = !strcmp(e->imported, "*") && rest
                    ? lookup_export(r, (size_t)t, rest, depth + 1)
                    : lookup_export(r, (size_t)t, join_name(buf, sizeof buf, e->imported, rest),
                                    depth + 1);
        }
        if (f.c || f.h)
            return f;
    }
    /* `export default` of a helper declared inline */
    if (!strcmp(name, "default"))
        return lookup_local(r, file, "default", false);
    return none;
}

/* `name` ("X" or "Obj.KEY") as seen from `file`. */
static Found lookup(const Resolver *r, size_t file, const char *name, int depth)
{
    Found none = {0};
    if (depth > MAX_RESOLVE_DEPTH)
        return none;
    Found f = lookup_local(r, file, name, false);
    if (f.c || f.h)
        return f;
    char buf[512];
    const char *rest = strchr(name, '.');
    rest = rest ? rest + 1 : NULL;
    const Import *im = fileir_import_head(r->files[file].ir, name);
    if (im) {
        long t = resolve_module(r, file, im->source);
        if (t < 0)
            return none;
        if (!strcmp(im->imported, "*"))
            return rest ? lookup_export(r, (size_t)t, rest, depth + 1) : none;
        return lookup_export(r, (size_t)t, join_name(buf, sizeof buf, im->imported, rest),
                             depth + 1);
    }
    return none;
}

/* ---- rewriting segments ------------------------------------------------ */

typedef struct Ctx {
    Resolver *r;
    Arena *a;           /* the arena of the file being resolved */
    const Config *cfg;  /* its configuration */
    FileIR *ir;         /* the file being resolved */
    KeyRole role;       /* of the key being resolved */
    NameMap uses;       /* its helper_uses, by use_key(file index, name) */
    int opaque;         /* inside the arguments of a call that is no helper */
} Ctx;

static Seg copy_seg(Ctx *c, const Seg *s)
{
    Seg o = *s;
    o.text = arena_strdup(c->a, s->text);
    o.name = arena_strdup(c->a, s->name);
    o.param = arena_strdup(c->a, s->param);
    o.fallback = arena_strdup(c->a, s->fallback);
    o.member = arena_strdup(c->a, s->member);
    o.args = NULL;
    o.nargs = 0;
    return o;
}

static void resolve_list(Ctx *c, size_t file, const SegList *in, SegList *out, int depth,
                         const HelperDef *h, const SegList *args, size_t nargs);
static void inline_helper(Ctx *c, const Seg *call, Found f, const SegList *body,
                          SegList *args, SegList *out, int depth);

static const char *last_component(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static bool is_tenant_name(const Config *cfg, const char *path)
{
    return strlist_has_ci(&cfg->tenant_names, last_component(path));
}

static void mark(Ctx *c, Seg *s)
{
    if (s->kind == SEG_REF && is_tenant_name(c->cfg, s->text))
        s->flags |= SEGF_TENANT;
    if (s->kind == SEG_TEXT && (s->flags & SEGF_CONST) &&
        strlist_has(&c->cfg->tenant_common, s->text))
        s->flags |= SEGF_TENANT | SEGF_COMMON_TENANT;
}

/* The key of c->uses: the file's index in 16 hex digits, then the name. */
static const char *use_key(Arena *a, size_t file, const char *name)
{
    size_t n = strlen(name);
    char *k = arena_alloc(a, 16 + n + 1);
    for (int i = 15; i >= 0; i--, file >>= 4)
        k[i] = "0123456789abcdef"[file & 15];
    memcpy(k + 16, name, n + 1);
    return k;
}

/* Note in the file's helper_uses that the key being resolved calls
 * helper `f` (once per helper, with the role of every key that does). */
static void mark_used(Ctx *c, Found f)
{
    const char *file = c->r->files[f.file].abspath;
    unsigned bit = 1u << c->role;
    const char *key = use_key(c->a, f.file, f.h->name);
    size_t at;
    if (namemap_get(&c->uses, key, &at)) {
        c->ir->helper_uses.v[at].roles |= bit;
        return;
    }
    namemap_put(c->a, &c->uses, key, c->ir->helper_uses.n);
    HelperUse u = {arena_strdup(c->a, file), arena_strdup(c->a, f.h->name), bit};
    VEC_PUSH(c->a, &c->ir->helper_uses, u);
}

/* The segments of a call's arguments, to tell the segments of an inlined
 * helper that came from them (the same text at the same place): by a
 * hash of text pointer and span, chained. */
typedef struct ArgSegs {
    NumMap first;      /* hash -> index in segs of the first with it */
    const Seg **segs;
    size_t *next;      /* the next with the same hash, SIZE_MAX: none */
} ArgSegs;

static uint64_t seg_place(const Seg *s)
{
    uint64_t h = hash_bytes(&s->span, sizeof s->span);
    return h ^ ((uint64_t)(uintptr_t)s->text * 0x9E3779B97F4A7C15u);
}

static void arg_segs(Arena *a, ArgSegs *as, const SegList *args, size_t nargs)
{
    size_t n = 0;
    for (size_t i = 0; i < nargs; i++)
        n += args[i].n;
    *as = (ArgSegs){.segs = arena_alloc(a, (n + 1) * sizeof *as->segs),
                    .next = arena_alloc(a, (n + 1) * sizeof *as->next)};
    size_t k = 0;
    for (size_t i = 0; i < nargs; i++)
        for (size_t j = 0; j < args[i].n; j++, k++) {
            as->segs[k] = &args[i].v[j];
            as->next[k] = SIZE_MAX;
            uint64_t h = seg_place(as->segs[k]);
            size_t at;
            if (nummap_get(&as->first, h, &at)) { /* after the first: order does not matter */
                as->next[k] = as->next[at];
                as->next[at] = k;
            } else {
                nummap_put(a, &as->first, h, k);
            }
        }
}

static bool from_args(const ArgSegs *as, const Seg *o)
{
    size_t k;
    if (!nummap_get(&as->first, seg_place(o), &k))
        return false;
    for (; k != SIZE_MAX; k = as->next[k])
        if (as->segs[k]->text == o->text && !memcmp(&as->segs[k]->span, &o->span, sizeof o->span))
            return true;
    return false;
}

/* The segments a helper call stands for: the helper's `body` (its returned
 * key, or one field of its returned object) resolved where the helper is
 * defined, its parameters replaced by the call's (resolved) arguments. The
 * helper's own text takes the call's position. */
static void inline_helper(Ctx *c, const Seg *call, Found f, const SegList *body,
                          SegList *args, SegList *out, int depth)
{
    if (c->opaque) { /* no key's text: the helper builds no key here */
        SegList res = {0};
        resolve_list(c, f.file, body, &res, depth + 1, f.h, args, call->nargs);
        spend(c->r, res.n + 1);
        for (size_t i = 0; i < res.n; i++)
            seglist_push(c->a, out, res.v[i]);
        return;
    }
    mark_used(c, f);
    const HelperCall *last = c->ir->helper_calls.n
                                 ? &c->ir->helper_calls.v[c->ir->helper_calls.n - 1] : NULL;
    const char *hpath = c->r->files[f.file].ir->path;
    if (!last || strcmp(last->name, f.h->name) || strcmp(last->path, hpath) ||
        memcmp(&last->span, &call->span, sizeof call->span)) {
        HelperCall hc = {arena_strdup(c->a, hpath), arena_strdup(c->a, f.h->name), call->span};
        VEC_PUSH(c->a, &c->ir->helper_calls, hc);
    }
    SegList res = {0};
    resolve_list(c, f.file, body, &res, depth + 1, f.h, args, call->nargs);
    spend(c->r, res.n + 1);
    ArgSegs as;
    arg_segs(c->a, &as, args, call->nargs);
    for (size_t i = 0; i < res.n; i++) {
        Seg o = res.v[i];
        if (!from_args(&as, &o)) {
            o.span = call->span;
            o.flags |= SEGF_HELPER;
            if (o.kind != SEG_TEXT || !(o.flags & SEGF_CONST))
                o.name = arena_strdup(c->a, f.h->name);
            o.flags &= ~(uint32_t)SEGF_PARAM;
        }
        seglist_push(c->a, out, o);
    }
}

/* The field `member` of the object helper `f` returns, when the helper
 * builds it (text or a call in it); NULL when none, or when the field
 * only passes on a value it read (`pk: item.PK?.S || ''`): then the
 * caller's `response.pk` is that value, as written. */
static const HelperField *helper_field(Found f, const char *member)
{
    if (!f.h)
        return NULL;
    for (size_t i = 0; i < f.h->fields.n; i++) {
        const HelperField *hf = &f.h->fields.v[i];
        if (strcmp(hf->attr, member))
            continue;
        for (size_t j = 0; j < hf->value.n; j++)
            if (hf->value.v[j].kind == SEG_TEXT || hf->value.v[j].kind == SEG_CALL)
                return hf;
        return NULL;
    }
    return NULL;
}

static void resolve_seg(Ctx *c, size_t file, const Seg *s, SegList *out, int depth,
                        const HelperDef *h, const SegList *hargs, size_t nargs)
{
    /* a helper's parameter: substitute the call's argument */
    size_t i;
    if (h && s->kind == SEG_REF && (s->flags & SEGF_PARAM) &&
        namemap_get(&h->param_names, s->text, &i) && i < nargs && hargs[i].n) {
        size_t from = out->n;
        for (size_t j = 0; j < hargs[i].n; j++) {
            seglist_push(c->a, out, hargs[i].v[j]);
            Seg *o = &out->v[out->n - 1];
            if (!(o->flags & SEGF_ARG)) { /* the outermost helper's parameter */
                o->flags |= SEGF_ARG;
                o->param = arena_strdup(c->a, h->params[i]);
            }
            /* `${tenantId || 'SYSTEM'}` in the helper: the argument's fallback */
            if (hargs[i].n == 1 && !o->fallback)
                o->fallback = s->fallback;
        }
        seglist_case(c->a, out, from, s->flags);
        return;
    }
    if (depth < MAX_RESOLVE_DEPTH && c->r->left && s->kind == SEG_REF &&
        !(s->flags & SEGF_PARAM)) {
        Found f = lookup(c->r, file, s->text, 0);
        if (f.c) {
            SegList v = {0};
            resolve_list(c, f.file, &f.c->value, &v, depth + 1, NULL, NULL, 0);
            spend(c->r, v.n + 1);
            bool all_text = v.n > 0;
            for (size_t i = 0; i < v.n; i++)
                if (v.v[i].kind != SEG_TEXT)
                    all_text = false;
            for (size_t i = 0; i < v.n; i++) {
                Seg o = v.v[i];
                if (o.kind == SEG_TEXT) {
                    /* text a constant inside this one holds whole keeps
                     * that constant's name (`${SEP}DATA`: '#' is SEP's);
                     * other text is this constant's, a part of it when
                     * its value has several segments */
                    bool inner = o.name && (o.flags & SEGF_CONST) && !(o.flags & SEGF_CONST_PART);
                    if (!inner && (!o.name || !(o.flags & SEGF_FRAMEWORK))) {
                        o.name = arena_strdup(c->a, s->text);
                        if (v.n > 1)
                            o.flags |= SEGF_CONST_PART;
                    }
                    o.flags |= SEGF_CONST;
                    if (all_text && v.n == 1 && !strcmp(o.text, c->cfg->separator))
                        o.flags |= SEGF_SEPARATOR;
                    if (all_text && v.n == 1 && !strcmp(o.text, c->cfg->version_separator) &&
                        strstr(s->text, "VER"))
                        o.flags |= SEGF_VERSION_SEP;
                    o.span = s->span;
                }
                mark(c, &o);
                seglist_push(c->a, out, o);
            }
            seglist_case(c->a, out, out->n - v.n, s->flags);
            return;
        }
    }
    if (s->kind == SEG_CALL) {
        Found f = {0};
        if (depth < MAX_RESOLVE_DEPTH && c->r->left && !(s->flags & SEGF_FRAMEWORK))
            f = lookup(c->r, file, s->text, 0);
        const HelperField *field = NULL;
        if (s->member) {
            field = helper_field(f, s->member);
            if (!field) { /* no helper's field: the value as written */
                Seg as = {.kind = SEG_REF, .text = s->name, .span = s->span,
                          .flags = s->flags & (SEGF_UPPERCASE | SEGF_LOWERCASE)};
                resolve_seg(c, file, &as, out, depth, h, hargs, nargs);
                return;
            }
        }
        /* arguments first, in this file's context; those of a call that
         * stays a value of its own (`hashKey(generateRawKey())`) are no
         * part of the key's text: a helper they call builds no key */
        bool opaque = !(f.h && f.h->returns.n) && !field;
        c->opaque += opaque;
        SegList *args = NULL;
        if (s->nargs) {
            args = arena_alloc(c->a, s->nargs * sizeof *args);
            for (size_t i = 0; i < s->nargs; i++)
                resolve_list(c, file, &s->args[i], &args[i], depth + 1, h, hargs, nargs);
        }
        c->opaque -= opaque;
        if (field) {
            inline_helper(c, s, f, &field->value, args, out, depth);
            return;
        }
        if (f.h && f.h->returns.n) {
            inline_helper(c, s, f, &f.h->returns, args, out, depth);
            return;
        }
        Seg o = copy_seg(c, s);
        o.args = args;
        o.nargs = s->nargs;
        seglist_push(c->a, out, o);
        return;
    }
    Seg o = copy_seg(c, s);
    mark(c, &o);
    seglist_push(c->a, out, o);
}

static void resolve_list(Ctx *c, size_t file, const SegList *in, SegList *out, int depth,
                         const HelperDef *h, const SegList *args, size_t nargs)
{
    if (depth > MAX_RESOLVE_DEPTH) {
        for (size_t i = 0; i < in->n; i++) {
            Seg o = copy_seg(c, &in->v[i]);
            seglist_push(c->a, out, o);
        }
        return;
    }
    for (size_t i = 0; i < in->n; i++)
        resolve_seg(c, file, &in->v[i], out, depth, h, args, nargs);
}

/* A computed attribute name (`[Keys.PK]: ...`): its constant's text is the
 * attribute. An object property that is not a key attribute is no key; a
 * key condition's attribute keeps the role its position gave it. */
static bool settle_attr(Ctx *c, size_t file, KeyExpr *k)
{
    Found f = lookup(c->r, file, k->attr_const, 0);
    const char *name = NULL;
    if (f.c) {
        SegList v = {0};
        resolve_list(c, f.file, &f.c->value, &v, 1, NULL, NULL, 0);
        if (v.n == 1 && v.v[0].kind == SEG_TEXT)
            name = v.v[0].text;
    }
    int role = key_role_for_name(c->cfg, name);
    if (role < 0 && name) /* SK_NAME = 'sort_key': the constant's name says it */
        role = key_role_for_const_name(c->cfg, k->attr_const);
    if (k->site == SITE_CONDITION) {
        if (name)
            k->attr = name;
        if (role >= 0)
            k->role = (KeyRole)role;
        return true;
    }
    if (role < 0)
        return false;
    k->attr = name;
    k->role = (KeyRole)role;
    return true;
}

/* `...gsiKeys(e, id)`: one key per attribute of the object the helper
 * returns, at the spread. */
static void expand_spread(Ctx *c, size_t file, const KeyExpr *k, KeyExprList *keys)
{
    const Seg *call = &k->segs.v[0];
    Found f = lookup(c->r, file, call->text, 0);
    if (!f.h || !f.h->fields.n)
        return;
    SegList *args = NULL;
    if (call->nargs) {
        args = arena_alloc(c->a, call->nargs * sizeof *args);
        for (size_t i = 0; i < call->nargs; i++)
            resolve_list(c, file, &call->args[i], &args[i], 1, NULL, NULL, 0);
    }
    for (size_t i = 0; i < f.h->fields.n; i++) {
        const HelperField *hf = &f.h->fields.v[i];
        KeyExpr out = *k;
        out.spread = false;
        out.attr = arena_strdup(c->a, hf->attr);
        out.role = key_role_for_name(c->cfg, hf->attr) >= 0
                       ? (KeyRole)key_role_for_name(c->cfg, hf->attr)
                       : hf->role;
        memset(&out.segs, 0, sizeof out.segs);
        inline_helper(c, call, f, &hf->value, args, &out.segs, 1);
        VEC_PUSH(c->a, keys, out);
    }
}

static bool settle_attr(Ctx *c, size_t file, KeyExpr *k);

/* The function `name` called from `file`, with `this.method` found on its
 * class's entry (Class.method) when the method's own entry says nothing. */
static Found lookup_function(Ctx *c, size_t file, const char *name, bool sinks)
{
    Found f = lookup(c->r, file, name, 0);
    if (!f.h || strncmp(f.h->name, "this.", 5) || (sinks ? f.h->sinks.n : f.h->param_uses.n))
        return f;
    const HelperDef *h = f.h;
    for (size_t i = 0; i < c->r->files[f.file].ir->helpers.n; i++) {
        const HelperDef *o = &c->r->files[f.file].ir->helpers.v[i];
        const char *dot = strrchr(o->name, '.');
        if ((sinks ? o->sinks.n : o->param_uses.n) && dot && !strcmp(dot + 1, h->name + 5))
            f.h = o;
    }
    return f;
}

/* A key of an object handed to `reset(table, { PK, SK })`: written (read)
 * when reset's parameter reaches a data operation's Item (Key), itself or
 * handed on through further functions. SITE_OBJECT when it does not. */
static KeySite arg_site(Ctx *c, size_t file, const char *callee, unsigned arg)
{
    for (int depth = 0; depth < MAX_RESOLVE_DEPTH && callee; depth++) {
        Found f = lookup_function(c, file, callee, false);
        if (!f.h)
            return SITE_OBJECT;
        callee = NULL;
        for (size_t i = 0; i < f.h->param_uses.n; i++) {
            const ParamUse *u = &f.h->param_uses.v[i];
            if (u->param != arg)
                continue;
            if (!u->callee)
                return u->site;
            if (!callee) { /* the first function it is handed to */
                callee = u->callee;
                arg = u->arg;
                file = f.file;
            }
        }
    }
    return SITE_OBJECT;
}

/* The keys `f`'s sinks build with a call's (resolved) arguments, at the
 * call (only those an argument of the call ends up in). */
static void expand_sinks(Ctx *c, const KeyExpr *k, const Seg *call, Found f, SegList *args,
                         KeyExprList *keys)
{
    for (size_t i = 0; i < f.h->sinks.n; i++) {
        const KeyExpr *sink = &f.h->sinks.v[i];
        KeyExpr out = *sink;
        if (out.attr_const && !settle_attr(c, f.file, &out))
            continue;
        out.span = k->span;
        out.op = -1;
        out.via = NULL;
        memset(&out.segs, 0, sizeof out.segs);
        inline_helper(c, call, f, &sink->segs, args, &out.segs, 1);
        bool from_caller = false;
        for (size_t j = 0; j < out.segs.n; j++)
            if (!(out.segs.v[j].flags & SEGF_HELPER))
                from_caller = true;
        if (from_caller)
            VEC_PUSH(c->a, keys, out);
    }
}

/* Whether segments `l` read parameter `name` (itself or a member of it,
 * also inside a call's arguments). */
static bool segs_read_param(const SegList *l, const char *name, int depth)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        if (s->kind == SEG_REF && (s->flags & SEGF_PARAM) && !strncmp(s->text, name, n) &&
            (!s->text[n] || s->text[n] == '.'))
            return true;
        for (size_t j = 0; s->kind == SEG_CALL && depth < MAX_RESOLVE_DEPTH && j < s->nargs; j++)
            if (segs_read_param(&s->args[j], name, depth + 1))
                return true;
    }
    return false;
}

/* Whether parameter `param` of `f` ends up in a key one of f's sinks
 * builds, itself or handed on through at most MAX_FORWARD - depth more
 * functions (each by the first function of its name: lookup_function). */
static bool param_reaches_sink(Ctx *c, Found f, size_t param, int depth)
{
    if (param >= f.h->nparams)
        return false;
    for (size_t i = 0; i < f.h->sinks.n; i++)
        if (segs_read_param(&f.h->sinks.v[i].segs, f.h->params[param], 0))
            return true;
    if (f.h->sinks.n || depth >= MAX_FORWARD)
        return false;
    for (size_t i = 0; i < f.h->param_uses.n; i++) {
        const ParamUse *u = &f.h->param_uses.v[i];
        if (u->param != param || !u->callee)
            continue;
        Found to = lookup_function(c, f.file, u->callee, true);
        if (to.h && to.h != f.h && param_reaches_sink(c, to, u->arg, depth + 1))
            return true;
    }
    return false;
}

/* A function without sinks of its own that hands its parameters on
 * (`getIndexOutput(table, key, db)` calling `db.getOutputValue(table,
 * key)`): the keys of each function it hands them to, with the call's
 * arguments put where that function takes them; `depth` functions deep. */
static void expand_forwarded(Ctx *c, const KeyExpr *k, const Seg *call, Found f, SegList *args,
                             KeyExprList *keys, int depth)
{
    if (f.h->sinks.n) {
        expand_sinks(c, k, call, f, args, keys);
        return;
    }
    if (depth >= MAX_FORWARD)
        return;
    const ParamUse *uses = f.h->param_uses.v;
    size_t nuses = f.h->param_uses.n;
    for (size_t i = 0; i < nuses; i++) {
        const char *callee = uses[i].callee;
        bool seen = !callee;
        for (size_t j = 0; j < i && !seen; j++)
            seen = uses[j].callee && !strcmp(uses[j].callee, callee);
        if (seen)
            continue;
        /* the callee's arguments: the call's, where this function hands
         * its parameters on to it */
        unsigned n = 0;
        bool any = false;
        for (size_t j = i; j < nuses; j++)
            if (uses[j].callee && !strcmp(uses[j].callee, callee) && uses[j].arg < 16) {
                n = uses[j].arg + 1 > n ? uses[j].arg + 1 : n;
                any |= uses[j].param < call->nargs && args[uses[j].param].n;
            }
        Found to = any ? lookup_function(c, f.file, callee, true) : (Found){0};
        if (!to.h || to.h == f.h)
            continue;
        SegList *inner = arena_alloc(c->a, n * sizeof *inner);
        memset(inner, 0, n * sizeof *inner);
        for (size_t j = i; j < nuses; j++) {
            const ParamUse *u = &uses[j];
            if (u->callee && !strcmp(u->callee, callee) && u->arg < n && u->param < call->nargs)
                inner[u->arg] = args[u->param];
        }
        Seg at = *call;
        at.nargs = n;
        expand_forwarded(c, k, &at, to, inner, keys, depth + 1);
    }
}

/* `save('ORDER#', id)` where save() builds `pk: ${prefix}${id}`: the key
 * as this call builds it, at the call (only when an argument of the call
 * ends up in it), also when save hands them on to the function that
 * builds it. Only the arguments that end up in a key are resolved (a
 * helper called in another one is no key helper). */
static void expand_call_site(Ctx *c, size_t file, const KeyExpr *k, KeyExprList *keys)
{
    const Seg *call = &k->segs.v[0];
    Found f = lookup_function(c, file, call->text, true);
    if (!f.h || (!f.h->sinks.n && !f.h->param_uses.n) || !call->nargs)
        return;
    SegList *args = arena_alloc(c->a, call->nargs * sizeof *args);
    memset(args, 0, call->nargs * sizeof *args);
    bool any = false;
    for (size_t i = 0; i < call->nargs; i++)
        if (param_reaches_sink(c, f, i, 0)) {
            resolve_list(c, file, &call->args[i], &args[i], 1, NULL, NULL, 0);
            any = true;
        }
    if (any)
        expand_forwarded(c, k, call, f, args, keys, 0);
}

/* ---- tables ------------------------------------------------------------ */

static TableKind table_kind_for(const Config *cfg, const char *name)
{
    if (strlist_has(&cfg->history_tables, name))
        return TABLE_HISTORY;
    if (strlist_has(&cfg->command_tables, name))
        return TABLE_COMMAND;
    if (strlist_has(&cfg->data_tables, name))
        return TABLE_DATA;
    size_t n = strlen(name);
    for (size_t i = 0; i + 7 <= n; i++) {
        if (!strncasecmp(name + i, "history", 7))
            return TABLE_HISTORY;
        if (!strncasecmp(name + i, "command", 7))
            return TABLE_COMMAND;
    }
    return TABLE_UNKNOWN;
}

static void resolve_table(Ctx *c, size_t file, DataOp *op)
{
    op->table_kind = api_table_kind(op->api);
    op->table_value = NULL;
    if (!op->table)
        return;
    const char *name = op->table;
    if (!op->table_literal) {
        Found f = lookup(c->r, file, name, 0);
        if (f.c) {
            SegList v = {0};
            resolve_list(c, f.file, &f.c->value, &v, 1, NULL, NULL, 0);
            if (v.n == 1 && v.v[0].kind == SEG_TEXT)
                name = op->table_value = v.v[0].text;
        }
    }
    if (op->table_kind != TABLE_UNKNOWN)
        return;
    op->table_kind = table_kind_for(c->cfg, name);
    if (op->table_kind == TABLE_UNKNOWN && name != op->table)
        op->table_kind = table_kind_for(c->cfg, op->table);
}

static int use_cmp(const void *x, const void *y)
{
    const HelperUse *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    return c ? c : strcmp(a->name, b->name);
}

/* Whether a helper is called by some key, and the roles of those keys. */
static bool use_listed(const HelperUse *uses, size_t n, const char *file, const char *name,
                       unsigned *roles)
{
    HelperUse key = {file, name, 0};
    const HelperUse *hit = n ? bsearch(&key, uses, n, sizeof *uses, use_cmp) : NULL;
    if (!hit)
        return false;
    size_t i = (size_t)(hit - uses);
    while (i > 0 && !use_cmp(&uses[i - 1], &key))
        i--;
    for (; i < n && !use_cmp(&uses[i], &key); i++)
        *roles |= uses[i].roles;
    return true;
}

/* A helper's role is guessed from its name (`orderPk`, `TenantPK.ORDER`);
 * where it is used says more: a helper whose callers put it only in sort
 * keys builds sort keys, whatever its name. */
static KeyRole role_from_uses(KeyRole named, unsigned roles)
{
    unsigned keys = roles & ((1u << ROLE_PK) | (1u << ROLE_SK) | (1u << ROLE_INDEX_PK) |
                             (1u << ROLE_INDEX_SK));
    if (named == ROLE_KEY || !keys || (keys & (1u << named)))
        return named;
    for (KeyRole r = ROLE_PK; r <= ROLE_INDEX_SK; r++)
        if (keys == 1u << r)
            return r;
    return ROLE_KEY; /* used in several roles, none of them its name's */
}

void resolve_drop_unused_helpers(ResolveFile *files, size_t n, FileIR *const *all, size_t nall)
{
    size_t nuses = 0;
    for (size_t f = 0; f < nall; f++)
        nuses += all[f]->helper_uses.n;
    HelperUse *uses = malloc((nuses ? nuses : 1) * sizeof *uses);
    if (!uses)
        abort();
    size_t u = 0;
    for (size_t f = 0; f < nall; f++)
        for (size_t i = 0; i < all[f]->helper_uses.n; i++)
            uses[u++] = all[f]->helper_uses.v[i];
    qsort(uses, nuses, sizeof *uses, use_cmp);
    char buf[512];
    for (size_t f = 0; f < n; f++) {
        KeyExprList *keys = &files[f].ir->keys;
        const char *path = files[f].abspath;
        size_t w = 0;
        for (size_t k = 0; k < keys->n; k++) {
            const KeyExpr *ke = &keys->v[k];
            unsigned roles = 0;
            if (ke->site == SITE_HELPER && ke->attr) {
                bool used = use_listed(uses, nuses, path, ke->attr, &roles);
                /* Class.method is also called as this.method inside the class */
                const char *dot = strrchr(ke->attr, '.');
                if (dot && snprintf(buf, sizeof buf, "this.%s", dot + 1) < (int)sizeof buf)
                    used |= use_listed(uses, nuses, path, buf, &roles);
                if (!used)
                    continue;
            }
            keys->v[w] = keys->v[k];
            if (ke->site == SITE_HELPER) {
                keys->v[w].role = role_from_uses(ke->role, roles);
                keys->v[w].no_key_use =
                    !(roles & ((1u << ROLE_PK) | (1u << ROLE_SK) | (1u << ROLE_INDEX_PK) |
                               (1u << ROLE_INDEX_SK)));
            }
            w++;
        }
        keys->n = w;
    }
    free(uses);
}

/* `SET #space = :space` with `:space` being `parameters.space` while the
 * whole Key is the record's (`{ pk: parameters.pk, sk: parameters.sk }`):
 * the value is the attribute of that name of the record the key is read
 * from, which the key was made of (an upsert of a record: `encode(input)`
 * gave its keys and its attributes). */
static bool same_record(const FileIR *ir, const char *attr, const Seg *val, size_t op)
{
    const char *dot = val->kind == SEG_REF && val->text ? strchr(val->text, '.') : NULL;
    if (!dot || strchr(dot + 1, '.') || strcmp(dot + 1, attr))
        return false;
    size_t obj = (size_t)(dot - val->text), nkeys = 0;
    for (size_t k = 0; k < ir->keys.n; k++) {
        const KeyExpr *key = &ir->keys.v[k];
        if (key->op < 0 || (size_t)key->op != op ||
            (key->role != ROLE_PK && key->role != ROLE_SK))
            continue;
        const Seg *s = key->segs.n == 1 ? &key->segs.v[0] : NULL;
        if (!s || s->kind != SEG_REF || !s->text || strncmp(s->text, val->text, obj + 1) ||
            strchr(s->text + obj + 1, '.'))
            return false;
        nkeys++;
    }
    return nkeys > 0;
}

/* Whether the value `val` (one segment, as extraction read it) that
 * operation `op` SETs is one its own key holds once resolved: its
 * partition or sort key, or an attribute of its Key map (`Key:
 * newsSourceKey(symbol, hour, source)` whose helper spells
 * `AGG#NEWS_SOURCE#` with `SET #type = 'NEWS_SOURCE'`). */
static bool key_holds(Ctx *c, size_t file, const char *attr, const Seg *val, size_t op)
{
    if (val->kind == SEG_UNKNOWN)
        return false;
    if (same_record(c->ir, attr, val, op))
        return true;
    /* a constant's text is compared with the key's (a call is not
     * inlined: that would count it among the file's helper calls) */
    SegList in = {.v = (Seg *)val, .n = 1, .cap = 1}, out = {0};
    if (val->kind == SEG_REF)
        resolve_list(c, file, &in, &out, 0, NULL, NULL, 0);
    else
        out = in;
    if (out.n != 1)
        return false;
    const FileIR *ir = c->ir;
    for (size_t k = 0; k < ir->keys.n; k++) {
        const KeyExpr *key = &ir->keys.v[k];
        if (key->op < 0 || (size_t)key->op != op ||
            (key->role != ROLE_PK && key->role != ROLE_SK &&
             !(key->role == ROLE_KEY && key->site == SITE_READ)))
            continue;
        for (size_t j = 0; j < key->segs.n; j++)
            if (seg_holds_value(&key->segs.v[j], &out.v[0]))
                return true;
    }
    return false;
}

/* The attributes each operation of the file moves (FileIR.op_sets): those
 * its UpdateExpression SETs to another value than its key holds. */
static StrList *op_sets(Ctx *c, size_t file)
{
    const FileIR *ir = c->ir;
    StrList *l = arena_alloc(c->a, ir->ops.n * sizeof *l);
    memset(l, 0, ir->ops.n * sizeof *l);
    for (size_t o = 0; o < ir->ops.n; o++) {
        const DataOp *op = &ir->ops.v[o];
        for (size_t j = 0; j < op->sets.n; j++)
            if (j >= op->set_values.n ||
                !key_holds(c, file, op->sets.v[j], &op->set_values.v[j], o))
                strlist_push(c->a, &l[o], op->sets.v[j]);
    }
    return l;
}

void resolve_project(ResolveFile *files, size_t n)
{
    resolve_project_some(files, n, n);
}

void resolve_project_some(ResolveFile *files, size_t n, size_t nresolve)
{
    resolve_project_in(files, n, nresolve, NULL);
}

void resolve_project_in(ResolveFile *files, size_t n, size_t nresolve, ModuleEnv *env)
{
    Resolver r = {.files = files, .n = n, .left = resolve_budget(files, n)};
    const char **paths = calloc(n ? n : 1, sizeof *paths);
    if (!paths)
        abort();
    for (size_t i = 0; i < n; i++)
        paths[i] = files[i].abspath;
    r.mods = modmap_new_in(paths, n, env);
    r.scratch = arena_new();

    /* Every file's keys are resolved from what extraction saw (raw), into
     * a fresh arena of the file's; other files' lookups read only the
     * constant and helper definitions, which resolution never changes. */
    for (size_t f = 0; f < nresolve && f < n; f++) {
        FileIR *ir = files[f].ir;
        arena_free(ir->resolved);
        ir->resolved = arena_new();
        ir->access_part = NULL;
        ir->access_stamp = 0;
        ir->facts_part = NULL;
        Ctx c = {.r = &r, .a = ir->resolved, .cfg = files[f].config, .ir = ir, .role = ROLE_KEY};
        memset(&ir->keys, 0, sizeof ir->keys);
        memset(&ir->helper_uses, 0, sizeof ir->helper_uses);
        memset(&ir->helper_calls, 0, sizeof ir->helper_calls);
        for (size_t k = 0; k < ir->extracted.n; k++) {
            KeyExpr ke = ir->extracted.v[k];
            c.role = ke.role;
            if (ke.spread) {
                expand_spread(&c, f, &ke, &ir->keys);
                continue;
            }
            if (ke.call_site) {
                expand_call_site(&c, f, &ke, &ir->keys);
                continue;
            }
            if (ke.attr_const && !settle_attr(&c, f, &ke))
                continue;
            if (ke.arg_of && ke.site == SITE_OBJECT) {
                ke.site = arg_site(&c, f, ke.arg_of, ke.arg_index);
                /* a typed attribute map handed to a function that does
                 * not read or write it as a Key or Item: no key */
                if (ke.site == SITE_OBJECT && ke.named_by == NAMED_KEY_MAP && ke.op < 0)
                    continue;
            }
            SegList out = {0};
            resolve_list(&c, f, &ir->extracted.v[k].segs, &out, 0, NULL, NULL, 0);
            ke.segs = out;
            VEC_PUSH(ir->resolved, &ir->keys, ke);
        }
        /* items put through a project function (`this.putItem(item)`) */
        ir->puts_by_call = false;
        for (size_t i = 0; i < ir->item_calls.n && !ir->puts_by_call; i++)
            ir->puts_by_call =
                arg_site(&c, f, ir->item_calls.v[i].callee, ir->item_calls.v[i].arg) == SITE_WRITE;
        for (size_t o = 0; o < ir->ops.n; o++)
            resolve_table(&c, f, &ir->ops.v[o]);
        ir->op_sets = NULL;
        for (size_t o = 0; o < ir->ops.n && !ir->op_sets; o++)
            if (ir->ops.v[o].sets.n)
                ir->op_sets = op_sets(&c, f);
    }
    modmap_free(r.mods);
    arena_free(r.scratch);
    free(paths);
}
