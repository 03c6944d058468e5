/* The syntax layer: the code hash (comments do not count, code does),
 * incremental parsing (a tree edited and parsed again is the tree a parse
 * from scratch gives, through edits of every kind on real inputs) and
 * fields read from the index (tree-sitter's answers, and the grammars'
 * own list of fields that hold tokens). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#endif
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bindings.h"
#include "syntax.h"
#include "walk.h"

static uint64_t hash_of(const char *text)
{
    Arena *a = arena_new();
    SynTree *t = syn_parse(text, strlen(text), SYN_TYPESCRIPT, a, NULL);
    assert_non_null(t);
    uint64_t h = syn_code_hash(t);
    syn_free(t);
    arena_free(a);
    return h;
}

static void code_hash(void **state)
{
    (void)state;
    const char *base = "// head\nconst pk = `ORDER#${id}`; /* a */\nsend(pk);\n";
    /* comments changed, grown over lines, or emptied: the same code */
    assert_true(hash_of(base) ==
                hash_of("// a longer head comment\nconst pk = `ORDER#${id}`; /* a */\nsend(pk);\n"));
    assert_true(hash_of(base) ==
                hash_of("// head\nconst pk = `ORDER#${id}`; /* a\n\n b */\nsend(pk);\n"));
    assert_true(hash_of(base) == hash_of("//\nconst pk = `ORDER#${id}`; /**/\nsend(pk);\n"));
    /* code changed, whitespace between tokens included */
    assert_true(hash_of(base) != hash_of("// head\nconst pk = `ORDER#${ id}`; /* a */\nsend(pk);\n"));
    assert_true(hash_of(base) != hash_of("// head\nconst pk = `ORDER#${id}`;  /* a */\nsend(pk);\n"));
    assert_true(hash_of(base) != hash_of("// head\n\nconst pk = `ORDER#${id}`; /* a */\nsend(pk);\n"));
    /* a comment marker that turns into code */
    assert_true(hash_of(base) != hash_of("/ head\nconst pk = `ORDER#${id}`; /* a */\nsend(pk);\n"));
    /* comment text inside a string is code */
    assert_true(hash_of("f('// a');\n") != hash_of("f('// b');\n"));
}

/* An edit's three places as rows and columns. */
static void assert_places(SynEdit e, uint32_t sr, uint32_t sc, uint32_t or, uint32_t oc,
                          uint32_t nr, uint32_t nc)
{
    assert_int_equal(e.start_row, sr);
    assert_int_equal(e.start_col, sc);
    assert_int_equal(e.old_end_row, or);
    assert_int_equal(e.old_end_col, oc);
    assert_int_equal(e.new_end_row, nr);
    assert_int_equal(e.new_end_col, nc);
}

static void edit_points(void **state)
{
    (void)state;
    const char *old = "ab\ncde\nf";
    /* "de\nf" -> "X\nYZ" */
    SynEdit e = syn_edit_of(old, strlen(old), 4, 8, "X\nYZ", 4);
    assert_int_equal(e.start, 4);
    assert_int_equal(e.old_end, 8);
    assert_int_equal(e.new_end, 8);
    assert_places(e, 1, 1, 2, 1, 2, 2);
    /* an insertion on one line */
    e = syn_edit_of(old, strlen(old), 1, 1, "zz", 2);
    assert_int_equal(e.new_end, 3);
    assert_places(e, 0, 1, 0, 1, 0, 3);
}

/* Two trees of the same text are the same: every indexed node's type and
 * span, the comments and the unread regions. */
