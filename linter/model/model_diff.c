/* Design changes between two models (a base revision and the work tree):
 * entities added and removed; per entity and key attribute, shapes added,
 * removed (an index key no longer written) or changed (one shape replaced
 * by one other: a sort key that gained a component); indexes added and
 * removed; queries added (marked when no write matches them) and
 * removed. Shapes are compared with their values as "{}" (what a value is
 * called does not change the design). */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model_int.h"

static const MTable *table_named(const DesignModel *m, const char *label)
{
    for (size_t i = 0; i < m->tables.n; i++)
        if (!strcmp(m->tables.v[i].label, label))
            return &m->tables.v[i];
    return NULL;
}

static const MEntity *entity_named(const DesignModel *m, const char *table, const char *name)
{
    for (size_t i = 0; i < m->entities.n; i++) {
        const MEntity *e = &m->entities.v[i];
        if (!strcmp(e->name, name) && !strcmp(m->tables.v[e->table].label, table))
            return e;
    }
    return NULL;
}

/* The shapes the chart shows for `attr` (model_cell_shapes). */
static size_t shapes_of(const MEntity *e, const char *attr, const MShape **out, size_t max)
{
    return e ? model_cell_shapes(e, attr, out, max) : 0;
}

static bool has_canon(const MShape *const *v, size_t n, const char *canon)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i]->canon, canon))
            return true;
    return false;
}

/* The attributes of an entity, each once, in its order. */
static void attrs_of(Arena *a, const MEntity *e, StrList *out)
{
    for (size_t i = 0; e && i < e->shapes.n; i++)
        if (!strlist_has(out, e->shapes.v[i].attr))
            strlist_push(a, out, e->shapes.v[i].attr);
}

static const char *entity_summary(Arena *a, const DesignModel *m, const MEntity *e)
{
    const MTable *t = &m->tables.v[e->table];
    StrBuf b;
    sb_init(&b, a);
    for (size_t c = 0; c < t->attrs.n; c++) {
        const MShape *s[4];
        size_t n = model_cell_shapes(e, t->attrs.v[c], s, 4);
        for (size_t k = 0; k < n; k++)
            sb_printf(&b, "%s%s = %s", b.len ? ", " : "", t->attrs.v[c], s[k]->text);
    }
    return sb_str(&b);
}

static MSite entity_site(const MEntity *e)
{
    if (e->writes.n)
        return e->writes.v[0];
    if (e->reads.n)
        return e->reads.v[0];
    return (MSite){NULL, 0};
}

static void push(ModelDiff *d, MChange c)
{
    Arena *a = d->arena;
    c.table = arena_strdup(a, c.table);
    c.entity = c.entity ? arena_strdup(a, c.entity) : NULL;
    c.attr = c.attr ? arena_strdup(a, c.attr) : NULL;
    c.before = c.before ? arena_strdup(a, c.before) : NULL;
    c.after = c.after ? arena_strdup(a, c.after) : NULL;
    c.site.path = c.site.path ? arena_strdup(a, c.site.path) : NULL;
    VEC_PUSH(a, &d->changes, c);
}

static void diff_entity(ModelDiff *d, Arena *s, const char *table, const MEntity *be,
                        const MEntity *he)
{
    StrList attrs = {0};
    attrs_of(s, he, &attrs);
    attrs_of(s, be, &attrs);
    for (size_t i = 0; i < attrs.n; i++) {
        const char *attr = attrs.v[i];
        const MShape *bs[32], *hs[32];
        size_t nb = shapes_of(be, attr, bs, 32), nh = shapes_of(he, attr, hs, 32);
        const MShape *gone[32], *new_[32];
        size_t ng = 0, nn = 0;
        for (size_t k = 0; k < nb; k++)
            if (!has_canon(hs, nh, bs[k]->canon))
                gone[ng++] = bs[k];
        for (size_t k = 0; k < nh; k++)
            if (!has_canon(bs, nb, hs[k]->canon))
                new_[nn++] = hs[k];
        MChange c = {.table = table, .entity = he->name, .attr = attr};
        if (ng == 1 && nn == 1) {
            c.kind = MCHANGE_SHAPE_CHANGED;
            c.before = gone[0]->text;
            c.after = new_[0]->text;
            c.site = new_[0]->first;
            push(d, c);
            continue;
        }
        for (size_t k = 0; k < ng; k++) {
            c.kind = MCHANGE_SHAPE_REMOVED;
            c.before = gone[k]->text;
            c.after = NULL;
            c.site = gone[k]->first;
            push(d, c);
        }
        for (size_t k = 0; k < nn; k++) {
            c.kind = MCHANGE_SHAPE_ADDED;
            c.before = NULL;
            c.after = new_[k]->text;
            c.site = new_[k]->first;
            push(d, c);
        }
    }
}

