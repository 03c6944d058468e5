/* The design model as one self-contained HTML page: the entity charts,
 * the access patterns, a diagram drawn here as inline SVG (tables with
 * their entities, queries with an edge to each entity they can return)
 * and, per entity, the code sites. Styles and the one script are inline:
 * the page needs no network to open. */
#include <string.h>

#include "model.h"
#include "model_int.h"

static void h(FILE *out, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
                fputc(' ', out);
            else
                fputc(*p, out);
        }
    }
}

static const char style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;"
    "color:#1f2328;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}"
    "h3{font-size:15px;margin:18px 0 6px}"
    "code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}"
    "table{border-collapse:collapse;margin:6px 0 12px}"
    "th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f6f8fa}"
    ".finding{color:#bc4c00}.read{color:#57606a;font-style:italic}"
    ".none{color:#cf222e}.meta{color:#57606a}"
    "svg{border:1px solid #d0d7de;background:#fbfcfd;max-width:100%;height:auto}"
    "svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}"
    "svg .tbox{fill:#fff;stroke:#8c959f}svg .thead{fill:#ddf4ff;stroke:#8c959f}"
    "svg .ent{fill:#fff;stroke:#d0d7de}svg .ent.finding{stroke:#bc4c00;stroke-width:2}"
    "svg .q{fill:#f6f8fa;stroke:#8c959f}svg .q.unmatched{stroke:#cf222e;stroke-dasharray:4 3}"
    "svg .edge{fill:none;stroke:#8c959f;stroke-width:1.2}"
    "svg .hl .ent,svg .hl .q{fill:#fff8c5}svg .edge.hl{stroke:#9a6700;stroke-width:2.2}"
    "details{margin:4px 0}summary{cursor:pointer}";

/* Highlight an entity's or a query's edges and ends while the pointer is
 * on it; data-ready on the diagram says the script ran. */
static const char script[] =
    "(function(){var svg=document.getElementById('diagram');if(!svg)return;"
    "function set(id,on){var els=svg.querySelectorAll('[data-ends~=\"'+id+'\"]');"
    "for(var i=0;i<els.length;i++){els[i].classList.toggle('hl',on);"
    "var ends=els[i].getAttribute('data-ends').split(' ');"
    "for(var j=0;j<ends.length;j++){var n=document.getElementById(ends[j]);"
    "if(n)n.classList.toggle('hl',on);}}"
    "var self=document.getElementById(id);if(self)self.classList.toggle('hl',on);}"
    "var nodes=svg.querySelectorAll('g[id]');"
    "for(var k=0;k<nodes.length;k++){(function(n){"
    "n.addEventListener('mouseenter',function(){set(n.id,true);});"
    "n.addEventListener('mouseleave',function(){set(n.id,false);});})(nodes[k]);}"
    "svg.setAttribute('data-ready','true');})();";

enum { CH = 7, ROW = 22, QH = 24, GAP = 10, PAD = 12, MAXCH = 64 };

