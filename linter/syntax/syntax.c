/* Syntax access (syntax.h): parsing, the index of a tree, and null-safe
 * accessors. The only file that calls tree-sitter's node and cursor API. */
#include "syntax.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { NONE = UINT32_MAX };

typedef struct Slot {
    const void *id;
    uint32_t pos;
} Slot;

/* Field ids by the address of the name asked for (open addressing; at
 * most three quarters full, so a probe always ends at an empty slot). */
enum { FIELD_SLOTS = 128 };
typedef struct SynFields {
    struct {
        const char *name;
        TSFieldId id;
    } v[FIELD_SLOTS];
    size_t n;
} SynFields;

struct SynTree {
    TSTree *tree;
    const TSLanguage *lang;
    const char *text;
    size_t len;
    Arena *strings; /* the caller's: copies of text */
    Arena *own;     /* the index */
    /* named nodes in preorder, and per node: its parent's position (NONE
     * for the root), the end of its subtree, its children (kids[off, off+n)) */
    SynNode *nodes;
    const char **types; /* ts_node_type of each, read once */
    uint32_t *parent, *end, *kid_off, *kid_n, *kids;
    /* per node: the field it fills in its parent (0 for none, or when its
     * parent is not indexed), and whether every child of it that fills a
     * field is indexed (then syn_field reads its kids, not tree-sitter's) */
    TSFieldId *field;
    bool *fields_indexed;
    size_t n;
    Slot *slots; /* node id -> position, open addressing */
    size_t cap;
    SynNode *comments;
    size_t ncomments;
    SynRegion *regions;
    size_t nregions;
    SynFields *fields; /* field ids by name pointer (mutable cache) */
};

/* ---- a set of node ids (open addressing) --------------------------------- */

static size_t slot_of(const Slot *slots, size_t cap, const void *id)
{
    uintptr_t h = (uintptr_t)id;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 7) & (cap - 1);
    while (slots[i].id && slots[i].id != id)
        i = (i + 1) & (cap - 1);
    return i;
}

static size_t table_cap(size_t n)
{
    size_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    return cap;
}

/* ---- unread regions --------------------------------------------------------- */

/* A node that stands on its own: skipping it leaves the rest readable. */
static bool is_statement_like(const char *type)
{
    size_t l = strlen(type);
    static const char *const members[] = {
        "method_definition", "public_field_definition", "method_signature",
        "abstract_method_signature", "property_signature", "index_signature",
        "call_signature", "construct_signature", "switch_case", "switch_default",
        "attribute", "block", NULL}; /* the last two: HCL */
    if ((l > 10 && !strcmp(type + l - 10, "_statement")) ||
        (l > 12 && !strcmp(type + l - 12, "_declaration")))
        return true;
    for (const char *const *m = members; *m; m++)
        if (!strcmp(type, *m))
            return true;
    return false;
}

/* A node whose children are statements or members: an ERROR right inside
 * one is a region by itself. */
static bool is_container(const char *type)
{
    static const char *const c[] = {"program", "statement_block", "class_body",
                                    "switch_body", "interface_body", "object_type",
                                    "enum_body", "body", "config_file", NULL};
    for (const char *const *m = c; *m; m++)
        if (!strcmp(type, *m))
            return true;
    return false;
}

typedef VEC(SynNode) NodeVec;

/* Where the errors are: for every ERROR or MISSING node, the smallest
 * statement-like node holding it is unread (`roots`). An ERROR node with
 * no statement-like node above it before a container (the program, a
 * block, a class body; tree-sitter's recovery often makes the whole
 * program one ERROR) is `transparent` instead: the statements it holds
 * are read, and only its other children are unread. Descends only into
 * subtrees that hold an error (ts_node_has_error is O(1)). */
static void find_regions(SynTree *t, SynNode root, NodeVec *roots, NodeVec *transparent)
{
    if (!ts_node_has_error(root))
        return;
    NodeVec stack = {0};
    TSTreeCursor c = ts_tree_cursor_new(root);
    VEC_PUSH(t->own, &stack, root);
    for (;;) {
        SynNode n = ts_tree_cursor_current_node(&c);
        bool error = ts_node_is_error(n), descend = ts_node_has_error(n);
        if (error || ts_node_is_missing(n)) {
            /* stack: ancestors, n last */
            size_t k = stack.n - 1;
            while (k > 0 && !is_statement_like(ts_node_type(stack.v[k])) &&
                   !is_container(ts_node_type(stack.v[k - 1])))
                k--;
            bool stmt = is_statement_like(ts_node_type(stack.v[k]));
            if (error && !stmt && ts_node_eq(stack.v[k], n)) {
                VEC_PUSH(t->own, transparent, n); /* its statements may hold more */
            } else {
                VEC_PUSH(t->own, roots, stack.v[k]);
                descend = false;
            }
        }
        if (descend && ts_tree_cursor_goto_first_child(&c)) {
            VEC_PUSH(t->own, &stack, ts_tree_cursor_current_node(&c));
            continue;
        }
        bool moved = false;
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&c)) {
                stack.v[stack.n - 1] = ts_tree_cursor_current_node(&c);
                moved = true;
            } else if (ts_tree_cursor_goto_parent(&c)) {
                stack.n--;
            } else {
                break;
            }
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&c);
}

