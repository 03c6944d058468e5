/* Reading tree-sitter nodes: shared by every pass that reads a syntax tree
 * (extraction of keys and operations, table definitions in code). */
#include "syntax.h"

#include <stdint.h>
#include <string.h>


bool syn_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

TSNode syn_field(TSNode n, const char *name)
{
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

Span syn_span(TSNode n)
{
    TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
    return (Span){ts_node_start_byte(n), ts_node_end_byte(n), s.row, s.column,
                  e.row, e.column};
}

const char *syn_text(const Source *src, TSNode n)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (e > src->len)
        e = (uint32_t)src->len;
    if (s > e)
        s = e;
    return arena_strndup(src->arena, src->text + s, e - s);
}

bool syn_text_eq(const Source *src, TSNode n, const char *s)
{
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    size_t l = strlen(s);
    return e <= src->len && e - b == l && !memcmp(src->text + b, s, l);
}

/* Strip wrappers that do not change a value. */
TSNode syn_unwrap(TSNode n)
{
    for (int i = 0; i < SYN_MAX_UNWRAP && !ts_node_is_null(n); i++) {
        const char *t = ts_node_type(n);
        if (!strcmp(t, "parenthesized_expression") || !strcmp(t, "as_expression") ||
            !strcmp(t, "satisfies_expression") || !strcmp(t, "non_null_expression") ||
            !strcmp(t, "type_assertion") || !strcmp(t, "await_expression")) {
            TSNode inner = ts_node_named_child(n, 0);
            if (!strcmp(t, "type_assertion")) /* <T>expr: the expression is last */
                inner = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
            if (ts_node_is_null(inner))
                return n;
            n = inner;
        } else {
            break;
        }
    }
    return n;
}

bool syn_is_function(TSNode n)
{
    const char *t = ts_node_type(n);
    return !strcmp(t, "function_declaration") || !strcmp(t, "function_expression") ||
           !strcmp(t, "arrow_function") || !strcmp(t, "method_definition") ||
           !strcmp(t, "generator_function_declaration") ||
           !strcmp(t, "generator_function") || !strcmp(t, "function");
}

void syn_append_escape(char *out, size_t *o, const char *e, size_t n)
{
    /* e points at the backslash */
    if (n < 2) {
        return;
    }
    char c = e[1];
    switch (c) {
    case 'n': out[(*o)++] = '\n'; break;
    case 't': out[(*o)++] = '\t'; break;
    case 'r': out[(*o)++] = '\r'; break;
    case '0': out[(*o)++] = '\0'; break;
    case '\n': break; /* line continuation */
    default:
        if (c == 'u' || c == 'x') { /* keep \u and \x escapes as written */
            memcpy(out + *o, e, n);
            *o += n;
        } else {
            out[(*o)++] = c;
        }
    }
}

/* The value of a string literal, or of a template literal without
 * substitutions. */
bool syn_string_value(const Source *src, TSNode n, const char **out)
{
    n = syn_unwrap(n);
    if (!syn_is(n, "string") && !syn_is(n, "template_string"))
        return false;
    uint32_t cnt = ts_node_named_child_count(n);
    size_t cap = ts_node_end_byte(n) - ts_node_start_byte(n) + 1;
    char *buf = arena_alloc(src->arena, cap);
    size_t o = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        TSNode c = ts_node_named_child(n, i);
        uint32_t b = ts_node_start_byte(c), e = ts_node_end_byte(c);
        if (e > src->len || b > e)
            return false;
        if (syn_is(c, "string_fragment")) {
            memcpy(buf + o, src->text + b, e - b);
            o += e - b;
        } else if (syn_is(c, "escape_sequence")) {
            syn_append_escape(buf, &o, src->text + b, e - b);
        } else {
            return false; /* substitution */
        }
    }
    buf[o] = '\0';
    *out = buf;
    return true;
}


typedef struct SynParent {
    const void *id;
    TSNode parent;
} SynParent;

static size_t parent_slot(const SyntaxIndex *ix, const void *id)
{
    uintptr_t h = (uintptr_t)id;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 7) & (ix->cap - 1);
    while (ix->parents[i].id && ix->parents[i].id != id)
        i = (i + 1) & (ix->cap - 1);
    return i;
}

