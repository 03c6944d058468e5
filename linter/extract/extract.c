/* Extraction: the syntax tree of one file (syntax.h) -> FileIR.
 *
 * Three passes over the tree:
 *   1. module level: imports, re-exports, constants, enums, key helpers
 *      (toplevel.c);
 *   2. data operations (SDK commands, DocumentClient calls, mbc services),
 *      each with the key objects, key conditions and update targets it holds;
 *   3. remaining object literals that carry key attributes (entity key
 *      definitions, command DTOs, key objects built for later use).
 * Values become key segments in segments.c; library profiles (Turbine,
 * ddb-lib, AppSync, wrappers) are in libs.c, tables in code in
 * tables.c. The walks run over the syntax index (a preorder array of the
 * named nodes, syntax.h), not by recursion; expression-to-segment
 * conversion recurses, but never deeper than MAX_DEPTH (deeper input
 * becomes an UNKNOWN segment), so no input can exhaust the stack. */
#include "extract.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "extract_int.h"
#include "scope.h"
#include "syntax.h"
#include "tables.h"
#include "walk.h"


static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }

static void data_call(Ex *x, SynNode n);

static void call_expression(Ex *x, SynNode n)
{
    if (ex_lib_call(x, n))
        return;
    if (ex_sdk_paginator(x, n) || ex_sdk_items_wrapper(x, n))
        return;
    size_t ops = x->ir->ops.n;
    data_call(x, n);
    if (x->ir->ops.n == ops && !ex_positional_query(x, n) && !ex_positional_update(x, n))
        ex_call_site(x, n);
    ex_call_forwards(x, n);
    if (x->ir->ops.n == ops)
        ex_item_calls(x, n);
}

static void data_call(Ex *x, SynNode n)
{
    SynNode fn = unwrap(field(n, "function"));
    if (!is(fn, "member_expression"))
        return;
    SynNode args = field(n, "arguments");
    if (syn_null(args))
        return;
    const char *method = ex_ntext(x, field(fn, "property"));
    const char *recv = ex_receiver_name(x, fn);
    ex_mbc_call(x, n, recv, method, args);
    ex_sdk_v2_call(x, n, recv, method, args);
}

/* ---- the tree walks ---------------------------------------------------- */

typedef void (*Visit)(Ex *x, SynNode n, const char *type);

/* Every named node in preorder (from the file's SyntaxIndex), with its
 * syn_type. */
static void walk(Ex *x, Visit visit)
{
    for (size_t i = 0; i < syn_node_count(x->syn); i++)
        visit(x, syn_node_at(x->syn, i), syn_type_at(x->syn, i));
}

/* Comments that mention keylint (suppression directives), in order. */
static void keylint_comments(Ex *x)
{
    for (size_t i = 0; i < syn_comment_count(x->syn); i++) {
        SynNode n = syn_comment_at(x->syn, i);
        uint32_t b = syn_start(n), e = syn_end(n);
        if (e <= x->len && b < e && memmem(x->src + b, e - b, "keylint", 7)) {
            Comment cm = {nspan(n), ex_ntext(x, n)};
            VEC_PUSH(x->a, &x->ir->comments, cm);
        }
    }
}

static void visit_ops(Ex *x, SynNode n, const char *t)
{
    if (syn_type_is(t, "new_expression")) {
        if (!ex_lib_new(x, n))
            ex_sdk_command(x, n);
    }
    else if (syn_type_is(t, "call_expression"))
        call_expression(x, n);
}

static void visit_objects(Ex *x, SynNode n, const char *t)
{
    if (syn_type_is(t, "method_definition")) {
        ex_key_getter(x, n);
        return;
    }
    if (!syn_type_is(t, "object") || ex_consumed(x, n))
        return;
    if (ex_params_shaped(x, n)) {
        ex_params_op(x, n);
        return;
    }
    if (ex_appsync_request(x, n) || ex_camel_query_params(x, n))
        return;
    ex_object_keys(x, n);
}

/* ---- entry points ------------------------------------------------------ */

enum { MAX_REGION_NOTES = 20 }; /* per file; the rest are counted */

/* A note for each region of the file left unread (syntax.h): the rest of
 * the file is extracted, and a note never changes the exit code. */
static void note_regions(const SynTree *syn, const char *path, Problems *problems)
{
    size_t n = syn_region_count(syn);
    for (size_t i = 0; i < n && i < MAX_REGION_NOTES; i++) {
        const Span *r = &syn_region_at(syn, i)->span;
        problems_add_kind(problems, PROBLEM_NOTE, path, r->start_row + 1, r->start_col + 1,
                          "syntax error, or syntax the parser does not know: lines %u-%u "
                          "not read (the rest of the file is)",
                          r->start_row + 1, r->end_row + 1);
    }
    if (n > MAX_REGION_NOTES) {
        const Span *r = &syn_region_at(syn, MAX_REGION_NOTES)->span;
        problems_add_kind(problems, PROBLEM_NOTE, path, r->start_row + 1, r->start_col + 1,
                          "%zu more regions with syntax errors not read, from line %u on",
                          n - MAX_REGION_NOTES, r->start_row + 1);
    }
}

/* What the IR keeps of extraction: when `compact`, a copy of what it
 * reaches, in an arena of its own. The texts read only to be compared, the
 * segment lists tried and dropped and the blocks that grown arrays left
 * behind go with the old arena (they were four fifths of it on real
 * services). */
enum { KEEP_ONE_COPY = 512 * 1024 };

