/* YAML and JSON text to DocNode trees (schema.h), read with libyaml's
 * document API; positions kept. See yaml_doc.h.
 *
 * No recursion follows the input's nesting: the YAML document is converted
 * with an explicit work list, and aliases become shared nodes, so neither
 * "billion laughs" nor a self-referencing alias can blow up. */
#include "yaml_doc.h"
#include "yamldepth.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

enum {
    MIN_INDEXED_MAP = 16, /* mappings this large get an index of their keys */
};

typedef struct YLoad {
    Arena *a;
    const char *display;
    const char *buf;
    size_t len;
    size_t *lines; /* byte offset of each line's start (malloc'd) */
    size_t nlines;
    yaml_document_t *doc;
    DocNode **memo; /* by node id - 1 (malloc'd) */
    size_t nnodes;
} YLoad;

static void index_lines(YLoad *L)
{
    /* lines end as libyaml's marks count them: "\r\n", "\n", a lone "\r" */
    size_t n = 1;
    for (size_t i = line_break_next(L->buf, L->len, 0); i < L->len;
         i = line_break_next(L->buf, L->len, i + line_break_len(L->buf, L->len, i)))
        n++;
    L->lines = malloc(n * sizeof *L->lines);
    if (!L->lines)
        abort();
    L->nlines = 0;
    /* libyaml does not count a byte-order mark as a column */
    L->lines[L->nlines++] = L->len >= 3 && !memcmp(L->buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (size_t i = line_break_next(L->buf, L->len, 0); i < L->len;
         i = line_break_next(L->buf, L->len, i)) {
        i += line_break_len(L->buf, L->len, i);
        L->lines[L->nlines++] = i;
    }
}

/* libyaml's marks count characters; spans count bytes. */
static uint32_t byte_col(const YLoad *L, size_t line, size_t col)
{
    if (line >= L->nlines)
        return (uint32_t)col;
    size_t p = L->lines[line], start = p;
    for (size_t c = 0; c < col && p < L->len && !line_break_len(L->buf, L->len, p); c++) {
        p++;
        while (p < L->len && ((unsigned char)L->buf[p] & 0xC0) == 0x80)
            p++;
    }
    return (uint32_t)(p - start);
}

static Span mark_span(const YLoad *L, yaml_mark_t s, yaml_mark_t e)
{
    Span sp = {0};
    sp.start_row = (uint32_t)s.line;
    sp.start_col = byte_col(L, s.line, s.column);
    sp.end_row = (uint32_t)e.line;
    sp.end_col = byte_col(L, e.line, e.column);
    if (s.line < L->nlines)
        sp.start_byte = (uint32_t)(L->lines[s.line] + sp.start_col);
    if (e.line < L->nlines)
        sp.end_byte = (uint32_t)(L->lines[e.line] + sp.end_col);
    return sp;
}

static const char *norm_tag(Arena *a, const yaml_char_t *tag)
{
    const char *t = (const char *)tag;
    if (!t || t[0] != '!' || t[1] == '!')
        return NULL; /* standard tags (tag:yaml.org,...) say nothing */
    t++;
    if (!strcmp(t, "Ref") || !strcmp(t, "Condition"))
        return arena_strdup(a, t);
    return arena_printf(a, "Fn::%s", t);
}

static bool yaml_null(const yaml_node_t *n)
{
    if (n->tag && !strcmp((const char *)n->tag, YAML_NULL_TAG))
        return true;
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = (const char *)n->data.scalar.value;
    return n->data.scalar.length == 0 || !strcmp(v, "~") || !strcmp(v, "null") ||
           !strcmp(v, "Null") || !strcmp(v, "NULL");
}

typedef VEC(int) IntVec;

static DocNode *shell(YLoad *L, int id, IntVec *todo)
{
    if (id < 1 || (size_t)id > L->nnodes)
        return NULL;
    if (L->memo[id - 1])
        return L->memo[id - 1];
    yaml_node_t *y = yaml_document_get_node(L->doc, id);
    DocNode *d = arena_alloc(L->a, sizeof *d);
    L->memo[id - 1] = d;
    d->span = mark_span(L, y->start_mark, y->end_mark);
    d->tag = norm_tag(L->a, y->tag);
    switch (y->type) {
    case YAML_SCALAR_NODE:
        if (yaml_null(y) && !d->tag) {
            d->kind = DOC_NULL;
        } else {
            d->kind = DOC_SCALAR;
            d->text = arena_strndup(L->a, (const char *)y->data.scalar.value,
                                    y->data.scalar.length);
        }
        break;
    case YAML_SEQUENCE_NODE:
        d->kind = DOC_SEQ;
        VEC_PUSH(L->a, todo, id);
        break;
    case YAML_MAPPING_NODE:
        d->kind = DOC_MAP;
        VEC_PUSH(L->a, todo, id);
        break;
    default:
        d->kind = DOC_NULL;
        break;
    }
    return d;
}

/* The whole document as DocNodes, with an explicit work list. */
static DocNode *convert(YLoad *L)
{
    if (!yaml_document_get_root_node(L->doc))
        return NULL;
    L->nnodes = (size_t)(L->doc->nodes.top - L->doc->nodes.start);
    L->memo = calloc(L->nnodes ? L->nnodes : 1, sizeof *L->memo);
    if (!L->memo)
        abort();
    IntVec todo = {0};
    DocNode *top = shell(L, 1, &todo);
    while (todo.n) {
        int id = todo.v[--todo.n];
        yaml_node_t *y = yaml_document_get_node(L->doc, id);
        DocNode *d = L->memo[id - 1];
        if (y->type == YAML_SEQUENCE_NODE) {
            size_t n = (size_t)(y->data.sequence.items.top - y->data.sequence.items.start);
            d->vals = arena_alloc(L->a, (n ? n : 1) * sizeof *d->vals);
            for (size_t i = 0; i < n; i++) {
                DocNode *c = shell(L, y->data.sequence.items.start[i], &todo);
                if (c)
                    d->vals[d->n++] = c;
            }
        } else {
            size_t n = (size_t)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
            d->keys = arena_alloc(L->a, (n ? n : 1) * sizeof *d->keys);
            d->vals = arena_alloc(L->a, (n ? n : 1) * sizeof *d->vals);
            for (size_t i = 0; i < n; i++) {
                yaml_node_pair_t *p = &y->data.mapping.pairs.start[i];
                DocNode *k = shell(L, p->key, &todo);
                DocNode *v = shell(L, p->value, &todo);
                if (!k || !v || k->kind != DOC_SCALAR)
                    continue;
                d->keys[d->n] = k;
                d->vals[d->n++] = v;
            }
            if (d->n >= MIN_INDEXED_MAP) {
                NameMap *index = arena_alloc(L->a, sizeof *index);
                for (size_t i = 0; i < d->n; i++)
                    namemap_put(L->a, index, d->keys[i]->text, i);
                d->index = index;
            }
        }
    }
    return top;
}

/* libyaml (YAML 1.1) rejects the UTF-16 surrogate escapes JSON encoders
 * write for characters outside the BMP ("\ud83d\ude00"); they only occur
 * in descriptions, so each is replaced in place by U+FFFD (same length:
 * positions do not move). A `\u` counts when an odd run of backslashes
 * precedes it (`\\ud83d` is a backslash and text). */
static void replace_surrogate_escapes(char *buf, size_t len)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\\') {
            run++;
            continue;
        }
        if (buf[i] == 'u' && (run & 1) && len - i > 4) {
            char *h = buf + i + 1;
            if ((h[0] == 'd' || h[0] == 'D') && h[1] && strchr("89abcdefABCDEF", h[1]) &&
                isxdigit((unsigned char)h[2]) && isxdigit((unsigned char)h[3]))
                memcpy(h, "FFFD", 4);
        }
        run = 0;
    }
}