/* ---- the index ---------------------------------------------------------------- */

bool syn_token_fields(const char *type)
{
    switch (type[0]) { /* most types are none of these by the first character */
    case 'a':
        return syn_type_is(type, "augmented_assignment_expression");
    case 'b':
        return syn_type_is(type, "binary_expression");
    case 'f':
        return syn_type_is(type, "for_in_statement") || syn_type_is(type, "for_statement");
    case 'i':
        return syn_type_is(type, "index_signature");
    case 'l':
        return syn_type_is(type, "lexical_declaration");
    case 'u':
        return syn_type_is(type, "unary_expression") || syn_type_is(type, "update_expression");
    default:
        return false;
    }
}

/* A comment (an extra the grammar names; an ERROR node can be an extra too) */
static bool is_comment(SynNode n)
{
    return ts_node_is_extra(n) && ts_node_is_named(n) && !ts_node_is_error(n) &&
           !ts_node_is_missing(n);
}

static void build_index(SynTree *t, SynNode root)
{
    NodeVec roots = {0}, transparent = {0};
    find_regions(t, root, &roots, &transparent);
    /* one set: pos 1 marks a region root, 2 a transparent ERROR node */
    size_t rcap = table_cap(roots.n + transparent.n);
    Slot *rset = arena_alloc(t->own, rcap * sizeof *rset);
    for (size_t i = 0; i < roots.n; i++)
        rset[slot_of(rset, rcap, roots.v[i].id)] = (Slot){roots.v[i].id, 1};
    for (size_t i = 0; i < transparent.n; i++)
        rset[slot_of(rset, rcap, transparent.v[i].id)] = (Slot){transparent.v[i].id, 2};
    bool errors = roots.n + transparent.n > 0;

    VEC(SynNode) nodes = {0}, comments = {0};
    VEC(const char *) types = {0};
    VEC(uint32_t) parent = {0}, end = {0};
    VEC(TSFieldId) field = {0};
    VEC(bool) fields_indexed = {0};
    VEC(SynRegion) regions = {0};
    /* per cursor depth: the position of the node there (NONE when it is
     * not indexed), the nearest indexed node at or above it, and whether
     * it is a transparent ERROR node */
    VEC(uint32_t) at = {0}, near = {0};
    VEC(bool) clear = {0};
    /* per cursor depth: the siblings still to come, from the parent's
     * visible child count; a node with none left is not asked for its
     * next sibling (a call that fails only after climbing through the
     * hidden nodes above it: a tenth of the walk). syn_child_count_check
     * holds that count to the cursor's. */
    VEC(uint32_t) left = {0};
    uint32_t kids = 0; /* the child count of the node just descended from */
    bool merge = false; /* the last node visited was left unread, a sibling */
    /* the visible nodes of the tree (O(1)): the index holds at most these */
    size_t visible = ts_node_descendant_count(root);
    VEC_RESERVE(t->own, &nodes, visible);
    VEC_RESERVE(t->own, &types, visible);
    VEC_RESERVE(t->own, &parent, visible);
    VEC_RESERVE(t->own, &end, visible);
    VEC_RESERVE(t->own, &field, visible);
    VEC_RESERVE(t->own, &fields_indexed, visible);

    TSTreeCursor c = ts_tree_cursor_new(root);
    size_t depth = 0;
    for (bool first = true;; first = false) {
        SynNode n = ts_tree_cursor_current_node(&c);
        bool named = ts_node_is_named(n);
        uint32_t up = depth ? near.v[depth - 1] : NONE;
        uint32_t pos = NONE;
        bool descend = true;
        const Slot *mark = errors ? &rset[slot_of(rset, rcap, n.id)] : NULL;
        bool unread = mark && mark->id == n.id && mark->pos == 1;
        /* in a transparent ERROR node only statements (and comments) are read */
        bool comment = is_comment(n);
        if (depth && clear.v[depth - 1] && !comment &&
            (!named || !is_statement_like(ts_node_type(n))))
            unread = true;
        /* the field this node fills in its parent, when that is indexed
         * (a token fills one only in the few types syn_token_fields names) */
        uint32_t real_parent = depth ? at.v[depth - 1] : NONE;
        TSFieldId fid = 0;
        if (real_parent != NONE &&
            (named || syn_token_fields(types.v[real_parent])))
            fid = ts_tree_cursor_current_field_id(&c);
        if (unread) {
            Span sp = syn_span(n);
            if (merge && regions.n) {
                SynRegion *last = &regions.v[regions.n - 1];
                last->span.end_byte = sp.end_byte;
                last->span.end_row = sp.end_row;
                last->span.end_col = sp.end_col;
            } else if (named || sp.end_byte > sp.start_byte) {
                VEC_PUSH(t->own, &regions, ((SynRegion){sp}));
            }
            merge = regions.n > 0;
            descend = false;
        } else if (comment) {
            VEC_PUSH(t->own, &comments, n);
            descend = false;
        } else if (named || first) {
            pos = (uint32_t)nodes.n;
            VEC_PUSH(t->own, &nodes, n);
            VEC_PUSH(t->own, &types, ts_node_type(n));
            VEC_PUSH(t->own, &parent, up);
            VEC_PUSH(t->own, &end, 0);
            VEC_PUSH(t->own, &field, fid);
            VEC_PUSH(t->own, &fields_indexed, true);
        }
        if (fid && pos == NONE)
            fields_indexed.v[real_parent] = false;
        if (!unread && !comment)
            merge = false;
        if (at.n <= depth) {
            VEC_PUSH(t->own, &at, NONE);
            VEC_PUSH(t->own, &near, NONE);
            VEC_PUSH(t->own, &clear, false);
            VEC_PUSH(t->own, &left, 0);
        }
        if (kids) { /* the first child of a node with `kids` (O(1), tree-sitter's count) */
            left.v[depth] = kids - 1;
            kids = 0;
        }
        at.v[depth] = pos;
        near.v[depth] = pos != NONE ? pos : up;
        clear.v[depth] = mark && mark->id == n.id && mark->pos == 2;

        /* a node without children (a token, most often) is not asked for
         * its first child: O(1) from the count, a failing call is not */
        if (descend && (kids = ts_node_child_count(n)) > 0 &&
            ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        kids = 0;
        /* this node's subtree is done; so are its ancestors' that have no
         * next sibling */
        bool moved = false;
        for (;;) {
            if (at.v[depth] != NONE)
                end.v[at.v[depth]] = (uint32_t)nodes.n;
            if (left.v[depth] > 0 && ts_tree_cursor_goto_next_sibling(&c)) {
                left.v[depth]--;
                moved = true;
                break;
            }
            if (!ts_tree_cursor_goto_parent(&c))
                break;
            depth--;
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&c);

    t->nodes = nodes.v;
    t->types = types.v;
    t->n = nodes.n;
    t->parent = parent.v;
    t->end = end.v;
    t->field = field.v;
    t->fields_indexed = fields_indexed.v;
    t->comments = comments.v;
    t->ncomments = comments.n;
    t->regions = regions.v;
    t->nregions = regions.n;

    /* children: count, prefix sums, fill (preorder keeps them in order) */
    size_t n = t->n ? t->n : 1;
    t->kid_n = arena_alloc(t->own, n * sizeof *t->kid_n);
    t->kid_off = arena_alloc(t->own, n * sizeof *t->kid_off);
    t->kids = arena_alloc(t->own, n * sizeof *t->kids);
    for (size_t i = 1; i < t->n; i++)
        if (t->parent[i] != NONE)
            t->kid_n[t->parent[i]]++;
    uint32_t off = 0;
    for (size_t i = 0; i < t->n; i++) {
        t->kid_off[i] = off;
        off += t->kid_n[i];
        t->kid_n[i] = 0;
    }
    for (size_t i = 1; i < t->n; i++) {
        uint32_t p = t->parent[i];
        if (p != NONE)
            t->kids[t->kid_off[p] + t->kid_n[p]++] = (uint32_t)i;
    }

    t->cap = table_cap(t->n);
    t->slots = arena_alloc(t->own, t->cap * sizeof *t->slots);
    for (size_t i = 0; i < t->n; i++) {
        Slot *s = &t->slots[slot_of(t->slots, t->cap, t->nodes[i].id)];
        s->id = t->nodes[i].id;
        s->pos = (uint32_t)i;
    }
}

/* tree-sitter calls the progress callback about every hundred parse
 * operations. Real files need 6 per KiB on average and at most 18 (4,660
 * files of two large TypeScript/TSX code bases); the budget is ten times
 * that, plus a base for small files. */
enum { PARSE_CHECKS_BASE = 200, PARSE_CHECKS_PER_KB = 200 };

typedef struct Budget {
    uint64_t left;
} Budget;

static bool over_budget(TSParseState *state)
{
    Budget *b = state->payload;
    if (b->left == 0)
        return true; /* cancel */
    b->left--;
    return false;
}

/* The text tree-sitter reads. tree-sitter counts rows at "\n" only, and
 * its grammars end a line comment or an automatic semicolon there; a
 * lone "\r" (an old Mac file's line end) also ends a line, for editors
 * and for JavaScript. So tree-sitter reads each lone "\r" as "\n": the
 * same number of bytes, and the rows (Span.start_row, ...) of a tree are
 * the lines an editor shows. `lone`: their offsets, ascending (NULL for a
 * text with none: read as it is). */
typedef struct Buffer {
    const char *text;
    size_t len;
    const uint32_t *lone;
    size_t nlone;
} Buffer;

static const char *read_buffer(void *payload, uint32_t byte, TSPoint at, uint32_t *n)
{
    (void)at;
    const Buffer *in = payload;
    if (byte >= in->len) {
        *n = 0;
        return "";
    }
    size_t lo = 0, hi = in->nlone; /* the first lone CR at or after byte */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->lone[mid] < byte)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < in->nlone && in->lone[lo] == byte) {
        *n = 1;
        return "\n";
    }
    size_t end = lo < in->nlone ? in->lone[lo] : in->len;
    *n = (uint32_t)(end - byte);
    return in->text + byte;
}

