/* Extraction, values: an expression as key segments (extract_int.h):
 * template literals, concatenations, joins, calls, references followed to
 * the values they are bound to, within the inlining budgets. Recursion is
 * bounded by MAX_DEPTH (deeper input becomes an UNKNOWN segment). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "extract.h"
#include "extract_int.h"
#include "precheck.h"
#include "syntax.h"

#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static bool is(SynNode n, const char *type) { return syn_is(n, type); }
/* ---- segments ---------------------------------------------------------- */

Seg *ex_push_seg(Ex *x, SegList *l, SegKind k, uint32_t flags, const char *text,
                     Span span)
{
    Seg s = {.kind = k, .flags = flags, .text = text, .span = span};
    x->run.list = NULL;
    seglist_push(x->a, l, s);
    return &l->v[l->n - 1];
}

/* Inline text: merged with a preceding inline text segment, the merged
 * text built in place (x->run) so that a long run costs its length. */
static void push_text(Ex *x, SegList *l, const char *text, uint32_t flags,
                      const char *name, Span span)
{
    Seg *p = l->n ? &l->v[l->n - 1] : NULL;
    if (p && p->kind == SEG_TEXT && !flags && !p->flags && !name && !p->name) {
        bool open = x->run.list == l && x->run.index == l->n - 1 && p->text == x->run.buf.s;
        if (!open) {
            sb_init(&x->run.buf, x->a);
            sb_append(&x->run.buf, p->text);
        }
        sb_append(&x->run.buf, text);
        x->run.list = l;
        x->run.index = l->n - 1;
        p->text = x->run.buf.s;
        p->span.end_byte = span.end_byte;
        p->span.end_row = span.end_row;
        p->span.end_col = span.end_col;
        return;
    }
    Seg *s = ex_push_seg(x, l, SEG_TEXT, flags, text, span);
    s->name = name;
}

void ex_expr_segs(Ex *x, SynNode n, SegList *out, int depth);

/* A parameter or variable declared with the type `number` or `bigint`
 * (`timestamp: number`). */
static bool declared_number(Ex *x, SynNode decl)
{
    SynNode ty = field(decl, "type");
    if (!is(ty, "type_annotation"))
        return false;
    SynNode t = syn_child(x->syn, ty, 0);
    return is(t, "predefined_type") && (ex_text_eq(x, t, "number") || ex_text_eq(x, t, "bigint"));
}

/* An operand that is evidently a number: a numeric literal, arithmetic
 * (`a * 60`), Math.*(), Number(), parseInt/parseFloat(), Date.now(), a
 * name declared `: number`, or a name bound to one of these. `+` with such an operand and no string on
 * either side is a sum, not a key being joined (`now + TTL_SECONDS`). */
static bool numeric_evident(Ex *x, SynNode n, int hops)
{
    n = unwrap(n);
    if (is(n, "number"))
        return true;
    if (is(n, "binary_expression")) {
        const char *op = ex_ntext(x, field(n, "operator"));
        return !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") || !strcmp(op, "%") ||
               !strcmp(op, "**");
    }
    if (is(n, "call_expression")) {
        const char *fn = ex_ntext(x, field(n, "function"));
        return !strncmp(fn, "Math.", 5) || !strcmp(fn, "Number") || !strcmp(fn, "parseInt") ||
               !strcmp(fn, "parseFloat") || !strcmp(fn, "Number.parseInt") ||
               !strcmp(fn, "Number.parseFloat") || !strcmp(fn, "Date.now");
    }
    if (is(n, "identifier") && hops < 3) {
        Binding b = ex_find_binding(x, n, ex_ntext(x, n), true);
        if (b.found && declared_number(x, b.decl))
            return true;
        return b.found && !b.param && !syn_null(b.value) && numeric_evident(x, b.value, hops + 1);
    }
    return false;
}

/* A string or template literal, or a `+` chain holding one, walked along
 * its left spine for at most 64 terms (a longer chain counts as a string:
 * the check stays constant-time per `+` and the key is read as before). */
