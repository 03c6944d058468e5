/* `keylint lsp` requests on findings: textDocument/codeAction (the rules'
 * machine-applicable fixes, and a suppression comment) and
 * textDocument/hover (the rule's documentation; on a key, the entity chart
 * of the document's entities). */
#include "lsp_server.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "model.h"
#include "suppress.h"
#include "walk.h"

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

/* The placeholder reason a suppression comment is inserted with: the
 * directive then reads as unfinished until someone says why. */
#define SUPPRESS_REASON "TODO: reason"

static bool valid_text_document(json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    return json_is_object(td) && json_is_string(json_object_get(td, "uri"));
}

/* A Position: { line, character }, both non-negative integers. */
static bool valid_position(const json_t *p)
{
    json_t *l = json_is_object(p) ? json_object_get(p, "line") : NULL;
    json_t *c = json_is_object(p) ? json_object_get(p, "character") : NULL;
    return json_is_integer(l) && json_is_integer(c) && json_integer_value(l) >= 0 &&
           json_integer_value(c) >= 0;
}

/* ---- code actions ------------------------------------------------------------------ */

/* Whether CodeActionContext.only admits actions of `kind`: kinds are
 * hierarchical, so "source" admits "source.fixAll.keylint", and the empty
 * kind admits every kind. No `only`: every kind but source actions, which
 * an editor asks for by name (on save, "Fix all"). */
static bool admits(const json_t *only, const char *kind)
{
    if (!json_is_array(only))
        return strncmp(kind, "source", 6) != 0;
    size_t i;
    json_t *k;
    json_array_foreach(only, i, k) {
        const char *ks = json_is_string(k) ? json_string_value(k) : NULL;
        size_t n = ks ? strlen(ks) : 0;
        if (ks && (!n || (!strncmp(kind, ks, n) && (kind[n] == '\0' || kind[n] == '.'))))
            return true;
    }
    return false;
}

/* The client's copy of our diagnostic (same code and range), so that the
 * action names the very object the editor shows; else ours. */
static json_t *matching_client_diag(const json_t *context, const json_t *ours)
{
    json_t *list = json_is_object(context) ? json_object_get(context, "diagnostics") : NULL;
    size_t i;
    json_t *d;
    json_array_foreach(list, i, d) {
        json_t *code = json_object_get(d, "code");
        if (json_is_string(code) &&
            !strcmp(json_string_value(code), json_string_value(json_object_get(ours, "code"))) &&
            json_equal(json_object_get(d, "range"), json_object_get(ours, "range")))
            return json_incref(d);
    }
    return json_incref((json_t *)ours);
}

static json_t *text_edit(const Server *s, const Doc *d, const LineIndex *lines, size_t a,
                         size_t b, const char *text)
{
    return json_pack("{s:o, s:s}", "range", lsp_range_json(s, d, lines, a, b), "newText", text);
}

static json_t *action(const char *title, json_t *diag, const Doc *d, json_t *edit, bool preferred)
{
    json_t *changes = json_object();
    json_object_set_new(changes, d->uri, json_pack("[o]", edit));
    json_t *a = json_pack("{s:s, s:s, s:[o], s:{s:o}}", "title", title, "kind", "quickfix",
                          "diagnostics", diag, "edit", "changes", changes);
    if (preferred)
        json_object_set_new(a, "isPreferred", json_true());
    return a;
}

/* The rule's machine-applicable fix, when the text still reads what the
 * rule saw (Diagnostic.edit_old; fix_resolve_at), with the import it
 * needs. */