static void assert_same_trees(const SynTree *x, const SynTree *y, const char *what)
{
    if (syn_node_count(x) != syn_node_count(y))
        fail_msg("%s: %zu nodes after the incremental parse, %zu from scratch", what,
                 syn_node_count(x), syn_node_count(y));
    for (size_t i = 0; i < syn_node_count(x); i++) {
        SynNode a = syn_node_at(x, i), b = syn_node_at(y, i);
        Span sa = syn_span(a), sb = syn_span(b);
        if (strcmp(syn_type(a), syn_type(b)) || memcmp(&sa, &sb, sizeof sa) ||
            syn_end_of(x, i) != syn_end_of(y, i))
            fail_msg("%s: node %zu is %s at %u:%u incrementally, %s at %u:%u from scratch", what,
                     i, syn_type(a), sa.start_row + 1, sa.start_col, syn_type(b),
                     sb.start_row + 1, sb.start_col);
    }
    assert_int_equal(syn_comment_count(x), syn_comment_count(y));
    for (size_t i = 0; i < syn_comment_count(x); i++) {
        Span sa = syn_span(syn_comment_at(x, i)), sb = syn_span(syn_comment_at(y, i));
        assert_memory_equal(&sa, &sb, sizeof sa);
    }
    assert_int_equal(syn_region_count(x), syn_region_count(y));
    for (size_t i = 0; i < syn_region_count(x); i++)
        assert_memory_equal(&syn_region_at(x, i)->span, &syn_region_at(y, i)->span,
                            sizeof(Span));
    assert_true(syn_code_hash(x) == syn_code_hash(y));
}

/* A deterministic sequence of edits on `path`: characters typed and
 * deleted in code and comments, lines split and joined, a brace and a
 * quote left open (syntax errors) and closed again, a block replaced; the
 * incremental tree is compared with a fresh parse after each. */
static void edits_on_text(const char *path, char *text, size_t len, SynLang lang,
                          const char *const *inserts, size_t ninserts);

static void edits_on(const char *path, SynLang lang)
{
    size_t len;
    Problems problems;
    problems_init(&problems);
    char *text = read_source(path, &len, &problems);
    assert_non_null(text);
    problems_free(&problems);
    static const char *const inserts[] = {"x", "\n", "{", "'", "// c\n", "}", "`${a}`", ""};
    edits_on_text(path, text, len, lang, inserts, sizeof inserts / sizeof *inserts);
}

/* The same on `text` (malloc'd, taken), inserting inserts[0..ninserts)
 * in turn. */
static void edits_on_text(const char *path, char *text, size_t len, SynLang lang,
                          const char *const *inserts, size_t ninserts)
{
    SynReuse *r = syn_reuse_new();
    Arena *a = arena_new();
    SynTree *first = syn_parse_reusing(text, len, lang, a, NULL, r);
    assert_non_null(first);
    syn_free(first);
    uint32_t seed = 12345;
    for (int step = 0; step < 40; step++) {
        seed = seed * 1103515245u + 12345u;
        size_t at = len ? (seed >> 8) % (len + 1) : 0;
        seed = seed * 1103515245u + 12345u;
        size_t cut = step % 3 == 2 ? (seed >> 8) % 40 : step % 5 == 4 ? 1 : 0;
        if (at + cut > len)
            cut = len - at;
        const char *ins = inserts[step % ninserts];
        size_t il = strlen(ins);
        SynEdit e = syn_edit_of(text, len, at, at + cut, ins, il);
        char *next = malloc(len - cut + il + 1);
        assert_non_null(next);
        memcpy(next, text, at);
        memcpy(next + at, ins, il);
        memcpy(next + at + il, text + at + cut, len - at - cut + 1);
        free(text);
        text = next;
        len = len - cut + il;
        syn_reuse_edit(r, &e);
        Arena *b = arena_new();
        SynTree *inc = syn_parse_reusing(text, len, lang, b, NULL, r);
        SynTree *fresh = syn_parse(text, len, lang, b, NULL);
        if (inc && fresh) {
            size_t compared;
            assert_int_equal(syn_field_check(inc, &compared), 0);
            assert_int_equal(syn_child_count_check(inc, &compared), 0);
            char what[4400];
            snprintf(what, sizeof what, "%s, edit %d at byte %zu", path, step, at);
            assert_same_trees(inc, fresh, what);
        } else {
            assert_true(!inc == !fresh);
        }
        syn_free(inc);
        syn_free(fresh);
        arena_free(b);
    }
    syn_reuse_free(r);
    arena_free(a);
    free(text);
}