static bool is_string_literal(Ex *x, SynNode n)
{
    for (int terms = 0; terms < 64; terms++) {
        n = unwrap(n);
        if (is(n, "string") || is(n, "template_string"))
            return true;
        if (!is(n, "binary_expression") || !ex_text_eq(x, field(n, "operator"), "+"))
            return false;
        SynNode r = unwrap(field(n, "right"));
        if (is(r, "string") || is(r, "template_string"))
            return true;
        n = field(n, "left");
    }
    return true;
}

static bool is_sum(Ex *x, SynNode l, SynNode r)
{
    return (numeric_evident(x, l, 0) || numeric_evident(x, r, 0)) &&
           !is_string_literal(x, l) && !is_string_literal(x, r);
}

/* How a value was built, from its outermost node. */
KeyBuild ex_build_of(Ex *x, SynNode n)
{
    n = unwrap(n);
    const char *t = syn_type(n);
    if (syn_type_is(t, "template_string"))
        return BUILD_TEMPLATE;
    if (syn_type_is(t, "binary_expression"))
        return BUILD_CONCAT;
    if (syn_type_is(t, "string"))
        return BUILD_LITERAL;
    if (syn_type_is(t, "array"))
        return BUILD_ARRAY;
    if (syn_type_is(t, "identifier") || syn_type_is(t, "member_expression"))
        return BUILD_REF;
    if (syn_type_is(t, "call_expression")) {
        SynNode f = field(n, "function");
        if (is(f, "member_expression") && ex_text_eq(x, field(f, "property"), "join"))
            return BUILD_JOIN;
        if (is(f, "member_expression") && ex_text_eq(x, field(f, "property"), "concat") &&
            (is(unwrap(field(f, "object")), "string") ||
             is(unwrap(field(f, "object")), "template_string")))
            return BUILD_CONCAT;
        return BUILD_CALL;
    }
    return BUILD_OTHER;
}

bool ex_is_string_like(Ex *x, SynNode n)
{
    n = unwrap(n);
    const char *t = syn_type(n);
    return syn_type_is(t, "string") || syn_type_is(t, "template_string") ||
           syn_type_is(t, "binary_expression") || syn_type_is(t, "array");
}

bool ex_lower_contains(const char *s, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *s; s++)
        if (!strncasecmp(s, needle, nl))
            return true;
    return false;
}

/* Calls whose result is a date or time. */
static bool is_date_call(const char *callee)
{
    static const char *const suffixes[] = {
        "toISOString", "toJSON", "getTime", "valueOf", "toUTCString", "format",
        "toLocaleDateString", "toDateString", "getFullYear", "getMonth", "getDate",
        "getUTCFullYear", "getUTCMonth", "getUTCDate", "unix", "toMillis", "toISO",
        "toISODate"};
    if (!strcmp(callee, "Date.now") || !strcmp(callee, "dayjs") ||
        !strcmp(callee, "moment") || !strcmp(callee, "Date"))
        return true;
    const char *dot = strrchr(callee, '.');
    const char *last = dot ? dot + 1 : callee;
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
        if (!strcmp(last, suffixes[i]))
            return true;
    return false;
}

/* Methods that pass their receiver's value through for key purposes. */
static bool is_passthrough_method(const char *m)
{
    return !strcmp(m, "toString") || !strcmp(m, "toUpperCase") ||
           !strcmp(m, "toLowerCase") || !strcmp(m, "trim") ||
           !strcmp(m, "toLocaleUpperCase") || !strcmp(m, "toLocaleLowerCase");
}

static void unknown_seg(Ex *x, SynNode n, SegList *out)
{
    ex_push_seg(x, out, SEG_UNKNOWN, 0, syn_text_max(x->syn, n, UNKNOWN_TEXT_MAX), syn_span(n));
}