static json_t *fix_action(const Server *s, const Doc *d, const LineIndex *lines,
                          const LineIndex *rows, const Diagnostic *g, json_t *diag)
{
    size_t a, b;
    lsp_span_offsets(d, rows, &g->edit_span, &a, &b);
    Arena *ar = arena_new();
    FixEdit fe[FIX_MAX_EDITS];
    size_t k = fix_resolve_at(ar, d->text, d->len, a, b, g, fe);
    json_t *act = NULL;
    if (k) {
        /* an unsafe fix is offered as such, never preferred */
        const char *title = arena_printf(ar, "Replace '%s' with '%s'%s%s%s", g->edit_old,
                                         fe[0].text, k > 1 ? " (and import it)" : "",
                                         g->unsafe ? " (unsafe: " : "",
                                         g->unsafe ? arena_printf(ar, "%s)", g->unsafe_why
                                                                                 ? g->unsafe_why
                                                                                 : "changes "
                                                                                   "the code")
                                                   : "");
        act = action(title, diag, d, text_edit(s, d, lines, fe[0].start, fe[0].end, fe[0].text),
                     !g->unsafe);
        json_t *list =
            json_object_get(json_object_get(json_object_get(act, "edit"), "changes"), d->uri);
        for (size_t i = 1; i < k; i++) /* the imports, before the edit */
            json_array_insert_new(list, i - 1,
                                  text_edit(s, d, lines, fe[i].start, fe[i].end, fe[i].text));
    }
    arena_free(ar);
    return act;
}

/* source.fixAll.keylint: every safe machine-applicable fix of the
 * document in one edit, planned like --fix (no overlaps; the text must
 * still read what each rule saw). NULL when there is none. */
static json_t *fix_all_action(const Server *s, const Doc *d, const LineIndex *lines,
                              const LineIndex *rows)
{
    Arena *ar = arena_new();
    FixEdits edits = {0};
    const DiagList *dl = &s->p->diags;
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *g = &dl->items.v[i];
        if (!g->has_edit || g->unsafe || strcmp(g->path, d->fpath))
            continue;
        size_t a, b;
        lsp_span_offsets(d, rows, &g->edit_span, &a, &b);
        FixEdit fe[FIX_MAX_EDITS];
        size_t k = fix_resolve_at(ar, d->text, d->len, a, b, g, fe);
        for (size_t j = 0; j < k; j++)
            VEC_PUSH(ar, &edits, fe[j]);
    }
    fix_plan(&edits);
    json_t *act = NULL;
    if (edits.n) {
        json_t *list = json_array();
        for (size_t i = 0; i < edits.n; i++)
            json_array_append_new(list, text_edit(s, d, lines, edits.v[i].start, edits.v[i].end,
                                                  edits.v[i].text));
        json_t *changes = json_object();
        json_object_set_new(changes, d->uri, list);
        act = json_pack("{s:s, s:s, s:{s:o}}", "title",
                        edits.n == 1 ? "Fix the keylint finding that has a fix"
                                     : "Fix all keylint findings that have a fix",
                        "kind", "source.fixAll.keylint", "edit", "changes", changes);
    }
    arena_free(ar);
    return act;
}

/* Whether `rule` is already named in the directive's rule list
 * text[a..b) (comma- or space-separated ids). */
static bool list_has(const char *t, size_t a, size_t b, const char *rule)
{
    size_t rl = strlen(rule);
    for (size_t i = a; i + rl <= b; i++)
        if (!strncmp(t + i, rule, rl) && (i == a || t[i - 1] == ',' || t[i - 1] == ' ') &&
            (i + rl == b || t[i + rl] == ',' || t[i + rl] == ' '))
            return true;
    return false;
}

/* "Suppress <rule> on this line": a `keylint-disable-next-line` comment
 * above the finding's line, indented like it; when the line above already
 * is such a directive, the rule joins its list instead (two directives in
 * a row would have the first one apply to the second). A comment never
 * goes inside a literal (`t`: the document's tree, NULL when it could not
 * be parsed): when the finding's line starts inside a multi-line template
 * or string, `keylint-disable-line` at the end of the line, if that end is
 * outside any literal; else no suppression is offered. */
