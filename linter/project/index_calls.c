/* Indexes added to a table outside its definition. See index_calls.h. */
#include "index_calls.h"

#include <string.h>

#include "project.h"

const char *name_tail(const char *s)
{
    const char *d = strrchr(s, '.');
    return d ? d + 1 : s;
}

/* Append `ix` to `t`'s indexes: copy-on-write, the file's table stays as
 * the file saw it. */
static void add_index(Arena *a, TableDef *t, TableIndex ix)
{
    if (ix.kind == INDEX_LOCAL)
        ix.pk = t->pk;
    if (ix.name && table_find_index(t, ix.name))
        return; /* a script that adds an index the definition already has */
    TableIndex *v = arena_alloc(a, (t->indexes.n + 1) * sizeof *v);
    if (t->indexes.n)
        memcpy(v, t->indexes.v, t->indexes.n * sizeof *v);
    v[t->indexes.n] = ix;
    t->indexes.v = v;
    t->indexes.n++;
    t->indexes.cap = t->indexes.n;
}

/* `table.addGlobalSecondaryIndex(...)` on a receiver this file does not
 * define: the CDK table of that variable name, or the project's only CDK
 * table. Not found: every CDK table may have gained it. */
static void attach_cdk_call(Arena *a, TableModel *m, size_t code_from, const IndexCall *ic)
{
    TableDef *hit = NULL, *only = NULL;
    size_t cdk = 0;
    for (size_t t = code_from; t < m->set.tables.n; t++) {
        TableDef *tb = &m->set.tables.v[t];
        if (tb->source != TSRC_CDK)
            continue;
        cdk++;
        only = tb;
        if (tb->var && !strcmp(name_tail(tb->var), name_tail(ic->receiver)))
            hit = tb;
    }
    if (!hit && cdk == 1)
        hit = only;
    if (!hit) {
        for (size_t t = code_from; t < m->set.tables.n; t++)
            if (m->set.tables.v[t].source == TSRC_CDK)
                m->set.tables.v[t].indexes_open = true;
    } else if (!ic->readable) {
        hit->indexes_open = true;
    } else {
        add_index(a, hit, ic->index);
    }
}

/* UpdateTable on a table named `ic->table_name`: the one table of that
 * name, wherever it is defined. Several match (names with deploy-time
 * parts): each may have gained the index. None match: a table keylint
 * cannot name may be the one. */
static void attach_update(Arena *a, TableModel *m, const IndexCall *ic)
{
    TableDef *hit = NULL;
    size_t hits = 0;
    for (size_t t = 0; t < m->set.tables.n; t++)
        if (table_names_match(m->set.tables.v[t].name, ic->table_name)) {
            hit = &m->set.tables.v[t];
            hits++;
        }
    if (hits == 1 && ic->readable) {
        add_index(a, hit, ic->index);
        return;
    }
    for (size_t t = 0; t < m->set.tables.n; t++) {
        TableDef *tb = &m->set.tables.v[t];
        if (hits ? table_names_match(tb->name, ic->table_name) : !tb->name)
            tb->indexes_open = true;
    }
}

void index_calls_attach(Arena *a, TableModel *m, size_t code_from, FileIR *const *files,
                        const Config *const *cfgs, size_t n, const Config *cfg)
{
    for (size_t fi = 0; fi < n; fi++) {
        if (cfgs[fi] != cfg || !files[fi] || !files[fi]->tables)
            continue;
        const FileTables *ft = files[fi]->tables;
        for (size_t i = 0; i < ft->index_calls.n; i++) {
            const IndexCall *ic = &ft->index_calls.v[i];
            if (ic->table_name)
                attach_update(a, m, ic);
            else
                attach_cdk_call(a, m, code_from, ic);
        }
    }
}