static void incremental_parse(void **state)
{
    (void)state;
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    if (!root)
        root = ".";
    static const struct { const char *file; SynLang lang; } inputs[] = {
        {"fixtures/example-service/src/orders/order.service.ts", SYN_TYPESCRIPT},
        {"fixtures/magic-string/camel-dal/tasks.ts", SYN_TYPESCRIPT},
        {"fixtures/missing-tenant/tables/src/catalog.ts", SYN_TYPESCRIPT},
        {"fixtures/unknown-index/src/infra.ts", SYN_TYPESCRIPT},
    };
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, inputs[i].file);
        edits_on(path, inputs[i].lang);
    }
}

/* One edit of `text` (malloc'd, taken) at `at`: the incremental tree is
 * the fresh one. */
static void edits_at(char *text, size_t len, size_t at, size_t cut, const char *const *ins)
{
    SynReuse *r = syn_reuse_new();
    Arena *a = arena_new();
    syn_free(syn_parse_reusing(text, len, SYN_TYPESCRIPT, a, NULL, r));
    size_t il = strlen(ins[0]);
    SynEdit e = syn_edit_of(text, len, at, at + cut, ins[0], il);
    char *next = malloc(len - cut + il + 1);
    assert_non_null(next);
    memcpy(next, text, at);
    memcpy(next + at, ins[0], il);
    memcpy(next + at + il, text + at + cut, len - at - cut + 1);
    syn_reuse_edit(r, &e);
    SynTree *inc = syn_parse_reusing(next, len - cut + il, SYN_TYPESCRIPT, a, NULL, r);
    SynTree *fresh = syn_parse(next, len - cut + il, SYN_TYPESCRIPT, a, NULL);
    assert_true(inc && fresh);
    assert_same_trees(inc, fresh, text);
    syn_free(inc);
    syn_free(fresh);
    syn_reuse_free(r);
    arena_free(a);
    free(next);
    free(text);
}

/* Lines end at "\r\n", "\n" and a lone "\r" (an old Mac file's), as in
 * editors: a tree's rows are those lines, a line comment ends at a lone
 * "\r", and an automatic semicolon is inserted there. */
static void lone_cr_lines(void **state)
{
    (void)state;
    Arena *a = arena_new();
    const char *text = "// note\rconst a = 1\rconst b = `x\ry`;\r\nconst c = 2;";
    SynTree *t = syn_parse(text, strlen(text), SYN_TYPESCRIPT, a, NULL);
    assert_non_null(t);
    assert_int_equal(syn_region_count(t), 0); /* no syntax error */
    SynNode root = syn_root(t);
    assert_int_equal(syn_count(t, root), 3); /* three declarations */
    static const uint32_t rows[] = {1, 2, 4};
    for (uint32_t i = 0; i < 3; i++) {
        Span sp = syn_span(syn_child(t, root, i));
        assert_int_equal(sp.start_row, rows[i]);
        assert_int_equal(sp.start_col, 0);
    }
    assert_int_equal(syn_span(syn_comment_at(t, 0)).end_row, 0);
    syn_free(t);
    /* an edit that joins a lone "\r" and a "\n" into one line end, or
     * parts them: the incremental tree is the fresh one */
    SynEdit e = syn_edit_of("a\rb", 3, 2, 2, "\n", 1);
    assert_int_equal(e.start, 1); /* the "\r" before it is in the edit */
    assert_places(e, 0, 1, 1, 0, 1, 0);
    e = syn_edit_of("a\r\nb", 4, 2, 3, "", 0);
    assert_places(e, 0, 1, 1, 0, 1, 0);
    arena_free(a);
    static const struct {
        const char *text;
        size_t at, cut;
        const char *ins;
    } joins[] = {
        {"const a = 1\rconst b = 2\r", 12, 0, "\n"},   /* "\r" + "\n" */
        {"const a = 1\r\nconst b = 2\r", 12, 1, ""},  /* "\r\n" - "\n" */
        {"const a = 1\rconst b = 2\r", 12, 5, "\nlet"}, /* joined, and more */
    };
    for (size_t i = 0; i < sizeof joins / sizeof *joins; i++) {
        char *t = strdup(joins[i].text);
        assert_non_null(t);
        const char *one[] = {joins[i].ins};
        edits_at(t, strlen(t), joins[i].at, joins[i].cut, one);
    }

    const char *root_dir = getenv("KEYLINT_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/fixtures/example-service/src/orders/order.service.ts",
             root_dir ? root_dir : ".");
    size_t len;
    Problems problems;
    problems_init(&problems);
    char *src = read_source(path, &len, &problems);
    assert_non_null(src);
    problems_free(&problems);
    for (size_t i = 0; i < len; i++)
        if (src[i] == '\n')
            src[i] = '\r';
    static const char *const inserts[] = {"\n", "x", "\r", "\r\n", "{", "// c\r", "}", ""};
    edits_on_text(path, src, len, SYN_TYPESCRIPT, inserts, sizeof inserts / sizeof *inserts);
}

