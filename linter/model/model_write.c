/* The design model as text (aligned columns), Markdown and Mermaid. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "model_int.h"

/* ---- shared readings ------------------------------------------------------------ */

const char *model_table_short(const MTable *t)
{
    if (t->name && !strstr(t->name, "${"))
        return t->name;
    return t->label;
}

const char *model_cond_op(CondOp op)
{
    switch (op) {
    case COND_BEGINS_WITH:
        return "begins_with";
    case COND_BETWEEN:
        return "between";
    case COND_LT:
        return "<";
    case COND_LE:
        return "<=";
    case COND_GT:
        return ">";
    case COND_GE:
        return ">=";
    case COND_EQ:
    case COND_NONE:
    case COND_OP_COUNT:
        break;
    }
    return "=";
}

const char *model_query_target(Arena *a, const DesignModel *m, const MQuery *q)
{
    const char *t = model_table_short(&m->tables.v[q->table]);
    return q->index ? arena_printf(a, "%s/%s", t, q->index) : t;
}

const char *model_query_condition(Arena *a, const MQuery *q)
{
    if (q->kind == OP_SCAN)
        return "scan";
    StrBuf b;
    sb_init(&b, a);
    for (size_t i = 0; i < q->conds.n; i++) {
        const MCond *c = &q->conds.v[i];
        sb_printf(&b, "%s%s %s %s", i ? ", " : "", c->attr, model_cond_op(c->op),
                  c->text ? c->text : "{?}");
    }
    if (!q->conds.n)
        sb_append(&b, "(key condition not read)");
    return sb_str(&b);
}

const char *model_query_entities(Arena *a, const MQuery *q)
{
    if (!q->entities.n)
        return "(no entity)";
    StrBuf b;
    sb_init(&b, a);
    for (size_t i = 0; i < q->entities.n; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", q->entities.v[i]);
    return sb_str(&b);
}

const char *model_sites(Arena *a, const MSites *v, size_t max)
{
    StrBuf b;
    sb_init(&b, a);
    for (size_t i = 0; i < v->n && i < max; i++)
        sb_printf(&b, "%s%s:%u", i ? ", " : "", v->v[i].path, v->v[i].line);
    if (v->n > max)
        sb_printf(&b, " and %zu more", v->n - max);
    return sb_str(&b);
}

bool model_entity_written(const MEntity *e)
{
    for (size_t i = 0; i < e->shapes.n; i++)
        if (e->shapes.v[i].written)
            return true;
    return false;
}

size_t model_table_entities(const DesignModel *m, size_t t)
{
    size_t n = 0;
    for (size_t i = 0; i < m->entities.n; i++)
        n += m->entities.v[i].table == t;
    return n;
}

bool model_entity_in_index(const MEntity *e, const MIndex *ix)
{
    const char *attr = ix->local ? ix->sk : ix->pk;
    for (size_t i = 0; attr && i < e->shapes.n; i++)
        if (!strcmp(e->shapes.v[i].attr, attr) && e->shapes.v[i].written)
            return true;
    return false;
}

static size_t max_sites(const ModelWriteOptions *o)
{
    return o && o->max_sites ? o->max_sites : 3;
}

/* "ABC" for ORDER#{orderId}: the first letter of each value's name. */
static char value_letter(const char *name, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isalpha((unsigned char)name[i]))
            return (char)tolower((unsigned char)name[i]);
    return 'x';
}

static bool date_name(const char *name, size_t n)
{
    static const char *const marks[] = {"date", "time", "At", "ISOString", "day", "Date",
                                        "Time", "timestamp", NULL};
    for (const char *const *m = marks; *m; m++) {
        size_t l = strlen(*m);
        if (n >= l && !strncmp(name + n - l, *m, l))
            return true;
        if (n >= l + 2 && !strncmp(name + n - l - 2, *m, l) && !strncmp(name + n - 2, "()", 2))
            return true;
    }
    return false;
}