/* The offsets of the lone "\r"s of text[0..len), malloc'd (NULL: none). */
static uint32_t *lone_crs(const char *text, size_t len, size_t *n)
{
    uint32_t *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (const char *p = text, *end = text + len;
         p < end && (p = memchr(p, '\r', (size_t)(end - p))); p++) {
        if (p + 1 < end && p[1] == '\n')
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            uint32_t *g = realloc(v, cap * sizeof *v);
            if (!g)
                abort();
            v = g;
        }
        v[(*n)++] = (uint32_t)(p - text);
    }
    return v;
}

static SynTree *parse_index(const char *text, size_t len, const TSLanguage *lang,
                            Arena *strings, SynFailure *why, const TSTree *old,
                            ArenaPool *pool)
{
    TSParser *parser = ts_parser_new();
    if (!parser)
        return NULL;
    if (!ts_parser_set_language(parser, lang)) {
        ts_parser_delete(parser);
        return NULL;
    }
    /* A budget of parser work in proportion to the text: tree-sitter's
     * error recovery can take minutes on a few hundred pathological bytes
     * (found by fuzzing); past the budget the parse is cancelled and the
     * file is not read (syn_parse says why). */
    Budget b = {.left = PARSE_CHECKS_BASE + (uint64_t)len * PARSE_CHECKS_PER_KB / 1024};
    Buffer in = {text, len, NULL, 0};
    uint32_t *lone = lone_crs(text, len, &in.nlone);
    in.lone = lone;
    TSInput input = {.payload = &in, .read = read_buffer, .encoding = TSInputEncodingUTF8};
    TSParseOptions opts = {.payload = &b, .progress_callback = over_budget};
    TSTree *tree = ts_parser_parse_with_options(parser, old, input, opts);
    ts_parser_delete(parser);
    free(lone);
    if (!tree) {
        if (why)
            *why = b.left == 0 ? SYN_GAVE_UP : SYN_NO_MEMORY;
        return NULL;
    }
    Arena *own = arena_new_pooled(pool);
    SynTree *t = arena_alloc(own, sizeof *t);
    t->own = own;
    t->tree = tree;
    t->lang = lang;
    t->text = text;
    t->len = len;
    t->strings = strings;
    t->fields = arena_alloc(own, sizeof *t->fields);
    build_index(t, ts_tree_root_node(tree));
    return t;
}

