/* Extraction, module level: imports, re-exports, module constants, enums
 * and `as const` objects, and key helpers (functions, object members and
 * class methods that build keys). The first pass of extract.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "extract_int.h"
#include "scope.h"
#include "syntax.h"

#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static bool is(SynNode n, const char *type) { return syn_is(n, type); }
/* ---- module level: imports, constants, helpers ------------------------- */

static void import_statement(Ex *x, SynNode n)
{
    SynNode srcn = field(n, "source");
    const char *src;
    if (!ex_string_value(x, srcn, &src))
        return;
    SynNode clause = syn_child(x->syn, n, 0);
    if (!is(clause, "import_clause"))
        return;
    uint32_t cnt = syn_count(x->syn, clause);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(x->syn, clause, i);
        if (is(c, "identifier")) {
            Import im = {ex_ntext(x, c), "default", src};
            fileir_add_import(x->ir, im);
        } else if (is(c, "namespace_import")) {
            Import im = {ex_ntext(x, syn_child(x->syn, c, 0)), "*", src};
            fileir_add_import(x->ir, im);
        } else if (is(c, "named_imports")) {
            for (uint32_t j = 0; j < syn_count(x->syn, c); j++) {
                SynNode sp = syn_child(x->syn, c, j);
                if (!is(sp, "import_specifier"))
                    continue;
                SynNode name = field(sp, "name"), alias = field(sp, "alias");
                const char *nm;
                if (!ex_string_value(x, name, &nm))
                    nm = ex_ntext(x, name);
                Import im = {syn_null(alias) ? nm : ex_ntext(x, alias), nm, src};
                fileir_add_import(x->ir, im);
            }
        }
    }
}

static void reexport(Ex *x, SynNode n)
{
    SynNode srcn = field(n, "source");
    const char *src;
    if (syn_null(srcn) || !ex_string_value(x, srcn, &src))
        return;
    SynNode clause = syn_child(x->syn, n, 0);
    if (is(clause, "export_clause")) {
        for (uint32_t j = 0; j < syn_count(x->syn, clause); j++) {
            SynNode sp = syn_child(x->syn, clause, j);
            SynNode name = field(sp, "name"), alias = field(sp, "alias");
            const char *nm = ex_ntext(x, name);
            Import im = {syn_null(alias) ? nm : ex_ntext(x, alias), nm, src};
            VEC_PUSH(x->a, &x->ir->reexports, im);
        }
    } else {
        Import im = {"*", "*", src};
        if (is(clause, "namespace_export"))
            im.local = ex_ntext(x, syn_child(x->syn, clause, 0));
        VEC_PUSH(x->a, &x->ir->reexports, im);
    }
}

static void add_const(Ex *x, const char *name, SynNode value, bool exported, bool fixed)
{
    ConstDef c = {.name = name, .exported = exported, .fixed = fixed, .span = syn_span(value)};
    ex_expr_segs(x, value, &c.value, 0);
    fileir_add_const(x->ir, c);
}

/* Does object literal `obj` hold a spread or a computed key, or property
 * `name` more than once? Then a member's value at run time may not be
 * the one written. */
static bool object_open(Ex *x, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i), computed;
        if (is(p, "spread_element") ||
            (is(p, "pair") && !syn_prop_name(x->syn, p, &computed) && !syn_null(computed)))
            return true;
    }
    return false;
}

static bool written_twice(Ex *x, SynNode obj, const char *name)
{
    uint32_t cnt = syn_count(x->syn, obj), seen = 0;
    for (uint32_t i = 0; i < cnt && seen < 2; i++) {
        SynNode p = syn_child(x->syn, obj, i), computed;
        const char *pn = syn_prop_name(x->syn, p, &computed);
        if (!pn && is(p, "method_definition"))
            pn = ex_ntext(x, field(p, "name"));
        seen += pn && !strcmp(pn, name);
    }
    return seen > 1;
}

/* `as const` objects (and plain objects) of strings, nested: "Obj.a.b".
 * `fixed`: the object is held by a `const` (ConstDef.fixed). */
