/* Access facts, the key conditions of a data operation: see access.h. */
#include "access.h"

#include <string.h>

#include "ddbexpr.h"
#include "keyfacts.h"

/* ---- key conditions ---------------------------------------------------------- */

/* Add a condition on an attribute not seen yet. */
static void add_cond(Arena *a, OpConds *v, NameMap *seen, OpCond c)
{
    size_t at;
    if (namemap_get(seen, c.attr, &at))
        return;
    namemap_put(a, seen, c.attr, v->n);
    VEC_PUSH(a, v, c);
}

Span access_clause_at(const DataOp *op, const KeyCond *c)
{
    if (!op->key_condition_exact)
        return op->key_condition_span;
    /* the literal's text is the expression: count lines up to the clause */
    Span s = op->key_condition_span;
    uint32_t row = s.start_row, col = s.start_col + 1;
    for (uint32_t j = 0; j < c->offset + c->len && op->key_condition[j]; j++) {
        if (j == c->offset) {
            s.start_row = row;
            s.start_col = col;
        }
        if (op->key_condition[j] == '\n') {
            row++;
            col = 0;
        } else {
            col++;
        }
    }
    s.start_byte = op->key_condition_span.start_byte + 1 + c->offset;
    s.end_byte = s.start_byte + c->len;
    s.end_row = row;
    s.end_col = col;
    return s;
}

/* Where the clause on `attr` is written (OpCond.clause). */
static Span clause_span(const DataOp *op, const KeyConds *kc, const OpParams *ex,
                        const char *attr, Span fallback)
{
    if (!op->key_condition)
        return fallback;
    for (size_t i = 0; i < kc->items.n; i++) {
        const char *name = op_param_name(ex, kc->items.v[i].attr);
        if (name && !strcmp(name, attr))
            return access_clause_at(op, &kc->items.v[i]);
    }
    return op->key_condition_span;
}

size_t access_conditions(Arena *a, const FileIR *f, const KfOpKeys *keys, size_t opi,
                         OpCond **out, bool *complete)
{
    OpConds v = {0};
    NameMap seen = {0};
    *complete = true;
    KfOpKeys own;
    if (!keys) {
        kf_op_keys(a, f, &own);
        keys = &own;
    }
    const DataOp *op = &f->ops.v[opi];
    const OpParams *ex = op_params(op);
    KeyConds kc = {0};
    bool parsed = op->key_condition && ddb_parse_key_condition(a, op->key_condition, &kc);
    for (size_t i = keys->first[opi]; i != KF_NO_KEY; i = keys->next[i]) {
        const KeyExpr *k = &f->keys.v[i];
        if (k->site != SITE_CONDITION || !k->attr)
            continue;
        if (attr_is_deferred(k->attr) || k->attr[0] == '#') {
            *complete = false;
            continue;
        }
        add_cond(a, &v, &seen,
                 (OpCond){.attr = k->attr, .op = k->cond, .key = k, .span = k->span,
                          .clause = clause_span(op, &kc, ex, k->attr, k->span)});
    }
    if (op->key_condition) {
        if (!parsed)
            *complete = false;
        for (size_t i = 0; i < kc.items.n; i++) {
            const char *attr = op_param_name(ex, kc.items.v[i].attr);
            if (!attr || attr[0] == '#') {
                *complete = false;
                continue;
            }
            add_cond(a, &v, &seen,
                     (OpCond){.attr = attr, .op = kc.items.v[i].op, .span = op->span,
                              .clause = clause_span(op, &kc, ex, attr, op->span)});
        }
    }
    if (ex && ex->library) {
        for (size_t i = 0; i < ex->lib_attrs.n; i++) {
            const char *attr = ex->lib_attrs.v[i];
            if (!strcmp(attr, "?")) {
                *complete = false;
                continue;
            }
            add_cond(a, &v, &seen, (OpCond){.attr = attr, .op = COND_NONE, .span = op->span,
                                              .clause = op->span});
        }
    }
    *out = v.v;
    return v.n;
}
