/* Expression strings: a KeyConditionExpression or UpdateExpression as the
 * code builds it (literals, templates, `+`, a ternary's first branch,
 * `kce += ...` appends, constants of other files as placeholders), names
 * mapped through ExpressionAttributeNames, and the keys a key condition
 * reads from ExpressionAttributeValues; key conditions the libraries
 * write as objects (`{ pk: id, sk: { beginsWith: 'ORDER#' } }`). Part of
 * extraction (extract.c). */
#include <stdlib.h>
#include <string.h>

#include "ddbexpr.h"
#include "extract.h"
#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))

/* Map `#name` through ExpressionAttributeNames. */
const char *ex_map_name(Ex *x, SynNode names, const char *n)
{
    char *end;
    if (!strncmp(n, EXPR_CONST, strlen(EXPR_CONST))) {
        unsigned long i = strtoul(n + strlen(EXPR_CONST), &end, 10);
        if (!*end && i < x->expr_consts.n)
            return arena_printf(x->a, "[%s]", x->expr_consts.v[i]);
    }
    if (n[0] != '#' || syn_null(names))
        return n;
    SynNode v = ex_find_prop(x, names, n);
    const char *s;
    if (!syn_null(v) && ex_string_value(x, v, &s))
        return s;
    v = unwrap(v);
    if (is(v, "identifier") || is(v, "member_expression"))
        return arena_printf(x->a, "[%s]", ex_ntext(x, v)); /* settled by resolution */
    return n;
}

/* A string expression as text: literals, and templates/concatenations
 * whose substitutions are read as `${...}` placeholders. */
/* Build a string expression's text: literals, templates and `+` of
 * literals and constants of this file (local or module level); a ternary
 * takes its first branch (`sk ? ' AND begins_with(sk, :sk)' : ''`). */
static bool build_string(Ex *x, SynNode n, char **buf, size_t *len, size_t *cap, int depth);

enum { MAX_ARMS = 32, MAX_TAKEN = 16 };

/* The `if` statements and switch bodies around `n` (inside its function),
 * innermost first, each with the arm (consequence, else clause, case)
 * that holds `n`; their count. */
static int arms_of(Ex *x, SynNode n, SynNode *owner, SynNode *arm)
{
    int k = 0;
    SynNode c = n;
    for (int i = 0; i < 256 && k < MAX_ARMS; i++) {
        SynNode p = ex_parent(x, c);
        if (syn_null(p) || syn_is_function(p))
            break;
        if (is(p, "if_statement") || is(p, "switch_body")) {
            owner[k] = p;
            arm[k++] = c;
        }
        c = p;
    }
    return k;
}

/* Whether `a` and `b` lie in two arms of one `if`/`else` or in two cases
 * of one switch (the innermost that holds both decides): at most one of
 * them runs. */
static bool exclusive(Ex *x, SynNode a, SynNode b)
{
    SynNode ao[MAX_ARMS], aa[MAX_ARMS], bo[MAX_ARMS], ba[MAX_ARMS];
    int na = arms_of(x, a, ao, aa), nb = arms_of(x, b, bo, ba);
    for (int j = 0; j < nb; j++)
        for (int i = 0; i < na; i++)
            if (syn_eq(ao[i], bo[j]))
                return !syn_eq(aa[i], ba[j]);
    return false;
}

/* Whether `m` runs only when one of the `n` taken before it does not. */
static bool excluded(Ex *x, SynNode m, const SynNode *taken, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (exclusive(x, taken[i], m))
            return true;
    return false;
}

/* The one of `taken` that `m` excludes (they lie in two arms of one
 * if/else or two cases of one switch), or -1. */
static int excluding(Ex *x, SynNode m, const SynNode *taken, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (exclusive(x, taken[i], m))
            return (int)i;
    return -1;
}

/* `let kce = 'pk = :pk'; if (sk) kce += ' AND begins_with(sk, :sk)';`:
 * each `name += text` after the declaration `decl` and before `use`, in
 * the declaration's block (not in a function nested in it), appended in
 * order; like a ternary's first branch, a conditional one is taken, and
 * of `+=`s in the arms of one if/else (or the cases of one switch) the
 * first, or the last when the second arm of the parameters is read
 * (Ex.second_arm: `if (range) kce += ' AND sk BETWEEN :lo AND :hi'; else
 * kce += ' AND begins_with(sk, :p)'` is two queries). False when one of
 * them cannot be read. */