const char *model_example_value(Arena *a, const char *text, unsigned n)
{
    StrBuf b;
    sb_init(&b, a);
    for (const char *p = text; p && *p;) {
        const char *open = strchr(p, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (!open || !close) {
            sb_append(&b, p);
            break;
        }
        sb_appendn(&b, p, (size_t)(open - p));
        const char *name = open + 1;
        size_t len = (size_t)(close - name);
        if (date_name(name, len))
            sb_printf(&b, "2024-01-0%u", n % 9 + 1);
        else
            sb_printf(&b, "%c-%u", value_letter(name, len), n);
        p = close + 1;
    }
    return sb_str(&b);
}

/* ---- text: aligned columns ------------------------------------------------------------ */

/* A grid of cells, each cell one or more lines, printed with columns as
 * wide as their widest line (UTF-8 characters counted). */
typedef struct Grid {
    Arena *a;
    size_t cols;
    VEC(const char *) cells; /* row-major; lines separated by '\n' */
} Grid;

static size_t utf8_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static size_t line_count(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Line `l` of cell `s`: its start and length. */
static const char *cell_line(const char *s, size_t l, size_t *len)
{
    for (; l && s; l--) {
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    if (!s) {
        *len = 0;
        return "";
    }
    const char *e = strchr(s, '\n');
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

static void grid_print(FILE *out, const Grid *g, const char *indent)
{
    size_t rows = g->cells.n / g->cols;
    size_t *w = arena_alloc(g->a, g->cols * sizeof *w);
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < g->cols; c++) {
            const char *cell = g->cells.v[r * g->cols + c];
            for (size_t l = 0, n = line_count(cell); l < n; l++) {
                size_t len;
                const char *x = cell_line(cell, l, &len);
                size_t cw = utf8_width(x, len);
                if (cw > w[c])
                    w[c] = cw;
            }
        }
    }
    for (size_t r = 0; r < rows; r++) {
        size_t lines = 1;
        for (size_t c = 0; c < g->cols; c++) {
            size_t n = line_count(g->cells.v[r * g->cols + c]);
            if (n > lines)
                lines = n;
        }
        for (size_t l = 0; l < lines; l++) {
            /* the last column that has text on this line: no trailing blanks */
            size_t last = 0;
            for (size_t c = 0; c < g->cols; c++) {
                size_t len;
                cell_line(g->cells.v[r * g->cols + c], l, &len);
                if (len)
                    last = c;
            }
            fputs(indent, out);
            for (size_t c = 0; c <= last; c++) {
                size_t len;
                const char *x = cell_line(g->cells.v[r * g->cols + c], l, &len);
                fput_escaped(out, x, len);
                if (c < last)
                    fprintf(out, "%*s", (int)(w[c] - utf8_width(x, len) + 2), "");
            }
            fputc('\n', out);
        }
    }
}

static void grid_add(Grid *g, const char *cell)
{
    VEC_PUSH(g->a, &g->cells, cell ? cell : "");
}

/* The lines of an entity's cell for `attr`: its shapes, "!" after one
 * with findings, "(read)" after one only read. */
static const char *text_cell(Arena *a, const MEntity *e, const char *attr)
{
    const MShape *s[16];
    size_t n = model_cell_shapes(e, attr, s, 16);
    StrBuf b;
    sb_init(&b, a);
    for (size_t i = 0; i < n; i++) {
        sb_printf(&b, "%s%s%s%s", i ? "\n" : "", s[i]->text, s[i]->written ? "" : " (read)",
                  s[i]->rules.n ? " !" : "");
        if (s[i]->when)
            sb_printf(&b, " (when %s)", s[i]->when);
    }
    return sb_str(&b);
}

static const char *rules_text(Arena *a, const StrList *rules)
{
    StrBuf b;
    sb_init(&b, a);
    for (size_t i = 0; i < rules->n; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", rules->v[i]);
    return sb_str(&b);
}

static void text_index(FILE *out, Arena *a, const DesignModel *m, size_t t, const MIndex *ix)
{
    fprintf(out, "\n  %s index ", ix->local ? "local" : "global");
    fputs_escaped(out, ix->name);
    fprintf(out, " (%s%s%s)\n", ix->pk ? ix->pk : "?", ix->sk ? ", " : "", ix->sk ? ix->sk : "");
    Grid g = {.a = a, .cols = ix->sk ? 3 : 2};
    grid_add(&g, "ENTITY");
    grid_add(&g, ix->pk ? ix->pk : "?");
    if (ix->sk)
        grid_add(&g, ix->sk);
    size_t rows = 0;
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (e->table != t || !model_entity_in_index(e, ix))
            continue;
        grid_add(&g, e->name);
        grid_add(&g, ix->pk ? text_cell(a, e, ix->pk) : "");
        if (ix->sk)
            grid_add(&g, text_cell(a, e, ix->sk));
        rows++;
    }
    if (rows)
        grid_print(out, &g, "  ");
    else
        fputs("  (no entity writes its keys)\n", out);
}

static void text_table(FILE *out, Arena *a, const DesignModel *m, size_t t)
{
    const MTable *mt = &m->tables.v[t];
    fputc('\n', out);
    fputs_escaped(out, mt->label);
    if (mt->where.path) {
        fputs("  ", out);
        fputs_escaped(out, mt->where.path);
        fprintf(out, ":%u", mt->where.line);
    }
    fputc('\n', out);
    if (mt->known) {
        fprintf(out, "  keys: %s%s%s", mt->pk ? mt->pk : "?", mt->sk ? ", " : "",
                mt->sk ? mt->sk : "");
        for (size_t i = 0; i < mt->indexes.n; i++) {
            const MIndex *ix = &mt->indexes.v[i];
            fprintf(out, "%s", i ? "; " : "; indexes: ");
            fputs_escaped(out, ix->name);
            fprintf(out, " (%s%s%s)", ix->pk ? ix->pk : "?", ix->sk ? ", " : "",
                    ix->sk ? ix->sk : "");
        }
        fputc('\n', out);
    }
    fputc('\n', out);
    if (!model_table_entities(m, t)) {
        fputs("  (no entity is written or read on it)\n", out);
        return;
    }
    Grid g = {.a = a, .cols = mt->attrs.n + 3};
    grid_add(&g, "ENTITY");
    for (size_t c = 0; c < mt->attrs.n; c++)
        grid_add(&g, mt->attrs.v[c]);
    grid_add(&g, "WRITES");
    grid_add(&g, "READS");
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (e->table != t)
            continue;
        grid_add(&g, e->name);
        for (size_t c = 0; c < mt->attrs.n; c++)
            grid_add(&g, text_cell(a, e, mt->attrs.v[c]));
        grid_add(&g, arena_printf(a, "%zu", e->writes.n));
        grid_add(&g, arena_printf(a, "%zu", e->reads.n));
    }
    grid_print(out, &g, "  ");
    for (size_t i = 0; i < mt->indexes.n; i++)
        text_index(out, a, m, t, &mt->indexes.v[i]);
}

static void text_patterns(FILE *out, Arena *a, const DesignModel *m)
{
    fputs("\nAccess patterns\n\n", out);
    if (!m->queries.n) {
        fputs("  (no query or scan)\n", out);
        return;
    }
    Grid g = {.a = a, .cols = 3};
    for (size_t i = 0; i < m->queries.n; i++) {
        const MQuery *q = &m->queries.v[i];
        StrBuf b;
        sb_init(&b, a);
        sb_printf(&b, "%s: %s -> %s", model_query_target(a, m, q), model_query_condition(a, q),
                  model_query_entities(a, q));
        grid_add(&g, sb_str(&b));
        grid_add(&g, arena_printf(a, "%s:%u", q->site.path, q->site.line));
        grid_add(&g, q->rules.n ? arena_printf(a, "! %s", rules_text(a, &q->rules)) : "");
    }
    grid_print(out, &g, "  ");
}

static void text_sites(FILE *out, Arena *a, const DesignModel *m, size_t max)
{
    fputs("\nCode sites\n\n", out);
    Grid g = {.a = a, .cols = 3};
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        const char *table = m->tables.n > 1 ? model_table_short(&m->tables.v[e->table]) : NULL;
        grid_add(&g, table ? arena_printf(a, "%s %s", table, e->name) : e->name);
        grid_add(&g, "written");
        grid_add(&g, e->writes.n ? arena_printf(a, "%zu: %s", e->writes.n,
                                                model_sites(a, &e->writes, max))
                                 : "0: never written in this code");
        grid_add(&g, "");
        grid_add(&g, "read");
        grid_add(&g, arena_printf(a, "%zu%s%s", e->reads.n, e->reads.n ? ": " : "",
                                  model_sites(a, &e->reads, max)));
        if (e->rules.n) {
            grid_add(&g, "");
            grid_add(&g, "findings");
            grid_add(&g, rules_text(a, &e->rules));
        }
    }
    grid_print(out, &g, "  ");
}