/* The framework's key generators, expanded into what they build. */
static bool framework_call(Ex *x, const char *fw, SynNode call, SynNode args, SegList *out,
                           int depth)
{
    Span sp = syn_span(call);
    const char *prefix = !strcmp(fw, "masterPk") ? "MASTER"
                       : !strcmp(fw, "seqPk")    ? "SEQ"
                       : !strcmp(fw, "ttlSk")    ? "TTL"
                                                 : NULL;
    if (!prefix)
        return false;
    Seg *s = ex_push_seg(x, out, SEG_TEXT, SEGF_CONST | SEGF_FRAMEWORK, prefix, sp);
    s->name = fw;
    s = ex_push_seg(x, out, SEG_TEXT, SEGF_CONST | SEGF_SEPARATOR | SEGF_FRAMEWORK,
                 x->cfg->separator, sp);
    s->name = fw;
    SynNode a0 = syn_child(x->syn, args, 0);
    if (syn_null(a0)) {
        if (strcmp(fw, "ttlSk")) {
            s = ex_push_seg(x, out, SEG_TEXT,
                         SEGF_CONST | SEGF_TENANT | SEGF_COMMON_TENANT | SEGF_FRAMEWORK,
                         "single", sp);
            s->name = "DEFAULT_TENANT_CODE";
        }
    } else {
        size_t before = out->n;
        ex_expr_segs(x, a0, out, depth + 1);
        if (strcmp(fw, "ttlSk"))
            for (size_t i = before; i < out->n; i++)
                if (out->v[i].kind != SEG_TEXT)
                    out->v[i].flags |= SEGF_TENANT;
    }
    return true;
}

static void call_segs(Ex *x, SynNode n, SegList *out, int depth)
{
    if (x->key_builder && x->key_builder(x, n, out, depth))
        return;
    SynNode fn = unwrap(field(n, "function"));
    SynNode args = field(n, "arguments");
    /* 'USER#'.concat(id): the string, then each argument (compiled
     * template literals read like this) */
    if (is(fn, "member_expression") && ex_text_eq(x, field(fn, "property"), "concat") &&
        (is(unwrap(field(fn, "object")), "string") ||
         is(unwrap(field(fn, "object")), "template_string"))) {
        ex_expr_segs(x, field(fn, "object"), out, depth + 1);
        uint32_t cnt = syn_count(x->syn, args);
        for (uint32_t i = 0; i < cnt; i++)
            ex_expr_segs(x, syn_child(x->syn, args, i), out, depth + 1);
        return;
    }
    /* [a, b].join(sep) */
    if (is(fn, "member_expression")) {
        SynNode obj = unwrap(field(fn, "object"));
        SynNode prop = field(fn, "property");
        if (ex_text_eq(x, prop, "join") && is(obj, "array")) {
            const char *sep = ",";
            SynNode a0 = syn_child(x->syn, args, 0);
            SegList sepsegs = {0};
            bool literal_sep = true;
            if (!syn_null(a0)) {
                if (!ex_string_value(x, a0, &sep)) {
                    literal_sep = false;
                    ex_expr_segs(x, a0, &sepsegs, depth + 1);
                }
            }
            uint32_t cnt = syn_count(x->syn, obj);
            for (uint32_t i = 0; i < cnt; i++) {
                if (i > 0) {
                    if (literal_sep) {
                        if (*sep) {
                            Seg *s = ex_push_seg(x, out, SEG_TEXT, SEGF_ARRAY_JOIN, sep,
                                              syn_null(a0) ? syn_span(prop) : syn_span(a0));
                            (void)s;
                        }
                    } else {
                        x->run.list = NULL;
                        seglist_append(x->a, out, &sepsegs);
                    }
                }
                ex_expr_segs(x, syn_child(x->syn, obj, i), out, depth + 1);
            }
            return;
        }
        const char *method = ex_ntext(x, prop);
        if (is_passthrough_method(method) && syn_count(x->syn, args) == 0 &&
            !is(obj, "call_expression")) {
            size_t from = out->n;
            ex_expr_segs(x, obj, out, depth + 1);
            if (!strcmp(method, "toUpperCase") || !strcmp(method, "toLocaleUpperCase"))
                seglist_case(x->a, out, from, SEGF_UPPERCASE);
            else if (!strcmp(method, "toLowerCase") || !strcmp(method, "toLocaleLowerCase"))
                seglist_case(x->a, out, from, SEGF_LOWERCASE);
            return;
        }
    }
    /* no helper has a name this long: a chain of calls `q.a().b()...` */
    const char *callee = syn_text_max(x->syn, fn, MAX_CALLEE_TEXT);
    uint32_t flags = 0;
    if (is(fn, "identifier")) {
        const char *fw = ex_framework_name(x, callee);
        if (fw) {
            if (framework_call(x, fw, n, args, out, depth))
                return;
            flags |= SEGF_FRAMEWORK;
            if (!strcmp(fw, "addSortKeyVersion"))
                flags |= SEGF_VERSIONED;
            else if (!strcmp(fw, "removeSortKeyVersion"))
                flags |= SEGF_UNVERSIONED;
        } else if (ex_find_import(x, callee)) {
            flags |= SEGF_IMPORTED;
        }
        if (!strcmp(callee, "String") && syn_count(x->syn, args) == 1) {
            ex_expr_segs(x, syn_child(x->syn, args, 0), out, depth + 1);
            return;
        }
    }
    if (is_date_call(callee))
        flags |= SEGF_DATE;
    /* `this.typedKey(...)` in a class that inherits typedKey: the base
     * class's helper, as resolution looks it up */
    if (!strncmp(callee, "this.", 5))
        callee = ex_inherited_callee(x, n, callee);
    Seg *s = ex_push_seg(x, out, SEG_CALL, flags, callee, syn_span(n));
    uint32_t cnt = syn_null(args) ? 0 : syn_count(x->syn, args);
    if (cnt) {
        SegList *av = arena_alloc(x->a, cnt * sizeof *av);
        for (uint32_t i = 0; i < cnt; i++)
            ex_expr_segs(x, syn_child(x->syn, args, i), &av[i], depth + 1);
        /* `s` may have moved while arguments were read into other lists,
         * but `out` itself did not grow. */
        s = &out->v[out->n - 1];
        s->args = av;
        s->nargs = cnt;
    }
}