static bool appended_strings(Ex *x, SynNode decl, const char *name, SynNode use, char **buf,
                             size_t *len, size_t *cap, int depth)
{
    SynNode taken[MAX_TAKEN];
    size_t ntaken = 0;
    BlockWalk w = ex_block_walk(x, decl, use, &x->string_steps_left);
    for (SynNode m; !syn_null(m = ex_block_walk_next(x, &w));) {
        if (!is(m, "augmented_assignment_expression") ||
            !ex_text_eq(x, field(m, "operator"), "+=") || !is(field(m, "left"), "identifier") ||
            !ex_text_eq(x, field(m, "left"), name))
            continue;
        int other = excluding(x, m, taken, ntaken);
        if (other >= 0) {
            if (!x->second_arm)
                continue;
            /* the later arm instead: the ones after it stay, in order */
            memmove(&taken[other], &taken[other + 1], (ntaken - (size_t)other - 1) * sizeof *taken);
            ntaken--;
        }
        if (ntaken == MAX_TAKEN)
            return false;
        taken[ntaken++] = m;
    }
    for (size_t i = 0; i < ntaken; i++)
        if (!build_string(x, field(taken[i], "right"), buf, len, cap, depth + 1))
            return false;
    return true;
}

static void append_str(Ex *x, const char *t, char **buf, size_t *len, size_t *cap)
{
    size_t l = strlen(t);
    arena_grow(x->a, (void **)buf, cap, *len + l + 1, 1);
    memcpy(*buf + *len, t, l + 1);
    *len += l;
}

/* `parts.join(', ')` where `parts` is a local array of texts, with the
 * texts pushed on it in its block before the join
 * (`parts.push('GSI1PK = :gsi1pk')`; like a ternary's first branch, a
 * conditional push is taken, of pushes in the arms of one if/else the
 * first): an UpdateExpression or key condition put
 * together clause by clause. False when `call` is no such join, or a
 * text, or another change to the array (unshift, splice), cannot be
 * read. */
static bool joined_strings(Ex *x, SynNode call, char **buf, size_t *len, size_t *cap, int depth)
{
    SynNode fn = unwrap(field(call, "function"));
    SynNode arr = unwrap(field(fn, "object"));
    if (!is(fn, "member_expression") || !ex_text_eq(x, field(fn, "property"), "join") ||
        !is(arr, "identifier"))
        return false;
    const char *name = ex_ntext(x, arr);
    Binding b = ex_find_binding(x, arr, name, false);
    SynNode init = b.found && !b.param ? unwrap(b.value) : (SynNode){0};
    SynNode args = field(call, "arguments");
    const char *sep = ",";
    if (!is(init, "array") ||
        (syn_count(x->syn, args) && !ex_string_value(x, syn_child(x->syn, args, 0), &sep)))
        return false;
    size_t parts = 0;
    for (uint32_t i = 0; i < syn_count(x->syn, init); i++) {
        if (parts++)
            append_str(x, sep, buf, len, cap);
        if (!build_string(x, syn_child(x->syn, init, i), buf, len, cap, depth + 1))
            return false;
    }
    SynNode taken[MAX_TAKEN];
    size_t ntaken = 0;
    bool changed = false;
    BlockWalk w = ex_block_walk(x, b.decl, call, &x->string_steps_left);
    for (SynNode m; !syn_null(m = ex_push_next(x, &w, name, &changed));) {
        if (excluded(x, m, taken, ntaken))
            continue;
        if (ntaken < MAX_TAKEN)
            taken[ntaken++] = m;
        SynNode margs = field(m, "arguments");
        for (uint32_t i = 0; i < syn_count(x->syn, margs); i++) {
            size_t at = *len;
            if (parts)
                append_str(x, sep, buf, len, cap);
            if (!build_string(x, syn_child(x->syn, margs, i), buf, len, cap, depth + 1)) {
                if (!x->partial_joins)
                    return false;
                *len = at; /* a clause built at run time: left out */
                (*buf)[at] = '\0';
                continue;
            }
            parts++;
        }
    }
    return !changed;
}