static size_t text_len(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* `s` cut to MAXCH characters (with "..."), in `a`. */
static const char *cut(Arena *a, const char *s)
{
    if (text_len(s) <= MAXCH)
        return s;
    size_t b = 0, w = 0;
    while (s[b] && w < MAXCH - 3) {
        b++;
        while (((unsigned char)s[b] & 0xC0) == 0x80)
            b++;
        w++;
    }
    return arena_printf(a, "%.*s...", (int)b, s);
}

/* An entity's one-line summary in the diagram: "ORDER  pk=ORDER#{t} sk=..." */
static const char *entity_line(Arena *a, const DesignModel *m, const MEntity *e)
{
    const MTable *t = &m->tables.v[e->table];
    StrBuf b;
    sb_init(&b, a);
    sb_append(&b, e->name);
    for (size_t c = 0; c < t->attrs.n && c < 2; c++) {
        const MShape *s[1];
        if (model_cell_shapes(e, t->attrs.v[c], s, 1))
            sb_printf(&b, "  %s=%s", t->attrs.v[c], s[0]->text);
    }
    return cut(a, sb_str(&b));
}

static void diagram(FILE *out, Arena *a, const DesignModel *m)
{
    size_t ne = m->entities.n, nq = m->queries.n, nt = m->tables.n;
    double *ey = arena_alloc(a, (ne + 1) * sizeof *ey);
    double *ty = arena_alloc(a, (nt + 1) * sizeof *ty), *th = arena_alloc(a, (nt + 1) * sizeof *th);
    const char **elabel = arena_alloc(a, (ne + 1) * sizeof *elabel);
    const char **qlabel = arena_alloc(a, (nq + 1) * sizeof *qlabel);
    size_t qw = 0, ew = 0;
    for (size_t i = 0; i < nq; i++) {
        const MQuery *q = &m->queries.v[i];
        qlabel[i] = cut(a, arena_printf(a, "%s: %s", model_query_target(a, m, q),
                                        model_query_condition(a, q)));
        if (text_len(qlabel[i]) > qw)
            qw = text_len(qlabel[i]);
    }
    for (size_t i = 0; i < ne; i++) {
        elabel[i] = entity_line(a, m, &m->entities.v[i]);
        if (text_len(elabel[i]) > ew)
            ew = text_len(elabel[i]);
    }
    for (size_t t = 0; t < nt; t++)
        if (text_len(cut(a, m->tables.v[t].label)) > ew)
            ew = text_len(cut(a, m->tables.v[t].label));
    /* layout: the queries left, the tables and their entities right */
    double qx = PAD, qwidth = nq ? (double)qw * CH + 16 : 0;
    double tx = qx + qwidth + (nq ? 120 : 0), twidth = (double)ew * CH + 24;
    double y = PAD;
    for (size_t t = 0; t < nt; t++) {
        size_t rows = model_table_entities(m, t);
        ty[t] = y;
        th[t] = ROW + 8 + (double)(rows ? rows : 1) * (ROW + 4) + 6;
        double ry = y + ROW + 8;
        for (size_t i = 0; i < ne; i++) {
            if (m->entities.v[i].table != t)
                continue;
            ey[i] = ry;
            ry += ROW + 4;
        }
        y += th[t] + GAP * 2;
    }
    double height = y, qstep = QH + GAP;
    if (nq && (double)nq * qstep + PAD < height)
        qstep = (height - PAD) / (double)nq; /* spread over the tables' height */
    if ((double)nq * qstep + PAD > height)
        height = (double)nq * qstep + PAD;
    double width = tx + twidth + PAD;
    fprintf(out, "<svg id=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                 "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
                 "aria-label=\"tables, entities and access patterns\">\n",
            width, height, width, height);
    /* edges first, under the boxes */
    for (size_t qi = 0; qi < nq; qi++) {
        const MQuery *q = &m->queries.v[qi];
        double y0 = PAD + (double)qi * qstep + QH / 2.0;
        for (size_t k = 0; k < q->entities.n; k++)
            for (size_t i = 0; i < ne; i++) {
                const MEntity *e = &m->entities.v[i];
                if (strcmp(e->name, q->entities.v[k]) ||
                    (m->tables.v[q->table].known && e->table != q->table &&
                     m->tables.v[e->table].known))
                    continue;
                double x0 = qx + qwidth, x1 = tx + 6, y1 = ey[i] + ROW / 2.0;
                fprintf(out, "<path class=\"edge\" data-ends=\"q%zu e%zu\" d=\"M%.0f %.1f C%.0f "
                             "%.1f %.0f %.1f %.0f %.1f\"/>\n",
                        qi, i, x0, y0, x0 + 60, y0, x1 - 60, y1, x1, y1);
            }
    }
    for (size_t qi = 0; qi < nq; qi++) {
        const MQuery *q = &m->queries.v[qi];
        double yq = PAD + (double)qi * qstep;
        fprintf(out, "<g id=\"q%zu\" class=\"query\" data-ends=\"q%zu\"><title>", qi, qi);
        h(out, model_query_target(a, m, q));
        fputs(": ", out);
        h(out, model_query_condition(a, q));
        fputs(" -> ", out);
        h(out, model_query_entities(a, q));
        fputs(" (", out);
        h(out, q->site.path);
        fprintf(out, ":%u)</title><rect class=\"q%s\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
                     "height=\"%d\" rx=\"12\"/><text x=\"%.0f\" y=\"%.0f\">",
                q->site.line, !q->entities.n || q->unmatched ? " unmatched" : "", qx, yq, qwidth,
                QH, qx + 8, yq + 16);
        h(out, qlabel[qi]);
        fputs("</text></g>\n", out);
    }
    for (size_t t = 0; t < nt; t++) {
        fprintf(out, "<g class=\"table\"><rect class=\"tbox\" x=\"%.0f\" y=\"%.0f\" "
                     "width=\"%.0f\" height=\"%.0f\" rx=\"6\"/><rect class=\"thead\" "
                     "x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%d\" rx=\"6\"/>"
                     "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">",
                tx, ty[t], twidth, th[t], tx, ty[t], twidth, ROW + 2, tx + 8, ty[t] + 16);
        h(out, cut(a, m->tables.v[t].label));
        fputs("</text></g>\n", out);
        if (!model_table_entities(m, t))
            fprintf(out, "<text class=\"meta\" x=\"%.0f\" y=\"%.0f\">no entity</text>\n",
                    tx + 10, ty[t] + ROW + 23);
    }
    for (size_t i = 0; i < ne; i++) {
        const MEntity *e = &m->entities.v[i];
        fprintf(out, "<g id=\"e%zu\" class=\"entity\" data-ends=\"e%zu\"><title>", i, i);
        h(out, e->name);
        fprintf(out, ": %zu write%s, %zu read%s", e->writes.n, e->writes.n == 1 ? "" : "s",
                e->reads.n, e->reads.n == 1 ? "" : "s");
        for (size_t r = 0; r < e->rules.n; r++) {
            fputs(r ? " " : "; findings: ", out);
            h(out, e->rules.v[r]);
        }
        fprintf(out, "</title><rect class=\"ent%s\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
                     "height=\"%d\" rx=\"4\"/><text x=\"%.0f\" y=\"%.0f\">",
                e->rules.n ? " finding" : "", tx + 6, ey[i], twidth - 12, ROW, tx + 12, ey[i] + 15);
        h(out, elabel[i]);
        fputs("</text></g>\n", out);
    }
    fputs("</svg>\n", out);
}

static void html_cell(FILE *out, const MEntity *e, const char *attr)
{
    const MShape *s[16];
    size_t n = model_cell_shapes(e, attr, s, 16);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs("<br>", out);
        fputs("<code", out);
        if (!s[i]->written)
            fputs(" class=\"read\"", out);
        fputc('>', out);
        h(out, s[i]->text);
        fputs("</code>", out);
        if (!s[i]->written)
            fputs(" <span class=\"read\">(read)</span>", out);
        if (s[i]->when) {
            fputs(" (when ", out);
            h(out, s[i]->when);
            fputc(')', out);
        }
        if (s[i]->rules.n) {
            fputs(" <span class=\"finding\">&#9888;", out);
            for (size_t r = 0; r < s[i]->rules.n; r++) {
                fputs(r ? ", " : " ", out);
                h(out, s[i]->rules.v[r]);
            }
            fputs("</span>", out);
        }
    }
}