/* syn_field answers from the index when every child that fills a field
 * is indexed: the answer must be tree-sitter's, for every node and field,
 * on every fixture source and on texts with comments inside fields,
 * syntax errors and unread regions. */
static size_t fields_compared, fields_differ;
/* and the index's walk trusts each node's child count (syn_child_count_check) */
static size_t nodes_walked, counts_differ;

static int check_fields_of(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t n = strlen(path);
    bool tsx = n > 4 && !strcmp(path + n - 4, ".tsx");
    if (flag != FTW_F || !(tsx || (n > 3 && !strcmp(path + n - 3, ".ts"))))
        return 0;
    size_t len;
    Problems problems;
    problems_init(&problems);
    char *text = read_source(path, &len, &problems);
    problems_free(&problems);
    if (!text)
        return 0;
    Arena *a = arena_new();
    SynTree *t = syn_parse(text, len, tsx ? SYN_TSX : SYN_TYPESCRIPT, a, NULL);
    if (t) {
        size_t compared;
        size_t bad = syn_field_check(t, &compared);
        if (bad)
            fprintf(stderr, "%s: %zu field answers differ\n", path, bad);
        fields_differ += bad;
        fields_compared += compared;
        size_t walked, counts = syn_child_count_check(t, &walked);
        if (counts)
            fprintf(stderr, "%s: %zu child counts differ from the cursor's\n", path, counts);
        counts_differ += counts;
        nodes_walked += walked;
    }
    syn_free(t);
    arena_free(a);
    free(text);
    return 0;
}

static void fields_from_index(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "const x = a /* c */ + b; f(/* c */ y); obj.  // c\n  m();",
        "class A { m(/* a */ x: string /* b */): void { return; } }",
        "function f( { return g(x) } const k = { pk: `A#${id}` };",
        "if (a) { b( } else { c = d[ ; } e.f(g);",
        "const y = <T,>(v: T) => v ?? (w as any)!.z;",
    };
    fields_compared = fields_differ = nodes_walked = counts_differ = 0;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        Arena *a = arena_new();
        SynTree *t = syn_parse(texts[i], strlen(texts[i]), SYN_TYPESCRIPT, a, NULL);
        assert_non_null(t);
        size_t compared;
        fields_differ += syn_field_check(t, &compared);
        fields_compared += compared;
        counts_differ += syn_child_count_check(t, &compared);
        syn_free(t);
        arena_free(a);
    }
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fixtures", root ? root : ".");
    assert_int_equal(nftw(dir, check_fields_of, 16, FTW_PHYS), 0);
    assert_int_equal(fields_differ, 0);
    assert_true(fields_compared > 100000);
    assert_int_equal(counts_differ, 0);
    assert_true(nodes_walked > 20000);
}