static size_t count_known(const DesignModel *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->tables.n; i++)
        n += m->tables.v[i].known;
    return n;
}

bool model_write_text(FILE *out, const DesignModel *m, const ModelWriteOptions *o)
{
    Arena *a = arena_new();
    size_t known = count_known(m);
    fprintf(out, "keylint model: %zu table%s, %zu entit%s, %zu access pattern%s (%zu file%s read)\n",
            known, known == 1 ? "" : "s", m->entities.n, m->entities.n == 1 ? "y" : "ies",
            m->queries.n, m->queries.n == 1 ? "" : "s", m->files, m->files == 1 ? "" : "s");
    for (size_t t = 0; t < m->tables.n; t++)
        text_table(out, a, m, t);
    text_patterns(out, a, m);
    if (m->entities.n)
        text_sites(out, a, m, max_sites(o));
    if (m->opaque.n)
        fprintf(out, "\nNot drawn: %zu write%s whose keys are all values passed in: %s\n",
                m->opaque.n, m->opaque.n == 1 ? "" : "s", model_sites(a, &m->opaque, max_sites(o)));
    fputs("\n! a key of this shape or this query has findings (see `keylint`); (read): a shape "
          "only read, never written\n",
          out);
    arena_free(a);
    return !ferror(out);
}