static json_t *suppress_action(const Server *s, const Doc *d, const LineIndex *lines, size_t at,
                               const char *rule, json_t *diag, const SynTree *t)
{
    uint32_t line, ch;
    lsp_position(d->text, d->len, lines, at, s->enc, &line, &ch);
    size_t ls = lines->start[line];
    size_t indent = ls;
    while (indent < d->len && (d->text[indent] == ' ' || d->text[indent] == '\t'))
        indent++;
    size_t title_len = strlen(rule) + 32;
    char *title = xmalloc(title_len);
    snprintf(title, title_len, "Suppress %s on this line", rule);
    json_t *edit = NULL;
    if (t && line > 0 && syn_inside_literal(t, (uint32_t)ls)) {
        /* the line above ends inside a literal: the end of this line */
        size_t le = line + 1 < lines->n ? lines->start[line + 1] : d->len;
        while (le > ls && (d->text[le - 1] == '\n' || d->text[le - 1] == '\r'))
            le--;
        if (syn_inside_literal(t, (uint32_t)le)) {
            free(title);
            json_decref(diag);
            return NULL;
        }
        size_t n = strlen(rule) + sizeof SUPPRESS_REASON + 64;
        char *ins = xmalloc(n);
        snprintf(ins, n, " // keylint-disable-line %s -- %s", rule, SUPPRESS_REASON);
        edit = text_edit(s, d, lines, le, le, ins);
        free(ins);
        json_t *a = action(title, diag, d, edit, false);
        free(title);
        return a;
    }
    if (line > 0) {
        size_t ps = lines->start[line - 1], pe = ls;
        while (pe > ps && (d->text[pe - 1] == '\n' || d->text[pe - 1] == '\r'))
            pe--;
        static const char dir[] = "keylint-disable-next-line";
        const char *hit = NULL;
        for (size_t i = ps; i + sizeof dir - 1 <= pe && !hit; i++)
            if (!memcmp(d->text + i, dir, sizeof dir - 1))
                hit = d->text + i;
        const char *cm = NULL;
        for (size_t i = ps; hit && i + 1 < (size_t)(hit - d->text) && !cm; i++)
            if (d->text[i] == '/' && (d->text[i + 1] == '/' || d->text[i + 1] == '*'))
                cm = d->text + i;
        if (hit && cm) {
            size_t la = (size_t)(hit - d->text) + sizeof dir - 1, lb = la;
            while (lb < pe && !(d->text[lb] == '-' && lb + 1 < pe && d->text[lb + 1] == '-') &&
                   !(d->text[lb] == '*' && lb + 1 < pe && d->text[lb + 1] == '/'))
                lb++;
            while (lb > la && isspace((unsigned char)d->text[lb - 1]))
                lb--;
            if (list_has(d->text, la, lb, rule)) {
                free(title);
                json_decref(diag);
                return NULL;
            }
            size_t n = strlen(rule) + 3;
            char *ins = xmalloc(n);
            snprintf(ins, n, "%s%s", lb > la ? ", " : " ", rule);
            edit = text_edit(s, d, lines, lb, lb, ins);
            free(ins);
        }
    }
    if (!edit) {
        /* the line's own ending, for the inserted line */
        size_t e = line + 1 < lines->n ? lines->start[line + 1] : d->len;
        const char *eol = e >= 2 && d->text[e - 2] == '\r' && d->text[e - 1] == '\n' ? "\r\n"
                          : e >= 1 && d->text[e - 1] == '\r'                         ? "\r"
                                                                                      : "\n";
        size_t n = (indent - ls) + strlen(rule) + sizeof SUPPRESS_REASON + 64;
        char *ins = xmalloc(n);
        snprintf(ins, n, "%.*s// keylint-disable-next-line %s -- %s%s", (int)(indent - ls),
                 d->text + ls, rule, SUPPRESS_REASON, eol);
        edit = text_edit(s, d, lines, ls, ls, ins);
        free(ins);
    }
    json_t *a = action(title, diag, d, edit, false);
    free(title);
    return a;
}

