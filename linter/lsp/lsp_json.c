/* A document's findings and positions as LSP JSON: ranges in the
 * client's encoding, Diagnostics with their rule's docs link. Shared by
 * the server (lsp.c) and its request handlers (lsp_features.c); calls
 * neither. */
#include "lsp_server.h"

#include <stdlib.h>
#include <string.h>

#include "rule.h"
#include "walk.h"

const char *lsp_rule_href(const Server *s, const char *rule)
{
    for (size_t i = 0; s->rule_href && keylint_rules[i]; i++)
        if (!strcmp(keylint_rules[i]->id, rule))
            return s->rule_href[i];
    return NULL;
}

/* ---- positions and diagnostics ------------------------------------------------ */

void lsp_span_offsets(const Doc *d, const LineIndex *rows, const Span *sp, size_t *start,
                      size_t *end)
{
    *start = row_col_offset(d->text, d->len, rows, sp->start_row, sp->start_col);
    *end = row_col_offset(d->text, d->len, rows, sp->end_row, sp->end_col);
    if (*end < *start)
        *end = *start;
}

/* Built member by member, not with json_pack: publishing builds two
 * positions for each diagnostic of a file at every edit, and json_pack
 * reads its format each time. */
static json_t *position_json(const Server *s, const Doc *d, const LineIndex *lines, size_t off)
{
    uint32_t line, ch;
    lsp_position(d->text, d->len, lines, off, s->enc, &line, &ch);
    json_t *p = json_object();
    json_object_set_new_nocheck(p, "line", json_integer(line));
    json_object_set_new_nocheck(p, "character", json_integer(ch));
    return p;
}

json_t *lsp_range_json(const Server *s, const Doc *d, const LineIndex *lines, size_t start,
                       size_t end)
{
    json_t *r = json_object();
    json_object_set_new_nocheck(r, "start", position_json(s, d, lines, start));
    json_object_set_new_nocheck(r, "end", position_json(s, d, lines, end));
    return r;
}

bool lsp_parse_position(const Server *s, const Doc *d, const LineIndex *lines,
                        const json_t *pos, size_t *off)
{
    json_t *l = json_is_object(pos) ? json_object_get(pos, "line") : NULL;
    json_t *c = json_is_object(pos) ? json_object_get(pos, "character") : NULL;
    if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 ||
        json_integer_value(c) < 0)
        return false;
    json_int_t li = json_integer_value(l), ci = json_integer_value(c);
    *off = lsp_offset(d->text, d->len, lines, li > UINT32_MAX ? UINT32_MAX : (uint32_t)li,
                      ci > UINT32_MAX ? UINT32_MAX : (uint32_t)ci, s->enc);
    return true;
}

/* "message\nhelp: fix", or the message alone */
static json_t *message_json(const char *message, const char *fix)
{
    if (!fix)
        return json_string(message);
    static const char help[] = "\nhelp: ";
    size_t m = strlen(message), h = sizeof help - 1, f = strlen(fix);
    char *b = malloc(m + h + f + 1);
    if (!b)
        abort();
    memcpy(b, message, m);
    memcpy(b + m, help, h);
    memcpy(b + m + h, fix, f + 1);
    json_t *j = json_stringn(b, m + h + f);
    free(b);
    return j;
}

/* A related place as an LSP Location: in `d` with its indexes, else in
 * the project's copy of its file (an open document's buffer or the text
 * read from disk). NULL when the file is not known. */
static json_t *related_location(const Server *s, const Doc *d, const LineIndex *lines,
                                const LineIndex *rows, const DiagRelated *r)
{
    if (d->fpath && !strcmp(r->path, d->fpath)) {
        size_t a, b;
        lsp_span_offsets(d, rows, &r->span, &a, &b);
        json_t *loc = json_object();
        json_object_set_new_nocheck(loc, "uri", json_string(d->uri));
        json_object_set_new_nocheck(loc, "range", lsp_range_json(s, d, lines, a, b));
        return loc;
    }
    const SourceFile *f = s->p ? project_file(s->p, r->path) : NULL;
    if (!f || !f->abspath)
        return NULL;
    char *uri = path_to_uri(f->abspath);
    if (!uri)
        return NULL;
    json_t *loc = json_object();
    json_object_set_new_nocheck(loc, "uri", json_string(uri));
    free(uri);
    /* another file: its text (the server keeps only its documents'; the
     * rest is read again here) indexed for this one place */
    size_t len = f->len;
    char *owned = NULL;
    char *text = f->text;
    if (!text) {
        Problems quiet; /* a file that went meanwhile: byte columns below */
        problems_init(&quiet);
        text = owned = read_source(f->abspath, &len, &quiet);
        problems_free(&quiet);
    }
    if (text) {
        Doc other = {.text = text, .len = len};
        LineIndex ol, orow;
        lines_build(&ol, text, len);
        rows_build(&orow, text, len);
        size_t a, b;
        lsp_span_offsets(&other, &orow, &r->span, &a, &b);
        json_object_set_new_nocheck(loc, "range", lsp_range_json(s, &other, &ol, a, b));
        lines_free(&ol);
        lines_free(&orow);
        free(owned);
    } else { /* no text: rows and byte columns as they are */
        json_t *range = json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line",
                                  (json_int_t)r->span.start_row, "character",
                                  (json_int_t)r->span.start_col, "end", "line",
                                  (json_int_t)r->span.end_row, "character",
                                  (json_int_t)r->span.end_col);
        json_object_set_new_nocheck(loc, "range", range);
    }
    return loc;
}

json_t *lsp_diag_json(const Server *s, const Doc *d, const LineIndex *lines,
                      const LineIndex *rows, const Diagnostic *g)
{
    size_t a, b;
    lsp_span_offsets(d, rows, &g->span, &a, &b);
    json_t *j = json_object();
    json_object_set_new_nocheck(j, "range", lsp_range_json(s, d, lines, a, b));
    json_object_set_new_nocheck(j, "severity", json_integer(g->severity == SEV_ERROR ? 1 : 2));
    json_object_set_new_nocheck(j, "code", json_string(g->rule));
    const char *href = lsp_rule_href(s, g->rule);
    if (href) {
        json_t *cd = json_object();
        json_object_set_new_nocheck(cd, "href", json_string(href));
        json_object_set_new_nocheck(j, "codeDescription", cd);
    }
    json_object_set_new_nocheck(j, "source", json_string("keylint"));
    json_object_set_new_nocheck(j, "message", message_json(g->message, g->fix));
    if (g->nrelated) {
        /* the evidence (DiagnosticRelatedInformation) */
        json_t *rel = json_array();
        for (size_t i = 0; i < g->nrelated; i++) {
            json_t *loc = related_location(s, d, lines, rows, &g->related[i]);
            if (!loc)
                continue;
            json_t *ri = json_object();
            json_object_set_new_nocheck(ri, "location", loc);
            json_object_set_new_nocheck(ri, "message", json_string(g->related[i].message));
            json_array_append_new(rel, ri);
        }
        json_object_set_new_nocheck(j, "relatedInformation", rel);
    }
    return j;
}