static void html_sites(FILE *out, const MSites *v)
{
    for (size_t i = 0; i < v->n; i++) {
        fputs(i ? ", " : "", out);
        fputs("<code>", out);
        h(out, v->v[i].path);
        fprintf(out, ":%u</code>", v->v[i].line);
    }
    if (!v->n)
        fputs("<span class=\"meta\">none</span>", out);
}

static void html_table(FILE *out, const DesignModel *m, size_t t)
{
    const MTable *mt = &m->tables.v[t];
    fputs("<h3>", out);
    h(out, mt->label);
    fputs("</h3>\n", out);
    if (mt->known) {
        fputs("<p class=\"meta\">keys <code>", out);
        h(out, mt->pk ? mt->pk : "?");
        if (mt->sk) {
            fputs("</code>, <code>", out);
            h(out, mt->sk);
        }
        fputs("</code>", out);
        for (size_t i = 0; i < mt->indexes.n; i++) {
            fputs(i ? "; " : "; indexes ", out);
            fputs("<code>", out);
            h(out, mt->indexes.v[i].name);
            fputs("</code>", out);
        }
        if (mt->where.path) {
            fputs("; defined at <code>", out);
            h(out, mt->where.path);
            fprintf(out, ":%u</code>", mt->where.line);
        }
        fputs("</p>\n", out);
    }
    if (!model_table_entities(m, t)) {
        fputs("<p class=\"meta\">No entity is written or read on it.</p>\n", out);
        return;
    }
    fputs("<table class=\"chart\"><tr><th>Entity</th>", out);
    for (size_t c = 0; c < mt->attrs.n; c++) {
        fputs("<th>", out);
        h(out, mt->attrs.v[c]);
        fputs("</th>", out);
    }
    fputs("<th>Writes</th><th>Reads</th></tr>\n", out);
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (e->table != t)
            continue;
        fprintf(out, "<tr class=\"entity\"><th><a href=\"#entity-%zu\">", i);
        h(out, e->name);
        fputs("</a></th>", out);
        for (size_t c = 0; c < mt->attrs.n; c++) {
            fputs("<td>", out);
            html_cell(out, e, mt->attrs.v[c]);
            fputs("</td>", out);
        }
        fprintf(out, "<td>%zu</td><td>%zu</td></tr>\n", e->writes.n, e->reads.n);
    }
    fputs("</table>\n", out);
    for (size_t x = 0; x < mt->indexes.n; x++) {
        const MIndex *ix = &mt->indexes.v[x];
        fprintf(out, "<p>%s index <code>", ix->local ? "Local" : "Global");
        h(out, ix->name);
        fputs("</code></p>\n<table><tr><th>Entity</th><th>", out);
        h(out, ix->pk ? ix->pk : "?");
        fputs("</th>", out);
        if (ix->sk) {
            fputs("<th>", out);
            h(out, ix->sk);
            fputs("</th>", out);
        }
        fputs("</tr>\n", out);
        size_t rows = 0;
        for (size_t i = 0; i < m->entities.n; i++) {
            const MEntity *e = &m->entities.v[i];
            if (e->table != t || !model_entity_in_index(e, ix))
                continue;
            fputs("<tr><th>", out);
            h(out, e->name);
            fputs("</th><td>", out);
            if (ix->pk)
                html_cell(out, e, ix->pk);
            fputs("</td>", out);
            if (ix->sk) {
                fputs("<td>", out);
                html_cell(out, e, ix->sk);
                fputs("</td>", out);
            }
            fputs("</tr>\n", out);
            rows++;
        }
        if (!rows)
            fprintf(out, "<tr><td colspan=\"%d\" class=\"meta\">no entity writes its keys</td></tr>\n",
                    ix->sk ? 3 : 2);
        fputs("</table>\n", out);
    }
}