/* The index asks tree-sitter for the field of a token only under the
 * types syn_token_fields names: those must be exactly the types whose
 * fields the grammars (node-types.json of each grammar the build uses)
 * say can hold an unnamed node. */
static void token_fields_of_grammars(void **state)
{
    (void)state;
    const char *root = getenv("KEYLINT_SOURCE_ROOT");
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/subprojects/tree-sitter-*/package/{typescript/,tsx/,}src/node-types.json",
             root ? root : ".");
    glob_t g;
    assert_int_equal(glob(pattern, GLOB_BRACE, NULL, &g), 0);
    assert_true(g.gl_pathc >= 3); /* TypeScript, TSX, HCL */
    size_t named_types = 0, listed = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        json_error_t err;
        json_t *types = json_load_file(g.gl_pathv[i], 0, &err);
        if (!types)
            fail_msg("%s:%d: %s", g.gl_pathv[i], err.line, err.text);
        size_t k;
        json_t *ty;
        json_array_foreach(types, k, ty) {
            const char *name = json_string_value(json_object_get(ty, "type"));
            if (!name || !json_is_true(json_object_get(ty, "named")))
                continue;
            named_types++;
            bool tokens = false;
            const char *field;
            json_t *spec;
            json_object_foreach(json_object_get(ty, "fields"), field, spec) {
                size_t m;
                json_t *alt;
                json_array_foreach(json_object_get(spec, "types"), m, alt)
                    tokens = tokens || json_is_false(json_object_get(alt, "named"));
            }
            if (tokens != syn_token_fields(name))
                fail_msg("%s: %s: node-types.json says %s field holds a token; syn_token_fields says %s",
                         g.gl_pathv[i], name, tokens ? "a" : "no", tokens ? "no" : "yes");
            listed += tokens;
        }
        json_decref(types);
    }
    globfree(&g);
    assert_true(named_types > 300);
    assert_true(listed >= 8);
}

/* Edits whose tree was never kept, a reset, and a NULL reuse: plain
 * parses. */
static void reuse_edges(void **state)
{
    (void)state;
    SynReuse *r = syn_reuse_new();
    SynEdit e = syn_edit_of("ab", 2, 0, 1, "x", 1);
    syn_reuse_edit(r, &e); /* no tree yet: nothing to edit */
    Arena *a = arena_new();
    SynTree *t = syn_parse_reusing("xb;", 3, SYN_TYPESCRIPT, a, NULL, r);
    assert_non_null(t);
    syn_free(t);
    syn_reuse_reset(r);
    t = syn_parse_reusing("const a = 1;", 12, SYN_TSX, a, NULL, r);
    assert_non_null(t);
    assert_true(syn_node_count(t) > 3);
    syn_free(t);
    /* a tree of another language is not reused */
    t = syn_parse_reusing("const a = 1;", 12, SYN_TYPESCRIPT, a, NULL, r);
    assert_non_null(t);
    syn_free(t);
    t = syn_parse_reusing("const a = 1;", 12, SYN_TYPESCRIPT, a, NULL, NULL);
    assert_non_null(t);
    syn_free(t);
    syn_reuse_free(r);
    syn_reuse_free(NULL);
    arena_free(a);
}

/* What `name` means at the first '@' of `src` (the '@' is read as a
 * space): its kind, and for an import where it comes from. */
static BindingKind bound_at(const char *src, const char *name, const char **source)
{
    Arena *a = arena_new();
    char *text = strdup(src);
    assert_non_null(text);
    char *at = strchr(text, '@');
    assert_non_null(at);
    *at = ' ';
    SynTree *t = syn_parse(text, strlen(text), SYN_TYPESCRIPT, a, NULL);
    assert_non_null(t);
    Bindings *b = bindings_build(t, a);
    Binding r = bindings_at(b, (uint32_t)(at - text), name);
    static char src_copy[64];
    if (source) {
        snprintf(src_copy, sizeof src_copy, "%s", r.source ? r.source : "");
        *source = src_copy;
    }
    syn_free(t);
    arena_free(a);
    free(text);
    return r.kind;
}