bool ex_name_has_word(const char *name, const char *w);

/* Variable names that say they hold a key or a key part. */
static bool key_named(const char *name)
{
    /* `keyId`, `apiKeyId`, `hashId` name an id (`key_test_${n}`: its `_` is
     * the id's own), not a key; `partitionKeyId`, `skId` a key part */
    size_t l = strlen(name);
    bool id_last = l > 2 && (!strcmp(name + l - 2, "Id") || !strcmp(name + l - 2, "ID") ||
                             (l > 3 && !strcasecmp(name + l - 3, "_id")));
    static const char *const keyish[] = {"pk", "sk", "partition", "sort", "gsi", "lsi",
                                         "prefix", NULL};
    bool part = false;
    for (const char *const *w = keyish; *w && !part; w++)
        part = ex_name_has_word(name, *w);
    if (id_last && !part)
        return false;
    static const char *const words[] = {"pk", "sk", "key", "keys", "prefix", "partition",
                                        "sort", "gsi", "lsi", "hash", "range", NULL};
    for (const char *const *w = words; *w; w++)
        if (ex_name_has_word(name, *w))
            return true;
    return false;
}

static bool empty_string(Ex *x, SynNode n)
{
    const char *v;
    n = unwrap(n);
    return (is(n, "string") || is(n, "template_string")) && ex_string_value(x, n, &v) && !*v;
}

/* A part some keys carry and others do not (`const scope = orgId ?
 * \`ORG#${orgId}#\` : ''`): the part (the key that carries it), or with
 * Ex.optional_left the empty text (the key without it); any other value is
 * itself. */
static SynNode optional_part(Ex *x, SynNode v)
{
    if (!is(v, "ternary_expression"))
        return v;
    SynNode yes = unwrap(field(v, "consequence")), no = unwrap(field(v, "alternative"));
    if (empty_string(x, yes)) {
        SynNode t = yes;
        yes = no;
        no = t;
    }
    if (!empty_string(x, no) || !ex_is_string_like(x, yes) || empty_string(x, yes))
        return v;
    x->optional_seen = true;
    return x->optional_left ? no : yes;
}

/* A REF for an identifier or member path, following local bindings of
 * string-like values and calls. */
/* The call `call` as the one CALL segment it reads as, reading the field
 * `member` of what it returns, the key having written it as `name`
 * (`keys.pk`, or the destructured `pk`) at `at`: the segment is there,
 * where the key reads it (and where the value stays when no helper's
 * field is found). False, with `out` as it was, when the call reads as
 * something else (a framework's, a date's, a library's key builder). */