static FileIR *keep(FileIR *ir, bool compact)
{
    /* Calls passing text to a function no lookup reaches (console.log,
     * t('title')) can never be expanded: not kept. */
    size_t n = 0;
    for (size_t i = 0; i < ir->extracted.n; i++) {
        const KeyExpr *k = &ir->extracted.v[i];
        if (!k->call_site || fileir_may_reach_helper(ir, k->segs.v[0].text))
            ir->extracted.v[n++] = *k;
    }
    ir->extracted.n = n;
    if (!compact)
        return ir;
    /* A small IR is copied twice: the first copy measures, the second
     * fills one block of that size (the first blocks of a small arena
     * would be mostly empty). A large one keeps its first copy. */
    for (int pass = 0; pass < 2; pass++) {
        size_t used = pass ? arena_used(ir->arena) : 0;
        if (pass && used >= KEEP_ONE_COPY)
            break; /* a large one's last block is small beside it */
        Copier c = copier_begin(pass ? arena_new_reserved(used) : arena_new());
        FileIR *out = fileir_copy(&c, ir);
        out->tables = tables_copy(&c, ir->tables);
        copier_end(&c);
        arena_free(ir->arena);
        ir = out;
    }
    return ir;
}

FileIR *extract_file(const char *path, const char *text, size_t len, const Config *cfg,
                     Problems *problems)
{
    return extract_file_reusing(path, text, len, cfg, problems, NULL);
}

FileIR *extract_file_reusing(const char *path, const char *text, size_t len,
                             const Config *cfg, Problems *problems, SynReuse *reuse)
{
    return extract_file_pooled(path, text, len, cfg, problems, reuse, NULL, true);
}

FileIR *extract_file_pooled(const char *path, const char *text, size_t len, const Config *cfg,
                            Problems *problems, SynReuse *reuse, ArenaPool *pool,
                            bool compact)
{
    /* an IR left in this arena must not draw on the pool: it can outlive it */
    Arena *a = compact ? arena_new_pooled(pool) : arena_new();
    FileIR *ir = arena_alloc(a, sizeof *ir);
    ir->arena = a;
    ir->path = arena_strdup(a, path);

    bool jsx = is_tsx_path(path);
    SynFailure why;
    uint64_t parse_start = clock_ns();
    SynTree *syn =
        syn_parse_pooled(text, len, jsx ? SYN_TSX : SYN_TYPESCRIPT, a, &why, reuse, pool);
    ir->parse_ns = clock_ns() - parse_start;
    if (!syn) {
        ir->parse_failed = true;
        problems_add(problems, path, 0, 0, "%s; skipped",
                     why == SYN_GAVE_UP
                         ? "the parser gave up: recovering from this file's syntax errors "
                           "takes more work than any real file needs"
                         : "could not be parsed (out of memory)");
        return keep(ir, compact); /* out of `a`, which may be the pool's */
    }
    note_regions(syn, path, problems);
    ir->code_hash = syn_code_hash(syn);
    size_t budget = len < (SIZE_MAX - INLINE_BUDGET) / INLINE_PER_BYTE
                        ? INLINE_BUDGET + len * INLINE_PER_BYTE
                        : SIZE_MAX;
    Arena *scratch = arena_new_pooled(pool);
    Ex x = {.syn = syn, .a = a, .scratch = scratch, .ir = ir, .src = text, .len = len,
            .cfg = cfg, .key_builder = ex_lib_key_call,
            .scopes = scopes_build(syn, scratch), .inline_left = budget,
            .string_steps_left = budget};
    ex_module_pass(&x, syn_root(syn));
    keylint_comments(&x);
    walk(&x, visit_ops);
    walk(&x, visit_objects);
    extract_tables(syn, x.scopes, a, ir, cfg); /* tables in code: tables.c */
    syn_free(syn);
    arena_free(scratch);
    return keep(ir, compact);
}

void fileir_free(FileIR *ir)
{
    if (!ir)
        return;
    arena_free(ir->resolved);
    arena_free(ir->arena);
}

static void hash_field(StrBuf *b, const char *s)
{
    /* a unit separator between fields, and NULL apart from "" */
    sb_append(b, s ? "\x1f" : "\x1e");
    if (s)
        sb_append(b, s);
}

static void hash_list(StrBuf *b, const StrList *l)
{
    sb_printf(b, "\x1d%zu", l->n);
    for (size_t i = 0; i < l->n; i++)
        hash_field(b, l->v[i]);
}

uint64_t extract_config_hash(const Config *cfg)
{
    if (!cfg)
        return 0;
    Arena *a = arena_new();
    StrBuf b;
    sb_init(&b, a);
    hash_field(&b, cfg->separator);
    hash_list(&b, &cfg->key_pk);
    hash_list(&b, &cfg->key_sk);
    hash_list(&b, &cfg->key_index_pk);
    hash_list(&b, &cfg->key_index_sk);
    sb_printf(&b, "\x1d%zu", cfg->wrappers.n);
    for (size_t i = 0; i < cfg->wrappers.n; i++) {
        const Wrapper *w = &cfg->wrappers.v[i];
        sb_printf(&b, "\x1d%d", (int)w->operation);
        const char *f[] = {w->call, w->table, w->index, w->key_condition, w->names,
                           w->values, w->key, w->item};
        for (size_t j = 0; j < sizeof f / sizeof *f; j++)
            hash_field(&b, f[j]);
    }
    uint64_t h = hash_bytes(b.s ? b.s : "", b.len);
    arena_free(a);
    return h;
}