static void object_consts(Ex *x, const char *prefix, SynNode obj, bool exported, int depth,
                          bool fixed)
{
    if (depth > 4)
        return;
    uint32_t cnt = syn_count(x->syn, obj);
    fixed = fixed && !object_open(x, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (!is(p, "pair"))
            continue;
        const char *pn = ex_prop_name(x, p);
        /* `{ ':sk': 'PRO#' }`, `{ '#n': 'name' }`: a request's expression
         * values and names, not constants (module-level params objects) */
        if (!pn || pn[0] == ':' || pn[0] == '#')
            continue;
        const char *name = arena_dot(x->a, prefix, pn);
        SynNode v = unwrap(field(p, "value"));
        bool member_fixed = fixed && !written_twice(x, obj, pn);
        if (is(v, "string") || is(v, "template_string") || is(v, "binary_expression"))
            add_const(x, name, v, exported, member_fixed);
        else if (is(v, "object"))
            object_consts(x, name, v, exported, depth + 1, member_fixed);
    }
}

static void enum_declaration(Ex *x, SynNode n, bool exported)
{
    const char *ename = ex_ntext(x, field(n, "name"));
    SynNode body = field(n, "body");
    uint32_t cnt = syn_count(x->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode m = syn_child(x->syn, body, i);
        if (!is(m, "enum_assignment"))
            continue;
        SynNode v = unwrap(field(m, "value"));
        if (!is(v, "string") && !is(v, "template_string"))
            continue;
        const char *mn = ex_ntext(x, field(m, "name"));
        const char *s;
        if (ex_string_value(x, field(m, "name"), &s))
            mn = s;
        add_const(x, arena_dot(x->a, ename, mn), v, exported, true);
    }
}

static KeyRole role_from_helper_name(const char *name)
{
    bool index = ex_name_has_word(name, "gsi") || ex_name_has_word(name, "lsi") ||
                 ex_name_has_word(name, "index");
    if (ex_name_has_word(name, "pk") || ex_name_has_word(name, "partition") ||
        ex_name_has_word(name, "hash"))
        return index ? ROLE_INDEX_PK : ROLE_PK;
    if (ex_name_has_word(name, "sk") || ex_name_has_word(name, "sort") ||
        ex_name_has_word(name, "range"))
        return index ? ROLE_INDEX_SK : ROLE_SK;
    return ROLE_KEY;
}

/* Does a returned value look like a key? Keys have no whitespace; they
 * carry the separator, a separator constant, a framework key, or are
 * returned by a function whose name says key. */
/* An array a function returns is read as a key (Turbine joins arrays with
 * the separator) only when it says what it holds: a text element
 * (`['USER', id]`) or a constant (`[ORDER_PREFIX, id]`, `[Prefix.USER,
 * id]`). The element between which the join puts the separator is not
 * one. */
static bool array_labelled(const SegList *segs)
{
    for (size_t i = 0; i < segs->n; i++) {
        const Seg *s = &segs->v[i];
        if (s->kind == SEG_TEXT && !(s->flags & SEGF_ARRAY_JOIN) && s->text[0])
            return true;
        if (s->kind == SEG_REF) {
            const char *base = strrchr(s->text, '.');
            base = base ? base + 1 : s->text;
            bool upper = isupper((unsigned char)base[0]), lower = false;
            for (const char *p = base; *p; p++)
                lower |= islower((unsigned char)*p) != 0;
            if (upper && !lower)
                return true; /* ORDER_PREFIX, Prefix.USER */
            if (upper && base != s->text && isupper((unsigned char)s->text[0]))
                return true; /* Prefix.User, EntityType.Order */
        }
    }
    return false;
}