static bool call_member(Ex *x, SynNode call, const char *member, const char *name, Span at,
                        SegList *out, int depth)
{
    size_t before = out->n;
    ex_expr_segs(x, call, out, depth + 4);
    ex_spend(&x->inline_left, out->n - before + 1);
    Seg *s = out->n == before + 1 ? &out->v[before] : NULL;
    if (s && s->kind == SEG_CALL && !s->member && !s->fallback &&
        !(s->flags & (SEGF_FRAMEWORK | SEGF_DATE))) {
        s->member = member;
        s->name = name;
        s->span = at;
        return true;
    }
    out->n = before;
    x->run.list = NULL;
    return false;
}

/* `keys.pk` where `const keys = briefRunKeys(identity)` (or `await`ed,
 * `as`-cast): the field of the object the call returns. */
static bool member_of_call(Ex *x, SynNode n, const char *path, SegList *out, int depth)
{
    SynNode obj = field(n, "object"), prop = field(n, "property");
    if (!is(n, "member_expression") || !is(obj, "identifier") ||
        !is(prop, "property_identifier") || depth >= MAX_DEPTH || !x->inline_left)
        return false;
    Binding b = ex_find_binding(x, obj, ex_ntext(x, obj), false);
    if (!b.found || b.param || syn_null(b.value) || !is(b.decl, "variable_declarator") ||
        !is(field(b.decl, "name"), "identifier"))
        return false;
    SynNode v = unwrap(b.value);
    return is(v, "call_expression") &&
           call_member(x, v, ex_ntext(x, prop), path, syn_span(n), out, depth);
}

/* The property `const { pk } = ...` or `const { pk: p } = ...` binds to
 * `name` in the declarator `decl`, NULL when it binds no such name. */
static const char *destructured_member(Ex *x, SynNode decl, const char *name)
{
    SynNode pat = field(decl, "name");
    if (!is(decl, "variable_declarator") || !is(pat, "object_pattern"))
        return NULL;
    uint32_t cnt = syn_count(x->syn, pat);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, pat, i);
        if (is(p, "shorthand_property_identifier_pattern") && ex_text_eq(x, p, name))
            return ex_ntext(x, p);
        if (is(p, "pair_pattern") && is(field(p, "value"), "identifier") &&
            ex_text_eq(x, field(p, "value"), name) && is(field(p, "key"), "property_identifier"))
            return ex_ntext(x, field(p, "key"));
    }
    return NULL;
}