bool model_write_html(FILE *out, const DesignModel *m, const ModelWriteOptions *o)
{
    Arena *a = arena_new();
    const char *title = o && o->title ? o->title : "keylint model";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"keylint\">\n<title>",
          out);
    h(out, title);
    fputs(" - key design</title>\n<style>", out);
    fputs(style, out);
    fputs("</style>\n</head>\n<body>\n<h1>Key design: ", out);
    h(out, title);
    size_t known = 0;
    for (size_t t = 0; t < m->tables.n; t++)
        known += m->tables.v[t].known;
    fprintf(out, "</h1>\n<p class=\"meta\">%zu table%s, %zu entit%s, %zu access pattern%s, from %zu "
                 "file%s, drawn by keylint from the code.</p>\n",
            known, known == 1 ? "" : "s", m->entities.n, m->entities.n == 1 ? "y" : "ies",
            m->queries.n, m->queries.n == 1 ? "" : "s", m->files, m->files == 1 ? "" : "s");
    fputs("<h2>Diagram</h2>\n", out);
    diagram(out, a, m);
    fputs("<h2>Entities</h2>\n", out);
    for (size_t t = 0; t < m->tables.n; t++)
        html_table(out, m, t);
    fputs("<h2>Access patterns</h2>\n", out);
    if (!m->queries.n) {
        fputs("<p class=\"meta\">No query or scan.</p>\n", out);
    } else {
        fputs("<table><tr><th>On</th><th>Key condition</th><th>Returns</th><th>Where</th></tr>\n",
              out);
        for (size_t i = 0; i < m->queries.n; i++) {
            const MQuery *q = &m->queries.v[i];
            fputs("<tr class=\"query\"><td><code>", out);
            h(out, model_query_target(a, m, q));
            fputs("</code></td><td><code>", out);
            h(out, model_query_condition(a, q));
            fputs("</code></td><td>", out);
            if (q->entities.n)
                h(out, model_query_entities(a, q));
            else
                fputs("<span class=\"none\">no entity</span>", out);
            for (size_t r = 0; r < q->rules.n; r++) {
                fputs(r ? ", " : " <span class=\"finding\">&#9888; ", out);
                h(out, q->rules.v[r]);
                if (r + 1 == q->rules.n)
                    fputs("</span>", out);
            }
            fputs("</td><td><code>", out);
            h(out, q->site.path);
            fprintf(out, ":%u</code>", q->site.line);
            if (q->function) {
                fputs(" <span class=\"meta\">", out);
                h(out, q->function);
                fputs("</span>", out);
            }
            fputs("</td></tr>\n", out);
        }
        fputs("</table>\n", out);
    }
    fputs("<h2>Code sites</h2>\n", out);
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        fprintf(out, "<details id=\"entity-%zu\" class=\"sites\"><summary><b>", i);
        h(out, e->name);
        fputs("</b> <span class=\"meta\">on ", out);
        h(out, model_table_short(&m->tables.v[e->table]));
        fprintf(out, ": %zu write%s, %zu read%s</span>", e->writes.n, e->writes.n == 1 ? "" : "s",
                e->reads.n, e->reads.n == 1 ? "" : "s");
        if (e->rules.n) {
            fputs(" <span class=\"finding\">&#9888;", out);
            for (size_t r = 0; r < e->rules.n; r++) {
                fputs(r ? ", " : " ", out);
                h(out, e->rules.v[r]);
            }
            fputs("</span>", out);
        }
        fputs("</summary>\n<p>Written at ", out);
        html_sites(out, &e->writes);
        fputs("</p>\n<p>Read at ", out);
        html_sites(out, &e->reads);
        fputs("</p>\n</details>\n", out);
    }
    if (m->opaque.n) {
        fprintf(out, "<p class=\"meta\">Not drawn: %zu write%s whose keys are all values passed in: ",
                m->opaque.n, m->opaque.n == 1 ? "" : "s");
        html_sites(out, &m->opaque);
        fputs(".</p>\n", out);
    }
    fputs("<p class=\"meta\">&#9888; a key of this shape, or this query, has findings (run "
          "<code>keylint</code>); <span class=\"read\">(read)</span>: a shape only read, never "
          "written.</p>\n<script>",
          out);
    fputs(script, out);
    fputs("</script>\n</body>\n</html>\n", out);
    arena_free(a);
    return !ferror(out);
}