/* ---- Markdown ------------------------------------------------------------------------- */

/* Text in a Markdown table cell: `code` (backticks doubled around one
 * inside), pipes escaped. */
void model_md_code(FILE *out, const char *s)
{
    bool tick = strchr(s, '`') != NULL;
    fputs(tick ? "`` " : "`", out);
    for (const char *p = s; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else if ((unsigned char)*p < 0x20)
            fputc(' ', out);
        else
            fputc(*p, out);
    }
    fputs(tick ? " ``" : "`", out);
}

/* Plain text in Markdown: what would be markup is escaped. */
void model_md_text(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '&')
            fputs("&amp;", out);
        else if (strchr("\\`*_[]<>|~", *p))
            fprintf(out, "\\%c", *p);
        else
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, out);
    }
}

static void md_cell(FILE *out, const MEntity *e, const char *attr)
{
    const MShape *s[16];
    size_t n = model_cell_shapes(e, attr, s, 16);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs("<br>", out);
        model_md_code(out, s[i]->text);
        if (!s[i]->written)
            fputs(" (read)", out);
        if (s[i]->when) {
            fputs(" (when ", out);
            model_md_text(out, s[i]->when);
            fputc(')', out);
        }
        for (size_t r = 0; r < s[i]->rules.n; r++)
            fprintf(out, "%s%s", r ? ", " : " ⚠ ", s[i]->rules.v[r]);
    }
}

/* Where sites are shown from: with `roots` (the language server's workspace
 * folders), a path under one of them is shown relative to the deepest that
 * holds it; other paths, and every path without roots, as the model has
 * them. */
typedef struct SiteBase {
    const char *const *roots;
    size_t n;
} SiteBase;

static const char *site_path(const SiteBase *base, const char *path)
{
    const char *best = path;
    size_t best_len = 0;
    for (size_t i = 0; base && i < base->n; i++) {
        size_t n = strlen(base->roots[i]);
        while (n > 1 && base->roots[i][n - 1] == '/')
            n--;
        if (n > best_len && !strncmp(path, base->roots[i], n) && path[n] == '/' && path[n + 1]) {
            best = path + n + 1;
            best_len = n;
        }
    }
    return best;
}