/* `&name;`, `&#123;` or `&#x1F;` at s[0..n): a character reference as the
 * grammar reads one (names of up to 30 letters, up to 5 decimal or 6 hex
 * digits). */
static bool char_reference(const char *s, size_t n)
{
    size_t i = 1, digits = 0, max = 30;
    bool hex = false, dec = false;
    if (i < n && s[i] == '#') {
        i++;
        hex = i < n && (s[i] == 'x' || s[i] == 'X');
        i += hex;
        dec = !hex;
        max = hex ? 6 : 5;
    }
    for (; i < n && digits <= max; i++, digits++) {
        char c = s[i];
        bool ok = dec   ? (c >= '0' && c <= '9')
                : hex   ? ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
                        : ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
        if (!ok)
            break;
    }
    return digits && digits <= max && i < n && s[i] == ';';
}

/* The TSX grammar (tree-sitter-typescript 0.23) rejects a bare `&` in JSX
 * text and attribute strings (`Terms & Conditions`, `?a=1&b=2`, `&lt `),
 * valid to every JSX compiler. Inside the unread regions of a first parse,
 * such an `&` (not `&&`, `&=`, nor a character reference) becomes a space
 * in a copy of the text, which is parsed again; offsets do not move. The
 * second tree is kept when it leaves fewer bytes unread. */
static SynTree *retry_bare_ampersands(SynTree *first, const TSLanguage *lang, Arena *strings,
                                      ArenaPool *pool)
{
    const char *text = first->text;
    size_t len = first->len;
    char *copy = NULL;
    for (size_t r = 0; r < first->nregions; r++) {
        uint32_t from = first->regions[r].span.start_byte, to = first->regions[r].span.end_byte;
        for (uint32_t i = from; i < to && i < len; i++) {
            if (text[i] != '&' || (i + 1 < len && (text[i + 1] == '&' || text[i + 1] == '=')) ||
                (i > 0 && text[i - 1] == '&') || char_reference(text + i, len - i))
                continue;
            if (!copy) {
                copy = arena_alloc(strings, len + 1);
                memcpy(copy, text, len);
            }
            copy[i] = ' ';
        }
    }
    if (!copy)
        return first;
    SynTree *second = parse_index(copy, len, lang, strings, NULL, NULL, pool);
    if (!second)
        return first;
    size_t unread[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const SynTree *t = k ? second : first;
        for (size_t r = 0; r < t->nregions; r++)
            unread[k] += t->regions[r].span.end_byte - t->regions[r].span.start_byte;
    }
    if (unread[1] < unread[0]) {
        syn_free(first);
        return second;
    }
    syn_free(second);
    return first;
}

const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_hcl(void);

static const TSLanguage *language(SynLang lang)
{
    switch (lang) {
    case SYN_TSX:
        return tree_sitter_tsx();
    case SYN_HCL:
        return tree_sitter_hcl();
    case SYN_TYPESCRIPT:
        break;
    }
    return tree_sitter_typescript();
}