json_t *lsp_code_action(const Server *s, Doc *d, json_t *params, const char **error)
{
    json_t *range = json_object_get(params, "range");
    json_t *context = json_object_get(params, "context");
    if (!valid_text_document(params) || !json_is_object(range) ||
        !valid_position(json_object_get(range, "start")) ||
        !valid_position(json_object_get(range, "end")) || (context && !json_is_object(context))) {
        *error = "codeAction takes textDocument.uri, range and context";
        return NULL;
    }
    json_t *result = json_array();
    const json_t *only = json_object_get(context, "only");
    bool quick = admits(only, "quickfix"), all = admits(only, "source.fixAll.keylint");
    if (!d || !d->lint || (!quick && !all)) {
        return result;
    }
    LineIndex lines, rows;
    lines_build(&lines, d->text, d->len);
    rows_build(&rows, d->text, d->len);
    if (!quick) {
        json_t *fa = fix_all_action(s, d, &lines, &rows);
        if (fa)
            json_array_append_new(result, fa);
        lines_free(&lines);
        lines_free(&rows);
        return result;
    }
    size_t ra, rb;
    if (!lsp_parse_position(s, d, &lines, json_object_get(range, "start"), &ra) ||
        !lsp_parse_position(s, d, &lines, json_object_get(range, "end"), &rb)) {
        lines_free(&lines);
        lines_free(&rows);
        json_decref(result);
        *error = "codeAction: range needs start and end "
                                                   "positions";
        return NULL;
    }
    if (rb < ra) {
        size_t t = ra;
        ra = rb;
        rb = t;
    }
    json_t *fixes = json_array(), *suppressions = json_array();
    /* (rule, line) pairs already offered a suppression */
    const char **done_rule = xmalloc((s->p->diags.items.n + 1) * sizeof *done_rule);
    uint32_t *done_line = xmalloc((s->p->diags.items.n + 1) * sizeof *done_line);
    size_t ndone = 0;
    SynTree *tree = NULL; /* the document's, parsed when a suppression is offered */
    Arena *tree_strings = NULL;
    bool parsed = false;
    const DiagList *dl = &s->p->diags;
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *g = &dl->items.v[i];
        if (strcmp(g->path, d->fpath))
            continue;
        size_t a, b;
        lsp_span_offsets(d, &rows, &g->span, &a, &b);
        if (a > rb || b < ra)
            continue;
        json_t *ours = lsp_diag_json(s, d, &lines, &rows, g);
        json_t *diag = matching_client_diag(context, ours);
        json_decref(ours);
        json_t *fx = fix_action(s, d, &lines, &rows, g, json_incref(diag));
        if (fx)
            json_array_append_new(fixes, fx);
        else
            json_decref(diag); /* the reference fix_action did not take */
        uint32_t line, ch;
        lsp_position(d->text, d->len, &lines, a, s->enc, &line, &ch);
        bool dup = !strcmp(g->rule, SUPPRESSION_RULE);
        for (size_t k = 0; k < ndone && !dup; k++)
            dup = done_line[k] == line && !strcmp(done_rule[k], g->rule);
        if (!dup) {
            if (!parsed) { /* once, for the literals a comment must stay out of */
                parsed = true;
                tree_strings = arena_new();
                tree = syn_parse(d->text, d->len, is_tsx_path(d->fpath) ? SYN_TSX : SYN_TYPESCRIPT,
                                 tree_strings, NULL);
            }
            json_t *sa = suppress_action(s, d, &lines, a, g->rule, json_incref(diag), tree);
            if (sa)
                json_array_append_new(suppressions, sa);
            done_rule[ndone] = g->rule;
            done_line[ndone++] = line;
        }
        json_decref(diag);
    }
    free(done_rule);
    free(done_line);
    syn_free(tree);
    arena_free(tree_strings);
    json_array_extend(result, fixes);
    json_array_extend(result, suppressions);
    json_t *fa = all ? fix_all_action(s, d, &lines, &rows) : NULL;
    if (fa)
        json_array_append_new(result, fa);
    json_decref(fixes);
    json_decref(suppressions);
    lines_free(&lines);
    lines_free(&rows);
    return result;
}

/* ---- hover --------------------------------------------------------------------------- */

typedef struct Buf {
    char *v;
    size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *s)
{
    size_t m = strlen(s);
    if (b->n + m + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 1024;
        while (c < b->n + m + 1)
            c *= 2;
        char *v = realloc(b->v, c);
        if (!v)
            abort();
        b->v = v;
        b->cap = c;
    }
    memcpy(b->v + b->n, s, m + 1);
    b->n += m;
}

/* The key of the document's IR under byte `off` (the innermost): its
 * offsets in *a and *b. */
static bool key_at(const Server *s, const Doc *d, const LineIndex *rows, size_t off, size_t *a,
                   size_t *b)
{
    const SourceFile *sf = project_file(s->p, d->abspath ? d->abspath : d->fpath);
    if (!sf || !sf->ir)
        return false;
    bool hit = false;
    for (size_t i = 0; i < sf->ir->keys.n; i++) {
        size_t ka, kb;
        lsp_span_offsets(d, rows, &sf->ir->keys.v[i].span, &ka, &kb);
        if (off < ka || off > kb || (hit && kb - ka >= *b - *a))
            continue;
        *a = ka;
        *b = kb;
        hit = true;
    }
    return hit;
}