static void md_sites_list(FILE *out, Arena *a, const MSites *v, size_t max, const SiteBase *base)
{
    for (size_t i = 0; i < v->n && i < max; i++) {
        if (i)
            fputs(", ", out);
        model_md_code(out, arena_printf(a, "%s:%u", site_path(base, v->v[i].path), v->v[i].line));
    }
    if (v->n > max)
        fprintf(out, " and %zu more", v->n - max);
}

static void md_sites(FILE *out, Arena *a, const MSites *v, size_t max, const SiteBase *base)
{
    fprintf(out, "%zu", v->n);
    if (v->n) {
        fputs(": ", out);
        md_sites_list(out, a, v, max, base);
    }
}

/* One entity chart: the entities of table `t` among `ents`. */
static void md_chart(FILE *out, Arena *a, const DesignModel *m, size_t t,
                     const MEntity *const *ents, size_t n, size_t max, const SiteBase *base)
{
    const MTable *mt = &m->tables.v[t];
    fputs("| Entity |", out);
    for (size_t c = 0; c < mt->attrs.n; c++) {
        fputc(' ', out);
        model_md_text(out, mt->attrs.v[c]);
        fputs(" |", out);
    }
    fputs(" Writes | Reads |\n|---|", out);
    for (size_t c = 0; c < mt->attrs.n; c++)
        fputs("---|", out);
    fputs("---|---|\n", out);
    for (size_t i = 0; i < n; i++) {
        const MEntity *e = ents[i];
        if (e->table != t)
            continue;
        fputs("| **", out);
        model_md_text(out, e->name);
        fputs("** |", out);
        for (size_t c = 0; c < mt->attrs.n; c++) {
            fputc(' ', out);
            md_cell(out, e, mt->attrs.v[c]);
            fputs(" |", out);
        }
        fputc(' ', out);
        md_sites(out, a, &e->writes, max, base);
        fputs(" | ", out);
        md_sites(out, a, &e->reads, max, base);
        fputs(" |\n", out);
    }
}

static void md_table_head(FILE *out, const MTable *mt)
{
    fputs("### ", out);
    model_md_text(out, mt->label);
    fputc('\n', out);
    if (mt->known) {
        fputs("\nKeys ", out);
        model_md_code(out, mt->pk ? mt->pk : "?");
        if (mt->sk) {
            fputs(", ", out);
            model_md_code(out, mt->sk);
        }
        for (size_t i = 0; i < mt->indexes.n; i++) {
            const MIndex *ix = &mt->indexes.v[i];
            fputs(i ? "; " : "; indexes ", out);
            model_md_code(out, ix->name);
            fputs(" (", out);
            model_md_code(out, ix->pk ? ix->pk : "?");
            if (ix->sk) {
                fputs(", ", out);
                model_md_code(out, ix->sk);
            }
            fputc(')', out);
        }
        if (mt->where.path) {
            fputs(", defined at ", out);
            model_md_code(out, mt->where.path);
            fprintf(out, " line %u", mt->where.line);
        }
        fputs(".\n", out);
    }
    fputc('\n', out);
}

static void md_index(FILE *out, const DesignModel *m, size_t t, const MIndex *ix)
{
    fputs("\nIndex ", out);
    model_md_code(out, ix->name);
    fputs(ix->local ? " (local):\n\n" : ":\n\n", out);
    fputs("| Entity | ", out);
    model_md_text(out, ix->pk ? ix->pk : "?");
    if (ix->sk) {
        fputs(" | ", out);
        model_md_text(out, ix->sk);
    }
    fputs(ix->sk ? " |\n|---|---|---|\n" : " |\n|---|---|\n", out);
    size_t rows = 0;
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (e->table != t || !model_entity_in_index(e, ix))
            continue;
        fputs("| **", out);
        model_md_text(out, e->name);
        fputs("** | ", out);
        if (ix->pk)
            md_cell(out, e, ix->pk);
        if (ix->sk) {
            fputs(" | ", out);
            md_cell(out, e, ix->sk);
        }
        fputs(" |\n", out);
        rows++;
    }
    if (!rows)
        fputs(ix->sk ? "| (no entity writes its keys) | | |\n" : "| (no entity writes its keys) | |\n",
              out);
}