static const char *query_key(Arena *a, const DesignModel *m, const MQuery *q)
{
    StrBuf b;
    sb_init(&b, a);
    sb_printf(&b, "%s|%s|%d", m->tables.v[q->table].label, q->index ? q->index : "", (int)q->kind);
    for (size_t i = 0; i < q->conds.n; i++)
        sb_printf(&b, "|%s %d %s", q->conds.v[i].attr, (int)q->conds.v[i].op,
                  q->conds.v[i].canon ? q->conds.v[i].canon : "");
    return sb_str(&b);
}

static const char *query_text(Arena *a, const DesignModel *m, const MQuery *q)
{
    return arena_printf(a, "%s: %s -> %s", model_query_target(a, m, q), model_query_condition(a, q),
                        model_query_entities(a, q));
}

/* Queries of `from` whose key is not among `to`'s. */
static void diff_queries(ModelDiff *d, Arena *s, const DesignModel *from, const DesignModel *to,
                         MChangeKind kind)
{
    NameMap keys = {0};
    for (size_t i = 0; i < to->queries.n; i++)
        namemap_put(s, &keys, query_key(s, to, &to->queries.v[i]), i);
    NameMap seen = {0};
    for (size_t i = 0; i < from->queries.n; i++) {
        const MQuery *q = &from->queries.v[i];
        const char *k = query_key(s, from, q);
        size_t x;
        if (namemap_get(&keys, k, &x) || namemap_get(&seen, k, &x))
            continue;
        namemap_put(s, &seen, k, i);
        MChange c = {.kind = kind, .table = from->tables.v[q->table].label, .site = q->site};
        if (kind == MCHANGE_QUERY_ADDED) {
            c.after = query_text(s, from, q);
            c.unmatched = q->unmatched || !q->entities.n;
        } else {
            c.before = query_text(s, from, q);
        }
        push(d, c);
    }
}

static void diff_indexes(ModelDiff *d, const DesignModel *from, const DesignModel *to,
                         MChangeKind kind)
{
    for (size_t t = 0; t < from->tables.n; t++) {
        const MTable *ft = &from->tables.v[t];
        const MTable *tt = table_named(to, ft->label);
        if (!ft->known || !tt || !tt->known)
            continue;
        for (size_t i = 0; i < ft->indexes.n; i++) {
            const MIndex *ix = &ft->indexes.v[i];
            bool found = false;
            for (size_t j = 0; j < tt->indexes.n && !found; j++)
                found = !strcmp(tt->indexes.v[j].name, ix->name);
            if (found)
                continue;
            MChange c = {.kind = kind, .table = ft->label, .site = ft->where};
            const char *text = ix->name;
            if (kind == MCHANGE_INDEX_ADDED)
                c.after = text;
            else
                c.before = text;
            push(d, c);
        }
    }
}

static int change_cmp(const void *x, const void *y)
{
    const MChange *a = x, *b = y;
    int c = strcmp(a->table, b->table);
    if (c)
        return c;
    bool qa = a->kind >= MCHANGE_INDEX_ADDED, qb = b->kind >= MCHANGE_INDEX_ADDED;
    if (qa != qb)
        return qa ? 1 : -1;
    c = strcmp(a->entity ? a->entity : "", b->entity ? b->entity : "");
    if (c)
        return c;
    c = strcmp(a->attr ? a->attr : "", b->attr ? b->attr : "");
    if (c)
        return c;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    c = strcmp(a->after ? a->after : a->before ? a->before : "",
               b->after ? b->after : b->before ? b->before : "");
    return c;
}

ModelDiff *model_diff(const DesignModel *base, const DesignModel *head)
{
    ModelDiff *d = calloc(1, sizeof *d);
    if (!d)
        abort();
    d->arena = arena_new();
    Arena *s = arena_new();
    for (size_t i = 0; i < head->entities.n; i++) {
        const MEntity *he = &head->entities.v[i];
        const char *table = head->tables.v[he->table].label;
        const MEntity *be = entity_named(base, table, he->name);
        if (be) {
            diff_entity(d, s, table, be, he);
            continue;
        }
        push(d, (MChange){.kind = MCHANGE_ENTITY_ADDED, .table = table, .entity = he->name,
                          .after = entity_summary(s, head, he), .site = entity_site(he)});
    }
    for (size_t i = 0; i < base->entities.n; i++) {
        const MEntity *be = &base->entities.v[i];
        const char *table = base->tables.v[be->table].label;
        if (!entity_named(head, table, be->name))
            push(d, (MChange){.kind = MCHANGE_ENTITY_REMOVED, .table = table, .entity = be->name,
                              .before = entity_summary(s, base, be), .site = entity_site(be)});
    }
    diff_indexes(d, head, base, MCHANGE_INDEX_ADDED);
    diff_indexes(d, base, head, MCHANGE_INDEX_REMOVED);
    diff_queries(d, s, head, base, MCHANGE_QUERY_ADDED);
    diff_queries(d, s, base, head, MCHANGE_QUERY_REMOVED);
    if (d->changes.n > 1)
        qsort(d->changes.v, d->changes.n, sizeof *d->changes.v, change_cmp);
    arena_free(s);
    return d;
}