/* On a key: the entity chart of the entities the document writes or reads
 * (the project's design model, drawn now), appended to `md`. */
static bool entity_chart(const Server *s, const Doc *d, Buf *md)
{
    DesignModel *m = model_build(s->p);
    Arena *a = arena_new();
    const MEntity **ents;
    size_t n = model_entities_in(m, a, d->fpath, &ents);
    if (n) {
        if (md->n)
            buf_add(md, "\n\n---\n\n");
        buf_add(md, s->hover_markdown ? "**keylint** key design of this file's entities\n\n"
                                      : "keylint: key design of this file's entities\n\n");
        buf_add(md, model_entities_markdown(a, m, ents, n, (const char *const *)s->roots, s->nroots));
    }
    arena_free(a);
    model_free(m);
    return n > 0;
}

json_t *lsp_hover(const Server *s, Doc *d, json_t *params, const char **error)
{
    json_t *pos = json_object_get(params, "position");
    if (!valid_text_document(params) || !valid_position(pos)) {
        *error = "hover takes textDocument.uri and position";
        return NULL;
    }
    if (!d || !d->lint) {
        return json_null();
    }
    LineIndex lines, rows;
    lines_build(&lines, d->text, d->len);
    size_t off;
    if (!lsp_parse_position(s, d, &lines, pos, &off)) {
        lines_free(&lines);
        *error = "hover: position needs line and character";
        return NULL;
    }
    rows_build(&rows, d->text, d->len);
    Buf md = {0};
    const char **shown = xmalloc((s->p->diags.items.n + 1) * sizeof *shown);
    size_t nshown = 0;
    size_t ha = 0, hb = 0;
    bool any = false;
    const DiagList *dl = &s->p->diags;
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *g = &dl->items.v[i];
        if (strcmp(g->path, d->fpath))
            continue;
        size_t a, b;
        lsp_span_offsets(d, &rows, &g->span, &a, &b);
        if (off < a || off > b)
            continue;
        if (!any) {
            ha = a;
            hb = b;
        }
        if (any)
            buf_add(&md, "\n\n---\n\n");
        any = true;
        const char *href = lsp_rule_href(s, g->rule);
        if (s->hover_markdown) {
            buf_add(&md, "**keylint** ");
            if (href) {
                buf_add(&md, "[`");
                buf_add(&md, g->rule);
                buf_add(&md, "`](");
                buf_add(&md, href);
                buf_add(&md, ")");
            } else {
                buf_add(&md, "`");
                buf_add(&md, g->rule);
                buf_add(&md, "`");
            }
        } else {
            buf_add(&md, "keylint ");
            buf_add(&md, g->rule);
        }
        buf_add(&md, g->severity == SEV_ERROR ? " (error)\n\n" : " (warning)\n\n");
        buf_add(&md, g->message);
        if (g->fix) {
            buf_add(&md, "\n\nhelp: ");
            buf_add(&md, g->fix);
        }
        bool again = false;
        for (size_t k = 0; k < nshown && !again; k++)
            again = !strcmp(shown[k], g->rule);
        const char *docs = again ? NULL : rule_docs(g->rule);
        if (docs) {
            buf_add(&md, "\n\n");
            buf_add(&md, docs);
            shown[nshown++] = g->rule;
        }
    }
    free(shown);
    size_t ka, kb;
    if (key_at(s, d, &rows, off, &ka, &kb) && entity_chart(s, d, &md) && !any) {
        any = true;
        ha = ka;
        hb = kb;
    }
    json_t *result = json_null();
    if (any)
        result = json_pack("{s:{s:s, s:s}, s:o}", "contents", "kind",
                           s->hover_markdown ? "markdown" : "plaintext", "value", md.v, "range",
                           lsp_range_json(s, d, &lines, ha, hb));
    free(md.v);
    lines_free(&lines);
    lines_free(&rows);
    return result;
}