static bool key_shaped(Ex *x, const SegList *segs, KeyBuild build, const char *fname)
{
    if (build == BUILD_OTHER || build == BUILD_REF || segs->n == 0)
        return false;
    /* an S3 object key (`s3Key`, `thumbnailS3Key`, `s3_key`): a path in a
     * bucket, not a DynamoDB key */
    if (strstr(fname, "S3") || strstr(fname, "s3Key") || strstr(fname, "s3_key"))
        return false;
    bool text = false, hole = false, sep = false;
    char sepc = x->cfg->separator[0];
    for (size_t i = 0; i < segs->n; i++) {
        const Seg *s = &segs->v[i];
        if (s->kind == SEG_TEXT) {
            for (const char *p = s->text; *p; p++)
                if (isspace((unsigned char)*p))
                    return false;
            text = true;
            if (strchr(s->text, sepc) || (s->flags & SEGF_SEPARATOR))
                sep = true;
        } else {
            hole = true;
            if (s->kind == SEG_REF && (strstr(s->text, "SEPARATOR") || strstr(s->text, "PREFIX")))
                sep = true;
            if (s->kind == SEG_CALL && (s->flags & SEGF_FRAMEWORK))
                sep = true;
        }
    }
    bool keyish = ex_name_has_word(fname, "pk") || ex_name_has_word(fname, "sk") ||
                  ex_name_has_word(fname, "key") || ex_name_has_word(fname, "keys");
    if (build == BUILD_LITERAL) /* a key function returning a constant key */
        return keyish;
    if (build == BUILD_ARRAY && !keyish && !array_labelled(segs))
        return false; /* `return [value, setValue]`: a tuple, not a key */
    if (sep && (hole || build == BUILD_JOIN))
        return true;
    return keyish && text && hole;
}

/* The key attributes of an object a helper returns. */
static bool object_fields(Ex *x, SynNode obj, HelperDef *h)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        const char *name = ex_prop_name(x, p);
        int role = key_role_for_name(x->cfg, name);
        SynNode v = unwrap(syn_prop_value(x->syn, p));
        if (role < 0 || syn_null(v) || !ex_value_can_be_key(x, v) || is(v, "object"))
            continue;
        HelperField f = {.attr = name, .role = (KeyRole)role};
        if (is(p, "shorthand_property_identifier"))
            ex_ref_segs(x, p, &f.value, 0);
        else
            ex_expr_segs(x, v, &f.value, 0);
        VEC_PUSH(x->a, &h->fields, f);
    }
    return h->fields.n > 0;
}

/* Nothing: an empty text, `undefined` or `null`. */
static bool no_value(Ex *x, SynNode e)
{
    const char *text;
    e = unwrap(e);
    return is(e, "undefined") || is(e, "null") ||
           (is(e, "identifier") && ex_text_eq(x, e, "undefined")) ||
           (ex_string_value(x, e, &text) && !text[0]);
}

/* `id ? `ORDER#${id}` : ''`: the value returned when there is one (either
 * branch, the other being nothing), else `e` itself. */
static SynNode guarded_value(Ex *x, SynNode e)
{
    SynNode t = unwrap(e);
    if (!is(t, "ternary_expression"))
        return e;
    SynNode yes = field(t, "consequence"), no = field(t, "alternative");
    if (no_value(x, no) && !no_value(x, yes))
        return yes;
    if (no_value(x, yes) && !no_value(x, no))
        return no;
    return e;
}

/* The expression a function returns, if it returns one key-shaped value:
 * an arrow's expression body or the first key-shaped `return` (an empty
 * text returned by a guard is none, and so is the empty branch of a
 * conditional: `return id ? `ORDER#${id}` : ''`). */
