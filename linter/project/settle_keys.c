/* Settling the keys of a file against the project's tables: see
 * access_settle_keys in access.h. An item's attribute is a key when the
 * table its operation writes has a key of that name; a key map's keeps
 * the role its table gives it. When keylint cannot name the table
 * (`TableName: deps.appsTable`), an item that holds the whole primary key
 * of a table of the project (its partition and sort key attributes by
 * name) is read as an item of that table: a guess, marked on each key
 * (KeyExpr.role_guessed) so that the rules that need a real key report a
 * warning, not an error. */
#include "access.h"

#include <string.h>

#include "project.h"

/* The role attribute `name` has in table `t` (its key, then an index's
 * key; with `indexes` false the table's own key only), -1 when none. */
static int table_role(const TableDef *t, const char *name, bool indexes)
{
    if (t->pk.name && !strcmp(t->pk.name, name))
        return ROLE_PK;
    if (t->sk.name && !strcmp(t->sk.name, name))
        return ROLE_SK;
    for (size_t i = 0; indexes && i < t->indexes.n; i++) {
        const TableIndex *ix = &t->indexes.v[i];
        if (ix->pk.name && !strcmp(ix->pk.name, name))
            return ROLE_INDEX_PK;
        if (ix->sk.name && !strcmp(ix->sk.name, name))
            return ROLE_INDEX_SK;
    }
    return -1;
}

/* Whether operation `op` of `f` writes or names attribute `name`. */
static bool op_has_attr(const FileIR *f, int op, const char *name)
{
    for (size_t i = 0; i < f->keys.n; i++) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->op == op && k->attr && !strcmp(k->attr, name))
            return true;
    }
    return false;
}

/* Whether operation `op` of `f` names the partition key of an index of
 * table `t`. */
static bool op_has_index_pk(const FileIR *f, int op, const TableDef *t)
{
    for (size_t i = 0; i < t->indexes.n; i++)
        if (t->indexes.v[i].pk.name && op_has_attr(f, op, t->indexes.v[i].pk.name))
            return true;
    return false;
}

/* The tables of `m` that operation `op` of `f` holds the whole primary
 * key of, for an operation whose table keylint cannot name: its item
 * names the table's partition key and sort key, or, for a table keyed by
 * a partition key alone, that key and an index's partition key. A lone
 * partition key is no guess: `id` alone names too many items that no
 * table of the project holds. */
typedef struct OpGuess {
    bool done;
    size_t n;
    const TableDef **v;
} OpGuess;

static const OpGuess *op_guess(Arena *a, const TableModel *m, const FileIR *f, int op,
                               OpGuess *guesses)
{
    OpGuess *g = &guesses[op];
    if (g->done)
        return g;
    g->done = true;
    for (size_t i = 0; m && i < m->set.tables.n; i++) {
        const TableDef *t = &m->set.tables.v[i];
        if (t->same_as || !t->pk.name || !op_has_attr(f, op, t->pk.name))
            continue;
        if (t->sk.name ? !op_has_attr(f, op, t->sk.name) : !op_has_index_pk(f, op, t))
            continue;
        if (!g->v)
            g->v = arena_alloc(a, m->set.tables.n * sizeof *g->v);
        g->v[g->n++] = t;
    }
    return g;
}

/* The role of `name` in every table whose key it is, among the tables `g`
 * guesses, or with `g` NULL every table of `m`, when they all agree (the
 * table's own key first), else -1. */
static int agreed_role(const TableModel *m, const OpGuess *g, const char *name)
{
    size_t n = g ? g->n : m ? m->set.tables.n : 0;
    int role = -1;
    for (size_t i = 0; i < n; i++) {
        const TableDef *t = g ? g->v[i] : &m->set.tables.v[i];
        if (t->same_as)
            continue;
        int r = table_role(t, name, true);
        if (r < 0)
            continue;
        if (role >= 0 && r != role)
            return -1;
        role = r;
    }
    return role;
}