struct SynReuse {
    TSTree *tree; /* of the last parse, edited since; NULL: none */
    SynLang lang;
};

SynReuse *syn_reuse_new(void)
{
    SynReuse *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    return r;
}

void syn_reuse_reset(SynReuse *r)
{
    if (r && r->tree) {
        ts_tree_delete(r->tree);
        r->tree = NULL;
    }
}

void syn_reuse_free(SynReuse *r)
{
    syn_reuse_reset(r);
    free(r);
}

void syn_reuse_edit(SynReuse *r, const SynEdit *e)
{
    if (!r || !r->tree)
        return;
    TSInputEdit in = {
        .start_byte = e->start,
        .old_end_byte = e->old_end,
        .new_end_byte = e->new_end,
        .start_point = {e->start_row, e->start_col},
        .old_end_point = {e->old_end_row, e->old_end_col},
        .new_end_point = {e->new_end_row, e->new_end_col},
    };
    ts_tree_edit(r->tree, &in);
}

/* Move (*row, *col) over s[0..n) as tree-sitter reads it (read_buffer:
 * a lone "\r" is a "\n"); `next` is the byte after s[n - 1] in the text
 * (0 at its end), which says whether a "\r" there is lone. */
static void advance(const char *s, size_t n, char next, uint32_t *row, uint32_t *col)
{
    for (size_t i = 0; i < n; i++) {
        char nx = i + 1 < n ? s[i + 1] : next;
        if (s[i] == '\n' || (s[i] == '\r' && nx != '\n')) {
            (*row)++;
            *col = 0;
        } else {
            (*col)++;
        }
    }
}

SynEdit syn_edit_of(const char *old, size_t old_len, size_t start, size_t old_end,
                    const char *with, size_t with_len)
{
    /* A "\r" just before the edit is lone or not by what follows it: the
     * edit takes it in (the same byte before and after), so that the
     * bytes tree-sitter reads differ only inside the edit. */
    size_t from = start > 0 && start <= old_len && old[start - 1] == '\r' ? start - 1 : start;
    size_t lead = start - from;
    char *ins = malloc(lead + with_len + 1);
    if (!ins)
        abort();
    memcpy(ins, old + from, lead);
    memcpy(ins + lead, with, with_len);
    size_t ins_len = lead + with_len;
    char after = old_end < old_len ? old[old_end] : 0;
    SynEdit e = {.start = (uint32_t)from, .old_end = (uint32_t)old_end,
                 .new_end = (uint32_t)(from + ins_len)};
    advance(old, from < old_len ? from : old_len, from < old_len ? old[from] : 0, &e.start_row,
            &e.start_col);
    e.old_end_row = e.start_row;
    e.old_end_col = e.start_col;
    advance(old + from, old_end - from, after, &e.old_end_row, &e.old_end_col);
    e.new_end_row = e.start_row;
    e.new_end_col = e.start_col;
    advance(ins, ins_len, after, &e.new_end_row, &e.new_end_col);
    free(ins);
    return e;
}

SynTree *syn_parse_reusing(const char *text, size_t len, SynLang which, Arena *strings,
                           SynFailure *why, SynReuse *r)
{
    return syn_parse_pooled(text, len, which, strings, why, r, NULL);
}

SynTree *syn_parse_pooled(const char *text, size_t len, SynLang which, Arena *strings,
                          SynFailure *why, SynReuse *r, ArenaPool *pool)
{
    if (why)
        *why = SYN_NO_MEMORY;
    if (len > UINT32_MAX) {
        syn_reuse_reset(r);
        return NULL;
    }
    const TSLanguage *lang = language(which);
    const TSTree *old = r && r->tree && r->lang == which ? r->tree : NULL;
    SynTree *t = parse_index(text, len, lang, strings, why, old, pool);
    /* the tree of this text is the one to edit next (not a retry's, which
     * read a copy) */
    syn_reuse_reset(r);
    if (r && t) {
        r->tree = ts_tree_copy(t->tree);
        r->lang = which;
    }
    if (t && which == SYN_TSX && t->nregions)
        t = retry_bare_ampersands(t, lang, strings, pool);
    return t;
}

SynTree *syn_parse(const char *text, size_t len, SynLang which, Arena *strings,
                   SynFailure *why)
{
    return syn_parse_reusing(text, len, which, strings, why, NULL);
}

void syn_free(SynTree *t)
{
    if (!t)
        return;
    ts_tree_delete(t->tree);
    arena_free(t->own);
}

SynNode syn_root(const SynTree *t)
{
    return t->n ? t->nodes[0] : (SynNode){0};
}

const char *syn_source(const SynTree *t, size_t *len)
{
    *len = t->len;
    return t->text;
}