static void md_patterns(FILE *out, Arena *a, const DesignModel *m)
{
    fputs("\n## Access patterns\n\n", out);
    if (!m->queries.n) {
        fputs("No query or scan.\n", out);
        return;
    }
    fputs("| On | Key condition | Returns | Where |\n|---|---|---|---|\n", out);
    for (size_t i = 0; i < m->queries.n; i++) {
        const MQuery *q = &m->queries.v[i];
        fputs("| ", out);
        model_md_code(out, model_query_target(a, m, q));
        fputs(" | ", out);
        model_md_code(out, model_query_condition(a, q));
        fputs(" | ", out);
        if (q->entities.n) {
            for (size_t e = 0; e < q->entities.n; e++) {
                fputs(e ? ", " : "", out);
                model_md_text(out, q->entities.v[e]);
            }
        } else {
            fputs("*no entity*", out);
        }
        for (size_t r = 0; r < q->rules.n; r++)
            fprintf(out, "%s%s", r ? ", " : " ⚠ ", q->rules.v[r]);
        fputs(" | ", out);
        model_md_code(out, arena_printf(a, "%s:%u", q->site.path, q->site.line));
        fputs(" |\n", out);
    }
}

bool model_write_markdown(FILE *out, const DesignModel *m, const ModelWriteOptions *o)
{
    Arena *a = arena_new();
    size_t known = count_known(m);
    fputs("## Key design", out);
    if (o && o->title) {
        fputs(": ", out);
        model_md_text(out, o->title);
    }
    fprintf(out, "\n\n%zu table%s, %zu entit%s, %zu access pattern%s, from %zu file%s.\n\n",
            known, known == 1 ? "" : "s", m->entities.n, m->entities.n == 1 ? "y" : "ies",
            m->queries.n, m->queries.n == 1 ? "" : "s", m->files, m->files == 1 ? "" : "s");
    const MEntity **all = arena_alloc(a, (m->entities.n + 1) * sizeof *all);
    for (size_t i = 0; i < m->entities.n; i++)
        all[i] = &m->entities.v[i];
    for (size_t t = 0; t < m->tables.n; t++) {
        const MTable *mt = &m->tables.v[t];
        md_table_head(out, mt);
        if (!model_table_entities(m, t))
            fputs("No entity is written or read on it.\n", out);
        else
            md_chart(out, a, m, t, all, m->entities.n, max_sites(o), NULL);
        for (size_t i = 0; i < mt->indexes.n; i++)
            md_index(out, m, t, &mt->indexes.v[i]);
        fputc('\n', out);
    }
    md_patterns(out, a, m);
    if (m->opaque.n) {
        fprintf(out, "\nNot drawn: %zu write%s whose keys are all values passed in: ", m->opaque.n,
                m->opaque.n == 1 ? "" : "s");
        md_sites_list(out, a, &m->opaque, max_sites(o), NULL);
        fputs(".\n", out);
    }
    if (m->entities.n || m->queries.n) {
        fputs("\n## Diagram\n\n```mermaid\n", out);
        model_write_mermaid(out, m, o);
        fputs("```\n", out);
    }
    fputs("\n⚠ a key of this shape, or this query, has findings (run `keylint`); "
          "(read): a shape only read, never written.\n",
          out);
    arena_free(a);
    return !ferror(out);
}

const char *model_entities_markdown(Arena *a, const DesignModel *m, const MEntity *const *ents,
                                    size_t n, const char *const *roots, size_t nroots)
{
    SiteBase base = {roots, nroots};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return "";
    for (size_t t = 0; t < m->tables.n; t++) {
        bool any = false;
        for (size_t i = 0; i < n && !any; i++)
            any = ents[i]->table == t;
        if (!any)
            continue;
        fputs("**", f);
        model_md_text(f, m->tables.v[t].label);
        fputs("**\n\n", f);
        md_chart(f, a, m, t, ents, n, 3, &base);
        fputc('\n', f);
    }
    fclose(f);
    const char *s = arena_strdup(a, buf ? buf : "");
    free(buf);
    return s;
}