void ex_ref_segs(Ex *x, SynNode n, SegList *out, int depth)
{
    const char *name = ex_ntext(x, n);
    if (is(n, "identifier") || is(n, "shorthand_property_identifier")) {
        const char *fw = ex_framework_name(x, name);
        if (fw) {
            Span sp = syn_span(n);
            struct { const char *name, *text; uint32_t flags; } known[] = {
                {"KEY_SEPARATOR", "#", SEGF_SEPARATOR},
                {"VER_SEPARATOR", "@", SEGF_VERSION_SEP},
                {"TENANT_COMMON", "common", SEGF_TENANT | SEGF_COMMON_TENANT},
                {"DEFAULT_TENANT_CODE", "single", SEGF_TENANT | SEGF_COMMON_TENANT},
            };
            for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
                if (!strcmp(fw, known[i].name)) {
                    Seg *s = ex_push_seg(x, out, SEG_TEXT,
                                      SEGF_CONST | SEGF_FRAMEWORK | known[i].flags,
                                      known[i].text, sp);
                    s->name = name;
                    return;
                }
            }
        }
        Binding b = ex_find_binding(x, n, name, false);
        if (b.found && b.param) {
            ex_push_seg(x, out, SEG_REF, SEGF_PARAM, name, syn_span(n));
            return;
        }
        if (!b.found && depth < MAX_DEPTH && x->inline_left) {
            /* `const { pk } = runKeys(run)`: the field of what the call returns */
            ScopeHit p = scopes_lookup(x->scopes, n, name, SCOPE_PATTERNS);
            SynNode v = unwrap(p.value);
            const char *member = p.found && !p.param && is(v, "call_expression")
                                     ? destructured_member(x, p.decl, name) : NULL;
            if (member && call_member(x, v, member, name, syn_span(n), out, depth))
                return;
        }
        if (b.found && !syn_null(b.value) && depth < MAX_DEPTH && x->inline_left) {
            /* `const pk = { S: `USER#${id}` }` ... Key: { PK: pk } */
            SynNode whole = unwrap(ex_attribute_value(x, b.value));
            SynNode v = optional_part(x, whole);
            if (ex_is_string_like(x, v)) {
                SegList inner = {0};
                ex_expr_segs(x, v, &inner, depth + 4);
                ex_spend(&x->inline_left, inner.n + 1);
                bool all_text = inner.n > 0;
                uint32_t carried = 0;
                for (size_t i = 0; i < inner.n; i++) {
                    if (inner.v[i].kind != SEG_TEXT)
                        all_text = false;
                    carried |= inner.v[i].flags & (SEGF_VERSIONED | SEGF_DATE | SEGF_TENANT);
                }
                bool named_const = all_text && is(ex_parent(x, b.decl), "lexical_declaration") &&
                                   ex_text_eq(x, syn_token(x->syn, ex_parent(x, b.decl), 0), "const");
                /* a part some keys carry, with its own separator in front
                 * (`const eventPart = eventId ? \`#${eventId}\` : ''`) */
                bool own_sep = !syn_eq(v, whole) && inner.n && inner.v[0].kind == SEG_TEXT &&
                               inner.v[0].text && strchr("#:|/", inner.v[0].text[0]) &&
                               inner.v[0].text[0];
                if (all_text || key_named(name) || own_sep) {
                    x->run.list = NULL; /* inner's text is copied */
                    /* a named local string constant is a constant */
                    for (size_t i = 0; i < inner.n; i++) {
                        if (named_const) {
                            inner.v[i].flags |= SEGF_CONST;
                            if (!inner.v[i].name)
                                inner.v[i].name = name;
                        }
                        seglist_push(x->a, out, inner.v[i]);
                    }
                    return;
                }
                /* a value built from parts (an id, a date): one component */
                Seg *s = ex_push_seg(x, out, SEG_REF, carried, name, syn_span(n));
                s->name = name;
                return;
            }
            if (is(v, "call_expression") || is(v, "new_expression")) {
                size_t before = out->n;
                ex_expr_segs(x, v, out, depth + 4);
                ex_spend(&x->inline_left, out->n - before + 1);
                if (out->n == before + 1 && out->v[before].kind == SEG_CALL &&
                    !out->v[before].name)
                    out->v[before].name = name;
                return;
            }
        }
        ex_push_seg(x, out, SEG_REF, ex_find_import(x, name) ? SEGF_IMPORTED : 0, name, syn_span(n));
        return;
    }
    /* member path: keep as written, without optional-chaining marks and
     * the line breaks of a chain (`a\n  .b`); one space stays between two
     * words (`new Date(...)`), and a string's text stays whole
     * (`split(' ')`) */
    char *path = arena_strdup(x->a, name);
    char *w = path;
    char quote = 0;
    for (const char *r = path; *r; r++) {
        if (quote) {
            if (*r == '\\' && r[1])
                *w++ = *r++;
            else if (*r == quote)
                quote = 0;
            *w++ = *r;
            continue;
        }
        if (*r == '\'' || *r == '"' || *r == '`')
            quote = *r;
        if (*r == '?' && r[1] == '.')
            continue;
        if (isspace((unsigned char)*r)) {
            while (isspace((unsigned char)r[1]))
                r++;
            if (w > path && text_ident_char(w[-1]) && text_ident_char(r[1]))
                *w++ = ' ';
            continue;
        }
        *w++ = *r;
    }
    *w = '\0';
    uint32_t flags = 0;
    SynNode root = n;
    for (int i = 0; i < MAX_DEPTH && is(root, "member_expression"); i++)
        root = field(root, "object");
    if (member_of_call(x, n, path, out, depth))
        return;
    if (is(root, "identifier") && ex_find_import(x, ex_ntext(x, root)))
        flags |= SEGF_IMPORTED;
    ex_push_seg(x, out, SEG_REF, flags, path, syn_span(n));
}