void model_diff_free(ModelDiff *d)
{
    if (!d)
        return;
    arena_free(d->arena);
    free(d);
}

/* ---- writing ---------------------------------------------------------------------- */

/* What a change is, in words ("sk changed", "entity added"). */
static const char *change_what(Arena *a, const MChange *c)
{
    switch (c->kind) {
    case MCHANGE_ENTITY_ADDED:
        return "entity added";
    case MCHANGE_ENTITY_REMOVED:
        return "entity removed";
    case MCHANGE_SHAPE_ADDED:
        return arena_printf(a, "%s added", c->attr);
    case MCHANGE_SHAPE_REMOVED:
        return arena_printf(a, "%s no longer written", c->attr);
    case MCHANGE_SHAPE_CHANGED:
        return arena_printf(a, "%s changed", c->attr);
    case MCHANGE_INDEX_ADDED:
        return "index added";
    case MCHANGE_INDEX_REMOVED:
        return "index removed";
    case MCHANGE_QUERY_ADDED:
        return c->unmatched ? "query added, no write matches it" : "query added";
    case MCHANGE_QUERY_REMOVED:
        return "query removed";
    }
    return "";
}

static char change_mark(const MChange *c)
{
    switch (c->kind) {
    case MCHANGE_ENTITY_ADDED:
    case MCHANGE_SHAPE_ADDED:
    case MCHANGE_INDEX_ADDED:
    case MCHANGE_QUERY_ADDED:
        return '+';
    case MCHANGE_ENTITY_REMOVED:
    case MCHANGE_SHAPE_REMOVED:
    case MCHANGE_INDEX_REMOVED:
    case MCHANGE_QUERY_REMOVED:
        return '-';
    case MCHANGE_SHAPE_CHANGED:
        break;
    }
    return '~';
}

static bool write_text(FILE *out, const ModelDiff *d, const char *base_name)
{
    Arena *a = arena_new();
    if (!d->changes.n) {
        fputs("No key design change since ", out);
        fputs_escaped(out, base_name);
        fputs(".\n", out);
        arena_free(a);
        return !ferror(out);
    }
    fprintf(out, "Key design changes since ");
    fputs_escaped(out, base_name);
    fprintf(out, ": %zu\n", d->changes.n);
    const char *table = NULL;
    for (size_t i = 0; i < d->changes.n; i++) {
        const MChange *c = &d->changes.v[i];
        if (!table || strcmp(table, c->table)) {
            table = c->table;
            fputs("\n", out);
            fputs_escaped(out, table);
            fputc('\n', out);
        }
        fprintf(out, "  %c ", change_mark(c));
        if (c->entity) {
            fputs_escaped(out, c->entity);
            fputs(": ", out);
        }
        fputs(change_what(a, c), out);
        if (c->before && c->after) {
            fputs(": ", out);
            fputs_escaped(out, c->before);
            fputs(" -> ", out);
            fputs_escaped(out, c->after);
        } else if (c->before || c->after) {
            fputs(": ", out);
            fputs_escaped(out, c->before ? c->before : c->after);
        }
        if (c->site.path) {
            fputs("  (", out);
            fputs_escaped(out, c->site.path);
            fprintf(out, ":%u)", c->site.line);
        }
        fputc('\n', out);
    }
    arena_free(a);
    return !ferror(out);
}

static bool write_markdown(FILE *out, const ModelDiff *d, const char *base_name)
{
    Arena *a = arena_new();
    fputs("### Key design changes since ", out);
    model_md_code(out, base_name);
    fputs("\n\n", out);
    if (!d->changes.n) {
        fputs("No key shape, index or query changed.\n", out);
        arena_free(a);
        return !ferror(out);
    }
    fputs("| Table | Entity | Change | Before | After | Where |\n|---|---|---|---|---|---|\n", out);
    for (size_t i = 0; i < d->changes.n; i++) {
        const MChange *c = &d->changes.v[i];
        fputs("| ", out);
        model_md_text(out, c->table);
        fputs(" | ", out);
        if (c->entity) {
            fputs("**", out);
            model_md_text(out, c->entity);
            fputs("**", out);
        }
        fputs(" | ", out);
        if (c->kind == MCHANGE_QUERY_ADDED && c->unmatched)
            fputs("⚠ ", out);
        model_md_text(out, change_what(a, c));
        fputs(" | ", out);
        if (c->before)
            model_md_code(out, c->before);
        fputs(" | ", out);
        if (c->after)
            model_md_code(out, c->after);
        fputs(" | ", out);
        if (c->site.path)
            model_md_code(out, arena_printf(a, "%s:%u", c->site.path, c->site.line));
        fputs(" |\n", out);
    }
    arena_free(a);
    return !ferror(out);
}

bool model_diff_write(FILE *out, const ModelDiff *d, const char *base_name, ModelFormat fmt)
{
    return fmt == MODEL_TEXT ? write_text(out, d, base_name) : write_markdown(out, d, base_name);
}