static void helper_function(Ex *x, const char *name, SynNode fn, bool exported)
{
    SynNode body = field(fn, "body");
    if (syn_null(body))
        return;
    SynNode ret = {0};
    if (!is(body, "statement_block")) {
        ret = guarded_value(x, body);
    } else {
        /* the first key-shaped return (an object or text), else the first call */
        ReturnWalk w = ex_return_walk(x, body);
        for (SynNode st = ex_return_walk_next(x, &w); !syn_null(st);
             st = ex_return_walk_next(x, &w)) {
            SynNode e = syn_child(x->syn, st, 0);
            if (syn_null(e))
                continue;
            e = guarded_value(x, e);
            const char *text;
            /* `if (!data) return ''`: a guard's empty text, not the key */
            if (!syn_null(e) && ex_string_value(x, unwrap(e), &text) && !text[0])
                continue;
            if (!syn_null(e) && (ex_is_string_like(x, e) || is(unwrap(e), "object"))) {
                ret = e;
                break;
            }
            if (!syn_null(e) && is(unwrap(e), "call_expression") && syn_null(ret))
                ret = e;
        }
    }
    if (syn_null(ret))
        return;
    ret = unwrap(ret);
    HelperDef h = {.name = name, .exported = exported, .span = syn_span(fn)};
    KeyBuild build = ex_build_of(x, ret);
    if (is(ret, "object")) {
        if (!object_fields(x, ret, &h))
            return;
    } else {
        ex_expr_segs(x, ret, &h.returns, 0);
        if (!key_shaped(x, &h.returns, build, name))
            return;
    }
    ex_function_params(x, fn, &h);
    fileir_add_helper(x->ir, h);
    if (h.fields.n)
        return; /* the returned object's keys are extracted as an entity's */
    KeyExpr k = {.role = role_from_helper_name(name), .attr = name, .build = build,
                 .site = SITE_HELPER, .op = -1, .span = syn_span(ret),
                 .segs = h.returns};
    VEC_PUSH(x->a, &x->ir->extracted, k);
}

/* Helper objects: `export const Keys = { order: (id) => ..., ... }` */
static void object_helpers(Ex *x, const char *prefix, SynNode obj, bool exported)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        if (is(p, "method_definition")) {
            helper_function(x, arena_dot(x->a, prefix, ex_ntext(x, field(p, "name"))),
                            p, exported);
            continue;
        }
        if (!is(p, "pair"))
            continue;
        SynNode v = unwrap(field(p, "value"));
        const char *pn = ex_prop_name(x, p);
        if (pn && (is(v, "arrow_function") || is(v, "function_expression") || is(v, "function")))
            helper_function(x, arena_dot(x->a, prefix, pn), v, exported);
    }
}

/* Whether `c` (a `new` expression's constructor) names a class of the
 * project: one this module declares, or one it imports from a path
 * (`./RoomRepository`, `@/repos`), not from a package (`new Entity()` of
 * dynamodb-toolbox, `new Map()`). */
static bool project_class(Ex *x, SynNode c)
{
    if (!is(c, "identifier"))
        return false;
    const char *name = ex_ntext(x, c);
    const Import *im = ex_find_import(x, name);
    if (im)
        return im->source[0] == '.' || im->source[0] == '/' || !strncmp(im->source, "@/", 2) ||
               !strncmp(im->source, "~/", 2);
    SynNode root = syn_root(x->syn);
    uint32_t cnt = syn_count(x->syn, root);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode d = syn_child(x->syn, root, i);
        if (is(d, "export_statement"))
            d = field(d, "declaration");
        if ((is(d, "class_declaration") || is(d, "abstract_class_declaration")) &&
            ex_text_eq(x, field(d, "name"), name))
            return true;
    }
    return false;
}

/* `export const db = { rateLimits: new RateLimitRepository(client) }`:
 * what another module calls on db.rateLimits is RateLimitRepository's, as
 * for an instance exported by name. */
static void object_instances(Ex *x, const char *prefix, SynNode obj)
{
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        SynNode v = is(p, "pair") ? unwrap(field(p, "value")) : (SynNode){0};
        const char *pn = is(v, "new_expression") ? ex_prop_name(x, p) : NULL;
        if (pn && project_class(x, field(v, "constructor"))) {
            Import im = {arena_dot(x->a, prefix, pn), ex_ntext(x, field(v, "constructor")), ""};
            VEC_PUSH(x->a, &x->ir->reexports, im);
        }
    }
}