SyntaxIndex *syn_index(Arena *a, TSNode root, const TSLanguage *lang)
{
    SyntaxIndex *ix = arena_alloc(a, sizeof *ix);
    ix->lang = lang;
    VEC(SynParent) pairs = {0};
    VEC(TSNode) stack = {0}, nodes = {0};
    TSTreeCursor c = ts_tree_cursor_new(root);
    VEC_PUSH(a, &stack, root);
    VEC_PUSH(a, &nodes, root);
    for (;;) {
        bool moved = ts_tree_cursor_goto_first_child(&c);
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&c)) {
                stack.n--;
                moved = true;
            } else if (ts_tree_cursor_goto_parent(&c)) {
                stack.n--;
            } else {
                break;
            }
        }
        if (!moved)
            break;
        TSNode n = ts_tree_cursor_current_node(&c);
        VEC_PUSH(a, &pairs, ((SynParent){n.id, stack.v[stack.n - 1]}));
        VEC_PUSH(a, &stack, n);
        if (ts_node_is_named(n))
            VEC_PUSH(a, &nodes, n);
    }
    ts_tree_cursor_delete(&c);
    ix->nodes = nodes.v;
    ix->n = nodes.n;
    ix->cap = 16;
    while (ix->cap < pairs.n * 2)
        ix->cap *= 2;
    ix->parents = arena_alloc(a, ix->cap * sizeof *ix->parents);
    for (size_t i = 0; i < pairs.n; i++)
        ix->parents[parent_slot(ix, pairs.v[i].id)] = pairs.v[i];
    return ix;
}

TSNode syn_parent(const SyntaxIndex *ix, TSNode n)
{
    if (ix && ix->cap && n.id) {
        size_t i = parent_slot(ix, n.id);
        if (ix->parents[i].id == n.id)
            return ix->parents[i].parent;
    }
    return ts_node_parent(n);
}

TSNode syn_field_at(SyntaxIndex *ix, TSNode n, const char *name)
{
    for (size_t i = 0; i < ix->nfields; i++)
        if (ix->fields[i].name == name)
            return ts_node_child_by_field_id(n, ix->fields[i].id);
    TSFieldId id = ts_language_field_id_for_name(ix->lang, name, (uint32_t)strlen(name));
    if (ix->nfields < sizeof ix->fields / sizeof *ix->fields) {
        ix->fields[ix->nfields].name = name;
        ix->fields[ix->nfields++].id = id;
    }
    return ts_node_child_by_field_id(n, id);
}

bool syn_subtree(const SyntaxIndex *ix, TSNode root, size_t *from, size_t *to)
{
    uint32_t start = ts_node_start_byte(root), end = ts_node_end_byte(root);
    /* the first node starting at or after root's start, then root itself
     * among those starting at the same byte (ancestors come first) */
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ts_node_start_byte(ix->nodes[mid]) < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo < ix->n && ts_node_start_byte(ix->nodes[lo]) == start &&
           !ts_node_eq(ix->nodes[lo], root))
        lo++;
    if (lo >= ix->n || !ts_node_eq(ix->nodes[lo], root))
        return false;
    size_t i = lo + 1;
    while (i < ix->n && ts_node_start_byte(ix->nodes[i]) < end)
        i++;
    /* zero-width nodes at the very end still belong to root */
    while (i < ix->n && ts_node_start_byte(ix->nodes[i]) == end &&
           ts_node_end_byte(ix->nodes[i]) == end && ts_node_start_byte(root) != end &&
           ts_node_eq(syn_parent(ix, ix->nodes[i]), root))
        i++;
    *from = lo + 1;
    *to = i;
    return true;
}

size_t syn_skip(const SyntaxIndex *ix, size_t i, size_t to)
{
    uint32_t end = ts_node_end_byte(ix->nodes[i]);
    size_t j = i + 1;
    while (j < to && ts_node_start_byte(ix->nodes[j]) < end)
        j++;
    return j;
}

const char *syn_prop_name(const Source *src, TSNode prop, TSNode *computed)
{
    *computed = (TSNode){0};
    if (syn_is(prop, "shorthand_property_identifier"))
        return syn_text(src, prop);
    if (!syn_is(prop, "pair"))
        return NULL;
    TSNode key = syn_field(prop, "key");
    const char *s;
    if (syn_is(key, "property_identifier") || syn_is(key, "number"))
        return syn_text(src, key);
    if (syn_is(key, "string") && syn_string_value(src, key, &s))
        return s;
    if (syn_is(key, "computed_property_name")) {
        TSNode inner = syn_unwrap(ts_node_named_child(key, 0));
        if (syn_string_value(src, inner, &s))
            return s;
        if (syn_is(inner, "identifier") || syn_is(inner, "member_expression"))
            *computed = inner;
    }
    return NULL;
}

TSNode syn_prop_value(TSNode prop)
{
    if (syn_is(prop, "shorthand_property_identifier"))
        return prop;
    return syn_field(prop, "value");
}