void ex_expr_segs(Ex *x, SynNode n, SegList *out, int depth)
{
    n = unwrap(n);
    if (syn_null(n))
        return;
    if (depth > MAX_DEPTH) {
        unknown_seg(x, n, out);
        return;
    }
    const char *t = syn_type(n);
    if (syn_type_is(t, "string")) {
        const char *v;
        if (ex_string_value(x, n, &v) && *v) {
            Span sp = syn_span(n);
            if (sp.end_byte - sp.start_byte >= 2) { /* inside the quotes */
                sp.start_byte++, sp.start_col++;
                sp.end_byte--, sp.end_col--;
            }
            push_text(x, out, v, 0, NULL, sp);
        }
        return;
    }
    if (syn_type_is(t, "template_string")) {
        uint32_t cnt = syn_count(x->syn, n);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode c = syn_child(x->syn, n, i);
            if (is(c, "string_fragment")) {
                push_text(x, out, ex_ntext(x, c), 0, NULL, syn_span(c));
            } else if (is(c, "escape_sequence")) {
                char buf[16];
                size_t o = 0;
                uint32_t b = syn_start(c), e = syn_end(c);
                if (e - b < sizeof buf - 1)
                    syn_append_escape(buf, &o, x->src + b, e - b);
                buf[o] = '\0';
                push_text(x, out, arena_strdup(x->a, buf), 0, NULL, syn_span(c));
            } else if (is(c, "template_substitution")) {
                ex_expr_segs(x, syn_child(x->syn, c, 0), out, depth + 1);
            }
        }
        return;
    }
    if (syn_type_is(t, "binary_expression")) {
        SynNode op = field(n, "operator");
        if (ex_text_eq(x, op, "+")) {
            if (is_sum(x, field(n, "left"), field(n, "right"))) {
                unknown_seg(x, n, out);
                return;
            }
            ex_expr_segs(x, field(n, "left"), out, depth + 1);
            ex_expr_segs(x, field(n, "right"), out, depth + 1);
            return;
        }
        if (ex_text_eq(x, op, "??") || ex_text_eq(x, op, "||")) {
            size_t from = out->n;
            ex_expr_segs(x, field(n, "left"), out, depth + 1);
            /* `tenantId || 'SYSTEM'`: a value, else that text */
            const char *alt;
            SynNode r = unwrap(field(n, "right"));
            if (out->n == from + 1 && out->v[from].kind != SEG_TEXT &&
                (is(r, "string") || is(r, "template_string")) && ex_string_value(x, r, &alt) &&
                alt[0])
                out->v[from].fallback = arena_strdup(x->a, alt);
            return;
        }
        unknown_seg(x, n, out);
        return;
    }
    if (syn_type_is(t, "number")) {
        push_text(x, out, ex_ntext(x, n), 0, NULL, syn_span(n));
        return;
    }
    if (syn_type_is(t, "identifier") || syn_type_is(t, "member_expression") ||
        syn_type_is(t, "this") || syn_type_is(t, "subscript_expression") ||
        syn_type_is(t, "shorthand_property_identifier")) {
        ex_ref_segs(x, n, out, depth);
        return;
    }
    if (syn_type_is(t, "call_expression")) {
        call_segs(x, n, out, depth);
        return;
    }
    if (syn_type_is(t, "new_expression")) {
        const char *ctor = ex_ntext(x, field(n, "constructor"));
        ex_push_seg(x, out, SEG_CALL, !strcmp(ctor, "Date") ? SEGF_DATE : 0,
                 arena_printf(x->a, "new %s", ctor), syn_span(n));
        return;
    }
    if (syn_type_is(t, "array")) {
        /* Array keys (Turbine) are joined with the separator. */
        uint32_t cnt = syn_count(x->syn, n);
        for (uint32_t i = 0; i < cnt; i++) {
            if (i > 0)
                ex_push_seg(x, out, SEG_TEXT, SEGF_ARRAY_JOIN, x->cfg->separator, syn_span(n));
            ex_expr_segs(x, syn_child(x->syn, n, i), out, depth + 1);
        }
        return;
    }
    unknown_seg(x, n, out);
}