static void module_declaration(Ex *x, SynNode n, bool exported)
{
    if (is(n, "lexical_declaration") || is(n, "variable_declaration")) {
        bool fixed = is(n, "lexical_declaration") &&
                     ex_text_eq(x, syn_token(x->syn, n, 0), "const");
        uint32_t cnt = syn_count(x->syn, n);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode d = syn_child(x->syn, n, i);
            SynNode nm = field(d, "name");
            if (!is(d, "variable_declarator") || !is(nm, "identifier"))
                continue;
            const char *name = ex_ntext(x, nm);
            SynNode v = unwrap(field(d, "value"));
            if (syn_null(v))
                continue;
            if (is(v, "string") || is(v, "template_string") || is(v, "binary_expression"))
                add_const(x, name, v, exported, fixed);
            else if (is(v, "object")) {
                object_consts(x, name, v, exported, 0, fixed);
                object_helpers(x, name, v, exported);
                if (exported)
                    object_instances(x, name, v);
            } else if (is(v, "arrow_function") || is(v, "function_expression") ||
                       is(v, "function")) {
                helper_function(x, name, v, exported);
            } else if (exported && project_class(x, field(v, "constructor"))) {
                /* `export const roomRepo = new RoomRepository(db)`: what
                 * another module calls on roomRepo is RoomRepository's */
                Import im = {name, ex_ntext(x, field(v, "constructor")), ""};
                VEC_PUSH(x->a, &x->ir->reexports, im);
            }
        }
    } else if (is(n, "function_declaration")) {
        helper_function(x, ex_ntext(x, field(n, "name")), n, exported);
    } else if (is(n, "class_declaration") || is(n, "abstract_class_declaration")) {
        /* methods that return keys: Class.method from outside, this.method
         * from inside */
        const char *cname = ex_ntext(x, field(n, "name"));
        SynNode body = field(n, "body");
        uint32_t cnt = syn_count(x->syn, body);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode m = syn_child(x->syn, body, i);
            if (!is(m, "method_definition"))
                continue;
            const char *mname = ex_ntext(x, field(m, "name"));
            if (key_role_for_name(x->cfg, mname) >= 0 && !syn_null(syn_token(x->syn, m, 0)) &&
                ex_text_eq(x, syn_token(x->syn, m, 0), "get"))
                continue; /* key getters are the entity's keys (visit_objects) */
            size_t before = x->ir->helpers.n;
            helper_function(x, arena_dot(x->a, cname, mname), m, exported);
            if (x->ir->helpers.n > before) {
                HelperDef self = x->ir->helpers.v[x->ir->helpers.n - 1];
                self.name = arena_dot(x->a, "this", mname);
                self.exported = false;
                fileir_add_helper(x->ir, self);
            }
        }
    } else if (is(n, "enum_declaration")) {
        enum_declaration(x, n, exported);
    }
}

/* The identifier at the head of an assignment target (`X` of `X.a[k]`),
 * or of each name a destructuring target assigns; into ir->mutated. */
static void note_mutated(Ex *x, SynNode target, NameMap *seen)
{
    SynNode n = unwrap(target);
    for (int guard = 0; guard < 64 && (is(n, "member_expression") ||
                                       is(n, "subscript_expression"));
         guard++)
        n = unwrap(field(n, "object"));
    if (is(n, "identifier")) {
        strlist_push_once(x->a, &x->ir->mutated, seen, ex_ntext(x, n));
        return;
    }
    size_t from, to;
    if ((is(n, "array_pattern") || is(n, "object_pattern")) && syn_subtree(x->syn, n, &from, &to))
        for (size_t i = from; i < to; i++)
            if (syn_type_is(syn_type_at(x->syn, i), "identifier") ||
                syn_type_is(syn_type_at(x->syn, i), "shorthand_property_identifier_pattern"))
                strlist_push_once(x->a, &x->ir->mutated, seen,
                                  ex_ntext(x, syn_node_at(x->syn, i)));
}

/* Every name the file assigns to or mutates (FileIR.mutated): one pass
 * over the index. */