static void bindings_scopes(void **state)
{
    (void)state;
    const char *from = NULL;
    /* free, imported, a module constant */
    assert_int_equal(bound_at("f(@X);", "X", NULL), BINDING_NONE);
    assert_int_equal(bound_at("import { X } from './keys';\nf(@X);", "X", &from), BINDING_IMPORT);
    assert_string_equal(from, "./keys");
    assert_int_equal(bound_at("import { Y as X } from \"./a'b\";\nf(@X);", "X", &from),
                     BINDING_IMPORT);
    assert_string_equal(from, "./a'b");
    assert_int_equal(bound_at("export const X = 'A#';\nfunction g() { return @X; }", "X", NULL),
                     BINDING_CONST);
    /* other module-level bindings */
    const char *module[] = {
        "let X = 'a';\nf(@X);",
        "var X = 'a';\nf(@X);",
        "const { X } = obj;\nf(@X);",
        "const [a, { b: X }] = obj;\nf(@X);",
        "function X() {}\nf(@X);",
        "class X {}\nf(@X);",
        "enum X { A = 'a' }\nf(@X);",
        "import * as X from './o';\nf(@X);",
        "import X from './o';\nf(@X);",
        "const X = 'a';\nvar X;\nf(@X);",
        "f(@X);\nfunction g() {}\nvar X = 1;",
    };
    for (size_t i = 0; i < sizeof module / sizeof *module; i++) {
        BindingKind k = bound_at(module[i], "X", NULL);
        if (k != BINDING_MODULE && k != BINDING_IMPORT)
            fail_msg("%s: %d", module[i], (int)k);
        assert_true(i < 7 || i > 8 || k == BINDING_IMPORT);
    }
    /* bindings around the place */
    const char *local[] = {
        "import { X } from './k';\nfunction g(X) { return @X; }",
        "import { X } from './k';\nfunction g(id: string, X = 'L#') { return `${@X}`; }",
        "import { X } from './k';\nconst g = (X) => @X;",
        "import { X } from './k';\nconst g = X => @X;",
        "import { X } from './k';\nfunction g({ a, X }) { return @X; }",
        "import { X } from './k';\nfunction g([, ...X]) { return @X; }",
        "import { X } from './k';\nfunction g() { const X = 'L'; return @X; }",
        "import { X } from './k';\nfunction g() { if (a) { var X = 1; } return @X; }",
        "import { X } from './k';\nfunction g() { function X() {} return @X; }",
        "import { X } from './k';\nfunction g() { class X {} return @X; }",
        "import { X } from './k';\ntry { f(); } catch (X) { @X; }",
        "import { X } from './k';\nfor (const X of xs) { @X; }",
        "import { X } from './k';\nfor (let X = 0; X < 2; X++) { @X; }",
        "import { X } from './k';\nconst g = function X() { return @X; };",
        "import { X } from './k';\nconst C = class X { m() { return @X; } };",
        "import { X } from './k';\nswitch (a) { case 1: let X = 2; @X; }",
        "import { X } from './k';\nclass C { m(X: string) { return @X; } }",
    };
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        if (bound_at(local[i], "X", NULL) != BINDING_LOCAL)
            fail_msg("not local: %s", local[i]);
    /* what does not bind a value name there */
    const char *not_local[] = {
        "import { X } from './k';\nfunction g() { const o = { X: 1 }; return @X; }",
        "import { X } from './k';\nfunction g() { return o.X + @X; }",
        "import { X } from './k';\nfunction g() { { const X = 1; } return @X; }",
        "import { X } from './k';\nfunction g() { type X = string; interface X {} return @X; }",
        "import { X } from './k';\nclass C { X() {} m() { return @X; } }",
        "import { X } from './k';\nclass C { X = 1; m() { return @X; } }",
        "import { X } from './k';\nfunction g(a = X) { return @X; }",
        "import { X } from './k';\nconst g = () => { const { a: b } = X; return @X; };",
        "import { X } from './k';\nfunction h() { const X = 1; }\nfunction g() { return @X; }",
    };
    for (size_t i = 0; i < sizeof not_local / sizeof *not_local; i++)
        if (bound_at(not_local[i], "X", NULL) != BINDING_IMPORT)
            fail_msg("not the import: %s", not_local[i]);
}