static bool build_string(Ex *x, SynNode n, char **buf, size_t *len, size_t *cap, int depth)
{
    n = unwrap(n);
    const char *s;
    if (depth > 16 || syn_null(n) || !x->string_steps_left)
        return false;
    ex_spend(&x->string_steps_left, 1);
    if (ex_string_value(x, n, &s)) {
        size_t l = strlen(s);
        arena_grow(x->a, (void **)buf, cap, *len + l + 1, 1);
        memcpy(*buf + *len, s, l + 1);
        *len += l;
        return true;
    }
    if (is(n, "template_string")) {
        uint32_t cnt = syn_count(x->syn, n);
        for (uint32_t i = 0; i < cnt; i++) {
            SynNode c = syn_child(x->syn, n, i);
            if (is(c, "template_substitution")) {
                if (!build_string(x, syn_child(x->syn, c, 0), buf, len, cap, depth + 1))
                    return false;
                continue;
            }
            const char *t = ex_ntext(x, c);
            if (is(c, "escape_sequence")) {
                char e[16];
                size_t o = 0;
                if (strlen(t) < sizeof e - 1)
                    syn_append_escape(e, &o, t, strlen(t));
                e[o] = '\0';
                t = arena_strdup(x->a, e);
            }
            size_t l = strlen(t);
            arena_grow(x->a, (void **)buf, cap, *len + l + 1, 1);
            memcpy(*buf + *len, t, l + 1);
            *len += l;
        }
        return true;
    }
    if (is(n, "binary_expression") && ex_text_eq(x, field(n, "operator"), "+"))
        return build_string(x, field(n, "left"), buf, len, cap, depth + 1) &&
               build_string(x, field(n, "right"), buf, len, cap, depth + 1);
    if (is(n, "ternary_expression"))
        return build_string(x, field(n, "consequence"), buf, len, cap, depth + 1);
    if (is(n, "call_expression"))
        return joined_strings(x, n, buf, len, cap, depth);
    if (is(n, "identifier") || is(n, "shorthand_property_identifier")) {
        const char *name = ex_ntext(x, n);
        Binding b = ex_find_binding(x, n, name, true);
        if (b.found && !b.param && !syn_null(b.value))
            return build_string(x, b.value, buf, len, cap, depth + 1) &&
                   appended_strings(x, b.decl, name, n, buf, len, cap, depth);
    }
    /* a constant of another file (`${PK_NAME}`, `${Keys.SK}`): a name
     * resolution settles, written as a placeholder */
    SynNode root = n;
    while (is(root, "member_expression"))
        root = unwrap(field(root, "object"));
    if (is(root, "identifier") && ex_find_import(x, ex_ntext(x, root))) {
        const char *ph = arena_printf(x->a, "%s%zu", EXPR_CONST, x->expr_consts.n);
        strlist_push(x->a, &x->expr_consts, ex_ntext(x, n));
        size_t l = strlen(ph);
        arena_grow(x->a, (void **)buf, cap, *len + l + 1, 1);
        memcpy(*buf + *len, ph, l + 1);
        *len += l;
        return true;
    }
    return false;
}

/* A string or template literal whose value is its source text: no escape
 * sequences, no substitutions. */
bool ex_plain_literal(Ex *x, SynNode n)
{
    if (!is(n, "string") && !is(n, "template_string"))
        return false;
    uint32_t cnt = syn_count(x->syn, n);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode c = syn_child(x->syn, n, i);
        if (is(c, "escape_sequence") || is(c, "template_substitution"))
            return false;
    }
    return true;
}

/* A DynamoDB expression string as the code builds it, or NULL. */
const char *ex_expr_string(Ex *x, SynNode n)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    arena_grow(x->a, (void **)&buf, &cap, 1, 1);
    buf[0] = '\0';
    if (syn_null(n) || !build_string(x, n, &buf, &len, &cap, 0))
        return NULL;
    return buf;
}

void ex_key_conditions(Ex *x, const char *kce, SynNode names, SynNode values, int op,
                           bool on_index)
{
    KeyConds kc = {0};
    ddb_parse_key_condition(x->a, kce, &kc);
    for (size_t i = 0; i < kc.items.n; i++) {
        const KeyCond *c = &kc.items.v[i];
        const char *attr = ex_map_name(x, names, c->attr);
        int role = key_role_for_name(x->cfg, attr);
        if (role < 0 && x->spelled_only && !attr_is_deferred(attr))
            continue;
        /* a table's key condition names two keys at most (only a global
         * index has multi-attribute keys): a third clause with a name that
         * is no key's (`AND #status = :status`, which DynamoDB refuses) is
         * no key */
        if (role < 0 && i >= 2 && !on_index && !attr_is_deferred(attr))
            continue;
        if (role < 0) /* a custom key name: the first condition is the hash key */
            role = i == 0 ? (on_index ? ROLE_INDEX_PK : ROLE_PK)
                          : (on_index ? ROLE_INDEX_SK : ROLE_SK);
        for (int j = 0; j < 2; j++) {
            if (!c->values[j] || c->values[j][0] != ':')
                continue;
            SynNode v = ex_find_prop(x, values, c->values[j]);
            if (syn_null(v))
                continue;
            size_t first = x->ir->extracted.n;
            ex_add_key_branches(x, v, (KeyRole)role, attr, SITE_CONDITION, op, c->op);
            for (size_t k = first; k < x->ir->extracted.n; k++)
                if (attr_is_deferred(attr)) /* the name comes from a constant */
                    x->ir->extracted.v[k].attr_const = attr_deferred_const(x->a, attr);
        }
    }
}