static void mutations(Ex *x)
{
    static const char *const mutators[] = {
        "Object.assign", "Object.defineProperty", "Object.defineProperties",
        "Object.setPrototypeOf", "Reflect.set", "Reflect.defineProperty",
        "Reflect.deleteProperty",
    };
    NameMap seen = {0};
    size_t count = syn_node_count(x->syn);
    for (size_t i = 0; i < count; i++) {
        const char *ty = syn_type_at(x->syn, i);
        SynNode n;
        if (syn_type_is(ty, "assignment_expression") ||
            syn_type_is(ty, "augmented_assignment_expression")) {
            n = syn_node_at(x->syn, i);
            note_mutated(x, field(n, "left"), &seen);
        } else if (syn_type_is(ty, "update_expression")) {
            n = syn_node_at(x->syn, i);
            note_mutated(x, field(n, "argument"), &seen);
        } else if (syn_type_is(ty, "unary_expression")) {
            n = syn_node_at(x->syn, i);
            if (ex_text_eq(x, syn_token(x->syn, n, 0), "delete"))
                note_mutated(x, field(n, "argument"), &seen);
        } else if (syn_type_is(ty, "call_expression")) {
            n = syn_node_at(x->syn, i);
            SynNode fn = field(n, "function");
            if (!is(fn, "member_expression"))
                continue;
            for (size_t m = 0; m < sizeof mutators / sizeof *mutators; m++)
                if (ex_text_eq(x, fn, mutators[m])) {
                    note_mutated(x, syn_child(x->syn, field(n, "arguments"), 0), &seen);
                    break;
                }
        }
    }
}

/* ---- CommonJS: require() and module.exports ---------------------------- */

/* `require('./m')` or `require('./m').name`: the module specifier in *src,
 * the property read off the module in *member (NULL when none). */
static bool require_call(Ex *x, SynNode v, const char **src, const char **member)
{
    *member = NULL;
    v = unwrap(v);
    if (is(v, "member_expression")) {
        *member = ex_ntext(x, field(v, "property"));
        v = unwrap(field(v, "object"));
    }
    if (!is(v, "call_expression") || !ex_text_eq(x, field(v, "function"), "require"))
        return false;
    SynNode args = field(v, "arguments");
    return syn_count(x->syn, args) == 1 && ex_string_value(x, syn_child(x->syn, args, 0), src);
}

/* `const { a, b: c } = require('./m')`, `const m = require('./m')`,
 * `const a = require('./m').a`: imports, as `import` statements write
 * them (`m` is the whole module, like `import * as m`). */
static void require_declaration(Ex *x, SynNode n)
{
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode d = syn_child(x->syn, n, i);
        const char *src, *member;
        if (!is(d, "variable_declarator") || !require_call(x, field(d, "value"), &src, &member))
            continue;
        SynNode nm = field(d, "name");
        if (is(nm, "identifier")) {
            fileir_add_import(x->ir, (Import){ex_ntext(x, nm), member ? member : "*", src});
            continue;
        }
        if (!is(nm, "object_pattern") || member)
            continue;
        for (uint32_t j = 0; j < syn_count(x->syn, nm); j++) {
            SynNode p = syn_child(x->syn, nm, j);
            if (is(p, "shorthand_property_identifier_pattern"))
                fileir_add_import(x->ir, (Import){ex_ntext(x, p), ex_ntext(x, p), src});
            else if (is(p, "pair_pattern") && is(field(p, "value"), "identifier"))
                fileir_add_import(x->ir, (Import){ex_ntext(x, field(p, "value")),
                                                  ex_ntext(x, field(p, "key")), src});
        }
    }
}

/* A name a CommonJS module exports, with its value: a local name (`{ PREFIX
 * }`, `keys: keyBuilders`) is exported as `export { a as b }` exports it;
 * a value written there is a module constant or helper of that name. */
static void export_value(Ex *x, const char *name, SynNode v)
{
    v = unwrap(v);
    if (is(v, "identifier")) {
        Import im = {name, ex_ntext(x, v), ""};
        VEC_PUSH(x->a, &x->ir->reexports, im);
    } else if (is(v, "string") || is(v, "template_string") || is(v, "binary_expression")) {
        add_const(x, name, v, true, true);
    } else if (is(v, "object")) {
        object_consts(x, name, v, true, 0, true);
        object_helpers(x, name, v, true);
    } else if (is(v, "arrow_function") || is(v, "function_expression") || is(v, "function")) {
        helper_function(x, name, v, true);
    }
}