size_t syn_node_count(const SynTree *t) { return t->n; }
SynNode syn_node_at(const SynTree *t, size_t i) { return i < t->n ? t->nodes[i] : (SynNode){0}; }
const char *syn_type_at(const SynTree *t, size_t i) { return i < t->n ? t->types[i] : ""; }
size_t syn_end_of(const SynTree *t, size_t i) { return i < t->n ? t->end[i] : i; }
size_t syn_comment_count(const SynTree *t) { return t->ncomments; }
SynNode syn_comment_at(const SynTree *t, size_t i)
{
    return i < t->ncomments ? t->comments[i] : (SynNode){0};
}
/* FNV-1a over a run of bytes. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    return h;
}

uint64_t syn_code_hash(const SynTree *t)
{
    uint64_t h = 0xcbf29ce484222325u;
    size_t at = 0;
    for (size_t i = 0; i < t->ncomments; i++) {
        uint32_t from = ts_node_start_byte(t->comments[i]), to = ts_node_end_byte(t->comments[i]);
        if (from < at || to > t->len)
            continue; /* a comment inside another's range: already skipped */
        h = fnv1a(h, t->text + at, from - at);
        h = fnv1a(h, "\0", 1); /* where a comment was */
        at = to;
    }
    return fnv1a(h, t->text + at, t->len - at);
}

size_t syn_region_count(const SynTree *t) { return t->nregions; }
const SynRegion *syn_region_at(const SynTree *t, size_t i)
{
    return i < t->nregions ? &t->regions[i] : NULL;
}

bool syn_pos(const SynTree *t, SynNode n, size_t *pos)
{
    if (!n.id || !t->cap)
        return false;
    const Slot *s = &t->slots[slot_of(t->slots, t->cap, n.id)];
    if (s->id != n.id)
        return false;
    *pos = s->pos;
    return true;
}

bool syn_subtree(const SynTree *t, SynNode n, size_t *from, size_t *to)
{
    size_t p;
    if (!syn_pos(t, n, &p))
        return false;
    *from = p + 1;
    *to = t->end[p];
    return true;
}

/* ---- nodes ------------------------------------------------------------------------ */

bool syn_null(SynNode n) { return ts_node_is_null(n); }
bool syn_eq(SynNode a, SynNode b) { return a.id == b.id && (!a.id || ts_node_eq(a, b)); }
const char *syn_type(SynNode n) { return ts_node_is_null(n) ? "" : ts_node_type(n); }
bool syn_is(SynNode n, const char *type)
{
    if (ts_node_is_null(n))
        return false;
    return syn_type_is(ts_node_type(n), type);
}
bool syn_named(SynNode n) { return !ts_node_is_null(n) && ts_node_is_named(n); }
uint32_t syn_start(SynNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
uint32_t syn_end(SynNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }

Span syn_span(SynNode n)
{
    if (ts_node_is_null(n))
        return (Span){0};
    TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
    return (Span){ts_node_start_byte(n), ts_node_end_byte(n), s.row, s.column,
                  e.row, e.column};
}

uint32_t syn_count(const SynTree *t, SynNode n)
{
    size_t p;
    return syn_pos(t, n, &p) ? t->kid_n[p] : 0;
}

SynNode syn_child(const SynTree *t, SynNode n, uint32_t i)
{
    size_t p;
    if (!syn_pos(t, n, &p) || i >= t->kid_n[p])
        return (SynNode){0};
    return t->nodes[t->kids[t->kid_off[p] + i]];
}

/* A child handed out: never a comment, never inside an unread region. */
static SynNode readable(const SynTree *t, SynNode c)
{
    size_t p;
    if (ts_node_is_null(c) || is_comment(c))
        return (SynNode){0};
    if (ts_node_is_named(c) && !syn_pos(t, c, &p))
        return (SynNode){0};
    return c;
}

uint32_t syn_token_count(const SynTree *t, SynNode n)
{
    size_t p;
    return syn_pos(t, n, &p) ? ts_node_child_count(n) : 0;
}

SynNode syn_token(const SynTree *t, SynNode n, uint32_t i)
{
    size_t p;
    if (!syn_pos(t, n, &p) || i >= ts_node_child_count(n))
        return (SynNode){0};
    return readable(t, ts_node_child(n, i));
}

static TSFieldId field_id(const SynTree *t, const char *name)
{
    SynFields *f = t->fields;
    uintptr_t h = (uintptr_t)name;
    size_t i = (h ^ (h >> 7)) & (FIELD_SLOTS - 1);
    for (; f->v[i].name; i = (i + 1) & (FIELD_SLOTS - 1))
        if (f->v[i].name == name)
            return f->v[i].id;
    TSFieldId id = ts_language_field_id_for_name(t->lang, name, (uint32_t)strlen(name));
    if (f->n < FIELD_SLOTS * 3 / 4) {
        f->v[i].name = name;
        f->v[i].id = id;
        f->n++;
    }
    return id;
}

/* The child of `n` that fills field `id`, as tree-sitter finds it (not a
 * comment, not unread). */
static SynNode field_by_tree_sitter(const SynTree *t, SynNode n, TSFieldId id)
{
    SynNode c = ts_node_child_by_field_id(n, id);
    if (!ts_node_is_null(c) && is_comment(c)) {
        /* a comment between the tokens of a field: the field's own node */
        c = (SynNode){0};
        TSTreeCursor cur = ts_tree_cursor_new(n);
        for (bool ok = ts_tree_cursor_goto_first_child(&cur); ok;
             ok = ts_tree_cursor_goto_next_sibling(&cur)) {
            SynNode k = ts_tree_cursor_current_node(&cur);
            if (ts_tree_cursor_current_field_id(&cur) == id && !is_comment(k)) {
                c = k;
                break;
            }
        }
        ts_tree_cursor_delete(&cur);
    }
    return readable(t, c);
}

/* The same from the index, when node p's every child that fills a field
 * is a kid (the first kid that fills `id` is then tree-sitter's answer). */
static bool field_by_index(const SynTree *t, size_t p, TSFieldId id, SynNode *out)
{
    if (!t->fields_indexed[p])
        return false;
    *out = (SynNode){0};
    const uint32_t *k = t->kids + t->kid_off[p];
    for (uint32_t i = 0; i < t->kid_n[p]; i++)
        if (t->field[k[i]] == id) {
            *out = t->nodes[k[i]];
            break;
        }
    return true;
}

SynNode syn_field(const SynTree *t, SynNode n, const char *name)
{
    size_t p;
    if (!syn_pos(t, n, &p))
        return (SynNode){0};
    TSFieldId id = field_id(t, name);
    if (!id)
        return (SynNode){0};
    SynNode c;
    return field_by_index(t, p, id, &c) ? c : field_by_tree_sitter(t, n, id);
}

size_t syn_field_check(const SynTree *t, size_t *compared)
{
    size_t bad = 0;
    *compared = 0;
    uint32_t nfields = ts_language_field_count(t->lang);
    for (size_t p = 0; p < t->n; p++)
        for (TSFieldId id = 1; id <= nfields; id++) {
            SynNode fast, slow = field_by_tree_sitter(t, t->nodes[p], id);
            if (!field_by_index(t, p, id, &fast))
                continue;
            ++*compared;
            if (!syn_eq(fast, slow))
                bad++;
        }
    return bad;
}

size_t syn_child_count_check(const SynTree *t, size_t *nodes)
{
    size_t bad = 0;
    *nodes = 0;
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t->tree));
    for (;;) {
        SynNode n = ts_tree_cursor_current_node(&c);
        ++*nodes;
        uint32_t seen = 0;
        if (ts_tree_cursor_goto_first_child(&c)) {
            do
                seen++;
            while (ts_tree_cursor_goto_next_sibling(&c));
            ts_tree_cursor_goto_parent(&c);
        }
        if (seen != ts_node_child_count(n))
            bad++;
        /* preorder: down, else along, else up until a sibling */
        if (ts_tree_cursor_goto_first_child(&c))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return bad;
            }
    }
}