/* ---- Mermaid ---------------------------------------------------------------------------- */

/* A label in double quotes: what Mermaid would read as markup written as
 * its entity codes. */
static void mm_text(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            fputs("#quot;", out);
        else if (c == '#' || c == '<' || c == '>' || c == '{' || c == '}' || c == '&' ||
                 c == '`' || c == '|' || c == ';')
            fprintf(out, "#%u;", c);
        else if (c < 0x20)
            fputc(' ', out);
        else
            fputc(c, out);
    }
}

bool model_write_mermaid(FILE *out, const DesignModel *m, const ModelWriteOptions *o)
{
    (void)o;
    Arena *a = arena_new();
    fputs("flowchart LR\n", out);
    for (size_t t = 0; t < m->tables.n; t++) {
        const MTable *mt = &m->tables.v[t];
        fprintf(out, "  subgraph t%zu[\"", t);
        mm_text(out, mt->label);
        if (mt->known) {
            fputs(" (", out);
            mm_text(out, mt->pk ? mt->pk : "?");
            if (mt->sk) {
                fputs(", ", out);
                mm_text(out, mt->sk);
            }
            fputc(')', out);
        }
        fputs("\"]\n", out);
        for (size_t i = 0; i < m->entities.n; i++) {
            const MEntity *e = &m->entities.v[i];
            if (e->table != t)
                continue;
            fprintf(out, "    e%zu[\"<b>", i);
            mm_text(out, e->name);
            fputs("</b>", out);
            for (size_t c = 0; c < mt->attrs.n; c++) {
                const MShape *s[4];
                size_t n = model_cell_shapes(e, mt->attrs.v[c], s, 4);
                for (size_t k = 0; k < n; k++) {
                    fputs("<br/>", out);
                    mm_text(out, mt->attrs.v[c]);
                    fputs(" = ", out);
                    mm_text(out, s[k]->text);
                    if (s[k]->rules.n)
                        fputs(" !", out);
                }
            }
            fputs("\"]\n", out);
        }
        if (!model_table_entities(m, t))
            fprintf(out, "    t%zuempty[\"no entity\"]\n", t);
        fputs("  end\n", out);
    }
    for (size_t qi = 0; qi < m->queries.n; qi++) {
        const MQuery *q = &m->queries.v[qi];
        fprintf(out, "  q%zu([\"", qi);
        mm_text(out, model_query_target(a, m, q));
        fputs(": ", out);
        mm_text(out, model_query_condition(a, q));
        fputs("\"])\n", out);
        size_t edges = 0;
        for (size_t k = 0; k < q->entities.n; k++) {
            for (size_t i = 0; i < m->entities.n; i++) {
                const MEntity *e = &m->entities.v[i];
                if (strcmp(e->name, q->entities.v[k]))
                    continue;
                if (m->tables.v[q->table].known && e->table != q->table &&
                    m->tables.v[e->table].known)
                    continue;
                fprintf(out, "  q%zu --> e%zu\n", qi, i);
                edges++;
            }
        }
        if (!edges)
            fprintf(out, "  q%zu -.-> t%zu\n", qi, q->table);
    }
    fputs("  classDef finding stroke:#d9480f,stroke-width:2px\n", out);
    fputs("  classDef unmatched stroke:#c92a2a,stroke-width:2px,stroke-dasharray:4 3\n", out);
    for (size_t i = 0; i < m->entities.n; i++)
        if (m->entities.v[i].rules.n)
            fprintf(out, "  class e%zu finding\n", i);
    for (size_t qi = 0; qi < m->queries.n; qi++)
        if (!m->queries.v[qi].entities.n || m->queries.v[qi].unmatched)
            fprintf(out, "  class q%zu unmatched\n", qi);
        else if (m->queries.v[qi].rules.n)
            fprintf(out, "  class q%zu finding\n", qi);
    arena_free(a);
    return !ferror(out);
}