/* `module.exports = { A, B: b, C: 'C#', d(x) {...} }`, `module.exports =
 * a` (every name the module exports is a member of `a`),
 * `module.exports.A = ...`, `exports.A = ...`. */
static void module_exports(Ex *x, SynNode stmt)
{
    SynNode as = unwrap(syn_child(x->syn, stmt, 0));
    if (!is(as, "assignment_expression"))
        return;
    SynNode left = field(as, "left"), right = unwrap(field(as, "right"));
    if (!is(left, "member_expression"))
        return;
    if (ex_text_eq(x, left, "module.exports")) {
        if (is(right, "identifier")) {
            Import im = {"*", ex_ntext(x, right), ""};
            VEC_PUSH(x->a, &x->ir->reexports, im);
        } else if (is(right, "object")) {
            for (uint32_t i = 0; i < syn_count(x->syn, right); i++) {
                SynNode p = syn_child(x->syn, right, i), computed;
                if (is(p, "shorthand_property_identifier")) {
                    Import im = {ex_ntext(x, p), ex_ntext(x, p), ""};
                    VEC_PUSH(x->a, &x->ir->reexports, im);
                } else if (is(p, "method_definition")) {
                    helper_function(x, ex_ntext(x, field(p, "name")), p, true);
                } else if (is(p, "pair")) {
                    const char *pn = syn_prop_name(x->syn, p, &computed);
                    if (pn)
                        export_value(x, pn, syn_prop_value(x->syn, p));
                }
            }
        } else {
            export_value(x, "default", right);
        }
        return;
    }
    SynNode obj = field(left, "object");
    if (ex_text_eq(x, obj, "module.exports") || ex_text_eq(x, obj, "exports"))
        export_value(x, ex_ntext(x, field(left, "property")), right);
}

void ex_module_pass(Ex *x, SynNode root)
{
    mutations(x);
    uint32_t cnt = syn_count(x->syn, root);
    /* imports first: later passes ask where names come from */
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode n = syn_child(x->syn, root, i);
        if (is(n, "import_statement"))
            import_statement(x, n);
        else if (is(n, "lexical_declaration") || is(n, "variable_declaration"))
            require_declaration(x, n);
    }
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode n = syn_child(x->syn, root, i);
        if (is(n, "export_statement")) {
            SynNode decl = field(n, "declaration");
            if (!syn_null(decl)) {
                module_declaration(x, decl, true);
                /* `export default class Client {}`: default is Client */
                SynNode name = field(decl, "name");
                if (ex_text_eq(x, syn_token(x->syn, n, 1), "default") &&
                    (is(name, "identifier") || is(name, "type_identifier"))) {
                    Import im = {"default", ex_ntext(x, name), ""};
                    VEC_PUSH(x->a, &x->ir->reexports, im);
                }
            } else if (!syn_null(field(n, "source"))) {
                reexport(x, n);
            } else {
                /* export default <expr> / export { a, b } */
                SynNode v = field(n, "value");
                if (!syn_null(v)) {
                    v = unwrap(v);
                    if (is(v, "arrow_function") || is(v, "function_expression") ||
                        is(v, "function"))
                        helper_function(x, "default", v, true);
                    else if (is(v, "identifier")) {
                        Import im = {"default", ex_ntext(x, v), ""};
                        VEC_PUSH(x->a, &x->ir->reexports, im);
                    }
                }
                SynNode clause = syn_child(x->syn, n, 0);
                if (is(clause, "export_clause")) {
                    for (uint32_t j = 0; j < syn_count(x->syn, clause); j++) {
                        SynNode sp = syn_child(x->syn, clause, j);
                        SynNode name = field(sp, "name"), alias = field(sp, "alias");
                        if (syn_null(name))
                            continue;
                        Import im = {syn_null(alias) ? ex_ntext(x, name) : ex_ntext(x, alias),
                                     ex_ntext(x, name), ""};
                        VEC_PUSH(x->a, &x->ir->reexports, im);
                    }
                }
                /* `export default function name() {}` has a declaration field */
            }
        } else if (is(n, "expression_statement")) {
            module_exports(x, n);
        } else {
            module_declaration(x, n, false);
        }
    }
}