SynNode syn_parent(const SynTree *t, SynNode n)
{
    size_t p;
    if (ts_node_is_null(n))
        return (SynNode){0};
    if (syn_pos(t, n, &p))
        return t->parent[p] == NONE ? (SynNode){0} : t->nodes[t->parent[p]];
    return readable(t, ts_node_parent(n));
}

SynNode syn_node_for_range(const SynTree *t, uint32_t start, uint32_t end)
{
    if (start > end || end > t->len)
        return (SynNode){0};
    SynNode n = ts_node_named_descendant_for_byte_range(ts_tree_root_node(t->tree), start, end);
    return readable(t, n);
}

bool syn_inside_literal(const SynTree *t, uint32_t off)
{
    if (off == 0 || off >= t->len)
        return false;
    /* a comment: by bisection over the listed ones */
    size_t lo = 0, hi = t->ncomments;
    while (lo < hi) { /* the first comment ending at off or after */
        size_t mid = lo + (hi - lo) / 2;
        if (ts_node_end_byte(t->comments[mid]) < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < t->ncomments && ts_node_start_byte(t->comments[lo]) < off; lo++) {
        uint32_t cs = ts_node_start_byte(t->comments[lo]), ce = ts_node_end_byte(t->comments[lo]);
        /* a line comment runs to the end of its line: text put right
         * after it is part of it */
        bool line = cs + 1 < t->len && t->text[cs] == '/' && t->text[cs + 1] == '/';
        if (off < ce || (off == ce && line))
            return true;
    }
    /* the smallest node around off, then its ancestors: a template's
     * substitution is code, the template, a string or a regex around it
     * is text (tree-sitter's parent links: a loop, no recursion) */
    TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(t->tree), off, off);
    for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
        if (ts_node_start_byte(n) >= off || ts_node_end_byte(n) <= off)
            continue;
        const char *type = ts_node_type(n);
        if (!strcmp(type, "template_substitution"))
            return false;
        if (!strcmp(type, "template_string") || !strcmp(type, "string") ||
            !strcmp(type, "regex") || !strcmp(type, "comment") ||
            !strcmp(type, "jsx_text") || !strcmp(type, "string_lit") ||
            !strcmp(type, "heredoc_template"))
            return true;
    }
    return false;
}

/* ---- text ------------------------------------------------------------------------- */

const char *syn_text(const SynTree *t, SynNode n)
{
    uint32_t s = syn_start(n), e = syn_end(n);
    if (e > t->len)
        e = (uint32_t)t->len;
    if (s > e)
        s = e;
    return arena_strndup(t->strings, t->text + s, e - s);
}