/* The name af->queried_keys keeps attribute `attr` of table `table` under. */
static const char *queried_name(Arena *a, const char *table, const char *attr)
{
    return arena_printf(a, "%s\x1f%s", table, attr);
}

void access_queried_keys(Arena *a, FileIR *const *files, size_t n, NameMap *out)
{
    for (size_t fi = 0; fi < n; fi++) {
        const FileIR *f = files[fi];
        for (size_t i = 0; f && i < f->keys.n; i++) {
            const KeyExpr *k = &f->keys.v[i];
            if (k->site != SITE_CONDITION || !k->attr || k->attr[0] == '#' || k->op < 0 ||
                (size_t)k->op >= f->ops.n || !f->ops.v[k->op].table || k->role == ROLE_KEY)
                continue;
            const char *name = queried_name(a, f->ops.v[k->op].table, k->attr);
            size_t was;
            if (!namemap_get(out, name, &was))
                namemap_put(a, out, name, (size_t)k->role + 1);
            else if (was != (size_t)k->role + 1)
                namemap_put(a, out, name, 0); /* the queries disagree */
        }
    }
}

/* The role a key condition of the project gives attribute `attr` on the
 * table operation `op` of `f` names (by its TableName as written), when
 * keylint cannot name that table: `pkey = :pk` on TABLE_NAME makes `pkey`
 * of an item put to TABLE_NAME a partition key. -1 when none does, or
 * they disagree. */
static int queried_role(Arena *a, const NameMap *queried, const FileIR *f, int op,
                        const char *attr)
{
    const char *table = f->ops.v[op].table;
    size_t role;
    if (!queried || !table || !queried->n ||
        !namemap_get(queried, queried_name(a, table, attr), &role) || !role)
        return -1;
    return (int)role - 1;
}

bool access_settle_keys(Arena *a, const AccessFacts *af, const TableModel *m, const Config *cfg,
                        const NameMap *queried, FileIR *f)
{
    bool any = false;
    for (size_t i = 0; i < f->keys.n && !any; i++)
        any = f->keys.v[i].named_by != NAMED_SPELLING;
    if (!any)
        return false;
    OpGuess *guesses = NULL;
    if (f->ops.n) {
        guesses = arena_alloc(a, f->ops.n * sizeof *guesses);
        memset(guesses, 0, f->ops.n * sizeof *guesses);
    }
    size_t w = 0;
    for (size_t i = 0; i < f->keys.n; i++) {
        KeyExpr k = f->keys.v[i];
        if (k.named_by != NAMED_SPELLING) {
            const TableDef *t = NULL;
            bool has_op = k.op >= 0 && (size_t)k.op < f->ops.n;
            if (has_op) {
                OpTarget tg;
                access_target(a, af, m, cfg, f, (size_t)k.op, &tg);
                t = tg.table;
            }
            int role = -1;
            if (t && k.attr)
                role = table_role(t, k.attr, k.named_by == NAMED_TABLE);
            else if (!t && k.attr && k.named_by == NAMED_KEY_MAP)
                role = agreed_role(m, NULL, k.attr);
            else if (!t && k.attr && has_op) {
                role = agreed_role(m, op_guess(a, m, f, k.op, guesses), k.attr);
                k.role_guessed = role >= 0;
                if (role < 0 && k.named_by == NAMED_TABLE)
                    role = queried_role(a, queried, f, k.op, k.attr);
            }
            /* a key map holds keys only: its role may stay unknown; an
             * item's attribute is a key only where its table says so */
            if (role < 0 && k.named_by == NAMED_TABLE)
                continue;
            k.role = role < 0 ? ROLE_KEY : (KeyRole)role;
            k.named_by = NAMED_SPELLING;
        }
        f->keys.v[w++] = k;
    }
    f->keys.n = w;
    return true;
}