static bool is_json_path(const char *path, const char *buf, size_t len)
{
    size_t l = strlen(path);
    if (l > 5 && !strcasecmp(path + l - 5, ".json"))
        return true;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0xEF && i + 2 < len && (unsigned char)buf[i + 1] == 0xBB)
            i += 2;
        else if (!isspace(c))
            return c == '{';
    }
    return false;
}

static void yaml_problem(const YLoad *L, const yaml_parser_t *p, bool json, Problems *problems)
{
    const char *kind = json ? "JSON" : "YAML";
    switch (p->error) {
    case YAML_READER_ERROR: {
        uint32_t line = 1, col = 1;
        for (size_t i = 0; i < p->problem_offset && i < L->len; i++) {
            if (L->buf[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        problems_add(problems, L->display, line, col, "cannot read schema as %s text: %s", kind,
                     p->problem ? p->problem : "invalid input");
        break;
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    case YAML_COMPOSER_ERROR:
        if (p->context)
            problems_add(problems, L->display, (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1,
                         "%s syntax error in schema: %s (%s on line %zu)", kind,
                         p->problem ? p->problem : "invalid", p->context,
                         p->context_mark.line + 1);
        else
            problems_add(problems, L->display, (uint32_t)p->problem_mark.line + 1,
                         (uint32_t)p->problem_mark.column + 1, "%s syntax error in schema: %s",
                         kind, p->problem ? p->problem : "invalid");
        break;
    default:
        problems_add(problems, L->display, 0, 0, "cannot parse schema as %s", kind);
        break;
    }
}

DocNode *yaml_doc_parse(Arena *a, const char *path, const char *display, char *buf,
                        size_t len, Problems *problems)
{
    bool json = is_json_path(path, buf, len);
    if (json)
        replace_surrogate_escapes(buf, len);
    YLoad L = {.a = a, .display = display, .buf = buf, .len = len};
    index_lines(&L);
    DocNode *root = NULL;
    yaml_parser_t parser;
    size_t deep_line, deep_col;
    if (!yaml_depth_ok(buf, len, &deep_line, &deep_col)) {
        problems_add(problems, display, (uint32_t)deep_line,
                     byte_col(&L, deep_line - 1, deep_col - 1) + 1,
                     "schema nests mappings and sequences more than %d deep; not read",
                     YAML_MAX_DEPTH);
    } else if (!yaml_parser_initialize(&parser)) {
        problems_add(problems, display, 0, 0, "out of memory reading schema");
    } else {
        yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc)) {
            yaml_problem(&L, &parser, json, problems);
        } else {
            L.doc = &doc;
            root = convert(&L);
            yaml_document_delete(&doc);
            if (!root) {
                root = arena_alloc(a, sizeof *root); /* an empty document */
                root->kind = DOC_NULL;
            }
        }
        yaml_parser_delete(&parser);
    }
    free(L.memo);
    free(L.lines);
    return root;
}

const char *doc_scalar(const DocNode *n)
{
    return n && n->kind == DOC_SCALAR && !n->tag ? n->text : NULL;
}