const char *syn_text_max(const SynTree *t, SynNode n, size_t max)
{
    uint32_t s = syn_start(n), e = syn_end(n);
    if (e > t->len)
        e = (uint32_t)t->len;
    if (s > e)
        s = e;
    if (e - s <= max)
        return arena_strndup(t->strings, t->text + s, e - s);
    size_t cut = max;
    while (cut > 0 && ((unsigned char)t->text[s + cut] & 0xC0) == 0x80)
        cut--;
    char *p = arena_alloc(t->strings, cut + 4);
    memcpy(p, t->text + s, cut);
    memcpy(p + cut, "...", 4);
    return p;
}

bool syn_text_eq(const SynTree *t, SynNode n, const char *s)
{
    if (ts_node_is_null(n))
        return false;
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    size_t l = strlen(s);
    return e <= t->len && b <= e && e - b == l && !memcmp(t->text + b, s, l);
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

bool syn_string_value(const SynTree *t, SynNode n, const char **out)
{
    n = syn_unwrap(t, n);
    if (!syn_is(n, "string") && !syn_is(n, "template_string"))
        return false;
    uint32_t cnt = syn_count(t, n);
    size_t cap = (size_t)(syn_end(n) - syn_start(n)) + 1;
    char *buf = arena_alloc(t->strings, cap);
    size_t o = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(t, n, i);
        uint32_t b = syn_start(c), e = syn_end(c);
        if (e > t->len || b > e || o + (e - b) >= cap)
            return false;
        if (syn_is(c, "string_fragment")) {
            memcpy(buf + o, t->text + b, e - b);
            o += e - b;
        } else if (syn_is(c, "escape_sequence")) {
            syn_append_escape(buf, &o, t->text + b, e - b);
        } else {
            return false; /* substitution */
        }
    }
    buf[o] = '\0';
    *out = buf;
    return true;
}

/* ---- TypeScript shapes ------------------------------------------------------------ */

SynNode syn_unwrap(const SynTree *t, SynNode n)
{
    for (int i = 0; i < SYN_MAX_UNWRAP && !ts_node_is_null(n); i++) {
        const char *ty = ts_node_type(n);
        bool last = false; /* <T>expr: the expression is last */
        switch (ty[0]) { /* most types are none of these by the first character */
        case 'p':
            if (!syn_type_is(ty, "parenthesized_expression"))
                return n;
            break;
        case 'a':
            if (!syn_type_is(ty, "as_expression") && !syn_type_is(ty, "await_expression"))
                return n;
            break;
        case 's':
            if (!syn_type_is(ty, "satisfies_expression"))
                return n;
            break;
        case 'n':
            if (!syn_type_is(ty, "non_null_expression"))
                return n;
            break;
        case 't':
            if (!syn_type_is(ty, "type_assertion"))
                return n;
            last = true;
            break;
        case 'm': { /* `{...} as A.B.C` parses as `({...} as A.B).C`: TypeScript
                     * reads a qualified type there (an unparenthesized `as` never
                     * has a member read on it), so the value is the object */
            SynNode obj = syn_child(t, n, 0);
            if (!syn_type_is(ty, "member_expression") ||
                (!syn_is(obj, "as_expression") && !syn_is(obj, "satisfies_expression")))
                return n;
            break;
        }
        default:
            return n;
        }
        SynNode inner = syn_child(t, n, last ? syn_count(t, n) - 1 : 0);
        if (ts_node_is_null(inner))
            return n;
        n = inner;
    }
    return n;
}

bool syn_is_function(SynNode n)
{
    return syn_is_function_type(syn_type(n));
}

bool syn_is_function_type(const char *t)
{
    switch (t[0]) { /* most types differ at the first character */
    case 'f':
        return !strcmp(t, "function_declaration") || !strcmp(t, "function_expression") ||
               !strcmp(t, "function");
    case 'a':
        return !strcmp(t, "arrow_function");
    case 'm':
        return !strcmp(t, "method_definition");
    case 'g':
        return !strcmp(t, "generator_function_declaration") || !strcmp(t, "generator_function");
    default:
        return false;
    }
}

const char *syn_prop_name(const SynTree *t, SynNode prop, SynNode *computed)
{
    *computed = (SynNode){0};
    if (syn_is(prop, "shorthand_property_identifier"))
        return syn_text(t, prop);
    if (!syn_is(prop, "pair"))
        return NULL;
    SynNode key = syn_field(t, prop, "key");
    const char *s;
    if (syn_is(key, "property_identifier") || syn_is(key, "number"))
        return syn_text(t, key);
    if (syn_is(key, "string") && syn_string_value(t, key, &s))
        return s;
    if (syn_is(key, "computed_property_name")) {
        SynNode inner = syn_unwrap(t, syn_child(t, key, 0));
        if (syn_string_value(t, inner, &s))
            return s;
        if (syn_is(inner, "identifier") || syn_is(inner, "member_expression"))
            *computed = inner;
    }
    return NULL;
}

SynNode syn_prop_value(const SynTree *t, SynNode prop)
{
    if (syn_is(prop, "shorthand_property_identifier"))
        return prop;
    return syn_field(t, prop, "value");
}