static void bindings_type_only_and_free_uses(void **state)
{
    (void)state;
    Arena *a = arena_new();
    const char *src = "import type { T } from './t';\nimport { type U, V } from './u';\n"
                      "const o = { W };\nf(W, o.W, T, V);\nfunction g(W) { return W; }\n";
    SynTree *t = syn_parse(src, strlen(src), SYN_TYPESCRIPT, a, NULL);
    assert_non_null(t);
    Bindings *b = bindings_build(t, a);
    uint32_t end = (uint32_t)strlen(src) - 1;
    assert_true(bindings_at(b, end, "T").type_only);
    assert_true(bindings_at(b, end, "U").type_only);
    assert_false(bindings_at(b, end, "V").type_only);
    assert_int_equal(bindings_at(b, end, "V").kind, BINDING_IMPORT);
    /* `{ W }` and `f(W ...)` read a global W; `o.W` does not, nor the
     * parameter and its use */
    assert_int_equal(bindings_free_uses(b, "W"), 2);
    assert_int_equal(bindings_free_uses(b, "W"), 2); /* cached */
    assert_int_equal(bindings_free_uses(b, "V"), 0);
    assert_int_equal(bindings_free_uses(b, "Z"), 0);
    syn_free(t);
    arena_free(a);
}

/* The value of `const v = ...;` in `text`, unwrapped, as its type. */
static const char *unwrapped_type(const char *text, Arena *a)
{
    SynTree *t = syn_parse(text, strlen(text), SYN_TYPESCRIPT, a, NULL);
    assert_non_null(t);
    const char *type = "";
    for (size_t i = 0; i < syn_node_count(t); i++)
        if (syn_type_is(syn_type_at(t, i), "variable_declarator")) {
            SynNode v = syn_field(t, syn_node_at(t, i), "value");
            type = syn_type(syn_unwrap(t, v));
            break;
        }
    syn_free(t);
    return type; /* a static string of the grammar's */
}

static void unwrap_shapes(void **state)
{
    (void)state;
    Arena *a = arena_new();
    assert_string_equal(unwrapped_type("const v = ({ a: 1 } as T);", a), "object");
    assert_string_equal(unwrapped_type("const v = <T>{ a: 1 };", a), "object");
    assert_string_equal(unwrapped_type("const v = await x!;", a), "identifier");
    /* the grammar reads `{...} as A.B.C` as `({...} as A.B).C` */
    assert_string_equal(unwrapped_type("const v = { a: 1 } as DynamoDB.DocumentClient.QueryInput;", a),
                        "object");
    assert_string_equal(unwrapped_type("const v = { a: 1 } satisfies A.B.C;", a), "object");
    /* a member read of a parenthesized cast stays one */
    assert_string_equal(unwrapped_type("const v = (x as T).field;", a), "member_expression");
    assert_string_equal(unwrapped_type("const v = x.y.z;", a), "member_expression");
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(code_hash),
        cmocka_unit_test(unwrap_shapes),
        cmocka_unit_test(bindings_scopes),
        cmocka_unit_test(bindings_type_only_and_free_uses),
        cmocka_unit_test(edit_points),
        cmocka_unit_test(incremental_parse),
        cmocka_unit_test(lone_cr_lines),
        cmocka_unit_test(fields_from_index),
        cmocka_unit_test(token_fields_of_grammars),
        cmocka_unit_test(reuse_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