/* ---- key conditions written as objects --------------------------------- */

/* The operators key conditions written as objects name (`{ beginsWith:
 * x }`, `{ gte: x }`) and the predicates of @aws/dynamodb-expressions
 * (`greaterThanOrEqualTo(x)`). */
static const struct {
    const char *name;
    CondOp op;
} cond_names[] = {
    {"equals", COND_EQ},          {"eq", COND_EQ},
    {"beginsWith", COND_BEGINS_WITH},
    {"greaterThan", COND_GT},     {"gt", COND_GT},
    {"greaterThanOrEquals", COND_GE}, {"greaterThanOrEqualTo", COND_GE},
    {"gte", COND_GE},             {"ge", COND_GE},
    {"lessThan", COND_LT},        {"lt", COND_LT},
    {"lessThanOrEquals", COND_LE}, {"lessThanOrEqualTo", COND_LE},
    {"lte", COND_LE},             {"le", COND_LE},
    {"between", COND_BETWEEN},
};
enum { NCOND_NAMES = sizeof cond_names / sizeof *cond_names };

/* A predicate of @aws/dynamodb-expressions (`beginsWith(x)`,
 * `between(a, b)`, `greaterThan(x)`, ...): its operands are the condition's
 * values. False when `v` is no such call. */
static bool predicate_call(Ex *x, SynNode v, KeyRole role, const char *attr, int op)
{
    SynNode fn = syn_unwrap(x->syn, syn_field(x->syn, v, "function"));
    if (!syn_is(v, "call_expression") || !syn_is(fn, "identifier"))
        return false;
    const char *name = ex_ntext(x, fn);
    if (!ex_imported_from(x, name, DDB_EXPRESSIONS))
        return false;
    for (size_t i = 0; i < NCOND_NAMES; i++) {
        if (strcmp(name, cond_names[i].name))
            continue;
        uint32_t operands = cond_names[i].op == COND_BETWEEN ? 2 : 1;
        for (uint32_t j = 0; j < operands; j++) {
            SynNode a = ex_arg(x, v, j);
            if (!syn_null(a) && ex_value_can_be_key(x, a))
                ex_add_key(x, a, role, attr, SITE_CONDITION, op, cond_names[i].op);
        }
        return true;
    }
    return false;
}

/* { beginsWith: x } / { between: [a, b] } / { eq: x } / a plain value. */
static void condition_value(Ex *x, SynNode v, KeyRole role, const char *attr, int op)
{
    v = syn_unwrap(x->syn, v);
    if (predicate_call(x, v, role, attr, op))
        return;
    if (!syn_is(v, "object")) {
        if (ex_value_can_be_key(x, v))
            ex_add_key(x, v, role, attr, SITE_CONDITION, op, COND_EQ);
        return;
    }
    ex_consume(x, v);
    for (size_t i = 0; i < NCOND_NAMES; i++) {
        SynNode c = ex_find_prop(x, v, cond_names[i].name);
        if (syn_null(c))
            continue;
        c = syn_unwrap(x->syn, c);
        if (cond_names[i].op == COND_BETWEEN && syn_is(c, "array")) {
            for (uint32_t j = 0; j < syn_count(x->syn, c) && j < 2; j++)
                ex_add_key(x, syn_child(x->syn, c, j), role, attr, SITE_CONDITION, op,
                           COND_BETWEEN);
        } else if (ex_value_can_be_key(x, c)) {
            ex_add_key(x, c, role, attr, SITE_CONDITION, op, cond_names[i].op);
        }
    }
}

/* Every key attribute of a condition object ({ pk: ..., sk: { ... } }). */
void ex_condition_object(Ex *x, SynNode obj, int op, bool on_index)
{
    obj = ex_follow(x, obj, NULL, NULL);
    if (!syn_is(obj, "object"))
        return;
    ex_consume(x, obj);
    uint32_t cnt = syn_count(x->syn, obj);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode p = syn_child(x->syn, obj, i);
        const char *name = ex_prop_name(x, p);
        int role = key_role_for_name(x->cfg, name);
        if (role < 0)
            continue;
        if (on_index && role == ROLE_PK)
            role = ROLE_INDEX_PK;
        if (on_index && role == ROLE_SK)
            role = ROLE_INDEX_SK;
        condition_value(x, syn_prop_value(x->syn, p), (KeyRole)role, name, op);
    }
}
