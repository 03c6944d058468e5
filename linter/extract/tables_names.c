/* What a value in a file names, for tables and indexes: a literal, a
 * pattern, an environment variable or an import, followed through local
 * and module bindings, constants, `this.x` class members and objects of
 * names (`TABLES.ORDERS`). At most MAX_HOPS steps. Also the module
 * constants that may name a table (tables.h NameConst). */
#include "tables_int.h"

static void name_ref_at(T *t, SynNode v, NameRef *out, int depth);

/* A template literal as a name pattern: substitutions become "${}"
 * (constants of this file are read through). */
const char *tables_template_pattern(T *t, SynNode n)
{
    StrBuf acc;
    sb_init(&acc, t->a);
    uint32_t cnt = syn_count(t->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t->syn, n, i);
        if (is(c, "string_fragment")) {
            sb_appendn(&acc, t->src + syn_start(c), syn_end(c) - syn_start(c));
        } else if (is(c, "template_substitution")) {
            SynNode e = unwrap(syn_child(t->syn, c, 0));
            const char *k = is(e, "identifier") || is(e, "member_expression")
                                ? const_text(t, ntext(t, e))
                                : NULL;
            sb_append(&acc, k ? k : "${}");
        } else if (is(c, "escape_sequence")) {
            sb_appendn(&acc, t->src + syn_start(c) + 1, syn_end(c) - syn_start(c) - 1);
        }
    }
    return sb_str(&acc);
}

/* The members of a class body that hold values: field initialisers and
 * `this.x = v` in the constructor, in order, the first of a name kept. */
static void index_members(T *t, SynNode body, NameMap *m)
{
    uint32_t cnt = syn_count(t->syn, body);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode mb = syn_child(t->syn, body, i);
        if (is(mb, "public_field_definition")) {
            SynNode nm = field(mb, "name"), v = field(mb, "value");
            if (!syn_null(v)) {
                VEC_PUSH(t->a, &t->member_values, v);
                namemap_put(t->a, m, ntext(t, nm), t->member_values.n - 1);
            }
        }
        if (!is(mb, "method_definition") || !syn_text_eq(t->syn, field(mb, "name"), "constructor"))
            continue;
        SynNode fb = field(mb, "body");
        uint32_t bc = syn_count(t->syn, fb);
        for (uint32_t j = 0; j < bc; j++) {
            SynNode st = syn_child(t->syn, fb, j);
            SynNode e = is(st, "expression_statement") ? syn_child(t->syn, st, 0) : (SynNode){0};
            if (!is(e, "assignment_expression"))
                continue;
            SynNode l = field(e, "left");
            if (is(l, "member_expression") && is(field(l, "object"), "this")) {
                VEC_PUSH(t->a, &t->member_values, field(e, "right"));
                namemap_put(t->a, m, ntext(t, field(l, "property")), t->member_values.n - 1);
            }
        }
    }
}

/* `this.tableName`: a field initialiser or a constructor assignment of the
 * enclosing class (each class body indexed once). */
static SynNode class_member_value(T *t, SynNode use, const char *member)
{
    SynNode none = {0};
    SynNode p = syn_parent(t->syn, use);
    for (int i = 0; i < 256 && !syn_null(p) && !is(p, "class_body"); i++)
        p = syn_parent(t->syn, p);
    if (!is(p, "class_body"))
        return none;
    size_t k, v;
    if (!nummap_get(&t->class_bodies, syn_start(p), &k)) {
        k = t->member_maps.n;
        VEC_PUSH(t->a, &t->member_maps, (NameMap){0});
        index_members(t, p, &t->member_maps.v[k]);
        nummap_put(t->a, &t->class_bodies, syn_start(p), k);
    }
    return namemap_get(&t->member_maps.v[k], member, &v) ? t->member_values.v[v] : none;
}

/* `a.b.c` as its root identifier `a` and its members `b`, `c` (at most
 * MAX_MEMBERS, each a plain property name); 0 when `v` is not such a
 * chain. */
static size_t member_path(T *t, SynNode v, SynNode *root, SynNode *members)
{
    SynNode rev[MAX_MEMBERS];
    size_t n = 0;
    while (is(v, "member_expression")) {
        SynNode prop = field(v, "property");
        if (n == MAX_MEMBERS || !is(prop, "property_identifier"))
            return 0;
        rev[n++] = prop;
        v = unwrap(field(v, "object"));
    }
    if (!n || !is(v, "identifier"))
        return 0;
    *root = v;
    for (size_t i = 0; i < n; i++)
        members[i] = rev[n - 1 - i];
    return n;
}

static void name_ref_at(T *t, SynNode v, NameRef *out, int depth)
{
    v = unwrap(v);
    if (syn_null(v) || depth > MAX_HOPS)
        return;
    if (!out->text)
        out->text = short_text(t, v);
    const char *s;
    if (string_value(t, v, &s)) {
        if (!out->literal)
            out->literal = s;
        return;
    }
    const char *ty = syn_type(v);
    if (syn_type_is(ty, "template_string")) {
        if (!out->literal)
            out->literal = tables_template_pattern(t, v);
        return;
    }
    if (syn_type_is(ty, "binary_expression")) {
        SynNode op = field(v, "operator");
        if (syn_text_eq(t->syn, op, "??") || syn_text_eq(t->syn, op, "||")) {
            name_ref_at(t, field(v, "left"), out, depth + 1);
            name_ref_at(t, field(v, "right"), out, depth + 1);
        }
        return;
    }
    if (syn_type_is(ty, "member_expression") || syn_type_is(ty, "subscript_expression")) {
        SynNode obj = unwrap(field(v, "object"));
        if (syn_text_eq(t->syn, obj, "process.env")) {
            SynNode prop = syn_type_is(ty, "member_expression") ? field(v, "property") : field(v, "index");
            if (!out->env && !string_value(t, prop, &out->env))
                out->env = ntext(t, prop);
            return;
        }
        if (is(obj, "this") && syn_type_is(ty, "member_expression")) {
            SynNode mv = class_member_value(t, v, ntext(t, field(v, "property")));
            if (!syn_null(mv))
                name_ref_at(t, mv, out, depth + 1);
            return;
        }
        /* Obj.KEY of an `as const` object */
        const char *k = const_text(t, ntext(t, v));
        if (k) {
            if (!out->literal)
                out->literal = k;
            return;
        }
        /* TABLES.ORDERS of an object of names (`export const TABLES = {
         * ORDERS: process.env.ORDERS_TABLE! }`), config.dynamodb.users of
         * nested ones: of this file, or imported */
        if (!syn_type_is(ty, "member_expression"))
            return;
        SynNode root, members[MAX_MEMBERS];
        size_t nm = member_path(t, v, &root, members);
        if (!nm)
            return;
        bool param, found;
        SynNode b = unwrap(binding(t, root, ntext(t, root), &param, &found));
        if (found && !param && is(b, "object")) {
            for (size_t i = 0; i < nm && is(b, "object"); i++) {
                b = unwrap(find_prop(t, b, ntext(t, members[i])));
                if (i + 1 == nm && !syn_null(b))
                    name_ref_at(t, b, out, depth + 1);
            }
            return;
        }
        const Import *im = found ? NULL : find_import(t, ntext(t, root));
        if (im && !out->import) {
            StrBuf acc;
            sb_init(&acc, t->a);
            sb_append(&acc, im->imported);
            for (size_t i = 0; i < nm; i++) {
                sb_append(&acc, ".");
                sb_append(&acc, ntext(t, members[i]));
            }
            out->import = sb_str(&acc);
            out->from = im->source;
        }
        return;
    }
    if (syn_type_is(ty, "identifier") || syn_type_is(ty, "shorthand_property_identifier")) {
        const char *name = ntext(t, v);
        bool param, found;
        SynNode b = binding(t, v, name, &param, &found);
        if (found && !param && !syn_null(b)) {
            name_ref_at(t, b, out, depth + 1);
            return;
        }
        const Import *im = find_import(t, name);
        if (im && !out->import) {
            out->import = im->imported;
            out->from = im->source;
        }
        return;
    }
    if (syn_type_is(ty, "call_expression")) {
        /* requireEnv('TABLE_NAME'), config.get('TABLE_NAME'), getEnv(...) */
        SynNode fn = unwrap(field(v, "function"));
        const char *callee = ntext(t, fn);
        SynNode a0 = syn_child(t->syn, field(v, "arguments"), 0);
        const char *arg;
        if ((strcasestr(callee, "env") || strcasestr(callee, "config")) &&
            string_value(t, a0, &arg) && all_caps_name(arg) && !out->env)
            out->env = arg;
        return;
    }
}

NameRef tables_name_ref(T *t, SynNode v)
{
    NameRef r = {0};
    name_ref_at(t, v, &r, 0);
    return r;
}

/* The members of a module constant's object that may name a table
 * (`TABLES = { ORDERS: process.env.ORDERS_TABLE! }`), each a constant
 * named `TABLES.ORDERS`. */
static void object_consts(T *t, const char *name, SynNode obj, bool exported, int depth)
{
    uint32_t cnt = syn_count(t->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(t->syn, obj, i);
        const char *k = is(p, "pair") ? prop_name(t, p) : NULL;
        SynNode v = unwrap(field(p, "value"));
        if (!k || syn_null(v) || is(v, "arrow_function") || is(v, "function_expression"))
            continue;
        const char *member = arena_printf(t->a, "%s.%s", name, k);
        if (is(v, "object")) { /* `config = { dynamodb: { users: ... } }` */
            if (depth + 1 < MAX_MEMBERS)
                object_consts(t, member, v, exported, depth + 1);
            continue;
        }
        NameRef r = tables_name_ref(t, v);
        if (!r.literal && !r.env && !r.import)
            continue;
        NameConst c = {.name = member, .exported = exported, .ref = r};
        VEC_PUSH(t->a, &t->ft->consts, c);
    }
}

/* Module constants that may name a table or an index. */
void tables_module_consts(T *t, SynNode root)
{
    uint32_t cnt = syn_count(t->syn, root);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode st = syn_child(t->syn, root, i);
        bool exported = false;
        if (is(st, "export_statement")) {
            st = field(st, "declaration");
            exported = true;
        }
        if (!is(st, "lexical_declaration") && !is(st, "variable_declaration"))
            continue;
        uint32_t dc = syn_count(t->syn, st);
        for (uint32_t j = 0; j < dc; j++) {
            SynNode d = syn_child(t->syn, st, j);
            SynNode nm = field(d, "name"), v = unwrap(field(d, "value"));
            if (!is(d, "variable_declarator") || !is(nm, "identifier") || syn_null(v))
                continue;
            const char *ty = syn_type(v);
            if (syn_type_is(ty, "object")) {
                object_consts(t, ntext(t, nm), v, exported, 0);
                continue;
            }
            if (!syn_type_is(ty, "string") && !syn_type_is(ty, "template_string") &&
                !syn_type_is(ty, "binary_expression") && !syn_type_is(ty, "member_expression") &&
                !syn_type_is(ty, "subscript_expression") && !syn_type_is(ty, "call_expression"))
                continue;
            NameRef r = tables_name_ref(t, v);
            if (!r.literal && !r.env && !r.import)
                continue;
            NameConst c = {.name = ntext(t, nm), .exported = exported, .ref = r};
            VEC_PUSH(t->a, &t->ft->consts, c);
        }
    }
}
